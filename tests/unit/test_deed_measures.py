"""What a deed brought in, asked as the second part of a question ('When did it complete the sale, and how much net
cash did the sale bring in?'): the measure is what was brought in, not the deed, and the sentence that states it
answers though a gain on the same sale is stated beside it.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

import pytest

from app.models.providers.offline.composer.analyst import Analyst
from app.text.measures import measure_asked
from app.text.questions import measure_terms
from app.turns import Block

COMPANY = "Ternline"
QUESTION = ("When did Ternline complete the divestiture of its Nordic operations, and how much net cash did the sale "
            "bring in?")
TEXT = ("Disposal of Nordic business\nOn December 23, 2024, the Company completed the sale of its Nordic business. "
        "The total net cash consideration received, excluding disposed cash, was $365 million and resulted in a "
        "pre-tax net gain of $215 million. We recorded a pre-tax net gain on sale of $215 million.")


def test_what_a_deed_brought_in_is_the_measure_not_the_deed() -> None:
    assert measure_asked(QUESTION, [COMPANY]).phrase == "net cash"
    assert measure_asked("How much cash did the divestiture generate?", [COMPANY]).phrase == "cash"
    assert measure_asked("How much did the acquisition cost?", [COMPANY]).phrase == "acquisition cost"
    assert {"net", "cash"} in measure_terms(QUESTION, [COMPANY])


def test_the_net_cash_is_stated_not_the_gain_beside_it() -> None:
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} FY2025 p.63", text=TEXT,
                  source_id="TERNLINE_2025_10K:p63", chunk_id="TERNLINE_2025_10K:p63::abc::0", company=COMPANY,
                  fiscal_year=2025, page=63)
    sentences = Analyst({"blocks": [block], "companies": [COMPANY], "fiscal_years": []}, QUESTION).sentences()
    assert sentences and "$365m" in sentences[0] and "215" not in sentences[0], sentences


def test_a_balance_a_company_carries_is_the_balance() -> None:
    assert measure_asked("How much debt does Ternline carry?", [COMPANY]).phrase == "debt"
    assert measure_asked("What is the carrying amount of Ternline's goodwill?", [COMPANY]).phrase != "goodwill"


def test_what_a_unit_sold_is_its_net_sales() -> None:
    asked = measure_asked("How much did Ternline's U.S. Freight operating unit sell in fiscal 2024?", [COMPANY])
    assert (asked.phrase, asked.segment) == ("net sales", "U.S. Freight")
    assert measure_asked("How many units did Ternline sell in 2024?", [COMPANY]).phrase != "net sales"
    assert measure_asked("What was Ternline's Consumer Business segment revenue?", [COMPANY]).segment == \
        "Consumer Business"


def test_where_a_figure_is_set_is_no_word_of_its_measure() -> None:
    asked = measure_asked("What is the minimum annual base salary set in Ternline's August 2024 employment agreement "
                          "with its incoming CEO?", [COMPANY])
    assert asked.phrase == "minimum base salary"
    assert measure_asked("What long-term finance target did Ternline announce in April 2024?",
                         [COMPANY]).phrase == "long-term finance target"
    text = ("The employment term will automatically be extended unless either party gives notice. Ms. Vane will "
            "receive a base salary of not less than $1,300,000 annually and may join the equity plans kept by the "
            "Company for its officers.")
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} 8-K p.2", text=text,
                  source_id="TERNLINE_2024_8K_dated_2024-08-19:p2",
                  chunk_id="TERNLINE_2024_8K_dated_2024-08-19:p2::abc::0", company=COMPANY, fiscal_year=2024, page=2)
    sentences = Analyst({"blocks": [block], "companies": [COMPANY], "fiscal_years": [2024]},
                        "What is the minimum annual base salary set in Ternline's August 2024 employment agreement "
                        "with its incoming CEO?").sentences()
    assert sentences and "$1,300,000" in sentences[0], sentences


@pytest.mark.parametrize("question, phrase", [
    ("How much new multi-year contract value did Northwind sign in FY2023?", "new multi-year contract value"),
    ("What were Northwind's contract liabilities at the end of FY2024?", "contract liabilities"),
    ("Did Northwind's operating margin contract in FY2024?", "operating margin"),
])
def test_contract_the_noun_is_a_measure_word_and_contract_the_verb_is_not(question: str, phrase: str) -> None:
    """'contract value' and 'contract liabilities' are measures; 'did its margin contract' asks a fall; 'multi-year'
    is no period."""
    from app.text.measures import measure_asked

    assert measure_asked(question, ["Northwind Logistics"]).phrase.startswith(phrase)


def test_raise_asks_a_rise_and_is_no_word_of_the_measure() -> None:
    """'Did it raise its quarterly dividend?' asks whether the dividend rose: 'raise' names no measure."""
    from app.text.question_kinds import read_ask

    question = "Did Kestrel raise its quarterly dividend in 2024?"
    assert measure_asked(question, ["Kestrel"]).phrase == "quarterly dividend"
    assert read_ask(question).kind == "yes_no_change"


def test_the_board_that_decided_is_no_segment() -> None:
    """'did its Board raise the quarterly cash dividend': the Board decided; the dividend is the company's."""
    asked = measure_asked("When Amcor reported its fiscal 2023 results, did its Board raise the quarterly cash "
                          "dividend compared with the same quarter a year earlier?", ["Amcor"])
    assert asked.segment is None and asked.phrase == "quarterly cash dividend"


def test_a_yes_no_after_an_occasion_with_a_dated_aside_is_a_yes_no() -> None:
    """'When Amcor reported its fiscal 2023 results (year ended June 30, 2023), did its Board raise …?': the
    lead-in's bracket holds a comma of its own; the question is the yes/no after it."""
    from app.text.question_kinds import read_ask

    question = ("When Amcor reported its fiscal 2023 results (year ended June 30, 2023), did its Board raise the "
                "quarterly cash dividend compared with the same quarter a year earlier?")
    assert read_ask(question).kind == "yes_no_change"
