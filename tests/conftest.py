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
