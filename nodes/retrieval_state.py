"""What the retrieval subgraph (graphs/retrieval.py) reads, writes and returns: its state and output schemas and
the collaborator types. The models it passes around (Evidence, Claim, RetrievalResult, SearchRequest) live in
app/evidence.py and are re-exported here: checkpoints written before they moved name this module.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

from collections.abc import Callable, Sequence
from typing import Annotated, NotRequired, TypedDict

# re-exported: checkpoints written before the models moved to app/evidence.py name this module
from app.evidence import Claim, Evidence, RetrievalResult, SearchRequest  # noqa: F401
from reducers import concat_documents, merge_found

SearchFn = Callable[[str, str | None, int | None, int], list[Evidence]]
PageFn = Callable[[str, int], list[Evidence]]
"""The chunks of one page of a source, in order."""
MentionFn = Callable[[str, list[list[str]]], list[Evidence]]
"""A text search of a company's report chunks: those whose terms hold, for every group, one of its stems."""
PeriodsFn = Callable[[str], Sequence[int]]
"""The fiscal years the knowledge base holds filings for, for one company."""
Drafter = Callable[[str, list[Evidence]], list[Claim]]


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
    filing_years: list[int]
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
    unmentioned: dict[str, list[str]]


class SearchTask(TypedDict):
    """The `Send` payload of one search branch (its one key becomes a private channel)."""

    request: SearchRequest
