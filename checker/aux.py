"""Auxiliary constructions proposed for a problem: are they well formed,
well defined in this figure, and do they help prove the goal?

Per candidate (one text, possibly several constructions, read by
:func:`geodsl.lang.aux_text.read_aux`):

- **well formed**: it reads, its points exist, its new names are fresh and
  its clauses fit (the reader's located errors). A point it constructs that
  the problem already has is accepted when the problem's point satisfies
  the construction in every diagram (``取BC的中点M`` where M is that
  midpoint: the construction is *redundant*), and is an error otherwise;
- **well defined**: it realizes, non-degenerately, on top of each of the
  problem's diagrams (``max(K, 5)`` of them: the prover reads five) — the
  premise's coordinates stay fixed, only the candidate's own random choices
  are redrawn, a bounded number of times. A failure names the construction,
  the diagram and the reason (parallel lines asked to meet, a line that
  misses the circle, ...). A new point that is an existing one in every
  diagram (a midpoint the premise has under another name) is that point:
  redundant, not degenerate; in some diagrams only, degenerate;
- **useful**: the prover (``geodsl.provers``, DD+AR by default) on the
  problem alone and on the problem with the candidate, each with the same
  fresh budget: proved before / after, proof lengths, and which of the
  candidate's points the proof uses.

Over all candidates: the goal with every well-defined candidate together,
and a *minimal* subset that still proves it — one from which no candidate
can be dropped (found greedily: the candidates the joint proof uses, then
each dropped in turn if the rest still prove; at most one prover run per
candidate), not necessarily the smallest.

Untrusted search, trusted check: a candidate counts only through the
prover's proof, which the closure derives from the premise and the
candidate's constructions like any other.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from geodsl.budget import Budget
from geodsl.lang.ast import AuxCandidate, Clause, Construction, Predicate, Premise, Problem
from geodsl.lang.aux_text import AuxReading, detect_lang, from_candidate, read_aux, segment_text
from geodsl.lang.definitions import rulebase
from geodsl.lang.errors import GeoDSLError, GoalFalseError, PointError, ProblemError, RealizationError
from geodsl.proofs import Proof, Prover
from geodsl.provers import get_prover
from geodsl.realizer import Diagram, Diagrams, realize
from geodsl.realizer.checks import evaluate
from geodsl.realizer.rng import Random, check_seed
from geodsl.realizer.sampler import DEFAULT_SETTINGS, SamplerSettings, sample_points
from geodsl.realizer.tolerance import Tolerance, figure_scale

MAX_CANDIDATES = 64
"""Candidates checked per problem; more is an error (each costs a prover run)."""

SETTINGS = replace(DEFAULT_SETTINGS, separation=1e-3)
"""How a candidate is sampled on a fixed premise diagram: as the premise
is, except that a new point only "falls on" an existing one within 0.1% of
the figure's radius (the premise's 2% is a figure-quality margin: a
candidate point that close to another in one diagram is not degenerate,
and that diagram cannot be redrawn for it)."""


@dataclass(frozen=True)
class Written:
    """A candidate's text and where it was written, so that its errors are
    located there (a line of an ``--aux-file``, an item of a batch)."""

    text: str
    source: str | None = None
    line: int = 1
    lang: str | None = None


@dataclass(frozen=True)
class CandidateCheck:
    """The verdicts on one candidate. ``error`` is set when it cannot be read
    or is not well formed (then the later fields are None); ``aliases`` maps
    a new point to the existing point it turned out to be."""

    index: int
    text: str
    lang: str | None
    reading: AuxReading | None = None
    error: GeoDSLError | None = field(default=None, compare=False)
    well_defined: bool | None = None
    reason: str | None = None
    redundant: bool | None = None
    aliases: tuple[tuple[str, str], ...] = ()
    proved: bool | None = None
    proof_steps: int | None = None
    used_points: tuple[str, ...] = ()
    label: str | None = None
    closure_status: str | None = None
    """The status of the prover run with this candidate (None: no run)."""
    seconds: float | None = None
    """That run's wall-clock time."""

    def to_dict(self) -> dict[str, object]:
        reading = self.reading.to_dict() if self.reading is not None else {
            "text": self.text, "lang": self.lang, "constructions": [], "segments": [], "new_points": [],
            "claims": []}
        return {"index": self.index, "label": self.label, **reading,
                "error": None if self.error is None else self.error.to_dict(),
                "well_defined": self.well_defined, "reason": self.reason, "redundant": self.redundant,
                "aliases": {new: old for new, old in self.aliases},
                "proved": self.proved, "proof_steps": self.proof_steps, "used_points": list(self.used_points),
                "closure_status": self.closure_status,
                "seconds": None if self.seconds is None else round(self.seconds, 4)}


@dataclass(frozen=True)
class AuxCheck:
    """Every candidate of one problem, and what they do together.

    ``proved_without`` / ``proved_with``: the goals proved on the problem
    alone / with every well-defined candidate (None without a goal, or when
    the premise could not be realized); ``used_points`` the candidates'
    points that proof uses; ``minimal`` the indices of a minimal subset of
    candidates that proves the goals (``[]`` when the problem alone does,
    None when the candidates do not). ``goal_true`` says whether the goals
    hold in the diagrams at all (a false goal no candidate can prove)."""

    problem: str | None
    status: str
    goal: str | None = None
    goal_true: bool | None = None
    proved_without: bool | None = None
    proved_with: bool | None = None
    proof_steps_without: int | None = None
    proof_steps_with: int | None = None
    used_points: tuple[str, ...] = ()
    minimal: tuple[int, ...] | None = None
    candidates: tuple[CandidateCheck, ...] = ()
    seconds: float = 0.0
    error: GeoDSLError | None = field(default=None, compare=False)
    file: str | None = None
    proof_with: Proof | None = field(default=None, compare=False, repr=False)
    proof_without: Proof | None = field(default=None, compare=False, repr=False)
    prover_runs: int = 0
    closure_status_without: str | None = None
    closure_status_with: str | None = None
    seconds_without: float | None = None
    """The problem-alone run's wall-clock time (``seconds`` is the whole check's)."""

    def to_dict(self, with_proofs: bool = False) -> dict[str, object]:
        """The JSON object ``geodsl aux --json`` prints (schema ``geodsl/schemas/aux.json``)."""
        out: dict[str, object] = {
            "file": self.file, "problem": self.problem, "status": self.status,
            "error": None if self.error is None else self.error.to_dict(),
            "goal": self.goal, "goal_true": self.goal_true,
            "proved_without": self.proved_without, "proved_with": self.proved_with,
            "proof_steps_without": self.proof_steps_without, "proof_steps_with": self.proof_steps_with,
            "used_points": list(self.used_points),
            "minimal": None if self.minimal is None else list(self.minimal),
            "closure_status_without": self.closure_status_without,
            "closure_status_with": self.closure_status_with,
            "prover_runs": self.prover_runs,
            "seconds_without": None if self.seconds_without is None else round(self.seconds_without, 4),
            "seconds": round(self.seconds, 4),
            "candidates": [c.to_dict() for c in self.candidates],
        }
        if with_proofs:
            out["proof_without"] = None if self.proof_without is None else self.proof_without.to_dict()
            out["proof_with"] = None if self.proof_with is None else self.proof_with.to_dict()
        return out


def candidates_of(problem: Problem) -> tuple[Problem, list[AuxReading]]:
    """The candidates a problem carries itself — its ``aux:`` lines, and the
    constructions it gives after ``|`` (one candidate) — and the problem they
    are measured against (without its ``|`` section when that is one of them;
    a goal on the section's points keeps it in the premise instead)."""
    base = problem
    found = [from_candidate(c, problem) for c in problem.aux]
    if problem.aux_given:
        try:
            base = problem.without_aux_given()
        except ProblemError:
            # The goal is stated on points only the `|` section introduces:
            # the section stays part of the premise, and is no candidate.
            return replace(problem, aux=()), found
        found.append(from_candidate(AuxCandidate("|", problem.aux_given, problem.aux_given[0].span), base))
    return replace(base, aux=()), found


# ---------------------------------------------------------------- realizing


@dataclass
class _Realized:
    """One candidate on top of the problem's diagrams: its effective
    constructions (aliases dropped, their names replaced) and coordinates."""

    constructions: list[Construction]
    coords: list[dict[str, complex]]
    aliases: dict[str, str]
    points: list[str]


def _asserts(construction: Construction, name: str, value: str) -> list[Predicate]:
    """Every fact the construction's clauses assert, with point ``name`` read as ``value``."""
    rb = rulebase()
    out = []
    for clause in construction.clauses:
        cdef = rb.construction(clause.name)
        bind = {p: (value if a == name else a) for p, a in zip(cdef.params, clause.args)}
        for fact in cdef.asserts:
            out.append(Predicate(fact.name, tuple(bind.get(a, a) if isinstance(a, str) else a for a in fact.args)))
    return out


def _satisfied(construction: Construction, name: str, value: str, coords: Mapping[str, complex],
               tol: Tolerance) -> bool:
    scale = figure_scale(coords.values())
    try:
        return all(evaluate(f, coords, scale, tol) for f in _asserts(construction, name, value))
    except (KeyError, ZeroDivisionError, ValueError):
        return False


def _rename(construction: Construction, mapping: Mapping[str, str]) -> Construction:
    if not mapping:
        return construction
    return replace(construction, points=tuple(mapping.get(p, p) for p in construction.points),
                   clauses=tuple(Clause(cl.name, tuple(mapping.get(a, a) if isinstance(a, str) else a
                                                       for a in cl.args), cl.span) for cl in construction.clauses))


def _realize(reading: AuxReading, figures: Diagrams, seed: int, index: int) -> _Realized | str:
    """The candidate on top of every diagram, or the reason it is not well defined."""
    n = len(figures)
    coords = [dict(d.coords) for d in figures]
    rngs = [Random(np.random.SeedSequence([seed, 0xA0C5, i, index])) for i in range(n)]
    aliases: dict[str, str] = {}
    kept: list[Construction] = []
    points: list[str] = []
    tol = figures[0].tol
    for c, again in zip(reading.constructions, reading.restated):
        c = _rename(c, aliases)
        if again:
            # The text constructs a point the problem has: it must be that point.
            if len(again) != len(c.points):
                raise _Conflict(c, again[0], -1, n)
            for p in again:
                for i, d in enumerate(coords):
                    if not _satisfied(c, p, p, d, tol):
                        raise _Conflict(c, p, i, n)
                aliases.setdefault(p, p)
            continue
        alias_of: list[str | None] = []
        for i in range(n):
            try:
                new = sample_points([c], rngs[i], start=coords[i], tol=tol, settings=SETTINGS)
            except RealizationError as exc:
                found = [q for q in coords[i] if all(_satisfied(c, p, q, coords[i], tol) for p in c.points)
                         ] if exc.reason in ("too_close", "existing") and len(c.points) == 1 else []
                if found:
                    alias_of.append(found[0])
                    continue
                return f"in diagram {i + 1} of {n}: {exc.message}"
            coords[i].update({p: z for p, z in new.items() if p not in coords[i]})
            alias_of.append(None)
        first = alias_of[0] if alias_of else None
        if first is not None and all(a == first for a in alias_of):
            aliases[c.points[0]] = first
            continue
        if any(a is not None for a in alias_of):
            i = next(i for i, a in enumerate(alias_of) if a is not None)
            return (f"in diagram {i + 1} of {n}: `{c.to_text()}`: the new point is the existing point "
                    f"`{alias_of[i]}` there, and not in every diagram")
        kept.append(c)
        points.extend(c.points)
    return _Realized(kept, coords, aliases, points)


class _Conflict(Exception):
    def __init__(self, construction: Construction, point: str, diagram: int, count: int) -> None:
        super().__init__(point)
        self.construction = construction
        self.point = point
        self.diagram = diagram
        self.count = count


def _with(base: Problem, figures: Diagrams, parts: Sequence[_Realized], rename: Sequence[Mapping[str, str]]
          ) -> tuple[Problem, Diagrams]:
    """The problem with the candidates' constructions after its premise, and
    its diagrams. Candidates are read against the premise alone, so two may
    construct the same point (under one name or two): a point equal, in every
    diagram, to one already there is that point (its construction is left out)."""
    coords = [dict(d.coords) for d in figures]
    extra: list[Construction] = []
    for part, m in zip(parts, rename):
        mapping = dict(m)
        for c in part.constructions:
            same: dict[str, str] = {}
            for p in c.points:
                values = [part.coords[i][p] for i in range(len(figures))]
                for q in coords[0]:
                    if all(abs(values[i] - coords[i][q]) <= 1e-7 * max(1.0, figure_scale(coords[i].values()))
                           for i in range(len(figures))):
                        same[p] = q
                        break
            if same and len(same) == len(c.points):
                mapping.update(same)
                continue
            renamed = _rename(c, mapping)
            extra.append(renamed)
            for p, q in zip(c.points, renamed.points):
                for i in range(len(figures)):
                    coords[i][q] = part.coords[i][p]
    problem = replace(base, premise=Premise(base.premise.constructions + tuple(extra), base.premise.span))
    made = [Diagram(problem, i, coords[i], (), d.tol) for i, d in enumerate(figures)]
    return problem, Diagrams(problem, figures.seed, made)


def _used(proof: Proof | None, points: Sequence[str]) -> tuple[str, ...]:
    if proof is None:
        return ()
    seen: set[str] = set()
    for item in proof.givens:
        seen.update(item.predicate.points)
    for check in proof.checks:
        seen.update(check.predicate.points)
    for step in proof.steps:
        seen.update(step.predicate.points)
    return tuple(p for p in points if p in seen)


# ---------------------------------------------------------------- checking


class _Runner:
    """Prover runs of one problem, each with the same fresh budget."""

    def __init__(self, prover: Prover, goals: Sequence[Predicate], seconds: float) -> None:
        self.prover = prover
        self.goals = tuple(goals)
        self.seconds = seconds
        self.runs = 0
        self.last: tuple[str, float] = ("", 0.0)
        """The last run's status (proved, saturated, budget) and wall-clock seconds."""

    def prove(self, problem: Problem, figures: Diagrams) -> tuple[bool, Proof | None]:
        self.runs += 1
        result = self.prover.prove(problem, self.goals, Budget(seconds=self.seconds), figures=figures)
        self.last = (result.status, result.seconds)
        if not result.solved:
            return False, None
        proofs = [g.proof for g in result.goals]
        # Several goals: the longest proof stands for them (each is in the result).
        longest = max(proofs, key=lambda p: len(p.steps) if p is not None else -1)
        return True, longest


def check_aux(problem: Problem | str, aux: Sequence[str | Written | AuxReading | AuxCandidate] | None = None, *,
              lang: str = "auto", seed: int = 0, diagrams: int = 3, timeout: float = 30.0,
              method: str = "ddar", dialect: str = "alphageometry", source: str | None = None,
              minimal: bool = True, prove: bool = True) -> AuxCheck:
    """Check candidate auxiliary constructions for ``problem`` (module docstring).

    ``aux``: candidate texts (read with ``lang``; a :class:`Written` with
    where it was written), readings, or ``aux:`` candidates; None: the
    problem's own (:func:`candidates_of`). ``timeout``
    is the budget of *each* prover run, the same for the problem alone and
    with a candidate. ``minimal=False`` skips the search for a minimal
    subset; ``prove=False`` runs no prover at all (reading and well-definedness
    only: every ``proved_*`` field is then None). Bad arguments raise
    :class:`~geodsl.lang.errors.GeoDSLError`; a
    candidate's own errors are reported in its :class:`CandidateCheck`, and
    a premise that cannot be realized in the problem's ``error``.
    """
    start = time.monotonic()
    seed = check_seed(seed)
    if isinstance(diagrams, bool) or not isinstance(diagrams, int) or diagrams < 1:
        raise GeoDSLError(f"diagrams must be a whole number from 1, got {diagrams!r}", hint="the default is 3")
    Budget(seconds=timeout)  # refuses a bad timeout with the usual words
    if isinstance(problem, str):
        from geodsl.lang.parser import parse_problem
        problem = parse_problem(problem, source, dialect=dialect)
    if aux is None:
        problem, given = candidates_of(problem)
        items: list[str | Written | AuxReading | AuxCandidate] = list(given)
    else:
        items = list(aux)
    if len(items) > MAX_CANDIDATES:
        raise GeoDSLError(f"{len(items)} candidates for one problem; the limit is {MAX_CANDIDATES}",
                          hint="check them in several runs")
    checks: list[CandidateCheck] = []
    readings: list[AuxReading | None] = []
    for k, item in enumerate(items):
        label = None
        reading: AuxReading | None
        try:
            if isinstance(item, AuxReading):
                reading = item
            elif isinstance(item, AuxCandidate):
                reading = from_candidate(item, problem)
            elif isinstance(item, str):
                reading = read_aux(item, problem, lang, source=source, dialect=dialect)
            elif isinstance(item, Written):
                reading = read_aux(item.text, problem, item.lang or lang, source=item.source, line=item.line,
                                   dialect=dialect)
            else:
                raise GeoDSLError(f"a candidate is text, an AuxReading or an AuxCandidate, got "
                                  f"{type(item).__name__}")
            label = reading.label
            readings.append(reading)
            checks.append(CandidateCheck(k, reading.text, reading.lang, reading, label=label))
        except GeoDSLError as exc:
            readings.append(None)
            text = item if isinstance(item, str) else item.text if isinstance(item, Written) else "; ".join(
                c.to_text() for c in getattr(item, "constructions", ()))
            said = item.lang if isinstance(item, Written) and item.lang else lang
            if said == "auto" and isinstance(text, str) and text.strip():
                said = detect_lang(text)
            checks.append(CandidateCheck(k, text, said if said != "auto" else None, error=exc, label=label))
    goal_text = "; ".join(g.to_text() for g in problem.goals) or None
    prover = get_prover(method, seed=seed)
    count = max(diagrams, prover.diagrams)
    try:
        try:
            figures = realize(problem, seed=seed, diagrams=count)
        except GoalFalseError:
            figures = realize(problem, seed=seed, diagrams=count, check_goals=False)
    except GeoDSLError as exc:
        return AuxCheck(problem.name, "error", goal_text, candidates=tuple(checks),
                        seconds=time.monotonic() - start, error=exc)
    goal_true = (all(d.holds(g) for d in figures[:diagrams] for g in problem.goals)
                 if problem.goals else None)
    goals = problem.goals if prove else ()
    runner = _Runner(prover, goals, timeout)
    proving = bool(goals) and bool(goal_true)

    proved_without: bool | None = None
    proof_without = None
    status_without: str | None = None
    seconds_without: float | None = None
    if goals:
        proved_without, proof_without = runner.prove(problem, figures) if proving else (False, None)
        if proving:
            status_without, seconds_without = runner.last
    drawn = [frozenset(ln.points) for ln in figures[0].lines()]

    parts: dict[int, _Realized] = {}
    proofs: dict[int, Proof | None] = {}
    for k, maybe in enumerate(readings):
        if maybe is None:
            continue
        reading = maybe
        check = checks[k]
        try:
            realized = _realize(reading, figures, seed, k)
        except _Conflict as exc:
            c = exc.construction
            where = c.span
            said = (f"`{c.to_text()}` constructs the existing point `{exc.point}` together with new points"
                    if exc.diagram < 0 else
                    f"`{exc.point}` is already a point of the problem, and `{c.to_text()}` does not hold for it "
                    f"(diagram {exc.diagram + 1} of {exc.count})")
            err = PointError(said,
                             source=where.source if where else source, line=where.line if where else None,
                             column=where.column if where else None, text=reading.text,
                             hint=f"choose a new name for the point, or construct `{exc.point}` as the "
                                  "problem does")
            checks[k] = replace(check, error=err)
            continue
        if isinstance(realized, str):
            checks[k] = replace(check, well_defined=False, reason=realized)
            continue
        segments_new = [s for s in reading.segments
                        if not any({realized.aliases.get(p, p) for p in s} <= line for line in drawn)]
        redundant = not realized.constructions and not segments_new
        aliases = tuple((p, q) for p, q in realized.aliases.items() if p != q)
        parts[k] = realized
        proved: bool | None = None
        steps: int | None = None
        used: tuple[str, ...] = ()
        run_status: str | None = None
        run_seconds: float | None = None
        if goals:
            if not proving:
                proved = False
            elif not realized.constructions:
                proved = proved_without
                steps = None if proof_without is None else len(proof_without.steps)
            else:
                with_problem, with_figures = _with(problem, figures, [realized], [{}])
                proved, proof = runner.prove(with_problem, with_figures)
                proofs[k] = proof
                steps = None if proof is None else len(proof.steps)
                used = _used(proof, realized.points)
                run_status, run_seconds = runner.last
        checks[k] = replace(check, well_defined=True, redundant=redundant, aliases=aliases, proved=proved,
                            proof_steps=steps, used_points=used, closure_status=run_status, seconds=run_seconds)

    out = AuxCheck(problem.name, "ok", goal_text, goal_true, proved_without=proved_without,
                   proof_steps_without=None if proof_without is None else len(proof_without.steps),
                   candidates=tuple(checks), proof_without=proof_without,
                   closure_status_without=status_without, seconds_without=seconds_without)
    if not goals:
        return replace(out, seconds=time.monotonic() - start, prover_runs=runner.runs)
    useful = [k for k in sorted(parts) if parts[k].constructions]
    proved_with, proof_with = proved_without, proof_without
    status_with = status_without
    used_all: tuple[str, ...] = ()
    renames = _renames([parts[k] for k in useful], problem)
    if proving and useful:
        if len(useful) == 1:
            proved_with, proof_with = bool(checks[useful[0]].proved), proofs.get(useful[0])
            status_with = checks[useful[0]].closure_status
        else:
            with_problem, with_figures = _with(problem, figures, [parts[k] for k in useful], renames)
            proved_with, proof_with = runner.prove(with_problem, with_figures)
            status_with = runner.last[0]
        used_all = _used_named(proof_with, [parts[k] for k in useful], renames)
    elif not proving:
        proved_with = False
    chosen: tuple[int, ...] | None = None
    if proved_without:
        chosen = ()
    elif proved_with and minimal:
        chosen = _minimal(problem, figures, runner, useful, parts, renames, proof_with, checks)
    elif proved_with:
        chosen = tuple(useful)
    return replace(out, proved_with=proved_with, closure_status_with=status_with if proving else None,
                   proof_steps_with=None if proof_with is None else len(proof_with.steps),
                   used_points=used_all, minimal=chosen, proof_with=proof_with,
                   seconds=time.monotonic() - start, prover_runs=runner.runs)


def _renames(parts: Sequence[_Realized], problem: Problem) -> list[dict[str, str]]:
    """New names for points two candidates both introduce (each is read
    against the premise alone, so they may reuse a name for different points)."""
    taken = set(problem.points)
    out = []
    for part in parts:
        mapping: dict[str, str] = {}
        for p in part.points:
            name, n = p, 2
            while name in taken:
                name = f"{p}_{n}"
                n += 1
            if name != p:
                mapping[p] = name
            taken.add(name)
        out.append(mapping)
    return out


def _used_named(proof: Proof | None, parts: Sequence[_Realized], renames: Sequence[Mapping[str, str]]) -> tuple[str, ...]:
    """The candidates' points a joint proof uses, by the names the candidates give them."""
    out: list[str] = []
    for part, m in zip(parts, renames):
        inner = [m.get(p, p) for p in part.points]
        back = {m.get(p, p): p for p in part.points}
        out.extend(back[p] for p in _used(proof, inner) if back[p] not in out)
    return tuple(out)


def _minimal(problem: Problem, figures: Diagrams, runner: _Runner, useful: Sequence[int],
             parts: Mapping[int, _Realized], renames: Sequence[Mapping[str, str]], proof: Proof | None,
             checks: Sequence[CandidateCheck]) -> tuple[int, ...]:
    """A subset of ``useful`` that proves the goals and from which no
    candidate can be dropped (greedy; one prover run per candidate tried)."""
    index = {k: i for i, k in enumerate(useful)}
    inner = [[renames[index[k]].get(p, p) for p in parts[k].points] for k in useful]
    used = set(_used(proof, [p for names in inner for p in names]))
    keep = [k for k, names in zip(useful, inner) if used & set(names)]

    def proves(subset: Sequence[int]) -> bool:
        if len(subset) == 1 and checks[subset[0]].proved is not None:
            return bool(checks[subset[0]].proved)
        with_problem, with_figures = _with(problem, figures, [parts[j] for j in subset],
                                           [renames[index[j]] for j in subset])
        return runner.prove(with_problem, with_figures)[0]

    if not keep or (len(keep) < len(useful) and not proves(keep)):
        keep = list(useful)  # the joint proof's candidates alone did not prove it again
    for k in list(reversed(keep)):
        if len(keep) == 1:
            break
        trial = [j for j in keep if j != k]
        if proves(trial):
            keep = trial
    return tuple(keep)


__all__ = ["AuxCheck", "CandidateCheck", "MAX_CANDIDATES", "Written", "candidates_of", "check_aux",
           "segment_text"]
