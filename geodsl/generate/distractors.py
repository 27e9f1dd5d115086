"""Distractors: false options made from true conclusions, each shown false
in K independent diagrams and never provable.

Three kinds, as GeoChallenge makes them (and never a naive single-point
substitution, which gives degenerate or accidentally true options):

``negation``
    the negation of a true conclusion (``AB ∦ CD`` where AB ∥ CD);
``perturbation``
    a true conclusion with its angle or ratio changed: a right angle
    (``perp``) or a parallel (angle 0) given another angle, a constant
    angle or ratio (``aconst``, ``rconst``) given another value, equal
    lengths given a ratio other than 1 (``AB = 2·CD``), a midpoint given a
    ratio other than 1/2, one side of an equal-angle or equal-ratio
    statement reversed (∠(ab, cd) = ∠(gh, ef); ab:cd = gh:ef), similar
    triangles declared congruent (ratio 1);
``rewrite``
    an equivalence-preserving rewrite of such a false statement: the other
    pairing of an angle or ratio equality, a ratio or directed angle read
    the other way round (ab:cd = r as cd:ab = 1/r; ∠(ab, cd) = k as
    ∠(cd, ab) = −k), a right angle as the constant 90°, equal lengths as the
    ratio 1, concyclic points as equal inscribed angles, collinear points as
    parallel lines through one of them.

A candidate is kept when it is false in every one of ``K`` diagrams
realized from its counterexample seed (diagram 0 of ``geodsl realize
--seed S`` shows it false) and the saturated closure of the sampled
premise does not prove it (a sound prover cannot prove a false statement;
the check makes sure this one does not).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..lang.ast import Constant, Predicate
from ..lang.definitions import canonical
from ..realizer.rng import Random

KINDS = ("negation", "perturbation", "rewrite")

ANGLES = tuple(Fraction(n, 12) for n in (2, 3, 4, 8, 9, 10))
"""Angles (in units of π) a perturbed angle takes: 30°, 45°, 60°, 120°, 135°, 150°."""
RATIOS = (Fraction(2), Fraction(1, 2), Fraction(3, 2), Fraction(2, 3), Fraction(3), Fraction(1, 3))
"""Ratios a perturbed ratio takes."""


@dataclass(frozen=True)
class Distractor:
    """A false option: the statement, how it was made, and from what."""

    predicate: Predicate
    kind: str
    source: Predicate
    """The true conclusion it was made from."""


def _angle(k: Fraction) -> Constant:
    return Constant("angle", k % 1)


def _ratio(r: Fraction) -> Constant:
    return Constant("ratio", r)


def _other(values: Sequence[Fraction], avoid: Fraction, rng: Random) -> Fraction:
    pool = [v for v in values if v != avoid]
    return pool[rng.index(len(pool))]


def perturb(p: Predicate, rng: Random) -> Predicate | None:
    """The conclusion with its angle or ratio changed (module docstring), or
    None for a predicate that has no angle or ratio to change."""
    a = p.args
    if p.negated:
        return None
    if p.name == "perp":
        return Predicate("aconst", (*a, _angle(_other(ANGLES, Fraction(1, 2), rng))))
    if p.name == "para":
        return Predicate("perp", a)
    if p.name == "aconst":
        value = a[4]
        assert isinstance(value, Constant)
        return Predicate("aconst", (*a[:4], _angle(_other(ANGLES + (Fraction(1, 2),), Fraction(value.value) % 1, rng))))
    if p.name == "rconst":
        value = a[4]
        assert isinstance(value, Constant)
        return Predicate("rconst", (*a[:4], _ratio(_other(RATIOS, Fraction(value.value), rng))))
    if p.name == "cong":
        return Predicate("rconst", (*a, _ratio(_other(RATIOS, Fraction(1), rng))))
    if p.name == "midp":
        m, x, y = a
        return Predicate("rconst", (x, m, x, y, _ratio(_other(RATIOS[1::2] + (Fraction(1, 4),), Fraction(1, 2), rng))))
    if p.name == "eqratio":
        return Predicate("eqratio", (*a[:4], a[6], a[7], a[4], a[5]))
    if p.name == "eqangle":
        return Predicate("eqangle", (*a[:4], a[6], a[7], a[4], a[5]))
    if p.name in ("simtri", "simtrir"):
        return Predicate("contri" if p.name == "simtri" else "contrir", a)
    return None


def rewrite(p: Predicate) -> Predicate | None:
    """An equivalent statement written otherwise (module docstring), or None."""
    a = p.args
    out: Predicate | None = None
    if p.name in ("eqratio", "eqangle"):
        out = Predicate(p.name, (a[0], a[1], a[4], a[5], a[2], a[3], a[6], a[7]))
    elif p.name == "rconst":
        value = a[4]
        assert isinstance(value, Constant)
        out = Predicate("rconst", (a[2], a[3], a[0], a[1], _ratio(1 / Fraction(value.value))))
    elif p.name == "aconst":
        value = a[4]
        assert isinstance(value, Constant)
        out = Predicate("aconst", (a[2], a[3], a[0], a[1], _angle(-Fraction(value.value))))
    elif p.name == "perp":
        out = Predicate("aconst", (*a, _angle(Fraction(1, 2))))
    elif p.name == "cong":
        out = Predicate("rconst", (*a, _ratio(Fraction(1))))
    elif p.name == "cyclic" and len(a) == 4:
        w, x, y, z = a
        out = Predicate("eqangle", (y, w, y, x, z, w, z, x))
    elif p.name == "coll":
        x, y, z = a
        out = Predicate("para", (x, y, x, z))
    if out is None:
        return None
    return out.negate() if p.negated else out


def candidates(sources: Sequence[Predicate], rng: Random) -> list[Distractor]:
    """Every kind of distractor from every source, in a seeded order: the
    caller keeps the first ones that pass :func:`keep`."""
    made: list[Distractor] = []
    for source in sources:
        negation = source.negate()
        made.append(Distractor(negation, "negation", source))
        changed = perturb(source, rng)
        if changed is not None:
            made.append(Distractor(changed, "perturbation", source))
        for false in (changed, negation):
            if false is None:
                continue
            again = rewrite(false)
            if again is not None:
                made.append(Distractor(again, "rewrite", source))
    order = list(range(len(made)))
    for i in range(len(order) - 1, 0, -1):  # Fisher-Yates with the seeded source
        j = rng.index(i + 1)
        order[i], order[j] = order[j], order[i]
    return [made[i] for i in order]


def select(pool: Sequence[Distractor], count: int, is_false: Callable[[Predicate], bool],
           provable: Callable[[Predicate], bool], taken: Sequence[Predicate], limit: int = 40
           ) -> tuple[list[Distractor], dict[str, int]]:
    """Up to ``count`` distractors from ``pool`` (in order): false in every
    diagram (``is_false``), not provable, no two the same statement or about
    the same source, kinds spread. Tries at most ``limit`` candidates;
    returns them with the count of each reason one was refused."""
    chosen: list[Distractor] = []
    refused: dict[str, int] = {}
    seen = {canonical(t) for t in taken}
    sources: set[Predicate] = set()
    kinds_used: list[str] = []
    tried = 0
    pending = list(pool)
    while pending and len(chosen) < count and tried < limit:
        # The kind used least so far first, then pool order.
        pending.sort(key=lambda d: kinds_used.count(d.kind))
        d = pending.pop(0)
        tried += 1
        key = canonical(d.predicate)
        if key in seen or canonical(d.source) in sources:
            refused["repeated"] = refused.get("repeated", 0) + 1
            continue
        if not is_false(d.predicate):
            refused["true_in_a_diagram"] = refused.get("true_in_a_diagram", 0) + 1
            continue
        if provable(d.predicate):
            refused["provable"] = refused.get("provable", 0) + 1
            continue
        seen.add(key)
        sources.add(canonical(d.source))
        kinds_used.append(d.kind)
        chosen.append(d)
    return chosen, refused
