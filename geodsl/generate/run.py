"""A generation run: candidates 0, 1, 2, ... made (in parallel), kept in
index order unless a duplicate of a kept one, until ``n`` questions; then
difficulty levels, and the files.

``DIR/problems.jsonl``
    one record per question (fields: docs/generate.md; schema
    ``geodsl/schemas/generate.json``);
``DIR/problems.gdl``
    the same questions in the language: premise, options and ``answer:``
    lines for multiple-choice questions (``geodsl check DIR/problems.gdl``
    re-verifies them), the placed figure and the question as metadata for
    calculation problems;
``DIR/figures/ID.png``, ``DIR/figures/ID.svg``
    a figure per question;
``DIR/summary.json``
    counts (candidates, rejection reasons, distributions) and timing — the
    only file whose bytes differ between two runs with the same arguments
    (its ``seconds`` and ``per_minute`` fields).

At most :data:`CANDIDATES_PER_QUESTION` candidates per question are made:
a run that cannot find ``n`` questions within that ends with fewer and says
so (``summary.json``: ``complete`` false), it never loops without bound.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..lang.errors import GeoDSLError
from . import difficulty
from ..batch import Failure, Settings as BatchSettings, Work, run as run_batch
from .dedup import Deduplicator
from .outcome import Outcome

KINDS = ("mcq", "calc")
CANDIDATES_PER_QUESTION = 40
MAX_QUESTIONS = 1_000_000


@dataclass(frozen=True)
class Job:
    """One candidate to make (picklable: it crosses into a worker)."""

    kind: str
    seed: int
    index: int
    depth: int
    langs: tuple[str, ...]
    distractor_shapes: bool = True


def ident(kind: str, seed: int, index: int) -> str:
    return f"{kind}-{seed}-{index:06d}"


def _failed(work: Work[Job, None], failure: Failure) -> Outcome:
    """A candidate whose worker crashed, ran out of memory or raised: counted under its kind."""
    return Outcome(work.payload.index, reason=f"failure_{failure.kind}")


def _work(job: Job) -> Outcome:
    if job.kind == "mcq":
        from .mcq import Settings, make

        return make(job.seed, job.index, Settings(depth=job.depth, langs=job.langs),
                    ident(job.kind, job.seed, job.index))
    from .calc import make as make_calc

    return make_calc(job.seed, job.index, job.depth, job.langs, ident(job.kind, job.seed, job.index),
                     distractor_shapes=job.distractor_shapes)


@dataclass
class RunSummary:
    """What a run made and why it refused the rest (``summary.json``)."""

    data: dict[str, object]

    @property
    def questions(self) -> int:
        return int(self.data["questions"])  # type: ignore[call-overload]  # an int by construction

    def to_json(self) -> str:
        return json.dumps(self.data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def check_arguments(n: int, seed: int, depth: int, kind: str, langs: Sequence[str], jobs: int) -> None:
    """Refuse bad values with a :class:`~geodsl.lang.errors.GeoDSLError` naming them."""
    from ..realizer.rng import check_seed

    check_seed(seed)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_QUESTIONS:
        raise GeoDSLError(f"n must be a whole number from 1 to {MAX_QUESTIONS:,}, got {n!r}", hint="e.g. --n 100")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 12:
        raise GeoDSLError(f"depth must be a whole number from 1 to 12, got {depth!r}", hint="e.g. --depth 3")
    if kind not in KINDS:
        raise GeoDSLError(f"unknown kind `{kind}`", text=str(kind), hint="kinds: mcq, calc")
    if not langs or any(lang not in ("en", "zh") for lang in langs) or len(set(langs)) != len(langs):
        raise GeoDSLError(f"languages must be en and/or zh, each once, got `{','.join(langs)}`",
                          hint="e.g. --lang en,zh")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise GeoDSLError(f"jobs must be a whole number from 1, got {jobs!r}", hint="e.g. --jobs 2")


def generate(n: int, seed: int, out: str | Path, *, depth: int = 3, kind: str = "mcq",
             langs: Sequence[str] = ("en", "zh"), jobs: int = 1, distractor_shapes: bool = True,
             progress: object = None) -> RunSummary:
    """Make ``n`` questions into the folder ``out`` (module docstring)."""
    check_arguments(n, seed, depth, kind, langs, jobs)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise GeoDSLError(f"cannot write into `{out}`: it is a file", source=str(out),
                          hint="name a folder (it is created if missing)")
    figures = folder / "figures"
    try:
        figures.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise GeoDSLError(f"cannot create `{figures}`: {exc.strerror or exc}", source=str(out),
                          hint="check the path is writable") from None
    start = time.monotonic()
    limit = CANDIDATES_PER_QUESTION * n + 20
    kept: list[Outcome] = []
    reasons: Counter[str] = Counter()
    clause_rejections: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    fallbacks = 0
    clauses_kept = 0
    dedup = Deduplicator()
    calc_keys: set[str] = set()
    works: Iterator[Work[Job, None]] = (
        Work(ident(kind, seed, i), Job(kind, seed, i, depth, tuple(langs), distractor_shapes)) for i in range(limit))
    # geodsl.batch maps the candidates in order on `jobs` workers (in this
    # process for one job); the first n kept end the run, and closing the
    # map stops the workers. What was computed beyond is never counted, so
    # the counts are those of a serial run.
    done_items = run_batch(works, _work, on_failure=_failed, settings=BatchSettings(jobs=None if jobs == 1 else jobs))
    assert isinstance(done_items, Generator)  # closed below, so the workers stop with the run
    try:
        for done in done_items:
            outcome = done.result
            assert isinstance(outcome, Outcome)
            _count(outcome, reasons, clause_rejections, refusals)
            if outcome.reason is not None:
                continue
            assert outcome.record is not None  # a question made has its record
            if kind == "mcq":
                assert outcome.question is not None
                fresh = dedup.add(outcome.question)
            else:
                fresh = _fresh_calc(outcome.key, calc_keys)
            if not fresh:
                reasons["duplicate"] += 1
                continue
            kept.append(outcome)
            clauses_kept += outcome.clauses
            fallbacks += outcome.notation_fallbacks
            for fmt, data in outcome.figures.items():
                (figures / f"{outcome.record['id']}.{fmt}").write_bytes(data)
            if callable(progress):
                progress(len(kept), n)
            if len(kept) >= n:
                break
    finally:
        done_items.close()
    candidates = sum(reasons.values()) + len(kept)
    records = [o.record for o in kept if o.record is not None]
    level = difficulty.levels([(float(r["difficulty"]["score"]), str(r["id"])) for r in records])
    for r in records:
        r["difficulty"]["level"] = level[str(r["id"])]
    gdl = []
    for o, r in zip(kept, records):
        block = str(o.gdl).replace("@source: geodsl generate\n",
                                   f"@source: geodsl generate\n@level: {r['difficulty']['level']}\n")
        gdl.append(block)
    _write(folder / "problems.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    _write(folder / "problems.gdl", "\n".join(gdl))
    seconds = time.monotonic() - start
    summary = RunSummary(_summary(kind, n, seed, depth, langs, jobs, records, candidates, reasons,
                                  clause_rejections, clauses_kept, refusals, fallbacks, seconds))
    _write(folder / "summary.json", summary.to_json())
    return summary


def _fresh_calc(key: str, seen: set[str]) -> bool:
    if key in seen:
        return False
    seen.add(key)
    return True


def _count(outcome: Outcome, reasons: Counter[str], clauses: Counter[str], refusals: Counter[str]) -> None:
    if outcome.reason is not None:
        reasons[outcome.reason] += 1
    clauses.update(outcome.clause_rejections)
    refusals.update(outcome.distractor_refusals)


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GeoDSLError(f"cannot write `{path}`: {exc.strerror or exc}", source=str(path),
                          hint="check the folder is writable") from None


def _histogram(values: Sequence[object]) -> dict[str, int]:
    counts = Counter(str(v) for v in values)
    return {k: counts[k] for k in sorted(counts, key=lambda s: (len(s), s))}


def _summary(kind: str, n: int, seed: int, depth: int, langs: Sequence[str], jobs: int,
             records: Sequence[dict], candidates: int, reasons: Counter[str], clause_rejections: Counter[str],
             clauses_kept: int, refusals: Counter[str], fallbacks: int, seconds: float) -> dict[str, object]:
    data: dict[str, object] = {
        "kind": kind, "n": n, "seed": seed, "depth": depth, "langs": list(langs), "jobs": jobs,
        "questions": len(records), "complete": len(records) == n, "candidates": candidates,
        "rejected": {k: reasons[k] for k in sorted(reasons)},
        "seconds": round(seconds, 3),
        "per_minute": round(60 * len(records) / seconds, 2) if seconds > 0 else None,
        "levels": _histogram([r["difficulty"]["level"] for r in records]),
    }
    if kind == "mcq":
        data.update({
            "clauses": {"kept": clauses_kept, "rejected": {k: clause_rejections[k] for k in sorted(clause_rejections)}},
            "distractor_refusals": {k: refusals[k] for k in sorted(refusals)},
            "notation_fallbacks": fallbacks,
            "depth_sampled": _histogram([r["depth"]["sampled"] for r in records]),
            "depth_premise": _histogram([r["depth"]["premise"] for r in records]),
            "true_options": _histogram([len(r["answer"]) for r in records]),
            "families": dict(sorted(Counter(f for r in records for f in r["families"]).items())),
            "distractor_kinds": dict(sorted(Counter(d["kind"] for r in records
                                                    for d in r["distractors"].values()).items())),
        })
    else:
        data.update({
            "hops": _histogram([r["hops"] for r in records]),
            "with_distractor_shapes": sum(bool(r["distractor_shapes"]) for r in records),
            "shapes": dict(sorted(Counter(s for r in records for s in r["shapes"]).items())),
        })
    return data
