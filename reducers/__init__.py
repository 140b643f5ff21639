"""Reducers: small pure `(old, new) -> merged` functions used in graph state annotations."""

from reducers.documents import concat_documents
from reducers.found_flags import merge_found
from reducers.history import append_turns

__all__ = ["append_turns", "concat_documents", "merge_found"]
