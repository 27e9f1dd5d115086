"""The compiled modules against their Python references.

``ext/diagram.pxi`` re-implements the hot numeric checks of
``geodsl/realizer/checks.py`` for the rule matcher, operation for operation,
so that matching finds exactly the instances the realizer's checks accept.
These tests hold the two to that on random configurations, including
near-degenerate ones (points on a small grid, so collinear, parallel,
concyclic and equal-length configurations occur, then nudged by amounts
around the tolerance); and the ``.pyi`` stubs to the compiled modules'
real contents (mypy's stubtest)."""

from __future__ import annotations

import itertools
import os
import subprocess
from pathlib import Path
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import geodsl
from geodsl._match import CHECKS as COMPILED
from geodsl.ddar.numeric import NumericModel
from geodsl.realizer.checks import CHECKS
from geodsl.realizer.tolerance import TOLERANCE

NUDGES = st.sampled_from([0.0, 0.0, 0.0, 1e-12, -1e-12, 3e-7, -3e-7, 1e-6, -1e-6, 2e-6, 1e-4])


@st.composite
def configurations(draw: st.DrawFn) -> list[complex]:
    n = draw(st.integers(4, 9))
    grid = st.integers(-3, 3)
    return [complex(draw(grid), draw(grid)) + complex(draw(NUDGES), draw(NUDGES)) for _ in range(n)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(points=configurations(), data=st.data())
def test_compiled_checks_agree_with_the_realizer(points: list[complex], data: st.DataObject) -> None:
    model = NumericModel(points, TOLERANCE)
    n = len(points)
    for name, (_, arity) in sorted(COMPILED.items()):
        tuples = data.draw(st.lists(st.tuples(*[st.integers(0, n - 1)] * arity), min_size=8, max_size=8))
        for args in tuples:
            python = bool(CHECKS[name]([points[a] for a in args], model.tol, model.scale))
            assert model.diagram.holds(name, *args) == python, (name, args)


def test_compiled_checks_agree_exhaustively_on_a_degenerate_figure() -> None:
    # A square, its centre, midpoints and a point on a diagonal: every kind of
    # coincidence at once; every argument tuple of the four-point checks.
    points = [0j, 2 + 0j, 2 + 2j, 2j, 1 + 1j, 1 + 0j, 2 + 1j, 0.5 + 0.5j, 1 + 1j + 1e-7]
    model = NumericModel(points, TOLERANCE)
    for name, (_, arity) in sorted(COMPILED.items()):
        if arity > 4:
            continue
        for args in itertools.product(range(len(points)), repeat=arity):
            python = bool(CHECKS[name]([points[a] for a in args], model.tol, model.scale))
            assert model.diagram.holds(name, *args) == python, (name, args)


def test_stubs_describe_the_compiled_modules(tmp_path: object) -> None:
    modules = ["geodsl._canon", "geodsl._lalr", "geodsl._linear", "geodsl._fire", "geodsl._match"]
    allowlist = Path(__file__).with_name("stubtest_allowlist.txt")
    env = dict(os.environ)
    home = Path(geodsl.__file__).resolve().parent.parent
    if "site-packages" not in home.parts:
        # An editable install: mypy does not follow its import hook, so
        # point it at the source tree (else it finds no stubs and checks nothing).
        env["MYPYPATH"] = str(home)
    # sympy has no type information (pyproject.toml says so for `mypy geodsl`). Not the
    # project's whole config: from site-packages stubtest reaches no sympy import, and
    # the project's warn_unused_configs would then fail the run on that section.
    config = Path(str(tmp_path)) / "stubtest.ini"
    config.write_text("[mypy]\n\n[mypy-sympy,sympy.*]\nignore_missing_imports = True\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy.stubtest", "--allowlist", str(allowlist),
                           "--ignore-unused-allowlist", "--mypy-config-file", str(config), *modules],
                          capture_output=True, text=True, cwd=str(tmp_path), env=env)
    assert done.returncode == 0, done.stdout + done.stderr
