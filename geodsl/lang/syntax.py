"""One line of text to raw syntax, with the Lark LALR grammar in ``grammar/``.

This layer knows the grammar and nothing of geometry: it returns
:class:`RawLine` records whose tokens keep their columns, and turns Lark's
exceptions into :class:`~geodsl.lang.errors.SyntaxErrorGDL` with a message a
person can act on. Meaning (which clause, which points) is
:mod:`geodsl.lang.semantics`'s job.
"""

from __future__ import annotations

import threading
from functools import cache
from importlib import resources
from typing import NamedTuple

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .._lalr import REJECT, Append, CompiledLALR, NewList, Pick, Tok
from .errors import GeoDSLError, SyntaxErrorGDL


class RawStatement(NamedTuple):
    """``[not] atoms [= clause, clause]``: ``clauses`` is None without ``=``."""

    negation: Tok | None
    head: list[Tok]
    clauses: list[list[Tok]] | None


class RawBody(NamedTuple):
    """Statements, and the statements after ``?`` (``goals`` is None without ``?``,
    ``question`` the ``?`` token) or after ``=>`` (``conclusion``). ``pipe`` is
    the ``|`` token of ``premise | aux ? goal`` and ``aux`` the statements
    between it and the ``?`` (both None without ``|``)."""

    statements: list[RawStatement]
    goals: list[RawStatement] | None
    question: Tok | None
    conclusion: list[RawStatement] | None
    pipe: Tok | None = None
    aux: list[RawStatement] | None = None


class _RawPremise(NamedTuple):
    """The part of a body before ``?``: statements, then ``|`` and more statements."""

    statements: list[RawStatement]
    pipe: Tok | None
    aux: list[RawStatement] | None


class Unparsed(NamedTuple):
    """A keyword line the DSL grammar rejects: its body (and where it starts)
    for a reader of another notation, and the DSL's own error otherwise."""

    text: str
    column: int
    error: GeoDSLError


class RawLine(NamedTuple):
    """One parsed line. ``kind`` is one of header, problem, meta, keyword,
    content, blank, unparsed; ``head`` the header/keyword token; ``body``
    the statements (:class:`Unparsed` text for an unparsed line)."""

    kind: str
    head: Tok | None
    body: RawBody | Unparsed | None


_EMPTY_BODY = RawBody([], None, None, None)


def _reductions() -> dict[str, object]:
    """What each named grammar alternative builds from all its children
    (punctuation tokens included): a function, or a list operation the
    compiled driver runs itself. Lists grow in place: LALR never shares a
    child between two parents."""
    return {
        "header": lambda c: RawLine("header", c[0], None),
        "problem_header": lambda c: RawLine("problem", c[0], None),
        "meta": lambda c: RawLine("meta", c[0], None),
        "keyword_empty": lambda c: RawLine("keyword", c[0], _EMPTY_BODY),
        "keyword": lambda c: RawLine("keyword", c[0], c[1]),
        "content": lambda c: RawLine("content", None, c[0]),
        "blank": lambda c: RawLine("blank", None, None),
        "plain": lambda c: RawBody(c[0].statements, None, None, None, c[0].pipe, c[0].aux),
        "asked_nothing": lambda c: RawBody(c[0].statements, [], c[1], None, c[0].pipe, c[0].aux),
        "asked": lambda c: RawBody(c[0].statements, c[2], c[1], None, c[0].pipe, c[0].aux),
        "premise_plain": lambda c: _RawPremise(c[0], None, None),
        "premise_pipe": lambda c: _RawPremise(c[0], c[1], []),
        "premise_aux": lambda c: _RawPremise(c[0], c[1], c[2]),
        "pipe_only": lambda c: _RawPremise([], c[0], []),
        "pipe_aux": lambda c: _RawPremise([], c[0], c[1]),
        "goal_nothing": lambda c: RawBody([], [], c[0], None),
        "goal_only": lambda c: RawBody([], c[1], c[0], None),
        "implication": lambda c: RawBody(c[0], None, None, c[2]),
        "statements_first": NewList(0),
        "statements_more": Append(0, 2),
        "statements_trailing": Pick(0),
        "bare": lambda c: RawStatement(None, c[0], None),
        "negated": lambda c: RawStatement(c[0], c[1], None),
        "construction": lambda c: RawStatement(None, c[0], c[2]),
        "negated_construction": lambda c: RawStatement(c[0], c[1], c[3]),
        "clauses_first": NewList(0),
        "clauses_more": Append(0, 2),
        "atoms_first": NewList(0),
        "atoms_more": Append(0, 1),
    }


@cache
def grammar_text() -> str:
    """The grammar, as installed in the package (``geodsl/grammar/geodsl.lark``)."""
    return resources.files("geodsl.grammar").joinpath("geodsl.lark").read_text("utf-8")


_local = threading.local()


def _parser() -> Lark:
    # Lark itself parses only lines the compiled driver rejects, to raise
    # its precise error; one instance per thread as Lark's state is not
    # shared-safe.
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = Lark(grammar_text(), parser="lalr", lexer="contextual", cache=False)
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
    "PIPE": "`|`",
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


def _compiled() -> CompiledLALR:
    compiled = getattr(_local, "compiled", None)
    if compiled is None:
        compiled = CompiledLALR(_parser(), _reductions())
        _local.compiled = compiled
    return compiled


def parse_line(line: str) -> RawLine:
    """Parse one physical line (no newline). Raises SyntaxErrorGDL with column.

    The compiled driver runs Lark's tables; where it rejects the line, Lark
    itself parses it again to raise its precise error.
    """
    result = _compiled().parse(line)
    if result is not REJECT:
        return result
    try:
        _parser().parse(line)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, line) from None
    # Unreachable unless the two disagree: a bug, not bad input.
    raise AssertionError(f"the compiled parser rejected a line Lark accepts: {line!r}")


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
        shown = f"`{ch}`" if ch.isprintable() and ch.strip() else f"U+{ord(ch):04X}" if ch else "end"
        return SyntaxErrorGDL(f"unexpected character {shown}", line=1, column=col, text=ch, hint=hint)
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
    if token.type == "PIPE":
        before = line[:(token.column or 1) - 1]
        if "?" in before:
            return "auxiliary constructions go before `?`: `premise | aux ? goal`"
        if "|" in before:
            return "a problem has at most one `|`, between the premise and its auxiliary constructions"
        return "`|` separates the premise from its auxiliary constructions: `premise | aux ? goal`"
    if token.type in ("SEMICOLON", "COMMA"):
        return "there is nothing between two separators: remove one"
    if token.type == "NOT":
        return "`not` negates a whole statement and stands at its start: `not perp a b c d`"
    return "check the statement's shape: `points = clause, clause` or `predicate args`"
