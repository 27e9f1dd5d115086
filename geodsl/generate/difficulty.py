"""The prior difficulty of a question: GeoChallenge's five indicators, a
weighted sum, and levels split 3:5:2.

============================ ========= ====================================
indicator                    weight    what it counts
============================ ========= ====================================
``description_length``       0.05      characters of the English question
                                       (premise sentences and options)
``premise_length``           2         constructions of the (simplified)
                                       premise
``points``                   1         points of the premise
``search_depth``             4         the deepest derivation among the true
                                       options: the longest chain of steps
                                       from the premise to the option (the
                                       rounds a breadth-first search needs)
``proof_length``             1         proof steps of the true options, summed
============================ ========= ====================================

``score = Σ weight · indicator``. GeoChallenge states the indicators and
that the score is their weighted sum, not its weights; these make each
indicator worth a comparable share of a typical score (a 400-character
question, 6 constructions, 10 points, depth 5, 25 steps: 20 + 12 + 10 + 20
+ 25).

Levels: the questions of one run, sorted by score (ties by id), are split
3:5:2 into ``easy``, ``medium`` and ``hard`` (GeoChallenge's proportions):
the first ⌊0.3·n⌉ easy, the last ⌊0.2·n⌉ hard (rounded half up), the rest
medium. A level is relative to its run; the score is not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

WEIGHTS = {"description_length": 0.05, "premise_length": 2.0, "points": 1.0, "search_depth": 4.0,
           "proof_length": 1.0}
LEVELS = ("easy", "medium", "hard")
SPLIT = (3, 5, 2)


def score(indicators: dict[str, int]) -> float:
    """The weighted sum (rounded to 2 decimals, so it prints the same everywhere)."""
    return round(sum(WEIGHTS[k] * indicators[k] for k in WEIGHTS), 2)


def _half_up(x: float) -> int:
    return int(math.floor(x + 0.5))


def levels(scores: Sequence[tuple[float, str]]) -> dict[str, str]:
    """(score, id) of every question of a run → its level (module docstring)."""
    order = sorted(scores)
    n = len(order)
    easy = _half_up(n * SPLIT[0] / sum(SPLIT))
    hard = _half_up(n * SPLIT[2] / sum(SPLIT))
    out = {}
    for rank, (_, ident) in enumerate(order):
        out[ident] = "easy" if rank < easy else "hard" if rank >= n - hard else "medium"
    return out
