"""``geodsl score --predictions P.jsonl --gold G.jsonl [--json]``."""

from __future__ import annotations

import argparse
from typing import cast
import json
import sys

from ..checker.metrics import OUTCOMES, score
from ..checker.records import load_scored
from .common import EXIT_OK, add_json, console

_METRICS = ("exact_match", "precision", "recall", "f1", "hamming_accuracy", "avg_selected")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score model answers against a gold key (GeoChallenge metrics)",
                       description="Exact match, option precision/recall/F1 (macro), Hamming accuracy, "
                                   "average options selected and outcome classes; by difficulty when "
                                   "the gold records give one. Definitions, and how empty and missing "
                                   "answers count: docs/checker.md.",
                       epilog="exit status: 0 when both files were read and scored; 2 when a record is "
                              "malformed (printed as file:line:col) or a file cannot be read; 1 for an "
                              "internal error.")
    p.add_argument("--predictions", required=True, metavar="P.jsonl",
                   help='records {"id", "output"} (raw model text, optional "finish_reason") or {"id", "answer"}')
    p.add_argument("--gold", required=True, metavar="G.jsonl",
                   help='records {"id", "answer"}, optionally "options" (labels, option texts, or an '
                        'object keyed by label) and "difficulty"')
    add_json(p, "score", "one report object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    report = score(load_scored(args.predictions, args.gold))
    if args.json:
        json.dump(report, sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
        return EXIT_OK
    _print_table(report)
    return EXIT_OK


def _print_table(report: dict[str, object]) -> None:
    """One column per subset (all, then each difficulty), one row per measure."""
    from rich.table import Table

    by_difficulty = cast(dict[str, dict[str, object]], report["by_difficulty"])
    parts = [("all", report)] + list(by_difficulty.items())
    table = Table(title=f"{report['problems']} problems (rates in %)")
    table.add_column("measure")
    for label, _ in parts:
        table.add_column(str(label), justify="right")
    table.add_row("problems", *(str(p["problems"]) for _, p in parts))
    for m in _METRICS:
        cells = []
        for _, p in parts:
            value = cast(dict[str, float], p["metrics"])[m]
            cells.append(f"{value:.2f}" if m == "avg_selected" else f"{100 * value:.2f}")
        table.add_row(m.replace("_", " "), *cells)
    for o in OUTCOMES:
        table.add_row(o.replace("_", " "), *(str(cast(dict[str, int], p["outcomes"])[o]) for _, p in parts))
    console().print(table)
