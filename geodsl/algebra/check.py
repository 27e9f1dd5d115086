"""The certificate checker: a small verifier of an algebraic proof that
shares nothing with the search that found it (:mod:`.coordinates`) but the
rulebase and sympy's polynomial arithmetic.

A certificate gives every point as rational functions of parameters u and
of variables z bound by a triangular set of quadratics m(z) = 0, the
figure's values of u and z, and the choice of axes. The checker:

1. reads each clause's equations from the rulebase itself (``polynomials:``
   in constructions.gdl, each fact's ``polynomial:`` form) and checks that
   every one vanishes on the coordinates: its numerator's pseudo-remainder
   by the triangular set (last member first) is 0 — Wu's criterion;
2. checks the goal's polynomials the same way;
3. checks the triangular set: each member has degree 2 in its variable,
   uses only earlier variables, and the figure's value is a simple root;
4. checks the coordinates describe the figure: evaluated at the figure's
   values they give the figure's points (after the same choice of axes);
5. checks that the choice of axes loses nothing: the first point at the
   origin, the second on the x axis only if no equation ties it to the first,
   scaled to 1 only if no fact fixes a length (every polynomial form is
   invariant under rotations and translations, and homogeneous otherwise);
6. checks dimensions at the figure: the hypotheses' Jacobian has rank
   2n − (parameters + the axes' freedom), and the coordinates, as functions
   of the parameters on the triangular set, have full rank — so the
   parametrized figures fill a neighbourhood of the figure in the solution
   set, and the goal, vanishing on them, holds on the figure's whole
   component (where the non-degeneracy conditions hold).

Each failure is a sentence; an empty list means the certificate stands.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy
from sympy.polys.domains import QQ

from ..lang.ast import Constant, Predicate, Problem
from ..lang.definitions import rulebase
from ..lang.polynomials import Evaluation, Unsupported
from .coordinates import Parametrization

_RANK_TOL = 1e-6
_FIGURE_TOL = 1e-6


def hypotheses(problem: Problem) -> list[Predicate] | None:
    """Every clause's equations as facts on the problem's points, read from
    the rulebase (None when a clause has none)."""
    rb = rulebase()
    out: list[Predicate] = []
    for construction in problem.premise.constructions:
        for clause in construction.clauses:
            cdef = rb.construction(clause.name)
            if cdef.polynomials is None:
                return None
            bind = dict(zip(cdef.params, clause.args))
            out.extend(Predicate(f.name, tuple(bind.get(a, a) if isinstance(a, str) else a for a in f.args))
                       for f in cdef.polynomials)
    return out


def _forms(fact: Predicate, points: dict[str, tuple[Any, Any]], number: Any) -> list[Any]:
    pdef = rulebase().predicate(fact.name)
    pts = {i: points[a] for i, a in enumerate(fact.args) if isinstance(a, str)}
    consts = {i: a for i, a in enumerate(fact.args) if isinstance(a, Constant)}
    return Evaluation(number).forms(pdef.polynomials, pts, consts)


class _Tower:
    """The triangular set: pseudo-remainders, last member first."""

    def __init__(self, par: Parametrization) -> None:
        symbols = par.field.symbols
        self.members = [(symbols.index(sympy.Symbol(name)), m) for name, _, m, _ in par.algebraic]

    def remainder(self, poly: Any) -> Any:
        for index, m in reversed(self.members):
            if poly.degree(index) >= m.degree(index):
                poly = poly.prem(m, index)
        return poly


def _value(poly: Any, values: Sequence[float]) -> float:
    total = 0.0
    for monom, coef in poly.iterterms():
        term = float(coef)
        for i, e in enumerate(monom):
            if e:
                term *= values[i] ** e
        total += term
    return total


def _fvalue(elem: Any, values: Sequence[float]) -> float:
    den = _value(elem.denom, values)
    return _value(elem.numer, values) / den if den != 0 else math.inf


def check(problem: Problem, par: Parametrization, goals: Sequence[Predicate],
          figure: dict[str, complex]) -> list[str]:
    """What is wrong with the certificate ``par`` for ``goals`` (empty: it
    stands), ``figure`` being the diagram it claims to describe."""
    K = par.field
    problems: list[str] = []
    facts = hypotheses(problem)
    if facts is None:
        return ["a clause has no polynomial equations in the rulebase"]
    points = problem.premise.points
    if sorted(par.coords) != sorted(points):
        return ["the certificate does not place every point of the premise"]

    def number(q: Any) -> Any:
        return K(QQ(q.numerator, q.denominator))

    tower = _Tower(par)
    # 3. the triangular set
    symbols = K.symbols
    gens_used: set[int] = set()
    for index, m in tower.members:
        if m.degree(index) != 2:
            problems.append(f"member for {symbols[index]} is not a quadratic in it")
        later = [i for i, _ in tower.members if i > index]
        if any(m.degree(i) > 0 for i in later):
            problems.append(f"member for {symbols[index]} uses a later variable")
        gens_used.add(index)
    # 1-2. hypotheses and goal vanish (Wu's pseudo-remainder)
    for what, items in (("hypothesis", facts), ("goal", list(goals))):
        for fact in items:
            try:
                values = _forms(fact, par.coords, number)
            except Unsupported as exc:
                problems.append(f"{what} `{fact.to_text()}`: {exc}")
                continue
            if any(tower.remainder(v.numer) != 0 for v in values):
                problems.append(f"{what} `{fact.to_text()}` does not vanish on the coordinates")
    # 4. the figure
    values = [0.0] * len(K.gens)
    for name, value in par.values.items():
        values[symbols.index(sympy.Symbol(name))] = value
    for name, _, _, value in par.algebraic:
        values[symbols.index(sympy.Symbol(name))] = value
    for index, m in tower.members:
        if abs(_value(m, values)) > 1e-6 * max(1.0, _size(m, values)):
            problems.append(f"the figure's {symbols[index]} is not a root of its member")
        if abs(_value(m.diff(K.ring.gens[index]), values)) < 1e-9 * max(1.0, _size(m, values)):
            problems.append(f"the figure's {symbols[index]} is a double root")
    origin, axis = par.origin, par.axis
    if origin != points[0] or (axis is not None and axis != points[1]):
        problems.append("the axes are not placed on the first two points")
    shift = figure[points[0]]
    turn: complex = 1
    if axis is not None:
        d = figure[axis] - shift
        turn = 1 / d if par.scaled else abs(d) / d
    scale = max(1.0, max(abs((figure[p] - shift) * turn) for p in points))
    for p in points:
        want = (figure[p] - shift) * turn
        x, y = (_fvalue(c, values) for c in par.coords[p])
        if not (abs(x - want.real) <= _FIGURE_TOL * scale and abs(y - want.imag) <= _FIGURE_TOL * scale):
            problems.append(f"the coordinates of {p} do not give the figure's point")
    # 5. the axes
    if axis is not None:
        pair = {points[0], axis}
        if any(set(a for a in f.args if isinstance(a, str)) <= pair for f in facts):
            problems.append(f"an equation ties {axis} to {points[0]}: it may not be put on the axis")
    if par.scaled and any("length" in rulebase().predicate(f.name).params for f in [*facts, *goals]):
        problems.append("a fact fixes a length: the axes may not scale")
    # 6. dimensions at the figure
    problems.extend(_dimensions(par, facts, figure, points, shift, turn, values, tower))
    return problems


def _size(poly: Any, values: Sequence[float]) -> float:
    total = 0.0
    for monom, coef in poly.iterterms():
        term = abs(float(coef))
        for i, e in enumerate(monom):
            if e:
                term *= abs(values[i]) ** e
        total += term
    return total


def _dimensions(par: Parametrization, facts: Sequence[Predicate], figure: dict[str, complex],
                points: Sequence[str], shift: complex, turn: complex, values: list[float],
                tower: _Tower) -> list[str]:
    n = len(points)
    coords = {p: ((figure[p] - shift) * turn) for p in points}
    flat = [v for p in points for v in (coords[p].real, coords[p].imag)]
    fnum = Evaluation(float)

    def hyp(vec: Sequence[float]) -> list[float]:
        pts = {p: (vec[2 * i], vec[2 * i + 1]) for i, p in enumerate(points)}
        out: list[float] = []
        for fact in facts:
            pdef = rulebase().predicate(fact.name)
            idx = {j: pts[a] for j, a in enumerate(fact.args) if isinstance(a, str)}
            consts = {j: a for j, a in enumerate(fact.args) if isinstance(a, Constant)}
            out.extend(fnum.forms(pdef.polynomials, idx, consts))
        return out

    h = 1e-5  # central differences: an error of order h² on these polynomials
    base = hyp(flat)
    jac = []
    for k in range(2 * n):
        up, down = list(flat), list(flat)
        up[k] += h
        down[k] -= h
        jac.append([(b - a) / (2 * h) for a, b in zip(hyp(down), hyp(up))])
    J = np.array(jac).T if base else np.zeros((0, 2 * n))
    rank = _rank(J)
    freedom = 0 if par.origin is None else 2
    if par.axis is not None:
        freedom += 2 if par.scaled else 1
    expected = 2 * n - len(par.params) - freedom
    out = []
    if rank != expected:
        out.append(f"the hypotheses have rank {rank} at the figure, not 2·{n} − {len(par.params)} "
                   f"parameters − {freedom} for the axes = {expected}: the parameters do not "
                   "describe every figure near this one")
    # The coordinates as functions of (u, z) on the triangular set: full rank in u.
    symbols = par.field.symbols
    u_index = [symbols.index(sympy.Symbol(u)) for u in par.params]
    z_index = [i for i, _ in tower.members]
    variables = u_index + z_index
    if not u_index:
        return out

    def coord_vec(vals: list[float]) -> list[float]:
        return [_fvalue(c, vals) for p in points for c in par.coords[p]]

    jc = []
    for i in variables:
        up, down = list(values), list(values)
        up[i] += h
        down[i] -= h
        jc.append([(b - a) / (2 * h) for a, b in zip(coord_vec(down), coord_vec(up))])
    Jc = np.array(jc).T
    if z_index:
        jm = []
        for i in variables:
            row = []
            for index, m in tower.members:
                g = m.diff(par.field.ring.gens[i])
                row.append(_value(g, values))
            jm.append(row)
        Jm = np.array(jm).T
        _, sv, vt = np.linalg.svd(Jm)
        kernel = vt[int(np.sum(sv > _RANK_TOL * max(1.0, sv.max()))):].T
        Jc = Jc @ kernel
    if _rank(Jc) != len(u_index):
        out.append("the coordinates do not depend on every parameter (a degenerate parametrization)")
    return out


def _rank(matrix: np.ndarray) -> int:
    if matrix.size == 0:
        return 0
    sv = np.linalg.svd(matrix, compute_uv=False)
    return int(np.sum(sv > _RANK_TOL * max(1.0, float(sv.max()))))
