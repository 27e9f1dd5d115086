"""A question's text in English and Chinese: the premise as sentences
(:mod:`geodsl.lang.words`), the options in textbook notation
(:mod:`geodsl.lang.textbook`), and the prompt around them.

An option's English text is read back with the textbook reader against the
figure (``read_notation(..., dialect="textbook", figure=...)``); when what
it reads does not have the option's truth in the figure — a statement the
textbook forms cannot say faithfully — both languages fall back to
AlphaGeometry's notation (:func:`geodsl.lang.notation.to_notation`), as
GeoChallenge's own options do (``∠(BD-FM) = ∠FHC``), and the option is
counted in ``notation_fallbacks``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..lang.ast import Predicate, Problem
from ..lang.errors import GeoDSLError
from ..lang.notation import read_notation, to_notation
from ..lang.textbook import to_textbook
from ..lang.words import premise_sentences
from ..realizer import Diagram

PROMPTS = {
    "en": ("Which of the options below are correct? One or more are. Give the letters of all correct "
           "options first, then reason about each option step by step. Answer in this format: "
           "[Answer][letters] [Option A] (reasoning) [Option B] (reasoning) [Option C] (reasoning) "
           "[Option D] (reasoning)"),
    "zh": ("下列选项中正确的是哪些？（至少一项正确）请先给出所有正确选项的字母，再对每个选项逐一推理。"
           "请按照以下格式回答： [答案][选项字母] [选项A]（推理） [选项B]（推理） [选项C]（推理） [选项D]（推理）"),
}
"""The instruction after the options; the tags ``[Answer]``/``[答案]`` and
``[Option X]``/``[选项X]`` are GeoChallenge's response format, which
:func:`geodsl.checker.answers.extract_answer` reads."""


class FigureView:
    """A diagram as the textbook printer and reader ask it: orientations."""

    def __init__(self, diagram: Diagram) -> None:
        self.coords = diagram.all_coords

    def orientation(self, a: str, b: str, c: str) -> int:
        za, zb, zc = self.coords[a], self.coords[b], self.coords[c]
        cross = ((zb - za).conjugate() * (zc - za)).imag
        scale = max(abs(zb - za), abs(zc - za), 1e-12)
        return 0 if abs(cross) <= 1e-9 * scale * scale else (1 if cross > 0 else -1)

    def angle_at(self, vertex: str) -> tuple[str, str] | None:
        return None


def option_texts(predicate: Predicate, diagram: Diagram, langs: Sequence[str]) -> tuple[dict[str, str], bool]:
    """The option in each language, and whether it fell back to proof notation."""
    view = FigureView(diagram)
    truth = diagram.holds(predicate)
    try:
        english = to_textbook(predicate, view, "en")
        read = read_notation(english, dialect="textbook", figure=view)
        faithful = bool(read) and all(diagram.holds(p) == truth for p in read)
    except GeoDSLError:
        faithful = False
    if not faithful:
        fallback = to_notation(predicate)
        return {lang: fallback for lang in langs}, True
    return {lang: to_textbook(predicate, view, lang) for lang in langs}, False


def premise_text(problem: Problem, lang: str) -> str:
    joiner = "" if lang == "zh" else " "
    return joiner.join(premise_sentences(problem.premise.constructions, lang))


def question_text(premise: str, options: Mapping[str, str], lang: str) -> str:
    """The whole prompt: premise, options, instruction."""
    listed = "\n".join(f"{label}. {text}" for label, text in options.items())
    return f"{premise}\n{listed}\n{PROMPTS[lang]}"
