"""A table of each segment's change ('Increases in net sales:' over 'U.S. 16 % 9 %', 'Other International 23 %
13 %'): a ranking question about growth finds it (the grader admits the page that states the measure), reads
'Other International' as a segment (no 'other' row of the reconciliation), and ranks the changes the table states
rather than reading its per cents as levels. Every company and figure here is made up (Kestrel, a warehouse club)."""

from __future__ import annotations

from app.evidence import Evidence
from app.models.providers.offline import OfflineGrader
from app.models.providers.offline.composer.analyst import Analyst
from app.text.statements import is_total
from app.turns import Block

CO = "Kestrel"
PAGE = """RESULTS OF OPERATIONS
Net Sales
2024 2023 2022
Net Sales $ 92,052 $ 83,220 $ 79,351
Increases in net sales:
U.S. 11 % 9 % 9 %
Canada 17 % 5 % 3 %
Other International 19 % 13 % 5 %
Total Company 13 % 9 % 8 %
Increases in comparable sales:
U.S. 10 % 8 % 8 %
Canada 21 % 5 % 2 %
Other International 15 % 9 % 2 %
Total Company 12 % 8 % 6 %"""
QUESTION = f"Which of {CO}'s three reportable segments posted the fastest net sales growth in fiscal 2024?"


def test_the_page_that_states_the_measure_ranked_is_admitted() -> None:
    doc = Evidence(chunk_id="k-25", source_id="KESTREL_2024_10K:p25", company=CO, fiscal_year=2024, page=25,
                   score=0.02, text=PAGE)
    assert OfflineGrader().grade(QUESTION, doc, [CO])


def test_other_international_is_a_segment_and_other_rows_are_not() -> None:
    assert not is_total("Other International")
    assert is_total("Other") and is_total("All other") and is_total("Other segments")


def test_the_changes_a_table_states_are_ranked_as_changes() -> None:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024 10-K, p.25", text=PAGE,
                  source_id="KESTREL_2024_10K:p25", chunk_id="KESTREL_2024_10K:p25::0", company=CO, fiscal_year=2024,
                  page=25)
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024]}, QUESTION).first_sentences()
    assert said == ["Other International rose most: its net sales rose 19% in FY2024 [1].",
                    "The others: U.S. 11%; Canada 17% [1]."], said
