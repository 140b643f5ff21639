"""Which of the knowledge base's companies a question names, however it writes them.

A company is matched case-, space- and suffix-insensitively: "AMCOR's", "Amcor" and "AMCOR Plc" all name a stored
"Amcor"; "Activision Blizzard" names a stored "ACTIVISIONBLIZZARD" and the other way round; "3M" names "3M Company".
Both sides are reduced to one key by app.text.identity.normalize_company (case, punctuation, '&'/'and', trailing
corporate suffixes and spaces dropped); the question's possessives are dropped first, and every run of up to six of
its words is compared with the keys.

A name that is an ordinary word ("Orchard", "Best Buy") counts only when the question writes it like a name
(a capital letter or a digit in it), so "is this the best buy?" names nobody. Companies named by their
distinctive first word ("Northwind" for Northwind Logistics, see app.knowledge.fusion.company_aliases) are matched
the same way.
"""

from __future__ import annotations

import re
from typing import Sequence

from app.knowledge.fusion import company_aliases
from app.text.identity import normalize_company

# Words that also name companies; written in lower case they are read as words, not names.
ORDINARY_WORDS = frozenset({
    "best", "buy", "block", "target", "general", "american", "united", "national", "international", "first",
    "global", "foot", "locker", "water", "works", "energy", "home", "depot", "orchard", "anchor", "apple", "visa",
    "the", "and", "of", "a", "an", "for", "in", "on", "at", "to", "is", "it", "what", "which", "who"})
MAX_NAME_WORDS = 6

_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s?\b")
_WORD = re.compile(r"[A-Za-z0-9]+")


def name_words(text: str) -> list[str]:
    """The words of a question as written (case kept): possessives and punctuation dropped, '&' a gap."""
    return _WORD.findall(_POSSESSIVE.sub("", text.replace("&", " ")))


def _written_as_a_name(span: Sequence[str], whole_lower: bool) -> bool:
    if any(any(ch.isupper() or ch.isdigit() for ch in w) for w in span):
        return True
    return whole_lower and not all(w.lower() in ORDINARY_WORDS for w in span)


def companies_named(question: str, known_companies: Sequence[str]) -> list[str]:
    """The known companies the question names, in order of first mention (see the module docstring)."""
    keys: dict[str, str] = {}
    for company in known_companies:
        key = normalize_company(company)
        if len(key) >= 2:
            keys.setdefault(key, company)
    for alias, company in company_aliases(list(known_companies)).items():  # first words: "Northwind"
        keys.setdefault(alias.replace(" ", ""), company)
    words = name_words(question)
    whole_lower = question == question.lower()
    found: list[tuple[int, str]] = []
    for start in range(len(words)):
        for size in range(1, min(MAX_NAME_WORDS, len(words) - start) + 1):
            span = words[start:start + size]
            company = keys.get(normalize_company(" ".join(span)))
            if company and _written_as_a_name(span, whole_lower):
                found.append((start, company))
    return list(dict.fromkeys(c for _, c in sorted(found)))
