"""Option truth on the public sets: how many true options are proved, and
that no false option ever is.

    python benchmarks/option_truth.py [--limit N] [--timeout S]

Each AlphaGeometry problem becomes a multi-answer problem: its goal (true by
construction) is option A, and distractors are made by replacing one point
of the goal with another point of the premise; a distractor is kept only if
it is false in the diagram (GeoChallenge requires falsifiable distractors),
up to three per problem. `geodsl check`'s engine then decides every option.
Prints, per set: problems, true options, proved, share proved, false options,
false options proved (must be 0), and the median seconds per problem.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

import geodsl
from geodsl.lang.ast import Option, Predicate, Problem
from geodsl.checker.options import check_problem

SETS = {"JGEX-AG-231": geodsl.datasets.path("jgex_ag_231"), "IMO-AG-30": geodsl.datasets.path("imo_ag_30")}


def with_distractors(problem: Problem, limit: int = 3) -> Problem:
    """The goal as option A, then falsifiable one-point mutations of it."""
    goal = problem.goal
    assert goal is not None
    options = [Option("A", goal)]
    figures = geodsl.realize(problem, seed=0, diagrams=1)
    points = problem.points
    for i, arg in enumerate(goal.args):
        if len(options) > limit or not isinstance(arg, str):
            continue
        for other in points:
            if other in goal.args:
                continue
            mutated = Predicate(goal.name, goal.args[:i] + (other,) + goal.args[i + 1:])
            if not figures.holds(mutated):
                options.append(Option("BCD"[len(options) - 1], mutated))
                break
    # The goal stays: the realizer draws the configuration it describes.
    return replace(problem, options=tuple(options), answer=("A",))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N problems of each set")
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    print(f"{'set':<12} {'problems':>8} {'true':>5} {'proved':>6} {'share':>6} {'false':>5} "
          f"{'false proved':>12} {'median s':>8}")
    for name, path in SETS.items():
        problems = geodsl.load(path)[: args.limit]
        true = proved = false = false_proved = 0
        seconds = []
        for problem in problems:
            start = time.perf_counter()
            check = check_problem(with_distractors(problem), timeout=args.timeout)
            seconds.append(time.perf_counter() - start)
            for v in check.options:
                if v.numeric:
                    true += 1
                    proved += v.verdict == "proved"
                else:
                    false += 1
                    false_proved += v.proved
        share = proved / true if true else 0.0
        print(f"{name:<12} {len(problems):>8} {true:>5} {proved:>6} {share:>6.1%} {false:>5} "
              f"{false_proved:>12} {statistics.median(seconds):>8.3f}")


if __name__ == "__main__":
    main()
