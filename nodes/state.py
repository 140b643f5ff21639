"""The supervisor graph's state (graphs/supervisor.py). The models it keeps in checkpoints live in app/turns.py
(and app/evidence.py, app/calc_tools.py) and are re-exported here: checkpoints written before they moved name
this module.

The parent holds only what it needs: the turn's question (as asked and as worked on), the conversation
(`history`, append-only through a reducer, and its compressed form), the routing decision, what each branch
returned (`retrieval_result` is the retrieval subgraph's only output, `calculation` the calculator's), the
assembled prompt with its manifest, and the response. Per-turn keys are reset by `intake`.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

from typing import Annotated, Any, NotRequired, TypedDict

from app.calc_tools import CalculationOutcome, Figure
from app.evidence import Evidence, RetrievalResult
from app.routing.decision import RouteDecision

# re-exported: checkpoints written before the models moved to app/turns.py name this module
from app.turns import (  # noqa: F401
    Block,
    Citation,
    CitationCheck,
    ManifestEntry,
    MemoryItem,
    MemoryWrite,
    Response,
    Status,
    Turn,
)
from reducers import append_turns


class SupervisorInput(TypedDict):
    question: str
    user: NotRequired[str]
    thread: NotRequired[str]
    use_cache: NotRequired[bool]


class SupervisorOutput(TypedDict):
    response: Response | None


class SupervisorState(SupervisorInput, SupervisorOutput, total=False):
    asked: str
    turn_source: str  # "thread:turn-N": the turn, as the memory records it writes name their source
    clarifications: list[dict[str, str]]
    history: Annotated[list[Turn], append_turns]
    history_summary: str
    recent_turns: list[Turn]
    context_entities: list[str]
    context_years: list[int]
    companies: list[str]
    fiscal_years: list[int]
    period_note: str  # how the turn's years were read, when not as written (a company's 'fiscal 2022')
    start_named: list[str]  # the turn's companies that name their fiscal years by the year they begin
    absent_companies: list[str]
    cached: Response | None
    decision: RouteDecision | None
    retrieval_result: RetrievalResult | None
    news: list[Evidence]
    facts: list[Figure]
    figures: list[Figure]
    calculation: CalculationOutcome | None
    blocks: list[Block]
    prompt: list[dict[str, str]]
    manifest: list[ManifestEntry]
    draft: str
    citation_check: CitationCheck | None
    status: Status | None
    memory: list[MemoryItem]
    memory_writes: list[MemoryWrite]
    memory_answer: dict[str, Any] | None
    recalled: list[dict[str, Any]]
    cache_considered: list[dict[str, Any]]


PER_TURN_RESET: dict[str, Any] = {
    "clarifications": [], "cached": None, "decision": None, "retrieval_result": None, "news": [], "facts": [], "figures": [],
    "calculation": None, "blocks": [], "prompt": [], "manifest": [], "draft": "", "citation_check": None,
    "status": None, "response": None, "companies": [], "fiscal_years": [], "period_note": "", "start_named": [],
    "absent_companies": [],
    "memory": [], "memory_writes": [], "memory_answer": None, "recalled": [], "cache_considered": [],
}
