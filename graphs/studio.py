"""The supervisor graph for LangGraph's dev server and Studio (`langgraph.json` points here).

The server brings its own checkpointer, so this compiles the graph without one; the collaborators (knowledge
base under PROV_HOME, models from PROV_PROVIDER) are the same ones `prov run` uses.
"""

from __future__ import annotations

from typing import Any


def make_graph() -> Any:
    from app.runtime import Runtime
    from app.settings import get_settings
    from graphs.supervisor import build_supervisor_graph

    return build_supervisor_graph(Runtime(get_settings()).deps()).compile()
