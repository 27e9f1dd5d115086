"""Reading prediction and gold records (JSON Lines) for scoring.

Model outputs are untrusted: each line is bounded in size, parsed as JSON
and nothing else, and only the fields named here are read. A malformed line
is a located :class:`~geodsl.lang.errors.GeoDSLError` (file, line, column).
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from pathlib import Path

from geodsl.lang.errors import GeoDSLError, LimitError, SyntaxErrorGDL
from geodsl.lang.parser import check_file_size

from .answers import extract_answer, extract_number
from .metrics import DEFAULT_OPTIONS, CalcScored, Scored

MAX_RECORD_CHARS = 4 * 1024 * 1024
MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024


class RecordError(GeoDSLError):
    """A prediction or gold record that is not what the format says."""

    kind = "record"


def read_jsonl(path: str | Path) -> Iterator[tuple[int, str, dict[str, object]]]:
    """(line number, line text, object) for every non-blank line."""
    name = str(path)
    p = Path(path)
    check_file_size(p, MAX_FILE_BYTES, "score it in parts")
    with p.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if len(raw) > MAX_RECORD_CHARS:
                raise LimitError(f"record is {len(raw):,} bytes; the limit is {MAX_RECORD_CHARS:,}",
                                 source=name, line=number, column=1, text="",
                                 hint="model outputs are capped; truncate the record")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise SyntaxErrorGDL("the line is not UTF-8 text", source=name, line=number,
                                     column=exc.start + 1, text="", hint="save the file as UTF-8") from None
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise SyntaxErrorGDL(f"invalid JSON: {exc.msg}", source=name, line=number, column=exc.colno,
                                     text="", source_line=text.rstrip("\n"),
                                     hint="one JSON object per line") from None
            if not isinstance(obj, dict):
                raise RecordError("a record must be a JSON object", source=name, line=number, column=1,
                                  text="", source_line=text.rstrip("\n"), hint='{"id": ..., "answer": ...}')
            yield number, text.rstrip("\n"), obj


def _record_id(obj: dict[str, object], name: str, number: int, text: str) -> str:
    rid = obj.get("id")
    if not isinstance(rid, (str, int)) or isinstance(rid, bool):
        raise RecordError("the record has no `id` (a string or an integer)", source=name, line=number,
                          column=1, text="", source_line=text, hint='add "id": "..."')
    return str(rid)


def _labels_of(value: object, name: str, number: int, text: str, what: str) -> frozenset[str]:
    if isinstance(value, str):
        letters = [ch.upper() for ch in value if ch.isalpha()]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        letters = [v.strip().upper() for v in value]
    else:
        raise RecordError(f"`{what}` must be a string such as \"BD\" or a list of labels", source=name,
                          line=number, column=1, text="", source_line=text, hint=f'"{what}": "BD"')
    return frozenset(letters)


def _is_label(value: object) -> bool:
    return isinstance(value, str) and len(value) == 1 and value in string.ascii_uppercase


def options_of(value: object, name: str = "<record>", number: int = 1, text: str = "") -> tuple[str, ...]:
    """The option labels a gold record's ``options`` gives (``docs/checker.md``):

    - absent: A, B, C, D;
    - a list whose every entry is one capital letter (``["A", "B", "C"]``):
      those labels;
    - any other list of strings (``["AB ⟂ CD", "x", "y"]``, or ``["x", "y",
      "z"]``): option texts, labelled A, B, C, ... in order;
    - an object: its keys are the labels (``{"A": "AB ⟂ CD", ...}``).
    """
    if value is None:
        return DEFAULT_OPTIONS
    if isinstance(value, dict) and value:
        labels = [str(k).strip() for k in value]
        bad = next((k for k in labels if not _is_label(k)), None)
        if bad is not None:
            raise RecordError(f"`options` is keyed by `{bad}`, which is not a label", source=name, line=number,
                              column=1, text="", source_line=text,
                              hint='key the options by capital letters: {"A": "...", "B": "..."}')
        return tuple(sorted(labels))
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if all(_is_label(v) for v in value):
            if len(set(value)) != len(value):
                dup = next(v for v in value if value.count(v) > 1)
                raise RecordError(f"option label `{dup}` is listed twice", source=name, line=number, column=1,
                                  text="", source_line=text, hint="list each label once")
            return tuple(value)
        if len(value) <= 26:
            return tuple(string.ascii_uppercase[: len(value)])  # option texts, labelled A, B, ...
        raise RecordError(f"`options` lists {len(value)} option texts; at most 26 can be labelled A-Z",
                          source=name, line=number, column=1, text="", source_line=text,
                          hint="key the options by label instead")
    raise RecordError("`options` must be a list of labels, a list of option texts or an object", source=name,
                      line=number, column=1, text="", source_line=text, hint='"options": ["A", "B", "C", "D"]')


def is_calculation(obj: dict[str, object]) -> bool:
    """A calculation problem's gold record: its ``answer`` is a number or an
    object with a numeric ``value`` (``geodsl generate --kind calc``
    writes ``{"text", "value", "formatted", "latex"}``)."""
    answer = obj.get("answer")
    if isinstance(answer, dict):
        return True
    return isinstance(answer, (int, float)) and not isinstance(answer, bool)


def _difficulty(obj: dict[str, object]) -> str | None:
    """A record's difficulty: a label, or the ``level`` of a generated record's difficulty object."""
    value = obj.get("difficulty")
    if isinstance(value, dict):
        level = value.get("level")
        return None if level is None else str(level)
    return None if value is None else str(value)


def load_gold(path: str | Path) -> dict[str, tuple[frozenset[str], tuple[str, ...], str | None]]:
    """id → (gold labels, option labels, difficulty) of the multiple-choice
    records (calculation records are :func:`load_calculation_gold`'s)."""
    name = str(path)
    out: dict[str, tuple[frozenset[str], tuple[str, ...], str | None]] = {}
    seen: set[str] = set()
    for number, text, obj in read_jsonl(path):
        rid = _record_id(obj, name, number, text)
        if rid in seen:
            raise RecordError(f"id `{rid}` appears twice", source=name, line=number, column=1, text="",
                              source_line=text, hint="ids must be unique")
        seen.add(rid)
        if "answer" not in obj:
            raise RecordError("the gold record has no `answer`", source=name, line=number, column=1,
                              text="", source_line=text, hint='"answer": "BD"')
        if is_calculation(obj):
            continue
        options = options_of(obj.get("options"), name, number, text)
        gold = _labels_of(obj["answer"], name, number, text, "answer")
        unknown = sorted(gold - set(options))
        if unknown:
            raise RecordError(f"the answer names `{unknown[0]}`, which is not an option", source=name,
                              line=number, column=1, text="", source_line=text,
                              hint=f"options are {', '.join(options)}")
        out[rid] = (gold, options, _difficulty(obj))
    if not seen:
        raise RecordError(f"no gold record in {name}: the file is empty or blank", source=name, line=1,
                          column=1, text="", hint='one JSON object per line: {"id": ..., "answer": "BD"}')
    return out


def load_calculation_gold(path: str | Path) -> dict[str, tuple[float, str | None]]:
    """id → (gold value, difficulty) of the calculation records."""
    name = str(path)
    out: dict[str, tuple[float, str | None]] = {}
    for number, text, obj in read_jsonl(path):
        if not is_calculation(obj):
            continue
        rid = _record_id(obj, name, number, text)
        answer = obj["answer"]
        value = answer.get("value") if isinstance(answer, dict) else answer
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RecordError("a calculation answer needs a numeric `value`", source=name, line=number, column=1,
                              text="", source_line=text, hint='"answer": {"value": 47.64} or "answer": 47.64')
        out[rid] = (float(value), _difficulty(obj))
    return out


def load_calculations(predictions: str | Path, gold_path: str | Path) -> list[CalcScored]:
    """One :class:`~.metrics.CalcScored` per calculation gold record, in
    the gold file's order: the gold value and the predicted number (an
    ``answer`` number or numeric text, or the number :func:`extract_number`
    finds in ``output``); a gold id without a prediction is no answer."""
    gold = load_calculation_gold(gold_path)
    name = str(predictions)
    predicted: dict[str, tuple[float | None, bool]] = {}
    for number, text, obj in read_jsonl(predictions):
        rid = _record_id(obj, name, number, text)
        if rid not in gold:
            continue
        answer = obj.get("answer")
        if isinstance(answer, (int, float)) and not isinstance(answer, bool):
            value: float | None = float(answer)
        elif isinstance(answer, str):
            value = extract_number(answer)
        elif isinstance(output := obj.get("output"), str):
            value = extract_number(output)
        else:
            raise RecordError("the prediction has neither `answer` nor `output` (text)", source=name,
                              line=number, column=1, text="", source_line=text,
                              hint='{"id": ..., "output": "... the answer is 47.64"}')
        predicted[rid] = (value, obj.get("finish_reason") == "length")
    return [CalcScored(value, predicted.get(rid, (None, False))[0], predicted.get(rid, (None, False))[1],
                       difficulty) for rid, (value, difficulty) in gold.items()]


def load_scored(predictions: str | Path, gold_path: str | Path) -> list[Scored]:
    """One :class:`Scored` per multiple-choice gold record, in the gold
    file's order; a gold id without a prediction counts as no answer.
    Predictions for calculation records are :func:`load_calculations`'."""
    gold = load_gold(gold_path)
    calculations = load_calculation_gold(gold_path)
    name = str(predictions)
    predicted: dict[str, tuple[frozenset[str] | None, bool]] = {}
    seen: set[str] = set()
    for number, text, obj in read_jsonl(predictions):
        rid = _record_id(obj, name, number, text)
        if rid in seen:
            raise RecordError(f"id `{rid}` appears twice", source=name, line=number, column=1, text="",
                              source_line=text, hint="one prediction per problem")
        seen.add(rid)
        if rid in calculations:
            continue
        if rid not in gold:
            raise RecordError(f"id `{rid}` is not in the gold file", source=name, line=number, column=1,
                              text="", source_line=text, hint="predictions and gold must share ids")
        options = gold[rid][1]
        truncated = obj.get("finish_reason") == "length"
        if "answer" in obj:
            labels: frozenset[str] | None = _labels_of(obj["answer"], name, number, text, "answer")
            if labels and not labels <= set(options):
                labels = None
        elif isinstance(output := obj.get("output"), str):
            found = extract_answer(output, options)
            labels = frozenset(found) if found is not None else None
        else:
            raise RecordError("the prediction has neither `answer` nor `output` (text)", source=name,
                              line=number, column=1, text="", source_line=text,
                              hint='{"id": ..., "output": "... [Answer][BD]"}')
        predicted[rid] = (labels, truncated)
    return [Scored(labels, predicted.get(rid, (None, False))[0], options,
                   predicted.get(rid, (None, False))[1], difficulty)
            for rid, (labels, options, difficulty) in gold.items()]
