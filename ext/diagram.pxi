# The numeric diagram of the closure's rule matcher, compiled: flat copies of
# geodsl.ddar.numeric.NumericModel's structures, the hot numeric checks and
# the enumerators of true instances. Textually included by match.pyx (one
# extension module, so the search loop calls these at C level); kept in its
# own file because it is a concern of its own.

# ---------------------------------------------------------------- the diagram

# Enumerators: which structures list the true instances of a constraint.
cdef enum:
    E_NONE = 0
    E_COLL = 1
    E_CYCLIC = 2
    E_MIDP = 3
    E_CIRCLE = 4
    E_PARA = 5
    E_PERP = 6
    E_CONG = 7
    E_EQANGLE = 8
    E_EQRATIO = 9
    E_SIMTRI = 10
    E_SIMTRIR = 11
    E_CONTRI = 12
    E_CONTRIR = 13

ENUMERATORS = {"coll": E_COLL, "cyclic": E_CYCLIC, "midp": E_MIDP, "circle": E_CIRCLE,
               "para": E_PARA, "perp": E_PERP, "cong": E_CONG, "eqangle": E_EQANGLE,
               "eqratio": E_EQRATIO, "simtri": E_SIMTRI, "simtrir": E_SIMTRIR,
               "contri": E_CONTRI, "contrir": E_CONTRIR}
"""Predicate name -> its enumerator in :class:`Diagram`; others cannot be enumerated."""

# Checks done here, on point ids, without a Python call.
cdef enum:
    C_NONE = 0
    C_CONG = 1
    C_EQRATIO = 2
    C_PARA = 3
    C_PERP = 4
    C_EQANGLE = 5
    C_COLL = 6
    C_NCOLL = 7
    C_SAMECLOCK = 8
    C_SAMESIDE = 9
    C_SIMTRI = 10
    C_SIMTRIR = 11
    C_CONTRI = 12
    C_CONTRIR = 13
    C_CYCLIC = 14

CHECKS = {"cong": (C_CONG, 4), "eqratio": (C_EQRATIO, 8), "para": (C_PARA, 4), "perp": (C_PERP, 4),
          "eqangle": (C_EQANGLE, 8), "coll": (C_COLL, 3), "ncoll": (C_NCOLL, 3),
          "sameclock": (C_SAMECLOCK, 6), "sameside": (C_SAMESIDE, 6), "simtri": (C_SIMTRI, 6),
          "simtrir": (C_SIMTRIR, 6), "contri": (C_CONTRI, 6), "contrir": (C_CONTRIR, 6),
          "cyclic": (C_CYCLIC, 4)}
"""Predicate name -> (its compiled check, arity)."""

cdef double PI = 3.141592653589793  # math.pi

MAX_ENUMERATED = 1_000_000
"""The most instances one enumeration may list (a list of tuples of about
0.1 GB): past it, ``BudgetExceeded("matching", "memory")``."""

MAX_CACHED = 1_000_000
"""The most instances the search keeps memoized over all enumerations of one
problem (about 0.1 GB); past it, enumerations are recomputed."""

MAX_SHAPE_POINTS = 80
"""The largest figure whose ordered triangles are grouped by shape (n³
triangles and up to as many grid cells: about 0.1 GB at this size). The
matcher does not ask for shapes beyond it (``Matcher._cost``)."""


cdef inline double _py_mod(double x, double m):
    """Python's float ``x % m`` (the sign of the divisor), bit for bit."""
    cdef double r = fmod(x, m)
    if r != 0.0:
        if (m < 0) != (r < 0):
            r += m
    else:
        r = copysign(0.0, m)
    return r


cdef inline int _bisect_left(double[::1] a, double x):
    cdef int lo = 0, hi = a.shape[0], mid
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef tuple _csr(list groups):
    """Groups of ints as (start, items): group i is items[start[i]:start[i + 1]]."""
    start = array.array("i", [0])
    items = array.array("i")
    for g in groups:
        items.extend(g)
        start.append(len(items))
    return start, items


cdef class Diagram:
    """A :class:`~geodsl.ddar.numeric.NumericModel` as flat C arrays, built
    once per problem, and the enumerators and hot checks that read them.

    Enumerating the true instances of ``para``, ``cong``, ``eqangle``, ...
    walks lines, direction classes and length classes point by point and
    builds one tuple per instance; checking a candidate is a handful of
    float operations. In Python both were mostly interpreter overhead.

    Every structure is copied from the model, and the checks use the
    model's own per-pair lengths and unit directions
    (``NumericModel._build_pairs``) with the realizer's expressions in the
    realizer's order, so the verdicts are the same bit for bit."""

    cdef readonly int n
    cdef int nlines
    cdef double eps, eps2, eps_pow2, length_tol, angle, dir_tol
    cdef double[::1] X, Y, L, Dx, Dy, dir_values, len_values
    cdef signed char[::1] Dok
    cdef int[::1] line_of, line_start, line_pts, thr_start, thr, dir_of, dirc_start, dirc
    cdef int[::1] len_of, lenc_start, lenc
    cdef list lines, coll_lines, circles, centred, mids
    cdef int shapes_built, nshapes
    cdef int[::1] shape_of, shape_start, shape_tri, mirror
    cdef array.array shape_reps_x, shape_reps_y
    cdef dict shape_cells
    cdef dict similar_pairs
    cdef public double deadline
    cdef long work
    cdef public long cached

    def __init__(self, model):
        """The pair tables of ``model``: coordinates, lengths, directions."""
        cdef int n = model.n
        self.n = n
        self.eps = model.eps
        self.eps2 = model.eps * model.eps
        self.eps_pow2 = model.eps ** 2  # as checks.sameclock squares it (pow, not x * x)
        self.length_tol = model.tol.length
        self.angle = model.tol.angle
        self.dir_tol = model.tol.angle * 8
        self.X = array.array("d", [z.real for z in model.coords])
        self.Y = array.array("d", [z.imag for z in model.coords])
        self.L = array.array("d", [x for row in model._len for x in row])
        dirs = [u for row in model._dir for u in row]
        self.Dx = array.array("d", [0.0 if u is None else u.real for u in dirs])
        self.Dy = array.array("d", [0.0 if u is None else u.imag for u in dirs])
        self.Dok = array.array("b", [u is not None for u in dirs])
        self.shapes_built = 0
        self.similar_pairs = {}
        self.deadline = INFINITY
        self.work = 0
        self.cached = 0

    def index(self, model):
        """Copy the model's lines, directions, lengths, circles and
        midpoints (built after the pair tables: building them checks
        collinearities here)."""
        cdef int n = self.n, a, b, i
        line_of = array.array("i", [-1]) * (n * n)
        for (a, b), i in model.line_of.items():
            line_of[a * n + b] = line_of[b * n + a] = i
        self.line_of = line_of
        self.nlines = len(model.lines)
        self.line_start, self.line_pts = _csr(model.lines)
        self.thr_start, self.thr = _csr(model.lines_through)
        self.dir_of = array.array("i", model.dir_of)
        self.dir_values = array.array("d", model.dir_values)
        self.dirc_start, self.dirc = _csr(model.dir_classes)
        len_of = array.array("i", [-1]) * (n * n)
        for (a, b), i in model.len_of.items():
            len_of[a * n + b] = len_of[b * n + a] = i
        self.len_of = len_of
        self.len_values = array.array("d", model.len_values)
        self.lenc_start, self.lenc = _csr([[p for s in c for p in s] for c in model.len_classes])
        self.lines = list(model.lines)
        self.coll_lines = [ln for ln in model.lines if len(ln) >= 3]
        self.circles = list(model.circles)
        self.centred = [[g for g in groups if len(g) >= 3] for groups in model.centred]
        mids = []
        for (a, b), i in sorted(model.midpoint.items()):
            mids += [(i, a, b), (i, b, a)]
        self.mids = mids

    # ------------------------------------------------------------ budget

    cdef inline int _grew(self, list out) except -1:
        """Called as an enumeration grows: every 4096 calls, the time budget
        (``deadline``, set by the search); always, the size cap."""
        self.work += 1
        if (self.work & 4095) == 0 and time.monotonic() > self.deadline:
            raise BudgetExceeded("matching", "time")
        if len(out) > MAX_ENUMERATED:
            raise BudgetExceeded("matching", "memory")
        return 0

    # ------------------------------------------------------------ lookups

    cdef inline int _line(self, int a, int b):
        return self.line_of[a * self.n + b]

    cdef inline double _direction(self, int a, int b):
        return self.dir_values[self.dir_of[self.line_of[a * self.n + b]]]

    cdef double _log_length(self, int a, int b) except? -1.0:
        cdef double x = self.L[a * self.n + b]
        if x <= 0.0:
            raise ValueError("math domain error")  # as math.log
        return log(x)

    cdef int _dir_class_at(self, double theta):
        """NumericModel.dir_class_at (-1 for None)."""
        cdef double t = _py_mod(theta, PI), tol = self.dir_tol, d
        cdef int nv = self.dir_values.shape[0], k, j, idx
        cdef int order[4]
        k = _bisect_left(self.dir_values, t - tol)
        order[0], order[1], order[2], order[3] = k, k + 1, 0, nv - 1
        for j in range(4):
            idx = order[j]
            if 0 <= idx < nv:
                d = fabs(self.dir_values[idx] - t)
                if (d if d <= PI - d else PI - d) <= tol:
                    return idx
        return -1

    cdef int _length_class_at(self, double value):
        """NumericModel.length_class_at (-1 for None)."""
        cdef int nv = self.len_values.shape[0], idx
        cdef int k = _bisect_left(self.len_values, value - 2 * self.eps)
        for idx in range(k, k + 2):
            if 0 <= idx < nv and fabs(self.len_values[idx] - value) <= 2 * self.eps:
                return idx
        return -1

    # ------------------------------------------------------------ checks

    cdef int check(self, int kind, int* v):
        """Numeric truth of a compiled check (:data:`CHECKS`) on point ids."""
        cdef int n = self.n, ab, cd, ef, gh
        cdef double x, y, t1r, t1i, t2r, t2i
        if kind == C_CONG:
            return fabs(self.L[v[0] * n + v[1]] - self.L[v[2] * n + v[3]]) <= self.eps
        if kind == C_EQRATIO:  # checks._same_ratio
            x = self.L[v[0] * n + v[1]] * self.L[v[6] * n + v[7]]
            y = self.L[v[2] * n + v[3]] * self.L[v[4] * n + v[5]]
            return fabs(x - y) <= self.length_tol * _max(fabs(x), fabs(y)) + self.eps2
        if kind == C_COLL:
            return self._collinear(v[0], v[1], v[2])
        if kind == C_NCOLL:
            return not self._collinear(v[0], v[1], v[2])
        if kind == C_SAMECLOCK or kind == C_SAMESIDE:
            return self._same_sign(v, kind == C_SAMECLOCK)
        if kind == C_CYCLIC:
            return self._cyclic(v)
        if kind >= C_SIMTRI and kind <= C_CONTRIR:
            return self._similar_check(v, kind == C_SIMTRIR or kind == C_CONTRIR,
                                       kind == C_CONTRI or kind == C_CONTRIR)
        ab, cd = v[0] * n + v[1], v[2] * n + v[3]
        if not (self.Dok[ab] and self.Dok[cd]):
            return 0
        if kind == C_PARA:  # cross(u, v)
            return fabs(self.Dx[ab] * self.Dy[cd] - self.Dy[ab] * self.Dx[cd]) <= self.angle
        if kind == C_PERP:  # dot(u, v)
            return fabs(self.Dx[ab] * self.Dx[cd] + self.Dy[ab] * self.Dy[cd]) <= self.angle
        if kind == C_EQANGLE:
            ef, gh = v[4] * n + v[5], v[6] * n + v[7]
            if not (self.Dok[ef] and self.Dok[gh]):
                return 0
            # t = between(u, v) = v * u.conjugate(), as Python multiplies complex numbers
            t1r = self.Dx[cd] * self.Dx[ab] - self.Dy[cd] * (-self.Dy[ab])
            t1i = self.Dx[cd] * (-self.Dy[ab]) + self.Dy[cd] * self.Dx[ab]
            t2r = self.Dx[gh] * self.Dx[ef] - self.Dy[gh] * (-self.Dy[ef])
            t2i = self.Dx[gh] * (-self.Dy[ef]) + self.Dy[gh] * self.Dx[ef]
            # real_mod_pi(t1 * t2.conjugate()): its imaginary part
            return fabs(t1r * (-t2i) + t1i * t2r) <= self.angle
        return 0

    cdef int _same_sign(self, int* v, bint clock):
        """checks.sameclock (cross products) or checks.sameside (dot products)
        of the angles b a c and q p r."""
        cdef double ux, uy, wx, wy, s1, s2
        ux, uy = self.X[v[1]] - self.X[v[0]], self.Y[v[1]] - self.Y[v[0]]
        wx, wy = self.X[v[2]] - self.X[v[0]], self.Y[v[2]] - self.Y[v[0]]
        s1 = ux * wy - uy * wx if clock else ux * wx + uy * wy
        ux, uy = self.X[v[4]] - self.X[v[3]], self.Y[v[4]] - self.Y[v[3]]
        wx, wy = self.X[v[5]] - self.X[v[3]], self.Y[v[5]] - self.Y[v[3]]
        s2 = ux * wy - uy * wx if clock else ux * wx + uy * wy
        return fabs(s1) > self.eps_pow2 and fabs(s2) > self.eps_pow2 and (s1 > 0) == (s2 > 0)

    cdef int _cyclic(self, int* v):
        """checks.cyclic on point ids: the distinct points (first
        occurrences, farther than eps from the earlier ones); with four,
        the circle through the three of largest area and the fourth's
        distance to it. The realizer's operations in its order, with
        abs(q - p) read from L (where the realizer computes it too)."""
        cdef int n = self.n, nd = 0, i, j, skip, best = 0, keep
        cdef int d[4]
        cdef int t[3]
        cdef double best_area = -1.0, area, ux, uy, wx, wy, den, nab, nac, ox, oy
        for i in range(4):
            keep = 1
            for j in range(nd):
                if not self.L[d[j] * n + v[i]] > self.eps:
                    keep = 0
                    break
            if keep:
                d[nd] = v[i]
                nd += 1
        if nd <= 2:
            return 1
        if nd == 3:
            return not self._collinear(d[0], d[1], d[2])
        for skip in range(4):
            j = 0
            for i in range(4):
                if i != skip:
                    t[j] = d[i]
                    j += 1
            ux, uy = self.X[t[1]] - self.X[t[0]], self.Y[t[1]] - self.Y[t[0]]
            wx, wy = self.X[t[2]] - self.X[t[0]], self.Y[t[2]] - self.Y[t[0]]
            area = fabs(ux * wy - uy * wx)
            if area > best_area:
                best_area, best = area, skip
        j = 0
        for i in range(4):
            if i != best:
                t[j] = d[i]
                j += 1
        if self._collinear(t[0], t[1], t[2]):
            return 0
        ux, uy = self.X[t[1]] - self.X[t[0]], self.Y[t[1]] - self.Y[t[0]]
        wx, wy = self.X[t[2]] - self.X[t[0]], self.Y[t[2]] - self.Y[t[0]]
        den = 2 * (ux * wy - uy * wx)
        nab, nac = ux * ux + uy * uy, wx * wx + wy * wy
        ox = self.X[t[0]] + (wy * nab - uy * nac) / den
        oy = self.Y[t[0]] + (ux * nac - wx * nab) / den
        return fabs(hypot(self.X[d[best]] - ox, self.Y[d[best]] - oy)
                    - hypot(self.X[t[0]] - ox, self.Y[t[0]] - oy)) <= self.eps

    cdef int _similar_check(self, int* v, bint reflected, bint congruent):
        """checks._similar: shapes (c − a)/(b − a) equal (reflected:
        conjugate) within the relative angle tolerance; sizes too when
        ``congruent``."""
        cdef int n = self.n
        cdef double lab = self.L[v[0] * n + v[1]], lpq = self.L[v[3] * n + v[4]]
        cdef double z1x, z1y, z2x, z2y, s1, s2, big
        if lab <= self.eps or lpq <= self.eps:
            return 0
        _cquot(self.X[v[2]] - self.X[v[0]], self.Y[v[2]] - self.Y[v[0]],
               self.X[v[1]] - self.X[v[0]], self.Y[v[1]] - self.Y[v[0]], &z1x, &z1y)
        _cquot(self.X[v[5]] - self.X[v[3]], self.Y[v[5]] - self.Y[v[3]],
               self.X[v[4]] - self.X[v[3]], self.Y[v[4]] - self.Y[v[3]], &z2x, &z2y)
        if reflected:
            z2y = -z2y
        s1, s2 = hypot(z1x, z1y), hypot(z2x, z2y)
        big = _max(_max(1.0, s1), s2)
        if hypot(z1x - z2x, z1y - z2y) > self.angle * big:
            return 0
        return not congruent or fabs(lab - lpq) <= self.eps

    cdef int _collinear(self, int a, int b, int c):
        """checks._collinear of three points, with abs(q - p) read from L."""
        cdef int n = self.n, i, j, p, q
        cdef int ps[3]
        cdef double best = -1.0, d, ux, uy, dx, dy
        ps[0], ps[1], ps[2] = a, b, c
        p = q = a
        for i in range(3):
            for j in range(i + 1, 3):
                d = self.L[ps[i] * n + ps[j]]
                if d > best:
                    best, p, q = d, ps[i], ps[j]
        if best <= self.eps:
            return 1
        # u = (b - a) / best, as Python divides a complex by a float
        dx, dy = self.X[q] - self.X[p], self.Y[q] - self.Y[p]
        ux = (dx + dy * 0.0) / (best + 0.0 * 0.0)
        uy = (dy - dx * 0.0) / (best + 0.0 * 0.0)
        for i in range(3):
            dx, dy = self.X[ps[i]] - self.X[p], self.Y[ps[i]] - self.Y[p]
            if not fabs(ux * dy - uy * dx) <= self.eps:
                return 0
        return 1

    def holds(self, str name, *args):
        """A compiled check (:data:`CHECKS`) on point ids, from Python; a
        TypeError for an argument that is not a point id."""
        cdef int v[MAXARGS]
        cdef int j
        kind, arity = CHECKS[name]
        if len(args) != arity:
            raise ValueError(f"`{name}` takes {arity} points")
        for j in range(arity):
            v[j] = args[j]
            if not 0 <= v[j] < self.n:
                raise IndexError(f"no point {v[j]}")
        return bool(self.check(kind, v))

    # ------------------------------------------------------------ enumerators

    def enumerate(self, str name, tuple pattern):
        """The true instances of ``name`` agreeing with ``pattern`` (a point
        per argument, None where free), in the search's order."""
        cdef int pat[MAXARGS]
        cdef int j
        for j in range(len(pattern)):
            pat[j] = -1 if pattern[j] is None else pattern[j]
        return self._enumerate(ENUMERATORS.get(name, E_NONE), pat, len(pattern))

    cdef list _enumerate(self, int kind, int* pat, int k):
        cdef list out = self._enumerate_kind(kind, pat, k)
        self._grew(out)
        return out

    cdef list _enumerate_kind(self, int kind, int* pat, int k):
        cdef int j, first, second
        cdef int ln
        if kind == E_COLL:
            first = second = -1
            for j in range(k):
                if pat[j] >= 0:
                    if first < 0:
                        first = pat[j]
                    elif second < 0 and pat[j] != first:
                        second = pat[j]
            if second >= 0:
                ln = self._line(first, second)
                if self.line_start[ln + 1] - self.line_start[ln] >= 3:
                    return _orderings([self.lines[ln]], pat, k)
                return []
            return _orderings(self.coll_lines, pat, k)
        if kind == E_CYCLIC:
            return _orderings(self.circles, pat, k)
        if kind == E_MIDP:
            return [t for t in self.mids if _agrees(pat, t, 3)]
        if kind == E_CIRCLE:
            return self._circles(pat)
        if kind == E_PARA or kind == E_PERP:
            return self._line_pairs(pat, PI / 2 if kind == E_PERP else 0.0)
        if kind == E_CONG:
            return self._segment_pairs(pat)
        if kind == E_EQANGLE or kind == E_EQRATIO:
            return self._four_slots(pat, kind == E_EQANGLE)
        if kind >= E_SIMTRI and kind <= E_CONTRIR:
            return self._similar(pat, kind == E_SIMTRIR or kind == E_CONTRIR,
                                 kind == E_CONTRI or kind == E_CONTRIR)
        return []

    cdef list _circles(self, int* pat):
        """circle o a b c: the groups of ≥ 3 points at one distance from o."""
        cdef list out = []
        cdef int o
        for o in range(self.n):
            if pat[0] >= 0 and o != pat[0]:
                continue
            head = (o,)
            out.extend([head + t for t in _orderings(self.centred[o], pat + 1, 3)])
            self._grew(out)
        return out

    cdef list _slot_lines(self, int a, int b):
        """Lines a slot (a, b) can lie on (-1: a free point)."""
        if a >= 0 and b >= 0:
            return [self._line(a, b)] if a != b else []
        if a >= 0 or b >= 0:
            p = a if a >= 0 else b
            return list(self.thr[self.thr_start[p]:self.thr_start[p + 1]])
        return list(range(self.nlines))

    cdef inline int _on_line(self, int p, int li):
        cdef int i
        for i in range(self.line_start[li], self.line_start[li + 1]):
            if self.line_pts[i] == p:
                return 1
        return 0

    cdef list _pairs_on_line(self, int li, int a, int b):
        """Ordered pairs of distinct points of line li agreeing with (a, b)."""
        cdef list out = []
        cdef int i, j, p, q, s = self.line_start[li], e = self.line_start[li + 1]
        for i in range(s, e):
            p = self.line_pts[i]
            if a >= 0 and p != a:
                continue
            for j in range(s, e):
                q = self.line_pts[j]
                if q != p and (b < 0 or q == b):
                    out.append((p, q))
        return out

    cdef list _line_pairs(self, int* pat, double turn):
        """para / perp ab cd: each line of slot ab, the lines at ``turn`` to it."""
        cdef int a = pat[0], b = pat[1], c = pat[2], d = pat[3], through, target, lj, i, k
        cdef int swap = _better_second(pat)
        cdef list out = [], others, firsts
        if swap:
            a, b, c, d = c, d, a, b
        through = c if c >= 0 else d
        for li in self._slot_lines(a, b):
            target = self._dir_class_at(self.dir_values[self.dir_of[li]] + turn)
            if target < 0:
                continue
            others = []
            for i in range(self.dirc_start[target], self.dirc_start[target + 1]):
                lj = self.dirc[i]
                if through < 0 or self._on_line(through, lj):  # else not through that point
                    others.append(lj)
            firsts = self._pairs_on_line(li, a, b)
            if not firsts:
                continue
            seconds = []
            for lj in others:
                seconds.extend(self._pairs_on_line(lj, c, d))
            for p, q in firsts:
                self._grew(out)
                for r, s in seconds:
                    out.append((r, s, p, q) if swap else (p, q, r, s))
        return out

    cdef list _segment_pairs(self, int* pat):
        """cong ab cd: each segment of slot ab, the segments of its length."""
        cdef int a = pat[0], b = pat[1], c = pat[2], d = pat[3], p, q, r, s, lc, i, j
        cdef int swap = _better_second(pat)
        cdef list out = []
        if swap:
            a, b, c, d = c, d, a, b
        for p in range(self.n):
            if a >= 0 and p != a:
                continue
            for q in range(self.n):
                if (b >= 0 and q != b) or p == q:
                    continue
                lc = self.len_of[p * self.n + q]
                for i in range(self.lenc_start[lc], self.lenc_start[lc + 1], 2):
                    for j in range(2):
                        r, s = self.lenc[i + j], self.lenc[i + 1 - j]  # (p, q) then (q, p)
                        if (c >= 0 and r != c) or (d >= 0 and s != d):
                            continue
                        if (r == p and s == q) or (r == q and s == p):
                            continue
                        out.append((r, s, p, q) if swap else (p, q, r, s))
                self._grew(out)
        return out

    cdef list _four_slots(self, int* pat, bint angles):
        """eqangle / eqratio with at least two slots bound: enumerate all but
        one free slot, compute the last one's direction (length), look it up.

        Slots are enumerated as *units* — lines for angles, segments for
        ratios — and only then expanded into point pairs, so the value of a
        unit and the lookup of the last slot are done once per unit. Sums
        are taken in the same order as ``checks`` would: slot by slot."""
        cdef int i, p, q, last = -1, nfree = 0
        cdef int free[4]
        cdef double fixed = 0.0, sign
        cdef list out = [], enum = [], choices = []
        for i in range(4):
            p, q = pat[2 * i], pat[2 * i + 1]
            if p >= 0 and p == q:
                return out  # a line or segment through one point
            if p < 0 or q < 0:
                free[nfree] = i
                nfree += 1
        if nfree == 0:
            return [tuple([pat[i] for i in range(8)])]
        last = free[nfree - 1]
        for i in range(4):
            p, q = pat[2 * i], pat[2 * i + 1]
            if p >= 0 and q >= 0:
                sign = _SIGNS[0 if angles else 1][i]
                fixed += sign * (self._direction(p, q) if angles else self._log_length(p, q))
        for i in range(nfree - 1):
            enum.append(free[i])
            choices.append(self._units(pat[2 * free[i]], pat[2 * free[i] + 1], angles))
        self._rec(pat, angles, enum, choices, last, 0, fixed, [], out)
        return out

    cdef list _units(self, int a, int b, bint angles):
        """(value, point pairs) of each unit a slot (a, b) can take."""
        cdef list out = [], pairs
        cdef int p, q
        if angles:
            for li in self._slot_lines(a, b):
                pairs = self._pairs_on_line(li, a, b)
                if pairs:
                    out.append((self.dir_values[self.dir_of[li]], pairs))
        else:
            for p in range(self.n):
                if a >= 0 and p != a:
                    continue
                for q in range(self.n):
                    if (b < 0 or q == b) and p != q:
                        out.append((self._log_length(p, q), [(p, q)]))
        return out

    cdef int _rec(self, int* pat, bint angles, list enum, list choices, int last, int k,
                  double total, list chosen, list out) except -1:
        cdef int a = pat[2 * last], b = pat[2 * last + 1], cls, i, j
        cdef double value, want
        cdef list ends
        if k < len(enum):
            for value, pairs in choices[k]:
                chosen.append(pairs)
                self._rec(pat, angles, enum, choices, last, k + 1,
                          total + _SIGNS[0 if angles else 1][<int> enum[k]] * value, chosen, out)
                chosen.pop()
            return 0
        want = -_SIGNS[0 if angles else 1][last] * total
        if angles:
            cls = self._dir_class_at(want)
            if cls < 0:
                return 0
            ends = []
            for i in range(self.dirc_start[cls], self.dirc_start[cls + 1]):
                ends.extend(self._pairs_on_line(self.dirc[i], a, b))
        else:
            cls = self._length_class_at(exp(want))
            if cls < 0:
                return 0
            ends = self._oriented(cls, a, b)
        if not ends:
            return 0
        slots = [(pat[2 * i], pat[2 * i + 1]) for i in range(4)]
        for combo in product(*chosen):
            self._grew(out)
            for j in range(len(enum)):
                slots[enum[j]] = combo[j]
            for pq in ends:
                slots[last] = pq
                out.append(slots[0] + slots[1] + slots[2] + slots[3])
        return 0

    cdef list _oriented(self, int lc, int a, int b):
        """The segments of length class lc, both ways, agreeing with (a, b)."""
        cdef list out = []
        cdef int i, j, r, s
        for i in range(self.lenc_start[lc], self.lenc_start[lc + 1], 2):
            for j in range(2):
                r, s = self.lenc[i + j], self.lenc[i + 1 - j]
                if (a < 0 or r == a) and (b < 0 or s == b):
                    out.append((r, s))
        return out

    # ------------------------------------------------------------ triangles

    cdef int _shapes(self) except -1:
        """Ordered non-degenerate triangles abc grouped by shape (c − a)/(b − a),
        within the angle tolerance (relative): directly similar triangles
        have the same shape, oppositely similar ones conjugate shapes.

        Built on first use (most problems never match a similarity rule):
        classes are numbered in the order of their first triangle, a, b, c
        ascending, and found through a grid of cells of side 1/SHAPE_GRID
        around their first shape (the representative). The tables hold n³
        entries: beyond :data:`MAX_SHAPE_POINTS` points they are refused
        (``BudgetExceeded("matching", "memory")``) rather than let a large
        figure take gigabytes."""
        cdef int n = self.n, a, b, c, k, t, nclasses = 0, ntri = 0
        cdef double abx, aby, lab, zx, zy
        if self.shapes_built:
            return 0
        if n > MAX_SHAPE_POINTS:
            raise BudgetExceeded("matching", "memory")
        self.shape_reps_x = array.array("d")
        self.shape_reps_y = array.array("d")
        self.shape_cells = {}
        shape_of = array.array("i", [-1]) * (n * n * n)
        order = array.array("i")  # triangle codes (a n + b) n + c, in order
        for a in range(n):
            if time.monotonic() > self.deadline:
                raise BudgetExceeded("matching", "time")
            for b in range(n):
                if b == a:
                    continue
                abx, aby = self.X[b] - self.X[a], self.Y[b] - self.Y[a]
                lab = self.L[a * n + b]
                for c in range(n):
                    if c == a or c == b:
                        continue
                    _cquot(self.X[c] - self.X[a], self.Y[c] - self.Y[a], abx, aby, &zx, &zy)
                    if fabs(zy) * lab <= self.eps:  # c on line ab: no triangle
                        continue
                    k = self._shape_class_at(zx, zy)
                    if k < 0:
                        k = nclasses
                        nclasses += 1
                        self.shape_reps_x.append(zx)
                        self.shape_reps_y.append(zy)
                        self.shape_cells.setdefault(_cell(zx, zy), []).append(k)
                    t = (a * n + b) * n + c
                    shape_of[t] = k
                    order.append(t)
        # Classes as CSR, each in triangle order.
        start = array.array("i", [0]) * (nclasses + 1)
        for t in order:
            start[shape_of[t] + 1] += 3
        for k in range(nclasses):
            start[k + 1] += start[k]
        fill = array.array("i", start)
        tri = array.array("i", [0]) * (3 * len(order))
        for t in order:
            k = shape_of[t]
            tri[fill[k]], tri[fill[k] + 1], tri[fill[k] + 2] = t // (n * n), (t // n) % n, t % n
            fill[k] += 3
        self.nshapes = nclasses
        self.shape_of, self.shape_start, self.shape_tri = shape_of, start, tri
        self.mirror = array.array("i", [-2]) * nclasses
        self.shapes_built = 1
        return 0

    cdef int _shape_class_at(self, double zx, double zy) except -2:
        """The class of triangles of shape z (within the angle tolerance), or -1."""
        cdef double x = rint(zx * SHAPE_GRID), y = rint(zy * SHAPE_GRID)
        cdef int dx, dy, k
        cdef double size = hypot(zx, zy)
        cdef double tol = 10 * self.angle * (size if size > 1.0 else 1.0)
        for dx in range(-1, 2):
            for dy in range(-1, 2):
                cell = self.shape_cells.get((x + dx, y + dy))
                if cell is None:
                    continue
                for k in cell:
                    if hypot(self.shape_reps_x[k] - zx, self.shape_reps_y[k] - zy) <= tol:
                        return k
        return -1

    cdef int _similar_class(self, int a, int b, int c, bint reflected) except -2:
        """The class of triangles directly (or, reflected, oppositely)
        similar to abc; -1 for a degenerate abc."""
        cdef int k = self.shape_of[(a * self.n + b) * self.n + c]
        if k < 0 or not reflected:
            return k
        if self.mirror[k] == -2:
            self.mirror[k] = self._shape_class_at(self.shape_reps_x[k], -self.shape_reps_y[k])
        return self.mirror[k]

    cdef list _similar(self, int* pat, bint reflected, bint congruent):
        """Triangle pairs of equal (or, reflected, conjugate) shape; of equal
        size too when ``congruent``."""
        cdef int swapped[6]
        cdef int i, k, j
        cdef bint first_free = pat[0] < 0 or pat[1] < 0 or pat[2] < 0
        cdef bint second_free = pat[3] < 0 or pat[4] < 0 or pat[5] < 0
        cdef list out = [], firsts
        self._shapes()
        if first_free and not second_free:
            for i in range(6):
                swapped[i] = pat[(i + 3) % 6]
            return [t[3:] + t[:3] for t in self._similar(swapped, reflected, congruent)]
        if first_free:
            # Both triangles free: every similar pair, listed once per diagram.
            key = (reflected, congruent)
            pairs = self.similar_pairs.get(key)
            if pairs is None:
                for i in range(6):
                    swapped[i] = -1
                for k in range(self.nshapes):
                    if self.shape_start[k + 1] - self.shape_start[k] > 3 or reflected:
                        for j in range(self.shape_start[k], self.shape_start[k + 1], 3):
                            self._similar_from(self.shape_tri[j], self.shape_tri[j + 1], self.shape_tri[j + 2],
                                               swapped, reflected, congruent, out)
                pairs = self.similar_pairs[key] = [t for t in out if t[:3] != t[3:]]
            return [t for t in pairs if _agrees(pat, t, 6)]
        self._similar_from(pat[0], pat[1], pat[2], pat, reflected, congruent, out)
        return out

    cdef int _similar_from(self, int a, int b, int c, int* pat, bint reflected, bint congruent,
                           list out) except -1:
        cdef int k = self._similar_class(a, b, c, reflected), size = -1, j, p, q, r, n = self.n
        if k < 0:
            return 0
        if congruent:
            size = self.len_of[a * n + b]
        for j in range(self.shape_start[k], self.shape_start[k + 1], 3):
            p, q, r = self.shape_tri[j], self.shape_tri[j + 1], self.shape_tri[j + 2]
            if ((pat[0] < 0 or pat[0] == a) and (pat[1] < 0 or pat[1] == b) and (pat[2] < 0 or pat[2] == c)
                    and (pat[3] < 0 or pat[3] == p) and (pat[4] < 0 or pat[4] == q)
                    and (pat[5] < 0 or pat[5] == r) and (not congruent or self.len_of[p * n + q] == size)):
                out.append((a, b, c, p, q, r))
        return 0


cdef double[2][4] _SIGNS
# eqangle a b c d e f g h: −dir(ab) + dir(cd) + dir(ef) − dir(gh) ≡ 0 (mod π);
# eqratio: log|ab| − log|cd| − log|ef| + log|gh| = 0.
_SIGNS[0][:] = [-1.0, 1.0, 1.0, -1.0]
_SIGNS[1][:] = [1.0, -1.0, -1.0, 1.0]


cdef double SHAPE_GRID = 1e5


cdef inline tuple _cell(double zx, double zy):
    """The grid cell of shape z (rounded half to even, as Python's round)."""
    return (rint(zx * SHAPE_GRID), rint(zy * SHAPE_GRID))


cdef inline void _cquot(double ax, double ay, double bx, double by, double* rx, double* ry):
    """a / b for complex a, b as CPython computes it (_Py_c_quot)."""
    cdef double ratio, denom
    cdef double abs_bx = -bx if bx < 0 else bx, abs_by = -by if by < 0 else by
    if abs_bx >= abs_by:
        if abs_bx == 0.0:
            rx[0] = ry[0] = 0.0  # CPython raises ZeroDivisionError: unreachable for distinct points
        else:
            ratio = by / bx
            denom = bx + by * ratio
            rx[0] = (ax + ay * ratio) / denom
            ry[0] = (ay - ax * ratio) / denom
    elif abs_by >= abs_bx:
        ratio = bx / by
        denom = bx * ratio + by
        rx[0] = (ax * ratio + ay) / denom
        ry[0] = (ay * ratio - ax) / denom
    else:
        rx[0] = ry[0] = NAN


cdef inline double _max(double x, double y):
    """Python's max(x, y)."""
    return y if y > x else x


cdef inline bint _better_second(int* pat):
    """Whether the second slot of a two-slot pattern (ab, cd) has more of
    its points bound than the first: enumerating from it is cheaper."""
    return (pat[2] >= 0) + (pat[3] >= 0) > (pat[0] >= 0) + (pat[1] >= 0)


cdef inline bint _agrees(int* pat, tuple t, int k):
    cdef int i
    for i in range(k):
        if pat[i] >= 0 and pat[i] != <int> t[i]:
            return 0
    return 1


cdef list _orderings(list sets, int* pat, int k):
    """Ordered tuples of distinct points of one set that agree with ``pat``
    (-1 free), with itertools' C loops where the pattern allows."""
    cdef list bound = [pat[i] for i in range(k) if pat[i] >= 0]
    cdef list free = [i for i in range(k) if pat[i] < 0]
    cdef list out = [], t
    cdef int f
    if not bound:
        for s in sets:
            out.extend(permutations(s, len(free)))
        return out
    one = len(free) == 1
    if one:
        f = free[0]
        head, tail = tuple([pat[i] for i in range(f)]), tuple([pat[i] for i in range(f + 1, k)])
    for s in sets:
        if not all(p in s for p in bound):
            continue
        rest = [p for p in s if p not in bound]
        if one:
            out.extend([head + (p,) + tail for p in rest])
            continue
        for combo in permutations(rest, len(free)):
            t = [pat[i] for i in range(k)]
            for i, p in zip(free, combo):
                t[i] = p
            out.append(tuple(t))
    return out
