"""The names of a segment table's columns, when its header runs them together: 'in € million Harbour Cranes
Rail Systems Service Corporate/ consolidation Group' over rows of five values splits only where the page writes a
name on its own ('Rail Systems' heading its paragraph). A search admits the table's chunk alone; for a question
that ranks the segments, the page's chunk that names them is read with it, and the ranking is made.

Every company, page and figure here is made up (Ostmark Hebetechnik, a maker of cranes and rail equipment).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.turns import Block
from app.models.providers.offline.composer.answer import compose_offline
from nodes.inputs import member_name_continuations

COMPANY = "Ostmark Hebetechnik"
TITLE = "OSTMARK_2024_AR"
TABLE = ("Segment performance\nin € million Harbour Cranes Rail Systems Service Corporate/ consolidation Group\n"
         "2024\nOrder intake 912.0 544.3 301.2 1,757.5\nRevenue 880.6 512.9 296.4 1,689.9\n"
         "EBIT 61.2 30.4 48.8 (14.1) 126.3\n2023\nOrder intake 874.5 590.1 288.0 1,752.6\n"
         "Revenue 861.0 498.3 281.7 1,641.0\nEBIT 66.0 28.9 44.1 (13.5) 125.5")
NAMES = ("Harbour Cranes\nOrder intake in Harbour Cranes rose by 4.3% on port automation projects.\nRail Systems\n"
         "Order intake in Rail Systems fell by 7.8% after a large tram order in the previous year.")


def _chunk(text: str, n: int) -> Evidence:
    return Evidence(source_id=TITLE, chunk_id=f"{TITLE}::p23::{n}", text=text, company=COMPANY, fiscal_year=2024,
                    title=TITLE, page=23, doc_type="report")


PAGE = [_chunk(TABLE, 0), _chunk(NAMES, 1), _chunk("Outlook\nWe expect revenue to grow slightly in 2025.", 2)]


def page_fn(source_id: str, page: int) -> list[Evidence]:
    return PAGE if (source_id, page) == (TITLE, 23) else []


def test_the_chunk_that_names_a_tables_columns_is_read_for_a_ranking() -> None:
    question = f"Which {COMPANY} segment had the largest order intake in 2024?"
    [added] = member_name_continuations(question, [PAGE[0]], page_fn)
    assert added.chunk_id == PAGE[1].chunk_id  # the headings' chunk, not the outlook's
    assert member_name_continuations(question, [PAGE[0], PAGE[1]], page_fn) == []  # read already
    # a question that ranks nothing, or no page to read, adds nothing
    assert member_name_continuations(f"What was {COMPANY}'s order intake in 2024?", [PAGE[0]], page_fn) == []
    assert member_name_continuations(question, [PAGE[0]], None) == []


def test_with_the_names_read_the_segments_are_ranked() -> None:
    question = f"Which {COMPANY} segment had the largest order intake in 2024?"
    blocks = [Block(n=k + 1, kind="report", header=f"[{k + 1}] {COMPANY} FY2024, p.23 [text]", source_id=TITLE,
                    chunk_id=c.chunk_id, company=COMPANY, fiscal_year=2024, page=23, text=c.text)
              for k, c in enumerate(PAGE[:2])]
    answer = compose_offline({"question": question, "companies": [COMPANY], "fiscal_years": [2024], "blocks": blocks})
    assert answer.startswith("Harbour Cranes had the highest order intake in FY2024: €912.0m"), answer
    assert "Rail Systems €544.3m" in answer and "Service €301.2m" in answer
