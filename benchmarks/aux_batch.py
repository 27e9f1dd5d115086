"""Throughput of `geodsl aux --batch` on a generated batch of candidates.

    python benchmarks/aux_batch.py [--candidates 10000] [--per-item 10] [--stages read,defined,full]

The batch: the JGEX-AG-231 problems in turn, each with ``--per-item``
candidate auxiliary constructions drawn at random (seeded) over its points —
midpoints, feet, reflections, circumcentres, intersections of lines,
parallels and perpendiculars, points on circles, a free point on a line —
kept when the language accepts them, and written in English or Chinese by
``geodsl.to_words`` or in the DSL (two fifths each, one fifth DSL); one
candidate in twenty is damaged (a point renamed to one the problem lacks) so
that errors are part of the load. Stages, each on the whole batch in one
process (one core):

- ``read``: ``geodsl.read_aux`` alone (the grammars and the resolver);
- ``defined``: ``geodsl aux --batch --no-prove`` (reading, realizing every
  candidate on the problem's diagrams);
- ``full``: ``geodsl aux --batch`` (also the prover on the problem alone,
  with each candidate, with all of them, and the minimal subset).

Prints one row per stage: candidates, seconds, candidates per second, and
the counts the run found (read, well defined, useful).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import tempfile
import time
from pathlib import Path

import geodsl
from geodsl.cli import main as geodsl_main
from geodsl.lang.aux_lexer import split_points

KINDS = ("midpoint {x} {a} {b}", "foot {x} {a} {b} {c}", "mirror {x} {a} {b}", "reflect {x} {a} {b} {c}",
         "circle {x} {a} {b} {c}", "on_line {x} {a} {b}, on_line {x} {c} {d}",
         "on_pline {x} {a} {b} {c}, on_line {x} {d} {b}", "on_tline {x} {a} {b} {c}, on_line {x} {b} {c}",
         "on_line {x} {a} {b}, on_circle {x} {a} {c}", "on_line {x} {a} {b}", "on_bline {x} {a} {b}, on_line {x} {c} {d}",
         "angle_bisector {x} {a} {b} {c}, on_line {x} {a} {c}")
NEW = ("x", "y", "z", "w", "u", "v", "p1", "q1", "k1", "r1")


def _spellable(name: str) -> bool:
    from geodsl.lang.notation import point_name, point_text
    parts = split_points(point_text(name))
    return parts is not None and len(parts) == 1 and point_name(point_text(name)) == name


def generate(count: int, per_item: int, seed: int = 0) -> list[dict[str, object]]:
    """``count`` candidates in items of ``per_item`` over the JGEX-AG-231 problems."""
    rng = random.Random(seed)
    problems = [p for p in geodsl.datasets.load("jgex_ag_231") if len([q for q in p.points if _spellable(q)]) >= 4]
    items: list[dict[str, object]] = []
    made = 0
    index = 0
    attempts = 0
    while made < count and attempts < 50 * count:  # bounded: a kind that never fits cannot loop forever
        problem = problems[index % len(problems)]
        index += 1
        points = [q for q in problem.points if _spellable(q)]
        fresh = [n for n in NEW if n not in problem.points]
        aux: list[str] = []
        while len(aux) < min(per_item, count - made) and attempts < 50 * count:
            attempts += 1
            a, b, c, d = rng.sample(points, 4)
            x = rng.choice(fresh)
            text = f"{x} = " + rng.choice(KINDS).format(x=x, a=a, b=b, c=c, d=d)
            try:
                construction = geodsl.parse_problem(problem.premise.to_text() + "; " + text).premise.constructions[-1]
            except geodsl.GeoDSLError:
                continue
            roll = rng.random()
            try:
                words = (construction.to_text() if roll < 0.2 else
                         geodsl.to_words(construction, "en" if roll < 0.6 else "zh"))
            except geodsl.GeoDSLError:
                words = construction.to_text()
            if rng.random() < 0.05:
                words = words.replace(geodsl.lang.notation.point_text(a), "Q9", 1).replace(f" {a} ", " q9 ", 1)
            aux.append(words)
        items.append({"problem": f"jgex_ag_231#{problem.name}", "aux": aux})
        made += len(aux)
    return items


def _batch(path: Path, *flags: str) -> tuple[list[dict[str, object]], float]:
    out = io.StringIO()
    start = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        geodsl_main(["aux", "--batch", str(path), "--json", *flags])
    return json.loads(out.getvalue()), time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=10_000)
    parser.add_argument("--per-item", type=int, default=10)
    parser.add_argument("--stages", default="read,defined,full")
    parser.add_argument("--timeout", type=float, default=30.0, help="budget of each prover run (default: 30)")
    args = parser.parse_args()
    start = time.monotonic()
    items = generate(args.candidates, args.per_item)
    total = sum(len(i["aux"]) for i in items)  # type: ignore[arg-type]
    print(f"generated {total} candidates in {len(items)} items over JGEX-AG-231 in {time.monotonic() - start:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "batch.jsonl"
        path.write_text("\n".join(json.dumps(i, ensure_ascii=False) for i in items) + "\n", encoding="utf-8")
        print(f"{'stage':<8} {'candidates':>10} {'seconds':>8} {'cand/s/core':>11} {'read':>6} {'defined':>7} "
              f"{'useful':>6} {'prover runs':>11}")
        stages = args.stages.split(",")
        if "read" in stages:
            problems = {p.name: p for p in geodsl.datasets.load("jgex_ag_231")}
            ok = 0
            t0 = time.monotonic()
            for item in items:
                problem = problems[str(item["problem"]).partition("#")[2]]
                for text in item["aux"]:  # type: ignore[attr-defined]
                    try:
                        geodsl.read_aux(text, problem)
                        ok += 1
                    except geodsl.GeoDSLError:
                        pass
            dt = time.monotonic() - t0
            print(f"{'read':<8} {total:>10} {dt:>8.1f} {total / dt:>11.1f} {ok:>6} {'-':>7} {'-':>6} {'-':>11}")
        for stage, flags in (("defined", ("--no-prove",)), ("full", ("--timeout", str(args.timeout)))):
            if stage not in stages:
                continue
            records, dt = _batch(path, *flags)
            cands = [c for r in records for c in r["candidates"]]  # type: ignore[union-attr]
            read = sum(c["error"] is None for c in cands)
            defined = sum(c["well_defined"] is True for c in cands)
            useful = sum(1 for r in records for c in r["candidates"]  # type: ignore[union-attr]
                         if c["proved"] and r["proved_without"] is False)
            runs = sum(int(r["prover_runs"]) for r in records)  # type: ignore[call-overload]
            print(f"{stage:<8} {len(cands):>10} {dt:>8.1f} {len(cands) / dt:>11.1f} {read:>6} {defined:>7} "
                  f"{useful:>6} {runs:>11}")


if __name__ == "__main__":
    main()
