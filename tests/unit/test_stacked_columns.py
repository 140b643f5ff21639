"""Tables as PDF extraction gives them one cell a line, read whole: a year's table whose columns are members
('Americas' / 'Asia Pacific' / 'Europe, Middle East' / '& Africa' / 'Other Unallocated' / 'Worldwide' under
'Year ended December 31, 2024'), a header the chunker cut from its rows, read on with them, and a ranking of
members that one table names in full and another by a short name, listed once.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import Fact, read_query
from app.models.providers.offline.composer.analyst import Analyst
from app.calc_tools import Figure
from app.turns import Block
from nodes.facts import labelled_members
from nodes.inputs import chunk_after, is_bare_header, measure_continuations
from app.text.statements import read_statement, stacked_column_rows

COMPANY = "Ternline"
TITLE = "TERNLINE_2024_10K"

GEOGRAPHY_2024 = "\n".join([
    "Year ended December 31, 2024", "Americas", "Asia Pacific", "Europe, Middle East", "& Africa",
    "Other Unallocated", "Worldwide",
    "Net sales (millions)", "$", "4,210", "$", "1,980", "$", "1,120", "$", "—", "$", "7,310",
    "% of worldwide sales", "57.6", "%", "27.1", "%", "15.3", "%", "100.0", "%",
    "Components of net sales change:",
    "Organic sales", "3.1", "0.4", "(1.2)", "1.8",
    "Translation", "(0.2)", "(5.9)", "(8.4)", "(2.9)",
    "Total sales change", "2.9", "%", "(5.5)", "%", "(9.6)", "%", "(1.1)", "%",
    "31"])  # the page's number under the table


def _rows(text: str) -> dict[str, tuple[list[float | None], str, str | None]]:
    return {r.line_item: (r.values, r.unit, r.scale) for r in stacked_column_rows(text)}


def test_a_years_member_columns_are_read_one_cell_a_line() -> None:
    rows = _rows(GEOGRAPHY_2024)
    assert rows["Net sales"] == ([4210.0, 1980.0, 1120.0, None, 7310.0], "$", "millions")
    # a row a value short leaves the reconciling column blank, not the last member's
    assert rows["% of worldwide sales"] == ([57.6, 27.1, 15.3, None, 100.0], "%", None)
    # under a heading that names a change, unmarked cells are percentages
    assert rows["Organic sales"] == ([3.1, 0.4, -1.2, None, 1.8], "%", None)
    # the page's number after the last share is no cell of it
    assert rows["Total sales change"] == ([2.9, -5.5, -9.6, None, -1.1], "%", None)
    [row] = [r for r in stacked_column_rows(GEOGRAPHY_2024) if r.line_item == "Net sales"]
    assert row.columns == ["Americas", "Asia Pacific", "Europe, Middle East & Africa", "Other Unallocated",
                           "Worldwide"]
    assert set(row.periods or []) == {"FY2024"}
    assert "Components of net sales change" not in rows  # a heading heads no figure


def test_a_row_with_no_place_for_its_values_is_not_guessed_at() -> None:
    # two members a value short: no single reconciling column to leave blank
    text = GEOGRAPHY_2024.replace('"Translation"', "").replace("\n".join(["Translation", "(0.2)", "(5.9)"]),
                                                               "Translation")
    assert "Translation" not in _rows(text)
    assert stacked_column_rows("Year ended December 31, 2024\nWorldwide\nNet sales\n1") == []  # one column


def test_statement_reading_takes_the_member_columns() -> None:
    rows = [r for r in read_statement(GEOGRAPHY_2024).rows if r.line_item == "Net sales" and r.columns]
    assert rows and rows[0].values[2] == 1120.0


HEADER = "\n".join(["2024", "2023", "% change", "Net", "% of", "Oper.", "Net", "% of"])
ROWS = "\n".join(["Oper.", "Net", "Oper.", "(Dollars in millions)", "Sales", "Total", "Income", "Sales", "Total",
                  "Income", "Sales", "Income", "Business Segments",
                  "Freight", "$", "4,210", "61.2", "%", "$", "612", "$", "3,980", "60.1", "%", "$", "540", "5.8", "%",
                  "13.3", "%",
                  "Harbour Foods", "2,160", "31.4", "(14)", "2,151", "32.5", "188", "0.4", "(107.4)"])
LEAD = ("Sales and operating income by business segment:\nThe following tables contain sales and operating income "
        "results by business segment for the years ended December 31, 2024 and 2023.")


def _chunk(text: str, n: int, page: int = 22) -> Evidence:
    return Evidence(source_id=f"{TITLE}:p{page}", chunk_id=f"{TITLE}:p{page}::abc::{n}", text=text, company=COMPANY,
                    fiscal_year=2024, title=TITLE, page=page, doc_type="report")


def test_a_header_cut_from_its_rows_is_read_on_with_them() -> None:
    page = [_chunk(LEAD, 0), _chunk(HEADER, 1), _chunk(ROWS, 2)]

    def page_fn(source_id: str, n: int) -> list[Evidence]:
        return page if n == 22 else []

    assert is_bare_header(HEADER) and not is_bare_header(ROWS) and not is_bare_header(LEAD)
    following = chunk_after(page[0], page_fn)
    assert following is not None and following.chunk_id == page[2].chunk_id
    assert following.text.startswith("2024\n2023") and "Harbour Foods" in following.text
    # read together, the rows have their years
    [row] = [r for r in read_statement(following.text).rows if r.columns and r.columns[0] == "Freight"
             and r.line_item == "Oper. Income"]
    assert row.values[:2] == [612.0, 540.0] and row.periods[:2] == ["FY2024", "FY2023"]
    # a chunk with rows is read on into as it is
    assert chunk_after(page[1], page_fn) == page[2]
    question = "Which of Ternline's business segments generated the most operating income in 2024?"
    [added] = measure_continuations(question, [page[0]], page_fn, [COMPANY])
    assert "Harbour Foods" in added.text and "2024" in added.text


def test_a_tables_title_on_a_line_of_its_own_announces_a_ranking() -> None:
    lead = _chunk("Consumer\n(0.9)\n—\n(2.6)\nSales by geographic area:\nPercent change information compares the "
                  "years ended December 31, 2024 and 2023.", 2, page=25)
    table = _chunk(GEOGRAPHY_2024, 3, page=25)

    def page_fn(source_id: str, n: int) -> list[Evidence]:
        return [lead, table] if n == 25 else []

    question = "Which of Ternline's geographic areas had the largest sales decline in 2024?"
    assert read_query(question, [COMPANY]).measure.phrase == "sales"  # 'geographic areas' says the breakdown
    [added] = measure_continuations(question, [lead], page_fn, [COMPANY])
    assert added.chunk_id == table.chunk_id


def _fact(segment: str, label: str, value: float, page: int) -> Fact:
    figure = Figure(label=label, value=value, unit="$m", company=COMPANY, fiscal_year=2024,
                    source_id=f"{TITLE}:p{page}", period="FY2024", page=page)
    return Fact(figure=figure, segment=segment, origin="table", match=2)


def test_a_member_named_in_full_and_by_its_short_name_is_listed_once() -> None:
    members = [_fact("Freight", "Oper. Income", 612.0, 22), _fact("Consumer", "Oper. Income", 188.0, 22),
               _fact("Consumer Business", "Operating income", 188.0, 38)]
    labels = [f.label for f in labelled_members(members)]
    assert labels == ["Freight: Oper. Income", "Consumer: Oper. Income"]


def _block(n: int, text: str, page: int) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {COMPANY} FY2024 p.{page}", text=text,
                 source_id=f"{TITLE}:p{page}", chunk_id=f"{TITLE}:p{page}::abc::0", company=COMPANY,
                 fiscal_year=2024, page=page)


def test_the_ranking_answer_lists_each_member_once() -> None:
    table = LEAD + "\n" + HEADER + "\n" + ROWS
    own_page = ("Harbour Foods Business (31.4% of consolidated sales):\n2024\n2023\n2022\nSales (millions)\n$\n"
                "2,160\n$\n2,151\n$\n2,010\nOperating income (millions)\n$\n(14)\n$\n188\n$\n170")
    question = "Which of Ternline's business segments generated the most operating income in 2024?"
    state = {"blocks": [_block(1, table, 22), _block(2, own_page, 38)], "companies": [COMPANY],
             "fiscal_years": [2024]}
    answer = " ".join(Analyst(state, question).sentences())
    assert answer.startswith("Freight had the highest operating income in FY2024: $612m"), answer
    assert answer.count("Harbour Foods") == 1, answer


def test_a_unit_wrapped_after_its_in_scales_the_table() -> None:
    text = ("The tables below list our revenue by geographic area for fiscal 2024, 2023 and 2022 (in\n"
            "thousands). With the exception of property and equipment, we do not allocate our assets.\n"
            "Revenue 2024 2023 2022\nAmericas:\nUnited States $ 3,087,764 $ 2,548,024 $ 2,115,148\n"
            "EMEA 1,619,153 1,336,448 1,179,864\nRevenue $ 4,706,917 $ 3,884,472 $ 3,295,012")
    [emea] = [r for r in read_statement(text).rows if r.line_item == "EMEA"]
    assert (emea.unit, emea.scale) == ("$", "thousands")
