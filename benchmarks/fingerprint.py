"""A fingerprint of everything the closure derives on a problem set: every
fact (with its rule, parents and side conditions), the status, and the proof
text of each solved goal — hashed per problem and in total. Two builds that
print the same total hash derived the same facts and proofs, byte for byte.

    python benchmarks/fingerprint.py [FILE ...] [--per-problem] [--facts-only]

Without FILE, both public sets (JGEX-AG-231, IMO-AG-30, as shipped in
:mod:`geodsl.datasets`). ``--per-problem`` prints each
problem's hash, for finding the first one that changed (``diff`` two runs).
``--facts-only`` hashes the facts (with their rules and parents) and
statuses but not the proofs' text, for comparing builds that print proofs
differently.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import geodsl

DEFAULT = [geodsl.datasets.path("jgex_ag_231"), geodsl.datasets.path("imo_ag_30")]


def fingerprint(problem: geodsl.Problem, facts_only: bool) -> str:
    c = geodsl.closure(problem)
    h = hashlib.sha256()
    h.update(c.status.encode())
    for f in c.facts:
        h.update(f"{f.name} {f.args} {f.rule} {f.parents}\n".encode())
        if not facts_only:
            h.update(f"{f.sides}\n".encode())
    if c.solved and not facts_only:
        h.update(c.proof().to_text().encode())
    return h.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--per-problem", action="store_true")
    ap.add_argument("--facts-only", action="store_true")
    args = ap.parse_args()
    total = hashlib.sha256()
    start = time.monotonic()
    count = 0
    for path in args.files or DEFAULT:
        for problem in geodsl.load(str(path)):
            digest = fingerprint(problem, args.facts_only)
            total.update(digest.encode())
            count += 1
            if args.per_problem:
                print(f"{digest}  {problem.name}")
    print(f"{count} problems  total {total.hexdigest()[:16]}  ({time.monotonic() - start:.1f} s)",
          file=sys.stderr if args.per_problem else sys.stdout)


if __name__ == "__main__":
    main()
