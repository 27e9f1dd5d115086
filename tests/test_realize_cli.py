"""`geodsl realize` and `geodsl render` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from geodsl.cli import main

EXAMPLE = """problem: foot
a b c = triangle a b c
h = orthocenter h a b c
d = on_line d a h, on_line d b c
? perp a d b c

problem: options
a b c = triangle a b c
d = midpoint d a b; e = midpoint e a c
option A: para d e b c
option B: cong d e b c
answer: A
aux: f = midpoint f b c
"""


@pytest.fixture()
def example(tmp_path: Path) -> Path:
    path = tmp_path / "ex.gdl"
    path.write_text(EXAMPLE, encoding="utf-8")
    return path


def test_realize_json(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["realize", str(example), "--json", "--seed", "3", "--diagrams", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["problem"] for r in data] == ["foot", "options"]
    foot = data[0]
    assert foot["status"] == "ok" and foot["seed"] == 3 and len(foot["diagrams"]) == 2
    assert foot["diagrams"][0]["goals"] == [{"goal": "perp a d b c", "holds": True}]
    options = data[1]["diagrams"][0]["options"]
    assert [(o["label"], o["holds"]) for o in options] == [("A", True), ("B", False)]
    assert data[1]["diagrams"][0]["aux"][0]["points"].keys() == {"f"}


def test_realize_text_is_reproducible(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["realize", str(example), "--problem", "foot"]) == 0
    first = capsys.readouterr().out
    assert main(["realize", str(example), "--problem", "foot"]) == 0
    assert capsys.readouterr().out == first
    assert "goal perp a d b c: holds in 3 diagrams" in first
    assert first.count("diagram ") == 3


def test_render_png_and_svg(example: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png, svg = tmp_path / "f.png", tmp_path / "f.svg"
    assert main(["render", str(example), "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["render", str(example), "--problem", "options", "--option", "B", "-o", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    first = svg.read_bytes()
    assert main(["render", str(example), "--problem", "options", "--option", "B", "-o", str(svg)]) == 0
    assert svg.read_bytes() == first  # byte-for-byte reproducible


def test_render_errors_exit_2(example: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(example), "--problem", "options", "--option", "Z",
                 "-o", str(tmp_path / "x.png")]) == 2
    assert "has no option `Z`" in capsys.readouterr().err
    assert main(["render", str(example), "--problem", "nope", "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "no problem named `nope`" in err and "foot, options" in err
    assert main(["render", str(example), "-o", str(tmp_path / "x.pdf")]) == 2
    assert "unknown figure format `.pdf`" in capsys.readouterr().err
    assert main(["render", str(tmp_path / "missing.gdl")]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_menelaus_goal_highlights_the_six_side_pieces() -> None:
    from geodsl.lang.ast import Predicate
    from geodsl.realizer.render import _highlight_parts

    segments, polygons = _highlight_parts(Predicate("sideprod", ("a", "b", "c", "d", "e", "f")), {})
    assert segments == [("b", "d"), ("d", "c"), ("c", "e"), ("e", "a"), ("a", "f"), ("f", "b")]
    assert polygons == []
