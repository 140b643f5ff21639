"""Held-out misses, read generally: a bank's regulatory capital ratios read from its capital table (the dated and
minimum columns layout, and the stacked 'Effective Minimum' layout) and judged against the minimums that table sets,
a CET1 ratio asked as a figure being the ratio held, never the requirement; the bare per cents of a capital table
accepted by the citation check; a table header's day holding for each of its years; 'the quarter to December 2022'
naming the report that ends that month (its part of the year and its fiscal year); a year things fall due in being
no period asked; 'turning earnings into cash' and 'cash generation keeping pace with earnings' asking the
cash-backing judgement, whose stated conversion rate is read before a computed one, and a judgement asked as a
degree ('How good was it …') leading with the degree; 'X as a percentage of net sales' as X's margin; a one-word
label being no name of a two-word measure in the calculator; a product that one company's tables give a row of its
own naming that company; 'in the black / in the red on a contribution basis' asking the sign of the result.

Every company, page and figure here is made up (Harrowgate Bancorp and its Harrowgate Bank N.A., a lender;
Calloway Foods, a packaged-food group; Calloway Streaming, a streaming service; Quillon Payments, a payments firm;
Tessaly Packaging, a packaging group; Ternline and Osprey, drinks groups; Velmora and Crispin Bars, brands).
"""

from __future__ import annotations

from app.calc_tools import CalcResult, CalculationOutcome, Figure
from app.facts.query import label_match, read_query
from app.judgements import convention_for
from app.metrics import CASH_BACKING
from app.models.providers.offline.calculator import names_the_measure
from app.models.providers.offline.composer import compose_offline
from app.routing.decision import RouteDecision, RoutePlan
from app.text.dates import unsupported_dates
from app.text.periods import part_named, years_in, years_named
from app.text.question_kinds import read_ask
from app.turns import Block
from nodes.generate import validate_citations
from nodes.routing import years_of_period_ends
from nodes.verify import unsupported_terms

BANK = "Harrowgate Bancorp"

# --- regulatory capital: the columns layout -----------------------------------------------------------------------

COLUMNS = ("Basel III Standardized Basel III Advanced\n"
           "(in millions, except ratios) March 31,\n2021(c) December 31,\n2020(c) Minimum\ncapital ratios(d) "
           "March 31,\n2021(c) December 31,\n2020(c) Minimum\ncapital ratios(d)\n"
           "Risk-based capital metrics:\n"
           "CET1 capital $ 206,078 $ 205,078 $ 206,078 $ 205,078\n"
           "CET1 capital ratio 13.1 % 13.1 % 11.3 % 13.7 % 13.8 % 10.5 %\n"
           "Tier 1 capital ratio 15.0 15.0 12.8 15.8 15.8 12.0\n"
           "Total capital ratio 16.9 17.3 14.8 17.4 17.8 14.0\n")


def _by_measure(text: str) -> dict[str, object]:
    from app.facts.capital import capital_ratios

    return {(r.measure, r.entity): r for r in capital_ratios(text)}


def test_the_columns_layout_reads_the_first_dated_column_as_held_and_the_groups_minimum_column() -> None:
    ratios = _by_measure(COLUMNS)
    cet1 = ratios[("CET1", None)]
    assert (cet1.held, cet1.minimum, cet1.day) == (13.1, 11.3, "2021-03-31")
    tier1 = ratios[("Tier 1", None)]
    assert (tier1.held, tier1.minimum, tier1.day) == (15.0, 12.8, "2021-03-31")
    total = ratios[("Total capital", None)]
    assert (total.held, total.minimum) == (16.9, 14.8)


def test_the_columns_layout_never_reads_a_money_row_as_a_ratio() -> None:
    ratios = _by_measure(COLUMNS)
    assert set(ratios) == {("CET1", None), ("Tier 1", None), ("Total capital", None)}
    assert all(r.held < 100 and r.minimum < 100 for r in ratios.values())
    assert 206078.0 not in {r.held for r in ratios.values()} | {r.minimum for r in ratios.values()}


# --- regulatory capital: the stacked layout -----------------------------------------------------------------------

STACKED = ("Effective Minimum\nRatios as of December\n31, 2022\n"
           "Common Equity Tier 1 7.0 %\nHarrowgate Bancorp 10.3 %\nHarrowgate Bank N.A. 11.3\n"
           "Tier 1 8.5\nHarrowgate Bancorp 11.1\nHarrowgate Bank N.A. 11.3\n"
           "Total 10.5\nHarrowgate Bancorp 12.9\nHarrowgate Bank N.A. 13.0\n"
           "Tier 1 Leverage 4.0 %\nHarrowgate Bancorp 9.6 %\nHarrowgate Bank N.A. 10.1\n")


def test_the_stacked_layout_takes_the_minimum_from_the_measures_line_and_the_held_ratio_per_entity() -> None:
    ratios = _by_measure(STACKED)
    bancorp, bank = ratios[("CET1", BANK)], ratios[("CET1", "Harrowgate Bank N.A.")]
    assert (bancorp.held, bancorp.minimum, bancorp.day) == (10.3, 7.0, "2022-12-31")
    assert (bank.held, bank.minimum) == (11.3, 7.0)
    assert (ratios[("Tier 1", BANK)].held, ratios[("Tier 1", BANK)].minimum) == (11.1, 8.5)
    assert (ratios[("Total capital", BANK)].held, ratios[("Total capital", BANK)].minimum) == (12.9, 10.5)
    assert (ratios[("Tier 1 leverage", BANK)].held, ratios[("Tier 1 leverage", BANK)].minimum) == (9.6, 4.0)
    assert ratios[("Tier 1 leverage", "Harrowgate Bank N.A.")].held == 10.1


def test_a_text_that_names_no_minimum_holds_no_capital_ratios() -> None:
    from app.facts.capital import capital_ratios

    text = ("(in millions, except ratios) March 31, 2021 December 31, 2020\n"
            "CET1 capital ratio 13.1 % 13.1 %\nTier 1 capital ratio 15.0 15.0\n")
    assert capital_ratios(text) == []
    assert capital_ratios(COLUMNS) != []  # the same rows under a minimum column are read


def test_measure_named_reads_the_capital_ratio_a_question_names() -> None:
    from app.facts.capital import measure_named

    assert measure_named("What was its CET1 capital ratio at March 31, 2021?") == "CET1"
    assert measure_named("What was Harrowgate Bancorp's Tier 1 leverage ratio in 2022?") == "Tier 1 leverage"
    assert measure_named("What was Harrowgate Bancorp's net interest income in 2022?") is None


# --- regulatory capital, end to end through the offline composer ---------------------------------------------------

JUDGED = "Is Harrowgate Bancorp comfortably above its regulatory capital minimums going into 2023?"


def _capital_state(question: str, text: str = STACKED) -> dict:
    block = Block(n=1, kind="report", header=f"[1] {BANK} FY2022 p.71", text=text,
                  source_id="HARROWGATE_2022_10K:p71", chunk_id="HARROWGATE_2022_10K:p71::a::1", company=BANK,
                  fiscal_year=2022, page=71)
    return {"question": question, "companies": [BANK], "fiscal_years": [2022], "blocks": [block],
            "decision": RouteDecision(needs_retrieval=True)}


def test_a_bank_above_every_minimum_its_capital_table_sets_is_judged_yes_with_the_ratio_and_its_minimum() -> None:
    draft = compose_offline(_capital_state(JUDGED))
    assert draft.startswith("Yes."), draft
    assert "10.3%" in draft and "7.0%" in draft, draft
    assert "ratio was 7.0%" not in draft and "was 7.0%" not in draft, draft


def test_the_capital_judgement_passes_the_citation_check_with_the_tables_bare_per_cents() -> None:
    state = _capital_state(JUDGED)
    draft = compose_offline(state)
    assert "11.1%" in draft, draft  # printed bare ('Harrowgate Bancorp 11.1') in the table
    checked = validate_citations({**state, "draft": draft})
    assert checked["status"] == "answered"
    assert "11.1%" in checked["draft"] and "10.3%" in checked["draft"], checked["draft"]


def test_a_capital_tables_bare_ratios_are_per_cents_to_the_citation_check() -> None:
    claim = "Its Tier 1 ratio was 11.1% (minimum 8.5%) and Total capital ratio 12.9% (minimum 10.5%)."
    assert unsupported_terms(claim, STACKED) == []
    assert unsupported_terms("Its Tier 1 ratio was 11.7% (minimum 8.5%).", STACKED) == ["11.7%"]


def test_a_ratio_below_its_minimum_makes_the_capital_judgement_no() -> None:
    short = STACKED.replace("Harrowgate Bancorp 9.6 %", "Harrowgate Bancorp 3.6 %")
    draft = compose_offline(_capital_state(JUDGED, short))
    assert draft.startswith("No."), draft
    assert "3.6%" in draft and "4.0%" in draft, draft


def test_a_cet1_ratio_asked_as_a_figure_is_the_ratio_held_never_the_requirement() -> None:
    draft = compose_offline(_capital_state(
        "What was Harrowgate Bancorp's Common Equity Tier 1 ratio at the end of 2022?"))
    assert "10.3%" in draft, draft
    assert "7.0%" not in draft or draft.index("10.3%") < draft.index("7.0%"), draft
    assert "ratio was 7.0%" not in draft, draft


# --- a table header's day holds for each of its years ---------------------------------------------------------------

QUARTER_HEADER = "Three Months Ended December 31,\n2022 2021\nNet sales $ 1,204 $ 1,118\n"


def test_a_header_day_supports_that_day_in_each_of_the_headers_years() -> None:
    assert unsupported_dates("Net sales were $1,118 million in the quarter to 31 December 2021.", QUARTER_HEADER) == []
    assert unsupported_dates("Net sales were $1,204 million in the quarter to 31 December 2022.", QUARTER_HEADER) == []


def test_a_header_day_supports_no_year_or_day_it_does_not_state() -> None:
    assert unsupported_dates("Net sales were $1,010 million at 31 December 2020.", QUARTER_HEADER) == [
        "31 December 2020"]
    assert unsupported_dates("Net sales were $1,118 million at 30 September 2021.", QUARTER_HEADER) == [
        "30 September 2021"]


# --- a period named by the month it ends in -----------------------------------------------------------------------


def test_period_end_months_reads_a_period_named_by_its_ending_month() -> None:
    from app.text.dates import period_end_months

    assert period_end_months("the quarter to December 2022") == [(2022, 12)]
    assert period_end_months("the December 2022 quarter") == [(2022, 12)]
    assert period_end_months("the half-year ended June 2024") == [(2024, 6)]


def test_a_month_named_without_a_period_is_no_period_end() -> None:
    from app.text.dates import period_end_months

    assert period_end_months("in December 2022") == []


def test_the_quarter_to_a_month_is_a_quarter_but_quarter_to_date_is_none() -> None:
    assert part_named("the quarter to December 2022") == "Q"
    assert part_named("Did Calloway Foods' sales grow in the quarter through March 2023?") == "Q"
    assert part_named("What were Calloway Foods' sales quarter to date?") is None


def test_the_quarter_to_december_of_a_june_year_end_is_the_next_fiscal_year() -> None:
    ends = {"2022-12-31": 2023, "2023-06-30": 2023}
    question = "Did Calloway Foods' Asia Pacific sales grow in the quarter to December 2022?"
    assert years_of_period_ends(question, ["Calloway Foods"], [2022], lambda company: ends) == [2023]


# --- a year things fall due in is no period asked -------------------------------------------------------------------


def test_a_year_bonds_fall_due_in_is_no_year_asked() -> None:
    question = "Which of Calloway Foods' bonds fall due in 2025?"
    assert years_named(question) == []
    assert years_in(question, {2023, 2024, 2025}) == []


def test_a_maturity_year_is_dropped_but_the_fiscal_year_beside_it_kept() -> None:
    question = "Which of Calloway Foods' notes due 2027 were outstanding in fiscal 2022?"
    assert years_named(question) == [2022]
    assert years_in(question, {2022, 2027}) == [2022]


def test_without_maturities_takes_out_only_the_years_things_fall_due_in() -> None:
    from app.text.periods import without_maturities

    left = without_maturities("notes due 2027 in fiscal 2022")
    assert "2027" not in left and "fiscal 2022" in left


# --- a product one company's tables give a row of its own names that company ------------------------------------------

REFUSE = RouteDecision(is_out_of_scope=True, plan=RoutePlan(source="none"))
OWNERS = {"Velmora": ["Calloway Foods"], "Crispin Bars": ["Calloway Foods", "Calloway Foods"],
          "Zest": ["Calloway Foods", "Ternline"], "Osprey Tonic": ["Ternline"], "Nowhere Cola": []}


def _owners(name: str) -> list[str]:
    return OWNERS[name]


def test_names_one_company_owns_as_table_rows_ask_of_that_company() -> None:
    from nodes.routing import about_a_member

    decision, companies, absent = about_a_member(REFUSE, ["Velmora", "Crispin Bars"], _owners)
    assert companies == ["Calloway Foods"] and absent == []
    assert decision.is_out_of_scope is False and decision.needs_retrieval is True
    assert decision.signals["member_of"] == {"Velmora": "Calloway Foods", "Crispin Bars": "Calloway Foods"}


def test_a_name_two_companies_tables_give_stays_absent() -> None:
    from nodes.routing import about_a_member

    decision, companies, absent = about_a_member(REFUSE, ["Zest"], _owners)
    assert (companies, absent) == ([], ["Zest"])
    assert decision.is_out_of_scope is True and decision.needs_retrieval is False


def test_names_of_two_different_owners_stay_absent() -> None:
    from nodes.routing import about_a_member

    decision, companies, absent = about_a_member(REFUSE, ["Velmora", "Osprey Tonic"], _owners)
    assert (companies, absent) == ([], ["Velmora", "Osprey Tonic"])
    assert decision.is_out_of_scope is True


def test_a_name_no_tables_give_stays_absent() -> None:
    from nodes.routing import about_a_member

    decision, companies, absent = about_a_member(REFUSE, ["Nowhere Cola"], _owners)
    assert (companies, absent) == ([], ["Nowhere Cola"])
    decision, companies, absent = about_a_member(REFUSE, ["Velmora", "Nowhere Cola"], _owners)
    assert (companies, absent) == ([], ["Velmora", "Nowhere Cola"])
    assert decision.is_out_of_scope is True


# --- turning earnings into cash: the cash-backing judgement -----------------------------------------------------------

TURNING = "How good was Calloway Foods at turning earnings into cash in fiscal 2020?"
KEEPING_PACE = "Did Calloway Foods' cash generation keep pace with its earnings in 2022?"


def test_turning_earnings_into_cash_asks_the_cash_backing_judgement() -> None:
    assert CASH_BACKING.search(TURNING)
    ask = read_ask(TURNING)
    assert (ask.kind, ask.topic) == ("judgement", "cash-backed earnings")
    convention = convention_for(TURNING)
    assert convention is not None and convention.topic == "cash-backed earnings"


def test_cash_generation_keeping_pace_with_earnings_asks_the_cash_backing_judgement() -> None:
    assert CASH_BACKING.search(KEEPING_PACE)
    ask = read_ask(KEEPING_PACE)
    assert (ask.kind, ask.topic) == ("judgement", "cash-backed earnings")
    convention = convention_for(KEEPING_PACE)
    assert convention is not None and convention.topic == "cash-backed earnings"


def test_degree_asked_reads_the_degree_a_judgement_is_asked_in() -> None:
    from app.text.question_kinds import degree_asked

    assert degree_asked(TURNING) == "good"
    assert degree_asked("How well was Quillon Payments' 2017 net income backed by cash?") == "well"
    assert degree_asked("Judging by the liquidity coverage ratio, how solid was Harrowgate Bancorp's liquidity in "
                        "Q1 2021?") == "solid"
    assert degree_asked("Is its liquidity healthy?") == ""


QUILLON = "Quillon Payments"
CASH_INTO = "How good was Quillon Payments at turning earnings into cash in 2017?"
CASH_FLOWS = ("Cash flow statement ($m)\n| Item | FY2017 |\n|---|---|\n| Net income | 412 |\n"
              "| Net cash provided by operating activities | 655 |\n| Purchases of property and equipment | (118) |")


def _conversion_state(question: str, rate: float, report_text: str = CASH_FLOWS) -> dict:
    report = Block(n=1, kind="report", header="[1] Quillon Payments FY2017, p.52 [table]", source_id="qln-17",
                   chunk_id="qln-cf", company=QUILLON, fiscal_year=2017, page=52, text=report_text)

    def fig(label: str, value: float) -> Figure:
        return Figure(label=label, value=value, unit="$m", company=QUILLON, fiscal_year=2017, source_id="qln-17",
                      chunk_id="qln-cf")

    inputs = {"cfo_2017": fig("Net cash provided by operating activities", 655),
              "capex_2017": fig("Purchases of property and equipment", -118), "net_income_2017": fig("Net income", 412)}
    conversion = CalcResult(tool="metric", inputs={k: f.value for k, f in inputs.items()}, result=rate, unit="%",
                            expression="(655 - 118) / 412 * 100", sources=dict(inputs),
                            formula="free cash flow conversion = (cash from operations - capex) / net income")
    calc = Block(n=2, kind="calculation", header="[2] calculation (ok)", source_id="calculation",
                 text=f"metric: (655 - 118) / 412 * 100 = {rate}%")
    return {"question": question, "companies": [QUILLON], "fiscal_years": [2017], "blocks": [report, calc],
            "decision": RouteDecision(needs_retrieval=True, needs_calculation=True),
            "calculation": CalculationOutcome(status="ok", results=[conversion])}


def test_a_judgement_asked_as_a_degree_leads_with_the_degree() -> None:
    draft = compose_offline(_conversion_state(CASH_INTO, 130.34))
    assert draft.startswith("Good. Quillon Payments' free cash flow conversion was 130.34% in FY2017"), draft


def test_a_judgement_asked_as_a_degree_that_fails_leads_with_not_the_degree() -> None:
    draft = compose_offline(_conversion_state(CASH_INTO, 72.0))
    assert draft.startswith("Not good."), draft


def test_a_stated_conversion_rate_is_read_before_a_computed_one() -> None:
    stated = ("Free cash flow reconciliation ($m)\n2017 2016\nFree cash flow 590 433\n"
              "Free cash flow conversion rate 143 % 118 %")
    draft = compose_offline(_conversion_state(CASH_INTO, 130.34, stated))
    assert draft.startswith("Good."), draft
    assert "143%" in draft and "130.34%" not in draft, draft


# --- 'X as a percentage of net sales' is X's margin ----------------------------------------------------------------


def test_a_result_as_a_percentage_of_net_sales_is_its_margin() -> None:
    query = read_query("What was the Rigid Packaging segment's EBIT margin for Tessaly Packaging in fiscal 2023?",
                       ["Tessaly Packaging"])
    assert query.kind == "percent" and {"ebit", "margin"} <= set(query.stems)
    ebit = label_match("Adjusted EBIT as a percentage of net sales", query)
    other = label_match("SG&A expenses as a percentage of net sales", query)
    assert ebit > 0
    assert other == 0
    assert ebit > other


# --- a one-word label is no name of a two-word measure in the calculator ----------------------------------------------


def test_a_one_word_label_is_no_name_of_a_two_word_measure() -> None:
    question = "By how much did Calloway Foods' operating costs rise in 2022?"
    assert names_the_measure(question, "cost", ["Calloway Foods"]) is False


def test_a_two_word_label_of_the_measure_still_names_it() -> None:
    question = "How much higher was Ternline's FY2024 dividend payout ratio than Osprey's?"
    assert names_the_measure(question, "payout ratio", ["Ternline", "Osprey"]) is True


# --- in the black / in the red on a contribution basis ----------------------------------------------------------------

STREAMING = "Calloway Streaming"
SEGMENT = """International Streaming Segment
As of/ Year Ended December 31, Change
2017 2016 2015 2017 vs. 2016 2016 vs. 2015
(in thousands, except percentages)
Contribution profit (loss):
Revenues
$ 5,089,191 $ 3,211,095 $ 1,953,435 $ 1,878,096 58 % $ 1,257,660 64 %
Cost of revenues
4,137,911 3,042,740 1,780,375 1,095,171 36 % 1,262,365 71 %
Marketing
723,732 420,898 506,446 302,834 72 % (85,548 ) (17 )%
Contribution profit (loss)
227,548 (252,543 ) (333,386 ) 480,091 (190 )% 80,843 (24 )%"""


def _streaming_answer(question: str) -> str:
    block = Block(n=1, kind="report", header=f"[1] {STREAMING} FY2017 10-K, p.24 [text]", text=SEGMENT,
                  source_id="CALLOWAY_STREAMING_2017_10K:p24", chunk_id="CALLOWAY_STREAMING_2017_10K:p24::0",
                  company=STREAMING, fiscal_year=2017, page=24)
    return compose_offline({"question": question, "companies": [STREAMING], "fiscal_years": [2017],
                            "blocks": [block], "decision": RouteDecision(needs_retrieval=True)})


def test_in_the_black_on_a_contribution_basis_asks_whether_the_contribution_result_was_a_profit() -> None:
    draft = _streaming_answer(f"Was {STREAMING}'s international streaming business in the black in 2017 on a "
                              "contribution basis?")
    assert draft.startswith("Yes."), draft
    assert "$227,548k" in draft and "contribution profit" in draft, draft


def test_in_the_red_on_a_contribution_basis_asks_whether_it_was_a_loss() -> None:
    draft = _streaming_answer(f"Was {STREAMING}'s international streaming business in the red in 2017 on a "
                              "contribution basis?")
    assert draft.startswith("No."), draft
    assert "$227,548k" in draft, draft


def test_the_profitable_pattern_reads_the_basis_and_in_the_red() -> None:
    from app.models.providers.offline.composer.analyst import _PROFITABLE

    black = _PROFITABLE.search(f"Was {STREAMING}'s streaming business in the black in 2017 on a contribution basis?")
    assert black is not None and black.group("basis") == "contribution" and black.group("what") is None
    red = _PROFITABLE.search(f"Was {STREAMING}'s streaming business in the red in 2017 on a contribution basis?")
    assert red is not None and red.group("what") == "in the red"


def test_a_capital_table_that_states_no_day_answers_nothing() -> None:
    undated = STACKED.replace("Ratios as of December\n31, 2022\n", "Ratios\n")
    # no year asked: the latest day, and this table states none
    state = _capital_state(f"Is {BANK} comfortably above its regulatory capital minimums?", undated)
    state["fiscal_years"] = []
    draft = compose_offline(state)
    assert not draft.startswith(("Yes.", "No.")) and "10.3%" not in draft, draft
