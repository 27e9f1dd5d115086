"""Figures of a diagram with matplotlib (PNG or SVG), for slides and papers.

What is drawn: the circles and lines the premise implies (lines as the
segment between their outermost points), every point as a dot with its
label placed by a deterministic search that keeps it off other labels,
points, lines and circles (:func:`label_boxes` gives the boxes), the goal (or a chosen
option) highlighted in colour with the usual marks (right angles, equal-length
ticks, equal-angle arcs), and auxiliary constructions dashed. The caption
names the problem and the highlighted statement.

No global matplotlib state is touched (no pyplot): the figure is built on a
private canvas, so rendering is safe in a library and in threads. SVG output
is byte-for-byte reproducible (fixed hash salt, no date).
"""

from __future__ import annotations

import cmath
import functools
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Arc, Circle as CirclePatch, Polygon

from ..lang.ast import Predicate
from ..lang.definitions import DrawItem, rulebase
from ..lang.errors import GeoDSLError
from ..lang.parser import parse_predicate
from .diagram import Diagram
from .loci import Degenerate, circumcenter, cross, dot
from .objects import DiagramCircle, DiagramLine

INK = "#1f2a36"
LINE = "#4a5a6a"
CIRCLE = "#3d6fa8"
HIGHLIGHT = "#d1495b"
AUX = "#2a9d8f"
ANNOTATE = "#8a6d3b"
SHAPE_FILLS = ("#9ecae1", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1", "#d9d9d9")
LABEL_SIZE = 15
FORMATS = ("png", "svg")


def figure_bytes(diagram: Diagram, fmt: str = "png", *, highlight: Predicate | str | None = None,
                 caption: str | None = None, dpi: int = 160, annotate: Sequence[Predicate] = (),
                 outlines: Sequence[Sequence[complex]] = ()) -> bytes:
    """The figure of ``diagram`` as the bytes of a ``"png"`` or ``"svg"``
    file, written nowhere (for a web server, a notebook, a zip).
    ``highlight`` (a Predicate or DSL text such as ``"perp a d b c"``)
    defaults to the problem's first goal. ``annotate``: statements whose
    objects (the segments, polygons and circles of their ``draw:`` items,
    never the marks that claim them) are drawn thin and dotted, so a figure
    of a multiple-choice question shows what every option is about without
    telling which are true; labels avoid them too. ``outlines``: closed
    polygons (vertex coordinates) drawn as shapes, outlined and lightly
    filled (the shapes of a calculation problem, whose premise places its
    points). Same diagram, same bytes."""
    fmt = fmt.lower().lstrip(".")
    if fmt not in FORMATS:
        raise GeoDSLError(f"unknown figure format `{fmt}`", text=fmt, hint="the formats are png and svg")
    if isinstance(highlight, str):
        highlight = parse_predicate(highlight, tuple(diagram.all_coords))
    if highlight is None and diagram.problem.goals:
        highlight = diagram.problem.goals[0]
    fig = _draw(diagram, highlight, caption, annotate, outlines)
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "geodsl", "svg.fonttype": "path"}):
        if fmt == "svg":
            fig.savefig(buf, format="svg", metadata={"Date": None})
        else:
            fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


def render(diagram: Diagram, out: str | Path, *, highlight: Predicate | str | None = None,
           caption: str | None = None, dpi: int = 160, annotate: Sequence[Predicate] = ()) -> Path:
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
    data = figure_bytes(diagram, fmt, highlight=highlight, caption=caption, dpi=dpi, annotate=annotate)
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


Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in data coordinates."""

LABEL_FONT = {"family": "DejaVu Serif", "style": "italic"}
"""The labels' font (italic, as points are set in geometry texts)."""
LABEL_MARGIN = 1.5
"""Points of clear space kept around a label's text."""
POINT_RADIUS = 3.2
"""Points: the radius of a point's dot (markersize 5–5.5)."""
_RADII = (0.35, 0.8, 1.4, 2.2, 3.2, 4.5)
"""Gaps from a point to its label, in label heights, tried nearest first."""
_DIRECTIONS = 24


@functools.lru_cache(maxsize=4096)
def _text_size(name: str) -> tuple[float, float]:
    """Width and height in points of a point's label as drawn."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    text = _label(name)
    width, height, _ = TextToPath().get_text_width_height_descent(
        text, FontProperties(family=LABEL_FONT["family"], style="italic", size=LABEL_SIZE),
        ismath=text.startswith("$"))
    return float(width) + 2 * LABEL_MARGIN, float(height) + 2 * LABEL_MARGIN


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _box_distances(px: np.ndarray, py: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(boxes × points) distances from each point to each box."""
    dx = np.maximum(np.maximum(boxes[:, 0:1] - px[None, :], 0.0), px[None, :] - boxes[:, 2:3])
    dy = np.maximum(np.maximum(boxes[:, 1:2] - py[None, :], 0.0), py[None, :] - boxes[:, 3:4])
    return np.hypot(dx, dy)


def _clipped_lengths(segments: list[tuple[complex, complex]], boxes: np.ndarray) -> np.ndarray:
    """Per box, the total length of the segments inside it (Liang–Barsky)."""
    if not segments:
        return np.zeros(len(boxes))
    a = np.array([[s.real, s.imag] for s, _ in segments])
    d = np.array([[e.real - s.real, e.imag - s.imag] for s, e in segments])
    t0 = np.zeros((len(boxes), len(segments)))
    t1 = np.ones((len(boxes), len(segments)))
    inside = np.ones((len(boxes), len(segments)), dtype=bool)
    for p, q in ((-d[:, 0][None, :], a[:, 0][None, :] - boxes[:, 0:1]),
                 (d[:, 0][None, :], boxes[:, 2:3] - a[:, 0][None, :]),
                 (-d[:, 1][None, :], a[:, 1][None, :] - boxes[:, 1:2]),
                 (d[:, 1][None, :], boxes[:, 3:4] - a[:, 1][None, :])):
        p = np.broadcast_to(p, t0.shape)
        q = np.broadcast_to(q, t0.shape)
        zero = p == 0
        inside &= ~(zero & (q < 0))
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(zero, 0.0, q / np.where(zero, 1.0, p))
        t0 = np.where(~zero & (p < 0), np.maximum(t0, t), t0)
        t1 = np.where(~zero & (p > 0), np.minimum(t1, t), t1)
    length = np.where(inside & (t1 > t0), (t1 - t0), 0.0) * np.hypot(d[:, 0], d[:, 1])[None, :]
    return length.sum(axis=1)


def _place_labels(coords: dict[str, complex], segments: list[tuple[complex, complex]],
                  circles: list[tuple[complex, float]], sizes: dict[str, tuple[float, float]],
                  point_radius: float, frame: Box) -> dict[str, Box]:
    """Label boxes (data coordinates), one per point, by a deterministic
    search over candidate spots: 24 directions around the point at growing
    gaps. A spot costs, first, its overlap with other labels (a spot that
    overlaps none always wins over one that does), then, weighted: covering
    a point's dot, leaving the frame, being nearer another point than its
    own, the length of lines and circles it covers, and its distance from
    the point. Points are placed most crowded first, then every label is
    placed again twice with all the others known."""
    names = sorted(coords)
    unit = max(h for _, h in sizes.values()) if sizes else 1.0
    px = np.array([coords[n].real for n in names])
    py = np.array([coords[n].imag for n in names])
    turns = [cmath.rect(1.0, 2 * math.pi * k / _DIRECTIONS + math.pi / 4) for k in range(_DIRECTIONS)]
    options: dict[str, list[tuple[float, int, Box]]] = {}
    for ni, name in enumerate(names):
        p = coords[name]
        w, h = sizes[name]
        boxes = []
        for gap in _RADII:
            for u in turns:
                # Centre so that the box's edge is a dot plus `gap` label
                # heights away from the point, along u.
                reach = abs(u.real) * w / 2 + abs(u.imag) * h / 2
                c = p + u * (reach + point_radius + gap * unit)
                boxes.append((c.real - w / 2, c.imag - h / 2, c.real + w / 2, c.imag + h / 2))
        arr = np.array(boxes)
        dist = _box_distances(px, py, arr)
        dots = np.clip((point_radius - dist) / point_radius, 0.0, None).sum(axis=1)
        closer = np.minimum((dist < dist[:, ni:ni + 1]).sum(axis=1), 3)
        area = w * h
        ox = np.clip(np.minimum(arr[:, 2], frame[2]) - np.maximum(arr[:, 0], frame[0]), 0.0, None)
        oy = np.clip(np.minimum(arr[:, 3], frame[3]) - np.maximum(arr[:, 1], frame[1]), 0.0, None)
        outside = 1.0 - ox * oy / area
        ink = _clipped_lengths(segments, arr) / unit
        centre_x, centre_y = (arr[:, 0] + arr[:, 2]) / 2, (arr[:, 1] + arr[:, 3]) / 2
        half = math.hypot(w, h) / 2
        for c, r in circles:
            miss = np.abs(np.hypot(centre_x - c.real, centre_y - c.imag) - r)
            ink = ink + np.clip(half - miss, 0.0, None) / unit
        index = np.arange(len(boxes))
        static = (40 * dots + 40 * outside + ink + 2.0 * closer + 0.5 * (index // _DIRECTIONS)
                  + 1e-4 * (index % _DIRECTIONS))
        options[name] = sorted((float(static[i]), i, boxes[i]) for i in range(len(boxes)))

    def best(name: str, placed: dict[str, Box]) -> Box:
        others = [b for n, b in placed.items() if n != name]
        area = sizes[name][0] * sizes[name][1]
        fallback: tuple[float, int, Box] | None = None
        for static, i, box in options[name]:  # cheapest first: the first clear one is the best
            overlap = sum(_overlap(box, b) for b in others) / area
            if overlap == 0.0:
                return box
            score = 1e3 * overlap + static
            if fallback is None or (score, i) < fallback[:2]:
                fallback = (score, i, box)
        assert fallback is not None
        return fallback[2]

    crowd = {n: sum(1 for q in coords.values() if abs(q - coords[n]) < 3 * unit) for n in names}
    order = sorted(names, key=lambda n: (-crowd[n], n))
    placed: dict[str, Box] = {}
    for name in order:
        placed[name] = best(name, placed)
    for _ in range(2):
        for name in order:
            placed[name] = best(name, placed)
    return {n: placed[n] for n in names}


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


def _ticks(ax: Axes, a: complex, b: complex, count: int, unit: float, color: str) -> None:
    m = (a + b) / 2
    d = (b - a) / abs(b - a) if b != a else 1 + 0j
    n = d * 1j
    for i in range(count):
        c = m + d * (i - (count - 1) / 2) * 0.35 * unit
        s, e = c - n * 0.45 * unit, c + n * 0.45 * unit
        ax.plot([s.real, e.real], [s.imag, e.imag], color=color, lw=1.8, zorder=6,
                solid_capstyle="round")


def _right_angle(ax: Axes, a: complex, b: complex, c: complex, d: complex, unit: float) -> None:
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
    ax.plot([q.real for q in corner], [q.imag for q in corner], color=HIGHLIGHT, lw=1.4, zorder=6)


def _angle_arc(ax: Axes, a: complex, b: complex, c: complex, d: complex, unit: float,
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
        ax.add_patch(Arc((x.real, x.imag), 2 * rad, 2 * rad, theta1=t1, theta2=t2,
                         color=HIGHLIGHT, lw=1.4, zorder=6))


# ---------------------------------------------------------------- drawing


@dataclass
class _Layout:
    """Everything about a figure that is decided before drawing: the
    objects, the axes' limits and size, and what labels must avoid."""

    coords: dict[str, complex]
    aux_names: set[str]
    lines: tuple[DiagramLine, ...]
    circles: tuple[DiagramCircle, ...]
    limits: Box
    size: tuple[float, float]
    """Width and height of the drawing, in inches (the caption is below it)."""
    unit: float
    span: float
    caption: list[str]
    segments: list[tuple[complex, complex]]

    @property
    def per_point(self) -> float:
        """Data units per typographic point."""
        return (self.limits[2] - self.limits[0]) / (self.size[0] * 72)


def _layout(diagram: Diagram, highlight: Predicate | None, caption: str | None,
            annotate: Sequence[Predicate] = (), outlines: Sequence[Sequence[complex]] = ()) -> _Layout:
    coords = dict(diagram.all_coords)
    aux_names = {n for a in diagram.aux for n in a.points}
    aux_names |= {n for c in diagram.problem.premise.auxiliary for n in c.points}  # given after `|`
    lines, circles = diagram.lines(), diagram.circles()
    circle_geo = [(c.centre, c.radius) for c in circles]
    x0, x1, y0, y1 = _extent(list(coords.values()) + [z for poly in outlines for z in poly], circle_geo)
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
    segments = [(coords[ln.points[0]], coords[ln.points[-1]]) for ln in lines]
    if highlight is not None and all(p in coords for p in highlight.points):
        hsegs, hpolys = _highlight_parts(highlight, coords)
        segments += [(coords[a], coords[b]) for a, b in hsegs]
        for poly in hpolys:
            segments += [(coords[poly[i]], coords[poly[(i + 1) % len(poly)]]) for i in range(len(poly))]
    for shape in outlines:
        segments += [(shape[i], shape[(i + 1) % len(shape)]) for i in range(len(shape))]
    for pred in annotate:
        if all(p in coords for p in pred.points):
            asegs, apolys = _highlight_parts(pred, coords)
            segments += [(coords[a], coords[b]) for a, b in asegs]
            for poly in apolys:
                segments += [(coords[poly[i]], coords[poly[(i + 1) % len(poly)]]) for i in range(len(poly))]
    return _Layout(coords, aux_names, lines, circles, (x0 - pad, y0 - pad, x1 + pad, y1 + pad),
                   (fw, fh), unit, span, _caption(diagram, highlight, caption), segments)


def label_boxes(diagram: Diagram, highlight: Predicate | None = None,
                caption: str | None = None, annotate: Sequence[Predicate] = ()) -> dict[str, Box]:
    """Where :func:`render` puts each point's label: its box (x0, y0, x1,
    y1) in the diagram's coordinates, text and a small margin included.
    ``highlight`` defaults to the first goal, as in :func:`render`."""
    if highlight is None and diagram.problem.goals:
        highlight = diagram.problem.goals[0]
    lay = _layout(diagram, highlight, caption, annotate)
    return _label_boxes(lay)


def _label_boxes(lay: _Layout) -> dict[str, Box]:
    k = lay.per_point
    sizes = {}
    for name in lay.coords:
        w, h = _text_size(name)
        sizes[name] = (w * k, h * k)
    circles = [(c.centre, c.radius) for c in lay.circles if c.radius <= 1.2 * lay.span]
    return _place_labels(lay.coords, lay.segments, circles, sizes, POINT_RADIUS * k, lay.limits)


def _draw(diagram: Diagram, highlight: Predicate | None, caption: str | None,
          annotate: Sequence[Predicate] = (), outlines: Sequence[Sequence[complex]] = ()) -> Figure:
    lay = _layout(diagram, highlight, caption, annotate, outlines)
    coords, aux_names, lines, circles, unit = lay.coords, lay.aux_names, lay.lines, lay.circles, lay.unit
    fw, fh = lay.size
    caption_lines = lay.caption
    fig = Figure(figsize=(fw, fh + 0.32 * len(caption_lines)))
    bottom = 0.32 * len(caption_lines) / (fh + 0.32 * len(caption_lines))
    ax = fig.add_axes((0, bottom, 1, 1 - bottom))
    ax.set_xlim(lay.limits[0], lay.limits[2])
    ax.set_ylim(lay.limits[1], lay.limits[3])
    ax.set_aspect("equal")
    ax.axis("off")

    for c in circles:
        if c.aux:
            ax.add_patch(CirclePatch((c.centre.real, c.centre.imag), c.radius, ec=AUX, ls=(0, (5, 4)),
                                     fill=False, lw=1.3, zorder=1))
        else:
            ax.add_patch(CirclePatch((c.centre.real, c.centre.imag), c.radius, ec=CIRCLE,
                                     fill=False, lw=1.3, zorder=1))
    for i, poly in enumerate(outlines):
        ax.add_patch(Polygon([(z.real, z.imag) for z in poly], closed=True, fc=SHAPE_FILLS[i % len(SHAPE_FILLS)],
                             alpha=0.35, ec=LINE, lw=1.4, zorder=2))
    premise_lines = [ln for ln in lines if not ln.aux]
    for ln in lines:
        a, b = coords[ln.points[0]], coords[ln.points[-1]]
        if ln.aux:
            # Above the highlight (zorder 5): a construction line that is
            # also part of the goal stays visibly dashed.
            for s, e in _aux_parts(ln.points, premise_lines, coords):
                ax.plot([s.real, e.real], [s.imag, e.imag], color=AUX, lw=1.4, ls=(0, (5, 4)), zorder=5.5)
        else:
            ax.plot([a.real, b.real], [a.imag, b.imag], color=LINE, lw=1.4, zorder=2,
                    solid_capstyle="round")

    for pred in annotate:
        if all(p in coords for p in pred.points):
            _draw_annotation(ax, pred, coords, diagram)
    if highlight is not None and all(p in coords for p in highlight.points):
        _draw_highlight(ax, highlight, coords, diagram, unit)

    for name, p in coords.items():
        if name in aux_names:
            ax.plot([p.real], [p.imag], "o", ms=5.5, mfc="white", mec=AUX, mew=1.6, zorder=8)
        else:
            ax.plot([p.real], [p.imag], "o", ms=5, color=INK, zorder=8)
    for name, box in _label_boxes(lay).items():
        ax.text((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, _label(name), fontsize=LABEL_SIZE,
                ha="center", va="center", color=AUX if name in aux_names else INK, zorder=9,
                fontfamily=LABEL_FONT["family"], fontstyle=LABEL_FONT["style"], gid=f"label-{name}")
    for i, text in enumerate(caption_lines):
        fig.text(0.5, (0.32 * (len(caption_lines) - i) - 0.12) / (fh + 0.32 * len(caption_lines)),
                 text, ha="center", va="center", fontsize=10.5, color="#333333" if i else INK,
                 fontfamily="DejaVu Sans")
    return fig


def _aux_parts(points: Sequence[str], premise_lines: Sequence[DiagramLine],
               coords: dict[str, complex]) -> list[tuple[complex, complex]]:
    """The parts of an auxiliary line to draw dashed: all of it, or, when it
    extends a premise line, only the extensions beyond the premise segment."""
    a, b = coords[points[0]], coords[points[-1]]
    for ln in premise_lines:
        shared = [n for n in ln.points if n in points]
        if len(shared) >= 2 and len(shared) == len(ln.points):
            s, e = coords[ln.points[0]], coords[ln.points[-1]]
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


def _draw_annotation(ax: Axes, pred: Predicate, coords: dict[str, complex], diagram: Diagram) -> None:
    """A statement's objects, thin and dotted, none of its marks (see :func:`figure_bytes`)."""
    segs, polys = _highlight_parts(pred, coords)
    for poly in polys:
        segs += [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    for a, b in segs:
        pa, pb = coords[a], coords[b]
        ax.plot([pa.real, pb.real], [pa.imag, pb.imag], color=ANNOTATE, lw=1.1, ls=(0, (1.5, 2.5)), zorder=3,
                solid_capstyle="round")
    for item, names in _draw_items(pred):
        if item.kind == "circle":
            p = [coords[n] for n in names]
            try:
                o = circumcenter(p[0], p[1], p[2], diagram.tol, diagram.scale)
            except Degenerate:
                continue
            ax.add_patch(CirclePatch((o.real, o.imag), abs(p[0] - o), fill=False, ec=ANNOTATE, lw=1.1,
                                     ls=(0, (1.5, 2.5)), zorder=3))


def _draw_highlight(ax: Axes, pred: Predicate, coords: dict[str, complex], diagram: Diagram,
                    unit: float) -> None:
    segs, polys = _highlight_parts(pred, coords)
    for a, b in segs:
        pa, pb = coords[a], coords[b]
        ax.plot([pa.real, pb.real], [pa.imag, pb.imag], color=HIGHLIGHT, lw=2.6, zorder=5,
                solid_capstyle="round", alpha=0.9)
    for poly in polys:
        pts = [(coords[n].real, coords[n].imag) for n in poly]
        ax.add_patch(Polygon(pts, closed=True, fc=HIGHLIGHT, alpha=0.16, ec=HIGHLIGHT, lw=2.0,
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
            ax.add_patch(CirclePatch((o.real, o.imag), abs(p[0] - o), fill=False, ec=HIGHLIGHT, lw=2.4,
                                     zorder=5, alpha=0.9))
