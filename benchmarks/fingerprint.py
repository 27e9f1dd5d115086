"""A fingerprint of everything the closure derives on a problem set: every
fact (with its rule, parents and side conditions), the status, and the proof
text of each solved goal — hashed per problem and in total. Two builds that
print the same total hash derived the same facts and proofs, byte for byte.

    python benchmarks/fingerprint.py [FILE ...] [--per-problem] [--no-sides]

Without FILE, both public sets (JGEX-AG-231, IMO-AG-30, read from
``../shared/data`` beside the repository). ``--per-problem`` prints each
problem's hash, for finding the first one that changed (``diff`` two runs).
``--no-sides`` leaves the proofs' side-condition lines out of the hash, for
comparing with a build whose proofs did not state them.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import geodsl

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
DEFAULT = [DATA / "jgex_ag_231.txt", DATA / "imo_ag_30.txt"]


def _proof_text(closure: geodsl.Closure, sides: bool) -> str:
    text = closure.proof().to_text()
    if sides:
        return text
    out, skipping = [], False
    for line in text.splitlines():
        if line.startswith("* "):
            skipping = line.startswith("* Numerical checks")
            if skipping:
                continue
        if not skipping:
            out.append(line.split(" | side conditions")[0])
    return "\n".join(out)


def fingerprint(problem: geodsl.Problem, sides: bool) -> str:
    c = geodsl.closure(problem)
    h = hashlib.sha256()
    h.update(c.status.encode())
    for f in c.facts:
        h.update(f"{f.name} {f.args} {f.rule} {f.parents}\n".encode())
    if c.solved:
        h.update(_proof_text(c, sides).encode())
    return h.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--per-problem", action="store_true")
    ap.add_argument("--no-sides", action="store_true")
    args = ap.parse_args()
    total = hashlib.sha256()
    start = time.monotonic()
    count = 0
    for path in args.files or DEFAULT:
        for problem in geodsl.load(str(path)):
            digest = fingerprint(problem, not args.no_sides)
            total.update(digest.encode())
            count += 1
            if args.per_problem:
                print(f"{digest}  {problem.name}")
    print(f"{count} problems  total {total.hexdigest()[:16]}  ({time.monotonic() - start:.1f} s)",
          file=sys.stderr if args.per_problem else sys.stdout)


if __name__ == "__main__":
    main()
