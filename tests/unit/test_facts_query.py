"""app.facts.query: the FactQuery a question asks, the candidate facts that statement rows, markdown tables and
sentences offer for it, and the ones `choose`, `two_periods`, `answering_facts` and `member_facts` keep.

Every company, page and figure here is made up, written in the layouts the readers handle: statement pages as
pypdf extracts them (label line then values, brackets for negatives), markdown tables as the loaders write
them, and report sentences.
"""

from __future__ import annotations

import pytest

from app.evidence import Evidence
from app.facts.query import (
    NAMES_MEASURE,
    FactQuery,
    answering_facts,
    breakdown_measure,
    choose,
    dated_values,
    facts_for,
    is_total,
    label_match,
    member_facts,
    read_query,
    two_periods,
)
from app.text.question_kinds import read_ask

COMPANY = "Quillfeather Mining"

INCOME = """Quillfeather Mining Limited
Consolidated Income Statement
(A$ millions)
2024
2023
2022
Revenue
4,210.5
3,887.2
3,512.0
Cost of sales
(2,950.1)
(2,701.4)
(2,488.9)
Operating profit
901.2
850.4
777.7
"""

CASH_FLOW = """Quillfeather Mining Limited
Consolidated Statement of Cash Flows
A$ millions
2024
2023
Net cash from operating activities
1,512.4
1,388.0
Purchases of property, plant and equipment
(612.9)
(540.3)
Proceeds from sale of property, plant and equipment
12.0
4.1
"""

SUMMARY_TABLE = """Five-year summary (A$ in millions)

| | FY2024 | FY2023 | FY2022 |
|---|---|---|---|
| Revenue | 4,210.5 | 3,887.2 | 3,512.0 |
| Underlying EBITDA margin | 46.1% | 45.4% | 44.0% |
"""

# A segment note with the segments as columns under each year line.
SEGMENT_NOTE = """6 Segment reporting
in A$ million Bauxite Alumina Corporate Group
2024
Revenue 2,614.6 1,595.9 – 4,210.5
EBITDA 1,204.3 801.2 (63.5) 1,942.0
2023
Revenue 2,401.0 1,486.2 – 3,887.2
EBITDA 1,100.9 720.4 (55.1) 1,766.2
"""

# Tables of one member each, titled by the member, and a group summary titled as one.
SEGMENT_TABLES = """Iron Ore FY2024 FY2023
Segment revenue (A$m) 2,614.6 2,401.0
Underlying EBITDA (A$m) 1,204.3 1,100.9
Lithium FY2024 FY2023
Segment revenue (A$m) 1,595.9 1,486.2
Underlying EBITDA (A$m) 801.2 720.4
Group summary FY2024 FY2023
Segment revenue (A$m) 4,210.5 3,887.2
"""

REVENUE_BY_REGION = """Revenue by region
€ million 2024 2023 Change in %
Germany 682.6 717.5 –4.9
France 410.2 388.0 5.7
Rest of Europe 301.4 290.1 3.9
Total 1,394.2 1,395.6 –0.1
"""


def evidence(text: str, *, company: str = COMPANY, fiscal_year: int = 2024, chunk_id: str = "qm-ar24-41",
             page: int = 41) -> Evidence:
    return Evidence(chunk_id=chunk_id, source_id=f"{company.split()[0].lower()}-ar-{fiscal_year}", company=company,
                    fiscal_year=fiscal_year, page=page, text=text)


def query(question: str, years: tuple[int, ...] = ()) -> FactQuery:
    return read_query(question, [COMPANY], years)


def chosen(text: str, question: str, **kwargs: object) -> list[tuple[float, int | None]]:
    q = query(question)
    return [(f.figure.value, f.figure.fiscal_year) for f in choose(facts_for(q, [evidence(text, **kwargs)]), q)]


# --- read_query ---------------------------------------------------------------------------------------------


def test_read_query_takes_the_measure_kind_years_and_line_item_of_a_figure_question() -> None:
    q = query("What was Quillfeather Mining's revenue in FY2024?")
    assert (q.measure.phrase, q.kind, q.years, q.part, q.ahead, q.items) == (
        "revenue", "money", (2024,), None, False, ("revenue",))
    assert query("What was Quillfeather Mining's revenue?").years == ()
    # the turn's years, when routing read them, are the years: a day a report ends may name another fiscal year
    assert query("What was Quillfeather Mining's revenue in the year ended March 31, 2025?", years=(2025,)).years == (
        2025,)
    assert query("What was Quillfeather Mining's revenue in fiscal 2024 (the year ended March 31, 2025)?",
                 years=(2025,)).years == (2025,)


@pytest.mark.parametrize(("question", "part", "ahead"), [
    ("What was Quillfeather Mining's first half revenue in 2024?", "H1", False),
    ("What was Quillfeather Mining's Q3 revenue?", "Q3", False),
    ("What was Quillfeather Mining's revenue in the third quarter of 2024?", "Q3", False),
    ("What was Quillfeather Mining's half-year revenue?", "H", False),
    ("What revenue guidance did Quillfeather Mining give for FY2025?", None, True),
    ("What is Quillfeather Mining's revenue outlook for next year?", None, True),
])
def test_read_query_reads_a_half_or_quarter_and_whether_a_forecast_is_asked(question: str, part: str | None,
                                                                          ahead: bool) -> None:
    q = query(question)
    assert (q.part, q.ahead) == (part, ahead)


def test_read_query_counts_for_how_many_and_takes_the_counted_noun() -> None:
    q = query("How many employees did Quillfeather Mining have in 2024?")
    assert q.kind == "count" and "employe" in q.count_stems
    # and the words reports state a headcount with ('we employed 315,000 people')
    assert {"peopl", "workforc", "headcount"} <= q.count_stems
    # a count with no other wording counts its own noun only
    assert query("How many patents did Quillfeather Mining hold in 2024?").count_stems == {"patent"}


def test_read_query_strips_a_breakdown_questions_superlative_from_the_measure() -> None:
    q = query("Which region had the weakest revenue development for Quillfeather Mining in 2024?")
    assert (q.measure.phrase, q.stems, q.kind) == ("revenue", frozenset({"revenu"}), "money")


@pytest.mark.parametrize("question", [
    "What was Quillfeather Mining's asset turnover in FY2024?",
    "What was Quillfeather Mining's net debt / EBITDA in FY2024?",
    "What was Quillfeather Mining's interest coverage in FY2024?",
])
def test_read_query_takes_a_ratio_measure_as_times_not_money_or_percent(question: str) -> None:
    assert query(question).kind == "ratio"


# --- candidate facts ----------------------------------------------------------------------------------------


def test_costs_asked_are_the_charges_row_and_stated_by_its_coordinated_name() -> None:
    from app.text.questions import measure_terms, states_measure

    note = ("A summary of our productivity plan charges is as follows:\n2024 2023 2022\nCost of sales $ 33 $ 29 $ 30\n"
            "Selling, general and administrative expenses 347 208 239\n"
            "Total restructuring and impairment charges $ 411 $ 247 $ 289\nAfter-tax amount $ 334 $ 206 $ 231")
    q = query("What were Quillfeather Mining's restructuring costs in FY2024?")
    best = choose(facts_for(q, [evidence(note)]), q)
    assert (best[0].figure.label, best[0].figure.value) == ("Total restructuring and impairment charges", 411.0)
    terms = measure_terms("What were Quillfeather Mining's restructuring costs in FY2024?", [COMPANY])
    assert states_measure(terms, "Total restructuring and impairment charges", kindred=True)
    assert not states_measure(terms, "Total restructuring and impairment charges")  # kindred only when asked
    assert not states_measure(terms, "Restructuring reserve")


def test_a_margin_asked_is_its_percentage_row_not_the_dollars_named_the_same() -> None:
    table = ("Gross Margin\n2024 2023 2022\nNet sales $ 192,052 $ 163,220 $ 149,351\n"
             "Less merchandise costs 170,684 144,939 132,886\nGross margin $ 21,368 $ 18,281 $ 16,465\n"
             "Gross margin percentage 11.13 % 11.20 % 11.02 %")
    q = query("What was Quillfeather Mining's gross margin in FY2024?")
    best = choose(facts_for(q, [evidence(table)]), q)
    assert (best[0].figure.value, best[0].figure.unit) == (11.13, "%")


def test_guidance_asked_of_a_years_report_is_the_range_it_gives_for_the_next_year() -> None:
    table = ("FY2025 guidance FY2024 actual\nIron ore shipments (Mt) 18.5 – 19.5 18.4\n"
             "Iron ore C1 cost (A$/t) 39 – 42 38.6")
    q = query("In its FY2024 annual report, what iron ore shipments guidance did Quillfeather Mining give for the "
              "following financial year?")
    best = choose(facts_for(q, [evidence(table)]), q)
    assert sorted((f.figure.value, f.figure.period, f.figure.fiscal_year) for f in best) == [
        (18.5, "low", 2025), (19.5, "high", 2025)]


def test_a_line_that_sums_another_side_of_the_balance_sheet_answers_neither() -> None:
    from app.models.providers.offline.composer.claims import other_side

    q = query("What were Quillfeather Mining's total liabilities in 2024?")
    assert label_match("Total liabilities and equity", q) == 0 and label_match("Total liabilities", q) >= 1
    q = query("What was Quillfeather Mining's total equity in 2024?")
    assert label_match("Total liabilities and equity", q) == 0 and label_match("Total stockholders' equity", q) > 0
    assert other_side("Total liabilities and equity", "What were Quillfeather Mining's total liabilities?")
    assert not other_side("Total liabilities", "What were Quillfeather Mining's total liabilities?")
    assert not other_side("Total liabilities and equity", "What was Quillfeather Mining's revenue?")


def test_a_segments_table_answers_a_measure_that_names_the_segment() -> None:
    # 'tonnes of iron ore shipped' names the 'Iron Ore' segment its table is titled by: its row is the company's
    # answer; the heading says 'iron ore', so the row need only say the rest ('shipped (Mt)')
    from app.text.questions import measure_terms, states_measure

    table = ("Iron Ore FY2024 FY2023 Change\nOre mined (Mt) 19.6 18.1 8.3%\nIron ore shipped (Mt) 18.4 17.1 7.6%\n"
             "Segment revenue (A$m) 2,614.6 2,199.1 18.9%")
    question = "How many tonnes of iron ore did Quillfeather Mining ship in FY2024?"
    q = query(question)
    best = choose(facts_for(q, [evidence(table)]), q)
    assert best and (best[0].figure.label, best[0].figure.value) == ("Iron ore shipped (Mt)", 18.4)
    terms = measure_terms(question, [COMPANY])
    assert states_measure(terms, "Iron ore shipped (Mt)", "Iron Ore", kindred=True)
    assert not states_measure(terms, "Ore mined (Mt)", "Iron Ore", kindred=True)


def test_a_ratio_asked_is_a_per_cent_or_times_never_the_dollars_of_its_capital_row() -> None:
    table = ("Capital (in millions) 2024 2023\nCET1 capital $ 205,078 $ 187,753\n"
             "Tier 1 capital 234,844 214,432")
    text = "At year end, the CET1 ratio was 13.1%, well above the regulatory minimum."
    q = query("What was Quillfeather Mining's CET1 capital ratio in 2024?")
    best = choose(facts_for(q, [evidence(table), evidence(text, chunk_id="qm-ar24-42")]), q)
    assert [(f.figure.value, f.figure.unit) for f in best] == [(13.1, "%")]


_GROUPED = ("CONSOLIDATED STATEMENTS OF INCOME\n(In thousands)\nYears Ended\nDecember 2,\n2024\nNovember 27,\n2023\n"
            "Revenue:\nSubscription $ 4,584,833 $ 3,223,904\nProduct 800,498 1,125,146\n"
            "Total revenue 5,385,331 4,349,050\nCost of revenue:\nSubscription 461,860 409,194\n"
            "Product 68,917 90,035\nTotal cost of revenue 530,777 499,229\n")


def test_a_statement_row_under_a_group_heading_is_that_groups_line() -> None:
    # 'Subscription' under 'Revenue:' is the subscription revenue, named so; the one under 'Cost of revenue:' is not
    q = query("What was Quillfeather Mining's subscription revenue in 2024?")
    best = choose(facts_for(q, [evidence(_GROUPED)]), q)
    assert [(f.figure.label, f.figure.value) for f in best] == [("Subscription revenue", 4584833.0)]
    # and the line the question qualifies ranks above the line item's total
    q = query("What was Quillfeather Mining's subscription cost of revenue in 2024?")
    best = choose(facts_for(q, [evidence(_GROUPED)]), q)
    assert (best[0].figure.label, best[0].figure.value) == ("Subscription cost of revenue", 461860.0)


def test_a_regions_figures_in_a_sentence_are_that_regions_not_the_companys() -> None:
    text = ("In 2024, sales by companies in Europe experienced a decline of 0.6% as compared to the prior year, which "
            "included operational growth of 11.0%. International sales were $14.1 billion, a decrease of 2.3%.")
    q = query("What was Quillfeather Mining's sales growth in 2024?")
    facts = facts_for(q, [evidence(text)])
    assert facts and all(f.segment in ("Europe", "International") for f in facts)
    assert choose(facts, q) == []  # the company's own growth is stated nowhere here


def test_a_statement_rows_period_columns_give_one_fact_each_dated_by_its_column() -> None:
    q = query("What was Quillfeather Mining's revenue?")
    facts = facts_for(q, [evidence(INCOME)])
    assert [(f.figure.value, f.figure.fiscal_year, f.figure.period) for f in facts] == [
        (4210.5, 2024, "FY2024"), (3887.2, 2023, "FY2023"), (3512.0, 2022, "FY2022")]
    first = facts[0]
    assert (first.origin, first.segment, first.filed_year) == ("statement", None, 2024)
    assert (first.figure.label, first.figure.unit, first.figure.company) == ("Revenue", "A$m", COMPANY)
    assert (first.figure.page, first.figure.chunk_id, first.figure.quote) == (
        41, "qm-ar24-41", "Revenue 4,210.5 3,887.2 3,512.0")


def test_facts_for_reads_only_the_companies_given() -> None:
    other = evidence(INCOME.replace("4,210.5", "1,020.0"), company="Ketterick Metals", chunk_id="km-ar24-9")
    q = query("What was Quillfeather Mining's revenue in FY2024?")
    facts = facts_for(q, [evidence(INCOME), other], ["ketterick metals"])
    assert {f.figure.company for f in facts} == {"Ketterick Metals"}
    assert (1020.0, 2024) in [(f.figure.value, f.figure.fiscal_year) for f in facts]


def test_a_bracketed_capital_expenditure_outflow_is_the_amount_spent_and_a_disposal_is_no_capex() -> None:
    q = query("How much did Quillfeather Mining spend on capital expenditure in FY2024?")
    best = choose(facts_for(q, [evidence(CASH_FLOW)]), q)
    assert [(f.figure.label, f.figure.value) for f in best] == [("Purchases of property, plant and equipment", 612.9)]


def test_a_markdown_table_row_is_read_in_the_scale_written_above_the_table() -> None:
    q = query("What was Quillfeather Mining's revenue?")
    facts = facts_for(q, [evidence(SUMMARY_TABLE, page=12)])
    assert [(f.origin, f.figure.value, f.figure.unit, f.figure.fiscal_year) for f in facts] == [
        ("table", 4210.5, "A$m", 2024), ("table", 3887.2, "A$m", 2023), ("table", 3512.0, "A$m", 2022)]
    assert all(f.figure.page == 12 for f in facts)


# --- label_match --------------------------------------------------------------------------------------------


def test_label_match_takes_the_names_statements_use_for_the_line_item_asked() -> None:
    capex = query("How much did Quillfeather Mining spend on capital expenditure in FY2024?")
    assert label_match("Purchases of property, plant and equipment", capex) >= 1.0
    assert label_match("Proceeds from sale of property, plant and equipment", capex) == 0.0
    cfo = query("What was Quillfeather Mining's cash flow from operating activities in FY2024?")
    assert cfo.items == ("cfo",)
    assert label_match("Net cash from operating activities", cfo) >= 1.0
    assert label_match("Net cash used in investing activities", cfo) == 0.0


def test_label_match_scores_a_label_lower_for_each_word_of_its_own() -> None:
    margin = query("What was Quillfeather Mining's operating margin in FY2024?")
    plain = label_match("Operating margin (%)", margin)
    wordy = label_match("Underlying operating margin excluding disposals", margin)
    assert plain == pytest.approx(1.0)
    assert 0 < wordy < plain
    assert label_match("Gross margin", margin) == 0.0  # half the measure's words is too few


def test_a_balance_sheet_class_is_its_own_line_not_the_total_asked() -> None:
    assets = query("What were Quillfeather Mining's total assets at the end of FY2024?")
    assert label_match("Total assets", assets) == pytest.approx(1.0)
    assert label_match("Total current assets", assets) == 0.0
    assert label_match("Non-current assets", assets) == 0.0
    current = query("What were Quillfeather Mining's current assets at the end of FY2024?")
    assert label_match("Total current assets", current) >= 1.0
    # a balance held is no flow of the year: deferred fees are no fee income
    fees = query("What was Quillfeather Mining's membership fee income in FY2024?")
    assert label_match("Deferred income/membership fees", fees) == 0.0
    assert label_match("Membership fees", fees) >= NAMES_MEASURE
    # the total asked: a row naming a kind of it is a part, below what names the measure
    assert label_match("Intangible assets, net (Note 5)", assets) < NAMES_MEASURE
    assert label_match("Intangible assets, net (Note 5)", query("What were Quillfeather Mining's intangible assets "
                                                                "at the end of FY2024?")) >= NAMES_MEASURE


# --- choose -------------------------------------------------------------------------------------------------


def test_with_no_period_asked_the_latest_period_is_chosen_and_a_year_asked_chooses_its_column() -> None:
    assert chosen(INCOME, "What was Quillfeather Mining's revenue?") == [(4210.5, 2024)]
    assert chosen(INCOME, "What was Quillfeather Mining's revenue in FY2023?") == [(3887.2, 2023)]


def test_a_primary_statement_row_ranks_before_a_summary_table_and_a_sentence() -> None:
    q = query("What was Quillfeather Mining's revenue in FY2024?")
    docs = [evidence("Revenue was A$4,210.5 million in FY2024.", chunk_id="s"), evidence(SUMMARY_TABLE, chunk_id="t"),
            evidence(INCOME, chunk_id="p")]
    assert [f.origin for f in choose(facts_for(q, docs), q)] == ["statement", "table", "text"]


@pytest.mark.parametrize(("sentence", "latest", "earlier"), [
    ("Quillfeather Mining's EBITDA margin was 47.2% (FY2023: 45.4%), reflecting higher realised prices.",
     47.2, 45.4),
    ("The EBITDA margin was 47.2%, compared with 45.4% in the pcp.", 47.2, 45.4),
    ("The EBITDA margin was 47.2%, up from 45.4% a year earlier.", 47.2, 45.4),
])
def test_a_prior_year_comparative_in_a_sentence_answers_the_earlier_year(sentence: str, latest: float,
                                                                        earlier: float) -> None:
    assert chosen(sentence, "What was Quillfeather Mining's EBITDA margin in FY2023?") == [(earlier, 2023)]
    assert chosen(sentence, "What was Quillfeather Mining's EBITDA margin?") == [(latest, 2024)]


def test_a_forecast_is_no_actual_and_an_actual_no_forecast() -> None:
    text = "Revenue is expected to reach A$4.6 billion in FY2025. Revenue was A$4,210 million in FY2024."
    assert chosen(text, "What was Quillfeather Mining's revenue?") == [(4210.0, 2024)]
    assert chosen("Revenue is expected to reach A$4.6 billion in FY2025.",
                  "What was Quillfeather Mining's revenue in FY2025?") == []
    assert chosen(text, "What revenue does Quillfeather Mining expect for FY2025?") == [(4.6, 2025)]


def test_an_actual_that_beat_expectations_is_still_that_years_actual() -> None:
    assert chosen("Revenue of A$4,210 million was ahead of market expectations.",
                  "What was Quillfeather Mining's revenue in FY2024?") == [(4210.0, 2024)]


def test_a_half_year_figure_answers_a_half_year_question_only() -> None:
    text = "Revenue was A$4,210 million in FY2024. First half revenue was A$2,101 million."
    assert chosen(text, "What was Quillfeather Mining's revenue in FY2024?") == [(4210.0, 2024)]
    assert chosen(text, "What was Quillfeather Mining's first half revenue in FY2024?") == [(2101.0, 2024)]


# --- segments and the whole company -------------------------------------------------------------------------


def test_a_segments_column_is_not_taken_for_the_whole_company() -> None:
    q = query("What was Quillfeather Mining's EBITDA in FY2024?")
    best = choose(facts_for(q, [evidence(SEGMENT_NOTE)]), q)
    assert 1942.0 in [f.figure.value for f in best]
    assert not {f.figure.value for f in best} & {1204.3, 801.2}
    assert all(f.segment is None for f in best)


def test_the_corporate_costs_column_is_not_taken_for_the_whole_company() -> None:
    q = query("What was Quillfeather Mining's EBITDA in FY2024?")
    assert [f.figure.value for f in choose(facts_for(q, [evidence(SEGMENT_NOTE)]), q)] == [1942.0]


def test_a_segment_asked_gets_its_own_column_first() -> None:
    q = query("What was the Alumina segment's EBITDA for Quillfeather Mining in FY2024?")
    assert q.measure.segment == "Alumina"
    best = choose(facts_for(q, [evidence(SEGMENT_NOTE)]), q)
    assert (best[0].figure.value, best[0].segment, best[0].figure.fiscal_year) == (801.2, "Alumina", 2024)


def test_a_table_titled_by_a_segment_is_not_taken_for_the_whole_company() -> None:
    values = [v for v, _ in chosen(SEGMENT_TABLES, "What was Quillfeather Mining's underlying EBITDA in FY2024?")]
    assert not set(values) & {1204.3, 801.2}


def test_a_segment_asked_takes_the_sentence_that_names_it_by_the_measure() -> None:
    text = "In the Iron Ore segment, EBITDA was A$1,204 million. Group EBITDA was A$1,942 million."
    assert chosen(text, "What was the Iron Ore segment's EBITDA for Quillfeather Mining in FY2024?") == [
        (1204.0, 2024)]


def test_the_whole_company_is_not_answered_with_a_sentence_about_one_segment() -> None:
    text = "In the Iron Ore segment, EBITDA was A$1,204 million. Group EBITDA was A$1,942 million."
    assert chosen(text, "What was Quillfeather Mining's EBITDA in FY2024?") == [(1942.0, 2024)]


# --- two periods and answering facts -----------------------------------------------------------------------


def _pair(question: str, text: str = INCOME) -> list[tuple[float, int | None]] | None:
    q = query(question)
    pair = two_periods(facts_for(q, [evidence(text)]), q)
    return None if pair is None else [(f.figure.value, f.figure.fiscal_year) for f in pair]


def test_two_periods_takes_the_first_and_last_years_named() -> None:
    assert _pair("How did Quillfeather Mining's revenue change between FY2022 and FY2024?") == [
        (3512.0, 2022), (4210.5, 2024)]


def test_two_periods_pairs_a_single_year_or_the_latest_with_the_year_before_when_it_is_there() -> None:
    assert _pair("How did Quillfeather Mining's revenue change in FY2023?") == [(3512.0, 2022), (3887.2, 2023)]
    assert _pair("Did Quillfeather Mining's revenue increase?") == [(3887.2, 2023), (4210.5, 2024)]
    assert _pair("How did Quillfeather Mining's revenue change?", "Revenue was A$4,210 million in FY2024.") is None


def test_answering_a_change_gives_the_earlier_then_the_later_period() -> None:
    question = "How did Quillfeather Mining's operating profit change between FY2022 and FY2024?"
    q = query(question)
    facts = answering_facts(read_ask(question), q, facts_for(q, [evidence(INCOME)]), [COMPANY])
    assert [(f.figure.label, f.figure.value, f.figure.fiscal_year) for f in facts] == [
        ("Operating profit", 777.7, 2022), ("Operating profit", 901.2, 2024)]


def test_answering_a_comparison_gives_each_companys_fact_for_the_year_asked() -> None:
    question = "Compare the revenue of Quillfeather Mining and Ketterick Metals in FY2023."
    companies = [COMPANY, "Ketterick Metals"]
    q = read_query(question, companies)
    docs = [evidence(INCOME), evidence(INCOME.replace("3,887.2", "990.5"), company="Ketterick Metals", chunk_id="k")]
    facts = answering_facts(read_ask(question), q, facts_for(q, docs), companies)
    assert [(f.figure.company, f.figure.value, f.figure.fiscal_year) for f in facts] == [
        (COMPANY, 3887.2, 2023), ("Ketterick Metals", 990.5, 2023)]


# --- breakdowns ---------------------------------------------------------------------------------------------


def test_member_facts_lists_each_region_of_a_breakdown_table_and_leaves_the_total_out() -> None:
    q = query("Which region had the weakest revenue development for Quillfeather Mining in 2024?")
    facts = member_facts(q, [evidence(REVENUE_BY_REGION)])
    assert {f.segment for f in facts} == {"Germany", "France", "Rest of Europe"}
    yearly = [(f.segment, f.figure.value, f.figure.unit, f.figure.fiscal_year) for f in facts
              if f.figure.fiscal_year == 2024]
    assert yearly == [("Germany", 682.6, "€m", 2024), ("France", 410.2, "€m", 2024),
                      ("Rest of Europe", 301.4, "€m", 2024)]
    changes = {f.segment: (f.figure.value, f.figure.unit) for f in facts if f.figure.period == "% change"}
    assert changes == {"Germany": (-4.9, "%"), "France": (5.7, "%"), "Rest of Europe": (3.9, "%")}


def test_member_facts_reads_segment_columns_and_leaves_corporate_and_group_out() -> None:
    q = query("Which segment had the highest EBITDA for Quillfeather Mining in FY2024?")
    facts = member_facts(q, [evidence(SEGMENT_NOTE)])
    assert [(f.segment, f.figure.value, f.figure.fiscal_year) for f in facts] == [
        ("Bauxite", 1204.3, 2024), ("Alumina", 801.2, 2024), ("Bauxite", 1100.9, 2023), ("Alumina", 720.4, 2023)]


def test_member_facts_names_tables_of_one_member_each_by_their_title_and_skips_the_summary() -> None:
    q = query("Which segment had the highest revenue for Quillfeather Mining in FY2024?")
    facts = member_facts(q, [evidence(SEGMENT_TABLES)])
    assert [(f.segment, f.figure.value, f.figure.fiscal_year) for f in facts] == [
        ("Iron Ore", 2614.6, 2024), ("Iron Ore", 2401.0, 2023), ("Lithium", 1595.9, 2024), ("Lithium", 1486.2, 2023)]


@pytest.mark.parametrize(("name", "total"), [
    ("Total", True), ("Group", True), ("Consolidated", True), ("Corporate", True),
    ("Intersegment eliminations", True), ("Unallocated", True), ("Europe total", True),
    ("Germany", False), ("Rest of Europe", False), ("Lithium", False),
    ("Corporate Banking", False), ("Corporate & Investment Bank", False), ("Corporate and Investment Banking", False),
    ("Corporate & other", True), ("Corporate/consolidation", True), ("Corporate and eliminations", True),
])
def test_is_total_tells_a_total_or_corporate_line_from_a_member(name: str, total: bool) -> None:
    assert is_total(name) is total


@pytest.mark.parametrize(("phrase", "measure"), [
    ("region weakest revenue development", "revenue"),
    ("segment highest operating margin", "operating margin"),
    ("gross profit contribution", "gross profit"),
    ("cost of sales", "cost of sales"),
])
def test_breakdown_measure_keeps_the_measure_and_drops_breakdown_and_superlative_words(phrase: str,
                                                                                      measure: str) -> None:
    assert breakdown_measure(phrase) == measure


# --- dated_values -------------------------------------------------------------------------------------------


def test_dated_values_dates_statement_columns_table_cells_and_a_sentences_comparative() -> None:
    assert dated_values(INCOME, 2024)[:3] == [(4210.5, 2024, False), (3887.2, 2023, False), (3512.0, 2022, False)]
    assert (45.4, 2023, False) in dated_values(SUMMARY_TABLE, 2024)
    assert dated_values("Revenue was A$4,210 million (FY2023: A$3,887 million).", 2024) == [
        (4210.0, 2024, False), (3887.0, 2023, False)]


def test_dated_values_marks_a_half_year_and_leaves_out_a_figure_of_no_stated_period() -> None:
    half = "Half-year ended 31 December 2024 Half-year ended 31 December 2023\nRevenue 2,101.0 1,950.3"
    # filed as FY2025 (a June year end): the halves are FY2025's and FY2024's, not the calendar years'
    assert dated_values(half, 2025) == [(2101.0, 2025, True), (1950.3, 2024, True)]
    assert dated_values(half, 2024) == [(2101.0, 2024, True), (1950.3, 2023, True)]  # a December year end
    assert dated_values("Revenue in 2023 and 2024 was €380 million and €410 million.", 2024) == []
    assert dated_values("Revenue in 2023 and 2024 was €380 million and €410 million respectively.", 2024) == [
        (380.0, 2023, False), (410.0, 2024, False)]


@pytest.mark.parametrize(("question", "kind"), [
    ("What was Quillfeather Mining's current ratio in FY2024?", "any"),  # '1.4' or '1.4x'
    ("What was Quillfeather Mining's payout ratio in FY2024?", "percent"),  # '45%': a share of earnings paid out
    ("What was Quillfeather Mining's debt to equity ratio in FY2024?", "any"),  # no amount of money
])
def test_a_plain_ratio_may_be_times_or_a_per_cent_but_is_never_money(question: str, kind: str) -> None:
    assert query(question).kind == kind


# --- judgements' measures, titles and labels --------------------------------------------------------------------

LEVERAGE_TABLE = """Net debt and leverage
C$ millions 2024 2023
Net debt 8,237.4 7,905.1
Net debt / Adjusted EBITDA 4.11x 4.03x
"""


def test_a_title_that_says_what_is_measured_names_no_segment() -> None:
    q = query("What was Quillfeather Mining's net debt / Adjusted EBITDA?")
    best = choose(facts_for(q, [evidence(LEVERAGE_TABLE)]), q)
    assert [(f.figure.value, f.figure.fiscal_year, f.segment) for f in best][:1] == [(4.11, 2024, None)]


def test_the_in_a_sentence_is_no_segments_name() -> None:
    q = query("What was Quillfeather Mining's operating margin?")
    facts = facts_for(q, [evidence("The segment's operating margin was 5.2%.")])
    assert [f.segment for f in facts] == [None]


def test_a_row_whose_label_says_per_cent_is_in_per_cent_whatever_the_pages_unit() -> None:
    page = "Key figures\n€ million 2024 2023\nRevenue 2,437.8 2,391.5\nEquity ratio (31 Dec., %) 47.1 45.4\n"
    q = query("What was Quillfeather Mining's equity ratio?")
    assert [(f.figure.value, f.figure.unit) for f in choose(facts_for(q, [evidence(page)]), q)][:1] == [(47.1, "%")]


def test_two_periods_with_no_year_asked_ends_at_the_latest_reported_year_not_a_target() -> None:
    text = ("The adjusted operating margin was 6.1% (FY2023: 6.2%). We target an adjusted operating margin of "
            "7.0% by FY2028.")
    q = query("Is Quillfeather Mining's adjusted operating margin improving?")
    pair = two_periods(facts_for(q, [evidence(text)]), q)
    assert pair is not None and [(f.figure.value, f.figure.fiscal_year) for f in pair] == [(6.2, 2023), (6.1, 2024)]


PARENT_NOTE = """22. Parent entity information
The following information relates to the parent entity, Quillfeather Mining Limited.
$m 2024 2023
Current assets 96.2 118.7
Current liabilities 58.3 61.9
Total equity 2,905.7 2,973.5
"""
GROUP_BALANCE = """Consolidated statement of financial position
as at 30 June 2024
$m 2024 2023
Total current assets 1,212.2 1,381.8
Total current liabilities 637.0 623.1
"""


def test_the_parent_entitys_own_books_answer_only_a_question_about_the_parent() -> None:
    group = query("What were Quillfeather Mining's current liabilities at 30 June 2024?")
    docs = [evidence(PARENT_NOTE, chunk_id="p60", page=60), evidence(GROUP_BALANCE, chunk_id="p46", page=46)]
    assert [f.figure.value for f in choose(facts_for(group, docs), group)] == [637.0]
    parent = query("What were the parent entity's current liabilities at 30 June 2024?")
    assert [f.figure.value for f in choose(facts_for(parent, docs), parent)] == [58.3]
    owners = query("What was the profit attributable to owners of the parent company in FY2024?")
    assert owners.measure.segment is None


def test_a_half_year_reports_balance_sheet_keeps_its_last_year_end_in_that_year() -> None:
    from app.text.periods import column_years

    assert column_years(["2024-12-31", "2024-06-30"], 2025) == [(2025, None), (2024, None)]
    assert column_years(["6M 2024-12-31", "6M 2023-12-31"], 2025) == [(2025, "H"), (2024, "H")]
    assert column_years(["FY2024", "FY2023"], 2025) == [(2024, None), (2023, None)]  # named years stay
    assert column_years(["2024-06-30", "2023-06-30"], 2024) == [(2024, None), (2023, None)]


def test_a_restated_comparative_in_the_later_report_wins_and_a_count_in_thousands_is_no_money() -> None:
    earlier = "Subscriber results\n(in thousands of dollars, except subscribers)\nC$ thousands 2023 2022\n" \
              "Prepaid subscribers 687 702\n"
    later = "Subscriber results\nC$ thousands 2024 2023\nPrepaid subscribers 655 646\n"
    q = query("How many prepaid subscribers did Quillfeather Mining have at the end of 2023?", years=(2023,))
    docs = [evidence(earlier, fiscal_year=2023, chunk_id="ar23"), evidence(later, fiscal_year=2024, chunk_id="ar24")]
    best = choose(facts_for(q, docs), q)
    assert (best[0].figure.value, best[0].filed_year) == (646.0, 2024)
    assert "$" not in best[0].figure.unit


def test_ifrs_profit_attributable_to_owners_is_net_income_and_a_parent_summary_is_the_parents() -> None:
    """A parent-only summary whose rows write their unit in the label ('Net income (millions of yen)') is still
    known by the title above it; the group's IFRS line answers 'net income attributable to shareholders'."""
    parent = ("Reference: Non-consolidated information of the parent company (Japanese GAAP, unaudited summary)\n"
              "FY2023 FY2024\nNet sales (millions of yen) 118,320 121,640\nNet income (millions of yen) 10,840 11,270\n"
              "Number of employees 3,058 3,106\n")
    group = ("Consolidated statement of profit or loss\n(Millions of yen)\nFY2023 FY2024\n"
             "Revenue 205,310 218,460\nProfit attributable to owners of the parent 16,390 17,860\n")
    q = query("What net income attributable to shareholders did Quillfeather Mining report for FY2024?",
              years=(2024,))
    docs = [evidence(parent, chunk_id="p71", page=71), evidence(group, chunk_id="p48", page=48)]
    assert [f.figure.value for f in choose(facts_for(q, docs), q)][:1] == [17860.0]
    # the parent's row is the parent's: no answer for the group's net income, the answer for the parent's
    plain = query("What was Quillfeather Mining's net income in FY2024?", years=(2024,))
    assert 11270.0 not in [f.figure.value for f in choose(facts_for(plain, [docs[0]]), plain)]
    own = query("What was the parent company's net income in FY2024?", years=(2024,))
    assert [f.figure.value for f in choose(facts_for(own, [docs[0]]), own)][:1] == [11270.0]


def test_an_exact_count_comes_before_a_rounded_one_or_one_that_counts_more() -> None:
    chair = ("I thank our Managing Director, her team and all of our 6,000 or so employees and contractors for their "
             "work this year.")
    note = "The Group employed 3,140 people at 30 June 2024 (2023: 2,910)."
    q = query("How many employees did Quillfeather Mining have at 30 June 2024?", years=(2024,))
    docs = [evidence(chair, chunk_id="p5", page=5), evidence(note, chunk_id="p60", page=60)]
    best = choose(facts_for(q, docs), q)
    assert best and best[0].figure.value == 3140.0


def test_a_row_label_above_a_row_names_no_segment_and_a_plans_bullet_is_no_years_figure() -> None:
    highlights = ("Financial Highlights\nMillions of yen\nFY2023 FY2024\nFor the year / at year-end\n"
                  "Orders received (Machine Tools)\n158,730 149,260\nNet sales\n205,310 218,460\n")
    segment = query("How much revenue did the Machine Tools business of Quillfeather Mining generate in FY2024?",
                    years=(2024,))
    assert segment.measure.segment == "Machine Tools"
    assert choose(facts_for(segment, [evidence(highlights)]), segment) == []  # the group's sales are no segment's
    plan = ("Medium-term plan priorities. Automation and solutions: raise sales of automation cells and turnkey "
            "systems in Machine Tools to ¥40 billion.")
    assert choose(facts_for(segment, [evidence(plan)]), segment) == []


def test_a_segments_review_under_its_heading_gives_its_figures_and_dates_no_half_by_an_event() -> None:
    review = ("Review by segment\nMachine Tools\nSegment profit fell 8.6% to ¥17,940 million on lower prices.\n"
              "Precision Components\nRevenue rose 14.3% to ¥66,080 million. Price revisions implemented in the first "
              "half and higher utilization lifted segment profit by 35.9% to ¥8,210 million. Sales by our partners, "
              "which are not recorded as revenue, were about ¥9,900 million.")
    q = query("What was segment profit in Quillfeather Mining's Precision Components segment in FY2024?",
              years=(2024,))
    best = choose(facts_for(q, [evidence(review)]), q)
    assert best and (best[0].figure.value, best[0].segment, best[0].part) == (8210.0, "Precision Components", None)
    sales = query("How much revenue did Quillfeather Mining's Precision Components segment report in FY2024?",
                  years=(2024,))
    assert [f.figure.value for f in choose(facts_for(sales, [evidence(review)]), sales)][:1] == [66080.0]


def test_items_listed_after_a_lead_in_that_names_a_year_are_that_years() -> None:
    from app.facts.query import dated_values

    text = "For FY2025 we expect:\n- revenue of $1.02bn to $1.08bn;\n- Battery Storage revenue of more than $250m;"
    years = {value: year for value, year, _ in dated_values(text, 2024)}
    assert years[1.02] == 2025 and years[250.0] == 2025


# --- rows of one table ranked by their kind --------------------------------------------------------------------

CASH_SUMMARY = """The table below summarizes our cash activity:
(in millions)
2024
2023
Net cash provided by operating activities
$ 1,811
$ 1,616
Net cash used for investing activities
(430)
(1,201)
Net cash used for financing activities
(1,523)
(388)
Effect of exchange rate changes on cash
(12)
7
"""

BALANCE_LIABILITIES = """Consolidated Balance Sheet
(A$ millions)
2024
2023
Total assets
9,410.2
8,977.0
Liabilities
Trade payables
612.4
580.3
Borrowings
2,480.0
2,510.5
Provisions
1,102.6
998.1
Total liabilities
4,195.0
4,088.9
Equity
Issued capital
3,020.0
3,020.0
"""


def test_row_members_ranks_the_rows_that_name_the_kind_asked_and_leaves_other_rows_out() -> None:
    from app.facts.query import row_members

    q = query("Which activity brought in the most cash for Quillfeather Mining in 2024?")
    rows = row_members("activity", q, [evidence(CASH_SUMMARY)], [COMPANY])
    in_2024 = {f.segment: f.figure.value for f in rows if f.figure.fiscal_year == 2024}
    assert in_2024 == {"Net cash provided by operating activities": 1811.0,
                       "Net cash used for investing activities": -430.0,
                       "Net cash used for financing activities": -1523.0}


def test_row_members_reads_the_kind_from_the_nearest_heading_and_stops_at_the_next() -> None:
    from app.facts.query import row_members

    q = query("What was the largest liability on Quillfeather Mining's balance sheet in 2024?")
    rows = row_members("liability", q, [evidence(BALANCE_LIABILITIES)], [COMPANY])
    assert {f.segment for f in rows} == {"Trade payables", "Borrowings", "Provisions"}  # no total, no equity


def test_row_members_needs_a_table_about_the_measure_ranked_by() -> None:
    from app.facts.query import row_members

    # the cash summary's rows are activities, but nothing in it is about short-term investments
    q = query("Which activity received the largest investment among the short term investments of Quillfeather "
              "Mining in 2024?")
    assert row_members("activity", q, [evidence(CASH_SUMMARY)], [COMPANY]) == []


def test_a_count_question_takes_no_amount_of_money_about_the_things_counted() -> None:
    sheet = ("Consolidated Balance Sheet\n($ in millions)\n2024\n2023\nEmployee benefit assets\n67\n89\n"
             "Accrued employee costs\n396\n471\n")
    q = query("How many employees does Quillfeather Mining have?")
    assert facts_for(q, [evidence(sheet)]) == []
    people = "Workforce\n2024\n2023\nEmployees (number)\n41,000\n40,500\n"
    assert [f.figure.value for f in facts_for(q, [evidence(people)]) if f.figure.fiscal_year == 2024] == [41000.0]


def test_a_count_question_takes_no_row_whose_cells_are_money() -> None:
    # revenue by line of business, its first line a business whose name holds words of the question
    metrics = ("Selected metrics\nThree months ended March 31,\n(in millions, except ratios) 2024 2023 Change\n"
               "Revenue by line of business\nRetail & Business Banking $ 5,635 $ 6,266 (10)\n"
               "Home Lending 1,458 1,161 26\n")
    q = query("How many branches does Quillfeather Mining's retail bank operate?")
    assert facts_for(q, [evidence(metrics)]) == []
    counted = metrics + ("Business metrics\nNumber of branches (units) 4,872 4,967 (2)\n"
                         "Branch deposits $ 96.1 $ 72.5 33\n")
    q = query("How many branches does Quillfeather Mining operate?")
    assert {f.figure.value for f in facts_for(q, [evidence(counted)])} >= {4872.0}


def test_row_members_fails_closed_when_the_kinds_total_shows_rows_not_read() -> None:
    from app.facts.query import row_members

    q = query("What was the largest liability on Quillfeather Mining's balance sheet in 2024?")
    cut = BALANCE_LIABILITIES.replace("Provisions\n1,102.6\n998.1\n", "")  # a row left in a chunk not read
    assert row_members("liability", q, [evidence(cut)], [COMPANY]) == []
    # and read by their heading alone, rows are ranked only when the table's total is there to show them all
    untotalled = BALANCE_LIABILITIES.replace("Total liabilities\n4,195.0\n4,088.9\n", "")
    assert row_members("liability", q, [evidence(untotalled)], [COMPANY]) == []


def test_row_members_keeps_to_the_statement_the_question_names() -> None:
    from app.facts.query import row_members

    cash_flow = ("Consolidated Statement of Cash Flows\n(A$ millions)\n2024\n2023\nImpairment of store assets\n18.1\n"
                 "4.0\nAmortisation of intangible assets\n12.4\n11.9\n")
    q = query("What was the largest asset on Quillfeather Mining's balance sheet in 2024?")
    asked = "What was the largest asset on Quillfeather Mining's balance sheet in 2024?"
    assert row_members("asset", q, [evidence(cash_flow)], [COMPANY], asked) == []
    assert {f.segment for f in row_members("asset", q, [evidence(cash_flow)], [COMPANY], "Which asset?")} == {
        "Impairment of store assets", "Amortisation of intangible assets"}


def test_row_sections_reads_the_heading_over_each_row_in_both_layouts() -> None:
    from app.facts.query import row_sections

    flat = ("Total assets $ 228,354 $ 188,548\nLiabilities and Shareholders' Equity\nLiabilities\nCustomer deposits "
            "$ 110,239 $ 84,382\nAccounts payable 12,133 10,574\nTotal liabilities $ 203,643 $ 166,371\n"
            "Shareholders' Equity\nCommon shares 149 153\n")
    labels = ["Total assets", "Customer deposits", "Accounts payable", "Total liabilities", "Common shares"]
    assert row_sections(flat, labels) == ["", "Liabilities", "Liabilities", "Liabilities", "Shareholders' Equity"]
    wrapped = ("Total current liabilities\n 637.0  623.1 Non-current liabilities\nBorrowings\n 14 650.0  700.0 "
               "Lease liabilities\n 74.1  67.9 ")
    assert row_sections(wrapped, ["Total current liabilities", "Borrowings", "Lease liabilities"]) == [
        "", "Non-current liabilities", "Non-current liabilities"]


def test_a_counts_row_under_a_money_scale_counts_people_and_a_pence_row_is_pence() -> None:
    highlights = ("Financial Highlights\nMillions of yen\nFY3/2024 FY3/2025\nNet sales\n204,730 218,260\n"
                  "Number of employees\n7,516 7,842\n")
    q = query("What is the total number of employees of Quillfeather Mining?")
    [fact] = [f for f in facts_for(q, [evidence(highlights, fiscal_year=2025)]) if f.figure.fiscal_year == 2025]
    assert (fact.figure.value, fact.figure.unit) == (7842.0, "")
    subscribers = ("Wireless financial results\n(in millions of Canadian dollars)\n2024 2023\nRevenue 2,761.0 2,670.0\n"
                   "Wireless subscriber results\n(in thousands, except churn)\n2024 2023\nPrepaid subscribers 632 646\n")
    q = query("How many prepaid subscribers did Quillfeather Mining have at the end of 2024?")
    assert [(f.figure.value, f.figure.unit) for f in facts_for(q, [evidence(subscribers)])
            if f.figure.fiscal_year == 2024][:1] == [(632.0, "k")]
    pence = "Group income statement\n£m\n2025 2024\nRevenue 1,512.4 1,498.0\nDividend per share (p) 6.0 5.8\n"
    q = query("What was Quillfeather Mining's dividend per share in 2025?")
    assert [(f.figure.value, f.figure.unit) for f in facts_for(q, [evidence(pence, fiscal_year=2025)])
            if f.figure.fiscal_year == 2025][:1] == [(6.0, "p")]


OUTLOOK = ("Outlook for fiscal 2025\nConsolidated forecasts for the fiscal year ending March 31, 2026\n"
           "(Millions of yen) FY3/2025 Results FY3/2026 Forecast Change\nNet sales 218,460 226,000 +3.5%\n"
           "Operating income 24,780 24,500 (1.1)%\n")


def test_a_forecast_column_answers_what_the_report_forecasts_and_nothing_else() -> None:
    # the FY3/2025 report's column for the next year is its forecast
    assert chosen(OUTLOOK, "What operating income does Quillfeather Mining forecast for FY2026?",
                  fiscal_year=2025) == [(24500.0, 2026)]
    assert chosen(OUTLOOK, "What was Quillfeather Mining's operating income in FY2025?", fiscal_year=2025) == [
        (24780.0, 2025)]
    # and no result for that year is read from it
    assert chosen(OUTLOOK, "What was Quillfeather Mining's operating income in FY2026?", fiscal_year=2025) == []


RATE_RECONCILIATION = """Quillfeather Mining Limited
Income taxes
Year ended June 30, 2024 2023
U.S. statutory federal income tax rate 21.0 % 21.0 %
State and local income taxes, net 2.1 % 1.9 %
Effective tax rate 18.4 % 19.6 %
"""


def test_a_figure_said_of_the_opposite_measure_is_no_answer() -> None:
    # 'effective' asked: the statutory rate's row holds the words 'tax rate' too, and is the other measure
    assert chosen(RATE_RECONCILIATION, "What was Quillfeather Mining's effective tax rate in FY2024?")[:1] == \
        [(18.4, 2024)]
    statutory_only = RATE_RECONCILIATION.replace("Effective tax rate 18.4 % 19.6 %\n", "")
    assert chosen(statutory_only, "What was Quillfeather Mining's effective tax rate in FY2024?") == []
    assert chosen(statutory_only, "What was Quillfeather Mining's statutory tax rate in FY2024?")[:1] == \
        [(21.0, 2024)]


QUARTERLY = """JPMorgan Chase & Co.
Consolidated statements of income (unaudited)
Three months ended March 31,
(in millions) 2021 2020
Net income $ 14,300 $ 2,865
"""


def test_a_quarterly_filings_three_month_columns_are_its_quarter() -> None:
    doc = Evidence(chunk_id="jpm-q1-80", source_id="JPMORGAN_2021Q1_10Q:p80", company="JPMorgan Chase",
                   fiscal_year=2021, page=80, text=QUARTERLY)
    q = read_query("What was JPMorgan Chase's net income in the first quarter of 2021?", ["JPMorgan Chase"], [2021])
    assert q.part == "Q1"
    best = choose(facts_for(q, [doc]), q)
    assert [(f.figure.value, f.part) for f in best[:1]] == [(14300.0, "Q1")]
    annual = Evidence(chunk_id="jpm-ar-80", source_id="JPMORGAN_2021_10K:p80", company="JPMorgan Chase",
                      fiscal_year=2021, page=80, text=QUARTERLY)
    assert choose(facts_for(q, [annual]), q) == []  # a 10-K's three months are no quarter it can name


CASH_FLOW_10K = """3M Company and Subsidiaries
Consolidated Statement of Cash Flows
Years ended December 31
(Millions)
2018
2017
Purchases of property, plant and equipment (PP&E)
(1,577)
(1,373)
Purchases of common stock for treasury
(4,870)
(2,068)
"""


def test_a_us_filings_bare_rows_under_millions_are_dollars_and_buybacks_are_a_line_item() -> None:
    from app.facts.currency import page_currency

    assert page_currency("Net sales $ 34,229 $ 35,355\nCost of sales 19,232") == "$"
    assert page_currency("Revenue £ 1,311.2 and $ 4.0") == ""  # two currencies: none is the page's
    tenk = Evidence(chunk_id="mmm-60", source_id="3M_2018_10K:p60", company="3M", fiscal_year=2018, page=60,
                    text=CASH_FLOW_10K)
    q = read_query("What was 3M's capital expenditure in 2018?", ["3M"], [2018])
    assert [(f.figure.value, f.figure.unit) for f in choose(facts_for(q, [tenk]), q)[:1]] == [(1577.0, "$m")]
    bought = read_query("How much did 3M spend on share repurchases in 2018?", ["3M"], [2018])
    assert [(f.figure.value, f.figure.unit) for f in choose(facts_for(bought, [tenk]), bought)[:1]] == \
        [(4870.0, "$m")]
    report = Evidence(chunk_id="qm-60", source_id="quillfeather-ar-2018", company="3M", fiscal_year=2018, page=60,
                      text=CASH_FLOW_10K)  # a report not filed with the SEC: its currency is not assumed
    assert [f.figure.unit for f in choose(facts_for(q, [report]), q)[:1]] == ["m"]


SEGMENT_TABLE = """Segment performance
in € million Industrial Drives Mobility Solutions Service Corporate/ consolidation Group
2024
Order intake 1,262.0 752.3 498.1 2,512.4
EBIT 98.4 41.2 91.7 (24.5) 206.8
"""
SEGMENT_PROSE = """Industrial Drives
Order intake in Industrial Drives fell by 11.2% to €1,262.0 million.
Mobility Solutions
Orders from bus makers grew.
"""


def test_a_segment_tables_run_together_names_are_split_by_the_headings_of_its_pages_other_chunks() -> None:
    table = Evidence(chunk_id="rh-23-0", source_id="rheinfeld-ar-2024", company=COMPANY, fiscal_year=2024, page=23,
                     text=SEGMENT_TABLE)
    prose = Evidence(chunk_id="rh-23-1", source_id="rheinfeld-ar-2024", company=COMPANY, fiscal_year=2024, page=23,
                     text=SEGMENT_PROSE)
    q = query("Which Quillfeather Mining segment had the highest order intake in 2024?", (2024,))
    assert member_facts(q, [table]) == []  # alone, 'Industrial Drives Mobility Solutions Service' splits no way
    members = {(f.segment, f.figure.value) for f in member_facts(q, [table, prose]) if f.figure.fiscal_year == 2024}
    assert members == {("Industrial Drives", 1262.0), ("Mobility Solutions", 752.3), ("Service", 498.1)}


def test_a_figure_takes_the_fullest_unit_another_reading_of_it_gives() -> None:
    from app.facts.query import with_fuller_units

    statement = Evidence(chunk_id="wg-45", source_id="wattlegrove-ar-2024", company=COMPANY, fiscal_year=2024,
                         page=45, text="Consolidated statement of profit or loss\n$m 2024 2023\n"
                                       "Profit for the year 381.3 875.5\n")
    prose = Evidence(chunk_id="wg-15", source_id="wattlegrove-ar-2024", company=COMPANY, fiscal_year=2024, page=15,
                     text="Statutory profit for the year was A$381.3 million.")
    q = query("What was Quillfeather Mining's profit for the year in FY2024?", (2024,))
    facts = facts_for(q, [statement, prose])
    assert {f.figure.unit for f in facts if f.figure.value == 381.3} == {"$m", "A$m"}
    assert {f.figure.unit for f in with_fuller_units(facts, facts) if f.figure.value == 381.3} == {"A$m"}
    other = [f for f in facts if f.figure.value == 875.5]
    assert [f.figure.unit for f in with_fuller_units(other, facts)] == ["$m"]  # no other reading of 875.5


DEBT_INVESTMENTS = """The following tables present information regarding the Company's debt investments:
Fair value level June 30, 2024 December 31, 2023
(In thousands)
Cash and cash equivalents:
Money market funds Level 1 $ 3,105 $ 11,870
Commercial paper Level 2 — 4,210
Cash and cash equivalents 3,105 16,080
Short-term investments:
U.S. government securities Level 1 48,200 51,100
Corporate bonds Level 2 301,400 199,300
Commercial paper Level 2 5,020 4,900
Short-term investments 354,620 255,300
Total debt investments $ 357,725 $ 271,380
"""


def test_a_fair_value_level_is_part_of_the_rows_label_not_a_figure() -> None:
    from app.text.statements import read_statement

    rows = {r.line_item: r.values for r in read_statement(DEBT_INVESTMENTS).rows}
    assert rows["Corporate bonds Level 2"] == [301400.0, 199300.0]
    assert rows["Commercial paper Level 2"] in ([0.0, 4210.0], [5020.0, 4900.0])


def test_row_members_among_a_group_ranks_the_rows_under_its_heading_against_its_total() -> None:
    from app.facts.query import group_named, row_members

    question = ("Which type of debt received the largest investment among the short term investments of "
                "Quillfeather Mining in H1 FY2024?")
    assert group_named(question) == "short term investments"
    rows = row_members("debt", query(question, (2024,)), [evidence(DEBT_INVESTMENTS)], [COMPANY], question)
    in_2024 = {f.segment: (f.figure.value, f.of_total and f.of_total.value) for f in rows
               if f.figure.fiscal_year == 2024}
    # the group's own rows, never the cash equivalents' nor the group's total among them
    assert in_2024 == {"U.S. government securities Level 1": (48200.0, 354620.0),
                       "Corporate bonds Level 2": (301400.0, 354620.0),
                       "Commercial paper Level 2": (5020.0, 354620.0)}


def test_the_largest_among_a_group_is_answered_at_the_date_asked_beside_the_groups_total() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    block = Block(n=1, kind="report", header="[1] Quillfeather Mining FY2024, p.9 [text]", source_id="qm-q2",
                  chunk_id="qm-q2::0", company=COMPANY, fiscal_year=2024, page=9, text=DEBT_INVESTMENTS)
    answer = compose_offline({"question": "Which type of debt received the largest investment among the short term "
                                          "investments for Quillfeather Mining in H1 FY2024?",
                              "companies": [COMPANY], "fiscal_years": [2024], "blocks": [block]})
    assert answer.startswith("Corporate bonds was the largest, at $301,400k at 30 June 2024, of a total of "
                             "$354,620k [1]."), answer
    assert "Money market" not in answer


def test_the_largest_row_of_a_statement_the_question_names_is_not_a_breakdowns_member() -> None:
    """'the largest liability in its balance sheet' is a balance sheet row, though a note elsewhere in the
    prompt breaks hedges down by kind: and the total it is stated beside cites the chunk that holds it."""
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    head = "CONSOLIDATED BALANCE SHEETS\nDecember 31 (Millions) 2024 2023\n"
    first = head + "Total assets $ 98,400 $ 90,100\nLiabilities\nCustomer deposits $ 52,100 $ 47,300\n"
    second = head + ("Liabilities\nCustomer deposits $ 52,100 $ 47,300\nAccounts payable 6,200 5,900\nLong-term debt 21,700 20,400\n"
                     "Total liabilities $ 80,000 $ 73,600\nShareholders' Equity\n")
    hedges = ("Derivative liabilities by kind\n(Millions) 2024 2023\nNet investment hedges 350 210\n"
              "Cash flow hedges 120 95\n")
    blocks = [Block(n=i, kind="report", header=f"[{i}] {COMPANY} FY2024, p.{p} [text]", source_id=f"qm-p{p}",
                    chunk_id=f"qm-p{p}::{c}", company=COMPANY, fiscal_year=2024, page=p, text=t)
              for i, (p, c, t) in enumerate([(40, 0, first), (40, 1, second), (77, 0, hedges)], start=1)]
    answer = compose_offline({"question": f"What was the largest liability in {COMPANY}'s Balance Sheet in 2024?",
                              "companies": [COMPANY], "fiscal_years": [2024], "blocks": blocks})
    assert answer.startswith("Customer deposits was the largest, at $52,100m at the end of FY2024, of a total of "
                             "$80,000m [1][2]."), answer


def test_an_earnings_releases_bare_thousands_are_dollars_unless_it_marks_another_currency() -> None:
    text = ("CONSOLIDATED STATEMENTS OF OPERATIONS\n(In thousands)\nTwelve Months Ended December 31,\n2024 2023\n"
            "Interest expense, net of amounts capitalized (410,200) (455,900)\n")
    q = query("What was Quillfeather Mining's interest expense in FY2024?", (2024,))
    release = Evidence(chunk_id="qm-rel::2", source_id="QUILLFEATHER_2024Q4_EARNINGS:p11", company=COMPANY,
                       fiscal_year=2024, page=11, text=text)
    assert {f.figure.unit for f in facts_for(q, [release])} == {"$k"}
    yen = release.model_copy(update={"text": text.replace("(In thousands)", "(In thousands of yen)")})
    assert all("$" not in f.figure.unit for f in facts_for(q, [yen]))


def test_the_largest_among_a_group_is_stated_with_its_share_of_the_groups_total_as_calculated() -> None:
    """The facts step hands the calculator the group's rows and the total its table states (origin 'total', which
    the request to the calculator carries); the calculator works out the largest row's share of it; the answer
    states that share beside the total, citing the calculation."""
    from app.calc_tools import evaluate
    from app.evidence import Evidence
    from app.models.providers.offline.calculator import _figure_fields, plan_tool_calls
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block
    from nodes.calculate import figure_payloads
    from nodes.facts import row_figures
    from nodes.routing import calculate_what_it_compares
    from app.routing.decision import RouteDecision

    question = ("Which type of debt received the largest investment among the short term investments for "
                "Quillfeather Mining in H1 FY2024?")
    evidence = Evidence(source_id="qm-q2", chunk_id="qm-q2::0", company=COMPANY, fiscal_year=2024, page=9,
                        text=DEBT_INVESTMENTS, doc_type="report")
    figures = row_figures(question, read_query(question, [COMPANY], [2024]), [evidence], [COMPANY])
    assert [f.origin for f in figures].count("total") == 1 and len(figures) == 4
    # what the calculator reads back from its request keeps which figure is the total
    sent = [_figure_fields(p) for p in figure_payloads(figures)]
    assert [p.get("origin") for p in sent].count("total") == 1
    plan = plan_tool_calls(question, [f.model_copy(update={"origin": p.get("origin", "")})
                                      for f, p in zip(figures, sent)])
    assert plan == [("evaluate", {"expression": "301400 / 354620 * 100", "unit": "%"})]
    result = evaluate(**plan[0][1])
    block = Block(n=1, kind="report", header="[1] Quillfeather Mining FY2024, p.9 [text]", source_id="qm-q2",
                  chunk_id="qm-q2::0", company=COMPANY, fiscal_year=2024, page=9, text=DEBT_INVESTMENTS)
    calc = Block(n=2, kind="calculation", header="[2] calculation", source_id="calculation", text="share")
    answer = compose_offline({"question": question, "companies": [COMPANY], "fiscal_years": [2024],
                              "blocks": [block, calc], "calculation": type("C", (), {"results": [result]})()})
    assert answer.startswith("Corporate bonds was the largest, at $301,400k at 30 June 2024, 85.0% of the total of "
                             "$354,620k [1][2]."), answer
    # a ranking among a named group is routed to the calculator, so the share is worked out
    decision = RouteDecision(needs_retrieval=True)
    assert calculate_what_it_compares(decision, question).needs_calculation


def test_a_sentence_on_another_thing_of_what_the_measure_is_of_gives_no_figure_of_it() -> None:
    question = "What was Quillfeather Mining's provision for credit losses in the first quarter of 2024?"
    allowance = evidence("Results for the first quarter of 2024 included a reduction in the allowance for credit "
                         "losses of $5.2 billion compared to an increase of $6.8 billion in the prior year.")
    assert facts_for(query(question), [allowance]) == []
    provision = evidence("The provision for credit losses was a net benefit of $4.2 billion in the first quarter "
                         "of 2024, driven by reductions in the allowance for credit losses.")
    assert [f.figure.value for f in facts_for(query(question), [provision])][:1] == [4.2]


def test_the_owners_share_and_the_share_class_are_no_words_of_another_per_share_line() -> None:
    """'Diluted net income per common share attributable to Tamsin' is the diluted net income per share asked;
    the non-controlling interests' share never is, and basic is another line."""
    from app.facts.query import NAMES_MEASURE, label_match, read_query

    query = read_query("What was Tamsin Rail's net income per diluted share in 2024?", ["Tamsin Rail"], [2024])
    assert label_match("Diluted NET INCOME PER COMMON SHARE ATTRIBUTABLE TO TAMSIN", query) >= NAMES_MEASURE
    assert label_match("Basic NET INCOME PER COMMON SHARE ATTRIBUTABLE TO TAMSIN", query) < NAMES_MEASURE
    assert label_match("Net income attributable to noncontrolling interests", query) < NAMES_MEASURE


HIGHLIGHTS_10Q = """Kestrel Bancorp
Consolidated financial highlights (unaudited)
As of or for the period ended, (in millions, except per share, ratio, headcount data
and where otherwise noted) 1Q25 4Q24 3Q24
Common shares at period-end 3,027.1 3,049.4 3,048.2
Book value per share 82.31 81.75 79.08
Tangible book value per share (“TBVPS”)(b) 66.56 66.11 63.93
"""


def test_a_per_share_row_of_a_us_quarterly_filing_is_in_dollars_and_dated_by_its_quarter_column() -> None:
    """'Tangible book value per share 66.56' under '1Q25 4Q24 3Q24' in a 10-Q that marks no currency on the
    chunk: dollars (an SEC filing's), for the first quarter of 2025."""
    doc = Evidence(chunk_id="kb-q1-3", source_id="KESTRELBANCORP_2025Q1_10Q:p3", company="Kestrel Bancorp",
                   fiscal_year=2025, page=3, text=HIGHLIGHTS_10Q)
    q = read_query("What was Kestrel Bancorp's tangible book value per share at the end of Q1 2025?",
                   ["Kestrel Bancorp"], [2025])
    best = choose(facts_for(q, [doc]), q)
    assert [(f.figure.value, f.figure.unit, f.part) for f in best[:1]] == [(66.56, "$", "Q1")]


BALANCE_AND_FLOW = [
    """Kestrel Games Inc.
CONSOLIDATED BALANCE SHEETS
(Amounts in millions, except share data)
At December 31, 2025 At December 31, 2024
Cash and cash equivalents $ 5,794 $ 4,225
Accounts receivable, net of allowances of $132 and $190, at December 31, 2025 and December 31, 2024, respectively 848 1,035
Inventories, net 32 43
""",
    """Kestrel Games Inc.
CONSOLIDATED STATEMENTS OF CASH FLOWS
(Amounts in millions)
For the Years Ended December 31,
2025 2024 2023
Changes in operating assets and liabilities:
Accounts receivable, net 182 (114) (165)
Inventories 10 (3) 4
"""]


def test_a_balance_asked_at_a_periods_end_is_the_balance_sheets_not_the_cash_flow_change() -> None:
    """'Did its net accounts receivable decrease from the end of 2024 to the end of 2025?': the balance sheet's
    848 and 1,035, not the cash flow statement's change in receivables of the same name; and receivables are an
    amount, though 'accounts' is a word that counts things."""
    docs = [Evidence(chunk_id=f"kg-{k}", source_id=f"KESTRELGAMES_2025_10K:p{60 + k}", company="Kestrel Games",
                     fiscal_year=2025, page=60 + k, text=text) for k, text in enumerate(BALANCE_AND_FLOW)]
    q = read_query("Did Kestrel Games' net accounts receivable decrease from the end of 2024 to the end of 2025?",
                   ["Kestrel Games"], [2024, 2025])
    assert q.kind != "count" and q.at_end
    pair = two_periods(facts_for(q, docs), q)
    assert pair is not None and (pair[0].figure.value, pair[1].figure.value) == (1035.0, 848.0)
    flow = read_query("How much did Kestrel Games' accounts receivable change in its cash flow statement in 2025?",
                      ["Kestrel Games"], [2025])
    assert not flow.at_end


def test_figures_listed_after_a_per_share_subject_are_per_share() -> None:
    text = ("Total Equity $ 17,273 $ 16,151 $ 13,552\n(a) Cash dividends declared per common share were $4.5250, "
            "$4.2475 and $4.0225 for 2025, 2024 and 2023, respectively.\nSee accompanying notes.")
    doc = Evidence(chunk_id="kg-eq", source_id="KESTRELGAMES_2025_10K:p66", company="Kestrel Games",
                   fiscal_year=2025, page=66, text=text)
    q = read_query("What cash dividends per common share did Kestrel Games declare in 2024?", ["Kestrel Games"],
                   [2024])
    assert [(f.figure.value, f.figure.unit) for f in choose(facts_for(q, [doc]), q)[:1]] == [(4.2475, "$")]
    totals = Evidence(chunk_id="kg-eq2", source_id="KESTRELGAMES_2025_10K:p67", company="Kestrel Games",
                      fiscal_year=2025, page=67, text="Dividends paid were $4,5 billion in 2024, or $3.10 per share.")
    assert all(f.figure.value != 4.5 for f in facts_for(q, [totals]))


_FIRM_HIGHLIGHTS = """Consolidated financial highlights (unaudited)
As of or for the period ended, (in millions, except per share, ratio, headcount data
and where otherwise noted) 1Q25 4Q24 3Q24 2Q24 1Q24
Total stockholders' equity 280,714 279,354 271,113 264,466 261,262
Headcount 259,350 255,351 256,358 256,710 256,720
"""
_BUSINESS_TABLE = """CORPORATE
Selected income statement and balance sheet data
As of or for the three months
ended March 31,
(in millions, except
headcount) 2025 2024 Change
Total assets 1,500,000 1,400,000 7
Headcount 20,578 21,302 (3)
"""


def test_a_count_asked_of_a_quarterly_report_without_a_period_is_the_firms_for_its_latest_quarter() -> None:
    """'(in millions, except' / 'headcount) 2025 2024': the note the next line closes leaves headcount unscaled;
    asked with no period, a quarterly report's latest quarter answers, and the firm's count, not a business's."""
    from app.text.statements import read_statement

    rows = {r.line_item: r for r in read_statement(_BUSINESS_TABLE).rows}
    assert rows["Headcount"].scale is None and rows["Total assets"].scale == "millions"
    docs = [Evidence(chunk_id=f"tb-{n}", source_id=f"TERNLINE_2025Q1_10Q:p{n}", company="Ternline Bank",
                     fiscal_year=2025, page=n, text=text) for n, text in ((3, _FIRM_HIGHLIGHTS), (33, _BUSINESS_TABLE))]
    q = read_query("What is Ternline Bank's total headcount according to its quarterly report?", ["Ternline Bank"])
    assert not q.years and q.part is None
    best = choose(facts_for(q, docs), q)
    assert best and best[0].figure.value == 259350.0 and best[0].figure.unit == "", best[:1]


def test_members_of_a_table_totalled_as_another_kind_of_the_measure_are_not_its_members() -> None:
    """'… revenue by reportable segment …' over 'Total subscription revenue': each row is a segment's subscription
    revenue, no answer to its revenue (the chunk had cut 'Subscription' off the title)."""
    head = "Fiscal\n2024\nFiscal\n2023\nFiscal\n2022\n% Change\n2024-2023\n% Change\n2023-2022\n"
    table = ("Revenue (dollars in millions)\nRevenue for fiscal 2023 benefited from an extra week in its first quarter.\n"
             + head +
             "revenue by reportable segment for fiscal 2024, 2023 and 2022 is as follows (dollars in millions):\n"
             "Fiscal\n2024\nFiscal\n2023\nFiscal\n2022\n% Change\n2024-2023\n% Change\n2023-2022\n"
             "Creative Tools $ 4,480.8 $ 3,370.8 $ 2,264.7 33% 49%\n"
             "Audience Marketing 1,609.5 1,180.4 937.0 36% 26%\n"
             "Total {kind}revenue $ 6,090.3 $ 4,551.2 $ 3,201.7 34% 42%\n")
    q = read_query("What was the revenue of Larchmont's Audience Marketing segment in fiscal 2024?", ["Larchmont"])
    found = []
    for kind in ("subscription ", ""):
        doc = Evidence(chunk_id="lm-40", source_id="LARCHMONT_2024_10K:p40", company="Larchmont", fiscal_year=2024,
                       page=40, text=table.format(kind=kind))
        found.append([f.figure.value for f in member_facts(q, [doc], ["Larchmont"])
                      if f.segment == "Audience Marketing" and f.figure.fiscal_year == 2024])
    assert found == [[], [1609.5]], found


def test_a_division_named_in_full_is_its_rows_contraction() -> None:
    """'Latin America' asked, 'LatAm' the division table's row: the same division; 'Latin' alone or 'APAC' is not."""
    from app.facts.query import same_member

    assert same_member("Latin America", "LatAm") and same_member("North America", "NorAm")
    assert not same_member("Latin America", "Latin") and not same_member("Asia Pacific", "AsiaPacificJapan")
    table = ("Net revenue and operating profit/(loss) of each division are as follows:\n"
             "Net Revenue Operating Profit/(Loss)\n2024 2023 2022 2024 2023 2022\n"
             "FLNA $ 23,291 $ 19,608 $ 18,189 $ 6,135 $ 5,633 $ 5,340\n"
             "LatAm 9,779 8,108 6,942 1,627 1,369 1,033\n"
             "Total division 33,070 27,716 25,131 7,762 7,002 6,373\n")
    doc = Evidence(chunk_id="lm-70", source_id="LARCHMONT_2024_10K:p70", company="Larchmont", fiscal_year=2024,
                   page=70, text=table)
    q = read_query("What was the operating profit of Larchmont's Latin America (LatAm) division in 2024?",
                   ["Larchmont"])
    best = choose(facts_for(q, [doc], ["Larchmont"]), q)
    assert best and best[0].figure.value == 1627.0, best[:1]


def test_a_deadline_in_the_question_dates_a_plan_not_the_figure_asked() -> None:
    from app.text.periods import deadline_years

    question = ("What pre-tax charge did Larchmont record in the fourth quarter of 2024 as a result of its "
                "commitment to exit PFAS manufacturing by the end of 2026?")
    assert deadline_years(question) == [2026]
    assert read_query(question, ["Larchmont"], [2024, 2026]).years == (2024,)
    assert read_query("What capital expenditure does Larchmont plan by 2030?", ["Larchmont"], [2030]).years == (2030,)
    assert deadline_years("What was revenue by 2024 segment and in 2024?") == []  # named otherwise too


_DIVIDEND_RELEASE = ("Dividend The Kestrel Board of Directors today declared a quarterly cash dividend of 13.5 cents "
                     "per share (compared with 13.0 cents per share in the same quarter last year). Combined with the "
                     "last three quarterly dividends, this increases the annual dividend for fiscal 2024 to 53.5 "
                     "cents per share. The quarterly dividend declared today will be paid in US dollars.")


@pytest.mark.parametrize("question, value", [
    ("What quarterly dividend did Kestrel declare in fiscal 2024?", 13.5),
    ("What annual dividend per share did Kestrel pay for fiscal 2024?", 53.5),
])
def test_a_quarterly_dividend_asked_is_a_quarters_not_the_years_total(question: str, value: float) -> None:
    """'declared a quarterly cash dividend of 13.5 cents … increases the annual dividend for fiscal 2024 to 53.5
    cents': asked its quarterly dividend, the quarter's rate answers, not the year's sum of four."""
    docs = [Evidence(chunk_id="kd-1", source_id="KESTREL_2024Q4_EARNINGS:p2", company="Kestrel", fiscal_year=2024,
                     page=2, text=_DIVIDEND_RELEASE)]
    q = read_query(question, ["Kestrel"])
    best = choose(facts_for(q, docs), q)
    assert best and best[0].figure.value == value, best[:2]


@pytest.mark.parametrize("text", [
    'Kestrel Games had 312 million average monthly active users ("MAUs") in 2024, up from 290 million.',
    "Kestrel had 312 million MAUs in 2024.",
])
def test_an_initialism_asked_is_read_in_the_words_the_report_defines_it_by(text: str) -> None:
    """'How many MAUs …': the count, whether the sentence writes the initialism or the words it stands for with the
    initialism in brackets; 'MAUs' is no short name of a company ('AmEx', 'JnJ')."""
    docs = [Evidence(chunk_id="k-1", source_id="KESTREL_2024_10K:p5", company="Kestrel", fiscal_year=2024, page=5,
                     text=text)]
    q = read_query("How many MAUs did Kestrel have in 2024?", ["Kestrel"])
    assert q.measure.count_noun == "MAUs"
    best = choose(facts_for(q, docs), q)
    assert best and best[0].figure.value == 312.0 and best[0].figure.fiscal_year == 2024, best[:2]


@pytest.mark.parametrize("text, question, value", [
    ("Kestrel closed 35 stores during fiscal 2024 and opened 12 new ones.",
     "How many stores did Kestrel close in fiscal 2024?", 35.0),
    ("Kestrel ended 2024 with 512 aircraft in its fleet, up from 498 at the end of 2023.",
     "How many aircraft did Kestrel have at the end of 2024?", 512.0),
    ("Total paid memberships at the end of the year were 61.7 million.",
     "How many paid memberships did Kestrel have at the end of 2024?", 61.7),
    ("The Company repurchased 4.2 million shares for $512 million during fiscal 2024.",
     "How much did Kestrel spend on share repurchases in fiscal 2024?", 512.0),
    ("The Board declared a final dividend of 12.5p per share, bringing the total dividend for the year to 18.0p "
     "(2023: 17.0p).", "What was Kestrel's total dividend per share for 2024?", 18.0),
    ("Approximately 64% of our revenue in 2024 was generated outside the United States.",
     "What percentage of Kestrel's revenue came from outside the United States in 2024?", 64.0),
    ("During 2024 we returned $2.4 billion to shareholders through dividends and share repurchases.",
     "How much cash did Kestrel return to shareholders in 2024?", 2.4),
])
def test_a_fact_stated_in_a_sentence_of_the_companys_own_is_read(text: str, question: str, value: float) -> None:
    """The verb asked ('close') is the flow a sentence states; a year that dates no other figure dates the
    sentence's own; a date between the noun and its verb; a scaled count of shares is no money; pence are per
    share; 'generated outside the United States' is the International part; 'return to shareholders in 2024' is
    what was returned, the year no payout's name."""
    best = _kestrel_best(text, question, "KESTREL_2024_10K:p6")
    assert best and best[0].figure.value == value, best[:2]


@pytest.mark.parametrize("text, question, value", [
    ("In fiscal 2024, we opened 62 new stores and closed 14, ending the year with 1,372 stores.",
     "How many stores did Kestrel have at the end of fiscal 2024?", 1372.0),
    ("Kestrel opened 47 net new restaurants in 2024, bringing the total to 2,118.",
     "How many restaurants did Kestrel have at the end of 2024?", 2118.0),
    ("The Board recommends a final dividend of 4.1p per share, payable on 23 May 2025.",
     "What final dividend per share did Kestrel recommend for 2024?", 4.1),
])
def test_a_years_closing_count_and_a_payout_dated_by_its_payment_day(text: str, question: str, value: float) -> None:
    """'ending the year with 1,372 stores' is the whole, no part of the 62 opened; 'bringing the total to 2,118'
    counts the restaurants the 47 opened were added to; 'payable on 23 May 2025' dates the payment, not the year
    the dividend is for."""
    best = _kestrel_best(text, question, "KESTREL_2024_AR:p4")
    assert best and best[0].figure.value == value, best[:2]


@pytest.mark.parametrize("text, question, value", [
    ("We sold 4.6 million units in 2024, compared with 4.2 million units in 2023.",
     "How many units did Kestrel sell in 2024?", 4.6),
    ("Our headcount decreased by 6% to 8,450 during 2024 as a result of the restructuring program.",
     "What was Kestrel's headcount at the end of 2024?", 8450.0),
    ("Selling, general and administrative expenses were $1,234 million, or 15.1% of net sales, compared with "
     "$1,180 million, or 15.0%, in 2023.", "What were Kestrel's selling, general and administrative expenses in "
     "2024?", 1234.0),
])
def test_a_count_sold_a_count_changed_to_and_a_comparative_after_its_share(text: str, question: str,
                                                                          value: float) -> None:
    """'How many units did it sell': the units, 'sold' being sell's; '4.6 million units in 2024' is dated by the
    year after its noun; 'headcount decreased by 6% to 8,450' counts the headcount; '$1,180 million, or 15.0%, in
    2023' is the comparative, so the other figure is 2024's."""
    best = _kestrel_best(text, question, "KESTREL_2024_10K:p9")
    assert best and best[0].figure.value == value, best[:2]


@pytest.mark.parametrize("text, question, value", [
    ("Kestrel had approximately 38,000 employees worldwide as of January 31, 2025.",
     "How many employees did Kestrel have at the end of fiscal 2024?", 38000.0),
    ("The Group's underlying EBIT margin was 14.2% (FY23: 13.8%).",
     "What was Kestrel's underlying EBIT margin in FY2023?", 13.8),
    ("The Group's underlying EBIT margin was 14.2% (FY23: 13.8%).",
     "What was Kestrel's underlying EBIT margin in FY2024?", 14.2),
])
def test_a_year_end_early_in_the_next_and_a_comparative_of_a_two_digit_year(text: str, question: str,
                                                                            value: float) -> None:
    """A fiscal 2024 report's 'as of January 31, 2025' is its year end; '(FY23: 13.8%)' is FY2023's."""
    best = _kestrel_best(text, question, "KESTREL_2024_10K:p3")
    assert best and best[0].figure.value == value, best[:2]


def _kestrel_best(text: str, question: str, source_id: str) -> list:
    """The facts chosen for a question on one page of Kestrel's FY2024 filing, best first."""
    page = int(source_id.rsplit(":p", 1)[1])
    docs = [Evidence(chunk_id=f"k-{page}", source_id=source_id, company="Kestrel", fiscal_year=2024, page=page,
                     text=text)]
    q = read_query(question, ["Kestrel"])
    return choose(facts_for(q, docs, ["Kestrel"]), q)


def test_a_count_asked_at_the_years_end_is_the_sentence_that_states_it_there() -> None:
    text = ("Our franchise partners opened 6 stores, taking the international franchise estate to 64 stores in 9 "
            "countries. In the UK, 9 stores opened, 17 closed; 387 stores at year end.")
    assert chosen(text, f"How many stores did {COMPANY} have at the end of 2024?")[:1] == [(387.0, 2024)]
    ended = ("Partners opened 6 stores, taking the franchise estate to 64 stores. We ended the year with 1,410 stores, "
             "compared with 1,372 a year earlier.")
    assert chosen(ended, f"How many stores did {COMPANY} have at the end of 2024?")[:1] == [(1410.0, 2024)]


def test_a_years_total_before_a_quarters_rate_is_the_years_and_the_rate_the_quarters() -> None:
    text = "Dividends declared in respect of 2024 totalled $1.45 per share ($0.3625 per quarter)."
    assert chosen(text, f"What dividend per share did {COMPANY} declare for 2024?")[:1] == [(1.45, 2024)]
    assert chosen(text, f"What quarterly dividend did {COMPANY} declare for 2024?")[:1] == [(0.3625, 2024)]


def test_a_statutory_figure_is_the_measure_as_the_accounts_state_it() -> None:
    text = ("Underlying net profit after tax was A$301.4 million. Statutory net profit after tax was A$272.1 "
            "million.")
    assert chosen(text, f"What was {COMPANY}'s net profit after tax in 2024?")[:1] == [(272.1, 2024)]
    assert chosen(text, f"What was {COMPANY}'s underlying net profit after tax in 2024?")[:1] == [(301.4, 2024)]


def test_a_share_is_of_what_follows_its_of() -> None:
    text = ("During 2024, Brightline Stores accounted for 21 percent of our consolidated net sales and 30 percent of "
            "net sales of our Retail segment.")
    assert chosen(text, f"What share of {COMPANY}'s consolidated net sales came from Brightline Stores in 2024?")[:1] \
        == [(21.0, 2024)]


def test_a_forecast_noun_after_the_measure_asks_the_forecast_of_the_measure() -> None:
    for question in (f"What is {COMPANY}'s revenue forecast for 2025?",
                     f"What revenue forecast did {COMPANY} give for 2025?"):
        asked = query(question)
        assert (asked.measure.phrase, asked.ahead) == ("revenue", True), question
    text = "For 2025 we expect revenue between €2.45 billion and €2.60 billion."
    assert chosen(text, f"What is {COMPANY}'s revenue forecast for 2025?")[:2] == [(2.45, 2025), (2.6, 2025)]
