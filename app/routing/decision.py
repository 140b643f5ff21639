"""The routing decision: what a question needs (five flags) and a plan for how to serve it.

Both providers produce the same `RouteDecision`: the openai provider as structured output of the small client, the
offline provider from `app.routing.classifier.OfflineRouter`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

FLAGS: tuple[str, ...] = ("is_out_of_scope", "needs_retrieval", "needs_news", "needs_clarification",
                          "needs_calculation")


class RoutePlan(BaseModel):
    """How to serve the question: where to look, at what grain, how hard to try, which memory to read."""

    source: Literal["reports", "news", "both", "none"] = "none"
    granularity: Literal["fact", "section", "comparison", "overview"] = "fact"
    effort: Literal["low", "medium", "high"] = "low"
    memory_read: Literal["none", "profile", "facts", "thread"] = "none"
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)


class RouteDecision(BaseModel):
    is_out_of_scope: bool = False
    needs_retrieval: bool = False
    needs_news: bool = False
    needs_clarification: bool = False
    needs_calculation: bool = False
    plan: RoutePlan = Field(default_factory=RoutePlan)
    signals: dict[str, Any] = Field(default_factory=dict, description="The raw features and scores seen.")
    clarification_question: str | None = None

    @model_validator(mode="after")
    def _out_of_scope_excludes_the_rest(self) -> "RouteDecision":
        if self.is_out_of_scope:
            on = [f for f in FLAGS[1:] if getattr(self, f)]
            if on:
                raise ValueError(f"an out-of-scope question needs nothing else, but {', '.join(on)} set")
        return self

    def flags(self) -> dict[str, bool]:
        return {f: bool(getattr(self, f)) for f in FLAGS}


# Pydantic types this module puts into graph state: pass to JsonPlusSerializer(allowed_msgpack_modules=...).
CHECKPOINT_TYPES: tuple[tuple[str, str], ...] = ((__name__, "RouteDecision"), (__name__, "RoutePlan"))
