"""Auxiliary-point search as a :class:`~geodsl.proofs.Prover`
(``--method search``, ``--aux-search``).

Breadth-first over auxiliary constructions, best-ranked first, to
``depth`` points: DD+AR on the premise alone, then on the premise plus one
candidate (the ``per_level`` best of :func:`~.rank.rank`), then, for the
``beam`` best-ranked one-point extensions, plus a second candidate ranked on
the extended figure, and so on. Each try is a whole DD+AR run on the
extended problem (the candidate in its ``|`` section): the closure's store
cannot take a new point once its numeric model and rule matches are built
(their tables are sized by the point count and the matches enumerate
bindings over all points), so the search re-saturates — a cost measured in
``benchmarks/closure.py`` (``search`` rows: tries and seconds per try).

Tries run in a process pool of ``jobs`` workers, in batches of ``jobs``
taken in rank order; after each batch the best-ranked success, if any,
wins. The winner is therefore the best-ranked candidate that succeeds,
whatever the job count (timing apart: a try cut short by the budget on a
slower run can change it). The proof lists the auxiliary constructions
(``Proof.auxiliary``) and is an ordinary DD+AR proof of the extended
problem, audited like any other.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from ..budget import Budget, Clock
from ..ddar.engine import DIAGRAMS_NEEDED
from ..ddar.prover import DDARProver
from ..lang.ast import Construction, Predicate, Premise, Problem
from ..lang.errors import GeoDSLError
from ..proofs import GoalResult, Result
from ..realizer import Diagrams, realize
from .candidates import Candidate, figure_of, generate
from .rank import rank

DEFAULT_DEPTH = 2
DEFAULT_PER_LEVEL = 400
"""Candidates tried on top of one figure at most (the best-ranked)."""
DEFAULT_BEAM = 4
"""Extensions of one level carried to the next."""
DEFAULT_TRY_SECONDS = 20.0
"""The longest one DD+AR run on an extended problem may take."""


def extended(problem: Problem, constructions: Sequence[Construction]) -> Problem:
    """``problem`` with ``constructions`` appended to its ``|`` section."""
    return replace(problem, premise=Premise(problem.premise.constructions + tuple(constructions),
                                            problem.premise.span))


def merge(method: str, first: Result, then: Result) -> Result:
    """``first``'s goals, each unproved one taken from ``then`` (which was
    asked for those), with both runs' counts."""
    found = {g.goal: g for g in then.goals if g.proved}
    goals = tuple(found.get(g.goal, g) if not g.proved else g for g in first.goals)
    solved = bool(goals) and all(g.proved for g in goals)
    stats = dict(first.stats)
    stats.update({k: v for k, v in then.stats.items() if k not in stats})
    return Result(method, "proved" if solved else then.status, goals, first.seconds + then.seconds, stats,
                  first.notes + then.notes)


def _try(problem: Problem, goals: tuple[Predicate, ...], seed: int, seconds: float) -> Result | None:
    """DD+AR on one extended problem (None when its constructions are
    degenerate in the problem's diagrams)."""
    try:
        return DDARProver(seed=seed).prove(problem, goals, Budget(seconds=max(seconds, 0.01)))
    except GeoDSLError:
        return None


class SearchProver:
    """DD+AR, then DD+AR with auxiliary points from the rulebase's
    constructions (module docstring)."""

    name = "search"
    diagrams = DIAGRAMS_NEEDED

    def __init__(self, seed: int = 0, depth: int = DEFAULT_DEPTH, jobs: int = 1,
                 per_level: int = DEFAULT_PER_LEVEL, beam: int = DEFAULT_BEAM,
                 try_seconds: float = DEFAULT_TRY_SECONDS) -> None:
        self.seed = seed
        self.depth = depth
        self.jobs = jobs
        self.per_level = per_level
        self.beam = beam
        self.try_seconds = try_seconds

    def prove(self, problem: Problem, goals: Sequence[Predicate] | None = None,
              budget: Budget | Clock | None = None, *, figures: Diagrams | None = None) -> Result:
        clock = budget if isinstance(budget, Clock) else (budget or Budget()).start()
        base = DDARProver(seed=self.seed).prove(problem, goals, clock, figures=figures)
        if base.solved or clock.expired() or not base.goals:
            return replace(base, method=self.name)
        return merge(self.name, base, self.search(problem, [g.goal for g in base.goals if not g.proved], clock))

    def search(self, problem: Problem, goals: Sequence[Predicate] | None, clock: Clock,
               base: Result | None = None) -> Result:
        """The search proper (DD+AR on the premise alone already failed:
        ``base`` is that run, if the caller has it)."""
        start = time.monotonic()
        wanted = tuple(problem.goals if goals is None else goals)
        frontier: list[tuple[Construction, ...]] = [()]
        tried = 0
        generated = 0
        status = "saturated"
        pool = None
        if self.jobs > 1:
            pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=multiprocessing.get_context("fork"))
        try:
            for level in range(1, self.depth + 1):
                chains: list[tuple[Construction, ...]] = []
                for prefix in frontier:
                    if clock.expired():
                        break
                    found = self._candidates(extended(problem, prefix), wanted)
                    generated += len(found)
                    chains.extend(prefix + (c.construction,) for c in found[: self.per_level])
                winner, count = self._run(problem, wanted, chains, clock, pool)
                tried += count
                if winner is not None:
                    chain, result = winner
                    stats = {"tries": tried, "candidates": generated, "depth": level,
                             "auxiliary": len(chain), **result.stats}
                    return Result(self.name, "proved", result.goals, time.monotonic() - start, stats)
                if clock.expired():
                    status = "budget"
                    break
                frontier = chains[: self.beam]
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
        goals_out = base.goals if base is not None else tuple(GoalResult(g, None) for g in wanted)
        return Result(self.name, status, goals_out, time.monotonic() - start,  # type: ignore[arg-type]  # a Status literal
                      {"tries": tried, "candidates": generated, "depth": self.depth},
                      (f"no auxiliary construction among {tried} tried (depth {self.depth}) proves the goal",))

    def _candidates(self, problem: Problem, goals: Sequence[Predicate]) -> list[Candidate]:
        try:
            figure = realize(problem, seed=self.seed, diagrams=1)[0]
        except GeoDSLError:
            return []
        coords = dict(figure.all_coords)
        return rank(generate(problem, coords, seed=self.seed), figure_of(problem, coords), goals)

    def _run(self, problem: Problem, goals: tuple[Predicate, ...], chains: list[tuple[Construction, ...]],
             clock: Clock, pool: ProcessPoolExecutor | None
             ) -> tuple[tuple[tuple[Construction, ...], Result] | None, int]:
        """Try ``chains`` in rank order, in batches of ``jobs``; the first
        batch with a success gives its best-ranked one."""
        size = max(1, self.jobs)
        tried = 0
        for at in range(0, len(chains), size):
            if clock.expired():
                break
            batch = chains[at: at + size]
            seconds = min(self.try_seconds, clock.remaining())
            problems = [extended(problem, chain) for chain in batch]
            if pool is None:
                results = [_try(p, goals, self.seed, seconds) for p in problems]
            else:
                futures = [pool.submit(_try, p, goals, self.seed, seconds) for p in problems]
                results = [f.result() for f in futures]
            tried += len(batch)
            for chain, result in zip(batch, results):
                if result is not None and result.solved:
                    return (chain, result), tried
        return None, tried
