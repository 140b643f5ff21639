"""Turn files into validated `SourceRecord`s, or into a failure with a reason a person can act on.

Supported: .txt, .md (optional YAML front matter), .html/.htm (meta tags for metadata), .pdf (pypdf, page
numbers kept) and .json/.jsonl records (a record's `page` is kept as its page number). Anything else, and any
file that is empty, binary, too large, broken or encrypted, becomes a `LoadFailure`; the caller keeps going with
the rest.

Text is read as a reader would (app/text/repair.py: non-breaking and thin spaces, soft hyphens, words hyphenated
across lines or broken by a stray space, judged by the file's own vocabulary, every page of it).

Metadata precedence: command-line overrides, then what the file or record says (front matter, meta tags, record
fields), then what `app.text.identity` reads from the title, source id and file name (`BESTBUY_2019_10K`,
`acme-fy2023.md`), then what it reads from a report's cover (its first pages): registrant, form, period, ticker.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, Iterable

from pydantic import ValidationError

from app.knowledge.records import DocType, SourceRecord
from app.text.identity import COVER_CHARS, normalize_form, parse_fiscal_year, read_identity, related_names
from app.text.repair import repair_extraction, vocabulary

TEXT_EXTENSIONS = {".txt", ".md", ".markdown"}
HTML_EXTENSIONS = {".html", ".htm"}
RECORD_EXTENSIONS = {".json", ".jsonl"}
SUPPORTED_EXTENSIONS = TEXT_EXTENSIONS | HTML_EXTENSIONS | RECORD_EXTENSIONS | {".pdf"}

IDENTITY_FIELDS = {"form", "fiscal_quarter", "period_end", "ticker"}
RECORD_FIELDS = {"text", "content", "source_id", "title", "company", "fiscal_year", "doc_type", "published_at",
                 "page", "license"} | IDENTITY_FIELDS
_MODEL_FIELDS = {"text", "title", "company", "fiscal_year", "doc_type", "published_at", "license",
                 "company_aliases"} | IDENTITY_FIELDS
COVER_PAGES = 3  # a paged source's cover is read only from pages numbered up to this


class LoadError(Exception):
    """A file or record that cannot be ingested; the message is the reason shown to the user."""


class PartialLoad(LoadError):
    """A records file some of whose records are bad: the good `records` are ingested, and each bad one is listed
    in `failures` as (where, reason): ('line 2', 'invalid JSON: …')."""

    def __init__(self, records: list[SourceRecord], failures: list[tuple[str, str]]) -> None:
        self.records, self.failures = records, failures
        super().__init__("; ".join(f"{where}: {reason}" for where, reason in failures))


@dataclass(frozen=True)
class LoadFailure:
    path: str
    reason: str
    kept: bool = True  # recorded in the dead-letter list (`prov kb status`); a path that is not there is not


@dataclass
class Overrides:
    """Metadata given on the command line; it wins over what a file says about itself."""

    doc_type: DocType | None = None
    company: str | None = None
    fiscal_year: int | None = None


@dataclass
class LoadResult:
    records: list[SourceRecord] = field(default_factory=list)
    failures: list[LoadFailure] = field(default_factory=list)
    seen_origins: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class InputFile:
    path: Path
    source_id: str


def discover(paths: Iterable[Path]) -> tuple[list[InputFile], list[LoadFailure], list[Path]]:
    """Expand folders recursively (hidden entries skipped). Returns files, missing paths and the resolved roots."""
    files: list[InputFile] = []
    missing: list[LoadFailure] = []
    roots: list[Path] = []
    for raw in paths:
        path = Path(raw)
        problem = path_problem(path)
        if problem:
            missing.append(LoadFailure(str(raw), problem, kept=False))
            continue
        root = path.resolve()
        roots.append(root)
        if root.is_file():
            files.append(InputFile(root, root.name))
            continue
        for child in sorted(root.rglob("*")):
            rel = child.relative_to(root)
            if any(part.startswith(".") for part in rel.parts) or not child.is_file():
                continue
            files.append(InputFile(child, f"{root.name}/{rel.as_posix()}"))
    return files, missing, roots


def path_problem(path: Path) -> str | None:
    """Why a path named for ingest cannot be read as a file or a folder, or None: it is missing, a symbolic
    link that loops or points nowhere, not a regular file (a FIFO, a device, a socket), or not readable."""
    import errno
    import os
    import stat

    try:
        mode = path.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop"
        if path.is_symlink():
            return "a symbolic link to a missing target"
        if exc.errno == errno.ENOENT:
            return "no such file or folder"
        return f"cannot be read: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return None if os.access(path, os.R_OK | os.X_OK) else "cannot be read: permission denied (folder)"
    if not stat.S_ISREG(mode):
        kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
                if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file")
        return f"not a regular file ({kind})"
    return None if os.access(path, os.R_OK) else "cannot be read: permission denied"


def load_file(item: InputFile, overrides: Overrides, *, max_bytes: int, ttl_days: dict[str, int]) -> list[SourceRecord]:
    """Load one file into one or more records. Raises LoadError with the reason on bad input."""
    path = item.path
    ext = path.suffix.lower()
    if ext not in SUPPORTED_EXTENSIONS:
        raise LoadError(f"unsupported extension {ext or '(none)'}; expected one of "
                        + ", ".join(sorted(SUPPORTED_EXTENSIONS)))
    size = path.stat().st_size
    if size == 0:
        raise LoadError("empty file")
    if size > max_bytes:
        raise LoadError(f"file is {size / 1e6:.1f} MB, over the {max_bytes / 1e6:.1f} MB limit (PROV_MAX_FILE_MB)")
    if ext == ".pdf":
        meta, pages = _read_pdf(path)
        words = vocabulary(t for _, t in pages)
        pages = [(n, repair_extraction(t, words)) for n, t in pages]
        return [_build(item, meta, overrides, ttl_days, pages=pages)]
    text = _read_text(path)
    if ext in RECORD_EXTENSIONS:
        return list(_records_from_json(item, text, ext, overrides, ttl_days))
    if ext in HTML_EXTENSIONS:
        meta, body = _parse_html(text)
    else:
        meta, body = _split_front_matter(text)
    meta["text"] = repair_extraction(body)  # the document's body, whatever its front matter says
    return [_build(item, meta, overrides, ttl_days)]


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    if b"\x00" in data[:8192]:
        raise LoadError("binary content (NUL bytes) in a text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoadError(f"not UTF-8 text (binary?): byte {exc.start}") from None
    if not text.strip():
        raise LoadError("empty file (whitespace only)")
    return text


def _split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---"):
        return {}, text
    match = re.match(r"---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|$)", text, re.S)
    if not match:
        return {}, text
    import yaml

    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        raise LoadError(f"invalid YAML front matter: {exc}".splitlines()[0]) from None
    if not isinstance(meta, dict):
        raise LoadError("front matter is not a mapping of key: value")
    return {str(k): v for k, v in meta.items()}, text[match.end():]


def _parse_html(text: str) -> tuple[dict[str, Any], str]:
    """HTML to text that keeps headings as markdown headings and tables as pipe rows."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(text, "html.parser")
    meta: dict[str, Any] = {}
    for tag in soup.find_all("meta"):
        name, content = tag.get("name"), tag.get("content")
        if name and content and name.lower() in RECORD_FIELDS:
            meta[name.lower()] = content
    if soup.title and soup.title.string:
        meta.setdefault("title", soup.title.string.strip())
    for tag in soup(["script", "style", "noscript", "template"]):
        tag.decompose()
    lines: list[str] = []
    body = soup.body or soup
    for el in body.find_all(["h1", "h2", "h3", "h4", "p", "li", "table", "pre", "blockquote"]):
        if el.find_parent(["table", "li", "blockquote"]) is not None and el.name != "table":
            continue
        if el.name == "table":
            if el.find_parent("table") is not None:
                continue
            lines.extend(_table_rows(el))
            lines.append("")
        elif el.name in {"h1", "h2", "h3", "h4"}:
            lines.extend(["", "#" * int(el.name[1]) + " " + el.get_text(" ", strip=True), ""])
        else:
            content = el.get_text(" ", strip=True)
            if content:
                lines.extend([("- " if el.name == "li" else "") + content, ""])
    body_text = "\n".join(lines).strip()
    if not body_text:
        body_text = body.get_text("\n", strip=True)
    return meta, body_text


def _table_rows(table: Any) -> list[str]:
    rows = []
    for i, tr in enumerate(table.find_all("tr")):
        cells = [c.get_text(" ", strip=True).replace("|", "/") for c in tr.find_all(["th", "td"])]
        if cells:
            rows.append("| " + " | ".join(cells) + " |")
            if i == 0 and tr.find("th") is not None:
                rows.append("|" + "---|" * len(cells))
    return rows


def _read_pdf(path: Path) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    import logging

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    with path.open("rb") as head:
        start = head.read(1024)
    if b"%PDF-" not in start:
        # HTML or text saved as .pdf: said in one line, without the PDF library's warnings about it
        kind = ("HTML" if re.search(rb"(?i)<\s*(?:!doctype|html|head|body)\b", start) else "text"
                if _looks_like_text(start) else "some other format")
        raise LoadError(f"not a PDF: the file holds {kind} (it has no %PDF- header); rename it or convert it")
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings on damaged files are not the user's to read
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted:
            try:
                ok = reader.decrypt("")
            except Exception:  # pypdf raises DependencyError/NotImplementedError for some ciphers
                ok = 0
            if not ok:
                raise LoadError("encrypted PDF (a password is required)")
        pages = [(i + 1, (page.extract_text() or "").strip()) for i, page in enumerate(reader.pages)]
        info = reader.metadata or {}
    except LoadError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise LoadError(f"broken PDF: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    pages = [(n, t) for n, t in pages if t]
    if not pages:
        raise LoadError("PDF has no extractable text (scanned images?)")
    meta: dict[str, Any] = {}
    title = getattr(info, "title", None)
    if title:
        meta["title"] = str(title)
    return meta, pages


def _looks_like_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\x00" not in data


def _records_from_json(item: InputFile, text: str, ext: str, overrides: Overrides,
                       ttl_days: dict[str, int]) -> list[SourceRecord]:
    bad: list[tuple[str, str]] = []
    if ext == ".jsonl":
        rows: list[tuple[str, Any]] = []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                rows.append((f"line {n}", json.loads(line)))
            except json.JSONDecodeError as exc:
                bad.append((f"line {n}", f"invalid JSON: {exc.msg}"))
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LoadError(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
        items = data if isinstance(data, list) else [data]
        rows = [(f"record {i + 1}", row) for i, row in enumerate(items)]
    if not rows and not bad:
        raise LoadError("no records in file")
    # the file's records are one document's pages, often: a word broken on one page stands whole on another
    words = vocabulary(str(row.get("text") or row.get("content") or "") for _, row in rows if isinstance(row, dict))
    records: list[SourceRecord] = []
    for where, row in rows:
        try:
            records.append(_record(item, where, row, words, overrides, ttl_days))
        except LoadError as exc:
            bad.append((where, str(exc).removeprefix(f"{where}: ")))
    if bad and not records:
        raise LoadError("; ".join(f"{where}: {reason}" for where, reason in bad[:3])
                        + (f" (and {len(bad) - 3} more)" if len(bad) > 3 else ""))
    if bad:
        raise PartialLoad(records, bad)  # the good records go in; each bad one is listed with its line
    return records


def _record(item: InputFile, where: str, row: Any, words: Any, overrides: Overrides,
            ttl_days: dict[str, int]) -> SourceRecord:
    """One record of a records file, or LoadError with the reason."""
    if not isinstance(row, dict):
        raise LoadError(f"expected a JSON object, got {type(row).__name__}")
    unknown = set(row) - RECORD_FIELDS
    if unknown:
        raise LoadError(f"unknown field(s) {', '.join(sorted(unknown))}")
    meta = dict(row)
    body = meta.pop("text", None) or meta.pop("content", None)
    meta.pop("content", None)
    if not isinstance(body, str) or not body.strip():
        raise LoadError("needs a non-empty 'text' or 'content' string")
    body = repair_extraction(body, words)
    meta["text"] = body
    page = meta.pop("page", None)
    sid = str(meta.pop("source_id", "") or f"{item.source_id}#{where.split()[-1]}")
    if page is not None and (isinstance(page, bool) or not isinstance(page, (int, str))
                             or not str(page).strip().isdigit()):
        raise LoadError(f"'page' must be a page number, not {page!r}")
    pages = [(int(page), body)] if page is not None else None
    return _build(InputFile(item.path, sid), meta, overrides, ttl_days, pages=pages, where=where)


def _build(item: InputFile, meta: dict[str, Any], overrides: Overrides, ttl_days: dict[str, int], *,
           pages: list[tuple[int, str]] | None = None, where: str | None = None) -> SourceRecord:
    meta = {k: v for k, v in meta.items() if k in RECORD_FIELDS and v not in (None, "")}
    if pages is not None:
        meta["text"] = "\n\n".join(t for _, t in pages)
    if overrides.doc_type:
        meta["doc_type"] = overrides.doc_type
    if overrides.company:
        meta["company"] = overrides.company
    if overrides.fiscal_year:
        meta["fiscal_year"] = overrides.fiscal_year
    meta.setdefault("title", item.path.stem.replace("-", " ").replace("_", " "))
    doc_type = str(meta.get("doc_type", "report")).lower()
    meta["doc_type"] = doc_type
    _fill_identity(meta, item, pages)
    for key in ("published_at", "period_end"):
        if isinstance(meta.get(key), (datetime,)):
            meta[key] = meta[key].date()
        if isinstance(meta.get(key), date):
            meta[key] = meta[key].isoformat()
    if isinstance(meta.get("fiscal_year"), str):
        try:
            meta["fiscal_year"] = parse_fiscal_year(meta["fiscal_year"])
        except ValueError:
            pass  # left as written: the record's validation names the field
    if isinstance(meta.get("form"), str):
        meta["form"] = normalize_form(meta["form"]) or meta["form"]
    if isinstance(meta.get("fiscal_quarter"), str):
        meta["fiscal_quarter"] = meta["fiscal_quarter"].strip().upper().removeprefix("Q")
    origin = str(item.path) + (f"#{where}" if where else "")
    try:
        return SourceRecord(
            source_id=item.source_id, origin=origin, pages=pages,
            ttl_days=ttl_days.get(doc_type, ttl_days["report"]),
            **{k: meta[k] for k in meta if k in _MODEL_FIELDS},
        )
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'record'}: {e['msg']}" for e in exc.errors())
        raise LoadError((f"{where}: " if where else "") + f"invalid metadata ({problems})") from None


def _fill_identity(meta: dict[str, Any], item: InputFile, pages: list[tuple[int, str]] | None) -> None:
    """Fill what the file did not say (company, fiscal year, form, quarter, period end, ticker, filing date)
    from its title, source id and file name, then from a report's cover. The company's other spellings become
    `company_aliases`; a company the file did state is never replaced here. A registrant of another name is an
    alias only when the file's name gives the company stated (a company renamed since it filed)."""
    identity = read_identity(str(meta.get("title", "")), item.source_id, item.path.name,
                             text=_cover_text(meta, pages))
    given = meta.get("company")
    if given:
        # the company the file's name gives, stated again: the registrant its cover names in the 'Exact name of
        # registrant' line is that company's name when it filed, however unlike ('SQUARE, INC.' of BLOCK_2020_10K)
        renamed = identity.company is not None and related_names(str(given), identity.company)
        others = [identity.company, *identity.aliases]
        meta["company_aliases"] = [a for a in dict.fromkeys(others) if a and a != given
                                   and (related_names(str(given), a) or (renamed and a in identity.aliases))]
    elif identity.company:
        meta["company"] = identity.company
        meta["company_aliases"] = list(identity.aliases)
    filled = {"fiscal_year": identity.fiscal_year, "form": identity.form, "fiscal_quarter": identity.fiscal_quarter,
              "period_end": identity.period_end, "ticker": identity.ticker, "published_at": identity.filing_date}
    for key, value in filled.items():
        if value is not None and key not in meta:
            meta[key] = value


def _cover_text(meta: dict[str, Any], pages: list[tuple[int, str]] | None) -> str | None:
    """A report's first pages (news items have no cover to read)."""
    if meta.get("doc_type") != "report":
        return None
    if pages is None:
        return str(meta.get("text", ""))[:COVER_CHARS]
    front = [t for n, t in pages if n <= COVER_PAGES]
    return "\n\n".join(front)[:COVER_CHARS] or None

