"""Segments a report lists in words (app/facts/members.py `named_segments`) and the offline answer to 'which
segment had the highest …' where the report's tables set each segment's rows under its own heading, beside tables
of line items and of revenue by type. Companies and figures here are invented for the tests."""

from __future__ import annotations

import pytest

from app.facts.members import is_line_item_name, named_segments
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

OVERVIEW = ("Segment Information. The Group has two reportable segments: Cutting Systems (lathes, grinders and "
            "related after-sales service) and Motion Parts (ball screws and linear guides). Segment profit is "
            "measured before other income.")
BY_SEGMENT = ("Review by Segment\nNet sales and segment profit by segment\n(Millions of yen)\nFY2024 FY2025 Change\n"
              "Cutting Systems\nNet sales to external customers 146,910 152,380 +3.7%\nSegment profit 19,620 17,940 "
              "(8.6)%\nMotion Parts\nNet sales to external customers 57,820 66,080 +14.3%\nSegment profit 6,040 "
              "8,210 +35.9%\nTotal\nNet sales 204,730 218,460 +6.7%\nCore operating income 22,950 23,290 +1.5%\n")
BY_TYPE = ("Revenue by type 2025 2024\nServices 180,100 170,200\nEquipment 38,360 34,530\n"
           "Total revenue 218,460 204,730\n")


def block(n: int, text: str) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] Hoshida Works FY2025, p.{n} [text]", source_id=f"hw-{n}",
                 chunk_id=f"hw-{n}", company="Hoshida Works", fiscal_year=2025, page=n, text=text)


def answer(question: str, *texts: str) -> str:
    return compose_offline({"question": question, "companies": ["Hoshida Works"], "fiscal_years": [2025],
                            "blocks": [block(n, t) for n, t in enumerate(texts, start=1)]})


@pytest.mark.parametrize("text, names", [
    (OVERVIEW, ["Cutting Systems", "Motion Parts"]),
    ("We manage our business through three reportable segments: Flexibles, Rigid Packaging and Other.",
     ["Flexibles", "Rigid Packaging", "Other"]),
    ("Our operating segments are Safety and Industrial, Transportation and Electronics, Health Care, and Consumer.",
     ["Safety and Industrial", "Transportation and Electronics", "Health Care", "Consumer"]),
    ("Segment revenue is reviewed by the Managing Director and the Board.", []),
])
def test_the_segments_a_report_lists_in_words(text: str, names: list[str]) -> None:
    assert named_segments([text]) == names


def test_line_items_are_no_segments() -> None:
    assert is_line_item_name("Net sales to external customers") and is_line_item_name("Core operating income")
    assert not is_line_item_name("Cutting Systems") and not is_line_item_name("Motion Parts")


@pytest.mark.parametrize("texts", [(OVERVIEW, BY_SEGMENT), (OVERVIEW, BY_SEGMENT, BY_TYPE)])
def test_the_highest_segment_is_a_listed_segment_not_a_line_item_or_a_kind_of_revenue(texts: tuple[str, ...]) -> None:
    said = answer("Which Hoshida segment had the highest segment profit in FY2025?", *texts)
    assert said.startswith("Cutting Systems had the highest"), said
    assert "17,940" in said and "8,210" in said and "Core operating income" not in said, said
