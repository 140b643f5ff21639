"""An earnings release writes each part's results as bullets under the part's name ('Harbour Strip Resorts' /
'• Net revenues of $8.4 billion in the current year compared to $4.7 billion in the prior year'), in the words
it uses for the company's own. Those figures are the part's when a row that names the part gives the same ones
('Harbour Strip Resorts net revenues $ 8,398,372 $ 4,737,185'), and the other parts' bullets of the same form are
theirs (app/facts/query.parts_by_figures). A scope the question does not ask ('same-store net revenues') is
another measure. None of them answers a question about the company, and a row that names a part is not the
company's figure to the calculator either.

Every company and figure here is made up (Harbour Gaming).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import UNNAMED_PART, facts_for, read_query
from app.models.providers.offline.calculator import names_the_measure
from app.models.providers.offline.composer.answer import compose_offline
from app.turns import Block

CO = "Harbour Gaming"
BULLETS = """Consolidated Adjusted EBITDAR of $3.5 billion in 2025. Harbour Strip Resorts
• Net revenues of $8.4 billion in the current year compared to $4.7 billion in the prior year, an increase of 77%;
• Same-store net revenues (adjusted for acquisitions and dispositions) of $5.6 billion in the current year compared to $4.0 billion in the prior year, an increase of 42%;"""
OTHER = """Regional Operations
• Net revenues of $3.8 billion in the current year compared to $3.4 billion in the prior year, an increase of 12%;"""
ROWS = """Reconciliation of net revenues (In thousands)
Twelve months ended December 31, 2025 2024
Harbour Strip Resorts net revenues $ 8,398,372 $ 4,737,185"""
GROUP = ("• Consolidated net revenues of $13.1 billion in the current year compared to $9.7 billion in the prior year, "
         "an increase of 36%.")


def _doc(text: str, page: int) -> Evidence:
    return Evidence(chunk_id=f"HG_2025Q4_EARNINGS:p{page}::0", source_id=f"HG_2025Q4_EARNINGS:p{page}", company=CO,
                    fiscal_year=2025, page=page, text=text)


def _by_value(question: str, *docs: Evidence) -> dict[float, str | None]:
    return {f.figure.value: f.segment for f in facts_for(read_query(question, [CO]), list(docs), [CO])
            if f.origin == "text"}


def test_a_parts_bullets_are_that_parts_and_so_are_its_siblings_of_the_same_form():
    found = _by_value(f"What were {CO}'s net revenues in 2025?", _doc(BULLETS, 3), _doc(OTHER, 4), _doc(ROWS, 15))
    assert found[8.4] == found[4.7] == "Harbour Strip Resorts"
    assert found[3.8] == found[3.4] == "Regional Operations"
    # same-store revenues are another measure than net revenues: not read at all
    assert 5.6 not in found and 4.0 not in found
    # without the row that names the part, nothing tells: the bullets stand as they are
    alone = _by_value(f"What were {CO}'s net revenues in 2025?", _doc(BULLETS, 3), _doc(OTHER, 4))
    assert alone[8.4] is None and alone[3.8] is None
    # a sibling with no heading above it is a part all the same
    headless = _by_value(f"What were {CO}'s net revenues in 2025?", _doc(BULLETS, 3),
                         _doc(OTHER.split("\n", 1)[1], 4), _doc(ROWS, 15))
    assert headless[3.8] == UNNAMED_PART


def test_figures_that_agree_only_roughly_or_once_name_no_part():
    rows = ROWS.replace("8,398,372", "8,498,372")  # 8.5 billion, not the bullets' 8.4
    found = _by_value(f"What were {CO}'s net revenues in 2025?", _doc(BULLETS, 3), _doc(rows, 15))
    assert found[8.4] is None and found[4.7] is None


def test_a_scope_asked_reads_its_figures():
    found = _by_value(f"What were {CO}'s same-store net revenues in 2025?", _doc(BULLETS, 3))
    assert 5.6 in found and 4.0 in found


def test_a_row_that_names_a_part_is_not_the_companys_measure_to_the_calculator():
    asked = f"Did {CO}'s net revenues increase in 2025?"
    assert not names_the_measure(asked, "Harbour Strip Resorts net revenues", [CO])
    assert names_the_measure(asked, "Net revenues", [CO])
    assert names_the_measure(f"Did the Harbour Strip Resorts segment's net revenues increase in 2025 at {CO}?",
                             "Harbour Strip Resorts net revenues", [CO])
    # a label's first word is capitalised whatever it is: 'Cash dividend payments' names no part
    assert names_the_measure(f"How much did {CO} pay in dividends in 2025?", "Cash dividend payments", [CO])


def _answer(*texts: tuple[str, int]) -> str:
    blocks = [Block(n=i, kind="report", header=f"[{i}] {CO} FY2025, p.{page} [text]", text=text,
                    source_id=f"HG_2025Q4_EARNINGS:p{page}", chunk_id=f"HG_2025Q4_EARNINGS:p{page}::0", company=CO,
                    fiscal_year=2025, page=page) for i, (text, page) in enumerate(texts, 1)]
    return compose_offline({"question": f"Did {CO}'s net revenues increase in 2025?", "companies": [CO],
                            "fiscal_years": [2025], "blocks": blocks})


def test_a_yes_no_about_the_company_is_not_answered_with_a_parts_figures():
    parts = _answer((BULLETS, 3), (OTHER, 4), (ROWS, 15))
    assert "8.4" not in parts and "3.8" not in parts and "5.6" not in parts, parts
    group = _answer((GROUP, 2), (BULLETS, 3), (OTHER, 4), (ROWS, 15))
    assert group.startswith("Yes.") and "13.1" in group.split("[")[0] and "8.4" not in group, group
