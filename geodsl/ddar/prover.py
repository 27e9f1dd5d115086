"""The DD+AR closure as a :class:`~geodsl.proofs.Prover`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..budget import Budget, Clock
from ..lang.ast import Predicate, Problem
from ..proofs import GoalResult, Result
from ..realizer import Diagrams
from .engine import DIAGRAMS_NEEDED, Closure, closure
from .ruleset import RuleSpec


class DDARProver:
    """Deduction (the rules of ``rulebase/rules.gdl``, by levels) and
    algebraic chasing (angles, ratios, distances, squared lengths) to a
    fixed point or the budget. ``seed`` picks the figure the rules are
    matched in; ``rules`` replaces the rule set."""

    name = "ddar"
    diagrams = DIAGRAMS_NEEDED

    def __init__(self, seed: int = 0, rules: Sequence[RuleSpec] | None = None) -> None:
        self.seed = seed
        self.rules = rules

    def prove(self, problem: Problem, goals: Sequence[Predicate] | None = None,
              budget: Budget | Clock | None = None, *, figures: Diagrams | None = None) -> Result:
        """Prove ``goals`` (default: the problem's). ``figures``: the problem
        realized with this prover's seed already (at least
        :data:`~geodsl.ddar.engine.DIAGRAMS_NEEDED` diagrams)."""
        return result_of(self.saturate(problem, goals, budget, figures=figures))

    def saturate(self, problem: Problem, goals: Sequence[Predicate] | None = None,
                 budget: Budget | Clock | None = None, *, figures: Diagrams | None = None) -> Closure:
        """The closure itself, for callers that ask about facts beyond goals
        (what is provable, a fact's provenance)."""
        if goals is not None:
            problem = replace(problem, goals=tuple(goals))
        return closure(problem, seed=self.seed if figures is None else None, budget=budget,
                       rules=self.rules, figures=figures)


def result_of(run: Closure) -> Result:
    """A closure run as the prover's :class:`Result`: one goal per goal as
    stated — a long statement (``cyclic a b c d e``) is proved when every
    fact it states is (``run.goals`` holds those)."""
    found = tuple(GoalResult(g, run.proof(g) if run.proves(g) else None) for g in run.problem.goals)
    return Result(DDARProver.name, run.status, found, run.seconds, {"facts": len(run.facts), "levels": run.levels})
