"""What every subcommand shares: exit statuses, and reading the input files
(standard input included) into problems with their source lines, so that
errors found after parsing (a degenerate construction, say) print with a
caret like parse errors."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence

from ..lang.ast import Problem
from ..lang.errors import GeoDSLError, ProblemError
from ..lang.parser import decode, iter_parse, read_text

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT = 0, 1, 2


def iter_problems(paths: Sequence[str], name: str | None = None, dialect: str = "alphageometry"
                  ) -> Iterator[tuple[str, Problem | GeoDSLError, list[str]]]:
    """(path, problem or error, the file's lines) for every problem of every
    file (``-`` is standard input), or only those named ``name`` (an error if
    a file has none)."""
    for path in paths:
        try:
            if path == "-":
                text, source = decode(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
            else:
                text, source = read_text(path), path
        except GeoDSLError as exc:
            yield path, exc, []
            continue
        lines = text.splitlines()
        found = False
        names: list[str] = []
        for item in iter_parse(text, source, dialect=dialect):
            if name is not None:
                if isinstance(item, GeoDSLError) or item.name != name:
                    if not isinstance(item, GeoDSLError) and item.name:
                        names.append(item.name)
                    continue
            found = True
            yield path, item, lines
        if name is not None and not found:
            shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
            yield path, ProblemError(f"no problem named `{name}` in {source}", source=source,
                                     hint=f"problems: {shown}" if names else "the file has no named problem"), lines


def located(error: GeoDSLError, lines: Sequence[str]) -> GeoDSLError:
    """The error with its source line attached (for the caret)."""
    if error.source_line is None and error.line is not None and 0 < error.line <= len(lines):
        error.located(source_line=lines[error.line - 1])
    return error
