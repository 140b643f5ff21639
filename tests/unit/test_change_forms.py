"""'How did its adjusted free cash flow for fiscal 2025 compare with fiscal 2024, in dollars and percent?' asks a
change in two forms; 'percent' there names no per cent measure, so the amounts are read and the change worked out.
Orrin Packaging is a fictional filer."""

from __future__ import annotations

import pytest

from app.facts.query import read_query
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

CO = "Orrin Packaging"


@pytest.mark.parametrize("question", [
    f"How did {CO}'s adjusted free cash flow for fiscal 2025 compare with fiscal 2024, in dollars and percent?",
    f"By how much did {CO}'s adjusted free cash flow change in fiscal 2025, in absolute and percentage terms?",
])
def test_the_forms_of_a_change_are_no_words_of_its_measure(question: str) -> None:
    query = read_query(question, [CO])
    assert query.measure.phrase == "adjusted free cash flow" and query.kind != "percent"


def test_the_change_is_worked_out_from_the_prose_amounts() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.4 [text]", source_id="ORRIN_2025Q4_EARNINGS:p4",
                  chunk_id="ORRIN_2025Q4_EARNINGS:p4::0", company=CO, fiscal_year=2025, page=4,
                  text="Adjusted Free Cash Flow for fiscal 2025 was $848 million and compares with $1,066 million last "
                       "year, reflecting higher interest payments.")
    answer = compose_offline({"question": f"How did {CO}'s adjusted free cash flow for fiscal 2025 compare with fiscal "
                                          "2024, in dollars and percent?",
                              "companies": [CO], "fiscal_years": [2025, 2024], "blocks": [block]})
    first = answer.split(". ")[0]
    assert "$1,066m" in first and "$848m" in first and first.index("$1,066m") < first.index("$848m"), answer
