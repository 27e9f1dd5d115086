"""Solve rate and time of the closure on the public sets (DD+AR alone, no
auxiliary constructions, original AlphaGeometry text), optionally side by
side with Newclid 3 in the same run.

    python benchmarks/closure.py [--timeout S] [--set jgex|imo|both] [--list] [--repeat K]
                                 [--newclid PATH/TO/NEWCLID/VENV/bin/python]
    python benchmarks/closure.py --methods ddar,search,algebra,auto --limit S [--jobs N] [--set ...]

With ``--methods``, each method runs on every problem of the set with the
per-problem limit ``--limit`` (one budget for the whole problem: realizing,
every stage, every method inside ``auto``), and the table puts them side by
side: solved, median and total seconds, tries and seconds per try of the
search (each try extends the premise's saturated closure), and the problems each
method adds to DD+AR alone. Every proof is checked to hold in independently
seeded figures and every certificate to pass its checker (``audit`` column:
failures). ``--jobs`` is the search's process pool.

Prints, per set and engine: solved, median / p90 / max / total seconds per
problem (geodsl: realize + closure + proof, one core), and with ``--newclid``
the geodsl/Newclid time ratio problem by problem (median and p90; every row
with ``--list``). Newclid runs under its own interpreter (a separate venv:
``pip install "newclid==3.0.1" "py-yuclid==3.0.0" pyyaml``, with its C++
``yuclid`` on PATH — the venv's bin is put first on PATH); it is never a
geodsl dependency. Lines Newclid rejects in the original spelling are retried
in geodsl's Newclid-dialect printing and marked ``translated``.

``--repeat K`` runs every problem K times in each engine and keeps the
fastest time of each: on a shared machine a single run's median moves by
±20%, the fastest of three much less.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import geodsl
from newclid_runner import run_newclid

SETS = {"jgex": geodsl.datasets.path("jgex_ag_231"), "imo": geodsl.datasets.path("imo_ag_30")}


def _p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[int(0.9 * (len(xs) - 1))] if xs else 0.0


def _summary(label: str, solved: int, total: int, times: list[float]) -> str:
    if not times:
        return f"  {label:<8} solved {solved}/{total}"
    return (f"  {label:<8} solved {solved:>3}/{total}  median {statistics.median(times):.3f} s  "
            f"p90 {_p90(times):.3f} s  max {max(times):.3f} s  total {sum(times):.1f} s")


def run_geodsl(path: Path, timeout: float, repeat: int = 1) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for p in geodsl.iter_load(str(path)):
        if isinstance(p, geodsl.GeoDSLError):
            rows.append({"name": None, "solved": False, "status": "error", "seconds": 0.0,
                         "unsound": 0, "problem": None})
            continue
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            try:
                c = geodsl.closure(p, timeout=timeout)
                if c.solved:
                    c.proof()
                status, unsound, solved = c.status, len(c.unsound), c.solved
            except geodsl.GeoDSLError:
                status, unsound, solved = "error", 0, False
            best = min(best, time.perf_counter() - start)
        rows.append({"name": p.name, "solved": solved, "status": status,
                     "seconds": best, "unsound": unsound, "problem": p})
    return rows


def _problem_text(p: geodsl.Problem, dialect: str) -> str:
    return f"{p.premise.to_text(dialect)} ? " + "; ".join(g.to_text(dialect) for g in p.goals)


def run_set(name: str, path: Path, timeout: float, listing: bool, newclid: str | None,
            repeat: int = 1) -> None:
    rows = run_geodsl(path, timeout, repeat)
    n = len(rows)
    times = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
    print(f"{path.name} (timeout {timeout:g} s" + (f", fastest of {repeat} runs)" if repeat > 1 else ")"))
    print(_summary("geodsl", sum(bool(r["solved"]) for r in rows), n, times)
          + f"  unsound facts {sum(int(r['unsound']) for r in rows)}")  # type: ignore[arg-type]
    nc: dict[str, dict[str, object]] = {}
    if newclid:
        raw = path.read_text(encoding="utf-8").splitlines()
        originals = {raw[i].strip(): raw[i + 1].strip() for i in range(0, len(raw) - 1, 2)}
        items = [{"name": str(r["name"]), "text": originals.get(str(r["name"]), "")} for r in rows]
        nc = run_newclid(newclid, items, timeout, repeat)
        retry = [{"name": str(r["name"]), "text": _problem_text(r["problem"], "newclid")}  # type: ignore[arg-type]
                 for r in rows if r["problem"] is not None and nc.get(str(r["name"]), {}).get("error")
                 not in (None, "timeout")]
        for name_, rec in run_newclid(newclid, retry, timeout, repeat).items():
            rec["translated"] = True
            nc[name_] = rec
        nc_times = [float(v["seconds"]) for v in nc.values()]  # type: ignore[arg-type]
        print(_summary("newclid", sum(bool(v["solved"]) for v in nc.values()), n, nc_times)
              + f"  translated {sum(bool(v.get('translated')) for v in nc.values())}"
              f"  rejected {sum(v.get('error') not in (None, 'timeout') for v in nc.values())}")
        ratios = [float(r["seconds"]) / float(nc[str(r["name"])]["seconds"])  # type: ignore[arg-type]
                  for r in rows if str(r["name"]) in nc and nc[str(r["name"])]["error"] is None]
        if ratios:
            print(f"  time ratio geodsl/newclid per problem: median {statistics.median(ratios):.2f}  "
                  f"p90 {_p90(ratios):.2f}  (over {len(ratios)} problems Newclid ran)")
    if listing:
        for r in rows:
            line = f"    {r['name']}\t{'solved' if r['solved'] else r['status']}\t{float(r['seconds']):.3f}"  # type: ignore[arg-type]
            other = nc.get(str(r["name"]))
            if other is not None:
                verdict = "solved" if other["solved"] else (other["error"] or "unsolved")
                line += f"\tnewclid {verdict}\t{float(other['seconds']):.3f}"  # type: ignore[arg-type]
                if other["error"] is None:
                    line += f"\tratio {float(r['seconds']) / max(float(other['seconds']), 1e-9):.2f}"  # type: ignore[arg-type]
                if other.get("translated"):
                    line += "\ttranslated"
            print(line)


def _audit(problem: geodsl.Problem, result: object) -> int:
    """Failures of one result's audit: a synthetic proof's facts must hold in
    independently seeded figures of the (extended) problem; a certificate
    must have passed its checker."""
    bad = 0
    for g in result.goals:  # type: ignore[attr-defined]
        if g.certificate is not None and not g.certificate.checked:
            bad += 1
        if g.proof is None:
            continue
        ext = problem
        if g.proof.auxiliary and not problem.aux_given:
            aux = geodsl.parse_problem(f"{problem.premise.to_text()} | " + "; ".join(g.proof.auxiliary)).aux_given
            ext = problem.with_auxiliary(aux)
        figures = geodsl.realize(ext, seed=97, diagrams=2)
        facts = [x.predicate for x in g.proof.givens] + [x.predicate for x in g.proof.steps]
        bad += sum(not all(d.holds(f) for d in figures) for f in facts)
    return bad


def run_methods(path: Path, methods: list[str], limit: float, jobs: int, listing: bool) -> None:
    """Every method on every problem of the set, side by side (see the module doc)."""
    from geodsl.budget import Budget
    from geodsl.provers import get_prover

    problems = [p for p in geodsl.iter_load(str(path)) if not isinstance(p, geodsl.GeoDSLError)]
    rows: dict[str, dict[str, tuple[bool, float, dict[str, int], int]]] = {}
    for method in methods:
        rows[method] = {}
        for p in problems:
            prover = get_prover(method, seed=0, jobs=jobs)
            start = time.perf_counter()
            try:
                result = prover.prove(p, budget=Budget(seconds=limit))
                solved, stats, bad = result.solved, dict(result.stats), _audit(p, result) if result.solved else 0
            except geodsl.GeoDSLError:
                solved, stats, bad = False, {}, 0
            rows[method][str(p.name)] = (solved, time.perf_counter() - start, stats, bad)
            if listing:
                print(f"    {method}\t{p.name}\t{'solved' if solved else 'unsolved'}\t"
                      f"{rows[method][str(p.name)][1]:.2f}\t{stats}", flush=True)
    print(f"{path.name}: {len(problems)} problems, limit {limit:g} s per problem, search jobs {jobs}")
    print(f"  {'method':<8} {'solved':>7} {'median s':>9} {'total s':>9} {'tries':>7} {'s/try':>6} {'audit':>6}  added to ddar")
    base = {n for n, r in rows.get("ddar", {}).items() if r[0]}
    for method, table in rows.items():
        times = [r[1] for r in table.values()]
        tries = sum(r[2].get("tries", 0) for r in table.values())
        search_time = sum(r[1] for r in table.values() if r[2].get("tries"))
        added = sorted(n for n, r in table.items() if r[0] and n not in base) if "ddar" in rows else []
        per_try = f"{search_time / tries:.3f}" if tries else "-"
        print(f"  {method:<8} {sum(r[0] for r in table.values()):>4}/{len(table):<3}"
              f"{statistics.median(times):>9.3f} {sum(times):>9.1f} {tries:>7} {per_try:>6} "
              f"{sum(r[3] for r in table.values()):>6}  {', '.join(_short(n) for n in added) or '-'}")
    if len(rows) > 1:
        union = {n for table in rows.values() for n, r in table.items() if r[0]}
        print(f"  solved by some method: {len(union)}/{len(problems)}; by none: "
              + (", ".join(_short(n) for n in sorted(str(p.name) for p in problems if str(p.name) not in union))
                 or "-"))


def _short(name: str) -> str:
    return name.rsplit("/", 1)[-1].removeprefix("translated_")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--set", choices=["jgex", "imo", "both"], default="both")
    ap.add_argument("--list", action="store_true", help="print every problem")
    ap.add_argument("--newclid", metavar="PYTHON", help="Newclid's venv python, to run it side by side")
    ap.add_argument("--repeat", type=int, default=1, metavar="K",
                    help="run each problem K times in each engine, keep the fastest")
    ap.add_argument("--methods", metavar="M,M", help="provers to compare side by side: ddar,search,algebra,auto")
    ap.add_argument("--limit", type=float, default=60.0, metavar="S", help="seconds per problem with --methods")
    ap.add_argument("--jobs", type=int, default=1, metavar="N", help="the search's worker processes")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    for name in (["jgex", "imo"] if args.set == "both" else [args.set]):
        if args.methods:
            run_methods(SETS[name], args.methods.split(","), args.limit, args.jobs, args.list)
        else:
            run_set(name, SETS[name], args.timeout, args.list, args.newclid, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
