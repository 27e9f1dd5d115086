"""What a try of the auxiliary-point search costs: extending the premise's
saturated closure (``geodsl.ddar.engine.extend``, what the search does)
against saturating the extended problem from scratch (realize + closure,
what it did before), side by side in one run.

    python benchmarks/extend.py [--set jgex|imo|both] [--per-problem K] [--repeat R] [--list]

For every problem of the set that DD+AR leaves unproved, the ``K``
best-ranked candidates (the search's own ranking, seed 0) are tried both
ways, alternately, with a budget of 20 s each (the search's own). Prints
per set: problems, tries, the median and total seconds of a try each way,
their ratio (extend / scratch: the median of the per-try ratios, and of the
totals), the tries whose verdicts differ (proved, not proved, degenerate)
and the unsound facts of the extensions. ``--repeat R`` keeps the fastest
of R runs of each try (a shared machine moves single timings by ±20%);
``--list`` prints one row per problem.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import geodsl
from geodsl.budget import Budget
from geodsl.ddar.engine import DIAGRAMS_NEEDED, Closure, closure, extend
from geodsl.lang.ast import Construction, Problem
from geodsl.lang.errors import GeoDSLError
from geodsl.search.candidates import figure_of, generate
from geodsl.search.prover import DEFAULT_TRY_SECONDS
from geodsl.search.rank import rank

Try = tuple[float, str, int]
"""A try's seconds, verdict (proved, saturated, budget, degenerate) and unsound facts."""

SETS = {"jgex": geodsl.datasets.path("jgex_ag_231"), "imo": geodsl.datasets.path("imo_ag_30")}


def _scratch(problem: Problem, chain: tuple[Construction, ...]) -> Try:
    start = time.monotonic()
    try:
        run = closure(problem.with_auxiliary(chain), seed=0, budget=Budget(seconds=DEFAULT_TRY_SECONDS))
    except GeoDSLError:
        return time.monotonic() - start, "degenerate", 0
    return time.monotonic() - start, "proved" if run.solved else run.status, 0


def _extended(base: Closure, chain: tuple[Construction, ...]) -> Try:
    start = time.monotonic()
    try:
        run = extend(base, chain, budget=Budget(seconds=DEFAULT_TRY_SECONDS))
    except GeoDSLError:
        return time.monotonic() - start, "degenerate", 0
    assert run is not None  # the base saturated
    return time.monotonic() - start, "proved" if run.solved else run.status, len(run.unsound)


def _fastest(repeat: int, run: Callable[[], Try]) -> Try:
    return min((run() for _ in range(repeat)), key=lambda r: r[0])


def run_set(label: str, path: Path, per_problem: int, repeat: int, listing: bool) -> None:
    scratch_times: list[float] = []
    extend_times: list[float] = []
    ratios: list[float] = []
    differ = unsound = problems = 0
    solved = {"scratch": 0, "extend": 0}
    for problem in geodsl.iter_load(str(path)):
        figures = geodsl.realize(problem, seed=0, diagrams=DIAGRAMS_NEEDED)
        base = closure(problem, figures=figures)
        if base.status != "saturated":
            continue
        problems += 1
        coords = dict(figures[0].all_coords)
        ranked = rank(generate(problem, coords), figure_of(problem, coords), problem.goals)[:per_problem]
        mine_s: list[float] = []
        mine_e: list[float] = []
        for candidate in ranked:
            chain = (candidate.construction,)
            ts, vs, _ = _fastest(repeat, lambda: _scratch(problem, chain))
            te, ve, bad = _fastest(repeat, lambda: _extended(base, chain))
            mine_s.append(ts)
            mine_e.append(te)
            ratios.append(te / ts)
            differ += vs != ve
            unsound += bad
            solved["scratch"] += vs == "proved"
            solved["extend"] += ve == "proved"
        scratch_times += mine_s
        extend_times += mine_e
        if listing and mine_s:
            print(f"    {Path(problem.name or '?').name:<58} {len(problem.premise.points):>3} points  "
                  f"scratch {statistics.median(mine_s):.4f}  extend {statistics.median(mine_e):.4f}  "
                  f"ratio {sum(mine_e) / sum(mine_s):.2f}")
    tries = len(scratch_times)
    print(f"{label}: {problems} problems DD+AR leaves unproved, {tries} tries "
          f"({per_problem} best-ranked candidates each), fastest of {repeat}")
    print(f"  {'way':<8} {'median s/try':>13} {'total s':>8} {'proved':>7}")
    for way, times in (("scratch", scratch_times), ("extend", extend_times)):
        print(f"  {way:<8} {statistics.median(times):>13.4f} {sum(times):>8.2f} {solved[way]:>7}")
    print(f"  extend / scratch: median of per-try ratios {statistics.median(ratios):.2f}, "
          f"of totals {sum(extend_times) / sum(scratch_times):.2f}; verdicts differ on {differ} tries; "
          f"unsound facts {unsound}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", choices=("jgex", "imo", "both"), default="both")
    ap.add_argument("--per-problem", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    for name in (("jgex", "imo") if args.set == "both" else (args.set,)):
        run_set({"jgex": "JGEX-AG-231", "imo": "IMO-AG-30"}[name], SETS[name], args.per_problem, args.repeat,
                args.list)


if __name__ == "__main__":
    main()
