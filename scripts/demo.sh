#!/usr/bin/env bash
# The main job, offline: set up, ingest the bundled sample corpus, then hold a conversation on it:
# an answer with citations, a clarification answered by `prov resume` (a new process), a follow-up and arithmetic
# on the figure it gave, a calculation across two companies, an out-of-scope refusal, the manifest of a turn, and a
# replay and a fork from checkpoints.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
venv=${PROV_VENV:-.venv}
case "$venv" in /*) ;; *) venv="$PWD/$venv" ;; esac
export PATH="$venv/bin:$PATH"
export PROV_HOME=${PROV_HOME:-.prov}
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
json_field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }

step "ingest the sample corpus (unchanged sources are skipped on a second run)"
prov ingest examples/corpus
prov kb status

step "1. an answer with citations"
prov run "What was Northwind Logistics' revenue in FY2024 and how much did it grow?"

step "2. a question that needs a clarification: Prov asks, and exits with code 3"
set +e
thread=$(prov run "What was their operating margin?" --json | json_field thread_id)
set -e
prov threads | head -n 6
step "   ...answered later, in a new process, with prov resume"
prov resume --thread "$thread" "Helio Renewables, FY2024"

step "3. a follow-up on the same thread (the company comes from the previous turn)"
prov run "And what about their revenue?" --thread "$thread"
step "   ...and arithmetic on the figure that answer gave (no search: the numbers are given)"
prov run "What is that divided by 4?" --thread "$thread" --no-cache

step "4. a calculation across two companies"
# --no-cache: on a second run of this script the answer would come from step 9's cache, with no thread of its own
# for steps 6 and 7 to read
prov run "What was the difference in FY2024 operating margin between Northwind and Helio?" --no-cache

step "5. an out-of-scope question is refused"
prov run "What is a good recipe for banana bread?"

step "6. what was in the prompt of turn 4, and why (read from the checkpoint; no model runs)"
calc_thread=$(prov threads --json | python3 -c "
import json, sys
print(next(t['thread_id'] for t in json.load(sys.stdin) if 'difference' in t['last_question']))")
prov trace --thread "$calc_thread"

step "7. replay: the checkpoints of that thread, a re-run from the one before assembly, and a fork"
prov replay --thread "$calc_thread" --list
checkpoint=$(prov replay --thread "$calc_thread" --list --json | python3 -c "
import json, sys
print(next(r['checkpoint_id'] for r in json.load(sys.stdin) if r['next'] == ['assemble']))")
prov replay --thread "$calc_thread" --checkpoint "$checkpoint"
prov replay --thread "$calc_thread" --fork "What was the difference in FY2024 operating margin between Copperleaf and Helio?"

step "8. memory: a correction by the user supersedes, and the next answer uses it and says so"
prov run "What was Northwind Logistics' revenue in FY2024?" --user demo-analyst
prov run "Actually, Northwind Logistics' FY2024 revenue was £1,320m." --user demo-analyst
prov run "What was Northwind Logistics' revenue in FY2024?" --user demo-analyst
prov memory list --user demo-analyst --all

step "9. the same question in a new thread is served from the cache, for reference only"
prov run "What was the difference in FY2024 operating margin between Northwind and Helio?"
