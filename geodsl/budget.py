"""One budget for a whole problem: wall-clock time, facts and rule matches.

Every command and every prover takes a :class:`Budget`; ``--timeout S`` is
its ``seconds``, the wall-clock time of the *whole* problem — realizing,
building the numeric model, matching, deducing, proving options — not of one
stage. :meth:`Budget.start` gives the :class:`Clock` the stages share: each
stage asks it (:meth:`Clock.check`) and stops with :class:`BudgetExceeded`,
naming itself, when the time or a count runs out. A prover turns that into a
partial result (status ``"budget"``); nothing is lost but what was not done.

The defaults live here and only here.

This module imports nothing of geodsl but the errors, so that every layer,
the compiled modules in ``ext/`` included, can raise the one exception.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from .lang.errors import GeoDSLError

DEFAULT_SECONDS = 30.0
"""Wall-clock seconds for one problem."""
DEFAULT_MAX_FACTS = 50_000
"""Facts a closure may hold."""
DEFAULT_MAX_MATCHES = 100_000
"""Numerically true instances one rule may have."""


class BudgetExceeded(Exception):
    """A stage ran past the problem's budget. ``stage`` names it
    (``"realize"``, ``"numeric model"``, ``"matching"``, ``"deduction"``,
    ...), ``resource`` what ran out (``"time"``, ``"facts"``, ``"matches"``)."""

    def __init__(self, stage: str, resource: str = "time") -> None:
        super().__init__(f"{stage}: {resource} budget exhausted")
        self.stage = stage
        self.resource = resource


def _positive(value: object, what: str, flag: str, integral: bool) -> None:
    kind = "a whole number" if integral else "a number"
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if number is None or (integral and not isinstance(number, int)) or not math.isfinite(number) or number <= 0:
        raise GeoDSLError(f"{what} must be {kind} greater than 0, got {value!r}",
                          hint=f"pass {flag} with a finite positive value")


@dataclass(frozen=True, slots=True)
class Budget:
    """How much one problem may spend. Invalid values (zero, negative, NaN,
    infinite) are refused with a :class:`~geodsl.lang.errors.GeoDSLError`."""

    seconds: float = DEFAULT_SECONDS
    max_facts: int = DEFAULT_MAX_FACTS
    max_matches: int = DEFAULT_MAX_MATCHES

    def __post_init__(self) -> None:
        _positive(self.seconds, "the time budget", "--timeout", integral=False)
        _positive(self.max_facts, "the fact budget", "max_facts", integral=True)
        _positive(self.max_matches, "the match budget", "max_matches", integral=True)

    def start(self) -> Clock:
        """Start the clock: the deadline is ``seconds`` from now."""
        return Clock(self, time.monotonic() + self.seconds)


@dataclass(frozen=True, slots=True)
class Clock:
    """A started :class:`Budget`: the deadline every stage of one problem shares."""

    budget: Budget
    deadline: float
    """``time.monotonic()`` value past which stages stop."""

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() > self.deadline

    def check(self, stage: str) -> None:
        """Raise :class:`BudgetExceeded` for ``stage`` if the time is up."""
        if time.monotonic() > self.deadline:
            raise BudgetExceeded(stage)
