"""``geodsl realize FILE... [--json] [--seed N] [--diagrams K] [--problem NAME]``."""

from __future__ import annotations

import argparse
import json
import sys

from ..lang.errors import GeoDSLError
from .common import EXIT_INPUT, EXIT_OK, iter_problems, located


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("realize", help="place every point numerically; check goals and options",
                       description="Realize each problem's premise numerically (several independent "
                                   "diagrams from one seed), check its goals and options, and print "
                                   "the coordinates, or JSON with --json.")
    p.add_argument("files", nargs="+", metavar="FILE", help="problem files ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per problem")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--diagrams", type=int, default=3, metavar="K",
                   help="independent diagrams per problem (default 3)")
    p.add_argument("--problem", metavar="NAME", help="only the problem with this name")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..realizer import realize

    if args.diagrams < 1:
        raise GeoDSLError(f"--diagrams {args.diagrams}: ask for at least one diagram")
    failed = False
    records: list[dict[str, object]] = []
    for path, item, lines in iter_problems(args.files, args.problem):
        if not isinstance(item, GeoDSLError):
            try:
                figs = realize(item, seed=args.seed, diagrams=args.diagrams)
            except GeoDSLError as exc:
                item = exc
        if isinstance(item, GeoDSLError):
            failed = True
            print(located(item, lines).format(), file=sys.stderr)
            if args.json:
                records.append({"file": path, "status": "error", "error": item.to_dict()})
            continue
        if args.json:
            records.append({"file": path, "status": "ok", **figs.to_dict()})
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
            print(f"  goal {goal.to_text()}: {'holds' if figs.holds(goal) else 'FALSE'} "
                  f"in {len(figs)} diagram{'s' if len(figs) > 1 else ''}")
        for option in item.options:
            print(f"  option {option.label} {option.predicate.to_text()}: "
                  f"{'holds' if figs.holds(option.predicate) else 'false'}")
    if args.json:
        json.dump(records, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    return EXIT_INPUT if failed else EXIT_OK
