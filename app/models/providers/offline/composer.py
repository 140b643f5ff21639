"""The offline provider's synthesizer: the extractive composer (nodes/generate.compose_offline) writes the
answer from what the prompt holds (calculation results, verified claims, news), each sentence cited."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nodes.generate import compose_offline


class OfflineComposer:
    label = "offline extractive composer"

    def draft(self, state: Mapping[str, Any]) -> str:
        return compose_offline(state)  # type: ignore[arg-type]
