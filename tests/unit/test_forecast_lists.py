"""A list of figures under a forecast's heading ('Other forecasts' / 'Orders received (Machine Tools) 155,000' /
'Capital expenditures 19,500') states targets for the year after the report's, never its results: a question
about the report's year does not get them, a question about the forecast does. Hollin Precision is a fictional
filer."""

from __future__ import annotations

from app.facts.query import facts_for, read_query
from app.turns import Block

CO = "Hollin Precision"
_PAGE = """Segment forecasts
Machine Tools: net sales 155,000; segment profit 18,600
Other forecasts
Orders received (Machine Tools) 155,000
Capital expenditures 19,500
Research and development expenses 9,000
Business environment and assumptions
We expect demand for machine tools to recover gradually."""


def _facts(question: str) -> list:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.24 [text]", source_id="HOLLIN_2025_AR:p24",
                  chunk_id="HOLLIN_2025_AR:p24::1", company=CO, fiscal_year=2025, page=24, text=_PAGE)
    return facts_for(read_query(question, [CO]), [block], [CO])


def test_figures_under_a_forecast_heading_are_next_years_targets() -> None:
    orders = [f for f in _facts(f"What were {CO}'s orders received in FY2025?") if f.figure.value == 155000]
    assert orders and all(f.forward and f.figure.fiscal_year == 2026 for f in orders)
