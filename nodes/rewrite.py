"""Search queries from a question: its content words (the first attempt's keyword query, the news query) and the
offline rewrite of a retry (the question's content words plus the missing companies and the failed claims'
terms).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.knowledge.analyzer import analyze
from app.text.measures import implied_words, without_framing, without_other_names, without_source
from app.text.periods import end_worded
from app.text.terms import nominal_forms, question_noise


def keyword_query(question: str, companies: Sequence[str] = ()) -> str:
    """The question's content words: question and arithmetic words dropped, and the names of the companies
    searched (each branch is filtered to its company already, and every chunk's header names it); the nouns
    reports write for its verbs follow. The question itself when nothing remains."""
    names = set(analyze(" ".join(companies)))
    firsts = {stem for c in companies if c.split() for stem in analyze(c.split()[0])}
    kept: list[str] = []
    in_name = False
    # the other name a company goes by, beside its own ('Square (Block)'), is no term, nor is where the question
    # says its answer stands ('according to its fiscal 2015 10-K')
    question = end_worded(question)  # 'at the close of fiscal 2017': no closure searched for
    words = rewrite_query(without_source(without_other_names(question, companies)), [], []).split()
    for i, word in enumerate(words):
        stems = set(analyze(word))
        # a company named: its first word and the name's words right after it, up to a possessive; a word of
        # its name elsewhere is the question's own ('Kanzaki's Precision Components segment')
        in_name = bool(stems & firsts) or (in_name and bool(stems & names))
        following = words[i + 1] if i + 1 < len(words) else ""
        if in_name and stems & firsts and not re.search(r"['’]s?$", word) and following[:1].isupper() \
                and not set(analyze(following)) & names and not re.match(r"(?:FY|[QH][1-4]\b|\d)", following) \
                and re.search(rf"(?<!\w){re.escape(word)}\s+{re.escape(following)}(?!\w)", question):
            in_name = False  # a part named after the company ('MGM China', 'Disney Parks'): its whole name is searched
        if not in_name:
            kept.append(word)
        if re.search(r"['’]s?$", word):
            in_name = False
    # the noun a report writes for a verb asked ('retain card members': 'Card Member retention')
    kept += [noun for noun in nominal_forms(" ".join(kept)) if noun not in kept]
    # the measure a question asks by a verb or a place, in the words reports give it ('What did its Commercial
    # Banking segment earn': net income; 'revenue from outside the United States': International)
    kept += implied_words(question, companies, " ".join(kept))
    return " ".join(kept) or question


def rewrite_query(question: str, missing: Sequence[str], failed_terms: Sequence[str]) -> str:
    """The offline rewrite: the question's content words, then each missing company and failed-claim term
    that the query does not already contain."""
    noise = question_noise()
    words = [w.strip("?!.,;:") for w in without_framing(question).split()]
    parts = [w for w in words if w and set(analyze(w)) - noise]
    for extra in [*missing, *failed_terms]:
        if extra.casefold() not in " ".join(parts).casefold():
            parts.append(extra)
    return " ".join(parts)
