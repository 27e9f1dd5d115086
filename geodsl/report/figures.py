"""The figures of a report: each record's problem found again, realized
from the seed, and drawn once per option or goal with that statement
highlighted (:func:`geodsl.realizer.render.figure_bytes`), as SVG made safe
to inline — many figures in one page must not share element ids, and the
page loads nothing, so the XML prologue and metadata go.

A record names its problem by ``file`` (a path, from the current folder or
beside the results file, or a shipped dataset's name) and ``problem`` (its
name; unnamed problems are taken in file order); a graded record's ``file``
is ``BATCH.jsonl:LINE``, the batch item holding the problem's text; a
generated record carries its text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..lang.ast import Problem
from ..lang.errors import GeoDSLError, GoalFalseError
from .records import Row, resolve

_BATCH_LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+)$")


@dataclass(frozen=True)
class FigureJob:
    """What one problem's figures need (the payload of a figure task)."""

    index: int
    problem: Problem
    highlights: tuple[tuple[str, str], ...]
    """(label, predicate in the DSL) per figure; empty: one figure of the premise."""
    seed: int


class Problems:
    """Finds each row's problem, reading every file once."""

    def __init__(self, results_path: str, dialect: str = "alphageometry") -> None:
        self.results_path = results_path
        self.dialect = dialect
        self._files: dict[str, tuple[dict[str, list[Problem]], list[Problem]]] = {}
        self._batches: dict[str, list[str]] = {}

    def _file(self, file: str) -> tuple[dict[str, list[Problem]], list[Problem]]:
        if file not in self._files:
            from ..lang.parser import iter_parse

            named: dict[str, list[Problem]] = {}
            unnamed: list[Problem] = []
            try:
                text = _read(resolve(file, self.results_path))
            except GeoDSLError:
                text = ""
            for item in iter_parse(text, file, dialect=self.dialect):
                if isinstance(item, Problem):
                    (named.setdefault(item.name, []) if item.name is not None else unnamed).append(item)
            self._files[file] = (named, unnamed)
        return self._files[file]

    def find(self, row: Row) -> Problem | None:
        """The problem of ``row``, or None when it cannot be found."""
        from ..lang.parser import iter_parse

        if row.text is not None:
            found = [p for p in iter_parse(row.text, row.problem or "<record>", dialect=self.dialect)
                     if isinstance(p, Problem)]
            return found[0] if found else None
        if row.file is None:
            return None
        batch = _BATCH_LINE.match(row.file)
        if row.kind == "grade" and batch is not None:
            return self._batch_item(batch.group("path"), int(batch.group("line")), row.problem)
        named, unnamed = self._file(row.file)
        if row.problem is not None:
            same = named.get(row.problem) or []
            return same.pop(0) if same else None
        return unnamed.pop(0) if unnamed else None

    def _batch_item(self, path: str, line: int, name: str | None) -> Problem | None:
        from ..lang.parser import iter_parse

        if path not in self._batches:
            try:
                self._batches[path] = _read(resolve(path, self.results_path)).splitlines()
            except GeoDSLError:
                self._batches[path] = []
        lines = self._batches[path]
        if not 0 < line <= len(lines):
            return None
        try:
            item = json.loads(lines[line - 1])
        except json.JSONDecodeError:
            return None
        text = item.get("problem") if isinstance(item, dict) else None
        if not isinstance(text, str):
            return None
        found = [p for p in iter_parse(text, f"{path}:{line}", dialect=self.dialect) if isinstance(p, Problem)]
        if name is not None and len(found) > 1:
            found = [p for p in found if p.name == name] or found
        return found[0] if found else None


def _read(path: str) -> str:
    """A file's text, or a shipped dataset's (its name, as the commands take it)."""
    import os

    from .. import datasets
    from ..lang.parser import read_text

    if not os.path.exists(path):
        found = datasets.lookup(path)
        if found is not None:
            return datasets.text(found.name)
    return read_text(path)


def _inline(svg: str, prefix: str) -> str:
    """An SVG document as an element to paste into HTML: no prologue or
    metadata, every id (and every reference to one) prefixed."""
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})", svg)
    svg = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{prefix}{m.group(1)}"', svg)
    return svg.replace("<svg ", '<svg class="figure" role="img" ', 1)


def draw(job: FigureJob) -> list[tuple[str, str | None, str | None]]:
    """(label, inline SVG or None, why not) per figure of ``job`` (a batch task)."""
    from ..realizer import realize
    from ..realizer.render import figure_bytes

    try:
        try:
            figs = realize(job.problem, seed=job.seed, diagrams=1)
        except GoalFalseError:
            figs = realize(job.problem, seed=job.seed, diagrams=1, check_goals=False)
    except GeoDSLError as exc:
        return [(label, None, f"the problem could not be realized: {exc.message}")
                for label, _ in job.highlights or (("premise", ""),)]
    out: list[tuple[str, str | None, str | None]] = []
    for n, (label, predicate) in enumerate(job.highlights or (("premise", ""),)):
        try:
            svg = figure_bytes(figs[0], "svg", highlight=predicate or None,
                               caption=f"{job.problem.name or ''} — {label}: {predicate}" if predicate else None)
        except GeoDSLError:
            try:  # a statement the renderer cannot draw (a negated option): the plain figure
                svg = figure_bytes(figs[0], "svg")
            except GeoDSLError as exc:
                out.append((label, None, f"no figure: {exc.message}"))
                continue
        out.append((label, _inline(svg.decode("utf-8"), f"f{job.index}-{n}-"), None))
    return out
