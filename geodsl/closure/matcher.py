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
variables may share points (two triangles with a common vertex, as in
AlphaGeometry) unless that makes an atom degenerate: a line or segment
through one point, repeated points of a collinearity, circle, midpoint or
triangle, or a relation between a thing and itself (``_match.DEGENERACY``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from itertools import permutations, product

from .. import _match
from .numeric import NumericModel
from .ruleset import RuleSpec

Pattern = tuple[int | None, ...]

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
        self._similar_pairs: dict[tuple[bool, bool], list[tuple[int, ...]]] = {}
        self._enumerated: dict[tuple[str, Pattern], list[tuple[int, ...]]] = {}
        """(predicate, pattern) -> its true instances. The diagram never
        changes, and the searches of all rules ask the same questions again
        and again (nine in ten ``coll`` and ``cong`` enumerations repeat)."""

    # ------------------------------------------------------------ search

    def matches(self, rule: RuleSpec) -> list[tuple[int, ...]]:
        """Bindings (points in ``rule.variables`` order) of every numerically
        true instance. Raises :class:`BudgetExceeded` past the deadline.

        The search loop is compiled (``ext/match.pyx``); this side supplies
        the geometry: numeric checks, cost estimates and enumerators."""
        index = {v: i for i, v in enumerate(rule.variables)}
        atoms = list(rule.premises + rule.conclusions) + list(rule.sides)
        names = [name for name, _ in atoms]
        cons_vars = [[index[a] if isinstance(a, str) else -1 for a in args] for _, args in atoms]
        consts = [tuple(a for a in args) for _, args in atoms]
        side = [False] * (len(atoms) - len(rule.sides)) + [True] * len(rule.sides)
        holds = self.m.holds

        plain = [all(isinstance(a, str) for a in args) for args in consts]

        fast = self.m.fast_checks
        memo = self.m.memo
        direct = [fast.get(name) if ok and len(cv) == fast.get(name, (None, -1))[1] else None
                  for name, ok, cv in zip(names, plain, cons_vars)]

        def check(ci: int, values: tuple[int, ...]) -> bool:
            f = direct[ci]
            if f is not None:
                # NumericModel.holds for an all-points atom with a fast check
                # (the search already missed the memo).
                found = memo[(names[ci], values)] = f[0](*values)
                return found
            if plain[ci]:
                return holds(names[ci], values)
            args = tuple(v if isinstance(c, str) else c for v, c in zip(values, consts[ci]))
            return holds(names[ci], args)

        def cost(ci: int, pattern: Pattern) -> int:
            return self._cost(names[ci], pattern)

        enumerated = self._enumerated

        def enumerate_(ci: int, pattern: Pattern) -> Iterable[tuple[int, ...]]:
            if not plain[ci]:  # constants are not in the pattern: no sharing
                return self._enumerate(names[ci], pattern)
            key = (names[ci], pattern)
            found = enumerated.get(key)
            if found is None:
                found = enumerated[key] = list(self._enumerate(names[ci], pattern))
            return found

        try:
            return _match.search(cons_vars, side, names, len(rule.variables), self.m.n, check, cost,
                                 enumerate_, self.deadline, self.max_matches, self.m.memo, plain)
        except _match.SearchBudget as exc:
            raise BudgetExceeded(str(exc)) from None

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
            if full:
                return 20
            # No slot fully bound: a point of a slot leaves a segment (line)
            # through it to enumerate, and the other slot is then looked up.
            half = sum(1 for s in range(2) if (pat[2 * s] is None) != (pat[2 * s + 1] is None))
            return (2000 + n * n, 8 * n, 4 * n)[half]
        if name in ("eqangle", "eqratio"):
            full = self._full_slots(pat, 4)
            return 10 if full >= 3 else 400 if full == 2 else HUGE
        if name in ("simtri", "simtrir"):
            return 5 if None not in pat[:3] or None not in pat[3:] else 3000
        if name in ("contri", "contrir"):
            return 2 if None not in pat[:3] or None not in pat[3:] else 1000
        return HUGE

    @staticmethod
    def _full_slots(pat: Pattern, slots: int) -> int:
        return sum(1 for s in range(slots) if pat[2 * s] is not None and pat[2 * s + 1] is not None)

    # ------------------------------------------------------------ enumerators

    def _enumerate(self, name: str, pat: Pattern) -> Iterable[tuple[int, ...]]:
        m = self.m
        if name == "coll":
            bound = [p for p in pat if p is not None]
            if len(set(bound)) >= 2:
                ln = m.lines[m.line(bound[0], next(b for b in bound if b != bound[0]))]
                return _orderings([ln] if len(ln) >= 3 else [], pat)
            return _orderings(self.coll_lines, pat)
        if name == "cyclic":
            return _orderings(m.circles, pat)
        if name == "midp":
            return [t for t in self.mids if all(p is None or p == v for p, v in zip(pat, t))]
        if name == "circle":
            centres = [pat[0]] if pat[0] is not None else range(m.n)
            out: list[tuple[int, ...]] = []
            for o in centres:
                groups = [g for g in m.centred[o] if len(g) >= 3]  # type: ignore[index]
                head = (o,)
                out.extend([head + t for t in _orderings(groups, pat[1:])])  # type: ignore[operator]
            return out
        if name in ("para", "perp"):
            return self._line_pairs(pat, math.pi / 2 if name == "perp" else 0.0)
        if name == "cong":
            return self._segment_pairs(pat)
        if name == "eqangle":
            return self._four_slots(pat, angles=True)
        if name == "eqratio":
            return self._four_slots(pat, angles=False)
        if name in ("simtri", "simtrir", "contri", "contrir"):
            return self._similar(pat, reflected=name.endswith("r"), congruent=name.startswith("con"))
        return ()

    def _similar(self, pat: Pattern, reflected: bool, congruent: bool = False) -> Iterator[tuple[int, ...]]:
        """Triangle pairs of equal (or, reflected, conjugate) shape; of equal
        size too when ``congruent``."""
        m = self.m
        if None in pat[:3] and None not in pat[3:]:
            for t in self._similar(pat[3:] + pat[:3], reflected, congruent):
                yield t[3:] + t[:3]
            return
        if None in pat[:3]:
            # Both triangles free: every similar pair, listed once per diagram.
            key = (reflected, congruent)
            pairs = self._similar_pairs.get(key)
            if pairs is None:
                m.shape_class_at(0j)  # builds the index
                full = (None,) * 6
                pairs = self._similar_pairs[key] = [t for t in self._similar_from(
                    (t for cls in m.shape_classes if len(cls) > 1 or reflected for t in cls),
                    full, reflected, congruent) if t[:3] != t[3:]]
            for t in pairs:
                if all(x is None or x == y for x, y in zip(pat, t)):
                    yield t
            return
        yield from self._similar_from(iter([pat[:3]]), pat, reflected, congruent)  # type: ignore[list-item]

    def _similar_from(self, firsts: Iterator[tuple[int, int, int]], pat: Pattern, reflected: bool,
                      congruent: bool) -> Iterator[tuple[int, ...]]:
        m = self.m
        for a, b, c in firsts:
            k = m.similar_class(a, b, c, reflected)
            if k is None:
                continue
            size = m.length_class(a, b) if congruent else None
            for p, q, r in m.shape_classes[k]:
                if all(x is None or x == y for x, y in zip(pat, (a, b, c, p, q, r))) and (
                        size is None or m.length_class(p, q) == size):
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
        if _better_second(pat):
            for t in self._line_pairs((c, d, a, b), turn):
                yield t[2:] + t[:2]
            return
        through = c if c is not None else d
        for li in self._slot_lines(a, b):
            target = m.dir_class_at(m.dir_values[m.dir_of[li]] + turn)
            if target is None:
                continue
            others = m.dir_classes[target]
            if through is not None:  # only the line of that direction through it
                others = [lj for lj in others if through in m.lines[lj]]
            for p, q in self._pairs_on_lines([li], a, b):
                for r, s in self._pairs_on_lines(others, c, d):
                    yield p, q, r, s

    def _segment_pairs(self, pat: Pattern) -> Iterator[tuple[int, ...]]:
        m = self.m
        a, b, c, d = pat
        if _better_second(pat):
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
        one free slot, compute the last one's direction (length), look it up.

        Slots are enumerated as *units* — lines for angles, segments for
        ratios — and only then expanded into point pairs, so the value of a
        unit and the lookup of the last slot are done once per unit."""
        m = self.m
        signs = ANGLE_SIGNS if angles else RATIO_SIGNS
        slots = [(pat[2 * i], pat[2 * i + 1]) for i in range(4)]
        if any(a is not None and a == b for a, b in slots):
            return  # a line or segment through one point
        free = [i for i, (a, b) in enumerate(slots) if a is None or b is None]
        if not free:
            yield pat  # type: ignore[misc]
            return
        last = free[-1]
        enum = free[:-1]
        fixed = 0.0
        for i in range(4):
            if i not in free:
                p, q = slots[i]
                fixed += signs[i] * (m.direction(p, q) if angles else m.log_length(p, q))  # type: ignore[arg-type]

        def units(i: int) -> list[tuple[float, list[tuple[int, int]]]]:
            """(value, point pairs) of each unit slot i can take."""
            a, b = slots[i]
            out = []
            if angles:
                for li in self._slot_lines(a, b):
                    pairs = list(self._pairs_on_lines([li], a, b))
                    if pairs:
                        out.append((m.dir_values[m.dir_of[li]], pairs))
            else:
                for p, q in self._slot_segments(a, b):
                    out.append((m.log_length(p, q), [(p, q)]))
            return out

        choices = [units(i) for i in enum]

        def rec(k: int, total: float, chosen: list[list[tuple[int, int]]]) -> Iterator[tuple[int, ...]]:
            if k < len(enum):
                for value, pairs in choices[k]:
                    chosen.append(pairs)
                    yield from rec(k + 1, total + signs[enum[k]] * value, chosen)
                    chosen.pop()
                return
            want = -signs[last] * total
            a, b = slots[last]
            if angles:
                cls = m.dir_class_at(want)
                if cls is None:
                    return
                ends = list(self._pairs_on_lines(m.dir_classes[cls], a, b))
            else:
                lc = m.length_class_at(math.exp(want))
                if lc is None:
                    return
                ends = list(_oriented(m.len_classes[lc], a, b))
            if not ends:
                return
            for combo in product(*chosen):
                picked = dict(zip(enum, combo))
                for pq in ends:
                    picked[last] = pq
                    yield tuple(x for i in range(4) for x in picked.get(i, slots[i]))  # type: ignore[misc]

        yield from rec(0, fixed, [])


def _better_second(pat: Pattern) -> bool:
    """Whether the second slot of a two-slot pattern (ab, cd) has more of
    its points bound than the first: enumerating from it is cheaper."""
    def bound(x: int | None, y: int | None) -> int:
        return (x is not None) + (y is not None)
    return bound(pat[2], pat[3]) > bound(pat[0], pat[1])


def _orderings(sets: Sequence[Sequence[int]], pat: Pattern) -> list[tuple[int, ...]]:
    """Ordered tuples of distinct points of one set that agree with ``pat``
    (a list, built with C-level loops where the pattern allows)."""
    bound = [p for p in pat if p is not None]
    free = [i for i, p in enumerate(pat) if p is None]
    out: list[tuple[int, ...]] = []
    if not bound:
        for s in sets:
            out.extend(permutations(s, len(free)))
        return out
    one = len(free) == 1
    if one:
        head, tail = tuple(pat[:free[0]]), tuple(pat[free[0] + 1:])
    for s in sets:
        if not all(p in s for p in bound):
            continue
        rest = [p for p in s if p not in bound]
        if one:
            out.extend([head + (p,) + tail for p in rest])  # type: ignore[operator]
            continue
        for combo in permutations(rest, len(free)):
            t = list(pat)
            for i, p in zip(free, combo):
                t[i] = p
            out.append(tuple(t))  # type: ignore[arg-type]
    return out


def _oriented(segments: Sequence[tuple[int, int]], a: int | None, b: int | None) -> Iterator[tuple[int, int]]:
    for p, q in segments:
        for r, s in ((p, q), (q, p)):
            if (a is None or r == a) and (b is None or s == b):
                yield r, s
