"""Shared fixtures: the public problem sets, read where the project card puts them."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
JGEX = DATA / "jgex_ag_231.txt"
IMO = DATA / "imo_ag_30.txt"


@pytest.fixture(scope="session")
def jgex_text() -> str:
    return JGEX.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def imo_text() -> str:
    return IMO.read_text(encoding="utf-8")
