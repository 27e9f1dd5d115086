"""Every ``--json`` output validates against its shipped JSON Schema (draft
2020-12), on real inputs: the shipped datasets and examples, errors, false
goals, problems without a goal, audits and scores."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

import geodsl.schemas
from geodsl.cli import main
from conftest import ODD_PROBLEMS, QUERY_PROBLEM

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(str(p) for p in (ROOT / "examples").iterdir())

ODD = ODD_PROBLEMS + """problem: auxiliary_section
a b c = triangle a b c | d = midpoint d a b; e = midpoint e a c ? para d e b c

""" + QUERY_PROBLEM + """
problem: side_condition_goal
a b c = between a b c ? obtuse_angle b a c
"""


def validate(name: str, instance: object) -> None:
    validator = jsonschema.Draft202012Validator(geodsl.schemas.schema(name), registry=geodsl.schemas.registry())
    validator.validate(instance)


def output(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, object]:
    status = main(list(args))
    return status, json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def odd(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("odd") / "odd.gdl"
    path.write_text(ODD, encoding="utf-8")
    return str(path)


def test_the_schemas_are_valid_draft_2020_12_and_shipped() -> None:
    assert set(geodsl.schemas.COMMANDS) == {"parse", "prove", "check", "realize", "score", "grade", "aux", "generate"}
    for name in geodsl.schemas.names():
        schema = geodsl.schemas.schema(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"] == geodsl.schemas.BASE_URI + f"{name}.json"
        jsonschema.Draft202012Validator.check_schema(schema)
        assert geodsl.schemas.path(name).parent.name == "schemas"


def test_unknown_schema_name() -> None:
    with pytest.raises(geodsl.GeoDSLError) as info:
        geodsl.schemas.path("proof")
    assert info.value.message == "no JSON schema named `proof`"
    assert info.value.hint.startswith("did you mean `prove`? schemas: parse, prove")
    assert (info.value.line, info.value.column) == (None, None)


def test_parse_json(capsys: pytest.CaptureFixture[str], odd: str) -> None:
    status, records = output(capsys, "parse", "--json", "jgex_ag_231", "imo_ag_30", *EXAMPLES, odd)
    assert status == 2
    assert {r["status"] for r in records} == {"ok", "error"}
    validate("parse", records)


def test_prove_json(capsys: pytest.CaptureFixture[str], odd: str) -> None:
    status, records = output(capsys, "prove", "--json", "--facts", "--timeout", "10", *EXAMPLES, odd)
    assert status == 2
    assert {r["verdict"] for r in records} == {"proved", "false", None}
    assert any(r["queries"] for r in records) and any(r["auxiliary"] for r in records)
    assert any(g["proof_kind"] == "diagram" for r in records for g in r["goals"])
    validate("prove", records)


def test_check_json_and_audit(capsys: pytest.CaptureFixture[str], odd: str) -> None:
    status, records = output(capsys, "check", "--json", "--proofs", *EXAMPLES, odd)
    assert status == 2
    validate("check", records)
    status, audited = output(capsys, "check", "--json", "--audit", *EXAMPLES)
    assert status == 0 and set(audited) == {"problems", "audit"} and audited["audit"]
    validate("check", audited)


def test_realize_json(capsys: pytest.CaptureFixture[str], odd: str) -> None:
    status, records = output(capsys, "realize", "--json", "--diagrams", "2", *EXAMPLES, odd)
    assert status == 2
    assert any(r["status"] == "error" and r["error"]["kind"] == "realization" for r in records)
    validate("realize", records)


def test_score_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": 1, "answer": "BD", "difficulty": "easy"}\n{"id": 2, "answer": ""}\n'
                    '{"id": 3, "answer": "A", "options": ["x", "y", "z"], "difficulty": "hard"}\n')
    preds = tmp_path / "pred.jsonl"
    preds.write_text('{"id": 1, "output": "[Answer][BD]"}\n{"id": 2, "answer": []}\n')
    status, report = output(capsys, "score", "--json", "--predictions", str(preds), "--gold", str(gold))
    assert status == 0 and set(report["by_difficulty"]) == {"easy", "hard"}
    validate("score", report)


def test_the_schemas_reject_what_the_commands_never_print(capsys: pytest.CaptureFixture[str]) -> None:
    _, records = output(capsys, "prove", "--json", EXAMPLES[0])
    validate("prove", records)
    for mutate in (lambda r: r.pop("status"), lambda r: r.update(status="proved"),
                   lambda r: r.update(error={"kind": "x"}), lambda r: r["goals"][0].update(verdict="maybe"),
                   lambda r: r.update(extra=1)):
        bad = copy.deepcopy(records)
        mutate(bad[0])
        with pytest.raises(jsonschema.ValidationError):
            validate("prove", bad)


def test_the_schemas_enumerate_what_the_code_defines() -> None:
    from typing import get_args

    from geodsl.checker.options import VERDICTS
    from geodsl.proofs import STATUSES, StepKind

    defs = geodsl.schemas.schema("common")["$defs"]
    step = defs["proof"]["properties"]["steps"]["items"]["properties"]  # type: ignore[index]
    assert step["kind"]["enum"] == list(get_args(StepKind))
    assert defs["verdict"]["properties"]["verdict"]["enum"] == list(VERDICTS)  # type: ignore[index]
    assert defs["closure_status"]["enum"] == [*STATUSES, None]  # type: ignore[index]
