"""A growth asked of a measure the calculator has no two levels of: the rate the report states, from a table's change
column in the level's own row or from a sentence whose own words name the measure, never a level in its place
(a share of sales is no amount of sales). A segment the question writes in lower case before the measure
('wireless service revenue') is read as the segment the report names.

Every company, page and figure here is made up (Halloran Telecom, Brightwick Home).
"""

from __future__ import annotations

from app.facts.query import name_read_as_segment, read_query
from app.evidence import Evidence
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

TELECOM = "Halloran Telecom"
RETAIL = "Brightwick Home"
SEGMENTS = "We have three reportable segments: Wireless, Wireline and Media."
WIRELESS = ("Management's Discussion and Analysis\nWireless financial results\nYears ended December 31\n"
            "(in millions of Canadian dollars)\n2024 2023 % Chg\nService revenue 1,812.4 1,760.0 3.0\n"
            "Equipment revenue 402.1 396.5 1.4\nRevenue 2,214.5 2,156.5 2.7")
GROUP = ("Consolidated revenue increased by $61.2 million, or 1.5%, to $4,120.7 million, as growth in Wireless "
         "service revenue more than offset lower television revenue.")
TRADING = ("Group revenue rose 4.1% to £912.3 million, with store like-for-likes up 0.4% and online sales up 9.8%. "
           "Online sales reached 31.5% of retail sales, compared with 29.9% a year earlier.")


def _blocks(company: str, *texts: str) -> list[Block]:
    return [Block(n=k, kind="report", header=f"[{k}] {company} FY2024, p.{k} [text]", source_id=f"src-{k}",
                  chunk_id=f"c-{k}", company=company, fiscal_year=2024, page=k, text=t)
            for k, t in enumerate(texts, start=1)]


def _answer(question: str, company: str, *texts: str) -> str:
    return compose_offline({"question": question, "companies": [company], "fiscal_years": [2024],
                            "blocks": _blocks(company, *texts)})


def test_a_segment_written_in_lower_case_before_the_measure_is_the_segment_the_report_names() -> None:
    query = read_query(f"What was {TELECOM}'s wireless service revenue in 2024?", [TELECOM], [2024])
    docs = [Evidence(chunk_id="c", source_id="s", company=TELECOM, fiscal_year=2024, text=SEGMENTS)]
    read = name_read_as_segment(query, docs)
    assert (read.measure.segment, read.measure.phrase) == ("Wireless", "service revenue")
    assert name_read_as_segment(query, []).measure.segment is None  # no segment of that name: as asked


def test_a_growth_is_the_change_column_in_the_segments_row_with_its_two_levels() -> None:
    answer = _answer(f"What was {TELECOM}'s wireless service revenue growth in 2024?", TELECOM, WIRELESS, GROUP)
    assert answer.startswith(f"{TELECOM}'s Wireless service revenue rose 3.0% in FY2024, to C$1,812.4m, from "
                             f"C$1,760.0m"), answer
    assert "1.5%" not in answer  # the group's revenue growth is not the segment's


def test_a_growth_stated_in_a_sentence_names_the_measure_and_a_share_is_no_amount() -> None:
    answer = _answer(f"What was {RETAIL}'s online sales growth in FY2024?", RETAIL, TRADING)
    assert answer.startswith(f"{RETAIL}'s online sales rose 9.8% in FY2024 [1]"), answer
    level = _answer(f"What were {RETAIL}'s online sales in FY2024?", RETAIL, TRADING)
    assert "online sales were 31.5%" not in level, level
