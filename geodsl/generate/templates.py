"""Clause templates: the rulebase's constructions as GeoChallenge's premise
sampler uses them, grouped in GeoChallenge's families (its Table 7).

A template names a construction of ``rulebase/constructions.gdl`` and the
*role* of each of its inputs, so the sampler draws arguments from the
entities defined so far rather than from arbitrary point tuples:

====== ==================================================================
role   draws
====== ==================================================================
``p``  one point
``s``  two points of a drawn line or side (a segment; any two points when
       the figure has no such pair left)
``t``  three points not on one line (a triangle)
``a``  three points x, v, y: the angle at v between two drawn lines
``A``  the same angle, vertex first: v, x, y (``eqangle3``)
``c``  two points: a circle's centre and a point on it
``r``  two points: a point on a circle, then its centre (``lc_tangent``)
``D``  an angle in degrees, from :data:`DEGREES`
====== ==================================================================

The outputs of a construction are new points. Which templates exist is
policy (what a benchmark's premises look like); what each construction
*means* — its parameters, requirements, facts and recipe — stays in the
rulebase, and :func:`check_templates` (run by the tests) checks every
template against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..lang.definitions import rulebase

DEGREES = (30, 45, 60, 90, 120, 135, 150)
"""The angles an ``s_angle`` template prescribes."""


@dataclass(frozen=True, slots=True)
class Template:
    """One clause template: a construction, its family and its input roles."""

    name: str
    family: str
    roles: str
    locus: bool = False
    """A one-degree clause: alone it puts a point on a line or circle, two of
    them make an intersection."""


FAMILIES: dict[str, tuple[tuple[str, str], ...]] = {
    # family: (construction, roles of its inputs, in parameter order)
    "free shapes": (("triangle", ""), ("r_triangle", ""), ("iso_triangle", ""), ("ieq_triangle", ""),
                    ("risos", ""), ("quadrangle", ""), ("rectangle", ""), ("isquare", ""),
                    ("trapezoid", ""), ("r_trapezoid", ""), ("eq_trapezoid", ""), ("eq_quadrangle", ""),
                    ("eqdia_quadrangle", "")),
    "centres": (("circle", "t"), ("orthocenter", "t"), ("incenter", "t"), ("excenter", "t"),
                ("centroid", "t"), ("ninepoints", "t"), ("incenter2", "t")),
    "midpoints and feet": (("midpoint", "s"), ("foot", "ps")),
    "parallels and perpendiculars": (("on_pline", "ps"), ("on_tline", "ps"), ("on_bline", "s"),
                                     ("intersection_lp", "sps"), ("intersection_lt", "sps"),
                                     ("intersection_tt", "psps"), ("intersection_pp", "psps")),
    "circles and tangents": (("on_circle", "c"), ("on_circum", "t"), ("on_dia", "s"), ("lc_tangent", "r"),
                             ("tangent", "pc"), ("eqdistance", "ps")),
    "intersections": (("on_line", "s"), ("intersection_ll", "ss")),
    "reflections": (("mirror", "pp"), ("reflect", "ps")),
    "angle bisectors": (("angle_bisector", "a"), ("angle_mirror", "a")),
    "shapes on sides": (("square", "s"), ("psquare", "s"), ("nsquare", "s"), ("eq_triangle", "s"),
                        ("parallelogram", "t"), ("shift", "ps")),
    "angles": (("s_angle", "sD"), ("on_aline", "sa"), ("eqangle3", "sA")),
}
"""GeoChallenge's clause families, each with the constructions of the
rulebase that make it and their input roles."""

ROLE_POINTS = {"p": 1, "s": 2, "t": 3, "a": 3, "A": 3, "c": 2, "r": 2, "D": 0}
"""How many points each role draws."""


@cache
def templates() -> tuple[Template, ...]:
    """Every template, in family order."""
    rb = rulebase()
    out = []
    for family, members in FAMILIES.items():
        for name, roles in members:
            out.append(Template(name, family, roles, rb.construction(name).is_locus))
    return tuple(out)


def by_name(name: str) -> Template:
    for t in templates():
        if t.name == name:
            return t
    raise KeyError(name)


def shapes() -> tuple[Template, ...]:
    """The free shapes a premise starts from."""
    return tuple(t for t in templates() if t.family == "free shapes")


def layered() -> tuple[Template, ...]:
    """The templates a layer adds (everything but the free shapes)."""
    return tuple(t for t in templates() if t.family != "free shapes")


def check_templates() -> list[str]:
    """Every disagreement between a template and its construction's
    definition (empty when they agree): unknown constructions, roles that
    draw a different number of points than the construction has inputs, a
    ``D`` role where no degrees parameter is."""
    rb = rulebase()
    problems = []
    for t in templates():
        cdef = rb.constructions.get(t.name)
        if cdef is None:
            problems.append(f"{t.name}: not a construction of the rulebase")
            continue
        inputs = [i for i in cdef.input_positions]
        points = [i for i in inputs if cdef.kinds[i] == "point"]
        constants = [i for i in inputs if cdef.kinds[i] != "point"]
        drawn = sum(ROLE_POINTS[r] for r in t.roles)
        if t.family == "free shapes":
            if inputs:
                problems.append(f"{t.name}: a free shape has no inputs, this one has {len(inputs)}")
            continue
        if drawn != len(points):
            problems.append(f"{t.name}: roles `{t.roles}` draw {drawn} points, the construction takes {len(points)}")
        if t.roles.count("D") != len(constants) or any(cdef.kinds[i] != "degrees" for i in constants):
            problems.append(f"{t.name}: roles `{t.roles}` do not match its constants")
    return problems
