"""Auxiliary-point search as a :class:`~geodsl.proofs.Prover`
(``--method search``, ``--aux-search``).

Breadth-first over auxiliary constructions, best-ranked first, to
``depth`` points: DD+AR on the premise alone, then on the premise plus one
candidate (the ``per_level`` best of :func:`~.rank.rank`), then, for the
``beam`` best-ranked one-point extensions, plus a second candidate ranked on
the extended figure, and so on. Each try extends the premise's saturated
closure (:func:`~geodsl.ddar.engine.extend`): the figures gain the
candidate's points, the store keeps every fact it derived, every rule keeps
its matches and gains only those through a new point, and DD+AR goes on
from there — the premise is never saturated again. A depth-2 try extends
the closure of its first point (computed once per prefix and kept), so it
adds one point too. Where the premise's run did not saturate (its budget ran
out), a try saturates the extended problem from scratch instead.

Tries run in a process pool of ``jobs`` workers (forked after the premise is
saturated, so each starts from its closure), in batches of ``jobs`` taken in
rank order; after each batch the best-ranked success, if any, wins. The
winner is therefore the best-ranked candidate that succeeds, whatever the
job count (timing apart: a try cut short by the budget on a slower run can
change it). The proof lists the auxiliary constructions
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
from ..ddar.engine import DIAGRAMS_NEEDED, Closure, extend
from ..ddar.prover import DDARProver, result_of
from ..lang.ast import Construction, Predicate, Problem
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


MAX_PREFIXES = 16
"""Closures of the premise plus a prefix one :class:`_Extender` keeps."""


class _Extender:
    """Tries as extensions of the premise's closure: a one-point chain
    extends it; a longer chain extends the closure of its prefix (the
    premise plus the points before the last, itself extended once and
    kept), so a depth-2 try adds one point, not two."""

    def __init__(self, base: Closure, seed: int) -> None:
        self.base = base
        self.seed = seed
        self._prefixes: dict[tuple[Construction, ...], Closure | None] = {}

    def prefix(self, chain: tuple[Construction, ...], budget: Budget) -> tuple[Closure, tuple[Construction, ...]]:
        """The closure to extend for ``chain``, and what to extend it by."""
        if len(chain) < 2:
            return self.base, chain
        head = chain[:-1]
        if head not in self._prefixes:
            if len(self._prefixes) >= MAX_PREFIXES:
                self._prefixes.pop(next(iter(self._prefixes)))
            try:
                self._prefixes[head] = extend(self.base, head, budget=budget)
            except GeoDSLError:
                self._prefixes[head] = None
        found = self._prefixes[head]
        if found is None or found.status != "saturated":  # not extendable: from the premise, all at once
            return self.base, chain
        return found, chain[-1:]

    def run(self, chain: tuple[Construction, ...], seconds: float) -> Result | None:
        """DD+AR on the premise plus ``chain``: an extension, or the extended
        problem saturated anew when the premise's closure cannot be extended.
        None when the constructions are degenerate in the premise's diagrams."""
        budget = Budget(seconds=max(seconds, 0.01))
        try:
            start, by = self.prefix(chain, budget)
            run = extend(start, by, budget=budget)
            if run is None:
                return DDARProver(seed=self.seed).prove(self.base.problem.with_auxiliary(chain), None, budget)
        except GeoDSLError:
            return None
        return result_of(run)


_WORKER: _Extender | None = None
"""A pool worker's extender (set by :func:`_start_worker`)."""


def _start_worker(base: Closure, seed: int) -> None:
    global _WORKER
    _WORKER = _Extender(base, seed)


def _try(chain: tuple[Construction, ...], seconds: float) -> Result | None:
    """One try in a pool worker."""
    assert _WORKER is not None
    return _WORKER.run(chain, seconds)


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
        run = DDARProver(seed=self.seed).saturate(problem, goals, clock, figures=figures)
        first = result_of(run)
        if first.solved or clock.expired() or not first.goals:
            return replace(first, method=self.name)
        return merge(self.name, first, self.search(problem, [g.goal for g in first.goals if not g.proved], clock,
                                                   base=run))

    def search(self, problem: Problem, goals: Sequence[Predicate] | None, clock: Clock, base: Closure) -> Result:
        """The search proper, for ``goals`` (default: the problem's) that
        DD+AR on the premise alone does not prove. ``base``: that DD+AR
        run (:meth:`DDARProver.saturate`), the closure every try extends."""
        start = time.monotonic()
        wanted = tuple(problem.goals if goals is None else goals)
        frontier: list[tuple[Construction, ...]] = [()]
        tried = 0
        generated = 0
        status = "saturated"
        extender = _Extender(base, self.seed)
        pool = None
        if self.jobs > 1:
            pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=multiprocessing.get_context("fork"),
                                       initializer=_start_worker, initargs=(base, self.seed))
        try:
            for level in range(1, self.depth + 1):
                chains: list[tuple[Construction, ...]] = []
                for prefix in frontier:
                    if clock.expired():
                        break
                    found = self._candidates(problem, base, prefix, wanted)
                    generated += len(found)
                    chains.extend(prefix + (c.construction,) for c in found[: self.per_level])
                winner, count = self._run(extender, chains, clock, pool)
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
        return Result(self.name, status, tuple(GoalResult(g, None) for g in wanted),  # type: ignore[arg-type]  # a Status literal
                      time.monotonic() - start, {"tries": tried, "candidates": generated, "depth": self.depth},
                      (f"no auxiliary construction among {tried} tried (depth {self.depth}) proves the goal",))

    def _candidates(self, problem: Problem, base: Closure, prefix: tuple[Construction, ...],
                    goals: Sequence[Predicate]) -> list[Candidate]:
        """The candidates on the premise plus ``prefix``, ranked, in the
        figure the tries are realized in (the base's first diagram, with
        ``prefix``'s points)."""
        extended = problem.with_auxiliary(prefix)
        try:
            figures = base.figures
            if figures is None:
                figure = realize(extended, seed=self.seed, diagrams=1)[0]
            else:
                figure = figures.extended(prefix)[0] if prefix else figures[0]
        except GeoDSLError:
            return []
        coords = dict(figure.all_coords)
        return rank(generate(extended, coords, seed=self.seed), figure_of(extended, coords), goals)

    def _run(self, extender: _Extender, chains: list[tuple[Construction, ...]], clock: Clock,
             pool: ProcessPoolExecutor | None) -> tuple[tuple[tuple[Construction, ...], Result] | None, int]:
        """Try ``chains`` in rank order, in batches of ``jobs``; the first
        batch with a success gives its best-ranked one."""
        size = max(1, self.jobs)
        tried = 0
        for at in range(0, len(chains), size):
            if clock.expired():
                break
            batch = chains[at: at + size]
            seconds = min(self.try_seconds, clock.remaining())
            if pool is None:
                results = [extender.run(chain, seconds) for chain in batch]
            else:
                futures = [pool.submit(_try, chain, seconds) for chain in batch]
                results = [f.result() for f in futures]
            tried += len(batch)
            for chain, result in zip(batch, results):
                if result is not None and result.solved:
                    return (chain, result), tried
        return None, tried
