"""app.knowledge.loaders: every bad input is a LoadError with a reason; good inputs keep their metadata."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from app.knowledge.chunking import chunk_record
from app.knowledge.loaders import (
    SUPPORTED_EXTENSIONS,
    InputFile,
    LoadError,
    Overrides,
    discover,
    load_file,
)

TTL = {"report": 450, "news": 90}
MB = 1_000_000


def load(path: Path, overrides: Overrides | None = None, *, max_bytes: int = 5 * MB,
         ttl_days: dict[str, int] | None = None, source_id: str | None = None):  # type: ignore[no-untyped-def]
    return load_file(InputFile(path, source_id or path.name), overrides or Overrides(), max_bytes=max_bytes,
                     ttl_days=ttl_days or TTL)


def load_error(path: Path, **kw: object) -> str:
    with pytest.raises(LoadError) as info:
        load(path, **kw)  # type: ignore[arg-type]
    return str(info.value)


def make_pdf(path: Path, pages: list[str], title: str | None = None) -> Path:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path))
    if title:
        c.setTitle(title)
    for text in pages:
        if text:
            c.drawString(72, 720, text)
        c.showPage()
    c.save()
    return path


# --- bad input ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["report.docx", "data.csv", "README"])
def test_unknown_extension(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("Revenue rose.")
    reason = load_error(path)
    assert "unsupported extension" in reason
    assert (path.suffix or "(none)") in reason
    assert all(ext in reason for ext in SUPPORTED_EXTENSIONS)


@pytest.mark.parametrize("name", ["empty.txt", "empty.md", "empty.json", "empty.pdf"])
def test_empty_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"")
    assert load_error(path) == "empty file"


@pytest.mark.parametrize("name", ["blank.txt", "blank.md", "blank.html", "blank.jsonl"])
def test_whitespace_only(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("  \n\t\n   \n")
    assert "whitespace" in load_error(path)


def test_binary_txt(tmp_path: Path) -> None:
    path = tmp_path / "blob.txt"
    path.write_bytes(b"Revenue\x00\x01\x02\x00rose")
    reason = load_error(path)
    assert "binary" in reason and "NUL" in reason


def test_non_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.md"
    path.write_bytes("Caf\xe9 revenue".encode("latin-1"))
    reason = load_error(path)
    assert "not UTF-8" in reason
    assert "byte 3" in reason


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffRevenue rose.".encode("utf-8"))
    (rec,) = load(path)
    assert rec.text == "Revenue rose."


def test_file_over_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text("a" * 3_000_000)
    reason = load_error(path, max_bytes=2 * MB)
    assert "over the" in reason and "limit" in reason
    assert "3.0 MB" in reason and "2.0 MB" in reason
    # just under the limit loads
    assert load(path, max_bytes=3 * MB)[0].text.startswith("aaa")


def test_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "text": \n}')
    reason = load_error(path)
    assert reason.startswith("invalid JSON")
    assert "line 3" in reason


def test_invalid_jsonl_names_the_line_and_keeps_the_good_records(tmp_path: Path) -> None:
    from app.knowledge.loaders import PartialLoad

    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "fine"}\n\n{"text": broken}\n{"text": "also fine"}\n{"title": "no text"}\n')
    with pytest.raises(PartialLoad) as caught:
        load(path)
    assert [r.text for r in caught.value.records] == ["fine", "also fine"]
    assert [(where, reason.split(":")[0]) for where, reason in caught.value.failures] == [
        ("line 3", "invalid JSON"), ("line 5", "needs a non-empty 'text' or 'content' string")]
    path.write_text('{"text": broken}\n')  # nothing good: the whole file fails, its line named
    assert load_error(path).startswith("line 1: invalid JSON")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"title": "no body"}', "record 1: needs a non-empty 'text' or 'content' string"),
        ('[{"text": "ok"}, {"text": "   "}]', "record 2: needs a non-empty 'text' or 'content' string"),
        ('[{"text": 42}]', "record 1: needs a non-empty 'text' or 'content' string"),
        ('["just a string"]', "record 1: expected a JSON object, got str"),
        ("[]", "no records in file"),
    ],
)
def test_json_record_without_text(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "records.json"
    path.write_text(content)
    assert load_error(path) == expected


def test_jsonl_record_without_text_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text('{"text": "ok"}\n{"title": "missing"}\n')
    assert load_error(path).startswith("line 2:")


def test_unknown_json_field(tmp_path: Path) -> None:
    path = tmp_path / "records.json"
    path.write_text(json.dumps([{"text": "ok", "author": "x", "body": "y"}]))
    assert load_error(path) == "record 1: unknown field(s) author, body"


def test_invalid_json_metadata_is_a_load_error(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps({"text": "ok", "doc_type": "memo"}) + "\n")
    reason = load_error(path)
    assert reason.startswith("line 1: invalid metadata")
    assert "doc_type" in reason


def test_broken_pdf(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 20)
    assert load_error(path).startswith("broken PDF")
    path.write_bytes(bytes(range(256)) * 20)
    assert load_error(path).startswith("not a PDF")


def test_html_saved_as_pdf_is_named_without_the_pdf_librarys_noise(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "page.pdf"
    path.write_text("<!DOCTYPE html><html><body><p>Revenue rose.</p></body></html>")
    assert load_error(path).startswith("not a PDF: the file holds HTML")
    captured = capsys.readouterr()
    assert "header" not in captured.err and "EOF" not in captured.err


def test_encrypted_pdf(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    plain = make_pdf(tmp_path / "plain.pdf", ["Confidential revenue figures."])
    writer = PdfWriter(clone_from=str(plain))
    writer.encrypt("secret")
    path = tmp_path / "locked.pdf"
    with open(path, "wb") as fh:
        writer.write(fh)
    reason = load_error(path)
    assert "encrypted" in reason and "password" in reason


def test_pdf_without_text(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "blank.pdf", [""])
    assert "no extractable text" in load_error(path)


def test_yaml_front_matter_that_is_not_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "list.md"
    path.write_text("---\n- a\n- b\n---\nBody.\n")
    assert "front matter" in load_error(path)


def test_invalid_yaml_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "bad.md"
    path.write_text("---\ncompany: [unclosed\n---\nBody.\n")
    assert load_error(path).startswith("invalid YAML front matter")


# --- good input -----------------------------------------------------------------------------------------------


def test_markdown_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "acme-news.md"
    path.write_text(
        "---\ncompany: Acme Corp\nfiscal_year: FY2024\ndoc_type: News\npublished_at: 2024-03-01\n"
        "license: CC-BY-4.0\ntitle: Acme wins contract\n---\n# Headline\n\nAcme won a contract.\n"
    )
    (rec,) = load(path)
    assert rec.company == "Acme Corp"
    assert rec.fiscal_year == 2024
    assert rec.doc_type == "news"
    assert rec.published_at == date(2024, 3, 1)
    assert rec.license == "CC-BY-4.0"
    assert rec.title == "Acme wins contract"
    assert rec.text == "# Headline\n\nAcme won a contract.\n"
    assert "company:" not in rec.text
    assert rec.source_id == "acme-news.md"
    assert rec.origin == str(path)
    assert rec.pages is None


def test_markdown_without_front_matter_gets_title_from_filename(tmp_path: Path) -> None:
    path = tmp_path / "northwind_quarterly-update.md"
    path.write_text("---not front matter\n\nText.")
    (rec,) = load(path)
    assert rec.title == "northwind quarterly update"
    assert rec.text.startswith("---not front matter")
    assert rec.doc_type == "report" and rec.company is None


def test_html_meta_and_table(tmp_path: Path) -> None:
    path = tmp_path / "results.html"
    path.write_text(
        "<html><head><title>Acme results</title>"
        '<meta name="company" content="Acme">'
        '<meta name="fiscal_year" content="FY2024">'
        '<meta name="doc_type" content="news">'
        '<meta name="published_at" content="2024-05-01">'
        '<meta name="viewport" content="width=device-width">'
        "<style>p { color: red }</style></head><body>"
        "<h1>Results</h1><p>Revenue rose to $55.7m.</p>"
        "<h2>Segments</h2>"
        "<table><tr><th>Segment</th><th>Revenue</th></tr>"
        "<tr><td>Freight</td><td>30.1</td></tr><tr><td>Parcels | Post</td><td>25.6</td></tr></table>"
        "<ul><li>First point</li></ul>"
        "<script>alert('x')</script></body></html>"
    )
    (rec,) = load(path)
    assert (rec.title, rec.company, rec.fiscal_year, rec.doc_type, rec.published_at) == (
        "Acme results", "Acme", 2024, "news", date(2024, 5, 1))
    lines = rec.text.splitlines()
    assert "# Results" in lines
    assert "## Segments" in lines
    assert "| Segment | Revenue |" in lines
    assert "|---|---|" in lines
    assert "| Freight | 30.1 |" in lines
    assert "| Parcels / Post | 25.6 |" in lines  # a pipe inside a cell cannot break the row
    assert "- First point" in lines
    assert "alert" not in rec.text and "color" not in rec.text
    # and the chunker sees the table as a table, under its heading
    chunks = chunk_record(rec)
    table = [c for c in chunks if c.is_table]
    assert len(table) == 1 and table[0].section == "Segments"
    assert table[0].text.startswith("| Segment | Revenue |\n|---|---|")


def test_pdf_pages_numbered(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "report.pdf", ["Revenue was 55.7m on page one.", "Costs fell on page two."],
                    title="Acme Report")
    (rec,) = load(path)
    assert [n for n, _ in rec.pages] == [1, 2]
    assert "page one" in rec.pages[0][1] and "page two" in rec.pages[1][1]
    assert "page one" in rec.text and "page two" in rec.text
    assert rec.title == "Acme Report"
    assert [c.page for c in chunk_record(rec)] == [1, 2]


def test_pdf_blank_page_skipped_but_numbers_kept(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "gappy.pdf", ["First page text.", "", "Third page text."])
    (rec,) = load(path)
    assert [n for n, _ in rec.pages] == [1, 3]


def test_json_list_records(tmp_path: Path) -> None:
    path = tmp_path / "records.json"
    path.write_text(json.dumps([
        {"text": "Northwind revenue rose.", "source_id": "nw-2024", "page": 3, "company": "Northwind",
         "fiscal_year": 2024},
        {"content": "Second record body.", "doc_type": "news", "published_at": "2024-02-02"},
    ]))
    first, second = load(path)
    assert first.source_id == "nw-2024"
    assert first.pages == [(3, "Northwind revenue rose.")]
    assert first.text == "Northwind revenue rose."
    assert (first.company, first.fiscal_year) == ("Northwind", 2024)
    assert first.origin == f"{path}#record 1"
    assert second.source_id == "records.json#2"
    assert second.text == "Second record body."
    assert second.pages is None
    assert (second.doc_type, second.ttl_days, second.published_at) == ("news", 90, date(2024, 2, 2))


def test_json_single_object(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"text": "Only record."}))
    (rec,) = load(path)
    assert rec.source_id == "one.json#1"
    assert rec.text == "Only record."


def test_jsonl_records(tmp_path: Path) -> None:
    path = tmp_path / "feed.jsonl"
    path.write_text(
        json.dumps({"text": "Line one.", "page": 2}) + "\n\n"
        + json.dumps({"text": "Line three.", "source_id": "custom-id"}) + "\n"
    )
    first, second = load(path)
    assert first.source_id == "feed.jsonl#1"
    assert first.pages == [(2, "Line one.")]
    assert second.source_id == "custom-id"
    assert second.origin.endswith("#line 3")


def test_overrides_win_over_file_metadata(tmp_path: Path) -> None:
    path = tmp_path / "acme-fy2021.md"
    path.write_text("---\ncompany: Acme\nfiscal_year: 2022\ndoc_type: news\n---\nBody.\n")
    (rec,) = load(path, Overrides(doc_type="report", company="Acme Holdings", fiscal_year=2024))
    assert (rec.company, rec.fiscal_year, rec.doc_type, rec.ttl_days) == ("Acme Holdings", 2024, "report", 450)


def test_overrides_win_over_json_records(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"text": "x", "company": "A", "doc_type": "report"}) + "\n")
    (rec,) = load(path, Overrides(company="B", doc_type="news"))
    assert (rec.company, rec.doc_type, rec.ttl_days) == ("B", "news", 90)


def test_fiscal_year_from_filename(tmp_path: Path) -> None:
    path = tmp_path / "acme-fy2023.md"
    path.write_text("Revenue rose.")
    assert load(path)[0].fiscal_year == 2023
    other = tmp_path / "acme_FY-2019_report.txt"
    other.write_text("Revenue rose.")
    assert load(other)[0].fiscal_year == 2019
    plain = tmp_path / "acme-2023.md"  # a bare year is not taken for a fiscal year
    plain.write_text("Revenue rose.")
    assert load(plain)[0].fiscal_year is None


def test_file_metadata_beats_filename_fiscal_year(tmp_path: Path) -> None:
    path = tmp_path / "acme-fy2023.md"
    path.write_text("---\nfiscal_year: 2024\n---\nRevenue rose.")
    assert load(path)[0].fiscal_year == 2024


def test_ttl_by_doc_type(tmp_path: Path) -> None:
    news = tmp_path / "n.md"
    news.write_text("---\ndoc_type: news\npublished_at: 2024-01-01\n---\nNews.")
    report = tmp_path / "r.md"
    report.write_text("---\npublished_at: 2024-01-01\n---\nReport.")
    (n,) = load(news)
    (r,) = load(report)
    assert n.ttl_days == 90 and r.ttl_days == 450
    assert n.expires_on() < r.expires_on()
    assert n.expires_on() == date(2024, 3, 31)
    # the mapping decides, not a constant
    (n2,) = load(news, ttl_days={"report": 30, "news": 7})
    assert n2.ttl_days == 7


# --- discover -------------------------------------------------------------------------------------------------


def test_discover_recurses_skips_hidden_and_reports_missing(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    (root / "reports" / "2024").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "reports" / "2024" / "a.md").write_text("A")
    (root / "b.txt").write_text("B")
    (root / ".hidden.md").write_text("H")
    (root / ".git" / "config").write_text("G")
    (root / "reports" / ".cache").mkdir()
    (root / "reports" / ".cache" / "c.md").write_text("C")
    single = tmp_path / "single.md"
    single.write_text("S")

    files, missing, roots = discover([root, tmp_path / "nope", single])
    assert [f.source_id for f in files] == ["corpus/b.txt", "corpus/reports/2024/a.md", "single.md"]
    assert [f.path for f in files] == [(root / "b.txt").resolve(), (root / "reports/2024/a.md").resolve(),
                                       single.resolve()]
    assert len(missing) == 1
    assert missing[0].path == str(tmp_path / "nope")
    assert missing[0].reason == "no such file or folder"
    assert roots == [root.resolve(), single.resolve()]


def test_discover_names_what_is_no_file_or_folder_it_can_read(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    (tmp_path / "a.md").symlink_to(tmp_path / "b.md")
    (tmp_path / "b.md").symlink_to(tmp_path / "a.md")
    (tmp_path / "gone.md").symlink_to(tmp_path / "nowhere.md")
    files, missing, roots = discover([fifo, tmp_path / "a.md", tmp_path / "gone.md", tmp_path / "nope.md"])
    assert files == [] and roots == []
    assert [(Path(m.path).name, m.reason, m.kept) for m in missing] == [
        ("pipe.txt", "not a regular file (a FIFO)", False), ("a.md", "a symbolic link loop", False),
        ("gone.md", "a symbolic link to a missing target", False), ("nope.md", "no such file or folder", False)]


def test_discover_empty_folder(tmp_path: Path) -> None:
    files, missing, roots = discover([tmp_path])
    assert files == [] and missing == [] and roots == [tmp_path.resolve()]


# --- regressions of bugs found while writing these tests ------------------------------------------------------
@pytest.mark.parametrize("page", ["iii", [1]])
def test_json_record_with_non_numeric_page_is_a_load_error(tmp_path: Path, page: object) -> None:
    path = tmp_path / "records.json"
    path.write_text(json.dumps([{"text": "ok", "page": page}]))
    assert load_error(path).startswith("record 1:")
def test_front_matter_text_key_does_not_replace_body(tmp_path: Path) -> None:
    path = tmp_path / "note.md"
    path.write_text("---\ntext: a short summary\n---\nThe real body of the document.\n")
    (rec,) = load(path)
    assert "The real body of the document." in rec.text


# --- filing identity read from names and covers ------------------------------------------------------------------

COVER = ("FORM 10-K\nFor the fiscal year ended June 30, 2024\n"
         "KESTREL FOODS, INC.\n(Exact name of registrant as specified in its charter)\n"
         "Title of each class Trading Symbol(s) Name of each exchange on which registered\n"
         "Common Stock KSTF Nasdaq Global Select Market\n\nRevenue rose 4%.\n")


def test_page_records_take_year_and_form_from_their_title_and_keep_their_page(tmp_path: Path) -> None:
    path = tmp_path / "filings.jsonl"
    rows = [{"source_id": f"BESTBUY_2019_10K:p{n}", "title": "BESTBUY_2019_10K", "page": n, "company": "BESTBUY",
             "doc_type": "report", "text": f"Page {n}: comparable sales rose."} for n in (12, 13)]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    first, second = load(path)
    assert (first.source_id, first.pages, first.company) == ("BESTBUY_2019_10K:p12", [(12, rows[0]["text"])],
                                                            "BESTBUY")
    assert (first.fiscal_year, first.form, first.fiscal_quarter) == (2019, "10-K", None)
    assert second.pages[0][0] == 13 and second.fiscal_year == 2019


def test_the_source_id_names_the_filing_when_the_title_does_not(tmp_path: Path) -> None:
    path = tmp_path / "pages.jsonl"
    path.write_text(json.dumps({"source_id": "Quillon_2023Q2_10Q:p3", "page": 3, "text": "Net sales fell."}) + "\n")
    (rec,) = load(path)
    assert (rec.company, rec.fiscal_year, rec.fiscal_quarter, rec.form) == ("Quillon", 2023, 2, "10-Q")


def test_file_name_gives_company_year_form_and_filing_date(tmp_path: Path) -> None:
    path = tmp_path / "MARLOW_2022_8K_dated-2022-07-01.txt"
    path.write_text("The board approved a dividend.")
    (rec,) = load(path)
    assert (rec.company, rec.fiscal_year, rec.form, rec.published_at) == ("MARLOW", 2022, "8-K", date(2022, 7, 1))


def test_cover_page_fills_what_nothing_else_says(tmp_path: Path) -> None:
    path = tmp_path / "annual.txt"
    path.write_text(COVER)
    (rec,) = load(path)
    assert (rec.company, rec.fiscal_year, rec.form) == ("Kestrel Foods", 2024, "10-K")
    assert (rec.period_end, rec.ticker) == (date(2024, 6, 30), "KSTF")
    assert rec.company_aliases == ["KESTREL FOODS, INC."]


def test_cover_of_a_pdf_is_read_from_its_first_pages(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "filing.pdf", ["FORM 10-Q  For the quarterly period ended March 31, 2024",
                                              "Results discussion."])
    (rec,) = load(path)
    assert (rec.form, rec.fiscal_year, rec.period_end) == ("10-Q", 2024, date(2024, 3, 31))


def test_stated_metadata_wins_and_a_stated_company_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "KESTREL_2023_10K.md"
    path.write_text("---\ncompany: KESTREL\nfiscal_year: 2021\nform: 10q\nfiscal_quarter: Q3\n---\n" + COVER)
    (rec,) = load(path)
    assert (rec.company, rec.fiscal_year, rec.form, rec.fiscal_quarter) == ("KESTREL", 2021, "10-Q", 3)
    assert "Kestrel Foods" in rec.company_aliases  # the human spelling travels along for the catalog to choose
    assert rec.ticker == "KSTF"


def test_command_line_overrides_beat_the_identity_reader(tmp_path: Path) -> None:
    path = tmp_path / "BESTBUY_2019_10K.txt"
    path.write_text(COVER)
    (rec,) = load(path, Overrides(company="Orchard Lane", fiscal_year=2020))
    assert (rec.company, rec.fiscal_year) == ("Orchard Lane", 2020)
    assert rec.company_aliases == []  # unrelated spellings are not attached to a company the user named


def test_news_text_is_not_read_as_a_cover(tmp_path: Path) -> None:
    path = tmp_path / "item.md"
    path.write_text("---\ndoc_type: news\n---\n" + COVER)
    (rec,) = load(path)
    assert (rec.company, rec.fiscal_year, rec.form) == (None, None, None)


def test_identity_fields_change_the_content_hash_only_when_present(tmp_path: Path) -> None:
    plain = tmp_path / "plain.md"
    plain.write_text("---\ncompany: Acme\nfiscal_year: 2024\n---\nRevenue rose.")
    (a,) = load(plain)
    from app.knowledge.records import SourceRecord, sha256_text

    meta = f"{a.title}|Acme|2024|report|None|None"
    assert a.content_sha256 == sha256_text(meta + "\n" + a.text)  # hashes of older catalogs still match
    tagged = SourceRecord(**{**a.model_dump(exclude={"content_sha256"}), "form": "10-K"})
    assert tagged.content_sha256 != a.content_sha256


def test_a_bad_fiscal_quarter_is_a_load_error(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"text": "x", "fiscal_quarter": "Q7"}) + "\n")
    assert "fiscal_quarter" in load_error(path)


def test_extraction_damage_is_repaired_with_the_files_own_vocabulary(tmp_path: Path) -> None:
    """A page's 'reven ues' is joined because another page of the same file writes 'revenues' whole; a
    non-breaking space inside a figure is a thousands separator; a word hyphenated across a line is one word."""
    pages = [{"source_id": "OSPREY_2024_AR:p1", "title": "OSPREY_2024_AR", "page": 1,
              "text": "Total reven ues rose to A$1\u00a0234.5 million at our manufac-\nturing sites."},
             {"source_id": "OSPREY_2024_AR:p2", "title": "OSPREY_2024_AR", "page": 2,
              "text": "Revenues and revenues again; manufacturing."}]
    path = tmp_path / "osprey.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in pages))
    first = load(path)[0]
    assert first.text == "Total revenues rose to A$1,234.5 million at our manufacturing sites."
    assert first.fiscal_year == 2024 and first.form == "annual"


def test_a_company_renamed_since_it_filed_keeps_the_name_it_filed_under(tmp_path: Path) -> None:
    # the file's name and its metadata say OSPREYPAY; the cover's registrant line says what it was called then
    path = tmp_path / "filings.jsonl"
    cover = COVER.replace("KESTREL FOODS, INC.", "FALCON PAYMENTS, INC.")
    rows = [{"source_id": "OSPREYPAY_2020_10K:p1", "title": "OSPREYPAY_2020_10K", "page": 1, "company": "OSPREYPAY",
             "doc_type": "report", "text": cover}]
    path.write_text(json.dumps(rows[0]) + "\n")
    (rec,) = load(path)
    assert rec.company == "OSPREYPAY" and "FALCON PAYMENTS, INC." in rec.company_aliases
