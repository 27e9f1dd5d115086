"""docs/aux.md tells the truth: every row of its phrasing table reads as it
says, and its JSON example is a record the schema accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

import geodsl
import geodsl.schemas

DOC = (Path(__file__).resolve().parent.parent / "docs" / "aux.md").read_text(encoding="utf-8")
CONTEXT = re.search(r"in the problem\n`([^`]+)`", DOC)
assert CONTEXT is not None
PROBLEM = geodsl.parse_problem(CONTEXT.group(1))
ROWS = re.findall(r"^\| `([^`]+)` \| (.+) \|$", DOC, re.M)


def test_the_table_is_there() -> None:
    assert len(ROWS) >= 30


@pytest.mark.parametrize("text, reads", ROWS, ids=[r[0] for r in ROWS])
def test_each_phrasing_reads_as_the_table_says(text: str, reads: str) -> None:
    reading = geodsl.read_aux(text, PROBLEM)
    claim = re.search(r"\(claim `([^`]+)`\)", reads)
    said = re.findall(r"`([^`]+)`", reads.split("(claim")[0])
    assert list(reading.construction_texts) == said
    assert list(reading.claims) == ([claim.group(1)] if claim else [])
    if reads.startswith("(segments"):
        shown = [s.strip() for s in reads.strip("()").removeprefix("segments").split(",")]
        assert [(a + b).upper() for a, b in reading.segments] == shown


def test_the_json_example_is_a_valid_record() -> None:
    block = re.search(r"```json\n(.*?)```", DOC, re.S)
    assert block is not None
    jsonschema.Draft202012Validator(geodsl.schemas.schema("aux"), registry=geodsl.schemas.registry()).validate(
        [json.loads(block.group(1))])
