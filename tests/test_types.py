"""Types are part of the contract: ``mypy geodsl`` reports no error (the
settings are pyproject.toml's ``[tool.mypy]``, unused ignores included), and
every ``type: ignore`` left in the code says on its line why it is there."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?(?P<rest>.*)$")


def test_mypy_reports_no_errors(installed_layout: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "geodsl", "--no-incremental"], cwd=installed_layout,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout


def test_every_type_ignore_gives_its_reason() -> None:
    bare = []
    for path in sorted(list((ROOT / "geodsl").rglob("*.py")) + list((ROOT / "checker").rglob("*.py"))):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            m = IGNORE.search(line)
            if m and not m.group(1):
                bare.append(f"{path.relative_to(ROOT)}:{number}: a bare `type: ignore` (name the error code)")
            elif m and not re.match(r"\s*(#\s*)?\S", m.group("rest")):
                bare.append(f"{path.relative_to(ROOT)}:{number}: no reason after `type: ignore{m.group(1)}`")
    assert bare == []
