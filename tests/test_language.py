"""What the language accepts, and the AST it builds."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import geodsl
import pytest
from geodsl import Constant, Predicate, canonical


def test_shorthand_triangle_expands_to_full_clause():
    p = geodsl.parse_problem("a b c = triangle; h = orthocenter h a b c ? perp a h b c")
    clause = p.premise.constructions[0].clauses[0]
    assert clause.name == "triangle" and clause.args == ("a", "b", "c")
    assert p.to_text() == "a b c = triangle a b c; h = orthocenter h a b c ? perp a h b c"


def test_shorthand_with_output_omitted_puts_new_point_first():
    p = geodsl.parse_problem("a b c = triangle; h = on_tline b a c")
    assert p.premise.constructions[1].clauses[0].args == ("h", "b", "a", "c")


def test_multi_character_names():
    p = geodsl.parse_problem("a b c = triangle; g1 = midpoint g1 a b; c1 = on_line c1 g1 c ? coll g1 c1 c")
    assert p.points == ("a", "b", "c", "g1", "c1")
    assert p.goal == Predicate("coll", ("g1", "c1", "c"))


@pytest.mark.parametrize("text, kind, value", [
    ("x = s_angle a b x 45", "degrees", Fraction(45)),
    ("x = s_angle a b x 22.5", "degrees", Fraction(45, 2)),
    ("x = s_angle a b x 1pi/4", "degrees", Fraction(45)),
])
def test_degree_constants(text, kind, value):
    p = geodsl.parse_problem("a b = segment a b; " + text)
    constant = p.premise.constructions[1].clauses[0].args[-1]
    assert constant == Constant(kind, value)


@pytest.mark.parametrize("written, value", [("1pi/4", Fraction(1, 4)), ("1_PI/4", Fraction(1, 4)),
                                            ("3pi/4", Fraction(3, 4)), ("45o", Fraction(1, 4))])
def test_angle_constants_in_goals(written, value):
    p = geodsl.parse_problem(f"a b c = triangle; d = free d ? aconst a b c d {written}")
    assert p.goal.args[-1] == Constant("angle", value)
    assert p.goal.to_text().endswith("pi/4") or value != Fraction(1, 4)


def test_ratio_constant_and_its_text():
    p = geodsl.parse_problem("a b c d = quadrangle ? rconst a b c d 1/2")
    assert p.goal.args[-1] == Constant("ratio", Fraction(1, 2))
    assert p.goal.to_text() == "rconst a b c d 1/2"


def test_crlf_tabs_bom_and_cr_only():
    text = "\ufeffname one\r\na b c = triangle\ta b c;\th = orthocenter h a b c ? perp a h b c\r\n"
    problems = geodsl.parse(text)
    assert [p.name for p in problems] == ["name one"]
    assert problems[0].goal.name == "perp"
    assert geodsl.parse(text.replace("\r\n", "\r")) == problems


def test_bare_lines_are_one_problem_each():
    text = "a b c = triangle ? ncoll a b c\na b = segment ? diff a b\n"
    problems = geodsl.parse(text)
    assert [p.name for p in problems] == [None, None]
    assert [p.goal.name for p in problems] == ["ncoll", "diff"]


def test_premise_only_line():
    p = geodsl.parse_problem("a b c = triangle a b c; d = midpoint d a b")
    assert p.goals == () and p.goal is None


GDL = """\
# a comment line
problem: two lines
@source: hand written
@difficulty: easy
a b c = triangle a b c   # trailing comment
d = midpoint d a b; e = midpoint e a c
goal: para d e b c
option A: para d e b c
option B: not perp d e a b
option C: ¬ cong d e b c
answer: AB
aux: f = midpoint f b c
aux second: g = foot g a b c; k = midpoint k a g

examples/complete2/name.gex
a b c = triangle a b c ? ncoll a b c
"""


def test_gdl_block_with_options_answer_aux_meta():
    first, second = geodsl.parse(GDL, "t.gdl")
    assert first.name == "two lines"
    assert first.meta == (("source", "hand written"), ("difficulty", "easy"))
    assert first.points == ("a", "b", "c", "d", "e")
    assert first.goal == Predicate("para", ("d", "e", "b", "c"))
    assert [o.label for o in first.options] == ["A", "B", "C"]
    assert first.options[1].predicate == Predicate("perp", ("d", "e", "a", "b"), negated=True)
    assert first.options[2].predicate.negated
    assert first.answer == ("A", "B")
    assert [a.label for a in first.aux] == [None, "second"]
    assert first.aux[1].constructions[1].points == ("k",)
    assert second.name == "examples/complete2/name.gex"
    assert second.goal.name == "ncoll"


def test_gdl_round_trip():
    problems = geodsl.parse(GDL)
    assert geodsl.parse(geodsl.problems_text(problems)) == problems


def test_answer_key_spellings_agree():
    base = "a b c = triangle\noption A: ncoll a b c\noption B: diff a b\noption C: coll a b c\n"
    keys = [geodsl.parse_problem(base + f"answer: {k}").answer for k in ("AB", "A B", "B A", "A;B")]
    assert keys == [("A", "B")] * 4
    assert geodsl.parse_problem(base + "answer:").answer == ()


def test_several_goals():
    p = geodsl.parse_problem("a b c = triangle; d = midpoint d a b ? coll a b d; cong a d d b")
    assert [g.name for g in p.goals] == ["coll", "cong"]
    assert p.goal.name == "coll"


def test_ast_is_frozen_and_spans_do_not_count():
    a = geodsl.parse_problem("a b c = triangle ? ncoll a b c")
    b = geodsl.parse_problem("   a b c   =   triangle a b c   ?   ncoll a b c")
    assert a == b and hash(a.goal) == hash(b.goal)
    assert a.goal.span != b.goal.span
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.goal.name = "coll"  # type: ignore[misc]


def test_canonical_predicate_order():
    p = Predicate("para", ("d", "c", "b", "a"))
    assert canonical(p) == Predicate("para", ("a", "b", "c", "d"))
    e = Predicate("eqangle", ("h", "g", "f", "e", "d", "c", "b", "a"))
    assert canonical(e) == Predicate("eqangle", ("a", "b", "c", "d", "e", "f", "g", "h"))
    assert canonical(Predicate("aconst", ("b", "a", "d", "c", Constant("angle", Fraction(1, 3))))).args[:4] \
        == ("a", "b", "c", "d")


def test_newclid_dialect_reorders_parallelogram_and_square():
    nc = geodsl.parse_problem("a b c = triangle a b c; d = parallelogram d a b c; x y = square x y a b",
                              dialect="newclid")
    ag = geodsl.parse_problem("a b c = triangle a b c; d = parallelogram a b c d; x y = square a b x y")
    assert nc == ag
    assert nc.to_text("newclid") == "a b c = triangle a b c; d = parallelogram d a b c; x y = square x y a b"


def test_newclid_degrees_spelling():
    p = geodsl.parse_problem("a b = segment a b; x = s_angle a b x 60o", dialect="newclid")
    assert p.premise.constructions[1].clauses[0].args[-1] == Constant("degrees", Fraction(60))
    assert p.to_text("newclid").endswith("s_angle a b x 60o")
    assert p.to_text().endswith("s_angle a b x 60")


def test_geochallenge_formal_text():
    text = ("a b c d = isquare a b c d; e f g h = ninepoints e f g h c b a; "
            "i = s_angle g f i 45, eqdistance i c g a; k = on_line k f i, on_bline k e f")
    p = geodsl.parse_problem(text)
    assert p.points == tuple("abcdefghik")
    assert geodsl.parse_problem(p.to_text()) == p


def test_every_clause_of_the_sets_is_defined(jgex_text, imo_text):
    used = {c.name for text in (jgex_text, imo_text) for p in geodsl.parse(text)
            for k in p.premise.constructions for c in k.clauses}
    assert used <= set(geodsl.get_rulebase().constructions)
    assert len(used) > 50


def test_iter_parse_goes_on_after_a_bad_problem():
    text = "p1\na b c = triangle ? ncoll a b c\np2\na b = segment; c = midpiont c a b\np3\na b = segment ? diff a b\n"
    items = list(geodsl.iter_parse(text))
    assert [type(i).__name__ for i in items] == ["Problem", "UnknownNameError", "Problem"]
    assert items[1].line == 4


NOTATION_OPTIONS = """\
problem: geochallenge style
a b c = triangle a b c; h = orthocenter h a b c; d = midpoint d b c
goal: AH is perpendicular to BC
option A: AH ⟂ BC
option B: AD is parallel to BC
option C: B,D,C are collinear
option D: ∠(AH-BC) = 1pi/2
option E: not perp a d b c
option F: BD ≠ CD
answer: ACDE
"""


def test_options_and_goals_in_proof_notation():
    p = geodsl.parse_problem(NOTATION_OPTIONS)
    assert [o.predicate.to_text() for o in p.options] == [
        "perp a h b c", "para a d b c", "coll b d c", "aconst a h b c 1pi/2", "not perp a d b c",
        "not cong b d c d"]
    assert p.goal == Predicate("perp", ("a", "h", "b", "c"))
    assert p.options[1].predicate.span.column == 11
    assert p.answer == ("A", "C", "D", "E")
    assert geodsl.parse_problem(p.to_text()) == p


@pytest.mark.parametrize("line, message, column", [
    ("option A: XY ⟂ BC", "point `X` is used before it is constructed", 11),
    ("option A: A,B are colinear", "cannot read `colinear`", 19),
    ("option A: AB = AC = BC", "option A states 2 facts", 1),
])
def test_notation_option_errors(line, message, column):
    with pytest.raises(geodsl.GeoDSLError) as info:
        geodsl.parse_problem("a b c = triangle\n" + line)
    assert message in info.value.message
    assert (info.value.line, info.value.column) == (2, column)
