"""What every subcommand shares: exit statuses, the flags and their checks,
reading the inputs (files, standard input or a shipped dataset's name) into
problems with their source lines, so that errors found after parsing (a
degenerate construction, say) print with a caret like parse errors, and the
console the tables print on.

Exit statuses, the same in every command: 0 when every input was read and
every problem decided, whatever the verdicts (a false goal is a verdict, not
an error); 2 when some input or flag was bad (each error is printed, located,
and the other problems still run); 1 for an internal error.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from .. import datasets
from ..budget import DEFAULT_SECONDS, Budget
from ..lang.ast import Problem
from ..lang.definitions import DIALECTS
from ..lang.errors import GeoDSLError, ProblemError
from ..lang.parser import decode, iter_parse, read_text

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT = 0, 1, 2

EXIT_STATUS_HELP = ("exit status: 0 when every problem was read and decided, whatever the verdicts "
                    "(a false goal is the verdict `false`, not an error); 2 when an input or a flag "
                    "is bad (each error is printed as file:line:col, the other problems still run); "
                    "1 for an internal error.")


class UsageError(GeoDSLError):
    """A bad flag value: printed as ``geodsl: error: --flag value: ...``."""

    kind = "usage"

    def format(self) -> str:
        out = [f"geodsl: error: {self.message}"]
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


# -- flag values ------------------------------------------------------------------
#
# argparse calls these with the text after the flag. They raise UsageError
# (not ValueError), which argparse lets through to geodsl.cli.main, so every
# command refuses a bad value with the same words.


def seed_flag(text: str) -> int:
    """``--seed N``: a whole number from 0 (:func:`geodsl.realizer.rng.check_seed`)."""
    from ..realizer.rng import check_seed

    try:
        value = int(text, 10)
    except ValueError:
        raise UsageError(f"--seed {text}: not a whole number",
                         hint="seeds are whole numbers from 0, e.g. --seed 0") from None
    try:
        return check_seed(value, "--seed")
    except GeoDSLError as exc:
        raise UsageError(f"--seed {text}: {exc.message.removeprefix('--seed ')}", hint=exc.hint) from None


def timeout_flag(text: str) -> float:
    """``--timeout S``: seconds, checked by :class:`geodsl.budget.Budget`
    (finite and greater than 0), so flags and the API refuse the same values."""
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"--timeout {text}: not a number of seconds",
                         hint="pass --timeout with a finite positive value, e.g. --timeout 30") from None
    try:
        Budget(seconds=value)
    except GeoDSLError as exc:
        raise UsageError(f"--timeout {text}: {exc.message}", hint=exc.hint) from None
    return value


def count_flag(flag: str, what: str) -> Callable[[str], int]:
    """A flag taking a whole number ≥ 1 (``--diagrams K``, ``--diagram I``)."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            value = 0
        if value < 1:
            raise UsageError(f"{flag} {text}: {what} must be a whole number from 1",
                             hint=f"e.g. {flag} 1")
        return value

    parse.__name__ = flag.lstrip("-")
    return parse


def add_files(p: argparse.ArgumentParser, several: bool = True) -> None:
    names = ", ".join(datasets.names())
    p.add_argument("files" if several else "file", nargs="+" if several else None, metavar="FILE",
                   help=f"problem file{'s' if several else ''} (AlphaGeometry text or .gdl), '-' for "
                        f"standard input, or the name of a shipped dataset ({names})")


def add_dialect(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dialect", choices=DIALECTS, default="alphageometry",
                   help="the dialect the input is written in (default: alphageometry)")


def add_problem(p: argparse.ArgumentParser,
                help: str = "only the problem with this name, in any FILE (default: every problem)") -> None:
    p.add_argument("--problem", metavar="NAME", help=help)


def add_seed(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=seed_flag, default=0, metavar="N",
                   help="random seed of the diagrams, a whole number from 0 (default: 0); "
                        "same seed, same output")


def add_timeout(p: argparse.ArgumentParser, per: str = "problem") -> None:
    p.add_argument("--timeout", type=timeout_flag, default=DEFAULT_SECONDS, metavar="S",
                   help=f"time budget per {per} in seconds, finite and > 0 (default: {DEFAULT_SECONDS:g}); "
                        "past it the closure stops with a partial result (closure_status budget)")


def add_diagrams(p: argparse.ArgumentParser) -> None:
    p.add_argument("--diagrams", type=count_flag("--diagrams", "the number of diagrams"), default=3,
                   metavar="K", help="independent diagrams per problem the verdicts are decided on (default: 3)")


def add_method(p: argparse.ArgumentParser) -> None:
    """``--method``, ``--aux-search`` and ``--aux-depth K`` (docs/provers.md).

    ``--jobs N`` (the batch flags) serves the search too: see
    :func:`search_jobs`."""
    p.add_argument("--method", choices=("ddar", "search", "algebra", "auto"), default="ddar",
                   help="ddar: deduction + chasing; search: ddar, then ddar with auxiliary "
                        "points; algebra: coordinates and Wu's method with a checked certificate; "
                        "auto: ddar, then search, then algebra, in one budget (default: ddar)")
    p.add_argument("--aux-search", action="store_true",
                   help="search for auxiliary points where DD+AR alone fails (--method ddar becomes search)")
    p.add_argument("--aux-depth", type=count_flag("--aux-depth", "the search depth"), default=2, metavar="K",
                   help="auxiliary points added at most, one per level (default: 2)")


def search_jobs(args: argparse.Namespace, method: str, problems: Callable[[], Iterable[object]]) -> int:
    """The processes the auxiliary-point search gets per problem.

    ``--jobs N`` runs the problems in N workers, each searching in one
    process; a run of one problem has no batch to spread, so its search gets
    the N processes instead (and the run stays in this process). The search's
    result does not depend on its process count, so neither does the output.
    """
    if method == "ddar" or not args.jobs or args.jobs < 2 or args.ray is not None \
            or args.problem_timeout is not None or sum(1 for _ in itertools.islice(problems(), 2)) != 1:
        return 1
    jobs, args.jobs = int(args.jobs), None
    return jobs


def method_of(args: argparse.Namespace) -> str:
    """The method the flags ask for (``--aux-search`` turns ``ddar`` into ``search``)."""
    method = str(args.method)
    if args.aux_search:
        if method == "algebra":
            raise UsageError("--aux-search: the algebraic prover adds no auxiliary points",
                             hint="use --method search or --method auto with --aux-search")
        if method == "ddar":
            method = "search"
    return method


def add_aux(p: argparse.ArgumentParser) -> None:
    """``--aux TEXT`` (repeatable), ``--aux-file F`` and ``--lang``: candidate
    auxiliary constructions given on the command line (``geodsl aux``,
    ``geodsl render``), read by :func:`geodsl.read_aux`."""
    p.add_argument("--aux", action="append", default=None, metavar="TEXT",
                   help="a candidate auxiliary construction: DSL (`d = foot d a b c`), English (`draw the "
                        "perpendicular from A to BC with foot D`) or Chinese (`过点A作AD⊥BC于D`); repeatable")
    p.add_argument("--aux-file", metavar="F",
                   help="a file of candidates, one per line (blank lines and lines starting with # skipped)")
    p.add_argument("--lang", choices=("auto", "formal", "en", "zh"), default="auto",
                   help="the language of the candidates (default: auto — Chinese characters mean zh, "
                        "a construction of the DSL formal, anything else en)")


class AuxText(NamedTuple):
    """One candidate given on the command line, and where, for its errors."""

    text: str
    source: str
    line: int


def aux_texts(args: argparse.Namespace) -> list[AuxText]:
    """The candidates of ``--aux-file`` (one per line) then of ``--aux``."""
    out: list[AuxText] = []
    if args.aux_file is not None:
        text, source = read_input(args.aux_file)
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(AuxText(line, source, number))
    given = args.aux or []
    for i, text in enumerate(given, start=1):
        out.append(AuxText(text, f"--aux {i}" if len(given) > 1 else "--aux", 1))
    return out


def add_json(p: argparse.ArgumentParser, schema: str, shape: str = "an array, one object per problem") -> None:
    p.add_argument("--json", action="store_true",
                   help=f"print JSON ({shape}) instead of text; schema: geodsl/schemas/{schema}.json")


# -- inputs -----------------------------------------------------------------------


def read_input(path: str) -> tuple[str, str]:
    """(text, source name) of one input: ``-`` is standard input, an existing
    file is read, and otherwise a shipped dataset's name is its text."""
    if path == "-":
        return decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    if not os.path.exists(path):
        found = datasets.lookup(path)
        if found is not None:
            return datasets.text(found.name), found.name
    try:
        return read_text(path), path
    except GeoDSLError as exc:
        if not os.path.exists(path):
            guess = datasets.suggestion(path)
            listed = ", ".join(datasets.names())
            exc.hint = (f"did you mean the dataset `{guess}`? (datasets: {listed})" if guess
                        else f"check the path, or name a shipped dataset: {listed}")
        raise


def empty_input_error(source: str, lines: Sequence[str]) -> ProblemError:
    """The error for an input without a single problem."""
    what = "is empty" if not any(line.strip() for line in lines) else "holds only comments and blank lines"
    return ProblemError(f"no problem in {source}: the input {what}", source=source, line=1, column=1,
                        text="", source_line=lines[0] if lines else None,
                        hint="a problem is a line such as `a b c = triangle a b c ? perp a b b c`")


def iter_problems(paths: Sequence[str], name: str | None = None, dialect: str = "alphageometry"
                  ) -> Iterator[tuple[str, Problem | GeoDSLError, list[str]]]:
    """(input, problem or error, the input's lines) for every problem of every
    input, or only those named ``name``. An input without a problem is an
    error naming it; with ``name``, so is finding no such problem in any input."""
    found = False
    read = 0
    names: list[str] = []
    sources: list[str] = []
    for path in paths:
        try:
            text, source = read_input(path)
        except GeoDSLError as exc:
            yield path, exc, []
            continue
        shown = source if source != "<stdin>" else path
        sources.append(source)
        lines = text.splitlines()
        items = 0
        for item in iter_parse(text, source, dialect=dialect):
            items += 1
            read += 1
            if name is not None:
                item_name = item.problem if isinstance(item, GeoDSLError) else item.name
                if item_name != name:
                    if item_name and item_name not in names:
                        names.append(item_name)
                    continue
            found = True
            yield shown, item, lines
        if items == 0:
            yield shown, empty_input_error(source, lines), lines
    if name is not None and not found and read:
        listed = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        where = ", ".join(sources)
        yield where, ProblemError(f"no problem named `{name}` in {where}", source=where, text=name,
                                  hint=f"problems: {listed}" if names else "no problem there has a name"), []


def located(error: GeoDSLError, lines: Sequence[str]) -> GeoDSLError:
    """The error with its source line attached (for the caret)."""
    if error.source_line is None and error.line is not None and 0 < error.line <= len(lines):
        error.located(source_line=lines[error.line - 1])
    return error


def console():
    """A rich Console for tables and proofs: long lines are never wrapped
    (proof lines stay one per line when piped), and a pipe gets plain text
    as wide as the content rather than 80 columns."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # Rich exits with status 1; a closed pipe (`| head`) is not an
            # error: geodsl.cli.main exits 0, as for print().
            self.quiet = True
            raise BrokenPipeError

    out = _Console(soft_wrap=True, highlight=False)
    if not out.is_terminal:
        out = _Console(soft_wrap=True, highlight=False, width=100_000)
    return out


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"
