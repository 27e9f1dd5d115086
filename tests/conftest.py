"""Shared fixtures: the public problem sets, as shipped inside the package
(:mod:`geodsl.datasets`), so the suite runs on a bare clone."""

from __future__ import annotations

from pathlib import Path

import pytest

import geodsl.datasets

ROOT = Path(__file__).resolve().parent.parent
JGEX = geodsl.datasets.path("jgex_ag_231")
IMO = geodsl.datasets.path("imo_ag_30")


@pytest.fixture(scope="session")
def jgex_text() -> str:
    return geodsl.datasets.text("jgex_ag_231")


@pytest.fixture(scope="session")
def imo_text() -> str:
    return geodsl.datasets.text("imo_ag_30")
