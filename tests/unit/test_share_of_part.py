"""A part's share of the company's sales, asked with the part as the sentence's subject ('What share of net
sales did Rigid Containers account for'): the sentence that gives that part's share answers, not another share of
the same total (another part's, or a customer threshold). Companies and figures are invented."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.turns import Block

_SEGMENTS = ("Corvane Packaging has two reportable segments. In fiscal year 2024, Flexible Films accounted for "
             "approximately 71% of consolidated net sales. In fiscal year 2024, Rigid Containers accounted for "
             "approximately 29% of consolidated net sales.")
_CUSTOMERS = "We did not have sales to a single customer that exceeded 10% of consolidated net sales in fiscal 2024."


def _blocks() -> list[Block]:
    return [Block(n=n, kind="report", header=f"[{n}] Corvane Packaging FY2024, p.{n} [text]", source_id=f"cv-{n}",
                  chunk_id=f"cv-{n}", company="Corvane Packaging", fiscal_year=2024, page=n, text=text)
            for n, text in ((1, _CUSTOMERS), (2, _SEGMENTS))]


def test_the_share_of_the_part_named_as_subject_answers() -> None:
    state = {"question": "What share of Corvane's consolidated net sales did Rigid Containers account for in "
                         "fiscal 2024?", "companies": ["Corvane Packaging"], "fiscal_years": [2024],
             "blocks": _blocks()}
    answer = compose_offline(state)
    assert "29%" in answer.split("The report says")[0] and "10%" not in answer and "71%" not in answer, answer
    state["question"] = ("What percentage of Corvane Packaging's consolidated net sales came from Flexible Films "
                         "in fiscal 2024?")
    answer = compose_offline(state)
    assert "71%" in answer.split("The report says")[0] and "29%" not in answer, answer
