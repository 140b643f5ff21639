"""The guard of the semantic answer cache: two questions that read alike may still ask different things.

Embedding similarity puts "What was Northwind's revenue in FY2023?" next to "... in FY2024?", and "Did margins
rise?" next to "Did margins not rise?": the known failure of semantic caches is to serve one for the other. So a
cached answer is refused, whatever the similarity, when the two questions differ in the companies they name, the
fiscal years, the halves or quarters, the metric or line item, or negation. `cache_conflict` says which, or
None when nothing tells them apart.

Pure and deterministic. Not wired into the cache yet (issue 8): the semantic lookup will call it on every
candidate before a hit is served.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.metrics import find_metrics, items_named
from app.routing.companies import companies_named
from app.text.periods import HALF_OR_QUARTER, half_or_quarter, years_named

_NEGATION = re.compile(r"(?i)\b(?:not|no|never|neither|nor|without|n't|didn't|doesn't|wasn't|weren't|isn't|"
                       r"aren't|hasn't|haven't|fail(?:ed|s)? to)\b|n't\b")


def cache_conflict(asked: str, cached: str, known_companies: Sequence[str] = ()) -> str | None:
    """Why the cached question's answer cannot serve the one asked: 'company', 'fiscal year', 'period',
    'metric' or 'negation'; None when they agree on all of them."""
    if _companies(asked, known_companies) != _companies(cached, known_companies):
        return "company"
    if set(years_named(asked)) != set(years_named(cached)):
        return "fiscal year"
    if _periods(asked) != _periods(cached):
        return "period"
    if _measures(asked) != _measures(cached):
        return "metric"
    if bool(_NEGATION.search(asked)) != bool(_NEGATION.search(cached)):
        return "negation"
    return None


def _companies(text: str, known: Sequence[str]) -> set[str]:
    """The companies named, however cased: a cache compares questions, not how they were typed."""
    lowered = text.casefold()
    written = {c.casefold() for c in known if re.search(rf"(?<!\w){re.escape(c.casefold())}(?!\w)", lowered)}
    return written | {c.casefold() for c in companies_named(text, known)}


def _periods(text: str) -> set[str]:
    return {half_or_quarter(m) for pattern in HALF_OR_QUARTER for m in pattern.finditer(text)}


def _measures(text: str) -> set[str]:
    return {m.name.casefold() for m in find_metrics(text)} | set(items_named(text))
