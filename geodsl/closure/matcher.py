"""Numeric rule matching: every way a rule's points can be bound so that its
premises, side conditions *and conclusions* hold in the diagram.

This is the "conclusion-driven" half of DD. The symbolic store is only asked
to prove the premises of a binding that is numerically a true instance of the
whole rule, and since the diagram's structures never change, each rule is
matched once per problem; each level then only re-tries the bindings that
have not fired yet.

The search binds variables constraint by constraint. At each step it takes
the constraint (premise or conclusion) with the fewest expected candidates
and enumerates its numerically true instances from the diagram's structures
(:class:`~.numeric.NumericModel`): points on a line or circle, segments of a
length class, lines of a direction class, line pairs at an angle found by
looking up the missing direction, ... A constraint the structures cannot
enumerate binds one variable over all points (the fallback), and every
constraint is checked numerically as soon as its points are bound. Rule
variables may share points unless that makes an atom degenerate
(:func:`degenerate`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from itertools import permutations

from .numeric import NumericModel
from .ruleset import Atom, RuleSpec

Pattern = tuple[int | None, ...]

SIDE = ("ncoll", "npara", "nperp", "diff", "sameside")
ANGLE_SIGNS = (-1, 1, 1, -1)
"""eqangle a b c d e f g h: −dir(ab) + dir(cd) + dir(ef) − dir(gh) ≡ 0 (mod π)."""
RATIO_SIGNS = (1, -1, -1, 1)
"""eqratio a b c d e f g h: log|ab| − log|cd| − log|ef| + log|gh| = 0."""
HUGE = 10 ** 12


class BudgetExceeded(Exception):
    """The matcher ran past its deadline or its match cap."""


class Matcher:
    """Numerically true instances of rules in one diagram."""

    def __init__(self, model: NumericModel, deadline: float = math.inf,
                 max_matches: int = 100_000) -> None:
        self.m = model
        self.deadline = deadline
        self.max_matches = max_matches
        self.coll_lines = [ln for ln in model.lines if len(ln) >= 3]
        mids: list[tuple[int, int, int]] = []
        for (a, b), mid in sorted(model.midpoint.items()):
            mids += [(mid, a, b), (mid, b, a)]
        self.mids = mids
        self._ticks = 0

    # ------------------------------------------------------------ search

    def matches(self, rule: RuleSpec) -> list[tuple[int, ...]]:
        """Bindings (points in ``rule.variables`` order) of every numerically
        true instance. Raises :class:`BudgetExceeded` past the deadline."""
        index = {v: i for i, v in enumerate(rule.variables)}
        cons: list[tuple[str, tuple[object, ...], bool]] = []
        for name, args in rule.premises + rule.conclusions:
            cons.append((name, tuple(index[a] if isinstance(a, str) else a for a in args), False))
        for name, args in rule.sides:
            cons.append((name, tuple(index[a] if isinstance(a, str) else a for a in args), True))
        out: list[tuple[int, ...]] = []
        binding: list[int | None] = [None] * len(rule.variables)
        self._search(cons, binding, list(range(len(cons))), out)
        return out

    def _search(self, cons: list[tuple[str, tuple[object, ...], bool]], binding: list[int | None],
                open_: list[int], out: list[tuple[int, ...]]) -> None:
        self._ticks += 1
        if self._ticks % 256 == 0 and time.monotonic() > self.deadline:
            raise BudgetExceeded("matching")
        still: list[int] = []
        for ci in open_:
            name, args, _ = cons[ci]
            if all(not isinstance(a, int) or binding[a] is not None for a in args):
                values = tuple(binding[a] if isinstance(a, int) else a for a in args)
                if degenerate(name, values) or not self.m.holds(name, values):
                    return
            else:
                still.append(ci)
        if not still:
            out.append(tuple(binding))  # type: ignore[arg-type]
            if len(out) > self.max_matches:
                raise BudgetExceeded("matches")
            return
        best, best_cost = -1, HUGE * 10
        for ci in still:
            name, args, side = cons[ci]
            cost = HUGE if side else self._cost(name, self._pattern(args, binding))
            if cost < best_cost:
                best, best_cost = ci, cost
        name, args, side = cons[best]
        if best_cost >= HUGE:
            # Fallback: bind the first unbound variable of the constraint to every point.
            var = next(a for a in args if isinstance(a, int) and binding[a] is None)
            for p in range(self.m.n):
                binding[var] = p
                self._search(cons, binding, still, out)
            binding[var] = None
            return
        pattern = self._pattern(args, binding)
        for values in self._enumerate(name, pattern):
            changed: list[int] = []
            ok = True
            for a, v in zip(args, values):
                if not isinstance(a, int):
                    continue
                cur = binding[a]
                if cur is None:
                    binding[a] = v
                    changed.append(a)
                elif cur != v:
                    ok = False
                    break
            if ok:
                self._search(cons, binding, still, out)
            for a in changed:
                binding[a] = None

    @staticmethod
    def _pattern(args: tuple[object, ...], binding: Sequence[int | None]) -> Pattern:
        return tuple(binding[a] if isinstance(a, int) else -1 for a in args)

    # ------------------------------------------------------------ costs

    def _cost(self, name: str, pat: Pattern) -> int:
        free = sum(1 for p in pat if p is None)
        n = self.m.n
        if name == "coll":
            return (0, 3, 30, 300)[free]
        if name == "cyclic":
            return (0, 3, 20, 100, 1000)[free]
        if name == "midp":
            return (0, 1, 5, 40)[free]
        if name == "circle":
            return (3 ** free) * (1 if pat[0] is not None else n * 10)
        if name in ("cong", "para", "perp"):
            full = self._full_slots(pat, 2)
            return 20 if full else 2000 + n * n
        if name in ("eqangle", "eqratio"):
            full = self._full_slots(pat, 4)
            return 10 if full >= 3 else 400 if full == 2 else HUGE
        if name in ("simtri", "simtrir", "contri", "contrir"):
            return 5 if None not in pat[:3] or None not in pat[3:] else 3000
        return HUGE

    @staticmethod
    def _full_slots(pat: Pattern, slots: int) -> int:
        return sum(1 for s in range(slots) if pat[2 * s] is not None and pat[2 * s + 1] is not None)

    # ------------------------------------------------------------ enumerators

    def _enumerate(self, name: str, pat: Pattern) -> Iterator[tuple[int, ...]]:
        m = self.m
        if name == "coll":
            bound = [p for p in pat if p is not None]
            if len(set(bound)) >= 2:
                ln = m.lines[m.line(bound[0], next(b for b in bound if b != bound[0]))]
                yield from _orderings([ln] if len(ln) >= 3 else [], pat)
            else:
                yield from _orderings(self.coll_lines, pat)
        elif name == "cyclic":
            yield from _orderings(m.circles, pat)
        elif name == "midp":
            for t in self.mids:
                if all(p is None or p == v for p, v in zip(pat, t)):
                    yield t
        elif name == "circle":
            centres = [pat[0]] if pat[0] is not None else range(m.n)
            for o in centres:
                groups = [g for g in m.centred[o] if len(g) >= 3]  # type: ignore[index]
                for t in _orderings(groups, pat[1:]):
                    yield (o,) + t  # type: ignore[operator]
        elif name in ("para", "perp"):
            yield from self._line_pairs(pat, math.pi / 2 if name == "perp" else 0.0)
        elif name == "cong":
            yield from self._segment_pairs(pat)
        elif name == "eqangle":
            yield from self._four_slots(pat, angles=True)
        elif name == "eqratio":
            yield from self._four_slots(pat, angles=False)
        elif name in ("simtri", "simtrir", "contri", "contrir"):
            yield from self._similar(pat, reflected=name.endswith("r"))

    def _similar(self, pat: Pattern, reflected: bool) -> Iterator[tuple[int, ...]]:
        """Triangle pairs of equal (or, reflected, conjugate) shape."""
        m = self.m
        if None in pat[:3] and None not in pat[3:]:
            for t in self._similar(pat[3:] + pat[:3], reflected):
                yield t[3:] + t[:3]
            return
        if None not in pat[:3]:
            firsts: Iterator[tuple[int, int, int]] = iter([pat[:3]])  # type: ignore[list-item]
        else:
            m.shape_class_at(0j)  # builds the index
            firsts = (t for cls in m.shape_classes if len(cls) > 1 or reflected for t in cls)
        for a, b, c in firsts:
            if m.holds("coll", (a, b, c)):
                continue
            z = m.shape(a, b, c)
            k = m.shape_class_at(z.conjugate() if reflected else z)
            if k is None:
                continue
            for p, q, r in m.shape_classes[k]:
                if all(x is None or x == y for x, y in zip(pat, (a, b, c, p, q, r))):
                    yield a, b, c, p, q, r

    def _pairs_on_lines(self, lines: Sequence[int], a: int | None, b: int | None) -> Iterator[tuple[int, int]]:
        for li in lines:
            pts = self.m.lines[li]
            for p in pts:
                if a is not None and p != a:
                    continue
                for q in pts:
                    if q != p and (b is None or q == b):
                        yield p, q

    def _slot_lines(self, a: int | None, b: int | None) -> list[int]:
        """Lines a slot (a, b) can lie on."""
        m = self.m
        if a is not None and b is not None:
            return [m.line(a, b)] if a != b else []
        if a is not None or b is not None:
            return list(m.lines_through[a if a is not None else b])  # type: ignore[index]
        return list(range(len(m.lines)))

    def _line_pairs(self, pat: Pattern, turn: float) -> Iterator[tuple[int, ...]]:
        m = self.m
        a, b, c, d = pat
        if (a is None or b is None) and c is not None and d is not None:
            for t in self._line_pairs((c, d, a, b), turn):
                yield t[2:] + t[:2]
            return
        for li in self._slot_lines(a, b):
            target = m.dir_class_at(m.dir_values[m.dir_of[li]] + turn)
            if target is None:
                continue
            others = m.dir_classes[target]
            for p, q in self._pairs_on_lines([li], a, b):
                for r, s in self._pairs_on_lines(others, c, d):
                    yield p, q, r, s

    def _segment_pairs(self, pat: Pattern) -> Iterator[tuple[int, ...]]:
        m = self.m
        a, b, c, d = pat
        if (a is None or b is None) and c is not None and d is not None:
            for t in self._segment_pairs((c, d, a, b)):
                yield t[2:] + t[:2]
            return
        for p, q in self._slot_segments(a, b):
            cls = m.len_classes[m.length_class(p, q)]
            for r, s in _oriented(cls, c, d):
                if {r, s} != {p, q}:
                    yield p, q, r, s

    def _slot_segments(self, a: int | None, b: int | None) -> Iterator[tuple[int, int]]:
        n = self.m.n
        for p in ([a] if a is not None else range(n)):
            for q in ([b] if b is not None else range(n)):
                if p != q:
                    yield p, q  # type: ignore[misc]

    def _four_slots(self, pat: Pattern, angles: bool) -> Iterator[tuple[int, ...]]:
        """eqangle / eqratio with at least two slots bound: enumerate all but
        one free slot, compute the last one's direction (length), look it up."""
        m = self.m
        signs = ANGLE_SIGNS if angles else RATIO_SIGNS
        slots = [(pat[2 * i], pat[2 * i + 1]) for i in range(4)]
        free = [i for i, (a, b) in enumerate(slots) if a is None or b is None]
        if not free:
            yield pat  # type: ignore[misc]
            return
        last = free[-1]
        enum = free[:-1]

        def value(p: int, q: int) -> float:
            return m.direction(p, q) if angles else m.log_length(p, q)

        def options(i: int) -> Iterator[tuple[int, int]]:
            a, b = slots[i]
            if angles:
                yield from self._pairs_on_lines(self._slot_lines(a, b), a, b)
            else:
                yield from self._slot_segments(a, b)

        def rec(k: int, chosen: dict[int, tuple[int, int]]) -> Iterator[tuple[int, ...]]:
            if k < len(enum):
                for pq in options(enum[k]):
                    chosen[enum[k]] = pq
                    yield from rec(k + 1, chosen)
                del chosen[enum[k]]
                return
            total = 0.0
            for i in range(4):
                if i == last:
                    continue
                p, q = chosen[i] if i in chosen else slots[i]
                total += signs[i] * value(p, q)  # type: ignore[arg-type]
            want = -signs[last] * total
            a, b = slots[last]
            if angles:
                cls = m.dir_class_at(want)
                if cls is None:
                    return
                pairs: Iterator[tuple[int, int]] = self._pairs_on_lines(m.dir_classes[cls], a, b)
            else:
                lc = m.length_class_at(math.exp(want))
                if lc is None:
                    return
                pairs = _oriented(m.len_classes[lc], a, b)
            for pq in pairs:
                full = [chosen[i] if i in chosen else (pq if i == last else slots[i]) for i in range(4)]
                yield tuple(x for s in full for x in s)  # type: ignore[misc]

        yield from rec(0, {})


def degenerate(name: str, v: tuple[object, ...]) -> bool:
    """A binding that makes an atom meaningless or trivially true: a line or
    segment through one point, repeated points of a collinearity, circle,
    midpoint or triangle, or a relation between a thing and itself.

    Rule variables may otherwise share points (two triangles with a common
    vertex), as in AlphaGeometry.
    """
    if name in ("coll", "ncoll", "cyclic", "midp", "circle"):
        return len(set(v)) != len(v)
    if name in ("para", "perp", "cong", "npara", "nperp"):
        a, b, c, d = v
        return a == b or c == d or {a, b} == {c, d}
    if name in ("eqangle", "eqratio"):
        pairs = [frozenset(v[i:i + 2]) for i in range(0, 8, 2)]
        return any(len(p) < 2 for p in pairs) or (pairs[0] == pairs[2] and pairs[1] == pairs[3]) \
            or (pairs[0] == pairs[1] and pairs[2] == pairs[3])
    if name in ("simtri", "simtrir", "contri", "contrir"):
        return len(set(v[:3])) < 3 or len(set(v[3:])) < 3 or v[:3] == v[3:]
    if name in ("aconst", "rconst"):
        return v[0] == v[1] or v[2] == v[3]
    if name in ("lconst", "diff"):
        return v[0] == v[1]
    return False


def _orderings(sets: Sequence[Sequence[int]], pat: Pattern) -> Iterator[tuple[int, ...]]:
    """Ordered tuples of distinct points of one set that agree with ``pat``."""
    bound = [p for p in pat if p is not None]
    free = [i for i, p in enumerate(pat) if p is None]
    for s in sets:
        if not all(p in s for p in bound):
            continue
        rest = [p for p in s if p not in bound]
        for combo in permutations(rest, len(free)):
            out = list(pat)
            for i, p in zip(free, combo):
                out[i] = p
            yield tuple(out)  # type: ignore[arg-type]


def _oriented(segments: Sequence[tuple[int, int]], a: int | None, b: int | None) -> Iterator[tuple[int, int]]:
    for p, q in segments:
        for r, s in ((p, q), (q, p)):
            if (a is None or r == a) and (b is None or s == b):
                yield r, s
