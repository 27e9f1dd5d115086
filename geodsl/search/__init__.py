"""Auxiliary-point search: candidates from the rulebase's constructions,
ranked by goal-directed heuristics, tried with DD+AR to a depth, in a
process pool.

============== ==============================================================
module         job
============== ==============================================================
``candidates`` the families of constructions over the figure's points, lines
               and circles; placed, deduplicated, non-degenerate
``rank``       the heuristics, goal-directed first
``prover``     :class:`SearchProver`, the ``--method search`` prover
============== ==============================================================
"""

from __future__ import annotations

from .prover import SearchProver

__all__ = ["SearchProver"]
