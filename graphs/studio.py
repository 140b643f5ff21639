"""The supervisor graph for LangGraph's API server (`langgraph dev`, Studio, the langgraph-api image);
`langgraph.json` points at `make_graph`.

How the server uses it (langgraph-api 0.16), and why this module is shaped so:
- It imports this module once, at startup, in a loader thread; then it calls the factory on every request that
  touches the graph (each run, each read of a thread's state) inside its event loop, where `langgraph dev`
  refuses blocking I/O (blockbuster: "Blocking call to os.mkdir"). So the graph is built at import, where opening
  the stores may block, and `make_graph` only hands it out.
- It is compiled without a checkpointer: the server lends its own to every run (in memory under `langgraph dev`,
  PostgreSQL in the langgraph-api image).
- The collaborators are the ones `prov run` uses: the knowledge base under PROV_HOME, models from PROV_PROVIDER,
  read from the environment (and the `.env` that langgraph.json names) when the server starts. Building opens the
  stores and loads no model: the embedder loads on the first question that needs it.
- The state's pydantic objects go through the server's serializer (a JsonPlusSerializer): it restores them, with
  one "unregistered type" warning per type. Under LANGGRAPH_STRICT_MSGPACK=true it blocks them and a resumed turn
  fails; tests/integration/test_langgraph_server.py keeps that as an xfail and says why.
"""

from __future__ import annotations

from typing import Any


def build_graph() -> Any:
    """The supervisor graph on the configured collaborators, compiled without a checkpointer."""
    from app.runtime import Runtime
    from app.settings import get_settings
    from graphs.supervisor import build_supervisor_graph

    return build_supervisor_graph(Runtime(get_settings()).deps()).compile()


_GRAPH = build_graph()


def make_graph() -> Any:
    """The graph factory langgraph.json names: the graph built when the server imported this module."""
    return _GRAPH
