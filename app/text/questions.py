"""What a question asks, and whether a sentence answers it: the readers that drafting, verification, grading,
the calculator and the offline composer share.

- `core_question(question)`: the question proper, instructions around it dropped; `question_parts`: how many
  things it asks; `asking_sentences(question)`: its asking sentences whole, what a search reads.
- `asks_for_figure(question)`, `measure_terms(question, companies)` (the measure an answer must name, with the
  metric catalogue's alternatives), `states_measure(alternatives, sentence)` and `answers_question` (a sentence
  answers a figure question only when it states a figure and names the measure).
- `asks_for_person(question)` and `names_the_person(question, sentence)`: 'who' questions.
- `forward_stems()`: the words of an outlook ('expect', 'guidance').

Pure functions, no I/O.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from app.knowledge.analyzer import analyze
from app.text.figures import states_figure
from app.text.measures import _QUANTITY, is_measure_word, is_qualifier_word, measure_asked, plain_measures
from app.text.periods import YEAR
from app.text.sentences import split_at_stops
from app.text.terms import matched_terms, topic_terms

_QUESTION_WORD = re.compile(r"(?i)\b(how much|how many|what|which|who|whom|when|where|why|how)\b")
_LEAD_IN = re.compile(r"(?i)^[^,?]{3,120},\s*(?:and\s+)?((?:did|does|do|is|are|was|were|has|have|had|will|would|can|"
                      r"could|should)\b)")
"""A yes/no question's lead-in clause ('Alongside its fourth-quarter 2022 results, did MGM say …', 'In 2022,
did …'): it dates or frames the question, and the question proper starts at its auxiliary verb."""
_ASKS_FIGURE = re.compile(r"(?i)\b(how much|how many|what (?:is|was|were|are|would be|will be)|"
                          r"by how much|what percentage|"
                          # 'What maximum leverage ratio does its credit facility require?': a quantity named first
                          r"what\s+(?:[\w-]+\s+){0,3}?(?:ratio|rate|margin|multiple|percentage|fee|yield|price)s?\s+"
                          r"(?:does|did|do|must|will|would|has|have|had))\b")
_ASKS_OTHER = re.compile(
    r"(?i)\b(why|drove|drivers?|driven|explain|describe|reasons?|nature|purpose|agenda|which|who|whom|when|where|"
    r"how did|how has|how have|how does|what (?:are|were) (?:the )?(?:main|major|key|primary)|risks?|strategy)\b")
_MEASURE_NOISE = ("amount usd dollar dollars million millions billion billions thousand thousands unit units value "
                  "figure end ending close closing have has had did does do reported report fiscal quarter period "
                  "first second third fourth segment segments division divisions")
_ANSWER_TYPE = re.compile(
    r"(?i)\b(which|what)\s+(?:company|companies|business|businesses|firm|entity|brand|segment|subsidiary|person|"
    r"executive|officer|auditor|bank|lender|customer|supplier|country|region|city)\b")
"""'Which company did it acquire': the noun after the question word names the kind of answer (a name), not a
measure the answer must state."""
MIN_LONG_COVERAGE = 0.75
"""A measure of four or more words counts as stated when this share of its words stand together in a sentence."""
_WHO = re.compile(r"(?i)^\s*who\b|^\s*(?:which|what)\s+(?:person|executive|officer|director)\b")
_ROLE_WORDS = frozenset("""president chief executive officer financial operating technology director chair chairman
    chairwoman chairperson board vice senior general counsel secretary treasurer founder head the and of committee
    council company corporation group department team division inc corp llc ltd plc""".split())
"""Capitalised words that name a role or a body, never a person ('Chief Executive Officer', 'Audit Committee')."""
_PERSON = re.compile(r"\b[A-Z][a-z]+(?:[-' ][A-Z][a-z'-]+)+\b")


def core_question(question: str) -> str:
    """The question proper: its sentences that ask (end in '?'), each from its first question word on, so that
    instructions around it ('Answer using the balance sheet: what is ...? Round to two decimals.') drop out."""
    sentences = [s for s in split_at_stops(plain_measures(question).strip()) if s.strip()]
    asked = [s for s in sentences if s.rstrip().endswith("?")] or sentences[:1]
    out = []
    for sentence in asked:
        tail = sentence.rsplit(":", 1)[-1]
        sentence = tail if _QUESTION_WORD.search(tail) else sentence
        # from the question's first word: a yes/no's auxiliary after its lead-in ('In its August 2023 release …,
        # does J&J say it will keep its dividend, and at what amount?') comes before a second part's 'what'
        starts = [m.start(m.lastindex or 0) for m in (_QUESTION_WORD.search(sentence), _LEAD_IN.match(sentence)) if m]
        out.append(sentence[min(starts):] if starts else sentence)
    return " ".join(out)


def asking_sentences(question: str) -> str:
    """The question less the sentences that only tell the answer's form ('If data is not available, return
    'N/A'', 'Round to two decimals', 'If X is not a useful metric, state that'): what a search reads. Asking
    sentences stay whole, lead-ins ('According to the annual report,') included."""
    sentences = [s.strip() for s in split_at_stops(plain_measures(question).strip()) if s.strip()]
    kept = [s for s in sentences if s.endswith("?") or not _FORM_INSTRUCTION.match(s)]
    return " ".join(kept) or question.strip()


_FORM_INSTRUCTION = re.compile(
    r"(?i)^(?:if\b.{0,160}\b(?:return|state|say|answer|respond|explain|reply|write|put)\b|(?:please\s+)?(?:round|"
    r"return|respond|reply|express|format|give\s+(?:the|your)\s+answer|answer\s+(?:in|with|only))\b)")
"""A sentence that tells the answer's form ('If data is not available, return 'N/A'', 'Round to two decimals'),
not what is asked: a sentence that names what to judge by ('Judge by the equity ratio') is kept."""




def asks_for_figure(question: str) -> bool:
    """Whether the question asks for a figure: 'how much/many', or 'what is/was' a quantity (not why, who,
    which, or what drove it)."""
    core = core_question(question)
    if re.search(r"(?i)\bhow (much|many|large|big)\b", core):
        return True  # ('How large is the credit agreement?': its size)
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
    # the measure as read without the question's scaffold ('how much EBIT did its Service segment generate' is
    # 'EBIT' of 'Service'; 'how many machine tools did it deliver in FY3/2025' is 'machine tools' delivered)
    asked = measure_asked(question, sorted(companies))
    clean = set(analyze(asked.phrase)) | set(analyze(asked.segment or ""))
    if asked.count_noun:
        clean |= set(asked.stems)
    clean = {w for w in clean if w not in noise and (len(w) > 1 or w.isdigit())}
    # (of a question of two parts, when it is one part's measure without its scaffold: 'When did it complete the
    # sale, and how much net cash did the sale bring in?' asks for the net cash)
    if clean and clean not in alternatives and (len(_SECOND_PART.split(core)) == 1
                                                or any(clean < part for part in alternatives)):
        alternatives.append(clean)
        # a part named by a compound of its own ('its DVD-by-mail business') may be headed by one of its words
        # ('Domestic DVD Segment'): the measure with any one of them (app/facts/query.segment_by_word reads which)
        if asked.segment and "-" in asked.segment:
            measure = set(analyze(asked.phrase)) - noise
            alternatives += [measure | {w} for w in analyze(asked.segment.replace("-", " "))
                             if len(w) >= 3 and w not in noise and measure]
    # 'technology and development expenses' is the statement's 'Technology and development' line: an expense
    # line named by two things joined says the word 'expenses' under its heading, not in its label
    if (joined := _EXPENSE_LINE.match(asked.phrase)) and len(set(analyze(joined.group("name"))) - noise) >= 2:
        alternatives.append(set(analyze(joined.group("name"))) | set(analyze(asked.segment or "")))
    for metric in find_metrics(core):
        alternatives.append(set(analyze(metric.name)))
        for source in metric.inputs:
            alternatives += [set(analyze(name)) for name in (source.item.synonyms if source.item else ())]
    # a line item the question names ('how much did it generate in cash flow from operating activities') is
    # stated by any of its names ('Net cash provided by operating activities')
    # (not for guidance: last year's revenue does not state next year's expected revenue)
    # (and the item the measure is read as: 'buying back its own shares' is the share repurchases row)
    named = dict.fromkeys([*items_named(core), *items_named(asked.phrase)])
    for key in named if not forward_stems() & set(analyze(core)) else []:
        names = [set(analyze(name)) for name in LINE_ITEMS[key].synonyms]
        # the segment a question names must be stated too: the group's 'Net sales' or 'Revenue' does not state
        # an 'Aerospace segment''s net sales or a 'satellite TV business''s revenue
        extra = set(analyze(asked.segment or ""))
        # one word of a name ('sales') alone would let 'Cost of sales' state it
        alternatives += [words | extra for name, words in zip(LINE_ITEMS[key].synonyms, names)
                         if len(words) >= 2 or name in ONE_WORD_ITEMS]
    return tuple(frozenset(a) for a in alternatives if a)


_EXPENSE_LINE = re.compile(r"(?i)^(?P<name>[a-z][\w-]*(?:,?\s+[a-z][\w-]*)*?,?\s+(?:and|&)\s+[a-z][\w-]*)\s+"
                           r"(?:expenses?|costs?)$")
"""An expense named by the things it is spent on, joined ('research and development expenses', 'selling, general
and administrative costs'): the statement's line says only the things."""


def states_measure(alternatives: Sequence[set[str]], sentence: str, context: str = "", *, kindred: bool = False
                   ) -> bool:
    """Some alternative's words stand together in the sentence (stop words aside): all of them, side by side,
    one other word allowed among three or more ('net interest margin' is not stated by 'net interest expense ...
    margin', 'total assets' not by 'total current assets'); for a
    measure of four or more words, MIN_LONG_COVERAGE of them. Words the sentence's context (its section
    heading) states need not be repeated; every forward-looking word ('expect', 'outlook') says 'guidance'."""
    # 'restructuring and impairment charges' are restructuring charges (and impairment charges)
    readings = [[_forward_stem(t) for t in analyze(text)]
                for text in dict.fromkeys((sentence, _COORDINATED.sub(r"\1", sentence)))]
    # 'loans under the PPP' are PPP loans: the preposition that puts the qualifier after its noun is read past
    readings += [[t for t in tokens if t not in _PLACING] for tokens in readings if _PLACING & set(tokens)]
    # 'Console net revenues' are console revenues: 'net' after a word of the name qualifies the noun that follows
    # (not 'net interest income', where it leads the name and makes another measure)
    readings += [[t for i, t in enumerate(tokens) if not (t == _NET and 0 < i < len(tokens) - 1)]
                 for tokens in readings if _NET in tokens[1:-1]]
    given = {_forward_stem(t) for t in analyze(context)}
    for words in alternatives:
        words = {_forward_stem(w) for w in words}
        rest = words - matched_terms(words, given, kindred=kindred)
        if not rest:
            return True
        need = len(rest) if len(rest) <= 3 else math.ceil(MIN_LONG_COVERAGE * len(rest))
        if len(words) > 3:  # what the context says counts toward a long measure's share, as the words would
            need = min(need, max(1, math.ceil(MIN_LONG_COVERAGE * len(words)) - (len(words) - len(rest))))
        width = len(rest) + (1 if len(rest) >= 3 else 0)  # 'total assets' is not 'total current assets'
        for tokens in readings:
            for start in range(len(tokens)):
                if len(matched_terms(rest, set(tokens[start:start + width]), kindred=kindred)) >= need:
                    return True
    return False


_PLACING = frozenset({"under", "within", "across"})
_NET = "net"
_COORDINATED = re.compile(r"(?i)\b([a-z][\w-]*)\s+(?:and|or|&)\s+[a-z][\w-]*(?=\s+[a-z])")
"""'restructuring and impairment charges': the first of two words that share the noun after them."""


def answers_question(question: str, sentence: str, companies: Iterable[str] = (), context: str = "") -> bool:
    """A sentence answers a figure question only when it states a figure and names the measure asked;
    any sentence may answer another kind of question (grading and support decide those)."""
    if not asks_for_figure(question):
        return True
    return states_figure(sentence) and states_measure(measure_terms(question, companies), sentence, context)


def _forward_stem(term: str) -> str:
    return "guidanc" if term in forward_stems() else term


@lru_cache(maxsize=1)
def forward_stems() -> frozenset[str]:
    """The analyzed words of an outlook ('guidance', 'expect', 'forecast', 'target'): a sentence that holds one
    speaks of the future."""
    # not 'projection': its stem is 'project', and a project is no forecast
    return frozenset(analyze("guidance outlook forecast forecasts expect expects expected expectation expectations "
                             "target targets"))


@lru_cache(maxsize=1)
def _measure_noise() -> frozenset[str]:
    return frozenset(analyze(_MEASURE_NOISE))


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
    role = {t for t in topic_terms(re.sub(rf"(?i)\b(?:first|second|third|fourth|fiscal|quarter|year|{YEAR})\b",
                                          " ", core_question(question)), set(companies)) if not t.isdigit()}
    company_words = {w.lower() for c in companies for w in re.findall(r"[A-Za-z]+", c)}
    return frozenset(role), _ROLE_WORDS | company_words


_SECOND_PART = re.compile(r"(?i)(?:,|;|\band\b)\s*(?:and\s+)?(?:what|when|how|who|where|why|which|by how)\b")


def question_part_texts(question: str) -> list[str]:
    """The parts of a question that asks several things, in order ('When did it announce the order', ' is it
    worth?'); one part for a question that asks one."""
    return [p for p in _SECOND_PART.split(question) if p.strip()]


def question_parts(question: str) -> int:
    """How many things the question asks: 'What is the dividend, and when is it paid?' asks two."""
    return 1 + len(_SECOND_PART.findall(question))
