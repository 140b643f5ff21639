"""Model roles and providers: one factory, `get_models(settings)`.

`PROV_PROVIDER=openai|offline|auto` (auto: openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline).

| role        | openai provider                                   | offline provider                                |
|-------------|---------------------------------------------------|-------------------------------------------------|
| routing     | small client, structured output → RouteFlags      | OfflineRouter (MiniLM + deterministic features) |
| grading     | small client, structured output → GradeVerdict    | fused score + term overlap (nodes/retrieve.py)  |
| synthesis   | large client, answer with [n] citations           | extractive composer (nodes/generate.py)         |
| calculator  | small client with bound tools, in the ReAct loop  | RuleBasedCalculatorModel (same tool calls)      |

Two ChatOpenAI clients, deliberately: small (≤1,000 output tokens) and large (≤5,000), temperature 0, with
timeouts and retries from the settings; any OpenAI-compatible server works (vLLM, Ollama, llama.cpp). The
structured-output method is a setting because llama.cpp's server understands function calling and json_object
but not OpenAI's json_schema response format. langchain_openai is imported only when the openai provider is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, Field

from app.routing.decision import FLAGS, RouteDecision, RoutePlan

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from app.settings import Settings

Provider = Literal["openai", "offline"]


class RoutingModel(Protocol):
    def __call__(self, question: str, *, known_companies: Sequence[str], context_entities: Sequence[str]
                 ) -> RouteDecision: ...


Grader = Callable[[str, str], bool]
Synthesizer = Callable[[list[dict[str, str]]], str]


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


@dataclass
class ModelSet:
    """The model behind each role. `grader`/`synthesizer` None means: use the offline implementation."""

    provider: Provider
    router: RoutingModel
    calculator: BaseChatModel
    grader: Grader | None = None
    synthesizer: Synthesizer | None = None
    small: Any = None
    large: Any = None

    def describe(self) -> dict[str, str]:
        def name(client: Any, offline: str) -> str:
            return getattr(client, "model_name", None) or offline

        return {
            "provider": self.provider,
            "routing": "offline classifier" if isinstance(self.router, OfflineRoutingModel)
            else name(self.small, "offline classifier"),
            "grading": name(self.small, "offline score + term overlap"),
            "synthesis": name(self.large, "offline extractive composer"),
            "calculator": name(self.small, "offline rule-based policy"),
        }


def resolve_provider(settings: Settings) -> Provider:
    if settings.provider != "auto":
        return settings.provider
    return "openai" if (settings.openai_api_key or settings.openai_base_url) else "offline"


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


def get_models(settings: Settings, provider: Provider | None = None) -> ModelSet:
    provider = provider or resolve_provider(settings)
    if provider == "offline":
        from nodes.calculate import RuleBasedCalculatorModel

        return ModelSet(provider="offline", router=OfflineRoutingModel(settings), calculator=RuleBasedCalculatorModel())
    small, large = chat_clients(settings)
    method = settings.structured_output_method
    offline_router = settings.routing_provider == "offline"
    return ModelSet(
        provider="openai",
        router=OfflineRoutingModel(settings) if offline_router else LLMRoutingModel(small, method=method),
        calculator=small,
        grader=LLMGrader(small, method=method),
        synthesizer=LLMSynthesizer(large),
        small=small,
        large=large,
    )


# --- offline routing ----------------------------------------------------------------------------------------


class OfflineRoutingModel:
    """The offline router, fitted once on the labelled examples and cached under the models folder."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._router: Any = None
        self._facts: tuple[int, dict[str, str], int | None] | None = None
        self._catalog: Any = None

    def corpus_facts(self) -> tuple[dict[str, str], int | None]:
        """The tickers the knowledge base's own sources state and its latest report year, read again whenever
        the corpus changes."""
        from app.knowledge.catalog import Catalog

        if self._catalog is None:
            if not self.settings.catalog_path.exists():
                return {}, None
            self._catalog = Catalog(self.settings.catalog_path)  # opened once, not on every turn
        generation = self._catalog.generation()
        if self._facts is None or self._facts[0] != generation:
            self._facts = (generation, self._catalog.tickers(), self._catalog.latest_report_year())
        return self._facts[1], self._facts[2]

    def _load(self) -> Any:
        if self._router is None:
            from app.knowledge.embeddings import get_embedder
            from app.routing.classifier import OfflineRouter

            embedder = get_embedder(self.settings)
            self._router = OfflineRouter.load_or_fit(self.settings.models_dir / "router", embedder.embed)
        return self._router

    def __call__(self, question: str, *, known_companies: Sequence[str], context_entities: Sequence[str]
                 ) -> RouteDecision:
        tickers, latest_year = self.corpus_facts()
        return self._load().predict(question, known_companies=list(known_companies),
                                    context_entities=list(context_entities), known_tickers=tickers,
                                    latest_report_year=latest_year)


# --- openai provider ----------------------------------------------------------------------------------------


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
    def __init__(self, chat: Any, *, method: str = "function_calling") -> None:
        self.runnable = chat.with_structured_output(RouteFlags, method=method)

    def __call__(self, question: str, *, known_companies: Sequence[str], context_entities: Sequence[str]
                 ) -> RouteDecision:
        from langchain_core.messages import HumanMessage, SystemMessage

        from prompts.routing import render_route, render_route_system

        messages = [SystemMessage(render_route_system(known_companies)),
                    HumanMessage(render_route(question, context_entities))]
        flags = self.runnable.invoke(messages)
        return decision_from_flags(RouteFlags.model_validate(flags), question, known_companies, context_entities)


class LLMGrader:
    """grader(question, first_1200_characters) -> bool, for the retrieval subgraph."""

    def __init__(self, chat: Any, *, method: str = "function_calling") -> None:
        self.runnable = chat.with_structured_output(GradeVerdict, method=method)

    def __call__(self, question: str, text: str) -> bool:
        from langchain_core.messages import HumanMessage, SystemMessage

        from prompts.retrieval import GRADE_SYSTEM, render_grade

        verdict = self.runnable.invoke([SystemMessage(GRADE_SYSTEM), HumanMessage(render_grade(question, text))])
        return bool(GradeVerdict.model_validate(verdict).relevant)


class LLMSynthesizer:
    """synthesizer(prompt messages) -> answer text; the prompt is the assembler's, role by role."""

    def __init__(self, chat: Any) -> None:
        self.chat = chat

    def __call__(self, messages: list[dict[str, str]]) -> str:
        reply = self.chat.invoke([(m["role"], m["content"]) for m in messages])
        return reply.text if hasattr(reply, "text") else str(reply.content)
