"""Reducers: small pure `(old, new) -> merged` functions used in graph state annotations."""

from reducers.documents import concat_documents
from reducers.found_flags import merge_found

__all__ = ["concat_documents", "merge_found"]
