"""app/memory/answers.py: questions about what the user told Prov, answered from their records (and None for
anything else); bench/goodai_memory.py's replay and scoring on a small made-up definitions file."""

from __future__ import annotations

import importlib.util
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.memory.answers import MemoryAnswer, answer_from_memory
from app.memory.policy import decide, remember
from app.memory.records import MemoryStore

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture()
def store(tmp_path: Path) -> MemoryStore:
    return MemoryStore(f"sqlite:///{tmp_path / 'memory.sqlite'}")


def say(store: MemoryStore, *utterances: str, user: str = "ana", thread: str = "t-1") -> None:
    for i, utterance in enumerate(utterances):
        decision = decide(utterance)
        assert decision.kept, f"refused {utterance!r}: {decision.rule}"
        remember(store, user, thread, decision, f"{thread}:c{i}", now=T0 + timedelta(minutes=i))


def ask(store: MemoryStore, question: str, user: str = "ana", thread: str = "t-1") -> MemoryAnswer | None:
    return answer_from_memory(question, store, user=user, thread=thread)


@pytest.mark.parametrize("question", ["What is my favourite colour?", "What's my favorite color?",
                                      "Which colour do I like best?", "Do you remember my favourite colour?",
                                      "Tell me my favourite colour."])
def test_the_latest_colour_wins_after_supersession(store: MemoryStore, question: str):
    say(store, "The name of my favourite colour is Purple.", "White is my favourite colour.",
        "My favourite colour could be described as Blue.", "My favourite colour is Khaki.")
    found = ask(store, question)
    assert found is not None and found.value == "Khaki" and "Khaki" in found.text
    active = store.active("ana", None)
    assert found.record_ids == (active[0].id,) and found.kind == "value"


@pytest.mark.parametrize("question", ["What have been all of the names that I have given you?",
                                      "What names have I told you?", "List all the names I have given you.",
                                      "Which names have I gone by so far?"])
def test_all_names_are_listed_in_the_order_given(store: MemoryStore, question: str):
    say(store, "Refer to me as Gary.", "Mitchel is what I am called.", "My name is Melvin.",
        "My name has changed to Michael.", "Start calling me by my name which is Conal.")
    found = ask(store, question)
    assert found is not None and found.kind == "history"
    assert found.value == ["Gary", "Mitchel", "Melvin", "Michael", "Conal"]
    assert len(found.record_ids) == 5
    assert ask(store, "What is my name?").value == "Conal"  # the current one, alone


def test_names_as_json_when_asked_and_a_repeated_name_once(store: MemoryStore):
    say(store, "Alyssa is my name.", "Call me Jodi.", "My name is Alyssa.")
    found = ask(store, "What have been all of the names that I have given you? Express the answer as a JSON list.")
    assert found is not None and json.loads(found.text) == ["Alyssa", "Jodi"]


def test_the_shopping_list_after_adds_removes_and_a_clamp(store: MemoryStore):
    say(store, "Please add 3 Toothpaste to my shopping list", "Please remove 1 Toothpaste from my shopping list",
        "I require another 2 Toothpaste, please put it on the list.", "Please remove 4 Toothpaste from my shopping list",
        "I want to buy 3 Soap.", "I require 1 Steak, please put it on the list.", "I want to buy 2 potatoes.",
        "Please add 1 Potato to my shopping list", "Remove 1 Steak.")
    found = ask(store, "What is on my current shopping list? Express the list of items as a JSON list of objects "
                       "with `item` and `quantity` properties only. Consolidate items that are the same.")
    assert found is not None and found.kind == "list"
    assert json.loads(found.text) == [{"item": "Soap", "quantity": 3}, {"item": "potatoes", "quantity": 3}]
    prose = ask(store, "What do I need to buy?")
    assert prose is not None and prose.text == "Your shopping list: 3 Soap, 3 potatoes."


def test_an_emptied_list_is_said_to_be_empty(store: MemoryStore):
    say(store, "I want to buy 1 Chicken.", "Remove 1 Chicken.")
    found = ask(store, "What's on my shopping list?")
    assert found is not None and found.value == [] and "empty" in found.text
    assert json.loads(ask(store, "What is on my shopping list? Answer as JSON.").text) == []


def test_the_list_of_another_thread_is_not_this_threads(store: MemoryStore):
    say(store, "Please add 2 Eggs to my shopping list", thread="t-1")
    assert ask(store, "What's on my shopping list?", thread="t-2") is None


def test_standing_instructions_are_answered_from_the_constraints(store: MemoryStore):
    say(store, "Answer in A$ millions", "Please always round to one decimal place.")
    units = ask(store, "What units did I ask for?")
    assert units is not None and "A$ millions" in units.text and units.key == "answer units"
    rounding = ask(store, "How did I ask you to round?")
    assert rounding is not None and "one decimal place" in rounding.text
    assert len(ask(store, "What instructions have I given you?").record_ids) == 2


@pytest.mark.parametrize("question", [
    "What was Ternline's revenue?",  # not about the user
    "What was Ternline's FY2023 revenue?",  # the user's fact is for the prompt, not a memory answer
    "What was Ternline's revenue in my fiscal year 2023?",  # about revenue, in the user's terms
    "How do I change my name?",  # a how-to
    "How can I tell what my favourite colour is?",  # a how-to, even with nothing else asked
    "What is my dog's name?",  # someone else's name
    "What is my favourite food?",  # nothing recorded
    "Can you list my holdings?",  # 'list' the verb
    "Should I avoid online shopping then?",
])
def test_questions_not_about_the_users_records_get_none(store: MemoryStore, question: str):
    say(store, "actually, Ternline's FY2023 revenue was $512m", "my fiscal year ends in June", "My name is Ann.",
        "My favourite colour is Blue.", "Please add 2 eggs to my shopping list")
    assert ask(store, question) is None


def test_a_fact_the_user_stated_is_answered_when_asked_as_theirs(store: MemoryStore):
    say(store, "actually, Ternline's FY2023 revenue was $512m", "my fiscal year ends in June")
    found = ask(store, "What did I say Ternline's FY2023 revenue was?")
    assert found is not None and "$512m" in found.text
    assert ask(store, "When does my fiscal year end?").text == "Your fiscal year ends in June."


def test_records_may_be_given_instead_of_a_store(store: MemoryStore):
    say(store, "My name is Ann.", "Call me Bo.")
    records = store.list_records("ana", include_all=True)
    assert answer_from_memory("What names have I told you?", records).value == ["Ann", "Bo"]
    assert answer_from_memory("What names have I told you?", []) is None


# --- the benchmark's replay and scoring, on made-up scripts ---------------------------------------------------


def _bench():
    spec = importlib.util.spec_from_file_location("goodai_memory", REPO / "bench" / "goodai_memory.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_bench_scores_strictly_by_meaning():
    bench = _bench()
    assert bench.is_right("Colours", "purple", ["Purple"]) and not bench.is_right("Colours", "Purple.", ["Purple"])
    assert bench.is_right("NameList", ["Joe", "ann"], ["Ann", "Joe"])
    assert not bench.is_right("NameList", ["Ann"], ["Ann", "Joe"])  # one missing
    assert not bench.is_right("NameList", ["Ann", "Joe", "Bo"], ["Ann", "Joe"])  # one too many
    shopping = [["soap", 3], ["milk", 6]]
    assert bench.is_right("Shopping", '[{"item": "Milk", "quantity": 6}, {"item": "Soap", "quantity": 3}]', shopping)
    assert not bench.is_right("Shopping", '[{"item": "Milk", "quantity": 5}, {"item": "Soap", "quantity": 3}]',
                              shopping)
    assert not bench.is_right("Shopping", '[{"item": "Milk", "quantity": 6}]', shopping)
    assert not bench.is_right("Shopping", "not json", shopping)


def test_bench_replays_scripts_and_reports_the_baseline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    bench = _bench()
    rows = [
        {"task": "Colours", "script": ["My favourite colour is Red.", "Tan is my favourite colour.",
                                       "What is my favourite colour?"],
         "is_question": [False, False, True], "expected_responses": ["Tan"]},
        {"task": "NameList", "script": ["Refer to me as Hamish.", "My name is Joy.",
                                        "What have been all of the names that I have given you?"],
         "is_question": [False, False, True], "expected_responses": ["Hamish", "Joy"]},
        {"task": "Shopping", "script": ["I want to buy 2 Soap.", "Remove 1 Soap.", "Please add 1 Milk to my shopping list",
                                        "What is on my current shopping list? Express the list of items as a JSON list "
                                        "of objects with `item` and `quantity` properties only."],
         "is_question": [False, False, False, True], "expected_responses": [["soap", 1], ["milk", 1]]},
        {"task": "Shopping", "script": ["I want to buy 2 Soap.", "What is on my current shopping list? As JSON."],
         "is_question": [False, True], "expected_responses": [["soap", 3]]},  # made wrong on purpose
        {"task": "Jokes", "script": ["Tell me a joke."], "is_question": [True], "expected_responses": ["-"]},
    ]
    path = tmp_path / "defs.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    result = bench.run_update_cases(path)
    assert result["scores"] == {"Colours": {"right": 1, "total": 1}, "Shopping": {"right": 1, "total": 2},
                                "NameList": {"right": 1, "total": 1}}
    assert result["baseline"]["NameList"] == {"right": 0, "total": 1}  # the last name alone is not all of them
    assert [(f["task"], f["index"]) for f in result["failures"]] == [("Shopping", 1)]

    lines: list[str] = []
    monkeypatch.setenv("PROV_SHARED_DATA", str(tmp_path / "nowhere"))
    assert bench.main([], echo=lines.append) == 0 and "absent" in lines[0]
    lines.clear()
    assert bench.main([str(path)], echo=lines.append) == 0
    assert lines[0].endswith("Colours 1/1, Shopping 1/2, NameList 1/1") and "baseline" in lines[1]
