"""Answer quality on the sample corpus's example questions (examples/CORPUS.md), offline by default.

For each question the facts a correct answer must state are listed; a fact counts when the answer contains it
and the answer's citations validated (an uncited figure is removed before it could count). Prints each
question's facts found, the share over all, and how many answers were declared insufficient.
Usage: python bench/answers.py   (PROV_PROVIDER=openai with OPENAI_* set measures a real model instead)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

EXPECTED: list[tuple[str, list[str]]] = [
    ("What was Northwind's FY2024 revenue and how much did it grow?", ["1,311.2", "8.8"]),
    ("What was Helio's H1 2024 battery-storage revenue?", ["51.7"]),
    ("How did Copperleaf change its FY2024 guidance, and what did it deliver?", ["3% to 5%", "8.7%"]),
    ("Who replaced Dana Whitcombe as Helio's CEO, and when?", ["Reyes-Hartley", "2025"]),
    ("What did Northwind acquire in 2024, and for how much?", ["Fenmoor", "42.5"]),
    ("What did Copperleaf recall, and what did it cost?", ["Crunchwell", "6.8"]),
    ("What is Northwind's FY2024 dividend, and when is the final paid?", ["5.3p", "23 May 2025"]),
    ("What is Helio's FY2025 guidance?", ["1.02", "9.0%"]),
    ("What was the difference in FY2024 operating margin between Northwind and Helio?", ["2.4"]),
    ("By how much did Northwind's FY2024 revenue growth exceed Copperleaf's?", ["3.9"]),
]


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="prov-bench-answers-"))
    os.environ.update(PROV_HOME=str(home), PROV_ANSWER_CACHE="false", HF_HUB_OFFLINE="1")
    subprocess.run([sys.executable, "-m", "app.cli", "ingest", str(REPO / "examples" / "corpus")], check=True,
                   cwd=REPO, capture_output=True)
    from app.runtime import Runtime
    from app.settings import Settings

    runtime = Runtime(Settings())
    found_total = wanted_total = insufficient = 0
    started = time.perf_counter()
    for question, facts in EXPECTED:
        result = runtime.run(question)
        found = [f for f in facts if f in result.answer]
        found_total += len(found)
        wanted_total += len(facts)
        insufficient += result.status == "insufficient"
        missing = [f for f in facts if f not in found]
        print(f"{len(found)}/{len(facts)} {result.status:<12} {question}" + (f"   missing: {missing}" if missing else ""))
    elapsed = time.perf_counter() - started
    print(f"\nfacts stated with validated citations: {found_total}/{wanted_total} = {found_total / wanted_total:.0%}; "
          f"insufficient: {insufficient}/{len(EXPECTED)}; provider: {runtime.models.provider}; "
          f"{elapsed / len(EXPECTED):.2f} s per question (warm)")


if __name__ == "__main__":
    main()
