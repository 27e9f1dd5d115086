"""IMO-AG-30 problems DD+AR does not prove alone, with auxiliary
constructions written from published human solutions
(benchmarks/imo_aux.jsonl): which then prove, and how long each run takes.

    python benchmarks/aux_imo.py [--items benchmarks/imo_aux.jsonl] [--timeout S]

Runs ``geodsl aux --batch`` on the items (one candidate each) and prints,
per item: the problem, the candidate as written, the construction it reads
as, whether it is well defined, the goal proved without and with it, the
proof's length, the candidate's points the proof uses, and the seconds of
the prover run without and with it (each with the same budget); "is O"
when the candidate's point turns out to be the problem's point O in every
diagram (nothing new to prove with). Ends with the number of problems the
candidates prove.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import time
from pathlib import Path

from geodsl.cli import main as geodsl

HERE = Path(__file__).resolve().parent


def run(items: Path, timeout: float) -> tuple[list[dict[str, object]], float]:
    out = io.StringIO()
    start = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        geodsl(["aux", "--batch", str(items), "--json", "--timeout", str(timeout), "--no-minimal"])
    return json.loads(out.getvalue()), time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=Path, default=HERE / "imo_aux.jsonl")
    parser.add_argument("--timeout", type=float, default=60.0, help="budget of each prover run (default: 60)")
    args = parser.parse_args()
    records, seconds = run(args.items, args.timeout)
    print(f"{'problem':<10} {'candidate':<52} {'reads as':<58} {'defined':>7} {'alone':>9} {'with':>9} "
          f"{'steps':>5} {'uses':<8} {'s alone':>7} {'s with':>7}")
    solved: set[str] = set()
    unsolved: set[str] = set()
    for r in records:
        name = str(r["problem"]).removeprefix("translated_imo_")
        for c in r["candidates"]:  # type: ignore[union-attr]
            text = c["text"] if len(c["text"]) <= 52 else c["text"][:49] + "..."
            reads = "; ".join(c["constructions"]) or (c["error"] or {}).get("message", "")
            reads = reads if len(reads) <= 58 else reads[:55] + "..."
            alone = "proved" if r["proved_without"] else (r["closure_status_without"] or "-")
            with_ = "proved" if c["proved"] else (c["closure_status"] or "-")
            if c["aliases"]:  # the candidate's point is one the problem has: nothing new to prove with
                with_ = "is " + ",".join(c["aliases"].values())
            steps = c["proof_steps"] if c["proof_steps"] is not None else "-"
            uses = ",".join(c["used_points"]) or "-"
            s_alone = f"{r['seconds_without']:.2f}" if r["seconds_without"] is not None else "-"
            s_with = f"{c['seconds']:.2f}" if c["seconds"] is not None else "-"
            defined = {True: "yes", False: "no", None: "-"}[c["well_defined"]]
            print(f"{name:<10} {text:<52} {reads:<58} {defined:>7} {alone:>9} {with_:>9} {steps:>5} {uses:<8} "
                  f"{s_alone:>7} {s_with:>7}")
            (solved if c["proved"] else unsolved).add(name)
    unsolved -= solved
    print(f"\n{len(solved | unsolved)} problems DD+AR does not prove alone; proved with a candidate: {len(solved)} "
          f"({', '.join(sorted(solved))}); not: {len(unsolved)} ({', '.join(sorted(unsolved))}); "
          f"{seconds:.1f} s in all")


if __name__ == "__main__":
    main()
