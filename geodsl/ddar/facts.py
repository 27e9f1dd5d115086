"""Facts with provenance, and their canonical keys.

A fact is a predicate over interned points (ints, in premise order) and exact
constants, spelled canonically (the least image of its arguments under the
predicate's symmetries from ``rulebase/predicates.gdl``), so one fact has one
key however a rule or a premise writes it. Each fact records how it was
first obtained: the premise clause that asserts it, or the rule (or AR
table) and the parent facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from .._canon import canonical_permutation
from ..lang.ast import Constant
from ..lang.definitions import rulebase

Arg = int | Constant
"""A fact's argument: an interned point (its id) or an exact constant."""
Args = tuple[Arg, ...]

Key = tuple[str | Arg, ...]
"""(name, arg, ...): the canonical identity of a fact."""

Side = tuple[str, bool, Args]
"""A side condition: (predicate, negated, canonical arguments), checked in
the figure, never derived (``("ncoll", False, (0, 1, 2))``)."""


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of the closure and how it was first obtained.

    ``rule`` is ``"premise"`` for premise facts, a rule name (``r00``) for
    DD steps, or one of :data:`BUILTIN_RULES` (angle chase, ...); ``label``
    is its human label; ``parents`` are fact ids; ``origin`` is where a
    premise fact was written (``line:col``); ``sides`` the side conditions
    the step rests on, each (predicate, negated, canonical arguments),
    checked in the figure: a rule's ``ncoll``/``sameside``/``sameclock``
    premises, the order of points a distance chase read, the branch of a
    halved angle.
    """

    id: int
    name: str
    args: Args
    rule: str
    label: str
    parents: tuple[int, ...]
    level: int
    origin: str | None = None
    sides: tuple[Side, ...] = ()

    @property
    def key(self) -> Key:
        return (self.name,) + self.args


BUILTIN_RULES: dict[str, str] = {
    "premise": "Premise",
    "angle_chase": "Angle chase",
    "angle_chase_halved": "Angle chase, halved angle",
    "ratio_chase": "Ratio chase",
    "distance_chase": "Distance chase",
    "pythagoras_chase": "Pythagoras chase",
    "same_line": "Points on one line",
    "same_circle": "Points on one circle",
    "diagram": "Checked on the diagram",
}
"""The steps the engine takes by itself (not rules from rules.gdl), with
labels. The ``means:`` steps of predicates (``equal_radii``, ...) are the
rulebase's: :func:`is_engine_step` counts them too."""


def is_engine_step(rule: str) -> bool:
    """True for a step that is not a rule of rules.gdl: a chase, a structure
    (one line, one circle) or what a predicate means (``means:``)."""
    return rule in BUILTIN_RULES or rule in _means_rules()


@cache
def _means_rules() -> frozenset[str]:
    return frozenset(p.means.rule for p in rulebase().predicates.values() if p.means is not None)


def normalize_constant(c: Constant) -> Constant:
    """One spelling per constant: degrees become π-fractions, angles mod π."""
    if c.kind == "degrees":
        return Constant("angle", Fraction(c.value) / 180 % 1)
    if c.kind == "angle":
        return Constant("angle", Fraction(c.value) % 1)
    return c


_CANONICAL: dict[tuple[str, Args], Args] = {}
_CANONICAL_LIMIT = 2_000_000


_PERMS: dict[str, tuple[tuple[int, ...], ...]] = {}
"""Predicate name -> its symmetries (``rulebase().predicate(name).perms``)."""


def canonical(name: str, args: Args) -> Args:
    """The canonical spelling of ``name args`` (points are ints); memoized,
    since rule matching asks for the same spellings again and again."""
    memo = (name, args)
    found = _CANONICAL.get(memo)
    if found is not None:
        return found
    perms = _PERMS.get(name)
    if perms is None:
        perms = _PERMS[name] = rulebase().predicate(name).perms
    norm: Args
    keys: tuple[int, ...]
    if all(type(a) is int for a in args):  # points only: nothing to normalize
        norm = args
        keys = args  # type: ignore[assignment]  # every argument is an int (checked above)
    else:
        norm = tuple(normalize_constant(a) if isinstance(a, Constant) else a for a in args)
        keys = tuple(a if isinstance(a, int) else -1 for a in norm)
    perm = perms[canonical_permutation(keys, perms)]
    out = tuple(norm[i] for i in perm)
    if len(_CANONICAL) >= _CANONICAL_LIMIT:
        _CANONICAL.clear()
    _CANONICAL[memo] = out
    return out
