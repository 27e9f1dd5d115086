"""The typed, immutable AST, in GeoChallenge's terms.

A *problem* is a *premise* (ordered *constructions*, each ``points = clause,
clause``) plus goals, options, an answer key and candidate auxiliary
constructions. Arguments are point names (``str``) or :class:`Constant`.

Every node carries a source :class:`~geodsl.errors.Location` in ``span``; spans
are excluded from equality and hashing, so ``parse(p.to_text()) == p`` compares
meaning, not layout. Clauses are stored in full form: shorthand such as
``a b c = triangle`` is expanded by the parser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, Union

from .errors import Location

ConstKind = Literal["angle", "degrees", "ratio", "length"]
"""How a constant is read: ``angle`` in units of π (``1pi/4``), ``degrees``
(``45``; Newclid ``45o``), ``ratio`` (``1/2``), ``length`` (``3/2``)."""

CONST_KINDS: tuple[ConstKind, ...] = ("angle", "degrees", "ratio", "length")


@dataclass(frozen=True, slots=True)
class Constant:
    """An exact constant argument. Angles are kept in the unit their clause
    takes (π-fractions for ``angle``, degrees for ``degrees``), so printing is
    exact and round-trips."""

    kind: ConstKind
    value: Fraction

    def to_text(self, dialect: str = "alphageometry") -> str:
        from .printer import constant_text

        return constant_text(self, dialect)

    def __str__(self) -> str:
        return self.to_text()


Arg = Union[str, Constant]


def _span() -> Location | None:
    return field(default=None, compare=False, hash=False, repr=False)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Clause:
    """``f(X1..Xn)``: one relation from the definitions table, full arguments."""

    name: str
    args: tuple[Arg, ...]
    span: Location | None = _span()

    @property
    def points(self) -> tuple[str, ...]:
        return tuple(a for a in self.args if isinstance(a, str))

    def to_text(self, dialect: str = "alphageometry") -> str:
        from .printer import clause_text

        return clause_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Construction:
    """``x = f(...), g(...)``: the new points and the clauses that fix them.

    ``placements`` holds coordinates the text fixes for some new points
    (AlphaGeometry's ``x@4.96_-0.13``), exact, as (point, x, y).
    """

    points: tuple[str, ...]
    clauses: tuple[Clause, ...]
    span: Location | None = _span()
    placements: tuple[tuple[str, Fraction, Fraction], ...] = ()

    def to_text(self, dialect: str = "alphageometry") -> str:
        from .printer import construction_text

        return construction_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Premise:
    """The ordered constructions of a problem."""

    constructions: tuple[Construction, ...]
    span: Location | None = _span()

    @property
    def points(self) -> tuple[str, ...]:
        """Every point, in construction order."""
        return tuple(p for c in self.constructions for p in c.points)

    def to_text(self, dialect: str = "alphageometry") -> str:
        from .printer import premise_text

        return premise_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Predicate:
    """A relation used in goals, options, rules and proof steps."""

    name: str
    args: tuple[Arg, ...]
    negated: bool = False
    span: Location | None = _span()

    @property
    def points(self) -> tuple[str, ...]:
        return tuple(a for a in self.args if isinstance(a, str))

    def negate(self) -> "Predicate":
        return Predicate(self.name, self.args, not self.negated, self.span)

    def canonical(self) -> "Predicate":
        """The same fact with its arguments in canonical order (``para b a d c``
        and ``para c d a b`` both become ``para a b c d``): for comparing facts."""
        from .definitions import rulebase

        return rulebase().predicate(self.name).canonical(self)

    def to_text(self, dialect: str = "alphageometry") -> str:
        from .printer import predicate_text

        return predicate_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Option:
    """A labelled option of a multi-answer problem (possibly negated)."""

    label: str
    predicate: Predicate
    span: Location | None = _span()


@dataclass(frozen=True, slots=True)
class AuxCandidate:
    """Auxiliary constructions proposed for a problem (e.g. by a model)."""

    label: str | None
    constructions: tuple[Construction, ...]
    span: Location | None = _span()


@dataclass(frozen=True, slots=True)
class Problem:
    """A premise plus what is asked of it.

    ``goals`` holds the goal predicates (AlphaGeometry has one, Newclid may
    list several); ``options`` the labelled options of a multi-answer problem;
    ``answer`` the answer key (option labels) or ``None``; ``aux`` candidate
    auxiliary constructions; ``meta`` free ``@key: value`` pairs in file order.
    """

    name: str | None
    premise: Premise
    goals: tuple[Predicate, ...] = ()
    options: tuple[Option, ...] = ()
    answer: tuple[str, ...] | None = None
    aux: tuple[AuxCandidate, ...] = ()
    meta: tuple[tuple[str, str], ...] = ()
    span: Location | None = _span()

    @property
    def goal(self) -> Predicate | None:
        """The goal predicate (the first, if several), or ``None``."""
        return self.goals[0] if self.goals else None

    @property
    def points(self) -> tuple[str, ...]:
        return self.premise.points

    def to_text(self, dialect: str = "alphageometry") -> str:
        """Canonical text: the AlphaGeometry two-line form when the problem has
        only a premise and goals, the ``.gdl`` block form otherwise."""
        from .printer import problem_text

        return problem_text(self, dialect)

    def to_dict(self, dialect: str = "alphageometry") -> dict[str, object]:
        from .printer import problem_dict

        return problem_dict(self, dialect)
