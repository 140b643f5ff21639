"""app.knowledge.sparse: both BM25 backends, top_k, and the generation-stamped persisted index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.knowledge.analyzer import analyze
from app.knowledge.sparse import BACKENDS, PersistedSparse, make_index, top_k

DOCS = [
    "Northwind Logistics revenue was $55.7m in FY2024, up from $48.1m in FY2023.",
    "Copperleaf Foods revenue reached £1.2bn in FY2023 as bakery volumes grew.",
    "EBITDA margin was 12.5% and headcount grew to 4,210 employees.",
    "The board met four times and approved a final dividend.",
    "Freight volumes in the northern region fell during the winter months.",
]
TOKENS = [analyze(d) for d in DOCS]

backends = pytest.mark.parametrize("backend", ["bm25s", "rank-bm25"])


def test_both_backends_registered() -> None:
    assert set(BACKENDS) == {"bm25s", "rank-bm25"}


@backends
def test_backend_name(backend: str) -> None:
    assert make_index(backend).backend == backend


@backends
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("$55.7 million FY24", 0),
        ("£1.2bn", 1),
        ("12.5% margin", 2),
        ("dividend", 3),
        ("freight volumes", 4),
    ],
)
def test_figure_query_ranks_right_doc_first(backend: str, query: str, expected: int) -> None:
    index = make_index(backend)
    index.build(TOKENS)
    scores = index.scores(analyze(query))
    assert scores.shape == (len(DOCS),)
    assert int(np.argmax(scores)) == expected
    assert scores[expected] > 0
    assert top_k(scores, 1)[0][0] == expected


@backends
def test_unknown_terms_give_zero_scores(backend: str) -> None:
    index = make_index(backend)
    index.build(TOKENS)
    for query in (["zebra", "unicorn"], [], analyze("xylophone 999.9bn")):
        scores = index.scores(query)
        assert scores.shape == (len(DOCS),)
        assert not scores.any()
        assert top_k(scores, 5) == []


@backends
def test_empty_index(backend: str) -> None:
    index = make_index(backend)
    index.build([])
    assert index.scores(["revenu"]).shape == (0,)


@backends
def test_document_with_no_tokens_is_indexable(backend: str) -> None:
    index = make_index(backend)
    index.build([analyze("the of and"), analyze("revenue $55.7m"), analyze("dividend")])
    scores = index.scores(analyze("$55.7m"))
    assert int(np.argmax(scores)) == 1
    assert scores[0] == 0


@backends
def test_save_load_round_trip(tmp_path: Path, backend: str) -> None:
    ids = [f"c{i}" for i in range(len(DOCS))]
    store = PersistedSparse(tmp_path, backend)
    store.build(ids, TOKENS, generation=7)
    store.save()

    fresh = PersistedSparse(tmp_path, backend)
    assert fresh.generation == -1 and fresh.ids == []
    assert fresh.load() is True
    assert fresh.generation == 7
    assert fresh.ids == ids
    for query in ("revenue FY2023", "$55.7m", "12.5%", "board dividend", "nothing here"):
        q = analyze(query)
        np.testing.assert_array_equal(fresh.index.scores(q), store.index.scores(q))
    assert fresh.index.scores(analyze("revenue")).any()


@backends
def test_new_generation_replaces_old(tmp_path: Path, backend: str) -> None:
    store = PersistedSparse(tmp_path, backend)
    store.build(["a", "b"], TOKENS[:2], generation=1)
    store.save()
    store.build(["x", "y", "z"], TOKENS[2:], generation=2)
    store.save()

    fresh = PersistedSparse(tmp_path, backend)
    assert fresh.load()
    assert (fresh.generation, fresh.ids) == (2, ["x", "y", "z"])
    folders = [p.name for p in tmp_path.iterdir() if p.is_dir()]
    assert len(folders) == 1 and f".g2." in folders[0]
    assert not list(tmp_path.glob("*.tmp"))


@backends
def test_empty_index_persists(tmp_path: Path, backend: str) -> None:
    store = PersistedSparse(tmp_path, backend)
    store.build([], [], generation=3)
    store.save()
    fresh = PersistedSparse(tmp_path, backend)
    assert fresh.load()
    assert (fresh.generation, fresh.ids) == (3, [])
    assert fresh.index.scores(["revenu"]).shape == (0,)


def test_two_backends_share_a_folder(tmp_path: Path) -> None:
    a = PersistedSparse(tmp_path, "bm25s")
    a.build(["a"], TOKENS[:1], generation=1)
    a.save()
    b = PersistedSparse(tmp_path, "rank-bm25")
    b.build(["b1", "b2"], TOKENS[:2], generation=5)
    b.save()
    ra, rb = PersistedSparse(tmp_path, "bm25s"), PersistedSparse(tmp_path, "rank-bm25")
    assert ra.load() and rb.load()
    assert (ra.generation, ra.ids) == (1, ["a"])
    assert (rb.generation, rb.ids) == (5, ["b1", "b2"])


@backends
def test_load_on_empty_or_missing_folder_returns_false(tmp_path: Path, backend: str) -> None:
    store = PersistedSparse(tmp_path, backend)
    assert store.load() is False
    assert store.generation == -1 and store.ids == []
    assert PersistedSparse(tmp_path / "does-not-exist", backend).load() is False


@backends
def test_load_with_dangling_pointer_returns_false(tmp_path: Path, backend: str) -> None:
    (tmp_path / f"{backend}.current").write_text(f"{backend}.g9.123")
    assert PersistedSparse(tmp_path, backend).load() is False


def test_unknown_backend_raises() -> None:
    with pytest.raises(ValueError, match="unknown sparse backend 'whoosh'"):
        make_index("whoosh")
    with pytest.raises(ValueError):
        PersistedSparse(Path("."), "elastic")


# --- top_k ----------------------------------------------------------------------------------------------------


def test_top_k_orders_and_limits() -> None:
    scores = np.array([0.0, 3.0, 1.0, 2.0, 0.5], dtype=np.float32)
    assert top_k(scores, 3) == [(1, 3.0), (3, 2.0), (2, 1.0)]
    assert top_k(scores, 1) == [(1, 3.0)]


def test_top_k_drops_zero_and_negative_scores() -> None:
    scores = np.array([0.0, 2.0, 0.0, -1.0], dtype=np.float32)
    assert top_k(scores, 10) == [(1, 2.0)]
    assert top_k(np.zeros(4, dtype=np.float32), 3) == []
    assert top_k(scores, 0) == []


def test_top_k_respects_mask() -> None:
    scores = np.array([0.0, 3.0, 1.0, 2.0, 0.5], dtype=np.float32)
    mask = np.array([True, False, True, True, False])
    assert top_k(scores, 10, mask) == [(3, 2.0), (2, 1.0)]
    assert top_k(scores, 1, mask) == [(3, 2.0)]
    assert top_k(scores, 5, np.zeros(5, dtype=bool)) == []
    # the caller's array is not modified
    assert scores.tolist() == [0.0, 3.0, 1.0, 2.0, 0.5]


@backends
def test_top_k_mask_on_real_scores(backend: str) -> None:
    index = make_index(backend)
    index.build(TOKENS)
    scores = index.scores(analyze("revenue FY2023"))
    assert top_k(scores, 1)[0][0] in (0, 1)
    mask = np.array([False, True, True, True, True])
    hits = top_k(scores, 5, mask)
    assert hits and all(i != 0 for i, _ in hits)
    assert hits[0][0] == 1
