"""The retrieval subgraph: search per company in parallel, grade, draft and verify, retry narrowed, or give up.

    START ─▶ start_retrieval ─▶ plan_queries ─▶ search_company × N (Send) ─▶ grade_documents ─▶ fetch_inputs
                                      ▲                                                                 │
                                      │                                                          draft_and_verify
                                      └───────────────────────────── retry ─────────────────────────────┤
                                        finish_retrieval ◀── done ──────────────────────────────────────┤
                                        fall_back ◀── fallback ─────────────────────────────────────────┘
    (finish_retrieval and fall_back go to END)

Input `RetrievalInput` {question, companies, fiscal_years, doc_type?}; output `RetrievalOutput`
{retrieval_result}. Queries, documents, found flags, grades and claims are private: a parent graph (or
`invoke`) sees only `retrieval_result`. Parallel branches meet through two reducers: `documents` concatenate
(reducers/documents.py) and per-company `found` flags merge key by key (reducers/found_flags.py).
"""

from functools import partial

from langgraph.graph import END, START, StateGraph

from app.evidence import CHECKPOINT_TYPES, DEFAULT_K, Claim, Evidence, RetrievalResult
from app.models.roles import MAX_PARALLEL_GRADES, Grader
from nodes.inputs import fetch_inputs
from nodes.retrieval_state import (
    Drafter,
    MentionFn,
    PageFn,
    PeriodsFn,
    RetrievalInput,
    RetrievalOutput,
    RetrievalState,
    SearchFn,
    SearchTask,
)
from nodes.retrieve import (
    DEFAULT_MAX_ATTEMPTS,
    draft_and_verify,
    fall_back,
    fan_out_searches,
    finish_retrieval,
    grade_documents,
    plan_queries,
    route_after_start,
    route_after_verify,
    search_company,
    start_retrieval,
)

__all__ = [
    "CHECKPOINT_TYPES", "Claim", "Evidence", "RetrievalInput", "RetrievalOutput", "RetrievalResult",
    "RetrievalState", "build_retrieval_graph",
]


def build_retrieval_graph(
    search_fn: SearchFn,
    *,
    grader: Grader,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    drafter: Drafter | None = None,
    k: int = DEFAULT_K,
    periods_fn: PeriodsFn | None = None,
    page_fn: PageFn | None = None,
    mention_fn: MentionFn | None = None,
    grade_concurrency: int = MAX_PARALLEL_GRADES,
) -> StateGraph:
    """Wire the subgraph, uncompiled.

    `search_fn(query, company, fiscal_year, k) -> list[Evidence]`; `grader` is the model factory's grading role
    (app/models: `grader.grade(question, evidence, companies) -> bool`); `drafter(question,
    evidence) -> list[Claim]` replaces the extractive draft (its claims are verified all the same);
    `periods_fn(company) -> fiscal years held` lets a question about a year no filing covers end insufficient
    without a search; `page_fn(source_id, page) -> list[Evidence]` (a page's chunks) lets the line-item fetch read
    the rest of a statement page whose opening the search found; `mention_fn(company, prefix groups) ->
    list[Evidence]` (a text search of a company's report chunks) answers 'did X mention …' questions;
    `grade_concurrency` grading calls run at once (1: one after another)."""
    _validate(search_fn, grader, drafter, max_attempts, k, grade_concurrency)
    builder = StateGraph(RetrievalState, input_schema=RetrievalInput, output_schema=RetrievalOutput)
    builder.add_node("start_retrieval", partial(start_retrieval, max_attempts=max_attempts, periods_fn=periods_fn))
    builder.add_node("plan_queries", partial(plan_queries, k=k))
    builder.add_node("search_company", partial(search_company, search_fn=search_fn), input_schema=SearchTask)
    builder.add_node("grade_documents", partial(grade_documents, grader=grader, concurrency=grade_concurrency))
    builder.add_node("fetch_inputs", partial(fetch_inputs, search_fn=search_fn, page_fn=page_fn,
                                             mention_fn=mention_fn))
    builder.add_node("draft_and_verify", partial(draft_and_verify, drafter=drafter))
    builder.add_node("finish_retrieval", finish_retrieval)
    builder.add_node("fall_back", fall_back)

    # The request is validated and the private state reset once per run.
    builder.add_edge(START, "start_retrieval")
    # A question about years no filing of the named companies covers is not searched at all.
    builder.add_conditional_edges("start_retrieval", route_after_start, ["plan_queries", "fall_back"])
    # One search branch per target company, in parallel (Send); their writes meet through the reducers.
    builder.add_conditional_edges("plan_queries", fan_out_searches, ["search_company"])
    # Grading waits for every branch of the attempt.
    builder.add_edge("search_company", "grade_documents")
    # The statement rows a metric or a named line item needs, when grading admitted none that holds them.
    builder.add_edge("grade_documents", "fetch_inputs")
    builder.add_edge("fetch_inputs", "draft_and_verify")
    # Usable: finish. Unusable with attempts left: plan again, narrowed. Nothing verified at the end: fall back.
    builder.add_conditional_edges(
        "draft_and_verify",
        route_after_verify,
        {"done": "finish_retrieval", "retry": "plan_queries", "fallback": "fall_back"},
    )
    builder.add_edge("finish_retrieval", END)
    builder.add_edge("fall_back", END)
    return builder


def _validate(search_fn: object, grader: object, drafter: object, max_attempts: object, k: object,
              grade_concurrency: object) -> None:
    if not callable(search_fn):
        raise TypeError(f"search_fn must be callable (query, company, fiscal_year, k); got {search_fn!r}")
    if not isinstance(grader, Grader):
        raise TypeError(f"grader must be a Grader (grade(question, evidence, companies) -> bool); got {grader!r}")
    if drafter is not None and not callable(drafter):
        raise TypeError(f"drafter must be callable or None; got {drafter!r}")
    for name, value in (("max_attempts", max_attempts), ("k", k), ("grade_concurrency", grade_concurrency)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
