"""The topic terms of a question and how much of them a text holds: the readers that grading, drafting, news
selection and memory relevance share.

- `topic_terms(question, companies)`: the question's analyzed terms (app/knowledge/analyzer.py), company names,
  fiscal years and question or arithmetic words (`question_noise`) aside.
- `stem_in_words(stem, words)`: a key word among a text's words, by prefix, root or the noun for a verb.
- `matched_terms(topic, terms)`: the topic terms found among a text's terms, by a shared 5-letter stem prefix too.
- `sentence_support(topic, sentence, years)`: how well a sentence supports the question (its topic terms, a
  figure, the fiscal year asked).

Pure functions, no I/O.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from app.knowledge.analyzer import analyze
from app.text.figures import states_figure
from app.text.periods import fiscal_years_named, is_year_token

_QUESTION_WORDS = (
    "much many tell give show explain please also know like get happen happened year years about regarding "
    "concerning during over able done any "
    # Reporting verbs frame what is asked ('did it say it would keep paying …'): a report rarely repeats them.
    "say said mention mentioned "
    # Arithmetic and comparison words name what to do with the facts, not the facts: documents rarely hold them.
    "difference differ between compare compared comparison versus vs exceed exceeded gap calculate compute"
)


def topic_terms(question: str, companies: Iterable[str]) -> set[str]:
    """The question's analyzed terms minus company names, fiscal years and question words. A word that only
    shares its stem with a question word stays: 'comparable sales' is a measure, 'compare' is not."""
    names = set(analyze(" ".join(companies)))
    # a company's initials joined ('J&J' of Johnson & Johnson) and a part of the year ('the first half of 2023',
    # a period the search's filters hold) are no topic
    question = _PART_OF_YEAR.sub(" ", _initials_of(question, companies))
    noise_words = _noise_words()
    kept = {t for word in re.findall(r"[A-Za-z]+", question) if word.lower() not in noise_words for t in analyze(word)}
    return {t for t in analyze(question)
            if t not in names and (t not in question_noise() or t in kept) and not is_year_token(t)}


_PART_OF_YEAR = re.compile(r"(?i)\b(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:half|quarter)\b")


def _initials_of(question: str, companies: Iterable[str]) -> str:
    """The question without the initials it joins for a company ('J&J' for Johnson & Johnson, 'P&G')."""
    heads = {"".join(w[0].lower() for w in re.findall(r"[A-Za-z]+", c) if w.lower() != "and") for c in companies}
    return re.sub(r"\b([A-Z])\s?&\s?([A-Z])(?:['’]s)?\b",
                  lambda m: " " if (m.group(1) + m.group(2)).lower() in heads else m.group(0), question)


@lru_cache(maxsize=1)
def _noise_words() -> frozenset[str]:
    words = _QUESTION_WORDS.split()
    return frozenset([*words, *(w + "s" for w in words), *(w + "d" for w in words if w.endswith("e")),
                      *(w + "ing" for w in words), *(w[:-1] + "ing" for w in words if w.endswith("e"))])


@lru_cache(maxsize=1)
def question_noise() -> frozenset[str]:
    """The analyzed question and arithmetic words: never a topic term, never a query term."""
    return frozenset(analyze(_QUESTION_WORDS))


_NOMINALS = {"retain": "retention", "close": "closure", "closed": "closure", "pay": "payment", "paid": "payment",
             "merge": "merger", "grow": "growth", "grew": "growth", "grown": "growth", "lose": "loss", "lost": "loss",
             "fail": "failure", "failed": "failure", "succeed": "success"}
"""Verbs whose noun a report writes instead, where neither the stemmer nor a shared 5-letter prefix joins them
('Was X able to retain card members': 'Card Member retention remained high'). Not 'sell': reports' 'sales' are
revenue ('Is X looking to sell its franchise business' is not answered by 'franchise sales rose 5.6%')."""


@lru_cache(maxsize=1)
def _nominal_stems() -> dict[str, str]:
    return {stem: analyze(noun)[0] for verb, noun in _NOMINALS.items() for stem in analyze(verb)}


def nominal_stem(stem: str) -> str | None:
    """The stem of the noun reports write for a verb's stem ('retain': 'retent'), None for any other stem."""
    return _nominal_stems().get(stem)


ADJUSTED_NAMES = frozenset({"adjusted", "core", "underlying"})
"""The names companies give their adjusted measure ('Core operating profit', 'Underlying EBITDA')."""


@lru_cache(maxsize=1)
def _kindred() -> dict[str, frozenset[str]]:
    groups = [frozenset(analyze(words)) for words in ("cost costs charge charges expense expenses",
                                                      " ".join(sorted(ADJUSTED_NAMES)),
                                                      "profit profits income earnings")]
    kin = {stem: group for group in groups for stem in group}
    # 'turnover', as non-US reports name sales, is found as the 'sales' or 'revenue' row; one way only: a question
    # about sales is no question about a turnover ratio
    kin.update({stem: frozenset(analyze("turnover sales revenue revenues")) for stem in analyze("turnover")})
    return kin


def kindred_in(stem: str, words: set[str] | frozenset[str]) -> bool:
    """A word reports use for the one asked stands among the words: 'restructuring costs' are stated as the
    'restructuring and impairment charges' row, or as 'restructuring expenses'; an 'adjusted' measure as PepsiCo's
    'core' one; a 'pretax profit' as the 'Pretax segment income' row."""
    group = _kindred().get(stem)
    return group is not None and not group.isdisjoint(words)


_IRREGULAR = ("pay paid", "sell sold", "buy bought", "make made", "grow grew grown", "hold held", "lose lost",
              "spend spent", "begin began begun", "take took taken", "win won", "lead led", "rise rose risen",
              "fall fell fallen", "bring brought", "build built", "meet met")
"""A verb's irregular forms, which neither the stemmer nor a shared prefix joins ('Did it pay any dividends':
'we have never paid any')."""


@lru_cache(maxsize=1)
def _irregular() -> dict[str, frozenset[str]]:
    forms = [frozenset(analyze(words)) for words in _IRREGULAR]
    return {stem: group - {stem} for group in forms for stem in group}


def stem_in_words(stem: str, words: set[str] | frozenset[str]) -> bool:
    """A key word stands among a text's words: the same stem, the same first five letters, or the same root once a
    derivational ending is off ('closing' and 'closure': 'close' and 'closur' are both 'clos'), the noun
    reports write for the verb asked ('retain' / 'retention'), or another of its irregular forms ('pay' / 'paid')."""
    if stem in words or (len(stem) >= 5 and any(len(w) >= 5 and w[:5] == stem[:5]
                                                and len(os.path.commonprefix([w, stem])) >= max(len(w), len(stem)) - 3
                                                and not false_friends(w, stem)
                                                for w in words)):
        return True  # 'acquisit' / 'acquir'; not 'sharebuyback' / 'sharehold'
    if nominal_stem(stem) in words or not _irregular().get(stem, frozenset()).isdisjoint(words):
        return True
    root = _root(stem)
    return len(root) >= 4 and any(_root(w) == root for w in words)


_NOT_A_DEAL = re.compile(r"(?i)\b(?:content|customer|member(?:ship)?|subscriber|user|talent|data|land|programming|"
                         r"title|inventory|equipment|property)\s+acquisitions?\b")
"""'Acquisition' of something other than a business: content a streamer licenses, customers it signs up, land."""


def without_other_acquisitions(text: str) -> str:
    """The text with each acquisition of something other than a business (`_NOT_A_DEAL`: 'content acquisitions',
    'customer acquisition') written as the buying it is, so that it does not read as a merger or acquisition."""
    return _NOT_A_DEAL.sub(lambda m: m.group(0).rsplit(" ", 1)[0] + " purchasing", text)


_FALSE_FRIENDS = frozenset(frozenset(pair) for pair in [("restat", "restar"), ("restat", "restau"),
                                                         ("consol", "consolid")])
"""Words whose first five letters agree but that are not one word ('restated' and 'restarted', 'restaurant'), by
their first six, or eight ('console' and 'consolidated')."""


def false_friends(a: str, b: str) -> bool:
    """Whether two stems that start alike are two words (`_FALSE_FRIENDS`)."""
    return frozenset((a[:6], b[:6])) in _FALSE_FRIENDS or frozenset((a[:8], b[:8])) in _FALSE_FRIENDS


def _root(stem: str) -> str:
    return re.sub(r"(?:ur|ment|ion|e)$", "", stem)


def nominal_forms(text: str) -> list[str]:
    """The nouns reports write for the text's verbs (`_NOMINALS`), each once, in the text's order."""
    return list(dict.fromkeys(_NOMINALS[w] for w in re.findall(r"[a-z]+", text.casefold()) if w in _NOMINALS))


def matched_terms(topic: set[str], terms: set[str], *, kindred: bool = False) -> set[str]:
    """Topic terms found among `terms`, exactly or, for words of 5+ letters, by a shared 5-letter stem prefix:
    the stemmer keeps "acquire" (acquir) and "acquisition" (acquisit) apart, a reader does not; or a verb by the
    noun reports write for it ('retain': 'retention', `_NOMINALS`)."""
    prefixes = {t[:5] for t in terms if len(t) >= 5 and t.isalpha()}
    return {t for t in topic if t in terms or (len(t) >= 5 and t.isalpha() and t[:5] in prefixes)
            or nominal_stem(t) in terms or (kindred and kindred_in(t, terms))}


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


_SPELLED_OUT = {"NPAT": "net profit after tax", "NPBT": "net profit before tax", "PBT": "profit before tax",
                "PAT": "profit after tax", "EBT": "earnings before tax", "FCF": "free cash flow",
                "OCF": "operating cash flow", "SG&A": "selling, general and administrative expenses",
                "R&D": "research and development", "CEO": "chief executive officer",
                "CFO": "chief financial officer", "COO": "chief operating officer", "CTO": "chief technology officer",
                "EPS": "earnings per share", "ARPU": "average revenue per user", "AGM": "annual general meeting",
                "IPO": "initial public offering", "PP&E": "property, plant and equipment"}
"""Abbreviations a question uses and reports spell out ('statutory NPAT': 'statutory net profit after tax', 'CEO':
'President and Chief Executive Officer')."""


_HEADS = {"npat": "profit", "npbt": "profit", "pbt": "profit", "pat": "profit", "ebt": "earn"}
"""The measure an abbreviated profit line is a kind of: a sentence on 'statutory profit' speaks of 'statutory
NPAT'."""


def abbreviation_heads(stems: set[str] | frozenset[str]) -> set[str]:
    """The stems of what the abbreviations among these stems are kinds of (`_HEADS`)."""
    return {_HEADS[s] for s in stems if s in _HEADS}


def abbreviated(text: str) -> str:
    """The abbreviations of what a text spells out ('statutory net profit after tax': 'NPAT'), space-separated:
    a sentence that spells a measure out states the abbreviation a question uses (`_SPELLED_OUT`); and the words of
    those it abbreviates ('SG&A in dollars increased 14.7 percent' states selling, general and administrative
    expenses)."""
    folded = " ".join(text.split()).casefold()
    shorts = [short for short, long in _SPELLED_OUT.items() if long.casefold() in folded]
    longs = [long for short, long in _SPELLED_OUT.items() if short.isupper() and len(short) >= 3
             and re.search(rf"(?<![\w&]){re.escape(short)}s?(?![\w&])", text)]
    return " ".join([*shorts, *longs])

