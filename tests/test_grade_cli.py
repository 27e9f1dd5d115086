"""`geodsl grade` on the command line: single solutions and batches, the
JSON output against its schema, located errors and usage errors."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import geodsl
import geodsl.schemas
from geodsl.cli import main

ISO = "a b c = iso_triangle a b c; d = midpoint d b c ? perp a d b c"
GOOD = "∵ AB = AC ∴ ∠B = ∠C\n∴ AD ⊥ BC\n"


def validate(instance: object, part: str | None = None) -> None:
    schema = geodsl.schemas.schema("grade")
    if part is not None:
        schema = {"$schema": schema["$schema"], "$ref": geodsl.schemas.BASE_URI + f"grade.json#/$defs/{part}"}
    jsonschema.Draft202012Validator(schema, registry=geodsl.schemas.registry()).validate(instance)


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    problem = tmp_path / "iso.gdl"
    problem.write_text(f"problem: iso\n{ISO}\n", encoding="utf-8")
    two = tmp_path / "two.gdl"
    two.write_text(f"problem: iso\n{ISO}\n\nproblem: other\na b c = triangle a b c ? coll a b b\n",
                   encoding="utf-8")
    solution = tmp_path / "s.txt"
    solution.write_text(GOOD, encoding="utf-8")
    proof = tmp_path / "proof.txt"
    proof.write_text(geodsl.closure(geodsl.parse_problem(ISO)).proof().to_text(), encoding="utf-8")
    batch = tmp_path / "items.jsonl"
    batch.write_text("\n".join([
        json.dumps({"problem": ISO, "solution": GOOD}),
        json.dumps({"problem": ISO, "solution": {"steps": ["BD = 2CD", "AD ⊥ BC"]}}),
        '{"problem": "a b c = triangle a b c", "solution": ',
        json.dumps({"problem": "a b c = triangle a b c; d = midpiont d a b ? coll a b d", "solution": "x"}),
        json.dumps({"problem": ISO}),
        json.dumps({"problem": ISO, "solution": open(proof, encoding="utf-8").read()}),
    ]) + "\n", encoding="utf-8")
    return {"problem": problem, "two": two, "solution": solution, "proof": proof, "batch": batch}


def test_one_solution(files: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    summary = tmp_path / "summary.json"
    status = main(["grade", "--problem", str(files["problem"]), "--solution", str(files["solution"]), "--json",
                   "--summary", str(summary)])
    out = capsys.readouterr()
    assert status == 0
    records = json.loads(out.out)
    validate(records)
    assert [s["verdict"] for s in records[0]["steps"]] == ["valid", "valid"]
    assert records[0]["problem"] == "iso" and records[0]["pcs"] == 1.0
    assert "1 solution graded (0 errors), 2 steps: ACS 100.0%, PCS 100.0%" in out.err
    report = json.loads(summary.read_text())
    validate(report, "summary")
    assert report["pcs_by_steps"]["1-4"] == {"solutions": 1, "pcs": 1.0} and report["delta_pcs"] is None
    status = main(["grade", "--problem", str(files["problem"]), "--solution", str(files["proof"])])
    text = capsys.readouterr().out
    assert status == 0 and "first error -" in text and "decided symbolically 100.0%" in text


def test_a_batch(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["grade", "--batch", str(files["batch"]), "--json"])
    out = capsys.readouterr()
    assert status == 2
    records = json.loads(out.out)
    validate(records)
    assert [r["status"] for r in records] == ["ok", "ok", "error", "error", "error", "ok"]
    assert records[1]["first_error"] == 1 and records[1]["steps"][0]["verdict"] == "false"
    assert records[5]["format"] == "alphageometry" and records[5]["pcs"] == 1.0
    bad_json, typo, missing = (r["error"] for r in records[2:5])
    assert (bad_json["line"], bad_json["message"]) == (3, "not valid JSON: Expecting value")
    assert typo["message"].startswith("unknown construction `midpiont`")
    assert missing["message"].startswith('an item needs "problem" (text) and "solution"')
    assert f"{files['batch']}:3:" in out.err
    # the same records from two processes
    status = main(["grade", "--batch", str(files["batch"]), "--json", "--jobs", "2"])
    again = json.loads(capsys.readouterr().out)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in records]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in again] == strip


def test_usage_errors(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["--problem", str(files["problem"])], "geodsl: error: --problem needs --solution"),
        (["--problem", str(files["two"]), "--solution", str(files["solution"])],
         f"geodsl: error: {files['two']} holds 2 problems: pick one with --name"),
        (["--problem", str(files["problem"]), "--solution", str(files["solution"]), "--resume"],
         "geodsl: error: --resume continues an --out file: give --out FILE.jsonl"),
        (["--problem", str(files["problem"]), "--solution", str(files["solution"]), "--judge", "openai"],
         "geodsl: error: --judge openai needs --judge-model"),
        (["--problem", str(files["problem"]), "--solution", str(files["solution"]), "--max-skip", "0"],
         "geodsl: error: --max-skip 0: the number of steps must be a whole number from 1"),
        (["--problem", str(files["problem"]), "--solution", str(files["solution"]), "--judge-retries", "-1"],
         "geodsl: error: --judge-retries -1: must be a whole number from 0"),
        (["--problem", str(files["problem"]), "--solution", str(files["problem"].parent / "nope.txt")],
         "cannot read"),
    ]
    for extra, message in cases:
        status = main(["grade", *extra])
        err = capsys.readouterr().err
        assert status == 2 and message in err, (extra, err)
        assert "Traceback" not in err
    status = main(["grade", "--problem", str(files["two"]), "--name", "iso", "--solution", str(files["solution"])])
    assert status == 0 and "first error -" in capsys.readouterr().out


def test_a_bad_solution_is_a_located_error(files: dict[str, Path], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"steps": ["AB = AC",\n  oops]}', encoding="utf-8")
    status = main(["grade", "--problem", str(files["problem"]), "--solution", str(bad), "--json"])
    out = capsys.readouterr()
    assert status == 2
    records = json.loads(out.out)
    validate(records)
    error = records[0]["error"]
    assert (error["line"], error["column"], error["message"]) == (2, 3, "the solution is not valid JSON: "
                                                                       "Expecting value")
    assert f"{bad}:2:3: error:" in out.err


def test_batch_items_that_are_too_large_or_hold_several_problems(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "items.jsonl"
    batch.write_text(json.dumps({"problem": ISO + "\n" + ISO, "solution": "x"}) + "\n"
                     + json.dumps({"problem": ISO, "solution": "x" * 1_000_001}) + "\n", encoding="utf-8")
    status = main(["grade", "--batch", str(batch), "--json"])
    records = json.loads(capsys.readouterr().out)
    assert status == 2
    assert records[0]["error"]["message"] == "the item's problem text holds 2 problems, not one"
    assert records[1]["error"]["message"].startswith("the item is 1,000,0")
    assert records[1]["error"]["line"] == 2
