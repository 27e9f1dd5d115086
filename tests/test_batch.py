"""The batch engine (geodsl.batch) on real worker processes: order, failures
as records, worker replacement, the memory cap, streaming, the --out sink
and --resume."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from geodsl.batch import Failure, JsonlSink, OutFileError, Settings, Stats, Work, run, without_timing
from geodsl.commands.batching import JsonArray
from geodsl.lang.errors import GeoDSLError

import batch_tasks


def failed(work: Work[int, None], failure: Failure) -> dict[str, object]:
    return {"n": work.payload, "failure": failure.kind, "message": failure.message}


def results(items, task=batch_tasks.behave, **settings) -> tuple[list[dict[str, object]], Stats]:
    stats = Stats()
    out = [d.result for d in run((Work(str(n), n) for n in items), task, on_failure=failed,
                                 settings=Settings(**settings), init=batch_tasks.setup, initargs=("set",),
                                 stats=stats)]
    return out, stats


def test_each_failure_is_that_items_record_and_the_run_goes_on() -> None:
    out, stats = results(range(10), jobs=2, timeout=1.0, worker_memory_mb=1024)
    assert [r["n"] for r in out] == list(range(10))
    by = {r["n"]: r for r in out}
    assert by[3] == {"n": 3, "failure": "crash",
                     "message": "the worker process running this problem died (killed by SIGSEGV)"}
    assert by[5] == {"n": 5, "failure": "timeout",
                     "message": "no result within the hard limit of 1 s per problem; the worker was stopped"}
    assert by[7] == {"n": 7, "failure": "internal", "message": "internal error: ValueError: item 7"}
    assert by[8] == {"n": 8, "failure": "memory", "message": "ran out of memory (the limit is 1024 MiB per worker)"}
    for n in (0, 1, 2, 4, 6, 9):
        assert by[n] == {"n": n, "square": n * n, "setup": "set"}  # the initializer ran in every worker
    assert stats.failures == {"crash": 1, "timeout": 1, "internal": 1, "memory": 1}
    assert stats.ran == 10 and len(stats.peak_mb) == 2 and all(p > 0 for p in stats.peak_mb)
    assert stats.started >= 4  # the crashed, stopped and out-of-memory workers were replaced


def test_the_same_results_in_order_whatever_the_engine() -> None:
    items = [n for n in range(40) if n % 10 in (0, 1, 2, 4, 6, 9)]
    inline, _ = results(items)
    assert [r["n"] for r in inline] == items
    for jobs in (1, 3):
        assert results(items, jobs=jobs, window=2)[0] == inline


def test_in_this_process_an_exception_is_still_a_record() -> None:
    out, stats = results([6, 7])
    assert out == [{"n": 6, "square": 36, "setup": "set"},
                   {"n": 7, "failure": "internal", "message": "internal error: ValueError: item 7"}]
    assert stats.engine == "inline" and stats.failures == {"internal": 1}


def test_workers_are_replaced_after_k_items() -> None:
    out, stats = results(range(12), task=batch_tasks.whoami, jobs=2, worker_tasks=3)
    pids = [r["pid"] for r in out]
    assert os.getpid() not in pids
    assert max(pids.count(p) for p in set(pids)) <= 3 and len(set(pids)) >= 4
    assert len(set(pids)) <= stats.started <= len(set(pids)) + 2  # a spare may start for the last item


def test_items_are_read_as_they_are_needed() -> None:
    """An endless input: the run holds a bounded window of it, never all of it."""
    works = (Work(str(n), n) for n in itertools.count())
    first = list(itertools.islice(run(works, batch_tasks.whoami, on_failure=failed,
                                      settings=Settings(jobs=2, window=3)), 7))
    assert [d.result["n"] for d in first] == list(range(7))


def test_bad_settings_are_refused() -> None:
    for kwargs, message in [({"jobs": 0}, "jobs must be a whole number from 1, got 0"),
                            ({"timeout": 0.0}, "the hard time limit must be finite and > 0, got 0.0"),
                            ({"worker_tasks": 0}, "worker_tasks must be a whole number from 1, got 0"),
                            ({"worker_memory_mb": 200}, "worker memory must be at least 256 MiB, got 200")]:
        with pytest.raises(GeoDSLError, match=message):
            Settings(**kwargs)


# -- the --out sink ---------------------------------------------------------------------


def write(tmp_path: Path, items, *, resume: bool = False, name: str = "out.jsonl", **settings) -> list[str]:
    path = tmp_path / name
    with JsonlSink(path, resume=resume) as sink:
        for _ in run((Work(str(n), n) for n in items), batch_tasks.whoami, on_failure=failed,
                     settings=Settings(**settings), sink=sink, record=lambda r: {"n": r["n"]},
                     identify=lambda rec: str(rec["n"])):
            pass
    return path.read_text(encoding="utf-8").splitlines()


def test_a_resumed_file_is_the_uninterrupted_file(tmp_path: Path) -> None:
    whole = write(tmp_path, range(20), name="whole.jsonl", jobs=2)
    assert whole == [json.dumps({"n": n}) for n in range(20)]
    cut = tmp_path / "out.jsonl"
    cut.write_text("\n".join(whole[:7]) + "\n" + whole[7][:5], encoding="utf-8")  # stopped mid-line
    assert write(tmp_path, range(20), resume=True, jobs=2) == whole
    assert write(tmp_path, range(20), resume=True) == whole  # complete: nothing runs, nothing changes


def test_the_sink_refuses_what_it_cannot_resume(tmp_path: Path) -> None:
    path = tmp_path / "out.jsonl"
    path.write_text('{"n": 0}\n', encoding="utf-8")
    with pytest.raises(OutFileError, match="the file exists"):
        JsonlSink(path)
    with pytest.raises(OutFileError, match="is a folder"):
        JsonlSink(tmp_path)
    with pytest.raises(OutFileError) as info:
        write(tmp_path, [5, 6], resume=True)
    assert info.value.message == (f"--resume: line 1 of {path} is the record of 0, but problem 1 of the "
                                  "input is 5")
    assert (info.value.line, info.value.hint) == (1, "resume with the same inputs and flags as the first run")
    with pytest.raises(OutFileError, match="holds more records than the input has problems"):
        write(tmp_path, [], resume=True)
    path.write_text('{"n": 0}\nnot json\n{"n": 2}\n', encoding="utf-8")
    with pytest.raises(OutFileError) as info:
        write(tmp_path, [0, 1, 2], resume=True)
    assert info.value.line == 2 and "line 2 of" in info.value.message and "is not a JSON record" in info.value.message
    path.write_text('{"n": 0}\n[1]\n', encoding="utf-8")
    with pytest.raises(OutFileError, match="line 2 of .* is not a JSON object"):
        write(tmp_path, [0, 1], resume=True)


def test_timing_fields_are_what_may_differ() -> None:
    record = {"seconds": 1.5, "goals": [{"proof": None, "seconds": 2}], "seconds_without": 0.1, "n": 1}
    assert without_timing(record) == {"goals": [{"proof": None}], "n": 1}


# -- the streamed JSON array ---------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=20)


@given(st.lists(JSON, max_size=5), st.booleans())
@hyp_settings(max_examples=200, deadline=None)
def test_the_streamed_array_is_what_json_dump_writes(items: list[object], nested: bool) -> None:
    """Alone (the --json array), or as a value inside an object (check --audit's problems)."""
    import io

    buf = io.StringIO()
    out = JsonArray(buf, indent=2 if nested else 0)
    for item in items:
        out.add(item)
    out.close()
    if nested:
        assert '{\n  "a": ' + buf.getvalue() + "\n}" == json.dumps({"a": items}, ensure_ascii=False, indent=2)
    else:
        assert buf.getvalue() == json.dumps(items, ensure_ascii=False, indent=2)
