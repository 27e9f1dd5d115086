"""`geodsl check`: every verdict, answer-key agreement, the audit, errors per problem."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import geodsl
import pytest
from geodsl.checker.options import audit, check_problem

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "geochallenge.gdl"


@pytest.fixture(scope="module")
def checks():
    return {p.name: check_problem(p) for p in geodsl.load(EXAMPLE)}


def verdicts(check):
    return {v.label: v.verdict for v in check.options}


def test_every_verdict_on_the_examples(checks):
    assert verdicts(checks["isosceles_median"]) == {"A": "proved", "B": "proved", "C": "false", "D": "proved"}
    assert verdicts(checks["inscribed_angles"]) == {"A": "proved", "B": "proved", "C": "proved", "D": "false"}
    # Morley's theorem holds but is beyond DD+AR: an engine gap, reported as such.
    assert verdicts(checks["morley"]) == {"A": "true_unproved", "B": "false", "C": "proved"}


def test_proof_kinds_and_lengths(checks):
    options = {v.label: v for v in checks["isosceles_median"].options}
    assert options["A"].proof_kind == "deduction" and options["A"].proof_steps >= 1
    assert options["D"].proof_kind == "counterexample"  # a negated option, shown by the diagram
    assert options["C"].proof_kind is None and not options["C"].numeric


def test_a_false_option_is_never_proved(checks):
    for check in checks.values():
        for v in check.options:
            assert not (v.verdict == "proved" and not v.numeric)


def test_answer_key_agreement_and_disagreement(checks):
    assert all(c.key_consistent for c in checks.values())
    wrong_key = geodsl.parse_problem(EXAMPLE.read_text().split("problem: inscribed_angles")[0]
                                     .replace("answer: ABD", "answer: AC"))
    check = check_problem(wrong_key)
    assert check.key_consistent is False
    assert check.disagreements == ("B", "C", "D")


def test_audit_finds_true_distractors_false_keys_and_unproved_keys():
    problem = geodsl.parse_problem("""\
problem: audited
a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c
option A: DE ∥ BC
option B: DE = BC
option C: A,D,B are collinear
answer: B C
""")
    findings = {(f.label, f.kind) for f in audit([check_problem(problem)])}
    assert findings == {("A", "keyed_false_but_true"), ("B", "keyed_true_but_false")}
    morley = next(p for p in geodsl.load(EXAMPLE) if p.name == "morley")
    kinds = {(f.label, f.kind) for f in audit([check_problem(morley)])}
    assert kinds == {("A", "keyed_true_unproved")}


def test_goal_problems_report_one_option_named_goal():
    check = check_problem(geodsl.parse_problem(
        "a b c = triangle; h = orthocenter h a b c; d = on_line d a h, on_line d b c ? perp a d b c"))
    assert [(v.label, v.verdict) for v in check.options] == [("goal", "proved")]
    assert check.key_consistent is None


def test_cli_json_and_errors_per_problem(tmp_path):
    bad = tmp_path / "mixed.gdl"
    bad.write_text(EXAMPLE.read_text().replace("problem: morley", "problem: broken\na = midpoint a q r\n"
                                               "problem: morley"), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "geodsl", "check", "--json", str(bad)], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 2
    records = json.loads(proc.stdout)
    assert [r["status"] for r in records] == ["ok", "ok", "error", "ok"]
    assert records[2]["error"]["kind"] == "point"
    first = records[0]
    assert set(first) >= {"problem", "status", "error", "options", "answer_key", "key_consistent", "seconds"}
    assert first["options"][0] == {"label": "A", "predicate": "perp a d b c", "numeric": True, "proved": True,
                                   "verdict": "proved", "proof_kind": "deduction",
                                   "proof_steps": first["options"][0]["proof_steps"]}
    assert f"{bad}:" in proc.stderr and "Traceback" not in proc.stderr
