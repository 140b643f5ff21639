"""app.knowledge.fusion: weighted reciprocal rank fusion, near-duplicate removal, companies named in a query."""

from __future__ import annotations

import pytest

from app.knowledge.fusion import company_aliases, companies_in, dedupe, normalize_name, weighted_rrf


def _ids(cands) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.chunk_id for c in cands]


# --- weighted_rrf ---------------------------------------------------------------------------------------------


def test_rrf_score_formula_and_provenance() -> None:
    out = weighted_rrf({"dense": [("a", 0.9), ("b", 0.7)], "sparse": [("b", 12.0)]},
                       {"dense": 1.0, "sparse": 0.5}, k=60)
    by_id = {c.chunk_id: c for c in out}
    assert by_id["a"].score == pytest.approx(1.0 / 61)
    assert by_id["b"].score == pytest.approx(1.0 / 62 + 0.5 / 61)
    assert by_id["b"].ranks == {"dense": 2, "sparse": 1}
    assert by_id["b"].raw == {"dense": 0.7, "sparse": 12.0}
    assert by_id["a"].ranks == {"dense": 1}


def test_weights_change_order() -> None:
    lists = {"dense": [("a", 0.9), ("b", 0.8)], "sparse": [("b", 9.0), ("a", 1.0)]}
    assert _ids(weighted_rrf(lists, {"dense": 1.0, "sparse": 0.5})) == ["a", "b"]
    assert _ids(weighted_rrf(lists, {"dense": 0.5, "sparse": 1.0})) == ["b", "a"]


def test_zero_weight_list_does_not_move_order() -> None:
    lists = {"dense": [("a", 0.9), ("b", 0.8)], "sparse": [("b", 9.0)]}
    assert _ids(weighted_rrf(lists, {"dense": 1.0, "sparse": 0.0})) == ["a", "b"]


def test_missing_weight_defaults_to_one() -> None:
    out = weighted_rrf({"other": [("a", 1.0)]}, {}, k=60)
    assert out[0].score == pytest.approx(1.0 / 61)


def test_chunk_in_two_lists_beats_chunk_in_one() -> None:
    # x is first in one list; y is second in one and first in the other.
    lists = {"dense": [("x", 0.9), ("y", 0.8)], "sparse": [("y", 5.0)]}
    out = weighted_rrf(lists, {"dense": 1.0, "sparse": 1.0})
    assert _ids(out) == ["y", "x"]
    assert out[0].score > out[1].score

    # Even at a lower rank in both lists, being in two lists beats rank 1 in a single one.
    lists = {"dense": [("solo", 1.0), ("p1", 0.1), ("p2", 0.1), ("both", 0.1)],
             "sparse": [("s1", 1.0), ("s2", 1.0), ("both", 1.0)]}
    out = weighted_rrf(lists, {"dense": 1.0, "sparse": 1.0})
    assert out[0].chunk_id == "both"


def test_ties_are_deterministic_best_rank_then_id() -> None:
    # With k=0 every score below is exactly 1.0: z and y from rank 1, a from rank 2 + rank 2.
    lists = {"A": [("z", 1.0), ("a", 1.0)], "B": [("y", 1.0), ("a", 1.0)]}
    out = weighted_rrf(lists, {"A": 1.0, "B": 1.0}, k=0)
    assert [c.score for c in out] == [1.0, 1.0, 1.0]
    assert _ids(out) == ["y", "z", "a"]  # best single rank first, then id
    # the order of the input lists does not matter
    swapped = {"B": lists["B"], "A": lists["A"]}
    assert _ids(weighted_rrf(swapped, {"A": 1.0, "B": 1.0}, k=0)) == ["y", "z", "a"]


def test_equal_scores_same_rank_ordered_by_id() -> None:
    out = weighted_rrf({"dense": [("b", 1.0)], "sparse": [("a", 1.0)]}, {"dense": 1.0, "sparse": 1.0})
    assert _ids(out) == ["a", "b"]


def test_duplicate_id_in_one_list_counted_once_at_best_rank() -> None:
    out = weighted_rrf({"dense": [("a", 0.9), ("b", 0.8), ("a", 0.1)]}, {"dense": 1.0}, k=60)
    by_id = {c.chunk_id: c for c in out}
    assert by_id["a"].score == pytest.approx(1.0 / 61)
    assert by_id["a"].ranks == {"dense": 1}
    assert by_id["a"].raw == {"dense": 0.9}
    assert len(out) == 2


def test_empty_lists() -> None:
    assert weighted_rrf({}, {}) == []
    assert weighted_rrf({"dense": []}, {"dense": 1.0}) == []


# --- dedupe ---------------------------------------------------------------------------------------------------

BASE = ("Northwind Logistics reported revenue of 55.7 million in fiscal 2024 driven by strong demand across "
        "all regions and new contracts with retail customers in the north")
OTHER = ("The board of directors met eleven times during the year and approved a final dividend of 4.2 pence "
         "per share payable in June")
THIRD = "Copperleaf Foods opened two new bakeries in Leeds and hired three hundred staff for the expansion programme"


def test_dedupe_removes_near_duplicate_with_the_id_it_duplicates() -> None:
    near = BASE + " today"
    kept, removed = dedupe([("a", BASE), ("b", OTHER), ("c", near), ("d", BASE)], threshold=0.8)
    assert kept == ["a", "b"]
    assert removed == {"c": "a", "d": "a"}


def test_dedupe_points_at_the_chunk_actually_duplicated() -> None:
    kept, removed = dedupe([("a", BASE), ("b", OTHER), ("c", OTHER + " again")], threshold=0.8)
    assert kept == ["a", "b"]
    assert removed == {"c": "b"}


def test_dedupe_keeps_distinct_texts_in_order() -> None:
    items = [("z", THIRD), ("m", BASE), ("a", OTHER)]
    kept, removed = dedupe(items, threshold=0.8)
    assert kept == ["z", "m", "a"]
    assert removed == {}


def test_dedupe_figure_change_is_not_a_duplicate() -> None:
    # Same sentence with a different figure early on: a different fact, below the threshold.
    changed = BASE.replace("55.7", "48.1")
    kept, removed = dedupe([("a", BASE), ("b", changed)], threshold=0.8)
    assert kept == ["a", "b"]
    assert removed == {}


def test_dedupe_threshold_one_removes_only_exact_copies() -> None:
    kept, removed = dedupe([("a", BASE), ("b", BASE + " today"), ("c", BASE.upper())], threshold=1.0)
    assert kept == ["a", "b"]
    assert removed == {"c": "a"}  # shingles are case-insensitive


def test_dedupe_short_texts() -> None:
    kept, removed = dedupe([("a", "Revenue rose"), ("b", "revenue rose"), ("c", "Revenue fell")], threshold=0.8)
    assert kept == ["a", "c"]
    assert removed == {"b": "a"}


# --- companies ------------------------------------------------------------------------------------------------

COMPANIES = [
    "Northwind Logistics plc",
    "American Express Company",
    "American Water Works Company, Inc.",
    "Johnson & Johnson",
    "Block, Inc.",
    "Copperleaf Foods Ltd",
]


def test_normalize_name_drops_suffixes_and_punctuation() -> None:
    assert normalize_name("Northwind Logistics plc") == "northwind logistics"
    assert normalize_name("American Water Works Company, Inc.") == "american water works"
    assert normalize_name("Johnson & Johnson") == "johnson johnson"
    assert normalize_name("The Acme Group Holdings Ltd") == "acme"


def test_aliases_full_name_and_unique_first_word() -> None:
    aliases = company_aliases(COMPANIES)
    assert aliases["northwind logistics"] == "Northwind Logistics plc"
    assert aliases["northwindlogistics"] == "Northwind Logistics plc"
    assert aliases["northwind"] == "Northwind Logistics plc"
    assert aliases["copperleaf"] == "Copperleaf Foods Ltd"
    assert "american" not in aliases  # shared by two companies (and a common word)
    assert aliases["american express"] == "American Express Company"
    assert aliases["american water works"] == "American Water Works Company, Inc."


def test_shared_first_word_not_an_alias_even_if_uncommon() -> None:
    aliases = company_aliases(["Zephyr Air", "Zephyr Rail"])
    assert "zephyr" not in aliases
    assert aliases["zephyr air"] == "Zephyr Air"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What was Northwind Logistics revenue in FY2024?", ["Northwind Logistics plc"]),
        ("What did Northwind earn?", ["Northwind Logistics plc"]),
        ("northwind's margin", ["Northwind Logistics plc"]),
        ("Northwind Logistics plc results", ["Northwind Logistics plc"]),
        ("How did American do last year?", []),
        ("american express card fees", ["American Express Company"]),
        ("American Water Works capital expenditure", ["American Water Works Company, Inc."]),
        ("Johnson & Johnson pharmaceutical sales", ["Johnson & Johnson"]),
        ("Johnson and Johnson sales", ["Johnson & Johnson"]),
        ("Northwindish growth", []),
        ("revenue growth in FY2024", []),
    ],
)
def test_companies_in(query: str, expected: list[str]) -> None:
    assert companies_in(query, COMPANIES) == expected


def test_companies_in_order_of_first_mention() -> None:
    assert companies_in("Compare Copperleaf with Northwind Logistics", COMPANIES) == [
        "Copperleaf Foods Ltd", "Northwind Logistics plc"]
    assert companies_in("Compare Northwind with Copperleaf and Northwind again", COMPANIES) == [
        "Northwind Logistics plc", "Copperleaf Foods Ltd"]


def test_corporate_suffixes_ignored_on_both_sides() -> None:
    assert companies_in("Copperleaf Foods Limited results", COMPANIES) == ["Copperleaf Foods Ltd"]
    assert companies_in("Acme revenue", ["Acme Holdings plc"]) == ["Acme Holdings plc"]
    assert companies_in("Acme Corporation revenue", ["Acme Inc."]) == ["Acme Inc."]


def test_common_word_company_needs_capital() -> None:
    assert companies_in("How do I block a payment?", COMPANIES) == []
    assert companies_in("Block revenue in FY2024", COMPANIES) == ["Block, Inc."]
    assert companies_in("What did analysts say about Block?", COMPANIES) == ["Block, Inc."]


def test_no_companies() -> None:
    assert companies_in("Northwind revenue", []) == []
    assert company_aliases([]) == {}


def test_one_word_aliases_need_to_look_like_a_name() -> None:
    companies = ["The Home Depot, Inc.", "Block", "Northwind Logistics plc"]
    assert companies_in("home prices in the south", companies) == []
    assert companies_in("What did Home Depot earn?", companies) == ["The Home Depot, Inc."]
    assert companies_in("BLOCK gross profit", companies) == ["Block"]
    assert companies_in("northwind revenue fy2024", companies) == ["Northwind Logistics plc"]
    assert companies_in("Revenue at NORTHWIND", companies) == ["Northwind Logistics plc"]


def test_leading_words_of_a_long_name_find_it_when_no_other_company_shares_them() -> None:
    companies = ["MGM Resorts International", "American Water Works", "American Water Utilities"]
    assert companies_in("What was MGM Resorts' revenue?", companies) == ["MGM Resorts International"]
    assert companies_in("American Water revenue", companies) == []  # two companies start so


def test_an_upper_case_abbreviation_spelling_a_name_word_by_word_finds_it() -> None:
    companies = ["American Express", "Netflix", "Adobe Systems"]
    assert companies_in("Does AMEX have an improving margin?", companies) == ["American Express"]
    assert companies_in("Does AMD have a healthy quick ratio?", companies) == []
    assert companies_in("What was NET revenue?", companies) == []  # one-word names are never abbreviated


def test_a_name_written_without_spaces_is_found_only_when_written_as_a_name() -> None:
    assert companies_in("What was Best Buy's revenue?", ["BESTBUY"]) == ["BESTBUY"]
    assert companies_in("Which laptop is the best buy?", ["BESTBUY"]) == []
