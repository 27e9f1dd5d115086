"""What every subcommand shares: exit statuses and reading the input files."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence

from ..ast import Problem
from ..errors import GeoDSLError
from ..parser import decode, iter_load, iter_parse

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT = 0, 1, 2


def iter_inputs(paths: Sequence[str], dialect: str) -> Iterator[tuple[str, Problem | GeoDSLError]]:
    """(path, problem or error) for every problem of every file; ``-`` is stdin."""
    for path in paths:
        if path == "-":
            try:
                text = decode(sys.stdin.buffer.read(), "<stdin>")
            except GeoDSLError as exc:
                yield path, exc
                continue
            for item in iter_parse(text, "<stdin>", dialect=dialect):
                yield path, item
        else:
            for item in iter_load(path, dialect=dialect):
                yield path, item
