"""The terms shared by problems, rules and definitions: arguments and predicates.

A predicate is a relation over point names and exact constants
(:class:`~geodsl.lang.constants.Constant`), used in goals, options, rules,
construction definitions and proof steps. It sits below the rulebase
(:mod:`.definitions` builds predicates), so nothing here reads it: the
canonical spelling of a predicate is :func:`geodsl.lang.definitions.canonical`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from .constants import Constant, constant_text
from .errors import Location

Arg = Union[str, Constant]
"""An argument: a point name or an exact constant."""


def span_field() -> Location | None:
    """A source span: excluded from equality, hashing and repr."""
    return field(default=None, compare=False, hash=False, repr=False)


@dataclass(frozen=True, slots=True)
class Predicate:
    """A relation used in goals, options, rules and proof steps."""

    name: str
    args: tuple[Arg, ...]
    negated: bool = False
    span: Location | None = span_field()

    @property
    def points(self) -> tuple[str, ...]:
        return tuple(a for a in self.args if isinstance(a, str))

    def negate(self) -> "Predicate":
        return Predicate(self.name, self.args, not self.negated, self.span)


    def to_text(self, dialect: str = "alphageometry") -> str:
        text = " ".join([self.name, *(a if isinstance(a, str) else constant_text(a, dialect)
                                      for a in self.args)])
        return f"not {text}" if self.negated else text

