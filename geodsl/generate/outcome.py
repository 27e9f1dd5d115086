"""What making one candidate gives, whatever the kind: a question's record,
its text in the language and its figures, or the reason it was refused;
with what deduplication compares and the sampler's counts. :mod:`.mcq` and
:mod:`.calc` make them, :mod:`.run` keeps, counts and writes them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .dedup import Question


@dataclass
class Outcome:
    """A question (``record``, ``gdl``, ``figures``) or why not (``reason``)."""

    index: int
    reason: str | None = None
    record: dict[str, Any] | None = None
    """The JSON record (docs/generate.md)."""
    gdl: str | None = None
    figures: dict[str, bytes] = field(default_factory=dict)
    question: Question | None = None
    """Multiple choice: what deduplication compares (:mod:`.dedup`)."""
    key: str = ""
    """Calculation: what deduplication compares (the same key, the same problem)."""
    clauses: int = 0
    """Multiple choice: constructions the sampler kept (the rest of its draws are in ``clause_rejections``)."""
    clause_rejections: dict[str, int] = field(default_factory=dict)
    distractor_refusals: dict[str, int] = field(default_factory=dict)
    families: list[str] = field(default_factory=list)
    sampled_depth: int = 0
    notation_fallbacks: int = 0
