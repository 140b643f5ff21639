"""A segment's table chunked apart from its heading: the paragraph before it ends with the heading, which
extraction ran into the paragraph ('… outpaced content spending. Coastal Freight Segment'), and the table's chunks
name no segment. The chunks after the heading are read as the segment's; a heading of 'Change' above two
'2024 vs. 2023' columns spans them and is no column of its own.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.members import closing_heading
from app.facts.query import facts_for, read_query
from app.text.statements import read_statement
from nodes.inputs import segment_heading_continuations

COMPANY = "Ternline"
TITLE = "TERNLINE_2024_10K"
HEADER = ("As of /Year Ended December 31, Change\n2024 2023 2022 2024 vs. 2023 2023 vs. 2022\n"
          "(in thousands, except percentages) Shipments:")
PROSE = ("Our Harbour segment had a contribution margin of 31% for the year ended December 31, 2023, which increased as "
         "compared to 2022 due to growth in volumes, which continued to outpace fuel spending. Coastal Freight Segment")
TABLE = HEADER + ("\nRevenues\n$ 1,089,191 $ 811,095 $ 653,435 $ 278,096 34 % $ 157,660 24 %\n"
                  "Contribution profit (loss)\n126,589 (108,521 ) (133,386 ) 235,110 217 % 24,865 19 %")
NEXT_SEGMENT = "Rail Services Segment"


def _chunk(text: str, n: int) -> Evidence:
    return Evidence(source_id=f"{TITLE}:p23", chunk_id=f"{TITLE}:p23::abc::{n}", text=text, company=COMPANY,
                    fiscal_year=2024, title=TITLE, page=23, doc_type="report")


PAGE = [_chunk(PROSE, 0), _chunk(TABLE, 1), _chunk(NEXT_SEGMENT, 2), _chunk(TABLE.replace("126,589", "98,000"), 3)]
QUESTION = "How did Ternline's Coastal Freight segment contribution profit in 2024 compare with 2023?"


def page_fn(source_id: str, page: int) -> list[Evidence]:
    return PAGE if page == 23 else []


def test_one_change_heading_spans_the_change_columns_under_it() -> None:
    [profit] = [r for r in read_statement(TABLE).rows if r.line_item.startswith("Contribution")]
    assert profit.periods is not None and profit.periods[:3] == ["FY2024", "FY2023", "FY2022"]
    assert profit.values[:3] == [126589.0, -108521.0, -133386.0]


def test_a_heading_run_into_a_paragraph_closes_it() -> None:
    assert closing_heading(PROSE) == "Coastal Freight Segment"
    assert closing_heading("Revenue rose 4% in 2024.") is None
    assert closing_heading("Segment results\n") == "Segment results"


def test_the_chunks_under_the_segments_heading_are_read_as_the_segments() -> None:
    [added, *rest] = segment_heading_continuations(QUESTION, [PAGE[0]], page_fn, [COMPANY])
    assert added.chunk_id == PAGE[1].chunk_id and added.section == "Coastal Freight Segment"
    assert all(d.chunk_id not in (PAGE[2].chunk_id, PAGE[3].chunk_id) for d in rest)  # the next segment's
    query = read_query(QUESTION, [COMPANY])
    found = {(f.figure.fiscal_year, f.figure.value, f.segment) for f in facts_for(query, [added], [COMPANY])}
    assert (2024, 126589.0, "Coastal Freight") in found and (2023, -108521.0, "Coastal Freight") in found
    # another segment's heading, or none, reads nothing on
    assert segment_heading_continuations(QUESTION.replace("Coastal Freight", "Rail Services"), [PAGE[0]], page_fn,
                                         [COMPANY]) == []
    assert segment_heading_continuations(QUESTION, [PAGE[1]], page_fn, [COMPANY]) == []
