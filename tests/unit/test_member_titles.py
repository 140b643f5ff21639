"""Which table breaks the measure asked down by segment: one whose total row names it plainly ('Segment
Information' over the segments' rows and 'Total revenue'), not one titled by the sentence that leads into it with a
kind of the measure ('Subscription revenue by reportable segment … is as follows:'), nor one titled by a table
above the prose between them. Companies and figures are invented."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.statements import read_statement
from app.turns import Block

_HEAD = "Fiscal\n2024\nFiscal\n2023\n% Change\n2024-2023\n"
_SUBSCRIPTION = ("Revenue (dollars in millions)\n" + _HEAD + "Subscription $ 3,223.9 $ 2,076.6 55%\n"
                 "Product 1,125.1 1,627.8 (31)%\nTotal revenue $ 4,795.5 $ 4,147.1 16%\n"
                 "We expect our subscription revenue will continue to increase as a result of our investments. "
                 "Subscription\nrevenue by reportable segment for fiscal 2024 and 2023 is as follows (dollars in "
                 "millions):\n" + _HEAD + "Imaging $ 2,264.7 $ 1,268.3 79%\nAnalytics 937.0 797.5 17%\n"
                 "Total subscription revenue $ 3,201.7 $ 2,065.8 55%\n")
_SEGMENTS = ("Segment Information (dollars in millions)\n" + _HEAD + "Imaging $ 3,095.2 $ 2,603.2 19%\n"
             "Percentage of total revenue 65% 63%\nAnalytics 1,508.9 1,355.2 11%\n"
             "Percentage of total revenue 31% 33%\nTotal revenue $ 4,795.5 $ 4,147.1 16%\n")


def _blocks(*texts: str) -> list[Block]:
    return [Block(n=n, kind="report", header=f"[{n}] Pellucid Software FY2024, p.{40 + n} [text]", source_id=f"ps-{n}",
                  chunk_id=f"ps-{n}", company="Pellucid Software", fiscal_year=2024, page=40 + n, text=text)
            for n, text in enumerate(texts, start=1)]


def test_a_table_after_prose_is_titled_by_the_sentence_that_leads_into_it() -> None:
    rows = read_statement(_SUBSCRIPTION).rows
    imaging = next(r for r in rows if r.line_item == "Imaging")
    assert imaging.title.startswith("Subscription revenue by reportable segment") and imaging.values[0] == 2264.7
    assert next(r for r in rows if r.line_item == "Product").title == "Revenue"


def test_a_segments_revenue_is_read_from_the_table_its_total_row_names_not_from_a_kind_of_revenue() -> None:
    subscription = _SUBSCRIPTION[_SUBSCRIPTION.index("We expect"):]  # the lead-in and its table, on their own
    state = {"question": "What was Pellucid Software's Imaging segment revenue in fiscal 2024?",
             "companies": ["Pellucid Software"], "fiscal_years": [2024], "blocks": _blocks(subscription, _SEGMENTS)}
    answer = compose_offline(state)
    assert answer.startswith("Pellucid Software's Imaging segment revenue was $3,095.2m in FY2024 [2]"), answer
    state["question"] = "Which Pellucid Software segment had the largest revenue in fiscal 2024?"
    answer = compose_offline(state)
    assert answer.startswith("Imaging had the highest revenue in FY2024: $3,095.2m [2]"), answer
    # a kind of revenue asked is read from its own table
    state["question"] = "What was Pellucid Software's Imaging subscription revenue in fiscal 2024?"
    answer = compose_offline(state)
    assert "$2,264.7m" in answer and "3,095.2" not in answer, answer


def test_a_breakdown_by_category_is_no_segments_even_with_a_total_row_that_names_the_measure() -> None:
    categories = ("Disaggregated Revenue\n" + _HEAD + "Imaging Software $ 3,095.2 $ 2,603.2 19%\n"
                  "Analytics Software 1,508.9 1,355.2 11%\nTotal net sales $ 4,604.1 $ 3,958.4 16%\n")
    state = {"question": "Which Pellucid Software segment had the highest net sales in fiscal 2024?",
             "companies": ["Pellucid Software"], "fiscal_years": [2024], "blocks": _blocks(categories)}
    assert "Imaging Software had the highest" not in compose_offline(state)
