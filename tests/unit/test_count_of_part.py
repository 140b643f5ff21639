"""A count asked of one place ('How many people did it employ in Norway?'), where the report gives the whole
with its parts: the part is the answer and the answer names the place. Companies and figures are invented."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.turns import Block

_TEXT = ("At December 31, 2024, the Company employed 9,350 people (full-time equivalents), with 3,712 employed in "
         "Norway and 5,638 employed internationally.")


def _state(question: str) -> dict:
    block = Block(n=1, kind="report", header="[1] Fjordline Marine FY2024, p.4 [text]", source_id="fm-4",
                  chunk_id="fm-4", company="Fjordline Marine", fiscal_year=2024, page=4, text=_TEXT)
    return {"question": question, "companies": ["Fjordline Marine"], "fiscal_years": [2024], "blocks": [block]}


def test_the_part_asked_is_stated_with_its_place() -> None:
    answer = compose_offline(_state("How many people did Fjordline Marine employ in Norway at the end of 2024?"))
    assert answer.startswith("Fjordline Marine's number of people employed in Norway was 3,712 in FY2024 [1]"), answer
    whole = compose_offline(_state("How many people did Fjordline Marine employ at the end of 2024?"))
    assert whole.startswith("Fjordline Marine's number of people employed was 9,350 in FY2024 [1]"), whole


def test_a_second_ask_for_a_part_leaves_the_whole_first() -> None:
    """'How many …, and how many of them …?': the first ask is the whole; the part is its second ask."""
    answer = compose_offline(_state("How many people did Fjordline Marine employ at the end of 2024, and how many "
                                    "of them were employed in Norway?"))
    assert answer.startswith("Fjordline Marine's number of people employed was 9,350 in FY2024 [1]") and "3,712" in answer, \
        answer
