"""Property tests: random valid premises round-trip; random input only ever
raises GeoDSLError, in bounded time."""

from __future__ import annotations

import re
from fractions import Fraction

import geodsl
from conftest import IMO, JGEX
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

RB = geodsl.get_rulebase()
# Constructions a random premise can use: every definition with inputs.
USABLE = sorted(name for name, d in RB.constructions.items() if d.input_positions)

CONSTANT_TEXT = {
    "angle": st.sampled_from(["1pi/4", "1pi/3", "2pi/5", "45o", "1_PI/6"]),
    "degrees": st.sampled_from(["30", "45", "60o", "22.5", "1pi/3"]),
    "ratio": st.sampled_from(["1/2", "2", "3/4", "0.5"]),
    "length": st.sampled_from(["1", "3/2", "2.5"]),
}


@st.composite
def premises(draw):
    """Text of a random valid premise, built from the definitions."""
    points = ["a", "b", "c"]
    parts = ["a b c = triangle a b c"]
    sep = draw(st.sampled_from(["; ", " ;", ";", ";\t"]))
    for i in range(draw(st.integers(1, 8))):
        cdef = RB.constructions[draw(st.sampled_from(USABLE))]
        new = [f"p{i}_{j}" if j else f"p{i}" for j in range(len(cdef.outputs))]
        args: list[str] = []
        for pos, kind in enumerate(cdef.kinds):
            if pos in cdef.output_positions:
                args.append(new[cdef.output_positions.index(pos)])
            elif kind == "point":
                args.append(draw(st.sampled_from(points)))
            else:
                args.append(draw(CONSTANT_TEXT[kind]))
        if draw(st.booleans()):  # shorthand: leave the new points out
            args = [a for pos, a in enumerate(args) if pos not in cdef.output_positions]
        parts.append(f"{' '.join(new)} = {cdef.name} {' '.join(args)}".rstrip())
        points.extend(new)
    goal = draw(st.sampled_from(["", " ? coll a b c", " ? cong a b a c", " ? perp a b b c"]))
    return sep.join(parts) + goal


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(premises())
def test_random_valid_premises_round_trip(text):
    problem = geodsl.parse_problem(text)
    assert geodsl.parse_problem(problem.to_text()) == problem
    newclid = problem.to_text("newclid")
    assert geodsl.parse_problem(newclid, dialect="newclid") == problem


@settings(max_examples=300, deadline=2000)
@given(st.text(max_size=400))
def test_random_text_raises_only_geodsl_errors(text):
    for item in geodsl.iter_parse(text):
        assert isinstance(item, (geodsl.Problem, geodsl.GeoDSLError))


ALPHABET = "abcdxyz pq1 =;,?:#@/_.-0123456789\n\t\r¬!o" + "()[]{}\\\"'"


@settings(max_examples=500, deadline=2000)
@given(st.text(alphabet=ALPHABET, max_size=300))
def test_grammar_shaped_noise_raises_only_geodsl_errors(text):
    try:
        geodsl.parse(text)
    except geodsl.GeoDSLError as exc:
        assert exc.line is None or exc.line >= 1
        exc.format()  # formatting never fails either


@settings(max_examples=300, deadline=2000)
@given(st.binary(max_size=400))
def test_random_bytes_raise_only_geodsl_errors(data):
    from geodsl.lang.parser import decode

    try:
        geodsl.parse(decode(data, "junk.bin"))
    except geodsl.GeoDSLError as exc:
        assert exc.format().startswith("junk.bin") or exc.source is None


CORPUS_LINES = [l for path in (JGEX, IMO) for l in path.read_text(encoding="utf-8").splitlines()[1::2]]


@settings(max_examples=300, deadline=2000)
@given(st.sampled_from(CORPUS_LINES), st.integers(0, 2000), st.integers(0, 12),
       st.text(alphabet=ALPHABET, max_size=6))
def test_mutated_corpus_lines_raise_only_geodsl_errors(line, at, cut, insert):
    at %= len(line) + 1
    mutated = line[:at] + insert + line[at + cut:]
    try:
        geodsl.parse(mutated)
    except geodsl.GeoDSLError as exc:
        lines = re.split(r"\r\n|\r|\n", mutated)
        assert 1 <= exc.line <= len(lines)
        assert 1 <= exc.column <= len(lines[exc.line - 1]) + 1


@given(st.sampled_from(sorted(RB.predicates)), st.randoms(use_true_random=False))
def test_canonical_order_is_invariant_under_the_symmetries(name, rnd):
    pdef = RB.predicates[name]
    names = [f"q{i}" for i in range(pdef.arity)]
    rnd.shuffle(names)
    args = [n if k == "point" else geodsl.Constant(k if k != "degrees" else "angle", Fraction(1, 3))
            for n, k in zip(names, pdef.kinds)]
    canonical = pdef.canonical_args(args)
    for perm in pdef.perms:
        assert pdef.canonical_args([args[i] for i in perm]) == canonical
