"""app/memory/semantic_cache.py: a finished answer served again for a paraphrase, never for a question that reads
alike but asks something else, never to another user, and never once it has expired or a cited source changed.

The embedder is a fake: a hashed bag of words, deterministic and instant. Like a real sentence model it reads
"what figure is asked" more than "whose" or "when": names and years weigh little, figure words share one axis,
and "not" is not seen at all. That is what makes the guard necessary, and what these tests put to it.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.memory.semantic_cache import DEFAULT_THRESHOLD, SAME_QUESTION, SemanticCache

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
KNOWN = ["Ternline", "Northwind"]
QUESTION = "What was Ternline's revenue in FY2023?"
SOURCES = {"ternline-ar-2023#p12": "h-12", "ternline-ar-2023#p13": "h-13"}

_DIM = 256
_STOP = {"what", "was", "were", "is", "the", "a", "an", "in", "of", "for", "did", "does", "how", "much", "who",
         "as", "not"}
_NAMES = {"ternline", "northwind"}
_FIGURES = {"revenue", "profit", "income", "margin"}
_VERBS = {"make", "made", "report", "reported"}


def _slot(word: str) -> int:
    return int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big") % _DIM


def _vector(text: str) -> list[float]:
    v = [0.0] * _DIM
    for word in re.findall(r"[a-z0-9]+", text.casefold().replace("'s", "")):
        if word in _STOP:
            continue
        if word in _FIGURES:
            v[_slot("<figure>")] += 1.0
            v[_slot(word)] += 0.3
        elif word in _NAMES or any(ch.isdigit() for ch in word):
            v[_slot(word)] += 0.25
        elif word in _VERBS:
            v[_slot(word)] += 0.4
        else:
            v[_slot(word)] += 1.0
    return v


class FakeEmbed:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, texts):  # type: ignore[no-untyped-def]
        self.calls += 1
        return [_vector(t) for t in texts]


def same(_source_id: str) -> str | None:
    return SOURCES.get(_source_id)


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    return tmp_path / "memory.sqlite"


@pytest.fixture()
def cache(db: Path) -> SemanticCache:
    return SemanticCache(f"sqlite:///{db}", FakeEmbed())


def remember(cache: SemanticCache, question: str = QUESTION, *, user: str = "ana", thread: str = "t-1",
             answer: str = "Revenue was 4,459,440.", sources: dict | None = None, now: datetime = T0) -> str:
    return cache.put(question, user=user, thread=thread, response={"answer": answer}, companies=["Ternline"],
                     fiscal_years=[2023], metric="revenue", sources=SOURCES if sources is None else sources, now=now)


def ask(cache: SemanticCache, question: str, *, user: str = "ana", current_hash=same, now: datetime = T0):  # type: ignore[no-untyped-def]
    return cache.lookup(question, user=user, known_companies=KNOWN, current_hash=current_hash, now=now)


def test_an_exact_repeat_hits(cache: SemanticCache) -> None:
    entry_id = remember(cache)
    found = ask(cache, QUESTION, now=T0 + timedelta(hours=1))
    assert found.hit is not None and found.hit.id == entry_id
    assert found.hit.response == {"answer": "Revenue was 4,459,440."}
    assert found.hit.similarity == pytest.approx(1.0, abs=1e-5)
    assert (found.hit.sources, found.hit.companies, found.hit.fiscal_years, found.hit.metric) == (
        SOURCES, ["Ternline"], [2023], "revenue")
    assert found.hit.created_at == T0
    assert [c.reason for c in found.considered] == ["hit"]


def test_a_repeat_in_other_case_and_punctuation_is_served_without_an_embedding(cache: SemanticCache) -> None:
    entry_id = remember(cache)
    embedded = cache.embed.calls  # type: ignore[attr-defined]
    for repeat in (QUESTION, "what was ternline's revenue in fy2023", "  What was Ternline's revenue, in FY2023 ?"):
        found = ask(cache, repeat)
        assert found.hit is not None and found.hit.id == entry_id and found.hit.similarity == SAME_QUESTION
        assert [(c.question, c.similarity, c.reason) for c in found.considered] == [(QUESTION, SAME_QUESTION, "hit")]
    assert cache.embed.calls == embedded  # type: ignore[attr-defined]


def test_a_repeat_still_goes_through_the_guard(cache: SemanticCache, monkeypatch: pytest.MonkeyPatch) -> None:
    remember(cache)
    judged: list[tuple[str, str]] = []

    def conflict(asked: str, cached: str, known: object = ()) -> str:
        judged.append((asked, cached))
        return "company"

    monkeypatch.setattr("app.memory.semantic_cache.cache_conflict", conflict)
    found = ask(cache, QUESTION)
    assert found.hit is None and [c.reason for c in found.considered] == ["company"]
    assert judged and all(pair == (QUESTION, QUESTION) for pair in judged)
    assert cache.count("ana") == 1  # refused, not invalidated


def test_a_repeat_whose_source_changed_is_deleted_and_a_paraphrase_can_still_serve(cache: SemanticCache) -> None:
    remember(cache, answer="stale")
    paraphrase = "How much revenue did Ternline make in FY2023?"
    remember(cache, paraphrase, answer="fresh", sources={"ternline-ar-2023#p12": "h-12"})
    found = ask(cache, QUESTION, current_hash={**SOURCES, "ternline-ar-2023#p13": "h-13-edited"}.get)
    assert found.hit is not None and found.hit.response == {"answer": "fresh"}
    assert [(c.question, c.reason) for c in found.considered] == [(QUESTION, "source changed"), (paraphrase, "hit")]
    assert found.hit.similarity is not None and found.hit.similarity < SAME_QUESTION  # weighed by its embedding
    assert [e.question for e in cache.entries("ana")] == [paraphrase]


def test_a_paraphrase_above_the_threshold_hits_and_an_unrelated_question_does_not(cache: SemanticCache) -> None:
    remember(cache)
    found = ask(cache, "How much revenue did Ternline make in FY2023?")
    assert found.hit is not None and found.hit.question == QUESTION
    assert DEFAULT_THRESHOLD <= found.hit.similarity < 0.99  # a paraphrase, not the same words
    unrelated = ask(cache, "Who is Ternline's CEO?")
    assert unrelated.hit is None
    assert [(c.question, c.reason) for c in unrelated.considered] == [(QUESTION, "below threshold")]
    assert unrelated.considered[0].similarity < DEFAULT_THRESHOLD


@pytest.mark.parametrize(("cached", "asked", "reason"), [
    (QUESTION, "What was Ternline's revenue in FY2024?", "fiscal year"),
    (QUESTION, "What was Northwind's revenue in FY2023?", "company"),
    (QUESTION, "What was Ternline's profit in FY2023?", "metric"),
    ("Did Ternline's revenue rise in FY2023?", "Did Ternline's revenue not rise in FY2023?", "negation"),
])
def test_a_question_that_reads_alike_but_asks_something_else_is_refused_by_the_guard(
        cache: SemanticCache, cached: str, asked: str, reason: str) -> None:
    remember(cache, cached)
    found = ask(cache, asked)
    assert found.hit is None
    assert [(c.question, c.reason) for c in found.considered] == [(cached, reason)]
    assert found.considered[0].similarity >= DEFAULT_THRESHOLD  # the embedding alone would have served it
    assert cache.count("ana") == 1  # refused, not invalidated


def test_the_best_candidate_that_passes_every_check_is_served(cache: SemanticCache) -> None:
    remember(cache, "Did Ternline's revenue not rise in FY2023?", answer="negated")
    remember(cache, "Did Ternline's revenue rise in FY2023, as reported?", answer="paraphrase")
    found = ask(cache, "Did Ternline's revenue rise in FY2023?")
    assert found.hit is not None and found.hit.response == {"answer": "paraphrase"}
    assert [c.reason for c in found.considered] == ["negation", "hit"]  # the closer one was refused first
    assert found.considered[0].similarity > found.considered[1].similarity


def test_another_users_entries_are_never_candidates(cache: SemanticCache) -> None:
    remember(cache, user="ana", answer="ana's answer")
    embedded = cache.embed.calls  # type: ignore[attr-defined]
    found = ask(cache, QUESTION, user="ben")
    assert found.hit is None and found.considered == []
    assert cache.embed.calls == embedded  # type: ignore[attr-defined]
    remember(cache, user="ben", answer="ben's answer")
    assert (cache.count("ana"), cache.count("ben"), cache.count()) == (1, 1, 2)
    assert ask(cache, QUESTION, user="ana").hit.response == {"answer": "ana's answer"}  # type: ignore[union-attr]
    assert ask(cache, QUESTION, user="ben").hit.response == {"answer": "ben's answer"}  # type: ignore[union-attr]


def test_a_second_answer_to_the_same_question_replaces_the_first(cache: SemanticCache) -> None:
    first = remember(cache, answer="old")
    second = remember(cache, "what was  ternline's revenue in fy2023", thread="t-2", answer="new",
                      now=T0 + timedelta(days=1))
    assert first != second
    assert [(e.id, e.thread, e.response) for e in cache.entries("ana")] == [(second, "t-2", {"answer": "new"})]
    assert ask(cache, QUESTION, now=T0 + timedelta(days=2)).hit.id == second  # type: ignore[union-attr]


def test_an_expired_entry_is_refused_and_deleted(db: Path) -> None:
    cache = SemanticCache(f"sqlite:///{db}", FakeEmbed(), ttl=timedelta(days=30))
    remember(cache)
    assert ask(cache, QUESTION, now=T0 + timedelta(days=29)).hit is not None
    found = ask(cache, QUESTION, now=T0 + timedelta(days=30))
    assert found.hit is None and [c.reason for c in found.considered] == ["expired"]
    assert cache.count() == 0


@pytest.mark.parametrize(("now_hash", "reason"), [("h-13-edited", "source changed"), (None, "source gone")])
def test_a_changed_or_removed_cited_source_invalidates_the_entry_at_lookup(cache: SemanticCache, now_hash,
                                                                            reason: str) -> None:
    remember(cache)
    remember(cache, "What was Ternline's profit in FY2023?", sources={"ternline-ar-2023#p40": "h-40"})
    hashes = {**SOURCES, "ternline-ar-2023#p40": "h-40"}
    assert ask(cache, QUESTION, current_hash=hashes.get).hit is not None
    changed = {**hashes, "ternline-ar-2023#p13": now_hash}
    found = ask(cache, QUESTION, current_hash=changed.get)
    assert found.hit is None
    assert [c.reason for c in found.considered] == [reason, "metric"]  # then the profit entry, refused by the guard
    assert [e.question for e in cache.entries()] == ["What was Ternline's profit in FY2023?"]  # it stays


def test_invalidate_sources_deletes_only_the_entries_citing_a_changed_source(cache: SemanticCache) -> None:
    remember(cache, sources={"a#1": "ha", "shared#1": "hs"})
    remember(cache, "What was Ternline's profit in FY2023?", sources={"b#1": "hb", "shared#1": "hs"})
    assert cache.invalidate_sources({"unrelated#9": "hx"}) == 0
    assert cache.invalidate_sources({"a#1": "ha", "shared#1": "hs"}) == 0  # re-ingested, same content
    assert cache.count() == 2
    assert cache.invalidate_sources({"a#1": "ha-2"}) == 1
    assert [e.question for e in cache.entries()] == ["What was Ternline's profit in FY2023?"]
    remember(cache, sources={"a#1": "ha-2"})
    assert cache.invalidate_sources({"b#1": None}) == 1  # removed
    assert [e.question for e in cache.entries()] == [QUESTION]


def test_forget_deletes_a_users_or_a_threads_entries(cache: SemanticCache, db: Path) -> None:
    remember(cache, "What was Ternline's marker7f3a revenue in FY2023?", thread="t-1")
    remember(cache, "What was Ternline's profit in FY2023?", thread="t-2")
    remember(cache, user="ben", thread="t-9")

    def rows(where: str) -> list:
        with sqlite3.connect(db) as conn:
            return conn.execute(f"SELECT question FROM semantic_answers WHERE {where}").fetchall()

    assert len(rows("question LIKE '%marker7f3a%'")) == 1
    assert cache.forget(thread="t-1") == 1
    assert rows("question LIKE '%marker7f3a%'") == []  # deleted, not marked
    assert (cache.count("ana"), cache.count("ben")) == (1, 1)
    assert cache.forget(user="ana") == 1
    assert rows("user = 'ana'") == [] and cache.count("ana") == 0
    assert [e.user for e in cache.entries()] == ["ben"]
    with pytest.raises(ValueError):
        cache.forget()


def test_a_miss_on_an_empty_cache_embeds_nothing(cache: SemanticCache) -> None:
    found = ask(cache, QUESTION)
    assert found.hit is None and found.considered == []
    assert cache.embed.calls == 0  # type: ignore[attr-defined]


def test_has_repeat_is_a_hint_for_the_same_words_of_the_same_user_before_the_ttl(db: Path) -> None:
    cache = SemanticCache(f"sqlite:///{db}", FakeEmbed(), ttl=timedelta(days=30))
    remember(cache)
    assert cache.has_repeat(QUESTION.upper() + "  ", user="ana", now=T0 + timedelta(days=1))
    assert not cache.has_repeat(QUESTION, user="bo", now=T0 + timedelta(days=1))
    assert not cache.has_repeat(QUESTION.replace("2023", "2022"), user="ana", now=T0 + timedelta(days=1))
    assert not cache.has_repeat(QUESTION, user="ana", now=T0 + timedelta(days=31))
    assert not cache.has_repeat("   ", user="ana")
