"""The reads every turn asks of the catalog (companies, their spellings, fiscal years, source hashes) are kept
until the catalog changes, whoever changes it: this process, another one, or a catalog made again on disk."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.knowledge.catalog import Catalog
from app.knowledge.records import SourceRecord

REPO = Path(__file__).resolve().parents[2]


def add(catalog: Catalog, source_id: str, company: str, year: int, text: str = "x") -> None:
    record = SourceRecord(source_id=source_id, text=text, origin=source_id, company=company, fiscal_year=year)
    catalog.replace_source(record, [], [])


def test_kept_reads_are_read_again_after_a_commit_by_this_process(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "catalog.sqlite")
    add(catalog, "a", "Acme Rail", 2023)
    assert catalog.companies() == ["Acme Rail"] and catalog.fiscal_years() == [2023]
    before = catalog.version()
    assert catalog.version() == before  # nothing committed: the kept values stand
    add(catalog, "b", "Borealis Air", 2024)
    assert catalog.version() != before
    assert catalog.companies() == ["Acme Rail", "Borealis Air"] and catalog.fiscal_years() == [2023, 2024]
    hash_a = catalog.source_hash("a")
    add(catalog, "a", "Acme Rail", 2023, text="y")  # new content for a source already held
    assert catalog.source_hash("a") not in (None, hash_a) and catalog.source_hash("gone") is None
    catalog.remove_sources(["b"])
    assert catalog.companies() == ["Acme Rail"] and "borealis air" not in catalog.company_aliases()


def test_a_commit_by_another_process_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "catalog.sqlite"
    catalog = Catalog(path)
    add(catalog, "a", "Acme Rail", 2023)
    assert catalog.companies() == ["Acme Rail"]
    script = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[2]);"
              "from app.knowledge.catalog import Catalog; from app.knowledge.records import SourceRecord;"
              "Catalog(Path(sys.argv[1])).replace_source(SourceRecord(source_id='c', text='z', origin='c',"
              " company='Copper Mines', fiscal_year=2025), [], [])")
    subprocess.run([sys.executable, "-c", script, str(path), str(REPO)], check=True, timeout=120)
    assert catalog.companies() == ["Acme Rail", "Copper Mines"] and catalog.fiscal_years() == [2023, 2025]


def test_a_catalog_made_again_on_disk_is_read_afresh(tmp_path: Path) -> None:
    path = tmp_path / "catalog.sqlite"
    catalog = Catalog(path)
    add(catalog, "a", "Acme Rail", 2023)
    assert catalog.companies() == ["Acme Rail"]
    catalog.engine.dispose()
    for leftover in tmp_path.glob("catalog.sqlite*"):
        leftover.unlink()
    again = Catalog(path)  # a new, empty file at the same path
    add(again, "d", "Delta Foods", 2022)
    catalog.engine.dispose()  # the old engine's pool would reopen the path: the new file
    assert catalog.companies() == ["Delta Foods"]


def test_returned_values_are_copies(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "catalog.sqlite")
    add(catalog, "a", "Acme Rail", 2023)
    catalog.companies().append("Mallory")
    catalog.company_aliases().clear()
    catalog.fiscal_years().append(1999)
    catalog.source_hashes().clear()
    assert catalog.companies() == ["Acme Rail"] and catalog.fiscal_years() == [2023]
    assert catalog.company_aliases() and catalog.source_hash("a")


def test_period_ends_name_the_fiscal_year_each_report_is_filed_as(tmp_path: Path) -> None:
    from datetime import date

    catalog = Catalog(tmp_path / "catalog.sqlite")
    for sid, year, end, doc_type in (("ar24", 2024, date(2024, 6, 30), "report"),
                                     ("hy25", 2025, date(2024, 12, 31), "report"),
                                     ("news", 2025, date(2025, 3, 12), "news")):
        catalog.replace_source(SourceRecord(source_id=sid, text="x", origin=sid, company="Acme Rail", fiscal_year=year,
                                            period_end=end, doc_type=doc_type), [], [])
    assert catalog.period_ends("Acme Rail") == {"2024-06-30": 2024, "2024-12-31": 2025}
    assert catalog.period_ends("Nobody") == {}


def test_a_text_search_of_a_companys_chunks_finds_every_form_of_the_words(tmp_path: Path) -> None:
    from app.knowledge.analyzer import analyze
    from app.knowledge.records import Chunk

    catalog = Catalog(tmp_path / "catalog.sqlite")
    texts = ["The Board approved an on-market share buy-back of up to A$150 million.",
             "On October 1, 2024 the Company acquired 100% of Bellandi S.r.l.",
             "Revenue rose 4% on higher volumes."]
    record = SourceRecord(source_id="acme-ar", text=" ".join(texts), origin="acme-ar", company="Acme Rail",
                          fiscal_year=2024)
    chunks = [Chunk(chunk_id=f"acme-ar::{i}", source_id="acme-ar", ordinal=i, text=t, tokens=12, page=i + 1,
                    company="Acme Rail", fiscal_year=2024) for i, t in enumerate(texts)]
    catalog.replace_source(record, chunks, [" ".join(analyze(t)) for t in texts])
    found = lambda groups: [c["chunk_id"] for c in catalog.chunks_with_terms("Acme Rail", groups)]  # noqa: E731
    assert found([["share"], ["buyback", "repurchas"]]) == ["acme-ar::0"]  # 'buy-back' is read 'buy back'
    assert found([["merger", "acquisit"]]) == ["acme-ar::1"]  # 'acqui…' finds 'acquired'
    assert found([["layoff", "redund"]]) == []
    assert found([["share"], ["revenu"]]) == []  # every group must stand in one chunk
    assert catalog.chunks_with_terms("Borealis Air", [["revenu"]]) == []


def test_a_text_search_returns_a_filings_chunks_in_the_order_of_its_pages(tmp_path: Path) -> None:
    """Page 4 before page 11 (as a reader meets them), not in the order of their ids as strings ('p11' < 'p4'),
    so a limit keeps the front of the filing."""
    from app.knowledge.analyzer import analyze
    from app.knowledge.records import Chunk

    catalog = Catalog(tmp_path / "catalog.sqlite")
    chunks = []
    for page in (11, 4, 30):
        sid = f"ACME_2024_10K:p{page}"
        text = f"Page {page} says we had employees."
        catalog.replace_source(SourceRecord(source_id=sid, title="ACME_2024_10K", text=text, origin=sid,
                                            company="Acme Rail", fiscal_year=2024),
                               [Chunk(chunk_id=f"{sid}::0", source_id=sid, ordinal=0, text=text, tokens=8, page=page,
                                      title="ACME_2024_10K", company="Acme Rail", fiscal_year=2024)],
                               [" ".join(analyze(text))])
        chunks.append(sid)
    found = [c["chunk_id"] for c in catalog.chunks_with_terms("Acme Rail", [["employe"]])]
    assert found == ["ACME_2024_10K:p4::0", "ACME_2024_10K:p11::0", "ACME_2024_10K:p30::0"]
