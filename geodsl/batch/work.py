"""What a batch run is made of: the items (:class:`Work`), how it runs
(:class:`Settings`), and what it reports when a problem gets no result
(:class:`Failure`) or when the run is over (:class:`Stats`).

Kept apart from the engines so that commands and the engines agree on one
vocabulary without importing each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from ..lang.errors import GeoDSLError

P = TypeVar("P")
C = TypeVar("C")

FailureKind = Literal["timeout", "crash", "memory", "internal"]

DEFAULT_WORKER_TASKS = 200
"""Problems a worker process runs before it is replaced by a fresh one."""
DEFAULT_WORKER_MEMORY_MB = 4096
"""Address space a worker process may map (``RLIMIT_AS``), in MiB."""


MIN_WORKER_MEMORY_MB = 256
"""The smallest address-space cap a worker can start under: below it (measured
at 192 MiB) loading geodsl, numpy and its libraries fails or the worker dies,
so every problem would get a failure that names the wrong cause."""

TIMING_FIELDS = ("seconds", "seconds_without")
"""The fields of a record that hold wall-clock times: the only ones that
may differ between two runs of the same job (any engine, any ``--jobs``)."""


def without_timing(value: object) -> object:
    """``value`` (a record, or any JSON) with every timing field removed, at
    any depth: what "the same output" compares."""
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING_FIELDS}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


@dataclass(frozen=True)
class Work(Generic[P, C]):
    """One item of a batch.

    ``payload`` is what the task function receives (pickled to a worker, so
    keep it small: a parsed problem, not the file it came from); ``context``
    stays in the calling process (the file's lines, for located error
    messages); ``key`` names the item stably (file and problem name), and a
    resumed run checks that each record already written belongs to the item
    of the same rank."""

    key: str
    payload: P
    context: C | None = None


@dataclass(frozen=True)
class Failure:
    """Why an item has no result: it ran past the hard time limit, its
    worker died, it ran out of memory, or the task raised (a bug).

    ``message`` is a sentence with no timing or process id in it, so the
    error record a command builds from it is the same in every run."""

    kind: FailureKind
    message: str


class WorkerFailure(GeoDSLError):
    """The error a command records for an item that got a :class:`Failure`
    (``kind`` is the failure's: timeout, crash, memory, internal)."""

    def __init__(self, failure: Failure, **where: object) -> None:
        super().__init__(failure.message, hint=_HINTS[failure.kind], **where)  # type: ignore[arg-type]  # source/line/column/text as GeoDSLError takes them
        self.kind = failure.kind


_HINTS: dict[str, str] = {
    "timeout": "raise --problem-timeout, or lower --timeout so the closure stops on its own first",
    "crash": "the other problems still ran; run this one alone (--problem NAME) to see the crash",
    "memory": "raise --worker-memory (MiB per worker), or lower --timeout",
    "internal": "a bug in geodsl: please report it with this problem",
}


@dataclass(frozen=True)
class Settings:
    """How a batch runs.

    ``jobs`` None runs every item in the calling process (no isolation: a
    crash ends the run, and ``timeout`` is not enforced); ``jobs`` N ≥ 1
    runs them in N worker processes. ``ray`` (an address, or ``"local"``
    for a Ray instance on this machine) runs them as Ray tasks instead.
    ``timeout`` is the hard wall-clock limit per item in seconds (None: no
    limit); ``worker_tasks`` the items a worker runs before it is replaced;
    ``worker_memory_mb`` the address space each worker may map (None: no
    limit); ``window`` how many items may be in flight or waiting for their
    turn to be written (None: 4 per worker), which bounds the memory the
    ordering costs."""

    jobs: int | None = None
    ray: str | None = None
    timeout: float | None = None
    worker_tasks: int = DEFAULT_WORKER_TASKS
    worker_memory_mb: int | None = DEFAULT_WORKER_MEMORY_MB
    window: int | None = None

    def __post_init__(self) -> None:
        if self.jobs is not None and (not isinstance(self.jobs, int) or self.jobs < 1):
            raise GeoDSLError(f"jobs must be a whole number from 1, got {self.jobs!r}", hint="e.g. --jobs 2")
        if self.timeout is not None and not (math.isfinite(self.timeout) and self.timeout > 0):
            raise GeoDSLError(f"the hard time limit must be finite and > 0, got {self.timeout!r}",
                              hint="e.g. --problem-timeout 120")
        if self.worker_tasks < 1:
            raise GeoDSLError(f"worker_tasks must be a whole number from 1, got {self.worker_tasks!r}",
                              hint="e.g. --worker-tasks 200")
        if self.worker_memory_mb is not None and self.worker_memory_mb < MIN_WORKER_MEMORY_MB:
            raise GeoDSLError(f"worker memory must be at least {MIN_WORKER_MEMORY_MB} MiB, got "
                              f"{self.worker_memory_mb!r}",
                              hint="e.g. --worker-memory 4096")
        if self.window is not None and self.window < 1:
            raise GeoDSLError(f"window must be a whole number from 1, got {self.window!r}")

    @property
    def isolated(self) -> bool:
        """Whether items run outside the calling process."""
        return self.jobs is not None or self.ray is not None

    def window_for(self, workers: int) -> int:
        return self.window if self.window is not None else max(4 * workers, 8)


@dataclass
class Stats:
    """What a run did, for the summary table: items run and resumed, the
    failures by kind, worker processes started, and the peak resident
    memory (MiB) of each worker slot (empty when items ran in the calling
    process, whose peak is ``parent_peak_mb``)."""

    engine: str = "inline"
    workers: int = 1
    ran: int = 0
    resumed: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    started: int = 0
    peak_mb: list[float] = field(default_factory=list)
    parent_peak_mb: float = 0.0
    seconds: float = 0.0

    def failed(self, kind: str) -> None:
        self.failures[kind] = self.failures.get(kind, 0) + 1
