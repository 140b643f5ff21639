"""A table's header carried over the next chunk's rows: chunking repeats a page's header lines, its first year line
included, above the rows that continue the table, so a year's rows can stand under the next year's line. Where
the page's first chunk states a cell, a later chunk's other value for it is no fact; and a quarterly table's day
header names its quarters for the citation check as the statement reader dates its rows.

Every company and figure here is made up (Pellmore Media, a streaming company)."""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import facts_for, read_query
from nodes.verify import spelled_quarters, unsupported_terms

CO = "Pellmore Media"
_HEAD = ("Selected Quarterly Financial Data (Unaudited)\nDecember 31 September 30 June 30 March 31\n"
         "(in thousands, except for per share data) 2015\n")
FIRST = (_HEAD + "Total revenues\n$ 1,823,333 $ 1,738,355 $ 1,644,694 $ 1,573,129\nNet income\n"
         "43,178 29,432 26,335 23,696\n2014\nTotal revenues\n$ 1,484,728 $ 1,409,432 $ 1,340,407 $ 1,270,089\n"
         "Net income\n83,371 59,295 71,018 53,115\n")
# the page's next chunk: the header, '2015' included, carried over 2014's last rows
CARRIED = _HEAD + "Net income\n83,371 59,295 71,018 53,115\n"


def _doc(text: str, ordinal: int) -> Evidence:
    return Evidence(chunk_id=f"PLM_2015_10K:p63::c0ffee::{ordinal}", source_id="PLM_2015_10K:p63",
                    title="PLM_2015_10K", page=63, company=CO, fiscal_year=2015, doc_type="report", text=text,
                    score=1.0)


def test_a_later_chunks_other_value_for_a_cell_the_first_chunk_states_is_no_fact() -> None:
    query = read_query(f"What was {CO}'s net income in the first quarter of 2015?", [CO])
    both = facts_for(query, [_doc(FIRST, 0), _doc(CARRIED, 1)], [CO])
    q1_2015 = {f.figure.value for f in both if f.figure.period == "Q1 2015" and f.figure.label == "Net income"}
    assert q1_2015 == {23696.0}, q1_2015
    # 2014's own cell stands
    assert any(f.figure.value == 53115.0 and f.figure.period == "Q1 2014" for f in both)


def test_a_cell_no_earlier_chunk_states_is_kept() -> None:
    query = read_query(f"What was {CO}'s net income in the first quarter of 2015?", [CO])
    alone = facts_for(query, [_doc(CARRIED, 1)], [CO])
    assert any(f.figure.value == 53115.0 for f in alone)  # nothing to tell it by: the reader's reading stands


def test_a_quarterly_tables_day_header_names_its_quarters_for_the_citation_check() -> None:
    assert "Q1 2015" in spelled_quarters(FIRST) and "Q4 2014" in spelled_quarters(FIRST)
    from app.text.dates import unsupported_dates

    said = "Its net income was $23,696k in Q1 2015"
    assert unsupported_dates(said, FIRST) == ["Q1"]  # the table writes no 'Q1' …
    assert unsupported_dates(said, f"{FIRST}\n{spelled_quarters(FIRST)}") == []  # … its day header names it
    assert unsupported_terms(said, FIRST) == []
    assert spelled_quarters("Revenue rose in 1Q21.") == "Q1 2021"
    # days with no quarterly title name no quarters
    assert spelled_quarters(FIRST.replace("Selected Quarterly Financial Data (Unaudited)", "Balances")) == ""


def test_a_years_quarters_are_ranked_when_a_quarterly_table_states_all_four() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    block = Block(n=1, kind="report", header=f"[1] {CO} FY2015 p.63", text=FIRST, source_id="PLM_2015_10K:p63",
                  chunk_id="PLM_2015_10K:p63::c0ffee::0", company=CO, fiscal_year=2015, page=63)
    question = f"Which quarter of 2015 delivered {CO}'s lowest net profit after tax?"
    assert read_query(question, [CO]).measure.phrase == "net profit after tax"  # (whose it is is no measure word)
    draft = compose_offline({"question": question, "companies": [CO], "fiscal_years": [2015], "blocks": [block]})
    assert draft.startswith(f"Q1 2015 had {CO}'s lowest net income of the year: $23,696k [1]."), draft
    assert "Q4 2015 $43,178k" in draft
    # three quarters stated are no ranking of the year's quarters
    three = block.model_copy(update={"text": FIRST.replace("43,178 29,432 26,335 23,696", "29,432 26,335 23,696")
                                     .replace("December 31 September 30 June 30 March 31", "September 30 June 30 March 31")})
    assert not compose_offline({"question": question, "companies": [CO], "fiscal_years": [2015],
                                "blocks": [three]}).startswith("Q1 2015 had")
