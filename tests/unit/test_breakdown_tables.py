"""Breakdowns a report gives in tables other than one table of members: a table of one year whose columns are
segments and whose rows are regions ('Year Ended June 30, 2024' / '($ in millions) Freight' / 'Harbour' / 'Foods
Total' / 'North America $ …'), and one numbered table per segment ('TABLE 9: FRS SELECTED INCOME STATEMENT DATA').
Also what a ranking question searches for and reads on to: the breakdown's table, not the whole company's
statement, and the table a passage further down leads into.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import breakdown_measure, member_facts, members_query, read_query
from app.knowledge.pages import statements_wanted
from app.knowledge.search import region_row_chunks
from app.models.providers.offline.composer.analyst import Analyst
from app.text.places import regions_asked
from app.text.statements import dated_column_rows, read_statement
from app.turns import Block

COMPANY = "Ternline"

# the second column's name wraps ('Harbour' / 'Foods'), so 'Freight Harbour' / 'Foods' would fit as well: only
# the total column is named beyond doubt
BY_REGION = """Year Ended June 30, 2024
($ in millions) Freight
Harbour
Foods Total
North America $ 2,411 $ 1,745 $ 4,156
Latin America 614 395 1,009
Europe (1) 1,952 — 1,952
Asia Pacific 677 — 677
Net sales $ 5,654 $ 2,140 $ 7,794
Year Ended June 30, 2023"""


def _ev(text: str, page: int, chunk: int = 0) -> Evidence:
    title = "TERNLINE_2024_10K"
    return Evidence(source_id=f"{title}:p{page}", chunk_id=f"{title}:p{page}::abc::{chunk}", text=text,
                    company=COMPANY, fiscal_year=2024, title=title, page=page, doc_type="report")


def _block(n: int, text: str, page: int) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {COMPANY} FY2024 p.{page}", text=text,
                 source_id=f"TERNLINE_2024_10K:p{page}", chunk_id=f"TERNLINE_2024_10K:p{page}::abc::0",
                 company=COMPANY, fiscal_year=2024, page=page)


def test_a_table_of_one_year_reads_the_columns_its_header_names_beyond_doubt() -> None:
    rows = {r.line_item: (r.values, r.columns, r.periods) for r in dated_column_rows(BY_REGION)}
    assert rows["North America"] == ([4156.0], ["Total"], ["FY2024"])
    assert rows["Europe"][0] == [1952.0]  # its note mark '(1)' is no value
    assert rows["Net sales"][0] == [7794.0]
    # with the segment's name known, every column is named
    known = {r.line_item: (r.values, r.columns) for r in dated_column_rows(BY_REGION, ["Harbour Foods"])}
    assert known["North America"] == ([2411.0, 1745.0, 4156.0], ["Freight", "Harbour Foods", "Total"])
    # no period line over it: nothing is read
    assert dated_column_rows(BY_REGION.replace("Year Ended June 30, 2024\n", "")) == []


def test_regions_as_rows_are_ranked_by_the_whole_column_that_adds_up_to_the_measure() -> None:
    query = read_query("Which region had the highest net sales for Ternline in fiscal 2024?", [COMPANY], [2024])
    members = {(f.segment, f.figure.value) for f in member_facts(query, [_ev(BY_REGION, 103)], [COMPANY])
               if f.figure.fiscal_year == 2024}
    assert members == {("North America", 4156.0), ("Latin America", 1009.0), ("Europe", 1952.0),
                       ("Asia Pacific", 677.0)}
    # rows that do not add up to the measure's total are no breakdown of it
    off = BY_REGION.replace("Asia Pacific 677 — 677", "Asia Pacific 677 — 977")
    assert not [f for f in member_facts(query, [_ev(off, 103)], [COMPANY]) if f.segment == "North America"]
    sentences = Analyst({"blocks": [_block(1, BY_REGION, 103)], "companies": [COMPANY], "fiscal_years": [2024]},
                        "Which region had the highest net sales for Ternline in fiscal 2024?").sentences()
    assert sentences[0].startswith("North America had the highest net sales in FY2024: $4,156m"), sentences


def _segment_table(number: int, name: str, income: str) -> str:
    return (f"TABLE {number}: {name} SELECTED INCOME STATEMENT DATA\nYears Ended December 31, Change\n"
            f"(Millions, except percentages) 2024 2023 2024 vs. 2023\nTotal expenses 1,210 1,105 105 10 %\n"
            f"Pretax segment income $ {income} $ 1,000 $ 5 1 %")


def test_one_numbered_table_per_segment_names_its_segment_and_each_is_cited_for_its_own_figure() -> None:
    question = "Which of Ternline's reportable operating segments had the lowest pretax income in 2024?"
    query = read_query(question, [COMPANY], [2024])
    assert query.measure.phrase == "pretax income"  # 'reportable operating' says which breakdown, not the measure
    docs = [_ev(_segment_table(9, "FRS", "1,405"), 53), _ev(_segment_table(11, "HFS", "578"), 56)]
    members = {(f.segment, f.figure.value) for f in member_facts(query, docs, [COMPANY])
               if f.figure.fiscal_year == 2024}
    assert members == {("FRS", 1405.0), ("HFS", 578.0)}
    blocks = [_block(1, docs[0].text, 53), _block(2, docs[1].text, 56)]
    sentences = Analyst({"blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()
    assert sentences[0].startswith("HFS had the lowest pretax income in FY2024: $578m [2]"), sentences
    assert sentences[1] == "The others: FRS $1,405m [1]."  # cited to its own table, not the lowest's


def test_a_heading_or_a_summary_title_is_no_member() -> None:
    query = read_query("Which segment had the highest net sales in 2024?", [COMPANY], [2024])
    by_product = "Sales by major product were:\nYears ended June 30,\n($ in millions) Segment 2024 2023\n" \
                 "Films Freight $ 5,061 $ 5,033\nCartons Harbour Foods 2,733 2,627\nNet sales $ 7,794 $ 7,660"
    review = "Two Year Review of Results\n(in millions) 2024 2023\nNet sales $ 7,794 $ 7,660"
    names = {f.segment for f in member_facts(query, [_ev(by_product, 102), _ev(review, 29)], [COMPANY])}
    assert "Segment" not in names and "Two Year" not in names, names


def test_a_breakdown_question_searches_for_no_whole_company_statement() -> None:
    assert breakdown_measure("reportable operating segments lowest pretax income") == "pretax income"
    assert statements_wanted("Which region had the highest net sales for Ternline in fiscal 2024?") == set()
    assert statements_wanted("What was Ternline's net sales by segment in 2024?") == set()
    assert statements_wanted("What were Ternline's net sales in 2024?") == {"income"}
    # bought for its own balance sheet: on its own account, no statement asked for
    assert statements_wanted("Did Ternline buy bitcoin for its own balance sheet in 2024?") == set()
    assert statements_wanted("What was Ternline's cash on its balance sheet in 2024?") == {"balance"}


def test_a_ranking_reads_on_into_the_table_a_passage_further_down_leads_into() -> None:
    from nodes.inputs import measure_continuations

    first = [_ev(f"Ternline's results of operations paragraph {k}.", 30 + k, chunk=k) for k in range(3)]
    lead = _ev("Long-lived assets are shown by country.\nThe following tables disaggregate net sales information by "
               "geography in which the Company operates:\n102", 102, chunk=5)
    table = _ev(BY_REGION, 103, chunk=6)

    def page_fn(source_id: str, page: int) -> list[Evidence]:
        return {102: [lead], 103: [table]}.get(page, []) if source_id.startswith("TERNLINE") else []

    question = "Which region had the highest net sales for Ternline in fiscal 2024?"
    assert [d.chunk_id for d in measure_continuations(question, [*first, lead], page_fn, [COMPANY])] == [
        table.chunk_id]
    # a lead-in that names another measure is not read on from
    other = lead.model_copy(update={"text": lead.text.replace("net sales", "long-lived assets")})
    assert measure_continuations(question, [*first, other], page_fn, [COMPANY]) == []


def test_the_statement_reader_keeps_the_named_total_column_of_such_a_table() -> None:
    rows = [r for r in read_statement(BY_REGION).rows if r.line_item == "Net sales" and r.columns]
    assert rows and rows[0].values == [7794.0] and rows[0].columns == ["Total"]


# the period closes the sentence that leads into the table, with its unit; the names run on into the first rows'
# heading ('Harbour Total Revenue'), and each row's values stand under its label
LEAD_IN = """Information on the segments revenue and gross profit is as follows (in thousands): Year Ended December 31, 2024
Cash Freight
Harbour Total Revenue
Transaction-based revenue
$ 233,747 $ 3,061,231 $ 3,294,978
Subscription and services-bas
ed revenue 1,163,096 376,307 1,539,403
Segment gross profit
$ 1,225,578 $ 1,507,831 $ 2,733,409"""


def test_two_segments_the_question_names_split_a_header_that_runs_their_names_together() -> None:
    from app.text.measures import members_compared

    question = ("Which of Ternline's two reportable segments generated more gross profit in 2024, Harbour or "
                "Cash Freight?")
    pair = members_compared(question, [COMPANY])
    assert pair is not None and (pair.first, pair.second, pair.measure) == ("Harbour", "Cash Freight", "gross profit")
    query = members_query(read_query(question, [COMPANY], [2024]), pair.measure, [COMPANY])
    members = {(f.segment, f.figure.value, f.figure.unit)
               for f in member_facts(query, [_ev(LEAD_IN, 135)], [COMPANY], known=("Harbour", "Cash Freight"))
               if f.figure.fiscal_year == 2024 and f.figure.label == "Segment gross profit"}
    assert members == {("Cash Freight", 1225578.0, "$k"), ("Harbour", 1507831.0, "$k")}
    # unnamed, 'Cash Freight Harbour' splits two ways: only the total is read
    assert {r.columns[0] for r in dated_column_rows(LEAD_IN)} == {"Total"}
    sentences = Analyst({"blocks": [_block(1, LEAD_IN, 135)], "companies": [COMPANY], "fiscal_years": [2024]},
                        question).sentences()
    assert sentences[0] == ("Harbour gross profit was higher than Cash Freight gross profit in FY2024: $1,507,831k "
                            "against $1,225,578k [1]."), sentences


def _results(name: str, ebitda: str, margin: str | None) -> str:
    rows = f"Revenue 2,761.0 2,670.0 3.4\nAdjusted EBITDA {ebitda} 1,176.9 4.4\n"
    if margin:
        rows += f"Adjusted EBITDA margin {margin}% 44.1% 0.4 pts\n"
    return (f"{name} financial results\nYears ended December 31\n(in millions of Canadian dollars)\n"
            f"2024 2023 % Chg\n{rows}Capital expenditures 412.6 438.2 -5.8")


def test_the_others_of_a_ranking_are_in_its_unit() -> None:
    question = "Which of Ternline's segments had the highest adjusted EBITDA margin in 2024?"
    tables = [_results("Freight", "1,228.4", "44.5"), _results("Harbour", "628.4", "43.6"),
              _results("Media", "38.2", None)]
    blocks = [_block(k + 1, text, 13 + k) for k, text in enumerate(tables)]
    sentences = Analyst({"blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()
    assert sentences[0].startswith("Freight had the highest adjusted EBITDA margin in FY2024: 44.5%"), sentences
    assert any("Harbour 43.6%" in s for s in sentences), sentences
    assert not any("38.2" in s for s in sentences), sentences  # an amount is no margin


def test_a_deed_stopped_in_the_period_asked_answers_no() -> None:
    text = ("Dividends, Distributions and Share Repurchases\nDuring the six months ended June 30, 2024, we paid $1.1 "
            "billion relating to repurchases of our common stock. On February 8, 2024, we announced that the Board of "
            "Directors has determined to suspend the ongoing dividends in light of our preferred method of returning "
            "value to shareholders through our share repurchase plan.")
    question = "Did Ternline pay a common stock dividend in the first half of 2024?"
    sentences = Analyst({"blocks": [_block(1, text, 37)], "companies": [COMPANY], "fiscal_years": [2024]},
                        question).sentences()
    assert sentences[0].startswith("No. On February 8, 2024, we announced that the Board of Directors has determined "
                                   "to suspend the ongoing dividends"), sentences
    # a suspension of another year says nothing of the year asked
    older = text.replace("February 8, 2024", "February 8, 2019")
    sentences = Analyst({"blocks": [_block(1, older, 37)], "companies": [COMPANY], "fiscal_years": [2024]},
                        question).sentences()
    assert not sentences or not sentences[0].startswith("No."), sentences


def test_a_table_repeated_down_the_page_is_read_in_every_chunk_that_holds_it() -> None:
    # each year's table its own chunk: the header lines the chunks share ('Harbour', 'Foods Total') are no page
    # headings that split the names, so every year's rows add up to the measure, as the first year's do alone
    later = BY_REGION.replace("2024", "2023").replace("2,411", "2,311").replace("4,156", "4,056").replace(
        "5,654", "5,554").replace("7,794", "7,694")
    chunks = [_ev(BY_REGION, 103, 0), _ev(later, 103, 1)]
    query = read_query("What were Ternline's net sales in Latin America for fiscal 2024?", [COMPANY], [2024])
    members = {(f.segment, f.figure.fiscal_year, f.figure.value) for f in member_facts(query, chunks, [COMPANY])}
    assert ("Latin America", 2024, 1009.0) in members and ("North America", 2023, 4056.0) in members, members


def test_a_region_named_without_a_preposition_still_asks_for_no_whole_company_statement() -> None:
    # a search's key words drop the 'in' of 'net sales in Latin America'
    assert statements_wanted("Ternline net sales Latin America fiscal 2024") == set()
    assert statements_wanted("Ternline net sales fiscal 2024") == {"income"}
    assert regions_asked("Ternline net sales Latin America fiscal 2024") == ["Latin America"]
    assert regions_asked("revenue from the U.S. and from EMEA") == ["U.S", "EMEA"]
    assert regions_asked("Ternline U.S. federal income taxes 2024") == []


def test_the_table_row_of_a_region_asked_is_searched_for_beside_the_commentary() -> None:
    rows = {"a": {"text": "In Latin America, volumes declined at low single digit rates."},
            "b": {"text": BY_REGION},
            "c": {"text": "Net sales by region\nLatin America\n1,009\n965"},
            "d": {"text": "Europe 1,952 1,800"}}
    sparse = [("a", 9.0), ("b", 8.0), ("c", 7.0), ("d", 6.0)]
    assert region_row_chunks(sparse, rows, ["Latin America"]) == [("b", 8.0), ("c", 7.0)]
    assert region_row_chunks(sparse, rows, ["Asia-Pacific"]) == [("b", 8.0)]


SEGMENT_NOTE = """Information on the reportable segment net revenues and segment operating income (amounts in millions):
Year Ended December 31, 2024
Freight Harbour Foods Total
Segment Revenues
Net revenues from external customers $ 2,219 $ 1,676 $ 2,031 $ 5,926
Intersegment net revenues (1) — 43 — 43
Segment net revenues $ 2,219 $ 1,719 $ 2,031 $ 5,969
Segment operating income $ 850 $ 464 $ 740 $ 2,054"""


def test_a_segments_own_line_answers_before_its_sales_to_outside_customers() -> None:
    from app.facts.query import choose, facts_for, label_match

    query = read_query("What were the net revenues of Ternline's Harbour segment in 2024?", [COMPANY], [2024])
    assert label_match("Segment net revenues", query) > label_match("Net revenues from external customers", query)
    best = choose(facts_for(query, [_ev(SEGMENT_NOTE, 100)], [COMPANY]), query)
    assert best and (best[0].figure.value, best[0].segment) == (1719.0, "Harbour"), best[:2]
    # the whole company's question keeps its own line
    whole = read_query("What were Ternline's net revenues in 2024?", [COMPANY], [2024])
    assert label_match("Segment net revenues", whole) < label_match("Net revenues", whole)


def test_a_segment_named_in_the_companys_own_name_is_not_the_whole_companys_statement() -> None:
    from app.facts.query import choose, facts_for

    company = "Ternline Harbour"
    statement = ("TERNLINE HARBOUR, INC. AND SUBSIDIARIES\nCONSOLIDATED STATEMENTS OF OPERATIONS\n"
                 "(Amounts in millions)\nFor the Years Ended December 31,\n2024 2023 2022\nNet revenues\n"
                 "Product sales $ 1,975 $ 2,255 $ 2,110\nTotal net revenues 5,969 7,500 7,017\n"
                 "Costs and expenses 4,100 4,900 4,800")
    docs = [Evidence(source_id=f"TERNLINE_2024_10K:p{p}", chunk_id=f"TERNLINE_2024_10K:p{p}::0", text=t,
                     company=company, fiscal_year=2024, title="TERNLINE_2024_10K", page=p)
            for p, t in ((70, statement), (100, SEGMENT_NOTE))]
    query = read_query(f"What were the net revenues of {company}'s Harbour segment in 2024?", [company], [2024])
    best = choose(facts_for(query, docs, [company]), query)
    assert best and best[0].figure.value == 1719.0, [(f.figure.value, f.figure.label) for f in best[:3]]


def test_the_rows_ranked_are_those_of_one_table_not_another_tables_that_shares_a_word_of_the_measure() -> None:
    divisions = ("Other Division Information\nTotal assets and capital spending of each division are as follows:\n"
                 "Total Assets Capital Spending\n2024 2023 2024 2023 2022\n"
                 "Freight $ 11,042 $ 9,763 $ 1,464 $ 1,411 $ 1,189\nHarbour 1,245 1,101 93 92 85\n"
                 "Rail 40,286 37,801 1,714 1,275 1,245\nAir 7,886 7,272 581 461 390\n"
                 "Total division 60,459 55,937 3,852 3,239 2,909")
    deferred = ("Deferred tax liabilities and assets are comprised of the following:\n2024 2023\n"
                "Net carryforwards 55,342 4,861\nShare-based compensation 120 97\nRetiree medical benefits 118 160")
    blocks = [_block(1, deferred, 85), _block(2, divisions, 73)]
    question = "Which Ternline division had the largest total assets at the end of fiscal 2024?"
    sentences = Analyst({"blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()
    assert sentences[0].startswith("Rail had the highest total assets in FY2024: 40,286"), sentences
    assert not any("carryforwards" in s for s in sentences), sentences


def test_a_segments_table_whose_header_is_a_unit_note_and_years_is_no_grid_and_its_figure_stands() -> None:
    from nodes.generate import check_citations

    text = ("TABLE 15: FREIGHT SELECTED INCOME STATEMENT AND OTHER DATA\nYears Ended December 31, Change Change\n"
            "(Millions, except percentages and where indicated) 2024 2023 2022 2024 vs. 2023 2023 vs. 2022\n"
            "Total expenses 3,514 3,292 2,928 222 7 364 12\nPretax segment income 2,954 1,874 1,294 1,080 58 580 45\n")
    assert not any(row.columns for row in read_statement(text).rows)
    blocks = [_block(1, text, 63)]
    question = f"What pretax segment income did {COMPANY}'s Freight segment earn in fiscal 2024?"
    sentences = Analyst({"blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()
    assert sentences and "$2,954m in FY2024" in sentences[0], sentences
    kept, check = check_citations(" ".join(sentences), blocks, question, [2024])
    assert kept and "$2,954m" in kept[0], check.flagged
