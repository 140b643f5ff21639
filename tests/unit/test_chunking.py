"""app.knowledge.chunking: token budget, overlap, sections, tables, pages and stable chunk ids."""

from __future__ import annotations

import re

import pytest

from app.knowledge.chunking import chunk_record, context_header, index_text
from app.knowledge.records import Chunk, SourceRecord
from app.knowledge.tokens import count_tokens

REGIONS = ["north", "south", "east", "west", "central", "coastal", "inland", "border"]


def _sentence(i: int) -> str:
    return f"Sentence {i} reports that revenue in the {REGIONS[i % len(REGIONS)]} region grew by {i}.5 percent."


def _prose(start: int, n: int) -> str:
    return " ".join(_sentence(i) for i in range(start, start + n))


def _record(text: str, *, title: str = "Acme annual report", pages: list[tuple[int, str]] | None = None,
            source_id: str = "acme.md", **meta: object) -> SourceRecord:
    return SourceRecord(source_id=source_id, title=title, text=text, pages=pages, origin="/tmp/" + source_id,
                        **meta)  # type: ignore[arg-type]


def _sentences_of(chunk: Chunk) -> list[int]:
    return [int(n) for n in re.findall(r"Sentence (\d+) ", chunk.text)]


def _table(n_rows: int) -> str:
    rows = "\n".join(f"| Segment {i} | {i * 3}.{i} | {i * 2}.{i} |" for i in range(n_rows))
    return "| Segment | Revenue | Profit |\n|---|---|---|\n" + rows


MIXED = (
    "# Overview\n\n" + _prose(0, 25) + "\n\n"
    "## Segments\n\n" + _table(40) + "\n\n" + _prose(100, 6) + "\n\n"
    "## Outlook\n\n" + _prose(200, 18)
)


# --- token budget ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("max_tokens", [64, 96, 256])
@pytest.mark.parametrize("overlap", [0, 16])
def test_chunks_never_exceed_max_tokens(max_tokens: int, overlap: int) -> None:
    chunks = chunk_record(_record(MIXED), max_tokens=max_tokens, overlap=overlap)
    assert len(chunks) > 1
    for c in chunks:
        actual = count_tokens(index_text(c))
        assert actual <= max_tokens, (c.ordinal, actual, c.text[:80])
        # the recorded count is an upper bound that is close to the truth
        assert actual <= c.tokens <= actual + 2


def test_small_budget_gives_more_chunks() -> None:
    assert len(chunk_record(_record(MIXED), max_tokens=64)) > len(chunk_record(_record(MIXED), max_tokens=256))


def test_single_very_long_sentence_is_split() -> None:
    words = [f"item{i}" for i in range(400)]
    sentence = "The inventory includes " + " ".join(words) + " and nothing else"
    assert count_tokens(sentence) > 600
    chunks = chunk_record(_record(sentence), max_tokens=128, overlap=0)
    assert len(chunks) >= 5
    for c in chunks:
        assert count_tokens(index_text(c)) <= 128
    # nothing lost, nothing duplicated, order kept
    assert " ".join(c.text for c in chunks).split() == sentence.split()
def test_overlap_carry_plus_long_sentence_stays_within_budget() -> None:
    short = [f"Sales rose in region {w}." for w in ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]]
    long = "The board approved " + " ".join(f"investments in warehouse number {i}" for i in range(9)) + "."
    chunks = chunk_record(_record(" ".join(short + [long]), title="T"), max_tokens=64, overlap=30)
    assert all(count_tokens(index_text(c)) <= 64 for c in chunks), [count_tokens(index_text(c)) for c in chunks]
def test_unit_just_under_budget_plus_header_stays_within_budget() -> None:
    sentence = "Revenue " + "and margin " * 28 + "grew."
    assert 56 <= count_tokens(sentence) <= 64
    rec = _record("# Financial review\n\n" + sentence, title="Northwind Logistics annual report for fiscal year 2024")
    chunks = chunk_record(rec, max_tokens=64, overlap=10)
    assert all(count_tokens(index_text(c)) <= 64 for c in chunks), [count_tokens(index_text(c)) for c in chunks]
def test_unbroken_long_unit_is_split() -> None:
    text = ",".join(str(i) for i in range(300))
    chunks = chunk_record(_record(text, title="T"), max_tokens=64, overlap=0)
    assert all(count_tokens(index_text(c)) <= 64 for c in chunks), [count_tokens(index_text(c)) for c in chunks]


# --- overlap --------------------------------------------------------------------------------------------------


def test_consecutive_prose_chunks_overlap_boundedly() -> None:
    overlap = 32
    chunks = chunk_record(_record("# Overview\n\n" + _prose(0, 40)), max_tokens=96, overlap=overlap)
    assert len(chunks) >= 3
    for prev, nxt in zip(chunks, chunks[1:]):
        a, b = _sentences_of(prev), _sentences_of(nxt)
        shared = sorted(set(a) & set(b))
        assert shared, (a, b)
        # the shared sentences are the tail of one chunk and the head of the next
        assert a[-len(shared):] == shared
        assert b[:len(shared)] == shared
        # bounded by the overlap budget and never the whole previous chunk
        assert sum(count_tokens(_sentence(i)) for i in shared) <= overlap
        assert len(shared) < len(a)
    # every sentence appears, in order
    seen: list[int] = []
    for c in chunks:
        seen += [i for i in _sentences_of(c) if not seen or i > seen[-1]]
    assert seen == list(range(40))


def test_no_overlap_when_zero() -> None:
    chunks = chunk_record(_record(_prose(0, 40)), max_tokens=96, overlap=0)
    assert len(chunks) >= 3
    flat = [i for c in chunks for i in _sentences_of(c)]
    assert flat == list(range(40))


def test_no_overlap_across_sections() -> None:
    text = "# One\n\n" + _prose(0, 12) + "\n\n# Two\n\n" + _prose(50, 12)
    chunks = chunk_record(_record(text), max_tokens=96, overlap=48)
    for c in chunks:
        ids = _sentences_of(c)
        if c.section == "One":
            assert all(i < 50 for i in ids)
        else:
            assert c.section == "Two"
            assert all(i >= 50 for i in ids)
    first_two = next(c for c in chunks if c.section == "Two")
    assert _sentences_of(first_two)[0] == 50


# --- sections -------------------------------------------------------------------------------------------------


def test_section_headings_recorded_and_new_heading_starts_new_chunk() -> None:
    text = ("Preamble sentence.\n\n# Overview\n\nShort overview.\n\n## Outlook ##\n\nShort outlook.\n"
            "### Risks\nShort risks.")
    chunks = chunk_record(_record(text), max_tokens=256)
    assert [(c.section, c.text) for c in chunks] == [
        (None, "Preamble sentence."),
        ("Overview", "Short overview."),
        ("Outlook", "Short outlook."),
        ("Risks", "Short risks."),
    ]
    # heading lines are not part of the chunk text, but are in the indexed context header
    assert index_text(chunks[2]) == "Acme annual report — Outlook\nShort outlook."
    assert index_text(chunks[0]) == "Acme annual report\nPreamble sentence."
    assert context_header("T", None) == "T"


def test_section_carries_over_to_the_next_page() -> None:
    pages = [(1, "# Liquidity\n\nCash rose on page one."), (2, "Debt fell on page two.")]
    chunks = chunk_record(_record("x", pages=pages))
    assert [(c.page, c.section) for c in chunks] == [(1, "Liquidity"), (2, "Liquidity")]


def test_hash_inside_text_is_not_a_heading() -> None:
    chunks = chunk_record(_record("Item #1 was sold. We ranked #2 in the market."))
    assert [c.section for c in chunks] == [None]


# --- tables ---------------------------------------------------------------------------------------------------


def test_tables_flagged_and_separate_from_prose() -> None:
    text = "# Results\n\nIntro sentence about segments.\n\n" + _table(3) + "\n\nClosing remark here."
    chunks = chunk_record(_record(text), max_tokens=256)
    assert [c.is_table for c in chunks] == [False, True, False]
    assert chunks[1].text == _table(3)
    assert "|" not in chunks[0].text and "|" not in chunks[2].text
    assert all(c.section == "Results" for c in chunks)


def test_long_table_repeats_header_in_every_chunk() -> None:
    header = "| Segment | Revenue | Profit |\n|---|---|---|"
    chunks = [c for c in chunk_record(_record("# Segments\n\n" + _table(60)), max_tokens=80) if c.is_table]
    assert len(chunks) >= 3
    rows_seen: list[str] = []
    for c in chunks:
        assert c.text.startswith(header + "\n")
        assert count_tokens(index_text(c)) <= 80
        rows_seen += c.text.splitlines()[2:]
    # every data row exactly once, in order (tables do not overlap)
    assert rows_seen == _table(60).splitlines()[2:]


def test_table_without_rule_row_has_no_header_to_repeat() -> None:
    rows = "\n".join(f"| item {i} | {i} |" for i in range(40))
    chunks = chunk_record(_record(rows), max_tokens=64)
    assert len(chunks) > 1
    assert all(c.is_table for c in chunks)
    assert sum(len(c.text.splitlines()) for c in chunks) == 40


# --- pages ----------------------------------------------------------------------------------------------------


def test_page_numbers_kept_and_chunks_never_cross_pages() -> None:
    pages = [(1, _prose(0, 20)), (2, _prose(100, 3)), (7, _prose(200, 20))]
    full = "\n\n".join(t for _, t in pages)
    chunks = chunk_record(_record(full, pages=pages), max_tokens=96, overlap=24)
    assert {c.page for c in chunks} == {1, 2, 7}
    ranges = {1: range(0, 20), 2: range(100, 103), 7: range(200, 220)}
    for c in chunks:
        assert _sentences_of(c), c.text
        assert all(i in ranges[c.page] for i in _sentences_of(c)), (c.page, _sentences_of(c))
    # pages appear in order
    assert [c.page for c in chunks] == sorted(c.page for c in chunks)
    # page 2 fits in one chunk on its own even though page 1's tail would have room to be carried over
    page2 = [c for c in chunks if c.page == 2]
    assert len(page2) == 1 and _sentences_of(page2[0]) == [100, 101, 102]


def test_unpaged_record_has_no_page() -> None:
    assert all(c.page is None for c in chunk_record(_record(_prose(0, 10)), max_tokens=64))


# --- ids and metadata -----------------------------------------------------------------------------------------


def test_chunk_ids_stable_for_same_content() -> None:
    a = chunk_record(_record(MIXED, company="Acme", fiscal_year=2024), max_tokens=128)
    b = chunk_record(_record(MIXED, company="Acme", fiscal_year=2024), max_tokens=128)
    assert [c.chunk_id for c in a] == [c.chunk_id for c in b]
    assert [c.text for c in a] == [c.text for c in b]
    assert len({c.chunk_id for c in a}) == len(a)
    assert [c.ordinal for c in a] == list(range(len(a)))
    assert all(c.chunk_id.startswith("acme.md::") for c in a)


def test_chunk_ids_change_when_content_changes() -> None:
    a = chunk_record(_record(MIXED), max_tokens=128)
    b = chunk_record(_record(MIXED.replace("Sentence 3 ", "Sentence 3 also ")), max_tokens=128)
    assert not {c.chunk_id for c in a} & {c.chunk_id for c in b}


def test_chunk_ids_change_when_search_metadata_changes() -> None:
    a = chunk_record(_record(MIXED, fiscal_year=2023), max_tokens=128)
    b = chunk_record(_record(MIXED, fiscal_year=2024), max_tokens=128)
    assert not {c.chunk_id for c in a} & {c.chunk_id for c in b}


def test_chunks_copy_source_metadata() -> None:
    from datetime import date

    rec = _record(_prose(0, 3), company="Acme", fiscal_year=2024, doc_type="news",
                  published_at=date(2024, 5, 1))
    (c,) = chunk_record(rec)
    assert (c.source_id, c.title, c.company, c.fiscal_year, c.doc_type, c.published_at) == (
        "acme.md", "Acme annual report", "Acme", 2024, "news", date(2024, 5, 1))
    assert c.metadata()["published_ord"] == date(2024, 5, 1).toordinal()


STATEMENT_PAGE = "\n \n".join([
    "Kestrel Tools Inc.", "Consolidated Statement of Cash Flow", "s", "Years ended December 31", "(Millions)",
    "2021", "2020", *[part for i in range(40)
                      for part in (f"Line item {chr(65 + i % 26)}{chr(97 + i // 26)}", "$", f"{1000 + i:,}", f"({i + 5})")],
])


def test_a_statement_page_keeps_its_lines_and_every_chunk_repeats_its_header() -> None:
    from app.text.statements import read_statement

    record = SourceRecord(source_id="k", title="KESTRELTOOLS_2021_10K", text=STATEMENT_PAGE, origin="k",
                          pages=[(7, STATEMENT_PAGE)])
    chunks = chunk_record(record, max_tokens=96, overlap=0)
    assert len(chunks) >= 3
    for chunk in chunks:
        assert "\n" in chunk.text and chunk.text.startswith("Kestrel Tools Inc.\nConsolidated Statement")
        statement = read_statement(chunk.text)
        assert statement.periods == ["FY2021", "FY2020"]
        assert all(row.periods == ["FY2021", "FY2020"] for row in statement.rows if row.line_item.startswith("Line"))
    rows = {r.line_item: r.values for c in chunks for r in read_statement(c.text).rows}
    assert rows["Line item Nb"] == [1039.0, -44.0] and len(rows) == 40


def test_prose_with_a_few_figures_is_still_joined_into_sentences() -> None:
    prose = ("Revenue grew in every region this year, led by\nstrong demand for our tools in 2021 and a good\n"
             "harvest season. Margins held up well despite\nhigher freight costs across the network.")
    record = SourceRecord(source_id="p", title="t", text=prose, origin="p", pages=[(1, prose)])
    assert "\n" not in chunk_record(record)[0].text


def test_a_table_inside_running_text_keeps_its_lines() -> None:
    """A management report's small table between paragraphs: its rows stay rows (a title, a unit line, the
    columns, then a label and its figures per line), so they can be read with their periods; the prose around
    it is still joined into sentences."""
    prose = ("Our freight business had a strong year, helped by new contracts in the north and by a steady\n"
             "recovery of volumes in the second half, when two large retailers moved their regional flows to us\n"
             "and our new cross-dock in the valley opened on time and on budget after eighteen months of work.\n"
             "We hired drivers in every region, renewed the fleet with cleaner trucks and agreed a new contract\n"
             "with the drivers' union that runs until the end of the decade, which gives us stable labour costs\n"
             "and lets us plan the next stage of the network with our largest customers over the coming years.\n")
    page = (prose + "Freight results\n(in millions of dollars)\n2024 2023 % Chg\nRevenue 812.4 760.1 6.9\n"
            "Operating costs 601.2 580.9 3.5\nOperating income 211.2 179.2 17.9\nMargin 26.0% 23.6% 2.4 pts\n"
            "Volumes rose in every quarter of the year, and prices held up well although fuel surcharges fell\n"
            "back as diesel became cheaper, which took some revenue away from the fourth quarter as expected.")
    record = SourceRecord(source_id="f", title="FREIGHTCO_2024_AR", text=page, origin="f", pages=[(3, page)])
    texts = [c.text for c in chunk_record(record)]
    table = next(t for t in texts if "Revenue 812.4" in t)
    assert table.splitlines()[:4] == ["Freight results", "(in millions of dollars)", "2024 2023 % Chg",
                                      "Revenue 812.4 760.1 6.9"]
    assert "Margin 26.0% 23.6% 2.4 pts" in table.splitlines()
    assert any(t.startswith("Our freight business had a strong year, helped by new contracts in the north and by a "
                            "steady recovery") for t in texts)
    assert not any("Volumes rose" in t and "\n" in t for t in texts)


def test_a_note_page_that_opens_with_prose_is_chunked_whole_words_with_only_its_table_header_repeated() -> None:
    """A notes page whose statement-like table sits under paragraphs of prose: the paragraphs are no header to
    repeat (they once took the whole budget, and every word was then cut into word pieces: 'report able')."""
    prose = "\n".join(
        f"Paragraph line {i} explains how the reportable segments are managed and how the allocation of resources"
        for i in range(10))
    table = "\n".join(f"Row item {i} 1{i},230 2{i},450 3{i},680" for i in range(30))
    page = ("Notes to the Financial Statements\n5. Segment information\n" + prose +
            "\n(Millions of yen)\nFY3/2025\nPumps Valves Total\n" + table)
    record = SourceRecord(source_id="n", title="PUMPCO_2025_AR", text=page, origin="n", pages=[(62, page)])
    chunks = chunk_record(record, max_tokens=256, overlap=0)
    page_words = set(page.split())
    for chunk in chunks:
        assert set(chunk.text.split()) <= page_words  # nothing cut inside a word
        assert chunk.text.count("Paragraph line 0") <= 1
    assert sum(c.text.count("Paragraph line 3 ") for c in chunks) == 1  # the prose is not repeated as a header
    assert "reportable" in " ".join(c.text for c in chunks)


def test_a_heading_and_each_item_of_a_list_keep_their_own_lines_in_prose() -> None:
    page = ("Principal Business Risks\nThe following are the principal risks that could affect the Group and its "
            "results over the\ncoming years, as the Board sees them today.\n1. Fluctuations in demand for capital "
            "goods\nMachine tools are capital goods, and demand for them rises and falls with investment.\n"
            "(a) Dividend: on 22 August 2024 the Directors declared a final dividend of 18 cents per share.\n"
            "(b) Share buy-back: the Company announced an on-market buy-back.")
    record = SourceRecord(source_id="r", title="ACME_2024_AR", text=page, origin="r", pages=[(28, page)])
    text = chunk_record(record)[0].text
    assert text.splitlines() == [
        "Principal Business Risks",
        "The following are the principal risks that could affect the Group and its results over the coming years, "
        "as the Board sees them today.",
        "1. Fluctuations in demand for capital goods",
        "Machine tools are capital goods, and demand for them rises and falls with investment.",
        "(a) Dividend: on 22 August 2024 the Directors declared a final dividend of 18 cents per share.",
        "(b) Share buy-back: the Company announced an on-market buy-back."]


def test_a_grid_header_of_measures_and_periods_stays_with_its_rows() -> None:
    """A segment review whose header names a measure and a period per column runs past 90 characters: it is
    still the table's header, not a line of prose parted from the rows it names."""
    page = ("Segment review\n£m Revenue FY2025 Revenue FY2024 Operating profit FY2025 Operating profit FY2024 "
            "Margin FY2025 Margin FY2024\nPumps 612.0 590.4 61.2 55.1 10.0% 9.3%\nValves 301.5 288.0 24.1 26.2 "
            "8.0% 9.1%\nService 120.3 111.9 19.3 17.0 16.0% 15.2%\nGroup 1,033.8 990.3 104.6 98.3 10.1% 9.9%\n"
            "Pumps revenue rose as utilities renewed their networks and the order book stayed full all year.")
    record = SourceRecord(source_id="g", title="OSPREY_2025_AR", text=page, origin="g", pages=[(18, page)])
    table = next(c.text for c in chunk_record(record) if "Valves 301.5" in c.text)
    assert table.splitlines()[:3] == ["Segment review", "£m Revenue FY2025 Revenue FY2024 Operating profit FY2025 "
                                      "Operating profit FY2024 Margin FY2025 Margin FY2024",
                                      "Pumps 612.0 590.4 61.2 55.1 10.0% 9.3%"]


def test_a_tables_long_title_after_a_finished_sentence_is_the_tables() -> None:
    prose = ("The Board resolved to acquire up to 1,200,000 of the Company's own shares for up to ¥3,500 million\n"
             "between May 14 and December 23, and to cancel 2,000,000 treasury shares on June 30, which together\n"
             "return to shareholders most of the cash the Group generated beyond its investment plans this year.\n"
             "The Annual General Meeting of Shareholders on June 25 approved a year-end dividend per share as proposed\n"
             "by the Board, with a record date of March 31 and an effective date of June 26 for all shareholders.\n")
    page = (prose + "The Annual General Meeting approved a year-end dividend of ¥50 per share with a record date of 31 March.\n"
            "Reference: Non-consolidated information of the parent company (Japanese GAAP, unaudited summary)\n"
            "FY3/2024 FY3/2025\nNet sales (millions of yen) 118,320 121,640\nOperating income (millions of yen) "
            "9,410 8,930\nNet income (millions of yen) 10,840 11,270\nNumber of employees 3,058 3,106\n"
            "The non-consolidated figures include dividends received from subsidiaries and are not comparable.")
    record = SourceRecord(source_id="k", title="KESTREL_2025_AR", text=page, origin="k", pages=[(71, page)])
    table = next(c.text for c in chunk_record(record) if "Net income (millions of yen)" in c.text)
    assert table.splitlines()[0].startswith("Reference: Non-consolidated information of the parent company")
    # a paragraph's wrapped last line is no title
    wrapped = ("Our freight business had a strong year, helped by new contracts in the north and by a steady\n"
               "Recovery of volumes in the second half and the new cross-dock\n2024 2023 % Chg\n"
               "Revenue 812.4 760.1 6.9\nOperating costs 601.2 580.9 3.5\nOperating income 211.2 179.2 17.9\n")
    record = SourceRecord(source_id="w", title="FREIGHTCO_2024_AR", text=wrapped, origin="w", pages=[(3, wrapped)])
    table = next(c.text for c in chunk_record(record) if "Revenue 812.4" in c.text)
    assert not table.startswith("Recovery of volumes")


def test_markdown_bullets_keep_their_own_lines() -> None:
    text = ("## Outlook and guidance\n\nWe enter FY2025 with a record contracted backlog of $1.58bn, of which about "
            "$760m is scheduled to be recognized as revenue in FY2025. The two delayed Texas projects are now expected "
            "in the second quarter.\n\nFor FY2025 we expect:\n\n- revenue of $1.02bn to $1.08bn;\n- operating margin "
            "of 9.0% to 9.5%;\n- capital expenditure of $50m to $60m.\n\nAs in previous years, we expect revenue to be "
            "weighted toward the second half.\n")
    record = SourceRecord(source_id="h", title="HELIO_2024_AR", text=text, origin="h")
    chunk = next(c.text for c in chunk_record(record) if "we expect:" in c.text)
    assert "\n- revenue of $1.02bn to $1.08bn;\n- operating margin of 9.0% to 9.5%;\n" in chunk


def test_a_second_tables_header_is_its_own_not_the_first_tables() -> None:
    """Two small tables on one figure-heavy page: the first table's header stops at its first row, so the second
    table's title, unit and periods head the second table's chunk, as they did not when the first header ran on
    to the next period line."""
    rail = "\n".join(f"Rail metric {i} {20 + i} {30 + i}" for i in range(8))
    road = "\n".join(f"Road item {i} {i}1.{i} {i}2.{i} -{i}.5" for i in range(40))
    page = ("Rail subscriber results (in thousands) 2024 2023\n" + rail + "\nROAD\nRoad financial results\n"
            "(in millions of dollars)\n2024 2023 % Chg\n" + road)
    record = SourceRecord(source_id="s", title="FREIGHTCO_2024_AR", text=page, origin="s", pages=[(15, page)])
    chunks = [c.text for c in chunk_record(record, max_tokens=128, overlap=0)]
    later = [t for t in chunks if "Road item 30" in t]
    assert later and later[0].splitlines()[:4] == ["ROAD", "Road financial results", "(in millions of dollars)",
                                                   "2024 2023 % Chg"]
    assert not any("Rail metric" in t for t in later)


def test_a_later_table_headed_by_its_title_and_a_line_of_years_alone_heads_its_own_rows() -> None:
    """A page whose first table's header is at its top and whose second table has no unit line, only its title,
    its columns' names and a line of years: every chunk of the second table's rows repeats that header, never
    the first table's ('COVID-19 charges' / '2022 2021 2020' over the divisions' total assets)."""
    charges = "\n".join(f"Charge line {i} {i}1 {i}2 {i}3" for i in range(6))
    divisions = "\n".join(f"Division {chr(65 + i)} $ {i}1,042 $ {i}9,763 $ {i}464 $ {i}411 $ {i}189" for i in range(30))
    page = ("Charges by division\nCOVID-19 charges\n2024 2023 2022\n" + charges + "\nOther Division Information\n"
            "Total assets and capital spending of each division are as follows:\nTotal Assets Capital Spending\n"
            "2024 2023 2024 2023 2022\n" + divisions)
    record = SourceRecord(source_id="s", title="FREIGHTCO_2024_AR", text=page, origin="s", pages=[(73, page)])
    chunks = [c.text for c in chunk_record(record, max_tokens=128, overlap=0)]
    later = [t for t in chunks if "Division Z" in t or "Division c" in t or "Division X" in t]
    assert later, chunks
    for text in later:
        assert "Total Assets Capital Spending\n2024 2023 2024 2023 2022" in text, text
        assert "COVID-19 charges" not in text, text


def test_a_row_of_spaced_percentages_stays_in_its_table() -> None:
    prose = " ".join(f"Sentence {i} of the review says how the warehouses traded in the year." for i in range(8))
    text = (f"{prose}\nGross Margin\n2021 2020 2019\nNet sales $ 192,052 $ 163,220 $ 149,351\n"
            "Less merchandise costs 170,684 144,939 132,886\nGross margin $ 21,368 $ 18,281 $ 16,465\n"
            f"Gross margin percentage 11.13 % 11.20 % 11.02 %\n{prose}")
    chunks = chunk_record(_record(text), max_tokens=96)
    table = next(c for c in chunks if "Gross margin $ 21,368" in c.text)
    assert "Gross margin percentage 11.13 %" in table.text and "Sentence" not in table.text


_GROUPED_TABLE = """Restricted cash was unchanged in the period.
The following tables present information regarding the Company's debt investments:
Fair value level June 30, 2025 December 31, 2024
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
Accounts receivable. The loss reserve on accounts receivable was $14 million at June 30, 2025."""


def test_a_table_with_a_dated_column_line_and_grouping_lines_stays_one_table() -> None:
    """A column line that ends in the days and years of its dates heads the table, and a group's line ending in
    a colon ('Short-term investments:') stays among the rows: the group is never cut off from its header."""
    chunks = chunk_record(_record(_GROUPED_TABLE))
    holding = [c for c in chunks if "Corporate bonds Level 2 301,400 199,300" in c.text]
    assert holding and all("Fair value level June 30, 2025 December 31, 2024" in c.text and "(In thousands)" in c.text
                           for c in holding)
    assert all("Short-term investments:\nU.S. government securities" in c.text for c in holding)
    assert not any("debt investments: Fair value level" in c.text for c in chunks)  # no prose made of the header


def test_a_statement_header_whose_last_year_runs_into_the_first_heading_is_repeated_whole() -> None:
    """'2019 Assets': the second column's year with the first heading run into it is the header's last line, so
    every later chunk of the statement repeats both years."""
    rows = "\n".join(f"Line item {i}\n{1000 + i:,} {900 + i:,}" for i in range(60))
    text = ("KESTREL PAYMENTS, INC.\nCONSOLIDATED BALANCE SHEETS\n(In thousands)\nDecember 31,\n2025\n2024 Assets\n"
            "Current assets:\n" + rows + "\nTotal current liabilities\n4,126 1,694\n")
    chunks = chunk_record(_record(text), max_tokens=128)
    later = [c for c in chunks if "Total current liabilities" in c.text]
    assert later and all("2025\n2024 Assets" in c.text for c in later)


def test_a_record_in_a_unit_unless_stated_repeats_its_column_header_in_each_chunk() -> None:
    """A five-year record headed '£m (unless stated) FY2021 … FY2025' that runs past one chunk: the later chunk
    repeats the header line, so its rows ('Online share of retail sales (%) … 28.1') are still dated."""
    rows = "\n".join(f"Measure number {i} (%) {i}.1 {i}.2 {i}.3 {i}.4 {i}.5" for i in range(60))
    text = "Five-year record\n£m (unless stated) FY2021 FY2022 FY2023 FY2024 FY2025\n" + rows
    chunks = chunk_record(_record(text, pages=[(80, text)]), max_tokens=128, overlap=16)
    assert len(chunks) >= 2
    assert all("£m (unless stated) FY2021 FY2022 FY2023 FY2024 FY2025" in c.text for c in chunks)


def test_a_tables_column_line_with_months_written_short_heads_its_rows_not_the_prose_before() -> None:
    """'in € million 31 Dec. 2024 31 Dec. 2023': 'Dec.' ends no sentence, so the title and column line head the
    table's rows (and are repeated in its later chunk) instead of being joined to the paragraph before."""
    prose = " ".join(f"Sentence {i} says how the group financed itself in the year." for i in range(6))
    text = (f"Financing\n{prose}\nNet financial debt\nin € million 31 Dec. 2024 31 Dec. 2023\n"
            "Financial liabilities 524.9 502.7\nLease liabilities 99.7 92.4\nCash and cash equivalents (266.8) "
            "(246.9)\nNet financial debt 357.8 348.2\nNet financial debt / EBITDA 1.12x 1.05x\nNet assets\n"
            f"{prose}")
    chunks = [c.text for c in chunk_record(_record(text), max_tokens=96, overlap=0)]
    rows = [t for t in chunks if "Lease liabilities" in t or "EBITDA 1.12x" in t]
    assert rows and all(t.startswith("Net financial debt\nin € million 31 Dec. 2024 31 Dec. 2023\n") for t in rows)
    assert not any("year. Net financial debt" in t for t in chunks)


def test_a_quarters_column_line_longer_than_most_heads_each_chunk_of_its_table() -> None:
    """An earnings release's page of two tables, each headed 'Q2 % Change' over a unit line that goes on to the
    change columns' names (over 80 characters). A later chunk of the second table repeats its whole header,
    quarter included, so its rows are read as the quarter's, not as two years'."""
    from app.text.statements import read_statement

    head = "Q2 % Change\n($ in Millions) 2024 2023 Reported Operational1,2 Currency Adjusted Operational1,3"
    first = "\n".join(f"Region {i} {100 + i} {90 + i} 1.{i} 2.{i} (0.{i}) 1.{i}" for i in range(3))
    second = "\n".join(f"Division {chr(65 + i % 26)}{i} {200 + i} {180 + i} 3.{i} 4.{i} (1.{i}) 2.{i}" for i in range(30))
    page = f"SALES BY REGION\n{head}\n{first}\nSALES BY DIVISION\n{head}\n{second}"
    record = SourceRecord(source_id="r", title="ORVALE_2024Q2_EARNINGS", text=page, origin="r", pages=[(2, page)])
    chunks = [c.text for c in chunk_record(record, max_tokens=128, overlap=0)]
    later = [t for t in chunks if "Division Z25 " in t]
    assert later and later[0].splitlines()[:3] == ["SALES BY DIVISION", *head.splitlines()]
    row = next(r for r in read_statement(later[0]).rows if r.line_item == "Division Z25")
    assert row.values[:2] == [225.0, 205.0] and row.periods[:2] == ["Q2 2024", "Q2 2023"]


def test_a_tables_title_parted_from_its_column_pieces_by_a_blank_line_heads_it() -> None:
    """'Segment Information (dollars in millions)', a blank line, then the header a line per word and year
    ('Fiscal' / '2024' / … / '% Change' / '2024-2023' / …) and the rows: one table, its title and unit with it."""
    page = ("Revenue by segment was as follows.\n\n42\nSegment Information (dollars in millions)\n\u00a0\nFiscal\n2024\n"
            "Fiscal\n2023\nFiscal\n2022\n% Change\n2024-2023\n% Change\n2023-2022\n"
            "Imaging $ 3,095.2 $ 2,603.2 $ 2,625.9 19% (1)%\nPercentage of total revenue 65% 63% 65%\n"
            "Analytics 1,508.9 1,355.2 1,228.8 11% 10 %\nTotal revenue $ 4,795.5 $ 4,147.1 $ 4,055.2 16% 2 %\n"
            + "Revenue from Imaging increased during fiscal 2024 as compared to fiscal 2023, primarily driven by "
              "subscriptions to our cloud offering and the adoption of our term-based licences by enterprises.\n" * 6)
    record = SourceRecord(source_id="p", title="PELLUCID_2024_10K", text=page, origin="p", pages=[(41, page)])
    [table] = [c.text for c in chunk_record(record) if "Imaging $" in c.text]
    assert table.startswith("Segment Information (dollars in millions)\nFiscal\n2024\n"), table
    assert "2023-2022\nImaging $ 3,095.2" in table


def test_a_long_unit_line_with_years_compared_heads_every_chunk_of_its_table() -> None:
    """'(Millions, except percentages, …) 2025 2024 2023 2025 vs. 2024 2024 vs. 2023' (112 characters, its 'vs.'
    no stop) heads a table amid prose, whose rows mark what is not meaningful with '#': a later chunk repeats the
    header, and its rows are read for their years."""
    from app.text.statements import read_statement

    head = ("TABLE 1: SUMMARY OF RESULTS\nYears Ended December 31, Change Change\n"
            "(Millions, except percentages, per share amounts and where indicated) 2025 2024 2023 2025 vs. 2024 "
            "2024 vs. 2023")
    rows = "\n".join(f"Line item {chr(65 + i % 26)}{i} {900 + i} {800 + i} {700 + i} {100 + i} 12 % (6,1{i:02d}) #"
                     for i in range(30))
    page = (f"The table below summarizes our results. It is followed by a discussion of each line.\n{head}\n{rows}\n"
            "Return on average equity 32.3 % 33.7 % 14.2 %\nRevenue growth is discussed below in more detail.")
    record = SourceRecord(source_id="r", title="ORVALE_2025_10K", text=page, origin="r", pages=[(44, page)])
    chunks = [c.text for c in chunk_record(record, max_tokens=128, overlap=0)]
    later = [t for t in chunks if "Return on average equity" in t]
    assert later and head.splitlines()[-1] in later[0].splitlines()[:4]
    row = next(r for r in read_statement(later[0]).rows if r.line_item == "Return on average equity")
    assert (row.values, row.periods) == ([32.3, 33.7, 14.2], ["FY2025", "FY2024", "FY2023"])
    d29 = next(t for t in chunks if "Line item D29 " in t)
    z = next(r for r in read_statement(d29).rows if r.line_item == "Line item D29")
    assert z.periods[:3] == ["FY2025", "FY2024", "FY2023"] and z.values[-1] is None


def test_a_unit_line_with_the_first_label_run_into_it_heads_the_later_chunks() -> None:
    """'(in thousands, except per share data) Revenues' under the years, its values on the next line: the unit
    line of the header (the label run into it is the first row's), which every later chunk repeats."""
    from app.text.statements import read_statement

    rows = "\n".join(f"Line item {chr(65 + i % 26)}{i}\n{900 + i:,} {800 + i:,} {700 + i:,}" for i in range(40))
    page = ("Consolidated Statements of Operations:\nYear ended December 31,\n2025 2024 2023\n"
            "(in thousands, except per share data) Revenues\n$ 6,779,511 $ 5,504,656 $ 4,374,562\n" + rows)
    record = SourceRecord(source_id="r", title="ORVALE_2025_10K", text=page, origin="r", pages=[(16, page)])
    chunks = [c.text for c in chunk_record(record, max_tokens=128, overlap=0)]
    later = next(t for t in chunks if "Line item N39" in t)
    assert later.splitlines()[:4] == ["Consolidated Statements of Operations:", "Year ended December 31,",
                                      "2025 2024 2023", "(in thousands, except per share data)"]
    row = next(r for r in read_statement(later).rows if r.line_item == "Line item N39")
    assert (row.values, row.periods, row.scale) == ([939.0, 839.0, 739.0], ["FY2025", "FY2024", "FY2023"],
                                                    "thousands")


def test_quarter_columns_after_a_wrapped_unit_note_head_every_later_chunk() -> None:
    """A bank's highlights table: its unit note runs onto a second line that closes it and then names the
    columns by quarter ('… headcount data' / 'and where otherwise noted) 1Q25 4Q24 3Q24'). Every later chunk
    repeats that header, so a row far down the table is still read with its quarters."""
    from app.text.statements import read_statement

    prose = "\n".join(f"Paragraph {i} says how the bank looks at its results and how the figures below are used."
                      for i in range(8))
    rows = "\n".join(f"Line item {chr(65 + i % 26)}{i} {900 + i:,} {800 + i:,} {700 + i:,}" for i in range(40))
    page = (prose + "\nKestrel Bancorp\nConsolidated financial highlights (unaudited)\n"
            "As of or for the period ended, (in millions, except per share, ratio, headcount data\n"
            "and where otherwise noted) 1Q25 4Q24 3Q24\nSelected income statement data\n" + rows)
    record = SourceRecord(source_id="k", title="KESTREL_2025Q1_10Q", text=page, origin="k", pages=[(3, page)])
    chunks = [c.text for c in chunk_record(record, max_tokens=128, overlap=0)]
    later = next(t for t in chunks if "Line item N39" in t)
    assert "and where otherwise noted) 1Q25 4Q24 3Q24" in later.splitlines()[:4]
    row = next(r for r in read_statement(later).rows if r.line_item == "Line item N39")
    assert (row.values, row.periods, row.scale) == ([939.0, 839.0, 739.0], ["Q1 2025", "Q4 2024", "Q3 2024"],
                                                    "millions")


def test_a_row_that_ends_in_a_footnote_mark_keeps_its_table_going() -> None:
    """'Overhead ratio 58 55 58 51 59 (a)': a row whose last figure carries a note's mark is a row; the rows after
    it, under two sub-headings, are the same table, and every chunk of it repeats its quarter columns."""
    lines = ["Highlights of Ternline Bank",
             "We present a summary of our results for the quarter ended March 31, 2025 in the table below, with the "
             "four quarters before it, as the Board reviews them each quarter.",
             "Consolidated financial highlights (unaudited)",
             "As of or for the period ended, (in millions, except per share, ratio, headcount data",
             "and where otherwise noted) 1Q25 4Q24 3Q24 2Q24 1Q24"]
    lines += [f"Metric number {k} value {k} {k + 1} {k + 2} {k + 3} {k + 4}" for k in range(1, 30)]
    lines += ["Overhead ratio 58 55 58 51 59 (a)", "Selected balance sheet data (period-end)",
              "Credit quality metrics", "Loans-to-deposits ratio 44 47 49 52 57"]
    lines += [f"Balance line {k} {k},100 {k},200 {k},300 {k},400 {k},500" for k in range(1, 20)]
    lines += ["Headcount 59,350 55,351 56,358 56,710 56,720",
              "(a) Prior-period amounts have been revised to conform with the current presentation."]
    lines += [f"({chr(98 + k)}) This note explains how the measures in the table above are defined and why management "
              f"reviews them, in words that run long enough to make the page a page of prose with a table in it."
              for k in range(20)]
    chunks = chunk_record(_record("\n".join(lines)), max_tokens=128, overlap=0)
    headcount = next(c for c in chunks if "Headcount 59,350" in c.text)
    assert "1Q25 4Q24 3Q24 2Q24 1Q24" in headcount.text, headcount.text
