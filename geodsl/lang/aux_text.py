"""Auxiliary constructions as text: read them (formal, English, Chinese) into
constructions of one problem, and print constructions as English or Chinese.

>>> import geodsl
>>> p = geodsl.parse_problem("a b c = triangle a b c ? perp a b a c")
>>> r = geodsl.read_aux("过点A作AD⊥BC于D", p)
>>> r.lang, r.construction_texts, r.segments, r.new_points
('zh', ('d = foot d a b c',), (('a', 'd'),), ('d',))
>>> to_words(r.constructions[0], "en")
'draw the perpendicular from A to BC with foot D'

Formal text is the DSL itself (``d = foot d a b c; e = midpoint e a b``,
either dialect), read by the language's own reader with its located errors.
Worded text is read with ``grammar/aux_en.lark`` or ``grammar/aux_zh.lark``
(:mod:`.aux_lexer`) and mapped onto the rulebase's constructions
(:mod:`.aux_meaning`); the phrasings and what each reads as are listed in
``docs/aux.md``. A phrase the grammar does not read is a located
:class:`~geodsl.lang.errors.SyntaxErrorGDL` quoting it and naming the kinds
of construction that are read — never a guess. A consequence stated in the
text ("则∠AHB=90°", "so AB ⊥ CD") is kept as a claim, not read as a
construction.

A point the text constructs that the problem already has (``取BC的中点M``
when M is the midpoint of BC) is *restated*, not refused: the checker
(``geodsl.checker.aux``) decides whether the problem's point satisfies it
(redundant) or not (a conflict).

:func:`to_words` prints a construction so that reading the words back in a
problem with the same points gives the same construction (the round trip
``tests/test_aux.py`` checks for both languages); it covers the
constructions the reader produces (:data:`WORDED`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .ast import AuxCandidate, Construction, Problem
from .aux_lexer import LANGS, MAX_CHARS, Where, detect, normalise, parse, split_points
from .definitions import DIALECTS, rulebase
from .errors import GeoDSLError, LimitError, Location, SyntaxErrorGDL
from .limits import DEFAULT_LIMITS
from .lines import Line
from .semantics import ProblemReader
from .syntax import RawBody, parse_line

READ_LANGS = ("auto", "formal") + LANGS
"""The values of ``lang``: ``auto`` decides between the other three."""

HINTS = {
    "en": ("geodsl reads: connect/join AB; extend AB to meet CD (or circle O) at E; through P draw PQ ⊥ AB "
           "(or ∥) meeting AC at Q; the perpendicular from A to BC with foot D; the altitude, median or angle "
           "bisector AD; take the midpoint E of AB; let AC and BD meet at P; the diameter AE; the circumcircle "
           "of ABC (with centre O); the circle with centre O through A, or with diameter AB; on BC cut off "
           "BD = BA; the reflection of A in BC; a point on a line, segment, circle or arc; claims after "
           "`so` (docs/aux.md)"),
    "zh": ("geodsl 能读：连接AB；延长AB交CD（或⊙O）于E；过点P作PQ⊥AB（或∥）交AC于Q；过A作BC的垂线，垂足为D；"
           "作高、中线、角平分线AD；取AB的中点E；设AC与BD交于点P；作直径AE；作△ABC的外接圆⊙O；"
           "以BC为直径作圆；在BC上截取BD=BA；作A关于BC的对称点；在直线、线段、圆或弧上取一点；"
           "“则…”为结论（docs/aux.md）"),
}

_FORMAL = re.compile(r"\s*[A-Za-z][\w']*(?:@\S+)?(?:\s+[A-Za-z][\w']*(?:@\S+)?)*\s*=\s*([A-Za-z0-9_]\w*)")


@dataclass(frozen=True)
class AuxReading:
    """One candidate, read.

    ``constructions`` are AST nodes (marked ``auxiliary``) in the order the
    text gives them; ``construction_texts`` their canonical clause text,
    which :func:`geodsl.parse` reads back. ``restated[i]`` are the points
    construction i gives that the problem (or an earlier construction of the
    text) already has. ``segments`` are the point pairs the text draws
    (joined, extended, dropped); ``new_points`` the points it introduces;
    ``claims`` the consequences it states.
    """

    text: str
    lang: str
    constructions: tuple[Construction, ...]
    restated: tuple[tuple[str, ...], ...]
    segments: tuple[tuple[str, str], ...] = ()
    new_points: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    label: str | None = field(default=None, compare=False)

    @property
    def construction_texts(self) -> tuple[str, ...]:
        return tuple(c.to_text() for c in self.constructions)

    def to_dict(self) -> dict[str, object]:
        """The reading fields of ``geodsl aux --json``'s candidate objects."""
        return {"text": self.text, "lang": self.lang, "constructions": list(self.construction_texts),
                "segments": [segment_text(a, b) for a, b in self.segments],
                "new_points": list(self.new_points), "claims": list(self.claims)}


def segment_text(a: str, b: str) -> str:
    """``ad`` for single-letter names; ``g1 a`` (space-separated) otherwise."""
    return a + b if len(a) == 1 and len(b) == 1 else f"{a} {b}"


def detect_lang(text: str) -> str:
    """``zh`` with Chinese characters; ``formal`` when the text starts like a
    construction of the DSL (``d = foot ...``, a construction name after
    ``=``); ``en`` otherwise."""
    if detect(text) == "zh":
        return "zh"
    m = _FORMAL.match(text)
    if m is not None:
        rb = rulebase()
        name = m.group(1)
        if name in rb.constructions or any(name in names for names in rb.dialect_names.values()):
            return "formal"
    return "en"


def read_aux(text: str, problem: Problem | str, lang: str = "auto", *, source: str | None = None,
             line: int = 1, dialect: str = "alphageometry") -> AuxReading:
    """Read one candidate (one text, possibly several constructions) for
    ``problem`` (a Problem or one problem's text).

    ``lang`` is ``auto`` (:func:`detect_lang`), ``formal``, ``en`` or
    ``zh``; ``source`` and ``line`` say where the text was written, for the
    located errors. Raises :class:`~geodsl.lang.errors.GeoDSLError` (located
    in ``text``) when the text cannot be read or names a point the problem
    does not have."""
    if not isinstance(text, str):
        raise GeoDSLError(f"a candidate is text, got {type(text).__name__}", source=source,
                          hint="pass the construction as a string")
    if lang not in READ_LANGS:
        raise GeoDSLError(f"unknown language `{lang}`", source=source, hint=f"languages: {', '.join(READ_LANGS)}")
    if dialect not in DIALECTS:
        raise GeoDSLError(f"unknown dialect `{dialect}`", hint=f"dialects: {', '.join(DIALECTS)}")
    if isinstance(problem, str):
        from .parser import parse_problem
        problem = parse_problem(problem)
    if len(text) > MAX_CHARS:
        raise LimitError(f"the candidate is {len(text):,} characters long; the limit is {MAX_CHARS:,}",
                         source=source, line=line, column=1, text="",
                         hint="pass the auxiliary constructions one candidate at a time",
                         source_line=text.splitlines()[0] if text.splitlines() else "")
    if not text.strip():
        raise SyntaxErrorGDL("empty candidate", source=source, line=line, column=1, text="", source_line=text,
                             hint="write a construction such as `d = foot d a b c` or `取AB的中点E`")
    chosen = detect_lang(text) if lang == "auto" else lang
    if chosen == "formal":
        return _read_formal(text, problem, source, line, dialect)
    from .aux_meaning import Resolver, phrases

    flat = normalise(text)
    where = Where(flat, source, line, shown=text)
    hint = HINTS[chosen]
    tree = parse(flat, chosen, where, hint)
    meaning = Resolver(problem, where, chosen, hint, dialect).read(phrases(tree))
    return AuxReading(text, chosen, tuple(s.construction for s in meaning.steps),
                      tuple(s.restated for s in meaning.steps), tuple(meaning.segments),
                      tuple(meaning.new_points), tuple(meaning.claims))


def _read_formal(text: str, problem: Problem, source: str | None, first: int, dialect: str) -> AuxReading:
    reader = ProblemReader(rulebase(), dialect, source, DEFAULT_LIMITS)
    somewhere = Location(source, first, 1)
    known = {p: c.span or somewhere for c in problem.premise.constructions for p in c.points}
    made: list[Construction] = []
    restated: list[tuple[str, ...]] = []
    new: list[str] = []
    for offset, raw_line in enumerate(text.split("\n")):
        number = first + offset
        if not raw_line.strip():
            continue
        try:
            raw = parse_line(raw_line)
        except GeoDSLError as exc:
            raise exc.located(source=source, line_offset=number - 1, source_line=raw_line) from None
        body = raw.body
        if raw.kind != "content" or not isinstance(body, RawBody) or body.goals is not None \
                or body.pipe is not None or body.conclusion is not None:
            raise SyntaxErrorGDL("a candidate holds constructions only", source=source, line=number, column=1,
                                 text=raw_line.strip(), source_line=raw_line,
                                 hint="write constructions separated by `;`: `d = foot d a b c; e = midpoint e a b`")
        for st in body.statements:
            heads = [t.text.partition("@")[0] for t in st.head]
            again = tuple(h for h in heads if h in known)
            constructed = {k: v for k, v in known.items() if k not in again}
            c = reader.construction(st, Line(number, raw_line, raw), constructed, "aux")
            from dataclasses import replace
            made.append(replace(c, auxiliary=True))
            restated.append(again)
            for p in c.points:
                if p not in known:
                    new.append(p)
                known[p] = c.span or somewhere
    return AuxReading(text, "formal", tuple(made), tuple(restated), (), tuple(new), ())


def from_candidate(candidate: AuxCandidate, problem: Problem) -> AuxReading:
    """An ``aux:`` line of a ``.gdl`` file (already parsed) as a reading."""
    known = set(problem.points)
    restated = []
    new: list[str] = []
    for c in candidate.constructions:
        restated.append(tuple(p for p in c.points if p in known))
        new.extend(p for p in c.points if p not in known)
        known.update(c.points)
    from dataclasses import replace
    text = "; ".join(c.to_text() for c in candidate.constructions)
    return AuxReading(text, "formal", tuple(replace(c, auxiliary=True) for c in candidate.constructions),
                      tuple(restated), (), tuple(new), (), candidate.label)


# ---------------------------------------------------------------- printing

WORDED = ("midpoint", "mirror", "foot", "reflect", "circle", "orthocenter", "incenter", "excenter",
          "parallelogram", "tangent", "on_line", "between_bound", "on_opline", "on_pline", "on_tline",
          "lc_tangent", "on_bline", "angle_bisector", "on_circle", "eqdistance", "on_circum", "on_dia",
          "on_minor_arc", "on_arc")
"""The clauses :func:`to_words` prints: the fixing ones as themselves, the
locus ones alone (a point on the locus) or two together (an intersection)."""

_LOCI = frozenset(WORDED[10:])


def _name(p: str) -> str:
    """A point as the words write it; refused when the words would read back otherwise."""
    from .notation import point_name, point_text
    shown = point_text(p)
    parts = split_points(shown)
    if parts is None or len(parts) != 1 or point_name(shown) != p:
        raise GeoDSLError(f"point `{p}` has no worded spelling", text=p,
                          hint="worded constructions name points by a letter, a digit or a prime (A, G_1, A')")
    return shown


_TARGET_WORDS: dict[str, tuple[str, str]] = {
    "on_line": ("line {0}{1}", "直线{0}{1}"),
    "between_bound": ("segment {0}{1}", "线段{0}{1}"),
    "on_opline": ("the extension of {1}{0} beyond {0}", "{1}{0}的延长线"),
    "on_pline": ("the line through {0} parallel to {1}{2}", "过点{0}且平行于{1}{2}的直线"),
    "on_tline": ("the line through {0} perpendicular to {1}{2}", "过点{0}且垂直于{1}{2}的直线"),
    "lc_tangent": ("the tangent at {0} to circle {1}", "⊙{1}在点{0}处的切线"),
    "on_bline": ("the perpendicular bisector of {0}{1}", "{0}{1}的垂直平分线"),
    "angle_bisector": ("the bisector of angle {0}{1}{2}", "∠{0}{1}{2}的平分线"),
    "on_circle": ("the circle centred {0} through {1}", "以{0}为圆心、{0}{1}为半径的圆"),
    "eqdistance": ("the circle centred {0} with radius {1}{2}", "以{0}为圆心、{1}{2}为半径的圆"),
    "on_circum": ("the circumcircle of triangle {0}{1}{2}", "△{0}{1}{2}的外接圆"),
    "on_dia": ("the circle with diameter {0}{1}", "以{0}{1}为直径的圆"),
    "on_minor_arc": ("the minor arc {1}{2} of circle {0}", "⊙{0}的劣弧{1}{2}"),
    "on_arc": ("the arc {1}{2} not containing {0}", "不含点{0}的弧{1}{2}"),
}
"""Each locus of a worded construction, in English and Chinese: ``{0}`` is
the locus's first point, and so on."""


def _target(name: str, args: Sequence[str], lang: str) -> str:
    en, zh = _TARGET_WORDS[name]  # callers pass loci of WORDED only
    return (en if lang == "en" else zh).format(*(_name(a) for a in args))


def to_words(construction: Construction, lang: str = "en") -> str:
    """The construction in English (``en``) or Chinese (``zh``) words that
    :func:`read_aux` reads back to it. Raises
    :class:`~geodsl.lang.errors.GeoDSLError` for a clause outside
    :data:`WORDED` or a point name the words cannot spell."""
    if lang not in LANGS:
        raise GeoDSLError(f"unknown language `{lang}`", hint="print in `en` or `zh`")
    clauses = construction.clauses
    text = construction.to_text()
    outside = [cl.name for cl in clauses if cl.name not in WORDED]
    if outside:
        raise GeoDSLError(f"no worded form for `{outside[0]}` (in `{text}`)", text=text,
                          hint=f"worded constructions: {', '.join(WORDED)}")
    en = lang == "en"
    pts = construction.points
    if len(clauses) == 1 and clauses[0].name not in _LOCI:
        cl = clauses[0]
        args = [str(a) for a in cl.args]
        n = [_name(a) for a in args]
        x = n[0]
        if cl.name == "midpoint":
            return f"take the midpoint {x} of {n[1]}{n[2]}" if en else f"取{n[1]}{n[2]}的中点{x}"
        if cl.name == "mirror":
            return f"let {x} be the reflection of {n[1]} through {n[2]}" if en else f"作点{n[1]}关于点{n[2]}的对称点{x}"
        if cl.name == "foot":
            return (f"draw the perpendicular from {n[1]} to {n[2]}{n[3]} with foot {x}" if en
                    else f"过点{n[1]}作{n[2]}{n[3]}的垂线，垂足为{x}")
        if cl.name == "reflect":
            return (f"let {x} be the reflection of {n[1]} in line {n[2]}{n[3]}" if en
                    else f"作点{n[1]}关于直线{n[2]}{n[3]}的对称点{x}")
        if cl.name in ("circle", "orthocenter", "incenter"):
            word = {"circle": ("circumcentre", "外心"), "orthocenter": ("orthocentre", "垂心"),
                    "incenter": ("incentre", "内心")}[cl.name]
            return (f"let {x} be the {word[0]} of triangle {n[1]}{n[2]}{n[3]}" if en
                    else f"设{x}为△{n[1]}{n[2]}{n[3]}的{word[1]}")
        if cl.name == "excenter":
            return (f"let {x} be the excentre of triangle {n[1]}{n[2]}{n[3]} opposite {n[1]}" if en
                    else f"设{x}为△{n[1]}{n[2]}{n[3]}的点{n[1]}所对的旁心")
        if cl.name == "parallelogram":
            return f"complete the parallelogram {n[0]}{n[1]}{n[2]}{n[3]}" if en else f"作平行四边形{n[0]}{n[1]}{n[2]}{n[3]}"
        if cl.name == "tangent":
            x, y, a, o, b = n
            return (f"draw the tangents from {a} to the circle centred {o} through {b}, touching it at {x} and {y}"
                    if en else f"过点{a}作以{o}为圆心、{o}{b}为半径的圆的切线，切点分别为{x}、{y}")
        raise AssertionError(cl.name)  # pragma: no cover - every fixing clause of WORDED is above
    if not all(cl.name in _LOCI for cl in clauses) or len(pts) != 1:
        raise GeoDSLError(f"no worded form for `{text}`", text=text,
                          hint="a fixing clause alone, or one or two locus clauses")
    x = _name(pts[0])
    targets = [_target(cl.name, [str(a) for a in cl.args[1:]], lang) for cl in clauses]
    if len(targets) == 1:
        return f"take a point {x} on {targets[0]}" if en else f"在{targets[0]}上任取一点{x}"
    if not en and any(cl.name == "on_opline" for cl in clauses):
        raise GeoDSLError(f"no Chinese words for `{text}`: “的延长线” meeting a line or circle reads as the line",
                          text=text, hint="print it in English, or use on_line")
    return (f"let {x} be the intersection of {targets[0]} and {targets[1]}" if en
            else f"设{targets[0]}与{targets[1]}交于点{x}")


__all__ = ["AuxReading", "HINTS", "READ_LANGS", "WORDED", "detect_lang", "from_candidate", "read_aux",
           "segment_text", "to_words"]
