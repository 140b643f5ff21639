"""Which of the knowledge base's companies a text names, however it writes them: the one company matcher of
routing, search, enrichment, the memory guard and the user's figures.

`companies_named(text, known, aliases=None)`: the known companies the text names, in order of first mention.
- Case, spaces, punctuation, '&'/'and', a leading 'The' and corporate suffixes do not matter: both sides meet
  under app.text.identity.normalize_company, so "AMCOR's", "Amcor Plc" and "AMCOR" name a stored "Amcor",
  "Activision Blizzard" names "ACTIVISIONBLIZZARD" and the other way round, "Johnson and Johnson" names
  "Johnson & Johnson", "3M" names "3M Company". Every run of up to MAX_NAME_WORDS words is compared, possessives
  dropped first.
- Shorter names (`company_aliases`): a company's distinctive first word ("Northwind" for Northwind Logistics,
  when no other company starts so and it is not a COMMON_WORDS word) and its leading words ("MGM Resorts" for
  MGM Resorts International, when no other company's name starts so).
- Names the sources state (`aliases`: registrant names, tickers, file-name tokens → company, as
  Catalog.company_aliases gives them).
- Abbreviations: an upper-case word of 4-6 letters that spells a name of two words or more, each word giving its
  first letters ("AMEX" is AMerican EXpress), when exactly one company fits; two initials joined by '&' ("J&J")
  for a name of two words joined by '&' or 'and' (Johnson & Johnson).
- Written like a name: a run with a capital letter or a digit in it is a name ("Block", "BLOCK", "3M"); in lower
  case, ORDINARY_WORDS are words, never names ("how do I block a payment?", "is this the best buy?"). A lower-case
  run of two words or more that are not all ordinary words is a name ("What was northwind logistics' revenue?");
  a single lower-case word is one only in a text written all in lower case ("northwind revenue fy2024").

Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from app.text.identity import CORPORATE_SUFFIXES, normalize_company

COMMON_WORDS = frozenset({"american", "general", "international", "national", "united", "first", "global", "block",
                          "target", "best", "foot", "water", "energy", "foods", "logistics", "renewables", "bank"})
"""Words too common to stand for a company on their own: never a first-word alias ("American" finds nobody)."""
ORDINARY_WORDS = COMMON_WORDS | frozenset({
    "buy", "locker", "works", "home", "depot", "orchard", "anchor", "apple", "visa", "southern", "northern",
    "western", "eastern", "royal", "central",
    "the", "and", "of", "a", "an", "for", "in", "on", "at", "to", "is", "it", "what", "which", "who"})
"""Words that also name companies: written in lower case they are read as words, not names."""
MAX_NAME_WORDS = 6

_JOINING = frozenset({"and", "the", "of", "for", "in", "on", "at", "to"})
_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s?\b")
_WORD = re.compile(r"[A-Za-z0-9]+")
_ABBREVIATION = re.compile(r"\b[A-Z]{4,6}\b|\b(?=[A-Za-z]{4,6}\b)[A-Z][a-z]+[A-Z][a-z]*\b")
"""An abbreviation of a name's words: capitals throughout ('AMEX'), or each word's letters capitalised ('AmEx')."""


def name_words(text: str) -> list[str]:
    """The words of a text as written (case kept): possessives and punctuation dropped, '&' a gap."""
    return [m.group() for m in _name_matches(text)[1]]


def _name_matches(text: str) -> tuple[str, list[re.Match[str]]]:
    """The text as `name_words` reads it (possessives dropped, '&' a gap) and its words' matches in it."""
    spaced = _POSSESSIVE.sub("", text.replace("&", " "))
    return spaced, list(_WORD.finditer(spaced))


def normalize_name(name: str) -> str:
    """A company name as lower-case words, '&' a gap, a leading 'the' and corporate suffixes dropped:
    'The Acme Group Holdings Ltd' → 'acme'. (The matching key is normalize_company's: these words squashed.)"""
    words = re.findall(r"[a-z0-9]+", name.lower().replace("&", " "))
    if words[:1] == ["the"]:
        words = words[1:]
    return " ".join(w for w in words if w not in CORPORATE_SUFFIXES)


def company_aliases(companies: list[str]) -> dict[str, str]:
    """alias -> company. The normalised full name always; its first word too when no other company shares it
    and it is not a common word (so "Northwind" finds Northwind Logistics, "American" finds nobody); and its
    leading words, two or more, when no other company's name starts so ("MGM Resorts" for MGM Resorts
    International)."""
    aliases: dict[str, str] = {}
    first_words: dict[str, list[str]] = {}
    prefixes: dict[str, list[str]] = {}
    for company in companies:
        norm = normalize_name(company)
        if not norm:
            continue
        aliases[norm] = company
        aliases[norm.replace(" ", "")] = company
        words = norm.split()
        first_words.setdefault(words[0], []).append(company)
        for n in range(2, len(words)):  # "MGM Resorts" for MGM Resorts International
            prefixes.setdefault(" ".join(words[:n]), []).append(company)
    for word, owners in first_words.items():
        if len(owners) == 1 and len(word) >= 4 and word not in COMMON_WORDS:
            aliases.setdefault(word, owners[0])
    for prefix, owners in prefixes.items():
        if len(owners) == 1:
            aliases.setdefault(prefix, owners[0])
    return aliases


def companies_named(text: str, known: Sequence[str], aliases: Mapping[str, str] | None = None) -> list[str]:
    """The known companies the text names, in order of first mention (see the module docstring). `aliases` adds
    names the sources state (alias → known company)."""
    keys = _keys(list(known), aliases or {})
    spaced, matches = _name_matches(text)
    words = [m.group() for m in matches]
    whole_lower = text == text.lower()
    found: list[tuple[int, str]] = []
    for start in range(len(words)):
        for size in range(1, min(MAX_NAME_WORDS, len(words) - start) + 1):
            span = words[start:start + size]
            key = normalize_company(" ".join(span))
            company = keys.get(key)
            if company and _written_as_a_name(span, whole_lower) and not _persons_name(
                    size, key, company, spaced, matches, start):
                found.append((start, company))
    found += _abbreviations(text, list(known))
    return list(dict.fromkeys(c for _, c in sorted(found, key=lambda f: f[0])))


def company_spans(text: str, known: Sequence[str], aliases: Mapping[str, str] | None = None
                  ) -> list[tuple[int, int, str]]:
    """Where the text names each known company: (start, end, company) of the longest run of words naming it, as
    `companies_named` reads them, in order; a possessive ending ('s, ’) lies outside the span."""
    keys = _keys(list(known), aliases or {})
    spaced = text.replace("&", " ")
    words = [m for m in _WORD.finditer(spaced)
             if not (m.group() in ("s", "S") and m.start() > 0 and spaced[m.start() - 1] in "'\u2019")]
    whole_lower = text == text.lower()
    found: list[tuple[int, int, str]] = []
    start = 0
    while start < len(words):
        best = None
        if words[start].group().lower() in _JOINING:  # 'and 3M' is 3M; 'The' starts no span either
            start += 1
            continue
        for size in range(1, min(MAX_NAME_WORDS, len(words) - start) + 1):
            span = [m.group() for m in words[start:start + size]]
            if span[-1].lower() in _JOINING:  # nor ends one: 'JnJ's and' is JnJ
                continue
            key = normalize_company(" ".join(span))
            company = keys.get(key)
            if company and _written_as_a_name(span, whole_lower) and not _persons_name(
                    size, key, company, spaced, words, start):
                best = (size, company)
        if best is None:
            start += 1
            continue
        size, company = best
        found.append((words[start].start(), words[start + size - 1].end(), company))
        start += size
    return found


_HONORIFIC = frozenset({"mr", "mrs", "ms", "dr", "sir", "dame", "mx"})


def _persons_name(size: int, key: str, company: str, text: str, words: Sequence[re.Match[str]], at: int) -> bool:
    """Whether a one-word short name of a company (`key`, not its full name) is a person's surname here."""
    return size == 1 and key != normalize_company(company) and _surname(text, words, at)


def _surname(text: str, words: Sequence[re.Match[str]], at: int) -> bool:
    """Whether the word at `at` is a person's surname: right after a given name (a capitalised word, not the
    first of its sentence) or an honorific ('Richard Johnson', 'Ms. Dillon'), so that a company's short name
    ('Johnson' for Johnson & Johnson) does not find the person."""
    if at == 0:
        return False
    before = words[at - 1]
    gap = text[before.end():words[at].start()]
    if gap.strip(" .") or "\n" in gap:
        return False
    word = before.group()
    if word.lower() in _HONORIFIC:
        return True
    if not (word[:1].isupper() and word[1:].islower()) or word.lower() in _JOINING:
        return False
    # (the first word of a sentence is capitalised whatever it is: 'Compare Northwind …')
    return at - 1 > 0 and not re.search(r"[.?!:;\n]\s*$", text[:before.start()]) and "." not in gap


def _keys(known: list[str], aliases: Mapping[str, str]) -> dict[str, str]:
    """Matching key (normalize_company) → company: each known name, its shorter names, the aliases given."""
    keys: dict[str, str] = {}
    names = [(company, company) for company in known]
    names += [(alias, company) for alias, company in company_aliases(known).items()]
    names += [(alias, company) for alias, company in aliases.items() if company in known]
    for name, company in names:
        key = normalize_company(name)
        if len(key) >= 2:
            keys.setdefault(key, company)
    return keys


def _written_as_a_name(span: Sequence[str], whole_lower: bool) -> bool:
    if any(any(ch.isupper() or ch.isdigit() for ch in w) for w in span):
        return True
    if all(w.lower() in ORDINARY_WORDS for w in span):
        return False
    return whole_lower or len(span) >= 2


def _abbreviations(text: str, companies: list[str]) -> list[tuple[int, str]]:
    """(word position, company) of upper-case words of 4-6 letters that spell a name of two or more words, each
    word giving its first letters ("AMEX" or "AmEx" = AMerican EXpress); only when exactly one company fits. Three
    letters are too short to tell an abbreviation from an acronym ("ATM"). Two initials joined by '&' ("J&J") name
    a company of two words joined so."""
    out = []
    for m in _ABBREVIATION.finditer(text):
        fits = [c for c in companies if len(normalize_name(c).split()) >= 2
                and _spells(m.group().lower(), normalize_name(c).split())]
        if len(fits) == 1:
            out.append((len(name_words(text[:m.start()])), fits[0]))
    for m in _INITIALS_JOINED.finditer(text):
        # 'J&J' is Johnson & Johnson, 'P&G' Procter & Gamble: a name of two words, one initial each
        fits = [c for c in companies if "".join(w[0] for w in normalize_name(c).split()) == m.group(1).lower()
                + m.group(2).lower() and re.search(r"&|\band\b", c)]
        if len(fits) == 1:
            out.append((len(name_words(text[:m.start()])), fits[0]))
    return out


_INITIALS_JOINED = re.compile(r"\b([A-Z])\s?&\s?([A-Z])(?![\w&])")
"""Two initials joined by '&' ('J&J', 'P&G'), as analysts short a name of two words joined so."""


def _spells(token: str, words: list[str]) -> bool:
    """Whether `token` is the words' leading letters in order, each word giving at least one."""
    if not words:
        return not token
    return any(token[:n] == words[0][:n] and _spells(token[n:], words[1:]) for n in range(1, len(token) + 1))
