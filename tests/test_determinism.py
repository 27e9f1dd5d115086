"""The determinism promise, exactly (docs/closure.md, "Determinism"): the
same input, seed, flags and version give the same bytes. In every ``--json``
output the wall-clock fields are the keys named ``seconds``, and nothing
else varies; with them removed, two runs in separate processes with
different hash seeds print identical bytes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

PROBLEMS = "imo_ag_30"
# Proofs with numerical checks, halved angles and distance chases, and a file of options.
NAMED = ["--problem", "translated_imo_2000_p1", "--problem", "translated_imo_2004_p1"]


def _run(args: list[str], hash_seed: str, where: Path) -> str:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    # From a neutral folder: the installed package, not the source tree.
    done = subprocess.run([sys.executable, "-m", "geodsl", *args], capture_output=True, text=True, env=env,
                          cwd=where)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _without_timing(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_timing(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_timing(v) for v in value]
    return value


@pytest.mark.parametrize("args", [
    ["prove", PROBLEMS, *NAMED, "--json", "--timeout", "10"],
    ["check", str(EXAMPLES / "geochallenge.gdl"), "--json", "--timeout", "10", "--proofs"],
    ["realize", PROBLEMS, "--json", "--diagrams", "2", "--seed", "4"],
    ["parse", PROBLEMS, "--json"],
    # The algebraic certificate (coordinates, triangular set) and the auxiliary-point search.
    ["prove", PROBLEMS, "--problem", "translated_imo_2012_p5", "--method", "algebra", "--json", "--timeout", "30"],
    ["prove", "jgex_ag_231", "--problem", "examples/complete2/unsolved2/complete_011_7_Book_00EE_04_E051-9.gex",
     "--aux-search", "--jobs", "2", "--json", "--timeout", "30"],
])
def test_json_outputs_are_identical_apart_from_seconds(args: list[str], tmp_path: Path) -> None:
    first, second = _run(args, "1", tmp_path), _run(args, "2", tmp_path)
    a, b = json.loads(first), json.loads(second)
    assert json.dumps(_without_timing(a), ensure_ascii=False) == json.dumps(_without_timing(b), ensure_ascii=False)
    # The timing fields are there, and are the only ones removed.
    if args[0] in ("prove", "check"):
        assert all("seconds" in record for record in a)
