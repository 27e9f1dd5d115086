"""The one place generation runs work in parallel: an ordered map.

Results come back in input order whatever the number of processes, and each
item's result depends on the item alone (every candidate derives its seeds
from (seed, index)), so ``--jobs`` changes the wall time, never the output.
A run maps one batch of candidates at a time (it stops as soon as it has
its questions), on one pool kept for the whole run. The shared parallel
runner of the other commands can take this module's place without touching
its callers.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

_A = TypeVar("_A")
_R = TypeVar("_R")


@contextmanager
def ordered_pool(jobs: int = 1) -> Iterator[Callable[[Callable[[_A], _R], Sequence[_A]], list[_R]]]:
    """A ``map(fn, items) -> list`` on ``jobs`` processes (this one when
    ``jobs`` is 1), results in input order; ``fn`` must be a module-level
    function (it is pickled)."""
    if jobs <= 1:
        yield lambda fn, items: [fn(item) for item in items]
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(jobs) as pool:
        yield lambda fn, items: list(pool.imap(fn, items, chunksize=1))
