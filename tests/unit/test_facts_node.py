"""nodes.facts.read_facts: what the supervisor's facts step writes into `facts` for a figure question, a change
question and the largest or smallest of a breakdown, read from the admitted report evidence and news.

Every company, page and figure here is made up, written as pypdf extracts statement pages.
"""

from __future__ import annotations

import pytest

from app.evidence import Evidence, RetrievalResult
from nodes.facts import read_facts

COMPANY = "Tallowmere Foods"

INCOME = """Tallowmere Foods plc
Consolidated Income Statement
(£ millions)
2024
2023
2022
Revenue
1,311.2
1,204.6
1,150.3
Operating profit
142.8
131.0
(12.4)
"""

REVENUE_BY_REGION = """Revenue by region
£ million 2024 2023 Change in %
United Kingdom 682.6 717.5 –4.9
Ireland 410.2 388.0 5.7
Rest of Europe 218.4 99.1 120.4
Total 1,311.2 1,204.6 8.8
"""

SEGMENT_NOTE = """6 Segment reporting
in £ million Bakery Dairy Corporate Group
2024
Operating profit 98.4 62.1 (17.7) 142.8
2023
Operating profit 90.2 55.9 (15.1) 131.0
"""


def evidence(text: str, chunk_id: str = "tf-ar24-88") -> Evidence:
    return Evidence(chunk_id=chunk_id, source_id="tallowmere-ar-2024", company=COMPANY, fiscal_year=2024, page=88,
                    text=text)


def state(question: str, *texts: str) -> dict:
    return {"question": question, "companies": [COMPANY], "fiscal_years": [],
            "retrieval_result": RetrievalResult(status="found", evidence=[evidence(t) for t in texts])}


def test_a_figure_question_writes_the_statement_fact_of_the_year_asked_else_the_latest() -> None:
    facts = read_facts(state("What was Tallowmere Foods' revenue in FY2023?", INCOME))["facts"]
    assert [(f.label, f.value, f.unit, f.fiscal_year, f.origin, f.segment) for f in facts] == [
        ("Revenue", 1204.6, "£m", 2023, "statement", None)]
    assert (facts[0].company, facts[0].chunk_id, facts[0].page) == (COMPANY, "tf-ar24-88", 88)
    latest = read_facts(state("What was Tallowmere Foods' operating profit?", INCOME))["facts"]
    assert [(f.value, f.fiscal_year) for f in latest] == [(142.8, 2024)]  # no period named: the latest


def test_a_change_question_writes_the_earlier_then_the_later_periods_fact() -> None:
    between = read_facts(state("How did Tallowmere Foods' operating profit change between 2022 and 2024?", INCOME))
    assert [(f.value, f.fiscal_year) for f in between["facts"]] == [(-12.4, 2022), (142.8, 2024)]
    did = read_facts(state("Did Tallowmere Foods' revenue increase in FY2024?", INCOME))
    assert [(f.value, f.fiscal_year) for f in did["facts"]] == [(1204.6, 2023), (1311.2, 2024)]


def test_an_extreme_question_writes_each_member_named_in_its_label_without_the_total_or_changes() -> None:
    facts = read_facts(state("Which region had the weakest revenue development for Tallowmere Foods in 2024?",
                             REVENUE_BY_REGION))["facts"]
    assert [(f.segment, f.value, f.fiscal_year) for f in facts] == [
        ("United Kingdom", 682.6, 2024), ("United Kingdom", 717.5, 2023), ("Ireland", 410.2, 2024),
        ("Ireland", 388.0, 2023), ("Rest of Europe", 218.4, 2024), ("Rest of Europe", 99.1, 2023)]
    assert all(f.label.startswith(f"{f.segment}: ") for f in facts)


def test_an_extreme_questions_member_labels_name_the_measure() -> None:
    facts = read_facts(state("Which region had the weakest revenue development for Tallowmere Foods in 2024?",
                             REVENUE_BY_REGION))["facts"]
    assert facts and all("revenue" in f.label.casefold() for f in facts)


def test_an_extreme_question_over_segment_columns_leaves_corporate_and_group_out() -> None:
    facts = read_facts(state("Which segment had the highest operating profit for Tallowmere Foods in 2024?",
                             SEGMENT_NOTE))["facts"]
    assert [(f.label, f.value, f.fiscal_year) for f in facts] == [
        ("Bakery: Operating profit", 98.4, 2024), ("Dairy: Operating profit", 62.1, 2024),
        ("Bakery: Operating profit", 90.2, 2023), ("Dairy: Operating profit", 55.9, 2023)]


def test_a_segment_question_writes_only_that_segments_figure() -> None:
    facts = read_facts(state("What was the Dairy segment's operating profit for Tallowmere Foods in 2024?",
                             SEGMENT_NOTE))["facts"]
    assert [(f.value, f.segment) for f in facts] == [(62.1, "Dairy")]


def test_news_is_read_beside_the_report_evidence() -> None:
    news = Evidence(chunk_id="news-3", source_id="wire-2024-07-02", company=COMPANY, fiscal_year=2024, doc_type="news",
                    text="Tallowmere Foods said revenue was £1,311.2 million in FY2024.")
    facts = read_facts({"question": "What was Tallowmere Foods' revenue in FY2024?", "companies": [COMPANY],
                        "retrieval_result": None, "news": [news]})["facts"]
    assert [(f.value, f.unit, f.fiscal_year, f.origin, f.chunk_id) for f in facts] == [
        (1311.2, "£m", 2024, "text", "news-3")]


@pytest.mark.parametrize("empty", [
    {},
    {"retrieval_result": None, "news": []},
    {"retrieval_result": RetrievalResult(status="insufficient", evidence=[])},
])
def test_no_evidence_writes_no_facts(empty: dict) -> None:
    assert read_facts({"question": "What was Tallowmere Foods' revenue in FY2024?", **empty}) == {"facts": []}
