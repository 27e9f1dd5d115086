"""Size limits on input, in one place.

Every parser entry point takes a :class:`Limits`; past a limit the parser
raises :class:`~geodsl.lang.errors.LimitError` naming the limit and the size seen,
instead of spending unbounded time or memory on hostile or broken input.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """Defaults fit every public dataset with wide margins (the largest
    AlphaGeometry problem has under 40 points and a 1,000-character line)."""

    max_file_bytes: int = 256 * 1024 * 1024
    max_line_chars: int = 100_000
    max_points_per_problem: int = 1_000
    max_statements_per_problem: int = 2_000
    max_options_per_problem: int = 64
    max_number_digits: int = 20
    """Digits in one number of a constant (``45``, ``1/2``: numerator and
    denominator each) or a placed point's coordinate (``x@1.5_2``). A double
    needs 17 to round-trip, every public dataset fits, and a longer number
    would overflow the realizer's floats or Python's integer conversion."""


DEFAULT_LIMITS = Limits()
