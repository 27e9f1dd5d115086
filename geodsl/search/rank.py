"""Ranking candidate auxiliary points: goal-directed heuristics first,
blind ones after (docs/provers.md, "Auxiliary-point search").

A candidate's key, compared lexicographically (larger first):

1. **On the goal's objects.** How many lines through two of the goal's
   points and circles through three of them the new point lies on, plus
   one half for each goal point among the construction's arguments: a
   point on the goal's own lines and circles is what a proof of the goal
   can use at once.
2. **Patterns a rule nearly matches.** How many numerically true relations
   the new point makes with the figure: collinear with two points,
   concyclic with three on one of the figure's circles, equidistant from
   two points, on a line through a point parallel or perpendicular to one
   of the figure's lines. Each is a premise some rule of rules.gdl waits
   for (a midpoint, an isosceles pair, a cyclic quadrilateral, a parallel):
   the more of them, the more rules the new point lets fire.
3. **Simple first.** The family's place in
   :data:`~geodsl.search.candidates.FAMILIES` (a midpoint before a
   parallelogram), then the construction's text — a total order, so the
   ranking is deterministic.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from ..lang.terms import Predicate
from ..realizer.loci import Degenerate, circumcenter
from ..realizer.tolerance import TOLERANCE, figure_scale
from .candidates import Candidate, Figure

_REL = 1e-7
"""Relative tolerance of the coincidence counts (the realizer's checks are tighter; a count only ranks)."""


def goal_points(goals: Sequence[Predicate]) -> tuple[str, ...]:
    out: dict[str, None] = {}
    for g in goals:
        out.update(dict.fromkeys(g.points))
    return tuple(out)


def rank(candidates: Sequence[Candidate], fig: Figure, goals: Sequence[Predicate]) -> list[Candidate]:
    """The candidates, best first (see the module's heuristics)."""
    if not candidates:
        return []
    coords = fig.coords
    scale = figure_scale(coords.values())
    names = fig.names
    pts = np.array([coords[n] for n in names])
    gp = [p for p in goal_points(goals) if p in coords]
    gpts = np.array([coords[p] for p in gp]) if gp else np.zeros(0, dtype=complex)
    pairs = np.array(list(itertools.combinations(range(len(names)), 2)), dtype=int).reshape(-1, 2)
    gpairs = np.array(list(itertools.combinations(range(len(gp)), 2)), dtype=int).reshape(-1, 2)
    gtriples = [t for t in itertools.combinations(range(len(gp)), 3)
                if abs(_cross(gpts[t[1]] - gpts[t[0]], gpts[t[2]] - gpts[t[0]])) > _REL * scale * scale]
    circles = [tuple(coords[p] for p in c[:3]) for c in fig.circles]
    centres = [(coords[o], abs(coords[g[0]] - coords[o])) for o, g in fig.centred]
    directions = [coords[ln[1]] - coords[ln[0]] for ln in fig.lines]
    dirs = np.array([d / abs(d) for d in directions]) if directions else np.zeros(0, dtype=complex)
    keys = []
    for cand in candidates:
        x = cand.point
        goal = 0.0
        if len(gpairs):
            a, b = gpts[gpairs[:, 0]], gpts[gpairs[:, 1]]
            goal += float(np.sum(np.abs(_cross(b - a, x - a)) <= _REL * scale * np.abs(b - a) * scale * 10))
        for t in gtriples:
            goal += _on_circle(x, gpts[t[0]], gpts[t[1]], gpts[t[2]], scale)
        goal += 0.5 * sum(p in gp for p in set(cand.inputs))
        a, b = pts[pairs[:, 0]], pts[pairs[:, 1]]
        lengths = np.abs(b - a)
        coll = int(np.sum(np.abs(_cross(b - a, x - a)) <= _REL * 10 * scale * lengths * scale))
        dist = np.abs(pts - x)
        order = np.sort(dist)
        equal = int(np.sum(np.abs(np.diff(order)) <= _REL * 10 * scale))
        on = sum(_on_circle(x, c[0], c[1], c[2], scale) for c in circles)
        on += sum(int(abs(abs(x - o) - r) <= _REL * 10 * scale) for o, r in centres)
        turn = 0
        if len(dirs):
            seg = pts - x
            norm = np.abs(seg)
            ok = norm > _REL * scale
            u = seg[ok] / norm[ok]
            product = np.outer(u, np.conj(dirs))  # parallel: real; perpendicular: imaginary
            turn = int(np.sum(np.abs(product.imag) <= _REL * 100)) + int(np.sum(np.abs(product.real) <= _REL * 100))
        keys.append((-goal, -(coll + equal + on + turn), cand.family, cand.text))
    order_idx = sorted(range(len(candidates)), key=lambda i: keys[i])
    return [candidates[i] for i in order_idx]


def _cross(u: complex | np.ndarray, v: complex | np.ndarray) -> np.ndarray:
    return np.asarray((np.conj(u) * v).imag)


def _on_circle(x: complex, a: complex, b: complex, c: complex, scale: float) -> int:
    """1 if x lies on the circle through a, b, c."""
    try:
        centre = circumcenter(complex(a), complex(b), complex(c), TOLERANCE, scale)
    except Degenerate:
        return 0
    return int(abs(abs(x - centre) - abs(a - centre)) <= _REL * 10 * scale)
