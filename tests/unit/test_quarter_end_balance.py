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
