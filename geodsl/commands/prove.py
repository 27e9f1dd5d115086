"""``geodsl prove FILE... [--json] [--timeout S] [--facts] [--seed N] [--diagrams K]
[--dialect D] [--problem NAME]``.

The same decision as ``geodsl check`` (:func:`geodsl.checker.options.check_problem`),
for goals: each goal is ``proved``, ``true_unproved`` or ``false`` (false in
the diagram: a verdict, exit status 0), and the proof of each proved goal is
printed. The JSON records share ``check``'s field names
(``docs/closure.md``, schema ``geodsl/schemas/prove.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace

from ..budget import Budget, Clock
from ..checker.options import ProblemCheck, check_problem
from ..ddar import Closure, closure
from ..ddar.prover import DDARProver
from ..lang.ast import Predicate, Problem
from ..lang.errors import GeoDSLError
from ..lang.notation import to_notation
from ..realizer import Diagrams
from .common import (EXIT_INPUT, EXIT_OK, EXIT_STATUS_HELP, add_dialect, add_diagrams, add_files, add_json,
                     add_problem, add_seed, add_timeout, iter_problems, located, plural)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("prove", help="saturate the premise (DD+AR); prove the goal with a readable proof",
                       description="Run the deduction closure (DD rules + angle and ratio chasing) on "
                                   "each problem, decide each goal (proved, true_unproved or false in "
                                   "the diagram) and print the proofs, or a JSON array with --json. "
                                   "A summary line ends the output (on stderr with --json).",
                       epilog=EXIT_STATUS_HELP)
    add_files(p)
    add_json(p, "prove")
    add_timeout(p)
    p.add_argument("--facts", action="store_true", help="also list every derived fact with its provenance")
    add_seed(p)
    add_diagrams(p)
    add_dialect(p)
    add_problem(p)
    p.set_defaults(run=run)


def _fact_lines(c: Closure) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for f in c.facts:
        pred = c.fact_predicate(f)
        out.append({"id": f.id, "fact": to_notation(pred), "predicate": pred.to_text(), "rule": f.rule,
                    "label": f.label, "parents": list(f.parents), "level": f.level,
                    "origin": f.origin})
    return out


class _KeepingProver(DDARProver):
    """DD+AR that keeps the closure run behind its result: ``prove`` prints
    its fact count, lists its facts (``--facts``, with everything the store
    can prove harvested) and reports any unsound derivation it rejected."""

    def __init__(self, seed: int, harvest: bool | None) -> None:
        super().__init__(seed=seed)
        self.harvest = harvest
        self.run: Closure | None = None

    def saturate(self, problem: Problem, goals: Sequence[Predicate] | None = None,
                 budget: Budget | Clock | None = None, *, figures: Diagrams | None = None) -> Closure:
        if goals is not None:
            problem = replace(problem, goals=tuple(goals))
        self.run = closure(problem, seed=self.seed if figures is None else None, budget=budget,
                           rules=self.rules, figures=figures, harvest_facts=self.harvest)
        return self.run


def goal_verdict(check: ProblemCheck) -> str | None:
    """One verdict for the problem's goals: ``proved`` if all are, ``false``
    if any is false, ``true_unproved`` otherwise; None without a goal."""
    verdicts = [v.verdict for v in check.options]
    if not verdicts:
        return None
    if all(v == "proved" for v in verdicts):
        return "proved"
    return "false" if "false" in verdicts else "true_unproved"


def record(path: str, check: ProblemCheck, run: Closure | None, facts: bool) -> dict[str, object]:
    """The JSON object of one problem (see ``docs/closure.md``)."""
    out: dict[str, object] = {
        "file": path, "problem": check.problem, "status": check.status,
        "error": None if check.error is None else check.error.to_dict(),
        "solved": goal_verdict(check) == "proved",
        "verdict": goal_verdict(check) if check.status == "ok" else None,
        "goals": [v.to_dict(with_proof=True) for v in check.options],
        "closure_status": check.closure_status,
        "facts": 0 if run is None else len(run.facts),
        "seconds": round(check.seconds, 4),
        "auxiliary": list(check.auxiliary),
        "queries": [q.to_dict(with_proof=True) for q in check.queries],
    }
    if facts:
        out["fact_list"] = [] if run is None else _fact_lines(run)
    if run is not None and run.unsound:
        out["unsound"] = list(run.unsound)
    return out


def summary(records: list[dict[str, object]], seconds: float) -> str:
    """``N problems: S solved, U true but not proved, F false, N without a goal, E errors, T s``."""
    count: dict[object, int] = {k: 0 for k in ("proved", "true_unproved", "false", None)}
    errors = 0
    for r in records:
        if r["status"] == "error":
            errors += 1
        else:
            count[r["verdict"]] += 1
    parts = [f"{count['proved']} solved", f"{count['true_unproved']} true but not proved",
             f"{count['false']} false"]
    if count[None]:
        parts.append(f"{count[None]} without a goal")
    parts.append(plural(errors, "error"))
    return f"{plural(len(records), 'problem')}: {', '.join(parts)}; {seconds:.2f} s"


def run(args: argparse.Namespace) -> int:
    start = time.monotonic()
    failed = False
    records: list[dict[str, object]] = []
    for path, item, lines in iter_problems(args.files, args.problem, args.dialect):
        prover = _KeepingProver(args.seed, True if args.facts else None)
        if isinstance(item, GeoDSLError):
            check = ProblemCheck(item.problem, "error", error=item)
        else:
            # prove decides the goals; options are check's.
            goals_only = replace(item, options=(), answer=None)
            check = check_problem(goals_only, seed=args.seed, diagrams=args.diagrams, timeout=args.timeout,
                                  with_proofs=True, prover=prover, saturate=args.facts or not item.goals)
        rec = record(path, check, prover.run, args.facts)
        records.append(rec)
        if check.error is not None:
            failed = True
            print(located(check.error, lines).format(), file=sys.stderr)
            continue
        if prover.run is not None:
            for bad in prover.run.unsound:
                print(f"internal error: unsound derivation rejected: {bad}", file=sys.stderr)
        if not args.json:
            _print(path, check, prover.run, rec, args.facts)
    seconds = time.monotonic() - start
    if args.json:
        json.dump(records, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        print(summary(records, seconds), file=sys.stderr)
    else:
        print(summary(records, seconds))
    return EXIT_INPUT if failed else EXIT_OK


def _print(path: str, check: ProblemCheck, run: Closure | None, rec: dict[str, object], facts: bool) -> None:
    goal = "; ".join(v.predicate.to_text() for v in check.options)
    verdict = rec["verdict"]
    words = {"proved": "proved", "false": "false in the diagram (not provable)",
             "true_unproved": f"not proved ({check.closure_status})"}.get(str(verdict), "")
    print(f"problem: {check.problem or '(unnamed)'}  ({path})")
    if verdict is None and check.queries:
        print(f"goal: (none; the queries below): closure {check.closure_status}, {rec['facts']} facts, "
              f"{check.seconds:.3f} s")
    elif verdict is None:
        print(f"no goal: closure {check.closure_status}, {rec['facts']} facts, {check.seconds:.3f} s")
    else:
        print(f"goal: {goal}: {words}, {rec['facts']} facts, {check.seconds:.3f} s")
    if check.auxiliary and not any(v.proof is not None for v in check.options):
        print("auxiliary constructions (given after `|`): " + "; ".join(check.auxiliary))
    for v in check.options:
        if v.proof is not None:
            if len(check.options) > 1:
                print(f"proof of {v.predicate.to_text()}:")
            print(v.proof.to_text(), end="")
    for q in check.queries:
        print(f"query: {q.text()}")
        if q.proof is not None:
            print(q.proof.to_text(), end="")
    if facts and run is not None:
        print("* Facts:")
        for fact in run.facts:
            parents = ",".join(str(p) for p in fact.parents)
            how = f"premise {fact.origin}" if fact.rule == "premise" else f"{fact.rule} [{parents}]"
            print(f"{fact.id:03d}. {to_notation(run.fact_predicate(fact))}  ({how})")
    print()
