"""The last steps of a turn, wired on their own for replay from recorded state: assemble → generate →
validate_citations, with no routing, retrieval, memory writes or cache.

`prov trace --regenerate` and `prov eval contribution` (app/runtime.Runtime.regenerate) load a turn's state from
the checkpoint taken just before assembly, change it if asked (one admitted block's item left out), and run this
graph on it without a checkpointer: the user's thread, memory and answer cache are untouched.
"""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph

from graphs.supervisor import SupervisorDeps
from nodes.assemble import assemble
from nodes.generate import generate, validate_citations
from nodes.state import SupervisorState


def build_regenerate_graph(deps: SupervisorDeps) -> StateGraph:
    """Wire assembly, generation and validation, uncompiled."""
    builder = StateGraph(SupervisorState)
    builder.add_node("assemble", partial(assemble, budget=deps.budget_tokens, count=deps.count_tokens))
    builder.add_node("generate", partial(generate, synthesizer=deps.models.synthesizer))
    builder.add_node("validate_citations", validate_citations)
    builder.add_edge(START, "assemble")
    builder.add_edge("assemble", "generate")
    builder.add_edge("generate", "validate_citations")
    builder.add_edge("validate_citations", END)
    return builder
