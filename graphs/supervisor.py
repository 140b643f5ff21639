"""The supervisor graph (DESIGN.md draws it):

    intake ─▶ compress_history ─▶ enrich ─▶ cache_lookup ─┬─ hit ─────────────────────────────────────▶ respond
                                                          └─ miss ─▶ route ─┬─ out of scope ─▶ refuse ─▶ respond
                                                                            ├─ clarify (interrupt) ─▶ enrich
                                                                            └─ retrieve ∥ news (or neither)
                                                                                      ▼
                                                                                    join ─┬─ prepare_calculation ─▶ calculate
                                                                                          ▼                            │
                                         assemble ◀───────────────────────────────────────┴────────────────────────────┘
                                            ─▶ generate ─▶ validate_citations ─▶ remember ─▶ respond ─▶ END

`retrieve` is the compiled retrieval subgraph (only `retrieval_result` comes back); `calculate` the compiled
calculator subgraph (only `calculation` comes back). Branch functions live in nodes/ and are plain.
Collaborators are injected through `SupervisorDeps`: the model factory's ModelSet (router, grader, synthesizer,
calculator model: app/models), the search functions, the cache and the token counter, so tests wire scripted
or offline ones (tests/fakes.py) and the app wires the real ones (app/runtime.py).
"""

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Mapping, Sequence

from langgraph.graph import END, START, StateGraph

from app.models.roles import ModelSet
from graphs.calculator import build_calculator_graph
from graphs.retrieval import build_retrieval_graph
from nodes.assemble import assemble
from nodes.conversation import (after_cache, cache_lookup, clarify, compress_history, enrich, intake, refuse,
                                remember, respond)
from nodes.figures import prepare_calculation
from nodes.generate import generate, validate_citations
from nodes.news import gather_news
from nodes.routing import after_join, after_route, route
from nodes.state import SupervisorInput, SupervisorOutput, SupervisorState


@dataclass
class SupervisorDeps:
    models: ModelSet
    search_fn: Callable[..., list]
    news_fn: Callable[..., list]
    count_tokens: Callable[[str], int]
    known_companies: Callable[[], Sequence[str]] = lambda: []
    periods_fn: Callable[[str], Sequence[int]] | None = None
    page_fn: Callable[[str, int], list] | None = None
    known_years: Callable[[], Sequence[int]] | None = None
    company_aliases: Callable[[], Mapping[str, str]] = dict
    cache: Any = None
    generation: Callable[[], int] = lambda: 0
    budget_tokens: int = 6000
    max_question_chars: int = 2000
    verbatim_turns: int = 3
    news_limit: int = 5
    retrieval_k: int = 8


def build_supervisor_graph(deps: SupervisorDeps) -> StateGraph:
    """Wire the supervisor, uncompiled (app/runtime.py compiles it once, with the SQLite checkpointer)."""
    retrieval = build_retrieval_graph(deps.search_fn, grader=deps.models.grader, k=deps.retrieval_k,
                                      periods_fn=deps.periods_fn, page_fn=deps.page_fn).compile()
    calculator = build_calculator_graph(deps.models.calculator).compile()

    builder = StateGraph(SupervisorState, input_schema=SupervisorInput, output_schema=SupervisorOutput)
    builder.add_node("intake", partial(intake, max_chars=deps.max_question_chars))
    builder.add_node("compress_history", partial(compress_history, verbatim=deps.verbatim_turns))
    builder.add_node("enrich", partial(enrich, known_companies=deps.known_companies, aliases=deps.company_aliases))
    builder.add_node("cache_lookup", partial(cache_lookup, cache=deps.cache, generation=deps.generation))
    builder.add_node("route", partial(route, router=deps.models.router, known_companies=deps.known_companies,
                                      known_years=deps.known_years, aliases=deps.company_aliases))
    builder.add_node("clarify", clarify)
    builder.add_node("refuse", refuse)
    builder.add_node("retrieve", retrieval)
    builder.add_node("news", partial(gather_news, news_fn=deps.news_fn, limit=deps.news_limit))
    builder.add_node("join", _join)
    builder.add_node("prepare_calculation", prepare_calculation)
    builder.add_node("calculate", calculator)
    builder.add_node("assemble", partial(assemble, budget=deps.budget_tokens, count=deps.count_tokens))
    builder.add_node("generate", partial(generate, synthesizer=deps.models.synthesizer))
    builder.add_node("validate_citations", validate_citations)
    builder.add_node("remember", partial(remember, cache=deps.cache, generation=deps.generation))
    builder.add_node("respond", respond)

    # Order is load-bearing: compress first (the entity scan reads a bounded history), enrich second (the
    # cache is looked up with the standalone question), cache last (a hit skips everything downstream).
    builder.add_edge(START, "intake")
    builder.add_edge("intake", "compress_history")
    builder.add_edge("compress_history", "enrich")
    builder.add_edge("enrich", "cache_lookup")
    builder.add_conditional_edges("cache_lookup", after_cache, ["respond", "route"])
    # The flags pick the branch: refusal, a clarification round, or the gather branches in parallel.
    builder.add_conditional_edges("route", after_route, ["refuse", "clarify", "retrieve", "news", "join"])
    builder.add_edge("clarify", "enrich")  # the reply is merged into the question, which is enriched again
    builder.add_edge("refuse", "respond")
    # The gather branches meet before the calculation: a growth rate needs the figures retrieval found.
    builder.add_edge("retrieve", "join")
    builder.add_edge("news", "join")
    builder.add_conditional_edges("join", after_join, ["prepare_calculation", "assemble"])
    builder.add_edge("prepare_calculation", "calculate")
    builder.add_edge("calculate", "assemble")
    builder.add_edge("assemble", "generate")
    builder.add_edge("generate", "validate_citations")
    builder.add_edge("validate_citations", "remember")
    builder.add_edge("remember", "respond")
    builder.add_edge("respond", END)
    return builder


def _join(state: SupervisorState) -> dict[str, Any]:
    """The meeting point of the gather branches (writes nothing)."""
    return {}
