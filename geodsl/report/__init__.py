"""``geodsl report``: a run's results as one self-contained HTML page.

::

    from geodsl.report import build
    html = build("results.jsonl", figures=300, seed=0)

:func:`build` reads the records (:mod:`.records`), finds and draws the
problems of the first ``figures`` records with their options or goals
highlighted (:mod:`.figures`; in ``settings.jobs`` processes, on the batch
engine), and assembles the page (:mod:`.page`): summary, sortable and
filterable table, and per problem its figures, verdicts, collapsible
proofs, errors and graded steps. The page loads nothing (inline CSS, JS and
SVG under a Content Security Policy that forbids any fetch).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from ..batch import Failure, Settings, Work, run
from .figures import FigureJob, Problems, draw
from .page import Figures, page
from .records import KINDS, ResultsError, Row, kind_of, read_results, row_of

DEFAULT_FIGURES = 300
"""Records whose problems get figures (each figure is ~35 KB of SVG and ~80 ms)."""
PER_PROBLEM = 4
"""Figures per problem at most (one per option or goal)."""


def _job_of(row: Row, problems: Problems, seed: int) -> FigureJob | None:
    if row.kind not in ("check", "prove", "aux", "grade", "realize", "generate"):
        return None
    problem = problems.find(row)
    if problem is None:
        return None
    highlights = tuple((s.label, s.predicate) for s in row.statements[:PER_PROBLEM])
    if not highlights and problem.goals:
        highlights = tuple((f"goal{i + 1 if i else ''}", g.to_text()) for i, g in enumerate(problem.goals[:PER_PROBLEM]))
    return FigureJob(row.index, problem, highlights, seed)


def _no_figure(work: Work[FigureJob, None], failure: Failure) -> list[tuple[str, str | None, str | None]]:
    return [(label, None, f"no figure: {failure.message}") for label, _ in work.payload.highlights or (("premise", ""),)]


def build(path: str, *, figures: int = DEFAULT_FIGURES, seed: int = 0, title: str | None = None,
          settings: Settings = Settings(), dialect: str = "alphageometry") -> str:
    """The HTML of the report on the results file ``path``."""
    records = read_results(path)
    rows = [row_of(i, r) for i, r in enumerate(records)]
    problems = Problems(path, dialect)
    jobs = []
    for row in rows[:figures]:
        job = _job_of(row, problems, seed)
        if job is not None:
            jobs.append(job)
    drawn: Figures = {}
    works: Iterator[Work[FigureJob, None]] = (Work(str(job.index), job) for job in jobs)
    for done in run(works, draw, on_failure=_no_figure, settings=settings):
        assert done.result is not None
        drawn[done.work.payload.index] = done.result
    name = os.path.basename(path)
    return page(title or f"geodsl report: {name}", path, rows, drawn)


__all__ = ["DEFAULT_FIGURES", "KINDS", "ResultsError", "Row", "build", "kind_of", "read_results", "row_of"]
