"""Token-aware chunking that keeps page numbers, section headings and tables intact.

A record is cut into units (sentences of prose, rows of a table); units are packed into chunks of at most
`max_tokens` word-piece tokens. Chunks never cross a page boundary, tables are chunked apart from prose (a
table longer than one chunk repeats its header row), and consecutive prose chunks of one section share about
`overlap` tokens of trailing sentences; a new section heading always starts a new chunk, so a chunk's section is
exact. Each chunk is indexed with a short context header (title and section)
that is counted in its budget.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.knowledge.records import Chunk, SourceRecord
from app.knowledge.tokens import count_many

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[\"'“(\[]?[A-Z0-9£$€])")


@dataclass
class _Unit:
    text: str
    tokens: int
    section: str | None
    is_table: bool
    table_header: str | None = None


def context_header(title: str, section: str | None) -> str:
    return f"{title} — {section}" if section else title


def index_text(chunk: Chunk) -> str:
    """What the indexes see: the context header, then the chunk's own text."""
    return context_header(chunk.title, chunk.section) + "\n" + chunk.text


def chunk_record(record: SourceRecord, max_tokens: int = 256, overlap: int = 48) -> list[Chunk]:
    pages = record.pages or [(None, record.text)]
    chunks: list[Chunk] = []
    section: str | None = None
    for page, text in pages:
        units, section = _units(text, section)
        _size_units(units, max_tokens)
        for body, sec, is_table, tokens in _pack(units, record.title, max_tokens, overlap):
            chunks.append(Chunk(
                chunk_id=f"{record.source_id}::{record.content_sha256[:12]}::{len(chunks)}",
                source_id=record.source_id, ordinal=len(chunks), text=body, tokens=tokens, page=page,
                section=sec, is_table=is_table, title=record.title, company=record.company,
                fiscal_year=record.fiscal_year, doc_type=record.doc_type, published_at=record.published_at,
            ))
    return chunks


def _units(text: str, section: str | None) -> tuple[list[_Unit], str | None]:
    """Split text into sentence and table-row units, tracking the current heading."""
    units: list[_Unit] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.strip().splitlines() if ln.strip()]
        if not lines:
            continue
        prose: list[str] = []
        i = 0
        while i < len(lines):
            heading = _HEADING.match(lines[i])
            if heading:
                _flush_prose(prose, units, section)
                section = heading.group(2).strip()
                i += 1
            elif lines[i].lstrip().startswith("|"):
                _flush_prose(prose, units, section)
                rows = []
                while i < len(lines) and lines[i].lstrip().startswith("|"):
                    rows.append(lines[i].strip())
                    i += 1
                _table_units(rows, units, section)
            else:
                prose.append(lines[i].strip())
                i += 1
        _flush_prose(prose, units, section)
    return units, section


def _flush_prose(prose: list[str], units: list[_Unit], section: str | None) -> None:
    if prose:
        paragraph = " ".join(prose)
        for sentence in _SENTENCE_END.split(paragraph):
            if sentence.strip():
                units.append(_Unit(sentence.strip(), 0, section, False))
        prose.clear()


def _table_units(rows: list[str], units: list[_Unit], section: str | None) -> None:
    header = None
    if len(rows) >= 2 and _TABLE_RULE.match(rows[1]):
        header = rows[0] + "\n" + rows[1]
        rows = rows[2:]
    if header and not rows:
        rows, header = [header], None
    for row in rows:
        units.append(_Unit(row, 0, section, True, table_header=header))


def _size_units(units: list[_Unit], max_tokens: int) -> None:
    """Count tokens per unit; hard-split a unit that alone exceeds the budget."""
    counts = count_many([u.text for u in units])
    i = 0
    while i < len(units):
        units[i].tokens = counts[i]
        if counts[i] > max_tokens:
            words = units[i].text.split()
            half = max(1, len(words) // 2)
            if len(words) > 1:
                a, b = " ".join(words[:half]), " ".join(words[half:])
                tail = units[i]
                units[i:i + 1] = [_Unit(a, 0, tail.section, tail.is_table, tail.table_header),
                                  _Unit(b, 0, tail.section, tail.is_table, tail.table_header)]
                counts[i:i + 1] = count_many([a, b])
                continue
        i += 1


def _pack(units: list[_Unit], title: str, max_tokens: int, overlap: int):  # type: ignore[no-untyped-def]
    current: list[_Unit] = []
    used = 0

    def header_cost(unit: _Unit) -> int:
        cost = count_many([context_header(title, unit.section)])[0] + 1
        if unit.is_table and unit.table_header:
            cost += count_many([unit.table_header])[0] + 1
        return cost

    def emit(cur: list[_Unit]):  # type: ignore[no-untyped-def]
        first = cur[0]
        lines = [u.text for u in cur]
        if first.is_table and first.table_header:
            lines.insert(0, first.table_header)
        sep = "\n" if first.is_table else " "
        tokens = sum(u.tokens for u in cur) + header_cost(first)
        return sep.join(lines), first.section, first.is_table, tokens

    budget = max_tokens
    for unit in units:
        starts_new = bool(current) and (
            unit.is_table != current[0].is_table
            or (unit.is_table and unit.table_header != current[0].table_header)
            or unit.section != current[0].section
        )
        if current and (starts_new or used + unit.tokens > budget):
            yield emit(current)
            carry: list[_Unit] = []
            if not starts_new and not current[0].is_table and overlap:
                kept = 0
                for prev in reversed(current):
                    if kept + prev.tokens > overlap:
                        break
                    carry.insert(0, prev)
                    kept += prev.tokens
                if len(carry) == len(current):
                    carry = carry[1:]
            current, used = carry, sum(u.tokens for u in carry)
        if not current:
            budget = max_tokens - header_cost(unit)
        current.append(unit)
        used += unit.tokens
    if current:
        yield emit(current)
