"""The deduction closure: DD (rules as data, forward chaining by levels) and
AR (exact angle and ratio chasing), with provenance and proofs.

============ ==============================================================
module       job
============ ==============================================================
``linear``   exact Gaussian elimination with the combination behind each row
``ar``       the angle (directions mod π) and ratio (log-lengths) tables
``numeric``  the realized diagram: truth and numeric structures
``facts``    facts, canonical keys, provenance
``store``    proving a predicate from facts, lines, circles and AR
``ruleset``  the rules, as the matcher wants them
``matcher``  numerically true instances of each rule
``engine``   :func:`closure`, :func:`extend`, :class:`Closure`, budgets
``trace``    a fact's typed proof: trace back, prune, number
============ ==============================================================
"""

from __future__ import annotations

from .engine import Closure, closure, extend
from .facts import Fact
from ..proofs import Proof

__all__ = ["Closure", "Fact", "Proof", "closure", "extend"]
