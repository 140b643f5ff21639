"""Answers from memory: a question about what the user told Prov, answered from their records, not documents.

    answer_from_memory(question, store_or_records, *, user="local", thread=None) -> MemoryAnswer | None

`store_or_records` is a `MemoryStore` (then the user's records, user-wide and of `thread`, every status, are
read) or the records themselves (any iterable of `MemoryRecord`, e.g. `store.list_records(user,
include_all=True)`). Only active and superseded records count; provisional and expired ones never.

What is answered, by rule over wording families, not by sentence:
- the current value of a key the question asks for: "What is my favourite colour?", "What's my favorite
  color?", "Which colour do I like best?", "What is my name?", "What should you call me?" -> the active
  record ('Purple');
- a key's history, when the question asks for all of it (a plural of the key, or "all", "every", "ever", "so
  far"): "What have been all of the names that I have given you?", "What names have I told you?" -> every
  value the key held, oldest first, each once (active and superseded records);
- a list ('shopping list', or any '<x> list' the user keeps): "What is on my current shopping list?", "What do
  I need to buy?", "What's on my list?" -> its items and quantities; a JSON list of {"item", "quantity"} when
  the question asks for JSON, else prose ("Your shopping list is empty." when all was removed);
- standing instructions: "What units did I ask for?" -> the 'answer units' constraint; "How did I ask you to
  round?" -> 'answer rounding'; "What instructions have I given you?" -> all of them;
- a fact the user stated, asked as theirs: "What did I say Ternline's FY2023 revenue was?".
A question in the first person about something else ("What was Ternline's revenue in my fiscal year 2023?")
is not about the record, and a question not in the first person ("What was Ternline's revenue?") never is:
both get None, as does a question no record matches. The caller then answers from documents.

The answer's `text` is what to say; `value` the answer as data (a str, a list of str for a history, a list of
{"item", "quantity"} for a list, a list of str for constraints); `record_ids` the records it came from.
Deterministic and offline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from app.memory.policy import fold_spelling, list_items
from app.memory.records import MemoryRecord, MemoryStore
from app.text.sentences import split_at_stops

AnswerKind = Literal["value", "history", "previous", "list", "constraints"]


@dataclass(frozen=True)
class MemoryAnswer:
    """An answer from the user's records: `text` to say, `value` as data, the `record_ids` used, the record
    `key` asked for ('' for several constraints) and the `kind` of answer."""

    text: str
    record_ids: tuple[str, ...]
    key: str = ""
    kind: AnswerKind = "value"
    value: Any = field(default=None, compare=False)


_FIRST_PERSON = re.compile(r"(?i)\b(?:my|me|i|i've|i'm|i'd|i'll|mine|myself)\b")
_FORMAT = re.compile(r"(?i)\b(?:json|format|express|consolidate|properties|comma[- ]separated|bullet|markdown|"
                     r"table|one word|single word|sentence|capitali[sz]e|lower ?case|upper ?case)\b")
_FORMAT_LEAD = re.compile(r"(?i)[(,;:]|\b(?:as|in|into|using|with|formatted|expressed)\b")
_JSON = re.compile(r"(?i)\bjson\b")
_WORD = re.compile(r"[\w'’-]+")
_HISTORY = re.compile(r"(?i)\b(?:all|every|each|ever|so far|history|over time|different|until now|to date)\b")
_PREVIOUS = re.compile(r"(?i)\b(?:before|previous(?:ly)?|used to|earlier|former|old|last time|prior)\b")
_SAID = re.compile(r"(?i)\b(?:did i (?:say|tell|mention|give|state|write|note)|i (?:said|told|mentioned|gave|"
                   r"stated|noted|wrote)|have i (?:said|told|mentioned|given|stated)|according to me)\b")
_NAME_ASK = re.compile(r"(?i)\b(?:call me|called|address me|refer to me|go by|who am i|names?)\b")
_LIST_ASK = re.compile(r"(?i)\b(?:my|the|our|this|that)\s+(?:[\w-]+\s+){0,2}?(?:list|basket|cart|trolley)\b")
_BUY_ASK = re.compile(r"(?i)^(?:so\s+|and\s+|then\s+)?(?:what|which\s+(?:items|things))\b(?:(?!\b(?:if|when|where|how)\b).)*"
                      r"\b(?:i|we)\s+(?:still\s+|also\s+)?(?:need|have|want|plan|am going|are going|meant|wanted)\s+"
                      r"to\s+(?:buy|purchase|get|pick up|shop for)(?:\s+(?:at|from)\s+the\s+(?:shop|store|supermarket))?"
                      r"[\s?.!]*$")
"""'What do I need to buy?', 'What else do I still need to pick up?': the shopping list, unnamed."""
_UNITS_ASK = re.compile(r"(?i)\b(?:units?|currency|currencies|scale|millions|thousands|billions)\b")
_ROUND_ASK = re.compile(r"(?i)\b(?:round(?:ing|ed)?|decimals?|decimal places?|precision)\b")
_RULES_ASK = re.compile(r"(?i)\b(?:instructions?|preferences?|rules?|asked you to|told you to|ask(?:ed)? you for|"
                        r"standing)\b")
_CONSTRAINT_ASK = re.compile(r"(?i)\b(?:did i (?:ask|tell|request|want|say|give|set)|have i (?:asked|told|requested|"
                             r"given|set)|i (?:asked|told|requested|wanted|said|gave|set)|my (?:instructions?|"
                             r"preferences?|rules?))\b")
_LIKE_BEST = re.compile(r"(?i)\b(?:like|love|prefer|enjoy)\s+(?:the\s+)?(?:best|most)\b|\bpreferred\b")
_STOPWORDS = frozenset("""
a an the what what's whats which who who's whom whose how when where why is are was were be been being have has had do does did
i i've i'm i'd me my mine myself you your yours it its that this these those of on in to for at by with from about
as all every each any so far ever now currently current latest today still again please tell told say said saying
mention mentioned give given gave know remember recall remind can could would will should shall there here and or
us we our ours many much one ones up since used different also just exactly back then than thus any anything
everything things thing stuff right currently presently moment time times point until date over history kept
keep keeping stored store noted note wanted want asked ask like love prefer best most gone go by items item basket
cart trolley
""".split())
_HOW_TO = re.compile(r"(?i)^(?:so\s+|and\s+)?(?:how|where|why)\s+(?:do|can|could|should|would|might|may|to)\b")
"""'How do I change my name?': a how-to, not a question about the record."""
_ACTIONS = frozenset("""
change changing changed update updating reset delete remove forget spell spelled pronounce pronounced write choose
pick find make register legally apply applying file filing sign signing add adding transfer move moving
""".split())
"""Verbs that make a question about doing something to the key ('change my name'), not about its value."""
_PLURAL_WORDS = {"names": "name", "colours": "colour", "colors": "colour"}


def answer_from_memory(question: str, store_or_records: MemoryStore | Iterable[MemoryRecord], *,
                       user: str = "local", thread: str | None = None) -> MemoryAnswer | None:
    """The answer to a question about the user's own records (see the module), or None."""
    text = " ".join(question.split())
    if not text or not _FIRST_PERSON.search(text) or _HOW_TO.match(text):
        return None
    records = _records(store_or_records, user, thread)
    if not records:
        return None
    asked = _canonical_question(_asked_part(text))
    wants_json = bool(_JSON.search(text))
    keys = _keys(records)

    if found := _list_answer(asked, records, keys, wants_json):
        return found
    if found := _constraint_answer(asked, records):
        return found
    key = _asked_key(asked, keys)
    if key is None and _NAME_ASK.search(asked) and "name" in keys and _about(asked, "name"):
        key = "name"
    if key is None:
        return None
    typed = {r.type for r in records if r.key == key}
    if typed <= {"fact", "decision"} and not _SAID.search(asked):
        return None  # a fact the user stated is answered from it only when asked as theirs
    if _asks_history(asked, key):
        return _history_answer(key, records, wants_json)
    if _PREVIOUS.search(asked):
        return _previous_answer(key, records)
    return _value_answer(key, records)


# --- reading ----------------------------------------------------------------------------------------------


def _records(source: MemoryStore | Iterable[MemoryRecord], user: str, thread: str | None) -> list[MemoryRecord]:
    if isinstance(source, MemoryStore):
        rows = [r for r in source.list_records(user, include_all=True) if r.thread is None or r.thread == thread]
    else:
        rows = list(source)
    return [r for r in rows if r.status in ("active", "superseded")]


def _asked_part(text: str) -> str:
    """The question without its formatting instructions: a sentence that only says how to answer ('Express the
    list as a JSON list ...') is dropped, and a trailing 'as JSON (...)' cut off."""
    kept = []
    for sentence in split_at_stops(text):
        fmt = _FORMAT.search(sentence)
        if fmt is None:
            kept.append(sentence)
        elif _FIRST_PERSON.search(sentence[:fmt.start()]):
            cuts = [m.start() for m in _FORMAT_LEAD.finditer(sentence[:fmt.start()])]
            kept.append(sentence[:cuts[-1]] if cuts else sentence)
    return " ".join(kept) or text


def _keys(records: list[MemoryRecord]) -> list[str]:
    return sorted({r.key for r in records}, key=lambda k: (-len(k.split()), k))


def _canonical_question(text: str) -> str:
    """Lower case, American spellings folded, 'like best' read as 'favourite'."""
    return _LIKE_BEST.sub("favourite", fold_spelling(text.casefold().replace("’", "'")))


def _words(text: str) -> list[str]:
    return [w.strip("'-") for w in _WORD.findall(text) if w.strip("'-")]


def _forms(word: str) -> set[str]:
    forms = {word, word + "s", word + "es"}
    if word.endswith("y"):
        forms.add(word[:-1] + "ies")
    return forms


def _mentions(asked: str, key: str) -> tuple[bool, bool]:
    """Whether every word of `key` is in the question (its last word also as a plural), and whether that last
    word was a plural."""
    words = _words(asked)
    key_words = _words(key)
    if not key_words:
        return False, False
    *head, last = key_words
    if any(w not in words for w in head):
        return False, False
    if last in words:
        return True, False
    plural = any(w in _forms(last) and w != last for w in words)
    return plural, plural


def _residue(asked: str, key: str) -> list[str]:
    """The question's content words that are not the key's: what else it asks about."""
    key_forms = set().union(*(_forms(w) for w in _words(key)))
    return [w for w in _words(asked) if w not in _STOPWORDS and w not in key_forms]


def _about(asked: str, key: str) -> bool:
    """Whether the question asks for the key itself, not about something else in the user's terms ('revenue in
    my fiscal year 2023'): at most one other content word, and no other owner ('my dog's name')."""
    if re.search(rf"\b\w+'s\s+{re.escape(_words(key)[-1])}", asked) and "'s" not in key:
        return False
    residue = _residue(asked, key)
    return len(residue) <= 1 and not _ACTIONS.intersection(residue)


def _asked_key(asked: str, keys: list[str]) -> str | None:
    for key in keys:  # the longest keys first: 'dog's name' before 'name'
        mentioned, _ = _mentions(asked, key)
        if mentioned and _about(asked, key):
            return key
    return None


def _asks_history(asked: str, key: str) -> bool:
    _, plural = _mentions(asked, key)
    return plural or bool(_HISTORY.search(asked)) or any(p in _words(asked) for p in _PLURAL_WORDS if
                                                         _PLURAL_WORDS[p] == key)


def _active(key: str, records: list[MemoryRecord]) -> MemoryRecord | None:
    active = [r for r in records if r.key == key and r.status == "active"]
    return max(active, key=lambda r: (r.thread is not None, r.created_at)) if active else None


def _ordered(key: str, records: list[MemoryRecord]) -> list[MemoryRecord]:
    """A key's records oldest first: by time, and, at one time, by how many records each supersedes."""
    rows = [r for r in records if r.key == key]
    by_id = {r.id: r for r in rows}

    def depth(record: MemoryRecord) -> int:
        seen, n, cur = set(), 0, record
        while cur.supersedes and cur.supersedes in by_id and cur.supersedes not in seen:
            seen.add(cur.supersedes)
            cur, n = by_id[cur.supersedes], n + 1
        return n

    return sorted(rows, key=lambda r: (r.created_at, depth(r)))


# --- answers ----------------------------------------------------------------------------------------------


def _value_answer(key: str, records: list[MemoryRecord]) -> MemoryAnswer | None:
    record = _active(key, records)
    if record is None:
        return None
    return MemoryAnswer(_say(record), (record.id,), key, "value", record.value)


def _say(record: MemoryRecord) -> str:
    value = record.value
    if record.type in ("fact", "decision"):
        return f'You told me: "{record.said}"' if record.said else f"You told me {record.key} is {value}."
    if record.type == "constraint":
        return f"You asked me to {value}."
    if record.key == "who i am":
        return "You told me you " + re.sub(r"^am\b", "are", value) + "."
    if re.match(r"(?i)(?:ends?|starts?|runs?|was|were)\b", value):
        return f"Your {record.key} {value}."
    return f"Your {record.key} is {value}."


def _history_answer(key: str, records: list[MemoryRecord], wants_json: bool) -> MemoryAnswer | None:
    rows = _ordered(key, records)
    values: list[str] = []
    for r in rows:
        if r.value.casefold() not in {v.casefold() for v in values}:
            values.append(r.value)
    if not values:
        return None
    plural = "names" if key == "name" else key + "s"
    text = json.dumps(values, ensure_ascii=False) if wants_json else f"You have given me these {plural}: " + (
        values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]) + "."
    return MemoryAnswer(text, tuple(r.id for r in rows), key, "history", values)


def _previous_answer(key: str, records: list[MemoryRecord]) -> MemoryAnswer | None:
    rows = _ordered(key, records)
    current = _active(key, records)
    earlier = [r for r in rows if current is None or r.id != current.id]
    if not earlier:
        return _value_answer(key, records)
    record = earlier[-1]
    return MemoryAnswer(f"Before that, your {key} was {record.value}.", (record.id,), key, "previous", record.value)


def _list_answer(asked: str, records: list[MemoryRecord], keys: list[str], wants_json: bool) -> MemoryAnswer | None:
    lists = [k for k in keys if k.endswith(" list") and any(r.type == "task_state" and r.key == k for r in records)]
    if not lists:
        return None
    named = [k for k in lists if _mentions(asked, k)[0]]
    if named:
        key = named[0]
    elif (_LIST_ASK.search(asked) or _BUY_ASK.search(asked)) and ("shopping list" in lists or len(lists) == 1):
        key = "shopping list" if "shopping list" in lists else lists[0]
    else:
        return None
    if not (_about(asked, key) or _BUY_ASK.search(asked)):
        return None
    record = _active(key, records)
    if record is None:
        return None
    items = [{"item": item, "quantity": qty} for item, qty in list_items(record.value).items()]
    if wants_json:
        text = json.dumps(items, ensure_ascii=False)
    elif items:
        text = f"Your {key}: " + ", ".join(f"{d['quantity']} {d['item']}" for d in items) + "."
    else:
        text = f"Your {key} is empty."
    return MemoryAnswer(text, (record.id,), key, "list", items)


def _constraint_answer(asked: str, records: list[MemoryRecord]) -> MemoryAnswer | None:
    if not _CONSTRAINT_ASK.search(asked):
        return None
    active = [r for r in records if r.type == "constraint" and r.status == "active"]
    if _UNITS_ASK.search(asked):
        chosen = [r for r in active if r.key == "answer units"]
    elif _ROUND_ASK.search(asked):
        chosen = [r for r in active if r.key == "answer rounding"]
    elif _RULES_ASK.search(asked):
        chosen = sorted(active, key=lambda r: r.created_at)
    else:
        return None
    if not chosen:
        return None
    if len(chosen) == 1:
        return MemoryAnswer(_say(chosen[0]), (chosen[0].id,), chosen[0].key, "constraints", [chosen[0].value])
    text = "You asked me to: " + "; ".join(r.value for r in chosen) + "."
    return MemoryAnswer(text, tuple(r.id for r in chosen), "", "constraints", [r.value for r in chosen])
