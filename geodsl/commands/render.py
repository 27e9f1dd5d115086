"""``geodsl render FILE [-o OUT] [--problem NAME] [--option LABEL] [--seed N] [--diagram I] [--dialect D]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dataclasses import replace

from ..lang.ast import AuxCandidate, Problem
from ..lang.aux_text import read_aux
from ..lang.errors import GeoDSLError, ProblemError
from .common import (EXIT_INPUT, EXIT_OK, EXIT_STATUS_HELP, AuxText, add_aux, add_dialect, add_files,
                     add_problem, add_seed, aux_texts, count_flag, iter_problems, located)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw a problem's figure (PNG or SVG)",
                       description="Realize one problem and draw it: points labelled, the lines and "
                                   "circles of the premise, the goal (or an option) highlighted, "
                                   "auxiliary constructions dashed (the problem's `|` section and `aux:` "
                                   "lines, and candidates given with --aux / --aux-file, in the DSL, English "
                                   "or Chinese). PNG or SVG by the extension of OUT; "
                                   "the path written is printed. A goal false in the diagram is drawn "
                                   "anyway, with a warning on stderr (exit status 0).",
                       epilog=EXIT_STATUS_HELP)
    add_files(p, several=False)
    p.add_argument("-o", "--output", metavar="OUT",
                   help="figure to write, .png or .svg (default: the problem name or FILE, as .png)")
    add_problem(p, help="the problem to draw (default: the first in FILE)")
    p.add_argument("--option", metavar="LABEL", help="highlight this option instead of the goal")
    add_seed(p)
    p.add_argument("--diagram", type=count_flag("--diagram", "the diagram number"), default=1, metavar="I",
                   help="which of the independent diagrams to draw, from 1 (default: 1)")
    add_aux(p)
    add_dialect(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..lang.errors import GoalFalseError
    from ..realizer import realize
    from ..realizer.render import render

    texts = aux_texts(args)
    for path, item, lines in iter_problems([args.file], args.problem, args.dialect):
        try:
            if isinstance(item, GeoDSLError):
                raise item
            item = with_candidates(item, texts, args.lang, args.dialect, args.seed, args.diagram)
            highlight = None
            if args.option is not None:
                labels = [o.label for o in item.options]
                match = [o for o in item.options if o.label == args.option]
                if not match:
                    raise ProblemError(
                        f"problem {item.name or ''} has no option `{args.option}`".replace("  ", " "),
                        source=path, text=args.option,
                        hint=f"options: {', '.join(labels)}" if labels else "this problem has no options")
                highlight = match[0].predicate
            out = args.output or _default_name(item.name, path)
            if Path(out).suffix.lower() not in (".png", ".svg"):
                raise GeoDSLError(f"cannot write `{out}`: unknown figure format "
                                  f"`{Path(out).suffix or '(none)'}`", source=path,
                                  hint="use a .png or .svg file name")
            try:
                figs = realize(item, seed=args.seed, diagrams=args.diagram)
            except GoalFalseError as exc:
                # A verdict, not an error: draw the premise as sampled and say so.
                print(f"{path}: warning: {exc.message}; drawn anyway", file=sys.stderr)
                figs = realize(item, seed=args.seed, diagrams=args.diagram, check_goals=False)
            written = render(figs[args.diagram - 1], out, highlight=highlight)
        except GeoDSLError as exc:
            print(located(exc, lines).format(), file=sys.stderr)
            return EXIT_INPUT
        print(written)
        return EXIT_OK
    return EXIT_OK


def with_candidates(problem: Problem, texts: list[AuxText], lang: str, dialect: str, seed: int,
                    diagrams: int) -> Problem:
    """The problem with the command line's candidates as ``aux:`` candidates
    (drawn dashed). A construction of a point the problem already has is
    left out (it draws nothing new); a candidate that cannot be realized on
    the figure (degenerate, or a point the figure has under another name) is
    left out with a warning on stderr (``geodsl aux`` says why in full)."""
    from ..lang.errors import RealizationError
    from ..realizer import realize

    extra = []
    for t in texts:
        reading = read_aux(t.text, problem, lang, source=t.source, line=t.line, dialect=dialect)
        kept = tuple(c for c, again in zip(reading.constructions, reading.restated) if not again)
        if not kept:
            continue
        candidate = AuxCandidate(t.source, kept, kept[0].span)
        try:
            realize(replace(problem, aux=(candidate,)), seed=seed, diagrams=diagrams, check_goals=False)
        except RealizationError as exc:
            print(f"{t.source}: warning: `{t.text}` is not drawn: {exc.message}", file=sys.stderr)
            continue
        extra.append(candidate)
    return replace(problem, aux=problem.aux + tuple(extra)) if extra else problem


def _default_name(name: str | None, path: str) -> str:
    if name:
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name.split("/")[-1])
        stem = stem.removesuffix(".gex") or "figure"
    else:
        stem = Path(path).stem if path != "-" else "figure"
    return stem + ".png"
