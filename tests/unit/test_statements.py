"""app.text.statements: statement pages as pypdf extracts them, and totals stated in sentences.

Every statement here is made up (fictional companies, invented numbers), written in the layouts pypdf produces.
"""

from __future__ import annotations

import pytest

from app.text.statements import StatedTotal, Statement, StatementRow, read_stated_totals, read_statement

# One cell per line, blank separator lines, "$" on its own line, the label's values on the lines that follow.
CASH_FLOW = """Quillmark Industries and Subsidiaries
Consolidated Statement of Cash Flow s
Years ended December 31
 
(Millions)
 
2021
 
2020
 
2019
 
Cash Flows from Operating Activities
Net income including noncontrolling interest
 
$
2,418 
$
2,207 
$
1,996 
Depreciation and amortization
 
 
734 
 
702 
 
688 
Company pension contributions
 
 
(215) 
 
(96) 
 
(140) 
Purchases of property, plant and equipment (PP&E)
(903)
(851)
(799)
Proceeds from sale of businesses
—
 
41
 
—
"""

BALANCE_SHEET = """Ferncastle Retail Corp.
Consolidated Balance Sheets
(in thousands)
June 30, 2023  June 30, 2022
Assets
Cash and cash equivalents $ 48,120 $ 51,377
Total current assets 213,709 194,277
Goodwill - -
Senior notes due 2027 150,000 150,000
Total assets $ 402,114 $ 388,950
12
"""

INCOME = """Larkspur Software, Inc.
Consolidated Statements of Operations
(in millions, except per share data)
Fiscal Year Ended
January 31, 2024
January 31, 2023
Revenue (1)
$
4,850
$
4,102
Cost of revenue
(1,212)
(1,050)
Gross margin %
75.0 %
74.4 %
Net income (loss) $ 612 $ (88)
Earnings per share:
Basic
$
1.24
$
(0.18)
Diluted $ 1.21 $ (0.18)
Weighted-average shares outstanding
494
488
(1) Includes subscription revenue of $3,901 million in fiscal 2024.
"""


def row(statement: Statement, line_item: str) -> StatementRow:
    return next(r for r in statement.rows if r.line_item == line_item)


# --- the multi-line layout ----------------------------------------------------------------------------------


def test_multi_line_cash_flow_reads_years_scale_currency_and_rows():
    statement = read_statement(CASH_FLOW)
    assert (statement.periods, statement.scale, statement.currency) == (["FY2021", "FY2020", "FY2019"], "millions", "$")
    assert [(r.line_item, r.values) for r in statement.rows] == [
        ("Net income including noncontrolling interest", [2418.0, 2207.0, 1996.0]),
        ("Depreciation and amortization", [734.0, 702.0, 688.0]),
        ("Company pension contributions", [-215.0, -96.0, -140.0]),
        ("Purchases of property, plant and equipment (PP&E)", [-903.0, -851.0, -799.0]),
        ("Proceeds from sale of businesses", [0.0, 41.0, 0.0]),
    ]


def test_multi_line_rows_carry_periods_unit_scale_and_their_cells_on_one_line():
    first = read_statement(CASH_FLOW).rows[0]
    assert first == StatementRow(
        line_item="Net income including noncontrolling interest", values=[2418.0, 2207.0, 1996.0],
        periods=["FY2021", "FY2020", "FY2019"], unit="$", scale="millions",
        raw="Net income including noncontrolling interest $ 2,418 $ 2,207 $ 1,996")


def test_a_negative_split_over_three_lines_and_a_wrapped_label():
    text = ("(Millions)\n2022\n2021\nAccrued benefit cost for retirees and\nformer employees\n(\n52\n)\n(\n1,059\n)\n"
            "Current liabilities\n$\n(\n14\n)\n$\n—\n")
    statement = read_statement(text)
    assert [(r.line_item, r.values, r.periods) for r in statement.rows] == [
        ("Accrued benefit cost for retirees and former employees", [-52.0, -1059.0], ["FY2022", "FY2021"]),
        ("Current liabilities", [-14.0, 0.0], ["FY2022", "FY2021"]),
    ]


# --- one-line rows ------------------------------------------------------------------------------------------


def test_one_line_rows_with_dated_columns_thousands_and_dash_zero():
    statement = read_statement(BALANCE_SHEET)
    assert (statement.periods, statement.scale, statement.currency) == (["2023-06-30", "2022-06-30"], "thousands", "$")
    assert [(r.line_item, r.values) for r in statement.rows] == [
        ("Cash and cash equivalents", [48120.0, 51377.0]),
        ("Total current assets", [213709.0, 194277.0]),
        ("Goodwill", [0.0, 0.0]),
        ("Senior notes due 2027", [150000.0, 150000.0]),  # a year in the label is no value
        ("Total assets", [402114.0, 388950.0]),  # the page number below it is no third value
    ]
    assert row(statement, "Total assets").raw == "Total assets $ 402,114 $ 388,950"


def test_unit_line_scales_money_but_not_per_share_or_percent_rows():
    statement = read_statement(INCOME)
    assert statement.periods == ["FY2024", "FY2023"]  # "Fiscal Year Ended January 31, 2024": fiscal 2024
    assert [(r.line_item, r.values, r.unit, r.scale) for r in statement.rows] == [
        ("Revenue", [4850.0, 4102.0], "$", "millions"),  # "(1)" is a footnote mark, not minus one
        ("Cost of revenue", [-1212.0, -1050.0], "$", "millions"),
        ("Gross margin", [75.0, 74.4], "%", None),  # its cells are percentages
        ("Net income (loss)", [612.0, -88.0], "$", "millions"),
        ("Basic earnings per share", [1.24, -0.18], "$ per share", None),
        ("Diluted earnings per share", [1.21, -0.18], "$ per share", None),
        ("Weighted-average shares outstanding", [494.0, 488.0], "shares", "millions"),
    ]


def test_footnote_letters_are_dropped_from_labels_and_values():
    text = "(in millions)\n2020 2019\nRevenue (a) 2,345 (a) 2,101\nOther income* 12 (b) 9"
    assert [(r.line_item, r.values) for r in read_statement(text).rows] == [
        ("Revenue", [2345.0, 2101.0]), ("Other income", [12.0, 9.0])]


def test_euro_and_except_share_data():
    text = "(€ in thousands, except share data)\n2021 2020\nRevenue 9,870 9,120\nShares outstanding 41,200 40,950"
    statement = read_statement(text)
    assert statement.currency == "€"
    assert [(r.unit, r.scale) for r in statement.rows] == [("€", "thousands"), ("shares", None)]


# --- headers ------------------------------------------------------------------------------------------------


def test_quarter_headers():
    text = ("(Dollars in millions)\nQ2 2023  Q1 2023  Q2 2022\nNet revenue $ 1,020 $ 998 $ 940\n"
            "Operating income 140 131 (12)")
    statement = read_statement(text)
    assert statement.periods == ["Q2 2023", "Q1 2023", "Q2 2022"]
    assert row(statement, "Operating income").values == [140.0, 131.0, -12.0]
    assert read_statement("Fourth Quarter\n2022\n2021\nNet sales 410 388").rows[0].periods == ["Q4 2022", "Q4 2021"]


def test_a_bare_quarter_above_the_years_names_their_columns_and_full_year_its_own_group():
    release = read_statement("Q2\n($ in Millions, except EPS) 2023 2022 % Change\nReported Sales $25,530 $24,020 6.3%")
    assert release.rows[0].periods == ["Q2 2023", "Q2 2022", "% change"]
    both = read_statement("  Q4  Full Year\nNon-GAAP* ($ in Millions, except EPS) 2022 2021 %  Change  2022 2021 "
                          "%  Change\nAdjusted Net Earnings $6,218 $5,678 9.5%  $27,038 $26,195 3.2%")
    assert both.rows[0].periods == ["Q4 2022", "Q4 2021", "% change", "FY2022", "FY2021", "% change"]
    assert both.rows[0].values[:5] == [6218.0, 5678.0, 9.5, 27038.0, 26195.0]


def test_three_and_six_months_ended_columns():
    text = ("(in millions)\nThree Months Ended   Six Months Ended\nJune 30,\n2023\n2022\n2023\n2022\n"
            "Net revenues $ 812 $ 790 $ 1,601 $ 1,522")
    statement = read_statement(text)
    assert statement.periods == ["3M 2023-06-30", "3M 2022-06-30", "6M 2023-06-30", "6M 2022-06-30"]
    assert statement.rows[0].values == [812.0, 790.0, 1601.0, 1522.0]


def test_a_date_followed_by_a_bare_year_on_one_line():
    text = "Three Months Ended December 31, 2022  2021\nDiluted earnings per share $ 0.71 $ (0.25)"
    statement = read_statement(text)
    assert statement.periods == ["3M 2022-12-31", "3M 2021-12-31"]
    assert (statement.rows[0].values, statement.rows[0].unit) == ([0.71, -0.25], "$ per share")


def test_percent_change_column_and_a_row_without_it():
    text = "($ in millions)\n2023 2022 % Change\nNet sales 1,200 1,000 20 %\nOperating expenses 300 310"
    statement = read_statement(text)
    assert statement.periods == ["FY2023", "FY2022", "% change"]
    assert [(r.values, r.periods) for r in statement.rows] == [
        ([1200.0, 1000.0, 20.0], ["FY2023", "FY2022", "% change"]), ([300.0, 310.0], ["FY2023", "FY2022"])]


def test_an_unlabelled_percent_column_is_left_out_of_the_alignment():
    statement = read_statement("(in millions)\n2023 2022\nNet sales 1,200 1,000 20%")
    assert (statement.rows[0].values, statement.rows[0].periods) == ([1200.0, 1000.0], ["FY2023", "FY2022"])


def test_a_second_header_starts_new_columns():
    text = "(in millions)\n2021 2020\nRevenue 10 9\nQuarterly data\nQ4 2021 Q3 2021 Q2 2021\nRevenue 3 2 2"
    statement = read_statement(text)
    assert statement.periods == ["FY2021", "FY2020"]
    assert [r.periods for r in statement.rows] == [["FY2021", "FY2020"], ["Q4 2021", "Q3 2021", "Q2 2021"]]


# --- rows that cannot be aligned ----------------------------------------------------------------------------


def test_a_row_whose_count_does_not_match_keeps_its_values_without_periods():
    text = "(in millions)\n2021 2020 2019\nOther items, net 12 (3)\nInterest expense 40 38 35"
    statement = read_statement(text)
    assert [(r.line_item, r.values, r.periods) for r in statement.rows] == [
        ("Other items, net", [12.0, -3.0], None),
        ("Interest expense", [40.0, 38.0, 35.0], ["FY2021", "FY2020", "FY2019"]),
    ]


def test_prose_and_markdown_tables_give_no_aligned_rows():
    text = ("Gross interest expense was $113 million for the quarter.\n| Measure | FY2024 |\n|---|---|\n"
            "| Revenue | 5 |\nWe employ about 1,200 people")
    statement = read_statement(text)
    assert statement.periods == [] and all(r.periods is None for r in statement.rows)


# --- totals stated in sentences -----------------------------------------------------------------------------


def test_a_total_for_a_june_year_end_is_dated_by_the_year_it_ends_in():
    totals = read_stated_totals("Revenue for the year ended 30 June 2024 was A$4,210 million, up 6%.")
    assert totals == [StatedTotal(label="Revenue", value=4210.0, currency="A$", scale="millions", year=2024,
                                  quote="Revenue for the year ended 30 June 2024 was A$4,210 million")]


def test_totals_with_scale_words_and_abbreviations():
    text = "Net sales were $1.2 billion in fiscal 2023. In the year we reported total revenue of £4.21bn."
    assert [(t.label, t.value, t.currency, t.scale, t.year) for t in read_stated_totals(text)] == [
        ("Net sales", 1.2, "$", "billions", 2023), ("Total revenue", 4.21, "£", "billions", None)]


def test_outlooks_and_figures_without_a_scale_are_not_totals():
    text = "For fiscal 2025 we expect revenue of $1.3 billion. Revenue was $412 in the shop."
    assert read_stated_totals(text) == []


def test_a_statement_is_rewritten_a_row_per_line_with_values_as_the_page_writes_them() -> None:
    from app.text.statements import readable_statement

    page = "\n".join(["Kestrel Tools Inc.", "Consolidated Statement of Cash Flows", "Years ended December 31",
                      "(Millions)", "2021", "2020", "Net income", "$", "1,204", "$", "1,118",
                      "Depreciation and amortization", "410", "398",
                      "Purchases of property, plant and equipment", "(812)", "(760)", "Dividends paid", "(300)", "—"])
    lines = readable_statement(page).splitlines()
    assert "Purchases of property, plant and equipment: 2021 (812); 2020 (760)" in lines
    assert "Net income: 2021 1,204; 2020 1,118" in lines
    assert readable_statement("Revenue grew 4% in 2021.") == "Revenue grew 4% in 2021."


# Each line ends with the next row's label and the following line starts with its values; a word broken at the
# line's end, cells written onto a label ('net161,985', 'enefits—') and header years on a label's line.
GLUED = """FERNHOLT, INC.
CONSOLIDATED BALANCE SHEETS
(in thousands, except share data)
 As of December 31,
  2024  2023 Assets
    Current assets:
    Cash and cash equivalents
 $ 1,822,705  $ 1,407,516 Short-term investments
 —  206,266 Other current assets
 436,215  160,302 Total current assets
 2,258,920  1,774,084 Non-current assets, n
et 9,371,050  6,274,511 Deferred revenue
 518,602  343,412 Level 3 instruments
 4 5 Proceeds from options exercised, net161,985  118,514 Excess tax b
enefits—  79,880 Total current liabilities
 5,466,312  4,586,657 Long-term debt
 6,499,432  3,364,311 Revenue recognised of $3,901 million in fiscal 2024 was deferred.
"""


def test_rows_whose_values_open_the_next_line_are_read_with_their_own_label():
    statement = read_statement(GLUED)
    assert statement.periods == ["2024-12-31", "2023-12-31"]
    rows = {r.line_item: r.values for r in statement.rows if r.periods}
    assert rows == {
        "Cash and cash equivalents": [1822705.0, 1407516.0],
        "Short-term investments": [0.0, 206266.0],
        "Other current assets": [436215.0, 160302.0],
        "Total current assets": [2258920.0, 1774084.0],
        "Non-current assets, n et": [9371050.0, 6274511.0],  # a word broken by the page stays broken
        "Deferred revenue": [518602.0, 343412.0],
        "Level 3 instruments": [4.0, 5.0],  # '3' inside a label and two small cells: one row, not two
        "Proceeds from options exercised, net": [161985.0, 118514.0],
        "Excess tax b enefits": [0.0, 79880.0],
        "Total current liabilities": [5466312.0, 4586657.0],
        "Long-term debt": [6499432.0, 3364311.0],
    }  # the closing sentence's '$3,901 million' is followed by a lower-case word: no row is cut there


def test_header_years_on_a_labels_line_still_name_the_columns():
    text = ("Years Ended December 31,\n2024\n2023 2022 Cash flows from operating activities:\nNet income\n"
            "$ 213,105  $ 375,446  $ (38,453) Depreciation\n84,212  75,598  60,961")
    statement = read_statement(text)
    assert statement.periods == ["FY2024", "FY2023", "FY2022"]
    assert [(r.line_item, r.values) for r in statement.rows] == [
        ("Net income", [213105.0, 375446.0, -38453.0]), ("Depreciation", [84212.0, 75598.0, 60961.0])]


def test_columns_named_twice_in_one_header_are_one_set_of_columns():
    text = ("Consolidated Statement of Income\nFiscal years ended December 31, 2024, December 26, 2023 and December 27, "
            "2022\n(in millions except per share amounts)\n2024 2023 2022\nNet Revenue $ 86,392 $ 79,474 $ 70,372\n"
            "Cost of sales 40,576 37,075 31,797")
    statement = read_statement(text)
    assert statement.periods == ["FY2024", "FY2023", "FY2022"]
    assert [(r.line_item, r.periods) for r in statement.rows] == [
        ("Net Revenue", ["FY2024", "FY2023", "FY2022"]), ("Cost of sales", ["FY2024", "FY2023", "FY2022"])]


def test_dot_leaders_between_a_label_and_its_cells_are_no_part_of_either():
    text = ("CONSOLIDATED BALANCE SHEETS\n(In thousands)\nNovember 27,\n2024\nNovember 28,\n2023\n"
            "Cash and cash equivalents.............................. $ 876,560 $ 1,117,400\n"
            "Total current assets....................................... 4,821,892 4,602,328")
    statement = read_statement(text)
    assert statement.periods == ["2024-11-27", "2023-11-28"]
    assert [(r.line_item, r.values) for r in statement.rows] == [
        ("Cash and cash equivalents", [876560.0, 1117400.0]), ("Total current assets", [4821892.0, 4602328.0])]


# --- annual reports outside the US: UK, Australia, Germany, Canada, Japan -------------------------------------

# UK style: each column's date split over two lines, the currency written under it ('£m'), a 'Note' column
# whose numbers stand before a row's values, and unlabelled subtotals under 'Non-current assets' and the like.
UK_BALANCE_SHEET = """Harrowgate Home Stores plc
Group balance sheet
As at 28 March 2026
 Note 28 March
2026
£m 29 March
2025
£m Non-current assets
Goodwill
 52.4  52.4 Property, plant and equipment
 140.2  151.7 Right-of-use assets
 18 206.5  219.0 
 399.1  423.1 Current assets
Inventories
 96.3  88.1 Trade and other receivables
 31.7  29.4 Cash and cash equivalents
 40.2  55.9 
 168.2  173.4 Total assets
 567.3  596.5 Current liabilities
Trade and other payables
 (122.6)  (118.0) Lease liabilities
 18 (41.5)  (44.2) 
 (164.1)  (162.2) Net current assets
 4.1  11.2 Equity
Share capital
 12.0  12.0 Retained earnings
 150.0  160.0 
 161.9  172.0 
Harrowgate Home Stores plc Annual Report 2026   71
"""


def test_uk_dated_columns_split_over_lines_with_the_currency_between_them():
    statement = read_statement(UK_BALANCE_SHEET)
    assert (statement.periods, statement.currency, statement.scale) == (["2026-03-28", "2025-03-29"], "£", "millions")
    rows = {r.line_item: (r.values, r.periods) for r in statement.rows if r.periods}
    assert rows["Goodwill"] == ([52.4, 52.4], ["2026-03-28", "2025-03-29"])
    assert rows["Right-of-use assets"] == ([206.5, 219.0], ["2026-03-28", "2025-03-29"])  # note 18 is no value
    assert rows["Lease liabilities"] == ([-41.5, -44.2], ["2026-03-28", "2025-03-29"])
    assert rows["Net current assets"] == ([4.1, 11.2], ["2026-03-28", "2025-03-29"])
    assert row(statement, "Goodwill").unit == "£"


def test_a_52_week_year_split_over_lines_is_a_fiscal_year_and_the_dating_line_is_no_column():
    text = ("Group income statement\nFor the 52 weeks ended 28 March 2026\n Note 52 weeks\nended\n28 March\n2026\n"
            "£m 52 weeks\nended\n29 March\n2025\n£m Revenue\n 2 912.4  877.0 Cost of sales\n (530.1)  (508.3) "
            "Gross profit\n 382.3  368.7")
    statement = read_statement(text)
    assert statement.periods == ["FY2026", "FY2025"]
    assert [(r.line_item, r.values, r.periods) for r in statement.rows] == [
        ("Revenue", [912.4, 877.0], ["FY2026", "FY2025"]),
        ("Cost of sales", [-530.1, -508.3], ["FY2026", "FY2025"]),
        ("Gross profit", [382.3, 368.7], ["FY2026", "FY2025"])]


def test_a_year_line_above_the_columns_and_a_note_column_in_one_cell_per_line_rows():
    text = ("For the year ended 31 December 2025\nNote\n2025\n$m\n2024\n$m\nRevenue\n4\n1,204.0\n1,150.5\n"
            "Other income\n31.0\n28.4")
    statement = read_statement(text)
    assert statement.periods == ["FY2025", "FY2024"]
    assert [(r.line_item, r.values, r.periods) for r in statement.rows] == [
        ("Revenue", [1204.0, 1150.5], ["FY2025", "FY2024"]), ("Other income", [31.0, 28.4], ["FY2025", "FY2024"])]


def test_unlabelled_subtotals_are_named_by_their_heading_when_they_add_up():
    statement = read_statement(UK_BALANCE_SHEET)
    totals = {r.line_item: (r.values, r.periods, r.raw) for r in statement.rows if r.line_item.startswith("Total")}
    assert totals == {
        "Total non-current assets": ([399.1, 423.1], ["2026-03-28", "2025-03-29"], "399.1 423.1"),
        "Total current assets": ([168.2, 173.4], ["2026-03-28", "2025-03-29"], "168.2 173.4"),
        "Total assets": ([567.3, 596.5], ["2026-03-28", "2025-03-29"], "Total assets 567.3 596.5"),
        "Total current liabilities": ([-164.1, -162.2], ["2026-03-28", "2025-03-29"], "(164.1) (162.2)"),
    }  # the equity block's '161.9 172.0' does not add up (12.0 + 150.0 is 162.0): it stays unnamed
    names = [r.line_item for r in statement.rows]
    assert names.index("Total current assets") == names.index("Cash and cash equivalents") + 1
    assert "Total equity" not in names and "" not in names


def test_an_unlabelled_subtotal_one_cell_per_line_and_one_a_unit_off_in_the_last_place():
    text = ("(in millions)\n2025\n2024\nCurrent assets\nInventories\n20.5\n18.0\nCash\n10.1\n12.7\n30.6\n30.7\n"
            "Current liabilities\nPayables\n(8.2)\n(7.9)\nProvisions\n(1.1)\n(1.0)\n(9.3)\n(9.0)\n")
    statement = read_statement(text)
    assert [(r.line_item, r.values) for r in statement.rows if r.line_item.startswith("Total")] == [
        ("Total current assets", [30.6, 30.7])]  # (9.3) is not (8.2) + (1.1) to the rounding shown: no total


def test_a_titled_header_heads_the_rows_below_it_and_is_their_title():
    text = ("Operations review\nCopper – Brankholm Hub\nThe hub shipped a record tonnage in the year, as the new\n"
            "concentrator reached its design rate.\nCopper FY2025 FY2024 Change\nCopper produced (kt) 84.2 79.9 5.4%\n"
            "Segment revenue (A$m) 1,102.5 998.1 10.5%\nNickel FY2025 FY2024 Change\n"
            "Nickel produced (kt) 12.1 14.0 (13.6%)\n"
            "Average number of staff 2025 2024\nMining 1,210 1,184\nProcessing 402 398\n")
    statement = read_statement(text)
    assert [(r.line_item, r.periods, r.title) for r in statement.rows] == [
        ("Copper produced (kt)", ["FY2025", "FY2024", "change"], "Copper"),
        ("Segment revenue", ["FY2025", "FY2024", "change"], "Copper"),  # '(A$m)' is its unit, not its name
        ("Nickel produced (kt)", ["FY2025", "FY2024", "change"], "Nickel"),
        ("Mining", ["FY2025", "FY2024"], "Average number of staff"),
        ("Processing", ["FY2025", "FY2024"], "Average number of staff"),
    ]
    assert row(statement, "Nickel produced (kt)").values == [12.1, 14.0, -13.6]
    assert [(r.unit, r.scale) for r in statement.rows[:3]] == [("", None), ("A$", "millions"), ("", None)]


def test_a_heading_above_a_plain_header_is_the_title_of_its_rows():
    text = ("Results of our reportable segments\nBROADBAND\nBroadband financial results\nYears ended December 31\n"
            "(in millions of Canadian dollars)\n2025 2024 % Chg\nService revenue 1,402.7 1,366.0 2.7\n"
            "Adjusted EBITDA 611.9 590.4 3.6\n")
    statement = read_statement(text)
    assert [(r.line_item, r.periods, r.title) for r in statement.rows] == [
        ("Service revenue", ["FY2025", "FY2024", "% change"], "Broadband financial results"),
        ("Adjusted EBITDA", ["FY2025", "FY2024", "% change"], "Broadband financial results")]
    assert StatementRow("Revenue", [1.0], ["FY2025"], "$", None, "Revenue 1").title is None  # optional


def test_a_prose_line_ending_in_two_years_is_no_header():
    text = ("(in millions)\n2025 2024\nRevenue 10 9\nCosts were broadly flat between 2024 and 2025\nCosts 5 4\n"
            "Revenue for 2025 2024\nOther 2 1")
    statement = read_statement(text)
    assert [(r.line_item, r.periods) for r in statement.rows] == [
        ("Revenue", ["FY2025", "FY2024"]), ("Costs", ["FY2025", "FY2024"]), ("Other", ["FY2025", "FY2024"])]


def test_half_year_columns_are_named_apart_from_full_years():
    def periods(header: str) -> list[str]:
        return read_statement(f"{header}\nRevenue 1,100.0 1,250.0 2,480.0").periods

    assert periods("A$ million H1 FY2026 H1 FY2025 (pcp) Change") == ["H1 2026", "H1 2025", "change"]
    assert periods("Output H1 FY2026 H1 FY2025 FY2025 (full year)") == ["H1 2026", "H1 2025", "FY2025"]
    assert periods("Half-year ended 31 December 2025\n31 December 2024") == ["6M 2025-12-31", "6M 2024-12-31"]
    assert periods("26 weeks ended\n27 September 2025\n28 September 2024") == ["6M 2025-09-27", "6M 2024-09-28"]
    statement = read_statement("A$ million H1 FY2026 H1 FY2025 (pcp) Change\nRevenue 1,100.0 1,250.0 (150.0)")
    assert (statement.currency, statement.scale, statement.rows[0].periods) == (
        "A$", "millions", ["H1 2026", "H1 2025", "change"])


def test_a_half_year_statement_with_a_note_column_split_over_lines():
    text = ("Condensed statement of profit or loss\nfor the half-year ended 31 December 2025\n Note Half-year\n"
            "31 Dec 2025\n$m Half-year\n31 Dec 2024\n$m Revenue from contracts with customers\n 3 702.4  655.1 "
            "Other income\n 4.2  3.9 Profit for the half-year\n 120.8  131.6")
    statement = read_statement(text)
    assert statement.periods == ["6M 2025-12-31", "6M 2024-12-31"]
    assert [(r.line_item, r.values) for r in statement.rows] == [
        ("Revenue from contracts with customers", [702.4, 655.1]), ("Other income", [4.2, 3.9]),
        ("Profit for the half-year", [120.8, 131.6])]
    assert all(r.periods == ["6M 2025-12-31", "6M 2024-12-31"] for r in statement.rows)



def test_a_half_year_statement_dated_above_columns_that_each_say_half_year():
    """No 'Note' column: the dating line's duration went with the column it dated, each column keeps its own."""
    text = ("Condensed statement of cash flows\nfor the half-year ended 31 December 2025\n Half-year\n31 Dec 2025\n"
            "$m Half-year\n31 Dec 2024\n$m Cash flows from operating activities\nReceipts from customers\n"
            " 1,462.5  1,601.3 Net cash from operating activities\n 472.6  545.8")
    statement = read_statement(text)
    assert statement.periods == ["6M 2025-12-31", "6M 2024-12-31"]
    assert [(r.line_item, r.values) for r in statement.rows] == [
        ("Receipts from customers", [1462.5, 1601.3]), ("Net cash from operating activities", [472.6, 545.8])]

def test_japanese_fiscal_years_in_the_order_the_header_gives_them():
    def periods(header: str) -> list[str]:
        return read_statement(f"(Millions of yen)\n{header}\nNet sales 98,100 104,300").rows[0].periods or []

    assert periods("FY3/2026 FY3/2025") == ["FY2026", "FY2025"]
    assert periods("FY3/2025 FY3/2026") == ["FY2025", "FY2026"]
    assert periods("Note FY3/2025 (Year ended March 31, 2025) FY3/2026 (Year ended March 31, 2026)") == [
        "FY2025", "FY2026"]
    assert periods("Year ended March 31, 2025 Year ended March 31, 2026") == ["FY2025", "FY2026"]
    assert periods("Note As of March 31, 2025 As of March 31, 2026") == ["2025-03-31", "2026-03-31"]


def test_note_references_after_a_label_are_neither_values_nor_label():
    text = ("(Millions of yen)\nNote FY3/2025 FY3/2026\nNet sales 4, 21 98,100 104,300\n"
            "Cost of sales (71,200) (75,900)\n"
            "Trade receivables 7\n 18,420  19,950 Basic earnings per share (yen) 22 81.40 88.15")
    statement = read_statement(text)
    assert [(r.line_item, r.values, r.periods, r.unit, r.scale) for r in statement.rows] == [
        ("Net sales", [98100.0, 104300.0], ["FY2025", "FY2026"], "¥", "millions"),
        ("Cost of sales", [-71200.0, -75900.0], ["FY2025", "FY2026"], "¥", "millions"),
        ("Trade receivables", [18420.0, 19950.0], ["FY2025", "FY2026"], "¥", "millions"),
        ("Basic earnings per share (yen)", [81.4, 88.15], ["FY2025", "FY2026"], "¥ per share", None)]


def test_a_unit_line_further_down_the_page_applies_from_there_on():
    text = ("Broadband financial results\n(in millions of Canadian dollars)\n2025 2024\n"
            "Service revenue 1,402.7 1,366.0\n"
            "Broadband customer results\n(in thousands, except churn and ARPU) 2025 2024\nNet additions 41 38\n"
            "Customers 2,105 2,064\nChurn (monthly) 0.98% 1.02%\nBlended ARPU (monthly) $ 71.40 $ 70.15\n")
    statement = read_statement(text)
    assert (statement.currency, statement.scale) == ("C$", "millions")  # the page's first declaration
    assert [(r.line_item, r.unit, r.scale, r.title) for r in statement.rows] == [
        ("Service revenue", "C$", "millions", "Broadband financial results"),
        ("Net additions", "", "thousands", "Broadband customer results"),
        ("Customers", "", "thousands", "Broadband customer results"),
        ("Churn (monthly)", "%", None, "Broadband customer results"),
        ("Blended ARPU (monthly)", "$", None, "Broadband customer results")]  # 'except ... ARPU'


def test_a_note_table_in_thousands_below_one_in_millions():
    text = ("in € million 2025 2024\nRevenue 1,804.2 1,755.0\n9 Personnel expenses\nin € thousand 2025 2024\n"
            "Wages and salaries 412,508 398,117\nSocial security contributions 70,214 68,003\n")
    statement = read_statement(text)
    assert [(r.line_item, r.unit, r.scale, r.periods) for r in statement.rows] == [
        ("Revenue", "€", "millions", ["FY2025", "FY2024"]),
        ("Wages and salaries", "€", "thousands", ["FY2025", "FY2024"]),
        ("Social security contributions", "€", "thousands", ["FY2025", "FY2024"])]


def test_a_unit_in_a_rows_own_line_applies_to_that_row_only():
    text = "(in millions)\n2025 2024\nRevenue 10 9\nWeighted average shares (in thousands) 4,120 4,050\nNet income 3 2"
    assert [(r.line_item, r.unit, r.scale) for r in read_statement(text).rows] == [
        ("Revenue", "", "millions"), ("Weighted average shares", "shares", "thousands"), ("Net income", "", "millions")]


SEGMENTS = """6 Segment reporting
The segments are managed separately. The column "Reconciliation" holds central functions.
in € million Pumps Valves Services Reconciliation Group
2025
External revenue 410.2 220.5 101.3 – 732.0
EBIT 40.1 18.2 12.5 (6.3) 64.5
2024
External revenue 398.0 231.7 96.4 – 726.1
EBIT 37.7 21.0 11.9 (5.8) 64.8
"""


def test_segments_as_columns_under_a_year_line():
    statement = read_statement(SEGMENTS)
    names = ["Pumps", "Valves", "Services", "Reconciliation", "Group"]
    assert [(r.line_item, r.values, r.periods, r.columns) for r in statement.rows] == [
        ("External revenue", [410.2, 220.5, 101.3, 0.0, 732.0], ["FY2025"] * 5, names),
        ("EBIT", [40.1, 18.2, 12.5, -6.3, 64.5], ["FY2025"] * 5, names),
        ("External revenue", [398.0, 231.7, 96.4, 0.0, 726.1], ["FY2024"] * 5, names),
        ("EBIT", [37.7, 21.0, 11.9, -5.8, 64.8], ["FY2024"] * 5, names)]
    assert {r.title for r in statement.rows} == {"6 Segment reporting"}
    assert (statement.rows[0].unit, statement.rows[0].scale) == ("€", "millions")


def test_change_columns_named_above_and_again_by_their_years_are_counted_once():
    # 'Change Change' above '… 2025 2024 2023 2025 vs. 2024 2024 vs. 2023' names the two change columns twice:
    # the years' columns come first, and a row of the three years alone is read
    text = ("TABLE 1: SUMMARY OF RESULTS\nYears Ended December 31, Change Change\n"
            "(Millions, except percentages) 2025 2024 2023 2025 vs. 2024 2024 vs. 2023\n"
            "Total revenues $ 52,862 $ 42,380 $ 36,087 $ 10,482 25 % $ 6,293 17 %\n"
            "Return on average equity 32.3 % 33.7 % 14.2 %\n")
    rows = {r.line_item: r for r in read_statement(text).rows}
    assert rows["Total revenues"].periods[:3] == ["FY2025", "FY2024", "FY2023"]
    assert (rows["Return on average equity"].values, rows["Return on average equity"].periods) == (
        [32.3, 33.7, 14.2], ["FY2025", "FY2024", "FY2023"])


def test_a_title_above_a_year_line_names_no_segments():
    # 'Selected Quarterly Financial Data (Unaudited)' over quarter-end columns is a title: its four words are no
    # four segments of the year's values
    text = ("13.\nSelected Quarterly Financial Data (Unaudited)\nDecember 31 September 30 June 30 March 31\n"
            "(in thousands, except for per share data) 2025\nTotal revenues $ 1,823,333 $ 1,738,355 $ 1,644,694 "
            "$ 1,573,129\nNet income 43,178 29,432 26,335 23,696\n")
    assert all(r.columns is None for r in read_statement(text).rows)


def test_segment_names_of_several_words_are_split_where_a_capital_starts_a_name():
    text = ("in € million Water systems Heat pumps Service and parts Corporate/ consolidation Group\n2025\n"
            "Revenue 512.0 301.4 88.6 – 902.0\n")
    assert read_statement(text).rows[0].columns == [
        "Water systems", "Heat pumps", "Service and parts", "Corporate/consolidation", "Group"]


def test_segment_names_that_cannot_be_counted_give_no_columns():
    text = "in € million Marine Pumps Process Valves Group\n2025\nRevenue 512.0 301.4 813.4\n"
    statement = read_statement(text)  # five capitalised words for three values: which two go together?
    assert [(r.values, r.periods, r.columns) for r in statement.rows] == [([512.0, 301.4, 813.4], None, None)]
    assert read_statement("2024 2023\nRevenue 10 9").rows[0].columns is None


def test_segment_columns_are_written_with_their_names():
    from app.text.statements import readable_statement

    lines = readable_statement(SEGMENTS).splitlines()
    assert ("EBIT: Pumps 2025 40.1; Valves 2025 18.2; Services 2025 12.5; Reconciliation 2025 (6.3); "
            "Group 2025 64.5") in lines


def test_en_dash_minus_signs_and_footnote_marks_on_figures():
    text = ("in € million 2025 2024 Change in %\nOrder intake 1,204.5 1,288.0 –6.5\n"
            "Dividend per share (€) 0.95² 1.10 –13.6\nRevenue¹ 1,180.2 1,150.9 2.5")
    statement = read_statement(text)
    assert statement.periods == ["FY2025", "FY2024", "% change"]
    assert [(r.line_item, r.values) for r in statement.rows] == [
        ("Order intake", [1204.5, 1288.0, -6.5]), ("Dividend per share (€)", [0.95, 1.10, -13.6]),
        ("Revenue", [1180.2, 1150.9, 2.5])]


def test_a_unit_on_a_titled_header_is_its_tables_and_a_first_unit_line_still_reaches_its_own_rows():
    text = ("Output summary FY2025 FY2024\nTonnes milled (kt) 812 790\n"
            "Segment EBITDA (A$m) FY2025 FY2024\nBase metals 412.0 398.5\n")
    rows = read_statement(text).rows
    assert [(r.line_item, r.unit, r.scale, r.title) for r in rows] == [
        ("Tonnes milled (kt)", "", None, "Output summary"), ("Base metals", "A$", "millions", "Segment EBITDA")]
    below = read_statement("2025 2024\nRevenue 10 9\n(in millions)\nCosts 5 4").rows
    assert [(r.line_item, r.scale) for r in below] == [("Revenue", "millions"), ("Costs", "millions")]


def test_a_note_number_on_a_labels_line_is_no_value_of_a_one_column_table():
    text = "FY3/2026\n(Millions of yen)\nDividends 21\n — (5,320) (120) (5,440)\nOther 4,100"
    rows = read_statement(text).rows  # four columns the header does not name: nothing to align
    assert [(r.line_item, r.values, r.periods) for r in rows] == [
        ("Dividends", [21.0, 0.0, -5320.0, -120.0, -5440.0], None), ("Other", [4100.0], ["FY2026"])]


def test_a_note_column_never_takes_a_value_that_the_columns_account_for():
    text = "Note 2025 2024 Change\nRevenue 10 9 5\nCosts 3 (8) (7) (1)"
    assert [(r.values, r.periods) for r in read_statement(text).rows] == [
        ([10.0, 9.0, 5.0], ["FY2025", "FY2024", "change"]), ([-8.0, -7.0, -1.0], ["FY2025", "FY2024", "change"])]


def test_footnote_digits_on_a_table_heading_and_its_header():
    text = ("Subscriber results 1\n(in thousands) 2025 2024 (restated) 2\nNet additions 41 38\n"
            "1 Counts are at the end of the period.")
    first = read_statement(text).rows[0]
    assert (first.line_item, first.values, first.periods, first.title) == (
        "Net additions", [41.0, 38.0], ["FY2025", "FY2024"], "Subscriber results")


def test_no_subtotal_from_one_figure_equal_to_one_row():
    text = "(in millions)\n2025\nOther assets\nDeposits 62\n62"
    assert [r.line_item for r in read_statement(text).rows] == ["Deposits"]


def test_a_two_word_heading_above_a_year_line_is_no_pair_of_segment_columns():
    text = "Group Revenue\n2025\nEurope 120.5 45%\nAsia 98.2 37%"
    assert all(r.columns is None for r in read_statement(text).rows)


def test_an_except_clause_leaves_only_the_rows_it_names_unscaled():
    text = "(in thousands, except store counts)\n2025 2024\nStore operating expenses 8,120 7,940\nStore counts 212 205"
    assert [(r.line_item, r.scale) for r in read_statement(text).rows] == [
        ("Store operating expenses", "thousands"), ("Store counts", None)]


def test_a_year_compared_with_another_is_one_change_column():
    text = "Fiscal 2025\nIn millions\nFiscal 2025 vs.\nFiscal 2024  Fiscal 2024\nNet sales $ 9,412.0  4 %  $ 9,050.1"
    row_read = read_statement(text).rows[0]
    assert (row_read.values, row_read.periods) == ([9412.0, 4.0, 9050.1], ["FY2025", "change", "FY2024"])
    assert read_statement("2025 2024 2025 vs. 2024\nRevenue 10 8 25%").periods == ["FY2025", "FY2024", "change"]


def test_days_listed_before_their_years_pair_with_them_in_order():
    text = "13 Weeks Ended\nFebruary 1,\nFebruary 2,\n2026\n2025\nNet sales 2,410 2,388"
    assert read_statement(text).periods == ["3M 2026-02-01", "3M 2025-02-02"]
    assert read_statement("52 Weeks Ended\nFebruary 1,\nFebruary 2,\n2026\n2025\nNet sales 9 8").periods == [
        "FY2026", "FY2025"]


def test_ratios_and_changes_in_points_are_cells() -> None:
    """'4.11x' is a ratio cell and '0.4 pts' a change in points after its number: rows that hold them line up
    with their periods (they were dropped: the reader knew neither form)."""
    page = ("Freight division results\nYears ended December 31\n(in millions of dollars)\n2024 2023 % Chg\n"
            "Revenue 812.4 760.1 6.9\nOperating margin 26.0% 23.6% 2.4 pts\nGross margin 41.3% 41.7% (0.4)pp\n"
            "Net debt / EBITDA 2.85x 3.10x")
    rows = {r.line_item: r for r in read_statement(page).rows}
    assert rows["Operating margin"].values[:2] == [26.0, 23.6] and rows["Operating margin"].unit == "%"
    assert rows["Gross margin"].values == [41.3, 41.7, -0.4]
    ratio = rows["Net debt / EBITDA"]
    assert (ratio.values, ratio.periods, ratio.unit, ratio.scale) == ([2.85, 3.10], ["FY2024", "FY2023"], "x", None)


def test_a_header_line_may_carry_its_columns_currency_and_scale() -> None:
    from app.text.statements import is_period_line

    for line in ("$m 2023", "£m 30 March", "A$m 2024 2023", "€m 2024 2023", "Note 2024"):
        assert is_period_line(line), line
    for line in ("$m Current assets", "Revenue 2023", "m"):
        assert not is_period_line(line), line


def test_a_footnote_digit_after_a_label_is_no_value_before_figures_in_tenths() -> None:
    statement = read_statement("Key metrics\n(C$ millions) 2024 2023 Change\nCapital intensity 1 18.8% 19.9% -1.1 pts\n"
                               "Stores 3 41 39 2\n")
    rows = {r.line_item: r.values for r in statement.rows}
    assert rows["Capital intensity"] == [18.8, 19.9, -1.1]
    assert rows["Stores"][:1] == [3.0]  # whole numbers: a leading digit may be a value, and is kept


def test_a_grid_of_members_by_measure_and_period_is_read_as_each_members_rows() -> None:
    page = ("Segment review\n£m Revenue FY2025 Revenue FY2024 Operating profit FY2025 Operating profit FY2024 "
            "Margin FY2025 Margin FY2024\nPumps 612.0 590.4 61.2 55.1 10.0% 9.3%\nCentral costs — — (21.7) (20.4)\n"
            "Water services 120.3 111.9 (3.2) 17.0 -2.7% 15.2%\nGroup 1,033.8 990.3 104.6 98.3 10.1% 9.9%")
    rows = [r for r in read_statement(page).rows if r.periods]
    by = {(r.columns[0], r.line_item): r for r in rows if r.columns}
    assert by[("Pumps", "Operating profit")] == StatementRow(
        line_item="Operating profit", values=[61.2, 55.1], periods=["FY2025", "FY2024"], unit="£", scale="millions",
        raw="Pumps 612.0 590.4 61.2 55.1 10.0% 9.3%", columns=["Pumps", "Pumps"])
    assert by[("Water services", "Operating profit")].values == [-3.2, 17.0]
    assert (by[("Water services", "Margin")].values, by[("Water services", "Margin")].unit) == ([-2.7, 15.2], "%")
    assert by[("Group", "Revenue")].values == [1033.8, 990.3]
    assert not any(c == "Central costs" for c, _ in by)  # a row short of the columns is not guessed at
    # a header that names one measure, or prose, is no grid
    assert not [r for r in read_statement("£m Revenue FY2025 Revenue FY2024\nPumps 612.0 590.4").rows if r.columns]


def test_a_segment_notes_header_line_of_period_unit_and_names_gives_each_value_its_segment() -> None:
    page = ("52 weeks ended 29 March 2025 £m Stores Online International franchise Central Group\n"
            "Revenue 1,021.4 398.6 66.2 — 1,486.2\nAdjusted operating profit 52.8 41.3 18.4 (21.7) 90.8\n"
            "52 weeks ended 30 March 2024 (restated) £m Stores Online International franchise Central Group\n"
            "Revenue 1,012.8 356.2 62.7 — 1,431.7\n")
    rows = [r for r in read_statement(page).rows if r.columns]
    assert [(r.line_item, r.periods[0], r.values) for r in rows] == [
        ("Revenue", "FY2025", [1021.4, 398.6, 66.2, None, 1486.2]),
        ("Adjusted operating profit", "FY2025", [52.8, 41.3, 18.4, -21.7, 90.8]),
        ("Revenue", "FY2024", [1012.8, 356.2, 62.7, None, 1431.7])]
    assert rows[0].columns == ["Stores", "Online", "International franchise", "Central", "Group"]
    assert (rows[0].unit, rows[0].scale) == ("£", "millions")


def test_a_change_column_written_with_a_plus_sign_keeps_its_row() -> None:
    text = ("Net sales and segment profit by segment\n(Millions of yen)\nFY3/2024 FY3/2025 Change\nMachine Tools\n"
            "Net sales to external customers 146,910 152,380 +3.7%\nSegment profit 19,620 17,940 (8.6)%\n")
    rows = {r.line_item: r.values for r in read_statement(text).rows}
    assert rows["Net sales to external customers"] == [146910.0, 152380.0, 3.7]  # '+3.7%' is no negative
    assert rows["Segment profit"] == [19620.0, 17940.0, -8.6]


def test_figures_inside_a_labels_parenthesis_are_the_labels_not_the_rows() -> None:
    text = ("CONSOLIDATED BALANCE SHEETS\nDecember 31 (Millions) 2024 2023\nLiabilities\nDeposits $ 9,120 $ 8,400\n"
            "Long-term debt (includes notes of consolidated trusts: 2024, $1,210; 2023, $1,380) 4,573 3,675\n"
            "Other liabilities (400) 310\nTotal liabilities $ 13,293 $ 12,385\n")
    rows = {r.line_item.split(" (")[0]: (r.values, r.periods) for r in read_statement(text).rows}
    assert rows["Long-term debt"] == ([4573.0, 3675.0], ["2024-12-31", "2023-12-31"])
    assert rows["Other liabilities"][0] == [-400.0, 310.0]  # a negative value's parenthesis is no label's


RUN_TOGETHER = ("Segment performance\nin € million Marine Drives Rail Systems Service Corporate/ consolidation Group\n"
                "2025\nOrder intake 612.0 352.3 198.1 1,162.4\nEBIT 48.4 21.2 31.7 (14.5) 86.8\n"
                "2024\nOrder intake 590.0 370.0 190.0 1,170.0\n")


def test_segment_names_run_together_are_split_only_where_one_split_fits() -> None:
    from app.text.statements import is_whole

    assert not [r for r in read_statement(RUN_TOGETHER).rows if r.columns]  # 'Marine Drives Rail …': no guess
    names = ["Marine Drives", "Rail Systems", "Service", "Corporate/consolidation", "Group"]
    for known, page in ((["Rail Systems"], RUN_TOGETHER), ([], RUN_TOGETHER + "Rail Systems\nRail Systems won two orders.\n")):
        rows = {(r.line_item, r.periods[0]): r for r in read_statement(page, known).rows if r.columns}
        assert rows[("EBIT", "FY2025")].values == [48.4, 21.2, 31.7, -14.5, 86.8]
        assert rows[("EBIT", "FY2025")].columns == names and rows[("EBIT", "FY2025")].unit == "€"
        # order intake leaves the reconciling column blank: read when the segments add up to the group
        assert rows[("Order intake", "FY2025")].values == [612.0, 352.3, 198.1, None, 1162.4]
        assert ("Order intake", "FY2024") not in rows  # 590 + 370 + 190 is not 1,170: not guessed at
    assert not is_whole("Corporate/consolidation") and is_whole("Group") and is_whole("Total consolidated")


def test_a_header_may_call_its_columns_results_and_forecast() -> None:
    text = ("(Millions of yen) FY3/2025 Results FY3/2026 Forecast Change\nNet sales 218,460 226,000 +3.5%\n"
            "£m FY2025 actual FY2026 guidance\nRevenue 1,204.0 1,260.0\n")
    rows = {r.line_item: (r.values, r.periods) for r in read_statement(text).rows}
    assert rows["Net sales"] == ([218460.0, 226000.0, 3.5], ["FY2025", "FY2026", "change"])
    assert rows["Revenue"] == ([1204.0, 1260.0], ["FY2025", "FY2026"])


def test_numeric_dates_under_a_weeks_header_are_quarter_columns():
    text = ("Condensed Consolidated Statement of Income\n(in millions except per share amounts, unaudited)\n"
            "12 Weeks Ended\n3/25/2023 3/19/2022\nNet Revenue $ 17,846 $ 16,200\nOperating Profit 2,629 5,267")
    statement = read_statement(text)
    assert row(statement, "Operating Profit").periods == ["3M 2023-03-25", "3M 2022-03-19"]
    assert read_statement("(in millions)\n52 Weeks Ended\n12/31/2022 12/25/2021\nNet Revenue $ 86,392 $ 79,474"
                          ).rows[0].periods == ["FY2022", "FY2021"]


def test_a_guidance_range_is_one_cell_with_its_upper_end_not_a_nil_between_two():
    text = ("FY2025 guidance FY2024 actual\nIron ore shipments (Mt) 18.5 – 19.5 18.4\n"
            "Capital expenditure (A$m) 520 – 580 647.0\nNet debt (A$m) 120 – 95")
    rows = {r.line_item: r for r in read_statement(text).rows}
    shipped = rows["Iron ore shipments (Mt)"]
    assert (shipped.values, shipped.periods, shipped.highs) == ([18.5, 18.4], ["FY2025", "FY2024"], [19.5, None])
    assert rows["Net debt"].highs is None  # a falling pair is no range: '120 – 95' is not read as one


def test_an_amount_with_its_share_of_sales_beside_it_in_each_period() -> None:
    # an earnings release's income statement: each period's amount, then its percent of net sales, a cell a line
    page = ("Osprey Outdoor, Inc.\nConsolidated Statements of Income\n(In thousands, except per share data)\n"
            "13 Weeks Ended\nJanuary 28,\nJanuary 29,\n2023\n2022\n"
            "Net sales\n$\n3,226,773\n100.0\n%\n$\n2,729,388\n100.0\n%\n"
            "Cost of sales\n2,014,270\n62.4\n%\n1,702,059\n62.4\n%\n"
            "Interest (income) expense, net\n(4,378\n)\n(0.1\n%)\n467\n0.1\n%\n")
    rows = {r.line_item: r.values for r in read_statement(page).rows if r.periods}
    assert rows["Net sales"] == [3226773.0, 2729388.0]  # not [3,226,773, 100.0]
    assert rows["Cost of sales"] == [2014270.0, 1702059.0]
    assert rows["Interest (income) expense, net"] == [-4378.0, 467.0]


FIVE_YEAR = """Five-year record
£m (unless stated) FY2021 FY2022 FY2023 FY2024 FY2025
Revenue 1,108.4 1,322.9 1,389.5 1,431.7 1,486.2
Basic earnings per share (p) (7.6) 8.3 9.6 10.2 6.8
Dividend per share (p) — 4.6 5.5 5.8 6.0
Period length (weeks) 52 52 53 52 52
Online share of retail sales (%) 38.6 29.4 25.1 26.0 28.1
Colleagues at period end 16,240 15,980 15,650 15,310 14,820
Net cash at period end 12.6 18.9 24.1 28.3 33.3"""


def test_a_record_in_a_unit_unless_stated_reads_each_row_in_the_unit_its_label_states() -> None:
    """'£m (unless stated)' heads the columns as '£m' does; a row that states another unit is in it: pence per
    share, weeks, per cents, a count at the period's end (but an amount of money at the period's end is money)."""
    rows = {r.line_item: r for r in read_statement(FIVE_YEAR).rows}
    assert rows["Revenue"].values[-1] == 1486.2 and rows["Revenue"].periods[-1] == "FY2025"
    assert (rows["Revenue"].unit, rows["Revenue"].scale) == ("£", "millions")
    assert rows["Dividend per share"].unit == "p" and rows["Dividend per share"].values[-1] == 6.0
    assert rows["Period length (weeks)"].unit == "" and rows["Online share of retail sales (%)"].unit == "%"
    assert (rows["Colleagues at period end"].unit, rows["Colleagues at period end"].scale) == ("", None)
    assert rows["Net cash at period end"].unit == "£"


def test_a_segment_table_with_measures_as_columns_is_read_one_row_per_measure_over_the_segments() -> None:
    """'Half-year ended 31 December 2024 A$m Revenue Underlying EBITDA Depreciation and amortisation Segment
    EBIT' over one row per segment: the names are cut into as many measures as the rows have values, and each
    measure becomes a row over the segments, of the six months ended that date (not the calendar year)."""
    from app.text.statements import named_column_rows

    text = ("Half-year ended 31 December 2024 A$m Revenue Underlying EBITDA Depreciation and amortisation Segment EBIT\n"
            "Copper 812.4 401.2 (88.0) 313.2\nNickel 96.5 (4.1) (30.2) (34.3)\n"
            "Corporate – (22.0) (1.9) (23.9)\nTotal 908.9 375.1 (120.1) 255.0")
    rows = {r.line_item: r for r in named_column_rows(text)}
    assert list(rows) == ["Revenue", "Underlying EBITDA", "Depreciation and amortisation", "Segment EBIT"]
    revenue = rows["Revenue"]
    assert revenue.columns == ["Copper", "Nickel", "Corporate", "Total"]
    assert revenue.values == [812.4, 96.5, None, 908.9] and set(revenue.periods) == {"6M 2024-12-31"}
    assert rows["Segment EBIT"].values == [313.2, -34.3, -23.9, 255.0]
    # segments as columns, measures as rows, are read as they stand
    note = ("52 weeks ended 29 March 2025 £m Stores Online Group\nRevenue 1,021.4 398.6 1,420.0\n"
            "Adjusted operating profit 52.8 41.3 94.1")
    [revenue, profit] = named_column_rows(note)
    assert revenue.columns == ["Stores", "Online", "Group"] and revenue.periods == ["FY2025"] * 3


def test_a_change_group_named_above_the_periods_comes_after_them() -> None:
    """'Q2 % Change' over '2023 2022': the change column is named first, on the line above, and its cells are
    printed after the periods' ones; the quarter names both periods."""
    rows = read_statement("Q2 % Change\n2023 2022\nNet sales 1,100 1,000 10.0\n").rows
    assert rows[0].values == [1100.0, 1000.0, 10.0] and rows[0].periods == ["Q2 2023", "Q2 2022", "% change"]


def test_change_columns_named_after_the_periods_are_read_as_changes() -> None:
    """An earnings release's segment table: '% Change' above, and the kinds of change (reported, operational,
    currency, adjusted operational; footnote digits on the names) after the years. Each row gives the two
    quarters, then four changes."""
    text = ("SALES BY DIVISION\nQ2 % Change\n($ in Millions) 2024 2023 Reported Operational1,2 Currency "
            "Adjusted Operational1,3\nImplants $2,410 $2,200 9.5% 10.1 (0.6) 8.7\nDiagnostics 1,305 1,390 (6.1) "
            "(5.0) (1.1) (5.2)\nWorldwide $3,715 $3,590 3.5% 4.1 (0.6) 3.8\n")
    rows = {r.line_item: r for r in read_statement(text).rows}
    assert rows["Implants"].values[:2] == [2410.0, 2200.0]
    assert rows["Implants"].periods == ["Q2 2024", "Q2 2023"] + ["% change"] * 4
    assert rows["Diagnostics"].values == [1305.0, 1390.0, -6.1, -5.0, -1.1, -5.2]
    # a row label ending in such a word is still a row, not a header
    rows = read_statement("2024 2023\nRevenue in constant currency 1,200 1,100\n").rows
    assert rows[0].line_item == "Revenue in constant currency" and rows[0].periods == ["FY2024", "FY2023"]


def test_the_years_a_change_column_compares_are_its_name_not_columns() -> None:
    """A header a PDF gives a piece a line: 'Fiscal' / '2024' / … / '% Change' / '2024-2023': the descending year
    pair names the change column; the row's two changes follow its three years."""
    text = ("Segment Information (dollars in millions)\nFiscal\n2024\nFiscal\n2023\nFiscal\n2022\n% Change\n"
            "2024-2023\n% Change\n2023-2022\nImaging $ 3,095.2 $ 2,603.2 $ 2,625.9 19% (1)%\n"
            "Percentage of total revenue 65% 63% 65%\nTotal revenue $ 4,795.5 $ 4,147.1 $ 4,055.2 16% 2 %\n")
    statement = read_statement(text)
    rows = {r.line_item: r for r in statement.rows}
    assert rows["Imaging"].periods == ["FY2024", "FY2023", "FY2022", "% change", "% change"]
    assert rows["Imaging"].values[:3] == [3095.2, 2603.2, 2625.9] and rows["Imaging"].scale == "millions"
    # a rising pair may name a fiscal year ('2023-2024'): not taken as a change column's name
    assert read_statement("2023-2024 2022-2023\nRevenue 1,200 1,100\n").rows[0].values == [1200.0, 1100.0]


def test_a_table_of_shares_of_sales_reads_each_row_as_a_percent() -> None:
    """'(Percent of net sales)' heads a table of operating expenses as shares of sales: a row without its own '%'
    ('Research, development and related expenses 5.6 5.9') is a percent, never money in the page's unit."""
    text = ("(Millions)\nOperating Expenses:\n(Percent of net sales)\n2024\n2023\nCost of sales\n50.9\n%\n50.8\n%\n"
            "Research, development and related expenses\n5.6\n5.9\n")
    rows = {r.line_item: r for r in read_statement(text).rows}
    rnd = rows["Research, development and related expenses"]
    assert rnd.values == [5.6, 5.9] and rnd.periods == ["FY2024", "FY2023"] and (rnd.unit, rnd.scale) == ("%", None)
    # the line names no table above it and stops at the next table
    rows = read_statement(text + "(Millions)\n2024 2023\nNet sales 32,765 31,657\n").rows
    assert next(r for r in rows if r.line_item == "Net sales").scale == "millions"


def test_a_label_that_states_its_scale_is_in_that_scale_whatever_the_pages() -> None:
    """'Shares used in calculation (000's)' under '(amounts in millions, except per share data)': thousands."""
    text = ("(amounts in millions, except per share data)\n2024 2023\nNet income $ 5,007 $ 4,002\n"
            "Shares used in calculation (000's)\nBasic 443,089 442,297\nDiluted 444,346 443,901\n")
    rows = {r.line_item: r for r in read_statement(text).rows}
    assert (rows["Net income"].unit, rows["Net income"].scale) == ("$", "millions")
    diluted = rows["Diluted shares used in calculation (000's)"]
    assert (diluted.unit, diluted.scale, diluted.values[0]) == ("shares", "thousands", 444346.0)


def test_a_count_row_takes_no_money_scale_from_the_page() -> None:
    """A bank's metrics under '(in billions, except ratios …)': 'Number of branches 4,872' is 4,872 branches, not
    $4,872bn; the deposits beside it stay in billions."""
    text = ("(in billions, except ratios and where otherwise noted) 2025 2024 Change\nBusiness Metrics\n"
            "Number of branches  4,872  4,967  (2) %\nAverage deposits $ 960.7 $ 725.0  33\n")
    rows = {r.line_item: r for r in read_statement(text).rows}
    assert (rows["Number of branches"].unit, rows["Number of branches"].scale) == ("", None)
    assert rows["Number of branches"].values[:2] == [4872.0, 4967.0]
    assert (rows["Average deposits"].unit, rows["Average deposits"].scale) == ("$", "billions")
    alone = read_statement("(in billions, except ratios) 2025 2024\nNumber of branches  4,872  4,967\n").rows[0]
    assert (alone.unit, alone.scale) == ("", None)  # no dollar row beside it: billions are still no count's
    counts = read_statement("(in millions of Canadian dollars) 2025 2024\nRevenue 2,761.0 2,670.0\n"
                            "Wireless subscriber results\n(in thousands, except churn and ARPU) 2025 2024\n"
                            "Prepaid subscribers 632 646\nBlended ARPU (monthly) $ 55.55 $ 55.61\n").rows
    prepaid = next(r for r in counts if r.line_item == "Prepaid subscribers")
    assert (prepaid.unit, prepaid.scale) == ("", "thousands")  # a count table's own unit line scales its counts


def test_a_heading_run_into_its_first_row_ends_the_per_share_group_above() -> None:
    # 'Weighted-average common shares outstanding: Basic' is a new heading with its first row: the 'Diluted' below
    # it is the diluted share count, not diluted earnings per share
    text = ("Year ended December 31,\n2025 2024\n(in thousands, except per share data)\nNet income 122,641 266,799\n"
            "Earnings per share:\nBasic\n$ 0.29 $ 0.63\nDiluted\n$ 0.28 $ 0.62\n"
            "Weighted-average common shares outstanding: Basic\n425,889 420,544\nDiluted\n436,456 431,894\n")
    rows = {r.line_item: r.values for r in read_statement(text).rows}
    assert rows["Diluted earnings per share"] == [0.28, 0.62]
    assert rows["Diluted weighted-average common shares outstanding"] == [436456.0, 431894.0]


def test_measure_groups_under_a_years_line_opened_by_its_unit() -> None:
    # 'Income Before Tax Segment Sales Percent of Segment Sales' over '(Dollars in Millions) 2025 2024 2025 2024
    # 2025 2024': three measures ('Before' joins, as 'of' does), the unit opening the years' line, '16.8 %' a cell
    from app.text.statements import measure_group_rows

    text = ("Income Before Tax Segment Sales Percent of Segment Sales\n"
            "(Dollars in Millions) 2025 2024 2025 2024 2025 2024\n"
            "Consumer Health $ 2,930 1,573 14,953 15,035 19.6 % 10.5\n"
            "MedTech 4,607 4,373 27,427 27,060 16.8 16.2\n")
    rows = [(r.line_item, r.columns[0], r.values, r.periods, r.unit, r.scale) for r in measure_group_rows(text)]
    assert ("Income Before Tax", "MedTech", [4607.0, 4373.0], ["FY2025", "FY2024"], "$", "millions") in rows
    assert ("Percent of Segment Sales", "Consumer Health", [19.6, 10.5], ["FY2025", "FY2024"], "%", None) in rows


@pytest.mark.parametrize("header", [
    "As of or for the period ended, (in millions, except per share data) 1Q25 4Q24",
    "As of or for the period ended, (in millions, except per share, ratio, headcount data\n"
    "and where otherwise noted) 1Q25 4Q24",
    "(in millions, except per share data) 1Q25 4Q24",
])
def test_columns_named_after_a_unit_note_are_the_statements_periods(header: str) -> None:
    """The quarters after a unit note on the same line ('… (in millions, except per share data) 1Q25 4Q24'),
    or after the end of a note the line above opened, name the columns."""
    statement = read_statement(f"Highlights\n{header}\nNet income $ 1,430 $ 1,213\nBook value per share 82.31 81.75")
    rows = {r.line_item: r for r in statement.rows}
    assert rows["Net income"].periods == ["Q1 2025", "Q4 2024"] and rows["Net income"].scale == "millions"
    assert rows["Book value per share"].values == [82.31, 81.75]


def test_a_label_with_brackets_before_years_is_no_unit_note() -> None:
    """'Revenue (in millions) 2025 2024' is a row's label and its figures' unit, not a header: words before
    the note that no header uses."""
    from app.text.statements import periods_after_note

    assert periods_after_note("Revenue (in millions) 2025 2024") == ""
    assert periods_after_note("Net income (loss) 2025 2024") == ""
    assert periods_after_note("and where otherwise noted) 1Q25 4Q24") == "1Q25 4Q24"
