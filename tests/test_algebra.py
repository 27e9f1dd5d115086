"""The algebraic prover: coordinates, Wu's pseudo-remainder, and the
certificate checker, on problems of the public sets DD+AR does not solve."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import geodsl
from geodsl.algebra import AlgebraProver
from geodsl.algebra.check import check
from geodsl.algebra.coordinates import AlgebraFailure, parametrize
from geodsl.budget import Budget
from geodsl.cli import main
from geodsl.lang.definitions import expand


def _imo(name: str) -> geodsl.Problem:
    return next(p for p in geodsl.datasets.load("imo_ag_30") if p.name == f"translated_imo_{name}")


def _figure(p: geodsl.Problem) -> dict[str, complex]:
    return dict(geodsl.realize(p, seed=0, diagrams=1)[0].all_coords)


def test_algebra_proves_imo_2008_p1b_which_ddar_alone_does_not() -> None:
    p = _imo("2008_p1b")
    assert not geodsl.closure(p, timeout=10).solved
    result = AlgebraProver().prove(p, budget=Budget(seconds=20))
    assert result.status == "proved" and result.solved
    cert = result.goals[0].certificate
    assert cert is not None and cert.checked and result.goals[0].proof is None
    assert cert.data["checker"] == [] and cert.data["triangular_set"]
    assert any("second intersection" in c or "quadratic" in c for c in cert.conditions)
    text = cert.to_text()
    assert text.startswith("proved (algebra: coordinates), certificate checked\n")
    assert "* Non-degeneracy conditions:" in text


def test_the_checker_rejects_tampered_coordinates_and_a_goal_that_does_not_follow() -> None:
    p = _imo("2012_p5")
    figure = _figure(p)
    goals = [g for g0 in p.goals for g in expand(g0)]
    par = parametrize(p, figure, goals=goals)
    assert check(p, par, goals, figure) == []
    # A coordinate moved: hypotheses fail and the figure no longer matches.
    x, y = par.coords["m"]
    par.coords["m"] = (x + 1, y)
    found = check(p, par, goals, figure)
    assert any("does not vanish" in f for f in found)
    assert any("coordinates of m do not give the figure" in f for f in found)
    par.coords["m"] = (x, y)
    # A goal that does not follow from the premise.
    wrong = geodsl.parse_predicate("perp m k a b", p.points)
    assert any("goal `perp m k a b` does not vanish" in f for f in check(p, par, [wrong], figure))
    # Parameters that do not describe every figure: a point's own parameter dropped.
    u = par.own["x"][0]
    dropped = replace(par, params=[q for q in par.params if q != u])
    assert any("rank" in f for f in check(p, dropped, goals, figure))


def test_a_goal_true_on_one_branch_only_is_not_proved_and_says_why() -> None:
    result = AlgebraProver().prove(_imo("2018_p1"), budget=Budget(seconds=20))
    assert not result.solved and result.status == "saturated"
    assert any("pseudo-remainder is not 0" in n for n in result.notes)


def test_a_clause_without_equations_stops_the_method_with_its_name() -> None:
    p = geodsl.parse_problem("a b c = triangle a b c; d e = trisect d e a b c ? coll d e a")
    with pytest.raises(AlgebraFailure, match="`trisect` has no polynomial equations"):
        parametrize(p, _figure(p))
    result = AlgebraProver().prove(p, budget=Budget(seconds=10))
    assert result.status == "saturated" and "`trisect`" in result.notes[0]


def test_the_budget_stops_the_algebra() -> None:
    result = AlgebraProver().prove(_imo("2019_p6"), budget=Budget(seconds=0.5))
    assert result.status == "budget" and not result.solved
    assert result.seconds < 5


def test_a_fixed_length_keeps_the_axes_from_scaling() -> None:
    p = geodsl.parse_problem("a = free a; b = lconst b a 3; c = midpoint c a b; d = on_tline d c a b "
                             "? cong d a d b")
    figure = _figure(p)
    goals = list(p.goals)
    par = parametrize(p, figure, goals=goals)
    assert par.origin == "a" and par.axis is None and not par.scaled
    assert check(p, par, goals, figure) == []
    q = geodsl.parse_problem("a b = segment a b; c = midpoint c a b; d = on_tline d c a b ? cong d a d b")
    par = parametrize(q, _figure(q), goals=list(q.goals))
    assert par.axis == "b" and par.scaled and par.params == ["u1"]


def test_prove_method_algebra_json_is_valid_and_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    import jsonschema

    import geodsl.schemas

    args = ["prove", "imo_ag_30", "--problem", "translated_imo_2012_p5", "--method", "algebra", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator(geodsl.schemas.schema("prove"),
                                    registry=geodsl.schemas.registry()).validate(first)
    goal = first[0]["goals"][0]
    assert first[0]["method"] == "algebra" and goal["verdict"] == "proved"
    assert goal["proof_kind"] == "algebra" and goal["proof"] is None
    assert goal["certificate"]["checked"] is True and goal["certificate"]["checker"] == []
    assert main(args) == 0
    second = json.loads(capsys.readouterr().out)
    for record in (first, second):
        for r in record:
            r.pop("seconds")
    assert first == second


def test_prove_prints_proved_algebra_with_the_conditions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "imo_ag_30", "--problem", "translated_imo_2012_p5", "--method", "algebra"]) == 0
    out = capsys.readouterr().out
    assert "goal: cong m k m l: proved (algebra)" in out
    assert "the two lines that fix m meet in one point [D" in out
