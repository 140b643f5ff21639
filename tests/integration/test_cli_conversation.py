"""The conversation from the command line, offline, on the bundled sample corpus: every call is a new
process, so a clarification is answered in a different process from the one that asked it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.integration

CORPUS = REPO / "examples" / "corpus"
CROSS = "What was the difference in FY2024 operating margin between Northwind and Helio?"


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory, models_dir: Path, backend_env: dict[str, str]) -> dict[str, str]:
    """One PROV_HOME with the sample corpus ingested, shared by the module's processes; every test runs twice,
    on SQLite and embedded chroma, and on PostgreSQL and a Chroma server (`backend_env`)."""
    home = tmp_path_factory.mktemp("conversation-home")
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    environ.update(PROV_HOME=str(home), PROV_MODELS_DIR=str(models_dir), HF_HUB_OFFLINE="1", **backend_env)
    done = subprocess.run([sys.executable, "-m", "app.cli", "ingest", str(CORPUS), "--json"], env=environ,
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return environ


def prov(env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=300, input=stdin)


def as_json(done: subprocess.CompletedProcess[str]) -> dict:
    return json.loads(done.stdout)


def checkpoint_count(env: dict[str, str]) -> int:
    done = prov(env, "threads", "--json")
    return sum(t["checkpoints"] for t in json.loads(done.stdout))


def test_answer_has_citations_that_point_at_sources(env: dict[str, str]) -> None:
    done = prov(env, "run", "What was Northwind Logistics' revenue in FY2024?", "--json")
    assert done.returncode == 0, done.stderr
    out = as_json(done)
    assert set(out) >= {"thread_id", "status", "answer", "citations", "question", "checkpoint_id"}
    assert out["status"] == "answered"
    assert "1,311.2" in out["answer"]
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", out["answer"])}
    assert cited and cited == {c["n"] for c in out["citations"]}
    for c in out["citations"]:
        assert set(c) == {"n", "source_id", "title", "page", "quote"}
        assert (CORPUS.parent / c["source_id"]).exists() or c["source_id"] == "calculation"


def test_calculation_across_two_companies(env: dict[str, str]) -> None:
    out = as_json(prov(env, "run", CROSS, "--json"))
    assert out["status"] == "answered"
    assert re.search(r"-?2\.4 percentage points", out["answer"]), out["answer"]
    sources = {c["source_id"] for c in out["citations"]}
    assert "calculation" in sources
    assert any("northwind" in s for s in sources) and any("helio" in s for s in sources)


def test_out_of_scope_is_refused(env: dict[str, str]) -> None:
    done = prov(env, "run", "What is a good recipe for banana bread?", "--json")
    assert done.returncode == 0
    out = as_json(done)
    assert out["status"] == "refused" and out["citations"] == []


def test_clarification_resumed_in_a_new_process(env: dict[str, str]) -> None:
    asked = prov(env, "run", "What was their revenue?", "--json")
    assert asked.returncode == 3, asked.stderr
    waiting = as_json(asked)
    assert waiting["status"] == "clarification" and waiting["answer"].endswith("?")
    thread = waiting["thread_id"]
    before = checkpoint_count(env)
    # A new question on a waiting thread is refused (LangGraph would start a new run), and nothing changes.
    blocked = prov(env, "run", "What was Helio's revenue?", "--thread", thread)
    assert blocked.returncode == 2 and "waiting for a clarification reply" in blocked.stderr
    assert checkpoint_count(env) == before
    resumed = prov(env, "resume", "--thread", thread, "Northwind Logistics, FY2024", "--json")
    assert resumed.returncode == 0, resumed.stderr
    out = as_json(resumed)
    assert out["thread_id"] == thread and out["status"] == "answered"
    assert "Northwind Logistics, FY2024" in out["question"] and "revenue" in out["question"]
    assert "1,311.2" in out["answer"]
    again = prov(env, "resume", "--thread", thread, "anything")
    assert again.returncode == 2 and "not waiting" in again.stderr


def test_follow_up_on_the_same_thread_resolves_the_company(env: dict[str, str]) -> None:
    first = as_json(prov(env, "run", "What was Copperleaf Foods' revenue in FY2024?", "--json"))
    second = as_json(prov(env, "run", "And what about their operating margin?", "--thread", first["thread_id"],
                          "--json"))
    assert second["status"] == "answered"
    assert "Copperleaf Foods" in second["question"]
    assert all("copperleaf" in c["source_id"] for c in second["citations"] if c["source_id"] != "calculation")


def test_replay_list_checkpoint_and_fork(env: dict[str, str]) -> None:
    out = as_json(prov(env, "run", "What was Helio Renewables' operating margin in FY2024?", "--json"))
    thread = out["thread_id"]
    listed = prov(env, "replay", "--thread", thread, "--list", "--json")
    assert listed.returncode == 0
    rows = json.loads(listed.stdout)
    assert all(set(r) >= {"checkpoint_id", "step", "next", "created_at"} for r in rows)
    assert [r["step"] for r in rows] == sorted(r["step"] for r in rows)
    before_assemble = next(r for r in rows if r["next"] == ["assemble"])
    replayed = prov(env, "replay", "--thread", thread, "--checkpoint", before_assemble["checkpoint_id"], "--json")
    assert replayed.returncode == 0, replayed.stderr
    again = as_json(replayed)
    assert again["status"] == out["status"] and again["answer"] == out["answer"]
    assert again["checkpoint_id"] != out["checkpoint_id"]
    forked = prov(env, "replay", "--thread", thread, "--fork", "What was Helio Renewables' revenue in FY2024?",
                  "--json")
    assert forked.returncode == 0, forked.stderr
    fork = as_json(forked)
    assert "revenue" in fork["question"] and fork["answer"] != out["answer"]
    assert "949.3" in fork["answer"]


def test_bad_input_exits_2_and_changes_nothing(env: dict[str, str], tmp_path: Path) -> None:
    before = checkpoint_count(env)
    cases = [
        ("run", "   "),
        ("run", "x" * 5000),
        ("run", "What was Northwind's revenue? " * 3500),  # 100k characters
        ("run", "What was \x1b[31mNorthwind's revenue?"),  # a terminal escape
        ("run", "What was\x07 revenue?\x7f"),
        ("run", os.fsdecode(b"What was \xff\xfe revenue?")),  # bytes that are not UTF-8
        ("run", "What was revenue?", "--thread", "t-does-not-exist"),
        ("resume", "--thread", "t-does-not-exist", "Northwind"),
        ("replay", "--thread", "t-does-not-exist", "--list"),
        ("replay", "--thread", "t-does-not-exist"),  # none of --list, --checkpoint, --fork
        ("replay", "--thread", "t-does-not-exist", "--list", "--fork", "What was revenue?"),
        ("trace", "--thread", "t-does-not-exist"),
    ]
    for args in cases:
        done = prov(env, *args)
        assert done.returncode == 2, (args[:2], done.stderr)
        assert "error:" in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr  # one line, however long the input
    thread = as_json(prov(env, "run", "What is a good recipe for banana bread?", "--json"))["thread_id"]
    before = checkpoint_count(env)
    missing = prov(env, "replay", "--thread", thread, "--checkpoint", "no-such-checkpoint")
    assert missing.returncode == 2 and "no checkpoint" in missing.stderr
    assert checkpoint_count(env) == before


def test_trace_shows_the_manifest_and_fenced_prompt(env: dict[str, str]) -> None:
    out = as_json(prov(env, "run", "What did Northwind announce about its Coventry fulfilment centre?", "--json"))
    assert "9.9bn" not in out["answer"]  # the press release's injected instruction is data, not a fact
    turns = as_json(prov(env, "trace", "--thread", out["thread_id"], "--json"))
    assert isinstance(turns, list) and len(turns) == 1
    blocks = [m["block"] for m in turns[0]["manifest"]]
    assert blocks[0] == "instructions" and blocks[-1] == "question"
    assert all(m["producer"] and m["rule"] and isinstance(m["tokens"], int) for m in turns[0]["manifest"])
    assert turns[0]["route"]["needs_news"] or turns[0]["route"]["needs_retrieval"]
    # The prompt itself, from the turn's checkpoint.
    state = as_json(prov(env, "trace", "--thread", out["thread_id"], "--checkpoint", out["checkpoint_id"], "--json"))
    user = state["prompt"][1]["content"]
    assert user.count("<<<DATA") == user.count("DATA>>>") >= 1


def test_chat_runs_the_same_turns(env: dict[str, str]) -> None:
    done = prov(env, "chat", stdin="What was their revenue?\nHelio Renewables, FY2024\n\n")
    assert done.returncode == 0, done.stderr
    assert "clarification needed" in done.stdout and "949.3" in done.stdout


def test_graph_prints_mermaid_with_subgraphs(env: dict[str, str]) -> None:
    done = prov(env, "graph")
    assert done.returncode == 0
    for node in ("intake", "route", "clarify", "assemble", "validate_citations", "search_company", "tools"):
        assert node in done.stdout


def test_threads_and_status_name_the_backends(env: dict[str, str], backend_env: dict[str, str]) -> None:
    prov(env, "run", "What was Northwind Logistics' revenue in FY2024?")
    listed = prov(env, "threads")
    assert listed.returncode == 0
    status = as_json(prov(env, "kb", "status", "--json"))
    if backend_env:
        assert "checkpoints: postgres (postgresql://" in listed.stderr
        assert status["backends"]["memory"].startswith("postgresql+psycopg://")
        assert status["backends"]["dense"] == f"chroma server ({backend_env['PROV_CHROMA_URL']})"
    else:
        assert f"checkpoints: sqlite ({env['PROV_HOME']}" in listed.stderr
        assert status["backends"]["memory"].startswith("sqlite:///")
        assert status["backends"]["dense"].startswith("embedded chroma")


def _rows_of(env: dict[str, str], threads: list[str]) -> dict[str, int]:
    """Rows left anywhere for these threads: checkpoint tables, cached answers, archived turns, owners."""
    from sqlalchemy import create_engine, text

    from app.settings import Settings

    settings = Settings(home=Path(env["PROV_HOME"]), checkpoint_url=env.get("PROV_CHECKPOINT_URL"))
    checkpoint_url = (settings.memory_database_url if env.get("PROV_CHECKPOINT_URL")
                      else f"sqlite:///{settings.checkpoint_path}")
    counts: dict[str, int] = {}
    for url, tables in ((checkpoint_url, ("checkpoints", "checkpoint_writes", "checkpoint_blobs")),
                        (settings.memory_database_url, ("semantic_answers", "archived_turns", "thread_owners"))):
        engine = create_engine(url)
        with engine.connect() as conn:
            present = set(engine.dialect.get_table_names(conn))
            for table in tables:
                if table in present:
                    column = "thread_id" if table.startswith("checkpoint") else "thread"
                    counts[table] = sum(conn.execute(text(f"SELECT COUNT(*) FROM {table} WHERE {column} = :t"),
                                                     {"t": t}).scalar() for t in threads)
        engine.dispose()
    return counts


def test_prune_removes_old_threads_from_every_store(env: dict[str, str]) -> None:
    """Runs last in the module (it prunes every thread of its home)."""
    user, asker = "pruned-user", "pruned-asker"
    noted = as_json(prov(env, "run", "From now on, round figures to whole millions.", "--user", user, "--json"))
    assert noted["status"] == "noted"
    answered = as_json(prov(env, "run", "What was Copperleaf Foods' revenue in FY2023?", "--user", asker, "--json"))
    assert answered["status"] == "answered" and not answered["cache_hit"]
    threads = [t["thread_id"] for t in as_json(prov(env, "threads", "--json"))]
    before = _rows_of(env, threads)
    assert before["checkpoints"] > 0 and before["semantic_answers"] >= 1 and before["thread_owners"] >= 1
    kept = as_json(prov(env, "threads", "prune", "--older-than", "1", "--json"))
    assert kept["removed"] == []
    assert _rows_of(env, threads) == before
    bad = prov(env, "threads", "prune", "--older-than", "-3")
    assert bad.returncode == 2 and "error:" in bad.stderr
    done = as_json(prov(env, "threads", "prune", "--older-than", "0", "--json"))
    assert sorted(done["removed"]) == sorted(threads)
    assert as_json(prov(env, "threads", "--json")) == []
    assert set(_rows_of(env, threads).values()) == {0}
    # The user's own standing instruction is theirs, not the thread's: it stays; the cached answer went.
    records = as_json(prov(env, "memory", "list", "--user", user, "--json"))
    assert any(r["type"] == "constraint" for r in records)
    again = as_json(prov(env, "run", "What was Copperleaf Foods' revenue in FY2023?", "--user", asker, "--json"))
    assert again["status"] == "answered" and not again["cache_hit"]
