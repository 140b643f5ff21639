"""A segment's own page of the MD&A: its name heads the page ('FREIGHT SERVICES' / 'Selected income statement data'),
its header's years and change column stand on one line ('2024 2023 Change'), and its rows are the segment's. Also
what is no answer for its net income: a margin row named after the segment under 'Pre-tax margin ratio:', the
'Net interest income' line, or any line of a 'Selected income statement data' table read as a member.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import choose, facts_for, label_match, member_facts, read_query
from app.text.statements import read_statement, statement_lines

COMPANY = "Ternline"
PAGE = """FREIGHT SERVICES
Refer to pages 80–82 of the 2023 Form 10-K for a discussion of the business profile of the segment.
Selected income statement data
(in millions, except ratios)
Three months ended March 31,
2024 2023 Change
Revenue
Net interest income 931 860 8
Total net revenue 4,077 3,389 20
Compensation expense 1,389 1,226 13
Income tax expense 380 191 99
Net income $ 1,244 $ 669 86
Financial ratios
Return on equity 35 % 25 %
Pre-tax margin ratio:
Rail 35 24
Freight Services 40 25"""

QUESTION = "How much net income did Ternline's Freight Services segment earn in the first quarter of 2024?"


def _ev(text: str) -> Evidence:
    return Evidence(source_id="TERNLINE_2024Q1_10Q:p30", chunk_id="TERNLINE_2024Q1_10Q:p30::abc::1", text=text,
                    company=COMPANY, fiscal_year=2024, title="TERNLINE_2024Q1_10Q", page=30, doc_type="report")


def test_a_header_of_years_and_a_change_column_stays_one_line() -> None:
    assert "2024 2023 Change" in statement_lines(PAGE).splitlines()
    assert statement_lines("2019 2018 Cash flows from operating activities:").splitlines() == [
        "2019 2018", "Cash flows from operating activities:"]
    row = next(r for r in read_statement(PAGE).rows if r.line_item == "Net income")
    assert row.values == [1244.0, 669.0, 86.0] and row.periods[2] == "change"


def test_another_income_line_is_no_answer_for_net_income() -> None:
    query = read_query(QUESTION, [COMPANY], [2024])
    assert label_match("Net interest income", query) == 0.0
    assert label_match("Other comprehensive income", query) == 0.0
    assert label_match("Net income", query) >= 1.0
    assert label_match("Net interest income", read_query("What was Ternline's net interest income in 2024?",
                                                         [COMPANY], [2024])) >= 1.0


def test_the_segment_page_gives_the_segments_net_income_and_no_member_is_read_from_its_data() -> None:
    query = read_query(QUESTION, [COMPANY], [2024])
    assert member_facts(query, [_ev(PAGE)], [COMPANY]) == []  # 'Selected income statement data' breaks nothing down
    best = choose(facts_for(query, [_ev(PAGE)], [COMPANY]), query)[0]
    assert (best.figure.value, best.segment, best.figure.fiscal_year) == (1244.0, "Freight Services", 2024)


def test_a_margin_asked_takes_no_amounts_of_a_table_titled_by_its_other_words() -> None:
    table = ("Adjusted Property EBITDAR\nThree months ended December 31,\n(in thousands) 2024 2023\n"
             "Freight Services $ 877,052 $ 698,739\nRegional Operations 319,517 309,250\n"
             "Harbour 90,100 (20,400)")
    question = ("By how many percentage points did the Adjusted Property EBITDAR margin of Ternline's Regional "
                "Operations change in the fourth quarter of 2024 versus the prior-year quarter?")
    query = read_query(question, [COMPANY], [2024])
    assert query.measure.segment == "Regional Operations"  # a capitalised 'Operations' is the name's own
    assert member_facts(query, [_ev(table)], [COMPANY]) == []
    amounts = read_query("Which Ternline segment had the highest Adjusted Property EBITDAR in the fourth quarter of "
                         "2024?", [COMPANY], [2024])
    assert {f.segment for f in member_facts(amounts, [_ev(table)], [COMPANY])} >= {"Regional Operations"}


def test_segments_under_a_lead_in_and_a_measure_heading_are_compared() -> None:
    from app.models.providers.offline.composer.analyst import Analyst
    from app.text.measures import members_compared
    from app.turns import Block

    text = ("Our operating segment results were as follows:\nFiscal Year\nIn Millions 2024 2023 2022\nNet sales:\n"
            "North America Retail $ 10,750.5 $ 9,925.2 $ 10,115.4\nEurope & Australia 1,838.9 1,886.7 1,984.6\n"
            "Convenience Stores & Foodservice 1,816.4 1,969.1 1,930.2\nTotal $ 14,405.8 $ 13,781.0 $ 14,030.2\n"
            "Operating profit:\nNorth America Retail $ 2,627.0 $ 2,277.2 $ 2,217.4\nEurope & Australia 113.8 123.3 "
            "142.1\nConvenience Stores & Foodservice 337.2 419.5 392.6")
    question = ("In fiscal 2024, which Ternline segment had higher net sales, Europe & Australia or Convenience Stores "
                "& Foodservice?")
    pair = members_compared(question, [COMPANY])
    assert pair is not None and (pair.first, pair.measure) == ("Europe & Australia", "net sales")
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} FY2024 p.90", text=text, source_id="TERNLINE_2024_10K:p90",
                  chunk_id="TERNLINE_2024_10K:p90::abc::0", company=COMPANY, fiscal_year=2024, page=90)
    sentences = Analyst({"blocks": [block], "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()
    assert sentences[0].startswith("Europe & Australia net sales were higher than Convenience Stores & Foodservice net "
                                   "sales in FY2024: $1,838.9"), sentences
