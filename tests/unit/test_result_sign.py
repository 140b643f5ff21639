"""A quarterly release's statement with 'Three Months Ended' and 'Twelve Months Ended' columns: the twelve months'
column, dated by its last day only, is the year's flow and never the quarter's balance; and a yes/no about the
sign of a result ('Did it post an operating profit in the fourth quarter?') is answered by the period's row.
Every company and figure here is made up (Harbourline, a resort group)."""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import choose, facts_for, read_query
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Harbourline"
TITLE = "HARBOURLINE_2024Q4_EARNINGS"
STATEMENT = """HARBOURLINE RESORTS AND SUBSIDIARIES
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands, except per share data)
Three Months Ended Twelve Months Ended
December 31,
2024
December 31,
2023
December 31,
2024
December 31,
2023
Revenues
Casino $ 548,762 $ 527,818 $ 1,734,173 $ 1,362,912
Rooms 297,943 236,130 1,057,145 690,037
Operating income (loss) (1,896) 68,847 439,372 278,699
Net income (loss) (20,014) 16,087 206,731 108,389"""


def _block() -> Block:
    return Block(n=1, kind="report", header=f"[1] {CO} Q4 FY2024 earnings release, p.11 [text]", text=STATEMENT,
                 source_id=f"{TITLE}:p11", chunk_id=f"{TITLE}:p11::0", company=CO, fiscal_year=2024, page=11)


def _answer(question: str) -> list[str]:
    return Analyst({"blocks": [_block()], "companies": [CO], "fiscal_years": [2024]}, question).first_sentences()


def test_the_twelve_months_column_is_no_balance_of_the_quarter() -> None:
    doc = Evidence(source_id=f"{TITLE}:p11", chunk_id=f"{TITLE}:p11::0", text=STATEMENT, company=CO,
                   fiscal_year=2024, title=TITLE, page=11)
    query = read_query(f"What was {CO}'s operating income in the fourth quarter of 2024?", [CO], [2024])
    assert [f.figure.value for f in choose(facts_for(query, [doc], [CO]), query)][:1] == [-1896.0]
    yearly = read_query(f"What was {CO}'s operating income in 2024?", [CO], [2024])
    assert [f.figure.value for f in choose(facts_for(yearly, [doc], [CO]), yearly)][:1] == [439372.0]


def test_a_result_asked_by_its_sign_is_answered_by_the_periods_row() -> None:
    quarter = _answer(f"Did {CO} post an operating profit in the fourth quarter of 2024?")
    assert quarter[0].startswith(f"No. {CO}'s operating income (loss) was -$1,896k in the three months ended 31 "
                                 "December 2024: an operating loss of $1,896k"), quarter
    year = _answer(f"Did {CO} report a net loss in 2024?")
    assert year[0].startswith(f"No. {CO}'s net income (loss) was $206,731k in FY2024: a net profit of $206,731k"), year
    assert _answer(f"Did {CO} post an operating profit in 2024?")[0].startswith("Yes. ")


def test_a_result_named_as_part_of_another_measure_is_no_sign_asked() -> None:
    from app.models.providers.offline.composer.analyst import _RESULT_ASKED

    assert _RESULT_ASKED.search(f"Did {CO} report a net loss in 2024?")
    assert not _RESULT_ASKED.search(f"Did {CO} report income tax expense in 2024?")
    assert not _RESULT_ASKED.search(f"Did {CO} report earnings per share above $2 in 2024?")
    assert not _RESULT_ASKED.search(f"Did {CO} post income from continuing operations in 2024?")
