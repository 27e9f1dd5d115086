"""The provers, by ``--method`` name, behind one interface
(:class:`~geodsl.proofs.Prover`): what commands and checkers call.

=========== ==================================================================
method      prover
=========== ==================================================================
``ddar``    deduction + algebraic chasing (:class:`~geodsl.ddar.prover.DDARProver`)
``search``  DD+AR, then DD+AR with auxiliary points
            (:class:`~geodsl.search.prover.SearchProver`)
``algebra`` coordinates and Wu's pseudo-remainder, with a checked certificate
            (:class:`~geodsl.algebra.prover.AlgebraProver`)
``auto``    DD+AR, then the search, then the algebra, inside one budget
            (:class:`AutoProver`)
=========== ==================================================================
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from .algebra.prover import AlgebraProver
from .budget import Budget, Clock
from .ddar.prover import DDARProver, result_of
from .lang.ast import Predicate, Problem
from .lang.errors import GeoDSLError
from .proofs import Prover, Result
from .realizer import Diagrams
from .search.prover import DEFAULT_DEPTH, SearchProver, merge

METHODS: tuple[str, ...] = ("ddar", "search", "algebra", "auto")

SEARCH_SHARE = 0.5
"""The part of the time left after DD+AR that ``auto`` gives the search;
the algebra gets the rest (and whatever the search leaves)."""


class AutoProver:
    """DD+AR; for the goals it leaves, the auxiliary-point search with
    :data:`SEARCH_SHARE` of the time left; for those still left, the
    algebraic prover with the rest — one clock for all three."""

    name = "auto"
    diagrams = DDARProver.diagrams

    def __init__(self, seed: int = 0, jobs: int = 1, depth: int = DEFAULT_DEPTH) -> None:
        self.seed = seed
        self.search = SearchProver(seed=seed, depth=depth, jobs=jobs)
        self.algebra = AlgebraProver(seed=seed)

    def prove(self, problem: Problem, goals: Sequence[Predicate] | None = None,
              budget: Budget | Clock | None = None, *, figures: Diagrams | None = None) -> Result:
        clock = budget if isinstance(budget, Clock) else (budget or Budget()).start()
        run = DDARProver(seed=self.seed).saturate(problem, goals, clock, figures=figures)
        result = result_of(run)
        result = replace(result, method=self.name, stats={**result.stats, "by_ddar": _proved(result)})
        if result.solved or clock.expired() or not result.goals:
            return result
        share = Clock(clock.budget, min(clock.deadline, time.monotonic() + SEARCH_SHARE * clock.remaining()))
        left = [g.goal for g in result.goals if not g.proved]
        found = self.search.search(problem, left, share, base=run)
        result = merge(self.name, result, found)
        result = replace(result, stats={**result.stats, "by_search": _proved(found)})
        if result.solved or clock.expired():
            return result
        left = [g.goal for g in result.goals if not g.proved]
        found = self.algebra.prove(problem, left, clock, figures=figures)
        result = merge(self.name, result, found)
        return replace(result, stats={**result.stats, "by_algebra": _proved(found)})


def _proved(result: Result) -> int:
    return sum(g.proved for g in result.goals)


def get_prover(method: str = "ddar", *, seed: int = 0, jobs: int = 1, depth: int = DEFAULT_DEPTH) -> Prover:
    """The prover behind ``method`` (``--method``), seeded; ``jobs`` and
    ``depth`` set the auxiliary-point search (``search``, ``auto``)."""
    if method == "ddar":
        return DDARProver(seed=seed)
    if method == "search":
        return SearchProver(seed=seed, depth=depth, jobs=jobs)
    if method == "algebra":
        return AlgebraProver(seed=seed)
    if method == "auto":
        return AutoProver(seed=seed, jobs=jobs, depth=depth)
    raise GeoDSLError(f"unknown proving method `{method}`", hint="methods: " + ", ".join(METHODS))


def prove(problem: Problem, goals: Sequence[Predicate] | None = None, *, method: str = "ddar",
          budget: Budget | Clock | None = None, seed: int = 0, jobs: int = 1,
          depth: int = DEFAULT_DEPTH) -> Result:
    """Prove ``goals`` (default: the problem's) with ``method`` within ``budget``."""
    return get_prover(method, seed=seed, jobs=jobs, depth=depth).prove(problem, goals, budget)
