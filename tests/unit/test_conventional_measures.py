"""A measure asked by what it means rather than by its name ('if it were liquidated, how much could each
shareholder get?'): the measure analysts conventionally read for it is found, stated, and said to be the one
read. Companies and figures are invented."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.turns import Block

_TEXT = ("Kestrel Bancorp\nConsolidated financial highlights (unaudited)\n"
         "As of or for the period ended, (in millions, except per share data) 1Q25 4Q24\n"
         "Book value per share $ 82.31 $ 81.75\nTangible book value per share 66.56 66.11\n")


def _state(question: str) -> dict:
    block = Block(n=1, kind="report", header="[1] Kestrel Bancorp FY2025, p.3 [table]",
                  source_id="KESTRELBANCORP_2025Q1_10Q:p3", chunk_id="kb-3", company="Kestrel Bancorp",
                  fiscal_year=2025, page=3, text=_TEXT)
    return {"question": question, "companies": ["Kestrel Bancorp"], "fiscal_years": [2025], "blocks": [block]}


def test_a_liquidation_per_share_is_read_as_tangible_book_value_per_share_and_says_so() -> None:
    answer = compose_offline(_state("If Kestrel Bancorp went bankrupt at the end of Q1 2025 and liquidated all of "
                                    "its assets to pay its shareholders, how much could each shareholder get?"))
    assert answer.startswith("Kestrel Bancorp's tangible book value per share was $66.56"), answer
    assert "82.31" not in answer and "conventionally estimated by its tangible book value per share" in answer


def test_the_measure_asked_by_its_name_carries_no_convention() -> None:
    answer = compose_offline(_state("What was Kestrel Bancorp's tangible book value per share at the end of Q1 "
                                    "2025?"))
    assert answer.startswith("Kestrel Bancorp's tangible book value per share was $66.56"), answer
    assert "conventionally" not in answer
