"""The page stage of search: candidate chunks grouped into the pages they sit on, pages judged as units.

Over whole filings the right filing is usually found and the right page inside it is not: hundreds of pages of
one 10-K share the company's vocabulary. A page is judged by its best chunk, by a second chunk that also
matched (a page that answers tends to match more than once), and, for questions that need a primary financial
statement, by whether the page *is* that statement (its title in the page's first lines, as pypdf extracts it:
"CONSOLIDATED STATEMENTS OF CASH FLOWS", "Consolidated Statement of Cash Flow s"). Which statement a question
needs comes from the statement it names ("based on the balance sheet") or else from the line items its measure
reads (capital expenditure is on the cash flow statement, working capital on the balance sheet).

Pure functions; `search.py` calls `rank_pages` after fusion.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from app.text.places import PART_OF_WORLD, REGION_NAMES

Statement = str  # "balance", "income", "cash_flow", "equity"

# Titles as they open a statement page, matched on lower-case letters only (pypdf breaks words: "Flow s").
_TITLES: dict[Statement, tuple[str, ...]] = {
    "balance": ("balancesheet", "statementoffinancialposition", "statementsoffinancialposition",
                "statementofcondition", "statementsofcondition"),
    "income": ("statementofincome", "statementsofincome", "statementofoperations", "statementsofoperations",
               "statementofearnings", "statementsofearnings", "incomestatement", "statementsofincomeloss",
               "statementofcomprehensiveincome", "statementsofcomprehensiveincome", "profitandloss"),
    "cash_flow": ("statementofcashflow", "statementsofcashflow", "cashflowstatement"),
    "equity": ("statementofshareholdersequity", "statementsofshareholdersequity", "statementofstockholdersequity",
               "statementsofstockholdersequity", "statementsofchangesinequity", "statementofequity",
               "statementsofequity"),
}
# What a question says when it names a statement.
_NAMED = {
    # ('buy bitcoin for its own balance sheet': on its own account, no statement asked)
    "balance": re.compile(r"(?i)(?<!\bown\s)\bbalance\s*sheets?\b|\bstatements? of financial (position|condition)\b"),
    "income": re.compile(r"(?i)\bincome statements?\b|\bstatements? of (income|operations|earnings)\b|\bP\s?&\s?L\b|"
                         r"\bprofit and loss\b"),
    "cash_flow": re.compile(r"(?i)\bcash\s?flows? statements?\b|\bstatements? of cash\s?flows?\b"),
    "equity": re.compile(r"(?i)\bstatements? of (changes in )?(shareholders'?|stockholders'?) equity\b"),
}
# Measures and the statement that reports them, when the question names no statement.
_MEASURES = {
    "cash_flow": re.compile(r"(?i)\b(capex|capital expenditures?|purchases? of property|cash from operations|"
                            r"(operating|free) cash flows?|cash flows? from operating|dividends? paid|"
                            r"depreciation and amortization|share repurchases?|buybacks?)\b"),
    "balance": re.compile(r"(?i)\b(total assets|current assets|current liabilities|working capital|"
                          r"total liabilities|total equity|"
                          r"(quick|current|cash) ratio|inventor(y|ies)|receivables?|payables?|PP&?E|"
                          r"property,? plant|fixed assets?|total debt|long-term debt|shareholders'? equity|"
                          r"stockholders'? equity|book value|net assets|goodwill|retained earnings)\b"),
    "income": re.compile(r"(?i)\b(revenues?|net sales|sales|cost of (goods sold|sales|revenues?)|COGS|"
                         r"gross (profit|margin)|operating (income|margin|profit)|net (income|margin|earnings)|"
                         r"EBITDA|EBIT|earnings per share|EPS|effective tax rate|interest expense|"
                         r"SG&A|selling, general)\b"),
}
_LETTERS = re.compile(r"[^a-z]")
_TITLE_LINES = 8
_NUMBER = re.compile(r"(?<![\w.,])\(?\d[\d,]*(?:\.\d+)?\)?(?!\w)")

STATEMENT_BONUS = 1.0
"""A page that is the statement the question needs gains this many top-rank votes (see `rank_pages`)."""
SECOND_CHUNK_WEIGHT = 0.5
"""A page's second-best chunk counts this much of its own score."""
YEAR_BONUS = 0.5
"""A page of a filing for the latest fiscal year the question names (the filing that states the years before it
too) gains this many top-rank votes."""
FORM_BONUS = 0.5
"""A page of a filing of the form the question implies (a quarter: 10-Q or earnings release; fiscal years or an
annual figure: 10-K; an 8-K named) gains this many top-rank votes."""
_QUARTERLY = re.compile(r"(?i)\b(q[1-4]|[1-4]q|quarter(ly)?|three months|six months|nine months|10-?q|interim|"
                        r"h[12]|half[- ]year(ly)?|(?:first|second)[- ]half)\b")
_CURRENT_REPORT = re.compile(r"(?i)\b8-?k\b")
_RELEASE_NAMED = re.compile(r"(?i)\b(?:earnings|results)\s+(?:press\s+)?release\b")
_ANNUAL = re.compile(r"(?i)\b(fy\s?'?\d{2,4}|fiscal( year)?|annual|10-?k|full[- ]year|year[- ]end(ed)?)\b")


def forms_wanted(question: str) -> set[str]:
    """The filing forms a question points at: a quarter or a half year means a 10-Q, an earnings release or a
    half-year report, an 8-K an 8-K, fiscal years or an annual figure a 10-K or an annual report; nothing when it
    says none of these."""
    if _CURRENT_REPORT.search(question):
        return {"8-K"}
    if _RELEASE_NAMED.search(question):
        return {"earnings"}  # 'per its Q4 FY2023 earnings release': the release, though the year is asked
    if _QUARTERLY.search(question):
        return {"10-Q", "earnings", "half-year"}
    return {"10-K", "annual"} if _ANNUAL.search(question) else set()


@dataclass
class PageScore:
    key: tuple[str, int | None]  # (source id, page); (chunk id, None) for a source without pages
    score: float
    chunk_ids: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


def statement_of_page(text: str) -> Statement | None:
    """Which primary statement a page is: its title among the first lines, and the page mostly figures.
    A contents page that lists every statement is none of them."""
    head = [line for line in text.splitlines() if line.strip()][:_TITLE_LINES]
    # a title is a line of its own (with the next line, which may hold its last letters: 'Incom' / 'e'), not a
    # sentence that refers to a statement ('The location in the consolidated statements of income …') or a
    # note's heading ('NOTE 6. Supplemental Income Statement Information')
    titled = [(_LETTERS.sub("", line.lower()), _LETTERS.sub("", following.lower()))
              for line, following in zip(head, [*head[1:], ""]) if _titled(line)]
    squashed = _LETTERS.sub("", " ".join(head).lower())
    named = [kind for kind, titles in _TITLES.items() if any(t in squashed for t in titles)]
    kinds = [kind for kind, titles in _TITLES.items()
             if any(0 <= (line + rest).find(t) < len(line) for t in titles for line, rest in titled)]
    # a page whose opening names several statements (a contents page, an index) is none of them
    if len(named) != 1 or kinds != named or len(_NUMBER.findall(text)) < 12:
        return None
    return kinds[0]


_NOTE_HEADING = re.compile(r"(?i)^\s*note\s+\w{1,3}\b")
_SENTENCE_BREAK = re.compile(r"[a-z][.;:]\s+[A-Z]")
_PROSE_WORDS = re.compile(r"(?i)\b(?:we|our|us|accompanying|following|refer|see|(?:in|on|of|to) the)\b")
_TITLE_WORDS = 14


def _titled(line: str) -> bool:
    """Whether a line of a page's opening can be its title: short, one phrase and no sentence's words ('We have
    reviewed the accompanying consolidated balance sheet'), no note's heading."""
    return (len(line.split()) <= _TITLE_WORDS and not _NOTE_HEADING.match(line)
            and not _SENTENCE_BREAK.search(line) and not _PROSE_WORDS.search(line)
            and not line.lstrip()[:1].islower())


def statements_wanted(question: str) -> set[Statement]:
    """The statements a question names; when it names none, those its measures are reported on."""
    named = {kind for kind, pattern in _NAMED.items() if pattern.search(question)}
    if named:
        return named
    if _BREAKDOWN_ASKED.search(question) or _PART_NAMED.search(question):
        # 'Which region had the highest net sales', 'the Health Care segment's sales': a breakdown's table, not the
        # whole company's statement
        return set()
    return {kind for kind, pattern in _MEASURES.items() if pattern.search(question)}


_BREAKDOWN_ASKED = re.compile(
    r"(?i)\bwhich\s+(?:of\s+[\w&.'’-]+(?:\s+[\w&.'’-]+)?['’]s?\s+|of\s+(?:its|their|the)\s+)?"
    r"(?:[\w&.'’-]+\s+){0,3}?"
    r"(?:segments?|regions?|divisions?|geograph\w*|countr(?:y|ies)|business\s+units?|reporting\s+units?)\b"
    r"|\b(?:by|per|each)\s+(?:business\s+|operating\s+|reportable\s+)?(?:segments?|regions?|geograph\w*|divisions?)\b")
"""A question that ranks or lists the members of a breakdown ('Which region had …', 'revenue by segment')."""
_PART_NAMED = re.compile(rf"(?i)\b(?:segments?|divisions?|business\s+(?:groups?|units?)|region)\b|"
                         rf"\b(?:in|from)\s+(?:the\s+)?{REGION_NAMES}\b|\b{PART_OF_WORLD}\b")
"""A question about one part of the company ('the Health Care segment's sales', 'net sales in the Asia Pacific
region')."""


def rank_pages(chunks: Sequence[tuple[str, float]], rows: Mapping[str, Mapping], page_texts: Mapping,
               wanted: set[Statement], years: Sequence[int], unit: float,
               forms: Mapping[str, str | None] | None = None, forms_asked: set[str] = frozenset(),
               firsts: Sequence[str] = ()) -> list[PageScore]:
    """Pages of the candidate chunks, best first. chunks: [(chunk_id, fused score)] best first; rows: catalog
    rows by chunk id; page_texts: (source_id, page) -> the page's text; unit: the fused score of one top-rank
    vote, the scale every bonus is expressed in; forms: source id -> its form; forms_asked: `forms_wanted`;
    firsts: the chunks a retriever ranked first (`KEPT_WITHIN`)."""
    pages: dict[tuple[str, int | None], PageScore] = {}
    for cid, score in chunks:
        row = rows[cid]
        # A source without pages (flowing text, news) has no page to judge: each chunk stands alone.
        key = (row["source_id"], row["page"]) if row["page"] is not None else (cid, None)
        page = pages.setdefault(key, PageScore(key, 0.0))
        weight = 1.0 if not page.chunk_ids else SECOND_CHUNK_WEIGHT if len(page.chunk_ids) == 1 else 0.0
        page.score += weight * score
        page.chunk_ids.append(cid)
    for page in pages.values():
        row = rows[page.chunk_ids[0]]
        kind = statement_of_page(page_texts.get(page.key, ""))
        if kind and kind in wanted:
            page.score += STATEMENT_BONUS * unit
            page.reasons.append(f"is the {kind.replace('_', ' ')} statement the question needs")
        if years and row.get("fiscal_year") == max(years):
            page.score += YEAR_BONUS * unit
            page.reasons.append(f"filing for FY{row['fiscal_year']}, the latest year the question names")
        form = (forms or {}).get(row["source_id"])
        if form and form in forms_asked:
            page.score += FORM_BONUS * unit
            page.reasons.append(f"a {form} filing, the form the question implies")
    ranked = sorted(pages.values(), key=lambda p: (-p.score, p.key[0], p.key[1] or 0))
    return _best_passages_kept(ranked, firsts)


KEPT_WITHIN = 4
"""The page of a passage that a retriever ranked first (`firsts`) stays among the first KEPT_WITHIN pages: a page
judged as a unit gains from several middling chunks ('best chunk + half the second'), which must not bury the one
passage the dense and the sparse search both put first (a short page of MD&A prose that states the figure)."""


def _best_passages_kept(ranked: list[PageScore], best: Sequence[str]) -> list[PageScore]:
    out = list(ranked)
    for cid in best:
        at = next((i for i, p in enumerate(out) if cid in p.chunk_ids), None)
        if at is not None and at >= KEPT_WITHIN:
            page = out.pop(at)
            page.reasons.append("holds one of the passages ranked first")
            out.insert(KEPT_WITHIN - 1, page)
    return out


def stating_first(pages: Sequence[PageScore], stating: set[str]) -> list[PageScore]:
    """The pages with, on each, the chunks that state what was asked (`stating`: a count's sentence) before its
    others, the rest in their order."""
    return [replace(p, chunk_ids=sorted(p.chunk_ids, key=lambda cid: cid not in stating)) for p in pages]


def chunk_order(pages: Sequence[PageScore], firsts: Sequence[str] = ()) -> list[str]:
    """Chunks in page order: the best chunk of every page first, then the pages' other chunks; a chunk both
    searches ranked first (`firsts`) right after its page's best, when the fusion ranked another chunk of its page
    higher."""
    out = [p.chunk_ids[0] for p in pages]
    for page in pages:
        for cid in page.chunk_ids[1:]:
            if cid in firsts:
                out.insert(out.index(page.chunk_ids[0]) + 1, cid)
    return out + [cid for p in pages for cid in p.chunk_ids[1:] if cid not in out]
