"""A figure asked against a bar ('Did Ternline's annual revenue top $10 billion in 2024?'): the measure is the
revenue, not 'top'; the answer is the verdict with the figure that decides it, in the bar's scale.

Every company and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.text.measures import measure_asked
from app.turns import Block

COMPANY = "Ternline"
INCOME = """Ternline, Inc.
Consolidated Statements of Income
(In thousands, except per share data)
Fiscal year ended December 31,
2024 2023
Net sales $ 10,208,580 $ 8,630,889
Operating margin 16.1 % 15.0 %"""


def _answer(question: str) -> list[str]:
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} FY2024 p.6", text=INCOME,
                  source_id="TERNLINE_2024_10K:p6", chunk_id="TERNLINE_2024_10K:p6::abc::0", company=COMPANY,
                  fiscal_year=2024, page=6)
    return Analyst({"blocks": [block], "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()


def test_the_bar_is_no_word_of_the_measure() -> None:
    asked = measure_asked("Did Ternline's annual net sales top $10 billion in 2024?", [COMPANY])
    assert "top" not in asked.phrase and "net sales" in asked.phrase
    # a count is no bar: 'more than' stays a question about the figure
    assert "more" not in measure_asked("Did Ternline's net sales exceed 15% of the market?", [COMPANY]).phrase


def test_a_figure_above_the_bar_is_yes_and_one_below_is_no() -> None:
    above = _answer("Did Ternline's net sales top $10 billion in 2024?")
    assert above and above[0].startswith("Yes.") and "$10,208,580k" in above[0] and "above $10 billion" in above[0]
    below = _answer("Did Ternline's net sales exceed $12 billion in 2024?")
    assert below and below[0].startswith("No.") and "below $12 billion" in below[0], below
    short = _answer("Did Ternline's net sales fall short of $12 billion in 2024?")
    assert short and short[0].startswith("Yes."), short
    margin = _answer("Was Ternline's operating margin above 20% in 2024?")
    assert margin and margin[0].startswith("No.") and "16.1%" in margin[0], margin


CUSTOMER = ("During fiscal 2024, Harbour Mart Inc. and its affiliates (Harbour Mart) accounted for 21 percent of our "
            "consolidated net sales and 30 percent of net sales of our Retail segment. No other customer accounted "
            "for 10 percent or more of our consolidated net sales.")


def _said(question: str, text: str = CUSTOMER) -> list[str]:
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} FY2024 p.4", text=text,
                  source_id="TERNLINE_2024_10K:p4", chunk_id="TERNLINE_2024_10K:p4::abc::0", company=COMPANY,
                  fiscal_year=2024, page=4)
    return Analyst({"blocks": [block], "companies": [COMPANY], "fiscal_years": [2024]}, question).sentences()


def test_a_share_in_words_is_a_bar_a_sentence_decides() -> None:
    # 'a quarter' is 25 per cent, no word a sentence must say; the sentence's first share decides
    below = _said("Did Harbour Mart account for more than a quarter of Ternline's consolidated net sales in fiscal "
                  "2024?")
    assert below and below[0].startswith("No. During fiscal 2024, Harbour Mart Inc."), below
    above = _said("Did Harbour Mart account for more than a fifth of Ternline's consolidated net sales in fiscal "
                  "2024?")
    assert above and above[0].startswith("Yes."), above
    assert _said("Did Harbour Mart account for less than half of Ternline's consolidated net sales in fiscal "
                 "2024?")[0].startswith("Yes.")


def test_a_bar_of_the_sentences_own_decides_nothing() -> None:
    # 'No single external customer accounted for 10% or more' says nothing of 5%
    said = _said("Does any single customer account for more than 5% of Ternline's consolidated net sales?",
                 "Ternline operates in two segments. No single external customer accounted for 10% or more of "
                 "consolidated net sales.")
    assert not said or not said[0].startswith(("Yes", "No")), said
