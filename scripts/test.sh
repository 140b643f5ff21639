#!/usr/bin/env bash
# Set up, then run every test (unit and integration). No network is used beyond the package index at set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${PROV_VENV:-.venv}/bin/python" -m pytest -q "$@"
