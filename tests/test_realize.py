"""The realizer on the public sets, its API, determinism and the rulebase coverage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import geodsl
from geodsl.lang.definitions import rulebase
from geodsl.lang.errors import GoalFalseError
from geodsl.realizer import CHECKS, LOCI, RECIPES, Diagrams, realize
from geodsl.realizer.sampler import SamplerSettings

SETS = {"jgex_ag_231": 231, "imo_ag_30": 30}


def _problems(name: str) -> list[geodsl.Problem]:
    problems = geodsl.datasets.load(name)
    assert len(problems) == SETS[name]
    return problems


@pytest.mark.parametrize("name", sorted(SETS))
def test_every_problem_realizes_and_its_goal_holds_in_three_diagrams(name: str) -> None:
    for problem in _problems(name):
        figs = realize(problem, seed=0, diagrams=3)
        assert len(figs) == 3
        assert problem.goals, problem.name
        for goal in problem.goals:
            assert all(d.holds(goal) for d in figs), (problem.name, goal.to_text())
        # The diagrams are independent samples, not copies (unless points are placed).
        if not any(c.placements for c in problem.premise.constructions):
            first = problem.premise.points[0]
            assert figs[0][first] != figs[1][first], problem.name


def test_rulebase_recipes_and_loci_have_exactly_one_implementation() -> None:
    used_recipes = {s.recipe for c in rulebase().constructions.values() for s in c.steps if s.kind == "fixes"}
    used_loci = {s.recipe for c in rulebase().constructions.values() for s in c.steps if s.kind == "locus"}
    assert used_recipes == set(RECIPES)
    assert used_loci == set(LOCI)


def test_every_predicate_has_a_numeric_check() -> None:
    assert set(rulebase().predicates) == set(CHECKS)


def test_same_seed_same_coordinates_and_more_diagrams_keep_the_first() -> None:
    text = "a b c = triangle a b c; o = circle o a b c; d = on_circle d o a; e = on_line e a d, on_line e b c"
    one = realize(text, seed=7, diagrams=2)
    two = realize(text, seed=7, diagrams=4)
    assert [d.coords for d in one] == [d.coords for d in two[:2]]
    other = realize(text, seed=8, diagrams=2)
    assert one[0].coords != other[0].coords


def test_placed_points_are_honoured() -> None:
    text = "a@0_0 b@4_0 c@1_3 = triangle a b c; o = circle o a b c; w@3_3 = on_circle w o a ? cyclic a b c w"
    figs = realize(text, diagrams=2)
    for d in figs:
        assert d["a"] == (0.0, 0.0) and d["b"] == (4.0, 0.0) and d["c"] == (1.0, 3.0)
        assert d["w"] == (3.0, 3.0)
        assert d["o"] == pytest.approx((2.0, 1.0))


def test_a_placed_point_off_its_locus_is_an_error() -> None:
    with pytest.raises(geodsl.RealizationError) as info:
        realize("a@0_0 b@4_0 c@1_3 = triangle a b c; o = circle o a b c; w@9_9 = on_circle w o a")
    assert info.value.reason == "placement"
    assert "`cong o w o a`" in info.value.message


def test_intersection_avoids_the_existing_point() -> None:
    # Line ab meets the circle centred o through a at a and at one other point.
    figs = realize("a b = segment a b; o = free o; c = on_line c a b, on_circle c o a", diagrams=3)
    for d in figs:
        assert abs(d.coords["c"] - d.coords["a"]) > 1e-3
        assert d.holds(geodsl.parse_problem("a b = segment a b; o = free o; c = on_line c a b, on_circle c o a ? cong o c o a").goal)


def test_two_candidates_are_chosen_at_random_but_reproducibly() -> None:
    text = "a b = segment a b; c = on_circle c a b, on_circle c b a"
    sides = set()
    for seed in range(12):
        d = realize(text, seed=seed, diagrams=1)[0]
        a, b, c = d.coords["a"], d.coords["b"], d.coords["c"]
        sides.add(((b - a).conjugate() * (c - a)).imag > 0)
        assert realize(text, seed=seed, diagrams=1)[0].coords == d.coords
    assert sides == {True, False}


def test_holds_and_negation() -> None:
    p = geodsl.parse_problem("a b c = triangle a b c; h = orthocenter h a b c ? perp a h b c")
    figs = realize(p)
    assert isinstance(figs, Diagrams)
    goal = p.goal
    assert goal is not None
    assert figs.holds(goal)
    assert not figs.holds(goal.negate())
    para = geodsl.parse_problem("a b c = triangle a b c; h = orthocenter h a b c ? para a h b c").goal
    assert para is not None and not figs.holds(para) and figs.holds(para.negate())


def test_goal_selects_the_configuration_and_a_false_goal_is_reported() -> None:
    # e is one of two intersections; the goal picks the one on the same side as c.
    p = geodsl.parse_problem("a b c = triangle a b c; d = on_circle d a b, on_circle d c b ? cong a b a d")
    assert realize(p).holds(p.goal)  # type: ignore[arg-type]
    bad = geodsl.parse_problem("a b c = triangle a b c; h = orthocenter h a b c ? perp a b a c", "t.gdl")
    with pytest.raises(GoalFalseError) as info:
        realize(bad, settings=SamplerSettings(attempts_per_goal=5))
    err = info.value
    assert err.message == ("goal `perp a b a c` is false in the diagram (in all 5 samples and all 10 "
                           "configurations tried of their discrete choices: the orientation of "
                           "`a b c = triangle a b c` (line 1))")
    assert (err.source, err.line, err.column) == ("t.gdl", 1, 51)
    free = geodsl.parse_problem("a = free a; b = free b; c = midpoint c a b ? perp a b a c")
    with pytest.raises(GoalFalseError) as info:
        realize(free, settings=SamplerSettings(attempts_per_goal=3))
    assert info.value.message == ("goal `perp a b a c` is false in the diagram (in all 3 samples; "
                                  "the premise leaves no discrete choice)")
    figs = realize(bad, check_goals=False)
    assert not figs.holds(bad.goal)  # type: ignore[arg-type]


def test_diagram_api_objects_and_json() -> None:
    p = geodsl.parse_problem("a b c = triangle a b c; o = circle o a b c; d = foot d a b c; "
                             "e = on_line e a d, on_circle e o a ? cyclic a b c e")
    d = realize(p, diagrams=1)[0]
    lines = {ln.points for ln in d.lines()}
    assert any(set(pts) == {"b", "c", "d"} for pts in lines)
    assert any(set(pts) == {"a", "d", "e"} for pts in lines)
    circles = d.circles()
    assert len(circles) == 1
    assert circles[0].centre_point == "o" and set(circles[0].points) == {"a", "b", "c", "e"}
    assert d.xy().shape == (6, 2)
    data = json.loads(json.dumps(realize(p, diagrams=2).to_dict()))
    assert data["seed"] == 0 and len(data["diagrams"]) == 2
    first = data["diagrams"][0]
    assert set(first["points"]) == {"a", "b", "c", "o", "d", "e"}
    assert first["goals"] == [{"goal": "cyclic a b c e", "holds": True}]
    assert first["circles"][0]["centre_point"] == "o"


def test_aux_candidates_are_realized_on_top_of_the_premise() -> None:
    text = ("problem: mid\na b c = triangle a b c\nd = midpoint d a b; e = midpoint e a c\n"
            "? para d e b c\naux: f = midpoint f b c\n")
    p = geodsl.parse(text)[0]
    d = realize(p, diagrams=1)[0]
    assert "f" not in d.coords and "f" in d
    f = d.aux[0].points["f"]
    assert abs(f - (d.coords["b"] + d.coords["c"]) / 2) < 1e-12
    assert d.holds(geodsl.parse_problem("a b c = triangle; f = midpoint f b c ? midp f b c").goal)  # type: ignore[arg-type]
