"""Coordinates for a premise: every point as exact rational functions of a
few parameters — the untrusted half of the algebraic prover.

This is Wu's method for the case where each point's equations can be
solved rationally: the triangular set has members of degree 1 in their
leading variable, so a pseudo-remainder is a substitution. Point by point,
in premise order, the equations of the point's clauses (``polynomials:``
in ``rulebase/constructions.gdl``, each fact's ``polynomial:`` form in
``predicates.gdl``) are written in its two unknown coordinates over the
field of rational functions of the parameters so far, and:

* a point no equation binds gets two parameters (its coordinates);
* a point on one locus gets one: a line is ``P + t·d`` through a point P
  on it; a circle is the second intersection with the line of slope t
  through a point already on it, or ``C + R_t(q − p)`` (a rotation with
  rational half-angle tangent t) when its radius is a distance |pq|;
* a point fixed by two equations is solved: two lines by Cramer's rule; a
  line and a conic by the other root through a point already on both, or by
  factoring the quadratic (a square's corner: the roots are rational); two
  circles through their radical axis. A quadratic that does not split over
  the field (a point that needs a square root) is refused: that is where the
  method stops (docs/provers.md).

Coordinates are chosen to cut variables: the first point at the origin and
the second (when free) on the x axis at 1 — every polynomial form is
invariant under rotations and translations, and under scaling unless the
problem fixes a length. Where a choice has several roots, the figure picks
the branch; the figure's own parameter values are kept, so the checker
(:mod:`.check`) can confirm that the coordinates describe the figure.

Every denominator introduced is a non-degeneracy condition, kept with what
it means (two lines meet, the point differs from the other intersection).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy
from sympy.polys.domains import QQ
from sympy.polys.fields import FracField, field as make_field

from ..budget import Clock
from ..lang.ast import Constant, Predicate, Problem
from ..lang.definitions import rulebase
from ..lang.polynomials import Evaluation, Unsupported

Elem = Any
"""An exact rational function of the parameters (a sympy ``FracElement``,
untyped to mypy)."""

_UNKNOWN = ("X", "Y", "S")
"""The current point's coordinates and a line's position, while it is solved."""


class AlgebraFailure(Exception):
    """Why the premise has no rational coordinates (the prover reports it)."""


@dataclass
class Parametrization:
    """Each point as rational functions of the parameters, with the figure's
    parameter values and the non-degeneracy conditions."""

    field: FracField
    params: list[str] = field(default_factory=list)
    """Parameter names (generators of :attr:`field`), in order of introduction."""
    values: dict[str, float] = field(default_factory=dict)
    """Each parameter's value in the figure."""
    coords: dict[str, tuple[Elem, Elem]] = field(default_factory=dict)
    own: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The parameters each point introduced (2 free, 1 on a locus, 0 fixed)."""
    origin: str | None = None
    """The point placed at (0, 0)."""
    axis: str | None = None
    """The point placed on the x axis: at (1, 0) when :attr:`scaled`."""
    scaled: bool = False
    ndg: list[tuple[str, Elem]] = field(default_factory=list)
    """(meaning, polynomial): conditions ``polynomial ≠ 0`` the coordinates assume."""
    figure: dict[str, tuple[float, float]] = field(default_factory=dict)
    """The figure's coordinates after the same choice of axes."""
    algebraic: list[tuple[str, str, Any, float]] = field(default_factory=list)
    """The triangular set's quadratic members: (variable, point, m, value) —
    the point is ``base + z·d`` with z a root of m (a polynomial of degree 2
    in z, over the parameters and the earlier such variables); its value
    in the figure."""

    def reduce(self, poly: Any) -> Any:
        """Wu's pseudo-remainder of ``poly`` by the quadratic members, last first."""
        for name, _, m, _ in reversed(self.algebraic):
            index = self.field.symbols.index(sympy.Symbol(name))
            if poly.degree(index) >= 2:
                poly = poly.prem(m, index)
        return poly

    def is_zero(self, elem: Elem) -> bool:
        """Whether ``elem`` vanishes on the triangular set (its numerator's remainder is 0)."""
        return bool(self.reduce(elem.numer) == 0)

    def gen(self, name: str) -> Elem:
        return self.field.gens[self.field.symbols.index(sympy.Symbol(name))]


def facts_of(problem: Problem) -> list[tuple[int, Predicate]]:
    """Each construction's equations as facts on the problem's points, with
    the index of the construction (the hypotheses, as the checker reads
    them too). Raises :class:`AlgebraFailure` for a clause without them."""
    rb = rulebase()
    out: list[tuple[int, Predicate]] = []
    for ci, construction in enumerate(problem.premise.constructions):
        for clause in construction.clauses:
            cdef = rb.construction(clause.name)
            if cdef.polynomials is None:
                raise AlgebraFailure(f"`{clause.name}` has no polynomial equations "
                                     "(rulebase/constructions.gdl gives none)")
            bind = dict(zip(cdef.params, clause.args))
            for fact in cdef.polynomials:
                args = tuple(bind.get(a, a) if isinstance(a, str) else a for a in fact.args)
                out.append((ci, Predicate(fact.name, args)))
    return out


def polynomial_values(fact: Predicate, points: dict[str, tuple[Any, Any]], number: Any) -> list[Any]:
    """The fact's polynomial forms evaluated on ``points`` (name → (x, y)),
    numbers made by ``number``."""
    pdef = rulebase().predicate(fact.name)
    pts = {i: points[a] for i, a in enumerate(fact.args) if isinstance(a, str)}
    consts = {i: a for i, a in enumerate(fact.args) if isinstance(a, Constant)}
    return Evaluation(number).forms(pdef.polynomials, pts, consts)


def solving_order(construction: Any) -> tuple[str, ...]:
    """A construction's outputs in the order its recipe places them (its
    ``fixes``/``locus`` lines), as the problem names them."""
    clause = construction.clauses[0]
    cdef = rulebase().construction(clause.name)
    bind = dict(zip(cdef.params, clause.args))
    out: list[str] = []
    for step in cdef.steps:
        out.extend(str(bind[p]) for p in step.points if str(bind[p]) not in out)
    return tuple(out) if sorted(out) == sorted(construction.points) else tuple(construction.points)


def uses_length(facts: Sequence[Predicate]) -> bool:
    """Whether a fact fixes an absolute length (then the axes may not scale)."""
    rb = rulebase()
    return any("length" in rb.predicate(f.name).params for f in facts)


# ------------------------------------------------------------ numerics


def feval(elem: Elem, values: Sequence[float]) -> float:
    """An element's value at ``values`` (one per generator), in floats."""
    num = _peval(elem.numer, values)
    den = _peval(elem.denom, values)
    return num / den if den != 0 else math.inf


def _peval(poly: Any, values: Sequence[float]) -> float:
    total = 0.0
    for monom, coef in poly.iterterms():
        term = float(coef)
        for i, e in enumerate(monom):
            if e:
                term *= values[i] ** e
        total += term
    return total


# ------------------------------------------------------------- solving


class _Solver:
    def __init__(self, problem: Problem, figure: dict[str, complex], clock: Clock | None,
                 goals: Sequence[Predicate]) -> None:
        self.problem = problem
        self.clock = clock
        npoints = len(problem.premise.points)
        names = list(_UNKNOWN) + [f"u{i}" for i in range(1, 2 * npoints + 3)] + \
            [f"z{i}" for i in range(1, npoints + 1)]
        built = make_field(",".join(names), QQ)
        K = built[0]
        self.K: FracField = K
        self.gens: tuple[Elem, ...] = tuple(built[1:])
        self.X, self.Y, self.S = self.gens[:3]
        self.par = Parametrization(K)
        self.raw = figure
        self.goals = goals
        self.values = [0.0] * len(self.gens)
        self.next_param = 0
        self.first_z = 3 + 2 * npoints + 2

    # --- helpers
    def number(self, q: Fraction) -> Elem:
        return self.K(QQ(q.numerator, q.denominator))

    def new_param(self, point: str, value: float) -> Elem:
        if 3 + self.next_param >= self.first_z:  # pragma: no cover - 2 per point are allocated
            raise AlgebraFailure("too many parameters")
        gen = self.gens[3 + self.next_param]
        name = f"u{self.next_param + 1}"
        self.next_param += 1
        self.values[3 + self.next_param - 1] = value
        self.par.params.append(name)
        self.par.values[name] = value
        self.par.own[point] = self.par.own.get(point, ()) + (name,)
        return gen

    def num(self, elem: Elem, x: float = 0.0, y: float = 0.0, s: float = 0.0) -> float:
        self.values[0], self.values[1], self.values[2] = x, y, s
        return feval(elem, self.values)

    def check_time(self) -> None:
        if self.clock is not None:
            self.clock.check("algebra")

    # --- the run
    def run(self) -> Parametrization:
        problem = self.problem
        facts = facts_of(problem)
        goal_facts = list(self.goals)
        scaled_ok = not uses_length([f for _, f in facts] + goal_facts)
        points = problem.premise.points
        by_construction: dict[int, list[Predicate]] = {}
        for ci, fact in facts:
            by_construction.setdefault(ci, []).append(fact)
        # Each construction's outputs are solved in its recipe's order (an
        # incentre before its touch points); a fact binds the latest output
        # it mentions in that order.
        order: list[str] = []
        assigned: dict[str, list[Predicate]] = {p: [] for p in points}
        for ci, construction in enumerate(problem.premise.constructions):
            outs = solving_order(construction)
            order.extend(outs)
            for fact in by_construction.get(ci, []):
                mentioned = [outs.index(a) for a in fact.args if isinstance(a, str) and a in outs]
                if mentioned:
                    assigned[outs[max(mentioned)]].append(fact)
        self._axes(order, assigned, scaled_ok)
        for p in order:
            self.check_time()
            self._solve(p, assigned[p])
        return self.par

    def _axes(self, points: Sequence[str], assigned: dict[str, list[Predicate]], scaled_ok: bool) -> None:
        """The first point at 0 and the second, when free, on the x axis."""
        par = self.par
        raw = self.raw
        a = points[0]
        par.origin = a
        shift = raw[a]
        turn: complex = 1
        if len(points) > 1 and not assigned[points[1]]:
            b = points[1]
            par.axis = b
            d = raw[b] - raw[a]
            if abs(d) == 0:  # pragma: no cover - the realizer keeps points apart
                raise AlgebraFailure("the first two points coincide in the figure")
            par.scaled = scaled_ok
            turn = 1 / d if scaled_ok else abs(d) / d
        par.figure = {p: (((raw[p] - shift) * turn).real, ((raw[p] - shift) * turn).imag) for p in points}

    def _solve(self, point: str, facts: list[Predicate]) -> None:
        par = self.par
        fx, fy = par.figure[point]
        known = dict(par.coords)
        known[point] = (self.X, self.Y)
        polys: list[Any] = []
        for fact in facts:
            try:
                values = polynomial_values(fact, known, self.number)
            except Unsupported as exc:
                raise AlgebraFailure(f"`{fact.to_text()}`: {exc}") from None
            for v in values:
                if v != 0:
                    polys.append(v.numer)
        if point == par.origin:
            par.coords[point] = (self.K(0), self.K(0))
            par.own[point] = ()
            return
        if point == par.axis:
            x = self.K(1) if par.scaled else self.new_param(point, fx)
            par.coords[point] = (x, self.K(0))
            par.own.setdefault(point, ())
            return
        eqs = [_Eq(p, self) for p in polys]
        eqs = [e for e in eqs if e.degree > 0]
        chosen = self._independent(eqs, fx, fy)
        if len(chosen) == 0:
            x = self.new_param(point, fx)
            y = self.new_param(point, fy)
            par.coords[point] = (x, y)
            return
        par.own.setdefault(point, ())
        if len(chosen) == 1:
            par.coords[point] = self._on_locus(point, chosen[0], fx, fy)
        else:
            par.coords[point] = self._fixed(point, chosen[0], chosen[1], fx, fy)

    def _independent(self, eqs: list["_Eq"], fx: float, fy: float) -> list["_Eq"]:
        """Up to two equations with independent gradients at the figure,
        lines first (they make the simplest solutions)."""
        out: list[_Eq] = []
        for e in sorted(eqs, key=lambda e: e.degree):
            gx, gy = e.gradient(fx, fy)
            norm = math.hypot(gx, gy)
            if norm < 1e-9 * max(1.0, e.size(fx, fy)):
                continue
            if out:
                hx, hy = out[0].gradient(fx, fy)
                if abs(gx * hy - gy * hx) < 1e-7 * norm * math.hypot(hx, hy):
                    continue
            out.append(e)
            if len(out) == 2:
                break
        return out

    # --- one degree of freedom
    def _split(self, point: str, eq: "_Eq", fx: float, fy: float) -> "_Eq":
        """A conic that is not a circle, as a line through the figure's point:
        a rational factor (two lines over the field), else, for a pair of
        lines through a known point A (two bisectors at A), the line through
        A whose slope z is a root of the pair's quadratic — a member of the
        triangular set."""
        eq = eq.split(fx, fy)
        if eq.degree != 2 or eq.circle():
            return eq
        for name, (ax, ay) in self.par.coords.items():
            px, py = self.num(ax), self.num(ay)
            gx, gy = eq.gradient(px, py)
            scale = max(1.0, eq.size(px, py))
            if abs(eq.value(px, py)) > 1e-8 * scale or math.hypot(gx, gy) > 1e-8 * scale:
                continue
            A, B, C = eq.c(2, 0), eq.c(1, 1), eq.c(0, 2)
            if not (self.par.is_zero(eq.exact(ax, ay)) and eq.homogeneous_at(ax, ay, self.par)):
                continue
            k = len(self.par.algebraic)
            if self.first_z + k >= len(self.gens):  # pragma: no cover - one per point is allocated
                raise AlgebraFailure("too many quadratic points")
            z = self.gens[self.first_z + k]
            vertical = abs(fy - py) > abs(fx - px)
            if vertical:  # direction (z, 1): A z² + B z + C = 0
                m = (A * z * z + B * z + C).numer
                value = (fx - px) / (fy - py)
                line = (self.X - ax) - z * (self.Y - ay)
                lead = A
            else:  # direction (1, z): A + B z + C z² = 0
                m = (C * z * z + B * z + A).numer
                value = (fy - py) / (fx - px)
                line = (self.Y - ay) - z * (self.X - ax)
                lead = C
            self.values[self.first_z + k] = value
            self.par.algebraic.append((f"z{k + 1}", point, m, value))
            self.par.ndg.append((f"{point}: the slope z{k + 1} of its line through {name} keeps its degree",
                                 lead))
            return _Eq(line.numer, self)
        return eq

    def _on_locus(self, point: str, eq: "_Eq", fx: float, fy: float) -> tuple[Elem, Elem]:
        eq = self._split(point, eq, fx, fy)
        par = self.par
        if eq.degree == 1:
            a, b, c = eq.linear()
            d = (-b, a)
            base = self._known_on([eq]) or self._line_point(a, b, c)
            px, py = self.num(base[0]), self.num(base[1])
            dx, dy = self.num(d[0]), self.num(d[1])
            t_val = ((fx - px) * dx + (fy - py) * dy) / (dx * dx + dy * dy)
            t = self.new_param(point, t_val)
            return base[0] + t * d[0], base[1] + t * d[1]
        if not eq.circle():
            raise AlgebraFailure(f"`{point}` lies on a conic that is not a circle or a line")
        known = self._known_on([eq])
        if known is not None:
            px, py = self.num(known[0]), self.num(known[1])
            if abs(fx - px) >= abs(fy - py):
                t = self.new_param(point, (fy - py) / (fx - px))
                d = (self.K(1), t)
            else:
                t = self.new_param(point, (fx - px) / (fy - py))
                d = (t, self.K(1))
            alpha, beta, _ = eq.along(known, d)
            s = -beta / alpha
            par.ndg.append((f"{point} differs from the point it is drawn through", alpha))
            return known[0] + s * d[0], known[1] + s * d[1]
        # A circle whose radius is a distance between two points: a rotation.
        A, D, E, F = eq.circle_coeffs()
        cx, cy = -D / (2 * A), -E / (2 * A)
        r2 = cx * cx + cy * cy - F / A
        r2_val = self.num(r2)
        names = list(par.coords)
        vectors: list[tuple[Elem, Elem]] = []
        radius = _rational_sqrt(r2)
        if radius is not None:  # a constant radius (lconst): turn (r, 0)
            vectors.append((self.K(QQ(radius.numerator, radius.denominator)), self.K(0)))
        for i, p in enumerate(names):
            for q in names[i + 1:]:
                (px, py), (qx, qy) = par.coords[p], par.coords[q]
                vectors.append((qx - px, qy - py))
        for vx, vy in vectors:
            n_val = self.num(vx) ** 2 + self.num(vy) ** 2
            if abs(n_val - r2_val) > 1e-7 * max(1.0, abs(r2_val)) or not par.is_zero(vx * vx + vy * vy - r2):
                continue
            cxv, cyv = self.num(cx), self.num(cy)
            w = complex(fx - cxv, fy - cyv) / complex(self.num(vx), self.num(vy))
            sign = 1
            if w.real < -0.5:  # turn -v instead: keeps the half-angle tangent small
                w, sign = -w, -1
            theta = math.atan2(w.imag, w.real)
            t = self.new_param(point, math.tan(theta / 2))
            one = self.K(1)
            c_, s_ = (one - t * t) / (one + t * t), 2 * t / (one + t * t)
            ux, uy = sign * vx, sign * vy
            return cx + c_ * ux - s_ * uy, cy + s_ * ux + c_ * uy
        raise AlgebraFailure(f"`{point}` lies on a circle through no known point, of no known radius")

    # --- no degree of freedom
    def _fixed(self, point: str, e1: "_Eq", e2: "_Eq", fx: float, fy: float) -> tuple[Elem, Elem]:
        e1, e2 = self._split(point, e1, fx, fy), self._split(point, e2, fx, fy)
        par = self.par
        if e1.degree == 1 and e2.degree == 1:
            a1, b1, c1 = e1.linear()
            a2, b2, c2 = e2.linear()
            det = a1 * b2 - a2 * b1
            par.ndg.append((f"the two lines that fix {point} meet in one point", det))
            return (b1 * c2 - b2 * c1) / det, (a2 * c1 - a1 * c2) / det
        if e1.degree == 2 and e2.degree == 2:
            if not (e1.circle() and e2.circle()):
                raise AlgebraFailure(f"`{point}` is fixed by two conics that are not circles")
            A1, A2 = e1.circle_coeffs()[0], e2.circle_coeffs()[0]
            axis = _Eq.from_poly(e1.poly * A2.numer - e2.poly * A1.numer, self)
            if axis.degree != 1:
                raise AlgebraFailure(f"the circles that fix `{point}` are concentric")
            e1, e2 = axis, e1
        line, conic = (e1, e2) if e1.degree == 1 else (e2, e1)
        a, b, c = line.linear()
        d = (-b, a)
        known = self._known_on([line, conic], exclude_figure=(fx, fy))
        if known is not None:
            alpha, beta, _ = conic.along(known, d)
            s = -beta / alpha
            par.ndg.append((f"{point} is the second intersection, not the known one", alpha))
            return known[0] + s * d[0], known[1] + s * d[1]
        base = self._known_on([line]) or self._line_point(a, b, c)
        alpha, beta, gamma = conic.along(base, d)
        return self._rational_root(point, base, d, alpha, beta, gamma, fx, fy)

    def _rational_root(self, point: str, base: tuple[Elem, Elem], d: tuple[Elem, Elem], alpha: Elem,
                       beta: Elem, gamma: Elem, fx: float, fy: float) -> tuple[Elem, Elem]:
        """The root, in the field, of α s² + β s + γ that the figure shows."""
        S = self.S
        q = (alpha * S * S + beta * S + gamma).numer
        for factor, _ in _factors(q, self.K):
            if factor.degree(2) != 1:
                continue
            one = factor.coeff_wrt(2, 1)
            zero = factor.coeff_wrt(2, 0)
            s = -self.K(zero) / self.K(one)
            x, y = base[0] + s * d[0], base[1] + s * d[1]
            if abs(self.num(x) - fx) + abs(self.num(y) - fy) < 1e-6 * max(1.0, abs(fx) + abs(fy)):
                self.par.ndg.append((f"{point}: the root the figure shows is a simple root", self.K(one)))
                return x, y
        return self._quadratic(point, base, d, alpha, beta, gamma, fx, fy)

    def _quadratic(self, point: str, base: tuple[Elem, Elem], d: tuple[Elem, Elem], alpha: Elem,
                   beta: Elem, gamma: Elem, fx: float, fy: float) -> tuple[Elem, Elem]:
        """A point that needs a square root: ``base + z·d``, z a new variable
        with its quadratic (a member of the triangular set; both roots are
        then proved at once, or neither)."""
        k = len(self.par.algebraic)
        if self.first_z + k >= len(self.gens):  # pragma: no cover - one per point is allocated
            raise AlgebraFailure("too many quadratic points")
        name = f"z{k + 1}"
        z = self.gens[self.first_z + k]
        m = (alpha * z * z + beta * z + gamma).numer
        px, py = self.num(base[0]), self.num(base[1])
        dx, dy = self.num(d[0]), self.num(d[1])
        value = ((fx - px) * dx + (fy - py) * dy) / (dx * dx + dy * dy)
        self.values[self.first_z + k] = value
        self.par.algebraic.append((name, point, m, value))
        self.par.ndg.append((f"{point}: the quadratic of {name} keeps its degree", alpha))
        return base[0] + z * d[0], base[1] + z * d[1]

    def _known_on(self, eqs: list["_Eq"], exclude_figure: tuple[float, float] | None = None
                  ) -> tuple[Elem, Elem] | None:
        """A point already placed that satisfies every equation exactly."""
        for name, (x, y) in self.par.coords.items():
            px, py = self.num(x), self.num(y)
            if exclude_figure is not None and math.hypot(px - exclude_figure[0], py - exclude_figure[1]) < 1e-9:
                continue
            if all(abs(e.value(px, py)) < 1e-8 * max(1.0, e.size(px, py)) for e in eqs) \
                    and all(self.par.is_zero(e.exact(x, y)) for e in eqs):
                return x, y
        return None

    def _line_point(self, a: Elem, b: Elem, c: Elem) -> tuple[Elem, Elem]:
        if abs(self.num(a)) >= abs(self.num(b)):
            self.par.ndg.append(("the line's x coefficient", a))
            return -c / a, self.K(0)
        self.par.ndg.append(("the line's y coefficient", b))
        return self.K(0), -c / b


def _rational_sqrt(value: Elem) -> Fraction | None:
    """√value when value is a constant square of a rational number."""
    if not (value.numer.is_ground and value.denom.is_ground):
        return None
    q = Fraction(str(value.numer.LC)) / Fraction(str(value.denom.LC))
    if q <= 0:
        return None
    num, den = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(num, den) if num * num == q.numerator and den * den == q.denominator else None


def _factors(poly: Any, K: FracField) -> list[tuple[Any, int]]:
    """Irreducible factors of a polynomial of the field's ring."""
    _, found = poly.factor_list()
    return list(found)


class _Eq:
    """One equation of the current point, a polynomial in X, Y over the parameters."""

    def __init__(self, poly: Any, solver: _Solver) -> None:
        self.poly = poly
        self.solver = solver
        self.coeffs: dict[tuple[int, int], Any] = {}
        for monom, coef in poly.iterterms():
            key = (monom[0], monom[1])
            rest = (0, 0) + monom[2:]
            self.coeffs[key] = self.coeffs.get(key, poly.ring.zero) + poly.ring({rest: coef})
        self.degree = max((i + j for i, j in self.coeffs), default=0)

    @classmethod
    def from_poly(cls, poly: Any, solver: _Solver) -> "_Eq":
        return cls(poly, solver)

    def c(self, i: int, j: int) -> Elem:
        return self.solver.K(self.coeffs.get((i, j), self.poly.ring.zero))

    def linear(self) -> tuple[Elem, Elem, Elem]:
        return self.c(1, 0), self.c(0, 1), self.c(0, 0)

    def circle(self) -> bool:
        return (self.degree == 2 and self.c(2, 0) == self.c(0, 2) and self.c(1, 1) == 0
                and self.c(2, 0) != 0)

    def circle_coeffs(self) -> tuple[Elem, Elem, Elem, Elem]:
        return self.c(2, 0), self.c(1, 0), self.c(0, 1), self.c(0, 0)

    def value(self, x: float, y: float) -> float:
        return self.solver.num(self.solver.K(self.poly), x, y)

    def size(self, x: float, y: float) -> float:
        """A scale for the equation's value: the sum of its terms' sizes."""
        s = self.solver
        return sum(abs(s.num(s.K(c))) * (abs(x) ** i) * (abs(y) ** j) for (i, j), c in self.coeffs.items())

    def gradient(self, x: float, y: float) -> tuple[float, float]:
        s = self.solver
        gx = sum(i * s.num(s.K(c)) * x ** (i - 1) * y ** j for (i, j), c in self.coeffs.items() if i)
        gy = sum(j * s.num(s.K(c)) * x ** i * y ** (j - 1) for (i, j), c in self.coeffs.items() if j)
        return gx, gy

    def exact(self, x: Elem, y: Elem) -> Elem:
        one = self.solver.K(1)
        return sum((self.c(i, j) * (x ** i if i else one) * (y ** j if j else one) for (i, j) in self.coeffs),
                   self.solver.K(0))

    def along(self, base: tuple[Elem, Elem], d: tuple[Elem, Elem]) -> tuple[Elem, Elem, Elem]:
        """α, β, γ with eq(base + s·d) = α s² + β s + γ (a conic or a line)."""
        A, B, C = self.c(2, 0), self.c(1, 1), self.c(0, 2)
        D, E, F = self.c(1, 0), self.c(0, 1), self.c(0, 0)
        px, py = base
        dx, dy = d
        alpha = A * dx * dx + B * dx * dy + C * dy * dy
        beta = (2 * A * px + B * py + D) * dx + (B * px + 2 * C * py + E) * dy
        gamma = self.exact(px, py)
        return alpha, beta, gamma

    def homogeneous_at(self, ax: Elem, ay: Elem, par: Parametrization) -> bool:
        """Whether the conic is a homogeneous quadratic in (X − ax, Y − ay)."""
        A, B, C = self.c(2, 0), self.c(1, 1), self.c(0, 2)
        D, E = self.c(1, 0), self.c(0, 1)
        return par.is_zero(D + 2 * A * ax + B * ay) and par.is_zero(E + B * ax + 2 * C * ay)

    def split(self, fx: float, fy: float) -> "_Eq":
        """A reducible conic (a pair of lines: two bisectors) as the factor
        through the figure's point; any other equation as itself."""
        if self.degree != 2 or self.circle():
            return self
        for factor, _ in _factors(self.poly, self.solver.K):
            part = _Eq(factor, self.solver)
            if part.degree == 1 and abs(part.value(fx, fy)) < 1e-7 * max(1.0, part.size(fx, fy)):
                return part
        return self


def parametrize(problem: Problem, figure: dict[str, complex], clock: Clock | None = None,
                goals: Sequence[Predicate] = ()) -> Parametrization:
    """Rational coordinates for ``problem``'s points, matching ``figure``
    (point name → complex coordinate). ``goals``: the facts to be proved
    (a length among them keeps the axes from scaling). Raises
    :class:`AlgebraFailure` with the reason where the method stops."""
    if not problem.premise.points:
        raise AlgebraFailure("the premise has no points")
    return _Solver(problem, figure, clock, goals).run()
