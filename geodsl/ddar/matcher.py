"""Numeric rule matching: every way a rule's points can be bound so that its
premises, side conditions *and conclusions* hold in the diagram.

This is the "conclusion-driven" half of DD. The symbolic store is only asked
to prove the premises of a binding that is numerically a true instance of the
whole rule, and since the diagram's structures never change, each rule is
matched once per problem; each level then only re-tries the bindings that
have not fired yet.

The search binds variables constraint by constraint. At each step it takes
the constraint (premise or conclusion) with the fewest expected candidates
(:meth:`Matcher._cost`) and enumerates its numerically true instances from
the diagram's structures (:class:`~.numeric.NumericModel`): points on a line
or circle, segments of a length class, lines of a direction class, line
pairs at an angle found by looking up the missing direction (for
``eqangle`` and ``eqratio``: enumerate all but one free slot, sum the
directions or log-lengths, look the last slot up), triangles of one shape
class, ... A constraint the structures cannot
enumerate binds one variable over all points (the fallback), and every
constraint is checked numerically as soon as its points are bound. Rule
variables may share points (two triangles with a common vertex, as in
AlphaGeometry) unless that makes an atom degenerate: a line or segment
through one point, repeated points of a collinearity, circle, midpoint or
triangle, or a relation between a thing and itself (``_match.DEGENERACY``).

The search loop, the enumerators and the hot checks are compiled
(``ext/match.pyx``, over flat copies of the model's structures:
``_match.Diagram``): with millions of search nodes and hundreds of thousands
of candidates per problem set, their cost in Python was mostly the
interpreter's. This module decides what to ask: the constraints of a rule,
their cost estimates, and the checks of the remaining predicates.
"""

from __future__ import annotations

import math

from ..budget import DEFAULT_MAX_MATCHES
from ..lang.constants import Constant
from .._match import MAX_SHAPE_POINTS, search
from .numeric import MAX_MEMO, NumericModel
from .ruleset import RuleSpec

Pattern = tuple[int | None, ...]

HUGE = 10 ** 12


Layout = tuple[list[str], list[list[int]], list[tuple[str | Constant, ...]], list[bool], list[bool]]
_LAYOUTS: dict[int, tuple[RuleSpec, Layout]] = {}


def _layout(rule: RuleSpec) -> Layout:
    """A rule's constraints as the search takes them: predicate names,
    variable indices (−1 for a constant), the arguments, which are side
    conditions, which have no constant. The same for every problem: kept
    per rule (by identity, with the rule itself, so an id is never reused)."""
    found = _LAYOUTS.get(id(rule))
    if found is not None and found[0] is rule:
        return found[1]
    index = {v: i for i, v in enumerate(rule.variables)}
    atoms = list(rule.premises + rule.conclusions) + list(rule.sides)
    names = [name for name, _ in atoms]
    cons_vars = [[index[a] if isinstance(a, str) else -1 for a in args] for _, args in atoms]
    consts = [tuple(a for a in args) for _, args in atoms]
    side = [False] * (len(atoms) - len(rule.sides)) + [True] * len(rule.sides)
    plain = [all(isinstance(a, str) for a in args) for args in consts]
    layout = (names, cons_vars, consts, side, plain)
    if len(_LAYOUTS) > 10_000:  # rule sets built on the fly: stay bounded
        _LAYOUTS.clear()
    _LAYOUTS[id(rule)] = (rule, layout)
    return layout


class Matcher:
    """Numerically true instances of rules in one diagram."""

    def __init__(self, model: NumericModel, deadline: float = math.inf,
                 max_matches: int = DEFAULT_MAX_MATCHES) -> None:
        self.m = model
        self.deadline = deadline
        self.max_matches = max_matches
        self._enumerated: dict[tuple[str, Pattern], list[tuple[int, ...]]] = {}
        """(predicate, pattern) -> its true instances. The diagram never
        changes, and the searches of all rules ask the same questions again
        and again (nine in ten ``coll`` and ``cong`` enumerations repeat)."""

    # ------------------------------------------------------------ search

    def matches(self, rule: RuleSpec) -> list[tuple[int, ...]]:
        """Bindings (points in ``rule.variables`` order) of every numerically
        true instance. Raises :class:`BudgetExceeded` past the deadline."""
        return self._search(rule, -1)

    def matches_through(self, rule: RuleSpec, first_new: int) -> list[tuple[int, ...]]:
        """The bindings of :meth:`matches` that use a point numbered
        ``first_new`` or above, each once: with the figure's older points
        matched already, what an extended figure adds
        (:func:`~.engine.extend`). Listed under the first variable holding
        a new point — for each variable v and new point q in turn, the
        search with v bound to q and the variables before v kept to older
        points (``_match.search``'s ``through``) — so each search starts
        from a bound point and costs a fraction of the whole."""
        return self._search(rule, first_new)

    def _search(self, rule: RuleSpec, through: int) -> list[tuple[int, ...]]:
        """:meth:`matches`, or with ``through`` ≥ 0 :meth:`matches_through`.

        The search (``_match.search``) enumerates and checks the constraints
        it can in C (``_match.ENUMERATORS``, ``_match.CHECKS``); this side
        supplies the cost estimates and the checks of the other predicates
        (through the model's memo)."""
        names, cons_vars, consts, side, plain = _layout(rule)
        holds = self.m.holds
        fast = self.m.fast_checks
        memo = self.m.memo
        direct = [fast.get(name) if ok and len(cv) == fast.get(name, (None, -1))[1] else None
                  for name, ok, cv in zip(names, plain, cons_vars)]

        def check(ci: int, values: tuple[int, ...]) -> bool:
            f = direct[ci]
            if f is not None:
                # NumericModel.holds for an all-points atom with a fast check
                # (the search already missed the memo).
                found = f[0](*values)
                if len(memo) < MAX_MEMO:
                    memo[(names[ci], values)] = found
                return found
            if plain[ci]:
                return holds(names[ci], values)
            args = tuple(v if isinstance(c, str) else c for v, c in zip(values, consts[ci]))
            return holds(names[ci], args)

        def cost(ci: int, pattern: Pattern) -> int:
            return self._cost(names[ci], pattern)

        return search(cons_vars, side, names, plain, len(rule.variables), self.m.diagram,
                      check, cost, self.deadline, self.max_matches, memo, self._enumerated, through)

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
        if name in ("simtri", "simtrir", "contri", "contrir") and n > MAX_SHAPE_POINTS:
            # The shape classes are n³ (ext/diagram.pxi): a large figure
            # checks similarity once both triangles are bound instead.
            return HUGE
        if name in ("simtri", "simtrir"):
            return 5 if None not in pat[:3] or None not in pat[3:] else 3000
        if name in ("contri", "contrir"):
            return 2 if None not in pat[:3] or None not in pat[3:] else 1000
        return HUGE

    @staticmethod
    def _full_slots(pat: Pattern, slots: int) -> int:
        return sum(1 for s in range(slots) if pat[2 * s] is not None and pat[2 * s + 1] is not None)
