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


MAX_PARALLEL_GRADES = 8
"""Grading calls in flight at once by default (Settings.grade_concurrency)."""


def grade_all(grader: Grader, question: str, documents: Sequence[Evidence], companies: Sequence[str], *,
              concurrency: int = MAX_PARALLEL_GRADES) -> list[bool]:
    """The grader's verdict on each document, in the documents' order. The calls run on up to `concurrency`
    threads: a model's call waits on its server, so a turn waits about one call's latency per attempt instead of
    one per document. The threads carry the caller's context (LangChain's ContextThreadPoolExecutor), so the
    graph's callbacks and tracing see each call as the grading step's. A call that raises raises here."""
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency!r}")
    docs = list(documents)
    if concurrency == 1 or len(docs) <= 1:
        return [grader.grade(question, d, companies) for d in docs]
    from langchain_core.runnables.config import ContextThreadPoolExecutor

    with ContextThreadPoolExecutor(max_workers=min(concurrency, len(docs))) as pool:
        return list(pool.map(lambda d: grader.grade(question, d, companies), docs))


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
