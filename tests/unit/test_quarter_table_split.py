"""A segment table of the fourth quarter as PDF extraction writes it one cell a line, its groups headed by the day
the quarter ends ('Three months ended' / 'December 31, 2025'), which chunking cut between its header and its rows.
The two chunks are read as one table when both are at hand; each group is the quarter's, not the year's; the
lowest row leads, cited to both chunks (the period stands in one, the figure in the other). Vardane Industrial is
a fictional filer."""

from __future__ import annotations

from app.facts.query import split_tables
from app.models.providers.offline.composer import compose_offline
from app.text.statements import year_spanned_rows
from app.turns import Block

CO = "Vardane Industrial"
_HEAD = "\n".join([
    "Fourth-quarter 2025 sales and operating income by business segment:", "Three months ended", "Three months ended",
    "2025 vs 2024", "December 31, 2025", "December 31, 2024", "% change", "Net", "% of", "Oper.", "Net", "% of"])
_ROWS = "\n".join([
    "Oper.", "Net", "Oper.", "(Dollars in millions)", "Sales", "Total", "Income", "Sales", "Total", "Income", "Sales",
    "Income", "Business Segments",
    "Industrial", "$", "2,950", "52.0", "%", "$", "630", "$", "2,960", "51.8", "%", "$", "581", "(0.3)", "%", "8.4", "%",
    "Consumer", "1,210", "21.3", "255", "1,212", "21.2", "270", "(0.2)", "(5.6)",
    "Health Care", "1,515", "26.7", "455", "1,540", "27.0", "462", "(1.6)", "(1.5)",
    "Total Company", "$", "5,675", "100.0", "%", "$", "1,340", "$", "5,712", "100.0", "%", "$", "1,313", "(0.6)", "%",
    "2.1", "%"])


def _block(n: int, text: str, chunk: int) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {CO} FY2025, p.21 [text]", source_id="VARDANE_2025_10K:p21",
                 chunk_id=f"VARDANE_2025_10K:p21::ab12::{chunk}", company=CO, fiscal_year=2025, page=21, text=text)


def test_groups_headed_by_the_day_a_quarter_ends_are_that_quarters() -> None:
    rows = [r for r in year_spanned_rows(f"{_HEAD}\n{_ROWS}") if r.line_item == "Oper. Income"]
    consumer = next(r for r in rows if r.columns[0] == "Consumer")
    assert consumer.values == [255.0, 270.0, -5.6]
    assert consumer.periods == ["3M 2025-12-31", "3M 2024-12-31", "% change"]


def test_a_header_cut_from_its_rows_is_joined_to_them_and_nothing_else_is() -> None:
    joined = split_tables([_block(1, _HEAD, 0), _block(2, _ROWS, 1)])
    assert len(joined) == 1 and joined[0].chunk_id.endswith("::1") and joined[0].head_chunk_id.endswith("::0")
    assert split_tables([_block(1, _HEAD, 0), _block(2, _ROWS, 2)]) == []  # not the next chunk: no join


def test_the_lowest_segment_of_the_quarter_leads_cited_to_both_chunks() -> None:
    answer = compose_offline({"question": f"Which of {CO}'s three business segments earned the least operating income "
                                          "in the fourth quarter of 2025?",
                              "companies": [CO], "fiscal_years": [2025],
                              "blocks": [_block(1, _HEAD, 0), _block(2, _ROWS, 1)]})
    first = answer.split(". ")[0]
    assert first.startswith("Consumer") and "$255m" in first and "[1][2]" in first, answer
