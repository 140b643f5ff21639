"""Search queries from a question: its content words (the first attempt's keyword query, the news query) and the
offline rewrite of a retry (the question's content words plus the missing companies and the failed claims'
terms).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.knowledge.analyzer import analyze
from app.text.terms import question_noise


def keyword_query(question: str, companies: Sequence[str] = ()) -> str:
    """The question's content words: question and arithmetic words dropped, and the names of the companies
    searched (each branch is filtered to its company already, and every chunk's header names it). The question
    itself when nothing remains."""
    names = set(analyze(" ".join(companies)))
    kept = [w for w in rewrite_query(question, [], []).split() if not set(analyze(w)) & names]
    return " ".join(kept) or question


def rewrite_query(question: str, missing: Sequence[str], failed_terms: Sequence[str]) -> str:
    """The offline rewrite: the question's content words, then each missing company and failed-claim term
    that the query does not already contain."""
    noise = question_noise()
    words = [w.strip("?!.,;:") for w in question.split()]
    parts = [w for w in words if w and set(analyze(w)) - noise]
    for extra in [*missing, *failed_terms]:
        if extra.casefold() not in " ".join(parts).casefold():
            parts.append(extra)
    return " ".join(parts)
