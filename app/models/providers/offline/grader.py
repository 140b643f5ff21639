"""The offline provider's grader: a document is admitted when its fused search score and the share of the
question's topic terms (app/text/terms.topic_terms) in its first GRADE_CHARS characters pass two floors
(`grade_offline`), or when a figure question's measure is stated there in any of its names, or a judgement
question's conventional measure ('conservatively financed': the equity ratio). The terms of a contract or plan
filed as an exhibit are admitted only for a question about an agreement, plan or instrument."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.knowledge.analyzer import analyze
from app.text.questions import asks_for_figure, core_question, measure_terms, states_measure
from app.text.measures import states_count
from app.text.sentences import asks_about_terms, is_contract_text
from app.text.question_kinds import explains_margin, read_ask, said_otherwise
from app.text.terms import abbreviated, topic_terms
from prompts.retrieval import truncate_for_grading

if TYPE_CHECKING:
    from app.evidence import Evidence

MIN_FUSED_SCORE = 0.0
"""The offline grader's floor on Evidence.score. Hybrid search scores are weighted reciprocal-rank fusion,
weight / (60 + rank), so about 0.008-0.033: 0.0 admits anything the search ranked and leaves the decision to
the term overlap. Raise it for search functions whose scores are similarities (dense cosine)."""
MIN_TERM_OVERLAP = 0.25
"""The offline grader's floor on the share of the question's topic terms (stemmed words and figures, minus
company names, years and question words) found in the document's first GRADE_CHARS characters."""


def grade_offline(
    topic: set[str], evidence: Evidence, *, min_score: float = MIN_FUSED_SCORE, min_overlap: float = MIN_TERM_OVERLAP,
    joined: dict[str, frozenset[str]] | None = None) -> bool:
    """Keep a document whose fused score and topic-term overlap (first GRADE_CHARS characters) pass both floors."""
    return evidence.score >= min_score and term_overlap(topic, truncate_for_grading(evidence.text),
                                                        joined) >= min_overlap


def term_overlap(topic: set[str], text: str, joined: dict[str, frozenset[str]] | None = None) -> float:
    """Share of the topic terms found in `text` (1.0 when the question has no topic terms); a pair of the
    question's words the text writes as one ('buy back' / 'buyback', `joined`) counts as both found, and an
    abbreviation asked as the words the text spells it out in, and a word as reports say it otherwise."""
    if not topic:
        return 1.0
    tokens = analyze(f"{text} {abbreviated(text)}")  # 'Chief Executive Officer' states the CEO asked
    words = set(tokens) | {f"{a}+{b}" for a, b in zip(tokens, tokens[1:])}
    found = topic & words
    # and a word reports use for it otherwise ('auditor': 'audited'; 'layoffs': 'reduced our workforce')
    found |= {t for t in topic - found if said_otherwise({t}) & words}
    for word, parts in (joined or {}).items():
        if word in words:
            found |= parts & topic
    return len(found) / len(topic)


def joined_pairs(question: str) -> dict[str, frozenset[str]]:
    """Each pair of the question's neighbouring words as one word ('buy back' → 'buyback'), with the stems of
    the two: a report may write either."""
    tokens = [w.lower() for w in re.findall(r"[A-Za-z]+", question)]
    return {joined: frozenset(analyze(f"{a} {b}")) for a, b in zip(tokens, tokens[1:])
            for joined in analyze(a + b)}



class OfflineGrader:
    label = "offline score + term overlap"

    def __init__(self, *, min_score: float = MIN_FUSED_SCORE, min_overlap: float = MIN_TERM_OVERLAP) -> None:
        if not 0.0 <= min_overlap <= 1.0:
            raise ValueError(f"min_overlap is a share of the question's terms, between 0 and 1; got {min_overlap!r}")
        self.min_score, self.min_overlap = min_score, min_overlap

    def grade(self, question: str, evidence: Evidence, companies: Sequence[str] = ()) -> bool:
        """The question proper is graded, not the instructions around it ('Round to two decimals. Base your
        judgement on the balance sheet.'); a document that states the measure a figure question asks, in any
        of its names (a metric's line items, a line item's statement name), is admitted on that alone."""
        topic = topic_terms(core_question(question), companies)
        text = truncate_for_grading(evidence.text)
        if is_contract_text(text) and not asks_about_terms(question):
            return False  # a plan's or agreement's terms filed as an exhibit: no account of the company's year
        if grade_offline(topic, evidence, min_score=self.min_score, min_overlap=self.min_overlap,
                         joined=joined_pairs(core_question(question))):
            return True
        if evidence.score < self.min_score:
            return False
        if (asks_for_figure(question) or read_ask(core_question(question)).kind == "extreme") \
                and states_measure(measure_terms(question, companies), text):
            return True  # (which part had the fastest net sales growth: a table of each part's net sales)
        if states_count(question, text, companies):
            return True  # 'the total number of employees': 'we employed approximately 315,000 people'
        if explains_margin(question, text):
            return True  # 'cost of products sold increased as a percent to sales driven by' for a gross margin
        return states_judged_measure(question, text)


def states_judged_measure(question: str, text: str) -> bool:
    """Whether a judgement question's document states a measure the judgement conventionally rests on
    ('conservatively financed': the equity ratio, net debt to EBITDA; app/judgements.py), every word of it."""
    from app.judgements import convention_for

    judged = convention_for(question)
    if judged is None:
        return False
    words = set(analyze(text))
    return any(stems and stems <= words for stems in (set(analyze(m)) for m in judged.measures))
