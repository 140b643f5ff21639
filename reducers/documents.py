"""Reducer for the retrieval subgraph's `documents`: parallel search branches each add their hits."""

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def concat_documents(old: Sequence[T] | None, new: Sequence[T] | None) -> list[T]:
    """`old` followed by `new`, as a new list; either side may be None (treated as empty). Nothing is deduped:
    the grade step dedupes by chunk id, so the raw trace of what each branch returned stays visible."""
    return [*(old or ()), *(new or ())]
