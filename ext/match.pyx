# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The search loop of the closure's rule matcher (geodsl.ddar.matcher).

Matching a rule binds its variables constraint by constraint: at every node
of the search, find the constraints whose points are now all bound and check
them, then pick the open constraint with the fewest expected candidates and
branch on its numerically true instances. Those per-node scans run millions
of times per problem set, so they are C loops over int arrays here.

The geometry the search reads is here too (:class:`Diagram`): the
enumerators of true instances (points on a line, segments of a length,
lines at an angle, ...) and the hot numeric checks (``cong``, ``para``,
``eqangle``, ...) over flat copies of the numeric model's structures. In
Python they were most of the matching time, spread over many small
generators and closures. Cost estimates and the other checks stay in
Python behind two callbacks; costs are cached per (constraint, which
arguments are bound), enumerations per (predicate, pattern).
"""

from cpython cimport array
from libc.math cimport INFINITY, NAN, copysign, exp, fabs, fmod, hypot, log, rint
from libc.stdlib cimport malloc, free

import array
import time
from itertools import permutations, product

cdef enum:
    MAXARGS = 8

# DEGENERACY: the ways a bound constraint is meaningless or trivially true.
cdef enum:
    NONE = 0          # never
    DISTINCT = 1      # repeated points (coll, cyclic, midp, circle, ncoll)
    TWO_PAIRS = 2     # ab, cd: a point pair of one point, or the same pair (para, perp, cong)
    FOUR_PAIRS = 3    # eqangle / eqratio: a pair of one point, or both sides the same
    TRIANGLES = 4     # a triangle with a repeated vertex, or the same triangle twice
    HEAD_PAIRS = 5    # aconst / rconst / lconst / diff: the point pairs must be pairs

DEGENERACY = {"coll": DISTINCT, "ncoll": DISTINCT, "cyclic": DISTINCT, "midp": DISTINCT,
              "circle": DISTINCT, "para": TWO_PAIRS, "perp": TWO_PAIRS, "cong": TWO_PAIRS,
              "npara": TWO_PAIRS, "nperp": TWO_PAIRS, "eqangle": FOUR_PAIRS,
              "eqratio": FOUR_PAIRS, "simtri": TRIANGLES, "simtrir": TRIANGLES,
              "contri": TRIANGLES, "contrir": TRIANGLES, "aconst": HEAD_PAIRS,
              "rconst": HEAD_PAIRS, "lconst": HEAD_PAIRS, "diff": HEAD_PAIRS,
              "sideprod": DISTINCT}
"""Predicate name -> degeneracy kind; other predicates never degenerate."""


cdef inline int _same_pair(int a, int b, int c, int d):
    return (a == c and b == d) or (a == d and b == c)


include "diagram.pxi"


from geodsl.budget import BudgetExceeded


cdef class _Search:
    cdef int ncons, nvars, npoints, max_matches
    cdef int* vars          # ncons * MAXARGS, -1 = constant / padding
    cdef int* nargs
    cdef int* side
    cdef int* degen          # how a constraint degenerates (see DEGENERACY)
    cdef int* binding
    cdef int* cost_cache    # ncons * 256, -1 = unknown
    cdef int* ckind          # compiled check per constraint (CHECKS), 0 = call check()
    cdef int* ekind          # enumerator per constraint (ENUMERATORS), 0 = none
    cdef object check, cost, out
    cdef Diagram g
    cdef dict memo           # (name, args) -> bool: the numeric model's truth cache
    cdef dict enumerated     # (name, pattern) -> true instances
    cdef list names          # predicate name per constraint, or None if it has constants
    cdef double deadline
    cdef long ticks
    cdef int pin, first_new  # run_through: variable `pin` holds a new point, those before it old ones

    def __cinit__(self, list cons_vars, list cons_side, list cons_degen, int nvars, int npoints,
                  object check, object cost, double deadline, int max_matches):
        cdef int i, j, k
        self.ncons = len(cons_vars)
        self.nvars = nvars
        self.npoints = npoints
        self.max_matches = max_matches
        self.vars = <int*> malloc(self.ncons * MAXARGS * sizeof(int))
        self.nargs = <int*> malloc(self.ncons * sizeof(int))
        self.side = <int*> malloc(self.ncons * sizeof(int))
        self.degen = <int*> malloc(self.ncons * sizeof(int))
        self.binding = <int*> malloc((nvars + 1) * sizeof(int))
        self.cost_cache = <int*> malloc(self.ncons * 256 * sizeof(int))
        self.ckind = <int*> malloc(self.ncons * sizeof(int))
        self.ekind = <int*> malloc(self.ncons * sizeof(int))
        if not (self.vars and self.nargs and self.side and self.degen and self.binding
                and self.cost_cache and self.ckind and self.ekind):
            raise MemoryError()
        for i in range(self.ncons):
            t = cons_vars[i]
            if len(t) > MAXARGS:
                raise ValueError("a constraint has more than 8 arguments")
            self.nargs[i] = len(t)
            self.side[i] = 1 if cons_side[i] else 0
            self.degen[i] = cons_degen[i]
            self.ckind[i] = self.ekind[i] = 0
            for j in range(MAXARGS):
                self.vars[i * MAXARGS + j] = t[j] if j < len(t) else -1
            for k in range(256):
                self.cost_cache[i * 256 + k] = -1
        for i in range(nvars):
            self.binding[i] = -1
        self.check = check
        self.memo = None
        self.names = None
        self.cost = cost
        self.deadline = deadline
        self.out = []
        self.ticks = 0
        self.pin = -1
        self.first_new = npoints

    def __dealloc__(self):
        free(self.vars)
        free(self.nargs)
        free(self.side)
        free(self.degen)
        free(self.binding)
        free(self.cost_cache)
        free(self.ckind)
        free(self.ekind)

    cdef tuple _values(self, int ci):
        """The constraint's arguments under the binding (None unbound, -1 constant)."""
        cdef int j, v
        cdef list out = []
        for j in range(self.nargs[ci]):
            v = self.vars[ci * MAXARGS + j]
            if v < 0:
                out.append(-1)
            elif self.binding[v] < 0:
                out.append(None)
            else:
                out.append(self.binding[v])
        return tuple(out)

    cdef int _mask(self, int ci):
        cdef int j, v, m = 0
        for j in range(self.nargs[ci]):
            v = self.vars[ci * MAXARGS + j]
            if v < 0 or self.binding[v] >= 0:
                m |= 1 << j
        return m

    cdef int _bound(self, int ci):
        cdef int j, v
        for j in range(self.nargs[ci]):
            v = self.vars[ci * MAXARGS + j]
            if v >= 0 and self.binding[v] < 0:
                return 0
        return 1

    cdef int _degenerate(self, int ci):
        """1 if the bound constraint is degenerate (see DEGENERACY)."""
        cdef int k = self.degen[ci], j, i, n = self.nargs[ci]
        cdef int v[MAXARGS]
        for j in range(n):
            i = self.vars[ci * MAXARGS + j]
            v[j] = self.binding[i] if i >= 0 else -1 - j
        if k == DISTINCT:
            for i in range(n):
                for j in range(i + 1, n):
                    if v[i] == v[j]:
                        return 1
            return 0
        if k == TWO_PAIRS:
            return v[0] == v[1] or v[2] == v[3] or _same_pair(v[0], v[1], v[2], v[3])
        if k == FOUR_PAIRS:
            for j in range(0, 8, 2):
                if v[j] == v[j + 1]:
                    return 1
            return ((_same_pair(v[0], v[1], v[4], v[5]) and _same_pair(v[2], v[3], v[6], v[7]))
                    or (_same_pair(v[0], v[1], v[2], v[3]) and _same_pair(v[4], v[5], v[6], v[7])))
        if k == TRIANGLES:
            if v[0] == v[1] or v[1] == v[2] or v[0] == v[2] or v[3] == v[4] or v[4] == v[5] or v[3] == v[5]:
                return 1
            return v[0] == v[3] and v[1] == v[4] and v[2] == v[5]
        if k == HEAD_PAIRS:
            return v[0] == v[1] or (n >= 4 and v[2] == v[3] and self.vars[ci * MAXARGS + 2] >= 0)
        return 0

    cdef int _check(self, int ci) except -1:
        """Numeric truth of a bound constraint: compiled, else the model's
        cache, else the check callback."""
        cdef tuple values
        cdef object name
        cdef object found
        cdef int v[MAXARGS]
        cdef int j
        if self.ckind[ci]:
            for j in range(self.nargs[ci]):
                v[j] = self.binding[self.vars[ci * MAXARGS + j]]
            return self.g.check(self.ckind[ci], v)
        values = self._values(ci)
        if self.memo is not None:
            name = self.names[ci]
            if name is not None:
                found = self.memo.get((name, values))
                if found is not None:
                    return 1 if found else 0
        return 1 if self.check(ci, values) else 0

    cdef long _cost(self, int ci) except -2:
        cdef int m = self._mask(ci)
        cdef int c = self.cost_cache[ci * 256 + m]
        if c < 0:
            c = <int> min(<long> self.cost(ci, self._values(ci)), 2000000000)
            self.cost_cache[ci * 256 + m] = c
        return c

    cdef int _fallback_var(self, int* still, int nstill) except -2:
        """The variable to bind to every point when no open constraint can
        be enumerated: the one after which some constraint becomes cheapest
        (binding the vertex and the bisector of an angle first lets the
        angle's other side be looked up; binding the vertex and a side
        first does not). Ties go to the first unbound variable of the
        first open constraint, then in constraint order."""
        cdef int i, j, ci, v, var = -1, k
        cdef long c, least, best_cost = 2147483647
        for i in range(nstill):
            ci = still[i]
            for j in range(self.nargs[ci]):
                v = self.vars[ci * MAXARGS + j]
                if v < 0 or self.binding[v] >= 0:
                    continue
                self.binding[v] = 0  # any point: costs depend only on what is bound
                least = 2147483647
                for k in range(nstill):
                    if not self.side[still[k]] and not self._bound(still[k]):
                        c = self._cost(still[k])
                        if c < least:
                            least = c
                self.binding[v] = -1
                if least < best_cost:
                    best_cost, var = least, v
        return var

    cdef int _search(self, int* open_, int nopen) except -1:
        cdef int i, ci, j, v, best = -1, nstill = 0, p, var, ok
        cdef long c, best_cost = 2147483647
        cdef int* still
        cdef int changed[MAXARGS]
        cdef int nchanged
        self.ticks += 1
        if (self.ticks & 255) == 0 and time.monotonic() > self.deadline:
            raise BudgetExceeded("matching", "time")
        still = <int*> malloc((nopen + 1) * sizeof(int))
        if still == NULL:
            raise MemoryError()
        try:
            for i in range(nopen):
                ci = open_[i]
                if self._bound(ci):
                    if self._degenerate(ci) or not self._check(ci):
                        return 0
                else:
                    still[nstill] = ci
                    nstill += 1
            if nstill == 0:
                self.out.append(tuple([self.binding[i] for i in range(self.nvars)]))
                if len(self.out) > self.max_matches:
                    raise BudgetExceeded("matching", "matches")
                return 0
            for i in range(nstill):
                ci = still[i]
                if self.side[ci]:
                    continue
                c = self._cost(ci)
                if c < best_cost:
                    best, best_cost = ci, c
            if best < 0 or best_cost >= 1000000000:
                # Fallback: bind one variable to every point.
                var = self._fallback_var(still, nstill)
                for p in range(self.first_new if var < self.pin else self.npoints):
                    self.binding[var] = p
                    self._search(still, nstill)
                self.binding[var] = -1
                return 0
            for values in self._enumerate(best):
                # Most candidates of a long list may disagree with the
                # binding and never recurse: the clock is read here too.
                self.ticks += 1
                if (self.ticks & 4095) == 0 and time.monotonic() > self.deadline:
                    raise BudgetExceeded("matching", "time")
                nchanged = 0
                ok = 1
                for j in range(self.nargs[best]):
                    v = self.vars[best * MAXARGS + j]
                    if v < 0:
                        continue
                    p = values[j]
                    if v < self.pin and p >= self.first_new:
                        ok = 0
                        break
                    if self.binding[v] < 0:
                        self.binding[v] = p
                        changed[nchanged] = v
                        nchanged += 1
                    elif self.binding[v] != p:
                        ok = 0
                        break
                if ok:
                    self._search(still, nstill)
                for j in range(nchanged):
                    self.binding[changed[j]] = -1
            return 0
        finally:
            free(still)

    cdef list _enumerate(self, int ci):
        """The true instances of an open constraint under the binding,
        memoized: the diagram never changes, and the searches of all rules
        ask the same questions again and again."""
        cdef int pat[MAXARGS]
        cdef int j, v
        if not self.ekind[ci]:
            return []
        pattern = self._values(ci)
        key = (self.names[ci], pattern)
        found = self.enumerated.get(key)
        if found is None:
            for j in range(self.nargs[ci]):
                v = self.binding[self.vars[ci * MAXARGS + j]]
                pat[j] = v
            found = self.g._enumerate(self.ekind[ci], pat, self.nargs[ci])
            # Memory stays bounded: past MAX_CACHED instances in all, answers
            # are recomputed rather than kept (the same answers, more time).
            if self.g.cached + len(found) <= MAX_CACHED:
                self.enumerated[key] = found
                self.g.cached += len(found)
        return found

    def run(self):
        cdef int i
        cdef int* open_ = <int*> malloc((self.ncons + 1) * sizeof(int))
        if open_ == NULL:
            raise MemoryError()
        try:
            for i in range(self.ncons):
                open_[i] = i
            self._search(open_, self.ncons)
        finally:
            free(open_)
        return self.out

    def run_through(self, int first_new):
        """The bindings that use a point numbered ``first_new`` or above,
        each once: under the first variable holding one. For each variable
        v and new point q, the search with v bound to q and the variables
        before v kept to older points (pruned as they are bound). One
        search object throughout, so the cost estimates are cached once."""
        cdef int i, v, q
        cdef int* open_ = <int*> malloc((self.ncons + 1) * sizeof(int))
        if open_ == NULL:
            raise MemoryError()
        self.first_new = first_new
        try:
            for v in range(self.nvars):
                for q in range(first_new, self.npoints):
                    for i in range(self.nvars):
                        self.binding[i] = -1
                    self.binding[v] = q
                    self.pin = v
                    for i in range(self.ncons):
                        open_[i] = i
                    self._search(open_, self.ncons)
        finally:
            free(open_)
            self.pin = -1
            self.first_new = self.npoints
        return self.out


def search(list cons_vars, list cons_side, list cons_names, list plain, int nvars, Diagram diagram,
           check, cost, double deadline, int max_matches, dict memo, dict enumerated, int through=-1):
    """Every binding of ``nvars`` variables to the diagram's points under
    which every constraint holds numerically.

    ``cons_vars[ci]`` lists the variable of each argument of constraint ci
    (-1 for a constant); ``cons_side[ci]`` marks constraints that are only
    checked, never enumerated; a binding that makes a constraint degenerate
    (:data:`DEGENERACY`, by ``cons_names[ci]``) is rejected before it is
    checked. ``plain[ci]``: no constant arguments.

    Truth: plain constraints with a compiled check (:data:`CHECKS`) are
    checked by ``diagram``; the others are looked up in ``memo`` ((name,
    args) -> bool, plain ones only) and else passed to ``check(ci,
    values)``. Candidates: ``cost(ci, pattern)`` estimates them given the
    pattern of the arguments (a point, ``None`` for unbound, -1 for a
    constant; 10**9 or more means "cannot enumerate"), and the plain
    constraints of :data:`ENUMERATORS` are enumerated by ``diagram``,
    memoized in ``enumerated`` ((name, pattern) -> instances).
    ``through`` (0 or more): only the bindings that use a point numbered
    ``through`` or above (:meth:`_Search.run_through`) — what an extended
    figure adds to the matches of its older points
    (:meth:`geodsl.ddar.matcher.Matcher.matches_through`).
    Raises :class:`~geodsl.budget.BudgetExceeded` past ``deadline`` (time.monotonic()) or
    ``max_matches``.
    """
    cdef int ci
    degen = [DEGENERACY.get(name, NONE) for name in cons_names]
    cdef _Search s = _Search(cons_vars, cons_side, degen, nvars, diagram.n, check, cost,
                             deadline, max_matches)
    s.g = diagram
    diagram.deadline = deadline
    s.memo = memo
    s.enumerated = enumerated
    s.names = [name if ok else None for name, ok in zip(cons_names, plain)]
    for ci in range(len(cons_vars)):
        if plain[ci]:
            s.ekind[ci] = ENUMERATORS.get(cons_names[ci], E_NONE)
            kind, arity = CHECKS.get(cons_names[ci], (C_NONE, -1))
            if arity == len(cons_vars[ci]):
                s.ckind[ci] = kind
    if through >= 0:
        return s.run_through(through)
    return s.run()
