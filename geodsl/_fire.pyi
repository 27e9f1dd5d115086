# Stub of the compiled module geodsl._fire (ext/fire.pyx).
from typing import Any

from typing_extensions import disjoint_base

@disjoint_base
class CompiledRule:
    name: str
    label: object
    def __init__(self, spec: Any) -> None: ...

def fire(store: Any, rule: CompiledRule, bindings: list[tuple[int, ...]], fired: bytearray,
         memo: list[object], deadline: float, max_facts: int) -> None: ...
