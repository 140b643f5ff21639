"""The route plan and the clarification question: both follow from the flags and the features alone (no model)."""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from app.routing.decision import RoutePlan
from app.routing.features import Features

_FACTS = re.compile(r"(?i)\b(remember|as i said|i told you|earlier|before|again|previous|last time)\b")


def build_plan(flags: Mapping[str, bool], probs: Mapping[str, float], feats: Features,
               context: Sequence[str]) -> RoutePlan:
    """The plan follows from the flags and features alone (no further model)."""
    confidence = float(min(max(p, 1.0 - p) for p in probs.values()))
    if flags["is_out_of_scope"]:
        return RoutePlan(source="none", granularity="fact", effort="low", memory_read="none",
                         confidence=round(confidence, 4))
    if flags["needs_retrieval"] and flags["needs_news"]:
        source = "both"
    elif flags["needs_news"]:
        source = "news"
    elif flags["needs_retrieval"]:
        source = "reports"
    else:
        source = "none"
    text_vec = feats.vector
    if flags["needs_calculation"] or text_vec["multi_company"]:
        granularity = "comparison"
    elif feats.metric_terms or feats.years:
        granularity = "fact"
    elif text_vec["referent"] == 0 and source != "none" and not feats.metric_terms:
        granularity = "overview" if feats.companies else "section"
    else:
        granularity = "section"
    hard = sum([source == "both", bool(flags["needs_calculation"]), len(feats.companies) >= 2,
                len(feats.years) >= 2])
    effort = "high" if hard >= 2 else "medium" if hard == 1 else "low"
    if feats.referents and context:
        memory = "thread"
    elif flags["needs_clarification"]:
        memory = "thread"
    elif text_vec["follow_up"] or _FACTS.search(" ".join(feats.referents)):
        memory = "facts"
    elif flags["needs_calculation"] or feats.metric_terms or feats.years:
        memory = "facts"  # a figure is asked for: the user may have corrected it
    else:
        memory = "profile"  # standing instructions ("answer in millions") apply to every answer
    if flags["needs_clarification"]:
        # How sure we are that clarification is needed and of the rest.
        confidence = min(confidence, float(probs["needs_clarification"]))
    return RoutePlan(source=source, granularity=granularity, effort=effort, memory_read=memory,
                     confidence=round(max(0.0, min(1.0, confidence)), 4))


def clarification_question(question: str, feats: Features, context: Sequence[str] = (),
                           known_companies: Sequence[str] | None = None) -> str:
    """A deterministic question naming what is missing: the company, the metric, the period. When a referent is
    unresolved and `known_companies` is given, a few of them are offered as examples."""
    missing: list[str] = []
    if not feats.companies and not context:
        missing.append("company")
    if not feats.metric_terms:
        missing.append("metric")
    if not feats.years and not feats.recency_terms:
        missing.append("period")
    if not missing:
        missing = ["company"] if not feats.companies else ["metric"]
    parts = {
        "company": "which company do you mean" + (" (for example " + ", ".join(list(known_companies)[:3]) + ")"
                                                  if feats.unresolved_referents and known_companies else ""),
        "metric": "which metric or figure",
        "period": "which period or fiscal year",
    }
    asked = [parts[m] for m in missing]
    if len(asked) == 1:
        body = asked[0]
    else:
        body = ", ".join(asked[:-1]) + " and " + asked[-1]
    return body[0].upper() + body[1:] + "?"
