"""What the offline analyst must not state: an amount for a per cent asked, a per cent of something else, a
sentence that leaves out the head of the measure asked, a page's 'Table of Contents' as a table's title.
Companies and figures are invented for the tests."""

from __future__ import annotations

from app.calc_tools import Figure
from app.metrics import share_asked
from app.models.providers.offline.composer import compose_offline
from app.text.statements import read_statement
from app.turns import Block

COMPANY = "Harrowgate Tools"


def figure(label: str, value: float, period: str, source_id: str) -> Figure:
    """A statement row's figure of FY2024, in $m, as the calculator is handed it."""
    return Figure(label=label, value=value, unit="$m", company=COMPANY, fiscal_year=2024, period=period,
                  source_id=source_id, quote=label)


def block(n: int, text: str, page: int = 10) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {COMPANY} FY2024, p.{page} [text]", source_id=f"ht-p{page}",
                 chunk_id=f"ht-p{page}::0", company=COMPANY, fiscal_year=2024, page=page, text=text)


INCOME = """Consolidated Statement of Income
Years ended December 31
(Millions)
2024
2023
Net sales
$
12,400
$
11,900
Operating income
2,300
2,150
Net income including noncontrolling interest
$
1,710
$
1,600
"""


def test_the_sides_of_a_share_asked() -> None:
    assert share_asked("What is Harrowgate's FY2024 net income attributable to Harrowgate as a percent of total "
                       "net sales?") == ("net income attributable", "total net sales")
    assert share_asked("Did net earnings as a percent of sales increase in Q2 FY2024?") == ("net earnings", "sales")
    assert share_asked("What was Harrowgate's net income in FY2024?") is None


def test_a_share_asked_is_never_answered_with_one_sides_amount_nor_another_per_cent() -> None:
    state = {"question": f"What is {COMPANY}'s FY2024 net income attributable to {COMPANY} as a percent of total "
                         "net sales?", "companies": [COMPANY], "fiscal_years": [2024],
             "blocks": [block(1, INCOME), block(2, "In Consumer, total sales increased 0.4 percent, or 2.1 percent "
                                                   "on an organic local currency basis.", page=21)]}
    answer = compose_offline(state)
    assert answer.startswith("Insufficient evidence"), answer


def test_a_sentence_that_leaves_out_the_head_of_the_measure_asked_is_no_answer() -> None:
    said = ("Total cumulative stockholder return assumes $100 invested at the beginning of the period in the "
            "Company's common stock and the stocks represented in the NASDAQ Composite Index.")
    state = {"question": f"How much did {COMPANY} spend on repurchases of common stock in 2024?",
             "companies": [COMPANY], "fiscal_years": [2024], "blocks": [block(1, said, page=30)]}
    assert "$100" not in compose_offline(state)


def test_a_pages_contents_link_titles_no_table() -> None:
    text = "Table of Contents\n2024 2023\n(Millions)\nAccounts payable\nU.S. $ 4,982 $ 4,289\nNon-U.S. 5,796 5,107\n"
    assert all(row.title is None for row in read_statement(text).rows)


QUARTERS = """(Millions, except per-share amounts)
First
Second
Third
Fourth
Year
2024
Quarter
Quarter
Quarter
Quarter
2024
Net sales
$
3,100
$
3,150
$
3,020
$
3,130
$
12,400
Net income including noncontrolling interest
400
430
420
460
1,710
"""


def test_a_quarterly_table_whose_columns_were_misread_dates_no_row() -> None:
    """'First / Second / Third / Fourth / Year' over '2024', one word a line, is read as one column: each row then
    runs on with four more values, so none is taken as the year's (Q1's $3,100m is no FY2024 net sales)."""
    assert all(not row.periods for row in read_statement(QUARTERS).rows)


def test_a_share_asked_is_computed_from_the_statements_lines_and_never_from_a_quarter() -> None:
    from app.models.providers.offline.calculator import plan_tool_calls

    def fig(label: str, value: float) -> Figure:
        return figure(label, value, "FY2024", "ht-p56")

    question = f"What is {COMPANY}'s FY2024 net income attributable to {COMPANY} as a percent of total net sales?"
    calls = plan_tool_calls(question, [fig("Net sales", 12400.0), fig(f"Net income attributable to {COMPANY}", 1700.0)])
    assert calls and "1700" in str(calls[0][1]) and "12400" in str(calls[0][1]), calls


def test_the_parents_share_of_a_line_item_resolves_to_the_item() -> None:
    from app.metrics import resolve_item

    assert resolve_item("net income attributable to shareholders") == "net_income"
    assert resolve_item("profit attributable to owners of the parent") == "net_income"
    assert resolve_item("merchandise costs") == "cogs" and resolve_item("merchandise inventories") == "inventory"
    assert resolve_item("revenue attributable to growth") is None


def test_a_metric_is_stated_to_the_places_the_question_asks_for() -> None:
    from app.calc_tools import CalcResult
    from app.models.providers.offline.composer.results import lead_sentence

    inventory = Figure(label="Merchandise inventories", value=13228.5, unit="$m", company=COMPANY, fiscal_year=2024,
                       source_id="ht-p38")
    result = CalcResult(tool="metric", inputs={"inventory_2024": 13228.5}, expression="170684 / 13228.5",
                        result=12.9, unit="x", sources={"inventory_2024": inventory},
                        formula="inventory turnover ratio = COGS / average inventory")
    assert "12.90x" in lead_sentence(result, "What is the inventory turnover? Round your answer to two decimal places.")
    assert "12.9x" in lead_sentence(result, "What is the inventory turnover?")


def test_a_us_filings_bare_millions_are_dollars_in_every_statement_reader() -> None:
    from app.evidence import Evidence
    from app.facts.readers import statement_figures

    cash_flow = Evidence(chunk_id="ht-cf::2", source_id="HARROWGATE_2024_10K:p73", company=COMPANY, fiscal_year=2024,
                         page=73, text="(In millions)\nYears Ended December 31,\n2024 2023\nDividends paid (283) (259)\n")
    assert {f.unit for f in statement_figures(cash_flow)} == {"$m"}


def test_where_a_definition_says_to_read_an_input_is_no_part_of_its_name() -> None:
    from app.metrics import question_definition

    metric = question_definition("What is Harrowgate's FY2024 EBITDA (in USD millions)? EBITDA is defined as "
                                 "unadjusted operating income plus depreciation and amortization from the cash flow "
                                 "statement.")
    assert metric is not None
    assert [t.item for t in metric.formulas[0].terms] == ["operating_income", "d_and_a"]


def test_a_wrapped_line_that_goes_on_in_lower_case_is_one_sentence() -> None:
    from app.text.sentences import split_sentences

    text = ("Segment operating profit increased 15 percent in fiscal 2024, primarily\ndriven by volume growth.\n"
            "Net sales 4,408.5 3,839.8")
    assert split_sentences(text) == ["Segment operating profit increased 15 percent in fiscal 2024, primarily driven "
                                     "by volume growth.", "Net sales 4,408.5 3,839.8"]


def test_net_asked_prefers_the_row_that_says_net() -> None:
    from app.facts.query import label_match, read_query

    q = read_query(f"What was {COMPANY}'s net interest income in 2024?", [COMPANY], [2024])
    assert label_match("Net interest income", q) > label_match("Interest income", q) > 0


def test_the_registrants_name_over_its_statement_is_no_member_of_a_breakdown() -> None:
    statement = ("Consolidated Statements of Earnings\nHARROWGATE TOOLS, INC. AND SUBSIDIARIES\n(In Millions)\n"
                 "Fiscal Year\n2024 2023\nNet sales $ 12,400.0 $ 11,900.0\nOperating profit 2,300.0 2,150.0\n")
    answer = compose_offline({"question": f"Which of {COMPANY}' segments had the largest operating profit in fiscal "
                                          "2024?", "companies": [COMPANY], "fiscal_years": [2024],
                              "blocks": [block(1, statement)]})
    assert "SUBSIDIARIES" not in answer and "had the highest" not in answer, answer


def test_a_quarters_growth_names_the_quarters() -> None:
    overall = ("OVERALL FINANCIAL RESULTS\nQ2\n($ in Millions) 2024 2023 % Change\nReported Sales $ 25,530 $ 24,020 "
               "6.3 %\n")
    answer = compose_offline({"question": f"Did {COMPANY}'s sales grow in Q2 2024 compared to Q2 2023?",
                              "companies": [COMPANY], "fiscal_years": [2024, 2023],
                              "blocks": [block(1, overall)]})
    assert answer.startswith("Yes.") and "in Q2 2023 to $25,530m in Q2 2024" in answer, answer


def test_a_headcount_is_the_whole_not_a_part_of_it() -> None:
    said = ("At December 31, 2024, we had approximately 9,200 total full-time and part-time employees. At December "
            "31, 2024, approximately 120 of our full-time employees were subject to fixed-term employment agreements.")
    answer = compose_offline({"question": f"According to the annual report, how many employees does {COMPANY} have?",
                              "companies": [COMPANY], "blocks": [block(1, said, page=9)]})
    assert "9,200" in answer.split("[1]")[0] and "was 120" not in answer, answer


def test_a_comparatives_year_is_not_the_sentences_own() -> None:
    from app.facts.prose import prose_facts
    from app.facts.query import read_query

    measure = read_query("What were net sales in fiscal 2024?", [COMPANY]).prose_measure()
    said = "Net sales increased 18.3% to $10.2 billion compared to $8.6 billion in fiscal 2023, and margins rose."
    dated = {(f.value, f.fiscal_year) for f in prose_facts(said, measure, company=COMPANY, fiscal_year=2025,
                                                           source_id="ht")}
    assert dated == {(10.2, 2024), (8.6, 2023)}
    # 'from' binds no year to the comparative alone: 'rose to $5.0 billion from $4.1 billion in 2024' is 2024's
    said = "Net sales rose to $5.0 billion from $4.1 billion in 2024."
    assert (5.0, 2024) in {(f.value, f.fiscal_year) for f in prose_facts(said, measure, company=COMPANY,
                                                                         fiscal_year=2024, source_id="ht")}


def test_net_income_is_the_parents_line_never_the_minorities() -> None:
    from app.metrics import label_match, pick_figure

    def fig(label: str, value: float) -> Figure:
        return figure(label, value, "FY2024", "ht-p36")

    rows = [fig("Net income including noncontrolling interests", 5079.0),
            fig("Net income attributable to noncontrolling interests", -72.0),
            fig(f"NET INCOME ATTRIBUTABLE TO {COMPANY.upper()}", 5007.0)]
    assert label_match("Net income attributable to noncontrolling interests", "net_income") is None
    assert pick_figure(rows, "net_income", 2024, COMPANY).value == 5007.0
    statement = ("CONSOLIDATED STATEMENTS OF INCOME\n(amounts in millions)\n52 Weeks Ended\n2024 2023\n"
                 "Net income including noncontrolling interests 5,079 4,059\n"
                 "Net income attributable to noncontrolling interests (72) (57)\n"
                 f"NET INCOME ATTRIBUTABLE TO {COMPANY.upper()} $ 5,007 $ 4,002\n")
    answer = compose_offline({"question": f"Did {COMPANY}'s net income increase in fiscal 2024 compared to fiscal "
                                          "2023?", "companies": [COMPANY], "fiscal_years": [2024, 2023],
                              "blocks": [block(1, statement, page=36)]})
    assert answer.startswith("Yes. Harrowgate Tools' net income rose from $4,002m in FY2023 to $5,007m in FY2024"), answer


def test_a_balance_sheets_dates_then_its_years_are_two_columns() -> None:
    text = ("Consolidated Balance Sheet\nDecember 31, 2024 and December 26, 2023\n(in millions)\n2024 2023\n"
            "Inventories 5,222 4,347\nTotal Assets $ 92,187 $ 92,377\n")
    rows = {r.line_item: r for r in read_statement(text).rows}
    assert rows["Total Assets"].periods == ["2024-12-31", "2023-12-26"]
    assert rows["Total Assets"].values == [92187.0, 92377.0]


def test_a_ratio_defined_in_brackets_after_its_name_is_the_questions_own() -> None:
    from app.metrics import find_metrics, question_definition

    metric = question_definition(f"What is {COMPANY}'s FY2024 cash conversion ratio (cash from operations / net "
                                 "income)?")
    assert metric is not None and metric.name == "cash conversion ratio" and metric.unit == "x"
    assert [t.item for t in metric.formulas[0].terms] == ["cfo", "net_income"]
    assert question_definition("What was revenue (in millions) in 2024?") is None
    assert [m.name for m in find_metrics(f"Roughly how many times has {COMPANY} sold its inventory in FY2024?")] == [
        "inventory turnover"]


def test_what_a_company_paid_in_dividends_is_the_amount_not_a_rate_per_share() -> None:
    from app.text.measures import measure_asked

    assert measure_asked(f"How much did {COMPANY} pay in dividends in FY2024?", [COMPANY]).phrase == "dividends"
    assert measure_asked(f"How much cash did {COMPANY} return to shareholders through dividends in 2024?",
                         [COMPANY]).phrase == "cash dividends"
    assert measure_asked("What was the CEO pay in 2024?", [COMPANY]).phrase == "CEO pay"
    said = "The Company's current quarterly dividend rate is $0.79 per share."
    answer = compose_offline({"question": f"How much did {COMPANY} pay in dividends in FY2024?",
                              "companies": [COMPANY], "fiscal_years": [2024], "blocks": [block(1, said, page=30)]})
    assert "$0.79" not in answer, answer
    flows = ("CONSOLIDATED STATEMENTS OF CASH FLOWS\n(amounts in millions)\n52 Weeks Ended\n2024 2023\n"
             "Cash dividend payments $ (5,748) $ (1,479)\n")
    answer = compose_offline({"question": f"How much did {COMPANY} pay in dividends in FY2024?",
                              "companies": [COMPANY], "fiscal_years": [2024],
                              "blocks": [block(1, said, page=30), block(2, flows, page=41)]})
    assert "$5,748m in FY2024" in answer.split(".")[0], answer


def test_without_a_short_term_investments_line_the_quick_ratio_is_cash_and_receivables() -> None:
    from app.models.providers.offline.calculator import plan_tool_calls

    def fig(label: str, value: float) -> Figure:
        return figure(label, value, "2024-06-30", "ht-p52")

    rows = [fig("Cash and cash equivalents", 689.0), fig("Trade receivables, net", 1875.0),
            fig("Total current assets", 5308.0), fig("Total current liabilities", 4476.0)]
    [(tool, args)] = plan_tool_calls(f"What is the quick ratio of {COMPANY} in FY2024?", rows)
    assert args["inputs"] == {"cash_2024": 689.0, "receivables_2024": 1875.0, "current_liabilities_2024": 4476.0}


def test_a_closed_groups_statements_give_the_calculator_no_figures() -> None:
    from app.evidence import Evidence, RetrievalResult
    from nodes.figures import prepare_calculation

    def ev(n: int, text: str) -> Evidence:
        return Evidence(chunk_id=f"ht-{n}::0", source_id=f"HARROWGATE_2024_10K:p{n}", company=COMPANY,
                        fiscal_year=2024, page=n, text=text)

    group = ev(52, "Consolidated Balance Sheets\n($ in millions)\nAs of June 30, 2024 2023\n"
                   "Total current liabilities 4,476 5,103\n")
    closed = ev(107, "Deed of Cross Guarantee\nConsolidated Balance Sheets\n($ in millions)\nAs of June 30, 2024 2023\n"
                     "Total current liabilities 1,145 1,200\n")
    state = {"question": f"What were {COMPANY}'s total current liabilities in FY2024?", "companies": [COMPANY],
             "fiscal_years": [2024], "retrieval_result": RetrievalResult(status="found", evidence=[closed, group])}
    values = {f.value for f in prepare_calculation(state)["figures"]}
    assert 4476.0 in values and 1145.0 not in values


def test_a_rate_paid_is_a_rate_and_a_share_need_not_say_share() -> None:
    from app.facts.prose import measure_kind

    assert measure_kind({"effect", "tax", "rate"}, "What effective tax rate did Northwind pay in FY2024?") == "percent"
    assert measure_kind({"tax"}, "How much tax did Northwind pay in FY2024?") == "money"
    said = "The tax charge was £18.0m, an effective rate of 25.0% (FY2023: £14.5m, 23.5%)."
    answer = compose_offline({"question": f"What effective tax rate did {COMPANY} pay in FY2024?",
                              "companies": [COMPANY], "fiscal_years": [2024], "blocks": [block(1, said, page=12)]})
    assert "rate was 25" in answer.split("[1]")[0] and "£18m" not in answer.split("[1]")[0], answer
    said = "Contract warehousing now represents 33.3% of Group revenue."
    answer = compose_offline({"question": f"What share of {COMPANY}'s FY2024 group revenue does contract warehousing "
                                          "represent?", "companies": [COMPANY], "fiscal_years": [2024],
                              "blocks": [block(1, said, page=14)]})
    assert "33.3%" in answer, answer


def test_figures_beside_the_year_ago_quarters_are_a_quarters() -> None:
    from app.facts.query import _part_in

    assert _part_in("Net Sales of $3.2 Billion Compared to $2.7 Billion in the Year-Ago Quarter") == "Q"
    assert _part_in("Net sales increased 18.3% to $10.2 billion compared to $8.6 billion in fiscal 2021") is None


def test_a_metrics_trend_between_two_years_is_a_change() -> None:
    from app.text.question_kinds import asks_trend, read_ask

    question = f"What was {COMPANY}'s gross margin trend between FY2022 and FY2024?"
    assert read_ask(question).kind == "change" and asks_trend(question)
    assert read_ask(f"What is {COMPANY}'s gross margin in FY2024?").kind == "figure"


def test_the_consolidated_statements_row_comes_before_a_segments_statement_data() -> None:
    segment = ("CONSUMER & COMMUNITY BANKING\nSelected income statement data\n(in millions)\nYear ended December 31,"
               "\n2024 2023\nNet income $ 6,728 $ 197\n")
    group = ("Consolidated statements of income\n(in millions)\nYear ended December 31,\n2024 2023\n"
             "Net income $ 14,300 $ 2,865\n")
    answer = compose_offline({"question": f"What was {COMPANY}'s net income in 2024?",
                              "companies": [COMPANY], "fiscal_years": [2024],
                              "blocks": [block(1, segment, page=20), block(2, group, page=80)]})
    assert "$14,300m" in answer.split("[")[0], answer


def test_of_one_fiscal_years_balances_the_one_at_its_end_is_the_years() -> None:
    from app.metrics import pick_figure

    # a June-year company's 10-Q column of 31 December 2022 is of FY2023, as the 10-K's 30 June 2023 one is
    interim = Figure(label="Cash and cash equivalents", value=837, unit="$m", company="Osprey", fiscal_year=2023,
                     period="2022-12-31", source_id="q", chunk_id="q")
    year_end = interim.model_copy(update={"value": 689, "period": "2023-06-30", "source_id": "k", "chunk_id": "k"})
    assert pick_figure([interim, year_end], "cash", 2023, "Osprey").value == 689
    assert pick_figure([year_end, interim], "cash", 2023, "Osprey").value == 689


def test_a_fact_three_notes_repeat_is_said_once() -> None:
    said = ("In July 2024, Harrowgate Tools announced its intention to spin off the Fastening business as a separate "
            "company")
    blocks = [block(1, f"As discussed in Note 3, {said[0].lower()}{said[1:]}.", page=3),
              block(2, f"{said} (see Note 3 for additional information).", page=31),
              block(3, f"{said}.", page=60),
              block(4, "On July 26, 2024, the Company announced its intent to spin off its Fastening business, "
                       "resulting in two standalone public companies.", page=61)]
    answer = compose_offline({"question": "When did Harrowgate Tools announce its intention to spin off its "
                                          "Fastening business?", "blocks": blocks, "companies": [COMPANY],
                              "fiscal_years": []})
    assert answer.count("announced its intention to spin off the Fastening business") == 1, answer
    assert "July 26, 2024" in answer, answer


def test_a_two_part_questions_second_figure_follows_the_claim_that_answers_the_first() -> None:
    from app.evidence import Claim, Evidence, RetrievalResult

    first = ("Following completion of the exchange offer, the Company has reduced its outstanding share count by the "
             "approximately 191 million shares of common stock accepted in the exchange offer.")
    second = ("• Company reduced outstanding share count by approximately 191 million; 2024 guidance reflects only a "
              "partial-year benefit of approximately 73.5 million shares or $0.28 benefit to EPS")
    blocks = [block(1, first, page=5), block(2, second, page=3)]
    evidence = [Evidence(chunk_id=b.chunk_id, source_id=b.source_id, company=COMPANY, fiscal_year=2024, page=b.page,
                         text=b.text) for b in blocks]
    claim = Claim(text=f"{first} [1]", evidence_chunk_ids=[blocks[0].chunk_id], company=COMPANY, verified=True)
    answer = compose_offline({
        "question": f"By how many shares did {COMPANY} reduce its share count through the exchange offer, and how much "
                    "EPS benefit does its 2024 guidance assume from it?",
        "blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024],
        "retrieval_result": RetrievalResult(status="found", evidence=evidence, claims=[claim])})
    assert "191 million shares" in answer and "$0.28" in answer, answer


def test_a_change_computed_from_whole_years_answers_no_question_about_a_quarter() -> None:
    from app.calc_tools import CalcResult, CalculationOutcome

    old = figure("Sales to customers", 93775.0, "FY2023", "ht-p60").model_copy(update={"fiscal_year": 2023})
    new = figure("Sales to customers", 94943.0, "FY2024", "ht-p60")
    result = CalcResult(tool="growth_rate", inputs={"old": 93775.0, "new": 94943.0}, result=1.25, unit="%",
                        expression="(94943 - 93775) / 93775 * 100", sources={"old": old, "new": new})
    blocks = [block(1, "Sales to customers $ 94,943 $ 93,775", page=60),
              Block(n=2, kind="calculation", header="[2] calculation (ok)", text="growth_rate: 1.25%",
                    source_id="calculation", chunk_id="calculation")]
    state = {"blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024],
             "calculation": CalculationOutcome(status="ok", results=[result])}
    quarter = compose_offline({**state, "question": f"Did {COMPANY}'s reported sales grow in the fourth quarter of "
                                                    "2024?"})
    assert "1.25%" not in quarter and not quarter.startswith("Yes"), quarter
    year = compose_offline({**state, "question": f"Did {COMPANY}'s reported sales grow in 2024?"})
    assert year.startswith("Yes") and "1.25%" in year, year


def test_a_region_named_before_the_measure_is_the_member_asked() -> None:
    from app.text.measures import measure_asked

    asked = measure_asked("How did Ostmark's U.S. sales change in the second quarter of 2024?", ["Ostmark"])
    assert (asked.segment, asked.phrase) == ("U.S.", "sales")
    assert measure_asked("What was Ostmark's Europe revenue in 2024?", ["Ostmark"]).segment == "Europe"
    # a region word in lower case, or one before no measure, is left as the question says it
    assert measure_asked("What was Ostmark's revenue in 2024?", ["Ostmark"]).segment is None
