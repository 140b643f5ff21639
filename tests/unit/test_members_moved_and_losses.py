"""'Which region's net sales fell?', 'Which division ended the year with an operating loss?', and the 10-Q table
whose years each head the same group of named columns.

A fictional filer, Brantwood Packaging, reports net sales by region under 'Three Months Ended March 31,' with
'2025 2024' over 'Cartons Films Total Cartons Films Total'; its division table gives operating profit/(loss)."""

from __future__ import annotations

from app.facts.query import read_query
from app.models.providers.offline.composer import compose_offline
from app.text.question_kinds import read_ask
from app.text.statements import dayed_year_rows, year_grouped_rows
from app.turns import Block

_REGIONS = """The following tables disaggregate net sales, excluding intersegment sales, by geography in which the
Company operates:
Three Months Ended March 31,
2025 2024
($ in millions) Cartons Films Total Cartons Films Total
North America $ 1,092 $ 623 $ 1,715 $ 1,030 $ 609 $ 1,639
Latin America 269 207 476 251 185 436
Europe 1,030 — 1,030 985 — 985
Asia Pacific 421 — 421 447 — 447
Net sales $ 2,812 $ 830 $ 3,642 $ 2,713 $ 794 $ 3,507
"""

_DIVISIONS = """Net Revenue and Operating Profit/(Loss)
Net revenue and operating profit/(loss) of each division are as follows (in millions):
 Net Revenue Operating Profit/(Loss)
 2025 2024 2025 2024
Northern $ 23,291 $ 19,608 $ 6,135 $ 5,633
Coastal 3,160 2,751 604 578
Eastern 12,724 13,038 (1,380) 1,292
Western 6,438 6,078 666 858
Total division 45,613 41,475 6,025 8,361
"""


def _answer(question: str, text: str, year: int) -> str:
    block = Block(n=1, kind="report", header=f"[1] Brantwood Packaging FY{year}, p.12 [text]",
                  source_id="brantwood-2025.pdf:p12", chunk_id="brantwood-2025.pdf:p12::0",
                  company="Brantwood Packaging", fiscal_year=year, page=12, text=text)
    return compose_offline({"question": question, "companies": ["Brantwood Packaging"], "fiscal_years": [year],
                            "blocks": [block]})


def test_years_heading_the_same_group_of_named_columns_give_each_row_its_total_per_period() -> None:
    rows = {r.line_item: r for r in year_grouped_rows(_REGIONS) if r.columns is None}
    assert rows["Asia Pacific"].values == [421.0, 447.0]
    assert rows["North America"].values == [1715.0, 1639.0]
    assert len(rows["Europe"].periods) == 2 and rows["Europe"].periods[0].startswith("3M 2025")
    assert rows["Europe"].title and "net sales" in rows["Europe"].title


def test_a_part_asked_by_how_its_figure_moved_is_a_ranking_of_the_changes() -> None:
    fell = read_ask("In its first quarter of 2025, which region's net sales fell from a year earlier?")
    assert (fell.kind, fell.extreme, fell.of_change) == ("extreme", -1, True)
    assert read_ask("Which segment's revenue grew in 2025?").extreme == 1
    assert read_query("Which region's net sales fell in 2025?").measure.phrase == "net sales"


def test_the_region_whose_quarterly_sales_fell_is_named_with_both_figures() -> None:
    answer = _answer("In the first quarter of Brantwood Packaging's 2025 (three months ended March 31, 2025), which "
                     "region's net sales fell from a year earlier?", _REGIONS, 2025)
    assert answer.startswith("Asia Pacific"), answer
    assert "$447m" in answer and "$421m" in answer and "[1]" in answer


def test_the_division_with_an_operating_loss_is_named_and_the_loss_said_as_a_loss() -> None:
    ask = read_ask("Which of Brantwood Packaging's divisions ended 2025 with an operating loss?")
    assert (ask.kind, ask.extreme, ask.topic) == ("extreme", -1, "loss")
    answer = _answer("Which of Brantwood Packaging's divisions ended 2025 with an operating loss, and how big was it?",
                     _DIVISIONS, 2025)
    assert answer.startswith("Eastern had an operating loss in FY2025, the only one"), answer
    assert "1,380" in answer and "-1,380" not in answer
    none = _answer("Which of Brantwood Packaging's divisions made an operating loss in 2024?", _DIVISIONS, 2024)
    assert none.startswith("None had an operating loss in FY2024: Coastal had the lowest operating profit"), none


def test_which_of_two_lines_grew_faster_when_the_question_is_set_first_and_asks_why_after() -> None:
    text = ("Research and development expenses of $650.8 million increased by $178.5 million, or 38%, during 2025, "
            "from $472.3 million in 2024, primarily due to higher personnel-related costs.\nGeneral and "
            "administrative expenses of $407.3 million increased by $137.6 million, or 51%, during 2025, from "
            "$269.7 million in 2024, primarily due to a $120.1 million increase in personnel-related costs.")
    answer = _answer("At Brantwood Packaging in 2025, which grew faster: research and development spending or "
                     "general and administrative expenses, and what mainly drove the faster-growing one?", text, 2025)
    assert answer.startswith("General and administrative expenses grew faster than Research and development "
                             "expenses in 2025: up 51.0% against up 38.0%"), answer
    assert "$120.1 million increase in personnel-related costs" in answer


_RECONCILED = """Twelve Months Ended June 30, 2024 Twelve Months Ended June 30, 2025
($ million) Cartons
Rigid
Films Other Total Cartons
Rigid
Films Other Total
Net income attributable to Brantwood  805  1,048
Net income attributable to non-
controlling interests  10  10
Tax expense  300  193
EBIT  1,101  265  (116)  1,250  1,357  225  (72)  1,510
Amortization of acquired intangibles  158  5  —  163  155  5  —  160
Adjusted EBIT  1,517  289  (105)  1,701  1,429  265  (86)  1,608"""


def test_periods_titled_on_one_line_over_wrapped_names_give_the_known_member_and_the_total() -> None:
    rows = year_grouped_rows(_RECONCILED, ["Cartons"])
    ebit = {tuple(r.columns or ()): r.values for r in rows if r.line_item == "EBIT"}
    assert ebit[("Cartons", "Cartons")] == [1101.0, 1357.0]
    assert ebit[()] == [1250.0, 1510.0]
    answer = _answer("Before Brantwood Packaging's adjustments, how much EBIT did its Cartons segment earn in the "
                     "fiscal year ended June 30, 2025?", _RECONCILED, 2025)
    assert "$1,357m in FY2025" in answer and "1,429" not in answer, answer


_QUARTERS = """13.
Selected Quarterly Financial Data (Unaudited)
December 31 September 30 June 30 March 31
(in thousands, except for per share data) 2025
Total revenues
$ 1,823,333 $ 1,738,355 $ 1,644,694 $ 1,573,129
Gross profit
573,968 564,397 522,942 526,728
Earnings per share:
Diluted
0.10 0.07 0.06 0.05 2024
Total revenues
$ 1,484,728 $ 1,409,432 $ 1,340,407 $ 1,270,089
Gross profit
470,396 455,038 425,559 400,903"""


def test_quarter_days_without_years_take_the_year_that_heads_their_block() -> None:
    rows = [(r.line_item, r.values[0], r.periods) for r in dayed_year_rows(_QUARTERS)]
    assert ("Gross profit", 573968.0, ["Q4 2025", "Q3 2025", "Q2 2025", "Q1 2025"]) in rows
    assert ("Gross profit", 470396.0, ["Q4 2024", "Q3 2024", "Q2 2024", "Q1 2024"]) in rows
    answer = _answer("What was Brantwood Packaging's gross profit in the third quarter of 2025?", _QUARTERS, 2025)
    assert "$564,397k in Q3 2025" in answer, answer
