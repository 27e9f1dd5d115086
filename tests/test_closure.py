"""The deduction closure: proofs of small problems, exact AR, budgets,
determinism, provenance."""

from __future__ import annotations

import time

from fractions import Fraction

import pytest

import geodsl
from geodsl.ddar.ar import PI, AngleTable, RatioTable
from geodsl.ddar.linear import LinearTable, integral
from geodsl.ddar.ruleset import load_rules

MIDLINE = "a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c ? para d e b c"
ORTHO = ("a b c = triangle a b c; d = foot d a b c; e = foot e b c a; "
         "h = on_line h a d, on_line h b e ? perp c h a b")
CYCLIC = "a b c = triangle a b c; o = circle o a b c; d = on_circle d o a ? eqangle d a d b c a c b"
ISOSCELES = "a b = segment a b; c = on_circle c a b ? eqangle a b b c b c a c"


@pytest.mark.parametrize("text", [MIDLINE, ORTHO, CYCLIC, ISOSCELES])
def test_hand_problems_are_proved(text: str) -> None:
    c = geodsl.closure(text, timeout=20)
    assert c.status == "proved" and c.solved
    assert c.unsound == ()
    proof = c.proof()
    assert proof.steps, "the goal is not a premise: the proof has steps"
    # The last step concludes the goal.
    goal = geodsl.canonical(c.problem.goal).to_text()
    assert geodsl.canonical(geodsl.parse_problem(f"{c.problem.premise.to_text()} ? {proof.steps[-1].predicate.to_text()}"
                                                 ).goal).to_text() == goal


def test_midline_proof_text() -> None:
    text = geodsl.closure(MIDLINE).proof().to_text()
    assert text.splitlines()[:3] == ["* From theorem premises:", "D is midpoint of AB [00]",
                                     "E is midpoint of AC [01]"]
    assert text.splitlines()[-1].startswith("001. D is midpoint of AB [00] & E is midpoint of AC [01] (r06")
    assert text.splitlines()[-1].endswith("⇒ BC ∥ DE [02]")


def test_orthocenter_uses_an_angle_chase_from_the_altitudes() -> None:
    c = geodsl.closure(ORTHO)
    steps = c.proof().steps
    assert any(s.rule == "angle_chase" for s in steps)


def test_every_fact_has_provenance_back_to_the_premise() -> None:
    c = geodsl.closure(CYCLIC)
    for f in c.facts:
        if f.rule == "premise":
            assert f.parents == () and f.origin is not None
        else:
            assert f.parents and all(p < f.id for p in f.parents)


def test_proves_answers_for_derived_and_underivable_facts() -> None:
    c = geodsl.closure(MIDLINE)
    assert c.proves("para d e b c")
    assert c.proves("coll a d b")
    assert not c.proves("perp d e b c")      # false
    assert not c.proves("cong d e b c")      # false (DE = BC/2)
    assert c.proves("rconst d e b c 1/2") or not c.proves("cong d e b c")


def test_ratio_constants_stay_exact() -> None:
    # AlphaGeometry's ratio code once derived AB:AC = 1/2 ⇒ AC = AB (its issues #68, #111).
    c = geodsl.closure("a b c = triangle12 a b c ? rconst a b a c 1/2")
    assert c.solved
    assert not c.proves("cong a b a c")
    assert c.proves("rconst a c a b 2")
    assert not c.proves("rconst a c a b 3")


def test_angle_chase_is_sound_modulo_pi() -> None:
    # 2x ≡ 0 (mod π) does not give x ≡ 0: the combination needs weight 1/2.
    t = LinearTable()
    t.add({0: Fraction(2)}, 0)
    residual, reason = t.reduce({0: Fraction(1)})
    assert residual == {} and not integral(reason)
    angles = AngleTable()
    # ∠(ab, ac) = ∠(ac, ad): ac bisects, but ab ∥ ad does not follow mod π... and
    # neither does ∠(ab, ac) = ∠(ab, ac) + π/2.
    angles.add(_sub(angles.angle(0, 1, 0, 2), angles.angle(0, 2, 0, 3)), 0)
    assert angles.query("para", (0, 1, 0, 3)) is None
    angles2 = AngleTable()
    f = angles2.angle(0, 1, 0, 2)
    angles2.add({k: 2 * v for k, v in f.items()}, 0)       # 2·∠(ab, ac) ≡ 0
    assert angles2.query("para", (0, 1, 0, 2)) is None
    assert angles2.query("perp", (0, 1, 0, 2)) is None
    t3 = AngleTable()
    t3.add({**t3.angle(0, 1, 2, 3), PI: Fraction(-1, 2)}, 7)   # ab ⟂ cd
    assert t3.query("perp", (2, 3, 0, 1)).facts == (7,)
    assert t3.query("para", (0, 1, 2, 3)) is None


def test_ratio_table_reason_is_the_facts_used() -> None:
    r = RatioTable()
    r.add(r.forms("cong", (0, 1, 2, 3))[0], 10)
    r.add(r.forms("cong", (2, 3, 4, 5))[0], 11)
    r.add(r.forms("cong", (6, 7, 8, 9))[0], 12)
    assert r.query("cong", (0, 1, 4, 5)).facts == (10, 11)
    assert r.query("cong", (0, 1, 6, 7)) is None


def _sub(f: dict[int, Fraction], g: dict[int, Fraction]) -> dict[int, Fraction]:
    out = dict(f)
    for k, v in g.items():
        out[k] = out.get(k, 0) - v
    return {k: v for k, v in out.items() if v}


def test_budgets_give_partial_results() -> None:
    text = ("a b c = triangle a b c; o = circle o a b c; h = orthocenter h a b c; "
            "d = midpoint d b c; e = midpoint e c a; f = midpoint f a b; g = foot g a b c ? cyclic d e f g")
    timed = geodsl.closure(text, timeout=1e-9)
    assert timed.status == "budget" and not timed.solved and timed.stopped == "realize"
    # One clock for the whole problem: a budget started long ago has no time left.
    clock = geodsl.Budget(seconds=0.05).start()
    time.sleep(0.06)
    late = geodsl.closure(text, budget=clock)
    assert late.status == "budget" and late.stopped == "realize"
    few = geodsl.closure(text, max_facts=25)
    assert few.status == "budget" and few.stopped == "deduction"
    assert 25 <= len(few.facts) < 60
    assert all(f.rule == "premise" for f in few.facts[:10])


def test_saturation_without_a_goal_or_with_an_unprovable_one() -> None:
    c = geodsl.closure("a b c = triangle a b c; d = midpoint d a b")
    assert c.status == "saturated" and not c.solved and len(c.facts) >= 3
    with pytest.raises(geodsl.GeoDSLError):
        c.proof()


def test_two_runs_are_identical() -> None:
    text = ("a b c = triangle a b c; o = circle o a b c; h = orthocenter h a b c; "
            "d = midpoint d b c; e = midpoint e c a; f = midpoint f a b; g = foot g a b c ? cyclic d e f g")
    runs = [geodsl.closure(text, timeout=30) for _ in range(2)]
    assert [f for f in runs[0].facts] == [f for f in runs[1].facts]
    if runs[0].solved:
        assert runs[0].proof().to_text() == runs[1].proof().to_text()
        assert runs[0].proof().to_dict() == runs[1].proof().to_dict()


def test_bad_problem_is_a_located_error() -> None:
    with pytest.raises(geodsl.GeoDSLError) as err:
        geodsl.closure("a b c = triangle a b c; d = midpiont d a b ? coll a b d")
    assert err.value.line == 1 and err.value.column is not None


def test_lattice_table_finds_integral_combinations_only() -> None:
    from geodsl.ddar.linear import LatticeTable

    t = LatticeTable()
    t.add({0: 2}, 0)                       # 2x ≡ 0
    residual, _ = t.reduce({0: 1})
    assert residual == {0: 1}              # x ≡ 0 does not follow
    t.add({0: 3}, 1)                       # 3x ≡ 0, so x = 3x − 2x ≡ 0
    residual, reason = t.reduce({0: 1})
    assert residual == {} and reason == {0: -1, 1: 1}
    t.add({1: 1, 2: -1, PI: Fraction(-1, 2)}, 2)   # y − z ≡ 1/2
    residual, reason = t.reduce({1: 2, 2: -2})
    assert residual == {PI: Fraction(1)} and reason == {2: 2}


def test_saturated_closure_lists_what_ar_proves() -> None:
    c = geodsl.closure("a b = segment a b; c = on_tline c b a b; d = on_tline d a a b")
    # With a goal it fails to prove (no rules here), the closure does not list them unless asked.
    text = "a b = segment a b; c = on_tline c b a b; d = on_tline d a a b; e = midpoint e c d ? cong a e b e"
    with_goal = geodsl.closure(text, rules=[])
    assert with_goal.status == "saturated"
    asked = geodsl.closure(text, rules=[], harvest_facts=True)
    assert len(with_goal.facts) < len(asked.facts)
    assert c.status == "saturated"
    listed = {geodsl.canonical(c.fact_predicate(f)).to_text(): f.rule for f in c.facts}
    assert listed.get(geodsl.canonical(geodsl.Predicate("para", ("a", "d", "b", "c"))).to_text()) == "angle_chase"
    bare = geodsl.closure("a b = segment a b; c = on_tline c b a b; d = on_tline d a a b",
                          harvest_facts=False)
    assert len(bare.facts) < len(c.facts)


def test_constant_premises_feed_the_ratio_table() -> None:
    c = geodsl.closure("a = free a; b = lconst b a 3; c = midpoint c a b ? lconst a c 3/2")
    assert c.solved and c.proof().steps[-1].rule == "ratio_chase"
    c = geodsl.closure("a b c = triangle12 a b c; d = midpoint d a c ? cong a b a d")
    assert c.solved
    assert [p.predicate.to_text() for p in c.proof().givens] == ["rconst a b a c 1/2", "midp d a c"]


BISECTORS = ("a b = segment a b; c = on_circle c a b; d = on_circle d a b; e = on_circle e a b; "
             "f = intersection_ll f b c d e; g = intersection_ll g c d b e; h = angle_bisector h d f b; "
             "i = angle_bisector i c g b; j = intersection_ll j f h g i ? perp g i f h")


def test_halved_angles_take_their_branch_from_agreeing_diagrams(monkeypatch: pytest.MonkeyPatch) -> None:
    # ∠(fb, fh) = ∠(fh, fd) only fixes fh up to π/2: no integer combination
    # proves the goal; the rational one does, and every diagram agrees.
    c = geodsl.closure(BISECTORS)
    assert c.solved
    last = c.proof().steps[-1]
    assert last.rule == "angle_chase_halved" and last.label == "Angle chase, halved angle"
    # The step states the branch it rests on: the other bisector is ruled out.
    proof = c.proof()
    stated = [proof.checks[i].predicate for i in last.checks]
    assert stated and all(geodsl.realize(BISECTORS, seed=s, diagrams=1).holds(p) for p in stated for s in (0, 1))
    assert "[N" in proof.to_text().splitlines()[-1]
    monkeypatch.setattr(AngleTable, "query_rational", lambda self, name, args: None)
    assert not geodsl.closure(BISECTORS).solved


def test_rules_can_be_chosen() -> None:
    from geodsl.ddar.ruleset import spec_of

    assert geodsl.closure(MIDLINE, rules=[]).status == "saturated"
    only = [spec_of(geodsl.get_rules()["r06"])]
    assert geodsl.closure(MIDLINE, rules=only).solved


def test_closure_reuses_diagrams_it_is_given() -> None:
    import geodsl
    from geodsl.ddar.engine import DIAGRAMS_NEEDED

    problem = geodsl.parse_problem("a b c = triangle; h = orthocenter h a b c; "
                                   "d = on_line d a h, on_line d b c ? perp a d b c")
    figures = geodsl.realize(problem, seed=3, diagrams=DIAGRAMS_NEEDED)
    given = geodsl.closure(problem, seed=3, figures=figures)
    own = geodsl.closure(problem, seed=3)
    assert given.solved and [f.args for f in given.facts] == [f.args for f in own.facts]
    with pytest.raises(geodsl.GeoDSLError, match="reads 5 diagrams, 1 given"):
        geodsl.closure(problem, seed=3, figures=geodsl.realize(problem, seed=3, diagrams=1))
    # The figures carry their seed: another one is refused, not ignored.
    with pytest.raises(geodsl.GeoDSLError, match="seed 4 differs from the seed of the figures given"):
        geodsl.closure(problem, seed=4, figures=figures)
    assert geodsl.closure(problem, figures=figures).solved


def test_only_rules_that_are_linear_consequences_are_left_to_ar() -> None:
    # r00 (two perpendiculars make a parallel) is one angle equation: AR
    # derives it. r68, r69 and r73 state only angle facts too, but their
    # conclusions are no linear combination of their premises: DD must run them.
    from geodsl.ddar.ruleset import load_rules, subsumed_by_ar

    skipped = {r.name for r in load_rules() if subsumed_by_ar(r)}
    assert {"r00", "r02", "r08"} <= skipped
    assert not {"r68", "r69", "r73"} & skipped


@pytest.mark.parametrize("premise,rule", [
    # JGEX L053-1: the midpoint of ab is equidistant from the feet on cd.
    ("b c d = triangle b c d; e = foot e b c d; a = free a; f = foot f a c d; "
     "g = midpoint g b a ? cong f g g e", "r70"),
    # JGEX L058-9: the converse, on a right trapezoid.
    ("a b = segment a b; c = on_bline c a b; d = on_tline d b a b; "
     "e = intersection_lt e c d a a b ? cong e c c d", "r71"),
    # JGEX yL157-1: the foot on a bisector and a midpoint.
    ("a b d = triangle a b d; e = midpoint e d a; c = angle_bisector c a b d, on_dia c a b "
     "? para c e b d", "r72"),
    # JGEX ye_aux_y1: the feet from c on the bisectors at a and b.
    ("a b c = triangle a b c; d = angle_bisector d a b c, on_dia d b c; "
     "e = angle_bisector e b a c, on_dia e a c ? para d e a b", "r73"),
])
def test_projection_and_reflection_lemmas_prove_their_problems(premise: str, rule: str) -> None:
    c = geodsl.closure(premise)
    assert c.solved
    assert rule in {step.rule for step in c.proof().steps}
    others = [r for r in load_rules() if r.name != rule]
    assert not geodsl.closure(premise, rules=others).solved


@pytest.mark.parametrize("text", [
    # Three midpoints on a line whatever its order: de = af (half of ac).
    "a b = segment a b; c = on_line c a b; d = midpoint d a b; e = midpoint e b c; "
    "f = midpoint f a c ? cong d e a f",
    # Sums of segments: de = dc + ce = ab/2 = ac.
    "a b = segment a b; c = midpoint c a b; d = midpoint d a c; e = midpoint e c b ? cong d e a c",
])
def test_distance_chase_adds_segments_along_a_line(text: str) -> None:
    c = geodsl.closure(text)
    assert c.solved
    last = c.proof().steps[-1]
    assert last.rule == "distance_chase" and last.label == "Distance chase"
    # The positions rest on collinearities: they are among the step's parents.
    assert "A,B,C are collinear" in str(c.proof()).split("001.")[1]


def test_distance_table_links_lengths_to_positions() -> None:
    from geodsl.ddar.ar import UNIT, DistanceTable

    t = DistanceTable()
    # a=0, m=1, b=2 on line 7: m is the midpoint, |ab| = 4.
    t.add({t.pos(7, 1): Fraction(2), t.pos(7, 0): Fraction(-1), t.pos(7, 2): Fraction(-1)}, 10)
    t.link(t.var(0, 2), t.signed(7, 0, 2), (11,))
    t.link(t.var(0, 1), t.signed(7, 0, 1), (11,))
    t.add({t.var(0, 2): Fraction(1), UNIT: Fraction(-4)}, 12)
    assert t.zero({t.var(0, 1): Fraction(1), UNIT: Fraction(-2)}).facts == (10, 11, 12)
    assert t.zero({t.var(0, 1): Fraction(1), UNIT: Fraction(-3)}) is None


MENELAUS = ("a b c = triangle a b c; d = angle_bisector d c b a, on_line d a c; "
            "e = angle_bisector e a c b, on_line e a b; f = on_line f d e, on_line f b c; "
            "g = on_line g a b ? eqangle a g a f a f a c")
"""JGEX E076-31: the bisector feet's line meets bc on the external bisector at a."""
CEVA = ("a b c = triangle a b c; d = on_line d a b; e = on_pline e d b c, on_line e a c; "
        "f = on_line f c d, on_line f b e; g = on_line g a f, on_line g b c ? midp g b c")
"""JGEX E051-2: a parallel to bc and two cevians: the third cevian bisects bc."""


@pytest.mark.parametrize("premise,rules", [(MENELAUS, {"r74"}), (CEVA, {"r74", "r75"})])
def test_menelaus_and_ceva_feed_the_ratio_chase(premise: str, rules: set[str]) -> None:
    c = geodsl.closure(premise)
    assert c.solved
    steps = c.proof().steps
    assert rules & {s.rule for s in steps}
    assert any(s.predicate.name == "sideprod" for s in steps)
    assert not geodsl.closure(premise, rules=[r for r in load_rules() if r.name not in rules]).solved


def test_ceva_alone_proves_the_cevian_midpoint() -> None:
    # Menelaus (on triangle abf and line dc) also reaches it; without it, Ceva does.
    c = geodsl.closure(CEVA, rules=[r for r in load_rules() if r.name != "r74"])
    assert c.solved and "r75" in {s.rule for s in c.proof().steps}


@pytest.mark.parametrize("text,goal", [
    # Legs 3 and 4: the hypotenuse is 5 (squared lengths are exact rationals).
    ("a = free a; b = lconst b a 3; c = on_tline c a a b, lconst c a 4", "lconst b c 5"),
    # Two points equidistant from a and b: their line is perpendicular to ab.
    ("a b = segment a b; p = on_bline p a b; q = on_bline q a b", "perp p q a b"),
    # The median to the hypotenuse is half of it, from squared lengths.
    ("a = free a; b = lconst b a 6; c = on_tline c a a b, lconst c a 8; m = midpoint m b c", "lconst a m 5"),
])
def test_pythagoras_chase_proves_from_squared_lengths(text: str, goal: str) -> None:
    c = geodsl.closure(f"{text} ? {goal}")
    assert c.solved
    assert "pythagoras_chase" in {s.rule for s in c.proof().steps}


def test_square_table_perpendicularity_criterion() -> None:
    from geodsl.ddar.ar import SquareTable

    t = SquareTable()
    # Right angle at a (perp a b a c): |bc|² − |ab|² − |ac|² = 0.
    assert t.forms("perp", (0, 1, 0, 2)) == [{t.var(0, 2): -1, t.var(0, 1): -1, t.var(1, 2): 1}]
    t.add(t.forms("perp", (0, 1, 0, 2))[0], 1)
    t.add(t.forms("lconst", (0, 1, geodsl.Constant("length", Fraction(5))))[0], 2)
    t.add(t.forms("lconst", (0, 2, geodsl.Constant("length", Fraction(12))))[0], 3)
    assert t.query("lconst", (1, 2, geodsl.Constant("length", Fraction(13)))).facts == (1, 2, 3)
    assert t.query("lconst", (1, 2, geodsl.Constant("length", Fraction(17)))) is None


IMO_2009_P2 = ("m l k = triangle m l k; w = circle w m l k; q = on_tline q m w m; p = mirror p q m; "
               "b = mirror b p k; c = mirror c q l; a = on_line a b q, on_line a c p; o = circle o a b c "
               "? cong o p o q")


def test_equal_powers_prove_imo_2009_p2() -> None:
    # The angle chase and the midlines give pa·pc = qa·qb; equal powers
    # (r76) put p and q at one distance from the circumcentre.
    c = geodsl.closure(IMO_2009_P2)
    assert c.solved
    steps = c.proof().steps
    assert steps[-1].rule == "r76" and steps[-1].text in ("OP = OQ", "QO = PO")
    assert not geodsl.closure(IMO_2009_P2, rules=[r for r in load_rules() if r.name != "r76"]).solved


IMO_2008_P1A = ("a b c = triangle a b c; h = orthocenter h a b c; d = midpoint d b c; e = midpoint e a c; "
                "f = midpoint f a b; a1 = on_circle a1 d h, on_line a1 b c; a2 = on_circle a2 d h, on_line a2 b c; "
                "b1 = on_circle b1 e h, on_line b1 c a; b2 = on_circle b2 e h, on_line b2 c a; "
                "c1 = on_circle c1 f h, on_line c1 a b; c2 = on_circle c2 f h, on_line c2 a b ? cyclic c1 c2 b1 b2")


def test_radical_axis_proves_imo_2008_p1a_in_a_short_proof() -> None:
    # a is on the radical axis of the circles centred e and f through h
    # (ah ⟂ ef): equal powers (r79), then the converse of the power of a
    # point (r78). Collinearities come straight from the proven lines.
    c = geodsl.closure(IMO_2008_P1A)
    assert c.solved
    steps = c.proof().steps
    assert [s.rule for s in steps[-2:]] == ["r79", "r78"]
    assert "r28" not in {s.rule for s in steps} and len(steps) <= 14
    # Without r78 the same equal products reach the circle through similar
    # triangles (r51, r04); without r79 nothing does.
    assert not geodsl.closure(IMO_2008_P1A, rules=[r for r in load_rules() if r.name != "r79"]).solved
