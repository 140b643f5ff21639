"""The supervisor's memory steps: `read_memory` (a gather branch beside retrieval and news) and `write_memory`
(after the answer), with `after_enrich`, which sends a turn that only states something straight to the write.

read_memory runs when the route plan's `memory_read` asks for it, and reads only the user's active records of
the types the plan names (superseded, provisional and expired records never reach a prompt). Records are
ranked, then admitted within a count and a token budget; each admitted or refused record keeps why (type,
scope, status, source, score, tokens), which the manifest and `prov trace` show:
- a standing constraint ("answer in millions") applies to every answer: it ranks first;
- a fact ("Ternline's FY2023 revenue was $512m") counts only for a question about the same thing: the
  companies and fiscal years its key names must be the question's, and most of its key's words must be asked;
- a profile or task record counts when the question shares its key's words or speaks of the user ("my", "our").

write_memory runs the write policy (app/memory/policy.py) on each sentence the user wrote this turn (the
question, and any clarification reply): explicit statements, instructions and corrections are written, a
correction superseding the record it replaces; everything else is refused with the rule, for the trace. What
documents said never passes through it. A turn that only states something ("My fiscal year ends in June.")
needs no search: `after_enrich` sends it to write_memory, which answers with what it noted.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

from app.text.periods import years_named
from app.text.sentences import split_at_stops
from app.turns import MemoryItem, MemoryWrite, as_said
from nodes.state import SupervisorState

TYPES_BY_PLAN: dict[str, tuple[str, ...]] = {
    "none": (),
    "profile": ("constraint", "profile"),
    "facts": ("constraint", "profile", "fact", "decision"),
    "thread": ("constraint", "profile", "fact", "decision", "task_state"),
}
"""Which record types each `memory_read` of the route plan reads."""

FACT_MIN_OVERLAP = 0.5
"""A fact is admitted when at least this share of its key's words are in the question (and its companies and
years agree)."""

_FIRST_PERSON = re.compile(r"(?i)\b(?:my|our|me|i|we|us)\b")


# --- read ---------------------------------------------------------------------------------------------------


def read_memory(state: SupervisorState, *, store: Any, count: Callable[[str], int], max_records: int = 6,
                max_tokens: int = 300, known_companies: Callable[[], Sequence[str]] = list) -> dict[str, Any]:
    """The user's active records the plan asks for, ranked, within the count and token budgets."""
    decision = state.get("decision")
    wanted = TYPES_BY_PLAN.get(decision.plan.memory_read if decision is not None else "none", ())
    if store is None or not wanted:
        return {"memory": []}
    records = store.active(state.get("user") or "local", state.get("thread") or None, wanted)
    question = state.get("question") or ""
    known = list(known_companies())
    # Standing instructions first, then by relevance, newest first among equals.
    scored = sorted(((relevance(r, question, known), r) for r in records),
                    key=lambda pair: (pair[1].type != "constraint", -pair[0], -pair[1].created_at.timestamp()))
    items: list[MemoryItem] = []
    used = 0
    admitted = 0
    over_tokens = False
    for score, record in scored:
        tokens = count(memory_text(record))
        item = MemoryItem(id=record.id, type=record.type, key=record.key, value=record.value, said=record.said,
                          scope=record.scope, status=record.status, source=record.source,
                          created_at=record.created_at.isoformat(timespec="seconds"), supersedes=record.supersedes,
                          score=round(score, 3), tokens=tokens)
        if score <= 0:
            item.rule = "not about this question"
        elif admitted >= max_records:
            item.rule = f"over the memory count budget ({max_records} records)"
        elif over_tokens or used + tokens > max_tokens:
            over_tokens = True  # rank order holds: a smaller, lower-ranked record does not jump a refused one
            item.rule = f"over the memory token budget ({max_tokens} tokens)"
        else:
            item.admitted, item.rule = True, _why(record.type)
            admitted += 1
            used += tokens
        items.append(item)
    return {"memory": items}


def _why(type_: str) -> str:
    return {"constraint": "a standing instruction applies to every answer",
            "fact": "the user's statement about what the question asks",
            "profile": "about the user, and the question speaks of them or of it",
            }.get(type_, "matches the question")


def relevance(record: Any, question: str, known_companies: Sequence[str] = ()) -> float:
    """How much a record bears on the question, 0 (not at all) to 1 (a constraint, or a fact about exactly it)."""
    if record.type == "constraint":
        return 1.0
    overlap = key_overlap(record.key, question)
    if record.type in ("fact", "decision"):
        return overlap if overlap >= FACT_MIN_OVERLAP and fact_agrees(record.key, question, known_companies) else 0.0
    if _FIRST_PERSON.search(question):
        return max(overlap, 0.3)
    return overlap


def key_overlap(key: str, question: str) -> float:
    """The share of the key's content words that the question uses (word stems, so 'revenues' is 'revenue')."""
    from app.text.terms import topic_terms

    key_terms = topic_terms(key, [])
    if not key_terms:
        return 0.0
    return len(key_terms & topic_terms(question, [])) / len(key_terms)


def fact_agrees(key: str, question: str, known_companies: Sequence[str] = ()) -> bool:
    """A fact about a company, a year or a measure counts only for a question about that company, that year and
    that measure."""
    from app.memory.guard import companies_in_text, measures_in

    key_companies = companies_in_text(key, known_companies)
    if key_companies and not key_companies <= companies_in_text(question, known_companies):
        return False
    key_measures = measures_in(key)  # 'net income' is not 'operating income', however many words they share
    if key_measures and not key_measures & measures_in(question):
        return False
    # every word of what the fact is about must be asked: 'contract warehousing revenue' is a segment's, no
    # answer to 'what revenue did Northwind report?' (company names and years aside)
    from app.text.terms import topic_terms

    names = topic_terms(" ".join(known_companies), [])
    about = {t for t in topic_terms(key, []) - names if not years_named(t) and not t.startswith("fy")}
    if not about <= topic_terms(question, []):
        return False
    key_years = set(years_named(key))
    return not key_years or key_years <= set(years_named(question))


def memory_text(record: Any) -> str:
    """A record (or a read MemoryItem) as the prompt holds it: the user's own words when kept, else key and value.
    read_memory's token budget and the assembler count this same text."""
    return record.said or f"{record.key}: {record.value}"


# --- write --------------------------------------------------------------------------------------------------


def user_sentences(state: SupervisorState) -> list[str]:
    """What the user wrote this turn, sentence by sentence: the question as asked and every clarification reply."""
    texts = [state.get("asked") or "", *(c.get("reply", "") for c in state.get("clarifications") or [])]
    return [s.strip() for text in texts for s in split_at_stops(text) if s.strip()]


def only_statements(state: SupervisorState) -> bool:
    """Whether every sentence of the turn is something to remember (and none asks anything)."""
    from app.memory.policy import decide_turn

    sentences = user_sentences(state)
    return bool(sentences) and all(d.kept for d in decide_turn(sentences))


def after_enrich(state: SupervisorState) -> Literal["write_memory", "answer_from_memory", "cache_lookup"]:
    """A turn that only states something is noted, not searched for; a question about what the user told Prov
    is answered from memory; anything else goes on to the cache and the router."""
    if only_statements(state):
        return "write_memory"
    if state.get("memory_answer"):
        return "answer_from_memory"
    return "cache_lookup"


def write_memory(state: SupervisorState, *, store: Any, cache: Any = None) -> dict[str, Any]:
    """Write what the policy keeps of the user's sentences; for a statement-only turn, answer with what was noted.
    A kept record changes what answers should say, so the user's cached answers are dropped with it."""
    from app.memory.policy import decide_turn, remember

    if store is None:
        return {"memory_writes": []}
    user = state.get("user") or "local"
    thread = state.get("thread") or None
    source = state.get("turn_source") or f"{thread or '-'}:{_checkpoint_id() or '-'}"
    writes: list[MemoryWrite] = []
    sentences = user_sentences(state)
    for sentence, decision in zip(sentences, decide_turn(sentences)):
        record = remember(store, user, thread, decision, source)
        if record is None:
            writes.append(MemoryWrite(text=sentence, kept=False, rule=decision.rule))
            continue
        writes.append(MemoryWrite(text=sentence, kept=True, record_id=record.id, type=record.type, key=record.key,
                                  value=record.value, supersedes=record.supersedes,
                                  rule="correction: supersedes the earlier record" if record.supersedes
                                  else "an explicit statement by the user"))
    if cache is not None and any(w.kept for w in writes):
        cache.forget(user=user)
    update: dict[str, Any] = {"memory_writes": writes}
    # Every sentence kept is what `only_statements` asks; the writes already say it.
    if writes and all(w.kept for w in writes) and state.get("status") is None:
        update.update(status="noted", draft=noted_answer(writes))
    return update


def noted_answer(writes: Sequence[MemoryWrite]) -> str:
    """'Noted: answer units = answer in millions (replaces your earlier statement).'"""
    parts = []
    for w in writes:
        if not w.kept:
            continue
        # The old value is not repeated: this answer goes into the history, which must not bring it back.
        parts.append(f"{as_said(w.key, w.text)} = {w.value}" + (" (replaces your earlier statement)"
                                                               if w.supersedes else ""))
    return "Noted: " + "; ".join(parts) + "." if parts else "Nothing to note."


def _checkpoint_id() -> str | None:
    """The checkpoint the running turn started this step from (the turn's state), when run inside a graph."""
    try:
        from langgraph.config import get_config

        return (get_config().get("configurable", {}).get("checkpoint_map") or {}).get("")
    except RuntimeError:  # called outside a graph run (unit tests)
        return None


# --- answers from memory ------------------------------------------------------------------------------------


def find_memory_answer(state: SupervisorState, *, store: Any, answer_fn: Callable[..., Any] | None) -> dict[str, Any]:
    """A question about what the user told Prov ('what is my favourite colour?') is answered from the records."""
    if store is None or answer_fn is None or only_statements(state):
        return {"memory_answer": None}
    found = answer_fn(state.get("asked") or state.get("question") or "", store, user=state.get("user") or "local",
                      thread=state.get("thread") or None)
    if found is None:
        return {"memory_answer": None}
    return {"memory_answer": {"text": found.text, "record_ids": list(found.record_ids)}}


def answer_from_memory(state: SupervisorState) -> dict[str, Any]:
    found = state.get("memory_answer") or {}
    return {"status": "answered", "draft": found.get("text", "")}
