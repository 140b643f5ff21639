"""'In fiscal 2025, which Harrowgate Foods segment grew segment operating profit faster: Northern Retail or Pet?':
the two segments after the colon are the members compared, the words between the verb and 'faster' their measure;
each member's growth is worked out from its two years' rows of the segment table, never the company's total in
their place. A ranking of the same rows ('which of its two segments earned the least …') reads 'two' as no word of
the measure, and a quarter asked of a table of years gets no year's figure. Harrowgate Foods is a fictional
filer."""

from __future__ import annotations

from app.calc_tools import Figure
from app.evidence import Evidence
from app.facts.query import member_facts, members_query, read_query
from app.models.providers.offline.calculator import plan_tool_calls
from app.models.providers.offline.composer import compose_offline
from app.text.measures import members_compared
from app.turns import Block

QUESTION = "In fiscal 2025, which Harrowgate Foods segment grew segment operating profit faster: Northern Retail or Pet?"
CO = ["Harrowgate Foods"]

_PAGE = """Our operating segment results were as follows:
Fiscal Year
In Millions 2025 2024 2023
Net sales:
Northern Retail $ 10,210.4 $ 9,880.1 $ 9,702.3
Pet 1,702.2 1,431.8 -
Total $ 11,912.6 $ 11,311.9 $ 9,702.3
Operating profit:
Northern Retail $ 2,611.0 $ 2,270.5 $ 2,215.0
Pet 392.3 266.9 -
Total segment operating profit $ 3,003.3 $ 2,537.4 $ 2,215.0
"""


def test_the_members_after_the_colon_are_compared_by_their_growth() -> None:
    pair = members_compared(QUESTION, CO)
    assert pair is not None and (pair.first, pair.second, pair.measure) == ("Northern Retail", "Pet",
                                                                             "operating profit")
    assert pair.of_change
    assert members_compared("Which Harrowgate Foods segment grew operating profit faster in fiscal 2025, Northern "
                            "Retail or Pet?", CO) is not None


def test_each_members_amounts_are_read_not_a_per_cent() -> None:
    pair = members_compared(QUESTION, CO)
    assert pair is not None
    query = members_query(read_query(QUESTION, CO, [2025]), pair.measure, CO)
    assert query.kind != "percent"  # the growth is computed from amounts; no row states it
    doc = Evidence(source_id="HARROWGATE_2025_10K:p90", chunk_id="HARROWGATE_2025_10K:p90::0", text=_PAGE,
                   company="Harrowgate Foods", fiscal_year=2025, title="HARROWGATE_2025_10K", doc_type="report")
    read = {(f.segment, f.figure.fiscal_year): f.figure.value
            for f in member_facts(query, [doc], CO, known=(pair.first, pair.second))}
    assert read[("Pet", 2025)] == 392.3 and read[("Pet", 2024)] == 266.9
    assert read[("Northern Retail", 2025)] == 2611.0 and read[("Northern Retail", 2024)] == 2270.5


def test_the_calculator_works_out_each_members_growth() -> None:
    figures = [Figure(label=f"{member}: Operating profit", value=value, unit="$m", company="Harrowgate Foods",
                      fiscal_year=year, source_id="HARROWGATE_2025_10K:p90", segment=member)
               for member, year, value in (("Northern Retail", 2025, 2611.0), ("Northern Retail", 2024, 2270.5),
                                           ("Pet", 2025, 392.3), ("Pet", 2024, 266.9))]
    plan = plan_tool_calls(QUESTION, figures)
    changes = {(args["old"], args["new"]) for tool, args in plan if tool in ("percentage_change", "growth_rate")}
    assert changes == {(2270.5, 2611.0), (266.9, 392.3)}, plan


def _block() -> Block:
    return Block(n=1, kind="report", header="[1] Harrowgate Foods FY2025, p.90 [text]",
                 source_id="HARROWGATE_2025_10K:p90", chunk_id="HARROWGATE_2025_10K:p90::0",
                 company="Harrowgate Foods", fiscal_year=2025, page=90, text=_PAGE)


def test_the_lowest_row_of_the_year_asked_leads_and_a_count_word_is_no_measure_word() -> None:
    answer = compose_offline({"question": "Which of Harrowgate Foods' two segments earned the least operating profit "
                                          "in fiscal 2025?",
                              "companies": CO, "fiscal_years": [2025], "blocks": [_block()]})
    assert answer.startswith("Pet") and "392.3" in answer.split(". ")[0], answer


def test_a_quarter_asked_of_a_table_of_years_is_not_answered_with_the_year() -> None:
    answer = compose_offline({"question": "Which of Harrowgate Foods' two segments earned the least operating profit "
                                          "in the fourth quarter of 2025?",
                              "companies": CO, "fiscal_years": [2025], "blocks": [_block()]})
    assert "392.3" not in answer and "2,611.0" not in answer, answer


def test_the_quarter_asked_is_compared_never_the_half_beside_it() -> None:
    rows = (("Rooms", "3M", 2025, 706.7), ("Rooms", "3M", 2024, 696.0), ("Rooms", "6M", 2025, 1458.4),
            ("Rooms", "6M", 2024, 1181.3), ("Food and beverage", "3M", 2025, 598.8),
            ("Food and beverage", "3M", 2024, 560.8), ("Food and beverage", "6M", 2025, 1181.4),
            ("Food and beverage", "6M", 2024, 945.0))
    figures = [Figure(label=f"{member}: Revenue", value=value, unit="$m", company="Harrowgate Foods",
                      fiscal_year=year, period=f"{span} {year}-06-30", source_id="HARROWGATE_2025Q2_10Q:p29",
                      segment=member)
               for member, span, year, value in rows]
    plan = plan_tool_calls("In Q2 2025 (three months ended June 30, 2025), which grew faster at Harrowgate Foods: "
                           "rooms revenue or food and beverage revenue?", figures)
    changes = {(args["old"], args["new"]) for tool, args in plan if tool in ("percentage_change", "growth_rate")}
    assert changes == {(696.0, 706.7), (560.8, 598.8)}, plan
