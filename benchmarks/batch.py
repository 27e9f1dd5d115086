"""Batch runs at dataset scale: ``--jobs``, ``--ray``, ``--out``/``--resume``.

Every run is the real CLI (``python -m geodsl check ... --out FILE``) in a
fresh process, timed by wall clock (start-up included), on:

- ``public``: JGEX-AG-231 and IMO-AG-30 in one file (261 problems);
- ``big``: ``--big N`` problems (default 10,000) made from the public sets by
  renaming every point to a seeded random name (the problems cycle through
  the 261, each copy with other names and its own problem name), so no two
  problems of the file have the same text.

Rows (one table):

- ``public`` in this process (no flag), ``--jobs 1`` and ``--jobs 2``; the
  speed-up is ``--jobs 1``'s time over ``--jobs 2``'s;
- ``public --ray`` on a local Ray instance the command starts, and its
  overhead against ``--jobs 2`` (both use the 2 cores);
- ``public`` stopped by SIGTERM half-way through a ``--jobs 2`` run, then
  ``--resume``: the resumed file compared with the uninterrupted one;
- ``big`` with ``--jobs 1`` and ``--jobs 2``.

"same" says whether a run's records equal the reference run's (in-process
for ``public``, ``--jobs 1`` for ``big``) apart from the timing fields
(``geodsl.batch.TIMING_FIELDS``), in the same order. Peak memory per worker
is the summary table's (the largest resident set a worker slot reached).

    python benchmarks/batch.py                 # everything (about 45 min on 2 cores)
    python benchmarks/batch.py --big 2000      # a smaller big file
    python benchmarks/batch.py --no-ray --no-big
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import geodsl
from geodsl.batch import without_timing

SETS = ("jgex_ag_231", "imo_ag_30")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def public_text() -> str:
    return "".join(geodsl.datasets.text(name).rstrip("\n") + "\n" for name in SETS)


def pairs(text: str) -> list[tuple[str, str]]:
    """(name line, problem line) of a file in the datasets' two-line form."""
    lines = [line for line in text.splitlines() if line.strip()]
    return list(zip(lines[0::2], lines[1::2]))


def renamed(problem_line: str, rng: random.Random) -> str:
    """``problem_line`` with every point renamed to a fresh random name; the
    other words (constructions, predicates, constants) are not points."""
    problem = geodsl.parse_problem(problem_line)
    points = sorted({p for c in problem.premise.constructions for p in c.points})
    taken: set[str] = set()
    mapping: dict[str, str] = {}
    for p in points:
        while True:
            new = rng.choice(string.ascii_lowercase) + str(rng.randrange(100))
            if new not in taken:
                break
        taken.add(new)
        mapping[p] = new
    return NAME.sub(lambda m: mapping.get(m.group(0), m.group(0)), problem_line)


def big_text(n: int, seed: int) -> str:
    rng = random.Random(seed)
    source = pairs(public_text())
    out = []
    for k in range(n):
        name, line = source[k % len(source)]
        out.append(f"{name}_r{k}\n{renamed(line, rng)}\n")
    return "".join(out)


def run(path: Path, out: Path, *flags: str, fresh: bool = True) -> tuple[float, str]:
    """Wall seconds and stdout (the summary table) of ``geodsl check PATH
    --out OUT FLAGS``; ``fresh``: OUT removed first."""
    if fresh:
        out.unlink(missing_ok=True)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "geodsl", "check", str(path), "--out", str(out), *flags],
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"geodsl check {' '.join(flags)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds, done.stdout


def records(path: Path) -> list[object]:
    return [without_timing(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()]


def peak(table: str) -> str:
    found = re.search(r"peak memory per worker\s*│\s*([^│\n]*?MiB)", table) or \
        re.search(r"peak memory\s*│\s*([^│\n]*?MiB)", table)
    return found.group(1).strip() if found else "–"


def tally(path: Path) -> str:
    count = {"proved": 0, "true_unproved": 0, "false": 0}
    errors = 0
    for rec in records(path):
        assert isinstance(rec, dict)
        if rec.get("status") != "ok":
            errors += 1
            continue
        for option in rec.get("options") or []:
            count[option["verdict"]] += 1
    return f"{count['proved']} proved, {count['true_unproved']} unproved, {count['false']} false, {errors} errors"


def same_verdicts(big: Path, public: Path) -> int:
    """Records of the renamed file whose option verdicts differ from those of
    the public problem they were renamed from."""
    ref = records(public)
    verdicts = lambda rec: [o["verdict"] for o in rec["options"]] if rec["status"] == "ok" else None  # noqa: E731
    return sum(verdicts(rec) != verdicts(ref[k % len(ref)]) for k, rec in enumerate(records(big)))  # type: ignore[index]


def stopped_and_resumed(path: Path, out: Path, after: float) -> tuple[int, float, float]:
    """A ``--jobs 2`` run stopped by SIGTERM ``after`` seconds in, then
    resumed: records kept at the stop, seconds of the resumed run."""
    out.unlink(missing_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "geodsl", "check", str(path), "--out", str(out), "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(after)
    proc.send_signal(signal.SIGTERM)
    status = proc.wait(timeout=120)
    if status != 143:
        raise SystemExit(f"the stopped run exited {status}, not 143")
    kept = out.read_text(encoding="utf-8").count("\n")
    seconds, _ = run(path, out, "--jobs", "2", "--resume", fresh=False)
    return kept, after, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--big", type=int, default=10_000, help="problems in the renamed file (default 10,000)")
    ap.add_argument("--seed", type=int, default=0, help="the renaming's seed")
    ap.add_argument("--no-big", action="store_true")
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--keep", metavar="DIR", help="write the files here instead of a temporary folder")
    args = ap.parse_args()

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="geodsl-batch-"))
    work.mkdir(parents=True, exist_ok=True)
    public = work / "public.gdl"
    public.write_text(public_text(), encoding="utf-8")
    rows: list[tuple[str, ...]] = []

    def row(what: str, n: int, seconds: float, same: str, memory: str, verdicts: str, note: str = "") -> None:
        rows.append((what, f"{n:,}", f"{seconds:.1f}", f"{n / seconds:.1f}", same, memory, verdicts, note))
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)

    n_public = len(pairs(public_text()))
    ref = work / "public-inline.jsonl"
    t_inline, table = run(public, ref)
    row("public, this process", n_public, t_inline, "reference", peak(table), tally(ref))
    one = work / "public-jobs1.jsonl"
    t1, table = run(public, one, "--jobs", "1")
    row("public, --jobs 1", n_public, t1, str(records(one) == records(ref)).lower(), peak(table), tally(one))
    two = work / "public-jobs2.jsonl"
    t2, table = run(public, two, "--jobs", "2")
    row("public, --jobs 2", n_public, t2, str(records(two) == records(ref)).lower(), peak(table), tally(two),
        f"speed-up {t1 / t2:.2f}× over --jobs 1")
    if not args.no_ray:
        ray_out = work / "public-ray.jsonl"
        tr, table = run(public, ray_out, "--ray")
        row("public, --ray (local)", n_public, tr, str(records(ray_out) == records(ref)).lower(), "–",
            tally(ray_out), f"{tr - t2:+.1f} s against --jobs 2 (start-up included)")
    cut = work / "public-resumed.jsonl"
    kept, after, tres = stopped_and_resumed(public, cut, t2 / 2)
    row("public, SIGTERM then --resume", n_public, after + tres, str(records(cut) == records(ref)).lower(), "–",
        tally(cut), f"{kept} records kept at the stop ({after:.0f} s in), resumed run {tres:.1f} s")

    if not args.no_big:
        big = work / "big.gdl"
        big.write_text(big_text(args.big, args.seed), encoding="utf-8")
        b1 = work / "big-jobs1.jsonl"
        tb1, table = run(big, b1, "--jobs", "1")
        row("renamed, --jobs 1", args.big, tb1, "reference", peak(table), tally(b1),
            f"{same_verdicts(b1, ref)} problems with verdicts other than their originals'")
        b2 = work / "big-jobs2.jsonl"
        tb2, table = run(big, b2, "--jobs", "2")
        row("renamed, --jobs 2", args.big, tb2, str(records(b2) == records(b1)).lower(),
            peak(table), tally(b2), f"speed-up {tb1 / tb2:.2f}× over --jobs 1")

    head = ("run", "problems", "wall s", "problems/s", "same records", "peak memory", "verdicts", "")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print(f"\n(files in {work})")


if __name__ == "__main__":
    main()
