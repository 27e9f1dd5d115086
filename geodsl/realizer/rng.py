"""The random source of one diagram: numpy's PCG64, never global state.

Every random choice of the realizer goes through :class:`Random`, which only
uses ``Generator.random()`` (uniform doubles in [0, 1), the same stream on
every platform and numpy version that has PCG64) and derives everything else
from it. ``draws`` counts the draws that decide something, so the sampler
can tell whether retrying a failed construction can change anything.

A *discrete choice* of a construction (which of two intersections, whether
a free shape is mirrored) goes through :meth:`Random.choose`, which names the
choice and its options. The sampler tells the source which construction is
being built (:meth:`Random.begin`); every choice is then keyed by
(construction, j-th choice of that construction) and recorded in
:attr:`Random.trace`, and a *plan* can force the option of any key. A forced
choice still consumes its draw, so two configurations of one sample share
every continuous coordinate and differ only in their choices (see
:func:`geodsl.realizer.diagram.realize`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..lang.errors import GeoDSLError

MAX_SEED = 2**128 - 1
"""Seeds are whole numbers in [0, MAX_SEED] (numpy's SeedSequence takes
any non-negative integer; 128 bits is all of its entropy a diagram uses)."""


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` if it is a whole number in [0, :data:`MAX_SEED`]; a
    :class:`~geodsl.lang.errors.GeoDSLError` naming ``name`` otherwise (not
    numpy's ValueError or TypeError)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise GeoDSLError(f"{name} must be a whole number, got {seed!r}",
                          hint="seeds are whole numbers from 0, e.g. 0, 1, 42")
    if not 0 <= int(seed) <= MAX_SEED:
        raise GeoDSLError(f"{name} must be a whole number from 0 to 2**128 - 1, got {seed}",
                          hint="seeds are whole numbers from 0, e.g. 0, 1, 42")
    return int(seed)


ChoiceKey = tuple[int, int]
"""(construction index, index of the choice within one attempt of it)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One discrete choice made while building a diagram."""

    what: str
    """What is chosen: ``intersection``, ``orientation``, ``branch``."""
    options: tuple[str, ...]
    """The option names, in the order of :attr:`option`."""
    option: int
    """The option taken."""
    forced: bool = False
    """Taken from a plan rather than drawn."""


class Random:
    """Seeded uniform draws for one diagram."""

    __slots__ = ("_seed", "_bits", "_gen", "draws", "position", "plan", "trace", "_construction", "_choice")

    def __init__(self, seed: np.random.SeedSequence | int,
                 plan: Mapping[ChoiceKey, int] | None = None) -> None:
        self._seed = seed
        self._bits = np.random.PCG64(seed)
        self._gen = np.random.Generator(self._bits)
        self.draws = 0
        self.position = 0
        """Numbers drawn from the stream so far (every draw, used or not)."""
        self.plan: dict[ChoiceKey, int] = dict(plan or {})
        """Forced options by choice key."""
        self.trace: dict[ChoiceKey, Choice] = {}
        """The choices of the latest attempt of every construction begun."""
        self._construction = -1
        self._choice = 0

    def at(self, position: int, plan: Mapping[ChoiceKey, int]) -> "Random":
        """A new source on the same stream at ``position`` (as
        :attr:`position` read earlier), with ``plan``: it draws what this
        one drew from there. (Each draw is one step of PCG64, which
        advances in O(log n).)"""
        other = Random(self._seed, plan)
        other._bits.advance(position)
        other.position = position
        return other

    def begin(self, construction: int) -> None:
        """An attempt at construction ``construction`` starts: its choices
        are numbered from 0 again, and those of its earlier attempts
        forgotten."""
        self._construction = construction
        self._choice = 0
        for key in [k for k in self.trace if k[0] == construction]:
            del self.trace[key]

    def choose(self, options: tuple[str, ...], what: str) -> int:
        """A discrete choice among ``options``: the index drawn (as
        :meth:`index` draws it), or the plan's option for this key."""
        n = len(options)
        drawn = self.index(n)
        key = (self._construction, self._choice)
        self._choice += 1
        forced = self.plan.get(key)
        taken = forced if forced is not None and 0 <= forced < n else drawn
        if taken == forced:
            # Drawn but not used: retrying the construction cannot change
            # this choice (``draws`` tells the sampler whether a retry can).
            self.draws -= 1
        if self._construction >= 0:
            self.trace[key] = Choice(what, options, taken, forced is not None and taken == forced)
        return taken

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        self.draws += 1
        self.position += 1
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
