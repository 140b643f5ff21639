"""The regression gate: `prov eval` on the sample corpus's suites (evals/sample) and the analyst corpus's questions
(evals/analyst) may not fall below the baselines committed beside them (evals/NAME/baseline.json) by more than
TOLERANCE in any stage. A drop fails CI with the stages that
fell and the questions whose outcome changed; an improvement is kept by refreshing the baseline in a reviewed
commit (the file's `refresh` says how)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.integration

TOLERANCE = 0.02
"""One question in fifty: the offline path is deterministic, so any drop is a change in behaviour, but a
suite's edge may move with a library's rounding."""


@pytest.mark.parametrize("name", ["sample", "analyst"])
def test_no_stage_falls_below_the_committed_baseline(name: str, tmp_path: Path, models_dir: Path) -> None:
    path = REPO / "evals" / name / "baseline.json"
    baseline = json.loads(path.read_text(encoding="utf-8"))
    assert "prov eval --suite NAME --save evals/NAME/baseline.json" in baseline["refresh"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    env.update(PROV_HOME=str(tmp_path / "home"), PROV_MODELS_DIR=str(models_dir), HF_HUB_OFFLINE="1")
    done = subprocess.run([sys.executable, "-m", "app.cli", "eval", "--suite", name, "--json", "--compare",
                           str(path), "--max-drop", str(TOLERANCE)], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=1200)
    report = json.loads(done.stdout) if done.stdout.strip().startswith("{") else {}
    compared = report.get("compare") or {}
    changed = [(c["id"], c["change"]) for c in compared.get("changed") or []]
    assert done.returncode == 0, f"stages fell: {compared.get('failed_stages')}; changed: {changed}; {done.stderr}"
    assert set(baseline["suites"]) == set(report["suites"])
