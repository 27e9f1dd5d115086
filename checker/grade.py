"""Grading a solution step by step: symbolic verdicts first, the judge
only for what they cannot decide (docs/grading.md).

Each step's claims are read (in the solution's notation) and decided
against the problem's premises, the auxiliary constructions declared so
far and the claims of earlier steps that are established — stated before
and true in the figure (a wrong step's true claim is still a fact: the
error is counted once, at the step that made it; a false claim is never
established, and a step resting on it is wrong too):

================= ============================================================
``valid``         one rule application or one chase (:mod:`.verify`) from the
                  context — or, when the step cites premises by reference,
                  from exactly what it cites
``valid_skip``    true, and the closure derives it from the same facts, in
                  more than one step (at most ``max_skip``); an error only
                  with ``skip_is_error`` (GeoLaux counts over-skipping as a
                  logical error)
``false``         false in some diagram of the figure (its seed and index
                  given: a counterexample)
``unjustified``   true in every diagram but not derived from the context
                  within the budget: a leap, an assumption of the goal, a
                  citation of something not established, circular use
``undecided``     not read, or outside the symbolic fragment: for the judge
``judged_correct`` / ``judged_wrong`` the judge's verdict, recorded as such
================= ============================================================

Error types (GeoLaux's four) are assigned by :func:`error_type`, a fixed
rule documented in docs/grading.md.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from geodsl.budget import Budget
from geodsl.ddar.engine import premise_predicates
from geodsl.lang.ast import Problem
from geodsl.lang.aux_text import read_aux
from geodsl.lang.definitions import canonical, expand, rulebase
from geodsl.lang.errors import ConstructionError, GeoDSLError
from geodsl.lang.notation import read_notation
from geodsl.lang.parser import parse_predicate, parse_problem
from geodsl.lang.terms import Predicate
from geodsl.realizer.rng import check_seed

from . import metrics
from .steps import Cited, Solution, SolutionStep, pieces, read_solution
from .values import Value, read_value, same_value
from .verify import Figure, Justification, View, by_closure, describe, one_chase, one_step

Verdict = Literal["valid", "valid_skip", "false", "unjustified", "undecided", "judged_correct", "judged_wrong"]
VERDICTS: tuple[Verdict, ...] = ("valid", "valid_skip", "false", "unjustified", "undecided",
                                 "judged_correct", "judged_wrong")
ErrorType = Literal["figure_comprehension", "knowledge", "calculation", "logical_reasoning"]
ERROR_TYPES: tuple[ErrorType, ...] = ("figure_comprehension", "knowledge", "calculation", "logical_reasoning")
DecidedBy = Literal["symbolic", "judge", "none"]

_SEVERITY = {"valid": 0, "valid_skip": 1, "undecided": 2, "unjustified": 3, "false": 4}

VALUE_PREDICATES = frozenset({"aconst", "rconst", "lconst", "r2const", "l2const", "anglediff"})
TRIANGLE_PREDICATES = frozenset({"simtri", "simtrir", "contri", "contrir"})


@dataclass(frozen=True)
class GradeOptions:
    """How to grade. ``skip_is_error``: a ``valid_skip`` step is an error
    (GeoLaux's reading); ``max_skip``: the most closure steps a
    ``valid_skip`` may skip (beyond it, a leap: ``unjustified``);
    ``claim_seconds``: the closure's budget per claim; ``timeout``: the whole
    solution's (past it, the remaining steps are ``undecided``)."""

    seed: int = 0
    diagrams: int = 3
    skip_is_error: bool = False
    max_skip: int = 12
    claim_seconds: float = 5.0
    timeout: float = 120.0
    format: str | None = None
    notation: str | None = None

    def __post_init__(self) -> None:
        check_seed(self.seed)
        for name in ("diagrams", "max_skip"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise GeoDSLError(f"{name} must be a whole number from 1, got {value!r}", hint="e.g. 3")
        Budget(seconds=self.claim_seconds)
        Budget(seconds=self.timeout)


@dataclass
class StepGrade:
    """The verdict on one step."""

    index: int
    text: str
    claims: list[str]
    verdict: Verdict
    decided_by: DecidedBy
    error_type: ErrorType | None = None
    reason: str = ""
    counterexample_seed: int | None = None
    counterexample_diagram: int | None = None
    justification: str | None = None
    """How a valid step follows (rule, chase, closure), or None."""
    cites: list[str] | None = None
    judge_reason: str | None = None
    predicates: list[Predicate] = field(default_factory=list, repr=False)
    """The claims read, as predicates (``claims`` is their DSL text)."""

    @property
    def wrong(self) -> bool:
        return self.verdict in ("false", "unjustified", "judged_wrong")

    def to_dict(self) -> dict[str, object]:
        return {"index": self.index, "text": self.text, "claims": list(self.claims), "verdict": self.verdict,
                "decided_by": self.decided_by, "error_type": self.error_type, "reason": self.reason,
                "counterexample_seed": self.counterexample_seed,
                "counterexample_diagram": self.counterexample_diagram,
                "justification": self.justification, "cites": self.cites}


@dataclass
class FactGrade:
    """A premise or numerical check a pasted proof states, and whether it holds."""

    ref: str
    text: str
    kind: str
    status: str  # premise | implied | unproved | false | holds | unread
    claims: list[str] = field(default_factory=list)

    @property
    def established(self) -> bool:
        return self.status in ("premise", "implied", "holds")

    def to_dict(self) -> dict[str, object]:
        return {"ref": self.ref, "text": self.text, "kind": self.kind, "status": self.status,
                "claims": list(self.claims)}


@dataclass
class SolutionGrade:
    """The grading of one solution: its steps' verdicts and GeoLaux's scores."""

    problem: str | None
    status: str  # ok | error
    format: str | None = None
    notation: str | None = None
    steps: list[StepGrade] = field(default_factory=list)
    cited: list[FactGrade] = field(default_factory=list)
    first_error: int | None = None
    answer: str | None = None
    answer_correct: bool | None = None
    acs: float | None = None
    pcs: float | None = None
    pqs: float | None = None
    judge_calls: int = 0
    judge_tokens: dict[str, int] = field(default_factory=lambda: {"prompt": 0, "completion": 0})
    seconds: float = 0.0
    error: GeoDSLError | None = None
    skip_is_error: bool = False
    seed: int = 0
    source: str | None = None

    def rescore(self) -> None:
        """First error, ACS, PCS and PQS from the step verdicts (after the judge)."""
        etas = [metrics.step_score(s.verdict, self.skip_is_error) for s in self.steps]
        wrong = [s.index for s, eta in zip(self.steps, etas) if eta == 0]
        self.first_error = wrong[0] if wrong else None
        self.acs = None if self.answer_correct is None else float(self.answer_correct)
        self.pcs = metrics.pcs(self.answer_correct, etas)
        self.pqs = metrics.pqs(etas)

    def to_dict(self) -> dict[str, object]:
        return {"file": self.source, "problem": self.problem, "status": self.status,
                "error": None if self.error is None else self.error.to_dict(),
                "format": self.format, "notation": self.notation, "seed": self.seed,
                "steps": [s.to_dict() for s in self.steps], "cited": [c.to_dict() for c in self.cited],
                "first_error": self.first_error, "answer": self.answer, "answer_correct": self.answer_correct,
                "acs": self.acs, "pcs": self.pcs, "pqs": self.pqs, "skip_is_error": self.skip_is_error,
                "judge_calls": self.judge_calls, "judge_tokens": dict(self.judge_tokens),
                "seconds": round(self.seconds, 4)}


# ------------------------------------------------------------------ reading claims


@dataclass
class _Read:
    predicates: list[Predicate]
    unread: list[str]
    texts: list[str]
    """The text each predicate was read from."""


_DSL_WORD = re.compile(r"^\s*(not\s+)?([a-z_0-9]+)\s")


def read_claim(text: str, notation: str, view: View, names: Sequence[str]) -> _Read:
    """The predicates a claim text states, in the solution's notation: the
    whole text if it reads, else the longest readable runs of its
    comma/"and" pieces (``A, B, C are collinear and AB ⟂ CD``)."""
    whole = _read_one(text, notation, view, names)
    if whole is not None:
        return _Read(whole, [], [text] * len(whole))
    parts = pieces(text)
    out = _Read([], [], [])
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            chunk = text[parts[i][0]:parts[j - 1][1]].strip()
            found = _read_one(chunk, notation, view, names)
            if found is not None:
                out.predicates += found
                out.texts += [chunk] * len(found)
                i = j
                break
        else:
            out.unread.append(text[parts[i][0]:parts[i][1]].strip())
            i += 1
    return out


def _read_one(text: str, notation: str, view: View, names: Sequence[str]) -> list[Predicate] | None:
    text = text.strip().strip(".")
    if not text:
        return None
    dsl = _DSL_WORD.match(text)
    if dsl is not None and dsl.group(2) in rulebase().predicates:
        try:
            return [parse_predicate(text, tuple(names))]
        except GeoDSLError:
            return None
    try:
        found = read_notation(text, dialect=notation, figure=view)
    except GeoDSLError:
        found = None
    if found is not None:
        # A point the figure does not have (a construction the grader could not read) is no claim it can check.
        return found if all(p in names for f in found for p in f.points) else None
    reason = re.search(r"\s*\(([^()]*)\)\s*$", text)
    if reason is not None and not re.search(r"[∠:]", reason.group(1)) and reason.start() > 0:
        # a reason in parentheses after the statement: `△ABD ≌ △ACD (SSS)`
        return _read_one(text[:reason.start()], notation, view, names)
    return None


_MATHS = re.compile(r"[A-Z∠△▲Δ⊥⟂∥=≌≅∽~°√π+<>]|\d")
"""What a piece of a step must hold to be a statement the grader failed to read."""

_TRIANGLE_IN_TEXT = re.compile(r"[△Δ▲]\s*([A-Z])([A-Z])([A-Z])")


def _triangles(text: str) -> list[tuple[str, str, str]]:
    return [(m.group(1).lower(), m.group(2).lower(), m.group(3).lower()) for m in _TRIANGLE_IN_TEXT.finditer(text)]


# ------------------------------------------------------------------ the grader


@dataclass
class _Claim:
    predicate: Predicate
    text: str
    per_diagram: list[Predicate]
    """The claim as read against each deciding diagram (a textbook's
    undirected angle is spelled by each diagram's own orientation)."""


class Grader:
    """Grades solutions of one problem (realized once, with the auxiliary
    constructions a solution declares)."""

    def __init__(self, problem: Problem, options: GradeOptions = GradeOptions(),
                 expected_answer: str | None = None) -> None:
        self.problem = problem
        self.options = options
        self.expected_answer = expected_answer
        """The expected answer of a calculation problem, as text (``60°``)."""
        self._figures: dict[tuple[str, ...], tuple[Figure, list[str]]] = {}

    def figure(self, auxiliary: Sequence[str]) -> tuple[Figure, list[str]]:
        """The problem realized with the auxiliary constructions that can be
        made (each checked in order); the list of those refused, with why."""
        key = tuple(auxiliary)
        if key not in self._figures:
            kept: list[str] = []
            refused: list[str] = []
            for aux in auxiliary:
                try:
                    candidate = with_auxiliary(self.problem, kept + [aux])
                    Figure.realize(candidate, self.options.seed, 1)
                    kept.append(aux)
                except GeoDSLError as exc:
                    refused.append(f"{aux}: {exc.message}")
            problem = with_auxiliary(self.problem, kept)
            self._figures[key] = (Figure.realize(problem, self.options.seed, self.options.diagrams), refused)
        figure, refused = self._figures[key]
        return figure, list(refused)

    def grade(self, solution: Solution) -> SolutionGrade:
        start = time.monotonic()
        opts = self.options
        out = SolutionGrade(self.problem.name, "ok", solution.format, solution.notation,
                            answer=solution.answer, skip_is_error=opts.skip_is_error, seed=opts.seed)
        deadline = start + opts.timeout
        solution = worded_constructions(solution, self.problem)
        constructions = list(solution.auxiliary) + [s.construction for s in solution.steps if s.construction]
        try:
            figure, refused = self.figure(constructions)
        except GeoDSLError as exc:
            out.status, out.error = "error", exc
            out.seconds = time.monotonic() - start
            return out
        names = figure.names
        premises = premise_predicates(figure.problem)
        context: list[Predicate] = list(premises)
        refs: dict[str, tuple[list[Predicate], str, int]] = {}
        """ref -> (facts, status, the step index that states it (0: before the steps)); status is
        ``established``, ``false``, ``unread`` or (a premise) ``not_premise``."""
        for cited in solution.cited:
            graded = self._cited(figure, cited, solution.notation, premises)
            out.cited.append(graded)
            facts = [parse_predicate(c, names) for c in graded.claims] if graded.claims else []
            status = ("established" if graded.established else "unread" if graded.status == "unread" else
                      "false" if graded.status == "false" else "not_premise")
            refs[cited.ref] = (facts, status, 0)
        step_refs = {s.ref: s.index for s in solution.steps if s.ref}
        for step in solution.steps:
            if time.monotonic() > deadline:
                out.steps.append(StepGrade(step.index, step.text, [], "undecided", "none",
                                           reason=f"the solution's time budget ({opts.timeout:g} s) ran out"))
                continue
            verdict, stated = self._step(figure, step, solution, context, refs, step_refs, refused)
            out.steps.append(verdict)
            context.extend(p for p in stated if p not in context)
            if step.ref:
                status = ("false" if verdict.verdict == "false" else "established" if stated else "unread")
                refs[step.ref] = (stated, status, step.index)
        out.answer_correct = self._answer_correct(figure, solution, out)
        out.rescore()
        out.seconds = time.monotonic() - start
        return out

    # -- premises and checks a pasted proof states

    def _cited(self, figure: Figure, cited: Cited, notation: str, premises: list[Predicate]) -> FactGrade:
        read = read_claim(cited.text, notation, figure.view(0), figure.names)
        if not read.predicates or read.unread:
            return FactGrade(cited.ref, cited.text, cited.kind, "unread")
        claims = [p.to_text() for p in read.predicates]
        if any(figure.counterexample(p) is not None for p in read.predicates):
            return FactGrade(cited.ref, cited.text, cited.kind, "false", claims)
        if cited.kind == "check":
            return FactGrade(cited.ref, cited.text, cited.kind, "holds", claims)
        keys = {_key(p) for p in premises}
        if all(_key(part) in keys for p in read.predicates for part in expand(p)):
            return FactGrade(cited.ref, cited.text, cited.kind, "premise", claims)
        if all(one_step(figure, premises, p) is not None for p in read.predicates):
            return FactGrade(cited.ref, cited.text, cited.kind, "implied", claims)
        return FactGrade(cited.ref, cited.text, cited.kind, "unproved", claims)

    # -- one step

    def _step(self, figure: Figure, step: SolutionStep, solution: Solution, context: list[Predicate],
              refs: dict[str, tuple[list[Predicate], str, int]], step_refs: dict[str, int],
              refused: list[str]) -> tuple[StepGrade, list[Predicate]]:
        base = StepGrade(step.index, step.text, [], "undecided", "none",
                         cites=None if step.cites is None else list(step.cites))
        if step.construction is not None:
            return self._construction(figure, step, base, refused), []
        if step.unmakeable is not None:
            base.decided_by, base.verdict, base.error_type = "symbolic", "false", "figure_comprehension"
            base.reason = f"the construction cannot be made: {step.unmakeable}"
            return base, []
        if step.joins:
            missing = [p for seg in step.joins for p in seg.lower() if p not in figure.names]
            if missing:
                base.reason = f"point {missing[0].upper()} is not in the figure"
                return base, []
            base.verdict, base.decided_by = "valid", "symbolic"
            base.reason = "joins points of the figure: adds no point"
            return base, []
        view = figure.view(0, _triangles(step.text))
        unread: list[str] = []

        def read_all(texts: Sequence[str]) -> list[_Claim]:
            out = []
            for text in texts:
                read = read_claim(text, solution.notation, view, figure.names)
                unread.extend(read.unread)
                for pred, said in zip(read.predicates, read.texts):
                    out.append(_Claim(pred, said, self._per_diagram(figure, step, said, pred, solution.notation)))
            return out

        claims, because = read_all(step.claims), read_all(step.because)
        # Words that state nothing (`as required`, `by the theorem`) are not claims left unread.
        unread = [piece for piece in unread if _MATHS.search(piece)]
        base.claims = [c.predicate.to_text() for c in claims]
        base.predicates = [c.predicate for c in claims]
        if not claims:
            base.reason = (f"cannot read `{unread[0]}`" if unread else "states no claim the grader reads")
            return base, []
        # 1. numeric truth: a false claim (or a false reason) is false, whatever else
        for claim in because + claims:
            where = self._counterexample(figure, claim)
            if where is not None:
                base.verdict, base.decided_by = "false", "symbolic"
                base.counterexample_seed, base.counterexample_diagram = figure.seed, where
                role = "its reason" if claim in because else "claim"
                base.reason = (f"{role} `{claim.text}` is false in diagram {where} of seed {figure.seed}")
                base.error_type = error_type("false", claim.predicate)
                return base, []
        # 2. what the step may use
        true_claims = [c.predicate for c in claims]
        if step.cites is not None:
            facts, problem_reason, kind = self._citations(figure, step, solution.notation, refs, step_refs)
            if problem_reason is not None:
                if kind is None:  # it cites what the grader could not read: undecided, for the judge
                    base.reason = problem_reason
                    return base, true_claims
                base.verdict, base.decided_by, base.reason = "unjustified", "symbolic", problem_reason
                base.error_type = kind
                return base, true_claims
            scope = "what it cites"
        else:
            facts = list(context)
            for reason in because:
                if _key(reason.predicate) in {_key(f) for f in facts}:
                    continue
                if one_step(figure, facts, reason.predicate) is not None:
                    facts.append(reason.predicate)
                    continue
                base.verdict, base.decided_by = "unjustified", "symbolic"
                base.reason = f"its reason `{reason.text}` is not established before this step"
                base.error_type = "logical_reasoning"
                return base, true_claims
            facts += [r.predicate for r in because if r.predicate not in facts]
            scope = "the context"
        # 3. each claim: one step, else a bounded closure
        prefer = _rule_name(step.rule) if solution.format == "alphageometry" else None
        worst: Verdict = "valid"
        notes: list[str] = []
        hows: list[str] = []
        for claim in claims:
            verdict, note, how, kind = self._decide(figure, facts, context, claim.predicate, prefer, scope,
                                                    step.cites is not None)
            notes.append(note)
            if how:
                hows.append(how)
            if _SEVERITY[verdict] > _SEVERITY[worst]:
                worst = verdict
                base.error_type = kind
        if unread and worst in ("valid", "valid_skip"):
            base.reason = f"cannot read `{unread[0]}`; " + "; ".join(notes)
            base.justification = "; ".join(hows) or None
            return base, true_claims
        base.verdict, base.decided_by = worst, "symbolic"
        base.reason = "; ".join(notes)
        base.justification = "; ".join(hows) or None
        if worst == "valid_skip" and self.options.skip_is_error:
            base.error_type = "logical_reasoning"
        elif worst in ("valid", "valid_skip"):
            base.error_type = None
        return base, true_claims

    def _decide(self, figure: Figure, facts: list[Predicate], context: list[Predicate], claim: Predicate,
                prefer: str | None, scope: str, citing: bool) -> tuple[Verdict, str, str, ErrorType | None]:
        said = describe(claim)
        found = one_step(figure, facts, claim, prefer)
        if found is not None:
            return "valid", f"`{said}` follows from {scope} by {_how(found)}", _how(found), None
        budget = Budget(seconds=self.options.claim_seconds)
        skipped = by_closure(figure, facts, claim, budget)
        if skipped is not None and skipped.steps <= self.options.max_skip:
            return ("valid_skip", f"`{said}` follows from {scope} in {skipped.steps} steps, not one",
                    _how(skipped), "logical_reasoning")
        if skipped is not None:
            return ("unjustified", f"`{said}` follows from {scope} only in {skipped.steps} steps "
                    f"(more than {self.options.max_skip}): a leap", "", "logical_reasoning")
        if citing and one_step(figure, context, claim) is not None:
            return ("unjustified", f"`{said}` does not follow from what the step cites (it would from "
                    "earlier facts): the reason given is wrong", "", "knowledge")
        return ("unjustified", f"`{said}` is true in the figure but does not follow from {scope}",
                "", "logical_reasoning")

    def _citations(self, figure: Figure, step: SolutionStep, notation: str,
                   refs: dict[str, tuple[list[Predicate], str, int]],
                   step_refs: dict[str, int]) -> tuple[list[Predicate], str | None, ErrorType | None]:
        facts: list[Predicate] = []
        assert step.cites is not None
        for k, ref in enumerate(step.cites):
            found = refs.get(ref)
            if found is None and ref.startswith("T") and k < len(step.cite_texts):
                trivial = self._trivial(figure, step.cite_texts[k], notation)
                if trivial is None:
                    return [], f"cites [{ref}] `{step.cite_texts[k]}` as trivial, which it is not", \
                        "logical_reasoning"
                facts.extend(trivial)
                continue
            if found is None:
                later = step_refs.get(ref)
                if later is not None and later >= step.index:
                    what = "itself" if later == step.index else f"step {later}, which comes later"
                    return [], f"cites [{ref}], {what}: circular", "logical_reasoning"
                return [], f"cites [{ref}], which no earlier line states", "logical_reasoning"
            predicates, status, where = found
            what = f"[{ref}]" if where == 0 else f"[{ref}] (step {where})"
            if status == "unread":
                return [], f"cites {what}, which the grader could not read", None
            if status == "false":
                return [], f"cites {what}, which is false", "logical_reasoning"
            if status == "not_premise":
                return [], f"cites {what}, which is not a premise of the problem", "figure_comprehension"
            facts.extend(predicates)
        return facts, None, None

    def _trivial(self, figure: Figure, text: str, notation: str) -> list[Predicate] | None:
        """Newclid's ``[T0]`` citations: a statement true by itself (∠X = ∠X),
        which one chase proves from no fact at all."""
        read = read_claim(text, notation, figure.view(0), figure.names)
        if not read.predicates or read.unread:
            return None
        if all(one_chase(figure, [], p) is not None for p in read.predicates):
            return read.predicates
        return None

    def _construction(self, figure: Figure, step: SolutionStep, base: StepGrade, refused: list[str]) -> StepGrade:
        text = step.construction or ""
        failed = [r for r in refused if r.startswith(text + ":")]
        base.claims = [text]
        base.decided_by = "symbolic"
        if failed:
            base.verdict, base.error_type = "false", "figure_comprehension"
            base.reason = f"the construction cannot be made: {failed[0][len(text) + 2:]}"
        else:
            base.verdict, base.reason = "valid", "an auxiliary construction, well defined in every diagram"
        return base

    def _per_diagram(self, figure: Figure, step: SolutionStep, text: str, first: Predicate,
                     notation: str) -> list[Predicate]:
        out = [first]
        if notation == "alphageometry" and "≅" not in text:
            return out * figure.deciding
        for i in range(1, figure.deciding):
            found = _read_one(text, notation, figure.view(i, _triangles(step.text)), figure.names)
            out.append(found[0] if found and len(found) == 1 else first)
        return out

    def _counterexample(self, figure: Figure, claim: _Claim) -> int | None:
        for i, pred in enumerate(claim.per_diagram[:figure.deciding]):
            if not figure.holds_in(pred, i):
                return i
        return None

    # -- the answer

    def _answer_correct(self, figure: Figure, solution: Solution, out: SolutionGrade) -> bool | None:
        expected = self.expected_answer
        problem = self.problem
        if expected is not None or problem.queries:
            want: Value | None = read_value(expected) if expected is not None else None
            if want is None and problem.queries:
                m = figure.diagrams.measure(problem.queries[0])
                if m.values and m.values[0] is not None and m.same:
                    want = Value(float(m.values[0]), "angle" if m.kind == "angle" else "number")
            if want is None:
                return None
            stated = solution.answer
            if stated is None:
                return False
            got = read_value(stated)
            return got is not None and same_value(got, want)
        if not problem.goals:
            return None
        claimed = [p for s in out.steps for p in s.predicates]
        for goal in problem.goals:
            if not any(_key(c) == _key(goal) or one_chase(figure, [c], goal) is not None for c in claimed
                       if not c.negated):
                return False
        return True


_MAKES = re.compile(r"\b(?:draw|construct|extend|produce|take|drop|erect|let|through|join|connect|mark|choose|"
                    r"pick|bisect|reflect)\b|作|过|延长|取|连接|连结|设|截取|任取|交.{0,12}于", re.IGNORECASE)


def worded_constructions(solution: Solution, problem: Problem) -> Solution:
    """The solution with each worded auxiliary construction ("draw AM ⟂ BC
    with foot M", "延长BE交CD的延长线于点G") read by the auxiliary-construction
    reader (:func:`geodsl.lang.aux_text.read_aux`, against the problem and
    the constructions of the steps before it) and made the step's
    construction. A step is taken as a construction only when the reader
    reads it as one that introduces a new point; one it reads as a
    construction that cannot be made is marked so (a figure error); anything
    else (a claim, a phrase it cannot read) stays as it was."""
    steps: list[SolutionStep] = []
    made: list[str] = list(solution.auxiliary)
    for step in solution.steps:
        if step.construction is None and not step.joins and not step.cites and _MAKES.search(step.text):
            try:
                reading = read_aux(step.text, with_auxiliary(problem, made))
            except ConstructionError as exc:  # read, but the construction cannot be made
                steps.append(replace(step, claims=(), unmakeable=exc.message))
                continue
            except GeoDSLError:
                reading = None
            if reading is not None and reading.constructions and reading.new_points:
                text = "; ".join(reading.construction_texts)
                step = replace(step, construction=text, claims=())
        if step.construction is not None:
            made.append(step.construction)
        steps.append(step)
    return replace(solution, steps=tuple(steps))


def with_auxiliary(problem: Problem, auxiliary: Sequence[str]) -> Problem:
    """The problem with auxiliary constructions (text in the language) after ``|``."""
    if not auxiliary:
        return problem
    premise = problem.premise.to_text()
    sep = "; " if "|" in premise else " | "
    text = premise + sep + "; ".join(a.strip().rstrip(";") for a in auxiliary)
    goals = "; ".join(g.to_text() for g in problem.goals)
    parsed = parse_problem(text + (f" ? {goals}" if goals else ""), "<auxiliary>")
    return replace(problem, premise=parsed.premise)


def _key(p: Predicate) -> tuple[object, ...]:
    c = canonical(p)
    return (c.name, c.negated) + tuple(c.args)


def _rule_name(label: str | None) -> str | None:
    if not label:
        return None
    m = re.match(r"(r\d+)\b", label.strip())
    return m.group(1) if m else None


def _how(j: Justification) -> str:
    if j.how == "rule":
        return f"{j.rule} ({j.label})"
    if j.how == "closure":
        return j.label
    return j.label or j.rule


def as_error_type(value: object) -> ErrorType | None:
    """``value`` if it names one of GeoLaux's error kinds, else None."""
    for kind in ERROR_TYPES:
        if kind == value:
            return kind
    return None


def error_type(verdict: str, claim: Predicate | None) -> ErrorType:
    """GeoLaux's error kind of a wrong step, by a fixed rule
    (docs/grading.md, "Error types")."""
    if verdict == "false" and claim is not None:
        if claim.name in VALUE_PREDICATES:
            return "calculation"
        if claim.name in TRIANGLE_PREDICATES:
            return "knowledge"
        return "figure_comprehension"
    return "logical_reasoning"


class JudgeLike(Protocol):
    """What grades the steps left undecided, in place (:class:`~.judge.Judge`)."""

    def __call__(self, problem: Problem, solution: Solution, graded: "SolutionGrade",
                 reference: str | None = None) -> None: ...


def grade(problem: Problem, solution: Solution | str | dict[str, object], *,
          options: GradeOptions = GradeOptions(), judge: JudgeLike | None = None,
          answer: str | None = None, reference: str | None = None) -> SolutionGrade:
    """Grade one solution of ``problem`` (text, a JSON object, or a read
    :class:`~.steps.Solution`). ``judge``: a :class:`~.judge.Judge` for the
    steps left ``undecided``; ``answer``: the expected answer of a calculation
    problem; ``reference``: a reference solution the judge is shown (default: the
    problem's ``@reference:`` metadata)."""
    if not isinstance(solution, Solution):
        solution = read_solution(solution, format=options.format, notation=options.notation)
    out = Grader(problem, options, answer).grade(solution)
    if judge is not None and out.status == "ok":
        judge(problem, solution, out, reference if reference is not None else dict(problem.meta).get("reference"))
        out.rescore()
    return out
