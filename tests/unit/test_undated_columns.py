"""A properties table that names no period: 'Geographic Area Number of Facilities' / 'Square Feet' /
'(in thousands)' over 'United States 28 4,169'. Each column is a measure of each area, of the period the filing
covers; 'Number of Facilities' takes the lead-in's noun ('the manufacturing facilities'), and answers a question
about manufacturing facilities even when chunking left the lead-in elsewhere. Calloway Medical is a fictional
filer."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.statements import AS_FILED, undated_column_rows
from app.turns import Block

CO = "Calloway Medical"
_TABLE = """Geographic Area Number of Facilities
Square Feet
 (in thousands)
United States 31 4,210
Europe 24 6,020
Africa, Asia and Pacific 22 3,035
Worldwide Total 77 13,265
In addition to the manufacturing facilities discussed above, the Company maintains numerous office facilities."""
_LEAD = "The locations of the manufacturing facilities by major geographic areas of the world are as follows:\n"


def test_each_column_is_a_measure_of_each_area_in_the_filings_period() -> None:
    rows = {(r.line_item, r.columns[0]): r for r in undated_column_rows(_LEAD + _TABLE)}
    count = rows[("Number of manufacturing facilities", "Europe")]
    assert count.values == [24.0] and count.periods == [AS_FILED] and count.scale is None
    area = rows[("Square Feet", "Europe")]
    assert area.values == [6020.0] and area.scale == "thousands"


def test_a_year_above_the_header_leaves_the_table_to_the_dated_readers() -> None:
    assert undated_column_rows("2025\n" + _TABLE) == []


def test_the_area_with_the_most_facilities_leads_without_the_lead_in() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.22 [text]", source_id="CALLOWAY_2025_10K:p22",
                  chunk_id="CALLOWAY_2025_10K:p22::2", company=CO, fiscal_year=2025, page=22, text=_TABLE)
    answer = compose_offline({"question": f"In which geographic area does {CO} operate the most manufacturing "
                                          "facilities, per its 2025 10-K?",
                              "companies": [CO], "fiscal_years": [2025], "blocks": [block]})
    first = answer.split(". ")[0]
    assert first.startswith("United States") and "31" in first and "4,210" not in answer, answer


def test_a_heading_over_a_dated_table_is_no_header_of_measures() -> None:
    text = ("Segment Results of Operations\nFlexibles Segment\n($ in millions) 2025 2024\nNet sales $ 11,154 $ 11,151\n"
            "Adjusted EBIT 1,429 1,517")
    assert undated_column_rows(text) == []
