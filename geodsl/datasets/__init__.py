"""The public problem sets, shipped inside the package and loadable by name.

>>> import geodsl.datasets
>>> geodsl.datasets.names()
('jgex_ag_231', 'imo_ag_30')
>>> len(geodsl.datasets.load("imo_ag_30"))
30

Both sets are AlphaGeometry's (Apache-2.0; attribution in ``NOTICE.md`` beside
this module). Shipping them means a bare install can run the test suite and
the benchmarks, and every command that takes a file also takes a set's name
(``geodsl prove imo_ag_30``). A name is matched case-insensitively, with ``-``
read as ``_`` and an optional ``.txt``, so ``IMO-AG-30`` names ``imo_ag_30``.
Problems loaded by name are located in the set's name (``imo_ag_30:3:1``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..lang.ast import Problem
from ..lang.errors import GeoDSLError, UnknownNameError
from ..lang.limits import DEFAULT_LIMITS, Limits
from ..lang.parser import iter_parse, parse
from ..lang.semantics import did_you_mean

_HERE = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class Dataset:
    """One shipped problem set."""

    name: str
    title: str
    problems: int
    description: str
    licence: str = "Apache-2.0"
    origin: str = "AlphaGeometry (github.com/google-deepmind/alphageometry)"

    @property
    def path(self) -> Path:
        return _HERE / f"{self.name}.txt"


DATASETS: dict[str, Dataset] = {d.name: d for d in (
    Dataset("jgex_ag_231", "JGEX-AG-231", 231,
            "problems from the Java Geometry Expert collection, as translated for AlphaGeometry"),
    Dataset("imo_ag_30", "IMO-AG-30", 30,
            "IMO problems 2000-2022 (28 problems, two split in two), as translated for AlphaGeometry"),
)}
"""The shipped sets by name, in the order :func:`names` gives."""


def names() -> tuple[str, ...]:
    """The names of the shipped sets."""
    return tuple(DATASETS)


def _normalised(name: str) -> str:
    key = name.strip().lower().replace("-", "_")
    return key.removesuffix(".txt")


def lookup(name: str) -> Dataset | None:
    """The set ``name`` names (see the module docstring for spellings), or None."""
    return DATASETS.get(_normalised(name))


def suggestion(name: str) -> str | None:
    """The set a mistyped ``name`` most likely means, if any is close."""
    return did_you_mean(_normalised(name), DATASETS)


def info(name: str) -> Dataset:
    """The :class:`Dataset` ``name`` names; an :class:`UnknownNameError` otherwise."""
    found = lookup(name)
    if found is None:
        guess = suggestion(name)
        listed = ", ".join(DATASETS)
        hint = f"did you mean `{guess}`? (datasets: {listed})" if guess else f"datasets: {listed}"
        raise UnknownNameError(f"unknown dataset `{name}`", text=name, hint=hint)
    return found


def path(name: str) -> Path:
    """Where the set's file is installed (a plain text file in the package)."""
    return info(name).path


def text(name: str) -> str:
    """The set's file, as text."""
    dataset = info(name)
    try:
        return dataset.path.read_text(encoding="utf-8")
    except OSError as exc:  # a broken installation, not bad input
        raise GeoDSLError(f"cannot read the shipped dataset {dataset.path}: {exc.strerror or exc}",
                          source=str(dataset.path), hint="reinstall geodsl") from None


def load(name: str, *, limits: Limits = DEFAULT_LIMITS) -> list[Problem]:
    """Every problem of the set, in file order (spans say the set's name)."""
    dataset = info(name)
    return parse(text(dataset.name), dataset.name, limits=limits)


def iter_load(name: str, *, limits: Limits = DEFAULT_LIMITS) -> Iterator[Problem | GeoDSLError]:
    """Every problem of the set, or the error that stopped it (see :func:`geodsl.iter_parse`)."""
    dataset = info(name)
    yield from iter_parse(text(dataset.name), dataset.name, limits=limits)


__all__ = ["DATASETS", "Dataset", "info", "iter_load", "load", "lookup", "names", "path", "suggestion",
           "text"]
