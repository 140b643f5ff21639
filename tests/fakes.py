"""Shared test fakes: the offline provider's role objects, and scripted stand-ins for a model's roles.

`offline_models(router)` is the offline ModelSet without settings (tests bring their own router);
`TextGrader` and `PromptSynthesizer` give a plain function a role's Protocol, the way a model provider would.
"""

from __future__ import annotations

import re
import threading
import zlib

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from app.evidence import Evidence
from app.models import ModelSet
from app.models.providers.offline import OfflineComposer, OfflineGrader, RuleBasedCalculatorModel
from app.models.providers.openai import ask_grader


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


class WordHashEmbedder:
    """Bag-of-words vectors (64 hashed dimensions): instant, deterministic, and a text is nearest to itself."""

    name = "test-word-hash"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        out = []
        for text in texts:
            vec = [0.0] * 64
            for word in re.findall(r"\w+", text.lower()):
                vec[zlib.crc32(word.encode()) % 64] += 1.0
            norm = sum(v * v for v in vec) ** 0.5 or 1.0
            out.append([v / norm for v in vec])
        return out


class ScriptedSearch:
    """A search_fn over a corpus keyed by company, recording every call (thread-safe: the retrieval subgraph
    fans out with Send)."""

    def __init__(self, corpus: Mapping[str, list[Evidence]]) -> None:
        self.corpus = corpus
        self.calls: list[tuple[str, str | None]] = []
        self._lock = threading.Lock()

    def __call__(self, query: str, company: str | None, fiscal_year: int | None, k: int) -> list[Evidence]:
        with self._lock:
            self.calls.append((query, company))
        return list(self.corpus.get(company or "", []))[:k]

