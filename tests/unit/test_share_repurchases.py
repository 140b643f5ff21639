"""What a company spent buying back its shares in a quarter, as a release states it: 'repurchased approximately 11
million shares … for an aggregate amount of $352 million, pursuant to the March 2024 repurchase plan'. A program
named a plan is no forecast, and the number of shares between the verb and its noun does not part them. Every
company and figure here is made up."""

from __future__ import annotations

from app.facts.query import _FORWARD
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Corvane Resorts"
TEXT = ("Corvane Resorts Share Repurchases\n"
        "During the fourth quarter of 2024, the Company repurchased approximately 11 million shares of its common "
        "stock at an average price of $32.96 per share for an aggregate amount of $352 million, pursuant to the "
        "March 2024 repurchase plan. The remaining availability under the March 2024 repurchase plan was $475 "
        "million as of December 31, 2024.")


def test_a_program_named_a_plan_is_no_forecast() -> None:
    assert not _FORWARD.search("pursuant to the March 2024 repurchase plan")
    assert not _FORWARD.search("under the employee stock purchase plan")
    assert _FORWARD.search("we plan to open 40 stores") and _FORWARD.search("planned capital expenditure")


def test_the_amount_spent_on_buybacks_in_the_quarter_is_the_aggregate_amount() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024, p.6 [text]", text=TEXT,
                  source_id="CORVANERESORTS_2024Q4_EARNINGS:p6", chunk_id="CORVANERESORTS_2024Q4_EARNINGS:p6::0",
                  company=CO, fiscal_year=2024, page=6)
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024]},
                   "How much did Corvane Resorts spend repurchasing its shares in the fourth quarter of 2024?"
                   ).figure_answer()
    assert said and "$352m" in said[0] and "$32.96" not in said[0] and "$475" not in said[0], said
