"""The numeric diagram realizer: coordinates for every construction, the
numeric truth of any predicate, located failures, and figures.

=============== ==========================================================
module          job
=============== ==========================================================
``tolerance``   the numeric tolerances, in one place
``rng``         the seeded random source of a diagram (PCG64)
``loci``        lines, rays, segments, circles; intersections; random points
``recipes``     one function per recipe and locus kind of the rulebase
``checks``      numeric truth of every predicate
``sampler``     bounded sampling of a premise, rejection reasons, errors
``objects``     the lines and circles a premise implies
``diagram``     :func:`realize`, :class:`Diagram`, :class:`Diagrams`, JSON
``render``      matplotlib figures (PNG, SVG)
=============== ==========================================================
"""

from __future__ import annotations

from ..lang.errors import GoalFalseError, RealizationError
from .checks import CHECKS, evaluate
from .diagram import Diagram, Diagrams, realize
from .objects import DiagramCircle, DiagramLine
from .recipes import LOCI, RECIPES
from .sampler import DEFAULT_SETTINGS, SamplerSettings
from .tolerance import TOLERANCE, Tolerance

__all__ = ["CHECKS", "DEFAULT_SETTINGS", "Diagram", "DiagramCircle", "DiagramLine", "Diagrams",
           "GoalFalseError", "LOCI", "RECIPES", "RealizationError", "SamplerSettings", "TOLERANCE",
           "Tolerance", "evaluate", "realize"]
