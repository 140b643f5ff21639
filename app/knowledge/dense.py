"""The dense store: a chromadb collection, embedded (PersistentClient) or remote (HttpClient)."""

from __future__ import annotations

import os
import re
from urllib.parse import urlparse

from app.settings import Settings


def collection_name(model: str) -> str:
    """One collection per embedding model, so vectors of different models never mix."""
    slug = re.sub(r"[^a-zA-Z0-9_-]+", "-", model).strip("-").lower()
    return f"prov-chunks-{slug}"[:63]


def open_collection(settings: Settings, embedder):  # type: ignore[no-untyped-def]
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    from app.knowledge.embeddings import make_chroma_embedding_function

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_url:
        url = urlparse(settings.chroma_url)
        client = chromadb.HttpClient(host=url.hostname or "localhost", port=url.port or 8000,
                                     ssl=url.scheme == "https", settings=chroma_settings)
    else:
        settings.chroma_path.mkdir(parents=True, exist_ok=True)
        client = chromadb.PersistentClient(path=str(settings.chroma_path), settings=chroma_settings)
    return client.get_or_create_collection(
        collection_name(embedder.name),
        embedding_function=make_chroma_embedding_function(embedder),
        metadata={"hnsw:space": "cosine"},
    )
