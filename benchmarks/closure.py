"""Solve rate and time of the closure on the public sets (DD+AR alone, no
auxiliary constructions, original AlphaGeometry text).

    python benchmarks/closure.py [--timeout S] [--set jgex|imo|both] [--list]

Prints, per set: solved, median / p90 / total seconds per problem (realize +
closure + proof), and the problems that were not solved with their status.
Newclid side by side is not wired in yet (it needs its own venv).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import geodsl

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
SETS = {"jgex": DATA / "jgex_ag_231.txt", "imo": DATA / "imo_ag_30.txt"}


def run_set(path: Path, timeout: float, listing: bool) -> None:
    times: list[float] = []
    solved = 0
    unsound = 0
    failures: list[str] = []
    problems = list(geodsl.iter_load(str(path)))
    for p in problems:
        start = time.monotonic()
        if isinstance(p, geodsl.GeoDSLError):
            failures.append(f"  parse error: {p.message}")
            continue
        try:
            c = geodsl.closure(p, timeout=timeout)
            if c.solved:
                c.proof()
        except geodsl.GeoDSLError as exc:
            failures.append(f"  {p.name}: error {exc.message}")
            times.append(time.monotonic() - start)
            continue
        elapsed = time.monotonic() - start
        times.append(elapsed)
        unsound += len(c.unsound)
        if c.solved:
            solved += 1
        else:
            failures.append(f"  {p.name}: {c.status} ({len(c.facts)} facts, {elapsed:.2f} s)")
        if listing:
            print(f"{p.name}\t{'solved' if c.solved else c.status}\t{elapsed:.3f}", flush=True)
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))] if times else 0.0
    print(f"{path.name}: solved {solved}/{len(problems)}  median {statistics.median(times):.3f} s  "
          f"p90 {p90:.3f} s  max {max(times):.3f} s  total {sum(times):.1f} s  "
          f"unsound facts {unsound}  (timeout {timeout} s)")
    if listing:
        print("\n".join(failures))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--set", choices=["jgex", "imo", "both"], default="both")
    ap.add_argument("--list", action="store_true", help="print every problem and the unsolved ones")
    args = ap.parse_args()
    for name in (["jgex", "imo"] if args.set == "both" else [args.set]):
        run_set(SETS[name], args.timeout, args.list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
