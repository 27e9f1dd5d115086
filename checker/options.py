"""Option truth: is each option of a problem true, and is it proved?

Each problem is realized once (``K`` independent diagrams from one seed) and
saturated once; then every option gets a verdict:

- ``proved``: true in every diagram and derived by the closure (the proof is
  available); a *negated* option (``AB ≠ CD``, "is not perpendicular") that
  holds in every diagram is proved by the diagram itself — one consistent
  figure where the positive fact fails is a counterexample to it — and is
  reported with ``proof_kind: "counterexample"``;
- ``true_unproved``: true in every diagram but not derived: an engine gap, or
  an auxiliary construction is needed;
- ``false``: false in at least one diagram (a counterexample).

Problems with a single goal (AlphaGeometry's files) report it as one option
labelled ``goal``. With an answer key, the report says whether the key
agrees with the verdicts and which options disagree.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from geodsl.budget import Budget, Clock
from geodsl.lang.ast import Option, Predicate, Problem
from geodsl.lang.errors import GeoDSLError, GoalFalseError
from geodsl.lang.definitions import rulebase
from geodsl.provers import get_prover
from geodsl.realizer import realize

from .queries import QueryAnswer, answers, measure_queries, to_prove

VERDICTS = ("proved", "true_unproved", "false")


@dataclass(frozen=True)
class OptionVerdict:
    """The verdict on one option."""

    label: str
    predicate: Predicate
    numeric: bool
    proved: bool
    verdict: str
    proof_kind: str | None = None
    proof_steps: int | None = None
    proof: str | None = field(default=None, compare=False)

    def to_dict(self, with_proof: bool = False) -> dict[str, object]:
        out: dict[str, object] = {
            "label": self.label, "predicate": self.predicate.to_text(), "numeric": self.numeric,
            "proved": self.proved, "verdict": self.verdict, "proof_kind": self.proof_kind,
            "proof_steps": self.proof_steps,
        }
        if with_proof:
            out["proof"] = self.proof
        return out


@dataclass(frozen=True)
class ProblemCheck:
    """Every option's verdict for one problem, or the error that stopped it."""

    problem: str | None
    status: str  # "ok" | "error"
    options: tuple[OptionVerdict, ...] = ()
    answer_key: tuple[str, ...] | None = None
    key_consistent: bool | None = None
    disagreements: tuple[str, ...] = ()
    closure_status: str | None = None
    seconds: float = 0.0
    error: GeoDSLError | None = field(default=None, compare=False)
    file: str | None = None
    queries: tuple[QueryAnswer, ...] = ()
    auxiliary: tuple[str, ...] = ()
    """The auxiliary constructions the problem gives after ``|`` (text)."""

    def to_dict(self, with_proofs: bool = False) -> dict[str, object]:
        return {
            "file": self.file,
            "problem": self.problem,
            "status": self.status,
            "error": None if self.error is None else {
                "kind": self.error.kind, "message": self.error.message, "line": self.error.line,
                "column": self.error.column},
            "options": [o.to_dict(with_proofs) for o in self.options],
            "answer_key": None if self.answer_key is None else list(self.answer_key),
            "key_consistent": self.key_consistent,
            "disagreements": list(self.disagreements),
            "closure_status": self.closure_status,
            "seconds": round(self.seconds, 4),
            "queries": [q.to_dict(with_proofs) for q in self.queries],
            "auxiliary": list(self.auxiliary),
        }


def options_of(problem: Problem) -> tuple[Option, ...]:
    """The options to decide: the labelled ones, or the goals as `goal`, `goal2`, ..."""
    if problem.options:
        return problem.options
    return tuple(Option("goal" if i == 0 else f"goal{i + 1}", g, g.span) for i, g in enumerate(problem.goals))


def check_problem(problem: Problem, *, seed: int = 0, diagrams: int = 3,
                  budget: Budget | Clock | None = None, timeout: float | None = None,
                  with_proofs: bool = False, method: str = "ddar") -> ProblemCheck:
    """Realize once, decide every option numerically, then prove the true
    ones with ``method``'s prover — all of it within one budget per problem
    (``timeout`` seconds is shorthand for ``Budget(seconds=timeout)``)."""
    start = time.monotonic()
    if budget is not None and timeout is not None:
        raise GeoDSLError("pass a budget or a timeout, not both", hint="Budget(seconds=...) is the timeout")
    clock = budget if isinstance(budget, Clock) else (
        budget if budget is not None else Budget() if timeout is None else Budget(seconds=timeout)).start()
    prover = get_prover(method, seed=seed)
    # One realization serves both: the options are decided on its first
    # `diagrams` diagrams, the prover reads as many as it needs.
    count = max(diagrams, prover.diagrams)
    try:
        try:
            figures = realize(problem, seed=seed, diagrams=count)
        except GoalFalseError:
            # The goal is false whichever way the figure is drawn: decide the
            # options on unbiased diagrams (the goal's verdict will be false).
            figures = realize(problem, seed=seed, diagrams=count, check_goals=False)
        deciding = figures[:diagrams]
        options = options_of(problem)
        numeric = [all(d.holds(o.predicate) for d in deciding) for o in options]
        # Only true, positive options need a proof: a negated one that holds
        # in every diagram is proved by the figure (a counterexample to the
        # positive fact), a false one is false.
        goals = [o.predicate for o, true in zip(options, numeric) if true and not o.predicate.negated]
        # A query's value, when the diagrams name it, is one more goal.
        measured = measure_queries(problem, figures)
        goals += [p for p in to_prove(measured) if p not in goals]
        result = prover.prove(problem, goals, clock, figures=figures)
    except GeoDSLError as exc:
        return ProblemCheck(problem.name, "error", error=exc, seconds=time.monotonic() - start)
    proofs = {g.goal: g.proof for g in result.goals}
    verdicts = []
    for option, true in zip(options, numeric):
        predicate = option.predicate
        proved, kind, steps, text = False, None, None, None
        proof = proofs.get(predicate) if true and not predicate.negated else None
        if true and predicate.negated:
            proved, kind, steps = True, "counterexample", 0
        elif proof is not None:
            # A side condition (obtuse_angle, ncoll) is decided on the diagram, not derived.
            side = rulebase().predicates[predicate.name].side
            proved, kind, steps = True, "diagram" if side else "deduction", len(proof.steps)
            text = proof.to_text() if with_proofs else None
        verdict = "proved" if proved else "true_unproved" if true else "false"
        verdicts.append(OptionVerdict(option.label, predicate, true, proved, verdict, kind, steps, text))
    key, consistent, disagreements = problem.answer, None, ()
    if key is not None and problem.options:
        disagreements = tuple(v.label for v in verdicts if (v.label in key) != v.numeric)
        consistent = not disagreements
    return ProblemCheck(problem.name, "ok", tuple(verdicts), key, consistent, disagreements,
                        result.status, time.monotonic() - start,
                        queries=answers(measured, proofs, with_proofs),
                        auxiliary=tuple(c.to_text() for c in problem.aux_given))


@dataclass(frozen=True)
class AuditFinding:
    """A dataset-building problem: a distractor that is true, a keyed answer
    that is false, or a keyed answer the closure cannot prove."""

    problem: str | None
    label: str
    kind: str  # "keyed_false_but_true" | "keyed_true_but_false" | "keyed_true_unproved"
    predicate: str

    def to_dict(self) -> dict[str, object]:
        return {"problem": self.problem, "label": self.label, "kind": self.kind, "predicate": self.predicate}


def audit(checks: Sequence[ProblemCheck]) -> list[AuditFinding]:
    """What GeoChallenge's construction rules forbid: every distractor must be
    falsifiable, every keyed option true (and, for the builder, provable)."""
    findings = []
    for check in checks:
        if check.status != "ok" or check.answer_key is None:
            continue
        for v in check.options:
            keyed = v.label in check.answer_key
            text = v.predicate.to_text()
            if not keyed and v.numeric:
                findings.append(AuditFinding(check.problem, v.label, "keyed_false_but_true", text))
            elif keyed and not v.numeric:
                findings.append(AuditFinding(check.problem, v.label, "keyed_true_but_false", text))
            elif keyed and v.verdict == "true_unproved":
                findings.append(AuditFinding(check.problem, v.label, "keyed_true_unproved", text))
    return findings
