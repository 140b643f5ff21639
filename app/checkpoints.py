"""Where conversation checkpoints live: SQLite under PROV_HOME (default) or PostgreSQL (`PROV_CHECKPOINT_URL`).

Both are LangGraph's own savers (langgraph-checkpoint-sqlite, langgraph-checkpoint-postgres) with Prov's pydantic
types registered with the serializer. `Checkpoints` adds what the CLI needs beyond the saver interface: the list
of threads with their checkpoint counts, erasure, and a description of the backend for `prov threads`.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from app.errors import BadInput, ServerUnreachable, check_sqlite
from app.settings import Settings, is_postgres


def redact(url: str) -> str:
    """The URL without its password, for messages and `prov threads`."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def describe_url(url: str | None, default_path: Path) -> str:
    """'postgres (postgresql://prov:***@host/db)' or 'sqlite (PATH)', without opening anything."""
    if url and is_postgres(url):
        return f"postgres ({redact(url)})"
    return f"sqlite ({url.removeprefix('sqlite:///') if url else default_path})"


_MOVED = {"app.evidence": ("nodes.retrieval_state", "nodes.retrieve"), "app.turns": ("nodes.state",)}
"""Where models were defined before they moved: checkpoints written then name those modules."""
_DEFINED = {
    "app.calc_tools": ("Figure", "CalcResult", "CalculationOutcome"),
    "app.evidence": ("Evidence", "Claim", "RetrievalResult", "SearchRequest"),
    "app.turns": ("Citation", "Turn", "Block", "MemoryItem", "MemoryWrite", "ManifestEntry", "CitationCheck",
                  "Response"),
    "app.routing.decision": ("RouteDecision", "RoutePlan"),
}


def checkpoint_types() -> list[tuple[str, str]]:
    """Every pydantic type the supervisor and its subgraphs keep in checkpoints (for the serializer), under every
    module path a checkpoint may name them by. Written out rather than gathered from the modules that define
    them, so that opening the checkpoints (`prov threads`, a cache hit) does not import the whole graph; the
    serializer imports a module only when a checkpoint names it. tests/unit/test_checkpoint_types.py checks the
    list is exactly what those modules declare (their CHECKPOINT_TYPES)."""
    return [(module, cls) for home, names in _DEFINED.items() for module in (home, *_MOVED.get(home, ()))
            for cls in names]


def _serde() -> Any:
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    return JsonPlusSerializer(allowed_msgpack_modules=checkpoint_types())


def open_sqlite_saver(path: Path) -> Any:
    """LangGraph's SqliteSaver on a file (WAL, a busy timeout for concurrent processes)."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    path.parent.mkdir(parents=True, exist_ok=True)
    check_sqlite(path, "the conversation checkpoints", "move it aside (Prov then starts an empty one; its threads are "
                 "lost unless you restore the file from a backup) or restore it, then run the command again")
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute("PRAGMA journal_mode=WAL")
    # WAL with synchronous=NORMAL: a commit survives the process being killed (what the crash tests check); only
    # a power cut can lose the last few, never corrupt the file. FULL syncs every checkpoint write to disk.
    conn.execute("PRAGMA synchronous=NORMAL")
    saver = SqliteSaver(conn, serde=_serde())
    saver.setup()
    return saver


SETUP_LOCK = 0x70726F76  # an advisory-lock key: processes starting at once run the saver's migrations one by one


def open_postgres_saver(url: str, timeout_s: float) -> Any:
    """LangGraph's PostgresSaver on one autocommit connection (the settings its docs require), tables migrated."""
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    try:
        conn = psycopg.Connection.connect(plain, autocommit=True, prepare_threshold=0, row_factory=dict_row,
                                          connect_timeout=max(1, round(timeout_s)))
    except psycopg.OperationalError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ServerUnreachable(f"cannot reach PostgreSQL at {redact(url)} (PROV_CHECKPOINT_URL) within "
                                f"{timeout_s:g} s: {first}") from exc
    saver = PostgresSaver(conn, serde=_serde())
    if not _migrated(conn, saver):
        # One process at a time runs the migrations. Waiting is polled: a process blocked in pg_advisory_lock is
        # an open transaction, which the holder's CREATE INDEX CONCURRENTLY would wait for (a deadlock).
        deadline = time.monotonic() + 120
        while not conn.execute("SELECT pg_try_advisory_lock(%s) AS got", (SETUP_LOCK,)).fetchone()["got"]:
            if time.monotonic() > deadline:
                raise ServerUnreachable(f"PostgreSQL at {redact(url)}: another process has held the checkpoint "
                                        "tables' set-up lock for 120 s")
            time.sleep(0.1)
        try:
            saver.setup()
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK,))
    return saver


def _migrated(conn: Any, saver: Any) -> bool:
    """Whether every migration of the installed PostgresSaver has run (the common case: nothing to set up)."""
    import psycopg

    try:
        row = conn.execute("SELECT v FROM checkpoint_migrations ORDER BY v DESC LIMIT 1").fetchone()
    except psycopg.errors.UndefinedTable:
        return False
    return row is not None and row["v"] >= len(saver.MIGRATIONS) - 1


THREAD_COUNTS = "SELECT thread_id, COUNT(*) FROM checkpoints WHERE checkpoint_ns = '' GROUP BY thread_id"


@dataclass
class Checkpoints:
    """A saver and what Prov asks of its tables."""

    saver: Any
    backend: str  # "sqlite" | "postgres"
    description: str  # describe_url's: the backend and its file or URL, password hidden

    def describe(self) -> str:
        return self.description

    def thread_counts(self) -> list[tuple[str, int]]:
        """Every thread with its number of top-level checkpoints."""
        if self.backend == "sqlite":
            rows = [tuple(r) for r in self.saver.conn.execute(THREAD_COUNTS).fetchall()]
        else:
            with self.saver._cursor() as cur:  # the saver's own lock and connection
                cur.execute(THREAD_COUNTS)
                rows = [tuple(r.values()) for r in cur.fetchall()]
        return [(str(t), int(n)) for t, n in rows]

    def delete_thread(self, thread_id: str) -> None:
        self.saver.delete_thread(thread_id)

    def scrub(self) -> None:
        """After an erasure: SQLite is rebuilt so deleted rows leave no trace in free pages or the WAL; PostgreSQL's
        VACUUM reclaims the dead rows of the checkpoint tables."""
        if self.backend == "sqlite":
            from app.memory.records import scrub_sqlite

            scrub_sqlite(self.saver.conn.execute)
            return
        with self.saver.lock:  # autocommit: VACUUM cannot run inside a transaction
            for table in ("checkpoints", "checkpoint_blobs", "checkpoint_writes"):
                self.saver.conn.execute(f"VACUUM {table}")

    def close(self) -> None:
        self.saver.conn.close()


def open_checkpoints(settings: Settings) -> Checkpoints:
    url = settings.checkpoint_url
    description = describe_url(url, settings.checkpoint_path)
    if url and is_postgres(url):
        return Checkpoints(open_postgres_saver(url, settings.connect_timeout_s), "postgres", description)
    if url and not url.startswith("sqlite:///"):
        raise BadInput(f"PROV_CHECKPOINT_URL must be postgresql://… or sqlite:///PATH, not {redact(url)!r}")
    path = Path(url.removeprefix("sqlite:///")) if url else settings.checkpoint_path
    return Checkpoints(open_sqlite_saver(path), "sqlite", description)
