"""A financing asked by its size and its date, as an analyst reads a current report: 'How large is the 364-day
credit agreement it signed, and as of what date is it dated?', 'What was the size of its revolving credit
agreement, and on what date does it expire?'. The size is the agreement's amount of money (not its 364 days, an
exhibit's number or a form's), and a date asked beside it is the sentence that dates the thing asked.

Every company, page and figure here is made up (Larkmere, a drinks maker).
"""

from __future__ import annotations

from app.facts.query import read_query
from app.text.measures import first_part, measure_asked, second_part
from app.text.question_kinds import read_ask
from app.text.questions import asks_for_figure
from tests.unit.test_prose_amounts_dated import _compose

CREDIT = ("On May 24, 2025, Larkmere entered into a new $2,600,000,000 364 day unsecured revolving credit agreement "
          "(the “2025 364 Day Credit Agreement”) among Larkmere, as borrower, the lenders party thereto, and Harbor "
          "Bank, N.A., as administrative agent. The 2025 364 Day Credit Agreement enables Larkmere and its borrowing "
          "subsidiaries to borrow up to $2,600,000,000, subject to customary terms and conditions, and expires on "
          "May 22, 2026. The foregoing description of the 2025 364 Day Credit Agreement does not purport to be "
          "complete and is qualified by reference to its full text, filed as Exhibit 99.1 to this Current Report "
          "on Form 8-K.")

SIGNED = ("How large is the 364-day credit agreement Larkmere signed in May 2025 (filed with its May 28, 2025 Form "
          "8-K), and as of what date is it dated?")


def test_how_large_asks_a_figure_and_a_financing_is_sized_in_money() -> None:
    assert asks_for_figure("How large is the credit agreement?")
    assert read_ask(SIGNED).kind == "figure"
    assert read_query(SIGNED, ["Larkmere"]).kind == "money"
    # a size asked of what is no financing keeps its own unit ('How large is its workforce?' is a count)
    assert read_query("How large was Larkmere's workforce in 2025?", ["Larkmere"]).kind != "money"


def test_a_number_joined_to_its_word_stays_in_the_measure_and_the_signing_is_no_word_of_it() -> None:
    assert measure_asked(SIGNED, ["Larkmere"]).phrase == "364-day credit agreement"
    asked = "What was the size of Larkmere's revolving credit agreement in 2025?"
    assert measure_asked(asked, ["Larkmere"]).phrase == "revolving credit agreement"
    # (a word of the deed is no word of a measure that names it: 'secured debt' stays)
    assert measure_asked("How much secured debt did Larkmere have at the end of 2025?", ["Larkmere"]).phrase \
        == "secured debt"


def test_as_of_what_date_is_a_second_part_of_the_question() -> None:
    asked = "How large is the facility, and as of what date is it dated?"
    assert first_part(asked) == "How large is the facility"
    assert second_part(asked) == "as of what date is it dated?"


def test_the_size_is_the_agreements_money_not_its_days_or_an_exhibits_number() -> None:
    answer = _compose("Larkmere", 2025, CREDIT, SIGNED)
    assert answer.startswith("Larkmere's 364-day credit agreement was $2,600,000,000 in FY2025 [1].")
    assert "On May 24, 2025" in answer  # the sentence quoted for it dates it
    assert "99.1" not in answer and "May 22, 2026" not in answer


def test_on_what_date_it_expires_is_the_sentence_that_dates_its_expiry() -> None:
    asked = "What was the size of Larkmere's revolving credit agreement in 2025, and on what date does it expire?"
    answer = _compose("Larkmere", 2025, CREDIT, asked)
    assert answer.startswith("Larkmere's revolving credit agreement was $2,600,000,000 in FY2025 [1].")
    assert "expires on May 22, 2026 [1]" in answer
