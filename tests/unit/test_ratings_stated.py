"""A credit rating asked is a grade ('AA+'), not a rate: the sentence that holds the question's words and states
the grade answers it; an interest rate stays a per cent.

Every company, page and figure here is made up (Tamsin Bank).
"""

from __future__ import annotations

from app.facts.query import read_query
from tests.unit.test_prose_amounts_dated import _compose

OVERVIEW = ("Treasury overview\nAt December 31, 2024, the average credit rating of the Treasury investment securities "
            "comprising the portfolio in the table below was AA- (based upon external ratings where available). "
            "The weighted average interest rate on the portfolio was 3.4%.")
QUESTION = "What is the average credit rating of the investment securities held in Tamsin Bank's Treasury portfolio?"


def test_a_credit_rating_asked_is_no_per_cent() -> None:
    assert read_query(QUESTION, ["Tamsin Bank"]).kind == "any"
    assert read_query("What was the weighted average interest rate on Tamsin Bank's portfolio?",
                      ["Tamsin Bank"]).kind == "percent"


def test_a_credit_rating_is_answered_by_the_grade_its_sentence_states() -> None:
    answer = _compose("Tamsin Bank", 2024, OVERVIEW, QUESTION)
    assert answer.startswith("The average credit rating of the investment securities held in Tamsin Bank's Treasury "
                             "portfolio was AA- as of December 31, 2024 [1].")
    assert "3.4%" not in answer
    # a rating no sentence states is not answered by a rate
    unrated = "Treasury overview\nThe weighted average interest rate on the Treasury portfolio was 3.4%."
    assert _compose("Tamsin Bank", 2024, unrated, QUESTION).startswith("Insufficient evidence")
