"""A table's lead-in sentence travels with its rows, and an initialism the report uses names the words asked.

A filing writes 'The following table details our average MAUs … (amounts in millions):' over rows that say only
'Orbit 249 247'. Chunked apart, the rows lose what they count and in what unit; asked in words ('monthly active
users'), the initialism must still be found."""

from __future__ import annotations

from app.facts.query import initialisms_of, spelled_out
from app.knowledge.chunking import chunk_record
from app.knowledge.records import SourceRecord
from app.models.providers.offline.composer import compose_offline
from app.turns import Block
from tests.unit.test_members_moved_and_losses import _REGIONS

_PROSE = " ".join(f"Engagement note {i} says players in the {w} studio returned more often than before."
                  for i, w in enumerate(["north", "south", "east", "west", "harbour", "upland"] * 4))
_LEAD = ("The following table details our average MAUs on a sequential quarterly basis for each of our "
         "reportable segments (amounts in millions):")
_TABLE = """December 31, 2025  September 30, 2025  June 30, 2025  March 31, 2025
Orbit 128  36  37  41
Tidal 32  33  32  32
Kestrel 249  247  258  272
Total 409  316  327  345"""
_AFTER = "Average MAUs increased by 93 million, or 29%, for the three months ended December 31, 2025."


def _page(lead: str = _LEAD) -> str:
    opening = f"Monthly Active Users\n{_PROSE} We monitor monthly active users as a key measure."
    return f"{opening} {lead}\n{_TABLE}\n{_AFTER}"


def _chunks(text: str):  # type: ignore[no-untyped-def]
    record = SourceRecord(source_id="larkspur-2025.pdf", title="Larkspur Games annual report 2025", text=text,
                          pages=[(34, text)], origin="/tmp/larkspur-2025.pdf", company="Larkspur Games",
                          fiscal_year=2025)
    return chunk_record(record, 256, 48)


def test_the_sentence_leading_into_a_table_heads_the_table_chunk_not_the_prose() -> None:
    chunks = _chunks(_page())
    table = next(c for c in chunks if "Kestrel 249" in c.text)
    assert table.text.startswith(_LEAD)
    assert table.text.index("December 31, 2025") > table.text.index("(amounts in millions):")
    assert not any(_LEAD in c.text for c in chunks if c is not table)


def test_a_sentence_that_does_not_lead_into_the_table_stays_with_its_prose() -> None:
    closing = "Player counts are unaudited."
    chunks = _chunks(_page(lead=closing))
    table = next(c for c in chunks if "Kestrel 249" in c.text)
    assert closing not in table.text
    assert any(closing in c.text for c in chunks if c is not table)


def test_an_initialism_in_capitals_stands_for_the_words_whose_initials_it_is() -> None:
    assert initialisms_of("monthly active users", "our average MAUs rose") == [(["monthly", "active", "users"],
                                                                                 "MAUs")]
    assert initialisms_of("average revenue per user", "ARPU was $41") == [(["average", "revenue", "per", "user"],
                                                                          "ARPU")]
    assert initialisms_of("monthly active users", "the maus rose") == []  # capitals only
    assert initialisms_of("net revenue", "NR was up") == []  # two letters name too many things
    assert "MAUs (monthly active users)" in spelled_out("our average MAUs", "monthly active users")


def test_a_segment_count_asked_in_words_is_read_from_the_table_under_its_initialism() -> None:
    table = next(c for c in _chunks(_page()) if "Kestrel 249" in c.text)
    block = Block(n=1, kind="report", header="[1] Larkspur Games FY2025, p.34 [text]", source_id="larkspur-2025.pdf",
                  chunk_id=table.chunk_id, company="Larkspur Games", fiscal_year=2025, page=34, text=table.text)
    answer = compose_offline({"question": "How many monthly active users does Kestrel have?",
                              "companies": ["Larkspur Games"], "fiscal_years": [], "blocks": [block]})
    assert "249" in answer and "[1]" in answer, answer
    assert "insufficient" not in answer.lower()
    # the table is of averages 'on a sequential quarterly basis': its columns are quarters ended, no balances
    assert "in the three months ended 31 December 2025" in answer and "at the end of" not in answer


_WRAPPED_LEAD = ("The following tables disaggregate net sales, excluding intersegment sales, by geography in which "
                 "the Company operates based on\nmanufacturing or selling operations:")
_GROUPED = _REGIONS.split(":\n", 1)[1].rstrip()  # (the table alone, under its own lead-in here)


def test_a_lead_in_wrapped_onto_a_second_line_stays_whole_over_a_statement_page() -> None:
    chunks = _chunks(f"{_WRAPPED_LEAD}\n{_GROUPED}\n")
    table = next(c for c in chunks if "Asia Pacific 421" in c.text)
    assert table.text.startswith("The following tables disaggregate net sales"), table.text
    assert "selling operations:\nThree Months Ended March 31," in table.text


def test_a_lead_in_wrapped_onto_a_second_line_stays_whole_over_a_table_in_running_text() -> None:
    chunks = _chunks(f"{_PROSE}\n{_WRAPPED_LEAD}\n{_GROUPED}\n{_AFTER}")
    table = next(c for c in chunks if "Asia Pacific 421" in c.text)
    lead = " ".join(_WRAPPED_LEAD.split())
    assert " ".join(table.text.split()).startswith(lead), table.text
    assert not any("based on" in c.text for c in chunks if c is not table)


def test_an_initialism_joined_by_an_ampersand_stands_for_words_joined_by_and() -> None:
    assert initialisms_of("selling, general and administrative expenses", "SG&A in dollars increased 14.7 percent") \
        == [(["selling,", "general", "and", "administrative"], "SG&A")]
    assert initialisms_of("research and development expenses", "R&D in dollars decreased $49 million") == [
        (["research", "and", "development"], "R&D")]
    assert initialisms_of("research and development expenses", "RD&E rose") == []


def test_what_drove_a_change_stated_under_an_initialism_is_its_cause_across_a_quoted_title() -> None:
    text = ("Selling, General and Administrative Expenses:\nSG&A in dollars increased 14.7 percent for full year 2025 "
            "when compared to the same period last year. The increase is primarily associated with restructuring "
            "charges (as discussed in Note 5) and the charge related to the river cleanup (as discussed earlier in "
            "the “\nOperating income adjusted for the river cleanup\n- (non-GAAP measures)\n” section and further in "
            "Note 16). This increase was partially offset by 2024 footprint charges that did not repeat in 2025.")
    block = Block(n=1, kind="report", header="[1] Larkspur Games FY2025, p.28 [text]", source_id="larkspur-2025.pdf",
                  chunk_id="larkspur-2025.pdf::0", company="Larkspur Games", fiscal_year=2025, page=28, text=text)
    answer = compose_offline({"question": "By what percentage did Larkspur Games' selling, general and administrative "
                                          "expenses rise in 2025, and what drove the increase?",
                              "companies": ["Larkspur Games"], "fiscal_years": [2025], "blocks": [block]})
    assert "primarily associated with restructuring charges" in answer and "Note 16)" in answer, answer
    assert "14.7 percent" in answer


def test_a_page_header_run_into_the_first_sentence_does_not_make_it_boilerplate() -> None:
    from app.facts.prose import whole_sentences

    text = ("Table of Contents Selling, General and Administrative Expenses: SG&A in dollars increased 14.7 percent "
            "for full year 2025 when compared to the same period last year. The increase is primarily associated "
            "with restructuring charges.")
    assert whole_sentences(text)[0].startswith("Selling, General and Administrative Expenses: SG&A in dollars")
