"""app.knowledge.analyzer: figures stay findable in the forms people type, words are stemmed, stop words dropped."""

from __future__ import annotations

import pytest

from app.knowledge.analyzer import STOP_WORDS, analyze
from app.knowledge.sparse import make_index, top_k


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$55.7m", {"$55.7m", "55.7m", "55.7"}),
        ("12.5%", {"12.5%", "12.5"}),
        ("FY2024", {"fy2024", "2024"}),
        ("FY24", {"fy2024", "2024"}),
        ("FY 2024", {"fy2024", "2024"}),
        ("fy2024", {"fy2024", "2024"}),
        ("1,204.6", {"1204.6"}),
        ("£1.2bn", {"£1.2bn", "1.2bn", "1.2"}),
        ("$55.7M", {"$55.7m", "55.7m", "55.7"}),
    ],
)
def test_figure_forms(text: str, expected: set[str]) -> None:
    assert set(analyze(text)) == expected


def test_thousands_separator_removed_and_kept_with_currency_and_suffix() -> None:
    tokens = analyze("€1,204.6m")
    assert "1204.6" in tokens
    assert "1204.6m" in tokens
    assert "€1204.6m" in tokens
    assert not any("," in t for t in tokens)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$3.4 million", {"$3.4m", "3.4m", "3.4"}),
        ("$3.4mn", {"$3.4m", "3.4m", "3.4"}),
        ("$3.4 mn", {"$3.4m", "3.4m", "3.4"}),
        ("€2 billion", {"€2bn", "2bn", "2"}),
        ("5 thousand", {"5k", "5"}),
    ],
)
def test_magnitude_words_normalised(text: str, expected: set[str]) -> None:
    assert set(analyze(text)) == expected


def test_million_and_m_give_the_same_tokens() -> None:
    assert analyze("$55.7 million") == analyze("$55.7m") == analyze("$55.7mn")


def test_fiscal_year_spellings_are_equivalent() -> None:
    assert analyze("FY2024") == analyze("FY24") == analyze("FY 2024") == analyze("fy 24")


def test_suffix_needs_word_boundary() -> None:
    # "5 more" is not "5m"; "3 km" is not "3k"
    assert "5m" not in analyze("grew 5 more times")
    assert "3k" not in analyze("3 km away")


def test_stemming_makes_plural_and_singular_the_same_token() -> None:
    assert analyze("revenues") == analyze("revenue")
    assert analyze("Revenues") == analyze("revenue")
    assert analyze("improved") == analyze("improving")
    assert analyze("revenues")[0] != "revenues"  # really stemmed, not just lower-cased


def test_stop_words_dropped() -> None:
    assert analyze("the revenue of the company") == analyze("revenue company")
    assert analyze("what was it") == []
    tokens = analyze("What is the margin for this year")
    assert not set(tokens) & STOP_WORDS
    assert "margin" in tokens


def test_word_order_kept_around_figures() -> None:
    tokens = analyze("EBITDA margin improved to 12.5% in FY2024")
    assert tokens[:3] == ["ebitda", "margin", "improv"]
    assert tokens.index("12.5%") < tokens.index("fy2024")


def test_empty_text() -> None:
    assert analyze("") == []
    assert analyze("  ... ") == []


def test_query_and_document_analysed_the_same_so_bm25_matches() -> None:
    docs = [
        "Northwind Logistics revenues were $55.7 million in FY2024, up from $48.1m.",
        "Copperleaf Foods reported revenue of £1.2bn for FY 2023.",
        "The board met four times during the year and approved the dividend.",
    ]
    index = make_index("bm25s")
    index.build([analyze(d) for d in docs])

    # The query uses other spellings than the document: "$55.7m" vs "$55.7 million", "FY24" vs "FY2024",
    # "revenue" vs "revenues".
    scores = index.scores(analyze("What was the revenue of $55.7m in FY24?"))
    assert top_k(scores, 3)[0][0] == 0

    scores = index.scores(analyze("£1.2 billion revenue 2023"))
    assert top_k(scores, 3)[0][0] == 1

    # A doc-side token from a query-side form: "1.2bn" typed without the currency finds the £ figure.
    assert "1.2bn" in analyze(docs[1])
    assert set(analyze("1.2bn")) <= set(analyze(docs[1]))
