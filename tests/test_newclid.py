"""Newclid 3's problem language: the auxiliary section after `|`, queries
(acompute, rcompute, lcompute), squared constants, obtuse angles, long
cyclic statements — parsed, printed, realized, decided and proved."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import geodsl
import pytest
from geodsl import GeoDSLError, PointError, ProblemError, SyntaxErrorGDL
from geodsl import closure
from geodsl.lang.ast import Constant, Predicate, Query
from geodsl.lang.definitions import expand
from geodsl.realizer import evaluate
from geodsl.realizer.measure import MEASURES

CORPUS = Path(__file__).parent / "data" / "newclid" / "constructs.txt"
TRI = "a b c = triangle a b c"
NINE = ("a b c = triangle a b c; m = midpoint m a b; n = midpoint n b c; p = midpoint p a c; "
        "f1 = foot f1 a b c; f2 = foot f2 b a c; f3 = foot f3 c a b ? cyclic m n p f1 f2 f3")


@pytest.fixture(scope="module")
def corpus() -> list[geodsl.Problem]:
    return geodsl.load(CORPUS, dialect="newclid")


# ---------------------------------------------------------------- the `|` section


def test_aux_section_is_part_of_the_premise_marked_auxiliary():
    p = geodsl.parse_problem(TRI + " | d = midpoint d a b; e = midpoint e a c ? para d e b c")
    assert [c.auxiliary for c in p.premise.constructions] == [False, True, True]
    assert [c.points for c in p.aux_given] == [("d",), ("e",)]
    assert p.premise.given == p.premise.constructions[:1]
    assert p.points == ("a", "b", "c", "d", "e")
    assert p.to_text() == TRI + " | d = midpoint d a b; e = midpoint e a c ? para d e b c"
    # The flag is meaning: the same constructions without `|` are another problem.
    assert p != geodsl.parse_problem(TRI + "; d = midpoint d a b; e = midpoint e a c ? para d e b c")
    assert [c["auxiliary"] for c in p.to_dict()["premise"]] == [False, True, True]


@pytest.mark.parametrize("dialect", ["alphageometry", "newclid"])
def test_aux_section_round_trips_in_both_dialects(dialect):
    text = "a b c = triangle a b c | d = parallelogram a b c d ? para a d b c"
    if dialect == "newclid":
        text = "a b c = triangle a b c | d = parallelogram d a b c ? para a d b c"
    p = geodsl.parse_problem(text, dialect=dialect)
    assert p.to_text(dialect) == text
    assert geodsl.parse_problem(p.to_text(dialect), dialect=dialect) == p
    other = "newclid" if dialect == "alphageometry" else "alphageometry"
    assert geodsl.parse_problem(p.to_text(other), dialect=other) == p


def test_aux_section_may_continue_on_later_lines_of_a_problem():
    text = "problem: x\na b c = triangle a b c\n| d = midpoint d a b\ne = midpoint e a c\n? para d e b c\n"
    p = geodsl.parse(text)[0]
    assert [c.auxiliary for c in p.premise.constructions] == [False, True, True]
    assert geodsl.parse(p.to_text()) == [p]


def test_without_aux_given_drops_the_section_and_refuses_goals_on_aux_points():
    p = geodsl.parse_problem(TRI + " | d = midpoint d a b ? perp a b b c")
    bare = p.without_aux_given()
    assert bare.points == ("a", "b", "c") and bare.goals == p.goals and not bare.aux_given
    on_aux = geodsl.parse_problem(TRI + " | d = midpoint d a b ? coll a b d", "p.txt")
    with pytest.raises(ProblemError) as info:
        on_aux.without_aux_given()
    assert "`d` is an auxiliary point" in info.value.message
    assert (info.value.line, info.value.column) == (1, 47)  # the goal that uses it


def test_aux_constructions_are_realized_and_drawn_as_auxiliary():
    p = geodsl.parse_problem(TRI + " | d = midpoint d a b; e = foot e c a b ? perp c e a b")
    d = geodsl.realize(p)[0]
    assert set(d.coords) == {"a", "b", "c", "d", "e"}
    aux_lines = {frozenset(ln.points) for ln in d.lines() if ln.aux}
    given_lines = {frozenset(ln.points) for ln in d.lines() if not ln.aux}
    assert frozenset("ce") in aux_lines            # the altitude is drawn dashed
    assert frozenset("adeb") in given_lines        # side ab (with d and e on it) is given


def _aux_origins(problem: geodsl.Problem) -> set[str]:
    """Where the premise facts of the `|` constructions say they come from."""
    return {f"{cl.span.line}:{cl.span.column}" for c in problem.aux_given for cl in c.clauses}


def test_closure_uses_the_aux_section_and_the_proof_lists_it():
    p = geodsl.parse_problem(TRI + " | d = midpoint d a b; e = midpoint e a c ? para d e b c")
    c = closure(p)
    assert c.solved
    proof = c.proof()
    text = proof.to_text()
    # The auxiliary constructions first (what the proof adds), then the premises.
    assert text.startswith("* Auxiliary Constructions:\nd = midpoint d a b\ne = midpoint e a c\n"
                           "* From theorem premises:\n")
    from_aux = [g.text for g in proof.givens if g.origin in _aux_origins(p)]
    assert from_aux == ["D is midpoint of AB", "E is midpoint of AC"]
    assert proof.to_dict()["auxiliary"] == ["d = midpoint d a b", "e = midpoint e a c"]
    # Without `|` the same facts are ordinary premises and there is no such section.
    plain = closure(TRI + "; d = midpoint d a b; e = midpoint e a c ? para d e b c").proof()
    assert "Auxiliary" not in plain.to_text() and plain.to_dict()["auxiliary"] == []


def test_corpus_aux_sections_prove_problems_the_premise_alone_does_not(corpus):
    with_aux = [p for p in corpus if p.aux_given]
    assert len(with_aux) == 14
    needed = 0
    for p in with_aux:
        result = closure(p, timeout=20)
        assert result.solved, p.name
        if not closure(p.without_aux_given(), timeout=20).solved:
            needed += 1
            proof = result.proof()
            assert any(g.origin in _aux_origins(p) for g in proof.givens), p.name
            assert proof.to_text().startswith("* Auxiliary Constructions:\n")
    assert needed >= 1


# ---------------------------------------------------------------- long statements


def test_long_cyclic_and_circle_read_print_and_expand():
    p = geodsl.parse_problem(NINE)
    goal = p.goal
    assert goal.args == ("m", "n", "p", "f1", "f2", "f3") and p.to_text() == NINE
    assert [g.args for g in expand(goal)] == [("m", "n", "p", "f1"), ("m", "n", "p", "f2"),
                                             ("m", "n", "p", "f3")]
    circ = geodsl.parse_problem(TRI + "; o = circle o a b c; d = on_circle d o a ? circle o a b c d")
    assert [g.args for g in expand(circ.goal)] == [("o", "a", "b", "c"), ("o", "a", "b", "d")]
    assert expand(Predicate("perp", ("a", "b", "c", "d"))) == (Predicate("perp", ("a", "b", "c", "d")),)


def test_long_cyclic_is_true_only_when_every_point_is_on_the_circle():
    figs = geodsl.realize(NINE)
    assert figs.holds(geodsl.parse_problem(NINE).goal)
    wrong = geodsl.parse_problem(NINE.replace("f1 f2 f3", "f1 f2 a"))
    assert not geodsl.realize(wrong, check_goals=False).holds(wrong.goal)
    assert geodsl.realize(wrong, check_goals=False).holds(wrong.goal.negate())


def test_long_cyclic_goal_is_proved_as_the_facts_it_states():
    c = closure(NINE)
    assert c.solved and len(c.goals) == 3
    goal = geodsl.parse_problem(NINE).goal
    assert c.proves(goal)
    text = c.proof(goal).to_text()
    for fact in ("M,N,P,F_1 are concyclic", "M,N,P,F_2 are concyclic", "M,N,P,F_3 are concyclic"):
        assert fact in text


# ---------------------------------------------------------------- obtuse angles, side goals


def test_obtuse_angle_goals_are_decided_on_the_diagram():
    p = geodsl.parse_problem("a b c = between a b c ? obtuse_angle b a c", dialect="newclid")
    c = closure(p)
    assert c.solved
    proof = c.proof()
    step = proof.steps[-1]
    assert (step.rule, step.kind, step.text) == ("diagram", "check", "∠BAC is obtuse")
    assert [ch.text for ch in proof.checks] == ["∠BAC is obtuse"] and step.checks == (0,)
    from geodsl.checker.options import check_problem

    verdict = check_problem(p).options[0]
    assert (verdict.verdict, verdict.proof_kind) == ("proved", "diagram")
    # A right angle is not obtuse: such a goal is false.
    with pytest.raises(geodsl.GoalFalseError):
        geodsl.realize("a b c = r_triangle a b c ? obtuse_angle b a c")


@pytest.mark.parametrize("points, holds", [
    ((1 + 0j, 0j, -1 + 0.1j), True),     # the angle at b = 0 is obtuse
    ((1 + 0j, 0j, 1j), False),           # a right angle
    ((1 + 0j, 0j, 1 + 1j), False),       # acute
    ((0j, 0.5 + 0j, 1 + 0j), True),      # b strictly between a and c
    ((0j, 0j, 1 + 0j), False),           # b on a: no angle
])
def test_obtuse_angle_check(points, holds):
    a, b, c = points
    pred = Predicate("obtuse_angle", ("a", "b", "c"))
    assert evaluate(pred, {"a": a, "b": b, "c": c}, 1.0) is holds


def test_nsameside_is_the_strict_negation_of_sameside():
    coords = {"a": 0j, "b": 1 + 0j, "c": -1 + 0j, "x": 0j, "y": 1 + 0j, "z": 2 + 0j, "w": 1j}
    ns = Predicate("nsameside", ("a", "b", "c", "x", "y", "z"))
    ss = Predicate("sameside", ("a", "b", "c", "x", "y", "z"))
    assert evaluate(ns, coords, 1.0) and not evaluate(ss, coords, 1.0)
    degenerate = Predicate("nsameside", ("a", "b", "w", "x", "y", "z"))  # (b−a)·(w−a) = 0
    assert not evaluate(degenerate, coords, 1.0)


# ---------------------------------------------------------------- squared constants


def test_r2const_and_l2const_constructions_realize_their_facts():
    p = geodsl.parse_problem("a b c = triangle a b c; x = r2const a b c x 2; y = l2const y a 3/2 "
                             "? r2const a b c x 2; l2const y a 3/2", dialect="newclid")
    figs = geodsl.realize(p)
    for d in figs:
        assert abs(abs(d.coords["x"] - d.coords["c"]) ** 2 * 2
                   - abs(d.coords["b"] - d.coords["a"]) ** 2) < 1e-9
        assert abs(abs(d.coords["y"] - d.coords["a"]) ** 2 - 1.5) < 1e-9
    assert all(figs.holds(g) for g in p.goals)
    assert not figs.holds(Predicate("r2const", ("a", "b", "c", "x", Constant("ratio", Fraction(3)))))
    assert p.to_text("newclid") == ("a b c = triangle a b c; x = r2const a b c x 2; y = l2const y a 3/2 "
                                    "? r2const a b c x 2; l2const y a 3/2")


def test_squared_constants_read_and_print_in_proof_notation():
    from geodsl.lang.notation import read_notation, to_notation

    r2 = Predicate("r2const", ("a", "b", "c", "d", Constant("ratio", Fraction(2))))
    l2 = Predicate("l2const", ("a", "b", Constant("length", Fraction(4))))
    assert to_notation(r2) == "AB²:CD² = 2" and read_notation("AB²:CD² = 2") == [r2]
    assert to_notation(l2) == "AB² = 4" and read_notation("AB² = 4") == [l2]
    assert read_notation("∠(CBA) is an obtuse angle") == [Predicate("obtuse_angle", ("c", "b", "a"))]


def test_every_measure_is_accepted_by_its_check():
    """The measured constant of a constant predicate makes the predicate true."""
    from geodsl.realizer.checks import CHECKS

    d = geodsl.realize(TRI + "; d = free d")[0]
    pts = [d.coords[n] for n in "abcd"]
    for name, fn in MEASURES.items():
        pdef = geodsl.get_rulebase().predicates[name]
        points = pts[:pdef.kinds.count("point")]
        value = fn(points)
        const = value * 3.141592653589793 if name == "aconst" else value
        assert CHECKS[name]([*points, const], d.tol, d.scale), name


# ---------------------------------------------------------------- queries


def test_queries_read_print_and_keep_apart_from_goals():
    text = "a = free a; b = lconst b a 3; c = eq_triangle c a b ? acompute a b b c; lcompute a c"
    p = geodsl.parse_problem(text, dialect="newclid")
    assert p.goals == () and p.queries == (Query("acompute", ("a", "b", "b", "c")), Query("lcompute", ("a", "c")))
    assert p.to_text("newclid") == text
    assert geodsl.parse_problem(p.to_text()) == p
    assert p.to_dict()["queries"] == [{"name": "acompute", "args": ["a", "b", "b", "c"], "text": "acompute a b b c"},
                                      {"name": "lcompute", "args": ["a", "c"], "text": "lcompute a c"}]
    mixed = geodsl.parse_problem(TRI + " ? rcompute a b a c; cong a b a c".replace("triangle", "iso_triangle"))
    assert [g.name for g in mixed.goals] == ["cong"] and [q.name for q in mixed.queries] == ["rcompute"]


def test_queries_are_measured_and_proved_when_the_value_is_fixed():
    from geodsl.checker.options import check_problem

    p = geodsl.parse_problem("a = free a; b = lconst b a 3; c = eq_triangle c a b "
                             "? acompute a b b c; lcompute a c; rcompute a b a c")
    answers = check_problem(p).queries
    assert [(a.measurement.value_text(), a.verdict) for a in answers] == [
        ("2pi/3 (120°)", "proved"), ("3", "proved"), ("1", "proved")]
    assert answers[0].measurement.predicate == Predicate(
        "aconst", ("a", "b", "b", "c", Constant("angle", Fraction(2, 3))))
    free = check_problem(geodsl.parse_problem(TRI + " ? acompute a b b c")).queries[0]
    assert free.verdict == "varies" and free.measurement.constant is None and not free.proved
    assert "varies between diagrams" in free.text() and "not proved" in free.text()


def test_a_directed_angle_that_a_reflection_changes_is_reported_with_its_values():
    # ∠(ba, bc) in a right isosceles triangle is 45° or 135° as a directed
    # angle, as the figure is drawn or mirrored: the diagrams differ, so the
    # answer lists both and proves neither.
    from geodsl.checker.options import check_problem

    answer = check_problem(geodsl.parse_problem("a b c = risos a b c ? acompute b a b c")).queries[0]
    m = answer.measurement
    assert m.constant is None and answer.verdict == "varies" and not answer.proved
    assert set(m.choices) == {Constant("angle", Fraction(1, 4)), Constant("angle", Fraction(3, 4))}
    assert "depending on the diagram" in answer.text()
    assert answer.to_dict()["same_in_every_diagram"] is False


# ---------------------------------------------------------------- commands


def test_prove_and_check_print_aux_sections_and_queries(tmp_path, capsys):
    from geodsl.cli import main

    f = tmp_path / "p.txt"
    f.write_text("mid\na b c = triangle a b c | d = midpoint d a b; e = midpoint e a c ? para d e b c\n"
                 "q\na = free a; b = lconst b a 3; c = eq_triangle c a b ? acompute a b b c\n")
    assert main(["prove", str(f)]) == 0
    out = capsys.readouterr().out
    assert "* Auxiliary Constructions:\nd = midpoint d a b\n" in out
    assert "query: acompute a b b c = 2pi/3 (120°): proved (aconst a b b c 2pi/3)" in out
    assert main(["prove", "--json", str(f)]) == 0
    records = json.loads(capsys.readouterr().out)
    assert records[0]["auxiliary"] == ["d = midpoint d a b", "e = midpoint e a c"]
    assert records[0]["goals"][0]["proof"]["auxiliary"] == ["d = midpoint d a b", "e = midpoint e a c"]
    assert records[1]["queries"][0]["value"] == "2pi/3" and records[1]["queries"][0]["verdict"] == "proved"
    assert main(["check", "--json", str(f)]) == 0
    checks = json.loads(capsys.readouterr().out)
    assert checks[0]["auxiliary"] == ["d = midpoint d a b", "e = midpoint e a c"]
    assert checks[1]["queries"][0]["text"] == "2pi/3 (120°)"
    assert main(["check", str(f)]) == 0
    shown = capsys.readouterr().out
    assert "auxiliary constructions (given after `|`): d = midpoint d a b; e = midpoint e a c" in shown
    assert "acompute a b b c" in shown and "2pi/3 (120°)" in shown


# ---------------------------------------------------------------- corpus


def test_corpus_every_line_parses_realizes_and_round_trips(corpus):
    assert len(corpus) == 23
    for p in corpus:
        assert geodsl.parse(p.to_text("newclid"), dialect="newclid") == [p], p.name
        assert geodsl.parse(p.to_text()) == [p], p.name
        figs = geodsl.realize(p)
        assert all(figs.holds(g) for g in p.goals), p.name


def test_corpus_covers_every_new_construct(corpus):
    names = {g.name for p in corpus for g in p.goals} | {q.name for p in corpus for q in p.queries}
    clauses = {cl.name for p in corpus for c in p.premise.constructions for cl in c.clauses}
    assert {"obtuse_angle", "r2const", "nsameside", "acompute"} <= names
    assert "l2const" in clauses
    assert any(len(g.args) > 4 for p in corpus for g in p.goals if g.name == "cyclic")
    assert sum(bool(p.aux_given) for p in corpus) == 14


# ---------------------------------------------------------------- errors


def error_of(text: str, dialect: str = "alphageometry") -> GeoDSLError:
    with pytest.raises(GeoDSLError) as info:
        geodsl.parse(text, "p.txt", dialect=dialect)
    return info.value


# (name, text, class, message fragment, line, where, hint fragment); where is
# a column, or a string whose last occurrence is where the caret goes.
ERRORS = [
    ("nothing after |", TRI + " | ? coll a b c", ProblemError, "no auxiliary construction after `|`",
     1, 24, "or remove the `|`"),
    ("| at the end", TRI + " |", ProblemError, "no auxiliary construction after `|`", 1, 24, None),
    ("no premise before |", "| a b c = triangle a b c", ProblemError, "no premise before `|`", 1, 1,
     "write the premise first"),
    ("two | on a line", TRI + " | d = midpoint d a b | e = midpoint e a c", SyntaxErrorGDL,
     "unexpected `|`", 1, "| e", "at most one `|`"),
    ("two | on two lines", "problem: x\n" + TRI + " | d = midpoint d a b\n| e = midpoint e a c\n",
     ProblemError, "a second `|` in one problem", 3, 1, "started at the `|` on line 2, column 24"),
    ("| after ?", TRI + " ? coll a b c | d = midpoint d a b", SyntaxErrorGDL, "unexpected `|`", 1, "|",
     "go before `?`"),
    ("aux reuses a name", TRI + " | c = midpoint c a b", PointError,
     "auxiliary construction reuses point `c`", 1, "c = midpoint", "introduces new points"),
    ("aux reuses an aux name", TRI + " | d = midpoint d a b; d = midpoint d a c", PointError,
     "auxiliary construction reuses point `d`", 1, "d = midpoint d a c",
     "already constructed at line 1, column 26"),
    ("aux is a predicate", TRI + " | coll a b c", SyntaxErrorGDL, "expected a construction", 1, "coll", None),
    ("| in an aux: line", TRI + "\naux: d = midpoint d a b | e = midpoint e a c", SyntaxErrorGDL,
     "unexpected `|` in an `aux:` line", 2, 25, "separate them with `;`"),
    ("| in a goal: line", TRI + "\ngoal: coll a b c | d = midpoint d a b", SyntaxErrorGDL,
     "unexpected `|` in a `goal:` line", 2, 18, None),
    ("query as option", TRI + "\noption A: acompute a b b c", ProblemError,
     "`acompute` asks for a value: it is a goal, not an option", 2, 11, "write it after `?`"),
    ("negated query", TRI + " ? not acompute a b b c", SyntaxErrorGDL, "it cannot be negated", 1, "not", None),
    ("query arity", TRI + " ? lcompute a b c", geodsl.ArityError, "`lcompute` takes 2 arguments, got 3",
     1, "lcompute", "lcompute a b"),
    ("query point", TRI + " ? lcompute a z", PointError, "point `z` is used before it is constructed",
     1, "z", None),
    ("query constant", TRI + " ? lcompute a 3", geodsl.ConstantError, "`3` in place of a point", 1, "3",
     "points only"),
    ("short cyclic", TRI + " ? cyclic a b c", geodsl.ArityError, "`cyclic` takes 4 or more arguments, got 3",
     1, "cyclic", "more points may follow `d`"),
    ("lequation", TRI + " ? lequation 1/1 a b", geodsl.UnknownNameError, "unknown predicate `lequation`",
     1, "lequation", "does not implement it"),
    ("r2const ratio", TRI + "; x = r2const a b c x -2", geodsl.ConstantError, "ratio `-2` is not positive",
     1, "-2", None),
]


@pytest.mark.parametrize("name, text, cls, message, line, column, hint", ERRORS, ids=[e[0] for e in ERRORS])
def test_error(name, text, cls, message, line, column, hint):
    err = error_of(text)
    assert isinstance(err, cls), err
    assert message in err.message
    if isinstance(column, str):
        row = text.splitlines()[line - 1]
        column = row.rindex(column) + 1
    assert (err.source, err.line, err.column) == ("p.txt", line, column)
    if hint is not None:
        assert hint in err.hint
    caret = err.format().splitlines()[2]
    assert caret.index("^") == column - 1 + 2


def test_rulebase_errors_for_more_and_queries():
    from geodsl import RulebaseError
    from geodsl.lang.definitions import read_predicates, read_queries

    with pytest.raises(RulebaseError) as info:
        read_predicates("predicate: cyclic a b c d\nmore: a\n", "p.gdl")
    assert "`more:` names the last parameter" in info.value.message and info.value.line == 2
    preds = read_predicates("predicate: aconst a b c d angle\n", "p.gdl")
    with pytest.raises(RulebaseError) as info:
        read_queries("query: acompute a b c d\ncomputes: aconst a b c e angle\n", "q.gdl", preds)
    assert "is not a parameter" in info.value.message and (info.value.line, info.value.column) == (2, 24)
    with pytest.raises(RulebaseError) as info:
        read_queries("query: acompute a b c d\n", "q.gdl", preds)
    assert "has no `computes:` line" in info.value.message
    with pytest.raises(RulebaseError) as info:
        read_queries("query: aconst a b c d\ncomputes: aconst a b c d angle\n", "q.gdl", preds)
    assert "defined twice" in info.value.message
    with pytest.raises(RulebaseError) as info:
        read_queries("query: acompute a b c d\ncomputes: aconst a b c d 1pi/2\n", "q.gdl", preds)
    assert "must compute the one constant" in info.value.message


def test_pipe_is_refused_in_rule_files():
    from geodsl import RulebaseError
    from geodsl.lang.rules import read_rules

    with pytest.raises(RulebaseError) as info:
        read_rules("# Label\nrule r99: perp a b c d | coll a b c\n", "r.gdl")
    assert "unexpected `|` in a rule" in info.value.message and info.value.column == 24


# ---------------------------------------------------------------- round trips (hypothesis)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

RB = geodsl.get_rulebase()
USABLE = sorted(name for name, d in RB.constructions.items() if d.input_positions)
CONSTANTS = {"angle": ["1pi/4", "2pi/3", "45o"], "degrees": ["30", "60o"], "ratio": ["1/2", "2", "3/4"],
             "length": ["1", "3/2", "4"]}


def _construction(draw, points: list[str], new: list[str], dialect: str) -> str:
    cdef = RB.constructions[draw(st.sampled_from(USABLE))]
    outs = [f"{new[0]}_{j}" if j else new[0] for j in range(len(cdef.outputs))]
    args = []
    for pos, kind in enumerate(cdef.kinds):
        if pos in cdef.output_positions:
            args.append(outs[cdef.output_positions.index(pos)])
        elif kind == "point":
            args.append(draw(st.sampled_from(points)))
        else:
            args.append(draw(st.sampled_from(CONSTANTS[kind])))
    name = cdef.name
    for d, spelled, order in cdef.dialect_spellings:
        if d == dialect:
            name, args = spelled, [args[i] for i in order]
    new[:] = outs
    return f"{' '.join(outs)} = {name} {' '.join(args)}"


@st.composite
def newclid_problems(draw, dialect: str):
    points = ["a", "b", "c"]
    given = ["a b c = triangle a b c"]
    aux: list[str] = []
    for i in range(draw(st.integers(0, 3)) + draw(st.integers(1, 3))):
        new = [f"p{i}"]
        text = _construction(draw, points, new, dialect)
        (given if i < 2 and draw(st.booleans()) and not aux else aux).append(text)
        points.extend(new)
    pick = lambda k: draw(st.lists(st.sampled_from(points), min_size=k, max_size=k))  # noqa: E731
    asked = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["cyclic", "circle", "obtuse_angle", "r2const", "l2const",
                                     "nsameside", "acompute", "rcompute", "lcompute", "perp"]))
        if kind == "cyclic":
            asked.append("cyclic " + " ".join(pick(draw(st.integers(4, 7)))))
        elif kind == "circle":
            asked.append("circle " + " ".join(pick(draw(st.integers(4, 6)))))
        elif kind in ("obtuse_angle",):
            asked.append("obtuse_angle " + " ".join(pick(3)))
        elif kind == "r2const":
            asked.append("r2const " + " ".join(pick(4)) + " " + draw(st.sampled_from(CONSTANTS["ratio"])))
        elif kind == "l2const":
            asked.append("l2const " + " ".join(pick(2)) + " " + draw(st.sampled_from(CONSTANTS["length"])))
        elif kind == "nsameside":
            asked.append("nsameside " + " ".join(pick(6)))
        elif kind in ("acompute", "rcompute"):
            asked.append(f"{kind} " + " ".join(pick(4)))
        elif kind == "lcompute":
            asked.append("lcompute " + " ".join(pick(2)))
        else:
            asked.append("perp " + " ".join(pick(4)))
    sep = draw(st.sampled_from(["; ", ";", " ; "]))
    pipe = draw(st.sampled_from([" | ", "|", " |\t"]))
    body = sep.join(given) + (pipe + sep.join(aux) if aux else "")
    if not draw(st.booleans()):  # one line, AlphaGeometry/Newclid style
        return body + (" ? " + "; ".join(asked) if asked else "")
    # a .gdl block: the `|` section on a line of its own
    lines = ["problem: random", sep.join(given)]
    if aux:
        lines.append("| " + sep.join(aux))
    if asked:
        lines.append("? " + "; ".join(asked))
    return "\n".join(lines) + "\n"


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.sampled_from(["alphageometry", "newclid"]).flatmap(
    lambda d: st.tuples(st.just(d), newclid_problems(d))))
def test_newclid_syntax_round_trips_in_both_dialects(case):
    dialect, text = case
    problems = geodsl.parse(text, dialect=dialect)
    assert len(problems) == 1
    p = problems[0]
    for d in ("alphageometry", "newclid"):
        printed = p.to_text(d)
        assert geodsl.parse(printed, dialect=d) == [p]
        assert ("|" in printed) == bool(p.aux_given)
    assert p.premise.constructions[:len(p.premise.given)] == p.premise.given  # the `|` part comes last
