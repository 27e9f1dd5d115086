"""Each degenerate case has its own located error, in the API and in the CLI."""

from __future__ import annotations

import json

from pathlib import Path

import pytest

import geodsl
from geodsl.cli import main
from geodsl.lang.errors import GoalFalseError, RealizationError
from geodsl.realizer import realize

# (name, problem text, error class, reason, message, line, column)
CASES = [
    ("parallel lines asked to meet",
     "problem: parallel\na b c = triangle a b c\nd = midpoint d a b; e = midpoint e a c\n"
     "f = on_line f d e, on_line f b c\n",
     RealizationError, "parallel",
     "`f = on_line f d e, on_line f b c`: the two lines are parallel in every sample", 4, 1),
    ("a line and a circle that do not meet",
     "problem: apart\na b = segment a b; c = mirror c a b; d = on_circle d a b, on_tline d c a b\n",
     RealizationError, "no_intersection",
     "`d = on_circle d a b, on_tline d c a b`: the line misses the circle in every sample", 2, 38),
    ("midpoint of a point and itself",
     "problem: same\na b = segment a b\nd = midpoint d a a\n",
     RealizationError, "precondition",
     "`d = midpoint d a a`: `a` is given twice where two different points are needed", 3, 5),
    ("a circle through three collinear points",
     "problem: flat\na b = segment a b\nc = midpoint c a b\no = circle o a b c\n",
     RealizationError, "precondition",
     "`o = circle o a b c`: a, b and c are collinear in every sample", 4, 5),
    ("a goal that is false",
     "problem: wrong\na b c = triangle a b c\nd = on_tline d a b c, on_line d b c\n? perp d c a b\n",
     GoalFalseError, None,
     "goal `perp d c a b` is false in the diagram (in all 40 samples and all 80 configurations "
     "tried of their discrete choices: the orientation of `a b c = triangle a b c` (line 2))", 4, 3),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_degenerate_case_error(case: tuple) -> None:  # type: ignore[type-arg]
    _, text, cls, reason, message, line, column = case
    problem = geodsl.parse(text, "case.gdl")[0]
    with pytest.raises(cls) as info:
        realize(problem)
    err = info.value
    assert err.message == message
    assert (err.source, err.line, err.column) == ("case.gdl", line, column)
    if reason is not None:
        assert isinstance(err, RealizationError) and err.reason == reason
        assert err.hint


ERROR_CASES = [c for c in CASES if c[2] is not GoalFalseError]


@pytest.mark.parametrize("command", ["realize", "render"])
@pytest.mark.parametrize("case", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_cli_prints_located_error_and_exits_2(case: tuple, command: str, tmp_path: Path,  # type: ignore[type-arg]
                                              capsys: pytest.CaptureFixture[str]) -> None:
    _, text, _, _, message, line, column = case
    src = tmp_path / "case.gdl"
    src.write_text(text, encoding="utf-8")
    args = [command, str(src)] + (["-o", str(tmp_path / "x.png")] if command == "render" else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    first, shown, caret = err.splitlines()[:3]
    assert first == f"{src}:{line}:{column}: error: {message}"
    assert shown == "  " + text.splitlines()[line - 1]
    assert caret.startswith("  " + " " * (column - 1) + "^")
    assert "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_cli_reports_a_false_goal_as_a_verdict_not_an_error(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # The API raises GoalFalseError (the goal could not choose a configuration);
    # every command reports the verdict and exits 0 (docs/realize.md).
    text = next(c[1] for c in CASES if c[2] is GoalFalseError)
    src = tmp_path / "case.gdl"
    src.write_text(text, encoding="utf-8")
    assert main(["realize", str(src)]) == 0
    out = capsys.readouterr()
    assert "  goal perp d c a b: FALSE in diagrams 1, 2, 3 (of 3)" in out.out.splitlines()
    assert out.err == ""
    assert main(["realize", "--json", str(src)]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [g["holds"] for d in records[0]["diagrams"] for g in d["goals"]] == [False] * 3
    png = tmp_path / "x.png"
    assert main(["render", str(src), "-o", str(png)]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == str(png) and png.read_bytes()[:4] == b"\x89PNG"
    assert out.err == (f"{src}: warning: goal `perp d c a b` is false in the diagram "
                       "(in all 40 samples and all 80 configurations tried of their discrete choices: "
                       "the orientation of `a b c = triangle a b c` (line 2)); drawn anyway\n")


def test_degenerate_sampling_is_bounded_and_counts_reasons() -> None:
    with pytest.raises(RealizationError) as info:
        realize("a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c; f = on_line f d e, on_line f b c")
    assert info.value.counts == {"parallel": 104}  # 100 failures + one per construction
    assert info.value.to_dict()["kind"] == "realization"


def test_mixed_reasons_report_the_dominant_one_with_its_share() -> None:
    from collections import Counter

    from geodsl.realizer.sampler import _failure

    con = geodsl.parse_problem("a b c = triangle a b c; d = on_circle d a b, on_line d b c",
                               "m.gdl").premise.constructions[1]
    reasons = Counter({(0, "too_close", "`d` falls on `b`"): 3, (0, "no_intersection", "the line misses the circle"): 9})
    where = {k: (con.span, "hint") for k in reasons}
    err = _failure([con], reasons, where, Counter({0: 4}))
    assert err.message == "`d = on_circle d a b, on_line d b c`: the line misses the circle in 9 of 12 samples"
    assert err.counts == {"no_intersection": 9, "too_close": 3}
    assert (err.line, err.column) == (1, 25)
