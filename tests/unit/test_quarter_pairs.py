"""A change between two quarters pairs those quarters: 'the second quarter of 2023 compared with the second
quarter of 2022' is no change from the fourth quarter of 2022, whichever figure of 2022 the prompt gives first;
a question naming no part of the year pairs the years' own figures before any quarter's."""

from __future__ import annotations

from app.calc_tools import Figure
from app.models.providers.offline.calculator import plan_tool_calls, year_pairs
from app.text.periods import part_of_period, parts_agree

CO = "Harlow Pharma"


def eps(value: float, year: int, period: str | None) -> Figure:
    return Figure(label="EPS (diluted)", value=value, unit="$", company=CO, fiscal_year=year, period=period,
                  source_id=f"HARLOW_{year}:p1", quote=f"EPS (diluted) ${value}")


FIGURES = [eps(1.33, 2022, "Q4 2022"), eps(6.73, 2022, None), eps(1.96, 2023, "Q2 2023"), eps(1.80, 2022, "Q2 2022")]


def test_the_part_of_a_figures_period_and_which_parts_answer_a_question():
    assert [part_of_period(p) for p in ("Q4 2022", "6M 2024-12-31", "FY2023", None)] == ["Q4", "H", None, None]
    assert parts_agree("Q2", "Q2") and parts_agree(None, None) and parts_agree("H1", "H") and parts_agree("H", "H2")
    assert not parts_agree("Q2", "Q4") and not parts_agree("Q2", None) and not parts_agree(None, "Q2")


def test_two_quarters_named_are_the_two_paired():
    question = f"Did {CO}'s diluted EPS increase in the second quarter of 2023 compared with the second quarter of 2022?"
    [(tool, args)] = plan_tool_calls(question, FIGURES)
    assert tool == "growth_rate" and args == {"old": 1.80, "new": 1.96}


def test_a_quarter_named_with_no_such_figure_for_the_earlier_year_pairs_nothing():
    question = f"Did {CO}'s diluted EPS increase in the second quarter of 2023 compared with the second quarter of 2022?"
    assert plan_tool_calls(question, FIGURES[:3]) == []


def test_no_part_named_pairs_the_years_own_figures_first():
    annual = [eps(1.33, 2022, "Q4 2022"), eps(6.73, 2022, None), eps(7.20, 2023, None), eps(1.96, 2023, "Q4 2023")]
    [(old, new)] = year_pairs(annual, (2022, 2023))
    assert (old.value, new.value) == (6.73, 7.20)


def revenue(value: float, unit: str, year: int) -> Figure:
    return Figure(label="Total revenue", value=value, unit=unit, company=CO, fiscal_year=year,
                  source_id=f"HARLOW_{year}:p1")


def test_one_series_read_at_two_scales_is_one_pair():
    # the statement in thousands and a summary table whose scale was not read: one growth, not two
    figures = [revenue(5_854_430, "$k", 2016), revenue(7_301_505, "$k", 2017), revenue(5_854.4, "$", 2016),
               revenue(7_301.5, "$", 2017)]
    assert len(year_pairs(figures, (2016, 2017))) == 1
    # another series, or the same one in another currency, stays a pair of its own
    other = [*figures[:2], revenue(5_900.1, "$", 2016), revenue(7_301.5, "$", 2017)]
    assert len(year_pairs(other, (2016, 2017))) == 2
    euros = [*figures[:2], revenue(5_854.4, "€m", 2016), revenue(7_301.5, "€m", 2017)]
    assert len(year_pairs(euros, (2016, 2017))) == 2
