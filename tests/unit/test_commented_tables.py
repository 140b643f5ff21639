"""The table an admitted comment is about: an annual report comments under its table ('Freight fees increased,
primarily driven by …' under 'Freight fees 1,210 1,105 990 105 10'), and a search may rank the comment above
the table. The page's table with the measure's row is read with the comment; a segment's table is not, nor any
table when an admitted chunk already states the measure.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.evidence import Evidence
from nodes.inputs import commented_tables

COMPANY = "Ternline"
TITLE = "TERNLINE_2024_10K"

SUMMARY = ("TABLE 2: TOTAL REVENUES SUMMARY\nYears Ended December 31, Change Change\n"
           "(Millions, except percentages) 2024 2023 2022 2024 vs. 2023 2023 vs. 2022\n"
           "Harbour revenue $ 4,210 $ 3,980 $ 3,512 $ 230 6 % $ 468 13 %\n"
           "Freight fees 1,210 1,105 990 105 10 115 12\n"
           "Total revenues $ 5,420 $ 5,085 $ 4,502 $ 335 7 % $ 583 13 %")
COMMENT = ("TOTAL REVENUES\nHarbour revenue increased, primarily driven by higher volumes at the northern terminals. "
           "Freight fees increased, primarily driven by growth in our long-haul contracts. Total revenues rose on both.")
SEGMENT = ("TABLE 8: COASTAL SELECTED INCOME STATEMENT DATA\nYears Ended December 31, Change\n"
           "(Millions, except percentages) 2024 2023 2024 vs. 2023\nFreight fees 410 380 30 8\n"
           "Total revenues 1,410 1,300 110 8")
SEGMENT_COMMENT = "Freight fees increased 8 percent, primarily driven by new Coastal routes."


def _chunk(text: str, page: int, n: int) -> Evidence:
    return Evidence(source_id=TITLE, chunk_id=f"{TITLE}::abc::{page}-{n}", text=text, company=COMPANY,
                    fiscal_year=2024, title=TITLE, page=page, doc_type="report")


PAGES = {47: [_chunk("Consolidated results of operations.", 47, 0), _chunk(SUMMARY, 47, 1), _chunk(COMMENT, 47, 2)],
         54: [_chunk(SEGMENT, 54, 0), _chunk(SEGMENT_COMMENT, 54, 1)]}
QUESTION = "By how much did Ternline's freight fees increase in 2024 compared with 2023?"


def page_fn(source_id: str, page: int) -> list[Evidence]:
    return PAGES.get(page, [])


def test_the_table_a_comment_is_about_is_read_with_it() -> None:
    [added] = commented_tables(QUESTION, [PAGES[54][1], PAGES[47][2]], page_fn, [COMPANY])
    assert added.chunk_id == PAGES[47][1].chunk_id  # the company's table, not the segment's
    assert "Freight fees 1,210 1,105" in added.text


def test_no_table_is_read_when_the_measure_is_stated_or_not_asked() -> None:
    assert commented_tables(QUESTION, [PAGES[47][1], PAGES[47][2]], page_fn, [COMPANY]) == []  # stated already
    assert commented_tables(QUESTION, [PAGES[54][1]], page_fn, [COMPANY]) == []  # only a segment's table
    assert commented_tables("Why did Ternline's freight fees rise in 2024?", [PAGES[47][2]], page_fn,
                            [COMPANY]) == []  # an explanation is answered from the comment
    assert commented_tables(QUESTION, [PAGES[47][2]], None, [COMPANY]) == []
