"""Backends by URL, and the checks that guard stores and input: pure functions, no servers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.checkpoints import describe_url, open_checkpoints, redact
from app.errors import CorruptFile, check_sqlite, sqlite_problem
from app.runtime import BadInput, Runtime, not_plain_text
from app.settings import Settings, is_postgres


def _db(path: Path, rows: int = 2000) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("row %d " % i * 20,) for i in range(rows)])
    conn.commit()
    conn.close()
    return path


def test_a_sound_sqlite_file_passes_and_damage_is_named(tmp_path: Path) -> None:
    good = _db(tmp_path / "good.sqlite")
    assert sqlite_problem(good) is None
    assert sqlite_problem(tmp_path / "missing.sqlite") is None
    (tmp_path / "empty.sqlite").write_bytes(b"")
    assert sqlite_problem(tmp_path / "empty.sqlite") is None  # SQLite starts an empty file itself
    data = good.read_bytes()
    (tmp_path / "cut.sqlite").write_bytes(data[: len(data) // 2])
    assert "truncated" in (sqlite_problem(tmp_path / "cut.sqlite") or "")
    (tmp_path / "junk.sqlite").write_bytes(b"\x00junk" * 100)
    assert "not a SQLite database" in (sqlite_problem(tmp_path / "junk.sqlite") or "")
    (tmp_path / "short.sqlite").write_bytes(data[:50])
    assert sqlite_problem(tmp_path / "short.sqlite")
    with pytest.raises(CorruptFile) as caught:
        check_sqlite(tmp_path / "cut.sqlite", "the test rows", "restore it")
    assert str(tmp_path / "cut.sqlite") in str(caught.value) and "the test rows" in str(caught.value)


def test_an_emptied_store_beside_stores_with_data_and_a_store_damaged_inside_are_named(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "memory.sqlite").write_bytes(b"")
    catalog = _db(home / "catalog.sqlite", rows=2000)
    assert sqlite_problem(home / "memory.sqlite") is None  # nothing refers to it yet: a new file SQLite starts
    conn = sqlite3.connect(home / "checkpoints.sqlite")
    conn.execute("CREATE TABLE checkpoints (thread_id TEXT)")
    conn.commit()
    assert sqlite_problem(home / "memory.sqlite") is None  # set up, but no thread yet
    conn.execute("INSERT INTO checkpoints VALUES ('t-1')")
    conn.commit()
    conn.close()
    assert "emptied" in (sqlite_problem(home / "memory.sqlite") or "")  # a thread's owner was in it: not new
    data = catalog.read_bytes()
    middle = len(data) // 2
    catalog.write_bytes(data[:middle] + b"\xab" * 16384 + data[middle + 16384:])
    assert sqlite_problem(catalog) is None  # its header is whole ...
    with pytest.raises(CorruptFile, match="damaged"):  # ... SQLite's own check finds the damage
        check_sqlite(catalog, "the catalog", "restore it")
    assert catalog.read_bytes() == data[:middle] + b"\xab" * 16384 + data[middle + 16384:]


def test_opening_damaged_checkpoints_raises_before_touching_the_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "checkpoints.sqlite").write_bytes(b"garbage" * 100)
    with pytest.raises(CorruptFile):
        open_checkpoints(Settings(home=home))
    assert (home / "checkpoints.sqlite").read_bytes() == b"garbage" * 100


def test_urls_are_described_without_their_password() -> None:
    assert redact("postgresql://prov:s3cret@db:5432/prov") == "postgresql://prov:***@db:5432/prov"
    assert redact("postgresql://prov@db/prov") == "postgresql://prov@db/prov"
    assert is_postgres("postgresql://x@y/z") and is_postgres("postgresql+psycopg://x@y/z")
    assert is_postgres("postgres://x@y/z") and not is_postgres("sqlite:///a") and not is_postgres(None)
    assert describe_url("postgresql://a:b@h/d", Path("x")) == "postgres (postgresql://a:***@h/d)"
    assert describe_url(None, Path("/h/checkpoints.sqlite")) == "sqlite (/h/checkpoints.sqlite)"


def test_memory_follows_the_checkpoints_onto_postgres_unless_told_otherwise(tmp_path: Path) -> None:
    s = Settings(home=tmp_path)
    assert s.memory_database_url == f"sqlite:///{(tmp_path / 'memory.sqlite').resolve()}"
    s = Settings(home=tmp_path, checkpoint_url="postgresql://prov:pw@db:5432/prov", connect_timeout_s=4)
    assert s.memory_database_url == "postgresql+psycopg://prov:pw@db:5432/prov?connect_timeout=4"
    s = Settings(home=tmp_path, checkpoint_url="postgresql://prov@db/prov", memory_url="sqlite:////tmp/m.sqlite")
    assert s.memory_database_url == "sqlite:////tmp/m.sqlite"
    s = Settings(home=tmp_path, memory_url="postgresql://u@h/d?sslmode=require")
    assert s.memory_database_url == "postgresql+psycopg://u@h/d?sslmode=require&connect_timeout=10"


def test_an_unknown_checkpoint_url_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="PROV_CHECKPOINT_URL"):
        open_checkpoints(Settings(home=tmp_path, checkpoint_url="mysql://u@h/d"))


@pytest.mark.parametrize("text, expected", [
    ("What was revenue in FY2024?", None),
    ("Quel était le chiffre d'affaires — 2024 ? ünïcode ✓", None),
    ("What was \x1b[31mrevenue", "U+001B"),
    ("bell\x07", "U+0007"),
    ("nul\x00here", "U+0000"),
    ("del\x7f", "U+007F"),
    ("bytes \udcff\udcfe", "not UTF-8"),
    ("What was \u202eNorthwind revenue?", "U+202E"),
    ("isolate \u2067x\u2069", "bidirectional"),
])
def test_plain_text_is_told_from_control_characters_and_bytes(text: str, expected: str | None) -> None:
    problem = not_plain_text(text)
    assert (problem is None) if expected is None else (expected in (problem or ""))


def test_check_question_refuses_what_is_not_plain_text(tmp_path: Path) -> None:
    runtime = Runtime(Settings(home=tmp_path))
    assert runtime.check_question("  What was\trevenue?\n ") == "What was revenue?"
    for bad in ("", "   ", "x" * 100_000, "a\x1bb", "a\udcffb"):
        with pytest.raises(BadInput):
            runtime.check_question(bad)
    with pytest.raises(BadInput, match="the reply"):
        runtime.check_question("\x00", "reply")


def test_a_user_name_is_printable_short_and_never_echoed_whole(tmp_path: Path) -> None:
    runtime = Runtime(Settings(home=tmp_path))
    assert runtime.check_user(None) == "local" and runtime.check_user("  ann  smith ") == "ann smith"
    for bad, why in (("", "is empty"), ("   ", "is empty"), ("a" * 129, "129 characters"), ("ann\nbob", "control"),
                     ("ann\x1b[31m", "control"), ("ann\u202eevil", "bidirectional")):
        with pytest.raises(BadInput, match=why) as caught:
            runtime.check_user(bad)
        assert len(str(caught.value)) < 200
    with pytest.raises(BadInput) as caught:
        runtime.check_user("x" * 100_000)
    assert str(caught.value).count("x") <= 85 and "100000 characters" in str(caught.value)


def test_a_cut_off_turn_is_told_from_a_waiting_or_finished_one() -> None:
    class Task:
        def __init__(self, name: str) -> None:
            self.name = name

    class Snap:
        def __init__(self, next_: tuple, interrupts: tuple = (), tasks: tuple = ()) -> None:  # type: ignore[type-arg]
            self.next, self.interrupts, self.tasks = next_, interrupts, tasks

    assert Runtime.cut_off_at(Snap(("retrieve",))) == "retrieve"
    assert Runtime.cut_off_at(Snap(("news", "retrieve"))) == "news,retrieve"
    assert Runtime.cut_off_at(Snap(("clarify",), ("waiting",))) is None
    assert Runtime.cut_off_at(Snap(())) is None
    assert Runtime.cut_off_at(None) is None
    # every task of the step wrote its result before the process died: next is empty, the tasks are not applied
    assert Runtime.cut_off_at(Snap((), tasks=(Task("retrieve"), Task("news")))) == "retrieve,news"
    assert Runtime.cut_off_at(Snap((), ("waiting",), (Task("clarify"),))) is None


def test_a_knowledge_base_has_one_identity_for_its_chroma_database(tmp_path: Path) -> None:
    from app.knowledge.catalog import Catalog

    first = Catalog(tmp_path / "catalog.sqlite").identity()
    assert len(first) == 16 and first == Catalog(tmp_path / "catalog.sqlite").identity()
    assert Catalog(tmp_path / "other" / "catalog.sqlite").identity() != first
