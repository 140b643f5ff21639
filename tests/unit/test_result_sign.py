"""A quarterly release's statement with 'Three Months Ended' and 'Twelve Months Ended' columns: the twelve months'
column, dated by its last day only, is the year's flow and never the quarter's balance; and a yes/no about the
sign of a result ('Did it post an operating profit in the fourth quarter?') is answered by the period's row.
Every company and figure here is made up (Harbourline, a resort group)."""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import choose, facts_for, read_query
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Harbourline"
TITLE = "HARBOURLINE_2024Q4_EARNINGS"
STATEMENT = """HARBOURLINE RESORTS AND SUBSIDIARIES
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands, except per share data)
Three Months Ended Twelve Months Ended
December 31,
2024
December 31,
2023
December 31,
2024
December 31,
2023
Revenues
Casino $ 548,762 $ 527,818 $ 1,734,173 $ 1,362,912
Rooms 297,943 236,130 1,057,145 690,037
Operating income (loss) (1,896) 68,847 439,372 278,699
Net income (loss) (20,014) 16,087 206,731 108,389"""


def _block() -> Block:
    return Block(n=1, kind="report", header=f"[1] {CO} Q4 FY2024 earnings release, p.11 [text]", text=STATEMENT,
                 source_id=f"{TITLE}:p11", chunk_id=f"{TITLE}:p11::0", company=CO, fiscal_year=2024, page=11)


def _answer(question: str) -> list[str]:
    return Analyst({"blocks": [_block()], "companies": [CO], "fiscal_years": [2024]}, question).first_sentences()


def test_the_twelve_months_column_is_no_balance_of_the_quarter() -> None:
    doc = Evidence(source_id=f"{TITLE}:p11", chunk_id=f"{TITLE}:p11::0", text=STATEMENT, company=CO,
                   fiscal_year=2024, title=TITLE, page=11)
    query = read_query(f"What was {CO}'s operating income in the fourth quarter of 2024?", [CO], [2024])
    assert [f.figure.value for f in choose(facts_for(query, [doc], [CO]), query)][:1] == [-1896.0]
    yearly = read_query(f"What was {CO}'s operating income in 2024?", [CO], [2024])
    assert [f.figure.value for f in choose(facts_for(yearly, [doc], [CO]), yearly)][:1] == [439372.0]


def test_a_result_asked_by_its_sign_is_answered_by_the_periods_row() -> None:
    quarter = _answer(f"Did {CO} post an operating profit in the fourth quarter of 2024?")
    assert quarter[0].startswith(f"No. {CO}'s operating income (loss) was -$1,896k in the three months ended 31 "
                                 "December 2024: an operating loss of $1,896k"), quarter
    year = _answer(f"Did {CO} report a net loss in 2024?")
    assert year[0].startswith(f"No. {CO}'s net income (loss) was $206,731k in FY2024: a net profit of $206,731k"), year
    assert _answer(f"Did {CO} post an operating profit in 2024?")[0].startswith("Yes. ")


def test_a_result_named_as_part_of_another_measure_is_no_sign_asked() -> None:
    from app.models.providers.offline.composer.analyst import _RESULT_ASKED

    assert _RESULT_ASKED.search(f"Did {CO} report a net loss in 2024?")
    assert not _RESULT_ASKED.search(f"Did {CO} report income tax expense in 2024?")
    assert not _RESULT_ASKED.search(f"Did {CO} report earnings per share above $2 in 2024?")
    assert not _RESULT_ASKED.search(f"Did {CO} post income from continuing operations in 2024?")


DIVISIONS = """Net Revenue and Operating Profit/(Loss)
Net revenue and operating profit/(loss) of each division are as follows:
(in millions) Net Revenue Operating Profit/(Loss)
2024 2023 2024 2023
Harbour Foods $ 24,914 $ 23,291 $ 6,135 $ 5,633
Coastal Europe 12,724 11,958 (1,380) 1,292
Total $ 37,638 $ 35,249 $ 4,755 $ 6,925"""


def _divisions() -> Block:
    return Block(n=1, kind="report", header=f"[1] {CO} FY2024 10-K, p.69 [text]", text=DIVISIONS,
                 source_id=f"{CO.upper()}_2024_10K:p69", chunk_id=f"{CO.upper()}_2024_10K:p69::0", company=CO,
                 fiscal_year=2024, page=69)


def test_whether_a_division_was_profitable_is_the_sign_of_its_operating_profit() -> None:
    state = {"blocks": [_divisions()], "companies": [CO], "fiscal_years": [2024]}
    lost = Analyst(state, f"Was {CO}'s Coastal Europe division profitable in 2024?").first_sentences()
    assert lost[0] == f"No. {CO}'s Coastal Europe division posted an operating loss of $1,380m in FY2024 [1].", lost
    made = Analyst(state, f"Was {CO}'s Harbour Foods division profitable in 2024?").first_sentences()
    assert made[0].startswith(f"Yes. {CO}'s Harbour Foods division posted an operating profit of $6,135m"), made


def test_a_unit_that_opens_the_line_of_column_group_names_is_the_tables_unit() -> None:
    state = {"blocks": [_divisions()], "companies": [CO], "fiscal_years": [2024]}
    said = Analyst(state, f"What was {CO}'s Coastal Europe net revenue in 2024?").first_sentences()
    assert said == [f"{CO}'s Coastal Europe net revenue was $12,724m in FY2024 [1]."], said


def test_how_profitable_is_no_question_of_a_sign() -> None:
    from app.models.providers.offline.composer.analyst import _PROFITABLE

    assert _PROFITABLE.search(f"Was {CO} profitable in 2024?")
    assert _PROFITABLE.search(f"Did {CO}'s Freight segment make money in 2024?")
    assert not _PROFITABLE.search(f"Was {CO} more profitable than Ternline in 2024?")
    assert not _PROFITABLE.search(f"Is {CO} profitable enough to cover its dividend?")
    assert not _PROFITABLE.search(f"Was {CO} as profitable as Ternline in 2024?")
    assert _PROFITABLE.search(f"Was {CO} profitable as of the end of 2024?")


SEGMENT_REVIEW = """International Streaming Segment
As of/ Year Ended December 31, Change
2024 2023 2022 2024 vs. 2023 2023 vs. 2022
(in thousands, except percentages)
Contribution loss:
Revenues
$ 1,953,435 $ 1,308,061 $ 712,390 $ 645,374 49 % $ 595,671 84 %
Cost of revenues
1,780,375 1,154,117 782,304 626,258 54 % 371,813 48 %
Contribution loss
(333,386 ) (159,789 ) (274,332 ) (173,597 ) 109 % 114,543 (42 )%"""


def test_a_segments_contribution_loss_answers_whether_it_turned_a_contribution_profit() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024 10-K, p.21 [text]", text=SEGMENT_REVIEW,
                  source_id=f"{CO.upper()}_2024_10K:p21", chunk_id=f"{CO.upper()}_2024_10K:p21::0", company=CO,
                  fiscal_year=2024, page=21)
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024]},
                   f"Did {CO}'s International streaming segment turn a contribution profit in 2024?").first_sentences()
    assert said == [f"No. {CO}'s International Streaming segment posted a contribution loss of $333,386k in FY2024 "
                    "[1]."], said


def test_a_return_on_equity_row_printed_without_its_per_cent_signs_is_a_per_cent() -> None:
    text = """Selected metrics
(in millions, except ratios)
1Q24 4Q23 3Q23
Net income $ 14,300 $ 12,140 $ 9,443
Return on common equity (“ROE”)(c) 23 % 19 % 15 %
Return on tangible common equity (“ROTCE”)(b)(c) 29 24 19"""
    block = Block(n=1, kind="report", header=f"[1] {CO} Q1 FY2024 10-Q, p.4 [text]", text=text,
                  source_id=f"{CO.upper()}_2024Q1_10Q:p4", chunk_id=f"{CO.upper()}_2024Q1_10Q:p4::0", company=CO,
                  fiscal_year=2024, page=4)
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024]},
                   f"What return on tangible common equity did {CO} report for the first quarter of 2024?"
                   ).first_sentences()
    assert said and "was 29% in Q1 2024" in said[0], said


def test_the_citation_check_finds_a_return_on_equity_per_cent_in_its_bare_row() -> None:
    from nodes.verify import unsupported_terms

    rows = ("(in millions, except ratios)\nReturn on common equity (“ROE”)(c) 23 % 19 %\n"
            "Return on tangible common equity (“ROTCE”)(b)(c) 29 24")
    assert unsupported_terms("Its return on tangible common equity was 29%.", rows) == []
    assert unsupported_terms("Its overhead ratio was 40%.", "Overhead ratio 40 46") == ["40%"]
