"""The supervisor's branch functions with plain dicts, and the `route` node with a scripted router."""

from __future__ import annotations

from typing import Any

import pytest

from app.routing.decision import RouteDecision
from app.turns import Response
from nodes.conversation import MAX_CLARIFICATION_ROUNDS, after_cache
from nodes.routing import after_join, after_route, route

NW, HL = "Northwind Logistics", "Helio Renewables"


def decided(companies: list[str] | None = None, **flags: Any) -> dict[str, Any]:
    return {"decision": RouteDecision(**flags), "companies": companies or []}


# --- after_route --------------------------------------------------------------------------------------------


def test_out_of_scope_is_refused():
    assert after_route(decided(is_out_of_scope=True)) == "refuse"


def test_clarification_goes_to_clarify_even_with_other_flags():
    assert after_route(decided([NW], needs_clarification=True, needs_retrieval=True)) == "clarify"


def test_retrieval_and_news_run_in_parallel():
    assert after_route(decided([NW], needs_retrieval=True, needs_news=True)) == ["retrieve", "news"]


def test_news_only_does_not_search_reports():
    assert after_route(decided([NW], needs_news=True)) == ["news"]


def test_calculation_with_companies_searches_reports_for_the_figures():
    branches = after_route(decided([NW, HL], needs_calculation=True))
    assert "retrieve" in branches
    assert "news" not in branches


def test_calculation_with_companies_and_news():
    assert after_route(decided([NW], needs_calculation=True, needs_news=True)) == ["retrieve", "news"]


def test_a_calculation_searches_for_its_figures_unless_the_question_gives_them():
    given = {**decided([], needs_calculation=True), "question": "What is the growth from 120.5 to 150?"}
    assert after_route(given) == ["join"]
    asked = {**decided([], needs_calculation=True), "question": "What was the change in debt from 2016 to 2017?"}
    assert after_route(asked) == ["retrieve"]  # the years are not figures


def test_unflagged_question_still_searches_reports():
    assert after_route(decided([])) == ["retrieve"]
    assert after_route(decided([NW])) == ["retrieve"]


def test_decision_given_as_a_dict_is_validated():
    assert after_route({"decision": {"needs_news": True}, "companies": []}) == ["news"]


def test_missing_decision_raises():
    with pytest.raises(ValueError, match="routing decision"):
        after_route({"companies": [NW]})
    with pytest.raises(ValueError):
        after_route({"decision": None})


# --- after_join and after_cache -----------------------------------------------------------------------------


def test_after_join_calculates_only_when_flagged():
    assert after_join(decided([NW], needs_retrieval=True, needs_calculation=True)) == "prepare_calculation"
    assert after_join(decided([NW], needs_retrieval=True)) == "assemble"


def test_after_join_without_decision_raises():
    with pytest.raises(ValueError):
        after_join({})


def test_after_cache_hit_and_miss():
    hit = Response(status="answered", answer="Revenue was £1m [1].", cached=True)
    assert after_cache({"cached": hit}) == "respond"
    assert after_cache({"cached": None}) == "route"


def test_after_cache_raises_when_cached_key_missing():
    with pytest.raises(ValueError, match="cached"):
        after_cache({"question": "What was revenue?"})


# --- route --------------------------------------------------------------------------------------------------


class ScriptedRouter:
    def __init__(self, decision: RouteDecision | dict[str, Any]) -> None:
        self.decision = decision
        self.calls: list[tuple[str, list[str], list[str]]] = []

    def __call__(self, question: str, *, known_companies: list[str], context_entities: list[str]) -> Any:
        self.calls.append((question, known_companies, context_entities))
        return self.decision


def run_route(decision: Any, **state: Any) -> tuple[dict[str, Any], ScriptedRouter]:
    router = ScriptedRouter(decision)
    out = route({"question": "What was their revenue?", **state}, router=router, known_companies=lambda: [NW, HL])
    return out, router


def test_route_passes_question_known_companies_and_context_to_the_router():
    out, router = run_route(RouteDecision(needs_retrieval=True), context_entities=[NW])
    assert router.calls == [("What was their revenue?", [NW, HL], [NW])]
    assert isinstance(out["decision"], RouteDecision)
    assert out["decision"].needs_retrieval


def test_route_accepts_a_dict_decision():
    out, _ = run_route({"needs_news": True})
    assert isinstance(out["decision"], RouteDecision) and out["decision"].needs_news


def test_route_keeps_clarification_before_the_limit():
    rounds = [{"question": "Which company?", "reply": "Northwind"}] * (MAX_CLARIFICATION_ROUNDS - 1)
    out, _ = run_route(RouteDecision(needs_clarification=True), clarifications=rounds)
    assert out["decision"].needs_clarification is True
    assert "clarification_overruled_after_rounds" not in out["decision"].signals


def test_route_overrules_clarification_after_max_rounds():
    rounds = [{"question": "Which company?", "reply": "no idea"}] * MAX_CLARIFICATION_ROUNDS
    out, _ = run_route(RouteDecision(needs_clarification=True, signals={"scores": [0.4]}), clarifications=rounds)
    decision = out["decision"]
    assert decision.needs_clarification is False
    assert decision.signals["clarification_overruled_after_rounds"] == MAX_CLARIFICATION_ROUNDS
    assert decision.signals["scores"] == [0.4]  # the raw signals are kept
    assert after_route({**out}) == ["retrieve"]  # overruled: the question is searched instead


def test_route_merges_companies_and_years_from_signals_without_duplicates():
    decision = RouteDecision(needs_retrieval=True, signals={"companies": [HL, NW], "years": [2023, 2024]})
    out, _ = run_route(decision, companies=[NW], fiscal_years=[2024])
    assert out["companies"] == [NW, HL]
    assert out["fiscal_years"] == [2024, 2023]


def test_route_without_signals_keeps_the_turns_entities():
    out, _ = run_route(RouteDecision(needs_retrieval=True), companies=[NW], fiscal_years=[2024])
    assert out["companies"] == [NW]
    assert out["fiscal_years"] == [2024]


def test_route_rejects_an_invalid_decision():
    with pytest.raises(ValueError):
        run_route({"is_out_of_scope": True, "needs_retrieval": True})


def test_with_one_company_known_a_question_with_content_is_searched_not_clarified():
    from app.routing.decision import RouteDecision
    from nodes.routing import route

    def router(question, *, known_companies, context_entities):  # type: ignore[no-untyped-def]
        return RouteDecision(needs_clarification=True, clarification_question="Which company?")

    one = route({"question": "What was net cash from operating activities in 2009?"}, router=router,
                known_companies=lambda: ["Marathon Oil"])
    assert not one["decision"].needs_clarification and one["decision"].needs_retrieval
    assert one["companies"] == ["Marathon Oil"]
    vague = route({"question": "What was it?"}, router=router, known_companies=lambda: ["Marathon Oil"])
    assert vague["decision"].needs_clarification  # nothing to search for: asking is right
    many = route({"question": "What was net cash from operating activities in 2009?"}, router=router,
                 known_companies=lambda: ["Marathon Oil", "Helio Renewables"])
    assert many["decision"].needs_clarification


def test_a_follow_up_without_a_measure_carries_the_previous_question():
    from nodes.conversation import enrich
    from app.turns import Turn

    turn = Turn(asked="What was net cash from operating activities in 2009?",
                question="What was net cash from operating activities in 2009?", answer="$1.2bn [1].",
                status="answered")
    out = enrich({"question": "And what was it in 2008?", "recent_turns": [turn]}, known_companies=lambda: [])
    assert out["question"] == "What was net cash from operating activities in 2008?"  # the question, written out
    assert out["fiscal_years"] == [2008]
    # a previous question of two years: which the follow-up's year replaces is not clear, so it is carried whole
    two = turn.model_copy(update={"question": "How did net cash from operating activities change from 2008 to 2009?"})
    carried = enrich({"question": "And what was it in 2007?", "recent_turns": [two]}, known_companies=lambda: [])
    assert carried["question"] == ("And what was it in 2007? [following: How did net cash from operating activities "
                                   "change from 2008 to 2009?]")
    changed = enrich({"question": "And what about capital expenditure?", "recent_turns": [turn]},
                     known_companies=lambda: [])
    assert "question" not in changed  # it names its own measure


def test_a_question_the_thread_already_completed_is_not_clarified_again():
    from app.routing.decision import RouteDecision
    from nodes.routing import route

    def router(question, *, known_companies, context_entities):  # type: ignore[no-untyped-def]
        return RouteDecision(needs_clarification=True, needs_calculation=True, clarification_question="Which?")

    companies = lambda: ["Marathon Oil", "Helio Renewables"]  # noqa: E731
    state = {"question": "What was the change in this value? [Marathon Oil; following: What was the exercise price?]",
             "asked": "What was the change in this value?", "companies": ["Marathon Oil"],
             "context_entities": ["Marathon Oil"]}
    out = route(state, router=router, known_companies=companies)
    assert not out["decision"].needs_clarification and out["decision"].needs_calculation
    assert "resolved from the thread" in out["decision"].signals["clarification_overruled"]
    fresh = route({"question": "What was the exercise price?", "asked": "What was the exercise price?"},
                  router=router, known_companies=companies)
    assert fresh["decision"].needs_clarification  # a new conversation: which company is a fair question


def test_a_follow_up_naming_a_company_no_document_mentions_is_not_answered_for_the_threads_company() -> None:
    """'What about Brackenridge Mining's capex?' after questions about Ternline: no document mentions Brackenridge,
    so the turn is about a company the knowledge base does not hold; a name the documents do mention (a segment)
    keeps the thread's company."""
    from app.routing.decision import RouteDecision
    from nodes.routing import route

    def router(question: str, **_: object) -> RouteDecision:
        return RouteDecision(needs_retrieval=True)

    state = {"question": "What about Brackenridge Mining's capex in FY2024?", "companies": ["Ternline"],
             "fiscal_years": [2024]}
    out = route(state, router=router, known_companies=lambda: ["Ternline"], mentions=lambda name: [])
    assert out["companies"] == [] and out["absent_companies"] == ["Brackenridge Mining"]
    kept = route({**state, "question": "What about Freight Forwarding's revenue in FY2024?"}, router=router,
                 known_companies=lambda: ["Ternline"], mentions=lambda name: ["Ternline"])
    assert kept["companies"] == ["Ternline"] and kept["absent_companies"] == []


def test_a_business_no_held_company_is_but_its_documents_mention_is_asked_of_them() -> None:
    """'Where are Fenmoor Cold Storage's sites?' on a new thread: Fenmoor is no company the knowledge base holds,
    but Ternline's report tells of acquiring it, so the question goes to Ternline's reports and news, however the
    router judged it; a name no document mentions, or a country, is refused as before."""
    from app.routing.decision import RouteDecision
    from nodes.routing import route

    def router(question: str, **_: object) -> RouteDecision:
        return RouteDecision(is_out_of_scope=True)

    told = {"Fenmoor Cold Storage": ["Ternline"], "France": ["Ternline"]}
    out = route({"question": "Where are Fenmoor Cold Storage's sites?"}, router=router,
                known_companies=lambda: ["Ternline", "Osprey"], mentions=lambda name: told.get(name, []))
    decision = out["decision"]
    assert out["companies"] == ["Ternline"] and out["absent_companies"] == []
    assert not decision.is_out_of_scope and decision.needs_retrieval and not decision.needs_clarification
    assert decision.signals["mentioned_by"] == {"Fenmoor Cold Storage": ["Ternline"]}
    # a company's figure asked of the name is no question for the filing that mentions it (a customer, a rival)
    told["Brackenridge Mining"] = ["Osprey"]
    figure = route({"question": "What was Brackenridge Mining's revenue in FY2024?"}, router=router,
                   known_companies=lambda: ["Ternline", "Osprey"], mentions=lambda name: told.get(name, []))
    assert figure["companies"] == [] and figure["absent_companies"] == ["Brackenridge Mining"]
    del told["Brackenridge Mining"]
    for question in ("Where are Brackenridge Mining's sites?", "What is the capital of France?"):
        refused = route({"question": question}, router=router, known_companies=lambda: ["Ternline", "Osprey"],
                        mentions=lambda name: told.get(name, []))
        assert refused["decision"].is_out_of_scope and refused["companies"] == []
