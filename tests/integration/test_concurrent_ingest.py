"""Two `prov ingest` processes on one PROV_HOME at once: one waits for PROV_HOME's ingest lock (saying so on
stderr), both finish, and the knowledge base holds exactly the union, its catalog and its vectors in step."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock

from app.knowledge.base import INGEST_LOCK_FILE, KnowledgeBase
from app.settings import Settings
from tests import servers
from tests.conftest import REPO

pytestmark = pytest.mark.integration

WAITING = "waiting for another ingest on PROV_HOME"

CORPUS_A = {
    "harbour-ferries.md": "# Harbour Ferries\n\nHarbour Ferries carried 4.2 million passengers across the estuary "
                          "and ordered two hybrid-electric ferries.\n",
    "orchard-cider.md": "# Orchard Cider\n\nOrchard Cider pressed 18,000 tonnes of apples and opened a second "
                        "fermentation cellar.\n",
    "granite-quarry.md": "# Granite Quarry\n\nGranite Quarry extracted 950,000 tonnes of crushed stone for "
                         "motorway resurfacing.\n",
}
CORPUS_B = {
    "lighthouse-insurance.md": "# Lighthouse Insurance\n\nLighthouse Insurance wrote marine cargo premiums of "
                               "£310m and settled storm claims.\n",
    "velvet-looms.md": "# Velvet Looms\n\nVelvet Looms wove 2.3 million metres of upholstery fabric for railway "
                       "carriages.\n",
    "copper-kettle.md": "# Copper Kettle\n\nCopper Kettle opened forty tea rooms in market towns and sold a "
                        "record number of scones.\n",
}


def write(root: Path, docs: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    for name, text in docs.items():
        (root / name).write_text(text)
    return root


def environment(home: Path, models_dir: Path, chroma_url: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PROV_", "OPENAI_"))}
    env.update(PROV_HOME=str(home), PROV_MODELS_DIR=str(models_dir), HF_HUB_OFFLINE="1")
    if chroma_url:
        env["PROV_CHROMA_URL"] = chroma_url
    return env


class Ingest:
    """`prov ingest PATH --json` in its own process, its stderr in a file that can be read while it runs."""

    def __init__(self, env: dict[str, str], corpus: Path, log: Path) -> None:
        self.log = log
        self._err = log.open("w")
        self.proc = subprocess.Popen([sys.executable, "-m", "app.cli", "ingest", str(corpus), "--json"], env=env,
                                     cwd=REPO, stdout=subprocess.PIPE, stderr=self._err, text=True)
        self.summary: dict | None = None

    def stderr(self) -> str:
        return self.log.read_text()

    def finish(self) -> dict:
        out, _ = self.proc.communicate(timeout=600)
        self._err.close()
        assert self.proc.returncode == 0, self.stderr()
        assert "database is locked" not in self.stderr()
        self.summary = json.loads(out)
        return self.summary


def wait_until_waiting(ingests: list[Ingest], timeout_s: float = 300) -> None:
    deadline = time.time() + timeout_s
    while not all(WAITING in i.stderr() for i in ingests):
        for i in ingests:
            assert i.proc.poll() is None, f"ingest exited before waiting for the lock: {i.stderr()}"
        assert time.time() < deadline, [i.stderr() for i in ingests]
        time.sleep(0.2)


def kb_status(env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-m", "app.cli", "kb", "status", "--json"], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def knowledge_base(env: dict[str, str]) -> KnowledgeBase:
    return KnowledgeBase(Settings(home=Path(env["PROV_HOME"]), models_dir_override=Path(env["PROV_MODELS_DIR"]),
                                  chroma_url=env.get("PROV_CHROMA_URL")))


def initialised(env: dict[str, str]) -> dict[str, str]:
    """The home with its catalog created. Two processes creating a fresh home's catalog at once can race in
    SQLAlchemy's create_all (see test_two_first_ingests_on_a_fresh_home); the tests of the lock start after it."""
    knowledge_base(env)
    return env


def assert_holds_exactly(env: dict[str, str], docs: dict[str, str]) -> None:
    status = kb_status(env)
    assert status["sources"] == len(docs) and status["dead_letters"] == []
    kb = knowledge_base(env)
    assert sorted(Path(s).name for s in kb.catalog.source_hashes()) == sorted(docs)
    assert kb.collection.count() == kb.catalog.count_chunks() == status["chunks"]  # no vector missing or orphaned
    for name, text in docs.items():  # each document found by dense search, i.e. through its vectors
        query = text.split("\n\n")[1][:50]
        hits = kb.search(query, k=1, mode="dense").hits
        assert hits and hits[0].source_id.endswith(name), query


@pytest.fixture(params=["embedded", "chroma-server"])
def chroma_url(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """None (the embedded store under PROV_HOME), or a Chroma server of this test's own."""
    if request.param == "embedded":
        yield None
        return
    if not Path(servers.chroma_exe()).exists():
        pytest.skip("the Chroma server CLI is not installed")
    server = servers.start_chroma(tmp_path / "chroma-server")
    yield server.url
    server.stop()


def test_two_ingests_of_different_corpora_wait_in_turn_and_both_land(
        prov_home: Path, models_dir: Path, tmp_path: Path, chroma_url: str | None) -> None:
    env = initialised(environment(prov_home, models_dir, chroma_url))
    a, b = write(tmp_path / "a", CORPUS_A), write(tmp_path / "b", CORPUS_B)

    # Hold the lock until both have read their files and are waiting for it, so that they really contend.
    with FileLock(str(prov_home / INGEST_LOCK_FILE)):
        ingests = [Ingest(env, a, tmp_path / "a.log"), Ingest(env, b, tmp_path / "b.log")]
        wait_until_waiting(ingests)
    first, second = (i.finish() for i in ingests)

    assert first["added"] == len(CORPUS_A) and second["added"] == len(CORPUS_B)
    assert first["failed"] == second["failed"] == 0
    assert_holds_exactly(env, {**CORPUS_A, **CORPUS_B})


def test_two_ingests_of_the_same_corpus_started_together(prov_home: Path, models_dir: Path, tmp_path: Path) -> None:
    env = initialised(environment(prov_home, models_dir))
    corpus = write(tmp_path / "corpus", CORPUS_A)

    ingests = [Ingest(env, corpus, tmp_path / "one.log"), Ingest(env, corpus, tmp_path / "two.log")]
    summaries = [i.finish() for i in ingests]

    # whichever took the lock second found every source already committed
    assert sorted((s["added"], s["unchanged"]) for s in summaries) == [(0, 3), (3, 0)]
    assert_holds_exactly(env, CORPUS_A)


def test_two_first_ingests_on_a_fresh_home(prov_home: Path, models_dir: Path, tmp_path: Path) -> None:
    """Both processes create the new home's catalog at once (its tables are created under a file lock)."""
    env = environment(prov_home, models_dir)
    a, b = write(tmp_path / "a", CORPUS_A), write(tmp_path / "b", CORPUS_B)

    ingests = [Ingest(env, a, tmp_path / "a.log"), Ingest(env, b, tmp_path / "b.log")]
    for ingest in ingests:
        ingest.finish()

    assert_holds_exactly(env, {**CORPUS_A, **CORPUS_B})


def test_two_homes_on_one_chroma_server_keep_their_own_vectors(models_dir: Path, tmp_path: Path) -> None:
    """Each knowledge base has its own database on the server, so one home's orphan sweep cannot reach the other's
    vectors."""
    if not Path(servers.chroma_exe()).exists():
        pytest.skip("the Chroma server CLI is not installed")
    server = servers.start_chroma(tmp_path / "chroma-server")
    try:
        one = environment(tmp_path / "home-one", models_dir, server.url)
        two = environment(tmp_path / "home-two", models_dir, server.url)
        knowledge_base(one).ingest([write(tmp_path / "a", CORPUS_A)])
        knowledge_base(two).ingest([write(tmp_path / "b", CORPUS_B)])
        kb = knowledge_base(one)
        hits = kb.search(CORPUS_A["orchard-cider.md"].split("\n\n")[1][:50], k=1, mode="dense").hits
        assert hits and hits[0].source_id.endswith("orchard-cider.md")
    finally:
        server.stop()
