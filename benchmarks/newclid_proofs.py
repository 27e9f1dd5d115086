"""Run Newclid 3 on problems and print its proofs; for benchmarks/grading.py.

Runs under *Newclid's own* interpreter (a separate venv with
``pip install "newclid==3.0.1" "py-yuclid==3.0.0" pyyaml``; never a geodsl
dependency), like benchmarks/newclid_runner.py. Input: JSON lines
``{"name": ..., "text": "premise ? goal"}``. Output: one JSON line per
problem ``{"name", "solved", "proof", "seconds", "error"}``, ``proof`` the
text Newclid writes (``GeometricSolver.proof()``) when it solved the problem.
Argument: the timeout per problem in seconds.
"""

from __future__ import annotations

import json
import logging
import signal
import sys
import time


class _Timeout(Exception):
    pass


def _alarm(signum, frame):  # noqa: ANN001
    raise _Timeout()


def _run(item: dict, timeout: int) -> dict:
    import numpy as np
    from newclid.api import GeometricSolverBuilder
    from newclid.jgex.problem_builder import JGEXProblemBuilder

    start = time.perf_counter()
    record = {"name": item["name"], "solved": False, "proof": None, "seconds": None, "error": None}
    signal.alarm(timeout)
    try:
        builder = JGEXProblemBuilder(rng=np.random.default_rng(0)).with_problem_from_txt(item["text"])
        solver = GeometricSolverBuilder(np.random.default_rng(0)).build(builder.build())
        record["solved"] = bool(solver.run())
        if record["solved"]:
            record["proof"] = solver.proof()
    except _Timeout:
        record["error"] = "timeout"
    except Exception as exc:  # Newclid rejects some inputs; record why
        record["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.alarm(0)
    record["seconds"] = round(time.perf_counter() - start, 4)
    return record


def main() -> int:
    timeout = int(float(sys.argv[1])) if len(sys.argv) > 1 else 30
    logging.disable(logging.CRITICAL)
    signal.signal(signal.SIGALRM, _alarm)
    for line in sys.stdin:
        print(json.dumps(_run(json.loads(line), timeout), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
