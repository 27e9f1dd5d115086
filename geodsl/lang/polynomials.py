"""Polynomial forms of predicates: the ``polynomial:`` lines of
``rulebase/predicates.gdl``, read into small expression trees over point
coordinates, evaluated by whichever algebra the caller brings.

A predicate's polynomial form is one or more expressions, each meaning
"this is 0" (``E = F`` is read as ``E − F``). An expression is a *scalar*
or a *vector* (a point's two coordinates); a vector expression stands for
two polynomials, its x and y parts. The vocabulary:

=================== ==========================================================
``a``               the point (a vector)
``u + v``, ``u − v`` sums of vectors or of scalars
``k·u``             a scalar times a vector or a scalar (``·`` or ``*``)
``cross(u, v)``     u.x·v.y − u.y·v.x (a scalar)
``dot(u, v)``       u.x·v.x + u.y·v.y
``|a b|²``          dot(b − a, b − a)
``cmul(u, v)``      the complex product (a vector)
``conj(u)``         the complex conjugate
``rot(u, angle)``   u turned by the angle, scaled by a positive number so
                    that it stays rational: for kπ/4 the coordinates are
                    sums of ±u.x, ±u.y; other angles have no rational form
``2``, ``1/2``      numbers; ``ratio``, ``length``: constant parameters
=================== ==========================================================

An :class:`Algebra` says what numbers, points and the operations are
(exact rational functions for the algebraic prover, floats for a figure),
so the one tree serves both: a test evaluates every form on realized
figures and compares it with the predicate's numeric check.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Union

from .constants import Constant

class PolynomialSyntax(ValueError):
    """A malformed ``polynomial:`` line: message, column within the text, hint."""

    def __init__(self, message: str, column: int, hint: str) -> None:
        super().__init__(message)
        self.column = column
        self.hint = hint


class Unsupported(ValueError):
    """A form with no polynomial over the rationals for these constants
    (an angle of 30°: its rotation needs √3)."""


# ------------------------------------------------------------------ trees


@dataclass(frozen=True, slots=True)
class Num:
    value: Fraction


@dataclass(frozen=True, slots=True)
class Param:
    """A constant parameter of the predicate (``ratio``, ``length``), by index."""

    index: int


@dataclass(frozen=True, slots=True)
class Pt:
    """A point parameter, by index: a vector."""

    index: int


@dataclass(frozen=True, slots=True)
class Bin:
    op: str  # "+", "-", "*"
    left: "Node"
    right: "Node"


@dataclass(frozen=True, slots=True)
class Neg:
    arg: "Node"


@dataclass(frozen=True, slots=True)
class Call:
    name: str  # cross, dot, cmul, conj, rot, sq
    args: tuple["Node", ...]


Node = Union[Num, Param, Pt, Bin, Neg, Call]

_SCALAR_CALLS = {"cross": 2, "dot": 2}
_VECTOR_CALLS = {"cmul": 2, "conj": 1, "rot": 2}


@dataclass(frozen=True, slots=True)
class Form:
    """One polynomial (scalar) or pair of polynomials (vector) that vanish
    when the predicate holds; ``text`` as written."""

    node: Node
    vector: bool
    text: str


# ----------------------------------------------------------------- reading

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:/\d+)?)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<sq>²)"
                    r"|(?P<op>[-+*·−()|,=]))")


class _Parser:
    def __init__(self, text: str, params: Sequence[str], constants: frozenset[str]) -> None:
        self.text = text
        self.params = tuple(params)
        self.constants = constants
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if m is None:
                col = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
                raise PolynomialSyntax(f"unexpected `{text[col - 1]}` in a polynomial", col,
                                       "use points, numbers, + − ·, cross dot cmul conj rot, |a b|²")
            kind = m.lastgroup or "op"
            value = m.group(kind)
            if kind == "op" and value == "−":
                value = "-"
            if kind == "op" and value == "·":
                value = "*"
            self.tokens.append((kind, value, m.start(kind) + 1))
            pos = m.end()
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def next_is(self, *values: str) -> bool:
        """Whether the next token is one of ``values`` (an operator or a kind)."""
        tok = self.peek()
        return tok is not None and (tok[1] in values or tok[0] in values)

    def column(self) -> int:
        tok = self.peek()
        return tok[2] if tok else len(self.text) + 1

    def take(self, value: str) -> None:
        tok = self.peek()
        if tok is None or tok[1] != value:
            raise PolynomialSyntax(f"expected `{value}`", self.column(), "check the parentheses and commas")
        self.i += 1

    def form(self) -> tuple[Node, bool]:
        node, vector = self.expr()
        if self.next_is("="):
            self.i += 1
            right, rvec = self.expr()
            if rvec != vector:
                raise PolynomialSyntax("the two sides of `=` must both be vectors or both scalars",
                                       self.column(), "compare like with like")
            node = Bin("-", node, right)
        tok = self.peek()
        if tok is not None:
            raise PolynomialSyntax(f"unexpected `{tok[1]}`", self.column(),
                                   "one expression per `;`-separated part")
        return node, vector

    def expr(self) -> tuple[Node, bool]:
        node, vector = self.term()
        while self.next_is("+", "-"):
            op = self.tokens[self.i][1]
            col = self.column()
            self.i += 1
            right, rvec = self.term()
            if rvec != vector:
                raise PolynomialSyntax("a sum mixes a vector and a scalar", col, "add vectors to vectors")
            node = Bin(op, node, right)
        return node, vector

    def term(self) -> tuple[Node, bool]:
        node, vector = self.unary()
        while self.next_is("*"):
            col = self.column()
            self.i += 1
            right, rvec = self.unary()
            if vector and rvec:
                raise PolynomialSyntax("`·` multiplies by a scalar; two vectors need cross, dot or cmul",
                                       col, "write cross(u, v), dot(u, v) or cmul(u, v)")
            node = Bin("*", node, right) if not vector else Bin("*", right, node)
            vector = vector or rvec
        return node, vector

    def unary(self) -> tuple[Node, bool]:
        tok = self.peek()
        if tok is not None and tok[1] == "-":
            self.i += 1
            node, vector = self.unary()
            return Neg(node), vector
        return self.atom()

    def atom(self) -> tuple[Node, bool]:
        tok = self.peek()
        if tok is None:
            raise PolynomialSyntax("the expression ends early", self.column(), "complete the expression")
        kind, value, col = tok
        self.i += 1
        if kind == "num":
            return Num(Fraction(value)), False
        if value == "(":
            node, vector = self.expr()
            self.take(")")
            return node, vector
        if value == "|":
            names: list[tuple[str, str, int]] = []
            while self.next_is("name"):
                names.append(self.tokens[self.i])
                self.i += 1
            self.take("|")
            if len(names) != 2 or not self.next_is("sq"):
                raise PolynomialSyntax("a squared length is written |a b|²", col, "two points, then ²")
            self.i += 1
            a, b = (self.point(n[1], n[2]) for n in names)
            return Call("sq", (a, b)), False
        if kind == "name":
            if self.next_is("("):
                arity = _SCALAR_CALLS.get(value, _VECTOR_CALLS.get(value))
                if arity is None:
                    raise PolynomialSyntax(f"unknown function `{value}`", col,
                                           "functions: cross, dot, cmul, conj, rot")
                self.i += 1
                args: list[tuple[Node, bool]] = [self.expr()]
                while self.next_is(","):
                    self.i += 1
                    args.append(self.expr())
                self.take(")")
                if len(args) != arity:
                    raise PolynomialSyntax(f"`{value}` takes {arity} arguments, got {len(args)}", col,
                                           f"e.g. {value}(b − a, d − c)" if arity == 2 else f"{value}(u)")
                if value == "rot":
                    angle = args[1][0]
                    if not isinstance(angle, Param) or args[0][1] is False:
                        raise PolynomialSyntax("`rot` turns a vector by an angle parameter", col,
                                               "e.g. rot(b − a, angle)")
                elif not all(vec for _, vec in args):
                    raise PolynomialSyntax(f"`{value}` takes vectors", col, "pass point differences")
                return Call(value, tuple(a for a, _ in args)), value in _VECTOR_CALLS
            if value in self.constants:
                return Param(self.params.index(value)), False
            return self.point(value, col), True
        raise PolynomialSyntax(f"unexpected `{value}`", col, "an expression starts with a point, number or (")

    def point(self, name: str, col: int) -> Pt:
        if name not in self.params or name in self.constants:
            raise PolynomialSyntax(f"`{name}` is not a point of the predicate", col,
                                   f"its points are {', '.join(p for p in self.params if p not in self.constants)}")
        return Pt(self.params.index(name))


def read_polynomials(text: str, params: Sequence[str], constants: frozenset[str]) -> tuple[Form, ...]:
    """The ``;``-separated forms of a ``polynomial:`` line (columns in errors
    are 1-based within ``text``)."""
    out = []
    offset = 0
    for part in text.split(";"):
        if part.strip():
            try:
                node, vector = _Parser(part, params, constants).form()
            except PolynomialSyntax as exc:
                raise PolynomialSyntax(str(exc), exc.column + offset, exc.hint) from None
            out.append(Form(node, vector, part.strip()))
        offset += len(part) + 1
    if not out:
        raise PolynomialSyntax("`polynomial:` lists no expression", 1, "write the expressions that vanish")
    return tuple(out)


# --------------------------------------------------------------- evaluating


@dataclass(frozen=True)
class Evaluation:
    """Evaluates forms with ``number`` (a Fraction into the algebra: exact
    rational functions, floats, ...) on points given as coordinate pairs and
    constants given as Constants. The values only need + − ·, so they are
    typed ``Any``."""

    number: Callable[[Fraction], Any]

    def forms(self, forms: Sequence[Form], points: Mapping[int, tuple[Any, Any]],
              constants: Mapping[int, Constant]) -> list[Any]:
        """Every polynomial of ``forms`` (a vector form gives two), in order."""
        out: list[Any] = []
        for form in forms:
            value = self._eval(form.node, points, constants)
            if isinstance(value, tuple):
                out.extend(value)
            else:
                out.append(value)
        return out

    def _eval(self, node: Node, points: Mapping[int, tuple[Any, Any]],
              constants: Mapping[int, Constant]) -> Any:
        if isinstance(node, Num):
            return self.number(node.value)
        if isinstance(node, Param):
            return self.number(constant_value(constants[node.index]))
        if isinstance(node, Pt):
            return points[node.index]
        if isinstance(node, Neg):
            v = self._eval(node.arg, points, constants)
            return (-v[0], -v[1]) if isinstance(v, tuple) else -v
        if isinstance(node, Bin):
            left = self._eval(node.left, points, constants)
            right = self._eval(node.right, points, constants)
            if node.op == "*":
                if isinstance(right, tuple):  # scalar · vector
                    return (left * right[0], left * right[1])
                return left * right
            sign = 1 if node.op == "+" else -1
            if isinstance(left, tuple):
                assert isinstance(right, tuple)
                return ((left[0] + right[0], left[1] + right[1]) if sign > 0
                        else (left[0] - right[0], left[1] - right[1]))
            return left + right if sign > 0 else left - right
        assert isinstance(node, Call)
        if node.name == "sq":
            a, b = (self._eval(n, points, constants) for n in node.args)
            assert isinstance(a, tuple) and isinstance(b, tuple)
            dx, dy = b[0] - a[0], b[1] - a[1]
            return dx * dx + dy * dy
        if node.name == "rot":
            u = self._eval(node.args[0], points, constants)
            assert isinstance(u, tuple) and isinstance(node.args[1], Param)
            c, s = rotation(constant_value(constants[node.args[1].index]))
            cn, sn = self.number(c), self.number(s)
            return (cn * u[0] - sn * u[1], sn * u[0] + cn * u[1])
        vals = [self._eval(n, points, constants) for n in node.args]
        if node.name == "conj":
            (u,) = vals
            assert isinstance(u, tuple)
            return (u[0], -u[1])
        u, v = vals
        assert isinstance(u, tuple) and isinstance(v, tuple)
        if node.name == "cross":
            return u[0] * v[1] - u[1] * v[0]
        if node.name == "dot":
            return u[0] * v[0] + u[1] * v[1]
        # cmul
        return (u[0] * v[0] - u[1] * v[1], u[0] * v[1] + u[1] * v[0])


def constant_value(constant: Constant) -> Fraction:
    """A constant as the number the forms use: angles in units of π
    (degrees converted), ratios and lengths as they are."""
    if constant.kind == "degrees":
        return Fraction(constant.value) / 180
    return Fraction(constant.value)


def rotation(angle: Fraction) -> tuple[Fraction, Fraction]:
    """(c, s) proportional to (cos, sin) of ``angle``·π with a positive
    factor, both rational: only multiples of π/4 have such a pair (a
    rational tangent of a rational multiple of π is 0 or ±1, Niven)."""
    eighths = angle * 4
    if eighths.denominator != 1:
        raise Unsupported(f"an angle of {angle}π has no rational rotation")
    table = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
    c, s = table[int(eighths) % 8]
    return Fraction(c), Fraction(s)
