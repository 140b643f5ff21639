"""A quarter's figure whose own sentence states its change against the prior year's quarter answers 'Did X grow in
the fourth quarter … compared with the prior-year quarter?' when no two periods' figures are given; a change
against another period, or a sentence of another quarter, does not. A quarterly release's 'prior year quarter'
sentence is its own quarter's. Every company and figure here is made up (Kestrel Resorts)."""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Kestrel Resorts"


def _answer(question: str, text: str, source: str = "KESTREL_2024Q4_EARNINGS") -> list[str]:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024, p.1 [text]", text=text, source_id=source,
                  chunk_id=f"{source}:p1::0", company=CO, fiscal_year=2024, page=1)
    return Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024]}, question).change_answer()


ASKED = f"Did {CO}' consolidated net revenues grow in the fourth quarter of 2024 compared with the prior-year quarter?"


def test_a_stated_rise_against_the_prior_year_quarter_answers_yes_with_its_rate_and_sentence():
    said = _answer(ASKED, "Fourth Quarter 2024 Highlights:\n• Consolidated net revenues of $2.9 billion, an "
                          "increase of 14% compared to the prior year quarter.")
    assert said and said[0].startswith("Yes.") and "rose 14% to $2.9bn in Q4 FY2024" in said[0]
    assert '"Consolidated net revenues of $2.9 billion, an increase of 14% compared to the prior year quarter."' \
        in said[1]


def test_a_stated_fall_answers_no():
    said = _answer(ASKED, "• Consolidated net revenues of $2.1 billion, a decrease of 6% compared to the prior "
                          "year quarter.")
    assert said and said[0].startswith("No.") and "fell 6% to $2.1bn" in said[0]


def test_a_change_against_another_period_or_in_another_quarters_release_answers_nothing():
    assert _answer(ASKED, "• Consolidated net revenues of $2.9 billion, an increase of 14% compared to 2019.") == []
    # a second-quarter release's 'prior year quarter' is the second quarter's
    assert _answer(ASKED, "• Consolidated net revenues of $2.9 billion, an increase of 14% compared to the prior "
                          "year quarter.", source="KESTREL_2024Q2_EARNINGS") == []


def test_a_sentence_naming_its_quarter_gives_both_quarters_figures():
    # the one year named is the comparative's; 'the fourth quarter' is Q4, as the question's is
    said = _answer(f"Did {CO}' net sales increase in the fourth quarter of fiscal 2024?",
                   "Net sales increased 18.2% to $3.2 billion compared to $2.7 billion in the fourth quarter of "
                   "fiscal 2023 primarily due to higher room rates.", source="KESTREL_2024_10K")
    assert said and said[0].startswith("Yes.") and "from $2.7bn in Q4 FY2023 to $3.2bn in Q4 FY2024" in said[0]
