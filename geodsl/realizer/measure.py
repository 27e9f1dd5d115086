"""Measuring what a query asks for: the constant of a predicate, in the diagrams.

A query (``acompute a b c d``, ``rulebase/queries.gdl``) names a predicate
with one constant (``aconst a b c d angle``). :data:`MEASURES` holds, for
each such predicate, the function that computes that constant from the
points of one diagram: the value that makes the predicate true there. So
``measure`` is the numeric inverse of :data:`~geodsl.realizer.checks.CHECKS`
for the constant predicates; a test holds the two together (the check
accepts the measured value).

:func:`exact` names the value exactly when every diagram gives the same
simple fraction (of π for angles): a denominator of at most
:data:`MAX_DENOMINATOR` for angles (half a degree), :data:`MAX_RATIO_DENOMINATOR`
otherwise, within the diagrams' tolerance. Past those the value is reported
as a number only: a fraction with a larger denominator would match too many
irrational values by chance.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..lang.ast import CONST_KINDS, ConstKind, Constant, Predicate, Query
from ..lang.definitions import rulebase
from .tolerance import Tolerance

Measure = Callable[[Sequence[complex]], float | None]

MEASURES: dict[str, Measure] = {}
"""The constant of each constant predicate, from its points; None when the
points do not define it (coinciding points, a zero length)."""

MAX_DENOMINATOR = 360
"""Largest denominator of an angle named exactly (in units of π: π/360 is half a degree)."""
MAX_RATIO_DENOMINATOR = 100
"""Largest denominator of a ratio or length named exactly."""


def _measure(name: str) -> Callable[[Measure], Measure]:
    def register(fn: Measure) -> Measure:
        MEASURES[name] = fn
        return fn
    return register


@_measure("aconst")
def angle(p: Sequence[complex]) -> float | None:
    """∠(ab, cd) in units of π, in [0, 1): the directed angle of the lines, mod π."""
    a, b, c, d = p
    if a == b or c == d:
        return None
    turn = (math.atan2((d - c).imag, (d - c).real) - math.atan2((b - a).imag, (b - a).real)) / math.pi
    return turn % 1.0


@_measure("rconst")
def ratio(p: Sequence[complex]) -> float | None:
    a, b, c, d = p
    return abs(b - a) / abs(d - c) if c != d else None


@_measure("lconst")
def length(p: Sequence[complex]) -> float | None:
    a, b = p
    return abs(b - a)


@_measure("r2const")
def squared_ratio(p: Sequence[complex]) -> float | None:
    a, b, c, d = p
    return abs(b - a) ** 2 / abs(d - c) ** 2 if c != d else None


@_measure("l2const")
def squared_length(p: Sequence[complex]) -> float | None:
    a, b = p
    return abs(b - a) ** 2


@dataclass(frozen=True)
class Measurement:
    """What one query measures in a set of diagrams.

    ``values`` holds the measured constant per diagram, in the constant's
    unit (angles as multiples of π, in [0, 1)), None where the points do not
    define it; ``constant`` the exact value when every diagram gives the same
    simple fraction; ``predicate`` the queried predicate with that constant
    (``aconst a b b c 2pi/3``), to prove.
    """

    query: Query
    kind: str
    values: tuple[float | None, ...]
    constant: Constant | None
    predicate: Predicate | None
    choices: tuple[Constant, ...] = ()
    """When the diagrams disagree but each gives a simple fraction (a figure
    and its mirror image: 1pi/4 and 3pi/4), the distinct values, in diagram
    order (at most :data:`MAX_CHOICES`)."""

    @property
    def same(self) -> bool:
        """Every diagram gives one value (so the premise fixes it)."""
        return self.constant is not None or _agree(self.values, self.kind)

    def value_text(self) -> str:
        """The value for people: exact when named (``2pi/3 (120°)``), the
        values the diagrams give when they differ (``3pi/4 (135°) or 1pi/4
        (45°)``), else a decimal."""
        if self.constant is not None:
            return _constant_text(self.constant)
        if self.choices:
            return " or ".join(_constant_text(c) for c in self.choices)
        known = [v for v in self.values if v is not None]
        if not known:
            return "undefined"
        if self.kind == "angle":
            return f"{known[0]:.9g}π ({known[0] * 180:.6g}°)"
        return f"{known[0]:.9g}"

    def to_dict(self) -> dict[str, object]:
        return {"query": self.query.to_text(), "kind": self.kind,
                "values": [None if v is None else round(v, 12) for v in self.values],
                "same_in_every_diagram": self.same,
                "value": None if self.constant is None else self.constant.to_text(),
                "choices": [c.to_text() for c in self.choices],
                "text": self.value_text(),
                "predicate": None if self.predicate is None else self.predicate.to_text()}


MAX_CHOICES = 4
"""Most distinct per-diagram values :attr:`Measurement.choices` lists."""


def _constant_text(c: Constant) -> str:
    if c.kind != "angle":
        return c.to_text()
    degrees = c.value * 180
    shown = str(degrees) if degrees.denominator == 1 else f"{float(degrees):.6g}"
    return f"{c.to_text()} ({shown}°)"


def _agree(values: Sequence[float | None], kind: str, tol: float = 1e-6) -> bool:
    known = [v for v in values if v is not None]
    if len(known) != len(values) or not known:
        return False
    first = known[0]
    if kind == "angle":  # mod 1: 0.9999999 and 0 are one angle
        return all(min(abs(v - first), 1 - abs(v - first)) <= tol for v in known)
    return all(abs(v - first) <= tol * max(1.0, abs(first)) for v in known)


def exact(values: Sequence[float | None], kind: str, tol: Tolerance) -> Fraction | None:
    """The simple fraction every value equals within the tolerance, if any."""
    known = [v for v in values if v is not None]
    if not known or len(known) != len(values):
        return None
    limit = MAX_DENOMINATOR if kind == "angle" else MAX_RATIO_DENOMINATOR
    guess = Fraction(known[0]).limit_denominator(limit)
    if kind == "angle":
        guess %= 1
        # The angle tolerance is in radians; values are in units of π.
        close = tol.angle / math.pi
        ok = all(min(abs(v - guess) % 1, 1 - abs(v - guess) % 1) <= close for v in known)
    else:
        ok = guess > 0 and all(abs(v - guess) <= tol.length * max(1.0, abs(v)) for v in known)
    return guess if ok else None


def _constant_kind(kind: str) -> ConstKind:
    """A query asks for a constant: angle, degrees, ratio or length."""
    for known in CONST_KINDS:
        if known == kind:
            return known
    raise ValueError(f"a query asks for a constant, not a {kind}")


def measure(query: Query, coords: Sequence[Mapping[str, complex]], tol: Tolerance) -> Measurement:
    """Measure ``query`` in every diagram of ``coords`` (one mapping of point
    names to coordinates per diagram)."""
    qdef = rulebase().queries[query.name]
    fn = MEASURES[qdef.computes.name]
    values: list[float | None] = []
    for pts in coords:
        values.append(fn([pts[p] for p in query.args]))
    kind = _constant_kind(qdef.kind)
    value = exact(values, kind, tol)
    constant = None if value is None else Constant(kind, value)
    predicate = None if constant is None else qdef.predicate(query.args, constant)
    choices: list[Constant] = []
    if constant is None:
        each = [exact([v], kind, tol) for v in values]
        if all(e is not None for e in each):
            for e in each:
                c = Constant(kind, e)  # type: ignore[arg-type]  # e is not None: checked by all() above
                if c not in choices:
                    choices.append(c)
        if len(choices) > MAX_CHOICES:
            choices = []
    return Measurement(query, kind, tuple(values), constant, predicate, tuple(choices))
