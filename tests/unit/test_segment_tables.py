"""Segment figures and the rows around them: a segment named without the word 'segment', tables that write it by
its initials, tables whose columns are groups of years (one per measure), a segment's table further down a page,
a part or flow of a measure, a closed group's books, a balance at its fiscal year's end, and changes stated in
prose.

Every company, page and figure here is made up (Ternline, a freight and foods group), written in the layouts
pypdf gives 10-K pages.
"""

from __future__ import annotations

import pytest

from app.evidence import Evidence
from app.facts.prose import Measure, prose_facts
from app.facts.query import choose, facts_for, group_docs, label_match, read_query, same_member
from app.knowledge.analyzer import analyze
from app.knowledge.chunking import chunk_record, statement_headers
from app.knowledge.records import SourceRecord
from app.models.providers.offline.composer.analyst import Analyst
from app.text.measures import measure_asked, name_initials, segment_wordings
from app.text.statements import measure_group_rows
from app.turns import Block
from nodes.generate import abbreviated_names, check_citations

COMPANY = "Ternline"

DIVISIONS = """Net revenue and operating profit of each division are as follows:
Net Revenue Operating Profit/(Loss)
2024 2023 2022 2024 2023 2022
TFNA $ 12,410 $ 11,902 $ 10,877 $ 2,105 $ 1,980 $ 1,702
Harbour Foods 3,160 2,751 2,742 604 578 669
Total division 15,570 14,653 13,619 2,709 2,558 2,371"""

INCOME = """Consolidated Statement of Income
Ternline Inc. and Subsidiaries
(in millions)
2024 2023 2022
Net Revenue $ 15,570 $ 14,653 $ 13,619
Operating Profit 2,405 2,301 2,190"""


def _ev(text: str, page: int, *, chunk: int = 0, title: str = "TERNLINE_2024_10K") -> Evidence:
    return Evidence(source_id=f"{title}:p{page}", chunk_id=f"{title}:p{page}::abc::{chunk}", text=text,
                    company=COMPANY, fiscal_year=2024, title=title, page=page, doc_type="report")


# --- a segment named before the measure ----------------------------------------------------------------------

@pytest.mark.parametrize("question, segment, phrase", [
    ("How much did Ternline's Cash Desk generate in revenue in 2024?", "Cash Desk", "revenue"),
    ("What were Ternline's Trans-Freight North America net revenues in 2024?", "Trans-Freight North America",
     "net revenues"),
    ("What was Freight's revenue at Ternline in FY2024?", "Freight", "revenue"),
    # a measure's own capitalised words are no segment, nor are words joined by 'and'
    ("What was the Selling, General and Administrative expense of Ternline in 2024?", None,
     "Selling General and Administrative expense"),
    ("What were Research and Development costs at Ternline in 2024?", None, "Research and Development costs"),
    ("What is Ternline's Free Cash Flow in FY2024?", None, "Free Cash Flow"),
    ("What was the CEO pay in 2024?", None, "CEO pay"),
])
def test_a_name_of_its_own_before_the_measure_is_the_segment_asked(question: str, segment: str | None,
                                                                     phrase: str) -> None:
    asked = measure_asked(question, [COMPANY])
    assert (asked.segment, asked.phrase) == (segment, phrase)


def test_initials_are_those_a_report_abbreviates_a_long_name_to() -> None:
    assert name_initials("Trans-Freight North America") == "TFNA"
    assert name_initials("Africa, Middle East and South Asia") == "AMESA"
    assert name_initials("U.S. Consumer Services") == "USCS"
    assert name_initials("Cash Desk") == ""  # two letters tell nothing apart
    assert same_member("Trans-Freight North America", "TFNA")
    assert not same_member("Trans-Freight North America", "TFN")
    assert segment_wordings("What were Ternline's Trans-Freight North America net revenues in 2024?",
                            [COMPANY]) == "TFNA net revenues"
    assert segment_wordings("What was Ternline's revenue in 2024?", [COMPANY]) == ""


# --- columns in groups of years, one group per measure -------------------------------------------------------

def test_a_table_of_year_groups_is_read_one_measure_per_group() -> None:
    rows = {(r.line_item, r.columns[0]): (r.values, r.periods) for r in measure_group_rows(DIVISIONS)}
    assert rows[("Net Revenue", "TFNA")] == ([12410.0, 11902.0, 10877.0], ["FY2024", "FY2023", "FY2022"])
    assert rows[("Operating Profit/(Loss)", "Harbour Foods")] == ([604.0, 578.0, 669.0],
                                                                  ["FY2024", "FY2023", "FY2022"])
    # names wrapped over lines split where they are most alike in length, never after 'of' or 'and'
    wrapped = ("Amortization of\nIntangible Assets\nDepreciation and\nOther Amortization\n"
               "2024 2023 2024 2023\nTFNA $ 11 $ 10 $ 653 $ 600")
    assert sorted({r.line_item for r in measure_group_rows(wrapped)}) == [
        "Amortization of Intangible Assets", "Depreciation and Other Amortization"]
    # a year line that repeats nothing is no group table
    assert measure_group_rows("Revenue Profit\n2024 2023 2022\nTFNA 1 2 3") == []


def test_a_segment_asked_by_name_is_answered_from_its_initials_row_in_the_filings_scale() -> None:
    question = "What were Ternline's Trans-Freight North America net revenues in 2024?"
    query = read_query(question, [COMPANY], [2024])
    facts = facts_for(query, [_ev(DIVISIONS, 70), _ev(INCOME, 62)], [COMPANY])
    best = choose(facts, query)[0]
    # the division table declares no scale: the filing's income statement gives the measure in $m
    assert (best.figure.value, best.figure.unit, best.segment) == (12410.0, "$m", "TFNA")
    blocks = [Block(n=n, kind="report", header=f"[{n}] Ternline FY2024 p.{ev.page}", text=ev.text,
                    source_id=ev.source_id, chunk_id=ev.chunk_id, company=COMPANY, fiscal_year=2024)
              for n, ev in ((1, _ev(INCOME, 62)), (2, _ev(DIVISIONS, 70)))]
    sentences = Analyst({"blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()
    assert sentences[0].startswith("Ternline's Trans-Freight North America (TFNA) net revenues were $12,410m in "
                                   "FY2024 [2]"), sentences
    kept, check = check_citations(" ".join(sentences), blocks, question, [2024])
    assert kept and not check.flagged


def test_a_name_is_grounded_by_its_initials_only_when_the_sentence_gives_them() -> None:
    support = "TFNA $ 12,410 $ 11,902"
    assert {"Trans-Freight", "North", "America"} <= abbreviated_names(
        "Ternline's Trans-Freight North America (TFNA) net revenues were $12,410m.", support)
    assert abbreviated_names("Ternline's Trans-Freight North America net revenues were $12,410m.", support) == set()
    assert abbreviated_names("Trans-Freight North America (TFNA) grew.", "Harbour Foods 3,160") == set()


# --- a segment's table further down a page ---------------------------------------------------------------

SEGMENT_PAGE = "\n \n".join([
    "Operating income margins increased 9.5 percentage points, largely driven by divestiture gains.",
    "Harbour Foods Business (18.4% of consolidated sales):", "2024", "2023", "2022",
    "Sales (millions)", "$", "6,021", "$", "5,853", "$", "5,606",
    "Sales change analysis:", "Organic local-currency", "2.6", "%", "3.9", "%",
    "Operating income (millions)", "$", "1,799", "$", "1,764", "$", "1,731",
    "Percent of sales", "29.9", "%", "30.1", "%", "30.9", "%",
    "Year 2024 results:", "Sales in Harbour Foods totaled $6.0 billion, up 2.9 percent in U.S. dollars."])


def test_a_segment_table_down_a_page_keeps_its_title_and_years_over_its_rows() -> None:
    lines = [ln.strip() for ln in SEGMENT_PAGE.splitlines() if ln.strip()]
    headers = statement_headers(lines)
    # 'Sales (millions)' says its row's unit: it heads no statement of its own
    assert [head for _, head in headers] == [["Harbour Foods Business (18.4% of consolidated sales):",
                                               "2024", "2023", "2022"]]
    record = SourceRecord(source_id="TERNLINE_2024_10K:p35", title="TERNLINE_2024_10K", text=SEGMENT_PAGE,
                          company=COMPANY, doc_type="report", origin="x", fiscal_year=2024)
    chunk = next(c for c in chunk_record(record, max_tokens=60) if "1,799" in c.text)
    assert "2024\n2023\n2022" in chunk.text
    query = read_query("What was Ternline's Harbour Foods segment operating income in 2024?", [COMPANY], [2024])
    doc = Evidence(source_id=chunk.source_id, chunk_id=chunk.chunk_id, text=chunk.text, company=COMPANY,
                   fiscal_year=2024, title="TERNLINE_2024_10K", page=35, doc_type="report")
    best = choose(facts_for(query, [doc], [COMPANY]), query)[0]
    # the title's aside ('18.4% of consolidated sales') does not make it a summary of the whole company
    assert (best.figure.value, best.figure.unit, best.segment) == (1799.0, "$m", "Harbour Foods Business")


def test_a_tables_column_line_that_ends_in_its_years_heads_every_chunk_of_it() -> None:
    rows = "\n".join(f"Add: Adjustment number {k} {k} {k + 1} {k + 2}" for k in range(1, 30))
    text = ("A reconciliation of net income to adjusted EBIT is as follows:\nYears ended June 30,\n"
            f"($ in millions) 2024 2023 2022\nNet income 1,058 815 951\n{rows}\nAdjusted EBIT 1,608 1,701 1,621\n")
    record = SourceRecord(source_id="TERNLINE_2024_10K:p35", title="TERNLINE_2024_10K", text=text, company=COMPANY,
                          doc_type="report", origin="x", fiscal_year=2024)
    chunk = next(c for c in chunk_record(record, max_tokens=120) if "Adjusted EBIT 1,608" in c.text)
    assert "($ in millions) 2024 2023 2022" in chunk.text


# --- a part or flow of a measure, a closed group, a balance at its year's end ------------------------------

def test_a_part_or_flow_of_the_measure_is_not_the_measure() -> None:
    query = read_query("Did Ternline's long-term debt increase between FY2023 and FY2024?", [COMPANY])
    assert label_match("Current portion of long-term debt", query) == 0
    assert label_match("Repayments of long-term debt", query) == 0
    assert label_match("Long-term debt, less current portion", query) > 0.9  # what it leaves out is no word of its own
    # a part the question names is asked
    portion = read_query("What was Ternline's current portion of long-term debt in FY2024?", [COMPANY])
    assert label_match("Current portion of long-term debt", portion) > 0.9


def test_a_closed_groups_books_give_no_figure_of_the_group_unless_asked() -> None:
    closed = _ev("Deed of Cross Guarantee\nConsolidated Balance Sheets\n($ in millions)\nAs of June 30, 2024 2023\n"
                 "Long-term debt, less current portion — 319", 107)
    group = _ev("Consolidated Balance Sheets\n($ in millions)\nAs of June 30, 2024 2023\n"
                "Long-term debt, less current portion 6,653 6,340", 52)
    assert group_docs([closed, group], "What was Ternline's long-term debt in FY2024?") == [group]
    query = read_query("What was Ternline's long-term debt in FY2024?", [COMPANY], [2024])
    chosen = choose(facts_for(query, [closed, group], [COMPANY]), query)
    assert [f.figure.value for f in chosen] == [6653.0]  # the closed group's rows are its own, no group's
    assert group_docs([closed, group], "What was the long-term debt of the closed group under the deed of cross "
                                       "guarantee?") == [closed, group]


def test_a_balance_of_a_fiscal_year_is_the_one_at_its_end() -> None:
    # a June year: a 10-Q's 31 December column falls in it beside the 10-K's 30 June one, which is the year's
    half = _ev("Condensed Consolidated Balance Sheets\n($ in millions)\nDecember 31, 2023 June 30, 2023\n"
               "Long-term debt, less current portion 6,840 6,340", 7, title="TERNLINE_2024Q2_10Q")
    annual = _ev("Consolidated Balance Sheets\n($ in millions)\nAs of June 30, 2024 2023\n"
                 "Long-term debt, less current portion 6,653 6,340", 52)
    query = read_query("What was Ternline's long-term debt at the end of FY2024?", [COMPANY], [2024])
    facts = facts_for(query, [half, annual], [COMPANY])
    dated = {(f.figure.value, f.figure.period) for f in facts if f.figure.fiscal_year == 2024}
    assert (6653.0, "2024-06-30") in dated
    assert choose(facts, query)[0].figure.value == 6653.0


# --- prose ------------------------------------------------------------------------------------------------

def _prose(text: str, words: str, kind: str = "money", count: str = "") -> list[float]:
    measure = Measure(stems=frozenset(analyze(words)), kind=kind, count_stems=frozenset(analyze(count)))
    return [f.value for f in prose_facts(text, measure, company=COMPANY, fiscal_year=2024, source_id="t")]


def test_a_change_or_an_impact_stated_as_a_noun_is_not_the_measures_level() -> None:
    text = ("Adjusted EBIT decreased by $88 million in fiscal year 2024. Excluding negative currency impacts of $41 "
            "million and the negative impact of disposed and ceased operations of $63 million, the remaining "
            "variation in adjusted EBIT was an increase of $16 million, or 1%.")
    assert _prose(text, "adjusted EBIT") == []
    glued = "The increase in Cash Desk marketing relates to a $355.6 million increasein processing costs."
    assert _prose(glued, "Cash Desk marketing") == []
    assert _prose("Adjusted EBIT was $1,608 million in fiscal 2024.", "adjusted EBIT") == [1608.0]


def test_a_count_qualified_by_suspended_hyphens_is_read() -> None:
    text = "As of May 31, 2024, we had approximately 35,000 full- and part-time employees."
    assert _prose(text, "employees", "count", "employees") == [35000.0]


def test_a_header_given_a_piece_a_line_stays_whole_over_the_rows_and_dates_them() -> None:
    text = ("A summary of our cash flows is as follows:\n(in millions)\nFiscal\n2024\nFiscal\n2023\nFiscal\n2022\n"
            "Net cash provided by operating activities $ 2,199.7 $ 1,469.5 $ 1,287.5\n"
            "Net cash used for investing activities (960.0) (1,488.4) (490.7)\n"
            "Net cash used for financing activities (1,090.7) (200.7) (507.3)\n")
    record = SourceRecord(source_id="TERNLINE_2024_10K:p53", title="TERNLINE_2024_10K", text=text, company=COMPANY,
                          doc_type="report", origin="x", fiscal_year=2024)
    chunk = next(c for c in chunk_record(record) if "2,199.7" in c.text)
    assert "(in millions)\nFiscal\n2024\nFiscal\n2023\nFiscal\n2022" in chunk.text
    query = read_query("Which activity brought in the most cash for Ternline in fiscal 2024?", [COMPANY], [2024])
    doc = Evidence(source_id=chunk.source_id, chunk_id=chunk.chunk_id, text=chunk.text, company=COMPANY,
                   fiscal_year=2024, title="TERNLINE_2024_10K", page=53, doc_type="report")
    operating = [f for f in facts_for(read_query("What was Ternline's net cash provided by operating activities "
                                                 "in fiscal 2024?", [COMPANY], [2024]), [doc], [COMPANY])]
    assert {(f.figure.value, f.figure.fiscal_year) for f in operating} >= {(2199.7, 2024), (1469.5, 2023)}
    assert query.years == (2024,)


def test_the_companys_own_name_run_together_is_no_segment() -> None:
    asked = measure_asked("What were Ternline Freight's net sales in fiscal 2024?", ["TERNLINEFREIGHT"])
    assert asked.segment is None
    assert measure_asked("What were Ternline's Harbour Foods net sales in fiscal 2024?", ["TERNLINEFREIGHT"]
                         ).segment == "Harbour Foods"
