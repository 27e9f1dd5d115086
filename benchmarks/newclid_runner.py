"""Run Newclid 3 (with its C++ yuclid engine) on problems, for benchmarks/closure.py.

This script runs inside Newclid's own virtual environment, never geodsl's:

    python3 -m venv nc-venv && nc-venv/bin/pip install "newclid==3.0.1" "py-yuclid==3.0.0" pyyaml

(the `yuclid` binary that py-yuclid installs must be on PATH). It reads JSON
lines `{"name", "text", "timeout"}` on standard input and writes one JSON line
per problem: `{"name", "status": "solved" | "unsolved" | "error" | "timeout",
"seconds", "message"}`. Seconds cover what a user waits for: building the
numeric figure and running the solver, in this process.
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


def main() -> None:
    logging.disable(logging.CRITICAL)
    import numpy as np
    from newclid.api import GeometricSolverBuilder
    from newclid.jgex.problem_builder import JGEXProblemBuilder

    signal.signal(signal.SIGALRM, _alarm)
    for raw in sys.stdin:
        if not raw.strip():
            continue
        job = json.loads(raw)
        start = time.perf_counter()
        status, message = "error", ""
        signal.alarm(int(job.get("timeout", 30)))
        try:
            rng = np.random.default_rng(0)
            setup = JGEXProblemBuilder(rng=rng).with_problem_from_txt(job["text"], job["name"]).build()
            solver = GeometricSolverBuilder(rng).build(setup)
            status = "solved" if solver.run() else "unsolved"
        except _Timeout:
            status = "timeout"
        except Exception as exc:  # Newclid rejects some inputs: record why
            message = f"{type(exc).__name__}: {str(exc)[:200]}"
        finally:
            signal.alarm(0)
        print(json.dumps({"name": job["name"], "status": status, "seconds": time.perf_counter() - start,
                          "message": message}), flush=True)


if __name__ == "__main__":
    main()
