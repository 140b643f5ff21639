"""check_sqlite reads a store whole (PRAGMA quick_check) only when it changed since it last passed: a 1 GB
checkpoint file took 6 s to check on every command. A store overwritten since is checked again and named."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import app.errors as errors
from app.errors import CorruptFile, VerifiedStamps, check_sqlite


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[Path]]:
    path = tmp_path / "checkpoints.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)")
        conn.executemany("INSERT INTO t (b) VALUES (?)", [(b"x" * 3000,)] * 200)
    conn.close()
    checked: list[Path] = []
    real = errors.quick_check_problem

    def counting(p: Path) -> str | None:
        checked.append(p)
        return real(p)

    monkeypatch.setattr(errors, "quick_check_problem", counting)
    monkeypatch.setattr(errors, "VERIFIED", VerifiedStamps())
    return path, checked


def test_an_unchanged_store_is_read_whole_once(store):
    path, checked = store
    check_sqlite(path, "the checkpoints", "restore it")
    check_sqlite(path, "the checkpoints", "restore it")
    assert checked == [path]
    assert (path.parent / VerifiedStamps.FILE).exists()


def test_a_store_written_since_is_checked_again(store):
    path, checked = store
    check_sqlite(path, "the checkpoints", "restore it")
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO t (b) VALUES (x'00')")
    conn.close()
    check_sqlite(path, "the checkpoints", "restore it")
    assert checked == [path, path]


def test_a_store_overwritten_mid_file_since_it_passed_is_named(store):
    path, checked = store
    check_sqlite(path, "the checkpoints", "restore it")
    data = bytearray(path.read_bytes())
    data[len(data) // 2: len(data) // 2 + 8192] = b"\xff" * 8192
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptFile, match="damaged"):
        check_sqlite(path, "the checkpoints", "restore it")
    assert len(checked) == 2


def test_an_unreadable_record_only_means_checking_again(store):
    path, checked = store
    (path.parent / VerifiedStamps.FILE).write_text("{not json")
    check_sqlite(path, "the checkpoints", "restore it")
    check_sqlite(path, "the checkpoints", "restore it")
    assert checked == [path]
