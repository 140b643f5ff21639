"""Grading retrieved documents: what a grader sees of a document, the offline grader, and the topic terms of a
question that it (and the drafter) match.

The offline grader keeps a document whose fused search score and topic-term overlap (in its first GRADE_CHARS
characters) pass two floors; app/models/providers/offline/grader.py hands it to the retrieval subgraph as the
offline provider's Grader. `ask_grader` asks a judge that reads text, as a model does `(question, text) -> bool`,
about a document's first GRADE_CHARS characters and holds it to returning a bool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from app.evidence import Evidence
from app.knowledge.analyzer import analyze
from app.text.periods import is_year_token
from prompts.retrieval import GRADE_CHARS

MIN_FUSED_SCORE = 0.0
"""The offline grader's floor on Evidence.score. Hybrid search scores are weighted reciprocal-rank fusion,
weight / (60 + rank), so about 0.008-0.033: 0.0 admits anything the search ranked and leaves the decision to
the term overlap. Raise it for search functions whose scores are similarities (dense cosine)."""
MIN_TERM_OVERLAP = 0.25
"""The offline grader's floor on the share of the question's topic terms (stemmed words and figures, minus
company names, years and question words) found in the document's first GRADE_CHARS characters."""

_QUESTION_WORDS = (
    "much many tell give show explain please also know like get happen happened year years about regarding "
    "concerning "
    # Arithmetic and comparison words name what to do with the facts, not the facts: documents rarely hold them.
    "difference differ between compare compared comparison versus vs exceed exceeded gap calculate compute"
)


def truncate_for_grading(text: str, limit: int = GRADE_CHARS) -> str:
    """What a grader sees of a document: its first `limit` characters."""
    return text[:limit]


def grade_offline(
    topic: set[str], evidence: Evidence, *, min_score: float = MIN_FUSED_SCORE, min_overlap: float = MIN_TERM_OVERLAP
) -> bool:
    """Keep a document whose fused score and topic-term overlap (first GRADE_CHARS characters) pass both floors."""
    return evidence.score >= min_score and term_overlap(topic, truncate_for_grading(evidence.text)) >= min_overlap


def ask_grader(judge: Callable[[str, str], bool], question: str, evidence: Evidence) -> bool:
    """A judge that reads text sees the question and the truncated text; anything but a bool is an error."""
    verdict = judge(question, truncate_for_grading(evidence.text))
    if not isinstance(verdict, bool):
        raise TypeError(f"a grader must return a bool, got {type(verdict).__name__} for {evidence.chunk_id!r}")
    return verdict


def topic_terms(question: str, companies: Iterable[str]) -> set[str]:
    """The question's analyzed terms minus company names, fiscal years and question words. A word that only
    shares its stem with a question word stays: 'comparable sales' is a measure, 'compare' is not."""
    names = set(analyze(" ".join(companies)))
    noise_words = _noise_words()
    kept = {t for word in re.findall(r"[A-Za-z]+", question) if word.lower() not in noise_words for t in analyze(word)}
    return {t for t in analyze(question)
            if t not in names and (t not in question_noise() or t in kept) and not is_year_token(t)}


def term_overlap(topic: set[str], text: str) -> float:
    """Share of the topic terms found in `text` (1.0 when the question has no topic terms)."""
    if not topic:
        return 1.0
    return len(topic & set(analyze(text))) / len(topic)


@lru_cache(maxsize=1)
def _noise_words() -> frozenset[str]:
    words = _QUESTION_WORDS.split()
    return frozenset([*words, *(w + "s" for w in words), *(w + "d" for w in words if w.endswith("e")),
                      *(w + "ing" for w in words), *(w[:-1] + "ing" for w in words if w.endswith("e"))])


@lru_cache(maxsize=1)
def question_noise() -> frozenset[str]:
    """The analyzed question and arithmetic words: never a topic term, never a query term."""
    return frozenset(analyze(_QUESTION_WORDS))
