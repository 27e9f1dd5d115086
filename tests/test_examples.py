"""Every shipped example says what it claims: goals true and proved, options
decided as the files and docs/checker.md document, answer keys agreeing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import geodsl
from geodsl.checker.options import check_problem
from geodsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "examples").iterdir(), ROOT / "docs" / "figures" / "figures.gdl"])

# (file, problem) -> verdict of each option (goals are labelled goal, goal2, ...).
EXPECTED = {
    ("alphageometry.txt", "centroid_medians"): {"goal": "proved"},
    ("alphageometry.txt", "nine_point_circle"): {"goal": "proved"},
    ("orthocenter.gdl", "orthocenter_foot"): {"goal": "proved"},
    ("orthocenter.gdl", "midline_options"): {"A": "proved", "B": "proved", "C": "false", "D": "proved"},
    ("geochallenge.gdl", "isosceles_median"): {"A": "proved", "B": "proved", "C": "false", "D": "proved"},
    ("geochallenge.gdl", "inscribed_angles"): {"A": "proved", "B": "proved", "C": "proved", "D": "false"},
    # Morley's theorem: true, beyond DD+AR (the file says so).
    ("geochallenge.gdl", "morley"): {"A": "true_unproved", "B": "false", "C": "proved"},
    ("figures.gdl", "midline_altitude"): {"A": "proved", "B": "false"},
}


def _problems() -> list[tuple[str, geodsl.Problem]]:
    return [(path.name, p) for path in FILES for p in geodsl.load(path)]


def test_every_example_problem_has_its_expectation() -> None:
    assert sorted((f, p.name) for f, p in _problems()) == sorted(EXPECTED)


@pytest.mark.parametrize("name, problem", _problems(), ids=[f"{f}:{p.name}" for f, p in _problems()])
def test_example_verdicts(name: str, problem: geodsl.Problem) -> None:
    check = check_problem(problem)
    assert check.status == "ok", check.error
    assert {v.label: v.verdict for v in check.options} == EXPECTED[(name, problem.name)]
    for v in check.options:
        if v.label.startswith("goal"):
            assert v.numeric and v.verdict == "proved"   # every shipped goal is true and proved
    if problem.answer is not None:
        assert check.key_consistent, check.disagreements


def test_the_examples_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json", *map(str, FILES)]) == 0
    records = json.loads(capsys.readouterr().out)
    assert len(records) == len(EXPECTED) and all(r["status"] == "ok" for r in records)
    assert main(["prove", "--json", str(ROOT / "examples" / "alphageometry.txt")]) == 0
    assert [r["solved"] for r in json.loads(capsys.readouterr().out)] == [True, True]
