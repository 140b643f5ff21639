"""'Which acquisitions does Brantwood discuss at the start of the MD&A in its fiscal 2025 10-K?': where in the report
the thing stands and the verb that reports it are no words its sentence must say; the sentences that name the
acquisitions answer, every one the filing discusses (its year names the filing, not the deals'); a question about
fiscal 2025's deals gets that year's only. Brantwood Software is a fictional filer."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.turns import Block

CO = "Brantwood Software"
_PAGE = """ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS
The following discussion should be read in conjunction with our Consolidated Financial Statements.
ACQUISITIONS
During fiscal 2025, we completed our acquisition of privately held Lumenfold, a marketplace for stock images, for
$807.5 million. During fiscal 2025, we integrated Lumenfold into our Digital Media reportable segment.
During fiscal 2023, we completed our acquisitions of privately held Nelwyn, a campaign management platform, for
$616.7 million, and privately held Bexhill, a portfolio site for creative work, for $111.1 million.
We also completed other immaterial business acquisitions during the fiscal years presented."""


def test_the_acquisitions_named_answer_not_the_place_they_are_discussed() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.35 [text]", source_id="BRANTWOOD_2025_10K:p35",
                  chunk_id="BRANTWOOD_2025_10K:p35::0", company=CO, fiscal_year=2025, page=35, text=_PAGE)
    answer = compose_offline({"question": f"Which acquisitions does {CO} discuss at the start of the MD&A in its "
                                          "fiscal 2025 10-K?",
                              "companies": [CO], "fiscal_years": [2025], "blocks": [block]})
    assert "Lumenfold" in answer.split(". ")[0] and "Insufficient" not in answer, answer


def _answer(question: str) -> str:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.35 [text]", source_id="BRANTWOOD_2025_10K:p35",
                  chunk_id="BRANTWOOD_2025_10K:p35::0", company=CO, fiscal_year=2025, page=35, text=_PAGE)
    return compose_offline({"question": question, "companies": [CO], "fiscal_years": [2025], "blocks": [block]})


def test_the_year_of_the_filing_asked_of_does_not_date_the_deals() -> None:
    answer = _answer(f"Which acquisitions does {CO} discuss at the start of the MD&A in its fiscal 2025 10-K, and when "
                     "were they completed?")
    assert "Lumenfold" in answer and "Nelwyn" in answer, answer
    assert "Nelwyn" not in _answer(f"Which acquisitions did {CO} complete in fiscal 2025?")
