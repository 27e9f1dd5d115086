# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Canonical argument order of predicates, and point-name interning.

``para b a d c`` and ``para c d a b`` state one fact; comparing facts, keying
them in hash tables and printing them deterministically all need one spelling.
A predicate's argument symmetries come from ``rulebase/predicates.gdl`` as a
permutation group; the canonical spelling is the lexicographically least image
of the arguments under the group. This runs for every fact the closure sees,
so it is C loops over small int arrays, not Python tuples.
"""

from libc.stdlib cimport malloc, free


cdef int _rank_args(tuple args, int n, int* ranks) except -1:
    # Rank each argument among the arguments (ties share a rank): comparing
    # ranks is comparing the names, with ints.
    cdef int i, j, r
    cdef object ai
    for i in range(n):
        ai = args[i]
        r = 0
        for j in range(n):
            if args[j] < ai:
                r += 1
        ranks[i] = r
    return 0


def canonical_permutation(tuple args, tuple perms):
    """Index in ``perms`` of the permutation giving the least image of ``args``.

    ``perms`` is a tuple of equal-length int tuples; image ``k`` of the
    arguments is ``tuple(args[p[i]] for i in range(n))``. Arguments must be
    mutually comparable (point names, or ints from an :class:`Interner`).
    """
    cdef int n = len(args)
    cdef int m = len(perms)
    if m == 0:
        raise ValueError("no permutations")
    cdef int* ranks = <int*> malloc(n * sizeof(int))
    cdef int* flat = <int*> malloc(n * m * sizeof(int))
    cdef int best = 0, k, i, a, b
    cdef tuple p
    if ranks == NULL or flat == NULL:
        free(ranks)
        free(flat)
        raise MemoryError()
    try:
        _rank_args(args, n, ranks)
        for k in range(m):
            p = <tuple> perms[k]
            if len(p) != n:
                raise ValueError("permutation length differs from the argument count")
            for i in range(n):
                flat[k * n + i] = ranks[<int> p[i]]
        for k in range(1, m):
            for i in range(n):
                a = flat[k * n + i]
                b = flat[best * n + i]
                if a != b:
                    if a < b:
                        best = k
                    break
        return best
    finally:
        free(ranks)
        free(flat)


def canonical_args(tuple args, tuple perms):
    """The least image of ``args`` under ``perms`` (see canonical_permutation)."""
    cdef tuple p = <tuple> perms[canonical_permutation(args, perms)]
    return tuple([args[<int> i] for i in p])


cdef class Interner:
    """Point names to dense ints and back, in first-seen order.

    The closure keys facts by small ints; first-seen order (not hash order)
    keeps every run byte-identical.
    """

    cdef dict _ids
    cdef list _names

    def __cinit__(self):
        self._ids = {}
        self._names = []

    cpdef int intern(self, str name):
        cdef object found = self._ids.get(name)
        if found is not None:
            return <int> found
        cdef int new_id = len(self._names)
        self._ids[name] = new_id
        self._names.append(name)
        return new_id

    cpdef str name(self, int ident):
        return <str> self._names[ident]

    def __len__(self):
        return len(self._names)

    def __contains__(self, name):
        return name in self._ids

    def names(self):
        """All names, in interning order."""
        return tuple(self._names)
