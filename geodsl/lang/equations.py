"""The equations a predicate contributes to the AR tables, read from its
``angles:``, ``lengths:``, ``ratios:`` and ``squares:`` lines in
``rulebase/predicates.gdl`` (grammar: ``grammar/equations.lark``).

An equation is kept as written — two sums of signed products of factors —
over the predicate's parameters (by index). Each kind of line admits a
shape, checked here when the rulebase is read:

============ ===============================================================
``angles``   linear in angles ∠(p q, r s), constants in units of π
``squares``  linear in squared lengths |p q|²
``lengths``  one term a side, each a constant times at most one length:
             |a b| = 2·|m a|, |a b| = ratio·|c d|, |a b| = length
``ratios``   one term a side, each a product or quotient of lengths
============ ===============================================================

How an equation becomes a row of a table (log-lengths, signs, degenerate
pairs) is the table's business (:mod:`geodsl.ddar.ar`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Literal

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken

AtomKind = Literal["angle", "length", "square"]
TableKind = Literal["angles", "lengths", "ratios", "squares"]
TABLES: tuple[TableKind, ...] = ("angles", "lengths", "ratios", "squares")


class EquationSyntax(ValueError):
    """A malformed equation line: message, column within the text, hint."""

    def __init__(self, message: str, column: int, hint: str) -> None:
        super().__init__(message)
        self.column = column
        self.hint = hint


@dataclass(frozen=True, slots=True)
class Atom:
    """A measured quantity: an angle ∠(p q, r s) (four parameters), a length
    |p q| or a squared length |p q|² (two), as parameter indices."""

    kind: AtomKind
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Factor:
    """One factor of a product, multiplied (``power`` 1) or divided (-1): an
    atom, a number, or a constant parameter (by index)."""

    power: int
    atom: Atom | None = None
    number: Fraction | None = None
    param: int | None = None


@dataclass(frozen=True, slots=True)
class Term:
    sign: int
    factors: tuple[Factor, ...]

    @property
    def atoms(self) -> tuple[Factor, ...]:
        return tuple(f for f in self.factors if f.atom is not None)


@dataclass(frozen=True, slots=True)
class Equation:
    """``left = right``, each a sum of terms, in reading order."""

    left: tuple[Term, ...]
    right: tuple[Term, ...]
    text: str

    def linear(self) -> tuple[tuple[tuple[Fraction, Atom], ...], tuple[tuple[Fraction, int | None], ...]]:
        """``left − right`` as Σ coef·atom + Σ coef·constant, in reading
        order: (atom terms, constant terms), a constant term being a number
        (``None``) or a parameter index, each with its rational coefficient.
        (For an equation whose measures have no parameter coefficient; see
        :meth:`scaled`.)"""
        atoms, consts = self.scaled()
        return tuple((c, a) for c, _, a in atoms), consts

    def scaled(self) -> tuple[tuple[tuple[Fraction, int | None, Atom], ...],
                              tuple[tuple[Fraction, int | None], ...]]:
        """Like :meth:`linear`, each measure with the parameter (or None)
        that scales it: ``|a b|² = ratio·|c d|²`` is 1·|ab|² − 1·ratio·|cd|²."""
        atoms: list[tuple[Fraction, int | None, Atom]] = []
        consts: list[tuple[Fraction, int | None]] = []
        for side, sign in ((self.left, 1), (self.right, -1)):
            for term in side:
                coef, param, atom = Fraction(sign * term.sign), None, None
                for f in term.factors:
                    if f.atom is not None:
                        atom = f.atom
                    elif f.number is not None:
                        coef = coef * f.number if f.power > 0 else coef / f.number
                    else:
                        param = f.param
                if atom is not None:
                    atoms.append((coef, param, atom))
                else:
                    consts.append((coef, param))
        return tuple(atoms), tuple(consts)


_local = threading.local()


@cache
def _grammar() -> str:
    return resources.files("geodsl.grammar").joinpath("equations.lark").read_text("utf-8")


def _parser() -> Lark:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = Lark(_grammar(), parser="lalr", propagate_positions=True)
    return parser


def read_equations(text: str, kind: TableKind, params: tuple[str, ...],
                   constants: frozenset[str]) -> tuple[Equation, ...]:
    """The equations of one ``kind:`` line over ``params`` (``constants``:
    the parameters that are constants). Raises :class:`EquationSyntax`."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        column = getattr(exc, "column", 1) or 1
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            column = len(text.rstrip()) + 1  # the end of the line: what is missing goes there
        raise EquationSyntax(f"cannot read the equation `{text.strip()}`", column,
                             "write e.g. `∠(a b, c d) = 1/2`, `|a b| = 2·|m a|`, "
                             "`|a b| / |c d| = |e f| / |g h|`") from None
    out = []
    for eq in _trees(tree.children) if tree.data == "equations" else [tree]:
        left, right = (_sum(s, params, constants) for s in _trees(eq.children))
        equation = Equation(left, right, _span_text(text, eq))
        _check_shape(equation, kind, text.find(equation.text) + 1)
        out.append(equation)
    return tuple(out)


def _trees(children: list[Tree[Token] | Token]) -> list[Tree[Token]]:
    """The subtrees among a node's children (the grammar keeps no tokens there)."""
    return [c for c in children if isinstance(c, Tree)]


def _span_text(text: str, tree: Tree) -> str:
    meta = tree.meta
    if getattr(meta, "empty", True):
        return text.strip()
    return text[meta.start_pos:meta.end_pos].strip()


def _column(token: object) -> int:
    return int(getattr(token, "column", 1) or 1)


def _sum(tree: Tree, params: tuple[str, ...], constants: frozenset[str]) -> tuple[Term, ...]:
    terms: list[Term] = []
    sign = 1
    for child in tree.children:
        if isinstance(child, Token):  # SIGN between terms
            sign = -1 if child in ("-", "−") else 1
            continue
        inner_sign = 1
        product = child.children[-1]
        if len(child.children) == 2 and str(child.children[0]) in ("-", "−"):
            inner_sign = -1
        terms.append(Term(sign * inner_sign, _product(product, params, constants)))
        sign = 1
    return tuple(terms)


def _product(tree: Tree, params: tuple[str, ...], constants: frozenset[str]) -> tuple[Factor, ...]:
    factors: list[Factor] = []
    power = 1
    for child in tree.children:
        if isinstance(child, Token):  # MUL
            power = -1 if child == "/" else 1
            continue
        factors.append(_factor(child, power, params, constants))
        power = 1
    return tuple(factors)


_ATOM_KINDS: dict[str, AtomKind] = {"angle": "angle", "length": "length", "square": "square"}


def _token(child: Tree[Token] | Token) -> Token:
    assert isinstance(child, Token), "a measure's and a parameter's children are names"
    return child


def _index(token: Token, params: tuple[str, ...], want_point: bool, constants: frozenset[str]) -> int:
    name = str(token)
    if name not in params:
        raise EquationSyntax(f"`{name}` is not a parameter of the predicate", _column(token),
                             f"the parameters are {' '.join(params)}")
    if want_point == (name in constants):
        what = "a point" if want_point else "a constant"
        raise EquationSyntax(f"`{name}` is not {what} here", _column(token),
                             "points go inside ∠(..) and |..|; constants multiply")
    return params.index(name)


def _factor(tree: Tree, power: int, params: tuple[str, ...], constants: frozenset[str]) -> Factor:
    kind = tree.data
    if kind == "number":
        digits = [str(c) for c in tree.children]
        value = Fraction(int(digits[0]), int(digits[1]) if len(digits) > 1 else 1)
        if value == 0 and power < 0:
            raise EquationSyntax("division by zero", _column(tree.children[0]), "divide by a non-zero number")
        return Factor(power, number=value)
    if kind == "param":
        return Factor(power, param=_index(_token(tree.children[0]), params, False, constants))
    points = tuple(_index(_token(t), params, True, constants) for t in tree.children)
    return Factor(power, atom=Atom(_ATOM_KINDS[kind], points))


_ATOM_OF: dict[TableKind, AtomKind] = {"angles": "angle", "lengths": "length", "ratios": "length",
                                       "squares": "square"}


def _check_shape(eq: Equation, kind: TableKind, column: int) -> None:
    """Refuse an equation the table cannot read as a linear equation
    (``column``: where the equation starts on its line)."""
    def bad(why: str, hint: str) -> EquationSyntax:
        return EquationSyntax(f"`{eq.text}`: {why}", column, hint)

    want = _ATOM_OF[kind]
    for term in eq.left + eq.right:
        for f in term.atoms:
            assert f.atom is not None
            if f.atom.kind != want:
                raise bad(f"a `{kind}:` line measures {want}s only", f"move it to the line of its table")
    if kind in ("angles", "squares"):
        for term in eq.left + eq.right:
            if len(term.atoms) > 1 or any(f.power < 0 for f in term.atoms):
                raise bad("a product of measures is not linear", "write a sum of multiples of measures")
            if kind == "angles" and term.atoms and any(f.param is not None for f in term.factors):
                # Angles are known mod π: k·∠ with a real k is no equation mod π.
                raise bad("a parameter multiplies an angle", "coefficients of angles are numbers")
            if sum(f.param is not None for f in term.factors) > 1 or any(
                    f.param is not None and f.power < 0 for f in term.factors):
                raise bad("constant parameters are added or scale one measure, not multiplied together",
                          "write e.g. `= angle` or `|a b|² = ratio·|c d|²`")
        return
    if len(eq.left) != 1 or len(eq.right) != 1 or eq.left[0].sign < 0 or eq.right[0].sign < 0:
        raise bad(f"a `{kind}:` equation has one positive term a side",
                  "write products and quotients, e.g. `|a b| / |c d| = |e f| / |g h|`")
    if kind == "lengths":
        for term in (eq.left[0], eq.right[0]):
            if len(term.atoms) > 1 or any(f.power < 0 for f in term.atoms):
                raise bad("a `lengths:` side is a constant times at most one length",
                          "use a `ratios:` line for products and quotients")
        if not eq.left[0].atoms:
            raise bad("the left side has no length", "write the length first: `|a b| = k·|c d|`")
