"""'What was Orrin's Adjusted Non GAAP EBITDA for FY 2025?': the 'Adjusted EBITDA 2,117 2,018' row answers it (the
'adjusted' marks the non-GAAP basis; 'Non GAAP' names nothing a row must hold), and the search ranks a chunk with
a row so labelled with the statements' pages. A question about a non-GAAP measure that says no 'adjusted' keeps
its basis words. Orrin Packaging is a fictional filer."""

from __future__ import annotations

from app.knowledge.search import measure_row_chunks, row_measure_asked
from app.models.providers.offline.composer import compose_offline
from app.text.measures import measure_asked
from app.turns import Block

CO = "Orrin Packaging"
_PAGE = """Twelve Months Ended June 30, 2024 Twelve Months Ended June 30, 2025
($ million) EBITDA EBIT
Reconciliation of adjusted growth to comparable constant currency growth
% growth - Adjusted EBITDA, EBIT, Net income, and EPS (5) (5) (11) (9)
Adjusted EBITDA 2,117 2,018
Interest paid, net (119) (248)
Adjusted Free Cash Flow 1,066 848"""


def test_a_row_labelled_with_the_measure_asked_is_searched_for() -> None:
    question = f"What Was {CO}'s Adjusted Non GAAP EBITDA for FY 2025"
    measure = row_measure_asked(question, measure_asked(question, [CO]))
    assert measure == frozenset({"adjust", "ebitda"})
    rows = {"table": {"text": _PAGE}, "prose": {"text": "Adjusted EBITDA is a non-GAAP measure we use to manage."}}
    assert measure_row_chunks([("prose", 2.0), ("table", 1.0)], rows, measure) == [("table", 1.0)]
    other = f"Which acquisitions did {CO} complete in 2025?"
    assert row_measure_asked(other, measure_asked(other, [CO])) is None


def test_the_adjusted_row_answers_a_non_gaap_question() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.12 [text]", source_id="ORRIN_2025Q4_EARNINGS:p12",
                  chunk_id="ORRIN_2025Q4_EARNINGS:p12::2", company=CO, fiscal_year=2025, page=12, text=_PAGE)
    answer = compose_offline({"question": f"What Was {CO}'s Adjusted Non GAAP EBITDA for FY 2025",
                              "companies": [CO], "fiscal_years": [2025], "blocks": [block]})
    first = answer.split(". ")[0]
    assert "$2,018m" in first and "FY2025" in first, answer
