"""Reading a store's header must not drop this process's SQLite locks on it.

Closing any descriptor of a file releases every POSIX lock the process holds on that file, SQLite's included.
A Prov process that checked a store (app/errors.sqlite_problem) with open()/close() while it held a connection to
it lost its shared lock; another process closing its connection then took itself for the last one, checkpointed
and deleted the write-ahead log still in use, and the store was left truncated ('database disk image is
malformed'). Found when a benchmark and `prov run` shared a home. Here a second process probes the lock that
SQLite holds on the shared byte range of the database file for as long as a WAL connection is open."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from app.errors import check_sqlite, sqlite_problem

PROBE = r"""
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 510, 0x40000002)  # SQLite's SHARED_FIRST, SHARED_SIZE
    print("free")
except OSError:
    print("held")
"""


def _lock_seen_from_another_process(path: Path) -> str:
    return subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_checking_a_store_this_process_holds_open_keeps_its_shared_lock(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    assert _lock_seen_from_another_process(path) == "held"
    for _ in range(3):  # as the memory, cache and archive engines each check the one file
        assert sqlite_problem(path) is None
        check_sqlite(path, "a test store", "nothing to do")
    assert _lock_seen_from_another_process(path) == "held"
    conn.close()
    assert _lock_seen_from_another_process(path) == "free"


def test_two_engines_on_one_memory_file_keep_the_lock_of_the_first(tmp_path: Path) -> None:
    from sqlalchemy import text

    from app.memory.records import memory_engine

    url = f"sqlite:///{tmp_path / 'memory.sqlite'}"
    first = memory_engine(url)
    with first.connect() as conn:
        conn.execute(text("SELECT 1")).fetchall()
        assert _lock_seen_from_another_process(tmp_path / "memory.sqlite") == "held"
        memory_engine(url)  # the cache's engine, on the same file, checks it again
        assert _lock_seen_from_another_process(tmp_path / "memory.sqlite") == "held"
    first.dispose()
