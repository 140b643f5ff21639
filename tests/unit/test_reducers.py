"""The reducers directly, and in a graph: why `found` needs merge_found rather than LangGraph's default."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

import pytest
from langgraph.errors import InvalidUpdateError
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from reducers import concat_documents, merge_found

# --- concat_documents -------------------------------------------------------------------------------------


def test_concat_documents_appends_in_order():
    assert concat_documents(["a", "b"], ["c"]) == ["a", "b", "c"]


def test_concat_documents_is_none_safe_on_either_side():
    assert concat_documents(None, ["a"]) == ["a"]
    assert concat_documents(["a"], None) == ["a"]
    assert concat_documents(None, None) == []


def test_concat_documents_keeps_duplicates_and_does_not_mutate():
    old, new = ["a"], ["a"]
    merged = concat_documents(old, new)
    assert merged == ["a", "a"]
    assert old == ["a"] and new == ["a"] and merged is not old


# --- merge_found ------------------------------------------------------------------------------------------


def test_merge_found_keeps_keys_the_update_does_not_name():
    assert merge_found({"Northwind": True}, {"Helio": False}) == {"Northwind": True, "Helio": False}


def test_merge_found_a_later_flag_replaces_only_its_key():
    old = {"Northwind": True, "Helio": True}
    assert merge_found(old, {"Helio": False}) == {"Northwind": True, "Helio": False}
    assert merge_found({"Helio": False}, {"Helio": True}) == {"Helio": True}


def test_merge_found_is_none_safe_and_does_not_mutate():
    old = {"Northwind": True}
    assert merge_found(None, {"A": True}) == {"A": True}
    assert merge_found(old, None) == {"Northwind": True}
    assert merge_found(None, None) == {}
    merged = merge_found(old, {"B": False})
    assert old == {"Northwind": True} and merged is not old


# --- in a graph -------------------------------------------------------------------------------------------

COMPANIES = ["Northwind", "Helio", "Copperleaf"]


class PlainState(TypedDict):
    found: dict[str, bool]


class MergedState(TypedDict):
    found: Annotated[dict[str, bool], merge_found]
    documents: Annotated[list[str], concat_documents]


def fan_out(state: Any) -> list[Send]:
    return [Send("search", {"company": c}) for c in COMPANIES]


def search(task: dict[str, Any]) -> dict[str, Any]:
    return {"found": {task["company"]: task["company"] != "Copperleaf"}, "documents": [task["company"]]}


def parallel_graph(state_schema: type) -> Any:
    builder = StateGraph(state_schema)
    builder.add_node("search", search)
    builder.add_conditional_edges(START, fan_out, ["search"])
    builder.add_edge("search", END)
    return builder.compile()


def test_default_channel_rejects_parallel_branches_writing_found():
    with pytest.raises(InvalidUpdateError):
        parallel_graph(PlainState).invoke({"found": {}})


def test_default_channel_loses_keys_when_writers_take_turns():
    builder = StateGraph(PlainState)
    builder.add_node("first", lambda s: {"found": {"Northwind": True}})
    builder.add_node("second", lambda s: {"found": {"Helio": True}})
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    builder.add_edge("second", END)
    assert builder.compile().invoke({"found": {}})["found"] == {"Helio": True}  # Northwind erased


def test_merge_found_keeps_every_parallel_branchs_key():
    out = parallel_graph(MergedState).invoke({"found": {}, "documents": []})
    assert out["found"] == {"Northwind": True, "Helio": True, "Copperleaf": False}
    assert sorted(out["documents"]) == sorted(COMPANIES)

