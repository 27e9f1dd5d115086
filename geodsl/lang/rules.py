"""The deduction rules of the DD engine, read from ``rulebase/rules.gdl``.

The rules are data written in the geodsl language (``docs/rulebase.md``,
"Rules"), read with the same grammar and the same block reader as the
construction and predicate definitions (:mod:`geodsl.lang.definitions`), so adding
a theorem is editing a text file, and a mistake in it is reported with its
file, line and column like any other input error.

A rule block::

    # Perpendiculars to one line are parallel.
    rule r00: perp a b c d; perp c d e f; ncoll a b e => para a b e f
    witness: a b c = triangle a b c; d = on_tline d c a b; e = free e; f = on_tline f e c d

The comment line directly above ``rule`` is the label printed in proofs;
premises whose predicate is a side condition are split out (the closure
checks them on the diagram instead of deriving them); the ``witness:`` line
is a premise in the geodsl language that makes every premise of the rule
true, so the rule's soundness can be tested numerically
(``tests/test_rules.py``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache

from .ast import Problem, Predicate
from .definitions import PredicateDef, _blocks, _keyword, _read_package_file, _Reader, rulebase
from .errors import GeoDSLError, Location
from .lines import Line, normalise
from .syntax import RawBody, RawLine, RawStatement, Unparsed

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Rule:
    """One deduction rule: if every premise holds (and every side condition
    holds in the diagram), every conclusion holds.

    ``premises`` are the facts the closure matches and derives;
    ``side_conditions`` are the premises whose predicate is marked
    ``side: yes`` (``ncoll``, ``sameside``, ...), checked numerically and never
    derived, kept apart so the matcher need not look them up each time.
    ``label`` is the short name printed in proofs, ``doc`` any further
    comment lines, ``witness`` the premise that realizes the rule's
    hypotheses (``None`` when read with ``witnesses=False`` or absent).
    """

    name: str
    label: str
    premises: tuple[Predicate, ...]
    side_conditions: tuple[Predicate, ...]
    conclusions: tuple[Predicate, ...]
    witness: Problem | None
    location: Location = field(compare=False)
    doc: str = field(default="", compare=False)

    @property
    def variables(self) -> tuple[str, ...]:
        """The rule's point variables, in order of first use in its premises."""
        seen: dict[str, None] = {}
        for p in self.premises + self.side_conditions:
            for a in p.points:
                seen.setdefault(a, None)
        return tuple(seen)

    def to_text(self) -> str:
        """The rule line as written in ``rules.gdl`` (premises, side conditions, conclusions)."""
        lhs = "; ".join(p.to_text() for p in self.premises + self.side_conditions)
        rhs = "; ".join(p.to_text() for p in self.conclusions)
        return f"rule {self.name}: {lhs} => {rhs}"


def _comment_lines_above(lines: list[str], number: int) -> list[str]:
    """The comment paragraph directly above 1-based line ``number``, top first."""
    out: list[str] = []
    i = number - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        out.append(lines[i].strip().lstrip("#").strip())
        i -= 1
    return out[::-1]


class _RuleReader(_Reader):
    """Reads the rule blocks of one file against the predicate definitions."""

    def __init__(self, source: str, predicates: dict[str, PredicateDef]) -> None:
        super().__init__(source)
        self.predicates = predicates

    def signature(self, st: RawStatement, line: Line) -> None:
        """A known predicate with the right number of arguments (before names are checked)."""
        words = self.flat(st, line, "a fact")
        name, column = words[0], st.head[0].column or 1
        pdef = self.predicates.get(name)
        if pdef is None:
            close = difflib.get_close_matches(name, sorted(self.predicates), n=1)
            hint = (f"did you mean `{close[0]}`?" if close
                    else "predicates are defined in rulebase/predicates.gdl")
            raise self.error(f"unknown predicate `{name}`", line, column, name, hint)
        if len(words) - 1 != pdef.arity:
            raise self.error(f"`{name}` takes {pdef.arity} arguments, got {len(words) - 1}", line,
                             column, name, f"`{name} {' '.join(pdef.params)}`")

    def facts(self, statements: list[RawStatement], line: Line, bound: set[str]) -> list[Predicate]:
        for st in statements:
            self.signature(st, line)
        return [self.predicate(st, line, bound, self.predicates) for st in statements]

    def rule_name(self, raw: RawLine, line: Line) -> tuple[str, int]:
        assert raw.head is not None
        _, words = _keyword(raw)
        column = raw.head.column or 1
        if len(words) != 1:
            raise self.error("a rule has one name", line, column, raw.head.text,
                             "write `rule r00: premises => conclusions`")
        name = words[0]
        return name, column + raw.head.text.index(name, len("rule"))

    def witness(self, raw: RawLine, line: Line, variables: tuple[str, ...],
                rule: str) -> Problem:
        """Parse the text after ``witness:`` as a problem, errors located in this file."""
        from .parser import parse_problem  # the parser imports definitions, not rules

        assert raw.head is not None
        start = (raw.head.column or 1) - 1 + len(raw.head.text)
        # Padded so that the witness's spans (and the realizer's errors) give
        # the line and column in the rules file.
        padded = "\n" * (line.number - 1) + " " * start + line.text[start:]
        try:
            problem = parse_problem(padded, self.source)
        except GeoDSLError as exc:
            raise self.error(f"in the witness of `{rule}`: {exc.message}", line,
                             exc.column or start + 1, exc.text or "",
                             exc.hint or "a witness is a premise in the geodsl language") from None
        missing = [v for v in variables if v not in problem.points]
        if missing:
            text = line.text[start:]
            raise self.error(f"the witness of `{rule}` does not construct `{missing[0]}`", line,
                             start + 1 + len(text) - len(text.lstrip()), missing[0],
                             "a witness constructs every point of the rule, under the rule's names")
        return problem


def read_rules(text: str, source: str, predicates: dict[str, PredicateDef] | None = None, *,
               witnesses: bool = True) -> dict[str, Rule]:
    """Read the rule blocks of ``text`` (a ``rules.gdl`` file), by name, in file order.

    ``predicates`` defaults to the installed ones. With ``witnesses=False``
    the ``witness:`` lines are checked to be present at most once but not
    parsed (no rulebase of constructions needed; faster when only matching).
    Raises :class:`~geodsl.lang.errors.RulebaseError`, located, for: an unknown
    predicate, a wrong number of arguments, a conclusion variable that no
    premise binds, a side condition as a conclusion, a rule without
    conclusion or without label, a duplicate rule name, an unknown keyword,
    and a witness that does not parse or does not construct the rule's points.
    """
    if predicates is None:
        predicates = rulebase().predicates
    reader = _RuleReader(source, predicates)
    physical = _LINE_BREAK.split(normalise(text))
    out: dict[str, Rule] = {}
    for block in _blocks(text, source, "rule"):
        hl, head = block.head_line, block.head
        name, name_column = reader.rule_name(head, hl)
        if name in out:
            first = out[name].location.line
            raise reader.error(f"rule `{name}` is defined twice (first on line {first})", hl,
                               name_column, name, "give every rule its own name")
        comments = _comment_lines_above(physical, hl.number)
        if not comments or not comments[0]:
            raise reader.error(f"rule `{name}` has no label", hl, name_column, name,
                               "write a one-line label as a comment directly above the rule")
        assert isinstance(head.body, RawBody), "a rule line has statements"
        body = head.body
        if body.goals is not None or body.pipe is not None:
            token = body.question or body.pipe
            assert token is not None  # one of the two is there
            raise reader.error(f"unexpected `{token.text}` in a rule", hl,
                               getattr(token, "column", 1) or 1, token.text,
                               "a rule is `premises => conclusions`")
        if not body.conclusion:
            end = len(hl.text.rstrip()) + 1
            raise reader.error(f"rule `{name}` has no conclusion", hl, end, "",
                               "write `=> conclusion` after the premises")
        bound: set[str] = set()
        for st in body.statements:
            bound.update(str(t) for t in st.head[1:])
        premises = reader.facts(body.statements, hl, bound)
        for st in body.conclusion:
            reader.signature(st, hl)
            for tok in st.head[1:]:
                if tok.type == "NAME" and str(tok) not in bound:
                    raise reader.error(f"conclusion variable `{tok}` does not occur in the premises",
                                       hl, tok.column or 1, str(tok),
                                       "every point of a conclusion must be bound by a premise")
        conclusions = reader.facts(body.conclusion, hl, bound)
        for c in conclusions:
            if predicates[c.name].side:
                assert c.span is not None
                raise reader.error(f"`{c.name}` is a side condition and cannot be concluded", hl,
                                   c.span.column, c.name,
                                   "side conditions are checked on the diagram, never derived")
        main = tuple(p for p in premises if not predicates[p.name].side)
        side = tuple(p for p in premises if predicates[p.name].side)
        if not main:
            raise reader.error(f"rule `{name}` has only side conditions as premises", hl,
                               name_column, name, "a rule needs a premise the closure can match")
        witness: Problem | None = None
        seen_witness = False
        variables = tuple(dict.fromkeys(a for p in premises for a in p.points))
        for line, raw in block.lines:
            key, _ = _keyword(raw)
            if key != "witness":
                raise reader.error(f"unknown keyword `{key}:` in a rule", line, 1, key,
                                   "a rule block takes one `witness:` line")
            if seen_witness:
                raise reader.error(f"rule `{name}` has two witnesses", line, 1, key,
                                   "keep one `witness:` line")
            seen_witness = True
            if witnesses:
                witness = reader.witness(raw, line, variables, name)
        out[name] = Rule(name, comments[0].rstrip("."), main, side, tuple(conclusions), witness,
                         Location(source, hl.number, (head.head.column or 1) if head.head else 1),
                         " ".join(comments[1:]))
    return out


@cache
def get_rules() -> dict[str, Rule]:
    """The installed rules (``rulebase/rules.gdl``), with witnesses, read once per process."""
    text, source = _read_package_file("rules.gdl")
    return read_rules(text, source, rulebase().predicates)
