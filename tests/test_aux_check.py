"""Checking auxiliary candidates (geodsl.checker.aux, ``geodsl aux``): well
formed, well defined in the problem's diagrams, useful to the prover;
redundant candidates, minimal subsets, the JSON schema, batches, render."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import geodsl
import geodsl.schemas
from geodsl.checker.aux import AuxCheck, Written, candidates_of, check_aux
from geodsl.cli import main

# IMO 2000 P6 (IMO-AG-30): DD+AR alone does not prove it; the midpoint of BI
# (the midpoint of the hypotenuse of the right triangles at the touch
# points, as in the published solutions) lets it.
IMO_2000_P6 = ("a b c = triangle a b c; h = orthocenter h a b c; t1 t2 t3 i = incenter2 t1 t2 t3 i a b c; "
               "h1 = foot h1 a b c; h2 = foot h2 b c a; h3 = foot h3 c a b; x1 = reflect x1 h1 t1 t2; "
               "x2 = reflect x2 h2 t1 t2; y2 = reflect y2 h2 t2 t3; y3 = reflect y3 h3 t2 t3; "
               "z = on_line z x1 x2, on_line z y2 y3 ? cong i z i t1")
ORTHO = "a b c = triangle a b c; h = orthocenter h a b c; m = midpoint m b c ? perp a h b c"


def test_a_useful_candidate_proves_what_the_problem_alone_does_not() -> None:
    r = check_aux(IMO_2000_P6, ["取BI的中点Q", "take the midpoint K of AB"], timeout=20)
    assert (r.status, r.goal, r.goal_true) == ("ok", "cong i z i t1", True)
    assert r.proved_without is False and r.proof_steps_without is None
    q, k = r.candidates
    assert q.well_defined and not q.redundant and q.proved and q.proof_steps and q.used_points == ("q",)
    assert k.well_defined and k.proved is False and k.used_points == ()
    assert r.proved_with is True and r.minimal == (0,) and "q" in r.used_points
    # The proof lists the candidates in its "Auxiliary Constructions" section, as AlphaGeometry's do.
    assert r.proof_with is not None and r.proof_with.auxiliary == ("q = midpoint q b i", "k = midpoint k a b")
    assert "* Auxiliary Constructions:\nq = midpoint q b i" in r.proof_with.to_text()
    # The proof of the problem with the candidate cites the candidate's facts.
    assert any("Q" in g.text for g in r.proof_with.givens)


def test_the_minimal_subset_drops_what_the_proof_does_not_need() -> None:
    r = check_aux(IMO_2000_P6, ["s = midpoint s i h2", "q = midpoint q b i", "q = midpoint q b i"], timeout=20)
    assert r.proved_with and r.minimal == (1,)
    # the third candidate is the second's point under the same name: the union holds it once
    assert r.candidates[1].proved is True and r.candidates[2].proved is True
    assert r.candidates[0].proved is False


def test_redundant_candidates_name_what_the_premise_has() -> None:
    r = check_aux(ORTHO, ["取BC的中点M", "取BC的中点N", "connect BC", "connect AM", "d = foot d a b c"])
    same, alias, drawn, new_segment, fresh = r.candidates
    assert same.well_defined and same.redundant and same.aliases == ()
    assert alias.well_defined and alias.redundant and alias.aliases == (("n", "m"),)
    assert drawn.redundant and not new_segment.redundant  # BC is a side; AM is not drawn
    assert fresh.well_defined and not fresh.redundant
    assert r.proved_without and r.minimal == ()  # the goal is a premise fact: nothing is needed


def test_a_restated_point_that_does_not_fit_is_an_error() -> None:
    r = check_aux(ORTHO, ["取AB的中点M"])
    err = r.candidates[0].error
    assert err is not None and err.kind == "point"
    assert err.message == "`m` is already a point of the problem, and `m = midpoint m a b` does not hold for it " \
                          "(diagram 1 of 5)"
    assert r.candidates[0].well_defined is None


def test_degenerate_candidates_are_not_well_defined_and_say_why() -> None:
    trapezoid = "a b c d = trapezoid a b c d ? para a b c d"
    r = check_aux(trapezoid, ["let AB and CD meet at X", "let AC and BD meet at X"])
    parallel, fine = r.candidates
    assert parallel.well_defined is False
    assert parallel.reason == ("in diagram 1 of 5: `x = on_line x a b, on_line x c d`: the two lines are "
                               "parallel in every sample")
    assert fine.well_defined is True
    # A line that misses a circle: the circle on BC as diameter, the parallel to BC through A far away.
    far = "a@0_5 b@0_0 c@1_0 = triangle a b c ? perp a b b c"
    r = check_aux(far, ["let X be the intersection of the circle with diameter BC and the line through A "
                        "parallel to BC"])
    assert r.candidates[0].well_defined is False
    assert r.candidates[0].reason == ("in diagram 1 of 5: `x = on_dia x b c, on_pline x a b c`: the line misses "
                                      "the circle in every sample")


def test_without_a_goal_every_candidate_is_still_read_and_checked() -> None:
    r = check_aux("a b c = triangle a b c", ["过点A作AD⊥BC于D", "连接AQ"])
    assert r.goal is None and r.proved_without is None and r.proved_with is None and r.minimal is None
    assert r.candidates[0].well_defined and r.candidates[0].proved is None
    assert r.candidates[1].error is not None and r.candidates[1].lang == "zh"
    assert r.prover_runs == 0


def test_a_false_goal_is_proved_by_no_candidate() -> None:
    r = check_aux("a b c = triangle a b c ? perp a b a c", ["过点A作AD⊥BC于D"])
    assert r.goal_true is False and r.proved_without is False and r.proved_with is False
    assert r.candidates[0].proved is False and r.prover_runs == 0


def test_a_problem_s_own_candidates_are_its_aux_lines_and_its_pipe_section() -> None:
    p = geodsl.parse(f"problem: p6\n{IMO_2000_P6.replace(' ? ', ' | q = midpoint q b i ? ')}\n"
                     "aux lone: k = midpoint k a b\n")[0]
    base, own = candidates_of(p)
    assert not base.aux_given and [c.label for c in own] == ["lone", "|"]
    r = check_aux(p, timeout=20)
    assert r.proved_without is False and r.minimal == (1,)
    assert [c.label for c in r.candidates] == ["lone", "|"]


def test_a_pipe_section_the_goal_needs_stays_in_the_premise() -> None:
    p = geodsl.parse_problem("a b c = triangle a b c | d = midpoint d a b; e = midpoint e a c ? para d e b c")
    base, own = candidates_of(p)
    assert base.aux_given == p.aux_given and own == []
    r = check_aux(p, ["取BC的中点F"])
    assert r.proved_without is True and r.minimal == () and r.candidates[0].well_defined


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(geodsl.GeoDSLError, match="diagrams must be a whole number from 1"):
        check_aux(ORTHO, [], diagrams=0)
    with pytest.raises(geodsl.GeoDSLError, match="the time budget must be a number greater than 0"):
        check_aux(ORTHO, [], timeout=-1)
    with pytest.raises(geodsl.GeoDSLError, match="65 candidates for one problem; the limit is 64"):
        check_aux(ORTHO, ["connect AB"] * 65)
    r = check_aux(ORTHO, [3])  # type: ignore[list-item]
    assert r.candidates[0].error is not None and "got int" in r.candidates[0].error.message


def test_a_written_candidate_s_errors_are_located_where_it_was_written() -> None:
    r = check_aux(ORTHO, [Written("连接AQ", "model.jsonl:4:aux[0]", 1, "zh")])
    err = r.candidates[0].error
    assert err is not None and (err.source, err.line, err.column) == ("model.jsonl:4:aux[0]", 1, 4)


def test_same_seed_same_report() -> None:
    one = check_aux(ORTHO, ["连接AM", "取AB的中点D"]).to_dict()
    two = check_aux(ORTHO, ["连接AM", "取AB的中点D"]).to_dict()
    for record in (one, two):  # timing fields apart, the same report
        record.pop("seconds"), record.pop("seconds_without")
        for c in record["candidates"]:  # type: ignore[union-attr]
            c.pop("seconds")
    assert one == two
    assert geodsl.check_aux is check_aux and geodsl.AuxCheck is AuxCheck


# ---------------------------------------------------------------- the command


def _validate(records: object) -> None:
    jsonschema.Draft202012Validator(geodsl.schemas.schema("aux"), registry=geodsl.schemas.registry()).validate(
        records)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_aux_command_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gdl = tmp_path / "p.gdl"
    gdl.write_text(f"problem: p6\n{IMO_2000_P6}\naux mid: q = midpoint q b i\n", encoding="utf-8")
    cands = tmp_path / "cands.txt"
    cands.write_text("# one candidate per line\ntake the midpoint K of AB\n\n连接AQ\n", encoding="utf-8")
    status, out, err = _run(capsys, "aux", str(gdl), "--aux-file", str(cands), "--aux", "过点A作AD⊥BC于D",
                            "--timeout", "20")
    assert status == 2  # the candidate 连接AQ names a point the problem does not have
    assert f"{cands}:4:4: error: point `Q` is not in the problem" in err
    assert "goal: cong i z i t1: alone not proved; with the candidates proved" in out
    assert "[0] mid formal: q = midpoint q b i" in out and "minimal subset {0}" in out
    assert out.strip().splitlines()[-1].startswith("1 problem, 4 candidates: 3 read, 3 well defined, 1 useful")
    status, out, err = _run(capsys, "aux", str(gdl), "--aux", "take the midpoint K of AB", "--json", "--proofs",
                            "--timeout", "20")
    assert status == 0
    records = json.loads(out)
    _validate(records)
    (rec,) = records
    assert rec["proved_without"] is False and rec["proved_with"] is True and rec["minimal"] == [0]
    assert rec["proof_with"]["steps"] and rec["proof_without"] is None
    assert [c["constructions"] for c in rec["candidates"]] == [["q = midpoint q b i"], ["k = midpoint k a b"]]
    assert err.startswith("1 problem, 2 candidates")


def test_aux_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gdl = tmp_path / "p.gdl"
    gdl.write_text(f"problem: ortho\n{ORTHO}\n", encoding="utf-8")
    items = tmp_path / "items.jsonl"
    items.write_text("\n".join([
        json.dumps({"problem": f"{gdl}#ortho", "aux": ["连接AM", "d = foot d a b c"]}, ensure_ascii=False),
        json.dumps({"problem": "imo_ag_30#translated_imo_2000_p6", "aux": ["取BI的中点Q"], "lang": "zh"},
                   ensure_ascii=False),
        json.dumps({"problem": "a b c = triangle a b c ? perp a b a c", "aux": "connect AB", "name": "false"}),
        "{not json",
        json.dumps({"problem": "a b c = triangle a b c", "aux": [1]}),
        json.dumps({"problem": "a b c = triangle a b c", "extra": 1}),
        json.dumps(["a list"]),
        json.dumps({"aux": []}),
        json.dumps({"problem": "a b c = triangle a b c", "lang": "fr"}),
        json.dumps({"problem": f"{gdl}#nothere"}),
        json.dumps({"problem": "a b c = triangle a b q"}),
        json.dumps({"problem": "a b c = triangle a b c", "aux": ["连接AQ"]}, ensure_ascii=False),
    ]) + "\n", encoding="utf-8")
    status, out, err = _run(capsys, "aux", "--batch", str(items), "--json", "--timeout", "20")
    assert status == 2
    records = json.loads(out)
    _validate(records)
    assert len(records) == 12
    assert records[0]["problem"] == "ortho" and records[0]["candidates"][0]["segments"] == ["am"]
    assert records[1]["proved_without"] is False and records[1]["proved_with"] is True
    assert records[2]["problem"] == "false" and records[2]["goal_true"] is False
    messages = [r["error"]["message"] if r["error"] else None for r in records[3:11]]
    assert messages == [
        "not JSON: Expecting property name enclosed in double quotes",
        '"aux" is a list of candidate texts',
        "unknown key `extra` in a batch item",
        "a batch item is a JSON object, got list",
        'a batch item needs "problem": the problem\'s text or FILE#NAME',
        "unknown \"lang\" `fr`",
        "no problem named `nothere` in " + str(gdl),
        "`triangle` constructs its argument `c`, here `q`, but this construction introduces `a b c`",
    ]
    assert records[3]["error"]["line"] == 4 and records[3]["error"]["column"] == 2
    assert records[11]["candidates"][0]["error"]["file"] == f"{items}:12:aux[0]"
    assert f"{items}:4:2: error: not JSON" in err


def test_aux_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = _run(capsys, "aux")
    assert status == 2 and "give problem FILEs or --batch ITEMS.jsonl (one of the two)" in err
    items = tmp_path / "i.jsonl"
    items.write_text("")
    status, _, err = _run(capsys, "aux", "--batch", str(items), "--aux", "connect AB")
    assert status == 2 and "--batch items carry their own problems and candidates" in err
    status, _, err = _run(capsys, "aux", "imo_ag_30", "--lang", "fr")
    assert status == 2 and "invalid choice: 'fr'" in err


def test_aux_command_problem_errors_are_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("a b c = triangle a b c; d = midpiont d a b ? coll a b d\n"
                   "a b = segment a b; c = midpoint c a b; o = circle o a b c\n")
    status, out, err = _run(capsys, "aux", str(bad), "--aux", "connect AB", "--json")
    assert status == 2
    records = json.loads(out)
    _validate(records)
    assert [r["status"] for r in records] == ["error", "error"]
    assert records[1]["error"]["kind"] == "realization"
    assert f"{bad}:1:29: error: unknown construction `midpiont`" in err


def test_render_draws_command_line_candidates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gdl = tmp_path / "o.gdl"
    gdl.write_text(f"problem: ortho\n{ORTHO}\n", encoding="utf-8")
    out = tmp_path / "o.svg"
    status, printed, _ = _run(capsys, "render", str(gdl), "-o", str(out))
    plain = out.read_text().count("stroke-dasharray")
    status, printed, err = _run(capsys, "render", str(gdl), "-o", str(out), "--aux", "过点A作AD⊥BC于D",
                                "--aux", "取BC的中点M", "--aux", "take the midpoint N of BC")
    assert status == 0 and printed.strip() == str(out)
    assert out.read_text().count("stroke-dasharray") > plain  # the altitude AD, dashed
    assert "--aux 3: warning: `take the midpoint N of BC` is not drawn: `n = midpoint n b c`: `n` falls on `m`" in err
    status, _, err = _run(capsys, "render", str(gdl), "-o", str(out), "--aux", "连接AQ")
    assert status == 2 and "--aux:1:4: error: point `Q` is not in the problem" in err


def test_the_imo_candidates_of_the_benchmark_prove_what_the_notes_say(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/imo_aux.jsonl: auxiliary constructions written from human
    solutions for the IMO-AG-30 problems DD+AR does not prove alone."""
    items = Path(__file__).resolve().parent.parent / "benchmarks" / "imo_aux.jsonl"
    status, out, _ = _run(capsys, "aux", "--batch", str(items), "--json", "--no-minimal", "--timeout", "60")
    assert status == 0
    records = json.loads(out)
    _validate(records)
    assert all(r["proved_without"] is False for r in records)
    names = {r["problem"].removeprefix("translated_imo_") for r in records}
    proved = {r["problem"].removeprefix("translated_imo_") for r in records if r["proved_with"]}
    assert len(names) == 12
    assert proved == {"2000_p6", "2008_p1b", "2010_p2", "2012_p5", "2015_p3", "2018_p1", "2019_p2"}
    (p2020,) = [r for r in records if r["problem"].endswith("2020_p1")]
    assert p2020["candidates"][0]["aliases"] == {"q": "o"}  # the circumcentre of PAB is the problem's O
