"""Every error geodsl raises on bad input is a :class:`GeoDSLError`.

Each carries the place (file, line, column), the offending text and a hint, so
that the CLI can print ``file:line:col: error: ...`` with a caret and a caller
can act on the error without parsing the message.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Location(NamedTuple):
    """Where something was written: 1-based line and column in ``source``.

    Immutable; a named tuple because every AST node carries one and the
    parser makes hundreds of thousands a second.
    """

    source: str | None
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.source or '<input>'}:{self.line}:{self.column}"


class GeoDSLError(Exception):
    """Base class: bad input, located.

    ``kind`` is a stable machine-readable name (``unknown_construction``,
    ``arity``, ...) for JSON output and tests; ``message`` is the sentence a
    person reads; ``hint`` says what to do about it.
    """

    kind = "error"
    problem: str | None = None
    """The name of the problem the error stopped, when the reader knows it."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
        hint: str | None = None,
        source_line: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.text = text
        self.hint = hint
        self.source_line = source_line

    def located(self, *, source: str | None = None, line_offset: int = 0,
                source_line: str | None = None) -> "GeoDSLError":
        """Fill in the file name, shift the line, attach the source line (in place)."""
        if source is not None and self.source is None:
            self.source = source
        if self.line is not None:
            self.line += line_offset
        if source_line is not None and self.source_line is None:
            self.source_line = source_line
        return self

    def format(self) -> str:
        """``file:line:col: error: message``, the source line, a caret, the hint."""
        where = self.source or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        out = [f"{where}: error: {self.message}"]
        if self.source_line is not None and self.line is not None:
            # One printable character per column, so the caret lines up.
            shown = "".join(ch if ch.isprintable() else ("?" if ch != "\t" else " ")
                            for ch in self.source_line)
            if len(shown) > 200:
                # Keep the caret in view on very long lines.
                start = max(0, (self.column or 1) - 100)
                shown = ("..." if start else "") + shown[start:start + 200]
                col = (self.column or 1) - start + (3 if start else 0)
            else:
                col = self.column or 1
            width = max(1, min(len(self.text or "x"), max(1, len(shown) - col + 1)))
            out.append("  " + shown)
            out.append("  " + " " * (col - 1) + "^" + "~" * (width - 1))
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def to_dict(self) -> dict[str, object]:
        """The JSON form used by every ``--json`` output."""
        return {
            "kind": self.kind,
            "message": self.message,
            "file": self.source,
            "line": self.line,
            "column": self.column,
            "text": self.text,
            "hint": self.hint,
        }

    def __str__(self) -> str:
        where = ""
        if self.line is not None:
            where = f"{self.source or '<input>'}:{self.line}:{self.column}: "
        return where + self.message


class SyntaxErrorGDL(GeoDSLError):
    """The text does not follow the grammar."""

    kind = "syntax"


class LimitError(GeoDSLError):
    """Input larger than the configured limits (file, line, problem size)."""

    kind = "limit"


class UnknownNameError(GeoDSLError):
    """Unknown construction, predicate or keyword."""

    kind = "unknown_name"


class ArityError(GeoDSLError):
    """A clause or predicate with the wrong number of arguments."""

    kind = "arity"


class PointError(GeoDSLError):
    """A point used before it is constructed, constructed twice, or misplaced."""

    kind = "point"


class ConstructionError(GeoDSLError):
    """A construction whose clauses do not fix its points exactly."""

    kind = "construction"


class ConstantError(GeoDSLError):
    """A malformed or misplaced angle, ratio or length constant."""

    kind = "constant"


class ProblemError(GeoDSLError):
    """A problem-level mistake: options, answer key, goals, duplicate names."""

    kind = "problem"


class RulebaseError(GeoDSLError):
    """A mistake in a rulebase file (definitions, predicates, rules)."""

    kind = "rulebase"


# -- realizer errors (geodsl.realizer) -------------------------------------------


class RealizationError(GeoDSLError):
    """A construction that cannot be realized numerically: degenerate in every
    sample (parallel lines asked to meet, a line missing a circle, a false
    precondition), located at the construction or clause that failed.

    ``reason`` is the stable name of the dominant rejection reason
    (``parallel``, ``no_intersection``, ``precondition``, ...; see
    :mod:`geodsl.realizer.sampler`) and ``counts`` how often each reason was
    seen for that construction.
    """

    kind = "realization"

    def __init__(self, message: str, *, reason: str = "", counts: dict[str, int] | None = None,
                 **where: Any) -> None:  # GeoDSLError's location keywords
        super().__init__(message, **where)
        self.reason = reason
        self.counts = dict(counts or {})

    def to_dict(self) -> dict[str, object]:
        out = GeoDSLError.to_dict(self)
        out["reason"] = self.reason
        out["counts"] = self.counts
        return out


class NotProvedError(GeoDSLError):
    """A proof asked of a closure that does not prove the statement
    (:meth:`geodsl.Closure.proof`); ``Closure.proves`` says beforehand."""

    kind = "not_proved"


class GoalFalseError(GeoDSLError):
    """A goal that is false in a realized diagram: the premise was realized,
    the statement asked about it does not hold."""

    kind = "goal_false"
