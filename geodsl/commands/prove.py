"""``geodsl prove FILE... [--json] [--timeout S] [--facts] [--seed N]``."""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..lang.errors import GeoDSLError
from .common import EXIT_INPUT, EXIT_OK, iter_problems, located


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("prove", help="saturate the premise (DD+AR); prove the goal with a readable proof",
                       description="Run the deduction closure (DD rules + angle and ratio chasing) on "
                                   "each problem, say whether its goal follows, and print the proof, "
                                   "or a JSON array with --json.")
    p.add_argument("files", nargs="+", metavar="FILE", help="problem files ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per problem")
    p.add_argument("--timeout", type=float, default=30.0, metavar="S",
                   help="time budget per problem in seconds (default 30)")
    p.add_argument("--facts", action="store_true", help="also list every derived fact with its provenance")
    p.add_argument("--seed", type=int, default=0, help="seed of the diagram (default 0)")
    p.set_defaults(run=run)


def _fact_lines(c) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    from ..lang.notation import to_notation as fact_text

    out = []
    for f in c.facts:
        pred = c.fact_predicate(f)
        out.append({"id": f.id, "fact": fact_text(pred), "predicate": pred.to_text(), "rule": f.rule,
                    "label": f.label, "parents": list(f.parents), "level": f.level,
                    "origin": f.origin})
    return out


def _queries(problem, seed: int, timeout: float, harvest: bool | None):  # type: ignore[no-untyped-def]
    """A problem with queries (``acompute``): realize once, saturate on those
    diagrams, and answer the queries (numeric value; proved when the closure
    derives it)."""
    from ..checker.queries import answers, measure_queries, to_prove
    from ..ddar import closure
    from ..ddar.engine import DIAGRAMS_NEEDED
    from ..realizer import realize

    figures = realize(problem, seed=seed, diagrams=DIAGRAMS_NEEDED)
    result = closure(problem, timeout=timeout, harvest_facts=harvest, figures=figures)
    measured = measure_queries(problem, figures)
    proofs = {p: result.proof(p) for p in to_prove(measured) if result.proves(p)}
    return result, answers(measured, proofs, with_proofs=True)


def run(args: argparse.Namespace) -> int:
    from ..ddar import closure

    if args.timeout <= 0:
        raise GeoDSLError(f"--timeout {args.timeout}: give a positive number of seconds")
    failed = False
    records: list[dict[str, object]] = []
    for path, item, lines in iter_problems(args.files):
        start = time.monotonic()
        result = None
        answers: tuple = ()  # type: ignore[type-arg]
        if not isinstance(item, GeoDSLError):
            try:
                harvest = True if args.facts else None
                if item.queries:
                    result, answers = _queries(item, args.seed, args.timeout, harvest)
                else:
                    result = closure(item, seed=args.seed, timeout=args.timeout, harvest_facts=harvest)
            except GeoDSLError as exc:
                item = exc
        name = None if isinstance(item, GeoDSLError) else item.name
        if isinstance(item, GeoDSLError) or result is None:
            failed = True
            err = located(item, lines)  # type: ignore[arg-type]
            print(err.format(), file=sys.stderr)
            if args.json:
                records.append({"file": path, "problem": name, "solved": False, "status": "error",
                                "seconds": round(time.monotonic() - start, 3), "facts": 0,
                                "proof": None, "error": err.to_dict()})
            continue
        proof = result.proof() if result.solved else None
        seconds = round(time.monotonic() - start, 3)
        if args.json:
            record: dict[str, object] = {
                "file": path, "problem": name, "solved": result.solved, "status": result.status,
                "seconds": seconds, "facts": len(result.facts),
                "proof": proof.to_dict() if proof else None, "error": None,
                "auxiliary": [c.to_text() for c in result.problem.aux_given],
                "queries": [a.to_dict(with_proof=True) for a in answers]}
            if args.facts:
                record["fact_list"] = _fact_lines(result)
            if result.unsound:
                record["unsound"] = list(result.unsound)
            records.append(record)
            continue
        goal = "; ".join(g.to_text() for g in result.goals) or "(no goal)"
        verdict = "proved" if result.solved else f"not proved ({result.status})"
        if not result.goals and answers:
            goal, verdict = "(none; the queries below)", result.status
        print(f"problem: {name or '(unnamed)'}  ({path})")
        print(f"goal: {goal}: {verdict}, {len(result.facts)} facts, {seconds:.3f} s")
        if result.problem.aux_given and proof is None:
            print("auxiliary constructions (given after `|`): "
                  + "; ".join(c.to_text() for c in result.problem.aux_given))
        if proof is not None:
            print(proof.to_text(), end="")
        for a in answers:
            print(f"query: {a.text()}")
            if a.proof:
                print(a.proof, end="")
        if args.facts:
            print("* Facts:")
            for f in _fact_lines(result):
                parents = ",".join(str(p) for p in f["parents"])  # type: ignore[union-attr]
                how = f"premise {f['origin']}" if f["rule"] == "premise" else f"{f['rule']} [{parents}]"
                print(f"{f['id']:03d}. {f['fact']}  ({how})")
        for bad in result.unsound:
            print(f"internal error: unsound derivation rejected: {bad}", file=sys.stderr)
        print()
    if args.json:
        json.dump(records, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    return EXIT_INPUT if failed else EXIT_OK
