"""`geodsl prove` from the command line: text, JSON shape, errors, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from geodsl.cli import main

EXAMPLE = """problem: midline
a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c ? para d e b c

problem: typo
a b c = triangle a b c; d = midpiont d a b ? coll a b d

problem: nine_points
a b c = triangle a b c; d = midpoint d b c; e = midpoint e c a; f = midpoint f a b
g = foot g a b c
? cyclic d e f g
"""


@pytest.fixture()
def example(tmp_path: Path) -> Path:
    path = tmp_path / "ex.gdl"
    path.write_text(EXAMPLE, encoding="utf-8")
    return path


def test_prove_json_shape(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", str(example), "--json", "--timeout", "20"]) == 2   # one bad problem
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert [r["problem"] for r in data] == ["midline", "typo", "nine_points"]
    for r in data:
        assert set(r) >= {"file", "problem", "status", "error", "solved", "verdict", "goals",
                          "closure_status", "seconds", "facts"}
    midline, typo, nine = data
    assert midline["solved"] is True and midline["status"] == "ok" and midline["error"] is None
    assert midline["verdict"] == "proved" and midline["closure_status"] == "proved"
    assert midline["facts"] >= 3 and isinstance(midline["seconds"], float)
    goal = midline["goals"][0]
    assert (goal["label"], goal["predicate"], goal["verdict"], goal["proof_kind"]) == (
        "goal", "para d e b c", "proved", "deduction")
    steps = goal["proof"]["steps"]
    assert goal["proof_steps"] == len(steps)
    assert steps[-1]["predicate"] == "para b c d e" and steps[-1]["rule"] == "r06"
    assert steps[-1]["premises"] == [0, 1]
    assert [p["predicate"] for p in goal["proof"]["premises"]] == ["midp d a b", "midp e a c"]
    assert typo["status"] == "error" and typo["solved"] is False and typo["goals"] == []
    assert typo["verdict"] is None and typo["closure_status"] is None
    assert typo["error"]["kind"] == "unknown_name" and typo["error"]["line"] == 5
    assert nine["status"] == "ok" and nine["closure_status"] in ("proved", "saturated", "budget")
    assert nine["solved"] == (nine["closure_status"] == "proved")
    # The error is also printed, located, on stderr; no traceback; the summary ends stderr.
    assert ":5:" in out.err and "midpiont" in out.err and "Traceback" not in out.err
    assert out.err.splitlines()[-1].startswith("3 problems: 2 solved, 0 true but not proved, 0 false, 1 error; ")


def test_prove_text_and_facts(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["prove", str(example), "--facts"])
    out = capsys.readouterr().out
    assert "goal: para d e b c: proved" in out
    assert "001. D is midpoint of AB [00] & E is midpoint of AC [01] (r06" in out
    assert "* Facts:" in out and "000. D is midpoint of AB  (premise 2:29)" in out


def test_prove_bad_arguments_exit_2(example: Path) -> None:
    assert main(["prove", str(example), "--timeout", "0"]) == 2
    assert main(["prove", str(example.parent / "missing.gdl")]) == 2


def test_prove_json_is_byte_identical_across_processes(example: Path) -> None:
    outs = []
    for hashseed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        run = subprocess.run([sys.executable, "-m", "geodsl", "prove", str(example), "--json", "--facts"],
                             capture_output=True, text=True, env=env, cwd=example.parent, check=False)
        assert run.returncode == 2
        data = json.loads(run.stdout)
        for r in data:
            r.pop("seconds")
        outs.append(json.dumps(data, ensure_ascii=False, sort_keys=True))
    assert outs[0] == outs[1]
