"""A segment note whose column names wrap over lines of their own above its year blocks ('United States' /
'Operations' / 'Canadian' / 'Operations' / … / '2021' / 'Total revenue $ 141,398 $ 27,298 …'), as 10-K segment
notes are extracted: each row read with its segment columns and year, a '$' before each value no value of its
own; and a question that names such a segment ('its Canadian Operations segment') asks for it by its whole name.
Every company and figure here is made up (Harlow Wholesale)."""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.text.measures import measure_asked
from app.text.statements import year_block_rows
from app.turns import Block

CO = "Harlow Wholesale"
NOTE = ("Note 12—Segment Reporting\n"
        "The following table provides information for the Company's reportable segments:\n"
        "United States\nOperations\nCanadian\nOperations\nOther\nInternational\nOperations Total\n"
        "2024\n"
        "Total revenue $ 141,398 $ 27,298 $ 27,233 $ 195,929\n"
        "Operating income 4,262 1,176 1,270 6,708\n"
        "2023\n"
        "Total revenue $ 122,142 $ 22,434 $ 22,185 $ 166,761\n"
        "Operating income 3,633 860 942 5,435\n")


def test_wrapped_segment_names_give_each_row_its_columns_and_year():
    rows = year_block_rows(NOTE)
    assert [(r.line_item, r.periods[0]) for r in rows] == [
        ("Total revenue", "FY2024"), ("Operating income", "FY2024"),
        ("Total revenue", "FY2023"), ("Operating income", "FY2023")]
    assert rows[0].columns == ["United States Operations", "Canadian Operations", "Other International Operations",
                               "Total"]
    assert rows[0].values == [141398.0, 27298.0, 27233.0, 195929.0] and rows[0].unit == "$"
    # a run of names that does not end right above a year line is no header
    prose = NOTE.replace("Operations Total\n2024\n", "Operations Total\nwere as follows for the year:\n2024\n")
    assert year_block_rows(prose) == []


def test_a_segment_named_with_the_word_operations_keeps_it_and_its_row_answers():
    asked = measure_asked(f"What was the total revenue of {CO}'s Canadian Operations segment in fiscal 2024?", [CO])
    assert (asked.phrase, asked.segment) == ("total revenue", "Canadian Operations")
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024, p.64 [text]", text=NOTE,
                  source_id="HARLOW_2024_10K", chunk_id="HARLOW_2024_10K:p64::0", company=CO, fiscal_year=2024,
                  page=64)
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024]},
                   f"What was the total revenue of {CO}'s Canadian Operations segment in fiscal 2024?").figure_answer()
    assert said and "Canadian Operations segment total revenue was $27,298 in FY2024" in said[0]


def test_a_year_twice_in_a_header_that_names_no_groups_dates_neither_column():
    from app.text.statements import read_statement

    # a release's summary table whose 'Fourth Quarter' and 'Fiscal Year' headings the chunk cut off
    text = "(Dollars in millions)\n2024\n2023\n2024\n2023\nNew store openings, net\n12\n6\n47\n44\n"
    [row] = read_statement(text).rows
    assert row.values == [12.0, 6.0, 47.0, 44.0]
    assert not any(p.startswith("FY20") for p in row.periods)  # no column is taken for the year's figure
    [plain] = read_statement("(Dollars in millions)\n2024\n2023\nNew store openings, net\n47\n44\n").rows
    assert plain.periods == ["FY2024", "FY2023"]
