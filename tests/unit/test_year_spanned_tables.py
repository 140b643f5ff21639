"""Segment tables whose years each head a group of columns, as PDF extraction gives them one cell a line: '2024' /
'2023' / '% change' over the same names under each year ('Net Sales' / '% of Total' / 'Operating' / 'Income
(Loss)'), the change's names under it, then each member and its values. Also the page's chunks: the years stay
with their table, and a later table on the page that a period line of its own heads is not read under them.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import member_facts, read_query
from app.knowledge.chunking import chunk_record
from app.knowledge.records import SourceRecord
from app.text.statements import read_statement, year_spanned_rows

COMPANY = "Ternline"

# one year's names wrapped over two lines ('Operating' / 'Income (Loss)'), the change's names under '% change',
# the share's sign on the first row only, and a corporate row with no change
SPANNED = "\n".join([
    "Sales and operating income (loss) by business segment:", "2024", "2023", "% change", "(Dollars in millions)",
    "Net Sales", "% of Total", "Operating", "Income (Loss)", "Net Sales", "% of Total", "Operating",
    "Income (Loss)", "Net Sales", "Operating Income", "(Loss)", "Business Segments",
    "Freight", "$", "4,210", "61.2", "%", "$", "612", "$", "3,980", "60.1", "%", "$", "540", "5.8", "%", "13.3", "%",
    "Harbour Foods", "2,160", "31.4", "(14)", "2,151", "32.5", "188", "0.4", "(107.4)",
    "Rail Services", "508", "7.4", "96", "490", "7.4", "101", "3.7", "(5.0)",
    "Corporate and Unallocated", "2", "—", "(120)", "1", "—", "(95)",
    "Total Company", "$", "6,880", "100.0", "%", "$", "574", "$", "6,622", "100.0", "%", "$", "734", "3.9", "%",
    "(21.8)", "%"])

# the names in two tiers, the unit line between them ('Net' / '% of' / 'Oper.' … over 'Sales' / 'Total' / 'Income')
TIERS = "\n".join([
    "2024 vs 2023", "2024", "2023", "% change", "Net", "% of", "Oper.", "Net", "% of", "Oper.", "Net", "Oper.",
    "(Dollars in millions)", "Sales", "Total", "Income", "Sales", "Total", "Income", "Sales", "Income",
    "Business Segments",
    "Freight", "$", "4,210", "61.2", "%", "$", "612", "$", "3,980", "60.1", "%", "$", "540", "5.8", "%", "13.3", "%",
    "Harbour Foods", "2,160", "31.4", "(14)", "2,151", "32.5", "188", "0.4", "(107.4)"])


def _ev(text: str, page: int) -> Evidence:
    title = "TERNLINE_2024_10K"
    return Evidence(source_id=f"{title}:p{page}", chunk_id=f"{title}:p{page}::abc::0", text=text, company=COMPANY,
                    fiscal_year=2024, title=title, page=page, doc_type="report")


def _rows(text: str) -> dict[tuple[str, str], tuple[list[float | None], list[str], str, str | None]]:
    return {(r.columns[0], r.line_item): (r.values, r.periods, r.unit, r.scale) for r in year_spanned_rows(text)}


def test_each_years_group_of_columns_is_read_one_measure_per_name() -> None:
    rows = _rows(SPANNED)
    assert rows[("Freight", "Operating Income (Loss)")] == ([612.0, 540.0, 13.3], ["FY2024", "FY2023", "% change"],
                                                          "$", "millions")
    assert rows[("Harbour Foods", "Operating Income (Loss)")][0] == [-14.0, 188.0, -107.4]
    assert rows[("Harbour Foods", "Net Sales")][0] == [2160.0, 2151.0, 0.4]
    # the share has no change column, and its rows after the first, which leave out the sign, are shares too
    assert rows[("Harbour Foods", "% of Total")] == ([31.4, 32.5], ["FY2024", "FY2023"], "%", None)
    # a row without the change's values keeps its years' values
    assert rows[("Corporate and Unallocated", "Operating Income (Loss)")][:2] == ([-120.0, -95.0],
                                                                                ["FY2024", "FY2023"])
    assert rows[("Total Company", "Net Sales")][0] == [6880.0, 6622.0, 3.9]


def test_names_in_two_tiers_are_joined_column_by_column() -> None:
    rows = _rows(TIERS)
    assert rows[("Freight", "Oper. Income")][0] == [612.0, 540.0, 13.3]
    assert rows[("Harbour Foods", "Net Sales")][0] == [2160.0, 2151.0, 0.4]


def test_names_that_account_for_no_row_read_nothing() -> None:
    # a name missing from one year's group: the groups no longer repeat, so which value is which is unknown
    assert year_spanned_rows(SPANNED.replace("% of Total\nOperating\nIncome (Loss)\nNet Sales\nOperating Income",
                                             "Operating\nIncome (Loss)\nNet Sales\nOperating Income", 1)) == []
    # a change column whose name is no year's column's
    assert year_spanned_rows(SPANNED.replace("Net Sales\nOperating Income\n(Loss)", "Net Sales\nBacklog")) == []
    # years that repeat are measure groups, another reader's
    assert year_spanned_rows(SPANNED.replace("2023\n% change", "2024\n% change", 1)) == []


def test_the_statement_reader_keeps_no_row_that_runs_a_members_columns_together() -> None:
    statement = read_statement(SPANNED)
    assert not [r for r in statement.rows if r.line_item in ("Freight", "Harbour Foods", "Total Company")]
    assert {r.line_item for r in statement.rows if r.columns} == {"Net Sales", "% of Total",
                                                                  "Operating Income (Loss)"}


def test_two_segments_compared_on_operating_income_read_each_ones_row() -> None:
    query = read_query("Which Ternline business segment reported higher operating income in 2024, Freight or "
                       "Harbour Foods?", [COMPANY], [2024])
    members = {(f.segment, f.figure.value, f.figure.unit) for f in member_facts(query, [_ev(SPANNED, 25)], [COMPANY])
               if f.figure.fiscal_year == 2024}
    assert ("Freight", 612.0, "$m") in members and ("Harbour Foods", -14.0, "$m") in members
    assert not any(value in (61.2, 31.4, 4210.0) for _, value, _ in members)  # shares and sales are not it


PAGE = "\n".join([
    "Sales and operating income (loss) by business segment:",
    "The following tables contain sales and operating income (loss) results by business segment for the years "
    "ended December 31, 2024 and 2023. Refer to Note 19 for",
    "additional information on business segments.",
    *SPANNED.split("\n")[1:],
    "Year ended December 31, 2024", "Worldwide Sales Change", "By Business Segment", "Organic sales",
    "Acquisitions", "Translation", "Total sales change",
    "Freight", "1.0", "%", "—", "%", "(4.2)", "%", "(3.2)", "%",
    "Harbour Foods", "3.2", "—", "(3.8)", "(2.0)",
    "Rail Services", "1.1", "2.0", "(0.4)", "2.7"])


def test_the_years_go_with_their_table_and_a_later_table_takes_its_own_period_line() -> None:
    record = SourceRecord(source_id="t", title="TERNLINE_2024_10K", text=PAGE, origin="t", pages=[(25, PAGE)])
    chunks = chunk_record(record, max_tokens=256, overlap=0)
    spanned = [c for c in chunks if "Harbour Foods\n2,160" in c.text]
    assert spanned and spanned[0].text.index("2024\n2023\n% change") < spanned[0].text.index("Net Sales")
    assert not any(c.text.rstrip().endswith("2024\n2023") for c in chunks)  # no years left at a chunk's end
    later = [c for c in chunks if "Harbour Foods\n3.2" in c.text]
    assert later and "% change\n(Dollars in millions)" not in later[0].text
    # nothing of the later table is read as a year's value of a segment
    rows = [r for c in later for r in read_statement(c.text).rows if r.periods and r.line_item == "Harbour Foods"]
    assert not any(p.startswith("FY") for r in rows for p in r.periods)
