"""Every error on bad input: its class, message, line, column and hint."""

from __future__ import annotations

import geodsl
import pytest
from geodsl import (ArityError, ConstantError, ConstructionError, LimitError, PointError,
                    ProblemError, RulebaseError, SyntaxErrorGDL, UnknownNameError)
from geodsl.lang.limits import Limits

TRI = "a b c = triangle a b c; "


def error_of(text: str, **kw) -> geodsl.GeoDSLError:
    with pytest.raises(geodsl.GeoDSLError) as info:
        geodsl.parse(text, "p.txt", **kw)
    return info.value


def col(text: str, needle: str, nth: int = 1) -> int:
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    return at + 1


# (name, text, class, message fragment, line, where the caret goes, hint fragment).
# Where: the last occurrence of a string, or (string, n) for its n-th
# occurrence, or None for the end of the line.
CASES = [
    ("brackets", TRI + "d = midpoint(d, a, b)", SyntaxErrorGDL, "unexpected character `(`",
     1, "(", "without brackets"),
    ("nothing after =", TRI + "d =", SyntaxErrorGDL, "the line ends too early", 1, None,
     "needs a clause after `=`"),
    ("two question marks", TRI + "? ncoll a b c ? diff a b", SyntaxErrorGDL, "unexpected `?`", 1,
     "? diff", "at most one `?`"),
    ("unknown construction", TRI + "d = midpiont d a b", UnknownNameError,
     "unknown construction `midpiont`", 1, "midpiont", "did you mean `midpoint`?"),
    ("unknown predicate", TRI + "d = midpoint d a b ? prep a b c d", UnknownNameError,
     "unknown predicate `prep`", 1, "prep", "did you mean `perp`?"),
    ("construction as goal", TRI + "d = midpoint d a b ? midpoint d a b", UnknownNameError,
     "unknown predicate `midpoint`", 1, "midpoint d a b", "is a construction"),
    ("clause arity", TRI + "d = midpoint d a b c", ArityError, "`midpoint` takes 3 arguments, got 4", 1,
     "midpoint", "x = midpoint x a b"),
    ("predicate arity", TRI + "d = midpoint d a b ? perp a b c", ArityError,
     "`perp` takes 4 arguments, got 3", 1, "perp", "perp a b c d"),
    ("point before construction", TRI + "d = midpoint d a q", PointError,
     "point `q` is used before it is constructed", 1, "q", "earlier construction"),
    ("point constructed twice", TRI + "d = midpoint d a b; d = midpoint d a c", PointError,
     "point `d` is constructed twice", 1, ("d = midpoint d a c", 1), "first constructed at line 1"),
    ("wrong new point", TRI + "x = midpoint y a b", PointError,
     "`midpoint` constructs its argument `x`, here `y`", 1, ("y a b", 1), None),
    ("input is the new point", TRI + "x = on_line x x a", PointError,
     "`on_line` uses `x`, which this construction introduces", 1, ("x a", 1), None),
    ("two fixing clauses", TRI + "x = midpoint x a b, midpoint x a c", ConstructionError,
     "both clauses fix `x`: a construction needs one fixing clause or two one-degree clauses", 1,
     ("midpoint x a c", 1), None),
    ("fixing plus locus", TRI + "x = midpoint x a b, on_line x a c", ConstructionError,
     "`midpoint` fixes `x` by itself, so `on_line` overconstrains it", 1, "on_line", None),
    ("three clauses", TRI + "x = on_line x a b, on_line x b c, on_line x a c", ConstructionError,
     "has 3 clauses", 1, ("on_line x a c", 1), None),
    ("parallel loci", TRI + "d = free d; x = on_pline x c a b, on_pline x d a b", ConstructionError,
     "cannot meet in one point: both lines are parallel to ab", 1, ("on_pline x d", 1), None),
    ("concentric loci", TRI + "x = on_circle x a b, on_circle x a c", ConstructionError,
     "both circles are centred at a", 1, ("on_circle x a c", 1), None),
    ("zero denominator", "a b = segment a b; x = s_angle a b x 1/0", ConstantError, "divides by zero",
     1, "1/0", None),
    ("angle without unit", TRI + "d = free d ? aconst a b c d 1/4", ConstantError,
     "angle `1/4` has no unit", 1, "1/4", "fraction of π"),
    ("ratio with pi", TRI + "d = free d ? rconst a b c d 1pi/2", ConstantError,
     "`1pi/2` is an angle, but a ratio is expected", 1, "1pi/2", None),
    ("constant in point slot", TRI + "d = midpoint d a 3", ConstantError,
     "`3` in place of point `b` of `midpoint`", 1, "3", None),
    ("point in constant slot", "a b = segment a b; x = s_angle a b x y", ConstantError,
     "`y` in place of the degrees `degrees` of `s_angle`", 1, ("y", 1), "degrees"),
    ("goal point not constructed", TRI + "d = midpoint d a b ? coll a b z", PointError,
     "point `z` is used before it is constructed", 1, "z", "points of the premise"),
    ("no goal after ?", TRI + "d = midpoint d a b ?", ProblemError, "no goal after `?`", 1, "?", None),
    ("negated construction", "not a b c = triangle a b c", SyntaxErrorGDL,
     "a construction cannot be negated", 1, "not", None),
    ("predicate in premise", TRI + "perp a b c d", SyntaxErrorGDL, "expected a construction, got `perp a b c d`",
     1, "perp", "goals go after `?`"),
    ("placement outside head", TRI + "d = midpoint d a b@1_2", SyntaxErrorGDL,
     "coordinates `b@1_2` outside a construction's new points", 1, "b@1_2", None),
    ("rule arrow in problem", TRI + "d = free d => coll a b c", SyntaxErrorGDL,
     "`=>` is only used in rule files", 1, "coll", None),
]


@pytest.mark.parametrize("name, text, cls, message, line, at, hint", CASES, ids=[c[0] for c in CASES])
def test_error(name, text, cls, message, line, at, hint):
    err = error_of(text)
    assert type(err) is cls
    assert message in err.message
    assert err.source == "p.txt"
    assert err.line == line
    if at is None:
        assert err.column == len(text.rstrip()) + 1
    else:
        expected = col(text, *at) if isinstance(at, tuple) else text.rindex(at) + 1
        assert err.column == expected
    if hint is not None:
        assert hint in err.hint
    formatted = err.format()
    assert formatted.startswith(f"p.txt:{err.line}:{err.column}: error: ")
    caret_line = formatted.splitlines()[2]
    assert caret_line.index("^") == err.column - 1 + 2


def test_multi_line_location():
    text = "problem: x\na b c = triangle a b c\n\n  d = midpoint d a q\n"
    err = error_of(text)
    assert (err.line, err.column) == (4, 20)


def test_unknown_keyword_did_you_mean():
    err = error_of("problem: x\na b c = triangle\noptoin A: ncoll a b c\n")
    assert isinstance(err, UnknownNameError)
    assert err.message == "unknown keyword `optoin:`"
    assert (err.line, err.column) == (3, 1)
    assert "did you mean `option:`?" in err.hint


@pytest.mark.parametrize("text, message, line", [
    ("a b c = triangle\noption A: ncoll a b c\noption A: diff a b\n", "option A is given twice", 3),
    ("a b c = triangle\noption A: ncoll a b c\nanswer: AE\n", "the answer names `E`, which is not an option", 3),
    ("a b c = triangle\nanswer: A\n", "an answer key without options", 2),
    ("a b c = triangle\noption A: ncoll a b c; diff a b\n", "option A must hold exactly one statement", 2),
    ("problem: empty\n\n", "has no premise", 1),
    ("problem: only goal\n? ncoll a b c\n", "has no premise", 1),
])
def test_problem_errors(text, message, line):
    err = error_of(text)
    assert message in err.message
    assert err.line == line


def test_line_length_limit():
    line = "a = free a; " * 10_000
    err = error_of(line, limits=Limits(max_line_chars=1_000))
    assert isinstance(err, LimitError)
    assert "the limit is 1,000" in err.message
    assert err.line == 1


def test_point_limit():
    text = "problem: big\n" + "\n".join(f"p{i} = free p{i}" for i in range(50)) + "\n"
    err = error_of(text, limits=Limits(max_points_per_problem=10))
    assert isinstance(err, LimitError) and "more than 10 points" in err.message


def test_not_utf8_and_binary(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"a b c = triangle\nd = \xff\xfe midpoint d a b\n")
    with pytest.raises(SyntaxErrorGDL) as info:
        geodsl.load(bad)
    assert "not UTF-8" in info.value.message and (info.value.line, info.value.column) == (2, 5)
    binary = tmp_path / "bin.dat"
    binary.write_bytes(b"\x7fELF\x00\x01\x02")
    with pytest.raises(SyntaxErrorGDL) as info:
        geodsl.load(binary)
    assert "NUL byte" in info.value.message


def test_missing_file(tmp_path):
    with pytest.raises(geodsl.GeoDSLError) as info:
        geodsl.load(tmp_path / "nope.gdl")
    assert "cannot read" in info.value.message


def test_rulebase_errors_are_located():
    from geodsl.lang.definitions import read_constructions, read_predicates

    preds = read_predicates("predicate: coll a b c\nsame: coll b a c\n", "p.gdl")
    with pytest.raises(RulebaseError) as info:
        read_constructions("construction: x = mid x a b\nasserts: col x a b\nfixes x: midpoint a b\n",
                           "c.gdl", preds)
    assert info.value.message == "unknown predicate `col`"
    assert (info.value.source, info.value.line, info.value.column) == ("c.gdl", 2, 10)
    with pytest.raises(RulebaseError) as info:
        read_constructions("construction: x = mid x a b\nasserts: coll x a b\n", "c.gdl", preds)
    assert "never fixes `x`" in info.value.message


ZEROS_4300 = "1" + "0" * 4300
ZEROS_400 = "1" + "0" * 400


@pytest.mark.parametrize("text, message, at", [
    # Past Python's 4,300-digit integer conversion limit, and past float range.
    ("a b = segment a b; x = s_angle a b x " + ZEROS_4300,
     "constant `10000000000000000000000…` has 4,301 digits; the limit is 20", ZEROS_4300),
    ("a b = segment a b; x = s_angle a b x " + ZEROS_400,
     "constant `10000000000000000000000…` has 401 digits; the limit is 20", ZEROS_400),
    ("a b = segment a b; x = s_angle a b x 1/" + "3" * 21,
     "constant `1/333333333333333333333` has 21 digits; the limit is 20", "1/" + "3" * 21),
    (TRI + "d = free d ? rconst a b c d 0." + "0" * 25 + "1",
     "constant `0.000000000000000000000…` has 27 digits; the limit is 20", "0." + "0" * 25 + "1"),
    ("a b = segment a b; x@" + ZEROS_4300 + "_0 = free x",
     "the x coordinate of `x` has 4,301 digits; the limit is 20", ZEROS_4300 + "_0"),
    ("a b = segment a b; x@1_-" + ZEROS_400 + " = free x",
     "the y coordinate of `x` has 401 digits; the limit is 20", "-" + ZEROS_400),
])
def test_huge_numbers_are_refused_at_parse_time(text, message, at):
    err = error_of(text)
    assert type(err) is LimitError and err.kind == "limit"
    assert err.message == message
    assert (err.line, err.column) == (1, text.index(at) + 1)
    assert err.hint == "write a number of at most 20 digits, or raise Limits.max_number_digits"


def test_the_digit_limit_is_a_limit_and_fits_the_datasets():
    import geodsl.datasets

    text = "a b = segment a b; x = s_angle a b x 123456"
    assert error_of(text, limits=Limits(max_number_digits=5)).message == \
        "constant `123456` has 6 digits; the limit is 5"
    placed = [c.placements for p in geodsl.datasets.load("imo_ag_30") for c in p.premise.constructions
              if c.placements]
    assert placed  # IMO 2008 P6 places points with 17-digit coordinates: under the limit


@pytest.mark.parametrize("command", ["parse", "prove", "check", "realize", "render"])
def test_huge_numbers_in_every_command(command, tmp_path, capsys):
    from geodsl.cli import main

    src = tmp_path / "huge.txt"
    src.write_text("a b = segment a b; x = s_angle a b x " + ZEROS_4300 + " ? ncoll a b x\n", encoding="utf-8")
    assert main([command, str(src)] + (["-o", str(tmp_path / "f.png")] if command == "render" else [])) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:1:38: error: constant `10000000000000000000000…` has 4,301 digits")
    assert "internal error" not in err and "Traceback" not in err
