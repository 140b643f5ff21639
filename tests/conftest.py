"""Shared fixtures: every test gets its own PROV_HOME; no test can reach a network."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from app.settings import get_settings

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One exported ONNX model for the whole run (the export takes a few seconds)."""
    return tmp_path_factory.mktemp("models")


@pytest.fixture(autouse=True)
def prov_home(tmp_path: Path, models_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "prov-home"
    monkeypatch.setenv("PROV_HOME", str(home))
    monkeypatch.setenv("PROV_MODELS_DIR", str(models_dir))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PROV_CHROMA_URL", "PROV_PROVIDER"):
        monkeypatch.delenv(var, raising=False)
    get_settings.cache_clear()
    yield home
    get_settings.cache_clear()


@pytest.fixture(autouse=True)
def no_network(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unit tests may not open sockets to anything but loopback."""
    if request.node.get_closest_marker("integration"):
        return
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        host = address[0] if isinstance(address, tuple) else str(address)
        if isinstance(host, str) and host not in ("127.0.0.1", "localhost", "::1") and self.family != socket.AF_UNIX:
            raise RuntimeError(f"unit tests must not reach the network (tried {address!r})")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


# --- real servers (PostgreSQL, Chroma) --------------------------------------------------------------------------
# `.ci/run` (scripts/test.sh with CI=true) starts both and exports PROV_TEST_POSTGRES_URL / PROV_TEST_CHROMA_URL;
# without them a session starts its own when the binaries are installed. PROV_REQUIRE_SERVERS=1 (set in CI) turns
# "not installed" from a skip into a failure, so CI cannot pass by skipping the server tests.

def _missing(what: str) -> None:
    import os

    if os.environ.get("PROV_REQUIRE_SERVERS") == "1":
        pytest.fail(f"{what} is required here (PROV_REQUIRE_SERVERS=1) but is not available")
    pytest.skip(f"{what} is not available")


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The URL of a PostgreSQL server on loopback (role and database `prov`, trust auth)."""
    import os

    from tests import servers

    url = os.environ.get("PROV_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    if not servers.postgres_available():
        _missing("PostgreSQL (initdb/pg_ctl)")
    pg = servers.start_postgres(tmp_path_factory.mktemp("pg"))
    yield pg.url
    pg.stop()


def fresh_database(server_url: str) -> str:
    """Create an empty database on the server; its URL (`postgresql://…/prov_test_<hex>`)."""
    import uuid

    import psycopg

    name = "prov_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True, connect_timeout=10) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A fresh, empty database on the session's server for one test."""
    return fresh_database(postgres_server)


@pytest.fixture(params=["sqlite", "servers"], scope="module")
def backend_env(request: pytest.FixtureRequest) -> dict[str, str]:
    """The same test bodies against both kinds of store: `sqlite` (checkpoints, memory and the embedded chroma
    under PROV_HOME, no variables) or `servers` (PostgreSQL for checkpoints, memory and cache; a Chroma server, in a
    database of its own per module). The variables to add to a process's environment."""
    if request.param == "sqlite":
        return {}
    import uuid

    server = request.getfixturevalue("postgres_server")
    chroma = request.getfixturevalue("chroma_server_url")
    return {"PROV_CHECKPOINT_URL": fresh_database(server), "PROV_CHROMA_URL": chroma,
            "PROV_CHROMA_DATABASE": "prov_test_" + uuid.uuid4().hex[:12]}


@pytest.fixture(scope="session")
def chroma_server_url(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The URL of a Chroma server on loopback."""
    import os

    from tests import servers

    url = os.environ.get("PROV_TEST_CHROMA_URL")
    if url:
        yield url
        return
    if not Path(servers.chroma_exe()).exists():
        _missing("the Chroma server CLI")
    server = servers.start_chroma(tmp_path_factory.mktemp("chroma"))
    yield server.url
    server.stop()
