"""A forecast raised or cut, as a report states it: the new figure with the one it replaces ('core constant currency
EPS to increase 9 percent (previously 8 percent)', 'EPS of $7.27 (previously $7.20)').

- `REVISION_ASKED`: a question about such a revision ('By how many percentage points did X raise its guidance …').
- `revised_clauses(texts, key, share)`: the clauses that give a new figure with the one it replaces and hold the
  question's key words, best first.
- `best_revision(question, texts, companies)`: the one clause chosen, by the facts step and the composer alike.
- `revision_figures(question, evidence, companies)`: the two figures of the best such clause, the one replaced
  first, as the calculator takes them (`PREVIOUS`, `REVISED` periods): 'by how much' is their difference.

Pure functions, no I/O. The offline composer words the answer (composer/analyst.revision_answer); the calculator
computes the difference (app/models/providers/offline/calculator.plan_revision).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from app.calc_tools import Figure
from app.facts.prose import whole_sentences
from app.knowledge.analyzer import analyze
from app.text.dates import read_dates
from app.text.figures import FIGURE, figures_in
from app.text.periods import years_named
from app.text.terms import stem_in_words, topic_terms

REVISION_ASKED = re.compile(
    r"(?i)\b(?:raise[ds]?|rais(?:ing)|lift(?:ed|s)?|increase[ds]?|lower(?:ed|s)?|cut|reduce[ds]?|"
    r"revise[ds]?|trim(?:med|s)?)\b.{0,60}\b(?:guidance|outlook|forecasts?|targets?|expectations?)\b"
    r"|\b(?:guidance|outlook|forecasts?)\b.{0,60}\b(?:raise[ds]?|lower(?:ed)?|cut|revise[ds]?)\b")
"""'By how many percentage points did X raise full year guidance for …', 'how much did X cut its outlook'."""
REVISED = re.compile(r"(?i)(?P<new>[$£€¥]?\s?\d[\d,.]*\s*(?:%|percent|per\s+cent)?)\s*"
                     r"(?P<what>[^()\d]{0,40}?)\s*\(\s*(?:previously|prior(?:\s+guidance)?|was|from)\s*:?\s*"
                     r"(?P<old>[$£€¥]?\s?\d[\d,.]*\s*(?:%|percent|per\s+cent)?)\s*\)")
"""'9 percent (previously 8 percent)', '$7.27 (previously $7.20)': a figure and the one it replaces."""
REVISION_WORDS = frozenset(analyze("raise raised lift increase lower cut reduce revise guidance outlook forecast "
                                   "target expectation percentage points point much many respect full"))
"""The words of asking about a revision, which the clause that states it need not hold."""
_ASKS_AMOUNT = re.compile(r"(?i)\bhow\s+(?:much|many|far)\b|\bby\s+what\b")
PREVIOUS, REVISED_PERIOD = "previous guidance", "revised guidance"

T = TypeVar("T")


@dataclass(frozen=True)
class Revision(Generic[T]):
    """A clause that gives a new figure with the one it replaces (or, for a thing replaced, the sentence of the new
    one, the old one's sentence in `replaced`), where it stands, and how much of the key it holds."""

    share: float
    clause: str
    new_said: str
    old_said: str
    what: str
    where: T
    sentence: str
    replaced: str = ""
    replaced_where: T | None = None

    @property
    def new(self) -> float:
        return figures_in(self.new_said)[0][1]

    @property
    def old(self) -> float:
        return figures_in(self.old_said)[0][1]


def revised_clauses(texts: Iterable[tuple[T, str]], key: set[str], in_words: Callable[[str, set[str]], bool],
                    min_share: float = 0.6) -> list[Revision[T]]:
    """Each clause of the texts that gives a new figure with the one it replaces and holds at least `min_share` of
    the key stems (`in_words(stem, words)` says whether a stem stands among a clause's words), best first (the
    earliest among equals)."""
    if not key:
        return []
    found: list[Revision[T]] = []
    for where, text in texts:
        for sentence in whole_sentences(text):
            for clause in re.split(r"[;,]\s+|\s+and\s+(?=\S+\s+\S+.*\(previously)", sentence):
                match = REVISED.search(clause)
                if not match or not (figures_in(match.group("new")) and figures_in(match.group("old"))):
                    continue
                words = set(analyze(clause))
                share = sum(1 for k in key if in_words(k, words)) / len(key)
                if share >= min_share:
                    found.append(Revision(share, clause.strip(), match.group("new"), match.group("old"),
                                          match.group("what"), where, sentence))
    return sorted(found, key=lambda r: -r.share)


def asks_revision_amount(question: str) -> bool:
    """'By how many percentage points did X raise its guidance', 'how much did X cut its outlook', 'By how much
    did X increase its revolving credit agreement'."""
    return bool(REVISION_ASKED.search(question) and _ASKS_AMOUNT.search(question)) or bool(
        REPLACEMENT_ASKED.search(question))


REPLACEMENT_ASKED = re.compile(
    r"(?i)\bby\s+how\s+much\s+(?:did|has|have|had)\b.{0,80}?\b(?:increase[ds]?|rais(?:e[ds]?|ing)|expand(?:ed|s)?|"
    r"upsize[ds]?|reduce[ds]?|cut|lower(?:ed|s)?|decrease[ds]?|downsize[ds]?)\b")
"""'By how much did X increase its five year revolving credit agreement': a thing replaced by a larger or smaller
one, as a filing tells it in two sentences (`replaced_pairs`)."""


def asks_replacement(question: str) -> bool:
    """'By how much did X increase its credit agreement': the one ended and the new one, not a forecast's revision."""
    return bool(REPLACEMENT_ASKED.search(question)) and not REVISION_ASKED.search(question)


_ENDED = re.compile(r"(?i)\b(?:terminated|replaced|superseded|expired|cancell?ed|repaid)\b")
_OPENED = re.compile(r"(?i)\b(?:entered\s+into|new|replacement|established)\b")


_COUNTS = frozenset(analyze("one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty"))


def replaced_pairs(texts: Iterable[tuple[T, str]], key: set[str], in_words: Callable[[str, set[str]], bool],
                   min_share: float = 0.6) -> list[Revision[T]]:
    """A thing ended and its successor, each in a sentence with one amount ('PepsiCo terminated the $3,800,000,000
    five year unsecured revolving credit agreement …', 'PepsiCo entered into a new $4,200,000,000 five year
    unsecured revolving credit agreement …'): the sentence whose words before the amount end it and the one whose
    words before the amount open a new one, both holding at least `min_share` of the key stems, in texts of one
    source (two chunks of a page may hold them); the pair that holds most of the key, the earliest among equals.
    A term the key counts ('five' of 'its five year revolving credit agreement') is one every sentence must hold:
    the '$1,100,000,000 364 day unsecured revolving credit agreement' holds the other key words and is another.
    The new one's text is the revision's `where`, the old one's `replaced_where`."""
    if not key:
        return []
    ended: list[tuple[float, int, str, str, T]] = []
    opened: list[tuple[float, int, str, str, T]] = []
    for rank, (where, text) in enumerate(texts):
        for sentence in whole_sentences(text):
            amounts = [m for m in FIGURE.finditer(sentence) if figures_in(m.group(0))[0][0]]  # money only
            if not amounts:
                continue
            before = sentence[:amounts[0].start()]
            words = set(analyze(sentence))
            share = sum(1 for k in key if in_words(k, words)) / len(key)
            if share < min_share or not all(in_words(k, words) for k in key & _COUNTS):
                continue
            if _ENDED.search(before) and not _OPENED.search(before):
                ended.append((share, rank, sentence, amounts[0].group(0), where))
            elif _OPENED.search(before) and not _ENDED.search(before):
                opened.append((share, rank, sentence, amounts[0].group(0), where))
    pairs = [(old, new) for old in ended for new in opened
             if getattr(old[4], "source_id", None) == getattr(new[4], "source_id", None)]
    found = [Revision(min(old[0], new[0]), new[2], new[3], old[3], _thing_after(new[2], new[3]), new[4], new[2],
                      replaced=old[2],
                      replaced_where=old[4])
             for old, new in sorted(pairs, key=lambda p: (-min(p[0][0], p[1][0]), -p[0][0] - p[1][0],
                                                          min(p[0][1], p[1][1])))]
    return found


def _thing_after(sentence: str, amount: str) -> str:
    """What an amount is of, as the sentence says right after it: 'five year unsecured revolving credit agreement'
    of '$4,200,000,000 five year unsecured revolving credit agreement (the “2023 …”) among …'."""
    rest = sentence[sentence.find(amount) + len(amount):]
    thing = re.split(r"[(,;:.]|\s(?:among|with|between|dated|from|to|for|which|that|under)\s", rest, maxsplit=1)[0]
    return " ".join(thing.split()[:8])


_OCCASION = re.compile(r"(?i)[,\s]+(?:when|as|after|with)\s+(?:it|they|the\s+company|[A-Z][\w&.'’-]*)\s+"
                       r"(?:reported|announced|released|published|issued)\b[^?]*")


def best_revision(question: str, texts: Iterable[tuple[T, str]], companies: Sequence[str]) -> Revision[T] | None:
    """The clause of the texts that best states the revision asked about: its key words are the question's, less
    those of asking about a revision, matched as `stem_in_words` matches them. The facts step (the figures the
    calculator takes) and the composer (the answer's wording) both choose with it, so they choose the same."""
    # the day asked ('on May 24, 2024') is no key word: 'may' is in any sentence dated in May; nor is the occasion
    # ('… when it reported first-quarter 2023 results'): the clause that states the revision need not say it
    question = _OCCASION.sub(" ", question)
    key = {k for k in topic_terms(read_dates(question)[2], companies) - REVISION_WORDS if k.isalpha()}
    if asks_replacement(question):
        return next(iter(replaced_pairs(texts, key, stem_in_words)), None)
    return next(iter(revised_clauses(texts, key, stem_in_words)), None)


def revision_figures(question: str, evidence: Sequence[object], companies: Sequence[str]) -> list[Figure]:
    """For a question about how much a forecast was raised or cut, the replaced and the new figure of the clause
    that best states it (`best_revision`), as Figures of one label and year, the replaced one first; [] when no
    clause states both."""
    if not asks_revision_amount(question):
        return []
    texts = [(e, str(getattr(e, "text", ""))) for e in evidence if getattr(e, "doc_type", "report") != "news"]
    best = best_revision(question, texts, companies)
    if best is None:
        return []
    years = sorted(set(years_named(best.sentence)))
    label = " ".join(best.what.split()) or ("guidance" if not best.replaced else "amount")
    out = []
    for group, period in (("old", PREVIOUS), ("new", REVISED_PERIOD)):
        doc = best.replaced_where if group == "old" and best.replaced_where is not None else best.where
        currency, value, scale, pct = figures_in(best.old_said if group == "old" else best.new_said)[0]
        out.append(Figure(label=label, value=value, unit="%" if pct else f"{currency}{scale}",
                          company=getattr(doc, "company", None) or (companies[0] if companies else None),
                          fiscal_year=years[-1] if len(years) == 1 else getattr(doc, "fiscal_year", None),
                          source_id=str(getattr(doc, "source_id", "")), chunk_id=getattr(doc, "chunk_id", None),
                          quote=best.replaced if group == "old" and best.replaced else best.clause, period=period,
                          page=getattr(doc, "page", None), origin="text"))
    return out
