"""'How many employees …, and roughly how many of them were represented by unions?': both counts, each from its own
sentence, the company's total first. A fictional filer, Brantwood Packaging, states both in one paragraph."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.measures import first_part, second_part
from app.turns import Block

_HUMAN_CAPITAL = """Human Capital
At the end of 2025, we employed 41,000 employees worldwide. The large majority (approximately 90%) is employed in
our plants and distribution centres and approximately 6,500 employees are represented by unions. We also use
seasonal employees during peak periods.
"""


def _answer(question: str) -> str:
    block = Block(n=1, kind="report", header="[1] Brantwood Packaging FY2025, p.6 [text]",
                  source_id="brantwood-2025.pdf:p6", chunk_id="brantwood-2025.pdf:p6::0",
                  company="Brantwood Packaging", fiscal_year=2025, page=6, text=_HUMAN_CAPITAL)
    return compose_offline({"question": question, "companies": ["Brantwood Packaging"], "fiscal_years": [2025],
                            "blocks": [block]})


def test_a_hedged_second_ask_is_a_part_of_its_own() -> None:
    question = ("How many employees did Brantwood Packaging have at the end of fiscal 2025, and roughly how many of "
                "them were represented by unions?")
    assert first_part(question) == "How many employees did Brantwood Packaging have at the end of fiscal 2025"
    assert second_part(question) == "how many of them were represented by unions?"


def test_the_total_leads_and_the_part_of_them_follows_from_its_own_sentence() -> None:
    answer = _answer("How many employees did Brantwood Packaging have worldwide at the end of fiscal 2025, and "
                     "roughly how many of them were represented by unions?")
    first, _, rest = answer.partition(". ")
    assert "41,000" in first and "6,500" not in first, answer
    assert "6,500" in rest and "union" in rest.lower(), answer
