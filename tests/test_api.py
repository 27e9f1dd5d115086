"""The Python API agrees with itself: one predicate reader behind holds,
proves, proof and render (text or Predicate, located errors), negations
decided as ``geodsl check`` decides them, proof() raising NotProvedError,
render() writing a file and figure_bytes() returning bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import geodsl
from geodsl.lang.ast import Predicate
from geodsl.realizer.render import figure_bytes, render

MIDLINE = "a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c ? para d e b c"


@pytest.fixture(scope="module")
def closure() -> geodsl.Closure:
    return geodsl.closure(MIDLINE)


@pytest.fixture(scope="module")
def figures() -> geodsl.Diagrams:
    return geodsl.realize(MIDLINE)


# -- the one reader ------------------------------------------------------------------


def test_parse_predicate_reads_dsl_words() -> None:
    assert geodsl.parse_predicate("coll a b c") == Predicate("coll", ("a", "b", "c"))
    assert geodsl.parse_predicate("not perp a b c d") == Predicate("perp", ("a", "b", "c", "d"), negated=True)
    angle = geodsl.parse_predicate("aconst a b c d 1pi/4").args[-1]
    assert (angle.kind, str(angle.value)) == ("angle", "1/4")
    assert geodsl.parse_predicate("coll a b c").span == geodsl.lang.errors.Location(None, 1, 1)


# (text, points, class, message, column, hint fragment)
READER_ERRORS = [
    ("coll a b zz", "abcd", geodsl.PointError, "point `zz` is not in the problem", 10, "its points are a, b, c, d"),
    ("coll a b cc", "abc", geodsl.PointError, "point `cc` is not in the problem", 10, "did you mean `c`?"),
    ("colll a b c", None, geodsl.UnknownNameError, "unknown predicate `colll`", 1, "did you mean `coll`?"),
    ("coll a b", None, geodsl.ArityError, "`coll` takes 3 arguments, got 2", 1, "write `coll a b c`"),
    ("", None, geodsl.SyntaxErrorGDL, "empty predicate", 1, "such as `coll a b c`"),
    ("coll a b c; perp a b c d", None, geodsl.SyntaxErrorGDL, "expected one predicate, got 2", 13, "one at a time"),
    ("coll a b\nc", None, geodsl.SyntaxErrorGDL, "a predicate is one line", 1, "pass one predicate"),
    ("x = midpoint x a b", None, geodsl.SyntaxErrorGDL, "expected a predicate, not a construction", 1, "without `=`"),
    ("coll a b ? c", None, geodsl.SyntaxErrorGDL, "unexpected `?`: expected `;` or the end of the line", 10,
     "at most one `?`"),
    ("perp a b c 1/2", None, geodsl.ConstantError, "`1/2` in place of point `d` of `perp`", 12, "perp a b c d"),
    ("aconst a b c d 1" + "0" * 400 + "pi/2", None, geodsl.LimitError,
     "constant `10000000000000000000000…` has 401 digits; the limit is 20", 16, "Limits.max_number_digits"),
]


@pytest.mark.parametrize("case", READER_ERRORS, ids=[c[3][:40] for c in READER_ERRORS])
def test_reader_errors_are_located(case: tuple) -> None:  # type: ignore[type-arg]
    text, points, cls, message, column, hint = case
    with pytest.raises(cls) as info:
        geodsl.parse_predicate(text, points)
    err = info.value
    assert err.message == message
    assert (err.line, err.column) == (1, column)
    assert hint in err.hint


def test_the_reader_and_the_printer_round_trip(closure: geodsl.Closure) -> None:
    @settings(max_examples=60, deadline=None)
    @given(st.sampled_from(["coll", "para", "perp", "cong", "cyclic", "eqangle", "eqratio", "midp"]),
           st.lists(st.sampled_from(closure.names), min_size=8, max_size=8), st.booleans())
    def check(name: str, points: list[str], negated: bool) -> None:
        arity = geodsl.get_rulebase().predicates[name].arity
        predicate = Predicate(name, tuple(points[:arity]), negated)
        assert geodsl.parse_predicate(predicate.to_text(), closure.names) == predicate

    check()


# -- holds, proves, proof ---------------------------------------------------------------


def test_text_and_predicates_agree(closure: geodsl.Closure, figures: geodsl.Diagrams) -> None:
    for text in ("para d e b c", "not para d e b c", "perp d e b c", "not perp d e b c", "coll a d b",
                 "cong d e b c", "not cong d e b c"):
        predicate = geodsl.parse_predicate(text)
        assert figures.holds(text) == figures.holds(predicate)
        assert figures[0].holds(text) == figures[0].holds(predicate)
        assert closure.proves(text) == closure.proves(predicate)
        # Sound: nothing is proved that the diagrams show false.
        assert not closure.proves(text) or figures.holds(text)


def test_a_negation_is_proved_by_a_counterexample(closure: geodsl.Closure) -> None:
    assert closure.proves("not perp d e b c")       # false in every diagram the closure read
    assert closure.proves("not cong d e b c")
    assert not closure.proves("not para d e b c")   # para holds: its negation is not proved
    assert closure.find("not perp d e b c") is None   # no fact states a negation


@pytest.mark.parametrize("call", ["holds", "holds0", "proves", "proof", "find"])
def test_an_unknown_point_is_a_located_error(call: str, closure: geodsl.Closure,
                                             figures: geodsl.Diagrams) -> None:
    run = {"holds": figures.holds, "holds0": figures[0].holds, "proves": closure.proves,
           "proof": closure.proof, "find": closure.find}[call]
    with pytest.raises(geodsl.PointError) as info:
        run("coll a b zz")
    assert (info.value.message, info.value.line, info.value.column) == ("point `zz` is not in the problem", 1, 10)
    with pytest.raises(geodsl.PointError) as info:
        run(Predicate("coll", ("a", "b", "zz")))
    noun = "diagram" if call.startswith("holds") else "problem"
    assert info.value.message == f"point `zz` is not in the {noun}"
    assert (info.value.line, info.value.column) == (None, None)


def test_proof_raises_not_proved(closure: geodsl.Closure) -> None:
    assert closure.proof().steps  # the goal
    assert closure.proof("para d e b c").to_text() == closure.proof().to_text()
    cases = [("perp d e b c", "`perp d e b c` is not proved by the closure"),
             ("not perp d e b c", "`not perp d e b c` is a negation: no deduction proves it")]
    for text, message in cases:
        with pytest.raises(geodsl.NotProvedError) as info:
            closure.proof(text)
        assert info.value.message == message and info.value.kind == "not_proved"
        assert (info.value.line, info.value.column) == (None, None) and info.value.hint
    with pytest.raises(geodsl.NotProvedError) as info:
        geodsl.closure("a b c = triangle a b c").proof()
    assert info.value.message == "the problem has no goal to prove"


# -- render ---------------------------------------------------------------------------------


def test_render_writes_a_file_and_figure_bytes_gives_bytes(figures: geodsl.Diagrams, tmp_path: Path) -> None:
    svg = tmp_path / "f.svg"
    written = render(figures[0], svg, highlight="perp d e b c")
    assert written == svg
    data = figure_bytes(figures[0], "svg", highlight=geodsl.parse_predicate("perp d e b c"))
    assert svg.read_bytes() == data and data.lstrip().startswith(b"<?xml")
    assert figure_bytes(figures[0])[:8] == b"\x89PNG\r\n\x1a\n"
    assert figure_bytes(figures[0], "png") != figure_bytes(figures[0], "png", highlight="coll a d b")


def test_render_errors(figures: geodsl.Diagrams, tmp_path: Path) -> None:
    with pytest.raises(geodsl.GeoDSLError) as info:
        figure_bytes(figures[0], "pdf")
    assert (info.value.message, info.value.hint) == ("unknown figure format `pdf`", "the formats are png and svg")
    with pytest.raises(geodsl.GeoDSLError) as info:
        render(figures[0], tmp_path / "f.pdf")
    assert info.value.message == f"cannot write `{tmp_path / 'f.pdf'}`: unknown figure format `.pdf`"
    assert not (tmp_path / "f.pdf").exists()
    with pytest.raises(geodsl.GeoDSLError) as info:
        render(figures[0], tmp_path / "missing" / "f.png")
    assert info.value.message == f"cannot write {tmp_path / 'missing' / 'f.png'}: No such file or directory"
    with pytest.raises(geodsl.PointError):
        figure_bytes(figures[0], highlight="coll a b zz")
