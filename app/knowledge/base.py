"""The knowledge base facade: ingest, search and status over the catalog, chromadb and the sparse index."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from app.knowledge.catalog import Catalog
from app.knowledge.chunking import chunk_record, index_text
from app.knowledge.loaders import (InputFile, LoadError, LoadFailure, Overrides, PartialLoad, discover, load_file)
from app.knowledge.records import Chunk, SourceRecord
from app.knowledge.types import (  # noqa: F401  (re-exported: callers import the value types with the facade)
    CompanyNames,
    Filters,
    FunnelStep,
    SearchHit,
    SearchMode,
    SearchResponse,
)
from app.settings import Settings
from app.text.identity import display_company, normalize_company, spelling_rank

_EMBED_GROUP = 128  # chunks embedded in one call (a slice may span small sources or cut a big one)
ProgressFn = Callable[[str, int, int], None]
INGEST_LOCK_FILE = "ingest.lock"  # under PROV_HOME: one ingest at a time writes a home's stores


@dataclass
class IngestSummary:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[LoadFailure] = field(default_factory=list)
    chunks_written: int = 0
    seconds: float = 0.0
    embedding_error: str | None = None  # why the embedder gave up; the sources it left are in `failed`

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": len(self.added), "updated": len(self.updated), "unchanged": len(self.unchanged),
            "removed": len(self.removed), "failed": len(self.failed), "chunks_written": self.chunks_written,
            "seconds": round(self.seconds, 2), "embedding_error": self.embedding_error,
            "sources": {"added": self.added, "updated": self.updated, "removed": self.removed},
            "failures": [{"path": f.path, "reason": f.reason} for f in self.failed],
        }


class KnowledgeBase:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        settings.home.mkdir(parents=True, exist_ok=True)
        self.catalog = Catalog(settings.catalog_path)
        self._collection = None
        self._sparse = None
        self._filter_rows: list[dict] | None = None
        self._filter_rows_of = None  # the sparse index those rows are aligned with
        self._names: tuple[int, CompanyNames] | None = None
        self._batch_limit: int | None = None
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

                    own = f"prov-{self.catalog.identity()}" if self.settings.chroma_url else None
                    self._collection = open_collection(self.settings, self.embedder, own)
        return self._collection

    @property
    def batch_limit(self) -> int:
        """The most records the dense store takes in one upsert or delete."""
        if self._batch_limit is None:
            from app.knowledge import dense

            self._batch_limit = dense.max_batch_size(self.collection)
        return self._batch_limit

    def company_names(self) -> CompanyNames:
        """The catalog's company aliases and stored spellings, re-read when the catalog changes."""
        generation = self.catalog.generation()
        if self._names is None or self._names[0] != generation:
            self._names = (generation, CompanyNames(self.catalog.company_aliases(), self.catalog.company_spellings()))
        return self._names[1]

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
               reread: bool = False, on_progress: ProgressFn | None = None) -> IngestSummary:
        """Load, chunk, embed and commit each new or changed source; each source switches old → new in one
        catalog transaction after all its vectors are in. on_progress(stage, done, total) is called with the
        stages read (files), chunk (sources), embed (chunks) and index (sources committed).

        Files are read without a lock; everything after (deciding what changed, chunking, embedding, writing,
        pruning, the orphan sweep and the sparse rebuild) holds PROV_HOME's ingest lock, so two ingests on one
        home run one after the other and the second skips what the first just committed."""
        import time

        from app.knowledge.analyzer import analyze

        started = time.perf_counter()
        overrides = overrides or Overrides()
        summary = IngestSummary()
        files, missing, roots = discover(paths)
        summary.failed.extend(missing)
        # a first look, to drop unchanged records while reading (none with `reread`: every source is indexed again)
        known = {} if reread else self.catalog.source_hashes()
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
            except PartialLoad as exc:
                # the good records go in; each bad one is listed with its line, the file stays a dead letter
                records = exc.records
                for where, reason in exc.failures:
                    summary.failed.append(LoadFailure(f"{item.path} ({where})", reason))
                self.catalog.record_dead_letter(str(item.path), str(exc))
                failed_files.add(str(item.path))
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
            if str(item.path) not in failed_files:
                loaded_files.append(str(item.path))
        if on_progress:
            on_progress("read", len(files), len(files))
        self.catalog.clear_dead_letters(loaded_files)  # a file that loads is no longer a dead letter

        with self.ingest_lock():
            known = self.catalog.source_hashes()  # another ingest may have committed while we read
            if not reread:
                pending = self._still_pending(pending, known, summary)
            pending = self._canonical_companies(pending)
            work = self._chunk_all(pending, on_progress)
            self._embed_and_write(work, known, summary, analyze, on_progress)

            if prune:
                self._prune(roots, seen, failed_files, summary)
            if summary.added or summary.updated or summary.removed:
                self._sweep_orphans()
                self.sparse()  # rebuild now, so the next search starts fast
        summary.seconds = time.perf_counter() - started
        return summary

    @contextmanager
    def ingest_lock(self) -> Iterator[None]:
        """PROV_HOME's ingest lock (a filelock on home/ingest.lock), waited for with a message on stderr when
        another ingest holds it. The OS releases it if its holder dies, so a killed ingest never leaves it stuck."""
        import sys

        from filelock import FileLock, Timeout

        path = self.settings.home / INGEST_LOCK_FILE
        lock = FileLock(str(path))
        try:
            lock.acquire(timeout=0)
        except Timeout:
            print(f"waiting for another ingest on PROV_HOME {self.settings.home} to finish (lock {path})…",
                  file=sys.stderr, flush=True)
            lock.acquire()
        try:
            yield
        finally:
            lock.release()

    @staticmethod
    def _still_pending(pending: list[SourceRecord], known: dict[str, str],
                       summary: IngestSummary) -> list[SourceRecord]:
        """The records the catalog does not hold yet, now that the lock is ours; the rest count as unchanged."""
        out = []
        for record in pending:
            if known.get(record.source_id) == record.content_sha256:
                summary.unchanged.append(record.source_id)
            else:
                out.append(record)
        return out

    def _fail(self, summary: IngestSummary, item: InputFile, reason: str) -> None:
        summary.failed.append(LoadFailure(str(item.path), reason))
        self.catalog.record_dead_letter(str(item.path), reason)

    def _canonical_companies(self, records: list[SourceRecord]) -> list[SourceRecord]:
        """One spelling per company. Records whose names (company, aliases) share a key with a company the
        catalog knows, or with each other, get one company: the most human spelling among the catalog's and
        theirs (spelling_rank; a tie keeps the catalog's, then the first met). A replaced spelling becomes an
        alias. The content hash is left alone: it describes the file, not the catalog's spelling."""
        group_of: dict[str, str] = {}
        best: dict[str, str] = {}
        for key, company in self.catalog.company_aliases().items():
            group_of[key] = normalize_company(company)
            best.setdefault(normalize_company(company), company)
        groups: list[str | None] = []
        for record in records:
            if not record.company:
                groups.append(None)
                continue
            keys = [normalize_company(n) for n in record.names()]
            group = next((group_of[k] for k in keys if k in group_of), keys[0])
            for k in keys:
                group_of.setdefault(k, group)
            shown = [a for a in record.company_aliases if display_company(a) == a]
            for candidate in [record.company, *shown]:
                if group not in best or spelling_rank(candidate) > spelling_rank(best[group]):
                    best[group] = candidate
            groups.append(group)
        out = []
        for record, group in zip(records, groups):
            if group is None or best[group] == record.company:
                out.append(record)
                continue
            aliases = [a for a in dict.fromkeys([record.company, *record.company_aliases]) if a != best[group]]
            out.append(record.model_copy(update={"company": best[group], "company_aliases": aliases}))
        return out

    def _chunk_all(self, pending: list[SourceRecord], on_progress: ProgressFn | None,
                   ) -> list[tuple[SourceRecord, list[Chunk], list[str]]]:
        """Each pending source with its chunks and the texts the indexes see."""
        work = []
        for i, record in enumerate(pending, start=1):
            pieces = chunk_record(record, self.settings.chunk_tokens, self.settings.chunk_overlap)
            work.append((record, pieces, [index_text(c) for c in pieces]))
            if on_progress:
                on_progress("chunk", i, len(pending))
        return work

    def _embed_and_write(self, work: list[tuple[SourceRecord, list[Chunk], list[str]]], known: dict[str, str],
                         summary: IngestSummary, analyze: Callable[[str], list[str]],
                         on_progress: ProgressFn | None) -> None:
        """Embed all chunks in slices, in source order: a slice may hold several small sources or part of a big
        one, so one call never holds a whole huge file and progress moves within it. Sources a slice completes
        are written while the next slices embed. The local model embeds one slice of _EMBED_GROUP at a time (one
        core embeds, the other writes); a remote embedder gets slices of at least batch × concurrency texts,
        two at a time, so its requests stay in flight across slice boundaries (its own pool bounds them).
        If the embedder gives up (EmbeddingError), the sources not yet written are reported failed and left as
        they were: their old versions stay searchable; the sources already written stay written."""
        from collections import deque
        from concurrent.futures import Future, ThreadPoolExecutor

        from app.knowledge.embeddings import EmbeddingError

        embedder = self.embedder
        concurrency = getattr(embedder, "concurrency", 1)
        group = max(_EMBED_GROUP, getattr(embedder, "batch_size", 0) * concurrency)
        ahead = 1 if concurrency <= 1 else 2
        total = sum(len(pieces) for _, pieces, _ in work)
        flat = [text for _, _, texts in work for text in texts]
        vectors: list[list[float]] = []  # vectors of the chunks of sources not yet written, in order
        state = {"written": 0, "embedded": 0}

        def write_complete() -> None:
            while state["written"] < len(work) and len(work[state["written"]][1]) <= len(vectors):
                record, pieces, texts = work[state["written"]]
                self._write_source(record, pieces, texts, vectors[:len(pieces)], known, summary, analyze)
                del vectors[:len(pieces)]
                state["written"] += 1
                if on_progress:
                    on_progress("index", state["written"], len(work))

        def finish(texts: list[str], future: Future) -> None:
            got = future.result()
            if len(got) != len(texts):
                raise RuntimeError(f"the embedder returned {len(got)} vectors for {len(texts)} texts")
            vectors.extend(got)
            state["embedded"] += len(texts)
            if on_progress:
                on_progress("embed", state["embedded"], total)
            write_complete()

        pool = ThreadPoolExecutor(max_workers=ahead, thread_name_prefix="prov-embed")
        in_flight: deque[tuple[list[str], Future]] = deque()
        try:
            write_complete()  # sources without chunks at the front
            for start in range(0, len(flat), group):
                texts = flat[start:start + group]
                in_flight.append((texts, pool.submit(embedder.embed, texts)))
                if len(in_flight) > ahead:
                    finish(*in_flight.popleft())
            while in_flight:
                finish(*in_flight.popleft())
            write_complete()
        except EmbeddingError as exc:
            self._fail_unembedded([record for record, _, _ in work[state["written"]:]], str(exc), summary)
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

    def _fail_unembedded(self, records: list[SourceRecord], error: str, summary: IngestSummary) -> None:
        """Report sources the embedder gave up on: in the summary, and as dead letters of their files."""
        reason = f"not embedded, left as it was: {error}"
        summary.embedding_error = error
        for record in records:
            summary.failed.append(LoadFailure(record.origin, reason))
        for path in dict.fromkeys(record.origin.split("#", 1)[0] for record in records):
            self.catalog.record_dead_letter(path, reason)

    def _write_source(self, record: SourceRecord, pieces: list[Chunk], texts: list[str], vecs: list,
                      known: dict[str, str], summary: IngestSummary, analyze: Callable[[str], list[str]]) -> None:
        """All or nothing for one source: its vectors go in (in slices the store accepts; invisible until the
        catalog lists them), then the catalog switches in one transaction, then the old vectors go."""
        from app.knowledge import dense

        if pieces:
            dense.upsert_batched(self.collection, ids=[c.chunk_id for c in pieces], embeddings=vecs,
                                 documents=texts, metadatas=[c.metadata() for c in pieces], limit=self.batch_limit)
        old = self.catalog.replace_source(record, pieces, [" ".join(analyze(d)) for d in texts])
        # a kill before this delete leaves orphans that the next ingest sweeps
        new_ids = {c.chunk_id for c in pieces}
        dense.delete_batched(self.collection, [cid for cid in old if cid not in new_ids], self.batch_limit)
        (summary.updated if record.source_id in known else summary.added).append(record.source_id)
        summary.chunks_written += len(pieces)

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
            from app.knowledge import dense

            dense.delete_batched(self.collection, old, self.batch_limit)
        summary.removed.extend(doomed)

    def _sweep_orphans(self) -> None:
        listed = self.catalog.chunk_ids()
        stored = set(self.collection.get(include=[])["ids"])
        orphans = sorted(stored - listed)
        if orphans:
            from app.knowledge import dense

            dense.delete_batched(self.collection, orphans, self.batch_limit)

    # --- search --------------------------------------------------------------------------------------
    def search(self, query: str, k: int = 5, mode: SearchMode = "hybrid", filters: Filters | None = None,
               pool: int | None = None) -> SearchResponse:
        from app.knowledge.search import hybrid_search

        filters = replace(filters or Filters(), names=self.company_names())
        return hybrid_search(self, query, k=k, mode=mode, filters=filters, pool=pool)

    def filter_rows(self) -> list[dict]:
        """Per-chunk metadata aligned with the sparse index's ids (for masking sparse results)."""
        return self.sparse_view()[1]

    def sparse_view(self):  # type: ignore[no-untyped-def]
        """The sparse index and the per-chunk metadata aligned with its ids, of one generation: a search reads
        both from here once, so another process's ingest committing mid-search cannot give them two lengths."""
        sparse = self.sparse()
        cached = self._filter_rows
        if cached is None or len(cached) != len(sparse.ids) or self._filter_rows_of is not sparse:
            rows = {r["chunk_id"]: r for r in self.catalog.chunk_filter_rows()}
            cached = [rows.get(cid, {}) for cid in sparse.ids]
            self._filter_rows, self._filter_rows_of = cached, sparse
        return sparse, cached

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
