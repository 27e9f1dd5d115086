"""The ``geodsl`` command line.

Errors in the input print as ``file:line:col: error: message`` with the
source line and a caret, and the command exits with status 2; no input,
however malformed, produces a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .definitions import DIALECTS
from .errors import GeoDSLError
from .parser import iter_load
from .printer import problem_dict, problem_text

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT = 0, 1, 2


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_INPUT)


def _parser() -> argparse.ArgumentParser:
    top = _ArgumentParser(prog="geodsl", description="Formal plane geometry: parse, realize, prove, check.")
    top.add_argument("--version", action="version", version="geodsl 0.1.0")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_ArgumentParser)

    p = sub.add_parser("parse", help="parse problem files; print canonical text or JSON",
                       description="Parse problem files (AlphaGeometry text or .gdl) and print each "
                                   "problem's canonical text, or a JSON array with --json.")
    p.add_argument("files", nargs="+", metavar="FILE", help="problem files ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print a JSON array, one object per problem")
    p.add_argument("--dialect", choices=DIALECTS, default="alphageometry",
                   help="the dialect the files are written in (default: alphageometry)")
    p.add_argument("--to", choices=DIALECTS, default=None, dest="to_dialect",
                   help="print in this dialect (default: the input dialect)")
    p.set_defaults(run=_run_parse)
    return top


def _items(path: str, dialect: str):  # type: ignore[no-untyped-def]
    if path == "-":
        from .parser import decode, iter_parse

        try:
            text = decode(sys.stdin.buffer.read(), "<stdin>")
        except GeoDSLError as exc:
            yield exc
            return
        yield from iter_parse(text, "<stdin>", dialect=dialect)
    else:
        yield from iter_load(path, dialect=dialect)


def _run_parse(args: argparse.Namespace) -> int:
    out_dialect = args.to_dialect or args.dialect
    failed = False
    records: list[dict[str, object]] = []
    named_before = False
    for path in args.files:
        for item in _items(path, args.dialect):
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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``geodsl`` script; returns the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        return int(args.run(args))
    except GeoDSLError as exc:
        print(exc.format(), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except SystemExit as exc:
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_INPUT
    except Exception as exc:  # a bug in geodsl, not bad input: say so, briefly
        print(f"geodsl: internal error: {type(exc).__name__}: {exc} "
              "(please report this with the input that caused it)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
