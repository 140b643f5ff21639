"""The knowledge base end to end, with the real local embedder, chromadb and sparse index under a temp home."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from app.knowledge import dense
from app.knowledge.base import Filters, KnowledgeBase
from app.knowledge.catalog import Catalog
from app.knowledge.records import SourceRecord
from app.settings import get_settings
from tests.fakes import WordHashEmbedder

pytestmark = pytest.mark.integration

ACME_2024 = """---
title: Acme Rail — Annual Report FY2024
company: Acme Rail
fiscal_year: 2024
doc_type: report
published_at: 2025-03-01
---
## Financial review

Acme Rail revenue rose 6.1% to £987.6m in FY2024, driven by new freight corridors in the north.
Operating profit was £101.2m, a margin of 10.2%.

## Dividends

The Board proposes a final dividend of 14.2p per share, bringing the full-year dividend to 21.0p.
"""

BRAVO_2023 = """---
title: Bravo Solar — Annual Report FY2023
company: Bravo Solar
fiscal_year: 2023
doc_type: report
published_at: 2024-02-20
---
## Outlook

Bravo Solar expects battery storage revenue of $55.7m next year as utility customers sign longer contracts.
Photovoltaic panel shipments fell because of grid connection queues.
"""

NEWS = [
    {"source_id": "news/acme-1", "title": "Acme wins port contract", "company": "Acme Rail",
     "published_at": "2024-06-01", "doc_type": "news",
     "text": "Acme Rail signed a seven-year haulage contract with the Port of Easthaven worth £42m."},
    {"source_id": "news/bravo-1", "title": "Bravo names new CEO", "company": "Bravo Solar",
     "published_at": "2025-01-15", "doc_type": "news",
     "text": "Bravo Solar appointed Mira Lund as chief executive, effective in March."},
]


def write_corpus(root: Path) -> Path:
    (root / "reports").mkdir(parents=True)
    (root / "news").mkdir()
    (root / "reports" / "acme-fy2024.md").write_text(ACME_2024)
    (root / "reports" / "bravo-fy2023.md").write_text(BRAVO_2023)
    (root / "news" / "items.jsonl").write_text("\n".join(json.dumps(n) for n in NEWS) + "\n")
    return root


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus")


@pytest.fixture
def kb() -> KnowledgeBase:
    return KnowledgeBase(get_settings())


def vector_ids(kb: KnowledgeBase) -> set[str]:
    return set(kb.collection.get(include=[])["ids"])


def assert_consistent(kb: KnowledgeBase) -> None:
    """Every source is whole: its chunk rows match its count and each listed chunk has a vector."""
    listed = kb.catalog.chunk_ids()
    assert listed <= vector_ids(kb)
    for source in kb.catalog.list_sources():
        ids = [c for c in listed if c.startswith(source["source_id"] + "::")]
        assert len(ids) == source["n_chunks"], source["source_id"]
        assert all(source["content_sha256"][:12] in c for c in ids)


def test_ingest_then_reingest_is_idempotent(kb: KnowledgeBase, corpus: Path) -> None:
    first = kb.ingest([corpus])
    assert len(first.added) == 4 and not first.failed
    generation = kb.catalog.generation()
    again = KnowledgeBase(get_settings()).ingest([corpus])
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 4)
    assert kb.catalog.generation() == generation
    assert vector_ids(kb) == kb.catalog.chunk_ids()


def test_changed_file_replaces_its_chunks(kb: KnowledgeBase, corpus: Path) -> None:
    kb.ingest([corpus])
    path = corpus / "reports" / "acme-fy2024.md"
    path.write_text(ACME_2024.replace("£987.6m", "£999.9m").replace("northern freight corridors", "x"))
    summary = kb.ingest([corpus])
    assert summary.updated == ["corpus/reports/acme-fy2024.md"] and len(summary.unchanged) == 3
    hits = kb.search("revenue £987.6m", k=5, mode="sparse").hits
    assert all("987.6" not in h.text for h in hits)
    assert any("999.9" in h.text for h in kb.search("revenue £999.9m", k=3, mode="sparse").hits)
    assert vector_ids(kb) == kb.catalog.chunk_ids()
    assert_consistent(kb)


def test_prune_removes_only_missing_sources_under_the_given_path(kb: KnowledgeBase, corpus: Path,
                                                                 tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "note.txt").write_text("An unrelated note about Acme Rail's rolling stock depots.")
    kb.ingest([corpus, other])
    (corpus / "reports" / "bravo-fy2023.md").unlink()
    kept = kb.ingest([corpus])
    assert kept.removed == [] and "corpus/reports/bravo-fy2023.md" in kb.catalog.source_hashes()
    pruned = kb.ingest([corpus], prune=True)
    assert pruned.removed == ["corpus/reports/bravo-fy2023.md"]
    assert "elsewhere/note.txt" in kb.catalog.source_hashes()
    assert vector_ids(kb) == kb.catalog.chunk_ids()


def test_bad_inputs_are_listed_and_the_rest_is_ingested(kb: KnowledgeBase, corpus: Path) -> None:
    bad = corpus / "bad"
    bad.mkdir()
    (bad / "empty.txt").write_text("")
    (bad / "blob.txt").write_bytes(b"\x00\x01\x02binary")
    (bad / "broken.json").write_text("{not json")
    (bad / "scan.pdf").write_bytes(b"%PDF-1.4 garbage")
    (bad / "sheet.xlsx").write_bytes(b"PK\x03\x04")
    summary = kb.ingest([corpus])
    assert len(summary.added) == 4
    reasons = {Path(f.path).name: f.reason for f in summary.failed}
    assert set(reasons) == {"empty.txt", "blob.txt", "broken.json", "scan.pdf", "sheet.xlsx"}
    assert "unsupported extension" in reasons["sheet.xlsx"] and "invalid JSON" in reasons["broken.json"]
    dead = {Path(d["path"]).name for d in kb.status()["dead_letters"]}
    assert dead == set(reasons)
    (bad / "broken.json").write_text(json.dumps({"text": "Acme Rail fixed record.", "company": "Acme Rail"}))
    kb.ingest([corpus])
    assert "broken.json" not in {Path(d["path"]).name for d in kb.status()["dead_letters"]}


def test_interrupted_update_leaves_each_source_old_or_new(kb: KnowledgeBase, corpus: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    kb.ingest([corpus])
    before = kb.catalog.source_hashes()
    for name, old, new in [("acme-fy2024.md", "£987.6m", "£111.1m"), ("bravo-fy2023.md", "$55.7m", "$66.6m")]:
        path = corpus / "reports" / name
        path.write_text(path.read_text().replace(old, new))
    real = Catalog.replace_source
    calls = {"n": 0}

    def interrupt_second(self, record, chunks, terms):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # Ctrl-C after the second source's vectors went in, before its commit
        return real(self, record, chunks, terms)

    monkeypatch.setattr(Catalog, "replace_source", interrupt_second)
    with pytest.raises(KeyboardInterrupt):
        kb.ingest([corpus])
    monkeypatch.setattr(Catalog, "replace_source", real)
    after = kb.catalog.source_hashes()
    changed = [sid for sid in before if before[sid] != after[sid]]
    assert len(changed) == 1  # one source fully new, the other fully old
    assert_consistent(kb)
    fresh = KnowledgeBase(get_settings())
    texts = " ".join(h.text for h in fresh.search("Bravo Solar battery storage revenue", k=3).hits)
    assert ("$55.7m" in texts) != ("$66.6m" in texts)
    finish = fresh.ingest([corpus])
    assert len(finish.updated) == 1 and not finish.failed
    assert vector_ids(fresh) == fresh.catalog.chunk_ids()  # orphans of the interrupted write are swept


def test_filters_restrict_every_retriever(kb: KnowledgeBase, corpus: Path) -> None:
    kb.ingest([corpus])
    for mode in ("hybrid", "dense", "sparse"):
        for spelling in ("Bravo Solar", "BRAVO SOLAR", "bravo solar inc."):  # case and suffix do not matter
            hits = kb.search("revenue contract", k=10, mode=mode, filters=Filters(company=spelling)).hits  # type: ignore[arg-type]
            assert hits and {h.company for h in hits} == {"Bravo Solar"}, (mode, spelling)
    news = kb.search("contract", k=10, filters=Filters(doc_type="news")).hits
    assert news and {h.doc_type for h in news} == {"news"}
    dated = kb.search("chief executive contract", k=10,
                      filters=Filters(published_from=date(2025, 1, 1), published_to=date(2025, 2, 1))).hits
    assert [h.source_id for h in dated] == ["news/bravo-1"]
    year = kb.search("dividend", k=10, filters=Filters(fiscal_year=2023)).hits
    assert {h.fiscal_year for h in year} == {2023}


def test_hybrid_fuses_what_each_retriever_alone_finds(kb: KnowledgeBase, corpus: Path) -> None:
    kb.ingest([corpus])
    exact = kb.search("£42m", k=1, mode="hybrid").hits[0]
    assert exact.source_id == "news/acme-1" and "sparse" in exact.signals["ranks"]
    paraphrase = kb.search("who leads the solar company now?", k=2, mode="hybrid").hits
    assert "news/bravo-1" in [h.source_id for h in paraphrase]
    named = kb.search("Acme payout to shareholders", k=1).hits[0]
    assert named.company == "Acme Rail" and "Acme Rail named in query" in named.why


def test_near_duplicates_are_removed_before_the_cap(kb: KnowledgeBase, corpus: Path) -> None:
    copy = corpus / "reports" / "acme-fy2024-copy.md"
    copy.write_text(ACME_2024.replace("title: Acme Rail — Annual Report FY2024", "title: Acme Rail (mirror)"))
    kb.ingest([corpus])
    response = kb.search("Acme Rail final dividend per share", k=3)
    dividend_hits = [h for h in response.hits if "14.2p" in h.text]
    assert len(dividend_hits) == 1
    step = next(f for f in response.funnel if f.step == "dedupe")
    assert step.removed >= 1 and dividend_hits[0].signals["duplicates_removed"]


def test_figures_are_findable_by_the_sparse_index(kb: KnowledgeBase, corpus: Path) -> None:
    kb.ingest([corpus])
    for query, source in [("$55.7m", "corpus/reports/bravo-fy2023.md"), ("10.2%", "corpus/reports/acme-fy2024.md"),
                          ("FY2024 revenue", "corpus/reports/acme-fy2024.md"), ("14.2p dividend", "corpus/reports/acme-fy2024.md")]:
        assert kb.search(query, k=1, mode="sparse").hits[0].source_id == source, query


def test_status_counts_and_ttl(kb: KnowledgeBase, corpus: Path) -> None:
    kb.ingest([corpus])
    status = kb.status()
    assert status["sources"] == 4 and status["chunks"] == kb.catalog.count_chunks() > 0
    assert status["by_company"]["Acme Rail"]["sources"] == 2
    assert status["by_type"] == {"report": 2, "news": 2}
    # news TTL (90 days) is shorter than a report's (450): the 2024 news item is past it, per its publish date
    assert "news/acme-1" in {s["source_id"] for s in status["past_ttl"]}


def test_sparse_index_rebuilds_when_older_than_the_catalog(kb: KnowledgeBase, corpus: Path) -> None:
    kb.ingest([corpus])
    sparse_before = kb.sparse()
    kb.catalog.remove_sources(["news/acme-1"])  # a commit that no sparse rebuild followed (a kill, say)
    fresh = KnowledgeBase(get_settings())
    assert fresh.sparse().generation == fresh.catalog.generation() != sparse_before.generation
    assert all(h.source_id != "news/acme-1" for h in fresh.search("£42m haulage", k=5, mode="sparse").hits)


# --- a fast knowledge base: a word-hash embedder and a dense store that refuses big batches, like chromadb ---------


class StrictCollection:
    """Wraps the chroma collection: an upsert or delete over `limit` records fails as chromadb's does, and the
    `fail_at`-th upsert from now fails as a full disk would."""

    def __init__(self, inner, limit: int) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.limit = inner, limit
        self.upserts: list[int] = []
        self.deletes: list[int] = []
        self.fail_at: int | None = None

    def _check(self, n: int) -> None:
        if n > self.limit:
            raise ValueError(f"Batch size of {n} is greater than max batch size of {self.limit}")

    def upsert(self, **kw):  # type: ignore[no-untyped-def]
        self._check(len(kw["ids"]))
        self.upserts.append(len(kw["ids"]))
        if self.fail_at is not None and len(self.upserts) == self.fail_at:
            raise OSError("disk full")
        return self.inner.upsert(**kw)

    def delete(self, ids):  # type: ignore[no-untyped-def]
        self._check(len(ids))
        self.deletes.append(len(ids))
        return self.inner.delete(ids=ids)

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.inner, name)


LIMIT = 50


@pytest.fixture
def fast_kb(monkeypatch: pytest.MonkeyPatch) -> KnowledgeBase:
    monkeypatch.setenv("PROV_CHUNK_TOKENS", "64")
    monkeypatch.setenv("PROV_CHUNK_OVERLAP", "0")
    get_settings.cache_clear()
    embedder = WordHashEmbedder()
    monkeypatch.setattr(KnowledgeBase, "embedder", property(lambda self: embedder))
    monkeypatch.setattr(dense, "max_batch_size", lambda collection: LIMIT)
    kb = KnowledgeBase(get_settings())
    kb._collection = StrictCollection(kb.collection, LIMIT)
    return kb


def ledger(entries: int, tag: str) -> str:
    body = " ".join(f"Entry {i} of the Zephyr ledger records code ZL{i:04d} at {tag} value." for i in range(entries))
    return f"# Zephyr ledger\n\n{body}\n"


def test_a_source_bigger_than_one_batch_is_written_in_slices(fast_kb: KnowledgeBase, tmp_path: Path) -> None:
    path = tmp_path / "ledger.md"
    path.write_text(ledger(400, "v1"))
    events: list[tuple[str, int, int]] = []
    summary = fast_kb.ingest([path], on_progress=lambda *e: events.append(e))
    assert summary.added == ["ledger.md"] and not summary.failed
    n = fast_kb.catalog.count_chunks()
    assert n > 2 * LIMIT and summary.chunks_written == n
    assert fast_kb.catalog.list_sources()[0]["n_chunks"] == n
    store = fast_kb.collection
    assert len(store.upserts) >= 3 and max(store.upserts) <= LIMIT and sum(store.upserts) == n
    assert vector_ids(fast_kb) == fast_kb.catalog.chunk_ids()
    assert max(fast_kb.embedder.calls) <= 128  # embedded in bounded slices, not one call for the whole file
    embed = [(done, total) for stage, done, total in events if stage == "embed"]
    assert len(embed) >= 2 and embed[-1] == (n, n) and [d for d, _ in embed] == sorted(d for d, _ in embed)
    for code in ("ZL0000", "ZL0201", "ZL0399"):  # every part of the file is searchable, by words and by vector
        assert code in fast_kb.search(code, k=1, mode="sparse").hits[0].text
    for row in list(fast_kb.catalog.get_chunks(fast_kb.catalog.chunk_ids()).values())[::40]:
        hit = fast_kb.search(row["text"], k=1, mode="dense").hits[0]
        assert hit.text == row["text"]
    path.write_text(ledger(400, "v2"))  # a new version: the old vectors go, also in slices
    again = fast_kb.ingest([path])
    assert again.updated == ["ledger.md"] and max(store.deletes) <= LIMIT
    assert vector_ids(fast_kb) == fast_kb.catalog.chunk_ids()


def test_a_failure_midway_through_a_big_source_leaves_its_old_version(fast_kb: KnowledgeBase,
                                                                     tmp_path: Path) -> None:
    path = tmp_path / "ledger.md"
    path.write_text(ledger(400, "v1"))
    fast_kb.ingest([path])
    before_hash, before_ids = fast_kb.catalog.source_hashes(), fast_kb.catalog.chunk_ids()
    path.write_text(ledger(400, "v2"))
    fast_kb.collection.fail_at = len(fast_kb.collection.upserts) + 2  # the second slice of the new version
    with pytest.raises(OSError, match="disk full"):
        fast_kb.ingest([path])
    assert fast_kb.catalog.source_hashes() == before_hash and fast_kb.catalog.chunk_ids() == before_ids
    hits = fast_kb.search("ZL0003 value", k=3, mode="sparse").hits
    assert hits and all("v1 value" in h.text and "v2" not in h.text for h in hits)
    assert_consistent(fast_kb)
    fast_kb.collection.fail_at = None
    finish = fast_kb.ingest([path])
    assert finish.updated == ["ledger.md"]
    assert vector_ids(fast_kb) == fast_kb.catalog.chunk_ids()  # the half-written slices were swept
    assert "v2 value" in fast_kb.search("ZL0003 value", k=1, mode="sparse").hits[0].text


# --- companies however spelled -----------------------------------------------------------------------------------

ZEPHYR_COVER = """FORM 10-K
For the fiscal year ended December 31, 2022
ZEPHYR GAMES, INC.
(Exact name of registrant as specified in its charter)
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock ZPG Nasdaq Global Select Market

Net bookings of the game studio rose 9% in 2022.
"""


def test_one_company_under_every_spelling(fast_kb: KnowledgeBase, tmp_path: Path) -> None:
    pages = tmp_path / "pages.jsonl"
    pages.write_text(json.dumps({"source_id": "ZEPHYRGAMES_2021_10K:p7", "title": "ZEPHYRGAMES_2021_10K", "page": 7,
                                 "company": "ZEPHYRGAMES", "doc_type": "report",
                                 "text": "Net bookings of the game studio rose 4% in 2021."}) + "\n")
    fast_kb.ingest([pages])
    assert fast_kb.catalog.companies() == ["ZEPHYRGAMES"]
    cover = tmp_path / "ZEPHYR_GAMES_2022_10K.txt"
    cover.write_text(ZEPHYR_COVER)
    fast_kb.ingest([cover])
    # the cover's spelling is the human one: the catalog now says "Zephyr Games" for both filings
    assert fast_kb.catalog.companies() == ["Zephyr Games"]
    aliases = fast_kb.catalog.company_aliases()
    for alias in ("zephyrgames", "zpg"):
        assert aliases[alias] == "Zephyr Games"
    assert fast_kb.catalog.resolve_company("ZEPHYR_GAMES") == "Zephyr Games"
    quarter = tmp_path / "q.jsonl"
    quarter.write_text(json.dumps({"source_id": "ZephyrGames_2023Q1_10Q:p1", "company": "ZEPHYRGAMES", "page": 1,
                                   "text": "Quarterly bookings of the studio."}) + "\n")
    fast_kb.ingest([quarter])
    assert fast_kb.catalog.companies() == ["Zephyr Games"]  # a later token spelling is canonicalised
    assert fast_kb.catalog.periods("zephyr games inc") == [(2021, None, "10-K"), (2022, None, "10-K"),
                                                           (2023, 1, "10-Q")]
    assert fast_kb.catalog.periods("Unknown Co") == []
    for spelling in ("ZEPHYRGAMES", "Zephyr Games, Inc.", "zpg"):
        for mode in ("dense", "sparse", "hybrid"):
            hits = fast_kb.search("bookings of the game studio", k=10, mode=mode,  # type: ignore[arg-type]
                                  filters=Filters(company=spelling)).hits
            assert {h.source_id for h in hits} == {"ZEPHYRGAMES_2021_10K:p7", "ZEPHYR_GAMES_2022_10K.txt",
                                                  "ZephyrGames_2023Q1_10Q:p1"}, (spelling, mode)


def test_the_chroma_filter_covers_spellings_written_before_a_rename(fast_kb: KnowledgeBase, tmp_path: Path) -> None:
    pages = tmp_path / "pages.jsonl"
    pages.write_text(json.dumps({"source_id": "p1", "company": "ZEPHYRGAMES", "text": "Bookings rose."}) + "\n")
    fast_kb.ingest([pages])
    (tmp_path / "ZEPHYR_GAMES_2022_10K.txt").write_text(ZEPHYR_COVER)
    fast_kb.ingest([tmp_path / "ZEPHYR_GAMES_2022_10K.txt"])
    where = Filters(company="zephyr games", names=fast_kb.company_names()).chroma_where()
    assert where == {"company": {"$in": ["Zephyr Games", "ZEPHYRGAMES"]}}
    assert Filters(company="Acme").chroma_where() == {"company": "Acme"}  # no catalog: as given


# --- the catalog's schema grows in place --------------------------------------------------------------------------

OLD_SOURCES = """create table sources (source_id varchar not null primary key, origin varchar not null,
 title varchar not null, content_sha256 varchar(64) not null, ingested_at datetime not null, published_at date,
 license varchar, company varchar, fiscal_year integer, doc_type varchar not null, ttl_days integer not null,
 n_chunks integer not null)"""


def test_an_older_catalog_gains_the_new_columns_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "catalog.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute(OLD_SOURCES)
        conn.execute("insert into sources values ('old-1', '/x/old.md', 'Old', 'abc', '2024-01-01 00:00:00', null, "
                     "null, 'PFIZER', 2022, 'report', 450, 0)")
    catalog = Catalog(path)
    assert {"sources.form", "sources.fiscal_quarter", "sources.period_end", "sources.ticker",
            "sources.company_aliases"} <= set(catalog.migrated)
    with sqlite3.connect(path) as conn:
        columns = {row[1] for row in conn.execute("pragma table_info(sources)")}
    assert {"form", "fiscal_quarter", "period_end", "ticker", "company_aliases"} <= columns
    (old,) = catalog.list_sources()
    assert (old["source_id"], old["company"], old["form"], old["ticker"]) == ("old-1", "PFIZER", None, None)
    assert catalog.periods("Pfizer Inc.") == [(2022, None, None)]
    record = SourceRecord(source_id="new-1", text="Quarterly revenue.", origin="/x/new.md", company="Pfizer",
                          fiscal_year=2023, fiscal_quarter=2, form="10-Q", period_end=date(2023, 7, 2),
                          ticker="PFE", company_aliases=["PFIZER INC."])
    catalog.replace_source(record, [], [])
    assert catalog.companies() == ["Pfizer"]  # the more human spelling renamed the old source's company
    assert catalog.company_aliases()["pfe"] == "Pfizer"
    new = next(r for r in catalog.list_sources() if r["source_id"] == "new-1")
    assert (new["form"], new["fiscal_quarter"], new["period_end"], new["ticker"]) == ("10-Q", 2, date(2023, 7, 2),
                                                                                        "PFE")
    assert json.loads(new["company_aliases"]) == ["PFIZER INC."]
    assert Catalog(path).migrated == []  # the second open has nothing to add
