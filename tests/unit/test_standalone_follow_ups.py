"""A follow-up written out as the question it asks (app/text/followups: standalone_follow_up for the previous
question again for another period or company, over_turns_follow_up for a question of the figures the last two
turns gave) and the enrichment that uses them (nodes/conversation.enrich)."""

from __future__ import annotations

from functools import partial

import pytest

from app.text.companies import company_spans
from app.text.followups import over_turns_follow_up, standalone_follow_up
from app.turns import Turn
from nodes.conversation import enrich

KNOWN = ["Northwind Logistics", "Helio Renewables", "3M", "Johnson & Johnson", "Amcor"]
SPANS = partial(company_spans, known=KNOWN, aliases={"jnj": "Johnson & Johnson"})
REVENUE = "What was Northwind Logistics' revenue in FY2024?"


def test_company_spans_are_where_the_text_names_each_company_possessives_outside() -> None:
    text = "What were JnJ's and 3M's sales, and Northwind Logistics' margin?"
    assert [(text[a:b], c) for a, b, c in SPANS(text)] == [
        ("JnJ", "Johnson & Johnson"), ("3M", "3M"), ("Northwind Logistics", "Northwind Logistics")]
    short = "And Amcor?"
    assert [short[a:b] for a, b, _ in SPANS(short)] == ["Amcor"]  # 'And' starts no name


@pytest.mark.parametrize("follow_up, standalone", [
    ("And in FY2023?", "What was Northwind Logistics' revenue in FY2023?"),
    ("And for 2022?", "What was Northwind Logistics' revenue in FY2022?"),
    ("How about fiscal 2021?", "What was Northwind Logistics' revenue in FY2021?"),
    ("And in FY23?", "What was Northwind Logistics' revenue in FY2023?"),
    ("And the year before?", "What was Northwind Logistics' revenue in FY2023?"),
    ("What about Helio Renewables?", "What was Helio Renewables' revenue in FY2024?"),
    ("Same for 3M?", "What was 3M's revenue in FY2024?"),
    ("What about Helio in 2023?", "What was Helio's revenue in FY2023?"),
])
def test_the_previous_question_is_asked_again_for_the_period_or_company_named(follow_up: str, standalone: str
                                                                             ) -> None:
    assert standalone_follow_up(follow_up, REVENUE, SPANS) == standalone


@pytest.mark.parametrize("follow_up", [
    "And its operating margin?",        # a measure of its own: the thread's company is carried instead
    "How did it change?",               # of the figures given, not the question again
    "What about the Asia segment?",     # names a segment the previous question did not ask about
    "And?",                             # names nothing new
])
def test_a_follow_up_that_asks_more_is_not_rewritten(follow_up: str) -> None:
    assert standalone_follow_up(follow_up, REVENUE, SPANS) is None


def test_what_to_replace_must_be_clear() -> None:
    two_years = "How did Northwind Logistics' revenue change from FY2023 to FY2024?"
    assert standalone_follow_up("And in FY2022?", two_years, SPANS) is None
    two_companies = "What was the difference in revenue between Northwind Logistics and Helio Renewables?"
    assert standalone_follow_up("What about Amcor?", two_companies, SPANS) is None
    assert standalone_follow_up("And in 2022?", "What was 3M's capital expenditure?", SPANS) == \
        "What was 3M's capital expenditure in 2022?"  # a year added where none was named
    assert standalone_follow_up("And in Q3?", "What were Amcor's net sales in Q2 2023?", SPANS) == \
        "What were Amcor's net sales in Q3 2023?"
    assert standalone_follow_up("What about the third quarter?",
                                "What were Amcor's net sales in the second quarter of 2023?", SPANS) == \
        "What were Amcor's net sales in the third quarter of 2023?"


YEARS = [("What was Helio Renewables' revenue in FY2024?", [2024]),
         ("What was Helio Renewables' revenue in FY2023?", [2023])]
COMPANIES = [("What was Northwind Logistics' revenue in FY2024?", [2024]),
             ("What was Helio Renewables' revenue in FY2024?", [2024])]


@pytest.mark.parametrize("follow_up", ["How did it change?", "Which year was higher?", "What was the difference?",
                                       "Which one is bigger?", "What was the growth?"])
def test_a_question_of_the_figures_two_turns_gave_is_written_out(follow_up: str) -> None:
    assert over_turns_follow_up(follow_up, YEARS, SPANS) == \
        "How did Helio Renewables' revenue change from FY2023 to FY2024?"
    assert over_turns_follow_up(follow_up, COMPANIES, SPANS) == \
        "What was the difference in FY2024 revenue between Northwind Logistics and Helio Renewables?"


def test_only_the_last_two_turns_of_one_question_count() -> None:
    assert over_turns_follow_up("How did it change?", [COMPANIES[0], *YEARS], SPANS) == \
        "How did Helio Renewables' revenue change from FY2023 to FY2024?"
    assert over_turns_follow_up("How did it change?", YEARS[:1], SPANS) is None  # one figure: nothing to compare
    other = [YEARS[0], ("What was Helio Renewables' operating margin in FY2023?", [2023])]
    assert over_turns_follow_up("How did it change?", other, SPANS) is None  # two questions, not one
    assert over_turns_follow_up("How did its margin change?", YEARS, SPANS) is None  # a measure of its own


def turn(question: str, years: list[int], companies: list[str]) -> Turn:
    return Turn(asked=question, question=question, answer="£1,311.2m [1].", status="answered",
                fiscal_years=years, companies=companies)


def test_enrichment_writes_the_standalone_question_with_its_company_and_year() -> None:
    turns = [turn(REVENUE, [2024], ["Northwind Logistics"])]
    out = enrich({"question": "What about Helio Renewables?", "recent_turns": turns}, known_companies=lambda: KNOWN)
    assert out["question"] == "What was Helio Renewables' revenue in FY2024?"
    assert out["companies"] == ["Helio Renewables"] and out["fiscal_years"] == [2024]
    year = enrich({"question": "And in FY2023?", "recent_turns": turns}, known_companies=lambda: KNOWN)
    assert year["question"] == "What was Northwind Logistics' revenue in FY2023?" and year["fiscal_years"] == [2023]
    turns.append(turn("What was Northwind Logistics' revenue in FY2023?", [2023], ["Northwind Logistics"]))
    # no follow-up opening, yet a question of the figures just given
    higher = enrich({"question": "Which was higher?", "recent_turns": turns}, known_companies=lambda: KNOWN)
    assert higher["question"] == "How did Northwind Logistics' revenue change from FY2023 to FY2024?"
    assert higher["fiscal_years"] == [2023, 2024]
    fresh = enrich({"question": "What was Amcor's revenue in 2023?", "recent_turns": turns},
                   known_companies=lambda: KNOWN)
    assert "question" not in fresh  # a question of its own stays as asked


def test_another_measure_or_a_pronoun_asks_the_previous_question_of_it() -> None:
    from app.text.followups import measure_follow_up

    costco = partial(company_spans, known=["Costco Wholesale", "Johnson & Johnson", "Block"],
                     aliases={"costco": "Costco Wholesale"})
    assert measure_follow_up("What about its membership fee revenue?", "What was Costco's net income in fiscal 2021?",
                             costco) == "What was Costco's membership fee revenue in fiscal 2021?"
    debt = "What was Johnson & Johnson's total debt at the end of 2022?"
    assert measure_follow_up("Did it increase compared to 2021?", debt, costco) == \
        "Did Johnson & Johnson's total debt increase in 2022 compared to 2021?"
    assert measure_follow_up("And Cash App's gross profit?", "What was Block's gross profit in 2020?", costco) == \
        "What was Block's Cash App gross profit in 2020?"
    assert measure_follow_up("What about the Asia segment?", debt, costco) is None  # a segment, not a measure
    assert measure_follow_up("What about Block?", debt, costco) is None  # another company: standalone_follow_up's
    assert measure_follow_up("What about its margin?", "How did Block's revenue change?", costco) is None


def test_a_question_naming_no_company_on_a_thread_about_one_is_about_it() -> None:
    turns = [turn("What was Northwind Logistics' order intake in 2024?", [2024], ["Northwind Logistics"])]
    out = enrich({"question": "Which segment had the highest order intake?", "recent_turns": turns},
                 known_companies=lambda: KNOWN)
    assert out["companies"] == ["Northwind Logistics"] and out["question"].endswith("[Northwind Logistics, FY2024]")
    across = enrich({"question": "Which company had the highest revenue in 2024?", "recent_turns": turns},
                    known_companies=lambda: KNOWN)
    assert across["companies"] == [] and "question" not in across  # about the set of companies: none carried


def test_a_yes_no_asked_of_the_figures_given_stays_a_yes_no() -> None:
    assert over_turns_follow_up("Did it grow?", YEARS, SPANS) == \
        "Did Helio Renewables' revenue grow from FY2023 to FY2024?"
    assert over_turns_follow_up("Was it lower?", YEARS, SPANS) == \
        "Did Helio Renewables' revenue decrease from FY2023 to FY2024?"


def test_a_conversation_that_never_named_its_company_keeps_the_threads() -> None:
    # ConvFinQA's conversations name no company: the reader said which when asked
    turns = [Turn(asked="what was the total revenue in 2009?", question="what was the total revenue in 2009? [Amcor]",
                  answer="6,305 [1].", status="answered", companies=["Amcor"], fiscal_years=[2009])]
    out = enrich({"question": "and what was that in 2008?", "recent_turns": turns}, known_companies=lambda: KNOWN)
    assert out["question"] == "what was the total revenue in 2008? [Amcor]"
    assert out["companies"] == ["Amcor"] and out["fiscal_years"] == [2008]


def test_a_previous_question_dated_relative_to_the_thread_is_not_rewritten_for_a_year() -> None:
    previous = "and in that last year of the period, what was the total capital?"
    assert standalone_follow_up("what was it in 2007?", previous, SPANS) is None
