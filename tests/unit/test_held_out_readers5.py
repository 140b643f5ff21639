"""Held-out misses, read generally (fifth set): a company asked by another of its names ('Did Quillpay have to set
aside more for transaction losses in 2020?') read as the question's subject, not a part, and what it set aside as
its provision; 'Did it … more … in 2020?' with no 'than' asking a rise; a note mark run into a row's first value
('(ii)70,557 34,771'); 'its single biggest source of revenue' asking the revenue, ranked over a table that breaks
revenue down by source (never over the deferred revenue balances beside it); a row found by its initials ('ROIC,
non-GAAP measure'); 'earning better returns on its capital' asking the return on invested capital; the latest
report's year before kept when a change is asked; 'carrying too much debt' judged by leverage; one calculator
result told per figure's names and periods.

Functions added by the changes under test are imported inside their tests, so that each test fails on its own on
the code before them.

Every company, page and figure here is made up (Pellmont, a payments group also called Quillpay, whose parts
include Cash Hub; its revenue sources are transaction-based, hardware and token revenue).
"""

from __future__ import annotations

from app.calc_tools import CalcResult, CalculationOutcome, Figure
from app.evidence import Evidence
from app.facts.query import Fact, facts_for, member_facts, read_query
from app.metrics import judgement
from app.models.providers.offline.composer import compose_offline
from app.routing.decision import RouteDecision
from app.text.measures import measure_asked
from app.text.question_kinds import read_ask
from app.text.statements import read_statement
from app.turns import Block

CO = "Pellmont"

# --- 1. a company asked by another of its names is the subject, not a part ---------------------------------------


def test_a_name_the_reader_does_not_know_leading_a_verb_is_the_subject_not_a_segment() -> None:
    """'Did Quillpay have to set aside more for transaction losses in 2020?' with only 'Pellmont' known: 'Quillpay'
    is who is asked (a verb follows it), no part; what it set aside is its provision for transaction losses."""
    asked = measure_asked("Did Quillpay have to set aside more for transaction losses in 2020?", [CO])
    assert asked.segment is None
    assert asked.phrase == "provision for transaction losses"


def test_a_name_before_a_measure_word_is_still_a_part() -> None:
    """'Did Cash Hub revenue grow in 2020?': 'Cash Hub' is followed by a measure word, so it is the part asked
    (behaviour kept)."""
    asked = measure_asked("Did Cash Hub revenue grow in 2020?", [CO])
    assert asked.segment == "Cash Hub"
    assert asked.phrase == "revenue"


def test_the_known_company_setting_aside_more_asks_the_same_provision() -> None:
    """The same question of the known name reads the same measure."""
    asked = measure_asked(f"Did {CO} have to set aside more for transaction losses in 2020?", [CO])
    assert asked.segment is None
    assert asked.phrase == "provision for transaction losses"


# --- 2. 'Did it … more … in 2020?' with no 'than' asks a rise ---------------------------------------------------


def test_setting_aside_more_in_a_year_asks_a_rise() -> None:
    """'Did Pellmont have to set aside more … in 2020?': a yes/no on a rise on the year before."""
    ask = read_ask(f"Did {CO} have to set aside more for transaction losses in 2020?")
    assert ask.kind == "yes_no_change"
    assert ask.direction == 1


def test_taking_on_more_in_a_fiscal_year_asks_a_rise() -> None:
    """'Did Pellmont take on more finance lease obligations in fiscal 2021?': a rise asked."""
    ask = read_ask(f"Did {CO} take on more finance lease obligations in fiscal 2021?")
    assert ask.kind == "yes_no_change"
    assert ask.direction == 1


def test_ten_percent_or_more_is_a_threshold_not_a_rise() -> None:
    """'Did any single customer account for 10% or more of its net revenue in 2024?': a plain yes/no."""
    assert read_ask(f"Did any single customer account for 10% or more of {CO}'s net revenue in 2024?").kind == "yes_no"


def test_more_than_another_figure_is_no_rise() -> None:
    """'Did Pellmont have more cash than debt in 2020?' compares two figures, not two years."""
    assert read_ask(f"Did {CO} have more cash than debt in 2020?").kind != "yes_no_change"


def test_more_with_no_period_is_a_plain_yes_no() -> None:
    """'Did Pellmont open more stores?' names no year: a plain yes/no."""
    assert read_ask(f"Did {CO} open more stores?").kind == "yes_no"


# --- 3. a note mark run into a row's first value ------------------------------------------------------------------

ACCRUED = ("the detail of accrued expenses (in thousands):December 31,\n2020\nDecember 31,\n2019\n"
           "Accrued expenses\n$ 126,710 $ 128,387\nAccrued transaction losses\n(ii)70,557 34,771\n"
           "Accounts payable\n47,089 42,116\n")


def test_a_note_mark_glued_to_the_first_value_is_no_part_of_it() -> None:
    """'Accrued transaction losses' over '(ii)70,557 34,771': the row's values are 70,557 and 34,771, with the
    rows around it read as before."""
    rows = {r.line_item: r for r in read_statement(ACCRUED, []).rows}
    assert "Accrued transaction losses" in rows, list(rows)
    assert rows["Accrued transaction losses"].values == [70557.0, 34771.0]
    assert rows["Accrued expenses"].values == [126710.0, 128387.0]
    assert rows["Accounts payable"].values == [47089.0, 42116.0]
    assert len(rows["Accrued transaction losses"].periods) == 2


# --- 4. 'its single biggest source of revenue' asks the revenue ---------------------------------------------------


def test_the_single_biggest_source_of_revenue_asks_revenue() -> None:
    """'What was Pellmont's single biggest source of revenue in 2020?': the measure is revenue."""
    assert measure_asked(f"What was {CO}'s single biggest source of revenue in 2020?", [CO]).phrase == "revenue"


def test_the_main_driver_of_revenue_asks_revenue() -> None:
    """'What is Pellmont's main driver of revenue?': the measure is revenue."""
    assert measure_asked(f"What is {CO}'s main driver of revenue?", [CO]).phrase == "revenue"


# --- 5. a table of revenue by source, beside the deferred revenue balances ----------------------------------------

SOURCES = ("NOTE 2 - REVENUE\nThe following table presents\nthe Company's revenue disaggregated by revenue source "
           "(in thousands):Year Ended December 31,\n2020\n2019 2018\nRevenue from Contracts with Customers:\n"
           "Transaction-based revenue\n$ 3,294,978 $ 3,081,074 $ 2,471,451\nHardware revenue\n91,654 84,505 68,503\n"
           "Token revenue\n4,571,543 516,465 166,517\nThe deferred revenue balances were as follows (in thousands):"
           "Year Ended December 31,\n2020\n2019 Deferred revenue, beginning of the period $ 44,331 $ 36,451\n"
           "Deferred revenue, end of the period 51,804 44,331\n")
BIGGEST = f"What was {CO}'s single biggest source of revenue in 2020?"


def test_each_source_of_revenue_is_a_member_and_no_deferred_balance_is() -> None:
    """Member facts of the question: the three sources of revenue (Token revenue 4,571,543 for 2020 among them),
    none a 'Deferred revenue …' balance."""
    doc = Evidence(chunk_id="PELLMONT_2020_10K:p90::0", source_id="PELLMONT_2020_10K:p90", company=CO,
                   fiscal_year=2020, page=90, is_table=True, text=SOURCES)
    facts = member_facts(read_query(BIGGEST, [CO]), [doc], [CO])
    segments = {f.segment for f in facts}
    assert {"Transaction-based revenue", "Hardware revenue", "Token revenue"} <= segments, segments
    assert not any((s or "").startswith("Deferred revenue") for s in segments), segments
    assert not any(f.figure.label.startswith("Deferred revenue") for f in facts)
    token = [f.figure.value for f in facts if f.segment == "Token revenue" and f.figure.fiscal_year == 2020]
    assert token == [4571543.0]


def test_the_biggest_source_of_revenue_is_answered_with_token_revenue() -> None:
    """Through the offline composer: Token revenue ($4,571,543k) leads the answer; no deferred balance is
    ranked."""
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2020 p.90", text=SOURCES,
                  source_id="PELLMONT_2020_10K:p90", chunk_id="PELLMONT_2020_10K:p90::0", company=CO,
                  fiscal_year=2020, page=90)
    draft = compose_offline({"question": BIGGEST, "companies": [CO], "fiscal_years": [2020], "blocks": [block],
                             "decision": RouteDecision(needs_retrieval=True)})
    assert draft.startswith("Token revenue"), draft
    assert "4,571,543" in draft, draft
    assert "Deferred" not in draft, draft


# --- 6. a row found by its initials -------------------------------------------------------------------------------

ROIC = ("Return on Invested Capital\n2022 2021\nAverage invested capital $ 57,380 $ 57,265\n"
        "ROIC, non-GAAP measure 17.0 % 16.0 %\n")


def test_return_on_invested_capital_is_read_from_the_row_of_its_initials() -> None:
    """Asked whether its return on invested capital improved, the row 'ROIC, non-GAAP measure' gives 17.0 for 2022
    as a full match (', non-GAAP measure' no word of its own)."""
    doc = Evidence(chunk_id="PELLMONT_2022_10K:p30::0", source_id="PELLMONT_2022_10K:p30", company=CO,
                   fiscal_year=2022, page=30, is_table=True, text=ROIC)
    query = read_query(f"Did {CO}'s return on invested capital improve in 2022?", [CO])
    facts = [f for f in facts_for(query, [doc], [CO]) if f.figure.label == "ROIC, non-GAAP measure"]
    latest = [f for f in facts if f.figure.fiscal_year == 2022]
    assert [f.figure.value for f in latest] == [17.0], facts
    assert latest[0].match >= 0.9


# --- 7. 'earning better returns on its capital' -------------------------------------------------------------------


def test_better_returns_on_its_capital_asks_return_on_invested_capital() -> None:
    """'Is Pellmont earning better returns on its capital?': the return on invested capital."""
    assert measure_asked(f"Is {CO} earning better returns on its capital?", [CO]).phrase == (
        "return on invested capital")


# --- 8. the latest report's year before kept when a change is asked ----------------------------------------------


def _roic_fact(year: int, value: float, filed: int) -> Fact:
    source = f"PELLMONT_{filed}_10K:p30"
    figure = Figure(label="ROIC", value=value, unit="%", company=CO, fiscal_year=year, period=f"FY{year}",
                    source_id=source, chunk_id=f"{source}::0")
    return Fact(figure=figure, origin="table", match=1.0, filed_year=filed)


def test_a_change_asked_keeps_the_year_before_as_the_latest_report_states_it() -> None:
    """With the FY2022 10-K held: compared=False keeps 2022 only; compared=True keeps 2022 and the 2021 the same
    report states; the 2021 of the FY2021 report is dropped either way."""
    from app.models.providers.offline.composer.analyst import latest_report_facts

    block = Block(n=1, kind="report", header=f"[1] {CO} FY2022 p.30", text=ROIC, source_id="PELLMONT_2022_10K:p30",
                  chunk_id="PELLMONT_2022_10K:p30::0", company=CO, fiscal_year=2022, page=30)
    now, before, older = _roic_fact(2022, 17.0, 2022), _roic_fact(2021, 16.0, 2022), _roic_fact(2021, 15.5, 2021)
    facts = [now, before, older]
    assert [f.figure.value for f in latest_report_facts(facts, [block], False, compared=False)] == [17.0]
    assert [f.figure.value for f in latest_report_facts(facts, [block], False, compared=True)] == [17.0, 16.0]
    assert latest_report_facts(facts, [block], False) == [now]  # compared is off by default


# --- 9. 'carrying too much debt' is judged by leverage ------------------------------------------------------------


def test_carrying_too_much_debt_is_a_leverage_judgement() -> None:
    """'Is Pellmont carrying too much debt?' and 'Is its debt load too heavy?' ask a judgement of leverage."""
    for question in (f"Is {CO} carrying too much debt?", "Is its debt load too heavy?"):
        assert read_ask(question).kind == "judgement", question
        assert judgement(question)[0] == "leverage", question


# --- 10. one calculator result told per figure's names and periods -----------------------------------------------


def _media(value: float, unit: str, year: int, page: int) -> Figure:
    return Figure(label="Digital Media", value=value, unit=unit, company=CO, fiscal_year=year, period=f"FY{year}",
                  source_id=f"PELLMONT_2015_10K:p{page}", chunk_id=f"PELLMONT_2015_10K:p{page}::0")


def _growth(old: float, new: float, unit: str, page: int) -> CalcResult:
    return CalcResult(tool="growth_rate", inputs={"old": old, "new": new}, result=round((new - old) / old * 100, 2),
                      unit="%", expression=f"({new} - {old}) / {old} * 100",
                      sources={"old": _media(old, unit, 2014, page), "new": _media(new, unit, 2015, page)})


def test_two_growths_of_the_same_names_and_periods_are_told_once() -> None:
    """Two growths of 'Digital Media' FY2014 to FY2015, one from $2,603.2m to $3,095.2m and one from another
    table's $147,182k to $291,779k: one 'grew' sentence, the first's."""
    blocks = [Block(n=1, kind="report", header=f"[1] {CO} FY2015 p.40", source_id="PELLMONT_2015_10K:p40",
                    chunk_id="PELLMONT_2015_10K:p40::0", company=CO, fiscal_year=2015, page=40,
                    text="Segment Information (dollars in millions)\nFiscal\n2015\nFiscal\n2014\n"
                         "Digital Media $ 3,095.2 $ 2,603.2\n"),
              Block(n=2, kind="report", header=f"[2] {CO} FY2015 p.70", source_id="PELLMONT_2015_10K:p70",
                    chunk_id="PELLMONT_2015_10K:p70::0", company=CO, fiscal_year=2015, page=70,
                    text="Deferred revenue (in thousands)\nFiscal\n2015\nFiscal\n2014\n"
                         "Digital Media $ 291,779 $ 147,182\n"),
              Block(n=3, kind="calculation", header="[3] calculation (ok)", text="growth_rate: 18.9%\n"
                    "growth_rate: 98.24%", source_id="calculation", chunk_id="calculation")]
    results = [_growth(2603.2, 3095.2, "$m", 40), _growth(147182.0, 291779.0, "$k", 70)]
    draft = compose_offline({"question": f"How much did {CO}'s Digital Media revenue grow in fiscal 2015?",
                             "companies": [CO], "fiscal_years": [2015], "blocks": blocks,
                             "decision": RouteDecision(needs_retrieval=True, needs_calculation=True),
                             "calculation": CalculationOutcome(status="ok", results=results)})
    assert draft.count(" grew ") == 1, draft
    assert "18.9%" in draft and "$3,095.2m" in draft, draft
    assert "98.24%" not in draft and "291,779" not in draft, draft


# --- 11. 'How did its … business do in the last quarter of 2022?' ------------------------------------------------


def test_the_last_quarter_of_a_year_is_its_fourth() -> None:
    """'the last quarter of 2022', 'the final quarter of fiscal 2021': Q4; 'last quarter' alone names no year's."""
    from app.text.periods import part_named

    assert part_named("in the last quarter of 2022") == "Q4"
    assert part_named("the final quarter of fiscal 2021") == "Q4"
    assert part_named("How did it do last quarter?") is None


def test_how_a_part_did_asks_its_sales_against_a_year_before() -> None:
    """'How did Pellmont's consumer health business do in the last quarter of 2022?': a change of the part's net
    sales in Q4 2022."""
    question = f"How did {CO}'s consumer health business do in the last quarter of 2022?"
    assert read_ask(question).kind == "change"
    query = read_query(question, [CO])
    assert query.measure.phrase == "net sales"
    assert query.measure.segment == "consumer health"
    assert query.part == "Q4" and query.years == (2022,)


def test_how_the_company_did_is_no_part_performance() -> None:
    """'How did Pellmont do in 2022?' names no part: not read as a part's sales."""
    assert measure_asked(f"How did {CO} do in 2022?", [CO]).phrase != "net sales"


def test_a_lower_case_business_is_read_with_its_measure_not_as_a_segment() -> None:
    """'How profitable was Pellmont's pet food business': a business named in lower case stays with the measure,
    where the filing's own name for the part is found ('Pet'); only a lower-case 'segment' or 'division' is one."""
    asked = measure_asked(f"How profitable was {CO}'s pet food business in fiscal 2020?", [CO])
    assert asked.segment is None
    assert "pet" in asked.phrase
    assert measure_asked(f"What did {CO}'s pharma segment earn in 2022?", [CO]).segment == "pharma"


# --- 12. question words and older changes --------------------------------------------------------------------------


def test_a_question_word_is_never_a_segment() -> None:
    """'Why did Pellmont's revenue rise', 'When did …', 'Where did …': the question word is no part of the company."""
    for question in (f"Why did {CO}'s revenue rise in 2017?", f"When did {CO}'s revenue peak?",
                     f"Where did {CO}'s revenue grow fastest in 2017?"):
        asked = measure_asked(question, [CO])
        assert asked.segment is None, question
        assert "revenue" in asked.phrase, question


def test_a_change_between_two_earlier_fiscal_years_explains_no_later_one() -> None:
    """'during fiscal 2016 compared to fiscal 2015' names the change a year before fiscal 2017's."""
    from app.models.providers.offline.composer.explanations import older_change_named

    sentence = ("The increase in cost of subscription revenue during fiscal 2016 compared to fiscal 2015 was driven "
                "by higher hosting costs.")
    assert older_change_named(sentence, [2017])
    assert not older_change_named(sentence, [2016])
    assert not older_change_named("Hosting costs increased in all periods presented.", [2017])
