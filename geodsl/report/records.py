"""Reading a run's results and saying what each record is.

A results file is what ``--out`` writes (JSON Lines, one record per
problem) or what ``--json`` prints (an array, or ``check --audit``'s
``{"problems": [...], "audit": [...]}``). Each record is recognised by its
fields — the schemas of ``geodsl/schemas/`` — as a ``check``, ``prove``,
``aux``, ``grade``, ``realize`` or ``generate`` record, and reduced to one
:class:`Row` of the report's table: its status, a verdict in a word, the
statements to highlight in its figures, the seconds it took.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..lang.errors import GeoDSLError
from ..proofs import certificate_text

KINDS = ("check", "prove", "aux", "grade", "realize", "generate")


class ResultsError(GeoDSLError):
    """A results file that is not a run's records."""

    kind = "results"


def read_results(path: str) -> list[dict[str, object]]:
    """Every record of ``path`` (JSON Lines, or a JSON array/object)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise ResultsError(f"cannot read {path}: {exc.strerror or exc}", source=path,
                           hint="give the file an --out or --json run wrote") from None
    except UnicodeDecodeError as exc:
        raise ResultsError(f"{path} is not UTF-8 text ({exc.reason})", source=path,
                           hint="give the file an --out or --json run wrote") from None
    stripped = text.lstrip()
    if not stripped:
        raise ResultsError(f"{path} is empty: no records", source=path, line=1, column=1,
                           hint="give the file an --out or --json run wrote")
    if stripped.startswith("["):
        return _whole(text, path)
    records: list[dict[str, object]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == 1 and stripped.startswith("{") and "\n" in text.strip():
                return _whole(text, path)  # an indented JSON object (check --audit)
            raise ResultsError(f"line {number} is not JSON: {exc.msg}", source=path, line=number,
                               column=exc.colno, text=line[exc.pos:exc.pos + 10], source_line=line,
                               hint="each line of an --out file is one JSON record") from None
        if not isinstance(value, dict):
            raise ResultsError(f"line {number} is not a JSON object", source=path, line=number, column=1,
                               source_line=line, hint="each line of an --out file is one JSON record")
        records.extend(_unwrap(value, path))
    return records


def _whole(text: str, path: str) -> list[dict[str, object]]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ResultsError(f"not JSON: {exc.msg}", source=path, line=exc.lineno, column=exc.colno,
                           hint="give the file an --out or --json run wrote") from None
    if isinstance(value, list):
        bad = [i for i, v in enumerate(value) if not isinstance(v, dict)]
        if bad:
            raise ResultsError(f"item {bad[0]} of the array is not a JSON object", source=path,
                               hint="give the file an --out or --json run wrote")
        return value
    if isinstance(value, dict):
        return _unwrap(value, path)
    raise ResultsError("the file holds neither records nor an array of them", source=path,
                       hint="give the file an --out or --json run wrote")


def _unwrap(value: dict[str, object], path: str) -> list[dict[str, object]]:
    problems = value.get("problems")
    if isinstance(problems, list) and "audit" in value:  # check --json --audit
        return [p for p in problems if isinstance(p, dict)]
    return [value]


def kind_of(record: dict[str, object]) -> str | None:
    """Which command wrote ``record`` (one of :data:`KINDS`), or None."""
    if "candidates" in record and "proved_without" in record:
        return "aux"
    if "steps" in record and "acs" in record:
        return "grade"
    if "goals" in record and "verdict" in record:
        return "prove"
    if "options" in record and "answer_key" in record:
        return "check"
    if "diagrams" in record or ("status" in record and "file" in record and "problem" in record
                                and "options" not in record and "goals" not in record):
        return "realize"
    if isinstance(record.get("premise"), str) and "kind" in record and "id" in record:
        return "generate"
    return None


@dataclass
class Statement:
    """An option or goal of a record: what its figure highlights."""

    label: str
    predicate: str
    verdict: str | None
    """proved, true_unproved, false; or for generated problems key/distractor."""
    keyed: bool | None = None
    proof: dict[str, object] | str | None = None
    """The proof: a proof object (the schemas' ``proof``), or text."""
    certificate: str | None = None
    """An algebraic proof's certificate, as ``geodsl prove`` prints it."""


@dataclass
class Row:
    """One record as the report shows it."""

    index: int
    kind: str
    file: str | None
    problem: str | None
    status: str
    verdict: str
    """A word for the table: proved, false, 3/4 options, PCS 1, error kind, ..."""
    seconds: float | None
    error: dict[str, object] | None
    statements: list[Statement] = field(default_factory=list)
    record: dict[str, object] = field(default_factory=dict)
    text: str | None = None
    """The problem's text when the record carries it (generated problems)."""


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _list(value: object) -> list[dict[str, object]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def row_of(index: int, record: dict[str, object]) -> Row:
    """The :class:`Row` of one record (any kind; unknown kinds show their status only)."""
    kind = kind_of(record) or "record"
    error = record.get("error") if isinstance(record.get("error"), dict) else None
    status = str(record.get("status", "ok"))
    row = Row(index, kind, _str(record.get("file")), _str(record.get("problem")), status, status,
              _number(record.get("seconds")), error, record=record)  # type: ignore[arg-type]  # a dict: checked
    if kind == "check":
        keys = record.get("answer_key")
        for o in _list(record.get("options")):
            row.statements.append(Statement(str(o["label"]), str(o["predicate"]), _str(o.get("verdict")),
                                            None if not isinstance(keys, list) else o["label"] in keys,
                                            o.get("proof"),  # type: ignore[arg-type]  # a proof object or null
                                            certificate=_certificate(o)))
        row.verdict = _tally([s.verdict for s in row.statements])
        if record.get("key_consistent") is False:
            row.verdict += "; key disagrees"
    elif kind == "prove":
        for g in _list(record.get("goals")):
            row.statements.append(Statement(str(g["label"]), str(g["predicate"]), _str(g.get("verdict")),
                                            proof=g.get("proof"),  # type: ignore[arg-type]  # a proof object or null
                                            certificate=_certificate(g)))
        row.verdict = str(record.get("verdict") or ("no goal" if status == "ok" else status))
    elif kind == "aux":
        goal = _str(record.get("goal"))
        if goal:
            row.statements.append(Statement("goal", goal, "proved" if record.get("proved_with") else None,
                                            proof=record.get("proof_with")))  # type: ignore[arg-type]  # a proof or null
        useful = record.get("proved_with") and record.get("proved_without") is False
        row.verdict = ("helps" if useful else "proved alone" if record.get("proved_without") else
                       "proved" if record.get("proved_with") else "not proved") if status == "ok" else status
    elif kind == "grade":
        pcs = _number(record.get("pcs"))
        first = record.get("first_error")
        row.verdict = (f"PCS {pcs:g}" if pcs is not None else "unscored") + (
            f"; first error at step {first}" if first else "") if status == "ok" else status
    elif kind == "realize":
        row.verdict = f"{len(_list(record.get('diagrams')))} diagrams" if status == "ok" else status
    elif kind == "generate":
        row.problem = _str(record.get("id"))
        row.file = None
        answer = record.get("answer")
        given = record.get("proofs")
        proofs: dict[str, object] = given if isinstance(given, dict) else {}
        options = record.get("options")
        if isinstance(options, dict):
            for label, pred in options.items():
                keyed = isinstance(answer, list) and label in answer
                proof = proofs.get(label)
                row.statements.append(Statement(str(label), str(pred), "key" if keyed else "distractor", keyed,
                                                proof if isinstance(proof, (str, dict)) else None))
        row.text = _problem_text(record)
        row.verdict = f"{sum(bool(s.keyed) for s in row.statements)} keyed of {len(row.statements)}" \
            if row.statements else str(record.get("kind"))
    if status == "error" and isinstance(error, dict):
        row.verdict = str(error.get("kind", "error"))
    return row


def _problem_text(record: dict[str, object]) -> str | None:
    premise = record.get("premise")
    if not isinstance(premise, str):
        return None
    lines = [f"problem: {record.get('id')}", premise]
    options = record.get("options")
    if isinstance(options, dict):
        lines += [f"option {label}: {pred}" for label, pred in options.items()]
    return "\n".join(lines) + "\n"


def _tally(verdicts: list[str | None]) -> str:
    if not verdicts:
        return "nothing to decide"
    if len(verdicts) == 1:
        return str(verdicts[0])
    counts = {v: verdicts.count(v) for v in ("proved", "true_unproved", "false") if v in verdicts}
    return ", ".join(f"{n} {v}" for v, n in counts.items())


def _certificate(statement: dict[str, object]) -> str | None:
    """The text of an option's or goal's algebraic certificate, if it has one."""
    cert = statement.get("certificate")
    return certificate_text(cert) if isinstance(cert, dict) else None


def _str(value: object) -> str | None:
    return None if value is None else str(value)


def rows(records: list[dict[str, object]]) -> Iterator[Row]:
    for i, record in enumerate(records):
        yield row_of(i, record)


def resolve(file: str, results_path: str) -> str:
    """Where a record's ``file`` is: as written (from the current folder, or
    a shipped dataset's name), or beside the results file."""
    if os.path.exists(file):
        return file
    beside = os.path.join(os.path.dirname(os.path.abspath(results_path)), file)
    return beside if os.path.exists(beside) else file
