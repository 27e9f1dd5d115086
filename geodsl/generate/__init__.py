"""Benchmark generation: GeoChallenge-style multiple-answer questions and
GeomVerse-style calculation problems (``geodsl generate``, docs/generate.md).

============== ==============================================================
module         job
============== ==============================================================
``templates``  clause templates: the rulebase's constructions, by family, with input roles
``sampling``   premises sampled layer by layer, with counted rejections
``options``    true options from the closure; simplification of the premise
``distractors`` negations, perturbations and rewrites, false and unprovable
``difficulty`` GeoChallenge's five indicators, the weighted score, levels 3:5:2
``text``       English and Chinese: worded premises, textbook options, prompts
``dedup``      duplicates up to renaming points and reordering clauses
``mcq``        one multiple-answer question, verified by ``geodsl check``
``calc``       one calculation problem: chained shapes, exact answers
``run``        a run: candidates in order on :mod:`geodsl.batch`, files
============== ==============================================================
"""

from __future__ import annotations

from .run import KINDS, RunSummary, generate

__all__ = ["KINDS", "RunSummary", "generate"]
