"""Pure functions of hybrid search: rank fusion, near-duplicate removal, and spotting companies in a query."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from app.text.periods import years_in  # noqa: F401  (re-exported: app/knowledge/search.py and nodes/routing.py import it here)

_CORPORATE_SUFFIXES = {"plc", "inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited",
                       "group", "holdings", "holding", "sa", "ag", "nv", "llc"}
_ORDINARY_FIRST_WORDS = {"home", "general", "southern", "northern", "western", "eastern", "royal", "central"}
_COMMON_WORDS = {"american", "general", "international", "national", "united", "first", "global", "block",
                 "target", "best", "foot", "water", "energy", "foods", "logistics", "renewables", "bank"}


@dataclass
class Candidate:
    chunk_id: str
    score: float = 0.0
    ranks: dict[str, int] = field(default_factory=dict)     # list name -> 1-based rank
    raw: dict[str, float] = field(default_factory=dict)     # list name -> similarity or bm25 score
    page_reasons: list[str] = field(default_factory=list)   # why the page stage moved its page up


def weighted_rrf(lists: dict[str, list[tuple[str, float]]], weights: dict[str, float], k: int = 60) -> list[Candidate]:
    """Weighted reciprocal rank fusion: score = sum over lists of weight / (k + rank).

    Each list is [(chunk_id, raw score)] best first. Ties are broken by the best single rank, then by id, so the
    order is deterministic.
    """
    pool: dict[str, Candidate] = {}
    for name, ranked in lists.items():
        weight = weights.get(name, 1.0)
        for rank, (cid, raw) in enumerate(ranked, start=1):
            cand = pool.setdefault(cid, Candidate(cid))
            if name in cand.ranks:  # the same chunk twice in one list counts once, at its best rank
                continue
            cand.ranks[name] = rank
            cand.raw[name] = raw
            cand.score += weight / (k + rank)
    return sorted(pool.values(), key=lambda c: (-c.score, min(c.ranks.values()), c.chunk_id))


def shingles(text: str, n: int = 5) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+(?:[.,]\d+)*", text.lower())
    if len(words) < n:
        return {tuple(words)} if words else set()
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def jaccard(a: set, b: set) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def dedupe(items: list[tuple[str, str]], threshold: float, limit: int | None = None) -> tuple[list[str], dict[str, str]]:
    """Keep the first of every group of near-duplicate texts. items: [(chunk_id, text)] best first.

    With `limit`, stop once that many are kept: candidates below the cap are never compared (the comparison is
    quadratic). Returns the kept ids and {removed id: id of the kept chunk it duplicates}.
    """
    kept: list[tuple[str, set]] = []
    removed: dict[str, str] = {}
    for cid, text in items:
        if limit is not None and len(kept) >= limit:
            break
        sh = shingles(text)
        dup_of = next((kid for kid, ksh in kept if jaccard(sh, ksh) >= threshold), None)
        if dup_of is None:
            kept.append((cid, sh))
        else:
            removed[cid] = dup_of
    return [cid for cid, _ in kept], removed


def normalize_name(name: str) -> str:
    words = re.findall(r"[a-z0-9]+", name.lower().replace("&", " "))
    if words[:1] == ["the"]:
        words = words[1:]
    return " ".join(w for w in words if w not in _CORPORATE_SUFFIXES)


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
        if len(owners) == 1 and len(word) >= 4 and word not in _COMMON_WORDS:
            aliases.setdefault(word, owners[0])
    for prefix, owners in prefixes.items():
        if len(owners) == 1:
            aliases.setdefault(prefix, owners[0])
    return aliases


def _named_as_a_name(word: str, company: str, query: str) -> bool:
    """A one-word alias counts when it is written like a name ("Block", "BLOCK"), or when the query is all
    lower case and the word is the company's whole name or not an ordinary word ("northwind")."""
    for m in re.finditer(r"\b" + re.escape(word) + r"\b", query, re.IGNORECASE):
        if not m.group()[0].islower():  # written like a name: "Block", "BLOCK", "PepsiCo", "3M"
            return True
    if query != query.lower():
        return False
    return word not in _COMMON_WORDS and (normalize_name(company) == word or word not in _ORDINARY_FIRST_WORDS)


def companies_in(query: str, companies: list[str], aliases: Mapping[str, str] | None = None) -> list[str]:
    """Companies named in the query, in order of first mention. A one-word name that is also an ordinary word
    ("Block") counts only when capitalised in the query. Names match case- and suffix-insensitively and with or
    without spaces ("Activision Blizzard" finds ACTIVISIONBLIZZARD, "Johnson & Johnson" finds JOHNSON_JOHNSON);
    `aliases` adds names the sources state (registrant names, tickers: alias -> company)."""
    norm_query = " " + normalize_name(query) + " "
    table = company_aliases(companies)
    for alias, company in (aliases or {}).items():
        norm = normalize_name(alias)
        if norm and company in companies:
            table.setdefault(norm, company)
    found: list[tuple[int, str]] = []
    for alias, company in table.items():
        pos = norm_query.find(" " + alias + " ")
        if pos < 0:
            continue
        if " " not in alias and not _named_as_a_name(alias, company, query):
            continue
        found.append((pos, company))
    found += [(pos, company) for pos, company, words in _squashed_mentions(norm_query, table)
              if _written_as_a_name(words, query)]
    found += _abbreviations(query, companies)
    seen: list[str] = []
    for _, company in sorted(found):
        if company not in seen:
            seen.append(company)
    return seen


def _abbreviations(query: str, companies: list[str]) -> list[tuple[int, str]]:
    """Upper-case words of 4-6 letters that spell a name of two or more words, each word giving its first
    letters ("AMEX" = AMerican EXpress); only when exactly one company fits. Three letters are too short to
    tell an abbreviation from an acronym ("ATM")."""
    out = []
    for m in re.finditer(r"\b[A-Z]{4,6}\b", query):
        fits = [c for c in companies if len(normalize_name(c).split()) >= 2
                and _spells(m.group().lower(), normalize_name(c).split())]
        if len(fits) == 1:
            out.append((m.start(), fits[0]))
    return out


def _spells(token: str, words: list[str]) -> bool:
    """Whether `token` is the words' leading letters in order, each word giving at least one."""
    if not words:
        return not token
    return any(token[:n] == words[0][:n] and _spells(token[n:], words[1:]) for n in range(1, len(token) + 1))


def _squashed_mentions(norm_query: str, table: Mapping[str, str]) -> list[tuple[int, str, list[str]]]:
    """Runs of 2-4 query words that spell a name written without spaces ("foot locker" = FOOTLOCKER)."""
    squashed = {a.replace(" ", ""): c for a, c in table.items() if len(a.replace(" ", "")) >= 6}
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", norm_query)]
    out = []
    for i in range(len(words)):
        for n in (2, 3, 4):
            run = "".join(w for _, w in words[i:i + n])
            if i + n <= len(words) and run in squashed:
                out.append((words[i][0] - 1, squashed[run], [w for _, w in words[i:i + n]]))
    return out


def _written_as_a_name(words: list[str], query: str) -> bool:
    """The words stand in the query capitalised ('Best Buy', 'BEST BUY'), not as ordinary words ('the best buy'),
    or the whole query is in lower case."""
    if query == query.lower():
        return True
    pattern = r"\b" + r"[\W_]*".join(re.escape(w) for w in words) + r"\b"
    return any(not m.group()[0].islower() for m in re.finditer(pattern, query, re.IGNORECASE))
