# cython: language_level=3, boundscheck=False, wraparound=False
"""The elimination loops of :mod:`geodsl.ddar.linear`, compiled.

Every AR query and every new angle or ratio fact runs one of these loops, so
they are typed loops over the dicts themselves: updates in place instead of
intermediate dicts, no ``sorted``/``min`` over generator expressions, no
interpreted arithmetic.
The tables' state stays plain Python dicts owned by the classes in
``linear.py``; these functions only read and update it.

Rational coefficients are kept as ``int`` when integral and as
:class:`fractions.Fraction` otherwise (:func:`_q`): almost every coefficient of
a ratio or distance equation is an integer, and int arithmetic is an order of
magnitude cheaper than Fraction arithmetic. The values are the same rationals
either way (``1 == Fraction(1)``, same hash), so every decision is too.
"""

from cpython.dict cimport PyDict_GetItem, PyDict_Next
from cpython.long cimport PyLong_CheckExact
from cpython.ref cimport PyObject

from fractions import Fraction


# --- exact rationals: int when integral, Fraction otherwise -------------------

cdef inline object _q(object x):
    """x as a rational in canonical form (int when integral)."""
    if PyLong_CheckExact(x):
        return x
    if type(x) is not Fraction:
        x = Fraction(x)
    if x.denominator == 1:
        return x.numerator
    return x


cdef inline object _qmul(object a, object b):
    if PyLong_CheckExact(a) and PyLong_CheckExact(b):
        return a * b
    return _q(a * b)


cdef inline object _qadd(object a, object b):
    if PyLong_CheckExact(a) and PyLong_CheckExact(b):
        return a + b
    return _q(a + b)


cdef inline object _qdiv(object a, object b):
    """a / b exactly (a true ``/`` on two ints would give a float)."""
    if PyLong_CheckExact(a) and PyLong_CheckExact(b):
        if a % b == 0:
            return a // b
        return Fraction(a, b)
    return _q(Fraction(a) / b)


cdef int _axpy(dict target, object scale, dict source, bint rational) except -1:
    """target += scale·source, dropping zeros, in place (a new key goes
    last, as ``dict.get``-and-set would put it). ``rational``: coefficients
    kept canonical (an int when whole, else a Fraction); otherwise plain
    Python arithmetic (the lattice's integer rows, whose constant columns
    may hold Fractions)."""
    cdef Py_ssize_t pos = 0
    cdef PyObject *kp = NULL
    cdef PyObject *vp = NULL
    cdef PyObject *tp
    cdef object k, nv
    while PyDict_Next(source, &pos, &kp, &vp):
        k = <object>kp
        nv = _qmul(scale, <object>vp) if rational else scale * <object>vp
        tp = PyDict_GetItem(target, k)
        if tp is not NULL:
            nv = _qadd(<object>tp, nv) if rational else <object>tp + nv
        if nv:
            target[k] = nv
        elif tp is not NULL:
            del target[k]
    return 0


cdef dict _rational_form(object form):
    """A copy of ``form`` without zeros, coefficients in canonical form."""
    cdef dict out = {}
    if type(form) is not dict:
        form = dict(form)
    for k, v in (<dict>form).items():
        if v:
            out[k] = _q(v)
    return out


# --- LinearTable: reduced row echelon form over the rationals ------------------

def rref_reduce(dict rows, dict reasons, form):
    """(residual, reason): ``form`` minus the rows of the pivots it mentions;
    see ``LinearTable.reduce``."""
    return _rref_reduce(rows, reasons, form)


cdef tuple _rref_reduce(dict rows, dict reasons, object form):
    # One pass suffices: no row mentions another row's pivot, so eliminating
    # a pivot never brings back one already eliminated (nor a new one).
    cdef dict out = _rational_form(form)
    cdef dict reason = {}
    cdef list pivots = [k for k in out if k in rows]
    cdef object coef
    pivots.sort()
    for var in pivots:
        coef = out.get(var)
        if not coef:
            continue
        _axpy(out, -coef, <dict>rows[var], True)
        _axpy(reason, coef, <dict>reasons[var], True)
    return out, reason


cdef object _inverse(object x):
    """1 / x for a non-zero canonical rational."""
    if PyLong_CheckExact(x):
        if x == 1 or x == -1:
            return x
        return Fraction(1, x)
    return _q(Fraction(x.denominator, x.numerator))


cdef int _eliminate(dict orow, object other, object scale, dict row, dict occurs) except -1:
    """orow += scale·row (like :func:`_axpy`), keeping ``occurs`` in step:
    a variable that leaves row ``other`` forgets it, one that enters it
    learns it (variables that stay already know it)."""
    cdef Py_ssize_t pos = 0
    cdef PyObject *kp = NULL
    cdef PyObject *vp = NULL
    cdef PyObject *tp
    cdef object k, nv
    cdef bint tracked
    while PyDict_Next(row, &pos, &kp, &vp):
        k = <object>kp
        tracked = k >= 0 and k != other
        nv = _qmul(scale, <object>vp)
        tp = PyDict_GetItem(orow, k)
        if tp is not NULL:
            nv = _qadd(<object>tp, nv)
        if nv:
            orow[k] = nv
            if tp is NULL and tracked:
                found = occurs.get(k)
                if found is None:
                    occurs[k] = {other}
                else:
                    (<set>found).add(other)
        elif tp is not NULL:
            del orow[k]
            if tracked:
                (<set>occurs[k]).discard(other)
    return 0


def rref_add(dict rows, dict reasons, dict occurs, form, ident):
    """Add equation ``form = 0`` (input ``ident``) to the tables; False when
    its variables reduce away. See ``LinearTable.add``."""
    residual, reason = _rref_reduce(rows, reasons, form)
    cdef object pivot = None
    cdef bint unit, pivot_unit = False
    # Prefer a unit coefficient (keeps weights integral), then the newest variable.
    for k, v in (<dict>residual).items():
        if k >= 0:
            unit = v == 1 or v == -1
            if pivot is None or unit > pivot_unit or (unit == pivot_unit and k > pivot):
                pivot, pivot_unit = k, unit
    if pivot is None:
        return False
    cdef object scale = _inverse(residual[pivot])
    cdef dict row = {k: _qmul(v, scale) for k, v in (<dict>residual).items()}
    cdef object minus = -scale
    cdef dict why = {k: _qmul(v, minus) for k, v in (<dict>reason).items()}
    _axpy(why, scale, {ident: 1}, True)
    # Eliminate the new pivot from every row that mentions it.
    cdef dict orow
    cdef object coef
    # (occurs[pivot] loses each row as it goes: iterate over a sorted copy.)
    for other in sorted(occurs.get(pivot, ())):
        orow = <dict>rows[other]
        coef = orow[pivot]
        _eliminate(orow, other, -coef, row, occurs)
        _axpy(<dict>reasons[other], -coef, why, True)
    occurs.pop(pivot, None)
    rows[pivot] = row
    reasons[pivot] = why
    for k in row:
        if k >= 0 and k != pivot:
            found = occurs.get(k)
            if found is None:
                occurs[k] = {pivot}
            else:
                (<set>found).add(pivot)
    return True


# --- LatticeTable: Hermite form over the integers -------------------------------

cdef object _first_var(dict form):
    """The least variable (column >= 0) of ``form``, or None."""
    cdef Py_ssize_t pos = 0
    cdef PyObject *kp = NULL
    cdef PyObject *vp = NULL
    cdef long k, best = -1
    while PyDict_Next(form, &pos, &kp, &vp):
        k = <long><object>kp
        if k >= 0 and (best < 0 or k < best):
            best = k
    return None if best < 0 else best


cdef dict _combine(dict x, object cx, dict y, object cy):
    """cx·x + cy·y without zeros, as a new dict (x's keys first)."""
    cdef dict out = {}
    if cx:
        for k, v in x.items():
            out[k] = cx * v
    if cy:
        _axpy(out, cy, y, False)
    return out


cdef tuple _egcd(object a, object b):
    """(g, s, u) with s·a + u·b = g = gcd(a, b) > 0."""
    cdef object s0 = 1, s1 = 0, u0 = 0, u1 = 1, q
    while b:
        q, a, b = a // b, b, a % b
        s0, s1 = s1, s0 - q * s1
        u0, u1 = u1, u0 - q * u1
    if a < 0:
        a, s0, u0 = -a, -s0, -u0
    return a, s0, u0


cdef dict _integer_form(object form):
    """A copy of ``form`` without zeros, variable coefficients made ints."""
    cdef dict out = {}
    if type(form) is not dict:
        form = dict(form)
    for k, v in (<dict>form).items():
        if v:
            out[k] = v if (k < 0 or PyLong_CheckExact(v)) else int(v)
    return out


def hermite_reduce(dict rows, dict reasons, form):
    """(residual, reason) by greedy integer division at each pivot, in
    increasing column order; see ``LatticeTable.reduce``."""
    cdef dict out = _integer_form(form)
    cdef dict reason = {}
    cdef dict row
    cdef object v, p, t, q
    while True:
        v = _first_var(out)
        if v is None or v not in rows:
            return out, reason
        row = <dict>rows[v]
        p, t = row[v], out[v]
        if t % p:
            return out, reason
        q = t // p
        _axpy(out, -q, row, False)
        _axpy(reason, q, <dict>reasons[v], False)


def hermite_reduce_rational(dict rows, dict reasons, form):
    """Like :func:`hermite_reduce` with rational multiples of the rows; see
    ``LatticeTable.reduce_rational``."""
    cdef dict out = _rational_form(form)
    cdef dict reason = {}
    cdef dict row
    cdef object v, q
    while True:
        v = _first_var(out)
        if v is None or v not in rows:
            return out, reason
        row = <dict>rows[v]
        q = _qdiv(out[v], row[v])
        _axpy(out, -q, row, True)
        _axpy(reason, q, <dict>reasons[v], True)


def hermite_add(dict rows, dict reasons, form, ident):
    """Merge integer equation ``form = 0`` (input ``ident``) into the rows by
    unimodular steps; True if the rows changed. See ``LatticeTable.add``."""
    cdef dict out = _integer_form(form)
    cdef dict reason = {ident: 1}
    cdef dict row, why
    cdef object v, p, t, q, g, s, u
    cdef bint changed = False
    while True:
        v = _first_var(out)
        if v is None:
            return changed
        if v not in rows:
            if out[v] < 0:
                out = _combine(out, -1, {}, 0)
                reason = _combine(reason, -1, {}, 0)
            rows[v] = out
            reasons[v] = reason
            return True
        row, why = <dict>rows[v], <dict>reasons[v]
        p, t = row[v], out[v]
        if t % p == 0:
            q = t // p
            _axpy(out, -q, row, False)
            _axpy(reason, -q, why, False)
            continue
        g, s, u = _egcd(p, t)
        rows[v] = _combine(row, s, out, u)
        reasons[v] = _combine(why, s, reason, u)
        out = _combine(row, t // g, out, -(p // g))
        reason = _combine(why, t // g, reason, -(p // g))
        changed = True
