# Stub of the compiled module geodsl._match (ext/match.pyx, ext/diagram.pxi).
from collections.abc import Callable
from typing import Any

DEGENERACY: dict[str, int]
ENUMERATORS: dict[str, int]
CHECKS: dict[str, tuple[int, int]]
"""Predicate name -> (compiled check, arity)."""

class Diagram:
    def __init__(self, model: Any) -> None: ...
    def index(self, model: Any) -> None: ...
    def holds(self, name: str, *args: int) -> bool: ...
    def enumerate(self, name: str, pattern: tuple[int | None, ...]) -> list[tuple[int, ...]]: ...

def search(cons_vars: list[list[int]], cons_side: list[bool], cons_names: list[str], plain: list[bool],
           nvars: int, diagram: Diagram, check: Callable[[int, tuple[int, ...]], bool],
           cost: Callable[[int, tuple[int | None, ...]], int], deadline: float, max_matches: int,
           memo: dict[tuple[str, tuple[object, ...]], bool],
           enumerated: dict[tuple[str, tuple[int | None, ...]], list[tuple[int, ...]]]) -> list[tuple[int, ...]]: ...
