"""The offline, extractive draft of the retrieval subgraph.

Per company, the sentences of the admitted evidence that share most topic terms with the question (a figure, the
fiscal year asked and the section heading count too), each a Claim citing its chunk; sentences addressed to a
model are never quoted. What the question asks (`core_question`, `asks_for_figure`, `measure_terms`,
`answers_question`, ...) is read by app/text/questions.py; topic terms and a sentence's support by
app/text/terms.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from app.evidence import Claim, Evidence, rank_evidence
from app.knowledge.analyzer import analyze
from app.knowledge.pages import statement_of_page
from app.metrics import items_named
from app.text.dates import read_dates
from app.text.periods import years_named
from app.text.questions import (
    answers_question,
    asks_for_figure,
    asks_for_person,
    core_question,
    forward_stems,
    names_the_person,
    question_parts,
)
from app.text.sentences import joined_lists, looks_like_instruction, readable_tables, split_sentences
from app.text.statements import readable_statement
from app.text.terms import sentence_support, topic_terms

MAX_CLAIMS_PER_COMPANY = 2
"""The extractive draft keeps this many best-supported sentences per company."""
SECTION_ONLY_WEIGHT = 0.75
"""A sentence whose support comes only from its section heading counts this much of that support."""


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
    # (a part asked: its name may stand only over its table, as the chunk's title or the heading above the row)
    parted = part_named(question, companies)
    answers = ((lambda sentence, doc: answers_question(question, sentence, companies,
                                                      sentence_context(doc, sentence) if parted else doc.section or "")
                and of_the_years_asked(sentence, doc, years))
               if asks_for_figure(question) else
               (lambda sentence, doc: names_the_person(question, sentence, companies))
               if asks_for_person(question) else None)
    # a line item asked for is the whole company's: a primary statement's row before a segment table's or a
    # sentence about one acquisition ('Redgum contributed $38 million of revenue')
    statements_first = answers is not None and bool(items_named(core_question(question)))
    return [claim for docs in groups.values()
            for claim in best_sentences(topic, docs, limit, years, answers, statements_first)]


def chunk_context(doc: Evidence) -> str:
    """What a chunk's sentences stand under: its section, and the title its first line heads a table with, when
    it states no figure ('Domestic DVD Segment', 'REPORTED SALES vs. PRIOR PERIOD ($MM)' over rows that name
    neither the segment nor the measure)."""
    first = next((line.strip() for line in doc.text.splitlines() if line.strip()), "")
    title = first if len(first.split()) <= 16 and not re.search(r"\d[\d,.]*\d|\d{2,}", first) else ""
    return " ".join(x for x in (doc.section, title) if x)


def part_named(question: str, companies: Sequence[str] | set[str]) -> bool:
    """Whether the question asks about a part of the company (a segment, a franchise, a region), whose name a
    table gives only over its rows."""
    from app.text.measures import measure_asked

    segment = measure_asked(question, sorted(c for c in companies if c)).segment
    # (a project or plan named is no part: 'What is Project Bedrock and how much did it cost?')
    return segment is not None and not re.match(r"(?i)(?:project|programme|program|plan|initiative)\b", segment)


def sentence_context(doc: Evidence, sentence: str) -> str:
    """What a sentence of a chunk stands under: the chunk's context (`chunk_context`) and the heading above it
    (`heading_of`)."""
    return f"{chunk_context(doc)} {heading_of(doc, sentence)}".strip()


def heading_of(doc: Evidence, sentence: str) -> str:
    """The heading line nearest above a sentence in its chunk ('VISION' over a sales schedule's 'US', 'Intl' and
    'WW' rows, app/facts/members.heading_above), '' for none."""
    from app.facts.members import heading_above

    words = re.findall(r"[\w$%.,()-]+", sentence)[:3]
    found = re.search(r"\W+".join(map(re.escape, words)), doc.text) if words else None
    return (heading_above(doc.text[:found.start()]) or "") if found is not None and found.start() > 0 else ""


def of_the_years_asked(sentence: str, doc: Evidence, years: Sequence[int]) -> bool:
    """A figure for a year asked: a sentence (or statement row) that names years must name one asked; one that
    names none speaks for its filing's year. Another year's figure is no answer."""
    if not years:
        return True
    named = years_named(_without_event_dates(sentence))
    if named:
        return bool(set(named) & set(years))
    return doc.fiscal_year is None or doc.fiscal_year in years or any(y > doc.fiscal_year for y in years)


def _without_event_dates(sentence: str) -> str:
    """The sentence without the dates of events ('In November 2023 our Board approved Project Bedrock'): such a
    date says when something happened, not which period a figure is for. A period's end ('the year ended June 30,
    2024', 'as of December 31, 2023') and a fiscal year stay."""
    for text, (_, month, _) in read_dates(sentence)[0]:
        if month is not None and not re.search(rf"(?i)\b(?:ended|ending|as of|at)\s+{re.escape(text)}", sentence):
            sentence = sentence.replace(text, " ")
    return sentence


MEASURE_SUPPORT = 1.0
"""The least support of a sentence that states the measure a figure question asks for, whatever its words."""


def best_sentences(topic: set[str], docs: Sequence[Evidence], limit: int, years: Sequence[int] = (),
                   answers: Callable[[str, Evidence], bool] | None = None,
                   statements_first: bool = False) -> list[Claim]:
    # A sentence is read in its section's context: under "Outlook and guidance", "For FY2025 we expect: revenue
    # of $1.02bn to $1.08bn; ..." answers a question about guidance although it never says the word. Support
    # through the section alone counts for less than the sentence's own words.
    def support(sentence: str, section: str | None) -> float:
        own = sentence_support(topic, sentence, years)
        return own if own > 0 or not section else SECTION_ONLY_WEIGHT * sentence_support(
            topic, f"{sentence} {section}", years)

    # For a figure question (`answers` given) only sentences that state the measure asked count, and each of
    # them supports the answer even in other words than the question's: 'Purchases of property, plant and
    # equipment: 2018 (1,577)' answers 'capital expenditure'.
    on_statement = {d.chunk_id: statements_first and statement_of_page(d.text) is not None for d in docs}
    # an outlook ('now expects comparable sales growth of 2.5% to 3.5%') answers a question about guidance only
    asks_ahead = bool(forward_stems() & topic)
    candidates = [
        (on_statement[doc.chunk_id], asks_ahead or not forward_stems() & set(analyze(sentence)),
         max(support(sentence, doc.section), MEASURE_SUPPORT if answers else 0.0), doc.score, -position, sentence, doc)
        for doc in docs
        for position, sentence in enumerate(split_sentences(joined_lists(readable_tables(readable_statement(doc.text)))))
        if not looks_like_instruction(sentence) and (answers is None or answers(sentence, doc))
    ]
    ranked = sorted((c for c in candidates if c[2] > 0), key=lambda c: c[:5], reverse=True)
    picked: dict[str, Claim] = {}
    for *_, sentence, doc in ranked:
        if len(picked) < limit and sentence not in picked:
            picked[sentence] = Claim(text=sentence, evidence_chunk_ids=[doc.chunk_id], company=doc.company)
    return list(picked.values())
