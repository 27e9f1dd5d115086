"""One module per ``geodsl`` subcommand; each exposes ``register(subparsers)``.

:mod:`geodsl.cli` lists them in :data:`geodsl.cli.COMMANDS`; a command's
``run(args) -> int`` returns the exit status (2 for bad input).
"""
