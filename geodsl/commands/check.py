"""``geodsl check FILE... [--json] [--seed N] [--diagrams K] [--timeout S] [--proofs] [--audit]
[--method M] [--aux-search] [--aux-depth K] [--dialect D] [--problem NAME] [--jobs N | --ray [ADDRESS]]
[--out FILE.jsonl [--resume]]``.

With ``--method search|algebra|auto`` (or ``--aux-search``), the options
DD+AR leaves ``true_unproved`` go on to the search and the algebra.

Each problem is one task of :mod:`geodsl.batch` (:func:`_task`): it returns
the problem's JSON record and the text it prints, so that ``--jobs N`` and
``--ray`` give the bytes one process gives, in the same order.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace

from ..batch import Failure, Work
from ..checker.options import ProblemCheck, audit_record, check_problem
from ..lang.errors import GeoDSLError
from ..provers import get_prover
from .batching import (BATCH_EXIT_HELP, Batch, ConsoleSpec, JsonArray, Outcome, add_batch_flags, drive, failure_error,
                       finish, problem_works)
from .common import (add_dialect, add_diagrams, add_files, add_json, add_method, add_problem, add_seed,
                     add_timeout, iter_problems, method_of, plural, search_jobs)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="decide every option: proved, true but unproved, or false",
                       description="Realize each problem, saturate it with the closure, and decide "
                                   "every option (or the goal): proved, true_unproved or false; with an "
                                   "answer key, say whether it agrees. A summary line ends the output "
                                   "(on stderr with --json).",
                       epilog=BATCH_EXIT_HELP)
    add_files(p)
    add_json(p, "check")
    add_seed(p)
    add_diagrams(p)
    add_timeout(p)
    p.add_argument("--proofs", action="store_true", help="include each proved option's proof")
    p.add_argument("--audit", action="store_true",
                   help="list keyed-false options that are true, keyed-true options that are false, "
                        "and keyed-true options the closure cannot prove")
    add_method(p)
    add_dialect(p)
    add_problem(p)
    add_batch_flags(p)
    p.set_defaults(run=run)


@dataclass(frozen=True)
class _Config:
    seed: int
    diagrams: int
    timeout: float
    proofs: bool
    audit: bool
    text: bool
    console: ConsoleSpec
    method: str = "ddar"
    aux_depth: int = 2
    search_jobs: int = 1


_CONFIG: list[_Config] = []


def _init(config: _Config) -> None:
    _CONFIG[:] = [config]


def _task(payload: tuple[str, object]) -> Outcome:
    """One problem: its check, record and text."""
    config = _CONFIG[0]
    path, item = payload
    if isinstance(item, GeoDSLError):
        check = ProblemCheck(item.problem, "error", error=item, file=path)
    else:
        prover = get_prover(config.method, seed=config.seed, jobs=config.search_jobs, depth=config.aux_depth)
        check = check_problem(item, seed=config.seed, diagrams=config.diagrams,  # type: ignore[arg-type]  # a Problem: errors were handled above
                              timeout=config.timeout, with_proofs=config.proofs, prover=prover)
        check = replace(check, file=path)
    return Outcome(check.to_dict(config.proofs), _render(check, config) if config.text else "",
                   () if check.error is None else (check.error,), failed=check.error is not None)


def _failed(work: Work[tuple[str, object], list[str]], failure: Failure) -> Outcome:
    path, item = work.payload
    error = failure_error(failure, path, item)
    name = item.problem if isinstance(item, GeoDSLError) else getattr(item, "name", None)
    check = ProblemCheck(name, "error", error=error, file=path)
    return Outcome(check.to_dict(_CONFIG[0].proofs if _CONFIG else False), errors=(error,))


class Tally:
    """``N problems, K options: P proved, U true_unproved, F false; E errors; keys: A agree, D disagree``."""

    def __init__(self, audit: bool = False) -> None:
        self.problems = self.errors = 0
        self.count = {"proved": 0, "true_unproved": 0, "false": 0}
        self.keyed: list[bool] = []
        self.audit: list[dict[str, object]] | None = [] if audit else None
        """``--audit``'s findings, from every record (resumed ones too)."""

    def add(self, record: dict[str, object]) -> None:
        self.problems += 1
        if self.audit is not None:
            self.audit.extend(f.to_dict() for f in audit_record(record))
        if record.get("status") != "ok":
            self.errors += 1
            return
        for option in record.get("options") or []:  # type: ignore[attr-defined]  # a list of objects (check.json)
            self.count[option["verdict"]] += 1
        if record.get("key_consistent") is not None:
            self.keyed.append(bool(record["key_consistent"]))

    @property
    def options(self) -> int:
        return sum(self.count.values())

    def line(self, seconds: float) -> str:
        text = (f"{plural(self.problems, 'problem')}, {plural(self.options, 'option')}: {self.count['proved']} "
                f"proved, {self.count['true_unproved']} true_unproved, {self.count['false']} false; "
                f"{plural(self.errors, 'error')}")
        if self.keyed:
            text += f"; answer keys: {sum(self.keyed)} agree, {len(self.keyed) - sum(self.keyed)} disagree"
        return text + f"; {seconds:.2f} s"

    def rows(self) -> list[tuple[str, str]]:
        rows = [("problems", str(self.problems)), ("options", str(self.options)),
                ("proved", str(self.count["proved"])), ("true_unproved", str(self.count["true_unproved"])),
                ("false", str(self.count["false"])), ("errors", str(self.errors))]
        if self.keyed:
            rows.append(("answer keys", f"{sum(self.keyed)} agree, {len(self.keyed) - sum(self.keyed)} disagree"))
        return rows


def run(args: argparse.Namespace) -> int:
    method = method_of(args)
    found = lambda: iter_problems(args.files, args.problem, args.dialect)  # noqa: E731
    config = _Config(args.seed, args.diagrams, args.timeout, args.proofs, args.audit,
                     text=not args.json and not args.out, console=ConsoleSpec.here(), method=method,
                     aux_depth=args.aux_depth, search_jobs=search_jobs(args, method, found))
    tally = Tally(args.audit)
    batch = Batch("check", _task, _failed, tally, _init, (config,), count=lambda: sum(1 for _ in found()))
    json_out = None
    if args.json:
        if args.audit:
            sys.stdout.write('{\n  "problems": ')
        json_out = JsonArray(sys.stdout, indent=2 if args.audit else 0)
    _init(config)  # the parent writes the records of failed problems with it
    status, stats = drive(args, batch, problem_works(found()), json_out=json_out)
    if json_out is not None:
        json_out.close()
        if tally.audit is not None:
            sys.stdout.write(',\n  "audit": ' + _indented(tally.audit) + "\n}")
        sys.stdout.write("\n")
    elif tally.audit is not None and not args.out:
        _print_audit(tally.audit, config.console)
    finish(args, batch, stats)
    if tally.audit is not None and args.out:
        _print_audit(tally.audit, config.console)  # after the summary table: the file holds the records only
    return status


def _indented(items: list[dict[str, object]]) -> str:
    import json

    return json.dumps(items, ensure_ascii=False, indent=2).replace("\n", "\n  ")


def _print_audit(findings: list[dict[str, object]], spec: ConsoleSpec) -> None:
    out, buf = spec.render()
    out.print(f"audit: {plural(len(findings), 'finding')}")
    for f in findings:
        out.print(f"  {f['problem']}: option {f['label']} ({f['predicate']}): {str(f['kind']).replace('_', ' ')}",
                  markup=False)
    sys.stdout.write(buf.getvalue())


def _render(check: ProblemCheck, config: _Config) -> str:
    """The text ``geodsl check`` prints for one problem."""
    from rich.table import Table

    if check.status != "ok":
        return ""
    out, buf = config.console.render()
    style = {"proved": "green", "true_unproved": "yellow", "false": "red", "numeric": "yellow",
             "varies": "magenta"}
    name = check.problem or "(unnamed)"
    if not check.options and not check.queries:
        out.print(f"{name}: nothing to decide (the problem has neither a goal nor options)", markup=False)
        return buf.getvalue()
    closure = f"closure {check.closure_status}" if check.closure_status else "closure not run"
    table = Table(title=f"{name} — {closure}, {check.seconds:.2f} s", title_justify="left")
    for column in ("option", "predicate", "numeric", "verdict", "steps", "key"):
        table.add_column(column)
    for v in check.options:
        key = "" if check.answer_key is None else ("✓" if v.label in check.answer_key else "✗")
        steps = "" if v.proof_steps is None else (str(v.proof_steps) if v.proof_kind == "deduction"
                                                  else str(v.proof_kind))
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
    if config.proofs:
        for v in check.options:
            if v.proof is not None:
                out.print(f"proof of {v.label}:\n{v.proof.to_text()}", markup=False, end="")
            elif v.certificate is not None:
                out.print(f"proof of {v.label}:\n{v.certificate.to_text()}", markup=False, end="")
        for q in check.queries:
            if q.proof is not None:
                out.print(f"proof of {q.measurement.query.to_text()}:\n{q.proof.to_text()}", markup=False,
                          end="")
    return buf.getvalue()
