"""Shared fixtures: the public problem sets, as shipped inside the package
(:mod:`geodsl.datasets`), so the suite runs on a bare clone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import geodsl.datasets

ROOT = Path(__file__).resolve().parent.parent
JGEX = geodsl.datasets.path("jgex_ag_231")
IMO = geodsl.datasets.path("imo_ag_30")


ODD_PROBLEMS = """problem: typo
a b c = triangle a b c; d = midpiont d a b ? coll a b d

problem: false_goal
a b c = triangle a b c; d = midpoint d a b ? perp a b c d

problem: no_goal
a b c = triangle a b c; d = midpoint d a b

problem: degenerate
a b = segment a b; c = midpoint c a b; o = circle o a b c

problem: two_goals
a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c ? para d e b c; cong d e b c

"""
"""Problems every command must handle without a traceback: a typo (an input
error, first so its line is known), a false goal, no goal, a degenerate
construction, two goals; each ends with a blank line."""

QUERY_PROBLEM = """problem: query
a = free a; b = lconst b a 3; c = eq_triangle c a b ? acompute a b b c
"""
"""A goal asking for a value (answered numerically)."""


@pytest.fixture(scope="session")
def jgex_text() -> str:
    return geodsl.datasets.text("jgex_ag_231")


@pytest.fixture(scope="session")
def imo_text() -> str:
    return geodsl.datasets.text("imo_ag_30")


@pytest.fixture(scope="session")
def installed_layout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The source tree assembled the way the build installs it: ``geodsl/``
    with ``checker/`` as ``geodsl/checker`` (Python files, stubs and data; no
    compiled modules), and ``pyproject.toml`` for the tools' settings."""
    top = tmp_path_factory.mktemp("layout")
    shutil.copytree(ROOT / "geodsl", top / "geodsl", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copytree(ROOT / "checker", top / "geodsl" / "checker", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", top / "pyproject.toml")
    return top
