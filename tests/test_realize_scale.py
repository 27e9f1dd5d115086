"""Numeric truth on premises of hundreds of points: the figure stays in a
bounded region, and a false collinearity, parallel or equal length never
"holds" because the figure grew until the tolerance swallowed it."""

from __future__ import annotations

import itertools

from hypothesis import given, settings, strategies as st

import geodsl
from geodsl.realizer import DEFAULT_SETTINGS, realize
from geodsl.realizer.synthetic import premise, premise_text

LIMIT = DEFAULT_SETTINGS.bound * 2 ** 0.5
"""Largest possible radius of a figure inside the bound (no placed points)."""


def _pred(text: str) -> geodsl.Predicate:
    name, *args = text.split()
    return geodsl.Predicate(name, tuple(args))


def test_free_points_stay_in_the_box_and_false_collinearity_is_false() -> None:
    # 200 free points used to reach a radius of 9e7, where `coll p0 p1 p2` held.
    text = "; ".join(f"p{i} = free p{i}" for i in range(200)) + " ? coll p0 p1 p2"
    p = geodsl.parse_problem(text)
    figs = realize(p, diagrams=2, check_goals=False)
    box = DEFAULT_SETTINGS.free_box
    for d in figs:
        assert all(abs(z.real) <= box and abs(z.imag) <= box for z in d.coords.values())
        assert not d.holds(p.goal)  # type: ignore[arg-type]
    assert not figs.holds(p.goal)  # type: ignore[arg-type]


def _false_facts(free: tuple[str, ...], limit: int) -> list[str]:
    """Facts over freely placed points that are false in general."""
    out = []
    for a, b, c in itertools.islice(itertools.combinations(free, 3), limit):
        out.append(f"coll {a} {b} {c}")
    for a, b, c, d in itertools.islice(itertools.combinations(free, 4), limit):
        out += [f"para {a} {b} {c} {d}", f"cong {a} {b} {c} {d}", f"perp {a} {c} {b} {d}"]
    return out


@settings(max_examples=8, deadline=None, derandomize=True)
@given(points=st.integers(100, 300), seed=st.integers(0, 2 ** 32 - 1))
def test_generated_premises_bounded_and_no_false_fact_holds(points: int, seed: int) -> None:
    synthetic = premise(points, seed)
    p = geodsl.parse_problem(synthetic.text)
    d = realize(p, diagrams=1, seed=seed)[0]
    assert len(d.coords) == points
    assert d.scale <= LIMIT
    bound = DEFAULT_SETTINGS.bound
    assert all(abs(z.real) <= bound and abs(z.imag) <= bound for z in d.coords.values())
    # Free points come first in the text: the early ones (as p0 p1 p2) and the late ones.
    free = synthetic.free[:8] + synthetic.free[-8:]
    for text in _false_facts(free, 60):
        assert not d.holds(_pred(text)), text
    # And what the premise asserts still holds in such a figure.
    for construction in p.premise.constructions[-30:]:
        clause = construction.clauses[0]
        if clause.name == "on_line" and len(construction.clauses) == 1:
            assert d.holds(_pred("coll " + " ".join(str(a) for a in clause.args)))
        if clause.name == "midpoint":
            assert d.holds(_pred("midp " + " ".join(str(a) for a in clause.args)))


def test_synthetic_premises_are_deterministic_and_sized() -> None:
    a, b = premise(150, 9), premise(150, 9)
    assert a == b and a != premise(150, 10)
    assert len(a.points) == 150 and len(geodsl.parse_problem(a.text).premise.points) == 150
    assert set(a.free) <= set(a.points) and a.free[:3] == ("p0", "p1", "p2")
    assert premise_text(10, 1, "coll p0 p1 p2").endswith(" ? coll p0 p1 p2")
