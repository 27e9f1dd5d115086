"""The batch flags every dataset command shares, and the plumbing from
:func:`geodsl.batch.run` to the command's output.

A command describes one problem's work as a module-level task returning an
:class:`Outcome` (its JSON record, the text it prints, the errors it
reports) and hands its items to :func:`drive`, which runs them in this
process, in ``--jobs N`` worker processes or on Ray (``--ray``), and
assembles the output in input order: the text, or the ``--json`` array
(streamed, the same bytes as ``json.dump(records, indent=2)``), or with
``--out FILE.jsonl`` one record per line and a summary table. The output
is the same whatever the engine; only timing fields differ.

Exit statuses: 2 when an input was bad, else 1 when a problem got no
result (time-out, crash, out of memory, internal error), else 0.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Protocol

from ..batch import DEFAULT_WORKER_MEMORY_MB, DEFAULT_WORKER_TASKS, Failure, JsonlSink, Progress, Settings, Stats, Work
from ..batch import MIN_WORKER_MEMORY_MB, WorkerFailure, run
from ..batch import ray_engine
from ..batch.summary import table
from ..lang.ast import Problem
from ..lang.errors import GeoDSLError
from .common import EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, UsageError, console, count_flag, located

FAILURE_KINDS = ("timeout", "crash", "memory", "internal")
"""Error kinds of a problem that got no result (an error record's ``kind``)."""

BATCH_EXIT_HELP = ("exit status: 0 when every problem was read and decided, whatever the verdicts; 2 when "
                   "an input or a flag is bad (each error is printed as file:line:col, the other problems "
                   "still run); 1 when a problem got no result (time-out, crash, out of memory: its error "
                   "record says which) or for an internal error.")


@dataclass(frozen=True)
class Outcome:
    """What one problem's task returns: its JSON ``record``; the ``text``
    the text mode prints for it; the ``errors`` to report on stderr
    (GeoDSLErrors are located against the input's lines by the caller, in
    order; strings are printed as they are); ``failed`` when the problem
    counts toward exit status 2; ``extra``, command-specific JSON kept
    beside the record (``check --audit``'s findings)."""

    record: dict[str, object]
    text: str = ""
    errors: tuple[GeoDSLError | str, ...] = ()
    failed: bool = False
    extra: tuple[dict[str, object], ...] = ()


class Tally(Protocol):
    """A command's running counts, fed one record at a time (also the
    records a resumed run reads back), so a summary never needs every
    record in memory."""

    def add(self, record: dict[str, object]) -> None: ...

    def line(self, seconds: float) -> str: ...

    def rows(self) -> list[tuple[str, str]]: ...


# -- flags ------------------------------------------------------------------------


def _seconds_flag(flag: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not (value > 0 and value != float("inf")):
            raise UsageError(f"{flag} {text}: seconds must be a finite number > 0", hint=f"e.g. {flag} 120")
        return value

    return parse


def _memory_flag(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        value = 0
    if value < MIN_WORKER_MEMORY_MB:
        raise UsageError(f"--worker-memory {text}: MiB per worker must be a whole number from {MIN_WORKER_MEMORY_MB}",
                         hint=f"e.g. --worker-memory {DEFAULT_WORKER_MEMORY_MB}")
    return value


def add_batch_flags(p: argparse.ArgumentParser, *, jobs_help: str = "problems") -> None:
    """``--jobs``, ``--ray``, ``--out``, ``--resume`` and the worker limits."""
    g = p.add_argument_group("batch runs (docs/batch.md)")
    g.add_argument("--jobs", type=count_flag("--jobs", "the number of processes"), default=None, metavar="N",
                   help=f"run the {jobs_help} in N worker processes (same output, in the same order, as "
                        "one); a problem that crashes its worker or passes --problem-timeout gets an error "
                        "record and the run goes on (default: in this process)")
    g.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help='run on a Ray cluster (pip install "geodsl[ray]"): ADDRESS of a running one '
                        "(auto, host:6379, ray://host:10001), or none to start a local instance")
    g.add_argument("--out", metavar="FILE.jsonl",
                   help="write one JSON record per problem to FILE as it finishes (input order), and print "
                        "a summary table instead of the per-problem output")
    g.add_argument("--resume", action="store_true",
                   help="with --out: keep the records FILE already holds and run only the rest")
    g.add_argument("--problem-timeout", type=_seconds_flag("--problem-timeout"), default=None, metavar="S",
                   help="hard wall-clock limit per problem with --jobs or --ray: past it the worker is "
                        "stopped and the problem gets a timeout error (default: 4 × --timeout + 60 s)")
    g.add_argument("--worker-tasks", type=count_flag("--worker-tasks", "the number of problems"),
                   default=DEFAULT_WORKER_TASKS, metavar="K",
                   help=f"replace each worker process after K problems (default: {DEFAULT_WORKER_TASKS})")
    g.add_argument("--worker-memory", type=_memory_flag, default=DEFAULT_WORKER_MEMORY_MB, metavar="MiB",
                   help="the memory each worker process may map; a problem needing more gets a memory "
                        f"error (default: {DEFAULT_WORKER_MEMORY_MB})")


def settings(args: argparse.Namespace) -> Settings:
    """The :class:`Settings` of the batch flags, checked together."""
    if args.resume and not args.out:
        raise UsageError("--resume continues an --out file: give --out FILE.jsonl",
                         hint="e.g. --out results.jsonl --resume")
    if args.out and getattr(args, "json", False):
        raise UsageError("--out writes JSON already (one record per line): drop --json",
                         hint="the file holds the records; the terminal gets a summary table")
    if args.ray is not None and args.jobs is not None:
        raise UsageError("--ray runs on the cluster's CPUs: drop --jobs", hint="--ray [ADDRESS], or --jobs N")
    if args.ray not in (None, "local", "auto"):
        try:  # at once, as a flag error: Ray itself retries an address where nothing listens for minutes
            ray_engine.answers(args.ray)
        except GeoDSLError as exc:
            raise UsageError(exc.message, hint=exc.hint) from None
    timeout = args.problem_timeout
    if timeout is None:
        timeout = 4 * float(getattr(args, "timeout", 30.0) or 30.0) + 60.0
    return Settings(jobs=args.jobs, ray=args.ray, timeout=timeout, worker_tasks=args.worker_tasks,
                    worker_memory_mb=args.worker_memory)


# -- the text console the workers render on ------------------------------------------


@dataclass(frozen=True)
class ConsoleSpec:
    """What the parent's console looks like, so a worker renders the text
    (rich tables, colours) exactly as the parent would have printed it."""

    terminal: bool
    width: int
    color_system: str | None

    @staticmethod
    def here() -> ConsoleSpec:
        c = console()
        return ConsoleSpec(c.is_terminal, c.width, c.color_system)

    def render(self) -> tuple[Any, io.StringIO]:
        """A rich Console writing into a string, and the string."""
        from rich.console import Console

        buf = io.StringIO()
        out = Console(file=buf, force_terminal=self.terminal, width=self.width, soft_wrap=True,
                      highlight=False, color_system=self.color_system,  # type: ignore[arg-type]  # one of rich's names, or None
                      no_color=self.color_system is None, legacy_windows=False)
        return out, buf


# -- output ---------------------------------------------------------------------------


class JsonArray:
    """Writes a JSON array one element at a time, byte for byte what
    ``json.dump(items, out, ensure_ascii=False, indent=2)`` writes (nested
    ``indent`` levels deep, for an array inside an object)."""

    def __init__(self, out: IO[str], indent: int = 0) -> None:
        self.out = out
        self.pad = " " * indent
        self.count = 0

    def add(self, item: object) -> None:
        text = json.dumps(item, ensure_ascii=False, indent=2)
        inner = self.pad + "  "
        self.out.write(("[\n" if self.count == 0 else ",\n") + "\n".join(inner + line for line in text.split("\n")))
        self.count += 1

    def close(self) -> None:
        self.out.write("[]" if self.count == 0 else "\n" + self.pad + "]")


def identify(record: dict[str, object]) -> str:
    """The key a record is matched with its problem by on ``--resume``."""
    return f"{record.get('file')}#{record.get('problem')}"


def key(file: str, name: str | None) -> str:
    return f"{file}#{name}"


def problem_key(path: str, item: Problem | GeoDSLError) -> str:
    return key(path, item.problem if isinstance(item, GeoDSLError) else item.name)


def failure_error(failure: Failure, file: str, item: object) -> WorkerFailure:
    """The located error of a problem that got no result."""
    span = getattr(item, "span", None)
    return WorkerFailure(failure, source=file, line=getattr(span, "line", None),
                         column=getattr(span, "column", None))


@dataclass
class Batch:
    """One command's batch: how to run a problem and how to report it."""

    label: str
    task: Callable[[Any], Outcome]
    on_failure: Callable[[Work[Any, Any], Failure], Outcome]
    tally: Tally
    init: Callable[..., None] | None = None
    initargs: tuple[object, ...] = ()
    count: Callable[[], int] | None = None
    """The number of problems, for the progress bar (called only when it is shown)."""
    extra: list[dict[str, object]] = field(default_factory=list)


def _exit_status(record: dict[str, object], outcome: Outcome | None) -> int:
    error = record.get("error")
    if isinstance(error, dict) and error.get("kind") in FAILURE_KINDS:
        return EXIT_INTERNAL
    if outcome is not None:
        return EXIT_INPUT if outcome.failed else EXIT_OK
    return EXIT_INPUT if record.get("status") == "error" else EXIT_OK


def drive(args: argparse.Namespace, batch: Batch, works: Iterable[Work[Any, Any]], *,
          json_out: JsonArray | None = None, text: bool = True) -> tuple[int, Stats]:
    """Run the works and write their output in input order: with ``--out``
    the file; else each outcome's text (``text``) or ``json_out``. Errors
    go to stderr as they come. Returns the exit status and the run's
    :class:`Stats` (the caller prints its summary: :func:`finish`)."""
    conf = settings(args)
    stats = Stats()
    status = EXIT_OK
    progress = Progress(None, batch.label)
    if progress.enabled and batch.count is not None:
        progress.total = batch.count()
    sink = JsonlSink(args.out, resume=args.resume) if args.out else None
    try:
        with progress, _stopped_by_sigterm():
            done_iter = run(works, batch.task, on_failure=batch.on_failure, settings=conf, init=batch.init,
                            initargs=batch.initargs, sink=sink, record=lambda o: o.record, identify=identify,
                            progress=progress, failed=lambda o: o.record.get("status") == "error", stats=stats)
            for done in done_iter:
                outcome: Outcome | None = done.result
                record = done.record if done.record is not None else (outcome.record if outcome else {})
                batch.tally.add(record)
                worst = _exit_status(record, outcome)
                status = EXIT_INPUT if EXIT_INPUT in (status, worst) else max(status, worst)
                if outcome is None:
                    continue
                lines = done.work.context or []
                for err in outcome.errors:
                    message = located(err, lines).format() if isinstance(err, GeoDSLError) else err
                    print(message, file=sys.stderr)
                batch.extra.extend(outcome.extra)
                if sink is not None:
                    continue
                if json_out is not None:
                    json_out.add(outcome.record)
                elif text and outcome.text:
                    sys.stdout.write(outcome.text)
    finally:
        if sink is not None:
            sink.close()
    return status, stats


@contextlib.contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM (``kill``, a scheduler's pre-emption) ends the run as Ctrl-C
    does: the workers are stopped and the ``--out`` file is closed after its
    last complete record, ready for ``--resume``; the exit status is 143."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def finish(args: argparse.Namespace, batch: Batch, stats: Stats, *, text_line: bool = True) -> None:
    """The summary: with ``--out`` a table on stdout; otherwise the
    command's summary line (stdout in text mode, stderr with ``--json``)."""
    if args.out:
        out = console()
        out.print(table(f"geodsl {batch.label}: {args.out}", batch.tally.rows(), stats))
        return
    line = batch.tally.line(stats.seconds)
    print(line, file=sys.stderr if getattr(args, "json", False) or not text_line else sys.stdout)


def problem_works(found: Iterable[tuple[str, Problem | GeoDSLError, list[str]]],
                  payload: Callable[[str, Problem | GeoDSLError], object] | None = None) -> Iterator[Work[Any, Any]]:
    """Works of :func:`geodsl.commands.common.iter_problems`' items: the
    payload (path, problem or error) goes to the worker, the file's lines
    stay here for the carets."""
    for path, item, lines in found:
        yield Work(problem_key(path, item), (path, item) if payload is None else payload(path, item), lines)
