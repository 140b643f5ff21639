"""The supervisor graph end to end with scripted collaborators (router, search, news, cache) and an in-memory
checkpointer: calculation, clarification interrupt and resume, refusal, multi-turn threads, subgraph isolation,
insufficient evidence, the cache, replay and fork."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.types import Command

from app.checkpoints import checkpoint_types
from app.evidence import Evidence
from app.routing.decision import RouteDecision
from app.turns import Response, Turn
from graphs.supervisor import SupervisorDeps, build_repeat_door, build_supervisor_graph
from prompts.answer import INSUFFICIENT_EVIDENCE, OUT_OF_SCOPE
from tests.fakes import ScriptedSearch, offline_models

NW, HL = "Northwind Logistics", "Helio Renewables"
DIFFERENCE = "What was the difference in FY2024 operating margin between Northwind Logistics and Helio Renewables?"

NW_TABLE = Evidence(
    chunk_id="nw24-kpi", source_id="northwind-ar-2024", title="Northwind annual report 2024", company=NW,
    fiscal_year=2024, page=39, is_table=True, score=0.03,
    text="| Measure | FY2024 | FY2023 |\n|---|---|---|\n| Operating margin | 6.7% | 6.4% |\n"
         "| Revenue (£m) | 1,311.2 | 1,204.6 |")
HL_TABLE = Evidence(
    chunk_id="hl24-kpi", source_id="helio-ar-2024", title="Helio annual report 2024", company=HL, fiscal_year=2024,
    page=12, is_table=True, score=0.03,
    text="| Measure | FY2024 | FY2023 |\n|---|---|---|\n| Operating margin | 9.1% | 8.8% |\n"
         "| Revenue ($m) | 949.3 | 845.1 |")
CORPUS = {NW: [NW_TABLE], HL: [HL_TABLE]}

PRIVATE_KEYS = {
    # retrieval subgraph
    "documents", "found", "attempt", "max_attempts", "query_log", "targets", "queries", "search_k", "graded",
    "graded_count", "claims", "dropped_claims", "failed_terms", "missing", "request", "doc_type",
    # calculator subgraph
    "messages", "steps", "max_steps",
}


class Search(ScriptedSearch):
    """The scripted search over CORPUS unless another corpus is given."""

    def __init__(self, corpus: dict[str, list[Evidence]] | None = None) -> None:
        super().__init__(CORPUS if corpus is None else corpus)


class Router:
    """Scripted routing: 'weather' is out of scope; a question with no company (and no context) needs a
    clarification; 'difference' needs a calculation; everything else needs the reports."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, question: str, *, known_companies: list[str], context_entities: list[str]) -> RouteDecision:
        self.calls.append((question, list(context_entities)))
        q = question.lower()
        if "weather" in q:
            return RouteDecision(is_out_of_scope=True)
        companies = [c for c in known_companies if c.split()[0].lower() in q]
        if not companies and not context_entities:
            return RouteDecision(needs_clarification=True, clarification_question="Which company do you mean?")
        years = [2024] if "2024" in q else []
        return RouteDecision(needs_retrieval=True, needs_calculation="difference" in q,
                             signals={"companies": companies, "years": years})


def make_cache(tmp_path: Any) -> Any:
    """The real semantic cache on a file, with a bag-of-words embedder."""
    from app.memory.semantic_cache import SemanticCache
    from tests.fakes import WordHashEmbedder

    return SemanticCache(f"sqlite:///{tmp_path / 'memory.sqlite'}", WordHashEmbedder().embed)


class Harness:
    def __init__(self, *, search: Search | None = None, cache: Any = None,
                 periods: dict[str, list[int]] | None = None) -> None:
        self.search = search or Search()
        self.router = Router()
        self.news_calls: list[tuple[str, str | None]] = []
        self.cache = cache
        self.counted = 0
        deps = SupervisorDeps(models=offline_models(self.router), search_fn=self.search, news_fn=self.news,
                              count_tokens=self.count, known_companies=lambda: [NW, HL], cache=cache,
                              source_hash=lambda source_id: "h1",
                              periods_fn=(lambda company: (periods or {}).get(company, [])) if periods else None)
        saver = InMemorySaver(serde=JsonPlusSerializer(allowed_msgpack_modules=checkpoint_types()))
        self.deps = deps
        self.graph = build_supervisor_graph(deps).compile(checkpointer=saver)

    def news(self, query: str, company: str | None, k: int) -> list[Evidence]:
        self.news_calls.append((query, company))
        return []

    def count(self, text: str) -> int:
        self.counted += 1
        return len(text.split())

    def ask(self, question: str | None, thread: str = "t1", config: dict[str, Any] | None = None) -> dict[str, Any]:
        cfg = config or cfg_for(thread)
        return self.graph.invoke(None if question is None else {"question": question}, cfg)

    def values(self, thread: str = "t1") -> dict[str, Any]:
        return self.graph.get_state(cfg_for(thread)).values


def cfg_for(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


@pytest.fixture()
def h() -> Harness:
    return Harness()


# --- (a) a calculation across two companies -----------------------------------------------------------------


def test_two_company_difference_answers_with_a_calculation_citing_both_companies(h: Harness):
    out = h.ask(DIFFERENCE)
    response = out["response"]
    assert isinstance(response, Response)
    assert response.status == "answered"
    assert "Difference: 6.7 - 9.1 = -2.4 percentage points" in response.answer
    cited_sources = {c.source_id for c in response.citations}
    assert {"northwind-ar-2024", "helio-ar-2024", "calculation"} <= cited_sources
    assert response.flagged == []
    assert sorted({c for _, c in h.search.calls}) == [HL, NW]

    state = h.values()
    calc = state["calculation"]
    assert calc.status == "ok" and calc.results[0].tool == "difference"
    assert {f.company for f in calc.results[0].sources.values()} == {NW, HL}
    calc_block = next(b for b in state["blocks"] if b.kind == "calculation")
    assert calc_block.n in state["citation_check"].valid
    assert state["fiscal_years"] == [2024]
    assert [e.block for e in state["manifest"]][0] == "instructions"
    assert h.news_calls == []  # news was not asked for


# --- (b) clarification --------------------------------------------------------------------------------------


def test_clarification_interrupts_then_the_reply_is_merged_and_answered(h: Harness):
    out = h.ask("What was the operating margin?", thread="c1")
    assert "__interrupt__" in out
    assert out["__interrupt__"][0].value["question"] == "Which company do you mean?"
    assert out.get("response") is None
    waiting = h.graph.get_state(cfg_for("c1"))
    assert waiting.interrupts and waiting.next == ("clarify",)
    assert h.search.calls == []  # nothing searched before the reply

    out = h.graph.invoke(Command(resume="Northwind Logistics"), cfg_for("c1"))
    assert "__interrupt__" not in out
    response = out["response"]
    assert response.status == "answered"
    assert response.question == "What was the operating margin (Northwind Logistics)?"
    assert "6.7%" in response.answer and {c.source_id for c in response.citations} == {"northwind-ar-2024"}
    state = h.values("c1")
    assert state["clarifications"] == [{"question": "Which company do you mean?", "reply": "Northwind Logistics"}]
    assert state["asked"] == "What was the operating margin?"
    assert not h.graph.get_state(cfg_for("c1")).interrupts
    assert len(state["history"]) == 1  # one turn, not two


# --- (c) out of scope ---------------------------------------------------------------------------------------


def test_out_of_scope_is_refused_without_searching(h: Harness):
    out = h.ask("What will the weather be in Leeds tomorrow?")
    assert out["response"].status == "refused"
    assert out["response"].answer == OUT_OF_SCOPE
    assert out["response"].citations == []
    assert h.search.calls == [] and h.news_calls == []
    assert h.values().get("retrieval_result") is None


# --- (d) a second turn on the same thread -------------------------------------------------------------------


def test_second_turn_sees_the_first_and_per_turn_keys_do_not_leak(h: Harness):
    first = h.ask(DIFFERENCE)["response"]
    assert first.status == "answered"
    assert h.values()["calculation"] is not None

    second = h.ask("What about their revenue?")["response"]
    state = h.values()
    assert len(state["history"]) == 2
    assert isinstance(state["history"][0], Turn) and state["history"][0].question == DIFFERENCE
    assert state["recent_turns"][0].question == DIFFERENCE  # the first turn, as the second saw it
    # The follow-up was resolved against the first turn's companies and year.
    assert second.question == "What about their revenue? [Northwind Logistics, Helio Renewables, FY2024]"
    assert h.router.calls[-1][1] == [NW, HL]
    assert second.status == "answered"
    # Per-turn keys were reset: no calculation this turn, and this turn's own retrieval.
    assert state["calculation"] is None
    assert "Difference" not in second.answer
    assert state["retrieval_result"].queries[0][0] == second.question

    third = h.ask("What will the weather be tomorrow?")["response"]
    state = h.values()
    assert third.status == "refused"
    assert state["retrieval_result"] is None and state["blocks"] == [] and state["citation_check"] is None
    assert [t.status for t in state["history"]] == ["answered", "answered", "refused"]


# --- (e) subgraph isolation ---------------------------------------------------------------------------------


def test_subgraph_private_keys_never_reach_the_parent(h: Harness):
    chunks = list(h.graph.stream({"question": DIFFERENCE}, cfg_for("iso"), stream_mode="updates"))
    for chunk in chunks:
        for node, update in chunk.items():
            assert not PRIVATE_KEYS & set(update or {}), node
    retrieve_updates = [c["retrieve"] for c in chunks if "retrieve" in c]
    calc_updates = [c["calculate"] for c in chunks if "calculate" in c]
    assert [set(u) for u in retrieve_updates] == [{"retrieval_result"}]
    assert [set(u) for u in calc_updates] == [{"calculation"}]

    state = h.values("iso")
    assert not PRIVATE_KEYS & set(state)
    assert state["retrieval_result"].attempts == 1
    assert state["response"].status == "answered"


# --- (f) nothing found --------------------------------------------------------------------------------------


def test_a_period_the_knowledge_base_does_not_hold_is_insufficient_and_names_the_periods_it_holds():
    h = Harness(periods={NW: [2023, 2024], HL: [2024]})
    out = h.ask("What was Northwind Logistics' revenue in FY2030?")
    response = out["response"]
    assert response.status == "insufficient" and response.citations == []
    assert "holds no filing of Northwind Logistics that covers FY2030; it holds FY2023, FY2024" in response.answer
    assert h.search.calls == []  # no other year's figures were fetched to stand in for it


def test_a_company_the_knowledge_base_does_not_hold_is_insufficient_and_no_other_filing_stands_in():
    h = Harness()
    response = h.ask("What was Quillfeather Aerospace's revenue in FY2024?")["response"]
    assert response.status == "insufficient" and response.citations == []
    assert "holds no filings of Quillfeather Aerospace" in response.answer
    assert h.search.calls == []
    # a question naming a held company is searched as before, whatever else it names
    assert h.ask("Did Northwind Logistics mention Quillfeather Aerospace in FY2024?", thread="t2")
    assert h.search.calls


def test_search_finding_nothing_is_insufficient_not_an_error():
    h = Harness(search=Search(corpus={}))
    out = h.ask("What was Northwind Logistics' operating margin in FY2024?")
    response = out["response"]
    assert response.status == "insufficient"
    assert response.answer.startswith(INSUFFICIENT_EVIDENCE)
    # and it says what was searched, and where
    assert "Searched the filings of Northwind Logistics for: operating margin" in response.answer
    assert response.citations == []
    state = h.values()
    assert state["retrieval_result"].status == "insufficient"
    assert state["retrieval_result"].attempts == 2  # it retried before giving up
    assert len(h.search.calls) >= 2


# --- (g) the cache ------------------------------------------------------------------------------------------


def test_cache_hit_skips_routing_and_returns_cached(tmp_path):
    h = Harness(cache=make_cache(tmp_path))
    first = h.ask(DIFFERENCE, thread="a")["response"]
    assert first.status == "answered" and first.cached is False
    routed, searched = len(h.router.calls), len(h.search.calls)
    assert routed == 1 and h.cache.count() == 1

    second = h.ask(DIFFERENCE, thread="b")["response"]
    assert second.cached is True
    assert second.answer == first.answer
    assert [c.n for c in second.citations] == [c.n for c in first.citations]
    assert len(h.router.calls) == routed  # route never ran
    assert len(h.search.calls) == searched
    assert h.values("b")["decision"] is None
    assert len(h.values("b")["history"]) == 1


def steps(h: Harness, thread: str) -> list[tuple[str, ...]]:
    """What ran at each checkpointed step of the thread's latest turn, oldest first."""
    history = list(reversed(list(h.graph.get_state_history(cfg_for(thread)))))
    start = max(i for i, s in enumerate(history) if s.next == ("__start__",))
    return [tuple(sorted(s.next)) for s in history[start + 1:] if s.next]


def test_a_hit_on_a_first_turn_takes_four_steps_and_a_later_turn_compresses_its_history_first(tmp_path):
    h = Harness(cache=make_cache(tmp_path))
    h.ask(DIFFERENCE, thread="a")
    assert h.ask(DIFFERENCE, thread="b")["response"].cached is True
    # No history to compress on a thread's first turn; the memory check runs beside enrich, in one step.
    assert steps(h, "b") == [("intake",), ("enrich", "find_memory_answer"), ("cache_lookup",), ("respond",)]
    assert h.values("b")["recent_turns"] == [] and h.values("b")["history_summary"] == ""
    assert h.values("b")["cache_considered"] == [{"similarity": 1.0, "reason": "hit"}]

    assert h.ask(DIFFERENCE, thread="b")["response"].cached is True  # the same question again, second turn
    assert steps(h, "b") == [("intake",), ("compress_history",), ("enrich", "find_memory_answer"),
                             ("cache_lookup",), ("respond",)]
    assert [t.question for t in h.values("b")["recent_turns"]] == [DIFFERENCE]


def test_the_repeat_door_leaves_the_state_a_graph_hit_leaves(tmp_path):
    h = Harness(cache=make_cache(tmp_path))
    h.ask(DIFFERENCE, thread="a")
    assert h.ask(f"  {DIFFERENCE} ", thread="b")["response"].cached is True  # the graph's hit path, four steps
    door = build_repeat_door(h.deps)
    values = door({"question": f"  {DIFFERENCE} ", "thread": "c"})  # what Harness.ask gives the graph, on "c"
    assert values is not None
    h.graph.update_state(cfg_for("c"), values, as_node="respond")
    by_graph, by_door = h.values("b"), h.values("c")
    differ = {key for key in by_graph.keys() | by_door.keys() if by_graph.get(key) != by_door.get(key)}
    assert differ == {"thread", "turn_source"}, differ  # the thread's name, and the turn named by it
    assert by_door["response"].cached is True and by_door["decision"] is None and len(by_door["history"]) == 1
    assert h.graph.get_state(cfg_for("c")).next == ()
    # The thread goes on like any other: its second turn compresses the first.
    assert h.ask(DIFFERENCE, thread="c")["response"].cached is True
    assert steps(h, "c") == [("intake",), ("compress_history",), ("enrich", "find_memory_answer"),
                             ("cache_lookup",), ("respond",)]


def test_the_repeat_door_steps_aside_wherever_the_graph_leaves_the_hit_path(tmp_path):
    from types import SimpleNamespace

    h = Harness(cache=make_cache(tmp_path))
    h.ask(DIFFERENCE, thread="a")
    door = build_repeat_door(h.deps)
    ask = lambda question, **more: door({"question": question, "thread": "new", "use_cache": True, **more})  # noqa: E731
    assert ask(DIFFERENCE) is not None
    assert ask(DIFFERENCE, use_cache=False) is None  # --no-cache
    assert ask(DIFFERENCE.replace("2024", "2023")) is None  # a miss: another year
    assert ask("My fiscal year ends in June.") is None  # a statement: noted, not looked up
    assert ask(f"{DIFFERENCE} What did you say earlier?") is None  # refers back: history first
    # A question the user's own records answer goes to memory, whatever the cache holds.
    found = SimpleNamespace(text="You said June.", record_ids=["r1"])
    with_memory = replace(h.deps, memory=object(), memory_answer=lambda *a, **k: found)
    assert build_repeat_door(with_memory)({"question": DIFFERENCE, "thread": "new", "use_cache": True}) is None
    assert build_repeat_door(replace(h.deps, cache=None))({"question": DIFFERENCE, "thread": "new"}) is None


def test_a_follow_up_is_looked_up_by_its_standalone_question(tmp_path):
    h = Harness(cache=make_cache(tmp_path))
    h.ask("What was Northwind Logistics' operating margin in FY2024?", thread="a")
    answered = h.ask("What about their revenue?", thread="a")["response"]
    assert answered.status == "answered" and not answered.cached
    # written out as the question it asks: the previous question of another measure
    assert answered.question == "What was Northwind Logistics' revenue in FY2024?"
    routed = len(h.router.calls)

    h.ask("What was Northwind Logistics' operating margin in FY2024?", thread="b")
    follow_up = h.ask("What about their revenue?", thread="b")["response"]
    assert follow_up.cached is True and follow_up.answer == answered.answer
    assert follow_up.question == answered.question  # enriched before the lookup
    assert len(h.router.calls) == routed  # neither turn of thread b was routed

    h.ask("What was Helio Renewables' operating margin in FY2024?", thread="c")
    other = h.ask("What about their revenue?", thread="c")["response"]  # the same words, about another company
    assert other.cached is False and other.question == "What was Helio Renewables' revenue in FY2024?"


# --- (h) replay and fork ------------------------------------------------------------------------------------


def test_replay_from_before_assemble_reruns_only_the_later_nodes(h: Harness):
    cfg = cfg_for("r")
    first = h.ask(DIFFERENCE, thread="r")["response"]
    history = list(h.graph.get_state_history(cfg))
    before_assemble = next(s for s in history if s.next == ("assemble",))
    routed, searched, counted = len(h.router.calls), len(h.search.calls), h.counted
    seen = {s.config["configurable"]["checkpoint_id"] for s in history}

    replayed = h.graph.invoke(None, before_assemble.config)["response"]
    assert replayed.status == "answered" and replayed.answer == first.answer
    assert len(h.router.calls) == routed and len(h.search.calls) == searched  # nothing upstream re-ran
    assert h.counted > counted  # assemble did

    new = [s for s in h.graph.get_state_history(cfg) if s.config["configurable"]["checkpoint_id"] not in seen]
    ran = [s.next for s in reversed(new)]
    assert ran[-1] == ()
    assert {n for nxt in ran for n in nxt} == {"assemble", "generate", "validate_citations", "remember", "write_memory",
                                               "respond"}
    # The replay branches from a checkpoint before the turn was recorded: the turn is in history once, not twice.
    assert [t.question for t in h.values("r")["history"]] == [DIFFERENCE]


def test_fork_with_an_edited_question_answers_the_new_question(h: Harness):
    cfg = cfg_for("f")
    original = h.ask(DIFFERENCE, thread="f")["response"]
    start = next(s for s in h.graph.get_state_history(cfg) if s.next == ("intake",))
    edited = "What was the difference in FY2024 operating margin between Helio Renewables and Northwind Logistics?"
    fork_cfg = h.graph.update_state(start.config, {"question": edited}, as_node="__start__")
    assert h.graph.get_state(fork_cfg).next == ("intake",)

    out = h.graph.invoke(None, fork_cfg)["response"]
    assert out.status == "answered"
    assert out.question == edited
    assert "9.1 - 6.7 = 2.4" in out.answer and out.answer != original.answer
    assert h.router.calls[-1][0] == edited
    history = h.values("f")["history"]
    assert [t.question for t in history] == [edited]  # the fork branches from before the first turn
