"""The offline provider: every role answered on this machine, deterministically, with no model server.

| role        | object (file)                                                                            |
|-------------|------------------------------------------------------------------------------------------|
| routing     | OfflineRoutingModel (router.py): MiniLM embeddings + deterministic features, fitted once |
| grading     | OfflineGrader (grader.py): fused score + topic-term overlap (grade_offline)              |
| synthesis   | OfflineComposer (composer/): the extractive composer (compose_offline)                   |
| calculator  | RuleBasedCalculatorModel (calculator.py): the same tool calls, planned from keywords     |
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.models.providers.offline.calculator import RuleBasedCalculatorModel
from app.models.providers.offline.composer import OfflineComposer
from app.models.providers.offline.grader import OfflineGrader
from app.models.providers.offline.router import OfflineRoutingModel
from app.models.roles import ModelSet

if TYPE_CHECKING:
    from app.settings import Settings

__all__ = ["OfflineComposer", "OfflineGrader", "OfflineRoutingModel", "RuleBasedCalculatorModel", "build"]


def build(settings: Settings) -> ModelSet:
    """The offline provider's models."""
    return ModelSet(provider="offline", router=OfflineRoutingModel(settings), grader=OfflineGrader(),
                    synthesizer=OfflineComposer(), calculator=RuleBasedCalculatorModel())
