"""Offline router: one logistic regression per flag over [MiniLM embedding of the question ; deterministic features].

The features (app/routing/features.py) are computed the same way at fit and predict time, so the fitted weights
travel in a small .npz keyed by a hash of the labelled examples (app/routing/examples.py). Fitting uses scikit-learn
when it is installed, otherwise a numpy gradient-descent logistic regression with L2; prediction is always plain
numpy, so loading a fitted router needs neither. The plan and the clarification question come from
app/routing/plan.py.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from app.routing.decision import FLAGS, RouteDecision
from app.routing.examples import (DEFAULT_COMPANIES, DEFAULT_TICKERS, EXAMPLES_PATH, SAMPLE_LATEST_REPORT_YEAR,
                                  example_companies, example_tickers, examples_hash, load_examples)
from app.routing.features import FEATURE_NAMES, FEATURE_SCALE, Features, extract_features, feature_vector
from app.routing.plan import build_plan, clarification_question

# Names other modules import from here (app/models/, tests); they live in the modules above.
__all__ = ["DEFAULT_COMPANIES", "DEFAULT_TICKERS", "EXAMPLES_PATH", "FEATURE_NAMES", "Embed", "OfflineRouter",
           "build_plan", "clarification_question", "examples_hash", "extract_features", "feature_vector",
           "load_examples"]

Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]


def _features_hash() -> str:
    """sha256 (16 hex) of the code that computes the features: weights fitted on other features are stale."""
    from app.routing import features, lexicon

    digest = hashlib.sha256()
    for module in (features, lexicon):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:16]


FEATURES_HASH = _features_hash()


def _fit_logistic(X: np.ndarray, y: np.ndarray, c: float) -> tuple[np.ndarray, float]:
    """Class-balanced L2 logistic regression. scikit-learn's lbfgs when installed, else numpy gradient descent."""
    if y.min() == y.max():  # one class only: a constant model
        return np.zeros(X.shape[1]), (8.0 if y[0] else -8.0)
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        return _fit_logistic_numpy(X, y, c)
    model = LogisticRegression(C=c, class_weight="balanced", max_iter=5000, solver="lbfgs")
    model.fit(X, y)
    return model.coef_[0].astype(np.float64), float(model.intercept_[0])


def _fit_logistic_numpy(X: np.ndarray, y: np.ndarray, c: float, iters: int = 4000, lr: float = 0.5
                        ) -> tuple[np.ndarray, float]:
    n, d = X.shape
    pos = y.mean()
    sw = np.where(y == 1, 0.5 / pos, 0.5 / (1 - pos))  # balanced sample weights
    w = np.zeros(d)
    b = 0.0
    lam = 1.0 / (c * n)
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
        g = sw * (p - y)
        w -= lr * (X.T @ g / n + lam * w)
        b -= lr * g.mean()
    return w, float(b)


def _sigmoid(z: np.ndarray | float) -> np.ndarray | float:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))


class OfflineRouter:
    """Five independent logistic regressions over [embedding ; features]."""

    C = 10.0
    OUT_OF_SCOPE_THRESHOLD = 0.5

    def __init__(self, weights: np.ndarray, bias: np.ndarray, embed: Embed | None = None,
                 key: str = "", flags: Sequence[str] = FLAGS) -> None:
        self.weights = np.asarray(weights, dtype=np.float64)   # (n_flags, dim)
        self.bias = np.asarray(bias, dtype=np.float64)         # (n_flags,)
        self.embed = embed
        self.key = key
        self.flags = tuple(flags)

    # ----------------------------------------------------------------------------------------- fitting
    @staticmethod
    def design_matrix(questions: Sequence[str], embeddings: np.ndarray,
                      known_companies: Sequence[str] = DEFAULT_COMPANIES,
                      known_tickers: Mapping[str, str] | None = None) -> np.ndarray:
        feats = np.stack([feature_vector(extract_features(q, known_companies, known_tickers=known_tickers))
                          for q in questions])
        return np.hstack([np.asarray(embeddings, dtype=np.float64), feats])

    @classmethod
    def fit(cls, examples: Sequence[Mapping[str, Any]], embed: Embed, *,
            embeddings: np.ndarray | None = None, known_companies: Sequence[str] | None = None,
            c: float | None = None, known_tickers: Mapping[str, str] | None = None) -> "OfflineRouter":
        """Fit on labelled examples. `embeddings` (one row per example) skips embedding them again.
        `known_companies` / `known_tickers` are those the examples talk about; by default those they name
        (app/routing/examples.py: example_companies, example_tickers)."""
        questions = [e["question"] for e in examples]
        if embeddings is None:
            embeddings = np.asarray(embed(questions), dtype=np.float64)
        companies = example_companies(examples) if known_companies is None else known_companies
        tickers = example_tickers(examples) if known_tickers is None else known_tickers
        X = cls.design_matrix(questions, embeddings, companies, tickers)
        W, B = [], []
        for flag in FLAGS:
            y = np.array([1.0 if e[flag] else 0.0 for e in examples])
            w, b = _fit_logistic(X, y, c or cls.C)
            W.append(w)
            B.append(b)
        return cls(np.stack(W), np.array(B), embed=embed, key=examples_hash(examples))

    # ------------------------------------------------------------------------------------ persistence
    @staticmethod
    def path_for(folder: str | Path, key: str) -> Path:
        return Path(folder) / f"router-{key}.npz"

    def save(self, folder: str | Path) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        target = self.path_for(folder, self.key or "unkeyed")
        tmp = target.with_name(target.stem + ".tmp.npz")
        np.savez(tmp, weights=self.weights, bias=self.bias, flags=np.array(self.flags),
                 feature_names=np.array(FEATURE_NAMES), feature_scale=np.array(FEATURE_SCALE),
                 features_hash=np.array(FEATURES_HASH), key=np.array(self.key))
        tmp.replace(target)
        return target

    @classmethod
    def load(cls, folder: str | Path, key: str, embed: Embed | None = None) -> "OfflineRouter | None":
        """The router saved under `folder` for examples hash `key`, or None (missing, or fitted on other features:
        their names, scale or the code that computes them)."""
        path = cls.path_for(folder, key)
        if not path.exists():
            return None
        with np.load(path, allow_pickle=False) as data:
            if (tuple(data["feature_names"].tolist()) != FEATURE_NAMES or float(data["feature_scale"]) != FEATURE_SCALE
                    or "features_hash" not in data.files or str(data["features_hash"]) != FEATURES_HASH):
                return None  # fitted on features computed another way: refit
            return cls(data["weights"], data["bias"], embed=embed, key=str(data["key"]),
                       flags=tuple(data["flags"].tolist()))

    @classmethod
    def load_or_fit(cls, folder: str | Path, embed: Embed, examples_path: str | Path | None = None, *,
                    known_companies: Sequence[str] | None = None,
                    known_tickers: Mapping[str, str] | None = None) -> "OfflineRouter":
        """Load the weights fitted on this examples file, fitting (and saving) them first if need be. The
        companies and tickers are those the examples talk about (by default those they name)."""
        examples = load_examples(examples_path)
        key = examples_hash(examples)
        router = cls.load(folder, key, embed=embed)
        if router is None:
            from filelock import FileLock

            # Processes starting at once on a cold models folder fit it one at a time: the first fits and saves,
            # the others load what it saved (eight fitting at once took minutes on two cores).
            Path(folder).mkdir(parents=True, exist_ok=True)
            with FileLock(str(Path(folder) / ".fit.lock"), timeout=600):
                router = cls.load(folder, key, embed=embed)
                if router is None:
                    router = cls.fit(examples, embed, known_companies=known_companies, known_tickers=known_tickers)
                    router.save(folder)
        return router

    # ------------------------------------------------------------------------------------- prediction
    def probabilities(self, question: str, *, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                      context_entities: Iterable[str] = (), embedding: Sequence[float] | None = None,
                      known_tickers: Mapping[str, str] | None = None,
                      latest_report_year: int | None = SAMPLE_LATEST_REPORT_YEAR) -> tuple[dict[str, float], Features]:
        if embedding is None:
            if self.embed is None:
                raise ValueError("this router has no embedder; pass embed= when loading it")
            embedding = self.embed([question])[0]
        feats = extract_features(question, known_companies, context_entities, known_tickers=known_tickers,
                                 latest_report_year=latest_report_year)
        x = np.concatenate([np.asarray(embedding, dtype=np.float64), feature_vector(feats)])
        probs = _sigmoid(self.weights @ x + self.bias)
        return {f: float(p) for f, p in zip(self.flags, probs)}, feats

    def predict(self, question: str, *, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                context_entities: Iterable[str] = (), embedding: Sequence[float] | None = None,
                known_tickers: Mapping[str, str] | None = None,
                latest_report_year: int | None = SAMPLE_LATEST_REPORT_YEAR) -> RouteDecision:
        context = [c for c in context_entities if c]
        probs, feats = self.probabilities(question, known_companies=known_companies, context_entities=context,
                                          embedding=embedding, known_tickers=known_tickers,
                                          latest_report_year=latest_report_year)
        flags = {f: probs[f] >= 0.5 for f in FLAGS}
        overridden = False
        if probs["is_out_of_scope"] >= self.OUT_OF_SCOPE_THRESHOLD:
            overridden = any(flags[f] for f in FLAGS[1:])
            flags = {f: f == "is_out_of_scope" for f in FLAGS}
        else:
            flags["is_out_of_scope"] = False
        plan = build_plan(flags, probs, feats, context)
        clarification = (clarification_question(question, feats, context, known_companies=known_companies)
                         if flags["needs_clarification"] else None)
        signals: dict[str, Any] = {
            "companies": feats.companies, "years": feats.years,
            "arithmetic_terms": feats.arithmetic_terms, "recency_terms": feats.recency_terms,
            "news_terms": feats.news_terms, "metric_terms": feats.metric_terms,
            "referents": feats.referents, "unresolved_referents": feats.unresolved_referents,
            "context_entities": context, "features": dict(feats.vector),
            "probabilities": {f: round(p, 4) for f, p in probs.items()},
            "out_of_scope_override": overridden, "router": "offline", "examples_key": self.key,
        }
        return RouteDecision(**flags, plan=plan, signals=signals, clarification_question=clarification)

