"""A quarterly filing's balance sheet: its column for the quarter's last day answers a question about the end of
that quarter as well as one that names no period, and a balance sheet's 'Deposits' row is the total deposits a
question asks for (rather than 'Deposits as a % of total liabilities', which says both words). Every company and
figure here is made up."""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Quillon Bancorp"
SHEET = ("CONSOLIDATED BALANCE SHEETS (unaudited)\n"
         "(in millions) March 31, 2025 December 31, 2024\n"
         "Loans $ 1,010,400 $ 1,012,900\n"
         "Deposits $ 2,278,112 $ 2,144,257\n"
         "Deposits as a % of total liabilities 67 % 69 %\n"
         "Total liabilities 3,400,100 3,107,700\n")


def answer(question: str) -> list[str]:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.80 [text]", text=SHEET,
                  source_id="QUILLON_2025Q1_10Q:p80", chunk_id="QUILLON_2025Q1_10Q:p80::0", company=CO,
                  fiscal_year=2025, page=80)
    return Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2025]}, question).figure_answer()


def test_the_balance_at_the_quarters_end_answers_the_quarter() -> None:
    said = answer("What were Quillon Bancorp's total deposits at the end of the first quarter of 2025?")
    assert said and "$2,278,112m" in said[0] and "67%" not in said[0], said


def test_a_question_of_no_period_still_gets_the_latest_balance() -> None:
    said = answer("What were Quillon Bancorp's total deposits?")
    assert said and "$2,278,112m" in said[0], said


def test_the_prior_year_end_column_is_no_quarters_balance() -> None:
    said = answer("What were Quillon Bancorp's total deposits at the end of the fourth quarter of 2024?")
    assert not said or "$2,278,112m" not in said[0], said


PROGRAM = ("Lending Relief Program\nThe Firm continues to participate in the LRP, for which the application deadline "
           "was extended to May 31, 2025. At\nMarch 31, 2025 and December 31, 2024, the Firm had approximately $32 "
           "billion and $27 billion of loans under the LRP, respectively, including $23 billion and $19 billion in the "
           "consumer portfolio, and $9 billion and $8 billion in the wholesale portfolio.")


def test_figures_dated_respectively_by_two_days_answer_the_quarter_with_the_whole_not_a_part() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.47 [text]", text=PROGRAM,
                  source_id="QUILLON_2025Q1_10Q:p47", chunk_id="QUILLON_2025Q1_10Q:p47::0", company=CO,
                  fiscal_year=2025, page=47)
    question = ("How much in Lending Relief Program (LRP) loans did Quillon Bancorp hold at the end of the first "
                "quarter of 2025 (March 31, 2025)?")
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2025]}, question).figure_answer()
    assert said and said[0].startswith(f"{CO}'s LRP loans were approximately $32bn in Q1 FY2025 [1]"), said
    # the sentence is quoted whole, from the 'At' its first line ends on
    assert any('"At March 31, 2025 and December 31, 2024, the Firm had' in s for s in said), said


def test_a_kind_of_revenue_under_an_income_statements_revenues_heading_without_a_colon_is_that_revenue() -> None:
    text = ("CONSOLIDATED STATEMENTS OF OPERATIONS\n(In thousands, except per share data)\nThree Months Ended\n"
            "June 30,\nSix Months Ended\nJune 30,\n2025 2024 2025 2024\nRevenues\nCasino $ 1,951,382 $ 1,357,134 $ 3,833,810 "
            "$ 2,778,044\nRooms 815,323 774,732 1,663,811 1,331,805\n3,942,207 3,264,888 7,815,503 6,119,197\n"
            "Expenses\nCasino 1,025,745 622,166 2,016,635 1,296,531\n")
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.4 [text]", text=text,
                  source_id="QUILLON_2025Q2_10Q:p4", chunk_id="QUILLON_2025Q2_10Q:p4::0", company=CO,
                  fiscal_year=2025, page=4)
    question = (f"What casino revenue did {CO} report on its income statement for the second quarter of 2025 (three "
                "months ended June 30, 2025)?")
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2025]}, question).figure_answer()
    assert said and "$1,951,382k" in said[0] and "1,025,745" not in said[0], said


def test_a_balance_asked_less_its_current_portion_is_the_row_that_leaves_it_out() -> None:
    text = ("CONDENSED CONSOLIDATED BALANCE SHEETS\n($ in millions)\nDecember 31, 2024 June 30, 2024\n"
            "Current portion of long-term debt $ 14 $ 14\nShort-term debt 480 136\n"
            "Long-term debt, less current portion 6,840 6,340\nTotal liabilities 12,100 11,900\n")
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.7 [text]", text=text,
                  source_id="QUILLON_2025Q2_10Q:p7", chunk_id="QUILLON_2025Q2_10Q:p7::0", company=CO,
                  fiscal_year=2025, page=7)
    question = (f"What long-term debt, less current portion, did {CO} carry on its balance sheet at the end of the "
                "second quarter of fiscal 2025 (December 31, 2024)?")
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2025]}, question).figure_answer()
    assert said and "$6,840m" in said[0], said
