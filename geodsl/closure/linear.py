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
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

Form = dict[int, Fraction]
"""A linear form: column -> coefficient (no zero coefficients)."""

Reason = dict[int, Fraction]
"""A combination of input equations: equation id -> weight."""


def _axpy(target: dict[int, Fraction], scale: Fraction, source: Mapping[int, Fraction]) -> None:
    """target += scale * source, dropping zeros (in place)."""
    for k, v in source.items():
        nv = target.get(k, 0) + scale * v
        if nv:
            target[k] = nv
        else:
            target.pop(k, None)


def integral(reason: Mapping[int, Fraction]) -> bool:
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
        """variable -> pivots of the rows that mention it (besides the pivot)."""
        self.version = 0

    def reduce(self, form: Mapping[int, Fraction]) -> tuple[Form, Reason]:
        """The form minus a combination of rows, with no pivot variable left.

        Returns (residual, reason): ``form = residual + Σ reason_i·equation_i``
        holds as linear forms, so when the residual has no variable columns,
        the form equals the (constant) residual by the equations in reason.
        """
        out: Form = {k: Fraction(v) for k, v in form.items() if v}
        reason: Reason = {}
        for var in sorted(k for k in out if k in self.rows):
            coef = out.get(var)
            if not coef:
                continue
            _axpy(out, -coef, self.rows[var])
            _axpy(reason, coef, self.reasons[var])
        return out, reason

    def add(self, form: Mapping[int, Fraction], ident: int) -> bool:
        """Add equation ``form = 0`` (input equation ``ident``).

        Returns False when it is already implied (its variables reduce away);
        a constant-only residual is then ignored here — the caller decides
        whether it is consistent (numerically it always is: every input is a
        true fact).
        """
        residual, reason = self.reduce(form)
        variables = [k for k in residual if k >= 0]
        if not variables:
            return False
        # Prefer a unit coefficient (keeps weights integral), then the newest variable.
        pivot = max(variables, key=lambda k: (abs(residual[k]) == 1, k))
        scale = 1 / residual[pivot]
        row = {k: v * scale for k, v in residual.items()}
        why: Reason = {k: -v * scale for k, v in reason.items()}
        _axpy(why, scale, {ident: Fraction(1)})
        # Eliminate the new pivot from every row that mentions it.
        for other in sorted(self.occurs.get(pivot, ())):
            orow = self.rows[other]
            coef = orow[pivot]
            before = [k for k in orow if k >= 0 and k != other]
            _axpy(orow, -coef, row)
            _axpy(self.reasons[other], -coef, why)
            after = {k for k in orow if k >= 0 and k != other}
            for k in before:
                if k not in after:
                    self.occurs[k].discard(other)
            for k in after:
                self.occurs.setdefault(k, set()).add(other)
        self.occurs.pop(pivot, None)
        self.rows[pivot] = row
        self.reasons[pivot] = why
        for k in row:
            if k >= 0 and k != pivot:
                self.occurs.setdefault(k, set()).add(pivot)
        self.version += 1
        return True


def _egcd(a: int, b: int) -> tuple[int, int, int]:
    """(g, s, u) with s·a + u·b = g = gcd(a, b) > 0."""
    s0, s1, u0, u1 = 1, 0, 0, 1
    while b:
        q, a, b = a // b, b, a % b
        s0, s1 = s1, s0 - q * s1
        u0, u1 = u1, u0 - q * u1
    if a < 0:
        a, s0, u0 = -a, -s0, -u0
    return a, s0, u0


def _combine(x: Mapping[int, object], cx: int, y: Mapping[int, object], cy: int) -> dict[int, object]:
    """cx·x + cy·y without zeros."""
    out: dict[int, object] = {}
    for k, v in x.items():
        if cx:
            out[k] = cx * v  # type: ignore[operator]
    for k, v in y.items():
        if cy:
            out[k] = out.get(k, 0) + cy * v  # type: ignore[operator]
    return {k: v for k, v in out.items() if v}


def _combine_q(x: Mapping[int, object], y: Mapping[int, object], q: Fraction) -> dict[int, object]:
    """x + q·y without zeros (rational q)."""
    out: dict[int, object] = dict(x)
    for k, v in y.items():
        out[k] = out.get(k, 0) + q * v  # type: ignore[operator]
    return {k: v for k, v in out.items() if v}


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
        self.rows: dict[int, dict[int, object]] = {}
        self.reasons: dict[int, dict[int, int]] = {}
        self.version = 0

    @staticmethod
    def _first_var(form: Mapping[int, object]) -> int | None:
        vs = [k for k in form if k >= 0]
        return min(vs) if vs else None

    def reduce(self, form: Mapping[int, object]) -> tuple[dict[int, object], dict[int, int]]:
        """(residual, reason) with ``form = residual + Σ reason_i·equation_i``,
        reason integral; the residual keeps a variable when no integer
        combination clears it."""
        out = {k: (int(v) if k >= 0 else v) for k, v in form.items() if v}
        reason: dict[int, int] = {}
        while True:
            v = self._first_var(out)
            if v is None or v not in self.rows:
                return out, reason
            row = self.rows[v]
            p, t = row[v], out[v]
            if t % p:  # type: ignore[operator]
                return out, reason
            q = t // p  # type: ignore[operator]
            out = _combine(out, 1, row, -q)
            reason = _combine(reason, 1, self.reasons[v], q)  # type: ignore[assignment]

    def reduce_rational(self, form: Mapping[int, object]) -> tuple[dict[int, object], dict[int, object]]:
        """Like :meth:`reduce`, but with rational multiples of the rows.

        The rows span the same rational space as the input equations (only
        unimodular operations made them), so this decides membership in the
        rational span; the reason may have non-integer weights."""
        out: dict[int, object] = {k: (Fraction(v) if k >= 0 else v) for k, v in form.items() if v}  # type: ignore[arg-type]
        reason: dict[int, object] = {}
        while True:
            v = self._first_var(out)
            if v is None or v not in self.rows:
                return out, reason
            row = self.rows[v]
            q = Fraction(out[v]) / row[v]  # type: ignore[arg-type]
            out = {k: w for k, w in _combine_q(out, row, -q).items()}
            reason = _combine_q(reason, self.reasons[v], q)

    def add(self, form: Mapping[int, object], ident: int) -> bool:
        """Add integer equation ``form = 0``; False if already implied."""
        out = {k: (int(v) if k >= 0 else v) for k, v in form.items() if v}
        reason: dict[int, int] = {ident: 1}
        changed = False
        while True:
            v = self._first_var(out)
            if v is None:
                if changed:
                    self.version += 1
                return changed
            if v not in self.rows:
                if out[v] < 0:  # type: ignore[operator]
                    out = _combine(out, -1, {}, 0)
                    reason = _combine(reason, -1, {}, 0)  # type: ignore[assignment]
                self.rows[v] = out
                self.reasons[v] = reason
                self.version += 1
                return True
            row, why = self.rows[v], self.reasons[v]
            p, t = row[v], out[v]
            if t % p == 0:  # type: ignore[operator]
                q = t // p  # type: ignore[operator]
                out = _combine(out, 1, row, -q)
                reason = _combine(reason, 1, why, -q)  # type: ignore[assignment]
                continue
            g, s, u = _egcd(p, t)  # type: ignore[arg-type]
            self.rows[v] = _combine(row, s, out, u)
            self.reasons[v] = _combine(why, s, reason, u)  # type: ignore[assignment]
            out = _combine(row, t // g, out, -(p // g))  # type: ignore[operator]
            reason = _combine(why, t // g, reason, -(p // g))  # type: ignore[assignment,operator]
            changed = True
