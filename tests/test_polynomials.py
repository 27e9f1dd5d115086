"""Polynomial forms of the predicate registry (``polynomial:``) and the
construction equations (``polynomials:``): read with located errors, and
true to the numeric checks on real figures."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import geodsl
from geodsl.lang.ast import Constant, Predicate
from geodsl.lang.definitions import read_constructions, read_predicates, rulebase
from geodsl.lang.errors import RulebaseError
from geodsl.lang.polynomials import Evaluation, PolynomialSyntax, Unsupported, read_polynomials, rotation
from geodsl.realizer import evaluate

EXACT = Evaluation(Fraction)
FLOAT = Evaluation(float)


def _values(fact: Predicate, coords: dict[str, complex], ev: Evaluation = FLOAT) -> list[float]:
    pdef = rulebase().predicate(fact.name)
    pts = {i: (coords[a].real, coords[a].imag) for i, a in enumerate(fact.args) if isinstance(a, str)}
    consts = {i: a for i, a in enumerate(fact.args) if isinstance(a, Constant)}
    return ev.forms(pdef.polynomials, pts, consts)


def test_every_construction_with_equations_names_predicates_with_forms() -> None:
    rb = rulebase()
    with_equations = [c for c in rb.constructions.values() if c.polynomials is not None]
    assert len(with_equations) >= 85
    missing = sorted(c.name for c in rb.constructions.values() if c.polynomials is None)
    assert missing == ["2l1c", "3peq", "cc_itangent", "cc_tangent", "e5128", "eqangle2", "trisect"]
    for c in with_equations:
        for fact in c.polynomials or ():
            assert rb.predicate(fact.name).polynomials, (c.name, fact.name)
    assert rb.construction("triangle").polynomials == ()  # makes no fact: no equation


@pytest.mark.parametrize("name", ["jgex_ag_231", "imo_ag_30"])
def test_the_construction_equations_vanish_on_the_public_sets(name: str) -> None:
    rb = rulebase()
    problems = geodsl.datasets.load(name)[::3]
    checked = 0
    for p in problems:
        figure = geodsl.realize(p, seed=5, diagrams=1)[0]
        scale = figure.scale
        coords = {k: v / scale for k, v in figure.all_coords.items()}
        for construction in p.premise.constructions:
            for clause in construction.clauses:
                cdef = rb.construction(clause.name)
                bind = dict(zip(cdef.params, clause.args))
                for fact in cdef.polynomials or ():
                    args = tuple(bind.get(a, a) if isinstance(a, str) else a for a in fact.args)
                    try:
                        values = _values(Predicate(fact.name, args), coords)
                    except Unsupported:
                        continue
                    checked += 1
                    assert max(abs(v) for v in values) < 1e-7, (p.name, clause.name, fact)
    assert checked > (300 if name == "jgex_ag_231" else 100)


POINTS = st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=8, max_size=8, unique=True)


@settings(max_examples=150, deadline=None)
@given(POINTS)
def test_a_true_fact_has_vanishing_polynomials_and_line_facts_are_equivalent(points: list[tuple[int, int]]) -> None:
    names = "abcdefgh"
    coords = {n: complex(x, y) for n, (x, y) in zip(names, points)}
    exact = {n: (Fraction(int(z.real)), Fraction(int(z.imag))) for n, z in coords.items()}
    rb = rulebase()
    for pname in ("coll", "para", "perp", "cong", "cyclic", "eqangle", "eqratio", "midp", "simtri",
                  "simtrir", "contri", "circle"):
        pdef = rb.predicate(pname)
        fact = Predicate(pname, tuple(names[: pdef.arity]))
        pts = {i: exact[a] for i, a in enumerate(fact.args)}
        zero = all(v == 0 for v in EXACT.forms(pdef.polynomials, pts, {}))
        holds = evaluate(fact, coords, 12.0, geodsl.realizer.TOLERANCE)
        if holds:
            assert zero, (pname, points)
        if pname in ("coll", "para", "perp", "cong", "midp"):
            assert zero == holds, (pname, points)


def test_rotations_are_rational_only_for_quarter_turns() -> None:
    assert rotation(Fraction(1, 4)) == (1, 1)
    assert rotation(Fraction(1, 2)) == (0, 1)
    with pytest.raises(Unsupported, match="no rational rotation"):
        rotation(Fraction(1, 6))


@pytest.mark.parametrize(("text", "message", "column"), [
    ("cross(b − a)", "`cross` takes 2 arguments, got 1", 1),
    ("wedge(a, b)", "unknown function `wedge`", 1),
    ("dot(b − a, z − a)", "`z` is not a point of the predicate", 12),
    ("a + dot(a, b)", "a sum mixes a vector and a scalar", 3),
    ("cross(a, b) $ 1", "unexpected `$` in a polynomial", 13),
    ("|a|²", "a squared length is written |a b|²", 1),
    ("cmul(a, b)·cmul(a, b)", "`·` multiplies by a scalar", 11),
    ("dot(a, b); cross(b, a", "expected `)`", 22),
])
def test_polynomial_syntax_errors_are_located(text: str, message: str, column: int) -> None:
    with pytest.raises(PolynomialSyntax) as info:
        read_polynomials(text, ("a", "b", "c"), frozenset())
    assert message in str(info.value)
    assert info.value.column == column


def test_a_bad_polynomial_line_in_the_registry_is_a_located_rulebase_error() -> None:
    text = "predicate: coll a b c\nsame: coll b a c\npolynomial: cross(b − a, q − a)\n"
    with pytest.raises(RulebaseError) as info:
        read_predicates(text, "preds.gdl")
    err = info.value
    assert (err.source, err.line, err.column) == ("preds.gdl", 3, 26)
    assert "`q` is not a point of the predicate" in err.message


def test_a_construction_equation_needs_a_predicate_with_a_form() -> None:
    preds = read_predicates("predicate: coll a b c\nsame: coll b a c\n\n"
                            "predicate: diff a b\nside: yes\n", "p.gdl")
    text = "construction: x = on_line x a b\nasserts: coll x a b\npolynomials: diff x a\nlocus x: line a b\n"
    with pytest.raises(RulebaseError) as info:
        read_constructions(text, "c.gdl", preds)
    assert info.value.line == 3 and info.value.column == 14
    assert "`diff` has no `polynomial:` form" in info.value.message
