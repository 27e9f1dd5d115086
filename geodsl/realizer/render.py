"""Figures of a diagram with matplotlib (PNG or SVG), for slides and papers.

What is drawn: the circles and lines the premise implies (lines as the
segment between their outermost points), every point as a dot with its
label set where it collides least with the drawing, the goal (or a chosen
option) highlighted in colour with the usual marks (right angles, equal-length
ticks, equal-angle arcs), and auxiliary constructions dashed. The caption
names the problem and the highlighted statement.

No global matplotlib state is touched (no pyplot): the figure is built on a
private canvas, so rendering is safe in a library and in threads. SVG output
is byte-for-byte reproducible (fixed hash salt, no date).
"""

from __future__ import annotations

import cmath
import io
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure
from matplotlib.patches import Arc, Circle as CirclePatch, Polygon

from ..lang.ast import Predicate
from ..lang.definitions import DrawItem, rulebase
from ..lang.errors import GeoDSLError
from ..lang.parser import parse_predicate
from .diagram import Diagram
from .loci import Degenerate, circumcenter, cross, dot

INK = "#1f2a36"
LINE = "#4a5a6a"
CIRCLE = "#3d6fa8"
HIGHLIGHT = "#d1495b"
AUX = "#2a9d8f"
LABEL_SIZE = 15
FORMATS = ("png", "svg")


def figure_bytes(diagram: Diagram, fmt: str = "png", *, highlight: Predicate | str | None = None,
                 caption: str | None = None, dpi: int = 160) -> bytes:
    """The figure of ``diagram`` as the bytes of a ``"png"`` or ``"svg"``
    file, written nowhere (for a web server, a notebook, a zip).
    ``highlight`` (a Predicate or DSL text such as ``"perp a d b c"``)
    defaults to the problem's first goal. Same diagram, same bytes."""
    fmt = fmt.lower().lstrip(".")
    if fmt not in FORMATS:
        raise GeoDSLError(f"unknown figure format `{fmt}`", text=fmt, hint="the formats are png and svg")
    if isinstance(highlight, str):
        highlight = parse_predicate(highlight, tuple(diagram.all_coords))
    if highlight is None and diagram.problem.goals:
        highlight = diagram.problem.goals[0]
    fig = _draw(diagram, highlight, caption)
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "geodsl", "svg.fonttype": "path"}):
        if fmt == "svg":
            fig.savefig(buf, format="svg", metadata={"Date": None})
        else:
            fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


def render(diagram: Diagram, out: str | Path, *, highlight: Predicate | str | None = None,
           caption: str | None = None, dpi: int = 160) -> Path:
    """Draw ``diagram`` into the file ``out`` (PNG or SVG, by its extension)
    and return its path. For the bytes without a file, use
    :func:`figure_bytes`. A bad extension or an unwritable path is a
    :class:`~geodsl.lang.errors.GeoDSLError` (nothing is drawn for a bad
    extension)."""
    path = Path(out)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise GeoDSLError(f"cannot write `{out}`: unknown figure format `{path.suffix or '(none)'}`",
                          source=str(out), hint="use a .png or .svg file name")
    data = figure_bytes(diagram, fmt, highlight=highlight, caption=caption, dpi=dpi)
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise GeoDSLError(f"cannot write {out}: {exc.strerror or exc}", source=str(out),
                          hint="check the directory exists and is writable") from None
    return path


# ---------------------------------------------------------------- layout


def _extent(points: Sequence[complex], circles: Iterable[tuple[complex, float]]) -> tuple[float, float, float, float]:
    xs = [p.real for p in points]
    ys = [p.imag for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    for c, r in circles:
        if r <= 1.2 * span:  # a huge circle is clipped, not allowed to shrink the figure
            xs += [c.real - r, c.real + r]
            ys += [c.imag - r, c.imag + r]
    return min(xs), max(xs), min(ys), max(ys)


def _segment_distance(p: complex, a: complex, b: complex) -> float:
    d = b - a
    n2 = dot(d, d)
    if n2 == 0:
        return abs(p - a)
    t = max(0.0, min(1.0, dot(p - a, d) / n2))
    return abs(p - (a + t * d))


def _place_labels(coords: dict[str, complex], segments: list[tuple[complex, complex]],
                  circles: list[tuple[complex, float]], unit: float) -> dict[str, complex]:
    """Label positions: for each point, the one of 16 directions whose label
    spot is farthest from other points, segments, circles and labels."""
    placed: dict[str, complex] = {}
    radius = 1.15 * unit
    directions = [cmath.rect(1.0, 2 * math.pi * k / 16 + math.pi / 4) for k in range(16)]
    order = sorted(coords, key=lambda n: (coords[n].real, coords[n].imag, n))
    for name in order:
        p = coords[name]
        best, best_score = p + directions[0] * radius, -math.inf
        for k, u in enumerate(directions):
            spot = p + u * radius
            clear = min([abs(spot - q) for n, q in coords.items() if n != name] + [4 * unit])
            clear = min(clear, min([abs(spot - q) / 1.3 for q in placed.values()] + [4 * unit]))
            for a, b in segments:
                clear = min(clear, _segment_distance(spot, a, b) * 1.6)
            for c, r in circles:
                clear = min(clear, abs(abs(spot - c) - r) * 1.6)
            score = clear - 1e-3 * k  # a stable preference on ties
            if score > best_score:
                best, best_score = spot, score
        placed[name] = best
    return placed


# ---------------------------------------------------------------- marks


def _highlight_parts(pred: Predicate, coords: dict[str, complex]) -> tuple[list[tuple[str, str]], list[tuple[str, ...]]]:
    """Segments (pairs of names) and polygons to highlight for a predicate:
    the ``segment``, ``span`` and ``polygon`` items of its ``draw:`` line."""
    segments: list[tuple[str, str]] = []
    polygons: list[tuple[str, ...]] = []
    for item, names in _draw_items(pred):
        if item.kind == "segment":
            segments.append((names[0], names[1]))
        elif item.kind == "span":  # the two points farthest apart
            segments.append(max(((a, b) for a in names for b in names),
                                key=lambda ab: abs(coords[ab[0]] - coords[ab[1]])))
        elif item.kind == "polygon":
            polygons.append(names)
    return segments, polygons


def _draw_items(pred: Predicate) -> list[tuple[DrawItem, tuple[str, ...]]]:
    """The predicate's ``draw:`` items with its point names; marks (ticks,
    right angles, arcs) claim the fact, so a negated one draws none."""
    pdef = rulebase().predicates.get(pred.name)
    if pdef is None:
        return []
    out = []
    for item in pdef.draw:
        if item.is_mark and pred.negated:
            continue
        out.append((item, tuple(str(pred.args[i]) for i in item.points)))
    return out


def _ticks(ax: object, a: complex, b: complex, count: int, unit: float, color: str) -> None:
    m = (a + b) / 2
    d = (b - a) / abs(b - a) if b != a else 1 + 0j
    n = d * 1j
    for i in range(count):
        c = m + d * (i - (count - 1) / 2) * 0.35 * unit
        s, e = c - n * 0.45 * unit, c + n * 0.45 * unit
        ax.plot([s.real, e.real], [s.imag, e.imag], color=color, lw=1.8, zorder=6,  # type: ignore[attr-defined]
                solid_capstyle="round")


def _right_angle(ax: object, a: complex, b: complex, c: complex, d: complex, unit: float) -> None:
    """A right-angle mark where lines ab and cd cross (if they cross nearby)."""
    u, v = b - a, d - c
    den = cross(u, v)
    if abs(den) < 1e-12 or abs(u) == 0 or abs(v) == 0:
        return
    x = a + u * (cross(c - a, v) / den)
    pts = (a, b, c, d)
    if min(abs(x - q) for q in pts) > 40 * unit:
        return
    s = 0.9 * unit
    # Point the mark into the quadrant where the segments lie.
    uu = u / abs(u) * (1 if dot(a + b - 2 * x, u) >= 0 else -1)
    vv = v / abs(v) * (1 if dot(c + d - 2 * x, v) >= 0 else -1)
    corner = [x + uu * s, x + uu * s + vv * s, x + vv * s]
    ax.plot([q.real for q in corner], [q.imag for q in corner], color=HIGHLIGHT, lw=1.4, zorder=6)  # type: ignore[attr-defined]


def _angle_arc(ax: object, a: complex, b: complex, c: complex, d: complex, unit: float,
               count: int) -> None:
    """An arc marking the angle from line ab to line cd at their crossing."""
    u, v = b - a, d - c
    den = cross(u, v)
    if abs(den) < 1e-12:
        return
    x = a + u * (cross(c - a, v) / den)
    if min(abs(x - q) for q in (a, b, c, d)) > 40 * unit:
        return
    # Use the rays from x towards the far ends of the two segments.
    r1 = (a if abs(a - x) > abs(b - x) else b) - x
    r2 = (c if abs(c - x) > abs(d - x) else d) - x
    t1, t2 = math.degrees(cmath.phase(r1)), math.degrees(cmath.phase(r2))
    sweep = (t2 - t1) % 360
    if sweep > 180:
        t1, t2 = t2, t1
    for i in range(count):
        rad = (1.6 + 0.35 * i) * unit
        ax.add_patch(Arc((x.real, x.imag), 2 * rad, 2 * rad, theta1=t1, theta2=t2,  # type: ignore[attr-defined]
                         color=HIGHLIGHT, lw=1.4, zorder=6))


# ---------------------------------------------------------------- drawing


def _draw(diagram: Diagram, highlight: Predicate | None, caption: str | None) -> Figure:
    coords = dict(diagram.all_coords)
    aux_names = {n for a in diagram.aux for n in a.points}
    aux_names |= {n for c in diagram.problem.premise.auxiliary for n in c.points}  # given after `|`
    lines, circles = diagram.lines(), diagram.circles()
    circle_geo = [(c.centre, c.radius) for c in circles]
    x0, x1, y0, y1 = _extent(list(coords.values()), circle_geo)
    span = max(x1 - x0, y1 - y0)
    unit = span / 45  # one "mark unit": sizes of ticks, label offsets, arcs
    pad = 0.09 * span
    width, height = x1 - x0 + 2 * pad, y1 - y0 + 2 * pad
    # Keep the aspect sane: no figure thinner than 1:2.
    if width < height / 2:
        extra = height / 2 - width
        x0, x1, width = x0 - extra / 2, x1 + extra / 2, height / 2
    if height < width / 2:
        extra = width / 2 - height
        y0, y1, height = y0 - extra / 2, y1 + extra / 2, width / 2
    inches = 6.4
    fw, fh = (inches, inches * height / width) if width >= height else (inches * width / height, inches)
    caption_lines = _caption(diagram, highlight, caption)
    fig = Figure(figsize=(fw, fh + 0.32 * len(caption_lines)))
    bottom = 0.32 * len(caption_lines) / (fh + 0.32 * len(caption_lines))
    ax = fig.add_axes((0, bottom, 1, 1 - bottom))
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(y0 - pad, y1 + pad)
    ax.set_aspect("equal")
    ax.axis("off")

    segments: list[tuple[complex, complex]] = []
    for c in circles:
        style = dict(fill=False, lw=1.3, zorder=1)
        if c.aux:
            ax.add_patch(CirclePatch((c.centre.real, c.centre.imag), c.radius, ec=AUX, ls=(0, (5, 4)),
                                     **style))  # type: ignore[arg-type]
        else:
            ax.add_patch(CirclePatch((c.centre.real, c.centre.imag), c.radius, ec=CIRCLE,
                                     **style))  # type: ignore[arg-type]
    premise_lines = [ln for ln in lines if not ln.aux]
    for ln in lines:
        a, b = coords[ln.points[0]], coords[ln.points[-1]]
        segments.append((a, b))
        if ln.aux:
            for s, e in _aux_parts(ln.points, premise_lines, coords):
                ax.plot([s.real, e.real], [s.imag, e.imag], color=AUX, lw=1.4, ls=(0, (5, 4)), zorder=2)
        else:
            ax.plot([a.real, b.real], [a.imag, b.imag], color=LINE, lw=1.4, zorder=2,
                    solid_capstyle="round")

    if highlight is not None and all(p in coords for p in highlight.points):
        _draw_highlight(ax, highlight, coords, diagram, unit)
        hsegs, hpolys = _highlight_parts(highlight, coords)
        segments += [(coords[a], coords[b]) for a, b in hsegs]
        for poly in hpolys:
            segments += [(coords[poly[i]], coords[poly[(i + 1) % len(poly)]]) for i in range(len(poly))]

    for name, p in coords.items():
        if name in aux_names:
            ax.plot([p.real], [p.imag], "o", ms=5.5, mfc="white", mec=AUX, mew=1.6, zorder=8)
        else:
            ax.plot([p.real], [p.imag], "o", ms=5, color=INK, zorder=8)
    circle_labels = [(c.centre, c.radius) for c in circles if c.radius <= 1.2 * span]
    for name, spot in _place_labels(coords, segments, circle_labels, unit).items():
        ax.text(spot.real, spot.imag, _label(name), fontsize=LABEL_SIZE, ha="center", va="center",
                color=AUX if name in aux_names else INK, zorder=9, fontfamily="DejaVu Serif",
                fontstyle="italic")
    for i, text in enumerate(caption_lines):
        fig.text(0.5, (0.32 * (len(caption_lines) - i) - 0.12) / (fh + 0.32 * len(caption_lines)),
                 text, ha="center", va="center", fontsize=10.5, color="#333333" if i else INK,
                 fontfamily="DejaVu Sans")
    return fig


def _aux_parts(points: Sequence[str], premise_lines: Sequence[object],
               coords: dict[str, complex]) -> list[tuple[complex, complex]]:
    """The parts of an auxiliary line to draw dashed: all of it, or, when it
    extends a premise line, only the extensions beyond the premise segment."""
    a, b = coords[points[0]], coords[points[-1]]
    for ln in premise_lines:
        shared = [n for n in ln.points if n in points]  # type: ignore[attr-defined]
        if len(shared) >= 2 and len(shared) == len(ln.points):  # type: ignore[attr-defined]
            s, e = coords[ln.points[0]], coords[ln.points[-1]]  # type: ignore[attr-defined]
            u = e - s
            t = [dot(coords[n] - s, u) / dot(u, u) for n in points]
            parts = []
            if min(t) < 0:
                parts.append((s + u * min(t), s))
            if max(t) > 1:
                parts.append((e, s + u * max(t)))
            return parts
    return [(a, b)]


def _label(name: str) -> str:
    """``g1`` is drawn as g with subscript 1."""
    head = name.rstrip("0123456789")
    tail = name[len(head):]
    if head and tail:
        return f"${head}_{{{tail}}}$"
    return f"${name}$" if name.isalpha() else name


def _caption(diagram: Diagram, highlight: Predicate | None, caption: str | None) -> list[str]:
    if caption is not None:
        return [caption] if caption else []
    out: list[str] = []
    name = diagram.problem.name
    if name:
        out.append(name if len(name) <= 70 else "…" + name[-69:])
    if highlight is not None:
        label = "goal"
        for o in diagram.problem.options:
            if o.predicate == highlight:
                label = f"option {o.label}"
        verdict = "holds" if diagram.holds(highlight) else "is false"
        out.append(f"{label}: {highlight.to_text()}  ({verdict} in this diagram)")
    return out


def _draw_highlight(ax: object, pred: Predicate, coords: dict[str, complex], diagram: Diagram,
                    unit: float) -> None:
    segs, polys = _highlight_parts(pred, coords)
    for a, b in segs:
        pa, pb = coords[a], coords[b]
        ax.plot([pa.real, pb.real], [pa.imag, pb.imag], color=HIGHLIGHT, lw=2.6, zorder=5,  # type: ignore[attr-defined]
                solid_capstyle="round", alpha=0.9)
    for poly in polys:
        pts = [(coords[n].real, coords[n].imag) for n in poly]
        ax.add_patch(Polygon(pts, closed=True, fc=HIGHLIGHT, alpha=0.16, ec=HIGHLIGHT, lw=2.0,  # type: ignore[attr-defined]
                             zorder=4))
    for item, names in _draw_items(pred):
        p = [coords[n] for n in names]
        if item.kind == "right-angle":
            _right_angle(ax, p[0], p[1], p[2], p[3], unit)
        elif item.kind == "ticks":
            _ticks(ax, p[0], p[1], item.count, unit, HIGHLIGHT)
        elif item.kind == "arc":
            _angle_arc(ax, p[0], p[1], p[2], p[3], unit, 1)
        elif item.kind == "circle":
            try:
                o = circumcenter(p[0], p[1], p[2], diagram.tol, diagram.scale)
            except Degenerate:  # collinear: no circle to draw
                continue
            ax.add_patch(CirclePatch((o.real, o.imag), abs(p[0] - o), fill=False, ec=HIGHLIGHT, lw=2.4,  # type: ignore[attr-defined]
                                     zorder=5, alpha=0.9))
