"""Batch runs: an ordered, resumable, parallel map over input items.

The batch commands (``check``, ``prove``, ``realize``, ``aux``, ``grade``)
run on this one engine, so ``--jobs``, ``--ray``, ``--out``, ``--resume``,
the progress bar and the failure records behave the same in all of them;
``generate`` and ``report`` map their own items on it with ``--jobs`` only. :mod:`geodsl.commands.batching` adds the flags and the output
plumbing for CLI commands; library code can call :func:`run` directly.

The contract
------------

::

    from geodsl.batch import Failure, JsonlSink, Progress, Settings, Work, run

    works = (Work(key=f"{path}#{name}", payload=problem, context=lines) for ...)
    with JsonlSink("out.jsonl", resume=True) as sink, Progress(total, "check") as bar:
        for done in run(works, task, on_failure=failed_record, settings=Settings(jobs=4),
                        init=setup, initargs=(options,), sink=sink, record=to_json,
                        identify=lambda rec: f"{rec['file']}#{rec['problem']}", progress=bar):
            ...  # done.work, done.result (None if resumed), done.record, done.failure

- ``task(payload) -> R`` is a module-level function (workers receive it by
  reference), pure apart from what ``init(*initargs)`` set up once per
  worker (and in the calling process when ``jobs`` is None: a caller that
  makes failure records there calls ``init`` itself). It must not print: it returns
  everything the command shows, so the output can be assembled in order.
- Results come back **in the order of** ``works`` whatever the engine
  (``Settings(jobs=None)``: this process; ``jobs=N``: N worker processes;
  ``ray=ADDRESS``: Ray tasks). The same task on the same items gives the
  same results in every engine, so the output is the same bytes.
- An item that runs past ``Settings.timeout`` seconds, whose worker dies,
  that runs out of memory, or whose task raises, gets a :class:`Failure`
  (kind ``timeout``, ``crash``, ``memory``, ``internal``; a message with no
  timing in it) and ``on_failure(work, failure) -> R`` makes its result:
  the command's error record. The run goes on. (In the calling process,
  ``jobs=None``, nothing is isolated: a crash ends the run and the time
  limit is not enforced.)
- Workers are replaced after ``Settings.worker_tasks`` items and their
  address space is capped at ``Settings.worker_memory_mb``; at most
  ``Settings.window`` items are in flight or waiting their turn.
- With a :class:`JsonlSink`, each result's ``record(result)`` is written as
  one line as soon as its turn comes. With ``resume=True``, the records
  already in the file are yielded first (``resumed=True``, checked against
  the items by ``identify(record) == work.key``, rank by rank) and only the
  rest runs, so an interrupted run resumed produces the file an
  uninterrupted run would have.
- Two runs of one job differ only in the :data:`TIMING_FIELDS` of their
  records (:func:`without_timing` removes them).
- :class:`Progress` shows a bar on stderr when it is a terminal; ``failed``
  (``result -> bool``) says which results count as errors on it. A
  :class:`Stats` passed as ``stats=`` is filled with what the run did (for
  :func:`geodsl.batch.summary.table`).
"""

from __future__ import annotations

from .progress import Progress
from .run import Done, run
from .sink import JsonlSink, OutFileError
from .work import (DEFAULT_WORKER_MEMORY_MB, DEFAULT_WORKER_TASKS, MIN_WORKER_MEMORY_MB, TIMING_FIELDS, Failure,
                   FailureKind, Settings, Stats, Work, WorkerFailure, without_timing)

__all__ = ["DEFAULT_WORKER_MEMORY_MB", "DEFAULT_WORKER_TASKS", "MIN_WORKER_MEMORY_MB", "TIMING_FIELDS", "Done",
           "Failure", "FailureKind", "JsonlSink", "OutFileError", "Progress", "Settings", "Stats", "Work", "WorkerFailure", "run",
           "without_timing"]
