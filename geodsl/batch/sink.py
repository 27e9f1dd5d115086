"""The ``--out FILE.jsonl`` file: one JSON object per line, in input order,
each written and flushed as soon as its turn comes, so that a run stopped
at any moment (Ctrl-C, a killed machine) leaves a file that ``--resume``
continues.

A record counts once its newline is in the file: a last line cut short by
the stop (or a complete object whose newline never made it) is dropped
when the run resumes, and that problem runs again. Every other line must
be a JSON object, else the file is not a run's output and is refused.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from ..lang.errors import GeoDSLError

FSYNC_SECONDS = 1.0
"""At most this long between two fsyncs: what a power cut may cost."""


class OutFileError(GeoDSLError):
    """An ``--out`` file that cannot be written or resumed."""

    kind = "out_file"


def dumps(record: dict[str, object]) -> str:
    """The line of one record (no newline): the same bytes in every engine."""
    return json.dumps(record, ensure_ascii=False)


class JsonlSink:
    """Writer of one run's ``--out`` file (a context manager).

    Without ``resume`` the file must not exist yet (a finished run is never
    overwritten by accident); with it, :meth:`resumed` yields the records
    already there, then :meth:`write` appends after them."""

    def __init__(self, path: str | os.PathLike[str], *, resume: bool = False) -> None:
        self.path = Path(path)
        self.resume = resume
        self.good_bytes = 0
        self.dropped_tail = False
        self._out: IO[str] | None = None
        self._synced = time.monotonic()
        if self.path.is_dir():
            raise OutFileError(f"--out {path}: is a folder", source=str(path), text=str(path),
                               hint="give a file name, e.g. --out results.jsonl")
        if self.path.exists() and not resume:
            raise OutFileError(f"--out {path}: the file exists", source=str(path), text=str(path),
                               hint="pass --resume to continue that run, or remove the file first")

    def __enter__(self) -> JsonlSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def resumed(self) -> Iterator[tuple[int, dict[str, object]]]:
        """(line number, record) of every complete record already written."""
        if not self.resume or not self.path.exists():
            return
        with open(self.path, "rb") as f:
            data_end = os.fstat(f.fileno()).st_size
            number = 0
            offset = 0
            for raw in f:
                number += 1
                if not raw.endswith(b"\n"):
                    self.dropped_tail = True  # cut short by the stop: run it again
                    break
                try:
                    record = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                    if offset + len(raw) >= data_end:
                        self.dropped_tail = True
                        break
                    raise OutFileError(f"--resume: line {number} of {self.path} is not a JSON record ({exc})",
                                       source=str(self.path), line=number, column=1,
                                       text=raw[:40].decode("utf-8", "replace"),
                                       hint="only a file written by --out can be resumed") from None
                if not isinstance(record, dict):
                    raise OutFileError(f"--resume: line {number} of {self.path} is not a JSON object",
                                       source=str(self.path), line=number, column=1,
                                       hint="only a file written by --out can be resumed")
                offset += len(raw)
                self.good_bytes = offset
                yield number, record

    def _open(self) -> IO[str]:
        if self._out is None:
            try:
                if self.resume and self.path.exists():
                    with open(self.path, "r+b") as f:
                        f.truncate(self.good_bytes)
                    self._out = open(self.path, "a", encoding="utf-8", newline="\n")
                else:
                    if self.path.parent and not self.path.parent.exists():
                        raise OutFileError(f"--out {self.path}: no folder {self.path.parent}", source=str(self.path),
                                           text=str(self.path), hint="create the folder first")
                    self._out = open(self.path, "x" if not self.resume else "a", encoding="utf-8", newline="\n")
            except OSError as exc:
                raise OutFileError(f"--out {self.path}: {exc.strerror or exc}", source=str(self.path),
                                   text=str(self.path), hint="check the path and its permissions") from None
        return self._out

    def start(self) -> None:
        """Open the file for the new records (after :meth:`resumed`): a cut
        last line is removed now, and a new file is created."""
        self._open()

    def write(self, record: dict[str, object]) -> None:
        out = self._open()
        out.write(dumps(record) + "\n")
        out.flush()
        now = time.monotonic()
        if now - self._synced >= FSYNC_SECONDS:
            os.fsync(out.fileno())
            self._synced = now

    def close(self) -> None:
        if self._out is not None:
            self._out.flush()
            try:
                os.fsync(self._out.fileno())
            except OSError:
                pass
            self._out.close()
            self._out = None
