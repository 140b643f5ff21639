"""Segment tables whose columns come in groups, as PDF extraction gives them: a measure's years repeated per
measure one cell a line, and each period's amount with its share of the total beside it, the share's sign on the
first row only. Also the rows under a sub-heading that names the measure, a sentence that leads into a table (no
segment's name), and a ranking that reads the page whose table dates its rows.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import choose, facts_for, member_facts, read_query
from app.text.statements import read_statement, stacked_group_rows

COMPANY = "Ternline"

# one cell a line: two measures' names, the unit line, the years of each measure, then each member and its values
STACKED = "\n".join([
    "Table of Contents", "Business Segment Information", "Net Sales", "Operating Income", "(Millions)",
    "2024", "2023", "2022", "2024", "2023", "2022",
    "Freight", "$", "4,210", "$", "3,980", "$", "3,705", "$", "612", "$", "540", "$", "498",
    "Harbour Foods", "1,160", "1,251", "1,242", "(14)", "88", "—",
    "Total Company", "$", "5,370", "$", "5,231", "$", "4,947", "$", "598", "$", "628", "$", "498",
    "Corporate items include costs the Company does not allocate to its segments, which vary from year to year."])

# each period's amount with its share of the total beside it; the rows after the first leave the '%' out
SHARES = """Fiscal Year
2024 2023
In Millions Dollars Percent of Total Dollars
Percent of
Total
Net Sales
Freight $ 4,210.5 78% $ 3,980.2 76%
Harbour Foods 1,160.1 22 1,251.0 24
Total $ 5,370.6 100% $ 5,231.2 100%
Segment Operating Profit
Freight $ 612.0 102% $ 540.3 86%
Harbour Foods (14.0) (2) 88.1 14
Total $ 598.0 100% $ 628.4 100%"""


def _ev(text: str, page: int, *, chunk: int = 0) -> Evidence:
    title = "TERNLINE_2024_10K"
    return Evidence(source_id=f"{title}:p{page}", chunk_id=f"{title}:p{page}::abc::{chunk}", text=text,
                    company=COMPANY, fiscal_year=2024, title=title, page=page, doc_type="report")


def test_a_stacked_table_of_year_groups_is_read_one_measure_per_group() -> None:
    rows = {(r.line_item, r.columns[0]): (r.values, r.periods, r.scale) for r in stacked_group_rows(STACKED)}
    years = ["FY2024", "FY2023", "FY2022"]
    assert rows[("Net Sales", "Freight")] == ([4210.0, 3980.0, 3705.0], years, "millions")
    assert rows[("Operating Income", "Harbour Foods")] == ([-14.0, 88.0, None], years, "millions")
    assert rows[("Operating Income", "Total Company")][0] == [598.0, 628.0, 498.0]
    # the statement reader keeps no row that runs the two measures together under the years repeated
    statement = read_statement(STACKED)
    assert not [r for r in statement.rows if r.line_item in ("Freight", "Harbour Foods")]
    assert {r.line_item for r in statement.rows if r.columns} == {"Net Sales", "Operating Income"}


def test_a_stacked_table_needs_one_name_line_per_group_over_its_years() -> None:
    # a title and one name over two groups: which name is which measure is unknown, so nothing is read
    one_name = STACKED.replace("Operating Income\n", "")
    assert stacked_group_rows(one_name) == []
    # years that repeat nothing are no groups
    plain = "\n".join(["Net Sales", "(Millions)", "2024", "2023", "2022", "Freight", "4,210", "3,980", "3,705"])
    assert stacked_group_rows(plain) == []


def test_a_segment_figure_and_a_ranking_come_from_the_stacked_table() -> None:
    question = "What was the operating income of Ternline's Freight segment in 2024?"
    query = read_query(question, [COMPANY], [2024])
    best = choose(facts_for(query, [_ev(STACKED, 90)], [COMPANY]), query)[0]
    assert (best.figure.value, best.figure.unit, best.figure.fiscal_year, best.segment) == (612.0, "$m", 2024,
                                                                                         "Freight")
    ranked = read_query("Which Ternline segment had the highest net sales in 2024?", [COMPANY], [2024])
    members = {(f.segment, f.figure.value) for f in member_facts(ranked, [_ev(STACKED, 90)], [COMPANY])
               if f.figure.fiscal_year == 2024}
    assert members == {("Freight", 4210.0), ("Harbour Foods", 1160.0)}  # the total is no member


def test_an_amount_with_its_share_beside_it_is_read_on_every_row_of_the_table() -> None:
    rows = [(r.line_item, r.values, r.periods) for r in read_statement(SHARES).rows]
    assert ("Harbour Foods", [1160.1, 1251.0], ["FY2024", "FY2023"]) in rows  # its shares '22' and '24' left out
    assert ("Harbour Foods", [-14.0, 88.1], ["FY2024", "FY2023"]) in rows
    # a table whose rows give no share with its sign: four values under two years stay undated
    bare = SHARES.replace("78%", "78").replace("76%", "76").replace("100%", "100").replace("102%", "102") \
        .replace("86%", "86")
    assert all(r.periods is None for r in read_statement(bare).rows if r.line_item == "Harbour Foods")


def test_rows_under_a_sub_heading_that_names_the_measure_are_its_members() -> None:
    query = read_query("Which Ternline segment had the highest segment operating profit in fiscal 2024?",
                       [COMPANY], [2024])
    members = {(f.segment, f.figure.value) for f in member_facts(query, [_ev(SHARES, 22)], [COMPANY])
               if f.figure.fiscal_year == 2024}
    assert members == {("Freight", 612.0), ("Harbour Foods", -14.0)}  # the net sales rows are another measure's
    sales = read_query("Which Ternline segment had the lowest net sales in fiscal 2024?", [COMPANY], [2024])
    assert {f.segment for f in member_facts(sales, [_ev(SHARES, 22)], [COMPANY])
            if f.figure.fiscal_year == 2024} == {"Freight", "Harbour Foods"}


def test_a_sentence_leading_into_a_table_names_no_segment() -> None:
    text = ("Our operating segment results were as follows:\nFiscal Year\nIn Millions 2024 2023\n"
            "Freight 612.0 540.3\nHarbour Foods (14.0) 88.1\nTotal segment operating profit $ 598.0 $ 628.4\n"
            "Unallocated corporate items 50.1 40.2\nOperating profit $ 547.9 $ 588.2")
    query = read_query("Which Ternline segment had the highest operating profit in fiscal 2024?", [COMPANY], [2024])
    segments = {f.segment for f in member_facts(query, [_ev(text, 90)], [COMPANY])}
    assert not any(s and s.lower().startswith("our") for s in segments), segments
