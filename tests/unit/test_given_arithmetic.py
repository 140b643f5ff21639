"""Arithmetic asked of the numbers a question gives, or of the figure the previous answer gave ('what is that times
100?'), and a thread's follow-ups on a filing its questions never name: read (app/text/arithmetic.py), routed with
no search (nodes/routing.calculate_given_numbers), handed to the calculator (nodes/figures.given_figures), planned
by the offline policy and said as it was done (the composer's results.given_arithmetic).

The conversation is about a fictional filer, Brantwood Packaging, whose questions name only the measure."""

from __future__ import annotations

from functools import partial

import pytest

from app.calc_tools import Figure, evaluate
from app.models.providers.offline.calculator import plan_tool_calls
from app.models.providers.offline.composer.results import given_arithmetic
from app.routing.decision import RouteDecision, RoutePlan
from app.text.arithmetic import PREVIOUS, arithmetic_asked, lead_value
from app.text.companies import company_spans
from app.text.followups import change_share_follow_up, over_turns_follow_up
from app.turns import Block, Turn
from nodes.conversation import answered_about
from nodes.figures import given_figures
from nodes.routing import after_route, route

PRICE = "Brantwood Packaging's weighted average exercise price per share was 60.94 in FY2007 [1]."


@pytest.mark.parametrize(("question", "operands", "expression"), [
    ("What is 100000 divided by 100?", (100000.0, 100.0), "100000 / 100"),
    ("what is 12 plus 30?", (12.0, 30.0), "12 + 30"),
    ("and what is that less 1?", (PREVIOUS, 1.0), "60.94 - 1"),
    ("what is that times 100?", (PREVIOUS, 100.0), "60.94 * 100"),
    ("So what is that divided by 1,000, then?", (PREVIOUS, 1000.0), "60.94 / 1000"),
    ("What is the sum of 1,204.6 and 1,311.2?", (1204.6, 1311.2), "1204.6 + 1311.2"),
    ("What is the growth from 120 to 150?", (120.0, 150.0), "(150 - 120) / abs(120) * 100"),
    ("what is 8 as a percentage of 11?", (8.0, 11.0), "8 / 11 * 100"),
    ("what is 100 x 3 / 2?", (100.0, 3.0, 2.0), "(100 * 3) / 2"),
    ("what is that times 100? [Brantwood Packaging, FY2007]", (PREVIOUS, 100.0), "60.94 * 100"),
])
def test_a_question_that_is_arithmetic_and_nothing_else_is_read_left_to_right(question: str, operands: tuple,
                                                                              expression: str) -> None:
    asked = arithmetic_asked(question)
    assert asked is not None and asked.operands == operands
    assert asked.expression(60.94) == expression


@pytest.mark.parametrize("question", [
    "What was revenue divided by total assets in 2024?",  # a measure: the filings' figures
    "What was Brantwood Packaging's revenue in 2024?",
    "And what was it in 2005?",
    "what is the ratio of fair value to carrying value?",
    "What is it?",
    "and what is that in billions?",
])
def test_a_question_that_names_a_measure_or_a_period_is_not_given_arithmetic(question: str) -> None:
    assert arithmetic_asked(question) is None


def test_the_previous_answer_s_figure_is_its_result_else_its_first_figure_not_a_year() -> None:
    assert lead_value(PRICE) == 60.94
    assert lead_value("Difference: 154 - 369 = -215 (a: FY2014 net change in cash 154) [5][2].") == -215
    assert lead_value("Brantwood Packaging's revenue was £1,311.2m in FY2024 [2]. It rose 8.8%.") == 1311.2
    assert lead_value("Insufficient evidence: nothing states it.") is None


def _scripted(decision: RouteDecision):  # type: ignore[no-untyped-def]
    def router(question: str, *, known_companies: list[str], context_entities: list[str]) -> RouteDecision:
        return decision
    return router


SEARCH = RouteDecision(needs_retrieval=True, needs_news=True, plan=RoutePlan(source="both"))
ANSWERED = Turn(asked="price?", question="What was the weighted average exercise price per share in 2007?",
                answer=PRICE, status="answered", companies=["Brantwood Packaging"], fiscal_years=[2007])


def test_given_arithmetic_is_calculated_with_no_search_whatever_the_router_said() -> None:
    out = route({"question": "what is that times 100?", "recent_turns": [ANSWERED]}, router=_scripted(SEARCH),
                known_companies=lambda: ["Brantwood Packaging", "Orchard Inc."])
    decision = out["decision"]
    assert decision.needs_calculation and not decision.needs_retrieval and not decision.needs_news
    assert decision.signals["arithmetic"] == "60.94 * 100"
    assert "retrieve" not in after_route({"decision": decision, "question": "what is that times 100?"})
    # pointing back on a new thread: nothing to point at, left as decided
    fresh = route({"question": "what is that times 100?"}, router=_scripted(SEARCH),
                  known_companies=lambda: ["Brantwood Packaging"])["decision"]
    assert not fresh.signals.get("arithmetic") and fresh.needs_retrieval


def test_the_calculator_gets_the_previous_figure_and_the_given_numbers_and_evaluates_them() -> None:
    decision = RouteDecision(needs_calculation=True, signals={"arithmetic": "60.94 - 1"})
    figures = given_figures({"question": "and what is that less 1?", "recent_turns": [ANSWERED],
                             "decision": decision})
    assert [(f.value, f.origin) for f in figures] == [(60.94, "thread"), (1.0, "question")]
    plan = plan_tool_calls("and what is that less 1?", figures)
    assert plan == [("evaluate", {"expression": "60.94 - 1", "unit": ""})]


def test_the_answer_says_the_arithmetic_as_done_and_where_its_numbers_came_from() -> None:
    result = evaluate("(150 - 120) / abs(120) * 100", "%")
    given = Figure(label="a number the question gives", value=120.0, source_id="question", origin="question")
    result = result.model_copy(update={"sources": {"x1": given}})
    assert given_arithmetic(result) == ("The result is 25% ((150 - 120) / 120 * 100, from the numbers the question "
                                        "gives)")
    times = evaluate("60.94 * 100").model_copy(update={"sources": {"x1": Figure(
        label="the previous answer's figure", value=60.94, source_id="thread", origin="thread")}})
    assert given_arithmetic(times) == "The result is 6,094 (60.94 * 100, where 60.94 is the previous answer's figure)"
    from_report = times.model_copy(update={"sources": {"x1": Figure(label="Revenue", value=60.94, source_id="r",
                                                                    origin="statement")}})
    assert given_arithmetic(from_report) == ""  # a filing's figure: said as any calculation is


KNOWN = ["Brantwood Packaging", "Orchard Inc."]
SPANS = partial(company_spans, known=KNOWN, aliases={})


def test_a_change_over_turns_that_never_named_the_company_is_written_out_for_the_measure() -> None:
    turns = [("what was the weighted average exercise price per share in 2007?", [2007]),
             ("what was the weighted average exercise price per share in 2005?", [2005])]
    assert over_turns_follow_up("what was, then, the change over the years?", turns, SPANS) == \
        "How did the weighted average exercise price per share change from 2005 to 2007?"
    assert over_turns_follow_up("so what was the difference during this time?", turns, SPANS) == \
        "How did the weighted average exercise price per share change from 2005 to 2007?"
    mixed = [turns[0], ("what was Orchard Inc.'s weighted average exercise price per share in 2005?", [2005])]
    assert over_turns_follow_up("what was the change over the years?", mixed, SPANS) is None  # not one series


def _block(n: int, company: str | None) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {company}", text="…", source_id=f"s{n}", company=company)


def test_an_answer_to_a_question_naming_no_company_records_the_one_company_its_citations_are_of() -> None:
    class Check:
        valid = [1, 2]

    state = {"status": "answered", "citation_check": Check(),
             "blocks": [_block(1, "Brantwood Packaging"), _block(2, "Brantwood Packaging"), _block(3, "Orchard Inc.")]}
    assert answered_about(state) == ["Brantwood Packaging"]
    Check.valid = [1, 3]
    assert answered_about(state) == []  # two companies: the thread is about neither alone
    assert answered_about({**state, "status": "insufficient"}) == []


def test_what_a_change_represents_against_its_base_asks_that_change_again() -> None:
    asked = ["what was the weighted average exercise price per share in 2007?",
             "How did the weighted average exercise price per share change from 2005 to 2007?",
             "what was the weighted average exercise price per share in 2005?"]
    again = "How did the weighted average exercise price per share change from 2005 to 2007?"
    assert change_share_follow_up("and how much does that change represent in relation to this 2005 weighted "
                                  "average exercise price?", asked) == again
    assert change_share_follow_up("what is this increase as a percent of the base?", asked) == again
    # a year that is not the change's base: not what the change is measured against
    assert change_share_follow_up("what is that change as a percentage of the 2007 price?", asked) is None
    assert change_share_follow_up("what was the price in 2006?", asked) is None
    assert change_share_follow_up("what does that change represent?", asked[:1]) is None  # no change asked before


def test_the_calculation_block_names_each_given_number_plainly() -> None:
    from app.calc_tools import CalculationOutcome
    from nodes.assemble import calculation_text

    result = evaluate("949.3 / 4").model_copy(update={"sources": {
        "x1": Figure(label="the previous answer's figure", value=949.3, source_id="thread", origin="thread"),
        "x2": Figure(label="a number the question gives", value=4.0, source_id="question", origin="question")}})
    text = calculation_text(CalculationOutcome(status="ok", results=[result], summary=""), {})
    assert "x1=949.3 (the previous answer's figure), x2=4 (a number the question gives)" in text, text
