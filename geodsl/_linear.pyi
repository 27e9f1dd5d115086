# Stub of the compiled module geodsl._linear (ext/linear.pyx). Forms and
# reasons map columns (or equation ids) to exact rationals (int or Fraction).
from collections.abc import Mapping
from fractions import Fraction

_Number = int | Fraction

def rref_reduce(rows: dict[int, dict[int, _Number]], reasons: dict[int, dict[int, _Number]],
                form: Mapping[int, _Number]) -> tuple[dict[int, _Number], dict[int, _Number]]: ...
def rref_add(rows: dict[int, dict[int, _Number]], reasons: dict[int, dict[int, _Number]],
             occurs: dict[int, set[int]], form: Mapping[int, _Number], ident: int) -> bool: ...
def hermite_reduce(rows: dict[int, dict[int, _Number]], reasons: dict[int, dict[int, int]],
                   form: Mapping[int, _Number]) -> tuple[dict[int, _Number], dict[int, _Number]]: ...
def hermite_reduce_rational(rows: dict[int, dict[int, _Number]], reasons: dict[int, dict[int, int]],
                            form: Mapping[int, _Number]) -> tuple[dict[int, _Number], dict[int, _Number]]: ...
def hermite_add(rows: dict[int, dict[int, _Number]], reasons: dict[int, dict[int, int]],
                form: Mapping[int, _Number], ident: int) -> bool: ...
