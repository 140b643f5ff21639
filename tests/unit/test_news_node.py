"""The news node: both queries per company, news only, newest first."""

from __future__ import annotations

from datetime import date

from app.evidence import Evidence
from nodes.news import gather_news

NW = "Northwind Logistics"


def item(cid: str, day: date | None, doc_type: str = "news") -> Evidence:
    return Evidence(chunk_id=cid, source_id=cid, company=NW, doc_type=doc_type, published_at=day, text=cid)


def test_news_asks_with_the_question_and_its_yearless_keywords_and_sorts_newest_first() -> None:
    calls: list[tuple[str, str | None, int]] = []
    results = {0: [item("old", date(2024, 5, 20)), item("report", None, "report")],
               1: [item("new", date(2025, 1, 2)), item("old", date(2024, 5, 20)), item("undated", None)]}

    def news_fn(query: str, company: str | None, k: int) -> list[Evidence]:
        calls.append((query, company, k))
        return results[len(calls) - 1]

    out = gather_news({"question": "What did Northwind acquire in FY2024?", "companies": [NW]}, news_fn=news_fn,
                      limit=4)
    assert [c[0] for c in calls] == ["What did Northwind acquire in FY2024?", "acquire"]
    assert {c[1] for c in calls} == {NW} and {c[2] for c in calls} == {4}
    assert [e.chunk_id for e in out["news"]] == ["new", "old", "undated"]  # reports dropped, one per chunk


def test_a_day_or_month_the_question_names_also_fetches_the_items_published_then() -> None:
    from nodes.news import published_windows

    assert published_windows("What did Northwind announce on 16 October 2024?") == [
        (date(2024, 10, 16), date(2024, 10, 16))]
    assert published_windows("What happened in June 2025?") == [(date(2025, 6, 1), date(2025, 6, 30))]
    assert published_windows("What did it report in FY2024?") == []  # a year alone: every item of that year
    # a date that names a thing says when it happened, not when it was reported: the penalty came months later
    assert published_windows("What penalty did the regulator impose for its July 2024 network outage?") == []
    windows: list[tuple[date, date] | None] = []

    def news_fn(query: str, company: str | None, k: int, *, published: tuple[date, date] | None = None
                ) -> list[Evidence]:
        windows.append(published)
        return [item("that-day", date(2024, 10, 16))] if published else [item("other", date(2025, 1, 2))]

    out = gather_news({"question": "What did Northwind announce on 16 October 2024?", "companies": [NW]},
                      news_fn=news_fn, limit=4)
    assert windows[0] == (date(2024, 10, 16), date(2024, 10, 16))
    assert {e.chunk_id for e in out["news"]} == {"that-day", "other"}
