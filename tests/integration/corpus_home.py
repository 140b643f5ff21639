"""A PROV_HOME with a folder ingested by the CLI (`prov ingest`, in its own process) and an offline Runtime on it:
what the end-to-end modules share. Each module keeps its own fixtures and calls these."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import REPO


def ingested_home(home: Path, models_dir: Path, corpus: Path, sources: int) -> dict[str, str]:
    """The environment of a home with `corpus` ingested; fails unless every one of `sources` was added."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    environ.update(PROV_HOME=str(home), PROV_MODELS_DIR=str(models_dir), HF_HUB_OFFLINE="1",
                   PROV_ANSWER_CACHE="false")
    done = subprocess.run([sys.executable, "-m", "app.cli", "ingest", str(corpus), "--json"], env=environ,
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["failed"] == 0 and summary["added"] == sources, summary
    return environ


def offline_runtime(env: dict[str, str]) -> Any:
    """A Runtime on that home: offline provider, answer cache off, the checkpoints (and memory) at
    PROV_CHECKPOINT_URL when the environment names one. The caller closes it."""
    from app.runtime import Runtime
    from app.settings import Settings

    return Runtime(Settings(home=Path(env["PROV_HOME"]), models_dir_override=Path(env["PROV_MODELS_DIR"]),
                            answer_cache=False, provider="offline", checkpoint_url=env.get("PROV_CHECKPOINT_URL")))


_ASKED: dict[tuple[int, str], Any] = {}


def asked_once(runtime: Any, question: str) -> Any:
    """One turn on a new thread, each question asked once per runtime (the modules assert on it several times)."""
    key = (id(runtime), question)
    if key not in _ASKED:
        _ASKED[key] = runtime.run(question)
    return _ASKED[key]
