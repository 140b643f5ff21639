"""'By what percentage did X change' asks the change in per cent, not the difference; a form's title-case label
reads as a noun mid-sentence, a name keeps its capitals."""

from __future__ import annotations

from app.calc_tools import Figure
from app.models.providers.offline.calculator import plan_tool_calls
from app.models.providers.offline.composer.analyst import _lower_first


def fig(value: float, year: int) -> Figure:
    return Figure(label="Net Earnings", value=value, unit="$m", company="Ternline", fiscal_year=year, period=f"Q4 {year}",
                  source_id="s", quote="Net Earnings")


def test_by_what_percentage_asks_the_percentage_change() -> None:
    figures = [fig(3520, 2024), fig(4736, 2023)]  # the later year first, as the facts step may order them
    asked = "By what percentage did Ternline's net earnings change in the fourth quarter of 2024 versus 2023?"
    assert plan_tool_calls(asked, figures) == [("percentage_change", {"old": 4736, "new": 3520})]
    # the change alone is still the difference, later less earlier
    plain = plan_tool_calls("How did Ternline's net earnings change in the fourth quarter of 2024 versus 2023?",
                            figures)
    assert plain and plain[0] == ("difference", {"a": 3520, "b": 4736})


def test_a_title_case_label_reads_as_a_noun_and_a_name_keeps_its_capitals() -> None:
    assert _lower_first("Net Earnings") == "net earnings"
    assert _lower_first("Total revenue") == "total revenue"
    assert _lower_first("Property, plant and equipment — net") == "property, plant and equipment — net"
    assert _lower_first("Harbour Point Resorts net revenues") == "Harbour Point Resorts net revenues"
    assert _lower_first("EBITDA") == "EBITDA"
