"""app.knowledge.fusion: weighted reciprocal rank fusion, near-duplicate removal."""

from __future__ import annotations

import pytest

from app.knowledge.fusion import dedupe, weighted_rrf


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
