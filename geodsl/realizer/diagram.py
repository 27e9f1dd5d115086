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

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import overload

import numpy as np

from ..lang.ast import AuxCandidate, Predicate, Problem, Query
from ..lang.errors import GeoDSLError, GoalFalseError, PointError
from ..lang.parser import parse_predicate
from .checks import evaluate
from .measure import Measurement, measure
from .objects import DiagramCircle, DiagramLine, derive
from .rng import Random, check_seed, diagram_seeds
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
class Diagram:
    """One realized figure: coordinates of every point of the premise (and of
    the auxiliary candidates), with the relations that hold in it."""

    problem: Problem
    index: int
    coords: Mapping[str, complex]
    aux: tuple[AuxPoints, ...] = ()
    tol: Tolerance = TOLERANCE
    resampled: int = 0
    """Samples discarded before this one because a goal was false in them
    (the goal chose the configuration, as in AlphaGeometry)."""
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
        return cached  # type: ignore[return-value]

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

    @property
    def resampled(self) -> int:
        """Samples discarded over all diagrams because a goal was false in them."""
        return sum(d.resampled for d in self._diagrams)

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


def goal_false_error(goal: Predicate, samples: int) -> GoalFalseError:
    """The error for a goal that is false in every diagram sampled."""
    where = goal.span
    return GoalFalseError(
        f"goal `{goal.to_text()}` is false in the diagram (in all {samples} diagrams sampled)",
        source=where.source if where else None, line=where.line if where else None,
        column=where.column if where else None, text=goal.to_text(),
        hint="the premise does not imply this goal: check the goal and the constructions")


def realize(problem: Problem | str, seed: int = 0, diagrams: int = 3, *, check_goals: bool = True,
            aux: bool = True, tol: Tolerance = TOLERANCE,
            settings: SamplerSettings = DEFAULT_SETTINGS) -> Diagrams:
    """Realize a problem's premise numerically, ``diagrams`` times.

    ``problem`` is a :class:`~geodsl.lang.ast.Problem` or one problem's text. The
    same ``seed`` gives the same coordinates; diagram i does not depend on how
    many diagrams are asked for. Points placed in the text (``x@1.5_2``) keep
    their coordinates. With ``aux``, each auxiliary candidate is realized on
    top of the premise.

    Goals choose the configuration, as in AlphaGeometry: where the premise
    leaves a discrete choice (which of two intersections), a sample in which
    a goal is false is discarded and the diagram resampled, at most
    ``settings.attempts_per_goal`` times (:attr:`Diagram.resampled` counts
    the discarded samples). A goal false in every sample raises
    :class:`~geodsl.lang.errors.GoalFalseError`; ``check_goals=False`` keeps the
    first sample whatever the goals say (then ``holds(goal)`` tells).

    Raises :class:`~geodsl.lang.errors.RealizationError` for a construction that
    is degenerate in every sample.
    """
    if isinstance(problem, str):
        from ..lang.parser import parse_problem
        problem = parse_problem(problem)
    seed = check_seed(seed)
    if isinstance(diagrams, bool) or not isinstance(diagrams, int) or diagrams < 1:
        raise GeoDSLError(f"asked for {diagrams!r} diagrams", hint="ask for at least one diagram (a whole number)")
    made: list[Diagram] = []
    for index, child in enumerate(diagram_seeds(seed, diagrams)):
        rng = Random(child)
        failures: dict[int, int] = {}
        discarded = 0
        for _ in range(settings.attempts_per_goal if check_goals and problem.goals else 1):
            coords = sample_points(problem.premise.constructions, rng, tol=tol, settings=settings)
            candidate = Diagram(problem, index, coords, (), tol)
            false = [i for i, g in enumerate(problem.goals) if not candidate.holds(g)]
            if not check_goals or not false:
                break
            discarded += 1
            for i in false:
                failures[i] = failures.get(i, 0) + 1
        else:
            worst = min(failures, key=lambda i: (-failures[i], i))
            raise goal_false_error(problem.goals[worst], settings.attempts_per_goal)
        extra: list[AuxPoints] = []
        if aux:
            for cand in problem.aux:
                pts = sample_points(cand.constructions, rng, start=coords, tol=tol, settings=settings)
                extra.append(AuxPoints(cand.label, cand,
                                       {n: z for n, z in pts.items() if n not in coords}))
        made.append(Diagram(problem, index, coords, tuple(extra), tol,
                            resampled=discarded))
    return Diagrams(problem, seed, made)
