"""``geodsl report``: the page of a run's records, opened in a real headless
browser (Debian's chromium and chromedriver, driven by selenium): it loads
with no console error and fetches nothing, the table filters and sorts,
figures render, a proof unfolds, a screenshot is taken. Then what each kind
of record shows (prove, grade, aux, generated problems), the bad inputs,
and the same bytes on every build."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import geodsl.datasets
from geodsl.cli import main
from geodsl.report import build

ODD = """problem: typo
a b c = triangle a b c; d = midpiont d a b ? coll a b d

problem: false_goal
a b c = triangle a b c; d = midpoint d a b ? perp a b c d

problem: mcq
a b c = triangle a b c; d = midpoint d a b; e = midpoint e a c
option A: para d e b c
option B: perp d e b c
option C: cong d e b c
answer: A
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """check --proofs --out on 8 JGEX problems, 2 IMO problems and three odd ones."""
    top = tmp_path_factory.mktemp("report")
    lines = geodsl.datasets.text("jgex_ag_231").splitlines()[:16] + geodsl.datasets.text("imo_ag_30").splitlines()[:4]
    problems = top / "problems.gdl"
    problems.write_text("\n".join(lines) + "\n\n" + ODD, encoding="utf-8")
    out = top / "check.jsonl"
    assert main(["check", str(problems), "--proofs", "--out", str(out)]) == 2
    return out


@pytest.fixture(scope="module")
def page(results: Path) -> Path:
    html = results.with_suffix(".html")
    assert main(["report", str(results), "-o", str(html)]) == 0
    return html


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1600"):
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    try:
        yield driver
    finally:
        driver.quit()


def shown_rows(driver: webdriver.Chrome) -> list[str]:
    return [r.find_elements(By.TAG_NAME, "td")[1].text for r in driver.find_elements(By.CSS_SELECTOR, "#table tbody tr")
            if r.is_displayed()]


def test_the_page_in_a_browser(page: Path, browser: webdriver.Chrome, tmp_path: Path) -> None:
    browser.get(page.as_uri())
    assert browser.get_log("browser") == []  # no console error, no blocked fetch
    browser.execute_script("console.error('the log is read')")  # the check above can fail
    assert any("the log is read" in m["message"] for m in browser.get_log("browser"))
    # nothing outside the page: every src and href is inside it
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('[src],[href]')).map(e => e.getAttribute('src') || "
        "e.getAttribute('href'))")
    assert links and all(link.startswith("#") for link in links)
    # the table: every record, then filtered by words and by status
    assert len(shown_rows(browser)) == 13 and browser.find_element(By.ID, "shown").text == "13 of 13 shown"
    browser.find_element(By.ID, "filter").send_keys("false")
    assert shown_rows(browser) == ["false_goal", "mcq"]
    assert browser.find_element(By.ID, "shown").text == "2 of 13 shown"
    browser.find_element(By.ID, "filter").clear()
    browser.find_element(By.ID, "filter").send_keys(" ")  # an input event with no words: everything again
    Select(browser.find_element(By.ID, "status")).select_by_value("error")
    assert shown_rows(browser) == ["typo"]
    Select(browser.find_element(By.ID, "status")).select_by_value("")
    # sorted by seconds, both ways
    header = browser.find_elements(By.CSS_SELECTOR, "#table th")[6]
    header.click()
    seconds = [float(c.get_attribute("data-value")) for c in
               browser.find_elements(By.CSS_SELECTOR, "#table tbody tr td:nth-child(7)")]
    assert seconds == sorted(seconds) and header.get_attribute("aria-sort") == "ascending"
    header.click()
    again = [float(c.get_attribute("data-value")) for c in
             browser.find_elements(By.CSS_SELECTOR, "#table tbody tr td:nth-child(7)")]
    assert again == sorted(seconds, reverse=True)
    # figures: drawn, one per option of the multiple-choice problem
    figures = browser.find_elements(By.CSS_SELECTOR, "svg.figure")
    assert len(figures) == 14  # 10 goals + false_goal + 3 options (the typo has no problem to draw)
    assert figures[0].size["width"] > 200 and figures[0].size["height"] > 200
    assert browser.execute_script("return arguments[0].querySelectorAll('path').length", figures[0]) > 10
    mcq = browser.find_element(By.ID, "p-13")
    assert [c.text for c in mcq.find_elements(By.TAG_NAME, "figcaption")] == ["A proved", "B false", "C false"]
    # a proof unfolds
    proof = browser.find_element(By.CSS_SELECTOR, "#p-1 details.proof")
    assert not proof.find_element(By.TAG_NAME, "pre").is_displayed()
    proof.find_element(By.TAG_NAME, "summary").click()
    assert "* Proof steps:" in proof.find_element(By.TAG_NAME, "pre").text
    # the typo's error, located
    error = browser.find_element(By.CSS_SELECTOR, "#p-11 div.error").text
    assert "unknown_name" in error and "unknown construction `midpiont`" in error and ":23:29" in error
    shot = tmp_path / "report.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 20_000
    assert browser.get_log("browser") == []


def test_the_same_bytes_every_time(results: Path, page: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.html"
    assert main(["report", str(results), "-o", str(again), "--jobs", "2"]) == 0
    assert again.read_bytes() == page.read_bytes()
    text = page.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    assert not re.search(r"""(src|href)=["']https?:""", text)


def test_prove_grade_aux_and_generated_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    iso = "a b c = iso_triangle a b c; d = midpoint d b c ? perp a d b c"
    batch = tmp_path / "grade.jsonl"
    batch.write_text("\n".join(json.dumps(i, ensure_ascii=False) for i in [
        {"problem": iso, "solution": "∵ AB = AC ∴ ∠B = ∠C\n∴ AD ⊥ BC\n"},
        {"problem": iso, "solution": {"steps": ["BD = 2CD", "AD ⊥ BC"]}},
    ]) + "\n", encoding="utf-8")
    graded = tmp_path / "graded.jsonl"
    assert main(["grade", "--batch", str(batch), "--out", str(graded)]) == 0
    capsys.readouterr()
    html = build(str(graded))
    assert html.count('<svg class="figure"') == 2  # each found again from its batch line
    assert '<span class="badge false">false</span>' in html and "graded steps" in html and "ACS / PCS / PQS" in html
    proved = tmp_path / "prove.json"
    assert main(["prove", "imo_ag_30", "--problem", "translated_imo_2000_p1", "--json"]) == 0
    proved.write_text(capsys.readouterr().out, encoding="utf-8")
    html = build(str(proved))
    assert "Proof of goal: perp m n m p" not in html and "Proof of goal: cong e p e q (53 steps)" in html
    assert "goals (prove)" in html and "1 solved" in html
    generated = tmp_path / "generated.jsonl"
    generated.write_text(json.dumps({
        "id": "g0", "kind": "mcq", "seed": 3, "premise": "a b c = triangle a b c; d = midpoint d a b; "
                                                          "e = midpoint e a c",
        "options": {"A": "para d e b c", "B": "perp d e b c"}, "answer": ["A"],
        "proofs": {"A": "* Proof steps:\n001. ... ⇒ DE ∥ BC [05]\n"}}) + "\n", encoding="utf-8")
    html = build(str(generated))
    assert html.count('<svg class="figure"') == 2 and '<span class="badge key">key</span>' in html
    assert "generated problems" in html and "Proof of A: para d e b c (1 steps)" in html


def test_an_algebraic_proof_shows_its_certificate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An option proved by the algebra has no synthetic proof: the page shows
    its certificate and non-degeneracy conditions, as `geodsl prove` prints them."""
    name = "examples/complete2/unsolved/complete_014_7_Book_00EE_07_E057-41.gex"
    out = tmp_path / "algebra.jsonl"
    assert main(["check", "jgex_ag_231", "--problem", name, "--method", "algebra", "--proofs", "--out", str(out)]) == 0
    capsys.readouterr()
    html = build(str(out))
    assert "Algebraic proof of goal: cong j d d i" in html
    assert "proved (algebra: coordinates), certificate checked" in html
    assert "the two lines that fix d meet in one point [D0]" in html


@pytest.mark.parametrize("content, message", [
    ("", ": error: {path} is empty: no records"),
    ('{"a": 1}\nnot json\n', ":2:1: error: line 2 is not JSON: Expecting value"),
    ('[1, 2]', ": error: item 0 of the array is not a JSON object"),
    ('"text"', ":1: error: line 1 is not a JSON object"),
])
def test_bad_results_are_located_errors(content: str, message: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    assert main(["report", str(path), "-o", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert message.format(path=path) in err and "Traceback" not in err


def test_flag_errors(tmp_path: Path, results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(results), "-o", str(results)]) == 2
    assert f"geodsl: error: -o {results}: that is RESULTS itself" in capsys.readouterr().err
    assert main(["report", str(results), "--figures", "-1"]) == 2
    assert "--figures -1: the number of records with figures is a whole number from 0" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["report", str(results), "-o", str(tmp_path / "none.html"), "--figures", "0"]) == 0
    assert '<svg class="figure"' not in (tmp_path / "none.html").read_text(encoding="utf-8")
