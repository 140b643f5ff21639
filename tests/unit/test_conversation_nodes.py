"""The supervisor's conversation nodes as plain functions: intake, compress_history, enrich, merge_reply, the
cache nodes, refuse, respond / build_response, and the history reducer."""

from __future__ import annotations

from typing import Any

import pytest

from app.turns import Block, CitationCheck, Response, Turn
from nodes.conversation import (
    SUMMARY_MAX_CHARS,
    after_intake,
    build_response,
    cache_lookup,
    compress_history,
    enrich,
    intake,
    is_follow_up,
    merge_reply,
    refuse,
    remember,
    respond,
    summarise_turns,
)
from nodes.state import PER_TURN_RESET
from prompts.answer import OUT_OF_SCOPE
from reducers import append_turns
from reducers.history import append_turns as append_turns_direct

NW, HL = "Northwind Logistics", "Helio Renewables"
KNOWN = lambda: [NW, HL]  # noqa: E731


def turn(i: int = 0, *, answer: str = "Revenue was £1,311.2m in FY2024 [1].", companies: list[str] | None = None,
         years: list[int] | None = None, status: str = "answered") -> Turn:
    return Turn(asked=f"asked {i}", question=f"Question {i}?", answer=answer, status=status,
                companies=companies or [], fiscal_years=years or [])


# --- intake -------------------------------------------------------------------------------------------------


def test_intake_collapses_whitespace_and_records_what_was_asked():
    out = intake({"question": "  What was\n Northwind's   revenue?\t"})
    assert out["question"] == "What was Northwind's revenue?"
    assert out["asked"] == "What was Northwind's revenue?"


@pytest.mark.parametrize("question", ["", "   \n\t ", None])
def test_intake_refuses_an_empty_question(question: Any):
    with pytest.raises(ValueError, match="empty"):
        intake({"question": question})


def test_intake_refuses_an_oversized_question_after_collapsing():
    assert intake({"question": "a" * 10}, max_chars=10)["question"] == "a" * 10
    assert intake({"question": "a  b"}, max_chars=3)["question"] == "a b"  # counted after collapsing
    with pytest.raises(ValueError, match="limit is 10"):
        intake({"question": "a" * 11}, max_chars=10)


def test_intake_resets_every_per_turn_key():
    stale = {"question": "Next?", "retrieval_result": object(), "calculation": object(), "status": "answered",
             "draft": "old [1].", "blocks": [object()], "companies": [NW], "fiscal_years": [2024],
             "clarifications": [{"question": "q", "reply": "r"}], "response": object(), "cached": object()}
    out = intake(stale)
    for key, value in PER_TURN_RESET.items():
        assert out[key] == value, key
    assert out["retrieval_result"] is None and out["calculation"] is None and out["status"] is None
    assert out["companies"] == [] and out["clarifications"] == []
    assert "history" not in out  # the thread's history is never reset


def test_a_first_turn_skips_compress_history_unless_it_refers_back():
    assert after_intake({"question": "What was Northwind's revenue?"}) == ["enrich", "find_memory_answer"]
    assert after_intake({"question": "What was Northwind's revenue?", "history": []}) == ["enrich",
                                                                                          "find_memory_answer"]
    assert after_intake({"question": "What was Northwind's revenue?", "history": [turn(0)]}) == ["compress_history"]
    # Nothing said yet, but the turn archive is still asked (a forked thread keeps its archived turns).
    assert after_intake({"question": "What did you say about their dividend earlier?"}) == ["compress_history"]
    first = intake({"question": "What was Northwind's revenue?"})
    assert (first["recent_turns"], first["history_summary"]) == ([], "")  # what compress_history would write


# --- compress_history ---------------------------------------------------------------------------------------


def test_compress_history_keeps_the_last_turns_verbatim_and_summarises_the_rest():
    history = [turn(i) for i in range(5)]
    out = compress_history({"history": history}, verbatim=2)
    assert [t.question for t in out["recent_turns"]] == ["Question 3?", "Question 4?"]
    assert out["recent_turns"][-1] == history[-1]
    summary = out["history_summary"]
    assert "Question 0?" in summary and "Question 2?" in summary
    assert "Question 3?" not in summary


def test_compress_history_with_few_turns_has_no_summary():
    out = compress_history({"history": [turn(0).model_dump()]}, verbatim=3)
    assert len(out["recent_turns"]) == 1 and isinstance(out["recent_turns"][0], Turn)
    assert out["history_summary"] == ""
    assert compress_history({}, verbatim=3) == {"recent_turns": [], "history_summary": "", "recalled": []}


def test_summary_removes_citation_markers_and_keeps_sentences_with_figures_or_names():
    answer = "Revenue was £1,311.2m in FY2024 [1][2]. it was fine. Northwind Logistics leads the market [3]."
    summary = summarise_turns([turn(0, answer=answer)])
    assert "[1]" not in summary and "[2]" not in summary and "[3]" not in summary
    assert "Revenue was £1,311.2m in FY2024." in summary
    assert "Northwind Logistics leads the market." in summary
    assert "it was fine" not in summary


def test_summary_without_a_useful_sentence_falls_back_to_the_status():
    assert summarise_turns([turn(0, answer="nothing here.", status="refused")]) == "Q: Question 0? A: refused"


def test_summary_is_bounded_and_keeps_the_newest_turns():
    turns = [turn(i) for i in range(200)]
    summary = summarise_turns(turns)
    assert len(summary) <= SUMMARY_MAX_CHARS
    assert summary.startswith("…")
    assert "Question 199?" in summary
    assert "Question 0?" not in summary
    assert len(summarise_turns(turns, max_chars=100)) <= 100


# --- enrich -------------------------------------------------------------------------------------------------


def test_follow_up_becomes_a_standalone_question_with_company_and_year():
    state = {"question": "What about their dividends?", "recent_turns": [turn(0, companies=[NW], years=[2024])]}
    out = enrich(state, known_companies=KNOWN)
    assert out["question"] == "What about their dividends? [Northwind Logistics, FY2024]"
    assert out["companies"] == [NW]
    assert out["fiscal_years"] == [2024]
    assert out["context_entities"] == [NW] and out["context_years"] == [2024]


def test_follow_up_uses_the_latest_turn_that_named_a_company():
    recent = [turn(0, companies=[HL], years=[2023]), turn(1, companies=[NW], years=[2024]), turn(2)]
    out = enrich({"question": "And their margin?", "recent_turns": recent}, known_companies=KNOWN)
    assert out["companies"] == [NW]
    assert "[Northwind Logistics, FY2024]" in out["question"]


def test_follow_up_keeps_its_own_year():
    state = {"question": "What about their dividends in FY2023?", "recent_turns": [turn(0, companies=[NW], years=[2024])]}
    out = enrich(state, known_companies=KNOWN)
    assert out["fiscal_years"] == [2023]
    assert out["question"].endswith("[Northwind Logistics, FY2023]")


def test_question_naming_a_company_is_not_rewritten():
    state = {"question": "What about Helio Renewables' dividends in FY2024?",
             "recent_turns": [turn(0, companies=[NW], years=[2023])]}
    out = enrich(state, known_companies=KNOWN)
    assert "question" not in out
    assert out["companies"] == [HL]
    assert out["fiscal_years"] == [2024]


def test_non_follow_up_without_company_is_not_rewritten():
    state = {"question": "What is a good operating margin for logistics firms?",
             "recent_turns": [turn(0, companies=[NW], years=[2024])]}
    out = enrich(state, known_companies=KNOWN)
    assert "question" not in out
    assert out["companies"] == [] and out["fiscal_years"] == []
    assert out["context_entities"] == [NW]  # the context is still recorded for the router


def test_follow_up_without_any_context_is_not_rewritten():
    out = enrich({"question": "What about their dividends?", "recent_turns": [turn(0)]}, known_companies=KNOWN)
    assert "question" not in out and out["companies"] == []


def test_is_follow_up():
    assert is_follow_up("What about their dividends?")
    assert is_follow_up("And in FY2023?")
    assert not is_follow_up("What was Northwind's revenue?")


# --- merge_reply --------------------------------------------------------------------------------------------


def test_merge_reply_puts_the_reply_before_the_question_mark():
    assert merge_reply("What was their revenue?", "Northwind, FY2024") == "What was their revenue (Northwind, FY2024)?"


def test_merge_reply_without_question_mark_and_with_empty_reply():
    assert merge_reply("Revenue please", "Northwind") == "Revenue please (Northwind)"
    assert merge_reply("What was their revenue?", "") == "What was their revenue?"


# --- cache --------------------------------------------------------------------------------------------------


def semantic_cache(tmp_path: Any) -> Any:
    from app.memory.semantic_cache import SemanticCache
    from tests.fakes import WordHashEmbedder

    embedder = WordHashEmbedder()
    cache = SemanticCache(f"sqlite:///{tmp_path / 'memory.sqlite'}", embedder.embed)
    cache.embedder = embedder
    return cache


BLOCK = Block(n=1, kind="report", header="[1] Northwind Logistics FY2024, p.4 [text]", source_id="nw-ar-2024",
              chunk_id="nw24-1", text="Financial review. Revenue grew 8.8% to £1,311.2m in FY2024.", page=4)


def answered_state(**extra: Any) -> dict[str, Any]:
    return {"question": "What was Northwind's revenue in FY2024?", "asked": "northwind revenue fy2024?",
            "status": "answered", "draft": "Revenue grew to £1,311.2m [1].", "blocks": [BLOCK],
            "citation_check": CitationCheck(valid=[1]), "companies": [NW], "fiscal_years": [2024], **extra}


def test_cache_lookup_without_cache_is_a_miss():
    assert cache_lookup({"question": "q?"}, cache=None) == {"cached": None, "cache_considered": []}


HASHES = {"nw-ar-2024": "h1"}


def test_remember_then_cache_lookup_hits_for_the_same_user_while_the_source_is_unchanged(tmp_path):
    cache = semantic_cache(tmp_path)
    assert remember({**answered_state(), "user": "ann"}, cache=cache, source_hash=HASHES.get) == {}
    [entry] = cache.entries(user="ann")
    assert (entry.question, entry.companies, entry.fiscal_years, entry.sources) == (
        "What was Northwind's revenue in FY2024?", [NW], [2024], {"nw-ar-2024": "h1"})
    assert entry.response["status"] == "answered" and entry.response["citations"][0]["n"] == 1

    asked = {"question": "What was Northwind's revenue in FY2024?", "user": "ann"}
    out = cache_lookup(asked, cache=cache, known_companies=lambda: [NW], source_hash=HASHES.get)
    hit = out["cached"]
    assert isinstance(hit, Response) and hit.cached is True and hit.cached_at
    assert hit.answer == "Revenue grew to £1,311.2m [1]." and hit.cached_question == asked["question"]
    # another user, another year, --no-cache, a changed source: each a miss
    assert cache_lookup({**asked, "user": "bob"}, cache=cache, source_hash=HASHES.get)["cached"] is None
    other_year = cache_lookup({**asked, "question": "What was Northwind's revenue in FY2023?"}, cache=cache,
                              known_companies=lambda: [NW], source_hash=HASHES.get)
    assert other_year["cached"] is None and other_year["cache_considered"][0]["reason"] == "fiscal year"
    assert cache_lookup({**asked, "use_cache": False}, cache=cache, source_hash=HASHES.get)["cached"] is None
    assert cache_lookup(asked, cache=cache, source_hash={"nw-ar-2024": "h2"}.get)["cached"] is None
    assert cache.count() == 0  # the changed source invalidated it


@pytest.mark.parametrize("status", ["insufficient", "refused"])
def test_remember_does_not_cache_unanswered_turns(status: str, tmp_path):
    cache = semantic_cache(tmp_path)
    remember(answered_state(status=status), cache=cache, source_hash=HASHES.get)
    assert cache.count() == 0


def test_remember_does_not_cache_an_answer_resting_on_the_users_statement(tmp_path):
    cache = semantic_cache(tmp_path)
    block = Block(n=1, kind="memory", header="[1] the user's statement", source_id="memory:abc", text="x is 5")
    remember(answered_state(blocks=[block]), cache=cache, source_hash=HASHES.get)
    assert cache.count() == 0


def test_remember_without_cache_writes_nothing():
    assert remember(answered_state(), cache=None) == {}


# --- refuse, respond, build_response ------------------------------------------------------------------------


def test_refuse_declares_out_of_scope():
    assert refuse({"question": "Weather?"}) == {"status": "refused", "draft": OUT_OF_SCOPE}


def test_respond_appends_exactly_one_turn():
    out = respond(answered_state())
    assert len(out["history"]) == 1
    added = out["history"][0]
    assert added == Turn(asked="northwind revenue fy2024?", question="What was Northwind's revenue in FY2024?",
                         answer="Revenue grew to £1,311.2m [1].", status="answered", companies=[NW],
                         fiscal_years=[2024])
    response = out["response"]
    assert response.status == "answered" and response.cached is False
    assert [c.n for c in response.citations] == [1]
    assert response.citations[0].source_id == "nw-ar-2024" and response.citations[0].page == 4
    assert "1,311.2" in response.citations[0].quote

    # Through the history reducer, the turn is appended to what the thread had.
    before = [turn(0), turn(1)]
    after = append_turns(before, out["history"])
    assert after == [*before, added]


def test_respond_on_a_cache_hit_reports_the_cached_response():
    cached = Response(status="answered", answer="Revenue was £1,311.2m [1].", question="old")
    out = respond({"question": "What was Northwind's revenue in FY2024?", "cached": cached, "companies": [NW]})
    assert out["response"].cached is True
    assert out["response"].question == "What was Northwind's revenue in FY2024?"
    assert len(out["history"]) == 1 and out["history"][0].status == "answered"


def test_build_response_raises_without_status():
    with pytest.raises(ValueError, match="status"):
        build_response({"question": "q?", "draft": "x"})


def test_build_response_ignores_citations_of_blocks_not_in_state():
    state = answered_state(citation_check=CitationCheck(valid=[1, 2], flagged=["Bad [9]."]))
    response = build_response(state)
    assert [c.n for c in response.citations] == [1]
    assert response.flagged == ["Bad [9]."]


# --- the history reducer ------------------------------------------------------------------------------------


def test_history_reducer_appends_one_turn_or_a_list():
    a, b, c = turn(0), turn(1), turn(2)
    assert append_turns_direct([a], b) == [a, b]
    assert append_turns_direct([a], [b, c]) == [a, b, c]
    assert append_turns_direct([a], (b,)) == [a, b]


def test_history_reducer_is_none_safe_and_does_not_mutate():
    a, b = turn(0), turn(1)
    old = [a]
    merged = append_turns_direct(old, [b])
    assert old == [a] and merged is not old
    assert append_turns_direct(None, [a]) == [a]
    assert append_turns_direct([a], None) == [a]
    assert append_turns_direct(None, None) == []


def test_a_citation_quotes_the_row_that_holds_the_answers_figure():
    from nodes.conversation import citation_for
    from app.turns import Block

    block = Block(n=2, kind="report", header="[2] Helio Renewables FY2024 [table]", source_id="hl", text=(
        "| Measure | FY2024 | FY2023 | Change |\n| Operating income ($m) | 86.2 | 75.9 | +13.6% |\n"
        "| Operating margin | 9.1% | 8.8% | +0.3 pts |"))
    answer = "Difference: 6.7 - 9.1 = -2.4 percentage points (b: Helio Renewables FY2024 Operating income margin 9.1%) [2]."
    assert citation_for(block, answer).quote == "| Operating margin | 9.1% | 8.8% | +0.3 pts |"


def test_a_question_that_says_nothing_new_continues_the_previous_one():
    from nodes.conversation import content_terms, enrich
    from app.turns import Turn

    root = Turn(asked="what was the weighted average exercise price in 2007?",
                question="what was the weighted average exercise price in 2007?", answer="60.94 [1].",
                status="answered")
    follow = Turn(asked="and in 2005?", question="and in 2005? [following: what was the weighted average exercise "
                  "price in 2007?]", answer="25.14 [1].", status="answered")
    out = enrich({"question": "what was, then, the change over the years?", "recent_turns": [root, follow]},
                 known_companies=lambda: [])
    assert out["question"].endswith("[following: what was the weighted average exercise price in 2007?]")
    assert content_terms("so what was the percentage change during this time?") == set()
    assert content_terms("and what about their revenue?") == {"revenu"}


def test_a_statement_page_broken_across_lines_is_quoted_by_its_whole_row():
    from nodes.conversation import citation_for

    page = ("TERN FREIGHT, INC.\nCONSOLIDATED STATEMENTS OF OPERATIONS\n(in thousands)\nYears Ended December 31,\n"
            "2024\n2023 2022 Total revenues\n 4,459,440  4,047,550  3,726,590 Cost of revenues\n 3,100,000  2,900,000"
            "  2,700,000 Operating income\n 518,580  446,130  395,940")
    block = Block(n=2, kind="report", header="[2] Tern Freight FY2024, p.5 [text]", text=page, source_id="tf",
                  chunk_id="tf-5", company="Tern Freight", fiscal_year=2024, page=5)
    quote = citation_for(block, "Tern Freight's total revenues were $4,459m in FY2024 (stated as 4,459,440k).").quote
    assert quote == "Total revenues: 2024 4,459,440; 2023 4,047,550; 2022 3,726,590"


def test_a_follow_up_asking_only_by_a_verb_of_the_future_asks_for_the_previous_questions_measure():
    previous = Turn(asked="How much capital expenditure did Northwind incur in FY2024?",
                    question="How much capital expenditure did Northwind incur in FY2024?", answer="£71.2m [1].",
                    status="answered", companies=[NW], fiscal_years=[2024])
    out = enrich({"question": "And what does it expect to spend in FY2025?", "recent_turns": [previous]},
                 known_companies=KNOWN)
    assert out["question"] == "What capital expenditure does it expect to spend in FY2025? [Northwind Logistics, FY2025]"
    assert out["fiscal_years"] == [2025] and out["companies"] == [NW]
    # a measure of its own is asked as asked
    own = enrich({"question": "And what dividend does it expect to pay in FY2025?", "recent_turns": [previous]},
                 known_companies=KNOWN)
    assert own["question"].startswith("And what dividend does it expect to pay in FY2025?")


def test_a_follow_ups_own_year_is_not_joined_by_the_years_of_the_thread_tag():
    from app.routing.decision import RouteDecision
    from nodes.routing import route

    def router(question: str, **_: Any) -> RouteDecision:  # reads every year in the text, the tag's too
        return RouteDecision(needs_retrieval=True, signals={"years": [2025, 2024], "companies": [NW]})

    state = {"question": "And what was it in FY2025? [Northwind Logistics, FY2025; following: What was Northwind "
                         "Logistics' revenue in FY2024?]", "companies": [NW], "fiscal_years": [2025]}
    out = route(state, router=router, known_companies=KNOWN)  # type: ignore[arg-type]
    assert out["fiscal_years"] == [2025]
    plain = route({**state, "question": "What was Northwind Logistics' revenue in FY2025 and FY2024?",
                   "fiscal_years": [2025, 2024]}, router=router, known_companies=KNOWN)  # type: ignore[arg-type]
    assert sorted(plain["fiscal_years"]) == [2024, 2025]
