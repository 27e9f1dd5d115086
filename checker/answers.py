"""Answer extraction from raw model output (untrusted text).

Recognised, in this order, the last occurrence winning within a form:

1. GeoChallenge's tag ``[Answer][BD]`` and its Chinese form ``[答案][BD]``
   (also with a colon or spaces inside: ``[Answer]: [B, D]``);
2. an answer line: ``Answer: B, D``, ``Final answer: BD``, ``答案：BD``,
   ``The answer is B and D``;
3. a bold answer at the end: ``**BD**`` or ``**B, D**``.

An extracted answer is a set of option labels. Only labels among the
problem's options count; text that names none is "no answer". The text is
never evaluated, and only its last :data:`MAX_SCAN_CHARS` characters are
scanned, so a hostile output costs bounded time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MAX_SCAN_CHARS = 20_000

_LABELS = r"[A-Za-z](?:\s*(?:,|、|，|\band\b|&)?\s*[A-Za-z])*"
_TAG = re.compile(r"\[\s*(?:answer|答案)\s*\]\s*[:：]?\s*\[\s*(" + _LABELS + r")\s*\]", re.IGNORECASE)
_LINE = re.compile(r"(?:final\s+answer|answer|答案)\s*(?:is|:|：|=)\s*\**\s*\(?(" + _LABELS + r")\)?\**\s*(?:[.。]|$)",
                   re.IGNORECASE | re.MULTILINE)
_BOLD = re.compile(r"\*\*\s*\(?(" + _LABELS + r")\)?\s*\*\*\s*[.。]?\s*$")


def _labels(found: str, allowed: Iterable[str]) -> tuple[str, ...] | None:
    allowed_set = {a.upper() for a in allowed}
    letters = re.findall(r"[A-Za-z]", re.sub(r"\band\b", " ", found, flags=re.IGNORECASE))
    picked = sorted({ch.upper() for ch in letters})
    if not picked or any(ch not in allowed_set for ch in picked):
        return None
    return tuple(picked)


def extract_answer(text: str, options: Iterable[str] = "ABCD") -> tuple[str, ...] | None:
    """The option labels a model's output commits to, or ``None`` if it commits to none."""
    tail = text[-MAX_SCAN_CHARS:]
    allowed = tuple(options)
    for pattern in (_TAG, _LINE, _BOLD):
        matches = list(pattern.finditer(tail))
        for match in reversed(matches):
            labels = _labels(match.group(1), allowed)
            if labels is not None:
                return labels
    return None


_NUMBER = r"[-−]?\d+(?:,\d{3})*(?:\.\d+)?(?:\s*/\s*\d+(?:\.\d+)?)?"
_NUMBER_TAG = re.compile(r"\[\s*(?:answer|答案)\s*\]\s*[:：]?\s*\[?\s*(" + _NUMBER + r")", re.IGNORECASE)
_NUMBER_LINE = re.compile(r"(?:final\s+answer|answer|答案|结果)\s*(?:is|:|：|=|为|是)?\s*(?:approximately|about|≈|约)?\s*\**\s*("
                          + _NUMBER + r")", re.IGNORECASE)
_ANY_NUMBER = re.compile(_NUMBER)


def _value(text: str) -> float | None:
    text = text.replace("−", "-").replace(",", "").replace(" ", "")
    try:
        if "/" in text:
            num, den = text.split("/")
            return float(num) / float(den) if float(den) != 0 else None
        return float(text)
    except ValueError:
        return None


def extract_number(text: str) -> float | None:
    """The number a model's output gives as its final answer to a
    calculation problem, or ``None``: the number after ``[Answer]``, else
    after the last "answer is" / "Answer:" / "答案：", else the last number
    in the text (decimals, thousands separators and fractions such as
    ``3/4``; radicals and π are not evaluated)."""
    tail = text[-MAX_SCAN_CHARS:]
    for pattern in (_NUMBER_TAG, _NUMBER_LINE):
        matches = list(pattern.finditer(tail))
        if matches:
            return _value(matches[-1].group(1))
    numbers = list(_ANY_NUMBER.finditer(tail))
    return _value(numbers[-1].group(0)) if numbers else None
