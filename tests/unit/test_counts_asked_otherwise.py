"""Counts asked in other words than the filing's: a 'headcount' the report states as people employed, and a count
asked for two places ('in the United States and internationally') stated in two sentences."""

from __future__ import annotations

from app.knowledge.search import breakdown_words, counted_stems, headcount_words
from app.models.providers.offline.composer import compose_offline
from app.text.question_kinds import read_ask
from app.turns import Block
from nodes.generate import check_citations


def _block(text: str) -> Block:
    return Block(n=1, kind="report", header="[1] Quillon Tools FY2025, p.16 [text]", source_id="quillon-2025.pdf:p16",
                 chunk_id="quillon-2025.pdf:p16::0", company="Quillon Tools", fiscal_year=2025, page=16, text=text)


def _answer(question: str, text: str) -> str:
    return compose_offline({"question": question, "companies": ["Quillon Tools"], "fiscal_years": [2025],
                            "blocks": [_block(text)]})


def test_a_headcount_asked_is_searched_for_in_the_words_filings_state_it_in() -> None:
    assert headcount_words("Quillon Tools headcount close fiscal 2025") == ["employees", "employed", "people"]
    assert {"peopl", "employe"} <= counted_stems("Quillon Tools workforce 2025")
    assert headcount_words("how many people did Quillon Tools employ") == []  # already in the filing's words
    assert headcount_words("Quillon Tools revenue 2025") == []


def test_the_close_of_a_year_is_a_noun_not_a_deal_closed() -> None:
    assert read_ask("What was Quillon Tools' headcount at the close of its fiscal 2025?").kind == "figure"
    assert read_ask("What did Quillon Tools close in 2025?").one_name  # the verb still asks what it closed


def test_a_headcount_at_the_close_of_a_year_is_answered_from_the_people_employed() -> None:
    text = ("EMPLOYEES\nAs of November 29, 2025, we employed 13,893 people. We have not experienced work stoppages "
            "and believe our employee relations are good.")
    answer = _answer("What was Quillon Tools' headcount at the close of its fiscal 2025?", text)
    assert "13,893" in answer and "[1]" in answer, answer


def test_a_count_asked_at_home_and_abroad_gives_both_from_their_sentences() -> None:
    text = ("Properties. In the U.S., Quillon's general offices are located in Dayton, Ohio. The Company operates 61 "
            "manufacturing facilities in 29 states. Internationally, the Company operates 83 manufacturing and "
            "converting facilities in 28 countries. Quillon owns the majority of its physical properties.")
    answer = _answer("How many manufacturing facilities did Quillon Tools run in the United States and "
                     "internationally according to its 2025 annual report?", text)
    assert answer.startswith("Quillon Tools' manufacturing facilities: 61 in 29 states and 83 in 28 countries "
                             "internationally"), answer
    # every sentence stands the citation check: each quote is one sentence, each place in the block's words
    kept, check = check_citations(answer, [_block(text)], "How many manufacturing facilities did Quillon Tools run "
                                  "in the United States and internationally?", [2025])
    assert not check.flagged and len(kept) == 3, check.flagged


def test_a_region_asked_is_searched_for_in_the_words_breakdowns_are_titled_with() -> None:
    assert breakdown_words("Quillon Tools which region's net sales fell 2025") == ["geography", "geographic"]
    assert breakdown_words("Quillon Tools net sales by geographic area") == []  # already in the filing's words
    assert breakdown_words("Quillon Tools net sales 2025") == []
