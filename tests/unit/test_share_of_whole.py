"""'How much of X comes from Y?' is answered by the share the report states, and a year PDF extraction glues to the
next word ('2019and') still dates the figure before it."""

from __future__ import annotations

from app.facts.prose import dated_figures
from app.facts.query import read_query
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

_PAGE = ("We are also increasingly serving larger merchants, which we define as merchants that generate more than "
         "$125,000 in annualized GPV. GPV from \nlarger merchants represented 60% of Merchant GPV in the fourth "
         "quarter of 2025, up from 56% in the fourth quarter of 2024and\n 52% in the fourth quarter of 2023.")


def test_a_part_of_a_whole_asked_reads_a_share_or_an_amount() -> None:
    query = read_query("How much of Tessaly Pay's merchant gross payment volume comes from larger merchants?")
    assert query.share_of and query.kind == "any"
    assert not read_query("How much revenue did Tessaly Pay earn from larger merchants?").share_of


def test_a_year_glued_to_the_next_word_still_dates_its_figure() -> None:
    sentence = "It was 60% in the fourth quarter of 2025, up from 56% in the fourth quarter of 2024and 52% in 2023."
    years = [year for _, year, _ in dated_figures(sentence, 2025)]
    assert years == [2025, 2024, 2023]


def test_the_share_stated_answers_how_much_of_the_whole_a_part_is() -> None:
    block = Block(n=1, kind="report", header="[1] Tessaly Pay FY2025, p.6 [text]", source_id="tessaly-2025.pdf:p6",
                  chunk_id="tessaly-2025.pdf:p6::0", company="Tessaly Pay", fiscal_year=2025, page=6, text=_PAGE)
    answer = compose_offline({"question": "How much of Tessaly Pay's merchant gross payment volume comes from larger "
                                          "merchants?", "companies": ["Tessaly Pay"], "fiscal_years": [],
                              "blocks": [block]})
    assert "60%" in answer.split(". ")[0] and "Q4 FY2025" in answer, answer
    assert "$125,000" not in answer


def test_what_counts_as_the_part_asked_second_is_answered_by_its_definition() -> None:
    block = Block(n=1, kind="report", header="[1] Tessaly Pay FY2025, p.6 [text]", source_id="tessaly-2025.pdf:p6",
                  chunk_id="tessaly-2025.pdf:p6::0", company="Tessaly Pay", fiscal_year=2025, page=6, text=_PAGE)
    answer = compose_offline({"question": "How much of Tessaly Pay's merchant gross payment volume comes from larger "
                                          "merchants, and what counts as a larger merchant?",
                              "companies": ["Tessaly Pay"], "fiscal_years": [], "blocks": [block]})
    assert "60%" in answer.split(". ")[0], answer
    assert "which we define as merchants that generate more than $125,000" in answer
