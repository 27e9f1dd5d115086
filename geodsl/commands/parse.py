"""``geodsl parse FILE... [--json] [--dialect D] [--to D] [--problem NAME]``."""

from __future__ import annotations

import argparse
import json
import sys

from ..lang.definitions import DIALECTS
from ..lang.errors import GeoDSLError
from ..lang.printer import problem_dict, problem_text
from .common import (EXIT_INPUT, EXIT_OK, EXIT_STATUS_HELP, add_dialect, add_files, add_json, add_problem,
                     iter_problems)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("parse", help="parse problem files; print canonical text or JSON",
                       description="Parse problem files (AlphaGeometry text or .gdl) and print each "
                                   "problem's canonical text, or a JSON array with --json.",
                       epilog=EXIT_STATUS_HELP)
    add_files(p)
    add_json(p, "parse")
    add_dialect(p)
    p.add_argument("--to", choices=DIALECTS, default=None, dest="to_dialect",
                   help="print in this dialect (default: the input dialect)")
    add_problem(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out_dialect = args.to_dialect or args.dialect
    failed = False
    records: list[dict[str, object]] = []
    named_before = False
    for path, item, _ in iter_problems(args.files, args.problem, args.dialect):
        if isinstance(item, GeoDSLError):
            failed = True
            print(item.format(), file=sys.stderr)
            if args.json:
                records.append({"file": path, "problem": item.problem, "status": "error",
                                "error": item.to_dict()})
            continue
        if args.json:
            records.append({"file": path, "problem": item.name, "status": "ok", "error": None,
                            **problem_dict(item, out_dialect)})
        else:
            print(problem_text(item, out_dialect, header=named_before))
            named_before = named_before or item.name is not None
    if args.json:
        json.dump(records, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    return EXIT_INPUT if failed else EXIT_OK
