"""Proof-text notation: predicates to the text engines print, and back.

geodsl prints facts the way AlphaGeometry does (``AB ⟂ CD``,
``A,B,C are collinear``, ``∠(AB-CD) = ∠(EF-GH)``) and reads that, Newclid 3's
notation (``∠(AB,CD)``, ``▲ABC ≅ ▲PQR``, ``ABCD are cyclic``) and
GeoChallenge's options (``∠(BD-FM) = ∠FHC``, ``BM:DM ≠ GI:HK``, "AM is
perpendicular to EI", negations with ``≠`` or "is not") into predicates of
the DSL, with the grammar ``grammar/notation.lark``. Everything
:func:`to_notation` prints, :func:`read_notation` reads back to the same
fact (compare with :func:`normalize`).

Points are upper-case in the notation and lower-case in the DSL; a
multi-character name ``g1`` prints ``G_1`` (AlphaGeometry's spelling) and
``G_1``, ``G₁`` and ``G1`` all read back as ``g1``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from importlib import resources

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from .constants import Constant
from .definitions import canonical
from .terms import Arg, Predicate
from .errors import SyntaxErrorGDL

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")

# Side-condition predicates and the negated predicate each one states.
_NEGATIVE_FORMS = {"ncoll": "coll", "npara": "para", "nperp": "perp"}


def point_text(name: str) -> str:
    """``a`` → ``A``, ``g1`` → ``G_1``, ``x'`` → ``X'``."""
    head, rest = name[0].upper(), name[1:]
    prime = "'" if rest.endswith("'") else ""
    rest = rest.rstrip("'").lstrip("_")
    if not rest:
        return head + prime
    if rest.isdigit():
        return f"{head}_{rest}{prime}"
    # Names the notation cannot spell letter by letter keep their text.
    return name.upper()


def point_name(text: str) -> str:
    """The DSL name of a notation point: ``G_1``, ``G₁``, ``G1`` → ``g1``."""
    return text.translate(_SUBSCRIPTS).replace("_", "").lower()


def _seg(a: Arg, b: Arg) -> str:
    return point_text(str(a)) + point_text(str(b))


def _angle(p1: Arg, p2: Arg, p3: Arg, p4: Arg) -> str:
    """∠XSY when the two lines share a point S, else ∠(AB-CD)."""
    line1, line2 = (str(p1), str(p2)), (str(p3), str(p4))
    shared = [p for p in line1 if p in line2]
    if len(shared) == 1 and len(set(line1)) == 2 and len(set(line2)) == 2:
        s = shared[0]
        x = line1[0] if line1[1] == s else line1[1]
        y = line2[0] if line2[1] == s else line2[1]
        return f"∠{point_text(x)}{point_text(s)}{point_text(y)}"
    return f"∠({_seg(p1, p2)}-{_seg(p3, p4)})"


def _number(c: Arg) -> str:
    assert isinstance(c, Constant)
    if c.kind in ("angle", "degrees"):
        turns = c.value if c.kind == "angle" else c.value / 180
        return f"{turns.numerator}pi/{turns.denominator}"
    return str(c.value)


def to_notation(predicate: Predicate) -> str:
    """The fact in AlphaGeometry's proof notation (negations worded as
    GeoChallenge words them)."""
    name, a, neg = predicate.name, predicate.args, predicate.negated
    if name in _NEGATIVE_FORMS:
        name, neg = _NEGATIVE_FORMS[name], not neg
    P = [point_text(str(x)) if isinstance(x, str) else "" for x in a]
    eq = "≠" if neg else "="
    isnt = "is not" if neg else "is"
    if name == "coll":
        return ",".join(P) + (" are not collinear" if neg else " are collinear")
    if name == "cyclic":
        return ",".join(P) + (" are not concyclic" if neg else " are concyclic")
    if name == "midp":
        return f"{P[0]} is not the midpoint of {P[1]}{P[2]}" if neg else f"{P[0]} is midpoint of {P[1]}{P[2]}"
    if name == "cong":
        return f"{P[0]}{P[1]} {eq} {P[2]}{P[3]}"
    if name == "perp":
        return f"{P[0]}{P[1]} is not perpendicular to {P[2]}{P[3]}" if neg else f"{P[0]}{P[1]} ⟂ {P[2]}{P[3]}"
    if name == "para":
        return f"{P[0]}{P[1]} is not parallel to {P[2]}{P[3]}" if neg else f"{P[0]}{P[1]} ∥ {P[2]}{P[3]}"
    if name == "eqangle":
        return f"{_angle(*a[:4])} {eq} {_angle(*a[4:])}"
    if name == "eqratio":
        return f"{P[0]}{P[1]}:{P[2]}{P[3]} {eq} {P[4]}{P[5]}:{P[6]}{P[7]}"
    if name in ("simtri", "simtrir", "contri", "contrir"):
        word = "similar" if name.startswith("sim") else "congruent"
        tail = " (opposite orientation)" if name.endswith("r") else ""
        return f"Δ{P[0]}{P[1]}{P[2]} {isnt} {word} to Δ{P[3]}{P[4]}{P[5]}{tail}"
    if name == "circle":
        return f"{P[0]} {isnt} the circumcenter of \\Delta {P[1]}{P[2]}{P[3]}"
    if name == "foot":
        return f"{P[0]} {isnt} the foot of {P[1]} on {P[2]}{P[3]}"
    if name == "aconst":
        return f"{_angle(*a[:4])} {eq} {_number(a[4])}"
    if name == "rconst":
        return f"{P[0]}{P[1]}:{P[2]}{P[3]} {eq} {_number(a[4])}"
    if name == "lconst":
        return f"{P[0]}{P[1]} {eq} {_number(a[2])}"
    if name == "diff":
        return f"{P[0]} = {P[1]}" if neg else f"{P[0]} ≠ {P[1]}"
    if name == "sideprod":
        A, B, C, D, E, F = P
        return f"{B}{D}·{C}{E}·{A}{F} {eq} {D}{C}·{E}{A}·{F}{B}"
    if name == "r2const":
        return f"{P[0]}{P[1]}²:{P[2]}{P[3]}² {eq} {_number(a[4])}"
    if name == "l2const":
        return f"{P[0]}{P[1]}² {eq} {_number(a[2])}"
    if name == "obtuse_angle":
        return f"∠{P[0]}{P[1]}{P[2]} {isnt} obtuse"
    # `sameside`, `nsameside` and `sameclock` are side conditions: no engine
    # states them in a proof.
    raise ValueError(f"no notation for predicate `{name}`")


def normalize(predicate: Predicate) -> Predicate:
    """One spelling per fact, for comparing what was read with what was meant:
    side conditions as negated predicates (``ncoll`` → ``not coll``),
    degrees as π-fractions, arguments in canonical order."""
    name, args, neg = predicate.name, predicate.args, predicate.negated
    if name in _NEGATIVE_FORMS:
        name, neg = _NEGATIVE_FORMS[name], not neg
    args = tuple(Constant("angle", a.value / 180) if isinstance(a, Constant) and a.kind == "degrees" else a
                 for a in args)
    return canonical(Predicate(name, args, neg))


# --------------------------------------------------------------- reading


class _ToPredicates(Transformer):  # type: ignore[type-arg]
    """Parse tree → list of predicates (a chain gives several)."""

    @staticmethod
    def _neg(children: list[object]) -> bool:
        return any(isinstance(c, Token) and c.type == "NOT" for c in children)

    @staticmethod
    def _points(children: list[object]) -> list[str]:
        out: list[str] = []
        for c in children:
            if isinstance(c, Token) and c.type == "POINT":
                out.append(point_name(c))
            elif isinstance(c, list) and all(isinstance(x, str) for x in c):
                out.extend(c)  # a seg, a tri or a points list
        return out

    def seg(self, c: list[Token]) -> list[str]:
        return [point_name(c[0]), point_name(c[1])]

    def tri(self, c: list[Token]) -> list[str]:
        return [point_name(t) for t in c[1:]]

    def listed(self, c: list[Token]) -> list[str]:
        return [point_name(t) for t in c if t.type == "POINT"]

    run = listed

    def angle_lines(self, c: list[object]) -> tuple[str, ...]:
        return (*c[1], *c[3])  # type: ignore[misc]  # ∠ ( seg sep seg )

    def angle_vertex(self, c: list[Token]) -> tuple[str, ...]:
        x, s, y = (point_name(t) for t in c[1:])
        return (s, x, s, y)

    def ratio(self, c: list[list[str]]) -> tuple[str, ...]:
        return ("ratio", *c[0], *c[1])

    def product(self, c: list[object]) -> tuple[list[str], ...]:
        return tuple(x for x in c if isinstance(x, list))

    def circle_of(self, c: list[object]) -> None:
        return None

    def orientation(self, c: list[object]) -> str:
        return "opposite"

    def segrel(self, c: list[Token]) -> str:
        return str(c[0])

    eqrel = segrel

    def chain(self, c: list[object]) -> list[tuple[str, object]]:
        if len(c) == 2:
            return [(str(c[0]), c[1])]
        return [*c[0], (str(c[1]), c[2])]  # type: ignore[misc]

    achain = rchain = chain

    # statements

    def coll(self, c: list[object]) -> list[Predicate]:
        return [Predicate("coll", tuple(self._points(c)), self._neg(c))]

    def cyclic(self, c: list[object]) -> list[Predicate]:
        return [Predicate("cyclic", tuple(self._points(c)), self._neg(c))]

    def midp(self, c: list[object]) -> list[Predicate]:
        return [Predicate("midp", tuple(self._points(c)), self._neg(c))]

    def circle(self, c: list[object]) -> list[Predicate]:
        return [Predicate("circle", tuple(self._points(c)), self._neg(c))]

    def foot(self, c: list[object]) -> list[Predicate]:
        return [Predicate("foot", tuple(self._points(c)), self._neg(c))]

    def _tri_pair(self, base: str, c: list[object]) -> list[Predicate]:
        name = base + ("r" if "opposite" in c else "")
        return [Predicate(name, tuple(self._points(c)), self._neg(c))]

    def simtri(self, c: list[object]) -> list[Predicate]:
        return self._tri_pair("simtri", c)

    def contri(self, c: list[object]) -> list[Predicate]:
        return self._tri_pair("contri", c)

    def simtri_sign(self, c: list[object]) -> list[Predicate]:
        return [Predicate("simtri", tuple(self._points(c)))]

    def contri_sign(self, c: list[object]) -> list[Predicate]:
        return [Predicate("contri", tuple(self._points(c)))]

    def perp_words(self, c: list[object]) -> list[Predicate]:
        return [Predicate("perp", tuple(self._points(c)), self._neg(c))]

    def para_words(self, c: list[object]) -> list[Predicate]:
        return [Predicate("para", tuple(self._points(c)), self._neg(c))]

    def vertex_angle(self, c: list[Token]) -> list[str]:
        return [point_name(t) for t in c if isinstance(t, Token) and t.type == "POINT"]

    def obtuse(self, c: list[object]) -> list[Predicate]:
        return [Predicate("obtuse_angle", tuple(self._points(c)), self._neg(c))]

    def squared_ratio(self, c: list[object]) -> list[Predicate]:
        seg1, seg2, rel, number = c[0], c[2], c[4], c[5]
        return [Predicate("r2const", (*seg1, *seg2, _constant(number, "ratio")),  # type: ignore[misc]
                          str(rel) == "≠")]

    def squared_length(self, c: list[object]) -> list[Predicate]:
        seg, rel, number = c[0], c[2], c[3]
        return [Predicate("l2const", (*seg, _constant(number, "length")), str(rel) == "≠")]  # type: ignore[misc]

    def diff(self, c: list[Token]) -> list[Predicate]:
        return [Predicate("diff", (point_name(c[0]), point_name(c[2])))]

    def same_point(self, c: list[Token]) -> list[Predicate]:
        return [Predicate("diff", (point_name(c[0]), point_name(c[2])), True)]

    def seg_chain(self, c: list[object]) -> list[Predicate]:
        def link(rel: str, left: tuple[str, ...], right: object) -> Predicate:
            if isinstance(right, Token):  # AB = 3/2
                if rel not in ("=", "≠"):
                    raise _Reject(f"`{rel}` between a segment and a number")
                return Predicate("lconst", (*left, _constant(right, "length")), rel == "≠")
            name, neg = _SEGREL[rel]
            return Predicate(name, (*left, *right), neg)  # type: ignore[misc]
        return _chain(c, link)

    def angle_chain(self, c: list[object]) -> list[Predicate]:
        def link(rel: str, left: tuple[str, ...], right: object) -> Predicate:
            if isinstance(right, Token):
                return Predicate("aconst", (*left, _constant(right, "angle")), rel == "≠")
            return Predicate("eqangle", (*left, *right), rel == "≠")  # type: ignore[misc]
        return _chain(c, link)

    def product_eq(self, c: list[object]) -> list[Predicate]:
        """BD·CE·AF = DC·EA·FB, the one product of segments engines state."""
        left, rel, right = c
        (b, d), (c_, e), (a, f) = left  # type: ignore[misc]
        if [set(s) for s in right] != [{d, c_}, {e, a}, {f, b}]:  # type: ignore[union-attr]
            raise _Reject("a product of segments is read only in Menelaus' and Ceva's form "
                          "BD·CE·AF = DC·EA·FB")
        return [Predicate("sideprod", (a, b, c_, d, e, f), rel == "≠")]

    def ratio_chain(self, c: list[object]) -> list[Predicate]:
        def link(rel: str, left: tuple[str, ...], right: object) -> Predicate:
            # A ratio is ("ratio", a, b, c, d): drop the tag.
            if isinstance(right, Token):
                return Predicate("rconst", (*left[1:], _constant(right, "ratio")), rel == "≠")
            return Predicate("eqratio", (*left[1:], *right[1:]), rel == "≠")  # type: ignore[index]
        return _chain(c, link)


def _chain(c: list[object], link: Callable[[str, tuple[str, ...], object], Predicate]) -> list[Predicate]:
    """``X r1 Y r2 Z`` states ``X r1 Y`` and ``Y r2 Z``; a number ends the chain's objects."""
    left = c[0]
    out: list[Predicate] = []
    for rel, right in c[1]:  # type: ignore[attr-defined]
        out.append(link(rel, left, right))  # type: ignore[arg-type]
        if not isinstance(right, Token):
            left = right
    return out


_SEGREL = {"=": ("cong", False), "≠": ("cong", True), "⟂": ("perp", False), "⊥": ("perp", False),
           "⟂̸": ("perp", True), "⊥̸": ("perp", True), "∥": ("para", False), "//": ("para", False),
           "||": ("para", False), "∦": ("para", True)}


class _Reject(ValueError):
    pass


def _constant(token: Token, kind: str) -> Constant:
    text = str(token).replace("π", "pi").replace("°", "o").replace("PI", "pi").replace("_pi", "pi")
    if text.startswith("pi") or text.startswith("-pi"):
        text = text.replace("pi", "1pi", 1)
    from .constants import ConstantSyntax, read_constant

    try:
        return read_constant(text, kind)  # type: ignore[arg-type]
    except ConstantSyntax as exc:
        raise _Reject(str(exc)) from None


_local = threading.local()


@cache
def _grammar() -> str:
    return resources.files("geodsl.grammar").joinpath("notation.lark").read_text("utf-8")


def _parser() -> Lark:
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = Lark(_grammar(), parser="lalr", lexer="contextual", transformer=_ToPredicates())
        _local.parser = parser
    return parser


MAX_STATEMENT_CHARS = 2_000


def read_notation(text: str, source: str | None = None) -> list[Predicate]:
    """The predicates a stated fact says (a chain ``AB = CD = EF`` says two).

    Raises :class:`SyntaxErrorGDL` (column within ``text``) for anything else;
    the text is untrusted (model output): bounded in size, never evaluated.
    """
    if len(text) > MAX_STATEMENT_CHARS:
        raise SyntaxErrorGDL(f"statement is {len(text):,} characters; the limit is {MAX_STATEMENT_CHARS:,}",
                             source=source, line=1, column=1, text="", hint="state one fact at a time")
    stripped = text.strip().rstrip(".")
    try:
        return list(_parser().parse(stripped))
    except UnexpectedInput as exc:
        column = getattr(exc, "column", 1) or 1
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            column = len(stripped) + 1
        if isinstance(exc, UnexpectedCharacters):
            word = re.match(r"\S+", stripped[column - 1:])
            found = word.group() if word else stripped[column - 1:column]
        else:
            found = str(getattr(exc, "token", ""))
        raise SyntaxErrorGDL(f"cannot read `{found or 'end'}` in the statement `{stripped}`", source=source,
                             line=1, column=column + (len(text) - len(text.lstrip())), text=found,
                             source_line=text,
                             hint="write facts as `AB ⟂ CD`, `A,B,C are collinear`, `∠ABC = ∠DEF`, "
                                  "`AB:CD = EF:GH`, `M is midpoint of AB`") from None
    except (_Reject, VisitError) as exc:
        # A callback refusing a shape the grammar allows (`AB ⟂ 3/2`); Lark
        # may wrap it in a VisitError.
        inner = exc.orig_exc if isinstance(exc, VisitError) else exc
        if not isinstance(inner, _Reject):
            raise
        raise SyntaxErrorGDL(str(inner), source=source, line=1, column=1, text=stripped, source_line=text,
                             hint="compare like with like") from None
