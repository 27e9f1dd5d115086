"""The worded-construction corpus (tests/data/aux_corpus.json): 239 candidates,
English and Chinese, in the phrasings of published solutions and model
outputs, each with the construction it must read as in its problem."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import geodsl
from geodsl.lang.aux_text import read_aux, segment_text

CORPUS = json.loads((Path(__file__).parent / "data" / "aux_corpus.json").read_text(encoding="utf-8"))
CONTEXTS = {name: geodsl.parse_problem(text) for name, text in CORPUS["contexts"].items()}
CASES = CORPUS["cases"]


def test_the_corpus_is_large_and_in_both_languages() -> None:
    langs = Counter(c["lang"] for c in CASES)
    assert len(CASES) >= 150 and langs["en"] >= 75 and langs["zh"] >= 75
    assert len({c["text"] for c in CASES}) == len(CASES)
    # Every phrasing the issue names is in it (one witness each).
    for needle in ("连接PC、QD", "延长BE交CD的延长线于点G", "过点P作PX⊥AB，交AC于X", "过点M作MN⊥AB，垂足为N",
                   "Through C draw CF ∥ AB meeting DE at F", "取AB的中点E", "设AC与BD交于点X", "作直径AE",
                   "延长CO交⊙O于点N", "作△ABC的外接圆⊙O", "在BC上截取BD=BA", "在劣弧BC上任取一点P",
                   "则∠AHB=90°", "so ∠AHB = 90°"):
        assert any(c["text"] == needle for c in CASES), needle


@pytest.mark.parametrize("case", CASES, ids=[f"{c['lang']}:{c['text']}" for c in CASES])
def test_every_candidate_reads_as_its_construction(case: dict[str, object]) -> None:
    problem = CONTEXTS[case["context"]]  # type: ignore[index]
    reading = read_aux(case["text"], problem, case["lang"])  # type: ignore[arg-type]
    assert reading.lang == case["lang"]
    assert list(reading.construction_texts) == case["constructions"]
    assert [segment_text(a, b) for a, b in reading.segments] == case["segments"]
    assert list(reading.claims) == case["claims"]
    # `lang="auto"` reads the same: Chinese characters mean zh, anything else worded is en.
    assert read_aux(case["text"], problem).construction_texts == reading.construction_texts  # type: ignore[arg-type]
    # The canonical text is the DSL: the problem with the constructions parses back to them.
    fresh = [t for t, again in zip(reading.construction_texts, reading.restated) if not again]
    if fresh:
        whole = geodsl.parse_problem(problem.premise.to_text() + "; " + "; ".join(fresh))
        assert [c.to_text() for c in whole.premise.constructions[-len(fresh):]] == fresh
