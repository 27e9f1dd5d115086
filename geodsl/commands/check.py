"""``geodsl check FILE... [--json] [--seed N] [--diagrams K] [--timeout S] [--proofs] [--audit]``."""

from __future__ import annotations

import argparse
import json
import sys

from ..checker.options import ProblemCheck, audit, check_problem
from ..lang.definitions import DIALECTS
from ..lang.errors import GeoDSLError
from .common import EXIT_INPUT, EXIT_OK, iter_problems, located


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("check", help="decide every option: proved, true but unproved, or false",
                       description="Realize each problem, saturate it with the closure, and decide "
                                   "every option (or the goal); with an answer key, say whether it agrees.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per problem")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--diagrams", type=int, default=3, help="independent diagrams per problem (default 3)")
    p.add_argument("--timeout", type=float, default=30.0, help="closure time limit per problem, seconds")
    p.add_argument("--proofs", action="store_true", help="include each proved option's proof")
    p.add_argument("--audit", action="store_true",
                   help="list keyed-false options that are true, keyed-true options that are false, "
                        "and keyed-true options the closure cannot prove")
    p.add_argument("--dialect", choices=DIALECTS, default="alphageometry")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.diagrams < 1:
        raise GeoDSLError("--diagrams must be at least 1", hint="the default is 3")
    checks: list[ProblemCheck] = []
    failed = False
    for path, item, lines in iter_problems(args.files, dialect=args.dialect):
        if isinstance(item, GeoDSLError):
            failed = True
            print(item.format(), file=sys.stderr)
            checks.append(ProblemCheck(None, "error", error=item, file=path))
            continue
        check = check_problem(item, seed=args.seed, diagrams=args.diagrams, timeout=args.timeout,
                              with_proofs=args.proofs)
        check = ProblemCheck(**{**check.__dict__, "file": path})
        if check.error is not None:
            failed = True
            print(located(check.error, lines).format(), file=sys.stderr)
        checks.append(check)
    if args.json:
        if args.audit:
            json.dump({"problems": [c.to_dict(args.proofs) for c in checks],
                       "audit": [f.to_dict() for f in audit(checks)]}, sys.stdout, ensure_ascii=False, indent=2)
        else:
            json.dump([c.to_dict(args.proofs) for c in checks], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        _print(checks, args.proofs, args.audit)
    return EXIT_INPUT if failed else EXIT_OK


def _print(checks: list[ProblemCheck], proofs: bool, with_audit: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    style = {"proved": "green", "true_unproved": "yellow", "false": "red", "numeric": "yellow",
             "varies": "magenta"}
    for check in checks:
        if check.status != "ok":
            continue
        title = f"{check.problem or '(unnamed)'} — closure {check.closure_status}, {check.seconds:.2f} s"
        table = Table(title=title, title_justify="left")
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
        console.print(table)
        if check.auxiliary:
            console.print("auxiliary constructions (given after `|`): " + "; ".join(check.auxiliary),
                          markup=False, soft_wrap=True)
        if check.key_consistent is not None:
            console.print("answer key agrees" if check.key_consistent
                          else f"[red]answer key disagrees on {', '.join(check.disagreements)}[/]")
        if proofs:
            for v in check.options:
                if v.proof:
                    console.print(f"proof of {v.label}:\n{v.proof}", markup=False)
            for q in check.queries:
                if q.proof:
                    console.print(f"proof of {q.measurement.query.to_text()}:\n{q.proof}", markup=False)
    if with_audit:
        findings = audit(checks)
        console.print(f"audit: {len(findings)} finding{'s' if len(findings) != 1 else ''}")
        for f in findings:
            console.print(f"  {f.problem}: option {f.label} ({f.predicate}): {f.kind.replace('_', ' ')}",
                          markup=False)
