# Stub of the compiled module geodsl._lalr (ext/lalr.pyx).
from typing import Any

from typing_extensions import disjoint_base

REJECT: object

class NewList:
    index: int
    def __init__(self, index: int) -> None: ...

class Append:
    target: int
    index: int
    def __init__(self, target: int, index: int) -> None: ...

class Pick:
    index: int
    def __init__(self, index: int) -> None: ...

@disjoint_base
class Tok:
    type: str
    text: str
    column: int
    def __init__(self, type: str, text: str, column: int) -> None: ...

@disjoint_base
class CompiledLALR:
    def __init__(self, lark: Any, reductions: dict[str, Any]) -> None: ...
    def parse(self, text: str) -> Any: ...
