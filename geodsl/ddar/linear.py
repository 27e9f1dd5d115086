"""Exact linear elimination with justifications: the core of AR.

A :class:`LinearTable` holds linear equations ``Σ c_v·x_v + Σ k_j·K_j = 0``
over exact rationals (:class:`fractions.Fraction`). Columns ``v >= 0`` are
*variables* (line directions, log-lengths); columns ``j < 0`` are *constant
columns* (π for angles, ``log p`` for each prime ``p`` for ratios), never
eliminated, so a constant is just more coefficients and stays exact (there
are no floats anywhere in here).

The table is kept in reduced row echelon form: each row has a pivot
variable that no other row mentions, so reducing a query is one pass over
its variables. Every row carries its *reason*: the combination of input
equations (by id, with rational weights) that produced it. Reducing a query
to zero therefore yields the input equations that justify it — the parents
of an "Angle chase" or "Ratio chase" step.

Angles are only known modulo π. A combination with non-integer weights can
be unsound mod π (2x ≡ 0 does not give x ≡ 0), so callers working mod π
accept a result only when every weight is an integer (:func:`integral`);
pivots with coefficient ±1 are preferred to keep weights integral.

The elimination loops run for every AR query and every new angle or ratio
fact, so they are compiled (``ext/linear.pyx``, imported as
:mod:`geodsl._linear`); this module keeps the tables' state, their API and
their documentation. The rational loops (:class:`LinearTable`,
:meth:`LatticeTable.reduce_rational`) keep a coefficient as ``int`` when it is
integral and as :class:`~fractions.Fraction` otherwise (int arithmetic is far
cheaper, and nearly every coefficient is an integer); the two compare and
hash alike, so callers see the same rationals.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from .._linear import hermite_add, hermite_reduce, hermite_reduce_rational, rref_add, rref_reduce

Number = int | Fraction
"""An exact rational: ``int`` where integral (far cheaper), else a Fraction."""

Form = dict[int, Number]
"""A linear form: column -> coefficient (no zero coefficients)."""

Reason = dict[int, Number]
"""A combination of input equations: equation id -> weight."""


def integral(reason: Mapping[int, Number]) -> bool:
    """True if every weight of the combination is an integer."""
    return all(w.denominator == 1 for w in reason.values())


class LinearTable:
    """Equations in reduced row echelon form, each row with its reason.

    ``version`` increases whenever a row is added, so callers can cache
    query results per version.
    """

    __slots__ = ("rows", "reasons", "occurs", "version")

    def __init__(self) -> None:
        self.rows: dict[int, Form] = {}
        """pivot variable -> row (the pivot's coefficient is 1)."""
        self.reasons: dict[int, Reason] = {}
        self.occurs: dict[int, set[int]] = {}
        """variable -> pivots of the rows that mention it (besides the pivot),
        so adding a pivot touches only the rows it must be eliminated from."""
        self.version = 0

    def reduce(self, form: Mapping[int, Number]) -> tuple[Form, Reason]:
        """The form minus a combination of rows, with no pivot variable left.

        Returns (residual, reason): ``form = residual + Σ reason_i·equation_i``
        holds as linear forms, so when the residual has no variable columns,
        the form equals the (constant) residual by the equations in reason.
        """
        return rref_reduce(self.rows, self.reasons, form)

    def add(self, form: Mapping[int, Number], ident: int) -> bool:
        """Add equation ``form = 0`` (input equation ``ident``).

        Returns False when it is already implied (its variables reduce away);
        a constant-only residual is then ignored here — the caller decides
        whether it is consistent (numerically it always is: every input is a
        true fact). Otherwise the residual becomes a row, pivoting on the
        newest variable with coefficient ±1 if there is one (keeps weights
        integral), else on the newest variable, and the pivot is eliminated
        from every other row.
        """
        if not rref_add(self.rows, self.reasons, self.occurs, form, ident):
            return False
        self.version += 1
        return True


class LatticeTable:
    """Integer equations in Hermite (echelon) form: every combination is
    integral, so it is sound for angles modulo π.

    Variables have integer coefficients (constant columns may be rational);
    rows are only ever combined by unimodular integer operations (subtract an
    integer multiple; replace two rows by their extended-gcd combinations), so
    the reason of every row, and of every reduction, has integer weights.
    Columns are processed in increasing order, each row starting at its pivot
    column with a positive pivot; then a target is an integer combination of
    the equations exactly when greedy division at each pivot clears its
    variables (:meth:`reduce`).
    """

    __slots__ = ("rows", "reasons", "version")

    def __init__(self) -> None:
        self.rows: dict[int, Form] = {}
        """pivot variable -> row (the row's least variable; replaced, never
        changed in place)."""
        self.reasons: dict[int, dict[int, int]] = {}
        self.version = 0

    def reduce(self, form: Mapping[int, Number]) -> tuple[Form, Reason]:
        """(residual, reason) with ``form = residual + Σ reason_i·equation_i``,
        reason integral; the residual keeps a variable when no integer
        combination clears it."""
        return hermite_reduce(self.rows, self.reasons, form)

    def reduce_rational(self, form: Mapping[int, Number]) -> tuple[Form, Reason]:
        """Like :meth:`reduce`, but with rational multiples of the rows.

        The rows span the same rational space as the input equations (only
        unimodular operations made them), so this decides membership in the
        rational span; the reason may have non-integer weights."""
        return hermite_reduce_rational(self.rows, self.reasons, form)

    def add(self, form: Mapping[int, Number], ident: int) -> bool:
        """Add integer equation ``form = 0``; False if already implied."""
        if not hermite_add(self.rows, self.reasons, form, ident):
            return False
        self.version += 1
        return True
