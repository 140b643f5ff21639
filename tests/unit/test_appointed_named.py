"""Who was appointed to a role, asked of as 'its new CEO': the filing's sentence says who 'has been appointed
President and Chief Executive Officer', never that the CEO is new, and writes the person with a middle initial
('Dana K. Whitlow'), whose point ends no sentence. Companies and people are invented."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.sentences import split_answer, split_at_stops, split_sentences
from app.turns import Block

_FILING = ("On August 19, 2024, Corvane Packaging, Inc. (the “Company”) issued a press release announcing that, as "
           "part of a planned succession process, Peter J. Holm will step down as President and Chief Executive "
           "Officer of the Company, effective September 1, 2024. Dana K. Whitlow, 55, former Chief Executive "
           "Officer of Brightwell Stores, Inc., has been appointed President and Chief Executive Officer of the "
           "Company, effective September 1, 2024.")


def test_a_middle_initials_point_ends_no_sentence() -> None:
    sentences = split_sentences(_FILING)
    assert any(s.startswith("Dana K. Whitlow, 55, former Chief Executive Officer") for s in sentences), sentences
    assert not any(s.startswith("Whitlow") for s in sentences)
    assert split_sentences("The U.S. business grew 4% in 2024. Margins held at the level of 2023.") == [
        "The U.S. business grew 4% in 2024.", "Margins held at the level of 2023."]
    # an abbreviation's point ends no sentence either: 'U.S. Cellular' is one name
    assert split_sentences("Revenue of the U.S. Cellular segment grew 4% in 2024. Margins held.") == [
        "Revenue of the U.S. Cellular segment grew 4% in 2024."]


def test_the_person_appointed_answers_who_is_the_new_ceo() -> None:
    block = Block(n=1, kind="report", header="[1] Corvane Packaging FY2024, p.2 [text]", source_id="cv-8k",
                  chunk_id="cv-8k", company="Corvane Packaging", fiscal_year=2024, page=2, text=_FILING)
    state = {"question": "Who did Corvane Packaging appoint as its new CEO in August 2024?",
             "companies": ["Corvane Packaging"], "fiscal_years": [2024], "blocks": [block]}
    answer = compose_offline(state)
    assert answer.startswith("Dana K. Whitlow, 55,") and "[1]" in answer, answer


def test_a_titles_point_ends_no_sentence() -> None:
    """'Ms. Tarrow' and 'No. 4' go on: the sentence that states a grant is read whole, and so is an answer's."""
    text = ("In March 2023, the Committee granted Ms. Tarrow 48,500 performance stock units under the 2021 plan. "
            "Dr. Amsel chairs the committee under Resolution No. 4 of the board.")
    assert split_sentences(text) == [
        "In March 2023, the Committee granted Ms. Tarrow 48,500 performance stock units under the 2021 plan.",
        "Dr. Amsel chairs the committee under Resolution No. 4 of the board."]
    assert split_at_stops("Mr. Oduya left in 2024. Mrs. Vance joined.") == [
        "Mr. Oduya left in 2024.", "Mrs. Vance joined."]
    assert split_answer("Ms. Tarrow was granted 48,500 units [1]. Mr. Oduya left [2].") == [
        "Ms. Tarrow was granted 48,500 units [1].", "Mr. Oduya left [2]."]
    # a sentence that ends in a name, then one that opens with a title, are still two
    text = "The award was approved by the board of Corvane. Ms. Tarrow accepted it in April 2023."
    assert split_sentences(text) == [
        "The award was approved by the board of Corvane.", "Ms. Tarrow accepted it in April 2023."]


def test_a_middle_initial_ends_no_sentence_of_a_question_or_an_answer() -> None:
    from app.text.measures import asked_sentence
    from app.text.sentences import split_answer

    question = ("According to Ternline's August 2024 succession 8-K, on what date is Jane Q. Fairweather to become the "
                "company's non-executive Chair?")
    assert asked_sentence(question).startswith("on what date is Jane Q. Fairweather"), asked_sentence(question)
    answer = ("The Company's Lead Independent Director, Jane Q. Fairweather, will become non-Executive Chair, "
              "effective February 1, 2025 [1]. Mr. Hale will retire [2].")
    assert len(split_answer(answer)) == 2 and split_answer(answer)[0].startswith("The Company's Lead"), \
        split_answer(answer)
