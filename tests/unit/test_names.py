"""The names a question puts where a company goes, and those the knowledge base does not hold."""

from __future__ import annotations

import pytest

from app.text.names import company_like_names, unheld_names


@pytest.mark.parametrize("question, names", [
    ("Does Quillfeather have positive working capital?", ["Quillfeather"]),
    ("What is Bramble Foods' FY2022 dividend payout ratio?", ["Bramble Foods"]),
    ("What is the FY2018 DPO for Zephyr Air? DPO is defined as 365 * AP / COGS.", ["Zephyr Air"]),
    ("How much did Kestrel Mining Corp pay in dividends?", ["Kestrel Mining Corp"]),
    ("As of FY2023Q1, why did Orbital raise guidance?", ["Orbital"]),
    ("What was the impact of M&A and FX on sales?", []),
    ("What is a good recipe for banana bread?", []),
])
def test_names_where_a_company_goes(question: str, names: list[str]) -> None:
    assert company_like_names(question) == names


def test_only_names_that_find_no_held_company_and_only_when_no_held_company_is_named() -> None:
    held = {"northwind"}
    holds = lambda name: name.lower() in held  # noqa: E731
    assert unheld_names("What was Quillfeather's revenue?", holds, []) == ["Quillfeather"]
    assert unheld_names("What was Northwind's revenue?", holds, []) == []
    assert unheld_names("Compare Northwind with Quillfeather's revenue", holds, ["Northwind Logistics"]) == []


def test_a_name_as_the_subject_of_a_clause() -> None:
    assert company_like_names("What are the products that Quillfeather sells?") == ["Quillfeather"]
    assert company_like_names("In which Quillfeather segment did sales grow most?") == ["Quillfeather"]
