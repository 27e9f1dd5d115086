"""Facts in textbook notation, English or Chinese: what
``read_notation(text, dialect="textbook", figure=...)`` reads back.

School notation has undirected angles and triangles without orientation,
the DSL has directed angles (mod π) and oriented triangles; the figure
bridges them, as it does for the reader (:mod:`.notation`):

- ``∠XSY`` is printed for a directed angle between two lines through a
  named point S. The reader spells it counter-clockwise in the figure, so an
  angle turning clockwise reads as its negative. An equality of two angles
  that turn the same way prints ``∠XSY = ∠UTV``; of two that turn opposite
  ways ``∠XSY + ∠UTV = 180°`` (the undirected angles are supplementary);
  a constant angle prints the undirected size the reader turns back into
  the same directed value. Lines without a common named point keep
  AlphaGeometry's ``∠(AB, CD)`` (directed: the reader reads it as such).
- ``△ABC ∽ △PQR`` (similar) and ``△ABC ≅ △PQR`` (congruent; ``≌`` in
  Chinese) say nothing of orientation: the reader takes it from the figure,
  which for a true statement is the predicate's.

:func:`to_textbook` prints one fact; the round trip (reading the English
text back gives a statement with the same truth in the figure) is what
``tests/test_generate.py`` checks on generated options.
"""

from __future__ import annotations

from fractions import Fraction

from .constants import Constant
from .errors import GeoDSLError
from .notation import Figure, point_text
from .terms import Arg, Predicate

LANGS = ("en", "zh")


def _p(a: Arg) -> str:
    return point_text(str(a))


def _seg(a: Arg, b: Arg) -> str:
    return _p(a) + _p(b)


def _degrees(turns: Fraction) -> str:
    value = turns * 180
    return f"{value.numerator}°" if value.denominator == 1 else f"{float(value):g}°"


def _vertex(a: Arg, b: Arg, c: Arg, d: Arg) -> tuple[str, str, str] | None:
    """(x, s, y) when lines ab and cd share exactly one named point s."""
    line1, line2 = (str(a), str(b)), (str(c), str(d))
    shared = [p for p in line1 if p in line2]
    if len(shared) != 1 or len(set(line1)) != 2 or len(set(line2)) != 2:
        return None
    s = shared[0]
    return (line1[0] if line1[1] == s else line1[1], s, line2[0] if line2[1] == s else line2[1])


def _angle(a: Arg, b: Arg, c: Arg, d: Arg, figure: Figure) -> tuple[str, int]:
    """The angle's text and the sign the reader gives it (+1: as directed,
    -1: its negative)."""
    v = _vertex(a, b, c, d)
    if v is not None:
        x, s, y = v
        turn = figure.orientation(s, x, y)
        if turn != 0:
            return f"∠{_p(x)}{_p(s)}{_p(y)}", turn
    return f"∠({_seg(a, b)}, {_seg(c, d)})", 1


_WORDS = {
    # predicate: (English, English negated, Chinese, Chinese negated), with {0}, {1}, ... fields
    "coll": ("{0}, {1}, {2} are collinear", "{0}, {1}, {2} are not collinear",
             "{0}、{1}、{2}三点共线", "{0}、{1}、{2}三点不共线"),
    "cyclic": ("{0}, {1}, {2}, {3} are concyclic", "{0}, {1}, {2}, {3} are not concyclic",
               "{0}、{1}、{2}、{3}四点共圆", "{0}、{1}、{2}、{3}四点不共圆"),
    "para": ("{0}{1} ∥ {2}{3}", "{0}{1} is not parallel to {2}{3}", "{0}{1}∥{2}{3}", "{0}{1}与{2}{3}不平行"),
    "perp": ("{0}{1} ⊥ {2}{3}", "{0}{1} is not perpendicular to {2}{3}", "{0}{1}⊥{2}{3}", "{0}{1}与{2}{3}不垂直"),
    "cong": ("{0}{1} = {2}{3}", "{0}{1} ≠ {2}{3}", "{0}{1}={2}{3}", "{0}{1}≠{2}{3}"),
    "midp": ("{0} is the midpoint of {1}{2}", "{0} is not the midpoint of {1}{2}",
             "{0}是{1}{2}的中点", "{0}不是{1}{2}的中点"),
    "circle": ("{0} is the circumcenter of △{1}{2}{3}", "{0} is not the circumcenter of △{1}{2}{3}",
               "{0}是△{1}{2}{3}的外心", "{0}不是△{1}{2}{3}的外心"),
    "eqratio": ("{0}{1}:{2}{3} = {4}{5}:{6}{7}", "{0}{1}:{2}{3} ≠ {4}{5}:{6}{7}",
                "{0}{1}:{2}{3}={4}{5}:{6}{7}", "{0}{1}:{2}{3}≠{4}{5}:{6}{7}"),
    "simtri": ("△{0}{1}{2} ∼ △{3}{4}{5}", "△{0}{1}{2} is not similar to △{3}{4}{5}",
               "△{0}{1}{2}∽△{3}{4}{5}", "△{0}{1}{2}与△{3}{4}{5}不相似"),
    "contri": ("△{0}{1}{2} ≅ △{3}{4}{5}", "△{0}{1}{2} is not congruent to △{3}{4}{5}",
               "△{0}{1}{2}≌△{3}{4}{5}", "△{0}{1}{2}与△{3}{4}{5}不全等"),
}
_WORDS["simtrir"] = _WORDS["simtri"]
_WORDS["contrir"] = _WORDS["contri"]

PRINTED = tuple(_WORDS) + ("eqangle", "aconst", "rconst")
"""The predicates :func:`to_textbook` prints."""


def to_textbook(predicate: Predicate, figure: Figure, lang: str = "en") -> str:
    """``predicate`` in textbook notation (module docstring), in English
    (``en``) or Chinese (``zh``), its angles and triangles read on
    ``figure``. Raises :class:`~geodsl.lang.errors.GeoDSLError` for a
    predicate outside :data:`PRINTED` or an unknown language."""
    if lang not in LANGS:
        raise GeoDSLError(f"unknown language `{lang}`", hint="print in `en` or `zh`")
    zh = lang == "zh"
    neg = predicate.negated
    a = predicate.args
    words = _WORDS.get(predicate.name)
    if words is not None:
        template = words[2 * zh + neg]
        return template.format(*(_p(x) for x in a))
    eq, ne = ("=", "≠") if zh else (" = ", " ≠ ")
    rel = ne if neg else eq
    plus = "+" if zh else " + "
    if predicate.name == "eqangle":
        first, s1 = _angle(a[0], a[1], a[2], a[3], figure)
        second, s2 = _angle(a[4], a[5], a[6], a[7], figure)
        if s1 == s2:
            return f"{first}{rel}{second}"
        return f"{first}{plus}{second}{rel}180°"
    if predicate.name == "aconst":
        value = a[4]
        assert isinstance(value, Constant)
        turns = Fraction(value.value) / 180 if value.kind == "degrees" else Fraction(value.value)
        text, sign = _angle(a[0], a[1], a[2], a[3], figure)
        shown = (turns if sign > 0 else -turns) % 1
        return f"{text}{rel}{_degrees(shown)}"
    if predicate.name == "rconst":
        value = a[4]
        assert isinstance(value, Constant)
        return f"{_seg(a[0], a[1])}:{_seg(a[2], a[3])}{rel}{value.value}"
    raise GeoDSLError(f"no textbook notation for `{predicate.name}`", text=predicate.name,
                      hint=f"printed: {', '.join(PRINTED)}")


__all__ = ["LANGS", "PRINTED", "to_textbook"]
