"""The labelled routing examples: well formed, spread over many companies, and none of them a benchmark question.

The examples teach the router what questions need; the benchmarks measure it. An example equal or nearly equal to
a benchmark or evaluation question would let the router memorise what it is measured on, so every question in the
repository's own benchmark lists (bench/, examples/) and, when the third-party data is present (../shared/data),
every question of FinanceBench, ConvFinQA and MTRAG is compared with every example: after normalising case, space
and punctuation they must differ, and their word sets must overlap less than NEAR_DUPLICATE (Jaccard).
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Iterator

import pytest

from app.routing.decision import FLAGS
from app.routing.examples import (ABSENT_COMPANIES, DEFAULT_COMPANIES, example_companies, example_tickers,
                                  load_examples)

REPO = Path(__file__).resolve().parents[2]
SHARED_DATA = REPO.parent / "shared" / "data"
NEAR_DUPLICATE = 0.8


def normalise(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def jaccard(a: str, b: str) -> float:
    x, y = set(normalise(a).split()), set(normalise(b).split())
    return len(x & y) / len(x | y) if x and y else 0.0


def _questions_in_python(path: Path) -> Iterator[str]:
    """String literals of a bench script that read as questions."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value.strip()
            if text.endswith("?") and len(text.split()) >= 3:
                yield text


def _questions_in_markdown(path: Path) -> Iterator[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        for m in re.finditer(r"\*\*([^*]+\?)\*\*", line):
            yield m.group(1)
        text = line.strip().lstrip("-*0123456789. ").strip()
        if text.endswith("?") and len(text.split()) >= 3:
            yield text


def _questions_in_json(value: Any) -> Iterator[str]:
    """Every string under a key naming questions, and every user turn ({"speaker": "user", "text": ...})."""
    if isinstance(value, dict):
        if value.get("speaker") == "user" and isinstance(value.get("text"), str):
            yield value["text"]
        for key, item in value.items():
            if "question" in key.lower():
                if isinstance(item, str):
                    yield item
                elif isinstance(item, list):
                    yield from (q for q in item if isinstance(q, str))
            yield from _questions_in_json(item)
    elif isinstance(value, list):
        for item in value:
            yield from _questions_in_json(item)


def _questions_in_jsonl(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield from _questions_in_json(json.loads(line))


def repo_benchmark_questions() -> list[str]:
    found: list[str] = []
    for path in sorted((REPO / "bench").rglob("*.py")):
        found += _questions_in_python(path)
    for path in sorted((REPO / "bench").rglob("*.jsonl")):
        found += _questions_in_jsonl(path)
    for path in sorted((REPO / "examples").rglob("*.md")):
        found += _questions_in_markdown(path)
    return found


def shared_benchmark_questions() -> list[str]:
    found: list[str] = []
    for pattern in ("financebench/*.jsonl", "convfinqa/*.jsonl", "mtrag/*.jsonl"):
        for path in sorted(SHARED_DATA.glob(pattern)):
            found += _questions_in_jsonl(path)
    return found


def overlaps(examples: Iterable[dict], questions: Iterable[str]) -> list[tuple[str, str, float]]:
    """(example, benchmark question, Jaccard) for every equal or nearly equal pair."""
    index: dict[str, set[int]] = {}
    bench = [q for q in dict.fromkeys(questions) if normalise(q)]
    for i, q in enumerate(bench):
        for word in set(normalise(q).split()):
            index.setdefault(word, set()).add(i)
    hits = []
    for e in examples:
        words = set(normalise(e["question"]).split())
        candidates = set().union(*(index.get(w, set()) for w in words)) if words else set()
        for i in candidates:
            score = jaccard(e["question"], bench[i])
            if normalise(e["question"]) == normalise(bench[i]) or score >= NEAR_DUPLICATE:
                hits.append((e["question"], bench[i], round(score, 2)))
    return hits


@pytest.fixture(scope="module")
def examples() -> list[dict]:
    return load_examples()


def test_the_overlap_check_catches_equal_and_near_questions() -> None:
    bench = ["What was Acme's FY2021 revenue?", "How did the margin change between 2019 and 2020?"]
    assert overlaps([{"question": "what was ACME's fy2021 revenue"}], bench)
    assert overlaps([{"question": "So how did the margin change between 2019 and 2020?"}], bench)
    assert not overlaps([{"question": "What was Acme's FY2021 operating cash flow?"}], bench)


def test_the_repositorys_benchmark_questions_are_found() -> None:
    questions = repo_benchmark_questions()
    assert len(questions) >= 10
    assert any("Northwind" in q for q in questions)


def test_no_example_is_a_repository_benchmark_question(examples) -> None:  # type: ignore[no-untyped-def]
    assert overlaps(examples, repo_benchmark_questions()) == []


def test_no_example_is_a_third_party_benchmark_question(examples) -> None:  # type: ignore[no-untyped-def]
    if not SHARED_DATA.is_dir():
        pytest.skip(f"no third-party data at {SHARED_DATA}")
    questions = shared_benchmark_questions()
    assert questions, f"no questions found under {SHARED_DATA}"
    assert overlaps(examples, questions) == []


def test_examples_are_well_formed(examples) -> None:  # type: ignore[no-untyped-def]
    ids = [e["id"] for e in examples]
    assert len(set(ids)) == len(ids)
    assert len({normalise(e["question"]) for e in examples}) == len(examples)
    for e in examples:
        assert all(isinstance(e[f], bool) for f in FLAGS), e["id"]
        assert not (e["is_out_of_scope"] and any(e[f] for f in FLAGS[1:])), e["id"]
        assert isinstance(e["companies"], list) and all(isinstance(c, str) for c in e["companies"]), e["id"]
        for ticker, company in (e.get("tickers") or {}).items():
            assert company in e["companies"] and re.search(r"\b" + ticker + r"\b", e["question"]), e["id"]


def test_examples_cover_many_companies_and_the_sample_corpus_is_a_minority(examples) -> None:  # type: ignore[no-untyped-def]
    named = Counter(c for e in examples for c in e["companies"])
    assert len(named) >= 40
    sample = sum(any(c in DEFAULT_COMPANIES for c in e["companies"]) for e in examples)
    assert sample / len(examples) < 0.4
    assert set(ABSENT_COMPANIES) <= set(named)  # questions about companies a knowledge base lacks are taught too
    known = example_companies(examples)
    assert not set(ABSENT_COMPANIES) & set(known) and set(DEFAULT_COMPANIES) <= set(known)
    assert example_tickers(examples)["KSTW"] == "Kestrow Aerospace Inc."


def test_label_balance(examples) -> None:  # type: ignore[no-untyped-def]
    share = {f: sum(e[f] for e in examples) / len(examples) for f in FLAGS}
    assert 0.05 <= share["is_out_of_scope"] <= 0.2, share
    assert 0.4 <= share["needs_retrieval"] <= 0.8, share
    assert all(0.1 <= share[f] <= 0.4 for f in ("needs_news", "needs_clarification", "needs_calculation")), share
