"""app/memory/archive.py: which questions point back at the conversation, and the archive of older turns that
such a question searches (idempotent per turn, one thread at a time, matches with their neighbours)."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlalchemy import text

from app.memory.archive import TurnArchive, refers_back
from app.turns import Turn

# --- refers_back: the false positives first -----------------------------------------------------------------

FINANCIAL_NOT_CONVERSATIONAL = [
    "What was revenue in the previous fiscal year?",
    "What was Northwind's income before taxes in 2023?",
    "How did operating margin in the prior-year period compare?",
    "How did earnings in earlier years compare with FY2024?",
    "Did profit before interest and tax grow in 2024?",
    "How does revenue compare with a year earlier?",
    "What did they report for the quarter before?",
    "Has the company previously paid a special dividend?",
    "What were the previously reported figures before the restatement?",
    "What was revenue before the acquisition of Contoso?",
    "When was the last time they cut the dividend?",
    "Can you tell me Acme's dividend for 2024?",
    "Could you give me the gross margin for the previous quarter?",
    "Going back to 2019, how has revenue grown?",
    "Is the dividend higher than ever before?",
    "What did the CEO say about margins earlier in the call?",
    "What was cash at the beginning of fiscal 2023?",
    "Summarise the first quarter results and the prior period comparatives.",
    "What does management's discussion of liquidity say about covenants?",
    "We reported EBITDA of $2bn; how does Contoso compare?",
]

CONVERSATIONAL = [
    "What did you say about their dividend earlier?",
    "As you mentioned before, margins fell. Why?",
    "Remind me what the margin was.",
    "Going back to the revenue figure you gave, was that in USD?",
    "Can we go back to the dividend question?",
    "What was my first question?",
    "You’ve told me Northwind's net income; how does Contoso's compare?",
    "As discussed earlier, how does that affect free cash flow?",
    "Which companies did we talk about at the start?",
    "What was that number from before?",
    "What was the operating margin again?",
    "Earlier in this conversation there was a growth rate. What was it?",
    "Repeat your previous answer in euros.",
    "Last time we spoke there was a capex figure; what was it?",
    "What were the figures I asked about a few questions ago?",
    "Use the numbers you calculated previously.",
]


@pytest.mark.parametrize("question", FINANCIAL_NOT_CONVERSATIONAL)
def test_financial_uses_of_earlier_before_and_previous_do_not_refer_back(question: str) -> None:
    assert not refers_back(question)


@pytest.mark.parametrize("question", CONVERSATIONAL)
def test_questions_about_what_was_said_refer_back(question: str) -> None:
    assert refers_back(question)


# --- the archive ---------------------------------------------------------------------------------------------

_STOP = frozenset(
    "a an the of in on at to for and or is was were be been did do does what which who how much many you your "
    "we i me my our they their them it its that this about say said earlier before again remind".split())
_DIM = 512


class HashedBagOfWords:
    """A deterministic stand-in for an embedding model: content words hashed into a fixed-size count vector.
    Records every call, so a test can see what was embedded and when."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        vectors = []
        for t in texts:
            v = [0.0] * _DIM
            for word in re.findall(r"[a-z0-9$.]+", t.casefold()):
                word = word.strip(".")
                if word and word not in _STOP:
                    v[int(hashlib.sha1(word.encode()).hexdigest(), 16) % _DIM] += 1.0
            vectors.append(v)
        return vectors


def turn(question: str, answer: str, **extra: object) -> Turn:
    return Turn(asked=question, question=question, answer=answer, status="answered", **extra)  # type: ignore[arg-type]


TOPICS = [
    turn("What was Northwind revenue in FY2024?", "Revenue was $4.46 billion, up 6 percent."),
    turn("What dividend did Northwind pay?", "Northwind paid a dividend of $1.20 per share.",
         companies=["Northwind Logistics"], fiscal_years=[2024]),
    turn("What was the operating margin?", "Operating margin was 11.4 percent, down on fuel costs."),
    turn("How much long-term debt is there?", "Long-term debt stood at $1.9 billion at year end."),
    turn("Who is the chief executive?", "Maria Chen has led the company since 2021."),
    turn("What were capital expenditures?", "Capital expenditures were $610 million, mostly warehouses."),
    turn("How many employees are there?", "Employees numbered about 18,400 at year end."),
]


@pytest.fixture()
def embed() -> HashedBagOfWords:
    return HashedBagOfWords()


@pytest.fixture()
def archive(tmp_path: Path, embed: HashedBagOfWords) -> TurnArchive:
    return TurnArchive(f"sqlite:///{tmp_path / 'memory.sqlite'}", embed)


def test_the_fake_embedder_scores_shared_words_only() -> None:
    a, b, c = HashedBagOfWords()(["dividend per share", "the dividend", "warehouse capex"])
    def cos(x: list[float], y: list[float]) -> float:
        return sum(p * q for p, q in zip(x, y)) / math.sqrt(sum(p * p for p in x) * sum(q * q for q in y))
    assert cos(a, b) > 0.5 and cos(a, c) == 0.0


def test_archiving_a_turn_again_writes_nothing_and_embeds_only_new_turns(
        archive: TurnArchive, embed: HashedBagOfWords) -> None:
    assert archive.archive("ana", "t-1", list(enumerate(TOPICS[:4]))) == 4
    assert len(embed.calls) == 1 and len(embed.calls[0]) == 4  # one batch
    assert embed.calls[0][1] == "What dividend did Northwind pay?\nNorthwind paid a dividend of $1.20 per share."
    # a replay re-archives turns 0-3 with turn 4 now leaving the window: only turn 4 is new
    assert archive.archive("ana", "t-1", list(enumerate(TOPICS[:5]))) == 1
    assert embed.calls[1] == ["Who is the chief executive?\nMaria Chen has led the company since 2021."]
    assert archive.archive("ana", "t-1", list(enumerate(TOPICS[:5]))) == 0
    assert len(embed.calls) == 2  # nothing new, nothing embedded
    assert archive.count("t-1") == 5 and archive.count() == 5
    # the same turn index in another thread is another turn
    assert archive.archive("ana", "t-2", [(0, TOPICS[0])]) == 1
    assert archive.count("t-2") == 1 and archive.count() == 6


def test_recall_never_returns_another_threads_turn(archive: TurnArchive, embed: HashedBagOfWords) -> None:
    archive.archive("ana", "t-1", list(enumerate(TOPICS)))
    other = turn("What dividend did Contoso pay per share?", "Contoso paid a dividend per share of $0.80.")
    archive.archive("ben", "t-9", [(1, other)])  # a closer match to the question, in another thread
    question = "What dividend per share did you say Contoso paid earlier?"
    recalled = archive.recall("t-1", question, k=1, neighbours=0)
    assert [(r.turn_index, r.answer) for r in recalled] == [(1, TOPICS[1].answer)]
    assert recalled[0].score is not None and recalled[0].why == f"matched {recalled[0].score:.2f}"
    assert [r.answer for r in archive.recall("t-9", question, k=1, neighbours=0)] == [other.answer]
    calls = len(embed.calls)
    assert archive.recall("t-empty", question) == []
    assert len(embed.calls) == calls  # nothing archived in that thread: nothing embedded


def test_matches_come_back_with_their_archived_neighbours_in_turn_order(archive: TurnArchive) -> None:
    archive.archive("ana", "t-1", [(i, t) for i, t in enumerate(TOPICS) if i != 3])  # turn 3 never archived
    recalled = archive.recall("t-1", "Remind me what the dividend and the capital expenditures were",
                              k=2, neighbours=1)
    assert [r.turn_index for r in recalled] == [0, 1, 2, 4, 5, 6]
    why = {r.turn_index: r.why for r in recalled}
    assert why[1].startswith("matched ") and why[5].startswith("matched ")
    assert why[0] == why[2] == "neighbour of turn 1" and why[4] == why[6] == "neighbour of turn 5"
    assert [r.score is None for r in recalled] == [True, False, True, True, False, True]
    assert recalled[1].asked == TOPICS[1].asked and recalled[1].answer == TOPICS[1].answer
    # matches two turns apart share a neighbour; it comes back once
    archive.archive("ana", "t-2", list(enumerate(TOPICS)))
    shared = archive.recall("t-2", "Remind me of the dividend and the debt", k=2, neighbours=1)
    assert [r.turn_index for r in shared] == [0, 1, 2, 3, 4]
    assert [r.score is None for r in shared] == [True, False, True, False, True]
    # more neighbours reach further, still only archived turns of the thread
    wide = archive.recall("t-1", "What were the capital expenditures?", k=1, neighbours=2)
    assert [r.turn_index for r in wide] == [4, 5, 6]


def test_a_question_about_nothing_archived_recalls_nothing(archive: TurnArchive) -> None:
    archive.archive("ana", "t-1", list(enumerate(TOPICS)))
    assert archive.recall("t-1", "What did you say about the weather in Paris earlier?") == []
    assert [r.turn_index for r in archive.recall("t-1", "What did you say about the dividend earlier?",
                                                 neighbours=0)] == [1]


def test_forget_deletes_the_turns_text(archive: TurnArchive) -> None:
    archive.archive("ana", "t-1", [(0, turn("marker-7f3a revenue?", "Revenue was $4.46 billion."))])
    archive.archive("ana", "t-2", [(0, turn("marker-91c2 margin?", "Margin was 11.4 percent."))])
    archive.archive("ben", "t-3", [(0, turn("marker-b0d5 debt?", "Debt was $1.9 billion."))])

    def asked() -> list[str]:
        with archive.engine.connect() as conn:
            return sorted(conn.execute(text("SELECT asked FROM archived_turns")).scalars())

    assert archive.forget(thread="t-1") == 1
    assert asked() == ["marker-91c2 margin?", "marker-b0d5 debt?"]
    assert archive.forget(user="ana") == 1
    assert asked() == ["marker-b0d5 debt?"] and archive.count() == 1
    assert archive.recall("t-2", "marker-91c2 margin?") == []
    with pytest.raises(ValueError):
        archive.forget()
