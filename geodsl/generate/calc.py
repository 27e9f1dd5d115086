"""GeomVerse-style calculation problems: shapes chained by shared sides,
numeric givens, a question whose answer needs D hops, exact answers.

A problem is a chain of D shapes. The first (the *root*) has givens that
fix one of its sides; each next shape is drawn outward on a side of the
one before (the side they share) and has givens of its own (an angle, a
side, an area or a perimeter) that, with the shared side, fix the side it
passes on; the question asks for the area, the perimeter or a side of the
last shape. So the answer needs every shape: D hops. With distractor
shapes (the default, each problem with probability 1/2), one or two more
shapes hang on sides of the chain with givens of their own that the answer
does not need.

Shapes: square, rectangle, right triangle (right angle at the far end of
the shared side, or the shared side as hypotenuse), triangle given two
sides and the included angle, equilateral triangle, parallelogram, and
semicircle (last shape only). Angles are 30°, 45°, 60° (and 120°, 135°, 150°
as included angles), so every length is exact in radicals: sympy carries
every value exactly; the answer is the simplified exact expression, its
value, and the value with two decimals (GeomVerse's answers).

Every given and the answer are measured again on the figure's coordinates
(lengths, angles, polygon areas by the shoelace formula, perimeters): a
problem whose figure disagrees with its numbers is refused
(``inconsistent``), as is one whose shapes overlap (``overlap``).
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from ..lang.errors import GeoDSLError
from ..lang.notation import point_text
from ..realizer import realize
from ..realizer.rng import Random
from .outcome import Outcome
from .sampling import point_name

ACUTE = (30, 45, 60)
INCLUDED = (30, 45, 60, 120, 135, 150)
CHAIN = ("square", "rectangle", "right_triangle", "right_hyp", "sas_triangle", "equilateral", "parallelogram")
ROOTS = ("square", "rectangle", "right_triangle", "sas_triangle")
LAST_ONLY = ("semicircle",)
TOLERANCE = 1e-6
NOUNS = {"square": ("square", "正方形"), "rectangle": ("rectangle", "矩形"), "parallelogram": ("parallelogram", "平行四边形"),
         "right_triangle": ("triangle", "△"), "right_hyp": ("triangle", "△"), "sas_triangle": ("triangle", "△"),
         "equilateral": ("triangle", "△")}


@dataclass
class Measure:
    """A number the text states (or asks), and how to measure it on the figure."""

    kind: str  # length, angle (degrees), area, perimeter, arc
    points: tuple[str, ...]
    value: sp.Expr


@dataclass
class Shape:
    kind: str
    points: tuple[str, ...]
    base: tuple[str, str]
    sentence: dict[str, str]
    givens: list[Measure]
    area: sp.Expr
    perimeter: sp.Expr
    out: tuple[tuple[str, str], sp.Expr] | None
    outline: list[complex] = field(default_factory=list)
    """The polygon drawn (a semicircle: its arc, sampled)."""


def _deg(d: int) -> sp.Expr:
    return sp.pi * d / 180


def _num(x: sp.Expr) -> float:
    return float(sp.N(x, 30))


def _P(*names: str) -> str:
    return "".join(point_text(n) for n in names)


def _shown(x: sp.Expr) -> str:
    """A given as the text writes it: an integer, or two decimals."""
    x = sp.nsimplify(x)
    if x.is_Integer:
        return str(int(x))
    return f"{_num(x):.2f}"


class _Builder:
    """Places and names shapes; measures what the text says."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.coords: dict[str, complex] = {}
        self.count = 0
        self.shapes: list[Shape] = []

    def new(self) -> str:
        name = point_name(self.count)
        self.count += 1
        return name

    def pick(self, values: Sequence[int]) -> int:
        return values[self.rng.index(len(values))]

    def outward(self, p: str, q: str, owner: Shape | None) -> complex:
        """The unit normal of pq pointing away from the shape that owns it."""
        zp, zq = self.coords[p], self.coords[q]
        n = (zq - zp) / abs(zq - zp) * 1j
        if owner is None:
            return n
        centre = sum(owner.outline) / len(owner.outline)
        mid = (zp + zq) / 2
        return n if ((centre - mid).conjugate() * n).real < 0 else -n


def _rotate(z: complex, angle: float) -> complex:
    return z * cmath.exp(1j * angle)


def _build(b: _Builder, kind: str, p: str, q: str, length: sp.Expr, owner: Shape | None) -> Shape:
    """Shape ``kind`` drawn outward on pq (of exact length ``length``)."""
    zp, zq = b.coords[p], b.coords[q]
    n = b.outward(p, q, owner)
    u = (zq - zp) / abs(zq - zp)
    L = length
    Lf = _num(L)
    # The turn from pq towards the outside: +1 if n is u turned counter-clockwise.
    turn = 1 if abs(n - u * 1j) < 1e-9 else -1
    en, zh = "", ""
    givens: list[Measure] = []
    if kind in ("square", "rectangle", "parallelogram"):
        r, s = b.new(), b.new()
        pts = (p, q, r, s)
        if kind == "square":
            w: sp.Expr = L
            angle = 90
            en, zh = f"{_P(*pts)} is a square", f"{_P(*pts)}是正方形"
        elif kind == "rectangle":
            how = b.rng.index(3)
            angle = 90
            if how == 0:
                w = sp.Integer(b.pick(range(3, 13)))
                givens.append(Measure("length", (q, r), w))
                en, zh = (f"{_P(*pts)} is a rectangle with {_P(q, r)} = {w}", f"{_P(*pts)}是矩形，{_P(q, r)}={w}")
            elif how == 1:
                area = sp.Integer(b.pick(range(20, 121, 4)))
                w = sp.radsimp(area / L)
                givens.append(Measure("area", pts, area))
                en, zh = (f"{_P(*pts)} is a rectangle and its area is {area}",
                          f"{_P(*pts)}是矩形，其面积为{area}")
            else:
                extra = b.pick(range(2, 10))
                perimeter = sp.Integer(math.ceil(2 * Lf) + 2 * extra)
                w = sp.radsimp(perimeter / 2 - L)
                givens.append(Measure("perimeter", pts, perimeter))
                en, zh = (f"{_P(*pts)} is a rectangle and its perimeter is {perimeter}",
                          f"{_P(*pts)}是矩形，其周长为{perimeter}")
        else:
            angle = b.pick(INCLUDED[:3] + INCLUDED[3:])
            how = b.rng.index(2)
            if how == 0:
                w = sp.Integer(b.pick(range(3, 13)))
                givens.append(Measure("length", (q, r), w))
                en, zh = (f"{_P(*pts)} is a parallelogram with {_P(q, r)} = {w} and ∠{_P(p, q, r)} = {angle}°",
                          f"{_P(*pts)}是平行四边形，{_P(q, r)}={w}，∠{_P(p, q, r)}={angle}°")
            else:
                area = sp.Integer(b.pick(range(20, 121, 4)))
                w = sp.radsimp(area / (L * sp.sin(_deg(angle))))
                givens.append(Measure("area", pts, area))
                en, zh = (f"{_P(*pts)} is a parallelogram with area {area} and ∠{_P(p, q, r)} = {angle}°",
                          f"{_P(*pts)}是平行四边形，面积为{area}，∠{_P(p, q, r)}={angle}°")
            givens.append(Measure("angle", (p, q, r), sp.Integer(angle)))
        wf = _num(w)
        if wf <= 0.5:
            raise _Refused("degenerate")
        # r = q + w·(direction from q, turned from qp by `angle` towards the outside)
        dir_qr = _rotate(-u, -turn * math.radians(angle))
        zr = zq + wf * dir_qr
        zs = zr + (zp - zq)
        b.coords[r], b.coords[s] = zr, zs
        t = sp.sin(_deg(angle))
        area_e = sp.radsimp(L * w * t)
        perimeter_e = sp.radsimp(2 * (L + w))
        if kind == "square" or (kind == "rectangle" and givens and givens[0].kind == "length"):
            diag = sp.radsimp(sp.sqrt(L ** 2 + w ** 2))
            out = ((p, r), diag) if kind == "rectangle" or b.rng.coin() else ((q, r), w)
        elif kind == "parallelogram" and givens[0].kind == "length":
            diag = sp.radsimp(sp.sqrt(L ** 2 + w ** 2 - 2 * L * w * sp.cos(_deg(angle))))
            out = ((p, r), diag)
        else:
            out = ((q, r), w)
        shape = Shape(kind, pts, (p, q), {"en": en, "zh": zh}, givens, area_e, perimeter_e, out,
                      [zp, zq, zr, zs])
        return shape
    if kind in ("right_triangle", "right_hyp", "sas_triangle", "equilateral"):
        r = b.new()
        tri = (p, q, r)
        if kind == "right_triangle":  # right angle at q
            if b.rng.coin():
                theta = b.pick(ACUTE)
                qr = sp.radsimp(L * sp.tan(_deg(theta)))
                givens.append(Measure("angle", (q, p, r), sp.Integer(theta)))
                en, zh = (f"{_P(*tri)} is a right triangle with the right angle at {_P(q)} and ∠{_P(q, p, r)} = {theta}°",
                          f"{_P(*tri)}是直角三角形，∠{_P(p, q, r)}=90°，∠{_P(q, p, r)}={theta}°")
            else:
                qr = sp.Integer(b.pick(range(3, 13)))
                givens.append(Measure("length", (q, r), qr))
                en, zh = (f"{_P(*tri)} is a right triangle with the right angle at {_P(q)} and {_P(q, r)} = {qr}",
                          f"{_P(*tri)}是直角三角形，∠{_P(p, q, r)}=90°，{_P(q, r)}={qr}")
            pr = sp.radsimp(sp.sqrt(L ** 2 + qr ** 2))
            zr = zq + _num(qr) * n
            area_e = sp.radsimp(L * qr / 2)
            out = ((q, r), qr) if givens[0].kind == "angle" and b.rng.coin() else ((p, r), pr)
            sides = L + qr + pr
        elif kind == "right_hyp":  # pq the hypotenuse, right angle at r
            theta = b.pick(ACUTE)
            pr = sp.radsimp(L * sp.cos(_deg(theta)))
            qr = sp.radsimp(L * sp.sin(_deg(theta)))
            givens.append(Measure("angle", (q, p, r), sp.Integer(theta)))
            en, zh = (f"{_P(*tri)} is a right triangle with the right angle at {_P(r)} and ∠{_P(q, p, r)} = {theta}°",
                      f"{_P(*tri)}是直角三角形，∠{_P(p, r, q)}=90°，∠{_P(q, p, r)}={theta}°")
            zr = zp + _num(pr) * _rotate(u, turn * math.radians(theta))
            area_e = sp.radsimp(pr * qr / 2)
            out = ((p, r), pr) if b.rng.coin() else ((q, r), qr)
            sides = L + pr + qr
        elif kind == "sas_triangle":
            theta = b.pick(INCLUDED)
            pr = sp.Integer(b.pick(range(3, 13)))
            qr = sp.radsimp(sp.sqrt(sp.expand(L ** 2 + pr ** 2 - 2 * L * pr * sp.cos(_deg(theta)))))
            givens += [Measure("length", (p, r), pr), Measure("angle", (q, p, r), sp.Integer(theta))]
            en, zh = (f"{_P(*tri)} is a triangle with {_P(p, r)} = {pr} and ∠{_P(q, p, r)} = {theta}°",
                      f"在△{_P(*tri)}中，{_P(p, r)}={pr}，∠{_P(q, p, r)}={theta}°")
            zr = zp + _num(pr) * _rotate(u, turn * math.radians(theta))
            area_e = sp.radsimp(L * pr * sp.sin(_deg(theta)) / 2)
            out = ((q, r), qr)
            sides = L + pr + qr
        else:
            en, zh = f"{_P(*tri)} is an equilateral triangle", f"{_P(*tri)}是等边三角形"
            zr = zp + Lf * _rotate(u, turn * math.pi / 3)
            area_e = sp.radsimp(sp.sqrt(3) / 4 * L ** 2)
            out = ((p, r), L) if b.rng.coin() else ((q, r), L)
            sides = 3 * L
        b.coords[r] = zr
        return Shape(kind, tri, (p, q), {"en": en, "zh": zh}, givens, area_e, sp.radsimp(sides), out,
                     [zp, zq, zr])
    if kind == "semicircle":
        centre = (zp + zq) / 2
        arc = [centre + (zp - centre) * cmath.exp(-1j * turn * math.pi * k / 16) for k in range(17)]
        en, zh = (f"a semicircle is drawn outward on the diameter {_P(p, q)}",
                  f"以{_P(p, q)}为直径向外作半圆")
        return Shape(kind, (p, q), (p, q), {"en": en, "zh": zh}, [], sp.radsimp(sp.pi * L ** 2 / 8),
                     sp.radsimp(sp.pi * L / 2 + L), None, arc)
    raise AssertionError(kind)  # pragma: no cover - callers pass the kinds above


class _Refused(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _root(b: _Builder) -> tuple[str, str, sp.Expr, Measure]:
    """The root's base: two points, its length, and the given that fixes it."""
    p, q = b.new(), b.new()
    side = b.pick(range(3, 13))
    b.coords[p], b.coords[q] = 0j, complex(side, 0)
    return p, q, sp.Integer(side), Measure("length", (p, q), sp.Integer(side))


def _root_shape(b: _Builder) -> Shape:
    kind = ROOTS[b.rng.index(len(ROOTS))]
    p, q, L, given = _root(b)
    shape = _build(b, kind, p, q, L, None)
    if kind == "square":
        how = b.rng.index(3)
        if how == 0:
            shape.givens.insert(0, Measure("area", shape.points, L ** 2))
            shape.sentence = {"en": shape.sentence["en"] + f" and its area is {L ** 2}",
                              "zh": shape.sentence["zh"] + f"，其面积为{L ** 2}"}
        elif how == 1:
            shape.givens.insert(0, Measure("perimeter", shape.points, 4 * L))
            shape.sentence = {"en": shape.sentence["en"] + f" and its perimeter is {4 * L}",
                              "zh": shape.sentence["zh"] + f"，其周长为{4 * L}"}
        else:
            shape.givens.insert(0, given)
            shape.sentence = {"en": shape.sentence["en"] + f" with {_P(p, q)} = {L}",
                              "zh": shape.sentence["zh"] + f"，{_P(p, q)}={L}"}
    else:
        shape.givens.insert(0, given)
        shape.sentence = {"en": shape.sentence["en"] + f" and {_P(p, q)} = {L}",
                          "zh": shape.sentence["zh"] + f"，{_P(p, q)}={L}"}
    return shape


# ---------------------------------------------------------------- geometry checks


def _measure(m: Measure, coords: dict[str, complex], outline: Sequence[complex] | None = None) -> float:
    z = [coords[n] for n in m.points]
    if m.kind == "length":
        return abs(z[1] - z[0])
    if m.kind == "angle":  # ∠XVY with the vertex in the middle
        a, v, c = z
        return math.degrees(abs(cmath.phase((c - v) / (a - v))))
    poly = list(outline) if outline is not None else z
    if m.kind == "area":
        return abs(sum((poly[i].conjugate() * poly[(i + 1) % len(poly)]).imag for i in range(len(poly)))) / 2
    if m.kind == "perimeter":
        return sum(abs(poly[(i + 1) % len(poly)] - poly[i]) for i in range(len(poly)))
    raise AssertionError(m.kind)  # pragma: no cover


def _crosses(a: complex, b: complex, c: complex, d: complex) -> bool:
    def orient(p: complex, q: complex, r: complex) -> float:
        return ((q - p).conjugate() * (r - p)).imag
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    eps = 1e-9 * max(abs(b - a), abs(d - c)) ** 2
    return o1 * o2 < -eps and o3 * o4 < -eps


def _inside(z: complex, poly: Sequence[complex]) -> bool:
    """Strictly inside (ray casting, points near an edge are not inside)."""
    inside = False
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if abs(abs(z - a) + abs(z - b) - abs(b - a)) < 1e-7 * (1 + abs(b - a)):
            return False
        if (a.imag > z.imag) != (b.imag > z.imag):
            x = a.real + (z.imag - a.imag) * (b.real - a.real) / (b.imag - a.imag)
            if x > z.real:
                inside = not inside
    return inside


def _overlaps(new: Sequence[complex], old: Sequence[complex]) -> bool:
    for i in range(len(new)):
        for j in range(len(old)):
            if _crosses(new[i], new[(i + 1) % len(new)], old[j], old[(j + 1) % len(old)]):
                return True
    centre_new = sum(new) / len(new)
    centre_old = sum(old) / len(old)
    return _inside(centre_new, old) or _inside(centre_old, new)


# ---------------------------------------------------------------- problems


def _format(expr: sp.Expr) -> str:
    return sp.sstr(expr)


def make(seed: int, index: int, depth: int, langs: Sequence[str], ident: str, *,
         distractor_shapes: bool = True) -> Outcome:
    """Calculation problem ``index`` of the run seeded ``seed``: ``depth`` shapes (module docstring)."""
    out = Outcome(index)
    b = _Builder(Random(np.random.SeedSequence([seed, index, 11])))
    try:
        chain = [_root_shape(b)]
        for hop in range(1, depth):
            is_last = hop == depth - 1
            previous = chain[-1]
            assert previous.out is not None
            (p, q), length = previous.out
            kinds = CHAIN + (LAST_ONLY if is_last else ())
            kind = kinds[b.rng.index(len(kinds))]
            shape = _build(b, kind, p, q, length, previous)
            if any(_overlaps(shape.outline, s.outline) for s in chain[:-1]):
                raise _Refused("overlap")
            chain.append(shape)
        extras: list[Shape] = []
        if distractor_shapes and b.rng.coin():
            for _ in range(1 + b.rng.index(2)):
                host = chain[b.rng.index(len(chain))]
                free = _free_sides(host, chain + extras)
                if not free or host.kind == "semicircle":
                    continue
                p, q = free[b.rng.index(len(free))]
                kind = ("square", "right_triangle", "sas_triangle", "equilateral")[b.rng.index(4)]
                length = _side_length(host, p, q)
                extra = _build(b, kind, p, q, length, host)
                if any(_overlaps(extra.outline, s.outline) for s in chain + extras if s is not host):
                    continue
                extras.append(extra)
    except _Refused as exc:
        out.reason = exc.reason
        return out
    final = chain[-1]
    kind_q = ["area", "perimeter"] + (["side"] if final.out is not None else [])
    asked = kind_q[b.rng.index(len(kind_q))]
    if asked == "side":
        assert final.out is not None
        (x, y), answer = final.out
        question = {"en": f"Compute the length of {_P(x, y)}.", "zh": f"求{_P(x, y)}的长。"}
        measure = Measure("length", (x, y), answer)
    else:
        answer = final.area if asked == "area" else final.perimeter
        name = _P(*final.points)
        if final.kind == "semicircle":
            what = {"area": ("the area of the semicircle", "半圆的面积"),
                    "perimeter": ("the perimeter of the semicircle (its arc and diameter)", "半圆的周长（弧与直径）")}
        else:
            en_noun, zh_noun = NOUNS[final.kind]
            what = {"area": (f"the area of {en_noun} {name}", f"{zh_noun}{name}的面积"),
                    "perimeter": (f"the perimeter of {en_noun} {name}", f"{zh_noun}{name}的周长")}
        question = {"en": f"Compute {what[asked][0]}.", "zh": f"求{what[asked][1]}。"}
        measure = Measure(asked, final.points, answer)
    answer = sp.sqrtdenest(sp.radsimp(sp.simplify(answer)))
    value = _num(answer)
    # Every number of the text, and the answer, measured on the figure.
    for shape in chain + extras:
        for m in shape.givens:
            outline = shape.outline if m.kind in ("area", "perimeter") else None
            if not math.isclose(_measure(m, b.coords, outline), _num(m.value), rel_tol=TOLERANCE):
                out.reason = "inconsistent"
                return out
    if final.kind != "semicircle" or asked == "side":
        outline = final.outline if asked in ("area", "perimeter") else None
        if not math.isclose(_measure(measure, b.coords, outline), value, rel_tol=TOLERANCE):
            out.reason = "inconsistent"
            return out
    elif not math.isclose(_semicircle(final, b.coords, asked), value, rel_tol=TOLERANCE):
        out.reason = "inconsistent"
        return out
    sentences = {lang: _sentences(chain, extras, lang) for lang in langs}
    texts = {lang: {"premise": sentences[lang], "question": question[lang],
                    "full": sentences[lang] + (" " if lang == "en" else "") + question[lang]} for lang in langs}
    placed = "; ".join(f"{n}@{_coord(z.real)}_{_coord(z.imag)} = free {n}" for n, z in b.coords.items())
    query = f" ? lcompute {measure.points[0]} {measure.points[1]}" if asked == "side" else ""
    try:
        diagram = realize(placed + query, seed=0, diagrams=1)[0]
    except GeoDSLError:
        out.reason = "unrealizable"
        return out
    from ..realizer.render import figure_bytes

    outlines = [s.outline for s in chain + extras]
    out.figures = {"png": figure_bytes(diagram, "png", caption="", outlines=outlines),
                   "svg": figure_bytes(diagram, "svg", caption="", outlines=outlines)}
    record: dict[str, object] = {
        "id": ident, "kind": "calc", "seed": seed, "index": index,
        "premise": placed,
        "question": {lang: texts[lang]["full"] for lang in langs},
        "text": texts,
        "answer": {"text": _format(answer), "value": round(value, 10), "formatted": f"{value:.2f}",
                   "latex": sp.latex(answer)},
        "asked": asked,
        "hops": len(chain),
        "shapes": [s.kind for s in chain],
        "distractor_shapes": [s.kind for s in extras],
        "givens": [{"kind": m.kind, "points": list(m.points), "value": _format(m.value)}
                   for s in chain + extras for m in s.givens],
        "difficulty": {"score": float(len(chain) * 10 + 5 * len(extras) + len(texts[langs[0]]["full"]) * 0.05),
                       "level": None,
                       "indicators": {"hops": len(chain), "distractor_shapes": len(extras),
                                      "description_length": len(texts[langs[0]]["full"])}},
        "figure": f"figures/{ident}.png",
        "figure_svg": f"figures/{ident}.svg",
    }
    lines = [f"problem: {ident}", "@source: geodsl generate", f"@seed: {seed}", f"@index: {index}",
             "@kind: calc", f"@question: {texts[langs[0]]['full']}", f"@answer: {_format(answer)}",
             f"@value: {value:.10g}", placed + query]
    out.gdl = "\n".join(lines) + "\n"
    out.record = record
    out.key = texts[langs[0]]["full"]
    return out


def _semicircle(shape: Shape, coords: dict[str, complex], asked: str) -> float:
    d = abs(coords[shape.points[1]] - coords[shape.points[0]])
    return math.pi * d * d / 8 if asked == "area" else math.pi * d / 2 + d


def _coord(x: float) -> str:
    text = f"{x:.12f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _sides(shape: Shape) -> list[tuple[str, str]]:
    pts = shape.points
    if shape.kind == "semicircle":
        return []
    return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]


def _used(chain: Sequence[Shape]) -> set[frozenset[str]]:
    used: set[frozenset[str]] = set()
    for s in chain:
        used.add(frozenset(s.base))
        if s.out is not None:
            used.add(frozenset(s.out[0]))
    return used


def _free_sides(host: Shape, shapes: Sequence[Shape]) -> list[tuple[str, str]]:
    used = _used(shapes)
    return [side for side in _sides(host) if frozenset(side) not in used]


def _side_length(shape: Shape, p: str, q: str) -> sp.Expr:
    """The length of side pq of the shape a distractor shape hangs on. Only
    the distractor's drawing uses it (its givens do not depend on it, and
    nothing asked does), so the figure's length, as a float, is enough."""
    z = abs(shape.outline[shape.points.index(q)] - shape.outline[shape.points.index(p)])
    return sp.Float(z, 30)


def _sentences(chain: Sequence[Shape], extras: Sequence[Shape], lang: str) -> str:
    parts = [s.sentence[lang] for s in chain] + [s.sentence[lang] for s in extras]
    if lang == "zh":
        return "".join(p + "。" for p in parts)
    return " ".join(p[0].upper() + p[1:] + "." for p in parts)
