"""Two companies' growth compared ('Whose operating profit grew faster, X's or Y's?'): each one's rate as its
report states it, under whatever name the report gives the line item ('operating income increased 13.6%'), else
the rate the calculator works out from its two years' amounts; a figure that is a share of the measure ('a
conversion rate of 88.9% of EBITDA') is no growth of it.

Every company and figure here is made up (Ternline and Osprey).
"""

from __future__ import annotations

import pytest

from app.calc_tools import Figure
from app.evidence import Evidence
from app.facts.prose import states_change
from app.facts.query import asks_growth, each_growth, facts_for, level_query, read_query
from app.facts.selection import relevant_figures
from app.models.providers.offline.calculator import plan_tool_calls
from app.models.providers.offline.composer.answer import compose_offline
from app.text.measures import measure_asked
from app.turns import Block

COMPANIES = ["Ternline", "Osprey"]

TERNLINE = """Ternline Group — Annual Report FY2024 — FY2024 at a glance
| Measure | FY2024 | FY2023 | Change |
|---|---|---|---|
| Revenue (£m) | 1,311.2 | 1,204.6 | +8.8% |
| Operating profit (£m) | 87.8 | 76.5 | +14.8% |
| EBITDA (£m) | 151.7 | 134.7 | — |"""

OSPREY_CHAIR = """Osprey Inc. — Annual Report FY2024 — Chair's statement
Revenue rose 10.7% to $949.3m, operating income increased 13.6% to $86.2m and the operating margin widened to 9.1%.
Operating cash flow before interest and taxes was $118.8m, a conversion rate of 88.9% of adjusted EBITDA (FY2023: 82.3%)."""

OSPREY_TABLE = """Osprey Inc. — Annual Report FY2024 — Summary income statement
| $m | FY2024 | FY2023 |
|---|---|---|
| Revenue | 949.3 | 857.7 |
| Adjusted EBITDA | 133.7 | 117.2 |
| Operating income | 86.2 | 75.9 |"""


def _ev(company: str, text: str, n: int) -> Evidence:
    return Evidence(source_id=f"{company.lower()}-fy2024.md", chunk_id=f"{company.lower()}-fy2024.md::x::{n}",
                    text=text, company=company, fiscal_year=2024, title=text.split(" — ")[0],
                    section=text.splitlines()[0].rsplit(" — ", 1)[-1], doc_type="report")


DOCS = [_ev("Ternline", TERNLINE, 1), _ev("Osprey", OSPREY_CHAIR, 2), _ev("Osprey", OSPREY_TABLE, 3)]


@pytest.mark.parametrize("question, phrase", [
    ("Whose operating profit grew faster in FY2024, Ternline's or Osprey's?", "operating profit growth"),
    ("Which grew its net profit faster in FY2024, Ternline or Osprey?", "net profit growth"),
    ("Which company's revenue increased more quickly in FY2024, Ternline or Osprey?", "revenue growth"),
])
def test_a_faster_growth_asks_each_companys_growth_of_the_measure(question: str, phrase: str) -> None:
    asked = measure_asked(question, COMPANIES)
    assert asked.phrase == phrase  # never "'s revenue growth"
    query = read_query(question, COMPANIES)
    assert asks_growth(query)
    assert level_query(query).measure.phrase == phrase.removesuffix(" growth")


def test_a_rate_stated_under_the_line_items_other_name_is_read() -> None:
    query = read_query("Whose operating profit grew faster in FY2024, Ternline's or Osprey's?", COMPANIES)
    osprey = [f for f in facts_for(query, DOCS, COMPANIES) if f.figure.company == "Osprey"]
    assert 13.6 in {f.figure.value for f in osprey if f.figure.unit == "%"}
    chosen = each_growth(query, DOCS, COMPANIES)
    assert [(f.figure.company, f.figure.value, f.figure.unit) for f in chosen] == [
        ("Ternline", 14.8, "%"), ("Osprey", 13.6, "%")]


def test_without_a_stated_rate_each_company_gets_its_two_years_amounts() -> None:
    query = read_query("Whose EBITDA grew faster in FY2024, Ternline's or Osprey's?", COMPANIES)
    chosen = each_growth(query, DOCS, COMPANIES)
    # the 88.9% is a share of EBITDA and the $118.8m operating cash flow: neither is EBITDA's growth or level
    assert [(f.figure.company, f.figure.fiscal_year, f.figure.value) for f in chosen] == [
        ("Ternline", 2023, 134.7), ("Ternline", 2024, 151.7), ("Osprey", 2023, 117.2), ("Osprey", 2024, 133.7)]
    # the calculator works out both rates, each company's label its own
    figures = [f.figure for f in chosen]
    assert {f.label for f in relevant_figures("whose ebitda grew faster", figures)} == {"EBITDA", "Adjusted EBITDA"}
    plan = plan_tool_calls("Whose EBITDA grew faster in FY2024, Ternline's or Osprey's?", figures)
    assert sorted(args["new"] for tool, args in plan if tool == "growth_rate") == [133.7, 151.7]


@pytest.mark.parametrize("sentence, value, change", [
    ("Operating income increased 13.6% to $86.2m.", 13.6, True),
    ("Revenue increased by €60.1m, or 4.9%, to €1,288.7m.", 4.9, True),
    ("Sales were up 4.2% on the prior year.", 4.2, True),
    ("The operating margin widened to 9.1%.", 9.1, False),
    ("Cash conversion was 96.9% of EBITDA.", 96.9, False),
])
def test_a_figure_is_a_change_only_where_its_sentence_words_it_so(sentence: str, value: float, change: bool) -> None:
    assert states_change(sentence, value) is change


def _block(n: int, doc: Evidence) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {doc.company} FY2024", text=doc.text, source_id=doc.source_id,
                 chunk_id=doc.chunk_id, company=doc.company, fiscal_year=2024)


def test_the_answer_names_the_faster_and_cites_each_rate() -> None:
    blocks = [_block(i + 1, d) for i, d in enumerate(DOCS)]
    state = {"question": "Whose operating profit grew faster in FY2024, Ternline's or Osprey's?",
             "companies": COMPANIES, "fiscal_years": [2024], "blocks": blocks}
    answer = compose_offline(state)
    assert answer.startswith("Ternline's operating profit grew faster than Osprey's operating profit in FY2024: "
                             "up 14.8% against up 13.6%")
    assert "[1]" in answer and "[2]" in answer
    # the other way round when the rates are
    state["blocks"] = [_block(1, DOCS[0].model_copy(update={"text": TERNLINE.replace("+14.8%", "+11.0%")})),
                       *blocks[1:]]
    assert compose_offline(state).startswith("Osprey's operating profit grew faster than Ternline's")


def test_how_much_higher_a_ratio_is_asks_the_difference_of_the_two_ratios() -> None:
    question = "How much higher was Ternline's FY2024 dividend payout ratio than Osprey's?"
    figures = [Figure(label="payout ratio", value=v, unit="%", company=c, fiscal_year=2024, source_id=c)
               for c, v in (("Ternline", 51.0), ("Osprey", 40.5))]
    # 'Payout ratio' is the dividend payout ratio; the measure's own 'ratio' asks no ratio of the two
    assert plan_tool_calls(question, figures) == [("difference", {"a": 51.0, "b": 40.5})]
    # a label that leaves out a word and adds one of its own is another measure
    assert plan_tool_calls("How much higher was Ternline's FY2024 net income than Osprey's?",
                           [f.model_copy(update={"label": "Operating income"}) for f in figures]) == []


@pytest.mark.parametrize("question", [
    "Did Ternline's net revenues grow in the second quarter of FY2024 compared with the prior-year quarter?",
    "Did Ternline's net revenues grow in Q2 FY2024 compared with the year-ago quarter?",
    "Did Ternline's net revenues grow in Q2 FY2024 compared with the same quarter last year?",
])
def test_the_period_compared_with_is_no_part_of_the_measure(question: str) -> None:
    assert measure_asked(question, COMPANIES).phrase == "net revenues"  # never 'net revenues prior-' or '… ago'
