"""A segment note that splits each region's net revenues by business: its businesses are columns whose names
wrap over several lines under the year ('Quest Arcade Tilebound' / 'Non-reportable' / 'segments' / 'Elimination
of' / 'intersegment' / 'revenues (2) Total'), its unit stated in the sentence that leads into it, and its rows
the regions under headings. A question that names both a region and a business asks the business's column of the
region's row. A count question never takes a row of money.

Every company, page and figure here is made up (Calder Games, a publisher).
"""

from __future__ import annotations

from app.text.measures import measure_asked
from app.text.statements import read_statement
from tests.unit.test_prose_amounts_dated import _compose

NOTE = """Notes to Consolidated Financial Statements (continued)
Geographic information presented below is based on the location of the paying customer. Net revenues by geographic
region, including a reconciliation to each of our reportable segment's net revenues, were as follows (amounts in millions):
  Year Ended December 31, 2024
  Quest  Arcade  Tilebound
Non-reportable
segments
Elimination of
intersegment
revenues (2)  Total
Net revenues by geographic region:
Americas  $ 1,120  $ 640  $ 980  $ —  $ (12)  $ 2,728
EMEA (1)  530  410  402  210  (9)  1,543
Asia Pacific  160  395  171  —  (4)  722
Total consolidated net revenues  $ 1,810  $ 1,445  $ 1,553  $ 210  $ (25)  $ 4,993
Change in deferred revenues:
Americas  $ 16  $ (62)  $ 2  $ —  $ —  $ (44)
EMEA (1)  12  (57)  —  (2)  —  (47)
Asia Pacific  4  (14)  —  —  —  (10)
Total change in deferred revenues  $ 32  $ (133)  $ 2  $ (2)  $ —  $ (101)
"""


def test_business_columns_wrapped_over_lines_under_the_year_are_each_named() -> None:
    rows: dict = {}
    for row in read_statement(NOTE).rows:
        rows.setdefault(row.line_item, row)  # (the net revenues' rows come before the change in deferred revenues)
    asia = rows["Asia Pacific"]
    assert asia.columns == ["Quest", "Arcade", "Tilebound", "Non-reportable segments",
                            "Elimination of intersegment revenues", "Total"]
    assert asia.values == [160.0, 395.0, 171.0, None, -4.0, 722.0]
    assert asia.scale == "millions" and asia.periods == ["FY2024"] * 6  # the unit the lead-in sentence states
    assert rows["EMEA"].values[0] == 530.0  # the note mark is no value


def test_a_region_named_beside_a_business_is_the_businesss_row() -> None:
    question = ("How much of Calder Games' 2024 net revenues from the Asia Pacific region was attributable to its "
                "Arcade segment?")
    asked = measure_asked(question, ["Calder Games"])
    assert (asked.segment, asked.phrase) == ("Arcade", "net revenues Asia Pacific region")
    # a region alone is the member asked
    assert measure_asked("What were Calder Games' 2024 net revenues from the Asia Pacific region?",
                         ["Calder Games"]).segment == "Asia Pacific"
    answer = _compose("Calder Games", 2024, NOTE, question)
    assert answer.startswith("Calder Games' Arcade segment net revenues in the Asia Pacific region were $395m in "
                             "FY2024 [1].")
