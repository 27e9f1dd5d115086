"""The deduction rules (rulebase/rules.gdl): loader, errors, and numeric soundness.

Soundness is tested as data: every rule carries a ``witness:`` premise that
makes its hypotheses true. Each witness is realized in independent diagrams
and every premise, side condition and conclusion of the rule must hold in
each of them, with the rule's points pairwise distinct (the rules' variables
stand for different points). Deliberately wrong rules must fail the same
check, so the check can fail.
"""

from __future__ import annotations

import itertools

import geodsl
import re

import pytest

from geodsl.lang.ast import Predicate
from geodsl.lang.definitions import rulebase
from geodsl.lang.errors import GeoDSLError, RealizationError, RulebaseError
from geodsl.realizer import CHECKS, realize
from geodsl.lang.rules import Rule, get_rules, read_rules

RULES = get_rules()
SEEDS = (0, 1, 2)
"""Seeds of the realizations; each gives 3 independent diagrams."""


def soundness_failures(rule: Rule, seeds: tuple[int, ...] = SEEDS) -> list[str]:
    """What fails when the rule's witness is realized: premises or side
    conditions that do not hold (a bad witness), coinciding variables (a
    degenerate witness) and conclusions that do not hold (an unsound rule)."""
    assert rule.witness is not None, f"{rule.name} has no witness"
    failures: list[str] = []
    for seed in seeds:
        for d in realize(rule.witness, seed=seed, diagrams=3):
            where = f"seed {seed}, diagram {d.index}"
            for p in rule.premises + rule.side_conditions:
                if not d.holds(p):
                    failures.append(f"{where}: premise {p.to_text()} is false")
            for a, b in itertools.combinations(rule.variables, 2):
                if abs(d.coords[a] - d.coords[b]) <= 1e-6 * d.scale:
                    failures.append(f"{where}: {a} and {b} coincide")
            for c in rule.conclusions:
                if not d.holds(c):
                    failures.append(f"{where}: conclusion {c.to_text()} is false")
    return failures


# ---------------------------------------------------------------- the installed rules


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_is_sound_on_its_witness(name: str) -> None:
    assert soundness_failures(RULES[name]) == []


def test_all_alphageometry_rules_are_there() -> None:
    # r32 (SSS), r38 and r40 conclude "contri or contrir" by the figure's
    # orientation: each is split in two by the side condition sameclock.
    missing = {f"r{i:02d}" for i in range(43)} - set(RULES)
    assert missing == set()
    assert len(RULES) >= 50
    assert all(re.fullmatch(r"r\d\d", name) for name in RULES)
    extra = sorted(int(n[1:]) for n in RULES if int(n[1:]) > 42)
    assert extra[0] >= 50


def test_every_rule_has_label_witness_and_known_predicates() -> None:
    predicates = rulebase().predicates
    for rule in RULES.values():
        assert rule.label and not rule.label.endswith("."), rule.name
        assert rule.witness is not None, rule.name
        assert rule.premises and rule.conclusions, rule.name
        for p in rule.premises + rule.conclusions:
            assert p.name in predicates and not predicates[p.name].side, (rule.name, p.name)
        for p in rule.side_conditions:
            assert predicates[p.name].side, (rule.name, p.name)
        for p in rule.premises + rule.side_conditions + rule.conclusions:
            assert len(p.args) == predicates[p.name].arity
            assert p.name in CHECKS
            assert p.span is not None and p.span.source == "rulebase/rules.gdl"
        for c in rule.conclusions:
            assert set(c.points) <= set(rule.variables), rule.name


def test_rules_keep_file_order_and_are_read_once() -> None:
    assert get_rules() is RULES
    lines = [r.location.line for r in RULES.values()]
    assert lines == sorted(lines)


def test_side_conditions_are_split_out() -> None:
    r27 = RULES["r27"]
    assert [p.name for p in r27.premises] == ["eqratio", "coll", "coll"]
    assert [p.name for p in r27.side_conditions] == ["ncoll", "sameside"]
    assert r27.label == "Proportional segments through a point make parallels"
    assert "AlphaGeometry r27" in r27.doc


def test_rule_to_text_reads_back() -> None:
    for rule in RULES.values():
        text = f"# {rule.label}\n{rule.to_text()}\n"
        again = read_rules(text, "again.gdl", witnesses=False)[rule.name]
        assert (again.premises, again.side_conditions, again.conclusions) == (
            rule.premises, rule.side_conditions, rule.conclusions)


# ---------------------------------------------------------------- wrong rules fail


WRONG = {
    # The conclusion swapped for another predicate.
    "perp_for_para": """
# Perpendiculars to one line are perpendicular (wrong).
rule w00: perp a b c d; perp c d e f; ncoll a b e => perp a b e f
witness: a b c = triangle a b c; d = on_tline d c a b; e = free e; f = on_tline f e c d
""",
    # SAS with the orientation mixed up.
    "sas_orientation": """
# SAS with the wrong orientation (wrong).
rule w33: cong a b p q; cong b c q r; eqangle b a b c q p q r; ncoll a b c; sameside b a c q p r => contrir a b c p q r
witness: a b c = triangle a b c; p = free p; q = eqdistance q p a b; r = on_aline0 r b a b c q p q, eqdistance r q b c ? sameside b a c q p r
""",
    # The bisector theorem with the ratio turned over.
    "bisector_ratio": """
# Angle-bisector theorem, ratio inverted (wrong).
rule w12: eqangle a b a d a d a c; coll d b c; ncoll a b c => eqratio d b d c a c a b
witness: a b c = triangle a b c; d = angle_bisector d b a c, on_line d b c
""",
    # Inscribed angles, points of the chord swapped in one angle.
    "inscribed_swapped": """
# Inscribed angles (wrong order).
rule w03: cyclic a b p q => eqangle p a p b q b q a
witness: a b p = triangle a b p; q = on_circum q a b p
""",
}


@pytest.mark.parametrize("case", sorted(WRONG))
def test_a_wrong_rule_fails_the_soundness_check(case: str) -> None:
    (rule,) = read_rules(WRONG[case], f"{case}.gdl").values()
    failures = soundness_failures(rule)
    assert failures and all("conclusion" in f for f in failures)


def test_a_witness_that_misses_a_premise_fails_the_check() -> None:
    text = """
# Perpendiculars to one line are parallel.
rule r00: perp a b c d; perp c d e f; ncoll a b e => para a b e f
witness: a b c = triangle a b c; d = on_tline d c a b; e = free e; f = free f
"""
    (rule,) = read_rules(text, "bad_witness.gdl").values()
    assert any("premise perp c d e f is false" in f for f in soundness_failures(rule))


def test_a_degenerate_witness_fails_the_check() -> None:
    text = """
# Points on one line.
rule r99: coll a b c; coll a b d => coll b c d
witness: a b = segment a b; c = mirror c b a; d = mirror d c a
"""
    (rule,) = read_rules(text, "degenerate.gdl").values()
    with pytest.raises(RealizationError) as info:
        soundness_failures(rule)
    # Located in the rules file: line 4, the construction of d.
    assert (info.value.source, info.value.line, info.value.column) == ("degenerate.gdl", 4, 47)


def test_r26_needs_its_side_condition_on_one_line() -> None:
    # On one line both `para` premises of r26 hold whatever c and d are:
    # without `ncoll a b c` the rule is unsound, and the check says so.
    text = """
# Diagonals of a flat parallelogram (wrong: no side condition).
rule w26: midp m a b; para a c b d; para a d b c => midp m c d
witness: a b = segment a b; m = midpoint m a b; c = on_line c a b; d = on_line d a b
"""
    (wrong,) = read_rules(text, "flat.gdl").values()
    assert soundness_failures(wrong)
    assert wrong.witness is not None
    ncoll = RULES["r26"].side_conditions[0]
    assert ncoll.to_text() == "ncoll a b c"
    assert not any(d.holds(ncoll) for d in realize(wrong.witness, seed=0, diagrams=3))


def test_the_check_catches_almost_every_misspelled_conclusion() -> None:
    # Swap two arguments of each conclusion (skipping spellings of the same
    # fact): nearly every such mutant must be false on the witness. The few
    # that survive are true theorems too (e.g. r25's other pair of sides).
    caught = total = 0
    survivors = []
    for rule in RULES.values():
        assert rule.witness is not None
        figures = [d for seed in SEEDS[:2] for d in realize(rule.witness, seed=seed, diagrams=3)]
        for c in rule.conclusions:
            spelled = {geodsl.canonical(c).args}
            points = [i for i, a in enumerate(c.args) if isinstance(a, str)]
            for i, j in itertools.combinations(points, 2):
                args = list(c.args)
                args[i], args[j] = args[j], args[i]
                mutant = Predicate(c.name, tuple(args))
                if geodsl.canonical(mutant).args in spelled:
                    continue
                spelled.add(geodsl.canonical(mutant).args)
                total += 1
                if all(d.holds(mutant) for d in figures):
                    survivors.append(f"{rule.name}: {mutant.to_text()}")
                else:
                    caught += 1
    assert total > 300
    assert caught >= 0.95 * total, survivors


# ---------------------------------------------------------------- loader errors

OK = "# L\nrule r1: perp a b c d => perp c d a b\n"


@pytest.mark.parametrize(("text", "message", "line", "column"), [
    ("# L\nrule r1: prep a b c d => para a b c d\n", "unknown predicate `prep`", 2, 10),
    ("# L\nrule r1: perp a b c d => prep a b c d\n", "unknown predicate `prep`", 2, 26),
    ("# L\nrule r1: perp a b c => para a b c d\n", "`perp` takes 4 arguments, got 3", 2, 10),
    ("# L\nrule r1: perp a b c d => para a b c d e\n", "`para` takes 4 arguments, got 5", 2, 26),
    ("# L\nrule r1: perp a b c d; perp c d e f => para a b e x\n",
     "conclusion variable `x` does not occur in the premises", 2, 51),
    (OK + "\n# M\nrule r1: para a b c d => para c d a b\n",
     "rule `r1` is defined twice (first on line 2)", 5, 6),
    ("# L\nrule r1: perp a b c d\n", "rule `r1` has no conclusion", 2, 22),
    ("rule r1: perp a b c d => perp c d a b\n", "rule `r1` has no label", 1, 6),
    ("# L\nrule r1: perp a b c d => ncoll a b c\n",
     "`ncoll` is a side condition and cannot be concluded", 2, 26),
    ("# L\nrule r1: ncoll a b c => coll a b c\n",
     "rule `r1` has only side conditions as premises", 2, 6),
    ("# L\nrule r1: perp a b c d ? perp c d a b\n", "unexpected `?` in a rule", 2, 23),
    ("# L\nrule r1 r2: perp a b c d => perp c d a b\n", "a rule has one name", 2, 1),
    (OK + "proof: x\n", "unknown keyword `proof:` in a rule", 3, 1),
    (OK + "witness: a b c d = quadrangle a b c d\nwitness: a b c d = quadrangle a b c d\n",
     "rule `r1` has two witnesses", 4, 1),
    (OK + "witness: a b c = triangle a b c; d = on_tlin d c a b\n",
     "in the witness of `r1`: unknown construction `on_tlin`", 3, 38),
    (OK + "witness: a b c = triangle a b c\n", "the witness of `r1` does not construct `d`", 3, 10),
    ("# L\nrule r1: not perp a b c d => perp c d a b\n",
     "a fact must be a plain `name arg ...` statement", 2, 14),
    ("witness: a b = segment a b\n" + OK, "`witness:` before the first `rule:`", 1, 1),
])
def test_loader_errors_are_located(text: str, message: str, line: int, column: int) -> None:
    with pytest.raises(RulebaseError) as info:
        read_rules(text, "bad.gdl")
    err = info.value
    assert (err.message, err.source, err.line, err.column) == (message, "bad.gdl", line, column)
    assert err.hint
    shown = err.format()
    assert shown.startswith(f"bad.gdl:{line}:{column}: error: {message}")
    assert "^" in shown


def test_unknown_predicate_suggests_the_near_name() -> None:
    with pytest.raises(RulebaseError) as info:
        read_rules("# L\nrule r1: prep a b c d => para a b c d\n", "bad.gdl")
    assert info.value.hint == "did you mean `perp`?"


def test_a_syntax_error_in_a_rule_is_located() -> None:
    with pytest.raises(GeoDSLError) as info:
        read_rules("# L\nrule r1: perp a b c d => => perp c d a b\n", "bad.gdl")
    assert (info.value.line, info.value.column) == (2, 26)


def test_witnesses_can_be_skipped() -> None:
    text = OK + "witness: this is not parsed as a premise\n"
    (rule,) = read_rules(text, "w.gdl", witnesses=False).values()
    assert rule.witness is None and rule.label == "L"


def test_constants_in_rules() -> None:
    text = "# Midpoint ratio.\nrule r1: midp m a b => rconst m a a b 1/2\n"
    (rule,) = read_rules(text, "c.gdl").values()
    assert rule.conclusions[0].to_text() == "rconst m a a b 1/2"
