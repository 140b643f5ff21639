"""The supervisor's step before the calculator: the figures a calculation may use.

`prepare_calculation` is the supervisor node: it reads the retrieval result, keeps the figures of the turn's
companies (and, comparing companies, of the years the question names) and writes `figures`: the facts the
question asks for first (nodes/facts.read_facts), then the figures read by
app/facts/readers.py (extract_figures), the user's own figures put in (app/facts/selection.apply_user_figures), the
most relevant kept (most_relevant).

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

from typing import Any

from app.calc_tools import Figure
from app.facts.query import PARENT_ENTITY, group_docs
from app.facts.readers import extract_figures
from app.facts.selection import apply_user_figures, most_relevant
from nodes.state import SupervisorState

MAX_FIGURES = 24
"""Figures handed to the calculator: enough for any comparison, few enough for a small model's context."""


def prepare_calculation(state: SupervisorState, *, max_figures: int = MAX_FIGURES) -> dict[str, Any]:
    """Figures from the admitted report evidence (then news), limited to the turn's companies; when the
    question compares companies in named years, only those years' figures (a difference across companies
    is never meant across years)."""
    decision = state.get("decision")
    if decision is not None and (decision.signals or {}).get("arithmetic"):
        return {"figures": given_figures(state)}
    result = state.get("retrieval_result")
    evidence = [*(result.evidence if result else []), *(state.get("news") or [])]
    evidence = group_docs(evidence, state.get("question") or "")  # not a parent's own books
    said = [m for m in state.get("memory") or [] if m.admitted and m.type in ("fact", "decision")]
    figures = apply_user_figures(extract_figures(evidence), said, state.get("companies") or [])
    companies = [c.lower() for c in state.get("companies") or []]
    if companies:
        figures = [f for f in figures if (f.company or "").lower() in companies]
    years = list(state.get("fiscal_years") or [])
    if len(companies) >= 2 and years:
        figures = [f for f in figures if f.fiscal_year in years]
    # the facts the question asks for (nodes/facts.py) lead: a change's two periods are its first two figures
    # the user's own figures stand in for the facts' too, so the figures that lead are what the user said
    facts = apply_user_figures(list(state.get("facts") or []), said, state.get("companies") or []) if said \
        else list(state.get("facts") or [])
    # a segment's facts are named with it, as a breakdown's members are ('Packaged Snacks: Operating profit'):
    # the calculator matches a label to the measure the question names, the segment's name included
    facts = [with_segment_label(f) for f in facts]
    chosen = most_relevant(figures, state["question"], max(max_figures - len(facts), 0), years)
    seen = {(f.label, f.value, f.fiscal_year) for f in facts}
    return {"figures": [*facts, *(f for f in chosen if (f.label, f.value, f.fiscal_year) not in seen)]}


def given_figures(state: SupervisorState) -> list[Figure]:
    """The figures of a question that is arithmetic and nothing else (nodes/routing.calculate_given_numbers): the
    previous answer's figure when the question points back at it ('what is that times 100?'), then each number
    the question gives."""
    from app.text.arithmetic import PREVIOUS, arithmetic_asked, lead_value
    from nodes.routing import previous_answer

    asked = arithmetic_asked(state["question"])
    if asked is None:
        return []
    figures = []
    previous = previous_answer(state)
    if asked.points_back and previous is not None and (value := lead_value(previous)) is not None:
        figures.append(Figure(label="the previous answer's figure", value=value, source_id="thread",
                              quote=previous, origin="thread"))
    figures += [Figure(label="a number the question gives", value=float(operand), source_id="question",
                       origin="question") for operand in asked.operands if operand != PREVIOUS]
    return figures


def with_segment_label(figure: Figure) -> Figure:
    """A fact of one segment, its label naming the segment ('Packaged Snacks: Operating profit'), unless the label
    names it already or the segment is the parent's own books."""
    segment = figure.segment
    if not segment or segment == PARENT_ENTITY or segment.casefold() in figure.label.casefold():
        return figure
    return figure.model_copy(update={"label": f"{segment}: {figure.label}"})
