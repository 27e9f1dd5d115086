"""Numeric truth of every predicate of ``rulebase/predicates.gdl``.

:data:`CHECKS` maps each predicate name to a function of the argument values
(points as complex numbers, constants as floats; angles in radians) that
says whether the relation holds in one diagram. A negated predicate
(``not para a b c d``, an option written with ``≠``) holds iff the plain one
does not. Residuals are compared with the tolerances of
:mod:`geodsl.realizer.tolerance`, relative to the figure's scale.

Conventions (as in AlphaGeometry): angles are directed angles between lines,
modulo π. A relation that needs a line through two points (``para``,
``perp``, ``eqangle``, ...) is false when the two points coincide, since the
line is undefined; the side conditions ``npara`` and ``nperp`` require both
lines to exist.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from ..lang.ast import Arg, Constant, Predicate
from ..lang.definitions import expand
from .loci import cross, dot
from .tolerance import TOLERANCE, Tolerance

Check = Callable[[Sequence[complex | float], Tolerance, float], bool]

CHECKS: dict[str, Check] = {}
"""Numeric check of each predicate, by name."""


def _check(name: str) -> Callable[[Check], Check]:
    def register(fn: Check) -> Check:
        CHECKS[name] = fn
        return fn
    return register


def constant_value(c: Constant) -> float:
    """A constant as a float: angles in radians (``angle`` is in units of π,
    ``degrees`` in degrees), ratios and lengths as they are."""
    value: Fraction = c.value
    if c.kind == "angle":
        return float(value) * math.pi
    if c.kind == "degrees":
        return float(value) * math.pi / 180
    return float(value)


def arg_values(args: Sequence[Arg], coords: Mapping[str, complex]) -> list[complex | float]:
    return [coords[a] if isinstance(a, str) else constant_value(a) for a in args]


def evaluate(predicate: Predicate, coords: Mapping[str, complex], scale: float,
             tol: Tolerance = TOLERANCE) -> bool:
    """Whether ``predicate`` (possibly negated) holds for these coordinates.

    A long statement (``cyclic a b c d e``, see ``more:`` in predicates.gdl)
    holds when every fact it states holds."""
    check = CHECKS.get(predicate.name)
    if check is None:
        raise KeyError(f"no numeric check for predicate `{predicate.name}`")
    value = all(check(arg_values(part.args, coords), tol, scale) for part in expand(predicate))
    return value != predicate.negated


# ---------------------------------------------------------------- helpers


def _pts(args: Sequence[complex | float]) -> list[complex]:
    return [complex(a) for a in args]


def _direction(a: complex, b: complex, tol: Tolerance, scale: float) -> complex | None:
    """Unit direction of line ab, or None when a and b coincide."""
    v = b - a
    n = abs(v)
    if n <= tol.length_at(scale):
        return None
    return v / n


def _same_ratio(x: float, y: float, tol: Tolerance, floor: float) -> bool:
    """x = y, relative to the larger of them (and an absolute floor)."""
    return abs(x - y) <= tol.length * max(abs(x), abs(y)) + floor


def _collinear(ps: Sequence[complex], tol: Tolerance, scale: float) -> bool:
    eps = tol.length_at(scale)
    # Line through the two points farthest apart; every point within eps of it.
    best, pair = -1.0, (ps[0], ps[0])
    for i in range(len(ps)):
        for j in range(i + 1, len(ps)):
            d = abs(ps[j] - ps[i])
            if d > best:
                best, pair = d, (ps[i], ps[j])
    if best <= eps:
        return True
    a, b = pair
    u = (b - a) / best
    return all(abs(cross(u, p - a)) <= eps for p in ps)


def _angle_between(u: complex, v: complex) -> complex:
    """v / u for unit vectors: the rotation from direction u to direction v."""
    return v * u.conjugate()


def _real_mod_pi(z: complex, tol: Tolerance) -> bool:
    """A unit complex number whose angle is 0 mod π (|sin| below the tolerance)."""
    return abs(z.imag) <= tol.angle


# ---------------------------------------------------------------- relations


@_check("coll")
def coll(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    return _collinear(_pts(args), tol, scale)


@_check("para")
def para(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args)
    u, v = _direction(a, b, tol, scale), _direction(c, d, tol, scale)
    return u is not None and v is not None and abs(cross(u, v)) <= tol.angle


@_check("perp")
def perp(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args)
    u, v = _direction(a, b, tol, scale), _direction(c, d, tol, scale)
    return u is not None and v is not None and abs(dot(u, v)) <= tol.angle


@_check("midp")
def midp(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    m, a, b = _pts(args)
    return abs(m - (a + b) / 2) <= tol.length_at(scale)


@_check("cong")
def cong(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args)
    return abs(abs(b - a) - abs(d - c)) <= tol.length_at(scale)


@_check("cyclic")
def cyclic(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    eps = tol.length_at(scale)
    distinct: list[complex] = []
    for p in _pts(args):
        if all(abs(p - q) > eps for q in distinct):
            distinct.append(p)
    if len(distinct) <= 2:
        return True
    if len(distinct) == 3:
        return not _collinear(distinct, tol, scale)
    # The circle through the best-shaped three (largest area); the fourth on it.
    best_area, best = -1.0, 0
    for skip in range(4):
        a, b, c = (distinct[i] for i in range(4) if i != skip)
        area = abs(cross(b - a, c - a))
        if area > best_area:
            best_area, best = area, skip
    a, b, c = (distinct[i] for i in range(4) if i != best)
    if _collinear([a, b, c], tol, scale):
        return False
    ab, ac = b - a, c - a
    den = 2 * cross(ab, ac)
    nab, nac = dot(ab, ab), dot(ac, ac)
    o = a + complex((ac.imag * nab - ab.imag * nac) / den, (ab.real * nac - ac.real * nab) / den)
    return abs(abs(distinct[best] - o) - abs(a - o)) <= eps


@_check("circle")
def circle(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    o, a, b, c = _pts(args)
    eps = tol.length_at(scale)
    r = abs(a - o)
    return r > eps and abs(abs(b - o) - r) <= eps and abs(abs(c - o) - r) <= eps


def _turn(a: complex, b: complex, c: complex, d: complex, tol: Tolerance,
          scale: float) -> complex | None:
    """The rotation (unit complex) from line ab to line cd, or None."""
    u, v = _direction(a, b, tol, scale), _direction(c, d, tol, scale)
    if u is None or v is None:
        return None
    return _angle_between(u, v)


@_check("eqangle")
def eqangle(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d, e, f, g, h = _pts(args)
    t1, t2 = _turn(a, b, c, d, tol, scale), _turn(e, f, g, h, tol, scale)
    if t1 is None or t2 is None:
        return False
    return _real_mod_pi(t1 * t2.conjugate(), tol)


@_check("eqratio")
def eqratio(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d, e, f, g, h = _pts(args)
    eps = tol.length_at(scale)
    return _same_ratio(abs(b - a) * abs(h - g), abs(d - c) * abs(f - e), tol, eps * eps)


@_check("sideprod")
def sideprod(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d, e, f = _pts(args)
    eps = tol.length_at(scale)
    return _same_ratio(abs(d - b) * abs(e - c) * abs(f - a), abs(c - d) * abs(a - e) * abs(b - f),
                       tol, eps * eps * eps)


def _ratio(a: complex, b: complex, c: complex) -> complex | None:
    """(c − a)/(b − a): the shape of triangle abc as a complex number."""
    if b == a:
        return None
    return (c - a) / (b - a)


def _similar(args: Sequence[complex | float], tol: Tolerance, scale: float,
             reflected: bool, congruent: bool) -> bool:
    a, b, c, p, q, r = _pts(args)
    eps = tol.length_at(scale)
    if abs(b - a) <= eps or abs(q - p) <= eps:
        return False
    z1, z2 = _ratio(a, b, c), _ratio(p, q, r)
    assert z1 is not None and z2 is not None
    if reflected:
        z2 = z2.conjugate()
    if abs(z1 - z2) > tol.angle * max(1.0, abs(z1), abs(z2)):
        return False
    return not congruent or abs(abs(b - a) - abs(q - p)) <= eps


@_check("simtri")
def simtri(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    return _similar(args, tol, scale, reflected=False, congruent=False)


@_check("simtrir")
def simtrir(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    return _similar(args, tol, scale, reflected=True, congruent=False)


@_check("contri")
def contri(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    return _similar(args, tol, scale, reflected=False, congruent=True)


@_check("contrir")
def contrir(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    return _similar(args, tol, scale, reflected=True, congruent=True)


@_check("aconst")
def aconst(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args[:4])
    angle = float(args[4].real if isinstance(args[4], complex) else args[4])
    t = _turn(a, b, c, d, tol, scale)
    if t is None:
        return False
    return _real_mod_pi(t * complex(math.cos(angle), -math.sin(angle)), tol)


@_check("anglediff")
def anglediff(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d, e, f, g, h = _pts(args[:8])
    angle = float(args[8].real if isinstance(args[8], complex) else args[8])
    t1, t2 = _turn(a, b, c, d, tol, scale), _turn(e, f, g, h, tol, scale)
    if t1 is None or t2 is None:
        return False
    return _real_mod_pi(t1 * t2.conjugate() * complex(math.cos(angle), -math.sin(angle)), tol)


@_check("rconst")
def rconst(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args[:4])
    ratio = float(args[4].real if isinstance(args[4], complex) else args[4])
    eps = tol.length_at(scale)
    return _same_ratio(abs(b - a), ratio * abs(d - c), tol, eps)


@_check("lconst")
def lconst(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b = _pts(args[:2])
    length = float(args[2].real if isinstance(args[2], complex) else args[2])
    return abs(abs(b - a) - length) <= tol.length_at(scale)


@_check("r2const")
def r2const(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args[:4])
    ratio = float(args[4].real if isinstance(args[4], complex) else args[4])
    eps = tol.length_at(scale)
    return _same_ratio(abs(b - a) ** 2, ratio * abs(d - c) ** 2, tol, eps * eps)


@_check("l2const")
def l2const(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b = _pts(args[:2])
    square = float(args[2].real if isinstance(args[2], complex) else args[2])
    # |ab| against √square: the same length tolerance as lconst.
    return abs(abs(b - a) - math.sqrt(square)) <= tol.length_at(scale)


@_check("foot")
def foot(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args)
    u = _direction(c, d, tol, scale)
    if u is None:
        return False
    f = c + u * dot(u, b - c)
    return abs(a - f) <= tol.length_at(scale)


# ---------------------------------------------------------------- side conditions


@_check("diff")
def diff(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b = _pts(args)
    return abs(b - a) > tol.length_at(scale)


@_check("ncoll")
def ncoll(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    return not coll(args, tol, scale)


@_check("npara")
def npara(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args)
    return diff([a, b], tol, scale) and diff([c, d], tol, scale) and not para(args, tol, scale)


@_check("nperp")
def nperp(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args)
    return diff([a, b], tol, scale) and diff([c, d], tol, scale) and not perp(args, tol, scale)


def _signed_pair(s1: float, s2: float, tol: Tolerance, scale: float) -> int:
    """0 when either quantity (an area or a dot product: a squared length)
    is within the tolerance of 0, else 1 for equal signs and −1 for opposite."""
    eps2 = tol.length_at(scale) ** 2
    if abs(s1) <= eps2 or abs(s2) <= eps2:
        return 0
    return 1 if (s1 > 0) == (s2 > 0) else -1


@_check("sameclock")
def sameclock(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, p, q, r = _pts(args)
    return _signed_pair(cross(b - a, c - a), cross(q - p, r - p), tol, scale) == 1


@_check("sameside")
def sameside(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, x, y, z = _pts(args)
    return _signed_pair(dot(b - a, c - a), dot(y - x, z - x), tol, scale) == 1


@_check("nsameside")
def nsameside(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, x, y, z = _pts(args)
    return _signed_pair(dot(b - a, c - a), dot(y - x, z - x), tol, scale) == -1


@_check("obtuse_angle")
def obtuse_angle(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c = _pts(args)
    eps = tol.length_at(scale)
    # Strictly obtuse: a right angle (or a point on b) is not.
    return dot(a - b, c - b) < -eps * max(abs(a - b), abs(c - b), eps)


@_check("samedir")
def samedir(args: Sequence[complex | float], tol: Tolerance, scale: float) -> bool:
    a, b, c, d = _pts(args)
    return dot(b - a, d - c) > tol.length_at(scale) ** 2
