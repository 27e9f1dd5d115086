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


def score(items: Sequence[Scored]) -> dict[str, object]:
    """The whole report: overall, and by difficulty when the gold gives one."""
    report = summarize(items)
    levels = sorted({i.difficulty for i in items if i.difficulty is not None})
    report["by_difficulty"] = {level: summarize([i for i in items if i.difficulty == level])
                               for level in levels}
    return report
