"""Numeric tolerances of the realizer, in one place.

Every numeric decision geodsl makes about a diagram (is this relation true? do
these lines meet? is this circle tangent to that line?) compares a residual
with one of the two tolerances below. Lengths are measured relative to the
figure's *scale*, so a figure and its image under any similarity get the same
verdicts:

``scale``
    the radius of the figure: the largest distance of a point from the
    centroid of all points (:func:`figure_scale`).
``length`` (default 1e-6)
    a length residual ``r`` counts as zero when ``|r| <= length * scale``
    (points closer than that are the same point; a point that far from a line
    is on it; two lengths that close are equal). Products of two lengths (as
    in ``eqratio``) compare against ``length`` relative to the larger product.
``angle`` (default 1e-6, radians)
    an angle residual counts as zero below it (``para``, ``perp``,
    ``eqangle``, ``aconst``, and whether two lines are parallel when
    intersecting them). Similarity ratios (``simtri``) use it as a relative
    tolerance.

float64 coordinates of a well-shaped figure carry errors around 1e-15 of the
scale, so these tolerances leave nine orders of magnitude for error
accumulation over long constructions, while a relation that fails by one part
in a million is reported false. The sampler keeps figures well shaped
(:class:`geodsl.realizer.sampler.SamplerSettings`): new points at least 2% of
the scale from existing ones, none far outside the figure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Tolerance:
    """The two tolerances (see the module documentation)."""

    length: float = 1e-6
    angle: float = 1e-6

    def length_at(self, scale: float) -> float:
        """The absolute length tolerance for a figure of this scale."""
        return self.length * scale


TOLERANCE = Tolerance()
"""The tolerances every check uses unless a caller passes its own."""

MIN_SCALE = 1e-9
"""Floor of :func:`figure_scale` (a figure of one point has radius 0)."""


def figure_scale(points: Iterable[complex]) -> float:
    """The radius of a set of points: max distance from their centroid."""
    pts = list(points)
    if not pts:
        return 1.0
    centre = sum(pts, 0j) / len(pts)
    return max(MIN_SCALE, max(abs(p - centre) for p in pts))
