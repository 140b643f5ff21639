"""A question that asks who a deed was done with ('To which company did Ternline sell its division, and what gain
did it record?'): the name is asked first, the sentence that names someone the question does not comes first, and the
second part's words are no key words of the name's sentence.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.text.question_kinds import read_ask
from app.turns import Block

COMPANY = "Ternline"
TEXT = ("In June 2024, Ternline completed the sale of substantially all of its Coastal Freight Division and "
        "reflected a pre-tax gain of $212 million as a result of this divestiture. In June 2024, Ternline completed "
        "the sale of substantially all of its Coastal Freight Division to Marrow Logistics Limited. This business had "
        "annual sales of approximately $180 million.")
QUESTION = ("To which company did Ternline sell substantially all of its Coastal Freight Division in June 2024, and "
            "what gain on sale did it record?")


def _block(text: str) -> Block:
    return Block(n=1, kind="report", header=f"[1] {COMPANY} FY2024 p.28", text=text,
                 source_id="TERNLINE_2024_10K:p28", chunk_id="TERNLINE_2024_10K:p28::abc::0", company=COMPANY,
                 fiscal_year=2024, page=28)


def test_a_name_asked_after_a_preposition_is_one_name() -> None:
    assert read_ask(QUESTION).one_name
    assert read_ask("To whom did Ternline sell its Coastal Freight Division?").one_name
    assert read_ask("From which bank did Ternline borrow in 2024?").one_name


def test_the_sentence_that_names_the_party_answers_first() -> None:
    state = {"blocks": [_block(TEXT)], "companies": [COMPANY], "fiscal_years": [2024]}
    sentences = Analyst(state, QUESTION).sentences()
    assert "Marrow Logistics Limited" in sentences[0], sentences
    # the first part's words only: the gain's sentence, which names no one, does not come first
    assert not any("212" in s for s in sentences[:1]), sentences


def test_a_date_asked_is_answered_by_the_sentence_that_gives_the_day() -> None:
    text = ("During fiscal 2024, Ternline completed its acquisition of privately held Fenmoor, a cold-storage "
            "operator, for $807.5 million. On January 27, 2024, Ternline completed its acquisition of privately held "
            "Fenmoor, a cold-storage operator.")
    state = {"blocks": [_block(text)], "companies": [COMPANY], "fiscal_years": [2024]}
    said = Analyst(state, "On what date did Ternline complete its acquisition of Fenmoor, according to its fiscal "
                          "2024 10-K?").sentences()
    assert said and "January 27, 2024" in said[0], said


def test_a_yes_no_question_gives_no_weight_to_a_sentences_day() -> None:
    # the day a sentence gives weighs only when a date is asked: for a yes/no, the payment with its amount leads
    text = ("Ternline paid a special dividend of $1.00 per share in 2024. On March 3, 2024, Ternline declared and "
            "paid a special dividend.")
    state = {"blocks": [_block(text)], "companies": [COMPANY], "fiscal_years": [2024]}
    said = Analyst(state, "Did Ternline pay a special dividend in 2024?").sentences()
    assert said and "$1.00" in said[0], said


def test_where_the_answer_stands_is_no_word_of_the_measure() -> None:
    from app.facts.query import read_query

    query = read_query("What were Harbour China's net revenues for the first half of 2024, according to Ternline "
                       "Resorts' Q2 2024 10-Q?", ["Ternline Resorts"], [2024])
    assert query.measure.phrase == "net revenues", query.measure
    assert read_query("What was Ternline's revenue in 2024, according to its fiscal 2024 10-K?", ["Ternline"],
                      [2024]).measure.phrase == "revenue"


def test_the_day_a_business_was_sold_is_said_by_the_sentence_of_its_sale_alone() -> None:
    text = ("During the fourth quarter of fiscal year 2023, Ternline classified the assets of its Baltic business as "
            "held for sale as a result of its decision to sell its Baltic business, and recorded an impairment of $90 "
            "million. On December 23, 2023, Ternline completed the sale of its Baltic business after receiving all "
            "necessary regulatory approvals. We also operated three depots in the Baltics until their sale on "
            "December 23, 2023, for net cash proceeds of $365 million.")
    state = {"blocks": [_block(text)], "companies": [COMPANY], "fiscal_years": []}
    said = Analyst(state, "On what date did Ternline sell its Baltic business?").sentences()
    assert said == ["On December 23, 2023, Ternline completed the sale of its Baltic business after receiving all "
                    "necessary regulatory approvals [1]."], said
