"""Figures: labels placed off each other and off the points, measured on the
renderer's own label boxes over the public sets, checked against the text
matplotlib actually draws; auxiliary construction lines dashed."""

from __future__ import annotations

import math

import matplotlib.colors as mcolors
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import geodsl
from geodsl.realizer import realize
from geodsl.realizer.render import AUX, POINT_RADIUS, _draw, _layout, _overlap, figure_bytes, label_boxes


def _problems(text: str, name: str) -> list[geodsl.Problem]:
    return [p for p in geodsl.iter_parse(text, name) if not isinstance(p, geodsl.GeoDSLError)]


def _distance(q: complex, box: tuple[float, float, float, float]) -> float:
    return math.hypot(max(box[0] - q.real, 0.0, q.real - box[2]), max(box[1] - q.imag, 0.0, q.imag - box[3]))


@pytest.mark.parametrize("which", ["jgex", "imo"])
def test_no_label_overlaps_another_or_covers_a_point(which: str, jgex_text: str, imo_text: str) -> None:
    problems = _problems(jgex_text if which == "jgex" else imo_text, which)
    assert len(problems) == (231 if which == "jgex" else 30)
    labels = 0
    for p in problems:
        d = realize(p, diagrams=1)[0]
        boxes = label_boxes(d)
        assert set(boxes) == set(d.all_coords)
        names = sorted(boxes)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert _overlap(boxes[a], boxes[b]) == 0.0, (p.name, a, b)
        dot = POINT_RADIUS * _layout(d, p.goals[0] if p.goals else None, None).per_point
        for name, box in boxes.items():
            for other, q in d.all_coords.items():
                assert _distance(q, box) >= dot, (p.name, name, other)
            labels += 1
    assert labels > 100


def test_imo_2008_p6_labels_sit_next_to_their_points(imo_text: str) -> None:
    # The crowded figure of the issue: p/f1 and f2/i2/t/d overlapped.
    p = next(q for q in _problems(imo_text, "imo") if q.name == "translated_imo_2008_p6")
    d = realize(p, diagrams=1)[0]
    boxes = label_boxes(d)
    height = max(b[3] - b[1] for b in boxes.values())
    ambiguous = []
    for name, box in boxes.items():
        mine = _distance(d.all_coords[name], box)
        assert mine < 2.5 * height, name
        if any(_distance(q, box) < mine for n, q in d.all_coords.items() if n != name):
            ambiguous.append(name)
    # Nearer another point than its own: only i2, squeezed between s, t and f2
    # (by a corner of its box; its centre is nearest i2).
    assert ambiguous == ["i2"]
    box = boxes["i2"]
    centre = complex((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    assert min(d.all_coords, key=lambda n: abs(d.all_coords[n] - centre)) == "i2"


def test_drawn_text_stays_inside_the_computed_boxes(imo_text: str) -> None:
    problems = {q.name: q for q in _problems(imo_text, "imo")}
    for name in ("translated_imo_2008_p6", "translated_imo_2004_p1"):
        d = realize(problems[name], diagrams=1)[0]
        boxes = label_boxes(d)
        fig = _draw(d, problems[name].goals[0], None)
        renderer = FigureCanvasAgg(fig).get_renderer()
        ax = fig.axes[0]
        drawn = {}
        for text in ax.texts:
            gid = text.get_gid() or ""
            if gid.startswith("label-"):
                (x0, y0), (x1, y1) = ax.transData.inverted().transform(
                    text.get_window_extent(renderer).get_points())
                drawn[gid[len("label-"):]] = (x0, y0, x1, y1)
        assert set(drawn) == set(boxes)
        slack = 0.15 * max(b[3] - b[1] for b in boxes.values())
        for label, (x0, y0, x1, y1) in drawn.items():
            b = boxes[label]
            assert b[0] - slack <= x0 and x1 <= b[2] + slack, label
            assert b[1] - slack <= y0 and y1 <= b[3] + slack, label
        names = sorted(drawn)
        for i, a in enumerate(names):
            for b2 in names[i + 1:]:
                assert _overlap(drawn[a], drawn[b2]) == 0.0, (name, a, b2)


def test_auxiliary_construction_lines_are_dashed_above_the_highlight() -> None:
    text = ("problem: midline_altitude\na b c = triangle a b c\nd = midpoint d a b; e = midpoint e a c\n"
            "option A: para d e b c\naux: h = foot h a b c; k = on_line k a h, on_line k d e\n")
    p = geodsl.parse(text, "aux.gdl")[0]
    d = realize(p, diagrams=1)[0]
    fig = _draw(d, p.options[0].predicate, None)
    ax = fig.axes[0]
    aux_lines = [ln for ln in ax.lines if mcolors.to_hex(ln.get_color()) == AUX and ln.get_marker() in ("None", "")]
    highlight = max(ln.get_zorder() for ln in ax.lines if mcolors.to_hex(ln.get_color()) == "#d1495b")
    # a-h-k (the altitude) and the part of d-e the aux point k is built on.
    assert len(aux_lines) >= 2
    for ln in aux_lines:
        assert ln.get_linestyle() == "--"
        assert ln.get_zorder() > highlight
    hollow = [ln for ln in ax.lines if ln.get_marker() == "o" and ln.get_markerfacecolor() == "white"]
    assert len(hollow) == 2  # h and k


def test_render_is_deterministic(imo_text: str) -> None:
    p = next(q for q in _problems(imo_text, "imo") if q.name == "translated_imo_2008_p6")
    d = realize(p, diagrams=1)[0]
    assert figure_bytes(d, "svg") == figure_bytes(d, "svg")
    assert label_boxes(d) == label_boxes(d)
