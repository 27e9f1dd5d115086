"""Behaviour every command shares, as a user sees it: a false goal is a
verdict (exit 0) everywhere, prove and check end with a summary line and
use the same field names, check says when there is nothing to decide and
prints proofs unwrapped when piped, and every flag is documented in --help
and in the README."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from geodsl.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent

PROBLEMS = """problem: true_goal
a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c ? para d e b c

problem: false_goal
a b c = triangle a b c; d = midpoint d a b ? perp a b c d

problem: nothing
a b c = triangle a b c; d = midpoint d a b
"""


@pytest.fixture()
def problems(tmp_path: Path) -> Path:
    path = tmp_path / "p.gdl"
    path.write_text(PROBLEMS, encoding="utf-8")
    return path


def test_a_false_goal_is_a_verdict_with_exit_0_everywhere(problems: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("prove", "check", "realize"):
        assert main([command, "--json", str(problems), "--problem", "false_goal"]) == 0, command
        record = json.loads(capsys.readouterr().out)[0]
        assert record["status"] == "ok" and record["error"] is None
        if command == "prove":
            assert (record["solved"], record["verdict"], record["goals"][0]["verdict"]) == (False, "false", "false")
            assert record["closure_status"] is None   # nothing numerically true to prove: not run
        elif command == "check":
            assert record["options"][0]["verdict"] == "false"
        else:
            assert {g["holds"] for d in record["diagrams"] for g in d["goals"]} == {False}
    assert main(["prove", str(problems), "--problem", "false_goal"]) == 0
    assert "goal: perp a b c d: false in the diagram (not provable), 0 facts" in capsys.readouterr().out


def test_prove_and_check_share_field_names(problems: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["prove", "--json", str(problems), "--problem", "true_goal"])
    proved = json.loads(capsys.readouterr().out)[0]
    main(["check", "--json", "--proofs", str(problems), "--problem", "true_goal"])
    checked = json.loads(capsys.readouterr().out)[0]
    shared = {"file", "problem", "status", "error", "closure_status", "seconds"}
    assert shared <= set(proved) and shared <= set(checked)
    assert {k: proved[k] for k in shared - {"seconds"}} == {k: checked[k] for k in shared - {"seconds"}}
    assert proved["goals"] == checked["options"]   # the same verdict objects, proofs included


def test_summary_lines(problems: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = problems.parent / "broken.gdl"
    broken.write_text("a b c = triangle a b c; d = midpiont d a b ? coll a b d\n", encoding="utf-8")
    assert main(["prove", str(problems), str(broken)]) == 2
    out = capsys.readouterr()
    assert re.fullmatch(r"4 problems: 1 solved, 0 true but not proved, 1 false, 1 without a goal, 1 error; "
                        r"\d+\.\d\d s", out.out.splitlines()[-1])
    assert main(["check", str(problems), str(broken)]) == 2
    out = capsys.readouterr()
    assert re.fullmatch(r"4 problems, 2 options: 1 proved, 0 true_unproved, 1 false; 1 error; \d+\.\d\d s",
                        out.out.splitlines()[-1])
    # With --json, stdout is the JSON alone and the summary ends stderr.
    assert main(["check", "--json", str(problems)]) == 0
    out = capsys.readouterr()
    assert len(json.loads(out.out)) == 3
    assert re.fullmatch(r"3 problems, 2 options: 1 proved, 0 true_unproved, 1 false; 0 errors; \d+\.\d\d s",
                        out.err.splitlines()[-1])
    assert main(["check", str(ROOT / "examples" / "geochallenge.gdl")]) == 0
    assert "; answer keys: 3 agree, 0 disagree; " in capsys.readouterr().out.splitlines()[-1]


def test_check_says_when_there_is_nothing_to_decide(problems: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(problems), "--problem", "nothing"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "nothing: nothing to decide (the problem has neither a goal nor options)"
    assert "┏" not in "\n".join(out)   # no empty table


def test_check_proofs_are_not_wrapped_when_piped(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "geodsl", "check", "--proofs",
                           str(ROOT / "examples" / "geochallenge.gdl")], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env={**os.environ, "COLUMNS": "80"})
    assert proc.returncode == 0, proc.stderr
    long_lines = [ln for ln in proc.stdout.splitlines() if len(ln) > 80]
    assert any(ln.startswith("001. ") and "⇒" in ln for ln in long_lines)
    for ln in proc.stdout.splitlines():
        if re.match(r"\d{3}\. ", ln):
            assert re.search(r"⇒ .+ \[\d+\]$", ln), ln   # each step whole on its line
    assert not [ln for ln in proc.stdout.splitlines() if ln != ln.rstrip()]


# -- --help and the README ------------------------------------------------------------------


def _subparsers() -> dict[str, object]:
    top = build_parser()
    action = next(a for a in top._actions if a.__class__.__name__ == "_SubParsersAction")
    return dict(action.choices)  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", ["parse", "prove", "check", "realize", "render", "score", "aux"])
def test_every_flag_has_help_and_its_default(command: str) -> None:
    parser = _subparsers()[command]
    for action in parser._actions:  # type: ignore[attr-defined]
        if action.dest == "help":
            continue
        assert action.help, (command, action.dest)
        takes_value = action.nargs != 0 and action.option_strings
        if takes_value and action.default is not None and not action.required:
            assert "(default: " in action.help, (command, action.dest, action.help)
    assert "exit status: 0" in parser.epilog  # type: ignore[attr-defined]


def _readme_rows() -> dict[str, str]:
    rows = {}
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| `geodsl (\w+) (.*?)` \|", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def test_the_readme_command_table_lists_every_flag() -> None:
    rows = _readme_rows()
    assert set(rows) == set(_subparsers())
    for command, parser in _subparsers().items():
        for action in parser._actions:  # type: ignore[attr-defined]
            flags = [o for o in action.option_strings if o not in ("-h", "--help")]
            if flags:
                shown = [o for o in flags if re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", rows[command])]
                assert shown, (command, flags)


def test_every_command_documents_its_json_schema() -> None:
    for command, parser in _subparsers().items():
        if command in ("render", "report"):   # their outputs are a figure and an HTML page
            continue
        json_help = next(a.help for a in parser._actions if a.dest == "json")  # type: ignore[attr-defined]
        assert f"geodsl/schemas/{command}.json" in json_help


def test_prove_decides_goals_and_leaves_options_to_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "--json", str(ROOT / "examples" / "orthocenter.gdl"), "--problem", "midline_options"]) == 0
    record = json.loads(capsys.readouterr().out)[0]
    assert (record["goals"], record["verdict"], record["solved"]) == ([], None, False)
    assert record["closure_status"] == "saturated" and record["facts"] > 0
