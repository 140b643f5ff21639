"""Embeddings kept in SQL rows, for the memory layer's small searchable stores (the semantic answer cache and the
turn archive): a vector is stored as float32 bytes and compared by cosine similarity in numpy.

These stores hold one user's questions and one thread's turns, hundreds of rows, not millions: a scan is
faster than keeping them in sync with a vector index, and erasing a user is one SQL delete (no index files
that might still hold the text).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np



def to_blob(vector: Sequence[float]) -> bytes:
    """A unit-length float32 vector as bytes (normalised here, so a dot product is the cosine)."""
    v = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(v))
    return (v / norm if norm else v).astype(np.float32).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)


def cosine_scores(query: Sequence[float], blobs: Sequence[bytes]) -> list[float]:
    """The cosine similarity of `query` to each stored vector (stored vectors are unit length); vectors of
    another dimension (a store written under another embedding model) score -1."""
    if not blobs:
        return []
    q = from_blob(to_blob(query))
    scores = []
    for blob in blobs:
        v = from_blob(blob)
        scores.append(float(np.dot(q, v)) if v.shape == q.shape else -1.0)
    return scores
