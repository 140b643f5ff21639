"""Answers that fail closed rather than answer another question, and words reports use for sales: a ranking of one
company's parts is never answered by the company's own metric; a margin's base ('on its turnover') is no line item
asked; 'turnover' is sales (one way: sales are no turnover ratio); a basis said first ('On the recast figures …,')
is no part of the measure; owning asked as a verb is a word a yes/no's sentence must say.

Every company, page and figure here is made up (Tessaly Stores, a retailer; Orrin Games, a games publisher)."""

from __future__ import annotations

from app.calc_tools import CalcResult, CalculationOutcome, Figure
from app.facts.query import read_query
from app.models.providers.offline.composer import compose_offline
from app.routing.decision import RouteDecision
from app.text.measures import measure_asked
from app.text.question_kinds import read_ask
from app.text.terms import kindred_in
from app.turns import Block

CO = "Tessaly Stores"


def _report(text: str, n: int = 1, company: str = CO) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {company} FY2021 p.25", text=text, source_id="TSS_2021_10K:p25",
                 chunk_id="TSS_2021_10K:p25::a::0", company=company, fiscal_year=2021, page=25)


def test_a_ranking_of_one_companys_parts_is_never_answered_by_the_companys_own_metric() -> None:
    question = f"Which of {CO}'s geographic segments earns the best operating margin on its turnover?"
    report = _report("CONSOLIDATED STATEMENTS OF INCOME (amounts in millions)\n2021 2020\n"
                     "Total revenue $ 195,929 $ 166,761\nOperating income 6,708 5,435\n")
    co_fig = {"operating_income_2021": Figure(label="Operating income", value=6708, unit="$m", company=CO,
                                              fiscal_year=2021, source_id="TSS_2021_10K:p25"),
              "revenue_2021": Figure(label="Total revenue", value=195929, unit="$m", company=CO, fiscal_year=2021,
                                     source_id="TSS_2021_10K:p25")}
    margin = CalcResult(tool="metric", inputs={k: f.value for k, f in co_fig.items()}, result=3.42, unit="%",
                        expression="(6708 / 195929) * 100", sources=dict(co_fig),
                        formula="operating margin = operating income / revenue")
    calc = Block(n=2, kind="calculation", header="[2] calculation (ok)", source_id="calculation",
                 text="metric: (6708 / 195929) * 100 = 3.42%")
    state = {"question": question, "companies": [CO], "fiscal_years": [], "blocks": [report, calc],
             "decision": RouteDecision(needs_retrieval=True, needs_calculation=True),
             "calculation": CalculationOutcome(status="ok", results=[margin])}
    assert read_ask(question).kind == "extreme"
    draft = compose_offline(state)
    assert "3.42%" not in draft and draft.startswith("Insufficient evidence"), draft


def test_the_sales_a_margin_is_of_are_no_line_item_asked() -> None:
    query = read_query(f"Which of {CO}'s geographic segments earns the best operating margin on its turnover?", [CO])
    assert "margin" in query.stems and "revenue" not in query.items
    # a plain question about turnover still asks the revenue line
    assert read_query(f"What was {CO}'s turnover in 2021?", [CO]).kind == "money"


def test_turnover_is_sales_one_way_only() -> None:
    assert kindred_in("turnov", {"sale"}) and kindred_in("turnov", {"revenu"})
    assert not kindred_in("sale", {"turnov"})  # a question about sales is none about a turnover ratio
    assert read_query(f"Did {CO}'s international turnover grow in 2021?", [CO]).kind == "money"
    assert read_query(f"What was {CO}'s inventory turnover in 2021?", [CO]).kind == "ratio"


def test_a_basis_said_first_is_no_part_of_the_measure_nor_of_the_kind_asked() -> None:
    question = (f"On the recast continuing-operations figures {CO} published after the spin-off, did its "
                "international turnover grow in 2021?")
    assert read_ask(question).kind == "yes_no_change"
    assert measure_asked(question, [CO]).phrase == "international turnover"


def test_owning_asked_as_a_verb_must_be_said_by_the_yes_sentence() -> None:
    co = "Orrin Games"
    question = f"Does {co} own any of its real estate, or is it all leased?"
    lease = _report("For our real estate, server and data center leases, we elected the practical expedient to "
                    "account for the lease and non-lease components as a single lease component.", company=co)
    state = {"question": question, "companies": [co], "fiscal_years": [], "blocks": [lease],
             "decision": RouteDecision(needs_retrieval=True)}
    draft = compose_offline(state)
    assert not draft.startswith("Yes"), draft
    owned = _report("We own two distribution warehouses in Europe; all of our other real estate is leased.",
                    company=co)
    draft = compose_offline({**state, "blocks": [owned]})
    assert "own two distribution warehouses" in draft, draft


def test_the_measure_a_part_absorbed_the_most_of_is_ranked_across_the_parts() -> None:
    co = "Orrin Games"
    question = f"Which part of {co} absorbed the most restructuring cost in 2019?"
    assert read_query(question, [co]).measure.phrase == "restructuring cost"
    table = _report("Total restructuring and related costs by segment are (amounts in millions):\n"
                    "Year Ended December 31, 2019\nConsole $ 19\nMobile 68\nPC 20\nOther segments (1) 25\n"
                    "Total $ 132\n", company=co)
    table = table.model_copy(update={"fiscal_year": 2019, "header": f"[1] {co} FY2019 p.112"})
    draft = compose_offline({"question": question, "companies": [co], "fiscal_years": [2019], "blocks": [table],
                             "decision": RouteDecision(needs_retrieval=True)})
    assert draft.startswith("Mobile had the highest restructuring cost in FY2019: $68m [1]."), draft


def test_what_a_borrower_pays_to_keep_a_credit_line_available_is_its_commitment_fee() -> None:
    from app.text.measures import conventional_measure

    question = f"What is {CO} paying its banks to keep the new 364-day revolver available while it sits undrawn?"
    assert conventional_measure(question) == "commitment fee"
    assert measure_asked(question, [CO]).phrase == "commitment fee"
    assert conventional_measure(f"How much did {CO} pay in dividends in 2021?") is None
