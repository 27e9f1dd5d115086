"""Extending a saturated closure by auxiliary points (what every try of the
search does): the base's facts kept with their provenance, each rule's
matches equal to a fresh match of the extended figure, the same verdicts as
saturating the extended problem from scratch, proofs that hold in
independent figures, and the base left untouched."""

from __future__ import annotations

import pytest

import geodsl
from geodsl.budget import Budget
from geodsl.ddar.engine import DIAGRAMS_NEEDED, Closure, closure, extend
from geodsl.ddar.matcher import Matcher
from geodsl.lang.ast import Construction, Problem
from geodsl.lang.errors import RealizationError
from geodsl.search.candidates import Candidate, figure_of, generate
from geodsl.search.rank import rank


def _problem(dataset: str, tail: str) -> Problem:
    return next(p for p in geodsl.datasets.load(dataset) if p.name and p.name.endswith(tail))


def _candidates(p: Problem, figures: geodsl.Diagrams, count: int) -> list[Candidate]:
    coords = dict(figures[0].all_coords)
    return rank(generate(p, coords), figure_of(p, coords), p.goals)[:count]


def _aux(p: Problem, text: str) -> tuple[Construction, ...]:
    return geodsl.parse_problem(f"{p.premise.to_text()} | {text}").premise.auxiliary


def _assert_matches_fresh(ext: Closure) -> None:
    assert ext._deduction is not None and ext._store is not None
    fresh = Matcher(ext._store.model)
    for rule, found in zip(ext._deduction.rules, ext._deduction.matches):
        if found is not None:
            assert set(found) == set(fresh.matches(rule)), rule.name


@pytest.mark.parametrize("dataset, tail, count", [("jgex_ag_231", "E072-16.gex", 12),
                                                  ("imo_ag_30", "imo_2010_p2", 6)])
def test_an_extension_keeps_the_base_and_matches_like_a_fresh_match(dataset: str, tail: str, count: int) -> None:
    p = _problem(dataset, tail)
    figures = geodsl.realize(p, seed=0, diagrams=DIAGRAMS_NEEDED)
    base = closure(p, figures=figures)
    assert base.status == "saturated"
    facts_before = base.facts
    found = _candidates(p, figures, count)
    second = _aux(p, "aux2 = midpoint aux2 a b")
    chains = [(c.construction,) for c in found] + [(found[0].construction,) + second]
    for chain in chains:
        ext = extend(base, chain, budget=Budget(seconds=20))
        assert ext is not None and not ext.unsound
        assert ext.names == base.names + tuple(x for c in chain for x in c.points)
        # The base's facts, in order, with their provenance; the new point's
        # premise facts next.
        assert ext.facts[:len(base.facts)] == base.facts
        assert ext.facts[len(base.facts)].rule == "premise"
        # Old points keep their coordinates in every diagram.
        assert ext.figures is not None
        for old, new in zip(figures, ext.figures):
            assert all(new.coords[n] == z for n, z in old.coords.items()) or new.index > 0
        # Each rule's bindings (old ones kept, new ones through aux1) are
        # what matching the extended figure from scratch finds (two new
        # points at once too).
        _assert_matches_fresh(ext)
    # An extension extended again (a depth-2 try) matches the same way.
    first = extend(base, chains[0])
    assert first is not None and first.status == "saturated"
    again = extend(first, second)
    assert again is not None and not again.unsound and again.facts[:len(first.facts)] == first.facts
    _assert_matches_fresh(again)
    # The base is left as it was: an extension copies, never writes into it.
    assert base.facts == facts_before and len(base._store.facts) == len(facts_before)  # type: ignore[union-attr]


def test_an_extension_proves_what_saturating_the_extended_problem_proves() -> None:
    p = _problem("jgex_ag_231", "E072-16.gex")
    figures = geodsl.realize(p, seed=0, diagrams=DIAGRAMS_NEEDED)
    base = closure(p, figures=figures)
    verdicts = []
    for c in _candidates(p, figures, 40):
        ext = extend(base, (c.construction,))
        scratch = closure(p.with_auxiliary((c.construction,)), seed=0)
        assert ext is not None
        verdicts.append((ext.solved, scratch.solved))
    assert all(e == s for e, s in verdicts)
    assert sum(e for e, _ in verdicts) >= 1


def test_an_extended_proof_lists_its_point_and_holds_in_independent_figures() -> None:
    p = _problem("jgex_ag_231", "E072-16.gex")
    aux = _aux(p, "aux1 = intersection_ll aux1 a b c f")
    base = closure(p, seed=0)
    ext = extend(base, aux)
    assert ext is not None and ext.solved and ext.status == "proved"
    twice = extend(base, aux)  # deterministic, and the base unchanged by the first
    assert twice is not None and twice.facts == ext.facts
    proof = ext.proof()
    assert proof.auxiliary == ("aux1 = intersection_ll aux1 a b c f",)
    independent = geodsl.realize(p.with_auxiliary(aux), seed=97, diagrams=2)
    for fact in [g.predicate for g in proof.givens] + [s.predicate for s in proof.steps]:
        assert independent.holds(fact), fact.to_text()
    # Two points at once, or one and then the other, prove it alike.
    both = _aux(p, "aux1 = midpoint aux1 a b; aux2 = intersection_ll aux2 a b c f")
    at_once = extend(base, both)
    first = extend(base, both[:1])
    assert first is not None and first.status == "saturated"
    one_more = extend(first, both[1:])
    assert at_once is not None and at_once.solved and one_more is not None and one_more.solved
    assert one_more.proof().auxiliary == at_once.proof().auxiliary == (
        "aux1 = midpoint aux1 a b", "aux2 = intersection_ll aux2 a b c f")


def test_only_a_saturated_closure_is_extended() -> None:
    p = _problem("jgex_ag_231", "E072-16.gex")
    aux = _aux(p, "aux1 = midpoint aux1 a b")
    proved = closure(geodsl.parse_problem(f"{p.premise.to_text()} ? para a b c d"), seed=0)
    assert proved.status == "proved" and extend(proved, aux) is None
    stopped = closure(p, seed=0, budget=Budget(seconds=10, max_facts=5))
    assert stopped.status == "budget" and extend(stopped, aux) is None


def test_a_construction_degenerate_in_the_figure_is_refused() -> None:
    p = _problem("jgex_ag_231", "E072-16.gex")
    base = closure(p, seed=0)
    with pytest.raises(RealizationError, match="`aux1 = foot aux1 a a b`: a, a and b are collinear") as info:
        extend(base, _aux(p, "aux1 = foot aux1 a a b"))
    text = f"{p.premise.to_text()} | aux1 = foot aux1 a a b"
    assert (info.value.line, info.value.column) == (1, text.index("foot") + 1)  # the clause


def test_a_witness_diagram_where_the_new_point_degenerates_is_realized_anew() -> None:
    # In diagram 3 of E072-16 (seed 0) the angle at a is nearly right: the
    # foot of c on ab falls on a there, not in the other diagrams.
    p = _problem("jgex_ag_231", "E072-16.gex")
    figures = geodsl.realize(p, seed=0, diagrams=DIAGRAMS_NEEDED)
    aux = _aux(p, "aux1 = foot aux1 c a b")
    grown = figures.extended(aux)
    assert [d.coords["a"] == figures[d.index].coords["a"] for d in grown] == [True, True, True, False, True]
    fresh = geodsl.realize(p.with_auxiliary(aux), seed=0, diagrams=4)[3]
    assert dict(grown[3].coords) == dict(fresh.coords)
    ext = extend(closure(p, figures=figures), aux)
    assert ext is not None and not ext.unsound
