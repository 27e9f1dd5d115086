"""What `geodsl generate` makes, how fast, and whether `geodsl check` agrees.

    python benchmarks/generate.py [--n 1000] [--throughput-n 100] [--seed 0] [--depth 3]

1. Throughput: `geodsl generate --n T` (multiple-choice questions, then
   calculation problems) with `--jobs 1` (one core) and `--jobs 2`, in fresh
   folders; problems per minute of wall-clock time, and whether the two
   runs wrote the same bytes (they must).
2. A set of `--n` multiple-choice questions (`--jobs 2`): the distributions
   (sampled and kept depth, true options per question, difficulty levels,
   construction families, distractor kinds), the share of sampled premises
   (candidates) rejected and why, and the constructions the sampler refused
   and why.
3. `geodsl check` on that set's `problems.gdl` (a separate process, the
   command's defaults): options proved / false, answer keys agreeing.

Prints one table per part. The machine is shared: absolute times drift,
the counts do not.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _generate(out: Path, n: int, seed: int, depth: int, kind: str, jobs: int) -> tuple[dict, float]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "geodsl", "generate", "--n", str(n), "--seed", str(seed),
                           "--depth", str(depth), "--kind", kind, "--jobs", str(jobs), "--out", str(out), "--json"],
                          capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout), seconds


def _same(a: Path, b: Path) -> bool:
    names = ["problems.jsonl", "problems.gdl"]
    if not all(filecmp.cmp(a / n, b / n, shallow=False) for n in names):
        return False
    figures = sorted(p.name for p in (a / "figures").iterdir())
    if figures != sorted(p.name for p in (b / "figures").iterdir()):
        return False
    return all(filecmp.cmp(a / "figures" / f, b / "figures" / f, shallow=False) for f in figures)


def _row(cells: list[object], widths: list[int]) -> str:
    return "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))


def _table(title: str, header: list[str], rows: list[list[object]]) -> None:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print(f"\n{title}")
    print(_row(header, widths))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(_row(r, widths))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="questions in the set re-checked (default 1000)")
    parser.add_argument("--throughput-n", type=int, default=100, help="problems per throughput run (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rows: list[list[object]] = []
        for kind in ("mcq", "calc"):
            runs = {}
            for jobs in (1, 2):
                out = root / f"{kind}-{jobs}"
                summary, seconds = _generate(out, args.throughput_n, args.seed, args.depth, kind, jobs)
                runs[jobs] = (out, summary, seconds)
            same = _same(runs[1][0], runs[2][0])
            for jobs, (_, summary, seconds) in runs.items():
                rows.append([kind, jobs, summary["questions"], summary["candidates"], f"{seconds:.1f}",
                             f"{60 * summary['questions'] / seconds:.1f}",
                             f"{60 * summary['questions'] / seconds / jobs:.1f}", "yes" if same else "NO"])
        _table(f"throughput (--n {args.throughput_n}, --depth {args.depth}, wall clock incl. start-up)",
               ["kind", "jobs", "problems", "candidates", "s", "per min", "per min per core", "same bytes"], rows)

        out = root / "set"
        summary, seconds = _generate(out, args.n, args.seed + 1, args.depth, "mcq", 2)
        candidates = summary["candidates"]
        rejected = summary["rejected"]
        rows = [["candidates (sampled premises)", candidates, "100.0%"],
                ["questions made", summary["questions"], f"{100 * summary['questions'] / candidates:.1f}%"]]
        rows += [[f"rejected: {k}", v, f"{100 * v / candidates:.1f}%"] for k, v in sorted(rejected.items())]
        _table(f"{args.n} questions (--jobs 2, {seconds:.0f} s): candidates and why they were rejected",
               ["", "count", "share"], rows)
        clauses = summary["clauses"]
        drawn = clauses["kept"] + sum(clauses["rejected"].values())
        rows = [["constructions drawn", drawn, "100.0%"], ["kept", clauses["kept"], f"{100 * clauses['kept'] / drawn:.1f}%"]]
        rows += [[f"refused: {k}", v, f"{100 * v / drawn:.1f}%"] for k, v in sorted(clauses["rejected"].items())]
        _table("constructions the sampler drew (all candidates)", ["", "count", "share"], rows)
        for key, title in (("depth_sampled", "depth sampled (layers)"), ("depth_premise", "depth kept (after simplification)"),
                           ("true_options", "true options per question"), ("levels", "difficulty levels"),
                           ("families", "construction families (questions using one)"),
                           ("distractor_kinds", "distractor kinds"), ("distractor_refusals", "distractor candidates refused")):
            values = summary[key]
            total = sum(values.values()) or 1
            _table(title, ["value", "count", "share"],
                   [[k, v, f"{100 * v / total:.1f}%"] for k, v in values.items()])
        records = [json.loads(line) for line in (out / "problems.jsonl").read_text(encoding="utf-8").splitlines()]
        scores = sorted(r["difficulty"]["score"] for r in records)
        steps = sorted(r["difficulty"]["indicators"]["proof_length"] for r in records)
        _table("difficulty", ["", "min", "median", "max", "mean"],
               [["score", scores[0], scores[len(scores) // 2], scores[-1], f"{sum(scores) / len(scores):.1f}"],
                ["proof steps (true options)", steps[0], steps[len(steps) // 2], steps[-1],
                 f"{sum(steps) / len(steps):.1f}"]])
        print(f"\nnotation fallbacks (options printed in proof notation): {summary['notation_fallbacks']}")

        start = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "geodsl", "check", "--json", str(out / "problems.gdl")],
                              capture_output=True, text=True)
        check_seconds = time.monotonic() - start
        checks = json.loads(done.stdout)
        options = [v for c in checks for v in c["options"]]
        agree = sum(c["key_consistent"] is True for c in checks)
        _table("geodsl check problems.gdl (defaults: seed 0, 3 diagrams, 30 s)",
               ["problems", "options", "proved", "true_unproved", "false", "errors", "keys agree", "keys disagree", "s"],
               [[len(checks), len(options), sum(v["verdict"] == "proved" for v in options),
                 sum(v["verdict"] == "true_unproved" for v in options), sum(v["verdict"] == "false" for v in options),
                 sum(c["status"] == "error" for c in checks), agree, len(checks) - agree, f"{check_seconds:.1f}"]])


if __name__ == "__main__":
    main()
