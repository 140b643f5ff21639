"""A segment's review under its own heading ('Flexibles Segment' over its table, then its paragraphs): PDF pages
carry no headings, and a chunk cut after the heading loses it, so the page's chunks before it tell which segment
a paragraph is about (nodes/inputs.segment_sections, app/facts/members.segment_under). Its figures and its
changes are the segment's: a question about the company is never answered with them, and one about the segment
is. A yes/no on a change answered from a sentence that states it leads with Yes or No.

Every company and figure here is made up (Kestrel Packaging).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.members import heading_above, segment_heading, segment_under
from app.facts.query import facts_for, read_query
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block
from nodes.inputs import segment_sections

CO = "Kestrel Packaging"

HEAD = """Segment Results of Operations
Films Segment
($ in millions) 2025 2024
Net sales $ 8,210 $ 8,190
Adjusted EBIT 1,105 1,170"""
FILMS = ("Net sales increased by $20 million, or 0%, in fiscal year 2025, compared to fiscal year 2024. Adjusted EBIT "
         "decreased by $65 million, or 6% in fiscal year 2025, compared to fiscal year 2024.")
NEXT = """Consolidated Gross Profit
($ in millions) 2025 2024
Gross profit $ 2,120 $ 2,190"""
AFTER = "Gross profit decreased by $70 million, or 3%, in fiscal year 2025, compared to fiscal year 2024."
GROUP = "Adjusted EBIT increased by $40 million, or 3% in fiscal year 2025, compared to fiscal year 2024."


def _chunk(i: int, text: str, page: int = 32) -> Evidence:
    return Evidence(chunk_id=f"KESTREL_2025_10K:p{page}::{i}", source_id="KESTREL_2025_10K", company=CO,
                    fiscal_year=2025, page=page, score=0.5, text=text)


def test_a_heading_names_a_segment_only_when_it_is_one_segments():
    assert segment_heading("Films Segment") == "Films"
    assert segment_heading("Rigid Containers Segment") == "Rigid Containers"
    assert segment_heading("Health Care Business Segment") == "Health Care"
    assert segment_heading("Medical Devices Division") == "Medical Devices"
    for other in ("Segment Results of Operations", "Reportable Segment", "Other Segment", "Consolidated Gross Profit",
                  "", None):
        assert segment_heading(other) is None
    # read upwards past the table's rows and unit line to the heading
    assert heading_above(HEAD) == "Films Segment"
    assert heading_above(f"{HEAD}\n{FILMS}\n{NEXT}") == "Consolidated Gross Profit"


def test_a_sentence_is_the_segments_under_its_heading_or_its_chunks_section():
    assert segment_under(f"{HEAD}\n{FILMS}", "Adjusted EBIT decreased by $65 million, or 6% in fiscal year 2025") \
        == "Films"
    # no heading above it in its own text: its chunk's section decides
    assert segment_under(FILMS, "Adjusted EBIT decreased by $65 million", "Films Segment") == "Films"
    assert segment_under(FILMS, "Adjusted EBIT decreased by $65 million") is None
    # a heading of another kind above it in the text overrides the section
    assert segment_under(f"{NEXT}\n{AFTER}", AFTER, "Films Segment") is None


def test_the_pages_chunks_before_a_chunk_give_it_the_segment_heading_it_stands_under():
    page = [_chunk(0, HEAD), _chunk(1, FILMS), _chunk(2, NEXT), _chunk(3, AFTER)]
    asked: list = []

    def page_fn(source_id: str, number: int) -> list[Evidence]:
        asked.append((source_id, number))
        return page

    graded = [page[1], page[3], _chunk(0, GROUP, page=35)]
    out = segment_sections(graded, lambda s, n: page_fn(s, n) if n == 32 else [])
    assert [d.section for d in out] == ["Films Segment", None, None]
    assert asked == [("KESTREL_2025_10K", 32)]  # one read per page
    assert segment_sections(graded, None) == graded
    # a chunk with a section of its own keeps it
    own = page[1].model_copy(update={"section": "Financial review"})
    assert segment_sections([own], page_fn)[0].section == "Financial review"


def test_a_segments_paragraph_answers_for_the_segment_and_never_for_the_company():
    level = "Adjusted EBIT was $1,105 million in fiscal year 2025, compared to $1,170 million in fiscal year 2024."
    doc = _chunk(1, level).model_copy(update={"section": "Films Segment"})
    company = read_query(f"What was {CO}'s adjusted EBIT in fiscal 2025?", [CO])
    assert not [f for f in facts_for(company, [doc]) if f.segment is None]
    films = read_query(f"What was the Films segment's adjusted EBIT in fiscal 2025 at {CO}?", [CO])
    assert any(f.segment == "Films" and f.figure.value == 1105.0 for f in facts_for(films, [doc]))
    # the same paragraph with no heading over it is the company's, as before
    assert any(f.segment is None and f.figure.value == 1105.0 for f in facts_for(company, [_chunk(1, level)]))


def _claims(question: str, section: str | None) -> list[str]:
    where = f', section "{section}"' if section else ""
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.32{where} [text]", text=f"{FILMS} {GROUP}",
                  source_id="KESTREL_2025_10K", chunk_id="KESTREL_2025_10K:p32::1", company=CO, fiscal_year=2025,
                  page=32)
    analyst = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2025]}, question)
    return analyst.on_topic([f"{GROUP} [1]"])


def test_a_yes_no_on_a_change_leads_with_the_answer_its_sentence_states():
    said = _claims(f"Did {CO}'s adjusted EBIT increase in fiscal 2025?", None)
    assert said and said[0].startswith("Yes. Adjusted EBIT increased by $40 million")
    said = _claims(f"Did {CO}'s adjusted EBIT decrease in fiscal 2025?", None)
    assert said and said[0].startswith("No. ")
    # under a segment's heading the sentence is the segment's: no answer about the company
    assert _claims(f"Did {CO}'s adjusted EBIT increase in fiscal 2025?", "Films Segment") == []
