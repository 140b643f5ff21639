"""A note of quarterly results as PDF extraction gives it: 'For the Quarters Ended' over a line of four dates,
then the year before's table under its own header, one of whose dates carries a footnote mark ('December 31,
2024 (1)'). Each column is a quarter (three months), each table's rows take their own header's dates, and a chunk
cut inside the second table repeats the second header, not the first (app/text/statements.py,
app/knowledge/chunking.py). A quarter's operating income is never read as the year's.

Every company and figure here is made up (Kestrel Games).
"""

from __future__ import annotations

from app.knowledge.chunking import chunk_record
from app.knowledge.records import SourceRecord
from app.text.statements import read_statement

LEAD = ("In the opinion of management, after consultation with legal counsel, such routine claims and lawsuits are "
        "not significant and we do not expect them to have a material adverse effect on our business.")
QUARTERS = """For the Quarters Ended
December 31, 2025 September 30, 2025 June 30, 2025 March 31, 2025
(Amounts in millions, except per share data)
Net revenues $ 1,986 $ 1,282 $ 1,396 $ 1,825
Cost of revenues 656 442 433 563
Operating income 454 247 336 570
Net income 525 204 328 447
For the Quarters Ended
December 31, 2024 (1) September 30, 2024 June 30, 2024 March 31, 2024
(Amounts in millions, except per share data)
Net revenues $ 2,381 $ 1,512 $ 1,641 $ 1,965
Cost of revenues 832 513 510 662
Operating income 694 265 434 595
Net income 685 260 402 500"""


def test_each_column_is_a_quarter_of_its_own_tables_year():
    rows = {(r.line_item, r.values[0]): r.periods for r in read_statement(QUARTERS).rows}
    assert rows[("Operating income", 454.0)][0] == "3M 2025-12-31"
    assert rows[("Operating income", 694.0)] == ["3M 2024-12-31", "3M 2024-09-30", "3M 2024-06-30", "3M 2024-03-31"]


def test_a_chunk_of_the_second_table_repeats_the_second_header():
    # a page of prose over the table: the table is a run inside running text, not a statement page
    text = "\n".join([LEAD] * 4 + [QUARTERS])
    record = SourceRecord(source_id="KG_2025_10K:p122", text=text, origin="test", pages=[(122, text)])
    chunks = chunk_record(record, max_tokens=120, overlap=0)
    for chunk in chunks:
        if "694 265 434 595" in chunk.text:
            assert "December 31, 2024" in chunk.text and "December 31, 2025" not in chunk.text, chunk.text
        if "454 247 336 570" in chunk.text:
            assert "December 31, 2025" in chunk.text
    assert any("694 265 434 595" in c.text for c in chunks)
