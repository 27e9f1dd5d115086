"""Benchmark metrics for multi-answer geometry questions (GeoChallenge).

For each problem, the gold option set S and the prediction Ŝ, which is
either a set of labels (possibly empty: an explicit "none of the options")
or *no answer* (nothing could be extracted from the output, or there is no
prediction for the problem):

- exact match: Ŝ = S;
- precision |Ŝ∩S|/|Ŝ|, recall |Ŝ∩S|/|S|, F1 their harmonic mean, computed
  per problem and averaged over problems (macro); an empty Ŝ against a
  non-empty S scores 0 on all three, an empty Ŝ against an empty S 1;
- Hamming accuracy: the share of the K options labelled right (an option is
  right when it is in both sets or in neither), K = 4 (A–D) unless the gold
  record lists its options;
- average |Ŝ|;
- outcome classes: ``right_answer`` (exact match), ``wrong_answer``,
  ``no_answer`` (no answer found in the output), ``out_of_length`` (the
  output was cut off: ``finish_reason == "length"``; this class wins).

The empty cases agree across measures: an explicit empty answer is scored as
the empty set by every measure (so against an empty gold it is an exact
match, P = R = F1 = 1 and Hamming 1), and *no answer* scores 0 on every
per-problem measure — exact match, P, R, F1 and Hamming alike — since it
labels no option at all (it is not read as "none of the options").

Rates are in [0, 1].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_OPTIONS = ("A", "B", "C", "D")
OUTCOMES = ("right_answer", "wrong_answer", "no_answer", "out_of_length")


@dataclass(frozen=True, slots=True)
class Scored:
    """One problem's gold and prediction, ready to score."""

    gold: frozenset[str]
    predicted: frozenset[str] | None  # None: no answer found, or no prediction
    options: tuple[str, ...] = DEFAULT_OPTIONS
    truncated: bool = False
    difficulty: str | None = None

    @property
    def outcome(self) -> str:
        if self.truncated:
            return "out_of_length"
        if self.predicted is None:
            return "no_answer"
        return "right_answer" if self.predicted == self.gold else "wrong_answer"


RELAXED_TOLERANCE = 0.03
"""GeomVerse's relaxed accuracy: a numeric answer within 3% of the gold value is right."""


@dataclass(frozen=True, slots=True)
class CalcScored:
    """One calculation problem's gold value and predicted number (None: no answer)."""

    gold: float
    predicted: float | None
    truncated: bool = False
    difficulty: str | None = None


def relaxed_correct(gold: float, predicted: float | None, tolerance: float = RELAXED_TOLERANCE) -> bool:
    """|predicted − gold| ≤ tolerance·|gold| (exact equality when the gold value is 0)."""
    if predicted is None:
        return False
    return abs(predicted - gold) <= tolerance * abs(gold)


def calculation_summary(items: Sequence[CalcScored], tolerance: float = RELAXED_TOLERANCE) -> dict[str, object]:
    """Relaxed accuracy (and exact-to-2-decimals accuracy, no answers,
    truncated outputs) over calculation problems, overall and by difficulty."""
    def part(subset: Sequence[CalcScored]) -> dict[str, object]:
        n = len(subset)
        return {"problems": n,
                "relaxed_accuracy": sum(relaxed_correct(i.gold, i.predicted, tolerance) for i in subset) / n if n else 0.0,
                "exact_accuracy": sum(i.predicted is not None and round(i.predicted, 2) == round(i.gold, 2)
                                      for i in subset) / n if n else 0.0,
                "no_answer": sum(i.predicted is None and not i.truncated for i in subset),
                "out_of_length": sum(i.truncated for i in subset)}
    out = part(items)
    out["tolerance"] = tolerance
    levels = sorted({i.difficulty for i in items if i.difficulty is not None})
    out["by_difficulty"] = {level: part([i for i in items if i.difficulty == level]) for level in levels}
    return out


def precision_recall_f1(gold: frozenset[str], predicted: frozenset[str] | None) -> tuple[float, float, float]:
    """Per-problem precision, recall and F1 (see the module docstring)."""
    if not predicted:
        both_empty = predicted is not None and not gold
        return (1.0, 1.0, 1.0) if both_empty else (0.0, 0.0, 0.0)
    hits = len(gold & predicted)
    precision = hits / len(predicted)
    recall = hits / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def hamming_accuracy(gold: frozenset[str], predicted: frozenset[str] | None, options: Sequence[str]) -> float:
    """The share of ``options`` labelled right; 0 for no answer (``None``)."""
    if predicted is None:
        return 0.0
    return sum((o in gold) == (o in predicted) for o in options) / len(options)


def summarize(items: Sequence[Scored]) -> dict[str, object]:
    """``{"metrics": {...}, "outcomes": {...}, "problems": n}`` over ``items``."""
    n = len(items)
    if n == 0:
        zero = dict.fromkeys(("exact_match", "precision", "recall", "f1", "hamming_accuracy",
                              "avg_selected"), 0.0)
        return {"problems": 0, "metrics": zero, "outcomes": dict.fromkeys(OUTCOMES, 0)}
    prf = [precision_recall_f1(i.gold, i.predicted) for i in items]
    metrics = {
        "exact_match": sum(i.predicted == i.gold for i in items) / n,
        "precision": sum(p for p, _, _ in prf) / n,
        "recall": sum(r for _, r, _ in prf) / n,
        "f1": sum(f for _, _, f in prf) / n,
        "hamming_accuracy": sum(hamming_accuracy(i.gold, i.predicted, i.options) for i in items) / n,
        "avg_selected": sum(len(i.predicted or ()) for i in items) / n,
    }
    outcomes = dict.fromkeys(OUTCOMES, 0)
    for i in items:
        outcomes[i.outcome] += 1
    return {"problems": n, "metrics": metrics, "outcomes": outcomes}


def score(items: Sequence[Scored], calculations: Sequence[CalcScored] = (),
          tolerance: float = RELAXED_TOLERANCE) -> dict[str, object]:
    """The whole report: overall, and by difficulty when the gold gives one;
    with calculation problems, their relaxed accuracy under ``calculation``."""
    report = summarize(items)
    levels = sorted({i.difficulty for i in items if i.difficulty is not None})
    report["by_difficulty"] = {level: summarize([i for i in items if i.difficulty == level])
                               for level in levels}
    if calculations:
        report["calculation"] = calculation_summary(calculations, tolerance)
    return report


# ---------------------------------------------------------------- GeoLaux
#
# GeoLaux grades long solutions step by step. Per solution, with n steps and
# step scores η_i (1 for a right step, 0 for a wrong one):
#
# - ACS, answer correctness: 1 if the final answer (or, for a proof, the
#   conclusion) is right, else 0;
# - PCS, process correctness: 1 if the answer is right and no step scores 0;
# - PQS, process quality: PQS′ = Σ η_i·e^(−i/n) / Σ e^(−j/n) (earlier steps
#   weigh more), then PQS = tanh(3.5·(PQS′ − 1)) + 1, in [0, 1] (1 when every
#   step is right).
#
# A step geodsl could not decide and no judge decided has no score: PCS and
# PQS are then None (unknown), never guessed. Over a dataset: means over the
# solutions that have the score, PCS by step-length bucket (1–4, 5–8, 9–12,
# 13–24, as GeoLaux's Table 4) and ΔPCS = PCS(1–4) − PCS(13–24).

import math  # noqa: E402

STEP_BUCKETS: tuple[tuple[int, int], ...] = ((1, 4), (5, 8), (9, 12), (13, 24))
"""GeoLaux's step-length buckets (Table 4); longer solutions are bucketed as ``25+``."""

RIGHT_VERDICTS = frozenset({"valid", "judged_correct"})
WRONG_VERDICTS = frozenset({"false", "unjustified", "judged_wrong"})


def step_score(verdict: str, skip_is_error: bool = False) -> int | None:
    """η of one step: 1 right, 0 wrong, None undecided. ``valid_skip`` is right
    unless ``skip_is_error`` (GeoLaux counts over-skipping as an error)."""
    if verdict in RIGHT_VERDICTS:
        return 1
    if verdict == "valid_skip":
        return 0 if skip_is_error else 1
    if verdict in WRONG_VERDICTS:
        return 0
    return None


def pqs(etas: Sequence[int | None]) -> float | None:
    """GeoLaux's process quality score of step scores η_1..η_n (None if any is unknown or n = 0)."""
    n = len(etas)
    if n == 0 or any(e is None for e in etas):
        return None
    weights = [math.exp(-i / n) for i in range(1, n + 1)]
    prime = sum(w * float(e or 0) for w, e in zip(weights, etas)) / sum(weights)
    return math.tanh(3.5 * (prime - 1)) + 1


def pcs(answer_correct: bool | None, etas: Sequence[int | None]) -> float | None:
    """1 if the answer is right and no step scores 0; 0 if the answer is wrong
    or a step scores 0; None if that depends on a step no one decided."""
    if answer_correct is False or any(e == 0 for e in etas):
        return 0.0
    if answer_correct is None or any(e is None for e in etas):
        return None
    return 1.0


def bucket_of(steps: int) -> str:
    """The step-length bucket of a solution: ``1-4``, ..., ``13-24``, or ``25+``."""
    for low, high in STEP_BUCKETS:
        if low <= steps <= high:
            return f"{low}-{high}"
    return "25+" if steps > STEP_BUCKETS[-1][1] else "0"


def _mean(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def _number(record: dict[str, object], key: str) -> float | None:
    value = record.get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _steps(record: dict[str, object]) -> list[dict[str, object]]:
    steps = record.get("steps")
    return [s for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []


def geolaux_summary(records: Sequence[dict[str, object]]) -> dict[str, object]:
    """Means of ACS, PCS and PQS over graded solutions (records as
    ``geodsl grade --json`` prints them), PCS by step-length bucket, ΔPCS,
    error-type and verdict counts, the share of steps decided without the
    judge, judge calls and tokens."""
    graded = [r for r in records if r.get("status") == "ok"]
    steps = [s for r in graded for s in _steps(r)]
    buckets: dict[str, list[float | None]] = {}
    for r in graded:
        buckets.setdefault(bucket_of(len(_steps(r))), []).append(_number(r, "pcs"))
    by_bucket: dict[str, dict[str, object]] = {}
    for name in [f"{lo}-{hi}" for lo, hi in STEP_BUCKETS] + (["25+"] if "25+" in buckets else []):
        by_bucket[name] = {"solutions": len(buckets.get(name, [])), "pcs": _mean(buckets.get(name, []))}
    short, long = _mean(buckets.get("1-4", [])), _mean(buckets.get("13-24", []))
    verdicts: dict[str, int] = {}
    errors = {"figure_comprehension": 0, "knowledge": 0, "calculation": 0, "logical_reasoning": 0}
    for s in steps:
        verdict, kind = str(s.get("verdict")), s.get("error_type")
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        if isinstance(kind, str) and kind in errors and verdict in WRONG_VERDICTS | {"valid_skip"}:
            errors[kind] += 1
    symbolic = sum(s.get("decided_by") == "symbolic" for s in steps)
    tokens = {"prompt": 0, "completion": 0}
    calls = 0
    for r in graded:
        used = r.get("judge_tokens")
        if isinstance(used, dict):
            tokens["prompt"] += int(used.get("prompt", 0))
            tokens["completion"] += int(used.get("completion", 0))
        calls += int(_number(r, "judge_calls") or 0)
    return {
        "solutions": len(records), "graded": len(graded), "errors": len(records) - len(graded),
        "steps": len(steps),
        "acs": _mean([_number(r, "acs") for r in graded]),
        "pcs": _mean([_number(r, "pcs") for r in graded]),
        "pqs": _mean([_number(r, "pqs") for r in graded]),
        "unscored": sum(_number(r, "pcs") is None for r in graded),
        "pcs_by_steps": by_bucket,
        "delta_pcs": None if short is None or long is None else short - long,
        "verdicts": verdicts, "error_types": errors,
        "decided_symbolically": symbolic / len(steps) if steps else None,
        "judge_calls": calls,
        "judge_tokens": tokens,
    }
