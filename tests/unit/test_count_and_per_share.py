"""What a figure counts or measures, as its sentence or row says it: a dividend per share is a figure given per
share, never the aggregate payment beside it ('a special dividend of $10.00 per share, resulting in an aggregate
payment of approximately $4,430'); how many stores a company has is no count of the year's doings ('opened 47 new
stores, relocated 12 stores', a row 'New store openings, net'), which answers only a question about that doing
(app/facts/query.text_facts, row_facts).

Every company and figure here is made up (Brightwell).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import facts_for, read_query

CO = "Brightwell"


def _values(question: str, text: str) -> list[float]:
    doc = Evidence(chunk_id="b::0", source_id="b", company=CO, fiscal_year=2025, page=40, text=text)
    return sorted({f.figure.value for f in facts_for(read_query(question, [CO]), [doc], [CO])})


def test_a_dividend_per_share_is_a_figure_given_per_share():
    asked = f"What dividend per share did {CO} pay in fiscal 2025?"
    said = ("Dividends in 2025 included a special dividend of $10.00 per share, resulting in an aggregate payment of "
            "approximately $4,430.")
    assert _values(asked, said) == [10.0]
    assert _values(asked, "Dividends totaled $1.49, $1.48 and $1.47 per share for each quarter in 2025.") == [
        1.47, 1.48, 1.49]
    # the aggregate asked: the amount is read
    assert 4430.0 in _values(f"How much did {CO} pay in dividends in fiscal 2025?", said)


def test_a_count_of_the_years_doings_is_no_count_of_what_the_company_has():
    said = "During fiscal 2025, the Company opened 47 new stores, relocated 12 stores, and remodeled 30 stores."
    assert _values(f"How many stores did {CO} have at the end of fiscal 2025?", said) == []
    assert _values(f"How many stores did {CO} open in fiscal 2025?", said) == [47.0]
    row = "Store data\nFiscal 2025 2024\nNew store openings, net 47 41\nTotal stores open at end of year 1,355 1,308"
    assert _values(f"How many stores did {CO} have at the end of fiscal 2025?", row) == [1308.0, 1355.0]
    assert 47.0 in _values(f"How many new stores did {CO} open in fiscal 2025?", row)
