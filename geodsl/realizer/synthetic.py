"""Seeded random premises of any size, for scale tests and benchmarks.

Problem sets stop at about 40 points; the realizer and the closure must also
behave (bounded coordinates, tolerances that stay meaningful, budgets that
stop the work) on premises of hundreds or thousands of points, such as a
premise sampler for a synthetic benchmark produces. :func:`premise_text`
writes one: a triangle, then each new point by a construction drawn among
free points, points on a line or a circle through earlier points, and
midpoints, mirrors, feet and intersections of two lines of the freely placed
points (never twice the same): nothing is degenerate by structure (a sample
may still be, and is resampled), so every premise realizes.

The same ``(points, seed)`` gives the same text. :data:`Synthetic.free`
lists the points placed freely (the triangle's vertices and every ``free``
point): no three of them are collinear, no two of their segments parallel
or equal in length, except by a coincidence of measure zero — what a test
of numeric truth needs as known-false facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rng import Random

KINDS = ("free", "on_line", "on_circle", "midpoint", "mirror", "foot", "inter")
WEIGHTS = (3, 3, 2, 2, 1, 1, 2)


@dataclass(frozen=True)
class Synthetic:
    """A generated premise: its text, and which points were placed freely."""

    text: str
    points: tuple[str, ...]
    free: tuple[str, ...]


def premise(points: int, seed: int = 0) -> Synthetic:
    """A premise of ``points`` points (at least 3), seeded."""
    if points < 3:
        raise ValueError("a synthetic premise has at least 3 points")
    rng = Random(seed)
    names = ["p0", "p1", "p2"]
    clauses = ["p0 p1 p2 = triangle p0 p1 p2"]
    free = list(names)
    # Pairs known to span a line, and the generic points (not on a line of
    # the premise by construction, so a foot or an intersection never
    # degenerates structurally).
    generic = list(names)
    used: set[tuple[str, object]] = set()
    total = sum(WEIGHTS)
    for i in range(3, points):
        x = f"p{i}"
        u = rng.random() * total
        kind = KINDS[-1]
        for k, w in zip(KINDS, WEIGHTS):
            if u < w:
                kind = k
                break
            u -= w

        def pick(pool: list[str], n: int) -> list[str]:
            """n distinct names of pool (without replacement: n draws)."""
            rest = list(pool)
            return [rest.pop(rng.index(len(rest))) for _ in range(n)]

        if kind == "inter" and len(generic) < 4:
            kind = "free"
        if kind in ("midpoint", "mirror", "foot", "inter"):
            # A deterministic construction of arguments used before would
            # repeat a point: draw another kind.
            args = pick(generic, 4 if kind == "inter" else
                        3 if kind == "foot" else 2)
            if kind == "midpoint":
                key: tuple[str, object] = (kind, frozenset(args))
            elif kind == "foot":
                key = (kind, (args[0], frozenset(args[1:])))
            elif kind == "inter":  # the same two lines, in any order and direction
                key = (kind, frozenset([frozenset(args[:2]), frozenset(args[2:])]))
            else:
                key = (kind, tuple(args))
            if key in used:
                kind = "free"
            else:
                used.add(key)
        if kind == "free":
            clauses.append(f"{x} = free {x}")
            free.append(x)
            generic.append(x)
        elif kind == "on_line":
            a, b = pick(names, 2)
            clauses.append(f"{x} = on_line {x} {a} {b}")
        elif kind == "on_circle":
            o, a = pick(names, 2)
            clauses.append(f"{x} = on_circle {x} {o} {a}")
        elif kind == "midpoint":
            a, b = args
            clauses.append(f"{x} = midpoint {x} {a} {b}")
        elif kind == "mirror":
            a, b = args
            clauses.append(f"{x} = mirror {x} {a} {b}")
        elif kind == "foot":
            a, b, c = args
            clauses.append(f"{x} = foot {x} {a} {b} {c}")
        else:
            a, b, c, d = args
            clauses.append(f"{x} = on_line {x} {a} {b}, on_line {x} {c} {d}")
        names.append(x)
    return Synthetic("; ".join(clauses), tuple(names), tuple(free))


def premise_text(points: int, seed: int = 0, goal: str | None = None) -> str:
    """:func:`premise` as one problem's text, with ``goal`` if given."""
    text = premise(points, seed).text
    return f"{text} ? {goal}" if goal else text
