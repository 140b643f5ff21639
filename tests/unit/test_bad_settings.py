"""A setting the environment gives a value Settings refuses is bad input: one line naming the variable, its value
and why, exit 2, and nothing stored (it was an internal error, exit 1, with pydantic's three-line report)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def prov(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    return subprocess.run([sys.executable, "-m", "app.cli", "threads"], cwd=REPO, capture_output=True, text=True,
                          env={**base, "PROV_HOME": str(tmp_path / "home"), **env}, timeout=120)


def test_an_out_of_range_setting_is_named_with_its_value_and_exits_2(tmp_path: Path) -> None:
    done = prov(tmp_path, PROV_GRADE_CONCURRENCY="0")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: PROV_GRADE_CONCURRENCY='0': ")
    assert "greater than or equal to 1" in lines[0] and "internal error" not in done.stderr
    assert not (tmp_path / "home").exists()


def test_each_bad_setting_gets_its_line(tmp_path: Path) -> None:
    done = prov(tmp_path, PROV_NEWS_LIMIT="abc", PROV_GRADE_CONCURRENCY="99")
    assert done.returncode == 2
    named = sorted(line.split("=")[0] for line in done.stderr.strip().splitlines())
    assert named == ["error: PROV_GRADE_CONCURRENCY", "error: PROV_NEWS_LIMIT"]
