"""The algebraic prover behind the :class:`~geodsl.proofs.Prover` interface
(``--method algebra``): coordinates (:mod:`.coordinates`), the goal's
pseudo-remainder, and the certificate checked by :mod:`.check` before the
goal counts as proved.

Polynomial arithmetic cannot be interrupted halfway, so the work runs in a
forked child process that is stopped when the problem's budget runs out
(status ``budget``); the child returns plain data.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Sequence
from typing import Any

from ..budget import Budget, Clock
from ..lang.ast import Predicate, Problem
from ..lang.definitions import expand, rulebase
from ..proofs import Certificate, GoalResult, Result, Status
from ..realizer import Diagrams, realize

MAX_TEXT = 4000
"""Characters kept of one polynomial in a certificate's JSON (longer ones are cut, and say so)."""


def _text(elem: Any) -> tuple[str, bool]:
    text = str(elem)
    return (text, True) if len(text) <= MAX_TEXT else (text[:MAX_TEXT] + "…", False)


def _work(problem: Problem, goals: Sequence[Predicate], figure: dict[str, complex]) -> dict[str, Any]:
    """Coordinates, each goal's remainder, the checker: plain data back."""
    from .check import check
    from .coordinates import AlgebraFailure, parametrize, polynomial_values

    parts = [[p for p in expand(g)] for g in goals]
    provable = [all(not p.negated and rulebase().predicate(p.name).polynomials for p in ps) for ps in parts]
    flat = [p for ps, ok in zip(parts, provable) if ok for p in ps]
    try:
        par = parametrize(problem, figure, goals=flat)
    except AlgebraFailure as exc:
        return {"failure": str(exc)}
    K = par.field
    from sympy.polys.domains import QQ

    def number(q: Any) -> Any:
        return K(QQ(q.numerator, q.denominator))

    complete = True
    coords = {}
    for p, (x, y) in par.coords.items():
        (tx, cx), (ty, cy) = _text(x), _text(y)
        coords[p] = [tx, ty]
        complete = complete and cx and cy
    members = []
    for name, point, m, value in par.algebraic:
        text, ok = _text(m)
        complete = complete and ok
        members.append({"variable": name, "point": point, "polynomial": text, "value": value})
    conditions: list[str] = list(dict.fromkeys(meaning for meaning, _ in par.ndg))
    data = {"parameters": [{"name": n, "value": par.values[n]} for n in par.params],
            "origin": par.origin, "axis": par.axis, "scaled": par.scaled, "coordinates": coords,
            "triangular_set": members, "complete": complete}
    out: list[dict[str, Any] | None] = []
    for goal, ps, ok in zip(goals, parts, provable):
        if not ok or not all(par.is_zero(v) for p in ps for v in polynomial_values(p, par.coords, number)):
            out.append(None)
            continue
        problems = check(problem, par, ps, figure)
        out.append({"conditions": conditions, "problems": problems, "data": data})
    return {"goals": out, "params": len(par.params), "quadratic": len(par.algebraic)}


def _child(conn: Any, problem: Problem, goals: Sequence[Predicate], figure: dict[str, complex]) -> None:
    try:
        conn.send(_work(problem, goals, figure))
    except Exception as exc:  # reported, not raised: the parent owns the error path
        conn.send({"failure": f"internal error: {type(exc).__name__}: {exc}"})
    finally:
        conn.close()


def run_bounded(problem: Problem, goals: Sequence[Predicate], figure: dict[str, complex],
                seconds: float) -> dict[str, Any] | None:
    """:func:`_work` in a forked child, stopped after ``seconds`` (None then)."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, problem, list(goals), figure), daemon=True)
    proc.start()
    child.close()
    try:
        if parent.poll(max(0.0, seconds)):
            answer: dict[str, Any] = parent.recv()  # the child sends a dict
            return answer
        return None
    except EOFError:
        return {"failure": "internal error: the algebra process ended without an answer"}
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()


class AlgebraProver:
    """Coordinates and Wu's pseudo-remainder, with a checked certificate.
    ``seed`` picks the figure that selects branches and checks the result."""

    name = "algebra"
    diagrams = 1

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def prove(self, problem: Problem, goals: Sequence[Predicate] | None = None,
              budget: Budget | Clock | None = None, *, figures: Diagrams | None = None) -> Result:
        start = time.monotonic()
        clock = budget if isinstance(budget, Clock) else (budget or Budget()).start()
        goals = tuple(problem.goals if goals is None else goals)
        if figures is None:
            figures = realize(problem, seed=self.seed, diagrams=1, clock=clock)
        figure = dict(figures[0].all_coords)
        answer = run_bounded(problem, goals, figure, clock.remaining())
        notes: tuple[str, ...] = ()
        found: list[GoalResult] = []
        stats = {"parameters": 0, "quadratic": 0}
        status: Status
        if answer is None:
            status, notes = "budget", ("the algebra ran out of time",)
            found = [GoalResult(g, None) for g in goals]
        elif "failure" in answer:
            status, notes = "saturated", (str(answer["failure"]),)
            found = [GoalResult(g, None) for g in goals]
        else:
            stats = {"parameters": int(answer["params"]), "quadratic": int(answer["quadratic"])}
            for g, item in zip(goals, answer["goals"]):
                if item is None:
                    found.append(GoalResult(g, None))
                    continue
                cert = Certificate(g, "coordinates", tuple(item["conditions"]), not item["problems"],
                                   {**item["data"], "checker": list(item["problems"])},
                                   tuple(c.to_text() for c in problem.aux_given))
                found.append(GoalResult(g, None, cert))
            solved = bool(found) and all(f.proved for f in found)
            status = "proved" if solved else "saturated"
            if not solved:
                notes = ("the goal's pseudo-remainder is not 0: false on some branch, or needs "
                         "another choice of coordinates",)
            for f in found:
                if f.certificate is not None and not f.certificate.checked:
                    notes += ("certificate rejected: " + "; ".join(f.certificate.data["checker"]),)  # type: ignore[arg-type]  # a list of str
        return Result(self.name, status, tuple(found), time.monotonic() - start, stats, notes)
