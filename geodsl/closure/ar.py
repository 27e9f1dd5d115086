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

from fractions import Fraction

from ..lang.ast import Constant
from .linear import Form, LatticeTable, LinearTable, integral

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


class _Table:
    """A linear table over pair variables, with equation ids mapped to facts."""

    def __init__(self) -> None:
        self.table = LinearTable()
        self.pair_var: dict[tuple[int, int], int] = {}
        self.eq_fact: list[tuple[int, ...]] = []
        self._memo: dict[tuple[object, ...], dict[int, Fraction] | None] = {}
        self._memo_version = -1
        self.next_var = 0
        self.linked: set[int] = set()
        """Variables already tied to a proven line (angle and distance tables)."""
        self.on_new_pair = lambda a, b, var: None  # type: ignore[assignment]
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

    def add(self, form: Form, fact: int | tuple[int, ...]) -> bool:
        """Add equation ``form = 0`` justified by a fact (or several)."""
        ident = len(self.eq_fact)
        self.eq_fact.append(fact if isinstance(fact, tuple) else (fact,))
        return self.table.add(form, ident)

    def _reduce(self, form: Form) -> tuple[Form, dict[int, Fraction]]:
        return self.table.reduce(form)

    def facts_of(self, reason: dict[int, Fraction]) -> tuple[int, ...]:
        return tuple(sorted({f for e, w in reason.items() if w for f in self.eq_fact[e]}))

    def cached(self, key: tuple[object, ...], compute) -> dict[int, Fraction] | None:  # type: ignore[no-untyped-def]
        if self._memo_version != self.table.version:
            self._memo = {}
            self._memo_version = self.table.version
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def zero(self, form: Form) -> tuple[int, ...] | None:
        """The facts whose equations reduce ``form`` to exactly zero, or None
        (remembered until the table changes)."""
        def compute() -> dict[int, Fraction] | None:
            residual, reason = self._reduce(form)
            return None if residual else reason

        reason = self.cached(tuple(sorted(form.items())), compute)
        return None if reason is None else self.facts_of(reason)

    QUERIES: frozenset[str] = frozenset()
    """The predicates this table can prove (its first form must vanish)."""

    def forms(self, name: str, args: tuple[object, ...]) -> list[Form]:
        return []

    def query(self, name: str, args: tuple[object, ...]) -> tuple[int, ...] | None:
        """The facts this table proves ``name args`` from, or None."""
        if name not in self.QUERIES:
            return None
        forms = self.forms(name, args)
        return self.zero(forms[0]) if forms else None


def _pairs_ok(*points: int) -> bool:
    return all(points[i] != points[i + 1] for i in range(0, len(points), 2))


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
        self.table = LatticeTable()  # type: ignore[assignment]
        self._rational_memo: dict[tuple[object, ...], dict[int, Fraction] | None] = {}
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
        return {} if x == y else {x: 1, y: -1}  # type: ignore[dict-item]

    def forms(self, name: str, args: tuple[object, ...]) -> list[Form]:
        """The equations (form ≡ 0 mod π) a fact gives, or [] if none."""
        p = args
        if name == "para" and _pairs_ok(*p[:4]):  # type: ignore[arg-type]
            return [self.angle(*p[:4])]  # type: ignore[arg-type]
        if name == "perp" and _pairs_ok(*p[:4]):  # type: ignore[arg-type]
            f = self.angle(*p[:4])  # type: ignore[arg-type]
            f[PI] = Fraction(-1, 2)
            return [f]
        if name == "eqangle" and _pairs_ok(*p):  # type: ignore[arg-type]
            return [subtract(self.angle(*p[:4]), self.angle(*p[4:]))]  # type: ignore[arg-type]
        if name == "aconst" and _pairs_ok(*p[:4]):  # type: ignore[arg-type]
            f = self.angle(*p[:4])  # type: ignore[arg-type]
            const = p[4]
            assert isinstance(const, Constant)
            if const.value % 1:
                f[PI] = -(Fraction(const.value) % 1)
            return [f]
        if name in ("simtri", "contri", "simtrir", "contrir"):
            a, b, c, x, y, z = p  # type: ignore[misc]
            if name in ("simtri", "contri"):
                return [subtract(self.angle(a, b, a, c), self.angle(x, y, x, z)),  # type: ignore[arg-type]
                        subtract(self.angle(b, a, b, c), self.angle(y, x, y, z))]  # type: ignore[arg-type]
            return [subtract(self.angle(a, b, a, c), self.angle(x, z, x, y)),  # type: ignore[arg-type]
                    subtract(self.angle(b, a, b, c), self.angle(y, z, y, x))]  # type: ignore[arg-type]
        return []

    def target(self, name: str, args: tuple[object, ...]) -> Form | None:
        if name in ("para", "perp", "eqangle", "aconst"):
            forms = self.forms(name, args)
            return forms[0] if forms else None
        return None

    def query_rational(self, name: str, args: tuple[object, ...]) -> tuple[int, ...] | None:
        """The facts of a *rational* combination giving ``name args``, or None.

        Weights like 1/2 divide an angle (∠(ab, ax) = ∠(ax, ac) makes ax one
        of the two bisectors): k·target ≡ 0 (mod π) is then proved for the
        common denominator k, and the target itself only up to a multiple of
        π/k. The caller accepts it only for a target that holds in the
        diagram, which picks the branch — as AlphaGeometry's and Newclid's
        angle chases do, but here marked as such in the proof."""
        form = self.target(name, args)
        if form is None:
            return None
        if self._rational_version != self.table.version:
            self._rational_memo = {}
            self._rational_version = self.table.version
        key = tuple(sorted(form.items()))
        if key not in self._rational_memo:
            if self._memo_version == self.table.version and self._memo.get(("stuck",) + key):
                # The integer reduction (query) stopped at a variable no row
                # has as pivot, every step before it exact: the rational
                # reduction takes the same steps and stops there too.
                self._rational_memo[key] = None
                return None
            residual, reason = self.table.reduce_rational(form)  # type: ignore[attr-defined]
            self._rational_memo[key] = None if any(k >= 0 for k in residual) else reason
        reason = self._rational_memo[key]
        return None if reason is None else self.facts_of(reason)

    def query(self, name: str, args: tuple[object, ...]) -> tuple[int, ...] | None:
        """The facts an angle chase proves ``name args`` from, or None."""
        form = self.target(name, args)
        if form is None:
            return None
        key = tuple(sorted(form.items()))

        def compute() -> dict[int, Fraction] | None:
            residual, reason = self._reduce(form)
            if any(k >= 0 for k in residual):
                first = min(k for k in residual if k >= 0)
                self._memo[("stuck",) + key] = first not in self.table.rows  # type: ignore[attr-defined]
                return None
            if Fraction(residual.get(PI, 0)).denominator != 1 or not integral(reason):  # type: ignore[arg-type]
                return None
            return reason  # type: ignore[return-value]

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

    def forms(self, name: str, args: tuple[object, ...]) -> list[Form]:
        p, one = args, Fraction(1)
        if name == "cong" and _pairs_ok(*p):  # type: ignore[arg-type]
            return [self.proportional(*p, one)]  # type: ignore[arg-type, misc]
        if name == "rconst" and _pairs_ok(*p[:4]):  # type: ignore[arg-type]
            const = p[4]
            assert isinstance(const, Constant)
            return [self.proportional(*p[:4], Fraction(const.value))]  # type: ignore[arg-type, misc]
        if name == "lconst" and _pairs_ok(*p[:2]):  # type: ignore[arg-type]
            const = p[2]
            assert isinstance(const, Constant)
            return [self.constant(*p[:2], Fraction(const.value))]  # type: ignore[arg-type, misc]
        if name == "midp":
            m, a, b = p  # type: ignore[misc]
            if m == a or m == b or a == b:
                return []
            return [self.proportional(m, a, m, b, one), self.proportional(a, b, m, a, Fraction(2))]  # type: ignore[arg-type]
        if name == "circle":
            o, a, b, c = p  # type: ignore[misc]
            if o in (a, b, c):
                return []
            return [self.proportional(o, a, o, b, one), self.proportional(o, a, o, c, one)]  # type: ignore[arg-type]
        if name in ("contri", "contrir"):
            a, b, c, x, y, z = p  # type: ignore[misc]
            return [self.proportional(a, b, x, y, one), self.proportional(b, c, y, z, one),  # type: ignore[arg-type]
                    self.proportional(c, a, z, x, one)]  # type: ignore[arg-type]
        return []


class RatioTable(_Segments):
    """Log-lengths of segments."""

    QUERIES = frozenset({"cong", "eqratio", "rconst", "lconst", "sideprod"})

    def length(self, a: int, b: int) -> Form:
        return {self.var(a, b): Fraction(1)}

    def ratio(self, a: int, b: int, c: int, d: int) -> Form:
        return subtract(self.length(a, b), self.length(c, d))

    def proportional(self, a: int, b: int, c: int, d: int, scale: Fraction) -> Form:
        return subtract(self.ratio(a, b, c, d), log_form(scale))

    def constant(self, a: int, b: int, value: Fraction) -> Form:
        return subtract(self.length(a, b), log_form(value))

    def forms(self, name: str, args: tuple[object, ...]) -> list[Form]:
        p = args
        if name == "eqratio" and _pairs_ok(*p):  # type: ignore[arg-type]
            return [subtract(self.ratio(*p[:4]), self.ratio(*p[4:]))]  # type: ignore[arg-type]
        if name == "sideprod" and _pairs_ok(p[1], p[3], p[3], p[2], p[2], p[4], p[4], p[0], p[0], p[5], p[5], p[1]):  # type: ignore[arg-type]
            a, b, c, d, e, f = p  # type: ignore[misc]
            return [subtract(subtract(self.ratio(b, d, d, c), self.ratio(e, a, c, e)),  # type: ignore[arg-type]
                             self.ratio(f, b, a, f))]  # type: ignore[arg-type]
        if name in ("simtri", "simtrir"):
            a, b, c, x, y, z = p  # type: ignore[misc]
            return [subtract(self.ratio(a, b, x, y), self.ratio(b, c, y, z)),  # type: ignore[arg-type]
                    subtract(self.ratio(a, b, x, y), self.ratio(c, a, z, x))]  # type: ignore[arg-type]
        return super().forms(name, args)


class _LengthPowers(_Segments):
    """Segments as a power of their lengths: |ab| (``POWER`` 1) or |ab|²
    (2). Every length equation is linear in either; constants are raised to
    the power, so they stay exact rationals."""

    POWER = 1
    QUERIES = frozenset({"cong", "rconst", "lconst"})

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

    def link(self, var: int, form: Form, reason: tuple[int, ...]) -> None:
        """Length variable ``var`` equals ``form`` (a signed difference)."""
        if var in self.linked:
            return
        self.linked.add(var)
        self.add(subtract({var: Fraction(1)}, form), reason)


class SquareTable(_LengthPowers):
    """Squared lengths, for Pythagoras and the perpendicularity criterion."""

    POWER = 2
    QUERIES = frozenset({"perp", "cong", "lconst", "rconst"})

    def perpendicular(self, a: int, b: int, c: int, d: int) -> Form:
        """|ac|² − |ad|² − |bc|² + |bd|²: zero exactly when ab ⟂ cd."""
        form: Form = {}
        for x, y, w in ((a, c, 1), (a, d, -1), (b, c, -1), (b, d, 1)):
            form = subtract(form, self.term(x, y, Fraction(-w)))
        return form

    def forms(self, name: str, args: tuple[object, ...]) -> list[Form]:
        if name == "perp" and _pairs_ok(*args):  # type: ignore[arg-type]
            form = self.perpendicular(*args)  # type: ignore[arg-type]
            return [form] if form else []
        return super().forms(name, args)


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
