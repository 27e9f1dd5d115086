"""The summary table at the end of a batch run: the command's own counts
(solved, proved, errors, ...) and what the run did (engine, workers, time,
rate, failures by kind, resumed records, peak memory per worker)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .work import Stats


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def run_rows(stats: Stats) -> list[tuple[str, str]]:
    """The rows every command shares, from the run's :class:`Stats`."""
    rows: list[tuple[str, str]] = []
    done = stats.ran + stats.resumed
    engine = {"inline": "this process", "processes": _count(stats.workers, "worker process", "worker processes"),
              "ray": f"Ray, {stats.workers} CPUs"}.get(stats.engine, stats.engine)
    rows.append(("engine", engine))
    rate = f" ({stats.ran / stats.seconds:.1f}/s)" if stats.seconds > 0 and stats.ran else ""
    rows.append(("time", f"{stats.seconds:.2f} s for {_count(stats.ran, 'problem', 'problems')}{rate}"))
    if stats.resumed:
        rows.append(("resumed", f"{stats.resumed} records already in the file ({done} in all)"))
    for kind in ("timeout", "crash", "memory", "internal"):
        if stats.failures.get(kind):
            rows.append((f"{kind} failures", str(stats.failures[kind])))
    if stats.peak_mb and stats.ran:
        peaks = ", ".join(f"{p:.0f}" for p in stats.peak_mb)
        rows.append(("peak memory per worker", f"{peaks} MiB (workers started: {stats.started or len(stats.peak_mb)})"))
    elif stats.engine == "inline":
        rows.append(("peak memory", f"{stats.parent_peak_mb:.0f} MiB"))
    return rows


def table(title: str, counts: Sequence[tuple[str, str]], stats: Stats) -> Any:
    """A rich Table: the command's ``counts`` rows, then :func:`run_rows`."""
    from rich.table import Table

    out = Table(title=title, title_justify="left", show_header=False)
    out.add_column("what", style="bold")
    out.add_column("value")
    for name, value in counts:
        out.add_row(name, value)
    out.add_section()
    for name, value in run_rows(stats):
        out.add_row(name, value)
    return out
