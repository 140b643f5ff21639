"""The supervisor's news step: the news items most relevant to the question, per company, newest first.

`news_fn(query, company, k) -> list[Evidence]` is injected (the app adapts KnowledgeBase.search with a
doc_type=news filter). Relevance picks the items; the date orders them, so a correction precedes what it
corrects and the assembler can label both.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

from collections.abc import Callable
from datetime import date
from typing import Any

from app.evidence import Evidence
from app.text.periods import is_year_token
from nodes.rewrite import keyword_query
from nodes.state import SupervisorState

NewsFn = Callable[[str, str | None, int], list[Evidence]]


def gather_news(state: SupervisorState, *, news_fn: NewsFn, limit: int = 5) -> dict[str, Any]:
    """Up to `limit` items per named company (or overall), undated items last, newest first."""
    companies: list[str | None] = list(state.get("companies") or []) or [None]
    # The question as asked (dense search reads meaning) and its content words (sparse search matches terms
    # that a question's phrasing drowns), as the retrieval subgraph does.
    # Years are left out of the keyword query: every news item is full of dates, so a year matches them all.
    keywords = " ".join(w for w in keyword_query(state["question"], [c for c in companies if c]).split()
                        if not is_year_token(w.strip(",.;:?!")))
    queries = list(dict.fromkeys(q for q in (state["question"], keywords) if q))
    items: dict[str, Evidence] = {}

    def keep(found: list[Any]) -> None:
        for item in found:
            item = Evidence.model_validate(item)
            if item.doc_type == "news":
                items.setdefault(item.chunk_id, item)

    windows = published_windows(state["question"])
    for company in companies:
        # a day or month the question names ('What did Copperleaf announce on 16 October 2024?'): the items
        # published then, which its words may not find
        for window in windows:
            keep(news_fn(state["question"], company, limit, published=window))
        for query in queries:
            keep(news_fn(query, company, limit))
    return {"news": newest_first(items.values())}


def published_windows(question: str) -> list[tuple[date, date]]:
    """The first and last day of each day or month the question dates its event by ('on 16 October 2024'; 'in
    June 2025' is 1 to 30 June); none for a year alone, which every item of that year would match, nor for a date
    that names a thing ('its July 2024 outage')."""
    import calendar

    from app.text.dates import when_it_happened

    out = []
    for year, month, day in when_it_happened(question):
        last = day or calendar.monthrange(year, month)[1]
        out.append((date(year, month, day or 1), date(year, month, last)))
    return out


def newest_first(items: Any) -> list[Evidence]:
    return sorted(items, key=lambda e: (e.published_at or date.min, e.score), reverse=True)
