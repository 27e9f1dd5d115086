"""What every command reads and how it refuses bad flags: the shipped
datasets (by name, as FILE), ``--dialect`` and ``--problem`` in every
command, ``--seed``/``--timeout``/``--diagrams`` refused alike everywhere."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import geodsl
import geodsl.datasets
from geodsl.cli import main

# -- the shipped datasets -----------------------------------------------------------


def test_datasets_by_name() -> None:
    assert geodsl.datasets.names() == ("jgex_ag_231", "imo_ag_30")
    for name, count in (("jgex_ag_231", 231), ("imo_ag_30", 30)):
        problems = geodsl.datasets.load(name)
        assert len(problems) == count == geodsl.datasets.info(name).problems
        assert problems[0].span.source == name  # located in the set's name
        path = geodsl.datasets.path(name)
        assert path.is_file() and path.read_text(encoding="utf-8") == geodsl.datasets.text(name)
        assert [p for p in geodsl.datasets.iter_load(name)] == problems
    # Spellings of a name: case, `-` for `_`, a `.txt`.
    assert geodsl.datasets.path("IMO-AG-30") == geodsl.datasets.path("imo_ag_30.txt")


def test_the_licence_ships_with_the_data() -> None:
    folder = geodsl.datasets.path("imo_ag_30").parent
    notice = (folder / "NOTICE.md").read_text(encoding="utf-8")
    assert "Apache License, Version 2.0" in notice and "AlphaGeometry" in notice
    assert "Apache License" in (folder / "LICENSE-Apache-2.0.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name, hint", [
    ("imo_ag30", "did you mean `imo_ag_30`? (datasets: jgex_ag_231, imo_ag_30)"),
    ("geochallenge", "datasets: jgex_ag_231, imo_ag_30"),
])
def test_unknown_dataset(name: str, hint: str) -> None:
    with pytest.raises(geodsl.UnknownNameError) as info:
        geodsl.datasets.load(name)
    err = info.value
    assert (err.message, err.hint, err.text) == (f"unknown dataset `{name}`", hint, name)
    assert (err.source, err.line, err.column) == (None, None, None)


def test_tests_do_not_read_outside_the_project() -> None:
    # Nothing under tests/ may reach for the development tree's data beside
    # the project (the needles are spelled in pieces so this file passes).
    needles = ["../" + "sha" + "red", '/ "' + 'shared"', "sha" + "red/data"]
    for path in Path(__file__).resolve().parent.rglob("*"):
        if path.is_file() and path.suffix in (".py", ".txt", ".gdl", ".json", ".md"):
            text = path.read_text(encoding="utf-8")
            assert not [n for n in needles if n in text], path


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "geodsl", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def test_a_dataset_name_as_file_in_every_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = "translated_imo_2000_p1"
    assert main(["parse", "--json", "imo_ag_30"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert len(records) == 30 and records[0]["file"] == "imo_ag_30" and records[0]["problem"] == first
    assert main(["prove", "--json", "IMO-AG-30", "--problem", first, "--timeout", "10"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["file"] == "imo_ag_30"
    jgex = geodsl.datasets.load("jgex_ag_231")[0].name
    assert main(["check", "jgex_ag_231", "--problem", jgex]) == 0
    assert capsys.readouterr().out.startswith(jgex)
    assert main(["realize", "jgex_ag_231", "--problem", jgex, "--diagrams", "1"]) == 0
    assert f"problem: {jgex}  (jgex_ag_231, seed 0)" in capsys.readouterr().out
    figure = tmp_path / "imo.svg"
    assert main(["render", "imo_ag_30", "-o", str(figure)]) == 0
    assert figure.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_a_file_wins_over_a_dataset_of_the_same_name(tmp_path: Path) -> None:
    (tmp_path / "imo_ag_30").write_text("a b c = triangle a b c ? ncoll a b c\n", encoding="utf-8")
    proc = _run("parse", "imo_ag_30", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == "a b c = triangle a b c ? ncoll a b c\n"


def test_a_missing_file_suggests_a_dataset(tmp_path: Path) -> None:
    proc = _run("prove", "imo_ag30", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[:2] == [
        "imo_ag30: error: cannot read imo_ag30: No such file or directory",
        "  hint: did you mean the dataset `imo_ag_30`? (datasets: jgex_ag_231, imo_ag_30)"]
    proc = _run("check", "nope.gdl", cwd=tmp_path)
    assert proc.stderr.splitlines()[:2] == [
        "nope.gdl: error: cannot read nope.gdl: No such file or directory",
        "  hint: check the path, or name a shipped dataset: jgex_ag_231, imo_ag_30"]
    assert "Traceback" not in proc.stderr


# -- --dialect and --problem in every command ------------------------------------------

NEWCLID = "a b c = triangle a b c; d = parallelogram d a b c ? para a b c d\n"


@pytest.mark.parametrize("command", ["parse", "prove", "check", "realize", "render"])
def test_the_dialect_hint_is_true_for_every_command(command: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "newclid.txt"
    src.write_text(NEWCLID, encoding="utf-8")
    extra = ["-o", str(tmp_path / "f.png")] if command == "render" else []
    assert main([command, str(src), *extra]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0].startswith(f"{src}:1:49: error: `parallelogram` constructs its argument")
    assert "pass --dialect newclid" in err
    assert main([command, "--dialect", "newclid", str(src), *extra]) == 0
    capsys.readouterr()


PAIR = """problem: one
a b c = triangle a b c; d = midpoint d a b ? coll a b d
problem: two
a b c = triangle a b c; d = midpoint d b c ? cong b d c d
"""


@pytest.mark.parametrize("command", ["parse", "prove", "check", "realize", "render"])
def test_problem_picks_one_problem_in_every_command(command: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.gdl", tmp_path / "b.gdl"
    first.write_text(PAIR, encoding="utf-8")
    second.write_text("problem: three\na b = segment a b ? diff a b\n", encoding="utf-8")
    files = [str(first)] if command == "render" else [str(first), str(second)]
    extra = ["-o", str(tmp_path / "f.png")] if command == "render" else []
    json_flag = [] if command == "render" else ["--json"]
    assert main([command, *json_flag, *files, "--problem", "two", *extra]) == 0
    out = capsys.readouterr().out
    if command != "render":
        assert [r["problem"] for r in json.loads(out)] == ["two"]
    assert main([command, *files, "--problem", "four", *extra]) == 2
    err = capsys.readouterr().err.splitlines()
    where = ", ".join(files)
    assert err[0] == f"{where}: error: no problem named `four` in {where}"
    assert err[1] == ("  hint: problems: one, two" if command == "render" else "  hint: problems: one, two, three")


def test_problem_finds_a_broken_problem_by_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "p.gdl"
    src.write_text(PAIR.replace("midpoint d b c", "midpiont d b c"), encoding="utf-8")
    assert main(["prove", str(src), "--problem", "two"]) == 2
    assert capsys.readouterr().err.startswith(f"{src}:4:29: error: unknown construction `midpiont`")


# -- flag values refused alike ------------------------------------------------------------

SEEDED = ["prove", "check", "realize", "render"]


@pytest.mark.parametrize("command", SEEDED)
@pytest.mark.parametrize("value, message, hint", [
    ("-1", "--seed -1: must be a whole number from 0 to 2**128 - 1, got -1",
     "seeds are whole numbers from 0, e.g. 0, 1, 42"),
    ("1.5", "--seed 1.5: not a whole number", "seeds are whole numbers from 0, e.g. --seed 0"),
    (str(2**128), f"--seed {2**128}: must be a whole number from 0 to 2**128 - 1, got {2**128}",
     "seeds are whole numbers from 0, e.g. 0, 1, 42"),
])
def test_bad_seed(command: str, value: str, message: str, hint: str, tmp_path: Path,
                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "imo_ag_30", "--seed", value]) == 2
    assert capsys.readouterr().err == f"geodsl: error: {message}\n  hint: {hint}\n"


@pytest.mark.parametrize("command", ["prove", "check"])
@pytest.mark.parametrize("value, message, hint", [
    ("nan", "the time budget must be a number greater than 0, got nan", "pass --timeout with a finite positive value"),
    ("inf", "the time budget must be a number greater than 0, got inf", "pass --timeout with a finite positive value"),
    ("-5", "the time budget must be a number greater than 0, got -5.0", "pass --timeout with a finite positive value"),
    ("0", "the time budget must be a number greater than 0, got 0.0", "pass --timeout with a finite positive value"),
    ("soon", "not a number of seconds", "pass --timeout with a finite positive value, e.g. --timeout 30"),
])
def test_bad_timeout_is_refused_identically(command: str, value: str, message: str, hint: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "imo_ag_30", "--timeout", value]) == 2
    assert capsys.readouterr().err == f"geodsl: error: --timeout {value}: {message}\n  hint: {hint}\n"


@pytest.mark.parametrize("args, message", [
    (["prove", "--diagrams", "0"], "--diagrams 0: the number of diagrams must be a whole number from 1"),
    (["check", "--diagrams", "x"], "--diagrams x: the number of diagrams must be a whole number from 1"),
    (["realize", "--diagrams", "-2"], "--diagrams -2: the number of diagrams must be a whole number from 1"),
    (["render", "--diagram", "0"], "--diagram 0: the diagram number must be a whole number from 1"),
])
def test_bad_counts(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*args, "imo_ag_30"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == f"geodsl: error: {message}"


def test_the_api_refuses_bad_seeds_and_budgets() -> None:
    from geodsl.checker.options import check_problem

    problem = geodsl.parse_problem("a b c = triangle a b c ? ncoll a b c")
    cases = [
        (lambda: geodsl.realize(problem, seed=-1), "seed must be a whole number from 0 to 2**128 - 1, got -1"),
        (lambda: geodsl.realize(problem, seed=1.5), "seed must be a whole number, got 1.5"),
        (lambda: geodsl.realize(problem, seed=True), "seed must be a whole number, got True"),
        (lambda: geodsl.closure(problem, seed=-1), "seed must be a whole number from 0 to 2**128 - 1, got -1"),
        (lambda: check_problem(problem, seed=1.5), "seed must be a whole number, got 1.5"),
        (lambda: check_problem(problem, seed=-1), "seed must be a whole number from 0 to 2**128 - 1, got -1"),
        (lambda: check_problem(problem, timeout=float("nan")),
         "the time budget must be a number greater than 0, got nan"),
        (lambda: check_problem(problem, diagrams=0), "diagrams must be a whole number from 1, got 0"),
        (lambda: geodsl.realize(problem, diagrams=0), "asked for 0 diagrams"),
    ]
    for call, message in cases:
        with pytest.raises(geodsl.GeoDSLError) as info:
            call()
        assert info.value.message == message
        assert info.value.hint and (info.value.line, info.value.column) == (None, None)
