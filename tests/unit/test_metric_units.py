"""A row named like a metric but in another unit is not that metric stated: some companies call gross profit
'Gross margin' ('Gross margin 6,129.9 5,756.8' in millions), and 'Is its gross margin improving?' is then computed
from net sales and cost of sales (it had been left to a sentence about gross profit dollars). A rate stated as a
per cent is still taken as stated. Every figure here is made up."""

from __future__ import annotations

from app.calc_tools import Figure
from app.metric_plans import metric_plans

CO = "Harlow Foods"


def fig(label: str, value: float, unit: str, year: int) -> Figure:
    return Figure(label=label, value=value, unit=unit, company=CO, fiscal_year=year, source_id=f"HARLOW_{year}:p47")


STATEMENT = [fig("Net sales", 17_600.0, "$m", 2020), fig("Net sales", 16_900.0, "$m", 2019),
             fig("Cost of sales", 11_500.0, "$m", 2020), fig("Cost of sales", 11_100.0, "$m", 2019)]


def test_a_metric_named_row_in_money_is_no_stated_rate():
    figures = [fig("Gross margin", 6_100.0, "$m", 2020), fig("Gross margin", 5_800.0, "$m", 2019), *STATEMENT]
    plans = metric_plans(f"Is {CO}' gross margin improving in fiscal 2020?", figures)
    assert plans and {p.args["name"] for p in plans} == {"gross margin"}
    assert {p.args["year"] for p in plans} == {2019, 2020}


def test_a_rate_stated_as_a_per_cent_is_left_as_stated():
    figures = [fig("Gross margin", 34.8, "%", 2020), fig("Gross margin", 34.1, "%", 2019), *STATEMENT]
    assert not metric_plans(f"What was {CO}' gross margin in fiscal 2020?", figures)
