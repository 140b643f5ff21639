"""app/memory/records.py and app/memory/policy.py: typed records whose corrections supersede, and which user
utterances become records at all."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.memory.policy import decide
from app.memory.records import PROVISIONAL_TTL, MemoryStore

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


@pytest.fixture()
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore(f"sqlite:///{tmp_path / 'memory.sqlite'}")


def test_a_correction_supersedes_and_the_old_record_is_kept_but_never_active(store: MemoryStore) -> None:
    first = store.write("ana", "t-1", "fact", "EU refund window", "14 days", "t-1:c1", now=T0)
    second = store.write("ana", "t-1", "fact", "the eu refund window", "30 days", "t-1:c7", now=T0 + timedelta(hours=1))
    assert second.supersedes == first.id and second.key == "eu refund window"
    assert [(r.value, r.status) for r in store.active("ana", "t-1")] == [("30 days", "active")]
    everything = {r.id: r.status for r in store.list_records("ana", include_all=True)}
    assert everything == {first.id: "superseded", second.id: "active"}
    assert [r.id for r in store.list_records("ana")] == [second.id]  # superseded ones only with --all


def test_scopes_users_and_types_are_kept_apart(store: MemoryStore) -> None:
    store.write("ana", None, "constraint", "answer units", "answer in A$ millions", "t-1:c1", now=T0)
    store.write("ana", "t-2", "fact", "refund window", "30 days", "t-2:c1", now=T0)
    store.write("ben", None, "constraint", "answer units", "answer in USD", "t-9:c1", now=T0)
    assert {r.value for r in store.active("ana", "t-2")} == {"answer in A$ millions", "30 days"}
    assert {r.value for r in store.active("ana", "t-3")} == {"answer in A$ millions"}  # another thread's fact: no
    assert {r.value for r in store.active("ana", "t-2", types=["fact"])} == {"30 days"}
    assert {r.value for r in store.active("ben")} == {"answer in USD"}
    # a thread's record does not supersede the user-wide one of the same key
    store.write("ana", "t-2", "constraint", "answer units", "answer in £", "t-2:c2", now=T0)
    assert {r.value for r in store.active("ana", "t-2")} == {"answer in A$ millions", "30 days", "answer in £"}


def test_an_inferred_record_waits_for_confirmation_and_expires(store: MemoryStore) -> None:
    stated = store.write("ana", None, "profile", "fiscal year", "ends in December", "t-1:c1", now=T0)
    guess = store.write("ana", None, "profile", "fiscal year", "ends in June", "t-1:c2", provisional=True, now=T0)
    assert guess.status == "provisional" and guess.supersedes is None
    assert [r.value for r in store.active("ana", now=T0)] == ["ends in December"]  # never admitted unconfirmed
    confirmed = store.confirm(guess.id)
    assert confirmed.status == "active" and confirmed.supersedes == stated.id
    late = store.write("ana", None, "profile", "sector", "retail", "t-1:c3", provisional=True, now=T0)
    assert store.expire_due(T0 + PROVISIONAL_TTL + timedelta(seconds=1)) == 1
    assert {r.id: r.status for r in store.list_records("ana", include_all=True)}[late.id] == "expired"
    with pytest.raises(ValueError):
        store.confirm(late.id)


def test_forget_deletes_a_users_or_a_threads_records(store: MemoryStore) -> None:
    store.write("ana", "t-1", "fact", "k1", "marker-7f3a", "t-1:c1", now=T0)
    store.write("ana", "t-2", "fact", "k2", "v2", "t-2:c1", now=T0)
    store.write("ben", "t-3", "fact", "k3", "v3", "t-3:c1", now=T0)
    assert store.forget(thread="t-1") == 1
    assert {r.key for r in store.list_records(include_all=True)} == {"k2", "k3"}
    assert store.forget(user="ana") == 1 and {r.user for r in store.list_records(include_all=True)} == {"ben"}
    with pytest.raises(ValueError):
        store.forget()


def test_a_record_needs_a_known_type_a_key_and_a_value(store: MemoryStore) -> None:
    with pytest.raises(ValueError):
        store.write("ana", None, "opinion", "k", "v", "s")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        store.write("ana", None, "fact", "the", "v", "s")
    assert store.list_records(include_all=True) == []  # nothing half-written


@pytest.mark.parametrize(("utterance", "expected"), [
    ("my fiscal year ends in June", ("profile", "fiscal year", "ends in June", False)),
    ("Answer in A$ millions", ("constraint", "answer units", "answer in A$ millions", False)),
    ("Please always round to one decimal place.", ("constraint", "answer rounding", "round to one decimal place",
                                                   False)),
    ("Actually, the EU refund window is now 30 days", ("fact", "eu refund window", "30 days", True)),
    ("No, Northwind's FY2024 revenue was £1,320m.", ("fact", "northwind's fy2024 revenue", "£1,320m", True)),
    ("I work for Helio Renewables", ("profile", "who I am", "work for Helio Renewables", False)),
])
def test_explicit_statements_and_corrections_qualify(utterance, expected):
    decision = decide(utterance)
    assert decision.kept and (decision.type, decision.key, decision.value, decision.correction) == expected


@pytest.mark.parametrize(("utterance", "rule"), [
    ("What was Northwind's revenue in FY2024?", "a question"),
    ("Is the refund window 30 days", "a question"),
    ("thanks!", "a pleasantry"),
    ("Hello there", "a pleasantry"),
    ("The report says revenue was £1,311.2m", "not an explicit statement"),
    ("Show me the numbers", "not an explicit statement"),
    ("Actually, never mind", "names nothing to replace"),
])
def test_questions_pleasantries_and_other_text_are_refused_with_the_rule(utterance, rule):
    decision = decide(utterance)
    assert not decision.kept and rule in decision.rule


def test_a_step_that_runs_again_writes_its_record_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """write_memory re-runs when its process died after the write and before the step's checkpoint: the same
    turn (source) writing the same sentence for the same key is the write already made, not a correction."""
    from app.memory.records import MemoryStore

    store = MemoryStore(f"sqlite:///{tmp_path / 'm.sqlite'}")
    said = "I cover Helio Renewables for my fund."
    first = store.write("ana", None, "profile", "coverage", "Helio Renewables", "t-1:cp-9", said=said)
    again = store.write("ana", None, "profile", "coverage", "Helio Renewables", "t-1:cp-9", said=said)
    assert again.id == first.id and again.supersedes is None
    assert [r.id for r in store.list_records("ana", include_all=True)] == [first.id]
    # the same words in a later turn are a new statement (it supersedes), and so is another sentence of one turn
    later = store.write("ana", None, "profile", "coverage", "Helio Renewables", "t-1:cp-12", said=said)
    assert later.id != first.id and later.supersedes == first.id
    fix = store.write("ana", None, "profile", "coverage", "Northwind", "t-1:cp-12", said="Actually, Northwind.")
    assert fix.supersedes == later.id
