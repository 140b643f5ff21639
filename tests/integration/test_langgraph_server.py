"""Prov's supervisor graph served by LangGraph's own API server (`langgraph dev`, in memory) and driven over HTTP
with langgraph-sdk: a question answered, then a clarification interrupt resumed with the user's reply.

The server runs as a subprocess on loopback, offline, with its analytics, version check and tracing off, on a
PROV_HOME with two filings ingested. It runs in a folder of its own, with a copy of langgraph.json whose paths
point back at this repository and which names no `.env`: its in-memory store (`.langgraph_api/`) is written there,
not into the working tree, and a developer's `.env` cannot change what the test serves.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import REPO
from tests.integration.corpus_home import ingested_home
from tests.servers import stop_process

pytestmark = pytest.mark.integration

FILINGS = ("northwind-logistics-annual-report-fy2024.md", "helio-renewables-annual-report-fy2024.md")
LANGGRAPH = Path(sys.executable).with_name("langgraph")
STARTUP_S = 120  # it is up in a few seconds here; CI machines under load are slower
RUN_S = 240  # one turn, offline models; the first also loads the embedder
QUIET = {  # nothing phones home: CLI analytics, the PyPI version check, LangSmith tracing
    "LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGGRAPH_NO_VERSION_CHECK": "true", "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
}


@pytest.fixture(scope="module")
def home_env(tmp_path_factory: pytest.TempPathFactory, models_dir: Path) -> dict[str, str]:
    corpus = tmp_path_factory.mktemp("served-corpus") / "reports"
    corpus.mkdir()
    for name in FILINGS:
        shutil.copy(REPO / "examples" / "corpus" / "reports" / name, corpus / name)
    return ingested_home(tmp_path_factory.mktemp("served-home"), models_dir, corpus.parent, len(FILINGS))


def served_config(folder: Path) -> Path:
    """langgraph.json with its paths made absolute and without its `env` file."""
    config = json.loads((REPO / "langgraph.json").read_text())
    path, factory = config["graphs"]["prov"].rsplit(":", 1)
    config["graphs"]["prov"] = f"{(REPO / path).resolve()}:{factory}"
    config["dependencies"] = [str((REPO / dep).resolve()) for dep in config["dependencies"]]
    config.pop("env", None)
    target = folder / "langgraph.json"
    target.write_text(json.dumps(config))
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def log_tail(log: Path, lines: int = 40) -> str:
    text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace")) if log.exists() else ""
    return "\n".join(text.splitlines()[-lines:])


def wait_until_healthy(proc: subprocess.Popen[bytes], port: int, log: Path) -> str:
    """The server's URL once GET /ok answers; a clear failure, with the log's tail, if it exits or never does."""
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited with {proc.returncode} before it was healthy:\n{log_tail(log)}")
        moved = re.search(r"already in use, using port (\d+)", log.read_text(errors="replace"))
        url = f"http://127.0.0.1:{moved.group(1) if moved else port}"
        try:
            if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                return url
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    pytest.fail(f"langgraph dev was not healthy within {STARTUP_S}s:\n{log_tail(log)}")


@dataclass
class Served:
    url: str
    log: Path

    def errors(self) -> list[str]:
        return [line for line in log_tail(self.log, 100_000).splitlines() if "[error" in line]


@contextmanager
def serve(home_env: dict[str, str], folder: Path, **extra_env: str) -> Iterator[Served]:
    """`langgraph dev` on loopback in `folder`, healthy, stopped on the way out."""
    if not LANGGRAPH.exists():
        pytest.fail(f"{LANGGRAPH} is missing: install the test extra (pip install -e '.[test]')")
    config, log, port = served_config(folder), folder / "server.log", free_port()
    environ = {k: v for k, v in home_env.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_", "LANGGRAPH_"))}
    environ.update(QUIET, PROV_PROVIDER="offline", CI="true", **extra_env)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(LANGGRAPH), "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port),
             "--config", str(config)],
            cwd=folder, env=environ, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield Served(wait_until_healthy(proc, port, log), log)
    finally:
        stop_process(proc, 15)


@pytest.fixture(scope="module")
def server(home_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with serve(home_env, tmp_path_factory.mktemp("langgraph-server")) as served:
        yield served
    assert not served.errors(), "the server logged errors:\n" + "\n".join(served.errors()[:10])


@pytest.fixture(scope="module")
def client(server: Served) -> Any:
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=server.url, timeout=httpx.Timeout(RUN_S, connect=10))


def run(client: Any, server: Served, thread_id: str, **payload: Any) -> Any:
    """One run on the `prov` assistant, waited for; a failed run fails the test with the server's errors."""
    try:
        return client.runs.wait(thread_id, "prov", **payload)
    except Exception as exc:  # the SDK raises a bare Exception for a run that failed in the graph
        pytest.fail(f"the run failed: {exc}\nserver errors:\n" + "\n".join(server.errors()[-5:]))


def ask(client: Any, server: Served, thread_id: str, question: str) -> Any:
    return run(client, server, thread_id,
               input={"question": question, "user": "ann", "thread": thread_id, "use_cache": False})


def cited_numbers(answer: str) -> set[int]:
    return {int(n) for n in re.findall(r"\[(\d+)\]", answer)}


def test_a_question_is_answered_with_citations(client: Any, server: Served) -> None:
    thread_id = client.threads.create()["thread_id"]
    output = ask(client, server, thread_id, "What was Northwind Logistics' revenue in FY2024?")
    state = client.threads.get_state(thread_id)
    assert state["next"] == [] and state["interrupts"] == []
    response = state["values"]["response"]
    assert output["response"] == response  # the run's output is the final state's response
    assert response["status"] == "answered", response
    assert "1,311.2" in response["answer"]
    assert cited_numbers(response["answer"]) == {c["n"] for c in response["citations"]} != set()
    assert all(c["source_id"].endswith(f"reports/{FILINGS[0]}") for c in response["citations"])


def test_a_clarification_interrupts_and_the_reply_resumes_it(client: Any, server: Served) -> None:
    thread_id = client.threads.create()["thread_id"]
    output = ask(client, server, thread_id, "What was their revenue?")
    waiting = client.threads.get_state(thread_id)
    assert waiting["next"] == ["clarify"]
    [pending] = waiting["interrupts"]
    assert [i["value"] for i in output["__interrupt__"]] == [pending["value"]]
    clarification = pending["value"]["question"]
    assert clarification.endswith("?") and "company" in clarification, clarification
    assert waiting["values"].get("response") is None

    run(client, server, thread_id, command={"resume": "Helio Renewables, FY2024"})
    done = client.threads.get_state(thread_id)
    assert done["next"] == [] and done["interrupts"] == []
    response = done["values"]["response"]
    assert response["status"] == "answered", response
    assert "Helio Renewables, FY2024" in response["question"] and "revenue" in response["question"]
    assert "949.3" in response["answer"] and "1,311.2" not in response["answer"]
    assert cited_numbers(response["answer"]) == {c["n"] for c in response["citations"]} != set()
    assert all(c["source_id"].endswith(f"reports/{FILINGS[1]}") for c in response["citations"])


@pytest.mark.xfail(strict=True, reason=(
    "under LANGGRAPH_STRICT_MSGPACK=true (the announced future default) the server blocks Prov's pydantic state "
    "types on load, so the resumed turn gets dicts ('dict' object has no attribute 'clarification_question'): "
    "langgraph-api 0.16 ignores langgraph.json's checkpointer.serde.allowed_msgpack_modules (langgraph#7695), and "
    "langgraph 1.2's Pregel.copy(), which the server calls on every graph it serves, drops the allowlist compile() "
    "derived from the state schema"))
def test_a_strict_msgpack_server_resumes_a_clarification(home_env: dict[str, str],
                                                          tmp_path_factory: pytest.TempPathFactory) -> None:
    from langgraph_sdk import get_sync_client

    with serve(home_env, tmp_path_factory.mktemp("strict-server"), LANGGRAPH_STRICT_MSGPACK="true") as served:
        client = get_sync_client(url=served.url, timeout=httpx.Timeout(RUN_S, connect=10))
        thread_id = client.threads.create()["thread_id"]
        ask(client, served, thread_id, "What was their revenue?")
        assert client.threads.get_state(thread_id)["next"] == ["clarify"]
        run(client, served, thread_id, command={"resume": "Northwind Logistics, FY2024"})
        response = client.threads.get_state(thread_id)["values"]["response"]
        assert response["status"] == "answered" and "1,311.2" in response["answer"], response
