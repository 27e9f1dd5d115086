"""Answers to queries: goals that ask for a value (``acompute a b c d``).

A query is answered in two layers, and the answer says which one holds:

- **numeric**: the value measured in every diagram
  (:meth:`geodsl.realize.Diagrams.measure`), named exactly when all diagrams
  give the same simple fraction (``2pi/3``), else reported as a number and
  whether it varies between diagrams. A numeric value is not a proof.
- **proved**: when the value is named, the closure is asked for the
  queried predicate with that value (``aconst a b b c 2pi/3``); if it
  derives it, the answer is proved and the proof is that predicate's proof
  (this is how Newclid answers ``acompute``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from geodsl.lang.ast import Problem
from geodsl.realize.measure import Measurement

if TYPE_CHECKING:
    from geodsl.closure import Closure
    from geodsl.realize import Diagrams


@dataclass(frozen=True)
class QueryAnswer:
    """The answer to one query: the measurement, and whether the closure proves it."""

    measurement: Measurement
    proved: bool
    proof_steps: int | None = None
    proof: str | None = field(default=None, compare=False)

    @property
    def verdict(self) -> str:
        """``proved`` (the closure derives the value), ``numeric`` (one value in
        every diagram, not derived) or ``varies`` (the premise does not fix it)."""
        if self.proved:
            return "proved"
        return "numeric" if self.measurement.same else "varies"

    def text(self) -> str:
        """One line: ``acompute a b b c = 2pi/3 (120°): proved`` (or numeric, varies)."""
        m = self.measurement
        value = m.value_text()
        if self.verdict == "varies":
            value = (f"{value}, depending on the diagram" if m.choices
                     else f"varies between diagrams (first: {value})")
        how = {"proved": f"proved ({m.predicate.to_text() if m.predicate else ''})",
               "numeric": "numeric, the same in every diagram; not proved",
               "varies": "numeric; not proved"}[self.verdict]
        return f"{m.query.to_text()} = {value}: {how}"

    def to_dict(self, with_proof: bool = False) -> dict[str, object]:
        out = {**self.measurement.to_dict(), "verdict": self.verdict, "proved": self.proved,
               "proof_steps": self.proof_steps}
        if with_proof:
            out["proof"] = self.proof
        return out


def answer_queries(problem: Problem, figures: "Diagrams", saturated: "Closure | None",
                   with_proofs: bool = False) -> tuple[QueryAnswer, ...]:
    """Every query of ``problem``: measured in ``figures``, proved by
    ``saturated`` (a closure run on the same problem) when it can."""
    out: list[QueryAnswer] = []
    for query in problem.queries:
        m = figures.measure(query)
        proved, steps, text = False, None, None
        if m.predicate is not None and saturated is not None and saturated.proves(m.predicate):
            proof = saturated.proof(m.predicate)
            proved, steps = True, len(proof.steps)
            text = proof.to_text() if with_proofs else None
        out.append(QueryAnswer(m, proved, steps, text))
    return tuple(out)
