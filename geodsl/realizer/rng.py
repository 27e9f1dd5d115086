"""The random source of one diagram: numpy's PCG64, never global state.

Every random choice of the realizer goes through :class:`Random`, which only
uses ``Generator.random()`` (uniform doubles in [0, 1), the same stream on
every platform and numpy version that has PCG64) and derives everything else
from it. ``draws`` counts the draws, so the sampler can tell whether retrying
a failed construction can change anything.
"""

from __future__ import annotations

import math

import numpy as np


class Random:
    """Seeded uniform draws for one diagram."""

    __slots__ = ("_gen", "draws")

    def __init__(self, seed: np.random.SeedSequence | int) -> None:
        self._gen = np.random.Generator(np.random.PCG64(seed))
        self.draws = 0

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        self.draws += 1
        return float(self._gen.random())

    def uniform(self, lo: float, hi: float) -> float:
        """A uniform float in [lo, hi)."""
        return lo + (hi - lo) * self.random()

    def angle(self) -> float:
        """A uniform angle in [0, 2π)."""
        return 2 * math.pi * self.random()

    def unit(self) -> complex:
        """A uniform unit complex number."""
        t = self.angle()
        return complex(math.cos(t), math.sin(t))

    def coin(self) -> bool:
        """True with probability 1/2."""
        return self.random() < 0.5

    def index(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        return min(n - 1, int(self.random() * n))


def diagram_seeds(seed: int, count: int) -> list[np.random.SeedSequence]:
    """Independent seeds for ``count`` diagrams; diagram i is the same for any
    ``count`` > i (so asking for more diagrams keeps the first ones)."""
    return np.random.SeedSequence(seed).spawn(count)
