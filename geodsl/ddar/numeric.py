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
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from functools import partial

from .._match import CHECKS as MATCH_CHECKS, Diagram
from ..lang.definitions import rulebase
from ..realizer import checks as _checks
from ..realizer.checks import CHECKS, constant_value
from ..realizer.loci import dot
from ..realizer.tolerance import TOLERANCE, Tolerance, figure_scale

Args = tuple[object, ...]


class NumericModel:
    """Coordinates by interned point id, the truth of predicates on them
    (memoized), and the numeric structures the matcher enumerates.

    :attr:`diagram` (``_match.Diagram``) holds flat copies of the pair
    tables and structures, built once here, for the compiled checks and the
    rule matcher's compiled enumerators (which also group triangles by
    shape, on first use)."""

    def __init__(self, coords: Sequence[complex], tol: Tolerance = TOLERANCE,
                 others: Sequence[Sequence[complex]] = ()) -> None:
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
        self._build_pairs()
        self._build_lines()
        self._build_directions()
        self._build_lengths()
        self._build_circles()
        self._build_midpoints()
        self.diagram.index(self)

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
                    self.memo[key] = found
                    return found
            values = [self.coords[a] if isinstance(a, int) else constant_value(a)  # type: ignore[arg-type]
                      for a in args]
            found = bool(CHECKS[name](values, self.tol, self.scale))
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
        self.fast_checks = self._fast = {
            name: (partial(self.diagram.holds, name), arity) for name, (_, arity) in MATCH_CHECKS.items()}
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
            values = [coords[a] if isinstance(a, int) else constant_value(a)  # type: ignore[arg-type]
                      for a in args]
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
        exactly one; two-point lines included)."""
        n = self.n
        self.line_of: dict[tuple[int, int], int] = {}
        self.lines: list[tuple[int, ...]] = []
        for i in range(n):
            for j in range(i + 1, n):
                if (i, j) in self.line_of:
                    continue
                members = tuple(sorted([i, j] + [k for k in range(n) if k != i and k != j
                                                  and self.holds("coll", (i, j, k))]))
                index = len(self.lines)
                self.lines.append(members)
                for a in range(len(members)):
                    for b in range(a + 1, len(members)):
                        self.line_of.setdefault((members[a], members[b]), index)
        self.lines_through: list[list[int]] = [[] for _ in range(n)]
        for index, members in enumerate(self.lines):
            for p in members:
                self.lines_through[p].append(index)

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
        other points grouped by their distance from it (circles by centre)."""
        n = self.n
        pts = self.coords
        found: list[tuple[int, ...]] = []
        for i in range(n):
            for j in range(i + 1, n):
                # Centres of the circles through i, j lie on the bisector of ij:
                # parametrize them by t and group the third points by t.
                mid, normal = (pts[i] + pts[j]) / 2, (pts[j] - pts[i]) * 1j
                group: list[tuple[float, int]] = []
                for k in range(j + 1, n):
                    centre = _circumcentre(pts[i], pts[j], pts[k])
                    if centre is not None:
                        off = centre - mid
                        t = (off.real * normal.real + off.imag * normal.imag) / abs(normal) ** 2
                        group.append((t, k))
                group.sort()
                start = 0
                while start < len(group):
                    end = start + 1
                    while end < len(group) and group[end][0] - group[start][0] <= 1e-6 * (1 + abs(group[start][0])):
                        end += 1
                    if end - start >= 2:
                        members = tuple(sorted([i, j] + [k for _, k in group[start:end]]))
                        # Maximal exactly when i and j are its first two points.
                        if members[:2] == (i, j) and all(
                                self.holds("cyclic", members[:3] + (m,)) for m in members[3:]):
                            found.append(members)
                    start = end
        self.circles = found
        self.circles.sort()
        self.centred: list[list[tuple[int, ...]]] = []
        for o in range(n):
            groups: dict[int, list[int]] = {}
            for p in range(n):
                if p != o:
                    groups.setdefault(self.length_class(o, p), []).append(p)
            self.centred.append([tuple(g) for _, g in sorted(groups.items()) if len(g) >= 2])

    def _build_midpoints(self) -> None:
        self.midpoint: dict[tuple[int, int], int] = {}
        for i in range(self.n):
            for j in range(i + 1, self.n):
                m = self.point_at((self.coords[i] + self.coords[j]) / 2)
                if m is not None and m not in (i, j):
                    self.midpoint[(i, j)] = m


def _direct(check, pts: list[complex], tol: Tolerance, scale: float):  # type: ignore[no-untyped-def]
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
