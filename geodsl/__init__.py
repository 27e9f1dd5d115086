"""geodsl: formal plane geometry in the AlphaGeometry problem language.

Parse problems into a typed, immutable AST::

    >>> import geodsl
    >>> p = geodsl.parse_problem("a b c = triangle a b c; d = midpoint d a b ? coll a b d")
    >>> p.goal.to_text()
    'coll a b d'

The construction and predicate definitions are data (``rulebase/``), read
once per process by :func:`get_rulebase`.

Every error on bad input is a :class:`GeoDSLError` with file, line, column,
the offending text and a hint.
"""

from __future__ import annotations

import importlib
from pathlib import Path as _Path
from typing import TYPE_CHECKING

try:
    from . import _canon, _lalr  # noqa: F401  (compiled from ext/ by the build)
except ImportError as _exc:  # pragma: no cover - depends on how geodsl was installed
    raise ImportError(
        f"geodsl's compiled extensions are missing from {_Path(__file__).parent}: this looks like "
        "the source tree, imported without building it. Install with `pip install .` and run from "
        "outside the repository, or use `pip install -e .`") from _exc

from .budget import Budget, BudgetExceeded, Clock
from .lang.aux_text import AuxReading, read_aux, to_words
from .lang.ast import (Arg, AuxCandidate, Clause, Constant, ConstKind, Construction, Option, Predicate,
                       Premise, Problem)
from .lang.definitions import ConstructionDef, PredicateDef, Rulebase, canonical
from .lang.definitions import rulebase as get_rulebase
from .lang.errors import (ArityError, ConstantError, ConstructionError, GeoDSLError, GoalFalseError,
                          LimitError, Location, NotProvedError, PointError, ProblemError, RealizationError,
                          RulebaseError, SyntaxErrorGDL, UnknownNameError)
from .lang.limits import DEFAULT_LIMITS, Limits
from .lang.parser import iter_load, iter_parse, load, parse, parse_predicate, parse_problem
from .lang.printer import problems_text
from .lang.rules import Rule, get_rules
from .proofs import Check, Given, GoalResult, Proof, Prover, Result, Step
from . import datasets  # light: the language layer and two text files

if TYPE_CHECKING:  # imported on first use (below): the realizer loads numpy, the closure its tables
    from .ddar import Closure, closure
    from .provers import get_prover, prove
    from .realizer import Diagram, Diagrams, realize

_LAZY = {"Diagram": ".realizer", "Diagrams": ".realizer", "realize": ".realizer",
         "Closure": ".ddar", "closure": ".ddar",
         "get_prover": ".provers", "prove": ".provers",
         # checker/ is installed as geodsl.checker (not in the source tree stubtest reads)
         "check_aux": ".checker.aux", "AuxCheck": ".checker.aux"}


def __getattr__(name: str) -> object:
    """The realizer, the closure and the provers, imported when first asked
    for: ``import geodsl`` (and the parser, and ``geodsl.checker.answers``)
    stays light — no numpy, no compiled matcher."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'geodsl' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = [
    "Arg", "ArityError", "AuxCandidate", "Clause", "ConstKind", "Constant", "ConstantError",
    "Construction", "ConstructionDef", "ConstructionError", "DEFAULT_LIMITS", "GeoDSLError",
    "LimitError", "Limits", "Location", "Option", "PointError", "Predicate", "PredicateDef",
    "Premise", "Problem", "ProblemError", "Rulebase", "RulebaseError", "SyntaxErrorGDL",
    "UnknownNameError", "canonical", "iter_load", "iter_parse", "load", "parse", "parse_predicate", "parse_problem",
    "problems_text", "get_rulebase",
    "Diagram", "Diagrams", "GoalFalseError", "NotProvedError", "RealizationError", "realize",
    "Rule", "get_rules",
    "Closure", "closure", "datasets",
    "Budget", "BudgetExceeded", "Clock",
    "Check", "Given", "GoalResult", "Proof", "Prover", "Result", "Step", "get_prover", "prove",
    "AuxCheck", "AuxReading", "check_aux", "read_aux", "to_words",
]
