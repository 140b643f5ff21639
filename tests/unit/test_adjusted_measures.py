"""An adjusted measure the company defines ('organic growth', 'sales excluding the impact of FX') is never
computed from the unadjusted statement lines; a subgroup's statements (a deed of cross guarantee's closed group)
are never taken for the group's."""

from __future__ import annotations

import pytest

from app.calc_tools import Figure
from app.facts.query import names_parent_entity
from app.models.providers.offline.calculator import plan_tool_calls
from app.text.measures import names_adjusted


@pytest.mark.parametrize("text", [
    "How much was the Real change in Sales for AMCOR in FY 2023 vs FY 2022, if we exclude the impact of FX movement?",
    "What was 3M's organic sales growth in 2022?",
    "What was Pellbury's like-for-like sales growth?",
    "How did revenue change at constant currency?",
    "What was net sales growth excluding acquisitions?",
    "What was Adjusted EBITDA in FY2023?",
    "What was Ulta Beauty's comparable sales growth in fiscal 2023?",
    "How did same-store sales change in 2024?",
])
def test_adjusted_measures_are_named(text):
    assert names_adjusted(text)


@pytest.mark.parametrize("text", [
    "How did Amcor's net sales change between FY2022 and FY2023?",
    "What was the real estate segment's revenue?",
    "Did operating income increase in 2022?",
    "What was revenue excluding the parent's share?",
])
def test_plain_measures_are_not(text):
    assert not names_adjusted(text)


def fig(label: str, value: float, year: int) -> Figure:
    return Figure(label=label, value=value, unit="$m", company="Amcor", fiscal_year=year, source_id="s", quote=label)


def test_an_adjusted_change_is_not_computed_from_the_unadjusted_line():
    unadjusted = [fig("Net sales", 14544, 2022), fig("Net sales", 14694, 2023)]
    asked = "How did Amcor's net sales change from FY2022 to FY2023, if we exclude the impact of FX movements?"
    assert plan_tool_calls(asked, unadjusted) == []
    assert plan_tool_calls("How did Amcor's net sales change from FY2022 to FY2023?", unadjusted)


def test_an_adjusted_line_stated_in_two_years_is_computed():
    stated = [fig("Organic net sales", 100, 2022), fig("Organic net sales", 103, 2023)]
    assert plan_tool_calls("How did Amcor's organic net sales change from FY2022 to FY2023?", stated)


def test_a_closed_groups_statements_are_no_group_figures():
    assert names_parent_entity("Deed of Cross Guarantee\nConsolidated Statements of Income\n($ in millions)")
    assert names_parent_entity("The entities in the Closed Group are listed below.")
    assert not names_parent_entity("Consolidated Statements of Income\n($ in millions)\nNet sales $ 14,694")


_RELEASE = """Reported ∆%
Comparable
constant
currency ∆% Adjusted non-GAAP results 2023 $ million 2024 $ million
Net sales 9,410 9,655 3 2
EBITDA 1,302 1,371 5 4
Free Cash Flow 610 655"""
"""An earnings release's summary table as a PDF extractor gives it: the change columns' names come off the page
before the years, each year's column unit is written after it, and the title says every row is adjusted."""


def test_years_with_their_column_units_and_change_columns_named_first_are_read():
    from app.text.statements import read_statement

    statement = read_statement(_RELEASE)
    assert statement.periods[:2] == ["FY2023", "FY2024"] and (statement.currency, statement.scale) == ("$", "millions")
    ebitda = next(r for r in statement.rows if r.line_item == "EBITDA")
    assert ebitda.values[:2] == [1302.0, 1371.0] and ebitda.periods[2:] == ["% change", "% change"]
    assert ebitda.title == "Adjusted non-GAAP results"


def test_an_adjusted_measure_is_read_from_a_row_its_tables_title_qualifies():
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    text = _RELEASE
    blocks = [Block(n=1, kind="report", header="[1] Corvane Packaging FY2024, p.1 [text]", source_id="cv-1",
                    chunk_id="cv-1", company="Corvane Packaging", fiscal_year=2024, page=1,
                    text="EBITDA was affected by higher energy costs."),
              Block(n=2, kind="report", header="[2] Corvane Packaging FY2024, p.2 [text]", source_id="cv-2",
                    chunk_id="cv-2", company="Corvane Packaging", fiscal_year=2024, page=2, text=text)]
    state = {"question": "What Was Corvane's Adjusted Non GAAP EBITDA for FY 2024?", "companies": ["Corvane Packaging"],
             "fiscal_years": [2024], "blocks": blocks}
    answer = compose_offline(state)
    assert answer.startswith("Corvane Packaging's adjusted non-GAAP EBITDA was $1,371m in FY2024 [2]"), answer
    # the title qualifies its rows: it names no segment, so the company's figure is no segment's
    from app.facts.query import facts_for, read_query

    facts = facts_for(read_query("What was adjusted EBITDA in FY2024?", ["Corvane Packaging"], [2024]), blocks)
    assert {(f.figure.value, f.segment) for f in facts} >= {(1371.0, None)}


def test_comparable_sales_growth_is_not_computed_from_net_sales_nor_from_the_rates_themselves():
    asked = "What was Amcor's comparable sales growth in FY2023?"
    assert plan_tool_calls(asked, [fig("Net sales", 14544, 2022), fig("Net sales", 14694, 2023)]) == []
    rates = [fig("Comparable sales", 21.4, 2022).model_copy(update={"unit": "%"}),
             fig("Comparable sales", 15.6, 2023).model_copy(update={"unit": "%"})]
    assert plan_tool_calls(asked, rates) == []  # the rate is the growth: no growth of it is computed
    assert plan_tool_calls("What was Amcor's revenue growth in FY2023?",
                           [fig("Revenue", 100, 2022), fig("Revenue", 110, 2023)])
