"""True options: what the closure proves from a sampled premise, minus what
the premise says outright, ranked and chosen; and the simplification of
the premise to what their proofs use.

A *conclusion* is a fact of the saturated closure (its facts and the
facts :mod:`geodsl.ddar.harvest` lists) that

- is not a premise fact (``rule == "premise"``),
- does not follow from a single construction: the premise facts its
  derivation rests on come from at least two constructions (a foot's
  ``perp`` and ``coll`` make ``foot`` by definition; that is one
  construction restated, not a conclusion),
- is stated by a predicate options use (:data:`OPTION_PREDICATES`).

Its *search depth* is the closure level that first derived it and its
*proof length* the number of derived facts its pruned proof holds (what
``Closure.proof`` would print as steps). GeoChallenge keeps the hardest
conclusions; here the options are drawn from the hardest
:data:`TOP` by a seeded draw, at most one per predicate and point set, so
the options of a question are not restatements of each other.

Simplification keeps the constructions whose facts some chosen option's
derivation uses, the constructions that define the points the options
name, and (transitively) those that define the points of what is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..ddar import Closure
from ..lang.ast import Predicate, Problem
from ..proofs import Proof
from ..realizer.rng import Random

OPTION_PREDICATES = ("coll", "para", "perp", "cong", "cyclic", "eqangle", "eqratio", "midp", "circle",
                     "simtri", "simtrir", "contri", "contrir", "aconst", "rconst")
"""The predicates an option may state (GeoChallenge's options: collinear,
concyclic, parallel, perpendicular, equal lengths, equal angles, equal
ratios, midpoints, circumcentres, similar and congruent triangles, constant
angles and ratios)."""

TOP = 16
"""Options are drawn from this many hardest conclusions."""

MIN_STEPS = 2
"""A conclusion whose proof is one step (one rule applied to two
constructions' facts) is too direct to ask about."""


@dataclass(frozen=True)
class Conclusion:
    """A provable fact of the closure with what its derivation rests on."""

    predicate: Predicate
    fact: int
    constructions: tuple[int, ...]
    """Indices of the premise constructions whose facts the derivation uses."""
    level: int
    steps: int

    @property
    def difficulty(self) -> tuple[int, int]:
        return (self.steps, self.level)


def construction_of_origin(problem: Problem) -> dict[str, int]:
    """``line:col`` of every clause (as premise facts record their origin) → construction index."""
    out: dict[str, int] = {}
    for i, construction in enumerate(problem.premise.constructions):
        for clause in construction.clauses:
            where = clause.span or construction.span
            if where is not None:
                out[f"{where.line}:{where.column}"] = i
    return out


def conclusions(closure: Closure, min_steps: int = MIN_STEPS) -> list[Conclusion]:
    """Every conclusion of a saturated closure (module docstring) whose
    proof has at least ``min_steps`` steps, in fact order."""
    facts = closure.facts
    origin = construction_of_origin(closure.problem)
    # Per fact: the premise constructions and the derived facts beneath it,
    # computed in fact order (parents come first).
    roots: list[frozenset[int]] = []
    below: list[frozenset[int]] = []
    for f in facts:
        if f.rule == "premise":
            where = origin.get(f.origin or "")
            roots.append(frozenset(() if where is None else (where,)))
            below.append(frozenset())
            continue
        r: set[int] = set()
        b: set[int] = {f.id}
        for parent in f.parents:
            r |= roots[parent]
            b |= below[parent]
        roots.append(frozenset(r))
        below.append(frozenset(b))
    out = []
    seen: set[tuple[object, ...]] = set()
    for f in facts:
        if f.rule == "premise" or f.name not in OPTION_PREDICATES or len(roots[f.id]) < 2:
            continue
        if len(below[f.id]) < min_steps or _restates(closure.fact_predicate(f)):
            continue
        if f.key in seen:
            continue
        seen.add(f.key)
        out.append(Conclusion(closure.fact_predicate(f), f.id, tuple(sorted(roots[f.id])), f.level,
                              len(below[f.id])))
    return out


def _restates(p: Predicate) -> bool:
    """A fact that only restates another: parallel lines through one point
    (a collinearity), a triangle similar or congruent to itself reordered
    (an isosceles triangle)."""
    a = [str(x) for x in p.args]
    if p.name == "para":
        return len({a[0], a[1]} & {a[2], a[3]}) > 0
    if p.name in ("simtri", "simtrir", "contri", "contrir"):
        return set(a[:3]) == set(a[3:])
    return False


def _topic(predicate: Predicate) -> tuple[str, tuple[str, ...]]:
    """What an option is about: its predicate family and its points."""
    family = "triangles" if predicate.name in ("simtri", "simtrir", "contri", "contrir") else predicate.name
    return family, tuple(sorted({str(a) for a in predicate.points}))


def choose(candidates: Sequence[Conclusion], count: int, rng: Random) -> list[Conclusion]:
    """Up to ``count`` options drawn from the hardest :data:`TOP` candidates,
    at most one per predicate family and point set."""
    ranked = sorted(candidates, key=lambda c: (-c.steps, -c.level, c.fact))[:TOP]
    chosen: list[Conclusion] = []
    topics: set[tuple[str, tuple[str, ...]]] = set()
    names: list[str] = []
    pool = list(ranked)
    while pool and len(chosen) < count:
        # Prefer a predicate not chosen yet; then the draw.
        fresh = [c for c in pool if c.predicate.name not in names] or pool
        pick = fresh[rng.index(len(fresh))]
        pool.remove(pick)
        topic = _topic(pick.predicate)
        if topic in topics:
            continue
        topics.add(topic)
        names.append(pick.predicate.name)
        chosen.append(pick)
    return chosen


def used_by_proofs(problem: Problem, proofs: Iterable[Proof], predicates: Iterable[Predicate]) -> list[int]:
    """The constructions that the premise facts of ``proofs`` come from
    (each given's origin), that define the points ``predicates`` name, and
    those they depend on: what a simplified premise must keep."""
    origin = construction_of_origin(problem)
    used = [origin[g.origin] for proof in proofs for g in proof.givens if g.origin in origin]
    return _with_dependencies(problem, used, [str(p) for pred in predicates for p in pred.points])


def kept_constructions(problem: Problem, chosen: Iterable[Conclusion],
                       extra_points: Iterable[str] = ()) -> list[int]:
    """The constructions simplification keeps (module docstring), in premise order."""
    chosen = list(chosen)
    return _with_dependencies(problem, [i for c in chosen for i in c.constructions],
                              [str(p) for c in chosen for p in c.predicate.points] + list(extra_points))


def _with_dependencies(problem: Problem, indices: Iterable[int], points: Iterable[str]) -> list[int]:
    """``indices``, the constructions of ``points``, and every construction
    they use (transitively), in premise order."""
    constructions = problem.premise.constructions
    owner = {p: i for i, c in enumerate(constructions) for p in c.points}
    keep: set[int] = set()
    stack = list(indices) + [owner[p] for p in points]
    while stack:
        i = stack.pop()
        if i in keep:
            continue
        keep.add(i)
        for clause in constructions[i].clauses:
            for a in clause.args:
                j = owner.get(a) if isinstance(a, str) else None
                if j is not None and j != i:
                    stack.append(j)
    return sorted(keep)
