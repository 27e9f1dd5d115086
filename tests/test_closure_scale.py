"""The closure on large premises: every stage honours the time budget, the
memory bounds hold, and the fast builders of the numeric model find exactly
the structures of a plain triple loop."""

from __future__ import annotations

import cmath
import itertools
import math
import sys
import time

import pytest
from hypothesis import given, settings, strategies as st

import geodsl
from geodsl.budget import BudgetExceeded
from geodsl.ddar.numeric import MAX_POINTS, NumericModel
from geodsl.realizer.synthetic import premise_text


def test_a_400_point_premise_stops_at_the_budget() -> None:
    start = time.monotonic()
    c = geodsl.closure(premise_text(400, 1), timeout=3.0)
    elapsed = time.monotonic() - start
    assert c.status == "budget"
    assert elapsed < 15.0  # a generous bound: the budget is 3 s; it used to run 22 s
    assert not c.solved and c.unsound == ()


def test_a_budget_spent_while_realizing_is_a_budget_status() -> None:
    c = geodsl.closure(premise_text(300, 2) + " ? coll p0 p1 p2", timeout=0.05)
    assert c.status == "budget" and c.facts == () and c.goal_facts == (None,)


def test_the_model_refuses_more_than_max_points() -> None:
    coords = [cmath.rect(1 + i / 7, i) for i in range(MAX_POINTS + 1)]
    with pytest.raises(BudgetExceeded) as info:
        NumericModel(coords)
    assert (info.value.stage, info.value.resource) == ("numeric model", "memory")


# ---------------------------------------------------------------- the builders


def _lines(m: NumericModel) -> list[tuple[int, ...]]:
    """The triple loop the candidate filter replaces."""
    seen: dict[tuple[int, int], int] = {}
    out: list[tuple[int, ...]] = []
    for i in range(m.n):
        for j in range(i + 1, m.n):
            if (i, j) in seen:
                continue
            members = tuple(sorted([i, j] + [k for k in range(m.n) if k not in (i, j)
                                              and m.diagram.holds("coll", i, j, k)]))
            for a in range(len(members)):
                for b in range(a + 1, len(members)):
                    seen.setdefault((members[a], members[b]), len(out))
            out.append(members)
    return out


def _circles(m: NumericModel) -> list[tuple[int, ...]]:
    """Every third point tried for every pair: what the candidate filter narrows."""
    return sorted(c for i in range(m.n) for j in range(i + 1, m.n)
                  for c in m.circles_through(i, j, range(j + 1, m.n)))


def _midpoints(m: NumericModel) -> dict[tuple[int, int], int]:
    out = {}
    for i in range(m.n):
        for j in range(i + 1, m.n):
            hit = m.point_at((m.coords[i] + m.coords[j]) / 2)
            if hit is not None and hit not in (i, j):
                out[(i, j)] = hit
    return out


@st.composite
def figures(draw: st.DrawFn) -> list[complex]:
    """Points with many coincidences: on a few lines, on a few circles, at
    midpoints, plus free ones."""
    coord = st.integers(-8, 8)
    pts: list[complex] = []
    for _ in range(draw(st.integers(2, 6))):
        pts.append(complex(draw(coord), draw(coord)) / 2)
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from(["line", "circle", "mid", "free"]))
        a, b = draw(st.sampled_from(pts)), draw(st.sampled_from(pts))
        if a == b:
            continue
        t = draw(st.integers(-6, 6)) / 4
        if kind == "line":
            pts.append(a + (b - a) * t)
        elif kind == "circle":
            pts.append(a + (b - a) * cmath.exp(1j * t * math.pi / 3))
        elif kind == "mid":
            pts.append((a + b) / 2)
        else:
            pts.append(complex(draw(coord), draw(coord)) / 3 + 0.01 * t)
    out: list[complex] = []
    for p in pts:
        if all(abs(p - q) > 1e-3 for q in out):
            out.append(p)
    return out


@settings(max_examples=60, deadline=None, derandomize=True)
@given(figures())
def test_fast_builders_find_what_the_triple_loop_finds(pts: list[complex]) -> None:
    numeric = sys.modules["geodsl.ddar.numeric"]
    small = numeric.SMALL
    for threshold in (small, 0):  # as built for these sizes, and through the numpy filters
        numeric.SMALL = threshold
        try:
            m = NumericModel(pts)
        finally:
            numeric.SMALL = small
        assert m.lines == _lines(m)
        assert m.circles == _circles(m)
        assert m.midpoint == _midpoints(m)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(figures(), st.lists(st.integers(0, 10 ** 6), min_size=4, max_size=40))
def test_compiled_cyclic_is_the_realizers_check(pts: list[complex], picks: list[int]) -> None:
    from geodsl.realizer.checks import CHECKS

    m = NumericModel(pts)
    for start in range(0, len(picks) - 3, 4):
        ids = tuple(p % m.n for p in picks[start:start + 4])  # repeats included
        expected = CHECKS["cyclic"]([m.coords[i] for i in ids], m.tol, m.scale)
        assert m.diagram.holds("cyclic", *ids) == expected, ids
    # Concyclic quadruples, found by the model, in every order.
    for circle in m.circles[:5]:
        for ids in itertools.permutations(circle[:4]):
            assert m.diagram.holds("cyclic", *ids) == CHECKS["cyclic"]([m.coords[i] for i in ids], m.tol, m.scale)
