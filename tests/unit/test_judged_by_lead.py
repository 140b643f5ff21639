"""A judgement asked after the metric it is to be judged by ('Judged by its current ratio at the end of Q1 2025
(March 29, 2025), is Fennick's short-term liquidity comfortable?') is a judgement: the lead-in names the metric, the
question follows it; and liquidity called comfortable, adequate or tight is the liquidity judgement."""

from __future__ import annotations

import pytest

from app.judgements import convention_for
from app.text.question_kinds import read_ask


@pytest.mark.parametrize("question", [
    "Judged by its current ratio at the end of Q1 2025 (March 29, 2025), is Fennick's short-term liquidity "
    "comfortable?",
    "Based on its quick ratio, does Fennick have adequate liquidity?",
    "Using the current ratio, is Fennick's liquidity position tight?",
])
def test_a_judgement_after_its_metric_is_a_judgement(question: str) -> None:
    assert read_ask(question).kind == "judgement"
    convention = convention_for(question)
    assert convention is not None and convention.topic == "healthy liquidity"
    assert convention.measures[0] in ("current ratio", "quick ratio")


def test_a_lead_in_that_is_no_metric_still_leaves_a_change_question() -> None:
    assert read_ask("Judging by operating margin, did Fennick's profitability improve in 2025?").kind == \
        "yes_no_change"
