"""The router's deterministic features of a question (no model involved), computed the same way at fit and predict time.

The features the design names: known companies mentioned, fiscal years mentioned, arithmetic words, recency words
and referents that nothing resolves (plus close relatives: metric words, figures given in the question, definition
phrasing, news-event words) and generic cues for each flag: interim vs fiscal-year periods, the annual report
named as the source, dates, comparatives and change questions, requests that are not about companies, insider
requests, and conjunctions such as "a metric but no company". Companies are matched against the caller's
`known_companies` (misspelt by one letter, or described by a word of their name: "the logistics firm") and tickers
only through the caller's `known_tickers`; the sample corpus's names are defaults, not part of the features.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np

from app.routing import lexicon as lex
from app.routing.examples import DEFAULT_COMPANIES, SAMPLE_LATEST_REPORT_YEAR
from app.text.companies import companies_named, company_aliases
from app.text.dates import MONTHS
from app.text.periods import years_in

KNOWN_YEARS: list[int] = list(range(2000, 2036))

FEATURE_NAMES: tuple[str, ...] = (
    "n_companies", "has_company", "multi_company", "has_year", "multi_year", "arithmetic", "n_arithmetic",
    "recency", "news_event", "metric", "referent", "unresolved_referent", "follow_up", "vague_company",
    "definition", "advice", "given_numbers", "short", "ticker", "forecast", "report_words", "unknown_name",
    "year_after_reports",
    # Added with the cross-validated evaluation: generic signals, no company or example specific.
    "fuzzy_company", "described_company", "company_set", "peers", "unknown_company", "fiscal_year", "interim",
    "dated", "report_explicit", "insider", "off_task", "comparative", "change_question", "between",
    "counterfactual", "two_numbers", "vague_measure", "prior_turn", "metric_without_subject",
    "calc_without_operands", "generic_definition", "company_and_metric", "news_without_report", "truncated",
)
# The embedding is unit length; the hand features are 0/1 and the L2 penalty treats both alike.
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


def _one_edit_apart(a: str, b: str) -> bool:
    """True when a and b differ by one substitution, insertion, deletion or swap of adjacent letters."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    if len(a) > len(b):
        a, b = b, a
    return any(b[:i] + b[i + 1:] == a for i in range(len(b)))


def _fuzzy_companies(question: str, known_companies: Sequence[str]) -> list[str]:
    """Known companies whose one-word alias (the distinctive first word, see company_aliases) appears misspelt by
    one edit ("Hleio"). Aliases of five letters match only with letters swapped, so that ordinary words one letter
    away ("hello") do not."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", question) if len(w) >= 5}
    found: list[str] = []
    for alias, company in company_aliases(list(known_companies)).items():
        if " " in alias or len(alias) < 5 or company in found:
            continue
        for w in words:
            if w != alias and _one_edit_apart(w, alias) and (len(alias) >= 6 or sorted(w) == sorted(alias)):
                found.append(company)
                break
    return found


def _tickers(question: str, known_tickers: Mapping[str, str] | None, known_companies: Sequence[str]
             ) -> tuple[list[str], bool]:
    """(known companies named by one of their tickers, whether anything ticker-like appears). Known tickers match
    in any case when the question is all lower case, else only in upper case; an unknown upper-case word of 2-5
    letters that is not a common acronym looks like a ticker too."""
    companies: list[str] = []
    for ticker, company in (known_tickers or {}).items():
        flags = re.IGNORECASE if question == question.lower() else 0
        if company in known_companies and re.search(r"\b" + re.escape(ticker) + r"\b", question, flags):
            if company not in companies:
                companies.append(company)
    upper = {t.upper() for t in (known_tickers or {})}
    looks_like = any(w not in lex.ACRONYMS and w not in upper and not re.fullmatch(r"[HQ]\d", w)
                     for w in re.findall(r"\b[A-Z]{2,5}\b", question))
    return companies, bool(companies) or looks_like


def _described_companies(question: str, known_companies: Sequence[str]) -> tuple[bool, list[str]]:
    """(a company is described rather than named: "the food company", "that airline", "my employer";
    the known companies a description singles out by what their own name says: "the logistics firm" is
    X Logistics when exactly one known company has that word in its name)."""
    described = False
    resolved: list[str] = []
    for m in lex.DESCRIPTOR.finditer(question):
        noun = (m.group(3) or m.group(5) or "").lower()
        modifiers = re.findall(r"[a-z]+", ((m.group(2) or "") + " " + (m.group(4) or "")).lower())
        if noun == "one" and not [w for w in modifiers if w not in lex.REFERENTIAL_ADJECTIVES]:
            continue  # "the other one", "that one": a referent, not a description
        described = True
        # A sector noun describes too ("the retailer"); "company", "firm", "one" and the like do not.
        sector = [noun] if noun not in lex.GENERIC_ENTITY_NOUNS else []
        for word in (w for w in modifiers + sector if len(w) >= 4):
            owners = [c for c in known_companies
                      if any(n[:4] == word[:4] for n in re.findall(r"[a-z]+", c.lower())[1:] if len(n) >= 4)]
            if len(owners) == 1 and owners[0] not in resolved:
                resolved.append(owners[0])
    return described, resolved


def extract_features(question: str, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                     context_entities: Iterable[str] = (), known_tickers: Mapping[str, str] | None = None,
                     latest_report_year: int | None = SAMPLE_LATEST_REPORT_YEAR) -> Features:
    """The deterministic features of a question (no model involved). `known_tickers` maps tickers to the
    names of known companies; without it no ticker resolves to a company. `latest_report_year` is the latest
    fiscal year the knowledge base has reports for: a year after it can only be news, guidance or a forecast."""
    known = list(known_companies)
    companies = companies_named(question, known)
    by_ticker, ticker_like = _tickers(question, known_tickers, known)
    fuzzy = [c for c in _fuzzy_companies(question, known) if c not in companies and c not in by_ticker]
    described, by_description = _described_companies(question, known)
    for company in by_ticker + fuzzy + by_description:
        if company not in companies:
            companies.append(company)
    years = years_in(question, KNOWN_YEARS)
    arithmetic = _terms(lex.ARITHMETIC, question)
    recency = _terms(lex.RECENCY, question)
    news = _terms(lex.NEWS_EVENTS, lex.PROPER_PHRASE.sub("X", question))
    metric = _terms(lex.METRIC, question)
    referents = _terms(lex.REFERENT, question)
    context = [c for c in context_entities if c]
    # A referent is unresolved when nothing can resolve it: no company named here, no context passed in.
    unresolved = referents if not companies and not context else []
    numbers = [n for n in lex.NUMBER.findall(question) if not lex.YEARISH.match(n.strip())]
    given = [n for n in numbers if not re.fullmatch(r"\d{1,2}", n.strip())]
    words = re.findall(r"\w+", question)
    aliases = {w.lower() for c in known for w in re.findall(r"\w+", c)}
    months = set(MONTHS)
    names = [m.group(1) for m in lex.NAME.finditer(question)
             if not any(w.lower() in aliases or w.lower() in months or w.lower() in lex.NOT_NAMES
                        for w in re.split(r"[- ]", m.group(1)))]
    lead = lex.LEADING_NAME.match(question)
    if lead and lead.group(1).split()[0].lower() not in lex.NOT_LEADING and not any(
            w.lower() in aliases or w.lower() in months for w in re.split(r"[- ]", lead.group(1))):
        names.insert(0, lead.group(1))
    company_set = bool(lex.COMPANY_SET.search(question))
    subject = bool(companies) or bool(context) or company_set
    definition = bool(lex.DEFINITION.search(question))
    report_explicit = bool(lex.REPORT_EXPLICIT.search(question))
    newsy = bool(recency) or bool(news) or bool(lex.INTERIM.search(question))
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
        "follow_up": float(bool(lex.FOLLOW_UP.search(question))),
        "vague_company": float(described and not by_description and not companies),
        "definition": float(definition),
        "advice": float(bool(lex.ADVICE.search(question))),
        "given_numbers": float(len(given) >= 1 and not companies),
        "short": float(len(words) <= 5),
        "ticker": float(ticker_like),
        "forecast": float(bool(lex.FORECAST.search(question))),
        "report_words": float(bool(lex.REPORT.search(question))),
        "unknown_name": float(bool(names)),
        "year_after_reports": float(latest_report_year is not None and any(y > latest_report_year for y in years)),
        "fuzzy_company": float(bool(fuzzy)),
        "described_company": float(bool(by_description)),
        "company_set": float(company_set),
        "peers": float(bool(lex.PEERS.search(question))),
        "unknown_company": float(bool(names) and not companies),
        "fiscal_year": float(bool(lex.FISCAL.search(question))),
        "interim": float(bool(lex.INTERIM.search(question))),
        "dated": float(bool(lex.DATE.search(question))),
        "report_explicit": float(report_explicit),
        "insider": float(bool(lex.INSIDER.search(question))),
        "off_task": float(bool(lex.OFF_TASK.search(question))),
        "comparative": float(bool(lex.COMPARATIVE.search(question))),
        "change_question": float(bool(lex.CHANGE_QUESTION.search(question))),
        "between": float(bool(lex.BETWEEN.search(question))),
        "counterfactual": float(bool(lex.COUNTERFACTUAL.search(question))),
        "two_numbers": float(len(given) >= 2),
        "vague_measure": float(bool(lex.VAGUE_MEASURE.search(question))),
        "prior_turn": float(bool(lex.PRIOR_TURN.search(question))),
        "metric_without_subject": float((bool(metric) or bool(lex.REPORT.search(question))) and not subject
                                        and not definition),
        "calc_without_operands": float(bool(arithmetic) and not metric and not given and not subject
                                       and not definition),
        "generic_definition": float(definition and not companies and not years and not referents),
        "company_and_metric": float(bool(companies) and bool(metric)),
        "news_without_report": float(newsy and not report_explicit and not lex.FISCAL.search(question)),
        "truncated": float(bool(lex.TRUNCATED.search(question))),
    }
    return Features(companies, years, arithmetic, recency, news, metric, referents, unresolved, vec)


def feature_vector(f: Features) -> np.ndarray:
    return np.array([f.vector[n] for n in FEATURE_NAMES], dtype=np.float64) * FEATURE_SCALE

