"""``geodsl parse FILE... [--json] [--dialect D] [--to D]``."""

from __future__ import annotations

import argparse
import json
import sys

from ..lang.definitions import DIALECTS
from ..lang.errors import GeoDSLError
from ..lang.printer import problem_dict, problem_text
from .common import EXIT_INPUT, EXIT_OK, iter_problems


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("parse", help="parse problem files; print canonical text or JSON",
                       description="Parse problem files (AlphaGeometry text or .gdl) and print each "
                                   "problem's canonical text, or a JSON array with --json.")
    p.add_argument("files", nargs="+", metavar="FILE", help="problem files ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per problem")
    p.add_argument("--dialect", choices=DIALECTS, default="alphageometry",
                   help="the dialect the files are written in (default: alphageometry)")
    p.add_argument("--to", choices=DIALECTS, default=None, dest="to_dialect",
                   help="print in this dialect (default: the input dialect)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out_dialect = args.to_dialect or args.dialect
    failed = False
    records: list[dict[str, object]] = []
    named_before = False
    for path, item, lines in iter_problems(args.files, dialect=args.dialect):
        if isinstance(item, GeoDSLError):
            failed = True
            print(item.format(), file=sys.stderr)
            if args.json:
                records.append({"file": path, "status": "error", "error": item.to_dict()})
            continue
        if args.json:
            records.append({"file": path, "status": "ok", **problem_dict(item, out_dialect)})
        else:
            print(problem_text(item, out_dialect, header=named_before))
            named_before = named_before or item.name is not None
    if args.json:
        json.dump(records, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    return EXIT_INPUT if failed else EXIT_OK
