"""bench/conversations.py's conversations load as scoring questions, each turn with what makes it right, and its
summary counts follow-ups apart from opening turns."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import conversations as bench  # noqa: E402


def test_every_turn_of_every_conversation_says_what_makes_it_right() -> None:
    loaded = bench.load()
    assert loaded and {c["corpus"] for c in loaded} == {"financebench", "analyst"}
    assert {c["set"] for c in loaded} == {"dev", "held_out"}
    for conversation in loaded:
        assert len(conversation["turns"]) >= 2, conversation["id"]  # a conversation has follow-ups
        for turn in conversation["turns"]:
            assert turn.facts or turn.expect == "insufficient", turn.id


def test_the_summary_counts_follow_ups_apart() -> None:
    turns = [{"turn": 1, "right": True, "wrong_period_or_segment": False},
             {"turn": 2, "right": False, "wrong_period_or_segment": True},
             {"turn": 3, "right": True, "wrong_period_or_segment": False}]
    assert bench.summary(turns) == {"turns": 3, "right": 2, "follow_ups": 2, "follow_ups_right": 1,
                                    "distractor_stated": 1}
