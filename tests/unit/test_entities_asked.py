"""Entities a question names that are not the company: a venture named after it ("BetMGM's net revenues" asked of
MGM Resorts is no question about MGM's own revenues), and a part named before its measure with an initialism
('Netflix's Domestic DVD revenues'). Each is the part asked, so the company's own figure never answers for it.

Every company and figure here is made up, but for the names' shapes.
"""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.text.measures import measure_asked
from app.turns import Block

INCOME = """MGX Resorts International
Condensed Consolidated Statements of Operations
(In thousands)
Three months ended June 30,
2024 2023
Net revenues $ 3,942,207 $ 3,528,331"""


def test_a_venture_named_after_the_company_is_a_part_of_its_own() -> None:
    assert measure_asked("What were BetMGX's net revenues in 2024?", ["MGX Resorts International",
                                                                          "MGX"]).segment == "BetMGX"
    # the company's own short name is its owner, not a part
    assert measure_asked("What were MGX's net revenues in 2024?", ["MGX"]).segment is None


def test_the_companys_figure_does_not_answer_for_the_venture() -> None:
    block = Block(n=1, kind="report", header="[1] MGX Resorts International FY2024 p.5", text=INCOME,
                  source_id="MGX_2024Q2_10Q:p5", chunk_id="MGX_2024Q2_10Q:p5::abc::0",
                  company="MGX Resorts International", fiscal_year=2024, page=5)
    question = "What were BetMGX's net revenues in the second quarter of 2024?"
    said = Analyst({"blocks": [block], "companies": ["MGX Resorts International"], "fiscal_years": [2024]},
                   question).sentences()
    assert not any("3,942,207" in s for s in said), said


def test_a_part_named_with_an_initialism_before_its_measure() -> None:
    asked = measure_asked("How much did Ternline's Domestic DVD revenues fall in 2024 compared with 2023?",
                          ["Ternline"])
    assert asked.segment == "Domestic DVD" and asked.phrase == "revenues"
