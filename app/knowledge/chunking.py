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
from app.text.dates import LONG_MONTHS, MONTHS
from app.text.periods import YEAR
from app.text.statements import declares_shares, grid_columns, is_period_line, periods_after_note, statement_lines
from app.text.units import unit_declarations

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[\"'“(\[]?[A-Z0-9£$€])")
_DIGIT = re.compile(r"\d")
TABULAR_MIN_LINES = 6
TABULAR_DIGIT_SHARE = 0.4
TABULAR_MAX_MEAN_CHARS = 60
"""A block of at least TABULAR_MIN_LINES short lines (mean length at most TABULAR_MAX_MEAN_CHARS) of which at
least TABULAR_DIGIT_SHARE hold a figure is a statement as PDF text extraction gives it (a label line, then a
line per value): its lines are kept as lines, so that a row and its values can still be read."""


@dataclass
class _Unit:
    text: str
    tokens: int
    section: str | None
    is_table: bool
    table_header: str | None = None
    keeps_lines: bool = False  # a line of a tabular page: joined to its neighbours by line breaks
    in_header: bool = False  # one of the lines that head a tabular page (title, unit, column periods)
    breaks_line: bool = False  # prose that starts a line of its own: a heading or an enumerated item
    caption: str | None = None  # the sentence that leads into the table ('… (amounts in millions):')


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
        _size_units(units, max_tokens, record.title)
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
    text = statement_lines(text)  # pypdf's 'Deferred revenue' / '618,622 443,472 Total current liabilities'
    plain = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("|")]
    tabular = is_tabular(plain)
    first_unit = len(units)
    prose: list[str] = []
    # A statement page's blank lines part a label from its values: its lines are read as one block.
    for block in [text] if tabular else _blocks(text):
        lines = [ln for ln in block.strip().splitlines() if ln.strip()]
        if not lines:
            continue
        i = 0
        while i < len(lines):
            heading = _HEADING.match(lines[i])
            if heading:
                _flush_prose(prose, units, section, tabular)
                section = heading.group(2).strip()
                i += 1
            elif lines[i].lstrip().startswith("|"):
                _flush_prose(prose, units, section, tabular)
                rows = []
                while i < len(lines) and lines[i].lstrip().startswith("|"):
                    rows.append(lines[i].strip())
                    i += 1
                _table_units(rows, units, section)
            elif not tabular and (run := _table_run(lines, i)):
                # a table inside running text ('Wireless financial results' / '2024 2023 % Chg' / 'Revenue
                # 2,761.0 2,670.0 3.4' / …): its lines stay lines, as on a statement page, so its rows can be read
                _flush_prose(prose, units, section, tabular)
                caption = _lead_in(units, section)
                # (its column line may end in its years: '($ in millions) 2023 2022 2021')
                for row, head in _run_rows([ln.strip() for ln in lines[i:i + run]]):
                    units.append(_Unit(row, 0, section, False, table_header="\n".join(
                        [caption, *head] if caption else head) or None, keeps_lines=True,
                        in_header=row.split("\n")[0] in head, caption=caption))
                i += run
            elif not tabular and (_ENUMERATED_LINE.match(lines[i]) or _heading_line(lines, i)):
                # a heading or an item of a list keeps its own line, so a list can be read back as a list
                _flush_prose(prose, units, section, tabular)
                prose.append(lines[i].strip())
                if _heading_line(lines, i):  # a heading or a titled item: its paragraph starts a line too
                    _flush_prose(prose, units, section, tabular, breaks_line=True)
                    if i + 1 < len(lines) and not _table_run(lines, i + 1):  # (a table's title is the table's)
                        prose.append(lines[i + 1].strip())
                        _mark_break(prose)
                        i += 1
                else:
                    _mark_break(prose)
                i += 1
            else:
                prose.append(lines[i].strip())
                i += 1
        _flush_prose(prose, units, section, tabular)
    if tabular:
        units[first_unit:] = _head_tabular(units[first_unit:], statement_headers(plain))
    return units, section


def _lead_in(units: list[_Unit], section: str | None) -> str | None:
    """The sentence just before a table that leads into it ('The following table details our average MAUs … for
    each of our reportable segments (amounts in millions):'), taken from the prose into the table's chunks: it
    names what the rows count and their unit, which the rows themselves ('King 249 247 258') never say."""
    if not units or units[-1].is_table or units[-1].keeps_lines or units[-1].section != section:
        return None
    text = units[-1].text.strip()
    if not text.endswith(":") or len(text) > _LEAD_IN_CHARS:
        return None
    units.pop()
    return text


_LEAD_IN_CHARS = 400


def _blocks(text: str) -> list[str]:
    """The text's blocks, parted by blank lines; a table's title and unit line that a blank line parts from its
    column pieces ('Segment Information (dollars in millions)' / '' / 'Fiscal' / '2015' / …) stay with them."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln.strip() for ln in block.strip().splitlines() if ln.strip()]
        before = [ln.strip() for ln in out[-1].strip().splitlines() if ln.strip()] if out else []
        if (lines and before and len(before) <= 3 and unit_declarations(before[-1]) and len(before[-1]) <= 90
                and not _SENTENCE_END.search(before[-1]) and not before[-1].endswith(".")
                and (_PERIOD_PIECE.match(lines[0]) or is_period_line(lines[0]))):
            out[-1] = f"{out[-1]}\n{block}"
        elif lines and before and _TITLE_LINE.match(before[-1]) and is_period_line(lines[0]):
            # a table's title a blank line parts from its header ('Domestic Streaming Segment' / '' / 'As of/ Year
            # Ended December 31, Change'): the title goes with its table, the text before it stays a block
            kept = out[-1].rstrip().rsplit("\n", 1)[0] if len(before) > 1 else ""
            out[-1:] = [kept] if kept.strip() else []
            out.append(f"{before[-1]}\n{block}")
        else:
            out.append(block)
    return out


_TITLE_LINE = re.compile(r"^[A-Z][A-Za-z&'’-]*(?:\s+(?:[A-Z][A-Za-z&'’-]*|and|of|&)){0,5}$")
"""A line that can title a table: a few capitalised words and nothing else ('Domestic Streaming Segment')."""


_PERIOD_PIECE = re.compile(r"(?i)^\s*(?:\(?(?:19|20)\d{2}\)?|fiscal|fy|years?|ended|as\s+of|\(in\s+\w+\)|%?\s*change|"
                           r"\(?(?:19|20)\d{2}\s*(?:[-–/]|vs\.?)\s*(?:19|20)\d{2}\)?|"
                           r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\.?\s+\d{1,2},?)\s*$")
"""A piece of a table's header that PDF extraction puts on a line of its own ('Fiscal', '2016', '(in millions)')."""
HEAD_PIECES = 13
"""At most this many such lines head a table (three years and two change columns, a line for each word and year:
'Fiscal' / '2015' / … / '% Change' / '2015-2014' / …, under its title)."""
TABLE_RUN_MIN_ROWS = 3
"""Lines of running text that form a table: at least this many rows that end in two figures or more."""
_ROW_VALUES = re.compile(r"(?:\s+(?:up|down)?\s?[(\-–—+]?(?:[$£€¥]|[A-Z]{1,3}\$)?\s?\d[\d,.]*\s?\)?(?:\s?%)?\)?[a-z]{0,3}|"
                         r"\s+[–—-](?=\s|$)|\s+\$|\s+n/?m|\s+#(?=\s|$)){2,}(?:\s+(?:pts?|pp|bps|x|times|%))?"
                         r"(?:\s*\([a-z]{1,2}\))*\s*$")  # (a footnote's mark after the last figure: '… 51 59 (a)')
_SENTENCE_WORDS = re.compile(r"(?i)\b(?:was|were|is|are|rose|fell|grew|increased|decreased|declined|reached|"
                             r"compared|had|has|have|reflect\w*|driven|due)\b")


def _row_like(line: str) -> bool:
    """A line of a table: a label and two figures or more ('Revenue 2,761.0 2,670.0 3.4'), not a sentence."""
    return bool(_ROW_VALUES.search(line)) and not _SENTENCE_WORDS.search(line) and len(line) <= 160


def _head_like(line: str) -> bool:
    """A table's title, unit or column line ('Wireless financial results', '(in millions of Canadian dollars)',
    '2024 2023 % Chg', 'Iron Ore FY2024 FY2023 Change')."""
    line = line.strip()
    if len(line) > 90 and grid_columns(line) is not None:
        return True  # a grid's header: a measure and a period per column ('£m Revenue FY2025 Revenue FY2024 …')
    # a month written short ('in € million 31 Dec. 2024 31 Dec. 2023'), or 'vs.' between years, ends no sentence
    line = _VERSUS.sub("vs", _MONTH_SHORT.sub(lambda m: m.group(1), line))
    if len(line) > 90 and unit_declarations(line) and _long_column_line(line):
        return True  # '(Millions, except percentages, …) 2022 2021 2020 2022 vs. 2021 2021 vs. 2020'
    if len(line) > 90 or _SENTENCE_END.search(line) or line.endswith((".", ":", ";")) and not unit_declarations(line):
        return False
    return bool(is_period_line(line) or _columns_after_note(line) or unit_declarations(line)
                or len(re.findall(YEAR, line)) >= 2 or (len(line.split()) <= 8 and not _DIGIT.search(line)))


_MONTH_SHORT = re.compile(r"\b(" + "|".join(sorted((m.capitalize() for m in MONTHS if m not in LONG_MONTHS),
                                                    key=len, reverse=True)) + r")\.(?=\s*\d)")
"""A month written short, with its stop, before a day or year ('31 Dec. 2024'), from app/text/dates' names."""


_VERSUS = re.compile(r"\b(vs|v)\.(?=\s*(?:19|20)\d{2}\b)")
"""'2022 vs. 2021': the point of an abbreviation before a year, no stop."""


def _table_run(lines: list[str], start: int) -> int:
    """How many lines from `start` form a table (its heading lines, then TABLE_RUN_MIN_ROWS rows or more, with
    a heading line allowed between them); 0 when they do not."""
    i = start
    if _title_like(lines, start):
        i += 1
    # ('Fair value level June 30, 2023 December 31, 2022' ends in figures, and heads the columns)
    # (a header PDF extraction gives a piece a line: '(in millions)' / 'Fiscal' / '2016' / 'Fiscal' / '2015' / …)
    while i < len(lines) and (i - start < 3 or (_PERIOD_PIECE.match(lines[i]) and i - start < HEAD_PIECES)) \
            and (_head_like(lines[i]) or _subheading(lines[i])) \
            and (not _row_like(lines[i]) or _dates_columns(lines[i])):
        i += 1
    rows = 0
    end = i
    while i < len(lines):
        if _row_like(lines[i]):
            rows += 1
            end = i + 1
        elif not (_heads_rows(lines[i]) and i + 1 < len(lines) and (_row_like(lines[i + 1]) or (
                # two headings before the next rows ('Selected balance sheet data (period-end)' / 'Credit quality
                # metrics' / 'Loans-to-deposits ratio 44 47 …'): the table goes on
                _heads_rows(lines[i + 1]) and i + 2 < len(lines) and _row_like(lines[i + 2])))):
            break
        i += 1
    return end - start if rows >= TABLE_RUN_MIN_ROWS else 0


def _heads_rows(line: str) -> bool:
    """A line that may head the rows after it inside a table: a heading or a group's sub-heading."""
    return _head_like(line) or _subheading(line)


def _dates_columns(line: str) -> bool:
    """A line whose figures are all years and days of dates ('Fair value level June 30, 2023 December 31, 2022'):
    a header, though it ends in figures as a row does."""
    numbers = re.findall(r"\d[\d,.]*", line)
    years = re.findall(YEAR, line)
    return len(years) >= 2 and all(n.rstrip(",.") in years or (n.rstrip(",.").isdigit() and int(n.rstrip(",.")) <= 31)
                                   for n in numbers)


def _subheading(line: str) -> bool:
    """A line that heads a group of a table's rows ('Short-term investments:', 'Cash and cash equivalents:'): a
    few words without figures, a capital first, a colon last."""
    line = line.strip()
    return (line.endswith(":") and line[:1].isupper() and len(line.split()) <= 6 and not _DIGIT.search(line)
            and not _SENTENCE_WORDS.search(line))


def _title_like(lines: list[str], i: int) -> bool:
    """A table's title too long for a head line ('Reference: Non-consolidated information of the parent company
    (Japanese GAAP, unaudited summary)', 'Number of employees (consolidated) by segment, at year-end'): a line of
    its own that opens with a capital and ends no sentence, after a line that ends one or heads the text (so not
    the wrapped end of a paragraph)."""
    line = lines[i].strip()
    if (not line or len(line) > 130 or not line[:1].isupper() or line.endswith((".", ",", ";"))
            or _SENTENCE_END.search(line) or _row_like(line) or _SENTENCE_WORDS.search(line)):
        return False
    if i == 0:
        return True
    before = lines[i - 1].strip()
    return before.endswith((".", ":", ";", "?", "!")) or _heading_line(lines, i - 1)


_PERIOD_LINE = re.compile(rf"(?i)^\(?{YEAR}\)?$|\b(?:ended|ending|months|weeks|as of|at)\b.{{0,40}}{YEAR}|"
                          rf"^(?:{YEAR}\s+){{1,5}}{YEAR}$|\b(?:years?|quarters?|months) ended\b|"
                          rf"^(?:{YEAR}\s+){{0,4}}{YEAR}\s+(?-i:[A-Z][a-z]+)$")
"""A line of a statement's header: its columns' periods ('2020', 'Years ended December 31'), or the last
column's year with the first heading run into it ('2019 Assets')."""
HEADER_LINES = 15


def statement_header(lines: list[str]) -> list[str]:
    """The lines that head a statement page: everything up to its last column-period line among the first
    HEADER_LINES (title, 'Years ended December 31', '(Millions)', '2018', '2017', ...), before the first row under
    one (a period line below that heads the next table); none when it has none."""
    last = -1
    for i, line in enumerate(lines[:HEADER_LINES]):
        if _PERIOD_LINE.search(line) or is_period_line(line):
            last = i
        elif last >= 0 and _ROW_VALUES.search(line):
            break
    return lines[:last + 1]


TITLE_LINES = 3
"""Short lines just above a unit line, without figures or naming periods, are the statement's title (company,
statement name, 'Years ended December 31')."""


def _long_column_line(line: str) -> bool:
    """A unit line longer than most that still heads columns, not prose: its years, then the columns' names
    ('($ in Millions) 2023 2022 Reported Operational1,2 Currency Adjusted Operational1,3')."""
    if _columns_after_note(line):
        return True  # '… (in millions, except per share, ratio, headcount data and where otherwise noted) 1Q21 4Q20'
    line = _VERSUS.sub("vs", line)
    return (len(line) <= 130 and len(re.findall(YEAR, line)) >= 2 and not _SENTENCE_WORDS.search(line)
            and not _SENTENCE_END.search(line) and not _ROW_VALUES.search(line))


def _columns_after_note(line: str) -> bool:
    """Whether a line is a unit note's end and then the columns' periods ('and where otherwise noted) 1Q21 4Q20
    3Q20')."""
    columns = periods_after_note(line)
    return len(columns.split()) >= 2 and is_period_line(columns)


def statement_headers(lines: list[str]) -> list[tuple[int, list[str]]]:
    """(first line, header lines) of each statement on a page, in order: from its title (up to TITLE_LINES
    short lines without figures above its unit line, '(In millions, except per share data)') to its last
    column-period line. A text filing without pages holds many statements, each with its own header; a page
    with no unit line has the one header `statement_header` finds at its top."""
    spans: list[tuple[int, list[str]]] = []
    for i, line in enumerate(lines):
        # (a long unit line may leave its note open for the next line to close before the columns: '… headcount
        # data' / 'and where otherwise noted) 1Q21 4Q20')
        opens_note = line.count("(") > line.count(")") and i + 1 < len(lines) and _columns_after_note(lines[i + 1])
        if (len(line) > 80 and not _long_column_line(line) and not opens_note) \
                or not (unit_declarations(line) or declares_shares(line)) \
                or (spans and i < spans[-1][0] + len(spans[-1][1])):
            continue
        run_in = _UNIT_RUN_IN.match(line) if i and (is_period_line(lines[i - 1]) or _PERIOD_LINE.search(
            lines[i - 1])) else None
        if i + 1 < len(lines) and _VALUE_LINE.match(lines[i + 1]) and not _YEAR_ONLY.match(lines[i + 1]) \
                and not run_in:
            continue  # a row that says its unit ('Sales (millions)' / '$' / '6,021'), not a statement's unit line
        start = i
        while start > 0 and i - start < TITLE_LINES and len(lines[start - 1]) <= 80 and (
                not _DIGIT.search(lines[start - 1]) or _PERIOD_LINE.search(lines[start - 1])
                or _dates_columns(lines[start - 1]) or is_period_line(lines[start - 1])):
            start -= 1
        if not spans and i < HEADER_LINES and all(len(above) <= 80 for above in lines[:i]):
            start = 0  # a statement that opens its page: the page's first lines are its header (not its prose)
        if 0 < start < i and re.match(r"[a-z]", lines[start]) and lines[start].endswith(":") \
                and not _DIGIT.search(lines[start - 1]):
            start -= 1  # a lead-in sentence wrapped onto the title's line ('… based on' / 'selling operations:')
        last = i
        for j in range(i, min(i + HEADER_LINES, len(lines))):
            if _PERIOD_LINE.search(lines[j]) or is_period_line(lines[j]) or _columns_after_note(lines[j]):
                last = j
            elif j > i and _ROW_VALUES.search(lines[j]):
                break  # the table's first row: a period line below it heads the next table, not this one
        head = lines[start:last + 1]
        if run_in and last == i:
            # the unit line under the years with the first row's label run into it ('(in thousands, except per
            # share data) Revenues' / '$ 6,779,511 …'): the header is the unit, the label is the row's
            head[-1] = run_in.group("unit")
        spans.append((start, head))
    # a table further down the page whose years stand a line each under its title ('Health Care Business (18.4%
    # of consolidated sales):' / '2018' / '2017' / '2016'), as pypdf gives a segment's table in the MD&A
    for i in range(1, len(lines) - 1):
        if (_YEAR_ONLY.match(lines[i]) and _YEAR_ONLY.match(lines[i + 1]) and not _YEAR_ONLY.match(lines[i - 1])
                and not any(start <= i < start + len(head) for start, head in spans)):
            end = i
            while end + 1 < len(lines) and _YEAR_ONLY.match(lines[end + 1]):
                end += 1
            title = lines[i - 1].strip()
            start = i - 1 if title.endswith(":") and len(title) <= 100 and not _SENTENCE_END.search(title[:-1]) else i
            spans.append((start, lines[start:end + 1]))
    # a later table that a period line of its own heads ('(11.3)' / '%' / 'Year ended December 31, 2022' /
    # 'Worldwide Sales Change' / …): its rows are not under the earlier header
    for i in range(1, len(lines)):
        if (_SPAN_ENDED.match(lines[i]) and any(s < i for s, _ in spans)
                and not any(start <= i < start + len(head) for start, head in spans)):
            # with its columns' names, a line each, down to the first row's label (the line a value follows)
            end = i + 1
            while (end + 1 < len(lines) and end - i <= HEAD_PIECES and len(lines[end]) <= 40
                   and not _VALUE_LINE.match(lines[end]) and not _VALUE_LINE.match(lines[end + 1])):
                end += 1
            named = end + 1 < len(lines) and _VALUE_LINE.match(lines[end + 1])
            spans.append((i, lines[i:end] if named else [lines[i]]))
    spans.sort(key=lambda span: span[0])
    if not spans and (header := statement_header(lines)):
        spans.append((0, header))
    # a later table whose header is its title and a line of its columns' years, with no unit line ('Total assets
    # and capital spending of each division are as follows:' / 'Total Assets Capital Spending' / '2022 2021 2022
    # 2021 2020' / 'FLNA $ 11,042 …'): its rows are not under the header of the table above
    for i in range(1, len(lines) - 1):
        if (_YEARS_LINE.match(lines[i]) and not _DIGIT.search(lines[i - 1]) and _ROW_VALUES.search(lines[i + 1])
                and any(start < i for start, _ in spans)
                and not any(start <= i < start + len(head) for start, head in spans)):
            start = i
            while start > 0 and i - start < TITLE_LINES and len(lines[start - 1]) <= 100 \
                    and not _DIGIT.search(lines[start - 1]):
                start -= 1
            spans.append((start, lines[start:i + 1]))
    spans.sort(key=lambda span: span[0])
    return spans


_UNIT_RUN_IN = re.compile(r"^(?P<unit>\((?:in\s+)?(?:thousands|millions|billions)\b[^()]{0,80}\))\s+[A-Z][\w ,'’-]{2,60}$",
                          re.IGNORECASE)
"""A unit line in brackets with a row's label after it, as PDF extraction runs them together."""
_YEARS_LINE = re.compile(rf"^\s*(?:{YEAR}\s+){{1,7}}{YEAR}\s*$")
_YEAR_ONLY = re.compile(r"^\s*\(?(?:19|20)\d{2}\)?\s*$")
_SPAN_ENDED = re.compile(rf"(?i)^(?:(?:fiscal\s+)?years?|(?:three|six|nine|twelve)\s+months|quarters?|"
                         rf"(?:13|26|39|52|53)\s+weeks)\s+ended\b.{{0,30}}{YEAR}$")
"""A line that is a table's period and nothing else ('Year ended December 31, 2022')."""


def _head_tabular(units: list[_Unit], headers: list[tuple[int, list[str]]]) -> list[_Unit]:
    """Every later chunk of a statement repeats its header, as a table repeats its header row: each row takes
    the header of the statement it sits in (the last one that starts at or before it). A unit a header starts
    inside (a sentence's line with the years under it, '… on business segments.' / '2022' / '2021') is cut
    where the header starts, so that the header's lines go with its table."""
    if not headers:
        return units
    starts = {start for start, _ in headers}
    cut: list[_Unit] = []
    covered = 0
    for unit in units:
        lines = unit.text.split("\n")
        inside = [k for k in range(1, len(lines)) if covered + k in starts] if unit.keeps_lines else []
        for a, b in zip([0, *inside], [*inside, len(lines)]):
            cut.append(unit if not inside else _Unit("\n".join(lines[a:b]), 0, unit.section, unit.is_table,
                                                     keeps_lines=True))
        covered += len(lines)
    covered = 0
    for unit in cut:
        if not unit.keeps_lines:
            continue
        current = [(start, lines) for start, lines in headers if start <= covered]
        if current:
            start, lines = current[-1]
            unit.table_header = "\n".join(lines)
            unit.in_header = covered < start + len(lines)
        covered += unit.text.count("\n") + 1
    return cut


def is_tabular(lines: list[str]) -> bool:
    """Whether a page's lines are a statement as PDF text extraction gives it (see TABULAR_MIN_LINES)."""
    if len(lines) < TABULAR_MIN_LINES:
        return False
    with_figures = sum(1 for line in lines if _DIGIT.search(line))
    return (with_figures >= TABULAR_DIGIT_SHARE * len(lines)
            and sum(len(line) for line in lines) / len(lines) <= TABULAR_MAX_MEAN_CHARS)


_VALUE_LINE = re.compile(r"^[\s$£€%()\-—–.,\d*]+$")


_DATED = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|"
                    r"\b(?:19|20)\d{2}\s*\)?\s*$")
"""A line that dates something ('… for the fiscal year ending March 31, 2026'): a table's title, no row of it."""


def _run_rows(lines: list[str]) -> list[tuple[str, list[str]]]:
    """A table run's rows (`_rows`), each with the header that stands above it: the run's first lines that are no
    row, or a period line (its column dates) further down, with the lines that lead to it, once rows have been
    read: 'For the Quarters Ended' / 'December 31, 2018 (1) September 30, 2018 …' heads the second year's rows,
    and a later chunk of them repeats that header, not the first year's."""
    def header_of(part: list[str]) -> list[str]:
        head = [ln for ln in part if not _ROW_VALUES.search(ln) or _dates_columns(ln)]
        # (a title over the header, 'International Streaming Segment', is a line more: the unit line stays)
        least = 3 + bool(head and _TITLE_LINE.match(head[0]) and not is_period_line(head[0]))
        pieces = next((k for k, ln in enumerate(head) if not _PERIOD_PIECE.match(ln) and k >= least), len(head))
        return head[:max(least, min(pieces, HEAD_PIECES))]  # the header's pieces, a line each

    head = header_of(lines)
    rows = _rows(lines)
    out: list[tuple[str, list[str]]] = []
    seen_rows = False
    for k, row in enumerate(rows):
        first = row.split("\n")[0]
        if seen_rows and _dates_columns(first):
            # a new header within the run: the lines just above it that are no rows (its title) and those after
            # it up to the next row
            above = [r for r in rows[max(0, k - 2):k] if not _ROW_VALUES.search(r.split("\n")[0])]
            below = []
            for later in rows[k + 1:k + 3]:
                if _ROW_VALUES.search(later.split("\n")[0]) and not _dates_columns(later.split("\n")[0]):
                    break
                below.append(later)
            head = [*above, row, *below]
            for j in range(len(out) - len(above), len(out)):  # the title lines above it head this table
                out[j] = (out[j][0], head)
        elif _ROW_VALUES.search(first) and not _dates_columns(first) and not _DATED.search(first):
            seen_rows = True  # a row of figures ('Net revenues $ 1,986 …'), not a title that dates the table
        out.append((row, head))
    return out


def _rows(lines: list[str]) -> list[str]:
    """A tabular page's lines grouped into rows: a line with words, then the value-only lines after it, so that
    a chunk never parts a label from its values."""
    rows: list[list[str]] = []
    for line in lines:
        if rows and _VALUE_LINE.match(line):
            rows[-1].append(line)
        else:
            rows.append([line])
    return ["\n".join(row) for row in rows]


_LINE_BREAK = "\x00"
"""Marks, at the head of the prose collected, that its first sentence starts a line (see _mark_break)."""
_ENUMERATED_LINE = re.compile(r"^\s*(?:\d{1,2}[.)]|\((?:[a-z]|[ivx]{1,4}|\d{1,2})\)|[•▪●◦]|[-*](?=\s))\s+\S")
_LINE_END_WORDS = frozenset("the a an of and or to in for with on by at as from that which its our their".split())


def _heading_line(lines: list[str], i: int) -> bool:
    """A short line that heads the text after it ('Principal Business Risks', '25. Events after the reporting
    period'): at most eight words, a capital first, no closing mark or dangling word, and a next line that
    starts with a capital or an enumeration."""
    line = lines[i].strip()
    words = line.split()
    if not 0 < len(words) <= 8 or i + 1 >= len(lines):
        return False
    bare = re.sub(r"^\d{1,2}(?:\.\d{1,2})?[.)]?\s+", "", line)
    following = lines[i + 1].strip()
    return (bare[:1].isupper() and not line.endswith((".", ",", ";", ":", "-", "–"))
            and words[-1].lower() not in _LINE_END_WORDS and not _ROW_VALUES.search(line)
            and (following[:1].isupper() or bool(_ENUMERATED_LINE.match(following))))


def _mark_break(prose: list[str]) -> None:
    prose[0] = _LINE_BREAK + prose[0].removeprefix(_LINE_BREAK)


def _flush_prose(prose: list[str], units: list[_Unit], section: str | None, tabular: bool = False,
                 breaks_line: bool = False) -> None:
    if prose and tabular:
        units.extend(_Unit(row.replace(_LINE_BREAK, ""), 0, section, False, keeps_lines=True) for row in _rows(prose))
        prose.clear()
    if prose:
        paragraph = " ".join(prose)
        breaks = breaks_line or paragraph.startswith(_LINE_BREAK)
        for n, sentence in enumerate(_SENTENCE_END.split(paragraph.replace(_LINE_BREAK, ""))):
            if sentence.strip():
                units.append(_Unit(sentence.strip(), 0, section, False, breaks_line=breaks and n == 0))
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


def _size_units(units: list[_Unit], max_tokens: int, title: str) -> None:
    """Count tokens per unit and split any unit that would not fit in a chunk beside its context header."""
    counts = count_many([u.text for u in units])
    headers: dict[tuple[str | None, str | None], int] = {}
    i = 0
    while i < len(units):
        unit = units[i]
        key = (unit.section, unit.table_header)
        if key not in headers:
            headers[key] = _header_cost(title, unit)
        if headers[key] > max_tokens // 2 and unit.table_header:
            # a header that would leave a row less than half a chunk is not repeated: words are never cut up
            # to make room for it
            unit.table_header = None
            key = (unit.section, None)
            headers.setdefault(key, _header_cost(title, unit))
        unit.tokens = counts[i]
        if counts[i] > max_tokens - headers[key]:
            halves = _split_in_two(unit.text)
            if halves:
                units[i:i + 1] = [_Unit(h, 0, unit.section, unit.is_table, unit.table_header) for h in halves]
                counts[i:i + 1] = count_many(list(halves))
                continue
        i += 1


def _split_in_two(text: str) -> tuple[str, str] | None:
    """Halve a text at a word boundary, or at a token boundary when it has no spaces."""
    words = text.split()
    if len(words) > 1:
        half = len(words) // 2
        return " ".join(words[:half]), " ".join(words[half:])
    from app.knowledge.tokens import _tokenizer

    offsets = _tokenizer().encode(text, add_special_tokens=False).offsets
    if len(offsets) < 2:
        return None
    cut = offsets[len(offsets) // 2][0]
    return text[:cut], text[cut:]


def _header_cost(title: str, unit: _Unit) -> int:
    texts = [context_header(title, unit.section)]
    if (unit.is_table or unit.keeps_lines) and unit.table_header:
        texts.append(unit.table_header)
    return sum(count_many(texts)) + len(texts)


def _pack(units: list[_Unit], title: str, max_tokens: int, overlap: int):  # type: ignore[no-untyped-def]
    current: list[_Unit] = []
    used = 0

    def header_cost(unit: _Unit) -> int:
        return _header_cost(title, unit)

    def emit(cur: list[_Unit]):  # type: ignore[no-untyped-def]
        first = cur[0]
        lines = [u.text for u in cur]
        if (first.is_table or (first.keeps_lines and not first.in_header)) and first.table_header:
            lines.insert(0, first.table_header)
        elif first.in_header and first.caption:
            lines.insert(0, first.caption)  # (the header lines are the chunk's own first units)
        tokens = sum(u.tokens for u in cur) + header_cost(first)
        if first.is_table or first.keeps_lines:
            return "\n".join(lines), first.section, first.is_table, tokens
        # prose: sentences run on, but a heading or a list item starts its own line
        offset = len(lines) - len(cur)
        text = lines[0] if offset else ""
        for k, unit in enumerate(cur):
            text += ("\n" if unit.breaks_line and (text or k) else " " if text else "") + lines[offset + k]
        return text, first.section, first.is_table, tokens

    def carry_fits(cur: list[_Unit], unit: _Unit) -> bool:
        return used + unit.tokens <= budget

    budget = max_tokens
    for unit in units:
        starts_new = bool(current) and (
            unit.is_table != current[0].is_table
            or unit.keeps_lines != current[0].keeps_lines
            or ((unit.is_table or unit.keeps_lines) and unit.table_header != current[0].table_header)
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
        if not current or not carry_fits(current, unit):
            budget = max_tokens - header_cost(unit)
            while current and used + unit.tokens > budget:  # the overlap gives way to the new unit
                used -= current.pop(0).tokens
        current.append(unit)
        used += unit.tokens
    if current:
        yield emit(current)
