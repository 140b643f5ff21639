"""A segment's row in a breakdown whose title names the measure ('Segment operating profit' over '| Segment |
FY2024 (€m) | FY2023 (€m) | FY2024 margin | FY2023 margin |'): the row is the segment, each column a measure of it
and a year; a question that names the segment takes the row; 'By how many euros' asks an amount, not a count;
a figure is stated to the places its table writes it.

Every company and figure here is made up (Ternline, a foods group).
"""

from __future__ import annotations

import pytest

from app.calc_tools import Figure
from app.evidence import Evidence, RetrievalResult
from app.facts.prose import measure_kind
from app.facts.query import answering_facts, facts_for, member_facts, read_query
from app.models.providers.offline.calculator import plan_tool_calls
from app.models.providers.offline.composer.wording import format_figure, stated_decimals
from app.text.measures import how_many_money, measure_asked
from app.text.question_kinds import read_ask
from nodes.figures import prepare_calculation

COMPANY = "Ternline"

SEGMENT_PROFIT = """Ternline Group — Annual Report FY2024 — Segment operating profit
| Segment | FY2024 (€m) | FY2023 (€m) | FY2024 margin | FY2023 margin |
|---|---|---|---|---|
| Crisps | 79.0 | 85.3 | 11.3% | 12.5% |
| Oat Drinks | 27.1 | 24.4 | 8.0% | 7.8% |
| Central costs | (16.4) | (15.8) | — | — |
| Group operating profit | 112.0 | 114.5 | 8.7% | 9.3% |"""

SUMMARY = """Ternline Group — Annual Report FY2024 — Summary income statement
| €m | FY2024 | FY2023 |
|---|---|---|
| Revenue | 1,288.7 | 1,228.6 |
| Operating profit | 112.0 | 114.5 |"""


def _ev(text: str, chunk: int) -> Evidence:
    return Evidence(source_id="ternline-fy2024.md", chunk_id=f"ternline-fy2024.md::abc::{chunk}", text=text,
                    company=COMPANY, fiscal_year=2024, title="Ternline Group — Annual Report FY2024",
                    section=text.splitlines()[0].rsplit(" — ", 1)[-1], doc_type="report")


DOCS = [_ev(SUMMARY, 1), _ev(SEGMENT_PROFIT, 2)]


@pytest.mark.parametrize("question, money", [
    ("By how many euros did Ternline's Crisps operating profit fall between FY2023 and FY2024?", True),
    ("How many million US dollars did Ternline spend on capital expenditure?", True),
    ("How many pounds sterling of dividends were paid?", True),
    ("How many stores did Ternline open in FY2024?", False),
    ("How many employees did Ternline have?", False),
    ("How many shares were bought back?", False),
])
def test_how_many_of_a_currency_asks_an_amount_not_a_count(question: str, money: bool) -> None:
    assert how_many_money(question) is money
    asked = measure_asked(question, [COMPANY])
    assert (asked.count_noun == "") is money
    assert (measure_kind(asked.stems, question) == "money") is money


def test_a_column_that_adds_a_word_is_another_measure_of_the_row_not_another_member() -> None:
    profit = read_query("Which Ternline segment had the lowest operating profit in FY2024?", [COMPANY])
    members = member_facts(profit, DOCS, [COMPANY])
    # the margin columns are no operating profit of 'Crisps margin': the rows are the members, in €m only
    assert {f.segment for f in members} == {"Crisps", "Oat Drinks"}
    assert {(f.segment, f.figure.value, f.figure.unit) for f in members if f.figure.fiscal_year == 2024} == {
        ("Crisps", 79.0, "€m"), ("Oat Drinks", 27.1, "€m")}
    margin = read_query("Which Ternline segment had the highest operating margin in FY2024?", [COMPANY])
    margins = {(f.segment, f.figure.value, f.figure.unit) for f in member_facts(margin, DOCS, [COMPANY])
               if f.figure.fiscal_year == 2024}
    assert margins == {("Crisps", 11.3, "%"), ("Oat Drinks", 8.0, "%")}


def test_a_segment_asked_by_name_takes_its_row_of_the_breakdown_not_the_group_figure() -> None:
    question = "By how many euros did Ternline's Crisps operating profit fall between FY2023 and FY2024?"
    query = read_query(question, [COMPANY], [2023, 2024])
    assert (query.measure.segment, query.kind) == ("Crisps", "money")
    chosen = answering_facts(read_ask(question), query, facts_for(query, DOCS, [COMPANY]), [COMPANY])
    assert [(f.segment, f.figure.fiscal_year, f.figure.value) for f in chosen[:2]] == [
        ("Crisps", 2023, 85.3), ("Crisps", 2024, 79.0)]
    # a question about the whole company takes no segment's row
    whole = read_query("By how many euros did Ternline's operating profit fall between FY2023 and FY2024?",
                       [COMPANY], [2023, 2024])
    pair = answering_facts(read_ask(question), whole, facts_for(whole, DOCS, [COMPANY]), [COMPANY])
    assert [f.figure.value for f in pair[:2]] == [114.5, 112.0]


def test_the_calculator_is_handed_a_segments_facts_named_with_it_and_computes_the_fall() -> None:
    question = "By how many euros did Ternline's Crisps operating profit fall between FY2023 and FY2024?"
    facts = [Figure(label="Operating profit", value=v, unit="€m", company=COMPANY, fiscal_year=y, segment="Crisps",
                    source_id="ternline-fy2024.md") for y, v in ((2023, 85.3), (2024, 79.0))]
    state = {"question": question, "companies": [COMPANY], "fiscal_years": [2023, 2024], "facts": facts,
             "retrieval_result": RetrievalResult(status="found", evidence=DOCS)}
    figures = prepare_calculation(state)["figures"]  # type: ignore[arg-type]
    assert [f.label for f in figures[:2]] == ["Crisps: Operating profit"] * 2
    plan = plan_tool_calls(question, figures)
    assert plan[0] == ("difference", {"a": 79.0, "b": 85.3})
    # without the segment in its label the group's measure could not be told from the segment's
    unnamed = [f.model_copy(update={"segment": None}) for f in facts]
    assert plan_tool_calls(question, unnamed) == []


@pytest.mark.parametrize("value, quote, places, text", [
    (79.0, "| Crisps | 79.0 | 85.3 | 11.3% | 12.5% |", 1, "€79.0m"),
    (8.0, "| Oat Drinks | 27.1 | 24.4 | 8.0% | 7.8% |", 1, "€8.0m"),
    (85.3, "| Crisps | 79.0 | 85.3 |", None, "€85.3m"),
    (1200.0, "revenue of $1.2 billion", None, "€1,200m"),  # not written as such: as it is
    (79.0, "79", None, "€79m"),
    (8.5, "a margin of 8.50%", 2, "€8.50m"),
])
def test_a_figure_keeps_the_places_its_text_writes(value: float, quote: str, places: int | None, text: str) -> None:
    assert stated_decimals(value, quote) == places
    assert format_figure(value, "€m", places) == text


DIVIDENDS = """Ternline Group — Annual Report FY2024 — Dividends
In respect of FY2024, the Board declared four quarterly dividends of $0.05 per share, a total of $0.20 per share (FY2023: $0.18), up 11.1%. Cash dividends paid during the year totalled $19.9m (FY2023: $17.8m)."""


@pytest.mark.parametrize("question, values", [
    # 'the dividend' is the dividend per share a company declares
    ("How much did Ternline's dividend go up in FY2024?", [0.18, 0.20]),
    ("How did Ternline's dividend change in FY2024?", [0.18, 0.20]),
    # the cash paid out when the question asks for it
    ("How much more did Ternline pay in dividends in FY2024 than in FY2023?", [17.8, 19.9]),
    ("How did Ternline's cash dividends paid change in FY2024?", [17.8, 19.9]),
])
def test_the_dividend_is_per_share_unless_the_cash_paid_is_asked(question: str, values: list[float]) -> None:
    query = read_query(question, [COMPANY], [2024])
    chosen = answering_facts(read_ask(question), query, facts_for(query, [_ev(DIVIDENDS, 3)], [COMPANY]), [COMPANY])
    assert [f.figure.value for f in chosen[:2]] == values


def test_a_period_asked_in_respect_of_is_no_part_of_the_measure() -> None:
    asked = measure_asked("How much did Ternline pay in total dividends per share in respect of FY2024?", [COMPANY])
    assert asked.phrase == "total dividends per share"
    # 'in respect of' a thing is: the thing stays
    assert "leases" in measure_asked("How much did Ternline pay in respect of leases in FY2024?", [COMPANY]).phrase


REVIEW = """Ternline Group — Annual Report FY2024 — Trading performance
Crisps revenue rose 6.8% to €684.5m and operating profit grew 8.8% to €79.0m, an operating margin of 11.3%. The operating margin was 8.7% (FY2023: 9.3%)."""

OAT_DRINKS = """Ternline Group — Annual Report FY2024 — Oat Drinks
Revenue grew 8.3% to €338.6m and operating profit rose 11.1% to €27.1m, giving an operating margin of 8.0%."""

OUTLOOK = """Ternline Group — Annual Report FY2024 — Outlook and guidance
We expect FY2025 to be a year of steady growth. For FY2025 the Board expects:
- organic revenue growth of 3% to 5%;
- an operating margin of 9.0% to 9.5%;
- capital expenditure of €70m to €75m."""


def test_a_sentence_that_names_a_member_of_the_breakdown_or_stands_in_its_section_is_that_members() -> None:
    docs = [_ev(OUTLOOK, 5), _ev(REVIEW, 6), _ev(OAT_DRINKS, 7), _ev(SEGMENT_PROFIT, 2)]
    question = "What operating margin did Ternline achieve in FY2024?"
    query = read_query(question, [COMPANY], [2024])
    facts = facts_for(query, docs, [COMPANY])
    by_value = {f.figure.value: f for f in facts if f.origin == "text"}
    # asked of the company, a member's figure ranks after the company's own
    assert by_value[11.3].match < by_value[8.7].match and by_value[8.0].match < by_value[8.7].match
    crisps = read_query("What operating margin did Ternline's Crisps segment achieve in FY2024?", [COMPANY], [2024])
    named = {f.figure.value: f.segment for f in facts_for(crisps, docs, [COMPANY]) if f.origin == "text"}
    oats = read_query("What operating margin did Ternline's Oat Drinks segment achieve in FY2024?", [COMPANY], [2024])
    sectioned = {f.figure.value: f.segment for f in facts_for(oats, docs, [COMPANY]) if f.origin == "text"}
    assert named[11.3] == "Crisps" and sectioned[8.0] == "Oat Drinks" and named[8.7] is None
    # the targets listed under 'For FY2025 the Board expects:' are FY2025's forecasts, no result of FY2024
    assert by_value[9.0].forward and by_value[9.0].figure.fiscal_year == 2025
    chosen = answering_facts(read_ask(question), query, facts, [COMPANY])
    assert chosen[0].figure.value == 8.7


def test_a_bullets_lead_in_is_the_line_above_its_run_of_bullets() -> None:
    from app.facts.query import bullet_lead_in

    assert bullet_lead_in(OUTLOOK, "an operating margin of 9.0% to 9.5%;") == "For FY2025 the Board expects:"
    assert bullet_lead_in(OUTLOOK, "We expect FY2025 to be a year of steady growth.") == ""
    assert bullet_lead_in("Highlights\n- revenue of €1.2bn", "revenue of €1.2bn") == ""  # no colon: no lead-in
