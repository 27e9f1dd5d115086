"""Realize time over the public sets: median and total, one core.

    python benchmarks/realize.py [--diagrams K] [--seeds N]

Each problem is realized from its original AlphaGeometry text with K
independent diagrams (default 3, goals checked), for N seeds; the table
gives the median and the total wall time per set, and how many samples were
discarded because a goal chose the configuration.
"""

from __future__ import annotations

import argparse
import statistics
import time

import geodsl
from geodsl.realizer import realize

SETS = [("JGEX-AG-231", geodsl.datasets.path("jgex_ag_231")), ("IMO-AG-30", geodsl.datasets.path("imo_ag_30"))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diagrams", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()
    rows = []
    all_times: list[float] = []
    for name, path in SETS:
        problems = geodsl.load(path)
        times: list[float] = []
        failed = resampled = 0
        for seed in range(args.seeds):
            for problem in problems:
                start = time.perf_counter()
                try:
                    figs = realize(problem, seed=seed, diagrams=args.diagrams)
                    resampled += figs.resampled
                except geodsl.GeoDSLError:
                    failed += 1
                times.append(time.perf_counter() - start)
        all_times += times
        rows.append((name, len(problems), len(times) - failed, len(times), statistics.median(times),
                     sum(times) / args.seeds, max(times), resampled))
    rows.append(("both", sum(r[1] for r in rows), sum(r[2] for r in rows), sum(r[3] for r in rows),
                 statistics.median(all_times), sum(all_times) / args.seeds, max(all_times),
                 sum(r[7] for r in rows)))
    print(f"realize, {args.diagrams} diagrams per problem, goals checked, {args.seeds} seeds")
    print(f"{'set':<12} {'problems':>8} {'realized':>12} {'median ms':>10} {'total s/seed':>13} "
          f"{'max ms':>8} {'goal resamples':>15}")
    for name, n, ok, runs, med, total, worst, res in rows:
        print(f"{name:<12} {n:>8} {f'{ok}/{runs}':>12} {med * 1e3:>10.2f} {total:>13.3f} "
              f"{worst * 1e3:>8.1f} {res:>15}")


if __name__ == "__main__":
    main()
