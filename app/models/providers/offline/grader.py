"""The offline provider's grader: a document is admitted when its fused search score and the share of the
question's topic terms in its first GRADE_CHARS characters pass two floors (nodes/grade.grade_offline)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from nodes.grade import MIN_FUSED_SCORE, MIN_TERM_OVERLAP, grade_offline, topic_terms

if TYPE_CHECKING:
    from app.evidence import Evidence


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
        from nodes.draft import asks_for_figure, core_question, measure_terms, states_measure
        from nodes.grade import truncate_for_grading

        topic = topic_terms(core_question(question), companies)
        if grade_offline(topic, evidence, min_score=self.min_score, min_overlap=self.min_overlap):
            return True
        return (asks_for_figure(question) and evidence.score >= self.min_score
                and states_measure(measure_terms(question, companies), truncate_for_grading(evidence.text)))
