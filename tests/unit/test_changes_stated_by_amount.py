"""A change a report states by its amount ('Total net revenue … increased by $4.8 billion, or 101%, compared to
…'), with no level beside it, answers a question of how much the measure grew; a question that sets a part aside
('Leaving bitcoin aside, …') is answered by the sentence that leaves the same out, never by the total's change.

Every company, page and figure here is made up (Wrenfield, a payments company).
"""

from __future__ import annotations

from app.facts.query import read_query
from app.text.measures import measure_asked
from tests.unit.test_prose_amounts_dated import _compose

REVIEW = ("Total net revenue for the year ended December 31, 2024, increased by $3.2 billion, or 88%, compared to the "
          "year ended December 31, 2023. Token revenue increased by $2.7 billion, and represented 84% of the increase "
          "in total net revenue. Excluding token revenue, total net revenue increased by $512.4million, or 15%, in "
          "the year ended December 31, 2024, compared to the year ended December 31, 2023.")


def test_what_a_question_sets_aside_is_left_out_of_the_measure() -> None:
    question = "Leaving token revenue aside, by how much did Wrenfield's total net revenue grow in 2024?"
    assert measure_asked(question, ["Wrenfield"]).phrase == "total net revenue"
    assert read_query(question, ["Wrenfield"]).left_out == frozenset({"token", "revenu"})


def test_a_change_stated_by_its_amount_answers_how_much_it_grew() -> None:
    answer = _compose("Wrenfield", 2024, REVIEW, "By how much did Wrenfield's total net revenue grow in 2024?")
    assert answer.startswith("Wrenfield's total net revenue increased by $3.2 billion, or 88%, in FY2024 [1].")


def test_a_change_with_a_part_set_aside_is_the_one_stated_without_it() -> None:
    answer = _compose("Wrenfield", 2024, REVIEW,
                      "Leaving token revenue aside, by how much did Wrenfield's total net revenue grow in 2024?")
    assert answer.startswith("Wrenfield's total net revenue, excluding token revenue, increased by $512.4 million, "
                             "or 15%, in FY2024 [1].")
    # with only the total's change stated, the question is not answered by it
    total_only = REVIEW.split(" Token revenue")[0]
    assert _compose("Wrenfield", 2024, total_only, "Leaving token revenue aside, by how much did Wrenfield's total "
                    "net revenue grow in 2024?").startswith("Insufficient evidence")


PRODUCTS = ("• Ledger revenue of $3.18 billion increased by $873.2 million, or 38%, during fiscal 2024, from $2.30 "
            "billion in fiscal 2023.\n• Wrenfield Payroll Cloud revenue of $1.63 billion increased by $272.7 "
            "million, or 20%, during fiscal 2024, from $1.36 billion in fiscal 2023.")


def test_which_of_two_lines_grew_faster_is_read_from_each_ones_stated_change() -> None:
    from app.text.measures import members_compared

    question = "In fiscal 2024, which grew faster at Wrenfield: Ledger revenue or Wrenfield Payroll Cloud revenue?"
    pair = members_compared(question, ["Wrenfield"])
    assert pair is not None and (pair.first, pair.measure, pair.of_change) == ("Ledger", "revenue growth", True)
    answer = _compose("Wrenfield", 2024, PRODUCTS, question)
    assert answer.startswith("Ledger revenue grew faster than")
    assert "up 38.0% against up 20.0%" in answer and '"Ledger revenue of $3.18 billion' in answer  # (no bullet)


def test_the_calculators_change_of_the_totals_is_no_answer_when_a_part_is_set_aside() -> None:
    from app.calc_tools import CalcResult, Figure
    from app.models.providers.offline.composer.analyst import Analyst

    def growth(label: str) -> CalcResult:
        old = Figure(label=label, value=4713.5, unit="$m", company="Wrenfield", fiscal_year=2023, source_id="w")
        new = Figure(label=label, value=9497.6, unit="$m", company="Wrenfield", fiscal_year=2024, source_id="w")
        return CalcResult(tool="growth_rate", inputs={"old": 4713.5, "new": 9497.6}, result=101.5, unit="%",
                          expression="(9497.6 - 4713.5) / 4713.5 * 100", sources={"old": old, "new": new})

    question = "Leaving token revenue aside, by how much did Wrenfield's total net revenue grow in 2024?"
    analyst = Analyst({"question": question, "companies": ["Wrenfield"], "fiscal_years": [2024], "blocks": []},
                      question)
    assert not analyst.result_asked(growth("Total net revenue"))
    assert analyst.result_asked(growth("Total net revenue excluding token revenue"))
    plain = "By how much did Wrenfield's total net revenue grow in 2024?"
    assert Analyst({"question": plain, "companies": ["Wrenfield"], "fiscal_years": [2024], "blocks": []},
                   plain).result_asked(growth("Total net revenue"))
