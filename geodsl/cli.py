"""The ``geodsl`` command line.

Errors in the input print as ``file:line:col: error: message`` with the
source line and a caret, and the command exits with status 2; no input,
however malformed, produces a traceback. Each subcommand lives in
:mod:`geodsl.commands`.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn
from collections.abc import Sequence

from .commands import parse as parse_command
from .commands import realize as realize_command, render as render_command
from .commands import check as check_command, score as score_command
from .commands import prove as prove_command
from .commands import grade as grade_command
from .commands import aux as aux_command
from .commands import generate as generate_command
from .commands import report as report_command
from .commands.common import EXIT_INPUT, EXIT_INTERNAL
from .lang.errors import GeoDSLError

COMMANDS = [parse_command, realize_command, render_command, check_command, score_command, prove_command,
            grade_command, aux_command, report_command, generate_command]


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but usage errors exit with geodsl's bad-input status."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_INPUT)


def build_parser() -> argparse.ArgumentParser:
    top = _ArgumentParser(prog="geodsl", description="Formal plane geometry: parse, realize, prove, check.")
    top.add_argument("--version", action="version", version="geodsl 0.1.0")
    sub = top.add_subparsers(dest="command", required=True, parser_class=_ArgumentParser)
    for command in COMMANDS:
        command.register(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``geodsl`` script; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        return int(args.run(args))
    except GeoDSLError as exc:
        print(exc.format(), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`geodsl check ... | head`): not an error.
        # Point stdout at /dev/null so the interpreter's final flush is quiet.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT
    except Exception as exc:  # a bug in geodsl, not bad input: say so, briefly
        print(f"geodsl: internal error: {type(exc).__name__}: {exc} "
              "(please report this with the input that caused it)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
