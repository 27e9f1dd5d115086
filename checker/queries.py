"""Answers to queries: goals that ask for a value (``acompute a b c d``).

A query is answered in two layers, and the answer says which one holds:

- **numeric**: the value measured in every diagram
  (:meth:`geodsl.realizer.Diagrams.measure`), named exactly when all diagrams
  give the same simple fraction (``2pi/3``), else reported as a number and
  whether it varies between diagrams. A numeric value is not a proof.
- **proved**: when the value is named, the prover is asked for the
  queried predicate with that value (``aconst a b b c 2pi/3``,
  :func:`to_prove`); if it derives it, the answer is proved and the proof is
  that predicate's proof (this is how Newclid answers ``acompute``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from geodsl.lang.ast import Predicate, Problem
from geodsl.realizer.measure import Measurement

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from geodsl.proofs import Proof
    from geodsl.realizer import Diagrams


@dataclass(frozen=True)
class QueryAnswer:
    """The answer to one query: the measurement, and whether the closure proves it."""

    measurement: Measurement
    proved: bool
    proof_steps: int | None = None
    proof: Proof | None = field(default=None, compare=False)
    """The proof of the value, when proved and proofs were asked for."""

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
            out["proof"] = None if self.proof is None else self.proof.to_dict()
        return out


def measure_queries(problem: Problem, figures: "Diagrams") -> tuple[Measurement, ...]:
    """Every query of ``problem``, measured in ``figures``."""
    return tuple(figures.measure(q) for q in problem.queries)


def to_prove(measurements: "Sequence[Measurement]") -> list[Predicate]:
    """The predicates to ask a prover for: each named value (``aconst a b b c 2pi/3``)."""
    return [m.predicate for m in measurements if m.predicate is not None]


def answers(measurements: "Sequence[Measurement]", proofs: "Mapping[Predicate, Proof | None]",
            with_proofs: bool = False) -> tuple[QueryAnswer, ...]:
    """The answers, given the proofs a prover found for :func:`to_prove`'s predicates."""
    out: list[QueryAnswer] = []
    for m in measurements:
        proof = proofs.get(m.predicate) if m.predicate is not None else None
        if proof is None:
            out.append(QueryAnswer(m, False))
        else:
            out.append(QueryAnswer(m, True, len(proof.steps), proof if with_proofs else None))
    return tuple(out)
