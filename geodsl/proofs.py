"""Typed proofs and the one interface every prover implements.

A prover (DD+AR today; auxiliary-point search and the algebraic prover
next) takes a problem, the goals to prove and a :class:`~geodsl.budget.Budget`
and returns a :class:`Result`: a status, and per goal whether it is proved
and its :class:`Proof`. Checkers depend on this module only, never on an
engine's insides.

A proof states everything it rests on, so that an independent checker can
verify every step from the proof alone:

* the premise facts it starts from (:class:`Given`, with where the premise
  writes them);
* the *numerical checks* (:class:`Check`): side conditions read from the
  figure rather than derived — non-collinearity and orientation conditions
  of a rule, the order of points along a line a distance chase used, the
  branch of a halved angle (a chase that proves 2·∠(AB, CD) ≡ 0 leaves
  ∠(AB, CD) ≡ 0 or π/2: ``AB ∦ CD`` rules out 0, so AB ⟂ CD) — each
  numbered ``[N0]``, ``[N1]``, ...;
* the steps (:class:`Step`), each citing the facts and checks it uses, the
  rule or chase that concludes it, and its conclusion.

The text form is AlphaGeometry's (``NNN. premises (rule) ⇒ conclusion [ref]``)
with a ``* Numerical checks:`` section, Newclid's word for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from .budget import Budget, Clock
from .lang.terms import Predicate

if TYPE_CHECKING:
    from .lang.ast import Problem
    from .realizer import Diagrams

Status = Literal["proved", "saturated", "budget"]
"""How a prover run ended: every goal proved; nothing more to derive
(``saturated``); or the budget ran out first (a partial result)."""
STATUSES: tuple[Status, ...] = ("proved", "saturated", "budget")

StepKind = Literal["rule", "chase", "structure", "definition", "check"]
"""A rule of ``rulebase/rules.gdl``; an AR chase (angles, ratios,
distances, squared lengths); a structure (three points of one proven line,
four of one proven circle); what a predicate means (``means:`` in
``predicates.gdl``: a midpoint from a collinearity and equal distances); a
side condition asked as a goal (``obtuse_angle``), read from the figure:
its one numerical check."""


@dataclass(frozen=True, slots=True)
class Given:
    """A premise fact of the proof: ``[ref]``, where the premise states it."""

    ref: int
    predicate: Predicate
    text: str
    origin: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {"ref": self.ref, "fact": self.text, "predicate": self.predicate.to_text(),
                "origin": self.origin}


@dataclass(frozen=True, slots=True)
class Check:
    """A side condition ``[N<ref>]``, checked in the figure (possibly a
    negated predicate: ``∠(AB-CD) − ∠(EF-GH) ≠ 1pi/2``)."""

    ref: int
    predicate: Predicate
    text: str

    @property
    def label(self) -> str:
        return f"N{self.ref}"

    def to_dict(self) -> dict[str, object]:
        return {"ref": self.label, "fact": self.text, "predicate": self.predicate.to_text()}


@dataclass(frozen=True, slots=True)
class Step:
    """``number. premises & checks (rule) ⇒ conclusion [ref]``."""

    number: int
    premises: tuple[int, ...]
    """Refs of the facts (givens or earlier steps) the step uses."""
    checks: tuple[int, ...]
    """Refs of the numerical checks it rests on."""
    rule: str
    """``r00``..., a chase (``angle_chase``, ``angle_chase_halved``,
    ``ratio_chase``, ``distance_chase``, ``pythagoras_chase``), a structure
    (``same_line``, ``same_circle``) or a ``means:`` rule (``equal_radii``)."""
    label: str
    kind: StepKind
    ref: int
    predicate: Predicate
    text: str

    def to_dict(self) -> dict[str, object]:
        return {"step": self.number, "premises": list(self.premises),
                "checks": [f"N{c}" for c in self.checks], "rule": self.rule, "label": self.label,
                "kind": self.kind, "fact": self.text, "predicate": self.predicate.to_text(),
                "ref": self.ref}


@dataclass(frozen=True)
class Proof:
    """A numbered proof of ``goal``: givens, checks, then steps (each citing
    only what comes before it). ``auxiliary``: auxiliary constructions the
    proof added to the premise, in the language."""

    goal: Predicate
    givens: tuple[Given, ...]
    checks: tuple[Check, ...]
    steps: tuple[Step, ...]
    auxiliary: tuple[str, ...] = ()

    def statement(self, ref: int) -> str:
        """The notation of fact ``[ref]``."""
        for item in self.givens:
            if item.ref == ref:
                return item.text
        for step in self.steps:
            if step.ref == ref:
                return step.text
        raise KeyError(ref)

    def to_text(self) -> str:
        width = max(2, len(str(len(self.givens) + len(self.steps) - 1)))
        out = []
        if self.auxiliary:  # first: what the proof adds to the premise, in the language
            out.append("* Auxiliary Constructions:")
            out.extend(self.auxiliary)
        out.append("* From theorem premises:")
        out.extend(f"{g.text} [{g.ref:0{width}d}]" for g in self.givens)
        if self.checks:
            out.append("* Numerical checks:")
            out.extend(f"{c.text} [{c.label}]" for c in self.checks)
        out.append("* Proof steps:")
        checks = {c.ref: c for c in self.checks}
        for s in self.steps:
            cited = [f"{self.statement(r)} [{r:0{width}d}]" for r in s.premises]
            cited += [f"{checks[c].text} [{checks[c].label}]" for c in s.checks]
            rule = s.label if s.kind != "rule" or s.rule == s.label else f"{s.rule} {s.label}"
            out.append(f"{s.number:03d}. {' & '.join(cited)} ({rule}) ⇒ {s.text} [{s.ref:0{width}d}]")
        return "\n".join(out) + "\n"

    def to_dict(self) -> dict[str, object]:
        return {"goal": self.goal.to_text(), "auxiliary": list(self.auxiliary),
                "premises": [g.to_dict() for g in self.givens],
                "checks": [c.to_dict() for c in self.checks],
                "steps": [s.to_dict() for s in self.steps]}

    def __str__(self) -> str:
        return self.to_text()


@dataclass(frozen=True)
class Certificate:
    """The evidence of an algebraic proof, not a synthetic one: the goal's
    polynomials vanish on coordinates that satisfy every construction's
    equations, and a small checker independent of the search verified it
    (``checked``). ``conditions`` are the non-degeneracy conditions the
    coordinates assume (two lines meet, a point is the second intersection,
    ...); ``data`` the certificate itself, as JSON-ready data."""

    goal: Predicate
    method: str
    conditions: tuple[str, ...]
    checked: bool
    data: dict[str, object] = field(default_factory=dict, compare=False)
    auxiliary: tuple[str, ...] = ()

    def to_text(self) -> str:
        return certificate_text(self.to_dict())

    def to_dict(self) -> dict[str, object]:
        return {"goal": self.goal.to_text(), "method": self.method, "checked": self.checked,
                "auxiliary": list(self.auxiliary), "conditions": list(self.conditions), **self.data}


def certificate_text(data: dict[str, object]) -> str:
    """A certificate as text, from its JSON form (:meth:`Certificate.to_dict`,
    the schemas' ``certificate``), so readers of records print it as
    ``geodsl prove`` does."""
    out = [f"proved (algebra: {data.get('method')}), certificate "
           + ("checked" if data.get("checked") else "NOT checked")]
    auxiliary = data.get("auxiliary")
    if isinstance(auxiliary, list) and auxiliary:
        out.append("* Auxiliary Constructions:")
        out.extend(str(a) for a in auxiliary)
    params = data.get("parameters", [])
    members = data.get("triangular_set", [])
    out.append(f"* Coordinates: {len(params) if isinstance(params, list) else 0} parameters, "
               f"{len(members) if isinstance(members, list) else 0} quadratic members "
               "(the goal's pseudo-remainder is 0)")
    conditions = data.get("conditions")
    if isinstance(conditions, list) and conditions:
        out.append("* Non-degeneracy conditions:")
        out.extend(f"{c} [D{i}]" for i, c in enumerate(conditions))
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class GoalResult:
    """One goal of a prover run: proved or not, and its proof — a synthetic
    :class:`Proof`, or an algebraic :class:`Certificate`."""

    goal: Predicate
    proof: Proof | None
    certificate: Certificate | None = None

    @property
    def proved(self) -> bool:
        return self.proof is not None or (self.certificate is not None and self.certificate.checked)


@dataclass(frozen=True)
class Result:
    """What a prover returns. ``seconds`` is wall-clock time (the one field
    that differs between runs); ``stats`` are counts (facts, levels, ...)."""

    method: str
    status: Status
    goals: tuple[GoalResult, ...]
    seconds: float
    stats: dict[str, int]
    notes: tuple[str, ...] = ()
    """Why a method stopped short, in words (the algebraic prover: "`d`
    lies on a conic that is not a circle or a line")."""

    @property
    def solved(self) -> bool:
        return bool(self.goals) and all(g.proved for g in self.goals)

    def to_dict(self) -> dict[str, object]:
        return {"method": self.method, "status": self.status, "solved": self.solved,
                "goals": [{"goal": g.goal.to_text(), "proved": g.proved,
                           "proof": None if g.proof is None else g.proof.to_dict(),
                           "certificate": None if g.certificate is None else g.certificate.to_dict()}
                          for g in self.goals],
                "stats": dict(self.stats), "notes": list(self.notes), "seconds": round(self.seconds, 4)}


class Prover(Protocol):
    """The interface of every prover."""

    name: str
    """The ``--method`` that selects it (``ddar``, ...)."""
    diagrams: int
    """How many diagrams of the problem it reads (0: none); a caller that
    realizes the problem anyway passes at least that many as ``figures``."""

    def prove(self, problem: Problem, goals: Sequence[Predicate] | None = None,
              budget: Budget | Clock | None = None, *, figures: Diagrams | None = None) -> Result:
        """Prove ``goals`` (default: the problem's) from the premise within
        ``budget`` (a :class:`~geodsl.budget.Budget`, or the
        :class:`~geodsl.budget.Clock` of a problem already under way);
        ``figures``: the problem already realized (see :attr:`diagrams`)."""
        ...


def _canonical_text(text: object) -> str:
    """``text`` (a predicate in the DSL) with its arguments in canonical
    order: a step states ``cyclic a o d e`` for the goal ``cyclic a o e d``."""
    from .lang.definitions import canonical
    from .lang.errors import GeoDSLError
    from .lang.parser import parse_predicate

    try:
        return canonical(parse_predicate(str(text))).to_text()
    except GeoDSLError:
        return str(text)


class ProofGraph:
    """Proofs as one directed acyclic graph (a ``networkx.DiGraph``), so that
    a proof's depth and width can be measured, or the proof drawn.

    Nodes are the premises (``kind: premise``), the numerical checks
    (``check``) and the steps (``step``) of each proof added, named
    ``p<I>:<ref>`` (``p0:12``, ``p0:N1``) for the I-th proof; an edge runs
    from each fact or check a step cites to the step (``kind: premise`` or
    ``check``). Attributes: ``fact`` (the notation), ``predicate`` (the
    DSL), ``rule``/``label``/``step`` for steps, ``depth`` (premises and
    checks 0, a step one more than its deepest citation), ``goal`` (true on
    the node that states the goal), and ``problem``, ``goal_label``,
    ``file`` of the proof. ``networkx.dag_longest_path_length(g)`` is the
    depth of the deepest proof."""

    def __init__(self) -> None:
        import networkx

        self.graph: networkx.DiGraph[str] = networkx.DiGraph()
        self.proofs = 0

    def add(self, proof: Proof | dict[str, object], *, problem: str | None = None, file: str | None = None,
            label: str | None = None) -> None:
        """Add one proof (a :class:`Proof`, or its ``to_dict()``, as in the JSON outputs)."""
        data = proof.to_dict() if isinstance(proof, Proof) else proof
        prefix = f"p{self.proofs}:"
        self.proofs += 1
        g = self.graph
        about = {k: v for k, v in (("problem", problem), ("file", file), ("goal_label", label)) if v is not None}
        goal = _canonical_text(data["goal"])
        depth: dict[str, int] = {}
        for given in data["premises"]:  # type: ignore[attr-defined]  # a list of objects (Proof.to_dict)
            node = prefix + str(given["ref"])
            g.add_node(node, kind="premise", fact=given["fact"], predicate=given["predicate"], depth=0,
                       goal=_canonical_text(given["predicate"]) == goal, **about)
            depth[node] = 0
        for check in data["checks"]:  # type: ignore[attr-defined]  # a list of objects (Proof.to_dict)
            node = prefix + str(check["ref"])
            g.add_node(node, kind="check", fact=check["fact"], predicate=check["predicate"], depth=0, goal=False,
                       **about)
            depth[node] = 0
        for step in data["steps"]:  # type: ignore[attr-defined]  # a list of objects (Proof.to_dict)
            node = prefix + str(step["ref"])
            cited = [(prefix + str(r), "premise") for r in step["premises"]]
            cited += [(prefix + str(c), "check") for c in step["checks"]]
            d = 1 + max((depth.get(c, 0) for c, _ in cited), default=0)
            g.add_node(node, kind="step", fact=step["fact"], predicate=step["predicate"], rule=step["rule"],
                       label=step["label"], step=step["step"], step_kind=step["kind"], depth=d,
                       goal=_canonical_text(step["predicate"]) == goal, **about)
            depth[node] = d
            for source, kind in cited:
                g.add_edge(source, node, kind=kind)

    def write(self, path: str, fmt: str) -> None:
        """Write ``graphml`` (networkx's writer) or ``dot`` (Graphviz)."""
        if fmt == "graphml":
            import networkx

            networkx.write_graphml(self.graph, path, encoding="utf-8")
            return
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.write(self.dot())

    def dot(self) -> str:
        """The graph in Graphviz's DOT language: premises as ellipses, checks
        as diamonds, steps as boxes, the goal in bold red."""

        def quote(value: object) -> str:
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
            return f'"{text}"'

        shape = {"premise": "ellipse", "check": "diamond", "step": "box"}
        lines = ["digraph proof {", "  rankdir=TB;", "  node [fontname=\"Helvetica\"];"]
        for node, attrs in self.graph.nodes(data=True):
            label = attrs["fact"] if attrs["kind"] != "step" else f"{attrs['step']:03d}. {attrs['fact']}\n({attrs['label']})"
            extra = ", color=\"#d1495b\", penwidth=2" if attrs.get("goal") else ""
            fields = "".join(f", {'rule_label' if k == 'label' else k}={quote(v)}" for k, v in attrs.items()
                             if k != "fact")
            lines.append(f"  {quote(node)} [label={quote(label)}, shape={shape[attrs['kind']]}{extra}{fields}];")
        for source, target, attrs in self.graph.edges(data=True):
            style = " [style=dashed, kind=\"check\"]" if attrs.get("kind") == "check" else " [kind=\"premise\"]"
            lines.append(f"  {quote(source)} -> {quote(target)}{style};")
        lines.append("}")
        return "\n".join(lines) + "\n"
