"""Bounded sampling: coordinates for every construction of a premise.

One diagram is built construction by construction. Each construction gets at
most :attr:`SamplerSettings.attempts_per_construction` attempts; an attempt
that draws no random number is not retried (it would fail the same way). When
a construction runs out of attempts, earlier random choices may be what made
it impossible: the diagram goes back to the latest construction it depends
on that drew random numbers, then on a further failure to the one before,
and so on to the first construction; at most
:attr:`SamplerSettings.attempts_per_problem` failures in all, plus one per
construction (a long premise meets more chance failures). Every rejected
attempt records a reason:

=================== =========================================================
``precondition``    a ``requires:`` fact of the clause is false
``parallel``        two lines asked to meet are parallel
``same_line``       two lines asked to meet are the same line
``no_intersection`` a line misses a circle, or two circles do not meet
``concentric``      two circles asked to meet are concentric
``same_circle``     two circles asked to meet are the same circle
``outside``         the intersection is not on the ray or inside the segment
``existing``        the only intersection is a point that already exists
``collinear``       a circle through three collinear points
``undefined``       the recipe has no result (e.g. tangents from inside a circle)
``too_close``       a new point falls on an existing point
``too_far``         a new point lies far outside the figure, or outside the
                    bounded region (:attr:`SamplerSettings.bound`)
``inaccurate``      a fact the clause asserts fails numerically
``placement``       a point placed with ``x@1_2`` does not satisfy its clauses
=================== =========================================================

When every attempt fails, :class:`~geodsl.lang.errors.RealizationError` names the
construction that blocked the diagram most often and its dominant reason:
"`e = on_line e c d, on_line e a b`: the two lines are parallel in every
sample". Nothing loops without a bound.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..budget import Clock
from ..lang.ast import Arg, Clause, Construction, Predicate
from ..lang.definitions import ConstructionDef, rulebase
from ..lang.errors import Location, RealizationError
from .checks import CHECKS, constant_value
from .loci import Degenerate, Locus, intersect, sample_on
from .recipes import LOCI, RECIPES, Context
from .rng import Random
from .tolerance import TOLERANCE, Tolerance


@dataclass(frozen=True, slots=True)
class SamplerSettings:
    """Bounds and figure-quality thresholds of the sampler.

    ``separation`` and ``far`` are relative to the radius of the figure built
    so far (see :func:`geodsl.realizer.tolerance.figure_scale`): a new point
    closer than ``separation * radius`` to another point, or farther than
    ``far * radius`` from the centre, is rejected and resampled.

    The figure stays in a bounded region whatever the number of points: free
    points are sampled inside ``[−free_box, free_box]²``, points on a line or
    circle within ``2 × free_box`` of the figure's centre, and a
    constructed point outside ``[−bound, bound]²`` is rejected (``too_far``)
    and resampled. Free shapes are sampled at unit size near the origin. Both
    boxes grow to twice the largest placed coordinate (``x@1000_0``) so
    that placed points keep their meaning. Since every tolerance is relative
    to the figure's radius, a bounded figure keeps the tolerance of a
    premise of 300 points where it is for 10 (without the box, the radius of
    200 free points reached 10⁸ and false collinearities "held").
    """

    attempts_per_construction: int = 20
    attempts_per_problem: int = 100
    attempts_per_goal: int = 40
    """Samples drawn, at most, until every goal holds (see :func:`geodsl.realizer.realize`)."""
    configurations_per_sample: int = 64
    """Configurations of one sample tried exhaustively (2^k for k binary
    choices) before a goal is called false in it; beyond, this many are
    drawn (seeded)."""
    configurations_per_goal: int = 256
    """Configurations tried, at most, over all samples of one diagram."""
    passes_per_configuration: int = 1
    """Failures allowed while building another configuration of a sample (its
    choice may make a later construction degenerate in this sample): with
    one, the configuration keeps the sample's coordinates or is skipped."""
    separation: float = 0.02
    crowd: int = 50
    """Beyond this many points, ``separation`` shrinks as 1/points: in a
    bounded figure the points crowd, and a fixed gap would reject most
    midpoints and feet of a premise of 1,000 points (a deterministic
    construction that falls too close restarts the whole diagram)."""
    far: float = 12.0
    free_box: float = 10.0
    bound: float = 100.0


DEFAULT_SETTINGS = SamplerSettings()


class Rejected(Exception):
    """One rejected attempt: a reason name, a sentence, where to point."""

    def __init__(self, reason: str, detail: str, where: Location | None, hint: str = "") -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
        self.where = where
        self.hint = hint


# ---------------------------------------------------------------- plans


@dataclass(frozen=True, slots=True)
class _ClausePlan:
    clause: Clause
    cdef: ConstructionDef
    binding: tuple[tuple[str, Arg], ...]   # parameter -> actual argument


def _plans(construction: Construction) -> tuple[_ClausePlan, ...]:
    # Not cached on the construction: equal constructions of different
    # problems have different source spans, and errors point at the span.
    rb = rulebase()
    out = []
    for cl in construction.clauses:
        cdef = rb.construction(cl.name)
        out.append(_ClausePlan(cl, cdef, tuple(zip(cdef.params, cl.args))))
    return tuple(out)


def _pred_text(pred: Predicate, binding: Mapping[str, Arg]) -> str:
    words = [pred.name]
    for a in pred.args:
        actual = binding.get(a, a) if isinstance(a, str) else a
        words.append(actual if isinstance(actual, str) else actual.to_text())
    return " ".join(words)


def _precondition_detail(pred: Predicate, binding: Mapping[str, Arg]) -> str:
    names = [str(binding.get(a, a)) if isinstance(a, str) else "" for a in pred.args]
    if pred.name == "diff":
        if names[0] == names[1]:
            return f"`{names[0]}` is given twice where two different points are needed"
        return f"`{names[0]}` and `{names[1]}` are the same point"
    if pred.name == "ncoll":
        return f"{names[0]}, {names[1]} and {names[2]} are collinear"
    if pred.name == "npara":
        return f"lines {names[0]}{names[1]} and {names[2]}{names[3]} are parallel"
    if pred.name == "nperp":
        return f"lines {names[0]}{names[1]} and {names[2]}{names[3]} are perpendicular"
    return f"the precondition `{_pred_text(pred, binding)}` is false"


_HINTS = {
    "parallel": "the two lines never cross: choose loci of different directions",
    "same_line": "both clauses give the same line, so they do not fix the point",
    "same_circle": "both clauses give the same circle, so they do not fix the point",
    "no_intersection": "the two loci do not meet in this figure: check the clause arguments",
    "concentric": "concentric circles never cross: choose a circle with another centre",
    "outside": "the loci meet outside the ray or segment the clause allows",
    "existing": "the loci meet only at a point that already exists",
    "collinear": "a circle needs three points that are not on one line",
    "too_close": "the construction gives a point that already exists",
    "too_far": "the loci are nearly parallel in every sample: the point runs off the figure",
    "inaccurate": "the construction is numerically ill-conditioned",
    "placement": "the coordinates after `@` must satisfy the clauses; fix or drop them",
}


# ---------------------------------------------------------------- one construction


def _figure(points: Mapping[str, complex]) -> tuple[complex, float]:
    if not points:
        return 0j, 1.0
    pts = list(points.values())
    centre = sum(pts, 0j) / len(pts)
    return centre, max(1e-9, max(abs(p - centre) for p in pts))


def _check(pred: Predicate, env: Mapping[str, complex | float], tol: Tolerance, scale: float) -> bool:
    values = [env[a] if isinstance(a, str) else constant_value(a) for a in pred.args]
    return CHECKS[pred.name](values, tol, scale)


def construct(construction: Construction, points: Mapping[str, complex], rng: Random,
              tol: Tolerance = TOLERANCE,
              settings: SamplerSettings = DEFAULT_SETTINGS,
              region: tuple[float, float] | None = None) -> dict[str, complex]:
    """The new points of one construction given the earlier ones (one attempt).

    ``region`` is (free box, bound) (see :class:`SamplerSettings`; default:
    theirs). Raises :class:`Rejected` when this attempt is degenerate.
    """
    box, bound = region or (settings.free_box, settings.bound)
    centre, radius = _figure(points)
    ctx = Context(rng, tol, centre, radius, box)
    where = construction.span
    placed = {name: complex(float(x), float(y)) for name, x, y in construction.placements}
    all_placed = all(p in placed for p in construction.points)
    new: dict[str, complex] = {}
    loci: dict[str, list[Locus]] = {}
    envs: list[dict[str, complex | float]] = []
    plans = _plans(construction)
    for plan in plans:
        env: dict[str, complex | float] = {}
        binding = dict(plan.binding)
        for param, arg in plan.binding:
            if isinstance(arg, str):
                if arg in points:
                    env[param] = points[arg]
            else:
                env[param] = constant_value(arg)
        envs.append(env)
        for req in plan.cdef.requires:
            if not _check(req, env, tol, radius):
                raise Rejected("precondition", _precondition_detail(req, binding), plan.clause.span,
                               f"`{plan.clause.name}` requires `{_pred_text(req, binding)}`")
        if all_placed:
            continue
        for step in plan.cdef.steps:
            try:
                args = [env[a] for a in step.args]
                if step.kind == "fixes":
                    outs = RECIPES[step.recipe](ctx, *args)
                    for param, value in zip(step.points, outs):
                        env[param] = value
                        new[str(binding[param])] = value
                else:
                    loci.setdefault(str(binding[step.points[0]]), []).append(
                        LOCI[step.recipe](ctx, *args))
            except Degenerate as exc:
                raise Rejected(exc.reason, exc.detail, plan.clause.span,
                               _HINTS.get(exc.reason, "")) from None
    if not all_placed:
        for name, found in loci.items():
            new[name] = _on_loci(name, found, points, ctx, where)
    new.update(placed)
    # The clause facts see the outputs too.
    for plan, env in zip(plans, envs):
        for param, arg in plan.binding:
            if isinstance(arg, str) and arg in new:
                env[param] = new[arg]
    _validate(construction, plans, new, placed, points, envs, tol, settings, box, bound)
    return new


def _on_loci(name: str, found: list[Locus], points: Mapping[str, complex], ctx: Context,
             where: Location | None) -> complex:
    if len(found) == 1:
        return sample_on(found[0], ctx.rng, ctx.centre, min(ctx.radius, ctx.box))
    try:
        candidates = intersect(found[0], found[1], ctx.tol, ctx.scale)
    except Degenerate as exc:
        raise Rejected(exc.reason, exc.detail, where, _HINTS.get(exc.reason, "")) from None
    # A candidate equal to an existing point is discarded first (AlphaGeometry).
    near = 1e3 * ctx.tol.length_at(ctx.scale)
    fresh = [x for x in candidates if all(abs(x - p) > near for p in points.values())]
    if not fresh:
        hit = min(points, key=lambda q: abs(points[q] - candidates[0]))
        raise Rejected("existing", f"the only intersection is the existing point `{hit}`", where,
                       _HINTS["existing"])
    if len(fresh) == 1:
        return fresh[0]
    return fresh[ctx.rng.choose(_INTERSECTIONS[:len(fresh)], "intersection")]


_INTERSECTIONS = ("first", "second")
"""The two candidates where two loci meet, in :func:`~.loci.intersect`'s order
(for two circles, the first is left of the line from the first centre to the
second; for a line and a circle, the first comes first along the line)."""


def _validate(construction: Construction, plans: tuple[_ClausePlan, ...], new: Mapping[str, complex], placed: Mapping[str, complex],
              points: Mapping[str, complex], envs: list[dict[str, complex | float]],
              tol: Tolerance, settings: SamplerSettings, box: float = math.inf,
              bound: float = math.inf) -> None:
    where = construction.span
    for name, value in new.items():
        if not (value.real == value.real and value.imag == value.imag) or abs(value) == float("inf"):
            raise Rejected("undefined", f"`{name}` is undefined", where)
    everything = dict(points)
    everything.update(new)
    centre, radius = _figure(points if len(points) >= 2 else everything)
    if len(points) < 2:
        radius = _figure(everything)[1]
    # The gap is relative to the figure's radius, up to the free box (points
    # far out, a mirror or an intersection, must not push the points near
    # the centre apart) and up to the size of the construction's own inputs
    # (the midpoint of two close points is not "on" a third one 2% of the
    # figure away).
    inputs = [points[a] for clause in construction.clauses for a in clause.args
              if isinstance(a, str) and a in points]
    span = max((abs(u - v) for u in inputs for v in inputs), default=0.0)
    size = min(radius, box, span) if span > 0 else min(radius, box)
    gap = settings.separation * size * min(1.0, settings.crowd / max(1, len(points)))
    seen = dict(points)
    for name, value in new.items():
        if name not in placed:
            for other, q in seen.items():
                if abs(value - q) < gap:
                    raise Rejected("too_close", f"`{name}` falls on `{other}`", where, _HINTS["too_close"])
            if len(points) >= 2 and abs(value - centre) > settings.far * radius:
                raise Rejected("too_far", f"`{name}` is far outside the figure", where, _HINTS["too_far"])
            if abs(value.real) > bound or abs(value.imag) > bound:
                raise Rejected("too_far", f"`{name}` is outside the bounded region of the figure", where,
                               _HINTS["too_far"])
        seen[name] = value
    scale = _figure(everything)[1]
    for plan, env in zip(plans, envs):
        binding = dict(plan.binding)
        for fact in plan.cdef.asserts:
            if not _check(fact, env, tol, scale):
                text = _pred_text(fact, binding)
                if placed:
                    raise Rejected("placement", f"the placed points do not satisfy `{text}`", where,
                                   _HINTS["placement"])
                raise Rejected("inaccurate", f"`{text}` fails numerically", where, _HINTS["inaccurate"])


# ---------------------------------------------------------------- one diagram


def region(constructions: Sequence[Construction], start: Mapping[str, complex] | None,
           settings: SamplerSettings) -> tuple[float, float]:
    """(free box, bound) of a premise: the settings', widened to twice the
    largest coordinate placed in the text or given in ``start``."""
    largest = 0.0
    for construction in constructions:
        for _, x, y in construction.placements:
            largest = max(largest, abs(float(x)), abs(float(y)))
    for z in (start or {}).values():
        largest = max(largest, abs(z.real), abs(z.imag))
    return max(settings.free_box, 2 * largest), max(settings.bound, 2 * largest)


def sample_points(constructions: Sequence[Construction], rng: Random, *,
                  start: Mapping[str, complex] | None = None, tol: Tolerance = TOLERANCE,
                  settings: SamplerSettings = DEFAULT_SETTINGS,
                  clock: Clock | None = None, first: int = 0,
                  max_failures: int | None = None) -> dict[str, complex]:
    """Coordinates for every point of ``constructions`` (one diagram), built on
    the points of ``start``; raises :class:`RealizationError` when every
    attempt fails, and :class:`~geodsl.budget.BudgetExceeded` (stage
    ``realize``) when ``clock`` runs out. Construction k's choices are
    keyed ``first + k`` in ``rng``'s trace and plan. ``max_failures``
    bounds the constructions that may run out of attempts (default
    ``attempts_per_problem`` plus one per construction)."""
    base = dict(start or {})
    bounds = region(constructions, start, settings)
    reasons: Counter[tuple[int, str, str]] = Counter()
    where: dict[tuple[int, str, str], tuple[Location | None, str]] = {}
    blockers: Counter[int] = Counter()
    owner = {name: k for k, c in enumerate(constructions) for name in c.points}
    n = len(constructions)
    points = dict(base)
    added: list[list[str]] = [[] for _ in range(n)]
    drew = [False] * n
    failed_at: Counter[int] = Counter()
    failures = 0
    k = 0
    while k < n:
        construction = constructions[k]
        if clock is not None:
            clock.check("realize")
        new: dict[str, complex] | None = None
        start_draws = rng.draws
        for _attempt in range(settings.attempts_per_construction):
            before = rng.draws
            rng.begin(first + k)
            try:
                new = construct(construction, points, rng, tol, settings, bounds)
                break
            except Rejected as rej:
                key = (k, rej.reason, rej.detail)
                reasons[key] += 1
                where.setdefault(key, (rej.where, rej.hint))
                if rng.draws == before:
                    break  # deterministic: another attempt fails the same way
        if new is not None and all(p in new or p in points for p in construction.points):
            points.update(new)
            added[k] = list(new)
            drew[k] = rng.draws != start_draws
            failed_at.pop(k, None)  # the next failure of k starts from its latest ancestor again
            k += 1
            continue
        blockers[k] += 1
        failures += 1
        if failures >= (settings.attempts_per_problem + n if max_failures is None else max_failures):
            raise _failure(constructions, reasons, where, blockers)
        failed_at[k] += 1
        back = _random_ancestors(constructions, owner, drew, k)
        j = back[failed_at[k] - 1] if failed_at[k] <= len(back) else 0
        for i in range(j, k):
            for name in added[i]:
                points.pop(name, None)
            added[i] = []
        k = j
    return points


def _random_ancestors(constructions: Sequence[Construction], owner: Mapping[str, int],
                      drew: Sequence[bool], k: int) -> list[int]:
    """The constructions construction k depends on (through its arguments,
    transitively) that drew random numbers, latest first: where to resample
    from when k fails. The r-th failure of k goes back to the r-th of them,
    then to the start: a premise of 1,000 points is not rebuilt from scratch
    for a foot that fell on a point, and a failure that no ancestor can
    cure still ends (``attempts_per_problem`` failures in all)."""
    seen: set[int] = set()
    stack = [k]
    while stack:
        i = stack.pop()
        for clause in constructions[i].clauses:
            for a in clause.args:
                j = owner.get(a) if isinstance(a, str) else None
                if j is not None and j < i and j not in seen:
                    seen.add(j)
                    stack.append(j)
    return sorted((j for j in seen if drew[j]), reverse=True)


def _failure(constructions: Sequence[Construction], reasons: Counter[tuple[int, str, str]],
             where: Mapping[tuple[int, str, str], tuple[Location | None, str]],
             blockers: Counter[int]) -> RealizationError:
    # The construction that stopped the diagram most often (the earliest on ties).
    k = min(blockers, key=lambda i: (-blockers[i], i))
    mine = {key: n for key, n in reasons.items() if key[0] == k}
    total = sum(mine.values())
    key = min(mine, key=lambda kk: (-mine[kk], kk[1], kk[2]))
    count = mine[key]
    construction = constructions[k]
    loc, hint = where[key]
    loc = loc or construction.span
    if key[2].endswith("are needed"):
        how = ""  # true of the text itself, not of the samples
    elif count == total:
        how = " in every sample"
    else:
        how = f" in {count} of {total} samples"
    text = construction.to_text()
    by_reason: Counter[str] = Counter()
    for (_, reason, _), n in sorted(mine.items()):
        by_reason[reason] += n
    return RealizationError(
        f"`{text}`: {key[2]}{how}", reason=key[1], counts=dict(sorted(by_reason.items())),
        source=loc.source if loc else None, line=loc.line if loc else None,
        column=loc.column if loc else None, text=text, hint=hint or None)
