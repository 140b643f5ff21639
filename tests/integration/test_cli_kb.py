"""`prov ingest`, `prov search`, `prov kb status` through Typer's CliRunner and in separate processes."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli import app
from tests.integration.test_knowledge_base import write_corpus

pytestmark = pytest.mark.integration
runner = CliRunner()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus")


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_ingest_json_summary_and_exit_codes(corpus: Path) -> None:
    result = run("ingest", str(corpus), "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["added"], summary["failed"]) == (4, 0)
    (corpus / "bad.bin.txt").write_bytes(b"\x00\x00")
    result = run("ingest", str(corpus), "--json")
    assert result.exit_code == 2
    summary = json.loads(result.stdout)
    assert (summary["unchanged"], summary["failed"]) == (4, 1)
    assert "binary" in summary["failures"][0]["reason"]


def test_ingest_rejects_bad_options_without_writing(corpus: Path, prov_home: Path) -> None:
    assert run("ingest", str(corpus), "--type", "memo").exit_code == 2
    assert run("ingest", str(corpus), "--year", "12").exit_code == 2
    missing = run("ingest", str(corpus / "nope"))
    assert missing.exit_code == 2 and "no such file" in " ".join(missing.output.split())
    assert not (prov_home / "chroma").exists()


def test_search_json_fields(corpus: Path) -> None:
    run("ingest", str(corpus))
    result = run("search", "Acme Rail dividend", "-k", "2", "--json")
    assert result.exit_code == 0, result.output
    hits = json.loads(result.stdout)
    assert len(hits) == 2
    for key in ("rank", "chunk_id", "source_id", "title", "page", "company", "score", "why", "text"):
        assert key in hits[0]
    assert hits[0]["rank"] == 1 and hits[0]["company"] == "Acme Rail"


def test_search_filters_and_modes(corpus: Path) -> None:
    run("ingest", str(corpus))
    result = run("search", "contract", "--type", "news", "--since", "2024-01-01", "--mode", "sparse", "--json")
    hits = json.loads(result.stdout)
    assert hits and all(h["doc_type"] == "news" for h in hits)
    assert run("search", "x", "--mode", "fuzzy").exit_code == 2
    assert run("search", "x", "--since", "last week").exit_code == 2
    assert run("search", "   ").exit_code == 2


def test_search_funnel_is_printed(corpus: Path) -> None:
    run("ingest", str(corpus))
    result = run("search", "Bravo storage revenue", "--funnel", "--json")
    data = json.loads(result.stdout)
    assert [s["step"] for s in data["funnel"]][-2:] == ["dedupe", "cap"]
    human = run("search", "Bravo storage revenue", "--funnel")
    assert human.exit_code == 0 and "dedupe" in human.output and "cap" in human.output


def test_batch_search_writes_one_line_per_query(corpus: Path, tmp_path: Path) -> None:
    run("ingest", str(corpus))
    queries = tmp_path / "q.jsonl"
    queries.write_text("\n".join(json.dumps(q) for q in [
        {"id": "a", "query": "Acme revenue"},
        {"id": "b", "query": "new chief executive", "company": "Bravo Solar"},
    ]))
    result = run("search", "--batch", str(queries), "-k", "2")
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert [x["id"] for x in lines] == ["a", "b"]
    assert all(h["company"] == "Bravo Solar" for h in lines[1]["results"])
    queries.write_text('{"id": 1}\n')
    bad = run("search", "--batch", str(queries))
    assert bad.exit_code == 2 and "q.jsonl:1" in bad.output


def test_kb_status_json(corpus: Path) -> None:
    run("ingest", str(corpus))
    status = json.loads(run("kb", "status", "--json").stdout)
    assert status["sources"] == 4 and status["by_type"] == {"report": 2, "news": 2}


def _prov(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, capture_output=True, text=True,
                          timeout=300, cwd=Path(__file__).resolve().parents[2])


def test_persistence_across_processes(corpus: Path) -> None:
    env = dict(os.environ)
    ingest = _prov("ingest", str(corpus), "--json", env=env)
    assert ingest.returncode == 0, ingest.stderr
    search = _prov("search", "£42m haulage contract", "-k", "1", "--json", env=env)
    assert search.returncode == 0, search.stderr
    assert json.loads(search.stdout)[0]["source_id"] == "news/acme-1"


def test_killed_ingest_leaves_sources_whole_and_the_next_run_finishes(tmp_path: Path, prov_home: Path) -> None:
    corpus = tmp_path / "many"
    corpus.mkdir()
    for i in range(40):
        body = " ".join(f"Unit {i} of Delta Freight reported sentence {j} with revenue of £{i}.{j}m." for j in range(60))
        (corpus / f"doc-{i:02d}.md").write_text(f"# Delta Freight note {i}\n\n{body}\n")
    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "ingest", str(corpus), "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=Path(__file__).resolve().parents[2])
    catalog = prov_home / "catalog.sqlite"
    deadline = time.time() + 240
    committed = 0
    while time.time() < deadline and proc.poll() is None:
        if catalog.exists():
            try:
                with sqlite3.connect(catalog) as conn:
                    committed = conn.execute("select count(*) from sources").fetchone()[0]
            except sqlite3.Error:
                committed = 0
            if committed >= 3:
                break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert committed >= 3
    with sqlite3.connect(catalog) as conn:
        rows = conn.execute("select s.source_id, s.n_chunks, count(c.chunk_id) from sources s "
                            "left join chunks c on c.source_id = s.source_id group by s.source_id").fetchall()
    assert rows and all(n == m for _, n, m in rows)  # no source half-written
    finish = _prov("ingest", str(corpus), "--json", env=env)
    assert finish.returncode == 0, finish.stderr
    summary = json.loads(finish.stdout)
    assert summary["added"] + summary["unchanged"] == 40 and summary["unchanged"] == len(rows)
    from app.knowledge.base import KnowledgeBase
    from app.settings import get_settings

    kb = KnowledgeBase(get_settings())
    assert set(kb.collection.get(include=[])["ids"]) == kb.catalog.chunk_ids()


def test_search_on_an_empty_knowledge_base_says_how_to_fill_it() -> None:
    result = run("search", "revenue")
    assert result.exit_code == 0 and "prov ingest" in " ".join(result.output.split())
    assert json.loads(run("search", "revenue", "--json").stdout) == []


@pytest.mark.parametrize("year", ["2024", "FY2024", "fy2024", "FY24"])
def test_ingest_accepts_fiscal_year_spellings(tmp_path: Path, year: str) -> None:
    note = tmp_path / "note.txt"
    note.write_text("Harbour Mining shipped more copper.")
    result = run("ingest", str(note), "--year", year, "--json")
    assert result.exit_code == 0, result.output
    from app.knowledge.catalog import Catalog
    from app.settings import get_settings

    assert [s["fiscal_year"] for s in Catalog(get_settings().catalog_path).list_sources()] == [2024]


@pytest.mark.parametrize("year", ["FY20x4", "24", "1700", "next year"])
def test_ingest_refuses_a_bad_year_with_a_clear_message(tmp_path: Path, prov_home: Path, year: str) -> None:
    note = tmp_path / "note.txt"
    note.write_text("Harbour Mining shipped more copper.")
    result = run("ingest", str(note), "--year", year)
    assert result.exit_code == 2
    assert "--year must be a fiscal year such as 2024, FY2024 or FY24" in " ".join(result.output.split())
    assert not (prov_home / "catalog.sqlite").exists()


def test_ingest_of_a_big_file_reports_progress_on_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.knowledge.base import KnowledgeBase
    from app.settings import get_settings
    from tests.integration.test_knowledge_base import WordHashEmbedder, ledger

    monkeypatch.setenv("PROV_CHUNK_TOKENS", "64")
    monkeypatch.setenv("PROV_CHUNK_OVERLAP", "0")
    get_settings.cache_clear()
    embedder = WordHashEmbedder()
    monkeypatch.setattr(KnowledgeBase, "embedder", property(lambda self: embedder))
    path = tmp_path / "ledger.md"
    path.write_text(ledger(900, "v1"))
    result = run("ingest", str(path))
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("embedded ")]
    total = int(lines[-1].split("/")[1].split()[0])
    assert total >= 200 and lines[-1] == f"embedded {total}/{total} chunks (100%)"
    assert 3 <= len(lines) <= 11  # a line per tenth, not one per slice
    assert "embedded" not in result.stdout
    quiet = run("ingest", str(tmp_path / "ledger.md"), "--json")  # --json stays machine-readable
    assert "embedded" not in quiet.output


def test_page_records_ingest_with_year_and_form_from_their_title(tmp_path: Path) -> None:
    records = tmp_path / "filings.jsonl"
    records.write_text("\n".join(json.dumps({
        "source_id": f"KESTREL_2019_10K:p{n}", "title": "KESTREL_2019_10K", "page": n, "company": "KESTREL",
        "doc_type": "report", "text": f"Page {n} of the annual report: store count rose."}) for n in (1, 2)) + "\n")
    assert run("ingest", str(records), "--json").exit_code == 0
    status = json.loads(run("kb", "status", "--json").stdout)
    assert status["sources"] == 2
    from app.knowledge.catalog import Catalog
    from app.settings import get_settings

    catalog = Catalog(get_settings().catalog_path)
    rows = catalog.list_sources()
    assert {(r["fiscal_year"], r["form"]) for r in rows} == {(2019, "10-K")}
    assert catalog.periods("Kestrel") == [(2019, None, "10-K")]
    hits = json.loads(run("search", "store count", "--company", "kestrel", "--json").stdout)
    assert hits and {h["page"] for h in hits} == {1, 2}


def test_a_query_that_is_not_plain_text_is_one_line_and_exit_2(corpus: Path, tmp_path: Path) -> None:
    run("ingest", str(corpus))
    for query in ("rev\udcffenue", "Acme \u202erevenue", "Acme\x1b[31m revenue"):
        result = run("search", query)
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    queries = tmp_path / "q.jsonl"
    queries.write_bytes(b'{"id": "a", "query": "Acme revenue"}\n{"id": "b", "query": "rev\xffenue"}\n')
    bad = run("search", "--batch", str(queries))
    assert bad.exit_code == 2 and "q.jsonl:2" in bad.output and "UTF-8" in bad.output
    assert '"results"' not in bad.output  # the whole file is read first: nothing searched before the bad line


def test_a_records_file_with_a_bad_line_ingests_its_good_records_and_names_the_line(tmp_path: Path) -> None:
    import os

    records = tmp_path / "items.jsonl"
    good = {"title": "Acme update", "company": "Acme", "doc_type": "news", "published_at": "2024-01-02"}
    records.write_text("\n".join([json.dumps({**good, "source_id": "n1", "text": "Acme opened a plant."}), "{oops",
                                  json.dumps({**good, "source_id": "n2", "text": "Acme hired 40 staff."})]) + "\n")
    result = run("ingest", str(records), "--json")
    summary = json.loads(result.stdout)
    assert result.exit_code == 2 and summary["added"] == 2
    assert [f["path"].endswith("items.jsonl (line 2)") for f in summary["failures"]] == [True]
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    piped = run("ingest", str(fifo))
    assert piped.exit_code == 2 and "not a regular file (a FIFO)" in piped.output
    assert "dead-letter" not in piped.output  # a path that is not there is not promised to the list


def _deny(monkeypatch: pytest.MonkeyPatch, *denied: Path) -> None:
    """Make `denied` unreadable the way a non-root user meets them: `os.access` says no, and opening fails with
    EACCES. Permission bits alone would not do it here: CI and this machine run as root, which they do not bind."""
    import errno

    refused = {str(p) for p in denied}
    real_access, real_read = os.access, Path.read_bytes

    def access(path, mode, *args, **kwargs):  # type: ignore[no-untyped-def]
        return False if str(path) in refused else real_access(path, mode, *args, **kwargs)

    def read_bytes(self: Path) -> bytes:
        if str(self) in refused:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_read(self)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(Path, "read_bytes", read_bytes)


def test_an_unreadable_file_or_folder_is_one_line_exit_2_and_nothing_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    private = tmp_path / "private.md"
    private.write_text("# Acme\nAcme's revenue was $9m.\n")
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "inside.md").write_text("# Acme\nAcme opened a plant.\n")
    _deny(monkeypatch, private, folder)
    for target, why in ((private, "cannot be read: permission denied"),
                        (folder, "cannot be read: permission denied (folder)")):
        result = run("ingest", str(target))
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1, result.output
        assert target.name in lines[0] and why in lines[0]
        assert "Usage" not in result.output and "dead-letter" not in result.output
    assert json.loads(run("kb", "status", "--json").stdout)["sources"] == 0
    queries = tmp_path / "queries.jsonl"
    queries.write_text('{"id": "a", "query": "Acme revenue"}\n')
    suites = tmp_path / "suites"
    suites.mkdir()
    _deny(monkeypatch, queries, suites)
    for args in (("search", "--batch", str(queries)), ("eval", "--dir", str(suites), "--list")):
        result = run(*args)
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and "Usage" not in result.output, (args, result.output)


def test_a_file_unreadable_inside_a_readable_folder_is_listed_and_the_rest_ingested(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "open.md").write_text("# Acme\nAcme opened a plant in Leeds.\n")
    (folder / "shut.md").write_text("# Acme\nAcme closed a plant in Hull.\n")
    _deny(monkeypatch, folder / "shut.md")
    result = run("ingest", str(folder), "--json")
    summary = json.loads(result.stdout)
    assert result.exit_code == 2 and summary["added"] == 1
    assert [(Path(f["path"]).name, "ermission denied" in f["reason"]) for f in summary["failures"]] == [
        ("shut.md", True)]
