"""The offline router: cross-validated accuracy per flag on the labelled examples (random folds, and folds grouped by
company so that each company is judged by a router that never saw it), and its deterministic parts."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pytest
from pydantic import ValidationError

from app.routing.classifier import OfflineRouter
from app.routing.examples import (DEFAULT_COMPANIES, EXAMPLES_PATH, example_companies,
                                  example_tickers, examples_hash, load_examples)
from app.routing.features import extract_features
from app.routing.decision import FLAGS, RouteDecision, RoutePlan

SEED = 1234
# Other seeds give other fold assignments; the router must clear the bar on each, not on one lucky split.
OTHER_SEEDS = (1, 2)
FOLDS = 5
MIN_ACCURACY = 0.90
# Grouped by company, measured when the folds were introduced (676 examples, 5 folds, seed 1234): mean accuracy
# out of scope 0.984, retrieval 0.955, news 0.942, clarification 0.967, calculation 0.944 (worst fold 0.905).
# The bar sits a few points under the weakest flag, so that a handful of flipped examples does not fail it.
MIN_GROUPED_ACCURACY = 0.90


def stratified_folds(examples: Sequence[dict], k: int = FOLDS, seed: int = SEED) -> list[list[int]]:
    """Deterministic k folds stratified by the combination of the five flags: each combination is shuffled and
    dealt round-robin, continuing where the previous one stopped, so the folds differ in size by one at most."""
    groups: dict[tuple[bool, ...], list[int]] = defaultdict(list)
    for i, e in enumerate(examples):
        groups[tuple(bool(e[f]) for f in FLAGS)].append(i)
    rng = random.Random(seed)
    folds: list[list[int]] = [[] for _ in range(k)]
    dealt = 0
    for key in sorted(groups):
        idx = sorted(groups[key])
        rng.shuffle(idx)
        for i in idx:
            folds[dealt % k].append(i)
            dealt += 1
    return [sorted(f) for f in folds]


def company_folds(examples: Sequence[dict], k: int = FOLDS, seed: int = SEED) -> list[list[int]]:
    """k folds grouped by company: the companies the examples name are shuffled and dealt to the folds, and a fold
    holds every example that names one of its companies (an example naming companies of two folds is held out by
    both). Examples that name no company are dealt round-robin like the random folds."""
    companies = sorted({c for e in examples for c in e["companies"]})
    rng = random.Random(seed)
    rng.shuffle(companies)
    groups = [set(companies[i::k]) for i in range(k)]
    nameless = [i for i, e in enumerate(examples) if not e["companies"]]
    rng.shuffle(nameless)
    return [sorted({i for i, e in enumerate(examples) if groups[f] & set(e["companies"])} | set(nameless[f::k]))
            for f in range(k)]


def cross_validate(examples: Sequence[dict], embeddings: np.ndarray, folds: list[list[int]]
                   ) -> dict[str, list[float]]:
    """Per flag, the accuracy on each held-out fold of a router fitted on the other folds. Predictions go through
    `predict`, so the out-of-scope override counts as it does in the application. Fitting knows the companies the
    training examples name; prediction knows every company, as a knowledge base that holds them would."""
    per_fold: dict[str, list[float]] = {f: [] for f in FLAGS}
    known, tickers = example_companies(examples), example_tickers(examples)
    for held in folds:
        held_set = set(held)
        train = [i for i in range(len(examples)) if i not in held_set]
        router = OfflineRouter.fit([examples[i] for i in train], lambda qs: [], embeddings=embeddings[train])
        correct = dict.fromkeys(FLAGS, 0)
        for i in held:
            d = router.predict(examples[i]["question"], known_companies=known, known_tickers=tickers,
                               embedding=embeddings[i])
            for flag in FLAGS:
                correct[flag] += getattr(d, flag) == bool(examples[i][flag])
        for flag in FLAGS:
            per_fold[flag].append(correct[flag] / len(held))
    return per_fold


def report(title: str, per_fold: dict[str, list[float]]) -> dict[str, float]:
    """Print the per-flag mean (and worst fold) accuracy, visible with `pytest -s`; return the means."""
    means = {flag: float(np.mean(accs)) for flag, accs in per_fold.items()}
    print(f"\n{title}")
    for flag, accs in per_fold.items():
        print(f"  {flag:22s} mean {means[flag]:.3f}  worst fold {min(accs):.3f}")
    return means


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
    """Embeddings of every example, computed once for the module (fitting is cheap, embedding is not)."""
    return np.asarray(embedder.embed([e["question"] for e in examples]), dtype=np.float64)


@pytest.fixture(scope="module")
def router(embedder, examples, example_embeddings) -> OfflineRouter:  # type: ignore[no-untyped-def]
    """Fitted on every example, as the application uses it (see OfflineRouter.load_or_fit)."""
    return OfflineRouter.fit(examples, embedder.embed, embeddings=example_embeddings)


def test_folds_are_deterministic_stratified_and_partition_the_examples(examples) -> None:  # type: ignore[no-untyped-def]
    folds = stratified_folds(examples)
    assert folds == stratified_folds(examples)
    assert folds != stratified_folds(examples, seed=SEED + 1)
    assert sorted(i for f in folds for i in f) == list(range(len(examples)))
    assert max(map(len, folds)) - min(map(len, folds)) <= 1
    combos = {tuple(bool(e[f]) for f in FLAGS) for e in examples}
    for combo in combos:  # each combination of flags is spread evenly: fold counts differ by one at most
        counts = [sum(tuple(bool(examples[i][f]) for f in FLAGS) == combo for i in fold) for fold in folds]
        assert max(counts) - min(counts) <= 1, combo
    for flag in FLAGS:
        assert all(any(examples[i][flag] for i in fold) for fold in folds), flag


@pytest.mark.parametrize("seed", (SEED, *OTHER_SEEDS))
def test_cross_validated_accuracy_per_flag(seed: int, examples, example_embeddings) -> None:  # type: ignore[no-untyped-def]
    per_fold = cross_validate(examples, example_embeddings, stratified_folds(examples, seed=seed))
    means = report(f"{FOLDS}-fold cross-validated accuracy ({len(examples)} examples, seed {seed}):", per_fold)
    below = {flag: round(acc, 3) for flag, acc in means.items() if acc < MIN_ACCURACY}
    assert not below, f"flags below {MIN_ACCURACY} (mean over {FOLDS} folds, seed {seed}): {below}"


def test_company_folds_hold_each_company_out_of_training(examples) -> None:  # type: ignore[no-untyped-def]
    folds = company_folds(examples)
    assert folds == company_folds(examples)
    assert set().union(*map(set, folds)) == set(range(len(examples)))
    for fold in folds:
        held = set(fold)
        held_companies = {c for i in fold for c in examples[i]["companies"]}
        trained = {c for i, e in enumerate(examples) if i not in held for c in e["companies"]}
        single = {examples[i]["companies"][0] for i in fold if len(examples[i]["companies"]) == 1}
        assert single and not single & trained  # a held-out company is in no training example
        assert held_companies


def test_accuracy_per_flag_on_companies_never_seen_in_training(examples, example_embeddings) -> None:  # type: ignore[no-untyped-def]
    """Grouped by company (see company_folds): mean accuracy per flag at least MIN_GROUPED_ACCURACY."""
    per_fold = cross_validate(examples, example_embeddings, company_folds(examples))
    means = report(f"{FOLDS}-fold accuracy grouped by company ({len(examples)} examples):", per_fold)
    below = {flag: round(acc, 3) for flag, acc in means.items() if acc < MIN_GROUPED_ACCURACY}
    assert not below, f"flags below {MIN_GROUPED_ACCURACY} on unseen companies: {below}"


def test_cross_validation_catches_a_router_that_learnt_nothing(examples, example_embeddings) -> None:  # type: ignore[no-untyped-def]
    """Shuffle the label rows across questions (each row stays a valid combination of flags): the same procedure
    must then score far below the bar on every flag, or the accuracy test could not fail."""
    order = np.random.default_rng(SEED).permutation(len(examples))
    shuffled: list[dict[str, Any]] = [
        {**e, **{f: examples[int(j)][f] for f in FLAGS}} for e, j in zip(examples, order)]
    per_fold = cross_validate(shuffled, example_embeddings, stratified_folds(shuffled))
    means = report("cross-validated accuracy with shuffled labels:", per_fold)
    assert all(acc < MIN_ACCURACY - 0.1 for acc in means.values()), means
    real = cross_validate(examples, example_embeddings, stratified_folds(examples))
    for flag in FLAGS:
        assert np.mean(real[flag]) - means[flag] >= 0.15, flag


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


def test_weights_fitted_on_features_computed_another_way_are_not_loaded(router, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import app.routing.classifier as classifier

    router.save(tmp_path)
    monkeypatch.setattr(classifier, "FEATURES_HASH", "f" * 16)  # features.py or lexicon.py changed since
    assert OfflineRouter.load(tmp_path, router.key) is None


def test_a_reporting_period_named_by_its_end_date_is_a_report_question_not_news(router) -> None:  # type: ignore[no-untyped-def]
    """'the year to 29 March 2025' and '52 weeks ended 1 April 2023' date a report's figures: a date is no sign of
    news when it ends a reporting period, and a headcount ('colleagues', 'employ') is a report's."""
    question = ("How many colleagues did Northwind Logistics employ at the end of the year to 29 March 2025, and how "
                "many of them were part-time?")
    features = extract_features(question)
    assert features.vector["fiscal_year"] == 1.0
    assert features.vector["news_without_report"] == 0.0
    assert features.vector["report_words"] == 1.0
    assert extract_features("What did Northwind announce on 29 March 2025?").vector["fiscal_year"] == 0.0
    assert extract_features("Revenue for the 52 weeks ended 1 April 2023?").vector["fiscal_year"] == 1.0
    decision = router.predict(question)
    assert decision.needs_retrieval and not decision.is_out_of_scope
