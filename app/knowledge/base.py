"""The knowledge base facade: ingest, search and status over the catalog, chromadb and the sparse index."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterable, Literal

from app.knowledge.catalog import Catalog
from app.knowledge.chunking import chunk_record, index_text
from app.knowledge.loaders import (InputFile, LoadError, LoadFailure, Overrides, discover, load_file)
from app.knowledge.records import Chunk, SourceRecord
from app.settings import Settings

SearchMode = Literal["hybrid", "dense", "sparse"]
_EMBED_GROUP = 128  # chunks embedded together; sources are still committed one by one


@dataclass
class IngestSummary:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[LoadFailure] = field(default_factory=list)
    chunks_written: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": len(self.added), "updated": len(self.updated), "unchanged": len(self.unchanged),
            "removed": len(self.removed), "failed": len(self.failed), "chunks_written": self.chunks_written,
            "seconds": round(self.seconds, 2),
            "sources": {"added": self.added, "updated": self.updated, "removed": self.removed},
            "failures": [{"path": f.path, "reason": f.reason} for f in self.failed],
        }


@dataclass
class Filters:
    company: str | None = None
    fiscal_year: int | None = None
    doc_type: str | None = None
    published_from: date | None = None
    published_to: date | None = None

    def active(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    def matches(self, row: dict) -> bool:
        if self.company and (row.get("company") or "").lower() != self.company.lower():
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
            clauses.append({"company": company or self.company})
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


class KnowledgeBase:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        settings.home.mkdir(parents=True, exist_ok=True)
        self.catalog = Catalog(settings.catalog_path)
        self._collection = None
        self._sparse = None
        self._filter_rows: list[dict] | None = None
        self._lock = threading.Lock()
        self._collection_lock = threading.Lock()

    # --- stores, built lazily ------------------------------------------------------------------------
    @property
    def embedder(self):  # type: ignore[no-untyped-def]
        from app.knowledge.embeddings import get_embedder

        return get_embedder(self.settings)

    @property
    def collection(self):  # type: ignore[no-untyped-def]
        """The chroma collection, opened once: parallel search branches (Send) must not race to open it."""
        if self._collection is None:
            with self._collection_lock:
                if self._collection is None:
                    from app.knowledge.dense import open_collection

                    self._collection = open_collection(self.settings, self.embedder)
        return self._collection

    def sparse(self):  # type: ignore[no-untyped-def]
        """The sparse index, rebuilt from the catalog when it is missing or older than the catalog."""
        from app.knowledge.sparse import PersistedSparse

        with self._lock:
            generation = self.catalog.generation()
            if self._sparse is not None and self._sparse.generation == generation:
                return self._sparse
            sparse = PersistedSparse(self.settings.sparse_dir, self.settings.sparse_backend)
            if not sparse.load() or sparse.generation != generation:
                ids, terms = [], []
                for cid, t in self.catalog.iter_terms():
                    ids.append(cid)
                    terms.append(t.split())
                sparse.build(ids, terms, generation)
                sparse.save()
            self._sparse = sparse
            self._filter_rows = None
            return sparse

    # --- ingestion -----------------------------------------------------------------------------------
    def ingest(self, paths: Iterable[Path], overrides: Overrides | None = None, *, prune: bool = False,
               on_progress: Callable[[str, int, int], None] | None = None) -> IngestSummary:
        import time

        from app.knowledge.analyzer import analyze

        started = time.perf_counter()
        overrides = overrides or Overrides()
        summary = IngestSummary()
        files, missing, roots = discover(paths)
        summary.failed.extend(missing)
        known = self.catalog.source_hashes()
        ttl = {"report": self.settings.ttl_report_days, "news": self.settings.ttl_news_days}
        max_bytes = int(self.settings.max_file_mb * 1_000_000)
        pending: list[SourceRecord] = []
        seen: set[str] = set()
        failed_files: set[str] = set()
        loaded_files: list[str] = []
        for i, item in enumerate(files):
            if on_progress:
                on_progress("read", i, len(files))
            try:
                records = load_file(item, overrides, max_bytes=max_bytes, ttl_days=ttl)
            except LoadError as exc:
                self._fail(summary, item, str(exc))
                failed_files.add(str(item.path))
                continue
            except OSError as exc:
                self._fail(summary, item, f"cannot read: {exc.strerror or exc}")
                failed_files.add(str(item.path))
                continue
            for record in records:
                if record.source_id in seen:
                    summary.failed.append(LoadFailure(record.origin, f"duplicate source_id {record.source_id!r} "
                                                                     "in this ingest; later copy skipped"))
                    continue
                seen.add(record.source_id)
                if known.get(record.source_id) == record.content_sha256:
                    summary.unchanged.append(record.source_id)
                else:
                    pending.append(record)
            loaded_files.append(str(item.path))
        self.catalog.clear_dead_letters(loaded_files)  # a file that loads is no longer a dead letter

        # Chunk and embed in groups; the next group embeds (one core) while this one is written (the other),
        # and each source is still committed on its own.
        from concurrent.futures import ThreadPoolExecutor

        done = 0

        def flush(batch) -> None:  # type: ignore[no-untyped-def]
            nonlocal done
            done += self._write_group(*batch, known, summary, analyze)
            if on_progress:
                on_progress("index", done, len(pending))

        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prov-embed")
        try:
            in_flight = None
            for group in self._groups(pending):
                texts = [index_text(c) for _, pieces in group for c in pieces]
                future = pool.submit(self.embedder.embed, texts) if texts else None
                if in_flight:
                    flush(in_flight)
                in_flight = (group, texts, future)
            if in_flight:
                flush(in_flight)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

        if prune:
            self._prune(roots, seen, failed_files, summary)
        if summary.added or summary.updated or summary.removed:
            self._sweep_orphans()
            self.sparse()  # rebuild now, so the next search starts fast
        summary.seconds = time.perf_counter() - started
        return summary

    def _fail(self, summary: IngestSummary, item: InputFile, reason: str) -> None:
        summary.failed.append(LoadFailure(str(item.path), reason))
        self.catalog.record_dead_letter(str(item.path), reason)

    def _groups(self, pending: list[SourceRecord]):  # type: ignore[no-untyped-def]
        group: list[tuple[SourceRecord, list[Chunk]]] = []
        size = 0
        for record in pending:
            pieces = chunk_record(record, self.settings.chunk_tokens, self.settings.chunk_overlap)
            group.append((record, pieces))
            size += len(pieces)
            if size >= _EMBED_GROUP:
                yield group
                group, size = [], 0
        if group:
            yield group

    def _write_group(self, group: list[tuple[SourceRecord, list[Chunk]]], texts: list[str], vectors_future,  # type: ignore[no-untyped-def]
                     known: dict[str, str], summary: IngestSummary, analyze: Callable[[str], list[str]]) -> int:
        vectors = vectors_future.result() if vectors_future is not None else []
        offset = 0
        for record, pieces in group:
            vecs = vectors[offset:offset + len(pieces)]
            docs = texts[offset:offset + len(pieces)]
            offset += len(pieces)
            if pieces:
                # 1. new vectors in (invisible until the catalog lists them)
                self.collection.upsert(ids=[c.chunk_id for c in pieces], embeddings=vecs, documents=docs,
                                       metadatas=[c.metadata() for c in pieces])
            # 2. the switch: one catalog transaction
            old = self.catalog.replace_source(record, pieces, [" ".join(analyze(d)) for d in docs])
            # 3. old vectors out (a kill here leaves orphans that the next ingest sweeps)
            new_ids = {c.chunk_id for c in pieces}
            stale = [cid for cid in old if cid not in new_ids]
            if stale:
                self.collection.delete(ids=stale)
            (summary.updated if record.source_id in known else summary.added).append(record.source_id)
            summary.chunks_written += len(pieces)
        return len(group)

    def _prune(self, roots: list[Path], seen: set[str], failed_files: set[str], summary: IngestSummary) -> None:
        doomed: list[str] = []
        for origin_file, sids in self.catalog.sources_by_origin_file().items():
            path = Path(origin_file)
            if origin_file in failed_files:
                continue  # a file we could not read this time keeps its old content
            if not any(path == root or root in path.parents for root in roots):
                continue
            doomed.extend(sid for sid in sids if sid not in seen)
        old = self.catalog.remove_sources(doomed)
        if old:
            self.collection.delete(ids=old)
        summary.removed.extend(doomed)

    def _sweep_orphans(self) -> None:
        listed = self.catalog.chunk_ids()
        stored = set(self.collection.get(include=[])["ids"])
        orphans = sorted(stored - listed)
        for start in range(0, len(orphans), 5000):
            self.collection.delete(ids=orphans[start:start + 5000])

    # --- search --------------------------------------------------------------------------------------
    def search(self, query: str, k: int = 5, mode: SearchMode = "hybrid", filters: Filters | None = None,
               pool: int | None = None) -> SearchResponse:
        from app.knowledge.search import hybrid_search

        return hybrid_search(self, query, k=k, mode=mode, filters=filters or Filters(), pool=pool)

    def filter_rows(self) -> list[dict]:
        """Per-chunk metadata aligned with the sparse index's ids (for masking sparse results)."""
        sparse = self.sparse()
        if self._filter_rows is None:
            rows = {r["chunk_id"]: r for r in self.catalog.chunk_filter_rows()}
            self._filter_rows = [rows.get(cid, {}) for cid in sparse.ids]
        return self._filter_rows

    # --- status --------------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        today = date.today()
        rows = self.catalog.list_sources()
        by_company: dict[str, dict[str, int]] = {}
        by_type: dict[str, int] = {}
        expired = []
        for r in rows:
            company = r["company"] or "(none)"
            entry = by_company.setdefault(company, {"sources": 0, "chunks": 0})
            entry["sources"] += 1
            entry["chunks"] += r["n_chunks"]
            by_type[r["doc_type"]] = by_type.get(r["doc_type"], 0) + 1
            start = r["published_at"] or r["ingested_at"].date()
            if (today - start).days > r["ttl_days"]:
                expired.append({"source_id": r["source_id"], "published_at": start.isoformat(),
                                "ttl_days": r["ttl_days"], "days_old": (today - start).days})
        return {
            "home": str(self.settings.home), "sources": len(rows), "chunks": self.catalog.count_chunks(),
            "generation": self.catalog.generation(), "by_company": by_company, "by_type": by_type,
            "past_ttl": expired, "dead_letters": [
                {"path": d["path"], "reason": d["reason"], "failed_at": d["failed_at"].isoformat()}
                for d in self.catalog.dead_letters()],
            "embeddings": self.settings.embeddings, "sparse_backend": self.settings.sparse_backend,
            "dense_store": self.settings.chroma_url or str(self.settings.chroma_path),
        }
