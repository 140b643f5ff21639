"""langgraph.json names a graph factory that exists and builds the supervisor."""

from __future__ import annotations

import importlib.util
import json

from tests.conftest import REPO


def test_langgraph_json_points_at_a_factory_that_builds_the_supervisor() -> None:
    config = json.loads((REPO / "langgraph.json").read_text())
    path, attr = config["graphs"]["prov"].split(":")
    spec = importlib.util.spec_from_file_location("studio_entry", REPO / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    graph = getattr(module, attr)()
    nodes = set(graph.get_graph().nodes)
    assert {"intake", "route", "clarify", "retrieve", "calculate", "assemble", "validate_citations"} <= nodes
    assert graph.checkpointer is None  # the server brings its own
