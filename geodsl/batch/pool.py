"""A process pool that survives its problems: N worker processes, one item
at a time each, results handed back in input order.

Why not :mod:`multiprocessing.pool` or :mod:`concurrent.futures`: neither
can stop *one* item that runs too long, and a worker that dies (a crash in
compiled code, the kernel's OOM killer) loses the item silently
(``multiprocessing.Pool``) or breaks every other pending item
(``ProcessPoolExecutor``). Here each worker talks to the parent over its own
pipe, so the parent knows which item each worker holds: a worker past its
item's deadline is killed and the item gets a ``timeout`` failure, a worker
that dies gives its item a ``crash`` failure, and in both cases a fresh
worker takes its place. A worker is also replaced after ``worker_tasks``
items, and its address space is capped (``RLIMIT_AS``), so memory that a
long run leaks or caches stays bounded per worker.

Workers are forked from a fork server (Linux) that has imported the task's
module once, so starting one costs milliseconds, not an interpreter start.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from .work import Failure, Settings, Stats, Work

Task = Callable[[Any], Any]
Init = Callable[..., None] | None

_STARTUP_FAILURES = 3
"""Workers in a row that may die while they set up (before they take an item) before the run gives up."""


def peak_mb() -> float:
    """This process's peak resident memory in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_one(task: Task, payload: object, memory_mb: int | None) -> tuple[bool, object]:
    """(True, result) or (False, Failure): the one place a task's exception
    becomes a failure, shared by the pool's workers, Ray's and the calling
    process, so every engine records the same error for the same item."""
    try:
        return True, task(payload)
    except MemoryError:
        limit = f"the limit is {memory_mb} MiB per worker" if memory_mb else "no limit was set"
        return False, Failure("memory", f"ran out of memory ({limit})")
    except RecursionError as exc:
        return False, Failure("internal", f"internal error: RecursionError: {exc}")
    except Exception as exc:
        return False, Failure("internal", f"internal error: {type(exc).__name__}: {exc}")


def _worker(conn: Connection, task: Task, init: Init, initargs: tuple[object, ...],
            memory_mb: int | None, tasks: int) -> None:
    # Ctrl-C reaches the whole process group; the parent decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_mb is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = memory_mb * 2 ** 20
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    if init is not None:
        init(*initargs)
    try:
        conn.send("ready")  # the parent counts an item's time from when it is sent to a ready worker
    except (BrokenPipeError, ConnectionResetError, EOFError):
        return
    for _ in range(tasks):
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        ok, out = run_one(task, message, memory_mb)
        try:
            conn.send((ok, out, peak_mb()))
        except (BrokenPipeError, ConnectionResetError, EOFError):
            return  # the parent is gone (killed): nobody to report to
        except Exception as exc:  # the result does not pickle: a bug in the task
            conn.send((False, Failure("internal", f"internal error: the result could not be sent back: "
                                                  f"{type(exc).__name__}: {exc}"), peak_mb()))
        if not ok and isinstance(out, Failure) and out.kind == "memory":
            return  # after a MemoryError the heap may be in any state: start afresh


def _context() -> Any:
    if "forkserver" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


def _signal_name(code: int | None) -> str:
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


@dataclass
class _Busy:
    index: int
    work: Work[Any, Any]
    deadline: float | None


class _Slot:
    """One worker position: the process currently in it, what it holds, how
    many items it has run."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.process: Any = None
        self.conn: Connection | None = None
        self.busy: _Busy | None = None
        self.ready = False
        """Whether the process in the slot has set up and waits for an item."""
        self.done = 0

    def alive(self) -> bool:
        return self.process is not None

    def stop(self, kill: bool) -> None:
        """End the process in this slot: politely when idle, SIGKILL otherwise."""
        if self.process is None:
            return
        if kill:
            self.process.kill()
        else:
            try:
                assert self.conn is not None
                self.conn.send(None)
            except (OSError, ValueError):
                self.process.kill()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        if self.conn is not None:
            self.conn.close()
        self.process = self.conn = None
        self.ready = False


class Pool:
    """The workers of one run (use :func:`map_ordered`)."""

    def __init__(self, task: Task, init: Init, initargs: tuple[object, ...], settings: Settings,
                 stats: Stats) -> None:
        assert settings.jobs is not None
        self.task, self.init, self.initargs = task, init, initargs
        self.settings = settings
        self.stats = stats
        self.ctx = _context()
        if self.ctx.get_start_method() == "forkserver":
            # Import the task's module once in the server; each fork then has it.
            self.ctx.set_forkserver_preload([task.__module__, __name__])
        self.slots = [_Slot(i) for i in range(settings.jobs)]
        stats.engine = "processes"
        stats.workers = settings.jobs
        stats.peak_mb = [0.0] * settings.jobs
        self.startup_failures = 0

    def start(self, slot: _Slot) -> None:
        parent, child = self.ctx.Pipe(duplex=True)
        process = self.ctx.Process(
            target=_worker, name=f"geodsl-worker-{slot.number}", daemon=True,
            args=(child, self.task, self.init, self.initargs, self.settings.worker_memory_mb,
                  self.settings.worker_tasks))
        process.start()
        child.close()
        slot.process, slot.conn, slot.done, slot.ready = process, parent, 0, False
        self.stats.started += 1

    def send(self, slot: _Slot, index: int, work: Work[Any, Any]) -> None:
        assert slot.conn is not None and slot.ready
        timeout = self.settings.timeout
        slot.busy = _Busy(index, work, None if timeout is None else time.monotonic() + timeout)
        try:
            slot.conn.send(work.payload)
        except (BrokenPipeError, ConnectionResetError, EOFError):
            pass  # the worker died on its way up: its sentinel reports it below
        except Exception as exc:  # the payload does not pickle: a bug in the command
            slot.busy = None
            raise RuntimeError(f"a batch item could not be sent to a worker: {type(exc).__name__}: {exc}") from exc

    def close(self) -> None:
        for slot in self.slots:
            slot.stop(kill=slot.busy is not None)

    def _finish(self, slot: _Slot, kill: bool) -> None:
        slot.busy = None
        slot.stop(kill=kill)

    def _starting(self, slot: _Slot, ready: set[Any]) -> None:
        """A slot whose worker is setting up: ready, or dead before it was."""
        assert slot.conn is not None
        if slot.conn not in ready and slot.process.sentinel not in ready:
            return
        try:
            if slot.conn.poll() and slot.conn.recv() == "ready":
                slot.ready = True
                self.startup_failures = 0
                return
        except (EOFError, OSError):
            pass
        slot.process.join(timeout=1)
        code = slot.process.exitcode
        self.startup_failures += 1
        slot.stop(kill=True)
        if self.startup_failures >= _STARTUP_FAILURES:
            raise RuntimeError(f"worker processes die while they set up ({_signal_name(code)}); "
                               "see the messages above")

    def collect(self, timeout: float | None) -> list[tuple[int, Work[Any, Any], tuple[bool, object]]]:
        """Wait up to ``timeout`` seconds for results, deaths, deadlines and
        workers that finished setting up; return the items that ended:
        (index, work, (ok, result or Failure))."""
        busy = [s for s in self.slots if s.busy is not None]
        starting = [s for s in self.slots if s.alive() and not s.ready]
        waitables: list[Any] = [s.conn for s in busy + starting] + [s.process.sentinel for s in busy + starting]
        ready = set(wait(waitables, timeout))
        for slot in starting:
            self._starting(slot, ready)
        now = time.monotonic()
        ended: list[tuple[int, Work[Any, Any], tuple[bool, object]]] = []
        for slot in busy:
            assert slot.busy is not None and slot.conn is not None
            held = slot.busy
            if slot.conn in ready or slot.process.sentinel in ready:
                message = None
                try:
                    if slot.conn.poll():
                        message = slot.conn.recv()
                except (EOFError, OSError):
                    message = None
                if message is not None:
                    ok, out, peak = message
                    self.stats.peak_mb[slot.number] = max(self.stats.peak_mb[slot.number], peak)
                    slot.done += 1
                    slot.busy = None
                    if slot.done >= self.settings.worker_tasks or (not ok and out.kind == "memory"):
                        slot.stop(kill=False)  # it leaves on its own; a fresh one starts on demand
                    ended.append((held.index, held.work, (ok, out)))
                    continue
                slot.process.join(timeout=1)
                code = slot.process.exitcode
                self._finish(slot, kill=True)
                ended.append((held.index, held.work,
                              (False, Failure("crash", f"the worker process running this problem died "
                                                       f"({_signal_name(code)})"))))
            elif held.deadline is not None and now >= held.deadline:
                self._finish(slot, kill=True)
                ended.append((held.index, held.work,
                              (False, Failure("timeout", f"no result within the hard limit of "
                                                         f"{self.settings.timeout:g} s per problem; the worker "
                                                         "was stopped"))))
        return ended

    def next_deadline(self) -> float | None:
        deadlines = [s.busy.deadline for s in self.slots if s.busy is not None and s.busy.deadline is not None]
        return None if not deadlines else max(0.0, min(deadlines) - time.monotonic())


def map_ordered(works: Iterator[Work[Any, Any]], task: Task, init: Init, initargs: tuple[object, ...],
                settings: Settings, stats: Stats) -> Iterator[tuple[Work[Any, Any], tuple[bool, object]]]:
    """Run ``task`` on every work's payload in ``settings.jobs`` workers;
    yield (work, (ok, result or Failure)) in the order of ``works``.

    At most ``settings.window_for(jobs)`` items are in flight or finished
    but waiting for an earlier one, so memory does not grow with the input.
    Closing the generator (or an exception, Ctrl-C) stops every worker."""
    pool = Pool(task, init, initargs, settings, stats)
    window = settings.window_for(len(pool.slots))
    done: dict[int, tuple[Work[Any, Any], tuple[bool, object]]] = {}
    next_out = 0
    taken = 0
    pending: Work[Any, Any] | None = None  # read from the input, not yet sent
    exhausted = False
    try:
        while True:
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
            for slot in pool.slots:
                if taken >= next_out + window:
                    break
                if slot.busy is not None:
                    continue
                if pending is None and not exhausted:
                    try:
                        pending = next(works)
                    except StopIteration:
                        exhausted = True
                if pending is None:
                    break
                if not slot.alive():
                    pool.start(slot)  # only when there is an item for it
                if not slot.ready:
                    continue
                pool.send(slot, taken, pending)
                pending = None
                taken += 1
            if exhausted and pending is None and next_out == taken:
                return
            for index, work, out in pool.collect(pool.next_deadline()):
                stats.ran += 1
                done[index] = (work, out)
    finally:
        pool.close()


def worker_pids() -> list[int]:
    """Process ids of this process's live geodsl workers (for tests and the benchmark)."""
    return [p.pid for p in multiprocessing.active_children()
            if p.name.startswith("geodsl-worker-") and p.pid is not None and p.pid != os.getpid()]
