"""Lines, rays, open segments and circles, their intersections, and random
points on them.

Points are Python complex numbers in a y-up frame (``x + iy``); every
function here is plain float64 arithmetic. A computation that has no answer
in this sample (parallel lines, a line missing a circle, ...) raises
:class:`Degenerate` with a stable reason name and a sentence; the sampler
collects these to explain a failure.

Intersection rules are those of ``docs/rulebase.md``: a ray meeting a line or
a ray is replaced by its supporting line; a ray meeting a circle keeps the
candidates beyond its tail; an open segment keeps the candidates strictly
inside it; an arc keeps the candidates strictly inside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Union

from .rng import Random
from .tolerance import Tolerance


class Degenerate(Exception):
    """No answer in this sample. ``reason`` is a stable name (``parallel``,
    ``same_line``, ``no_intersection``, ``concentric``, ``outside``,
    ``undefined``, ...); ``detail`` is the sentence a person reads."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def cross(u: complex, v: complex) -> float:
    """det(u, v) = |u||v| sin(angle from u to v)."""
    return u.real * v.imag - u.imag * v.real


def dot(u: complex, v: complex) -> float:
    return u.real * v.real + u.imag * v.imag


def unit(v: complex, what: str = "a direction") -> complex:
    """v / |v|; a zero vector is degenerate."""
    n = abs(v)
    if n == 0.0 or not math.isfinite(n):
        raise Degenerate("undefined", f"{what} is undefined (two equal points)")
    return v / n


def foot(p: complex, a: complex, b: complex) -> complex:
    """The foot of the perpendicular from p to line ab."""
    d = b - a
    n2 = dot(d, d)
    if n2 == 0.0:
        raise Degenerate("undefined", "the line through two equal points is undefined")
    return a + d * (dot(d, p - a) / n2)


def reflect(p: complex, a: complex, b: complex) -> complex:
    """The reflection of p in line ab."""
    return 2 * foot(p, a, b) - p


def rotate(v: complex, t: float) -> complex:
    """v turned by t radians counter-clockwise."""
    return v * complex(math.cos(t), math.sin(t))


@dataclass(frozen=True, slots=True)
class Line:
    """The line through ``p`` with unit direction ``d``."""

    p: complex
    d: complex

    @staticmethod
    def through(a: complex, b: complex) -> "Line":
        return Line(a, unit(b - a, "the line through two equal points"))


@dataclass(frozen=True, slots=True)
class Ray:
    """The points ``p + t·d``, t > 0 (the tail ``p`` excluded)."""

    p: complex
    d: complex

    @property
    def line(self) -> Line:
        return Line(self.p, self.d)


@dataclass(frozen=True, slots=True)
class Segment:
    """The open segment ``a + t(b − a)``, 0 < t < 1."""

    a: complex
    b: complex

    @property
    def line(self) -> Line:
        return Line.through(self.a, self.b)


@dataclass(frozen=True, slots=True)
class Circle:
    """The circle of centre ``c`` and radius ``r`` (> 0)."""

    c: complex
    r: float

    @staticmethod
    def through3(a: complex, b: complex, c: complex, tol: Tolerance, scale: float) -> "Circle":
        o = circumcenter(a, b, c, tol, scale)
        return Circle(o, abs(a - o))


@dataclass(frozen=True, slots=True)
class Arc(Circle):
    """The open arc of the circle (``c``, ``r``) from angle ``start`` through
    ``sweep`` radians counter-clockwise (0 < sweep < 2π). An arc is a
    circle that *selects*, as a segment is a line that does: whatever draws
    or meets it as a circle still may."""

    start: float = 0.0
    sweep: float = math.pi

    @staticmethod
    def between(c: complex, p: complex, q: complex) -> "Arc":
        """The arc from p to q counter-clockwise, on the circle centred c through p."""
        start = math.atan2((p - c).imag, (p - c).real)
        end = math.atan2((q - c).imag, (q - c).real)
        return Arc(c, abs(p - c), start, (end - start) % (2 * math.pi))

    def holds(self, x: complex, eps: float) -> bool:
        """Whether x (a point of the circle) lies strictly inside the arc,
        ``eps`` (a length) away from its ends."""
        t = (math.atan2((x - self.c).imag, (x - self.c).real) - self.start) % (2 * math.pi)
        margin = eps / self.r if self.r > 0 else 0.0
        return margin < t < self.sweep - margin


Locus = Union[Line, Ray, Segment, Circle]


def circumcenter(a: complex, b: complex, c: complex, tol: Tolerance, scale: float) -> complex:
    """The centre of the circle through a, b, c; collinear points are degenerate."""
    ab, ac = b - a, c - a
    den = 2 * cross(ab, ac)
    longest = max(abs(ab), abs(ac), abs(c - b))
    if abs(den) <= 2 * tol.length_at(scale) * longest:
        raise Degenerate("collinear", "the three points of the circle are collinear")
    # o = a + z with 2 z.ab = |ab|^2 and 2 z.ac = |ac|^2 (Cramer's rule).
    nab, nac = dot(ab, ab), dot(ac, ac)
    zx = (ac.imag * nab - ab.imag * nac) / den
    zy = (ab.real * nac - ac.real * nab) / den
    return a + complex(zx, zy)


# ---------------------------------------------------------------- intersections


def _line_line(l1: Line, l2: Line, tol: Tolerance, scale: float) -> list[complex]:
    den = cross(l1.d, l2.d)
    if abs(den) <= tol.angle:
        if abs(cross(l1.d, l2.p - l1.p)) <= tol.length_at(scale):
            raise Degenerate("same_line", "the two lines are the same line")
        raise Degenerate("parallel", "the two lines are parallel")
    s = cross(l2.p - l1.p, l2.d) / den
    return [l1.p + s * l1.d]


def _line_circle(line: Line, circle: Circle, tol: Tolerance, scale: float) -> list[complex]:
    f = line.p + line.d * dot(line.d, circle.c - line.p)
    dist = abs(f - circle.c)
    eps = tol.length_at(scale)
    if dist > circle.r + eps:
        raise Degenerate("no_intersection", "the line misses the circle")
    h2 = circle.r * circle.r - dist * dist
    h = math.sqrt(h2) if h2 > 0 else 0.0
    if h <= eps:
        return [f]  # tangent
    return [f - h * line.d, f + h * line.d]


def _circle_circle(c1: Circle, c2: Circle, tol: Tolerance, scale: float) -> list[complex]:
    v = c2.c - c1.c
    d = abs(v)
    eps = tol.length_at(scale)
    if d <= eps:
        if abs(c1.r - c2.r) <= eps:
            raise Degenerate("same_circle", "the two circles are the same circle")
        raise Degenerate("concentric", "the two circles are concentric")
    if d > c1.r + c2.r + eps or d < abs(c1.r - c2.r) - eps:
        raise Degenerate("no_intersection", "the two circles do not meet")
    a = (c1.r * c1.r - c2.r * c2.r + d * d) / (2 * d)
    h2 = c1.r * c1.r - a * a
    h = math.sqrt(h2) if h2 > 0 else 0.0
    u = v / d
    m = c1.c + a * u
    if h <= eps:
        return [m]
    return [m + h * u * 1j, m - h * u * 1j]  # left of c1 -> c2 first


def _supporting(locus: Locus) -> Line | Circle:
    if isinstance(locus, (Ray, Segment)):
        return locus.line
    if isinstance(locus, Arc):
        return Circle(locus.c, locus.r)
    return locus


def _keep(locus: Locus, candidates: list[complex], meets_circle: bool, eps: float) -> list[complex]:
    """Apply a ray's or a segment's selection to candidates on its line."""
    if isinstance(locus, Ray) and meets_circle:
        return [x for x in candidates if dot(x - locus.p, locus.d) > eps]
    if isinstance(locus, Segment):
        d = locus.b - locus.a
        n = abs(d)
        out = []
        for x in candidates:
            t = dot(x - locus.a, d) / n  # distance from a along the segment
            if eps < t < n - eps:
                out.append(x)
        return out
    if isinstance(locus, Arc):
        return [x for x in candidates if locus.holds(x, eps)]
    return candidates


def intersect(l1: Locus, l2: Locus, tol: Tolerance, scale: float) -> list[complex]:
    """The candidates where two loci meet (one or two points, deterministic
    order), after the ray and segment selections; degenerate if none."""
    s1, s2 = _supporting(l1), _supporting(l2)
    if isinstance(s1, Line) and isinstance(s2, Line):
        raw = _line_line(s1, s2, tol, scale)
    elif isinstance(s1, Line) and isinstance(s2, Circle):
        raw = _line_circle(s1, s2, tol, scale)
    elif isinstance(s1, Circle) and isinstance(s2, Line):
        raw = _line_circle(s2, s1, tol, scale)
    else:
        assert isinstance(s1, Circle) and isinstance(s2, Circle)
        raw = _circle_circle(s1, s2, tol, scale)
    eps = tol.length_at(scale)
    kept = _keep(l1, raw, isinstance(s2, Circle), eps)
    kept = _keep(l2, kept, isinstance(s1, Circle), eps)
    if not kept:
        what = ("ray" if isinstance(l1, Ray) or isinstance(l2, Ray) else
                "arc" if isinstance(l1, Arc) or isinstance(l2, Arc) else "segment")
        raise Degenerate("outside", f"the intersection is not on the {what}")
    return kept


# ---------------------------------------------------------------- random points


def sample_on(locus: Locus, rng: Random, centre: complex, radius: float) -> complex:
    """A random point of the locus near the figure (centre, radius)."""
    if isinstance(locus, Arc):
        t = locus.start + locus.sweep * rng.uniform(0.15, 0.85)
        return locus.c + locus.r * complex(math.cos(t), math.sin(t))
    if isinstance(locus, Circle):
        return locus.c + locus.r * rng.unit()
    if isinstance(locus, Segment):
        return locus.a + (locus.b - locus.a) * rng.uniform(0.15, 0.85)
    if isinstance(locus, Ray):
        return locus.p + locus.d * radius * rng.uniform(0.3, 1.5)
    f = locus.p + locus.d * dot(locus.d, centre - locus.p)
    return f + locus.d * radius * rng.uniform(-2.0, 2.0)
