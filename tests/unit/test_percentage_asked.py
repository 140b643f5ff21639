"""'By what percentage did X change' asks the change in per cent, not the difference; a form's title-case label
reads as a noun mid-sentence, a name keeps its capitals."""

from __future__ import annotations

from app.calc_tools import Figure
from app.models.providers.offline.calculator import plan_tool_calls
from app.models.providers.offline.composer.wording import measure_phrase


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
    assert measure_phrase("Net Earnings") == "net earnings"
    assert measure_phrase("Total revenue") == "total revenue"
    assert measure_phrase("Property, plant and equipment — net") == "property, plant and equipment — net"
    assert measure_phrase("Harbour Point Resorts net revenues") == "Harbour Point Resorts net revenues"
    assert measure_phrase("EBITDA") == "EBITDA"


def test_a_quarter_named_by_its_end_is_a_quarter_and_a_year_earlier_is_no_measure_word() -> None:
    from app.text.measures import measure_asked
    from app.text.periods import part_named

    asked = "By what percentage did Ternline's net sales change in the June 2024 quarter compared with the same " \
            "quarter a year earlier?"
    assert part_named(asked) == "Q"
    assert part_named("in the quarter ended December 31, 2024 (fiscal 2025 second quarter)") == "Q2"
    assert part_named("What were Ternline's net sales in fiscal 2024?") is None
    assert measure_asked(asked, ["Ternline"]).phrase == "net sales"
    # the facts step's pair, the earlier first: the change in per cent, not the difference
    old = Figure(label="Net sales", value=3909, unit="$m", company="Ternline", fiscal_year=2023,
                 period="3M 2023-06-30", source_id="s", quote="Net sales")
    new = old.model_copy(update={"value": 3673, "fiscal_year": 2024, "period": "3M 2024-06-30"})
    assert plan_tool_calls(asked, [old, new]) == [("percentage_change", {"old": 3909, "new": 3673})]


def test_a_claim_about_the_year_is_no_answer_about_a_quarter_of_it() -> None:
    from app.models.providers.offline.composer.analyst import Analyst
    from app.turns import Block

    block = Block(n=1, kind="report", header="[1] Ternline FY2024 p.33", text="x", source_id="t:p33",
                  chunk_id="t:p33::0", company="Ternline", fiscal_year=2024, page=33)
    state = {"blocks": [block], "companies": ["Ternline"], "fiscal_years": [2024]}
    claim = ["Net sales in 2024 were $27.4 billion, an increase of 1.4% from 2023 [1]."]
    quarter = Analyst(state, "What were Ternline's net sales in the fourth quarter of 2024?")
    assert quarter.on_topic(claim) == []
    year = Analyst(state, "What were Ternline's net sales in 2024?")
    assert year.on_topic(claim) == claim


def test_a_percentage_change_asked_of_an_amount_reads_the_amount() -> None:
    from app.facts.query import read_query

    # the change is asked in per cent; the measure is an amount, not a margin or a share
    asked = read_query("By what percentage did Ternline's Harbour Resorts Adjusted Property EBITDAR change in the "
                       "second quarter of 2024 from a year earlier?", ["Ternline"])
    assert asked.kind == "money"
    assert read_query("What percentage of Ternline's revenue came from Europe in 2024?", ["Ternline"]).kind == "percent"
    assert read_query("By what percentage did Ternline's operating margin change in 2024?", ["Ternline"]).kind == \
        "percent"
