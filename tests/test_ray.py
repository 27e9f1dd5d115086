"""``--ray`` on a real Ray instance this module starts on this machine (two
CPUs): the same records as one process, in the same order; an --out run
stopped part-way and resumed on Ray is the uninterrupted file; a problem past
its hard limit is cancelled (its worker killed) and gets its error record; a
run stopped by SIGTERM exits 143 with whole records, and resumes.

Ray is in the test extra (``pip install ".[test]"``), so this runs in CI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
import ray

import geodsl.datasets
import geodsl.schemas
from geodsl.batch import without_timing
from geodsl.cli import main


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Ray instance; its address (the GCS) for a second driver.

    Started from a neutral folder: Ray's workers import from the driver's
    working directory, and in the repository that is the source tree, whose
    compiled modules only an editable install has."""
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("ray-driver"))
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()
        os.chdir(here)


@pytest.fixture(scope="module")
def problems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    lines = geodsl.datasets.text("jgex_ag_231").splitlines()[:24] + geodsl.datasets.text("imo_ag_30").splitlines()[:4]
    path = tmp_path_factory.mktemp("ray") / "problems.txt"
    path.write_text("\n".join(lines) + "\ntypo\na b c = triangle a b c; d = midpiont d a b ? coll a b d\n", encoding="utf-8")
    return path


def records(path: Path) -> list[object]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_second_driver_at_the_address_gives_the_records_of_one_process(
        cluster: str, problems: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(problems), "--json"]) == 2
    here = capsys.readouterr()
    done = subprocess.run([sys.executable, "-m", "geodsl", "check", str(problems), "--json", "--ray", cluster],
                          capture_output=True, text=True, timeout=300, cwd=problems.parent)
    assert done.returncode == 2, done.stderr
    assert without_timing(json.loads(done.stdout)) == without_timing(json.loads(here.out))
    assert f"{problems}:30:29: error: unknown construction `midpiont`" in done.stderr
    jsonschema.Draft202012Validator(geodsl.schemas.schema("check"),
                                    registry=geodsl.schemas.registry()).validate(json.loads(done.stdout))


def test_an_out_file_resumed_on_ray_is_the_whole_run(cluster: str, problems: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    whole = tmp_path / "whole.jsonl"
    assert main(["prove", str(problems), "--out", str(whole)]) == 2
    capsys.readouterr()
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:6]) + lines[6][:30], encoding="utf-8")  # as a kill leaves it
    assert main(["prove", str(problems), "--out", str(cut), "--resume", "--ray"]) == 2
    table = capsys.readouterr().out
    assert without_timing(records(cut)) == without_timing(records(whole))
    assert "Ray, 2 CPUs" in table and "6 records already in the file (15 in all)" in table


def test_a_problem_past_the_hard_limit_is_cancelled(cluster: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from geodsl.realizer.synthetic import premise_text

    path = tmp_path / "slow.txt"
    path.write_text("\n".join(["slow", premise_text(120, 1), *geodsl.datasets.text("jgex_ag_231").splitlines()[:2]])
                    + "\n", encoding="utf-8")
    status = main(["prove", str(path), "--facts", "--json", "--ray", "--problem-timeout", "2"])
    out = capsys.readouterr()
    assert status == 1
    slow, fast = json.loads(out.out)
    assert slow["error"]["kind"] == "timeout" and fast["verdict"] == "proved"
    assert "no result within the hard limit of 2 s per problem; the worker was stopped" in out.err


def test_sigterm_stops_a_ray_run_cleanly_and_it_resumes(cluster: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """ray.init installs its own SIGTERM handler (exit 15, mid-write); a
    batch run keeps its own: exit 143, the file ends on a whole record."""
    cut = tmp_path / "cut.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "geodsl", "check", "jgex_ag_231", "--ray", "--out", str(cut)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not cut.exists() or cut.read_bytes().count(b"\n") < 4):
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 143
    kept = cut.read_bytes()
    assert kept.endswith(b"\n") and 4 <= kept.count(b"\n") < 231
    whole = tmp_path / "whole.jsonl"
    assert main(["check", "jgex_ag_231", "--out", str(whole)]) == 0
    assert main(["check", "jgex_ag_231", "--out", str(cut), "--resume", "--ray"]) == 0
    capsys.readouterr()
    assert without_timing(records(cut)) == without_timing(records(whole))
