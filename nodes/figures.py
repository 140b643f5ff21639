"""Figures for the calculator: numbers read from admitted evidence, each with its label, unit, company,
fiscal year and the row or sentence it came from.

Four readers, all deterministic:
- tables (markdown pipe rows, as the loaders write every table): the header row names the years
  ("FY2024", "2023"), the first cell names the measure, units come from the cell ("6.7%", "13.1p") or the
  label/header ("Revenue (£m)", "£m"); "(63.9)" is negative;
- sentences of the form "<measure> was/of/rose to/fell to <figure> (FY2023: <figure>)", where the evidence's own
  fiscal year dates the first figure;
- statements as pypdf extracts them (app.text.statements): a row per line item, a column per period, the unit
  and scale declared once ("(in millions)" with "$" cells gives "$m"; per-share rows "$", percentages "%");
- totals stated in sentences ("Revenue for the year ended 30 June 2024 was A$4,210 million" gives A$m 4,210
  for FY2024), dated by the sentence's own year or else the evidence's.

`prepare_calculation` is the supervisor node: it reads the retrieval result, keeps the figures of the turn's
companies (and, comparing companies, of the years the question names) and writes `figures`.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Iterable, Sequence
from typing import Any

from app.calc_tools import Figure
from app.evidence import Evidence
from app.metrics import label_match, needed_inputs
from app.text.dates import MONTHS
from app.text.figures import SCALE_SUFFIX, SCALE_WORD_AFTER, UNIT_IN_LABEL, parse_cell, unit_from_label
from app.text.periods import HALF_OR_QUARTER, YEAR, period_year, years_named
from app.text.sentences import is_rule_row, table_cells
from app.text.statements import StatementRow, read_stated_totals, read_statement
from nodes.state import SupervisorState

_SENTENCE_FIGURE = re.compile(
    r"(?P<label>[A-Za-z][A-Za-z&' -]{2,60}?)\s+(?:was|were|of|reached|totalled|totaled|came to|"
    r"(?:rose|grew|increased|fell|declined|decreased|improved)(?: (?:by )?[\d.]+%)? to)\s+"
    r"(?P<fig>[£$€]?\d[\d,]*(?:\.\d+)?\s?(?:%|(?:p|m|bn|k)\b)?)(?:\s*\((?:FY\s?)?(?P<prior_year>(?:19|20)\d{2})[:,]?\s*"
    r"(?P<prior>[£$€]?\d[\d,]*(?:\.\d+)?\s?(?:%|(?:p|m|bn|k)\b)?)\))?")
_LEADING_WORDS = re.compile(r"(?i)^(?:the|our|its|their|group|and|while|with|in|for|an|a|fy\d{4})\s+")
_NOT_A_MEASURE = re.compile(r"(?i)^(?:we|which|who|it|this|that|these|those|there|they|he|she|record|total of)\b")
_VALUE_WORDS = {"as", "at", "of", "ended", "ending", "year", "years", "fiscal", "fy", "actual", "actuals", "reported", "outturn", "result", "results"}
MAX_FIGURES = 24
"""Figures handed to the calculator: enough for any comparison, few enough for a small model's context."""
_CHANGE_HEADER = re.compile(r"(?i)\b(change|growth|chg|yoy|y/y|increase)\b")
_SENTENCE_GROWTH = re.compile(
    r"(?P<label>[A-Za-z][A-Za-z&' -]{2,60}?)\s+(?P<verb>rose|grew|increased|was up|fell|declined|decreased|"
    r"dropped|was down)\s+(?:by\s+)?(?P<pct>\d+(?:\.\d+)?)%")
# Words that say a figure is the whole company's ('Total revenues' is the revenue asked for), and the names one
# measure goes by ('Net sales' is revenue); nodes/calculate.py matches labels with the same vocabulary.
TOTAL_WORDS = frozenset({"total", "consolidated", "group", "net", "reported"})
_MEASURE_WORDS = {"revenue", "income", "profit", "earnings", "operating", "gross", "ebitda", "ebit", "loss"}
SAME_MEASURE = {"revenues": "revenue", "sales": "revenue", "turnover": "revenue"}


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


def table_figures(doc: Evidence) -> list[Figure]:
    figures: list[Figure] = []
    years: list[int | None] = []
    qualifiers: list[str] = []
    column_units: list[str] = []
    header_unit = ""
    for line in doc.text.splitlines():
        if not line.strip().startswith("|"):
            continue
        cells = table_cells(line)
        if is_rule_row(cells):
            continue
        cell_years = [_year(c) for c in cells[1:]]
        if any(cell_years) and not any(parse_cell(c) for c in cells[1:] if not _year(c)):
            # A "Change" column next to exactly two year columns is the later year's growth over the earlier.
            distinct = sorted({y for y in cell_years if y})
            change_year = distinct[-1] if len(distinct) == 2 else None
            cell_years = [y if y else (change_year if _CHANGE_HEADER.search(c) else None)
                          for y, c in zip(cell_years, cells[1:])]
            change_columns = [not _year(c) and y is not None for y, c in zip(cell_years, cells[1:])]
            years = cell_years
            qualifiers = ["growth" if change else _qualifier(c) for c, change in zip(cells[1:], change_columns)]
            column_units = [unit_from_label(c) for c in cells[1:]]
            header_unit = unit_from_label(cells[0])
            continue
        if not years or not cells[0] or _year(cells[0]):
            continue
        label = UNIT_IN_LABEL.sub("", cells[0]).strip(" :")
        label_unit = unit_from_label(cells[0])
        for cell, year, qualifier, column_unit in zip(cells[1:], years, qualifiers, column_units):
            parsed = parse_cell(cell) if year else None
            if parsed is None:
                continue
            value, unit = parsed
            if qualifier == "growth" and unit != "%":
                continue  # a change in points or currency is not a growth rate
            unit = unit or label_unit or column_unit or header_unit
            figures.append(Figure(label=f"{label} {qualifier}".strip(), value=value, unit=unit, company=doc.company,
                                  fiscal_year=year, source_id=doc.source_id, chunk_id=doc.chunk_id,
                                  quote=line.strip()[:300]))
    return figures


def sentence_figures(doc: Evidence) -> list[Figure]:
    figures: list[Figure] = []
    for match in _SENTENCE_FIGURE.finditer(doc.text):
        sentence = _sentence_around(doc.text, match.start(), match.end())
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
        named_years = set(years_named(_sentence_around(doc.text, match.start(), match.end())))
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
    """A figure per row and period column of a statement page as pypdf extracts it; a '% change' column is the
    latest period's growth. Rows whose values do not line up with the columns give none."""
    return [figure for row in read_statement(doc.text).rows
            for value, period in zip(row.values, row.periods or [])
            if (figure := _row_figure(doc, row, value, period)) is not None]


def _row_figure(doc: Evidence, row: StatementRow, value: float | None, period: str) -> Figure | None:
    label, unit = row.line_item, statement_unit(row.unit, row.scale)
    if period.endswith("change"):
        if period != "% change":
            return None  # a change in currency is not a growth rate
        label, unit, period = f"{label} growth", "%", _latest_period(row.periods or [])
    year = period_year(period)
    if value is None or year is None:
        return None
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


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start))
    right = min((i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0), default=len(text))
    return text[left + 1:right]


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
    return any(p.search(cell) for p in HALF_OR_QUARTER) or _PART_YEAR_MONTHS.search(cell) is not None


def _qualifier(cell: str) -> str:
    """What a year column measures besides the row's label: 'FY2024 margin' -> 'margin'; 'FY2024 (£m)' -> ''."""
    rest = UNIT_IN_LABEL.sub("", re.sub(rf"(?i)^\s*(?:FY\s?)?{YEAR}\b", "", cell))
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z-]*", rest)
             if w.lower() not in _VALUE_WORDS and w.lower().rstrip(".") not in MONTHS]
    return " ".join(words).strip()


def prepare_calculation(state: SupervisorState, *, max_figures: int = MAX_FIGURES) -> dict[str, Any]:
    """Figures from the admitted report evidence (then news), limited to the turn's companies; when the
    question compares companies in named years, only those years' figures (a difference across companies
    is never meant across years)."""
    result = state.get("retrieval_result")
    evidence = [*(result.evidence if result else []), *(state.get("news") or [])]
    said = [m for m in state.get("memory") or [] if m.admitted and m.type in ("fact", "decision")]
    figures = apply_user_figures(extract_figures(evidence), said, state.get("companies") or [])
    companies = [c.lower() for c in state.get("companies") or []]
    if companies:
        figures = [f for f in figures if (f.company or "").lower() in companies]
    years = list(state.get("fiscal_years") or [])
    if len(companies) >= 2 and years:
        figures = [f for f in figures if f.fiscal_year in years]
    return {"figures": most_relevant(figures, state["question"], max_figures, years)}


def apply_user_figures(figures: Sequence[Figure], records: Sequence[Any], companies: Sequence[str]) -> list[Figure]:
    """The user's own figures in place of the documents': an admitted fact record that names one of the turn's
    companies, one year and a measure in its key, and one amount in its value ("Ternline's FY2024 net income" =
    "$150m"), stands in for every figure of that company, year and measure, converted to the figure's unit
    ($150m as 150,000 under a '$k' statement), citing the user's statement. A calculation then uses what the
    user said, as the answer says it does. A figure the documents do not state is added as the user gave it; a
    record that names no company of the turn, no single year or no single amount changes nothing, and neither
    does one in another currency than the statement's, or a bare number under a scaled one (no rate or scale is
    guessed: the calculation keeps the statement's figure, which the answer's citations show)."""
    out = list(figures)
    for record in records:
        parsed = _user_figure(record, companies)
        if parsed is None:
            continue
        company, year, measure, amount = parsed
        mine = Figure(label=measure, value=amount[1], unit=amount[3] or amount[0] + amount[2], company=company,
                      fiscal_year=year, source_id=f"memory:{record.id}", chunk_id=f"memory:{record.id}",
                      quote=record.said or record.value)
        met = False
        for i, figure in enumerate(out):
            if (figure.source_id.startswith("memory:") or (figure.company or "").lower() != company.lower()
                    or figure.fiscal_year != year or not _same_measure(figure.label, measure)):
                continue
            met = True
            value = _in_unit(amount, figure.unit)
            if value is not None:
                out[i] = mine.model_copy(update={"label": figure.label, "value": value, "unit": figure.unit,
                                                 "period": figure.period})
        if not met:
            out.append(mine)
    return out


def _user_figure(record: Any, companies: Sequence[str]) -> tuple[str, int, str, tuple[str, float, str, str]] | None:
    """(company, year, measure, amount) of a record like "ternline's fy2024 net income" = "$150m"; None unless
    the key names exactly one of `companies` and one year, and the value holds exactly one figure."""
    from app.knowledge.fusion import companies_in
    from app.text.figures import figures_in

    named = companies_in(record.key, list(companies))
    years = sorted(set(years_named(record.key)))
    amounts = figures_in(record.value)
    if len(named) != 1 or len(years) != 1 or len(amounts) != 1:
        return None
    company_words = {w for w in re.findall(r"[a-z]+", named[0].lower())}
    words = [w for w in re.findall(r"[a-z][a-z&'’-]*|\d+", record.key.lower())
             if re.sub(r"['’]s?$", "", w) not in company_words and not re.fullmatch(r"(?:fy)?\d{2,4}", w)
             and w not in _KEY_FILLER]
    measure = " ".join(words).strip()
    return (named[0], years[0], measure, amounts[0]) if measure else None


_KEY_FILLER = {"in", "for", "of", "the", "fiscal", "year", "fy", "during", "at", "end"}


def _same_measure(label: str, measure: str) -> bool:
    """Whether a statement's label and the measure a user named are one line item: the line item's own names
    ('Net income', 'Total revenues' for 'revenue'), or the same measure words once totals are set aside."""
    if label_match(label, measure) is not None:
        return True
    items = {item for item, _ in needed_inputs(measure, [])}
    if len(items) == 1 and label_match(label, items.pop()) is not None:
        return True
    mine = _measure_words(measure)
    return bool(mine) and mine == _measure_words(label)


def _in_unit(amount: tuple[str, float, str, str], unit: str) -> float | None:
    """The user's amount in a statement's unit ('$m' 150 in '$k' is 150,000); None across currencies, between
    a percentage and an amount, or where either scale is unknown (a bare '150' under '$k')."""
    from app.text.figures import SCALE_FACTORS

    currency, value, scale, percent = amount
    if percent or unit.endswith("%"):
        return value if percent and unit.endswith("%") else None
    theirs = unit[:1] if unit[:1] in "£$€" else ""
    their_scale = unit[len(theirs):]
    if currency and theirs and currency != theirs:
        return None
    if their_scale == scale:
        return value
    if their_scale in SCALE_FACTORS and scale in SCALE_FACTORS:
        return value * SCALE_FACTORS[scale] / SCALE_FACTORS[their_scale]
    return None


def most_relevant(figures: Sequence[Figure], question: str, limit: int, years: Sequence[int] = ()) -> list[Figure]:
    """At most `limit` figures, so that a model reading them gets the ones that matter within its context: first
    the inputs the question's metric or line items need (app.metrics.needed_inputs: 'Revenues' for an EBITDA
    margin, though the question never says revenue), then those whose labels share most words with the
    question. Among equally matching figures the company's own total ('Total revenue', 'Net sales', 'Revenue')
    comes before a segment's ('Road revenue'); a question that names the segment matches the segment's row by
    one more word. Evidence order breaks the rest."""
    words = _measure_words(question)
    needs = needed_inputs(question, list(years) or years_named(question))

    def rank(indexed: tuple[int, Figure]) -> tuple[int, int, int, int]:
        figure = indexed[1]
        needed = any(figure.fiscal_year == year and label_match(figure.label, item) is not None
                     for item, year in needs)
        overlap = len(words & _measure_words(figure.label))
        return 0 if needed else 1, -overlap, 0 if overlap and is_company_total(figure.label) else 1, indexed[0]

    keep = {i for i, _ in sorted(enumerate(figures), key=rank)[:limit]}
    return [f for i, f in enumerate(figures) if i in keep]


def _measure_words(text: str) -> set[str]:
    """Lower-case words, 'sales', 'turnover' and 'revenues' read as 'revenue'; 'total' and the like dropped."""
    words = {SAME_MEASURE.get(w, w) for w in re.findall(r"[a-z]+", text.lower())}
    return words - TOTAL_WORDS


def is_company_total(label: str) -> bool:
    """Whether a label names the whole company's measure ('Total revenue', 'Net sales', 'Consolidated net
    income', 'Revenue') rather than a segment's ('Road revenue') or a derived one ('Revenue growth')."""
    words = [SAME_MEASURE.get(w, w) for w in re.findall(r"[a-z]+", label.lower()) if w not in TOTAL_WORDS]
    return bool(words) and all(w in _MEASURE_WORDS for w in words)
