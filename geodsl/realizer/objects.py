"""The lines and circles a premise implies, for drawing and for the API.

Read from the facts each clause asserts (``coll``, ``para``, ``perp``,
``eqangle``, ``midp``, ``foot`` give lines; ``circle`` and ``cyclic`` give
circles), from the circular loci of one-degree clauses (``on_circle x o a``
is the circle centred o through a and x), and from the sides of free shapes
(``triangle a b c`` gives its three sides). Then the diagram completes each
object with every point that lies on it numerically and merges duplicates, so
``on_line d b c`` and ``foot e a b c`` give one line b c d e.

Lines are reported as the points on them, sorted along the line (a figure
draws the segment between the two extreme points). Order is deterministic:
construction order, then position.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..lang.ast import Arg, Construction
from ..lang.definitions import ConstructionDef, rulebase
from .checks import constant_value
from .loci import Circle, Degenerate, cross, dot
from .recipes import LOCI, Context
from .rng import Random
from .tolerance import Tolerance

_LINE_FACTS = {"coll": ((0, 1, 2),), "para": ((0, 1), (2, 3)), "perp": ((0, 1), (2, 3)),
               "eqangle": ((0, 1), (2, 3), (4, 5), (6, 7)), "midp": ((1, 0, 2),),
               "foot": ((0, 1), (2, 3)), "aconst": ((0, 1), (2, 3))}
_CIRCLE_LOCI = {"circle": 0, "rcircle": 0}  # kind -> index of the named centre
_POLYGONS = {"segment", "triangle", "acute_triangle", "r_triangle", "iso_triangle", "ieq_triangle",
             "risos", "triangle12", "quadrangle", "rectangle", "isquare", "trapezoid", "r_trapezoid",
             "iso_trapezoid", "eq_quadrangle", "eqdia_quadrangle", "pentagon"}


@dataclass(frozen=True, slots=True)
class DiagramLine:
    """A line of the figure: the named points on it, in order along it."""

    points: tuple[str, ...]
    aux: bool = False


@dataclass(frozen=True, slots=True)
class DiagramCircle:
    """A circle of the figure: centre, radius, its named centre if any, and
    the named points on it (counter-clockwise from the rightmost)."""

    centre: complex
    radius: float
    centre_point: str | None
    points: tuple[str, ...]
    aux: bool = False


@dataclass(frozen=True, slots=True)
class _CircleSpec:
    centre_point: str | None
    through: tuple[str, ...]
    locus: tuple[str, tuple[Arg, ...]] | None   # (kind, actual args) to recompute


def _specs(constructions: Sequence[Construction]) -> tuple[list[tuple[str, ...]], list[_CircleSpec]]:
    rb = rulebase()
    lines: list[tuple[str, ...]] = []
    circles: list[_CircleSpec] = []
    for construction in constructions:
        for clause in construction.clauses:
            cdef: ConstructionDef = rb.construction(clause.name)
            bind = dict(zip(cdef.params, clause.args))

            def name(param: str) -> str:
                return str(bind[param])

            for fact in cdef.asserts:
                names = [name(a) if isinstance(a, str) else "" for a in fact.args]
                for group in _LINE_FACTS.get(fact.name, ()):
                    lines.append(tuple(names[i] for i in group))
                if fact.name == "circle":
                    circles.append(_CircleSpec(names[0], tuple(names[1:4]), None))
                elif fact.name == "cyclic":
                    circles.append(_CircleSpec(None, tuple(names[:4]), None))
            for step in cdef.steps:
                if step.kind == "locus":
                    kind = step.recipe
                    if kind in ("line", "opray", "open_segment", "pline", "tline", "bline",
                                "bisector", "amirror", "aline", "eqangle_line", "angle_ray",
                                "angle_line"):
                        continue
                    x = name(step.points[0])
                    args = tuple(bind.get(a, a) for a in step.args)
                    centre = str(args[_CIRCLE_LOCI[kind]]) if kind in _CIRCLE_LOCI else None
                    through = (x,) + ((str(args[1]),) if kind == "circle" else ())
                    circles.append(_CircleSpec(centre, through, (kind, args)))
                elif step.recipe in _POLYGONS:
                    outs = [name(p) for p in step.points]
                    if len(outs) == 2:
                        lines.append((outs[0], outs[1]))
                    else:
                        lines.extend((outs[i], outs[(i + 1) % len(outs)]) for i in range(len(outs)))
                elif step.recipe == "between":
                    lines.append(tuple(name(p) for p in step.points))
    return lines, circles


def derive(constructions: Sequence[Construction], coords: Mapping[str, complex],
           tol: Tolerance, scale: float, *, aux: bool = False,
           known_lines: Sequence[DiagramLine] = (), known_circles: Sequence[DiagramCircle] = ()
           ) -> tuple[list[DiagramLine], list[DiagramCircle]]:
    """Lines and circles of ``constructions`` completed with every point of
    ``coords`` on them; objects equal to ``known_*`` ones are left out."""
    eps = tol.length_at(scale)
    line_specs, circle_specs = _specs(constructions)
    lines: list[DiagramLine] = []
    seen_lines = {frozenset(ln.points) for ln in known_lines}
    for spec in line_specs:
        pts = [coords[p] for p in spec]
        a, b = max(((p, q) for p in pts for q in pts), key=lambda pq: abs(pq[1] - pq[0]))
        length = abs(b - a)
        if length <= eps:
            continue
        u = (b - a) / length
        on = [n for n in coords if abs(cross(u, coords[n] - a)) <= eps]
        on.sort(key=lambda n: (dot(u, coords[n] - a), n))
        key = frozenset(on)
        if key in seen_lines:
            continue
        seen_lines.add(key)
        lines.append(DiagramLine(tuple(on), aux))
    circles: list[DiagramCircle] = list(known_circles)
    start = len(circles)
    ctx = Context(Random(0), tol, 0j, scale)
    for cspec in circle_specs:
        circle = _circle(cspec, coords, ctx)
        if circle is None:
            continue
        if any(abs(c.centre - circle.c) <= eps and abs(c.radius - circle.r) <= eps for c in circles):
            continue
        on = [n for n in coords if abs(abs(coords[n] - circle.c) - circle.r) <= eps]
        on.sort(key=lambda n: (_angle_key(coords[n] - circle.c), n))
        centre_name = cspec.centre_point or next(
            (n for n in coords if abs(coords[n] - circle.c) <= eps), None)
        circles.append(DiagramCircle(circle.c, circle.r, centre_name, tuple(on), aux))
    return lines, circles[start:]


def _circle(spec: _CircleSpec, coords: Mapping[str, complex], ctx: Context) -> Circle | None:
    try:
        if spec.locus is not None:
            kind, args = spec.locus
            values = [coords[a] if isinstance(a, str) else _const(a) for a in args]
            made = LOCI[kind](ctx, *values)
            return made if isinstance(made, Circle) and made.r > 0 else None
        if spec.centre_point is not None:
            o = coords[spec.centre_point]
            return Circle(o, abs(coords[spec.through[0]] - o))
        a, b, c = (coords[p] for p in spec.through[:3])
        return Circle.through3(a, b, c, ctx.tol, ctx.scale)
    except Degenerate:
        return None


def _const(arg: Arg) -> float:
    assert not isinstance(arg, str)
    return constant_value(arg)


def _angle_key(v: complex) -> float:
    t = cmath.phase(v)
    return t if t >= 0 else t + 2 * math.pi
