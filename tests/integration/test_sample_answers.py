"""The sample corpus's example questions (examples/CORPUS.md, bench/answers.py) asked offline through the CLI's
knowledge base: the answers the main job shows must state their facts, cited, and no other period's or company's
figure in their place.

bench/answers.py counts facts over all ten questions; this module pins the ones that hold today, so that a change
to the answer layer that loses one fails here rather than going unnoticed (the set fell from 16/17 to 5/17 during
issue 16 without a test noticing; all ten hold again since). A question the offline path misses is marked
xfail(strict=True) with what it does instead, so a fix shows up as a failure to un-mark."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.integration.corpus_home import asked_once, ingested_home, offline_runtime

pytestmark = pytest.mark.integration

CORPUS = REPO / "examples" / "corpus"
SOURCES = 41


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> Iterator[Any]:
    env = ingested_home(tmp_path_factory.mktemp("sample-home"), models_dir, CORPUS, SOURCES)
    rt = offline_runtime(env)
    yield rt
    rt.close()


def answered(runtime: Any, question: str) -> str:
    result = asked_once(runtime, question)
    assert result.status == "answered", f"{result.status}: {result.answer}"
    assert re.search(r"\[\d+\]", result.answer), result.answer  # cited
    return result.answer


def test_revenue_and_its_growth_are_the_groups_not_a_segments(runtime: Any) -> None:
    answer = answered(runtime, "What was Northwind Logistics' revenue in FY2024 and how much did it grow?")
    assert answer.startswith("Northwind Logistics' revenue grew 8.85% from £1,204.6m in FY2023 to £1,311.2m in FY2024")
    assert "437.2" not in answer and "48.3" not in answer  # a segment's revenue, a segment's profit


def test_a_follow_up_that_names_a_measure_gets_its_figure(runtime: Any) -> None:
    asked = runtime.run("What was their operating margin?")
    asked = runtime.resume(asked.thread_id, "Helio Renewables, FY2024")
    assert asked.answer.startswith("Helio Renewables' operating margin was 9.1% in FY2024")
    follow = runtime.run("And what about their revenue?", thread_id=asked.thread_id)
    assert follow.answer.startswith("Helio Renewables' revenue was $949.3m in FY2024")


def test_a_deed_is_answered_by_the_sentence_that_tells_it_with_its_price(runtime: Any) -> None:
    answer = answered(runtime, "What did Northwind acquire in 2024, and for how much?")
    assert answer.startswith("Fenmoor was acquired for a cash consideration of £42.5m")
    recall = answered(runtime, "What did Copperleaf recall, and what did it cost?")
    assert "Crunchwell" in recall and recall.count("€6.8m") == 1


def test_a_plan_is_listed_with_its_targets(runtime: Any) -> None:
    answer = answered(runtime, "What is Helio's FY2025 guidance?")
    assert "Revenue of $1.02bn to $1.08bn" in answer and "Operating margin of 9.0% to 9.5%" in answer


def test_a_difference_between_two_companies(runtime: Any) -> None:
    answer = answered(runtime, "What was the difference in FY2024 operating margin between Northwind and Helio?")
    assert answer.startswith("Helio Renewables' operating margin was 2.4 percentage points higher than Northwind")


def test_a_half_years_figure_from_the_half_year_column(runtime: Any) -> None:
    """The report's half-year table ('| $m | H1 FY2024 | H2 FY2024 | FY2024 |') gives the half: not the news
    item's retelling of the wrong figure a correction replaced ($55.7m), nor the year's $196.2m."""
    answer = answered(runtime, "What was Helio's H1 2024 battery-storage revenue?")
    assert answer.startswith("Helio Renewables' battery-storage revenue was $51.7m in H1 FY2024")
    assert "55.7" not in answer and "196.2" not in answer


def test_the_dividend_per_share_and_when_the_final_is_paid(runtime: Any) -> None:
    """The year's dividend is the total (5.3p), not the final (3.5p) or the cash paid (£19.7m); the question's
    second part, 'and when is the final paid?', is answered by the sentence that dates it."""
    answer = answered(runtime, "What is Northwind's FY2024 dividend, and when is the final paid?")
    assert answer.startswith("Northwind Logistics' dividend was 5.3p in FY2024")
    assert "the final dividend will be paid on 23 May 2025" in answer and "19.7" not in answer


def test_a_revised_plan_is_told_with_its_old_and_new_targets_and_the_outcome(runtime: Any) -> None:
    answer = answered(runtime, "How did Copperleaf change its FY2024 guidance, and what did it deliver?")
    assert answer.startswith("Copperleaf Foods lowered its FY2024 guidance")
    assert ("Organic revenue growth: Original FY2024 guidance (March 2024) 5% to 7%; Revised guidance "
            "(4 September 2024) 3% to 5%; FY2024 actual 4.9%") in answer


def test_who_succeeded_whom_is_answered_by_the_sentence_that_names_the_successor(runtime: Any) -> None:
    answer = answered(runtime, "Who replaced Dana Whitcombe as Helio's CEO, and when?")
    assert answer.startswith("Tomás Reyes-Hartley became president and chief executive officer of Helio "
                             "Renewables on January 1, 2025, succeeding Dana Whitcombe")


def test_a_difference_between_two_companies_growth_rates(runtime: Any) -> None:
    """One growth rate of each company, not two rows of Northwind's ('Revenue' and 'Group revenue', 8.8% each)."""
    answer = answered(runtime, "By how much did Northwind's FY2024 revenue growth exceed Copperleaf's?")
    assert answer.startswith("Northwind Logistics' revenue growth was 3.9 percentage points higher than "
                             "Copperleaf Foods' in FY2024 (8.8% against 4.9%)")
