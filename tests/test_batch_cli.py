"""Batch runs of the commands: --jobs gives the bytes one process gives (timing
fields aside) for check, prove, realize, aux and grade; --out streams records
that validate against the schemas; a run stopped by SIGTERM and resumed is
the uninterrupted run; a problem past --problem-timeout is that problem's
error record; the progress bar only on a terminal; the flags' errors."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jsonschema
import pytest

import geodsl.datasets
import geodsl.schemas
from geodsl.batch import without_timing
from geodsl.cli import main
from conftest import ODD_PROBLEMS, QUERY_PROBLEM

ODD = ODD_PROBLEMS + QUERY_PROBLEM + """
problem: options
a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c
option A: para d e b c
option B: perp d e b c
answer: A
"""

TIME = re.compile(r"\d+\.\d+ (s\b|candidates/s)")


def strip_text(text: str) -> str:
    return TIME.sub("T s", text)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 JGEX problems, 2 IMO problems and 7 odd cases, in one file."""
    lines = geodsl.datasets.text("jgex_ag_231").splitlines()[:24] + geodsl.datasets.text("imo_ag_30").splitlines()[:4]
    path = tmp_path_factory.mktemp("batch") / "corpus.gdl"
    path.write_text("\n".join(lines) + "\n\n" + ODD, encoding="utf-8")
    return path


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def validate(command: str, records: object) -> None:
    jsonschema.Draft202012Validator(geodsl.schemas.schema(command), registry=geodsl.schemas.registry()).validate(
        records)


@pytest.mark.parametrize("args", [
    ("check", "--proofs"), ("check", "--json", "--audit", "--proofs"), ("prove",), ("prove", "--json", "--facts"),
    ("realize", "--json"),
])
def test_jobs_give_the_bytes_one_process_gives(corpus: Path, capsys: pytest.CaptureFixture[str],
                                               args: tuple[str, ...]) -> None:
    one = run_cli(capsys, *args, str(corpus))
    two = run_cli(capsys, *args, str(corpus), "--jobs", "2")
    assert one[0] == two[0] == 2  # the typo is an input error; every other problem ran
    assert strip_text(one[2]) == strip_text(two[2])
    assert f"{corpus}:31:29: error: unknown construction `midpiont`" in one[2]
    if "--json" in args:
        first, second = json.loads(one[1]), json.loads(two[1])
        validate(args[0], first)
        assert without_timing(first) == without_timing(second)
        assert TIME.sub("", one[1].replace(" ", "")) != "" and len(one[1]) > 500
    else:
        assert strip_text(one[1]) == strip_text(two[1]) and len(one[1]) > 500


def test_aux_and_grade_with_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = tmp_path / "aux.jsonl"
    items.write_text("\n".join(json.dumps(i, ensure_ascii=False) for i in [
        {"problem": "a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c ? para d e b c",
         "aux": ["连接DE", "take the midpoint F of BC"]},
        {"problem": "a b c = triangle a b c ? perp a b a c", "aux": "connect AB"},
        {"problem": "a b c = triangle a b c", "aux": [1]},
    ]) + "\n", encoding="utf-8")
    one = run_cli(capsys, "aux", "--batch", str(items), "--json")
    two = run_cli(capsys, "aux", "--batch", str(items), "--json", "--jobs", "2")
    assert one[0] == two[0] == 2 and strip_text(one[2]) == strip_text(two[2])
    validate("aux", json.loads(two[1]))
    assert without_timing(json.loads(one[1])) == without_timing(json.loads(two[1]))
    iso = "a b c = iso_triangle a b c; d = midpoint d b c ? perp a d b c"
    batch = tmp_path / "grade.jsonl"
    batch.write_text("\n".join(json.dumps(i, ensure_ascii=False) for i in [
        {"problem": iso, "solution": "∵ AB = AC ∴ ∠B = ∠C\n∴ AD ⊥ BC\n"},
        {"problem": iso, "solution": {"steps": ["BD = 2CD", "AD ⊥ BC"]}},
        {"problem": iso},
    ]) + "\n", encoding="utf-8")
    one = run_cli(capsys, "grade", "--batch", str(batch))
    two = run_cli(capsys, "grade", "--batch", str(batch), "--jobs", "2")
    assert one[0] == two[0] == 2 and one[1] == two[1] and "first error 1" in one[1]
    assert one[2] == two[2]


def test_a_problem_past_the_hard_limit_is_its_error_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from geodsl.realizer.synthetic import premise_text

    path = tmp_path / "two.txt"
    jgex = geodsl.datasets.text("jgex_ag_231").splitlines()[:2]
    # Saturating 120 points runs to its 30 s budget; the hard limit stops it after 1 s.
    path.write_text("\n".join(["slow", premise_text(120, 1), *jgex]) + "\n", encoding="utf-8")
    status, out, err = run_cli(capsys, "prove", str(path), "--facts", "--json", "--jobs", "1", "--problem-timeout", "1")
    assert status == 1  # no bad input, but a problem got no result
    first, second = json.loads(out)
    validate("prove", [first, second])
    assert (first["problem"], first["status"], first["error"]["kind"]) == ("slow", "error", "timeout")
    assert first["error"]["message"] == "no result within the hard limit of 1 s per problem; the worker was stopped"
    assert second["status"] == "ok" and second["verdict"] == "proved" and second["fact_list"]
    assert f"{path}:1:1: error: no result within the hard limit of 1 s per problem" in err
    assert "hint: raise --problem-timeout, or lower --timeout so the closure stops on its own first" in err


def out_records(path: Path) -> list[object]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_out_streams_records_and_a_summary_table(corpus: Path, capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    out = tmp_path / "prove.jsonl"
    status, text, err = run_cli(capsys, "prove", str(corpus), "--out", str(out), "--jobs", "2")
    assert status == 2 and "unknown construction `midpiont`" in err
    records = out_records(out)
    validate("prove", records)
    status, json_text, _ = run_cli(capsys, "prove", str(corpus), "--json")
    assert without_timing(records) == without_timing(json.loads(json_text))
    assert re.search(r"problems\s*│\s*21\b", text) and re.search(r"errors\s*│\s*2\b", text)
    assert "2 worker processes" in text and "peak memory per worker" in text


def test_a_run_stopped_by_sigterm_resumes_to_the_uninterrupted_file(corpus: Path, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    whole = tmp_path / "whole.jsonl"
    assert main(["check", str(corpus), "--out", str(whole)]) == 2
    capsys.readouterr()
    cut = tmp_path / "cut.jsonl"
    # From a neutral folder: the installed package, not the source tree.
    proc = subprocess.Popen([sys.executable, "-m", "geodsl", "check", str(corpus), "--out", str(cut), "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not cut.exists() or cut.read_text(encoding="utf-8").count("\n") < 4):
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 143
    kept = cut.read_text(encoding="utf-8").count("\n")
    assert 4 <= kept < 21  # stopped part-way
    status, text, _ = run_cli(capsys, "check", str(corpus), "--out", str(cut), "--resume", "--jobs", "2")
    assert status == 2  # the typo's record, resumed or not, is an input error
    assert re.search(rf"resumed\s*│\s*{kept} records already in the file \(21 in all\)", text)
    assert without_timing(out_records(cut)) == without_timing(out_records(whole))
    validate("check", out_records(cut))


def test_the_progress_bar_is_on_a_terminal_only(corpus: Path, tmp_path: Path) -> None:
    """stderr a terminal: a bar there, stdout untouched; not a terminal: nothing."""
    command = [sys.executable, "-m", "geodsl", "realize", str(corpus), "--json", "--jobs", "2"]
    plain = subprocess.run(command, capture_output=True, cwd=tmp_path)
    assert plain.stderr.startswith(f"{corpus}:31:29: error: unknown construction".encode())
    assert b"problems/s" not in plain.stderr and b"\x1b" not in plain.stderr  # the typo's error, nothing else
    leader, follower = pty.openpty()
    with tempfile.TemporaryFile() as captured:
        proc = subprocess.Popen(command, stdout=captured, stderr=follower, cwd=tmp_path)
        os.close(follower)
        shown = b""
        while True:  # until the child closes the terminal (EIO)
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        assert proc.wait(timeout=60) == 2
        os.close(leader)
        captured.seek(0)
        stdout = captured.read()
    assert without_timing(json.loads(stdout)) == without_timing(json.loads(plain.stdout))
    assert b"problems/s" in shown and b"21/21" in shown and b"2 errors" in shown


@pytest.mark.parametrize("args, message", [
    (["--resume"], "geodsl: error: --resume continues an --out file: give --out FILE.jsonl"),
    (["--out", "x.jsonl", "--json"], "geodsl: error: --out writes JSON already (one record per line): drop --json"),
    (["--ray", "--jobs", "2"], "geodsl: error: --ray runs on the cluster's CPUs: drop --jobs"),
    (["--jobs", "0"], "geodsl: error: --jobs 0: the number of processes must be a whole number from 1"),
    (["--problem-timeout", "0"], "geodsl: error: --problem-timeout 0: seconds must be a finite number > 0"),
    (["--problem-timeout", "inf"], "geodsl: error: --problem-timeout inf: seconds must be a finite number > 0"),
    (["--worker-memory", "10"], "geodsl: error: --worker-memory 10: MiB per worker must be a whole number from 256"),
    (["--worker-tasks", "x"], "geodsl: error: --worker-tasks x: the number of problems must be a whole number from 1"),
])
def test_flag_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("check", "prove", "realize"):
        status, _, err = run_cli(capsys, command, "imo_ag_30", *args)
        assert status == 2 and message in err and "Traceback" not in err, (command, err)


def test_a_ray_address_where_nothing_listens_is_refused_at_once(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Not minutes of Ray's retries, and no empty --out file left behind."""
    out = tmp_path / "never.jsonl"
    start = time.monotonic()
    status, _, err = run_cli(capsys, "check", "imo_ag_30", "--ray", "127.0.0.1:9", "--out", str(out))
    assert status == 2 and time.monotonic() - start < 15
    assert "geodsl: error: --ray 127.0.0.1:9: cannot connect to a Ray cluster: nothing answers at 127.0.0.1:9" in err
    assert "hint: start one with `ray start --head`" in err and "Traceback" not in err
    assert not out.exists()


def test_out_refuses_to_overwrite_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "done.jsonl"
    out.write_text("{}\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "realize", "imo_ag_30", "--out", str(out))
    assert status == 2
    assert f"geodsl: error: --out {out}: the file exists" not in err  # located at the file, not a usage error
    assert f"{out}: error: --out {out}: the file exists" in err
    assert "hint: pass --resume to continue that run, or remove the file first" in err
    status, _, err = run_cli(capsys, "realize", "imo_ag_30", "--out", str(out), "--resume")
    assert status == 2 and f"--resume: line 1 of {out} is the record of None#None, but problem 1 of the input " \
                           "is imo_ag_30#translated_imo_2000_p1" in err


def test_the_audit_of_an_out_run_covers_resumed_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``check --audit --out``: the findings follow the summary table, and a
    resumed run's audit includes the records the file already held."""
    example = Path(__file__).resolve().parent.parent / "examples" / "geochallenge.gdl"
    out = tmp_path / "audit.jsonl"
    status, text, _ = run_cli(capsys, "check", str(example), "--audit", "--out", str(out))
    assert status == 0
    whole = text[text.index("audit: "):]
    assert whole == "audit: 1 finding\n  morley: option A (cong p q q r): keyed true unproved\n"
    lines = out.read_text(encoding="utf-8").splitlines()
    morley = next(i for i, line in enumerate(lines) if '"problem": "morley"' in line)
    out.write_text("\n".join(lines[:morley + 1]) + "\n", encoding="utf-8")  # stopped after morley
    status, text, _ = run_cli(capsys, "check", str(example), "--audit", "--out", str(out), "--resume")
    assert status == 0 and text[text.index("audit: "):] == whole
