#!/usr/bin/env bash
# The main job, offline: set up, ingest the bundled sample corpus, and search it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/${PROV_VENV:-.venv}/bin:$PATH"
export PROV_HOME=${PROV_HOME:-.prov}
set -x
prov ingest examples/corpus
prov kb status
prov search "Northwind Logistics dividend per share FY2024" -k 3
prov search "battery storage revenue correction" --type news -k 3
prov search "\$55.7m" --mode sparse -k 2
prov search "operating margin guidance" --company "Copperleaf Foods" --year 2024 -k 2 --funnel
prov ingest examples/corpus   # again: everything unchanged
