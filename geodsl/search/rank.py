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


CHUNK = 1024
"""Candidates scored at once (arrays of CHUNK × points × lines stay small)."""


def rank(candidates: Sequence[Candidate], fig: Figure, goals: Sequence[Predicate]) -> list[Candidate]:
    """The candidates, best first (see the module's heuristics). Scored as
    arrays, :data:`CHUNK` candidates at a time."""
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
    # Circles as (centre, radius), computed once rather than per candidate.
    goal_circles = _circles([(gpts[t[0]], gpts[t[1]], gpts[t[2]]) for t in gtriples], scale)
    circles = _circles([(coords[c[0]], coords[c[1]], coords[c[2]]) for c in fig.circles], scale)
    circles += [(coords[o], abs(coords[g[0]] - coords[o])) for o, g in fig.centred]
    directions = [coords[ln[1]] - coords[ln[0]] for ln in fig.lines]
    dirs = np.array([d / abs(d) for d in directions]) if directions else np.zeros(0, dtype=complex)
    ga, gb = gpts[gpairs[:, 0]], gpts[gpairs[:, 1]]
    a, b = pts[pairs[:, 0]], pts[pairs[:, 1]]
    lengths = np.abs(b - a)
    goal = np.zeros(len(candidates))
    near = np.zeros(len(candidates), dtype=np.int64)
    for at in range(0, len(candidates), CHUNK):
        x = np.array([c.point for c in candidates[at: at + CHUNK]])[:, None]
        part = slice(at, at + len(x))
        # 1. On the goal's lines and circles.
        if len(gpairs):
            goal[part] += np.sum(np.abs(_cross(gb - ga, x - ga)) <= _REL * scale * np.abs(gb - ga) * scale * 10, axis=1)
        goal[part] += _on(x[:, 0], goal_circles, scale)
        # 2. Relations with the figure: collinear with two points, equidistant
        # from two, on a figure circle, on a parallel or perpendicular.
        coll = np.sum(np.abs(_cross(b - a, x - a)) <= _REL * 10 * scale * lengths * scale, axis=1)
        order = np.sort(np.abs(pts - x), axis=1)
        equal = np.sum(np.abs(np.diff(order, axis=1)) <= _REL * 10 * scale, axis=1)
        turn = np.zeros(len(x), dtype=np.int64)
        if len(dirs):
            seg = pts - x
            norm = np.abs(seg)
            ok = norm > _REL * scale
            u = np.divide(seg, norm, out=np.zeros_like(seg), where=ok)
            product = u[:, :, None] * np.conj(dirs)[None, None, :]  # parallel: real; perpendicular: imaginary
            live = ok[:, :, None]
            turn = (np.sum(live & (np.abs(product.imag) <= _REL * 100), axis=(1, 2))
                    + np.sum(live & (np.abs(product.real) <= _REL * 100), axis=(1, 2)))
        near[part] = coll + equal + _on(x[:, 0], circles, scale) + turn
    for k, cand in enumerate(candidates):
        goal[k] += 0.5 * sum(p in gp for p in set(cand.inputs))
    keys = [(-float(goal[k]), -int(near[k]), cand.family, cand.text) for k, cand in enumerate(candidates)]
    order_idx = sorted(range(len(candidates)), key=lambda i: keys[i])
    return [candidates[i] for i in order_idx]


def _cross(u: complex | np.ndarray, v: complex | np.ndarray) -> np.ndarray:
    return np.asarray((np.conj(u) * v).imag)


def _circles(triples: Sequence[tuple[complex, complex, complex]], scale: float) -> list[tuple[complex, float]]:
    """The circles through each triple, as (centre, radius); collinear triples have none."""
    out = []
    for a, b, c in triples:
        try:
            centre = circumcenter(complex(a), complex(b), complex(c), TOLERANCE, scale)
        except Degenerate:
            continue
        out.append((centre, abs(a - centre)))
    return out


def _on(x: np.ndarray, circles: Sequence[tuple[complex, float]], scale: float) -> np.ndarray:
    """For each point of ``x``, how many of ``circles`` it lies on."""
    count = np.zeros(len(x), dtype=np.int64)
    for centre, radius in circles:
        count += np.abs(np.abs(x - centre) - radius) <= _REL * 10 * scale
    return count
