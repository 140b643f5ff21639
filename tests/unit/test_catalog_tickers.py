"""Tickers come from what the sources say, so the router knows them for any corpus."""

from __future__ import annotations

from pathlib import Path

from app.knowledge.catalog import Catalog
from app.knowledge.records import Chunk, SourceRecord


def add(catalog: Catalog, source_id: str, company: str | None, text: str) -> None:
    record = SourceRecord(source_id=source_id, text=text, origin=f"/tmp/{source_id}", company=company)
    chunk = Chunk(chunk_id=f"{source_id}::0", source_id=source_id, ordinal=0, text=text, tokens=len(text.split()),
                  company=company)
    catalog.replace_source(record, [chunk], [text.lower()])


def test_tickers_are_read_from_the_sources(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "catalog.sqlite")
    add(catalog, "a", "Acme Rail", 'Acme Rail plc ("Acme", ticker ACR) runs freight trains.')
    add(catalog, "b", "Borealis Air", "Borealis Air (ticker symbol: BRA) flies to Oslo.")
    add(catalog, "c", None, "An index fund (ticker IDX) with no company is ignored.")
    add(catalog, "d", "Copper Mines", "Its ticker was disputed: ticker ACR, said a rival filing.")
    add(catalog, "e", "Delta Foods", "No ticker here, only the word and a lowercase ticker abc.")
    assert catalog.tickers() == {"BRA": "Borealis Air"}  # ACR claimed by two companies: dropped


def test_latest_report_year_ignores_news(tmp_path: Path) -> None:
    catalog = Catalog(tmp_path / "catalog.sqlite")
    assert catalog.latest_report_year() is None
    for sid, year, kind in (("r1", 2023, "report"), ("r2", 2024, "report"), ("n1", 2026, "news")):
        record = SourceRecord(source_id=sid, text="x", origin=sid, fiscal_year=year, doc_type=kind)
        catalog.replace_source(record, [], [])
    assert catalog.latest_report_year() == 2024
