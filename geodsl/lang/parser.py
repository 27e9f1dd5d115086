"""Problem files to :class:`~geodsl.lang.ast.Problem` objects.

Grouping rule (``docs/language.md``): a header line (an AlphaGeometry name
line, or ``problem: NAME``) starts a problem, and every line up to the next
header belongs to it. Before any header, each line with a premise is a
problem of its own (the one-line AlphaGeometry form), and keyword lines
(``option``, ``answer``, ...) attach to the problem above them.

Each problem is read independently, so :func:`iter_parse` can report one bad
problem and go on with the rest.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from .._lalr import Tok
from .ast import Predicate, Problem
from .definitions import DIALECTS, rulebase
from .errors import GeoDSLError, LimitError, PointError, ProblemError, SyntaxErrorGDL
from .limits import DEFAULT_LIMITS, Limits
from .lines import Line, iter_lines
from .semantics import Block, ProblemReader, did_you_mean
from .syntax import RawBody, RawStatement, parse_line

_KEYWORD_LIKE = re.compile(r"\s*[A-Za-z_]\w*(?:\s+[\w']+)*\s*:")


def _group(lines: Iterator[Line]) -> Iterator[Block]:
    current: Block | None = None
    for line in lines:
        parsed = line.parsed
        if isinstance(parsed, GeoDSLError):
            # A line that does not parse: keep it with its problem when the
            # problem is named or the line looks like a keyword line;
            # otherwise it is a (broken) one-line problem of its own.
            if current is None or not (current.named or _KEYWORD_LIKE.match(line.text)):
                if current is not None:
                    yield current
                current = Block(None, line, False)
            current.lines.append(line)
            continue
        kind = parsed.kind
        if kind == "blank":
            continue
        if kind in ("header", "problem"):
            if current is not None:
                yield current
            text = str(parsed.head)
            name = text.strip() if kind == "header" else text.partition(":")[2].strip()
            current = Block(name or None, line, True)
            continue
        starts_problem = (kind == "content" and isinstance(parsed.body, RawBody)
                          and bool(parsed.body.statements))
        if current is None or (starts_problem and not current.named):
            if current is not None:
                yield current
            current = Block(None, line, False)
        current.lines.append(line)
    if current is not None:
        yield current


def _check_dialect(dialect: str) -> None:
    if dialect not in DIALECTS:
        raise GeoDSLError(f"unknown dialect `{dialect}`", hint=f"dialects: {', '.join(DIALECTS)}")


def iter_parse(text: str, source: str | None = None, *, dialect: str = "alphageometry",
               limits: Limits = DEFAULT_LIMITS) -> Iterator[Problem | GeoDSLError]:
    """Every problem in ``text``, or the error that stopped it, in file order.
    An error's :attr:`~geodsl.lang.errors.GeoDSLError.problem` is the name
    of the problem it stopped, when that problem has a header."""
    _check_dialect(dialect)
    reader = ProblemReader(rulebase(), dialect, source, limits)
    for block in _group(iter_lines(text, source, limits)):
        try:
            yield reader.read(block)
        except GeoDSLError as exc:
            if exc.problem is None:
                exc.problem = block.name
            yield exc


def parse(text: str, source: str | None = None, *, dialect: str = "alphageometry",
          limits: Limits = DEFAULT_LIMITS) -> list[Problem]:
    """All problems in ``text``; raises the first :class:`GeoDSLError`."""
    if len(text) > limits.max_file_bytes:
        raise LimitError(f"input is {len(text):,} characters; the limit is {limits.max_file_bytes:,}",
                         source=source, line=1, column=1, text="",
                         hint="split the file or raise Limits.max_file_bytes")
    problems: list[Problem] = []
    for item in iter_parse(text, source, dialect=dialect, limits=limits):
        if isinstance(item, GeoDSLError):
            raise item
        problems.append(item)
    return problems


def parse_problem(text: str, source: str | None = None, *, dialect: str = "alphageometry",
                  limits: Limits = DEFAULT_LIMITS) -> Problem:
    """Exactly one problem (e.g. one AlphaGeometry line)."""
    problems = parse(text, source, dialect=dialect, limits=limits)
    if len(problems) != 1:
        raise ProblemError(f"expected one problem, found {len(problems)}", source=source,
                           line=problems[1].span.line if len(problems) > 1 and problems[1].span else None,
                           column=1, text="",
                           hint="use geodsl.parse for text with several problems")
    return problems[0]


_ASKED = "? "
"""A lone predicate reads as a name line; after ``? `` it is a goal."""


def parse_predicate(text: str, points: Iterable[str] | None = None, *, source: str | None = None,
                    dialect: str = "alphageometry", limits: Limits = DEFAULT_LIMITS) -> Predicate:
    """One predicate in the DSL's words: ``coll a b c``, ``not perp a b c d``,
    ``aconst a b c d 1pi/4``. The one reader behind every API that takes a
    predicate as text (:meth:`geodsl.Diagrams.holds`, :meth:`geodsl.Closure.proves`, ...).

    With ``points``, every point must be one of them (a
    :class:`~geodsl.lang.errors.PointError` at the point otherwise). Errors
    are located in ``text`` (line 1, the column of the offending word).
    """
    _check_dialect(dialect)
    if not isinstance(text, str):
        raise GeoDSLError(f"a predicate is DSL text or a Predicate, got {type(text).__name__}",
                          source=source, hint="e.g. `coll a b c`")
    if "\n" in text or "\r" in text:
        raise SyntaxErrorGDL("a predicate is one line", source=source, line=1, column=1, text="",
                             source_line=text.splitlines()[0] if text.strip() else "",
                             hint="pass one predicate such as `coll a b c`")
    if len(text) > limits.max_line_chars:
        raise LimitError(f"predicate is {len(text):,} characters long; the limit is {limits.max_line_chars:,}",
                         source=source, line=1, column=1, text="", hint="raise Limits.max_line_chars")
    if not text.strip():
        raise SyntaxErrorGDL("empty predicate", source=source, line=1, column=1, text="", source_line=text,
                             hint="write a predicate such as `coll a b c`")
    shift = len(_ASKED)
    try:
        raw = parse_line(_ASKED + text)
    except GeoDSLError as exc:
        exc.column = max(1, (exc.column or 1) - shift)
        raise exc.located(source=source, source_line=text) from None

    def back(tok: Tok) -> Tok:
        return Tok(tok.type, tok.text, tok.column - shift)

    body = raw.body
    assert raw.kind == "content" and isinstance(body, RawBody) and body.goals is not None
    goals = [RawStatement(None if st.negation is None else back(st.negation), [back(t) for t in st.head],
                          None if st.clauses is None else [[back(t) for t in c] for c in st.clauses])
             for st in body.goals]
    if len(goals) != 1:
        at = goals[1].negation or goals[1].head[0]
        raise SyntaxErrorGDL(f"expected one predicate, got {len(goals)}", source=source, line=1,
                             column=at.column, text=text[at.column - 1:].strip(), source_line=text,
                             hint="pass the predicates one at a time")
    line = Line(1, text, raw)
    reader = ProblemReader(rulebase(), dialect, source, limits)
    predicate = reader.predicate(goals[0], line, None, "predicate")
    if points is not None:
        known = tuple(points)
        known_set = set(known)
        for tok in goals[0].head[1:]:
            if tok.type == "NAME" and tok.text in predicate.points and tok.text not in known_set:
                guess = did_you_mean(tok.text, known)
                listed = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
                raise PointError(f"point `{tok.text}` is not in the problem", source=source, line=1,
                                 column=tok.column, text=tok.text, source_line=text,
                                 hint=(f"did you mean `{guess}`? " if guess else "") + f"its points are {listed}")
    return predicate


def check_file_size(path: Path, limit: int, how_to_raise: str) -> int:
    """The file's size; a located error if it cannot be read or exceeds ``limit``."""
    name = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise GeoDSLError(f"cannot read {name}: {exc.strerror or exc}", source=name,
                          hint="check the path") from None
    if size > limit:
        raise LimitError(f"file is {size:,} bytes; the limit is {limit:,}", source=name,
                         hint=f"split the file or {how_to_raise}")
    return size


def read_text(path: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS) -> str:
    """A problem file's text: size-checked, UTF-8, no binary."""
    p = Path(path)
    name = str(path)
    check_file_size(p, limits.max_file_bytes, "raise Limits.max_file_bytes")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise GeoDSLError(f"cannot read {name}: {exc.strerror or exc}", source=name,
                          hint="check the path and permissions") from None
    return decode(data, name)


def decode(data: bytes, name: str | None) -> str:
    """UTF-8 text, or a located error at the first bad byte."""
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column, source_line = _position(data, nul)
        raise SyntaxErrorGDL("the file contains a NUL byte: it looks binary", source=name, line=line,
                             column=column, text="", source_line=source_line,
                             hint="geodsl reads text problem files")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column, source_line = _position(data, exc.start)
        raise SyntaxErrorGDL("the file is not UTF-8 text", source=name, line=line, column=column,
                             text="", source_line=source_line,
                             hint="save the file as UTF-8") from None
    return text


def _position(data: bytes, offset: int) -> tuple[int, int, str]:
    before = data[:offset]
    line = before.count(b"\n") + 1
    start = before.rfind(b"\n") + 1
    end = data.find(b"\n", offset)
    source_line = data[start:end if end >= 0 else len(data)].decode("utf-8", "replace")
    column = len(data[start:offset].decode("utf-8", "replace")) + 1
    return line, column, source_line


def load(path: str | os.PathLike[str], *, dialect: str = "alphageometry",
         limits: Limits = DEFAULT_LIMITS) -> list[Problem]:
    """All problems of a file; raises the first :class:`GeoDSLError`."""
    return parse(read_text(path, limits), str(path), dialect=dialect, limits=limits)


def iter_load(path: str | os.PathLike[str], *, dialect: str = "alphageometry",
              limits: Limits = DEFAULT_LIMITS) -> Iterator[Problem | GeoDSLError]:
    """Every problem of a file, or its error; a file-level error is yielded once."""
    try:
        text = read_text(path, limits)
    except GeoDSLError as exc:
        yield exc
        return
    yield from iter_parse(text, str(path), dialect=dialect, limits=limits)
