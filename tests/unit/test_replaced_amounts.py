"""'By how much did X increase its five year credit agreement?' asks for the difference between the agreement
ended and the new one, which a filing tells in two sentences, often in two chunks of a page: the one whose words
before the amount end it ('terminated the $3,600,000,000 …') and the one whose words open a new one ('entered
into a new $4,000,000,000 …'). Both must hold the question's key words: the 364-day facility's pair beside them
is not the five year one's. Every company and figure here is made up (Kestrel Packaging)."""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.revisions import PREVIOUS, REVISED_PERIOD, asks_revision_amount, revision_figures
from app.models.providers.offline.calculator import plan_tool_calls
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Kestrel Packaging"
SRC = "KESTREL_2024_8K:p2"
FIRST = ("Effective May 24, 2024, Kestrel Packaging terminated the $1,100,000,000 364 day unsecured revolving credit "
         "agreement, dated as of May 25, 2023. On May 24, 2024, Kestrel Packaging entered into a new $1,300,000,000 "
         "364 day unsecured revolving credit agreement among Kestrel Packaging and the lenders. Effective May 24, "
         "2024, Kestrel Packaging terminated the $3,600,000,000 five year unsecured revolving credit agreement, "
         "dated as of May 25, 2023, among Kestrel Packaging and the lenders.")
SECOND = ("There were no outstanding borrowings under it at the time of its termination. On May 24, 2024, Kestrel "
          "Packaging entered into a new $4,000,000,000 five year unsecured revolving credit agreement among Kestrel "
          "Packaging, as borrower, and the lenders.")
QUESTION = f"By how much did {CO} increase its unsecured five year revolving credit agreement on May 24, 2024?"


def _evidence(n: int, text: str) -> Evidence:
    return Evidence(chunk_id=f"{SRC}::{n}", source_id=SRC, company=CO, fiscal_year=2024, page=2, text=text)


def test_the_question_asks_an_amount_replaced():
    assert asks_revision_amount(QUESTION)
    assert not asks_revision_amount(f"What was {CO}'s five year revolving credit agreement in 2024?")


def test_the_agreement_ended_and_the_new_one_are_the_two_figures_across_two_chunks():
    old, new = revision_figures(QUESTION, [_evidence(1, FIRST), _evidence(2, SECOND)], [CO])
    assert (old.value, old.period, old.chunk_id) == (3_600_000_000, PREVIOUS, f"{SRC}::1")
    assert (new.value, new.period, new.chunk_id) == (4_000_000_000, REVISED_PERIOD, f"{SRC}::2")
    assert "terminated" in old.quote and "new $4,000,000,000" in new.quote
    assert plan_tool_calls(QUESTION, [old, new]) == [("difference", {"a": 4_000_000_000, "b": 3_600_000_000})]


def test_no_new_one_no_pair():
    assert revision_figures(QUESTION, [_evidence(1, FIRST.split(" Effective May 24, 2024, Kestrel")[0])], [CO]) == []


def test_the_answer_leads_with_both_amounts_and_quotes_both_sentences():
    blocks = [Block(n=n, kind="report", header=f"[{n}] {CO} FY2024, p.2 [text]", text=text, source_id=SRC,
                    chunk_id=f"{SRC}::{n}", company=CO, fiscal_year=2024, page=2)
              for n, text in ((1, FIRST), (2, SECOND))]
    said = Analyst({"blocks": blocks, "companies": [CO], "fiscal_years": [2024]}, QUESTION).first_sentences()
    assert said[0].startswith(f"{CO} increased its five year unsecured revolving credit agreement")
    assert "from $3,600,000,000 to $4,000,000,000" in said[0]
    assert "terminated the $3,600,000,000" in said[1] and "new $4,000,000,000" in said[2]
