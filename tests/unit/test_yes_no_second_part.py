"""'In its August 2025 release on completing the Vellamy separation, does Brackenfold say it will keep its quarterly
dividend, and at what amount?': the question proper starts at its auxiliary, not at the second part's 'what' (so
grading reads 'keep', 'quarterly', 'dividend'), and what is kept is the first part's thing, the amount the second
part's. Brackenfold Health is a fictional filer."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.questions import core_question
from app.turns import Block

CO = "Brackenfold Health"
QUESTION = (f"In its August 2025 release on completing the Vellamy separation, does {CO} say it will keep its "
            "quarterly dividend, and at what amount?")


def test_the_question_proper_starts_at_its_auxiliary() -> None:
    assert core_question(QUESTION).startswith(f"does {CO} say it will keep its quarterly dividend")
    assert core_question("Answer using the balance sheet: what is the current ratio? Round to two decimals.") == \
        "what is the current ratio?"


def test_a_kept_dividend_is_yes_with_its_amount() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.7 [text]",
                  source_id="BRACKENFOLD_2025_8K_dated-2025-08-30:p7", chunk_id="BRACKENFOLD_2025_8K:p7::0",
                  company=CO, fiscal_year=2025, page=7,
                  text=f"{CO} is under no obligation to do so if market conditions are not supportive. The Company "
                       "will maintain its quarterly dividend of $1.19 per share. WEBINAR INFORMATION: a recorded "
                       "webinar is available.")
    answer = compose_offline({"question": QUESTION, "companies": [CO], "fiscal_years": [2025], "blocks": [block]})
    assert answer.startswith("Yes.") and "$1.19" in answer, answer
