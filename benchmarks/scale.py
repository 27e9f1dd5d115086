"""Time and memory of ``geodsl.closure`` on large generated premises.

    python benchmarks/scale.py [--points 50,100,200,400,1000] [--timeout S] [--seed N]

Each size runs in a fresh process (peak RSS is per process), on the seeded
premise of :mod:`geodsl.realizer.synthetic`. Prints one row per size: points,
status, facts, wall seconds, the stage that ran out of budget if any, and
the peak resident memory. With a budget of S seconds every run should end
near S seconds (status ``budget``) or earlier, and memory stay bounded
(docs/closure.md, "Budgets and memory").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
import geodsl
from geodsl.realizer.synthetic import premise_text
n, timeout, seed = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
text = premise_text(n, seed)
start = time.perf_counter()
c = geodsl.closure(text, timeout=timeout)
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"points": n, "status": c.status, "facts": len(c.facts), "seconds": seconds,
                  "rss_mb": rss}))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", default="50,100,200,400,1000")
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.points.split(",") if x]
    print(f"timeout {args.timeout:g} s, seed {args.seed}")
    print(f"{'points':>7} {'status':>10} {'facts':>7} {'seconds':>8} {'peak RSS MB':>12}")
    for n in sizes:
        proc = subprocess.run([sys.executable, "-c", CHILD, str(n), str(args.timeout), str(args.seed)],
                              capture_output=True, text=True, timeout=args.timeout * 10 + 120)
        if proc.returncode != 0:
            print(f"{n:>7} {'error':>10}  {proc.stderr.strip().splitlines()[-1:]}")
            continue
        row = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"{row['points']:>7} {row['status']:>10} {row['facts']:>7} {row['seconds']:>8.2f} "
              f"{row['rss_mb']:>12.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
