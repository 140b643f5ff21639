"""A change between two periods is one series: never a share against an amount ('10.2%' of net sales against
$1,297,492k of operating income), never an earlier year read from a sentence about something else that gives
the later year another value (app/facts/query.two_periods). A yes/no on a change leads with Yes or No: from the
claim that states the measure's change, from the calculator's change, or not at all (the declared insufficient
answer), never a level pasted without a verdict (composer/analyst.Analyst).

Every company and figure here is made up (Kestrel Packaging).
"""

from __future__ import annotations

from app.calc_tools import CalcResult, Figure
from app.facts.query import Fact, read_query, two_periods
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Kestrel Packaging"


def _fact(value: float, unit: str, year: int, quote: str, label: str = "Operating income") -> Fact:
    figure = Figure(label=label, value=value, unit=unit, company=CO, fiscal_year=year, source_id="k", quote=quote)
    return Fact(figure=figure, origin="text", match=1.0)


def test_no_share_is_paired_with_an_amount():
    query = read_query(f"Did {CO}'s operating income increase in 2025?", [CO])
    share = _fact(10.2, "%", 2024, "Operating income (as a percentage of net sales) 13.9% 10.2%",
                  "Operating income (as a percentage of net sales)")
    amount = _fact(1297.5, "$m", 2025, "Operating income 1,297.5")
    assert two_periods([share, amount], query) is None
    earlier = _fact(1102.0, "$m", 2024, "Operating income 1,102.0")
    pair = two_periods([share, earlier, amount], query)
    assert pair is not None and pair[0].figure.value == 1102.0


def test_an_earlier_year_of_another_series_is_no_earlier_year_of_this_one():
    query = read_query(f"Did {CO}'s Films segment sales grow in 2025?", [CO])
    level = _fact(52.6, "$bn", 2025, "Films segment sales in 2025 were $52.6 billion, an increase of 1.7%.", "sales")
    reserve = "Adjustments to previous sales reserve estimates were $0.1 billion and $0.7 billion in 2025 and 2024."
    other = [_fact(0.1, "$bn", 2025, reserve, "sales"), _fact(0.7, "$bn", 2024, reserve, "sales")]
    assert two_periods([level, *other], query) is None
    # the same sentence giving both years is one series
    both = "Films segment sales were $52.6 billion in 2025 and $51.7 billion in 2024."
    pair = two_periods([_fact(52.6, "$bn", 2025, both, "sales"), _fact(51.7, "$bn", 2024, both, "sales")], query)
    assert pair is not None and (pair[0].figure.value, pair[1].figure.value) == (51.7, 52.6)


def _analyst(question: str) -> Analyst:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.30 [text]", text="", source_id="k",
                  chunk_id="k:p30::0", company=CO, fiscal_year=2025, page=30)
    return Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2025]}, question)


def test_the_claim_that_states_the_change_leads_with_the_answer():
    asked = _analyst(f"Did {CO}'s Films segment sales grow in 2025?")
    impact = "In 2025, acquisitions had a net negative impact of 0.1% on the operational sales growth of Films [1]."
    stated = "Films segment sales in 2025 were $52.6 billion, an increase of 1.7% from 2024 [1]."
    said = asked.on_topic([impact, stated])
    assert said[0] == f"Yes. {stated}" and said[1:] == [impact]
    # a claim that says no change of the measure answers nothing: the declared insufficient answer follows
    assert asked.on_topic([impact]) == []


def test_a_calculated_change_gives_the_yes_or_no():
    old = Figure(label="Revenues", value=8830.7, unit="$m", company=CO, fiscal_year=2024, source_id="k")
    new = old.model_copy(update={"value": 11692.7, "fiscal_year": 2025})
    growth = CalcResult(tool="growth_rate", inputs={"old": 8830.7, "new": 11692.7}, result=32.41, unit="%",
                        expression="(11692.7 - 8830.7) / 8830.7 * 100", sources={"old": old, "new": new})
    assert _analyst(f"Did {CO}'s revenues increase in 2025?").calculated_verdict([growth]) == "Yes."
    assert _analyst(f"Did {CO}'s revenues fall in 2025?").calculated_verdict([growth]) == "No."
    assert _analyst(f"What was {CO}'s revenue growth in 2025?").calculated_verdict([growth]) == ""
