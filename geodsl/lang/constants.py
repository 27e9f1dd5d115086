"""Reading and writing exact constants (angles, ratios, lengths).

One reading per kind, never a guess: an angle argument takes ``1pi/4`` or
degrees marked ``45o``; a degrees argument takes ``45`` (AlphaGeometry),
``45o`` (Newclid) or ``1pi/4``; ratios and lengths take ``1/2``, ``0.5``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .limits import DEFAULT_LIMITS

ConstKind = Literal["angle", "degrees", "ratio", "length"]
"""How a constant is read: ``angle`` in units of π (``1pi/4``), ``degrees``
(``45``; Newclid ``45o``), ``ratio`` (``1/2``), ``length`` (``3/2``)."""

CONST_KINDS: tuple[ConstKind, ...] = ("angle", "degrees", "ratio", "length")


@dataclass(frozen=True, slots=True)
class Constant:
    """An exact constant argument. Angles are kept in the unit their clause
    takes (π-fractions for ``angle``, degrees for ``degrees``), so printing is
    exact and round-trips."""

    kind: ConstKind
    value: Fraction

    def to_text(self, dialect: str = "alphageometry") -> str:
        return constant_text(self, dialect)

    def __str__(self) -> str:
        return self.to_text()



_CONST = re.compile(
    r"(?P<sign>-?)(?P<num>\d+(?:\.\d+)?)(?P<pi>_?[pP][iI])?(?:/(?P<den>\d+))?(?P<deg>o)?\Z")


class ConstantSyntax(ValueError):
    """Raised with a message and a hint; the caller adds the location."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


class DigitLimit(ConstantSyntax):
    """A number longer than :attr:`~geodsl.lang.limits.Limits.max_number_digits`."""


def shown(text: str, width: int = 24) -> str:
    """``text`` cut to ``width`` characters for a message (a number may be thousands long)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def check_digits(number: str, subject: str, max_digits: int) -> None:
    """Refuse a number (``\\d+(\\.\\d+)?``) with more than ``max_digits`` digits,
    before it is converted: Python refuses 4,300-digit integers and floats
    overflow far sooner. ``subject`` names it in the message."""
    digits = len(number) - number.count(".")
    if digits > max_digits:
        raise DigitLimit(f"{subject} has {digits:,} digits; the limit is {max_digits}",
                         f"write a number of at most {max_digits} digits, or raise Limits.max_number_digits")


def read_number(text: str, subject: str, max_digits: int = DEFAULT_LIMITS.max_number_digits) -> Fraction:
    """An exact decimal (``-1.25``), its digits checked (see :func:`check_digits`)."""
    check_digits(text.lstrip("-"), subject, max_digits)
    return Fraction(text)


def read_constant(text: str, kind: ConstKind, max_digits: int = DEFAULT_LIMITS.max_number_digits
                  ) -> Constant:
    """Exact value of ``text`` as a constant of ``kind``; each of its numbers
    has at most ``max_digits`` digits."""
    m = _CONST.match(text)
    if m is None:
        raise ConstantSyntax(f"`{shown(text)}` is not a constant",
                             "write constants as 45, 45o, 1/2, 0.5 or 1pi/4")
    check_digits(m["num"], f"constant `{shown(text)}`", max_digits)
    if m["den"] is not None:
        check_digits(m["den"], f"constant `{shown(text)}`", max_digits)
    value = Fraction(m["num"])
    if m["den"] is not None:
        den = int(m["den"])
        if den == 0:
            raise ConstantSyntax(f"`{text}` divides by zero", "the denominator must be positive")
        value /= den
    if m["sign"]:
        value = -value
    has_pi, has_deg = m["pi"] is not None, m["deg"] is not None
    if has_pi and has_deg:
        raise ConstantSyntax(f"`{text}` mixes π and degrees", "write 1pi/4 or 45o, not both")
    if kind == "angle":
        if has_pi:
            return Constant("angle", value)
        if has_deg:
            return Constant("angle", value / 180)
        raise ConstantSyntax(
            f"angle `{text}` has no unit",
            f"write a fraction of π (`{text}pi`... e.g. `1pi/4`) or degrees (`{text}o`)")
    if kind == "degrees":
        return Constant("degrees", value * 180 if has_pi else value)
    if has_pi or has_deg:
        raise ConstantSyntax(f"`{text}` is an angle, but a {kind} is expected",
                             f"a {kind} is a plain number such as 1/2 or 3")
    if kind == "ratio" and value <= 0:
        raise ConstantSyntax(f"ratio `{text}` is not positive", "a ratio of lengths is positive")
    if kind == "length" and value <= 0:
        raise ConstantSyntax(f"length `{text}` is not positive", "a length is positive")
    return Constant(kind, value)


def decimal_text(value: Fraction) -> str | None:
    """``value`` as an exact terminating decimal, if it is one."""
    if value.denominator == 1:
        return str(value.numerator)
    den, twos, fives = value.denominator, 0, 0
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    if den != 1:
        return None
    places = max(twos, fives)
    digits = str(abs(value.numerator) * 10**places // value.denominator).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def constant_text(constant: Constant, dialect: str = "alphageometry") -> str:
    """Canonical spelling; Newclid marks degrees with ``o``."""
    value = constant.value
    if constant.kind == "angle":
        return f"{value.numerator}pi/{value.denominator}"
    if constant.kind == "degrees":
        text = decimal_text(value) or f"{value.numerator}/{value.denominator}"
        return text + ("o" if dialect == "newclid" else "")
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"
