"""The same ordered map on a Ray cluster (``pip install "geodsl[ray]"``).

Ray is the distributed engine: it places the tasks, ships the payloads and
restarts workers (``max_calls``: a Ray worker process is replaced after
``worker_tasks`` items, as in the local pool). geodsl supplies the task
function and keeps the order: at most as many items are in flight as the
cluster has CPUs, so each submitted task starts at once and its hard time
limit can be counted from its submission; a task past it is cancelled with
``force=True`` (its worker is killed) and recorded as a ``timeout``; a
worker that dies is a ``crash``; Ray's out-of-memory kill is ``memory``.
Tasks are never retried (``max_retries=0``): a problem that crashed a
worker once gets its error record, not a second chance to crash another.
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from ..lang.errors import GeoDSLError
from .pool import Init, Task, peak_mb, run_one
from .work import Failure, Settings, Stats, Work

_READY: set[tuple[str, str, bytes]] = set()
"""The initializers this Ray worker process has run (one per distinct task set-up)."""


def _ray_call(task: Task, init: Init, initargs: tuple[object, ...], payload: object,
              memory_mb: int | None) -> tuple[bool, object, float, int]:
    """Runs in a Ray worker: the initializer once per process, then the task."""
    import os
    import pickle

    if init is not None:
        key = (init.__module__, init.__qualname__, pickle.dumps(initargs))
        if key not in _READY:
            init(*initargs)
            _READY.add(key)
    ok, out = run_one(task, payload, memory_mb)
    return ok, out, peak_mb(), os.getpid()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise GeoDSLError("--ray needs Ray, which is not installed",
                          hint='pip install "geodsl[ray]"') from None
    return ray


CONNECT_SECONDS = 10.0
"""How long an explicit ``host:port`` may take to answer before ``--ray``
gives up (Ray itself retries an unreachable address for many minutes)."""


def answers(address: str) -> None:
    """Refuse at once an address where nothing listens."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # not host:port ("auto", a bad form): Ray's own checks decide
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise GeoDSLError(f"--ray {address}: cannot connect to a Ray cluster: nothing answers at {host}:{port} "
                          f"({exc.strerror or exc})", text=address,
                          hint="start one with `ray start --head`, pass its address (host:6379, auto), "
                               "or give --ray without an address to start a local instance") from None


def connect(address: str | None) -> tuple[Any, bool]:
    """Ray, initialised: ``"local"`` starts a Ray instance on this machine,
    anything else is the address of a running cluster (``auto``,
    ``host:6379``, ``ray://host:10001``). Returns (ray, whether this call
    started the connection, so the caller shuts it down)."""
    ray = _import_ray()
    if ray.is_initialized():
        return ray, False
    if address not in (None, "local", "auto"):
        answers(str(address))
    main_thread = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGTERM) if main_thread else None
    try:
        # "local" is Ray's own word for a new instance here; None would join
        # RAY_ADDRESS or the cluster `ray start` last started on this machine.
        ray.init(address="local" if address in (None, "local") else address, include_dashboard=False,
                 logging_level="ERROR", log_to_driver=False, configure_logging=True)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        raise GeoDSLError(f"--ray {address}: cannot connect to a Ray cluster: {exc}", text=address,
                          hint="start one with `ray start --head`, pass its address (host:6379, auto), "
                               "or give --ray without an address to start a local instance") from None
    if main_thread and before is not None:
        # ray.init replaces the driver's SIGTERM handler with one that exits
        # with status 15 mid-write; keep the caller's (a batch run stops
        # cleanly, exit 143, the --out file ending on a whole record).
        signal.signal(signal.SIGTERM, before)
    return ray, True


def map_ordered(works: Iterator[Work[Any, Any]], task: Task, init: Init, initargs: tuple[object, ...],
                settings: Settings, stats: Stats) -> Iterator[tuple[Work[Any, Any], tuple[bool, object]]]:
    """Like :func:`geodsl.batch.pool.map_ordered`, on Ray."""
    ray, started = connect(settings.ray)
    peaks: dict[int, float] = {}
    try:
        exceptions = ray.exceptions
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        stats.engine, stats.workers = "ray", cpus
        remote = ray.remote(num_cpus=1, max_retries=0, max_calls=settings.worker_tasks)(_ray_call)
        shared = (ray.put(task), ray.put(init), ray.put(initargs))
        window = cpus  # each submitted task starts at once: its time limit counts from submission
        flight: dict[Any, tuple[int, Work[Any, Any], float]] = {}
        done: dict[int, tuple[Work[Any, Any], tuple[bool, object]]] = {}
        next_out = taken = 0
        exhausted = False
        while True:
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
            while not exhausted and len(flight) < window and taken < next_out + settings.window_for(cpus):
                try:
                    work = next(works)
                except StopIteration:
                    exhausted = True
                    break
                ref = remote.remote(*shared, work.payload, settings.worker_memory_mb)
                flight[ref] = (taken, work, time.monotonic())
                taken += 1
            if exhausted and next_out == taken:
                return
            wait_for = None
            if settings.timeout is not None:
                first = min(start for _, _, start in flight.values())
                wait_for = max(0.0, first + settings.timeout - time.monotonic())
            ready, _ = ray.wait(list(flight), num_returns=1, timeout=wait_for)
            for ref in ready:
                index, work, _ = flight.pop(ref)
                try:
                    ok, out, peak, pid = ray.get(ref)
                    peaks[pid] = max(peaks.get(pid, 0.0), peak)
                except exceptions.OutOfMemoryError:
                    ok, out = False, Failure("memory", "ran out of memory (Ray's memory monitor killed the worker)")
                except (exceptions.WorkerCrashedError, exceptions.RayTaskError, exceptions.RayError) as exc:
                    ok, out = False, Failure("crash", f"the Ray worker running this problem died "
                                                      f"({type(exc).__name__})")
                stats.ran += 1
                done[index] = (work, (ok, out))
            if settings.timeout is not None:
                now = time.monotonic()
                for ref, (index, work, start) in list(flight.items()):
                    if now - start >= settings.timeout:
                        ray.cancel(ref, force=True)
                        del flight[ref]
                        stats.ran += 1
                        done[index] = (work, (False, Failure(
                            "timeout", f"no result within the hard limit of {settings.timeout:g} s per problem; "
                                       "the worker was stopped")))
    finally:
        stats.peak_mb = [peaks[p] for p in sorted(peaks)]
        if started:
            ray.shutdown()
