"""The memory wiring: read_memory (which records a turn admits, and why), write_memory (what a turn writes, the
'noted' answer, the cache dropped), after_enrich, the assembler's memory blocks and budget degradation, recalled
turns in the history, standing instructions in the offline composer, and the whole supervisor graph on a thread:
the worked correction trace (a document's figure, the user's correction, a second correction superseding the
first) and a standing constraint still obeyed at turn twenty.

Offline and fast: scripted router and search, the offline grader and composer, an InMemorySaver, a MemoryStore
on a temporary SQLite file, and a word-count token counter."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from app.checkpoints import checkpoint_types
from app.evidence import Evidence, RetrievalResult
from app.memory.records import MemoryStore
from app.models.providers.offline.composer.answer import user_statement_sentences, with_standing_instructions
from app.routing.decision import RouteDecision, RoutePlan
from app.turns import Block, MemoryItem, Response, Turn
from graphs.supervisor import SupervisorDeps, build_supervisor_graph
from nodes.assemble import assemble, history_section
from nodes.memory import (after_enrich, fact_agrees, key_overlap, noted_answer, only_statements, read_memory,
                          relevance, user_sentences, write_memory)
from prompts.answer import answer_instructions
from tests.fakes import ScriptedSearch, offline_models

NW, HL = "Northwind Logistics", "Helio Renewables"
KNOWN = [NW, HL]
REVENUE_Q = "What was Northwind's FY2024 revenue?"
CORRECTION = "Actually, Northwind's FY2024 revenue was £1,400m."
SECOND_CORRECTION = "Actually, Northwind's FY2024 revenue was £1,450m."
REVENUE_KEY = "northwind's fy2024 revenue"

NW_REVENUE = Evidence(
    chunk_id="nw24-rev", source_id="northwind-ar-2024", title="Northwind annual report 2024", company=NW,
    fiscal_year=2024, page=12, score=0.03, text="Northwind Logistics revenue was £1,311.2m in FY2024.")
NW_STATEMENT = Evidence(
    chunk_id="nw24-is", source_id="northwind-10k-2024", title="Northwind 10-K 2024", company=NW, fiscal_year=2024,
    page=61, score=0.03,
    text="\n".join(["NORTHWIND LOGISTICS", "CONSOLIDATED STATEMENTS OF OPERATIONS", "(In thousands)",
                    "Year Ended December 31,", "2024", "2023", "Total revenues 4,459,440 4,047,550",
                    "Operating income 520,118 470,300", "Net income 312,004 280,117"]))

T0 = datetime(2025, 1, 1, tzinfo=timezone.utc)


def count(text: str) -> int:
    return len(text.split())


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


# --- the harness: the whole supervisor graph with scripted collaborators and a real MemoryStore ---------------


class MemoryRouter:
    """Every question needs the reports, and the plan reads memory (`memory_read`, 'facts' by default)."""

    def __init__(self, memory_read: str = "facts") -> None:
        self.memory_read = memory_read

    def __call__(self, question: str, *, known_companies: list[str], context_entities: list[str]) -> RouteDecision:
        q = question.lower()
        companies = [c for c in known_companies if c.split()[0].lower() in q] or list(context_entities)
        years = [int(y) for y in re.findall(r"(?<!\d)(20\d\d)(?!\d)", q)]
        return RouteDecision(needs_retrieval=True, plan=RoutePlan(source="reports", memory_read=self.memory_read),
                             signals={"companies": companies, "years": years})


class Harness:
    def __init__(self, tmp_path: Any, corpus: dict[str, list[Evidence]] | None = None, **deps: Any) -> None:
        self.memory = MemoryStore(f"sqlite:///{tmp_path / 'm.sqlite'}")
        self.search = ScriptedSearch({NW: [NW_REVENUE]} if corpus is None else corpus)
        self.router = MemoryRouter()
        wired = SupervisorDeps(models=offline_models(self.router), search_fn=self.search, news_fn=self.news,
                               count_tokens=count, known_companies=lambda: KNOWN, memory=self.memory, **deps)
        saver = InMemorySaver(serde=JsonPlusSerializer(allowed_msgpack_modules=checkpoint_types()))
        self.graph = build_supervisor_graph(wired).compile(checkpointer=saver)

    def news(self, query: str, company: str | None, k: int) -> list[Evidence]:
        return []

    def ask(self, question: str, *, user: str = "alice", thread: str = "t1") -> Response:
        out = self.graph.invoke({"question": question, "user": user, "thread": thread},
                                {"configurable": {"thread_id": thread}})
        return out["response"]

    def values(self, thread: str = "t1") -> dict[str, Any]:
        return self.graph.get_state({"configurable": {"thread_id": thread}}).values


def prompt_text(state: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in state["prompt"])


def section(text: str, heading: str) -> str:
    """One '## heading' section of the user message ('' when absent)."""
    start = text.find(f"## {heading}")
    if start < 0:
        return ""
    end = text.find("\n\n## ", start + 3)
    return text[start:] if end < 0 else text[start:end]


def memory_entries(manifest: list[Any]) -> list[Any]:
    """The manifest's entries for memory records (one per record read; the 'nothing read' entry has no items)."""
    return [e for e in manifest if e.producer.startswith("read_memory") and e.items]


# --- (1) the worked correction trace through the whole graph ------------------------------------------------


def run_correction_trace(h: Harness) -> dict[str, Any]:
    """Turns 1-5: ask, correct, ask, correct again, ask. What each turn returned and left in state."""
    trace: dict[str, Any] = {}
    trace["r1"] = h.ask(REVENUE_Q)
    trace["s1"] = h.values()
    searched = len(h.search.calls)
    trace["r2"] = h.ask(CORRECTION)
    trace["searches_at_turn2"] = len(h.search.calls) - searched
    trace["records2"] = h.memory.list_records(user="alice")
    trace["r3"] = h.ask(REVENUE_Q)
    trace["s3"] = h.values()
    trace["r4"] = h.ask(SECOND_CORRECTION)
    trace["s4"] = h.values()
    trace["r5"] = h.ask(REVENUE_Q)
    trace["s5"] = h.values()
    return trace


@pytest.fixture(scope="module")
def trace(tmp_path_factory: Any) -> dict[str, Any]:
    """One run of the trace for the tests below, which read it (only the other-user test adds a thread)."""
    h = Harness(tmp_path_factory.mktemp("trace"))
    out = run_correction_trace(h)
    out["h"] = h
    return out


def test_turn_one_answers_from_the_document_alone(trace: dict[str, Any]) -> None:
    r1, s1 = trace["r1"], trace["s1"]
    assert r1.status == "answered"
    assert "£1,311.2m" in r1.answer
    assert {c.source_id for c in r1.citations} == {"northwind-ar-2024"}
    assert [b.kind for b in s1["blocks"]] == ["report"]
    assert s1["memory"] == []  # nothing stated yet
    assert [(w.kept, w.rule) for w in s1["memory_writes"]] == [(False, "a question states nothing to remember")]


def test_turn_two_notes_the_correction_as_one_active_fact_without_searching(trace: dict[str, Any]) -> None:
    r2 = trace["r2"]
    assert r2.status == "noted"
    assert r2.answer.casefold() == f"noted: {REVENUE_KEY} = £1,400m."  # the key, however it is cased
    [record] = trace["records2"]
    assert (record.type, record.key, record.value, record.status) == ("fact", REVENUE_KEY, "£1,400m", "active")
    assert record.said == CORRECTION and record.thread is None  # user-wide, in the user's words
    assert re.fullmatch(r"t1:[^-].*", record.source)  # the thread and the checkpoint it was said at
    assert [c.source_id for c in r2.citations] == [f"memory:{record.id}"]
    assert trace["searches_at_turn2"] == 0  # a statement-only turn is not searched for
    assert [t.status for t in trace["s5"]["history"]] == ["answered", "noted", "answered", "noted", "answered"]


def test_turn_three_states_the_users_figure_from_a_memory_block_and_still_cites_the_document(
        trace: dict[str, Any]) -> None:
    [record] = trace["records2"]
    r3, s3 = trace["r3"], trace["s3"]
    assert r3.status == "answered"
    memory_blocks = [b for b in s3["blocks"] if b.kind == "memory"]
    assert [b.source_id for b in memory_blocks] == [f"memory:{record.id}"]
    block = memory_blocks[0]
    assert block.text == CORRECTION and block.title == "your statement"
    # both figures are shown, each cited, and the answer says which it used
    assert "£1,400m" in r3.answer and "£1,311.2m" in r3.answer
    assert "this answer uses your figure" in r3.answer
    assert f"£1,400m [{block.n}]" in r3.answer
    assert {c.source_id for c in r3.citations} == {"northwind-ar-2024", f"memory:{record.id}"}
    assert block.n in s3["citation_check"].valid
    # exactly one memory entry for that key in the manifest, and it was admitted
    entries = memory_entries(s3["manifest"])
    assert [e.items for e in entries] == [[record.id]]
    assert entries[0].included and REVENUE_KEY in entries[0].block
    [item] = s3["memory"]
    assert item.admitted and item.rule == "the user's statement about what the question asks"


def test_a_second_correction_supersedes_the_first_which_is_kept(trace: dict[str, Any]) -> None:
    h, r4 = trace["h"], trace["r4"]
    [first] = trace["records2"]
    assert r4.status == "noted"
    assert r4.answer.casefold() == f"noted: {REVENUE_KEY} = £1,450m (replaces your earlier statement)."
    everything = h.memory.list_records(user="alice", include_all=True)
    assert [(r.id, r.status) for r in everything][0] == (first.id, "superseded")
    assert [(r.value, r.status) for r in everything] == [("£1,400m", "superseded"), ("£1,450m", "active")]
    assert everything[1].supersedes == first.id
    assert [r.value for r in h.memory.list_records(user="alice")] == ["£1,450m"]
    assert [r.value for r in h.memory.history("alice", REVENUE_KEY)] == ["£1,400m", "£1,450m"]
    writes = trace["s4"]["memory_writes"]
    assert [(w.kept, w.supersedes, w.rule) for w in writes] == [
        (True, first.id, "correction: supersedes the earlier record")]


def test_turn_five_admits_only_the_new_record_and_never_the_superseded_one(trace: dict[str, Any]) -> None:
    h, r5, s5 = trace["h"], trace["r5"], trace["s5"]
    [first] = trace["records2"]
    [new] = h.memory.list_records(user="alice")
    assert [m.id for m in s5["memory"]] == [new.id]  # the superseded record is never even read
    assert [e.items for e in memory_entries(s5["manifest"])] == [[new.id]]
    assert first.id not in {i for e in s5["manifest"] for i in e.items}
    assert [b.source_id for b in s5["blocks"] if b.kind == "memory"] == [f"memory:{new.id}"]
    stated = section(s5["prompt"][1]["content"], "What the user stated")
    assert "£1,450m" in stated and "1,400" not in stated
    assert "1,400" not in r5.answer and "£1,450m" in r5.answer and "£1,311.2m" in r5.answer
    assert {c.source_id for c in r5.citations} == {"northwind-ar-2024", f"memory:{new.id}"}


def test_the_superseded_value_is_absent_from_the_whole_prompt(trace: dict[str, Any]) -> None:
    assert "1,400" not in prompt_text(trace["s5"])


def test_another_users_thread_never_sees_the_correction(trace: dict[str, Any]) -> None:
    h = trace["h"]
    answer = h.ask(REVENUE_Q, user="bob", thread="b1")
    state = h.values("b1")
    assert state["memory"] == [] and [b.kind for b in state["blocks"]] == ["report"]
    assert "£1,311.2m" in answer.answer and "1,4" not in answer.answer
    assert {c.source_id for c in answer.citations} == {"northwind-ar-2024"}


# --- (2) read_memory ----------------------------------------------------------------------------------------


@pytest.fixture()
def store(tmp_path: Any) -> MemoryStore:
    return MemoryStore(f"sqlite:///{tmp_path / 'm.sqlite'}")


def reading(question: str = REVENUE_Q, memory_read: str = "facts", *, user: str = "alice",
            thread: str | None = None) -> dict[str, Any]:
    return {"decision": RouteDecision(needs_retrieval=True, plan=RoutePlan(memory_read=memory_read)),
            "question": question, "user": user, "thread": thread}


def read(store: MemoryStore, state: dict[str, Any], **kw: Any) -> list[MemoryItem]:
    return read_memory(state, store=store, count=count, known_companies=lambda: KNOWN, **kw)["memory"]


def test_read_memory_reads_only_active_records_of_the_types_the_plan_names(store: MemoryStore) -> None:
    constraint = store.write("alice", None, "constraint", "answer units", "answer in millions", "t:1", now=at(0))
    profile = store.write("alice", None, "profile", "fiscal year", "ends in June", "t:1", now=at(1))
    old = store.write("alice", None, "fact", REVENUE_KEY, "£1,400m", "t:1", now=at(2))
    fact = store.write("alice", None, "fact", REVENUE_KEY, "£1,450m", "t:1", now=at(3))
    decision = store.write("alice", None, "decision", "northwind fy2024 revenue basis", "use reported", "t:1",
                           now=at(4))
    task = store.write("alice", "t1", "task_state", "shopping list", '{"soap": 2}', "t1:1", now=at(5))
    store.write("alice", None, "fact", "northwind's fy2024 margin", "7%", "t:1", provisional=True)  # waiting
    store.write("alice", None, "fact", "northwind's fy2024 capex", "£90m", "t:1", provisional=True,
                now=at(-24 * 30))  # expired long ago
    assert old.id != fact.id and store.get(old.id).status == "superseded"

    def ids(memory_read: str, thread: str | None = None) -> set[str]:
        return {m.id for m in read(store, reading(memory_read=memory_read, thread=thread))}

    assert ids("none") == set()
    assert ids("profile") == {constraint.id, profile.id}
    assert ids("facts") == {constraint.id, profile.id, fact.id, decision.id}
    assert ids("thread", thread="t1") == {constraint.id, profile.id, fact.id, decision.id, task.id}
    assert ids("thread", thread="t2") == {constraint.id, profile.id, fact.id, decision.id}  # another thread's task
    every = read(store, reading(memory_read="thread", thread="t1"))
    assert {m.status for m in every} == {"active"}


def test_read_memory_with_no_plan_or_no_store_reads_nothing(store: MemoryStore) -> None:
    store.write("alice", None, "constraint", "answer units", "answer in millions", "t:1")
    assert read(store, reading(memory_read="none")) == []
    assert read(store, {"question": REVENUE_Q, "user": "alice"}) == []  # no routing decision
    assert read_memory(reading(), store=None, count=count) == {"memory": []}


def test_a_constraint_ranks_first_and_says_why(store: MemoryStore) -> None:
    store.write("alice", None, "fact", "Northwind Logistics FY2024 revenue", "£1,400m", "t:1", now=at(2))
    store.write("alice", None, "profile", "fiscal year", "ends in June", "t:1", now=at(3))
    store.write("alice", None, "constraint", "answer units", "answer in millions", "t:1", now=at(0))  # oldest
    items = read(store, reading())
    assert [m.type for m in items] == ["constraint", "fact", "profile"]
    assert [m.score for m in items] == [1.0, 0.667, 0.0]
    assert items[0].admitted and items[0].rule == "a standing instruction applies to every answer"
    assert items[1].admitted and items[1].rule == "the user's statement about what the question asks"
    assert not items[2].admitted and items[2].rule == "not about this question"  # nothing of 'my' or its key
    # the profile record counts when the question speaks of the user
    mine = read(store, reading("When does my fiscal year end, and what was Northwind's FY2024 revenue?"))
    assert next(m for m in mine if m.type == "profile").admitted


def test_a_constraint_ranks_first_even_against_a_newer_fact_about_exactly_the_question(store: MemoryStore) -> None:
    store.write("alice", None, "constraint", "answer units", "answer in millions", "t:1", now=at(0))
    store.write("alice", None, "fact", REVENUE_KEY, "£1,400m", "t:2", now=at(1))
    items = read(store, reading(), max_records=1)
    assert items[0].type == "constraint" and items[0].admitted


def test_a_fact_about_another_company_or_another_year_is_not_admitted(store: MemoryStore) -> None:
    exact = store.write("alice", None, "fact", REVENUE_KEY, "£1,400m", "t:1", now=at(0))
    other_company = store.write("alice", None, "fact", "Helio's FY2024 revenue", "$1,000m", "t:1", now=at(1))
    other_year = store.write("alice", None, "fact", "Northwind's FY2023 revenue", "£1,250m", "t:1", now=at(2))
    # their keys share enough words with the question: the company and year rules are what refuse them
    assert key_overlap("helio's fy2024 revenue", REVENUE_Q) >= 0.5
    assert key_overlap("northwind's fy2023 revenue", REVENUE_Q) == 1.0
    assert not fact_agrees("helio's fy2024 revenue", REVENUE_Q, KNOWN)
    assert not fact_agrees("northwind's fy2023 revenue", REVENUE_Q, KNOWN)
    assert fact_agrees(REVENUE_KEY, REVENUE_Q, KNOWN)
    by_id = {m.id: m for m in read(store, reading())}
    assert by_id[exact.id].admitted and by_id[exact.id].score == 1.0
    for refused in (other_company, other_year):
        assert not by_id[refused.id].admitted
        assert by_id[refused.id].score == 0.0 and by_id[refused.id].rule == "not about this question"
    # the same records are admitted for the question they are about
    about_2023 = {m.id: m for m in read(store, reading("What was Northwind's FY2023 revenue?"))}
    assert about_2023[other_year.id].admitted and not about_2023[exact.id].admitted


def test_relevance_of_each_record_type() -> None:
    class R:
        def __init__(self, type_: str, key: str) -> None:
            self.type, self.key = type_, key

    assert relevance(R("constraint", "answer units"), "Anything at all?") == 1.0
    assert relevance(R("fact", REVENUE_KEY), REVENUE_Q, KNOWN) == 1.0
    assert relevance(R("fact", "helio's fy2024 revenue"), REVENUE_Q, KNOWN) == 0.0
    assert relevance(R("profile", "favourite colour"), REVENUE_Q) == 0.0
    assert relevance(R("profile", "favourite colour"), "What should I call my report?") == 0.3


def three_ranked(store: MemoryStore) -> list[str]:
    """Two constraints (1.0, newest first) and a fact that half-matches (0.667), the longest of the three so that
    no lower-ranked record fits where a higher-ranked one did not: their ids in rank order."""
    units = store.write("alice", None, "constraint", "answer units", "answer in millions", "t:1", now=at(1))
    rounding = store.write("alice", None, "constraint", "answer rounding", "round to one decimal place", "t:1",
                           now=at(0))
    fact = store.write("alice", None, "fact", "Northwind Logistics FY2024 revenue",
                       "£1,400m as restated in the annual report", "t:1", now=at(2))
    return [units.id, rounding.id, fact.id]


def test_the_count_budget_refuses_the_lowest_ranked_records_with_its_rule(store: MemoryStore) -> None:
    ranked = three_ranked(store)
    items = read(store, reading(), max_records=2)
    assert [m.id for m in items] == ranked
    assert [m.admitted for m in items] == [True, True, False]
    assert items[2].rule == "over the memory count budget (2 records)"
    assert [m.admitted for m in read(store, reading(), max_records=3)] == [True, True, True]


def test_the_token_budget_refuses_the_lowest_ranked_records_with_its_rule(store: MemoryStore) -> None:
    ranked = three_ranked(store)
    items = read(store, reading())
    assert all(m.admitted for m in items) and all(m.tokens > 0 for m in items)
    two = items[0].tokens + items[1].tokens
    tight = read(store, reading(), max_tokens=two)
    assert [m.id for m in tight] == ranked
    assert [m.admitted for m in tight] == [True, True, False]
    assert tight[2].rule == f"over the memory token budget ({two} tokens)"
    one = read(store, reading(), max_tokens=two - 1)
    assert [m.admitted for m in one] == [True, False, False]


def test_a_smaller_lower_ranked_record_does_not_jump_one_refused_by_the_token_budget(store: MemoryStore) -> None:
    store.write("alice", None, "constraint", "answer style",
                "answer with a short table then one sentence of commentary on every figure", "t:1", now=at(0))
    store.write("alice", None, "fact", "Northwind Logistics FY2024 revenue", "£1,400m", "t:1", now=at(1))
    items = read(store, reading(), max_tokens=12)
    assert [(m.type, m.admitted) for m in items] == [("constraint", False), ("fact", False)]


def test_records_of_another_user_never_appear(store: MemoryStore) -> None:
    mine = store.write("alice", None, "fact", REVENUE_KEY, "£1,400m", "t:1")
    store.write("bob", None, "fact", REVENUE_KEY, "£9,999m", "t:9")
    store.write("bob", None, "constraint", "answer units", "answer in billions", "t:9")
    store.write("bob", "t1", "task_state", "shopping list", '{"soap": 2}', "t1:1")
    items = read(store, reading(memory_read="thread", thread="t1"))
    assert [m.id for m in items] == [mine.id]
    assert read(store, reading(user="carol")) == []


# --- (3) write_memory ---------------------------------------------------------------------------------------


class FakeCache:
    def __init__(self) -> None:
        self.forgotten: list[dict[str, Any]] = []

    def forget(self, **kw: Any) -> int:
        self.forgotten.append(kw)
        return 0


def turn(asked: str, **extra: Any) -> dict[str, Any]:
    return {"asked": asked, "question": asked, "user": "alice", "thread": "t1", "status": None, **extra}


def test_a_question_writes_nothing_and_records_the_refusal(store: MemoryStore) -> None:
    cache = FakeCache()
    out = write_memory(turn(REVENUE_Q), store=store, cache=cache)
    assert [(w.text, w.kept, w.rule, w.record_id) for w in out["memory_writes"]] == [
        (REVENUE_Q, False, "a question states nothing to remember", None)]
    assert "status" not in out and "draft" not in out
    assert store.list_records(include_all=True) == []
    assert cache.forgotten == []


def test_a_statement_only_turn_is_noted(store: MemoryStore) -> None:
    cache = FakeCache()
    out = write_memory(turn("Always answer in millions."), store=store, cache=cache)
    [record] = store.list_records(user="alice")
    assert (record.type, record.key, record.value, record.thread) == ("constraint", "answer units",
                                                                     "answer in millions", None)
    assert out["status"] == "noted"
    assert out["draft"] == "Noted: answer units = answer in millions."
    [w] = out["memory_writes"]
    assert w.kept and w.record_id == record.id and w.rule == "an explicit statement by the user"
    assert cache.forgotten == [{"user": "alice"}]


def test_a_correction_supersedes_and_the_note_says_what_it_replaces(store: MemoryStore) -> None:
    write_memory(turn(CORRECTION), store=store)
    out = write_memory(turn(SECOND_CORRECTION), store=store)
    first, second = store.list_records(user="alice", include_all=True)
    assert (first.status, second.status, second.supersedes) == ("superseded", "active", first.id)
    assert out["draft"].casefold() == f"noted: {REVENUE_KEY} = £1,450m (replaces your earlier statement)."
    assert out["memory_writes"][0].rule == "correction: supersedes the earlier record"


def test_a_mixed_turn_writes_the_constraint_but_leaves_the_status_to_the_answer(store: MemoryStore) -> None:
    cache = FakeCache()
    state = turn("From now on answer in millions. What was Northwind's revenue?")
    assert user_sentences(state) == ["From now on answer in millions.", "What was Northwind's revenue?"]
    assert not only_statements(state)
    out = write_memory(state, store=store, cache=cache)
    assert "status" not in out and "draft" not in out
    assert [(w.kept, w.type, w.key) for w in out["memory_writes"]] == [
        (True, "constraint", "answer units"), (False, None, "")]
    assert out["memory_writes"][1].rule == "a question states nothing to remember"
    assert [r.value for r in store.list_records(user="alice")] == ["answer in millions"]
    assert cache.forgotten == [{"user": "alice"}]  # a kept write drops that user's cached answers


@pytest.mark.parametrize("asked", [
    "How much cash did Block generate from operations in FY2020? Answer in USD millions.",
    "What was Northwind's revenue? Round to two decimal places.",
    "Answer in USD millions: what was Ternline's capex in FY2024?",
])
def test_an_instruction_inside_a_question_is_that_questions_not_a_standing_one(store: MemoryStore,
                                                                               asked: str) -> None:
    out = write_memory(turn(asked), store=store, cache=FakeCache())
    assert not any(w.kept for w in out["memory_writes"])
    assert store.list_records(user="alice", include_all=True) == []
    assert not only_statements(turn(asked))


def test_a_clarification_reply_is_one_of_the_users_sentences(store: MemoryStore) -> None:
    state = turn("What was the revenue?", clarifications=[{"question": "Which company?",
                                                           "reply": "Northwind. Always answer in millions."}])
    out = write_memory(state, store=store)
    assert [w.kept for w in out["memory_writes"]] == [False, False, True]
    assert [r.key for r in store.list_records(user="alice")] == ["answer units"]


def test_an_existing_status_is_not_overwritten_and_no_store_writes_nothing(store: MemoryStore) -> None:
    out = write_memory(turn("Always answer in millions.", status="refused"), store=store)
    assert "status" not in out
    assert write_memory(turn("Always answer in millions."), store=None) == {"memory_writes": []}
    assert noted_answer([]) == "Nothing to note."


# --- (4) after_enrich ---------------------------------------------------------------------------------------


def test_after_enrich_routes_statements_questions_and_questions_about_memory() -> None:
    assert after_enrich(turn("My fiscal year ends in June.")) == "write_memory"
    assert after_enrich(turn(CORRECTION)) == "write_memory"
    assert after_enrich(turn(REVENUE_Q)) == "cache_lookup"
    assert after_enrich(turn("From now on answer in millions. What was Northwind's revenue?")) == "cache_lookup"
    found = {"text": "Your fiscal year ends in June.", "record_ids": ["r1"]}
    assert after_enrich(turn("When does my fiscal year end?", memory_answer=found)) == "answer_from_memory"
    assert after_enrich(turn("When does my fiscal year end?", memory_answer=None)) == "cache_lookup"


# --- (5) budget degradation in assemble ---------------------------------------------------------------------

QUESTION = "What was Northwind Logistics revenue in FY2024?"
FIXED = count(answer_instructions()) + count(QUESTION)


def evidence(i: int, words: int) -> Evidence:
    """A report block costing 5 header words ('[n] Northwind Logistics FY2024 [text]') plus `words`."""
    return Evidence(chunk_id=f"c{i}", source_id=f"s{i}", company=NW, fiscal_year=2024, score=1 - i / 10,
                    text=" ".join([f"e{i}"] * words))


def item(i: int, type_: str, words: int) -> MemoryItem:
    """An admitted record whose prompt text (the user's words) costs `words`."""
    return MemoryItem(id=f"m{i}", type=type_, key=f"key {i}", value="v", said=" ".join([f"m{i}"] * words),
                      scope="user", status="active", source="t:1", created_at="2024-01-01T00:00:00",
                      score=1.0, admitted=True)


def turns(n: int, words: int) -> list[Turn]:
    """`n` recent turns, each costing `words` in the history ('User: a\\nProv: ...')."""
    return [Turn(asked=f"a{i}", question=f"a{i}", answer=" ".join([f"y{i}"] * (words - 3)), status="answered")
            for i in range(n)]


def assembled(remaining: int, evidence_: list[Evidence], memory: list[MemoryItem], recent: list[Turn],
              **extra: Any) -> dict[str, Any]:
    state = {"question": QUESTION, "retrieval_result": RetrievalResult(status="found", evidence=evidence_),
             "memory": memory, "recent_turns": recent, **extra}
    return assemble(state, budget=FIXED + remaining, count=count)


def kept(out: dict[str, Any]) -> tuple[list[bool], list[bool], int]:
    """(each evidence candidate included, each memory record included, recent turns kept)."""
    manifest = out["manifest"]
    ev = [e.included for e in manifest if e.producer.startswith("retrieval")]
    mem = [e.included for e in memory_entries(manifest)]
    history = next(e for e in manifest if e.block == "history")
    return ev, mem, len([i for i in history.items if i.startswith("turn-")])


SWEEP = dict(evidence_=[evidence(i, 15) for i in range(3)], memory=[item(0, "constraint", 8), item(1, "fact", 8)],
             recent=turns(2, 15))
FULL = 3 * 20 + 2 * 8 + 2 * 15  # every candidate fits


def test_with_room_for_everything_nothing_is_dropped_and_at_zero_only_instructions_and_question_stay() -> None:
    assert kept(assembled(FULL, **SWEEP)) == ([True] * 3, [True] * 2, 2)
    out = assembled(0, **SWEEP)
    assert kept(out) == ([False] * 3, [False] * 2, 0)
    user = out["prompt"][1]["content"]
    assert out["prompt"][0]["content"] == answer_instructions()
    assert user.endswith(f"## Question\n{QUESTION}")


def test_history_is_the_first_to_leave_oldest_turn_first() -> None:
    out = assembled(FULL - 1, **SWEEP)
    assert kept(out) == ([True] * 3, [True] * 2, 1)
    history = next(e for e in out["manifest"] if e.block == "history")
    assert history.items == ["turn--1"] and history.note == "1 turn(s) dropped over budget"
    user = out["prompt"][1]["content"]
    assert "User: a1" in user and "User: a0" not in user


def test_shrinking_the_budget_never_drops_instructions_or_question_and_each_kind_leaves_from_its_bottom() -> None:
    for remaining in range(FULL + 5, -1, -1):
        out = assembled(remaining, **SWEEP)
        ev, mem, recent = kept(out)
        entries = [e.block for e in out["manifest"]]
        assert entries[0] == "instructions" and entries[-1] == "question", remaining
        assert out["prompt"][0]["content"] == answer_instructions()
        assert out["prompt"][1]["content"].endswith(f"## Question\n{QUESTION}"), remaining
        assert ev == sorted(ev, reverse=True), (remaining, ev)  # lowest-ranked evidence leaves first
        assert mem == sorted(mem, reverse=True), (remaining, mem)  # lowest-ranked record leaves first
        history = next(e for e in out["manifest"] if e.block == "history")
        assert history.items == [f"turn-{-k}" for k in range(recent, 0, -1)], remaining  # newest kept


def order_violations(remaining_range: range) -> list[str]:
    """Budgets at which a part lost something that would have fitted had a part that leaves before it (history,
    then memory) not been there: evidence goes last, memory before it, history first."""
    bad = []
    for remaining in remaining_range:
        out = assembled(remaining, **SWEEP)
        ev, mem, recent = kept(out)
        entries = out["manifest"]
        ev_tokens = [e.tokens for e in entries if e.producer.startswith("retrieval")]
        mem_tokens = [e.tokens for e in memory_entries(entries)]
        ev_used = sum(t for t, k in zip(ev_tokens, ev) if k)
        mem_used = sum(t for t, k in zip(mem_tokens, mem) if k)
        if not all(ev) and ev_used + ev_tokens[ev.index(False)] <= remaining and (any(mem) or recent):
            bad.append(f"remaining {remaining}: evidence that fits dropped while memory {mem} / {recent} turn(s) kept")
        elif not all(mem) and ev_used + mem_used + mem_tokens[mem.index(False)] <= remaining and recent:
            bad.append(f"remaining {remaining}: memory that fits dropped while {recent} turn(s) of history kept")
    return bad


def test_shrinking_the_budget_drops_history_then_memory_then_evidence() -> None:
    assert order_violations(range(FULL, -1, -1)) == []


def test_evidence_that_fits_the_remaining_budget_is_not_dropped() -> None:
    out = assembled(10, [evidence(0, 4)], [], [])
    assert kept(out) == ([True], [], 0)


def test_history_leaves_before_evidence_minimal() -> None:
    out = assembled(10, [evidence(0, 4)], [], turns(1, 4))
    assert kept(out) == ([True], [], 0)


def test_history_leaves_before_memory_minimal() -> None:
    out = assembled(10, [], [item(0, "constraint", 9)], turns(1, 4))
    assert kept(out) == ([], [True], 0)


def test_memory_leaves_before_evidence_minimal() -> None:
    out = assembled(10, [evidence(0, 3)], [item(0, "fact", 1)], [])
    assert kept(out) == ([True], [True], 0)


def test_a_smaller_lower_ranked_record_does_not_jump_a_dropped_one_in_the_prompt() -> None:
    out = assembled(9, [], [item(0, "constraint", 9), item(1, "constraint", 1)], [])
    assert kept(out)[1] == [True, False]
    out = assembled(8, [], [item(0, "constraint", 9), item(1, "constraint", 1)], [])
    assert kept(out)[1] == [False, False]


def test_memory_blocks_facts_are_numbered_and_cited_as_the_users_and_constraints_are_standing_instructions() -> None:
    out = assembled(FULL, [evidence(0, 5)], [item(0, "constraint", 3), item(1, "fact", 3)], [])
    blocks = out["blocks"]
    assert [(b.n, b.kind, b.source_id) for b in blocks] == [(1, "report", "s0"), (2, "memory", "memory:m1")]
    user = out["prompt"][1]["content"]
    standing = section(user, "Standing instructions")
    assert "- constraint: m0 m0 m0" in standing and "m1" not in standing
    stated = section(user, "What the user stated")
    assert "[2] the user's statement (fact, 2024-01-01): key 1" in stated and "m1 m1 m1" in stated
    entries = memory_entries(out["manifest"])
    assert [e.items for e in entries] == [["m0"], ["m1"]] and all(e.included for e in entries)


def test_without_admitted_records_the_manifest_says_why_memory_is_absent() -> None:
    plan = RouteDecision(needs_retrieval=True, plan=RoutePlan(memory_read="facts"))
    out = assembled(FULL, [evidence(0, 5)], [], [], decision=plan)
    [entry] = [e for e in out["manifest"] if e.block == "memory"]
    assert not entry.included and entry.rule.startswith("read (facts): no active record")
    out = assembled(FULL, [evidence(0, 5)], [], [])
    assert [e.rule for e in out["manifest"] if e.block == "memory"] == [
        "not read: the route plan's memory_read is none"]


# --- (6) a standing constraint at turn twenty ---------------------------------------------------------------

TOTAL_REVENUES_Q = "What were Northwind's total revenues in FY2024?"


def test_a_constraint_stated_at_turn_one_is_still_admitted_and_obeyed_at_turn_twenty(tmp_path: Any) -> None:
    h = Harness(tmp_path, corpus={NW: [NW_STATEMENT]})
    assert h.ask("Always answer in millions.").status == "noted"
    questions = ["What was Northwind's net income in FY2024?", "What was Northwind's operating income in FY2024?",
                 "What were Northwind's total revenues in FY2023?"]
    for i in range(18):
        h.ask(questions[i % len(questions)])
    answer = h.ask(TOTAL_REVENUES_Q)  # turn twenty
    state = h.values()
    assert len(state["history"]) == 20
    [record] = h.memory.list_records(user="alice")
    assert state["recent_turns"][0].status != "noted"  # the statement left the verbatim window long ago
    # admitted, in the standing instructions and in the manifest
    [item_] = state["memory"]
    assert item_.id == record.id and item_.admitted and item_.type == "constraint"
    assert "- constraint: Always answer in millions." in section(state["prompt"][1]["content"],
                                                                "Standing instructions")
    assert [e.items for e in memory_entries(state["manifest"])] == [[record.id]]
    assert with_standing_instructions(state["question"], state) == f"{TOTAL_REVENUES_Q} Answer in millions."
    # and obeyed: the page's thousands restated in millions
    assert answer.status == "answered"
    assert "4,459m in FY2024 (stated as 4,459,440k)" in answer.answer
    assert {c.source_id for c in answer.citations} == {"northwind-10k-2024"}
    # the same question from a user who stated nothing is answered as the page states it
    plain = h.ask(TOTAL_REVENUES_Q, user="bob", thread="b1")
    assert "4,459,440k in FY2024" in plain.answer and "stated as" not in plain.answer


def admitted_constraint(value: str, *, admitted: bool = True) -> MemoryItem:
    return MemoryItem(id="c1", type="constraint", key="answer units", value=value, scope="user", status="active",
                      source="t:1", created_at="2025-01-01T00:00:00", admitted=admitted, score=1.0)


def test_with_standing_instructions_appends_scale_and_rounding_unless_the_question_asks_its_own() -> None:
    state = {"memory": [admitted_constraint("answer in millions")]}
    assert with_standing_instructions("What were revenues?", state) == "What were revenues? Answer in millions."
    assert with_standing_instructions("What were revenues in billions?", state) == "What were revenues in billions?"
    rounding = {"memory": [admitted_constraint("round to one decimal place.")]}
    assert with_standing_instructions("What were revenues?", rounding) == (
        "What were revenues? Round to one decimal place.")
    refused = {"memory": [admitted_constraint("answer in millions", admitted=False)]}
    assert with_standing_instructions("What were revenues?", refused) == "What were revenues?"


@pytest.mark.parametrize(("instruction", "appended"), [
    ("give all figures in USD millions", "Give all figures in USD millions."),
    ("answer in A$ millions", "Answer in A$ millions."),
    ("use billions for every figure", "Use billions for every figure."),
    ("all numbers rounded to one decimal", "All numbers rounded to one decimal."),
])
def test_standing_instructions_in_other_words_are_appended_too(instruction: str, appended: str) -> None:
    state = {"memory": [admitted_constraint(instruction)]}
    assert with_standing_instructions("What were revenues?", state) == f"What were revenues? {appended}"


def test_user_statement_sentences_cite_only_admitted_facts() -> None:
    fact = MemoryItem(id="f1", type="fact", key=REVENUE_KEY, value="£1,400m", said=CORRECTION, scope="user",
                      status="active", source="t:1", created_at="2025-01-01T00:00:00", admitted=True, score=1.0)
    block = Block(n=3, kind="memory", header="[3] the user's statement", text=CORRECTION, source_id="memory:f1")
    assert user_statement_sentences([block], {"memory": [fact]}) == [
        "Per your statement, Northwind's FY2024 revenue was £1,400m [3]; this answer uses your figure."]
    refused = fact.model_copy(update={"admitted": False})
    assert user_statement_sentences([block], {"memory": [refused]}) == []


# --- (7) recalled turns in the history section --------------------------------------------------------------

RECALLED = [{"turn": 2, "asked": "What was Helio's dividend?", "answer": "It was 4.1p.",
             "why": "similar to the question (0.81)"}]
RECENT = [Turn(asked="What about Northwind?", question="q", answer="It was 3.2p.", status="answered")]


def recalled_state() -> dict[str, Any]:
    return {"question": "What did you say about the dividend earlier?", "recent_turns": RECENT,
            "recalled": RECALLED}


def test_recalled_turns_are_labelled_with_their_turn_number_before_the_recent_turns() -> None:
    text, entry = history_section(recalled_state(), 1000, count)
    assert "(recalled turn 2: similar to the question (0.81))\nUser: What was Helio's dividend?\nProv: It was 4.1p." \
        in text
    assert text.index("recalled turn 2") < text.index("User: What about Northwind?")
    assert entry.items == ["recalled-turn-2", "turn--1"]
    assert entry.producer == "compress_history + turn archive" and "refers back" in entry.rule
    assert entry.note == ""


def test_recalled_turns_are_dropped_before_the_recent_turns_when_over_budget() -> None:
    recent_cost = count("User: What about Northwind?\nProv: It was 3.2p.")
    recalled_cost = count("(recalled turn 2: similar to the question (0.81))\nUser: What was Helio's dividend?\n"
                          "Prov: It was 4.1p.")
    text, entry = history_section(recalled_state(), recent_cost + recalled_cost - 1, count)
    assert "recalled turn" not in text and "User: What about Northwind?" in text
    assert entry.items == ["turn--1"] and entry.note == "1 recalled turn(s) dropped over budget"
    # not even the recent turn fits: the recalled one is not admitted in its place
    text, entry = history_section(recalled_state(), recent_cost - 1, count)
    assert text == "" and entry.items == [] and not entry.included
    assert entry.note == "1 turn(s) dropped over budget; 1 recalled turn(s) dropped over budget"


def test_recalled_turns_reach_the_assembled_prompt_and_leave_it_first() -> None:
    roomy = assemble(recalled_state(), budget=6000, count=count)
    history = section(roomy["prompt"][1]["content"], "Conversation so far")
    assert "(recalled turn 2: similar to the question (0.81))" in history
    fixed = count(answer_instructions()) + count(recalled_state()["question"])
    recent_cost = count("User: What about Northwind?\nProv: It was 3.2p.")
    tight = assemble(recalled_state(), budget=fixed + recent_cost, count=count)
    history = section(tight["prompt"][1]["content"], "Conversation so far")
    assert "User: What about Northwind?" in history and "recalled turn" not in history


# --- (n) what a first turn runs before the cache ------------------------------------------------------------


class CountingCache:
    """The real semantic cache, counting lookups."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.lookups = inner, 0

    def lookup(self, *args: Any, **kwargs: Any) -> Any:
        self.lookups += 1
        return self.inner.lookup(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_on_a_first_turn_statements_and_questions_about_the_user_still_come_before_the_cache(tmp_path):
    from app.memory.answers import answer_from_memory
    from app.memory.semantic_cache import SemanticCache
    from tests.fakes import WordHashEmbedder

    cache = CountingCache(SemanticCache(f"sqlite:///{tmp_path / 'c.sqlite'}", WordHashEmbedder().embed))
    h = Harness(tmp_path, cache=cache, memory_answer=answer_from_memory, source_hash=lambda source_id: "h1")
    noted = h.ask("My favourite colour is purple.", thread="t1")
    assert noted.status == "noted" and cache.lookups == 0
    recalled = h.ask("What is my favourite colour?", thread="t2")
    assert "purple" in recalled.answer.lower() and not recalled.cached and cache.lookups == 0
    assert h.values("t2")["recent_turns"] == []  # a first turn: compress_history had nothing to do
    answered = h.ask(REVENUE_Q, thread="t3")
    assert answered.status == "answered" and cache.lookups == 1
    assert h.ask(REVENUE_Q, thread="t4").cached is True and cache.lookups == 2



def test_a_segments_figure_the_user_stated_is_no_answer_about_the_whole_company() -> None:
    from nodes.memory import fact_agrees

    key = "ternline's fy2024 contract warehousing revenue"
    assert not fact_agrees(key, "What revenue did Ternline report for FY2024?", ["Ternline"])
    assert fact_agrees(key, "What was Ternline's FY2024 contract warehousing revenue?", ["Ternline"])
    assert fact_agrees("ternline's fy2024 revenue", "What was Ternline's group revenue in FY2024?", ["Ternline"])
