"""The trusted checker of proof steps: does a claim follow from given facts
by **one** rule application, **one** chase, or a bounded closure?

This is the small verifier of the design's "untrusted search, trusted
check": whatever wrote a step (a model, Newclid, geodsl's own closure), the
step counts only if this module confirms it, and it confirms only three
kinds of justification, each checked independently of how it was found:

* **one rule** of ``rulebase/rules.gdl``: the claim is an instance of one
  of the rule's conclusions, every premise of the rule (under the same
  binding) is one of the given facts, literally (up to the predicate's
  symmetries), and every side condition of the rule holds in the figure;
* **one chase**: a fresh fact store (:class:`geodsl.ddar.store.Store`,
  empty but for the given facts) proves the claim in one go — an angle,
  ratio, distance or squared-length (Pythagoras) elimination over the given
  facts' equations, a structure (three points of one line the given
  collinearities make), or what a predicate means (a midpoint from its
  collinearity and equal distances) — citing given facts only; the side
  conditions the chase reads from the figure (the order of points on a
  line, the branch of a halved angle) are checked there;
* **a bounded closure** (for ``valid_skip``): the DD+AR closure started from
  the given facts alone (``geodsl.closure(..., premise_facts=...)``) proves
  the claim within a budget; its proof says how many steps were skipped.

A side condition claimed as a step (``A,B,C are not collinear``, "∠ABC is
obtuse") is read from the figure, as the closure does; so is a negation,
shown by the diagrams (a counterexample to the positive statement).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Literal

from geodsl.budget import Budget, BudgetExceeded
from geodsl.ddar.engine import DIAGRAMS_NEEDED, closure
from geodsl.ddar.facts import Arg as FactArg, Args, canonical, normalize_constant
from geodsl.ddar.numeric import NumericModel
from geodsl.ddar.ruleset import Atom, RuleSpec, load_rules
from geodsl.ddar.store import SIDE, Store
from geodsl.lang.ast import Problem
from geodsl.lang.constants import Constant
from geodsl.lang.definitions import expand, rulebase
from geodsl.lang.errors import GeoDSLError, GoalFalseError
from geodsl.lang.notation import point_text
from geodsl.lang.terms import Arg, Predicate
from geodsl.realizer import Diagrams, realize

How = Literal["rule", "chase", "structure", "definition", "figure", "closure"]

MAX_RULE_NODES = 200_000
"""Search nodes one rule-matching question may take (bounded, as every search)."""

POLYGONS = ("triangle", "iso_triangle", "r_triangle", "risos", "ieq_triangle", "triangle12",
            "quadrangle", "trapezoid", "r_trapezoid", "eq_trapezoid", "eq_quadrangle",
            "iso_trapezoid", "rectangle", "isquare", "square", "pentagon")
"""Constructions that make a polygon of their points: the figure's ``∠B``
is the angle at B between its neighbours in the first one naming B."""


@dataclass(frozen=True)
class Justification:
    """Why a claim holds: how (one rule, one chase, ...), by what, from which
    given facts (indices into the facts asked about) and resting on which
    side conditions read from the figure."""

    how: How
    rule: str
    label: str
    uses: tuple[int, ...] = ()
    checks: tuple[Predicate, ...] = ()
    steps: int = 1
    """Steps the justification takes (more than one only for a closure)."""


class View:
    """One diagram of a :class:`Figure`, as the notation reader's figure
    (:class:`geodsl.lang.notation.Figure`): orientations and vertex names."""

    def __init__(self, figure: "Figure", index: int, triangles: Sequence[tuple[str, str, str]] = ()) -> None:
        self.figure = figure
        self.coords = figure.diagrams[index].all_coords
        self.triangles = tuple(triangles)
        self.asked: list[tuple[str, str, str, int]] = []
        """The orientations the reader asked, with the answers (the claim rests on them)."""

    def orientation(self, a: str, b: str, c: str) -> int:
        try:
            za, zb, zc = self.coords[a], self.coords[b], self.coords[c]
        except KeyError:
            return 0
        cross = ((zb - za).conjugate() * (zc - za)).imag
        scale = max(abs(zb - za), abs(zc - za), 1e-12)
        turn = 0 if abs(cross) <= 1e-9 * scale * scale else (1 if cross > 0 else -1)
        self.asked.append((a, b, c, turn))
        return turn

    def angle_at(self, vertex: str) -> tuple[str, str] | None:
        for polygon in list(self.triangles) + list(self.figure.polygons):
            if vertex in polygon:
                i = polygon.index(vertex)
                return polygon[i - 1], polygon[(i + 1) % len(polygon)]
        return None


@dataclass
class Figure:
    """A problem realized once for grading: its diagrams, the points in
    premise order, and the numeric model the fact stores read (the first
    diagram, the others as witnesses, as the closure reads them)."""

    problem: Problem
    diagrams: Diagrams
    deciding: int
    names: tuple[str, ...]
    model: NumericModel
    polygons: tuple[tuple[str, ...], ...]
    _stores: dict[tuple[object, ...], Store] = field(default_factory=dict, repr=False)

    @classmethod
    def realize(cls, problem: Problem, seed: int = 0, diagrams: int = 3) -> "Figure":
        """Realize ``problem`` (its declared auxiliary constructions included),
        ``diagrams`` deciding numeric truth and at least as many as the closure
        reads. Raises the realizer's :class:`~geodsl.lang.errors.GeoDSLError`."""
        count = max(diagrams, DIAGRAMS_NEEDED)
        try:
            figures = realize(problem, seed=seed, diagrams=count)
        except GoalFalseError:
            figures = realize(problem, seed=seed, diagrams=count, check_goals=False)
        names = tuple(problem.premise.points)
        first = figures[0].all_coords
        model = NumericModel([first[n] for n in names], figures[0].tol,
                             [[d.all_coords[n] for n in names] for d in figures[1:]])
        return cls(problem, figures, diagrams, names, model, _polygons(problem))

    @property
    def seed(self) -> int:
        return self.diagrams.seed

    def view(self, index: int = 0, triangles: Sequence[tuple[str, str, str]] = ()) -> View:
        return View(self, index, triangles)

    def ids(self, predicate: Predicate) -> Args | None:
        """The predicate's arguments with points as ids (None if a point is not in the figure)."""
        out: list[int | Constant] = []
        index = {n: i for i, n in enumerate(self.names)}
        for a in predicate.args:
            if isinstance(a, str):
                if a not in index:
                    return None
                out.append(index[a])
            else:
                out.append(a)
        return tuple(out)

    def holds_in(self, predicate: Predicate, index: int) -> bool:
        return self.diagrams[index].holds(predicate)

    def counterexample(self, predicate: Predicate) -> int | None:
        """The first deciding diagram in which ``predicate`` is false, or None."""
        for i in range(self.deciding):
            if not self.diagrams[i].holds(predicate):
                return i
        return None

    def fresh_store(self) -> Store:
        return Store(self.model, self.names)


def _polygons(problem: Problem) -> tuple[tuple[str, ...], ...]:
    out = []
    for construction in problem.premise.constructions:
        for clause in construction.clauses:
            if clause.name in POLYGONS and len(construction.points) >= 3:
                out.append(tuple(construction.points))
    return tuple(out)


# ------------------------------------------------------------------ facts


@dataclass(frozen=True)
class _Given:
    """The facts asked about, each as (predicate, canonical arguments) —
    None for one the store cannot hold (a negation, a point not in the figure)."""

    keys: tuple[tuple[str, Args] | None, ...]
    by_name: dict[str, list[tuple[int, Args]]]


def _given(figure: Figure, facts: Sequence[Predicate]) -> _Given:
    keys: list[tuple[str, Args] | None] = []
    by_name: dict[str, list[tuple[int, Args]]] = {}
    for i, fact in enumerate(facts):
        args = figure.ids(fact)
        if args is None or fact.negated:
            keys.append(None)
            continue
        cargs = canonical(fact.name, args)
        keys.append((fact.name, cargs))
        by_name.setdefault(fact.name, []).append((i, cargs))
    return _Given(tuple(keys), by_name)


def _named(figure: Figure, args: Args) -> tuple[Arg, ...]:
    """Interned arguments back as point names."""
    return tuple(figure.names[a] if isinstance(a, int) else a for a in args)


def is_side(predicate: Predicate) -> bool:
    """A side condition (``ncoll``, ``obtuse_angle``, ...): read from the figure, never derived."""
    pdef = rulebase().predicates.get(predicate.name)
    return pdef is not None and pdef.side


def from_figure(figure: Figure, claim: Predicate) -> Justification | None:
    """A side condition or a negation, decided by the figure: every deciding
    diagram shows it (the caller has checked that)."""
    if claim.negated:
        return Justification("figure", "diagram", "A negation, shown by the diagrams (a counterexample "
                             "to the positive statement)", checks=(claim,))
    if is_side(claim):
        return Justification("figure", "diagram", "A side condition, read from the figure", checks=(claim,))
    return None


# ------------------------------------------------------------------ one chase


def one_chase(figure: Figure, facts: Sequence[Predicate], claim: Predicate) -> Justification | None:
    """The claim from the given facts by one chase, structure or definition
    (module docstring), or None."""
    given = _given(figure, facts)
    args = figure.ids(claim)
    if args is None or claim.negated or claim.name in SIDE:
        return None
    store = figure.fresh_store()
    position: dict[int, int] = {}
    for i, key in enumerate(given.keys):
        if key is None:
            continue
        fid = store.add(key[0], key[1], "premise", ())
        if fid is not None:
            position.setdefault(fid, i)
    target = canonical(claim.name, args)
    if (claim.name, target) in given.keys:
        i = given.keys.index((claim.name, target))
        return Justification("chase", "given", "Stated before (a premise or an earlier step)", uses=(i,))
    fid = store.prove(claim.name, target)
    if fid is None:
        return None
    fact = store.facts[fid]
    if any(p not in position for p in fact.parents):
        return None  # it needed a fact of its own on the way: more than one step
    kind: How = ("structure" if fact.rule in ("same_line", "same_circle") else
                 "chase" if fact.rule.endswith("_chase") or fact.rule == "angle_chase_halved" else "definition")
    checks = tuple(Predicate(name, _named(figure, sargs), neg) for name, neg, sargs in fact.sides)
    return Justification(kind, fact.rule, fact.label, tuple(sorted(position[p] for p in fact.parents)), checks)


# ------------------------------------------------------------------ one rule


@cache
def _perms(name: str) -> tuple[tuple[int, ...], ...]:
    return rulebase().predicate(name).perms


@cache
def _rules_concluding(name: str) -> tuple[RuleSpec, ...]:
    return tuple(r for r in load_rules() if any(n == name for n, _ in r.conclusions))


def _norm(value: object) -> object:
    return normalize_constant(value) if isinstance(value, Constant) else value


def _unify(atom_args: tuple[str | Constant, ...], values: Args, binding: dict[str, FactArg]
           ) -> dict[str, FactArg] | None:
    out = binding
    copied = False
    for var, value in zip(atom_args, values):
        if isinstance(var, str):
            bound = out.get(var)
            if bound is None:
                if not copied:
                    out, copied = dict(out), True
                out[var] = value
            elif bound != value:
                return None
        elif _norm(var) != _norm(value):
            return None
    return out


def _spellings(name: str, args: Args) -> Iterator[Args]:
    seen: set[Args] = set()
    for perm in _perms(name):
        spelled = tuple(args[i] for i in perm)
        if spelled not in seen:
            seen.add(spelled)
            yield spelled


class _Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfNodes


class _OutOfNodes(Exception):
    pass


def one_rule(figure: Figure, facts: Sequence[Predicate], claim: Predicate,
             prefer: str | None = None) -> Justification | None:
    """The claim as one application of a rule of ``rules.gdl`` to the given
    facts (module docstring), or None. ``prefer``: the rule a step names, tried first."""
    args = figure.ids(claim)
    if args is None or claim.negated or claim.name in SIDE:
        return None
    given = _given(figure, facts)
    target = canonical(claim.name, args)
    rules = list(_rules_concluding(claim.name))
    rules.sort(key=lambda r: r.name != prefer)
    budget = _Budget(MAX_RULE_NODES)
    try:
        for rule in rules:
            found = _apply(figure, rule, claim.name, target, given, budget)
            if found is not None:
                uses, sides = found
                checks = tuple(Predicate(n, _named(figure, sargs)) for n, sargs in sides)
                return Justification("rule", rule.name, rule.label, uses, checks)
    except _OutOfNodes:
        return None
    return None


def _apply(figure: Figure, rule: RuleSpec, name: str, target: Args, given: _Given,
           budget: _Budget) -> tuple[tuple[int, ...], list[tuple[str, Args]]] | None:
    for cname, cargs in rule.conclusions:
        if cname != name:
            continue
        for spelled in _spellings(name, target):
            binding = _unify(cargs, spelled, {})
            if binding is None:
                continue
            found = _join(figure, rule, list(rule.premises), binding, [], given, budget)
            if found is not None:
                return found
    return None


def _join(figure: Figure, rule: RuleSpec, premises: list[Atom], binding: dict[str, FactArg],
          uses: list[int], given: _Given, budget: _Budget
          ) -> tuple[tuple[int, ...], list[tuple[str, Args]]] | None:
    budget.spend()
    if not premises:
        return _sides_hold(figure, rule, binding, uses)
    # The premise with the most bound variables first: fewest candidates.
    premises = sorted(premises, key=lambda a: -sum(isinstance(v, str) and v in binding for v in a[1]))
    (pname, pargs), rest = premises[0], premises[1:]
    for index, fargs in given.by_name.get(pname, ()):
        for spelled in _spellings(pname, fargs):
            budget.spend()
            extended = _unify(pargs, spelled, binding)
            if extended is None:
                continue
            found = _join(figure, rule, rest, extended, uses + [index], given, budget)
            if found is not None:
                return found
    return None


def _sides_hold(figure: Figure, rule: RuleSpec, binding: dict[str, FactArg], uses: list[int]
                ) -> tuple[tuple[int, ...], list[tuple[str, Args]]] | None:
    sides: list[tuple[str, Args]] = []
    for sname, sargs in rule.sides:
        if any(isinstance(v, str) and v not in binding for v in sargs):
            return None
        values: Args = tuple(binding[v] if isinstance(v, str) else v for v in sargs)
        cargs = canonical(sname, values)
        if not figure.model.holds(sname, cargs):
            return None
        sides.append((sname, cargs))
    return tuple(sorted(set(uses))), sides


# ------------------------------------------------------------------ one step, closure


def one_step(figure: Figure, facts: Sequence[Predicate], claim: Predicate,
             prefer: str | None = None) -> Justification | None:
    """One rule or one chase from the given facts (a side condition or a
    negation from the figure), or None."""
    shown = from_figure(figure, claim)
    if shown is not None:
        return shown
    stated = _stated(figure, facts, claim)
    if stated is not None:
        return stated
    parts = expand(claim)
    if len(parts) > 1:
        found = [one_step(figure, facts, part, prefer) for part in parts]
        known = [f for f in found if f is not None]
        if len(known) < len(found):
            return None
        return replace(known[0], uses=tuple(sorted({u for f in known for u in f.uses})))
    return one_rule(figure, facts, claim, prefer) or one_chase(figure, facts, claim)


def _stated(figure: Figure, facts: Sequence[Predicate], claim: Predicate) -> Justification | None:
    """The claim is one of the given facts (up to its symmetries)."""
    args = figure.ids(claim)
    if args is None or claim.negated:
        return None
    key = (claim.name, canonical(claim.name, args))
    keys = _given(figure, facts).keys
    if key in keys:
        return Justification("chase", "given", "Stated before (a premise or an earlier step)", uses=(keys.index(key),))
    return None


def by_closure(figure: Figure, facts: Sequence[Predicate], claim: Predicate,
               budget: Budget) -> Justification | None:
    """The claim from the given facts by the DD+AR closure within ``budget``,
    or None (not derived, or the budget ran out). Its justification counts
    the closure proof's steps and lists the side conditions it rests on
    (:meth:`geodsl.ddar.Closure.rests_on`)."""
    if claim.negated or is_side(claim):
        return None
    problem = replace(figure.problem, goals=(claim,), options=(), queries=())
    try:
        run = closure(problem, figures=figure.diagrams, premise_facts=list(facts), budget=budget,
                      harvest_facts=False)
    except (GeoDSLError, BudgetExceeded):
        return None
    if not run.solved:
        return None
    proof = run.proof(claim)
    rests: list[Predicate] = []
    for part in expand(claim):
        fact = run.find(part)
        if fact is not None:
            rests.extend(run.rests_on(fact))
    uses = tuple(sorted({i for i, f in enumerate(facts) for g in proof.givens
                         if g.predicate.name == f.name and _same(g.predicate, f)}))
    return Justification("closure", "closure", f"DD+AR closure, {len(proof.steps)} steps", uses,
                         tuple(dict.fromkeys(rests)), steps=len(proof.steps))


def _same(a: Predicate, b: Predicate) -> bool:
    return rulebase().predicate(a.name).canonical_args(a.args) == rulebase().predicate(b.name).canonical_args(b.args)


def describe(predicate: Predicate) -> str:
    """A fact in the notation, for reasons (points upper-case)."""
    from geodsl.lang.notation import to_notation

    try:
        return to_notation(predicate)
    except ValueError:
        return " ".join([predicate.name] + [point_text(a) if isinstance(a, str) else str(a) for a in predicate.args])
