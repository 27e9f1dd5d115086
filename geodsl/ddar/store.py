"""The fact store: explicit facts, proven lines and circles, and the AR tables,
behind one question — *can this fact be proved, and from what?*

:meth:`Store.prove` answers it for any predicate: a fact already stored; a
structural consequence (three points of one proven line are collinear, four
points of one proven circle are concyclic, equal radii make a circle, ...);
or an angle, ratio, distance or squared-length (Pythagoras) chase. A positive answer materializes the fact with its
parents, so every fact the engine uses has provenance. :meth:`Store.add`
is the only way in: it checks the fact numerically first, and a fact that is
false in the diagram is recorded as a soundness failure (a bug in a rule or
the engine), never stored.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import cast

from ..lang.constants import Constant
from ..lang.definitions import rulebase
from ..lang.terms import Predicate
from .ar import AngleTable, Because, DistanceTable, Points, RatioTable, SquareTable, subtract
from .linear import Form
from .facts import BUILTIN_RULES, Arg, Args, Fact, Key, Side, canonical
from .numeric import NumericModel

SIDE = frozenset(name for name, pdef in rulebase().predicates.items() if pdef.side)
"""Side conditions (``side: yes`` in predicates.gdl): checked on the diagram, never proved."""


class Groups:
    """Point sets closed under "two sets sharing ``share`` points are one":
    lines (share 2) from collinearity facts, circles (share 3) from
    concyclicity facts. Each group keeps the facts that built it."""

    def __init__(self, share: int) -> None:
        self.share = share
        self.members: list[list[int]] = []
        self.facts: list[list[int]] = []
        self.alive: list[bool] = []
        self.absorbed: list[int] = []
        """Groups merged away by the last :meth:`add`."""

    def add(self, points: Sequence[int], fact: int) -> int:
        """Add a set of points (from ``fact``); the id of the group now holding them."""
        pts = sorted(set(points))
        hits = [g for g in range(len(self.members))
                if self.alive[g] and sum(p in self.members[g] for p in pts) >= self.share]
        self.absorbed = hits[1:]
        if len(hits) == 1 and all(p in self.members[hits[0]] for p in pts):
            return hits[0]  # nothing new: the group's own facts already give it
        if not hits:
            self.members.append(pts)
            self.facts.append([fact])
            self.alive.append(True)
            return len(self.members) - 1
        head = hits[0]
        merged = set(self.members[head]) | set(pts)
        facts = list(self.facts[head]) + [fact]
        for g in hits[1:]:
            merged |= set(self.members[g])
            facts.extend(self.facts[g])
            self.alive[g] = False
        self.members[head] = sorted(merged)
        self.facts[head] = sorted(set(facts))
        return head

    def find(self, points: Sequence[int]) -> int | None:
        for g in range(len(self.members)):
            if self.alive[g] and all(p in self.members[g] for p in points):
                return g
        return None


def _connects(share: int, sets: list[tuple[int, ...]], targets: Sequence[int]) -> bool:
    groups = Groups(share)
    for i, s in enumerate(sets):
        groups.add(s, i)
    return groups.find(targets) is not None


class SoundnessError(AssertionError):
    """A derivation produced a fact that is false in the diagram: a bug."""


class Store:
    """Facts, structures and AR tables of one closure run."""

    def __init__(self, model: NumericModel, names: Sequence[str]) -> None:
        self.model = model
        self.names = tuple(names)
        self.facts: list[Fact] = []
        self.index: dict[Key, int] = {}
        self.lines = Groups(2)
        self.circles = Groups(3)
        self.angles = AngleTable()
        self.ratios = RatioTable()
        self.distances = DistanceTable()
        self.squares = SquareTable()
        self._off_line: list[Fact] = []
        """midp and three-point cong facts whose points were not yet on one
        proven line: their position equation waits for the line."""
        self.level = 0
        self.anchor: dict[int, tuple[int, int]] = {}
        """Each line's anchor pair: its first two points when it was made."""
        self.angles.on_new_pair = self._link_new_pair
        self.distances.on_new_pair = self._link_new_length
        self._failed: dict[Key, tuple[int, int, int, int, int, int]] = {}
        """Facts that could not be proved, with the :meth:`epoch` at the time."""
        self.lines_version = 0
        self.circles_version = 0
        self.unsound: list[tuple[str, Args, str, tuple[int, ...]]] = []
        """Derivations whose conclusion was numerically false (bugs)."""

    # ------------------------------------------------------------ adding

    def add(self, name: str, args: Args, rule: str, parents: Sequence[int],
            label: str | None = None, origin: str | None = None,
            sides: Sequence[Side | tuple[str, Args]] = ()) -> int | None:
        """Store a fact (if new and numerically true); its id, or None.
        ``sides``: the side conditions the step rests on, as (predicate,
        args) of a side predicate or (predicate, negated, args)."""
        cargs = canonical(name, args)
        key = (name,) + cargs
        found = self.index.get(key)
        if found is not None:
            return found
        if not self.model.holds(name, cargs):
            self.unsound.append((name, cargs, rule, tuple(parents)))
            return None
        if name == "coll" and rule not in ("premise", "same_line"):
            # Three points of one proven line: say so, rather than through
            # whatever rule reached it first (r28 from a parallel that itself
            # came from the line), which would lengthen every proof using it.
            points = cast(Points, cargs)
            g = self.lines.find(points)
            if g is not None:
                rule, label, parents = "same_line", None, self._prune(self.lines, g, points)
                sides = ()
        fid = len(self.facts)
        fact = Fact(fid, name, cargs, rule, label or BUILTIN_RULES.get(rule, rule),
                    tuple(sorted(set(parents))), self.level, origin, _sides(sides))
        self.facts.append(fact)
        self.index[key] = fid
        self._absorb(fact)
        return fid

    def fork(self, model: NumericModel, names: Sequence[str]) -> "Store":
        """This store over a larger figure: ``model`` and ``names`` extend
        this store's (the same points first, at the same coordinates) —
        how an extended figure's closure starts from the smaller figure's
        (:func:`~.engine.extend`). The facts, immutable, are shared; every
        table, structure and cache is copied, so the fork grows without
        touching this store."""
        if tuple(names[:len(self.names)]) != self.names or model.n < len(self.names):
            raise ValueError("a fork's points must start with the store's own")
        memo: dict[int, object] = {id(self.model): model}
        for fact in self.facts:
            memo[id(fact)] = fact
        other = copy.deepcopy(self, memo)
        other.names = tuple(names)
        return other

    def _absorb(self, fact: Fact) -> None:
        """Feed a new fact to the structures and the AR tables."""
        name, args = fact.name, fact.args
        if name == "coll" and len(set(args)) == 3:
            self._grow_line(cast(Points, args), fact.id)
            return
        if name == "cyclic" and len(set(args)) == 4:
            self.circles.add(cast(Points, args), fact.id)
            self.circles_version += 1
        for form in self.angles.forms(name, args):
            self.angles.add(form, fact.id)
        for form in self.ratios.forms(name, args):
            self.ratios.add(form, fact.id)
        for form in self.distances.forms(name, args):
            self.distances.add(form, fact.id)
        for form in self.squares.forms(name, args):
            self.squares.add(form, fact.id)
        if name == "midp" or (name == "cong" and len(set(args)) == 3):
            self._position_equations(fact)

    def _position_equations(self, fact: Fact) -> bool:
        """Add a fact's position equations if its points are on one proven
        line, else keep it for when they are (only if they are on one line
        in the diagram: an isosceles triangle's equal sides never will be);
        True once added."""
        forms = self._distance_forms(fact.name, fact.args)
        if not forms:
            if self.model.holds("coll", tuple(sorted(set(cast(Points, fact.args))))[:3]):
                self._off_line.append(fact)
            return False
        for form, line_facts, sides in forms:
            self.distances.add(form, (fact.id,) + line_facts, sides)
        return True

    def _grow_line(self, points: Sequence[int], fact: int) -> None:
        """Merge a collinearity into the proven lines and link the angle
        table's variables: each pair now on the line, and each line merged
        into it, gets the line's direction (see :class:`~.ar.AngleTable`)."""
        g = self.lines.add(points, fact)
        self.lines_version += 1
        if g not in self.anchor:
            first, second = self.lines.members[g][:2]
            self.anchor[g] = (first, second)
        line_var = self.angles.line_var(g)
        for old in self.lines.absorbed:
            self.angles.link(self.angles.line_var(old), line_var,
                             self._line_reason(g, self.anchor[old] + self.anchor[g]))
        members = self.lines.members[g]
        for i, p in enumerate(members):
            for q in members[i + 1:]:
                var = self.angles.pair_var.get((p, q))
                if var is not None and var not in self.angles.linked:
                    self.angles.link(var, line_var, self._line_reason(g, (p, q) + self.anchor[g]))
        self._link_distances(g)

    def _link_distances(self, g: int) -> None:
        """Tie line g into the distance table: the positions of each line
        merged into it, and the length of each pair of its points."""
        table = self.distances
        anchor = self.anchor[g]
        for old in self.lines.absorbed:
            sense = self.model.sense_everywhere(self.anchor[old], anchor)
            if not sense:
                continue
            ref = self.anchor[old][0]
            order = (_same_way(self.anchor[old], anchor, sense),)
            for p in self.lines.members[old]:
                if p == ref:
                    continue
                form = subtract(table.signed(old, ref, p), table.signed(g, ref, p, sense))
                table.add(form, self._line_reason(g, (ref, p) + self.anchor[old] + anchor), order)
        members = self.lines.members[g]
        for i, p in enumerate(members):
            for q in members[i + 1:]:
                var = table.pair_var.get((p, q))
                if var is not None and var not in table.linked:
                    self._link_length(g, p, q, var)
        on_line = set(members)
        waiting, self._off_line = self._off_line, []
        for fact in waiting:
            if on_line.issuperset(cast(Points, fact.args)):
                self._position_equations(fact)  # back on the waiting list if it fails
            else:
                self._off_line.append(fact)

    def _link_length(self, g: int, p: int, q: int, var: int) -> None:
        """|pq| = ±(pos q − pos p) on line g, if every diagram agrees on the sign."""
        sense = self.model.sense_everywhere(self.anchor[g], (p, q))
        if sense:
            self.distances.link(var, self.distances.signed(g, p, q, sense),
                                self._line_reason(g, (p, q) + self.anchor[g]),
                                (_same_way(self.anchor[g], (p, q), sense),))

    def _distance_forms(self, name: str, args: Args
                        ) -> list[tuple[Form, tuple[int, ...], tuple[Side, ...]]]:
        """Position equations of a fact on one proven line, with the
        collinearity facts that put its points there and the order of points
        they rest on (none for a midpoint: it lies between the two points
        whatever the figure)."""
        if name == "midp":
            m, a, b = cast(Points, args)
            g = self.lines.find((m, a, b))
            if g is None or len({m, a, b}) < 3:
                return []
            t = self.distances
            form = subtract(t.signed(g, a, m), t.signed(g, m, b))  # 2·pos m − pos a − pos b
            return [(form, self._line_reason(g, (m, a, b)), ())]
        if name == "cong":
            same = self._same_line_difference(*cast(Points, args))
            return [] if same is None else [same]
        return []

    def _same_line_difference(self, a: int, b: int, c: int, d: int
                              ) -> tuple[Form, tuple[int, ...], tuple[Side, ...]] | None:
        """(pos b − pos a) ∓ (pos d − pos c) for two segments of one proven
        line, the sign from the diagrams, with the line's facts and that
        sign as a side condition; or None."""
        if a == b or c == d:
            return None
        g = self.lines.find(sorted({a, b, c, d}))
        if g is None:
            return None
        sense = self.model.sense_everywhere((a, b), (c, d))
        if not sense:
            return None
        t = self.distances
        return (subtract(t.signed(g, a, b), t.signed(g, c, d, sense)), self._line_reason(g, (a, b, c, d)),
                (_same_way((a, b), (c, d), sense),))

    def _link_new_pair(self, a: int, b: int, var: int) -> None:
        """A pair variable created for two points of a proven line: link it now."""
        g = self.lines.find((a, b))
        if g is not None:
            self.angles.link(var, self.angles.line_var(g), self._line_reason(g, (a, b) + self.anchor[g]))

    def _link_new_length(self, a: int, b: int, var: int) -> None:
        """A length variable created for two points of a proven line: link it now."""
        g = self.lines.find((a, b))
        if g is not None:
            self._link_length(g, a, b, var)

    def _line_reason(self, g: int, points: Sequence[int]) -> tuple[int, ...]:
        """The fewest collinearity facts of line g that put ``points`` on one line."""
        return tuple(self._prune(self.lines, g, points))

    # ------------------------------------------------------------ proving

    def epoch(self) -> tuple[int, int, int, int, int, int]:
        """Changes whenever something a proof can use changes: the AR
        tables, the proven lines, the proven circles. (A new fact that the
        tables already implied changes nothing.)"""
        return (self.angles.table.version, self.ratios.table.version, self.distances.table.version,
                self.squares.table.version, self.lines_version, self.circles_version)

    def key(self, name: str, args: Args) -> Key:
        return (name,) + canonical(name, args)

    def prove(self, name: str, args: Args, key: Key | None = None) -> int | None:
        """Prove ``name args`` if the store can, materializing it; its id or None.

        A failure is remembered until the store's :meth:`epoch` changes
        (before that, the same question gets the same answer), since rules
        ask for the same premises many times."""
        if name in SIDE:
            raise ValueError(f"side condition `{name}` is checked on the diagram, not proved")
        if key is None:
            key = self.key(name, args)
        found = self.index.get(key)
        if found is not None:
            return found
        if self._failed.get(key) == self.epoch():
            return None
        if not self.model.holds(name, cast(Args, key[1:])):  # a key is (name, *canonical args)
            found = None
        else:
            found = self._prove(name, args)
        if found is None:
            self._failed[key] = self.epoch()
        return found

    def _prove(self, name: str, args: Args) -> int | None:
        """Prove from the structures, the chases or what the predicate means,
        in that order (:func:`_methods`, from the predicate's registry entry)."""
        points = [a for a in args if isinstance(a, int)]
        if name == "coll":
            return self._on_group(self.lines, "coll", args, "same_line")
        if name == "cyclic":
            return self._on_group(self.circles, "cyclic", args, "same_circle")
        if name == "para" and len(set(points)) >= 3:
            g = self.lines.find(sorted(set(points)))
            if g is not None:  # one proven line
                return self._from_group(self.lines, g, "para", args, "same_line", points)
        for method in _methods(name):
            because: Because | None
            if method == "angle_chase":
                because = self.angles.query(name, args)
            elif method == "angle_chase_halved":
                because = self._halved(name, args)
            elif method == "ratio_chase":
                because = self.ratios.query(name, args)
            elif method == "distance_chase":
                because = self._distance_query(name, args)
            elif method == "pythagoras_chase":
                because = self.squares.query(name, args)
            else:  # what the predicate means: every one of its facts
                pdef = rulebase().predicate(name)
                assert pdef.means is not None
                # Every fact is asked for, even after one fails: what the
                # store proves along the way stays proved.
                found = [self.prove(fact.name, _substitute(fact, pdef.params, args)) for fact in pdef.means.facts]
                parents = [fid for fid in found if fid is not None]
                if len(parents) < len(found):
                    return None
                return self.add(name, args, method, parents, label=pdef.means.label)
            if because is not None:
                return self.add(name, args, method, because.facts, sides=because.sides)
        return None

    def _halved(self, name: str, args: Args) -> Because | None:
        """An angle chase with a halved angle: the combination proves k times
        the target, and the figure picks the branch (every diagram must
        agree). The step rests on the conditions that rule out the other
        branches (:func:`branch_sides`), stated as its side conditions."""
        found = self.angles.query_rational(name, args)
        if found is None or not self.model.holds_everywhere(name, canonical(name, args)):
            return None
        because, k = found
        branch = branch_sides(name, canonical(name, args), k)
        if branch is None:
            return None
        return Because(because.facts, because.sides + branch)

    def _distance_query(self, name: str, args: Args) -> Because | None:
        """A distance chase: on one line by positions, else by lengths."""
        if name == "cong":
            same = self._same_line_difference(*cast(Points, args))
            if same is not None:
                found = self.distances.zero(same[0])
                if found is not None:
                    return Because(tuple(sorted(set(found.facts) | set(same[1]))),
                                   tuple(dict.fromkeys(found.sides + same[2])))
        return self.distances.query(name, args)

    def _on_group(self, groups: Groups, name: str, args: Args, rule: str) -> int | None:
        points = [a for a in args if isinstance(a, int)]
        if len(set(points)) != len(points):
            return None
        g = groups.find(points)
        if g is None:
            return None
        return self._from_group(groups, g, name, args, rule, points)

    def _from_group(self, groups: Groups, g: int, name: str, args: Args, rule: str,
                    points: Sequence[int]) -> int | None:
        """Materialize a fact that holds because its points lie on group g,
        with the fewest group facts that still put them there."""
        return self.add(name, args, rule, self._prune(groups, g, points))

    def _prune(self, groups: Groups, g: int, points: Sequence[int]) -> list[int]:
        """Greedily drop facts of group g that ``points`` do not need."""
        parents = list(groups.facts[g])
        targets = sorted(set(points))
        if len(parents) > 40 or len(targets) <= groups.share:
            return parents if len(targets) > groups.share else []
        for f in list(parents):
            rest = [p for p in parents if p != f]
            sets = [tuple(a for a in self.facts[p].args if isinstance(a, int)) for p in rest]
            if rest and _connects(groups.share, sets, targets):
                parents = rest
        return parents


def _substitute(fact: Predicate, params: tuple[str, ...], args: Args) -> Args:
    """A ``means:`` fact's arguments (parameter names) for the fact's ``args``."""
    return tuple(args[params.index(a)] if isinstance(a, str) else a for a in fact.args)


@cache
def _methods(name: str) -> tuple[str, ...]:
    """How the store tries to prove ``name``, in order: each AR table that
    can (an angle chase, the same with a halved angle, a ratio, distance or
    Pythagoras chase), then the predicate's ``means:`` rule."""
    out = []
    if AngleTable.proves(name):
        out += ["angle_chase", "angle_chase_halved"]
    if RatioTable.proves(name):
        out.append("ratio_chase")
    if DistanceTable.proves(name):
        out.append("distance_chase")
    if SquareTable.proves(name):
        out.append("pythagoras_chase")
    means = rulebase().predicate(name).means
    if means is not None:
        out.append(means.rule)
    return tuple(out)


def _sides(sides: Sequence[Side | tuple[str, Args]]) -> tuple[Side, ...]:
    """Side conditions in one spelling: (predicate, negated, canonical args),
    each once, in order. A pair (predicate, args) is a side predicate, as a
    rule's side conditions arrive from the firing loop."""
    out: dict[Side, None] = {}
    for side in sides:
        if len(side) == 2:
            name, args = side
            negated = False
        else:
            name, negated, args = side
        out[(name, negated, canonical(name, args))] = None
    return tuple(out)


def _same_way(first: tuple[int, int], second: tuple[int, int], sense: int) -> Side:
    """The side condition that the pairs point the same way (``sense`` 1)
    or opposite ways (-1): ``samedir``, the first pair reversed for -1."""
    a, b = first if sense > 0 else (first[1], first[0])
    return ("samedir", False, canonical("samedir", (a, b) + tuple(second)))


def branch_sides(name: str, args: Args, k: int) -> tuple[Side, ...] | None:
    """The side conditions that pick the branch of a halved angle chase.

    The chase proved k·T ≡ 0 (mod π) for the target's angle form T (its one
    ``angles:`` equation, left − right), so T ≡ jπ/k for some j; the figure
    shows j = 0. Each other branch T ≡ jπ/k is the equation of some
    predicate over the same angles (for a perpendicular with k = 2, a
    parallel), found in the registry (:func:`_shifted`); the step rests on
    each being false — stated through the side predicate that negates it
    (``npara``) where there is one. None if a branch has no predicate."""
    out: list[Side] = []
    for j in range(1, k):
        shifted = _shifted(name, args, Fraction(j, k))
        if shifted is None:
            return None
        other, other_args = shifted
        negation = _negating_side(other)
        if negation is not None:
            out.append((negation, False, canonical(negation, other_args)))
        else:
            out.append((other, True, canonical(other, other_args)))
    return tuple(out)


@cache
def _negating_side(name: str) -> str | None:
    for pdef in rulebase().predicates.values():
        if pdef.side and pdef.negates is not None and pdef.negates.name == name \
                and pdef.negates.args == rulebase().predicate(name).params:
            return pdef.name
    return None


def _shifted(name: str, args: Args, delta: Fraction) -> tuple[str, Args] | None:
    """A predicate, with arguments, whose angle equation is the target's
    shifted by ``delta`` (T − delta ≡ 0): same angles term by term, the
    constant moved. Predicates with a fixed constant (para, perp, eqangle)
    are preferred to those with a constant parameter (aconst, anglediff)."""
    ((atoms, consts),) = _linear_angles(name)
    target = _evaluate(consts, args) - delta
    for fixed in (True, False):
        for other in rulebase().predicates.values():
            if other.side or len(other.equations.get("angles", ())) != 1:
                continue
            o_atoms, o_consts = _linear_angles(other.name)[0]
            params = [c for c in o_consts if c[1] is not None]
            if fixed != (not params) or len(o_atoms) != len(atoms) or len(params) > 1:
                continue
            bind: dict[int, Arg] = {}
            if not all(c1 == c2 and _bind(bind, p2, [args[i] for i in p1])
                       for (c1, p1), (c2, p2) in zip(atoms, o_atoms)):
                continue
            numbers = sum((c for c, p in o_consts if p is None), Fraction(0))
            if not params:
                if (numbers - target) % 1 == 0 and len(bind) == other.arity:
                    return other.name, tuple(bind[i] for i in range(other.arity))
                continue
            coef, index = params[0]
            assert index is not None  # params holds the constant terms with a parameter
            value = (target - numbers) / coef % 1
            if any(i not in bind for i in range(other.arity) if i != index):
                continue
            bind[index] = Constant("angle", value)
            return other.name, tuple(bind[i] for i in range(other.arity))
    return None


def _bind(bind: dict[int, Arg], params: tuple[int, ...], points: list[Arg]) -> bool:
    for p, value in zip(params, points):
        if bind.setdefault(p, value) != value:
            return False
    return True


@cache
def _linear_angles(name: str) -> tuple[tuple[tuple[tuple[Fraction, tuple[int, ...]], ...],
                                             tuple[tuple[Fraction, int | None], ...]], ...]:
    """The ``angles:`` equations of ``name`` as (coef, parameter indices) per
    angle and (coef, parameter or None) per constant term, left − right."""
    out = []
    for eq in rulebase().predicate(name).equations.get("angles", ()):
        atoms, consts = eq.linear()
        out.append((tuple((c, a.points) for c, a in atoms), consts))
    return tuple(out)


def _evaluate(consts: tuple[tuple[Fraction, int | None], ...], args: Args) -> Fraction:
    """The constant terms' value (numbers and constant arguments), in π."""
    total = Fraction(0)
    for coef, param in consts:
        if param is None:
            total += coef
        else:
            arg = args[param]
            assert isinstance(arg, Constant)
            total += coef * Fraction(arg.value)
    return total
