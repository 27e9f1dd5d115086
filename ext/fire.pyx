# cython: language_level=3, boundscheck=False, wraparound=False
"""The firing loop of the closure's DD levels (geodsl.ddar.engine).

Every level, each rule tries every numerically true binding that has not
fired yet: instantiate the rule's atoms for it, skip it when its conclusions
are all known, reject it when a premise failed since the store last changed,
else prove the premises and add the conclusions. That is 10^4-10^5 small
steps per problem, and in Python most of their cost was the interpreter
(frames, attribute lookups, building tuples and lists), so the loop is here,
over typed locals and C arrays.

The store stays Python: ``Store.prove``, ``Store.add``, ``Store.key`` and
``Store.epoch`` are called with the same arguments and in the same order as
the Python loop called them, so the closure obtains the same facts in the
same order with the same provenance.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_INCREF
from cpython.time cimport monotonic
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from geodsl.budget import BudgetExceeded


cdef class CompiledRule:
    """A rule's atoms (premises, then conclusions) against its variable
    order, compiled once per rule: for each argument the binding slot it
    reads, or -1 for a constant, so instantiating an atom is one C loop."""

    cdef readonly str name
    cdef readonly object label
    cdef Py_ssize_t npre, natoms
    cdef tuple sides       # the side conditions, (name, args over variables)
    cdef dict index
    cdef tuple names       # predicate name of each atom
    cdef tuple consts      # per atom: its arguments (constants where slot is -1)
    cdef int* slots        # the atoms' argument slots, concatenated
    cdef Py_ssize_t* start # atom i's slots are slots[start[i]:start[i + 1]]

    def __cinit__(self):
        self.slots = NULL
        self.start = NULL

    def __init__(self, spec):
        """``spec``: a :class:`~geodsl.ddar.ruleset.RuleSpec`."""
        cdef dict index = {v: i for i, v in enumerate(spec.variables)}
        atoms = tuple(spec.premises) + tuple(spec.conclusions)
        cdef Py_ssize_t i, k = 0, total = sum(len(args) for _, args in atoms)
        self.name = spec.name
        self.label = spec.label
        self.sides = tuple(spec.sides)
        self.index = index
        self.npre = len(spec.premises)
        self.natoms = len(atoms)
        self.names = tuple(name for name, _ in atoms)
        self.consts = tuple(tuple(args) for _, args in atoms)
        self.slots = <int*> PyMem_Malloc(max(total, 1) * sizeof(int))
        self.start = <Py_ssize_t*> PyMem_Malloc((self.natoms + 1) * sizeof(Py_ssize_t))
        if self.slots == NULL or self.start == NULL:
            raise MemoryError()
        for i in range(self.natoms):
            self.start[i] = k
            for a in self.consts[i]:
                self.slots[k] = index[a] if isinstance(a, str) else -1
                k += 1
        self.start[self.natoms] = k

    def __dealloc__(self):
        PyMem_Free(self.slots)
        PyMem_Free(self.start)

    cdef tuple instantiate(self, Py_ssize_t atom, tuple binding):
        """Atom ``atom``'s arguments under ``binding`` (a new tuple)."""
        cdef Py_ssize_t lo = self.start[atom], n = self.start[atom + 1] - lo, j
        cdef int s
        cdef tuple consts = <tuple> self.consts[atom]
        cdef tuple out = PyTuple_New(n)
        cdef object value
        for j in range(n):
            s = self.slots[lo + j]
            value = binding[s] if s >= 0 else consts[j]
            Py_INCREF(value)  # PyTuple_SET_ITEM steals a reference
            PyTuple_SET_ITEM(out, j, value)
        return out


cdef class _Instance:
    """One binding's instantiated atoms and their canonical keys, kept across
    levels (a premise's key is computed when first asked for: None until
    then)."""

    cdef list args
    cdef list keys


cdef class _StoreView:
    """The store's tables and methods, looked up once per :func:`fire` call
    rather than once per binding (none of them is ever rebound)."""

    cdef list facts
    cdef dict index
    cdef dict failed
    cdef object key, epoch, prove, add

    def __init__(self, store):
        self.facts = store.facts
        self.index = store.index
        self.failed = store._failed
        self.key = store.key
        self.epoch = store.epoch
        self.prove = store.prove
        self.add = store.add


def fire(store, CompiledRule rule, list bindings, bytearray fired, list memo,
         double deadline, Py_ssize_t max_facts):
    """Try each binding of ``rule`` not marked in ``fired``, in order, and
    mark those whose conclusions are now known.

    ``memo[mi]`` keeps binding ``mi``'s instance between levels (None until
    first tried). Raises :class:`~geodsl.budget.BudgetExceeded`
    before a binding is tried past ``deadline`` (``time.monotonic()``) or
    with ``max_facts`` facts in the store."""
    cdef Py_ssize_t mi, n = len(bindings)
    if len(fired) != n or len(memo) != n:
        raise ValueError("fired and memo must have one entry per binding")
    cdef char* done = fired
    cdef _StoreView view = _StoreView(store)
    for mi in range(n):
        if done[mi]:
            continue
        if monotonic() > deadline or len(view.facts) >= max_facts:
            raise BudgetExceeded("deduction", "time" if monotonic() > deadline else "facts")
        if _apply(view, rule, <tuple> bindings[mi], memo, mi):
            done[mi] = 1


cdef bint _apply(_StoreView store, CompiledRule rule, tuple binding, list memo,
                 Py_ssize_t mi) except -1:
    """Try one binding; True once its conclusions are known."""
    cdef Py_ssize_t i, npre = rule.npre, natoms = rule.natoms
    cdef _Instance inst = <_Instance> memo[mi]
    cdef list args, keys, parents
    cdef tuple names = rule.names
    cdef dict index = store.index, failed = store.failed
    if inst is None:
        inst = _Instance()
        inst.args = [rule.instantiate(i, binding) for i in range(natoms)]
        inst.keys = [None] * npre + [store.key(names[i], inst.args[i]) for i in range(npre, natoms)]
        memo[mi] = inst
    args = inst.args
    keys = inst.keys
    for i in range(npre, natoms):
        if keys[i] not in index:
            break
    else:
        return True
    epoch = store.epoch()
    for i in range(npre):
        k = keys[i]
        if k is None:
            k = keys[i] = store.key(names[i], args[i])
        if failed.get(k) == epoch:  # Store.prove's failure cache, the epoch read once
            return False
    parents = []
    for i in range(npre):
        fid = store.prove(names[i], args[i], keys[i])
        if fid is None:
            return False
        parents.append(fid)
    sides = [(name, tuple(binding[rule.index[a]] if isinstance(a, str) else a for a in side_args))
             for name, side_args in rule.sides]
    for i in range(npre, natoms):
        store.add(names[i], args[i], rule.name, parents, label=rule.label, sides=sides)
    return True
