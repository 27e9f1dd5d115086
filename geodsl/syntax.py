"""One line of text to raw syntax, with the Lark LALR grammar in ``grammar/``.

This layer knows the grammar and nothing of geometry: it returns
:class:`RawLine` records whose tokens keep their columns, and turns Lark's
exceptions into :class:`~geodsl.errors.SyntaxErrorGDL` with a message a
person can act on. Meaning (which clause, which points) is
:mod:`geodsl.semantics`'s job.
"""

from __future__ import annotations

import threading
from functools import cache
from importlib import resources
from typing import NamedTuple

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import SyntaxErrorGDL


class RawStatement(NamedTuple):
    """``[not] atoms [= clause, clause]``: ``clauses`` is None without ``=``."""

    negation: Token | None
    head: list[Token]
    clauses: list[list[Token]] | None


class RawBody(NamedTuple):
    """Statements, and the statements after ``?`` (``goals`` is None without ``?``,
    ``question`` the ``?`` token) or after ``=>`` (``conclusion``)."""

    statements: list[RawStatement]
    goals: list[RawStatement] | None
    question: Token | None
    conclusion: list[RawStatement] | None


class RawLine(NamedTuple):
    """One parsed line. ``kind`` is one of header, problem, meta, keyword,
    content, blank; ``head`` the header/keyword token; ``body`` the statements."""

    kind: str
    head: Token | None
    body: RawBody | None


_EMPTY_BODY = RawBody([], None, None, None)


class _ToRaw(Transformer):  # type: ignore[type-arg]
    """Builds raw records while LALR parses (no intermediate tree)."""

    def header(self, c: list[Token]) -> RawLine:
        return RawLine("header", c[0], None)

    def problem_header(self, c: list[Token]) -> RawLine:
        return RawLine("problem", c[0], None)

    def meta(self, c: list[Token]) -> RawLine:
        return RawLine("meta", c[0], None)

    def keyword(self, c: list[object]) -> RawLine:
        body = c[1] if len(c) > 1 else _EMPTY_BODY
        return RawLine("keyword", c[0], body)  # type: ignore[arg-type]

    def content(self, c: list[RawBody]) -> RawLine:
        return RawLine("content", None, c[0])

    def blank(self, c: list[object]) -> RawLine:
        return RawLine("blank", None, None)

    def body(self, c: list[object]) -> RawBody:
        statements = c[0]
        if len(c) == 1:
            return RawBody(statements, None, None, None)  # type: ignore[arg-type]
        return RawBody(statements, c[2] if len(c) > 2 else [], c[1], None)  # type: ignore[arg-type]


    def goal_only(self, c: list[object]) -> RawBody:
        return RawBody([], c[1] if len(c) > 1 else [], c[0], None)  # type: ignore[arg-type]

    def implication(self, c: list[object]) -> RawBody:
        return RawBody(c[0], None, None, c[1])  # type: ignore[arg-type]

    def statements(self, c: list[RawStatement]) -> list[RawStatement]:
        return c

    def statement(self, c: list[object]) -> RawStatement:
        negation = None
        if isinstance(c[0], Token) and c[0].type == "NOT":
            negation, c = c[0], c[1:]
        if len(c) == 1:
            return RawStatement(negation, c[0], None)  # type: ignore[arg-type]
        return RawStatement(negation, c[0], c[1:])  # type: ignore[arg-type]

    def clause(self, c: list[list[Token]]) -> list[Token]:
        return c[0]

    def atoms(self, c: list[Token]) -> list[Token]:
        return c


@cache
def grammar_text() -> str:
    """The grammar, as installed in the package (``geodsl/grammar/geodsl.lark``)."""
    return resources.files("geodsl.grammar").joinpath("geodsl.lark").read_text("utf-8")


_local = threading.local()


def _parser() -> Lark:
    # The inline transformer makes Lark build our records directly; one
    # parser per thread because Lark's parser state is not shared-safe.
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = Lark(
            grammar_text(),
            parser="lalr",
            lexer="contextual",
            transformer=_ToRaw(),
            maybe_placeholders=False,
            cache=False,
        )
        _local.parser = parser
    return parser


# What a person calls each terminal in an "expected ..." list.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "CONST": "a constant",
    "NOT": "`not`",
    "EQUAL": "`=`",
    "SEMICOLON": "`;`",
    "COMMA": "`,`",
    "QMARK": "`?`",
    "IMPLIES": "`=>`",
    "KEYHEAD": "a keyword such as `goal:`",
    "HEADER": "a problem name",
    "PROBLEM": "`problem:`",
    "META": "`@key: value`",
    "$END": "the end of the line",
}


_LINE_TERMINALS = frozenset({"HEADER", "PROBLEM", "META", "KEYHEAD"})


def _expected_words(expected: set[str]) -> str:
    # `=>` only matters in rule files; leaving it out keeps the usual message short.
    words = sorted({_TERMINAL_WORDS.get(t, f"`{t}`") for t in expected if t != "IMPLIES"})
    words = [w for w in words if w not in ("a problem name", "`problem:`", "`@key: value`",
                                          "a keyword such as `goal:`")] or words
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _token_text(token: Token) -> str:
    if token.type == "$END":
        return "the end of the line"
    return f"`{token}`"


def parse_line(line: str) -> RawLine:
    """Parse one physical line (no newline). Raises SyntaxErrorGDL with column."""
    try:
        return _parser().parse(line)  # type: ignore[no-any-return]
    except UnexpectedInput as exc:
        raise _syntax_error(exc, line) from None


def _syntax_error(exc: UnexpectedInput, line: str) -> SyntaxErrorGDL:
    if isinstance(exc, UnexpectedCharacters):
        col = exc.column
        ch = line[col - 1] if 0 < col <= len(line) else ""
        hint = "names are letters, digits and `_`, starting with a letter; constants look like 45, 1/2 or 1pi/4"
        if ch in "()[]":
            hint = "clauses are written without brackets: `midpoint m a b`, not `midpoint(m, a, b)`"
        elif ch == ":":
            hint = "only a line that starts with a keyword (`goal:`, `option A:`, `answer:`, `aux:`) has a `:`"
        elif ch == "?":
            hint = "a line has at most one `?`, between the premise and the goal"
        return SyntaxErrorGDL(
            f"unexpected character `{ch}`" if ch.strip() else "unexpected character",
            line=1, column=col, text=ch, hint=hint)
    if isinstance(exc, UnexpectedToken) and exc.token.type in _LINE_TERMINALS:
        # Lark re-lexed the rest of the line as a whole-line terminal to report
        # it; what the person wrote wrong is the character there.
        col = exc.token.column or 1
        ch = line[col - 1] if 0 < col <= len(line) else ""
        return _syntax_error(UnexpectedCharacters(line, col - 1, 1, col), line)
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if token.type == "$END":
            col = len(line.rstrip()) + 1
            return SyntaxErrorGDL(
                f"the line ends too early: expected {_expected_words(exc.expected)}",
                line=1, column=col, text="", hint=_end_hint(line))
        return SyntaxErrorGDL(
            f"unexpected {_token_text(token)}: expected {_expected_words(exc.expected)}",
            line=1, column=token.column or 1, text=str(token), hint=_token_hint(token, line))
    if isinstance(exc, UnexpectedEOF):
        return SyntaxErrorGDL("the line ends too early", line=1, column=len(line) + 1, text="",
                              hint=_end_hint(line))
    return SyntaxErrorGDL(str(exc).splitlines()[0], line=1, column=1, text="")


def _end_hint(line: str) -> str:
    stripped = line.rstrip()
    if stripped.endswith("="):
        return "a construction needs a clause after `=`: `x = midpoint x a b`"
    if stripped.endswith(","):
        return "a `,` separates two clauses of one construction; remove it or add the second clause"
    if stripped.endswith("?"):
        return "write the goal after `?`: `? perp a b c d`"
    return "complete the statement"


def _token_hint(token: Token, line: str) -> str:
    if token.type == "EQUAL":
        return "each construction is `points = clause`; separate constructions with `;`"
    if token.type == "QMARK":
        return "a line has at most one `?`, between the premise and the goal"
    if token.type in ("SEMICOLON", "COMMA"):
        return "there is nothing between two separators: remove one"
    if token.type == "NOT":
        return "`not` negates a whole statement and stands at its start: `not perp a b c d`"
    return "check the statement's shape: `points = clause, clause` or `predicate args`"
