"""What a worded construction means: the parse tree of
:mod:`geodsl.lang.aux_lexer` to constructions of the rulebase, in the context
of one problem.

Two steps. :class:`_Phrases` (a Lark transformer, shared by the English and
the Chinese grammar) turns the tree into phrases — "draw this line, ending
where it meets that one" — that know nothing of the problem. A
:class:`Resolver` then reads each phrase against the problem: which points
exist and which the phrase introduces, which circle "⊙O" is (the premise
says which points lie on a circle centred O), which triangle an altitude
belongs to; it writes each construction as canonical clause text and has
the language's own reader (:class:`~geodsl.lang.semantics.ProblemReader`)
check it, so a worded construction is exactly as well formed as the same
construction typed in the DSL. Every error is located in the worded text.

The mapping, phrase by phrase, is docs/aux.md's table; the one choice
worth stating here: a new point on a *named* line or circle that the text
calls a meeting point is the intersection of two loci (``x = on_line x a b,
on_circle x o c``, the sampler then keeps the candidate that is not an
existing point — "meets ⊙O again"), and a point merely "on" something is
one locus clause (a free point on it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from lark import Token, Transformer, Tree, v_args

from .ast import Construction, Problem
from .definitions import rulebase
from .errors import GeoDSLError, Location, PointError, SyntaxErrorGDL
from .aux_lexer import Where, split_points
from .limits import DEFAULT_LIMITS
from .lines import Line
from .semantics import ProblemReader, did_you_mean
from .syntax import RawBody, parse_line

# ---------------------------------------------------------------- phrases


@dataclass(frozen=True)
class Ref:
    """A point as the text writes it: its DSL name, its spelling, its offset."""

    name: str
    text: str
    start: int


@dataclass(frozen=True)
class Run:
    """One run of point names (``AB``)."""

    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


@dataclass(frozen=True)
class Target:
    """A line, circle or arc a new point lies on. ``runs`` are its point
    runs in the order the kind expects; ``ref`` an inner target (the line a
    perpendicular is drawn to, an arc's circle); ``word``: ``line`` when the
    text says "line AB", ``side`` for "side AB", ``from`` for "the
    perpendicular from A"."""

    kind: str
    runs: tuple[Run, ...]
    start: int
    end: int
    inner: "Target | None" = None
    word: str | None = None


@dataclass(frozen=True)
class Mark:
    """A piece of a phrase that only labels its runs: ``beyond``, ``tri``,
    ``angle``, ``opposite``, ``mirror`` (``line`` set for "line BC"),
    ``centre`` (the centre's kind), ``meet_end``, ``not_containing``."""

    kind: str
    runs: tuple[Run, ...] = ()
    word: str | None = None
    line: bool = False


@dataclass(frozen=True)
class Items:
    """A list: of point runs (``plist``) or of targets (``tlist``)."""

    kind: str
    items: tuple[object, ...]


@dataclass(frozen=True)
class Ending:
    """How a drawn line or circle ends: ``meet`` (targets, new points),
    ``at``/``foot`` (a new point), ``touch`` (touch points), ``centre``."""

    kind: str
    targets: tuple[Target, ...] = ()
    runs: tuple[Run, ...] = ()


@dataclass(frozen=True)
class Phrase:
    """One construction as the text states it, before the problem is consulted."""

    kind: str
    start: int
    end: int
    runs: tuple[Run, ...] = ()
    targets: tuple[Target, ...] = ()
    marks: tuple[Mark, ...] = ()
    lists: tuple[Items, ...] = ()
    ending: Ending | None = None
    through: Run | None = None
    drawn: "Phrase | None" = None
    text: str = ""
    parts: tuple["Phrase", ...] = ()
    """Phrases inside this one (the definition of `let X be ...`)."""

    def mark(self, kind: str) -> Mark | None:
        return next((m for m in self.marks if m.kind == kind), None)


def _span(children: Iterable[object]) -> tuple[int, int]:
    start, end = 10**9, 0
    for c in children:
        if isinstance(c, Token):
            s, e = c.start_pos or 0, c.end_pos or 0
        elif isinstance(c, (Target, Phrase)):
            s, e = c.start, c.end
        elif isinstance(c, Run):
            s, e = c.start, c.end
        elif isinstance(c, (Mark, Items, Ending)):
            inner = [*getattr(c, "runs", ()), *getattr(c, "targets", ()), *getattr(c, "items", ())]
            if not inner:
                continue
            s, e = _span(inner)
        else:
            continue
        start, end = min(start, s), max(end, e)
    return (0, 0) if end == 0 else (start, end)


def _runs(children: Sequence[object]) -> tuple[Run, ...]:
    return tuple(c for c in children if isinstance(c, Run))


def _targets(children: Sequence[object]) -> tuple[Target, ...]:
    return tuple(c for c in children if isinstance(c, Target))


def _marks(children: Sequence[object]) -> tuple[Mark, ...]:
    return tuple(c for c in children if isinstance(c, Mark))


def _lists(children: Sequence[object]) -> tuple[Items, ...]:
    return tuple(c for c in children if isinstance(c, Items))


def _words(children: Sequence[object]) -> set[str]:
    return {c.type for c in children if isinstance(c, Token)}


@v_args(inline=False)
class _Phrases(Transformer):
    """The tree to phrases; one method per alias of the two grammars."""

    def POINTS(self, tok: Token) -> Run:  # noqa: N802 - the terminal's name
        return Run(str(tok), tok.start_pos or 0)

    # -- lists and marks ----------------------------------------------------------
    def plist(self, c: list[object]) -> Items:
        out: list[object] = []
        for x in c:
            if isinstance(x, Items):
                out.extend(x.items)
            elif isinstance(x, Run):
                out.append(x)
        return Items("plist", tuple(out))

    plist2 = nlist = plist

    def tlist(self, c: list[object]) -> Items:
        out: list[object] = []
        for x in c:
            if isinstance(x, Items):
                out.extend(x.items)
            elif isinstance(x, Target):
                out.append(x)
        return Items("tlist", tuple(out))

    def beyond(self, c: list[object]) -> Mark:
        return Mark("beyond", _runs(c))

    def tri(self, c: list[object]) -> Mark:
        return Mark("tri", _runs(c))

    def angle(self, c: list[object]) -> Mark:
        return Mark("angle", _runs(c))

    def opposite(self, c: list[object]) -> Mark:
        return Mark("opposite", _runs(c))

    def not_containing(self, c: list[object]) -> Mark:
        return Mark("not_containing", _runs(c))

    def meet_end(self, c: list[object]) -> Mark:
        return Mark("meet_end", _runs(c))

    def mirror(self, c: list[object]) -> Mark:
        return Mark("mirror", _runs(c), line=bool(_words(c) & {"LINE", "ZHIXIAN"}))

    def centre(self, c: list[object]) -> Mark:
        word = next(x.type for x in c if isinstance(x, Token))
        kind = {"ORTHOCENTRE": "orthocentre", "CHUIXIN": "orthocentre", "INCENTRE": "incentre",
                "NEIXIN": "incentre", "CIRCUMCENTRE": "circumcentre", "WAIXIN": "circumcentre",
                "EXCENTRE": "excentre", "PANGXIN": "excentre", "CENTROID": "centroid",
                "ZHONGXIN": "centroid"}[word]
        return Mark("centre", (), kind)

    def of_side(self, c: list[object]) -> object:
        return next(x for x in c if isinstance(x, (Mark, Target)))

    def side(self, c: list[object]) -> object:
        return next(x for x in c if isinstance(x, Target))

    def of_circle(self, c: list[object]) -> object:
        return next(x for x in c if isinstance(x, Target))

    def of_tri(self, c: list[object]) -> object:
        return next(x for x in c if isinstance(x, Mark))

    def circle_name(self, c: list[object]) -> Mark:
        return Mark("centre_name", _runs(c))

    def such(self, c: list[object]) -> None:
        return None

    def ext_seg(self, c: list[object]) -> Run:
        return next(x for x in c if isinstance(x, Run))

    at = it = thru = centred = mirror_word = such

    # -- targets ----------------------------------------------------------------
    def _target(self, kind: str, c: list[object], word: str | None = None) -> Target:
        inner = _targets(c)
        marks = _marks(c)
        runs = list(_runs(c))
        for m in marks:
            runs.extend(m.runs)
        start, end = _span(c)
        return Target(kind, tuple(runs), start, end, inner[0] if inner else None, word)

    def t_line(self, c: list[object]) -> Target:
        words = _words(c)
        word = "line" if words & {"LINE", "ZHIXIAN"} else "side" if words & {"SIDE", "BIAN"} else None
        return self._target("line", c, word)

    def t_extension(self, c: list[object]) -> Target:
        return self._target("extension", c)

    def t_segment(self, c: list[object]) -> Target:
        return self._target("segment", c)

    def t_bline(self, c: list[object]) -> Target:
        return self._target("bline", c)

    def t_perp(self, c: list[object]) -> Target:
        return self._target("perp", c, "from" if "FROM" in _words(c) else None)

    t_perp_after = t_perp

    def t_para(self, c: list[object]) -> Target:
        return self._target("para", c)

    t_para_after = t_para

    def t_bisector(self, c: list[object]) -> Target:
        return self._target("bisector", c)

    def t_tangent_at(self, c: list[object]) -> Target:
        return self._target("tangent", c)

    t_tangent_to = t_tangent_at

    def t_circle_named(self, c: list[object]) -> Target:
        return self._target("circle_named", c)

    def t_circle_last(self, c: list[object]) -> Target:
        return self._target("circle_last", c)

    def t_circum(self, c: list[object]) -> Target:
        return self._target("circum", c)

    def t_incircle(self, c: list[object]) -> Target:
        return self._target("incircle", c)

    def t_circle_centre(self, c: list[object]) -> Target:
        return self._target("circle_centre", c)

    def t_circle_radius(self, c: list[object]) -> Target:
        return self._target("circle_radius", c)

    def t_dia(self, c: list[object]) -> Target:
        return self._target("dia", c)

    def t_minor_arc(self, c: list[object]) -> Target:
        return self._target("minor_arc", c)

    def t_arc(self, c: list[object]) -> Target:
        # runs: the arc's ends, then the point it does not contain (if said)
        return self._target("arc", c)

    def t_arc_zh(self, c: list[object]) -> Target:
        # 不含A的弧BC: the point first in the text, the arc's ends second
        t = self._target("arc", c)
        return replace(t, runs=t.runs[1:] + t.runs[:1])

    # -- phrases ------------------------------------------------------------------
    def _phrase(self, kind: str, c: list[object]) -> Phrase:
        start, end = _span(c)
        ending = next((x for x in c if isinstance(x, Ending)), None)
        parts = tuple(x for x in c if isinstance(x, Phrase))
        return Phrase(kind, start, end, _runs(c), _targets(c), _marks(c), _lists(c), ending, parts=parts)

    def start(self, c: list[object]) -> list[Phrase]:
        out = []
        for x in c:
            if isinstance(x, Phrase):
                out.append(x if x.kind not in _DRAWABLES else Phrase("draw", x.start, x.end, drawn=x))
        return out

    def claim(self, c: list[object]) -> Phrase:
        tok = next(x for x in c if isinstance(x, Token))
        return Phrase("claim", tok.start_pos or 0, tok.end_pos or 0, text=str(tok))

    def draw(self, c: list[object]) -> Phrase:
        drawn = next(x for x in c if isinstance(x, (Phrase, Target)))
        if isinstance(drawn, Target):
            drawn = Phrase("d_target", drawn.start, drawn.end, targets=(drawn,))
        ending = next((x for x in c if isinstance(x, Ending)), None)
        start, end = _span(c)
        return Phrase("draw", start, end, drawn=drawn, ending=ending)

    def through_draw(self, c: list[object]) -> Phrase:
        through = next(x for x in c if isinstance(x, Run))
        p = self.draw(c[c.index(through) + 1:])
        start, end = _span(c)
        return replace(p, start=start, end=end, through=through)

    def __default__(self, data: object, children: list[object], meta: object) -> object:
        name = str(data)
        if name.startswith("e_"):
            kind = {"e_meet": "meet", "e_meet_each": "meet_each", "e_at": "at", "e_foot": "foot",
                    "e_touch": "touch", "e_centre": "centre"}[name]
            runs: list[Run] = list(_runs(children))
            for lst in _lists(children):
                runs.extend(x for x in lst.items if isinstance(x, Run))
            if kind == "meet_each":
                lists = _lists(children)
                return Ending(kind, tuple(Target("line", (r,), r.start, r.end) for r in
                                          lists[0].items if isinstance(r, Run)),
                              tuple(r for r in lists[1].items if isinstance(r, Run)))
            return Ending(kind, _targets(children), tuple(runs))
        if name in ("d_dia_circle", "d_radius_circle"):
            # 以BC为直径作圆, 以A为圆心、AB为半径作圆: a drawn circle (and its ending)
            kind = "dia" if name == "d_dia_circle" else "circle_radius"
            start, end = _span(children)
            target = Target(kind, _runs(children), start, end)
            ending = next((x for x in children if isinstance(x, Ending)), None)
            return Phrase("draw", start, end, drawn=Phrase("d_target", start, end, targets=(target,)),
                          ending=ending)
        if name == "start":
            return self.start(children)
        return self._phrase(name, children)


_DRAWABLES = frozenset({"d_perp_named", "d_para_named", "d_perp_of", "d_para_of", "d_circumcircle",
                        "d_circumcircle_named", "d_circle", "d_altitude", "d_altitude_from", "d_median",
                        "d_bisector_named", "d_diameter", "d_segment", "d_tangents", "d_tangent_named",
                        "d_tangent_from", "d_tangent_zh", "d_parallelogram", "d_target"})


def phrases(tree: "Tree[Token]") -> list[Phrase]:
    """The phrases of a parse tree, in text order."""
    return _Phrases().transform(tree)


# ---------------------------------------------------------------- resolution

_TRIANGLES = frozenset({"triangle", "acute_triangle", "r_triangle", "iso_triangle", "iso_triangle0",
                        "ieq_triangle", "risos", "triangle12"})


@dataclass
class Step:
    """One construction read: the AST node, the points it restates (the
    text constructs a point the problem already has) and where it was written."""

    construction: Construction
    restated: tuple[str, ...]
    start: int
    end: int


@dataclass
class Meaning:
    """Everything one candidate text says."""

    steps: list[Step] = field(default_factory=list)
    segments: list[tuple[str, str]] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    new_points: list[str] = field(default_factory=list)


class Resolver:
    """Reads phrases against one problem (see the module docstring)."""

    def __init__(self, problem: Problem, where: Where, lang: str, hint: str,
                 dialect: str = "alphageometry") -> None:
        self.problem = problem
        self.where = where
        self.lang = lang
        self.hint = hint
        self.reader = ProblemReader(rulebase(), dialect, where.source, DEFAULT_LIMITS)
        self.known: dict[str, None] = dict.fromkeys(problem.points)
        self.by_lower = {p.lower(): p for p in problem.points}
        self.circles: dict[str, list[str]] = {}
        self.triangles: list[tuple[str, str, str]] = []
        for c in problem.premise.constructions:
            self._learn(c)
            for cl in c.clauses:
                if cl.name in _TRIANGLES:
                    a, b, c3 = (str(v) for v in cl.args[:3])
                    self.triangles.append((a, b, c3))
        self.last_circle: Target | None = None
        self.out = Meaning()
        self.phrase: Phrase | None = None

    # -- errors ---------------------------------------------------------------------
    def _error(self, cls: type[GeoDSLError], message: str, start: int, length: int,
               hint: str | None = None) -> GeoDSLError:
        line, column = self.where.line_col(start)
        return cls(message, source=self.where.source, line=line, column=column,
                   text=self.where.shown[start:start + max(1, length)], hint=hint or self.hint,
                   source_line=self.where.line_text(start))

    def _phrase_text(self) -> str:
        p = self.phrase
        return "" if p is None else self.where.shown[p.start:p.end]

    def fail(self, message: str, at: Run | Target | Phrase | None = None, hint: str | None = None) -> GeoDSLError:
        """A SyntaxErrorGDL about the current phrase, at ``at`` (default: the phrase)."""
        where = at if at is not None else self.phrase
        start = where.start if where is not None else 0
        end = where.end if where is not None else 0
        return self._error(SyntaxErrorGDL, f"`{self._phrase_text()}`: {message}", start, end - start,
                           hint or "docs/aux.md lists every phrasing and what it reads as")

    # -- points -----------------------------------------------------------------------
    def refs(self, run: Run, count: int | None = None, what: str = "") -> list[Ref]:
        """The points of a run, ``count`` of them if given (a multi-letter
        name of the problem, ``pa``, is one point when one is expected)."""
        parts = split_points(run.text)
        if parts is None:
            raise self.fail(f"`{run.text}` is not a run of point names", run,
                            "point names are capitals, optionally with a digit or a prime: A, G_1, A'")
        refs = [Ref(self._dsl(text), text, run.start + off) for text, off in parts]
        if count is not None and len(refs) != count:
            whole = run.text.lower()
            if count == 1 and whole in self.by_lower:
                return [Ref(self.by_lower[whole], run.text, run.start)]
            names = {1: "a point", 2: "a segment (two points)", 3: "a triangle (three points)",
                     4: "a quadrilateral (four points)"}
            raise self.fail(f"`{run.text}` names {len(refs)} point{'s' if len(refs) != 1 else ''} where "
                            f"{what or names.get(count, f'{count} points')} is expected", run)
        return refs

    def _dsl(self, text: str) -> str:
        from .notation import point_name
        name = point_name(text)
        return self.by_lower.get(name, name)

    def old(self, ref: Ref) -> str:
        """An existing point (of the problem or introduced earlier in the text)."""
        if ref.name not in self.known:
            guess = did_you_mean(ref.name, list(self.known))
            shown = ", ".join(_shown(p) for p in list(self.known)[:12])
            raise self._error(PointError, f"point `{ref.text}` is not in the problem", ref.start, len(ref.text),
                              (f"did you mean `{_shown(guess)}`? " if guess else "")
                              + f"a construction may use the problem's points ({shown}) and the "
                                "points it introduces")
        return ref.name

    def pair(self, run: Run, what: str = "") -> tuple[str, str]:
        a, b = self.refs(run, 2, what)
        if a.name == b.name:
            raise self.fail(f"`{run.text}` names one point twice", run)
        return self.old(a), self.old(b)

    def point(self, run: Run) -> str:
        return self.old(self.refs(run, 1)[0])

    def new(self, run: Run) -> Ref:
        return self.refs(run, 1)[0]

    # -- circles ------------------------------------------------------------------------
    def _learn(self, construction: Construction) -> None:
        """Record which points the construction puts on circles of known centre."""
        rb = rulebase()
        for clause in construction.clauses:
            cdef = rb.construction(clause.name)
            bind = dict(zip(cdef.params, clause.args))
            for fact in cdef.asserts:
                args = [str(bind.get(a, a)) if isinstance(a, str) else None for a in fact.args]
                if fact.name == "circle":
                    self._on_circle(args[0], args[1:4])
                elif fact.name == "cong" and args[0] == args[2] and args[0] is not None:
                    self._on_circle(args[0], [args[1], args[3]])

    def _on_circle(self, centre: str | None, points: Sequence[str | None]) -> None:
        if centre is None:
            return
        found = self.circles.setdefault(centre, [])
        for p in points:
            if p is not None and p != centre and p not in found:
                found.append(p)

    def centre_of(self, t: Target | None) -> str | None:
        """The named centre of a circle target, if it has one."""
        if t is None:
            return None
        if t.kind == "circle_last":
            return self.centre_of(self.last_circle) if self.last_circle is not None else self.only_circle(t)
        if t.kind in ("circle_named", "circle_centre", "circle_radius") and t.runs:
            refs = self.refs(t.runs[0])
            return self.old(refs[0]) if len(refs) == 1 else None
        if t.kind == "incircle":
            return self.incentre(t)
        return None

    def incentre(self, t: Target) -> str:
        """The incentre the premise constructs (of the triangle named, if one is)."""
        vertices = None if not t.runs else {self.old(r) for r in self.refs(t.runs[0], 3)}
        found = []
        for c in self.problem.premise.constructions:
            for cl in c.clauses:
                if cl.name in ("incenter", "incenter2"):
                    centre = str(cl.args[0] if cl.name == "incenter" else cl.args[3])
                    if vertices is None or {str(a) for a in cl.args[-3:]} == vertices:
                        found.append(centre)
        if len(found) != 1:
            raise self.fail(f"{'no incentre' if not found else 'more than one incentre'} in the problem for "
                            "the incircle", t, "construct the incentre first: `let I be the incentre of ABC`"
                            if self.lang == "en" else "先作内心：`设I为△ABC的内心`")
        return found[0]

    def only_circle(self, at: Target) -> str:
        """`the circle` when the text drew none: the problem's one circle of known centre."""
        centres = [o for o, pts in self.circles.items() if o in self.known and pts]
        if len(centres) != 1:
            raise self.fail("no circle has been drawn for `the circle` to be"
                            + (f", and the problem has {len(centres)}" if centres else ""), at,
                            "name the circle: `circle O`, `the circumcircle of ABC`" if self.lang == "en"
                            else "写出是哪个圆：`⊙O`、`△ABC的外接圆`")
        return centres[0]

    def through(self, centre: str, at: Run | Target) -> str:
        """A point on the circle centred ``centre``: the first the premise puts there."""
        order = {p: i for i, p in enumerate(self.known)}
        found = sorted((p for p in self.circles.get(centre, ()) if p in self.known), key=order.__getitem__)
        if not found:
            raise self.fail(f"no circle centred {_shown(centre)} in the problem", at,
                            f"name a point on it: `the circle centred {_shown(centre)} through A`"
                            if self.lang == "en" else
                            f"写出圆上一点：`以{_shown(centre)}为圆心、{_shown(centre)}A为半径的圆`")
        return found[0]

    def centre_through(self, point: str, at: Run | Phrase) -> str:
        """The centre of the one circle of known centre through ``point``."""
        centres = [o for o, pts in self.circles.items() if point in pts and o in self.known]
        if len(centres) != 1:
            what = "no circle" if not centres else f"{len(centres)} circles ({', '.join(map(_shown, centres))})"
            raise self.fail(f"{what} of known centre through {_shown(point)}", at,
                            "name the circle: `the diameter AE of circle O`" if self.lang == "en"
                            else "写出是哪个圆：`作⊙O的直径AE`")
        return centres[0]

    # -- clauses of targets ----------------------------------------------------------------
    def clause(self, t: Target, x: str, context: str) -> str:
        """The clause putting new point ``x`` on ``t`` (``context``: ``meet``
        for an intersection, ``point`` for a point merely on it)."""
        kind = t.kind
        if kind == "line":
            a, b = self.pair(t.runs[0])
            if context == "point" and t.word != "line":
                return f"between_bound {x} {a} {b}"
            return f"on_line {x} {a} {b}"
        if kind == "segment":
            a, b = self.pair(t.runs[0])
            return f"between_bound {x} {a} {b}"
        if kind == "extension":
            a, b = self.pair(t.runs[0])
            if len(t.runs) > 1:
                tail = self.point(t.runs[1])
                if tail not in (a, b):
                    raise self.fail(f"the extension of {_seg(a, b)} goes beyond {_shown(a)} or {_shown(b)}, "
                                    f"not {_shown(tail)}", t.runs[1])
                return f"on_opline {x} {tail} {a if tail == b else b}"
            return f"on_opline {x} {b} {a}" if context == "point" else f"on_line {x} {a} {b}"
        if kind in ("perp", "para"):
            through = self.point(next(r for r in t.runs))
            assert t.inner is not None
            a, b = self.line_of(t.inner)
            return f"{'on_tline' if kind == 'perp' else 'on_pline'} {x} {through} {a} {b}"
        if kind == "bline":
            a, b = self.pair(t.runs[0])
            return f"on_bline {x} {a} {b}"
        if kind == "bisector":
            a, v, c = (self.old(r) for r in self.refs(t.runs[0], 3, "an angle (three points)"))
            return f"angle_bisector {x} {a} {v} {c}"
        if kind == "tangent":
            at = self.point(t.runs[0])
            centre = self.centre_of(t.inner)
            if centre is None:
                raise self.fail("a tangent needs the circle's centre", t, "write `the tangent at A to circle O`")
            return f"lc_tangent {x} {at} {centre}"
        if kind == "circle_named":
            refs = self.refs(t.runs[0])
            if len(refs) == 3:
                a, b, c = (self.old(r) for r in refs)
                return f"on_circum {x} {a} {b} {c}"
            if len(refs) != 1:
                raise self.fail(f"`{t.runs[0].text}` is not a circle: name its centre (`circle O`) or three "
                                "points on it (`circle ABC`)", t.runs[0])
            o = self.old(refs[0])
            return f"on_circle {x} {o} {self.through(o, t)}"
        if kind == "circle_last":
            if self.last_circle is None:
                o = self.only_circle(t)
                return f"on_circle {x} {o} {self.through(o, t)}"
            return self.clause(self.last_circle, x, context)
        if kind == "circum":
            a, b, c = (self.old(r) for r in self.refs(t.runs[0], 3))
            return f"on_circum {x} {a} {b} {c}"
        if kind == "incircle":
            i = self.incentre(t)
            return f"on_circle {x} {i} {self.through(i, t)}"
        if kind == "circle_centre":
            o, p = self.point(t.runs[0]), self.point(t.runs[1])
            return f"on_circle {x} {o} {p}"
        if kind == "circle_radius":
            o = self.point(t.runs[0])
            u, v = self.pair(t.runs[1], "a radius (two points)")
            if u == o:
                return f"on_circle {x} {o} {v}"
            if v == o:
                return f"on_circle {x} {o} {u}"
            return f"eqdistance {x} {o} {u} {v}"
        if kind == "dia":
            a, b = self.pair(t.runs[0], "a diameter (two points)")
            return f"on_dia {x} {a} {b}"
        if kind == "minor_arc":
            a, b = self.pair(t.runs[0], "an arc's ends (two points)")
            found = self.centre_of(t.inner) if t.inner is not None else None
            o = found if found is not None else self.centre_both(a, b, t)
            return f"on_minor_arc {x} {o} {a} {b}"
        if kind == "arc":
            a, b = self.pair(t.runs[0], "an arc's ends (two points)")
            if len(t.runs) < 2:
                raise self.fail(f"which arc {_seg(a, b)}?", t,
                                "say `the minor arc BC` or `the arc BC not containing A`" if self.lang == "en"
                                else "写明：`劣弧BC` 或 `不含A的弧BC`")
            outside = self.point(t.runs[1])
            return f"on_arc {x} {outside} {a} {b}"
        raise AssertionError(f"unknown target kind {kind}")  # pragma: no cover - the grammar makes none other

    def centre_both(self, a: str, b: str, at: Target) -> str:
        centres = [o for o, pts in self.circles.items() if a in pts and b in pts and o in self.known]
        if len(centres) != 1:
            raise self.fail(f"{'no circle' if not centres else 'more than one circle'} of known centre "
                            f"passes through {_shown(a)} and {_shown(b)}", at,
                            "name the circle: `the minor arc BC of circle O`" if self.lang == "en"
                            else "写出是哪个圆：`⊙O的劣弧BC`")
        return centres[0]

    def line_of(self, t: Target) -> tuple[str, str]:
        """The two points naming a line target (``AB``, ``line AB``, ``side AB``)."""
        assert t.kind in ("line", "segment", "extension"), t.kind  # the grammar names lines by points
        return self.pair(t.runs[0])

    def same_line(self, t: Target, a: str, b: str) -> bool:
        return t.kind in ("line", "segment", "extension") and set(self.pair(t.runs[0])) == {a, b}

    # -- steps --------------------------------------------------------------------------
    def make(self, points: Sequence[Ref], clauses: Sequence[str], segments: Sequence[tuple[str, str]] = ()) -> None:
        """Check and record one construction: ``points = clause, clause``."""
        names = [p.name for p in points]
        for p in points:
            if names.count(p.name) > 1:
                raise self.fail(f"`{p.text}` is introduced twice", Run(p.text, p.start))
        restated = tuple(n for n in names if n in self.known)
        text = f"{' '.join(names)} = {', '.join(clauses)}"
        assert self.phrase is not None
        line, column = self.where.line_col(self.phrase.start)
        loc = Location(self.where.source, line, column)
        try:
            raw = parse_line(text)
            assert isinstance(raw.body, RawBody)  # canonical clause text is one construction
            constructed = {n: loc for n in self.known if n not in restated}
            made = self.reader.construction(raw.body.statements[0], Line(1, text, raw), constructed, "aux")
        except GeoDSLError as exc:
            raise self._error(type(exc), f"`{self._phrase_text()}` reads as `{text}`: {exc.message}",
                              self.phrase.start, self.phrase.end - self.phrase.start, exc.hint) from None
        made = replace(made, span=loc, auxiliary=True,
                       clauses=tuple(replace(cl, span=loc) for cl in made.clauses))
        self.out.steps.append(Step(made, restated, self.phrase.start, self.phrase.end))
        for n in names:
            if n not in self.known:
                self.known[n] = None
                self.out.new_points.append(n)
        self._learn(made)
        for s in segments:
            self.segment(*s)

    def segment(self, a: str, b: str) -> None:
        if a != b and (a, b) not in self.out.segments and (b, a) not in self.out.segments:
            self.out.segments.append((a, b))

    def intersect(self, x: Ref, t1: Target, t2: Target, segments: Sequence[tuple[str, str]] = ()) -> None:
        self.make([x], [self.clause(t1, x.name, "meet"), self.clause(t2, x.name, "meet")], segments)

    # -- phrases ------------------------------------------------------------------------------
    def read(self, items: Sequence[Phrase]) -> Meaning:
        for p in items:
            self.phrase = p
            handler = getattr(self, "p_" + p.kind, None)
            if handler is None:  # pragma: no cover - every alias has a handler (a test checks)
                raise AssertionError(f"no handler for phrase `{p.kind}`")
            handler(p)
        return self.out

    def p_claim(self, p: Phrase) -> None:
        self.out.claims.append(p.text)

    def _segs(self, items: Sequence[Run]) -> list[tuple[str, str]]:
        refs = [self.refs(r) for r in items]
        if len(refs) == 2 and all(len(r) == 1 for r in refs):
            return [(self.old(refs[0][0]), self.old(refs[1][0]))]
        return [self.pair(r) for r in items]

    def p_connect(self, p: Phrase) -> None:
        runs = [r for r in p.lists[0].items if isinstance(r, Run)]
        segs = self._segs(runs)
        meet = p.mark("meet_end")
        if meet is not None:
            if len(segs) != 2:
                raise self.fail(f"{len(segs)} segments cannot meet in one point: connect two")
            x = self.new(meet.runs[0])
            self.make([x], [f"on_line {x.name} {segs[0][0]} {segs[0][1]}",
                            f"on_line {x.name} {segs[1][0]} {segs[1][1]}"], segs)
            return
        for s in segs:
            self.segment(*s)

    def p_connect_pair(self, p: Phrase) -> None:
        a = self.point(next(r for r in p.lists[0].items if isinstance(r, Run)))
        self.segment(a, self.point(p.runs[0]))

    def p_connect_extend(self, p: Phrase) -> None:
        runs = [r for r in p.lists[0].items if isinstance(r, Run)]
        if len(runs) != 1:
            raise self.fail("connect one segment to extend it")
        a, b = self.pair(runs[0])
        self.segment(a, b)
        x = self.new(p.runs[0])
        line = Target("line", (runs[0],), runs[0].start, runs[0].end)
        self.intersect(x, line, p.targets[0], [(b, x.name)])

    def _connected(self, p: Phrase) -> Run:
        runs = [r for r in p.lists[0].items if isinstance(r, Run)]
        if len(runs) != 1:
            raise self.fail("connect one segment to extend it")
        self.segment(*self.pair(runs[0]))
        return runs[0]

    def p_connect_extend_length(self, p: Phrase) -> None:
        seg = self._connected(p)
        self.p_extend_length(replace(p, runs=(seg, *p.runs)))

    def p_connect_extend_to(self, p: Phrase) -> None:
        seg = self._connected(p)
        self.p_extend_to(replace(p, runs=(seg, *p.runs)))

    def _tail(self, p: Phrase, a: str, b: str) -> tuple[str, str]:
        """(tail, other): the end a segment is extended beyond (``beyond A``), and the other."""
        beyond = p.mark("beyond")
        if beyond is None:
            return b, a
        tail = self.point(beyond.runs[0])
        if tail not in (a, b):
            raise self.fail(f"{_seg(a, b)} is extended beyond {_shown(a)} or {_shown(b)}, not {_shown(tail)}",
                            beyond.runs[0])
        return tail, (a if tail == b else b)

    def p_extend_meet(self, p: Phrase) -> None:
        a, b = self.pair(p.runs[0])
        tail, _ = self._tail(p, a, b)
        x = self.new(p.runs[-1])
        line = Target("line", (p.runs[0],), p.runs[0].start, p.runs[0].end)
        segs = [(tail, x.name)]
        target = p.targets[0]
        if target.kind == "extension":
            c, d = self.pair(target.runs[0])
            segs.append((d, x.name))
        self.intersect(x, line, target, segs)

    def p_extend_both(self, p: Phrase) -> None:
        (a, b), (c, d) = self.pair(p.runs[0]), self.pair(p.runs[1])
        x = self.new(p.runs[2])
        self.make([x], [f"on_line {x.name} {a} {b}", f"on_line {x.name} {c} {d}"], [(b, x.name), (d, x.name)])

    def p_extend_to(self, p: Phrase) -> None:
        a, b = self.pair(p.runs[0])
        tail, other = self._tail(p, a, b)
        x = self.new(p.runs[-1])
        self.make([x], [f"on_opline {x.name} {tail} {other}"], [(tail, x.name)])

    def p_extend_double(self, p: Phrase) -> None:
        a, d = self.pair(p.runs[0])
        x = self.new(p.runs[1])
        self.make([x], [f"mirror {x.name} {a} {d}"], [(d, x.name)])

    def p_extend_length(self, p: Phrase) -> None:
        a, b = self.pair(p.runs[0])
        tail, other = self._tail(p, a, b)
        x = self.new(p.runs[1])
        end, radius = self._length(p.runs[2], p.runs[3], x)
        if end == tail and set(radius) == {a, b}:
            self.make([x], [f"mirror {x.name} {other} {tail}"], [(tail, x.name)])
            return
        self.make([x], [f"on_opline {x.name} {tail} {other}", self._circle(x.name, end, radius)],
                  [(tail, x.name)])

    def _length(self, seg_a: Run, seg_b: Run, x: Ref) -> tuple[str, tuple[str, str]]:
        """``XY = UV`` with X (or Y) the new point: (the other end, (U, V))."""
        refs = self.refs(seg_a, 2)
        names = [r.name for r in refs]
        if x.name not in names:
            raise self.fail(f"the length `{seg_a.text}` should end at the new point {x.text}", seg_a)
        end_ref = refs[1] if refs[0].name == x.name else refs[0]
        return self.old(end_ref), self.pair(seg_b, "a length (two points)")

    @staticmethod
    def _circle(x: str, centre: str, radius: tuple[str, str]) -> str:
        u, v = radius
        if u == centre:
            return f"on_circle {x} {centre} {v}"
        if v == centre:
            return f"on_circle {x} {centre} {u}"
        return f"eqdistance {x} {centre} {u} {v}"

    def _cut(self, target: Target, seg_a: Run, seg_b: Run, x: Ref | None = None) -> None:
        if x is None:
            refs = self.refs(seg_a, 2)
            fresh = [r for r in refs if r.name not in self.known]
            x = fresh[-1] if fresh else refs[1]
        end, radius = self._length(seg_a, seg_b, x)
        self.make([x], [self.clause(target, x.name, "point"), self._circle(x.name, end, radius)])

    def p_cut_off(self, p: Phrase) -> None:
        self._cut(p.targets[0], p.runs[0], p.runs[1])

    p_cut_off_after = p_cut_off

    def p_on_take(self, p: Phrase) -> None:
        x = self.new(p.runs[0])
        self.make([x], [self.clause(p.targets[0], x.name, "point")])

    def p_on_take_length(self, p: Phrase) -> None:
        self._cut(p.targets[0], p.runs[1], p.runs[2], self.new(p.runs[0]))

    p_point_on = p_on_take

    def p_point_on_length(self, p: Phrase) -> None:
        self._cut(p.targets[0], p.runs[1], p.runs[2], self.new(p.runs[0]))

    def p_midpoint(self, p: Phrase) -> None:
        x = self.new(p.runs[0])
        a, b = self.pair(p.runs[1])
        self.make([x], [f"midpoint {x.name} {a} {b}"])

    def _midpoints(self, news: Sequence[Run], segs: Sequence[Run]) -> None:
        if len(news) != len(segs):
            raise self.fail(f"{len(news)} point{'s' if len(news) != 1 else ''} for {len(segs)} "
                            f"segment{'s' if len(segs) != 1 else ''}: name one midpoint per segment")
        for new, seg in zip(news, segs):
            x = self.new(new)
            a, b = self.pair(seg)
            self.make([x], [f"midpoint {x.name} {a} {b}"])

    def p_midpoints(self, p: Phrase) -> None:
        news, segs = ([r for r in lst.items if isinstance(r, Run)] for lst in p.lists[:2])
        self._midpoints(news, segs)

    def p_midpoints_zh(self, p: Phrase) -> None:
        segs = self._target_runs(p.lists[0])
        news = [r for r in p.lists[1].items if isinstance(r, Run)]
        self._midpoints(news, segs)

    def _target_runs(self, lst: Items) -> list[Run]:
        """A list of targets that must each be a bare run of points (``M、N``, ``AB、AC``)."""
        out = []
        for t in lst.items:
            if not isinstance(t, Target) or t.kind != "line" or t.word is not None or len(t.runs) != 1:
                raise self.fail("expected point names", t if isinstance(t, Target) else None)
            out.append(t.runs[0])
        return out

    def p_take_centre(self, p: Phrase) -> None:
        self._centre(self.new(p.runs[0]), p)

    def _centre(self, x: Ref, p: Phrase) -> None:
        kind = p.mark("centre")
        assert kind is not None
        tri = p.mark("tri")
        assert tri is not None
        a, b, c = (self.old(r) for r in self.refs(tri.runs[0], 3))
        if kind.word == "centroid":
            raise self.fail("the centroid has no one-clause construction", None,
                            "take the midpoints of two sides and intersect the medians: `take the midpoints "
                            "M, N of BC, CA; let BN and AM meet at G`")
        clause = {"orthocentre": "orthocenter", "incentre": "incenter", "circumcentre": "circle"}.get(kind.word or "")
        if clause is not None:
            self.make([x], [f"{clause} {x.name} {a} {b} {c}"])
            return
        opp = p.mark("opposite")
        if opp is None:
            raise self.fail("an excentre is opposite one vertex", None,
                            "say which: `the excentre J of ABC opposite A`" if self.lang == "en"
                            else "写明：`△ABC的A所对的旁心`")
        v = self.point(opp.runs[0])
        if v not in (a, b, c):
            raise self.fail(f"{_shown(v)} is not a vertex of {_tri(a, b, c)}", opp.runs[0])
        rest = [q for q in (a, b, c) if q != v]
        self.make([x], [f"excenter {x.name} {v} {rest[0]} {rest[1]}"])

    def p_intersection(self, p: Phrase) -> None:
        self.intersect(self.new(p.runs[0]), p.targets[0], p.targets[1])

    def p_foot_named(self, p: Phrase) -> None:
        x = self.new(p.runs[0])
        t = self.point(p.runs[1])
        a, b = self.line_of(p.targets[0])
        self.make([x], [f"foot {x.name} {t} {a} {b}"], [(t, x.name)])

    def p_meet(self, p: Phrase) -> None:
        targets = [t for t in p.lists[0].items if isinstance(t, Target)] + list(p.targets)
        if len(targets) != 2:
            raise self.fail(f"{len(targets)} lines or circles: a point is where two meet")
        self.intersect(self.new(p.runs[-1]), targets[0], targets[1])

    def p_let_be(self, p: Phrase) -> None:
        names = self._target_runs(p.lists[0]) if p.lists else list(p.runs[:1])
        definition = p.parts[0]
        if definition.kind == "l_midpoints_zh":
            segs = self._target_runs(definition.lists[0])
            self._midpoints(names, segs)
            return
        if len(names) != 1:
            raise self.fail(f"{len(names)} points for one definition")
        x = self.new(names[0])
        self.define(x, definition)

    def p_l_midpoints(self, p: Phrase) -> None:
        names = self._target_runs(p.lists[0])
        segs = [r for r in p.lists[1].items if isinstance(r, Run)]
        self._midpoints(names, segs)

    def define(self, x: Ref, d: Phrase) -> None:
        kind = d.kind
        if kind == "l_midpoint":
            a, b = self.pair(d.runs[0])
            self.make([x], [f"midpoint {x.name} {a} {b}"])
        elif kind == "l_point_on":
            self.make([x], [self.clause(d.targets[0], x.name, "point")])
        elif kind == "l_point_on_length":
            self._cut(d.targets[0], d.runs[0], d.runs[1], x)
        elif kind == "l_centre":
            self._centre(x, d)
        elif kind == "l_intersection":
            targets = list(d.targets) + [t for lst in d.lists for t in lst.items if isinstance(t, Target)]
            if len(targets) != 2:
                raise self.fail(f"{len(targets)} lines or circles: a point is where two meet")
            self.intersect(x, targets[0], targets[1])
        elif kind == "l_foot":
            t = self.point(d.runs[0])
            a, b = self.line_of(d.targets[0])
            self.make([x], [f"foot {x.name} {t} {a} {b}"], [(t, x.name)])
        elif kind == "l_reflection":
            self._reflect(x, d.runs[0], d.mark("mirror"))
        else:  # pragma: no cover - the grammar makes no other definition
            raise AssertionError(kind)

    def _reflect(self, x: Ref, source: Run, mirror: Mark | None) -> None:
        assert mirror is not None
        s = self.point(source)
        refs = self.refs(mirror.runs[0])
        if len(refs) == 1 and not mirror.line:
            self.make([x], [f"mirror {x.name} {s} {self.old(refs[0])}"])
        elif len(refs) == 2:
            a, b = self.pair(mirror.runs[0])
            self.make([x], [f"reflect {x.name} {s} {a} {b}"])
        else:
            raise self.fail(f"`{mirror.runs[0].text}` is neither a point nor a line", mirror.runs[0])

    def p_reflect(self, p: Phrase) -> None:
        self._reflect(self.new(p.runs[1]), p.runs[0], p.mark("mirror"))

    def p_d_parallelogram(self, p: Phrase) -> None:
        refs = self.refs(p.runs[0], 4)
        fresh = [i for i, r in enumerate(refs) if r.name not in self.known]
        if len(fresh) > 1:
            raise self.fail(f"a parallelogram of three known points has one new vertex; "
                            f"{', '.join(refs[i].text for i in fresh)} are all new", p.runs[0])
        i = fresh[0] if fresh else 3
        a, b, c = (self.old(refs[(i + k) % 4]) for k in (1, 2, 3))
        self.make([refs[i]], [f"parallelogram {a} {b} {c} {refs[i].name}"])

    # -- draw ---------------------------------------------------------------------------
    def p_draw(self, p: Phrase) -> None:
        drawn = p.drawn
        assert drawn is not None
        handler = getattr(self, "draw_" + drawn.kind.removeprefix("d_"), None)
        if handler is None:  # a phrase drawn with 作 that is a construction of its own (作A关于BC的对称点)
            if p.ending is not None:
                raise self.fail("this construction names its point itself: nothing may follow it",
                                hint="end the construction at the point's name")
            getattr(self, "p_" + drawn.kind)(drawn)
            return
        handler(drawn, p.ending, p.through)

    def _through_new(self, name: Run, through: Run | None) -> tuple[str, Ref]:
        """(the existing point a named line PQ is drawn through, the new one)."""
        p, q = self.refs(name, 2, "a line named by two points")
        if through is not None:
            t = self.new(through)
            if t.name not in (p.name, q.name):
                raise self.fail(f"the line {name.text} does not pass through {t.text}", through)
            return self.old(t), (q if t.name == p.name else p)
        if p.name in self.known:
            return p.name, q
        if q.name in self.known:
            return q.name, p
        raise self.fail(f"neither {p.text} nor {q.text} is a point of the problem", name)

    def _ending_point(self, ending: Ending, expected: Ref | None) -> Ref:
        x = self.new(ending.runs[-1])
        if expected is not None and x.name != expected.name:
            raise self.fail(f"the line is named with {expected.text}, but its end is {x.text}",
                            Run(x.text, x.start))
        return x

    def draw_perp_named(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        t, n = self._through_new(d.runs[0], through)
        a, b = self.line_of(d.targets[0])
        self._perp(t, a, b, ending, n)

    def _perp(self, t: str, a: str, b: str, ending: Ending | None, n: Ref | None) -> None:
        if ending is None or ending.kind in ("at", "foot"):
            x = n if ending is None else self._ending_point(ending, n)
            if x is None:
                raise self.fail("the perpendicular names no point: say where it ends (`with foot D`)")
            self.make([x], [f"foot {x.name} {t} {a} {b}"], [(t, x.name)])
        elif ending.kind == "meet":
            x = self._ending_point(ending, n)
            target = ending.targets[0]
            if self.same_line(target, a, b):
                self.make([x], [f"foot {x.name} {t} {a} {b}"], [(t, x.name)])
            else:
                self.make([x], [f"on_tline {x.name} {t} {a} {b}", self.clause(target, x.name, "meet")],
                          [(t, x.name)])
        elif ending.kind == "meet_each" and n is None:
            for target, run in zip(ending.targets, ending.runs):
                x = self.new(run)
                self.make([x], [f"on_tline {x.name} {t} {a} {b}", self.clause(target, x.name, "meet")],
                          [(t, x.name)])
        else:
            raise self.fail("a perpendicular ends at its foot or where it meets a line",
                            hint="write `with foot D` or `meeting AC at D`")

    def draw_para_named(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        t, n = self._through_new(d.runs[0], through)
        a, b = self.line_of(d.targets[0])
        self._para(t, a, b, ending, n)

    def _para(self, t: str, a: str, b: str, ending: Ending | None, n: Ref | None) -> None:
        if ending is None:
            if n is None:
                raise self.fail("the parallel names no point: say where it meets a line")
            self.make([n], [f"on_pline {n.name} {t} {a} {b}"], [(t, n.name)])
        elif ending.kind == "meet":
            x = self._ending_point(ending, n)
            self.make([x], [f"on_pline {x.name} {t} {a} {b}", self.clause(ending.targets[0], x.name, "meet")],
                      [(t, x.name)])
        elif ending.kind == "meet_each" and n is None:
            for target, run in zip(ending.targets, ending.runs):
                x = self.new(run)
                self.make([x], [f"on_pline {x.name} {t} {a} {b}", self.clause(target, x.name, "meet")],
                          [(t, x.name)])
        else:
            raise self.fail("a parallel meets a line; it has no foot",
                            hint="write where it meets: `CF ∥ AB meeting DE at F`")

    def _through(self, through: Run | None, what: str) -> str:
        if through is None:
            raise self.fail(f"through which point is the {what} drawn?",
                            hint="write the point: `through P draw the perpendicular to AB ...`"
                            if self.lang == "en" else "写明经过的点：`过点P作AB的垂线…`")
        return self.point(through)

    def draw_perp_of(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        t = self._through(through, "perpendicular")
        a, b = self.line_of(d.targets[0])
        self._perp(t, a, b, ending, None)

    def draw_para_of(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        t = self._through(through, "parallel")
        a, b = self.line_of(d.targets[0])
        self._para(t, a, b, ending, None)

    def draw_target(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        target = d.targets[0]
        if through is not None:
            raise self.fail("the line is given twice: by `through` and by its own description", through)
        if target.kind == "perp" and (ending is None or ending.kind in ("at", "foot", "meet")):
            t = self.point(target.runs[0])
            assert target.inner is not None
            a, b = self.line_of(target.inner)
            self._perp(t, a, b, ending, None)
            return
        if target.kind == "para":
            t = self.point(target.runs[0])
            assert target.inner is not None
            a, b = self.line_of(target.inner)
            self._para(t, a, b, ending, None)
            return
        self._drawn(target, ending)

    def _drawn(self, target: Target, ending: Ending | None) -> None:
        circle = target.kind in ("circle_named", "circle_centre", "circle_radius", "circum", "dia", "circle_last",
                                 "incircle")
        if ending is None:
            if not circle:
                raise self.fail("the line names no point: say where it meets another line or circle")
            self.last_circle = target
            return
        if ending.kind == "meet":
            if circle:
                self.last_circle = target
            self.intersect(self.new(ending.runs[-1]), target, ending.targets[0])
        elif ending.kind == "meet_each":
            if circle:
                self.last_circle = target
            if len(ending.targets) != len(ending.runs):
                raise self.fail(f"{len(ending.targets)} lines for {len(ending.runs)} points")
            for t, run in zip(ending.targets, ending.runs):
                self.intersect(self.new(run), target, t)
        else:
            raise self.fail(f"a drawn line or circle ends where it meets something, not `{ending.kind}`")

    def draw_circle(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        self._drawn(d.targets[0], ending)

    def draw_circumcircle(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        tri = d.mark("tri")
        assert tri is not None
        centre = d.runs[0] if d.runs else None
        named = d.mark("centre_name")
        if named is not None:
            centre = named.runs[0]
        target = Target("circum", tri.runs, d.start, d.end)
        if ending is not None and ending.kind == "centre":
            centre, ending = ending.runs[0], None
        if centre is not None:
            o = self.new(centre)
            a, b, c = (self.old(r) for r in self.refs(tri.runs[0], 3))
            self.make([o], [f"circle {o.name} {a} {b} {c}"])
        self._drawn(target, ending)

    draw_circumcircle_named = draw_circumcircle

    def _side(self, vertex: str, d: Phrase) -> tuple[str, str]:
        """The side opposite ``vertex``: from "of triangle ABC", "to BC", or the premise's one triangle."""
        tri = d.mark("tri")
        if tri is not None:
            names = [self.old(r) for r in self.refs(tri.runs[0], 3)]
            if vertex not in names:
                raise self.fail(f"{_shown(vertex)} is not a vertex of {_tri(*names)}", tri.runs[0])
            rest = [n for n in names if n != vertex]
            return rest[0], rest[1]
        lines = [t for t in d.targets]
        if lines:
            return self.line_of(lines[0])
        # A free triangle introduces its three vertices: a point is a vertex of one at most.
        found = [t for t in self.triangles if vertex in t]
        if not found:
            raise self.fail(f"no triangle of the premise has the vertex {_shown(vertex)}", None,
                            "say which: `the altitude AD of triangle ABC`" if self.lang == "en"
                            else "写明是哪个三角形：`作△ABC的高AD`")
        rest = [n for n in found[0] if n != vertex]
        return rest[0], rest[1]

    def draw_altitude(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        a_ref, foot = self.refs(d.runs[0], 2, "an altitude (vertex and foot)")
        a = self.old(a_ref)
        b, c = self._side(a, d)
        self._perp(a, b, c, ending, foot)

    def draw_altitude_from(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        a = self.point(d.runs[0])
        b, c = self._side(a, d)
        self._perp(a, b, c, ending, None)

    def draw_median(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        a_ref, m = self.refs(d.runs[0], 2, "a median (vertex and midpoint)")
        a = self.old(a_ref)
        b, c = self._side(a, d)
        if ending is not None:
            raise self.fail("a median ends at the midpoint it names")
        self.make([m], [f"midpoint {m.name} {b} {c}"], [(a, m.name)])

    def draw_bisector_named(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        a_ref, x = self.refs(d.runs[0], 2, "a bisector (vertex and end)")
        a = self.old(a_ref)
        angle = d.mark("angle")
        if angle is None:  # the angle of the triangle at the vertex
            p, q = self._side(a, d)
            v = a
        else:
            p, v, q = (self.old(r) for r in self.refs(angle.runs[0], 3, "an angle (three points)"))
        if v != a:
            raise self.fail(f"the bisector {d.runs[0].text} of ∠{_tri(p, v, q)} starts at {_shown(v)}, "
                            f"not {_shown(a)}", d.runs[0])
        if ending is None:
            self.make([x], [f"angle_bisector {x.name} {p} {v} {q}", f"on_line {x.name} {p} {q}"], [(a, x.name)])
        elif ending.kind == "meet":
            x = self._ending_point(ending, x)
            self.make([x], [f"angle_bisector {x.name} {p} {v} {q}", self.clause(ending.targets[0], x.name, "meet")],
                      [(a, x.name)])
        else:
            raise self.fail("a bisector ends where it meets a line")

    def draw_diameter(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        p, q = self.refs(d.runs[0], 2, "a diameter (two points)")
        start, x = (p, q) if p.name in self.known or q.name not in self.known else (q, p)
        a = self.old(start)
        circle = d.targets[0] if d.targets else None
        o = self.centre_of(circle) if circle is not None else None
        if o is None:
            o = self.centre_through(a, d)
        if ending is not None:
            raise self.fail("a diameter ends on its circle, at the point it names")
        self.make([x], [f"mirror {x.name} {a} {o}"], [(a, x.name)])

    def draw_segment(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        a, b = self.pair(d.runs[0])
        if ending is not None:
            raise self.fail("a segment between two points ends at them")
        self.segment(a, b)

    def _tangents(self, p: str, circle: Target, touch: Sequence[Ref]) -> None:
        o = self.centre_of(circle)
        if o is None:
            raise self.fail("tangents need the circle's centre", circle,
                            "write `circle O` or `the circle centred O through A`")
        r = self._radius_point(circle, o)
        if len(touch) == 2:
            self.make(list(touch), [f"tangent {touch[0].name} {touch[1].name} {p} {o} {r}"],
                      [(p, touch[0].name), (p, touch[1].name)])
        elif len(touch) == 1:
            self.make(list(touch), [f"on_dia {touch[0].name} {p} {o}", f"on_circle {touch[0].name} {o} {r}"],
                      [(p, touch[0].name)])
        else:
            raise self.fail("name the touch points of the tangents (one or two)")

    def _radius_point(self, circle: Target, o: str) -> str:
        if circle.kind == "circle_centre":
            return self.point(circle.runs[1])
        if circle.kind == "circle_radius":
            u, v = self.pair(circle.runs[1])
            if o in (u, v):
                return v if u == o else u
            raise self.fail("tangents to a circle given by a radius elsewhere are not read: name a point on it",
                            circle)
        if circle.kind == "circle_last" and self.last_circle is not None:
            return self._radius_point(self.last_circle, o)
        return self.through(o, circle)

    def _touch(self, ending: Ending | None) -> list[Ref]:
        if ending is None:
            return []
        if ending.kind != "touch":
            raise self.fail("tangents end where they touch the circle (`touching it at X and Y`)")
        return [self.new(r) for r in ending.runs]

    def draw_tangents(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        self._tangents(self.point(d.runs[0]), d.targets[0], self._touch(ending))

    draw_tangent_from = draw_tangents

    def draw_tangent_named(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        p, t = self.refs(d.runs[0], 2, "a tangent (point and touch point)")
        touch = self._touch(ending) or [t]
        if len(touch) != 1 or touch[0].name != t.name:
            raise self.fail(f"the tangent {d.runs[0].text} touches at {t.text}")
        self._tangents(self.old(p), d.targets[0], touch)

    def draw_tangent_zh(self, d: Phrase, ending: Ending | None, through: Run | None) -> None:
        t = self._through(through, "tangent")
        circle = d.targets[0]
        o = self.centre_of(circle)
        if o is None:
            raise self.fail("切线需要圆心：写`⊙O`或`以O为圆心…的圆`", circle)
        if t in self.circles.get(o, ()):
            # 过圆上一点A作切线: the tangent line at A
            if ending is None or ending.kind != "meet":
                raise self.fail("圆上一点的切线要写出与何线相交：`过A作⊙O的切线交BC于P`")
            x = self.new(ending.runs[-1])
            self.make([x], [f"lc_tangent {x.name} {t} {o}", self.clause(ending.targets[0], x.name, "meet")],
                      [(t, x.name)])
            return
        named = [r for lst in d.lists for r in lst.items if isinstance(r, Run)]
        touch: list[Ref] = []
        for run in named:
            refs = self.refs(run)
            if len(refs) == 2 and refs[0].name == t:
                touch.append(refs[1])
            elif len(refs) == 1:
                touch.append(refs[0])
            else:
                raise self.fail(f"切线{run.text}应从{_shown(t)}出发", run)
        if ending is not None:
            if ending.kind != "touch":
                raise self.fail("过圆外一点的切线以切点结束：`切点为A、B`")
            said = [self.new(r) for r in ending.runs]
            if touch and [r.name for r in said] != [r.name for r in touch]:
                raise self.fail("切线的名字与切点不一致")
            touch = said
        self._tangents(t, circle, touch)


def _shown(name: str | None) -> str:
    from .notation import point_text
    return "" if name is None else point_text(name)


def _seg(a: str, b: str) -> str:
    return _shown(a) + _shown(b)


def _tri(a: str, b: str, c: str) -> str:
    return _shown(a) + _shown(b) + _shown(c)
