"""Task functions for tests/test_batch.py: workers import them by name, so
they live in a module of their own (pytest puts tests/ on sys.path, and the
fork server is given the parent's path)."""

from __future__ import annotations

import os
import signal
import time

SETUP: list[str] = []


def setup(tag: str) -> None:
    SETUP[:] = [tag]


def behave(n: int) -> dict[str, object]:
    """What item ``n`` does: most return a record; some crash their worker,
    hang, raise, or allocate beyond the worker's memory cap."""
    if n % 10 == 3:
        os.kill(os.getpid(), signal.SIGSEGV)
    if n % 10 == 5:
        time.sleep(60)
    if n % 10 == 7:
        raise ValueError(f"item {n}")
    if n % 10 == 8:
        bytearray(3 * 2 ** 30)
    time.sleep(0.001 * (n % 4))  # finish out of order
    return {"n": n, "square": n * n, "setup": SETUP[0] if SETUP else None}


def whoami(n: int) -> dict[str, object]:
    return {"n": n, "pid": os.getpid()}
