"""Analyst answers end to end on the second dev corpus, examples/analyst/corpus: five invented companies whose
reports are in UK, Australian, German, Canadian and Japanese styles (see examples/analyst/README.md).

The folder is ingested once per module with `prov ingest` in a separate process; one question of each kind
(examples/analyst/questions/*.jsonl) then runs in process on that home, offline, and its answer is scored with
the strict scorer the benchmark uses (app/evaluation/scoring.py): the first sentence must state the gold figure
with its sign, scale and rounding, or open with the right Yes/No; a list or an explanation must state every key
fact; an unstated measure must get the declared insufficient answer and a vague question a clarification. No
answer may state another period's or segment's figure where one lies near, repeat a sentence or paste a
fragment. The benchmark asks all 118 questions (python bench/financebench.py --corpora analyst); these are the
kinds' representatives that Prov answers today, so a regression in any kind fails here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.evaluation.scoring import Question, load_questions, score
from tests.conftest import REPO
from tests.integration.corpus_home import asked_once, ingested_home, offline_runtime

pytestmark = pytest.mark.integration

CORPUS = REPO / "examples" / "analyst" / "corpus"
QUESTIONS = REPO / "examples" / "analyst" / "questions"
SOURCES = 152
"""Pages of the seven reports and news items: every one must be added."""

BY_KIND = {
    "statement figure, no period named, Japanese columns": "an-kzk-01",
    "metric from a UK balance sheet with liabilities in brackets": "an-plb-03",
    "metric whose inputs sit in a statement's second chunk, beside a parent entity note": "an-wgm-03",
    "fact stated in prose, a count": "an-kzk-06",
    "segment figure": "an-rha-08",
    "change between two years": "an-rha-10",
    "two members of one breakdown compared on their growth (the region table's own change column)": "an-rha-21",
    "yes/no on a change": "an-kzk-11",
    "judgement with the convention said": "an-trc-12",
    "largest or smallest of a breakdown": "an-rha-13",
    "largest or smallest row of one statement (the most cash used)": "an-plb-20",
    "yes/no on a property, stated with another form of the word ('closing' / 'closure')": "an-rha-15",
    "annual-report form: a count, no period named, the annual report's and not the half-year's": "an-form-04",
    "annual-report form: a figure worded near the one asked is no answer (N/A)": "an-form-07",
    "annual-report form: 'did it mention', a sentence says so in other words (a social plan)": "an-form-10",
    "annual-report form: 'did it mention', a text search of every passage finds none (declared No)": "an-form-09",
    "list under a heading": "an-wgm-15",
    "unstated: a qualifier the filing does not report": "an-trc-18",
    "unstated: a full year only a half-year report covers": "an-wgm-20",
    "vague first message": "an-vague-01",
}


@pytest.fixture(scope="module")
def questions() -> dict[str, Question]:
    return {q.id: q for q in load_questions([QUESTIONS])}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, str]:
    """One PROV_HOME with the analyst corpus ingested by the CLI, shared by the module."""
    return ingested_home(tmp_path_factory.mktemp("analyst-home"), models_dir, CORPUS, SOURCES)


@pytest.fixture(scope="module")
def runtime(env: dict[str, str]) -> Iterator[Any]:
    rt = offline_runtime(env)
    yield rt
    rt.close()


def test_every_kind_is_represented_by_a_question_of_that_kind(questions: dict[str, Question]) -> None:
    assert set(BY_KIND.values()) <= set(questions)
    kinds = {questions[i].kind for i in BY_KIND.values()}
    assert {"statement_figure", "metric", "prose_figure", "segment_figure", "change", "yes_no_change", "judgement",
            "extreme", "list", "yes_no_property", "unstated", "vague"} <= kinds


@pytest.mark.parametrize("what", list(BY_KIND))
def test_the_answer_of_each_kind_is_right_under_the_strict_scorer(what: str, runtime: Any,
                                                                  questions: dict[str, Question]) -> None:
    question = questions[BY_KIND[what]]
    result = asked_once(runtime, question.question)
    verdict = score(question, result.status, result.answer)
    detail = f"{question.id} ({what}): status={result.status} facts={verdict.facts} answer={result.answer!r}"
    assert verdict.right, detail
    assert not verdict.wrong_period_or_segment, detail
    assert not verdict.duplicated and not verdict.fragments, detail


def test_a_figure_answer_cites_the_block_that_holds_it_and_the_prompt_lists_the_facts_read(
        runtime: Any, questions: dict[str, Question]) -> None:
    """The Japanese cash flow statement's ¥23,140m: the answer cites the block the facts section names for it."""
    question = questions["an-kzk-01"]
    result = asked_once(runtime, question.question)
    trace = runtime.trace(result.thread_id)
    user = next(m["content"] for m in trace["prompt"] if m.get("role") == "user")
    facts = user.split("## Facts read for this question", 1)[1].split("## ", 1)[0]
    line = next(ln for ln in facts.splitlines() if "23,140" in ln)
    block = line.rsplit("[", 1)[1].rstrip("]")
    assert f"[{block}]" in result.answer
    assert any(e["block"] == "facts read for the question" and e["included"] for e in trace["manifest"])
