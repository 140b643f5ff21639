"""The turn archive: older turns of a thread, kept whole and searchable, recalled only when the user points back.

`nodes/conversation.compress_history` keeps the last few turns word for word and reduces older ones to a short
summary; what the summary dropped is not lost, it is archived here. Each turn that leaves the verbatim window
is stored once per (thread, turn index) with its question and answer embedded together, so a replayed turn (a
resumed checkpoint, an interrupt answered) archives nothing twice.

Recall is not a default. An ordinary question is answered from the filings and the recent turns; only a question
that refers back to the conversation ("what did you say about their dividend earlier?", "remind me what the
margin was", "going back to the revenue figure you gave") searches the archive, and `refers_back` is that test.
It is deliberately literal: it looks for the conversation itself being named (you said, we discussed, my first
question, earlier in this chat) and not for words that are also accounting terms, so "the previous fiscal
year", "income before taxes", "the prior-year period" and "earlier years" never trigger it. The caller checks
it before calling `TurnArchive.recall`; recall itself only searches.

`recall` searches one thread's turns, never another's: the top `k` by cosine similarity above `min_score`, each
with its neighbouring turns (a matched answer often only makes sense beside the question before or after it),
returned in conversation order with the reason each was admitted ("matched 0.71", "neighbour of turn 3").

SQLAlchemy Core over any database URL, through `records.memory_engine` (WAL and a busy timeout on SQLite);
vectors are stored and compared by `vectors`. `forget` deletes a user's or a thread's turns outright. Not wired
into the graph yet (issue 8).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timezone

from pydantic import BaseModel
from sqlalchemy import (JSON, Column, Integer, LargeBinary, MetaData, String, Table, Text, UniqueConstraint, and_,
                        delete, func, select)
from sqlalchemy.exc import IntegrityError

from app.memory.records import create_tables, memory_engine
from app.memory.vectors import cosine_scores, to_blob
from app.turns import Turn

Embed = Callable[[Sequence[str]], list[list[float]]]

RECALL_MIN_SCORE = 0.3
"""A match below this cosine is not a match. Set on all-MiniLM-L6-v2 (the default embedder) over a hand-made
thread of seven turns about one company: refer-back questions scored the turn they meant 0.31-0.54 and the
thread's other turns up to 0.46; a question about something else entirely scored at most 0.09, one about another
company's tax rate up to 0.33. So the threshold keeps out what the thread never touched, the ranking (`k`) does
the choosing among its turns, and a near-topic question may still bring back a turn (labelled with its score).
MiniLM misses some paraphrases ('headcount' for employees, 'top line' for revenue) whatever the threshold. With
another embedding model, pass `min_score`."""

_meta = MetaData()
archived_turns = Table(
    "archived_turns", _meta,
    Column("id", String, primary_key=True),
    Column("user", String, nullable=False, index=True),
    Column("thread", String, nullable=False, index=True),
    Column("turn_index", Integer, nullable=False),
    Column("asked", Text, nullable=False),
    Column("question", Text, nullable=False),
    Column("answer", Text, nullable=False),
    Column("companies", JSON, nullable=False),
    Column("fiscal_years", JSON, nullable=False),
    Column("embedding", LargeBinary, nullable=False),
    Column("archived_at", String, nullable=False),
    UniqueConstraint("thread", "turn_index", name="uq_archived_turn"),
)


# --- does the question point back at the conversation? ----------------------------------------------------

# What the assistant did in an earlier answer; what "we" did together; what the user did. Only past forms for
# "you" ("could you tell me" asks, "you told me" points back), and only conversational verbs for "we" and "I"
# ("we reported" is a company speaking).
_YOU_PAST = (r"said|mentioned|told|gave|quoted|cited|stated|noted|showed|listed|brought up|pointed out|"
             r"calculated|computed|worked out|estimated|came up with|referred to|described|explained|were saying")
_WE_PAST = r"said|mentioned|discussed|talked about|spoke about|covered|looked at|went over|were saying"
_I_PAST = r"asked|said|mentioned|told you|gave you|was asking"
_BASE = (r"say|mention|tell|give|quote|cite|state|show|list|bring up|calculate|compute|work out|estimate|"
         r"describe|explain|discuss|talk about|cover|look at|go over|ask")
_AUX = r"(?:(?:just|already|also|previously|earlier|originally|first|had|have|'ve|'d)\s+)*"
_CONVERSATION = r"(?:conversation|chat|discussion|session|thread)"
_EXCHANGE = r"(?:questions?|answers?|repl(?:y|ies)|responses?|messages?|turns?)"

_REFERS_BACK = [
    # someone in this conversation said, asked or gave something: "you mentioned", "we discussed", "I asked"
    re.compile(rf"\byou(?:'ve|'d)?\s+{_AUX}(?:{_YOU_PAST})\b"),
    re.compile(rf"\bwe(?:'ve|'d)?\s+{_AUX}(?:{_WE_PAST})\b"),
    re.compile(rf"\bi(?:'ve|'d)?\s+{_AUX}(?:{_I_PAST})\b"),
    re.compile(rf"\bdid\s+(?:you|we|i)\s+(?:{_BASE})\b"),
    # "as discussed earlier", "as previously mentioned" (not "as previously reported": a filing's restatement)
    re.compile(r"\bas\s+(?:(?:earlier|previously)\s+)?(?:discussed|mentioned|said|agreed)\s+"
               r"(?:earlier|before|previously|above)\b"),
    re.compile(r"\bas\s+(?:earlier|previously)\s+(?:discussed|mentioned|said|agreed)\b"),
    # the conversation named: "earlier in this chat", "at the start of our conversation"
    re.compile(rf"\b(?:in|of|from)\s+(?:the|this|our)\s+{_CONVERSATION}\b(?!\s+(?:of|and|on)\b)"),
    # an earlier exchange named: "my first question", "your previous answer", "two questions ago"
    re.compile(rf"\b(?:first|earlier|previous|prior|last|original)\s+{_EXCHANGE}\b"),
    re.compile(rf"\b{_EXCHANGE}\s+ago\b"),
    re.compile(r"\b(?:minutes?|moments?)\s+ago\b"),
    # asking to be reminded
    re.compile(r"\bremind\s+(?:me|us)\b|\brefresh\s+(?:my|our)\s+memory\b"),
    # returning to a topic: "going back to the revenue figure", "let's go back to Contoso" (not "back to 2019")
    re.compile(r"\b(?:go|going|get|getting|come|coming)\s+back\s+to\s+(?:your|my|our|the\s+"
               r"(?:[\w'-]+\s+){0,3}?(?:question|answer|point|topic|figure|number|subject)s?\b)"),
    re.compile(r"^(?:(?:ok(?:ay)?|so|and|now|but|right)[,\s]+)?(?:let's\s+|can we\s+|could we\s+)?"
               r"go(?:ing)?\s+back\s+to\s+(?!(?:the\s+)?(?:fy\s*)?\d)"),
    # "what was the margin again?": a value asked for a second time
    re.compile(r"^(?:what|which|how much|how many|who)\s+(?:was|were)\b[^.?!]*\bagain\s*[?.!]*$"),
    # "at the start", "last time we spoke"
    re.compile(rf"\bat\s+the\s+(?:very\s+)?(?:start|beginning)\s*(?:[?.!,;:)]|$|of\s+(?:the|this|our)\s+"
               rf"{_CONVERSATION})"),
    re.compile(r"\blast\s+time\s+(?:we|you|i)\b"),
]

# "earlier", "before", "previously" closing a clause ("what did that come to before?") point back; before a noun
# they are accounting ("before taxes", "earlier years"), and after a period ("a year earlier", "the quarter
# before") they are a comparison in the filings.
_ADVERB_AT_CLAUSE_END = re.compile(r"(?:\b([\w'-]+)\s+)?\b(earlier|before|previously)\s*(?=[?.!,;:)]|$)")
_PERIOD_WORDS = frozenset(
    "year years quarter quarters month months week weeks day days period periods decade decades half halves "
    "fy season seasons ever long shortly just soon".split())
_PERIOD_NUMBER = re.compile(r"(?:fy|q[1-4]|h[12])?'?\d+s?")  # "2019 earlier", "fy24 before", "q3 before"


def refers_back(question: str) -> bool:
    """True when the question points at something said earlier in this conversation (an earlier answer, figure
    or question), so the turn archive should be searched; false for ordinary questions, including those that
    use 'previous year', 'prior year', 'before tax' or 'earlier years' as financial terms."""
    text = " ".join(question.casefold().replace("’", "'").replace("‘", "'").split())
    if any(p.search(text) for p in _REFERS_BACK):
        return True
    for m in _ADVERB_AT_CLAUSE_END.finditer(text):
        word = m.group(1)
        if word is None or not (word in _PERIOD_WORDS or _PERIOD_NUMBER.fullmatch(word)):
            return True
    return False


# --- the archive ----------------------------------------------------------------------------------------------


class Recalled(BaseModel):
    """An archived turn brought back for a refer-back question, with why it was."""

    turn_index: int
    asked: str
    question: str
    answer: str
    score: float | None
    """The cosine to the question; None for a turn admitted only as a match's neighbour."""
    why: str


class TurnArchive:
    def __init__(self, url: str, embed: Embed) -> None:
        self.engine = memory_engine(url)
        create_tables(self.engine, _meta)
        self.embed = embed

    def archive(self, user: str, thread: str, turns: Sequence[tuple[int, Turn]]) -> int:
        """Archive (turn index, turn) pairs of a thread that are not archived yet; the new ones are embedded in
        one call. Idempotent per (thread, turn index): archiving a turn again writes nothing. How many were new."""
        fresh: dict[int, Turn] = {}
        for index, turn in turns:
            fresh.setdefault(int(index), Turn.model_validate(turn))
        for _attempt in range(2):
            known = self._archived_indexes(thread, list(fresh))
            fresh = {i: t for i, t in fresh.items() if i not in known}
            if not fresh:
                return 0
            order = sorted(fresh)
            vectors = self.embed([_embedded_text(fresh[i]) for i in order])
            if len(vectors) != len(order):
                raise ValueError(f"the embedder returned {len(vectors)} vectors for {len(order)} turns")
            stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
            rows = [{
                "id": uuid.uuid4().hex, "user": user, "thread": thread, "turn_index": i,
                "asked": fresh[i].asked, "question": fresh[i].question, "answer": fresh[i].answer,
                "companies": list(fresh[i].companies), "fiscal_years": list(fresh[i].fiscal_years),
                "embedding": to_blob(vector), "archived_at": stamp,
            } for i, vector in zip(order, vectors)]
            try:
                with self.engine.begin() as conn:
                    conn.execute(archived_turns.insert(), rows)
                return len(rows)
            except IntegrityError:  # a concurrent replay archived some of them first: skip those, once
                continue
        return 0

    def recall(self, thread: str, question: str, *, k: int = 2, neighbours: int = 1,
               min_score: float = RECALL_MIN_SCORE) -> list[Recalled]:
        """The thread's `k` archived turns most like `question` (cosine at least `min_score`), each with the
        archived turns within `neighbours` of it, in turn order, each once. Nothing is embedded when the thread
        has nothing archived. Only the caller decides that a question warrants this (`refers_back`)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(
                archived_turns.c.turn_index, archived_turns.c.asked, archived_turns.c.question,
                archived_turns.c.answer, archived_turns.c.embedding,
            ).where(archived_turns.c.thread == thread)).mappings().all()
        if not rows or k <= 0:
            return []
        scores = cosine_scores(self.embed([question])[0], [r["embedding"] for r in rows])
        by_index = {r["turn_index"]: r for r in rows}
        ranked = sorted(zip(scores, (r["turn_index"] for r in rows)), key=lambda p: (-p[0], -p[1]))
        matches = {index: score for score, index in ranked[:k] if score >= min_score}
        admitted: dict[int, tuple[float | None, str]] = {i: (s, f"matched {s:.2f}") for i, s in matches.items()}
        for index in sorted(matches, key=lambda i: -matches[i]):  # the best match claims a shared neighbour
            for step in range(1, max(neighbours, 0) + 1):
                for other in (index - step, index + step):
                    if other in by_index and other not in admitted:
                        admitted[other] = (None, f"neighbour of turn {index}")
        return [Recalled(turn_index=i, asked=by_index[i]["asked"], question=by_index[i]["question"],
                         answer=by_index[i]["answer"], score=admitted[i][0], why=admitted[i][1])
                for i in sorted(admitted)]

    def forget(self, user: str | None = None, thread: str | None = None) -> int:
        """Delete every archived turn of a user or of a thread (both given: that user's turns in that thread);
        how many were."""
        if user is None and thread is None:
            raise ValueError("forget needs a user or a thread")
        conditions = []
        if user is not None:
            conditions.append(archived_turns.c.user == user)
        if thread is not None:
            conditions.append(archived_turns.c.thread == thread)
        with self.engine.begin() as conn:
            done = conn.execute(delete(archived_turns).where(and_(*conditions)))
        return done.rowcount or 0

    def count(self, thread: str | None = None) -> int:
        query = select(func.count()).select_from(archived_turns)
        if thread is not None:
            query = query.where(archived_turns.c.thread == thread)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def _archived_indexes(self, thread: str, indexes: list[int]) -> set[int]:
        if not indexes:
            return set()
        with self.engine.connect() as conn:
            found = conn.execute(select(archived_turns.c.turn_index).where(
                archived_turns.c.thread == thread, archived_turns.c.turn_index.in_(indexes))).scalars().all()
        return set(found)


def _embedded_text(turn: Turn) -> str:
    return f"{turn.question}\n{turn.answer}"
