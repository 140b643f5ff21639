"""The guard of the semantic answer cache: two questions that read alike may still ask different things.

Embedding similarity puts "What was Northwind's revenue in FY2023?" next to "... in FY2024?", and "Did margins
rise?" next to "Did margins not rise?": the known failure of semantic caches is to serve one for the other. So a
cached answer is refused, whatever the similarity, when the two questions differ in the companies they name, the
fiscal years, the halves or quarters, the metric or line item, negation, or what kind of answer they want (the
figure, its reason, its change, its outlook). `cache_conflict` says which, or
None when nothing tells them apart.

Pure and deterministic. The semantic cache (app/memory/semantic_cache.py) calls it on every
candidate before a hit is served.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from app.metrics import find_metrics, items_named
from app.text.companies import companies_named
from app.text.periods import HALF_OR_QUARTER, half_or_quarter, years_named

_NEGATION = re.compile(r"(?i)\b(?:not|no|never|neither|nor|without|n't|didn't|doesn't|wasn't|weren't|isn't|"
                       r"aren't|hasn't|haven't|fail(?:ed|s)? to)\b|n't\b")


def cache_conflict(asked: str, cached: str, known_companies: Sequence[str] = ()) -> str | None:
    """Why the cached question's answer cannot serve the one asked: 'company', 'fiscal year', 'period',
    'metric', 'negation' or 'intent' (a figure against its reason, its change or its outlook); None when they
    agree on all of them."""
    if companies_in_text(asked, known_companies) != companies_in_text(cached, known_companies):
        return "company"
    if set(years_named(asked)) != set(years_named(cached)):
        return "fiscal year"
    if _periods(asked) != _periods(cached):
        return "period"
    if measures_in(asked) != measures_in(cached):
        return "metric"
    if bool(_NEGATION.search(asked)) != bool(_NEGATION.search(cached)):
        return "negation"
    if intents(asked) != intents(cached):
        return "intent"
    return None


_INTENTS = {
    "explanation": re.compile(r"(?i)\b(?:why|what (?:drove|drives|caused|causes|explains?|led to)|reasons?|explain|"
                              r"drivers?|driven|due to|factors?|because)\b"),
    "change": re.compile(r"(?i)\b(?:growth|grow|grew|increase[sd]?|decrease[sd]?|declined?|declines|fell|fall|rose|"
                         r"rise|change[sd]?|compared?|comparison|versus|vs\.?|trend|cagr|yoy|year[- ]over[- ]year)\b"),
    "outlook": re.compile(r"(?i)\b(?:guidance|outlook|expects?|expected|forecasts?|will|plans?|next year)\b"),
}


def intents(text: str) -> set[str]:
    """What kind of answer the question wants beyond its figure: an explanation ('what drove …'), a change
    ('… growth', 'did it fall'), an outlook ('guidance'). The figure and the reason for it read alike to an
    embedding model (0.96 for 'What drove X's revenue' against 'What was X's revenue'), so they are told apart
    by their words."""
    return {name for name, pattern in _INTENTS.items() if pattern.search(text)}


def companies_in_text(text: str, known: Sequence[str]) -> frozenset[str]:
    """The companies named, however cased: a cache compares questions, not how they were typed. Remembered per
    list of known companies (a cached question is compared again and again, and the scan grows with the list)."""
    return _scanner(tuple(known))(text)


@lru_cache(maxsize=8)
def _scanner(known: tuple[str, ...]) -> Callable[[str], frozenset[str]]:
    """A remembering scan for one list of known companies, each name's pattern compiled once."""
    patterns = [(c.casefold(), re.compile(rf"(?<!\w){re.escape(c.casefold())}(?!\w)")) for c in known]

    @lru_cache(maxsize=2048)
    def scan(text: str) -> frozenset[str]:
        lowered = text.casefold()
        written = {name for name, pattern in patterns if pattern.search(lowered)}
        return frozenset(written | {c.casefold() for c in companies_named(text, known)})

    return scan


def _periods(text: str) -> set[str]:
    return {half_or_quarter(m) for pattern in HALF_OR_QUARTER for m in pattern.finditer(text)}


@lru_cache(maxsize=4096)
def measures_in(text: str) -> frozenset[str]:
    """The metrics and line items a text names (remembered: a cached question is compared again and again)."""
    return frozenset({m.name.casefold() for m in find_metrics(text)} | set(items_named(text)))
