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


# a divisions table whose divisions are named by initials and after regions, two measures of years side by side;
# its total row stands in the next chunk of the page, and the filing's income statement gives the scale
DIVISIONS_TOP = """Net Revenue Operating Profit/(Loss)
2024 2023 2022 2024 2023 2022
TFNA $ 12,410 $ 11,902 $ 10,877 $ 2,105 $ 1,980 $ 1,702
HFNA 3,160 2,751 2,742 604 578 669
LatAm 2,779 2,108 1,942 627 369 333
Europe 1,724 1,038 922 (380) 292 353
APAC 787 615 445 137 173 190
Corporate unallocated expenses — — — (503) (483) (442)"""
DIVISIONS_TOTAL = """Net Revenue Operating Profit/(Loss)
2024 2023 2022 2024 2023 2022
Total $ 20,860 $ 18,414 $ 16,928 $ 2,590 $ 2,909 $ 2,805"""
INCOME = """Consolidated Statement of Income
Ternline Inc. and Subsidiaries
(in millions)
2024 2023 2022
Net Revenue $ 20,860 $ 18,414 $ 16,928
Operating Profit 2,590 2,909 2,805"""


def test_a_division_named_by_its_initials_before_a_line_item_is_the_segment_asked() -> None:
    from app.text.measures import measure_asked

    asked = measure_asked("What was Ternline's HFNA net revenue in 2024?", [COMPANY])
    assert (asked.segment, asked.phrase) == ("HFNA", "net revenue")
    # an initialism before what is no line item is the measure's own word
    assert measure_asked("What was the CEO pay in 2024?", [COMPANY]).segment is None
    assert measure_asked("What was Ternline's EBITDA margin in 2024?", [COMPANY]).segment is None


def test_the_segments_row_is_read_from_the_chunk_of_its_table_that_search_left_out() -> None:
    from nodes.inputs import segment_continuations

    top, total, income = _ev(DIVISIONS_TOP, 70, chunk=1), _ev(DIVISIONS_TOTAL, 70, chunk=2), _ev(INCOME, 62)

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return {70: [top, total], 62: [income]}.get(page, [])

    question = "What was Ternline's HFNA net revenue in 2024?"
    assert segment_continuations(question, [income, total], page_fn, [COMPANY]) == [
        top.model_copy(update={"score": total.score, "why": segment_continuations(
            question, [income, total], page_fn, [COMPANY])[0].why})]
    # held already, or no segment asked: nothing more is read
    assert segment_continuations(question, [income, total, top], page_fn, [COMPANY]) == []
    assert segment_continuations("What was Ternline's net revenue in 2024?", [income, total], page_fn,
                                 [COMPANY]) == []
    query = read_query(question, [COMPANY], [2024])
    best = choose(facts_for(query, [income, total, top], [COMPANY]), query)[0]
    assert (best.figure.value, best.figure.unit, best.segment) == (3160.0, "$m", "HFNA")


def test_divisions_named_after_regions_are_ranked_with_the_others_and_corporate_is_none() -> None:
    from app.facts.members import asked_kind_of_member
    from app.facts.query import member_table, members_in_filing_scale

    docs = [_ev(DIVISIONS_TOP, 70, chunk=1), _ev(INCOME, 62)]
    question = "Which of Ternline's divisions had the highest operating profit in 2024?"
    query = read_query(question, [COMPANY], [2024])
    members = [f for f in member_facts(query, docs, [COMPANY]) if f.figure.fiscal_year == 2024]
    kept = asked_kind_of_member(members, question, lambda f: f.segment or "", member_table)
    assert {f.segment for f in kept} == {"TFNA", "HFNA", "LatAm", "Europe", "APAC"}  # corporate is no division
    # without the table to tell, places are no segments
    assert "Europe" not in {f.segment for f in asked_kind_of_member(members, question, lambda f: f.segment or "")}
    scaled = members_in_filing_scale(kept, query, docs, [COMPANY])
    assert {f.figure.unit for f in scaled} == {"$m"}  # the income statement's scale


def test_a_ranking_of_amounts_takes_no_rates_for_them() -> None:
    from app.models.providers.offline.composer.analyst import Analyst
    from app.turns import Block

    rates = """RESULTS OF OPERATIONS
Net Sales
2024 2023 2022
Net Sales $ 20,860 $ 18,414 $ 16,928
Increases in net sales:
Freight 16 % 9 % 9 %
Harbour Foods 22 % 5 % 3 %
Total Company 18 % 9 % 8 %"""
    block = Block(n=1, kind="report", header="[1] Ternline FY2024 p.25", text=rates, source_id="TERNLINE_2024_10K:p25",
                  chunk_id="TERNLINE_2024_10K:p25::abc::0", company=COMPANY, fiscal_year=2024, page=25)
    question = "Which Ternline segment had the highest net sales in 2024?"
    sentences = Analyst({"blocks": [block], "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()
    assert not any("22%" in s for s in sentences), sentences  # a growth rate is no amount of net sales


def test_amounts_a_table_gives_with_its_currency_alone_take_the_filings_scale() -> None:
    from app.facts.query import members_in_filing_scale, row_members

    summary = """Our cash flows are summarized below:
2024 2023
Net cash provided by operating activities $ 2,810 $ 2,616
Net cash used for investing activities $ (1,430) $ (1,250)
Net cash used for financing activities $ (1,223) $ (1,100)"""
    cash = _ev(summary, 54)
    statement = _ev("Consolidated Statement of Cash Flows\n(in millions)\n2024 2023\n"
                    "Net Cash Provided by Operating Activities 2,810 2,616", 64)
    question = "Which activity brought in the most cash for Ternline in 2024?"
    query = read_query(question, [COMPANY], [2024])
    rows = row_members("activity", query, [cash], [COMPANY], question)
    assert rows and {f.figure.unit for f in rows} == {"$"}
    scaled = members_in_filing_scale(rows, query, [cash, statement], [COMPANY])
    assert {f.figure.unit for f in scaled} == {"$m"}


def test_segments_that_are_all_places_are_the_segments_asked() -> None:
    from app.facts.members import asked_kind_of_member

    members = ["United States", "Canada", "Other International"]
    question = "Which of Ternline's three reportable segments posted the fastest net sales growth in 2024?"
    assert asked_kind_of_member(members, question, str) == members
    assert asked_kind_of_member(members, question, str, lambda m: "segment note") == members
    # beside segments of another kind, places are still left out
    assert asked_kind_of_member([*members, "Freight"], question, str) == ["Freight"]
