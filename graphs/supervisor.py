"""The supervisor graph (DESIGN.md draws it):

    intake ─┬─ history ─▶ compress_history ─┐
            └─ first turn ──────────────────┴─▶ enrich ∥ find_memory_answer ─┬─ only statements ─────────▶ write_memory
                                                                             ├─ asks what the user said ─▶ answer_from_memory ─▶ write_memory
                                                                             └─ cache_lookup ─┬─ hit ──────────────────────────▶ respond
                                                                                              └─ miss ─▶ route ─┬─ out of scope ─▶ refuse ─▶ write_memory
                                                                                                                ├─ clarify (interrupt) ─▶ enrich ∥ find_memory_answer
                                                                                                                └─ retrieve ∥ news ∥ read_memory
                                                                                                                          ▼
                                                                                  join ─▶ read_facts ─┬─ prepare_calculation ─▶ calculate
                                                                                                      ▼                            │
                                         assemble ◀───────────────────────────────────────────────────┴────────────────────────────┘
                                            ─▶ generate ─▶ validate_citations ─▶ remember ─▶ write_memory ─▶ respond ─▶ END

`retrieve` is the compiled retrieval subgraph (only `retrieval_result` comes back); `calculate` the compiled
calculator subgraph (only `calculation` comes back); `read_facts` reads the facts the question asks for from the
evidence and news the branches brought (nodes/facts.py); `read_memory` runs when the route plan's `memory_read`
asks for it, and `write_memory` runs the write policy on every turn (nodes/memory.py). Branch functions live
in nodes/ and are plain. `build_repeat_door` runs the hit path (intake → enrich ∥ find_memory_answer →
cache_lookup → respond) of a new thread's repeated question as plain calls of the same nodes and branches.
Collaborators are injected through `SupervisorDeps`: the model factory's ModelSet (router, grader, synthesizer,
calculator model: app/models), the search functions, the cache and the token counter, so tests wire scripted
or offline ones (tests/fakes.py) and the app wires the real ones (app/runtime.py).
"""

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable, Mapping, Sequence

from langgraph.graph import END, START, StateGraph

from app.models.roles import MAX_PARALLEL_GRADES, ModelSet
from graphs.calculator import build_calculator_graph
from graphs.retrieval import build_retrieval_graph
from nodes.assemble import assemble
from nodes.conversation import (after_cache, after_intake, cache_lookup, clarify, compress_history, enrich, intake,
                                refuse, remember, respond)
from nodes.memory import after_enrich, answer_from_memory, find_memory_answer, read_memory, write_memory
from nodes.facts import read_facts
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
    mention_fn: Callable[[str, list[list[str]]], list] | None = None
    known_years: Callable[[], Sequence[int]] | None = None
    period_ends: Callable[[str], Mapping[str, int]] | None = None
    names_by_start: Callable[[str], bool] | None = None
    mentions: Callable[[str], Sequence[str]] | None = None
    row_owners: Callable[[str], Sequence[str]] | None = None
    news_companies: Callable[[], Sequence[str]] | None = None
    company_aliases: Callable[[], Mapping[str, str]] = dict
    cache: Any = None
    source_hash: Callable[[str], str | None] = lambda _: None
    memory: Any = None
    archive: Any = None
    memory_answer: Callable[..., Any] | None = None
    memory_max_records: int = 6
    memory_max_tokens: int = 300
    budget_tokens: int = 6000
    max_question_chars: int = 2000
    verbatim_turns: int = 3
    news_limit: int = 5
    retrieval_k: int = 8
    grade_concurrency: int = MAX_PARALLEL_GRADES


def build_supervisor_graph(deps: SupervisorDeps) -> StateGraph:
    """Wire the supervisor, uncompiled (app/runtime.py compiles it once, with the SQLite checkpointer)."""
    retrieval = build_retrieval_graph(deps.search_fn, grader=deps.models.grader, k=deps.retrieval_k,
                                      periods_fn=deps.periods_fn, page_fn=deps.page_fn,
                                      mention_fn=deps.mention_fn, grade_concurrency=deps.grade_concurrency).compile()
    calculator = build_calculator_graph(deps.models.calculator).compile()

    hit = _hit_path(deps)
    builder = StateGraph(SupervisorState, input_schema=SupervisorInput, output_schema=SupervisorOutput)
    builder.add_node("intake", hit["intake"])
    builder.add_node("compress_history", partial(compress_history, verbatim=deps.verbatim_turns,
                                                 archive=deps.archive, memory=deps.memory))
    # enrich has no edge out (find_memory_answer, beside it, routes); `destinations` only draws where it leads.
    builder.add_node("enrich", hit["enrich"], destinations=("write_memory", "answer_from_memory", "cache_lookup"))
    builder.add_node("find_memory_answer", hit["find_memory_answer"])
    builder.add_node("answer_from_memory", answer_from_memory)
    builder.add_node("cache_lookup", hit["cache_lookup"])
    builder.add_node("route", partial(route, router=deps.models.router, known_companies=deps.known_companies,
                                      known_years=deps.known_years, aliases=deps.company_aliases,
                                      period_ends=deps.period_ends, names_by_start=deps.names_by_start,
                                      mentions=deps.mentions, row_owners=deps.row_owners,
                                      news_companies=deps.news_companies))
    builder.add_node("clarify", clarify)
    builder.add_node("refuse", refuse)
    builder.add_node("retrieve", retrieval)
    builder.add_node("news", partial(gather_news, news_fn=deps.news_fn, limit=deps.news_limit))
    builder.add_node("read_memory", partial(read_memory, store=deps.memory, count=deps.count_tokens,
                                            max_records=deps.memory_max_records, max_tokens=deps.memory_max_tokens,
                                            known_companies=deps.known_companies))
    builder.add_node("join", _join)
    builder.add_node("read_facts", read_facts)
    builder.add_node("prepare_calculation", prepare_calculation)
    builder.add_node("calculate", calculator)
    builder.add_node("assemble", partial(assemble, budget=deps.budget_tokens, count=deps.count_tokens))
    builder.add_node("generate", partial(generate, synthesizer=deps.models.synthesizer))
    builder.add_node("validate_citations", validate_citations)
    builder.add_node("remember", partial(remember, cache=deps.cache, source_hash=deps.source_hash))
    builder.add_node("write_memory", partial(write_memory, store=deps.memory, cache=deps.cache))
    builder.add_node("respond", hit["respond"])

    # Order is load-bearing: compress first (the entity scan reads a bounded history), enrich second (the
    # cache is looked up with the standalone question), cache last (a hit skips everything downstream).
    # A thread's first turn has no history to compress (after_intake). find_memory_answer reads only what the
    # user wrote (never enrich's output), so the two run side by side in one step: one checkpoint, not two.
    builder.add_edge(START, "intake")
    builder.add_conditional_edges("intake", after_intake, ["compress_history", "enrich", "find_memory_answer"])
    builder.add_edge("compress_history", "enrich")
    builder.add_edge("compress_history", "find_memory_answer")
    # A turn that only states something is noted; a question about what the user said is answered from memory.
    # The branch hangs on find_memory_answer alone (enrich has no edge out): it reads what that node wrote and
    # what the user wrote, and the next node reads both nodes' writes.
    builder.add_conditional_edges("find_memory_answer", after_enrich,
                                  ["write_memory", "answer_from_memory", "cache_lookup"])
    builder.add_edge("answer_from_memory", "write_memory")
    builder.add_conditional_edges("cache_lookup", after_cache, ["respond", "route"])
    # The flags pick the branch: refusal, a clarification round, or the gather branches in parallel.
    builder.add_conditional_edges("route", after_route, ["refuse", "clarify", "retrieve", "news", "read_memory",
                                                         "join"])
    # The reply is merged into the question, which is enriched again (and the reply read for memory).
    builder.add_edge("clarify", "enrich")
    builder.add_edge("clarify", "find_memory_answer")
    builder.add_edge("refuse", "write_memory")
    # The gather branches meet before the calculation: a growth rate needs the figures retrieval found.
    builder.add_edge("retrieve", "join")
    builder.add_edge("news", "join")
    builder.add_edge("read_memory", "join")
    # The facts the question asks for, read from what the branches brought (the calculator and the prompt use them).
    builder.add_edge("join", "read_facts")
    builder.add_conditional_edges("read_facts", after_join, ["prepare_calculation", "assemble"])
    builder.add_edge("prepare_calculation", "calculate")
    builder.add_edge("calculate", "assemble")
    builder.add_edge("assemble", "generate")
    builder.add_edge("generate", "validate_citations")
    builder.add_edge("validate_citations", "remember")
    builder.add_edge("remember", "write_memory")
    builder.add_edge("write_memory", "respond")
    builder.add_edge("respond", END)
    return builder


def _hit_path(deps: SupervisorDeps) -> dict[str, Callable[..., dict[str, Any]]]:
    """The nodes a cached answer passes through, bound to their collaborators: the graph's nodes, and the repeat
    door's steps (one set of callables for both, so the two cannot drift apart)."""
    return {
        "intake": partial(intake, max_chars=deps.max_question_chars),
        "enrich": partial(enrich, known_companies=deps.known_companies, aliases=deps.company_aliases),
        "find_memory_answer": partial(find_memory_answer, store=deps.memory, answer_fn=deps.memory_answer),
        "cache_lookup": partial(cache_lookup, cache=deps.cache, known_companies=deps.known_companies,
                                source_hash=deps.source_hash),
        "respond": respond,
    }


def build_repeat_door(deps: SupervisorDeps) -> Callable[[Mapping[str, Any]], dict[str, Any] | None]:
    """The supervisor's cache-hit path for a new thread's first question, run as plain calls instead of graph
    steps: intake, then enrich and find_memory_answer (both reading intake's state, as in their shared step), then
    cache_lookup, then respond. The same bound node functions as the graph's, and at each fork the graph's own
    branch function decides: the moment one leaves the hit path (history to compress, a statement to note, a
    question about what the user said, a cache miss), the door returns None and the whole graph runs the turn.

    On a hit it returns the thread's state as the graph would leave it at the end of that turn, for the runtime
    to record as the respond node's update (`update_state(..., as_node="respond")`): one checkpoint, which
    `prov trace`, `replay --list`, `threads` and `memory forget` read like any turn's. What it saves is the
    scheduler's work on four steps, most of a hit's time once the models are local (bench/context.py)."""
    steps = _hit_path(deps)

    def serve(inputs: Mapping[str, Any]) -> dict[str, Any] | None:
        if deps.cache is None or inputs.get("use_cache") is False:
            return None
        state: dict[str, Any] = dict(inputs)
        state.update(steps["intake"](state))
        if sorted(after_intake(state)) != ["enrich", "find_memory_answer"]:
            return None
        side_by_side = [steps["enrich"](state), steps["find_memory_answer"](state)]
        for update in side_by_side:
            state.update(update)
        if after_enrich(state) != "cache_lookup":
            return None
        state.update(steps["cache_lookup"](state))
        if after_cache(state) != "respond":
            return None
        state.update(steps["respond"](state))
        return state

    return serve


def _join(state: SupervisorState) -> dict[str, Any]:
    """The meeting point of the gather branches (writes nothing)."""
    return {}
