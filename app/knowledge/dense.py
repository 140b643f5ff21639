"""The dense store: a chromadb collection, embedded (PersistentClient) or remote (HttpClient)."""

from __future__ import annotations

import os
import re
from urllib.parse import urlparse

from app.errors import ServerUnreachable
from app.settings import Settings


def collection_name(model: str) -> str:
    """One collection per embedding model, so vectors of different models never mix."""
    slug = re.sub(r"[^a-zA-Z0-9_-]+", "-", model).strip("-").lower()
    return f"prov-chunks-{slug}"[:63]


def check_chroma_server(url: str, timeout_s: float) -> None:
    """The server's heartbeat within `timeout_s` (chromadb's own client waits without a bound), else
    ServerUnreachable naming the URL."""
    import httpx

    try:
        httpx.get(url.rstrip("/") + "/api/v2/heartbeat", timeout=timeout_s).raise_for_status()
    except httpx.HTTPError as exc:
        raise ServerUnreachable(f"cannot reach the Chroma server at {url} (PROV_CHROMA_URL) within {timeout_s:g} s: "
                                f"{type(exc).__name__}: {exc}") from exc


def ensure_database(chromadb, where: dict, name: str) -> None:  # type: ignore[no-untyped-def]
    """Create the Chroma server's database `name` (of the default tenant) unless it exists."""
    from chromadb.config import Settings as ChromaSettings

    admin = chromadb.AdminClient(ChromaSettings(
        chroma_api_impl="chromadb.api.fastapi.FastAPI", chroma_server_host=where["host"],
        chroma_server_http_port=where["port"], chroma_server_ssl_enabled=where["ssl"], anonymized_telemetry=False))
    try:
        admin.get_database(name)
    except Exception:  # chromadb raises NotFoundError (its class moved between releases)
        admin.create_database(name)


def open_collection(settings: Settings, embedder, database: str | None = None):  # type: ignore[no-untyped-def]
    """The knowledge base's collection. On a Chroma server it lives in `database` (PROV_CHROMA_DATABASE, else the
    one the caller names for this knowledge base), created when missing."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    from app.knowledge.embeddings import make_chroma_embedding_function

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_url:
        check_chroma_server(settings.chroma_url, settings.connect_timeout_s)
        url = urlparse(settings.chroma_url)
        where = dict(host=url.hostname or "localhost", port=url.port or 8000, ssl=url.scheme == "https")
        database = settings.chroma_database or database
        try:
            if database:
                ensure_database(chromadb, where, database)
            client = chromadb.HttpClient(**where, settings=chroma_settings,
                                         database=database or chromadb.DEFAULT_DATABASE)
        except ValueError as exc:  # chromadb's "Could not connect to a Chroma server"
            raise ServerUnreachable(f"cannot reach the Chroma server at {settings.chroma_url} (PROV_CHROMA_URL): "
                                    f"{exc}") from exc
    else:
        from app.errors import check_sqlite

        settings.chroma_path.mkdir(parents=True, exist_ok=True)
        check_sqlite(settings.chroma_path / "chroma.sqlite3", "the knowledge base's vectors (embedded chroma)",
                     "restore it from a backup, or move PROV_HOME aside and ingest your sources again")
        client = chromadb.PersistentClient(path=str(settings.chroma_path), settings=chroma_settings)
    return client.get_or_create_collection(
        collection_name(embedder.name),
        embedding_function=make_chroma_embedding_function(embedder),
        metadata={"hnsw:space": "cosine"},
    )


DEFAULT_MAX_BATCH = 5461  # chromadb's limit per add/upsert/delete on SQLite, when the client cannot say


def max_batch_size(collection) -> int:  # type: ignore[no-untyped-def]
    """The most records one upsert or delete may carry: the client's own limit, else DEFAULT_MAX_BATCH."""
    getter = getattr(getattr(collection, "_client", None), "get_max_batch_size", None)
    if getter is None:
        return DEFAULT_MAX_BATCH
    try:
        return max(1, int(getter()))
    except Exception:  # an older or remote client that cannot answer: the documented default still holds
        return DEFAULT_MAX_BATCH


def upsert_batched(collection, *, ids: list[str], embeddings: list, documents: list[str],  # type: ignore[no-untyped-def]
                   metadatas: list[dict], limit: int) -> None:
    """Upsert in slices of at most `limit` records (a 16k-chunk source would exceed chromadb's limit)."""
    for start in range(0, len(ids), limit):
        end = start + limit
        collection.upsert(ids=ids[start:end], embeddings=embeddings[start:end], documents=documents[start:end],
                          metadatas=metadatas[start:end])


def delete_batched(collection, ids: list[str], limit: int) -> None:  # type: ignore[no-untyped-def]
    """Delete by id in slices of at most `limit`."""
    for start in range(0, len(ids), limit):
        collection.delete(ids=ids[start:start + limit])
