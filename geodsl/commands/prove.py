"""``geodsl prove FILE... [--json] [--timeout S] [--facts] [--seed N] [--diagrams K]
[--method ddar|search|algebra|auto] [--aux-search] [--aux-depth K] [--dialect D] [--problem NAME]
[--graph OUT.graphml|OUT.dot] [--jobs N | --ray [ADDRESS]] [--out FILE.jsonl [--resume]]``.

The same decision as ``geodsl check`` (:func:`geodsl.checker.options.check_problem`),
for goals: each goal is ``proved``, ``true_unproved`` or ``false`` (false in
the diagram: a verdict, exit status 0), and the proof of each proved goal is
printed. The JSON records share ``check``'s field names
(``docs/closure.md``, schema ``geodsl/schemas/prove.json``).
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..budget import Budget, Clock
from ..checker.options import ProblemCheck, check_problem
from ..ddar import Closure, closure
from ..ddar.prover import DDARProver
from ..lang.ast import Predicate, Problem
from ..lang.errors import GeoDSLError
from ..lang.notation import to_notation
from ..batch import Failure, Work
from ..proofs import ProofGraph, Prover
from ..realizer import Diagrams
from ..provers import get_prover
from .batching import (BATCH_EXIT_HELP, Batch, JsonArray, Outcome, add_batch_flags, drive, failure_error, finish,
                       problem_works)
from .common import (UsageError, add_dialect, add_diagrams, add_files, add_json, add_method, add_problem, add_seed,
                     add_timeout, iter_problems, method_of, plural, search_jobs)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("prove", help="saturate the premise (DD+AR); prove the goal with a readable proof",
                       description="Run the deduction closure (DD rules + angle and ratio chasing) on "
                                   "each problem, decide each goal (proved, true_unproved or false in "
                                   "the diagram) and print the proofs, or a JSON array with --json. "
                                   "A summary line ends the output (on stderr with --json).",
                       epilog=BATCH_EXIT_HELP)
    add_files(p)
    add_json(p, "prove")
    add_timeout(p)
    p.add_argument("--facts", action="store_true", help="also list every derived fact with its provenance")
    add_seed(p)
    add_diagrams(p)
    add_method(p)
    p.add_argument("--graph", metavar="OUT.graphml|OUT.dot",
                   help="also write every proof as a DAG (networkx): premises, numerical checks and steps "
                        "as nodes, each step's citations as edges; GraphML or Graphviz DOT by the extension")
    add_dialect(p)
    add_problem(p)
    add_batch_flags(p)
    p.set_defaults(run=run)


def _fact_lines(c: Closure) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for f in c.facts:
        pred = c.fact_predicate(f)
        out.append({"id": f.id, "fact": to_notation(pred), "predicate": pred.to_text(), "rule": f.rule,
                    "label": f.label, "parents": list(f.parents), "level": f.level,
                    "origin": f.origin})
    return out


class _KeepingProver(DDARProver):
    """DD+AR that keeps the closure run behind its result: ``prove`` prints
    its fact count, lists its facts (``--facts``, with everything the store
    can prove harvested) and reports any unsound derivation it rejected."""

    def __init__(self, seed: int, harvest: bool | None) -> None:
        super().__init__(seed=seed)
        self.harvest = harvest
        self.run: Closure | None = None

    def saturate(self, problem: Problem, goals: Sequence[Predicate] | None = None,
                 budget: Budget | Clock | None = None, *, figures: Diagrams | None = None) -> Closure:
        if goals is not None:
            problem = replace(problem, goals=tuple(goals))
        self.run = closure(problem, seed=self.seed if figures is None else None, budget=budget,
                           rules=self.rules, figures=figures, harvest_facts=self.harvest)
        return self.run


def goal_verdict(check: ProblemCheck) -> str | None:
    """One verdict for the problem's goals: ``proved`` if all are, ``false``
    if any is false, ``true_unproved`` otherwise; None without a goal."""
    verdicts = [v.verdict for v in check.options]
    if not verdicts:
        return None
    if all(v == "proved" for v in verdicts):
        return "proved"
    return "false" if "false" in verdicts else "true_unproved"


def record(path: str, check: ProblemCheck, run: Closure | None, facts: bool,
           method: str = "ddar") -> dict[str, object]:
    """The JSON object of one problem (see ``docs/closure.md``)."""
    count = len(run.facts) if run is not None else (
        int(check.result.stats.get("facts", 0)) if check.result is not None else 0)
    out: dict[str, object] = {
        "file": path, "problem": check.problem, "status": check.status, "method": method,
        "error": None if check.error is None else check.error.to_dict(),
        "solved": goal_verdict(check) == "proved",
        "verdict": goal_verdict(check) if check.status == "ok" else None,
        "goals": [v.to_dict(with_proof=True) for v in check.options],
        "closure_status": check.closure_status,
        "facts": count,
        "seconds": round(check.seconds, 4),
        "auxiliary": list(check.auxiliary),
        "queries": [q.to_dict(with_proof=True) for q in check.queries],
        "notes": [] if check.result is None else list(check.result.notes),
        "stats": {} if check.result is None else dict(check.result.stats),
    }
    if facts:
        out["fact_list"] = [] if run is None else _fact_lines(run)
    if run is not None and run.unsound:
        out["unsound"] = list(run.unsound)
    return out


class Tally:
    """``N problems: S solved, U true but not proved, F false, N without a goal, E errors, T s``."""

    def __init__(self, graph: ProofGraph | None = None) -> None:
        self.count: dict[object, int] = {k: 0 for k in ("proved", "true_unproved", "false", None)}
        self.errors = self.problems = 0
        self.graph = graph
        """Where the proofs go (``--graph``)."""

    def add(self, record: dict[str, object]) -> None:
        self.problems += 1
        if self.graph is not None:
            for goal in record.get("goals") or []:  # type: ignore[attr-defined]  # a list of objects (prove.json)
                if goal.get("proof") is not None:
                    problem, file = record.get("problem"), record.get("file")
                    self.graph.add(goal["proof"], problem=None if problem is None else str(problem),
                                   file=None if file is None else str(file), label=goal.get("label"))
        if record["status"] == "error":
            self.errors += 1
        else:
            self.count[record["verdict"]] += 1

    def line(self, seconds: float) -> str:
        parts = [f"{self.count['proved']} solved", f"{self.count['true_unproved']} true but not proved",
                 f"{self.count['false']} false"]
        if self.count[None]:
            parts.append(f"{self.count[None]} without a goal")
        parts.append(plural(self.errors, "error"))
        return f"{plural(self.problems, 'problem')}: {', '.join(parts)}; {seconds:.2f} s"

    def rows(self) -> list[tuple[str, str]]:
        return [("problems", str(self.problems)), ("solved (proved)", str(self.count["proved"])),
                ("true but not proved", str(self.count["true_unproved"])), ("false", str(self.count["false"])),
                ("without a goal", str(self.count[None])), ("errors", str(self.errors))]


@dataclass(frozen=True)
class _Config:
    seed: int
    diagrams: int
    timeout: float
    facts: bool
    text: bool
    method: str = "ddar"
    aux_depth: int = 2
    search_jobs: int = 1


_CONFIG: list[_Config] = []


def _init(config: _Config) -> None:
    _CONFIG[:] = [config]


def _task(payload: tuple[str, Problem | GeoDSLError]) -> Outcome:
    """One problem: prove its goals; its record and text."""
    config = _CONFIG[0]
    path, item = payload
    keeping = _KeepingProver(config.seed, True if config.facts else None)
    prover: Prover = keeping if config.method == "ddar" else get_prover(
        config.method, seed=config.seed, jobs=config.search_jobs, depth=config.aux_depth)
    if isinstance(item, GeoDSLError):
        check = ProblemCheck(item.problem, "error", error=item)
    else:
        # prove decides the goals; options are check's.
        goals_only = replace(item, options=(), answer=None)
        check = check_problem(goals_only, seed=config.seed, diagrams=config.diagrams, timeout=config.timeout,
                              with_proofs=True, prover=prover, saturate=config.facts or not item.goals)
    rec = record(path, check, keeping.run, config.facts, config.method)
    if check.error is not None:
        return Outcome(rec, errors=(check.error,), failed=True)
    errors = tuple(f"internal error: unsound derivation rejected: {bad}"
                   for bad in (keeping.run.unsound if keeping.run is not None else ()))
    return Outcome(rec, _text(path, check, keeping.run, rec, config.facts) if config.text else "", errors)


def _failed(work: Work[tuple[str, Problem | GeoDSLError], list[str]], failure: Failure) -> Outcome:
    path, item = work.payload
    error = failure_error(failure, path, item)
    name = item.problem if isinstance(item, GeoDSLError) else item.name
    config = _CONFIG[0] if _CONFIG else None
    return Outcome(record(path, ProblemCheck(name, "error", error=error), None, config.facts if config else False,
                          config.method if config else "ddar"), errors=(error,))


def run(args: argparse.Namespace) -> int:
    graph = _graph_format(args.graph) if args.graph else None
    method = method_of(args)
    found = lambda: iter_problems(args.files, args.problem, args.dialect)  # noqa: E731
    config = _Config(args.seed, args.diagrams, args.timeout, args.facts, text=not args.json and not args.out,
                     method=method, aux_depth=args.aux_depth,
                     search_jobs=search_jobs(args, method, found))
    proofs = ProofGraph() if graph else None
    batch = Batch("prove", _task, _failed, Tally(proofs), _init, (config,), count=lambda: sum(1 for _ in found()))
    json_out = JsonArray(sys.stdout) if args.json else None
    _init(config)  # the parent writes the records of failed problems with it
    status, stats = drive(args, batch, problem_works(found()), json_out=json_out)
    if json_out is not None:
        json_out.close()
        sys.stdout.write("\n")
    if proofs is not None and graph is not None:
        proofs.write(args.graph, graph)
    finish(args, batch, stats)
    return status


def _graph_format(path: str) -> str:
    fmt = path.rpartition(".")[2].lower()
    if fmt not in ("graphml", "dot"):
        raise UsageError(f"--graph {path}: the file name ends in .graphml or .dot",
                         hint="e.g. --graph proof.graphml (networkx, yEd, Gephi) or --graph proof.dot (Graphviz)")
    return fmt


def _text(path: str, check: ProblemCheck, run: Closure | None, rec: dict[str, object], facts: bool) -> str:
    buf = io.StringIO()

    def say(*parts: object, end: str = "\n") -> None:
        print(*parts, end=end, file=buf)

    goal = "; ".join(v.predicate.to_text() for v in check.options)
    verdict = rec["verdict"]
    kinds = {v.proof_kind for v in check.options}
    words = {"proved": "proved (algebra)" if kinds == {"algebra"} else "proved",
             "false": "false in the diagram (not provable)",
             "true_unproved": f"not proved ({check.closure_status})"}.get(str(verdict), "")
    say(f"problem: {check.problem or '(unnamed)'}  ({path})")
    if verdict is None and check.queries:
        say(f"goal: (none; the queries below): closure {check.closure_status}, {rec['facts']} facts, "
            f"{check.seconds:.3f} s")
    elif verdict is None:
        say(f"no goal: closure {check.closure_status}, {rec['facts']} facts, {check.seconds:.3f} s")
    else:
        say(f"goal: {goal}: {words}, {rec['facts']} facts, {check.seconds:.3f} s")
    if check.auxiliary and not any(v.proof is not None for v in check.options):
        say("auxiliary constructions (given after `|`): " + "; ".join(check.auxiliary))
    for v in check.options:
        if v.proof is not None or v.certificate is not None:
            if len(check.options) > 1:
                say(f"proof of {v.predicate.to_text()}:")
            shown = v.proof if v.proof is not None else v.certificate
            assert shown is not None
            say(shown.to_text(), end="")
    if verdict == "true_unproved" and check.result is not None:
        for note in check.result.notes:
            say(f"note: {note}")
    for q in check.queries:
        say(f"query: {q.text()}")
        if q.proof is not None:
            say(q.proof.to_text(), end="")
    if facts and run is not None:
        say("* Facts:")
        for fact in run.facts:
            parents = ",".join(str(p) for p in fact.parents)
            how = f"premise {fact.origin}" if fact.rule == "premise" else f"{fact.rule} [{parents}]"
            say(f"{fact.id:03d}. {to_notation(run.fact_predicate(fact))}  ({how})")
    say()
    return buf.getvalue()
