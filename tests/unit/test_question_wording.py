"""Ways analysts word a period and a second part: 'first-quarter 2025 sales', '… and how did they compare?'."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.measures import measure_asked, part_asked
from app.turns import Block


def test_a_hyphenated_quarter_or_half_is_that_part_of_the_year() -> None:
    assert part_asked("What were first-quarter 2025 sales in Europe?") == "Q1"
    assert part_asked("What was its fourth-quarter 2024 revenue?") == "Q4"
    assert part_asked("What was first-half 2025 profit?") == "H1"


def test_a_pronoun_of_the_second_part_is_no_word_of_the_measure() -> None:
    asked = measure_asked("What were first-quarter 2025 sales in the Asia-Pacific, Africa region, and how did they "
                          "compare with a year earlier?", ["Halden & Halden"])
    assert "they" not in asked.phrase.split()


def test_a_region_named_with_a_comma_is_read_for_the_quarter_asked() -> None:
    text = """Supplementary Sales Data
(Unaudited; Dollars in Millions) FIRST QUARTER
Percent Change
2025 2024 Total Operations Currency
Sales to customers by geographic area
U.S. $ 10,782   9,857  9.4 %  9.4 —
Europe  5,590  5,341 4.7  9.4  (4.7)
Asia-Pacific, Africa  3,446  3,644  (5.4)  3.1  (8.5)
Worldwide $ 20,894   19,840  5.3 %  8.5  (3.2)
(Unaudited; Dollars in Millions) SECOND QUARTER
Percent Change
2025 2024 Total Operations Currency
Sales to customers by geographic area
U.S. $ 11,657   10,510  10.9 %  10.9 —
Europe  5,131  5,355 (4.2)  (5.2)  1.0
Asia-Pacific, Africa  3,595  3,323  8.2  14.3  (6.1)
Worldwide $ 21,519   20,215  6.5 %  7.5  (1.0)"""
    block = Block(n=1, kind="report", header="[1] Halden & Halden FY2025, p.9 [text]", source_id="halden-8k.pdf:p9",
                  chunk_id="halden-8k.pdf:p9::0", company="Halden & Halden", fiscal_year=2025, page=9, text=text)
    answer = compose_offline({"question": "What were Halden & Halden's first-quarter 2025 sales in the Asia-Pacific, "
                                          "Africa region, and how did they compare with a year earlier?",
                              "companies": ["Halden & Halden"], "fiscal_years": [2025], "blocks": [block]})
    assert "$3,446m in Q1 2025" in answer and "$3,644m in Q1 2024" in answer, answer
    assert "3,595" not in answer


def test_a_segment_named_as_a_list_of_places_keeps_every_place() -> None:
    asked = measure_asked("How much organic revenue growth did Corvid's Africa, Middle East and South Asia division "
                          "deliver in the first quarter of 2025?", ["Corvid"])
    assert asked.segment == "Africa Middle East and South Asia" and asked.phrase == "organic revenue growth"
    assert measure_asked("What was Corvid's Consumer & Community Banking segment revenue?", ["Corvid"]).segment \
        == "Consumer & Community Banking"


def test_a_release_of_the_quarter_and_the_full_year_asks_no_quarter() -> None:
    assert part_asked("According to Corvid's fourth-quarter and full-year 2025 earnings release, how many stores did "
                      "it operate?") is None
    assert part_asked("According to its fourth-quarter 2025 earnings release, what was revenue?") == "Q4"
