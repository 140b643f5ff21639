"""app/memory/policy.py: personal statements by wording family (profile keys first or last, names, list updates),
what is still refused, and how a list update changes the list's value."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.memory.policy import Decision, apply_list_update, canonical_key, decide, list_items, remember, same_item
from app.memory.records import MemoryStore

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


def kept(utterance: str) -> tuple:
    d = decide(utterance)
    assert d.kept, f"refused {utterance!r}: {d.rule}"
    return d.type, d.key, d.value


@pytest.mark.parametrize("utterance", [
    "My favourite colour is Purple",
    "My favourite colour is Purple.",
    "Purple is my favourite colour.",
    "The name of my favourite colour is Purple.",
    "My favourite colour could be described as Purple.",
    "My favourite colour can be described as Purple",
    "My favorite color is Purple!",
    "My new favourite colour is Purple now.",
    "My favourite colour has changed to Purple.",
    "Purple has become my favourite colour.",
    "Purple is now my favourite colour",
    "These days, my favourite colour is Purple.",
    "I'd say my favourite colour is Purple.",
    "I have a new favourite colour: Purple.",
    "The colour I like best is Purple.",
    "Purple is the colour I love the most.",
])
def test_a_profile_attribute_with_its_key_first_or_last(utterance):
    assert kept(utterance) == ("profile", "favourite colour", "Purple")


@pytest.mark.parametrize(("utterance", "key", "value"), [
    ("Remember that my favourite food is sushi.", "favourite food", "sushi"),
    ("Ternline is my employer.", "employer", "Ternline"),
    ("The name of my dog is Rex.", "dog's name", "Rex"),  # 'the name of' a thing that is no favourite: its name
    ("My colleague's name is Bob.", "colleague's name", "Bob"),  # not the user's own name
    ("my fiscal year ends in June", "fiscal year", "ends in June"),  # a verb other than 'is' stays in the value
])
def test_other_profile_keys_keep_their_own_key(utterance, key, value):
    assert kept(utterance) == ("profile", key, value)


@pytest.mark.parametrize(("utterance", "name"), [
    ("My name is Melvin.", "Melvin"),
    ("Refer to me as Gary.", "Gary"),
    ("Mitchel is what I am called.", "Mitchel"),
    ("My name has changed to Michael.", "Michael"),
    ("Start calling me by my name which is Conal.", "Conal"),
    ("Call me Ann", "Ann"),
    ("Abigail is my name.", "Abigail"),
    ("My name has changed to Amy-Lee.", "Amy-Lee"),
    ("Please call me Jo from now on.", "Jo"),
    ("From now on, refer to me as Zed.", "Zed"),
    ("You can call me Dr Smith.", "Dr Smith"),
    ("I go by Sam.", "Sam"),
    ("I'd like to be called Kim.", "Kim"),
    ("I've changed my name to Lee.", "Lee"),
    ("I am called Pat.", "Pat"),
    ("Hello, my name is Ann.", "Ann"),
    ("People call me Red.", "Red"),
    ("My name's Ann.", "Ann"),
    ("Can you call me Ann?", "Ann"),  # a polite request is the request it wraps
])
def test_names_in_every_wording_share_the_key_name(utterance, name):
    assert kept(utterance) == ("profile", "name", name)


@pytest.mark.parametrize("utterance", ["Call me back later.", "Call me when the report is out.", "This is my name.",
                                       "His name is Bob.", "Call him Bob."])
def test_calls_and_names_that_are_not_the_users_name_are_refused(utterance):
    d = decide(utterance)
    assert not (d.kept and d.key == "name"), d


@pytest.mark.parametrize(("utterance", "op", "items"), [
    ("Please add 3 Toothpaste to my shopping list", "add", (("Toothpaste", 3),)),
    ("I want to buy 3 Soap.", "add", (("Soap", 3),)),
    ("I require another 2 Toothpaste, please put it on the list.", "add", (("Toothpaste", 2),)),
    ("I require 1 Toilet Paper, please put it on the list.", "add", (("Toilet Paper", 1),)),
    ("Please add another 1 Chicken to my shopping list", "add", (("Chicken", 1),)),
    ("I want to buy another 2 Potato.", "add", (("Potato", 2),)),
    ("Put 2 rolls of toilet paper on the list", "add", (("toilet paper", 2),)),
    ("Add two apples and 3 pears to my grocery list", "add", (("apples", 2), ("pears", 3))),
    ("Add milk to my shopping list.", "add", (("milk", None),)),
    ("I'd like to get 3 milk.", "add", (("milk", 3),)),
    ("I would also like 2 eggs on my list.", "add", (("eggs", 2),)),
    ("Could you add 2 eggs to my shopping list?", "add", (("eggs", 2),)),
    ("Please remove 1 Toothpaste from my shopping list", "remove", (("Toothpaste", 1),)),
    ("Remove 1 Steak.", "remove", (("Steak", 1),)),
    ("Take 2 soap off my list.", "remove", (("soap", 2),)),
    ("I don't need 2 soap anymore.", "remove", (("soap", 2),)),
    ("I no longer need milk.", "remove", (("milk", None),)),
    ("Remove 2 of the apples.", "remove", (("apples", 2),)),
    ("Get rid of 2 apples from my shopping list.", "remove", (("apples", 2),)),
    ("Change the quantity of soap to 5", "set", (("soap", 5),)),
    ("Clear my shopping list.", "clear", ()),
])
def test_list_updates_are_task_state_with_an_operation(utterance, op, items):
    d = decide(utterance)
    assert (d.type, d.key, d.op, d.items) == ("task_state", "shopping list", op, items)


def test_another_list_keeps_its_own_key_and_the_first_item_is_at_hand():
    d = decide("Add passport to my packing list")
    assert (d.key, d.op, d.item, d.quantity) == ("packing list", "add", "passport", None)


@pytest.mark.parametrize("utterance", [
    "Remove 2 decimal places.", "Add 2019 revenue to the table.", "Add Ternline to the comparison.",
    "Remove duplicates.", "I want 3 bullet points.", "I need 3 years of data.", "Add a note to the report.",
    "Delete the chat history.", "Drop the footnotes.",  # no list named and no quantity: not a list update
])
def test_requests_about_answers_are_no_list_updates(utterance):
    assert decide(utterance).type != "task_state"


@pytest.mark.parametrize(("utterance", "rule"), [
    ("What is my favourite colour?", "a question"),
    ("What is on my current shopping list?", "a question"),
    ("What have been all of the names that I have given you?", "a question"),
    ("thanks!", "a pleasantry"),
    ("Hello there", "a pleasantry"),
    ("The report says revenue was £1,311.2m", "not an explicit statement"),
    ("Express the list of items as a JSON list of objects with `item` and `quantity` properties only.",
     "not an explicit statement"),
    ("Consolidate items that are the same.", "not an explicit statement"),
    ("That is my question.", "not an explicit statement"),
    ("my friend works at the studio. he said part of it was filmed in new york", "not an explicit statement"),
])
def test_questions_pleasantries_and_what_is_not_the_users_are_still_refused(utterance, rule):
    d = decide(utterance)
    assert not d.kept and rule in d.rule


@pytest.mark.parametrize(("utterance", "expected"), [
    ("actually, Ternline's FY2023 revenue was $512m", ("fact", "ternline's fy2023 revenue", "$512m", True)),
    ("No, Northwind's FY2024 revenue was £1,320m.", ("fact", "northwind's fy2024 revenue", "£1,320m", True)),
    ("Actually, my name is Ann.", ("profile", "name", "Ann", True)),
    ("No, my favourite colour is Blue.", ("profile", "favourite colour", "Blue", True)),
])
def test_corrections_of_company_facts_and_of_personal_statements(utterance, expected):
    d = decide(utterance)
    assert (d.type, d.key, d.value, d.correction) == expected


def test_canonical_key_folds_spellings_and_qualifiers():
    assert canonical_key("My new Favorite Color") == "favourite colour"
    assert canonical_key("the current shopping list") == "shopping list"


def _update(utterance: str) -> Decision:
    d = decide(utterance)
    assert d.op is not None, d
    return d


def test_apply_list_update_adds_removes_clamps_and_drops():
    value = apply_list_update(None, _update("Please add 3 Toothpaste to my shopping list"))
    value = apply_list_update(value, _update("Please remove 1 Toothpaste from my shopping list"))
    assert json.loads(value) == {"Toothpaste": 2}
    value = apply_list_update(value, _update("I require another 2 Toothpaste, please put it on the list."))
    value = apply_list_update(value, _update("I want to buy 3 Soap."))
    assert json.loads(value) == {"Toothpaste": 4, "Soap": 3}
    value = apply_list_update(value, _update("Please remove 5 Toothpaste from my shopping list"))  # never below 0
    assert json.loads(value) == {"Soap": 3}  # and an item at 0 is gone
    value = apply_list_update(value, _update("Remove 1 Steak."))  # not on the list: nothing changes
    assert json.loads(value) == {"Soap": 3}
    value = apply_list_update(value, _update("I no longer need soap."))  # no quantity: all of it
    assert json.loads(value) == {}


def test_apply_list_update_matches_items_regardless_of_case_and_plural():
    value = apply_list_update(None, _update("I want to buy 2 Potato."))
    value = apply_list_update(value, _update("Please add 1 potatoes to my shopping list"))
    value = apply_list_update(value, _update("Add 2 Berries to my list"))
    value = apply_list_update(value, _update("Remove 1 berry."))
    assert json.loads(value) == {"Potato": 3, "Berries": 1}  # the name first written is kept
    value = apply_list_update(value, _update("Change the quantity of POTATO to 5"))
    assert list_items(value) == {"Potato": 5, "Berries": 1}
    assert json.loads(apply_list_update(value, _update("Clear my shopping list."))) == {}
    assert same_item("Toilet Paper", "toilet papers") and not same_item("Soap", "Soup")


def test_remember_writes_the_list_after_each_change_under_the_thread(tmp_path: Path):
    store = MemoryStore(f"sqlite:///{tmp_path / 'memory.sqlite'}")
    for i, utterance in enumerate(["Please add 3 Steak to my shopping list", "Remove 1 Steak.",
                                   "My favourite colour is Tan."]):
        remember(store, "ana", "t-1", decide(utterance), f"t-1:c{i}", now=T0 + timedelta(minutes=i))
    assert remember(store, "ana", "t-1", decide("thanks!"), "t-1:c9") is None
    lists = store.active("ana", "t-1", ["task_state"])
    assert [(r.key, r.thread, json.loads(r.value)) for r in lists] == [("shopping list", "t-1", {"Steak": 2})]
    assert [(r.key, r.thread, r.value) for r in store.active("ana", None)] == [("favourite colour", None, "Tan")]
    assert store.active("ana", "t-2", ["task_state"]) == []  # another thread's list is its own


# --- standing instructions on how to answer, in the words people use ------------------------------------------


@pytest.mark.parametrize(("utterance", "key"), [
    ("Give all figures in USD millions.", "answer units"),
    ("Please give all figures in USD millions.", "answer units"),
    ("All figures in USD millions, please.", "answer units"),
    ("Use billions for every figure.", "answer units"),
    ("Express everything in euros.", "answer units"),
    ("I'd like you to answer in euros.", "answer units"),
    ("Please use USD millions throughout.", "answer units"),
    ("Report amounts in thousands from here on.", "answer units"),
    ("I want all numbers rounded to one decimal.", "answer rounding"),
    ("Round everything to two decimals.", "answer rounding"),
    ("Always cite the page.", "cite the page"),
    ("Keep answers to two sentences.", "keep answers to two sentences"),
])
def test_standing_instructions_in_other_words_are_constraints(utterance: str, key: str) -> None:
    kind, got, _value = kept(utterance)
    assert (kind, got) == ("constraint", key)


@pytest.mark.parametrize("utterance", [
    "Show me Ternline's revenue in millions",  # one answer asked for, in millions
    "Give all figures for Ternline in 2024.",
    "Use the FY2024 10-K.",
    "Cite the page for that.",
    "Include Helio in the comparison.",
    "Present the results.",
    "Keep it up",
    "Revenue in millions was 512.",
])
def test_requests_for_one_answer_are_not_standing_instructions(utterance: str) -> None:
    assert decide(utterance).type != "constraint"


def test_a_standing_instruction_replaces_the_one_before_it_on_the_same_aspect() -> None:
    first, second = decide("Give all figures in USD millions."), decide("Use billions for every figure.")
    assert first.key == second.key == "answer units"  # the same key: the second supersedes the first


def test_a_fact_the_user_asks_to_keep_is_written_and_an_aside_is_not_its_value() -> None:
    noted = decide("For my notes: Ternline's FY2024 parcel revenue was £473.2m.")
    assert (noted.type, noted.key, noted.value, noted.correction) == (
        "fact", "ternline's fy2024 parcel revenue", "£473.2m", False)
    assert decide("Remember that Ternline's FY2024 capex was £57.9m.").value == "£57.9m"
    fixed = decide("Actually, Ternline's FY2024 parcel revenue was £437.2m; I transposed the digits.")
    assert (fixed.value, fixed.correction) == ("£437.2m", True)
    # a bare statement is still no request to keep it
    assert decide("Ternline's FY2024 parcel revenue was £437.2m.").type is None
