"""Numeric answers as models write them: ``60°``, ``π/3``, ``2√3``,
``\\frac{3}{2}``, ``sqrt(2)/2``, ``1.5`` — read by a small bounded
recursive-descent reader (the text is untrusted: never evaluated).

An answer with a degree sign or π is an *angle*, kept in units of π (as
:class:`geodsl.realizer.measure.Measurement` keeps angles); anything else is
a plain number. :func:`same_value` compares an answer with an expected value.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

MAX_ANSWER_CHARS = 200


@dataclass(frozen=True)
class Value:
    """A read answer: its value (angles in units of π) and kind."""

    value: float
    kind: str  # "angle" | "number"


class _Unreadable(ValueError):
    pass


_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|(\\frac|\\dfrac|\\sqrt|sqrt|√|π|\\pi|pi|°|\\circ|\^|[-+*/()×·{}]))")


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None or m.end() == i:
            if text[i:].strip() == "":
                break
            raise _Unreadable(text[i:])
        out.append(m.group(1) or m.group(2))
        i = m.end()
    return out


class _Reader:
    """expr := term (('+'|'-') term)*; term := factor (('*'|'/'|implicit) factor)*;
    factor := '-' factor | atom ('^' atom)? ('°')?"""

    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.i = 0
        self.angle = False
        self.depth = 0

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise _Unreadable(f"expected {expected or 'more'}")
        self.i += 1
        return tok

    def expr(self) -> float:
        self.depth += 1
        if self.depth > 50:
            raise _Unreadable("nested too deep")
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            value = value + self.term() if op == "+" else value - self.term()
        self.depth -= 1
        return value

    def term(self) -> float:
        value = self.factor()
        while True:
            tok = self.peek()
            if tok in ("*", "×", "·"):
                self.take()
                value *= self.factor()
            elif tok == "/":
                self.take()
                den = self.factor()
                if den == 0:
                    raise _Unreadable("division by zero")
                value /= den
            elif tok is not None and tok not in ("+", "-", ")", "}", "^"):
                value *= self.factor()  # 2√3, 2π
            else:
                return value

    def factor(self) -> float:
        if self.peek() == "-":
            self.take()
            return -self.factor()
        value = self.atom()
        if self.peek() == "^":
            self.take()
            if self.peek() in ("°", "\\circ"):
                self.take()
                self.angle = True
                return value / 180
            exponent = self.atom()
            if abs(exponent) > 8:
                raise _Unreadable("exponent too large")
            value = value ** exponent
        if self.peek() in ("°", "\\circ"):
            self.take()
            self.angle = True
            value /= 180
        return value

    def atom(self) -> float:
        tok = self.take()
        if tok in ("π", "\\pi", "pi"):
            self.angle = True
            return 1.0
        if tok in ("√", "sqrt", "\\sqrt"):
            inner = self.group() if self.peek() in ("(", "{") else self.atom()
            if inner < 0:
                raise _Unreadable("square root of a negative")
            return math.sqrt(inner)
        if tok in ("\\frac", "\\dfrac"):
            num, den = self.group(), self.group()
            if den == 0:
                raise _Unreadable("division by zero")
            return num / den
        if tok in ("(", "{"):
            self.i -= 1
            return self.group()
        try:
            return float(tok)
        except ValueError:
            raise _Unreadable(tok) from None

    def group(self) -> float:
        opening = self.take()
        closing = {"(": ")", "{": "}"}.get(opening)
        if closing is None:
            raise _Unreadable("expected a group")
        value = self.expr()
        self.take(closing)
        return value


def read_value(text: str) -> Value | None:
    """The value an answer states, or None when it states no single number
    (words, an equation, several values)."""
    text = text.strip().strip("$").strip()
    text = re.sub(r"^(?:[A-Za-z∠]{1,6}\s*=\s*)", "", text)  # "x = 3", "∠ABC = 60°"
    text = re.sub(r"\s*(?:degrees?|deg|度|cm|units?)\.?$", "°" if re.search(r"degrees?|deg|度", text) else "", text)
    text = text.replace("\\left", "").replace("\\right", "").replace("\\cdot", "*").replace("\\times", "*")
    if not text or len(text) > MAX_ANSWER_CHARS:
        return None
    try:
        reader = _Reader(_tokens(text))
        value = reader.expr()
        if reader.peek() is not None:
            return None
    except (_Unreadable, OverflowError, RecursionError):
        return None
    if not math.isfinite(value):
        return None
    return Value(value, "angle" if reader.angle else "number")


def same_value(answer: Value, expected: Value, *, rel: float = 1e-6) -> bool:
    """Whether an answer states the expected value. Angles compare in units of
    π, and an undirected answer matches a directed value or its supplement
    (a textbook's 60° is the directed 1pi/3 or 2pi/3, as its mirror image)."""
    if answer.kind != expected.kind:
        return False

    def close(x: float, y: float) -> bool:
        return abs(x - y) <= rel * max(1.0, abs(x), abs(y))

    if answer.kind == "angle":
        a, e = answer.value % 1, expected.value % 1
        return close(a, e) or close(a, (1 - e) % 1) or close(answer.value, expected.value)
    return close(answer.value, expected.value)
