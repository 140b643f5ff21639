"""A segment table PDF extraction broke up: a label cut inside a word, its rest opening the values' line ('Paid
subscribers at end of pe' / 'riod 12,810 …'), a label's rest alone above the values, and negative cells spaced
inside their brackets ('(931 )', '(17 )%'). Its rows are read whole, under the header above them, and the table
stays one table when it is chunked. Every company and figure here is made up (Harbourline Streaming)."""

from __future__ import annotations

from app.knowledge.chunking import chunk_record
from app.knowledge.records import SourceRecord
from app.text.statements import read_statement, statement_lines

PAGE = """Marketing expenses are incurred by our Domestic and International segments given our focus on building
awareness of the offering.Segment Results
Domestic Streaming Segment

 As of/ Year Ended December 31,  Change
 2024  2023  2022  2024 vs. 2023  2023 vs. 2022
 (in thousands, except revenue per subscriber and percentages) Subscribers:
              Net additions
 1,319  1,693  1,624  (374 )  (22 )%  69  4  % Subscribers at end of period
 14,750  13,431  11,738  1,319  10 %  1,693  14  % Paid subscribers at end of pe
riod 12,810  11,905  10,401  905  8 %  1,504  14  % Average monthly revenue per p
aying subscriber
 $ 10.18  $ 9.21  $ 8.50  $ 0.97  11 %  $ 0.71  8  %
              Contribution profit:
              Revenues
 $ 1,153,025  $ 977,307  $ 880,339  $ 175,718  18 %  $ 96,968  11  % Cost of revenues
 719,230  655,789  587,193  63,441  10 %  68,596  12  %
Year ended December 31, 2024 as compared to the year ended December 31, 2023, revenues increased 18%."""


def test_a_label_broken_inside_a_word_is_one_line_again() -> None:
    lines = statement_lines(PAGE).splitlines()
    assert "Paid subscribers at end of period 12,810 11,905 10,401 905 8 % 1,504 14 %" in lines
    assert "Average monthly revenue per paying subscriber" in lines
    # a label that ends in a whole word takes the rest with a space; prose is left as it is
    assert "Purchases of property, plant and equipment 1,204 1,118" in statement_lines(
        "Purchases of property, plant and\nequipment 1,204 1,118").splitlines()
    assert statement_lines("Revenue grew in the\nquarter as expected.") == "Revenue grew in the\nquarter as expected."


def test_the_broken_table_is_read_whole_under_its_header() -> None:
    table = statement_lines(PAGE)
    rows = {r.line_item: (r.values[:3], r.periods[:3]) for r in read_statement(table[table.index("As of/"):]).rows}
    assert rows["Paid subscribers at end of period"] == ([12810.0, 11905.0, 10401.0], ["FY2024", "FY2023", "FY2022"])
    assert rows["Net additions"][0] == [1319.0, 1693.0, 1624.0]


def test_the_broken_table_stays_one_table_with_its_header_when_chunked() -> None:
    record = SourceRecord(source_id="HARBOURLINE_2024_10K:p22", title="HARBOURLINE_2024_10K", text=PAGE,
                          origin="h", pages=[(22, PAGE)])
    chunks = chunk_record(record, max_tokens=256, overlap=0)
    holding = [c for c in chunks if "Paid subscribers at end of period 12,810" in c.text]
    assert len(holding) == 1, [c.text for c in chunks]
    assert "2024 2023 2022" in holding[0].text.replace("  ", " "), holding[0].text


def test_a_tables_title_parted_from_its_header_by_a_blank_line_goes_with_the_table() -> None:
    prose = ("For the Domestic and International streaming segments, marketing expenses consist primarily of advert\n"
             "ising expenses and certain payments made to our marketing partners, including consumer electronics ma\n"
             "nufacturers and mobile operators. Advertising expenses include promotional activities such as digi\n"
             "tal and television advertising. Marketing expenses are incurred by our Domestic and International seg\n"
             "ments given our focus on building awareness of the offering, in particular our own content.Segment "
             "Results\n")
    page = PAGE.replace("Marketing expenses are incurred by our Domestic and International segments given our focus on "
                        "building\nawareness of the offering.Segment Results\nDomestic Streaming Segment\n\n",
                        prose + "Domestic Streaming Segment\n \n")
    page += ("\nThe increase in our domestic streaming revenues was due to a 10% growth in the average number of paid "
             "subscribers and an 11% increase in average monthly revenue per paying subscriber. " * 6)
    assert page != PAGE
    record = SourceRecord(source_id="HARBOURLINE_2024_10K:p22", title="HARBOURLINE_2024_10K", text=page,
                          origin="h", pages=[(22, page)])
    chunks = chunk_record(record, max_tokens=256, overlap=0)
    holding = [c for c in chunks if "Paid subscribers at end of period 12,810" in c.text]
    assert len(holding) == 1 and holding[0].text.startswith("Domestic Streaming Segment\nAs of/"), holding
    # the text before it stays where it was
    assert chunks[0].text.rstrip().endswith("Segment Results"), chunks[0].text


def test_a_titled_tables_later_chunks_carry_its_unit_line_too() -> None:
    rows = "\n".join(f"Line item {k} {k},{k}00 {k},{k}10 {k},{k}20 {k}0 {k} % {k}1 {k} %" for k in range(1, 40))
    page = ("Our own content drove the growth of the year in every market we serve, as the discussion below "
            "explains.\nInternational Streaming Segment\n \n As of /Year Ended December 31, Change\n 2024 2023 2022 "
            "2024 vs. 2023 2023 vs. 2022\n (in thousands, except revenue per subscriber and percentages) "
            "Subscribers:\n" + rows + "\n" + ("The increase in our international revenues was due to growth in the "
                                               "average number of paid subscribers in every region we serve.\n") * 60)
    record = SourceRecord(source_id="HARBOURLINE_2024_10K:p23", title="HARBOURLINE_2024_10K", text=page,
                          origin="h", pages=[(23, page)])
    later = [c for c in chunk_record(record, max_tokens=256, overlap=0) if "Line item 39 " in c.text]
    assert later and "(in thousands, except revenue per subscriber" in later[0].text, later[0].text[:300]
