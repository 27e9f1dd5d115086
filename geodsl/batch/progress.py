"""The progress bar of a batch run: on stderr when stderr is a terminal
(problems done of the total, rate, time left, failures so far), nothing at
all otherwise, so logs and pipes get exactly the command's output.

Standard output written while the bar is shown goes above it only when
standard output is the same terminal; a redirected stdout is left alone
(rich would otherwise route it to the bar's stream).
"""

from __future__ import annotations

import sys
from typing import Any

from rich.progress import ProgressColumn, Task
from rich.text import Text


class _Rate(ProgressColumn):
    """Problems per second over the run so far."""

    def render(self, task: Task) -> Text:
        if not task.elapsed or not task.completed:
            return Text("– problems/s", style="progress.data.speed")
        return Text(f"{task.completed / task.elapsed:.1f} problems/s", style="progress.data.speed")


class _Failures(ProgressColumn):
    def render(self, task: Task) -> Text:
        failed = int(task.fields.get("failed", 0))
        return Text(f"{failed} errors" if failed != 1 else "1 error", style="red" if failed else "dim")


class Progress:
    """``with Progress(total, "check") as bar: bar.advance(failed=...)``;
    ``enabled`` None means: when stderr is a terminal."""

    def __init__(self, total: int | None, label: str, *, enabled: bool | None = None) -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.total = total
        self.label = label
        self.failed = 0
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Progress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            self._bar = RichProgress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), _Rate(),
                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), _Failures(),
                console=Console(stderr=True), transient=False,
                redirect_stdout=sys.stdout.isatty(), redirect_stderr=True)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=self.total, failed=0)
        return self

    def advance(self, *, failed: bool = False) -> None:
        self.failed += failed
        if self._bar is not None:
            self._bar.update(self._task, advance=1, failed=self.failed)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None
