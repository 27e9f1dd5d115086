"""A closure fact's proof: trace it back to the premise, keep only what it
needs, number the facts and the side conditions, and print them in the
notation AlphaGeometry, Newclid and GeoChallenge print
(:func:`~geodsl.lang.notation.to_notation`, the one place that chooses it).

::

    * From theorem premises:
    AB ⟂ CD [00]
    EF ⟂ CD [01]
    * Numerical checks:
    A,B,E are not collinear [N0]
    * Proof steps:
    001. AB ⟂ CD [00] & EF ⟂ CD [01] & A,B,E are not collinear [N0] (r00 Perpendiculars to one line are parallel) ⇒ AB ∥ EF [02]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..lang.notation import to_notation
from ..lang.terms import Predicate
from ..proofs import Check, Given, Proof, Step, StepKind
from .facts import BUILTIN_RULES, Fact, Side

if TYPE_CHECKING:
    from ..lang.ast import Problem

_CHASES = frozenset({"angle_chase", "angle_chase_halved", "ratio_chase", "distance_chase",
                     "pythagoras_chase"})
_STRUCTURES = frozenset({"same_line", "same_circle"})


def step_kind(rule: str) -> StepKind:
    if rule == "diagram":  # a side condition asked as a goal, read from the figure
        return "check"
    if rule in _CHASES:
        return "chase"
    if rule in _STRUCTURES:
        return "structure"
    if rule in BUILTIN_RULES:  # pragma: no cover - every builtin step is a chase or a structure
        raise ValueError(f"unclassified engine step `{rule}`")
    return "rule" if rule.startswith("r") and rule[1:].isdigit() else "definition"


def build_proof(facts: Sequence[Fact], goal: Fact | Sequence[Fact], predicate: Callable[[Fact], Predicate],
                side_predicate: Callable[[Side], Predicate], statement: Predicate | None = None) -> Proof:
    """The proof of ``goal``: the facts it depends on, premises first, then
    steps in the order they were derived (parents always before children);
    the side conditions numbered in the order the steps first use them.
    ``goal`` may be the several facts one ``statement`` states (``cyclic a b
    c d e``: ``cyclic a b c d`` and ``cyclic a b c e``)."""
    roots = [goal] if isinstance(goal, Fact) else list(goal)
    needed: set[int] = set()
    stack = [f.id for f in roots]
    while stack:
        fid = stack.pop()
        if fid in needed:
            continue
        needed.add(fid)
        stack.extend(facts[fid].parents)
    order = sorted(needed)
    premises = [f for f in order if facts[f].rule == "premise"]
    derived = [f for f in order if facts[f].rule != "premise"]
    ref = {fid: i for i, fid in enumerate(premises + derived)}
    givens = []
    for fid in premises:
        pred = predicate(facts[fid])
        givens.append(Given(ref[fid], pred, to_notation(pred), facts[fid].origin))
    checks: dict[Side, Check] = {}
    steps = []
    for number, fid in enumerate(derived, start=1):
        f = facts[fid]
        for side in f.sides:
            if side not in checks:
                pred = side_predicate(side)
                checks[side] = Check(len(checks), pred, to_notation(pred))
        pred = predicate(f)
        steps.append(Step(number, tuple(ref[p] for p in f.parents), tuple(checks[s].ref for s in f.sides),
                          f.rule, f.label, step_kind(f.rule), ref[fid], pred, to_notation(pred)))
    stated = statement if statement is not None else predicate(roots[0])
    return Proof(stated, tuple(givens), tuple(checks.values()), tuple(steps))


def with_given_auxiliary(proof: Proof, problem: "Problem") -> Proof:
    """The proof with the constructions ``problem`` gives after ``|`` as its
    auxiliary constructions (AlphaGeometry's "Auxiliary Constructions"
    section); kept apart from the tracing above."""
    if not problem.aux_given:
        return proof
    return replace(proof, auxiliary=tuple(c.to_text() for c in problem.aux_given) + proof.auxiliary)
