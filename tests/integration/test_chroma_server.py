"""The same knowledge base against a Chroma server (what docker-compose.yml starts), run here on loopback."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from app.knowledge.base import KnowledgeBase
from app.settings import get_settings
from tests.integration.test_knowledge_base import write_corpus

pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path: Path):  # type: ignore[no-untyped-def]
    exe = shutil.which("chroma") or str(Path(sys.executable).parent / "chroma")
    if not Path(exe).exists():
        pytest.fail("the chroma server CLI (shipped by the chromadb package) is missing")
    port = _free_port()
    proc = subprocess.Popen([exe, "run", "--path", str(tmp_path / "server-data"), "--host", "127.0.0.1",
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url + "/api/v2/heartbeat", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("chroma server did not start within 60 s")
    yield url
    proc.terminate()
    proc.wait(timeout=20)


def test_ingest_and_search_through_a_chroma_server(chroma_server: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch, prov_home: Path) -> None:
    monkeypatch.setenv("PROV_CHROMA_URL", chroma_server)
    get_settings.cache_clear()
    kb = KnowledgeBase(get_settings())
    summary = kb.ingest([write_corpus(tmp_path / "corpus")])
    assert len(summary.added) == 4
    assert not (prov_home / "chroma").exists()  # vectors went to the server, not the embedded store
    hit = kb.search("new chief executive at the solar company", k=1).hits[0]
    assert hit.source_id == "news/bravo-1"
    assert set(kb.collection.get(include=[])["ids"]) == kb.catalog.chunk_ids()
