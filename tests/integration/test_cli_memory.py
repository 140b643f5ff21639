"""Memory, the semantic answer cache, forget and the per-turn trace from the command line, offline, on the
held-out Ternline 10-K (examples/metrics/corpus, not the sample corpus). Every `prov` call is its own process.

The corpus is ingested once per module into a template PROV_HOME; each test works on its own copy of that home
(shutil.copytree), so no test sees another's memory records, cached answers or threads. The JSONL holds one
source per page (`TERNLINE_2024_10K:p5` is the statement of operations), identified by its `source_id` and its
content hash, not by the file's path: an edited copy of the corpus ingested from a tmp folder updates exactly the
pages whose text changed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.integration

CORPUS = REPO / "examples" / "metrics" / "corpus"
FILING = "TERNLINE_2024_10K.jsonl"
STATEMENT_PAGE = "TERNLINE_2024_10K:p5"  # statements of operations: what a revenue answer cites
CONTENTS_PAGE = "TERNLINE_2024_10K:p2"  # table of contents: never cited by a revenue answer
PAGES = 8

REVENUE_Q = "What was Ternline's revenue in FY2024?"
REVENUE_2024 = "4,459,440"  # thousands, p5
REVENUE_2023 = "4,047,550"


# --- fixtures and helpers -------------------------------------------------------------------------------------


def base_env(home: Path, models_dir: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    environ.update(PROV_HOME=str(home), PROV_MODELS_DIR=str(models_dir), HF_HUB_OFFLINE="1")
    return environ  # the answer cache stays on (its default): these tests are about it


def prov(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, cwd=REPO, capture_output=True,
                          text=True, timeout=300)


def ok_json(env: dict[str, str], *args: str) -> Any:
    """Run `prov ARGS --json`; it must exit 0 and print JSON."""
    done = prov(env, *args, "--json")
    assert done.returncode == 0, (args, done.returncode, done.stderr)
    return json.loads(done.stdout)


def ask(env: dict[str, str], question: str, *args: str) -> dict[str, Any]:
    return ok_json(env, "run", question, *args)


def sources(turn: dict[str, Any]) -> list[str]:
    return [c["source_id"] for c in turn["citations"]]


def one_line(text: str) -> str:
    """stderr with Rich's wrapping at 80 columns undone."""
    return " ".join(text.split())


def files_holding(home: Path, needle: bytes) -> list[str]:
    """Every file under home (databases, their -wal and -shm, chroma, sparse index) whose bytes hold needle."""
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and needle in p.read_bytes())


def thread_ids(env: dict[str, str]) -> set[str]:
    return {t["thread_id"] for t in ok_json(env, "threads")}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> Path:
    """A home with the Ternline filing ingested (once per module: about 15 s)."""
    home = tmp_path_factory.mktemp("memory-template") / "home"
    summary = ok_json(base_env(home, models_dir), "ingest", str(CORPUS))
    assert summary["failed"] == 0 and summary["added"] == PAGES, summary
    return home


@pytest.fixture
def env(template: Path, tmp_path: Path, models_dir: Path) -> dict[str, str]:
    """This test's own copy of the template home."""
    home = tmp_path / "home"
    shutil.copytree(template, home)
    return base_env(home, models_dir)


def edited_corpus(folder: Path, page: int, old: str, new: str, base: Path = CORPUS) -> Path:
    """A copy of the corpus folder `base` in `folder` with one page's text edited (old → new, exactly once)."""
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(base, folder)
    path = folder / FILING
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    row = next(r for r in rows if r["page"] == page)
    assert row["text"].count(old) == 1, (page, old)
    row["text"] = row["text"].replace(old, new)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return folder


# --- 1. a correction supersedes, and the answer uses it -------------------------------------------------------


def test_correction_supersedes_and_is_used(env: dict[str, str]) -> None:
    user = ("--user", "ann")
    first = ask(env, REVENUE_Q, *user)
    thread = first["thread_id"]
    on = ("--thread", thread, *user)
    assert first["status"] == "answered" and REVENUE_2024 in first["answer"]
    assert sources(first) == [STATEMENT_PAGE] and first["cache_hit"] is False

    noted = ask(env, "Actually, Ternline's FY2024 revenue was $4,600m.", *on)
    assert noted["status"] == "noted" and "$4,600m" in noted["answer"]
    [cite] = noted["citations"]
    old_id = cite["source_id"].removeprefix("memory:")
    assert cite["source_id"].startswith("memory:") and old_id

    used = ask(env, REVENUE_Q, *on)
    assert used["status"] == "answered" and used["cache_hit"] is False  # the kept record dropped the cached answer
    assert "$4,600m" in used["answer"] and "your figure" in used["answer"]
    assert REVENUE_2024 in used["answer"]  # the filing's figure is still stated, and cited
    assert set(sources(used)) == {f"memory:{old_id}", STATEMENT_PAGE}

    again = ask(env, "Correction: Ternline's FY2024 revenue was $4,700m.", *on)
    assert again["status"] == "noted" and "$4,700m" in again["answer"]
    new_id = again["citations"][0]["source_id"].removeprefix("memory:")
    assert new_id != old_id

    last = ask(env, REVENUE_Q, *on)
    assert "$4,700m" in last["answer"] and "$4,600m" not in last["answer"]
    assert set(sources(last)) == {f"memory:{new_id}", STATEMENT_PAGE}

    # A calculation uses the corrected figure too ($4,700m as 4,700,000 under the statement's thousands), and
    # cites the user's statement for it: (4,700,000 - 4,047,550) / 4,047,550 = 16.12%, not the filing's 10.18%.
    growth = ask(env, "What was Ternline's revenue growth from FY2023 to FY2024?", *on)
    assert growth["status"] == "answered" and "16.12%" in growth["answer"] and "10.18%" not in growth["answer"]
    assert "The documents state" not in growth["answer"] and "your figure" in growth["answer"]
    [calc] = [c for c in growth["citations"] if c["source_id"] == "calculation"]
    mine = next(c["n"] for c in growth["citations"] if c["source_id"] == f"memory:{new_id}")
    assert f"[{mine}]" in calc["quote"] and "4700000" in calc["quote"]

    every = ok_json(env, "memory", "list", "--all", "--user", "ann")
    assert [r["id"] for r in every] == [old_id, new_id]
    for r in every:
        assert set(r) >= {"id", "key", "value", "type", "status", "scope", "source", "created_at", "supersedes"}
        assert r["type"] == "fact" and r["scope"] == "user" and r["user"] == "ann"
        assert r["source"].startswith(f"{thread}:") and r["created_at"]
    old, new = every
    assert old["key"] == new["key"] and "revenue" in new["key"]
    assert (old["value"], old["status"], old["supersedes"]) == ("$4,600m", "superseded", None)
    assert (new["value"], new["status"], new["supersedes"]) == ("$4,700m", "active", old_id)
    assert [r["id"] for r in ok_json(env, "memory", "list", "--user", "ann")] == [new_id]

    turns = ok_json(env, "trace", "--thread", thread)
    assert [t["status"] for t in turns] == ["answered", "noted", "answered", "noted", "answered", "answered"]
    assert [w["record_id"] for w in turns[1]["memory"]["written"]] == [old_id]
    [written] = turns[3]["memory"]["written"]
    assert written["record_id"] == new_id and written["supersedes"] == old_id and "correction" in written["rule"]
    manifest = turns[4]["manifest"]
    assert len([m for m in manifest if new_id in m["items"]]) == 1
    assert not [m for m in manifest if old_id in m["items"]]
    [admitted] = turns[4]["memory"]["admitted"]
    assert admitted["id"] == new_id and admitted["status"] == "active" and admitted["value"] == "$4,700m"
    assert admitted["rule"] and admitted["score"] > 0 and admitted["tokens"] > 0
    assert old_id not in {r["id"] for r in turns[4]["memory"]["refused"]}  # superseded: never even considered


# --- 2. the semantic cache: served to the same question only, dropped when a cited source changes ---------------


def test_cache_hits_misses_and_source_changes(env: dict[str, str], tmp_path: Path) -> None:
    a = ask(env, REVENUE_Q)
    assert a["status"] == "answered" and a["cache_hit"] is False and a["cached_at"] is None
    assert sources(a) == [STATEMENT_PAGE]  # the answer cites p5 only: p2 is unrelated to it

    b = ask(env, REVENUE_Q)
    assert b["thread_id"] != a["thread_id"]
    assert b["cache_hit"] is True and b["cached_at"] and b["cached_question"] == REVENUE_Q
    assert (b["answer"], b["citations"]) == (a["answer"], a["citations"])
    # A repeat on a new thread comes through the repeat door (the graph's hit path without its scheduler), is
    # recorded as one checkpoint of the respond node, and its trace is whole all the same.
    steps_a = ok_json(env, "replay", "--thread", a["thread_id"], "--list")
    steps_b = ok_json(env, "replay", "--thread", b["thread_id"], "--list")
    assert len(steps_a) > 5 and "repeat door" not in str(steps_a)
    assert [(s["node"], s["next"]) for s in steps_b] == [("respond (repeat door)", [])]
    traced = ok_json(env, "trace", "--thread", b["thread_id"])
    assert len(traced) == 1 and traced[0]["cache"]["hit"] is True and traced[0]["manifest"] == []

    fresh = ask(env, REVENUE_Q, "--no-cache")
    assert fresh["cache_hit"] is False and fresh["cached_at"] is None and fresh["answer"] == a["answer"]

    other_year = ask(env, "What was Ternline's revenue in FY2023?")
    assert other_year["cache_hit"] is False and REVENUE_2023 in other_year["answer"]

    other_user = ask(env, REVENUE_Q, "--user", "bob")
    assert other_user["cache_hit"] is False and other_user["answer"] == a["answer"]

    # An unrelated page changes (p2, table of contents): the cached answer cites only p5, so it is still served.
    unrelated = edited_corpus(tmp_path / "corpus", 2, "Item 15. Exhibits 88", "Item 15. Exhibits 89")
    summary = ok_json(env, "ingest", str(unrelated))
    assert summary["sources"]["updated"] == [CONTENTS_PAGE] and summary["unchanged"] == PAGES - 1, summary
    still = ask(env, REVENUE_Q)
    assert still["cache_hit"] is True and still["answer"] == a["answer"]

    # The cited page changes in another row (basic EPS 4.31 → 4.32; revenue untouched): no longer served.
    cited = edited_corpus(tmp_path / "corpus2", 5, " $ 4.31 ", " $ 4.32 ", base=unrelated)
    summary = ok_json(env, "ingest", str(cited))
    assert summary["sources"]["updated"] == [STATEMENT_PAGE] and summary["unchanged"] == PAGES - 1, summary
    after = ask(env, REVENUE_Q)
    assert after["cache_hit"] is False and after["cached_at"] is None
    assert REVENUE_2024 in after["answer"] and sources(after) == [STATEMENT_PAGE]


# --- 3. forget leaves no trace ----------------------------------------------------------------------------------


def test_forget_user_and_thread_leave_no_trace(env: dict[str, str]) -> None:
    env = {**env, "PROV_HISTORY_TURNS_VERBATIM": "1"}  # so the third turn archives the first
    home = Path(env["PROV_HOME"])
    marker, who = b"ZQX-7731-MARKER", ("--user", "marker-user")

    stated = ask(env, "My project code is ZQX-7731-MARKER.", *who)
    assert stated["status"] == "noted"
    mine = stated["thread_id"]
    asked = ask(env, f"{REVENUE_Q} ZQX-7731-MARKER", "--thread", mine, *who)
    assert asked["status"] == "answered"
    ask(env, "What was Ternline's net income in FY2024?", "--thread", mine, *who)
    theirs = ask(env, "What was Ternline's operating income in FY2024?", "--user", "other-user")["thread_id"]
    assert files_holding(home, marker)  # the scan does see the marker while it is there

    done = ok_json(env, "memory", "forget", *who)
    assert done["records"] == 1 and done["cached_answers"] >= 1 and done["archived_turns"] >= 1, done
    assert done["threads"] == 1, done
    assert files_holding(home, marker) == []
    assert files_holding(home, b"marker-user") == []
    assert thread_ids(env) == {theirs}
    assert ok_json(env, "memory", "list", "--all", *who) == []

    # --thread: one thread of a user goes, with its cached answers and archived turns; the user's other stays.
    # The other thread is asked first: a later one would keep a copy of the cache entries its lookup considered
    # (see test_forget_thread_erases_what_the_cache_showed_other_threads).
    thread_marker, tess = b"ZQX-8842-THREAD", ("--user", "tess")
    kept = ask(env, "What was Ternline's revenue in FY2023?", *tess)["thread_id"]
    gone = ask(env, f"{REVENUE_Q} ZQX-8842-THREAD", *tess)["thread_id"]
    for question in ("What was Ternline's net income in FY2024? ZQX-8842-THREAD",
                     "What was Ternline's operating income in FY2024?"):
        ask(env, question, "--thread", gone, *tess)
    assert files_holding(home, thread_marker)
    done = ok_json(env, "memory", "forget", "--thread", gone)
    assert done["cached_answers"] >= 2 and done["archived_turns"] >= 1 and done["threads"] == 1, done
    assert files_holding(home, thread_marker) == []
    assert thread_ids(env) == {theirs, kept}

    for args in ((), ("--user", "x", "--thread", "y")):
        bad = prov(env, "memory", "forget", *args)
        assert bad.returncode == 2, (args, bad.stderr)
        assert bad.stderr.strip().splitlines() == ["error: give exactly one of --user U or --thread T"]
    unknown = prov(env, "memory", "forget", "--thread", "t-no-such-thread")
    assert unknown.returncode == 2 and "unknown thread" in unknown.stderr and "Traceback" not in unknown.stderr
    assert thread_ids(env) == {theirs, kept}


def test_forget_thread_erases_what_was_stated_in_it(env: dict[str, str]) -> None:
    home = Path(env["PROV_HOME"])
    stated = ask(env, "My project code is ZQX-9953-STATED.", "--user", "sam")
    assert stated["status"] == "noted"
    done = ok_json(env, "memory", "forget", "--thread", stated["thread_id"])
    assert done["threads"] == 1 and stated["thread_id"] not in thread_ids(env)
    assert files_holding(home, b"ZQX-9953-STATED") == []


def test_forget_thread_erases_what_the_cache_showed_other_threads(env: dict[str, str]) -> None:
    home, tess = Path(env["PROV_HOME"]), ("--user", "tess")
    gone = ask(env, f"{REVENUE_Q} ZQX-6620-CACHED", *tess)["thread_id"]
    later = ask(env, "What was Ternline's revenue in FY2023?", *tess)  # refused the FY2024 entry: fiscal year
    assert later["cache_hit"] is False
    done = ok_json(env, "memory", "forget", "--thread", gone)
    assert done["cached_answers"] == 1 and done["threads"] == 1
    assert thread_ids(env) == {later["thread_id"]}
    assert files_holding(home, b"ZQX-6620-CACHED") == []


# --- 4. the per-turn trace and trace --diff; 5. a thread is its owner's --------------------------------------


def test_trace_turns_diff_and_thread_owner(env: dict[str, str]) -> None:
    alice = ("--user", "alice")
    questions = [REVENUE_Q, "And what about their net income?", "From now on, answer in millions."]
    thread = ask(env, questions[0], *alice)["thread_id"]
    for q in questions[1:]:
        ask(env, q, "--thread", thread, *alice)

    # 5: another user may not use alice's thread, to ask or to resume; nothing is added to it.
    for args in (("run", "What was Ternline's net income in FY2023?"), ("resume", "Ternline")):
        refused = prov(env, *args, "--thread", thread, "--user", "mallory")
        assert refused.returncode == 2, (args, refused.stderr)
        message = one_line(refused.stderr)
        assert message.startswith("error:") and "Traceback" not in message
        assert "belongs to user 'alice', not 'mallory'" in message and "--user alice" in message

    turns = ok_json(env, "trace", "--thread", thread)
    assert isinstance(turns, list) and len(turns) == 3
    assert [t["question"] for t in turns] == questions and [t["turn"] for t in turns] == [1, 2, 3]
    assert [t["status"] for t in turns] == ["answered", "answered", "noted"]
    for t in turns:
        assert set(t) >= {"question", "route", "funnel", "manifest", "memory", "citations"}
        assert set(t["memory"]) == {"admitted", "refused", "written", "not_written"}
        for m in t["manifest"]:
            assert m["block"] and m["producer"] and m["rule"] and isinstance(m["tokens"], int)
    for t in turns[:2]:  # answered questions: routed to retrieval, searched, a manifest, the filing cited
        assert t["route"]["needs_retrieval"] and t["funnel"]["evidence"] > 0
        blocks = [m["block"] for m in t["manifest"]]
        assert blocks[0] == "instructions" and blocks[-1] == "question"
        assert t["citations"] and all(c["source_id"].startswith("TERNLINE_2024_10K:p") for c in t["citations"])
        assert t["memory"]["written"] == [] and t["memory"]["not_written"]  # a question states nothing to keep
    assert "Ternline" in turns[1]["standalone_question"]  # the follow-up was resolved against turn 1
    [constraint] = turns[2]["memory"]["written"]  # the statement turn: nothing searched, one record kept
    assert constraint["type"] == "constraint" and turns[2]["funnel"] is None

    [second] = ok_json(env, "trace", "--thread", thread, "--turn", "2")
    assert second["turn"] == 2 and second["question"] == questions[1] and second == turns[1]
    # --prompt prints that turn's own prompt (turn 3 only stated something, so its prompt is empty)
    shown = prov(env, "trace", "--thread", thread, "--turn", "1", "--prompt")
    assert shown.returncode == 0 and "--- system ---" in shown.stdout and "<<<DATA" in shown.stdout
    beyond = prov(env, "trace", "--thread", thread, "--turn", "9", "--json")
    assert beyond.returncode == 2 and "3 turn(s)" in beyond.stderr and beyond.stdout == ""

    # --diff: the same two questions in two threads (cache off, so both run the graph) differ in nothing, not
    # even in prompt tokens; two other questions differ in what they are (a refusal is not an answer).
    dana = ("--user", "dana", "--no-cache")
    pair = [REVENUE_Q, "And what about their net income?"]
    ids = []
    for first, follow_up in (pair, pair, ("What was Ternline's operating income in FY2023?",
                                          "What is a good recipe for banana bread?")):
        t = ask(env, first, *dana)["thread_id"]
        ask(env, follow_up, "--thread", t, *dana)
        ids.append(t)
    same = ok_json(env, "trace", "--diff", ids[0], ids[1])
    assert [r["turn"] for r in same] == [1, 2]
    assert [r["question"] for r in same] == [[q, q] for q in pair]
    assert [r["differences"] for r in same] == [{}, {}]

    other = ok_json(env, "trace", "--diff", ids[0], "--diff", ids[2])
    assert [r["turn"] for r in other] == [1, 2]
    refusal = other[1]["differences"]
    assert refusal["status"] == ["answered", "refused"]
    assert refusal["route.is_out_of_scope"] == [False, True] and refusal["route.needs_retrieval"] == [True, False]
    assert refusal["citations"][1] == [] and refusal["citations"][0]
