"""The knowledge base's value types: what a search is restricted to (`Filters`, matching a company however it is
spelled through `CompanyNames`), what it returns (`SearchResponse`: its `SearchHit`s and the `FunnelStep`s that
kept or removed candidates) and how it searches (`SearchMode`). Plain dataclasses shared by the facade
(base.py) and hybrid search (search.py), so that neither imports the other for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from app.text.identity import normalize_company

SearchMode = Literal["hybrid", "dense", "sparse"]


@dataclass(frozen=True)
class CompanyNames:
    """The catalog's company names, so that a filter matches a company however it is spelled.
    aliases: normalised alias → canonical company (Catalog.company_aliases); spellings: canonical company → every
    spelling its chunks may carry in the dense store (Catalog.company_spellings)."""

    aliases: dict[str, str] = field(default_factory=dict)
    spellings: dict[str, list[str]] = field(default_factory=dict)

    def canonical(self, name: str) -> str:
        return self.aliases.get(normalize_company(name), name)

    def key(self, name: str) -> str:
        return normalize_company(self.canonical(name))

    def stored(self, name: str) -> list[str]:
        canonical = self.canonical(name)
        return self.spellings.get(canonical, [canonical])


_NO_NAMES = CompanyNames()


@dataclass
class Filters:
    """What a search is restricted to. `company` matches case- and suffix-insensitively ("PFIZER", "Pfizer
    Inc."), and through the catalog's aliases (a ticker, a file-name token) once `names` is set, which
    KnowledgeBase.search does."""

    company: str | None = None
    fiscal_year: int | None = None
    doc_type: str | None = None
    published_from: date | None = None
    published_to: date | None = None
    names: CompanyNames | None = field(default=None, repr=False, compare=False)

    def active(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None and k != "names"}

    def same_company(self, company: str | None) -> bool:
        names = self.names or _NO_NAMES
        return bool(company) and bool(self.company) and names.key(company) == names.key(self.company)  # type: ignore[arg-type]

    def matches(self, row: dict) -> bool:
        if self.company and not self.same_company(row.get("company")):
            return False
        if self.fiscal_year is not None and row.get("fiscal_year") != self.fiscal_year:
            return False
        if self.doc_type and row.get("doc_type") != self.doc_type:
            return False
        published = row.get("published_at")
        if self.published_from and (published is None or published < self.published_from):
            return False
        if self.published_to and (published is None or published > self.published_to):
            return False
        return True

    def chroma_where(self, company: str | None = None, fiscal_year: int | None = None) -> dict | None:
        """The filter as a chromadb `where`, optionally narrowed to one company and/or fiscal year."""
        clauses: list[dict] = []
        if company or self.company:
            spellings = (self.names or _NO_NAMES).stored(company or self.company)  # type: ignore[arg-type]
            clauses.append({"company": spellings[0] if len(spellings) == 1 else {"$in": spellings}})
        if fiscal_year is not None or self.fiscal_year is not None:
            clauses.append({"fiscal_year": fiscal_year if fiscal_year is not None else self.fiscal_year})
        if self.doc_type:
            clauses.append({"doc_type": self.doc_type})
        if self.published_from:
            clauses.append({"published_ord": {"$gte": self.published_from.toordinal()}})
        if self.published_to:
            clauses.append({"published_ord": {"$lte": self.published_to.toordinal()}})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}


@dataclass
class FunnelStep:
    step: str
    kept: int
    removed: int
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class SearchHit:
    rank: int
    chunk_id: str
    source_id: str
    title: str
    page: int | None
    company: str | None
    fiscal_year: int | None
    doc_type: str
    published_at: date | None
    section: str | None
    is_table: bool
    score: float
    why: str
    text: str
    signals: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        out = self.__dict__.copy()
        out["published_at"] = self.published_at.isoformat() if self.published_at else None
        out["score"] = round(self.score, 6)
        return out


@dataclass
class SearchResponse:
    query: str
    mode: str
    hits: list[SearchHit]
    funnel: list[FunnelStep]
    companies_named: list[str]
