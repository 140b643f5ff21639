"""The metric catalogue (app/metrics.py): textbook values from constructed figures, alias lookup, the question's
own definitions, averaged inputs, missing inputs, rounding and judgements. Companies and figures are fictional."""

from __future__ import annotations

import pytest

from app.calc_tools import CalcError, Figure, metric
from app.metrics import (
    CATALOGUE,
    METRICS,
    averaged_years,
    day_basis,
    defines_a_part,
    find_metric,
    find_metrics,
    items_named,
    judgement,
    label_match,
    metric_inputs,
    parse_formula,
    question_definition,
    rounding_decimals,
)

CO = "Quillon Works"


def fig(label: str, value: float, year: int = 2024, unit: str = "$m", company: str = CO) -> Figure:
    return Figure(label=label, value=value, unit=unit, company=company, fiscal_year=year,
                  source_id=f"quillon-fy{year}", chunk_id=f"q{year}-{label[:8]}", quote=f"{label} | {value}")


FIGURES = [
    fig("Total net sales", 2000), fig("Total net sales", 1800, 2023),
    fig("Cost of revenue", 1200), fig("Gross profit", 800),
    fig("Income from operations", 300), fig("Net income", 200), fig("Depreciation and amortization", 100),
    fig("Provision for income taxes", 50), fig("Income before income taxes", 250),
    fig("Other current assets", 55), fig("Total current assets", 900), fig("Total current liabilities", 600),
    fig("Cash and cash equivalents", 150), fig("Short-term investments", 90),
    fig("Accounts receivable, net", 240), fig("Accounts receivable, net", 160, 2023),
    fig("Total debt", 500), fig("Total shareholders' equity", 1000), fig("Total shareholders' equity", 900, 2023),
    fig("Accounts payable", 130), fig("Accounts payable", 110, 2023),
    fig("Inventories", 330), fig("Inventories", 270, 2023),
    fig("Property, plant and equipment, net", 420), fig("Property, plant and equipment, net", 380, 2023),
    fig("Total assets", 2600), fig("Total assets", 2400, 2023),
    fig("Net cash provided by operating activities", 450), fig("Purchases of property, plant and equipment", -160),
    fig("Dividends paid", -80), fig("Interest expense", 25),
    fig("Operating margin of a rival", 9.9, unit="%", company="Someone Else"),
]

TEXTBOOK = {  # metric -> (value, unit): worked by hand from FIGURES for FY2024
    "gross margin": (40.0, "%"),                       # 800 / 2000
    "operating margin": (15.0, "%"),                   # 300 / 2000
    "net margin": (10.0, "%"),                         # 200 / 2000
    "EBITDA margin": (20.0, "%"),                      # (300 + 100) / 2000
    "EBITDA": (400.0, ""),                             # 300 + 100
    "EBITDA less capex": (240.0, ""),                  # 300 + 100 - 160 (capex reported as -160)
    "effective tax rate": (20.0, "%"),                 # 50 / 250
    "current ratio": (1.5, "x"),                       # 900 / 600
    "quick ratio": (0.8, "x"),                         # (150 + 90 + 240) / 600
    "cash ratio": (0.4, "x"),                          # (150 + 90) / 600
    "working capital": (300.0, ""),                    # 900 - 600
    "debt-to-equity ratio": (0.5, "x"),                # 500 / 1000
    "days payable outstanding": (36.5, "days"),        # 365 * (110 + 130) / 2 / 1200
    "days sales outstanding": (36.5, "days"),          # 365 * (160 + 240) / 2 / 2000
    "days inventory outstanding": (91.25, "days"),     # 365 * (270 + 330) / 2 / 1200
    "inventory turnover": (4.0, "x"),                  # 1200 / 300
    "fixed asset turnover": (5.0, "x"),                # 2000 / ((380 + 420) / 2)
    "asset turnover": (0.8, "x"),                      # 2000 / 2500
    "capex as a share of revenue": (8.0, "%"),         # 160 / 2000 (capex reported as -160)
    "free cash flow": (290.0, ""),                     # 450 - 160
    "operating cash flow ratio": (0.75, "x"),          # 450 / 600
    "dividend payout ratio": (40.0, "%"),              # 80 / 200
    "return on assets": (8.0, "%"),                    # 200 / 2500
    "return on equity": (21.05, "%"),                  # 200 / 950
    "interest coverage ratio": (12.0, "x"),            # 300 / 25
    "year-over-year change": (11.11, "%"),             # (2000 - 1800) / 1800
}


def compute(name: str, figures=FIGURES, **kw):
    chosen = metric_inputs(METRICS[name.lower()], figures, company=CO, year=2024, measure="Total net sales")
    assert not chosen.missing, chosen.missing
    return chosen, metric(name, chosen.values, year=2024, **kw)


def test_the_textbook_table_covers_the_whole_catalogue():
    assert {m.name for m in CATALOGUE} == set(TEXTBOOK)
    assert len(CATALOGUE) >= 24


@pytest.mark.parametrize(("name", "expected"), TEXTBOOK.items(), ids=list(TEXTBOOK))
def test_every_catalogue_metric_computes_its_textbook_value(name, expected):
    chosen, result = compute(name)
    assert (result.result, result.unit) == expected
    assert result.tool == "metric" and result.formula.startswith(f"{name} = ")
    assert set(result.inputs) == set(chosen.values)


def test_inputs_are_chosen_by_synonym_company_and_period():
    chosen, result = compute("quick ratio")
    assert {k: f.label for k, f in chosen.sources.items()} == {
        "cash_2024": "Cash and cash equivalents", "short_term_investments_2024": "Short-term investments",
        "receivables_2024": "Accounts receivable, net", "current_liabilities_2024": "Total current liabilities"}
    assert result.expression == "((150 + 90 + 240) / 600)" or result.expression == "(150 + 90 + 240) / 600"
    # 'Other current assets' is not current assets, and another company's figure is never used.
    assert compute("current ratio")[0].sources["current_assets_2024"].label == "Total current assets"


def test_averaged_inputs_read_both_period_ends():
    chosen, result = compute("fixed asset turnover")
    assert chosen.values == {"revenue_2024": 2000, "ppe_2023": 380, "ppe_2024": 420}
    assert chosen.sources["ppe_2023"].fiscal_year == 2023
    assert result.expression == "2000 / ((380 + 420) / 2)"
    assert "average PP&E" in result.formula
    [_, ppe] = METRICS["fixed asset turnover"].inputs
    assert ppe.averaged and ppe.item is not None and "property, plant and equipment, net" in ppe.item.synonyms


def test_without_the_earlier_year_the_stated_ending_balance_formula_is_used():
    ending_only = [f for f in FIGURES if f.fiscal_year == 2024]
    chosen, result = compute("fixed asset turnover", ending_only)
    assert result.result == round(2000 / 420, 4)
    assert result.formula.startswith("fixed asset turnover = revenue / PP&E ")


def test_gross_margin_falls_back_to_revenue_less_cogs_when_gross_profit_is_not_reported():
    chosen, result = compute("gross margin", [f for f in FIGURES if f.label != "Gross profit"])
    assert result.result == 40.0 and "(revenue - COGS) / revenue" in result.formula
    assert chosen.sources["cogs_2024"].label == "Cost of revenue"


def test_costs_and_liabilities_shown_in_brackets_are_used_by_size():
    """A UK balance sheet prints 'Total current liabilities (373.5)' and an income statement 'Cost of sales
    (866.1)': a current ratio or a gross margin reads them as amounts, not as negative numbers."""
    uk = [fig("Total current assets", 364.8, unit="£m"), fig("Total current liabilities", -373.5, unit="£m"),
          fig("Revenue", 1486.2, unit="£m"), fig("Cost of sales", -872.4, unit="£m")]
    assert compute("current ratio", uk)[1].result == round(364.8 / 373.5, 4)
    assert compute("gross margin", uk)[1].result == round((1486.2 - 872.4) / 1486.2 * 100, 2)

def test_a_missing_input_gives_no_result_and_names_the_input():
    without_liabilities = [f for f in FIGURES if f.label != "Total current liabilities"]
    chosen = metric_inputs(METRICS["quick ratio"], without_liabilities, company=CO, year=2024)
    assert "current_liabilities_2024" in chosen.missing
    with pytest.raises(CalcError, match="current liabilities FY2024") as error:
        metric("quick ratio", chosen.values, year=2024)
    assert error.value.code == "missing_input"


def test_without_short_term_investments_the_quick_ratio_takes_its_other_form():
    without_sti = [f for f in FIGURES if f.label != "Short-term investments"]
    chosen = metric_inputs(METRICS["quick ratio"], without_sti, company=CO, year=2024)
    assert chosen.missing == [] and metric("quick ratio", chosen.values, year=2024).result == round((900 - 330) / 600, 4)


def test_an_average_without_a_year_is_missing_the_year_not_guessed():
    with pytest.raises(CalcError, match="fiscal year") as error:
        metric("turnover", {"cogs": 1200, "inventory": 300}, definition="COGS / average inventory")
    assert error.value.code == "missing_input"
    # The catalogue's stated ending-balance formula applies to undated figures, and says so.
    assert metric("inventory turnover", {"cogs": 1200, "inventory": 300}).formula.startswith(
        "inventory turnover = COGS / inventory ")


def test_unknown_metric_is_a_typed_error():
    with pytest.raises(CalcError) as error:
        metric("magic ratio", {"revenue_2024": 1.0}, year=2024)
    assert error.value.code == "unknown_metric"


# --- aliases ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("question", "name"), [
    ("What was the DPO in FY2022?", "days payable outstanding"),
    ("what were days payable outstanding?", "days payable outstanding"),
    ("Compute CAPEX AS A % OF REVENUE for 2021", "capex as a share of revenue"),
    ("What is the fixed asset turnover ratio?", "fixed asset turnover"),
    ("What is its operating cash flow ratio?", "operating cash flow ratio"),
    ("Gross margin in FY2023?", "gross margin"),
    ("What is the gross profit margin?", "gross margin"),
    ("Total asset turnover for FY2020?", "asset turnover"),
])
def test_aliases_are_matched_case_insensitively_and_the_longest_wins(question, name):
    assert find_metric(question).name == name


@pytest.mark.parametrize("question", [
    "What was the margin in FY2024?", "Who are the company's heroes?", "What is the DPOs backlog?",
    "How did cash flow change?", "what is the net marginal cost?",
])
def test_aliases_need_whole_words(question):
    assert find_metric(question) is None


def test_find_metrics_lists_each_named_metric_once_in_order():
    names = [m.name for m in find_metrics("Compare the quick ratio with the current ratio and the cash ratio")]
    assert names == ["quick ratio", "current ratio", "cash ratio"]
    assert [m.name for m in find_metrics("operating cash flow ratio")] == ["operating cash flow ratio"]


# --- definitions in the question --------------------------------------------------------------------------------


def test_a_question_definition_is_parsed_with_its_own_periods():
    q = ("What is the FY2019 fixed asset turnover ratio for Quillon? Fixed asset turnover ratio is defined as: "
         "FY2019 revenue / (average PP&E between FY2018 and FY2019). Round your answer to two decimal places.")
    defined = question_definition(q)
    assert defined is not None and defined.origin == "question" and defined.unit == "x"
    assert defined.formulas[0].input_keys(None) == ["revenue_2019", "ppe_2018", "ppe_2019"]


def test_dpo_definition_with_a_change_in_inventory():
    q = ("What is the FY2024 DPO? DPO is defined as 365 * (average accounts payable between FY2023 and FY2024) / "
         "(FY2024 COGS + change in inventory between FY2023 and FY2024).")
    defined = question_definition(q)
    chosen = metric_inputs(defined, FIGURES, company=CO)
    assert not chosen.missing
    result = metric("DPO", chosen.values, definition=defined.formula)
    # 365 * 120 / (1200 + 60), not the catalogue's 365 * 120 / 1200 = 36.5
    assert result.result == round(365 * 120 / 1260, 2) and result.unit == "days"
    assert result.expression == "365 * (((110 + 130) / 2)) / (1200 + (330 - 270))"


def test_the_question_definition_wins_over_the_catalogue():
    q = ("What is Quillon's FY2024 operating cash flow ratio? Operating cash flow ratio is defined as: "
         "cash from operations / total assets.")
    defined = question_definition(q)
    chosen = metric_inputs(defined, FIGURES, company=CO, year=2024)
    result = metric(defined.name, chosen.values, year=2024, definition=defined.formula)
    assert result.result == round(450 / 2600, 4)  # the catalogue's would be 450 / 600 = 0.75
    assert "cash from operations / total assets" in result.formula


@pytest.mark.parametrize("question", ["What is the gross margin?", "Net margin is defined as: whatever you like."])
def test_no_definition_or_not_arithmetic_is_none(question):
    assert question_definition(question) is None


def test_formulas_read_word_operators_and_keep_hyphenated_names():
    formula = parse_formula("cash plus short-term investments divided by current liabilities")
    assert [t.item for t in formula.terms] == ["cash", "short_term_investments", "current_liabilities"]
    assert formula.template == "{0} + {1} / {2}"
    with pytest.raises(ValueError):
        parse_formula("revenue / / assets")


# --- rounding, day basis, judgements ----------------------------------------------------------------------------


@pytest.mark.parametrize(("question", "dp"), [
    ("Round your answer to two decimal places.", 2),
    ("Answer in units of percents and round to one decimal place.", 1),
    ("round to the nearest whole number", 0),
    ("Give it to 3 decimal places", 3),
    ("What is the quick ratio?", None),
])
def test_rounding_instructions(question, dp):
    assert rounding_decimals(question) == dp


def test_decimals_follow_the_instruction_else_the_default():
    assert compute("return on equity", decimals=1)[1].result == 21.1
    assert compute("return on equity")[1].result == 21.05
    assert compute("fixed asset turnover", decimals=0)[1].result == 5.0
    assert compute("days inventory outstanding", decimals=0)[1].result == 91.0


def test_day_basis_is_read_from_the_question():
    assert day_basis("DSO using a 360-day year") == 360
    assert day_basis("What is DSO?") is None
    assert METRICS["days sales outstanding"].day_basis == 365


def test_judgements_map_to_the_metrics_that_decide_them():
    topic, metrics = judgement("Is Quillon a capital-intensive business based on FY2024 data?")
    assert topic == "capital intensity"
    assert [m.name for m in metrics] == ["capex as a share of revenue", "fixed asset turnover"]
    topic, metrics = judgement("Does the company have a healthy liquidity profile based on its quick ratio?")
    assert (topic, [m.name for m in metrics]) == ("liquidity", ["quick ratio"])
    assert judgement("What was revenue in FY2024?") is None


def test_a_judgement_note_names_the_metric_and_its_value():
    _, result = compute("quick ratio", judgement="liquidity")
    assert result.note == "The liquidity judgement rests on quick ratio = 0.8x."


def test_a_label_that_joins_a_name_to_another_item_is_not_that_item() -> None:
    from app.metrics import label_match

    assert label_match("Sales and marketing", "revenue") is None
    assert label_match("Total net revenues", "revenue") == 0
    assert label_match("Net sales to external customers", "revenue") == 1


@pytest.mark.parametrize(("question", "items"), [
    ("How much did Quillon generate in cash flow from operating activities in FY2020?", ["cfo"]),
    ("What is Quillon's year end FY2017 total current liabilities?", ["current_liabilities"]),
    ("What is the year end FY2018 net PPNE for Quillon?", ["ppe"]),
    ("What is the YoY change in unadjusted operating income from FY2015 to FY2016?", ["operating_income"]),
    ("What is the FY2019 - FY2020 total revenue growth rate?", ["revenue"]),
    ("What were sales and marketing expenses in FY2024?", []),  # 'sales' there is no revenue line
    ("What is the cash position?", []),  # one word names an item only when it is the item's own short name
    ("What was Quillon's revenue per available room in 2017?", []),  # a ratio of its own
])
def test_the_line_items_a_question_names(question, items):
    assert items_named(question) == items


@pytest.mark.parametrize(("question", "years", "expected"), [
    ("What is the FY2017 - FY2019 3 year average of capex as a % of revenue?", [2017, 2019], [2017, 2018, 2019]),
    ("What is the three-year average capex to revenue in FY2024?", [2024], [2022, 2023, 2024]),
    ("What was the average PP&E between FY2018 and FY2019?", [2018, 2019], []),  # an input's average, not a metric's
    ("What is capex as a % of revenue in FY2024?", [2024], []),
])
def test_the_years_a_metric_is_averaged_over(question, years, expected):
    assert averaged_years(question, years) == expected


def test_define_x_as_gives_the_questions_own_metric_and_its_unit():
    question = ("What is Quillon's FY2020 working capital ratio? Define working capital ratio as total current "
                "assets divided by total current liabilities. Round your answer to two decimal places.")
    defined = question_definition(question)
    assert defined is not None and defined.name == "working capital ratio"
    assert defined.unit == "x"  # a ratio, though the catalogue's 'working capital' is money
    assert [t.item for t in defined.formulas[0].terms] == ["current_assets", "current_liabilities"]
    fcf = question_definition("What is Quillon's FY2020 FCF? FCF here is defined as: (cash from operations - capex).")
    assert fcf is not None and fcf.unit == "money" and fcf.formulas[0].template == "({0} - {1})"


def test_one_line_item_as_a_percent_of_another_is_the_questions_own_ratio_in_percent():
    defined = question_definition("Did Quillon's net earnings as a percent of sales increase in Q2 of FY2023?")
    assert defined is not None and defined.unit == "%" and defined.origin == "question"
    assert [t.item for t in defined.formulas[0].terms] == ["net_income", "revenue"]
    cost = question_definition("What was Quillon's cost of sales as a % of net sales in 2023?")
    assert cost is not None and [t.item for t in cost.formulas[0].terms] == ["cogs", "revenue"]
    # a catalogue metric in those words is the catalogue's; words that name no line item define nothing
    assert question_definition("What was Quillon's capex as a percentage of revenue in FY2022?") is None
    assert question_definition("What share of Quillon's retail sales was made online in 2024?") is None


def test_an_earnings_release_labels_answer_to_their_line_items():
    assert label_match("Net Earnings/(Loss)", "net_income") == 0
    assert label_match("Reported Sales", "revenue") == 1
    assert label_match("Reported Sales", "net_income") is None


def test_a_named_quarter_takes_that_quarters_figures_never_another_quarter_or_the_year():
    def quarter(label: str, value: float, period: str | None) -> Figure:
        return Figure(label=label, value=value, unit="$m", company=CO, fiscal_year=2022, source_id="q",
                      period=period)

    figures = [quarter("Net earnings", 3520, "Q4 2022"), quarter("Net earnings", 17941, "FY2022"),
               quarter("Net earnings", 4814, "Q2 2022"), quarter("Sales to customers", 94943, "FY2022"),
               quarter("Reported Sales", 24020, "Q2 2022")]
    ratio = question_definition("What were Quillon's net earnings as a percent of sales in Q2 2022?")
    chosen = metric_inputs(ratio, figures, company=CO, year=2022, part="Q2")
    assert chosen.values == {"net_income_2022": 4814, "revenue_2022": 24020}
    year = metric_inputs(ratio, figures, company=CO, year=2022)
    assert year.values == {"net_income_2022": 17941, "revenue_2022": 94943}


def test_a_definition_of_a_part_leaves_the_named_metric_asked():
    question = ("What is the FY2022 unadjusted EBITDA less capex for Quillon? Define unadjusted EBITDA as unadjusted "
                "operating income + depreciation and amortization [from cash flow statement].")
    defined = question_definition(question)
    assert defined is not None and [t.item for t in defined.formulas[0].terms] == ["operating_income", "d_and_a"]
    named = find_metrics(question)
    assert named[0].name == "EBITDA less capex" and defines_a_part(defined, named[0])
    own = question_definition("What is the FY2022 EBITDA? Define EBITDA as operating income + D&A.")
    assert own is not None and not any(defines_a_part(own, m) for m in find_metrics("EBITDA"))


def test_a_percent_margin_is_the_margin():
    assert [m.name for m in find_metrics("What is the FY2015 unadjusted EBITDA % margin?")] == ["EBITDA margin"]


@pytest.mark.parametrize(("label", "item", "expected"), [
    ("Purchases of land, buildings, and equipment", "capex", 1),  # wordings no list holds: the item's pattern
    ("Payments for property and equipment", "capex", 0),
    ("Proceeds from sale of property", "capex", None),
    ("Depreciation, amortization and accretion", "d_and_a", 1),
    ("Net cash provided by (used in) operating activities", "cfo", 0),
    ("Cash provided by operations", "cfo", 1),
    ("Net cash used in investing activities", "cfo", None),
])
def test_statement_wordings_answer_to_their_line_item(label, item, expected):
    assert label_match(label, item) == expected


def test_the_statements_own_line_wins_over_a_notes_shorter_one():
    figures = [fig("Current liabilities", 1365.6), fig("Total current liabilities", 7491.5)]
    chosen = metric_inputs(METRICS["current ratio"], [fig("Total current assets", 5121.3), *figures],
                           company=CO, year=2024)
    assert chosen.values == {"current_assets_2024": 5121.3, "current_liabilities_2024": 7491.5}


def test_a_word_broken_by_the_page_still_names_its_line_item():
    assert label_match("Depreciation and amort ization of property, equipment and intangibles", "d_and_a") == 1
    assert label_match("Purchases of prop erty and equipment", "capex") == 1


def test_a_core_or_a_segments_margin_does_not_stop_the_calculator_computing_the_one_asked():
    from app.metric_plans import reported

    question = "What was Quillon Works' operating margin in FY2024?"
    core = Figure(label="core operating margin", value=10.7, unit="%", company=CO, fiscal_year=2024, source_id="s")
    segment = core.model_copy(update={"label": "operating margin", "segment": "Tools"})
    stated = core.model_copy(update={"label": "Operating margin", "value": 11.3})
    earlier = stated.model_copy(update={"fiscal_year": 2023})
    margin = METRICS["operating margin"]
    assert not reported(margin, [core, segment, earlier], question)
    assert reported(margin, [core, stated], question)


def test_a_named_leverage_ratio_is_no_leverage_judgement():
    from app.metrics import metrics_asked

    assert metrics_asked("What was General Mills' tier 1 leverage ratio in fiscal 2020?") == ([], "")
    metrics, topic = metrics_asked("Is Ferncliff highly leveraged?")
    assert topic == "leverage" and [m.name for m in metrics] == ["debt-to-equity ratio", "interest coverage ratio"]


def test_how_many_times_one_figure_covered_another_is_the_questions_own_ratio() -> None:
    from app.metrics import question_definition

    metric = question_definition("How many times did Tamarack's Adjusted EBITDA cover its finance costs in 2024?")
    assert metric is not None and metric.origin == "question" and metric.unit == "x"
    assert [t.item for t in metric.formulas[0].terms] == ["adjusted_ebitda", "interest_expense"]
    assert question_definition("How many times did the share price go up in 2024?") is None


def test_a_cost_per_unit_is_money_not_a_count_of_the_units() -> None:
    from app.facts.prose import measure_kind
    from app.knowledge.analyzer import analyze

    question = "Did Wattlegrove's iron ore C1 costs per tonne go up in FY2024?"
    assert measure_kind(analyze("iron ore C1 costs per tonne"), question) == "money"
    assert measure_kind(analyze("tonnes iron ore"), "How many tonnes of iron ore did it ship?") == "count"


def test_a_measure_the_company_defines_is_not_computed_from_the_catalogue() -> None:
    from app.metrics import find_metrics

    for asked in ("What was Ternline's Adjusted Non GAAP EBITDA for FY2024?", "What was its underlying EBITDA margin?",
                  "What was the core operating margin in FY2024?"):
        assert find_metrics(asked) == []  # stated by the company, never the unadjusted formula's figure
    assert [m.name for m in find_metrics("What was the EBITDA margin of its core business in FY2024?")] == [
        "EBITDA margin"]


def test_net_cash_flows_from_operating_activities_is_cash_from_operations():
    assert label_match("Net cash flows from operating activities", "cfo") == 1
    assert label_match("Net cash flows from investing activities", "cfo") is None


def test_a_growth_judgement_rests_on_revenue_growth_computed_from_two_years():
    topic, metrics = judgement("Are Quillon's FY2022 financials that of a high growth company?")
    assert topic == "growth" and [m.name for m in metrics] == ["year-over-year revenue growth"]
    figures = [fig("Sales to customers", 94943, 2022).model_copy(update={"period": "FY2022"}),
               fig("Sales to customers", 93775, 2021).model_copy(update={"period": "FY2021"}),
               Figure(label="Sales", value=13.4, unit="$bn", company=CO, fiscal_year=2022, source_id="s")]
    chosen = metric_inputs(metrics[0], figures, company=CO, year=2022)
    # the statement's rows, never a sentence's 'U.S. sales were $13.4 billion'
    assert chosen.values == {"revenue_2022": 94943, "revenue_2021": 93775}
    assert metric("year-over-year revenue growth", chosen.values, year=2022).rounded(1) == 1.2


def test_research_and_development_and_sga_are_line_items_a_question_names_by_their_initials() -> None:
    from app.metrics import items_named, label_match

    assert items_named("By how much did its R&D spending change in 2024?") == ["rnd"]
    assert items_named("What were SG&A expenses in 2024?") == ["sga"]
    assert label_match("Research, development and related expenses", "rnd") is not None
    assert label_match("Research and development", "rnd") == 0
    assert label_match("Selling, general and administrative expenses", "sga") == 0
    assert label_match("Selling and marketing", "sga") is None and label_match("Cost of sales", "rnd") is None


def test_the_questions_own_name_for_an_input_picks_its_row() -> None:
    """'SG&A as a percentage of net sales' divides by the 'Net sales' row, not 'Total revenue' (net sales plus
    membership fees), which is the revenue row a question that names neither gets."""
    from app.metrics import pick_figure
    from app.metric_plans import metric_plans

    rows = [Figure(label=label, value=value, unit="$m", company="Larchmont", fiscal_year=2024, period="FY2024",
                   source_id="lm-p5")
            for label, value in (("Net sales", 192052.0), ("Membership fees", 3877.0), ("Total revenue", 195929.0),
                                 ("Selling, general and administrative", 18461.0))]
    assert pick_figure(rows, "revenue", 2024, "Larchmont").label == "Total revenue"
    assert pick_figure(rows, "revenue", 2024, "Larchmont", said="What were its net sales?").label == "Net sales"
    plans = metric_plans("What were Larchmont's SG&A expenses as a percentage of net sales in FY2024?", rows)
    assert plans and plans[0].args["inputs"] == {"sga_2024": 18461.0, "revenue_2024": 192052.0}, plans


def test_diluted_earnings_per_share_is_the_line_however_the_statement_words_it() -> None:
    from app.metrics import items_named, label_match

    assert items_named("What were Larchmont's diluted earnings per share in FY2024?") == ["diluted_eps"]
    assert label_match("Diluted net income per common share", "diluted_eps") == 0
    assert label_match("Net income per common share diluted", "diluted_eps") == 1  # (the pattern)
    assert label_match("Net earnings (loss) per share - diluted", "diluted_eps") == 1
    assert label_match("Basic net income per common share", "diluted_eps") is None
