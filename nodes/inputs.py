"""The statement rows a question's figures are read or computed from, fetched when grading admitted none.

A search ranks passages by how much they resemble the question; the row that holds an input of a metric often
does not ('What is the FY2015 operating cash flow ratio?' resembles neither 'Net cash provided by operating
activities' nor 'Total current liabilities'). An analyst opens the statements and reads the lines the formula
needs. `fetch_inputs` does the same, after grading: for each (line item, fiscal year) the question needs
(app.metrics.needed_inputs; a question that names no period needs the latest year the company's searched reports
cover) for which no admitted chunk gives a figure, it searches the company's filings for
the line item's names, in the filing of the latest year asked and then of the year itself, and admits the
first chunk whose statement rows (or tables, or stated totals) give that figure. Each admitted chunk says why
in its `why`; what was looked for and not found is left to the calculator, which names the missing inputs.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from app.evidence import Evidence, rank_evidence
from app.facts.members import REGION_ASKED, SEGMENT_ASKED
from app.facts.query import (member_facts, names_measure, names_parent_entity, read_query, same_member,
                             titles_measure)
from app.facts.readers import extract_figures
from app.knowledge.pages import forms_wanted, statement_of_page
from app.text.identity import read_name
from app.text.lists import is_enumerated
from app.text.statements import StatementRow, heads_named_columns, read_statement
from app.text.sentences import is_contract_text
from app.text.question_kinds import asks_trend, read_ask
from app.metrics import LINE_ITEMS, label_match, needed_inputs
from app.metric_plans import asks_part_year
from nodes.retrieval_state import MentionFn, PageFn, RetrievalState, SearchFn

FETCH_K = 5
"""Hits read per line-item search: the row is on the statement page, which ranks near the top when it exists."""
INTERIM_FORMS = frozenset({"10-Q", "half-year", "earnings"})
"""Filings of part of a year."""
MAX_NAME_QUERIES = 3
"""Searches of a line item's names per filing: three names each, the commonest first."""
MAX_FETCHES = 12
"""Searches per run at most: a formula over three years of four line items is the most the catalogue asks."""


def fetch_inputs(state: RetrievalState, *, search_fn: SearchFn, page_fn: PageFn | None = None,
                 mention_fn: MentionFn | None = None) -> dict[str, Any]:
    """Admit the chunks that hold the line items the question needs and no admitted chunk gives (see above);
    for a 'did X mention …' question, those that mention it, or the finding that none does."""
    mentioned, unmentioned = mention_check(state, mention_fn)
    out = _fetch(state, search_fn, page_fn, [*mentioned, *explanation_check(state, mention_fn),
                                             *count_check(state, mention_fn), *growth_check(state, mention_fn),
                                             *leverage_check(state, mention_fn), *sibling_check(state, mention_fn)])
    graded = list(out.get("graded", state["graded"]))
    sectioned = segment_sections(graded, page_fn)
    if sectioned != graded:
        out = {**out, "graded": sectioned}
    return {**out, "unmentioned": unmentioned} if unmentioned else out


def segment_sections(graded: Sequence[Evidence], page_fn: PageFn | None) -> list[Evidence]:
    """Each admitted report chunk that has no section of its own, with the segment heading it stands under as
    its section, when the page's chunks before it end under one ('Flexibles Segment' over its table, then the
    paragraph in the next chunk: 'Adjusted EBIT decreased by $88 million, or 6% …' is the segment's, not the
    company's). PDF pages carry no headings of their own, and a chunk cut after the heading loses it; the
    answer's readers take a section that names a segment as the segment's (app/facts/members.segment_heading).
    A chunk whose page holds no such heading above it is left as it is."""
    from app.facts.members import heading_above, segment_heading

    if page_fn is None:
        return list(graded)
    pages: dict[tuple[str, int], list[Evidence]] = {}
    out: list[Evidence] = []
    for doc in graded:
        if doc.section or doc.page is None or doc.doc_type != "report":
            out.append(doc)
            continue
        key = (doc.source_id, doc.page)
        if key not in pages:
            pages[key] = page_fn(doc.source_id, doc.page)
        ids = [c.chunk_id for c in pages[key]]
        before = pages[key][:ids.index(doc.chunk_id)] if doc.chunk_id in ids else []
        heading = heading_above("\n".join(c.text for c in before)) if before else None
        out.append(doc.model_copy(update={"section": heading}) if segment_heading(heading) else doc)
    return out


def _fetch(state: RetrievalState, search_fn: SearchFn, page_fn: PageFn | None, mentioned: list[Evidence]
           ) -> dict[str, Any]:
    asked = list(state.get("fiscal_years") or [])
    unheld = state.get("unheld") or {}
    documents = list(state.get("documents") or [])
    searched = {d.company.casefold() for d in documents if d.company}
    # a company whose search found nothing has no statement to read either
    companies = [c for c in state.get("companies") or [] if c not in unheld and c.casefold() in searched]
    # a question that names no period asks about the latest one: the latest year the company's reports cover
    trend = asks_trend(state["question"])
    # (the measure as read names the line item a question words otherwise: 'buying back its own shares')
    measure = read_query(state["question"], state.get("companies") or []).measure.phrase
    needs_of = {c: needed_inputs(state["question"], asked or latest_reported(documents, c, state["question"]), trend,
                                 measure) for c in companies}
    graded = list(state["graded"])
    continued = [*list_continuations(state["question"], graded, page_fn),
                 *measure_continuations(state["question"], graded, page_fn, state.get("companies") or []),
                 *segment_continuations(state["question"], graded, page_fn, state.get("companies") or []),
                 *commented_tables(state["question"], graded, page_fn, state.get("companies") or []),
                 *segment_heading_continuations(state["question"], graded, page_fn, state.get("companies") or []),
                 *member_name_continuations(state["question"], graded, page_fn),
                 *sibling_tables(state["question"], graded, page_fn, state.get("companies") or []),
                 *statement_continuations(state["question"], graded, page_fn, state.get("companies") or [],
                                          inputs=any(needs_of.values())),
                 *mentioned]
    if continued:
        graded = rank_evidence([*graded, *continued])
    if not any(needs_of.values()):
        return {"graded": graded, "fetched": [*(state.get("fetched") or []), *(d.chunk_id for d in continued)]} \
            if continued else {}
    # a note's 'Current liabilities' of a segment is no stand-in for the balance sheet's total: only what a
    # primary statement of the group's own, of the year (`years_statement`), counts as held: counting a 10-Q's
    # balances held would leave the 10-K's year-end balance sheet unread
    part = asks_part_year(state["question"])
    have = figures_held(d for d in graded if years_statement(d, part))
    tried = list(state.get("fetch_tried") or [])
    added: list[Evidence] = []
    for company in companies:
        years = asked or latest_reported(documents, company, state["question"])
        for item, year in needs_of[company]:
            key = f"{company.casefold()}|{item}|{year}"
            if (company.casefold(), item, year) in have or key in tried or len(tried) >= MAX_FETCHES:
                continue
            tried.append(key)  # each line item is looked up once per run: a retry would only repeat the search
            hit = on_pages_held(graded, company, item, year, page_fn, part=part) or find_row(
                search_fn, company, item, year, filings=list(dict.fromkeys([max(years), year])), page_fn=page_fn,
                part=part)
            if hit is None:
                continue
            name = LINE_ITEMS[item].name
            added.append(hit.model_copy(update={"why": f"holds {name} for FY{year}, an input the question needs "
                                                       f"(statement rows fetched by line item)"}))
            have |= figures_held([hit] if of_the_year(hit, part) else [])
    fetched = [*(state.get("fetched") or []), *(d.chunk_id for d in [*continued, *added])]
    if not added:
        return {"fetch_tried": tried, **({"graded": graded, "fetched": fetched} if continued else {})}
    return {"graded": rank_evidence([*graded, *added]), "fetch_tried": tried, "fetched": fetched}


def next_page(doc: Evidence, page_fn: PageFn) -> list[Evidence]:
    """The chunks of the page after a chunk's, in the same filing: the same source, or, where each page was
    ingested as a source of its own ('BESTBUY_2019_10K:p12'), the next page's."""
    assert doc.page is not None
    chunks = page_fn(doc.source_id, doc.page + 1)
    paged = re.fullmatch(rf"(?P<name>.+):p{doc.page}", doc.source_id)
    if not chunks and paged:
        chunks = page_fn(f"{paged.group('name')}:p{doc.page + 1}", doc.page + 1)
    return chunks


MAX_CONTINUATIONS = 2
"""Lists read on into the next chunk of their page, per run."""


def list_continuations(question: str, graded: Sequence[Evidence], page_fn: PageFn | None) -> list[Evidence]:
    """For a question that asks for a list, the next chunk of the page of an admitted chunk whose text ends inside
    an enumerated list ('4) Latin America …;' / '5) Europe …;' at its end): a reader turns the page to the
    rest of the list (its sixth and seventh segments) rather than answering with the five it saw."""
    from app.text.question_kinds import read_ask

    if page_fn is None or read_ask(question).kind != "list":
        return []
    held = {d.chunk_id for d in graded}
    out: list[Evidence] = []
    for doc in graded:
        lines = [line for line in doc.text.splitlines() if line.strip()]
        while lines and re.fullmatch(r"\s*\d{1,4}\s*", lines[-1]):
            lines.pop()  # the page's number
        if doc.page is None or len(out) >= MAX_CONTINUATIONS or not lines or not is_enumerated(lines[-1]) \
                or sum(is_enumerated(line) for line in lines) < 2:
            continue
        following = chunk_after(doc, page_fn)
        if following is None or following.chunk_id in held:
            continue
        held.add(following.chunk_id)
        out.append(following.model_copy(update={"score": doc.score, "why": "continues the list that the admitted "
                                                                         "chunk before it on the page begins"}))
    return out


def chunk_after(doc: Evidence, page_fn: PageFn) -> Evidence | None:
    """The chunk that follows an admitted one: the next of its page, else the first of the next page; None when
    the chunk is not among its page's (or is the filing's last). A table's header that the chunker cut from its
    rows ('2018' / '2017' / '% change' / 'Net' / '% of' … and no figure) is read with the chunk of its page
    after it, as one passage under the rows' id: alone, the header states nothing, and the rows alone have no
    periods."""
    after = siblings_after(doc, page_fn)
    if after is None:
        return None
    following = after[0] if after else next(iter(next_page(doc, page_fn)), None)
    if following is None or not is_bare_header(following.text) or following.page != doc.page or len(after) < 2:
        return following
    rows = after[1]
    return rows.model_copy(update={"text": f"{following.text.rstrip()}\n{rows.text.lstrip()}"})


def siblings_after(doc: Evidence, page_fn: PageFn) -> list[Evidence] | None:
    """The chunks of an admitted chunk's page that come after it, in order; None when it is not among them."""
    assert doc.page is not None
    siblings = page_fn(doc.source_id, doc.page)
    at = next((i for i, s in enumerate(siblings) if s.chunk_id == doc.chunk_id), None)
    return None if at is None else siblings[at + 1:]


BARE_HEADER_CHARS = 300
"""The longest text read as a table's header cut from its rows."""
_FIGURE = re.compile(r"(?<![\w.])(?!(?:19|20)\d{2}\b)\(?\$?\d[\d,]*(?:\.\d+)?(?![\w.])")


def is_bare_header(text: str) -> bool:
    """A table's header and none of its rows: a few short lines, at least one naming a year, none stating a
    figure other than a year ('2018' / '2017' / '% change' / 'Net' / '% of' / 'Oper.')."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return (0 < len(text.strip()) <= BARE_HEADER_CHARS and len(lines) >= 2
            and any(re.fullmatch(r"(?:FY\s?)?(?:19|20)\d{2}", line) for line in lines)
            and not any(_FIGURE.search(line) for line in lines))


STATEMENT_SHARE = 0.6
"""The share of the measure's words a primary statement's chunk must name to be read on from."""
MAX_MEASURE_READS = 3
"""The first admitted chunks whose passage may be read on into the next chunk for the measure's figure."""


def measure_continuations(question: str, graded: Sequence[Evidence], page_fn: PageFn | None,
                          companies: Sequence[str] = ()) -> list[Evidence]:
    """For a question that asks for a figure or its change, the next chunk of the page of each of the first
    admitted chunks that is a primary statement or ends by leading into a table ('The following table details
    our average MAUs …:'), names every word of the measure asked and states no figure of it: a balance sheet's
    'Total current assets' stand in one chunk and its 'Total assets' in the next. A reader reads on rather than
    answering from the chunk that only names it. (A passage of prose that names the measure is not read on from:
    the next one tells of other things as often as of it.)"""
    from app.facts.query import NAMES_MEASURE, facts_for
    from app.knowledge.analyzer import analyze
    from app.text.question_kinds import read_ask

    kind = read_ask(question).kind
    if page_fn is None or kind not in ("figure", "change", "yes_no_change", "extreme"):
        return []  # (a ranking reads on from the sentence that leads into its breakdown's table)
    query = read_query(question, companies)
    stems = set(query.measure.stems)
    if not stems or query.measure.segment:
        return []  # a segment's row is read on for by segment_continuations
    held = {d.chunk_id for d in graded}
    out: list[Evidence] = []
    # further down, a passage whose last sentence itself leads into a table of the measure ('The following tables
    # disaggregate net sales information by geography …:')
    leading = [d for d in list(graded)[MAX_MEASURE_READS:]
               if _leads_into_table(d.text) and stems <= set(analyze(_last_sentence(d.text)))]
    announced: set[str] = set()
    if kind == "extreme":  # a ranking's table announced anywhere in a passage of prose
        announced = {d.chunk_id for d in graded if not statement_of_page(d.text) and any(
            stems <= set(analyze(s)) for s in [*(s for s in re.split(r"(?<=[.:])\s+", d.text)
                                                 if _LEADS_INTO_TABLE.search(s)),
                                               *(line for line in d.text.splitlines()
                                                 if _TABLE_TITLE.fullmatch(line.strip()))])}
        leading += [d for d in graded if d.chunk_id in announced and d not in leading]
    for doc in [*list(graded)[:MAX_MEASURE_READS], *leading[:MAX_MEASURE_READS]]:
        statement = statement_of_page(doc.text)
        said = stems & set(analyze(doc.text))
        # a primary statement goes on to lines its first rows do not name ('Diluted' earnings per share under
        # the income statement's revenue and costs): most of the measure's words will do
        if doc.page is None or not (statement or _leads_into_table(doc.text) or doc.chunk_id in announced) \
                or not (said == stems or (statement and len(said) >= STATEMENT_SHARE * len(stems))) \
                or any(f.match >= NAMES_MEASURE for f in facts_for(query, [doc], companies)):
            continue
        following = chunk_after(doc, page_fn)
        if following is None or following.chunk_id in held:
            continue
        held.add(following.chunk_id)
        out.append(following.model_copy(update={"score": doc.score, "why": "reads on from an admitted passage "
                                                                         "that names the measure asked but states "
                                                                         "no figure of it"}))
    return out


def segment_heading_continuations(question: str, graded: Sequence[Evidence], page_fn: PageFn | None,
                                  companies: Sequence[str] = ()) -> list[Evidence]:
    """For a question about one segment's figure, the chunks of the page after an admitted one that closes with
    that segment's heading ('International Streaming Segment', then its table in the next chunks), at most
    MAX_SEGMENT_ROWS, each with the heading as its section: a search ranks the paragraph that ends above the
    table, and the table's chunks, which do not name the segment, are read as its (`segment_sections`)."""
    from app.facts.members import closing_heading, segment_heading

    if page_fn is None:
        return []
    segment = read_query(question, companies).measure.segment
    if not segment:
        return []
    held = {d.chunk_id for d in graded}
    out: list[Evidence] = []
    for doc in graded:
        heading = closing_heading(doc.text)
        named = segment_heading(heading)
        if doc.page is None or named is None or not same_member(segment, named):
            continue
        for sibling in siblings_after(doc, page_fn) or []:
            closing = closing_heading(sibling.text)
            if len(out) >= MAX_SEGMENT_ROWS or closing not in (None, heading) and segment_heading(closing):
                break  # (the next segment's heading closes the run)
            if sibling.chunk_id not in held:
                held.add(sibling.chunk_id)
                out.append(sibling.model_copy(update={"section": heading, "score": doc.score,
                                                      "why": "under the heading of the segment asked, which closes "
                                                             "the admitted chunk before it on the page"}))
    return out


MAX_NAMING_CHUNKS = 2
"""Chunks of a table's page admitted, per run, for the headings that split its header's names."""


def member_name_continuations(question: str, graded: Sequence[Evidence], page_fn: PageFn | None) -> list[Evidence]:
    """For a question that ranks members ('Which segment had the largest order intake?'), the chunks of an
    admitted segment table's page whose headings tell where its header's run-together names split ('Industrial
    Drives Mobility Solutions Service …' over rows of five values reads only once 'Mobility Solutions' is known to
    head a paragraph of the page): without them no column of the table has a name, and no member is ranked."""
    from app.facts.query import page_headings

    if page_fn is None or read_ask(question).kind != "extreme":
        return []
    held = {d.chunk_id for d in graded}
    out: list[Evidence] = []
    for doc in graded:
        if doc.page is None or doc.doc_type != "report" or len(out) >= MAX_NAMING_CHUNKS \
                or not heads_named_columns(doc.text) \
                or any(row.columns for row in read_statement(doc.text, page_headings(doc, graded)).rows):
            continue
        for sibling in page_fn(doc.source_id, doc.page):
            if sibling.chunk_id in held or len(out) >= MAX_NAMING_CHUNKS:
                continue
            if any(row.columns for row in read_statement(doc.text, page_headings(doc, [sibling])).rows):
                held.add(sibling.chunk_id)
                out.append(sibling.model_copy(update={"score": doc.score, "why": "names the columns of the segment "
                                                      "table an admitted chunk of its page holds"}))
    return out


MAX_COMMENTED_TABLES = 2
"""Tables read, per run, beside the commentary on them (`commented_tables`)."""


def commented_tables(question: str, graded: Sequence[Evidence], page_fn: PageFn | None,
                     companies: Sequence[str] = ()) -> list[Evidence]:
    """For a question that asks for a figure or its change, the chunk of the same page whose table has a row of
    the measure asked (the company's: a segment's table is no row of it), beside admitted chunks of prose that
    name every word of the measure: an annual report comments under its table ('Net card fees increased, primarily
    driven by …' under 'Net card fees 6,070 5,195 4,664 875 17'), and a search may rank the comment above the
    table. No chunk is read when an admitted one already gives the measure's figure."""
    from app.facts.query import NAMES_MEASURE, facts_for
    from app.knowledge.analyzer import analyze
    from app.text.question_kinds import read_ask

    if page_fn is None or read_ask(question).kind not in ("figure", "change", "yes_no_change"):
        return []
    query = read_query(question, companies)
    stems = set(query.measure.stems)
    if not stems or query.measure.segment or any(f.match >= NAMES_MEASURE for f in facts_for(query, graded, companies)):
        return []

    checked: dict[str, bool] = {}  # two admitted chunks of one page read its chunks once

    def stated(doc: Evidence) -> bool:
        if doc.chunk_id not in checked:
            checked[doc.chunk_id] = any(f.match >= NAMES_MEASURE and f.origin == "table" and not f.segment
                                        for f in facts_for(query, [doc], companies))
        return checked[doc.chunk_id]

    held = {d.chunk_id for d in graded}
    out: list[Evidence] = []
    for doc in graded:
        if doc.page is None or len(out) >= MAX_COMMENTED_TABLES or statement_of_page(doc.text) \
                or not any(stems <= set(analyze(s)) for s in re.split(r"(?<=[.!?])\s+", doc.text)):
            continue
        table = next((c for c in page_fn(doc.source_id, doc.page) if c.chunk_id not in held and stated(c)), None)
        if table is not None:
            held.add(table.chunk_id)
            why = "the table of its page that an admitted passage comments on, with the measure's row"
            out.append(table.model_copy(update={"score": doc.score, "why": why}))
    return out


MAX_SEGMENT_ROWS = 2
"""Chunks read on for a segment's row, per run."""


MAX_SIBLING_TABLES = 2
"""Table chunks admitted per run from the pages of the first admitted chunks (`sibling_tables`)."""


def sibling_tables(question: str, graded: Sequence[Evidence], page_fn: PageFn | None,
                   companies: Sequence[str] = ()) -> list[Evidence]:
    """For a question that asks for a figure or its change, the chunks of the pages of the first admitted chunks
    whose table rows state the measure (the segment's, when one is asked), when no admitted chunk's rows do: a
    search ranks a page by its best chunk, and that may be the commentary beside the table (Netflix's review of
    its International streaming segment admitted, the segment's table of memberships above it not)."""
    from app.facts.query import NAMES_MEASURE, facts_for

    if page_fn is None or read_ask(question).kind not in ("figure", "change", "yes_no_change"):
        return []
    query = read_query(question, companies)
    if not query.measure.stems:
        return []

    latest = max(query.years, default=None)

    def rows_state(docs: Sequence[Evidence]) -> bool:
        # (of the year asked: the year before's report's table of the measure states no fiscal 2016 figure)
        return any(f.origin in ("table", "statement") and f.match >= NAMES_MEASURE and (
            not query.measure.segment or same_member(query.measure.segment, f.segment or ""))
            and (latest is None or f.figure.fiscal_year == latest)
            for f in facts_for(query, docs, companies))

    if rows_state(graded):
        return []
    held = {d.chunk_id for d in graded}
    out: list[Evidence] = []
    pages: set[tuple[str, int]] = set()
    for doc in [d for d in graded if d.doc_type == "report"][:MAX_MEASURE_READS]:
        if doc.page is None or (doc.source_id, doc.page) in pages:
            continue
        pages.add((doc.source_id, doc.page))
        for sibling in page_fn(doc.source_id, doc.page):
            if sibling.chunk_id not in held and len(out) < MAX_SIBLING_TABLES and rows_state([sibling]):
                held.add(sibling.chunk_id)
                out.append(sibling.model_copy(update={"score": doc.score, "why": "a table of the measure asked, on "
                                                      "the page of an admitted chunk"}))
    return out


def segment_continuations(question: str, graded: Sequence[Evidence], page_fn: PageFn | None,
                          companies: Sequence[str] = ()) -> list[Evidence]:
    """For a question about one segment's figure ("PepsiCo's PBNA net revenue"), the other chunks of the page
    of an admitted chunk whose table breaks the measure down by members (its rows name members under the
    measure's title, or its column groups name the measure), when they hold a row of that segment's name and
    no admitted chunk does: a search ranks a page by its best chunk, and the table's total row may be that chunk
    while the segment's row stands in the one before it."""
    if page_fn is None:
        return []
    query = read_query(question, companies)
    segment = query.measure.segment
    if not segment:
        return []
    if any(same_member(segment, f.segment or "") for f in member_facts(query, graded, companies)):
        return []  # an admitted chunk gives the segment's row of the measure
    named = re.compile(rf"(?im)^\s*{re.escape(segment)}\b")
    held = {d.chunk_id for d in graded}
    out: list[Evidence] = []
    pages: set[tuple[str, int]] = set()
    for doc in graded:
        if doc.page is None or (doc.source_id, doc.page) in pages or len(out) >= MAX_SEGMENT_ROWS:
            continue
        rows = read_statement(doc.text).rows
        if not any(row.columns and names_measure(row.line_item, query) for row in rows) \
                and not titled_by_measure(doc.text, query):
            continue
        pages.add((doc.source_id, doc.page))
        for sibling in page_fn(doc.source_id, doc.page):
            if sibling.chunk_id not in held and named.search(sibling.text) and len(out) < MAX_SEGMENT_ROWS:
                held.add(sibling.chunk_id)
                out.append(sibling.model_copy(update={"score": doc.score, "why": "the row of the segment asked, in "
                                                      "the rest of the table an admitted chunk of its page holds"}))
    return out


MAX_MENTIONS = 3
"""Chunks admitted per company because a text search of all its reports found them to mention what a 'did X
mention …' question asks about."""


MAX_EXPLANATIONS = 2
"""Chunks admitted per company because a text search of its reports found them to give the cause of a change in
the margin a question asks about."""


def explanation_check(state: RetrievalState, mention_fn: MentionFn | None) -> list[Evidence]:
    """For a question asking what drove a margin ('What drove gross margin change as of FY2022'): a text search of
    each named company's reports for a sentence that names the margin, or its complement ('Cost of products sold
    increased as a percent to sales driven by: …'), with the words a cause is given with
    (app/text/question_kinds.explains_margin). Ranked search reads a question's meaning and finds the statement
    of the figures as readily as the sentence that explains them; this finds the sentence. Up to MAX_EXPLANATIONS
    such chunks not admitted yet, of the filings of the years asked (else the latest), are admitted."""
    from app.knowledge.analyzer import analyze
    from app.text.question_kinds import CAUSE_STEMS, explains_margin, margin_names, read_ask

    question = state["question"]
    names = margin_names(question)
    if mention_fn is None or not names or read_ask(question).kind != "explain":
        return []
    def explaining(company: str) -> list[Evidence]:
        found: dict[str, Evidence] = {}
        for name in names:
            groups = [[stem] for stem in analyze(name)] + [list(CAUSE_STEMS)]
            for doc in mention_fn(company, groups):
                if explains_margin(question, doc.text, names):
                    found.setdefault(doc.chunk_id, doc)
        return list(found.values())

    return _found_of_years(state, explaining, MAX_EXPLANATIONS, "gives the cause of a change in the margin asked "
                                                                "about (a text search of the company's reports)")


def _found_of_years(state: RetrievalState, find: Callable[[str], list[Evidence]], most: int, why: str
                    ) -> list[Evidence]:
    """For each named company the knowledge base holds: what `find(company)` found (a text search's chunks) and
    grading has not admitted, of the filings of the years asked (else of the latest filing among them), at most
    `most`, each admitted at the best admitted score and saying why."""
    unheld = state.get("unheld") or {}
    years = set(state.get("filing_years") or state.get("fiscal_years") or [])
    held = {d.chunk_id for d in state["graded"]}
    score = max((d.score for d in state["graded"]), default=0.0)
    admitted: list[Evidence] = []
    for company in [c for c in state.get("companies") or [] if c not in unheld]:
        docs = [d for d in find(company) if d.chunk_id not in held]
        latest = max((d.fiscal_year for d in docs if d.fiscal_year), default=None)
        docs = [d for d in docs if (d.fiscal_year in years if years else d.fiscal_year == latest)]
        admitted += [d.model_copy(update={"score": score, "why": why}) for d in docs[:most]]
    return admitted


def holds_groups(text: str, groups: Sequence[frozenset[str]]) -> bool:
    """The text holds, for every group, one of its stems as app/text/terms.stem_in_words reads a word ('restated'
    holds 'restat', 'restarted' does not); 'job+cut' is two words side by side. The catalog's text search matches
    a stem's first five letters, a wider net."""
    from app.knowledge.analyzer import analyze
    from app.text.terms import stem_in_words, without_other_acquisitions

    tokens = analyze(without_other_acquisitions(text))  # 'content acquisitions' acquire no business
    words = {*tokens, *(f"{a}+{b}" for a, b in zip(tokens, tokens[1:])), *(a + b for a, b in zip(tokens, tokens[1:]))}
    return all(any(stem in words if "+" in stem else stem_in_words(stem, words) for stem in group) for group in groups)


_NOT_COUNTED = frozenset({"we", "approxim", "worldwid"})
"""Words of a count's wordings (app/text/measures.count_wordings) that are not the thing counted."""
MAX_COUNTS = 2
"""Chunks admitted per company because a text search of its reports found them to state the count asked."""


def count_check(state: RetrievalState, mention_fn: MentionFn | None) -> list[Evidence]:
    """For a count question ('How many employees did Netflix have at the end of 2017?') that no admitted chunk
    answers: a text search of each named company's reports for the thing counted, as reports word it, keeping
    the chunks that state a number right before it ('we had approximately 5,500 total employees',
    app/text/measures.states_count), of the filings of the years asked (else the latest). Ranked search may miss
    a sentence that stands in a chunk about something else (a 10-K's 'Employees' paragraph between intellectual
    property and its incorporation)."""
    from app.knowledge.analyzer import analyze
    from app.text.measures import count_stated, count_wordings, measure_asked

    question = state["question"]
    companies = list(state.get("companies") or [])
    noun = measure_asked(question, companies).count_noun
    stated = count_stated(noun)  # the question read once, not once per chunk
    if mention_fn is None or stated is None or any(stated.search(d.text) for d in state["graded"]):
        return []
    stems = sorted({*analyze(noun.split()[-1]), *analyze(count_wordings(question, companies))} - _NOT_COUNTED)
    return _found_of_years(state, lambda company: [d for d in mention_fn(company, [stems]) if stated.search(d.text)],
                           MAX_COUNTS, "states the count asked (a text search of the company's reports)")


MAX_SIBLINGS = 2
"""Chunks admitted per company because they stand on the page of an admitted chunk and name the measure asked."""
SIBLING_PAGES = 4
"""Of each company's admitted chunks, the pages of the best this many are looked at for their other chunks."""


def sibling_check(state: RetrievalState, mention_fn: MentionFn | None) -> list[Evidence]:
    """For a figure, change or ranking question: the other chunks of the pages the best admitted chunks stand on
    that name every word of the measure asked (and the segment asked), as a text search of the company's reports
    finds them. Search judges a page as a unit and admits its best chunk; the table or sentence that answers may
    be its other one ('FIRST QUARTER' over the chunk that holds 'SECOND QUARTER … Europe 5,131 5,355'; the
    paragraph before the one that ranked: 'cash and cash equivalents of $3.8 billion, of which MGM China held $448
    million')."""
    from app.knowledge.analyzer import analyze
    from app.text.measures import measure_asked

    from app.judgements import convention_for

    question = state["question"]
    kind = read_ask(question).kind
    if mention_fn is None or kind not in ("figure", "change", "yes_no_change", "extreme", "judgement"):
        return []
    if kind == "judgement":  # the ratios the judgement rests on ('LCR 110 % 110 % 114 %' under 'LCR and HQLA');
        # not a growth or a share, whose words a sentence of other shares holds ('12.0% of … revenues')
        convention = convention_for(question)
        phrases = [m for m in convention.measures if _RATIO_NAMED.search(m)] if convention is not None else []
    else:
        asked = measure_asked(question, list(state.get("companies") or []))
        phrases = [f"{asked.phrase} {asked.segment or ''}"]
    searches = [groups for phrase in phrases if (groups := [[stem] for stem in analyze(phrase)])]
    if not searches:
        return []
    # (a chunk of a document without pages, markdown or HTML, stands on no page with others: its sections are
    # chunked apart on purpose)
    graded = sorted((d for d in state["graded"] if d.doc_type == "report" and d.page is not None),
                    key=lambda d: -d.score)

    def siblings(company: str) -> list[Evidence]:
        pages = list(dict.fromkeys((d.source_id, d.page) for d in graded if d.company == company))[:SIBLING_PAGES]
        found = {d.chunk_id: d for groups in searches for d in mention_fn(company, groups)}
        rows = {d.chunk_id: read_statement(d.text).rows for d in found.values()}
        named = {d.chunk_id for d in found.values() if _row_names(rows[d.chunk_id], searches)}
        # a judgement's measure stated as a table row of its own ('Free cash flow conversion rate 143%') is read
        # wherever it stands; any other chunk only on an admitted page
        on_pages = [d for d in found.values() if (d.source_id, d.page) in pages
                    or (kind == "judgement" and d.chunk_id in named)]
        # of one page's chunks, one whose table row names the measure first ('LCR 110 % 110 % 114 %' before the
        # paragraphs that tell the LCR rule), and right after it the chunk before it when chunking cut the table
        # from its header there ('Three months ended' / 'March 31, 2021' …): its rows are dated by it
        ranked = sorted(on_pages, key=lambda d: ((pages.index((d.source_id, d.page)) if (d.source_id, d.page) in pages
                                                  else len(pages)), d.chunk_id not in named))
        out: list[Evidence] = []
        for doc in ranked:
            if doc in out:
                continue
            out.append(doc)
            head = found.get(_previous_chunk_id(doc.chunk_id))
            if head is not None and head not in out and doc.chunk_id in named \
                    and not any(r.periods for r in rows[doc.chunk_id]):
                out.append(head)
        return out

    return _found_of_years(state, siblings, MAX_SIBLINGS, "stands on the page of an admitted chunk and names the "
                                                          "measure asked (a text search of the company's reports)")


_RATIO_NAMED = re.compile(r"(?i)\bratio\b|\bconversion\b|/|\bto\s+(?:adjusted\s+)?EBITDA\b|^(?-i:[A-Z][A-Z0-9]{1,5})$")
"""A ratio's name ('liquidity coverage ratio', 'net debt / EBITDA', 'LCR')."""


def _previous_chunk_id(chunk_id: str) -> str:
    """'X:p42::9cc1::2' -> 'X:p42::9cc1::1': the chunk before it on its page ('' for the first)."""
    stem, _, ordinal = chunk_id.rpartition("::")
    return f"{stem}::{int(ordinal) - 1}" if ordinal.isdigit() and int(ordinal) > 0 else ""


def _row_names(rows: Sequence[StatementRow], searches: Sequence[Sequence[Sequence[str]]]) -> bool:
    """Whether a table row (a row of several figures) is labelled with every word of one of the searched
    measures."""
    from app.knowledge.analyzer import analyze
    from app.text.terms import stem_in_words

    for row in rows:
        if row.periods or len(row.values) >= 2:  # (a chunk cut from its table's header: rows without periods)
            words = set(analyze(row.line_item))
            if any(all(any(stem_in_words(stem, words) for stem in group) for group in groups) for groups in searches):
                return True
    return False


MAX_GROWTHS = 1
"""Chunks admitted per company for the growth a judgement rests on, as the report states it."""


def growth_check(state: RetrievalState, mention_fn: MentionFn | None) -> list[Evidence]:
    """For a judgement that rests on revenue growth ('Are its FY2022 financials those of a high growth
    company?') that no admitted chunk states: a text search of each named company's reports for the chunk that
    states the year's growth as the report rounds it ('In 2022, worldwide sales increased 1.3% to $94.9 billion',
    app/facts/query.stated_change), of the filings of the years asked (else the latest). The calculator computes
    the growth from the statements; an analyst quotes the report's own figure beside it."""
    from app.facts.query import stated_change
    from app.judgements import convention_for
    from app.knowledge.analyzer import analyze

    question = state["question"]
    convention = convention_for(question)
    if mention_fn is None or convention is None or not any("revenue growth" in m for m in convention.metrics):
        return []
    asked = set(state.get("fiscal_years") or [])

    def states_growth(doc: Evidence) -> bool:
        years = asked or ({doc.fiscal_year} if doc.fiscal_year else set())
        return any(stated_change("revenue", year, [doc]) is not None for year in years)

    if any(states_growth(d) for d in state["graded"]):
        return []
    groups = [sorted(analyze("sales revenue revenues turnover")),
              sorted(analyze("increased grew rose decreased growth")), *([str(y)] for y in sorted(asked))]
    return _found_of_years(state, lambda company: [d for d in mention_fn(company, groups) if states_growth(d)],
                           MAX_GROWTHS, "states the year's revenue growth the judgement rests on (a text search "
                                        "of the company's reports)")


MAX_LEVERAGES = 1
"""Chunks admitted per company for the sentence that says an expense leveraged or deleveraged over the year."""


def leverage_check(state: RetrievalState, mention_fn: MentionFn | None) -> list[Evidence]:
    """For a question whether an expense rose or fell as a percent of sales ('Did Ulta Beauty's wages expense as a
    percent of net sales increase or decrease in FY2023?') that no admitted chunk answers: a text search of each
    named company's reports for a sentence that says the expense leveraged or deleveraged (app/facts/leverage.py),
    a quarter's sentence only for a quarter asked, of the filings of the years asked (else the latest). Ranked
    search finds the quarter's paragraph as readily as the year's, which may stand in the next chunk."""
    from app.facts.leverage import SHARE_OF_SALES, expense_stems, leverage_sentences
    from app.text.periods import part_named
    from app.text.question_kinds import asked_sentence, read_ask

    question = state["question"]
    asked = asked_sentence(question)
    if mention_fn is None or not SHARE_OF_SALES.search(asked) or read_ask(question).kind not in (
            "change", "yes_no_change"):
        return []
    stems = expense_stems(asked)
    quarter = part_named(question) is not None
    if not stems or any(leverage_sentences(d.text, stems, quarter) for d in state["graded"]):
        return []
    groups = [["leverag"], sorted(stems)]
    return _found_of_years(state, lambda company: [d for d in mention_fn(company, groups)
                                                   if leverage_sentences(d.text, stems, quarter)],
                           MAX_LEVERAGES, "says the expense asked about leveraged or deleveraged (a text search of "
                                          "the company's reports)")


def mention_check(state: RetrievalState, mention_fn: MentionFn | None) -> tuple[list[Evidence], dict[str, list[str]]]:
    """For a 'did X mention …' question (app/text/question_kinds.mention_topic): a text search of every chunk of
    each named company's reports for the topic's words. Where chunks mention it, up to MAX_MENTIONS of those not
    admitted yet are (those whose opening names it first, then the latest filings); where none does (the terms of plans and
    agreements filed as exhibits are no mention by the company), the company is recorded with the words searched:
    its answer is a declared 'No', not 'insufficient'."""
    from app.text.question_kinds import mention_topic

    groups = mention_topic(state["question"])
    if mention_fn is None or not groups:
        return [], {}
    stems = [sorted(group) for group in groups]
    prefixes = [sorted({stem[:5] for stem in group if "+" not in stem}) for group in groups]
    unheld = state.get("unheld") or {}
    graded = list(state["graded"])
    admitted: list[Evidence] = []
    unmentioned: dict[str, list[str]] = {}
    for company in [c for c in state.get("companies") or [] if c not in unheld]:
        found = [d for d in mention_fn(company, stems)
                 if not is_contract_text(d.text) and holds_groups(d.text, groups)]
        if not found:
            unmentioned[company] = ["/".join(p) for p in prefixes]
            continue
        held = {d.chunk_id for d in graded}
        # the chunks about it first: where its words open the chunk ('13. Business Combinations / Acquisition of
        # …'), not where a sentence mentions it in passing
        words = re.compile(r"(?i)\b(?:" + "|".join(re.escape(p) for group in prefixes for p in group) + ")")
        # (a word written apart, 'buy-back', is found by the search but not here: such a chunk ranks last)
        found.sort(key=lambda d: m.start() if (m := words.search(d.text)) else len(d.text))
        score = max((d.score for d in graded), default=0.0)
        admitted += [d.model_copy(update={"score": score, "why": "mentions what the question asks about (a text "
                                                                  "search of every chunk of the company's reports)"})
                     for d in [d for d in found if d.chunk_id not in held][:MAX_MENTIONS]]
    return admitted, unmentioned


MAX_STATEMENT_PAGES = 2
"""Statement pages read whole, per run, for a question that ranks their rows."""


def statement_continuations(question: str, graded: Sequence[Evidence], page_fn: PageFn | None,
                            companies: Sequence[str] = (), *, inputs: bool = False) -> list[Evidence]:
    """For a question that ranks the rows of a statement ('Which activity brought in the most cash', 'the
    largest liability on the balance sheet'), the other chunks of the page of each admitted chunk that is a
    primary statement, or opens under the title of a table of the measure ranked by (`titled_by_measure`): the
    largest row may stand in the chunk that search did not rank, and a ranking of half a table is no answer. For
    a question that asks why, the other chunks of the pages of the first admitted ones: the reason is often
    stated beside the figures search found. For a list, the chunk after each of the first admitted ones: its
    items run on into it. For a question computed from statement line items (`inputs`), the
    other chunks of each admitted primary statement's page: 'Net income attributable to 3M' may stand in the chunk
    after 'Net income including noncontrolling interest'."""
    from app.text.question_kinds import member_noun, read_ask

    ask = read_ask(question)
    kind = ask.kind
    ranks = kind == "extreme" and bool(member_noun(question))
    # a list's items run on past the chunk search found ('On May 31, 2023, the Company completed the acquisition
    # of a New Zealand based …' in the chunk after the Czech and Shanghai ones): its page is read whole too
    around = kind == "explain" or (kind == "list" and not ask.one_name)
    whole = inputs and not (ranks or around)
    if page_fn is None or not (ranks or around or inputs):
        return []
    held = {d.chunk_id for d in graded}
    pages: list[tuple[str, int]] = []
    read = 0
    out: list[Evidence] = []
    query = read_query(question, companies) if ranks else None
    # segments or regions ranked: a primary statement's line items are neither
    of_members = ranks and bool(SEGMENT_ASKED.search(question) or REGION_ASKED.search(question))
    # a computed question's statements: the annual report's before a quarter's (its year-end balance sheet is
    # the year's), then as ranked
    order = sorted(graded, key=lambda d: _quarterly(d)) if whole else list(graded)
    for doc in order:
        # an explanation is often the text around a table that search found ('The impairment of A$385.0 million
        # … reduced statutory profit.' above the profit table): the page read whole
        if doc.page is None or (doc.source_id, doc.page) in pages or (
                ranks and (statement_of_page(doc.text) is None or of_members)
                and not titled_by_measure(doc.text, query) and not introduces_table_of(doc.text, query)) or (
                whole and (statement_of_page(doc.text) is None or names_parent_entity(doc.text[:400]))):
            continue  # (a closed group's or parent's own statements are no inputs of the group's figures)
        if read >= MAX_STATEMENT_PAGES + whole:
            break
        pages.append((doc.source_id, doc.page))
        siblings = page_fn(doc.source_id, doc.page)
        if kind == "list":  # the chunk the list runs on into, not the page's other lists
            at = next((i for i, d in enumerate(siblings) if d.chunk_id == doc.chunk_id), None)
            siblings = siblings[at + 1:at + 2] if at is not None else []
        if of_members and not any(row.periods for sibling in siblings for row in read_statement(sibling.text).rows):
            continue  # a page none of whose rows is read with its periods (a table whose header mixes periods,
            # shares and measures) ranks nothing: it takes none of the pages read
        # a page whose every chunk is admitted already adds nothing, and takes none of the pages read either
        read += any(sibling.chunk_id not in held for sibling in siblings)
        for sibling in siblings:
            if sibling.chunk_id not in held:
                held.add(sibling.chunk_id)
                why = ("the rest of the statement page whose rows the question ranks" if ranks else
                       "the rest of a statement page whose line items the question computes from" if whole else
                       "the rest of the page of a passage the list asked for may run on in" if kind == "list" else
                       "the rest of the page of a passage the explanation asked for may lie around")
                out.append(sibling.model_copy(update={"score": doc.score, "why": why}))
    return out


def years_statement(doc: Evidence, part: bool | str = False) -> bool:
    """Whether a chunk is a primary statement that gives the group's figures for a year: not the parent's own
    or a closed group's ('Deed of Cross Guarantee'), and of the year (`of_the_year`)."""
    return statement_of_page(doc.text) is not None and not names_parent_entity(doc.text[:400]) \
        and of_the_year(doc, part)


def of_the_year(doc: Evidence, part: bool | str = False) -> bool:
    """Whether a chunk's statement figures are a year's: a quarter's statement's are not, unless the question
    asks about part of a year (`part`): a 10-Q's 31 December balances fall in a June year (Amcor's FY2023) without
    being the year's."""
    return bool(part) or not _quarterly(doc)


def _quarterly(doc: Evidence) -> bool:
    """Whether a piece of evidence is from a quarterly filing (a 10-Q, a quarter's earnings release)."""
    from app.facts.currency import filing_name

    name = filing_name(doc)
    return name.form == "10-Q" or name.fiscal_quarter is not None


def introduces_table_of(text: str, query: Any) -> bool:
    """Whether a chunk ends with the sentence that leads into a table of the measure a question ranks by ('The
    following tables provide the dollar amount and percentage of net sales and operating profit from each segment
    for fiscal 2020 and fiscal 2019:'): the table stands in the page's next chunk."""
    from app.knowledge.analyzer import analyze

    if query is None or not _leads_into_table(text):
        return False
    stems = set(query.measure.stems)
    return bool(stems) and stems <= set(analyze(_last_sentence(text)))


def _leads_into_table(text: str) -> bool:
    """Whether a chunk ends with a sentence that leads into a table ('… for each of our reportable segments
    (amounts in millions):')."""
    tail = re.sub(r"\s+\d{1,4}$", "", _last_sentence(text))  # the page's number after it
    return tail.endswith(":") and _LEADS_INTO_TABLE.search(tail) is not None


def _last_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s+", " ".join(text.split()))[-1]


_LEADS_INTO_TABLE = re.compile(r"(?i)\b(?:following\s+tables?|tables?\s+below|as\s+follows)\b")
"""Words of a sentence that leads into a table ('The following tables provide …:')."""
_TABLE_TITLE = re.compile(r"[A-Z][\w&'’,()-]*(?:[ \t]+[\w&'’,()-]+){0,7}:")
"""A table's title on a line of its own, a colon closing it ('Sales by geographic area:')."""


def titled_by_measure(text: str, query: Any) -> bool:
    """Whether a chunk opens with the title of a table of the measure a question ranks by ('SUPPLEMENTAL DATA –
    ADJUSTED PROPERTY EBITDAR' for 'which region had the highest EBITDAR'): a chunk of footnotes under that
    title stands for the table whose rows its page's other chunks hold."""
    lines = [line.strip() for line in text.splitlines() if line.strip()][:6]
    return query is not None and any(len(line.split()) <= 14 and titles_measure(line, query) for line in lines)


def latest_reported(documents: Iterable[Evidence], company: str, question: str = "") -> list[int]:
    """[the latest fiscal year of the company's reports among the searched documents], or [] (news and
    undated pages say nothing of which filing is the latest). Unless the question asks about a quarter or a half
    year, the latest annual filing's year: a half-year report's year is not yet a year reported."""
    reports = [d for d in documents if d.fiscal_year and d.doc_type != "news"
               and (d.company or "").casefold() == company.casefold()]
    if not forms_wanted(question) & INTERIM_FORMS:
        annual = [d for d in reports if read_name(d.title or d.source_id).form not in INTERIM_FORMS]
        reports = annual or reports
    return [max(d.fiscal_year for d in reports if d.fiscal_year)] if reports else []


def figures_held(docs: Iterable[Evidence]) -> set[tuple[str, str, int]]:
    """(company, line item, fiscal year) for every figure the documents give that names a catalogue line item;
    percentages never stand for an amount."""
    held: set[tuple[str, str, int]] = set()
    for figure in extract_figures(docs):
        if figure.fiscal_year is None or figure.unit.strip() == "%" or not figure.company:
            continue
        for item in LINE_ITEMS:
            if label_match(figure.label, item) is not None:
                held.add((figure.company.casefold(), item, figure.fiscal_year))
    return held


def on_pages_held(graded: Sequence[Evidence], company: str, item: str, year: int,
                  page_fn: PageFn | None, *, part: bool | str = False) -> Evidence | None:
    """The rest of a primary statement grading already admitted part of: a balance sheet cut into chunks gives
    'Total current assets' in the admitted one and 'Total current liabilities' in the next, which is where an
    analyst reads on (a search for the line's name may rank a note, such as the parent entity's, first)."""
    if page_fn is None:
        return None
    wanted = (company.casefold(), item, year)
    seen: set[tuple[str, int]] = set()
    for doc in graded:
        if (doc.company or "").casefold() != company.casefold() or doc.page is None or not years_statement(doc, part):
            continue
        if (doc.source_id, doc.page) in seen:
            continue
        seen.add((doc.source_id, doc.page))
        for sibling in page_fn(doc.source_id, doc.page):
            if sibling.chunk_id != doc.chunk_id and wanted in figures_held([sibling]):
                return sibling.model_copy(update={"score": doc.score})
    return None


def find_row(search_fn: SearchFn, company: str, item: str, year: int, filings: Sequence[int],
             page_fn: PageFn | None = None, *, part: bool | str = False) -> Evidence | None:
    """The first chunk of a primary statement, in the filings of `filings` in order, that gives `item` for `year`
    for the company, else the first chunk of any other page that does. A statement page whose best chunk (the
    one search ranks it by: often its title rather than the row) does not give it has its other chunks read. The
    line item's names are searched three at a time, the commonest first ('Cost of products sold' is the seventh
    name of cost of sales), in at most MAX_NAME_QUERIES searches per filing. The parent entity's or a closed
    group's own statements ('Deed of Cross Guarantee') are not the group's; unless the question asks about part
    of a year (`part`), a quarter's statement comes after an annual one: its balances are at the quarter's end."""
    names = LINE_ITEMS[item].synonyms
    queries = [" ".join(names[i:i + 3]) for i in range(0, len(names), 3)][:MAX_NAME_QUERIES]
    wanted = (company.casefold(), item, year)
    quarter: Evidence | None = None
    elsewhere: Evidence | None = None
    for filing, query in ((f, q) for f in filings for q in queries):
        for hit in search_fn(query, company, filing, FETCH_K):
            doc = Evidence.model_validate(hit)
            if names_parent_entity(doc.text[:400]):
                continue
            on_statement = statement_of_page(doc.text) is not None
            found = doc if wanted in figures_held([doc]) else None
            if found is None and on_statement and page_fn is not None and doc.page is not None:
                found = next((s.model_copy(update={"score": doc.score}) for s in page_fn(doc.source_id, doc.page)
                              if s.chunk_id != doc.chunk_id and wanted in figures_held([s])), None)
            if found is None:
                continue
            if not on_statement:
                elsewhere = elsewhere or found
            elif of_the_year(found, part):
                return found
            else:
                quarter = quarter or found
    return quarter or elsewhere
