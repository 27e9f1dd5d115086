"""The predicate registry (rulebase/predicates.gdl): one block says
everything about a predicate, and every reader — AR tables, the fact store,
notation, figures — reads it. These tests read blocks the way the rulebase
is read, check every error a malformed block gets (message, line, column),
and follow the worked example of docs/rulebase.md (`anglediff`) through
every consumer."""

from __future__ import annotations

from fractions import Fraction

import pytest

import geodsl
from geodsl import Constant, Predicate, RulebaseError
from geodsl.ddar.ar import AngleTable, DistanceTable, RatioTable, SquareTable
from geodsl.lang.definitions import read_predicates, rulebase
from geodsl.lang.notation import read_notation, to_notation

BASE = "predicate: coll a b c\nsame: coll b a c; coll a c b\n\n"


def _read(block: str) -> dict[str, object]:
    return read_predicates(BASE + block, "test.gdl")  # type: ignore[return-value]


def test_a_block_reads_into_one_entry() -> None:
    preds = read_predicates(BASE + (
        "predicate: tri a b c ratio\n"
        "same: tri b a c ratio\n"
        "means: tri_rule (Two facts): coll a b c; coll b a c\n"
        "lengths: |a b| = ratio·|b c|; |a c| = 2·|a b|\n"
        "notation: {a}{b} is {ratio} of {b}{c}\n"
        "negated: {a}{b} is not {ratio} of {b}{c}\n"
        "draw: segment a b; ticks 2 b c; span a b c\n"), "test.gdl")
    tri = preds["tri"]
    assert tri.params == ("a", "b", "c", "ratio") and tri.kinds[-1] == "ratio"
    assert tri.means is not None and tri.means.rule == "tri_rule" and tri.means.label == "Two facts"
    assert [f.to_text() for f in tri.means.facts] == ["coll a b c", "coll b a c"]
    assert [eq.text for eq in tri.equations["lengths"]] == ["|a b| = ratio·|b c|", "|a c| = 2·|a b|"]
    assert tri.notation == "{a}{b} is {ratio} of {b}{c}"
    assert [(d.kind, d.points, d.count) for d in tri.draw] == [
        ("segment", (0, 1), 0), ("ticks", (1, 2), 2), ("span", (0, 1, 2), 0)]
    assert [d.is_mark for d in tri.draw] == [False, True, False]


@pytest.mark.parametrize("line, message, column", [
    ("angles: ∠(a b, c x) = 0", "`x` is not a parameter of the predicate", 18),
    ("angles: ∠(a b, c d) = ∠(e f", "cannot read the equation `∠(a b, c d) = ∠(e f`", 28),
    ("lengths: |a b| = |c d| + |a c|", "a `lengths:` equation has one positive term a side", 10),
    ("lengths: |a b|·|c d| = 1", "a `lengths:` side is a constant times at most one length", 10),
    ("squares: |a b| = |c d|", "a `squares:` line measures squares only", 10),
    ("angles: 2·∠(a b, c d) · ∠(a b, c d) = 0", "a product of measures is not linear", 9),
    ("notation: {a}{b} ∥ {c}{z}", "`{z}` is not a parameter of the predicate", 23),
    ("draw: segment a b c", "`segment` takes 2 points, got 3", 7),
    ("draw: wiggle a b", "unknown drawing `wiggle`", 7),
    ("draw: ticks a b", "`ticks` takes a count, then two points", 7),
    ("means: para_rule: coll a b c", "`means:` is `RULE (Label): fact; fact`", 7),
    ("colour: red", "unknown keyword `colour:` in a predicate", 1),
])
def test_every_malformed_line_gets_a_located_error(line: str, message: str, column: int) -> None:
    with pytest.raises(RulebaseError) as info:
        _read(f"predicate: p4 a b c d\n{line}\n")
    err = info.value
    assert message in err.message
    assert (err.source, err.line, err.column) == ("test.gdl", 5, column)


def test_a_key_given_twice_and_an_unknown_predicate_in_means_are_refused() -> None:
    with pytest.raises(RulebaseError, match="`angles:` is given twice for `p4`") as info:
        _read("predicate: p4 a b c d\nangles: ∠(a b, c d) = 0\nangles: ∠(a b, c d) = 1/2\n")
    assert info.value.line == 6
    with pytest.raises(RulebaseError, match="`nope` in the block of `p4` is not a predicate of 2 arguments"):
        _read("predicate: p4 a b c d\nmeans: r (R): nope a b\n")
    with pytest.raises(RulebaseError, match="a parameter multiplies an angle"):
        _read("predicate: p5 a b c d angle\nangles: angle·∠(a b, c d) = 0\n")


def test_the_tables_read_their_equations_from_the_registry() -> None:
    # A table proves a predicate that has exactly one equation for it.
    assert {n for n in rulebase().predicates if AngleTable.proves(n)} == {
        "para", "perp", "eqangle", "aconst", "anglediff"}
    assert {n for n in rulebase().predicates if RatioTable.proves(n)} == {
        "cong", "eqratio", "rconst", "lconst", "sideprod", "r2const", "l2const"}
    assert {n for n in rulebase().predicates if DistanceTable.proves(n)} == {"cong", "rconst", "lconst"}
    assert {n for n in rulebase().predicates if SquareTable.proves(n)} == {
        "perp", "cong", "rconst", "lconst", "r2const", "l2const"}


def test_squared_constants_are_chased_by_ratio_and_pythagoras() -> None:
    c = geodsl.closure("a = free a; b = l2const b a 9; c = on_tline c a a b, l2const c a 16 ? l2const b c 25")
    assert c.solved and c.proof().steps[-1].rule == "pythagoras_chase"
    c = geodsl.closure("a = free a; b = l2const b a 4 ? lconst a b 2")
    assert c.solved and c.proof().steps[-1].rule == "ratio_chase"
    c = geodsl.closure("a b c d = isquare a b c d; o = intersection_ll o a c b d ? r2const a b a o 2/1")
    assert c.solved


ANGLEDIFF = Predicate("anglediff", ("a", "b", "c", "d", "e", "f", "g", "h", Constant("angle", Fraction(1, 2))))


def test_the_worked_example_anglediff_reaches_every_reader() -> None:
    # Parsed in a goal, decided on the figure, proved by the angle chase.
    text = ("a b = segment a b; c = free c; d = on_tline d c a b; e f = segment e f; g = free g; "
            "h = on_pline h g e f ? anglediff a b c d e f g h 1pi/2")
    problem = geodsl.parse_problem(text)
    assert problem.goal == ANGLEDIFF
    assert geodsl.realize(problem, diagrams=2).holds(problem.goal)
    c = geodsl.closure(problem)
    assert c.solved and c.proof().steps[-1].rule == "angle_chase"
    # Printed and read back in proof notation.
    printed = to_notation(ANGLEDIFF)
    assert printed == "∠(AB-CD) − ∠(EF-GH) = 1pi/2"
    assert read_notation(printed) == [ANGLEDIFF]
    assert read_notation(to_notation(ANGLEDIFF.negate())) == [ANGLEDIFF.negate()]
    # Highlighted by the renderer: its four segments.
    from geodsl.realizer.render import _highlight_parts
    coords = dict(geodsl.realize(problem, diagrams=1)[0].all_coords)
    segments, polygons = _highlight_parts(ANGLEDIFF, coords)
    assert segments == [("a", "b"), ("c", "d"), ("e", "f"), ("g", "h")] and polygons == []


def test_every_template_reads_back_to_its_predicate() -> None:
    rb = rulebase()
    for name, pdef in sorted(rb.predicates.items()):
        if pdef.notation is None:
            continue
        args = tuple(f"p{i}" if kind == "point" else Constant(kind, Fraction(1, 3) if kind == "angle" else Fraction(3))
                     for i, kind in enumerate(pdef.kinds))
        for negated in (False, True):
            fact = Predicate(name, args, negated)
            assert [geodsl.canonical(p) for p in read_notation(to_notation(fact))] == [geodsl.canonical(fact)], name
