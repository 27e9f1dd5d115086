"""One hash of everything the closure derives on the public sets: every fact
(predicate, rule, parents, level), every goal's proof, the status and the
solve count, problem by problem.

    python benchmarks/fingerprint.py [--set jgex|imo|both] [--timeout S] [--dump FILE]

A speed change must leave the hashes byte-identical: it may make the closure
faster, never make it derive something else. ``--dump`` writes the hashed
text itself, so two runs can be diffed when the hashes differ. Timings are
not part of the hash (they are the only thing allowed to move), and neither
is a problem whose run hit the time budget (where the facts depend on the
machine's speed); such problems are counted in the table.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import geodsl

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data"
SETS = {"jgex": DATA / "jgex_ag_231.txt", "imo": DATA / "imo_ag_30.txt"}


def problem_text(p: geodsl.Problem, timeout: float) -> tuple[str, bool, bool]:
    """(the hashed text, solved, hit the budget) of one problem."""
    try:
        c = geodsl.closure(p, timeout=timeout)
    except geodsl.GeoDSLError as exc:
        return f"{p.name}: error {exc}\n", False, False
    if c.status == "budget":
        return f"{p.name}: budget\n", c.solved, True
    lines = [f"{p.name}: {c.status} levels={c.levels} facts={len(c.facts)}"]
    for f in c.facts:
        lines.append(f"  {c.fact_predicate(f).to_text()} | {f.rule} | {list(f.parents)} | {f.level}")
    if c.solved:
        lines.append(c.proof().to_text())
    return "\n".join(lines) + "\n", c.solved, False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=["jgex", "imo", "both"], default="both")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--dump", type=Path, default=None)
    args = ap.parse_args(argv)
    names = ["jgex", "imo"] if args.set == "both" else [args.set]
    dump = []
    print(f"{'set':<6} {'problems':>8} {'solved':>7} {'budget':>7}  sha256")
    for name in names:
        h = hashlib.sha256()
        total = solved = budget = 0
        for p in geodsl.iter_load(str(SETS[name])):
            if isinstance(p, geodsl.GeoDSLError):
                continue
            text, ok, hit = problem_text(p, args.timeout)
            total += 1
            solved += ok
            budget += hit
            h.update(text.encode("utf-8"))
            dump.append(text)
        print(f"{name:<6} {total:>8} {solved:>7} {budget:>7}  {h.hexdigest()}")
    if args.dump:
        args.dump.write_text("".join(dump), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
