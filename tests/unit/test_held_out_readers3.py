"""Held-out misses, read generally (third set): a quantity named before its verb ('What maximum leverage ratio does
its facility require?') asking a figure; 'paying down the debt' asking the deleveraging judgement; 'How dependent
is X on Walmart as a customer' asking Walmart's share of X's net revenue; a deal named as 'pay to acquire Innovex';
a sentence opening on what happened after the period's end giving no figure of it; a note's table of capital
ratios held per day and entity (app/facts/capital.held_ratios) and a bank's capital asked as a trend ('Is its
regulatory capital cushion getting thinner?'); whether free cash flow covered what was returned to shareholders
('Did its free cash flow cover its dividends and buybacks?'); 'How much of its cash pile sits overseas' asking the
share its foreign subsidiaries hold; a judged metric of a part of a year dated by that part.

Functions added by the changes under test are imported inside their tests, so that each test fails on its own on
the code before them.

Every company, page and figure here is made up (Harlow, a consumer group that bought Quince Foods and Innovex;
Quillmore Bank, a lender, whose holding company is Quillmore Bank Corp and whose bank is Quillmore Bank N.A.).
"""

from __future__ import annotations

from app.calc_tools import CalcResult, CalculationOutcome, Figure
from app.evidence import Evidence
from app.facts.query import facts_for, read_query
from app.judgements import convention_for
from app.models.providers.offline.composer import compose_offline
from app.routing.decision import RouteDecision
from app.text.measures import deal_names, measure_asked, plain_measures
from app.text.question_kinds import read_ask
from app.text.questions import asks_for_figure
from app.turns import Block

CO = "Harlow"
BANK = "Quillmore Bank"
CORP = "Quillmore Bank Corp"

# --- 1. a quantity named before its verb asks a figure --------------------------------------------------------------

LEVERAGE_REQUIRED = f"What maximum leverage ratio does {CO}'s new 364-day credit facility require it to maintain?"


def test_a_ratio_named_before_its_verb_asks_for_a_figure() -> None:
    """'What maximum leverage ratio does its facility require …': the ratio is the figure asked."""
    assert asks_for_figure(LEVERAGE_REQUIRED) is True


def test_a_ratio_named_before_its_verb_is_read_as_a_figure_question() -> None:
    """The same question's kind of answer is a figure."""
    assert read_ask(LEVERAGE_REQUIRED).kind == "figure"


def test_a_question_of_why_still_asks_no_figure() -> None:
    """'Why does its facility require a maximum leverage ratio?' asks a reason, not a figure (behaviour kept)."""
    assert asks_for_figure(f"Why does {CO}'s credit facility require a maximum leverage ratio?") is False


# --- 2. 'paying down the debt' asks the deleveraging judgement --------------------------------------------------------

PAYING_DOWN = f"Is {CO} actually paying down the debt it took on to buy Quince Foods?"


def test_paying_down_the_debt_is_a_judgement() -> None:
    """'Is it actually paying down the debt it took on …' asks a judgement, not a yes/no on a figure."""
    assert read_ask(PAYING_DOWN).kind == "judgement"


def test_paying_down_the_debt_is_judged_by_the_deleveraging_convention() -> None:
    """The convention that judges it is deleveraging (net debt to EBITDA falling)."""
    convention = convention_for(PAYING_DOWN)
    assert convention is not None
    assert convention.topic == "deleveraging"


# --- 3. dependence on a customer is the customer's share of net revenue -----------------------------------------------


def test_dependence_on_a_customer_asks_its_share_of_net_revenue() -> None:
    """'How dependent is Harlow on Walmart as a customer?': Walmart's share of Harlow's net revenue; 'as a
    customer' is no part of the customer's name."""
    assert plain_measures(f"How dependent is {CO} on Walmart as a customer?") == (
        f"What share of {CO}'s net revenue came from Walmart?")


def test_reliance_of_a_measure_keeps_the_measure_and_drops_growth() -> None:
    """A whole that names a measure ('its revenue growth') keeps the measure and drops 'growth'; no 'net
    revenue' is added to it."""
    plain = plain_measures(f"How reliant was {CO}'s revenue growth in 2020 on bitcoin?")
    assert "revenue" in plain and "bitcoin" in plain
    assert "growth" not in plain
    assert "net revenue" not in plain


# --- 4. a deal named as 'pay to acquire Innovex' ----------------------------------------------------------------------


def test_to_acquire_names_the_business_bought() -> None:
    """'pay to acquire Innovex' names the deal 'Innovex'."""
    assert deal_names("pay to acquire Innovex") == ["Innovex"]


def test_a_deal_named_before_acquisition_is_still_named() -> None:
    """'the Fenmoor Cold Storage acquisition' still names 'Fenmoor Cold Storage' (behaviour kept)."""
    assert deal_names("goodwill recognised on the Fenmoor Cold Storage acquisition") == ["Fenmoor Cold Storage"]


# --- 5. a sentence opening on what happened after the period's end gives no figure of it ------------------------------

REPURCHASES = ("Share Repurchase Program\n"
               "Subsequent to the quarter ended June 30, 2023, the Company repurchased approximately 2 million shares "
               "of its common stock for an aggregate amount of $88 million. "
               "During the three months ended June 30, 2023, the Company repurchased approximately 15 million shares "
               "of its common stock for an aggregate amount of $626 million.")


def _quarter_doc(text: str) -> Evidence:
    return Evidence(chunk_id="HW_2023Q2_10Q:p22::0", source_id="HW_2023Q2_10Q:p22", company=CO, fiscal_year=2023,
                    page=22, text=text)


def test_a_sentence_after_the_quarter_end_gives_no_figure_of_the_quarter() -> None:
    """The buybacks of the three months ended June 30 ($626 million) are read; those 'Subsequent to the quarter
    ended June 30' ($88 million) are not."""
    query = read_query(f"How much stock did {CO} buy back in the second quarter of 2023?", [CO])
    values = {f.figure.value for f in facts_for(query, [_quarter_doc(REPURCHASES)], [CO])}
    assert 626.0 in values
    assert 88.0 not in values


def test_after_period_matches_sentences_opening_after_the_periods_end() -> None:
    """`_AFTER_PERIOD` matches 'Subsequent to the quarter ended …' and 'After the end of the fiscal year, …', not
    'During the three months ended …'."""
    from app.facts.query import _AFTER_PERIOD

    assert _AFTER_PERIOD.match("Subsequent to the quarter ended June 30, 2023, the Company repurchased shares.")
    assert _AFTER_PERIOD.match("After the end of the fiscal year, the Board declared a dividend of $0.40.")
    assert _AFTER_PERIOD.match("During the three months ended June 30, 2023, the Company repurchased shares.") is None


# --- 6. a note's table of capital ratios held per day and entity ------------------------------------------------------

NOTE_HEADER = ("(Millions, except percentages) CET 1 capital Tier 1 capital Total capital CET 1 capital ratio "
               "Tier 1 capital ratio Total capital ratio Tier 1 leverage ratio")
NOTE_ROWS = (f"December 31, 2022: {CORP} $ 20,030 $ 21,627 $ 24,926 10.3 % 11.1 % 12.8 % 9.9 % "
             f"December 31, 2021: {CORP} $ 17,554 $ 19,186 $ 21,506 10.5 % 11.5 % 12.9 % 10.5 %")
NOTE_ONE_LINE = f"{NOTE_HEADER} {NOTE_ROWS}"
NOTE_LINES = (f"{NOTE_HEADER}\nDecember 31, 2022:\n{CORP} $ 20,030 $ 21,627 $ 24,926 10.3 % 11.1 % 12.8 % 9.9 %\n"
              f"December 31, 2021:\n{CORP} $ 17,554 $ 19,186 $ 21,506 10.5 % 11.5 % 12.9 % 10.5 %\n")


def _held(text: str) -> dict[tuple[str, str, str], float]:
    from app.facts.capital import held_ratios

    return {(r.measure, r.entity, r.day): r.held for r in held_ratios(text)}


def test_held_ratios_reads_each_days_ratios_in_the_headers_order() -> None:
    """The per cents of each day's row are the header's ratios in order: CET1 10.3% at 2022-12-31 and 10.5% at
    2021-12-31, and the leverage ratio last."""
    held = _held(NOTE_ONE_LINE)
    assert held[("CET1", CORP, "2022-12-31")] == 10.3
    assert held[("CET1", CORP, "2021-12-31")] == 10.5
    assert held[("Tier 1", CORP, "2022-12-31")] == 11.1
    assert held[("Total capital", CORP, "2021-12-31")] == 12.9
    assert held[("Tier 1 leverage", CORP, "2022-12-31")] == 9.9
    assert held[("Tier 1 leverage", CORP, "2021-12-31")] == 10.5


def test_held_ratios_reads_four_measures_per_day_and_never_an_amount() -> None:
    """Four ratios per day, all of the one entity; no dollar amount ($20,030 million) is read as a ratio."""
    from app.facts.capital import held_ratios

    ratios = held_ratios(NOTE_ONE_LINE)
    assert len(ratios) == 8
    assert {r.entity for r in ratios} == {CORP}
    for day in ("2022-12-31", "2021-12-31"):
        assert sorted(r.measure for r in ratios if r.day == day) == ["CET1", "Tier 1", "Tier 1 leverage",
                                                                     "Total capital"]
    assert all(r.held < 100 for r in ratios)


def test_held_ratios_reads_the_table_written_over_several_lines_alike() -> None:
    """The same table with each day and row on lines of their own reads the same ratios."""
    assert _held(NOTE_LINES) == _held(NOTE_ONE_LINE)


def test_held_ratios_reads_nothing_unless_a_header_names_a_ratio() -> None:
    """A table of capital amounts whose header names no ratio holds no ratios."""
    from app.facts.capital import held_ratios

    amounts = ("(Millions) CET 1 capital Tier 1 capital Total capital "
               f"December 31, 2022: {CORP} $ 20,030 $ 21,627 $ 24,926")
    assert held_ratios(amounts) == []


# --- 7. a bank's capital asked as a trend, through the offline composer ----------------------------------------------

STACKED = ("Effective Minimum\nRatios as of December\n31, 2022\n"
           f"Common Equity Tier 1 7.0 %\n{CORP} 10.3 %\nQuillmore Bank N.A. 11.0\n"
           f"Tier 1 8.5\n{CORP} 11.1\nQuillmore Bank N.A. 11.2\n"
           f"Total 10.5\n{CORP} 12.8\nQuillmore Bank N.A. 12.9\n"
           f"Tier 1 Leverage 4.0 %\n{CORP} 9.9 %\nQuillmore Bank N.A. 10.0\n")
THINNER = f"Is {BANK}'s regulatory capital cushion getting thinner?"
STRONGER = f"Is {BANK}'s regulatory capital getting stronger?"


def _capital_state(question: str) -> dict:
    blocks = [Block(n=n, kind="report", header=f"[{n}] {BANK} FY2022 p.{page}", text=text,
                    source_id=f"QUILLMORE_2022_10K:p{page}", chunk_id=f"QUILLMORE_2022_10K:p{page}::a::1",
                    company=BANK, fiscal_year=2022, page=page)
              for n, page, text in ((1, 70, STACKED), (2, 148, NOTE_LINES))]
    return {"question": question, "companies": [BANK], "fiscal_years": [2022], "blocks": blocks,
            "decision": RouteDecision(needs_retrieval=True)}


def test_a_thinning_capital_cushion_is_judged_yes_with_the_ratio_and_the_year_before() -> None:
    """CET1 fell from 10.5% (the note's December 31, 2021) to 10.3% (the capital table's December 31, 2022):
    'getting thinner' is 'Yes.', with both ratios and the minimum beside the latest."""
    draft = compose_offline(_capital_state(THINNER))
    assert draft.startswith("Yes."), draft
    assert "10.3%" in draft and "10.5%" in draft, draft
    assert "down from 10.5%" in draft, draft
    assert "7.0%" in draft, draft


def test_capital_getting_stronger_is_judged_no_when_the_ratio_fell() -> None:
    """The same fall asked as 'getting stronger' is 'No.', with the same two ratios."""
    draft = compose_offline(_capital_state(STRONGER))
    assert draft.startswith("No."), draft
    assert "10.3%" in draft and "10.5%" in draft, draft


def test_capital_moved_reads_the_direction_asked() -> None:
    """`_CAPITAL_MOVED`: 'getting thinner' and 'cushion shrinking' ask down; 'getting stronger' and 'capital
    building' ask up; 'comfortably above its minimums' asks no trend."""
    from app.models.providers.offline.composer.analyst import _CAPITAL_MOVED

    thinner = _CAPITAL_MOVED.search(THINNER)
    assert thinner is not None and thinner.group("down") and not thinner.group("up")
    stronger = _CAPITAL_MOVED.search(STRONGER)
    assert stronger is not None and stronger.group("up") and not stronger.group("down")
    shrinking = _CAPITAL_MOVED.search(f"Is {BANK}'s capital cushion shrinking?")
    assert shrinking is not None and shrinking.group("down2")
    building = _CAPITAL_MOVED.search(f"Is {BANK}'s capital building up?")
    assert building is not None and building.group("up2")
    assert _CAPITAL_MOVED.search(f"Is {BANK} comfortably above its regulatory capital minimums?") is None


# --- 8. whether free cash flow covered what was returned to shareholders ----------------------------------------------

COVER_BOTH = f"Did {CO}'s free cash flow cover its dividends and buybacks in 2022?"
COVER_BUYBACKS = f"Could {CO} pay for its first-half 2023 share buybacks out of the cash the business generated?"
COVER_DIVIDENDS = f"Did {CO}'s free cash flow cover its dividends in 2022?"


def test_cash_returns_matches_both_ways_of_asking() -> None:
    """'Did its free cash flow cover its dividends and buybacks' and 'Could it pay for its buybacks out of the
    cash the business generated' both ask whether free cash flow paid for the returns."""
    from app.metrics import CASH_RETURNS

    assert CASH_RETURNS.search(COVER_BOTH)
    assert CASH_RETURNS.search(COVER_BUYBACKS)
    assert CASH_RETURNS.search(f"What was {CO}'s free cash flow in 2022?") is None


def test_returns_cover_is_the_cover_of_the_returns_named() -> None:
    """Dividends and buybacks named: the cover of both; buybacks alone: of buybacks; dividends alone: of
    dividends."""
    from app.metrics import FCF_COVER_BUYBACKS, FCF_COVER_DIVIDENDS, FCF_COVER_RETURNS, returns_cover

    assert returns_cover(COVER_BOTH) is FCF_COVER_RETURNS
    assert returns_cover(COVER_BUYBACKS) is FCF_COVER_BUYBACKS
    assert returns_cover(COVER_DIVIDENDS) is FCF_COVER_DIVIDENDS


def test_the_metric_asked_of_cash_returns_is_the_cover_of_dividends_and_buybacks() -> None:
    """`metrics_asked` of the first question: the one metric 'free cash flow cover of dividends and buybacks',
    under the topic 'cash returns'."""
    from app.metrics import FCF_COVER_RETURNS, metrics_asked

    metrics, topic = metrics_asked(COVER_BOTH)
    assert [m.name for m in metrics] == [FCF_COVER_RETURNS.name]
    assert topic == "cash returns"


def test_the_cover_of_dividends_and_buybacks_needs_four_inputs_of_the_year() -> None:
    """Its inputs for 2022: operating cash flow, capital expenditure, dividends and share repurchases."""
    from app.metrics import needed_inputs

    assert sorted(needed_inputs(COVER_BOTH, [2022])) == sorted([("cfo", 2022), ("capex", 2022), ("dividends", 2022),
                                                                 ("share_repurchases", 2022)])


def test_both_ways_of_asking_cash_returns_are_judgements() -> None:
    """Both questions ask a judgement, not a yes/no on one figure."""
    assert read_ask(COVER_BOTH).kind == "judgement"
    assert read_ask(COVER_BUYBACKS).kind == "judgement"


# --- 9. 'How much of its cash pile sits overseas' -----------------------------------------------------------------

OVERSEAS = f"How much of {CO}'s cash pile sits overseas?"


def test_a_cash_pile_sitting_overseas_is_cash_held_by_foreign_subsidiaries() -> None:
    """'its cash pile' is cash; 'sits overseas' is held by foreign subsidiaries, as reports write it."""
    plain = plain_measures(OVERSEAS)
    assert "cash" in plain and "foreign subsidiaries" in plain
    assert "pile" not in plain and "overseas" not in plain
    phrase = measure_asked(OVERSEAS, [CO]).phrase
    assert "cash" in phrase and "foreign subsidiaries" in phrase


def test_cash_sitting_overseas_asks_a_share_of_the_whole() -> None:
    """A part of the whole held somewhere: a report states it as a share as often as an amount."""
    assert read_query(OVERSEAS, [CO]).share_of is True


# --- 10. a judged metric of a part of a year is dated by that part ------------------------------------------------

FIRST_HALF = ("Condensed consolidated statements of cash flows (In millions)\nSix months ended June 30, 2023\n"
              "Net cash provided by operating activities 1,240\nCapital expenditures (310)\n"
              "Repurchases of common stock (1,020)")


def _cover_state(question: str, rate: float, period: str | None) -> dict:
    report = Block(n=1, kind="report", header=f"[1] {CO} 2023 Q2 p.8 [table]", source_id="HW_2023Q2_10Q:p8",
                   chunk_id="HW_2023Q2_10Q:p8::0", company=CO, fiscal_year=2023, page=8, text=FIRST_HALF)

    def fig(label: str, value: float) -> Figure:
        return Figure(label=label, value=value, unit="$m", company=CO, fiscal_year=2023, period=period,
                      source_id="HW_2023Q2_10Q:p8", chunk_id="HW_2023Q2_10Q:p8::0")

    inputs = {"cfo_2023": fig("Net cash provided by operating activities", 1240),
              "capex_2023": fig("Capital expenditures", -310),
              "share_repurchases_2023": fig("Repurchases of common stock", -1020)}
    cover = CalcResult(tool="metric", inputs={k: f.value for k, f in inputs.items()}, result=rate, unit="%",
                       expression="(1240 - 310) / 1020 * 100", sources=dict(inputs),
                       formula="free cash flow cover of buybacks = (cash from operations - capex) / share repurchases")
    calc = Block(n=2, kind="calculation", header="[2] calculation (ok)", source_id="calculation",
                 text=f"metric: (1240 - 310) / 1020 * 100 = {rate}%")
    return {"question": question, "companies": [CO], "fiscal_years": [2023], "blocks": [report, calc],
            "decision": RouteDecision(needs_retrieval=True, needs_calculation=True),
            "calculation": CalculationOutcome(status="ok", results=[cover])}


def test_a_judged_cover_of_the_first_half_is_dated_by_the_half() -> None:
    """Free cash flow of $930m against buybacks of $1,020m in the six months ended June 30, 2023 (91.18%): 'No.',
    dated 'in the six months ended 30 June 2023', not 'in FY2023'."""
    draft = compose_offline(_cover_state(COVER_BUYBACKS, 91.18, "6M 2023-06-30"))
    assert draft.startswith("No."), draft
    assert "91.18% in the six months ended 30 June 2023" in draft, draft
    assert "in FY2023" not in draft, draft


def test_a_judged_cover_of_a_whole_year_is_still_dated_by_the_year() -> None:
    """The same cover read from inputs with no part of the year is dated 'in FY2023'; a cover over 100% is
    'Yes.'."""
    draft = compose_offline(_cover_state(COVER_BUYBACKS, 112.5, None))
    assert draft.startswith("Yes."), draft
    assert "112.50% in FY2023" in draft, draft
