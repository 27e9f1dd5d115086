"""The deduction rules the closure runs, as the matcher wants them.

The rules are data: ``rulebase/rules.gdl``, read by :func:`geodsl.lang.rules.get_rules`
(the one reader of that file). The engine only sees :class:`RuleSpec`: atoms
over variable names, premises apart from side conditions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ..lang.ast import Constant, Predicate
from ..lang.definitions import rulebase
from .ar import AngleTable, RatioTable
from .facts import Args

if TYPE_CHECKING:
    from ..lang.rules import Rule

Atom = tuple[str, tuple[str | Constant, ...]]
"""A predicate over rule variables: (name, args), args are variable names or constants."""


@dataclass(frozen=True)
class RuleSpec:
    """One rule: premises to prove, side conditions to check on the diagram,
    conclusions to add. ``variables`` in first-appearance order."""

    name: str
    label: str
    premises: tuple[Atom, ...]
    sides: tuple[Atom, ...]
    conclusions: tuple[Atom, ...]
    variables: tuple[str, ...]


def make_rule(name: str, label: str, premises: list[Atom], sides: list[Atom],
              conclusions: list[Atom]) -> RuleSpec:
    variables: list[str] = []
    for _, args in list(premises) + list(sides) + list(conclusions):
        for a in args:
            if isinstance(a, str) and a not in variables:
                variables.append(a)
    return RuleSpec(name, label, tuple(premises), tuple(sides), tuple(conclusions), tuple(variables))


def _atom(pred: Predicate) -> Atom:
    return pred.name, tuple(pred.args)


@cache
def subsumed_by_ar(rule: RuleSpec) -> bool:
    """Whether AR alone derives the rule's conclusions from its premises.

    DD does not match such a rule (matching eqangle premises is the
    expensive part). Having only facts the angle table proves (or only
    facts the ratio table proves) is not enough: r73's premises and conclusion are all angle facts, yet its
    conclusion is no linear combination of them. So the premises are put
    into a fresh angle (or ratio) table over the rule's own variables and
    every conclusion is queried."""
    names = {n for n, _ in rule.premises + rule.conclusions}
    if not rule.premises:
        return False
    if all(AngleTable.proves(n) for n in names):
        table: AngleTable | RatioTable = AngleTable()
    elif all(RatioTable.proves(n) for n in names):
        table = RatioTable()
    else:
        return False
    index = {v: i for i, v in enumerate(rule.variables)}

    def args_of(args: tuple[str | Constant, ...]) -> Args:
        return tuple(index[a] if isinstance(a, str) else a for a in args)

    for i, (name, args) in enumerate(rule.premises):
        for form in table.forms(name, args_of(args)):
            table.add(form, i)
    return all(table.query(name, args_of(args)) is not None for name, args in rule.conclusions)


def spec_of(rule: "Rule") -> RuleSpec:
    """A rule of :mod:`geodsl.lang.rules` as the engine runs it (pass a list of
    these as ``closure(..., rules=...)`` to run other rules)."""
    preds = rulebase().predicates
    atoms = [_atom(p) for p in rule.premises]
    premises = [a for a in atoms if not preds[a[0]].side]
    sides = [_atom(p) for p in rule.side_conditions] + [a for a in atoms if preds[a[0]].side]
    return make_rule(rule.name, rule.label or "", premises, sides, [_atom(c) for c in rule.conclusions])


@cache
def load_rules() -> tuple[RuleSpec, ...]:
    """The rules of ``rulebase/rules.gdl``, in file order."""
    from ..lang.rules import get_rules

    return tuple(spec_of(rule) for rule in get_rules().values())
