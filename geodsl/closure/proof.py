"""Proofs: trace a fact back to the premise, keep only what it needs, number
the steps, print them in the notation AlphaGeometry, Newclid and GeoChallenge
print, and export JSON.

::

    * From theorem premises:
    AB ⟂ CD [00]
    EF ⟂ CD [01]
    * Proof steps:
    001. AB ⟂ CD [00] & EF ⟂ CD [01] (r00 Perpendiculars to one line are parallel) ⇒ AB ∥ EF [02]

Facts are printed by :func:`fact_text`, the one place that chooses the notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..lang.ast import Predicate
from .facts import Fact, is_engine_step

if TYPE_CHECKING:
    from .engine import Closure


def fact_text(predicate: Predicate) -> str:
    """A fact in proof notation (``AB ⟂ CD``), or the DSL form until the
    notation printer is installed."""
    try:
        from ..lang.notation import to_notation  # type: ignore[import-not-found]
    except ImportError:
        return predicate.to_text()
    return to_notation(predicate)


@dataclass(frozen=True)
class Proof:
    """A numbered proof: premise facts, then steps, each citing earlier refs."""

    premises: tuple[dict[str, object], ...]
    steps: tuple[dict[str, object], ...]
    auxiliary: tuple[str, ...] = ()
    """The auxiliary constructions the problem gives after ``|``, as text;
    premise facts they assert are marked ``"auxiliary": True``."""

    def to_text(self) -> str:
        width = max(2, len(str(len(self.premises) + len(self.steps) - 1)))
        out = ["* From theorem premises:"]
        for p in self.premises:
            if not p.get("auxiliary"):
                out.append(f"{p['fact']} [{p['ref']:0{width}d}]")
        out += _auxiliary_text(self, width)
        out.append("* Proof steps:")
        for s in self.steps:
            cited = " & ".join(f"{self._text(r)} [{r:0{width}d}]" for r in s["premises"])  # type: ignore[union-attr]
            rule = s["rule"] if s["rule"] == s["label"] else f"{s['rule']} {s['label']}"
            if is_engine_step(str(s["rule"])):
                rule = s["label"]
            out.append(f"{s['step']:03d}. {cited} ({rule}) ⇒ {s['fact']} [{s['ref']:0{width}d}]")
        return "\n".join(out) + "\n"

    def _text(self, ref: object) -> str:
        for p in self.premises + self.steps:
            if p["ref"] == ref:
                return str(p["fact"])
        raise KeyError(ref)

    def to_dict(self) -> dict[str, object]:
        return {"premises": list(self.premises), "auxiliary": list(self.auxiliary),
                "steps": list(self.steps)}

    def __str__(self) -> str:
        return self.to_text()


def build_proof(closure: "Closure", goal: Fact | Sequence[Fact]) -> Proof:
    """The facts ``goal`` (one fact, or several proved together) depends on,
    premises first, then steps in the order they were derived (parents
    always come before children)."""
    facts = closure.facts
    needed: set[int] = set()
    stack = [goal.id] if isinstance(goal, Fact) else [g.id for g in goal]
    while stack:
        fid = stack.pop()
        if fid in needed:
            continue
        needed.add(fid)
        stack.extend(facts[fid].parents)
    order = sorted(needed)
    aux_texts, aux_origins = _auxiliary_constructions(closure)
    premises = [f for f in order if facts[f].rule == "premise" and facts[f].origin not in aux_origins]
    premises += [f for f in order if facts[f].rule == "premise" and facts[f].origin in aux_origins]
    steps = [f for f in order if facts[f].rule != "premise"]
    ref: dict[int, int] = {}
    for fid in premises + steps:
        ref[fid] = len(ref)
    pre_out = []
    for fid in premises:
        f = facts[fid]
        pred = closure.fact_predicate(f)
        pre_out.append({"ref": ref[fid], "fact": fact_text(pred), "predicate": pred.to_text(),
                        "origin": f.origin, "auxiliary": f.origin in aux_origins})
    step_out = []
    for i, fid in enumerate(steps, start=1):
        f = facts[fid]
        pred = closure.fact_predicate(f)
        step_out.append({"step": i, "premises": [ref[p] for p in f.parents], "rule": f.rule,
                         "label": f.label, "fact": fact_text(pred), "predicate": pred.to_text(),
                         "ref": ref[fid]})
    return Proof(tuple(pre_out), tuple(step_out), aux_texts)


# -- the auxiliary constructions a problem gives after `|` (AlphaGeometry's
# "Auxiliary Constructions" section). Kept apart from the rest of the proof.


def _auxiliary_constructions(closure: "Closure") -> tuple[tuple[str, ...], frozenset[str | None]]:
    """The ``|`` constructions as text, and the origins (``line:col``) that
    premise facts of their clauses carry."""
    aux = closure.problem.premise.auxiliary
    origins = frozenset(f"{where.line}:{where.column}" for c in aux for cl in c.clauses
                        for where in (cl.span or c.span,) if where is not None)
    return tuple(c.to_text() for c in aux), origins


def _auxiliary_text(proof: Proof, width: int) -> list[str]:
    """``* Auxiliary constructions:``, each construction, then the facts of
    theirs the proof uses; nothing when the problem gives none."""
    if not proof.auxiliary:
        return []
    out = ["* Auxiliary constructions:", *proof.auxiliary]
    out += [f"{p['fact']} [{p['ref']:0{width}d}]" for p in proof.premises if p.get("auxiliary")]
    return out
