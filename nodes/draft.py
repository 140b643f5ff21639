"""The offline, extractive draft of the retrieval subgraph, and what a question asks.

Drafting: per company, the sentences of the admitted evidence that share most topic terms with the question (a
figure, the fiscal year asked and the section heading count too), each a Claim citing its chunk; sentences
addressed to a model are never quoted.

What the question asks: `core_question` (the question proper, instructions around it dropped),
`asks_for_figure`, `measure_terms` (the measure an answer must name, with the metric catalogue's alternatives),
`states_measure` and `answers_question` (a sentence answers a figure question only when it states a figure and
names the measure).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from app.evidence import Claim, Evidence, rank_evidence
from app.knowledge.analyzer import analyze
from app.knowledge.pages import statement_of_page
from app.metrics import items_named
from app.text.dates import read_dates
from app.text.figures import states_figure
from app.text.periods import fiscal_years_named, years_named
from app.text.sentences import joined_lists, readable_tables, split_at_stops, split_sentences
from app.text.statements import readable_statement
from nodes.grade import topic_terms

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
    answers = ((lambda sentence, doc: answers_question(question, sentence, companies, doc.section or "")
                and of_the_years_asked(sentence, doc, years))
               if asks_for_figure(question) else
               (lambda sentence, doc: names_the_person(question, sentence, companies))
               if asks_for_person(question) else None)
    # a line item asked for is the whole company's: a primary statement's row before a segment table's or a
    # sentence about one acquisition ('Redgum contributed $38 million of revenue')
    statements_first = answers is not None and bool(items_named(core_question(question)))
    return [claim for docs in groups.values()
            for claim in best_sentences(topic, docs, limit, years, answers, statements_first)]


_WHO = re.compile(r"(?i)^\s*who\b|^\s*(?:which|what)\s+(?:person|executive|officer|director)\b")
_ROLE_WORDS = frozenset("""president chief executive officer financial operating technology director chair chairman
    chairwoman chairperson board vice senior general counsel secretary treasurer founder head the and of committee
    council company corporation group department team division inc corp llc ltd plc""".split())
"""Capitalised words that name a role or a body, never a person ('Chief Executive Officer', 'Audit Committee')."""
_PERSON = re.compile(r"\b[A-Z][a-z]+(?:[-' ][A-Z][a-z'-]+)+\b")


def asks_for_person(question: str) -> bool:
    """Whether the question asks who someone is ('Who was the chief executive officer in Q2 2024?')."""
    return bool(_WHO.search(core_question(question)))


def names_the_person(question: str, sentence: str, companies: Iterable[str] = ()) -> bool:
    """A sentence answers 'who' only when it names a person (two capitalised words or more that are neither a
    role nor the company) together with the role the question asks about ('chief executive officer'), its
    period aside."""
    role, not_people = _person_rule(question, frozenset(companies))
    people = [m for m in _PERSON.findall(sentence) if not {w.lower() for w in re.findall(r"[A-Za-z]+", m)} <= not_people]
    return bool(people) and (not role or states_measure([set(role)], sentence))


@lru_cache(maxsize=64)
def _person_rule(question: str, companies: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Read once per question, not per sentence: the role's terms (its period aside) and the words that never
    make a person (roles, bodies, the companies' names)."""
    role = {t for t in topic_terms(re.sub(r"(?i)\b(?:first|second|third|fourth|fiscal|quarter|year|(?:19|20)\d{2})\b",
                                          " ", core_question(question)), set(companies)) if not t.isdigit()}
    company_words = {w.lower() for c in companies for w in re.findall(r"[A-Za-z]+", c)}
    return frozenset(role), _ROLE_WORDS | company_words


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
    asks_ahead = bool(_forward_stems() & topic)
    candidates = [
        (on_statement[doc.chunk_id], asks_ahead or not _forward_stems() & set(analyze(sentence)),
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
                  "figure end ending close closing have has had did does do reported report fiscal quarter period "
                  "first second third fourth")
_ANSWER_TYPE = re.compile(
    r"(?i)\b(which|what)\s+(?:company|companies|business|businesses|firm|entity|brand|segment|subsidiary|person|"
    r"executive|officer|auditor|bank|lender|customer|supplier|country|region|city)\b")
"""'Which company did it acquire': the noun after the question word names the kind of answer (a name), not a
measure the answer must state."""
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
    ('capital expenditure' is stated as 'Purchases of property, plant and equipment'). Read once per question:
    drafting, grading and the calculator ask it of every sentence, document and figure."""
    return [set(a) for a in _measure_terms(question, frozenset(companies))]


@lru_cache(maxsize=64)
def _measure_terms(question: str, companies: frozenset[str]) -> tuple[frozenset[str], ...]:
    from app.metrics import LINE_ITEMS, ONE_WORD_ITEMS, find_metrics, items_named

    core = core_question(question)
    noise = _measure_noise()
    # 'What was revenue, and how much did it grow?' asks two things: a sentence may state either.
    parts = [{t for t in topic_terms(_ANSWER_TYPE.sub(r"\1", part), companies) - noise if len(t) > 1 or t.isdigit()}
             for part in _SECOND_PART.split(core) if part and not _QUESTION_WORD.fullmatch(part.strip())]
    alternatives = [p for p in parts if p]
    for metric in find_metrics(core):
        alternatives.append(set(analyze(metric.name)))
        for source in metric.inputs:
            alternatives += [set(analyze(name)) for name in (source.item.synonyms if source.item else ())]
    # a line item the question names ('how much did it generate in cash flow from operating activities') is
    # stated by any of its names ('Net cash provided by operating activities')
    # (not for guidance: last year's revenue does not state next year's expected revenue)
    for key in items_named(core) if not _forward_stems() & set(analyze(core)) else []:
        # one word of a name ('sales') alone would let 'Cost of sales' state it
        alternatives += [words for name in LINE_ITEMS[key].synonyms
                         if len(words := set(analyze(name))) >= 2 or name in ONE_WORD_ITEMS]
    return tuple(frozenset(a) for a in alternatives if a)


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
    # not 'projection': its stem is 'project', and a project is no forecast
    return frozenset(analyze("guidance outlook forecast forecasts expect expects expected expectation expectations "
                             "target targets"))


@lru_cache(maxsize=1)
def _measure_noise() -> frozenset[str]:
    return frozenset(analyze(_MEASURE_NOISE))
