"""``geodsl realize FILE... [--json] [--seed N] [--diagrams K] [--dialect D] [--problem NAME]
[--jobs N | --ray [ADDRESS]] [--out FILE.jsonl [--resume]]``."""

from __future__ import annotations

import argparse
import io
import sys
from dataclasses import dataclass

from ..batch import Failure, Work
from ..lang.ast import Problem
from ..realizer import Diagrams
from ..lang.errors import GeoDSLError, GoalFalseError
from .batching import (BATCH_EXIT_HELP, Batch, JsonArray, Outcome, add_batch_flags, drive, failure_error, finish,
                       problem_works)
from .common import add_dialect, add_diagrams, add_files, add_json, add_problem, add_seed, iter_problems, plural


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("realize", help="place every point numerically; check goals and options",
                       description="Realize each problem's premise numerically (several independent "
                                   "diagrams from one seed), check its goals and options, and print "
                                   "the coordinates, or JSON with --json. A goal false in the diagram "
                                   "is reported as FALSE (exit status 0).",
                       epilog=BATCH_EXIT_HELP)
    add_files(p)
    add_json(p, "realize")
    add_seed(p)
    add_diagrams(p)
    add_dialect(p)
    add_problem(p)
    add_batch_flags(p)
    p.set_defaults(run=run)


def realize_reporting_false_goals(problem: Problem, seed: int, diagrams: int) -> Diagrams:
    """The diagrams; where a goal is false in every sample (a verdict, not
    an error), the diagrams drawn without regard to the goals."""
    from ..realizer import realize

    try:
        return realize(problem, seed=seed, diagrams=diagrams)
    except GoalFalseError:
        return realize(problem, seed=seed, diagrams=diagrams, check_goals=False)


@dataclass(frozen=True)
class _Config:
    seed: int
    diagrams: int
    text: bool


_CONFIG: list[_Config] = []


def _init(config: _Config) -> None:
    _CONFIG[:] = [config]


def _error(path: str, error: GeoDSLError) -> Outcome:
    return Outcome({"file": path, "problem": error.problem, "status": "error", "error": error.to_dict()},
                   errors=(error,), failed=error.kind not in ("timeout", "crash", "memory", "internal"))


def _task(payload: tuple[str, Problem | GeoDSLError]) -> Outcome:
    """One problem: its diagrams as a record and as text."""
    config = _CONFIG[0]
    path, item = payload
    if isinstance(item, GeoDSLError):
        return _error(path, item)
    try:
        figs = realize_reporting_false_goals(item, config.seed, config.diagrams)
    except GeoDSLError as exc:
        return _error(path, exc)
    record = {"file": path, "problem": item.name, "status": "ok", "error": None, **figs.to_dict()}
    return Outcome(record, _text(path, item, figs, config.seed) if config.text else "")


def _failed(work: Work[tuple[str, Problem | GeoDSLError], list[str]], failure: Failure) -> Outcome:
    path, item = work.payload
    error = failure_error(failure, path, item)
    error.problem = item.problem if isinstance(item, GeoDSLError) else item.name
    return _error(path, error)


class Tally:
    """``N problems: R realized, E errors; T s``."""

    def __init__(self) -> None:
        self.problems = self.errors = self.diagrams = 0

    def add(self, record: dict[str, object]) -> None:
        self.problems += 1
        if record.get("status") != "ok":
            self.errors += 1
        else:
            self.diagrams += len(record.get("diagrams") or [])  # type: ignore[arg-type]  # a list (realize.json)

    def line(self, seconds: float) -> str:
        return (f"{plural(self.problems, 'problem')}: {self.problems - self.errors} realized "
                f"({plural(self.diagrams, 'diagram')}), {plural(self.errors, 'error')}; {seconds:.2f} s")

    def rows(self) -> list[tuple[str, str]]:
        return [("problems", str(self.problems)), ("realized", str(self.problems - self.errors)),
                ("diagrams", str(self.diagrams)), ("errors", str(self.errors))]


def _text(path: str, item: Problem, figs: Diagrams, seed: int) -> str:
    buf = io.StringIO()

    def say(text: str) -> None:
        buf.write(text + "\n")

    say(f"problem: {item.name or '(unnamed)'}  ({path}, seed {seed})")
    for d in figs:
        say(f"  diagram {d.index + 1}:")
        for name in d.names:
            x, y = d[name]
            say(f"    {name:>4} = ({x: .6f}, {y: .6f})")
        for a in d.aux:
            for name, z in a.points.items():
                say(f"    {name:>4} = ({z.real: .6f}, {z.imag: .6f})  aux {a.label or ''}".rstrip())
    for goal in item.goals:
        failing = [d.index + 1 for d in figs if not d.holds(goal)]
        if failing:
            where = ", ".join(map(str, failing))
            say(f"  goal {goal.to_text()}: FALSE in diagram{'s' if len(failing) > 1 else ''} {where} "
                f"(of {len(figs)})")
        else:
            say(f"  goal {goal.to_text()}: holds in {len(figs)} diagram{'s' if len(figs) > 1 else ''}")
    for option in item.options:
        say(f"  option {option.label} {option.predicate.to_text()}: "
            f"{'holds' if figs.holds(option.predicate) else 'false'}")
    return buf.getvalue()


def run(args: argparse.Namespace) -> int:
    config = _Config(args.seed, args.diagrams, text=not args.json and not args.out)
    found = lambda: iter_problems(args.files, args.problem, args.dialect)  # noqa: E731
    batch = Batch("realize", _task, _failed, Tally(), _init, (config,), count=lambda: sum(1 for _ in found()))
    json_out = JsonArray(sys.stdout) if args.json else None
    status, stats = drive(args, batch, problem_works(found()), json_out=json_out)
    if json_out is not None:
        json_out.close()
        sys.stdout.write("\n")
    if args.out:
        finish(args, batch, stats)
    return status
