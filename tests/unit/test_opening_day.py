"""A sentence that opens with the day it speaks of dates its figures by that day, not by the year a later clause
looks ahead to: 'As of December 2, 2025, we had unbilled deferred revenue backlog of approximately $3.4 billion of
which approximately 40% to 50% is not reasonably expected to be billed during fiscal 2026' states fiscal 2025's
backlog. A retailer's year end early in the next calendar year stays its fiscal year's."""

from __future__ import annotations

from app.facts.prose import dated_figures


def _years(sentence: str, fiscal_year: int) -> dict[float, int | None]:
    return {fig.value: year for fig, year, _ in dated_figures(sentence, fiscal_year)}


def test_the_opening_day_dates_the_figures_not_the_year_looked_ahead_to() -> None:
    dated = _years("As of December 2, 2025, we had unbilled deferred revenue backlog of approximately $3.4 billion of "
                   "which approximately 40% to 50% is not reasonably expected to be billed during fiscal 2026.", 2025)
    assert dated[3.4] == 2025 and dated[40.0] == 2025


def test_a_year_earlier_still_counts_back_from_the_opening_day() -> None:
    dated = _years("As of 30 June 2025, we had 5,000 employees, up from 4,800 a year earlier.", 2025)
    assert dated == {5000.0: 2025, 4800.0: 2024}


def test_a_retailers_year_end_early_in_the_next_year_is_its_fiscal_year() -> None:
    assert _years("As of January 31, 2026, we operated 1,355 stores, with plans to open more in fiscal 2026.",
                  2025)[1355.0] == 2025
