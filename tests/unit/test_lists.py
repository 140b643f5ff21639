"""app/text/lists.py: the items a report lists under a heading that names what a question asks for. The pages are
invented, in the layouts reports have after PDF extraction."""

from __future__ import annotations

from app.knowledge.analyzer import analyze
from app.text.lists import listed_items

RISKS = """Risk Management   Principal Business Risks
The following are the principal risks that could affect the Group's results.
1. Fluctuations in demand for capital goods
Machine tools are capital goods, and demand for them is cyclical. We mitigate this risk by diversifying.
2. Foreign exchange rates
Overseas sales account for about two-thirds of net sales.
3. Information security
A cyber attack could stop our plants.
Corporate Governance
1. Board of Directors
"""

EVENTS = """24. Contingent liabilities
The Group has given bank guarantees of A$48.2 million.
25. Events after the reporting period
(a) Dividend: on 22 August 2024 the Directors declared a fully franked final dividend of 18 cents per share
(A$110.4 million), which has not been recognised as a liability at 30 June 2024.
(b) Share buy-back: on 22 August 2024 the Company announced an on-market buy-back of up to A$150 million.
(c) Refinancing: on 9 August 2024 the Group extended its revolving credit facility to December 2029. No other
matter has arisen since 30 June 2024.
"""

FORMATS = """Our store estate
Store numbers by format
Format 30 March 2024 Opened Closed 29 March 2025
High Street 251 — 13 238
Retail Park 91 6 1 96
Pellbury Local 39 3 1 41
Total UK stores 381 9 15 375
Selling space 4.71m 4.62m
High Street stores are in town centres.
"""


def key(words: str) -> set[str]:
    return set(analyze(words))


def test_titled_items_under_the_heading_are_their_titles_and_the_next_heading_ends_the_list() -> None:
    listed = listed_items(RISKS, key("principal business risks"))
    assert listed is not None and listed.heading.endswith("Principal Business Risks")
    assert listed.items == ("Fluctuations in demand for capital goods", "Foreign exchange rates",
                            "Information security")


def test_items_that_are_sentences_are_read_to_the_end_of_their_first_sentence_over_wrapped_lines() -> None:
    listed = listed_items(EVENTS, key("events after the reporting period"))
    assert listed is not None and listed.heading == "25. Events after the reporting period"
    assert listed.items[0].startswith("Dividend: on 22 August 2024") and listed.items[0].endswith(
        "(A$110.4 million), which has not been recognised as a liability at 30 June 2024.")
    assert listed.items[2] == ("Refinancing: on 9 August 2024 the Group extended its revolving credit facility to "
                               "December 2029.")
    assert len(listed.items) == 3


def test_a_table_under_the_heading_lists_its_rows_without_totals_or_rows_of_another_shape() -> None:
    listed = listed_items(FORMATS, key("store formats"))
    assert listed is not None and listed.items == ("High Street", "Retail Park", "Pellbury Local")


def test_no_heading_holding_the_key_words_lists_nothing() -> None:
    assert listed_items(RISKS, key("reportable segments")) is None
    assert listed_items(EVENTS, set()) is None
