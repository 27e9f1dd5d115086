"""``geodsl realize FILE... [--json] [--seed N] [--diagrams K] [--dialect D] [--problem NAME]``."""

from __future__ import annotations

import argparse
import json
import sys

from ..lang.ast import Problem
from ..lang.errors import GeoDSLError, GoalFalseError
from .common import (EXIT_INPUT, EXIT_OK, EXIT_STATUS_HELP, add_dialect, add_diagrams, add_files, add_json,
                     add_problem, add_seed, iter_problems, located)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("realize", help="place every point numerically; check goals and options",
                       description="Realize each problem's premise numerically (several independent "
                                   "diagrams from one seed), check its goals and options, and print "
                                   "the coordinates, or JSON with --json. A goal false in the diagram "
                                   "is reported as FALSE (exit status 0).",
                       epilog=EXIT_STATUS_HELP)
    add_files(p)
    add_json(p, "realize")
    add_seed(p)
    add_diagrams(p)
    add_dialect(p)
    add_problem(p)
    p.set_defaults(run=run)


def realize_reporting_false_goals(problem: Problem, seed: int, diagrams: int):
    """The diagrams; where a goal is false in every sample (a verdict, not
    an error), the diagrams drawn without regard to the goals."""
    from ..realizer import realize

    try:
        return realize(problem, seed=seed, diagrams=diagrams)
    except GoalFalseError:
        return realize(problem, seed=seed, diagrams=diagrams, check_goals=False)


def run(args: argparse.Namespace) -> int:
    failed = False
    records: list[dict[str, object]] = []
    for path, item, lines in iter_problems(args.files, args.problem, args.dialect):
        if not isinstance(item, GeoDSLError):
            try:
                figs = realize_reporting_false_goals(item, args.seed, args.diagrams)
            except GeoDSLError as exc:
                item = exc
        if isinstance(item, GeoDSLError):
            failed = True
            print(located(item, lines).format(), file=sys.stderr)
            if args.json:
                records.append({"file": path, "problem": item.problem, "status": "error",
                                "error": item.to_dict()})
            continue
        if args.json:
            records.append({"file": path, "problem": item.name, "status": "ok", "error": None,
                            **figs.to_dict()})
            continue
        print(f"problem: {item.name or '(unnamed)'}  ({path}, seed {args.seed})")
        for d in figs:
            print(f"  diagram {d.index + 1}:")
            for name in d.names:
                x, y = d[name]
                print(f"    {name:>4} = ({x: .6f}, {y: .6f})")
            for a in d.aux:
                for name, z in a.points.items():
                    print(f"    {name:>4} = ({z.real: .6f}, {z.imag: .6f})  aux {a.label or ''}".rstrip())
        for goal in item.goals:
            failing = [d.index + 1 for d in figs if not d.holds(goal)]
            if failing:
                where = ", ".join(map(str, failing))
                print(f"  goal {goal.to_text()}: FALSE in diagram{'s' if len(failing) > 1 else ''} {where} "
                      f"(of {len(figs)})")
            else:
                print(f"  goal {goal.to_text()}: holds in {len(figs)} diagram{'s' if len(figs) > 1 else ''}")
        for option in item.options:
            print(f"  option {option.label} {option.predicate.to_text()}: "
                  f"{'holds' if figs.holds(option.predicate) else 'false'}")
    if args.json:
        json.dump(records, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    return EXIT_INPUT if failed else EXIT_OK
