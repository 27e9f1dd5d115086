"""``geodsl generate --n N --seed S [--depth D] [--kind mcq|calc] [--lang en,zh] [--jobs N] --out DIR``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import cast

from ..generate.run import KINDS, MAX_QUESTIONS, generate
from .common import EXIT_OK, UsageError, add_json, add_seed, console, plural


def _count(flag: str, low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise UsageError(f"{flag} {text}: must be a whole number from {low} to {high:,}",
                             hint=f"e.g. {flag} {max(low, 2)}")
        return value

    parse.__name__ = flag.lstrip("-")
    return parse


def _langs(text: str) -> tuple[str, ...]:
    parts = tuple(p.strip() for p in text.split(","))
    bad = [p for p in parts if p not in ("en", "zh")]
    if bad or len(set(parts)) != len(parts):
        raise UsageError(f"--lang {text}: languages are en and zh, each once, comma-separated",
                         hint="e.g. --lang en,zh or --lang en")
    return parts


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="generate benchmark problems: multi-answer questions or calculation problems",
                       description="Generate GeoChallenge-style multiple-answer questions (premises sampled "
                                   "from clause templates, options proved by the closure, distractors false "
                                   "in independent diagrams, English and Chinese text, figures) or "
                                   "GeomVerse-style calculation problems (chained shapes, exact answers). "
                                   "Writes DIR/problems.jsonl, DIR/problems.gdl (`geodsl check` re-verifies "
                                   "the keys), DIR/figures/ and DIR/summary.json; the same seed and "
                                   "arguments give the same files whatever --jobs (docs/generate.md).",
                       epilog="exit status: 0 when the run finished (fewer than N problems is said on "
                              "stderr and in summary.json); 2 for a bad flag or an unwritable DIR; 1 for "
                              "an internal error.")
    p.add_argument("--n", type=_count("--n", 1, MAX_QUESTIONS), required=True, metavar="N",
                   help="how many problems to make")
    add_seed(p)
    p.add_argument("--depth", type=_count("--depth", 1, 12), default=3, metavar="D",
                   help="mcq: layers of constructions above the initial shape; calc: shapes in the chain, "
                        "the hops the answer needs (default: 3)")
    p.add_argument("--kind", choices=KINDS, default="mcq",
                   help="mcq: multiple-answer questions; calc: calculation problems (default: mcq)")
    p.add_argument("--lang", type=_langs, default=("en", "zh"), metavar="L,L",
                   help="languages of the text, en and/or zh (default: en,zh)")
    p.add_argument("--jobs", type=_count("--jobs", 1, 256), default=1, metavar="N",
                   help="worker processes (default: 1); the output does not depend on it")
    p.add_argument("--no-distractor-shapes", action="store_true",
                   help="calc: never add shapes the answer does not need")
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write (created if missing)")
    add_json(p, "generate", "the run's summary object (summary.json)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    summary = generate(args.n, args.seed, args.out, depth=args.depth, kind=args.kind, langs=args.lang,
                       jobs=args.jobs, distractor_shapes=not args.no_distractor_shapes)
    data = summary.data
    if not data["complete"]:
        print(f"geodsl: warning: made {data['questions']} of {args.n} problems within {data['candidates']} "
              "candidates (see summary.json: rejected)", file=sys.stderr)
    if args.json:
        sys.stdout.write(summary.to_json())
        return EXIT_OK
    from rich.table import Table

    out = console()
    table = Table(title=f"geodsl generate --kind {args.kind}: {plural(summary.questions, 'problem')} in {args.out}",
                  title_justify="left")
    table.add_column("what")
    table.add_column("count", justify="right")
    table.add_row("candidates", str(data["candidates"]))
    table.add_row("problems", str(data["questions"]))
    for reason, count in cast(dict[str, int], data["rejected"]).items():
        table.add_row(f"rejected: {reason}", str(count))
    for level, count in cast(dict[str, int], data["levels"]).items():
        table.add_row(f"level {level}", str(count))
    out.print(table)
    out.print(f"{data['seconds']} s, {data['per_minute']} problems per minute", markup=False)
    return EXIT_OK
