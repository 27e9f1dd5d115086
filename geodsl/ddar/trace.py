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

from ..lang.notation import to_notation
from ..lang.terms import Predicate
from ..proofs import Check, Given, Proof, Step, StepKind
from .facts import BUILTIN_RULES, Fact, Side

_CHASES = frozenset({"angle_chase", "angle_chase_halved", "ratio_chase", "distance_chase",
                     "pythagoras_chase"})
_STRUCTURES = frozenset({"same_line", "same_circle"})


def step_kind(rule: str) -> StepKind:
    if rule in _CHASES:
        return "chase"
    if rule in _STRUCTURES:
        return "structure"
    if rule in BUILTIN_RULES:  # pragma: no cover - every builtin step is a chase or a structure
        raise ValueError(f"unclassified engine step `{rule}`")
    return "rule" if rule.startswith("r") and rule[1:].isdigit() else "definition"


def build_proof(facts: Sequence[Fact], goal: Fact, predicate: Callable[[Fact], Predicate],
                side_predicate: Callable[[Side], Predicate]) -> Proof:
    """The proof of ``goal``: the facts it depends on, premises first, then
    steps in the order they were derived (parents always before children);
    the side conditions numbered in the order the steps first use them."""
    needed: set[int] = set()
    stack = [goal.id]
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
    return Proof(predicate(goal), tuple(givens), tuple(checks.values()), tuple(steps))
