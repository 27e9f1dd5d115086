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

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from . import printer
from .constants import CONST_KINDS, ConstKind, Constant
from .errors import Location, ProblemError
from .terms import Arg, Predicate, span_field

__all__ = ["Arg", "AuxCandidate", "CONST_KINDS", "Clause", "ConstKind", "Constant", "Construction",
           "Option", "Predicate", "Premise", "Problem", "Query"]



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
    ``auxiliary`` marks a construction the problem gives after ``|``
    (``premise | aux ? goal``): part of the premise, realized and used by the
    closure like any other, but printed after ``|`` and listed as an
    auxiliary construction in proofs.
    """

    points: tuple[str, ...]
    clauses: tuple[Clause, ...]
    span: Location | None = span_field()
    placements: tuple[tuple[str, Fraction, Fraction], ...] = ()
    auxiliary: bool = False

    def to_text(self, dialect: str = "alphageometry") -> str:
        return printer.construction_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Premise:
    """The ordered constructions of a problem: the given ones, then the
    auxiliary ones the text gives after ``|`` (flagged ``auxiliary``)."""

    constructions: tuple[Construction, ...]
    span: Location | None = span_field()

    @property
    def points(self) -> tuple[str, ...]:
        """Every point, in construction order (auxiliary points included)."""
        return tuple(p for c in self.constructions for p in c.points)

    @property
    def given(self) -> tuple[Construction, ...]:
        """The constructions before ``|``."""
        return tuple(c for c in self.constructions if not c.auxiliary)

    @property
    def auxiliary(self) -> tuple[Construction, ...]:
        """The constructions after ``|``."""
        return tuple(c for c in self.constructions if c.auxiliary)

    def to_text(self, dialect: str = "alphageometry") -> str:
        return printer.premise_text(self, dialect)


@dataclass(frozen=True, slots=True)
class Query:
    """A goal that asks for a value instead of stating a fact: ``acompute a b
    c d`` asks for ∠(ab, cd) (Newclid's ``acompute``, ``rcompute``,
    ``lcompute``; defined in ``rulebase/queries.gdl``). Written after ``?``
    among the goals; answered numerically from the diagrams, and by the
    closure when it proves the value."""

    name: str
    args: tuple[str, ...]
    span: Location | None = span_field()

    @property
    def points(self) -> tuple[str, ...]:
        return self.args

    def to_text(self, dialect: str = "alphageometry") -> str:
        return " ".join((self.name, *self.args))


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
    list several), ``queries`` the goals that ask for a value (``acompute``); ``options`` the labelled options of a multi-answer problem;
    ``answer`` the answer key (option labels) or ``None``; ``aux`` candidate
    auxiliary constructions (``aux:`` lines: proposed, not given — the
    constructions a problem *gives* after ``|`` are in the premise, flagged
    ``auxiliary``); ``meta`` free ``@key: value`` pairs in file order.
    """

    name: str | None
    premise: Premise
    goals: tuple[Predicate, ...] = ()
    options: tuple[Option, ...] = ()
    answer: tuple[str, ...] | None = None
    aux: tuple[AuxCandidate, ...] = ()
    meta: tuple[tuple[str, str], ...] = ()
    span: Location | None = span_field()
    queries: tuple[Query, ...] = ()

    @property
    def goal(self) -> Predicate | None:
        """The goal predicate (the first, if several), or ``None``."""
        return self.goals[0] if self.goals else None

    @property
    def points(self) -> tuple[str, ...]:
        return self.premise.points

    @property
    def aux_given(self) -> tuple[Construction, ...]:
        """The auxiliary constructions the problem gives after ``|`` (they are
        also in ``premise.constructions``; ``aux`` holds candidates instead)."""
        return self.premise.auxiliary

    def with_auxiliary(self, constructions: Sequence[Construction]) -> "Problem":
        """The same problem with ``constructions`` appended to its ``|``
        section (an auxiliary-point search's try)."""
        return replace(self, premise=Premise(self.premise.constructions + tuple(constructions),
                                             self.premise.span))

    def without_aux_given(self) -> "Problem":
        """The same problem without its ``|`` section: what the premise alone
        gives (to measure what the auxiliary constructions contribute).

        Raises :class:`~geodsl.lang.errors.ProblemError` when a goal, option
        or candidate uses a point only the auxiliary constructions introduce.
        """
        given = self.premise.given
        known = {p for c in given for p in c.points}
        removed = {p for c in self.premise.auxiliary for p in c.points}
        asked: list[Predicate | Query] = [*self.goals, *self.queries, *(o.predicate for o in self.options)]
        used: list[tuple[str, Location | None]] = [(p, x.span) for x in asked for p in x.points]
        used += [(a, cl.span) for cand in self.aux for c in cand.constructions for cl in c.clauses
                 for a in cl.points if a not in c.points]
        for point, span in used:
            if point in removed and point not in known:
                raise ProblemError(
                    f"`{point}` is an auxiliary point: the problem needs its `|` section",
                    source=span.source if span else None, line=span.line if span else None,
                    column=span.column if span else None, text=point,
                    hint="keep the auxiliary constructions, or state the goal on premise points")
        return replace(self, premise=Premise(given, self.premise.span))

    def to_text(self, dialect: str = "alphageometry") -> str:
        """Canonical text: the AlphaGeometry two-line form when the problem has
        only a premise and goals, the ``.gdl`` block form otherwise."""
        return printer.problem_text(self, dialect)

    def to_dict(self, dialect: str = "alphageometry") -> dict[str, object]:
        return printer.problem_dict(self, dialect)
