"""Pure functions of hybrid search: rank fusion and near-duplicate removal. (The companies a query names are
read by app/text/companies.py, the years by app/text/periods.py.)"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


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


