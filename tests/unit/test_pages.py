"""The page stage of search: statement pages recognised, the statements a question needs, pages ranked."""

from __future__ import annotations

import pytest

from app.knowledge.pages import chunk_order, rank_pages, statement_of_page, statements_wanted

CASH_FLOW_PAGE = """Table of Contents
Kestrel Tools Inc. and Subsidiaries
Consolidated Statement of Cash Flow s
Years ended December 31
(Millions)
2021
2020
Net income 1,204 1,118
Depreciation and amortization 410 398
Purchases of property, plant and equipment (PP&E) (812) (760)
Proceeds from sale of businesses 12 40
Dividends paid (300) (280)
Net cash provided by operating activities 1,802 1,650
Net cash used in investing activities (790) (720)
"""

CONTENTS_PAGE = """Table of Contents
Index to Consolidated Financial Statements
Consolidated Statement of Income 50
Consolidated Balance Sheet 52
Consolidated Statement of Cash Flows 54
Notes to Consolidated Financial Statements 56
"""


def test_a_statement_page_is_recognised_by_its_title_even_when_pdf_text_breaks_words() -> None:
    assert statement_of_page(CASH_FLOW_PAGE) == "cash_flow"
    balance = CASH_FLOW_PAGE.replace("Consolidated Statement of Cash Flow s", "CONSOLIDATED BALANCE SHEETS")
    assert statement_of_page(balance) == "balance"


def test_contents_pages_and_prose_are_no_statement() -> None:
    assert statement_of_page(CONTENTS_PAGE) is None  # names every statement: none of them
    prose = "Consolidated Statement of Cash Flows\nCash from operations rose because customers paid sooner."
    assert statement_of_page(prose) is None  # a title without a page of figures


def test_a_sentence_or_a_notes_heading_that_names_a_statement_is_no_statement_page() -> None:
    figures = "\n".join(f"Line item {i} {100 + i} {90 + i}" for i in range(12))
    reference = ("Table of Contents\nThe location in the consolidated statements of income of gains and losses on "
                 "hedges is as follows:\n" + figures)
    assert statement_of_page(reference) is None
    note = "Table of Contents\nNOTE 6.  Supplemental Income Statement Information\n(Millions)\n" + figures
    assert statement_of_page(note) is None
    sentence = ("Table of Contents\nResearch costs:\nThese costs are shown on a separate line of the\n"
                "Consolidated Statement of Income. Research costs totaled $1.8 billion in 2021.\n" + figures)
    assert statement_of_page(sentence) is None
    review = "We have reviewed the accompanying consolidated balance\nsheet of Kestrel Tools Inc.\n" + figures
    assert statement_of_page(review) is None
    # the statement itself, its title broken over two lines by the PDF extractor
    title = "Table of Contents\nKestrel Tools Inc. and Subsidiaries\nConsolidated Statement of Incom\ne\n" + figures
    assert statement_of_page(title) == "income"


@pytest.mark.parametrize("question, wanted", [
    ("What is FY2021 capex? Rely on the cash flow statement.", {"cash_flow"}),
    ("Using only the balance sheet, what were total assets?", {"balance"}),
    ("From the statement of financial position, what is working capital?", {"balance"}),
    ("What was the P&L's operating income?", {"income"}),
    ("What was capital expenditure in FY2021?", {"cash_flow"}),
    ("What was the quick ratio at year end?", {"balance"}),
    ("What were total liabilities at the end of fiscal 2020?", {"balance"}),
    ("What was gross margin in 2022?", {"income"}),
    ("Who is the chief executive?", set()),
    ("What were Kestrel's Safety segment sales in 2021?", set()),  # a segment's table, not the company's statement
    ("What was the Tools division's operating income in 2021?", set()),
    # a region's figure stands in a breakdown by geography, not in the company's statement
    ("What were Kestrel's net sales in the Asia Pacific region for the three months ended December 31, 2022?", set()),
    ("What was Kestrel's revenue in Europe in 2021?", set()),
])
def test_statements_a_question_needs(question: str, wanted: set[str]) -> None:
    assert statements_wanted(question) == wanted


def test_a_named_statement_wins_over_the_measures_it_mentions() -> None:
    # revenue is an income-statement measure, but the question says where to look
    assert statements_wanted("What was revenue? Use the cash flow statement only.") == {"cash_flow"}


def _rows(*specs: tuple[str, str, int | None, int | None]) -> dict[str, dict]:
    return {cid: {"source_id": sid, "page": page, "fiscal_year": year} for cid, sid, page, year in specs}


def test_pages_add_a_second_chunk_at_half_weight_and_the_wanted_statement_wins() -> None:
    rows = _rows(("a1", "F", 10, 2021), ("a2", "F", 10, 2021), ("b1", "F", 54, 2021), ("c1", "F", 3, 2021))
    chunks = [("a1", 0.030), ("c1", 0.029), ("b1", 0.020), ("a2", 0.010)]
    texts = {("F", 54): CASH_FLOW_PAGE, ("F", 10): "prose", ("F", 3): "prose"}
    plain = rank_pages(chunks, rows, texts, set(), [], unit=1 / 61)
    assert [p.key[1] for p in plain] == [10, 3, 54]  # 0.030 + 0.005 beats 0.029
    wanted = rank_pages(chunks, rows, texts, {"cash_flow"}, [], unit=1 / 61)
    assert [p.key[1] for p in wanted] == [54, 10, 3]
    assert "cash flow statement" in wanted[0].reasons[0]


def test_a_named_year_prefers_that_years_filing_and_pageless_chunks_stand_alone() -> None:
    rows = _rows(("x", "F2020", 5, 2020), ("y", "F2021", 5, 2021), ("n1", "news", None, None),
                 ("n2", "news", None, None))
    chunks = [("x", 0.020), ("n1", 0.019), ("n2", 0.018), ("y", 0.015)]
    pages = rank_pages(chunks, rows, {}, set(), [2021], unit=1 / 61)
    assert pages[0].key == ("F2021", 5)
    assert {p.key for p in pages[1:]} == {("F2020", 5), ("n1", None), ("n2", None)}  # news chunks not merged


def test_the_page_of_the_passage_both_searches_rank_first_is_not_buried_by_pages_of_several_chunks() -> None:
    specs = [(f"p{n}{c}", "F", n, 2022) for n in range(1, 7) for c in "ab"] + [("top", "F", 36, 2022)]
    rows = _rows(*specs)
    # six pages of two middling chunks each outscore the one page whose single chunk every search put first
    chunks = [("top", 0.041)] + [(f"p{n}{c}", 0.036 - n * 0.001 - (0.006 if c == "b" else 0))
                                 for n in range(1, 7) for c in "ab"]
    plain = rank_pages(chunks, rows, {}, set(), [], unit=1 / 61)
    assert [p.key[1] for p in plain].index(36) == 6
    kept = rank_pages(chunks, rows, {}, set(), [], unit=1 / 61, firsts=["top"])
    assert [p.key[1] for p in kept].index(36) == 3  # among the first four pages
    assert "holds one of the passages ranked first" in kept[3].reasons


def test_chunk_order_puts_every_pages_best_chunk_first() -> None:
    rows = _rows(("a1", "F", 1, None), ("a2", "F", 1, None), ("b1", "F", 2, None))
    pages = rank_pages([("a1", 0.03), ("a2", 0.02), ("b1", 0.01)], rows, {}, set(), [], unit=1 / 61)
    assert chunk_order(pages) == ["a1", "b1", "a2"]
    # a page's other chunk that a search ranked first follows its page's best, before the next page
    assert chunk_order(pages, firsts=["a2"]) == ["a1", "a2", "b1"]


@pytest.mark.parametrize("question, forms", [
    ("What was revenue in Q2 2023?", {"10-Q", "earnings", "half-year"}),
    ("What was EBITDA for the half year ended 31 December 2024?", {"10-Q", "earnings", "half-year"}),
    ("What did the 8-K dated 1 July 2022 announce?", {"8-K"}),
    ("What was FY2022 capital expenditure?", {"10-K", "annual"}),
    ("Who is the chief executive?", set()),
])
def test_the_form_a_question_implies(question: str, forms: set[str]) -> None:
    from app.knowledge.pages import forms_wanted

    assert forms_wanted(question) == forms


def test_the_latest_named_year_and_the_implied_form_are_preferred() -> None:
    rows = _rows(("q", "Q2", 7, 2023), ("k", "K", 52, 2023), ("old", "K22", 50, 2022))
    chunks = [("q", 0.030), ("old", 0.029), ("k", 0.025)]
    forms = {"Q2": "10-Q", "K": "10-K", "K22": "10-K"}
    pages = rank_pages(chunks, rows, {}, set(), [2022, 2023], unit=1 / 61, forms=forms, forms_asked={"10-K"})
    assert [p.key[0] for p in pages] == ["K", "Q2", "K22"]
    assert any("10-K filing" in r for r in pages[0].reasons)


def test_a_statement_pages_later_chunks_the_sparse_list_finds_follow_its_opening() -> None:
    # the line asked may stand in a balance sheet's second chunk ('Total liabilities'): it follows the opening
    from app.knowledge.search import with_later_chunks

    # (a page is its source's and its number: a filing ingested whole keeps one source for all its pages)
    rows = {cid: {"source_id": source, "page": page} for cid, source, page in [
        ("BS:p50::a::0", "BS:p50", 50), ("BS:p50::a::1", "BS:p50", 50), ("BS:p50::a::2", "BS:p50", 50),
        ("IS:p48::b::0", "IS:p48", 48), ("X:p9::c::2", "X:p9", 9),
        ("K10::d::3", "K10", 30), ("K10::d::4", "K10", 30), ("K10::d::9", "K10", 31)]}
    openings = [("BS:p50::a::0", 1.0), ("IS:p48::b::0", 1.0), ("K10::d::3", 1.0)]
    sparse = [("X:p9::c::2", 9.0), ("BS:p50::a::1", 7.0), ("IS:p48::b::0", 6.0), ("K10::d::9", 5.5),
              ("BS:p50::a::2", 5.0), ("K10::d::4", 4.0)]
    assert [cid for cid, _ in with_later_chunks(openings, sparse, rows)] == [
        "BS:p50::a::0", "BS:p50::a::1", "BS:p50::a::2", "IS:p48::b::0", "K10::d::3", "K10::d::4"]
