"""``geodsl grade``: grade model-written solutions step by step
(:mod:`geodsl.checker.grade`; docs/grading.md).

::

    geodsl grade --problem FILE [--name NAME] --solution S [--judge none|openai] [--judge-model M] [--json]
    geodsl grade --batch ITEMS.jsonl [--jobs N | --ray [ADDRESS]] [--out FILE.jsonl [--resume]] [--json]

Symbolic verdicts first; with ``--judge openai`` the steps left undecided
go to an OpenAI-compatible server (the key from an environment variable
only). A summary (GeoLaux's means, ΔPCS, error types, the share decided
without the judge, judge calls and cost) ends the text output; with
``--json`` it goes to stderr, and ``--summary FILE`` writes it as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..checker.grade import GradeOptions, SolutionGrade, grade
from ..batch import Failure, Work
from ..checker.judge import Judge, JudgeConfig, judge_cost
from ..checker.metrics import geolaux_summary
from ..checker.steps import FORMATS, read_solution
from ..lang.ast import Problem
from ..lang.errors import GeoDSLError, ProblemError, SyntaxErrorGDL
from ..lang.notation import NOTATION_DIALECTS
from ..lang.parser import decode, iter_parse
from .batching import ConsoleSpec, Batch, JsonArray, Outcome, add_batch_flags, drive, failure_error, finish, key
from .common import (UsageError, add_dialect, add_seed, add_timeout, console, count_flag, iter_problems, located,
                     plural, read_input, timeout_flag)

MAX_ITEM_CHARS = 1_000_000


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("grade", help="grade model-written solutions step by step (GeoLaux's ACS, PCS, PQS)",
                       description="Read each step's claims, decide each symbolically (valid, valid_skip, "
                                   "false with a counterexample, unjustified) and send only what cannot be "
                                   "decided to an LLM judge; report the first wrong step, ACS, PCS and PQS. "
                                   "Verdicts, formats, error types and the judge: docs/grading.md.",
                       epilog="exit status: 0 when every solution was read and graded, whatever the "
                              "verdicts; 2 when a problem, a solution or a flag is bad (printed as "
                              "file:line:col; the other items still run); 1 when a solution got no result "
                              "(time-out, crash, out of memory) or for an internal error.")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--problem", metavar="FILE",
                      help="the problem: geodsl text or .gdl ('-' for standard input, or a shipped dataset's name)")
    what.add_argument("--batch", metavar="ITEMS.jsonl",
                      help='one {"problem", "solution", "answer"?, "reference"?, "name"?, "format"?, '
                           '"notation"?} per line')
    p.add_argument("--name", metavar="NAME", help="the problem with this name in FILE (needed when it has several)")
    p.add_argument("--solution", metavar="S", help="the solution's file ('-' for standard input)")
    p.add_argument("--answer", metavar="A", help="the expected answer of a calculation problem (e.g. 60°, 2√3)")
    p.add_argument("--reference", metavar="FILE", help="a reference solution, shown to the judge")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="the solution's format (default: from its shape)")
    p.add_argument("--notation", choices=NOTATION_DIALECTS, default=None,
                   help="the notation of its statements (default: by format — textbook for text and JSON)")
    p.add_argument("--skip-is-error", action="store_true",
                   help="count valid_skip (more than one step at once) as an error, as GeoLaux does")
    p.add_argument("--max-skip", type=count_flag("--max-skip", "the number of steps"), default=12, metavar="N",
                   help="the most closure steps a valid_skip may skip; beyond, a leap (default: 12)")
    p.add_argument("--claim-timeout", type=timeout_flag, default=5.0, metavar="S",
                   help="the closure's budget per claim, in seconds (default: 5)")
    add_timeout(p)
    add_seed(p)
    p.add_argument("--diagrams", type=count_flag("--diagrams", "the number of diagrams"), default=3,
                   metavar="K", help="diagrams numeric truth is decided on (default: 3)")
    add_dialect(p)
    judge = p.add_argument_group("the judge (only for undecided steps)")
    judge.add_argument("--judge", choices=("none", "openai"), default="none",
                       help="none leaves undecided steps undecided (default); openai asks an "
                            "OpenAI-compatible server")
    judge.add_argument("--judge-model", metavar="M", help="the judge's model name (required with --judge openai)")
    judge.add_argument("--judge-url", metavar="URL", default=None,
                       help="the server's base URL (default: $OPENAI_BASE_URL or https://api.openai.com/v1)")
    judge.add_argument("--judge-key-env", metavar="VAR", default="OPENAI_API_KEY",
                       help="the environment variable holding the API key (default: OPENAI_API_KEY); "
                            "the key is never printed")
    judge.add_argument("--judge-timeout", type=timeout_flag, default=60.0, metavar="S",
                       help="seconds per request (default: 60)")
    judge.add_argument("--judge-retries", type=_whole("--judge-retries", 0), default=3, metavar="N",
                       help="retries on 429, 5xx, timeouts and malformed replies (default: 3)")
    judge.add_argument("--judge-concurrency", type=count_flag("--judge-concurrency", "the number of requests"),
                       default=4, metavar="N", help="requests in flight at once (default: 4)")
    judge.add_argument("--judge-cache", metavar="DIR", default=None,
                       help="the reply cache (default: ~/.cache/geodsl/judge); a re-run costs nothing")
    judge.add_argument("--judge-price", nargs=2, type=float, metavar=("IN", "OUT"), default=None,
                       help="US dollars per million prompt and completion tokens, to report the cost")
    p.add_argument("--json", action="store_true",
                   help="print JSON (an array, one object per solution; schema: geodsl/schemas/grade.json); "
                        "the summary goes to stderr")
    p.add_argument("--summary", metavar="FILE", help="also write the summary as JSON to FILE")
    add_batch_flags(p, jobs_help="solutions")
    p.set_defaults(run=run)


def _whole(flag: str, low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            value = low - 1
        if value < low:
            raise UsageError(f"{flag} {text}: must be a whole number from {low}", hint=f"e.g. {flag} 3")
        return value

    return parse


def _options(args: argparse.Namespace) -> GradeOptions:
    return GradeOptions(seed=args.seed, diagrams=args.diagrams, skip_is_error=args.skip_is_error,
                        max_skip=args.max_skip, claim_seconds=args.claim_timeout, timeout=args.timeout,
                        format=args.format, notation=args.notation)


def _judge_config(args: argparse.Namespace) -> JudgeConfig | None:
    if args.judge == "none":
        return None
    if not args.judge_model:
        raise UsageError("--judge openai needs --judge-model", hint="e.g. --judge-model gpt-4o-mini")
    url = args.judge_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    price = args.judge_price or (None, None)
    try:
        return JudgeConfig(model=args.judge_model, base_url=url, api_key_env=args.judge_key_env,
                           timeout=args.judge_timeout, retries=args.judge_retries,
                           concurrency=args.judge_concurrency,
                           cache_dir=None if args.judge_cache is None else Path(args.judge_cache),
                           price_input=price[0], price_output=price[1])
    except GeoDSLError as exc:
        raise UsageError(exc.message, hint=exc.hint) from None


# ------------------------------------------------------------------ items


@dataclass(frozen=True)
class Item:
    """One solution to grade (or the error that stopped reading it)."""

    source: str
    problem: Problem | None = None
    solution: str | dict[str, object] = ""
    solution_source: str = "<solution>"
    answer: str | None = None
    reference: str | None = None
    format: str | None = None
    notation: str | None = None
    error: GeoDSLError | None = None


def _items_single(args: argparse.Namespace) -> Iterator[Item]:
    if not args.solution:
        raise UsageError("--problem needs --solution", hint="--solution FILE, or '-' for standard input")
    found = list(iter_problems([args.problem], args.name, args.dialect))
    problems = [(source, item) for source, item, _ in found if not isinstance(item, GeoDSLError)]
    errors = [located(item, lines) for _, item, lines in found if isinstance(item, GeoDSLError)]
    if errors and not problems:
        yield Item(args.problem, error=errors[0])
        return
    if len(problems) > 1 and args.name is None:
        names = ", ".join(str(p.name) for _, p in problems[:6])
        raise UsageError(f"{args.problem} holds {len(problems)} problems: pick one with --name",
                         hint=f"problems: {names}")
    source, problem = problems[0]
    text, solution_source = read_input(args.solution)
    reference = read_input(args.reference)[0] if args.reference else None
    yield Item(source, problem, text, solution_source, args.answer, reference)


def _items_batch(args: argparse.Namespace) -> Iterator[Item]:
    text, source = read_input(args.batch)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{source}:{number}"
        try:
            yield _item(line, source, number, where, args.dialect)
        except GeoDSLError as exc:
            yield Item(where, error=exc)


def _item(line: str, source: str, number: int, where: str, dialect: str) -> Item:
    if len(line) > MAX_ITEM_CHARS:
        raise SyntaxErrorGDL(f"the item is {len(line):,} characters; the limit is {MAX_ITEM_CHARS:,}",
                             source=source, line=number, column=1, text="",
                             hint="one problem and one solution per line")
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise SyntaxErrorGDL(f"not valid JSON: {exc.msg}", source=source, line=number,
                             column=exc.colno, text=line[exc.pos:exc.pos + 10], source_line=line,
                             hint='one {"problem": ..., "solution": ...} object per line') from None
    if not isinstance(item, dict) or not isinstance(item.get("problem"), str) or \
            not isinstance(item.get("solution"), (str, dict)):
        raise SyntaxErrorGDL('an item needs "problem" (text) and "solution" (text or '
                             '{"steps": [...]})', source=source, line=number, column=1,
                             text=line[:20], source_line=line,
                             hint='{"problem": "a b c = triangle a b c ? ...", "solution": "..."}')
    problem = _one_problem(item["problem"], where, item.get("name"), dialect)
    return Item(where, problem, item["solution"], where, _text(item.get("answer")), _text(item.get("reference")),
                _text(item.get("format")), _text(item.get("notation")))


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _one_problem(text: str, where: str, name: object, dialect: str) -> Problem:
    found = []
    for item in iter_parse(decode(text.encode("utf-8"), where), where, dialect=dialect):
        if isinstance(item, GeoDSLError):
            raise item
        found.append(item)
    if name is not None:
        found = [p for p in found if p.name == name]
    if len(found) != 1:
        raise ProblemError(f"the item's problem text holds {len(found)} problems, not one", source=where,
                           text=str(name or ""), hint='give one problem per item (or "name")')
    return found[0]


# ------------------------------------------------------------------ grading


@dataclass
class _State:
    options: GradeOptions = GradeOptions()
    judge: Judge | None = None
    console: ConsoleSpec | None = None
    """How the text of an item is rendered (None: no text, --json or --out)."""


_STATE = _State()


def _init(options: GradeOptions, config: JudgeConfig | None, spec: ConsoleSpec | None = None) -> None:
    _STATE.options = options
    _STATE.judge = None if config is None else Judge(config)
    _STATE.console = spec


def _grade_item(item: Item) -> SolutionGrade:
    options = _STATE.options
    if item.error is not None or item.problem is None:
        error = item.error or GeoDSLError("no problem to grade")
        return SolutionGrade(error.problem, "error", error=error, source=item.source)
    try:
        solution = read_solution(item.solution, format=item.format or options.format,
                                 notation=item.notation or options.notation, source=item.solution_source)
        out = grade(item.problem, solution, options=options, judge=_STATE.judge, answer=item.answer,
                    reference=item.reference)
    except GeoDSLError as exc:
        out = SolutionGrade(item.problem.name, "error", error=exc)
    out.source = item.source
    return out


def _task(item: Item) -> Outcome:
    """One solution: its grade as a record, and its table."""
    g = _grade_item(item)
    text = "" if _STATE.console is None else _render(g, _STATE.console)
    return Outcome(g.to_dict(), text, () if g.error is None else (g.error.format(),), failed=g.error is not None)


def _failed(work: Work[Item, None], failure: Failure) -> Outcome:
    item = work.payload
    error = failure_error(failure, item.source, None)
    g = SolutionGrade(item.problem.name if item.problem is not None else None, "error", error=error,
                      source=item.source, seed=_STATE.options.seed)
    return Outcome(g.to_dict(), "", (error.format(),))


_SUMMARY_STEP_KEYS = ("verdict", "error_type", "decided_by")
_SUMMARY_KEYS = ("status", "acs", "pcs", "pqs", "judge_tokens", "judge_calls")


class Tally:
    """GeoLaux's summary (:func:`geodsl.checker.metrics.geolaux_summary`),
    fed with each record cut down to the fields it reads."""

    def __init__(self, config: JudgeConfig | None) -> None:
        self.records: list[dict[str, object]] = []
        self.config = config

    def add(self, record: dict[str, object]) -> None:
        slim: dict[str, object] = {k: record.get(k) for k in _SUMMARY_KEYS}
        steps = record.get("steps")
        slim["steps"] = [{k: s.get(k) for k in _SUMMARY_STEP_KEYS} for s in steps if isinstance(s, dict)] \
            if isinstance(steps, list) else []
        self.records.append(slim)

    def summary(self) -> dict[str, object]:
        out = geolaux_summary(self.records)
        tokens = out["judge_tokens"]
        assert isinstance(tokens, dict)
        out["judge_cost_usd"] = None if self.config is None else judge_cost(self.config, tokens["prompt"],
                                                                             tokens["completion"])
        return out

    def line(self, seconds: float) -> str:
        return _summary_line(self.summary())

    def rows(self) -> list[tuple[str, str]]:
        s = self.summary()

        def pct(key: str) -> str:
            v = s.get(key)
            return f"{100 * v:.1f}%" if isinstance(v, (int, float)) else "n/a"

        return [("solutions", str(s["solutions"])), ("graded", str(s["graded"])), ("errors", str(s["errors"])),
                ("steps", str(s["steps"])), ("ACS", pct("acs")), ("PCS", pct("pcs")), ("PQS", pct("pqs")),
                ("ΔPCS", pct("delta_pcs")), ("decided symbolically", pct("decided_symbolically")),
                ("judge calls", str(s["judge_calls"]))]


def run(args: argparse.Namespace) -> int:
    options = _options(args)
    config = _judge_config(args)
    text = not args.json and not args.out
    spec = ConsoleSpec.here() if text else None
    tally = Tally(config)

    def items() -> Iterator[Item]:
        return _items_batch(args) if args.batch else _items_single(args)

    def works() -> Iterator[Work[Item, None]]:
        for item in items():
            yield Work(key(item.source, item.problem.name if item.problem is not None else
                           (item.error.problem if item.error is not None else None)), item)

    batch = Batch("grade", _task, _failed, tally, _init, (options, config, spec),
                  count=lambda: sum(1 for _ in items()))
    json_out = JsonArray(sys.stdout) if args.json else None
    status, stats = drive(args, batch, works(), json_out=json_out)
    summary = tally.summary()
    if args.summary:
        Path(args.summary).write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if json_out is not None:
        json_out.close()
        sys.stdout.write("\n")
        print(_summary_line(summary), file=sys.stderr)
    elif args.out:
        finish(args, batch, stats)
    else:
        console().print(_summary_line(summary))
    return status


def _summary_line(s: dict[str, object]) -> str:
    def pct(key: str) -> str:
        v = s.get(key)
        return f"{100 * v:.1f}%" if isinstance(v, (int, float)) else "n/a"

    def count(key: str) -> int:
        v = s.get(key)
        return v if isinstance(v, int) else 0

    cost = s.get("judge_cost_usd")
    return (f"{plural(count('graded'), 'solution')} graded ({count('errors')} errors), "
            f"{plural(count('steps'), 'step')}: ACS {pct('acs')}, PCS {pct('pcs')}, "
            f"PQS {pct('pqs')}, ΔPCS {pct('delta_pcs')}; decided symbolically "
            f"{pct('decided_symbolically')}; judge calls {count('judge_calls')}"
            + (f" (${cost:.4f})" if isinstance(cost, float) else ""))


def _render(g: SolutionGrade, spec: ConsoleSpec) -> str:
    """The table ``geodsl grade`` prints for one solution."""
    from rich.table import Table

    if g.status != "ok":
        return ""
    out, buf = spec.render()
    table = Table(title=f"{g.problem or g.source}: first error {g.first_error or '-'}; "
                        f"ACS {_fmt(g.acs)} PCS {_fmt(g.pcs)} PQS {_fmt(g.pqs)}")
    for col in ("step", "verdict", "by", "error", "reason"):
        table.add_column(col)
    for s in g.steps:
        table.add_row(str(s.index), s.verdict, s.decided_by, s.error_type or "", s.reason)
    out.print(table)
    bad = [c for c in g.cited if not c.established]
    for c in bad:
        out.print(f"  [{c.ref}] {c.text}: {c.status}")
    return buf.getvalue()


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
