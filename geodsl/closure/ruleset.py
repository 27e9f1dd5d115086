"""The deduction rules the closure runs, as the matcher wants them.

The rules are data: ``rulebase/rules.gdl``, read by :func:`geodsl.rules.get_rules`.
Until that loader is installed, a few rules in the same format
(:data:`FALLBACK_RULES`) are read by a small reader here, so the engine can
be developed and tested; the rest of the engine only sees :class:`RuleSpec`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..ast import Constant
from ..definitions import rulebase

Atom = tuple[str, tuple[object, ...]]
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


FALLBACK_RULES = """
# Perpendiculars to one line are parallel
rule r00: perp a b c d; perp c d e f; ncoll a b e => para a b e f
# Equidistant points are concyclic
rule r01: cong o a o b; cong o b o c; cong o c o d => cyclic a b c d
# Equal inscribed angles give concyclic points
rule r02: eqangle p a p b q a q b; ncoll p q a; ncoll p q b => cyclic a b p q
# Inscribed angles on one arc are equal
rule r03: cyclic a b p q => eqangle p a p b q a q b
# Midline: the segment joining two midpoints is parallel to the third side
rule r05: midp e a b; midp f a c => para e f b c
# Isosceles triangle: base angles are equal
rule r13: cong o a o b; ncoll o a b => eqangle o a a b a b o b
# Equal base angles make an isosceles triangle
rule r14: eqangle a o a b b a b o; ncoll o a b => cong o a o b
# Two points equidistant from the ends of a segment lie on its perpendicular bisector
rule r23: cong a p b p; cong a q b q => perp a b p q
# Thales: the median to the hypotenuse is half of it
rule r19: perp a b b c; midp m a c => cong a m b m
# Equal directions through a common point: collinear
rule r28: para a b a c => coll a b c
"""


def _read_atom(text: str) -> Atom:
    words = text.split()
    return words[0], tuple(words[1:])


def parse_rules(text: str) -> tuple[RuleSpec, ...]:
    """Read rules written ``rule NAME: P; P => C; C`` (label: the comment above)."""
    preds = rulebase().predicates
    out: list[RuleSpec] = []
    label = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#"):
            label = line.lstrip("#").strip()
            continue
        if not line.startswith("rule "):
            continue
        head, body = line[len("rule "):].split(":", 1)
        left, right = body.split("=>")
        atoms = [_read_atom(t) for t in left.split(";") if t.strip()]
        concl = [_read_atom(t) for t in right.split(";") if t.strip()]
        out.append(make_rule(head.strip(), label,
                             [a for a in atoms if not preds[a[0]].side],
                             [a for a in atoms if preds[a[0]].side], concl))
        label = ""
    return tuple(out)


def make_rule(name: str, label: str, premises: list[Atom], sides: list[Atom],
              conclusions: list[Atom]) -> RuleSpec:
    variables: list[str] = []
    for _, args in list(premises) + list(sides) + list(conclusions):
        for a in args:
            if isinstance(a, str) and a not in variables:
                variables.append(a)
    return RuleSpec(name, label, tuple(premises), tuple(sides), tuple(conclusions), tuple(variables))


def _atom(pred: object) -> Atom:
    name = getattr(pred, "name")
    args = tuple(a if isinstance(a, (str, Constant)) else str(a) for a in getattr(pred, "args"))
    return name, args


ANGLE_ONLY = frozenset({"para", "perp", "eqangle", "aconst"})
RATIO_ONLY = frozenset({"cong", "eqratio", "rconst", "lconst"})


def subsumed_by_ar(rule: RuleSpec) -> bool:
    """A rule whose premises and conclusions are all angle facts (or all
    ratio facts) is one linear combination: AR derives everything it would,
    so DD does not match it (matching eqangle premises is the expensive part)."""
    names = {n for n, _ in rule.premises + rule.conclusions}
    return bool(rule.premises) and (names <= ANGLE_ONLY or names <= RATIO_ONLY)


@cache
def load_rules() -> tuple[RuleSpec, ...]:
    """The installed rules (``geodsl.rules``), or the fallback set."""
    try:
        from ..rules import get_rules  # type: ignore[import-not-found]
    except ImportError:
        return parse_rules(FALLBACK_RULES)
    preds = rulebase().predicates
    out = []
    for name, rule in get_rules().items():
        premises = [_atom(p) for p in rule.premises]
        sides = [_atom(p) for p in getattr(rule, "side_conditions", ())]
        premises, more_sides = ([a for a in premises if not preds[a[0]].side],
                                [a for a in premises if preds[a[0]].side])
        out.append(make_rule(name, getattr(rule, "label", "") or "", premises, sides + more_sides,
                             [_atom(c) for c in rule.conclusions]))
    return tuple(out)
