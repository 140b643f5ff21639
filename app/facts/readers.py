"""Figures read from admitted evidence, each with its label, unit, company, fiscal year and the row or sentence
it came from.

Five readers, all deterministic:
- tables (markdown pipe rows, as the loaders write every table): the header row names the years
  ("FY2024", "2023"), the first cell names the measure, units come from the cell ("6.7%", "13.1p") or the
  label/header ("Revenue (£m)", "£m"); "(63.9)" is negative;
- sentences of the form "<measure> was/of/rose to/fell to <figure> (FY2023: <figure>)", where the evidence's own
  fiscal year dates the first figure;
- growth in sentences ("Revenue grew 4.9% to €1,288.7m" gives 'Revenue growth' 4.9%), dated like those;
- statements as pypdf extracts them (app.text.statements): a row per line item, a column per period, the unit
  and scale declared once ("(in millions)" with "$" cells gives "$m"; per-share rows "$", percentages "%");
- totals stated in sentences ("Revenue for the year ended 30 June 2024 was A$4,210 million" gives A$m 4,210
  for FY2024), dated by the sentence's own year or else the evidence's.

`extract_figures` runs them all and keeps one figure per (company, measure, year, unit, part of the year).

Pure functions, no I/O.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from app.calc_tools import Figure
from app.evidence import Evidence
from app.text.dates import MONTHS
from app.text.figures import SCALE_WORD_AFTER, parse_cell, unit_from_label, without_unit
from app.text.periods import HALF_OR_QUARTER, YEAR, column_years, half_or_quarter, period_year, years_named
from app.text.sentences import is_rule_row, sentence_around, table_cells
from app.text.statements import StatementRow, is_whole, read_stated_totals, read_statement
from app.text.units import SCALE_SUFFIX

_SENTENCE_FIGURE = re.compile(
    r"(?P<label>[A-Za-z][A-Za-z&' -]{2,60}?)\s+(?:was|were|of|reached|totalled|totaled|came to|"
    r"(?:rose|grew|increased|fell|declined|decreased|improved)(?: (?:by )?[\d.]+%)? to)\s+"
    rf"(?P<fig>[£$€]?\d[\d,]*(?:\.\d+)?\s?(?:%|(?:p|m|bn|k)\b)?)(?:\s*\((?:FY\s?)?(?P<prior_year>{YEAR})[:,]?\s*"
    r"(?P<prior>[£$€]?\d[\d,]*(?:\.\d+)?\s?(?:%|(?:p|m|bn|k)\b)?)\))?")
_LEADING_WORDS = re.compile(r"(?i)^(?:the|our|its|their|group|and|while|with|in|for|an|a|fy\d{4})\s+")
_NOT_A_MEASURE = re.compile(r"(?i)^(?:we|which|who|it|this|that|these|those|there|they|he|she|record|total of)\b")
_VALUE_WORDS = {"as", "at", "of", "ended", "ending", "year", "years", "fiscal", "fy", "actual", "actuals", "reported", "outturn", "result", "results"}
_CHANGE_HEADER = re.compile(r"(?i)\b(change|growth|chg|yoy|y/y|increase)\b")
_SENTENCE_GROWTH = re.compile(
    r"(?P<label>[A-Za-z][A-Za-z&' -]{2,60}?)\s+(?P<verb>rose|grew|increased|was up|fell|declined|decreased|"
    r"dropped|was down)\s+(?:by\s+)?(?P<pct>\d+(?:\.\d+)?)%")


def extract_figures(evidence: Iterable[Evidence]) -> list[Figure]:
    """Every figure the readers find, de-duplicated by (company, label, year, value, unit), in evidence order."""
    docs = list(evidence)
    seen: set[tuple[Any, ...]] = set()
    out: list[Figure] = []
    # Tables first: a table cell is a reported figure; a sentence reader can only guess its label. One figure
    # per (company, measure, year, unit): the first found, i.e. from the best-ranked evidence.
    readers = (table_figures, statement_figures, total_figures, sentence_figures, growth_figures)
    for figure in [f for reader in readers for d in docs for f in reader(d)]:
        key = ((figure.company or "").lower(), figure.label.lower(), figure.fiscal_year, figure.unit,
               _sub_year_period(figure.period))
        if key not in seen:
            seen.add(key)
            out.append(figure)
    return out


def table_figures(doc: Evidence, *, parts: bool = False) -> list[Figure]:
    """A markdown table's figures, one per row and dated column. A column for part of a year ('H1 FY2024',
    'Q3 2024', 'six months ended 30 June 2024') is never the year's figure: with `parts` its figures come with
    that part as their period ('H1', 'Q3', 'H'), for callers that tell a part from the year (the facts step);
    without, they are left out."""
    figures: list[Figure] = []
    years: list[int | None] = []
    column_parts: list[str | None] = []
    qualifiers: list[str] = []
    column_units: list[str] = []
    header_unit = ""
    for line in doc.text.splitlines():
        if not line.strip().startswith("|"):
            continue
        cells = table_cells(line)
        if is_rule_row(cells):
            continue
        cell_parts = [part_of_year(c) for c in cells[1:]]
        cell_years = [_year(c) or (period_year(c) if part else None) for c, part in zip(cells[1:], cell_parts)]
        if any(cell_years) and not any(parse_cell(c) for c, y in zip(cells[1:], cell_years) if not y):
            # A "Change" column next to exactly two year columns is the later year's growth over the earlier.
            distinct = sorted({y for y in cell_years if y})
            change_year = distinct[-1] if len(distinct) == 2 else None
            cell_years = [y if y else (change_year if _CHANGE_HEADER.search(c) else None)
                          for y, c in zip(cell_years, cells[1:])]
            change_columns = [not _year(c) and not part and y is not None
                              for y, c, part in zip(cell_years, cells[1:], cell_parts)]
            # a change between two halves ('H1 FY2024 | H1 FY2023 | Change') is the half's change too
            named_parts = {part for part in cell_parts if part}
            years = cell_years
            column_parts = [next(iter(named_parts)) if change and len(named_parts) == 1 else part
                            for change, part in zip(change_columns, cell_parts)]
            qualifiers = ["growth" if change else "" if part else _qualifier(c)
                          for c, change, part in zip(cells[1:], change_columns, cell_parts)]
            column_units = [unit_from_label(c) for c in cells[1:]]
            header_unit = unit_from_label(cells[0])
            continue
        if not years or not cells[0] or _year(cells[0]):
            continue
        label = without_unit(cells[0]).strip(" :")
        label_unit = unit_from_label(cells[0])
        for cell, year, part, qualifier, column_unit in zip(cells[1:], years, column_parts, qualifiers, column_units):
            parsed = parse_cell(cell) if year and (parts or not part) else None
            if parsed is None:
                continue
            value, unit = parsed
            if qualifier == "growth" and unit != "%":
                continue  # a change in points or currency is not a growth rate
            unit = unit or label_unit or column_unit or header_unit
            figures.append(Figure(label=f"{label} {qualifier}".strip(), value=value, unit=unit, company=doc.company,
                                  fiscal_year=year, source_id=doc.source_id, chunk_id=doc.chunk_id,
                                  quote=line.strip()[:300], period=part))
    return figures


def sentence_figures(doc: Evidence) -> list[Figure]:
    figures: list[Figure] = []
    for match in _SENTENCE_FIGURE.finditer(doc.text):
        sentence = sentence_around(doc.text, match.start(), match.end())
        # The "(FY2023: ...)" comparative dates its own figure: the years it names do not date the first one.
        if match.group("prior"):
            sentence = sentence.replace(doc.text[match.end("fig"):match.end()], " ")
        named_years = set(years_named(sentence))
        if doc.fiscal_year and named_years and doc.fiscal_year not in named_years:
            continue  # about another year (an outlook, a target): not this report's figure
        if re.match(r"\s*(?:to|and|-|–)\s*[£$€]?\d", doc.text[match.end():match.end() + 12]):
            continue  # a range ("9.0% to 9.5%"), not a figure
        if SCALE_WORD_AFTER.match(doc.text, match.end("fig")):
            continue  # "$1.2 billion": total_figures reads the scale word
        label = _clean_label(match.group("label"))
        if label is None:
            continue
        quote = match.group(0)[:300]
        for text, year in ((match.group("fig"), doc.fiscal_year),
                           (match.group("prior"), int(match.group("prior_year")) if match.group("prior_year") else None)):
            parsed = parse_cell(text.replace(" ", "")) if text else None
            if parsed is None or year is None:
                continue
            value, unit = parsed
            figures.append(Figure(label=label, value=value, unit=unit, company=doc.company, fiscal_year=year,
                                  source_id=doc.source_id, chunk_id=doc.chunk_id, quote=quote))
    return figures


def growth_figures(doc: Evidence) -> list[Figure]:
    """'Revenue grew 4.9% to €1,288.7m' → 'Revenue growth' 4.9% (negative for fell/declined), dated like
    sentence_figures: by the report's year, unless the sentence is about another year."""
    figures: list[Figure] = []
    for match in _SENTENCE_GROWTH.finditer(doc.text):
        named_years = set(years_named(sentence_around(doc.text, match.start(), match.end())))
        if doc.fiscal_year is None or (named_years and doc.fiscal_year not in named_years):
            continue
        label = _clean_label(match.group("label"))
        if label is None:
            continue
        value = float(match.group("pct"))
        if re.match(r"(?i)fell|declined|decreased|dropped|was down", match.group("verb")):
            value = -value
        figures.append(Figure(label=f"{label} growth", value=value, unit="%", company=doc.company,
                              fiscal_year=doc.fiscal_year, source_id=doc.source_id, chunk_id=doc.chunk_id,
                              quote=match.group(0)[:300]))
    return figures


def statement_figures(doc: Evidence) -> list[Figure]:
    """A figure per row and period column of a statement page as pypdf extracts it, each column dated to its
    fiscal year as the fact reader dates it (`column_years`: a June-year company's 10-Q column '2022-12-31' is of
    FY2023, not of the calendar year); a '% change' column is the latest period's growth. Rows whose values do not
    line up with the columns give none."""
    out: list[Figure] = []
    for row in read_statement(doc.text).rows:
        periods = list(row.periods or [])
        years = [year for year, _ in column_years(periods, doc.fiscal_year)]
        members = row.columns or [""] * len(periods)
        out += [figure for value, period, year, member in zip(row.values, periods, years, members)
                if (figure := _row_figure(doc, _member_row(row, member), value, period, year)) is not None]
    return out


def _member_row(row: StatementRow, member: str) -> StatementRow:
    """The row as one column of a segment note reads it: under the whole company's column ('Group', 'Total
    segments') the company's line item; under a segment's ('Iron Ore') that segment's, named before the item
    ('Iron Ore Revenue'), so that no segment's figure stands for the company's."""
    if not member or is_whole(member):
        return row
    return replace(row, line_item=f"{member} {row.line_item}")


def _row_figure(doc: Evidence, row: StatementRow, value: float | None, period: str,
                year: int | None = None) -> Figure | None:
    label, unit = row.line_item, statement_unit(row.unit, row.scale)
    if period.endswith("change"):
        if period != "% change":
            return None  # a change in currency is not a growth rate
        label, unit, period = f"{label} growth", "%", _latest_period(row.periods or [])
        year = None
    year = year if year is not None else period_year(period)
    if value is None or year is None:
        return None
    if unit in ("m", "bn", "k"):
        from app.facts.currency import evidence_currency

        unit = evidence_currency(doc) + unit  # '(283)' under '(In millions)' in a 10-K whose other rows say '$'
    return Figure(label=label, value=value, unit=unit, company=doc.company, fiscal_year=year, period=period,
                  page=doc.page, source_id=doc.source_id, chunk_id=doc.chunk_id, quote=row.raw[:300])


def statement_unit(unit: str, scale: str | None) -> str:
    """A statement row's unit in the calculator's notation: '$' in millions → '$m', '£' in billions → '£bn',
    '$ per share' → '$' (never scaled), '%' → '%', share counts in millions → 'm shares'."""
    suffix = SCALE_SUFFIX.get(scale or "", "")
    if unit == "%" or unit.endswith("per share"):
        return unit.removesuffix("per share").strip()
    if unit == "shares":
        return f"{suffix} shares".strip()
    return unit + suffix


def _latest_period(periods: Sequence[str]) -> str:
    dated = [p for p in periods if period_year(p)]
    return max(dated, key=lambda p: period_year(p) or 0, default="")


def _sub_year_period(period: str | None) -> str | None:
    """The part of a figure's period that tells it from the year's own figure: a quarter or a months column."""
    return None if period is None or period.startswith("FY") else period


def total_figures(doc: Evidence) -> list[Figure]:
    """Totals stated in sentences ('Net sales were $1.2 billion in fiscal 2023'), dated by the sentence's own
    year, else the evidence's fiscal year."""
    figures = []
    for total in read_stated_totals(doc.text):
        year = total.year or doc.fiscal_year
        if year is None:
            continue
        figures.append(Figure(label=total.label, value=total.value,
                              unit=total.currency + SCALE_SUFFIX.get(total.scale or "", ""), company=doc.company,
                              fiscal_year=year, page=doc.page, source_id=doc.source_id, chunk_id=doc.chunk_id,
                              quote=total.quote))
    return figures


def _clean_label(raw: str) -> str | None:
    """The measure a sentence names before its figure: the last clause, leading articles and possessives off,
    capitalised; None when it is no measure ('We', 'Which', a number, more than five words)."""
    label = raw.strip().split(",")[-1].strip()
    while _LEADING_WORDS.match(label):
        label = _LEADING_WORDS.sub("", label, count=1)
    if len(label) < 3 or label[0].isdigit() or len(label.split()) > 5 or _NOT_A_MEASURE.match(label):
        return None
    return label[0].upper() + label[1:]


def _year(cell: str) -> int | None:
    """The year a header cell names: 'FY2024', '2023', 'FY2024 (£m)', 'FY 2024 margin', 'december 31 2017',
    'Year ended 30 June 2023'. A cell that is itself a number (a data cell) names none, and so does a part of a
    year ('H1 FY2024', 'Q3 2024', 'first half 2024', 'six months ended 30 June 2024'): its figure is not the
    year's."""
    if is_part_of_year(cell):
        return None
    match = re.match(rf"(?i)^\s*(?:FY\s?)?({YEAR})\b", cell)
    if match:
        return int(match.group(1))
    if parse_cell(cell) is not None:
        return None
    found = re.findall(rf"(?<![\d.,])({YEAR})(?![\d.,%])", cell)
    return int(found[-1]) if len(set(found)) == 1 else None


_PART_YEAR_MONTHS = re.compile(r"(?i)\b(?:three|six|nine|3|6|9)[\s-]months?\b")


def is_part_of_year(cell: str) -> bool:
    """Whether a column header names a half, a quarter or a few months rather than a whole year."""
    return part_of_year(cell) is not None


def part_of_year(cell: str) -> str | None:
    """The part of a year a column header names: 'H1 FY2024' → 'H1', 'third quarter 2024' → 'Q3', 'six months
    ended …' → 'H', 'nine months …' → 'Q' (as app/facts/query reads a statement's '9M' column); None for a year."""
    for pattern in HALF_OR_QUARTER:
        if m := pattern.search(cell):
            return half_or_quarter(m)
    if m := _PART_YEAR_MONTHS.search(cell):
        return "H" if m.group(0)[0].lower() in "s6" else "Q"
    return None


def _qualifier(cell: str) -> str:
    """What a year column measures besides the row's label: 'FY2024 margin' -> 'margin'; 'FY2024 (£m)' -> ''."""
    rest = without_unit(re.sub(rf"(?i)^\s*(?:FY\s?)?{YEAR}\b", "", cell))
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z-]*", rest)
             if w.lower() not in _VALUE_WORDS and w.lower().rstrip(".") not in MONTHS]
    return " ".join(words).strip()
