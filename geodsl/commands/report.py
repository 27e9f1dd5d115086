"""``geodsl report RESULTS.jsonl [-o report.html] [--figures N] [--seed N] [--title T] [--jobs N]``:
a run's results as one self-contained HTML page (:mod:`geodsl.report`)."""

from __future__ import annotations

import argparse
import os
import sys

from ..batch import Settings
from ..lang.errors import GeoDSLError
from ..report import DEFAULT_FIGURES, build
from .common import EXIT_OK, add_dialect, add_seed, count_flag


def _figures_flag(text: str) -> int:
    from .common import UsageError

    try:
        value = int(text, 10)
    except ValueError:
        value = -1
    if value < 0:
        raise UsageError(f"--figures {text}: the number of records with figures is a whole number from 0",
                         hint=f"e.g. --figures {DEFAULT_FIGURES}, or --figures 0 for none")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="a run's results (--out or --json) as one self-contained HTML page",
                       description="Read the records a run wrote (check, prove, aux, grade, realize, generate: "
                                   "an --out JSON Lines file or a --json array) and write one HTML file that "
                                   "loads nothing: a summary, a sortable and filterable table, and per problem "
                                   "its figures with each option or goal highlighted, the verdicts, the proofs "
                                   "(collapsed), the errors and the graded steps. Problems are found again from "
                                   "each record's file (a path, from here or beside RESULTS, or a dataset's "
                                   "name) and drawn from --seed.",
                       epilog="exit status: 0 when the page was written; 2 when RESULTS or a flag is bad.")
    p.add_argument("results", metavar="RESULTS", help="the records: an --out .jsonl file or a --json output")
    p.add_argument("-o", "--output", metavar="report.html",
                   help="the page to write (default: RESULTS with .html instead of its extension)")
    p.add_argument("--figures", type=_figures_flag, default=DEFAULT_FIGURES, metavar="N",
                   help=f"draw the problems of the first N records (default: {DEFAULT_FIGURES}; 0: no figures)")
    add_seed(p)
    p.add_argument("--title", metavar="T", help="the page's title (default: geodsl report: RESULTS)")
    p.add_argument("--jobs", type=count_flag("--jobs", "the number of processes"), default=None, metavar="N",
                   help="draw the figures in N worker processes")
    add_dialect(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    out = args.output or os.path.splitext(args.results)[0] + ".html"
    if os.path.abspath(out) == os.path.abspath(args.results):
        from .common import UsageError

        raise UsageError(f"-o {out}: that is RESULTS itself", hint="write the page to another file, e.g. -o report.html")
    text = build(args.results, figures=args.figures, seed=args.seed, title=args.title,
                 settings=Settings(jobs=args.jobs, timeout=300.0 if args.jobs else None), dialect=args.dialect)
    try:
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as exc:
        raise GeoDSLError(f"cannot write {out}: {exc.strerror or exc}", source=out,
                          hint="check the folder exists and is writable") from None
    figures = text.count('<svg class="figure"')
    print(f"wrote {out}: {len(text) / 1e6:.1f} MB, {figures} figures", file=sys.stderr)
    return EXIT_OK
