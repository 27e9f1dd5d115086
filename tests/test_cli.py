"""`geodsl parse` as a user runs it: output, JSON, errors with carets, exit statuses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import geodsl
import geodsl.cli
import pytest
from conftest import IMO, JGEX, ROOT

EXAMPLES = ROOT / "examples"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    # From a neutral folder, so `-m geodsl` finds the installed package and
    # not the source tree in the working directory.
    proc = subprocess.run([sys.executable, "-m", "geodsl", *args], input=stdin, capture_output=True,
                          timeout=120, cwd=Path(__file__).parent)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8"),
                                       proc.stderr.decode("utf-8"))


def test_console_script_is_installed():
    script = shutil.which("geodsl", path=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    assert script is not None
    proc = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("geodsl ")


def test_parse_prints_canonical_text_that_reads_back():
    proc = run("parse", str(EXAMPLES / "orthocenter.gdl"), str(EXAMPLES / "alphageometry.txt"))
    assert proc.returncode == 0, proc.stderr
    expected = geodsl.load(EXAMPLES / "orthocenter.gdl") + geodsl.load(EXAMPLES / "alphageometry.txt")
    assert geodsl.parse(proc.stdout) == expected


def test_parse_json_has_one_object_per_problem():
    proc = run("parse", "--json", str(JGEX), str(IMO))
    assert proc.returncode == 0
    records = json.loads(proc.stdout)
    assert len(records) == 261
    assert all(r["status"] == "ok" for r in records)
    first = records[0]
    assert first["name"] == JGEX.read_text().splitlines()[0]
    assert first["goals"][0]["name"] == "cyclic"
    assert first["premise"][0] == {"points": ["a", "b", "c"],
                                   "clauses": [{"name": "triangle", "args": ["a", "b", "c"]}],
                                   "auxiliary": False, "text": "a b c = triangle a b c"}


def test_error_output_has_location_caret_and_status_2(tmp_path):
    bad = tmp_path / "bad.gdl"
    bad.write_text("problem: one\na b c = triangle a b c\nd = midpoint d a q\n")
    proc = run("parse", str(bad))
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert lines[0] == f"{bad}:3:18: error: point `q` is used before it is constructed"
    assert lines[1] == "  d = midpoint d a q"
    assert lines[2] == "  " + " " * 17 + "^"
    assert lines[3].startswith("  hint: ")
    assert "Traceback" not in proc.stderr


def test_one_bad_problem_does_not_hide_the_others(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text("p1\na b c = triangle ? ncoll a b c\np2\na b c = trianlge\np3\na b = segment ? diff a b\n")
    proc = run("parse", "--json", str(path))
    assert proc.returncode == 2
    records = json.loads(proc.stdout)
    assert [r["status"] for r in records] == ["ok", "error", "ok"]
    assert records[1]["error"]["kind"] == "unknown_name"
    assert (records[1]["error"]["line"], records[1]["error"]["column"]) == (4, 9)


@pytest.mark.parametrize("content, what", [(b"", "is empty"), (b"\n\n  \n", "is empty"),
                                           (b"# only a comment\n", "holds only comments and blank lines")])
@pytest.mark.parametrize("command", ["parse", "prove", "check", "realize", "render"])
def test_empty_input_is_an_error_naming_the_file(tmp_path, capsys, content, what, command):
    path = tmp_path / "empty.gdl"
    path.write_bytes(content)
    figure = tmp_path / "empty.png"
    args = [command, str(path)] + (["-o", str(figure)] if command == "render" else [])
    assert geodsl.cli.main(args) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"{path}:1:1: error: no problem in {path}: the input {what}"
    assert "  hint: a problem is a line such as `a b c = triangle a b c ? perp a b b c`" in err
    assert not figure.exists()


def test_binary_junk(tmp_path):
    path = tmp_path / "junk.bin"
    path.write_bytes(bytes(range(256)) * 4)
    proc = run("parse", str(path))
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{path}:1:1: error: the file contains a NUL byte")
    assert "Traceback" not in proc.stderr


def test_a_20000_clause_line_is_refused_quickly(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_text("a = free a; " + "; ".join(f"p{i} = midpoint p{i} a a" for i in range(20_000)) + "\n")
    start = time.perf_counter()
    proc = run("parse", str(path))
    assert time.perf_counter() - start < 30
    assert proc.returncode == 2
    assert "error: line is" in proc.stderr and "the limit is 100,000" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_stdin_and_dialects():
    text = b"a b c = triangle a b c; d = parallelogram d a b c\n"
    proc = run("parse", "--dialect", "newclid", "--to", "alphageometry", "-", stdin=text)
    assert proc.returncode == 0
    assert proc.stdout.strip() == "a b c = triangle a b c; d = parallelogram a b c d"


@pytest.mark.parametrize("args", [["parse"], ["parse", "--dialect", "klingon", "x"], ["frobnicate"], []])
def test_usage_errors_exit_2_without_traceback(args):
    proc = run(*args)
    assert proc.returncode == 2
    assert "usage:" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_file_exits_2(tmp_path):
    proc = run("parse", str(tmp_path / "nope.gdl"))
    assert proc.returncode == 2
    assert f"{tmp_path / 'nope.gdl'}: error: cannot read" in proc.stderr
