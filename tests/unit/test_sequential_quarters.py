"""A table of quarters in sequence ('December 31, 2025  September 30, 2025  June 30, 2025 …') dates each column by
counting back from the latest: in an annual report the latest is the fourth quarter, in a quarterly filing its
own quarter, and three months earlier is the quarter before. A fictional filer, Quillfire Games, reports its
players so."""

from __future__ import annotations

from app.facts.query import facts_for, read_query
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

_PAGE = """Launches may cause a temporary surge in players, so one quarter's change says little of the trend.
Timing matters. The following table details our average MAUs on a sequential quarterly basis by segment (amounts in
millions):
 December 31, 2025  September 30, 2025  June 30, 2025  March 31, 2025  December 31, 2024  September 30, 2024
Arcade 131  38  39  44  57  49
Puzzle 251  246  259  273  267  263
Total 382  284  298  317  324  312
"""


def _block(source: str, year: int) -> Block:
    return Block(n=1, kind="report", header=f"[1] Quillfire Games FY{year}, p.34 [text]", source_id=f"{source}:p34",
                 chunk_id=f"{source}:p34::0", company="Quillfire Games", fiscal_year=year, page=34, text=_PAGE)


def test_an_annual_reports_latest_quarter_column_is_its_fourth_and_the_others_count_back() -> None:
    query = read_query("What were Quillfire Games' average MAUs for its Puzzle segment in the fourth quarter of 2025?",
                       ["Quillfire Games"], [2025])
    dated = {(f.figure.fiscal_year, f.part): f.figure.value for f in facts_for(
        query, [_block("QUILLFIRE_2025_10K", 2025)], ["Quillfire Games"]) if f.segment == "Puzzle"}
    assert dated[(2025, "Q4")] == 251 and dated[(2025, "Q3")] == 246 and dated[(2025, "Q1")] == 273
    assert dated[(2024, "Q4")] == 267 and dated[(2024, "Q3")] == 263


def test_a_quarterly_filings_sequence_counts_back_from_its_own_quarter() -> None:
    query = read_query("What were Quillfire Games' average MAUs for its Puzzle segment in the third quarter of 2025?",
                       ["Quillfire Games"], [2025])
    # (a fourth-quarter release names its quarter; the same columns read as of a Q4 filing)
    dated = {(f.figure.fiscal_year, f.part): f.figure.value for f in facts_for(
        query, [_block("QUILLFIRE_2025Q4_EARNINGS", 2025)], ["Quillfire Games"]) if f.segment == "Puzzle"}
    assert dated[(2025, "Q3")] == 246 and dated[(2024, "Q4")] == 267


def test_the_fourth_quarters_figure_answers_a_question_about_the_fourth_quarter() -> None:
    answer = compose_offline({"question": "What were average monthly active users (MAUs) for Quillfire Games' Puzzle "
                                          "segment in the fourth quarter of 2025 (three months ended December 31, "
                                          "2025)?",
                              "companies": ["Quillfire Games"], "fiscal_years": [2025],
                              "blocks": [_block("QUILLFIRE_2025_10K", 2025)]})
    first = answer.split(". ")[0]
    assert "251" in first and "246" not in first and "Insufficient" not in answer, answer
