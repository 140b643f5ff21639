"""'How large was its unbilled backlog at the end of fiscal 2025, and how much of it was not expected to be billed
in fiscal 2026?': the first part names the measure and its year; the second part's year and its 'expected' are the
second part's. A figure followed by what is expected of a part of it ('$3.4 billion of which approximately 40% to
50% is not reasonably expected to be billed during fiscal 2026') is a level held, no forecast. Quillon Software is a
fictional filer."""

from __future__ import annotations

from app.facts.query import read_query
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

CO = "Quillon Software"
QUESTION = (f"How large was {CO}'s unbilled deferred revenue backlog at the end of fiscal 2025, and how much of it "
            "was not expected to be billed in fiscal 2026?")
_PAGE = ("Our presentation of unbilled deferred revenue backlog may differ from that of other companies. As of "
         "December 2, 2025, we had unbilled deferred revenue backlog of approximately $3.4 billion of which "
         "approximately 40% to 50% is not reasonably expected to be billed during fiscal 2026. Comparatively, we had "
         "unbilled deferred revenue backlog of approximately $2.9 billion as of November 27, 2024.")


def test_the_first_part_dates_the_measure_and_asks_no_forecast() -> None:
    query = read_query(QUESTION, [CO], [2025, 2026])
    assert query.years == (2025,) and not query.ahead and query.measure.phrase == "unbilled deferred revenue backlog"


def test_the_backlog_held_at_the_year_end_leads() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.45 [text]", source_id="QUILLON_2025_10K:p45",
                  chunk_id="QUILLON_2025_10K:p45::0", company=CO, fiscal_year=2025, page=45, text=_PAGE)
    answer = compose_offline({"question": QUESTION, "companies": [CO], "fiscal_years": [2025, 2026],
                              "blocks": [block]})
    first = answer.split(". ")[0]
    assert "$3.4bn" in first and "FY2025" in first and "forecast" not in first, answer
