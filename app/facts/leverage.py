"""Operating leverage as reports word it: 'leverage of marketing expenses' (the expense fell as a share of sales:
sales grew faster than it), 'deleverage of store payroll and benefits due to wage investments' (it rose as a share
of sales). A question whether an expense as a percent of sales rose or fell is answered by such a clause when the
report gives no figures for it.

- `SHARE_OF_SALES`: a question about an expense as a share of sales ('wages expense as a percent of net sales').
- `leverage_direction(sentence, stems)`: +1 when the sentence says the expense the stems name deleveraged (its
  share of sales rose), -1 when it leveraged (fell), None when no such clause names it.
- `leverage_sentences(text, stems, quarter_asked)`: the text's sentences that say so, with their direction; a
  quarter's sentence only for a question about a quarter.

Pure functions, no I/O: the offline composer words the answer (composer/analyst.leverage_answer).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.facts.prose import whole_sentences
from app.knowledge.analyzer import analyze
from app.text.terms import stem_in_words

SHARE_OF_SALES = re.compile(r"(?i)\b(?:as\s+an?\s+)?(?:percent(?:age)?|%|share|proportion)\s+of\s+(?:net\s+|total\s+)?"
                            r"(?:sales|revenues?|turnover)\b")
_LEVER = re.compile(r"(?i)\b(?P<de>de-?)?leverag(?:e|ed|ing)\s+(?:of|in|on|from|for)\s+(?P<what>[^,.;()]{3,120})")
_NOT_THE_EXPENSE = frozenset(analyze("percent percentage share proportion net sales revenue revenues turnover expense "
                                     "expenses cost costs"))


def expense_stems(question: str) -> set[str]:
    """The words that name the expense a share-of-sales question asks about ('wages expense as a percent of net
    sales': 'wage'), the share's own words aside."""
    head = re.split(r"['’]s\s+", SHARE_OF_SALES.split(question, maxsplit=1)[0])[-1]  # after "Ulta Beauty's"
    words = re.findall(r"[A-Za-z][\w&-]*", head)[-4:]  # the noun phrase right before 'as a percent of sales'
    return {s for s in analyze(" ".join(words)) if s not in _NOT_THE_EXPENSE and len(s) >= 3}


def leverage_direction(sentence: str, stems: Iterable[str]) -> int | None:
    """+1 / -1 / None (module docstring): the first leverage clause of the sentence whose object names every stem."""
    wanted = set(stems)
    if not wanted:
        return None
    for clause in _LEVER.finditer(sentence):
        words = set(analyze(clause.group("what")))
        if all(stem_in_words(s, words) for s in wanted):
            return 1 if clause.group("de") else -1
    return None


_QUARTER = re.compile(r"(?i)\bquarter\b")


def leverage_sentences(text: str, stems: Iterable[str], quarter_asked: bool = False) -> list[tuple[str, int]]:
    """(sentence, direction) for each whole sentence of `text` with a leverage clause naming the expense; a
    sentence about a quarter ('in the fourth quarter of fiscal 2021') only when a quarter is asked, as the year's
    share is not the quarter's."""
    wanted = set(stems)
    out: list[tuple[str, int]] = []
    for sentence in whole_sentences(text):
        if not quarter_asked and _QUARTER.search(sentence):
            continue
        direction = leverage_direction(sentence, wanted)
        if direction is not None:
            out.append((sentence, direction))
    return out
