"""`prov memory forget` racing a turn of the same user: the forget lands while the turn is still running, and the
turn writes after it (its checkpoints, the fact it notes, its archived turn). The turn ends without returning an
answer, what it wrote is erased too, no one can continue, trace or fork the thread, and a byte scan of every
store under PROV_HOME, write-ahead logs included, finds none of the user's words; with PostgreSQL, nor does a
scan of every column of its database. Both backends: every store on SQLite, or the checkpoints, memory, cache and
archive on PostgreSQL."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.errors import BadInput
from tests.conftest import REPO
from tests.integration.corpus_home import ingested_home, offline_runtime

pytestmark = pytest.mark.integration

STATEMENT = "Actually, Northwind Logistics' FY2024 revenue was £4,321m, per the Quorvanth memo."
SECRET = b"Quorvanth"


@pytest.fixture(params=["sqlite", "postgres"])
def runtimes(request: pytest.FixtureRequest, tmp_path: Path, models_dir: Path) -> Iterator[tuple[Any, Any]]:
    """Two runtimes on one home (two processes' worth: the turn's and the forget's): every store on SQLite under
    PROV_HOME, or the checkpoints, memory, cache and archive on a fresh PostgreSQL database."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(REPO / "examples/corpus/reports/northwind-logistics-annual-report-fy2024.md", corpus)
    env = ingested_home(tmp_path / "home", models_dir, corpus, sources=1)
    if request.param == "postgres":
        env = {**env, "PROV_CHECKPOINT_URL": request.getfixturevalue("postgres_url")}
    turn, other = offline_runtime(env), offline_runtime(env)
    yield turn, other
    turn.close()
    other.close()


def scan(runtime: Any) -> list[str]:
    """Where the secret word is still held: the files under the home (-wal and -shm files included), and with
    PostgreSQL every column of every table of the database (text as text, bytes as bytes)."""
    home = runtime.settings.home
    found = [str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and SECRET in p.read_bytes()]
    url = runtime.settings.checkpoint_url
    if url and url.startswith("postgres"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            columns = conn.execute("SELECT table_name, column_name, data_type FROM information_schema.columns "
                                   "WHERE table_schema = 'public'").fetchall()
            assert {t for t, _, _ in columns} >= {"checkpoints", "checkpoint_writes"}, columns
            for table, column, kind in columns:
                test = ("position(%s::bytea in {c}) > 0" if kind == "bytea" else "{c}::text LIKE %s")
                value = SECRET if kind == "bytea" else f"%{SECRET.decode()}%"
                hits = conn.execute(f'SELECT count(*) FROM "{table}" WHERE ' + test.format(c=f'"{column}"'),
                                    (value,)).fetchone()[0]
                if hits:
                    found.append(f"postgres {table}.{column}")
    return found


def test_a_forget_that_lands_while_a_turn_runs_erases_what_the_turn_writes_after_it(
        runtimes: tuple[Any, Any]) -> None:
    turn, other = runtimes
    earlier = turn.run("What was Northwind Logistics' revenue in FY2024?", user="ann")
    graph = turn.graph
    real_invoke = graph.invoke

    def racing_invoke(payload: Any, config: Any, *args: Any, **kwargs: Any) -> Any:
        other.forget(user="ann")  # lands after the turn started, before it writes anything
        return real_invoke(payload, config, *args, **kwargs)

    graph.invoke = racing_invoke  # type: ignore[method-assign]
    try:
        with pytest.raises(BadInput, match="erased"):
            turn.run(STATEMENT, earlier.thread_id, user="ann")
    finally:
        graph.invoke = real_invoke  # type: ignore[method-assign]
    assert not turn.thread_exists(earlier.thread_id)
    assert turn.memory.owner(earlier.thread_id) is None and turn.memory_records(user="ann") == []
    for user in ("bob", "ann"):  # no one continues or traces it, the owner least of all by accident
        with pytest.raises(BadInput, match="erased|unknown thread"):
            turn.run("And in FY2023?", earlier.thread_id, user=user)
        with pytest.raises(BadInput):
            turn.require_thread(earlier.thread_id, user)
    assert scan(turn) == []


def test_a_new_thread_started_while_forget_runs_keeps_nothing_either(runtimes: tuple[Any, Any]) -> None:
    turn, other = runtimes
    graph = turn.graph
    real_invoke = graph.invoke

    def racing_invoke(payload: Any, config: Any, *args: Any, **kwargs: Any) -> Any:
        other.forget(user="ann")
        return real_invoke(payload, config, *args, **kwargs)

    graph.invoke = racing_invoke  # type: ignore[method-assign]
    try:
        with pytest.raises(BadInput, match="erased"):
            turn.run(STATEMENT, user="ann")
    finally:
        graph.invoke = real_invoke  # type: ignore[method-assign]
    assert turn.memory.threads_of("ann") == [] and turn.memory_records(user="ann") == []
    assert scan(turn) == []
    # and ann may go on with a new thread afterwards
    again = turn.run("What was Northwind Logistics' revenue in FY2024?", user="ann")
    assert again.status == "answered" and turn.memory.owner(again.thread_id) == "ann"
