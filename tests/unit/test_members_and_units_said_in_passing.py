"""A business named as the subject of a question's verb ('did its Flexibles segment earn', 'does Tilebound
have'), a row whose label says it is a percentage ('% growth - Adjusted EBIT'), and a table's unit stated at the
end of the sentence that leads into it ('… for each of our reportable segments (amounts in' / 'millions):').

Every company, page and figure here is made up (Calder Games, a publisher; Ostrava Foods, a snack maker).
"""

from __future__ import annotations

from app.text.measures import measure_asked
from app.text.statements import read_statement
from tests.unit.test_prose_amounts_dated import _compose


def test_a_business_that_earned_the_measure_is_the_member_asked() -> None:
    asked = measure_asked("Before Ostrava Foods' adjustments, how much EBIT did its Crisps segment earn in fiscal "
                          "2024?", ["Ostrava Foods"])
    assert (asked.segment, asked.phrase) == ("Crisps", "EBIT")
    # a deed that brought the measure in is still no part of it
    assert measure_asked("How much net cash did the sale bring in?", ["Ostrava Foods"]).phrase == "net cash"


def test_a_business_that_has_the_things_counted_is_the_member_asked() -> None:
    asked = measure_asked("How many monthly active users does Tilebound have?", ["Calder Games"])
    assert (asked.segment, asked.count_noun) == ("Tilebound", "monthly active users")
    # the company itself has them all
    assert measure_asked("How many employees does Calder Games have?", ["Calder Games"]).segment is None


BRIDGE = """Reconciliation of EBIT
($ million) 2024 2023
EBIT 1,357 1,101
Adjusted EBIT 1,429 1,517
% growth - Adjusted EBIT (6) 4
"""


def test_a_row_labelled_as_a_percentage_is_no_amount() -> None:
    growth_only = "\n".join(line for line in BRIDGE.splitlines() if not line.startswith(("EBIT", "Adjusted")))
    answer = _compose("Ostrava Foods", 2024, growth_only, "What was Ostrava Foods' EBIT in fiscal 2024?")
    assert "$6m" not in answer and answer.startswith("Insufficient evidence")
    assert "$1,357m" in _compose("Ostrava Foods", 2024, BRIDGE, "What was Ostrava Foods' EBIT in fiscal 2024?")


USERS = """Monthly Active Users
The number of MAUs for a given period can be significantly impacted by the timing of new content releases. The
following table details our average MAUs on a sequential quarterly basis for each of our reportable segments (amounts in
millions):
 December 31, 2024  September 30, 2024  June 30, 2024
Quest 128  36  37
Arcade 32  33  32
Tilebound 249  247  258
Total 409  316  327
"""


def test_a_unit_closing_the_sentence_that_leads_into_a_table_is_the_tables() -> None:
    rows = {row.line_item: row for row in read_statement(USERS).rows}
    assert rows["Tilebound"].scale == "millions" and rows["Tilebound"].values[0] == 249.0
    answer = _compose("Calder Games", 2024, USERS, "How many monthly active users does Tilebound have?")
    assert "249m" in answer.split(" [1]")[0]


def test_a_figure_asked_before_adjustments_is_never_the_adjusted_one() -> None:
    question = "Before Ostrava Foods' adjustments, how much EBIT did it earn in fiscal 2024?"
    assert _compose("Ostrava Foods", 2024, BRIDGE, question).startswith("Ostrava Foods' EBIT was $1,357m in FY2024")
    adjusted_only = BRIDGE.replace("EBIT 1,357 1,101\n", "")
    assert _compose("Ostrava Foods", 2024, adjusted_only, question).startswith("Insufficient evidence")


def test_what_a_charge_is_expected_because_of_is_no_word_of_the_charge() -> None:
    asked = measure_asked("What tax charge did Ostrava Foods expect to book in fiscal 2025 because of the new tax act, "
                          "according to its fiscal 2024 annual report?", ["Ostrava Foods"])
    assert asked.phrase == "tax charge"
