"""Run Newclid 3 on problems given on standard input; for benchmarks/closure.py
(times) and benchmarks/grading.py (proofs).

Runs under *Newclid's own* interpreter (a separate venv with
``pip install "newclid==3.0.1" "py-yuclid==3.0.0" pyyaml``; never a geodsl
dependency). Input: JSON lines ``{"name": ..., "text": "premise ? goal"}``.
Output: one JSON line per problem ``{"name", "solved", "seconds", "error"}``,
plus ``"proof"`` (the text Newclid writes, ``GeometricSolver.proof()``, when
it solved the problem) with ``--proofs``; ``seconds`` covers building the
problem (Newclid's numeric sampling) and the DD+AR run, as geodsl's time
covers realize + closure + proof.

    newclid_runner.py TIMEOUT [REPEAT] [--proofs]

``REPEAT``: how many times to run each problem (the fastest run's time is
reported). The benchmarks call it through :func:`run_newclid`, from geodsl's
interpreter.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


class _Timeout(Exception):
    pass


def _alarm(signum, frame):  # noqa: ANN001
    raise _Timeout()


def _run_once(item: dict, timeout: int, proofs: bool) -> dict:
    """One Newclid run of one problem: its record."""
    import numpy as np
    from newclid.api import GeometricSolverBuilder
    from newclid.jgex.problem_builder import JGEXProblemBuilder

    start = time.perf_counter()
    record = {"name": item["name"], "solved": False, "seconds": None, "error": None}
    if proofs:
        record["proof"] = None
    signal.alarm(timeout)
    try:
        builder = JGEXProblemBuilder(rng=np.random.default_rng(0)).with_problem_from_txt(item["text"])
        solver = GeometricSolverBuilder(np.random.default_rng(0)).build(builder.build())
        record["solved"] = bool(solver.run())
        if proofs and record["solved"]:
            record["proof"] = solver.proof()
    except _Timeout:
        record["error"] = "timeout"
    except Exception as exc:  # Newclid rejects some inputs; record why
        record["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.alarm(0)
    record["seconds"] = round(time.perf_counter() - start, 4)
    return record


def run_newclid(python: str, items: list[dict[str, str]], timeout: float, repeat: int = 1, *,
                proofs: bool = False) -> dict[str, dict[str, object]]:
    """This runner under Newclid's interpreter ``python`` on ``items``: its
    records by problem name."""
    if not items:
        return {}
    env = dict(os.environ)
    env["PATH"] = str(Path(python).parent) + os.pathsep + env.get("PATH", "")  # yuclid beside it
    # Newclid writes web assets (lib/) into its working folder: keep them out of the repository.
    with tempfile.TemporaryDirectory() as workdir:
        proc = subprocess.run([python, str(Path(__file__).resolve()), str(timeout), str(repeat),
                               *(["--proofs"] if proofs else [])],
                              input="".join(json.dumps(i) + "\n" for i in items), text=True,
                              capture_output=True, env=env, check=False, cwd=workdir)
    out = {}
    for line in proc.stdout.splitlines():
        rec = json.loads(line)
        out[rec["name"]] = rec
    return out


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--proofs"]
    proofs = "--proofs" in sys.argv[1:]
    timeout = int(float(args[0])) if args else 30
    repeat = max(1, int(args[1])) if len(args) > 1 else 1
    logging.disable(logging.CRITICAL)
    signal.signal(signal.SIGALRM, _alarm)
    for line in sys.stdin:
        item = json.loads(line)
        best = None
        for _ in range(repeat):
            record = _run_once(item, timeout, proofs)
            if best is None or (record["error"] is None and record["seconds"] < best["seconds"]):
                best = record
            if record["error"] is not None:
                break
        print(json.dumps(best, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
