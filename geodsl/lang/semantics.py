"""Raw syntax to a validated AST: what the text means, and whether it can.

Checks, each with its own located error (see ``docs/language.md``):
unknown construction or predicate (with "did you mean"), arity, constants,
a point used before it is constructed or constructed twice, new points that
do not match the clause, and constructions that do not fix their points
(two fixing clauses, more than two clauses, two loci that cannot meet in
one point). Numeric degeneracy (a circle through collinear points) is the
realizer's to find; everything decidable from the text is decided here.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple


from .._lalr import Tok
from .ast import Arg, AuxCandidate, Clause, Construction, Option, Predicate, Premise, Problem, Query
from .constants import ConstantSyntax, DigitLimit, read_constant, read_number
from .definitions import ConstructionDef, Rulebase, RecipeStep
from .errors import (ArityError, ConstantError, ConstructionError, GeoDSLError, LimitError,
                     Location, PointError, ProblemError, SyntaxErrorGDL, UnknownNameError)
from .limits import Limits
from .lines import Line
from .syntax import RawBody, RawLine, RawStatement, Unparsed

KEYWORDS = ("goal", "option", "answer", "aux")


class NotationText(NamedTuple):
    """An option or goal written in proof-text notation, and its column."""

    text: str
    column: int


@dataclass
class Block:
    """The lines of one problem, as grouped by :mod:`geodsl.lang.parser`."""

    name: str | None
    start: Line | None
    named: bool
    lines: list[Line] = field(default_factory=list)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=0.6)
    return close[0] if close else None


class ProblemReader:
    """Builds one :class:`Problem` from a block; raises the first error."""

    def __init__(self, rulebase: Rulebase, dialect: str, source: str | None, limits: Limits) -> None:
        self.rb = rulebase
        self.dialect = dialect
        self.lookup = rulebase.dialect_lookup(dialect)
        self.source = source
        self.limits = limits

    # -- errors ------------------------------------------------------------

    def _err(self, cls: type[GeoDSLError], message: str, line: Line, token: Tok | None,
             hint: str, text: str | None = None) -> GeoDSLError:
        column = (token.column if token is not None else None) or 1
        return cls(message, source=self.source, line=line.number, column=column,
                   text=token.text if text is None and token is not None else (text or ""),
                   hint=hint, source_line=line.text)

    def _loc(self, line: Line, token: Tok | None) -> Location:
        return Location(self.source, line.number, (token.column if token is not None else None) or 1)

    # -- problem -------------------------------------------------------------

    def read(self, block: Block) -> Problem:
        constructed: dict[str, Location] = {}
        constructions: list[Construction] = []
        deferred_goals: list[tuple[RawStatement | NotationText, Line]] = []
        deferred_options: list[tuple[str, Tok, RawStatement | NotationText, Line]] = []
        deferred_aux: list[tuple[str | None, Tok, list[RawStatement], Line]] = []
        answer: tuple[list[Tok], Line, Tok] | None = None
        meta: list[tuple[str, str]] = []
        statements = 0
        pipe: tuple[Line, Tok] | None = None  # the `|` that starts the auxiliary constructions
        for line in block.lines:
            raw = line.parsed
            if isinstance(raw, GeoDSLError):
                raise raw
            if raw.kind == "meta":
                key, _, value = _head(raw).text[1:].partition(":")
                meta.append((key.strip(), value.strip()))
                continue
            if raw.kind == "content":
                body = raw.body
                assert isinstance(body, RawBody), "a content line has statements"
                if body.conclusion is not None:
                    raise self._err(SyntaxErrorGDL, "`=>` is only used in rule files", line,
                                    body.conclusion[0].head[0], "a problem line is `premise ? goal`")
                statements += len(body.statements) + len(body.goals or ()) + len(body.aux or ())
                self._check_size(statements, len(constructed), line)
                for st in body.statements:
                    part = "premise" if pipe is None else "auxiliary"
                    constructions.append(self.construction(st, line, constructed, part))
                if body.pipe is not None:
                    self._check_pipe(body.pipe, body.aux, pipe, bool(constructions), line)
                    pipe = (line, body.pipe)
                    for st in body.aux or ():
                        constructions.append(self.construction(st, line, constructed, "auxiliary"))
                if body.goals is not None:
                    if not body.goals:
                        raise self._err(ProblemError, "no goal after `?`", line, body.question,
                                        "write the goal after `?`: `? perp a b c d`")
                    deferred_goals.extend((st, line) for st in body.goals)
                continue
            if raw.kind == "unparsed":
                # Not the DSL: an option or goal may be in proof-text notation.
                key, words = _keyword(raw)
                unparsed = raw.body
                assert isinstance(unparsed, Unparsed)
                notation = NotationText(unparsed.text, unparsed.column)
                if key == "option" and len(words) == 1:
                    deferred_options.append((words[0], _head(raw), notation, line))
                elif key == "goal" and not words:
                    deferred_goals.append((notation, line))
                else:
                    raise unparsed.error
                continue
            if raw.kind != "keyword":
                continue
            key, words = _keyword(raw)
            body = raw.body
            assert isinstance(body, RawBody), "a keyword line of the DSL has statements"
            if body.pipe is not None:
                hint = ("an `aux:` line lists candidate constructions: separate them with `;`"
                        if key == "aux" else
                        "`|` separates a problem line's premise from the auxiliary constructions it "
                        "gives: `premise | aux ? goal`")
                article = "an" if key[0] in "aeiou" else "a"
                raise self._err(SyntaxErrorGDL, f"unexpected `|` in {article} `{key}:` line", line,
                                body.pipe, hint)
            if body.goals is not None or body.conclusion is not None:
                tok = body.question or (body.conclusion[0].head[0] if body.conclusion else raw.head)
                raise self._err(SyntaxErrorGDL, f"unexpected `{tok}` in a `{key}:` line", line, tok,
                                f"a `{key}:` line holds statements only")
            statements += len(body.statements)
            self._check_size(statements, len(constructed), line)
            if key == "goal" and not words:
                if not body.statements:
                    raise self._err(ProblemError, "`goal:` without a goal", line, raw.head,
                                    "write `goal: perp a b c d`")
                if not self._is_dsl_predicate(body.statements[0]):
                    deferred_goals.append((self._notation_of(raw, line), line))
                else:
                    deferred_goals.extend((st, line) for st in body.statements)
            elif key == "option" and len(words) == 1:
                if body.statements and not self._is_dsl_predicate(body.statements[0]):
                    # Worded notation ("AD is parallel to IJ") also lexes as DSL words.
                    deferred_options.append((words[0], _head(raw), self._notation_of(raw, line), line))
                    continue
                if len(body.statements) != 1:
                    raise self._err(ProblemError, f"option {words[0]} must hold exactly one statement",
                                    line, raw.head, "one predicate per option: `option A: perp a b c d`")
                deferred_options.append((words[0], _head(raw), body.statements[0], line))
            elif key == "answer" and not words:
                if answer is not None:
                    raise self._err(ProblemError, "a second `answer:` line", line, raw.head,
                                    f"the first is on line {answer[1].number}; keep one")
                tokens = [t for st in body.statements for t in self._flat(st, line, "an answer")]
                answer = (tokens, line, _head(raw))
            elif key == "aux" and len(words) <= 1:
                if not body.statements:
                    raise self._err(ProblemError, "`aux:` without a construction", line, raw.head,
                                    "write `aux: e = foot e a b c`")
                deferred_aux.append((words[0] if words else None, _head(raw), body.statements, line))
            else:
                raise self._unknown_keyword(key, words, line, raw)
        if not constructions:
            where = block.start or (block.lines[0] if block.lines else None)
            if where is None:
                raise ProblemError("empty problem", source=self.source, hint="add a premise")
            raise ProblemError(
                f"problem {block.name or ''} has no premise".replace("  ", " "), source=self.source,
                line=where.number, column=1, text=where.text.strip(), source_line=where.text,
                hint="a premise is one or more constructions such as `a b c = triangle a b c`")
        asked = [g for st, line in deferred_goals for g in self._goal_predicates(st, line, constructed)]
        goals = tuple(g for g in asked if isinstance(g, Predicate))
        queries = tuple(g for g in asked if isinstance(g, Query))
        options = self._options(deferred_options, constructed)
        labels = [o.label for o in options]
        keyed = self._answer(answer, labels) if answer is not None else None
        aux = tuple(self._aux(label, head, sts, line, constructed)
                    for label, head, sts, line in deferred_aux)
        start = block.start or block.lines[0]
        span = Location(self.source, start.number, 1)
        first = block.lines[0] if block.lines else start
        return Problem(block.name, Premise(tuple(constructions), Location(self.source, first.number, 1)),
                       goals, options, keyed, aux, tuple(meta), span, queries)

    def _check_pipe(self, tok: Tok, aux: list[RawStatement] | None, earlier: tuple[Line, Tok] | None,
                    has_premise: bool, line: Line) -> None:
        """A `|` needs the premise before it, constructions after it, and no other `|`."""
        if earlier is not None:
            first, first_tok = earlier
            raise self._err(ProblemError, "a second `|` in one problem", line, tok,
                            f"the auxiliary constructions started at the `|` on line {first.number}, "
                            f"column {first_tok.column}; a problem has one `|`")
        if not has_premise:
            raise self._err(ProblemError, "no premise before `|`", line, tok,
                            "write the premise first: `a b c = triangle a b c | d = midpoint d a b`")
        if not aux:
            raise self._err(ProblemError, "no auxiliary construction after `|`", line, tok,
                            "write the auxiliary constructions after `|` (`... | d = midpoint d a b ? ...`) "
                            "or remove the `|`")

    def _check_size(self, statements: int, points: int, line: Line) -> None:
        if statements > self.limits.max_statements_per_problem:
            raise LimitError(
                f"problem has more than {self.limits.max_statements_per_problem:,} statements",
                source=self.source, line=line.number, column=1, text="", source_line=line.text,
                hint="raise Limits.max_statements_per_problem if this is intended")
        if points > self.limits.max_points_per_problem:
            raise LimitError(
                f"problem has more than {self.limits.max_points_per_problem:,} points",
                source=self.source, line=line.number, column=1, text="", source_line=line.text,
                hint="raise Limits.max_points_per_problem if this is intended")

    def _unknown_keyword(self, key: str, words: list[str], line: Line, raw: RawLine) -> GeoDSLError:
        if key in KEYWORDS:
            shape = {"goal": "goal: perp a b c d", "option": "option A: perp a b c d",
                     "answer": "answer: A C", "aux": "aux: e = foot e a b c"}[key]
            return self._err(ProblemError, f"malformed `{key}` line", line, raw.head, f"write `{shape}`",
                             text=_head(raw).text)
        guess = did_you_mean(key, KEYWORDS)
        hint = f"did you mean `{guess}:`?" if guess else "keywords are goal, option, answer and aux"
        return self._err(UnknownNameError, f"unknown keyword `{key}:`", line, raw.head, hint,
                         text=_head(raw).text)

    # -- statements ----------------------------------------------------------

    def _no_placement(self, tokens: list[Tok], line: Line) -> None:
        for tok in tokens:
            if tok.type == "PLACED":
                raise self._err(SyntaxErrorGDL, f"coordinates `{tok}` outside a construction's new points",
                                line, tok, "`x@1_2` fixes where a new point goes: write it left of `=`")

    def _flat(self, st: RawStatement, line: Line, what: str) -> list[Tok]:
        if st.negation is not None:
            raise self._err(SyntaxErrorGDL, f"{what} cannot be negated", line, st.negation,
                            "remove `not`")
        if st.clauses is not None:
            raise self._err(SyntaxErrorGDL, f"unexpected `=` in {what}", line, st.head[0],
                            "constructions go in the premise")
        return st.head

    def construction(self, st: RawStatement, line: Line, constructed: dict[str, Location],
                     where: str) -> Construction:
        """One construction; adds its points to ``constructed``."""
        if st.negation is not None:
            raise self._err(SyntaxErrorGDL, "a construction cannot be negated", line, st.negation,
                            "`not` is for options and goals")
        if st.clauses is None:
            first = st.head[0]
            hint = ("a construction is `points = clause`, e.g. `d = midpoint d a b`; "
                    "goals go after `?`")
            raise self._err(SyntaxErrorGDL,
                            f"expected a construction, got `{' '.join(t.text for t in st.head)}`",
                            line, first, hint)
        points: list[str] = []
        placements: list[tuple[str, Fraction, Fraction]] = []
        for tok in st.head:
            if tok.type == "PLACED":
                name, _, xy = tok.text.partition("@")
                x, _, y = xy.partition("_")
                coordinates = []
                for axis, number, offset in (("x", x, len(name) + 1), ("y", y, len(name) + len(x) + 2)):
                    try:
                        coordinates.append(read_number(number, f"the {axis} coordinate of `{name}`",
                                                       self.limits.max_number_digits))
                    except DigitLimit as exc:
                        at = Tok("CONST", number, tok.column + offset)
                        raise self._err(LimitError, str(exc), line, at, exc.hint) from None
                placements.append((name, coordinates[0], coordinates[1]))
                tok = Tok("NAME", name, tok.column)
            if tok.type != "NAME":
                raise self._err(PointError, f"`{tok}` is not a point name", line, tok,
                                "point names start with a letter: `a`, `g1`")
            if tok.text in points:
                raise self._err(PointError, f"point `{tok}` appears twice left of `=`", line, tok,
                                "list each new point once")
            if tok.text in constructed:
                earlier = constructed[tok.text]
                if where == "auxiliary":
                    raise self._err(PointError, f"auxiliary construction reuses point `{tok}`", line, tok,
                                    f"`{tok}` is already constructed at line {earlier.line}, column "
                                    f"{earlier.column}; an auxiliary construction introduces new points: "
                                    "choose a new name")
                raise self._err(PointError, f"point `{tok}` is constructed twice", line, tok,
                                f"it was first constructed at line {earlier.line}, column {earlier.column}; "
                                "choose a new name")
            points.append(tok.text)
        if len(st.clauses) > 2:
            raise self._err(ConstructionError,
                            f"`{' '.join(points)}` has {len(st.clauses)} clauses: a construction needs "
                            "one fixing clause or two one-degree clauses", line, st.clauses[2][0],
                            "drop the extra clauses (state them as goals instead)")
        clauses: list[Clause] = []
        steps: list[tuple[Clause, ConstructionDef, dict[str, RecipeStep], Tok]] = []
        for ctoks in st.clauses:
            clause, cdef, by_point = self.clause(ctoks, points, line, constructed)
            clauses.append(clause)
            steps.append((clause, cdef, by_point, ctoks[0]))
        if len(steps) > 1:  # one clause alone cannot overconstrain
            self._check_degrees(points, steps, line)
        loc = self._loc(line, st.head[0])
        for p in points:
            constructed[p] = loc
        return Construction(tuple(points), tuple(clauses), loc, tuple(placements),
                            auxiliary=where == "auxiliary")

    def clause(self, ctoks: list[Tok], points: list[str], line: Line,
               constructed: dict[str, Location]) -> tuple[Clause, ConstructionDef, dict[str, RecipeStep]]:
        name_tok = ctoks[0]
        if name_tok.type != "NAME":
            self._no_placement([name_tok], line)
            raise self._err(SyntaxErrorGDL, f"expected a construction name, got `{name_tok}`", line,
                            name_tok, "a clause starts with its name: `midpoint x a b`")
        name = name_tok.text
        found = self.lookup.get(name)
        if found is None:
            raise self._unknown_construction(name, name_tok, line)
        cdef, order = found
        written = ctoks[1:]
        n, outputs = cdef.arity, cdef.outputs
        k = len(outputs)
        # The parameters in the order this dialect writes them.
        spelled = cdef.params if order is None else tuple(cdef.params[i] for i in order)
        if len(written) == n:
            tokens: list[Tok | str] = list(written)
        elif len(written) == n - k and len(points) == k:
            # Shorthand: the new points are left out; put them where the
            # definition's outputs go (first, for nearly every construction).
            it = iter(written)
            tokens = [points[outputs.index(p)] if p in outputs else next(it) for p in spelled]
        else:
            short = (f"; or leave out the new point{'s' if k > 1 else ''}: `{' '.join(outputs)} = "
                     f"{name} {' '.join(p for p in spelled if p not in outputs)}`") if k else ""
            raise self._err(ArityError, f"`{name}` takes {n} arguments, got {len(written)}", line,
                            name_tok, f"write `{' '.join(outputs)} = {name} {' '.join(spelled)}`{short}")
        if order is not None:
            ours: list[Tok | str] = [""] * n
            for i, tok in enumerate(tokens):
                ours[order[i]] = tok
            tokens = ours
        args: list[Arg] = []
        for kind, param, tok in zip(cdef.kinds, cdef.params, tokens):
            if isinstance(tok, str):  # a new point the shorthand left out
                args.append(tok)
            elif kind == "point":
                if tok.type != "NAME":
                    self._no_placement([tok], line)
                    raise self._err(ConstantError, f"`{tok}` in place of point `{param}` of `{name}`",
                                    line, tok, f"`{name}` takes points at `{param}`: `{name} {' '.join(spelled)}`")
                args.append(tok.text)
            elif tok.type != "CONST":
                self._no_placement([tok], line)
                raise self._err(ConstantError, f"`{tok}` in place of the {kind} `{param}` of `{name}`",
                                line, tok, _constant_hint(kind))
            else:
                try:
                    args.append(read_constant(tok.text, kind, self.limits.max_number_digits))
                except ConstantSyntax as exc:
                    raise self._err(LimitError if isinstance(exc, DigitLimit) else ConstantError, str(exc),
                                    line, tok, exc.hint) from None
        by_point: dict[str, RecipeStep] = {}
        for pos, param, step in zip(cdef.output_positions, outputs, cdef.output_steps):
            actual = args[pos]
            if actual not in points:
                at = tokens[pos]
                raise self._err(PointError,
                                f"`{name}` constructs its argument `{param}`, here `{actual}`, "
                                f"but this construction introduces `{' '.join(points)}`", line,
                                at if isinstance(at, Tok) else name_tok,
                                f"write `{' '.join(points)} = {name} ...` with the new point"
                                f"{'s' if len(points) > 1 else ''} at `{param}`"
                                + "".join(f"; in {d}'s spelling, `{n}` puts the new points elsewhere:"
                                          f" pass --dialect {d}"
                                          for d, n, _ in cdef.dialect_spellings if d != self.dialect))
            by_point[actual] = step
        if len(by_point) != len(points):
            missing = next(p for p in points if p not in by_point)
            raise self._err(PointError, f"`{name}` does not construct `{missing}`", line, name_tok,
                            f"`{name}` introduces {k} point{'s' if k != 1 else ''}: "
                            f"`{' '.join(outputs)} = {name} {' '.join(spelled)}`")
        for pos in cdef.input_positions:
            actual = args[pos]
            if not isinstance(actual, str):
                continue
            if actual in constructed:
                continue
            at = tokens[pos]
            at_tok = at if isinstance(at, Tok) else name_tok
            if actual in points:
                raise self._err(PointError, f"`{name}` uses `{actual}`, which this construction introduces",
                                line, at_tok, f"the inputs of `{name}` must be constructed earlier")
            raise self._err(PointError, f"point `{actual}` is used before it is constructed", line,
                            at_tok, f"construct `{actual}` in an earlier construction")
        return Clause(name, tuple(args), Location(self.source, line.number, name_tok.column)), cdef, by_point

    def _unknown_construction(self, name: str, tok: Tok, line: Line) -> GeoDSLError:
        names = set(self.rb.constructions) | set(self.rb.dialect_names.get(self.dialect, {}))
        guess = did_you_mean(name, names)
        if name in self.rb.predicates:
            hint = f"`{name}` is a predicate: state it as a goal after `?`"
        elif guess:
            hint = f"did you mean `{guess}`?"
        else:
            hint = "the constructions are listed in docs/constructions.md"
        other = [d for d in self.rb.dialect_names if d != self.dialect and name in self.rb.dialect_names[d]]
        if other:
            hint = f"`{name}` is {other[0]} spelling: pass --dialect {other[0]}"
        return self._err(UnknownNameError, f"unknown construction `{name}`", line, tok, hint)

    def _check_degrees(self, points: list[str],
                       steps: list[tuple[Clause, ConstructionDef, dict[str, RecipeStep], Tok]],
                       line: Line) -> None:
        for p in points:
            fixing = [(c, t) for c, _, by, t in steps if by[p].kind == "fixes"]
            loci = [(c, d, by[p], t) for c, d, by, t in steps if by[p].kind == "locus"]
            if len(fixing) >= 2:
                raise self._err(ConstructionError,
                                f"both clauses fix `{p}`: a construction needs one fixing clause "
                                "or two one-degree clauses", line, fixing[1][1],
                                "keep one of the two clauses; state the other fact as a goal")
            if fixing and loci:
                c, t = fixing[0]
                raise self._err(ConstructionError,
                                f"`{c.name}` fixes `{p}` by itself, so `{loci[0][0].name}` "
                                "overconstrains it", line, loci[0][3] if loci[0][3].column > t.column else t,
                                "a construction needs one fixing clause or two one-degree clauses")
            if len(loci) == 2 and _comparable(loci[0][2].recipe, loci[1][2].recipe):
                reason = _loci_cannot_meet(_locus(*loci[0][:3]), _locus(*loci[1][:3]))
                if reason:
                    raise self._err(ConstructionError,
                                    f"`{loci[0][0].name}` and `{loci[1][0].name}` cannot meet in one "
                                    f"point: {reason}", line, loci[1][3],
                                    "choose two loci that cross: two lines of different directions, "
                                    "or a line and a circle")

    # -- predicates ------------------------------------------------------------

    def predicate(self, st: RawStatement, line: Line, constructed: Mapping[str, object] | None,
                  what: str) -> Predicate:
        """One predicate; its points must be in ``constructed`` (unchecked when None)."""
        if st.clauses is not None:
            message = ("expected a predicate, not a construction" if what == "predicate"
                       else f"a {what} is a predicate, not a construction")
            raise self._err(SyntaxErrorGDL, message, line,
                            st.head[0], "write `perp a b c d`, without `=`")
        self._no_placement(st.head, line)
        name_tok = st.head[0]
        name = name_tok.text
        pdef = self.rb.predicates.get(name)
        if name in self.rb.queries and name_tok.type == "NAME":
            raise self._err(ProblemError, f"`{name}` asks for a value: it is a goal, not {_article(what)}",
                            line, name_tok, f"write it after `?`: `? {name} "
                            f"{' '.join(self.rb.queries[name].params)}`")
        if pdef is None or name_tok.type != "NAME":
            guess = did_you_mean(name, self.rb.predicates)
            if name in self.rb.constructions:
                hint = f"`{name}` is a construction; predicates are {', '.join(sorted(self.rb.predicates)[:6])}, ..."
                if guess:
                    hint = f"`{name}` is a construction; did you mean the predicate `{guess}`?"
            elif name in _NEWCLID_UNREAD:
                hint = _NEWCLID_UNREAD[name]
            elif guess:
                hint = f"did you mean `{guess}`?"
            else:
                hint = "predicates are listed in docs/language.md"
            raise self._err(UnknownNameError, f"unknown predicate `{name}`", line, name_tok, hint)
        written = st.head[1:]
        if not pdef.accepts(len(written)):
            more = " or more" if pdef.variadic else ""
            tail = f" (more points may follow `{pdef.params[-1]}`)" if pdef.variadic else ""
            raise self._err(ArityError, f"`{name}` takes {pdef.arity}{more} arguments, got {len(written)}",
                            line, name_tok, f"write `{name} {' '.join(pdef.params)}`{tail}")
        kinds = pdef.kinds + (pdef.kinds[-1],) * (len(written) - pdef.arity)
        params = pdef.params + (pdef.params[-1],) * (len(written) - pdef.arity)
        args: list[Arg] = []
        for tok, kind, param in zip(written, kinds, params):
            if kind == "point":
                if tok.type != "NAME":
                    raise self._err(ConstantError, f"`{tok}` in place of point `{param}` of `{name}`",
                                    line, tok, f"`{name} {' '.join(pdef.params)}`")
                if constructed is not None and tok.text not in constructed:
                    raise self._err(PointError, f"point `{tok}` is used before it is constructed", line,
                                    tok, f"the {what} may only use points of the premise")
                args.append(tok.text)
            else:
                if tok.type != "CONST":
                    raise self._err(ConstantError, f"`{tok}` in place of the {kind} of `{name}`", line,
                                    tok, _constant_hint(kind))
                try:
                    args.append(read_constant(tok.text, kind, self.limits.max_number_digits))
                except ConstantSyntax as exc:
                    raise self._err(LimitError if isinstance(exc, DigitLimit) else ConstantError, str(exc),
                                    line, tok, exc.hint) from None
        return Predicate(name, tuple(args), st.negation is not None, self._loc(line, name_tok))

    def _is_dsl_predicate(self, st: RawStatement) -> bool:
        name = st.head[0].text
        return st.clauses is None and (name in self.rb.predicates or name in self.rb.queries)

    def _notation_of(self, raw: RawLine, line: Line) -> NotationText:
        """The body of a keyword line, as text for the notation reader."""
        head = _head(raw)
        start = (head.column - 1) + len(head.text)
        return NotationText(line.text[start:], start + 1)

    def _goal_predicates(self, st: RawStatement | NotationText, line: Line,
                         constructed: dict[str, Location]) -> list[Predicate | Query]:
        if isinstance(st, NotationText):
            return list(self._notation_predicates(st, line, constructed, "goal"))
        if st.clauses is None and st.head[0].type == "NAME" and st.head[0].text in self.rb.queries:
            return [self.query(st, line, constructed)]
        return [self.predicate(st, line, constructed, "goal")]

    def query(self, st: RawStatement, line: Line, constructed: dict[str, Location]) -> Query:
        """``acompute a b c d``: a goal asking for a value (``rulebase/queries.gdl``)."""
        name_tok = st.head[0]
        qdef = self.rb.queries[name_tok.text]
        if st.negation is not None:
            raise self._err(SyntaxErrorGDL, f"`{qdef.name}` asks for a value: it cannot be negated",
                            line, st.negation, "remove `not`")
        written = st.head[1:]
        if len(written) != qdef.arity:
            raise self._err(ArityError, f"`{qdef.name}` takes {qdef.arity} arguments, got {len(written)}",
                            line, name_tok, f"write `{qdef.name} {' '.join(qdef.params)}`")
        for tok in written:
            if tok.type != "NAME":
                self._no_placement([tok], line)
                raise self._err(ConstantError, f"`{tok}` in place of a point of `{qdef.name}`", line, tok,
                                f"`{qdef.name}` takes points only: `{qdef.name} {' '.join(qdef.params)}`")
            if tok.text not in constructed:
                raise self._err(PointError, f"point `{tok}` is used before it is constructed", line, tok,
                                "the goal may only use points of the premise")
        return Query(qdef.name, tuple(t.text for t in written), self._loc(line, name_tok))

    def _notation_predicates(self, text: NotationText, line: Line, constructed: dict[str, Location],
                             what: str) -> list[Predicate]:
        """Read proof-text notation (``H,I,K are collinear``) as predicates of this premise."""
        from .notation import read_notation

        try:
            said = read_notation(text.text)
        except SyntaxErrorGDL as exc:
            raise SyntaxErrorGDL(exc.message, source=self.source, line=line.number,
                                 column=text.column + (exc.column or 1) - 1, text=exc.text,
                                 hint="write the fact in the DSL (`perp a b c d`) or in proof notation "
                                      "(`AB ⟂ CD`, `A,B,C are collinear`, `∠ABC = ∠DEF`)",
                                 source_line=line.text) from None
        column = text.column + (len(text.text) - len(text.text.lstrip()))
        out = []
        for predicate in said:
            missing = [p for p in predicate.points if p not in constructed]
            if missing:
                raise PointError(f"point `{missing[0].upper()}` is used before it is constructed",
                                 source=self.source, line=line.number, column=column, text=text.text.strip(),
                                 hint=f"the {what} may only use points of the premise", source_line=line.text)
            out.append(Predicate(predicate.name, predicate.args, predicate.negated,
                                 Location(self.source, line.number, column)))
        return out

    def _options(self, deferred: list[tuple[str, Tok, RawStatement | NotationText, Line]],
                 constructed: dict[str, Location]) -> tuple[Option, ...]:
        if len(deferred) > self.limits.max_options_per_problem:
            _, head, _, line = deferred[self.limits.max_options_per_problem]
            raise self._err(LimitError, f"more than {self.limits.max_options_per_problem} options",
                            line, head, "raise Limits.max_options_per_problem if this is intended")
        options: list[Option] = []
        seen: dict[str, int] = {}
        for label, head, st, line in deferred:
            if label in seen:
                raise self._err(ProblemError, f"option {label} is given twice", line, head,
                                f"the first is on line {seen[label]}; labels must differ")
            seen[label] = line.number
            if isinstance(st, NotationText):
                said = self._notation_predicates(st, line, constructed, "option")
                if len(said) != 1:
                    raise self._err(ProblemError, f"option {label} states {len(said)} facts", line, head,
                                    "one fact per option")
                predicate = said[0]
            else:
                predicate = self.predicate(st, line, constructed, "option")
            options.append(Option(label, predicate, self._loc(line, head)))
        return tuple(options)

    def _answer(self, answer: tuple[list[Tok], Line, Tok], labels: list[str]) -> tuple[str, ...]:
        tokens, line, head = answer
        if not labels:
            raise self._err(ProblemError, "an answer key without options", line, head,
                            "list the options first: `option A: perp a b c d`")
        out: list[str] = []
        for tok in tokens:
            word = tok.text
            if word in labels:
                parts = [word]
            elif all(ch in labels for ch in word):
                parts = list(word)  # GeoChallenge writes "BD" for options B and D
            else:
                bad = word if len(word) == 1 else next((ch for ch in word if ch not in labels), word)
                raise self._err(ProblemError, f"the answer names `{bad}`, which is not an option",
                                line, tok, f"options are {', '.join(labels)}")
            for p in parts:
                if p in out:
                    raise self._err(ProblemError, f"the answer names `{p}` twice", line, tok,
                                    "name each option once")
                out.append(p)
        return tuple(sorted(out, key=labels.index))

    def _aux(self, label: str | None, head: Tok, sts: list[RawStatement], line: Line,
             constructed: dict[str, Location]) -> AuxCandidate:
        local = dict(constructed)
        cons = tuple(self.construction(st, line, local, "aux") for st in sts)
        return AuxCandidate(label, cons, self._loc(line, head))


# Newclid 3 names geodsl does not read, and why (the hint of the error).
_NEWCLID_UNREAD = {
    "lequation": "`lequation` is Newclid's linear length equation: Newclid 3 itself does not "
                 "implement it (its reader raises NotImplementedError); state the relation with "
                 "cong, rconst or eqratio",
    "aequation": "`aequation` is Newclid's linear angle equation: Newclid 3 itself does not "
                 "implement it (its reader raises NotImplementedError); state the relation with "
                 "eqangle or aconst",
    "pythagorean_premises": "`pythagorean_premises` is an internal predicate of Newclid's rules, "
                            "not of its problem language; state `perp`",
    "pythagorean_conclusions": "`pythagorean_conclusions` is an internal predicate of Newclid's "
                               "rules, not of its problem language",
}


def _article(what: str) -> str:
    return f"an {what}" if what[0] in "aeiou" else f"a {what}"


def _head(raw: RawLine) -> Tok:
    """The keyword (or header, meta) token of a line that has one."""
    assert raw.head is not None, f"a {raw.kind} line has no head token"
    return raw.head


def _keyword(raw: RawLine) -> tuple[str, list[str]]:
    words = _head(raw).text.rstrip(":").rstrip().split()
    return words[0], words[1:]


def _constant_hint(kind: str) -> str:
    return {
        "angle": "an angle is a fraction of π such as `1pi/4`, or degrees such as `45o`",
        "degrees": "an angle in degrees such as `45` (or `45o`)",
        "ratio": "a ratio is a positive number such as `1/2` or `2`",
        "length": "a length is a positive number such as `3` or `3/2`",
    }[kind]


def _locus(clause: Clause, cdef: ConstructionDef, step: RecipeStep) -> tuple[str, tuple[str, ...]]:
    """The locus of a step with the clause's actual arguments substituted."""
    binding = dict(zip(cdef.params, clause.args))
    return step.recipe, tuple(str(binding.get(a, a)) for a in step.args)


# Lines by direction: kind -> (which args span the direction, "d" parallel / "t" perpendicular).
_LINE_DIRECTIONS = {"line": ((0, 1), "d"), "pline": ((1, 2), "d"), "tline": ((1, 2), "t"),
                    "bline": ((0, 1), "t")}
_CIRCLE_CENTRES = {"circle": 0, "rcircle": 0}


def _comparable(kind1: str, kind2: str) -> bool:
    """Whether the text alone can show that two loci of these kinds never meet."""
    return ((kind1 in _LINE_DIRECTIONS and kind2 in _LINE_DIRECTIONS)
            or (kind1 in _CIRCLE_CENTRES and kind2 in _CIRCLE_CENTRES))


def _loci_cannot_meet(locus1: tuple[str, tuple[str, ...]],
                      locus2: tuple[str, tuple[str, ...]]) -> str | None:
    """A reason two loci never meet in exactly one point, when the text shows it."""
    (k1, a1), (k2, a2) = locus1, locus2
    if k1 in _LINE_DIRECTIONS and k2 in _LINE_DIRECTIONS:
        (i1, t1), (i2, t2) = _LINE_DIRECTIONS[k1], _LINE_DIRECTIONS[k2]
        d1 = frozenset(a1[i] for i in i1)
        d2 = frozenset(a2[i] for i in i2)
        if d1 == d2 and t1 == t2:
            what = "parallel" if t1 == "d" else "perpendicular"
            seg = "".join(sorted(d1))
            return f"both lines are {what} to {seg}, so they are parallel or the same line"
    if k1 in _CIRCLE_CENTRES and k2 in _CIRCLE_CENTRES:
        if a1[_CIRCLE_CENTRES[k1]] == a2[_CIRCLE_CENTRES[k2]]:
            return f"both circles are centred at {a1[_CIRCLE_CENTRES[k1]]}, so they are the same or disjoint"
    return None
