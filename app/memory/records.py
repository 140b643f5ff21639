"""Typed memory records whose corrections supersede: the store behind the memory layer.

A record is something a user stated that later turns may rely on: a `profile` fact about them ("my fiscal year
ends in June"), a `fact` about the world they assert or correct ("the EU refund window is now 30 days"), a
standing `constraint` on answers ("answer in A$ millions"), a `decision`, or `task_state`. Each has a user, a
scope (a thread, or None for user-wide), a key, a value and its source (the turn as "thread:checkpoint", or a
document chunk id).

Writing a record for a (user, scope, key) that already has an active one supersedes it in the same transaction:
the old record is kept, marked `superseded`, and the new one names it in `supersedes`. Only `active` records are
ever read for a prompt; `provisional` ones (inferred, not stated) wait for confirmation and expire at
`expires_at`. `forget` deletes a user's or a thread's records outright.

SQLAlchemy Core over any database URL; SQLite (the default, under PROV_HOME) runs in WAL mode with a busy
timeout, like the other stores. Not wired into the graph or the CLI yet (issue 8).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Literal

from pydantic import BaseModel
from sqlalchemy import Column, MetaData, String, Table, Text, and_, create_engine, delete, event, or_, select, update
from sqlalchemy.engine import Engine

RecordType = Literal["profile", "fact", "constraint", "decision", "task_state"]
Status = Literal["active", "superseded", "provisional", "expired"]
RECORD_TYPES: tuple[str, ...] = ("profile", "fact", "constraint", "decision", "task_state")
PROVISIONAL_TTL = timedelta(days=7)
"""An inferred record expires unless the user confirms it within this time."""

_meta = MetaData()
records = Table(
    "memory_records", _meta,
    Column("id", String, primary_key=True),
    Column("user", String, nullable=False, index=True),
    Column("thread", String, nullable=True, index=True),
    Column("type", String, nullable=False),
    Column("key", String, nullable=False),
    Column("value", Text, nullable=False),
    Column("source", String, nullable=False),
    Column("said", Text, nullable=False, default=""),
    Column("created_at", String, nullable=False),
    Column("status", String, nullable=False),
    Column("supersedes", String, nullable=True),
    Column("expires_at", String, nullable=True),
)
owners = Table(
    "thread_owners", _meta,
    Column("thread", String, primary_key=True),
    Column("user", String, nullable=False, index=True),
    Column("created_at", String, nullable=False),
)
"""Which user a thread belongs to: `prov memory forget --user` erases the user's threads too."""
forgotten = Table(
    "forgotten_threads", _meta,
    Column("thread", String, primary_key=True),
    Column("forgotten_at", String, nullable=False),
)
"""Threads `forget` erased: a turn still running on one when it was erased has its writes erased too when it
ends, and no one continues, traces or forks it afterwards (its owner row is gone, so ownership cannot say)."""


class MemoryRecord(BaseModel):
    id: str
    user: str
    thread: str | None
    type: RecordType
    key: str
    value: str
    source: str
    created_at: datetime
    said: str = ""
    status: Status
    supersedes: str | None = None
    expires_at: datetime | None = None

    @property
    def scope(self) -> str:
        return f"thread {self.thread}" if self.thread else "user"


def memory_engine(url: str) -> Engine:
    """An engine for `url`, the table created; SQLite gets WAL and a busy timeout (concurrent turns)."""
    if url.startswith("sqlite:///"):
        from app.errors import check_sqlite

        path = Path(url.removeprefix("sqlite:///"))
        path.parent.mkdir(parents=True, exist_ok=True)
        check_sqlite(path, "Prov's memory (records, cached answers, archived turns, thread owners)",
                     "move it aside (Prov then starts an empty memory) or restore it from a backup, then run the "
                     "command again")
    engine = create_engine(url, pool_pre_ping=engine_is_remote(url))
    if engine.dialect.name == "sqlite":
        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")  # as the checkpoints: safe against a killed process
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()
    create_tables(engine, _meta)
    return engine


def engine_is_remote(url: str) -> bool:
    return not url.startswith("sqlite")


TABLES_LOCK = 0x70726F77  # PostgreSQL advisory-lock key: processes starting at once create the tables one by one


def create_tables(engine: Engine, meta: MetaData) -> None:
    """`meta.create_all`, safe when several processes start at once on one PostgreSQL (CREATE TABLE IF NOT EXISTS
    races there), and an unreachable server is a `ServerUnreachable` naming the URL (password hidden)."""
    import contextlib

    from filelock import FileLock
    from sqlalchemy.exc import OperationalError

    from app.errors import ServerUnreachable

    # SQLite: create_all checks each table, then creates it; two processes starting at once both find it missing
    # ("table already exists"). A lock file beside the database takes them one at a time.
    local = engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:")
    try:
        with (FileLock(f"{engine.url.database}.lock", timeout=120) if local else contextlib.nullcontext()), \
                engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({TABLES_LOCK})")
            meta.create_all(conn)
    except OperationalError as exc:
        if engine.dialect.name == "sqlite":
            raise
        first = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
        where = engine.url.render_as_string(hide_password=True)
        raise ServerUnreachable(f"cannot reach the memory database at {where} (PROV_MEMORY_URL, else "
                                f"PROV_CHECKPOINT_URL): {first}") from exc


def normalise_key(key: str) -> str:
    """One spelling per key: 'The EU refund window' and 'eu  refund window' are one key."""
    words = key.casefold().replace("’", "'").split()
    while words and words[0] in ("the", "a", "an", "my", "our"):
        words = words[1:]
    return " ".join(words).strip(" .,:;")


class MemoryStore:
    def __init__(self, url: str) -> None:
        self.engine = memory_engine(url)

    def write(self, user: str, thread: str | None, type: RecordType, key: str, value: str, source: str, *,
              said: str = "", provisional: bool = False, now: datetime | None = None) -> MemoryRecord:
        """A new record; a stated one supersedes the active record of the same user, scope and key (kept, marked
        `superseded`), both in one transaction. A provisional one supersedes nothing until it is confirmed."""
        if type not in RECORD_TYPES:
            raise ValueError(f"unknown memory record type {type!r}; one of {', '.join(RECORD_TYPES)}")
        if not normalise_key(key) or not value.strip():
            raise ValueError("a memory record needs a key and a value")
        now = now or datetime.now(timezone.utc)
        if said.strip() and source and not source.endswith(":-"):
            # A step that re-runs (its process died after this write, before its checkpoint) writes nothing new:
            # the record this turn already wrote from the same sentence for this key is the write. (By the
            # sentence, not the value: a list update's value is computed from the list it already changed.)
            with self.engine.connect() as conn:
                again = conn.execute(select(records).where(
                    records.c.user == user, records.c.key == normalise_key(key), records.c.source == source,
                    records.c.type == type, records.c.said == " ".join(said.split()))).mappings().first()
            if again is not None:
                return _record(again)
        record = MemoryRecord(
            id=uuid.uuid4().hex, user=user, thread=thread, type=type, key=normalise_key(key), value=value.strip(),
            source=source, said=" ".join(said.split()), created_at=now,
            status="provisional" if provisional else "active",
            expires_at=now + PROVISIONAL_TTL if provisional else None)
        with self.engine.begin() as conn:
            if not provisional:
                record.supersedes = self._supersede(conn, record)
            conn.execute(records.insert().values(**_row(record)))
        return record

    def confirm(self, record_id: str, now: datetime | None = None) -> MemoryRecord:
        """A provisional record the user confirmed becomes active, superseding as a stated one would."""
        with self.engine.begin() as conn:
            row = conn.execute(select(records).where(records.c.id == record_id)).mappings().first()
            if row is None or row["status"] != "provisional":
                raise ValueError(f"no provisional memory record {record_id!r}")
            record = _record(row).model_copy(update={"status": "active", "expires_at": None})
            record.supersedes = self._supersede(conn, record)
            conn.execute(update(records).where(records.c.id == record_id).values(
                status="active", expires_at=None, supersedes=record.supersedes))
        return record

    def active(self, user: str, thread: str | None = None, types: Iterable[str] | None = None,
               now: datetime | None = None) -> list[MemoryRecord]:
        """What a prompt may admit: the user's active records, user-wide and of this thread, newest first;
        provisional, superseded and expired ones never."""
        self.expire_due(now)
        scope = records.c.thread.is_(None) if thread is None else or_(records.c.thread.is_(None),
                                                                       records.c.thread == thread)
        query = select(records).where(records.c.user == user, records.c.status == "active", scope)
        if types is not None:
            query = query.where(records.c.type.in_(list(types)))
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(records.c.created_at.desc())).mappings().all()
        return [_record(r) for r in rows]

    def list_records(self, user: str | None = None, thread: str | None = None, include_all: bool = False) -> list[MemoryRecord]:
        """Records for `prov memory list`: active and provisional ones, or every status with `include_all`."""
        query = select(records)
        if user is not None:
            query = query.where(records.c.user == user)
        if thread is not None:
            query = query.where(records.c.thread == thread)
        if not include_all:
            query = query.where(records.c.status.in_(["active", "provisional"]))
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(records.c.created_at, records.c.id)).mappings().all()
        return [_record(r) for r in rows]

    def expire_due(self, now: datetime | None = None) -> int:
        """Provisional records past their time become `expired`; how many did."""
        stamp = (now or datetime.now(timezone.utc)).isoformat()
        with self.engine.begin() as conn:
            done = conn.execute(update(records).where(
                records.c.status == "provisional", records.c.expires_at <= stamp).values(status="expired"))
        return done.rowcount or 0

    def forget(self, user: str | None = None, thread: str | None = None) -> int:
        """Delete every record of a user, or of a thread (scoped to it or stated in it): deleted, not marked;
        how many were."""
        if user is None and thread is None:
            raise ValueError("forget needs a user or a thread")
        # A thread's records are those scoped to it and those stated in it (a user-wide record's source is the
        # turn that stated it: "thread:checkpoint").
        in_thread = (or_(records.c.thread == thread, records.c.source.like(f"{thread}:%"))
                     if thread is not None else None)
        conditions = [c for c in (records.c.user == user if user is not None else None, in_thread) if c is not None]
        with self.engine.begin() as conn:
            done = conn.execute(delete(records).where(and_(*conditions)))
        return done.rowcount or 0

    def forget_thread_scoped(self, thread: str) -> int:
        """Delete the records scoped to one thread (retention: user-wide records stated in it stay)."""
        with self.engine.begin() as conn:
            return conn.execute(delete(records).where(records.c.thread == thread)).rowcount or 0

    def own_thread(self, thread: str, user: str) -> str:
        """Record that `thread` is `user`'s (first writer wins); the thread's owner. A thread `forget` erased is
        no one's to take."""
        self.refuse_if_forgotten(thread)
        with self.engine.begin() as conn:
            owner = conn.execute(select(owners.c.user).where(owners.c.thread == thread)).scalar()
            if owner is None:
                conn.execute(owners.insert().values(thread=thread, user=user,
                                                    created_at=datetime.now(timezone.utc).isoformat()))
                return user
        return owner

    def mark_forgotten(self, threads: Iterable[str]) -> None:
        """Remember that these threads were erased (before their data goes: a turn that ends after this finds it)."""
        stamp = datetime.now(timezone.utc).isoformat()
        wanted = list(dict.fromkeys(threads))
        if not wanted:
            return
        with self.engine.begin() as conn:
            known = set(conn.execute(select(forgotten.c.thread).where(forgotten.c.thread.in_(wanted))).scalars())
            rows = [{"thread": t, "forgotten_at": stamp} for t in wanted if t not in known]
            if rows:
                conn.execute(forgotten.insert(), rows)

    def refuse_if_forgotten(self, thread: str) -> None:
        """BadInput when `forget` erased the thread: no one takes, continues, traces or forks it."""
        if self.is_forgotten(thread):
            from app.errors import BadInput

            raise BadInput(f"thread {thread} was erased (`prov memory forget`): start a new thread")

    def is_forgotten(self, thread: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(forgotten.c.thread).where(forgotten.c.thread == thread)).first() is not None

    def owner(self, thread: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(owners.c.user).where(owners.c.thread == thread)).scalar()

    def threads_of(self, user: str) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(select(owners.c.thread).where(owners.c.user == user)).scalars())

    def forget_threads(self, user: str | None = None, thread: str | None = None) -> int:
        """Delete the ownership rows of a user's threads, or of one thread."""
        condition = owners.c.user == user if user is not None else owners.c.thread == thread
        with self.engine.begin() as conn:
            return conn.execute(delete(owners).where(condition)).rowcount or 0

    def statuses(self, ids: Iterable[str]) -> dict[str, str]:
        """The status of each record id that exists (a forgotten record is simply absent)."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        with self.engine.connect() as conn:
            return dict(conn.execute(select(records.c.id, records.c.status).where(records.c.id.in_(wanted))).all())

    def get(self, record_id: str) -> MemoryRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(records).where(records.c.id == record_id)).mappings().first()
        return _record(row) if row is not None else None

    def history(self, user: str, key: str, thread: str | None = None) -> list[MemoryRecord]:
        """Every record of one key (active, superseded, expired), oldest first: what the user said, in order."""
        scope = records.c.thread.is_(None) if thread is None else records.c.thread == thread
        with self.engine.connect() as conn:
            rows = conn.execute(select(records).where(records.c.user == user, scope,
                                                      records.c.key == normalise_key(key))
                                .order_by(records.c.created_at, records.c.id)).mappings().all()
        return [_record(r) for r in rows]

    @staticmethod
    def _supersede(conn, record: MemoryRecord) -> str | None:  # type: ignore[no-untyped-def]
        scope = records.c.thread.is_(None) if record.thread is None else records.c.thread == record.thread
        old = conn.execute(select(records.c.id).where(
            records.c.user == record.user, scope, records.c.key == record.key, records.c.status == "active",
            records.c.id != record.id).order_by(records.c.created_at.desc())).scalars().all()
        if not old:
            return None
        conn.execute(update(records).where(records.c.id.in_(old)).values(status="superseded"))
        return old[0]


def _row(record: MemoryRecord) -> dict:
    row = record.model_dump()
    row["created_at"] = record.created_at.isoformat()
    row["expires_at"] = record.expires_at.isoformat() if record.expires_at else None
    return row


def _record(row: object) -> MemoryRecord:
    data = dict(row)  # type: ignore[call-overload]
    return MemoryRecord.model_validate(data)


def scrub(engine: Engine) -> None:
    """After a delete that must leave no trace (`prov memory forget`): SQLite keeps deleted rows in free pages
    and in the write-ahead log until they are reused, so the file is rebuilt and the log emptied
    (`scrub_sqlite`). Other databases reclaim space their own way; nothing to do here for them."""
    if engine.dialect.name != "sqlite":
        return
    with engine.connect() as conn:
        scrub_sqlite(conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql)


def scrub_sqlite(execute: Callable[[str], object]) -> None:
    """Rebuild a SQLite file (VACUUM) and empty its write-ahead log, through any connection's `execute`
    (SQLAlchemy's, in autocommit, or sqlite3's, as the checkpointer holds it)."""
    execute("PRAGMA wal_checkpoint(TRUNCATE)")
    execute("VACUUM")
    execute("PRAGMA wal_checkpoint(TRUNCATE)")
