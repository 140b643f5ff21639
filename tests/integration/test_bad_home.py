"""Damaged stores and unreachable servers, from the command line: one clear line, a distinct exit code, nothing
overwritten, and the same answer on the next try (no crash loop).

- A damaged or truncated SQLite file under PROV_HOME (checkpoints, memory, catalog, embedded chroma): exit 2, the
  message names the file and what to do; the file is left exactly as it was (the user may still recover it).
- A damaged sparse index is derived data: it is rebuilt from the catalog and the question is answered.
- An unreachable PostgreSQL or Chroma server (nothing listening, or a server that accepts and never answers):
  exit 1, the URL in the message, within PROV_CONNECT_TIMEOUT_S (plus process start-up).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.integration.corpus_home import ingested_home

pytestmark = pytest.mark.integration

QUESTION = "What was Northwind Logistics' revenue in FY2024?"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, str]:
    """A home with one filing ingested and one answered thread (so every store exists)."""
    corpus = tmp_path_factory.mktemp("corpus")
    shutil.copy(REPO / "examples/corpus/reports/northwind-logistics-annual-report-fy2024.md", corpus)
    env = ingested_home(tmp_path_factory.mktemp("pristine") / "home", models_dir, corpus, sources=1)
    done = prov(env, "run", QUESTION)
    assert done.returncode == 0, done.stderr
    return env


@pytest.fixture
def env(pristine: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """A copy of the pristine home for one test to damage."""
    home = tmp_path / "home"
    shutil.copytree(pristine["PROV_HOME"], home)
    return {**pristine, "PROV_HOME": str(home)}


def prov(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def _page_in_use(path: Path, data: bytes) -> int:
    """The offset of a b-tree page the store uses, the last table root past page 1: 16 KB of garbage there is
    damage SQLite must find. (Half-way through the file, as this test first wrote it, can be free pages, which
    hold nothing to check: whether it was depended on how the run that built the home laid out its pages.)"""
    import sqlite3
    from contextlib import closing

    page_size = int.from_bytes(data[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        root = conn.execute("SELECT max(rootpage) FROM sqlite_master WHERE rootpage > 1").fetchone()[0]
    return (root - 1) * page_size


def damage(path: Path, how: str) -> bytes:
    data = path.read_bytes()
    if how == "emptied":
        path.write_bytes(b"")
    elif how == "cut with -wal":  # cut short, a write-ahead log beside it: the size proves nothing, SQLite tells
        path.write_bytes(data[:100])
        path.with_name(path.name + "-wal").write_bytes(b"\x00" * 4096)
    elif how == "overwritten mid-file":  # the header intact: only SQLite's own check finds it
        middle = _page_in_use(path, data)
        path.write_bytes(data[:middle] + b"\xab" * 16384 + data[middle + 16384:])
    else:
        path.write_bytes(data[: len(data) // 3] if how == "truncated" else b"\x00garbage\xff" * 64)
    return path.read_bytes()


@pytest.mark.parametrize("how", ["truncated", "overwritten", "emptied", "cut with -wal", "overwritten mid-file"])
@pytest.mark.parametrize("name, command", [
    ("checkpoints.sqlite", ("threads",)),
    ("memory.sqlite", ("run", "--no-cache", QUESTION)),
    ("catalog.sqlite", ("search", "revenue")),
    ("chroma/chroma.sqlite3", ("run", "--no-cache", QUESTION)),
])
def test_a_damaged_store_is_named_and_left_alone(env: dict[str, str], name: str, command: tuple[str, ...],
                                                 how: str) -> None:
    path = Path(env["PROV_HOME"]) / name
    damaged = damage(path, how)
    for _attempt in range(2):  # the same clear answer the second time: no crash loop, no repair behind our back
        done = prov(env, *command)
        assert done.returncode == 2, (name, done.returncode, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:"), done.stderr
        assert str(path) in lines[0] and any(said in lines[0] for said in (
            "truncated", "not a SQLite database", "damaged", "emptied"))
        assert "move it aside" in lines[0] or "restore it" in lines[0]
        assert "Traceback" not in done.stderr
        assert path.read_bytes() == damaged


def test_a_damaged_sparse_index_is_rebuilt_from_the_catalog(env: dict[str, str]) -> None:
    sparse = Path(env["PROV_HOME"]) / "sparse"
    for f in sparse.rglob("*.json"):
        f.write_text("{not json")
    done = prov(env, "run", "--no-cache", QUESTION, "--json")
    assert done.returncode == 0, done.stderr
    assert "1,311.2" in done.stdout
    again = prov(env, "search", "group revenue", "--json")
    assert again.returncode == 0 and "northwind" in again.stdout.lower()


class SilentServer:
    """A TCP server on loopback that accepts connections and never says a word (a hung server)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.sock.close()
        for c in self.held:
            c.close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("server", ["refused", "silent"])
@pytest.mark.parametrize("variable, url_of", [
    ("PROV_CHECKPOINT_URL", lambda port: f"postgresql://prov:secret@127.0.0.1:{port}/prov"),
    ("PROV_CHROMA_URL", lambda port: f"http://127.0.0.1:{port}"),
])
def test_an_unreachable_server_is_exit_1_with_its_url_within_the_timeout(env: dict[str, str], variable: str,
                                                                         url_of, server: str) -> None:  # type: ignore[no-untyped-def]
    silent = SilentServer() if server == "silent" else None
    port = silent.port if silent else _closed_port()
    url = url_of(port)
    timeout_s = 3
    try:
        started = time.monotonic()
        done = prov({**env, variable: url, "PROV_CONNECT_TIMEOUT_S": str(timeout_s)}, "run", "--no-cache", QUESTION,
                    timeout=120)
        elapsed = time.monotonic() - started
    finally:
        if silent:
            silent.close()
    assert done.returncode == 1, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert f"127.0.0.1:{port}" in line and variable in line, line
    assert "secret" not in done.stderr  # the password is never printed
    assert "Traceback" not in done.stderr
    # Bounded: the configured timeout (twice at most: memory and checkpoints each try once) plus start-up.
    assert elapsed < 2 * timeout_s + 60, elapsed
