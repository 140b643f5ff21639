"""Crash safety of a conversation turn: a turn killed with SIGKILL at a node (or at a random moment) is found
`interrupted` by `prov threads`, blocks `prov run --thread`, and `prov resume --thread` finishes it with the
answer an uncrashed thread gets; the thread's history then holds every turn once, and its checkpoints form a
consistent list. Against SQLite and PostgreSQL.

Every trial runs on a thread of its own that already has one or two completed turns. The killed process is
tests/integration/turn_driver.py (`turn --kill-at NODE`), which invokes the supervisor graph as `Runtime.run`
does, with a callback that SIGKILLs its own process when the node starts (or ends, after its side effects and
before its writes are saved); the retrieval and calculator subgraphs' nodes are killed the same way. Timer
trials kill a turn from outside at a random delay, to land inside checkpoint writes too. Every process is forked
from one fork server (turn_driver `serve`), so that ~250 processes fit in a few minutes on two cores; each is a
process of its own, with its own connections, killed or exiting on its own.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.conftest import REPO
from tests.integration.corpus_home import ingested_home
from tests.integration.turn_driver import Done, ForkServer

pytestmark = pytest.mark.integration

CORPUS = REPO / "examples" / "corpus"
CORPUS_SOURCES = 41
BANANA = "What is a good recipe for banana bread?"
AMBIGUOUS = "What was their revenue?"
REPLY = "Helio Renewables, FY2024"


@dataclass(frozen=True)
class Scenario:
    prior: tuple[dict[str, str], ...]  # the thread's turns before the trial ({"question": Q} or {"reply": R})
    trial: dict[str, str]  # the turn that is killed
    final_reply: str | None = None  # the reply the trial turn's clarification gets, once it is finished


SCENARIOS = {
    # one company: the retrieval subgraph with one search branch
    "single": Scenario(({"question": "What was Northwind Logistics' revenue in FY2024?"},),
                       {"question": "What was Helio Renewables' operating margin in FY2024?"}),
    # two companies and a calculation: two search branches, then the calculator subgraph's ReAct loop
    "calc": Scenario(({"question": "What was Helio Renewables' revenue in FY2024?"},),
                     {"question": "What was the difference in FY2024 operating margin between Northwind and Helio?"}),
    # a follow-up resolved against the two turns before it (compress_history, enrich)
    "followup": Scenario(({"question": "What was Copperleaf Foods' revenue in FY2024?"},
                          {"question": "What was Copperleaf Foods' net income in FY2024?"}),
                         {"question": "And what about their operating margin?"}),
    # a question that needs a clarification (the turn ends in a durable interrupt), answered afterwards
    "clarify": Scenario(({"question": BANANA},), {"question": AMBIGUOUS}, final_reply=REPLY),
    # the reply to a waiting clarification, killed on its way to the answer
    "reply": Scenario(({"question": BANANA}, {"question": AMBIGUOUS}), {"reply": REPLY}),
}


@dataclass(frozen=True)
class Kill:
    scenario: str
    node: str | None  # None: killed from outside, at `delay` of the uncrashed turn's duration
    nth: int = 1
    on: str = "start"
    delay: float = 0.0

    @property
    def label(self) -> str:
        if self.node is None:
            return f"{self.scenario}@{self.delay:.2f}T"
        return f"{self.scenario}:{self.node}" + (f"#{self.nth}" if self.nth > 1 else "") + \
            (":end" if self.on == "end" else "")


def timer_kills(scenario: str, count: int, seed: int) -> list[Kill]:
    rng = random.Random(seed)
    return [Kill(scenario, None, delay=round(rng.uniform(0.25, 1.0), 2)) for _ in range(count)]


SEED = int(os.environ.get("PROV_CRASH_SEED", "20261130"))

# Spread over the supervisor's nodes, the retrieval subgraph's and the calculator's; a node killed at its end has
# done its work (and any side effect) but its writes are not saved.
SQLITE_PLAN = [
    Kill("single", "intake"), Kill("single", "compress_history"), Kill("single", "route"),
    Kill("single", "start_retrieval"), Kill("single", "grade_documents"), Kill("single", "draft_and_verify"),
    Kill("single", "join"), Kill("single", "assemble"), Kill("single", "validate_citations"),
    Kill("single", "write_memory"),
    Kill("calc", "enrich"), Kill("calc", "read_memory"), Kill("calc", "search_company", nth=2),
    Kill("calc", "fetch_inputs"), Kill("calc", "finish_retrieval", on="end"), Kill("calc", "prepare_calculation"),
    Kill("calc", "start_calculation"), Kill("calc", "tools"), Kill("calc", "call_model", nth=2),
    Kill("calc", "finish_calculation"), Kill("calc", "generate"), Kill("calc", "remember"), Kill("calc", "respond"),
    Kill("followup", "find_memory_answer"), Kill("followup", "cache_lookup"), Kill("followup", "plan_queries"),
    Kill("followup", "generate", on="end"),
    Kill("clarify", "route", on="end"), Kill("clarify", "clarify"),
    Kill("reply", "clarify"), Kill("reply", "enrich"), Kill("reply", "search_company"),
    *timer_kills("calc", 3, SEED),
]
POSTGRES_PLAN = [
    Kill("single", "compress_history"), Kill("calc", "grade_documents"), Kill("calc", "tools"),
    Kill("followup", "assemble", on="end"), Kill("reply", "generate"), *timer_kills("calc", 1, SEED + 1),
]
# The nodes every run of the plan must reach, whatever else the graph gains: the supervisor's own, the retrieval
# subgraph's and the calculator's.
REQUIRED_NODES = {"intake", "compress_history", "enrich", "route", "join", "assemble", "generate",
                  "validate_citations", "remember", "write_memory", "respond", "start_retrieval", "search_company",
                  "grade_documents", "draft_and_verify", "start_calculation", "call_model", "tools"}


# --- fixtures ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_env(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, str]:
    """A PROV_HOME with the sample corpus ingested (by `prov ingest`), shared by the module's trials."""
    return ingested_home(tmp_path_factory.mktemp("crash-home"), models_dir, CORPUS, CORPUS_SOURCES)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, base_env: dict[str, str]) -> Iterator[ForkServer]:
    fork = ForkServer(tmp_path_factory.mktemp("crash-procs"), base_env)
    yield fork
    fork.close()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, base_env: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The environment of one backend: checkpoints in PROV_HOME's SQLite file, or in a fresh PostgreSQL
    database (PROV_CHECKPOINT_URL; memory and cache follow it there)."""
    if request.param == "sqlite":
        return "sqlite", dict(base_env)
    return "postgres", {**base_env, "PROV_CHECKPOINT_URL": request.getfixturevalue("postgres_url")}


# --- the trials ---------------------------------------------------------------------------------------------------


@dataclass
class Reference:
    """The scenario on an uncrashed thread: what the trial turn passes through and answers."""

    thread: str
    user: str
    nodes: list[str]
    seconds: float
    result: dict[str, Any]  # the trial turn's result (after the final reply, if the scenario has one)
    before: list[str]  # the thread's questions before the trial turn, as `prov trace` lists them
    after: list[str]  # … and after it


@dataclass
class Trial:
    kill: Kill
    thread: str
    user: str
    outcome: str = ""
    problems: list[str] = field(default_factory=list)


def questions(done: Done) -> list[str]:
    assert done.rc == 0, done.stderr
    return [t["question"] for t in done.json()]


def prepare(server: ForkServer, env: dict[str, str], tmp: Path, plan: list[Kill]) -> tuple[dict, list[Trial]]:
    """The prior turns of every reference thread and every trial thread, in one process."""
    spec = {f"ref-{name}": {"user": f"u-ref-{name}", "turns": list(SCENARIOS[name].prior)}
            for name in sorted({k.scenario for k in plan})}
    spec.update({f"trial-{i}": {"user": f"u-trial-{i}", "turns": list(SCENARIOS[k.scenario].prior)}
                 for i, k in enumerate(plan)})
    (tmp / "spec.json").write_text(json.dumps(spec))
    done = server.run(["prepare", str(tmp / "spec.json")], env, timeout=900)
    assert done.rc == 0, done.stderr[-3000:]
    made = done.json()
    for label, item in made.items():
        statuses = [r["status"] for r in item["results"]]
        assert statuses and all(s in ("answered", "refused", "clarification") for s in statuses), (label, statuses)
    trials = [Trial(k, made[f"trial-{i}"]["thread"], f"u-trial-{i}") for i, k in enumerate(plan)]
    return made, trials


def turn_args(scenario: Scenario, thread: str, user: str) -> list[str]:
    what = ["--reply", scenario.trial["reply"]] if "reply" in scenario.trial else ["--question",
                                                                                   scenario.trial["question"]]
    return ["turn", "--thread", thread, "--user", user, *what]


def references(server: ForkServer, env: dict[str, str], tmp: Path, made: dict) -> dict[str, Reference]:
    refs = {}
    for label, item in made.items():
        if not label.startswith("ref-"):
            continue
        name, thread, user = label.removeprefix("ref-"), item["thread"], f"u-{label}"
        scenario = SCENARIOS[name]
        before = questions(server.prov(env, "trace", "--thread", thread, "--json"))
        log = tmp / f"{label}.nodes"
        started = time.monotonic()
        done = server.run([*turn_args(scenario, thread, user), "--nodes", str(log)], env)
        seconds = time.monotonic() - started
        assert done.rc == 0, done.stderr[-3000:]
        result = done.json()
        if scenario.final_reply:
            assert result["status"] == "clarification", result
            replied = server.prov(env, "resume", "--thread", thread, "--user", user, scenario.final_reply, "--json")
            assert replied.rc == 0, replied.stderr
            result = replied.json()
        after = questions(server.prov(env, "trace", "--thread", thread, "--json"))
        refs[name] = Reference(thread, user, log.read_text().split(), seconds, result, before, after)
    return refs


def check_plan(plan: list[Kill], refs: dict[str, Reference]) -> None:
    """Every kill names a node its scenario passes (as often as `nth`); together they reach the required nodes."""
    for kill in plan:
        if kill.node is not None:
            seen = refs[kill.scenario].nodes.count(kill.node)
            assert seen >= kill.nth, (f"{kill.label}: the uncrashed turn starts {kill.node} {seen} time(s); "
                                      f"its nodes: {refs[kill.scenario].nodes}")


def kill_turn(server: ForkServer, env: dict[str, str], trial: Trial, refs: dict[str, Reference]) -> None:
    kill, scenario = trial.kill, SCENARIOS[trial.kill.scenario]
    args = turn_args(scenario, trial.thread, trial.user)
    if kill.node is not None:
        done = server.run([*args, "--kill-at", kill.node, "--nth", str(kill.nth), "--on", kill.on], env)
        if done.rc != -signal.SIGKILL:
            trial.problems.append(f"the turn was not killed at {kill.node} (exit {done.rc}): {done.stderr[-800:]}")
        return
    child = server.spawn(args, env)
    time.sleep(kill.delay * refs[kill.scenario].seconds)
    os.kill(child.pid, signal.SIGKILL)  # the child is not reaped before the wait below, so its pid is still its own
    done = server.wait(child)
    if done.rc not in (0, -signal.SIGKILL):
        trial.problems.append(f"the turn failed on its own (exit {done.rc}): {done.stderr[-800:]}")
    trial.outcome = "finished before the timer" if done.rc == 0 else ""


def finish_and_check(server: ForkServer, env: dict[str, str], trial: Trial, row: dict[str, Any] | None,
                     ref: Reference) -> None:
    """What the CLI says of the killed turn, then the turn finished, then the thread compared with the reference."""
    scenario, t, u = SCENARIOS[trial.kill.scenario], trial.thread, trial.user
    fail = trial.problems.append
    if row is None:
        fail("prov threads does not list the thread")
        return
    rows = server.prov(env, "replay", "--thread", t, "--list", "--json").json()
    last_next = rows[-1]["next"]
    history = questions(server.prov(env, "trace", "--thread", t, "--json"))
    status = row["status"]
    finished: Done | None = None

    if status == "interrupted":
        trial.outcome = trial.outcome or f"interrupted at {row['stopped_at']}"
        if not row["stopped_at"]:
            fail(f"interrupted without stopped_at: {row}")
        if last_next == []:
            fail(f"prov threads says interrupted but the last checkpoint has nothing to run: {rows[-1]}")
        blocked = server.prov(env, "run", "--thread", t, "--user", u, "What was Helio Renewables' revenue?")
        if blocked.rc != 2 or "cut off" not in blocked.stderr:
            fail(f"prov run --thread on the cut-off turn: exit {blocked.rc}, {blocked.stderr.strip()[-300:]}")
        finished = server.prov(env, "resume", "--thread", t, "--user", u, "--json")
    elif status == "clarification" and last_next == ["clarify"] and "reply" in scenario.trial:
        # The reply never reached the disk: the thread still waits for it, and gets it again.
        trial.outcome = "reply not saved: still waiting"
        finished = server.prov(env, "resume", "--thread", t, "--user", u, scenario.trial["reply"], "--json")
    elif last_next and not (status == "clarification" and last_next == ["clarify"]):
        fail(f"prov threads shows {status!r} (stopped_at {row['stopped_at']}) but the last checkpoint still runs "
             f"{last_next}: the cut-off turn looks finished")
        return
    elif history == ref.before and "question" in scenario.trial:
        # Killed before the turn's first checkpoint reached the disk: no trace of it; asking again runs it.
        trial.outcome = "nothing saved: asked again"
        finished = server.prov(env, "run", "--thread", t, "--user", u, scenario.trial["question"], "--json")
    elif history == ref.after or (scenario.final_reply and status == "clarification"):
        trial.outcome = trial.outcome or "killed after the last checkpoint"
        again = server.prov(env, "resume", "--thread", t, "--user", u)
        if again.rc != 2:
            fail(f"prov resume on a finished turn: exit {again.rc}, {again.stderr.strip()[-300:]}")
        if scenario.final_reply:
            finished = server.prov(env, "resume", "--thread", t, "--user", u, scenario.final_reply, "--json")
    else:
        fail(f"status {status!r} with history {history} matches neither {ref.before} nor {ref.after}")
        return

    if finished is not None:
        if finished.rc == 3 and scenario.final_reply:
            finished = server.prov(env, "resume", "--thread", t, "--user", u, scenario.final_reply, "--json")
        if finished.rc != 0:
            fail(f"finishing the turn: exit {finished.rc}, {finished.stderr.strip()[-500:]}")
            return
        compare_results(trial, finished.json(), ref.result)

    history = questions(server.prov(env, "trace", "--thread", t, "--json"))
    if history != ref.after:
        fail(f"history {history} != the uncrashed thread's {ref.after}")
    check_checkpoints(trial, server.prov(env, "replay", "--thread", t, "--list", "--json").json())


def compare_results(trial: Trial, got: dict[str, Any], want: dict[str, Any]) -> None:
    if got["status"] != want["status"]:
        trial.problems.append(f"status {got['status']!r} != {want['status']!r}")
    sources = sorted({c["source_id"] for c in got["citations"]})
    if sources != sorted({c["source_id"] for c in want["citations"]}):
        trial.problems.append(f"cited sources {sources} != {sorted({c['source_id'] for c in want['citations']})}")
    if got["answer"] != want["answer"]:
        trial.problems.append(f"answer {got['answer']!r} != the uncrashed {want['answer']!r}")


def check_checkpoints(trial: Trial, rows: list[dict[str, Any]]) -> None:
    steps = [r["step"] for r in rows]
    ids = [r["checkpoint_id"] for r in rows]
    if any(b <= a for a, b in zip(steps, steps[1:])):
        trial.problems.append(f"checkpoint steps not increasing: {steps}")
    if len(set(ids)) != len(ids):
        trial.problems.append("a checkpoint id appears twice")
    if rows[-1]["next"]:
        trial.problems.append(f"the last checkpoint still runs {rows[-1]['next']}")


def run_trials(server: ForkServer, env: dict[str, str], tmp: Path, plan: list[Kill]) -> list[Trial]:
    made, trials = prepare(server, env, tmp, plan)
    refs = references(server, env, tmp, made)
    check_plan(plan, refs)
    for trial in trials:
        kill_turn(server, env, trial, refs)
    listed = {r["thread_id"]: r for r in server.prov(env, "threads", "--json").json()}
    for trial in trials:
        if not trial.problems:
            finish_and_check(server, env, trial, listed.get(trial.thread), refs[trial.kill.scenario])
    return trials


def report(trials: list[Trial]) -> str:
    lines = []
    for t in trials:
        state = "FAIL" if t.problems else "ok"
        lines.append(f"{state:9} {t.kill.label:38} {t.outcome}")
        lines.extend(f"          - {p}" for p in t.problems)
    return "\n".join(lines)


def test_a_killed_turn_is_finished_by_resume(backend: tuple[str, dict[str, str]], server: ForkServer,
                                             tmp_path: Path) -> None:
    name, env = backend
    plan = SQLITE_PLAN if name == "sqlite" else POSTGRES_PLAN
    trials = run_trials(server, env, tmp_path, plan)
    summary = report(trials)
    print(f"\n{name}: {len(trials)} trials (seed {SEED})\n{summary}")
    assert not any(t.problems for t in trials), summary
    if name == "sqlite":
        killed = {t.kill.node for t in trials if t.kill.node}
        assert len(trials) >= 20 and REQUIRED_NODES <= killed, REQUIRED_NODES - killed


MEMORY_CASES = {
    # killed right after the write, before the step's writes were saved: write_memory runs again from the same
    # checkpoint
    "statement": ("I cover Helio Renewables for my fund.", "write_memory", "end"),
    # killed at the last step of a long turn: LangGraph saves checkpoints in the background, and those of the last
    # few steps were not saved yet, so resume runs write_memory again from an earlier checkpoint, under new ids
    "statement and question": ("I cover Helio Renewables for my fund. What was Helio Renewables' revenue in FY2024?",
                               "respond", "start"),
}


@pytest.mark.parametrize("case", list(MEMORY_CASES))
def test_a_memory_write_is_not_repeated_by_resume(case: str, server: ForkServer, base_env: dict[str, str]) -> None:
    """A turn that wrote a memory record and was killed before its checkpoint caught up is resumed: the record is
    written once (not a second one superseding the first), and the answer is the uncrashed thread's."""
    memory_case(case, server, base_env)


def memory_case(case: str, server: ForkServer, base_env: dict[str, str]) -> None:
    question, node, on = MEMORY_CASES[case]
    label = case.replace(" ", "-")
    prior = {"question": "What was Northwind Logistics' revenue in FY2024?"}
    users = {"ref": f"u-mem-ref-{label}", "trial": f"u-mem-trial-{label}"}
    spec = Path(server.workdir / f"memory-{label}.json")
    spec.write_text(json.dumps({"ref": {"user": users["ref"], "turns": [prior, {"question": question}]},
                                "trial": {"user": users["trial"], "turns": [prior]}}))
    made = server.run(["prepare", str(spec)], base_env).json()
    want = made["ref"]["results"][-1]
    thread = made["trial"]["thread"]
    killed = server.run(["turn", "--thread", thread, "--user", users["trial"], "--question", question,
                         "--kill-at", node, "--on", on], base_env)
    assert killed.rc == -signal.SIGKILL, killed.stderr
    row = {r["thread_id"]: r for r in server.prov(base_env, "threads", "--json").json()}[thread]
    if row["status"] == "interrupted":
        finished = server.prov(base_env, "resume", "--thread", thread, "--user", users["trial"], "--json")
    else:  # not one checkpoint of the turn reached the disk: the user asks again
        finished = server.prov(base_env, "run", "--thread", thread, "--user", users["trial"], question, "--json")
    assert finished.rc == 0, finished.stderr
    records = {who: server.prov(base_env, "memory", "list", "--user", u, "--all", "--json").json()
               for who, u in users.items()}
    assert len(records["ref"]) == 1, records["ref"]
    assert len(records["trial"]) == 1, (row, records["trial"])
    assert finished.json()["answer"] == want["answer"]


def test_a_database_cut_off_in_a_wal_checkpoint_is_not_called_truncated(tmp_path: Path) -> None:
    """A WAL checkpoint copies the log's pages into the database file in page order, page 1 (whose header holds the
    page count) first; killed midway, it leaves a file shorter than its header says, which SQLite completes from
    the -wal file on the next open. Built here by hand: the database and its log as a writer left them, then
    page 1 from the log written over the file's, as the checkpoint's first write. SQLite reads every row of it;
    Prov must open it too, not call it truncated."""
    from app.errors import sqlite_problem

    live = tmp_path / "live.sqlite"
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.execute("INSERT INTO t VALUES ('first')")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA wal_autocheckpoint=0")  # the next pages stay in the log
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 500)
    conn.commit()
    cut = tmp_path / "cut"
    cut.mkdir()
    for suffix in ("", "-wal"):  # the files as they are on disk while the writer still has them open
        shutil.copy(f"{live}{suffix}", cut / f"db.sqlite{suffix}")
    conn.close()
    log = (cut / "db.sqlite-wal").read_bytes()
    page_size = int.from_bytes(log[8:12], "big")
    frames = range(32, len(log), 24 + page_size)  # a 32-byte log header, then frames of a 24-byte header and a page
    page1 = [log[at + 24:at + 24 + page_size] for at in frames if int.from_bytes(log[at:at + 4], "big") == 1][-1]
    with open(cut / "db.sqlite", "r+b") as fh:
        fh.write(page1)
    probe = tmp_path / "probe"  # SQLite's own reading, on a copy (opening it completes the checkpoint)
    shutil.copytree(cut, probe)
    with sqlite3.connect(probe / "db.sqlite") as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert check.execute("SELECT COUNT(*) FROM t").fetchone() == (501,)
    assert sqlite_problem(cut / "db.sqlite") is None
