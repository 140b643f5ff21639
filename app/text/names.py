"""Names written where a question puts a company: "AMD's", "for Walmart", "Does Paypal have", "did American Water
Works pay". A reader for the companies a question is about, whether or not the knowledge base holds them;
`unheld_names` keeps those it does not hold.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_WORD = r"[A-Z][A-Za-z0-9&.\-]*"
_NAME = rf"{_WORD}(?:\s+(?:&\s+)?{_WORD}){{0,3}}"
# A name before a possessive, or after a word that puts a company there.
_POSSESSIVE = re.compile(rf"(?<![\w&])({_NAME})['’]s?(?=\s|$)")
_AFTER = re.compile(rf"\b(?i:for|of|did|does|do|has|have|had|is|was|were|at|by|from|about|between|and|that|which|whether)\s+"
                    rf"({_NAME})")
# Words that are capitalised in questions without naming a company.
_NOT_NAMES = set("""
fy q1 q2 q3 q4 h1 h2 ttm ltm yoy gaap non-gaap usd eur gbp ceo cfo coo cto chair board ebit ebitda eps dps cogs
sg&a r&d capex opex dpo dso dio roa roe roic fcf ppe pp&e ppne ar ap nim cet1 revpar arpu
what which who when where why how is are was were does did do has have can could should would will
the a an in on at for of by from to and or if as with based using according answer please calculate
january february march april may june july august september october november december
income balance cash statement statements sheet flow flows operations financial position consolidated
net gross operating total current adjusted unadjusted organic
i we you they it our their its this that these those here there m&a d&a fx
""".split())


def company_like_names(question: str) -> list[str]:
    """Capitalised names in the places a question names a company, in order of appearance."""
    found: list[tuple[int, str]] = []
    for pattern in (_POSSESSIVE, _AFTER):
        for m in pattern.finditer(question):
            name = _trim(m.group(1))
            if name:
                found.append((m.start(1), name))
    return list(dict.fromkeys(name for _, name in sorted(found)))


def _trim(name: str) -> str:
    """The name without leading or trailing words that name no company ('FY2022 AMD' -> 'AMD')."""
    words = name.split()
    while words and _ordinary(words[0]):
        words.pop(0)
    while words and _ordinary(words[-1]):
        words.pop()
    return " ".join(words)


def _ordinary(word: str) -> bool:
    bare = word.strip(".,;:").lower()
    return bare in _NOT_NAMES or re.fullmatch(r"(fy|q[1-4])?'?\d+[a-z0-9]*", bare) is not None or bare == "&"


def unheld_names(question: str, holds: Callable[[str], bool], named_held: Sequence[str]) -> list[str]:
    """The company-like names of a question that name no company the knowledge base holds, when it names none
    that it does hold (`named_held`); `holds(name)` says whether a name finds a held company."""
    if named_held:
        return []
    return [name for name in company_like_names(question) if not holds(name)]
