"""Hybrid search: dense, sparse and company/year-scoped dense candidates, fused, filtered, de-duplicated, capped.

Every step of the funnel reports how many candidates it kept and removed, and why; every hit says which lists
put it where.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from app.knowledge.analyzer import analyze
from app.knowledge.fusion import dedupe, weighted_rrf
from app.knowledge.pages import (chunk_order, forms_wanted, rank_pages, statement_of_page, statements_wanted,
                                  stating_first)
from app.knowledge.sparse import top_k
from app.knowledge.types import Filters, FunnelStep, SearchHit, SearchMode, SearchResponse
from app.text.companies import companies_named
from app.text.measures import COUNT_QUALIFIERS, MeasureAsked, counted_as, measure_asked
from app.text.periods import years_in
from app.text.places import regions_asked

if TYPE_CHECKING:
    from app.knowledge.base import KnowledgeBase


def hybrid_search(kb: KnowledgeBase, query: str, *, k: int, mode: SearchMode, filters: Filters,
                  pool: int | None = None) -> SearchResponse:
    if not query.strip():
        raise ValueError("the query is empty")
    if k < 1:
        raise ValueError("k must be at least 1")
    pool = pool or max(50, 10 * k)
    settings = kb.settings
    funnel: list[FunnelStep] = []
    lists: dict[str, list[tuple[str, float]]] = {}
    sparse, rows = kb.sparse_view()  # one generation for the index and its metadata
    eligible = _eligible_mask(rows, filters)
    total = len(sparse.ids)
    n_eligible = int(eligible.sum()) if eligible is not None else total
    if filters.active():
        funnel.append(FunnelStep("filter", n_eligible, total - n_eligible,
                                 "metadata filter " + ", ".join(f"{k}={v}" for k, v in filters.active().items())))
    named = (companies_named(query, kb.catalog.companies(), kb.catalog.company_aliases())
             if mode == "hybrid" and not filters.company else [])
    years = years_in(query, kb.catalog.fiscal_years()) if mode == "hybrid" and filters.fiscal_year is None else []
    if named:  # the question names companies the knowledge base holds: search their filings only
        scoped = np.fromiter((bool(r) and r.get("company") in named for r in rows), dtype=bool)
        eligible = scoped if eligible is None else eligible & scoped
        funnel.append(FunnelStep("scope", int(eligible.sum()), n_eligible - int(eligible.sum()),
                                 "filings of the companies the question names: " + ", ".join(named)))
        n_eligible = int(eligible.sum())

    if mode in ("hybrid", "dense") and n_eligible:
        qvec = kb.embedder.embed([query])[0]
        lists["dense"] = _dense(kb, qvec, min(pool, n_eligible), _within(filters.chroma_where(), named))
        for company, year in scopes(named, years):
            label = " ".join(x for x in (company, f"FY{year}" if year else None) if x)
            lists[f"scope:{label}"] = _dense(kb, qvec, min(pool // 2, n_eligible),
                                             filters.chroma_where(company=company, fiscal_year=year))
    if mode in ("hybrid", "sparse") and n_eligible:
        words = " ".join([query, *line_items_for(query), *headcount_words(query), *breakdown_words(query)])
        scored = top_k(sparse.index.scores(analyze(words)), pool, eligible)
        lists["sparse"] = [(sparse.ids[i], s) for i, s in scored]
    scoped_to = [filters.company] if filters.company else named
    asked_years = years or named_years(query)  # a filter's year is not in `years`; the question still names it
    wanted = statements_wanted(query) if mode == "hybrid" and scoped_to else set()
    counted = counted_stems(query) if mode == "hybrid" and scoped_to else frozenset()
    regions = regions_asked(query) if mode == "hybrid" and scoped_to else []
    asked = measure_asked(query, scoped_to) if mode == "hybrid" and scoped_to else None
    segment = segment_asked(asked, regions) if asked else None
    measure = row_measure_asked(query, asked) if asked and not segment else None
    # the sparse list's chunks, read once for the lists below
    sparse_rows = kb.catalog.get_chunks(c for c, _ in lists["sparse"]) if lists.get("sparse") and (
        wanted or counted or regions or segment or measure) else {}
    if wanted:
        openings = statement_chunks(kb, scoped_to, wanted, asked_years)
        lists["statements"] = with_later_chunks(openings, lists.get("sparse", []),
                                                {**kb.catalog.get_chunks(c for c, _ in openings), **sparse_rows})
    if counted and lists.get("sparse"):
        lists["counts"] = count_chunks(lists["sparse"], sparse_rows, counted)
    if regions and lists.get("sparse"):
        lists["regions"] = region_row_chunks(lists["sparse"], sparse_rows, regions)
    if segment and lists.get("sparse"):
        lists["segments"] = segment_row_chunks(lists["sparse"], sparse_rows, *segment)
    if measure and lists.get("sparse"):
        lists["rows"] = measure_row_chunks(lists["sparse"], sparse_rows, measure)
    if total == 0:
        return SearchResponse(query=query, mode=mode, hits=[], funnel=[], companies_named=[])
    for name, ranked in lists.items():
        funnel.append(FunnelStep(f"retrieve:{name}", len(ranked), 0, _describe(name, pool)))

    weights = {"dense": settings.dense_weight, "sparse": settings.sparse_weight}
    weights.update({name: settings.entity_weight for name in lists if name.startswith("scope:")})
    weights["statements"] = weights["counts"] = weights["regions"] = weights["segments"] = \
        weights["rows"] = settings.entity_weight
    fused = weighted_rrf(lists, weights, k=settings.rrf_k)
    union = sum(len(v) for v in lists.values())
    funnel.append(FunnelStep("fuse", len(fused), union - len(fused),
                             "weighted reciprocal rank fusion; the same chunk from several lists counted once"
                             if len(lists) > 1 else "single list, ranks kept"))

    rows = kb.catalog.get_chunks(c.chunk_id for c in fused)
    live = [c for c in fused if c.chunk_id in rows and filters.matches(rows[c.chunk_id])]
    if len(live) != len(fused):
        funnel.append(FunnelStep("stale", len(live), len(fused) - len(live),
                                 "chunk no longer in the catalog (replaced or removed)"))

    if mode == "hybrid" and live:
        live = _by_page(kb, query, live, rows, asked_years, funnel, settings.rrf_k)
    final, dup_of = dedupe([(c.chunk_id, rows[c.chunk_id]["text"]) for c in live], settings.dedupe_threshold,
                           limit=k)
    examined = len(final) + len(dup_of)
    funnel.append(FunnelStep("dedupe", len(final), len(dup_of),
                             f"near-duplicate text (word 5-gram Jaccard >= {settings.dedupe_threshold}) "
                             f"among the best {examined} until {k} were kept"))
    by_id = {c.chunk_id: c for c in live}
    funnel.append(FunnelStep("cap", len(final), len(live) - examined, f"top {k}"))

    hits = []
    for rank, cid in enumerate(final, start=1):
        cand, row = by_id[cid], rows[cid]
        dups = [d for d, kept in dup_of.items() if kept == cid]
        hits.append(SearchHit(
            rank=rank, chunk_id=cid, source_id=row["source_id"], title=row["title"], page=row["page"],
            company=row["company"], fiscal_year=row["fiscal_year"], doc_type=row["doc_type"],
            published_at=row["published_at"], section=row["section"], is_table=bool(row["is_table"]),
            score=cand.score, why=_why(cand.ranks, cand.raw, dups, cand.page_reasons),
            text=row["text"],
            signals={"ranks": cand.ranks, "raw": {n: round(v, 4) for n, v in cand.raw.items()},
                     "duplicates_removed": dups},
        ))
    return SearchResponse(query=query, mode=mode, hits=hits, funnel=funnel, companies_named=named)


def _within(where: dict | None, companies: list[str]) -> dict | None:
    """A chroma `where` narrowed to the named companies."""
    if not companies:
        return where
    clause = {"company": companies[0]} if len(companies) == 1 else {"company": {"$in": companies}}
    return clause if where is None else {"$and": [where, clause]}


def line_items_for(query: str) -> list[str]:
    """The statement names of what the query asks about: the line items of a metric it names ('fixed asset
    turnover' reads revenue and PP&E), and a line item's other names ('capital expenditure' is stated as
    'purchases of property, plant and equipment'); for a judgement, the measures it conventionally rests on
    (app/judgements.py: 'conservatively financed' reads the equity ratio and net debt to EBITDA). Sparse search
    reads them; dense search keeps the question."""
    from app.judgements import convention_for
    from app.metrics import LINE_ITEMS, METRICS, find_metrics, items_named

    metrics = find_metrics(query)
    judged = convention_for(query)  # 'conservatively financed' is read from the equity ratio and net debt
    if judged is not None:
        metrics += [METRICS[m.lower()] for m in judged.metrics if m.lower() in METRICS]
    items = [source.item for metric in metrics for source in metric.inputs if source.item]
    items += items_named(query)
    names = [name for item in dict.fromkeys(items) if item in LINE_ITEMS for name in LINE_ITEMS[item].synonyms[:3]]
    if judged is not None:
        names += list(judged.measures)
    return list(dict.fromkeys(names))


def statement_chunks(kb: KnowledgeBase, companies: list[str], wanted: set[str], years: list[int]
                     ) -> list[tuple[str, float]]:
    """The opening chunk of every page of the named companies' filings that is a statement the query needs,
    the filings of the years it names first."""
    rows = [(cid, year) for cid, text, year in kb.catalog.page_openings(companies)
            if statement_of_page(text) in wanted]
    rows.sort(key=lambda r: (r[1] not in years, -(r[1] or 0), r[0]))
    return [(cid, 1.0) for cid, _ in rows]


def with_later_chunks(openings: list[tuple[str, float]], sparse: list[tuple[str, float]], rows: dict[str, dict]
                      ) -> list[tuple[str, float]]:
    """The statement pages' opening chunks, each followed by the later chunks of its page (source and page, as
    `rows`, the catalog's rows by chunk id, give them) that the sparse list finds, in its order: the line asked
    may stand below the page's first rows ('Total liabilities' in the second chunk of a balance sheet)."""
    def page(cid: str) -> tuple[str, int | None] | None:
        row = rows.get(cid)
        return (row["source_id"], row["page"]) if row and row["page"] is not None else None

    opening_ids = {cid for cid, _ in openings}
    later: dict[tuple[str, int | None] | None, list[tuple[str, float]]] = {}
    for cid, score in sparse:
        if cid not in opening_ids and (key := page(cid)) is not None:
            later.setdefault(key, []).append((cid, score))
    return [entry for opening in openings for entry in (opening, *later.get(page(opening[0]), []))]


def counted_stems(query: str) -> frozenset[str]:
    """The things a query counts that a filing states a number of in its prose ('employees' of 'total employees
    end 2015': 'we had approximately 3,700 total employees'), as analyzed words; not the things a table counts
    ('Machine Tools' orders). A headcount asked in any of its words is counted in all of them ('headcount' asked,
    'we employed 13,893 people' written)."""
    found = frozenset(analyze(query)) & _PROSE_COUNTS
    return found | _PEOPLE if found & _PEOPLE else found


def breakdown_words(query: str) -> list[str]:
    """The words filings title a breakdown by region with ('net sales … by geography', 'Sales to customers by
    geographic area'), for a query that asks for a region ('which region's net sales fell'): so keyword search
    finds the table that names no region the query does."""
    asked = frozenset(analyze(query))
    return ["geography", "geographic"] if asked & _REGION_WORDS and not asked & _GEOGRAPHY else []


_REGION_WORDS = frozenset(analyze("region regions regional"))
_GEOGRAPHY = frozenset(analyze("geography geographic geographical"))


def headcount_words(query: str) -> list[str]:
    """The words filings state a headcount in ('we employed 13,893 people', 'approximately 3,700 employees'), for a
    query that asks one in other words ('headcount', 'workforce'): so keyword search finds the sentence."""
    asked = frozenset(analyze(query))
    return [] if not asked & _PEOPLE or asked & _STATED_IN else ["employees", "employed", "people"]


_PEOPLE = counted_as("employees")
"""Every word a headcount is asked or stated in ('headcount', 'workforce', 'employees', 'people')."""
_STATED_IN = frozenset(analyze("employees employed people"))
_PROSE_COUNTS = frozenset(analyze("employees employee people staff colleagues headcount workforce stores restaurants "
                                  "hotels members subscribers patents offices"))


def count_chunks(sparse: list[tuple[str, float]], rows: dict[str, dict], counted: frozenset[str]
                 ) -> list[tuple[str, float]]:
    """Of the sparse list, in its order, the chunks (`rows`: the catalog's rows by chunk id) that state a number
    of the things counted ('approximately 3,700 total employees', '17,973 people'): a count stated in prose ranks
    with the statements' pages, where the word alone ('employee stock options') is everywhere in a filing."""
    stems = "|".join(sorted(counted))
    # (a share is no count: '92 percent of colleagues who participated')
    said = re.compile(rf"(?i)\b\d[\d,.]*\s+(?!(?:percent|per\s+cent|pct)\b)(?:(?:[a-z-]+\s+){{0,2}}?|{COUNT_QUALIFIERS})"
                      rf"(?:{stems})[a-z]*\b")
    return [(cid, score) for cid, score in sparse if cid in rows and said.search(rows[cid]["text"])]


def segment_asked(asked: MeasureAsked, regions: Sequence[str] = ()) -> tuple[str, frozenset[str]] | None:
    """The segment a query names and its measure's words (of 'operating income Industrial business segment 2018':
    'Industrial', {oper, incom}), or None (no segment, or a region the region rows cover); `asked` is the query's
    measure (app.text.measures.measure_asked)."""
    segment, stems = asked.segment, frozenset(asked.stems) - _PERIOD_WORDS
    if not segment or segment in regions or len(segment) <= 2 or not stems:
        return None
    return segment, stems


_PERIOD_WORDS = frozenset(analyze("full year years fiscal financial quarter quarterly half month months annual"))
"""Words of a query's period ('full-year 2018') that a measure's search may read as its own."""


def row_measure_asked(query: str, asked: MeasureAsked) -> frozenset[str] | None:
    """The words of the measure a figure question asks ('What was Amcor's Adjusted Non GAAP EBITDA for FY 2023':
    {adjust, ebitda}), that a table row labelled with it holds; None for a question that asks no figure, or a
    measure of more than four words. `asked` is the question's measure (app.text.measures.measure_asked)."""
    from app.text.questions import asks_for_figure

    if not asks_for_figure(query):
        return None
    stems = frozenset(asked.stems) - _PERIOD_WORDS - _LABEL_QUALIFIERS
    return stems if stems and len(asked.phrase.split()) <= 4 else None


_LABEL_QUALIFIERS = frozenset(analyze("non gaap non-gaap total"))
"""A measure's words a row's label may leave out ('Adjusted EBITDA' for adjusted non-GAAP EBITDA)."""
_ROW_LINE = re.compile(r"(?m)^[ \t]*(?P<label>[A-Za-z][^\n\d]{1,80}?)[ \t$(]*\d[\d,.]*\)?(?:[ \t]+[$(]?\s*[\d,.]+\)?)+"
                       r"[ \t]*$")


def measure_row_chunks(sparse: list[tuple[str, float]], rows: dict[str, dict], measure: frozenset[str]
                       ) -> list[tuple[str, float]]:
    """Of the sparse list, in its order, the chunks with a table row labelled with the measure asked ('Adjusted
    EBITDA  2,117  2,018'), its label of at most eight words: the row that states the figure ranks with the
    statements' pages, where dense search finds the commentary about it."""
    def labelled(text: str) -> bool:
        return any(len(m.group("label").split()) <= 8 and measure <= set(analyze(m.group("label")))
                   for m in _ROW_LINE.finditer(text))

    return [(cid, score) for cid, score in sparse if cid in rows and labelled(rows[cid]["text"])]


def segment_row_chunks(sparse: list[tuple[str, float]], rows: dict[str, dict], segment: str,
                       measure: frozenset[str]) -> list[tuple[str, float]]:
    """Of the sparse list, in its order, the chunks with a table row of the segment asked ('Industrial $ 12,267 …')
    that also name every word of its measure: the segment note's row ranks with the statements' pages; a table of
    another measure with the same row (its employees, its forecast) does not."""
    return [(cid, score) for cid, score in region_row_chunks(sparse, rows, [segment])
            if measure <= set(analyze(rows[cid]["text"]))]


def region_row_chunks(sparse: list[tuple[str, float]], rows: dict[str, dict], regions: list[str]
                      ) -> list[tuple[str, float]]:
    """Of the sparse list, in its order, the chunks (`rows`: the catalog's rows by chunk id) with a table row of a
    region asked ('Latin America 1,114 795 1,909', or its figures on the next line): a breakdown's row ranks with
    the statements' pages, where dense search, reading meaning, finds the commentary that names the region."""
    names = "|".join(r"[\s-]+".join(re.escape(w.rstrip(".")) for w in re.split(r"[\s-]+", region))
                     for region in regions)
    row = re.compile(rf"(?im)^[ \t]*(?:the\s+)?(?:{names})\.?(?![\w-])[^\n\d]{{0,40}}\n?[ \t]*[$(]?\s*\d")
    return [(cid, score) for cid, score in sparse if cid in rows and row.search(rows[cid]["text"])]


def named_years(query: str) -> list[int]:
    return years_in(query, list(range(1990, 2100)))


def _by_page(kb: KnowledgeBase, query: str, live: list, rows: dict, years: list[int], funnel: list[FunnelStep],
             rrf_k: int) -> list:
    """Judge pages as units (app/knowledge/pages.py) and order the candidates page by page."""
    wanted = statements_wanted(query)
    texts = kb.catalog.page_texts((rows[c.chunk_id]["source_id"], rows[c.chunk_id]["page"]) for c in live)
    asked = forms_wanted(query)
    forms = kb.catalog.forms(rows[c.chunk_id]["source_id"] for c in live) if asked else {}
    # the passage the dense and the sparse search both rank first keeps its page near the top, and its place on
    # it (one that only one of them ranks first does not: measured, it put a growth rate of another measure
    # before J&J's sales growth)
    firsts = [c.chunk_id for c in live if c.ranks.get("dense") == 1 and c.ranks.get("sparse") == 1]
    pages = rank_pages([(c.chunk_id, c.score) for c in live], rows, texts, wanted, years, 1.0 / (rrf_k + 1),
                       forms, asked, firsts)
    by_id = {c.chunk_id: c for c in live}
    # a page's chunk that states the count asked ('we employed approximately 77,300 people') stands for its page
    # before one the searches merely liked better (its survey of colleagues)
    pages = stating_first(pages, {c.chunk_id for c in live if "counts" in c.ranks})
    funnel.append(FunnelStep("pages", len(pages), 0, f"{len(live)} chunks on {len(pages)} pages, pages judged as "
                             "units: best chunk + half the second"
                             + (f", statement pages wanted: {', '.join(sorted(wanted))}" if wanted else "")
                             + (f", the FY{max(years)} filing preferred" if years else "")
                             + (f", {' or '.join(sorted(asked))} filings preferred" if asked else "")))
    for page in pages:
        for cid in page.chunk_ids:
            by_id[cid].page_reasons = page.reasons
    return [by_id[cid] for cid in chunk_order(pages, firsts)]


def _dense(kb: KnowledgeBase, qvec: list[float], n: int, where: dict | None) -> list[tuple[str, float]]:
    if n <= 0:
        return []
    res = kb.collection.query(query_embeddings=[qvec], n_results=n, where=where, include=["distances"])
    return [(cid, 1.0 - float(d)) for cid, d in zip(res["ids"][0], res["distances"][0])]


def _eligible_mask(rows: list[dict], filters: Filters) -> np.ndarray | None:
    if not filters.active():
        return None
    return np.fromiter((bool(r) and filters.matches(r) for r in rows), dtype=bool)


def _describe(name: str, pool: int) -> str:
    if name == "dense":
        return f"nearest {pool} by cosine similarity (all-MiniLM-L6-v2 or configured embedder)"
    if name == "sparse":
        return f"top {pool} by BM25 over stemmed words and figures, with the line items of a metric named"
    if name == "statements":
        return "the opening chunk of each statement page of the named companies' filings that the query needs"
    if name == "counts":
        return "of the sparse list, the chunks that state a number of the things the query counts"
    if name == "regions":
        return "of the sparse list, the chunks with a table row of a region the query asks about"
    if name == "segments":
        return "of the sparse list, the chunks with a table row of the segment asked that name its measure"
    if name == "rows":
        return "of the sparse list, the chunks with a table row labelled with the measure asked"
    return f"nearest by cosine within {name.split(':', 1)[1]}, named in the query"


def scopes(companies: list[str], years: list[int]) -> list[tuple[str | None, int | None]]:
    """The narrower searches a query asks for: each named company, and each named company-year pair (or each
    named year, when no company is named)."""
    out: list[tuple[str | None, int | None]] = [(c, None) for c in companies]
    out += [(c, y) for c in (companies or [None]) for y in years]
    return out


def _why(ranks: dict[str, int], raw: dict[str, float], dups: list[str], page_reasons: list[str]) -> str:
    parts = []
    for name, rank in ranks.items():
        if name == "dense":
            parts.append(f"dense #{rank} (cos {raw[name]:.2f})")
        elif name == "sparse":
            parts.append(f"sparse #{rank} (bm25 {raw[name]:.1f})")
        elif name == "statements":
            parts.append(f"statement page #{rank} of the named filings")
        elif name == "counts":
            parts.append(f"states a count asked for, #{rank}")
        elif name == "regions":
            parts.append(f"a table row of the region asked, #{rank}")
        elif name == "segments":
            parts.append(f"a table row of the segment asked, naming its measure, #{rank}")
        elif name == "rows":
            parts.append(f"a table row labelled with the measure asked, #{rank}")
        else:
            parts.append(f"{name.split(':', 1)[1]} named in query: dense #{rank} within it")
    parts += [f"page {reason}" for reason in page_reasons]
    if dups:
        parts.append(f"{len(dups)} near-duplicate(s) folded in")
    return "; ".join(parts)
