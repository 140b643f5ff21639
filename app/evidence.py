"""Evidence and what the retrieval makes of it: one retrieved chunk (`Evidence`), a drafted sentence citing
chunks (`Claim`), the retrieval subgraph's result (`RetrievalResult`) and one company's search request
(`SearchRequest`), with `evidence_from_hit` (a knowledge-base hit as evidence) and `rank_evidence`.

Plain pydantic models shared by the graph (nodes/, graphs/) and the app (the runtime's search adapters, the
model roles and providers), so that neither imports the other for them. The retrieval subgraph's state
(nodes/retrieval_state.py) re-exports them.

CHECKPOINT_TYPES: the (module, class) pairs the checkpointer's serializer allows for these models. Checkpoints
name the module a class was defined in when they were written: nodes.retrieve (before the retrieval subgraph
was split), nodes.retrieval_state (until these models moved here), app.evidence now. Both old modules still
export the names, so every path stays allowed and old threads still load.
"""

from collections.abc import Iterable
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from prompts.fences import defang

DEFAULT_K = 5
"""Hits asked of search_fn per (query, fiscal year) on the first attempt; attempt n asks for n * k."""


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

    @field_validator("text")
    @classmethod
    def _defanged(cls, text: str) -> str:
        """Evidence enters the graph's state defanged, once: what a document's forged fence markers frame is the
        attack's, not the document's, so no step (grading, drafting, the facts, the prompt) reads it
        (prompts/fences.defang)."""
        return defang(text)


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
    unmentioned: dict[str, list[str]] = Field(
        default_factory=dict, description="For a 'did X mention …' question: named companies none of whose "
        "report chunks holds the words asked about (a text search of all of them), each with the word stems "
        "searched.")


class SearchRequest(BaseModel):
    """One `search_company` branch's work: every query, for every fiscal year, filtered to one company."""

    model_config = ConfigDict(frozen=True)

    company: str | None
    queries: list[str]
    fiscal_years: list[int]
    doc_type: str | None = None
    k: int = DEFAULT_K


CHECKPOINT_TYPES: tuple[tuple[str, str], ...] = tuple(
    (module, cls) for module in (__name__, "nodes.retrieval_state", "nodes.retrieve")
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
