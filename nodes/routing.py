"""The supervisor's routing step and its branch functions.

`route` asks the routing model (app/models.py) for a `RouteDecision` and records it. The branch functions
are plain `(state) -> name | list[name]`, unit-tested with dicts: the model judges what a question asks, this
code decides where the flow goes, and raises on anything it does not expect.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from app.routing.decision import RouteDecision
from nodes.conversation import MAX_CLARIFICATION_ROUNDS
from nodes.state import SupervisorState

Gather = Literal["retrieve", "news"]


def route(state: SupervisorState, *, router: Any, known_companies: Callable[[], Sequence[str]]) -> dict[str, Any]:
    """Call the router on the standalone question; merge the companies and years it saw into the turn's.
    After MAX_CLARIFICATION_ROUNDS rounds in one turn, a further request for clarification is overruled."""
    decision = router(state["question"], known_companies=list(known_companies()),
                      context_entities=list(state.get("context_entities") or []))
    decision = RouteDecision.model_validate(decision)
    rounds = len(state.get("clarifications") or [])
    if decision.needs_clarification and rounds >= MAX_CLARIFICATION_ROUNDS:
        signals = {**decision.signals, "clarification_overruled_after_rounds": rounds}
        decision = decision.model_copy(update={"needs_clarification": False, "signals": signals})
    companies = _merge(state.get("companies") or [], decision.signals.get("companies") or [])
    years = _merge(state.get("fiscal_years") or [], decision.signals.get("years") or [])
    return {"decision": decision, "companies": companies, "fiscal_years": years}


def _merge(first: Sequence[Any], second: Sequence[Any]) -> list[Any]:
    return list(dict.fromkeys([*first, *second]))


def _decision(state: Mapping[str, Any]) -> RouteDecision:
    decision = state.get("decision")
    if decision is None:
        raise ValueError("no routing decision in state: the route node must run first")
    return RouteDecision.model_validate(decision)


def after_route(state: Mapping[str, Any]) -> Literal["refuse", "clarify"] | list[str]:
    """Out of scope → refuse; clarification → clarify; otherwise the gather branches that the flags ask for,
    in parallel: reports (`retrieve`) when retrieval is needed, or a calculation names companies (the figures
    must come from somewhere); `news` when news is needed. A question that sets none of them still gets a
    report search, so an unflagged question ends in evidence or the declared insufficient answer."""
    decision = _decision(state)
    if decision.is_out_of_scope:
        return "refuse"
    if decision.needs_clarification:
        return "clarify"
    branches: list[str] = []
    if decision.needs_retrieval or (decision.needs_calculation and state.get("companies")):
        branches.append("retrieve")
    if decision.needs_news:
        branches.append("news")
    if not branches and not decision.needs_calculation:
        branches.append("retrieve")
    return branches or ["join"]


def after_join(state: Mapping[str, Any]) -> Literal["prepare_calculation", "assemble"]:
    """With everything gathered: calculate when the flag says so, else assemble the prompt."""
    return "prepare_calculation" if _decision(state).needs_calculation else "assemble"
