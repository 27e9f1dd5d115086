"""``geodsl render FILE [-o OUT] [--problem NAME] [--option LABEL] [--seed N]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..lang.errors import GeoDSLError, ProblemError
from .common import EXIT_INPUT, EXIT_OK, iter_problems, located


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("render", help="draw a problem's figure (PNG or SVG)",
                       description="Realize one problem and draw it: points labelled, the lines and "
                                   "circles of the premise, the goal (or an option) highlighted, "
                                   "auxiliary constructions dashed. PNG or SVG by the extension of OUT.")
    p.add_argument("file", metavar="FILE", help="a problem file ('-' for standard input)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="figure to write, .png or .svg (default: the problem name or FILE, as .png)")
    p.add_argument("--problem", metavar="NAME", help="the problem to draw (default: the first)")
    p.add_argument("--option", metavar="LABEL", help="highlight this option instead of the goal")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--diagram", type=int, default=1, metavar="I",
                   help="which of the independent diagrams to draw (default 1)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..realizer import realize
    from ..realizer.render import render

    for path, item, lines in iter_problems([args.file], args.problem):
        try:
            if isinstance(item, GeoDSLError):
                raise item
            highlight = None
            if args.option is not None:
                labels = [o.label for o in item.options]
                match = [o for o in item.options if o.label == args.option]
                if not match:
                    raise ProblemError(
                        f"problem {item.name or ''} has no option `{args.option}`".replace("  ", " "),
                        source=path, hint=f"options: {', '.join(labels)}" if labels else
                        "this problem has no options")
                highlight = match[0].predicate
            out = args.output or _default_name(item.name, path)
            if Path(out).suffix.lower() not in (".png", ".svg"):
                raise GeoDSLError(f"cannot write `{out}`: unknown figure format "
                                  f"`{Path(out).suffix or '(none)'}`", source=path,
                                  hint="use a .png or .svg file name")
            if args.diagram < 1:
                raise GeoDSLError(f"--diagram {args.diagram}: diagrams are numbered from 1")
            figs = realize(item, seed=args.seed, diagrams=args.diagram)
            render(figs[args.diagram - 1], out, highlight=highlight)
        except GeoDSLError as exc:
            print(located(exc, lines).format(), file=sys.stderr)
            return EXIT_INPUT
        print(out)
        return EXIT_OK
    return EXIT_OK


def _default_name(name: str | None, path: str) -> str:
    if name:
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name.split("/")[-1])
        stem = stem.removesuffix(".gex") or "figure"
    else:
        stem = Path(path).stem if path != "-" else "figure"
    return stem + ".png"
