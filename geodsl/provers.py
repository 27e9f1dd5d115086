"""The provers, by ``--method`` name, behind one interface
(:class:`~geodsl.proofs.Prover`): what commands and checkers call.

======== =================================================================
method   prover
======== =================================================================
``ddar`` deduction + algebraic chasing (:class:`~geodsl.ddar.prover.DDARProver`)
======== =================================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from .budget import Budget, Clock
from .ddar.prover import DDARProver
from .lang.ast import Predicate, Problem
from .lang.errors import GeoDSLError
from .proofs import Prover, Result

METHODS: dict[str, type[DDARProver]] = {"ddar": DDARProver}


def get_prover(method: str = "ddar", *, seed: int = 0) -> Prover:
    """The prover behind ``method`` (``--method``), seeded."""
    cls = METHODS.get(method)
    if cls is None:
        raise GeoDSLError(f"unknown proving method `{method}`", hint="methods: " + ", ".join(METHODS))
    return cls(seed=seed)


def prove(problem: Problem, goals: Sequence[Predicate] | None = None, *, method: str = "ddar",
          budget: Budget | Clock | None = None, seed: int = 0) -> Result:
    """Prove ``goals`` (default: the problem's) with ``method`` within ``budget``."""
    return get_prover(method, seed=seed).prove(problem, goals, budget)
