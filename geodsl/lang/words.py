"""A premise as sentences, English or Chinese, one per construction, in the
style of GeoChallenge's questions ("Given square ABCD. Take the midpoint E
of AB. ...").

Constructions the auxiliary-construction printer words
(:func:`geodsl.lang.aux_text.to_words`, clauses of ``WORDED``) are printed
by it, so the sentence reads back to the construction with
:func:`geodsl.read_aux` (``tests/test_generate.py`` checks the round trip).
The intersection clauses written as one clause (``intersection_ll``,
``intersection_lp``, ``intersection_lt``, ``intersection_pp``,
``intersection_tt``) are worded as the two loci they intersect. The free
shapes, the many-output constructions and the remaining loci have their own
phrases here, as textbooks write them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .ast import Clause, Construction
from .aux_text import WORDED, to_words
from .errors import GeoDSLError
from .notation import point_text

LANGS = ("en", "zh")

_SHAPES = {
    "triangle": ("Given triangle {0}{1}{2}", "已知△{0}{1}{2}"),
    "r_triangle": ("Given right triangle {0}{1}{2} with the right angle at {0}", "已知Rt△{0}{1}{2}，∠{1}{0}{2}=90°"),
    "iso_triangle": ("Given isosceles triangle {0}{1}{2} with {0}{1} = {0}{2}", "已知等腰△{0}{1}{2}，{0}{1}={0}{2}"),
    "ieq_triangle": ("Given equilateral triangle {0}{1}{2}", "已知等边△{0}{1}{2}"),
    "risos": ("Given isosceles right triangle {0}{1}{2} with the right angle at {0}",
              "已知等腰Rt△{0}{1}{2}，∠{1}{0}{2}=90°"),
    "quadrangle": ("Given quadrilateral {0}{1}{2}{3}", "已知四边形{0}{1}{2}{3}"),
    "rectangle": ("Given rectangle {0}{1}{2}{3}", "已知矩形{0}{1}{2}{3}"),
    "isquare": ("Given square {0}{1}{2}{3}", "已知正方形{0}{1}{2}{3}"),
    "trapezoid": ("Given trapezoid {0}{1}{2}{3} with {0}{1} ∥ {2}{3}", "已知梯形{0}{1}{2}{3}，{0}{1}∥{2}{3}"),
    "r_trapezoid": ("Given right trapezoid {0}{1}{2}{3} with {0}{1} ∥ {2}{3} and {0}{1} ⊥ {0}{3}",
                    "已知直角梯形{0}{1}{2}{3}，{0}{1}∥{2}{3}，{0}{1}⊥{0}{3}"),
    "eq_trapezoid": ("Given isosceles trapezoid {0}{1}{2}{3} with {0}{1} ∥ {2}{3} and {0}{3} = {1}{2}",
                     "已知等腰梯形{0}{1}{2}{3}，{0}{1}∥{2}{3}，{0}{3}={1}{2}"),
    "eq_quadrangle": ("Given quadrilateral {0}{1}{2}{3} with {0}{3} = {1}{2}", "已知四边形{0}{1}{2}{3}，{0}{3}={1}{2}"),
    "eqdia_quadrangle": ("Given quadrilateral {0}{1}{2}{3} with equal diagonals {0}{2} = {1}{3}",
                         "已知四边形{0}{1}{2}{3}，对角线{0}{2}={1}{3}"),
}
"""Free shapes: the premise's first sentence (arguments in clause order)."""

_WHOLE = {
    "centroid": ("let {0}, {1}, {2} be the midpoints of {5}{6}, {6}{4}, {4}{5}, and {3} the centroid of "
                 "triangle {4}{5}{6}",
                 "设{0}、{1}、{2}分别为{5}{6}、{6}{4}、{4}{5}的中点，{3}为△{4}{5}{6}的重心"),
    "ninepoints": ("let {0}, {1}, {2} be the midpoints of {5}{6}, {6}{4}, {4}{5}, and {3} the centre of "
                   "the nine-point circle of triangle {4}{5}{6}",
                   "设{0}、{1}、{2}分别为{5}{6}、{6}{4}、{4}{5}的中点，{3}为△{4}{5}{6}的九点圆圆心"),
    "incenter2": ("let {3} be the incentre of triangle {4}{5}{6}, its incircle touching {5}{6}, {6}{4}, "
                  "{4}{5} at {0}, {1}, {2}",
                  "设{3}为△{4}{5}{6}的内心，内切圆与{5}{6}、{6}{4}、{4}{5}分别切于点{0}、{1}、{2}"),
    "excenter2": ("let {3} be the excentre of triangle {4}{5}{6} opposite {4}, its excircle touching lines "
                  "{5}{6}, {6}{4}, {4}{5} at {0}, {1}, {2}",
                  "设{3}为△{4}{5}{6}的点{4}所对的旁心，旁切圆与直线{5}{6}、{6}{4}、{4}{5}分别切于点{0}、{1}、{2}"),
    "square": ("construct the square {0}{1}{2}{3} on {0}{1}", "以{0}{1}为边作正方形{0}{1}{2}{3}"),
    "psquare": ("rotate {2} about {1} by 90° counter-clockwise to {0}", "将点{2}绕点{1}逆时针旋转90°得到点{0}"),
    "nsquare": ("rotate {2} about {1} by 90° clockwise to {0}", "将点{2}绕点{1}顺时针旋转90°得到点{0}"),
    "eq_triangle": ("construct the equilateral triangle {1}{2}{0}, with {1}, {2}, {0} counter-clockwise",
                    "作等边△{1}{2}{0}（{1}、{2}、{0}按逆时针排列）"),
    "shift": ("translate {1} by the vector {3}{2} to {0}", "将点{1}沿向量{3}{2}平移得到点{0}"),
    "intersection_lc": ("let {0} be the second intersection of line {1}{3} with the circle centred {2} "
                        "through {3}", "设直线{1}{3}与以{2}为圆心、{2}{3}为半径的圆的另一个交点为{0}"),
    "intersection_cc": ("let {0} be the second intersection of the circles centred {1} and {2} through {3}",
                        "设以{1}、{2}为圆心且过点{3}的两圆的另一个交点为{0}"),
}
"""Fixing clauses outside ``WORDED`` (arguments in clause order, outputs included)."""

_LOCI = {
    "angle_mirror": ("the reflection of ray {2}{1} in line {2}{3}", "射线{2}{1}关于直线{2}{3}的对称射线"),
    "s_angle": ("the ray from {1} with ∠{0}{1}{2} = {3}°", "从点{1}出发且∠{0}{1}{2}={3}°的射线"),
    "on_aline": ("the line through {1} with ∠({1}{0}, {1}{2}) = ∠({4}{3}, {4}{5})",
                 "过点{1}且∠({1}{0}, {1}{2})=∠({4}{3}, {4}{5})的直线"),
    "eqangle3": ("the circle through {1} and {2} on which ∠({0}{1}, {0}{2}) = ∠({3}{4}, {3}{5})",
                 "过点{1}、{2}且∠({0}{1}, {0}{2})=∠({3}{4}, {3}{5})的圆"),
}
"""One-degree clauses outside ``WORDED``: the locus, named (arguments in clause order)."""

_AS_LOCI = {
    "intersection_ll": (("on_line", (0, 1, 2)), ("on_line", (0, 3, 4))),
    "intersection_lp": (("on_line", (0, 1, 2)), ("on_pline", (0, 3, 4, 5))),
    "intersection_lt": (("on_line", (0, 1, 2)), ("on_tline", (0, 3, 4, 5))),
    "intersection_pp": (("on_pline", (0, 1, 2, 3)), ("on_pline", (0, 4, 5, 6))),
    "intersection_tt": (("on_tline", (0, 1, 2, 3)), ("on_tline", (0, 4, 5, 6))),
}
"""One-clause intersections as the two loci they intersect (argument positions)."""


def _args(clause: Clause) -> list[str]:
    return [point_text(a) if isinstance(a, str) else _constant(a) for a in clause.args]


def _constant(value: object) -> str:
    from .constants import Constant

    assert isinstance(value, Constant)
    v = value.value
    return str(v.numerator) if v.denominator == 1 else f"{float(v):g}"


def _as_loci(construction: Construction) -> Construction:
    """The construction with its one-clause intersection split into two loci."""
    clauses: list[Clause] = []
    for cl in construction.clauses:
        split = _AS_LOCI.get(cl.name)
        if split is None:
            clauses.append(cl)
            continue
        for name, positions in split:
            clauses.append(Clause(name, tuple(cl.args[i] for i in positions)))
    return Construction(construction.points, tuple(clauses))


def _finish(text: str, lang: str) -> str:
    text = text[0].upper() + text[1:]
    return text + ("。" if lang == "zh" else ".")


def sentence(construction: Construction, lang: str = "en", *, first: bool = False) -> str:
    """One construction as a sentence (capitalized, ending with a full
    stop). Raises :class:`~geodsl.lang.errors.GeoDSLError` for a
    construction no phrase here covers."""
    if lang not in LANGS:
        raise GeoDSLError(f"unknown language `{lang}`", hint="print in `en` or `zh`")
    zh = lang == "zh"
    clauses = construction.clauses
    if len(clauses) == 1 and clauses[0].name in _SHAPES:
        return _finish(_SHAPES[clauses[0].name][zh].format(*_args(clauses[0])), lang)
    if len(clauses) == 1 and clauses[0].name in _WHOLE:
        return _finish(_WHOLE[clauses[0].name][zh].format(*_args(clauses[0])), lang)
    construction = _as_loci(construction)
    if all(cl.name in WORDED for cl in construction.clauses):
        try:
            return _finish(to_words(construction, lang), lang)
        except GeoDSLError:
            if not any(cl.name == "on_opline" for cl in construction.clauses):
                raise
    targets = [_locus(cl, lang) for cl in construction.clauses]
    x = point_text(construction.points[0])
    if len(targets) == 1:
        return _finish(f"take a point {x} on {targets[0]}" if not zh else f"在{targets[0]}上任取一点{x}", lang)
    if len(targets) != 2:
        raise GeoDSLError(f"no words for `{construction.to_text()}`", text=construction.to_text(),
                          hint="one fixing clause, or one or two locus clauses")
    return _finish(f"let {x} be the intersection of {targets[0]} and {targets[1]}" if not zh
                   else f"设{targets[0]}与{targets[1]}交于点{x}", lang)


def _locus(clause: Clause, lang: str) -> str:
    zh = lang == "zh"
    if clause.name in _LOCI:
        return _LOCI[clause.name][zh].format(*_args(clause))
    if clause.name in WORDED:
        # A WORDED locus paired with one outside WORDED: the locus of its own words.
        x = point_text(str(clause.args[0]))
        one = to_words(Construction((str(clause.args[0]),), (clause,)), lang)
        if zh:
            return one.removeprefix("在").removesuffix("上任取一点" + x)
        return one.removeprefix(f"take a point {x} on ")
    raise GeoDSLError(f"no words for the clause `{clause.name}`", text=clause.name,
                      hint="the phrases of geodsl.lang.words and geodsl.to_words")


def premise_sentences(constructions: Sequence[Construction], lang: str = "en") -> list[str]:
    """Every construction of a premise as a sentence, in order."""
    return [sentence(c, lang, first=i == 0) for i, c in enumerate(constructions)]


__all__ = ["LANGS", "premise_sentences", "sentence"]
