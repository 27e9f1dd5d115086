"""The report as one HTML document: the summary, the sortable and
filterable table, and each problem's details (figures, verdicts, proofs,
errors, graded steps). Everything is inline — CSS, JS, SVG — and a Content
Security Policy forbids the page to load anything, so it opens the same
offline, from a mail attachment or a CI artifact."""

from __future__ import annotations

import html
import statistics
from collections.abc import Sequence
from importlib import resources

from .records import Row, Statement

CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

Figures = dict[int, list[tuple[str, str | None, str | None]]]
"""Row index → (label, inline SVG or None, why not) per figure."""


def _asset(name: str) -> str:
    return resources.files("geodsl.report").joinpath(name).read_text(encoding="utf-8")


def e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _badge(word: str | None) -> str:
    if not word:
        return ""
    return f'<span class="badge {e(word.split()[0].strip(",;"))}">{e(word)}</span>'


# -- summary ---------------------------------------------------------------------------


def _count(items: Sequence[object], value: object) -> int:
    return sum(1 for i in items if i == value)


def summary_rows(rows: Sequence[Row]) -> list[tuple[str, str]]:
    """(what, value) pairs of the summary, by the kinds of records present."""
    out: list[tuple[str, str]] = []
    kinds = sorted({r.kind for r in rows})
    ok = [r for r in rows if r.status == "ok"]
    out.append(("records", f"{len(rows)} ({', '.join(f'{_count([r.kind for r in rows], k)} {k}' for k in kinds)})"))
    out.append(("ok / errors", f"{len(ok)} / {len(rows) - len(ok)}"))
    error_kinds = sorted({str((r.error or {}).get("kind")) for r in rows if r.status == "error"})
    if error_kinds:
        counts = [str((r.error or {}).get("kind")) for r in rows if r.status == "error"]
        out.append(("errors by kind", ", ".join(f"{k} {_count(counts, k)}" for k in error_kinds)))
    verdicts = [s.verdict for r in ok if r.kind == "check" for s in r.statements]
    if verdicts:
        out.append(("options (check)", f"{len(verdicts)}: " + ", ".join(
            f"{_count(verdicts, v)} {v}" for v in ("proved", "true_unproved", "false"))))
        keyed = [r.record.get("key_consistent") for r in ok if r.kind == "check"]
        if any(k is not None for k in keyed):
            out.append(("answer keys", f"{_count(keyed, True)} agree, {_count(keyed, False)} disagree"))
    proved = [r.verdict for r in ok if r.kind == "prove"]
    if proved:
        out.append(("goals (prove)", ", ".join(f"{_count(proved, v)} {w}" for v, w in (
            ("proved", "solved"), ("true_unproved", "true but not proved"), ("false", "false"),
            ("no goal", "without a goal")))))
    graded = [r.record for r in rows if r.kind == "grade"]
    if graded:
        from ..checker.metrics import geolaux_summary

        s = geolaux_summary(graded)

        def pct(key: str) -> str:
            v = s.get(key)
            return f"{100 * v:.1f}%" if isinstance(v, (int, float)) else "n/a"

        out.append(("graded solutions", f"{s['graded']} of {s['solutions']}, {s['steps']} steps"))
        out.append(("ACS / PCS / PQS", f"{pct('acs')} / {pct('pcs')} / {pct('pqs')}; ΔPCS {pct('delta_pcs')}"))
        out.append(("decided symbolically", f"{pct('decided_symbolically')}; judge calls {s['judge_calls']}"))
    aux = [r for r in ok if r.kind == "aux"]
    if aux:
        cands = [c for r in aux for c in r.record.get("candidates") or []]  # type: ignore[attr-defined]  # aux.json
        out.append(("auxiliary candidates", f"{len(cands)}: {sum(c.get('well_defined') is True for c in cands)} "
                                            f"well defined, {_count([r.verdict for r in aux], 'helps')} problems helped"))
    generated = [r for r in rows if r.kind == "generate"]
    if generated:
        out.append(("generated problems", f"{len(generated)}, {sum(len(r.statements) for r in generated)} options"))
    times = [r.seconds for r in rows if r.seconds is not None]
    if times:
        out.append(("time", f"{sum(times):.2f} s in all; median {statistics.median(times):.3f} s, "
                            f"slowest {max(times):.3f} s"))
    return out


# -- proofs ----------------------------------------------------------------------------


def proof_html(proof: dict[str, object] | str, title: str) -> str:
    """A proof object (the schemas' ``proof``) or a text proof, collapsed."""
    if isinstance(proof, str):
        lines = proof.rstrip("\n").splitlines()
        count = sum(1 for line in lines if line[:3].isdigit())
        return (f"<details class=\"proof\"><summary>{e(title)} ({count} steps)</summary>"
                f"<pre>{e(proof)}</pre></details>")
    premises = proof.get("premises") or []
    checks = proof.get("checks") or []
    steps = proof.get("steps") or []
    text: dict[str, str] = {}
    out = ["* From theorem premises:"]
    for g in premises:  # type: ignore[attr-defined]  # a list of objects (common.json proof)
        text[str(g["ref"])] = str(g["fact"])
        out.append(f"{g['fact']} [{g['ref']:02d}]" if isinstance(g["ref"], int) else f"{g['fact']} [{g['ref']}]")
    aux = proof.get("auxiliary") or []
    if aux:
        out.append("* Auxiliary Constructions:")
        out.extend(str(a) for a in aux)  # type: ignore[attr-defined]  # a list of strings
    if checks:
        out.append("* Numerical checks:")
        for c in checks:  # type: ignore[attr-defined]  # a list of objects
            text[str(c["ref"])] = str(c["fact"])
            out.append(f"{c['fact']} [{c['ref']}]")
    out.append("* Proof steps:")
    for s in steps:  # type: ignore[attr-defined]  # a list of objects
        text[str(s["ref"])] = str(s["fact"])
        cited = [f"{text.get(str(r), '?')} [{r:02d}]" for r in s["premises"]]
        cited += [f"{text.get(str(c), '?')} [{c}]" for c in s["checks"]]
        out.append(f"{s['step']:03d}. {' & '.join(cited)} ({s['label']}) ⇒ {s['fact']} [{s['ref']:02d}]")
    return (f"<details class=\"proof\"><summary>{e(title)} ({len(steps)} steps)</summary>"  # type: ignore[arg-type]  # a list
            f"<pre>{e(chr(10).join(out))}</pre></details>")


# -- one problem -----------------------------------------------------------------------


def _error_html(error: dict[str, object]) -> str:
    where = ":".join(str(error[k]) for k in ("file", "line", "column") if error.get(k) is not None)
    hint = f"<br><span class=\"muted\">hint: {e(error.get('hint'))}</span>" if error.get("hint") else ""
    return (f"<div class=\"error\"><b>{e(error.get('kind'))}</b> <code>{e(where)}</code>: "
            f"{e(error.get('message'))}{hint}</div>")


def _statements_html(statements: Sequence[Statement]) -> str:
    if not statements:
        return ""
    keyed = any(s.keyed is not None for s in statements)
    head = "<tr><th>label</th><th>statement</th><th>verdict</th>" + ("<th>key</th>" if keyed else "") + "</tr>"
    body = "".join(
        f"<tr><td>{e(s.label)}</td><td><code>{e(s.predicate)}</code></td><td>{_badge(s.verdict)}</td>"
        + (f"<td>{'✓' if s.keyed else '✗' if s.keyed is False else ''}</td>" if keyed else "") + "</tr>"
        for s in statements)
    return f"<table class=\"statements\">{head}{body}</table>"


def _steps_html(record: dict[str, object]) -> str:
    steps = record.get("steps")
    if not isinstance(steps, list) or not steps:
        return ""
    head = "<tr><th>step</th><th>text</th><th>verdict</th><th>by</th><th>error type</th><th>reason</th></tr>"
    body = "".join(
        f"<tr><td>{e(s.get('index'))}</td><td>{e(s.get('text'))}</td><td>{_badge(str(s.get('verdict')))}</td>"
        f"<td>{e(s.get('decided_by'))}</td><td>{e(s.get('error_type') or '')}</td><td>{e(s.get('reason'))}</td></tr>"
        for s in steps if isinstance(s, dict))
    scores = " · ".join(f"{k.upper()} {record[k]:.3f}" for k in ("acs", "pcs", "pqs")
                        if isinstance(record.get(k), (int, float)))
    return f"<p class=\"meta\">graded steps · {e(scores)}</p><table class=\"steps\">{head}{body}</table>"


def _figures_html(row: Row, figures: Figures) -> str:
    made = figures.get(row.index)
    if made is None:
        return ""
    parts = []
    for label, svg, why in made:
        verdict = next((s.verdict for s in row.statements if s.label == label), None)
        caption = f"{e(label)} {_badge(verdict)}"
        if svg is None:
            parts.append(f"<figure><figcaption>{caption}: {e(why)}</figcaption></figure>")
        else:
            parts.append(f"<figure>{svg}<figcaption>{caption}</figcaption></figure>")
    return f"<div class=\"figures\">{''.join(parts)}</div>"


def problem_html(row: Row, figures: Figures) -> str:
    name = row.problem or "(unnamed)"
    meta = " · ".join(x for x in (row.kind, row.file or "", f"{row.seconds:.3f} s" if row.seconds is not None else "")
                      if x)
    parts = [f"<article class=\"problem\" id=\"p-{row.index + 1}\" data-status=\"{e(row.status)}\">",
             f"<h3>{row.index + 1}. {e(name)} {_badge(row.status)} {_badge(row.verdict)}</h3>",
             f"<p class=\"meta\">{e(meta)}</p>"]
    if row.error is not None:
        parts.append(_error_html(row.error))
    parts.append(_figures_html(row, figures))
    parts.append(_statements_html(row.statements))
    for s in row.statements:
        if s.proof:
            parts.append(proof_html(s.proof, f"Proof of {s.label}: {s.predicate}"))
        elif s.certificate:
            parts.append(f"<details class=\"proof\"><summary>{e(f'Algebraic proof of {s.label}: {s.predicate}')}"
                         f"</summary><pre>{e(s.certificate)}</pre></details>")
    if row.kind == "aux":
        for c in row.record.get("candidates") or []:  # type: ignore[attr-defined]  # aux.json
            if isinstance(c, dict) and c.get("error"):
                parts.append(_error_html(c["error"]))
    if row.kind == "grade":
        parts.append(_steps_html(row.record))
    parts.append("</article>")
    return "".join(parts)


# -- the page --------------------------------------------------------------------------


def _table_html(rows: Sequence[Row]) -> str:
    head = ("<thead><tr><th class=\"num\">#</th><th>problem</th><th>kind</th><th>status</th><th>verdict</th>"
            "<th class=\"num\">statements</th><th class=\"num\">seconds</th><th>file</th></tr></thead>")
    body = []
    for r in rows:
        search = " ".join(x for x in (r.problem or "", r.kind, r.status, r.verdict, r.file or "",
                                      " ".join(s.predicate for s in r.statements),
                                      str((r.error or {}).get("message") or "")) if x).lower()
        seconds = "" if r.seconds is None else f"{r.seconds:.3f}"
        body.append(
            f"<tr data-index=\"{r.index}\" data-status=\"{e(r.status)}\" data-search=\"{e(search)}\">"
            f"<td class=\"num\">{r.index + 1}</td><td><a href=\"#p-{r.index + 1}\">{e(r.problem or '(unnamed)')}</a></td>"
            f"<td>{e(r.kind)}</td><td>{_badge(r.status)}</td><td>{e(r.verdict)}</td>"
            f"<td class=\"num\">{len(r.statements)}</td><td class=\"num\" data-value=\"{seconds or '-1'}\">{seconds}</td>"
            f"<td>{e(r.file or '')}</td></tr>")
    return f"<table id=\"table\">{head}<tbody>{''.join(body)}</tbody></table>"


def page(title: str, source: str, rows: Sequence[Row], figures: Figures) -> str:
    """The whole document. Same rows and figures, same bytes (no date in it)."""
    summary = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in summary_rows(rows))
    errors = sum(r.status == "error" for r in rows)
    cards = (f"<div class=\"cards\"><div class=\"card\"><b>{len(rows)}</b>records</div>"
             f"<div class=\"card\"><b>{len(rows) - errors}</b>ok</div><div class=\"card\"><b>{errors}</b>errors</div>"
             f"<div class=\"card\"><b>{sum(len(v) for v in figures.values())}</b>figures</div></div>")
    controls = ("<div class=\"controls\"><input id=\"filter\" type=\"search\" "
                "placeholder=\"filter: words of a name, verdict, statement, file…\" aria-label=\"filter\">"
                "<select id=\"status\" aria-label=\"status\"><option value=\"\">every status</option>"
                "<option value=\"ok\">ok</option><option value=\"error\">error</option></select>"
                "<span id=\"shown\" class=\"muted\"></span></div>")
    details = "".join(problem_html(r, figures) for r in rows)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{e(title)}</title><style>{_asset('report.css')}</style></head><body>"
            f"<header><h1>{e(title)}</h1><p class=\"muted\">from {e(source)} · geodsl 0.1.0</p></header><main>"
            f"<section id=\"summary\"><h2>Summary</h2>{cards}<table class=\"summary\">{summary}</table></section>"
            f"<section id=\"problems\"><h2>Problems</h2>{controls}{_table_html(rows)}</section>"
            f"<section id=\"details\"><h2>Each problem</h2>{details}</section></main>"
            f"<script>{_asset('report.js')}</script></body></html>\n")
