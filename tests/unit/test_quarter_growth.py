"""A growth computed from two quarters' columns dated by their last day ('3M 2023-01-28'): the answer names the
three months it is of, not the fiscal years the quarters fall in.

Every company and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.calc_tools import CalcResult, Figure
from app.models.providers.offline.composer.results import computation, lead_sentence


def _figure(value: float, period: str, year: int) -> Figure:
    return Figure(label="Operating income", value=value, unit="$k", company="Ternline", fiscal_year=year,
                  period=period, source_id="TERNLINE_2023Q4_EARNINGS:p6")


def test_a_quarters_growth_names_its_three_months() -> None:
    old, new = _figure(375622.0, "3M 2022-01-29", 2022), _figure(447618.0, "3M 2023-01-28", 2023)
    assert new.period_name == "the three months ended 28 January 2023"
    assert _figure(1.0, "Q2 2023", 2023).period_name == "Q2 2023"
    assert _figure(1.0, "FY2023", 2023).period_name == "FY2023"
    result = CalcResult(tool="growth_rate", inputs={"old": 375622.0, "new": 447618.0}, result=19.17, unit="%",
                        expression="(447618 - 375622) / 375622 * 100", sources={"old": old, "new": new})
    assert lead_sentence(result) == ("Ternline's operating income grew 19.17% from $375,622k in the three months "
                                     "ended 29 January 2022 to $447,618k in the three months ended 28 January 2023")
    assert "Operating income $447,618k in the three months ended 28 January 2023" in computation(result)


def test_a_metric_of_one_quarters_inputs_is_that_quarters() -> None:
    profit = Figure(label="Gross profit", value=573968.0, unit="$k", company="Ternline", fiscal_year=2023,
                    period="Q4 2023", source_id="TERNLINE_2023_10K:p63")
    revenue = Figure(label="Total revenues", value=1823333.0, unit="$k", company="Ternline", fiscal_year=2023,
                     period="Q4 2023", source_id="TERNLINE_2023_10K:p63")
    result = CalcResult(tool="metric", inputs={"gross_profit_2023": 573968.0, "revenue_2023": 1823333.0},
                        result=31.48, unit="%", expression="(573968 / 1823333) * 100",
                        sources={"gross_profit_2023": profit, "revenue_2023": revenue},
                        formula="gross margin = gross profit / revenue")
    assert lead_sentence(result).endswith("was 31.48% in Q4 2023"), lead_sentence(result)
