"""``geodsl aux FILE... [--problem NAME] [--aux TEXT]... [--aux-file F] [--lang L] [--json]``
and ``geodsl aux --batch ITEMS.jsonl [--json]``.

Reads candidate auxiliary constructions (formal, English or Chinese),
checks that each is well defined in the problem's figure and whether it
helps prove the goal (:func:`geodsl.checker.aux.check_aux`), and prints a
report per problem, or a JSON array (schema ``geodsl/schemas/aux.json``).
The candidates of a problem are its ``aux:`` lines, the constructions it
gives after ``|`` (measured against the problem without them), and those of
``--aux-file`` and ``--aux``.

A batch is JSON Lines, one item per line (blank lines and lines starting with
``#`` are skipped)::

    {"problem": "<problem text, or FILE#NAME>", "aux": ["...", "..."], "lang": "zh"}

(``FILE`` may be a shipped dataset's name: ``imo_ag_30#translated_imo_2018_p1``).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace

from .. import datasets
from ..checker.aux import AuxCheck, Written, candidates_of, check_aux
from ..lang.ast import Problem
from ..lang.aux_text import AuxReading
from ..lang.errors import GeoDSLError, ProblemError
from ..lang.parser import iter_parse, parse_problem
from ..batch import Failure, Work
from .batching import BATCH_EXIT_HELP, Batch, JsonArray, Outcome, add_batch_flags, drive, failure_error, finish, key
from .common import (AuxText, add_aux, add_dialect, add_diagrams, add_json, add_problem, add_seed, add_timeout,
                     aux_texts, iter_problems, plural, read_input)

BATCH_KEYS = ("problem", "aux", "lang", "name")


class BatchError(GeoDSLError):
    """A batch line that is not a valid item."""

    kind = "record"


def register(sub: argparse._SubParsersAction) -> None:
    names = ", ".join(datasets.names())
    p = sub.add_parser("aux", help="check candidate auxiliary constructions: readable, well defined, useful",
                       description="Read candidate auxiliary constructions (DSL, English or Chinese), check "
                                   "that each is well defined in the problem's diagrams, and measure whether "
                                   "it helps: the goal proved without and with it (same budget), proof "
                                   "lengths, the points the proof uses, a minimal subset of the candidates "
                                   "that proves the goal, and redundant candidates. A summary line ends the "
                                   "output (on stderr with --json).",
                       epilog=BATCH_EXIT_HELP)
    p.add_argument("files", nargs="*", metavar="FILE",
                   help=f"problem files (AlphaGeometry text or .gdl), '-' for standard input, or a shipped "
                        f"dataset's name ({names})")
    p.add_argument("--batch", metavar="ITEMS.jsonl",
                   help='JSON Lines of {"problem": TEXT or "FILE#NAME", "aux": [TEXT, ...], "lang": L} '
                        "instead of FILEs")
    add_problem(p)
    add_aux(p)
    add_json(p, "aux")
    add_seed(p)
    add_diagrams(p)
    add_timeout(p, per="prover run (the same for the problem alone and with each candidate)")
    p.add_argument("--proofs", action="store_true",
                   help="print the proofs without and with the candidates (in JSON too)")
    p.add_argument("--no-minimal", dest="minimal", action="store_false",
                   help="skip the search for a minimal proving subset (one prover run per candidate)")
    p.add_argument("--no-prove", dest="prove", action="store_false",
                   help="read the candidates and check that they are well defined, but run no prover "
                        "(the proved_* fields are null): for filtering at dataset scale")
    add_dialect(p)
    add_batch_flags(p)
    p.set_defaults(run=run)


@dataclass(frozen=True)
class _Config:
    seed: int
    diagrams: int
    timeout: float
    dialect: str
    minimal: bool
    prove: bool
    proofs: bool
    text: bool


_CONFIG: list[_Config] = []


def _init(config: _Config) -> None:
    _CONFIG[:] = [config]


Payload = tuple[str, "Problem | GeoDSLError", list["Written | AuxReading"], str]


def _task(payload: Payload) -> Outcome:
    """One problem and its candidates: the check, its record and text."""
    config = _CONFIG[0]
    path, problem, candidates, lang = payload
    if isinstance(problem, GeoDSLError):
        failed = AuxCheck(problem.problem, "error", error=problem, file=path)
        return Outcome(failed.to_dict(config.proofs), "", (problem,), failed=True)
    check = check_aux(problem, candidates, lang=lang, seed=config.seed, diagrams=config.diagrams,
                      timeout=config.timeout, dialect=config.dialect, minimal=config.minimal, prove=config.prove)
    check = replace(check, file=path)
    errors: list[GeoDSLError | str] = [] if check.error is None else [check.error]
    errors += [c.error.format() for c in check.candidates if c.error is not None]
    return Outcome(check.to_dict(config.proofs), _text(check, config.proofs) if config.text else "", tuple(errors),
                   failed=bool(errors))


def _failed(work: Work[Payload, list[str]], failure: Failure) -> Outcome:
    path, problem, _, _ = work.payload
    error = failure_error(failure, path, problem)
    name = problem.problem if isinstance(problem, GeoDSLError) else problem.name
    check = AuxCheck(name, "error", error=error, file=path)
    return Outcome(check.to_dict(_CONFIG[0].proofs if _CONFIG else False), "", (error,))


def run(args: argparse.Namespace) -> int:
    if bool(args.files) == bool(args.batch):
        raise _usage("give problem FILEs or --batch ITEMS.jsonl (one of the two)")
    if args.batch and (args.aux or args.aux_file or args.problem):
        raise _usage("--batch items carry their own problems and candidates: drop --aux, --aux-file, --problem")
    texts = aux_texts(args) if not args.batch else []
    config = _Config(args.seed, args.diagrams, args.timeout, args.dialect, args.minimal, args.prove, args.proofs,
                     text=not args.json and not args.out)

    def items() -> Iterator[Item]:
        return _batch(args.batch, args.dialect) if args.batch else _files(args, texts)

    def works() -> Iterator[Work[Payload, list[str]]]:
        for path, problem, lines, candidates, lang in items():
            name = problem.problem if isinstance(problem, GeoDSLError) else problem.name
            yield Work(key(path, name), (path, problem, candidates, lang), lines)

    batch = Batch("aux", _task, _failed, Tally(), _init, (config,), count=lambda: sum(1 for _ in items()))
    json_out = JsonArray(sys.stdout) if args.json else None
    status, stats = drive(args, batch, works(), json_out=json_out)
    if json_out is not None:
        json_out.close()
        sys.stdout.write("\n")
    finish(args, batch, stats)
    return status


def _usage(message: str) -> GeoDSLError:
    from .common import UsageError
    return UsageError(message, hint="geodsl aux FILE --aux TEXT, or geodsl aux --batch items.jsonl")


Item = tuple[str, "Problem | GeoDSLError", list[str], list["Written | AuxReading"], str]


def _files(args: argparse.Namespace, texts: list[AuxText]) -> Iterator[Item]:
    """Each problem of the FILEs with its candidates: its own, then the command line's."""
    for path, item, lines in iter_problems(args.files, args.problem, args.dialect):
        if isinstance(item, GeoDSLError):
            yield path, item, lines, [], args.lang
            continue
        base, own = candidates_of(item)
        candidates: list[Written | AuxReading] = [*own, *(Written(t.text, t.source, t.line) for t in texts)]
        yield path, base, lines, candidates, args.lang


def _batch(path: str, dialect: str) -> Iterator[Item]:
    text, source = read_input(path)
    files: dict[str, dict[str, Problem | GeoDSLError]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue  # blank lines and `#` comments (what each item is, where it comes from)
        lines = [raw]
        try:
            item = _item(raw, source, number)
            problem = _problem(str(item["problem"]), source, number, raw, files, dialect)
        except GeoDSLError as exc:
            yield source, exc.located(source=source, source_line=raw), lines, [], "auto"
            continue
        aux = item.get("aux", [])
        texts = [aux] if isinstance(aux, str) else [str(t) for t in aux]  # type: ignore[attr-defined]  # a list: _item checked
        lang = str(item.get("lang", "auto"))
        candidates: list[Written | AuxReading] = [
            Written(t, f"{source}:{number}:aux[{i}]", 1, lang) for i, t in enumerate(texts)]
        if isinstance(problem, Problem):
            base, own = candidates_of(problem)
            if "name" in item:
                base = replace(base, name=str(item["name"]))
            yield source, base, lines, [*own, *candidates], lang
        else:
            yield source, problem, lines, [], "auto"


def _item(raw: str, source: str, number: int) -> dict[str, object]:
    def bad(message: str, hint: str) -> BatchError:
        return BatchError(message, source=source, line=number, column=1, text=raw.strip()[:40], hint=hint,
                          source_line=raw)

    try:
        item = json.loads(raw)
    except json.JSONDecodeError as exc:
        err = bad(f"not JSON: {exc.msg}", 'each line is one object: {"problem": "...", "aux": ["..."]}')
        err.column = exc.colno
        raise err from None
    if not isinstance(item, dict):
        raise bad(f"a batch item is a JSON object, got {type(item).__name__}",
                  'each line is one object: {"problem": "...", "aux": ["..."]}')
    unknown = [k for k in item if k not in BATCH_KEYS]
    if unknown:
        raise bad(f"unknown key `{unknown[0]}` in a batch item", f"keys: {', '.join(BATCH_KEYS)}")
    if not isinstance(item.get("problem"), str):
        raise bad("a batch item needs \"problem\": the problem's text or FILE#NAME",
                  '{"problem": "a b c = triangle a b c ? perp a b a c", "aux": ["..."]}')
    aux = item.get("aux", [])
    if not (isinstance(aux, str) or (isinstance(aux, list) and all(isinstance(a, str) for a in aux))):
        raise bad("\"aux\" is a list of candidate texts", '"aux": ["过点A作AD⊥BC于D", "d = foot d a b c"]')
    lang = item.get("lang", "auto")
    if lang not in ("auto", "formal", "en", "zh"):
        raise bad(f"unknown \"lang\" `{lang}`", "lang: auto, formal, en or zh")
    return item


def _problem(ref: str, source: str, number: int, raw: str, files: dict[str, dict[str, Problem | GeoDSLError]],
             dialect: str) -> Problem | GeoDSLError:
    """The item's problem: FILE#NAME (a file or a shipped dataset), or the text itself."""
    head, sep, name = ref.rpartition("#")
    if sep and head.strip() and (os.path.exists(head.strip()) or datasets.lookup(head.strip()) is not None):
        path = head.strip()
        if path not in files:
            text, shown = read_input(path)
            table: dict[str, Problem | GeoDSLError] = {}
            for item in iter_parse(text, shown, dialect=dialect):
                key = item.problem if isinstance(item, GeoDSLError) else item.name
                if key is not None:
                    table.setdefault(key, item)
            files[path] = table
        found = files[path].get(name.strip())
        if found is None:
            listed = ", ".join(list(files[path])[:6])
            return ProblemError(f"no problem named `{name.strip()}` in {path}", source=source, line=number,
                                column=1, text=name.strip(), source_line=raw,
                                hint=f"problems: {listed}, ..." if listed else "that file has no named problem")
        return found
    try:
        return parse_problem(ref.replace("\\n", "\n"), f"{source}:{number}", dialect=dialect)
    except GeoDSLError as exc:
        return exc


class Tally:
    """``N problems, C candidates: R read, W well defined, U useful, X redundant; P goals proved with
    candidates (A alone); E errors; T s (K candidates/s)``, from the records."""

    def __init__(self) -> None:
        self.problems = self.cands = self.read = self.defined = self.redundant = 0
        self.useful = self.alone = self.withs = self.errors = 0

    def add(self, record: dict[str, object]) -> None:
        self.problems += 1
        cands: list[dict[str, object]] = record.get("candidates") or []  # type: ignore[assignment]  # aux.json
        self.cands += len(cands)
        self.read += sum(c["error"] is None for c in cands)
        self.defined += sum(c["well_defined"] is True for c in cands)
        self.redundant += sum(c["redundant"] is True for c in cands)
        self.useful += sum(1 for c in cands if c["proved"] and record.get("proved_without") is False)
        self.alone += record.get("proved_without") is True
        self.withs += record.get("proved_with") is True
        self.errors += (record.get("status") == "error") + sum(c["error"] is not None for c in cands)

    def line(self, seconds: float) -> str:
        rate = f" ({self.cands / seconds:.1f} candidates/s)" if seconds > 0 and self.cands else ""
        return (f"{plural(self.problems, 'problem')}, {plural(self.cands, 'candidate')}: {self.read} read, "
                f"{self.defined} well defined, {self.useful} useful, {self.redundant} redundant; goals proved: "
                f"{self.alone} alone, {self.withs} with candidates; {plural(self.errors, 'error')}; "
                f"{seconds:.2f} s{rate}")

    def rows(self) -> list[tuple[str, str]]:
        return [("problems", str(self.problems)), ("candidates", str(self.cands)), ("read", str(self.read)),
                ("well defined", str(self.defined)), ("useful", str(self.useful)),
                ("redundant", str(self.redundant)), ("goals proved alone", str(self.alone)),
                ("goals proved with candidates", str(self.withs)), ("errors", str(self.errors))]


def _text(check: AuxCheck, proofs: bool) -> str:
    buf = io.StringIO()

    def say(*parts: object, end: str = "\n") -> None:
        print(*parts, end=end, file=buf)

    say(f"problem: {check.problem or '(unnamed)'}  ({check.file})")
    if check.status == "error":
        say("  error: the premise could not be realized\n")
        return buf.getvalue()
    if check.goal is None:
        say("goal: (none) — the candidates are read and checked, nothing is proved")
    elif check.goal_true is False:
        say(f"goal: {check.goal}: false in the diagram — no candidate can prove it")
    else:
        alone = _proved(check.proved_without, check.proof_steps_without)
        with_ = _proved(check.proved_with, check.proof_steps_with)
        line = f"goal: {check.goal}: alone {alone}; with the candidates {with_}"
        if check.minimal is not None and check.proved_without is False:
            line += f"; minimal subset {{{', '.join(map(str, check.minimal))}}}"
        if check.used_points:
            line += f"; the proof uses {', '.join(check.used_points)}"
        say(line)
    for c in check.candidates:
        head = f"  [{c.index}]{' ' + c.label if c.label else ''} {c.lang or '?'}: {c.text}"
        if c.error is not None:
            say(f"{head}\n      error: {c.error.message}")
            continue
        assert c.reading is not None
        parts = []
        if c.reading.constructions:
            parts.append("; ".join(c.reading.construction_texts))
        if c.reading.segments:
            parts.append("segments " + ", ".join(a.upper() + b.upper() for a, b in c.reading.segments))
        if c.reading.claims:
            parts.append("claims: " + " | ".join(c.reading.claims))
        say(f"{head}\n      reads: {' — '.join(parts) or '(nothing to construct)'}")
        if not c.well_defined:
            say(f"      not well defined: {c.reason}")
            continue
        verdict = "well defined" + (", redundant" if c.redundant else "")
        if c.aliases:
            verdict += " (" + ", ".join(f"{a} is {b}" for a, b in c.aliases) + ")"
        if c.proved is not None:
            verdict += f"; alone with the problem {_proved(c.proved, c.proof_steps)}"
        if c.used_points:
            verdict += f"; the proof uses {', '.join(c.used_points)}"
        say(f"      {verdict}")
    if proofs:
        for title, proof in (("without the candidates", check.proof_without), ("with the candidates", check.proof_with)):
            if proof is not None:
                say(f"proof {title}:")
                say(proof.to_text(), end="")
    say()
    return buf.getvalue()


def _proved(proved: bool | None, steps: int | None) -> str:
    if proved is None:
        return "—"
    return f"proved ({plural(steps or 0, 'step')})" if proved else "not proved"
