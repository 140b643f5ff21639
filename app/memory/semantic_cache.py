"""The semantic answer cache: a finished answer served again for the same question however it is worded.

An entry is one user's standalone question, its embedding and the response it got, with what the answer rests
on: the companies, fiscal years and metric it is about, and every cited source with its content hash at answer
time. A repeat of a cached question (the same normalised words, the commonest hit) is found by its key with no
embedding computed, and served when it passes the same checks below (the guard, the TTL, the sources) with
similarity `SAME_QUESTION`. Otherwise a lookup ranks the user's entries by cosine similarity to the new question and
serves the best one that clears the threshold and every check, in this order, each refusal kept with its reason for
the trace:

- 'below threshold': the questions do not read alike enough (`DEFAULT_THRESHOLD`);
- 'company', 'fiscal year', 'period', 'metric', 'negation', 'intent': `guard.cache_conflict` tells them apart,
  whatever
  the similarity. This is the known failure of semantic caches: an embedding puts "Ternline's revenue in FY2023"
  within 0.03 of "... in FY2024" (closer than most paraphrases), and a cache trusting the score alone serves
  one year's figure for the other;
- 'expired': past `expires_at` (the TTL);
- 'source changed' / 'source gone': a cited source's content hash is no longer the one answered from.

An entry refused as expired or for a source is deleted there and then, so a re-ingest that changes a cited
source invalidates the entries citing it, and only those (an ingest does not empty the cache);
`invalidate_sources` deletes them ahead of time for a caller that knows what changed. Entries are scoped per user: another user's are never
candidates, and a user with no entries costs no embedding. A second answer to the same normalised question
replaces the first; `forget` deletes a user's or a thread's entries outright.

SQLAlchemy Core over any database URL, on the engine `records.memory_engine` makes (SQLite: WAL, busy timeout);
vectors are kept in the rows (`vectors.to_blob`). The graph's `cache_lookup` and `remember` use it
(nodes/conversation.py).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple

from pydantic import BaseModel
from sqlalchemy import Column, LargeBinary, MetaData, String, Table, Text, and_, delete, func, select, true

from app.memory.guard import cache_conflict
from app.memory.records import create_tables, memory_engine
from app.memory.vectors import cosine_scores, to_blob


def normalise_question(question: str) -> str:
    """One spelling per question: case, spacing and punctuation folded (a repeat replaces its entry)."""
    words = re.findall(r"[\w£$€%.]+", question.casefold())
    return " ".join(w.strip(".") for w in words if w.strip("."))


DEFAULT_THRESHOLD = 0.85
"""The cosine similarity at or above which two questions count as the same one (then the guard decides).

Measured with the local all-MiniLM-L6-v2 against "What was Ternline's revenue in FY2023?": paraphrases score
0.86-0.96 ("How much revenue did Ternline make in fiscal 2023?" 0.855, "Ternline FY2023 revenue?" 0.911,
"Tell me Ternline's FY2023 revenue." 0.928, "What were Ternline's revenues for FY2023?" 0.959); other questions
about the same company that the guard cannot tell apart score below it ("Who is Ternline's CEO?" / "... CFO?"
0.776, "Where is Ternline headquartered?" / "Where does Ternline operate?" 0.841, dividend vs buyback policy
0.748, "Who is Ternline's CEO?" 0.612). A miss costs one normal run and a wrong hit a wrong answer, so the
threshold sits above the near-misses and gives up the loosest paraphrases ("Ternline revenue for the 2023 fiscal
year" 0.812). Year, company, period and metric differences score 0.69-0.97 and are the guard's to refuse.
No threshold refuses a question about the same figure that asks something else of it: "What drove Ternline's
revenue in FY2023?" scores 0.965, "... revenue growth ..." 0.957, "Why did Ternline's revenue fall ...?" 0.927,
and the guard passes all three today.
"""
SAME_QUESTION = 1.0
"""The similarity a lookup reports for the entry of the same normalised question (`normalise_question`): found by
its key before any embedding is computed, as the same question by definition."""
DEFAULT_TTL = timedelta(days=30)
CONSIDERED = 3
"""How many ranked candidates a lookup reports with their reasons (the hit included)."""

BELOW_THRESHOLD = "below threshold"
EXPIRED = "expired"
SOURCE_CHANGED = "source changed"
SOURCE_GONE = "source gone"
HIT = "hit"

Embed = Callable[[Sequence[str]], list[list[float]]]

_meta = MetaData()
semantic_answers = Table(
    "semantic_answers", _meta,
    Column("id", String, primary_key=True),
    Column("user", String, nullable=False, index=True),
    Column("thread", String, nullable=True, index=True),
    Column("key", Text, nullable=False, index=True),  # the normalised question: one entry per user and key
    Column("question", Text, nullable=False),
    Column("embedding", LargeBinary, nullable=False),
    Column("response", Text, nullable=False),
    Column("companies", Text, nullable=False, default="[]"),
    Column("fiscal_years", Text, nullable=False, default="[]"),
    Column("metric", Text, nullable=False, default=""),
    Column("sources", Text, nullable=False, default="{}"),
    Column("created_at", String, nullable=False),
    Column("expires_at", String, nullable=False),
)


class CachedAnswer(BaseModel):
    id: str
    user: str
    thread: str | None
    question: str
    response: dict[str, Any]
    companies: list[str]
    fiscal_years: list[int]
    metric: str
    sources: dict[str, str]
    created_at: datetime
    expires_at: datetime
    similarity: float | None = None
    """To the question looked up; None in a listing."""


class Considered(NamedTuple):
    question: str
    similarity: float
    reason: str


@dataclass
class CacheLookup:
    hit: CachedAnswer | None = None
    considered: list[Considered] = field(default_factory=list)
    """The top candidates in rank order, each with why it was refused ('hit' for the one served)."""


class SemanticCache:
    def __init__(self, url: str, embed: Embed, *, threshold: float = DEFAULT_THRESHOLD,
                 ttl: timedelta = DEFAULT_TTL) -> None:
        self.engine = memory_engine(url)
        create_tables(self.engine, _meta)
        self.embed = embed
        self.threshold = threshold
        self.ttl = ttl

    def put(self, question: str, *, user: str, thread: str | None, response: dict[str, Any],
            companies: Sequence[str], fiscal_years: Sequence[int], metric: str | None,
            sources: Mapping[str, str], now: datetime | None = None) -> str:
        """Cache `response` as the answer to `question` for `user`; its id. `sources` maps every cited source id
        to its content hash now (required: an entry citing nothing would outlive any re-ingest). An older entry of
        the user for the same normalised question is replaced in the same transaction."""
        key = normalise_question(question)
        if not key:
            raise ValueError("a cached answer needs a question")
        now = _utc(now)
        entry_id = uuid.uuid4().hex
        row = {
            "id": entry_id, "user": user, "thread": thread, "key": key, "question": question.strip(),
            "embedding": to_blob(self.embed([question])[0]), "response": json.dumps(response),
            "companies": json.dumps(list(companies)), "fiscal_years": json.dumps([int(y) for y in fiscal_years]),
            "metric": metric or "", "sources": json.dumps(dict(sources), sort_keys=True),
            "created_at": _stamp(now), "expires_at": _stamp(now + self.ttl),
        }
        with self.engine.begin() as conn:
            conn.execute(delete(semantic_answers).where(semantic_answers.c.user == user,
                                                        semantic_answers.c.key == key))
            conn.execute(semantic_answers.insert().values(**row))
        return entry_id

    def lookup(self, question: str, *, user: str, known_companies: Sequence[str] = (),
               current_hash: Callable[[str], str | None], now: datetime | None = None) -> CacheLookup:
        """The best of the user's entries that reads like `question` and passes every check, with the reasons
        the top candidates were refused: the entry of the same normalised question when it passes (no embedding
        computed), else the best ranked by similarity. Entries refused as expired or for a changed source are
        deleted."""
        key = normalise_question(question)
        if not key:
            return CacheLookup()
        now = _utc(now)
        hashes: dict[str, str | None] = {}
        mine = semantic_answers.c.user == user
        with self.engine.connect() as conn:
            # A repeat (the commonest hit) is served by its key, however many entries the user has, and without
            # an embedding, through the same guard, TTL and source checks. Refused, it is weighed again below.
            repeat = conn.execute(select(semantic_answers).where(mine, semantic_answers.c.key == key)
                                  .order_by(semantic_answers.c.created_at.desc()).limit(1)).mappings().first()
            if repeat is not None:
                entry = _entry(repeat, SAME_QUESTION)
                if self._refusal(question, entry, known_companies, current_hash, hashes, now) is None:
                    return CacheLookup(hit=entry, considered=[Considered(entry.question, SAME_QUESTION, HIT)])
            rows = conn.execute(select(semantic_answers).where(mine)
                                .order_by(semantic_answers.c.created_at.desc())).mappings().all()
        if not rows:
            return CacheLookup()  # nothing to compare with: no embedding computed
        scores = cosine_scores(self.embed([question])[0], [r["embedding"] for r in rows])
        ranked = sorted(zip(scores, rows), key=lambda pair: -pair[0])  # stable: newer first among equals
        result, stale = CacheLookup(), []
        for similarity, row in ranked:
            entry = _entry(row, similarity)
            reason = self._refusal(question, entry, known_companies, current_hash, hashes, now)
            if len(result.considered) < CONSIDERED:
                result.considered.append(Considered(entry.question, similarity, reason or HIT))
            if reason in (EXPIRED, SOURCE_CHANGED, SOURCE_GONE):
                stale.append(entry.id)
            if reason is None:
                result.hit = entry
                break
            if reason == BELOW_THRESHOLD:
                break  # ranked: every later candidate is below it too
        if stale:
            with self.engine.begin() as conn:
                conn.execute(delete(semantic_answers).where(semantic_answers.c.id.in_(stale)))
        return result

    def has_repeat(self, question: str, *, user: str, now: datetime | None = None) -> bool:
        """Whether the user has an unexpired entry for this very question (its normalised words): one indexed
        read, no embedding, no guard. A hint only (the runtime tries the repeat door only when it says yes);
        `lookup` decides."""
        key = normalise_question(question)
        if not key:
            return False
        with self.engine.connect() as conn:
            found = conn.execute(select(semantic_answers.c.id).where(
                semantic_answers.c.user == user, semantic_answers.c.key == key,
                semantic_answers.c.expires_at > _stamp(_utc(now))).limit(1)).first()
        return found is not None

    def invalidate_sources(self, changed: Mapping[str, str | None]) -> int:
        """Delete the entries citing a source whose content hash is now another (None: the source was removed);
        how many were. Entries citing only other sources, or the same content, stay."""
        if not changed:
            return 0
        with self.engine.begin() as conn:
            rows = conn.execute(select(semantic_answers.c.id, semantic_answers.c.sources)).all()
            doomed = [entry_id for entry_id, sources in rows
                      if any(sid in changed and changed[sid] != digest for sid, digest in json.loads(sources).items())]
            if doomed:
                conn.execute(delete(semantic_answers).where(semantic_answers.c.id.in_(doomed)))
        return len(doomed)

    def purge_expired(self, now: datetime | None = None) -> int:
        """Delete every entry past its TTL (a lookup deletes only the expired ones it meets); how many were."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(semantic_answers).where(semantic_answers.c.expires_at <= _stamp(_utc(now))))
        return done.rowcount or 0

    def forget(self, user: str | None = None, thread: str | None = None) -> int:
        """Delete every entry of a user or of a thread (delete, not mark: the question text goes too); how many."""
        if user is None and thread is None:
            raise ValueError("forget needs a user or a thread")
        with self.engine.begin() as conn:
            done = conn.execute(delete(semantic_answers).where(_scope(user, thread)))
        return done.rowcount or 0

    def count(self, user: str | None = None) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(semantic_answers)
                                .where(_scope(user, None))).scalar_one()

    def entries(self, user: str | None = None, thread: str | None = None) -> list[CachedAnswer]:
        """Entries for a listing, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(semantic_answers).where(_scope(user, thread))
                                .order_by(semantic_answers.c.created_at, semantic_answers.c.id)).mappings().all()
        return [_entry(r) for r in rows]

    def _refusal(self, question: str, entry: CachedAnswer, known_companies: Sequence[str],
                 current_hash: Callable[[str], str | None], hashes: dict[str, str | None],
                 now: datetime) -> str | None:
        """Why `entry` cannot answer `question`, the checks in order; None when it can."""
        if entry.similarity is None or entry.similarity < self.threshold:
            return BELOW_THRESHOLD
        conflict = cache_conflict(question, entry.question, known_companies)
        if conflict:
            return conflict
        if entry.expires_at <= now:
            return EXPIRED
        for source_id, digest in entry.sources.items():
            if source_id not in hashes:
                hashes[source_id] = current_hash(source_id)
            if hashes[source_id] is None:
                return SOURCE_GONE
            if hashes[source_id] != digest:
                return SOURCE_CHANGED
        return None


def _scope(user: str | None, thread: str | None):  # type: ignore[no-untyped-def]
    conditions = [c for c in (semantic_answers.c.user == user if user is not None else None,
                              semantic_answers.c.thread == thread if thread is not None else None) if c is not None]
    return and_(true(), *conditions)


def _utc(moment: datetime | None) -> datetime:
    if moment is None:
        return datetime.now(timezone.utc)
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


def _stamp(moment: datetime) -> str:
    """ISO UTC with microseconds always, so stamps compare as strings in SQL."""
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds")


def _entry(row: Mapping[str, Any], similarity: float | None = None) -> CachedAnswer:
    return CachedAnswer(
        id=row["id"], user=row["user"], thread=row["thread"], question=row["question"],
        response=json.loads(row["response"]), companies=json.loads(row["companies"]),
        fiscal_years=json.loads(row["fiscal_years"]), metric=row["metric"], sources=json.loads(row["sources"]),
        created_at=datetime.fromisoformat(row["created_at"]), expires_at=datetime.fromisoformat(row["expires_at"]),
        similarity=similarity)
