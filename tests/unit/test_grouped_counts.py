"""A geographic table as PDF extraction writes it one cell a line, with three measures' groups of years: employees
at the year's end (a count), capital spending and net property (money), under '(Millions, except Employees)', one
name wrapped over two lines ('… net as of' / 'December 31,'). Each group is its own measure; the employees are
people, neither dollars nor millions; and 'Which area had the fewest employees?' ranks them. Ternmoor Industrial is
a fictional filer."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.question_kinds import read_ask
from app.text.statements import stacked_group_rows
from app.turns import Block

_PAGE = "\n".join([
    "Table of", "Contents", "Geographic Area Supplemental Information", "Employees as of December 31,",
    "Capital Spending", "Property, Plant and Equipment - net as of", "December 31,", "(Millions, except Employees)",
    "2025", "2024", "2025", "2024", "2025", "2024",
    "Americas", "41,000", " ", "43,000 ", "$", "1,210", " ", "$", "1,002 ", "$", "5,120", " ", "$", "4,980 ",
    "Asia Pacific", "16,500", " ", "16,000 ", "171", " ", "205 ", "1,288", " ", "1,402 ",
    "Europe, Middle East and Africa", "19,000", " ", "20,500 ", "230", " ", "318 ", "1,615", " ", "1,870 ",
    "Total Company", "76,500", " ", "79,500 ", "$", "1,611", " ", "$", "1,525 ", "$", "8,023", " ", "$", "8,252 ",
    "Employment:", "Employment decreased in 2025 when compared to 2024."])


def test_each_group_is_its_own_measure_and_the_headcount_is_no_money() -> None:
    rows = {(r.line_item, r.columns[0]): r for r in stacked_group_rows(_PAGE)}
    staff = rows[("Employees as of December 31,", "Asia Pacific")]
    assert staff.values == [16500.0, 16000.0] and staff.unit == "" and staff.scale is None
    spend = rows[("Capital Spending", "Asia Pacific")]
    assert spend.values == [171.0, 205.0] and spend.unit == "$" and spend.scale == "millions"
    net = rows[("Property, Plant and Equipment - net as of December 31,", "Americas")]
    assert net.values == [5120.0, 4980.0]


def test_fewest_asks_the_lowest_row() -> None:
    ask = read_ask("Which of Ternmoor's geographic areas had the fewest employees at the end of 2025?")
    assert ask.kind == "extreme" and ask.extreme == -1


def test_the_area_with_the_fewest_employees_leads() -> None:
    block = Block(n=1, kind="report", header="[1] Ternmoor Industrial FY2025, p.34 [text]",
                  source_id="TERNMOOR_2025_10K:p34", chunk_id="TERNMOOR_2025_10K:p34::0", company="Ternmoor Industrial",
                  fiscal_year=2025, page=34, text=_PAGE)
    answer = compose_offline({"question": "Which of Ternmoor Industrial's geographic areas had the fewest employees at "
                                          "the end of 2025?",
                              "companies": ["Ternmoor Industrial"], "fiscal_years": [2025], "blocks": [block]})
    first = answer.split(". ")[0]
    assert first.startswith("Asia Pacific") and "16,500" in first and "$" not in first, answer
    assert "Americas 41,000" in answer and "19,000" in answer  # the others, every row of the one table


def test_a_question_that_opens_with_in_which_is_no_lead_in() -> None:
    ask = read_ask("In which geographic area does Ternmoor Industrial operate the most manufacturing facilities, per "
                   "its 2025 10-K?")
    assert ask.kind == "extreme" and ask.extreme == 1
