"""Offline router: one logistic regression per flag over [MiniLM embedding of the question ; deterministic features].

The deterministic features are the ones the design names: known companies mentioned, fiscal years mentioned,
arithmetic words, recency words and referents that nothing resolves (plus a few close relatives: metric words,
figures given in the question, definition phrasing, news-event words). They are computed the same way at fit and
predict time, so the fitted weights travel in a small .npz keyed by a hash of the labelled examples.

Fitting uses scikit-learn when it is installed, otherwise a numpy gradient-descent logistic regression with L2;
prediction is always plain numpy, so loading a fitted router needs neither.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from app.knowledge.fusion import companies_in, years_in
from app.routing.decision import FLAGS, RouteDecision, RoutePlan

EXAMPLES_PATH = Path(__file__).with_name("examples.jsonl")
DEFAULT_COMPANIES: tuple[str, ...] = ("Northwind Logistics", "Helio Renewables", "Copperleaf Foods")
KNOWN_YEARS: list[int] = list(range(2000, 2036))
# Tickers are names too; only those of known companies count (mapped through the company's own name).
DEFAULT_TICKERS: dict[str, str] = {"NWL": "Northwind Logistics", "HLR": "Helio Renewables", "CLF": "Copperleaf Foods"}

Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]

_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")

_ARITHMETIC = re.compile(
    r"(?i)\b(growth|grow|grew|growing|difference|differ|ratio|cagr|how much more|how much less|by how many points|"
    r"by how much|how far|combined|compare|compared|comparison|versus|vs\.?|percentage|per ?cent|increase|"
    r"decrease|average|sum|sum up|total of|add up|share of|as a share|as a %|proportion|rank|ranking|"
    r"higher|lower|more than|less than|exceed|exceeded|convert|conversion|in euros|in dollars|in pounds|"
    r"at \d[\d.]*|per employee|basis points|bps|midpoint|compute|calculate|work out|maths|math|"
    r"stack up|divided by|relative to|cover|how many (?:days|weeks|months|years)|beat|short of|"
    r"percentages|change)\b|%")
_RECENCY = re.compile(
    r"(?i)\b(latest|recent|recently|this week|last week|this month|news|announce|announced|announcement|"
    r"yesterday|today|just|update|trading update|press release|now|current|currently|still)\b|"
    r"\b(?:" + _MONTHS + r")\.?\s+(?:\d{1,2},?\s+)?(?:19|20)\d{2}\b")
_NEWS_EVENTS = re.compile(
    r"(?i)\b(deal|acquisition|acquire|acquired|merger|recall|recalled|ceo|chief executive|appoint|appointed|"
    r"replaced|resign|stepped down|correction|corrected|interim|h1|h2|half[- ]year|first half|quarter|q[1-4]|"
    r"stock|share price|shares|react|contract|signed|agreement|partnership|fine|lawsuit|strike|outage|"
    r"profit warnings?|warning|warnings|warned|guidance cut|cut guidance|downgrade|upgrade|raised|lowered|delay|"
    r"delays|happened|lately|yet|so far|trading statement|statement|delisting|delisted|energised|launched|"
    r"opened|closure|closed|hired|won|wins|award|awarded)\b")
_METRIC = re.compile(
    r"(?i)\b(revenue|revenues|sales|turnover|top line|margin|margins|profit|profits|ebit|ebitda|earnings|eps|"
    r"dividend|dividends|dps|cash flow|free cash flow|fcf|capex|debt|net debt|employees|headcount|segment|"
    r"segments|guidance|organic|like-for-like|volume|volumes|cost|costs|chiffre d'affaires|umsatz|ingresos|"
    r"payout|buyback|assets|capacity|mw|gw|orders|backlog)\b")
_REFERENT = re.compile(
    r"(?i)\b(it|its|it's|they|their|theirs|them|that|those|these|there|the two|the other one|the other|"
    r"the others|the smaller one|the bigger one|the company|that company|last year|the year before|"
    r"same|the segment|the figure|the number|the period|the deal|the report)\b")
_FOLLOW_UP = re.compile(r"(?i)^\s*(and|ok|okay|so|same|what about|how about|now|also|then)\b")
_VAGUE_COMPANY = re.compile(
    r"(?i)\b(the company|that company|the companies|its peers|peers|competitor|competitors|that retailer|"
    r"that airline|that bank|dutch bank|my employer|discounter|the solar company|the logistics company|"
    r"the food company)\b")
_DEFINITION = re.compile(
    r"(?i)\b(what is an?|what's an?|whats an?|what does .* (mean|stand for)|define|definition|explain|"
    r"in general|meaning of|how is .* calculated|is .* the same (thing )?as)\b|^\s*whats? \w+\??$")
_ADVICE = re.compile(
    r"(?i)\b(should i|buy|sell|price target|outperform|hold|invest|portfolio|my position|my holding|"
    r"recommend|tip|tips)\b")
_FORECAST = re.compile(
    r"(?i)\b(next year|next quarter|next month|will .{0,30}\b(?:double|outperform|go up|go down|rise|fall|crash|"
    r"beat the market)|forecast|predict|prediction|target price|price target)\b")
_REPORT = re.compile(
    r"(?i)\b(report|annual report|disclose|discloses|disclosed|principal risks?|risks?|board|chair|chairs|"
    r"strategy|segment|segments|auditor|governance|employees|say about|says about|reported)\b")
_NAME = re.compile(r"(?<![.?!]\s)(?<!^)\b([A-Z][a-z\u00e0-\u00ff]+(?:[- ][A-Z][a-z\u00e0-\u00ff]+)*)\b")
_NOT_NAMES = {"fy", "i", "ceo", "cfo", "ebit", "ebitda", "eps", "dps", "h1", "h2"}
_NUMBER = re.compile(r"(?<![A-Za-z])[£$€]?\d+(?:[.,]\d+)*\s?(?:%|p|m|bn|k)?(?![A-Za-z0-9])")
_YEARISH = re.compile(r"^(?:19|20)\d{2}$")

FEATURE_NAMES: tuple[str, ...] = (
    "n_companies", "has_company", "multi_company", "has_year", "multi_year", "arithmetic", "n_arithmetic",
    "recency", "news_event", "metric", "referent", "unresolved_referent", "follow_up", "vague_company",
    "definition", "advice", "given_numbers", "short", "ticker", "forecast", "report_words", "unknown_name",
    "year_2025_on",
)
# The embedding is unit length; the hand features are scaled up so the L2 penalty does not drown them.
FEATURE_SCALE = 1.0


@dataclass
class Features:
    companies: list[str]
    years: list[int]
    arithmetic_terms: list[str]
    recency_terms: list[str]
    news_terms: list[str]
    metric_terms: list[str]
    referents: list[str]
    unresolved_referents: list[str]
    vector: dict[str, float]


def _terms(pattern: re.Pattern[str], text: str) -> list[str]:
    out: list[str] = []
    for m in pattern.finditer(text):
        term = m.group(0).strip().lower()
        if term and term not in out:
            out.append(term)
    return out


def extract_features(question: str, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                     context_entities: Iterable[str] = ()) -> Features:
    """The deterministic features of a question (no model involved)."""
    companies = companies_in(question, list(known_companies))
    ticker_re = r"(?i)\b(nwl|hlr|clf)\b" if question == question.lower() else r"\b(NWL|HLR|CLF)\b"
    tickers = [DEFAULT_TICKERS[t.upper()] for t in re.findall(ticker_re, question)
               if DEFAULT_TICKERS[t.upper()] in known_companies]
    for company in tickers:
        if company not in companies:
            companies.append(company)
    years = years_in(question, KNOWN_YEARS)
    arithmetic = _terms(_ARITHMETIC, question)
    recency = _terms(_RECENCY, question)
    news = _terms(_NEWS_EVENTS, question)
    metric = _terms(_METRIC, question)
    referents = _terms(_REFERENT, question)
    context = [c for c in context_entities if c]
    # A referent is unresolved when nothing can resolve it: no company named here, no context passed in.
    unresolved = referents if not companies and not context else []
    numbers = [n for n in _NUMBER.findall(question) if not _YEARISH.match(n.strip())]
    given = [n for n in numbers if not re.fullmatch(r"\d{1,2}", n.strip())]
    words = re.findall(r"\w+", question)
    aliases = {w.lower() for c in known_companies for w in re.findall(r"\w+", c)}
    months = set(_MONTHS.split("|"))
    names = [m.group(1) for m in _NAME.finditer(question)
             if not any(w.lower() in aliases or w.lower() in months or w.lower() in _NOT_NAMES
                        for w in re.split(r"[- ]", m.group(1)))]
    vec = {
        "n_companies": min(len(companies), 3) / 3.0,
        "has_company": float(bool(companies)),
        "multi_company": float(len(companies) >= 2),
        "has_year": float(bool(years)),
        "multi_year": float(len(years) >= 2),
        "arithmetic": float(bool(arithmetic)),
        "n_arithmetic": min(len(arithmetic), 3) / 3.0,
        "recency": float(bool(recency)),
        "news_event": float(bool(news)),
        "metric": float(bool(metric)),
        "referent": float(bool(referents)),
        "unresolved_referent": float(bool(unresolved)),
        "follow_up": float(bool(_FOLLOW_UP.search(question))),
        "vague_company": float(bool(_VAGUE_COMPANY.search(question))),
        "definition": float(bool(_DEFINITION.search(question))),
        "advice": float(bool(_ADVICE.search(question))),
        "given_numbers": float(len(given) >= 1 and not companies),
        "short": float(len(words) <= 5),
        "ticker": float(bool(tickers)),
        "forecast": float(bool(_FORECAST.search(question))),
        "report_words": float(bool(_REPORT.search(question))),
        "unknown_name": float(bool(names)),
        "year_2025_on": float(any(y >= 2025 for y in years)),
    }
    return Features(companies, years, arithmetic, recency, news, metric, referents, unresolved, vec)


def feature_vector(f: Features) -> np.ndarray:
    return np.array([f.vector[n] for n in FEATURE_NAMES], dtype=np.float64) * FEATURE_SCALE


def load_examples(path: str | Path | None = None) -> list[dict[str, Any]]:
    """The labelled routing examples (one JSON object a line)."""
    p = Path(path) if path else EXAMPLES_PATH
    out = []
    with p.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out.append(json.loads(line))
    return out


def examples_hash(examples: Sequence[Mapping[str, Any]] | None = None, path: str | Path | None = None) -> str:
    """sha256 (16 hex) of the examples file, or of the canonical JSON of the given examples."""
    if examples is None:
        return hashlib.sha256(Path(path or EXAMPLES_PATH).read_bytes()).hexdigest()[:16]
    blob = "\n".join(json.dumps(dict(e), sort_keys=True) for e in examples)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


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
                      known_companies: Sequence[str] = DEFAULT_COMPANIES) -> np.ndarray:
        feats = np.stack([feature_vector(extract_features(q, known_companies)) for q in questions])
        return np.hstack([np.asarray(embeddings, dtype=np.float64), feats])

    @classmethod
    def fit(cls, examples: Sequence[Mapping[str, Any]], embed: Embed, *,
            embeddings: np.ndarray | None = None, known_companies: Sequence[str] = DEFAULT_COMPANIES,
            c: float | None = None) -> "OfflineRouter":
        """Fit on labelled examples. `embeddings` (one row per example) skips embedding them again."""
        questions = [e["question"] for e in examples]
        if embeddings is None:
            embeddings = np.asarray(embed(questions), dtype=np.float64)
        X = cls.design_matrix(questions, embeddings, known_companies)
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
                 key=np.array(self.key))
        tmp.replace(target)
        return target

    @classmethod
    def load(cls, folder: str | Path, key: str, embed: Embed | None = None) -> "OfflineRouter | None":
        """The router saved under `folder` for examples hash `key`, or None (missing or stale features)."""
        path = cls.path_for(folder, key)
        if not path.exists():
            return None
        with np.load(path, allow_pickle=False) as data:
            if tuple(data["feature_names"].tolist()) != FEATURE_NAMES or float(data["feature_scale"]) != FEATURE_SCALE:
                return None
            return cls(data["weights"], data["bias"], embed=embed, key=str(data["key"]),
                       flags=tuple(data["flags"].tolist()))

    @classmethod
    def load_or_fit(cls, folder: str | Path, embed: Embed, examples_path: str | Path | None = None
                    ) -> "OfflineRouter":
        """Load the weights fitted on this examples file, fitting (and saving) them first if need be."""
        examples = load_examples(examples_path)
        key = examples_hash(examples)
        router = cls.load(folder, key, embed=embed)
        if router is None:
            router = cls.fit(examples, embed)
            router.save(folder)
        return router

    # ------------------------------------------------------------------------------------- prediction
    def probabilities(self, question: str, *, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                      context_entities: Iterable[str] = (), embedding: Sequence[float] | None = None
                      ) -> tuple[dict[str, float], Features]:
        if embedding is None:
            if self.embed is None:
                raise ValueError("this router has no embedder; pass embed= when loading it")
            embedding = self.embed([question])[0]
        feats = extract_features(question, known_companies, context_entities)
        x = np.concatenate([np.asarray(embedding, dtype=np.float64), feature_vector(feats)])
        probs = _sigmoid(self.weights @ x + self.bias)
        return {f: float(p) for f, p in zip(self.flags, probs)}, feats

    def predict(self, question: str, *, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                context_entities: Iterable[str] = (), embedding: Sequence[float] | None = None
                ) -> RouteDecision:
        context = [c for c in context_entities if c]
        probs, feats = self.probabilities(question, known_companies=known_companies,
                                          context_entities=context, embedding=embedding)
        flags = {f: probs[f] >= 0.5 for f in FLAGS}
        overridden = False
        if probs["is_out_of_scope"] >= self.OUT_OF_SCOPE_THRESHOLD:
            overridden = any(flags[f] for f in FLAGS[1:])
            flags = {f: f == "is_out_of_scope" for f in FLAGS}
        else:
            flags["is_out_of_scope"] = False
        plan = build_plan(flags, probs, feats, context)
        clarification = clarification_question(question, feats, context) if flags["needs_clarification"] else None
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


# ------------------------------------------------------------------------------------ plan and clarification
_OVERVIEW = re.compile(r"(?i)\b(overview|summar(y|ise|ize)|tell me about|describe|strategy|outlook|"
                       r"how did .* do|highlights|key points|main)\b")
_PROFILE = re.compile(r"(?i)\b(my|i prefer|for me|as usual|my usual)\b")
_FACTS = re.compile(r"(?i)\b(remember|as i said|i told you|earlier|before|again|previous|last time)\b")


def build_plan(flags: Mapping[str, bool], probs: Mapping[str, float], feats: Features,
               context: Sequence[str]) -> RoutePlan:
    """The plan follows from the flags and features alone (no further model)."""
    confidence = float(min(max(p, 1.0 - p) for p in probs.values()))
    if flags["is_out_of_scope"]:
        return RoutePlan(source="none", granularity="fact", effort="low", memory_read="none",
                         confidence=round(confidence, 4))
    if flags["needs_retrieval"] and flags["needs_news"]:
        source = "both"
    elif flags["needs_news"]:
        source = "news"
    elif flags["needs_retrieval"]:
        source = "reports"
    else:
        source = "none"
    text_vec = feats.vector
    if flags["needs_calculation"] or text_vec["multi_company"]:
        granularity = "comparison"
    elif feats.metric_terms or feats.years:
        granularity = "fact"
    elif text_vec["referent"] == 0 and source != "none" and not feats.metric_terms:
        granularity = "overview" if feats.companies else "section"
    else:
        granularity = "section"
    hard = sum([source == "both", bool(flags["needs_calculation"]), len(feats.companies) >= 2,
                len(feats.years) >= 2])
    effort = "high" if hard >= 2 else "medium" if hard == 1 else "low"
    if feats.referents and context:
        memory = "thread"
    elif flags["needs_clarification"]:
        memory = "thread"
    elif text_vec["follow_up"] or _FACTS.search(" ".join(feats.referents)):
        memory = "facts"
    else:
        memory = "none"
    if flags["needs_clarification"]:
        # How sure we are that clarification is needed and of the rest.
        confidence = min(confidence, float(probs["needs_clarification"]))
    return RoutePlan(source=source, granularity=granularity, effort=effort, memory_read=memory,
                     confidence=round(max(0.0, min(1.0, confidence)), 4))


def clarification_question(question: str, feats: Features, context: Sequence[str] = ()) -> str:
    """A deterministic question naming what is missing: the company, the metric, the period."""
    missing: list[str] = []
    if not feats.companies and not context:
        missing.append("company")
    if not feats.metric_terms:
        missing.append("metric")
    if not feats.years and not feats.recency_terms:
        missing.append("period")
    if not missing:
        missing = ["company"] if not feats.companies else ["metric"]
    parts = {
        "company": "which company do you mean" + (" (for example " + ", ".join(DEFAULT_COMPANIES) + ")"
                                                  if feats.unresolved_referents else ""),
        "metric": "which metric or figure",
        "period": "which period or fiscal year",
    }
    asked = [parts[m] for m in missing]
    if len(asked) == 1:
        body = asked[0]
    else:
        body = ", ".join(asked[:-1]) + " and " + asked[-1]
    return body[0].upper() + body[1:] + "?"
