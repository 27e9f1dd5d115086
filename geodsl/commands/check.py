"""``geodsl check FILE... [--json] [--seed N] [--diagrams K] [--timeout S] [--proofs] [--audit]
[--dialect D] [--problem NAME]``."""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..checker.options import ProblemCheck, audit, check_problem
from ..lang.errors import GeoDSLError
from .common import (EXIT_INPUT, EXIT_OK, EXIT_STATUS_HELP, add_dialect, add_diagrams, add_files, add_json,
                     add_problem, add_seed, add_timeout, console, iter_problems, located, plural)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="decide every option: proved, true but unproved, or false",
                       description="Realize each problem, saturate it with the closure, and decide "
                                   "every option (or the goal): proved, true_unproved or false; with an "
                                   "answer key, say whether it agrees. A summary line ends the output "
                                   "(on stderr with --json).",
                       epilog=EXIT_STATUS_HELP)
    add_files(p)
    add_json(p, "check")
    add_seed(p)
    add_diagrams(p)
    add_timeout(p)
    p.add_argument("--proofs", action="store_true", help="include each proved option's proof")
    p.add_argument("--audit", action="store_true",
                   help="list keyed-false options that are true, keyed-true options that are false, "
                        "and keyed-true options the closure cannot prove")
    add_dialect(p)
    add_problem(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    start = time.monotonic()
    checks: list[ProblemCheck] = []
    failed = False
    for path, item, lines in iter_problems(args.files, args.problem, args.dialect):
        if isinstance(item, GeoDSLError):
            check = ProblemCheck(item.problem, "error", error=item, file=path)
        else:
            check = check_problem(item, seed=args.seed, diagrams=args.diagrams, timeout=args.timeout,
                                  with_proofs=args.proofs)
            check = ProblemCheck(**{**check.__dict__, "file": path})
        if check.error is not None:
            failed = True
            print(located(check.error, lines).format(), file=sys.stderr)
        checks.append(check)
    seconds = time.monotonic() - start
    if args.json:
        records = [c.to_dict(args.proofs) for c in checks]
        if args.audit:
            json.dump({"problems": records, "audit": [f.to_dict() for f in audit(checks)]}, sys.stdout,
                      ensure_ascii=False, indent=2)
        else:
            json.dump(records, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        print(summary(checks, seconds), file=sys.stderr)
    else:
        _print(checks, args.proofs, args.audit, summary(checks, seconds))
    return EXIT_INPUT if failed else EXIT_OK


def summary(checks: list[ProblemCheck], seconds: float) -> str:
    """``N problems, K options: P proved, U true_unproved, F false; E errors; keys: A agree, D disagree; T s``."""
    decided = [v for c in checks if c.status == "ok" for v in c.options]
    count = {verdict: sum(v.verdict == verdict for v in decided) for verdict in ("proved", "true_unproved", "false")}
    errors = sum(c.status == "error" for c in checks)
    keyed = [c.key_consistent for c in checks if c.status == "ok" and c.key_consistent is not None]
    text = (f"{plural(len(checks), 'problem')}, {plural(len(decided), 'option')}: {count['proved']} proved, "
            f"{count['true_unproved']} true_unproved, {count['false']} false; {plural(errors, 'error')}")
    if keyed:
        text += f"; answer keys: {sum(keyed)} agree, {len(keyed) - sum(keyed)} disagree"
    return text + f"; {seconds:.2f} s"


def _print(checks: list[ProblemCheck], proofs: bool, with_audit: bool, last: str) -> None:
    from rich.table import Table

    out = console()
    style = {"proved": "green", "true_unproved": "yellow", "false": "red", "numeric": "yellow",
             "varies": "magenta"}
    for check in checks:
        if check.status != "ok":
            continue
        name = check.problem or "(unnamed)"
        if not check.options and not check.queries:
            out.print(f"{name}: nothing to decide (the problem has neither a goal nor options)", markup=False)
            continue
        closure = f"closure {check.closure_status}" if check.closure_status else "closure not run"
        table = Table(title=f"{name} — {closure}, {check.seconds:.2f} s", title_justify="left")
        for column in ("option", "predicate", "numeric", "verdict", "steps", "key"):
            table.add_column(column)
        for v in check.options:
            key = "" if check.answer_key is None else ("✓" if v.label in check.answer_key else "✗")
            steps = "" if v.proof_steps is None else (str(v.proof_steps) if v.proof_kind == "deduction"
                                                      else "diagram")
            table.add_row(v.label, v.predicate.to_text(), "true" if v.numeric else "false",
                          f"[{style[v.verdict]}]{v.verdict}[/]", steps, key)
        for q in check.queries:  # a goal asking for a value: the numeric value, proved or not
            table.add_row("query", q.measurement.query.to_text(), q.measurement.value_text(),
                          f"[{style[q.verdict]}]{q.verdict}[/]",
                          "" if q.proof_steps is None else str(q.proof_steps), "")
        out.print(table)
        if check.auxiliary:
            out.print("auxiliary constructions (given after `|`): " + "; ".join(check.auxiliary), markup=False)
        if check.key_consistent is not None:
            out.print("answer key agrees" if check.key_consistent
                      else f"[red]answer key disagrees on {', '.join(check.disagreements)}[/]")
        if proofs:
            for v in check.options:
                if v.proof is not None:
                    out.print(f"proof of {v.label}:\n{v.proof.to_text()}", markup=False, end="")
            for q in check.queries:
                if q.proof is not None:
                    out.print(f"proof of {q.measurement.query.to_text()}:\n{q.proof.to_text()}", markup=False,
                              end="")
    if with_audit:
        findings = audit(checks)
        out.print(f"audit: {plural(len(findings), 'finding')}")
        for f in findings:
            out.print(f"  {f.problem}: option {f.label} ({f.predicate}): {f.kind.replace('_', ' ')}",
                      markup=False)
    out.print(last, markup=False)
