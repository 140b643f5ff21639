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


def test_a_table_whose_rows_are_measures_lists_no_members() -> None:
    note = ("6 Segment reporting\nin € million Drives Rail Service Group\n2024\nExternal revenue 1,318.6 624.9 494.3 "
            "2,437.8\nEBIT 98.4 41.2 91.7 206.8\nEBITDA 167.7 62.6 104.3 319.2\nCapital expenditure 78.4 41.9 18.6 "
            "148.7\n")
    assert listed_items(note, key("reportable segments")) is None


def test_the_closing_verb_of_a_what_does_it_do_question_is_no_key_word() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    page = ("Store numbers by format\nFormat 2024 Opened Closed 2025\nHigh Street 251 0 13 238\n"
            "Retail Park 91 6 1 96\nTown Local 39 3 1 41\nTotal UK stores 381 9 15 375\n")
    block = Block(n=1, kind="report", header="[1] Osprey Stores FY2025, p.12 [text]", source_id="os-12",
                  chunk_id="os-12", company="Osprey Stores", fiscal_year=2025, page=12, text=page)
    answer = compose_offline({"question": "What store formats does Osprey Stores operate?",
                              "companies": ["Osprey Stores"], "blocks": [block]})
    assert answer == ("Osprey Stores' report lists under 'Store numbers by format': High Street; Retail Park and "
                      "Town Local [1].")


def test_a_lead_in_sentence_heads_the_enumerated_items_named_without_their_descriptions() -> None:
    from app.models.providers.offline.composer import compose_offline
    from app.turns import Block

    page = ("Our Operations\nWe are organized into four reportable segments (also referred to as divisions), as follows:\n"
            "1) North America, which includes our beverage and snack businesses in the United States and Canada;\n"
            "2) Latin America (LatAm), which includes all of our businesses in Latin America;\n"
            "3) Europe, which includes all of our businesses in Europe; and\n"
            "4) Asia Pacific (APAC), which includes all of our businesses in Asia and Australia.\n")
    block = Block(n=1, kind="report", header="[1] Osprey Foods FY2022, p.4 [text]", source_id="of-4",
                  chunk_id="of-4", company="Osprey Foods", fiscal_year=2022, page=4, text=page)
    answer = compose_offline({"question": "What are the geographies that Osprey Foods primarily operates in?",
                              "companies": ["Osprey Foods"], "blocks": [block]})
    assert answer == ("Osprey Foods' report lists under 'We are organized into four reportable segments (also referred "
                      "to as divisions), as follows': North America; Latin America (LatAm); Europe and Asia Pacific "
                      "(APAC) [1].")
