"""The ordered, resumable map every batch command runs on (:func:`run`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from . import pool, ray_engine
from .progress import Progress
from .sink import JsonlSink, OutFileError
from .work import Failure, Settings, Stats, Work

P = TypeVar("P")
C = TypeVar("C")
R = TypeVar("R")


@dataclass(frozen=True)
class Done(Generic[P, C, R]):
    """One finished item, yielded in input order.

    ``result`` is the task's return value (or what ``on_failure`` made of a
    :class:`Failure`), None for an item resumed from the ``--out`` file;
    ``record`` is the JSON object written for it (or read back);
    ``failure`` the failure, if any."""

    work: Work[P, C]
    result: R | None
    record: dict[str, object] | None
    resumed: bool = False
    failure: Failure | None = None


def _inline(works: Iterator[Work[Any, Any]], task: Callable[[Any], Any], init: Callable[..., None] | None,
            initargs: tuple[object, ...], settings: Settings,
            stats: Stats) -> Iterator[tuple[Work[Any, Any], tuple[bool, object]]]:
    if init is not None:
        init(*initargs)
    for work in works:
        out = pool.run_one(task, work.payload, None)
        stats.ran += 1
        yield work, out


def run(works: Iterable[Work[P, C]], task: Callable[[P], R], *,
        on_failure: Callable[[Work[P, C], Failure], R],
        settings: Settings = Settings(),
        init: Callable[..., None] | None = None, initargs: tuple[object, ...] = (),
        sink: JsonlSink | None = None,
        record: Callable[[R], dict[str, object]] | None = None,
        identify: Callable[[dict[str, object]], str] | None = None,
        progress: Progress | None = None,
        failed: Callable[[R], bool] | None = None,
        stats: Stats | None = None) -> Iterator[Done[P, C, R]]:
    """Run ``task`` on every work's payload and yield a :class:`Done` per
    work, in the order of ``works`` (see the package docstring)."""
    stats = stats if stats is not None else Stats()
    start = time.monotonic()
    items = iter(works)
    if sink is not None and sink.resume:
        if record is None or identify is None:
            raise TypeError("a resumable sink needs record= and identify=")
        for number, old in sink.resumed():
            try:
                work = next(items)
            except StopIteration:
                raise OutFileError(f"--resume: {sink.path} holds more records than the input has problems "
                                   f"(line {number} has no problem)", source=str(sink.path), line=number,
                                   column=1, hint="resume with the same inputs and flags as the first run") from None
            if identify(old) != work.key:
                raise OutFileError(f"--resume: line {number} of {sink.path} is the record of {identify(old)}, "
                                   f"but problem {number} of the input is {work.key}", source=str(sink.path),
                                   line=number, column=1,
                                   hint="resume with the same inputs and flags as the first run") from None
            stats.resumed += 1
            if progress is not None:
                progress.advance(failed=old.get("status") == "error")
            yield Done(work, None, old, resumed=True)
    # Reach the cluster before the sink makes its file: a cluster that cannot
    # be reached leaves no empty --out file behind (which a rerun would refuse).
    ray_session = ray_engine.connect(settings.ray) if settings.ray is not None else None
    if settings.ray is not None:
        engine = ray_engine.map_ordered
    elif settings.jobs is not None:
        engine = pool.map_ordered
    else:
        engine = _inline
    try:
        if sink is not None:
            sink.start()
        for work, (ok, out) in engine(items, task, init, initargs, settings, stats):
            failure = None
            if ok:
                result: R = out  # type: ignore[assignment]  # the task's own return value
            else:
                assert isinstance(out, Failure)
                failure = out
                stats.failed(out.kind)
                result = on_failure(work, out)
            rec = None if record is None else record(result)
            if sink is not None and rec is not None:
                sink.write(rec)
            if progress is not None:
                progress.advance(failed=failure is not None or (failed is not None and failed(result)))
            yield Done(work, result, rec, failure=failure)
    finally:
        stats.seconds = time.monotonic() - start
        stats.parent_peak_mb = pool.peak_mb()
        if ray_session is not None and ray_session[1]:  # this run started the connection
            ray_session[0].shutdown()
