"""What an answer to a figure question must name (app/text/questions.measure_terms and states_measure): a line
item's statement names stand for it, but what the question adds to the line item must be stated too, so the
group's 'Revenue' does not answer 'satellite TV revenue' and 'Net sales' does not answer an Aerospace segment's
net sales. Companies and figures are invented."""

from __future__ import annotations

import pytest

from app.text.questions import answers_question, measure_terms, states_measure

CO = ["Tamsin Rail"]


@pytest.mark.parametrize(("question", "sentence"), [
    ("How much revenue did Tamsin Rail's satellite TV business generate in 2024?", "Revenue was C$4,899.6 million."),
    ("What were Tamsin Rail's Aerospace segment net sales for 2024?", "Net sales 230.0 218.4"),
    ("What was Tamsin Rail's postpaid ARPU in 2024?", "Blended ARPU (monthly) $ 55.55 $ 55.61."),
])
def test_a_line_items_name_does_not_state_what_the_question_adds_to_it(question: str, sentence: str) -> None:
    assert not answers_question(question, sentence, CO)


@pytest.mark.parametrize(("question", "sentence"), [
    ("What was Tamsin Rail's revenue growth from FY2021 to FY2022?", "Net sales 35,355 34,229"),
    ("How much did Tamsin Rail generate in cash flow from operating activities in FY2018?",
     "Net cash provided by operating activities 6,439 6,240"),
    ("What was Tamsin Rail's net income attributable to shareholders in FY2023?",
     "Net income attributable to Tamsin Rail plc 1,048 805"),
    ("What was the total revenue of Tamsin Rail in FY2022?", "Net revenue 86,392 79,474"),
    ("What was Tamsin Rail's Wireless segment revenue in 2024?", "Wireless revenue grew to C$2,761.0 million."),
])
def test_a_line_items_statement_names_still_state_it(question: str, sentence: str) -> None:
    assert answers_question(question, sentence, CO)


def test_the_segment_asked_joins_every_statement_name_of_the_line_item() -> None:
    terms = measure_terms("What were Tamsin Rail's Aerospace segment net sales for 2024?", CO)
    revenue_names = [t for t in terms if "revenu" in t]
    assert revenue_names and all("aerospac" in t for t in revenue_names)
    assert states_measure(terms, "Aerospace net sales were 12.4 million.")


def test_the_measure_without_the_questions_scaffold_is_one_way_to_state_it() -> None:
    """'how much EBIT did its Service segment generate' is stated by the Service segment's EBIT, whatever
    'generate' does; 'how many machine tools did it deliver in FY3/2025' by machine tools delivered."""
    ebit = measure_terms("How much EBIT did Tamsin Rail's Service segment generate in 2024?", CO)
    assert {"ebit", "servic"} in ebit
    assert states_measure(ebit, "Service EBIT increased to €91.7 million.")
    tools = measure_terms("How many machine tools did Tamsin Rail deliver in FY3/2025?", CO)
    assert states_measure(tools, "Machine tools delivered (units) 4,352 4,186")
    assert not states_measure(tools, "Orders received (Machine Tools) 41,280 40,150")
