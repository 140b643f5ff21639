"""The supervisor graph's state (graphs/supervisor.py) and the models it keeps in checkpoints.

The parent holds only what it needs: the turn's question (as asked and as worked on), the conversation
(`history`, append-only through a reducer, and its compressed form), the routing decision, what each branch
returned (`retrieval_result` is the retrieval subgraph's only output, `calculation` the calculator's), the
assembled prompt with its manifest, and the response. Per-turn keys are reset by `intake`.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

from collections.abc import Sequence
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, Field

from app.calc_tools import CalculationOutcome, Figure
from app.routing.decision import RouteDecision
from nodes.retrieval_state import Evidence, RetrievalResult
from reducers import append_turns

Status = Literal["answered", "clarification", "refused", "insufficient", "noted"]
"""noted: the turn only stated something (a preference, a correction), which memory kept."""


class Citation(BaseModel):
    n: int
    source_id: str
    title: str = ""
    page: int | None = None
    quote: str = ""
    chunk_id: str | None = None
    published_at: str | None = None


class Turn(BaseModel):
    """One finished turn of a thread, as later turns see it."""

    asked: str
    question: str = Field(description="The standalone question the turn answered (after enrichment).")
    answer: str
    status: Status
    companies: list[str] = Field(default_factory=list)
    fiscal_years: list[int] = Field(default_factory=list)
    memory_ids: list[str] = Field(default_factory=list, description="Memory records the turn wrote, or whose "
                                  "facts its answer used: once one is superseded, the turn's words are not repeated.")


class Block(BaseModel):
    """A numbered block of the prompt that an answer may cite: evidence, news or a calculation."""

    n: int
    kind: Literal["report", "news", "calculation", "memory"]
    header: str
    text: str
    source_id: str
    chunk_id: str | None = None
    title: str = ""
    page: int | None = None
    company: str | None = None
    fiscal_year: int | None = None
    published_at: str | None = None
    tokens: int = 0


def blocks_by_chunk(blocks: Sequence[Block]) -> dict[str, Block]:
    """Blocks by the chunk they quote; a user's statement by its record ('memory:<id>'), which is how a
    calculation input the user gave names where it came from."""
    return {b.chunk_id or b.source_id: b for b in blocks if b.chunk_id or b.kind == "memory"}


class MemoryItem(BaseModel):
    """One record as a turn saw it: admitted to the prompt, or read and left out, and why."""

    id: str
    type: str
    key: str
    value: str
    said: str = ""
    scope: str
    status: str
    source: str
    created_at: str
    supersedes: str | None = None
    score: float = 0.0
    tokens: int = 0
    admitted: bool = False
    rule: str = ""


class MemoryWrite(BaseModel):
    """What the write policy did with one sentence the user wrote: the record written, or the rule that refused it."""

    text: str
    kept: bool
    rule: str = ""
    record_id: str | None = None
    type: str | None = None
    key: str = ""
    value: str = ""
    supersedes: str | None = None


class ManifestEntry(BaseModel):
    """One block of the assembled prompt: what it is, who produced it, why it was selected, what it cost."""

    block: str
    role: Literal["system", "user"]
    producer: str
    rule: str
    tokens: int
    included: bool = True
    items: list[str] = Field(default_factory=list, description="Ids of what the block holds (chunks, turns).")
    note: str = ""


class CitationCheck(BaseModel):
    """What citation validation found: which citations stand, which were removed, which claims were flagged."""

    valid: list[int] = Field(default_factory=list)
    removed: list[int] = Field(default_factory=list, description="Cited numbers of no admitted block.")
    flagged: list[str] = Field(default_factory=list, description="Sentences removed: no valid support.")
    fail_closed: bool = False


class Response(BaseModel):
    status: Status
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    question: str = ""
    cached: bool = False
    cached_at: str | None = Field(default=None, description="When a cached answer was first given.")
    cached_question: str | None = Field(default=None, description="The question a cached answer was given to.")
    flagged: list[str] = Field(default_factory=list)


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
    absent_companies: list[str]
    cached: Response | None
    decision: RouteDecision | None
    retrieval_result: RetrievalResult | None
    news: list[Evidence]
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


CHECKPOINT_TYPES: tuple[tuple[str, str], ...] = tuple(
    (__name__, cls) for cls in ("Citation", "Turn", "Block", "MemoryItem", "MemoryWrite", "ManifestEntry",
                                       "CitationCheck", "Response")
)

PER_TURN_RESET: dict[str, Any] = {
    "clarifications": [], "cached": None, "decision": None, "retrieval_result": None, "news": [], "figures": [],
    "calculation": None, "blocks": [], "prompt": [], "manifest": [], "draft": "", "citation_check": None,
    "status": None, "response": None, "companies": [], "fiscal_years": [], "absent_companies": [],
    "memory": [], "memory_writes": [], "memory_answer": None, "recalled": [], "cache_considered": [],
}
