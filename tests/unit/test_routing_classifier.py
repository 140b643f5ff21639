"""The offline router: held-out accuracy per flag on the labelled examples, and its deterministic parts."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from app.routing.classifier import (DEFAULT_COMPANIES, EXAMPLES_PATH, OfflineRouter, examples_hash,
                                    extract_features, load_examples)
from app.routing.decision import FLAGS, RouteDecision, RoutePlan

SEED = 1234
HELD_OUT = 0.25
MIN_ACCURACY = 0.90


def stratified_split(examples: list[dict], seed: int = SEED, frac: float = HELD_OUT) -> tuple[list[int], list[int]]:
    """Deterministic split stratified by the combination of the five flags (~frac of each combination held out)."""
    groups: dict[tuple[bool, ...], list[int]] = defaultdict(list)
    for i, e in enumerate(examples):
        groups[tuple(bool(e[f]) for f in FLAGS)].append(i)
    rng = random.Random(seed)
    held: list[int] = []
    for key in sorted(groups):
        idx = sorted(groups[key])
        rng.shuffle(idx)
        held.extend(idx[:int(round(len(idx) * frac))])
    held_set = set(held)
    return [i for i in range(len(examples)) if i not in held_set], sorted(held)


@pytest.fixture(scope="module")
def embedder(models_dir: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from app.knowledge.embeddings import get_embedder
    from app.settings import Settings

    settings = Settings(home=tmp_path_factory.mktemp("router-home"), models_dir_override=models_dir)
    return get_embedder(settings)


@pytest.fixture(scope="module")
def examples() -> list[dict]:
    return load_examples()


@pytest.fixture(scope="module")
def example_embeddings(embedder, examples) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Embeddings of every example, computed once for the module."""
    return np.asarray(embedder.embed([e["question"] for e in examples]), dtype=np.float64)


@pytest.fixture(scope="module")
def split(examples) -> tuple[list[int], list[int]]:  # type: ignore[no-untyped-def]
    return stratified_split(examples)


@pytest.fixture(scope="module")
def held_out_router(embedder, examples, example_embeddings, split) -> OfflineRouter:  # type: ignore[no-untyped-def]
    train, _ = split
    return OfflineRouter.fit([examples[i] for i in train], embedder.embed, embeddings=example_embeddings[train])


@pytest.fixture(scope="module")
def router(embedder, examples, example_embeddings) -> OfflineRouter:  # type: ignore[no-untyped-def]
    """Fitted on every example, as the application uses it."""
    return OfflineRouter.fit(examples, embedder.embed, embeddings=example_embeddings)


def test_split_is_deterministic_and_stratified(examples) -> None:  # type: ignore[no-untyped-def]
    train, held = stratified_split(examples)
    assert (train, held) == stratified_split(examples)
    assert not set(train) & set(held) and len(train) + len(held) == len(examples)
    assert 0.22 <= len(held) / len(examples) <= 0.28
    for flag in FLAGS:
        assert any(examples[i][flag] for i in held), flag


def test_held_out_accuracy_per_flag(held_out_router, examples, example_embeddings, split) -> None:  # type: ignore[no-untyped-def]
    _, held = split
    correct = dict.fromkeys(FLAGS, 0)
    for i in held:
        decision = held_out_router.predict(examples[i]["question"], known_companies=list(DEFAULT_COMPANIES),
                                           embedding=example_embeddings[i])
        for flag in FLAGS:
            correct[flag] += getattr(decision, flag) == bool(examples[i][flag])
    accuracy = {flag: correct[flag] / len(held) for flag in FLAGS}
    print(f"\nheld-out accuracy ({len(held)} of {len(examples)} examples, seed {SEED}):")
    for flag, acc in accuracy.items():
        print(f"  {flag:22s} {acc:.3f}")
    below = {flag: round(acc, 3) for flag, acc in accuracy.items() if acc < MIN_ACCURACY}
    assert not below, f"flags below {MIN_ACCURACY} on the held-out set: {below}"


def test_out_of_scope_excludes_the_other_flags() -> None:
    RouteDecision(is_out_of_scope=True)
    RouteDecision(needs_retrieval=True, needs_news=True, needs_calculation=True)
    with pytest.raises(ValidationError):
        RouteDecision(is_out_of_scope=True, needs_retrieval=True)
    with pytest.raises(ValidationError):
        RouteDecision(is_out_of_scope=True, needs_clarification=True)
    with pytest.raises(ValidationError):
        RoutePlan(confidence=1.5)


def test_company_and_year_features_reach_the_signals(router) -> None:  # type: ignore[no-untyped-def]
    d = router.predict("By how much did Northwind's revenue grow from FY2023 to FY2024?",
                       known_companies=list(DEFAULT_COMPANIES))
    assert d.signals["companies"] == ["Northwind Logistics"]
    assert d.signals["years"] == [2023, 2024]
    assert d.signals["features"]["has_company"] == 1.0 and d.signals["features"]["multi_year"] == 1.0
    assert "grow" in d.signals["arithmetic_terms"]
    assert set(d.signals["probabilities"]) == set(FLAGS)
    assert d.needs_retrieval and d.needs_calculation and not d.is_out_of_scope
    assert d.plan.source in ("reports", "both") and d.plan.granularity == "comparison"
    # The company list is the caller's: a company it does not hold is not a known company.
    other = router.predict("By how much did Northwind's revenue grow from FY2023 to FY2024?",
                           known_companies=["Helio Renewables"])
    assert other.signals["companies"] == []


def test_referents_resolve_with_a_company_or_context() -> None:
    assert extract_features("what about their margin?").unresolved_referents == ["their"]
    assert extract_features("what about their margin?", context_entities=["Helio Renewables"]).unresolved_referents == []
    assert extract_features("What was Northwind's FY2024 operating margin?").unresolved_referents == []
    recent = extract_features("What did Helio announce in November 2024?")
    assert recent.recency_terms and recent.years == [2024]


def test_out_of_scope_overrides_the_other_flags(router, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    d = router.predict("Give me a 12-month price target for Northwind Logistics.")
    assert d.is_out_of_scope and not any(getattr(d, f) for f in FLAGS[1:])
    assert d.plan.source == "none" and d.clarification_question is None

    # Force every probability high: out of scope must still win.
    weights = router.weights.copy()
    bias = np.full(len(FLAGS), 50.0)
    forced = OfflineRouter(np.zeros_like(weights), bias, embed=router.embed, key=router.key)
    d = forced.predict("What was Northwind's FY2024 operating margin and how did it grow?")
    assert d.is_out_of_scope and d.flags() == {f: f == "is_out_of_scope" for f in FLAGS}
    assert d.signals["out_of_scope_override"] is True


def test_clarification_question_only_when_something_is_missing(router) -> None:  # type: ignore[no-untyped-def]
    vague = router.predict("what about their margin?")
    assert vague.needs_clarification and not vague.is_out_of_scope
    assert vague.clarification_question and "company" in vague.clarification_question.lower()
    assert vague.plan.memory_read == "thread"

    clear = router.predict("What was Northwind's FY2024 operating margin?")
    assert not clear.needs_clarification and clear.clarification_question is None
    assert clear.needs_retrieval and clear.plan.source in ("reports", "both")


def test_save_and_load_give_identical_predictions(router, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    key = examples_hash(load_examples())
    assert router.key == key
    path = router.save(tmp_path)
    assert path.name == f"router-{key}.npz"
    loaded = OfflineRouter.load(tmp_path, key, embed=router.embed)
    assert loaded is not None
    assert OfflineRouter.load(tmp_path, "0" * 16) is None
    for q in ["what about their margin?", "What was Northwind's FY2024 operating margin?",
              "Any news on Helio this week?", "What's the capital of Australia?"]:
        a, b = router.predict(q), loaded.predict(q)
        assert a.model_dump() == b.model_dump()


def test_load_or_fit_reuses_the_saved_weights(embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              router) -> None:  # type: ignore[no-untyped-def]
    router.save(tmp_path)
    monkeypatch.setattr(OfflineRouter, "fit", classmethod(lambda *a, **k: pytest.fail("should not re-fit")))
    loaded = OfflineRouter.load_or_fit(tmp_path, embedder.embed, EXAMPLES_PATH)
    assert np.array_equal(loaded.weights, router.weights)
