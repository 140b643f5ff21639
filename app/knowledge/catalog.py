"""The catalog: the source of truth for which sources and chunks exist (SQLite through SQLAlchemy).

A source's switch from old to new content is one transaction here. The dense store may briefly hold vectors of
chunks the catalog does not list (written before the commit, or left behind by a kill); searches only return
chunks the catalog lists, and the next ingest sweeps such orphans away. `generation` increases on every commit;
the sparse index and the answer cache are stamped with it.

Companies: a source's `company` is the canonical spelling of its company; `company_names` keeps every other
spelling met (file-name tokens, registrant names, tickers, spellings used before a better one was known), so
"PFIZER", "Pfizer Inc." and "PFE" all lead to one company (`company_aliases`, keyed by `normalize_company`).

Schema changes are additive: a catalog written by an older version gets the missing columns (ALTER TABLE ADD
COLUMN, NULL for old rows) and the new tables when it is opened.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from datetime import date, datetime
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from sqlalchemy import (Boolean, Column, Date, DateTime, Integer, MetaData, String, Table, Text, create_engine,
                        delete, event, func, insert, inspect, or_, select, update)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from app.knowledge.records import Chunk, SourceRecord
from app.text.identity import normalize_company

metadata = MetaData()

sources = Table(
    "sources", metadata,
    Column("source_id", String, primary_key=True),
    Column("origin", String, nullable=False, index=True),
    Column("title", String, nullable=False, default=""),
    Column("content_sha256", String(64), nullable=False),
    Column("ingested_at", DateTime, nullable=False),
    Column("published_at", Date),
    Column("license", String),
    Column("company", String, index=True),
    Column("fiscal_year", Integer),
    Column("doc_type", String, nullable=False),
    Column("ttl_days", Integer, nullable=False),
    Column("n_chunks", Integer, nullable=False),
    # added later; an older catalog gets them on open (see migrate)
    Column("form", String),
    Column("fiscal_quarter", Integer),
    Column("period_end", Date),
    Column("ticker", String),
    Column("company_aliases", Text),  # JSON list of the source's other spellings of its company
)

chunks = Table(
    "chunks", metadata,
    Column("chunk_id", String, primary_key=True),
    Column("source_id", String, nullable=False, index=True),
    Column("ordinal", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("terms", Text, nullable=False),  # analyzed tokens, space-joined, so the sparse index rebuilds fast
    Column("tokens", Integer, nullable=False),
    Column("page", Integer),
    Column("section", String),
    Column("is_table", Boolean, nullable=False, default=False),
    Column("title", String, nullable=False, default=""),
    Column("company", String, index=True),
    Column("fiscal_year", Integer),
    Column("doc_type", String, nullable=False),
    Column("published_at", Date),
)

meta_kv = Table("meta", metadata, Column("key", String, primary_key=True), Column("value", Text, nullable=False))

company_names = Table(
    "company_names", metadata,
    Column("name", String, primary_key=True),  # a spelling as met: "BESTBUY", "Best Buy Co., Inc.", "BBY"
    Column("company", String, nullable=False, index=True),  # the canonical spelling it stands for
    Column("kind", String, nullable=False),  # name, alias, ticker, or former (a canonical spelling replaced)
)

dead_letters = Table(
    "dead_letters", metadata,
    Column("path", String, primary_key=True),
    Column("reason", Text, nullable=False),
    Column("failed_at", DateTime, nullable=False),
)

CHUNK_FIELDS = ["chunk_id", "source_id", "ordinal", "text", "tokens", "page", "section", "is_table", "title",
                "company", "fiscal_year", "doc_type", "published_at"]


def make_engine(path: Path, tables: MetaData | None = None) -> Engine:
    """A SQLite engine in WAL mode with a busy timeout, its tables (the catalog's by default) created."""
    from app.errors import check_sqlite

    path.parent.mkdir(parents=True, exist_ok=True)
    check_sqlite(path, "the knowledge base's catalog (sources, chunks, provenance)",
                 "restore it from a backup, or move PROV_HOME aside and ingest your sources again")
    engine = create_engine(f"sqlite:///{path}")

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=10000")
        cur.close()

    (metadata if tables is None else tables).create_all(engine)
    return engine


def migrate(engine: Engine, tables: MetaData | None = None) -> list[str]:
    """Add the columns an older catalog lacks (ALTER TABLE ADD COLUMN; old rows read NULL). Returns what it
    added, as "table.column". Safe when two processes open the same catalog at once."""
    added: list[str] = []
    inspector = inspect(engine)
    for table in (metadata if tables is None else tables).sorted_tables:
        have = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name in have:
                continue
            ddl = f'ALTER TABLE "{table.name}" ADD COLUMN "{column.name}" {column.type.compile(engine.dialect)}'
            try:
                with engine.begin() as conn:
                    conn.exec_driver_sql(ddl)
            except OperationalError as exc:
                if "duplicate column" not in str(exc):
                    raise
            added.append(f"{table.name}.{column.name}")
    return added


def _batches(values: Iterable[str], size: int = 500) -> Iterator[list[str]]:
    """Values in sorted slices small enough for one SQL `IN (...)`."""
    ordered = sorted(set(values))
    for start in range(0, len(ordered), size):
        yield ordered[start:start + size]


class Catalog:
    def __init__(self, path: Path) -> None:
        from filelock import FileLock

        # Two processes opening a new home at once would both create the tables ("table already exists").
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(path) + ".lock", timeout=120):
            self.engine = make_engine(path)
            self.migrated = migrate(self.engine)
        self.path = path
        self._watch: sqlite3.Connection | None = None
        self._watch_ino: tuple[int, int] | None = None
        self._watch_lock = threading.Lock()
        self._memos: dict[str, tuple[tuple[int, ...], object]] = {}

    def close(self) -> None:
        """Close the catalog's connections (its pool and the version watch); it opens them again if used."""
        self.engine.dispose()
        with self._watch_lock:
            if self._watch is not None:
                self._watch.close()
                self._watch = None

    # --- reads asked on every turn, kept until the catalog changes ----------------------------------------------
    def version(self) -> tuple[int, ...]:
        """Changes whenever anyone commits to the catalog, this process or another: SQLite's `data_version`, read
        on a connection kept for nothing else (it only moves for commits of other connections, and this one never
        writes), with the file's identity (a catalog moved aside and made again is a new file). Microseconds,
        against a query's fraction of a millisecond."""
        stat = os.stat(self.path)
        with self._watch_lock:
            if self._watch is None or self._watch_ino != (stat.st_dev, stat.st_ino):
                if self._watch is not None:
                    self._watch.close()
                self._watch = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
                self._watch_ino = (stat.st_dev, stat.st_ino)
            return (stat.st_dev, stat.st_ino, self._watch.execute("PRAGMA data_version").fetchone()[0])

    def _memo(self, name: str, read):  # type: ignore[no-untyped-def]
        """`read()`'s value, read again only when the catalog changed since (the version is taken before reading,
        so a commit that lands during the read makes the next call read again)."""
        token = self.version()
        held = self._memos.get(name)
        if held is not None and held[0] == token:
            return held[1]
        value = read()
        self._memos[name] = (token, value)
        return value

    def identity(self) -> str:
        """This knowledge base's own id, made once: what names its database on a shared Chroma server, so two
        homes on one server never see (or sweep away) each other's vectors."""
        import uuid

        from sqlalchemy.exc import IntegrityError

        found = self.get_meta("kb_id")
        if found:
            return found
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(meta_kv), [{"key": "kb_id", "value": uuid.uuid4().hex[:16]}])
        except IntegrityError:  # another process made it first
            pass
        return self.get_meta("kb_id") or ""

    # --- reads -----------------------------------------------------------------------------------
    def generation(self) -> int:
        with self.engine.connect() as conn:
            value = conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == "generation")).scalar()
        return int(value or 0)

    def source_hash(self, source_id: str) -> str | None:
        """The content hash of one source; None when the knowledge base no longer holds it."""
        return self._memo("source_hashes", self._read_source_hashes).get(source_id)

    def source_hashes(self) -> dict[str, str]:
        return dict(self._memo("source_hashes", self._read_source_hashes))

    def _read_source_hashes(self) -> dict[str, str]:
        with self.engine.connect() as conn:
            return dict(conn.execute(select(sources.c.source_id, sources.c.content_sha256)).all())

    def sources_by_origin_file(self) -> dict[str, list[str]]:
        """File path (origin without its #record suffix) -> source ids."""
        out: dict[str, list[str]] = {}
        with self.engine.connect() as conn:
            for sid, origin in conn.execute(select(sources.c.source_id, sources.c.origin)):
                out.setdefault(origin.split("#", 1)[0], []).append(sid)
        return out

    def chunk_ids(self) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.execute(select(chunks.c.chunk_id)).scalars())

    def get_chunks(self, ids: Iterable[str]) -> dict[str, dict]:
        out: dict[str, dict] = {}
        with self.engine.connect() as conn:
            for part in _batches(ids):
                rows = conn.execute(select(*[chunks.c[f] for f in CHUNK_FIELDS]).where(chunks.c.chunk_id.in_(part)))
                out.update({r.chunk_id: dict(r._mapping) for r in rows})
        return out

    def page_texts(self, keys: Iterable[tuple[str, int | None]]) -> dict[tuple[str, int | None], str]:
        """(source id, page) -> the page's text: its chunks in order (overlaps repeat; titles come first).
        Only the pages asked for are read, not the rest of their sources."""
        keys = set(keys)
        pages = {page for _, page in keys if page is not None}
        out: dict[tuple[str, int | None], list[str]] = {}
        with self.engine.connect() as conn:
            for part in _batches({sid for sid, _ in keys}):
                query = (select(chunks.c.source_id, chunks.c.page, chunks.c.text)
                         .where(chunks.c.source_id.in_(part), chunks.c.page.in_(pages)).order_by(chunks.c.ordinal))
                for sid, page, text in conn.execute(query):
                    if (sid, page) in keys:
                        out.setdefault((sid, page), []).append(text)
        return {key: "\n".join(parts) for key, parts in out.items()}

    def page_chunks(self, source_id: str, page: int) -> list[dict]:
        """Every chunk of one page of a source, in order (CHUNK_FIELDS)."""
        query = (select(*[chunks.c[f] for f in CHUNK_FIELDS])
                 .where(chunks.c.source_id == source_id, chunks.c.page == page).order_by(chunks.c.ordinal))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def chunks_with_terms(self, company: str, groups: Sequence[Sequence[str]], *, doc_type: str = "report",
                          limit: int = 20) -> list[dict]:
        """Chunks of one company's documents whose analysed terms hold, for every group, one of its stems (a
        text search of every chunk, not a ranking): a term starting with the stem's first five letters
        ('acquisit' finds 'acquir') or the stem across two terms ('buyback' finds 'buy-back', read as 'buy back');
        'job+cut' is two terms side by side. The latest filings first, each in its pages' order (p4 before p11), at
        most `limit`."""
        joined = func.replace(chunks.c.terms, " ", "")
        conditions = [or_(*[c for stem in group for c in (
            (joined.like(f"%{stem.replace('+', '')}%"),) if "+" in stem  # two words side by side: 'job+cut'
            else ((" " + chunks.c.terms).like(f"% {stem[:5]}%"), joined.like(f"%{stem}%")))])
            for group in groups if group]
        if not conditions:
            return []
        query = (select(*[chunks.c[f] for f in CHUNK_FIELDS])
                 .where(func.lower(chunks.c.company) == company.casefold(), chunks.c.doc_type == doc_type,
                        *conditions)
                 .order_by(chunks.c.fiscal_year.desc(), chunks.c.title, chunks.c.page, chunks.c.source_id,
                           chunks.c.ordinal).limit(limit))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def page_openings(self, companies: Iterable[str]) -> list[tuple[str, str, int | None]]:
        """(chunk id, text, fiscal year) of the first chunk of every report page of these companies."""
        query = (select(chunks.c.chunk_id, chunks.c.text, chunks.c.fiscal_year, func.min(chunks.c.ordinal))
                 .where(chunks.c.company.in_(list(companies)), chunks.c.page.is_not(None),
                        chunks.c.doc_type == "report")
                 .group_by(chunks.c.source_id, chunks.c.page))
        with self.engine.connect() as conn:
            return [(cid, text, year) for cid, text, year, _ in conn.execute(query)]

    def forms(self, source_ids: Iterable[str]) -> dict[str, str | None]:
        """source id -> its filing form (10-K, 10-Q, 8-K, earnings), as ingestion read it."""
        out: dict[str, str | None] = {}
        with self.engine.connect() as conn:
            for part in _batches(source_ids):
                out.update(dict(conn.execute(select(sources.c.source_id, sources.c.form)
                                             .where(sources.c.source_id.in_(part))).all()))
        return out

    def iter_terms(self) -> Iterator[tuple[str, str]]:
        with self.engine.connect() as conn:
            yield from conn.execute(select(chunks.c.chunk_id, chunks.c.terms).order_by(chunks.c.chunk_id))

    def chunk_filter_rows(self) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(chunks.c.chunk_id, chunks.c.company, chunks.c.fiscal_year,
                                       chunks.c.doc_type, chunks.c.published_at))
            return [dict(r._mapping) for r in rows]

    def companies(self) -> list[str]:
        return list(self._memo("companies", self._read_companies))

    def _read_companies(self) -> list[str]:
        with self.engine.connect() as conn:
            return sorted(c for c in conn.execute(select(sources.c.company).distinct()).scalars() if c)

    def news_companies(self) -> list[str]:
        """The companies at least one news item held is about."""
        return list(self._memo("news_companies", self._read_news_companies))

    def _read_news_companies(self) -> list[str]:
        with self.engine.connect() as conn:
            return sorted(c for c in conn.execute(select(sources.c.company).distinct()
                                                  .where(sources.c.doc_type == "news")).scalars() if c)

    def company_aliases(self) -> dict[str, str]:
        """Every known spelling of a company, by its `normalize_company` key → the canonical company: the
        canonical names themselves, file-name tokens, registrant names, tickers and spellings replaced by a
        better one. Only companies that still have sources are listed."""
        return dict(self._memo("company_aliases", self._read_company_aliases))

    def _read_company_aliases(self) -> dict[str, str]:
        with self.engine.connect() as conn:
            present = [c for c in conn.execute(select(sources.c.company).distinct()).scalars() if c]
            rows = conn.execute(select(company_names.c.name, company_names.c.company, company_names.c.kind)).all()
        out = {normalize_company(c): c for c in present}
        live = set(present)
        order = {"name": 0, "alias": 1, "former": 1, "ticker": 2}
        for name, company, _kind in sorted(rows, key=lambda r: order.get(r.kind, 3)):
            if company in live:
                out.setdefault(normalize_company(name), company)
        out.pop("", None)
        return out

    def company_spellings(self) -> dict[str, list[str]]:
        """Canonical company → every spelling that may be stored with its chunks (the dense store's metadata
        keeps the spelling a chunk was written with), the canonical one first."""
        with self.engine.connect() as conn:
            present = [c for c in conn.execute(select(sources.c.company).distinct()).scalars() if c]
            rows = conn.execute(select(company_names.c.name, company_names.c.company)
                                .where(company_names.c.kind.in_(["name", "former"]))).all()
        out: dict[str, list[str]] = {c: [c] for c in present}
        for name, company in rows:
            if company in out and name not in out[company]:
                out[company].append(name)
        return out

    def resolve_company(self, name: str | None) -> str | None:
        """The canonical spelling of a company named any known way ("PFIZER", "Pfizer Inc.", its ticker), or
        None when the knowledge base does not know it."""
        if not name:
            return None
        return self.company_aliases().get(normalize_company(name))

    def periods(self, company: str) -> list[tuple[int | None, int | None, str | None]]:
        """What the knowledge base holds for a company (named any known way): the distinct
        (fiscal_year, fiscal_quarter, form) of its reports, oldest first; quarter None for a whole year."""
        canonical = self.resolve_company(company)
        if canonical is None:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(select(sources.c.fiscal_year, sources.c.fiscal_quarter, sources.c.form).distinct()
                                .where(sources.c.company == canonical, sources.c.doc_type == "report")).all()
        found = {(r.fiscal_year, r.fiscal_quarter, r.form) for r in rows}
        return sorted(found, key=lambda p: (p[0] or 0, p[1] or 0, p[2] or ""))

    def period_ends(self, company: str) -> dict[str, int]:
        """The day each of a company's reports ends ('2024-12-31') and the fiscal year it is filed as (2025 for
        a half-year to December of a June year end): what lets a question's 'half-year ended 31 December 2024'
        or 'the year ended March 31, 2025' name the filing's fiscal year."""
        canonical = self.resolve_company(company)
        if canonical is None:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(sources.c.period_end, sources.c.fiscal_year).distinct()
                                .where(sources.c.company == canonical, sources.c.doc_type == "report",
                                       sources.c.period_end.is_not(None), sources.c.fiscal_year.is_not(None))).all()
        return {r.period_end.isoformat(): r.fiscal_year for r in rows}

    def names_years_by_start(self, company: str) -> bool:
        """Whether a company names its fiscal years by the calendar year they begin ('fiscal 2022 ended January
        28, 2023'), as its reports' words say (app/text/fiscal_naming.names_by_start); read once per company
        until the catalog changes."""
        canonical = self.resolve_company(company)
        if canonical is None:
            return False
        return bool(self._memo(f"names_by_start:{canonical}", lambda: self._read_names_by_start(canonical)))

    def _read_names_by_start(self, company: str) -> bool:
        from app.text.fiscal_naming import names_by_start

        with self.engine.connect() as conn:
            rows = conn.execute(select(chunks.c.text, chunks.c.fiscal_year)
                                .where(chunks.c.company == company, chunks.c.doc_type == "report",
                                       chunks.c.text.ilike("%fiscal%"))).all()
        return names_by_start((" ".join(text.split()), year) for text, year in rows)

    def tickers(self) -> dict[str, str]:
        """Ticker → company, as the sources state them ("ticker NWL", "(ticker: HLR)"): one company per ticker,
        and a ticker claimed by two companies is dropped."""
        import re

        found: dict[str, set[str]] = {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(chunks.c.company, chunks.c.text)
                                .where(chunks.c.company.is_not(None), chunks.c.text.ilike("%ticker%")))
            for company, text in rows:
                for ticker in re.findall(r"\bticker(?: symbol)?:?\s+([A-Z]{2,5})\b", text):
                    found.setdefault(ticker, set()).add(company)
        return {t: next(iter(c)) for t, c in found.items() if len(c) == 1}

    def latest_report_year(self) -> int | None:
        """The latest fiscal year of any report (news items do not count)."""
        from sqlalchemy import func

        with self.engine.connect() as conn:
            return conn.execute(select(func.max(sources.c.fiscal_year)).where(sources.c.doc_type == "report")).scalar()

    def fiscal_years(self) -> list[int]:
        return list(self._memo("fiscal_years", self._read_fiscal_years))

    def _read_fiscal_years(self) -> list[int]:
        with self.engine.connect() as conn:
            return sorted(y for y in conn.execute(select(sources.c.fiscal_year).distinct()).scalars() if y)

    def list_sources(self) -> list[dict]:
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(select(sources).order_by(sources.c.source_id))]

    def dead_letters(self) -> list[dict]:
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(select(dead_letters).order_by(dead_letters.c.path))]

    def count_chunks(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(chunks)).scalar() or 0)

    def get_meta(self, key: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == key)).scalar()

    # --- writes: each public method is one transaction ----------------------------------------------
    def replace_source(self, record: SourceRecord, new_chunks: list[Chunk], terms: list[str]) -> list[str]:
        """Switch a source to its new content atomically. Returns the chunk ids it had before."""
        with self.engine.begin() as conn:
            old = list(conn.execute(select(chunks.c.chunk_id).where(chunks.c.source_id == record.source_id))
                       .scalars())
            if record.company:
                self._claim_names(conn, record)
            conn.execute(delete(chunks).where(chunks.c.source_id == record.source_id))
            conn.execute(delete(sources).where(sources.c.source_id == record.source_id))
            conn.execute(insert(sources), [_source_row(record, len(new_chunks))])
            if new_chunks:
                conn.execute(insert(chunks), [
                    {**c.model_dump(include=set(CHUNK_FIELDS)), "terms": t} for c, t in zip(new_chunks, terms)
                ])
            self._bump(conn)
        return old

    def remove_sources(self, source_ids: list[str]) -> list[str]:
        if not source_ids:
            return []
        with self.engine.begin() as conn:
            old = list(conn.execute(select(chunks.c.chunk_id).where(chunks.c.source_id.in_(source_ids))).scalars())
            conn.execute(delete(chunks).where(chunks.c.source_id.in_(source_ids)))
            conn.execute(delete(sources).where(sources.c.source_id.in_(source_ids)))
            self._bump(conn)
        return old

    def record_dead_letter(self, path: str, reason: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(dead_letters).where(dead_letters.c.path == path))
            conn.execute(insert(dead_letters), [{"path": path, "reason": reason, "failed_at": datetime.now()}])

    def clear_dead_letters(self, paths: list[str]) -> None:
        if not paths:
            return
        with self.engine.begin() as conn:
            for start in range(0, len(paths), 500):
                conn.execute(delete(dead_letters).where(dead_letters.c.path.in_(paths[start:start + 500])))

    def set_meta(self, key: str, value: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(meta_kv).where(meta_kv.c.key == key))
            conn.execute(insert(meta_kv), [{"key": key, "value": value}])

    @staticmethod
    def _claim_names(conn, record: SourceRecord) -> None:  # type: ignore[no-untyped-def]
        """Make the record's company the canonical spelling for its names: sources already stored under
        another spelling with the same key (or under one of its aliases' keys) are renamed, the old spelling
        kept as a former name. A ticker keeps the first company that claimed it."""
        company = record.company
        assert company
        keys = {normalize_company(n) for n in record.names()}
        stored = [c for c in conn.execute(select(sources.c.company).distinct()).scalars() if c]
        named = conn.execute(select(company_names.c.name, company_names.c.company)
                             .where(company_names.c.kind != "ticker")).all()
        owners = {c for c in stored if normalize_company(c) in keys}
        owners |= {c for n, c in named if normalize_company(n) in keys}
        former = sorted(owners - {company})
        if former:
            conn.execute(update(sources).where(sources.c.company.in_(former)).values(company=company))
            conn.execute(update(chunks).where(chunks.c.company.in_(former)).values(company=company))
            conn.execute(update(company_names).where(company_names.c.company.in_(former)).values(company=company))
        wanted = {company: "name", **{a: "alias" for a in record.company_aliases if a != company},
                  **{f: "former" for f in former}}
        existing = {n for n, _ in conn.execute(select(company_names.c.name, company_names.c.company))}
        for name, kind in wanted.items():
            if name in existing:
                conn.execute(update(company_names).where(company_names.c.name == name)
                             .values(company=company, **({"kind": kind} if kind != "alias" else {})))
            else:
                conn.execute(insert(company_names), [{"name": name, "company": company, "kind": kind}])
        if record.ticker and record.ticker not in existing:
            conn.execute(insert(company_names), [{"name": record.ticker, "company": company, "kind": "ticker"}])

    @staticmethod
    def _bump(conn) -> None:  # type: ignore[no-untyped-def]
        current = conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == "generation")).scalar()
        if current is None:
            conn.execute(insert(meta_kv), [{"key": "generation", "value": "1"}])
        else:
            conn.execute(update(meta_kv).where(meta_kv.c.key == "generation").values(value=str(int(current) + 1)))


def _source_row(record: SourceRecord, n_chunks: int) -> dict:
    return {
        "source_id": record.source_id, "origin": record.origin, "title": record.title,
        "content_sha256": record.content_sha256, "ingested_at": record.ingested_at.replace(tzinfo=None),
        "published_at": record.published_at, "license": record.license, "company": record.company,
        "fiscal_year": record.fiscal_year, "doc_type": record.doc_type, "ttl_days": record.ttl_days,
        "n_chunks": n_chunks, "form": record.form, "fiscal_quarter": record.fiscal_quarter,
        "period_end": record.period_end, "ticker": record.ticker,
        "company_aliases": json.dumps(record.company_aliases) if record.company_aliases else None,
    }


def jsonable(value: object) -> object:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return value


def dumps(obj: object) -> str:
    return json.dumps(obj, default=jsonable, ensure_ascii=False)
