"""AR: angle chasing and ratio chasing as exact linear algebra.

*Angles.* Every unordered point pair ``(a, b)`` has a variable: the direction
of line ab in units of π, known modulo 1. ``para``, ``perp``, ``eqangle``,
``aconst``, ``coll`` and the similar-triangle facts are linear equations in
those directions (constant column :data:`PI` carries the multiples of π). A
query (is ∠(ab, cd) = ∠(ef, gh)?) reduces a linear form; it succeeds when
nothing but an integer multiple of π is left *and* the combination of input
equations has integer weights (see :mod:`.linear`: only then is it sound mod π).

*Ratios.* Every pair has a second variable, log |ab|. ``cong``, ``eqratio``,
``rconst``, ``lconst``, ``midp``, ``circle`` and triangle facts are linear
equations; a constant ratio r contributes ``log r`` as exact exponents of
primes (one constant column per prime), so ``AB:AC = 1/2`` never becomes a
float. Lengths are positive reals, so any rational combination is sound.

*Distances.* Every pair has a third variable, the length |ab| itself, and
every point of a proven line a signed position along it. ``cong``,
``midp``, ``circle``, congruent triangles, ``lconst`` (a rational length on
constant column :data:`UNIT`) and ``rconst`` (ab = r·cd) are linear
equations in lengths; a midpoint on a proven line is also 2·pos m = pos a +
pos b, which holds whatever the order of the points. Linking a length to
positions (|ab| = ±(pos b − pos a)) needs the order of a and b along the
line: it is read from the diagrams, as AlphaGeometry does, and the link is
made only when every diagram agrees. This chase proves sums of segments
(ab + bc = ac, two midpoints' distance is half a side) that log-lengths
cannot express.

*Squared lengths.* A fourth table has a variable |ab|² per pair. Equal
lengths, constant lengths (squared: exact rationals), constant ratios
(squared), midpoints and circles are linear in squared lengths, and so is
perpendicularity: ab ⟂ cd exactly when |ac|² − |ad|² = |bc|² − |bd|² (with
c = a this is Pythagoras' theorem). So a right triangle with legs 3 and 4 has
hypotenuse 5, and two points each equidistant from a and b make a line
perpendicular to ab, by elimination alone.

Each input equation remembers its fact; a successful query returns the facts
with non-zero weight, the parents of the derived fact.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import NamedTuple, cast

from ..lang.constants import Constant
from ..lang.definitions import rulebase
from ..lang.equations import Equation, Term
from .facts import Args, Side
from .linear import Form, LatticeTable, LinearTable, Number, Reason, integral

Points = tuple[int, ...]
"""A fact's arguments read as points: every measure of an equation (∠(pq,
rs), |pq|) indexes point parameters, never constants."""
ConstTerm = tuple[Fraction, int | None, Fraction | None]
"""coef × (a number, or the constant argument at an index)."""
FactorTerm = tuple[int, int | None, Fraction | None]
"""(power, constant argument index or None, number or None)."""

PI = -1
"""Constant column of the angle table: one unit is π."""
UNIT = -1
"""Constant column of the distance table: one unit of length."""


def _prime_exponents(n: int) -> dict[int, int]:
    out: dict[int, int] = {}
    p = 2
    while p * p <= n:
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out


def log_form(value: Fraction) -> Form:
    """log(value) as exact exponents on the constant columns -p (p prime)."""
    out: Form = {}
    for p, e in _prime_exponents(value.numerator).items():
        out[-p] = out.get(-p, 0) + Fraction(e)
    for p, e in _prime_exponents(value.denominator).items():
        out[-p] = out.get(-p, 0) - Fraction(e)
    return {k: v for k, v in out.items() if v}


class Because(NamedTuple):
    """Why a table proves something: the facts of the equations it combined
    and the side conditions those equations rest on (the order of points a
    distance equation read from the figure, say)."""

    facts: tuple[int, ...]
    sides: tuple[Side, ...] = ()


def _no_link(a: int, b: int, var: int) -> None:
    return None


class _Table:
    """A linear table over pair variables, with equation ids mapped to facts."""

    def __init__(self) -> None:
        self.table: LinearTable | LatticeTable = LinearTable()
        self.pair_var: dict[tuple[int, int], int] = {}
        self.eq_fact: list[tuple[int, ...]] = []
        self.eq_side: list[tuple[Side, ...]] = []
        self._memo: dict[tuple[object, ...], Reason | None] = {}
        self._stuck: dict[tuple[object, ...], bool] = {}
        """Queries whose integer reduction stopped at a variable no row has as
        pivot (:meth:`AngleTable.query`), until the table changes."""
        self._memo_version = -1
        self.next_var = 0
        self.linked: set[int] = set()
        """Variables already tied to a proven line (angle and distance tables)."""
        self.on_new_pair: Callable[[int, int, int], None] = _no_link
        """Called for every new pair variable: the store links a pair of a
        proven line to that line at once."""

    def _new_var(self) -> int:
        self.next_var += 1
        return self.next_var - 1

    def var(self, a: int, b: int) -> int:
        """The variable of the unordered pair {a, b}."""
        key = (a, b) if a < b else (b, a)
        var = self.pair_var.get(key)
        if var is None:
            var = self.pair_var[key] = self._new_var()
            self.on_new_pair(key[0], key[1], var)
        return var

    def add(self, form: Form, fact: int | tuple[int, ...], sides: tuple[Side, ...] = ()) -> bool:
        """Add equation ``form = 0`` justified by a fact (or several) and
        resting on ``sides``."""
        ident = len(self.eq_fact)
        self.eq_fact.append(fact if isinstance(fact, tuple) else (fact,))
        self.eq_side.append(sides)
        return self.table.add(form, ident)

    def _reduce(self, form: Form) -> tuple[Form, Reason]:
        return self.table.reduce(form)

    def facts_of(self, reason: Reason) -> Because:
        """The facts and side conditions of the equations with a weight."""
        used = sorted(e for e, w in reason.items() if w)
        sides: dict[Side, None] = {}
        for e in used:
            sides.update(dict.fromkeys(self.eq_side[e]))
        return Because(tuple(sorted({f for e in used for f in self.eq_fact[e]})), tuple(sides))

    def cached(self, key: tuple[object, ...], compute: Callable[[], Reason | None]) -> Reason | None:
        if self._memo_version != self.table.version:
            self._memo = {}
            self._stuck = {}
            self._memo_version = self.table.version
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def zero(self, form: Form) -> Because | None:
        """The facts whose equations reduce ``form`` to exactly zero, or None
        (remembered until the table changes)."""
        def compute() -> Reason | None:
            residual, reason = self._reduce(form)
            return None if residual else reason

        reason = self.cached(tuple(sorted(form.items())), compute)
        return None if reason is None else self.facts_of(reason)

    TABLES: tuple[str, ...] = ()
    """The predicates' equation lines this table reads (``angles``, ...)."""

    @classmethod
    def equations(cls, name: str) -> tuple[Equation, ...]:
        """The equations predicate ``name`` contributes to this table."""
        return _equations(name, cls.TABLES)

    @classmethod
    def proves(cls, name: str) -> bool:
        """Whether this table can prove ``name``: it has exactly one equation
        for the table, which is then equivalent to the fact."""
        return len(cls.equations(name)) == 1

    def forms(self, name: str, args: Args) -> list[Form]:
        """The equations (form = 0) a fact gives, or [] if none."""
        return []

    def query(self, name: str, args: Args) -> Because | None:
        """Why this table proves ``name args``, or None."""
        if not self.proves(name):
            return None
        forms = self.forms(name, args)
        return self.zero(forms[0]) if forms else None


class AngleTable(_Table):
    """Line directions mod π.

    Every point pair has its own direction variable, and every proven line
    (a group of collinear points, kept by the store) has one too. A pair on
    a line is *linked* to it by an equation pair = line, justified by the
    collinearity facts that put the pair's points and the line's anchor pair
    on one line; a merged line is linked to the line that absorbed it the same
    way. So every chase carries its collinearity facts in its reason.
    """

    def __init__(self) -> None:
        super().__init__()
        self.table = self.lattice = LatticeTable()
        self._rational_memo: dict[tuple[object, ...], Reason | None] = {}
        self._rational_version = -1
        self.line_vars: dict[int, int] = {}

    def line_var(self, group: int) -> int:
        var = self.line_vars.get(group)
        if var is None:
            var = self.line_vars[group] = self._new_var()
        return var

    def link(self, old: int, new: int, reason: tuple[int, ...]) -> None:
        """Variable ``old`` (a pair or a merged line) is the direction ``new``."""
        if old in self.linked or old == new:
            return
        self.linked.add(old)
        self.add({old: Fraction(1), new: Fraction(-1)}, reason)

    def angle(self, a: int, b: int, c: int, d: int) -> Form:
        """The form of ∠(ab, cd) = dir(cd) − dir(ab)."""
        x, y = self.var(c, d), self.var(a, b)
        return {} if x == y else {x: 1, y: -1}

    TABLES = ("angles",)

    def forms(self, name: str, args: Args) -> list[Form]:
        """The equations (form ≡ 0 mod π) a fact gives, or [] if none: Σ
        coef·(dir rs − dir pq) over its angles ∠(pq, rs), the constant on
        column :data:`PI` (mod 1). An angle at a point with itself is
        undefined: such a fact gives nothing."""
        compiled = _angle_equations(name)
        pts = cast(Points, args)
        for terms, _ in compiled:
            for _, p, q, r, s_ in terms:
                if pts[p] == pts[q] or pts[r] == pts[s_]:
                    return []
        out = []
        for terms, consts in compiled:
            form: Form = {}
            for coef, p, q, r, s_ in terms:
                x, y = self.var(pts[r], pts[s_]), self.var(pts[p], pts[q])
                if x != y:
                    _accumulate(form, x, coef)
                    _accumulate(form, y, -coef)
            constant = _constant(consts, args)
            if constant % 1:
                form[PI] = -(-constant % 1)
            out.append(form)
        return out

    def target(self, name: str, args: Args) -> Form | None:
        if self.proves(name):
            forms = self.forms(name, args)
            return forms[0] if forms else None
        return None

    def query_rational(self, name: str, args: Args) -> tuple[Because, int] | None:
        """A *rational* combination giving ``name args``: why, and the common
        denominator k of its weights; or None.

        Weights like 1/2 divide an angle (∠(ab, ax) = ∠(ax, ac) makes ax one
        of the two bisectors): k·target ≡ 0 (mod π) is then proved, and the
        target itself only up to a multiple of π/k. The caller accepts it
        for a target that holds in the figure and states the side condition
        that rules out the other branches (:meth:`Store.branch_sides`)."""
        form = self.target(name, args)
        if form is None:
            return None
        if self._rational_version != self.table.version:
            self._rational_memo = {}
            self._rational_version = self.table.version
        key = tuple(sorted(form.items()))
        if key not in self._rational_memo:
            if self._memo_version == self.table.version and self._stuck.get(key):
                # The integer reduction (query) stopped at a variable no row
                # has as pivot, every step before it exact: the rational
                # reduction takes the same steps and stops there too.
                self._rational_memo[key] = None
                return None
            residual, weights = self.lattice.reduce_rational(form)
            self._rational_memo[key] = None if any(k >= 0 for k in residual) else weights
        reason = self._rational_memo[key]
        if reason is None:
            return None
        k = 1
        for w in reason.values():
            k = math.lcm(k, Fraction(w).denominator)
        return self.facts_of(reason), k

    def query(self, name: str, args: Args) -> Because | None:
        """Why an angle chase proves ``name args``, or None."""
        form = self.target(name, args)
        if form is None:
            return None
        key = tuple(sorted(form.items()))

        def compute() -> Reason | None:
            residual, reason = self._reduce(form)
            if any(k >= 0 for k in residual):
                first = min(k for k in residual if k >= 0)
                self._stuck[key] = first not in self.lattice.rows
                return None
            if Fraction(residual.get(PI, 0)).denominator != 1 or not integral(reason):
                return None
            return reason

        reason = self.cached(key, compute)
        return None if reason is None else self.facts_of(reason)


class _Segments(_Table):
    """A table whose variables measure segments (log |ab|, |ab| or |ab|²).

    The facts that only say how long segments are — equal, proportional and
    constant lengths, midpoints, circles, congruent triangles — give the same
    equations in each such table; the tables differ only in how "|ab| =
    s·|cd|" and "|ab| = v" are written (:meth:`proportional`,
    :meth:`constant`)."""

    def proportional(self, a: int, b: int, c: int, d: int, scale: Fraction) -> Form:
        """The equation |ab| = scale·|cd|."""
        raise NotImplementedError

    def constant(self, a: int, b: int, value: Fraction) -> Form:
        """The equation |ab| = value."""
        raise NotImplementedError

    TABLES: tuple[str, ...] = ("lengths",)

    def forms(self, name: str, args: Args) -> list[Form]:
        """The ``lengths:`` equations of a fact; none if a segment of them
        joins a point to itself."""
        compiled = _length_equations(name)
        pts = cast(Points, args)
        for (p, q), right, _ in compiled:
            if pts[p] == pts[q] or (right is not None and pts[right[0]] == pts[right[1]]):
                return []
        out = []
        for (p, q), right, scale in compiled:
            value = _constant(scale, args)
            if right is None:
                out.append(self.constant(pts[p], pts[q], value))
            else:
                out.append(self.proportional(pts[p], pts[q], pts[right[0]], pts[right[1]], value))
        return out


class RatioTable(_Segments):
    """Log-lengths of segments."""

    TABLES = ("ratios", "lengths")

    def length(self, a: int, b: int) -> Form:
        return {self.var(a, b): Fraction(1)}

    def ratio(self, a: int, b: int, c: int, d: int) -> Form:
        return subtract(self.length(a, b), self.length(c, d))

    def proportional(self, a: int, b: int, c: int, d: int, scale: Fraction) -> Form:
        return subtract(self.ratio(a, b, c, d), log_form(scale))

    def constant(self, a: int, b: int, value: Fraction) -> Form:
        return subtract(self.length(a, b), log_form(value))

    def forms(self, name: str, args: Args) -> list[Form]:
        """The ``ratios:`` equations as Σ ±log |pq| − log(constant) = 0 (none if a
        segment joins a point to itself), then the ``lengths:`` equations."""
        compiled = _ratio_equations(name)
        pts = cast(Points, args)
        for terms, _ in compiled:
            for _, p, q in terms:
                if pts[p] == pts[q]:
                    return super().forms(name, args)
        out = []
        for terms, consts in compiled:
            form: Form = {}
            for power, p, q in terms:
                _accumulate(form, self.var(pts[p], pts[q]), Fraction(power))
            value = _product(consts, args)
            out.append(subtract(form, log_form(value)) if value != 1 else form)
        return out + super().forms(name, args)


class _LengthPowers(_Segments):
    """Segments as a power of their lengths: |ab| (``POWER`` 1) or |ab|²
    (2). Every length equation is linear in either; constants are raised to
    the power, so they stay exact rationals."""

    POWER = 1

    def term(self, a: int, b: int, scale: Fraction = Fraction(1)) -> Form:
        """scale·|ab|^POWER (nothing for a point with itself)."""
        return {} if a == b else {self.var(a, b): scale}

    def proportional(self, a: int, b: int, c: int, d: int, scale: Fraction) -> Form:
        return subtract(self.term(a, b), self.term(c, d, scale ** self.POWER))

    def constant(self, a: int, b: int, value: Fraction) -> Form:
        return subtract(self.term(a, b), {UNIT: value ** self.POWER})


class DistanceTable(_LengthPowers):
    """Lengths of segments, and signed positions of points along proven lines.

    A segment has a length variable |ab| (unsigned). Each proven line has a
    position variable per point (signed, along the line's own orientation);
    a segment on the line is *linked* to it by |ab| = ±(pos b − pos a), the
    sign read from the diagrams, and a line merged into another is linked to
    it point by point. Equations among positions of one line alone (a
    midpoint: 2·pos m = pos a + pos b) hold whatever the order of the points,
    so they never need the diagram at all. The store decides which points are
    on which line and supplies the collinearity facts that justify it.
    """

    def __init__(self) -> None:
        super().__init__()
        self.pos_vars: dict[tuple[int, int], int] = {}

    def pos(self, line: int, p: int) -> int:
        """The position variable of point p on line ``line``."""
        var = self.pos_vars.get((line, p))
        if var is None:
            var = self.pos_vars[(line, p)] = self._new_var()
        return var

    def signed(self, line: int, a: int, b: int, sign: int = 1) -> Form:
        """sign·(pos b − pos a) on ``line``."""
        return {self.pos(line, b): Fraction(sign), self.pos(line, a): Fraction(-sign)}

    def link(self, var: int, form: Form, reason: tuple[int, ...], sides: tuple[Side, ...] = ()) -> None:
        """Length variable ``var`` equals ``form`` (a signed difference)."""
        if var in self.linked:
            return
        self.linked.add(var)
        self.add(subtract({var: Fraction(1)}, form), reason, sides)


class SquareTable(_LengthPowers):
    """Squared lengths, for Pythagoras and the perpendicularity criterion."""

    POWER = 2
    TABLES = ("squares", "lengths")

    def forms(self, name: str, args: Args) -> list[Form]:
        """The ``squares:`` equations (a segment from a point to itself has
        length 0 and drops out; an equation with nothing left says nothing),
        then the ``lengths:`` equations."""
        out = []
        pts = cast(Points, args)
        for terms, consts in _square_equations(name):
            form: Form = {}
            for coef, param, p, q in terms:
                scale = coef if param is None else coef * _argument(args, param)
                form = subtract(form, self.term(pts[p], pts[q], -scale))
            constant = _constant(consts, args)
            if constant:
                _accumulate(form, UNIT, constant)
            if form:
                out.append(form)
        return out + super().forms(name, args)


def subtract(f: Form, g: Form) -> Form:
    """f − g (coefficients stay ints where they are ints)."""
    out = dict(f)
    for k, v in g.items():
        nv = out.get(k, 0) - v
        if nv:
            out[k] = nv
        else:
            out.pop(k, None)
    return out


def _accumulate(form: Form, var: int, coef: Number) -> None:
    value = form.get(var, 0) + coef
    if value:
        form[var] = value
    else:
        form.pop(var, None)


def _integer(value: Fraction) -> Number:
    """An integral coefficient as an int (the tables' fast path)."""
    return int(value) if value.denominator == 1 else value


def _argument(args: Args, index: int) -> Fraction:
    arg = args[index]
    assert isinstance(arg, Constant), "equations multiply by constant parameters only"
    return Fraction(arg.value)


def _constant(consts: tuple[ConstTerm, ...], args: Args) -> Fraction:
    """Σ coef·(number or constant argument)."""
    total = Fraction(0)
    for coef, param, number in consts:
        total += coef * (_argument(args, param) if param is not None else Fraction(number or 0))
    return total


def _product(consts: tuple[FactorTerm, ...], args: Args) -> Fraction:
    """Π (number or constant argument)^power."""
    total = Fraction(1)
    for power, param, number in consts:
        value = _argument(args, param) if param is not None else Fraction(number or 0)
        total = total * value if power > 0 else total / value
    return total


@cache
def _equations(name: str, tables: tuple[str, ...]) -> tuple[Equation, ...]:
    pdef = rulebase().predicates.get(name)
    if pdef is None:
        return ()
    return tuple(eq for t in tables for eq in pdef.equations.get(t, ()))


AngleEquation = tuple[tuple[tuple[Number, int, int, int, int], ...], tuple[ConstTerm, ...]]
LengthEquation = tuple[tuple[int, int], tuple[int, int] | None, tuple[ConstTerm, ...]]
RatioEquation = tuple[tuple[tuple[int, int, int], ...], tuple[FactorTerm, ...]]


@cache
def _angle_equations(name: str) -> tuple[AngleEquation, ...]:
    """Each ``angles:`` equation as (coef, p, q, r, s) per angle ∠(pq, rs)
    and the constant terms, of left − right."""
    out = []
    for eq in _equations(name, ("angles",)):
        atoms, consts = eq.linear()
        terms = tuple((_integer(c), *_four(a.points)) for c, a in atoms)
        constants = tuple((c, None, Fraction(1)) if p is None else (c, p, None) for c, p in consts)
        out.append((terms, constants))
    return tuple(out)


def _four(points: tuple[int, ...]) -> tuple[int, int, int, int]:
    p, q, r, s = points
    return p, q, r, s


def _two(points: tuple[int, ...]) -> tuple[int, int]:
    p, q = points
    return p, q


def _measured(term: Term) -> tuple[int, int] | None:
    """The segment a ``lengths:`` side measures (checked on reading: at most one)."""
    for f in term.factors:
        if f.atom is not None:
            return _two(f.atom.points)
    return None


@cache
def _length_equations(name: str) -> tuple[LengthEquation, ...]:
    """Each ``lengths:`` equation |pq| = scale·|rs| (``rs`` None: |pq| = scale),
    the scale a product of numbers and constant arguments (as one term)."""
    out = []
    for eq in _equations(name, ("lengths",)):
        (left,), (right,) = eq.left, eq.right
        pq = _measured(left)
        assert pq is not None, "the left side of a lengths equation has a length (checked on reading)"
        out.append((pq, _measured(right), _scale(right, left)))
    return tuple(out)


def _scale(num: Term, den: Term) -> tuple[ConstTerm, ...]:
    """The constant factors of ``num`` over those of ``den`` as one term for
    :func:`_constant`: a number, or a number times one constant argument."""
    number, param = Fraction(1), None
    for term, power in ((num, 1), (den, -1)):
        for f in term.factors:
            if f.atom is not None:
                continue
            if f.number is not None:
                number = number * f.number if f.power * power > 0 else number / f.number
            else:
                if param is not None or f.power * power < 0:
                    raise ValueError("a lengths equation scales by at most one constant argument")
                param = f.param
    return ((number, param, None if param is not None else Fraction(1)),)


@cache
def _ratio_equations(name: str) -> tuple[RatioEquation, ...]:
    """Each ``ratios:`` equation as (power, p, q) per length, left over
    right, and the constant factors as (power, param, number)."""
    out = []
    for eq in _equations(name, ("ratios",)):
        terms: list[tuple[int, int, int]] = []
        consts: list[FactorTerm] = []
        for side, sign in ((eq.left[0], 1), (eq.right[0], -1)):
            for f in side.factors:
                if f.atom is not None:
                    terms.append((sign * f.power, *_two(f.atom.points)))
                else:
                    consts.append((-sign * f.power, f.param, f.number))
        out.append((tuple(terms), tuple(consts)))
    return tuple(out)


@cache
def _square_equations(name: str) -> tuple[tuple[tuple[tuple[Fraction, int | None, int, int], ...],
                                                tuple[ConstTerm, ...]], ...]:
    """Each ``squares:`` equation as (coef, scaling parameter or None, p, q)
    per |pq|², and its constant terms, left − right."""
    out = []
    for eq in _equations(name, ("squares",)):
        atoms, consts = eq.scaled()
        out.append((tuple((c, param, *_two(a.points)) for c, param, a in atoms),
                    tuple((c, None, Fraction(1)) if p is None else (c, p, None) for c, p in consts)))
    return tuple(out)
