"""app/memory/guard.py: a semantic cache hit is refused when the questions differ in company, year, period,
metric or negation, however alike they read."""

from __future__ import annotations

import pytest

from app.memory.guard import cache_conflict, companies_in_text

KNOWN = ["Northwind Logistics", "Helio Renewables"]
BASE = "What was Northwind Logistics' revenue in FY2024?"


@pytest.mark.parametrize(("asked", "reason"), [
    ("What was Helio Renewables' revenue in FY2024?", "company"),
    ("What was Northwind Logistics' revenue in FY2023?", "fiscal year"),
    ("What was Northwind Logistics' revenue in the first half of FY2024?", "period"),
    ("What was Northwind Logistics' operating margin in FY2024?", "metric"),
    ("What was Northwind Logistics' total current liabilities in FY2024?", "metric"),
])
def test_questions_that_ask_different_things_never_share_an_answer(asked, reason):
    assert cache_conflict(asked, BASE, KNOWN) == reason


def test_negation_is_a_different_question():
    assert cache_conflict("Did Northwind Logistics' revenue rise in FY2024?",
                          "Did Northwind Logistics' revenue not rise in FY2024?", KNOWN) == "negation"


@pytest.mark.parametrize("asked", [
    "what was northwind logistics' revenue in FY2024",
    "How much revenue did Northwind Logistics report in FY2024?",
    "Northwind Logistics revenue FY2024?",
])
def test_paraphrases_of_the_same_question_pass_the_guard(asked):
    assert cache_conflict(asked, BASE, KNOWN) is None


def test_the_companies_found_are_remembered_per_list_of_known_companies():
    asked = "What did Acme Widgets earn in FY2024?"
    assert companies_in_text(asked, ["Acme Widgets"]) == {"acme widgets"}
    assert companies_in_text(asked, []) == set()  # not the answer remembered for the other list
    assert companies_in_text(asked, ["Acme Widgets", "Ternline"]) == {"acme widgets"}
    assert companies_in_text("What did ACME WIDGETS earn?", ["Acme Widgets"]) == {"acme widgets"}
    # An ingest that adds a company: a question seen before is read against the new list.
    assert companies_in_text("What did Borealis earn in FY2024?", ["Acme Widgets"]) == set()
    assert companies_in_text("What did Borealis earn in FY2024?", ["Acme Widgets", "Borealis"]) == {"borealis"}
