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

What a sign means is chosen by the *dialect* of the text, never guessed per
symbol (:data:`NOTATION_DIALECTS`):

================= ==========================================================
``alphageometry`` the default: AlphaGeometry's, GeoChallenge's and (for the
                  forms they share) Newclid's notation; ``≅`` is *similar*
                  (Newclid's sign), ``≡`` congruent; angles are directed
``newclid``       Newclid 3: ``≅`` similar and ``≡`` congruent *in either
                  orientation* (Newclid prints its direct and reflected
                  triangles alike), resolved on a figure when one is given
``textbook``      school geometry, as model solutions write it: ``≅ ≌ ≡``
                  congruent, ``∽ ∼ ~`` similar, in either orientation;
                  ``∠ABC`` an *undirected* angle and ``∠B`` the angle at B of
                  the figure's triangle — both read against a figure
================= ==========================================================

A textbook angle has no direction, a directed angle (mod π) has one: the
reader spells ``∠ABC`` as the directed ∠(BA, BC) when the turn from BA to
BC is counter-clockwise in the figure and ∠(BC, BA) otherwise, so that the
directed statement holds exactly where the undirected one does (equal
undirected angles in (0, π) are equal mod π once both turn the same way).
The figure is a :class:`Figure` the caller passes (the grader passes its
diagram); the reader asks it only orientations and vertex names.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import cast
from importlib import resources
from typing import Protocol

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from .constants import CONST_KINDS, ConstKind, Constant
from .definitions import PredicateDef, canonical, rulebase
from .terms import Arg, Predicate
from .errors import SyntaxErrorGDL

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")

NOTATION_DIALECTS = ("alphageometry", "newclid", "textbook")
"""The dialects proof text is read in (module docstring)."""


class Figure(Protocol):
    """What the reader asks a figure, for the dialects whose notation does
    not say it (a textbook's undirected angles, Newclid's and a textbook's
    orientation-free triangles)."""

    def orientation(self, a: str, b: str, c: str) -> int:
        """+1 if a, b, c turn counter-clockwise, -1 clockwise, 0 on one line (DSL names)."""
        ...

    def angle_at(self, vertex: str) -> tuple[str, str] | None:
        """The two points that make "the angle at ``vertex``" (``∠B``), or None if the figure does not say."""
        ...


@dataclass(frozen=True, slots=True)
class _Undirected:
    """A textbook angle ∠XSY (vertex s), before the figure gives it a direction."""

    x: str
    s: str
    y: str


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
    """The DSL name of a notation point: ``G_1``, ``G₁``, ``G1`` → ``g1``;
    ``I_B`` → ``i_b`` (a name :func:`point_text` prints as it is)."""
    text = text.translate(_SUBSCRIPTS)
    if re.fullmatch(r"[A-Z]_[A-Z]'?", text):
        return text.lower()
    if "___" in text:  # Newclid's spelling of the name i_b
        return text.replace("___", "_").lower()
    return text.replace("_", "").lower()


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


def _positive(predicate: Predicate) -> Predicate:
    """A predicate that ``negates:`` another (``ncoll``) as that one, negated."""
    pdef = rulebase().predicates.get(predicate.name)
    if pdef is None or pdef.negates is None:
        return predicate
    bind = dict(zip(pdef.params, predicate.args))
    return Predicate(pdef.negates.name, tuple(bind[a] if isinstance(a, str) else a for a in pdef.negates.args),
                     not predicate.negated, predicate.span)


_ANGLE_FIELD = re.compile(r"∠\(\{(\w+)\}\{(\w+)\}, \{(\w+)\}\{(\w+)\}\)")
_FIELD = re.compile(r"\{(\w+)\}")


def to_notation(predicate: Predicate) -> str:
    """The fact in AlphaGeometry's proof notation (negations worded as
    GeoChallenge words them), from the predicate's ``notation:`` (or
    ``negated:``) template in ``rulebase/predicates.gdl``."""
    predicate = _positive(predicate)
    pdef = rulebase().predicates.get(predicate.name)
    template = None if pdef is None else (pdef.negated_notation if predicate.negated else pdef.notation)
    if template is None:
        raise ValueError(f"no notation for predicate `{'not ' if predicate.negated else ''}{predicate.name}`")
    assert pdef is not None
    bind = dict(zip(pdef.params, predicate.args))
    if len(predicate.args) > pdef.arity:  # a long statement (`more:`): its repeated points as a list
        last = pdef.params[-1]
        if "," + "{" + last + "}" not in template:
            raise ValueError(f"no notation for `{predicate.name}` with {len(predicate.args)} arguments")
        template = template.replace("{" + last + "}", ",".join(
            "{%d}" % i for i in range(pdef.arity - 1, len(predicate.args))))
        bind.update({str(i): predicate.args[i] for i in range(pdef.arity - 1, len(predicate.args))})

    def angle(m: re.Match[str]) -> str:
        return _angle(*(bind[g] for g in m.groups()))

    def field(m: re.Match[str]) -> str:
        value = bind[m.group(1)]
        return point_text(value) if isinstance(value, str) else _number(value)

    return _FIELD.sub(field, _ANGLE_FIELD.sub(angle, template))


def normalize(predicate: Predicate) -> Predicate:
    """One spelling per fact, for comparing what was read with what was meant:
    side conditions as negated predicates (``ncoll`` → ``not coll``),
    degrees as π-fractions, arguments in canonical order."""
    predicate = _positive(predicate)
    name, args, neg = predicate.name, predicate.args, predicate.negated
    args = tuple(Constant("angle", a.value / 180) if isinstance(a, Constant) and a.kind == "degrees" else a
                 for a in args)
    return canonical(Predicate(name, args, neg))


# --------------------------------------------------------------- reading


class _ToPredicates(Transformer):
    """Parse tree → list of predicates (a chain gives several), in one
    dialect; :attr:`figure` is set for each statement read (or None)."""

    def __init__(self, dialect: str = "alphageometry") -> None:
        super().__init__()
        self.dialect = dialect
        self.figure: Figure | None = None

    def _figure(self, what: str) -> Figure:
        if self.figure is None:
            raise _Reject(f"{what} is read against a figure in the {self.dialect} dialect",
                          "pass figure= (geodsl grade does)")
        return self.figure

    def _spell(self, angle: object) -> tuple[str, ...]:
        """A directed angle's four points; an undirected one spelled by the figure."""
        if isinstance(angle, _Undirected):
            turn = self._figure(f"the undirected angle ∠{point_text(angle.x)}{point_text(angle.s)}"
                                f"{point_text(angle.y)}").orientation(angle.s, angle.x, angle.y)
            first, second = (angle.x, angle.y) if turn >= 0 else (angle.y, angle.x)
            return (angle.s, first, angle.s, second)
        return _names(angle)

    def _triangles(self, base: str, first: list[str], second: list[str]) -> str:
        """``simtri``/``contri`` or their reflected forms, as the figure shows (the dialects
        whose signs say nothing of orientation)."""
        if self.figure is None and self.dialect == "newclid":
            return base  # Newclid's own reading without a figure: same orientation
        figure = self._figure("a similarity or congruence without orientation")
        same = figure.orientation(*first) == figure.orientation(*second)
        return base if same else base + "r"

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
        return (*_names(c[1]), *_names(c[3]))  # ∠ ( seg sep seg )

    def angle_vertex(self, c: list[Token]) -> tuple[str, ...] | _Undirected:
        x, s, y = (point_name(t) for t in c[1:])
        if self.dialect == "textbook":
            return _Undirected(x, s, y)
        return (s, x, s, y)

    def angle_point(self, c: list[Token]) -> _Undirected:
        vertex = point_name(c[1])
        if self.dialect != "textbook":
            raise _Reject(f"`∠{c[1]}` names an angle by its vertex alone: textbook notation",
                          "read the text with the textbook dialect, or name the angle ∠ABC")
        sides = self._figure(f"the angle `∠{c[1]}`").angle_at(vertex)
        if sides is None:
            raise _Reject(f"the figure has no single angle at {c[1]} for `∠{c[1]}`",
                          "name the angle by three points, ∠ABC")
        return _Undirected(sides[0], vertex, sides[1])

    def scaled_left(self, c: list[object]) -> tuple[str, ...]:
        number, seg = (c[0], c[-1])
        assert isinstance(number, Token) and isinstance(seg, list)
        return ("scaled", str(number), *seg)

    def scaled_right(self, c: list[object]) -> tuple[str, ...]:
        seg, number = c
        assert isinstance(number, Token) and isinstance(seg, list)
        return ("scaled", f"1/{number}", *seg)

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
        earlier = cast(list[tuple[str, object]], c[0])  # the chain built so far
        return [*earlier, (str(c[1]), c[2])]

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
        points = self._points(c)
        if self.dialect == "textbook" and "opposite" not in c:
            name = self._triangles(base, points[:3], points[3:])
        else:
            name = base + ("r" if "opposite" in c else "")
        return [Predicate(name, tuple(points), self._neg(c))]

    def simtri(self, c: list[object]) -> list[Predicate]:
        return self._tri_pair("simtri", c)

    def contri(self, c: list[object]) -> list[Predicate]:
        return self._tri_pair("contri", c)

    def tri_sign(self, c: list[object]) -> list[Predicate]:
        first, sign, second = c
        assert isinstance(first, list) and isinstance(second, list)
        base = _TRI_SIGNS[self.dialect].get(str(sign))
        if base is None:
            raise _Reject(f"`{sign}` is textbook notation, not {self.dialect}'s",
                          "read the text with the textbook dialect")
        if self.dialect != "alphageometry":
            base = self._triangles(base, first, second)
        return [Predicate(base, (*first, *second))]

    def sameclock(self, c: list[object]) -> list[Predicate]:
        return [Predicate("sameclock", tuple(self._points(c)))]

    def oppositeclock(self, c: list[object]) -> list[Predicate]:
        return [Predicate("sameclock", tuple(self._points(c)), True)]

    def sameside(self, c: list[object]) -> list[Predicate]:
        return [Predicate("sameside", tuple(self._points(c)))]

    def nsameside(self, c: list[object]) -> list[Predicate]:
        return [Predicate("nsameside", tuple(self._points(c)))]

    def distinct(self, c: list[object]) -> list[Predicate]:
        points = self._points(c)
        return [Predicate("diff", (p, q)) for i, p in enumerate(points) for q in points[i + 1:]]

    def angle_sum(self, c: list[object]) -> list[Predicate]:
        """∠1 + ∠2 = k: ∠1 − (−∠2) = k, the second angle with its lines swapped."""
        first, _, second, rel, number = c
        a, b = self._spell(first), self._spell(second)
        assert isinstance(number, Token)
        return [Predicate("anglediff", (*a, b[2], b[3], b[0], b[1], _constant(number, "angle")),
                          str(rel) == "≠")]

    def perp_words(self, c: list[object]) -> list[Predicate]:
        return [Predicate("perp", tuple(self._points(c)), self._neg(c))]

    def para_words(self, c: list[object]) -> list[Predicate]:
        return [Predicate("para", tuple(self._points(c)), self._neg(c))]

    def vertex_angle(self, c: list[Token]) -> list[str]:
        return [point_name(t) for t in c if isinstance(t, Token) and t.type == "POINT"]

    def obtuse(self, c: list[object]) -> list[Predicate]:
        return [Predicate("obtuse_angle", tuple(self._points(c)), self._neg(c))]

    def squared_ratio(self, c: list[object]) -> list[Predicate]:
        # seg ² : seg ² rel NUMBER (a seg is a list of two point names)
        seg1, seg2, rel, number = c[0], c[2], c[4], c[5]
        assert isinstance(seg1, list) and isinstance(seg2, list) and isinstance(number, Token)
        return [Predicate("r2const", (*seg1, *seg2, _constant(number, "ratio")), str(rel) == "≠")]

    def squared_length(self, c: list[object]) -> list[Predicate]:
        seg, rel, number = c[0], c[2], c[3]
        assert isinstance(seg, list) and isinstance(number, Token)
        return [Predicate("l2const", (*seg, _constant(number, "length")), str(rel) == "≠")]

    def squared_ratio_bars(self, c: list[object]) -> list[Predicate]:
        # Newclid: |AB|²:|CD|² = r (the bars are anonymous tokens)
        return self.squared_ratio([c[0], c[1], c[2], c[3], c[4], c[5]])

    def squared_length_bars(self, c: list[object]) -> list[Predicate]:
        return self.squared_length(c)

    def diff(self, c: list[Token]) -> list[Predicate]:
        return [Predicate("diff", (point_name(c[0]), point_name(c[2])))]

    def same_point(self, c: list[Token]) -> list[Predicate]:
        return [Predicate("diff", (point_name(c[0]), point_name(c[2])), True)]

    def seg_chain(self, c: list[object]) -> list[Predicate]:
        def link(rel: str, earlier: object, right: object) -> Predicate:
            left = _names(earlier)
            if left[:1] == ("scaled",):
                raise _Reject("a multiple of a segment ends a chain", "state one equation at a time")
            if isinstance(right, Token):  # AB = 3/2
                if rel not in ("=", "≠"):
                    raise _Reject(f"`{rel}` between a segment and a number")
                return Predicate("lconst", (*left, _constant(right, "length")), rel == "≠")
            if isinstance(right, tuple) and right[:1] == ("scaled",):  # AB = 2CD
                if rel not in ("=", "≠"):
                    raise _Reject(f"`{rel}` between a segment and a multiple of one")
                return Predicate("rconst", (*left, *_names(right[2:]), _constant(str(right[1]), "ratio")),
                                 rel == "≠")
            name, neg = _SEGREL[rel]
            return Predicate(name, (*left, *_names(right)), neg)
        return _chain(c, link)

    def angle_chain(self, c: list[object]) -> list[Predicate]:
        def link(rel: str, left: object, right: object) -> Predicate:
            first = self._spell(left)
            if isinstance(right, Token):
                value = _constant(right, "angle")
                if self.dialect == "textbook" and normalize_angle(value) == Fraction(1, 2):
                    return Predicate("perp", first, rel == "≠")  # ∠ABC = 90°
                return Predicate("aconst", (*first, value), rel == "≠")
            return Predicate("eqangle", (*first, *self._spell(right)), rel == "≠")
        return _chain(c, link)

    def product_eq(self, c: list[object]) -> list[Predicate]:
        """BD·CE·AF = DC·EA·FB, the one product of segments engines state."""
        left, rel, right = cast(tuple[list[list[str]], str, list[list[str]]], tuple(c))
        (b, d), (c_, e), (a, f) = left
        if [set(s) for s in right] != [{d, c_}, {e, a}, {f, b}]:
            raise _Reject("a product of segments is read only in Menelaus' and Ceva's form "
                          "BD·CE·AF = DC·EA·FB")
        return [Predicate("sideprod", (a, b, c_, d, e, f), rel == "≠")]

    def ratio_chain(self, c: list[object]) -> list[Predicate]:
        def link(rel: str, earlier: object, right: object) -> Predicate:
            left = _names(earlier)
            # A ratio is ("ratio", a, b, c, d): drop the tag.
            if isinstance(right, Token):
                return Predicate("rconst", (*left[1:], _constant(right, "ratio")), rel == "≠")
            return Predicate("eqratio", (*left[1:], *_names(right)[1:]), rel == "≠")
        return _chain(c, link)


def _names(value: object) -> tuple[str, ...]:
    """A segment, an angle or a ratio the transformer built: a sequence of names."""
    assert isinstance(value, (list, tuple)), value
    return tuple(str(v) for v in value)


def _chain(c: list[object], link: Callable[[str, object, object], Predicate]) -> list[Predicate]:
    """``X r1 Y r2 Z`` states ``X r1 Y`` and ``Y r2 Z``; a number ends the chain's objects
    (the objects as the transformer built them: names, an undirected angle, a multiple)."""
    left = c[0]
    out: list[Predicate] = []
    for rel, right in cast(list[tuple[str, object]], c[1]):  # what chain() built
        out.append(link(rel, left, right))
        if not isinstance(right, Token):
            left = right
    return out


_TRI_SIGNS: dict[str, dict[str, str]] = {
    "alphageometry": {"≅": "simtri", "∼": "simtri", "~": "simtri", "≡": "contri"},
    "newclid": {"≅": "simtri", "∼": "simtri", "~": "simtri", "≡": "contri"},
    "textbook": {"≅": "contri", "≌": "contri", "≡": "contri", "∽": "simtri", "∼": "simtri", "~": "simtri"},
}
"""What a triangle sign means, by dialect: ``≅`` is Newclid's *similar* and a
textbook's *congruent*; ``≌`` and ``∽`` are textbook signs only."""


def normalize_angle(value: Constant) -> Fraction:
    """An angle constant in units of π, mod 1 (degrees converted)."""
    turns = Fraction(value.value) / 180 if value.kind == "degrees" else Fraction(value.value)
    return turns % 1


_SEGREL = {"=": ("cong", False), "≠": ("cong", True), "⟂": ("perp", False), "⊥": ("perp", False),
           "⟂̸": ("perp", True), "⊥̸": ("perp", True), "∥": ("para", False), "//": ("para", False),
           "||": ("para", False), "∦": ("para", True)}


class _Reject(ValueError):
    def __init__(self, message: str, hint: str = "compare like with like") -> None:
        super().__init__(message)
        self.hint = hint


def _constant(token: str, kind: str) -> Constant:
    text = str(token).replace("π", "pi").replace("°", "o").replace("PI", "pi").replace("_pi", "pi")
    if text.startswith("pi") or text.startswith("-pi"):
        text = text.replace("pi", "1pi", 1)
    from .constants import ConstantSyntax, read_constant

    try:
        return read_constant(text, _const_kind(kind))
    except ConstantSyntax as exc:
        raise _Reject(str(exc)) from None


_P = r"([A-Z](?:_?[0-9]+|')?)"
_TEXTBOOK_PHRASES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(a), b) for a, b in (
    (rf"^{_P}\s*(?:是|为)\s*{_P}{_P}\s*的中点$", r"\1 is the midpoint of \2\3"),
    (rf"^{_P}\s*(?:是|为)\s*[△Δ]?\s*{_P}{_P}{_P}\s*的外心$", r"\1 is the circumcenter of △\2\3\4"),
    (rf"^{_P}\s*[,、]\s*{_P}\s*[,、]\s*{_P}\s*(?:三点)?共线$", r"\1, \2, \3 are collinear"),
    (rf"^{_P}\s*[,、]\s*{_P}\s*[,、]\s*{_P}\s*[,、]\s*{_P}\s*(?:四点)?共圆$", r"\1, \2, \3, \4 are concyclic"),
    (rf"^{_P}{_P}\s*(⊥|∥|//)\s*{_P}{_P}\s*于\s*(?:点\s*)?{_P}$", r"\1\2 \3 \4\5"),
    (rf"^{_P}\s*is\s+the\s+midpoint\s+of\s+(?:segment\s+)?{_P}{_P}$", r"\1 is the midpoint of \2\3"),
))
"""Chinese (and a few English) textbook phrasings, as the notation the grammar reads:
`D是BC的中点` (D is the midpoint of BC), `A、B、C三点共线` (collinear), `A、B、C、D四点共圆`
(concyclic), `O是△ABC的外心` (circumcenter), `AD⊥BC于D` (perpendicular, at D)."""


_TEXTBOOK_PLURALS: tuple[re.Pattern[str], ...] = tuple(re.compile(a) for a in (
    rf"^{_P}\s*and\s*{_P}\s*are\s+(?:the\s+)?midpoints\s+of\s+{_P}{_P}\s*and\s*{_P}{_P}(?:,?\s*respectively)?$",
    rf"^{_P}\s*[,、]\s*{_P}\s*分别(?:是|为)\s*{_P}{_P}\s*[,、]\s*{_P}{_P}\s*的中点$",
))
"""Two midpoints in one sentence: `D and E are the midpoints of AB and AC`,
`D、E分别是AB、AC的中点` (each the midpoint of its own segment)."""


def _textbook_plural(text: str) -> list[str] | None:
    for pattern in _TEXTBOOK_PLURALS:
        m = pattern.match(text)
        if m is not None:
            x, y, a, b, c, d = m.groups()
            return [f"{x} is the midpoint of {a}{b}", f"{y} is the midpoint of {c}{d}"]
    return None


def textbook_words(text: str) -> str:
    """A statement in a textbook's words as the notation :func:`read_notation` reads."""
    text = text.replace("点", "") if re.match(r"^点[A-Z]", text) else text
    for pattern, replacement in _TEXTBOOK_PHRASES:
        text = pattern.sub(replacement, text)
    return text


_local = threading.local()


@cache
def _grammar() -> str:
    return resources.files("geodsl.grammar").joinpath("notation.lark").read_text("utf-8")


def _parser(dialect: str = "alphageometry") -> tuple[Lark, _ToPredicates]:
    """This thread's parser of ``dialect`` and the transformer inside it."""
    parsers: dict[str, tuple[Lark, _ToPredicates]] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    found = parsers.get(dialect)
    if found is None:
        transformer = _ToPredicates(dialect)
        found = parsers[dialect] = (Lark(_grammar(), parser="lalr", lexer="contextual",
                                         transformer=transformer), transformer)
    return found


MAX_STATEMENT_CHARS = 2_000

_POINT = r"[A-Z](?:_?[0-9]+|[₀-₉]+|_[A-Z]|___[a-z0-9]+)?'?"
_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?(?:_?(?:pi|PI|π))?(?:/[0-9]+)?°?|-?π(?:/[0-9]+)?"


@cache
def _templates() -> tuple[tuple[re.Pattern[str], str, bool, tuple[str, ...]], ...]:
    """Every predicate's ``notation:`` and ``negated:`` template as a pattern:
    (pattern, predicate, negated, the parameter each group reads). The notation
    grammar reads the other engines' variants; these read back whatever a
    template prints, so a predicate added to the rulebase needs no grammar."""
    out = []
    for pdef in rulebase().predicates.values():
        for template, negated in ((pdef.notation, False), (pdef.negated_notation, True)):
            if template is None:
                continue
            groups: list[str] = []
            pattern, i = "", 0
            for m in re.finditer(_ANGLE_FIELD.pattern + "|" + _FIELD.pattern, template):
                pattern += _literal(template[i:m.start()])
                if m.group(1) is not None:  # an angle: ∠XSY or ∠(AB-CD) / ∠(AB,CD)
                    a, b, c, d = m.group(1, 2, 3, 4)
                    pattern += (f"(?:∠({_POINT})({_POINT})({_POINT})"
                                f"|∠\\(\\s*({_POINT})({_POINT})\\s*[-,]\\s*({_POINT})({_POINT})\\s*\\))")
                    groups += [f"∠{a} {b} {c} {d}", "", "", f"{a}", f"{b}", f"{c}", f"{d}"]
                else:
                    name = m.group(5)
                    pattern += f"({_NUMBER})" if arg_kind_of(pdef, name) != "point" else f"({_POINT})"
                    groups.append(name)
                i = m.end()
            pattern += _literal(template[i:])
            out.append((re.compile(pattern), pdef.name, negated, tuple(groups)))
    return tuple(out)


def arg_kind_of(pdef: PredicateDef, name: str) -> str:
    return pdef.kinds[pdef.params.index(name)]


def _const_kind(kind: str) -> ConstKind:
    for known in CONST_KINDS:
        if known == kind:
            return known
    raise _Reject(f"a {kind} is not a constant")


def _literal(text: str) -> str:
    """A template's fixed text as a pattern: any run of spaces reads as any
    (or no) whitespace."""
    return "\\s*".join(re.escape(part) for part in re.split(r"\s+", text))


def _read_template(text: str) -> Predicate | None:
    """The fact a predicate's own notation template states, if one matches."""
    for pattern, name, negated, groups in _templates():
        m = pattern.fullmatch(text)
        if m is None:
            continue
        pdef = rulebase().predicate(name)
        bind: dict[str, Arg] = {}
        values = m.groups()
        k = 0
        while k < len(groups):
            g = groups[k]
            if g.startswith("∠"):  # seven groups: vertex form (3) or two lines (4)
                a, b, c, d = g[1:].split()
                if values[k] is not None:
                    x, s, y = (point_name(v) for v in values[k:k + 3])
                    bind.update({a: s, b: x, c: s, d: y})
                else:
                    bind.update({a: point_name(values[k + 3]), b: point_name(values[k + 4]),
                                 c: point_name(values[k + 5]), d: point_name(values[k + 6])})
                k += 7
                continue
            kind = arg_kind_of(pdef, g)
            try:
                value = values[k]
                assert value is not None  # a template's field always matches
                bind[g] = point_name(value) if kind == "point" else _constant(value, kind)
            except _Reject:
                return None
            k += 1
        return Predicate(name, tuple(bind[p] for p in pdef.params), negated)
    return None


def read_notation(text: str, source: str | None = None, *, dialect: str = "alphageometry",
                  figure: Figure | None = None) -> list[Predicate]:
    """The predicates a stated fact says (a chain ``AB = CD = EF`` says two),
    read in ``dialect`` (:data:`NOTATION_DIALECTS`); ``figure`` answers what
    the dialect's notation leaves to the figure (module docstring).

    Raises :class:`SyntaxErrorGDL` (column within ``text``) for anything else;
    the text is untrusted (model output): bounded in size, never evaluated.
    """
    if dialect not in NOTATION_DIALECTS:
        raise SyntaxErrorGDL(f"unknown notation dialect `{dialect}`", source=source, text=dialect,
                             hint="dialects: " + ", ".join(NOTATION_DIALECTS))
    if len(text) > MAX_STATEMENT_CHARS:
        raise SyntaxErrorGDL(f"statement is {len(text):,} characters; the limit is {MAX_STATEMENT_CHARS:,}",
                             source=source, line=1, column=1, text="", hint="state one fact at a time")
    stripped = text.strip().rstrip(".")
    if dialect == "textbook":
        stripped = textbook_words(stripped)
        plural = _textbook_plural(stripped)
        if plural is not None:
            return [p for part in plural for p in read_notation(part, source, dialect=dialect, figure=figure)]
    parser, transformer = _parser(dialect)
    transformer.figure = figure
    try:
        return list(cast(list[Predicate], parser.parse(stripped)))  # the transformer builds predicates
    except UnexpectedInput as exc:
        templated = _read_template(stripped)
        if templated is not None:
            return [templated]
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
                             hint=inner.hint) from None
    finally:
        transformer.figure = None
