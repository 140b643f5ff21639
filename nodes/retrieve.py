"""Nodes and routers of the retrieval subgraph (graphs/retrieval.py).

Steps: `start_retrieval` validates the request and resets the private state; `plan_queries` picks this
attempt's companies and queries; `fan_out_searches` sends one `search_company` branch per company (`Send`);
`grade_documents` admits documents with the grader it is given; `fetch_inputs` (nodes/inputs.py) admits the
statement rows the question's figures need that grading did not; `draft_and_verify` drafts claims and
checks every figure and entity in each against the FULL text of the evidence it cites; `route_after_verify`
says "done", "retry" or "fallback"; `finish_retrieval` / `fall_back` write the result.

Collaborators are injected: `search_fn(query, company, fiscal_year, k) -> list[Evidence]` (the app adapts
KnowledgeBase.search to it), the grader role of the model factory (app/models: a `Grader`, offline
app/models/providers/offline/grader.py) and optionally a drafter `(question, evidence) -> list[Claim]`
(default: nodes/draft.py).
Where the rest lives: models in app/evidence.py and state in nodes/retrieval_state.py, the graders in
app/models/providers/ (offline: grader.py; openai: LLMGrader), drafting in nodes/draft.py and what the question
asks in app/text/questions.py, verification in nodes/verify.py, queries in nodes/rewrite.py.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langgraph.types import Overwrite, Send

from app.evidence import DEFAULT_K, Claim, Evidence, RetrievalResult, SearchRequest, rank_evidence
from app.models.roles import MAX_PARALLEL_GRADES, Grader, grade_all
from app.text.measures import conventional_measure, count_wordings, segment_wordings
from app.text.question_kinds import BUSINESS_WORDINGS, asks_business, explanation_wordings
from app.text.questions import asking_sentences
from nodes.draft import draft_claims, part_named, sentence_context
from nodes.retrieval_state import Drafter, PeriodsFn, RetrievalState, SearchFn, SearchTask
from nodes.rewrite import keyword_query, rewrite_query
from nodes.verify import answered, verify_claim

DEFAULT_MAX_ATTEMPTS = 2
"""Searches before giving up: the first plus one retry (DESIGN.md)."""
MAX_FAILED_TERMS = 8
"""At most this many unsupported figures/entities of failed claims extend the retry query."""
COMPARATIVE_YEARS = 2
"""A filing for fiscal year Y also states Y-1 and Y-2 (an annual report's three years of results), so a question
about FY2017 is answerable from the FY2019 report, and one about FY2015 is not."""


def start_retrieval(state: RetrievalState, *, max_attempts: int = DEFAULT_MAX_ATTEMPTS,
                    periods_fn: PeriodsFn | None = None) -> dict[str, Any]:
    """Validate the request and reset every private key, so a reused thread never sees a previous run. A named
    company whose filings cannot cover the years asked is set aside as unheld (never searched: another year's
    figures are not an answer)."""
    if not str(state.get("question") or "").strip():
        raise ValueError("the retrieval subgraph needs a non-empty question")
    companies = list(dict.fromkeys(c.strip() for c in state.get("companies") or [] if c and c.strip()))
    years = sorted(set(state.get("fiscal_years") or []))
    return {
        "absent_companies": list(state.get("absent_companies") or []) if not companies else [],
        "unheld": unheld_periods(companies, years, periods_fn, str(state["question"])),
        "companies": companies,
        "fiscal_years": years,
        "filing_years": filing_years(companies, years, periods_fn),
        "doc_type": state.get("doc_type"),
        "max_attempts": max_attempts,
        "attempt": 0,
        "query_log": [],
        "documents": Overwrite([]),
        "found": Overwrite({c: False for c in companies}),
        "graded_count": 0,
        "graded": [],
        "claims": [],
        "dropped_claims": [],
        "failed_terms": [],
        "missing": companies,
        "fetched": [],
        "fetch_tried": [],
    }


_FORWARD_LOOKING = re.compile(r"(?i)\b(guidance|outlook|forecasts?|expect(?:s|ed|ations?)?|targets?|plans?|"
                              r"planned|projections?|budget(?:ed)?|will|would\s+be|(?:was|were)\s+to\s+be|"
                              r"(?:beginning|starting)\s+(?:in|with)|from\s+(?=(?:fiscal\s+|FY\s?)?(?:19|20)\d\d\s+"
                              r"(?:on|onwards?)\b|fiscal\s+(?:19|20)\d\d\b)|"
                              r"(?:early|(?:in\s+)?(?:january|february|march))\s+(?:of\s+)?(?:19|20)\d\d\b|"
                              r"subsequent(?:ly)?|after\s+(?:the\s+)?(?:fiscal\s+)?year[-\s]end)")
"""Words that ask what a filing said of the year after its own: a plan, a forecast, what 'would be' or was 'to be'
done, or how the business is organised 'from fiscal 2018'; or what it reports of the months after its year ended,
before it was filed ('Did it raise its dividend in early 2023', 'in February 2023': a subsequent event)."""


def unheld_periods(companies: Sequence[str], years: Sequence[int], periods_fn: PeriodsFn | None,
                   question: str = "") -> dict[str, list[int]]:
    """Companies none of whose filings can state any of the fiscal years asked, with the years they do hold. A
    filing states its year and the COMPARATIVE_YEARS before it, and, for a question about guidance or plans,
    the year after. A company with no dated filing is never set aside (its years are unknown, not absent)."""
    if not years or periods_fn is None:
        return {}
    ahead = 1 if _FORWARD_LOOKING.search(question) else 0
    out: dict[str, list[int]] = {}
    for company in companies:
        held = sorted({y for y in periods_fn(company) if y})
        if held and not any(h - COMPARATIVE_YEARS <= y <= h + ahead for y in years for h in held):
            out[company] = held
    return out


def filing_years(companies: Sequence[str], years: Sequence[int], periods_fn: PeriodsFn | None) -> list[int]:
    """The filings to search for the years asked: each year's own filing where one is held, else the earliest
    later filing that states it as a comparative (FY2022 is in the FY2023 report's comparative columns). A plan
    for a year no filing covers is found by the retry, which drops the year filter (the FY2017 report's plans
    for fiscal 2018, a year `unheld_periods` keeps searchable for a plan asked)."""
    if not years or periods_fn is None:
        return list(years)
    if not companies:  # whose filings is not known: the year's own, and the next year's, which states it too
        return sorted({*years, *(y + 1 for y in years)})
    held = sorted({y for c in companies for y in periods_fn(c) if y})
    if not held:
        return list(years)
    out: list[int] = []
    for year in years:
        later = [h for h in held if year <= h <= year + COMPARATIVE_YEARS]
        out.append(later[0] if later else year)
    return sorted(set(out))


def route_after_start(state: Mapping[str, Any]) -> Literal["plan_queries", "fall_back"]:
    """Search unless every named company is unheld for the years asked, or the question is about companies the
    knowledge base holds no filings of: then there is nothing to search (another company's filing is no answer)."""
    companies, unheld = state.get("companies") or [], state.get("unheld") or {}
    if not companies and state.get("absent_companies"):
        return "fall_back"
    return "fall_back" if companies and all(c in unheld for c in companies) else "plan_queries"


def plan_queries(state: RetrievalState, *, k: int = DEFAULT_K) -> dict[str, Any]:
    """First attempt: every company, the question as asked. A retry: only the still-missing companies, a query
    extended with those companies and the failed claims' terms, and a wider k."""
    attempt = state["attempt"] + 1
    unheld = state.get("unheld") or {}
    if attempt == 1:
        targets: list[str | None] = [c for c in state["companies"] if c not in unheld] or [None]
        # The question as asked (dense search reads meaning), and its content words alone (sparse search
        # matches terms; "what was the difference between" would only add noise to it).
        asked = asking_sentences(state["question"])  # the answer's instructions ('return N/A') are no search terms
        keywords = keyword_query(asked, state["companies"])
        # a count is worded otherwise in reports ('employed 315,000 people' for the number of employees)
        wordings = count_wordings(asked, state["companies"])
        if asks_business(asked):  # 'what industry does it operate in': 'X is a global leader in … packaging'
            wordings = " ".join([*state["companies"][:1], BUSINESS_WORDINGS])
        # a segment is written by its initials in the tables that give its figures ('FLNA' for Frito-Lay North
        # America)
        segment = segment_wordings(asked, state["companies"])
        # a measure asked by what it means is stated by its name ('each shareholder … if liquidated': tangible
        # book value per share), and the question's other words are no terms of it
        if conventional := conventional_measure(asked):
            keywords = " ".join([conventional, *re.findall(r"\b(?:(?:19|20)\d\d|[HQ][1-4]|FY\s?\d{2,4})\b", asked)])
        # what drove a change: the words its cause is given with ('… decreased due to …')
        cause = explanation_wordings(asked, keywords)
        queries = list(dict.fromkeys([asked, keywords, *([wordings] if wordings else []),
                                      *([segment] if segment else []), *([cause] if cause else [])]))
    else:
        # A retry widens as well as narrows: the fiscal years stop being a filter and become query terms, since
        # the figure may sit in a neighbouring year's report (FY2025 guidance is in the FY2024 report).
        targets = [c for c in state["missing"] if c not in unheld] or [None]
        years = [f"FY{y}" for y in state["fiscal_years"]]
        queries = [rewrite_query(state["question"], state["missing"], [*state["failed_terms"], *years])]
    return {
        "attempt": attempt,
        "targets": targets,
        "year_filter": list(state.get("filing_years") or state["fiscal_years"]) if attempt == 1 else [],
        "queries": queries,
        "query_log": [*state["query_log"], queries],
        "search_k": k * attempt,
    }


def fan_out_searches(state: RetrievalState) -> list[Send]:
    """One `search_company` branch per target company (one with company=None when no company is named)."""
    targets, queries = state.get("targets"), state.get("queries")
    if not targets or not queries:
        raise ValueError(f"fan_out_searches needs targets and queries from plan_queries; got {targets!r}, {queries!r}")
    return [
        Send("search_company", {"request": SearchRequest(
            company=company, queries=queries, fiscal_years=state.get("year_filter", state["fiscal_years"]),
            doc_type=state.get("doc_type"), k=state["search_k"],
        )})
        for company in targets
    ]


def search_company(task: SearchTask, *, search_fn: SearchFn) -> dict[str, Any]:
    """Run every query for every fiscal year (or none), keep the requested doc type, flag the company."""
    request = task["request"]
    hits = [
        Evidence.model_validate(hit)
        for query in request.queries
        for year in (request.fiscal_years or [None])
        for hit in search_fn(query, request.company, year, request.k)
    ]
    if request.doc_type:
        hits = [h for h in hits if h.doc_type == request.doc_type]
    found = {request.company: bool(hits)} if request.company else {}
    return {"documents": hits, "found": found}


def grade_documents(state: RetrievalState, *, grader: Grader, concurrency: int = MAX_PARALLEL_GRADES
                    ) -> dict[str, Any]:
    """Grade the documents this attempt added, each chunk once, with the grader the model factory chose: up to
    `concurrency` calls at once (app/models/roles.grade_all), so one attempt waits about one call's latency."""
    documents, start = state["documents"], state["graded_count"]
    seen = {d.chunk_id for d in documents[:start]}
    fresh = rank_evidence(d for d in documents[start:] if d.chunk_id not in seen)
    verdicts = grade_all(grader, state["question"], fresh, state["companies"], concurrency=concurrency)
    admitted = [d for d, keep in zip(fresh, verdicts, strict=True) if keep]
    graded = rank_evidence([*state["graded"], *admitted])
    found = {c: any(same_company(d.company, c) for d in graded) for c in state["targets"] if c}
    return {"graded": graded, "graded_count": len(documents), "found": found}


def draft_and_verify(state: RetrievalState, *, drafter: Drafter | None = None) -> dict[str, Any]:
    """Draft claims from the admitted evidence, verify each, and say which companies still lack one."""
    evidence = list(state["graded"])
    by_id = {d.chunk_id: d for d in evidence}
    parted = part_named(state["question"], state["companies"])
    checked = [answered(verify_claim(c, by_id), state["question"], state["companies"],
                        " ".join(sentence_context(by_id[i], c.text) for i in c.evidence_chunk_ids if i in by_id)
                        if parted else "")
               for c in (drafter or draft_claims)(state["question"], evidence)]
    kept = [c for c in checked if c.verified]
    dropped = [c for c in checked if not c.verified]
    found = {c: any(same_company(k.company, c) for k in kept) for c in state["companies"]}
    failed_terms = list(dict.fromkeys(t for c in dropped for t in c.unsupported))[:MAX_FAILED_TERMS]
    return {
        "claims": kept,
        "dropped_claims": dropped,
        "found": found,
        "missing": [c for c in state["companies"] if not found[c]],
        "failed_terms": failed_terms,
    }


def route_after_verify(state: Mapping[str, Any]) -> Literal["done", "retry", "fallback"]:
    """Done when every named company has a verified claim (or, none named, any claim does); otherwise retry
    while attempts remain; then done with what was verified (partial), or fall back when nothing was."""
    attempt, max_attempts = state.get("attempt"), state.get("max_attempts")
    if not _is_count(attempt) or not _is_count(max_attempts) or not 1 <= attempt <= max_attempts:
        raise ValueError(f"inconsistent attempt counter: attempt={attempt!r}, max_attempts={max_attempts!r}")
    missing, claims = state.get("missing"), state.get("claims")
    if missing is None or claims is None:
        raise ValueError("route_after_verify needs 'missing' and 'claims': run draft_and_verify first")
    _check_consistency(list(state.get("companies") or []), list(missing), state.get("found") or {}, claims)
    searchable = [m for m in missing if m not in (state.get("unheld") or {})]
    if claims and not searchable:
        return "done"
    if attempt < max_attempts and (searchable or not state.get("companies")):
        return "retry"
    return "done" if claims else "fallback"


def finish_retrieval(state: RetrievalState) -> dict[str, Any]:
    """Verified claims for every named company: found; for some only: partial."""
    return {"retrieval_result": build_result(state, "partial" if state["missing"] else "found")}


def fall_back(state: RetrievalState) -> dict[str, Any]:
    """No verified claim after the last attempt: say so (status insufficient) instead of raising."""
    return {"retrieval_result": build_result(state, "insufficient")}


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_consistency(
    companies: list[str], missing: list[str], found: Mapping[str, bool], claims: Sequence[Any]
) -> None:
    if unknown := [m for m in missing if m not in companies]:
        raise ValueError(f"missing companies {unknown!r} are not among the requested companies {companies!r}")
    if contradicted := [m for m in missing if found.get(m)]:
        raise ValueError(f"companies {contradicted!r} are both missing and found")
    if unverified := [c for c in claims if not Claim.model_validate(c).verified]:
        raise ValueError(f"{len(unverified)} unverified claim(s) in 'claims'; dropped claims belong elsewhere")
    if companies and not missing and not claims:
        raise ValueError("every company is marked found but there is no verified claim")


def build_result(state: RetrievalState, status: Literal["found", "partial", "insufficient"]) -> RetrievalResult:
    found = state.get("found") or {}
    return RetrievalResult(
        status=status,
        evidence=state["graded"],
        claims=state["claims"],
        dropped_claims=state["dropped_claims"],
        found={c: bool(found.get(c)) for c in state["companies"]},
        missing=state["missing"],
        attempts=state["attempt"],
        queries=state["query_log"],
        unheld=dict(state.get("unheld") or {}),
        absent=list(state.get("absent_companies") or []),
        fetched=list(state.get("fetched") or []),
        unmentioned=dict(state.get("unmentioned") or {}),
    )


def same_company(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a.casefold() == b.casefold()
