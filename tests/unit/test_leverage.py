"""An expense as a percent of sales, rising or falling, read from how reports word operating leverage
(app/facts/leverage.py, composer/analyst.leverage_answer): 'deleverage of store payroll … due to wage investments'
says wages rose as a share of sales; 'leverage of marketing expenses' that marketing fell."""

from __future__ import annotations

from app.facts.leverage import expense_stems, leverage_direction
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

YEAR = ("As a percentage of net sales, SG&A expenses decreased to 21.4% compared to 22.0% in fiscal 2024, primarily "
        "due to leverage of advertising expenses due to higher sales, partially offset by deleverage of store "
        "payroll and benefits due to wage investments.")
QUARTER = ("As a percentage of net sales, SG&A expenses increased to 24.1% in the fourth quarter of fiscal 2024, "
           "primarily due to deleverage of advertising expenses and leverage of store payroll.")


def test_the_expense_asked_and_the_direction_its_leverage_clause_says():
    assert expense_stems("Did Brightwell's wages expense as a percent of net sales increase in FY2025?") == {"wage"}
    assert expense_stems("Did advertising costs as a percentage of revenue fall?") == {"advertis"}
    assert leverage_direction(YEAR, {"wage"}) == 1
    assert leverage_direction(YEAR, {"advertis"}) == -1
    assert leverage_direction(YEAR, {"rent"}) is None


def _answer(question: str) -> list[str]:
    blocks = [Block(n=1, kind="report", header="[1] Brightwell FY2025", text=f"{QUARTER} {YEAR}", source_id="b1",
                    chunk_id="b1::0", company="Brightwell", fiscal_year=2025)]
    return Analyst({"blocks": blocks, "companies": ["Brightwell"], "fiscal_years": [2025]}, question).sentences()


def test_a_yes_no_on_an_expense_share_answers_from_the_years_leverage_clause_not_the_quarters():
    out = _answer("Did Brightwell's wages expense as a percent of net sales increase or decrease in FY2025?")
    assert out[0].startswith("Increase. Wages expense rose as a percent of net sales (the report says it "
                             "deleveraged)")
    assert "fiscal 2024, primarily due to leverage of advertising" in out[0] and "fourth quarter" not in out[0]
    assert _answer("Did Brightwell's advertising expense as a percent of net sales increase in FY2025?")[0].startswith(
        "No. Advertising expense fell")
    assert _answer("Did Brightwell's rent expense as a percent of net sales increase in FY2025?") == []


def test_the_change_in_a_shares_denominator_is_no_answer_about_the_share():
    from app.calc_tools import CalcResult, Figure

    old = Figure(label="Net sales", value=8630889, unit="$k", company="Brightwell", fiscal_year=2024,
                 source_id="b2", chunk_id="b2::0")
    new = old.model_copy(update={"value": 10208580, "fiscal_year": 2025})
    result = CalcResult(tool="difference", inputs={"a": 10208580, "b": 8630889}, result=1577691.0,
                        expression="10208580 - 8630889", sources={"a": new, "b": old})
    analyst = Analyst({"blocks": [], "companies": ["Brightwell"], "fiscal_years": [2025]},
                      "Did Brightwell's wages expense as a percent of net sales increase or decrease in FY2025?")
    assert not analyst.result_asked(result)  # net sales grew: nothing said of wages' share of them
    wages = result.model_copy(update={"sources": {"a": new.model_copy(update={"label": "Wages expense"}),
                                                  "b": old.model_copy(update={"label": "Wages expense"})}})
    assert analyst.result_asked(wages)
    assert Analyst({"blocks": [], "companies": ["Brightwell"]}, "How much did Brightwell's net sales grow in FY2025?"
                   ).result_asked(result)
    claims = ["Brightwell's operating income (as a percentage of net sales) was 13.9% in FY2025 [1]."]
    assert analyst.on_topic(claims) == []


def test_a_quarters_leverage_clause_counts_only_for_a_quarter_asked():
    from app.facts.leverage import leverage_sentences

    assert leverage_sentences(f"{QUARTER} {YEAR}", {"wage"}) == [(YEAR, 1)]
    assert [d for _, d in leverage_sentences(f"{QUARTER} {YEAR}", {"advertis"}, quarter_asked=True)] == [1, -1]
    assert leverage_sentences(QUARTER, {"wage"}) == []


def test_the_years_leverage_clause_is_searched_for_when_search_admitted_only_the_quarters():
    from app.evidence import Evidence
    from nodes.inputs import leverage_check

    quarter = Evidence(chunk_id="b-p2-0", source_id="BRIGHTWELL_2025Q4_EARNINGS:p2", company="Brightwell",
                       fiscal_year=2025, page=2, score=0.4, text=QUARTER.replace("leverage of store payroll",
                                                                                  "leverage of wages"))
    year = quarter.model_copy(update={"chunk_id": "b-p2-1", "text": YEAR})
    asked: list = []

    def mentions(company: str, groups: list[list[str]]) -> list[Evidence]:
        asked.append(groups)
        return [quarter, year]

    question = "Did Brightwell's wages expense as a percent of net sales increase or decrease in FY2025?"
    state = {"question": question, "companies": ["Brightwell"], "fiscal_years": [2025], "graded": [quarter],
             "unheld": {}}
    found = leverage_check(state, mentions)  # type: ignore[arg-type]
    assert [d.chunk_id for d in found] == ["b-p2-1"] and found[0].score == 0.4
    assert ["wage"] in asked[0]
    # held already, or asked of a quarter (the quarter's clause answers), or no share of sales asked: no search
    assert leverage_check({**state, "graded": [year]}, mentions) == []  # type: ignore[arg-type]
    assert leverage_check({**state, "question": question.replace("in FY2025", "in the fourth quarter of FY2025")},
                          mentions) == []  # type: ignore[arg-type]
    assert leverage_check({**state, "question": "Did Brightwell's wages increase in FY2025?"},
                          mentions) == []  # type: ignore[arg-type]
