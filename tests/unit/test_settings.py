"""app.settings: defaults, PROV_ environment variables, the OpenAI key aliases, .env, and precedence."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest
from pydantic import ValidationError

from app.settings import Settings, get_settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """No PROV_/OPENAI_ variables from the outside world and no real .env: run in an empty folder."""
    for name in list(os.environ):
        if name.upper().startswith(("PROV_", "OPENAI_")):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


def test_defaults() -> None:
    s = Settings()
    assert s.home == Path(".prov")
    assert s.chroma_url is None
    assert s.embeddings == "local"
    assert s.embedding_runtime == "auto"
    assert s.openai_embedding_model == "text-embedding-3-small"
    assert s.sparse_backend == "bm25s"
    assert s.chunk_tokens == 256
    assert s.chunk_overlap == 48
    assert s.max_file_mb == 25.0
    assert s.ttl_report_days == 450
    assert s.ttl_news_days == 90
    assert s.ttl_news_days < s.ttl_report_days
    assert (s.dense_weight, s.sparse_weight, s.entity_weight) == (1.0, 0.5, 1.0)
    assert s.rrf_k == 60
    assert s.dedupe_threshold == 0.8
    assert s.openai_api_key is None
    assert s.openai_base_url is None


def test_paths_derive_from_home() -> None:
    s = Settings(home=Path("/data/prov"))
    assert s.catalog_path == Path("/data/prov/catalog.sqlite")
    assert s.chroma_path == Path("/data/prov/chroma")
    assert s.sparse_dir == Path("/data/prov/sparse")
    assert s.dead_letter_path == Path("/data/prov/dead_letter.jsonl")


def test_prov_env_vars_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROV_HOME", "/srv/prov")
    monkeypatch.setenv("PROV_CHUNK_TOKENS", "128")
    monkeypatch.setenv("PROV_SPARSE_BACKEND", "rank-bm25")
    monkeypatch.setenv("PROV_SPARSE_WEIGHT", "0.25")
    monkeypatch.setenv("PROV_CHROMA_URL", "http://localhost:8000")
    monkeypatch.setenv("prov_ttl_news_days", "30")  # env names are case-insensitive
    s = Settings()
    assert s.home == Path("/srv/prov")
    assert s.catalog_path == Path("/srv/prov/catalog.sqlite")
    assert s.chunk_tokens == 128
    assert s.sparse_backend == "rank-bm25"
    assert s.sparse_weight == 0.25
    assert s.chroma_url == "http://localhost:8000"
    assert s.ttl_news_days == 30


def test_unprefixed_field_names_are_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHUNK_TOKENS", "128")
    assert Settings().chunk_tokens == 256


@pytest.mark.parametrize(("name", "value"), [("PROV_CHUNK_TOKENS", "10"), ("PROV_SPARSE_BACKEND", "whoosh"),
                                             ("PROV_DEDUPE_THRESHOLD", "1.5"), ("PROV_EMBEDDINGS", "cohere")])
def test_invalid_env_values_rejected(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings()


@pytest.mark.parametrize("name", ["OPENAI_API_KEY", "PROV_OPENAI_API_KEY"])
def test_openai_key_from_either_name(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv(name, "sk-test")
    assert Settings().openai_api_key == "sk-test"


@pytest.mark.parametrize("name", ["OPENAI_BASE_URL", "PROV_OPENAI_BASE_URL"])
def test_openai_base_url_from_either_name(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.setenv(name, "http://localhost:11434/v1")
    assert Settings().openai_base_url == "http://localhost:11434/v1"


def test_prov_openai_key_wins_over_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "plain")
    monkeypatch.setenv("PROV_OPENAI_API_KEY", "prov")
    assert Settings().openai_api_key == "prov"


def test_explicit_kwargs_beat_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROV_CHUNK_TOKENS", "128")
    monkeypatch.setenv("PROV_HOME", "/from/env")
    monkeypatch.setenv("OPENAI_API_KEY", "from-env")
    s = Settings(chunk_tokens=512, home=Path("/from/kwargs"), openai_api_key="from-kwargs")
    assert s.chunk_tokens == 512
    assert s.home == Path("/from/kwargs")
    assert s.openai_api_key == "from-kwargs"


def test_dotenv_in_cwd_is_read(clean_env: Path) -> None:
    (clean_env / ".env").write_text(
        "PROV_CHUNK_TOKENS=128\nPROV_HOME=/from/dotenv\nOPENAI_API_KEY=sk-dotenv\nUNRELATED=1\n", encoding="utf-8")
    s = Settings()
    assert s.chunk_tokens == 128
    assert s.home == Path("/from/dotenv")
    assert s.openai_api_key == "sk-dotenv"


def test_env_beats_dotenv(monkeypatch: pytest.MonkeyPatch, clean_env: Path) -> None:
    (clean_env / ".env").write_text("PROV_CHUNK_TOKENS=128\nPROV_SPARSE_WEIGHT=0.1\n", encoding="utf-8")
    monkeypatch.setenv("PROV_CHUNK_TOKENS", "300")
    s = Settings()
    assert s.chunk_tokens == 300       # env wins
    assert s.sparse_weight == 0.1      # .env still fills what env does not set
    assert Settings(chunk_tokens=64).chunk_tokens == 64  # kwargs beat both


def test_dotenv_elsewhere_is_not_read(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (clean_env / ".env").write_text("PROV_CHUNK_TOKENS=128\n", encoding="utf-8")
    other = clean_env / "sub"
    other.mkdir()
    monkeypatch.chdir(other)
    assert Settings().chunk_tokens == 256


def test_get_settings_is_cached_until_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    first = get_settings()
    assert get_settings() is first
    monkeypatch.setenv("PROV_RRF_K", "10")
    assert get_settings().rrf_k == 60
    get_settings.cache_clear()
    assert get_settings().rrf_k == 10
