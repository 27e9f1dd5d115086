"""Fidelity of step grading (`geodsl grade`), on proofs no grader was tuned to.

    python benchmarks/grading.py [--set jgex|imo|both] [--newclid PATH/TO/NEWCLID/VENV/bin/python]
                                 [--newclid-timeout S] [--cache DIR] [--limit N] [--claim-timeout S]

The fidelity set: geodsl's own proofs of both public sets (DD+AR, printed
in AlphaGeometry's format) and Newclid 3's proofs of them (run under
Newclid's own interpreter, benchmarks/newclid_runner.py --proofs; their text is
Newclid's, which no one here wrote). Every original step is correct, so it
must grade ``valid`` (or ``valid_skip``). Then each proof gets seeded errors,
one of each kind where the proof allows it (positions drawn from a seeded
generator, per problem):

* ``false_conclusion``: a step's conclusion replaced by a false statement
  (one point of it changed, kept only if false in the figure) — must grade
  ``false``;
* ``swapped_premises``: a step's citations replaced by as many other
  established facts it does not cite — must not grade ``valid``;
* ``deleted_step``: a step that needed a rule (graded ``valid`` by one rule
  of rules.gdl in the original — a chase step would leave no leap, since a
  chase of a chase is one chase) deleted, and the first later step citing it
  made to cite the deleted step's own premises instead, so it leaps — must
  not grade ``valid``;
* ``assumed_goal``: a first step stating the goal and citing itself
  (circular) — must grade ``unjustified``.

A seeded proof is cut after its seeded step (what follows would only repeat
the original's verdicts). Measured: step-verdict accuracy against the known
truth (original steps, and the seeded proofs' steps up to and including the
seeded one), the share of steps decided without a judge (no judge here), the
first wrong step exactly at the seeded one (GeoLaux's reading: a
``valid_skip`` is an error), correct steps graded ``false`` (must be 0), and
throughput in steps per second on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import geodsl
from geodsl.checker.grade import GradeOptions, grade
from geodsl.checker.steps import read_solution
from geodsl.lang.notation import read_notation, to_notation
from newclid_runner import run_newclid

SETS = {"jgex": "jgex_ag_231", "imo": "imo_ag_30"}
KINDS = ("false_conclusion", "swapped_premises", "deleted_step", "assumed_goal")
CORRECT = {"valid", "valid_skip"}


@dataclass
class Tally:
    steps: int = 0
    right: int = 0
    symbolic: int = 0
    correct_graded_false: int = 0
    seconds: float = 0.0
    verdicts: Counter[str] = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)
    first_exact: int = 0
    seeded: int = 0


# ------------------------------------------------------------------ the proofs


def own_proofs(name: str, limit: int | None) -> list[tuple[geodsl.Problem, str]]:
    out = []
    for p in geodsl.datasets.load(name)[:limit]:
        c = geodsl.closure(p)
        if c.solved:
            out.append((p, c.proof().to_text()))
    return out


def newclid_proofs(name: str, python: str, timeout: float, cache: Path, limit: int | None
                   ) -> list[tuple[geodsl.Problem, str]]:
    problems = geodsl.datasets.load(name)[:limit]
    path = cache / f"newclid_{name}_{int(timeout)}.jsonl"
    records: dict[str, dict[str, object]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            records[rec["name"]] = rec
    missing = [p for p in problems if p.name not in records]
    if missing:
        raw = geodsl.datasets.text(name).splitlines()
        originals = {raw[i].strip(): raw[i + 1].strip() for i in range(0, len(raw) - 1, 2)}
        first = run_newclid(python, [{"name": p.name, "text": originals.get(str(p.name), "")} for p in missing],
                            timeout, proofs=True)
        retry = [p for p in missing if first.get(str(p.name), {}).get("error") not in (None, "timeout")]
        # Lines Newclid rejects in the original spelling, in geodsl's Newclid-dialect printing.
        again = run_newclid(python, [{"name": p.name, "text": f"{p.premise.to_text('newclid')} ? "
                                       + "; ".join(g.to_text("newclid") for g in p.goals)} for p in retry], timeout,
                            proofs=True)
        first.update(again)
        records.update(first)
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records.values()),
                        encoding="utf-8")
    return [(p, str(records[p.name]["proof"])) for p in problems
            if p.name in records and records[p.name].get("solved")]


# ------------------------------------------------------------------ seeding errors


def _lines(text: str) -> list[str]:
    return text.rstrip("\n").split("\n")


def _step_lines(text: str, fmt: str) -> list[int]:
    """Line numbers (0-based) of the proof's steps, in order."""
    solution = read_solution(text, format=fmt)
    return [s.line - 1 for s in solution.steps]


def _false_statement(problem: geodsl.Problem, figure_holds, claim_text: str, notation: str,
                     rng: random.Random) -> str | None:
    try:
        claim = read_notation(claim_text, dialect="alphageometry")[0]
    except geodsl.GeoDSLError:
        return None
    points = list(problem.premise.points)
    slots = [i for i, a in enumerate(claim.args) if isinstance(a, str)]
    for _ in range(40):
        i = rng.choice(slots)
        other = rng.choice(points)
        if other == claim.args[i]:
            continue
        args = list(claim.args)
        args[i] = other
        candidate = geodsl.Predicate(claim.name, tuple(args))
        pts = [a for a in candidate.args if isinstance(a, str)]
        try:
            if not figure_holds(candidate) and len(set(pts[:2])) == 2:
                return to_notation(candidate)
        except (geodsl.GeoDSLError, ValueError, KeyError, ZeroDivisionError):
            continue
    return None


def _replace_conclusion(line: str, fmt: str, new: str) -> str:
    if fmt == "alphageometry":
        head, _, tail = line.partition("⇒")
        ref = re.search(r"\[[A-Za-z]?\d+\]\s*$", tail)
        return f"{head}⇒ {new}" + (f" {ref.group()}" if ref else "")
    head, _, tail = line.partition(")>")
    ref = re.search(r"\[[A-Za-z]?\d+\]\s*$", tail)
    return f"{head})> {new}" + (f" {ref.group()}" if ref else "")


def _with_citations(line: str, fmt: str, cited: list[tuple[str, str]]) -> str:
    if fmt == "alphageometry":
        m = re.match(r"^(\s*\d+\.\s*)(.*?)(\s*\([^()]*(?:\([^()]*\)[^()]*)?\)\s*⇒.*)$", line)
        if m is None:
            m = re.match(r"^(\s*\d+\.\s*)(.*?)(\s*⇒.*)$", line)
        assert m is not None
        return m.group(1) + " & ".join(f"{t} [{r}]" for t, r in cited) + m.group(3)
    m = re.match(r"^(\s*\d+\.\s*\|\s*)(.*?)(\s*=\(.*)$", line)
    assert m is not None
    return m.group(1) + ", ".join(f"{t} [{r}]" for t, r in cited) + m.group(3)


def _established(solution, upto: int) -> list[tuple[str, str]]:
    """(text, ref) of the facts a step at position ``upto`` may cite: the proof's premises and the conclusions
    of earlier steps."""
    out = [(c.text, c.ref) for c in solution.cited if c.kind == "premise"]
    for s in solution.steps[:upto]:
        if s.ref and s.claims:
            out.append((s.claims[0], s.ref))
    return out


def seeds(problem: geodsl.Problem, text: str, fmt: str, holds, by_rule: set[int]) -> list[tuple[str, str, int]]:
    """(kind, seeded proof text, 1-based index of the seeded step) for each kind the proof allows."""
    rng = random.Random(f"{problem.name}:{fmt}")
    solution = read_solution(text, format=fmt)
    steps = list(solution.steps)
    lines = _lines(text)
    where = [s.line - 1 for s in steps]
    out: list[tuple[str, str, int]] = []

    def cut(new_lines: list[str], last_line: int) -> str:
        # keep everything before the proof's steps, and the steps up to the seeded one
        first_step = where[0]
        return "\n".join(new_lines[:first_step] + [ln for i, ln in enumerate(new_lines[first_step:last_line + 1],
                                                                               first_step) if ln.strip()]) + "\n"

    # false conclusion
    order = list(range(len(steps)))
    rng.shuffle(order)
    for k in order:
        new = _false_statement(problem, holds, steps[k].claims[0], solution.notation, rng)
        if new is not None:
            changed = list(lines)
            changed[where[k]] = _replace_conclusion(lines[where[k]], fmt, new)
            out.append(("false_conclusion", cut(changed, where[k]), k + 1))
            break
    # swapped premises
    citing = [k for k in order if steps[k].cites and all(not r.startswith(("N", "T")) for r in steps[k].cites)]
    for k in citing:
        pool = [(t, r) for t, r in _established(solution, k) if r not in (steps[k].cites or ())]
        n = len(steps[k].cites or ())
        if len(pool) >= n:
            chosen = rng.sample(pool, n)
            checks = [(t, r) for t, r in zip(steps[k].cite_texts, steps[k].cites or ()) if r.startswith("N")]
            changed = list(lines)
            changed[where[k]] = _with_citations(lines[where[k]], fmt, chosen + checks)
            out.append(("swapped_premises", cut(changed, where[k]), k + 1))
            break
    # deleted step: a step that needed a rule of rules.gdl (not a chase: a chase of a chase is one
    # chase, so deleting one leaves no leap), whose conclusion a later step cites
    rules = [j for j in order if j + 1 in by_rule and steps[j].ref and steps[j].cites]
    for j in rules:
        later = [k for k in range(j + 1, len(steps)) if steps[j].ref in (steps[k].cites or ())]
        if not later:
            continue
        k = later[0]
        replaced: list[tuple[str, str]] = []
        for t, r in zip(steps[k].cite_texts, steps[k].cites or ()):
            if r == steps[j].ref:
                replaced += [(t2, r2) for t2, r2 in zip(steps[j].cite_texts, steps[j].cites or ())
                             if (t2, r2) not in replaced]
            elif (t, r) not in replaced:
                replaced.append((t, r))
        changed = list(lines)
        changed[where[k]] = _with_citations(lines[where[k]], fmt, replaced)
        changed[where[j]] = ""
        out.append(("deleted_step", cut(changed, where[k]), k))  # one step fewer before it
        break
    # assumed goal: a first step stating the goal, citing itself
    goal = to_notation(problem.goals[0]) if problem.goals else None
    if goal is not None:
        changed = list(lines)
        if fmt == "alphageometry":
            first = f"000. {goal} [99] (Assumed) ⇒ {goal} [99]"
        else:
            first = f"000. | {goal} [999] =(Assumed)> {goal} [999]"
        changed.insert(where[0], first)
        out.append(("assumed_goal", cut(changed, where[0]), 1))
    return out


# ------------------------------------------------------------------ the run


def run(name: str, source: str, proofs: list[tuple[geodsl.Problem, str]], options: GradeOptions,
        tally: dict[str, Tally], verbose: bool) -> None:
    fmt = "alphageometry" if source == "geodsl" else "newclid"
    for problem, text in proofs:
        figures = geodsl.realize(problem, seed=options.seed, diagrams=1)
        holds = figures[0].holds
        # the original proof: every step is correct
        t = tally.setdefault("original", Tally())
        start = time.perf_counter()
        g = grade(problem, text, options=options)
        t.seconds += time.perf_counter() - start
        for s in g.steps:
            t.steps += 1
            t.verdicts[s.verdict] += 1
            t.symbolic += s.decided_by == "symbolic"
            t.right += s.verdict in CORRECT
            t.correct_graded_false += s.verdict == "false"
            if s.verdict not in CORRECT:
                t.misses.append(f"{source} {problem.name} step {s.index} {s.verdict}: {s.reason[:160]}")
        # seeded errors
        by_rule = {s.index for s in g.steps if s.justification and re.match(r"r\d+ ", s.justification)}
        for kind, seeded, index in seeds(problem, text, fmt, holds, by_rule):
            t = tally.setdefault(kind, Tally())
            start = time.perf_counter()
            g = grade(problem, seeded, options=options)
            t.seconds += time.perf_counter() - start
            t.seeded += 1
            t.first_exact += g.first_error == index
            for s in g.steps[:index]:
                t.steps += 1
                t.symbolic += s.decided_by == "symbolic"
                if s.index < index:
                    t.right += s.verdict in CORRECT
                    t.correct_graded_false += s.verdict == "false"
                    continue
                t.verdicts[s.verdict] += 1
                ok = (s.verdict == "false" if kind == "false_conclusion" else
                      s.verdict == "unjustified" if kind == "assumed_goal" else
                      s.verdict in ("unjustified", "valid_skip", "false"))
                t.right += ok
                if not ok:
                    t.misses.append(f"{source} {problem.name} {kind} step {s.index} {s.verdict}: {s.reason[:160]}")
        if verbose:
            print(f"  {source} {problem.name}: done", file=sys.stderr)


def report(label: str, tally: dict[str, Tally]) -> None:
    print(f"\n{label}")
    print(f"  {'proofs':<18} {'steps':>7} {'accuracy':>9} {'symbolic':>9} {'1st err exact':>14} "
          f"{'correct→false':>14} {'steps/s':>8}  verdicts of the judged step(s)")
    total = Tally()
    for kind in ("original",) + KINDS:
        t = tally.get(kind)
        if t is None:
            continue
        exact = f"{t.first_exact}/{t.seeded}" if kind != "original" else "-"
        rate = t.steps / t.seconds if t.seconds else 0.0
        print(f"  {kind:<18} {t.steps:>7} {100 * t.right / max(t.steps, 1):>8.2f}% "
              f"{100 * t.symbolic / max(t.steps, 1):>8.2f}% {exact:>14} {t.correct_graded_false:>14} "
              f"{rate:>8.1f}  {dict(t.verdicts.most_common())}")
        total.steps += t.steps
        total.right += t.right
        total.symbolic += t.symbolic
        total.correct_graded_false += t.correct_graded_false
        total.seconds += t.seconds
        total.first_exact += t.first_exact
        total.seeded += t.seeded
    print(f"  {'all':<18} {total.steps:>7} {100 * total.right / max(total.steps, 1):>8.2f}% "
          f"{100 * total.symbolic / max(total.steps, 1):>8.2f}% {total.first_exact:>6}/{total.seeded:<7} "
          f"{total.correct_graded_false:>14} {total.steps / max(total.seconds, 1e-9):>8.1f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--set", choices=["jgex", "imo", "both"], default="both")
    ap.add_argument("--newclid", metavar="PYTHON", help="Newclid's venv python (without it: geodsl's proofs only)")
    ap.add_argument("--newclid-timeout", type=float, default=30.0)
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("XDG_CACHE_HOME") or
                                                       Path.home() / ".cache") / "geodsl" / "bench",
                    help="where Newclid's proofs are kept between runs")
    ap.add_argument("--limit", type=int, default=None, help="only the first N problems of each set")
    ap.add_argument("--claim-timeout", type=float, default=5.0)
    ap.add_argument("--misses", action="store_true", help="list every step graded against the truth")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    options = GradeOptions(skip_is_error=True, claim_seconds=args.claim_timeout)
    everything: dict[str, dict[str, Tally]] = {}
    for key in (["jgex", "imo"] if args.set == "both" else [args.set]):
        name = SETS[key]
        sources = [("geodsl", own_proofs(name, args.limit))]
        if args.newclid:
            sources.append(("newclid", newclid_proofs(name, args.newclid, args.newclid_timeout, args.cache,
                                                      args.limit)))
        for source, proofs in sources:
            tally: dict[str, Tally] = {}
            run(name, source, proofs, options, tally, args.verbose)
            everything[f"{name} / {source} proofs ({len(proofs)})"] = tally
    for label, tally in everything.items():
        report(label, tally)
        if args.misses:
            for t in tally.values():
                for m in t.misses:
                    print("    " + m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
