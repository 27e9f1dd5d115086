"""One function per recipe and per locus kind of ``docs/rulebase.md``.

``rulebase/constructions.gdl`` names a recipe on every ``fixes`` line and a
locus kind on every ``locus`` line; :data:`RECIPES` and :data:`LOCI` map those
names to the functions below (a test checks that every name used by the
rulebase has exactly one implementation and that no implementation is
unused).

A recipe is called as ``recipe(ctx, *args)`` with the points of its ``fixes``
line as complex numbers and constants as floats (angles in radians) and
returns its outputs in the order of the ``fixes`` line. A locus builder
returns a :class:`~geodsl.realizer.loci.Line`, ``Ray``, ``Segment``,
``Circle`` or ``Arc``. Both raise :class:`~geodsl.realizer.loci.Degenerate` when the
result is undefined in this sample.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable
from dataclasses import dataclass

from .loci import (Arc, Circle, Degenerate, Line, Locus, Ray, Segment, circumcenter, cross, foot,
                   intersect, reflect, rotate, unit)
from .rng import Random
from .tolerance import Tolerance

Value = complex | float


@dataclass(slots=True)
class Context:
    """What a recipe may use besides its arguments: the diagram's random
    source, the tolerances, and the figure so far (centre and radius)."""

    rng: Random
    tol: Tolerance
    centre: complex = 0j
    radius: float = 1.0
    box: float = math.inf
    """Half the side of the square, centred at the origin, where free points
    are sampled (``SamplerSettings.free_box``)."""

    @property
    def scale(self) -> float:
        return self.radius


Recipe = Callable[..., tuple[complex, ...]]
LocusBuilder = Callable[..., Locus]

RECIPES: dict[str, Recipe] = {}
"""Point, shape and multi-output recipes by name."""

LOCI: dict[str, LocusBuilder] = {}
"""Locus builders by kind."""


def recipe(name: str) -> Callable[[Recipe], Recipe]:
    def register(fn: Recipe) -> Recipe:
        if name in RECIPES:
            raise ValueError(f"recipe `{name}` is implemented twice")
        RECIPES[name] = fn
        return fn
    return register


def locus(name: str) -> Callable[[LocusBuilder], LocusBuilder]:
    def register(fn: LocusBuilder) -> LocusBuilder:
        if name in LOCI:
            raise ValueError(f"locus kind `{name}` is implemented twice")
        LOCI[name] = fn
        return fn
    return register


# ---------------------------------------------------------------- helpers


def _line_line(p1: complex, d1: complex, p2: complex, d2: complex, ctx: Context) -> complex:
    return intersect(Line(p1, unit(d1)), Line(p2, unit(d2)), ctx.tol, ctx.scale)[0]


def _similarity(ctx: Context, pts: list[complex]) -> tuple[complex, ...]:
    """AlphaGeometry's random_rfss: rotate, scale in [0.5, 2], shift, and
    reflect with probability 1/2 (about the shape's centroid)."""
    rng = ctx.rng
    m = sum(pts, 0j) / len(pts)
    turn = rng.unit() * rng.uniform(0.5, 2.0)
    shift = complex(rng.uniform(-1, 1), rng.uniform(-1, 1))
    out = [(p - m) * turn + shift for p in pts]
    if rng.choose(MIRRORED, "orientation") == 0:
        out = [complex(-p.real, p.imag) + 2 * shift.real for p in out]
    return tuple(out)


MIRRORED = ("mirrored", "as drawn")
"""The options of a free shape's orientation (the first is drawn with
probability 1/2, as AlphaGeometry's random reflection)."""


def _offsets(c: float, half: float, box: float) -> tuple[float, float]:
    """The offsets from ``c`` of [c − half, c + half] ∩ [−box, box], or of
    the whole [−box, box] when they do not meet (a figure centred outside
    the box). Unclipped, exactly (−half, half): the draws are then those of
    a sampler without the box, bit for bit."""
    lo = -half if c - half >= -box else -box - c
    hi = half if c + half <= box else box - c
    return (lo, hi) if lo < hi else (-box - c, box - c)


def _free_point(ctx: Context) -> complex:
    """A point around the figure (its centre ± 1.2 radius, at least ± 1),
    inside the fixed box ``[−box, box]²``: without the box, each free point
    widens the range of the next and a premise of 200 free points reaches a
    radius of 10⁸ (see :class:`~geodsl.realizer.sampler.SamplerSettings`)."""
    rng = ctx.rng
    half = max(1.0, 1.2 * min(ctx.radius, ctx.box))
    c = ctx.centre
    xlo, xhi = _offsets(c.real, half, ctx.box)
    ylo, yhi = _offsets(c.imag, half, ctx.box)
    return c + complex(rng.uniform(xlo, xhi), rng.uniform(ylo, yhi))


# ---------------------------------------------------------------- free shapes


@recipe("free")
def free(ctx: Context) -> tuple[complex, ...]:
    return (_free_point(ctx),)


@recipe("segment")
def segment(ctx: Context) -> tuple[complex, ...]:
    return _similarity(ctx, [0j, 1 + 0j])


@recipe("between")
def between(ctx: Context) -> tuple[complex, ...]:
    a, b = _similarity(ctx, [0j, 1 + 0j])
    return (a + (b - a) * ctx.rng.uniform(0.2, 0.8), a, b)


@recipe("triangle")
def triangle(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    c = cmath.rect(rng.uniform(0.5, 2.0), rng.uniform(0.2, 0.8) * math.pi)
    return _similarity(ctx, [0j, 1 + 0j, c])


@recipe("acute_triangle")
def acute_triangle(ctx: Context) -> tuple[complex, ...]:
    # a = 0, b = 1, c = x + iy: acute at a, b iff 0 < x < 1; at c iff y^2 > x(1 - x).
    rng = ctx.rng
    x = rng.uniform(0.2, 0.8)
    low = math.sqrt(x * (1 - x)) + 0.1
    return _similarity(ctx, [0j, 1 + 0j, complex(x, rng.uniform(low, low + 1.0))])


@recipe("r_triangle")
def r_triangle(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    return _similarity(ctx, [0j, 1j * rng.uniform(0.5, 2.0), complex(rng.uniform(0.5, 2.0), 0)])


@recipe("iso_triangle")
def iso_triangle(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    h, w = rng.uniform(0.5, 1.5), rng.uniform(0.5, 1.5)
    return _similarity(ctx, [1j * h, complex(-w / 2, 0), complex(w / 2, 0)])


@recipe("ieq_triangle")
def ieq_triangle(ctx: Context) -> tuple[complex, ...]:
    return _similarity(ctx, [0j, 1 + 0j, cmath.rect(1.0, math.pi / 3)])


@recipe("risos")
def risos(ctx: Context) -> tuple[complex, ...]:
    return _similarity(ctx, [0j, 1j, 1 + 0j])


@recipe("triangle12")
def triangle12(ctx: Context) -> tuple[complex, ...]:
    u = ctx.rng.uniform(1.5, 2.5)
    b, c = 0j, complex(u, 0)
    # a on the circles (b, 1) and (c, 2): x = (1 - 4 + u^2) / (2u).
    x = (u * u - 3) / (2 * u)
    a = complex(x, math.sqrt(max(0.0, 1 - x * x)))
    return _similarity(ctx, [a, b, c])


@recipe("quadrangle")
def quadrangle(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    m = rng.uniform(0.3, 0.7)
    s, t = rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75)
    turn = rng.uniform(-math.pi / 4, math.pi / 4)
    return _similarity(ctx, [complex(-m, 0), rotate(-1j * s, turn), complex(1 - m, 0),
                             rotate(1j * t, turn)])


@recipe("rectangle")
def rectangle(ctx: Context) -> tuple[complex, ...]:
    length = ctx.rng.uniform(0.5, 2.0)
    return _similarity(ctx, [0j, 1j, complex(length, 1), complex(length, 0)])


@recipe("isquare")
def isquare(ctx: Context) -> tuple[complex, ...]:
    return _similarity(ctx, [0j, 1 + 0j, 1 + 1j, 1j])


@recipe("trapezoid")
def trapezoid(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    u, h, w = rng.uniform(-0.5, 1.5), rng.uniform(0.5, 2.0), rng.uniform(0.5, 2.0)
    a = complex(u, h)
    return _similarity(ctx, [a, a + w, 1 + 0j, 0j])


@recipe("r_trapezoid")
def r_trapezoid(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    u, v = rng.uniform(0.5, 1.5), rng.uniform(0.5, 1.5)
    return _similarity(ctx, [1j, complex(u, 1), complex(v, 0), 0j])


@recipe("iso_trapezoid")
def iso_trapezoid(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    length, h = rng.uniform(0.5, 2.0), rng.uniform(0.5, 2.0)
    return _similarity(ctx, [0j, 1 + 0j, complex((1 + length) / 2, h), complex((1 - length) / 2, h)])


@recipe("eq_quadrangle")
def eq_quadrangle(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    length = rng.uniform(0.5, 2.0)
    d = cmath.rect(length, rng.uniform(math.pi / 3, 2 * math.pi / 3))
    alpha = cmath.phase(d - 1)
    c = 1 + cmath.rect(length, rng.uniform(alpha / 10, alpha / 9))
    return _similarity(ctx, [0j, 1 + 0j, c, d])


@recipe("eqdia_quadrangle")
def eqdia_quadrangle(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    m, n = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)
    turn = rng.uniform(-math.pi / 4, math.pi / 4)
    return _similarity(ctx, [complex(-m, 0), rotate(-1j * n, turn), complex(1 - m, 0),
                             rotate(1j * (1 - n), turn)])


@recipe("pentagon")
def pentagon(ctx: Context) -> tuple[complex, ...]:
    gaps = [ctx.rng.uniform(0.6, 1.4) for _ in range(5)]
    total = sum(gaps)
    angles, t = [], 0.0
    for g in gaps[:4]:
        angles.append(t)
        t += 2 * math.pi * g / total
    angles.append(t)
    return _similarity(ctx, [cmath.rect(1.0, a) for a in angles])


@recipe("test_r20")
def test_r20(ctx: Context) -> tuple[complex, ...]:
    rng = ctx.rng
    a, c = 1j * rng.uniform(0.5, 2.0), complex(rng.uniform(0.5, 2.0), 0)
    return _similarity(ctx, [(a + c) / 2, a, 0j, c])


@recipe("test_r25")
def test_r25(ctx: Context) -> tuple[complex, ...]:
    a, b, c = _free_point(ctx), _free_point(ctx), _free_point(ctx)
    return (a, b, c, a + b - c, (a + b) / 2)


# ---------------------------------------------------------------- point recipes


@recipe("midpoint")
def midpoint(ctx: Context, a: complex, b: complex) -> tuple[complex, ...]:
    return ((a + b) / 2,)


@recipe("foot")
def foot_(ctx: Context, p: complex, a: complex, b: complex) -> tuple[complex, ...]:
    return (foot(p, a, b),)


@recipe("mirror")
def mirror(ctx: Context, p: complex, q: complex) -> tuple[complex, ...]:
    return (2 * q - p,)


@recipe("reflect")
def reflect_(ctx: Context, p: complex, a: complex, b: complex) -> tuple[complex, ...]:
    return (reflect(p, a, b),)


@recipe("reflect_bline")
def reflect_bline(ctx: Context, p: complex, a: complex, b: complex) -> tuple[complex, ...]:
    m = (a + b) / 2
    return (reflect(p, m, m + (b - a) * 1j),)


@recipe("shift")
def shift(ctx: Context, p: complex, a: complex, b: complex) -> tuple[complex, ...]:
    return (p + (b - a),)


@recipe("rotate_ccw90")
def rotate_ccw90(ctx: Context, p: complex, c: complex) -> tuple[complex, ...]:
    return (c + (p - c) * 1j,)


@recipe("rotate_cw90")
def rotate_cw90(ctx: Context, p: complex, c: complex) -> tuple[complex, ...]:
    return (c - (p - c) * 1j,)


@recipe("eq_apex")
def eq_apex(ctx: Context, b: complex, c: complex) -> tuple[complex, ...]:
    return (b + rotate(c - b, math.pi / 3),)


@recipe("circumcenter")
def circumcenter_(ctx: Context, a: complex, b: complex, c: complex) -> tuple[complex, ...]:
    return (circumcenter(a, b, c, ctx.tol, ctx.scale),)


def _weighted(wa: float, wb: float, wc: float, a: complex, b: complex, c: complex) -> complex:
    total = wa + wb + wc
    if total == 0.0:
        raise Degenerate("undefined", "the triangle is degenerate")
    return (wa * a + wb * b + wc * c) / total


@recipe("incenter")
def incenter(ctx: Context, a: complex, b: complex, c: complex) -> tuple[complex, ...]:
    return (_weighted(abs(b - c), abs(c - a), abs(a - b), a, b, c),)


@recipe("excenter")
def excenter(ctx: Context, a: complex, b: complex, c: complex) -> tuple[complex, ...]:
    return (_weighted(-abs(b - c), abs(c - a), abs(a - b), a, b, c),)


@recipe("orthocenter")
def orthocenter(ctx: Context, a: complex, b: complex, c: complex) -> tuple[complex, ...]:
    return (_line_line(a, (c - b) * 1j, b, (a - c) * 1j, ctx),)


@recipe("centroid")
def centroid(ctx: Context, a: complex, b: complex, c: complex) -> tuple[complex, ...]:
    return ((a + b + c) / 3,)


@recipe("inter_ll")
def inter_ll(ctx: Context, a: complex, b: complex, c: complex, d: complex) -> tuple[complex, ...]:
    return (_line_line(a, b - a, c, d - c, ctx),)


@recipe("inter_lp")
def inter_lp(ctx: Context, a: complex, b: complex, c: complex, m: complex,
             n: complex) -> tuple[complex, ...]:
    return (_line_line(a, b - a, c, n - m, ctx),)


@recipe("inter_pp")
def inter_pp(ctx: Context, a: complex, b: complex, c: complex, d: complex, e: complex,
             f: complex) -> tuple[complex, ...]:
    return (_line_line(a, c - b, d, f - e, ctx),)


@recipe("inter_lt")
def inter_lt(ctx: Context, a: complex, b: complex, c: complex, d: complex,
             e: complex) -> tuple[complex, ...]:
    return (_line_line(a, b - a, c, (e - d) * 1j, ctx),)


@recipe("inter_tt")
def inter_tt(ctx: Context, a: complex, b: complex, c: complex, d: complex, e: complex,
             f: complex) -> tuple[complex, ...]:
    return (_line_line(a, (c - b) * 1j, d, (f - e) * 1j, ctx),)


@recipe("inter_lc")
def inter_lc(ctx: Context, a: complex, o: complex, b: complex) -> tuple[complex, ...]:
    return (2 * foot(o, a, b) - b,)


@recipe("similar")
def similar(ctx: Context, a: complex, b: complex, c: complex, p: complex,
            q: complex) -> tuple[complex, ...]:
    if b == a:
        raise Degenerate("undefined", "the triangle to copy is degenerate")
    return (p + (q - p) * (c - a) / (b - a),)


@recipe("similar_r")
def similar_r(ctx: Context, a: complex, b: complex, c: complex, p: complex,
              q: complex) -> tuple[complex, ...]:
    if b == a:
        raise Degenerate("undefined", "the triangle to copy is degenerate")
    return (p + (q - p) * ((c - a) / (b - a)).conjugate(),)


@recipe("eqangle2")
def eqangle2(ctx: Context, a: complex, b: complex, c: complex) -> tuple[complex, ...]:
    rng = ctx.rng
    ba, bc = abs(b - a), abs(b - c)
    if bc == 0.0:
        raise Degenerate("undefined", "b and c are the same point")
    ell = ba * ba / bc
    if rng.choose(("near", "far"), "branch") == 0:
        t = rng.uniform(0.1, 0.9) * min(ell, bc)
    else:
        t = rng.uniform(1.1, 1.5) * max(ell, bc)
    e = b + (c - b) * t / bc
    y = b + (a - b) * t / ell
    return (_line_line(c, y - c, a, e - a, ctx),)


# ---------------------------------------------------------------- multi-output recipes


def _circle_points(ctx: Context, c1: Circle, c2: Circle) -> list[complex]:
    return intersect(c1, c2, ctx.tol, ctx.scale)


@recipe("tangents")
def tangents(ctx: Context, a: complex, o: complex, b: complex) -> tuple[complex, ...]:
    r = abs(b - o)
    if abs(a - o) <= r + ctx.tol.length_at(ctx.scale):
        raise Degenerate("undefined", "the point is not outside the circle, so it has no two tangents")
    pts = _circle_points(ctx, Circle((a + o) / 2, abs(a - o) / 2), Circle(o, r))
    if len(pts) != 2:
        raise Degenerate("undefined", "the tangents coincide")
    right = [p for p in pts if cross(a - o, p - o) < 0]
    left = [p for p in pts if cross(a - o, p - o) > 0]
    if len(right) != 1 or len(left) != 1:
        raise Degenerate("undefined", "the tangents coincide")
    return (right[0], left[0])


def _common_tangent(ctx: Context, o: complex, a: complex, w: complex, b: complex,
                    internal: bool, left: bool) -> tuple[complex, ...]:
    r, s = abs(a - o), abs(b - w)
    dist = abs(w - o)
    eps = ctx.tol.length_at(ctx.scale)
    if dist <= eps:
        raise Degenerate("concentric", "the two circles are concentric")
    if internal and dist <= r + s + eps:
        raise Degenerate("undefined", "the circles meet, so they have no common internal tangent")
    if not internal and dist <= abs(r - s) + eps:
        raise Degenerate("undefined", "one circle lies inside the other, so they have no common "
                         "external tangent")
    sign = 1.0 if left else -1.0
    if not internal and abs(r - s) <= eps:
        n = unit(w - o) * 1j * sign
        return (o + r * n, w + r * n)
    q = o + (w - o) * (r / (r + s) if internal else r / (r - s))
    pts = _circle_points(ctx, Circle((o + q) / 2, abs(q - o) / 2), Circle(o, r))
    side = [p for p in pts if sign * cross(w - o, p - o) > 0]
    if len(side) != 1:
        raise Degenerate("undefined", "the common tangent is undefined")
    x = side[0]
    return (x, foot(w, x, q))


@recipe("cc_tangent_l")
def cc_tangent_l(ctx: Context, o: complex, a: complex, w: complex, b: complex) -> tuple[complex, ...]:
    return _common_tangent(ctx, o, a, w, b, internal=False, left=True)


@recipe("cc_tangent_r")
def cc_tangent_r(ctx: Context, o: complex, a: complex, w: complex, b: complex) -> tuple[complex, ...]:
    return _common_tangent(ctx, o, a, w, b, internal=False, left=False)


@recipe("cc_itangent_l")
def cc_itangent_l(ctx: Context, o: complex, a: complex, w: complex, b: complex) -> tuple[complex, ...]:
    return _common_tangent(ctx, o, a, w, b, internal=True, left=True)


@recipe("cc_itangent_r")
def cc_itangent_r(ctx: Context, o: complex, a: complex, w: complex, b: complex) -> tuple[complex, ...]:
    return _common_tangent(ctx, o, a, w, b, internal=True, left=False)


@recipe("trisect")
def trisect(ctx: Context, a: complex, b: complex, c: complex) -> tuple[complex, ...]:
    t = cmath.phase((c - b) / (a - b))
    return (_line_line(b, rotate(a - b, t / 3), a, c - a, ctx),
            _line_line(b, rotate(a - b, 2 * t / 3), a, c - a, ctx))


@recipe("trisegment")
def trisegment(ctx: Context, a: complex, b: complex) -> tuple[complex, ...]:
    return (a + (b - a) / 3, a + 2 * (b - a) / 3)


@recipe("three_peq")
def three_peq(ctx: Context, a: complex, b: complex, c: complex) -> tuple[complex, ...]:
    z = b + (c - b) * ctx.rng.uniform(-0.5, 1.5)
    x = _line_line(2 * z - c, a - c, a, b - a, ctx)
    return (x, 2 * z - x, z)


def _side(p: complex, q1: complex, q2: complex) -> bool:
    return cross(q2 - q1, p - q1) > 0


@recipe("two_lines_one_circle")
def two_lines_one_circle(ctx: Context, a: complex, b: complex, c: complex,
                         o: complex) -> tuple[complex, ...]:
    tol, scale = ctx.tol, ctx.scale
    omega = Circle(o, abs(a - o))
    d1, d2 = _two(intersect(Line(o, unit((c - b) * 1j)), omega, tol, scale))
    d = d2 if _side(d2, b, c) != _side(a, b, c) else d1
    e1, e2 = _two(intersect(Line(o, unit((c - a) * 1j)), omega, tol, scale))
    e = e2 if _side(e2, a, c) != _side(b, a, c) else e1
    f = _line_line(d, (d - o) * 1j, e, (e - o) * 1j, ctx)
    g1, g2 = _two(intersect(Line(c, unit(f - c)), omega, tol, scale))
    z = g2 if _side(g2, b, c) == _side(a, b, c) else g1
    i = _line_line(c, unit(a - c) + unit(b - c), o, z - o, ctx)
    return (foot(i, a, c), foot(i, b, c), z, i)


def _two(points: list[complex]) -> tuple[complex, complex]:
    if len(points) != 2:
        raise Degenerate("undefined", "a line touches the circle instead of crossing it")
    return points[0], points[1]


@recipe("e5128")
def e5128(ctx: Context, a: complex, b: complex, c: complex, d: complex) -> tuple[complex, ...]:
    y = (a + b) / 2
    pts = intersect(Line.through(d, y), Circle(c, abs(b - c)), ctx.tol, ctx.scale)
    x = max(pts, key=lambda p: abs(p - d))
    return (x, y)


@recipe("congruent")
def congruent(ctx: Context, a: complex, b: complex, c: complex, p: complex) -> tuple[complex, ...]:
    turn = ctx.rng.unit()
    return (p + (b - a) * turn, p + (c - a) * turn)


@recipe("congruent_r")
def congruent_r(ctx: Context, a: complex, b: complex, c: complex, p: complex) -> tuple[complex, ...]:
    turn = ctx.rng.unit()
    q = p + (b - a) * turn
    return (q, reflect(p + (c - a) * turn, p, q))


# ---------------------------------------------------------------- loci


@locus("line")
def line_(ctx: Context, a: complex, b: complex) -> Locus:
    return Line.through(a, b)


@locus("opray")
def opray(ctx: Context, a: complex, b: complex) -> Locus:
    return Ray(a, unit(a - b))


@locus("open_segment")
def open_segment(ctx: Context, a: complex, b: complex) -> Locus:
    unit(b - a, "the segment between two equal points")
    return Segment(a, b)


@locus("pline")
def pline(ctx: Context, p: complex, a: complex, b: complex) -> Locus:
    return Line(p, unit(b - a))


@locus("tline")
def tline(ctx: Context, p: complex, a: complex, b: complex) -> Locus:
    return Line(p, unit((b - a) * 1j))


@locus("bline")
def bline(ctx: Context, a: complex, b: complex) -> Locus:
    return Line((a + b) / 2, unit((b - a) * 1j))


@locus("bisector")
def bisector(ctx: Context, a: complex, b: complex, c: complex) -> Locus:
    return Line(b, unit(unit(a - b) + unit(c - b), "the bisector of a straight angle"))


@locus("amirror")
def amirror(ctx: Context, a: complex, b: complex, c: complex) -> Locus:
    u = unit(c - b)
    return Ray(b, unit(u * u * (a - b).conjugate()))


@locus("aline")
def aline(ctx: Context, a: complex, b: complex, c: complex, d: complex, e: complex) -> Locus:
    return Ray(a, unit((b - a) * unit(c - d) / unit(e - d)))


@locus("eqangle_line")
def eqangle_line(ctx: Context, a: complex, b: complex, c: complex, d: complex, e: complex,
                 f: complex, g: complex) -> Locus:
    return Line(g, unit((f - e) * unit(d - c) / unit(b - a)))


@locus("angle_ray")
def angle_ray(ctx: Context, a: complex, b: complex, angle: float) -> Locus:
    return Ray(b, unit(rotate(a - b, angle)))


@locus("angle_line")
def angle_line(ctx: Context, a: complex, b: complex, c: complex, angle: float) -> Locus:
    return Line(c, unit(rotate(b - a, angle)))


@locus("circle")
def circle_(ctx: Context, o: complex, a: complex) -> Locus:
    return Circle(o, abs(a - o))


@locus("rcircle")
def rcircle(ctx: Context, o: complex, a: complex, b: complex) -> Locus:
    return Circle(o, abs(b - a))


@locus("circum")
def circum(ctx: Context, a: complex, b: complex, c: complex) -> Locus:
    return Circle.through3(a, b, c, ctx.tol, ctx.scale)


@locus("arc")
def arc(ctx: Context, a: complex, b: complex, c: complex) -> Locus:
    """The arc bc of the circle through a, b, c that does not hold a."""
    o = circumcenter(a, b, c, ctx.tol, ctx.scale)
    found = Arc.between(o, b, c)
    if found.holds(a, 0.0):
        found = Arc.between(o, c, b)
    return found


@locus("minor_arc")
def minor_arc(ctx: Context, o: complex, a: complex, b: complex) -> Locus:
    """The shorter arc ab of the circle centred o through a (and b)."""
    found = Arc.between(o, a, b)
    if abs(found.sweep - math.pi) * found.r <= ctx.tol.length_at(ctx.scale):
        raise Degenerate("undefined", "the two arcs are equal halves: ab is a diameter")
    if found.sweep > math.pi:
        found = Arc.between(o, b, a)
    return found


@locus("dcircle")
def dcircle(ctx: Context, a: complex, b: complex) -> Locus:
    return Circle((a + b) / 2, abs(b - a) / 2)


@locus("angle_circle")
def angle_circle(ctx: Context, a: complex, b: complex, d: complex, e: complex,
                 f: complex) -> Locus:
    if f == e:
        raise Degenerate("undefined", "the angle is undefined (two equal points)")
    x0 = a + (b - a) * (d - e) / (f - e)
    return Circle.through3(a, b, x0, ctx.tol, ctx.scale)


@locus("lcircle")
def lcircle(ctx: Context, o: complex, length: float) -> Locus:
    return Circle(o, length)


@locus("ratio_circle")
def ratio_circle(ctx: Context, a: complex, b: complex, c: complex, ratio: float) -> Locus:
    return Circle(c, abs(b - a) / ratio)


@locus("r2circle")
def r2circle(ctx: Context, a: complex, b: complex, c: complex, ratio: float) -> Locus:
    return Circle(c, abs(b - a) / math.sqrt(ratio))


@locus("l2circle")
def l2circle(ctx: Context, o: complex, length: float) -> Locus:
    return Circle(o, math.sqrt(length))


@locus("eqratio_circle")
def eqratio_circle(ctx: Context, a: complex, b: complex, c: complex, d: complex, e: complex,
                   f: complex, g: complex) -> Locus:
    ab = abs(b - a)
    if ab == 0.0:
        raise Degenerate("undefined", "the ratio is undefined (a zero length)")
    return Circle(g, abs(d - c) * abs(f - e) / ab)


def _apollonius(ctx: Context, a: complex, b: complex, r: float) -> Locus:
    if abs(r - 1) <= ctx.tol.length:
        return bline(ctx, a, b)
    p1, p2 = (a - r * b) / (1 - r), (a + r * b) / (1 + r)
    return Circle((p1 + p2) / 2, abs(p1 - p2) / 2)


@locus("apollonius")
def apollonius(ctx: Context, a: complex, b: complex, ratio: float) -> Locus:
    return _apollonius(ctx, a, b, ratio)


@locus("apollonius_segs")
def apollonius_segs(ctx: Context, a: complex, b: complex, c: complex, d: complex, e: complex,
                    f: complex) -> Locus:
    ef = abs(f - e)
    if ef == 0.0:
        raise Degenerate("undefined", "the ratio is undefined (a zero length)")
    return _apollonius(ctx, a, b, abs(d - c) / ef)


__all__ = ["Context", "LOCI", "RECIPES", "Value"]
