"""A row that names most of a long measure's words but not its head noun is no figure of it: 'Changes related to
other CET1 capital adjustments' holds three of the four words of 'CET1 capital ratio' and is no ratio. Every
company and figure here is made up."""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Quillon Bancorp"
ROLLFORWARD = ("Capital rollforward (in millions)\n"
               "Year ended December 31, 2024\n"
               "CET1 capital at December 31, 2023 $ 187,753\n"
               "Net income applicable to common equity 41,220\n"
               "Changes related to other CET1 capital adjustments (1,256)\n"
               "CET1 capital at December 31, 2024 $ 205,078\n")
RATIOS = ("Capital ratios\n"
          "December 31, 2024 2023\n"
          "CET1 capital ratio 13.1 % 12.7 %\n"
          "Tier 1 capital ratio 14.9 14.3\n")


def answer(*texts: str, question: str = "What was Quillon Bancorp's CET1 capital ratio in 2024?") -> list[str]:
    blocks = [Block(n=i, kind="report", header=f"[{i}] {CO} FY2024, p.{40 + i} [text]", text=text,
                    source_id="quillon-ar-2024", chunk_id=f"quillon-ar-2024:p{40 + i}::0", company=CO,
                    fiscal_year=2024, page=40 + i) for i, text in enumerate(texts, start=1)]
    return Analyst({"blocks": blocks, "companies": [CO], "fiscal_years": [2024]}, question).figure_answer()


def test_a_row_without_the_measures_head_noun_does_not_answer_it() -> None:
    assert answer(ROLLFORWARD) == []


def test_the_row_that_names_the_head_noun_answers() -> None:
    said = answer(ROLLFORWARD, RATIOS)
    assert said and "13.1%" in said[0] and "1,256" not in said[0]


def test_a_row_naming_every_word_still_answers_an_amount() -> None:
    said = answer(ROLLFORWARD, question="What was Quillon Bancorp's CET1 capital at December 31, 2024?")
    assert said and "$205,078m" in said[0]
