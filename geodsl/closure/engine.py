"""``geodsl.closure(problem)``: premise facts, DD by levels, AR, budgets.

The run, in order:

1. realize the problem once (seeded) — the numeric model;
2. intern the points in premise order and instantiate every clause's
   ``asserts`` as premise facts (provenance: the clause's line:col);
3. match every rule numerically once (:mod:`.matcher`);
4. level by level, try the bindings that have not fired: prove the premises
   from the store (facts, lines, circles, angle and ratio chase), add the
   conclusions; stop when the goals are proved, when a level adds nothing
   (saturated), or when the time or fact budget runs out (budget). The loop
   over a rule's bindings is compiled (``ext/fire.pyx``); this module keeps
   the order of things.

Everything is ordered: points by premise order, rules by file order,
bindings by enumeration order over sorted structures, so the same problem and
seed give the same facts in the same order.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .._canon import Interner
from .._fire import CompiledRule, fire
from ..lang.ast import Constant, Predicate, Problem
from ..lang.definitions import expand, rulebase
from ..lang.errors import GeoDSLError
from .facts import Fact
from .harvest import harvest
from ..budget import BudgetExceeded
from .matcher import Matcher
from .numeric import NumericModel
from .ruleset import RuleSpec, load_rules, subsumed_by_ar
from .store import SIDE, Store

if TYPE_CHECKING:
    from ..realize import Diagrams

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_FACTS = 50_000
BRANCH_DIAGRAMS = 4
DIAGRAMS_NEEDED = BRANCH_DIAGRAMS + 1
"""Diagrams a closure run reads: the main one and the branch witnesses."""
"""Further diagrams that must agree before a halved angle's branch is taken
from the figure (:meth:`~.numeric.NumericModel.holds_everywhere`)."""


@dataclass
class Closure:
    """The result of a closure run.

    ``goals`` are the problem's goals, a long statement (``cyclic a b c d
    e``) as the facts it states; a side condition asked as a goal
    (``obtuse_angle``) is decided on the diagram (rule ``diagram``).
    ``facts`` are in the order they were first obtained; ``status`` is
    ``"proved"`` (every goal follows), ``"saturated"`` (a level added
    nothing) or ``"budget"`` (time or fact limit hit: a partial result).
    ``unsound`` lists derivations whose conclusion failed the numeric check
    (always empty unless there is a bug in a rule or the engine).
    """

    problem: Problem
    names: tuple[str, ...]
    facts: tuple[Fact, ...]
    status: str
    goals: tuple[Predicate, ...]
    goal_facts: tuple[int | None, ...]
    seconds: float
    levels: int
    unsound: tuple[str, ...] = ()
    _store: Store | None = field(default=None, repr=False, compare=False)

    @property
    def solved(self) -> bool:
        return bool(self.goals) and all(g is not None for g in self.goal_facts)

    def fact_predicate(self, fact: Fact) -> Predicate:
        """A fact as a :class:`Predicate` over point names."""
        return Predicate(fact.name, tuple(self.names[a] if isinstance(a, int) else a  # type: ignore[misc]
                                          for a in fact.args))

    def predicates(self) -> list[Predicate]:
        return [self.fact_predicate(f) for f in self.facts]

    def find(self, predicate: Predicate) -> Fact | None:
        """The fact stating ``predicate``, if the closure derived it (or can
        prove it from what it derived: such a fact, and the angle or ratio
        chase behind it, is then added to :attr:`facts`)."""
        if predicate.negated or self._store is None:
            return None
        args = _intern_args(predicate, {n: i for i, n in enumerate(self.names)})
        if args is None:
            return None
        if predicate.name in SIDE:
            fid = _diagram_fact(self._store, predicate.name, args)
        else:
            fid = self._store.prove(predicate.name, args)
        if fid is None:
            return None
        self.facts = tuple(self._store.facts)
        return self._store.facts[fid]

    def proves(self, predicate: Predicate | str) -> bool:
        """Whether the closure proves ``predicate`` (DSL text or a Predicate;
        a long statement such as ``cyclic a b c d e``: every fact it states)."""
        if isinstance(predicate, str):
            predicate = _parse_predicate(predicate)
        return all(self.find(part) is not None for part in expand(predicate))

    def proof(self, goal: Predicate | str | None = None) -> "Proof":
        """The proof of ``goal`` (default: the problem's first goal, a long
        statement with every fact it states)."""
        from .proof import Proof, build_proof

        if goal is None:
            if not self.problem.goals:
                raise GeoDSLError("the problem has no goal to prove", hint="pass the goal")
            goal = self.problem.goals[0]
        if isinstance(goal, str):
            goal = _parse_predicate(goal)
        facts = [self.find(part) for part in expand(goal)]
        if any(f is None for f in facts):
            raise GeoDSLError(f"`{goal.to_text()}` is not proved by the closure",
                              hint=f"status: {self.status}")
        return build_proof(self, facts[0] if len(facts) == 1 else facts)  # type: ignore[arg-type]


def _diagram_fact(store: Store, name: str, args: tuple[object, ...]) -> int | None:
    """A side condition asked as a goal (``obtuse_angle``, ``ncoll``) is not
    derived: it is checked on the diagram, as the closure checks the side
    conditions of rules (and as Newclid checks its numerical predicates).
    The fact says so (rule ``diagram``); None where the diagram denies it."""
    key = store.key(name, args)
    found = store.index.get(key)
    if found is not None:
        return found
    if not store.model.holds(name, key[1:]):
        return None
    return store.add(name, args, "diagram", ())


def _parse_predicate(text: str) -> Predicate:
    """``para a b c d`` (DSL words) as a Predicate."""
    words = text.split()
    if not words:
        raise GeoDSLError("empty predicate")
    pdef = rulebase().predicates.get(words[0])
    if pdef is None:
        raise GeoDSLError(f"unknown predicate `{words[0]}`")
    from ..lang.constants import read_constant

    args: list[object] = []
    for kind, w in zip(pdef.kinds, words[1:]):
        args.append(w if kind == "point" else read_constant(w, kind))
    if len(words) - 1 != pdef.arity:
        raise GeoDSLError(f"`{words[0]}` takes {pdef.arity} arguments, got {len(words) - 1}")
    return Predicate(words[0], tuple(args))  # type: ignore[arg-type]


def _intern_args(predicate: Predicate, ids: dict[str, int]) -> tuple[object, ...] | None:
    out: list[object] = []
    for a in predicate.args:
        if isinstance(a, str):
            if a not in ids:
                return None
            out.append(ids[a])
        else:
            out.append(a)
    return tuple(out)


def _premise_facts(problem: Problem, store: Store, ids: dict[str, int]) -> None:
    rb = rulebase()
    for construction in problem.premise.constructions:
        for clause in construction.clauses:
            cdef = rb.construction(clause.name)
            bind = dict(zip(cdef.params, clause.args))
            where = clause.span or construction.span
            origin = f"{where.line}:{where.column}" if where else None
            for fact in cdef.asserts:
                args: list[object] = []
                for a in fact.args:
                    value = bind.get(a, a) if isinstance(a, str) else a
                    args.append(ids[value] if isinstance(value, str) else value)
                if fact.name in SIDE:
                    continue
                store.add(fact.name, tuple(args), "premise", (), origin=origin)


def closure(problem: Problem | str, *, seed: int = 0, timeout: float = DEFAULT_TIMEOUT,
            max_facts: int = DEFAULT_MAX_FACTS, rules: Sequence[RuleSpec] | None = None,
            harvest_facts: bool | None = None, figures: Diagrams | None = None) -> Closure:
    """Saturate a problem's premise: DD (rules by levels) + AR (angle and
    ratio chase), with provenance, within ``timeout`` seconds and
    ``max_facts`` facts.

    Once saturated, the closure can also list the collinearities,
    concyclicities, parallels, perpendiculars and equal lengths it can prove
    (:mod:`.harvest`): ``harvest_facts=True`` does, ``False`` does not, and
    the default does it for problems without goals (enumerating what is
    provable), not for a goal the closure failed to prove.

    ``figures``: the problem already realized with this seed (at least
    :data:`DIAGRAMS_NEEDED` diagrams), so a caller that needs diagrams too
    (``geodsl check``) realizes once.

    Raises :class:`~geodsl.lang.errors.GeoDSLError` for a bad problem (parse
    error, degenerate construction, goal false in every diagram).
    """
    start = time.monotonic()
    deadline = start + timeout
    if isinstance(problem, str):
        from ..lang.parser import parse_problem
        problem = parse_problem(problem)
    from ..realize import realize

    if figures is None:
        figures = realize(problem, seed=seed, diagrams=DIAGRAMS_NEEDED)
    elif len(figures) < DIAGRAMS_NEEDED:
        raise ValueError(f"the closure reads {DIAGRAMS_NEEDED} diagrams, {len(figures)} given")
    diagram = figures[0]
    interner = Interner()
    for name in problem.premise.points:
        interner.intern(name)
    names = tuple(interner.names())
    ids = {n: i for i, n in enumerate(names)}
    coords = diagram.all_coords
    model = NumericModel([coords[n] for n in names], diagram.tol,
                         [[d.all_coords[n] for n in names] for d in figures[1:]])
    store = Store(model, names)
    _premise_facts(problem, store, ids)

    goals = tuple(part for g in problem.goals for part in expand(g))
    goal_args = []
    for g in goals:
        args = _intern_args(g, ids)
        goal_args.append(None if args is None or g.negated else args)

    def goal_fact(g: Predicate, a: tuple[object, ...]) -> int | None:
        return _diagram_fact(store, g.name, a) if g.name in SIDE else store.prove(g.name, a)

    def goals_done() -> bool:
        return bool(goals) and all(a is not None and goal_fact(g, a) is not None
                                   for g, a in zip(goals, goal_args))

    rules = tuple(r for r in (load_rules() if rules is None else rules) if not subsumed_by_ar(r))
    status = "saturated"
    level = 0
    try:
        if goals_done():
            status = "proved"
        else:
            # Rules are matched lazily, on their first turn, and the goal is
            # checked after every rule: easy problems stop before the
            # expensive rules are ever matched.
            matcher = Matcher(model, deadline)
            compiled = [CompiledRule(rule) for rule in rules]
            matches: list[list[tuple[int, ...]] | None] = [None] * len(rules)
            # Per rule and binding: whether it fired (its conclusions are
            # known: never tried again), and its instantiated atoms and keys,
            # kept across levels (see fire).
            fired: list[bytearray] = [bytearray() for _ in rules]
            memo: list[list[object]] = [[] for _ in rules]
            checked = len(store.facts)
            while status != "proved":
                level += 1
                store.level = level
                before = len(store.facts)
                for ri, rule in enumerate(rules):
                    found = matches[ri]
                    if found is None:
                        found = matches[ri] = matcher.matches(rule)
                        fired[ri] = bytearray(len(found))
                        memo[ri] = [None] * len(found)
                    # Try the bindings that have not fired. Compiled
                    # (ext/fire.pyx): 10^4-10^5 small steps a problem, where
                    # the interpreter's overhead was most of the cost. Raises
                    # BudgetExceeded past the deadline or max_facts.
                    fire(store, compiled[ri], found, fired[ri], memo[ri], deadline, max_facts)
                    if len(store.facts) != checked:
                        checked = len(store.facts)
                        if goals_done():
                            status = "proved"
                            break
                if len(store.facts) == before:
                    break
            if status == "saturated" and (not goals if harvest_facts is None else harvest_facts):
                store.level = level + 1
                harvest(store, deadline, max_facts)
    except BudgetExceeded:
        status = "budget"
    goal_facts = tuple(None if a is None else goal_fact(g, a) for g, a in zip(goals, goal_args))
    if status == "budget" and goals and all(f is not None for f in goal_facts):
        status = "proved"
    unsound = tuple(f"{name} {' '.join(names[a] if isinstance(a, int) else str(a) for a in args)} "
                    f"(by {rule})" for name, args, rule, _ in store.unsound)
    return Closure(problem, names, tuple(store.facts), status, goals, goal_facts,
                   time.monotonic() - start, level, unsound, store)
