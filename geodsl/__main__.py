"""``python -m geodsl`` is the ``geodsl`` command."""

from .cli import main

raise SystemExit(main())
