"""Guarantees the route node keeps whatever the router says: a question naming a company the knowledge base holds
is never refused as out of scope, and one naming such a company and a period it holds is never sent to
clarification. Each is tested with a scripted router that says the opposite."""

from __future__ import annotations

from typing import Any

import pytest

from app.routing.decision import RouteDecision, RoutePlan
from app.text.companies import companies_named, name_words
from app.text.identity import normalize_company
from nodes.routing import (after_route, answer_named_company_and_period, keep_known_companies_in_scope,
                           periods_named, route, without_thread_tags)

# Stored as filings and catalogs write them: squashed, upper case, with suffixes.
KB = ["AMCOR", "ACTIVISIONBLIZZARD", "3M Company", "Northwind Logistics", "Orchard Inc.", "BESTBUY"]


def scripted(decision: RouteDecision):  # type: ignore[no-untyped-def]
    def router(question: str, *, known_companies: list[str], context_entities: list[str]) -> RouteDecision:
        return decision
    return router


REFUSE = RouteDecision(is_out_of_scope=True, plan=RoutePlan(source="none"))
ASK = RouteDecision(needs_clarification=True, clarification_question="Which company and period?")


def run(decision: RouteDecision, question: str, known: list[str] = KB, **state: Any) -> dict[str, Any]:
    return route({"question": question, **state}, router=scripted(decision), known_companies=lambda: list(known),
                 **({"known_years": state.pop("known_years")} if "known_years" in state else {}))


# --- the normaliser -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("written, stored", [
    ("AMCOR's", "Amcor"), ("Amcor", "AMCOR"), ("AMCOR Plc", "Amcor"), ("Activision Blizzard", "ACTIVISIONBLIZZARD"),
    ("ACTIVISIONBLIZZARD", "Activision Blizzard"), ("3M", "3M Company"), ("Johnson & Johnson's", "JOHNSON_JOHNSON"),
    ("The Coca-Cola Company", "COCACOLA"), ("Marlow & Finch Corp.", "Marlow and Finch"),
])
def test_company_names_normalise_to_one_key(written: str, stored: str) -> None:
    """The question's words (possessive dropped) and the stored name meet under app.text's normalize_company."""
    assert normalize_company(" ".join(name_words(written))) == normalize_company(stored)


def test_companies_named_case_suffix_and_space_insensitively() -> None:
    assert companies_named("Has AMCOR's quick ratio improved since FY2022?", KB) == ["AMCOR"]
    assert companies_named("What did Amcor Plc say about debt?", KB) == ["AMCOR"]
    assert companies_named("Is 3M capital-intensive?", KB) == ["3M Company"]
    assert companies_named("Activision Blizzard FY2019 revenue", KB) == ["ACTIVISIONBLIZZARD"]
    assert companies_named("amcor quick ratio fy2023", KB) == ["AMCOR"]
    assert companies_named("What did Northwind earn in FY2024?", KB) == ["Northwind Logistics"]
    assert companies_named("Best Buy's FY2019 revenue", KB) == ["BESTBUY"]


def test_ordinary_words_are_not_company_names() -> None:
    assert companies_named("Which laptop is the best buy this year?", KB) == []
    assert companies_named("Give me a recipe for an orchard fruit crumble.", KB) == []
    assert companies_named("What's the weather in Oslo?", KB) == []
    assert companies_named("Orchard's FY2022 revenue?", KB) == ["Orchard Inc."]


def test_periods_named_are_those_the_knowledge_base_holds() -> None:
    assert periods_named("AMCOR FY2023 vs FY2022 quick ratio") == [2023, 2022]
    assert periods_named("the quarter ended June 30, 2022") == [2022]
    assert periods_named("AMCOR FY2023 vs FY2022", lambda: [2022]) == [2022]
    assert periods_named("AMCOR's latest results") == []


def test_thread_tags_are_not_the_users_words() -> None:
    assert without_thread_tags("What about the weather? [Northwind Logistics, FY2024]") == "What about the weather?"
    assert without_thread_tags("What was AMCOR's FY2023 revenue?") == "What was AMCOR's FY2023 revenue?"


# --- never refused ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("question", [
    "What acquisition plan does AMCOR describe in its annual report?",
    "Activision Blizzard: what did the merger agreement say?",
    "Is 3M a business that needs heavy investment?",
])
def test_a_question_naming_a_known_company_is_never_refused(question: str) -> None:
    out = run(REFUSE, question)
    d = out["decision"]
    assert not d.is_out_of_scope and d.needs_retrieval and d.plan.source == "reports"
    assert "out_of_scope_overruled" in d.signals
    assert after_route(out) == ["retrieve"]
    assert out["companies"] and set(out["companies"]) <= set(KB)


def test_a_question_naming_no_known_company_is_still_refused() -> None:
    for question in ("What's a good recipe for banana bread?", "Which laptop is the best buy?",
                     "What about the weather? [Northwind Logistics, FY2024]"):
        out = run(REFUSE, question)
        assert out["decision"].is_out_of_scope and after_route(out) == "refuse", question
    # The company must be one the knowledge base holds.
    assert run(REFUSE, "Should I buy AMCOR?", known=["Northwind Logistics"])["decision"].is_out_of_scope


def test_keep_known_companies_in_scope_leaves_other_decisions_alone() -> None:
    answer = RouteDecision(needs_news=True)
    assert keep_known_companies_in_scope(answer, ["AMCOR"]) is answer
    assert keep_known_companies_in_scope(REFUSE, []) is REFUSE


# --- never sent to clarification ----------------------------------------------------------------------------


@pytest.mark.parametrize("question", [
    "Has AMCOR's quick ratio got better between FY2022 and FY2023?",
    "ACTIVISIONBLIZZARD fiscal 2019: what was it?",
    "3M, 2022: capital-intensive or not?",
])
def test_a_question_naming_a_known_company_and_period_is_never_clarified(question: str) -> None:
    out = run(ASK, question)
    d = out["decision"]
    assert not d.needs_clarification and d.needs_retrieval
    assert d.signals["clarification_overruled"].startswith("names ")
    assert after_route(out) == ["retrieve"]
    assert out["fiscal_years"]


def test_clarification_stands_without_the_company_or_the_period() -> None:
    assert run(ASK, "What was the quick ratio in FY2023?")["decision"].needs_clarification
    assert run(ASK, "How did AMCOR's ratio move?")["decision"].needs_clarification
    # A year the knowledge base does not hold is no answer to "which period?".
    held_elsewhere = run(ASK, "What was AMCOR's FY2031 revenue?", known_years=lambda: [2022, 2023])
    assert held_elsewhere["decision"].needs_clarification


def test_answer_named_company_and_period_keeps_the_other_flags() -> None:
    asked = RouteDecision(needs_clarification=True, needs_calculation=True)
    d = answer_named_company_and_period(asked, ["AMCOR"], [2022, 2023])
    assert not d.needs_clarification and d.needs_calculation and d.signals["years"] == [2022, 2023]
    assert answer_named_company_and_period(asked, ["AMCOR"], []) is asked


# --- a named company's filed facts are searched -------------------------------------------------------------

NEWS_ONLY = RouteDecision(needs_news=True, plan=RoutePlan(source="news"))


@pytest.mark.parametrize("question", [
    "Which business did AMCOR buy in 2022, and what did it pay?",          # a deal
    "What were 3M's net sales in the first quarter of 2023?",              # a figure of a quarter
    "AMCOR net income, three months ended March 31, 2023",                 # a 10-Q period
    "What is Northwind's Project Atlas?",                                   # a plan
    "Who audits Orchard's accounts?",                                       # an adviser
])
def test_a_named_company_and_a_filed_fact_is_searched_in_the_reports(question: str) -> None:
    out = run(NEWS_ONLY, question)
    d = out["decision"]
    assert d.needs_retrieval and d.needs_news and d.plan.source == "both", question  # news is kept beside
    assert "retrieval_added" in d.signals
    assert after_route(out) == ["retrieve", "news"]


def test_a_catalogue_metric_is_calculated_and_its_inputs_searched() -> None:
    d = run(NEWS_ONLY, "What was AMCOR's current ratio at June 30, 2023?")["decision"]
    assert d.needs_retrieval and d.needs_calculation and "calculation_added" in d.signals
    assert "current ratio" in d.signals["calculation_added"]
    # A target for a metric is read from the outlook, not calculated.
    assert not run(NEWS_ONLY, "What operating margin target does AMCOR give?")["decision"].needs_calculation


def test_news_words_keep_a_news_only_decision() -> None:
    for question in ("What did AMCOR announce this week about its CEO?", "Latest news on 3M's acquisitions?",
                     "Which deal did AMCOR close in September 2023?"):
        d = run(NEWS_ONLY, question)["decision"]
        assert not d.needs_retrieval and d.needs_news and "retrieval_added" not in d.signals, question


def test_nothing_is_added_without_a_held_company_or_a_filed_fact() -> None:
    for question in ("What were net sales in the first quarter of 2023?", "Anything new at AMCOR?",
                     "How are things at Northwind?"):
        assert not run(NEWS_ONLY, question)["decision"].needs_retrieval, question
    # Nor for a year the knowledge base does not hold: news, guidance or the declared insufficient answer.
    assert not run(NEWS_ONLY, "What were AMCOR's net sales in the first quarter of 2031?",
                   known_years=lambda: [2022, 2023])["decision"].needs_retrieval


@pytest.mark.parametrize("question", [
    "Who is AMCOR's CEO?", "Who chairs the Northwind board?", "Where is 3M headquartered?",
    "Which company did Orchard acquire?",
    # a business sold, a tender offer, a vote of the shareholders, a customer: what its filings state
    "On what date did Orchard complete its tender offer for Fenmoor?",
    "On what date did AMCOR sell its Baltic business?",
    "Did Northwind shareholders ratify the auditor's appointment?", "Which customer accounted for most of 3M's sales?",
])
def test_a_named_company_and_what_about_it_is_searched_not_clarified(question: str) -> None:
    out = run(ASK, question)
    d = out["decision"]
    assert not d.needs_clarification and d.clarification_question is None and d.needs_retrieval, question
    assert "clarification_overruled" in d.signals
    assert after_route(out) == ["retrieve"]


def test_clarification_stands_when_the_question_leaves_its_subject_open() -> None:
    for question in ("Who is the CEO?", "What was AMCOR's revenue in the quarter?", "Give me 3M's number.",
                     "that retailer Northwind signed with, what are its sales?", "What about AMCOR?"):
        assert run(ASK, question)["decision"].needs_clarification, question


def test_a_company_the_knowledge_base_does_not_hold_goes_to_the_reports_to_be_told_so() -> None:
    out = run(ASK, "What was Quillfeather Aerospace's revenue in FY2024?")
    assert out["absent_companies"] == ["Quillfeather Aerospace"]
    assert out["decision"].needs_retrieval and not out["decision"].needs_clarification
    refused = run(REFUSE, "What is the revenue of Quillfeather Aerospace?")
    assert refused["decision"].needs_retrieval and not refused["decision"].is_out_of_scope
    off_topic = run(REFUSE, "What is the capital of France?")
    assert off_topic["decision"].is_out_of_scope  # a name alone does not make a question about reports


def test_no_company_is_absent_when_the_question_names_one_the_knowledge_base_holds() -> None:
    out = run(ASK, f"Did {KB[0]} compete with Quillfeather Aerospace?")
    assert out["absent_companies"] == []


def test_a_name_the_sources_state_counts_as_naming_the_company() -> None:
    out = route({"question": "Are JnJ's FY2022 financials those of a high growth company?"}, router=scripted(ASK),
                known_companies=lambda: ["Johnson & Johnson"], aliases=lambda: {"jnj": "Johnson & Johnson"})
    assert not out["decision"].needs_clarification and out["decision"].needs_retrieval
    assert out["absent_companies"] == []


# --- a company's figure asked with no company, among several held: which company? ------------------------------

SEARCH = RouteDecision(needs_retrieval=True, plan=RoutePlan(source="reports"))


def test_a_figure_question_naming_no_company_among_several_asks_which() -> None:
    out = run(SEARCH, "What was the cash provided by operating activities in 2013?")
    assert out["decision"].needs_clarification and out["decision"].clarification_question
    assert "clarification_added" in out["decision"].signals
    assert after_route({"decision": out["decision"]}) == "clarify"


@pytest.mark.parametrize(("question", "state"), [
    ("What was 3M's cash provided by operating activities in 2013?", {}),  # it names one
    ("What was the cash provided by operating activities in 2013?", {"context_entities": ["3M Company"]}),  # thread
    ("What was the cash provided by operating activities in 2013?",
     {"clarifications": [{"question": "Which company?", "reply": "not sure"}]}),  # asked once this turn already
    ("Which company had the highest revenue in 2023?", {}),  # about the set of companies
    ("What is free cash flow?", {}),  # a definition
    ("What was Acme Corp's revenue in FY2023?", {}),  # a company not held: said so, not asked
])
def test_which_company_is_not_asked_where_the_question_or_thread_answers_it(question: str, state: dict) -> None:
    out = run(SEARCH, question, **state)
    assert not out["decision"].needs_clarification, out["decision"].signals


def test_with_one_company_held_the_figure_is_searched() -> None:
    out = run(SEARCH, "What was the cash provided by operating activities in 2013?", known=["3M Company"])
    assert not out["decision"].needs_clarification


# --- a vague question about figures, refused by the router: what is meant? ------------------------------------


@pytest.mark.parametrize("question", ["Which one is bigger?", "Which is larger?", "Did it go up or down?",
                                      "So which grew faster?"])
def test_a_vague_question_about_figures_asks_what_is_meant_instead_of_being_refused(question: str) -> None:
    out = run(REFUSE, question)
    decision = out["decision"]
    assert not decision.is_out_of_scope and decision.needs_clarification, decision.signals
    assert "which metric or figure" in decision.clarification_question
    assert after_route({"decision": decision}) == "clarify"


@pytest.mark.parametrize(("question", "state"), [
    ("Which planet is bigger?", {}),  # a topic of its own
    ("Which is bigger, the sun or the moon?", {}),
    ("Is the weather better today?", {}),
    ("Which one is bigger?", {"clarifications": [{"question": "Which company?", "reply": "no idea"},
                                                 {"question": "Which company?", "reply": "still none"}]}),
])
def test_a_refusal_stands_for_a_question_with_a_topic_or_after_the_clarification_rounds(question: str,
                                                                                        state: dict) -> None:
    assert run(REFUSE, question, **state)["decision"].is_out_of_scope


# --- the fiscal year of a day a report ends -------------------------------------------------------------------

ENDS = {"Northwind Logistics": {"2024-06-30": 2024, "2024-12-31": 2025, "2025-03-31": 2025}}


@pytest.mark.parametrize(("question", "years"), [
    ("What was Northwind Logistics' EBITDA for the half-year ended 31 December 2024?", [2025]),
    ("What was Northwind Logistics' operating margin in fiscal 2024 (the year ended March 31, 2025)?", [2025]),
    ("How many people did Northwind Logistics employ at 30 June 2024?", [2024]),
    ("How did Northwind Logistics' EBITDA change between the year ended 30 June 2024 and the half-year ended "
     "31 December 2024?", [2024, 2025]),
    ("What was Northwind Logistics' revenue in FY2023?", [2023]),  # no day: the years named
    ("What was Northwind Logistics' cash at 31 March 2023?", [2023]),  # no report ends that day
    # the day a fiscal year's report states a thing at, early in the next year: that report's year alone
    ("How many stockholders of record did Northwind Logistics have according to its fiscal 2023 annual report (as "
     "of January 26, 2024)?", [2023]),
    ("How did Northwind Logistics' headcount change from fiscal 2023 to January 26, 2024?", [2023, 2024]),
])
def test_a_day_a_report_ends_names_the_fiscal_year_it_is_filed_as(question: str, years: list[int]) -> None:
    from nodes.routing import years_of_period_ends

    named = sorted(set(years_in_question(question)))
    assert years_of_period_ends(question, ["Northwind Logistics"], named, lambda c: ENDS.get(c, {})) == years


def years_in_question(question: str) -> list[int]:
    from app.routing.features import KNOWN_YEARS
    from app.text.periods import years_in

    return years_in(question, KNOWN_YEARS)


def test_an_extreme_question_that_asks_a_share_is_calculated_one_that_ranks_a_level_is_not() -> None:
    share = run(NEWS_ONLY, "Which segment had the highest EBIT contribution for AMCOR during FY2023?")["decision"]
    assert share.needs_retrieval and share.needs_calculation and "calculation_added" in share.signals
    level = run(NEWS_ONLY, "Which segment had the highest EBIT for AMCOR during FY2023?")["decision"]
    assert level.needs_retrieval and not level.needs_calculation


# --- news alone, where no news item is held -----------------------------------------------------------------


NEWS_ONLY = RouteDecision(needs_news=True, plan=RoutePlan(source="news"))


def test_news_alone_about_a_company_with_no_news_searches_its_filings() -> None:
    asked = "At the Amcor AGM held on May 3, 2023, what was the outcome of the shareholder vote on the proposal?"
    out = route({"question": asked}, router=scripted(NEWS_ONLY), known_companies=lambda: KB,
                news_companies=lambda: ["Northwind Logistics"])
    decision = out["decision"]
    assert decision.needs_retrieval and not decision.needs_news and decision.plan.source == "reports"
    assert "no news item about AMCOR" in decision.signals["retrieval_added"]
    # a company news is held about, a question that asks for news itself, or held news unknown: as decided
    held = route({"question": asked}, router=scripted(NEWS_ONLY), known_companies=lambda: KB,
                 news_companies=lambda: ["AMCOR"])
    latest = route({"question": "What is the latest news about Amcor?"}, router=scripted(NEWS_ONLY),
                   known_companies=lambda: KB, news_companies=lambda: [])
    unknown = route({"question": asked}, router=scripted(NEWS_ONLY), known_companies=lambda: KB)
    assert latest["decision"].needs_news and not latest["decision"].needs_retrieval
    for kept in (held, unknown):  # (a shareholder vote is told by a filing, an 8-K: the reports beside the news)
        assert kept["decision"].needs_news and kept["decision"].needs_retrieval
    # an event dated by its month, or announced, may be told by a filing (an 8-K): searched there too
    for dated in ("Who did Amcor appoint as its new CEO in August 2022?", "What did Amcor announce about Bemis?"):
        out = route({"question": dated}, router=scripted(NEWS_ONLY), known_companies=lambda: KB,
                    news_companies=lambda: [])
        assert out["decision"].needs_retrieval and not out["decision"].needs_news, dated
