"""Reducer for the retrieval subgraph's per-company `found` flags.

Each search branch writes the flag of its own company only. With LangGraph's default (no reducer) parallel
branches raise InvalidUpdateError, and a later single writer would replace the whole dict; merging key by key
keeps every branch's answer.
"""

from collections.abc import Mapping


def merge_found(old: Mapping[str, bool] | None, new: Mapping[str, bool] | None) -> dict[str, bool]:
    """`old` updated key by key with `new`: a later True or False for a company replaces that company's flag
    only; companies `new` does not mention keep theirs. Returns a new dict; None is treated as empty."""
    return {**(old or {}), **(new or {})}
