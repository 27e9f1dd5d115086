"""The algebraic prover: coordinates for the premise, Wu's pseudo-remainder
for the goal, and a certificate checked by a small independent checker.

============== ==============================================================
module         job
============== ==============================================================
``coordinates`` each point as rational functions of parameters, quadratic
               points as members of a triangular set (the untrusted search)
``check``      the certificate checker (hypotheses, goal, figure, dimensions)
``prover``     :class:`AlgebraProver`, the ``--method algebra`` prover
============== ==============================================================
"""

from __future__ import annotations

from .prover import AlgebraProver

__all__ = ["AlgebraProver"]
