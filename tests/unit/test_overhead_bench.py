"""The pure parts of bench/overhead.py: how a turn's wall time is split, and what the instruments record."""

from __future__ import annotations

import pytest

from bench.overhead import (
    COLUMNS,
    Clock,
    Timed,
    busy,
    checkpoint_by_difference,
    overhead_ratio,
    sequential_calls,
    split_turn,
)


def test_disjoint_spans_keep_their_own_time_and_the_gaps_are_own():
    split = split_turn([("model", 1.0, 3.0), ("checkpoint", 4.0, 5.0)], 0.0, 10.0)
    assert split == {"role": 0.0, "model": 2.0, "checkpoint": 1.0, "search": 0.0, "memory": 0.0, "own": 7.0}


def test_an_overlap_goes_to_the_category_first_in_order():
    # A background checkpoint write half hidden behind a model call: the hidden half is the model's.
    split = split_turn([("checkpoint", 2.0, 6.0), ("model", 0.0, 4.0)], 0.0, 8.0)
    assert split["model"] == 4.0 and split["checkpoint"] == 2.0 and split["own"] == 2.0


def test_role_time_under_the_scripted_latency_is_taken_from_the_model():
    split = split_turn([("model", 0.0, 1.3), ("role", 1.0, 1.3)], 0.0, 2.0)
    assert split["model"] == pytest.approx(1.0) and split["role"] == pytest.approx(0.3)
    assert split["own"] == pytest.approx(0.7)


def test_parallel_calls_of_one_category_count_once_in_the_split_and_twice_as_busy_time():
    spans = [("model", 0.0, 2.0), ("model", 1.0, 3.0)]
    assert split_turn(spans, 0.0, 4.0)["model"] == 3.0
    assert busy(spans, "model", 0.0, 4.0) == 4.0


def test_spans_are_clipped_to_the_turn_and_the_columns_add_up_to_it():
    spans = [("search", -1.0, 1.0), ("memory", 2.5, 9.0), ("checkpoint", 2.0, 3.0)]
    split = split_turn(spans, 0.0, 4.0)
    assert split["search"] == 1.0 and split["checkpoint"] == 1.0 and split["memory"] == 1.0
    assert sum(split[c] for c in COLUMNS) == pytest.approx(4.0)


def test_an_unknown_category_is_refused():
    with pytest.raises(ValueError, match="unknown category 'disk'"):
        split_turn([("disk", 0.0, 1.0)], 0.0, 1.0)


def test_overhead_is_everything_but_the_model():
    row = {"turn_s": 10.0, "role": 0.5, "model": 8.0, "checkpoint": 0.5, "search": 0.5, "memory": 0.25, "own": 0.25}
    assert overhead_ratio(row) == pytest.approx(0.2)


class _Chat:
    """A stand-in chat model: bind_tools returns another model whose invoke answers."""

    label = "chat"

    def bind_tools(self, tools):
        bound = _Chat()
        bound.tools = tools
        return bound

    def invoke(self, messages):
        return f"reply to {messages}"

    def history(self):
        yield from ("a", "b")


def test_timed_counts_calls_through_a_bound_model_but_not_the_binding():
    clock = Clock()
    model = Timed(_Chat(), clock, "model", "calculator")
    bound = model.bind_tools(["add"])
    assert bound.invoke("hi") == "reply to hi"
    assert bound.tools == ["add"] and model.label == "chat"
    spans, _durations, calls = clock.take()
    assert calls == {"model:calculator.invoke": 1}
    assert [s[0] for s in spans] == ["model"]
    assert clock.take()[2] == {}  # taken means cleared


def test_a_generator_is_timed_while_it_is_read():
    clock = Clock()
    items = list(Timed(_Chat(), clock, "checkpoint", "saver").history())
    assert items == ["a", "b"]
    spans, _durations, calls = clock.take()
    assert calls == {"checkpoint:saver.history": 1}  # one call ...
    assert len(spans) == 4  # ... timed when made, at each of its two items, and at its end


def test_checkpointing_by_difference_pairs_the_same_turns():
    durable = [{"turn_s": 1.0}, {"turn_s": 2.0}, {"turn_s": 5.0}]
    floor = [{"turn_s": 0.5}, {"turn_s": 1.9}, {"turn_s": 4.0}]
    d = checkpoint_by_difference(durable, floor)
    assert d["median_turn_s"] == pytest.approx(0.5)
    assert d["share_of_total"] == pytest.approx(1.6 / 8.0)


def test_calls_that_overlap_stand_as_one_wait_and_calls_in_a_row_as_several():
    # router, three gradings in parallel, a calculator step, the synthesizer; a checkpoint write is no model call
    spans = [("model", 0.0, 0.3), ("model", 0.4, 0.7), ("model", 0.41, 0.71), ("model", 0.42, 0.72),
             ("checkpoint", 0.7, 0.8), ("model", 0.8, 1.1), ("model", 1.1, 1.4)]
    assert sequential_calls(spans) == 4
    assert sequential_calls([("model", 0.0, 0.3), ("model", 0.3, 0.6)]) == 2  # one starts as the other ends
    assert sequential_calls([("checkpoint", 0.0, 1.0)]) == 0
