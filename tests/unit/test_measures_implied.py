"""A measure a question asks by a verb ('What did its Commercial Banking segment earn') or a member it places
outside the home country ('revenue from outside the United States') is read as the words reports give it, and is
searched by them; a row of a table's figures that extraction ran into the sentence after it ends before that
sentence. Every company and figure here is made up (Ternline, Harbourline)."""

from __future__ import annotations

import pytest

from app.facts.query import same_member
from app.text.measures import measure_asked
from app.text.sentences import split_sentences
from nodes.rewrite import keyword_query

COMPANIES = ["Ternline", "Harbourline"]


@pytest.mark.parametrize("question, phrase, segment", [
    ("What did Ternline's Commercial Banking segment earn in the first quarter of 2024?", "net income",
     "Commercial Banking"),
    ("How much money did Harbourline make in 2024?", "net income", None),
    ("How much of Ternline's 2024 revenue came from outside the United States?", "revenue", "International"),
    ("How much revenue did Harbourline earn from abroad in 2024?", "revenue", "International"),
])
def test_a_measure_asked_by_its_verb_or_place_is_read_as_reports_name_it(question, phrase, segment):
    asked = measure_asked(question, COMPANIES)
    assert (asked.phrase, asked.segment) == (phrase, segment)


def test_a_measure_named_or_a_member_left_out_is_read_as_before():
    assert measure_asked("How much revenue did Harbourline make in 2024?", COMPANIES).phrase == "revenue"
    ranked = measure_asked("Outside the United States, which region had Ternline's highest sales in 2024?", COMPANIES)
    assert ranked.segment is None


def test_the_implied_measure_is_searched():
    words = keyword_query("What did Ternline's Commercial Banking segment earn in the first quarter of 2024?",
                          COMPANIES).split()
    assert words[-2:] == ["net", "income"], words
    assert "International" in keyword_query("How much of Ternline's revenue came from outside the United States?",
                                            COMPANIES).split()
    assert "income" not in keyword_query("What was Ternline's revenue in 2024?", COMPANIES).split()


def test_rows_that_name_the_rest_of_the_world_are_international():
    assert same_member("International", "Non-U.S.")
    assert same_member("International", "Outside the United States")
    assert not same_member("International", "United States")


def test_a_row_of_figures_run_into_the_next_sentence_ends_before_it():
    text = ("Sales and Marketing (in thousands, except for percentages) Year Ended December 31, 2024 2023 $ Change "
            "% Change Sales and marketing $ 1,109,670 $ 624,832 $ 484,838 78 % Percentage of total net revenue12 % "
            "13 % Sales and marketing expenses for the year ended December 31, 2024, increased by $484.8 million, "
            "or 78%, compared to the year ended December 31, 2023. On January 27, 2024, Ternline completed its "
            "acquisition of Fenmoor.")
    sentences = split_sentences(text)
    assert ("Sales and marketing expenses for the year ended December 31, 2024, increased by $484.8 million, or 78%, "
            "compared to the year ended December 31, 2023.") in sentences, sentences
    # a date's day and year, each before a comma, are no row of figures
    assert "On January 27, 2024, Ternline completed its acquisition of Fenmoor." in sentences, sentences


def test_a_row_of_figures_followed_by_another_row_stays_with_its_table():
    text = ("Restricted stock units and options with performance measures not yet met 2 4 7 Anti-dilutive employee "
            "stock options 6 3 1 Employee stock options 12 8 5 Outstanding at year end.")
    sentences = split_sentences(text)
    assert not any(s.startswith("Employee stock options") for s in sentences), sentences


@pytest.mark.parametrize("question", [
    "By what percentage did Ternline's consolidated operating income change in the second quarter of 2024 versus the "
    "year-earlier quarter?",
    "How did Ternline's consolidated operating income in Q2 2024 compare with the prior-year quarter?",
])
def test_the_period_compared_with_is_no_word_of_the_measure(question):
    assert measure_asked(question, COMPANIES).phrase == "consolidated operating income"


def test_what_a_company_sold_in_a_region_is_the_regions_net_sales_and_searched_so():
    asked = measure_asked("How much did Ternline sell in its Asia Pacific geographic area in 2024?", COMPANIES)
    assert (asked.phrase, asked.segment) == ("net sales", "Asia Pacific")
    assert keyword_query("How much did Ternline sell in its Asia Pacific geographic area in 2024?",
                         COMPANIES).split()[-2:] == ["net", "sales"]


def test_a_part_the_region_includes_states_the_parts_figure_not_the_regions():
    from app.evidence import Evidence
    from app.facts.query import choose, facts_for, read_query

    text = ("Asia Pacific included China/Hong Kong net sales to customers of $3.574 billion, $3.255 billion and "
            "$2.799 billion in 2024, 2023, and 2022, respectively.")
    doc = Evidence(chunk_id="t-23", source_id="TERNLINE_2024_10K:p23", company="Ternline", fiscal_year=2024,
                   page=23, text=text)
    region = read_query("What were Ternline's Asia Pacific net sales in 2024?", ["Ternline"], [2024])
    assert not choose(facts_for(region, [doc], ["Ternline"]), region)


def test_a_part_named_with_its_initials_in_brackets_is_asked_by_its_initials():
    asked = measure_asked("How much operating profit did Ternline's Africa, Middle East and South Asia (AMESA) "
                          "division make in 2024?", COMPANIES)
    assert (asked.phrase, asked.segment) == ("operating profit", "AMESA")
    # a bracket that holds no initials of the name before it is an aside
    assert measure_asked("What was the Net revenue (GAAP) of Ternline in 2024?", COMPANIES).segment is None


def test_a_deal_to_sell_a_business_adds_no_words_to_the_search():
    assert keyword_query("Is Ternline looking to sell its International franchise business?",
                         COMPANIES).split() == ["looking", "sell", "International", "franchise", "business"]
