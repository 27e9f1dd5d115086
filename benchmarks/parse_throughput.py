"""Parse throughput on the public sets: problems per second, one core.

    python benchmarks/parse_throughput.py [--repeat N]

Prints a table per set: problems, best and median problems/s over N timed
passes (text in memory: the parser, not the disk, is measured), and the
share of time spent in syntax (grammar) versus semantics (validation).
Target: >= 5,000 problems/s (GeoChallenge's pipeline sampled 871,828
premises).
"""

from __future__ import annotations

import argparse
import statistics
import time

import geodsl
from geodsl.lang.lines import iter_lines

SETS = {"JGEX-AG-231": geodsl.datasets.path("jgex_ag_231"), "IMO-AG-30": geodsl.datasets.path("imo_ag_30")}


def rates(fn, text: str, count: int, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(text)
        out.append(count / (time.perf_counter() - start))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    texts = {name: path.read_text(encoding="utf-8") for name, path in SETS.items()}
    texts["both"] = texts["JGEX-AG-231"] + texts["IMO-AG-30"]
    geodsl.parse(texts["both"])  # warm up: grammar tables, rulebase
    print(f"{'set':<12} {'problems':>8} {'best/s':>9} {'median/s':>9} {'syntax share':>13}")
    for name, text in texts.items():
        count = len(geodsl.parse(text))
        full = rates(geodsl.parse, text, count, args.repeat)
        syntax = rates(lambda t: list(iter_lines(t)), text, count, args.repeat)
        share = statistics.median(full) / statistics.median(syntax)
        print(f"{name:<12} {count:>8} {max(full):>9,.0f} {statistics.median(full):>9,.0f} {share:>12.0%}")


if __name__ == "__main__":
    main()
