"""The typed, immutable AST, in GeoChallenge's terms.

A *problem* is a *premise* (ordered *constructions*, each ``points = clause,
clause``) plus goals, options, an answer key and candidate auxiliary
constructions. Arguments are point names (``str``) or :class:`Constant`.

Every node carries a source :class:`~geodsl.lang.errors.Location` in ``span``; spans
are excluded from equality and hashing, so ``parse(p.to_text()) == p`` compares
meaning, not layout. Clauses are stored in full form: shorthand such as
``a b c = triangle`` is expanded by the parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from . import printer
from .constants import CONST_KINDS, ConstKind, Constant
from .errors import Location
from .terms import Arg, Predicate, span_field

__all__ = ["Arg", "AuxCandidate", "CONST_KINDS", "Clause", "ConstKind", "Constant", "Construction",
           "Option", "Predicate", "Premise", "Problem"]



@dataclass(frozen=True, slots=True)
class Clause:
    """``f(X1..Xn)``: one relation from the definitions table, full arguments."""

    name: str
    args: tuple[Arg, ...]
    span: Location | None = span_field()

    @property
    def points(self) -> tuple[str, ...]:
        return tuple(a for a in self.args if isinstance(a, str))

    def to_text(self, dialect: str = "alphageometry") -> str:
        return printer.clause_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Construction:
    """``x = f(...), g(...)``: the new points and the clauses that fix them.

    ``placements`` holds coordinates the text fixes for some new points
    (AlphaGeometry's ``x@4.96_-0.13``), exact, as (point, x, y).
    """

    points: tuple[str, ...]
    clauses: tuple[Clause, ...]
    span: Location | None = span_field()
    placements: tuple[tuple[str, Fraction, Fraction], ...] = ()

    def to_text(self, dialect: str = "alphageometry") -> str:
        return printer.construction_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Premise:
    """The ordered constructions of a problem."""

    constructions: tuple[Construction, ...]
    span: Location | None = span_field()

    @property
    def points(self) -> tuple[str, ...]:
        """Every point, in construction order."""
        return tuple(p for c in self.constructions for p in c.points)

    def to_text(self, dialect: str = "alphageometry") -> str:
        return printer.premise_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Option:
    """A labelled option of a multi-answer problem (possibly negated)."""

    label: str
    predicate: Predicate
    span: Location | None = span_field()


@dataclass(frozen=True, slots=True)
class AuxCandidate:
    """Auxiliary constructions proposed for a problem (e.g. by a model)."""

    label: str | None
    constructions: tuple[Construction, ...]
    span: Location | None = span_field()


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
    span: Location | None = span_field()

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
        return printer.problem_text(self, dialect)

    def to_dict(self, dialect: str = "alphageometry") -> dict[str, object]:
        return printer.problem_dict(self, dialect)
