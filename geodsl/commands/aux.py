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
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import replace

from .. import datasets
from ..checker.aux import AuxCheck, Written, candidates_of, check_aux
from ..lang.ast import Problem
from ..lang.aux_text import AuxReading
from ..lang.errors import GeoDSLError, ProblemError
from ..lang.parser import iter_parse, parse_problem
from .common import (EXIT_INPUT, EXIT_OK, EXIT_STATUS_HELP, AuxText, add_aux, add_dialect, add_diagrams,
                     add_json, add_problem, add_seed, add_timeout, aux_texts, located, iter_problems, plural,
                     read_input)

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
                       epilog=EXIT_STATUS_HELP)
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
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    start = time.monotonic()
    if bool(args.files) == bool(args.batch):
        raise _usage("give problem FILEs or --batch ITEMS.jsonl (one of the two)")
    if args.batch and (args.aux or args.aux_file or args.problem):
        raise _usage("--batch items carry their own problems and candidates: drop --aux, --aux-file, --problem")
    failed = False
    results: list[AuxCheck] = []
    texts = aux_texts(args) if not args.batch else []
    items = _batch(args.batch, args.dialect) if args.batch else _files(args, texts)
    for path, problem, lines, candidates, lang in items:
        if isinstance(problem, GeoDSLError):
            failed = True
            print(located(problem, lines).format(), file=sys.stderr)
            results.append(AuxCheck(problem.problem, "error", error=problem, file=path))
            continue
        check = check_aux(problem, candidates, lang=lang, seed=args.seed, diagrams=args.diagrams,
                          timeout=args.timeout, dialect=args.dialect, minimal=args.minimal, prove=args.prove)
        check = replace(check, file=path)
        if check.error is not None:
            failed = True
            print(located(check.error, lines).format(), file=sys.stderr)
        for c in check.candidates:
            if c.error is not None:
                failed = True
                print(c.error.format(), file=sys.stderr)
        results.append(check)
        if not args.json:
            _print(check, args.proofs)
    seconds = time.monotonic() - start
    line = summary(results, seconds)
    if args.json:
        json.dump([r.to_dict(args.proofs) for r in results], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        print(line, file=sys.stderr)
    else:
        print(line)
    return EXIT_INPUT if failed else EXIT_OK


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


def summary(results: list[AuxCheck], seconds: float) -> str:
    """``N problems, C candidates: R read, W well defined, U useful, X redundant; P goals proved with
    candidates (A alone); E errors; T s (K candidates/s)``."""
    cands = [c for r in results for c in r.candidates]
    read = sum(c.error is None for c in cands)
    defined = sum(c.well_defined is True for c in cands)
    redundant = sum(c.redundant is True for c in cands)
    useful = sum(1 for r in results for c in r.candidates if c.proved and r.proved_without is False)
    alone = sum(r.proved_without is True for r in results)
    withs = sum(r.proved_with is True for r in results)
    errors = sum(r.status == "error" for r in results) + sum(c.error is not None for c in cands)
    rate = f" ({len(cands) / seconds:.1f} candidates/s)" if seconds > 0 and cands else ""
    return (f"{plural(len(results), 'problem')}, {plural(len(cands), 'candidate')}: {read} read, "
            f"{defined} well defined, {useful} useful, {redundant} redundant; goals proved: {alone} alone, "
            f"{withs} with candidates; {plural(errors, 'error')}; {seconds:.2f} s{rate}")


def _print(check: AuxCheck, proofs: bool) -> None:
    print(f"problem: {check.problem or '(unnamed)'}  ({check.file})")
    if check.status == "error":
        print("  error: the premise could not be realized\n")
        return
    if check.goal is None:
        print("goal: (none) — the candidates are read and checked, nothing is proved")
    elif check.goal_true is False:
        print(f"goal: {check.goal}: false in the diagram — no candidate can prove it")
    else:
        alone = _proved(check.proved_without, check.proof_steps_without)
        with_ = _proved(check.proved_with, check.proof_steps_with)
        line = f"goal: {check.goal}: alone {alone}; with the candidates {with_}"
        if check.minimal is not None and check.proved_without is False:
            line += f"; minimal subset {{{', '.join(map(str, check.minimal))}}}"
        if check.used_points:
            line += f"; the proof uses {', '.join(check.used_points)}"
        print(line)
    for c in check.candidates:
        head = f"  [{c.index}]{' ' + c.label if c.label else ''} {c.lang or '?'}: {c.text}"
        if c.error is not None:
            print(f"{head}\n      error: {c.error.message}")
            continue
        assert c.reading is not None
        parts = []
        if c.reading.constructions:
            parts.append("; ".join(c.reading.construction_texts))
        if c.reading.segments:
            parts.append("segments " + ", ".join(a.upper() + b.upper() for a, b in c.reading.segments))
        if c.reading.claims:
            parts.append("claims: " + " | ".join(c.reading.claims))
        print(f"{head}\n      reads: {' — '.join(parts) or '(nothing to construct)'}")
        if not c.well_defined:
            print(f"      not well defined: {c.reason}")
            continue
        verdict = "well defined" + (", redundant" if c.redundant else "")
        if c.aliases:
            verdict += " (" + ", ".join(f"{a} is {b}" for a, b in c.aliases) + ")"
        if c.proved is not None:
            verdict += f"; alone with the problem {_proved(c.proved, c.proof_steps)}"
        if c.used_points:
            verdict += f"; the proof uses {', '.join(c.used_points)}"
        print(f"      {verdict}")
    if proofs:
        for title, proof in (("without the candidates", check.proof_without), ("with the candidates", check.proof_with)):
            if proof is not None:
                print(f"proof {title}:")
                print(proof.to_text(), end="")
    print()


def _proved(proved: bool | None, steps: int | None) -> str:
    if proved is None:
        return "—"
    return f"proved ({plural(steps or 0, 'step')})" if proved else "not proved"
