"""The numeric layer of the closure: one realized diagram, read as the
candidates the symbolic engine may try.

The closure only ever derives a fact that is true in the diagram (and the
soundness audit re-checks every fact in an independently seeded one). So the
diagram also tells the rule matcher where to look: instead of joining
symbolic tables, it enumerates the *numerically true* instances of a premise
or conclusion (points on a numeric line, segments of equal length, line
pairs at equal angles, ...), a small superset of what can be proved, and
then asks the symbolic store to prove each premise.

Every structure is computed once per problem from the coordinates; truth
itself is always decided by the realizer's checks (:data:`CHECKS`) with its
tolerances, so the closure and the audit agree on what "numerically true"
means.

Cost and memory. The pair tables (lengths, directions, the line and length
class of every pair) take O(n²) time and memory; finding the lines and the
circles is O(n² log n) and O(n³) floating-point work, done in numpy to
select *candidates* (a superset, with a tolerance ten times or more looser
than the checks), each candidate then decided by the same check as before,
so the structures are those of a plain triple loop, in the same order. The
builders honour the problem's :class:`~geodsl.budget.Clock` (stage
``"numeric model"``). Memory is bounded by refusing a model of more than
:data:`MAX_POINTS` points (``BudgetExceeded("numeric model", "memory")``):
at 1,000 points the model takes about 0.5 GB. The triangle-shape table of
the similarity enumerators is O(n³): beyond :data:`MAX_SHAPE_POINTS`
points the matcher checks similarities instead of enumerating them.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from .._match import CHECKS as MATCH_CHECKS, MAX_SHAPE_POINTS, Diagram  # noqa: F401
from ..budget import BudgetExceeded, Clock
from ..lang.constants import Constant
from ..lang.definitions import rulebase
from ..realizer import checks as _checks
from ..realizer.checks import CHECKS, constant_value
from ..realizer.loci import dot
from ..realizer.tolerance import TOLERANCE, Tolerance, figure_scale

Args = tuple[int | Constant, ...]

MAX_POINTS = 1000
"""The largest model built: its O(n²) tables take about 0.5 GB at this size."""
MAX_MEMO = 500_000
"""Numeric verdicts kept in :attr:`NumericModel.memo` (about 0.1 GB); past
it, verdicts are recomputed (the same verdicts, more time)."""
SMALL = 40
"""Up to this many points the candidate filters are skipped (every k is a
candidate): numpy's per-call cost exceeds the loop it would save."""
LOOSE = 16.0
"""How much looser than the checks the numpy candidate filters are."""


class NumericModel:
    """Coordinates by interned point id, the truth of predicates on them
    (memoized), and the numeric structures the matcher enumerates.

    :attr:`diagram` (``_match.Diagram``) holds flat copies of the pair
    tables and structures, built once here, for the compiled checks and the
    rule matcher's compiled enumerators (which also group triangles by
    shape, on first use)."""

    def __init__(self, coords: Sequence[complex], tol: Tolerance = TOLERANCE,
                 others: Sequence[Sequence[complex]] = (), clock: Clock | None = None) -> None:
        if len(coords) > MAX_POINTS:
            raise BudgetExceeded("numeric model", "memory")
        self.clock = clock
        self.coords = list(coords)
        self.others = [list(o) for o in others]
        """Coordinates of further independent diagrams of the same problem
        (see :meth:`holds_everywhere`)."""
        self.n = len(self.coords)
        self.tol = tol
        self.scale = figure_scale(self.coords)
        self.eps = tol.length_at(self.scale)
        self.memo: dict[tuple[str, Args], bool] = {}
        """(name, args) -> numeric truth, filled by :meth:`holds`."""
        self._tick()
        self._build_pairs()
        self._tick()
        self._build_lines()
        self._build_directions()
        self._build_lengths()
        self._tick()
        self._build_circles()
        self._tick()
        self._build_midpoints()
        self._tick()
        self.diagram.index(self)

    def _tick(self) -> None:
        if self.clock is not None:
            self.clock.check("numeric model")

    # ------------------------------------------------------------ truth

    def holds(self, name: str, args: Args) -> bool:
        """Numeric truth of ``name args`` (points as ids, constants as Constant)."""
        key = (name, args)
        found = self.memo.get(key)
        if found is None:
            fast = self._fast.get(name)
            if fast is not None and len(args) == fast[1]:
                try:
                    found = fast[0](*args)
                except TypeError:  # a constant where a point was expected
                    found = None
                if found is not None:
                    if len(self.memo) < MAX_MEMO:
                        self.memo[key] = found
                    return found
            values = [self.coords[a] if isinstance(a, int) else constant_value(a) for a in args]
            found = bool(CHECKS[name](values, self.tol, self.scale))
            if len(self.memo) < MAX_MEMO:
                self.memo[key] = found
        return found

    # ------------------------------------------------------------ fast truth

    def _build_pairs(self) -> None:
        """Per ordered point pair, the two quantities the hot checks start
        from, computed once with the realizer's own expressions: the length
        ``abs(b - a)`` and the unit direction ``checks._direction(a, b)``.

        The fast checks are the realizer's checks (:data:`CHECKS`) of the
        predicates in ``_match.CHECKS`` (``cong``, ``eqratio``, ``para``,
        ``perp``, ``eqangle``, ``coll``, ``ncoll``, the triangle and side
        conditions), compiled (``_match.Diagram``, where the rule matcher
        calls them without a Python call) with these two
        sub-expressions looked up instead of recomputed: the same
        floating-point operations on the same operands in the same order,
        hence the same verdicts bit for bit (an argument that is not a point
        id falls back to the realizer's check). Any other predicate over
        points calls the realizer's check directly, and the rest go through
        :data:`CHECKS`."""
        pts, tol, scale = self.coords, self.tol, self.scale
        direction = _checks._direction
        self._len = [[abs(b - a) for b in pts] for a in pts]
        self._dir = [[direction(a, b, tol, scale) for b in pts] for a in pts]
        # The compiled checks read these tables (and the structures below,
        # once built: Diagram.index).
        self.diagram = Diagram(self)
        fast: dict[str, tuple[Callable[..., bool], int]] = {
            name: (partial(self.diagram.holds, name), arity) for name, (_, arity) in MATCH_CHECKS.items()}
        self.fast_checks = self._fast = fast
        # Every other predicate over points only: the realizer's check itself,
        # called on the coordinates without the generic lookup of holds().
        for name, pdef in rulebase().predicates.items():
            if name not in self._fast and name in CHECKS and all(k == "point" for k in pdef.kinds):
                self._fast[name] = (_direct(CHECKS[name], pts, tol, scale), pdef.arity)

    def holds_everywhere(self, name: str, args: Args) -> bool:
        """True in this diagram and in every one of :attr:`others`.

        For conclusions the diagram selects rather than proves (a halved
        angle: which of two bisectors), several independent diagrams must
        agree, so a choice that depends on the configuration is refused."""
        if not self.holds(name, args):
            return False
        for coords in self.others:
            scale = figure_scale(coords)
            values = [coords[a] if isinstance(a, int) else constant_value(a) for a in args]
            if not CHECKS[name](values, self.tol, scale):
                return False
        return True

    def sense_everywhere(self, first: tuple[int, int], second: tuple[int, int]) -> int:
        """+1 if the vectors of two pairs of collinear points point the same
        way in this diagram and in every one of :attr:`others`, −1 if
        opposite in all of them, 0 if the diagrams disagree (or a pair is
        numerically one point): the order of points on a line is read from
        the figure, so every figure must show it."""
        found = 0
        for coords in [self.coords] + self.others:
            u = coords[first[1]] - coords[first[0]]
            v = coords[second[1]] - coords[second[0]]
            size = abs(u) * abs(v)
            if size <= self.eps * self.eps:
                return 0
            sense = 1 if dot(u, v) > 0 else -1
            if found and sense != found:
                return 0
            found = sense
        return found

    def point_at(self, z: complex) -> int | None:
        """The point at ``z`` (within the length tolerance), if any."""
        for i, p in enumerate(self.coords):
            if abs(p - z) <= self.eps * 10:
                return i
        return None

    # ------------------------------------------------------------ lines

    def _build_lines(self) -> None:
        """Maximal sets of collinear points (every pair of points is on
        exactly one; two-point lines included): for each pair i < j not on
        a line yet, i, j and every k with ``coll i j k``, as a triple loop
        would find them; the k tried are those the angular filter
        (:meth:`_collinear_candidates`) leaves."""
        n = self.n
        self.line_of: dict[tuple[int, int], int] = {}
        self.lines: list[tuple[int, ...]] = []
        holds = self.diagram.holds
        for i in range(n):
            self._tick()
            near = self._collinear_candidates(i)
            for j in range(i + 1, n):
                if (i, j) in self.line_of:
                    continue
                members = tuple(sorted([i, j] + [k for k in near.get(j, ())
                                                  if holds("coll", i, j, k)]))
                index = len(self.lines)
                self.lines.append(members)
                for a in range(len(members)):
                    for b in range(a + 1, len(members)):
                        self.line_of.setdefault((members[a], members[b]), index)
        self.lines_through: list[list[int]] = [[] for _ in range(n)]
        for index, members in enumerate(self.lines):
            for p in members:
                self.lines_through[p].append(index)

    def _min_distance(self) -> float:
        """The smallest distance between two points (0 for coincident ones)."""
        cached = getattr(self, "_dmin", None)
        if cached is None:
            z = np.asarray(self.coords, dtype=np.complex128)
            cached = math.inf
            for i in range(self.n - 1):
                cached = min(cached, float(np.abs(z[i + 1:] - z[i]).min()))
            self._dmin = cached
        return cached

    def _collinear_candidates(self, i: int) -> dict[int, list[int]]:
        """For each j > i, the k ∉ {i, j} that may satisfy ``coll i j k``.

        If coll i j k holds, the three points are within eps of one line,
        so the directions i→j and i→k differ (mod π) by at most
        2 eps/|ij| + 2 eps/|ik| (each side's distance to that line over its
        length): the points k whose direction from i is that close to j's
        (with a margin, :data:`LOOSE`) are a superset of the answer. Since
        that bound is at most twice the larger of the two shares, each point
        searches the sorted directions within twice its own share, and each
        pair found is held to its exact bound. Only j with some candidate
        are listed."""
        n = self.n
        if i >= n - 2:
            return {}
        if n <= SMALL:
            return {j: [k for k in range(n) if k != i and k != j] for j in range(i + 1, n)}
        z = np.asarray(self.coords, dtype=np.complex128)
        others = np.array([k for k in range(n) if k != i], dtype=np.int64)
        v = z[others] - z[i]
        dist = np.abs(v)
        out: dict[int, list[int]] = {}
        nearest = float(dist.min())
        if nearest <= 0:  # a point on i: every direction is possible
            for j in range(i + 1, n):
                out[j] = [k for k in range(n) if k != i and k != j]
            return out
        slack = LOOSE * 2 * self.eps / dist          # per point: its share of the bound
        # slack_j + slack_k <= 2 max(slack_j, slack_k): every candidate pair
        # lies within the window of one of its two points, 2 slack wide.
        width = 2 * slack
        theta = np.mod(np.arctan2(v.imag, v.real), math.pi)
        order = np.argsort(theta, kind="stable")
        sorted_theta = theta[order]
        ext = np.concatenate([sorted_theta - math.pi, sorted_theta, sorted_theta + math.pi])
        ext_pos = np.concatenate([order] * 3)       # positions in `others`
        lo = np.searchsorted(ext, theta - width, side="left")
        hi = np.searchsorted(ext, theta + width, side="right")
        wide = width >= math.pi / 2
        found: dict[int, set[int]] = {}
        for pos in np.flatnonzero((hi - lo > 1) | wide).tolist():
            window = ext_pos[lo[pos]:hi[pos]] if not wide[pos] else np.arange(len(others))
            window = window[window != pos]
            gap = np.abs(theta[window] - theta[pos])
            gap = np.minimum(gap, math.pi - gap)
            for other in window[gap <= slack[pos] + slack[window]].tolist():
                found.setdefault(pos, set()).add(other)
                found.setdefault(other, set()).add(pos)
        for pos, near in found.items():
            j = int(others[pos])
            if j > i:
                out[j] = sorted(int(others[k]) for k in near)
        return out
        theta = np.mod(np.arctan2(v.imag, v.real), math.pi)
        order = np.argsort(theta, kind="stable")
        sorted_theta = theta[order]
        ext = np.concatenate([sorted_theta - math.pi, sorted_theta, sorted_theta + math.pi])
        ext_ids = np.concatenate([others[order]] * 3)
        lo = np.searchsorted(ext, theta - width, side="left")
        hi = np.searchsorted(ext, theta + width, side="right")
        for pos in np.flatnonzero(hi - lo > 1):
            j = int(others[pos])
            if j > i:
                window = ext_ids[lo[pos]:hi[pos]]
                out[j] = sorted(window[window != j].tolist())
        return out

    def line(self, a: int, b: int) -> int:
        return self.line_of[(a, b) if a < b else (b, a)]

    def _build_directions(self) -> None:
        """Lines grouped by direction mod π; classes sorted by angle in [0, π)."""
        angles = []
        for index, members in enumerate(self.lines):
            v = self.coords[members[-1]] - self.coords[members[0]]
            angles.append((math.atan2(v.imag, v.real) % math.pi, index))
        angles.sort()
        tol = self.tol.angle * 4
        classes: list[list[int]] = []
        values: list[float] = []
        for theta, index in angles:
            if classes and theta - values[-1] <= tol:
                classes[-1].append(index)
            else:
                classes.append([index])
                values.append(theta)
        # Wrap-around: a class near π is the class near 0.
        if len(classes) > 1 and values[0] + math.pi - values[-1] <= tol:
            classes[0].extend(classes.pop())
            values.pop()
        self.dir_values = values
        self.dir_classes = [sorted(c) for c in classes]
        self.dir_of = [0] * len(self.lines)
        for ci, c in enumerate(self.dir_classes):
            for index in c:
                self.dir_of[index] = ci

    def dir_class_at(self, theta: float) -> int | None:
        """The direction class at angle ``theta`` (mod π), if any."""
        t = theta % math.pi
        vals = self.dir_values
        tol = self.tol.angle * 8
        k = bisect.bisect_left(vals, t - tol)
        for idx in (k, k + 1, 0, len(vals) - 1):
            if 0 <= idx < len(vals):
                d = abs(vals[idx] - t)
                if min(d, math.pi - d) <= tol:
                    return idx
        return None

    def direction(self, a: int, b: int) -> float:
        return self.dir_values[self.dir_of[self.line(a, b)]]

    # ------------------------------------------------------------ lengths

    def _build_lengths(self) -> None:
        """Segments grouped by length; classes sorted by length."""
        segs = sorted((abs(self.coords[j] - self.coords[i]), i, j)
                      for i in range(self.n) for j in range(i + 1, self.n))
        classes: list[list[tuple[int, int]]] = []
        values: list[float] = []
        for length, i, j in segs:
            if classes and length - values[-1] <= self.eps:
                classes[-1].append((i, j))
            else:
                classes.append([(i, j)])
                values.append(length)
        self.len_values = values
        self.len_classes = classes
        self.len_of: dict[tuple[int, int], int] = {}
        for ci, c in enumerate(classes):
            for s in c:
                self.len_of[s] = ci

    def length_class(self, a: int, b: int) -> int:
        return self.len_of[(a, b) if a < b else (b, a)]

    def length_class_at(self, value: float) -> int | None:
        vals = self.len_values
        k = bisect.bisect_left(vals, value - 2 * self.eps)
        for idx in (k, k + 1):
            if 0 <= idx < len(vals) and abs(vals[idx] - value) <= 2 * self.eps:
                return idx
        return None

    # ------------------------------------------------------------ circles

    def _build_circles(self) -> None:
        """Maximal sets of ≥ 4 concyclic points, and for each point the
        other points grouped by their distance from it (circles by centre).

        For each pair i < j, the centres of the circles through i, j lie on
        the bisector of ij: each third point k > j gives a parameter t along
        it, and points whose t agree (within 1e-6 (1 + |t|)) are on one
        circle. numpy computes every t of one i at once and keeps the k that
        have another k within a looser window (:meth:`_circle_candidates`);
        the grouping itself runs on those, with the exact expressions."""
        n = self.n
        pts = self.coords
        found: list[tuple[int, ...]] = []
        for i in range(n):
            self._tick()
            for j, ks in self._circle_candidates(i):
                found.extend(self.circles_through(i, j, ks))
        self.circles = found
        self.circles.sort()
        self.centred: list[list[tuple[int, ...]]] = []
        for o in range(n):
            groups: dict[int, list[int]] = {}
            for p in range(n):
                if p != o:
                    groups.setdefault(self.length_class(o, p), []).append(p)
            self.centred.append([tuple(g) for _, g in sorted(groups.items()) if len(g) >= 2])

    def circles_through(self, i: int, j: int, ks: Sequence[int]) -> list[tuple[int, ...]]:
        """The maximal sets of ≥ 4 concyclic points whose first two points
        are i < j, among i, j and the third points ``ks`` (all > j).

        Centres of the circles through i, j lie on the bisector of ij: each k
        gives a parameter t along it, and points whose t agree (within
        1e-6 (1 + |t|)) are on one circle, confirmed by the ``cyclic`` check."""
        pts = self.coords
        mid, normal = (pts[i] + pts[j]) / 2, (pts[j] - pts[i]) * 1j
        group: list[tuple[float, int]] = []
        for k in ks:
            centre = _circumcentre(pts[i], pts[j], pts[k])
            if centre is not None:
                off = centre - mid
                group.append(((off.real * normal.real + off.imag * normal.imag) / abs(normal) ** 2, k))
        group.sort()
        out: list[tuple[int, ...]] = []
        start = 0
        while start < len(group):
            end = start + 1
            while end < len(group) and group[end][0] - group[start][0] <= 1e-6 * (1 + abs(group[start][0])):
                end += 1
            if end - start >= 2:
                members = tuple(sorted([i, j] + [k for _, k in group[start:end]]))
                # Maximal exactly when i and j are its first two points.
                if members[:2] == (i, j) and all(self.holds("cyclic", members[:3] + (m,)) for m in members[3:]):
                    out.append(members)
            start = end
        return out

    def _circle_candidates(self, i: int) -> list[tuple[int, list[int]]]:
        """For each j > i, the k > j whose parameter t (see
        :meth:`_build_circles`) has another k's within LOOSE times the
        grouping window: the others are alone on their circle through i, j
        and can neither form a group nor end one, so dropping them leaves
        every group as it was. Degenerate triples are kept (the exact
        computation decides)."""
        n = self.n
        if n - i < 4:
            return []
        if n <= SMALL:
            return [(j, list(range(j + 1, n))) for j in range(i + 1, n - 1)]
        z = np.asarray(self.coords, dtype=np.complex128)
        a = z[i]
        b = z[i + 1:, None]                     # j, as a column
        c = z[None, i + 1:]                     # k, as a row
        ab, ac = b - a, c - a
        den = 2 * (ab.real * ac.imag - ab.imag * ac.real)
        nab, nac = np.abs(ab) ** 2, np.abs(ac) ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            centre = a + ((ac.imag * nab - ab.imag * nac) / den + 1j * (ab.real * nac - ac.real * nab) / den)
            off = centre - (a + b) / 2
            normal = (b - a) * 1j
            t = (off.real * normal.real + off.imag * normal.imag) / np.abs(normal) ** 2
        m = n - i - 1
        upper = np.triu(np.ones((m, m), dtype=bool), 1)   # k > j
        t = np.where(upper & np.isfinite(t), t, np.inf)
        order = np.argsort(t, axis=1, kind="stable")
        st = np.take_along_axis(t, order, axis=1)
        window = LOOSE * 1e-6 * (1 + np.abs(st))
        with np.errstate(invalid="ignore"):  # inf - inf past the last finite t of a row
            gap = np.diff(st, axis=1)
        close = np.zeros_like(st, dtype=bool)
        close[:, 1:] |= gap <= window[:, :-1]
        close[:, :-1] |= gap <= window[:, :-1]
        close &= np.isfinite(st)
        degenerate = upper & ~np.isfinite(np.where(upper, t, 0.0))
        out = []
        for row in np.flatnonzero(close.any(axis=1) | degenerate.any(axis=1)):
            ks = set((order[row][close[row]] + i + 1).tolist())
            ks.update((np.flatnonzero(degenerate[row]) + i + 1).tolist())
            out.append((int(row) + i + 1, sorted(ks)))
        return out

    def _build_midpoints(self) -> None:
        """For each pair, the point at its midpoint (:meth:`point_at`),
        looked up in a grid of cells of the lookup's radius instead of a
        scan of every point."""
        self.midpoint: dict[tuple[int, int], int] = {}
        radius = self.eps * 10
        if radius <= 0:
            return
        cells: dict[tuple[int, int], list[int]] = {}
        for index, p in enumerate(self.coords):
            cells.setdefault((math.floor(p.real / radius), math.floor(p.imag / radius)), []).append(index)
        for i in range(self.n):
            self._tick()
            for j in range(i + 1, self.n):
                z = (self.coords[i] + self.coords[j]) / 2
                cx, cy = math.floor(z.real / radius), math.floor(z.imag / radius)
                m = None
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        for index in cells.get((cx + dx, cy + dy), ()):
                            if (m is None or index < m) and abs(self.coords[index] - z) <= radius:
                                m = index
                if m is not None and m not in (i, j):
                    self.midpoint[(i, j)] = m


def _direct(check: Callable[[Sequence[complex | float], Tolerance, float], bool], pts: list[complex],
            tol: Tolerance, scale: float) -> Callable[..., bool]:
    """A realizer check as a function of point ids (see ``_build_pairs``)."""
    def holds(*ids: int) -> bool:
        return bool(check([pts[i] for i in ids], tol, scale))
    return holds


def _circumcentre(a: complex, b: complex, c: complex) -> complex | None:
    ab, ac = b - a, c - a
    den = 2 * (ab.real * ac.imag - ab.imag * ac.real)
    if abs(den) <= 1e-12 * (abs(ab) * abs(ac) + 1e-300):
        return None
    nab, nac = abs(ab) ** 2, abs(ac) ** 2
    return a + complex((ac.imag * nab - ab.imag * nac) / den, (ab.real * nac - ac.real * nab) / den)
