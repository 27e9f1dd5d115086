"""Text to numbered, parsed lines: the one pass every reader shares.

Normalises what files in the wild contain (a UTF-8 BOM, CRLF or CR line
ends, tabs), enforces the line-length limit, and parses each line with the
grammar. Problem files (:mod:`geodsl.lang.parser`) and rulebase files
(:mod:`geodsl.lang.definitions`) group these lines into blocks each their own way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from .errors import GeoDSLError, LimitError
from .limits import DEFAULT_LIMITS, Limits
from .._lalr import Tok
from .syntax import RawLine, Unparsed, parse_line

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


# `option A: ...` / `goal: ...`: lines whose body may be proof-text notation
# (GeoChallenge writes options as "H,I,K are collinear").
_KEYWORD_BODY = re.compile(r"(?P<head>\s*[A-Za-z_]\w*(?:[ \t]+[\w']+)*[ \t]*:)(?P<body>.*)\Z")


class Line(NamedTuple):
    """One physical line: its 1-based number, its text, and the parse (or error)."""

    number: int
    text: str
    parsed: RawLine | GeoDSLError


def normalise(text: str) -> str:
    """Drop a leading BOM; line ends are handled by :func:`iter_lines`."""
    return text[1:] if text.startswith("\ufeff") else text


def iter_lines(text: str, source: str | None = None,
               limits: Limits = DEFAULT_LIMITS) -> Iterator[Line]:
    """Parse every line; a bad line yields its located error instead of raising."""
    text = normalise(text)
    for index, raw in enumerate(_LINE_BREAK.split(text)):
        number = index + 1
        if len(raw) > limits.max_line_chars:
            yield Line(number, raw, LimitError(
                f"line is {len(raw):,} characters long; the limit is {limits.max_line_chars:,}",
                source=source, line=number, column=limits.max_line_chars + 1, text="",
                hint="split the problem over several lines under a `problem:` header, "
                     "or raise Limits.max_line_chars",
                source_line=raw))
            continue
        if not raw or raw.isspace():
            continue
        stripped = raw.lstrip()
        if stripped.startswith("#"):
            continue
        try:
            parsed: RawLine | GeoDSLError = parse_line(raw)
        except GeoDSLError as exc:
            parsed = exc.located(source=source, line_offset=number - 1, source_line=raw)
            keyword = _KEYWORD_BODY.match(raw)
            if keyword is not None:
                head = Tok("KEYHEAD", keyword["head"].strip(), len(raw) - len(raw.lstrip()) + 1)
                parsed = RawLine("unparsed", head, Unparsed(keyword["body"], keyword.end("head") + 1, parsed))
        yield Line(number, raw, parsed)
