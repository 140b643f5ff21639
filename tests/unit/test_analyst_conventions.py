"""Judgements and measures asked in other words: a bank's liquidity judged by its liquidity coverage ratio
against the 100% minimum, deleveraging (net debt to EBITDA falling), earnings backed by cash (free cash flow
conversion, with its inputs stated); 'Judging by X, how solid was Y' asks a judgement; special items stripped
out and 'on an organic basis' ask the adjusted measure; 'turn X into Y' asks Y; an 'interest burden' is interest
expense and 'heavier' a rise; a limit named after its figure ('100% minimum'), a header-less row's later
columns and a result 'consistent with our plans' are no figures of the year; a table whose title, years, change
columns and unit PDF extraction ran into its first row is read with its header; a two-word segment name paired
with its initials passes the citation check; 'core' is kindred with 'adjusted', 'profit' with 'income'.

Every company, page and figure here is made up (Harrowgate Bank, a lender; Calloway Foods, a packaged-food
group; Quillon Payments, a payments firm; Ternline, a drinks group; Halvard, an industrial group; Brisco
Appliances, a maker of household machines).
"""

from __future__ import annotations

import app.facts.query as fact_query
import app.text.statements as statements
from app.calc_tools import CalcResult, CalculationOutcome, Figure
from app.facts.query import read_query, text_facts
from app.judgements import convention_for
from app.knowledge.analyzer import analyze
from app.metrics import metrics_asked
from app.models.providers.offline.composer import compose_offline
from app.routing.decision import RouteDecision
from app.text.measures import measure_asked, plain_measures
from app.text.periods import column_years, years_in, years_named
from app.text.question_kinds import read_ask
from app.text.statements import read_statement
from app.text.terms import kindred_in
from app.turns import Block
from nodes.generate import abbreviated_names, validate_citations

LCR_QUESTION = "Judging by the liquidity coverage ratio, how solid was Harrowgate Bank's liquidity in Q1 2021?"
CASH_QUESTION = "Judging by free cash flow, how well was Quillon Payments' 2017 net income backed by cash?"


def _block(company: str, year: int, text: str, page: int = 40) -> Block:
    return Block(n=1, kind="report", header=f"[1] {company} FY{year} p.{page}", text=text,
                 source_id=f"{company.upper()}_{year}_10K:p{page}",
                 chunk_id=f"{company.upper()}_{year}_10K:p{page}::a::1", company=company, fiscal_year=year, page=page)


# --- a table whose title, years, change columns and unit ran into its first row -------------------------------

WARRANTY = ("Warranty Reserve Year Ended December 31, Change 2023 2022 2021 2023 vs. 2022 2022 vs. 2021 (in "
            "thousands, except percentages) Provision for warranty claims $ 12,418 $ 47,305 $ 39,862 $ (34,887 ) "
            "(74 )% 7,443 19 % Claims rate 3 % 9 % 8 % Year ended December 31, 2023 compared to the year ended "
            "December 31, 2022 The provision fell as fewer washers were returned.")


def test_a_run_on_header_with_change_columns_dates_the_first_row_by_its_years_then_its_changes() -> None:
    statement = read_statement(WARRANTY)
    rows = {row.line_item: row for row in statement.rows}
    row = rows["Provision for warranty claims"]
    assert row.values[:3] == [12418.0, 47305.0, 39862.0]
    assert row.periods == ["FY2023", "FY2022", "FY2021", "change", "change", "change", "change"]
    assert row.scale == "thousands" and statement.scale == "thousands"
    assert rows["Claims rate"].periods == ["FY2023", "FY2022", "FY2021"]


# --- conventions a judgement is decided by ----------------------------------------------------------------------


def test_a_liquidity_coverage_ratio_judgement_is_regulatory_liquidity_against_the_100_percent_minimum() -> None:
    convention = convention_for(LCR_QUESTION)
    assert convention is not None
    assert (convention.topic, convention.rule, convention.threshold, convention.unit) == (
        "regulatory liquidity", "above", 100.0, "%")
    assert convention.holds(128.0) is True and convention.holds(96.0) is False


def test_deleveraging_is_net_debt_to_ebitda_falling_from_one_year_to_the_next() -> None:
    convention = convention_for("Is Calloway Foods deleveraging?")
    assert convention is not None
    assert (convention.topic, convention.rule) == ("deleveraging", "falling")
    assert convention.holds(3.2, 3.9) is True
    assert convention.holds(4.0, 3.9) is False
    assert convention.holds(3.9, 3.9) is None and convention.holds(3.2) is None


def test_earnings_backed_by_cash_is_judged_by_free_cash_flow_conversion() -> None:
    convention = convention_for(CASH_QUESTION)
    assert convention is not None
    assert convention.topic == "cash-backed earnings"
    assert convention.metrics == ("free cash flow conversion",)
    assert (convention.rule, convention.threshold, convention.unit) == ("above", 100.0, "%")


# --- judgements asked in other words -----------------------------------------------------------------------------


def test_how_well_earnings_were_backed_by_cash_is_a_judgement_but_how_well_a_company_did_is_not() -> None:
    ask = read_ask(CASH_QUESTION)
    assert (ask.kind, ask.topic) == ("judgement", "cash-backed earnings")
    assert read_ask("How well did Quillon Payments do in 2017?").kind != "judgement"


def test_judging_by_a_ratio_how_solid_liquidity_was_is_a_judgement() -> None:
    ask = read_ask(LCR_QUESTION)
    assert (ask.kind, ask.topic) == ("judgement", "regulatory liquidity")


def test_is_a_company_deleveraging_is_a_judgement() -> None:
    ask = read_ask("Is Calloway Foods deleveraging after the deal?")
    assert (ask.kind, ask.topic) == ("judgement", "deleveraging")


def test_a_cash_backing_question_asks_free_cash_flow_conversion_not_free_cash_flow() -> None:
    metrics, topic = metrics_asked(CASH_QUESTION)
    assert [m.name for m in metrics] == ["free cash flow conversion"]
    assert topic == "cash backing"


# --- measures asked in other words -------------------------------------------------------------------------------


def test_stripping_out_special_items_asks_the_adjusted_measure_of_the_segment() -> None:
    asked = measure_asked("Stripping out special items, what pre-tax profit did Halvard's MedTech segment make in "
                          "Q4 2022?", ["Halvard"])
    assert (asked.phrase, asked.segment) == ("adjusted pre-tax profit", "MedTech")


def test_looking_through_one_offs_asks_the_adjusted_measure() -> None:
    asked = measure_asked("Looking through one-offs, did Ternline Beverages grow its operating profit in 2023?",
                          ["Ternline"])
    assert asked.phrase == "adjusted operating profit"


def test_growth_on_an_organic_basis_asks_organic_revenue() -> None:
    question = "Which Ternline division grew revenue fastest on an organic basis in Q1 2023?"
    assert read_query(question, ["Ternline"]).measure.phrase == "organic revenue"
    assert read_ask(question).kind == "extreme"


def test_turning_revenue_growth_into_profit_asks_the_profit_only() -> None:
    question = "Did Halvard's Commercial Services segment turn its 2022 revenue growth into higher pretax profit?"
    asked = measure_asked(question, ["Halvard"])
    assert (asked.phrase, asked.segment) == ("pretax profit", "Commercial Services")
    assert "revenue" not in read_query(question, ["Halvard"]).items


def test_a_heavier_interest_burden_asks_the_change_in_interest_expense() -> None:
    question = "How much heavier was Quillon Payments' interest burden in 2017 than the year before?"
    assert measure_asked(question, ["Quillon Payments"]).phrase == "interest expense"
    assert read_ask(question).kind == "change"


# --- figures that are no measurement of the year -----------------------------------------------------------------

LEVERAGE_QUESTION = "What was Calloway Foods' net debt-to-adjusted EBITDA ratio in fiscal 2020?"


def test_a_header_less_rows_later_column_is_no_figure_of_the_year() -> None:
    query = read_query(LEVERAGE_QUESTION, ["Calloway Foods"])
    doc = _block("Calloway Foods", 2020, "Net debt-to-adjusted EBITDA ratio 3.2 3.9 Note: Table may not foot due "
                                         "to rounding.")
    assert {f.figure.value: f.figure.fiscal_year for f in text_facts(query, doc)} == {3.2: 2020}


def test_later_bare_column_tells_a_later_column_from_the_first() -> None:
    later = getattr(fact_query, "_later_bare_column", None)
    assert callable(later), "app.facts.query._later_bare_column is missing"
    row = "Net debt-to-adjusted EBITDA ratio 3.2 3.9 Note: Table may not foot due to rounding."
    assert later(row, 3.9) is True
    assert later(row, 3.2) is False
    assert later("Net debt-to-adjusted EBITDA ratio was 3.2 in 2020 and 3.9 in 2019.", 3.9) is False


LCR_SENTENCE = ("At March 31, 2021, Harrowgate Bank's liquidity coverage ratio was 128%, in excess of its "
                "stand-alone 100% minimum LCR requirement.")


def test_a_limit_named_after_its_figure_is_no_measurement() -> None:
    query = read_query(LCR_QUESTION, ["Harrowgate Bank"])
    facts = {f.figure.value: f.forward for f in text_facts(query, _block("Harrowgate Bank", 2021, LCR_SENTENCE))}
    assert facts == {128.0: False, 100.0: True}


def test_bound_after_reads_the_minimum_after_a_figure_as_its_limit() -> None:
    bound_after = getattr(fact_query, "_bound_after", None)
    assert callable(bound_after), "app.facts.query._bound_after is missing"
    assert bound_after(LCR_SENTENCE, 100.0) is True
    assert bound_after(LCR_SENTENCE, 128.0) is False


PLAN_SENTENCE = ("Our net debt-to-adjusted EBITDA ratio declined to 3.2 at the end of the year, consistent with our "
                 "plans to reduce our leverage.")


def test_a_result_consistent_with_plans_is_the_years_own_not_a_forecast() -> None:
    query = read_query(LEVERAGE_QUESTION, ["Calloway Foods"])
    facts = text_facts(query, _block("Calloway Foods", 2020, PLAN_SENTENCE))
    assert [(f.figure.value, f.figure.fiscal_year, f.forward) for f in facts] == [(3.2, 2020, False)]


def test_measured_against_plan_takes_out_consistent_with_our_plans_to() -> None:
    from app.facts.prose import measured_against_plan

    left = measured_against_plan(PLAN_SENTENCE)
    assert "plans to" not in left and "consistent with" not in left
    assert "declined to 3.2" in left


# --- the citation check and kindred words ------------------------------------------------------------------------


def test_a_two_word_segment_name_paired_with_its_initials_is_an_abbreviated_name() -> None:
    names = abbreviated_names("No. Halvard's Commercial Services (CS) segment pretax profit fell 4% in 2022.",
                              "CS SELECTED INCOME STATEMENT DATA Pretax segment income")
    assert {"Commercial", "Services"} <= names


def test_core_is_kindred_with_adjusted_and_income_with_profit() -> None:
    (adjust,), (profit,) = analyze("adjusted"), analyze("profit")
    assert kindred_in(adjust, frozenset(analyze("Core operating income")))
    assert kindred_in(profit, frozenset(analyze("Pretax segment income")))
    assert kindred_in(profit, frozenset(analyze("net earnings")))
    assert not kindred_in(profit, frozenset(analyze("net revenue")))


# --- a judgement from the calculator -----------------------------------------------------------------------------


def test_a_judgement_decided_by_one_computed_metric_states_its_inputs() -> None:
    co = "Quillon Payments"
    text = ("Cash flow statement ($m)\n| Item | FY2017 |\n|---|---|\n| Net income | 412 |\n"
            "| Net cash provided by operating activities | 655 |\n| Purchases of property and equipment | (118) |")
    report = Block(n=1, kind="report", header="[1] Quillon Payments FY2017, p.52 [table]", source_id="qln-17",
                   chunk_id="qln-cf", company=co, fiscal_year=2017, page=52, text=text)

    def fig(label: str, value: float) -> Figure:
        return Figure(label=label, value=value, unit="$m", company=co, fiscal_year=2017, source_id="qln-17",
                      chunk_id="qln-cf")

    inputs = {"cfo_2017": fig("Net cash provided by operating activities", 655),
              "capex_2017": fig("Purchases of property and equipment", -118), "net_income_2017": fig("Net income", 412)}
    conversion = CalcResult(tool="metric", inputs={k: f.value for k, f in inputs.items()}, result=130.34, unit="%",
                            expression="(655 - 118) / 412 * 100", sources=dict(inputs),
                            formula="free cash flow conversion = (cash from operations - capex) / net income")
    calc = Block(n=2, kind="calculation", header="[2] calculation (ok)", source_id="calculation",
                 text="metric: (655 - 118) / 412 * 100 = 130.34%")
    state = {"question": CASH_QUESTION, "companies": [co], "fiscal_years": [2017], "blocks": [report, calc],
             "decision": RouteDecision(needs_retrieval=True, needs_calculation=True),
             "calculation": CalculationOutcome(status="ok", results=[conversion])}
    draft = compose_offline(state)
    assert draft.startswith("Well. Quillon Payments' free cash flow conversion was 130.34% in FY2017 [2][1]."), draft
    assert ("It is computed from net cash provided by operating activities of $655m, purchases of property and "
            "equipment of -$118m and net income of $412m, all in FY2017 [2][1].") in draft, draft
    checked = validate_citations({**state, "draft": draft})
    assert checked["status"] == "answered" and "It is computed from" in checked["draft"]


# --- a measure by division reconciled from its reported to its core figure ---------------------------------------
# (Ardmoor Foods, a snacks group; Northwind Bank & Co., a lender; Dunmore Health, a maker of safety goods; Cobblestone
# Pay, a payments app; Pellworth Brands, a consumer group; Tessaly Packaging, a packaging group; Vellmar Industrie, an
# engineering group; Fernhollow Bank, a lender: all made up, as are their figures)

RECONCILIATION_HEADER = ("12 Weeks Ended 3/25/2023\nItems Affecting Comparability\nOperating Profit\nReported,\n"
                         "GAAP Measure\nRestructuring charges\nCore,\nNon-GAAP\nMeasure(a)\n")
RECONCILIATION_ROWS = ("North Division $ 1,599 $ — $ 7 $ 1,606\nSouth Division 842 12 3 857\n"
                       "Corporate unallocated (215) — 9 (206)\n")


def _reconciled(text: str) -> dict[tuple[str, str], tuple[list[float], list[str]]]:
    return {(row.line_item, row.columns[0]): (row.values, row.periods) for row in read_statement(text).rows
            if row.columns and row.line_item in ("Reported operating profit", "Core operating profit")}


def test_a_reconciliation_by_division_reads_each_divisions_reported_and_core_operating_profit() -> None:
    rows = _reconciled("Operating Profit by Division\n" + RECONCILIATION_HEADER + RECONCILIATION_ROWS)
    assert rows[("Reported operating profit", "North Division")] == ([1599.0], ["3M 2023-03-25"])
    assert rows[("Core operating profit", "North Division")] == ([1606.0], ["3M 2023-03-25"])
    assert rows[("Reported operating profit", "South Division")] == ([842.0], ["3M 2023-03-25"])
    assert rows[("Core operating profit", "South Division")] == ([857.0], ["3M 2023-03-25"])
    assert rows[("Core operating profit", "Corporate unallocated")] == ([-206.0], ["3M 2023-03-25"])


def test_a_reconciliation_without_its_title_takes_the_measure_from_the_line_over_the_reported_column() -> None:
    rows = _reconciled(RECONCILIATION_HEADER + RECONCILIATION_ROWS)
    assert rows[("Reported operating profit", "North Division")] == ([1599.0], ["3M 2023-03-25"])
    assert rows[("Core operating profit", "South Division")] == ([857.0], ["3M 2023-03-25"])


def test_reconciled_rows_gives_one_row_a_value_with_the_division_as_its_column() -> None:
    reconciled_rows = getattr(statements, "reconciled_rows", None)
    assert callable(reconciled_rows), "app.text.statements.reconciled_rows is missing"
    rows = reconciled_rows("Operating Profit by Division\n" + RECONCILIATION_HEADER + RECONCILIATION_ROWS)
    assert [(r.line_item, r.values, r.columns) for r in rows[:2]] == [
        ("Reported operating profit", [1599.0], ["North Division"]),
        ("Core operating profit", [1606.0], ["North Division"])]
    assert {tuple(r.periods) for r in rows} == {("3M 2023-03-25",)}
    assert reconciled_rows("Operating profit 1,599 1,606\nNorth Division 842 857 900") == []


# --- a header of dates with a heading run on after them ------------------------------------------------------------


def test_a_header_of_dates_with_the_banks_name_run_on_dates_the_rows_under_it() -> None:
    text = ("Average amount (in millions) March 31, 2021 December 31, 2020 March 31, 2020 Northwind Bank & Co.\n"
            "LCR 110 % 110 % 114 %\n")
    rows = {row.line_item: row for row in read_statement(text).rows}
    assert rows["LCR"].values == [110.0, 110.0, 114.0]
    assert rows["LCR"].periods == ["2021-03-31", "2020-12-31", "2020-03-31"]
    assert "Average amount" not in (rows["LCR"].columns or [])


# --- years: a first quarter of the calendar year before, and 'going into 2023' --------------------------------------


def test_a_january_to_march_day_of_the_year_before_is_not_moved_into_the_filings_fiscal_year() -> None:
    assert column_years(["3M 2022-03-19"], 2023) == [(2022, "Q")]
    assert column_years(["6M 2024-12-31", "6M 2023-12-31"], 2025) == [(2025, "H"), (2024, "H")]


def test_going_into_a_year_names_the_end_of_the_year_before() -> None:
    question = "Is Fernhollow Bank comfortably above its capital minimums going into 2023?"
    assert years_named(question) == [2022]
    assert years_in(question, {2022, 2023}) == [2022]


# --- change wordings ----------------------------------------------------------------------------------------------


def test_how_much_sales_shrank_asks_a_change() -> None:
    assert read_ask("How much did Dunmore Health's Personal Safety sales shrink in 2022?").kind == "change"


def test_did_a_margin_come_down_asks_a_fall() -> None:
    ask = read_ask("Did Dunmore Health's operating margin come down in 2022?")
    assert (ask.kind, ask.direction) == ("yes_no_change", -1)


# --- parts asked in other words -----------------------------------------------------------------------------------

PET_QUESTION = "How profitable was Pellworth Brands' pet food business in fiscal 2020?"


def test_how_profitable_a_business_was_asks_its_operating_profit_not_the_companys_margin() -> None:
    assert read_ask(PET_QUESTION).kind == "figure"
    assert measure_asked(PET_QUESTION, ["Pellworth Brands"]).phrase.endswith("operating profit")
    metrics, _ = metrics_asked(PET_QUESTION)
    assert metrics == []


def test_how_reliant_revenue_growth_was_on_a_product_asks_its_share_of_revenue() -> None:
    assert (plain_measures("How reliant was Cobblestone Pay's revenue growth in 2020 on bitcoin?")
            == "What share of Cobblestone Pay's revenue in 2020 came from bitcoin?")


def test_a_share_of_the_increase_is_told_from_a_share_of_the_level() -> None:
    share_of_change = getattr(fact_query, "_share_of_change", None)
    assert callable(share_of_change), "app.facts.query._share_of_change is missing"
    sentence = "bitcoin contributed 48% of the total revenue in 2020, and 85% of the increase in revenues"
    assert share_of_change(sentence, 85.0) is True
    assert share_of_change(sentence, 48.0) is False


def test_a_results_release_named_as_the_source_is_no_word_of_the_measure() -> None:
    asked = measure_asked("What non-GAAP metrics does Tessaly Packaging report in its fourth-quarter fiscal 2023 "
                          "results release?", ["Tessaly Packaging"])
    assert asked.phrase == "non-GAAP metrics"


# --- an outlook range stated in the year's report -----------------------------------------------------------------

OUTLOOK_RANGE = ("Adjusted free cash flow of approximately $850 million to $950 million, representing solid growth "
                 "over fiscal 2023.")


def test_in_range_reads_both_ends_of_a_range_of_amounts() -> None:
    in_range = getattr(fact_query, "_in_range", None)
    assert callable(in_range), "app.facts.query._in_range is missing"
    for sentence in (OUTLOOK_RANGE, "Adjusted free cash flow of $850-950 million is expected."):
        assert in_range(sentence, 850.0) is True and in_range(sentence, 950.0) is True, sentence


def test_in_range_leaves_out_a_changes_ends_a_growths_result_and_two_years_figures() -> None:
    in_range = getattr(fact_query, "_in_range", None)
    assert callable(in_range), "app.facts.query._in_range is missing"
    rose = "Revenue rose from $1.2 billion to $1.5 billion."
    assert in_range(rose, 1.2) is False and in_range(rose, 1.5) is False
    assert in_range("Sales grew 5% to $3.2 billion.", 3.2) is False
    compared = "Adjusted free cash flow was $848 million and compares with $1,066 million last year."
    assert in_range(compared, 848.0) is False and in_range(compared, 1066.0) is False


def test_an_outlook_range_in_the_years_report_is_the_next_years_figure() -> None:
    co = "Tessaly Packaging"
    query = read_query("What adjusted free cash flow did Tessaly Packaging expect for fiscal 2024?", [co])
    facts = fact_query.facts_for(query, [_block(co, 2023, OUTLOOK_RANGE)], [co])
    assert {(f.figure.value, f.figure.fiscal_year, f.forward) for f in facts} == {(850.0, 2024, True),
                                                                               (950.0, 2024, True)}


def test_a_table_row_holding_a_range_is_dated_by_its_header_not_moved_to_the_next_year() -> None:
    in_range = getattr(fact_query, "_in_range", None)
    assert callable(in_range), "app.facts.query._in_range is missing"
    row = "Revenue €2,437.8 million €2.45 billion to €2.60 billion"
    assert in_range(row, 2.45) is True  # a range it is, but no sentence states it as an outlook
    query = read_query("What was Vellmar Industrie's revenue in 2023?", ["Vellmar Industrie"])
    facts = text_facts(query, _block("Vellmar Industrie", 2023, row))
    assert {(f.figure.value, f.figure.fiscal_year, f.forward) for f in facts} == {
        (2437.8, 2023, False), (2.45, 2023, False), (2.6, 2023, False)}


# --- a count asked is never read from a statement's line item of money ---------------------------------------

def test_a_count_of_plants_is_never_the_property_plant_and_equipment_row() -> None:
    co = "Tessaly Packaging"
    text = ("Consolidated Balance Sheet\n(in millions)\n2023 2022\nInventories 2,199 2,400\n"
            "Property, plant, and equipment, net 3,762 3,646\nTotal assets 16,696 17,426")
    query = read_query("How many plants does Tessaly Packaging operate?", [co])
    facts = fact_query.facts_for(query, [_block(co, 2023, text)], [co])
    assert query.kind == "count"
    assert not [f for f in facts if "equipment" in f.figure.label.lower()]
