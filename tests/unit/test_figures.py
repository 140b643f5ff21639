"""Figures for the calculator: markdown tables, "X was Y (FY2023: Z)" sentences, statement pages as pypdf extracts
them, totals stated in sentences, and prepare_calculation."""

from __future__ import annotations

from typing import Any

from app.calc_tools import Figure
from app.evidence import Evidence, RetrievalResult
from app.facts.readers import (
    extract_figures,
    growth_figures,
    sentence_figures,
    statement_figures,
    statement_unit,
    table_figures,
    total_figures,
)
from nodes.figures import prepare_calculation

NW, HL, CL = "Northwind Logistics", "Helio Renewables", "Copperleaf Foods"

TABLE = """Key performance indicators
| Measure | FY2024 | FY2023 | Change |
|---|---|---|---|
| Operating margin | 6.7% | 6.4% | 0.3pp |
| Revenue (£m) | 1,311.2 | 1,204.6 | 8.8% |
| Basic EPS | 13.1p | 12.0p | 9% |
| Net debt (£m) | (63.9) | (40.1) | |
"""

SEGMENTS = """| Segment | FY2024 revenue (£m) | FY2024 margin | FY2023 revenue (£m) |
|---|---|---|---|
| Road | 512.3 | 4.1% | 480.0 |
| Rail | 100.0 | 3.2 | 90.0 |
"""


def doc(text: str, *, company: str = NW, year: int | None = 2024, chunk_id: str = "c1") -> Evidence:
    return Evidence(chunk_id=chunk_id, source_id=f"src-{chunk_id}", company=company, fiscal_year=year, text=text)


def as_tuples(figures: list[Figure]) -> list[tuple[str, float, str, int | None]]:
    return [(f.label, f.value, f.unit, f.fiscal_year) for f in figures]


# --- tables -------------------------------------------------------------------------------------------------


def test_table_figures_years_units_and_negatives():
    figures = table_figures(doc(TABLE))
    assert as_tuples(figures) == [
        ("Operating margin", 6.7, "%", 2024), ("Operating margin", 6.4, "%", 2023),
        ("Revenue", 1311.2, "£m", 2024), ("Revenue", 1204.6, "£m", 2023), ("Revenue growth", 8.8, "%", 2024),
        ("Basic EPS", 13.1, "p", 2024), ("Basic EPS", 12.0, "p", 2023), ("Basic EPS growth", 9.0, "%", 2024),
        ("Net debt", -63.9, "£m", 2024), ("Net debt", -40.1, "£m", 2023),
    ]  # the "Change" column next to FY2024 and FY2023 is FY2024's growth; "0.3pp" is no growth rate


def test_table_figures_carry_their_source():
    first = table_figures(doc(TABLE))[0]
    assert (first.company, first.source_id, first.chunk_id) == (NW, "src-c1", "c1")
    assert first.quote == "| Operating margin | 6.7% | 6.4% | 0.3pp |"


def test_column_qualifiers_are_appended_and_column_units_stay_in_their_column():
    figures = table_figures(doc(SEGMENTS))
    assert as_tuples(figures) == [
        ("Road revenue", 512.3, "£m", 2024), ("Road margin", 4.1, "%", 2024), ("Road revenue", 480.0, "£m", 2023),
        ("Rail revenue", 100.0, "£m", 2024), ("Rail margin", 3.2, "", 2024), ("Rail revenue", 90.0, "£m", 2023),
    ]


def test_a_unit_in_the_first_header_cell_applies_to_every_column():
    text = "| £m | FY2024 | FY2023 |\n|---|---|---|\n| Revenue | 949.3 | 845.1 |"
    assert as_tuples(table_figures(doc(text))) == [("Revenue", 949.3, "£m", 2024), ("Revenue", 845.1, "£m", 2023)]


def test_header_units_and_currency_cells():
    text = ("| Measure | 2024 | 2023 |\n|---|---|---|\n| Dividend per share (pence) | 5.2 | 4.8 |\n"
            "| Cash | €1,204.5m | −€12.0m |")
    assert as_tuples(table_figures(doc(text))) == [
        ("Dividend per share", 5.2, "p", 2024), ("Dividend per share", 4.8, "p", 2023),
        ("Cash", 1204.5, "€m", 2024), ("Cash", -12.0, "€m", 2023),
    ]


def test_rows_before_any_year_header_and_non_numeric_cells_are_ignored():
    text = "| Name | Role |\n|---|---|\n| Sarah Okafor | Chair |\n| Measure | FY2024 |\n|---|---|\n| Staff | n/a |"
    assert table_figures(doc(text)) == []


# --- sentences ----------------------------------------------------------------------------------------------


def test_sentence_figure_with_prior_year():
    figures = sentence_figures(doc("Operating profit was €112.0m (FY2023: €114.5m).", company=HL))
    assert as_tuples(figures) == [("Operating profit", 112.0, "€m", 2024), ("Operating profit", 114.5, "€m", 2023)]
    assert figures[0].quote == "Operating profit was €112.0m (FY2023: €114.5m)"
    assert figures[0].company == HL


def test_sentence_figure_with_a_change_verb_and_leading_words():
    figures = sentence_figures(doc("In FY2024 group revenue rose by 8.8% to £1,311.2m (2023: £1,204.6m)."))
    assert as_tuples(figures) == [("Revenue", 1311.2, "£m", 2024), ("Revenue", 1204.6, "£m", 2023)]


def test_sentence_figure_needs_the_evidence_year():
    assert sentence_figures(doc("Operating profit was €112.0m.", year=None)) == []


def test_a_word_after_a_number_is_not_a_unit():
    figures = sentence_figures(doc("Headcount was 1,200 people at year end."))
    assert as_tuples(figures) == [("Headcount", 1200.0, "", 2024)]


def test_extract_figures_dedupes_across_readers_and_chunks():
    a = doc("| Measure | FY2024 |\n|---|---|\n| Operating margin | 6.7% |", chunk_id="a")
    b = doc("Operating margin was 6.7% in the year.", chunk_id="b")
    figures = extract_figures([a, b])
    assert as_tuples(figures) == [("Operating margin", 6.7, "%", 2024)]
    assert figures[0].chunk_id == "a"


# --- prepare_calculation ------------------------------------------------------------------------------------


def margins(company: str, chunk_id: str, year: int = 2024, values: tuple[str, str] = ("6.7%", "6.4%")) -> Evidence:
    text = f"| Measure | FY{year} | FY{year - 1} |\n|---|---|---|\n| Operating margin | {values[0]} | {values[1]} |"
    return doc(text, company=company, year=year, chunk_id=chunk_id)


def state(companies: list[str], years: list[int], *evidence: Evidence, **extra: Any) -> dict[str, Any]:
    return {"question": "q?", "companies": companies, "fiscal_years": years,
            "retrieval_result": RetrievalResult(status="found", evidence=list(evidence)), **extra}


EVIDENCE = (margins(NW, "nw"), margins(HL, "hl", values=("9.1%", "8.8%")), margins(CL, "cl", values=("3.0%", "2.0%")))


def test_prepare_calculation_keeps_only_the_turns_companies():
    figures = prepare_calculation(state([NW], [2024], *EVIDENCE))["figures"]
    assert {f.company for f in figures} == {NW}
    assert sorted(f.fiscal_year for f in figures) == [2023, 2024]  # one company: growth needs both years


def test_prepare_calculation_comparing_companies_keeps_only_the_named_years():
    figures = prepare_calculation(state([NW, HL], [2024], *EVIDENCE))["figures"]
    assert sorted((f.company, f.fiscal_year, f.value) for f in figures) == [(HL, 2024, 9.1), (NW, 2024, 6.7)]


def test_prepare_calculation_comparing_companies_without_years_keeps_every_year():
    figures = prepare_calculation(state([NW, HL], [], *EVIDENCE))["figures"]
    assert len(figures) == 4 and {f.company for f in figures} == {NW, HL}


def test_prepare_calculation_company_match_ignores_case_and_reads_news_too():
    news = Evidence(chunk_id="n", source_id="news", company=HL, fiscal_year=2024, doc_type="news",
                    text="Storage revenue was $51.7m.")
    figures = prepare_calculation(state(["helio renewables"], [], news=[news]))["figures"]
    assert as_tuples(figures) == [("Storage revenue", 51.7, "$m", 2024)]


def test_prepare_calculation_without_evidence_or_companies():
    assert prepare_calculation({"question": "q?"}) == {"figures": []}
    figures = prepare_calculation(state([], [], *EVIDENCE))["figures"]
    assert len(figures) == 6  # nothing to filter on: every figure


def test_prepare_calculation_caps_the_figures():
    assert len(prepare_calculation(state([], [], *EVIDENCE), max_figures=2)["figures"]) == 2


def test_a_sentence_about_another_year_is_not_dated_with_the_evidence_year():
    assert sentence_figures(doc("Revenue was £1.4bn in FY2026 as a target.")) == []
    assert as_tuples(sentence_figures(doc("Revenue was £1.3bn in FY2024."))) == [("Revenue", 1.3, "£bn", 2024)]


def test_growth_sentences_give_signed_growth_rates_of_the_reports_year():
    text = ("Revenue grew 4.9% to €1,288.7m. Operating profit fell 2.2% to €112.0m. "
            "For FY2025 we expect revenue to grow 3% to 5%.")
    figures = growth_figures(doc(text))
    assert as_tuples(figures) == [("Revenue growth", 4.9, "%", 2024), ("Operating profit growth", -2.2, "%", 2024)]


def test_the_calculator_gets_the_figures_the_question_names_first_within_the_limit():
    from app.calc_tools import Figure
    from app.facts.selection import most_relevant

    figures = [Figure(label=label, value=i, source_id="s") for i, label in
               enumerate(["Headcount", "Operating margin", "Revenue", "Operating profit", "Net debt"])]
    kept = most_relevant(figures, "What was the operating margin?", 3)
    assert [f.label for f in kept] == ["Headcount", "Operating margin", "Operating profit"]  # evidence order kept
    assert most_relevant(figures, "anything", 10) == figures



def test_a_question_naming_no_year_gets_the_inputs_of_its_judgement_for_the_latest_year_first():
    from app.calc_tools import Figure
    from app.facts.selection import most_relevant

    rows = ["Cash and cash equivalents", "Receivables, net", "Merchandise inventories", "Other current assets",
            "Total current assets", "Accounts payable", "Accrued salaries", "Total current liabilities"]
    figures = [Figure(label=label, value=i, fiscal_year=year, company="Q", source_id="s")
               for i, label in enumerate(rows) for year in (2021, 2020)]
    kept = most_relevant(figures, "Is Q's liquidity healthy?", 4)
    assert {(f.label, f.fiscal_year) for f in kept} >= {("Total current assets", 2021),
                                                        ("Total current liabilities", 2021)}


def test_year_columns_named_by_dates_and_months_are_not_qualifiers():
    text = ("| | december 31 2017 | december 31 2016 |\n|---|---|---|\n"
            "| total long-term debt | 1279.0 | 1278.0 |")
    assert as_tuples(table_figures(doc(text))) == [("total long-term debt", 1279.0, "", 2017),
                                                   ("total long-term debt", 1278.0, "", 2016)]


# --- statements as pypdf extracts them, and totals stated in sentences --------------------------------------

STATEMENT = """Ambervale Mining Co.
Consolidated Statements of Income
(in millions, except per share data)
Years ended December 31
2023
2022
Net sales
$
3,140
$
2,875
Segment revenue - Quarries 1,020 990
Operating income (loss) 412 (37)
Gross margin 31.2 % 28.9 %
Diluted earnings per share $ 2.05 $ (0.21)
Other, net 4 5 6
"""


def statement_doc(text: str = STATEMENT, **kwargs: Any) -> Evidence:
    return Evidence(chunk_id="s1", source_id="src-s1", company=CL, fiscal_year=2023, page=57, text=text, **kwargs)


def test_statement_text_gives_figures_in_the_reported_scale_with_the_row_as_quote():
    figures = extract_figures([statement_doc()])
    assert as_tuples(figures) == [
        ("Net sales", 3140.0, "$m", 2023), ("Net sales", 2875.0, "$m", 2022),
        ("Segment revenue - Quarries", 1020.0, "$m", 2023), ("Segment revenue - Quarries", 990.0, "$m", 2022),
        ("Operating income (loss)", 412.0, "$m", 2023), ("Operating income (loss)", -37.0, "$m", 2022),
        ("Gross margin", 31.2, "%", 2023), ("Gross margin", 28.9, "%", 2022),
        ("Diluted earnings per share", 2.05, "$", 2023), ("Diluted earnings per share", -0.21, "$", 2022),
    ]  # "Other, net" has three values for two columns: no figure is guessed from it
    first = figures[0]
    assert (first.company, first.source_id, first.chunk_id, first.page, first.period) == (
        CL, "src-s1", "s1", 57, "FY2023")
    assert first.quote == "Net sales $ 3,140 $ 2,875"


def test_statement_percent_change_column_is_the_latest_years_growth():
    text = "(in thousands)\nFiscal 2024 Fiscal 2023 % Change\nTotal revenue 52,400 48,000 9.2 %"
    assert as_tuples(statement_figures(statement_doc(text))) == [
        ("Total revenue", 52400.0, "k", 2024), ("Total revenue", 48000.0, "k", 2023),
        ("Total revenue growth", 9.2, "%", 2024)]


def test_a_segment_notes_values_are_each_segments_and_only_the_whole_columns_the_companys():
    # segments as rows under measures as columns, one block per year, a reconciliation under its own year line
    note = ("(b) Segment results\n2024 A$m Revenue Underlying EBITDA Segment EBIT\n"
            "Copper 1,840.2 702.5 511.0\nGold 655.9 301.4 240.7\nCorporate – (41.2) (44.0)\n"
            "Total segments 2,496.1 962.7 707.7\n2023 (restated) A$m Revenue Underlying EBITDA Segment EBIT\n"
            "Copper 1,702.6 640.1 470.2\nGold 598.3 255.0 199.9\nCorporate – (38.5) (40.9)\n"
            "Total segments 2,300.9 856.6 629.2\n(c) Reconciliation to profit before tax 2024 2023\n"
            "Total segment EBIT 707.7 629.2\nNet finance costs (35.2) (31.8)\n")
    figures = {(f.label, f.fiscal_year): f.value for f in statement_figures(doc(note, company=HL, year=2024))}
    assert figures[("Revenue", 2024)] == 2496.1 and figures[("Revenue", 2023)] == 2300.9
    assert figures[("Copper Revenue", 2024)] == 1840.2 and figures[("Gold Segment EBIT", 2023)] == 199.9
    assert figures[("Underlying EBITDA", 2023)] == 856.6
    # the next table's year line ends the note: no row of it is read as a segment's
    assert not any("Reconciliation" in label or "finance" in label and "EBIT" in label for label, _ in figures)
    revenue = [f for f in extract_figures([doc(note, company=HL, year=2024)]) if f.label == "Revenue"]
    assert [(f.value, f.fiscal_year) for f in revenue] == [(2496.1, 2024), (2300.9, 2023)]


def test_quarter_columns_are_kept_apart_from_the_years_figure():
    annual = statement_doc("(in millions)\n2023 2022\nNet sales $ 3,140 $ 2,875")
    quarterly = statement_doc("(in millions)\nQ4 2023 Q3 2023\nNet sales $ 810 $ 795")
    figures = extract_figures([annual, quarterly])
    assert [(f.value, f.fiscal_year, f.period) for f in figures] == [
        (3140.0, 2023, "FY2023"), (2875.0, 2022, "FY2022"), (810.0, 2023, "Q4 2023"), (795.0, 2023, "Q3 2023")]


def test_a_total_in_a_sentence_is_dated_by_its_june_year_end():
    text = "Revenue for the year ended 30 June 2024 was A$4,210 million, up from A$3,980 million."
    figures = extract_figures([doc(text, company=HL, year=None)])
    assert as_tuples(figures) == [("Revenue", 4210.0, "A$m", 2024)]
    assert figures[0].quote == "Revenue for the year ended 30 June 2024 was A$4,210 million"


def test_a_sentence_total_in_billions_is_one_figure_not_also_a_bare_dollar_one():
    figures = extract_figures([doc("Net sales were $1.2 billion in fiscal 2023.", year=2024)])
    assert as_tuples(figures) == [("Net sales", 1.2, "$bn", 2023)]
    assert as_tuples(total_figures(doc("The group reported total revenue of $4.21bn."))) == [
        ("Total revenue", 4.21, "$bn", 2024)]  # no year in the sentence: the evidence's


def test_statement_units_in_the_calculators_notation():
    assert [statement_unit(u, s) for u, s in [("$", "millions"), ("£", "billions"), ("$ per share", None),
                                               ("%", None), ("shares", "millions"), ("", "thousands"), ("€", None)]] \
        == ["$m", "£bn", "$", "%", "m shares", "k", "€"]


def test_a_whole_company_question_prefers_the_total_to_segment_rows():
    from app.facts.selection import most_relevant

    figures = [Figure(label=label, value=i, source_id="s") for i, label in
               enumerate(["Road revenue", "Rail revenue", "Headcount", "Net sales", "Total revenue"])]
    kept = most_relevant(figures, "What was Copperleaf's revenue in 2023?", 2)
    assert [f.label for f in kept] == ["Net sales", "Total revenue"]
    kept = most_relevant(figures, "What was Rail revenue in 2023?", 2)
    assert [f.label for f in kept] == ["Rail revenue", "Net sales"]  # the question names the segment


def test_company_totals_and_segments():
    from app.facts.measures import is_company_total

    assert [is_company_total(label) for label in
            ["Total revenue", "Net sales", "Consolidated net income", "Revenue", "Road revenue", "Revenue growth"]] \
        == [True, True, True, True, False, False]


def test_a_half_year_column_is_not_the_years_figure() -> None:
    """'| $m | H1 FY2024 | H2 FY2024 | FY2024 |': only the FY2024 column is the year's revenue (the H1 figure was
    once stated as 'total revenue H was $402.6m in FY2024')."""
    from app.facts.readers import table_figures
    from app.evidence import Evidence

    text = ("| $m | H1 FY2024 | H2 FY2024 | FY2024 |\n|---|---|---|---|\n"
            "| Total revenue | 402.6 | 546.7 | 949.3 |\n")
    doc = Evidence(chunk_id="c1", source_id="s", title="t", text=text, company="Helio", fiscal_year=2024,
                   doc_type="report", is_table=True)
    figures = table_figures(doc)
    assert [(f.label, f.fiscal_year, f.value) for f in figures] == [("Total revenue", 2024, 949.3)]
    # the facts step reads the halves too, each as its half ('What was H1 2024 revenue?'), never as the year
    halves = table_figures(doc, parts=True)
    assert [(f.fiscal_year, f.period, f.value) for f in halves] == [(2024, "H1", 402.6), (2024, "H2", 546.7),
                                                                   (2024, None, 949.3)]


# --- the user's own figures stand in for the documents' -------------------------------------------------------


def said(key: str, value: str, record: str = "r1") -> Any:
    from app.turns import MemoryItem

    return MemoryItem(id=record, type="fact", key=key, value=value, said=f"Actually, {key} was {value}.",
                      scope="user", status="active", source="t:turn-2", created_at="2026-01-01", admitted=True)


def test_a_user_figure_replaces_the_documents_in_the_statements_unit() -> None:
    from app.facts.selection import apply_user_figures

    stated = [Figure(label="Net income", value=362220, unit="$k", company="Ternline Logistics", fiscal_year=2024,
                     source_id="p7", chunk_id="p7#1"),
              Figure(label="Net income", value=301870, unit="$k", company="Ternline Logistics", fiscal_year=2023,
                     source_id="p7", chunk_id="p7#1"),
              Figure(label="Operating income", value=500000, unit="$k", company="Ternline Logistics",
                     fiscal_year=2024, source_id="p7", chunk_id="p7#1"),
              Figure(label="Net income", value=90.5, unit="$m", company="Helio Renewables", fiscal_year=2024,
                     source_id="h", chunk_id="h#1")]
    out = apply_user_figures(stated, [said("ternline's fy2024 net income", "$150m")], ["Ternline Logistics"])
    assert [(f.label, f.value, f.unit, f.fiscal_year, f.chunk_id) for f in out] == [
        ("Net income", 150000, "$k", 2024, "memory:r1"),  # $150m in the statement's thousands, citing the user
        ("Net income", 301870, "$k", 2023, "p7#1"),  # another year
        ("Operating income", 500000, "$k", 2024, "p7#1"),  # another measure
        ("Net income", 90.5, "$m", 2024, "h#1")]  # another company
    assert out[0].quote == "Actually, ternline's fy2024 net income was $150m." and out[0].source_id == "memory:r1"


def test_a_user_figure_the_documents_lack_is_added_and_what_cannot_be_read_changes_nothing() -> None:
    from app.facts.selection import apply_user_figures

    revenue = Figure(label="Total revenues", value=4459.4, unit="$m", company="Ternline Logistics", fiscal_year=2024,
                     source_id="p5", chunk_id="p5#1")
    companies = ["Ternline Logistics"]
    assert apply_user_figures([revenue], [said("Ternline's FY2024 revenue", "$4,600m")], companies)[0].value == 4600
    added = apply_user_figures([revenue], [said("Ternline's FY2024 backlog", "$1.2 billion")], companies)
    assert [(f.label, f.value, f.unit) for f in added] == [("Total revenues", 4459.4, "$m"), ("backlog", 1.2, "$bn")]
    for record in (said("the EU refund window", "30 days"),  # no company
                   said("Ternline's revenue", "$4,600m"),  # no year
                   said("Helio's FY2024 revenue", "$99m"),  # not a company of this turn
                   said("Ternline's FY2024 revenue", "$4,600m or $4,700m")):  # two amounts
        assert apply_user_figures([revenue], [record], companies) == [revenue], record.key
    # Another currency, or a bare number under a scaled statement: no rate or scale is guessed.
    for value in ("£4,600m", "4,600"):
        assert apply_user_figures([revenue], [said("Ternline's FY2024 revenue", value)], companies) == [revenue]


def test_the_users_figure_stands_in_for_the_facts_that_lead_the_calculation_too() -> None:
    facts = [Figure(label="Revenue", value=1204.6, unit="£m", company=NW, fiscal_year=2023, source_id="nw-23"),
             Figure(label="Revenue", value=1311.2, unit="£m", company=NW, fiscal_year=2024, source_id="nw-24")]
    out = prepare_calculation(state([NW], [2024], facts=facts,
                                    memory=[said("northwind logistics' fy2024 revenue", "£1,320m")]))["figures"]
    assert [(f.value, f.fiscal_year, f.source_id) for f in out[:2]] == [(1204.6, 2023, "nw-23"),
                                                                        (1320.0, 2024, "memory:r1")]


def test_a_june_year_companys_interim_balance_sheet_column_is_of_the_fiscal_year_it_falls_in():
    # a 10-Q of fiscal 2025 (July 2024 – June 2025): its 31 December 2024 column is FY2025's, its 30 June 2024
    # column the end of FY2024; the calendar year would date both 2024
    page = ("Osprey plc and Subsidiaries\nCondensed Consolidated Balance Sheets\n(Unaudited)\n"
            "($ in millions) December 31, 2024 June 30, 2024\nAssets\nCurrent assets:\n"
            "Cash and cash equivalents $ 837 $ 775\nTrade receivables, net 1,972 1,935\n"
            "Total current assets 5,863 5,853\n")
    cash = [(f.value, f.fiscal_year, f.period) for f in statement_figures(doc(page, year=2025))
            if f.label == "Cash and cash equivalents"]
    assert cash == [(837.0, 2025, "2024-12-31"), (775.0, 2024, "2024-06-30")]
