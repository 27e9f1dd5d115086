# Stub of the compiled module geodsl._match (ext/match.pyx, ext/diagram.pxi).
from collections.abc import Callable
from typing import Any

from geodsl.lang.constants import Constant

from typing_extensions import disjoint_base

DEGENERACY: dict[str, int]
ENUMERATORS: dict[str, int]
CHECKS: dict[str, tuple[int, int]]
"""Predicate name -> (compiled check, arity)."""
MAX_ENUMERATED: int
"""The most instances one enumeration may list."""
MAX_CACHED: int
"""The most instances the search keeps memoized, over all enumerations."""
MAX_SHAPE_POINTS: int
"""The largest figure whose ordered triangles are grouped by shape."""

@disjoint_base
class Diagram:
    n: int
    """The number of points."""
    deadline: float
    """time.monotonic() past which enumerations stop (set by search)."""
    cached: int
    """Instances the search has memoized so far."""
    def __init__(self, model: Any) -> None: ...
    def index(self, model: Any) -> None: ...
    def holds(self, name: str, *args: int) -> bool: ...
    def enumerate(self, name: str, pattern: tuple[int | None, ...]) -> list[tuple[int, ...]]: ...

def search(cons_vars: list[list[int]], cons_side: list[bool], cons_names: list[str], plain: list[bool],
           nvars: int, diagram: Diagram, check: Callable[[int, tuple[int, ...]], bool],
           cost: Callable[[int, tuple[int | None, ...]], int], deadline: float, max_matches: int,
           memo: dict[tuple[str, tuple[int | Constant, ...]], bool],
           enumerated: dict[tuple[str, tuple[int | None, ...]], list[tuple[int, ...]]],
           through: int = -1) -> list[tuple[int, ...]]: ...
