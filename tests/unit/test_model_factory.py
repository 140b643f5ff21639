"""The model factory hands every role a concrete object typed by its Protocol (app/models)."""

from __future__ import annotations

import pytest

from app.models import CalculatorModel, Grader, RoutingModel, Synthesizer, get_models
from app.settings import Settings


@pytest.mark.parametrize("settings", [Settings(provider="offline"),
                                      Settings(provider="openai", openai_api_key="x", routing_provider="offline")])
def test_every_role_is_an_object_of_its_protocol(settings: Settings) -> None:
    models = get_models(settings)  # no network: clients are built, never called
    assert isinstance(models.router, RoutingModel) and isinstance(models.grader, Grader)
    assert isinstance(models.synthesizer, Synthesizer) and isinstance(models.calculator, CalculatorModel)
    assert set(models.describe()) == {"provider", "routing", "grading", "synthesis", "calculator"}


def test_an_unknown_provider_is_named() -> None:
    with pytest.raises(ValueError, match="unknown model provider 'acme'"):
        get_models(Settings(provider="offline"), provider="acme")  # type: ignore[arg-type]
