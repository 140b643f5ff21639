"""Model roles and providers: one factory, `get_models(settings)`, that hands every role a concrete object.

`PROV_PROVIDER=openai|offline|auto` (auto: openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline).

| role       | Protocol (roles.py) | openai (providers/openai.py) | offline (providers/offline/)             |
|------------|---------------------|------------------------------|------------------------------------------|
| routing    | RoutingModel        | LLMRoutingModel (small)      | OfflineRoutingModel (router.py)          |
| grading    | Grader              | LLMGrader (small)            | OfflineGrader (grader.py)                |
| synthesis  | Synthesizer         | LLMSynthesizer (large)       | OfflineComposer (composer/)              |
| calculator | CalculatorModel     | the small client             | RuleBasedCalculatorModel (calculator.py) |

A new provider is one module under providers/ with `build(settings) -> ModelSet`, named in PROVIDERS. A provider
owns its logic (the offline one its classifier, grader, extractive composer and rule-based calculator policy);
nodes/ call a role through its Protocol and never import a provider.
Providers are imported only when built (langchain_openai only for the openai provider).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from app.models.roles import CalculatorModel, Grader, ModelSet, Provider, RoutingModel, Synthesizer

if TYPE_CHECKING:
    from app.settings import Settings

__all__ = ["PROVIDERS", "CalculatorModel", "Grader", "ModelSet", "Provider", "RoutingModel", "Synthesizer",
           "get_models", "resolve_provider"]

PROVIDERS: dict[str, str] = {
    "openai": "app.models.providers.openai",
    "offline": "app.models.providers.offline",
}
"""Provider name → the module whose `build(settings)` returns its ModelSet."""


def resolve_provider(settings: Settings) -> Provider:
    if settings.provider != "auto":
        return settings.provider
    return "openai" if (settings.openai_api_key or settings.openai_base_url) else "offline"


def get_models(settings: Settings, provider: Provider | None = None) -> ModelSet:
    """The ModelSet of the provider asked for (default: the settings' provider, `auto` resolved)."""
    name = provider or resolve_provider(settings)
    if name not in PROVIDERS:
        raise ValueError(f"unknown model provider {name!r}; known: {', '.join(PROVIDERS)}")
    return import_module(PROVIDERS[name]).build(settings)
