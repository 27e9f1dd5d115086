"""``geodsl score --predictions P.jsonl --gold G.jsonl [--json]``."""

from __future__ import annotations

import argparse
from typing import cast
import json
import sys

from ..checker.metrics import OUTCOMES, RELAXED_TOLERANCE, score
from ..checker.records import load_calculations, load_scored
from .common import EXIT_OK, UsageError, add_json, console

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
    p.add_argument("--tolerance", type=_tolerance, default=RELAXED_TOLERANCE, metavar="T",
                   help="calculation problems (gold answer a number): relaxed accuracy counts a number within "
                        f"T·|gold| of the gold value as right (default: {RELAXED_TOLERANCE:g}, GeomVerse's 3%%)")
    add_json(p, "score", "one report object")
    p.set_defaults(run=run)


def _tolerance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1:
        raise UsageError(f"--tolerance {text}: a relative tolerance from 0 to below 1", hint="e.g. --tolerance 0.03")
    return value


def run(args: argparse.Namespace) -> int:
    report = score(load_scored(args.predictions, args.gold), load_calculations(args.predictions, args.gold),
                   args.tolerance)
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
    if report["problems"]:
        console().print(table)
    calc = report.get("calculation")
    if isinstance(calc, dict):
        _print_calculation(calc)


def _print_calculation(calc: dict[str, object]) -> None:
    from rich.table import Table

    by_difficulty = cast(dict[str, dict[str, object]], calc["by_difficulty"])
    parts = [("all", calc)] + list(by_difficulty.items())
    table = Table(title=f"{calc['problems']} calculation problems (relaxed accuracy within "
                        f"{100 * float(cast(float, calc['tolerance'])):g}%, rates in %)")
    table.add_column("measure")
    for label, _ in parts:
        table.add_column(str(label), justify="right")
    table.add_row("problems", *(str(p["problems"]) for _, p in parts))
    for m in ("relaxed_accuracy", "exact_accuracy"):
        table.add_row(m.replace("_", " "), *(f"{100 * float(cast(float, p[m])):.2f}" for _, p in parts))
    for m in ("no_answer", "out_of_length"):
        table.add_row(m.replace("_", " "), *(str(p[m]) for _, p in parts))
    console().print(table)
