"""The sparse index behind one small interface, with two implementations.

`Bm25sIndex` (bm25s: scores from a precomputed sparse matrix, ~5 ms a query at 100k chunks here) is the default;
`RankBm25Index` (rank-bm25, named in the design card: scores every chunk in Python per query term, ~120 ms at
100k) is kept for comparison and selectable with PROV_SPARSE_BACKEND=rank-bm25. bench/retrieval.py measures both.

Both are built from already-analyzed token lists (app.knowledge.analyzer) and persisted in a generation-stamped
folder that is switched into place atomically, so a reader never sees half an index.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import time
import uuid
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np


class SparseIndex(Protocol):
    backend: str

    def build(self, token_lists: Sequence[Sequence[str]]) -> None: ...

    def scores(self, query_tokens: Sequence[str]) -> np.ndarray: ...

    def save(self, folder: Path) -> None: ...

    def load(self, folder: Path) -> None: ...


class Bm25sIndex:
    backend = "bm25s"

    def __init__(self) -> None:
        self._model = None
        self._size = 0

    def build(self, token_lists: Sequence[Sequence[str]]) -> None:
        import bm25s

        self._size = len(token_lists)
        self._model = bm25s.BM25()
        if self._size:
            self._model.index([list(t) or [""] for t in token_lists], show_progress=False)

    def scores(self, query_tokens: Sequence[str]) -> np.ndarray:
        if not self._size or self._model is None:
            return np.zeros(self._size, dtype=np.float32)
        vocab = self._model.vocab_dict
        known = [t for t in query_tokens if t in vocab]
        if not known:
            return np.zeros(self._size, dtype=np.float32)
        return np.asarray(self._model.get_scores(known), dtype=np.float32)

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "size.json").write_text(json.dumps({"size": self._size}))
        if self._size and self._model is not None:
            self._model.save(str(folder / "bm25s"), show_progress=False)

    def load(self, folder: Path) -> None:
        import bm25s

        self._size = json.loads((folder / "size.json").read_text())["size"]
        self._model = bm25s.BM25.load(str(folder / "bm25s"), show_progress=False) if self._size else None


class RankBm25Index:
    backend = "rank-bm25"

    def __init__(self) -> None:
        self._model = None
        self._size = 0

    def build(self, token_lists: Sequence[Sequence[str]]) -> None:
        from rank_bm25 import BM25Okapi

        self._size = len(token_lists)
        self._model = BM25Okapi([list(t) or [""] for t in token_lists]) if self._size else None

    def scores(self, query_tokens: Sequence[str]) -> np.ndarray:
        if self._model is None:
            return np.zeros(self._size, dtype=np.float32)
        return np.asarray(self._model.get_scores(list(query_tokens)), dtype=np.float32)

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "rank_bm25.pkl", "wb") as fh:
            pickle.dump((self._size, self._model), fh, protocol=pickle.HIGHEST_PROTOCOL)

    def load(self, folder: Path) -> None:
        # The file is written by this program under PROV_HOME only; it is never read from user input.
        with open(folder / "rank_bm25.pkl", "rb") as fh:
            self._size, self._model = pickle.load(fh)


BACKENDS: dict[str, type] = {"bm25s": Bm25sIndex, "rank-bm25": RankBm25Index}
STALE_TMP_S = 3600  # a temporary index folder this old was left by a process that died while writing it


def make_index(backend: str) -> SparseIndex:
    try:
        return BACKENDS[backend]()
    except KeyError:
        raise ValueError(f"unknown sparse backend {backend!r}; choose one of {', '.join(BACKENDS)}") from None


def top_k(scores: np.ndarray, k: int, mask: np.ndarray | None = None) -> list[tuple[int, float]]:
    """Indices and scores of the k best positive scores, optionally only where mask is True."""
    if mask is not None:
        scores = np.where(mask, scores, 0.0)
    k = min(k, int((scores > 0).sum()))
    if k <= 0:
        return []
    idx = np.argpartition(-scores, k - 1)[:k]
    idx = idx[np.argsort(-scores[idx], kind="stable")]
    return [(int(i), float(scores[i])) for i in idx]


class PersistedSparse:
    """A sparse index plus the chunk ids it covers, stamped with the catalog generation it was built from."""

    def __init__(self, root: Path, backend: str) -> None:
        self.root = root
        self.backend = backend
        self.index: SparseIndex = make_index(backend)
        self.ids: list[str] = []
        self.generation: int = -1

    @property
    def _pointer(self) -> Path:
        return self.root / f"{self.backend}.current"

    def build(self, ids: list[str], token_lists: Sequence[Sequence[str]], generation: int) -> None:
        self.index = make_index(self.backend)
        self.index.build(token_lists)
        self.ids, self.generation = ids, generation

    def save(self) -> None:
        """Write the index to a folder of its own, then point `<backend>.current` at it; both switches are atomic
        renames, so a reader loads the old index or the new one. Processes that rebuild at once (each finds the
        catalog newer than the index after another process's ingest) write under names of their own: a shared
        temporary name let one process rename or delete what another was still writing. Folders of older
        generations are removed; a temporary folder only once it is an hour old (left by a killed process), as
        another process may still be writing it."""
        self.root.mkdir(parents=True, exist_ok=True)
        unique = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        name = f"{self.backend}.g{self.generation}.{unique}"
        tmp = self.root / (name + ".tmp")
        self.index.save(tmp)
        (tmp / "ids.json").write_text(json.dumps({"generation": self.generation, "ids": self.ids}))
        os.replace(tmp, self.root / name)
        pointer_tmp = self.root / f"{self.backend}.current.{unique}.tmp"
        pointer_tmp.write_text(name)
        os.replace(pointer_tmp, self._pointer)
        self._remove_older()

    def _remove_older(self) -> None:
        for old in self.root.glob(f"{self.backend}.g*"):
            generation = old.name[len(self.backend) + 2:].split(".", 1)[0]
            if old.name.endswith(".tmp"):
                try:
                    stale = time.time() - old.stat().st_mtime > STALE_TMP_S
                except OSError:  # removed meanwhile by another process
                    continue
                if stale:
                    shutil.rmtree(old, ignore_errors=True)
            elif generation.isdigit() and int(generation) < self.generation:
                shutil.rmtree(old, ignore_errors=True)

    def load(self) -> bool:
        """Load the current index; False when there is none or it cannot be read."""
        try:
            folder = self.root / self._pointer.read_text().strip()
            meta = json.loads((folder / "ids.json").read_text())
            index = make_index(self.backend)
            index.load(folder)
        except (OSError, ValueError, KeyError, pickle.UnpicklingError):
            return False
        self.index, self.ids, self.generation = index, meta["ids"], int(meta["generation"])
        return True
