"""Reading a model's solution (or a prover's proof) into steps.

A solution comes in one of four formats, chosen by :func:`detect_format`
from its shape (never from the symbols inside a statement):

============== ==============================================================
``json``       GeoLaux's answer format, ``{"steps": ["...", ...], "answer": ...}``
``alphageometry`` a pasted AlphaGeometry (or geodsl) proof: ``* From theorem
               premises:`` facts ``[NN]``, ``* Auxiliary Constructions:``,
               ``* Numerical checks:`` ``[N0]``, then steps
               ``NNN. fact [NN] & fact [NN] (rule) ⇒ conclusion [NN]``
``newclid``    a pasted Newclid 3 proof: ``[C0] : fact`` assumptions,
               ``[N0] : fact`` numerical checks, then steps
               ``000. | fact [C0], fact [1] =(r51 Label)> conclusion [2]``
``text``       one step per line, numbered (``1.``, ``Step 2:``, ``(3)``,
               ``①``) or not; a last ``Answer: ...`` line is the answer
============== ==============================================================

The notation dialect of the statements follows from the format: a pasted
AlphaGeometry proof is read in ``alphageometry``, a Newclid proof in
``newclid``, model solutions (``json``, ``text``) in ``textbook`` — unless
the caller names one.

In a pasted proof the numbered deduction steps are the steps; its premises
(assumptions) and numerical checks are :class:`Cited` facts the steps refer
to by reference, not steps. In a worded step, the text after ``∵``/"because"
is the step's reason (facts it relies on) and the text after ``∴``/"so" its
claims; :func:`split_claims` cuts a sentence into the statements it makes.

Everything here is text handling, bounded in size: a solution is untrusted
model output and is never evaluated.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from geodsl.lang.errors import LimitError, SyntaxErrorGDL

FORMATS = ("text", "json", "alphageometry", "newclid")
NOTATION_OF_FORMAT = {"text": "textbook", "json": "textbook", "alphageometry": "alphageometry",
                      "newclid": "newclid"}

MAX_SOLUTION_CHARS = 200_000
MAX_STEPS = 2_000


@dataclass(frozen=True)
class Cited:
    """A fact a pasted proof states before its steps: a premise
    (assumption) or a numerical check, with its reference."""

    ref: str
    text: str
    kind: str  # "premise" | "check"
    line: int


@dataclass(frozen=True)
class SolutionStep:
    """One step as written.

    ``claims`` are the statements the step makes (each a piece of text to
    read), ``because`` the statements it gives as its reason (worded
    ``∵`` parts), ``cites`` the references it cites (pasted proofs; None when
    the step cites nothing by reference), ``ref`` the reference of its
    conclusion, ``rule`` the rule or reason it names, ``construction`` an
    auxiliary construction the step makes (in the language), ``unread``
    pieces of text that state nothing the reader knows how to split."""

    index: int
    text: str
    line: int
    claims: tuple[str, ...] = ()
    because: tuple[str, ...] = ()
    cites: tuple[str, ...] | None = None
    cite_texts: tuple[str, ...] = ()
    """The statement written beside each citation (``AB ⟂ CD [03]``)."""
    ref: str | None = None
    rule: str | None = None
    construction: str | None = None
    joins: tuple[str, ...] = ()
    """Segments a "connect AB" step draws (no new point)."""
    unmakeable: str | None = None
    """Why the construction a worded step reads as cannot be made (two
    parallel lines asked to meet, ...), when it cannot."""


@dataclass(frozen=True)
class Solution:
    """A solution: its steps, its stated answer, its format and notation,
    and (pasted proofs) the facts and constructions it states before its steps."""

    format: str
    notation: str
    steps: tuple[SolutionStep, ...]
    answer: str | None = None
    cited: tuple[Cited, ...] = ()
    auxiliary: tuple[str, ...] = ()
    source: str = "<solution>"
    raw: str = field(default="", repr=False)


class SolutionError(SyntaxErrorGDL):
    """A solution that cannot be read at all (not a step in it: such a step is ``undecided``)."""


# ------------------------------------------------------------------ formats

_AG_STEP = re.compile(r"^\s*(\d{1,4})\.\s*(.*?)⇒\s*(.*?)\s*$")
_NC_STEP = re.compile(r"^\s*(\d{1,4})\.\s*\|\s*(.*?)\s*=\((.*?)\)>\s*(.*?)\s*$")
_REFERENCED = re.compile(r"^(.*?)\s*\[([A-Za-z]?\d+)\]\s*$")
_NC_CITED = re.compile(r"^\s*\[([A-Z]\d+)\]\s*:\s*(.*?)\s*$")


def detect_format(text: str) -> str:
    """The format of a solution, from its shape (module docstring)."""
    stripped = text.lstrip("\ufeff").strip()
    if stripped.startswith("{"):
        return "json"
    lines = stripped.splitlines()
    if any(_NC_STEP.match(line) for line in lines):
        return "newclid"
    if any(_AG_STEP.match(line) for line in lines) or "* Proof steps:" in stripped:
        return "alphageometry"
    return "text"


def read_solution(solution: str | dict[str, object], *, format: str | None = None,
                  notation: str | None = None, source: str = "<solution>") -> Solution:
    """A solution (text, or an already decoded JSON object) as steps.

    Raises :class:`SolutionError` (located) for a solution that cannot be read:
    bad JSON, a JSON object without a list of steps, an unknown format, too
    large a text."""
    if isinstance(solution, dict):
        return _from_json(solution, source, notation, json.dumps(solution, ensure_ascii=False))
    if len(solution) > MAX_SOLUTION_CHARS:
        raise LimitError(f"solution is {len(solution):,} characters; the limit is {MAX_SOLUTION_CHARS:,}",
                         source=source, line=1, column=1, text="", hint="grade one solution at a time")
    text = solution.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    chosen = detect_format(text) if format is None else format
    if chosen not in FORMATS:
        raise SolutionError(f"unknown solution format `{chosen}`", source=source, text=chosen,
                            hint="formats: " + ", ".join(FORMATS))
    if chosen == "json":
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SolutionError(f"the solution is not valid JSON: {exc.msg}", source=source, line=exc.lineno,
                                column=exc.colno, text=text[exc.pos:exc.pos + 10],
                                source_line=text.splitlines()[exc.lineno - 1] if text.splitlines() else None,
                                hint='write {"steps": ["...", "..."], "answer": "..."}') from None
        if not isinstance(value, dict):
            raise SolutionError("a JSON solution is an object", source=source, line=1, column=1, text=text[:10],
                                hint='write {"steps": ["...", "..."], "answer": "..."}')
        return _from_json(value, source, notation, text)
    reader = {"text": _from_text, "alphageometry": _from_alphageometry, "newclid": _from_newclid}[chosen]
    steps, answer, cited, aux = reader(text, source)
    if len(steps) > MAX_STEPS:
        raise LimitError(f"solution has {len(steps):,} steps; the limit is {MAX_STEPS:,}", source=source,
                         line=1, column=1, text="", hint="grade one solution at a time")
    return Solution(chosen, notation or NOTATION_OF_FORMAT[chosen], tuple(steps), answer, tuple(cited),
                    tuple(aux), source, text)


def _from_json(value: dict[str, object], source: str, notation: str | None, raw: str) -> Solution:
    steps = value.get("steps")
    if not isinstance(steps, list) or not all(isinstance(s, (str, dict)) for s in steps):
        raise SolutionError("a JSON solution has `steps`, a list of strings", source=source, line=1, column=1,
                            text="steps", hint='write {"steps": ["...", "..."], "answer": "..."}')
    if len(steps) > MAX_STEPS:
        raise LimitError(f"solution has {len(steps):,} steps; the limit is {MAX_STEPS:,}", source=source,
                         line=1, column=1, text="", hint="grade one solution at a time")
    out = []
    for i, item in enumerate(steps, start=1):
        text = item if isinstance(item, str) else str(item.get("text", item.get("step", "")))
        out.append(worded_step(i, text, i))
    answer = value.get("answer")
    return Solution("json", notation or "textbook", tuple(out),
                    None if answer is None else str(answer), (), (), source, raw)


# --- plain text

_NUMBERING = re.compile(r"^\s*(?:(?:step|Step|STEP|第)\s*\d+\s*(?:步)?\s*[:：.、)]?|\(?\d{1,3}[.)、:：]|\(\d{1,3}\)|"
                        r"[①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳])\s*")
_ANSWER = re.compile(r"^\s*(?:\*\*)?(?:final\s+answer|answer|答案|答)\s*(?:\*\*)?\s*(?:is|[:：=])\s*(.+?)\s*$",
                     re.IGNORECASE)


def _from_text(text: str, source: str) -> tuple[list[SolutionStep], str | None, list[Cited], list[str]]:
    steps: list[SolutionStep] = []
    answer = None
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        found = _ANSWER.match(line)
        if found:
            answer = found.group(1).rstrip(".。")
            continue
        body = _NUMBERING.sub("", line, count=1).strip()
        if body:
            steps.append(worded_step(len(steps) + 1, body, number))
    return steps, answer, [], []


# --- AlphaGeometry

def _split_referenced(text: str, separator: str) -> list[tuple[str, str]] | None:
    """``fact [r] & fact [r]`` (or ``, ``) as (fact, ref) pairs; None if a piece has no reference."""
    out: list[tuple[str, str]] = []
    rest = text.strip()
    pattern = re.compile(r"^(.*?)\s*\[([A-Za-z]?\d+)\]\s*(?:" + re.escape(separator.strip()) + r"\s*|$)")
    while rest:
        m = pattern.match(rest)
        if m is None:
            return None
        out.append((m.group(1).strip(), m.group(2)))
        rest = rest[m.end():].strip()
    return out


def _from_alphageometry(text: str, source: str) -> tuple[list[SolutionStep], str | None, list[Cited], list[str]]:
    steps: list[SolutionStep] = []
    cited: list[Cited] = []
    aux: list[str] = []
    section = "premises"
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        lowered = stripped.lower()
        if stripped.startswith("*") or stripped.startswith("=="):
            if "premise" in lowered:
                section = "premises"
            elif "auxiliary" in lowered:
                section = "auxiliary"
            elif "numerical" in lowered:
                section = "checks"
            elif "proof" in lowered:
                section = "steps"
            continue
        if stripped.endswith(": Points") or stripped.endswith(":Points"):
            continue  # AlphaGeometry's `A B C : Points` declarations
        step = _AG_STEP.match(line)
        if step is not None:
            steps.append(_ag_step(len(steps) + 1, step, line, number))
            section = "steps"
            continue
        referenced = _REFERENCED.match(stripped)
        if section == "auxiliary" and (referenced is None or "=" in stripped.split("[")[0] and
                                       re.match(r"^[a-z][a-z0-9_']*(\s+[a-z][a-z0-9_']*)*\s*=", stripped)):
            aux.append(stripped)
            continue
        if referenced is not None:
            kind = "check" if referenced.group(2).startswith("N") else "premise"
            cited.append(Cited(referenced.group(2), referenced.group(1), kind, number))
            continue
        if section == "steps":
            steps.append(SolutionStep(len(steps) + 1, stripped, number, claims=(stripped,)))
    return steps, None, cited, aux


def _ag_step(index: int, m: re.Match[str], line: str, number: int) -> SolutionStep:
    body, conclusion = m.group(2).strip(), m.group(3).strip()
    rule = None
    label = re.search(r"\(([^()]*(?:\([^()]*\)[^()]*)?)\)\s*$", body)
    if label is not None and not re.search(r"\[[A-Za-z]?\d+\]\s*$", body[label.start():]):
        rule = label.group(1).strip()
        body = body[:label.start()].strip()
    pairs = _split_referenced(body, "&") if body else []
    ref = None
    concl = _REFERENCED.match(conclusion)
    if concl is not None:
        conclusion, ref = concl.group(1).strip(), concl.group(2)
    cites = None if pairs is None else tuple(r for _, r in pairs)
    texts = () if pairs is None else tuple(t for t, _ in pairs)
    return SolutionStep(index, line.strip(), number, claims=(conclusion,), cites=cites, cite_texts=texts,
                        ref=ref, rule=rule)


# --- Newclid

def _from_newclid(text: str, source: str) -> tuple[list[SolutionStep], str | None, list[Cited], list[str]]:
    steps: list[SolutionStep] = []
    cited: list[Cited] = []
    aux: list[str] = []
    section = ""
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            lowered = stripped.lower()
            section = ("assumptions" if "assumption" in lowered else "checks" if "numerical" in lowered else
                       "proof" if lowered.startswith("# proof") else
                       "appendix" if "appendix" in lowered else "auxiliary" if "auxiliary" in lowered else
                       "other")
            continue
        if section == "appendix" or stripped.startswith("End of proof"):
            continue
        step = _NC_STEP.match(line)
        if step is not None:
            premises, rule, conclusion = step.group(2), step.group(3), step.group(4)
            pairs = _split_referenced(premises, ",") if premises else []
            ref = None
            concl = _REFERENCED.match(conclusion)
            if concl is not None:
                conclusion, ref = concl.group(1).strip(), concl.group(2)
            steps.append(SolutionStep(len(steps) + 1, stripped, number, claims=(conclusion,),
                                      cites=None if pairs is None else tuple(r for _, r in pairs),
                                      cite_texts=() if pairs is None else tuple(t for t, _ in pairs),
                                      ref=ref, rule=rule.strip()))
            continue
        found = _NC_CITED.match(stripped)
        if found is not None and section in ("assumptions", "checks", "auxiliary"):
            kind = "check" if section == "checks" else "premise"
            cited.append(Cited(found.group(1), found.group(2), kind, number))
            continue
        if section == "auxiliary":
            aux.append(stripped)
    return steps, None, cited, aux


# ------------------------------------------------------------------ worded steps

_FULL_WIDTH = str.maketrans({"，": ",", "；": ";", "：": ":", "（": "(", "）": ")", "＝": "=", "。": ".",
                             "、": ",", "≠": "≠", "／": "/", "＋": "+", "　": " "})

_BECAUSE = re.compile(r"(?:∵|\bbecause\b|\bsince\b|\bas\b(?=\s+[A-Z△∠▲Δ])|因为|由于|由|已知)", re.IGNORECASE)
_THEREFORE = re.compile(r"(?:∴|\btherefore\b|\bhence\b|\bthus\b|\bso\b|\bwe\s+get\b|\bwe\s+have\b|"
                        r"\bit\s+follows\s+that\b|\bthen\b|\bconsequently\b|所以|故|得|则|可得|因此|于是|从而)",
                        re.IGNORECASE)
_FILLER = re.compile(r"^(?:also|and|similarly|likewise|note\s+that|clearly|obviously|in\s+fact|that\s+is|"
                     r"i\.e\.|again|又|同理|即|且|而|显然|易知|可知|其中)\s*[,:]?\s*", re.IGNORECASE)
_REASON = re.compile(r"\s*[(（]([^()（）]{1,80})[)）]\s*$")
_CONNECT = re.compile(r"^(?:connect|join|draw\s+(?:the\s+)?(?:segment|line)|连接|连结|联结)\s*"
                      r"([A-Z](?:_?\d+)?'?)\s*([A-Z](?:_?\d+)?'?)\s*(?:,|and|、|和)?\s*"
                      r"(?:([A-Z](?:_?\d+)?'?)\s*([A-Z](?:_?\d+)?'?))?\s*[.。]?$", re.IGNORECASE)
_CONSTRUCTION = re.compile(r"^(?:(?:construct|let|define|add|aux(?:iliary)?)\s*:?\s*)?"
                           r"([a-z][a-z0-9_']*(?:\s+[a-z][a-z0-9_']*)*\s*=\s*[a-z_0-9]+\b.*)$", re.IGNORECASE)
_SEPARATORS = re.compile(r"\s*(?:,|;|\band\b|且|及)\s*")


def normalize_text(text: str) -> str:
    """Full-width punctuation as ASCII, runs of blanks as one."""
    return re.sub(r"[ \t\u00a0]+", " ", text.translate(_FULL_WIDTH)).strip()


def worded_step(index: int, text: str, line: int) -> SolutionStep:
    """A step as a model writes it: its reason (``∵ ...``), its claims
    (``∴ ...``, or the whole sentence), a reason it names in parentheses, or
    an auxiliary construction it makes."""
    body = normalize_text(text)
    joined = _CONNECT.match(body)
    if joined is not None:
        points = [p for p in joined.groups() if p]
        return SolutionStep(index, text, line, joins=tuple(a + b for a, b in zip(points[::2], points[1::2])))
    formal = _CONSTRUCTION.match(body)
    if formal is not None and re.search(r"=\s*[a-z_]+[a-z0-9_]*\s+[a-z]", formal.group(1)) and \
            not re.search(r"[A-Z∠△⊥∥]", formal.group(1)):
        return SolutionStep(index, text, line, construction=formal.group(1).strip().rstrip(".;"))
    rule = None
    body = body.rstrip(" ,;.")
    reason = _REASON.search(body)
    if reason is not None:
        rule = reason.group(1).strip()
        body = body[:reason.start()].strip()
    because: list[str] = []
    claims_text = body
    cut = _THEREFORE.search(body)
    start = _BECAUSE.search(body)
    if start is not None and (cut is None or start.start() < cut.start()):
        if cut is not None:
            because = split_claims(body[start.end():cut.start()])
            claims_text = body[cut.end():]
        else:
            # "∵ P, Q" with no conclusion: a statement of reasons, which are its claims
            claims_text = body[start.end():]
    elif cut is not None:
        before = body[:cut.start()].strip(" ,;:")
        if before and not _only_filler(before):
            # "P, so Q": P is the reason
            because = split_claims(before)
        claims_text = body[cut.end():]
    claims = split_claims(claims_text)
    return SolutionStep(index, text, line, claims=tuple(claims), because=tuple(because), rule=rule)


def _only_filler(text: str) -> bool:
    return not _FILLER.sub("", text).strip(" ,;:.")


def split_claims(text: str) -> list[str]:
    """A sentence's statements: separated by commas, semicolons or "and",
    except where a statement itself holds commas (``A, B, C are collinear``),
    which the caller's reader reassembles (:func:`pieces`)."""
    text = text.strip().strip(".;:,")
    text = _FILLER.sub("", text)
    return [text] if text else []


def pieces(text: str) -> list[tuple[int, int]]:
    """The comma/semicolon/"and" pieces of one claim text as (start, end)
    spans, for a reader that tries the longest readable run of pieces first
    (a run is the text from its first piece's start to its last one's end,
    separators as written)."""
    out: list[tuple[int, int]] = []
    start = 0
    for sep in _SEPARATORS.finditer(text):
        if text[start:sep.start()].strip():
            out.append((start, sep.start()))
        start = sep.end()
    if text[start:].strip():
        out.append((start, len(text)))
    return out


__all__ = ["Cited", "FORMATS", "Solution", "SolutionError", "SolutionStep", "detect_format", "normalize_text",
           "pieces", "read_solution", "split_claims", "worded_step"]
