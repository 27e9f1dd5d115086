"""The structure the code promises (DESIGN.md §3): imports point down the
layers only, there are no import cycles anywhere, the compiled modules
import nothing from their Python callers, and ``import geodsl`` stays light.

The source folders are laid out by concern (``checker/`` beside
``geodsl/``) and the build maps them into one package, so the import graph
is built from the source tree assembled the way the build installs it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_imports_point_down_the_layers(installed_layout: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()"], cwd=installed_layout, capture_output=True, text=True,
                          env={"PYTHONPATH": str(installed_layout), "PATH": ""})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 kept, 0 broken" in done.stdout


_CYCLES = """
import json, sys
import grimp
graph = grimp.build_graph("geodsl", include_external_packages=False, exclude_type_checking_imports=True,
                          cache_dir=None)
modules = sorted(graph.modules)
imports = {m: sorted(graph.find_modules_directly_imported_by(m) & graph.modules) for m in modules}
# Tarjan's strongly connected components: a cycle is a component of two or more.
index, low, stack, cycles = {}, {}, [], []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    for w in imports[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            cycles.append(sorted(component))
sys.setrecursionlimit(10_000)
for m in modules:
    if m not in index:
        visit(m)
print(json.dumps({"modules": modules, "cycles": cycles}))
"""


def test_no_import_cycles(installed_layout: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _CYCLES], cwd=installed_layout, capture_output=True, text=True,
                          env={"PYTHONPATH": str(installed_layout), "PATH": ""})
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert "geodsl.checker.options" in found["modules"] and "geodsl.ddar.store" in found["modules"]
    assert found["cycles"] == []


def test_compiled_modules_import_nothing_from_their_callers() -> None:
    allowed = {"geodsl.budget"}  # the one exception type every layer raises
    for source in sorted((ROOT / "ext").glob("*.p[yx][xi]")):
        for line in source.read_text(encoding="utf-8").splitlines():
            m = re.match(r"\s*(?:from|import)\s+(geodsl[\w.]*)", line)
            if m:
                assert m.group(1) in allowed, f"{source.name}: {line.strip()}"


@pytest.mark.parametrize("module", ["geodsl", "geodsl.checker.answers", "geodsl.lang.parser"])
def test_light_imports(module: str, tmp_path: Path) -> None:
    # From a neutral folder, so `-c` imports the installed package, not the
    # source tree in the working directory (which has no compiled modules
    # after a plain `pip install .`).
    code = (f"import sys, {module}; heavy = [m for m in ('numpy', 'matplotlib', 'geodsl.ddar', "
            "'geodsl.realizer', 'geodsl._match') if m in sys.modules]; print(heavy)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert done.stdout.strip() == "[]"


def test_heavy_parts_load_on_first_use(tmp_path: Path) -> None:
    code = ("import sys, geodsl; geodsl.closure; print('geodsl.ddar' in sys.modules, "
            "'numpy' in sys.modules); geodsl.nothing_here")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout.strip() == "True True"
    assert "module 'geodsl' has no attribute 'nothing_here'" in done.stderr
