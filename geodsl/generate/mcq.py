"""One GeoChallenge-style multiple-answer question from a seed and an
index: sample → saturate → choose true options → simplify → distractors →
verify with ``geodsl check`` → text, difficulty, figure.

Everything is a function of ``(seed, index, settings)``: the sampler's
draws, the realizer's seeds and the counterexample seeds are derived from
them (:func:`derive`), so a question does not depend on which process made
it or on the questions made before it. A candidate that cannot become a
question says why (:data:`REASONS`); it is never retried.

The last gate is :func:`geodsl.checker.options.check_problem` on the
question parsed back from its ``.gdl`` text, with the defaults of ``geodsl
check`` (seed 0, 3 diagrams, 30 s): every true option must be ``proved`` by
deduction, every distractor ``false``, and the key must agree — so
``geodsl check problems.gdl`` agrees with every key it writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..budget import Budget
from ..checker.options import check_problem
from ..ddar import Closure, closure
from ..ddar.engine import premise_predicates
from ..ddar.prover import DDARProver
from ..lang.ast import Predicate, Problem
from ..lang.errors import GeoDSLError
from ..lang.notation import to_notation
from ..lang.parser import parse, parse_problem
from ..proofs import Result
from ..realizer import Diagrams, realize
from ..realizer.rng import Random
from . import difficulty
from .dedup import Question
from .outcome import Outcome
from .distractors import Distractor, candidates as distractor_candidates, select
from .options import Conclusion, choose, conclusions, kept_constructions, used_by_proofs
from .sampling import point_name, sample_premise
from .text import option_texts, premise_text, question_text

LABELS = "ABCD"
CLOSURE_SECONDS = 10.0
"""Budget of the saturation of a sampled premise."""
CHECK_SECONDS = 30.0
"""The final check's budget: ``geodsl check``'s default."""

REASONS = ("closure_budget", "no_conclusion", "configuration_dependent", "too_few_distractors", "unrealizable",
           "unworded", "not_simplified",
           "key_disagrees", "unproved_after_simplification", "duplicate")
"""Why a candidate was not made a question (``duplicate`` is decided by the run)."""


@dataclass(frozen=True)
class Settings:
    """What a run asks of every question."""

    depth: int = 3
    langs: tuple[str, ...] = ("en", "zh")
    diagrams: int = 3
    """K: the independent diagrams every distractor is false in."""


def derive(seed: int, index: int, purpose: int) -> int:
    """A 63-bit seed for one purpose of one candidate."""
    state = np.random.SeedSequence([seed, index, purpose]).generate_state(2, dtype=np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


class _Recording(DDARProver):
    """The ``ddar`` prover, keeping the closure it ran (for the facts' depths)."""

    last: Closure | None = None

    def saturate(self, *args: Any, **kwargs: Any) -> Closure:
        self.last = super().saturate(*args, **kwargs)
        return self.last


def _depths(c: Closure) -> list[int]:
    """The longest chain of steps from the premise to each fact."""
    out: list[int] = []
    for f in c.facts:
        out.append(0 if f.rule == "premise" else 1 + max((out[p] for p in f.parents), default=0))
    return out


def _renamed(p: Predicate, names: dict[str, str]) -> Predicate:
    return Predicate(p.name, tuple(names.get(a, a) if isinstance(a, str) else a for a in p.args), p.negated)


def make(seed: int, index: int, settings: Settings, ident: str) -> Outcome:
    """Candidate ``index`` of the run seeded ``seed`` (module docstring)."""
    rng = Random(np.random.SeedSequence([seed, index, 1]))
    sampled = sample_premise(rng, settings.depth, derive(seed, index, 2))
    out = Outcome(index, clause_rejections=dict(sampled.rejections), sampled_depth=sampled.depth,
                  families=sorted({f for fs in sampled.families for f in fs}), clauses=len(sampled.constructions))
    full = parse_problem(sampled.text())
    try:  # the sampler realized one diagram; the closure reads five
        c0 = closure(full, seed=derive(seed, index, 3) % 2**32, budget=Budget(seconds=CLOSURE_SECONDS),
                     harvest_facts=True)
    except GeoDSLError:
        out.reason = "unrealizable"
        return out
    if c0.status == "budget":
        out.reason = "closure_budget"
        return out
    found = conclusions(c0)
    if not found:
        out.reason = "no_conclusion"
        return out
    wanted = 1 + rng.index(len(LABELS))
    chosen = choose(found, wanted, rng)
    cx_seed = derive(seed, index, 4)
    # A conclusion can hold in one configuration of the premise only (which
    # intersection of a line and a circle): keep the options true in all K
    # diagrams of the simplified premise, and simplify again without the others.
    for _round in range(3):
        keep = kept_constructions(full, chosen)
        kept_points = [p for i in keep for p in full.premise.constructions[i].points]
        names = {p: point_name(i) for i, p in enumerate(kept_points)}
        text_lines = [_renamed_construction(full.premise.constructions[i].to_text(), names) for i in keep]
        simplified = parse_problem("; ".join(text_lines))
        try:
            cx = realize(simplified, seed=cx_seed, diagrams=settings.diagrams)
        except GeoDSLError:
            out.reason = "unrealizable"
            return out
        holding = [c for c in chosen if all(d.holds(_renamed(c.predicate, names)) for d in cx)]
        if len(holding) == len(chosen):
            break
        if not holding:
            out.reason = "configuration_dependent"
            return out
        chosen = holding
    else:
        out.reason = "configuration_dependent"
        return out
    out.families = sorted({f for i in keep for f in sampled.families[i]})
    # Distractors come from the other conclusions over the kept points first.
    chosen_keys = {c.fact for c in chosen}
    inside = [c for c in conclusions(c0, min_steps=1) if all(str(p) in names for p in c.predicate.points)]
    others = [c.predicate for c in inside if c.fact not in chosen_keys]
    pool = distractor_candidates(others, rng) + [
        d for d in distractor_candidates([c.predicate for c in chosen], rng) if d.kind != "negation"]
    true_options = [_renamed(c.predicate, names) for c in chosen]
    need = len(LABELS) - len(true_options)

    def is_false(p: Predicate) -> bool:
        q = _renamed(p, names)
        return not any(d.holds(q) for d in cx)

    picked, refused = select(pool, need, is_false, c0.proves, [c.predicate for c in chosen])
    out.distractor_refusals = refused
    if len(picked) < need:
        out.reason = "too_few_distractors"
        return out
    # Shuffle the options into A-D with the candidate's own draws.
    entries: list[tuple[Predicate, bool, Distractor | None]] = [(p, True, None) for p in true_options]
    entries += [(_renamed(d.predicate, names), False, d) for d in picked]
    order = list(range(len(entries)))
    for i in range(len(order) - 1, 0, -1):
        j = rng.index(i + 1)
        order[i], order[j] = order[j], order[i]
    options = {LABELS[k]: entries[i] for k, i in enumerate(order)}
    answer = "".join(label for label, (_, true, _) in options.items() if true)
    # Verify with geodsl check; if its proofs leave a construction unused
    # (the check's closure found shorter proofs than the sampled premise's),
    # simplify again, verify again: the premise written is exactly what the
    # options and their proofs need.
    for _pass in range(3):
        gdl = _gdl(ident, seed, index, text_lines, {k: v[0] for k, v in options.items()}, answer)
        (problem,) = parse(gdl)
        prover = _Recording(seed=0)
        check = check_problem(problem, seed=0, diagrams=3, timeout=CHECK_SECONDS, with_proofs=True,
                              prover=prover)
        if check.status != "ok" or not check.key_consistent:
            out.reason = "key_disagrees"
            return out
        verdicts = {v.label: v for v in check.options}
        if any(verdicts[k].proof_kind != "deduction" for k, (_, true, _) in options.items() if true):
            out.reason = "unproved_after_simplification"
            return out
        proofs_now = [verdicts[k].proof for k, (_, true, _) in options.items() if true]
        needed = used_by_proofs(problem, [p for p in proofs_now if p is not None], [v[0] for v in options.values()])
        if len(needed) == len(problem.premise.constructions):
            break
        again = {p: point_name(i) for i, p in enumerate(
            q for j in needed for q in problem.premise.constructions[j].points)}
        text_lines = [_renamed_construction(problem.premise.constructions[j].to_text(), again) for j in needed]
        options = {k: (_renamed(p, again), true, d) for k, (p, true, d) in options.items()}
        names = {old: again[new] for old, new in names.items() if new in again}
        kept_points = [p for p in kept_points if p in names]
        try:
            cx = realize(parse_problem("; ".join(text_lines)), seed=cx_seed, diagrams=settings.diagrams)
        except GeoDSLError:
            out.reason = "unrealizable"
            return out
        if any(not all(d.holds(p) for d in cx) if true else any(d.holds(p) for d in cx)
               for p, true, _ in options.values()):
            out.reason = "configuration_dependent"
            return out
    else:
        out.reason = "not_simplified"
        return out
    figure = realize(problem, seed=0, diagrams=1)[0]
    try:
        texts = {lang: premise_text(problem, lang) for lang in settings.langs}
    except GeoDSLError:
        out.reason = "unworded"
        return out
    option_words: dict[str, dict[str, str]] = {lang: {} for lang in settings.langs}
    for label, (p, _, _) in options.items():
        worded, fell_back = option_texts(p, figure, settings.langs)
        out.notation_fallbacks += fell_back
        for lang in settings.langs:
            option_words[lang][label] = worded[lang]
    assert prover.last is not None  # the check ran the prover: some option is true
    steps = 0
    proofs: dict[str, str] = {}
    facts = []
    for label, (p, true, _) in options.items():
        if not true:
            continue
        proof = verdicts[label].proof
        assert proof is not None
        proofs[label] = proof.to_text()
        steps += len(proof.steps)
        facts.append(prover.last.find(p))
    depth_of = _depths(prover.last)  # after find(), which may add the facts a chase proves
    search = max((depth_of[f.id] for f in facts if f is not None), default=0)
    english = "en" in settings.langs
    description = (texts["en"] + " " + " ".join(option_words["en"].values())) if english else texts[settings.langs[0]]
    indicators = {"description_length": len(description), "premise_length": len(problem.premise.constructions),
                  "points": len(problem.premise.points), "search_depth": search, "proof_length": steps}
    record: dict[str, object] = {
        "id": ident,
        "kind": "mcq",
        "seed": seed,
        "index": index,
        "premise": problem.premise.to_text(),
        "formal_text": full.premise.to_text(),
        "used_points": kept_points,
        "premises": [f"{to_notation(p)} [{i:02d}]" for i, p in enumerate(premise_predicates(problem))],
        "options": {k: v[0].to_text() for k, v in options.items()},
        "notation": {k: to_notation(v[0]) for k, v in options.items()},
        "answer": list(answer),
        "text": {lang: {"premise": texts[lang], "options": option_words[lang],
                        "question": question_text(texts[lang], option_words[lang], lang)}
                 for lang in settings.langs},
        "difficulty": {"score": difficulty.score(indicators), "level": None, "indicators": indicators},
        "proofs": proofs,
        "counterexamples": {k: cx_seed for k, (_, true, _) in options.items() if not true},
        "distractors": {k: {"kind": d.kind, "from": _renamed(d.source, names).to_text()}
                        for k, (_, _, d) in options.items() if d is not None},
        "depth": {"sampled": sampled.depth, "premise": _premise_depth(problem)},
        "families": out.families,
        "figure": f"figures/{ident}.png",
        "figure_svg": f"figures/{ident}.svg",
    }
    from ..realizer.render import figure_bytes

    annotate = [p for p, _, _ in options.values()]
    out.figures = {"png": figure_bytes(figure, "png", caption="", annotate=annotate),
                   "svg": figure_bytes(figure, "svg", caption="", annotate=annotate)}
    out.record = record
    out.gdl = gdl
    out.question = Question.of(problem, {k: v[1] for k, v in options.items()})
    return out


def _renamed_construction(text: str, names: dict[str, str]) -> str:
    """A construction's text with its points renamed (words that are point names)."""
    head, _, body = text.partition(" = ")
    words = body.replace(",", " ,").split()
    renamed = " ".join(names.get(w, w) for w in words).replace(" ,", ",")
    return " ".join(names[p] for p in head.split()) + " = " + renamed


def _premise_depth(problem: Problem) -> int:
    """Layers of the premise: the longest chain of constructions each using the one before."""
    owner: dict[str, int] = {}
    depth: list[int] = []
    for i, c in enumerate(problem.premise.constructions):
        uses = [owner[a] for cl in c.clauses for a in cl.args if isinstance(a, str) and a in owner]
        depth.append(1 + max((depth[j] for j in uses), default=-1))
        for p in c.points:
            owner[p] = i
    return max(depth)


def _gdl(ident: str, seed: int, index: int, lines: Sequence[str], options: dict[str, Predicate],
         answer: str) -> str:
    out = [f"problem: {ident}", "@source: geodsl generate", f"@seed: {seed}", f"@index: {index}", *lines]
    out += [f"option {label}: {p.to_text()}" for label, p in options.items()]
    out.append(f"answer: {answer}")
    return "\n".join(out) + "\n"
