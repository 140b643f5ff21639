"""The model roles: one Protocol per role, and the ModelSet the factory (app/models/__init__.py) fills.

| role        | Protocol        | called by                       | what it does                               |
|-------------|-----------------|---------------------------------|--------------------------------------------|
| router      | RoutingModel    | nodes/routing.route             | question → RouteDecision                   |
| grader      | Grader          | nodes/retrieve.grade_documents  | admit one retrieved document, or not       |
| synthesizer | Synthesizer     | nodes/generate.generate         | the turn's draft answer                    |
| calculator  | CalculatorModel | nodes/calculate.call_model      | a chat model bound to the calculator tools |

Every role of a ModelSet is a concrete object: nodes call the one they are given and never choose a fallback.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from langchain_core.runnables import Runnable

    from app.evidence import Evidence
    from app.routing.decision import RouteDecision

Provider = Literal["openai", "offline"]


@runtime_checkable
class RoutingModel(Protocol):
    """Decides what a question needs (retrieval, news, calculation, clarification, refusal)."""

    def __call__(self, question: str, *, known_companies: Sequence[str], context_entities: Sequence[str]
                 ) -> RouteDecision: ...


@runtime_checkable
class Grader(Protocol):
    """Admits a retrieved document for a question (the companies named are given: they are not topic words)."""

    def grade(self, question: str, evidence: Evidence, companies: Sequence[str]) -> bool: ...


@runtime_checkable
class Synthesizer(Protocol):
    """Writes the turn's draft answer from the supervisor state (the assembled prompt, and what it holds)."""

    def draft(self, state: Mapping[str, Any]) -> str: ...


@runtime_checkable
class CalculatorModel(Protocol):
    """A chat model for the calculator's ReAct loop: bound to the tools, it answers with tool calls or text."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable: ...


@dataclass(frozen=True)
class ModelSet:
    """The object behind each role; `small`/`large` are the chat clients of a remote provider (None offline)."""

    provider: Provider
    router: RoutingModel
    grader: Grader
    synthesizer: Synthesizer
    calculator: CalculatorModel
    small: Any = None
    large: Any = None

    def describe(self) -> dict[str, str]:
        """What runs each role: a client's model name, or the offline implementation's label."""
        return {"provider": self.provider, **{role: role_label(getattr(self, attr)) for role, attr in (
            ("routing", "router"), ("grading", "grader"), ("synthesis", "synthesizer"), ("calculator", "calculator"))}}


def role_label(role: Any) -> str:
    """What runs a role: its label, a client's model name, else its class's name."""
    return str(getattr(role, "label", None) or getattr(role, "model_name", None) or type(role).__name__)
