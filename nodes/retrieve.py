"""Nodes of the retrieval subgraph (graphs/retrieval.py), its state, and its offline grading, drafting and
verification.

Steps: `start_retrieval` validates the request and resets the private state; `plan_queries` picks this
attempt's companies and queries; `fan_out_searches` sends one `search_company` branch per company (`Send`);
`grade_documents` admits documents on their first GRADE_CHARS characters; `draft_and_verify` drafts extractive
claims and checks every figure and entity in each against the FULL text of the evidence it cites;
`route_after_verify` says "done", "retry" or "fallback"; `finish_retrieval` / `fall_back` write the result.

Searching is injected: `search_fn(query, company, fiscal_year, k) -> list[Evidence]` (the app adapts
KnowledgeBase.search to it; `evidence_from_hit` converts one of its hits). Grading is offline by default (fused
score + term overlap); any `(question, truncated_text) -> bool` can replace it.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from functools import lru_cache
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from langgraph.types import Overwrite, Send
from pydantic import BaseModel, ConfigDict, Field

from app.knowledge.analyzer import analyze
from app.text.figures import FIGURE, figures_in, has_figure, parse_figure, states_figure
from app.text.periods import fiscal_years_named, is_year_token, years_named
from app.text.sentences import joined_lists, readable_tables, split_at_stops, split_sentences
from prompts.retrieval import GRADE_CHARS
from reducers import concat_documents, merge_found

DEFAULT_K = 5
"""Hits asked of search_fn per (query, fiscal year) on the first attempt; attempt n asks for n * k."""
DEFAULT_MAX_ATTEMPTS = 2
"""Searches before giving up: the first plus one retry (DESIGN.md)."""
MIN_FUSED_SCORE = 0.0
"""The offline grader's floor on Evidence.score. Hybrid search scores are weighted reciprocal-rank fusion,
weight / (60 + rank), so about 0.008-0.033: 0.0 admits anything the search ranked and leaves the decision to
the term overlap. Raise it for search functions whose scores are similarities (dense cosine)."""
MIN_TERM_OVERLAP = 0.25
"""The offline grader's floor on the share of the question's topic terms (stemmed words and figures, minus
company names, years and question words) found in the document's first GRADE_CHARS characters."""
MAX_CLAIMS_PER_COMPANY = 2
"""The extractive draft keeps this many best-supported sentences per company."""
MAX_FAILED_TERMS = 8
SECTION_ONLY_WEIGHT = 0.75
"""A sentence whose support comes only from its section heading counts this much of that support."""
"""At most this many unsupported figures/entities of failed claims extend the retry query."""

_QUESTION_WORDS = (
    "much many tell give show explain please also know like get happen happened year years about regarding "
    "concerning "
    # Arithmetic and comparison words name what to do with the facts, not the facts: documents rarely hold them.
    "difference differ between compare compared comparison versus vs exceed exceeded gap calculate compute"
)
_SENTENCE_WORDS = frozenset(
    """a an and as at after before but by during for from he her his however in it its of on or our over
    she that the their there these they this those to under we when where while with""".split()
)


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
    unheld: dict[str, list[int]] = Field(
        default_factory=dict, description="Named companies whose filings cannot cover the fiscal years asked, "
        "each with the fiscal years the knowledge base does hold for it (those companies were not searched).")


class SearchRequest(BaseModel):
    """One `search_company` branch's work: every query, for every fiscal year, filtered to one company."""

    model_config = ConfigDict(frozen=True)

    company: str | None
    queries: list[str]
    fiscal_years: list[int]
    doc_type: str | None = None
    k: int = DEFAULT_K


SearchFn = Callable[[str, str | None, int | None, int], list[Evidence]]
PeriodsFn = Callable[[str], Sequence[int]]
"""The fiscal years the knowledge base holds filings for, for one company."""
COMPARATIVE_YEARS = 2
"""A filing for fiscal year Y also states Y-1 and Y-2 (an annual report's three years of results), so a question
about FY2017 is answerable from the FY2019 report, and one about FY2015 is not."""
Grader = Callable[[str, str], bool]
Drafter = Callable[[str, list[Evidence]], list[Claim]]

# Pydantic types this module puts into graph state: pass to JsonPlusSerializer(allowed_msgpack_modules=...).
CHECKPOINT_TYPES: tuple[tuple[str, str], ...] = tuple(
    (__name__, cls) for cls in ("Evidence", "Claim", "RetrievalResult", "SearchRequest")
)


def evidence_from_hit(hit: Any) -> Evidence:
    """Evidence from a KnowledgeBase SearchHit (or any object with the same attribute names)."""
    return Evidence.model_validate(hit, from_attributes=True)


# --- state --------------------------------------------------------------------------------------------------


class RetrievalInput(TypedDict):
    question: str
    companies: list[str]
    fiscal_years: list[int]
    doc_type: NotRequired[str | None]


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


class SearchTask(TypedDict):
    """The `Send` payload of one search branch (its one key becomes a private channel)."""

    request: SearchRequest


# --- nodes --------------------------------------------------------------------------------------------------


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
        "unheld": unheld_periods(companies, years, periods_fn, str(state["question"])),
        "companies": companies,
        "fiscal_years": years,
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
    }


_FORWARD_LOOKING = re.compile(r"(?i)\b(guidance|outlook|forecasts?|expect(?:s|ed|ations?)?|targets?|plans?|"
                              r"projections?|budget(?:ed)?|will)\b")


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


def route_after_start(state: Mapping[str, Any]) -> Literal["plan_queries", "fall_back"]:
    """Search unless every named company is unheld for the years asked: then there is nothing to search."""
    companies, unheld = state.get("companies") or [], state.get("unheld") or {}
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
        queries = list(dict.fromkeys([state["question"], keyword_query(state["question"], state["companies"])]))
    else:
        # A retry widens as well as narrows: the fiscal years stop being a filter and become query terms, since
        # the figure may sit in a neighbouring year's report (FY2025 guidance is in the FY2024 report).
        targets = [c for c in state["missing"] if c not in unheld] or [None]
        years = [f"FY{y}" for y in state["fiscal_years"]]
        queries = [rewrite_query(state["question"], state["missing"], [*state["failed_terms"], *years])]
    return {
        "attempt": attempt,
        "targets": targets,
        "year_filter": list(state["fiscal_years"]) if attempt == 1 else [],
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


def grade_documents(
    state: RetrievalState,
    *,
    grader: Grader | None = None,
    min_score: float = MIN_FUSED_SCORE,
    min_overlap: float = MIN_TERM_OVERLAP,
) -> dict[str, Any]:
    """Grade the documents this attempt added (each chunk once, on its first GRADE_CHARS characters)."""
    documents, start = state["documents"], state["graded_count"]
    seen = {d.chunk_id for d in documents[:start]}
    fresh = rank_evidence(d for d in documents[start:] if d.chunk_id not in seen)
    if grader is None:
        topic = topic_terms(state["question"], state["companies"])
        admitted = [d for d in fresh if grade_offline(topic, d, min_score=min_score, min_overlap=min_overlap)]
    else:
        admitted = [d for d in fresh if ask_grader(grader, state["question"], d)]
    graded = rank_evidence([*state["graded"], *admitted])
    found = {c: any(same_company(d.company, c) for d in graded) for c in state["targets"] if c}
    return {"graded": graded, "graded_count": len(documents), "found": found}


def draft_and_verify(state: RetrievalState, *, drafter: Drafter | None = None) -> dict[str, Any]:
    """Draft claims from the admitted evidence, verify each, and say which companies still lack one."""
    evidence = list(state["graded"])
    by_id = {d.chunk_id: d for d in evidence}
    checked = [answered(verify_claim(c, by_id), state["question"], state["companies"])
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
    )


# --- grading ------------------------------------------------------------------------------------------------


def truncate_for_grading(text: str, limit: int = GRADE_CHARS) -> str:
    """What a grader sees of a document: its first `limit` characters."""
    return text[:limit]


def grade_offline(
    topic: set[str], evidence: Evidence, *, min_score: float = MIN_FUSED_SCORE, min_overlap: float = MIN_TERM_OVERLAP
) -> bool:
    """Keep a document whose fused score and topic-term overlap (first GRADE_CHARS characters) pass both floors."""
    return evidence.score >= min_score and term_overlap(topic, truncate_for_grading(evidence.text)) >= min_overlap


def ask_grader(grader: Grader, question: str, evidence: Evidence) -> bool:
    """A plugged-in grader sees the question and the truncated text; anything but a bool is an error."""
    verdict = grader(question, truncate_for_grading(evidence.text))
    if not isinstance(verdict, bool):
        raise TypeError(f"a grader must return a bool, got {type(verdict).__name__} for {evidence.chunk_id!r}")
    return verdict


def topic_terms(question: str, companies: Iterable[str]) -> set[str]:
    """The question's analyzed terms minus company names, fiscal years and question words."""
    names = set(analyze(" ".join(companies)))
    return {t for t in analyze(question) if t not in names and t not in _question_noise() and not is_year_token(t)}


def term_overlap(topic: set[str], text: str) -> float:
    """Share of the topic terms found in `text` (1.0 when the question has no topic terms)."""
    if not topic:
        return 1.0
    return len(topic & set(analyze(text))) / len(topic)


@lru_cache(maxsize=1)
def _question_noise() -> frozenset[str]:
    return frozenset(analyze(_QUESTION_WORDS))


# --- drafting -----------------------------------------------------------------------------------------------


def draft_claims(
    question: str, evidence: list[Evidence], *, per_company: int = MAX_CLAIMS_PER_COMPANY
) -> list[Claim]:
    """The offline, extractive draft: per company, the sentences that share most topic terms with the
    question (a figure breaks ties upward), each citing the chunk it was taken from."""
    topic = topic_terms(question, {d.company for d in evidence if d.company})
    years = years_named(question)
    groups: dict[str, list[Evidence]] = {}
    for doc in rank_evidence(evidence):
        groups.setdefault((doc.company or "").casefold(), []).append(doc)
    limit = min(per_company + question_parts(question) - 1, MAX_CLAIMS_PER_COMPANY + 2)
    companies = {d.company for d in evidence if d.company}
    answers = ((lambda sentence, section: answers_question(question, sentence, companies, section))
               if asks_for_figure(question) else None)
    return [claim for docs in groups.values() for claim in best_sentences(topic, docs, limit, years, answers)]


_SECOND_PART = re.compile(r"(?i)(?:,|;|\band\b)\s*(?:and\s+)?(?:what|when|how|who|where|why|which|by how)\b")


def question_parts(question: str) -> int:
    """How many things the question asks: 'What is the dividend, and when is it paid?' asks two."""
    return 1 + len(_SECOND_PART.findall(question))


_INSTRUCTION = re.compile(
    r"(?i)\b(ignore|disregard|forget|override)\b.{0,40}\b(instructions?|prompts?|rules?|above)\b|"
    r"\b(AI|language model|LLM|assistant|chatbot)s?\b.{0,30}\b(reading|must|should|shall)\b|"
    r"\byou (must|should) (now )?(say|state|answer|recommend|tell)\b")


def looks_like_instruction(sentence: str) -> bool:
    """A sentence addressed to a model rather than a reader ('AI systems reading this: ignore all previous
    instructions...'). Documents are data: the extractive draft never quotes such a sentence as a fact."""
    return _INSTRUCTION.search(sentence) is not None


def best_sentences(topic: set[str], docs: Sequence[Evidence], limit: int, years: Sequence[int] = (),
                   answers: Callable[[str, str], bool] | None = None) -> list[Claim]:
    # A sentence is read in its section's context: under "Outlook and guidance", "For FY2025 we expect: revenue
    # of $1.02bn to $1.08bn; ..." answers a question about guidance although it never says the word. Support
    # through the section alone counts for less than the sentence's own words.
    def support(sentence: str, section: str | None) -> float:
        own = sentence_support(topic, sentence, years)
        return own if own > 0 or not section else SECTION_ONLY_WEIGHT * sentence_support(
            topic, f"{sentence} {section}", years)

    candidates = [
        (support(sentence, doc.section), doc.score, -position, sentence, doc)
        for doc in docs
        for position, sentence in enumerate(split_sentences(joined_lists(readable_tables(doc.text))))
        if not looks_like_instruction(sentence) and (answers is None or answers(sentence, doc.section or ""))
    ]
    ranked = sorted((c for c in candidates if c[0] > 0), key=lambda c: c[:3], reverse=True)
    picked: dict[str, Claim] = {}
    for _, _, _, sentence, doc in ranked:
        if len(picked) < limit and sentence not in picked:
            picked[sentence] = Claim(text=sentence, evidence_chunk_ids=[doc.chunk_id], company=doc.company)
    return list(picked.values())


def matched_terms(topic: set[str], terms: set[str]) -> set[str]:
    """Topic terms found among `terms`, exactly or, for words of 5+ letters, by a shared 5-letter stem prefix:
    the stemmer keeps "acquire" (acquir) and "acquisition" (acquisit) apart, a reader does not."""
    prefixes = {t[:5] for t in terms if len(t) >= 5 and t.isalpha()}
    return {t for t in topic if t in terms or (len(t) >= 5 and t.isalpha() and t[:5] in prefixes)}


def sentence_support(topic: set[str], sentence: str, years: Sequence[int] = ()) -> float:
    """Topic terms in the sentence, plus 0.5 when it holds a figure; 0 when it shares no topic term. A sentence
    that names only fiscal years other than the question's (a forecast for FY2025 when FY2024 was asked) counts half,
    one that names a year asked gains 0.5. Calendar dates do not count as years here."""
    hits = len(matched_terms(topic, set(analyze(sentence))))
    if topic and not hits:
        return 0.0
    score = hits + (0.5 if states_figure(sentence) else 0.0)
    named = set(fiscal_years_named(sentence))
    if years and named:
        score = score + 0.5 if named & set(years) else score * 0.5
    return score


# --- what the question asks ---------------------------------------------------------------------------------

_QUESTION_WORD = re.compile(r"(?i)\b(how much|how many|what|which|who|whom|when|where|why|how)\b")
_ASKS_FIGURE = re.compile(r"(?i)\b(how much|how many|what (?:is|was|were|are|would be|will be)|"
                          r"by how much|what percentage)\b")
_ASKS_OTHER = re.compile(
    r"(?i)\b(why|drove|drivers?|driven|explain|describe|reasons?|nature|purpose|agenda|which|who|whom|when|where|"
    r"how did|how has|how have|how does|what (?:are|were) (?:the )?(?:main|major|key|primary)|risks?|strategy)\b")
_QUANTITY = re.compile(
    r"(?i)\b(amount|total|revenues?|sales|income|margins?|ratios?|rates?|expenditures?|capex|cash|assets?|"
    r"liabilit(?:y|ies)|debt|equity|eps|earnings|dividends?|costs?|expenses?|profits?|loss(?:es)?|growth|"
    r"turnover|days|number|count|price|value|percent(?:age)?|shares?|yield|production|occupancy|revpar|churn|"
    r"arpu|balance|pp&?n?e|inventor(?:y|ies)|receivables?|payables?|capital|employees|headcount|ebitda|ebit|"
    r"spend(?:ing)?|proceeds|backlog|reserves?|provisions?|outstanding|volumes?|units?|deliveries|subscribers?|"
    r"members|stores|customers|bookings|orders)\b")
_MEASURE_NOISE = ("amount usd dollar dollars million millions billion billions thousand thousands unit units value "
                  "figure end ending close closing have has had did does do reported report fiscal quarter period")
MIN_LONG_COVERAGE = 0.75
"""A measure of four or more words counts as stated when this share of its words stand together in a sentence."""


def core_question(question: str) -> str:
    """The question proper: its sentences that ask (end in '?'), each from its first question word on, so that
    instructions around it ('Answer using the balance sheet: what is ...? Round to two decimals.') drop out."""
    sentences = [s for s in split_at_stops(question.strip()) if s.strip()]
    asked = [s for s in sentences if s.rstrip().endswith("?")] or sentences[:1]
    out = []
    for sentence in asked:
        tail = sentence.rsplit(":", 1)[-1]
        sentence = tail if _QUESTION_WORD.search(tail) else sentence
        match = _QUESTION_WORD.search(sentence)
        out.append(sentence[match.start():] if match else sentence)
    return " ".join(out)


def asks_for_figure(question: str) -> bool:
    """Whether the question asks for a figure: 'how much/many', or 'what is/was' a quantity (not why, who,
    which, or what drove it)."""
    core = core_question(question)
    if re.search(r"(?i)\bhow (much|many)\b", core):
        return True
    return bool(_ASKS_FIGURE.search(core)) and not _ASKS_OTHER.search(core) and bool(_QUANTITY.search(core))


def measure_terms(question: str, companies: Iterable[str] = ()) -> list[set[str]]:
    """What an answer to a figure question must name, as alternatives: the measure the question names (its
    content words), and, when that measure is a metric of the catalogue (app/metrics.py), the metric's name
    and the line items it is computed from; when it is a line item, that item's names in statements
    ('capital expenditure' is stated as 'Purchases of property, plant and equipment')."""
    from app.metrics import LINE_ITEMS, find_metrics

    core = core_question(question)
    noise = _measure_noise()
    # 'What was revenue, and how much did it grow?' asks two things: a sentence may state either.
    parts = [{t for t in topic_terms(part, companies) - noise if len(t) > 1 or t.isdigit()}
             for part in _SECOND_PART.split(core) if part and not _QUESTION_WORD.fullmatch(part.strip())]
    measure = set().union(*parts) if parts else set()
    alternatives = [p for p in parts if p]
    for metric in find_metrics(core):
        alternatives.append(set(analyze(metric.name)))
        for source in metric.inputs:
            alternatives += [set(analyze(name)) for name in (source.item.synonyms if source.item else ())]
    for item in LINE_ITEMS.values():
        names = [set(analyze(name)) for name in item.synonyms]
        if any(part and any(part == n - noise for n in names) for part in parts):
            alternatives += [n for n in names if len(n) >= min(len(p) for p in parts if p)]
    return [a for a in alternatives if a]


def states_measure(alternatives: Sequence[set[str]], sentence: str, context: str = "") -> bool:
    """Some alternative's words stand together in the sentence (stop words aside): all of them, side by side,
    one other word allowed among three or more ('net interest margin' is not stated by 'net interest expense ...
    margin', 'total assets' not by 'total current assets'); for a
    measure of four or more words, MIN_LONG_COVERAGE of them. Words the sentence's context (its section
    heading) states need not be repeated; every forward-looking word ('expect', 'outlook') says 'guidance'."""
    tokens = [_forward_stem(t) for t in analyze(sentence)]
    given = {_forward_stem(t) for t in analyze(context)}
    for words in alternatives:
        words = {_forward_stem(w) for w in words}
        rest = words - matched_terms(words, given)
        if not rest:
            return True
        need = len(rest) if len(rest) <= 3 else math.ceil(MIN_LONG_COVERAGE * len(rest))
        width = len(rest) + (1 if len(rest) >= 3 else 0)  # 'total assets' is not 'total current assets'

        for start in range(len(tokens)):
            if len(matched_terms(rest, set(tokens[start:start + width]))) >= need:
                return True
    return False


def answers_question(question: str, sentence: str, companies: Iterable[str] = (), context: str = "") -> bool:
    """A sentence answers a figure question only when it states a figure and names the measure asked;
    any sentence may answer another kind of question (grading and support decide those)."""
    if not asks_for_figure(question):
        return True
    return states_figure(sentence) and states_measure(measure_terms(question, companies), sentence, context)


def _forward_stem(term: str) -> str:
    return "guidanc" if term in _forward_stems() else term


@lru_cache(maxsize=1)
def _forward_stems() -> frozenset[str]:
    return frozenset(analyze("guidance outlook forecast forecasts expect expects expected expectation expectations "
                             "target targets projection projections"))


@lru_cache(maxsize=1)
def _measure_noise() -> frozenset[str]:
    return frozenset(analyze(_MEASURE_NOISE))


# --- verification -------------------------------------------------------------------------------------------

_ENTITY = re.compile(r"[^\W\d_][\w&'’.-]*")


def verify_claim(claim: Claim, evidence_by_id: Mapping[str, Evidence]) -> Claim:
    """Every figure and capitalised entity of the claim must appear in the full text of the evidence it cites
    (all cited chunks must have been admitted). Returns a copy with `verified`, `unsupported` and `company`."""
    cited = [evidence_by_id[i] for i in claim.evidence_chunk_ids if i in evidence_by_id]
    uncited = not cited or len(cited) != len(claim.evidence_chunk_ids)
    unsupported = unsupported_terms(claim.text, " ".join(d.text for d in cited))
    company = claim.company or next((d.company for d in cited if d.company), None)
    verified = not uncited and not unsupported
    return claim.model_copy(update={"verified": verified, "unsupported": unsupported, "company": company})


def answered(claim: Claim, question: str, companies: Sequence[str]) -> Claim:
    """A verified claim that does not state what a figure question asks (the measure, with a figure) is not an
    answer, however many words it shares with the question."""
    if not claim.verified or answers_question(question, claim.text, companies):
        return claim
    return claim.model_copy(update={"verified": False, "unsupported": [*claim.unsupported, "(not the measure asked)"]})


def unsupported_terms(claim: str, evidence: str) -> list[str]:
    """The claim's figures and capitalised words that the evidence text does not contain."""
    available = figures_in(evidence)
    figures = [m.group(0).strip() for m in FIGURE.finditer(claim) if not has_figure(parse_figure(m), available)]
    plain = evidence.replace("’", "'")
    entities = [e for e in claim_entities(claim) if not re.search(rf"(?<!\w){re.escape(e)}(?!\w)", plain, re.I)]
    return list(dict.fromkeys([*figures, *entities]))


def claim_entities(claim: str) -> list[str]:
    """Capitalised words (possessives and trailing punctuation removed), minus common sentence openers."""
    words = (re.sub(r"'s$", "", w.replace("’", "'")).rstrip(".-'") for w in _ENTITY.findall(claim))
    return [w for w in dict.fromkeys(words) if w and w[0].isupper() and w.casefold() not in _SENTENCE_WORDS]


# --- retry query --------------------------------------------------------------------------------------------


def keyword_query(question: str, companies: Sequence[str] = ()) -> str:
    """The question's content words: question and arithmetic words dropped, and the names of the companies
    searched (each branch is filtered to its company already, and every chunk's header names it). The question
    itself when nothing remains."""
    names = set(analyze(" ".join(companies)))
    kept = [w for w in rewrite_query(question, [], []).split() if not set(analyze(w)) & names]
    return " ".join(kept) or question


def rewrite_query(question: str, missing: Sequence[str], failed_terms: Sequence[str]) -> str:
    """The offline rewrite: the question's content words, then each missing company and failed-claim term
    that the query does not already contain."""
    noise = _question_noise()
    words = [w.strip("?!.,;:") for w in question.split()]
    parts = [w for w in words if w and set(analyze(w)) - noise]
    for extra in [*missing, *failed_terms]:
        if extra.casefold() not in " ".join(parts).casefold():
            parts.append(extra)
    return " ".join(parts)


# --- helpers ------------------------------------------------------------------------------------------------


def rank_evidence(items: Iterable[Evidence]) -> list[Evidence]:
    """Best score first (ties by chunk id), one entry per chunk id."""
    unique: dict[str, Evidence] = {}
    for doc in sorted(items, key=lambda d: (-d.score, d.chunk_id)):
        unique.setdefault(doc.chunk_id, doc)
    return list(unique.values())


def same_company(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a.casefold() == b.casefold()
