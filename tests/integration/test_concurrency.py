"""Concurrent conversations: 8 processes, each running a thread of its own (three turns, different questions),
against one checkpoint store and one knowledge base, while a ninth process ingests new filings into that
knowledge base. Every process finishes (exit 0), every turn is a valid answer, nothing says "database is locked"
(or "locked" at all), every thread holds its three turns, and the new filings are searchable afterwards.
Against SQLite (PROV_HOME's files) and PostgreSQL (PROV_CHECKPOINT_URL; memory and cache follow it there).

The processes are forked from one fork server (tests/integration/turn_driver.py `serve`) so that 9 interpreters
need not import the stack on two cores; each is still a process of its own with its own connections. The
conversations run `turn_driver prepare` (their turns through `Runtime.run`, as `prov run` does them); the ingest
is `prov ingest`. Two smaller tests release processes at once on one store: a new memory database, and the sparse
index rebuilt after an ingest.
"""

from __future__ import annotations

import json
import multiprocessing
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.conftest import REPO
from tests.integration.corpus_home import ingested_home
from tests.integration.turn_driver import Done, ForkServer

pytestmark = pytest.mark.integration

CORPUS = REPO / "examples" / "corpus"
CORPUS_SOURCES = 41

CONVERSATIONS = [
    ["What was Northwind Logistics' revenue in FY2024?", "And what about their operating margin?",
     "What was their revenue in FY2023?"],
    ["What was Helio Renewables' net income in FY2024?", "How many employees did they have at year end?",
     "What dividends did they declare per share?"],
    ["What was Copperleaf Foods' revenue in FY2024?", "What was their operating margin?",
     "What was their free cash flow?"],
    ["What was the difference in FY2024 operating margin between Northwind and Helio?",
     "What was Helio Renewables' revenue in FY2023?", "And in FY2024?"],
    ["What was Helio Renewables' free cash flow in FY2024?", "What was their corporate net debt?",
     "What was Helio Renewables' operating income in FY2024?"],
    ["What did Northwind announce about its Coventry fulfilment centre?",
     "What was Northwind Logistics' operating profit in FY2024?", "And their revenue in FY2023?"],
    ["I cover Copperleaf Foods for my fund.", "What was Copperleaf Foods' net income in FY2024?",
     "What was their revenue in FY2023?"],
    ["What was Northwind Logistics' free cash flow in FY2024?", "What was Helio Renewables' operating margin in "
     "FY2024?", "What was Copperleaf Foods' operating margin in FY2024?"],
]
VALID = {"answered", "insufficient", "noted"}
NEW_COMPANY = "Quillfeather Instruments"
FILINGS = {
    "quillfeather-instruments-annual-report-fy2024.md": (2024, "2025-02-27", 412.6, 371.9, 12.4, 44.3),
    "quillfeather-instruments-annual-report-fy2023.md": (2023, "2024-02-29", 371.9, 340.2, 11.8, 37.1),
}


def filing(year: int, published: str, revenue: float, prior: float, margin: float, net: float) -> str:
    """A small annual report of a fictional company, shaped like the sample corpus's."""
    return f"""---
title: {NEW_COMPANY} plc — Annual Report FY{year}
company: {NEW_COMPANY}
fiscal_year: {year}
doc_type: report
published_at: {published}
license: CC-BY-4.0 (Prov test fixture)
---

# {NEW_COMPANY} plc — Annual Report FY{year}

{NEW_COMPANY} plc designs and manufactures precision flow meters and laboratory balances. This report covers
the fiscal year ended 31 December {year} (FY{year}). Amounts are in pounds sterling; "£m" means millions.

## FY{year} highlights

| Measure | FY{year} | FY{year - 1} |
|---|---|---|
| Revenue (£m) | {revenue:,.1f} | {prior:,.1f} |
| Operating margin | {margin}% | {margin - 0.4:.1f}% |
| Net income (£m) | {net:,.1f} | {net - 5.2:,.1f} |

## Chief executive's review

Revenue was £{revenue:,.1f}m in FY{year}, against £{prior:,.1f}m a year earlier, as laboratory customers
restocked and the flow-meter order book grew. The operating margin was {margin}% and net income £{net:,.1f}m.
We opened a calibration centre in Leeds and hired 140 engineers.
"""


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, str]:
    """A PROV_HOME with the sample corpus ingested; each test works on its own copy. One question on a throwaway
    copy first fits the offline router into the shared models folder, as a deployment's first question does
    (otherwise all 8 processes would fit it at once: a minute of CPU on two cores, and not what is tested here)."""
    environ = ingested_home(tmp_path_factory.mktemp("concurrency-home"), models_dir, CORPUS, CORPUS_SOURCES)
    scratch = tmp_path_factory.mktemp("router-warmup") / "home"
    shutil.copytree(environ["PROV_HOME"], scratch)
    warmed = subprocess.run([sys.executable, "-m", "app.cli", "run", CONVERSATIONS[0][0], "--json"], cwd=REPO,
                            env={**environ, "PROV_HOME": str(scratch)}, capture_output=True, text=True, timeout=600)
    assert warmed.returncode == 0, warmed.stderr
    return environ


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, ingested: dict[str, str]) -> Iterator[ForkServer]:
    fork = ForkServer(tmp_path_factory.mktemp("concurrency-procs"), ingested)
    yield fork
    fork.close()


@pytest.fixture(params=["sqlite", "postgres"])
def env(request: pytest.FixtureRequest, ingested: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """A copy of the ingested home; with postgres, checkpoints (and memory) in a fresh PostgreSQL database."""
    home = tmp_path / "home"
    shutil.copytree(ingested["PROV_HOME"], home)
    out = {**ingested, "PROV_HOME": str(home)}
    if request.param == "postgres":
        out["PROV_CHECKPOINT_URL"] = request.getfixturevalue("postgres_url")
    return out


def check_turn(result: dict, where: str) -> list[str]:
    """What is wrong with one turn's result (nothing for a valid answer)."""
    problems = []
    if result["status"] not in VALID:
        problems.append(f"{where}: status {result['status']!r}")
    if not result["answer"].strip():
        problems.append(f"{where}: empty answer")
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", result["answer"])}
    if not markers <= {c["n"] for c in result["citations"]}:
        problems.append(f"{where}: markers {sorted(markers)} without citations {result['citations']}")
    if result["status"] == "answered" and not result["citations"]:
        problems.append(f"{where}: answered without citations")
    return problems


def locked(done: Done) -> bool:
    """Whether the process said 'database is locked', or 'locked' anywhere (as a word: 'blocked' is PostgreSQL's
    word for a waiting lock and says nothing on its own)."""
    return bool(re.search(r"\blocked\b", done.stderr + done.stdout, re.IGNORECASE))


def test_eight_conversations_and_an_ingest_at_once(env: dict[str, str], server: ForkServer, tmp_path: Path) -> None:
    filings = tmp_path / "filings"
    filings.mkdir()
    for name, figures in FILINGS.items():
        (filings / name).write_text(filing(*figures), encoding="utf-8")
    specs = []
    for i, questions in enumerate(CONVERSATIONS):
        spec = tmp_path / f"conversation-{i}.json"
        spec.write_text(json.dumps({f"c{i}": {"user": f"u-c{i}", "turns": [{"question": q} for q in questions]}}))
        specs.append(spec)

    children = [server.spawn(["prepare", str(spec)], env, timeout=900) for spec in specs]
    ingest = server.spawn(["prov", "ingest", str(filings), "--json"], env, timeout=900)
    done = [server.wait(child) for child in children]
    ingested = server.wait(ingest)
    # A child's output files are last written as it exits: the ingest ended while conversations still ran, so turns
    # read the knowledge base before, during and after its commit.
    ended = {child.pid: child.stdout.stat().st_mtime for child in (*children, ingest)}
    print("ends after the ingest:", [round(ended[c.pid] - ended[ingest.pid], 1) for c in children])

    problems = []
    for i, d in enumerate(done):
        if d.rc != 0:
            problems.append(f"conversation {i}: exit {d.rc}: {d.stderr.strip()[-1500:]}")
            continue
        results = d.json()[f"c{i}"]["results"]
        if len(results) != len(CONVERSATIONS[i]):
            problems.append(f"conversation {i}: {len(results)} results")
        print(f"conversation {i}: seconds a turn {[r['seconds'] for r in results]}")
        for n, result in enumerate(results):
            problems += check_turn(result, f"conversation {i} turn {n + 1}")
    if ingested.rc != 0:
        problems.append(f"ingest: exit {ingested.rc}: {ingested.stderr.strip()[-1500:]}")
    for name, d in [*((f"conversation {i}", d) for i, d in enumerate(done)), ("ingest", ingested)]:
        if locked(d):
            problems.append(f"{name} says 'locked': {d.stderr.strip()[-1500:]}")
        if "Traceback" in d.stderr:
            problems.append(f"{name} printed a traceback: {d.stderr.strip()[-1500:]}")
    assert not problems, "\n".join(problems)

    summary = ingested.json()
    assert summary["added"] == len(FILINGS) and summary["failed"] == 0, summary
    # Every thread holds its three turns, finished.
    threads = {d.json()[f"c{i}"]["thread"]: i for i, d in enumerate(done)}
    listed = {r["thread_id"]: r for r in server.prov(env, "threads", "--json").json()}
    for thread, i in threads.items():
        assert listed[thread]["turns"] == len(CONVERSATIONS[i]), listed[thread]
        assert listed[thread]["status"] in VALID, listed[thread]
    # The knowledge base took the new filings whole: a question about them is answered from them.
    asked = server.prov(env, "run", f"What was {NEW_COMPANY}' revenue in FY2024?", "--json")
    assert asked.rc == 0, asked.stderr
    answer = asked.json()
    assert answer["status"] == "answered" and "412.6" in answer["answer"], answer
    assert any("quillfeather" in c["source_id"] for c in answer["citations"]), answer["citations"]


def _open_memory(url: str, barrier: Any) -> None:
    from app.memory.records import MemoryStore

    barrier.wait()
    MemoryStore(url)  # an exception ends this process with exit code 1 (and its traceback on stderr)


def test_a_new_memory_database_opened_by_many_processes_at_once(tmp_path: Path) -> None:
    """Eight processes released at once by a barrier open the same new memory database; each must get it (SQLite's
    create_all checks each table, then creates it: unserialised, the later processes failed with 'table
    memory_records already exists')."""
    context = multiprocessing.get_context("fork")
    codes = []
    for attempt in range(3):
        url = f"sqlite:///{tmp_path / f'memory-{attempt}.sqlite'}"
        barrier = context.Barrier(8)
        procs = [context.Process(target=_open_memory, args=(url, barrier)) for _ in range(8)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=120)
        codes.append([p.exitcode for p in procs])
    assert all(code == 0 for attempt in codes for code in attempt), codes


def _save_and_load(root: Path, barrier: Any, rounds: int) -> None:
    from app.knowledge.sparse import PersistedSparse

    barrier.wait()
    for n in range(rounds):
        generation = n // 3  # several processes save each generation at once, and generations move on meanwhile
        size = generation + 2
        store = PersistedSparse(root, "bm25s")
        store.build([f"c{i}" for i in range(size)], [["revenue", f"t{i}"] for i in range(size)], generation)
        store.save()
        reader = PersistedSparse(root, "bm25s")
        if reader.load():  # False only when the folder went between reading the pointer and the files: rebuilt
            assert len(reader.ids) == reader.index.scores(["revenue"]).shape[0] == reader.generation + 2


def test_processes_rebuilding_the_sparse_index_at_once(tmp_path: Path) -> None:
    """After another process's ingest, every searching process finds the index older than the catalog and rebuilds
    and saves it (KnowledgeBase.sparse): six processes doing that at once, over and over, all finish, and the
    index left behind is whole."""
    from app.knowledge.sparse import PersistedSparse

    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(6)
    procs = [context.Process(target=_save_and_load, args=(tmp_path, barrier, 12)) for _ in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=300)
    assert [p.exitcode for p in procs] == [0] * 6
    final = PersistedSparse(tmp_path, "bm25s")
    assert final.load() and len(final.ids) == final.generation + 2
    assert not list(tmp_path.glob("*.tmp"))
