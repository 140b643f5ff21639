"""Who was appointed to a role, asked of as 'its new CEO': the filing's sentence says who 'has been appointed
President and Chief Executive Officer', never that the CEO is new, and writes the person with a middle initial
('Dana K. Whitlow'), whose point ends no sentence. Companies and people are invented."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.sentences import split_sentences
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
