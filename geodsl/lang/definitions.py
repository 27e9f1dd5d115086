"""The rulebase: construction and predicate definitions, read from ``rulebase/``.

The definitions are data written in the geodsl language (see
``docs/rulebase.md``) and read with the same grammar as problems, so adding a
construction is editing a text file, not Python. This module turns those
files into :class:`ConstructionDef` and :class:`PredicateDef` records and
checks them (every output fixed once, every fact a known predicate with the
right arity, every name bound), so a mistake in the rulebase is reported with
its file, line and column like any other input error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal, TypeVar, cast

from .._canon import canonical_permutation
from .constants import CONST_KINDS, Constant, ConstantSyntax, read_constant
from .equations import TABLES, Equation, EquationSyntax, read_equations
from .errors import GeoDSLError, Location, RulebaseError
from .lines import Line, iter_lines
from .syntax import RawBody, RawLine, RawStatement, Unparsed
from .terms import Predicate

ArgKind = Literal["point", "angle", "degrees", "ratio", "length"]

DIALECTS = ("alphageometry", "newclid")


def arg_kind(name: str) -> ArgKind:
    """Parameters named after a constant kind are constants; others are points."""
    return name if name in CONST_KINDS else "point"


@dataclass(frozen=True, slots=True)
class Means:
    """``means: RULE (Label): fact; fact``: the facts that together are the
    predicate, over its parameters, and the step that concludes it."""

    rule: str
    label: str
    facts: tuple[Predicate, ...]


DrawKind = Literal["segment", "span", "polygon", "circle", "ticks", "right-angle", "arc"]
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class DrawItem:
    """One thing a figure highlights for the predicate: ``segment``, ``span``,
    ``polygon``, ``circle`` (objects), or a mark of the true fact: ``ticks``
    (``count`` of them), ``right-angle``, ``arc``. ``points`` are parameter
    indices."""

    kind: DrawKind
    points: tuple[int, ...]
    count: int = 0

    @property
    def is_mark(self) -> bool:
        """Marks claim the fact (equal ticks, a right angle): drawn only when it is stated true."""
        return self.kind in ("ticks", "right-angle", "arc")


_DRAW_ARITY = {"segment": 2, "span": None, "polygon": None, "circle": 3, "ticks": 2,
               "right-angle": 4, "arc": 4}


@dataclass(frozen=True, slots=True)
class PredicateDef:
    """Everything about one predicate, from its block in ``predicates.gdl``:
    parameters, argument symmetries (as a closed permutation group), whether
    it is a side condition, what it negates, what it means in other facts,
    its equations for each AR table, its notation and what a figure draws.
    The numeric check is the function of the same name in
    :mod:`geodsl.realizer.checks`."""

    name: str
    params: tuple[str, ...]
    kinds: tuple[ArgKind, ...]
    perms: tuple[tuple[int, ...], ...]
    side: bool
    doc: str
    location: Location = field(compare=False)
    negates: Predicate | None = None
    """``ncoll a b c`` negates ``coll a b c``: the notation and the checker
    read it as that predicate, negated."""
    means: Means | None = None
    equations: dict[str, tuple[Equation, ...]] = field(default_factory=dict, compare=False)
    """Per table (``angles``, ``lengths``, ``ratios``, ``squares``)."""
    notation: str | None = None
    negated_notation: str | None = None
    draw: tuple[DrawItem, ...] = ()
    variadic: bool = False
    """``more:``: the last parameter may be repeated (``cyclic a b c d e``)."""

    @property
    def arity(self) -> int:
        return len(self.params)

    def accepts(self, count: int) -> bool:
        """Whether a statement may give ``count`` arguments."""
        return count == self.arity or (self.variadic and count > self.arity)

    def expand(self, predicate: Predicate) -> tuple[Predicate, ...]:
        """A statement with repeated last parameters as the facts it states,
        one per value (``cyclic a b c d e`` → ``cyclic a b c d``, ``cyclic a b c e``);
        any other statement as itself."""
        n = self.arity
        if len(predicate.args) <= n:
            return (predicate,)
        head = predicate.args[:n - 1]
        return tuple(Predicate(predicate.name, head + (last,), predicate.negated, predicate.span)
                     for last in predicate.args[n - 1:])

    def canonical_args(self, args: Sequence[_T]) -> tuple[_T, ...]:
        """The arguments in canonical order (least image under the symmetries)."""
        keys = tuple(a if isinstance(a, str) else "" for a in args)
        best = self.perms[canonical_permutation(keys, self.perms)]
        return tuple(args[i] for i in best)

    def canonical(self, predicate: Predicate) -> Predicate:
        return Predicate(predicate.name, self.canonical_args(predicate.args), predicate.negated, predicate.span)


@dataclass(frozen=True, slots=True)
class RecipeStep:
    """How the realizer obtains output points: ``fixes`` (computed, no freedom
    left) or ``locus`` (a line or circle the point lies on)."""

    kind: Literal["fixes", "locus"]
    points: tuple[str, ...]
    recipe: str
    args: tuple[str, ...]
    location: Location = field(compare=False)


@dataclass(frozen=True, slots=True)
class ConstructionDef:
    """A construction (clause) definition, in AlphaGeometry argument order."""

    name: str
    params: tuple[str, ...]
    kinds: tuple[ArgKind, ...]
    outputs: tuple[str, ...]
    output_positions: tuple[int, ...]
    requires: tuple[Predicate, ...]
    asserts: tuple[Predicate, ...]
    steps: tuple[RecipeStep, ...]
    doc: str
    location: Location = field(compare=False)
    dialect_spellings: tuple[tuple[str, str, tuple[int, ...]], ...] = ()
    """(dialect, name there, order): argument i written in that dialect is
    our parameter ``order[i]``."""
    # Derived once at load time; the parser reads them for every clause.
    arity: int = field(init=False, compare=False)
    input_positions: tuple[int, ...] = field(init=False, compare=False)
    output_steps: tuple[RecipeStep, ...] = field(init=False, compare=False)
    """The step that places each output, aligned with ``outputs``."""

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "arity", len(self.params))
        setattr_(self, "input_positions",
                 tuple(i for i in range(len(self.params)) if i not in self.output_positions))
        setattr_(self, "output_steps",
                 tuple(next(s for s in self.steps if o in s.points) for o in self.outputs))

    def step_for(self, output: str) -> RecipeStep:
        return self.output_steps[self.outputs.index(output)]

    @property
    def is_locus(self) -> bool:
        """True if the clause leaves its (single) output on a line or circle."""
        return any(s.kind == "locus" for s in self.steps)


@dataclass(frozen=True, slots=True)
class QueryDef:
    """A query (``acompute a b c d``): it asks for the constant of
    ``computes`` (``aconst a b c d angle``), whose parameters are the query's
    points plus that one constant."""

    name: str
    params: tuple[str, ...]
    computes: Predicate
    doc: str
    location: Location = field(compare=False)

    @property
    def arity(self) -> int:
        return len(self.params)

    @property
    def kind(self) -> ArgKind:
        """The kind of the constant asked for (``angle``, ``ratio``, ``length``)."""
        return next(arg_kind(a) for a in self.computes.args
                    if isinstance(a, str) and arg_kind(a) != "point")

    def predicate(self, args: Sequence[str], value: Constant) -> Predicate:
        """``computes`` on the actual points, with ``value`` as its constant."""
        binding = dict(zip(self.params, args))
        return Predicate(self.computes.name, tuple(
            binding[a] if isinstance(a, str) and a in binding else value
            for a in self.computes.args))


@dataclass(frozen=True)
class Rulebase:
    """All definitions, by name, and the dialect spellings."""

    constructions: dict[str, ConstructionDef]
    predicates: dict[str, PredicateDef]
    dialect_names: dict[str, dict[str, ConstructionDef]]
    queries: dict[str, QueryDef] = field(default_factory=dict)
    _lookups: dict[str, dict[str, tuple[ConstructionDef, tuple[int, ...] | None]]] = field(
        default_factory=dict, compare=False, repr=False)

    def construction(self, name: str) -> ConstructionDef:
        return self.constructions[name]

    def predicate(self, name: str) -> PredicateDef:
        return self.predicates[name]

    def dialect_lookup(self, dialect: str) -> dict[str, tuple[ConstructionDef, tuple[int, ...] | None]]:
        """Every construction name ``dialect`` reads, with its definition and
        argument order (see :meth:`construction_in`); cached per dialect."""
        cache = self._lookups
        if dialect not in cache:
            names = set(self.constructions) | set(self.dialect_names.get(dialect, {}))
            table = {}
            for name in sorted(names):
                found = self.construction_in(name, dialect)
                if found is not None:
                    table[name] = found
            cache[dialect] = table
        return cache[dialect]

    def construction_in(self, name: str, dialect: str) -> tuple[ConstructionDef, tuple[int, ...] | None] | None:
        """The definition ``name`` means in ``dialect`` and, when the dialect
        orders the arguments differently, the order to map them with."""
        spelled = self.dialect_names.get(dialect, {}).get(name)
        if spelled is not None:
            for d, n, order in spelled.dialect_spellings:
                if d == dialect and n == name:
                    return spelled, order
        found = self.constructions.get(name)
        if found is None:
            return None
        if any(d == dialect for d, _, _ in found.dialect_spellings):
            # The dialect spells this construction differently; its own
            # spelling of `name`, if any, was handled above.
            return None
        return found, None


# ---------------------------------------------------------------- reading


class _Block:
    __slots__ = ("head", "head_line", "doc", "lines")

    def __init__(self, head: RawLine, head_line: Line, doc: str) -> None:
        self.head = head
        self.head_line = head_line
        self.doc = doc
        self.lines: list[tuple[Line, RawLine]] = []


def _keyword(raw: RawLine) -> tuple[str, list[str]]:
    assert raw.head is not None, "a keyword line has its keyword token"
    words = raw.head.text.rstrip(":").rstrip().split()
    return words[0], words[1:]


def _blocks(text: str, source: str, start_keyword: str,
            free: frozenset[str] = frozenset()) -> list[_Block]:
    """Group a rulebase file into blocks that start with ``start_keyword:``.
    Lines of the ``free`` keywords are not in the DSL: their readers take
    the line's text, whatever the DSL grammar made of it."""
    blocks: list[_Block] = []
    doc: list[str] = []
    for line in _lines_with_comments(text, source):
        if line is _PARAGRAPH_BREAK:
            doc = []
            continue
        if isinstance(line, str):
            doc.append(line)
            continue
        if isinstance(line.parsed, GeoDSLError):
            raise line.parsed
        raw = line.parsed
        if raw.kind == "blank":
            continue
        if raw.kind == "unparsed":
            # A keyword line the grammar rejects, kept by lines.py for readers
            # of other notations: in a rulebase file it is the grammar's error
            # unless its keyword is one of those readers'.
            if _keyword(raw)[0] in free and blocks:
                blocks[-1].lines.append((line, raw))
                doc = []
                continue
            assert isinstance(raw.body, Unparsed)
            raise raw.body.error
        if raw.kind != "keyword":
            raise RulebaseError(
                "a rulebase line must start with a keyword", source=source, line=line.number,
                column=1, text=line.text.strip(), source_line=line.text,
                hint=f"blocks start with `{start_keyword}:`; see docs/rulebase.md")
        key, _ = _keyword(raw)
        if key == start_keyword:
            blocks.append(_Block(raw, line, " ".join(doc).strip()))
            doc = []
        elif not blocks:
            raise RulebaseError(f"`{key}:` before the first `{start_keyword}:`", source=source,
                                line=line.number, column=1, text=key, source_line=line.text,
                                hint=f"start each block with `{start_keyword}:`")
        else:
            blocks[-1].lines.append((line, raw))
            doc = []
    return blocks


_PARAGRAPH_BREAK = "\n"


def _lines_with_comments(text: str, source: str) -> Iterable[Line | str]:
    """Parsed lines, with the text of comment lines in between (for docs).

    A blank line ends a comment paragraph, so a section comment separated
    from the next block by a blank line does not become its documentation.
    """
    parsed = {line.number: line for line in iter_lines(text, source)}
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped.startswith("#"):
            yield stripped.lstrip("#").strip()
        elif not stripped:
            yield _PARAGRAPH_BREAK
        elif number in parsed:
            yield parsed[number]


class _Reader:
    """Reads one rulebase file; errors carry its name."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, message: str, line: Line, column: int, text: str, hint: str) -> RulebaseError:
        return RulebaseError(message, source=self.source, line=line.number, column=column,
                             text=text, hint=hint, source_line=line.text)

    def statements(self, raw: RawLine, line: Line) -> list[RawStatement]:
        assert isinstance(raw.body, RawBody), "a keyword line of the DSL has statements"
        body = raw.body
        if body.goals is not None or body.conclusion is not None or body.pipe is not None:
            token = body.question or body.pipe or raw.head
            raise self.error("unexpected `?`, `|` or `=>` in a definition", line,
                             getattr(token, "column", 1), str(token), "definitions list plain statements")
        return body.statements

    def flat(self, st: RawStatement, line: Line, what: str) -> list[str]:
        if st.negation is not None or st.clauses is not None:
            raise self.error(f"{what} must be a plain `name arg ...` statement", line,
                             st.head[0].column or 1, str(st.head[0]), "no `=` and no `not` here")
        return [str(t) for t in st.head]

    def predicate(self, st: RawStatement, line: Line, bound: set[str],
                  predicates: dict[str, PredicateDef] | None) -> Predicate:
        words = self.flat(st, line, "a fact")
        name, args = words[0], tuple(words[1:])
        loc = Location(self.source, line.number, st.head[0].column or 1)
        pdef: PredicateDef | None = None
        if predicates is not None:
            pdef = predicates.get(name)
            if pdef is None:
                raise self.error(f"unknown predicate `{name}`", line, loc.column, name,
                                 "predicates are defined in rulebase/predicates.gdl")
            if len(args) != pdef.arity:
                raise self.error(f"`{name}` takes {pdef.arity} arguments, got {len(args)}", line,
                                 loc.column, name, f"`{name} {' '.join(pdef.params)}`")
        values: list[str | Constant] = []
        for i, (tok, a) in enumerate(zip(st.head[1:], args)):
            kind = pdef.kinds[i] if pdef is not None else arg_kind(a)
            if tok.type == "CONST" and kind != "point":
                # A literal constant in a fact: `rconst a b a c 1/2`.
                try:
                    values.append(read_constant(a, kind))
                except ConstantSyntax as exc:
                    raise self.error(str(exc), line, tok.column or 1, a, exc.hint) from None
                continue
            if (kind == "point") != (arg_kind(a) == "point") and not (
                    kind in ("angle", "degrees") and arg_kind(a) in ("angle", "degrees")):
                raise self.error(f"`{a}` in place of a {kind}", line, tok.column or 1, a,
                                 "constants are named angle, degrees, ratio or length, or written out")
            if a not in bound:
                raise self.error(f"`{a}` is not a parameter of this definition", line,
                                 tok.column or 1, a, "use the names of the `construction:` line")
            values.append(a)
        return Predicate(name, tuple(values), False, loc)


def _symmetry_group(params: tuple[str, ...], generators: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """Close the generators under composition; identity first, then sorted."""
    n = len(params)
    identity = tuple(range(n))
    group = {identity}
    frontier = [identity]
    while frontier:
        nxt = []
        for g in frontier:
            for h in generators:
                composed = tuple(g[i] for i in h)
                if composed not in group:
                    group.add(composed)
                    nxt.append(composed)
        frontier = nxt
    return (identity,) + tuple(sorted(group - {identity}))


_FREE_PREDICATE_KEYS = frozenset(TABLES) | {"notation", "negated", "draw", "means", "negates"}
_PREDICATE_KEYS = ("same", "side", "more", "negates", "means", *TABLES, "notation", "negated", "draw")


def _free_body(line: Line) -> tuple[str, int]:
    """The text after a keyword line's first colon, and its column."""
    colon = line.text.index(":")
    return line.text[colon + 1:], colon + 2


def _template_fields(template: str) -> list[tuple[str, int]]:
    """The ``{name}`` fields of a notation template, with their offsets."""
    out: list[tuple[str, int]] = []
    i = 0
    while True:
        i = template.find("{", i)
        if i < 0:
            return out
        j = template.find("}", i)
        if j < 0:
            return out + [(template[i + 1:], i)]
        out.append((template[i + 1:j], i))
        i = j + 1


def _read_template(reader: _Reader, body: str, column: int, line: Line, params: tuple[str, ...]) -> str:
    text = body.strip()
    offset = column + len(body) - len(body.lstrip())
    for name, at in _template_fields(text):
        if name not in params:
            raise reader.error(f"`{{{name}}}` is not a parameter of the predicate", line, offset + at,
                               name, f"the parameters are {' '.join(params)}")
    if not text:
        raise reader.error("empty notation", line, column, "", "e.g. `notation: {a}{b} ∥ {c}{d}`")
    return text


def _words(body: str, column: int) -> list[list[tuple[str, int]]]:
    """``;``-separated items of whitespace-separated words, with columns."""
    items: list[list[tuple[str, int]]] = [[]]
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == ";":
            items.append([])
            i += 1
        elif ch.isspace():
            i += 1
        else:
            j = i
            while j < len(body) and not body[j].isspace() and body[j] != ";":
                j += 1
            items[-1].append((body[i:j], column + i))
            i = j
    return [item for item in items if item]


def _point_indices(reader: _Reader, words: list[tuple[str, int]], line: Line,
                   params: tuple[str, ...]) -> tuple[int, ...]:
    out = []
    for word, col in words:
        if word not in params or arg_kind(word) != "point":
            raise reader.error(f"`{word}` is not a point parameter of the predicate", line, col, word,
                               f"the parameters are {' '.join(params)}")
        out.append(params.index(word))
    return tuple(out)


def _read_draw(reader: _Reader, body: str, column: int, line: Line,
               params: tuple[str, ...]) -> tuple[DrawItem, ...]:
    items = []
    for words in _words(body, column):
        (kind, col), rest = words[0], words[1:]
        count = 0
        if kind not in _DRAW_ARITY:
            raise reader.error(f"unknown drawing `{kind}`", line, col, kind,
                               "draw: " + ", ".join(_DRAW_ARITY))
        if kind == "ticks":
            if not rest or not rest[0][0].isdigit():
                raise reader.error("`ticks` takes a count, then two points", line, col, kind,
                                   "e.g. `ticks 2 a b`")
            count, rest = int(rest[0][0]), rest[1:]
        want = _DRAW_ARITY[kind]
        if (want is not None and len(rest) != want) or (want is None and len(rest) < 2):
            raise reader.error(f"`{kind}` takes {want or 'two or more'} points, got {len(rest)}", line,
                               col, kind, "name the points of the predicate")
        items.append(DrawItem(cast(DrawKind, kind), _point_indices(reader, rest, line, params), count))
    return tuple(items)


def _read_fact_text(reader: _Reader, body: str, column: int, line: Line,
                    params: tuple[str, ...]) -> Predicate:
    items = _words(body, column)
    if len(items) != 1:
        raise reader.error("expected one fact", line, column, body.strip(), "e.g. `negates: coll a b c`")
    (name, col), rest = items[0][0], items[0][1:]
    for word, wcol in rest:
        if word not in params:
            raise reader.error(f"`{word}` is not a parameter of the predicate", line, wcol, word,
                               f"the parameters are {' '.join(params)}")
    return Predicate(name, tuple(w for w, _ in rest), False, Location(reader.source, line.number, col))


def _read_means(reader: _Reader, body: str, column: int, line: Line, params: tuple[str, ...]) -> Means:
    head, sep, facts = body.partition(":")
    rule, _, label = head.strip().partition(" ")
    label = label.strip()
    if not sep or not rule or not (label.startswith("(") and label.endswith(")")):
        raise reader.error("`means:` is `RULE (Label): fact; fact`", line, column, body.strip(),
                           "e.g. `means: equal_radii (Equal radii): cong o a o b; cong o a o c`")
    fcol = column + len(head) + 1
    parts = []
    for words in _words(facts, fcol):
        parts.append(_read_fact_text(reader, " ".join(w for w, _ in words), words[0][1] - 1, line, params))
    if not parts:
        raise reader.error("`means:` lists no facts", line, fcol, "", "list the facts after the colon")
    return Means(rule, label[1:-1], tuple(parts))


def read_predicates(text: str, source: str) -> dict[str, PredicateDef]:
    reader = _Reader(source)
    out: dict[str, PredicateDef] = {}
    for block in _blocks(text, source, "predicate", _FREE_PREDICATE_KEYS):
        sts = reader.statements(block.head, block.head_line)
        if len(sts) != 1:
            raise reader.error("`predicate:` takes one statement", block.head_line, 1, "",
                               "`predicate: name a b c`")
        words = reader.flat(sts[0], block.head_line, "a predicate signature")
        name, params = words[0], tuple(words[1:])
        if name in out:
            raise reader.error(f"predicate `{name}` is defined twice", block.head_line,
                               sts[0].head[0].column or 1, name, "remove one of the definitions")
        if len(set(params)) != len(params):
            raise reader.error(f"`{name}` repeats a parameter", block.head_line, 1, name,
                               "parameters are distinct names")
        kinds = tuple(arg_kind(p) for p in params)
        constants = frozenset(p for p, k in zip(params, kinds) if k != "point")
        gens: list[tuple[int, ...]] = []
        seen: set[str] = set()
        templates: dict[str, str] = {}
        equations: dict[str, tuple[Equation, ...]] = {}
        draw: tuple[DrawItem, ...] = ()
        means: Means | None = None
        negates: Predicate | None = None
        side = False
        variadic = False
        for line, raw in block.lines:
            key, _ = _keyword(raw)
            if key in seen and key in _FREE_PREDICATE_KEYS:
                raise reader.error(f"`{key}:` is given twice for `{name}`", line, 1, key,
                                   "write all of it on one line, separated by `;`")
            seen.add(key)
            if key == "more":
                sts_ = reader.statements(raw, line)
                w = reader.flat(sts_[0], line, "a repeated parameter") if len(sts_) == 1 else []
                if w != [params[-1]] or arg_kind(params[-1]) != "point":
                    raise reader.error("`more:` names the last parameter, a point", line, 1, key,
                                       f"e.g. `more: {params[-1]}`")
                variadic = True
            elif key in _FREE_PREDICATE_KEYS:
                body, column = _free_body(line)
                if key in TABLES:
                    try:
                        equations[key] = read_equations(body, key, params, constants)
                    except EquationSyntax as exc:
                        raise reader.error(str(exc), line, column + exc.column - 1, body.strip(),
                                           exc.hint) from None
                elif key in ("notation", "negated"):
                    templates[key] = _read_template(reader, body, column, line, params)
                elif key == "draw":
                    draw = _read_draw(reader, body, column, line, params)
                elif key == "means":
                    means = _read_means(reader, body, column, line, params)
                else:  # negates
                    negates = _read_fact_text(reader, body, column, line, params)
            elif key == "same":
                for st in reader.statements(raw, line):
                    w = reader.flat(st, line, "a spelling")
                    if w[0] != name or sorted(w[1:]) != sorted(params):
                        raise reader.error(f"`same:` must permute the arguments of `{name}`", line,
                                           st.head[0].column or 1, w[0],
                                           f"e.g. `same: {name} {' '.join(reversed(params))}`")
                    gens.append(tuple(params.index(a) for a in w[1:]))
            elif key == "side":
                side = True
            else:
                raise reader.error(f"unknown keyword `{key}:` in a predicate", line, 1, key,
                                   "predicates take " + ", ".join(f"`{k}:`" for k in _PREDICATE_KEYS))
        out[name] = PredicateDef(name, params, kinds, _symmetry_group(params, gens), side,
                                 block.doc, Location(source, block.head_line.number, 1),
                                 negates=negates, means=means, equations=equations,
                                 notation=templates.get("notation"),
                                 negated_notation=templates.get("negated"), draw=draw,
                                 variadic=variadic)
    for pdef in out.values():
        for fact in ([pdef.negates] if pdef.negates else []) + list(pdef.means.facts if pdef.means else []):
            target = out.get(fact.name)
            if target is None or target.arity != len(fact.args):
                raise RulebaseError(f"`{fact.name}` in the block of `{pdef.name}` is not a predicate "
                                    f"of {len(fact.args)} arguments", source=source,
                                    line=pdef.location.line, column=1, text=fact.name,
                                    hint="use a predicate defined in this file")
    return out


def read_constructions(text: str, source: str,
                       predicates: dict[str, PredicateDef]) -> dict[str, ConstructionDef]:
    reader = _Reader(source)
    out: dict[str, ConstructionDef] = {}
    for block in _blocks(text, source, "construction"):
        hl = block.head_line
        sts = reader.statements(block.head, hl)
        if len(sts) != 1 or sts[0].clauses is None or len(sts[0].clauses) != 1 or sts[0].negation:
            raise reader.error("`construction:` takes one signature `outs = name args`", hl, 1, "",
                               "e.g. `construction: x = midpoint x a b`")
        st = sts[0]
        outputs = tuple(str(t) for t in st.head)
        if not st.clauses:
            raise reader.error("`construction:` takes one signature `outs = name args`", hl, 1, "",
                               "e.g. `construction: x = midpoint x a b`")
        clause = st.clauses[0]
        name, params = str(clause[0]), tuple(str(t) for t in clause[1:])
        loc = Location(source, hl.number, clause[0].column or 1)
        if name in out:
            raise reader.error(f"construction `{name}` is defined twice", hl, loc.column, name,
                               "remove one of the definitions")
        if len(set(params)) != len(params):
            raise reader.error(f"`{name}` repeats a parameter", hl, loc.column, name,
                               "parameters are distinct names")
        missing = [o for o in outputs if o not in params]
        if missing or len(set(outputs)) != len(outputs):
            raise reader.error(f"output `{missing[0] if missing else outputs[0]}` is not a distinct "
                               f"parameter of `{name}`", hl, 1, name,
                               "the points left of `=` must be parameters of the clause")
        output_positions = tuple(params.index(o) for o in outputs)
        bound = set(params)
        requires: list[Predicate] = []
        asserts: list[Predicate] = []
        steps: list[RecipeStep] = []
        spellings: list[tuple[str, str, tuple[int, ...]]] = []
        known: set[str] = {p for p in params if p not in outputs}
        for line, raw in block.lines:
            key, words = _keyword(raw)
            if key in ("requires", "asserts"):
                target = requires if key == "requires" else asserts
                for s in reader.statements(raw, line):
                    target.append(reader.predicate(s, line, bound, predicates))
            elif key in ("fixes", "locus"):
                pts = tuple(words)
                bad = [p for p in pts if p not in outputs]
                if not pts or bad:
                    raise reader.error(f"`{key}` must name outputs of `{name}`", line, 1, key,
                                       f"outputs are {' '.join(outputs)}")
                if key == "locus" and len(pts) != 1:
                    raise reader.error("a locus holds one point", line, 1, key,
                                       "write one `locus x:` line per point")
                s_ = reader.statements(raw, line)
                if len(s_) != 1:
                    raise reader.error(f"`{key}:` takes one recipe", line, 1, key, "`fixes x: midpoint a b`")
                w = reader.flat(s_[0], line, "a recipe")
                for tok, a in zip(s_[0].head[1:], w[1:]):
                    if tok.type == "NAME" and a not in known and arg_kind(a) == "point":
                        raise reader.error(f"recipe uses `{a}` before it is known", line,
                                           tok.column or 1, a,
                                           "recipes use inputs and outputs fixed on earlier lines")
                steps.append(RecipeStep("fixes" if key == "fixes" else "locus", pts, w[0], tuple(w[1:]),
                                        Location(source, line.number, 1)))
                known.update(pts)
            elif key == "dialect":
                if len(words) != 1 or words[0] not in DIALECTS:
                    raise reader.error("`dialect` names a dialect", line, 1, key,
                                       f"dialects: {', '.join(DIALECTS)}")
                s_ = reader.statements(raw, line)
                w = reader.flat(s_[0], line, "a spelling") if len(s_) == 1 else []
                if sorted(w[1:]) != sorted(params):
                    raise reader.error("a dialect spelling must permute the parameters", line, 1,
                                       key, f"e.g. `dialect newclid: {name} {' '.join(params)}`")
                spellings.append((words[0], w[0], tuple(params.index(a) for a in w[1:])))
            else:
                raise reader.error(f"unknown keyword `{key}:` in a construction", line, 1, key,
                                   "constructions take requires, asserts, fixes, locus, dialect")
        unfixed = [o for o in outputs if o not in known]
        if unfixed:
            raise reader.error(f"`{name}` never fixes `{unfixed[0]}`", hl, loc.column, name,
                               "give every output a `fixes` or `locus` line")
        counts = {o: sum(o in s.points for s in steps) for o in outputs}
        twice = [o for o, c in counts.items() if c > 1]
        if twice:
            raise reader.error(f"`{name}` fixes `{twice[0]}` twice", hl, loc.column, name,
                               "one `fixes` or `locus` line per output")
        if any(s.kind == "locus" for s in steps) and len(outputs) != 1:
            raise reader.error(f"`{name}` has a locus but several outputs", hl, loc.column, name,
                               "a one-degree clause introduces one point")
        kinds = tuple(arg_kind(p) for p in params)
        out[name] = ConstructionDef(name, params, kinds, outputs, output_positions, tuple(requires),
                                    tuple(asserts), tuple(steps), block.doc,
                                    loc, tuple(spellings))
    return out


def read_queries(text: str, source: str, predicates: dict[str, PredicateDef]) -> dict[str, QueryDef]:
    """The ``query:`` blocks of ``queries.gdl``, each checked against the
    predicate it computes."""
    reader = _Reader(source)
    out: dict[str, QueryDef] = {}
    for block in _blocks(text, source, "query"):
        hl = block.head_line
        sts = reader.statements(block.head, hl)
        if len(sts) != 1:
            raise reader.error("`query:` takes one statement", hl, 1, "", "`query: acompute a b c d`")
        words = reader.flat(sts[0], hl, "a query signature")
        name, params = words[0], tuple(words[1:])
        column = sts[0].head[0].column or 1
        if name in out or name in predicates:
            raise reader.error(f"`{name}` is defined twice", hl, column, name,
                               "a query needs a name no predicate or query has")
        bad = [p for p in params if arg_kind(p) != "point"]
        if bad or len(set(params)) != len(params):
            raise reader.error(f"query `{name}` takes distinct points only", hl, column, name,
                               "the value asked for is not an argument: `query: acompute a b c d`")
        computes: Predicate | None = None
        for line, raw in block.lines:
            key, _ = _keyword(raw)
            if key != "computes" or computes is not None:
                raise reader.error(f"unexpected `{key}:` in a query", line, 1, key,
                                   "a query takes one `computes:` line")
            found = reader.statements(raw, line)
            if len(found) != 1:
                raise reader.error("`computes:` takes one predicate", line, 1, key,
                                   "`computes: aconst a b c d angle`")
            computes = reader.predicate(found[0], line, set(params) | set(CONST_KINDS), predicates)
            constants = [a for a in computes.args if isinstance(a, str) and arg_kind(a) != "point"]
            points = [a for a in computes.args if isinstance(a, str) and arg_kind(a) == "point"]
            if len(constants) != 1 or sorted(points) != sorted(params):
                raise reader.error(f"`{name}` must compute the one constant of a predicate on its points",
                                   line, 1, key, f"e.g. `computes: aconst {' '.join(params)} angle`")
        if computes is None:
            raise reader.error(f"query `{name}` has no `computes:` line", hl, column, name,
                               "say which predicate's constant it asks for")
        out[name] = QueryDef(name, params, computes, block.doc, Location(source, hl.number, 1))
    return out


def _read_package_file(name: str) -> tuple[str, str]:
    ref = resources.files("geodsl.rulebase").joinpath(name)
    return ref.read_text("utf-8"), f"rulebase/{name}"


@cache
def rulebase() -> Rulebase:
    """The installed rulebase (read once per process)."""
    ptext, psrc = _read_package_file("predicates.gdl")
    predicates = read_predicates(ptext, psrc)
    ctext, csrc = _read_package_file("constructions.gdl")
    constructions = read_constructions(ctext, csrc, predicates)
    dialect_names: dict[str, dict[str, ConstructionDef]] = {}
    for cdef in constructions.values():
        for dialect, spelled, _ in cdef.dialect_spellings:
            dialect_names.setdefault(dialect, {})[spelled] = cdef
    qtext, qsrc = _read_package_file("queries.gdl")
    return Rulebase(constructions, predicates, dialect_names, read_queries(qtext, qsrc, predicates))



def expand(predicate: Predicate) -> tuple[Predicate, ...]:
    """The fixed-arity facts a statement states: ``cyclic a b c d e`` (Newclid's
    long form, see ``more:`` in predicates.gdl) is ``cyclic a b c d`` and
    ``cyclic a b c e``; every other statement is itself."""
    pdef = rulebase().predicates.get(predicate.name)
    if pdef is None or not pdef.variadic:
        return (predicate,)
    return pdef.expand(predicate)


def canonical(predicate: Predicate) -> Predicate:
    """The same fact with its arguments in canonical order (``para b a d c``
    and ``para c d a b`` both become ``para a b c d``): for comparing facts."""
    return rulebase().predicate(predicate.name).canonical(predicate)
