"""OpenAIEmbedder against a small OpenAI-compatible /v1/embeddings server on loopback (stdlib http.server in a
thread): batching, concurrency, retries, giving up, an unreachable server, and what an ingest does when the
embedding server fails (the source is left as it was, its old version still searchable)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from app.knowledge import dense
from app.knowledge.base import KnowledgeBase
from app.knowledge.embeddings import EmbeddingError, OpenAIEmbedder, embedder_identity, get_embedder
from app.settings import Settings
from tests.fakes import WordHashEmbedder

_VECTORS = WordHashEmbedder()


class FakeEmbeddingServer:
    """Answers POST /v1/embeddings with WordHashEmbedder's vectors. `failures` is a list of HTTP statuses the next
    requests get instead (one per request, in order); `always` fails every request with that status;
    `overlap` makes each request wait (up to half a second) for a second one to be in flight, so that a client
    that really sends concurrently is seen doing so, whatever the machine's speed."""

    def __init__(self) -> None:
        self.requests: list[list[str]] = []
        self.failures: list[int] = []
        self.always: int | None = None
        self.per_token = False
        self.overlap = False
        self.in_flight = 0
        self.max_in_flight = 0
        self._cond = threading.Condition()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def answer(self, body: dict) -> tuple[int, dict, dict[str, str]]:
        with self._cond:
            self.requests.append(list(body["input"]))
            if self.always is not None:
                return self.always, {"error": {"message": "the model crashed"}}, {}
            if self.failures:
                status = self.failures.pop(0)
                return status, {"error": {"message": f"try again ({status})"}}, {"Retry-After": "0"}
        vectors = _VECTORS.embed(body["input"])
        data = [{"object": "embedding", "index": i, "embedding": [v] * 3 if self.per_token else v}
                for i, v in enumerate(vectors)]
        data.reverse()  # servers may answer out of order: the index says where each belongs
        return 200, {"object": "list", "model": body["model"], "data": data}, {}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake._cond:
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                    fake._cond.notify_all()
                    if fake.overlap:
                        fake._cond.wait_for(lambda: fake.in_flight >= 2, timeout=0.5)
                try:
                    status, payload, headers = fake.answer(body)
                finally:
                    with fake._cond:
                        fake.in_flight -= 1
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:
                pass

        return Handler

    def __enter__(self) -> "FakeEmbeddingServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def server() -> Iterator[FakeEmbeddingServer]:
    with FakeEmbeddingServer() as fake:
        yield fake


def make_embedder(url: str, **kwargs: object) -> OpenAIEmbedder:
    options = {"batch_size": 4, "concurrency": 1, "max_retries": 3, "connect_timeout_s": 2.0,
               "read_timeout_s": 10.0, "backoff_s": 0.01, **kwargs}
    return OpenAIEmbedder("fake-embed", None, url, **options)  # type: ignore[arg-type]


TEXTS = [f"text number {i} about {word}" for i, word in enumerate(
    ["rail", "freight", "solar", "panels", "dividend", "margin", "ports", "storage", "grid", "haulage", "fleet"])]


def test_batches_of_at_most_the_batch_size_each_text_once_in_order(server: FakeEmbeddingServer) -> None:
    vectors = make_embedder(server.url, batch_size=4).embed(TEXTS)

    assert sorted(len(r) for r in server.requests) == [3, 4, 4]
    assert sorted(t for r in server.requests for t in r) == sorted(TEXTS)
    assert vectors == _VECTORS.embed(TEXTS)


def test_requests_overlap_when_concurrency_is_above_one(server: FakeEmbeddingServer) -> None:
    server.overlap = True
    vectors = make_embedder(server.url, batch_size=2, concurrency=4).embed(TEXTS)

    assert server.max_in_flight > 1
    assert vectors == _VECTORS.embed(TEXTS)


def test_one_request_at_a_time_with_concurrency_one(server: FakeEmbeddingServer) -> None:
    make_embedder(server.url, batch_size=2, concurrency=1).embed(TEXTS)

    assert len(server.requests) == 6 and server.max_in_flight == 1


def test_transient_failures_are_retried_and_the_result_is_complete(server: FakeEmbeddingServer) -> None:
    server.failures = [503, 429]
    vectors = make_embedder(server.url, batch_size=len(TEXTS)).embed(TEXTS)

    assert len(server.requests) == 3  # two refused, the third answered
    assert vectors == _VECTORS.embed(TEXTS)


def test_gives_up_after_max_retries_with_an_error_naming_the_server(server: FakeEmbeddingServer) -> None:
    server.always = 500
    with pytest.raises(EmbeddingError) as caught:
        make_embedder(server.url, batch_size=len(TEXTS), max_retries=2).embed(TEXTS)

    assert len(server.requests) == 3  # the first try and two retries
    assert server.url in str(caught.value) and "HTTP 500 after 3 attempts" in str(caught.value)


def test_a_request_the_server_rejects_is_not_retried(server: FakeEmbeddingServer) -> None:
    server.always = 400
    with pytest.raises(EmbeddingError, match="HTTP 400"):
        make_embedder(server.url, batch_size=len(TEXTS)).embed(TEXTS)

    assert len(server.requests) == 1


def test_an_unreachable_server_is_named_in_the_error() -> None:
    with socket.socket() as held:  # bound, never listening: connections to it are refused, and nobody takes it
        held.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{held.getsockname()[1]}/v1"
        with pytest.raises(EmbeddingError) as caught:
            make_embedder(url, connect_timeout_s=1.0).embed(["revenue"])

    assert f"the embedding server {url} is unreachable" in str(caught.value)


def test_empty_texts_are_embedded_not_refused(server: FakeEmbeddingServer) -> None:
    vectors = make_embedder(server.url).embed(["", "rail freight", "   "])

    assert len(vectors) == 3 and all(len(v) == 64 for v in vectors)
    assert "" not in server.requests[0]
    assert make_embedder(server.url).embed([]) == []


def test_token_level_vectors_are_refused_with_a_hint(server: FakeEmbeddingServer) -> None:
    server.per_token = True
    with pytest.raises(EmbeddingError, match="pooling"):
        make_embedder(server.url).embed(["rail freight"])


def test_the_name_tells_models_and_servers_apart() -> None:
    assert embedder_identity("text-embedding-3-small", None) == "text-embedding-3-small"
    assert embedder_identity("text-embedding-3-small", "https://api.openai.com/v1") == "text-embedding-3-small"
    a = embedder_identity("bge-small", "http://10.0.0.5:8080/v1")
    b = embedder_identity("bge-small", "http://10.0.0.6:8080/v1")
    c = embedder_identity("bge-base", "http://10.0.0.5:8080/v1")
    assert len({a, b, c}) == 3 and a == "bge-small@10.0.0.5:8080"
    long_a = embedder_identity("sentence-transformers/all-MiniLM-L6-v2-finetuned-on-filings", "http://gpu-a:80")
    long_b = embedder_identity("sentence-transformers/all-MiniLM-L6-v2-finetuned-on-filings", "http://gpu-b:80")
    assert dense.collection_name(long_a) != dense.collection_name(long_b)


# --- in an ingest ------------------------------------------------------------------------------------------------

REPORT_V1 = """---
title: Acme Rail — Annual Report FY2024
company: Acme Rail
fiscal_year: 2024
---
## Financial review

Acme Rail revenue rose to £987.6m, driven by new freight corridors in the north.
"""

REPORT_V2 = REPORT_V1.replace("freight corridors in the north", "sleeper carriages on the coast")

OTHER = """---
title: Bravo Solar — Annual Report FY2023
company: Bravo Solar
fiscal_year: 2023
---
## Outlook

Bravo Solar expects battery storage revenue to grow as utilities sign longer contracts.
"""


def remote_kb(home: Path, url: str, **settings: object) -> KnowledgeBase:
    options = {"embedding_batch": 2, "embedding_concurrency": 2, "embedding_max_retries": 1,
               "connect_timeout_s": 2.0, **settings}
    return KnowledgeBase(Settings(home=home, embeddings="openai", embedding_base_url=url,
                                  openai_embedding_model="fake-embed", **options))  # type: ignore[arg-type]


def texts_found(kb: KnowledgeBase, query: str, mode: str = "dense") -> list[str]:
    return [h.text for h in kb.search(query, k=3, mode=mode).hits]  # type: ignore[arg-type]


def test_ingest_embeds_through_the_server_and_search_finds_the_source(server: FakeEmbeddingServer,
                                                                      prov_home: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "acme.md").write_text(REPORT_V1)
    (corpus / "bravo.md").write_text(OTHER)
    kb = remote_kb(prov_home, server.url)

    summary = kb.ingest([corpus])

    assert summary.failed == [] and len(summary.added) == 2
    assert kb.embedder.name == embedder_identity("fake-embed", server.url) != "fake-embed"
    assert any("battery storage" in t for t in texts_found(kb, "battery storage contracts"))
    assert kb.collection.count() == kb.catalog.count_chunks()


def test_ingest_keeps_requests_in_flight_together(server: FakeEmbeddingServer, prov_home: Path,
                                                  tmp_path: Path) -> None:
    corpus = tmp_path / "many"
    corpus.mkdir()
    for i in range(12):
        (corpus / f"note-{i}.md").write_text(f"# Note {i}\n\nNote {i} is about freight volume {i} in the north.\n")
    server.overlap = True

    summary = remote_kb(prov_home, server.url, embedding_batch=1, embedding_concurrency=4).ingest([corpus])

    assert len(summary.added) == 12
    assert server.max_in_flight > 1


def test_a_failed_embedding_leaves_the_old_version_searchable(server: FakeEmbeddingServer, prov_home: Path,
                                                              tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    report = corpus / "acme.md"
    report.write_text(REPORT_V1)
    kb = remote_kb(prov_home, server.url)
    assert len(kb.ingest([corpus]).added) == 1
    chunks_before = kb.catalog.count_chunks()

    report.write_text(REPORT_V2)
    server.always = 500
    summary = kb.ingest([corpus])

    assert summary.added == [] and summary.updated == []
    assert [f.path for f in summary.failed] == [str(report)]
    assert server.url in summary.failed[0].reason and "not embedded" in summary.failed[0].reason
    assert summary.embedding_error and "HTTP 500" in summary.embedding_error
    assert [d["path"] for d in kb.status()["dead_letters"]] == [str(report)]
    # the old version is whole: its catalog rows and its vectors, nothing of the new one
    assert kb.catalog.count_chunks() == chunks_before == kb.collection.count()
    assert any("freight corridors" in t for t in texts_found(kb, "freight corridors", mode="sparse"))
    assert not any("sleeper carriages" in t for t in texts_found(kb, "sleeper carriages", mode="sparse"))

    server.always = None  # the server is back: the same command finishes the job and clears the dead letter
    again = kb.ingest([corpus])
    assert len(again.updated) == 1 and again.failed == [] and kb.status()["dead_letters"] == []
    assert any("sleeper carriages" in t for t in texts_found(kb, "sleeper carriages"))


def test_sources_committed_before_the_failure_stay_committed(server: FakeEmbeddingServer, prov_home: Path,
                                                             tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a-acme.md").write_text(REPORT_V1)
    (corpus / "b-bravo.md").write_text(OTHER)
    (corpus / "c-charlie.md").write_text(OTHER.replace("Bravo", "Charlie"))
    answer = server.answer

    def refuse_charlie(body: dict) -> tuple[int, dict, dict[str, str]]:
        if any("Charlie" in t for t in body["input"]):
            return 503, {"error": {"message": "overloaded"}}, {}
        return answer(body)

    server.answer = refuse_charlie  # type: ignore[method-assign]
    monkeypatch.setattr("app.knowledge.base._EMBED_GROUP", 1)  # one chunk per slice: sources finish one by one
    kb = remote_kb(prov_home, server.url, embedding_batch=1, embedding_concurrency=1)
    summary = kb.ingest([corpus])

    assert [Path(f.path).name for f in summary.failed] == ["c-charlie.md"]
    assert sorted(kb.catalog.source_hashes()) == sorted(summary.added) and len(summary.added) == 2
    assert kb.collection.count() == kb.catalog.count_chunks()


def test_get_embedder_builds_the_remote_client_from_settings(server: FakeEmbeddingServer, prov_home: Path) -> None:
    settings = Settings(home=prov_home, embeddings="openai", embedding_base_url=server.url,
                        openai_base_url="http://127.0.0.1:1/v1", embedding_batch=7, embedding_concurrency=3,
                        embedding_max_retries=2, connect_timeout_s=4.0)
    embedder = get_embedder(settings)

    assert isinstance(embedder, OpenAIEmbedder)
    assert (embedder.base_url, embedder.batch_size, embedder.concurrency, embedder.max_retries,
            embedder.connect_timeout_s) == (server.url, 7, 3, 2, 4.0)
    fallback = get_embedder(Settings(home=prov_home, embeddings="openai", openai_base_url=server.url))
    assert isinstance(fallback, OpenAIEmbedder) and fallback.base_url == server.url
