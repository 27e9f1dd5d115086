"""Candidate auxiliary constructions: clauses of the rulebase over the
figure's points, lines and circles, placed numerically, deduplicated and
checked non-degenerate.

Each *family* is a construction of ``rulebase/constructions.gdl`` and the
objects its arguments range over (:data:`FAMILIES`): a point, a line (two
points of one of the figure's lines), a circle (three of its points), a
centre with a point of its circle. The point each candidate adds is
computed by the realizer's own :func:`~geodsl.realizer.sampler.construct`
on the figure — so the rulebase's preconditions, degeneracy and distance
checks are those of any construction — and a candidate that falls on an
existing point, or on a point an earlier candidate already gives, is
dropped. The candidate is then realized in the problem's own diagrams when
it is tried (a construction degenerate there is skipped).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..lang.ast import Clause, Construction, Problem
from ..lang.definitions import rulebase
from ..realizer.checks import evaluate
from ..realizer.rng import Random
from ..realizer.sampler import Rejected, construct
from ..realizer.tolerance import TOLERANCE, figure_scale
from ..lang.terms import Predicate

MAX_CANDIDATES = 20_000
"""Candidates generated for one figure (the families in order, each
stopped when the total reaches it): the bound of the generation loop."""


@dataclass(frozen=True)
class Candidate:
    """One auxiliary construction and the point it adds, in the figure."""

    construction: Construction
    family: int
    """Index in :data:`FAMILIES` (a tie-breaker of the ranking: simple first)."""
    point: complex

    @property
    def text(self) -> str:
        return self.construction.to_text()

    @property
    def inputs(self) -> tuple[str, ...]:
        return tuple(a for c in self.construction.clauses for a in c.points if a not in self.construction.points)


FAMILIES: tuple[tuple[str, str], ...] = (
    ("midpoint", "the midpoint of two points"),
    ("foot", "the foot of a point on a line"),
    ("intersection_ll", "the intersection of two lines"),
    ("circle", "the centre of the circle through three points"),
    ("on_circum", "the second intersection of a line with a circle"),
    ("intersection_lc", "the second intersection of a line with a circle of known centre"),
    ("mirror", "the reflection of a point through another"),
    ("reflect", "the reflection of a point in a line"),
    ("intersection_lp", "the parallel through a point, meeting a line"),
    ("intersection_lt", "the perpendicular through a point, meeting a line"),
    ("lc_tangent", "the tangent at a point of a circle of known centre, meeting a line"),
    ("orthocenter", "the orthocentre of three points"),
    ("incenter", "the incentre of three points"),
    ("parallelogram", "the fourth vertex of a parallelogram"),
)
"""The families tried, simple first: each names its rulebase construction."""


@dataclass(frozen=True)
class Figure:
    """The figure's objects the families range over (point names)."""

    names: tuple[str, ...]
    coords: dict[str, complex]
    lines: tuple[tuple[str, ...], ...]
    """Maximal collinear sets of at least two points, each once."""
    circles: tuple[tuple[str, ...], ...]
    """Maximal concyclic sets of at least four points, and the circles
    through three points the premise names (a circumcircle, a circle of
    ``on_circum``)."""
    centred: tuple[tuple[str, tuple[str, ...]], ...]
    """(centre, the points at one distance from it), at least two."""


def figure_of(problem: Problem, coords: dict[str, complex]) -> Figure:
    """The lines, circles and centred circles of a figure."""
    names = tuple(problem.premise.points)
    tol = TOLERANCE
    scale = figure_scale(coords.values())

    def holds(name: str, *args: str) -> bool:
        return evaluate(Predicate(name, args), coords, scale, tol)

    lines: list[tuple[str, ...]] = []
    seen: set[frozenset[str]] = set()
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if any(a in ln and b in ln for ln in seen):
                continue
            members = tuple(p for p in names if p in (a, b) or holds("coll", a, b, p))
            seen.add(frozenset(members))
            lines.append(members)
    circles: list[tuple[str, ...]] = []
    cseen: list[frozenset[str]] = []
    for a, b, c in itertools.combinations(names, 3):
        if holds("coll", a, b, c) or any({a, b, c} <= s for s in cseen):
            continue
        members = tuple(p for p in names if p in (a, b, c) or holds("cyclic", a, b, c, p))
        if len(members) >= 4:
            cseen.append(frozenset(members))
            circles.append(members)
    rb = rulebase()
    for construction in problem.premise.constructions:  # circles the premise names
        for clause in construction.clauses:
            if clause.name in ("on_circum", "circle", "circumcenter"):
                cdef = rb.construction(clause.name)
                bind = dict(zip(cdef.params, clause.args))
                trio = tuple(str(bind[p]) for p in ("a", "b", "c"))
                if not any(set(trio) <= s for s in cseen):
                    cseen.append(frozenset(trio))
                    circles.append(trio)
    centred: list[tuple[str, tuple[str, ...]]] = []
    for o in names:
        groups: list[list[str]] = []
        for p in names:
            if p == o:
                continue
            for g in groups:
                if holds("cong", o, p, o, g[0]):
                    g.append(p)
                    break
            else:
                groups.append([p])
        centred.extend((o, tuple(g)) for g in groups if len(g) >= 2)
    return Figure(names, dict(coords), tuple(lines), tuple(circles), tuple(centred))


def _clauses(fig: Figure, family: str) -> Iterator[list[tuple[str, tuple[str, ...]]]]:
    """Argument tuples of one family: each a list of (construction, args
    without the output)."""
    names = fig.names
    lines = fig.lines
    if family == "midpoint":
        for a, b in itertools.combinations(names, 2):
            yield [("midpoint", (a, b))]
    elif family == "foot":
        for p in names:
            for ln in lines:
                if p not in ln:
                    yield [("foot", (p, ln[0], ln[1]))]
    elif family == "intersection_ll":
        for l1, l2 in itertools.combinations(lines, 2):
            if not set(l1) & set(l2):
                yield [("intersection_ll", (l1[0], l1[1], l2[0], l2[1]))]
    elif family == "circle":
        for a, b, c in itertools.combinations(names, 3):
            yield [("circle", (a, b, c))]
    elif family == "on_circum":
        for circle in fig.circles:
            for a in circle:
                for b in names:
                    if b not in circle:
                        yield [("on_line", (a, b)), ("on_circum", circle[:3])]
    elif family == "intersection_lc":
        for o, group in fig.centred:
            for b in group:
                for a in names:
                    if a not in (o, b):
                        yield [("intersection_lc", (a, o, b))]
    elif family == "mirror":
        for a, b in itertools.permutations(names, 2):
            yield [("mirror", (a, b))]
    elif family == "reflect":
        for p in names:
            for ln in lines:
                if p not in ln:
                    yield [("reflect", (p, ln[0], ln[1]))]
    elif family in ("intersection_lp", "intersection_lt"):
        for ln in lines:
            for c in names:
                if c in ln:
                    continue
                for other in lines:
                    if other != ln:
                        yield [(family, (ln[0], ln[1], c, other[0], other[1]))]
    elif family == "lc_tangent":
        for o, group in fig.centred:
            for a in group:
                for ln in lines:
                    if a not in ln:
                        yield [("lc_tangent", (a, o)), ("on_line", (ln[0], ln[1]))]
    elif family in ("orthocenter", "incenter"):
        for a, b, c in itertools.combinations(names, 3):
            yield [(family, (a, b, c))]
    elif family == "parallelogram":
        for a, b, c in itertools.permutations(names, 3):
            if a < c:
                yield [("parallelogram", (a, b, c))]


def _construction(parts: list[tuple[str, tuple[str, ...]]], name: str) -> Construction:
    rb = rulebase()
    clauses = []
    for cname, args in parts:
        cdef = rb.construction(cname)
        full: list[str] = []
        it = iter(args)
        for i in range(cdef.arity):
            full.append(name if i in cdef.output_positions else next(it))
        clauses.append(Clause(cname, tuple(full)))
    return Construction((name,), tuple(clauses), auxiliary=True)


def fresh_name(taken: Sequence[str]) -> str:
    """The first of ``aux1``, ``aux2``, ... that the problem does not use."""
    used = set(taken)
    return next(f"aux{i}" for i in itertools.count(1) if f"aux{i}" not in used)


def generate(problem: Problem, coords: dict[str, complex], seed: int = 0,
             families: Sequence[str] | None = None, limit: int = MAX_CANDIDATES) -> list[Candidate]:
    """Every candidate of the families (default: all) on the figure
    ``coords``, deduplicated, in family order: at most ``limit``."""
    fig = figure_of(problem, coords)
    name = fresh_name(fig.names)
    scale = figure_scale(coords.values())
    grid = 1e-6 * scale
    seen: set[tuple[int, int]] = set()
    out: list[Candidate] = []
    wanted = [f for f, _ in FAMILIES] if families is None else list(families)
    rng = Random(seed)
    for fi, (family, _) in enumerate(FAMILIES):
        if family not in wanted:
            continue
        for parts in _clauses(fig, family):
            if len(out) >= limit:
                return out
            cons = _construction(parts, name)
            try:
                point = construct(cons, coords, rng)[name]
            except Rejected:
                continue
            key = (round(point.real / grid), round(point.imag / grid))
            if key in seen:
                continue
            seen.add(key)
            out.append(Candidate(cons, fi, point))
    return out
