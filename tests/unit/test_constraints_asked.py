"""What a question asks of its answer's form (a rounding, a scale, a currency) is not part of its measure, and the
answer honours it once, from the figure as stated; a growth rate asked as a figure is computed from both years;
an outflow asked as an amount is stated as one."""

from __future__ import annotations

from app.calc_tools import Figure
from app.evidence import Evidence
from app.facts.query import choose, facts_for, read_query
from app.models.providers.offline.calculator import plan_tool_calls
from app.models.providers.offline.composer.wording import in_asked_scale
from app.text.measures import measure_asked
from app.text.question_kinds import asks_growth_rate

CO = ["Ternline"]


def test_form_words_are_not_the_measure() -> None:
    for question, phrase in [
        ("Express Ternline's FY2024 revenue in billions of pounds.", "revenue"),
        ("What was Ternline's FY2024 free cash flow, to the nearest million pounds?", "free cash flow"),
        ("What was Ternline's FY2024 capital expenditure, in the company's reporting currency?", "capital expenditure"),
        ("How much capital expenditure did Ternline incur in FY2024?", "capital expenditure"),
        ("What was Ternline's total FY2024 dividend per share in pence?", "total dividend per share"),
        ("To two decimal places, what was Ternline's FY2024 operating margin?", "operating margin"),
    ]:
        assert measure_asked(question, CO).phrase == phrase, question


def test_the_rounding_asked_is_done_once_from_the_stated_figure() -> None:
    assert in_asked_scale("To two decimal places, what was the margin?", 6.7, "%", 2024) == (
        "6.70% in FY2024 (stated as 6.7%)")
    assert in_asked_scale("Free cash flow, to the nearest million pounds?", 58.3, "£m", 2024) == (
        "£58m in FY2024 (stated as £58.3m)")
    assert in_asked_scale("Revenue growth, to the nearest whole percent?", 4.89, "%", None, "computed") == (
        "5% (computed as 4.89%)")
    # a whole percent rounds a rate, never the amounts it came from
    assert in_asked_scale("Revenue growth, to the nearest whole percent?", 1288.7, "€m", 2024) == "€1,288.7m in FY2024"
    assert in_asked_scale("Revenue in billions of dollars?", 949.3, "$m", 2024) == "$0.95bn in FY2024 (stated as $949.3m)"
    assert in_asked_scale("What was the margin?", 6.7, "%", 2024) == "6.7% in FY2024"


def test_a_growth_rate_asked_as_a_figure_reads_both_years() -> None:
    assert asks_growth_rate("What was Ternline's FY2024 revenue growth?")
    assert not asks_growth_rate("What was Ternline's FY2024 revenue?")
    figures = [Figure(label="Revenue", value=779.3, unit="£m", company="Ternline", fiscal_year=2023, source_id="t"),
               Figure(label="Revenue", value=812.0, unit="£m", company="Ternline", fiscal_year=2024, source_id="t"),
               Figure(label="Organic revenue growth", value=3.9, unit="%", company="Ternline", fiscal_year=2024,
                      source_id="t")]
    assert plan_tool_calls("What was Ternline's FY2024 revenue growth?", figures) == [
        ("growth_rate", {"old": 779.3, "new": 812.0})]
    # never another span than the one asked: FY2023 to FY2024 is no answer about FY2025's growth
    assert plan_tool_calls("What was Ternline's FY2025 revenue growth?", figures) == []


def test_an_outflow_in_a_table_is_stated_as_an_amount() -> None:
    text = "| €m | FY2024 | FY2023 |\n|---|---|---|\n| Capital expenditure | (71.2) | (64.0) |\n"
    doc = Evidence(chunk_id="t::0", source_id="t", text=text, company="Ternline", fiscal_year=2024)
    query = read_query("How much capital expenditure did Ternline incur in FY2024?", CO, [2024])
    assert [f.figure.value for f in choose(facts_for(query, [doc]), query)][:1] == [71.2]


def test_a_segment_table_under_its_heading_gives_each_segments_figure() -> None:
    """'### Segment revenue' (or the chunk's section, when the table was chunked apart from it) over a table
    with a row per segment: each row is a member, the group's row is none."""
    from app.facts.query import member_facts

    table = ("| Segment | FY2024 (€m) | FY2023 (€m) | Change |\n|---|---|---|---|\n| Parcel | 301.9 | 284.5 | +6.1% |\n"
             "| Freight | 248.2 | 231.4 | +7.3% |\n| Group revenue | 550.1 | 515.9 | +6.6% |\n")
    query = read_query("Which of Ternline's segments was the smallest by revenue in FY2024?", CO, [2024])
    headed = Evidence(chunk_id="t::0", source_id="t", text=f"### Segment revenue\n\n{table}", company="Ternline",
                      fiscal_year=2024)
    apart = Evidence(chunk_id="t::1", source_id="t", text=table, company="Ternline", fiscal_year=2024,
                     section="Segment revenue")
    for doc in (headed, apart):
        members = member_facts(query, [doc])
        levels = {(f.segment, f.figure.value) for f in members if f.figure.fiscal_year == 2024
                  and not f.figure.period}
        assert levels == {("Parcel", 301.9), ("Freight", 248.2)}
    profit = Evidence(chunk_id="t::2", source_id="t", text=f"### Segment operating profit\n\n{table}",
                      company="Ternline", fiscal_year=2024)
    assert member_facts(query, [profit]) == []
