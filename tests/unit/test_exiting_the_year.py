"""'What was Creative ARR exiting fiscal 2025?': 'exiting' dates the measure (its level at the year's end), it is
no word of it; and a page's running header with its page number ('Table of Contents 39') is no part of the first
sentence, as a chunk reflows it. A fictional filer, Brantwood Software, states its ARR so."""

from __future__ import annotations

from app.facts.query import read_query
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

_PAGE = """Table of Contents 39 Creative ARR exiting fiscal 2025 was $4.63 billion, up from $3.52 billion at the end of fiscal 2024. Document Cloud ARR
exiting fiscal 2025 was $600 million, up from $472 million at the end of fiscal 2024.
Creative revenue in fiscal 2025 was $4.17 billion, up from $3.18 billion in fiscal 2024.
"""


def test_exiting_a_period_is_when_not_what() -> None:
    query = read_query("What was Brantwood Software's Creative ARR exiting fiscal 2025?", ["Brantwood Software"],
                       [2025])
    assert query.measure.phrase == "Creative ARR" and query.measure.segment is None


def test_the_measure_stated_under_a_numbered_running_header_is_answered() -> None:
    block = Block(n=1, kind="report", header="[1] Brantwood Software FY2025, p.39 [text]",
                  source_id="brantwood-2025.pdf:p39", chunk_id="brantwood-2025.pdf:p39::0",
                  company="Brantwood Software", fiscal_year=2025, page=39, text=_PAGE)
    answer = compose_offline({"question": "What was Brantwood Software's Creative ARR (annualized recurring revenue) "
                                          "exiting fiscal 2025?",
                              "companies": ["Brantwood Software"], "fiscal_years": [2025], "blocks": [block]})
    first = answer.split(". ")[0]
    assert "$4.63bn" in first and "600" not in first and "4.17" not in first, answer
