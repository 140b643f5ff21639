"""Offline token counting with the embedding model's own word-piece tokenizer (tiktoken would download)."""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence


@lru_cache(maxsize=1)
def _tokenizer():  # type: ignore[no-untyped-def]
    from tokenizers import Tokenizer

    from app.knowledge.embeddings import local_model_dir

    tok = Tokenizer.from_file(str(local_model_dir() / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def count_tokens(text: str) -> int:
    """Word-piece tokens in `text`, without the [CLS]/[SEP] markers."""
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)


def count_many(texts: Sequence[str]) -> list[int]:
    if not texts:
        return []
    return [len(e.ids) for e in _tokenizer().encode_batch(list(texts), add_special_tokens=False)]
