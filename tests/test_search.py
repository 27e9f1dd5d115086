"""Auxiliary-point search: candidates from the rulebase's constructions,
goal-directed ranking, proofs that list their auxiliary points first and
hold in independent figures, the same answer whatever the job count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import geodsl
from geodsl.budget import Budget
from geodsl.cli import main
from geodsl.lang.definitions import rulebase
from geodsl.provers import AutoProver, get_prover
from geodsl.search import SearchProver
from geodsl.search.candidates import FAMILIES, figure_of, generate
from geodsl.search.rank import rank


ROOT = Path(__file__).resolve().parent.parent


def _jgex(tail: str) -> geodsl.Problem:
    return next(p for p in geodsl.datasets.load("jgex_ag_231") if p.name and p.name.endswith(tail))


def test_candidates_are_rulebase_constructions_new_points_and_deterministic() -> None:
    p = _jgex("E051-9.gex")
    coords = dict(geodsl.realize(p, seed=0, diagrams=1)[0].all_coords)
    found = generate(p, coords)
    assert len(found) > 100
    assert [c.text for c in found] == [c.text for c in generate(p, coords)]
    rb = rulebase()
    families = {name for name, _ in FAMILIES}
    scale = max(abs(z) for z in coords.values())
    for c in found:
        assert c.construction.auxiliary and c.construction.points == ("aux1",)
        assert all(cl.name in rb.constructions for cl in c.construction.clauses)
        assert FAMILIES[c.family][0] in families
        assert min(abs(c.point - z) for z in coords.values()) > 1e-6 * scale
    points = [c.point for c in found]
    assert len({(round(z.real, 9), round(z.imag, 9)) for z in points}) == len(points)


def test_ranking_puts_points_on_the_goal_lines_first() -> None:
    p = geodsl.parse_problem("a b c = triangle a b c; d = midpoint d b c; e = midpoint e a c ? para d e a b")
    coords = dict(geodsl.realize(p, seed=0, diagrams=1)[0].all_coords)
    ranked = rank(generate(p, coords), figure_of(p, coords), p.goals)
    best = ranked[0].point
    goal = {n: coords[n] for n in ("d", "e", "a", "b")}
    on_goal_line = any(abs(((best - goal[u]) / (goal[v] - goal[u])).imag) < 1e-9
                       for u, v in (("d", "e"), ("a", "b"), ("a", "d"), ("b", "e"), ("a", "e"), ("b", "d")))
    assert on_goal_line
    keys = [c.text for c in ranked]
    assert keys == [c.text for c in rank(list(reversed(generate(p, coords))), figure_of(p, coords), p.goals)]


def test_search_solves_a_jgex_problem_with_its_auxiliary_point_listed_first() -> None:
    p = _jgex("E072-16.gex")
    assert not geodsl.closure(p, timeout=10).solved
    result = SearchProver(depth=1).prove(p, budget=Budget(seconds=30))
    assert result.solved and result.stats["auxiliary"] == 1
    proof = result.goals[0].proof
    assert proof is not None and proof.auxiliary == ("aux1 = intersection_ll aux1 a b c f",)
    assert proof.to_text().startswith("* Auxiliary Constructions:\naux1 = intersection_ll aux1 a b c f\n"
                                      "* From theorem premises:\n")
    # Audited like any proof: every fact it states holds in independently seeded figures.
    aux = geodsl.parse_problem(f"{p.premise.to_text()} | aux1 = intersection_ll aux1 a b c f").aux_given
    ext = p.with_auxiliary(aux)
    figures = geodsl.realize(ext, seed=11, diagrams=3)
    for fact in [g.predicate for g in proof.givens] + [s.predicate for s in proof.steps]:
        assert all(d.holds(fact) for d in figures), fact


def test_the_winner_does_not_depend_on_the_job_count() -> None:
    p = _jgex("E051-9.gex")
    one = SearchProver(depth=1, jobs=1).prove(p, budget=Budget(seconds=60))
    two = SearchProver(depth=1, jobs=2).prove(p, budget=Budget(seconds=60))
    assert one.solved and two.solved
    assert one.goals[0].proof == two.goals[0].proof
    assert one.goals[0].proof is not None and one.goals[0].proof.auxiliary == ("aux1 = parallelogram a e d aux1",)


def test_auto_runs_ddar_search_and_algebra_in_one_budget() -> None:
    p = next(q for q in geodsl.datasets.load("imo_ag_30") if q.name == "translated_imo_2012_p5")
    prover = AutoProver(seed=0)
    result = prover.prove(p, budget=Budget(seconds=8))
    assert result.solved and result.method == "auto"
    assert result.stats["by_ddar"] == 0 and result.stats["by_search"] == 0 and result.stats["by_algebra"] == 1
    assert result.goals[0].certificate is not None and result.goals[0].certificate.checked
    assert result.seconds < 12
    assert get_prover("auto").name == "auto"


def test_check_sends_true_unproved_options_to_the_search(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    p = _jgex("E072-16.gex")
    f = tmp_path / "opts.gdl"
    f.write_text(f"problem: opts\n{p.premise.to_text()}\noption A: eqangle g a g b g b g c\n"
                 "option B: para a b c d\n", encoding="utf-8")
    assert main(["check", str(f), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)[0]["options"]
    assert [o["verdict"] for o in plain] == ["true_unproved", "proved"]
    assert main(["check", str(f), "--json", "--aux-search", "--aux-depth", "1", "--proofs"]) == 0
    searched = json.loads(capsys.readouterr().out)[0]["options"]
    assert [o["verdict"] for o in searched] == ["proved", "proved"]
    assert searched[0]["proof"]["auxiliary"] == ["aux1 = intersection_ll aux1 a b c f"]


def test_one_jobs_flag_for_the_batch_and_the_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--jobs 2``: one problem searches in 2 processes, two problems run in
    2 workers searching in one each; the records are the same either way."""
    from geodsl.batch import without_timing

    p = _jgex("E072-16.gex")
    one = tmp_path / "one.gdl"
    one.write_text(f"problem: e072\n{p.premise.to_text()} ? eqangle g a g b g b g c\n", encoding="utf-8")
    two = tmp_path / "two.gdl"
    two.write_text(one.read_text(encoding="utf-8") + "problem: e072_again\n" + one.read_text(encoding="utf-8")
                   .splitlines()[1] + "\n", encoding="utf-8")
    runs = {}
    for path in (one, two):
        for jobs in ([], ["--jobs", "2"]):
            assert main(["prove", str(path), "--json", "--aux-search", "--aux-depth", "1", *jobs]) == 0
            runs[path.name, bool(jobs)] = without_timing(json.loads(capsys.readouterr().out))
    assert runs["one.gdl", False] == runs["one.gdl", True]
    assert runs["two.gdl", False] == runs["two.gdl", True]
    assert [r["verdict"] for r in runs["two.gdl", True]] == ["proved", "proved"]
    assert runs["one.gdl", True][0]["goals"][0]["proof"]["auxiliary"] == ["aux1 = intersection_ll aux1 a b c f"]


@pytest.mark.parametrize(("args", "message"), [
    (["--aux-search", "--method", "algebra"], "--aux-search: the algebraic prover adds no auxiliary points"),
    (["--jobs", "0"], "--jobs 0: the number of processes must be a whole number from 1"),
    (["--aux-depth", "x"], "--aux-depth x: the search depth must be a whole number from 1"),
])
def test_bad_search_flags_are_usage_errors(args: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", str(ROOT / "examples" / "orthocenter.gdl"), *args]) == 2
    assert message in capsys.readouterr().err
