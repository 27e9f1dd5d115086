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
from typing import Literal

from geodsl.budget import Budget, Clock
from geodsl.lang.ast import Option, Predicate, Problem
from geodsl.lang.definitions import rulebase
from geodsl.lang.errors import GeoDSLError, GoalFalseError
from geodsl.proofs import Certificate, Proof, Prover, Result, Status
from geodsl.provers import get_prover
from geodsl.realizer import realize
from geodsl.realizer.rng import check_seed

from .queries import QueryAnswer, answers, measure_queries, to_prove

Verdict = Literal["proved", "true_unproved", "false"]
VERDICTS: tuple[Verdict, ...] = ("proved", "true_unproved", "false")
ProofKind = Literal["deduction", "counterexample", "diagram", "algebra"]
"""How a proved option is proved: derived by the prover; a negated option
refuted by the figures (a consistent figure where the positive fact fails);
a side condition (``obtuse_angle``) decided on the figure; by the algebraic
prover, with a checked certificate (``proved (algebra)``)."""
CheckStatus = Literal["ok", "error"]


@dataclass(frozen=True)
class OptionVerdict:
    """The verdict on one option (or goal)."""

    label: str
    predicate: Predicate
    numeric: bool
    proved: bool
    verdict: Verdict
    proof_kind: ProofKind | None = None
    proof_steps: int | None = None
    proof: Proof | None = field(default=None, compare=False)
    """The deduction, when ``proof_kind`` is ``"deduction"`` and proofs were asked for."""
    certificate: Certificate | None = field(default=None, compare=False)
    """The algebraic certificate, when ``proof_kind`` is ``"algebra"`` and proofs were asked for."""

    def to_dict(self, with_proof: bool = False) -> dict[str, object]:
        """The JSON object of ``geodsl check`` (``options``) and ``geodsl prove``
        (``goals``); ``proof`` (the proof's JSON, or null) only ``with_proof``."""
        out: dict[str, object] = {
            "label": self.label, "predicate": self.predicate.to_text(), "numeric": self.numeric,
            "proved": self.proved, "verdict": self.verdict, "proof_kind": self.proof_kind,
            "proof_steps": self.proof_steps,
        }
        if with_proof:
            out["proof"] = None if self.proof is None else self.proof.to_dict()
            out["certificate"] = None if self.certificate is None else self.certificate.to_dict()
        return out


@dataclass(frozen=True)
class ProblemCheck:
    """Every option's verdict for one problem, or the error that stopped it.

    ``closure_status`` is the prover's status (``proved``, ``saturated``,
    ``budget``), or None when no prover ran: nothing was numerically true to
    prove (a false goal, say), or the problem had nothing to decide.
    ``result`` is that run (:class:`~geodsl.proofs.Result`: its ``stats``
    count the facts)."""

    problem: str | None
    status: CheckStatus
    options: tuple[OptionVerdict, ...] = ()
    answer_key: tuple[str, ...] | None = None
    key_consistent: bool | None = None
    disagreements: tuple[str, ...] = ()
    closure_status: Status | None = None
    seconds: float = 0.0
    error: GeoDSLError | None = field(default=None, compare=False)
    file: str | None = None
    result: Result | None = field(default=None, compare=False, repr=False)
    queries: tuple[QueryAnswer, ...] = ()
    auxiliary: tuple[str, ...] = ()
    """The auxiliary constructions the problem gives after ``|`` (text)."""

    def to_dict(self, with_proofs: bool = False) -> dict[str, object]:
        """The JSON object ``geodsl check --json`` prints for the problem."""
        return {
            "file": self.file,
            "problem": self.problem,
            "status": self.status,
            "error": None if self.error is None else self.error.to_dict(),
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
                  with_proofs: bool = False, method: str = "ddar", prover: Prover | None = None,
                  saturate: bool = False) -> ProblemCheck:
    """Realize once, decide every option (or goal) numerically, then prove
    the true ones with ``method``'s prover (or ``prover``, seeded by the
    caller) — all of it within one budget per problem (``timeout`` seconds
    is shorthand for ``Budget(seconds=timeout)``).

    A goal false in every sampled diagram is the verdict ``false``, not an
    error (``geodsl check`` and ``geodsl prove`` both report it so, exit 0):
    the options are then decided on diagrams drawn without regard to the
    goal. The prover runs only if some option is numerically true and not
    negated (there is something to prove), or ``saturate`` asks for it.

    ``seed`` (a whole number from 0), ``diagrams`` (from 1) and the budget
    (finite, > 0, checked by :class:`geodsl.budget.Budget`) are validated: a
    bad value raises :class:`~geodsl.lang.errors.GeoDSLError`. An error in
    the problem itself (a degenerate construction) is returned, as the
    ``error`` of a check with status ``"error"``.
    """
    start = time.monotonic()
    seed = check_seed(seed)
    if isinstance(diagrams, bool) or not isinstance(diagrams, int) or diagrams < 1:
        raise GeoDSLError(f"diagrams must be a whole number from 1, got {diagrams!r}", hint="the default is 3")
    if budget is not None and timeout is not None:
        raise GeoDSLError("pass a budget or a timeout, not both", hint="Budget(seconds=...) is the timeout")
    clock = budget if isinstance(budget, Clock) else (
        budget if budget is not None else Budget() if timeout is None else Budget(seconds=timeout)).start()
    if prover is None:
        prover = get_prover(method, seed=seed)
    # One realization serves both: the options are decided on its first
    # `diagrams` diagrams, the prover reads as many as it needs.
    count = max(diagrams, prover.diagrams)
    options = options_of(problem)
    result = None
    try:
        try:
            figures = realize(problem, seed=seed, diagrams=count)
        except GoalFalseError:
            # The goal is false whichever way the figure is drawn: decide the
            # options on unbiased diagrams (the goal's verdict will be false).
            figures = realize(problem, seed=seed, diagrams=count, check_goals=False)
        deciding = figures[:diagrams]
        numeric = [all(d.holds(o.predicate) for d in deciding) for o in options]
        # Only true, positive options need a proof: a negated one that holds
        # in every diagram is proved by the figure (a counterexample to the
        # positive fact), a false one is false.
        goals = [o.predicate for o, true in zip(options, numeric) if true and not o.predicate.negated]
        # A query's value, when the diagrams name it, is one more goal.
        measured = measure_queries(problem, figures)
        goals += [p for p in to_prove(measured) if p not in goals]
        if goals or saturate:
            result = prover.prove(problem, goals, clock, figures=figures)
    except GeoDSLError as exc:
        return ProblemCheck(problem.name, "error", error=exc, seconds=time.monotonic() - start)
    proofs = {} if result is None else {g.goal: g.proof for g in result.goals}
    certificates = {} if result is None else {g.goal: g.certificate for g in result.goals
                                              if g.certificate is not None and g.certificate.checked}
    verdicts = []
    for option, true in zip(options, numeric):
        predicate = option.predicate
        proved = False
        kind: ProofKind | None = None
        steps: int | None = None
        proof = proofs.get(predicate) if true and not predicate.negated else None
        certificate = certificates.get(predicate) if true and not predicate.negated else None
        if true and predicate.negated:
            proved, kind, steps = True, "counterexample", 0
        elif proof is None and certificate is not None:
            proved, kind, steps = True, "algebra", None
        elif proof is not None:
            # A side condition (obtuse_angle, ncoll) is decided on the diagram, not derived.
            side = rulebase().predicates[predicate.name].side
            proved, kind, steps = True, "diagram" if side else "deduction", len(proof.steps)
        verdict: Verdict = "proved" if proved else "true_unproved" if true else "false"
        verdicts.append(OptionVerdict(option.label, predicate, true, proved, verdict, kind, steps,
                                      proof if with_proofs else None,
                                      certificate if with_proofs and kind == "algebra" else None))
    key = problem.answer
    consistent: bool | None = None
    disagreements: tuple[str, ...] = ()
    if key is not None and problem.options:
        disagreements = tuple(v.label for v in verdicts if (v.label in key) != v.numeric)
        consistent = not disagreements
    return ProblemCheck(problem.name, "ok", tuple(verdicts), key, consistent, disagreements,
                        None if result is None else result.status, time.monotonic() - start,
                        result=result, queries=answers(measured, proofs, with_proofs),
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
    return [f for check in checks for f in audit_record(check.to_dict())]


def audit_record(record: dict[str, object]) -> list[AuditFinding]:
    """:func:`audit` of one problem's ``check --json`` record (as ``--out``
    files hold them, so a resumed run's audit covers every record)."""
    key, options = record.get("answer_key"), record.get("options")
    if record.get("status") != "ok" or not isinstance(key, list) or not isinstance(options, list):
        return []
    problem = record.get("problem")
    name = None if problem is None else str(problem)
    findings = []
    for v in options:
        keyed, text = v["label"] in key, str(v["predicate"])
        if not keyed and v["numeric"]:
            findings.append(AuditFinding(name, str(v["label"]), "keyed_false_but_true", text))
        elif keyed and not v["numeric"]:
            findings.append(AuditFinding(name, str(v["label"]), "keyed_true_but_false", text))
        elif keyed and v["verdict"] == "true_unproved":
            findings.append(AuditFinding(name, str(v["label"]), "keyed_true_unproved", text))
    return findings
