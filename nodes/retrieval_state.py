"""What the retrieval subgraph (graphs/retrieval.py) reads, writes and returns: the shared models (Evidence,
Claim, RetrievalResult, SearchRequest), the subgraph's state and output schemas, the collaborator types, and
CHECKPOINT_TYPES (app/runtime.py registers them with the checkpointer's serializer).

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

from collections.abc import Callable, Iterable, Sequence
from datetime import date
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from app.models.roles import Grader

from reducers import concat_documents, merge_found

DEFAULT_K = 5
"""Hits asked of search_fn per (query, fiscal year) on the first attempt; attempt n asks for n * k."""


# --- models -------------------------------------------------------------------------------------------------


class Evidence(BaseModel):
    """One retrieved chunk, with where it came from and why the search ranked it."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    source_id: str
    title: str = ""
    company: str | None = None
    fiscal_year: int | None = None
    page: int | None = None
    doc_type: str = "report"
    published_at: date | None = None
    section: str | None = None
    is_table: bool = False
    score: float = Field(default=0.0, description="The search's fused score (higher is better).")
    text: str = Field(description="The chunk's full text: drafting and verification read all of it.")
    why: str = Field(default="", description="The search's own explanation of the rank.")


class Claim(BaseModel):
    """A sentence of the draft answer and the evidence it cites."""

    text: str
    evidence_chunk_ids: list[str]
    company: str | None = None
    verified: bool = False
    unsupported: list[str] = Field(
        default_factory=list, description="Figures and entities of the claim missing from its cited evidence."
    )


class RetrievalResult(BaseModel):
    """What the retrieval subgraph returns to its parent: the only key that leaves it."""

    status: Literal["found", "partial", "insufficient"]
    evidence: list[Evidence] = Field(default_factory=list, description="Admitted, deduped by chunk id, by score.")
    claims: list[Claim] = Field(default_factory=list, description="Verified claims only.")
    dropped_claims: list[Claim] = Field(default_factory=list, description="Claims that failed verification.")
    found: dict[str, bool] = Field(default_factory=dict, description="Per named company: a verified claim?")
    missing: list[str] = Field(default_factory=list, description="Named companies without a verified claim.")
    attempts: int = 0
    queries: list[list[str]] = Field(default_factory=list, description="The queries of each attempt, in order.")
    absent: list[str] = Field(default_factory=list, description="Companies the question names that the knowledge "
                              "base holds no filings of (nothing was searched for them).")
    unheld: dict[str, list[int]] = Field(
        default_factory=dict, description="Named companies whose filings cannot cover the fiscal years asked, "
        "each with the fiscal years the knowledge base does hold for it (those companies were not searched).")
    fetched: list[str] = Field(
        default_factory=list, description="Chunk ids admitted because they hold a line item the question's "
        "figures need (nodes/inputs.py), not because the search ranked them.")


class SearchRequest(BaseModel):
    """One `search_company` branch's work: every query, for every fiscal year, filtered to one company."""

    model_config = ConfigDict(frozen=True)

    company: str | None
    queries: list[str]
    fiscal_years: list[int]
    doc_type: str | None = None
    k: int = DEFAULT_K


SearchFn = Callable[[str, str | None, int | None, int], list[Evidence]]
PageFn = Callable[[str, int], list[Evidence]]
"""The chunks of one page of a source, in order."""
PeriodsFn = Callable[[str], Sequence[int]]
"""The fiscal years the knowledge base holds filings for, for one company."""
Drafter = Callable[[str, list[Evidence]], list[Claim]]

# Pydantic types this module puts into graph state: pass to JsonPlusSerializer(allowed_msgpack_modules=...).
# They lived in nodes.retrieve until the split; checkpoints written then name that module, which still exports
# them, so both paths stay allowed and old threads still load.
CHECKPOINT_TYPES: tuple[tuple[str, str], ...] = tuple(
    (module, cls) for module in (__name__, "nodes.retrieve")
    for cls in ("Evidence", "Claim", "RetrievalResult", "SearchRequest")
)


def evidence_from_hit(hit: Any) -> Evidence:
    """Evidence from a KnowledgeBase SearchHit (or any object with the same attribute names)."""
    return Evidence.model_validate(hit, from_attributes=True)


def rank_evidence(items: Iterable[Evidence]) -> list[Evidence]:
    """Best score first (ties by chunk id), one entry per chunk id."""
    unique: dict[str, Evidence] = {}
    for doc in sorted(items, key=lambda d: (-d.score, d.chunk_id)):
        unique.setdefault(doc.chunk_id, doc)
    return list(unique.values())


# --- state --------------------------------------------------------------------------------------------------


class RetrievalInput(TypedDict):
    question: str
    companies: list[str]
    fiscal_years: list[int]
    doc_type: NotRequired[str | None]
    absent_companies: NotRequired[list[str]]


class RetrievalOutput(TypedDict):
    retrieval_result: RetrievalResult


class RetrievalState(RetrievalInput, RetrievalOutput):
    """Private to the subgraph: none of these keys reach the parent."""

    max_attempts: int
    attempt: int
    targets: list[str | None]
    year_filter: list[int]
    queries: list[str]
    query_log: list[list[str]]
    search_k: int
    documents: Annotated[list[Evidence], concat_documents]
    found: Annotated[dict[str, bool], merge_found]
    graded_count: int
    graded: list[Evidence]
    claims: list[Claim]
    dropped_claims: list[Claim]
    failed_terms: list[str]
    missing: list[str]
    unheld: dict[str, list[int]]
    fetched: list[str]
    fetch_tried: list[str]


class SearchTask(TypedDict):
    """The `Send` payload of one search branch (its one key becomes a private channel)."""

    request: SearchRequest
