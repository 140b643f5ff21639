"""Answer quality on the sample corpus's example questions (examples/CORPUS.md), offline by default.

For each question the key facts a correct answer must state are listed and scored by the shared strict scorer
(app/evaluation/scoring.py: sign, scale and rounding; lead facts in the first sentence; inputs and "stated as"
figures do not count), after the answer's citations validated (an uncited figure is removed before it counts).
Prints each question's facts found, the share over all, and how many answers were declared insufficient.
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

EXPECTED: list[tuple[str, list[dict[str, object]]]] = [
    ("What was Northwind's FY2024 revenue and how much did it grow?",
     [{"figure": "1,311.2", "unit": "£m"}, {"figure": "8.8", "unit": "%"}]),
    ("What was Helio's H1 2024 battery-storage revenue?", [{"figure": "51.7", "unit": "$m", "lead": True}]),
    ("How did Copperleaf change its FY2024 guidance, and what did it deliver?",
     [{"name": "3% to 5%", "alternatives": ["3%–5%", "3-5%"]}, {"figure": "8.7", "unit": "%"}]),
    ("Who replaced Dana Whitcombe as Helio's CEO, and when?",
     [{"name": "Reyes-Hartley", "lead": True}, {"name": "2025"}]),
    ("What did Northwind acquire in 2024, and for how much?",
     [{"name": "Fenmoor", "lead": True}, {"figure": "42.5", "unit": "£m"}]),
    ("What did Copperleaf recall, and what did it cost?", [{"name": "Crunchwell"}, {"figure": "6.8", "unit": "€m"}]),
    ("What is Northwind's FY2024 dividend, and when is the final paid?",
     [{"figure": "5.3", "unit": "p", "lead": True}, {"name": "23 May 2025"}]),
    ("What is Helio's FY2025 guidance?", [{"figure": "1.02", "unit": "$bn"}, {"figure": "9.0", "unit": "%"}]),
    ("What was the difference in FY2024 operating margin between Northwind and Helio?",
     [{"figure": "2.4", "unit": "pp", "lead": True}]),
    ("By how much did Northwind's FY2024 revenue growth exceed Copperleaf's?",
     [{"figure": "3.9", "unit": "pp", "lead": True}]),
]
"""Each question's key facts, scored by the shared strict scorer (app/evaluation/scoring.py): a figure with its
sign, scale and rounding, a name as whole words, `lead` facts in the answer's first sentence."""


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="prov-bench-answers-"))
    os.environ.update(PROV_HOME=str(home), PROV_ANSWER_CACHE="false", HF_HUB_OFFLINE="1")
    subprocess.run([sys.executable, "-m", "app.cli", "ingest", str(REPO / "examples" / "corpus")], check=True,
                   cwd=REPO, capture_output=True)
    from app.runtime import Runtime
    from app.settings import Settings

    from app.evaluation.scoring import question_from_record, score

    runtime = Runtime(Settings())
    found_total = wanted_total = insufficient = 0
    started = time.perf_counter()
    for n, (question, facts) in enumerate(EXPECTED, start=1):
        result = runtime.run(question)
        scored = score(question_from_record({"id": str(n), "question": question, "facts": facts}), result.status,
                       result.answer)
        found = [what for what, ok in scored.facts if ok]
        found_total += len(found)
        wanted_total += len(facts)
        insufficient += result.status == "insufficient"
        missing = [what for what, ok in scored.facts if not ok]
        print(f"{len(found)}/{len(facts)} {result.status:<12} {question}" + (f"   missing: {missing}" if missing else ""))
    elapsed = time.perf_counter() - started
    print(f"\nfacts stated with validated citations: {found_total}/{wanted_total} = {found_total / wanted_total:.0%}; "
          f"insufficient: {insufficient}/{len(EXPECTED)}; provider: {runtime.models.provider}; "
          f"{elapsed / len(EXPECTED):.2f} s per question (warm)")


if __name__ == "__main__":
    main()
