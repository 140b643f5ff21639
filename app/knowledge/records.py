"""Typed records of the knowledge base: a source with its provenance, and the chunks cut from it."""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta, timezone
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

DocType = Literal["report", "news"]


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


class SourceRecord(BaseModel):
    """One ingested document with its provenance. `content_sha256` decides whether a re-ingest changes anything."""

    model_config = ConfigDict(extra="forbid")

    source_id: str = Field(min_length=1, max_length=512)
    title: str = Field(default="", max_length=500)
    text: str = Field(min_length=1, description="Full text; pages are separated as `pages` says.")
    pages: list[tuple[int, str]] | None = Field(
        default=None, description="(page number, text) for paged formats such as PDF; None for flowing text."
    )
    origin: str = Field(description="Where the source came from: a file path, optionally with #record suffix.")
    content_sha256: str = ""
    ingested_at: datetime = Field(default_factory=utcnow)
    published_at: date | None = None
    license: str | None = None
    company: str | None = None
    fiscal_year: int | None = Field(default=None, ge=1900, le=2200)
    doc_type: DocType = "report"
    ttl_days: int = Field(default=450, gt=0)
    # what the filing is, given or read by app.text.identity from its name and cover page
    form: str | None = Field(default=None, max_length=32, description="10-K, 10-Q, 8-K or earnings.")
    fiscal_quarter: int | None = Field(default=None, ge=1, le=4)
    period_end: date | None = Field(default=None, description="The last day of the period the filing covers.")
    ticker: str | None = Field(default=None, max_length=16)
    company_aliases: list[str] = Field(
        default_factory=list, description="Other spellings of the company: file-name token, registrant name.")

    @field_validator("text")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("text is empty")
        return v

    def model_post_init(self, __context: object) -> None:
        if not self.content_sha256:
            # The hash covers the text and the metadata that changes what a search returns.
            meta = f"{self.title}|{self.company}|{self.fiscal_year}|{self.doc_type}|{self.published_at}|{self.license}"
            identity = (self.form, self.fiscal_quarter, self.period_end, self.ticker)
            if any(v is not None for v in identity):  # records without them keep the hash they always had
                meta += "|" + "|".join(str(v) for v in identity)
            self.content_sha256 = sha256_text(meta + "\n" + self.text)

    def names(self) -> list[str]:
        """The company's spellings this record knows: its company first, then its aliases."""
        return list(dict.fromkeys(n for n in [self.company, *self.company_aliases] if n))

    def expires_on(self) -> date:
        start = self.published_at or self.ingested_at.date()
        return start + timedelta(days=self.ttl_days)


class Chunk(BaseModel):
    """A retrievable piece of a source. `chunk_id` is stable for a given source content."""

    chunk_id: str
    source_id: str
    ordinal: int
    text: str
    tokens: int
    page: int | None = None
    section: str | None = None
    is_table: bool = False
    # copied from the source for filtering and display
    title: str = ""
    company: str | None = None
    fiscal_year: int | None = None
    doc_type: DocType = "report"
    published_at: date | None = None

    def metadata(self) -> dict[str, str | int | float | bool]:
        """Flat metadata for chromadb (no None values allowed there)."""
        meta: dict[str, str | int | float | bool] = {
            "source_id": self.source_id,
            "ordinal": self.ordinal,
            "doc_type": self.doc_type,
            "is_table": self.is_table,
        }
        if self.company:
            meta["company"] = self.company
        if self.fiscal_year is not None:
            meta["fiscal_year"] = self.fiscal_year
        if self.page is not None:
            meta["page"] = self.page
        if self.published_at is not None:
            meta["published_ord"] = self.published_at.toordinal()
        return meta
