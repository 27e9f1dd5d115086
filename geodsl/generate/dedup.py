"""Duplicates up to renaming points and reordering clauses (and options).

Two questions are the same when some renaming of the points maps one's
clauses onto the other's (as a multiset, each clause up to the symmetries
of its arguments) and its options onto the other's, true onto true and
false onto false. Deciding it:

1. a *key*: the Weisfeiler–Lehman hash (networkx) of a graph with a node per
   point, per clause and per option, clause and option nodes labelled by
   their name (constants, negation and truth included) and joined to their
   points by edges labelled with the argument position's orbit under the
   clause's (or predicate's) symmetries. Equal questions have equal keys;
2. for questions with the same key, the graph isomorphisms (at most
   :data:`MAX_MAPPINGS`) are tried as renamings, and one that maps the
   exact signatures (:func:`signature`) onto each other makes a duplicate.

A clause's symmetries are the permutations of its parameters that map the
facts it asserts onto themselves and its outputs onto its outputs (so
``midpoint x a b`` is ``midpoint x b a``, and ``triangle a b c`` any order
of a, b, c); a predicate's are the rulebase's.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import networkx as nx
from networkx.algorithms.isomorphism import GraphMatcher

from ..lang.ast import Arg, Clause, Predicate, Problem
from ..lang.definitions import canonical, rulebase

MAX_MAPPINGS = 64


def _const(a: object) -> str:
    return "" if isinstance(a, str) else f"#{a}"


@cache
def _clause_orbits(name: str) -> tuple[int, ...]:
    """Orbit index of each parameter position under the clause's symmetries."""
    cdef = rulebase().construction(name)
    n = cdef.arity
    facts = {canonical(p) for p in cdef.asserts}
    outputs = set(cdef.output_positions)
    group: list[tuple[int, ...]] = []
    if n <= 7:
        for perm in itertools.permutations(range(n)):
            if any((perm[i] in outputs) != (i in outputs) for i in range(n)):
                continue
            if any(cdef.kinds[perm[i]] != cdef.kinds[i] for i in range(n)):
                continue
            rename = {cdef.params[i]: cdef.params[perm[i]] for i in range(n)}
            moved = {canonical(Predicate(p.name, tuple(rename.get(a, a) if isinstance(a, str) else a
                                                     for a in p.args))) for p in cdef.asserts}
            if moved == facts:
                group.append(perm)
    else:
        group = [tuple(range(n))]
    return _orbits(n, group)


@cache
def _predicate_orbits(name: str, arity: int) -> tuple[int, ...]:
    pdef = rulebase().predicate(name)
    perms = [p for p in pdef.perms if len(p) == arity] or [tuple(range(arity))]
    return _orbits(arity, perms)


def _orbits(n: int, group: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    orbit = list(range(n))
    for perm in group:
        for i in range(n):
            a, b = orbit[i], orbit[perm[i]]
            if a != b:
                low, high = min(a, b), max(a, b)
                orbit = [low if o == high else o for o in orbit]
    return tuple(orbit)


@dataclass(frozen=True)
class Question:
    """What deduplication compares: the premise's clauses (each with the
    points its construction creates) and the options with their truth."""

    clauses: tuple[tuple[Clause, tuple[str, ...]], ...]
    options: tuple[tuple[Predicate, bool], ...]

    @classmethod
    def of(cls, problem: Problem, truth: Mapping[str, bool]) -> "Question":
        clauses = tuple((cl, c.points) for c in problem.premise.constructions for cl in c.clauses)
        return cls(clauses, tuple((o.predicate, truth[o.label]) for o in problem.options))

    def graph(self) -> "nx.Graph[tuple[str, object]]":
        g: nx.Graph[tuple[str, object]] = nx.Graph()
        points = sorted({str(a) for cl, _ in self.clauses for a in cl.args if isinstance(a, str)}
                        | {p for o, _ in self.options for p in o.points})
        for p in points:
            g.add_node(("p", p), label="point")
        for i, (cl, _) in enumerate(self.clauses):
            node = ("c", i)
            g.add_node(node, label="c:" + cl.name + "".join(_const(a) for a in cl.args))
            orbits = _clause_orbits(cl.name)
            for pos, a in enumerate(cl.args):
                if isinstance(a, str):
                    g.add_edge(node, ("p", a), label=str(orbits[pos]))
        for i, (o, true) in enumerate(self.options):
            node = ("o", i)
            g.add_node(node, label=f"o:{o.name}:{int(o.negated)}:{int(true)}" + "".join(_const(a) for a in o.args))
            orbits = _predicate_orbits(o.name, len(o.args))
            for pos, a in enumerate(o.args):
                if isinstance(a, str):
                    # Two positions of one orbit on one point: keep both labels.
                    old = g.get_edge_data(node, ("p", a))
                    label = str(orbits[pos]) if old is None else "+".join(sorted([old["label"], str(orbits[pos])]))
                    g.add_edge(node, ("p", a), label=label)
        return g

    def key(self) -> str:
        return nx.weisfeiler_lehman_graph_hash(self.graph(), node_attr="label", edge_attr="label", iterations=4)

    def signature(self, rename: Mapping[str, str]) -> tuple[Counter[object], Counter[object]]:
        """Clauses and options with points renamed, each up to its symmetries."""
        rb = rulebase()

        def r(a: Arg) -> Arg:
            return rename.get(a, a) if isinstance(a, str) else a

        clauses: Counter[object] = Counter()
        for cl, outputs in self.clauses:
            cdef = rb.construction(cl.name)
            bind = dict(zip(cdef.params, cl.args))
            facts = frozenset(canonical(Predicate(p.name, tuple(r(bind.get(a, a)) if isinstance(a, str) else a
                                                               for a in p.args))) for p in cdef.asserts)
            consts = tuple(a for a in cl.args if not isinstance(a, str))
            points = frozenset(r(a) for a in cl.args if isinstance(a, str))
            clauses[(cl.name, consts, points, frozenset(r(p) for p in outputs), facts)] += 1
        options: Counter[object] = Counter()
        for o, true in self.options:
            options[(canonical(Predicate(o.name, tuple(r(a) for a in o.args), o.negated)), true)] += 1
        return clauses, options


def same(a: Question, b: Question) -> bool:
    """Whether ``a`` and ``b`` are one question up to renaming (module docstring)."""
    ga, gb = a.graph(), b.graph()
    matcher = GraphMatcher(ga, gb, node_match=lambda x, y: x["label"] == y["label"],
                           edge_match=lambda x, y: x["label"] == y["label"])
    target = b.signature({})
    for mapping in itertools.islice(matcher.isomorphisms_iter(), MAX_MAPPINGS):
        rename = {u[1]: v[1] for u, v in mapping.items() if u[0] == "p"}
        if a.signature(rename) == target:
            return True
    return False


class Deduplicator:
    """Questions seen so far, by key; :meth:`add` refuses a duplicate."""

    def __init__(self) -> None:
        self._by_key: dict[str, list[Question]] = {}

    def add(self, question: Question) -> bool:
        """True if the question is new (and remember it), False for a duplicate."""
        key = question.key()
        bucket = self._by_key.setdefault(key, [])
        if any(same(question, seen) for seen in bucket):
            return False
        bucket.append(question)
        return True
