"""Premises sampled layer by layer from clause templates (GeoChallenge's
pipeline, first stage).

A premise starts from a free shape (:func:`~.templates.shapes`); each layer
then adds one or two constructions, up to ``depth`` layers. Annealed
branching: layer ℓ adds two constructions with probability
``TWO_PER_LAYER · ANNEAL^(ℓ-1)`` (many branches near the shape, a chain
deeper down), and the arguments of layer ℓ are drawn from the points defined
so far with weight ``exp(-age / T_ℓ)``, ``age`` the number of layers since the
point was made and ``T_ℓ = TEMPERATURE / √ℓ`` (recent entities are preferred
more and more, so deep layers build on each other rather than all hanging
off the shape).

A construction is one template (a fixing clause such as ``midpoint``, or a
single one-degree clause: a point on a line or circle) or, with probability
``INTERSECT``, two one-degree clauses for one point (an intersection).

Every construction is realized before it is kept: the premise with it must
realize (:func:`geodsl.realize`, with tight attempt bounds). A rejected one
is counted under the realizer's reason (``precondition``, ``parallel``,
``no_intersection``, ``too_close``, ...) or one of ours (``no_arguments``:
the figure has no entity of a role; ``repeated``: the clause is already in
the premise; ``invalid``: the language refuses the construction), and
another template is drawn — at most ``ATTEMPTS`` per construction, so
sampling always ends.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..lang.definitions import rulebase
from ..lang.errors import GeoDSLError, RealizationError
from ..lang.parser import parse_problem
from ..realizer import Diagram, SamplerSettings, realize
from ..realizer.rng import Random
from .templates import DEGREES, Template, layered, shapes

TWO_PER_LAYER = 0.6
ANNEAL = 0.7
TEMPERATURE = 2.0
INTERSECT = 0.35
ATTEMPTS = 8
"""Templates drawn, at most, for one construction."""

FAST = SamplerSettings(attempts_per_construction=6, attempts_per_problem=12)
"""Tight realizer bounds while sampling: a construction degenerate in a few
samples is rejected rather than fought for (the finished problem is
realized again with the default bounds, as ``geodsl check`` does)."""

NAMES = "abcdefghijklmnopqrstuvwxyz"


def point_name(i: int) -> str:
    """``a`` … ``z``, then ``a1`` … ``z1``, ``a2`` …"""
    return NAMES[i % 26] + (str(i // 26) if i >= 26 else "")


@dataclass
class Sampled:
    """A sampled premise: its constructions (text, in order), the layer and
    family of each, and what was rejected on the way."""

    constructions: list[str]
    layers: list[int]
    families: list[list[str]]
    points: list[str]
    point_layer: dict[str, int]
    rejections: Counter[str] = field(default_factory=Counter)

    @property
    def depth(self) -> int:
        return max(self.layers)

    def text(self) -> str:
        """The premise as one line of the language."""
        return "; ".join(self.constructions)


class _Entities:
    """The points, lines and circles of the figure so far, with the
    annealed weights of the layer being sampled."""

    def __init__(self, diagram: Diagram, point_layer: dict[str, int], layer: int) -> None:
        self.diagram = diagram
        self.points = list(diagram.names)
        temperature = TEMPERATURE / math.sqrt(layer)
        self.weight = {p: math.exp(-(layer - 1 - point_layer[p]) / temperature) for p in self.points}
        self.lines = [ln.points for ln in diagram.lines() if len(ln.points) >= 2]
        self.circles = [(c.centre_point, c.points) for c in diagram.circles()
                        if c.centre_point is not None and c.points]

    def _pick(self, rng: Random, items: Sequence[object], weights: Sequence[float]) -> int:
        total = sum(weights)
        x = rng.random() * total
        for i, w in enumerate(weights):
            x -= w
            if x < 0:
                return i
        return len(items) - 1

    def point(self, rng: Random, avoid: Sequence[str] = ()) -> str | None:
        pool = [p for p in self.points if p not in avoid]
        if not pool:
            return None
        return pool[self._pick(rng, pool, [self.weight[p] for p in pool])]

    def _pair_on(self, rng: Random, pts: Sequence[str], avoid: Sequence[str]) -> tuple[str, str] | None:
        pool = [p for p in pts if p not in avoid]
        if len(pool) < 2:
            return None
        i = self._pick(rng, pool, [self.weight[p] for p in pool])
        first = pool[i]
        rest = [p for p in pool if p != first]
        return first, rest[self._pick(rng, rest, [self.weight[p] for p in rest])]

    def segment(self, rng: Random, avoid: Sequence[str] = ()) -> tuple[str, str] | None:
        lines = [ln for ln in self.lines if sum(p not in avoid for p in ln) >= 2]
        if lines and rng.random() < 0.85:
            ln = lines[self._pick(rng, lines, [max(self.weight[p] for p in ln) for ln in lines])]
            return self._pair_on(rng, ln, avoid)
        return self._pair_on(rng, self.points, avoid)

    def triangle(self, rng: Random, avoid: Sequence[str] = ()) -> tuple[str, str, str] | None:
        for _ in range(6):
            a = self.point(rng, avoid)
            if a is None:
                return None
            b = self.point(rng, [*avoid, a])
            if b is None:
                return None
            c = self.point(rng, [*avoid, a, b])
            if c is None:
                return None
            if not self.diagram.holds(f"coll {a} {b} {c}"):
                return a, b, c
        return None

    def angle(self, rng: Random, avoid: Sequence[str] = ()) -> tuple[str, str, str] | None:
        """(x, v, y): two drawn lines through v."""
        through: dict[str, list[tuple[str, ...]]] = {}
        for ln in self.lines:
            for p in ln:
                through.setdefault(p, []).append(ln)
        vertices = [v for v in self.points if v not in avoid and len(through.get(v, ())) >= 2]
        if not vertices:
            return self.triangle(rng, avoid)
        v = vertices[self._pick(rng, vertices, [self.weight[p] for p in vertices])]
        lines = through[v]
        i = rng.index(len(lines))
        j = rng.index(len(lines) - 1)
        j = j + 1 if j >= i else j
        xs = [p for p in lines[i] if p != v and p not in avoid]
        ys = [p for p in lines[j] if p != v and p not in avoid]
        if not xs or not ys:
            return None
        return xs[rng.index(len(xs))], v, ys[rng.index(len(ys))]

    def circle(self, rng: Random, avoid: Sequence[str] = ()) -> tuple[str, str] | None:
        """(centre, a point on it)."""
        circles = [(o, pts) for o, pts in self.circles if o not in avoid and any(p not in avoid for p in pts)]
        if circles and rng.random() < 0.85:
            o, pts = circles[self._pick(rng, circles, [self.weight[o] for o, _ in circles])]
            on = [p for p in pts if p not in avoid and p != o]
            if on:
                return o, on[rng.index(len(on))]
        return self._pair_on(rng, self.points, avoid)


def _arguments(template: Template, entities: _Entities, rng: Random) -> list[str] | None:
    """Points (and a degrees constant) for the template's inputs, in parameter order."""
    used: list[str] = []
    out: list[str] = []
    for role in template.roles:
        avoid = [] if template.name == "on_tline" else used
        got: Sequence[str] | None
        if role == "p":
            p = entities.point(rng, avoid)
            got = None if p is None else (p,)
        elif role == "s":
            got = entities.segment(rng, avoid)
        elif role == "t":
            got = entities.triangle(rng, avoid)
        elif role in "aA":
            angle = entities.angle(rng, avoid)
            got = None if angle is None else (angle if role == "a" else (angle[1], angle[0], angle[2]))
        elif role == "c":
            got = entities.circle(rng, avoid)
        elif role == "r":
            circle = entities.circle(rng, avoid)
            got = None if circle is None else (circle[1], circle[0])
        elif role == "D":
            got = (str(DEGREES[rng.index(len(DEGREES))]),)
        else:  # pragma: no cover - templates.check_templates refuses other roles
            raise AssertionError(role)
        if got is None:
            return None
        out.extend(got)
        if role != "D":
            used.extend(got)
    return out


def _clause(template: Template, outputs: Sequence[str], args: Sequence[str]) -> str:
    """The clause text: outputs and inputs put back in parameter order."""
    cdef = rulebase().construction(template.name)
    values = iter(args)
    new = iter(outputs)
    words = [next(new) if i in cdef.output_positions else next(values) for i in range(cdef.arity)]
    return f"{template.name} {' '.join(words)}"


def _draw_template(rng: Random, pool: Sequence[Template]) -> Template:
    families = sorted({t.family for t in pool}, key=[t.family for t in pool].index)
    family = families[rng.index(len(families))]
    members = [t for t in pool if t.family == family]
    return members[rng.index(len(members))]


def _realizes(text: str, seed: int) -> Diagram:
    problem = parse_problem(text)
    return realize(problem, seed=seed, diagrams=1, check_goals=False, settings=FAST)[0]


def sample_premise(rng: Random, depth: int, realize_seed: int) -> Sampled:
    """A premise of up to ``depth`` layers above a free shape (module docstring)."""
    shape = _draw_template(rng, shapes())
    cdef = rulebase().construction(shape.name)
    first = [point_name(i) for i in range(len(cdef.outputs))]
    text = f"{' '.join(first)} = {shape.name} {' '.join(first)}"
    sampled = Sampled([text], [0], [[shape.family]], list(first), {p: 0 for p in first})
    diagram = _realizes(text, realize_seed)
    loci = [t for t in layered() if t.locus]
    for layer in range(1, depth + 1):
        count = 2 if rng.random() < TWO_PER_LAYER * ANNEAL ** (layer - 1) else 1
        added = 0
        for _ in range(count):
            entities = _Entities(diagram, sampled.point_layer, layer)
            for _attempt in range(ATTEMPTS):
                two = rng.random() < INTERSECT
                chosen = [_draw_template(rng, loci), _draw_template(rng, loci)] if two else \
                    [_draw_template(rng, layered())]
                if two and chosen[0] == chosen[1] and chosen[0].name in ("on_dia", "on_bline"):
                    chosen = chosen[:1]
                outputs_of = rulebase().construction(chosen[0].name).outputs
                start = len(sampled.points)
                outputs = [point_name(start + i) for i in range(1 if two else len(outputs_of))]
                clauses = []
                for template in chosen:
                    args = _arguments(template, entities, rng)
                    if args is None:
                        break
                    clauses.append(_clause(template, outputs, args))
                if len(clauses) < len(chosen):
                    sampled.rejections["no_arguments"] += 1
                    continue
                if len(clauses) == 2 and clauses[0] == clauses[1]:
                    sampled.rejections["repeated"] += 1
                    continue
                line = f"{' '.join(outputs)} = {', '.join(clauses)}"
                if _repeats(line, sampled.constructions, outputs):
                    sampled.rejections["repeated"] += 1
                    continue
                try:
                    diagram = _realizes(sampled.text() + "; " + line, realize_seed)
                except RealizationError as exc:
                    sampled.rejections[exc.reason or "degenerate"] += 1
                    continue
                except GeoDSLError:
                    sampled.rejections["invalid"] += 1
                    continue
                sampled.constructions.append(line)
                sampled.layers.append(layer)
                sampled.families.append([t.family for t in chosen])
                sampled.points.extend(outputs)
                sampled.point_layer.update({p: layer for p in outputs})
                added += 1
                break
        if added == 0:
            break
    return sampled


def _repeats(line: str, earlier: Sequence[str], outputs: Sequence[str]) -> bool:
    """The same clauses (up to the new points' names) as an earlier construction."""
    def body(text: str, names: Sequence[str]) -> str:
        head, _, rest = text.partition(" = ")
        mapping = {n: f"#{i}" for i, n in enumerate(head.split())}
        return " ".join(mapping.get(w.rstrip(","), w.rstrip(",")) for w in rest.split())
    mine = body(line, outputs)
    return any(body(e, ()) == mine for e in earlier)
