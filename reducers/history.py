"""Reducer for the supervisor's `history`: each turn appends itself; nothing already said is rewritten."""

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def append_turns(old: Sequence[T] | None, new: Sequence[T] | T | None) -> list[T]:
    """`old` followed by `new` (one turn or a list of turns). None on either side counts as empty."""
    if new is None:
        added: list[T] = []
    elif isinstance(new, (list, tuple)):
        added = list(new)
    else:
        added = [new]  # type: ignore[list-item]
    return [*(old or ()), *added]
