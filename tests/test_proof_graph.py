"""``geodsl prove --graph``: every proof of a run as one networkx DAG a user
can measure (depth, width) or draw, in GraphML or Graphviz DOT."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import networkx as nx
import pytest

from geodsl.cli import main


@pytest.fixture(scope="module")
def jgex_graph(tmp_path_factory: pytest.TempPathFactory) -> tuple[nx.DiGraph, list[dict[str, object]]]:
    out = tmp_path_factory.mktemp("graph") / "proofs.graphml"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        assert main(["prove", "jgex_ag_231", "--json", "--graph", str(out)]) == 0
    return nx.read_graphml(out), json.loads(buf.getvalue())


def test_every_proof_is_in_the_graph_with_its_goal_marked(jgex_graph: tuple[nx.DiGraph, list[dict[str, object]]]) -> None:
    graph, records = jgex_graph
    solved = [r for r in records if r["solved"]]
    assert len(solved) >= 220
    assert nx.is_directed_acyclic_graph(graph)
    problems = {d["problem"] for _, d in graph.nodes(data=True)}
    assert problems == {r["problem"] for r in solved}
    marked = {d["problem"] for _, d in graph.nodes(data=True) if d["goal"]}
    assert marked == problems  # the goal's node is found whatever the argument order the step states it in


def test_nodes_and_edges_follow_the_proofs(jgex_graph: tuple[nx.DiGraph, list[dict[str, object]]]) -> None:
    graph, records = jgex_graph
    record = next(r for r in records if r["solved"])
    proof = record["goals"][0]["proof"]  # type: ignore[index]
    prefix = "p0:"
    assert graph.nodes[prefix + str(proof["premises"][0]["ref"])]["kind"] == "premise"
    for step in proof["steps"]:
        node = prefix + str(step["ref"])
        assert graph.nodes[node]["kind"] == "step" and graph.nodes[node]["rule"] == step["rule"]
        cited = {prefix + str(r) for r in step["premises"]} | {prefix + str(c) for c in step["checks"]}
        assert set(graph.predecessors(node)) == cited
        depth = 1 + max((graph.nodes[c]["depth"] for c in cited), default=0)
        assert graph.nodes[node]["depth"] == depth
    ours = graph.subgraph([n for n in graph if n.startswith(prefix)])
    assert nx.dag_longest_path_length(ours) == max(d["depth"] for _, d in ours.nodes(data=True))


def test_dot_output_and_a_bad_extension(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dot = tmp_path / "proof.dot"
    assert main(["prove", "imo_ag_30", "--problem", "translated_imo_2000_p1", "--graph", str(dot)]) == 0
    text = dot.read_text(encoding="utf-8")
    assert text.startswith("digraph proof {") and text.rstrip().endswith("}")
    assert text.count("->") > 50 and 'color="#d1495b"' in text  # the goal drawn in red
    capsys.readouterr()
    assert main(["prove", "imo_ag_30", "--graph", str(tmp_path / "proof.png")]) == 2
    err = capsys.readouterr().err
    assert "--graph " + str(tmp_path / "proof.png") + ": the file name ends in .graphml or .dot" in err
    assert "hint: e.g. --graph proof.graphml" in err
    assert not (tmp_path / "proof.png").exists()
