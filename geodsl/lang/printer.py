"""The AST back to canonical text (per dialect) and to JSON.

Canonical text is what the parser reads back to an equal AST:
``parse(p.to_text()) == [p]``. A problem with only a premise and goals
prints in the AlphaGeometry two-line form; one with options, an answer key,
auxiliary candidates or metadata prints as a ``.gdl`` block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .constants import constant_text, decimal_text
from .definitions import rulebase
from .terms import Arg, Predicate

if TYPE_CHECKING:  # the AST's nodes call these functions: ast.py imports this module
    from .ast import AuxCandidate, Clause, Construction, Premise, Problem

__all__ = ["constant_text", "clause_text", "construction_text", "premise_text", "predicate_text",
           "problem_text", "problems_text", "problem_dict"]

# A name prints as a bare AlphaGeometry name line when the grammar reads it
# back as one; otherwise it needs `problem: NAME`.
_BARE_NAME = re.compile(r"[^\s=?:;,#@\x00-\x1f\x7f][^\n=?:;,#\x00-\x1f\x7f]*\Z")


def _arg_text(arg: Arg, dialect: str) -> str:
    return arg if isinstance(arg, str) else constant_text(arg, dialect)


def clause_text(clause: Clause, dialect: str = "alphageometry") -> str:
    name, args = clause.name, list(clause.args)
    cdef = rulebase().constructions.get(name)
    if cdef is not None:
        for d, spelled, order in cdef.dialect_spellings:
            if d == dialect:
                name, args = spelled, [clause.args[i] for i in order]
                break
    return " ".join([name, *(_arg_text(a, dialect) for a in args)])


def construction_text(construction: Construction, dialect: str = "alphageometry") -> str:
    clauses = ", ".join(clause_text(c, dialect) for c in construction.clauses)
    placed = {p: (x, y) for p, x, y in construction.placements}
    heads = [f"{p}@{decimal_text(placed[p][0])}_{decimal_text(placed[p][1])}" if p in placed else p
             for p in construction.points]
    return f"{' '.join(heads)} = {clauses}"


def premise_text(premise: Premise, dialect: str = "alphageometry") -> str:
    """The constructions joined by ``;``, the auxiliary ones after `` | ``."""
    given = "; ".join(construction_text(c, dialect) for c in premise.constructions if not c.auxiliary)
    aux = "; ".join(construction_text(c, dialect) for c in premise.constructions if c.auxiliary)
    return f"{given} | {aux}" if aux else given


def predicate_text(predicate: Predicate, dialect: str = "alphageometry") -> str:
    return predicate.to_text(dialect)


def _aux_text(aux: AuxCandidate, dialect: str) -> str:
    head = f"aux {aux.label}:" if aux.label else "aux:"
    return f"{head} " + "; ".join(construction_text(c, dialect) for c in aux.constructions)


def _header(problem: Problem, force: bool) -> list[str]:
    if problem.name is None:
        return ["problem:"] if force else []
    if _BARE_NAME.match(problem.name) and problem.name.strip() == problem.name:
        return [problem.name]
    return [f"problem: {problem.name}"]


def problem_text(problem: Problem, dialect: str = "alphageometry", *, header: bool = False) -> str:
    """``header`` forces a header line for an unnamed problem (needed when it
    follows a named one in the same file)."""
    lines = _header(problem, header)
    lines += [f"@{k}: {v}" for k, v in problem.meta]
    body = premise_text(problem.premise, dialect)
    asked = [predicate_text(g, dialect) for g in problem.goals] + [q.to_text(dialect) for q in problem.queries]
    if asked:
        body += " ? " + "; ".join(asked)
    lines.append(body)
    lines += [f"option {o.label}: {predicate_text(o.predicate, dialect)}" for o in problem.options]
    if problem.answer is not None:
        lines.append("answer: " + " ".join(problem.answer) if problem.answer else "answer:")
    lines += [_aux_text(a, dialect) for a in problem.aux]
    return "\n".join(lines)


def problems_text(problems: Sequence[Problem], dialect: str = "alphageometry") -> str:
    """Several problems as one file that parses back to the same list."""
    out: list[str] = []
    named_before = False
    for p in problems:
        out.append(problem_text(p, dialect, header=named_before or _needs_header(p)))
        named_before = named_before or p.name is not None
    return "\n".join(out) + ("\n" if out else "")


def _needs_header(problem: Problem) -> bool:
    # Without a header, the premise line must come first; a metadata line
    # before it would attach to the problem above.
    return bool(problem.meta)


def _arg_json(arg: Arg, dialect: str) -> object:
    if isinstance(arg, str):
        return arg
    return {"kind": arg.kind, "value": str(arg.value), "text": constant_text(arg, dialect)}


def _predicate_json(p: Predicate, dialect: str) -> dict[str, object]:
    return {"name": p.name, "args": [_arg_json(a, dialect) for a in p.args], "negated": p.negated,
            "text": predicate_text(p, dialect)}


def _construction_json(c: Construction, dialect: str) -> dict[str, object]:
    return {"points": list(c.points),
            "clauses": [{"name": cl.name, "args": [_arg_json(a, dialect) for a in cl.args]}
                        for cl in c.clauses],
            "auxiliary": c.auxiliary,
            "text": construction_text(c, dialect)}


def problem_dict(problem: Problem, dialect: str = "alphageometry") -> dict[str, object]:
    """The JSON object ``geodsl parse --json`` prints for a problem."""
    return {
        "name": problem.name,
        "line": problem.span.line if problem.span else None,
        "points": list(problem.points),
        "premise": [_construction_json(c, dialect) for c in problem.premise.constructions],
        "goals": [_predicate_json(g, dialect) for g in problem.goals],
        "queries": [{"name": q.name, "args": list(q.args), "text": q.to_text(dialect)}
                    for q in problem.queries],
        "options": [{"label": o.label, **_predicate_json(o.predicate, dialect)} for o in problem.options],
        "answer": list(problem.answer) if problem.answer is not None else None,
        "aux": [{"label": a.label, "constructions": [_construction_json(c, dialect) for c in a.constructions]}
                for a in problem.aux],
        "meta": dict(problem.meta),
        "text": problem_text(problem, dialect),
    }
