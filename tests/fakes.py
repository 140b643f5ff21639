"""Shared test fakes: the offline provider's role objects, and scripted stand-ins for a model's roles.

`offline_models(router)` is the offline ModelSet without settings (tests bring their own router);
`TextGrader` and `PromptSynthesizer` give a plain function a role's Protocol, the way a model provider would.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from app.models import ModelSet
from app.models.providers.offline import OfflineComposer, OfflineGrader, RuleBasedCalculatorModel
from nodes.grade import ask_grader
from nodes.retrieval_state import Evidence


class TextGrader:
    """A grader that reads what a model would: the question and a document's first GRADE_CHARS characters."""

    def __init__(self, judge: Callable[[str, str], Any]) -> None:
        self.judge = judge

    def grade(self, question: str, evidence: Evidence, companies: Sequence[str] = ()) -> bool:
        return ask_grader(self.judge, question, evidence)


class PromptSynthesizer:
    """A synthesizer that answers the assembled prompt with a function of its messages, as a model would."""

    def __init__(self, answer: Callable[[list[dict[str, str]]], str]) -> None:
        self.answer = answer

    def draft(self, state: Mapping[str, Any]) -> str:
        return str(self.answer(list(state["prompt"]))).strip()


def offline_models(router: Any = None, **roles: Any) -> ModelSet:
    """The offline provider's grader, composer and calculator, with the given router (and any role replaced)."""
    defaults = {"grader": OfflineGrader(), "synthesizer": OfflineComposer(), "calculator": RuleBasedCalculatorModel()}
    return ModelSet(provider="offline", router=router, **{**defaults, **roles})


@pytest.fixture
def offline_grader() -> OfflineGrader:
    return OfflineGrader()


@pytest.fixture
def offline_calculator() -> RuleBasedCalculatorModel:
    return RuleBasedCalculatorModel()
