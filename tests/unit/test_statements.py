"""app.text.statements: statement pages as pypdf extracts them, and totals stated in sentences.

Every statement here is made up (fictional companies, invented numbers), written in the layouts pypdf produces.
"""

from __future__ import annotations

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
