"""The proof-text notation: every form the engines and datasets print reads
to the right predicate, and everything geodsl prints reads back."""

from __future__ import annotations

from fractions import Fraction

import geodsl
import pytest
from geodsl import Constant, Predicate
from geodsl.lang.notation import normalize, read_notation, to_notation
from hypothesis import given
from hypothesis import strategies as st

P = Predicate

READS = [
    # AlphaGeometry / GeoChallenge proof steps
    ("A,B,C are collinear", [P("coll", ("a", "b", "c"))]),
    ("A,J,B,I are concyclic", [P("cyclic", ("a", "j", "b", "i"))]),
    ("M is midpoint of AB", [P("midp", ("m", "a", "b"))]),
    ("AB = CD", [P("cong", ("a", "b", "c", "d"))]),
    ("AB ⟂ CD", [P("perp", ("a", "b", "c", "d"))]),
    ("AB ∥ CD", [P("para", ("a", "b", "c", "d"))]),
    ("∠(AB-CD) = ∠(EF-GH)", [P("eqangle", tuple("abcdefgh"))]),
    ("∠ABC = ∠DEF", [P("eqangle", ("b", "a", "b", "c", "e", "d", "e", "f"))]),
    ("AB:CD = EF:GH", [P("eqratio", tuple("abcdefgh"))]),
    ("ΔABC is similar to ΔXYZ", [P("simtri", tuple("abcxyz"))]),
    ("ΔABC is congruent to ΔXYZ", [P("contri", tuple("abcxyz"))]),
    ("O is the circumcenter of \\Delta ABC", [P("circle", tuple("oabc"))]),
    ("A is the foot of B on CD", [P("foot", tuple("abcd"))]),
    ("∠(AB-CD) = 1pi/4", [P("aconst", (*"abcd", Constant("angle", Fraction(1, 4))))]),
    ("AB:CD = 1/2", [P("rconst", (*"abcd", Constant("ratio", Fraction(1, 2))))]),
    # Newclid 3
    ("A, B, C are collinear", [P("coll", ("a", "b", "c"))]),
    ("A, B, C are not collinear", [P("coll", ("a", "b", "c"), True)]),
    ("ABCD are cyclic", [P("cyclic", tuple("abcd"))]),
    ("AB ∦ CD", [P("para", tuple("abcd"), True)]),
    ("AB ⟂̸ CD", [P("perp", tuple("abcd"), True)]),
    ("M is the midpoint of AB", [P("midp", ("m", "a", "b"))]),
    ("∠(AB,CD) = ∠(EF,GH)", [P("eqangle", tuple("abcdefgh"))]),
    ("AB = 3/2", [P("lconst", ("a", "b", Constant("length", Fraction(3, 2))))]),
    ("O is the circumcenter of the circle ●ABC", [P("circle", tuple("oabc"))]),
    ("▲ABC ≅ ▲PQR", [P("simtri", tuple("abcpqr"))]),
    ("▲ABC ≡ ▲PQR", [P("contri", tuple("abcpqr"))]),
    ("A ≠ B", [P("diff", ("a", "b"))]),
    ("AB∥CD", [P("para", tuple("abcd"))]),
    ("AB = CD = EF", [P("cong", tuple("abcd")), P("cong", tuple("cdef"))]),
    # GeoChallenge options
    ("H,I,K are collinear", [P("coll", ("h", "i", "k"))]),
    ("∠(BD-FM) = ∠FHC", [P("eqangle", ("b", "d", "f", "m", "h", "f", "h", "c"))]),
    ("BM:DM ≠ GI:HK", [P("eqratio", tuple("bmdmgihk"), True)]),
    ("AM is perpendicular to EI", [P("perp", tuple("amei"))]),
    ("AD is parallel to IJ", [P("para", tuple("adij"))]),
    ("AD is not perpendicular to CD", [P("perp", tuple("adcd"), True)]),
    ("EH is not perpendicular to EK", [P("perp", tuple("ehek"), True)]),
    ("A is the circumcenter of △GIJ", [P("circle", tuple("agij"))]),
    ("CN ≠ JN", [P("cong", tuple("cnjn"), True)]),
    # multi-character points
    ("G_1A ⟂ G₁B", [P("perp", ("g1", "a", "g1", "b"))]),
]


@pytest.mark.parametrize("text, expected", READS, ids=[r[0] for r in READS])
def test_reads(text, expected):
    assert read_notation(text) == expected


PRINTS = [
    (P("coll", ("a", "b", "c")), "A,B,C are collinear"),
    (P("perp", ("a", "b", "c", "d")), "AB ⟂ CD"),
    (P("para", ("a", "b", "c", "d"), True), "AB is not parallel to CD"),
    (P("eqangle", ("b", "a", "b", "c", "e", "d", "e", "f")), "∠ABC = ∠DEF"),
    (P("eqangle", tuple("abcdefgh")), "∠(AB-CD) = ∠(EF-GH)"),
    (P("midp", ("m", "a", "b")), "M is midpoint of AB"),
    (P("circle", ("o", "a", "b", "c")), "O is the circumcenter of \\Delta ABC"),
    (P("ncoll", ("a", "b", "c")), "A,B,C are not collinear"),
    (P("cong", ("g1", "a", "c1", "b")), "G_1A = C_1B"),
]


@pytest.mark.parametrize("predicate, text", PRINTS, ids=[p[1] for p in PRINTS])
def test_prints_alphageometry_notation(predicate, text):
    assert to_notation(predicate) == text


RB = geodsl.get_rulebase()
NAMES = st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h", "g1", "c12", "x'"])


@st.composite
def predicates(draw):
    # sameside, nsameside and sameclock are side conditions engines never state in a
    # proof: they have no notation.
    name = draw(st.sampled_from(sorted(set(RB.predicates) - {"sameside", "nsameside", "sameclock"})))
    pdef = RB.predicates[name]
    points = draw(st.lists(NAMES, min_size=pdef.kinds.count("point"), max_size=pdef.kinds.count("point"),
                           unique=True))
    it = iter(points)
    args = []
    for kind in pdef.kinds:
        if kind == "point":
            args.append(next(it))
        else:
            value = draw(st.fractions(min_value=Fraction(1, 7), max_value=Fraction(7, 2), max_denominator=9))
            args.append(Constant(kind, value))
    return Predicate(name, tuple(args), draw(st.booleans()))


@given(predicates())
def test_everything_printed_reads_back(predicate):
    read = read_notation(to_notation(predicate))
    assert len(read) == 1
    assert normalize(read[0]) == normalize(predicate)


@given(st.text(max_size=120))
def test_any_text_reads_or_raises_a_located_error(text):
    try:
        read_notation(text)
    except geodsl.SyntaxErrorGDL as exc:
        assert exc.line == 1 and exc.column >= 1


@pytest.mark.parametrize("text, column", [("AB ⟂ ", 5), ("A,B,C are colinear", 11), ("AB = ∠ABC", 6)])
def test_unreadable_statements_are_located(text, column):
    with pytest.raises(geodsl.SyntaxErrorGDL) as info:
        read_notation(text)
    assert info.value.column == column
    assert "cannot read" in info.value.message


def test_oversized_statement_is_refused():
    with pytest.raises(geodsl.SyntaxErrorGDL, match="the limit is 2,000"):
        read_notation("AB = CD = " * 400)


def test_a_relation_between_a_segment_and_a_number_is_refused():
    with pytest.raises(geodsl.SyntaxErrorGDL, match="`⟂` between a segment and a number"):
        read_notation("AB ⟂ 3/2")


def test_menelaus_and_ceva_products_read_in_either_spelling():
    assert read_notation("BD·CE·AF = DC·EA·FB") == [Predicate("sideprod", ("a", "b", "c", "d", "e", "f"))]
    assert read_notation("BD*CE*AF ≠ CD*AE*BF") == [
        Predicate("sideprod", ("a", "b", "c", "d", "e", "f"), True)]


def test_a_product_of_segments_in_another_form_is_refused():
    with pytest.raises(geodsl.SyntaxErrorGDL) as info:
        read_notation("BD·CE·AF = DC·EA·FC")
    assert "only in Menelaus' and Ceva's form" in info.value.message
    assert (info.value.line, info.value.column) == (1, 1)
