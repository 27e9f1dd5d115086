"""GeoChallenge's metrics against hand-computed values, answer extraction
from raw model text, and `geodsl score`."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from geodsl.checker.answers import extract_answer
from geodsl.checker.metrics import Scored, hamming_accuracy, precision_recall_f1, score
from geodsl.checker.records import RecordError, load_scored

F = frozenset


@pytest.mark.parametrize("text, expected", [
    ("... so the correct options are B and D.\n[Answer][BD]", ("B", "D")),
    ("[Answer][A]\nwait, no.\n[Answer][C]", ("C",)),
    ("推理完毕。[答案][BD]", ("B", "D")),
    ("[Answer]: [B, D]", ("B", "D")),
    ("Therefore, Answer: B, D", ("B", "D")),
    ("Final answer: AC.", ("A", "C")),
    ("The answer is B and D.", ("B", "D")),
    ("答案：BD", ("B", "D")),
    ("After checking each option we get **BD**", ("B", "D")),
    ("We conclude **A, C**.", ("A", "C")),
    ("I cannot decide.", None),
    ("[Answer][XY]", None),  # not options of this problem
    ("", None),
])
def test_extract_answer(text, expected):
    assert extract_answer(text) == expected


def test_extraction_reads_only_the_tail_of_huge_outputs():
    text = "[Answer][A]" + "x" * 100_000 + "[Answer][D]"
    assert extract_answer(text) == ("D",)
    assert extract_answer("[Answer][A]" + "x" * 100_000) is None


def test_precision_recall_f1_by_hand():
    assert precision_recall_f1(F("BD"), F("BD")) == (1.0, 1.0, 1.0)
    p, r, f = precision_recall_f1(F("BD"), F("BC"))
    assert (p, r) == (0.5, 0.5) and f == pytest.approx(0.5)
    p, r, f = precision_recall_f1(F("ABD"), F("A"))
    assert (p, r) == (1.0, pytest.approx(1 / 3)) and f == pytest.approx(0.5)
    assert precision_recall_f1(F("A"), F()) == (0.0, 0.0, 0.0)
    assert precision_recall_f1(F("A"), None) == (0.0, 0.0, 0.0)


def test_hamming_accuracy_by_hand():
    assert hamming_accuracy(F("BD"), F("BC"), "ABCD") == 0.5  # A right, B right, C wrong, D wrong
    assert hamming_accuracy(F("BD"), F(), "ABCD") == 0.5    # an explicit empty answer labels every option
    assert hamming_accuracy(F("BD"), None, "ABCD") == 0.0   # no answer labels none (docs/checker.md)
    assert hamming_accuracy(F("A"), F("A"), "ABCDE") == 1.0


def test_report_by_hand():
    items = [
        Scored(F("BD"), F("BD"), difficulty="easy"),   # right
        Scored(F("A"), F("AB"), difficulty="easy"),    # wrong: p 1/2, r 1, f 2/3, hamming 3/4
        Scored(F("C"), None, difficulty="hard"),       # no answer
        Scored(F("AC"), F("AC"), truncated=True, difficulty="hard"),  # out of length
    ]
    report = score(items)
    m = report["metrics"]
    assert m["exact_match"] == pytest.approx(2 / 4)
    assert m["precision"] == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    assert m["recall"] == pytest.approx((1 + 1 + 0 + 1) / 4)
    assert m["f1"] == pytest.approx((1 + 2 / 3 + 0 + 1) / 4)
    assert m["hamming_accuracy"] == pytest.approx((1 + 0.75 + 0 + 1) / 4)
    assert m["avg_selected"] == pytest.approx((2 + 2 + 0 + 2) / 4)
    assert report["outcomes"] == {"right_answer": 1, "wrong_answer": 1, "no_answer": 1, "out_of_length": 1}
    assert report["by_difficulty"]["easy"]["metrics"]["exact_match"] == 0.5
    assert report["by_difficulty"]["hard"]["problems"] == 2


def test_random_baseline_exact_match_is_one_in_sixteen():
    # Each option chosen with probability 1/2: all 16 subsets equally likely.
    for gold in (F("A"), F("BD"), F("ABC")):
        items = [Scored(gold, F(c for c, keep in zip("ABCD", mask) if keep))
                 for mask in itertools.product((0, 1), repeat=4)]
        report = score(items)
        assert report["metrics"]["exact_match"] == pytest.approx(1 / 16)
        assert report["metrics"]["hamming_accuracy"] == pytest.approx(1 / 2)
        assert report["metrics"]["avg_selected"] == pytest.approx(2)


def write_jsonl(path: Path, records: list[object]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_load_scored_and_cli(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [
        {"id": 1, "answer": "BD", "difficulty": "easy"},
        {"id": 2, "answer": "A", "options": ["AB ⟂ CD", "AB ∥ EF", "CD = EF", "A,B,C are collinear",
                                               "M is midpoint of AB"], "difficulty": "hard"},
        {"id": 3, "answer": "C"},
    ])
    preds = write_jsonl(tmp_path / "pred.jsonl", [
        {"id": 1, "output": "reasoning ... [Answer][BD]"},
        {"id": 2, "output": "Answer: A, E", "finish_reason": "stop"},
    ])
    items = load_scored(preds, gold)
    assert [i.outcome for i in items] == ["right_answer", "wrong_answer", "no_answer"]
    assert items[1].options == ("A", "B", "C", "D", "E")
    proc = subprocess.run([sys.executable, "-m", "geodsl", "score", "--predictions", str(preds), "--gold",
                           str(gold), "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["metrics"]["exact_match"] == pytest.approx(1 / 3)
    assert set(report["by_difficulty"]) == {"easy", "hard"}
    table = subprocess.run([sys.executable, "-m", "geodsl", "score", "--predictions", str(preds), "--gold",
                            str(gold)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert table.returncode == 0 and "exact" in table.stdout and "33.33" in table.stdout


def test_bad_records_are_located(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"id": "a", "answer": "B"}])
    bad = tmp_path / "pred.jsonl"
    bad.write_text('{"id": "a", "output": "x"}\n{"id": "b" "output": 1}\n', encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "geodsl", "score", "--predictions", str(bad), "--gold",
                           str(gold)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"{bad}:2:12: error: invalid JSON")
    dup = write_jsonl(tmp_path / "dup.jsonl", [{"id": "a", "answer": "B"}, {"id": "a", "answer": "C"}])
    with pytest.raises(RecordError, match="appears twice") as info:
        load_scored(dup, gold)
    assert info.value.line == 2
    unknown = write_jsonl(tmp_path / "unk.jsonl", [{"id": "zzz", "answer": "B"}])
    with pytest.raises(RecordError, match="not in the gold file"):
        load_scored(unknown, gold)


def test_empty_answers_agree_across_measures():
    # An explicit empty answer is the empty set for every measure ...
    both_empty = score([Scored(F(), F())])["metrics"]
    assert both_empty == {"exact_match": 1.0, "precision": 1.0, "recall": 1.0, "f1": 1.0,
                          "hamming_accuracy": 1.0, "avg_selected": 0.0}
    # ... and no answer is 0 on every per-problem measure, even against an empty gold.
    missing = score([Scored(F(), None)])
    assert missing["metrics"] == {"exact_match": 0.0, "precision": 0.0, "recall": 0.0, "f1": 0.0,
                                  "hamming_accuracy": 0.0, "avg_selected": 0.0}
    assert missing["outcomes"]["no_answer"] == 1
    empty_vs_some = score([Scored(F("B"), F())])["metrics"]
    assert (empty_vs_some["exact_match"], empty_vs_some["f1"], empty_vs_some["hamming_accuracy"]) == (0.0, 0.0, 0.75)


def test_empty_answers_from_records(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"id": 1, "answer": ""}, {"id": 2, "answer": []},
                                                 {"id": 3, "answer": ""}])
    preds = write_jsonl(tmp_path / "pred.jsonl", [{"id": 1, "answer": ""}, {"id": 2, "output": "no idea"}])
    items = load_scored(preds, gold)
    assert [(i.gold, i.predicted, i.outcome) for i in items] == [
        (F(), F(), "right_answer"), (F(), None, "no_answer"), (F(), None, "no_answer")]
    assert [hamming_accuracy(i.gold, i.predicted, i.options) for i in items] == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("options, labels", [
    (None, ("A", "B", "C", "D")),
    (["A", "B", "C"], ("A", "B", "C")),
    (["C", "A", "B"], ("C", "A", "B")),
    (["x", "y", "z"], ("A", "B", "C")),            # option texts, labelled in order
    (["a", "b"], ("A", "B")),                      # lower-case letters are texts too
    (["AB ⟂ CD", "AB ∥ EF", "C"], ("A", "B", "C")),
    ({"A": "AB ⟂ CD", "B": "AB ∥ EF"}, ("A", "B")),
])
def test_what_options_mean(tmp_path, options, labels):
    record = {"id": 1, "answer": "A"} if options is None else {"id": 1, "answer": "A", "options": options}
    gold = write_jsonl(tmp_path / "gold.jsonl", [record])
    preds = write_jsonl(tmp_path / "pred.jsonl", [{"id": 1, "answer": "A"}])
    assert load_scored(preds, gold)[0].options == labels


@pytest.mark.parametrize("record, message, hint", [
    ({"id": 1, "answer": "x", "options": ["x", "y", "z"]}, "the answer names `X`, which is not an option",
     "options are A, B, C"),
    ({"id": 1, "answer": "A", "options": ["A", "B", "A"]}, "option label `A` is listed twice", "list each label once"),
    ({"id": 1, "answer": "A", "options": {"A": "t", "opt2": "u"}}, "`options` is keyed by `opt2`, which is not a label",
     'key the options by capital letters: {"A": "...", "B": "..."}'),
    ({"id": 1, "answer": "A", "options": [f"text {i}" for i in range(27)]},
     "`options` lists 27 option texts; at most 26 can be labelled A-Z", "key the options by label instead"),
    ({"id": 1, "answer": "A", "options": [1, 2]},
     "`options` must be a list of labels, a list of option texts or an object", '"options": ["A", "B", "C", "D"]'),
])
def test_bad_options_are_located(tmp_path, record, message, hint):
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"id": 0, "answer": "A"}, record])
    preds = write_jsonl(tmp_path / "pred.jsonl", [])
    with pytest.raises(RecordError) as info:
        load_scored(preds, gold)
    assert (info.value.message, info.value.hint) == (message, hint)
    assert (info.value.source, info.value.line, info.value.column) == (str(gold), 2, 1)


def test_an_empty_gold_file_is_an_error(tmp_path, capsys):
    from geodsl.cli import main

    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n  \n", encoding="utf-8")
    preds = write_jsonl(tmp_path / "pred.jsonl", [])
    assert main(["score", "--predictions", str(preds), "--gold", str(gold)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"{gold}:1:1: error: no gold record in {gold}: the file is empty or blank"
    assert err[-1] == '  hint: one JSON object per line: {"id": ..., "answer": "BD"}'
    # No predictions at all is a valid (if poor) run: every problem unanswered.
    write_jsonl(gold, [{"id": 1, "answer": "A"}])
    assert main(["score", "--json", "--predictions", str(preds), "--gold", str(gold)]) == 0
    assert json.loads(capsys.readouterr().out)["outcomes"]["no_answer"] == 1


# ---------------------------------------------------------------- GeoLaux


def test_geolaux_step_scores_and_pqs() -> None:
    import math

    from geodsl.checker.metrics import pcs, pqs, step_score

    assert [step_score(v) for v in ("valid", "valid_skip", "judged_correct", "false", "unjustified",
                                    "judged_wrong", "undecided")] == [1, 1, 1, 0, 0, 0, None]
    assert step_score("valid_skip", skip_is_error=True) == 0
    assert pqs([1, 1, 1]) == 1.0 and pqs([]) is None and pqs([1, None]) is None
    assert pqs([0, 0]) == pytest.approx(math.tanh(-3.5) + 1)
    # PQS' = Σ η_i e^(-i/n) / Σ e^(-j/n): an early error costs more than a late one
    n = 4
    weights = [math.exp(-i / n) for i in range(1, n + 1)]
    early = pqs([0, 1, 1, 1])
    assert early == pytest.approx(math.tanh(3.5 * (sum(weights[1:]) / sum(weights) - 1)) + 1)
    assert early < pqs([1, 1, 1, 0])  # type: ignore[operator]
    assert pcs(True, [1, 1]) == 1.0 and pcs(True, [1, 0]) == 0.0 and pcs(False, [1, 1]) == 0.0
    assert pcs(True, [1, None]) is None and pcs(None, [1]) is None and pcs(None, [0]) == 0.0


def test_geolaux_summary_buckets_and_delta_pcs() -> None:
    from geodsl.checker.metrics import bucket_of, geolaux_summary

    assert [bucket_of(n) for n in (1, 4, 5, 12, 13, 24, 25)] == ["1-4", "1-4", "5-8", "9-12", "13-24", "13-24",
                                                                  "25+"]

    def record(steps: int, pcs: float | None, wrong: int = 0) -> dict[str, object]:
        verdicts = ["false"] * wrong + ["valid"] * (steps - wrong)
        return {"status": "ok", "acs": 1.0, "pcs": pcs, "pqs": 1.0 if not wrong else 0.5,
                "judge_calls": 1, "judge_tokens": {"prompt": 10, "completion": 2},
                "steps": [{"verdict": v, "decided_by": "symbolic", "error_type": "calculation" if v == "false" else None}
                          for v in verdicts]}

    report = geolaux_summary([record(3, 1.0), record(2, 1.0), record(14, 0.0, 1), record(20, 1.0),
                              {"status": "error", "steps": []}])
    assert report["pcs_by_steps"]["1-4"] == {"solutions": 2, "pcs": 1.0}
    assert report["pcs_by_steps"]["13-24"] == {"solutions": 2, "pcs": 0.5}
    assert report["delta_pcs"] == 0.5 and report["pcs"] == 0.75 and report["errors"] == 1
    assert report["error_types"]["calculation"] == 1 and report["verdicts"] == {"valid": 38, "false": 1}
    assert report["decided_symbolically"] == 1.0 and report["judge_calls"] == 4
