"""The public realizer API: :func:`realize`, :class:`Diagram`, :class:`Diagrams`.

>>> import geodsl
>>> figs = geodsl.realize("a b c = triangle a b c; h = orthocenter h a b c ? perp a h b c")
>>> figs.holds(geodsl.parse_problem("a b c = triangle a b c; h = orthocenter h a b c ? perp b h c a").goal)
True
>>> x, y = figs[0]["h"]           # coordinates of h in the first diagram

A relation holds iff it holds in every diagram; the diagrams are independent
samples of the same premise, all derived from one seed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast, overload

import numpy as np

from ..budget import Clock
from ..lang.ast import AuxCandidate, Construction, Predicate, Problem, Query
from ..lang.errors import GeoDSLError, GoalFalseError, Location, PointError, RealizationError
from ..lang.parser import parse_predicate
from .checks import evaluate
from .measure import Measurement, measure
from .objects import DiagramCircle, DiagramLine, derive
from .rng import Choice, ChoiceKey, Random, check_seed, diagram_seeds
from .sampler import DEFAULT_SETTINGS, SamplerSettings, sample_points
from .tolerance import TOLERANCE, Tolerance, figure_scale

JSON_DIGITS = 12
"""Coordinates in JSON are rounded to this many decimal places."""


@dataclass(frozen=True)
class AuxPoints:
    """The points one auxiliary candidate adds to a diagram."""

    label: str | None
    candidate: AuxCandidate
    points: Mapping[str, complex]


@dataclass(frozen=True)
class ConfigurationChoice:
    """One discrete choice of a construction in a realized diagram: which of
    two intersections, whether a free shape is mirrored (which side the
    shapes erected on it by a fixed turn, such as an equilateral triangle or
    a square, then fall), which branch of a two-branch recipe."""

    construction: int
    """Index of the construction in the premise (0-based)."""
    text: str
    """The construction, as text."""
    where: Location | None
    what: str
    """``intersection``, ``orientation`` or ``branch``."""
    options: tuple[str, ...]
    option: int
    """Index of the option taken, in :attr:`options`."""

    @property
    def taken(self) -> str:
        return self.options[self.option]

    def describe(self) -> str:
        """``the second intersection of `d = on_circle d a b, on_circle d c b` (line 1)``."""
        line = f" (line {self.where.line})" if self.where and self.where.line else ""
        if self.what == "intersection":
            return f"the {self.taken} intersection of `{self.text}`{line}"
        if self.what == "orientation":
            return f"`{self.text}`{line} {self.taken}"
        return f"the {self.taken} {self.what} of `{self.text}`{line}"

    def to_dict(self) -> dict[str, object]:
        return {"construction": self.construction, "text": self.text,
                "line": self.where.line if self.where else None,
                "column": self.where.column if self.where else None,
                "choice": self.what, "option": self.taken, "options": list(self.options)}


@dataclass(frozen=True)
class Diagram:
    """One realized figure: coordinates of every point of the premise (and of
    the auxiliary candidates), with the relations that hold in it."""

    problem: Problem
    index: int
    coords: Mapping[str, complex]
    aux: tuple[AuxPoints, ...] = ()
    tol: Tolerance = TOLERANCE
    resampled: int = 0
    """Samples discarded before this one because a goal was false in every
    configuration tried of them."""
    configuration: tuple[ConfigurationChoice, ...] = ()
    """The discrete choices of the premise's constructions in this diagram,
    in construction order (see :func:`realize`)."""
    configurations: int = 1
    """Configurations realized to find this one (1: the first sample's own
    choices held every goal)."""
    _cache: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    # -- coordinates -----------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """The premise points, in construction order."""
        return tuple(self.coords)

    @property
    def all_coords(self) -> Mapping[str, complex]:
        """Premise points and the points of every auxiliary candidate."""
        out = dict(self.coords)
        for a in self.aux:
            for name, value in a.points.items():
                out.setdefault(name, value)
        return out

    def __getitem__(self, name: str) -> tuple[float, float]:
        """(x, y) of a point, y up."""
        z = self.all_coords[name]
        return (z.real, z.imag)

    def __contains__(self, name: object) -> bool:
        return name in self.all_coords

    def xy(self, names: Sequence[str] | None = None) -> np.ndarray:
        """An (n, 2) array of coordinates (premise points by default)."""
        pts = self.all_coords
        chosen = list(self.coords) if names is None else list(names)
        return np.array([[pts[n].real, pts[n].imag] for n in chosen], dtype=np.float64).reshape(-1, 2)

    @property
    def scale(self) -> float:
        """The figure's radius, the unit of every length tolerance."""
        return figure_scale(self.all_coords.values())

    # -- truth -----------------------------------------------------------------

    def holds(self, predicate: Predicate | str) -> bool:
        """Whether the predicate (possibly negated; a Predicate or DSL text
        such as ``"coll a b c"``, read by :func:`geodsl.parse_predicate`)
        holds in this diagram. A point not in the diagram is a located
        :class:`~geodsl.lang.errors.PointError`."""
        return evaluate(_predicate(predicate, self.all_coords), self.all_coords, self.scale, self.tol)

    # -- derived objects -----------------------------------------------------------

    def _objects(self) -> tuple[list[DiagramLine], list[DiagramCircle]]:
        cached = self._cache.get("objects")
        if cached is None:
            premise = self.problem.premise
            lines, circles = derive(premise.given, self.coords, self.tol, self.scale)
            if premise.auxiliary:  # the constructions given after `|` are drawn as auxiliary
                more_l, more_c = derive(premise.auxiliary, self.coords, self.tol, self.scale, aux=True,
                                        known_lines=lines, known_circles=circles)
                lines, circles = lines + more_l, circles + more_c
            for a in self.aux:
                coords = dict(self.coords)
                coords.update(a.points)
                more_l, more_c = derive(a.candidate.constructions, coords, self.tol, self.scale,
                                        aux=True, known_lines=lines, known_circles=circles)
                lines = lines + more_l
                circles = circles + more_c
            cached = (lines, circles)
            self._cache["objects"] = cached
        return cast(tuple[list[DiagramLine], list[DiagramCircle]], cached)  # the cache holds what was stored above

    def lines(self) -> tuple[DiagramLine, ...]:
        """The lines the premise (and auxiliary constructions) imply."""
        return tuple(self._objects()[0])

    def circles(self) -> tuple[DiagramCircle, ...]:
        """The circles the premise (and auxiliary constructions) imply."""
        return tuple(self._objects()[1])

    # -- export ------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: points, auxiliary points, lines, circles, goal and option truth."""
        def xy(z: complex) -> list[float]:
            return [round(z.real, JSON_DIGITS) + 0.0, round(z.imag, JSON_DIGITS) + 0.0]

        return {
            "index": self.index,
            "points": {n: xy(z) for n, z in self.coords.items()},
            "aux": [{"label": a.label, "points": {n: xy(z) for n, z in a.points.items()}}
                    for a in self.aux],
            "lines": [{"points": list(ln.points), "aux": ln.aux} for ln in self.lines()],
            "circles": [{"centre": xy(c.centre), "radius": round(c.radius, JSON_DIGITS),
                         "centre_point": c.centre_point, "points": list(c.points), "aux": c.aux}
                        for c in self.circles()],
            "configuration": [c.to_dict() for c in self.configuration],
            "configurations_tried": self.configurations,
            "goals": [{"goal": g.to_text(), "holds": self.holds(g)} for g in self.problem.goals],
            "queries": [{"query": q.to_text(), "value": measure(q, [self.all_coords], self.tol).values[0]}
                        for q in self.problem.queries],
            "options": [{"label": o.label, "predicate": o.predicate.to_text(),
                         "holds": self.holds(o.predicate)} for o in self.problem.options],
        }


class Diagrams(Sequence[Diagram]):
    """Independent diagrams of one problem, from one seed."""

    def __init__(self, problem: Problem, seed: int, diagrams: Sequence[Diagram]) -> None:
        self.problem = problem
        self.seed = seed
        self._diagrams = tuple(diagrams)

    @overload
    def __getitem__(self, i: int) -> Diagram: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Diagram]: ...

    def __getitem__(self, i: int | slice) -> Diagram | Sequence[Diagram]:
        return self._diagrams[i]

    def __len__(self) -> int:
        return len(self._diagrams)

    def __iter__(self) -> Iterator[Diagram]:
        return iter(self._diagrams)

    def holds(self, predicate: Predicate | str) -> bool:
        """True iff the predicate (a Predicate or DSL text, see
        :meth:`Diagram.holds`) holds in every diagram."""
        if isinstance(predicate, str):
            predicate = _predicate(predicate, self._diagrams[0].all_coords)
        return all(d.holds(predicate) for d in self._diagrams)

    def extended(self, constructions: Sequence[Construction]) -> "Diagrams":
        """These diagrams with ``constructions`` placed on top of each (the
        problem's ``|`` section grown by them, as
        :meth:`~geodsl.lang.ast.Problem.with_auxiliary`): every earlier
        point keeps its coordinates, so what held of them still holds.

        The new points are sampled as the problem's auxiliary candidates are
        (on top of the premise, from diagram i's own seed; their choices
        keyed after the premise's). A construction degenerate on top of
        diagram i > 0 (a foot that falls on a vertex of a nearly right
        angle there) gets diagram i of the extended problem realized anew,
        as :func:`realize` would give it; degenerate in the first diagram, or
        in every sample, it raises
        :class:`~geodsl.lang.errors.RealizationError`."""
        problem = self.problem.with_auxiliary(constructions)
        first = len(self.problem.premise.constructions)
        made = []
        for d, child in zip(self._diagrams, diagram_seeds(self.seed, len(self._diagrams))):
            try:
                points = sample_points(constructions, Random(child), start=d.coords, tol=d.tol, first=first)
            except RealizationError:
                if d.index == 0:
                    raise
                made.append(realize(problem, self.seed, d.index + 1, aux=False, tol=d.tol)[d.index])
                continue
            made.append(Diagram(problem, d.index, points, (), d.tol, d.resampled, d.configuration,
                                d.configurations))
        return Diagrams(problem, self.seed, made)

    @property
    def resampled(self) -> int:
        """Samples discarded over all diagrams because a goal was false in them."""
        return sum(d.resampled for d in self._diagrams)

    @property
    def configurations(self) -> int:
        """Configurations realized over all diagrams (one per diagram when
        every first sample held the goals)."""
        return sum(d.configurations for d in self._diagrams)

    def measure(self, query: Query) -> Measurement:
        """What ``query`` (``acompute a b c d``) asks for, measured in every
        diagram, with its exact value when they all give the same simple
        fraction (:mod:`geodsl.realizer.measure`). Numeric, not a proof."""
        return measure(query, [d.all_coords for d in self._diagrams], self._diagrams[0].tol)

    def false_goals(self) -> list[tuple[Predicate, list[int]]]:
        """Goals that fail in some diagram, with the diagrams (0-based) where they fail."""
        out = []
        for goal in self.problem.goals:
            failing = [d.index for d in self._diagrams if not d.holds(goal)]
            if failing:
                out.append((goal, failing))
        return out

    def to_dict(self) -> dict[str, object]:
        return {"problem": self.problem.name, "seed": self.seed,
                "diagrams": [d.to_dict() for d in self._diagrams]}


def _predicate(predicate: Predicate | str, points: Mapping[str, complex]) -> Predicate:
    """Text read by the language's one predicate reader; points checked against the diagram."""
    if isinstance(predicate, str):
        return parse_predicate(predicate, tuple(points))
    missing = [p for p in predicate.points if p not in points]
    if missing:
        raise PointError(f"point `{missing[0]}` is not in the diagram", text=missing[0],
                         hint=f"its points are {', '.join(points)}")
    return predicate


def goal_false_error(goal: Predicate, samples: int, configurations: int = 0,
                     choices: Sequence[str] = ()) -> GoalFalseError:
    """The error for a goal that is false in every sample and configuration
    tried: ``samples`` samples, ``configurations`` realizations in all, and
    the discrete choices met (described)."""
    where = goal.span
    if not choices:
        how = f"in all {samples} samples; the premise leaves no discrete choice"
    else:
        listed = "; ".join(choices[:MAX_LISTED])
        more = f"; and {len(choices) - MAX_LISTED} more" if len(choices) > MAX_LISTED else ""
        how = (f"in all {samples} samples and all {configurations} configurations tried of their "
               f"discrete choices: {listed}{more}")
    return GoalFalseError(
        f"goal `{goal.to_text()}` is false in the diagram ({how})",
        source=where.source if where else None, line=where.line if where else None,
        column=where.column if where else None, text=goal.to_text(),
        hint="the premise does not imply this goal in any configuration: check the goal and the "
             "constructions")


MAX_LISTED = 6
"""Choices a goal-false error lists by name."""


def _configuration(constructions: Sequence[Construction],
                   trace: Mapping[ChoiceKey, Choice]) -> tuple[ConfigurationChoice, ...]:
    out = []
    for (k, _), choice in sorted(trace.items()):
        if 0 <= k < len(constructions):
            c = constructions[k]
            out.append(ConfigurationChoice(k, c.to_text(), c.span, choice.what, choice.options,
                                           choice.option))
    return tuple(out)


def _plans(trace: Mapping[ChoiceKey, Choice], cap: int, rng: Random) -> Iterator[dict[ChoiceKey, int]]:
    """The other configurations of a sample whose choices were ``trace``:
    all of them (fewest changed choices first, latest choices first: a
    late choice changes less of the figure) when
    there are at most ``cap``, else ``cap`` distinct ones drawn from ``rng``."""
    keys = sorted(trace)
    sizes = [len(trace[k].options) for k in keys]
    base = [trace[k].option for k in keys]
    if cap <= 0 or not keys:
        return
    total = math.prod(sizes)
    if total - 1 <= cap:
        for changed in range(1, len(keys) + 1):
            for subset in itertools.combinations(range(len(keys) - 1, -1, -1), changed):
                alternatives = [[o for o in range(sizes[i]) if o != base[i]] for i in subset]
                for picks in itertools.product(*alternatives):
                    plan = {keys[i]: base[i] for i in range(len(keys))}
                    for i, o in zip(subset, picks):
                        plan[keys[i]] = o
                    yield plan
        return
    seen = {tuple(base)}
    for _ in range(4 * cap):  # bounded: duplicates are drawn again, a few times at most
        if len(seen) > cap:
            return
        options = tuple(rng.index(n) for n in sizes)
        if options in seen:
            continue
        seen.add(options)
        yield dict(zip(keys, options))


def _describe_sites(constructions: Sequence[Construction], sites: Mapping[ChoiceKey, Choice]) -> list[str]:
    out = []
    for (k, _), choice in sorted(sites.items()):
        if 0 <= k < len(constructions):
            c = constructions[k]
            line = f" (line {c.span.line})" if c.span and c.span.line else ""
            what = "the orientation" if choice.what == "orientation" else f"the {choice.what}"
            out.append(f"{what} of `{c.to_text()}`{line}")
    return out


def realize(problem: Problem | str, seed: int = 0, diagrams: int = 3, *, check_goals: bool = True,
            aux: bool = True, tol: Tolerance = TOLERANCE,
            settings: SamplerSettings = DEFAULT_SETTINGS, clock: Clock | None = None) -> Diagrams:
    """Realize a problem's premise numerically, ``diagrams`` times.

    ``problem`` is a :class:`~geodsl.lang.ast.Problem` or one problem's text. The
    same ``seed`` gives the same coordinates; diagram i does not depend on how
    many diagrams are asked for. Points placed in the text (``x@1.5_2``) keep
    their coordinates. With ``aux``, each auxiliary candidate is realized on
    top of the premise.

    Goals choose the configuration. A premise leaves discrete choices:
    which of two intersections, whether a free shape is mirrored (hence on
    which side an equilateral triangle or a square is erected on it), which
    branch of a two-branch recipe. When a goal is false in a sample, the
    other configurations of the *same* sample (same continuous draws, other
    choices) are realized before the sample is discarded: all 2^k of k
    binary choices up to ``settings.configurations_per_sample``, seeded
    draws of that many beyond. The first configuration (fewest changed
    choices first) where every goal holds is kept;
    :attr:`Diagram.configuration` lists its choices and
    :attr:`Diagram.configurations` counts the configurations realized. A
    goal false in every configuration of ``settings.attempts_per_goal``
    samples (at most ``settings.configurations_per_goal`` realizations in
    all) raises :class:`~geodsl.lang.errors.GoalFalseError`, naming the
    choices it tried; ``check_goals=False`` keeps the first sample whatever
    the goals say (then ``holds(goal)`` tells).

    ``clock`` (a started :class:`~geodsl.budget.Budget`) stops the work with
    :class:`~geodsl.budget.BudgetExceeded` (stage ``realize``) when it runs
    out. Raises :class:`~geodsl.lang.errors.RealizationError` for a
    construction that is degenerate in every sample.
    """
    if isinstance(problem, str):
        from ..lang.parser import parse_problem
        problem = parse_problem(problem)
    seed = check_seed(seed)
    if isinstance(diagrams, bool) or not isinstance(diagrams, int) or diagrams < 1:
        raise GeoDSLError(f"asked for {diagrams!r} diagrams", hint="ask for at least one diagram (a whole number)")
    constructions = problem.premise.constructions
    checking = check_goals and bool(problem.goals)
    made: list[Diagram] = []
    for index, child in enumerate(diagram_seeds(seed, diagrams)):
        rng = Random(child)
        failures: dict[int, int] = {}
        sites: dict[ChoiceKey, Choice] = {}
        discarded = tried = samples = 0
        found: tuple[dict[str, complex], dict[ChoiceKey, Choice], Random] | None = None

        def goals_false(coords: Mapping[str, complex]) -> list[int]:
            candidate = Diagram(problem, index, coords, (), tol)
            return [i for i, g in enumerate(problem.goals) if not candidate.holds(g)]

        for _ in range(settings.attempts_per_goal if checking else 1):
            start = rng.position
            coords = sample_points(constructions, rng, tol=tol, settings=settings, clock=clock)
            trace = dict(rng.trace)
            tried += 1
            samples += 1
            false = goals_false(coords) if checking else []
            if not false:
                found = (coords, trace, rng)
                break
            for i in false:
                failures[i] = failures.get(i, 0) + 1
            for key, choice in trace.items():
                sites.setdefault(key, choice)
            room = min(settings.configurations_per_sample, settings.configurations_per_goal - tried)
            for plan in _plans(trace, room, rng):
                variant = rng.at(start, plan)
                tried += 1
                try:
                    other = sample_points(constructions, variant, tol=tol, settings=settings, clock=clock,
                                          max_failures=settings.passes_per_configuration)
                except RealizationError:
                    continue  # this choice makes a later construction degenerate
                if not goals_false(other):
                    found = (other, dict(variant.trace), variant)
                    break
            if found is not None or tried >= settings.configurations_per_goal:
                break
            discarded += 1
        if found is None:
            worst = min(failures, key=lambda i: (-failures[i], i))
            raise goal_false_error(problem.goals[worst], samples, tried,
                                   _describe_sites(constructions, sites))
        coords, trace, rng = found
        extra: list[AuxPoints] = []
        if aux:
            for cand in problem.aux:
                pts = sample_points(cand.constructions, rng, start=coords, tol=tol, settings=settings,
                                    clock=clock, first=-1 - len(cand.constructions))
                extra.append(AuxPoints(cand.label, cand,
                                       {n: z for n, z in pts.items() if n not in coords}))
        made.append(Diagram(problem, index, coords, tuple(extra), tol, resampled=discarded,
                            configuration=_configuration(constructions, trace),
                            configurations=tried))
    return Diagrams(problem, seed, made)
