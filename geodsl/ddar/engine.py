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

:func:`extend` continues a saturated run on the figure grown by auxiliary
points — the same loop, from the run's facts and matches (the search's
tries).

Everything is ordered: points by premise order, rules by file order,
bindings by enumeration order over sorted structures, so the same problem and
seed give the same facts in the same order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .._canon import Interner
from .._fire import CompiledRule, fire
from ..budget import DEFAULT_MAX_FACTS, DEFAULT_SECONDS, Budget, BudgetExceeded, Clock
from ..lang.ast import Arg, Constant, Construction, Predicate, Problem
from ..lang.definitions import expand, rulebase
from ..lang.errors import GeoDSLError, NotProvedError, PointError
from ..lang.parser import parse_predicate, parse_problem
from ..proofs import Proof, Status
from ..realizer import Diagrams, realize
from ..realizer.checks import evaluate
from ..realizer.tolerance import figure_scale
from .facts import Args, Fact, Side, canonical
from .harvest import harvest
from .matcher import Matcher
from .numeric import NumericModel
from .ruleset import RuleSpec, load_rules, subsumed_by_ar
from .store import SIDE, Store
from .trace import build_proof, with_given_auxiliary

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
    nothing) or ``"budget"`` (time or fact limit hit: a partial result;
    ``stopped`` names the stage that ran out).
    ``unsound`` lists derivations whose conclusion failed the numeric check
    (always empty unless there is a bug in a rule or the engine).
    """

    problem: Problem
    names: tuple[str, ...]
    facts: tuple[Fact, ...]
    status: Status
    goals: tuple[Predicate, ...]
    goal_facts: tuple[int | None, ...]
    seconds: float
    levels: int
    unsound: tuple[str, ...] = ()
    _store: Store | None = field(default=None, repr=False, compare=False)
    stopped: str | None = None
    _deduction: "Deduction | None" = field(default=None, repr=False, compare=False)

    @property
    def figures(self) -> Diagrams | None:
        """The diagrams the run read (None when its budget ran out first)."""
        return self._deduction.figures if self._deduction is not None else None

    @property
    def solved(self) -> bool:
        return bool(self.goals) and all(g is not None for g in self.goal_facts)

    def fact_predicate(self, fact: Fact) -> Predicate:
        """A fact as a :class:`Predicate` over point names."""
        return Predicate(fact.name, tuple(self.names[a] if isinstance(a, int) else a for a in fact.args))

    def predicates(self) -> list[Predicate]:
        return [self.fact_predicate(f) for f in self.facts]

    def side_predicate(self, side: Side) -> Predicate:
        """A side condition of a fact (:attr:`Fact.sides`) as a Predicate."""
        name, negated, args = side
        return Predicate(name, tuple(self.names[a] if isinstance(a, int) else a for a in args), negated)

    def rests_on(self, fact: Fact) -> tuple[Predicate, ...]:
        """Every side condition the fact's derivation rests on — its own
        step's and its ancestors' — in derivation order. The fact holds in
        every figure of the premise where all of them hold."""
        seen: set[int] = set()
        stack = [fact.id]
        while stack:
            fid = stack.pop()
            if fid not in seen:
                seen.add(fid)
                stack.extend(self.facts[fid].parents)
        sides: dict[Side, None] = {}
        for fid in sorted(seen):
            sides.update(dict.fromkeys(self.facts[fid].sides))
        return tuple(self.side_predicate(s) for s in sides)

    def find(self, predicate: Predicate | str) -> Fact | None:
        """The fact stating ``predicate`` (DSL text or a Predicate), if the
        closure derived it (or can prove it from what it derived: such a
        fact, and the angle or ratio chase behind it, is then added to
        :attr:`facts`); None otherwise, and for a negated predicate, which no
        fact states (a side condition is checked on the diagram). A point not in the problem is a
        :class:`~geodsl.lang.errors.PointError`."""
        predicate = self._predicate(predicate)
        if predicate.negated or self._store is None:
            return None
        args = _intern_args(predicate, {n: i for i, n in enumerate(self.names)})
        assert args is not None  # _predicate checked the points
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
        a long statement such as ``cyclic a b c d e``: every fact it states).

        A negated predicate (``not perp a b c d``) is proved by a
        counterexample, as ``geodsl check`` decides negated options: it is
        proved iff the positive statement is false in every diagram the
        closure read (its own and the :data:`BRANCH_DIAGRAMS` witnesses),
        consistent figures of the premise in which it fails. Bad text or a
        point not in the problem raises a located
        :class:`~geodsl.lang.errors.GeoDSLError`."""
        predicate = self._predicate(predicate)
        if predicate.negated:
            return self._refuted(predicate)
        return all(self.find(part) is not None for part in expand(predicate))

    def proof(self, goal: Predicate | str | None = None) -> Proof:
        """The proof of ``goal`` (DSL text or a Predicate; default: the
        problem's first goal; a long statement, every fact it states). The
        constructions the problem gives after ``|`` are the proof's
        ``auxiliary`` constructions.

        Raises :class:`~geodsl.lang.errors.NotProvedError` when the closure
        does not prove it (check :meth:`proves` first, or catch it), and for a
        negated statement, whose evidence is a counterexample diagram, not a
        deduction; it never returns None."""
        if goal is None:
            if not self.problem.goals:
                raise NotProvedError("the problem has no goal to prove", hint="pass the statement to prove")
            goal = self.problem.goals[0]
        goal = self._predicate(goal)
        if goal.negated:
            raise NotProvedError(f"`{goal.to_text()}` is a negation: no deduction proves it",
                                 hint="proves() says whether the diagrams refute the positive statement")
        parts = expand(goal)
        facts = [f for f in (self.find(part) for part in parts) if f is not None]
        if len(facts) < len(parts):
            raise NotProvedError(f"`{goal.to_text()}` is not proved by the closure",
                                 hint=f"status: {self.status}; proves() tells before proof() is asked")
        proof = build_proof(self.facts, facts, self.fact_predicate, self.side_predicate, statement=goal)
        return with_given_auxiliary(proof, self.problem)

    def _predicate(self, predicate: Predicate | str) -> Predicate:
        """DSL text read (located errors), and every point checked to be in the problem."""
        if isinstance(predicate, str):
            return parse_predicate(predicate, self.names)
        missing = [p for p in predicate.points if p not in self.names]
        if missing:
            raise PointError(f"point `{missing[0]}` is not in the problem", text=missing[0],
                             hint=f"its points are {', '.join(self.names)}")
        return predicate

    def _refuted(self, negated: Predicate) -> bool:
        """Whether every diagram the closure read shows ``negated`` (the positive fails)."""
        if self._store is None:
            return False
        model = self._store.model
        return all(evaluate(negated, dict(zip(self.names, coords)), figure_scale(coords), model.tol)
                   for coords in [model.coords, *model.others])


def _diagram_fact(store: Store, name: str, args: Args) -> int | None:
    """A side condition asked as a goal (``obtuse_angle``, ``ncoll``) is not
    derived: it is checked on the diagram, as the closure checks the side
    conditions of rules (and as Newclid checks its numerical predicates).
    The fact says so (rule ``diagram``, resting on its own numerical check);
    None where the diagram denies it."""
    key = store.key(name, args)
    found = store.index.get(key)
    if found is not None:
        return found
    if not store.model.holds(name, canonical(name, args)):
        return None
    return store.add(name, args, "diagram", (), sides=[(name, args)])


def _intern_args(predicate: Predicate, ids: dict[str, int]) -> Args | None:
    out: list[int | Constant] = []
    for a in predicate.args:
        if isinstance(a, str):
            if a not in ids:
                return None
            out.append(ids[a])
        else:
            out.append(a)
    return tuple(out)


def _premise_facts(constructions: Sequence[Construction], store: Store, ids: dict[str, int]) -> None:
    rb = rulebase()
    for construction in constructions:
        for clause in construction.clauses:
            cdef = rb.construction(clause.name)
            bind = dict(zip(cdef.params, clause.args))
            where = clause.span or construction.span
            origin = f"{where.line}:{where.column}" if where else None
            for fact in cdef.asserts:
                args: list[int | Constant] = []
                for a in fact.args:
                    value = bind.get(a, a) if isinstance(a, str) else a
                    args.append(ids[value] if isinstance(value, str) else value)
                if fact.name in SIDE:
                    continue
                store.add(fact.name, tuple(args), "premise", (), origin=origin)


def premise_predicates(problem: Problem) -> list[Predicate]:
    """The facts the premise's constructions assert (each clause's
    ``asserts``, side conditions left out), in premise order: what the
    closure starts from."""
    rb = rulebase()
    out: list[Predicate] = []
    seen: set[tuple[object, ...]] = set()
    for construction in problem.premise.constructions:
        for clause in construction.clauses:
            cdef = rb.construction(clause.name)
            bind: dict[str, Arg] = dict(zip(cdef.params, clause.args))
            for fact in cdef.asserts:
                if fact.name in SIDE:
                    continue
                args: tuple[Arg, ...] = tuple(bind.get(a, a) if isinstance(a, str) else a for a in fact.args)
                key = (fact.name,) + rb.predicate(fact.name).canonical_args(args)
                if key not in seen:
                    seen.add(key)
                    out.append(Predicate(fact.name, args))
    return out


def _given_facts(facts: Sequence[Predicate], store: Store, ids: dict[str, int]) -> None:
    """Facts given in place of the premise's (see :func:`closure`), each a
    premise fact; long statements as the facts they state."""
    for given in facts:
        for part in expand(given):
            if part.negated or part.name in SIDE:
                continue
            args = _intern_args(part, ids)
            if args is None:
                raise PointError(f"point of `{part.to_text()}` is not in the problem", text=part.to_text(),
                                 hint=f"its points are {', '.join(ids)}")
            store.add(part.name, args, "premise", ())


def closure(problem: Problem | str, *, seed: int | None = None, budget: Budget | Clock | None = None,
            timeout: float | None = None, max_facts: int | None = None,
            rules: Sequence[RuleSpec] | None = None, harvest_facts: bool | None = None,
            figures: Diagrams | None = None, premise_facts: Sequence[Predicate] | None = None) -> Closure:
    """Saturate a problem's premise: DD (rules by levels) + AR (angle and
    ratio chase), with provenance, within a budget.

    ``budget``: a :class:`~geodsl.budget.Budget`, or the
    :class:`~geodsl.budget.Clock` of a problem already under way (its
    deadline covers realizing too). ``timeout`` and ``max_facts`` are
    shorthand for ``Budget(seconds=timeout, max_facts=max_facts)``; the
    defaults are :mod:`geodsl.budget`'s. When the budget runs out the result
    is partial: status ``"budget"``, :attr:`Closure.stopped` names the stage.

    Once saturated, the closure can also list the collinearities,
    concyclicities, parallels, perpendiculars and equal lengths it can prove
    (:mod:`.harvest`): ``harvest_facts=True`` does, ``False`` does not, and
    the default does it for problems without goals (enumerating what is
    provable), not for a goal the closure failed to prove.

    ``figures``: the problem already realized (at least
    :data:`DIAGRAMS_NEEDED` diagrams), so a caller that needs diagrams too
    (``geodsl check``) realizes once; ``seed`` is then theirs (passing a
    different one is an error). Without figures the seed defaults to 0.

    ``premise_facts``: start from these facts (over the problem's points)
    instead of what the premise's constructions assert — the facts a proof
    step may use, when a grader asks what follows from them alone
    (:mod:`geodsl.checker.grade`). Side conditions among them are skipped
    (they are read from the figure); a fact false in the figure is not
    taken (the store refuses it).

    Raises :class:`~geodsl.lang.errors.GeoDSLError` for a bad problem (parse
    error, degenerate construction, goal false in every diagram).
    """
    start = time.monotonic()
    clock = _clock(budget, timeout, max_facts)
    limits = clock.budget
    deadline = clock.deadline
    if isinstance(problem, str):
        problem = parse_problem(problem)
    if figures is None:
        try:  # realizing spends the problem's clock too
            figures = realize(problem, seed=0 if seed is None else seed, diagrams=DIAGRAMS_NEEDED,
                              clock=clock)
        except BudgetExceeded as exc:
            return _stopped(problem, exc.stage, start)
    elif len(figures) < DIAGRAMS_NEEDED:
        raise GeoDSLError(f"the closure reads {DIAGRAMS_NEEDED} diagrams, {len(figures)} given",
                          hint=f"realize with diagrams={DIAGRAMS_NEEDED} or more")
    elif seed is not None and seed != figures.seed:
        raise GeoDSLError(f"seed {seed} differs from the seed of the figures given ({figures.seed})",
                          hint="pass the figures' seed, or no seed")
    if clock.expired():
        return _stopped(problem, "realize", start)
    diagram = figures[0]
    interner = Interner()
    for name in problem.premise.points:
        interner.intern(name)
    names = tuple(interner.names())
    ids = {n: i for i, n in enumerate(names)}
    coords = diagram.all_coords
    try:  # its builders read the clock (and refuse a model too large for memory)
        model = NumericModel([coords[n] for n in names], diagram.tol,
                             [[d.all_coords[n] for n in names] for d in figures[1:]], clock)
    except BudgetExceeded as exc:
        return _stopped(problem, exc.stage, start)
    store = Store(model, names)
    if premise_facts is None:
        _premise_facts(problem.premise.constructions, store, ids)
    else:
        _given_facts(premise_facts, store, ids)

    goals = _Goals(problem, store, ids)
    rules = tuple(r for r in (load_rules() if rules is None else rules) if not subsumed_by_ar(r))
    deduction = Deduction(figures, rules, [CompiledRule(rule) for rule in rules], [None] * len(rules),
                          [bytearray() for _ in rules], [[] for _ in rules])
    matcher = Matcher(model, deadline, limits.max_matches)
    status, stopped, level = deduction.run(store, lambda ri: matcher.matches(rules[ri]), goals.done, clock)
    if status == "saturated" and (not goals.parts if harvest_facts is None else harvest_facts):
        store.level = level + 1
        try:
            harvest(store, deadline, limits.max_facts)
        except BudgetExceeded as exc:
            status, stopped = "budget", exc.stage
    return _result(problem, names, store, goals, status, stopped, level, start, deduction)


def extend(base: Closure, constructions: Sequence[Construction], *,
           budget: Budget | Clock | None = None) -> Closure | None:
    """The closure of ``base``'s problem with ``constructions`` added to its
    ``|`` section, obtained by extending ``base`` — a saturated run — rather
    than saturating the larger problem from scratch: what an
    auxiliary-point search does with every candidate (:mod:`geodsl.search`).

    The base's figures get the new points (:meth:`Diagrams.extended`: the
    old points keep their coordinates); the base's store is copied onto the
    extended model (:meth:`Store.fork`: its facts, with their provenance,
    and its AR tables); the new constructions' facts follow as premise
    facts. Every rule keeps its matches over the old points and
    gains those through a new point
    (:meth:`~.matcher.Matcher.matches_through`); the bindings that fired
    stay fired, the others are tried again with the rest, level by level
    after the base's levels, to saturation or the goals.

    Returns None when ``base`` cannot be extended: it did not saturate (it
    proved its goals or ran out of budget, so its matches are not all
    known) — the caller then saturates the extended problem with
    :func:`closure`. Raises
    :class:`~geodsl.lang.errors.RealizationError` for a construction
    degenerate in the base's figures. The result is a :class:`Closure` like
    :func:`closure`'s, and can be extended again.
    """
    start = time.monotonic()
    clock = _clock(budget, None, None)
    previous = base._deduction
    if (previous is None or base._store is None or base.status != "saturated"
            or any(m is None for m in previous.matches)):
        return None
    figures = previous.figures.extended(constructions)
    problem = base.problem.with_auxiliary(constructions)  # the base's goals (figures may be realized without)
    names = tuple(problem.premise.points)
    ids = {n: i for i, n in enumerate(names)}
    diagram = figures[0]
    try:
        model = NumericModel([diagram.all_coords[n] for n in names], diagram.tol,
                             [[d.all_coords[n] for n in names] for d in figures[1:]], clock)
    except BudgetExceeded as exc:
        return _stopped(problem, exc.stage, start)
    store = base._store.fork(model, names)
    store.level = 0
    _premise_facts(constructions, store, ids)
    goals = _Goals(problem, store, ids)
    first_new = len(base.names)
    old = [m for m in previous.matches if m is not None]
    deduction = Deduction(figures, previous.rules, previous.compiled, [None] * len(previous.rules),
                          [bytearray(f) for f in previous.fired], [list(m) for m in previous.memo])
    matcher = Matcher(model, clock.deadline, clock.budget.max_matches)

    def match(ri: int) -> list[tuple[int, ...]]:
        return old[ri] + matcher.matches_through(previous.rules[ri], first_new)

    status, stopped, level = deduction.run(store, match, goals.done, clock, first_level=base.levels)
    return _result(problem, names, store, goals, status, stopped, level, start, deduction)


@dataclass
class Deduction:
    """The rules of a run and what it knows of them: each rule's matches
    (None until its first turn), and per binding whether it fired (its
    conclusions are known: never tried again) and its instantiated atoms
    and keys, kept across levels (``ext/fire.pyx``). Kept with the
    :class:`Closure` so that :func:`extend` continues from it."""

    figures: Diagrams
    rules: tuple[RuleSpec, ...]
    compiled: list[CompiledRule]
    matches: list[list[tuple[int, ...]] | None]
    fired: list[bytearray]
    memo: list[list[object]]

    def run(self, store: Store, match: Callable[[int], list[tuple[int, ...]]], goals_done: Callable[[], bool],
            clock: Clock, first_level: int = 0) -> tuple[Status, str | None, int]:
        """DD by levels from the store's facts: (status, the stage that ran
        out or None, the last level)."""
        limits = clock.budget
        status: Status = "saturated"
        stopped: str | None = None
        level = first_level
        try:
            clock.check("numeric model")
            if goals_done():
                return "proved", None, level
            # Rules are matched lazily, on their first turn, and the goal is
            # checked after every rule: easy problems stop before the
            # expensive rules are ever matched.
            checked = len(store.facts)
            while status != "proved":
                level += 1
                store.level = level
                before = len(store.facts)
                for ri in range(len(self.rules)):
                    found = self.matches[ri]
                    if found is None:
                        found = self.matches[ri] = match(ri)
                        grown = len(found) - len(self.fired[ri])
                        self.fired[ri].extend(bytes(grown))
                        self.memo[ri].extend([None] * grown)
                    # Try the bindings that have not fired. Compiled
                    # (ext/fire.pyx): 10^4-10^5 small steps a problem, where
                    # the interpreter's overhead was most of the cost. Raises
                    # BudgetExceeded past the deadline or max_facts.
                    fire(store, self.compiled[ri], found, self.fired[ri], self.memo[ri], clock.deadline,
                         limits.max_facts)
                    if len(store.facts) != checked:
                        checked = len(store.facts)
                        if goals_done():
                            status = "proved"
                            break
                if len(store.facts) == before:
                    break
        except BudgetExceeded as exc:
            status, stopped = "budget", exc.stage
        return status, stopped, level


class _Goals:
    """A problem's goals over the store: a long statement (``cyclic a b c d
    e``) as the facts it states, each with its interned arguments (None
    for a negated goal or one over a point not in the problem)."""

    def __init__(self, problem: Problem, store: Store, ids: dict[str, int]) -> None:
        self.store = store
        self.parts = tuple(part for g in problem.goals for part in expand(g))
        self.args: list[Args | None] = []
        for g in self.parts:
            args = _intern_args(g, ids)
            self.args.append(None if args is None or g.negated else args)

    def fact(self, g: Predicate, a: Args) -> int | None:
        return _diagram_fact(self.store, g.name, a) if g.name in SIDE else self.store.prove(g.name, a)

    def done(self) -> bool:
        return bool(self.parts) and all(a is not None and self.fact(g, a) is not None
                                        for g, a in zip(self.parts, self.args))

    def facts(self) -> tuple[int | None, ...]:
        return tuple(None if a is None else self.fact(g, a) for g, a in zip(self.parts, self.args))


def _result(problem: Problem, names: tuple[str, ...], store: Store, goals: _Goals, status: Status,
            stopped: str | None, level: int, start: float, deduction: Deduction) -> Closure:
    goal_facts = goals.facts()
    if status == "budget" and goals.parts and all(f is not None for f in goal_facts):
        status = "proved"
    unsound = tuple(f"{name} {' '.join(names[a] if isinstance(a, int) else str(a) for a in args)} "
                    f"(by {rule})" for name, args, rule, _ in store.unsound)
    return Closure(problem, names, tuple(store.facts), status, goals.parts, goal_facts,
                   time.monotonic() - start, level, unsound, store, stopped, deduction)


def _clock(budget: Budget | Clock | None, timeout: float | None, max_facts: int | None) -> Clock:
    if budget is not None and (timeout is not None or max_facts is not None):
        raise GeoDSLError("pass a budget or timeout/max_facts, not both",
                          hint="Budget(seconds=..., max_facts=...) holds both")
    if isinstance(budget, Clock):
        return budget
    if budget is None:
        budget = Budget(seconds=DEFAULT_SECONDS if timeout is None else timeout,
                        max_facts=DEFAULT_MAX_FACTS if max_facts is None else max_facts)
    return budget.start()


def _stopped(problem: Problem, stage: str, start: float) -> Closure:
    """The closure of a problem whose budget ran out before deduction began."""
    return Closure(problem, tuple(problem.premise.points), (), "budget", tuple(problem.goals),
                   tuple(None for _ in problem.goals), time.monotonic() - start, 0, (), None, stage)
