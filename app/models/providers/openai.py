"""The openai provider: any OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp) behind two clients.

| role        | object                                                                                |
|-------------|---------------------------------------------------------------------------------------|
| routing     | LLMRoutingModel: small client → RouteFlags (offline router when routing_provider=offline) |
| grading     | LLMGrader: small client, structured output → GradeVerdict                             |
| synthesis   | LLMSynthesizer: large client, answer with [n] citations                               |
| calculator  | the small client itself (it binds the tools)                                          |

Two ChatOpenAI clients, deliberately: small (≤1,000 output tokens) and large (≤5,000), temperature 0, with
timeouts and retries from the settings. The structured-output method is a setting because llama.cpp's server
understands function calling and json_object but not OpenAI's json_schema response format. langchain_openai is
imported only when this provider is built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from app.models.roles import ModelSet
from app.routing.decision import FLAGS, RouteDecision, RoutePlan
from prompts.retrieval import truncate_for_grading

if TYPE_CHECKING:
    from app.evidence import Evidence
    from app.settings import Settings


def build(settings: Settings) -> ModelSet:
    """The openai provider's models (no network until a role is called)."""
    from app.models.providers.offline.router import OfflineRoutingModel

    small, large = chat_clients(settings)
    method = settings.structured_output_method
    offline_router = settings.routing_provider == "offline"
    return ModelSet(
        provider="openai",
        router=OfflineRoutingModel(settings) if offline_router else LLMRoutingModel(small, method=method),
        grader=LLMGrader(small, method=method),
        synthesizer=LLMSynthesizer(large),
        calculator=small,
        small=small,
        large=large,
    )


class RouteFlags(BaseModel):
    """What the routing model fills in (openai provider); turned into a RouteDecision with the raw signals."""

    is_out_of_scope: bool = Field(description="Not about companies, their reports, figures or news.")
    needs_retrieval: bool = Field(description="Needs facts from annual reports.")
    needs_news: bool = Field(description="Needs news items.")
    needs_clarification: bool = Field(description="Company, measure or period missing and unresolvable.")
    needs_calculation: bool = Field(description="Needs arithmetic on reported figures.")
    source: Literal["reports", "news", "both", "none"] = "none"
    granularity: Literal["fact", "section", "comparison", "overview"] = "fact"
    effort: Literal["low", "medium", "high"] = "low"
    memory_read: Literal["none", "profile", "facts", "thread"] = "none"
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    clarification_question: str | None = Field(default=None, description="Only when clarification is needed.")


class GradeVerdict(BaseModel):
    """The grading model's verdict on one (truncated) document."""

    relevant: bool = Field(description="True if the document helps answer the question.")


def compatible_chat_openai() -> type:
    """ChatOpenAI, made to speak to every OpenAI-compatible server, not only OpenAI's:
    - an assistant turn that only calls tools is sent with content "" rather than null (llama.cpp's server
      rejects null with HTTP 500, so a tool result could never be sent back);
    - the output cap is sent as `max_tokens` as well as `max_completion_tokens` (servers that only read the
      older field would ignore the cap). Both only when a base URL is set: OpenAI itself gets the plain payload."""
    from langchain_openai import ChatOpenAI

    class CompatibleChatOpenAI(ChatOpenAI):
        def _get_request_payload(self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any) -> dict:
            payload = super()._get_request_payload(input_, stop=stop, **kwargs)
            if self.openai_api_base:
                for message in payload.get("messages", []):
                    if message.get("role") == "assistant" and message.get("content") is None:
                        message["content"] = ""
                if "max_completion_tokens" in payload and "max_tokens" not in payload:
                    payload["max_tokens"] = payload["max_completion_tokens"]
            return payload

    return CompatibleChatOpenAI


def chat_clients(settings: Settings) -> tuple[Any, Any]:
    """The small and large clients (no network until they are called)."""
    ChatOpenAI = compatible_chat_openai()

    common: dict[str, Any] = {
        "temperature": 0,
        "timeout": settings.model_timeout_s,
        "max_retries": settings.model_max_retries,
        # A local server needs no key, but the client insists on one.
        "api_key": settings.openai_api_key or "not-needed",
    }
    if settings.openai_base_url:
        common["base_url"] = settings.openai_base_url
    small = ChatOpenAI(model=settings.small_model, max_tokens=settings.small_max_tokens, **common)
    large = ChatOpenAI(model=settings.large_model, max_tokens=settings.large_max_tokens, **common)
    return small, large


def decision_from_flags(flags: RouteFlags, question: str, known_companies: Sequence[str],
                        context_entities: Sequence[str]) -> RouteDecision:
    """A RouteDecision from the model's flags, with the deterministic signals alongside for the record.
    Out of scope wins over everything else (the model is told so; a model that disagrees is overruled)."""
    from app.routing.features import extract_features

    feats = extract_features(question, list(known_companies), list(context_entities))
    values = {f: bool(getattr(flags, f)) for f in FLAGS}
    overruled = values["is_out_of_scope"] and any(values[f] for f in FLAGS[1:])
    if values["is_out_of_scope"]:
        values = {f: f == "is_out_of_scope" for f in FLAGS}
    plan = RoutePlan(source="none" if values["is_out_of_scope"] else flags.source, granularity=flags.granularity,
                     effort=flags.effort, memory_read=flags.memory_read, confidence=flags.confidence)
    clarification = (flags.clarification_question or "Which company, measure and period do you mean?"
                     ) if values["needs_clarification"] else None
    signals = {
        "companies": feats.companies, "years": feats.years, "arithmetic_terms": feats.arithmetic_terms,
        "recency_terms": feats.recency_terms, "news_terms": feats.news_terms, "metric_terms": feats.metric_terms,
        "referents": feats.referents, "unresolved_referents": feats.unresolved_referents,
        "context_entities": list(context_entities), "router": "openai", "model_flags": flags.model_dump(),
        "out_of_scope_override": overruled,
    }
    return RouteDecision(**values, plan=plan, signals=signals, clarification_question=clarification)


class LLMRoutingModel:
    """The routing role: the small client fills RouteFlags; the deterministic features ride along as signals."""

    def __init__(self, chat: Any, *, method: str = "function_calling") -> None:
        self.runnable = chat.with_structured_output(RouteFlags, method=method)
        self.label = getattr(chat, "model_name", None) or "openai router"

    def __call__(self, question: str, *, known_companies: Sequence[str], context_entities: Sequence[str]
                 ) -> RouteDecision:
        from langchain_core.messages import HumanMessage, SystemMessage

        from prompts.routing import render_route, render_route_system

        messages = [SystemMessage(render_route_system(known_companies)),
                    HumanMessage(render_route(question, context_entities))]
        flags = self.runnable.invoke(messages)
        return decision_from_flags(RouteFlags.model_validate(flags), question, known_companies, context_entities)


class LLMGrader:
    """The grading role: the small client judges the question against a document's first GRADE_CHARS characters
    (`grader(question, text) -> bool`; `grade` applies it to a retrieved document)."""

    def __init__(self, chat: Any, *, method: str = "function_calling") -> None:
        self.runnable = chat.with_structured_output(GradeVerdict, method=method)
        self.label = getattr(chat, "model_name", None) or "openai grader"

    def grade(self, question: str, evidence: Evidence, companies: Sequence[str] = ()) -> bool:
        return ask_grader(self, question, evidence)

    def __call__(self, question: str, text: str) -> bool:
        from langchain_core.messages import HumanMessage, SystemMessage

        from prompts.retrieval import GRADE_SYSTEM, render_grade

        verdict = self.runnable.invoke([SystemMessage(GRADE_SYSTEM), HumanMessage(render_grade(question, text))])
        return bool(GradeVerdict.model_validate(verdict).relevant)


def ask_grader(judge: Callable[[str, str], bool], question: str, evidence: Evidence) -> bool:
    """A judge that reads text sees the question and the truncated text; anything but a bool is an error."""
    verdict = judge(question, truncate_for_grading(evidence.text))
    if not isinstance(verdict, bool):
        raise TypeError(f"a grader must return a bool, got {type(verdict).__name__} for {evidence.chunk_id!r}")
    return verdict


class LLMSynthesizer:
    """The synthesis role: the large client answers the assembler's prompt, role by role
    (`synthesizer(prompt messages) -> answer text`; `draft` reads the prompt from the supervisor state)."""

    def __init__(self, chat: Any) -> None:
        self.chat = chat
        self.label = getattr(chat, "model_name", None) or "openai synthesizer"

    def draft(self, state: Mapping[str, Any]) -> str:
        return str(self(list(state["prompt"]))).strip()

    def __call__(self, messages: list[dict[str, str]]) -> str:
        reply = self.chat.invoke([(m["role"], m["content"]) for m in messages])
        return reply.text if hasattr(reply, "text") else str(reply.content)
