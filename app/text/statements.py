"""Financial statements as pypdf extracts them, and totals stated in sentences.

A statement page arrives as text lines: a title, a header naming the columns ("Years ended December 31" then
"2018", "2017", one per line; "Three Months Ended June 30, 2023  2022"; "Q2 2023  Q1 2023"), a unit line
("(in millions, except per share data)") and rows whose label and values are on one line
("Total current assets 13,709 14,277") or spread over the following lines ("Depreciation", "1,488", "1,544").
`read_statement` turns that into a `Statement`: the column periods, the declared scale and currency (read by
app/text/units.py, as every declared unit is), and rows whose values are aligned with the periods when, and only
when, their counts agree.

`read_stated_totals` reads the other way a report gives a total: "Revenue for the year ended 30 June 2024 was
A$4,210 million", "Net sales were $1.2 billion in fiscal 2023".

Both are pure and deterministic; nothing here guesses a column it cannot count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.text.dates import MONTH, MONTHS
from app.text.periods import YEAR
from app.text.sentences import sentence_around
from app.text.units import SCALE, SCALE_NAME, SCALE_WORD, SHORT_SCALE, SYMBOL, currency_named, unit_declarations

# --- public types -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatementRow:
    """One line item of a statement.

    `values` are aligned with `periods` when the row has as many values as the header has columns (a trailing
    change column may be missing); otherwise `periods` is None and `values` are as read, left to right.
    `unit` is "%" for percentages, "<currency> per share" (or "per share") for per-share amounts, "shares"
    for share counts, else the statement's currency (a symbol of app/text/units.py: "$", "A$", "£", "€", "¥",
    "CHF", ...) or "" when none is stated.
    `scale` is the declared scale ("millions", "thousands", "billions") for scaled rows, None for percentages,
    per-share amounts and unscaled statements. `raw` is the row's text lines joined on one line.
    """

    line_item: str
    values: list[float | None]
    periods: list[str] | None
    unit: str
    scale: str | None
    raw: str


@dataclass(frozen=True)
class Statement:
    """A page's columns, declared unit and rows. `periods` are the first header's columns ("FY2018",
    "Q2 2023", "2023-06-30", "3M 2023-06-30" for a three-months column, "% change"); a later header on the
    same page starts new columns, so each row carries its own `periods`."""

    periods: list[str]
    scale: str | None
    currency: str | None
    rows: list[StatementRow]


@dataclass(frozen=True)
class StatedTotal:
    """A total stated in a sentence: 'Net sales were $1.2 billion in fiscal 2023' → ('Net sales', 1.2, '$',
    'billions', 2023). `year` is the fiscal year the sentence names, None when it names none."""

    label: str
    value: float
    currency: str
    scale: str | None
    year: int | None
    quote: str


# --- vocabulary ---------------------------------------------------------------------------------------------

# "except share data" leaves share counts unscaled; "except per share data" does not
_SHARES_UNSCALED = re.compile(r"(?i)except\s+(?:for\s+)?(?:the\s+)?(?:number of\s+)?shares?\b")

_PERIOD_ITEMS = re.compile(
    rf"(?i)(?P<date>{MONTH}\s+\d{{1,2}},?\s+{YEAR}|\d{{1,2}}\s+{MONTH},?\s+{YEAR})"
    rf"|(?P<monthday>{MONTH}\s+\d{{1,2}}\b,?|\d{{1,2}}\s+{MONTH}(?!\w))"
    rf"|(?P<quarter>\bQ[1-4]\s*(?:FY\s?)?'?(?:{YEAR}|\d{{2}})\b|\b[1-4]Q\s*'?(?:{YEAR}|\d{{2}})\b)"
    rf"|(?P<quarter_word>\b(?:first|second|third|fourth)\s+quarter\b(?:\s+(?:of\s+)?(?:fiscal\s+)?{YEAR})?)"
    rf"|(?P<fiscal>\b(?:FY\s?'?|fiscal\s+(?:year\s+)?)(?:{YEAR}|\d{{2}})\b)"
    r"|(?P<pct_change>%\s*(?:change|chg)\b|\bpercent(?:age)?\s+change\b)"
    r"|(?P<change>\bchange\b|\bvariance\b|\bincrease\s*\(decrease\))"
    r"|(?P<months>\b(?:three|six|nine|twelve|3|6|9|12)[\s-]+months?\b)"
    r"|(?P<years_ended>\b(?:fiscal\s+)?years?\s+ended\b|\bfiscal\s+years?\b)"
    rf"|(?P<year>(?<![\d,.$]){YEAR}(?![\d,.%]))")
_HEADER_WORDS = re.compile(r"(?i)\b(?:ended|ending|end|as|of|at|for|the|and|weeks?|periods?|unaudited|"
                           r"audited|restated|actual|reported|vs\.?|versus|to|except|per|share|amounts|data)\b"
                           r"|[\s,.;:$()|/&*-]+")
_WORD = re.compile(r"[A-Za-z]{3,}")
_HEADER_VOCABULARY = {*MONTHS, "ended", "ending", "end", "for", "the", "and", "weeks", "week", "periods", "period",
                      "unaudited", "audited", "restated", "actual", "reported", "versus", "except", "per", "share",
                      "amounts", "data", "three", "six", "nine", "twelve", "months", "month", "quarter", "first",
                      "second", "third", "fourth", "fiscal", "year", "years", "change", "chg", "percent",
                      "percentage", "variance", "increase", "decrease"}
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_MONTH_DURATIONS = {"three": "3M", "3": "3M", "six": "6M", "6": "6M", "nine": "9M", "9": "9M"}

_VALUE = re.compile(
    r"^(?P<open>\()?(?P<cur>(?:US|A|AU|C)?\$|£|€)?(?P<open2>\()?(?P<sign>[-−])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?P<close>\))?(?P<pct>%)?(?P<close2>\))?$")
_CURRENCY_TOKEN = re.compile(r"^(?:US|A|AU|C)?\$$|^[£€]$")
_DASH = re.compile(r"^[—–-]+%?$")
_NOT_AVAILABLE = re.compile(r"(?i)^(?:n/?a|nm|n\.m\.?|none)$")
_NOTE_MARK = re.compile(r"^\([a-z]\)$|^\*+$|^[†‡§¹²³⁴⁵⁶⁷⁸⁹]+$")
_NOTE_CANDIDATE = re.compile(r"^\(\d{1,2}\)$")
_DIGITS = re.compile(r"\d+")
_YEAR_TOKEN = re.compile(rf"^{YEAR}$")
_LABEL_NOTES = re.compile(r"(?:\s*(?:\((?:\d{1,2}|[a-z])\)|\*+|[†‡§¹²³⁴⁵⁶⁷⁸⁹]+))+$")
_PER_SHARE = re.compile(r"(?i)\bper\s+(?:common\s+|ordinary\s+|diluted\s+|basic\s+)?share\b|\bEPS\b|\bper ADS\b")
_SHARE_COUNT = re.compile(r"(?i)\bshares\s+outstanding\b|\b(?:weighted[- ]average|number of)\b.*\bshares\b|"
                          r"\bshares used\b")
_PERCENT_LABEL = re.compile(r"(?i)\(%\)|\bpercent(?:age)?\b|\bas a % of\b|%\s*$")
_BASIC_DILUTED = re.compile(r"(?i)^(?:basic|diluted|basic and diluted)$")


# --- reading a statement ------------------------------------------------------------------------------------


def read_statement(text: str) -> Statement:
    """The periods, declared unit and rows of a statement page. Markdown pipe-table lines are skipped (the
    table reader owns them); prose yields rows without periods, which callers ignore."""
    reader = _Reader()
    for line in text.splitlines():
        reader.feed(line)
    return reader.finish()


@dataclass
class _OpenRow:
    label: str
    tokens: list[str] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)


@dataclass
class _Header:
    columns: list[str] = field(default_factory=list)
    durations: list[str] = field(default_factory=list)
    monthday: tuple[int, int] | None = None
    quarters: list[int] = field(default_factory=list)
    annual: bool = False
    kinds: list[str] = field(default_factory=list)  # how each dated column was written: 'date', 'year', ...


@dataclass
class _Reader:
    """The line-by-line state of `read_statement`: the header being read, the row being read, and the rows
    read so far (finished once the whole page, and so its currency, is known)."""

    scale: str | None = None
    currency: str | None = None
    seen_currency: str | None = None
    shares_scaled: bool = True
    header: _Header | None = None
    periods: list[str] = field(default_factory=list)
    first_periods: list[str] | None = None
    heading: str = ""
    row: _OpenRow | None = None
    rows: list[_OpenRow] = field(default_factory=list)

    def feed(self, line: str) -> None:
        text = _unglued(line.strip())
        if not text or text.startswith("|"):
            return
        rest = self._read_unit(text)
        if not rest:
            return
        if _is_period_line(rest, continuing=self.header is not None):
            self._read_header(rest)
            return
        if self.header is not None:  # '2019 2018 Cash flows from operating activities:' ends a header
            years, text = _leading_years(text)
            if years:
                self._read_header(years)
        self._close_header()
        for piece in _pieces(text):
            label, tokens = _split_row(piece)
            if label:
                self._start_row(label, tokens, piece)
            else:
                self._add_values(tokens, piece)

    def finish(self) -> Statement:
        self._close_header()
        self._close_row()
        currency = self.currency or self.seen_currency
        rows = [_finish_row(r, currency, self.scale, self.shares_scaled) for r in self.rows]
        return Statement(periods=self.first_periods or [], scale=self.scale, currency=currency, rows=rows)

    def _read_unit(self, text: str) -> str:
        """Record a unit declaration; the line without it (empty when the line was only that)."""
        declared = unit_declarations(text)[:1] if len(text) <= 160 else []
        if not declared:
            return text
        unit = declared[0]
        if self.scale is None:
            self.scale = SCALE_NAME[unit.scale]
            self.currency = unit.currency or None
            self.shares_scaled = not _SHARES_UNSCALED.search(unit.text)
        return (text[:unit.start] + " " + text[unit.end:]).strip()

    def _read_header(self, text: str) -> None:
        self._close_row()
        if self.header is None:
            self.header = _Header()
        for match in _PERIOD_ITEMS.finditer(text):
            _add_period_item(self.header, match)

    def _close_header(self) -> None:
        if self.header is None:
            return
        columns = _label_columns(self.header)
        half = len(columns) // 2
        kinds = self.header.kinds
        if (half and len(columns) % 2 == 0 and columns[:half] == columns[half:]
                and len(kinds) == len(columns) and set(kinds[:half]) == {"date"} and set(kinds[half:]) == {"year"}):
            columns = columns[:half]  # 'Fiscal years ended December 31, 2022, … 2020' then '2022 2021 2020'
        self.header = None
        if not columns:
            return
        self.periods = columns
        if self.first_periods is None:
            self.first_periods = columns

    def _start_row(self, label: str, tokens: list[str], text: str) -> None:
        row = self.row
        if row is not None and not _values(row.tokens) and _continues(row.label, label):
            row.label, row.tokens, row.raw = f"{row.label} {label}", tokens, [*row.raw, text]
            return  # a label wrapped onto a second line
        self._close_row()
        self.row = _OpenRow(label=self._qualified(label), tokens=tokens, raw=[text], periods=self.periods)

    def _qualified(self, label: str) -> str:
        """'Basic' under the heading 'Earnings per share:' is 'Basic earnings per share'."""
        clean = _clean_label(label)
        if self.heading and _BASIC_DILUTED.match(clean):
            heading = self.heading if self.heading[1:2].isupper() else self.heading[:1].lower() + self.heading[1:]
            return f"{clean} {heading}"
        return label

    def _add_values(self, tokens: list[str], text: str) -> None:
        row = self.row
        if row is None:
            return  # values without a label: nothing to name them by
        count = _count(row.tokens)
        if row.periods and count >= len(row.periods) and _count([*row.tokens, *tokens]) > count:
            self._close_row()  # the row is full: a further number is a page number or a stray cell
            return
        row.tokens.extend(tokens)
        row.raw.append(text)

    def _close_row(self) -> None:
        row, self.row = self.row, None
        if row is None:
            return
        self.seen_currency = self.seen_currency or _currency_in_tokens(row.tokens)
        if _values(row.tokens):
            self.rows.append(row)
        else:
            self.heading = _clean_label(row.label)


def _continues(label: str, following: str) -> bool:
    """Whether a label line wraps onto the next: 'Purchases of property, plant and' / 'equipment'."""
    return following[:1].islower() or bool(re.search(r"(?i)(?:\b(?:to|of|and|for|in|from|by|on)|[,(&-])$", label))


def is_period_line(text: str) -> bool:
    """Whether a line heads a statement's columns ('Years ended December 31', 'May 31, 2020 May 26, 2019',
    'Three Months Ended June 30, 2023  2022')."""
    return _is_period_line(text.strip(), continuing=False)


def _is_period_line(text: str, *, continuing: bool) -> bool:
    """A header line: only periods and header words ('Years ended December 31', '2018', 'June 30, 2023
    June 30, 2022', 'Q2 2023'). A line of only 'Change' columns continues a header but never starts one."""
    if any(w.lower() not in _HEADER_VOCABULARY for w in _WORD.findall(text)):
        return False  # a word no header uses: a label or prose (and far cheaper to tell than the full read)
    matches = list(_PERIOD_ITEMS.finditer(text))
    if not matches or _HEADER_WORDS.sub("", _PERIOD_ITEMS.sub(" ", text)):
        return False
    kinds = {m.lastgroup for m in matches}
    return continuing or not kinds <= {"change", "pct_change"}


def _add_period_item(header: _Header, match: re.Match[str]) -> None:
    """One header item: a column ('2018', 'June 30, 2023', 'Q2 2023', '% Change') or context for the columns
    that follow ('Three Months Ended', 'Years ended', 'December 31', 'Fourth Quarter')."""
    kind, text = match.lastgroup, match.group(0)
    if kind == "months":
        header.durations.append(_MONTH_DURATIONS.get(text.split()[0].lower().split("-")[0], ""))
    elif kind == "years_ended":
        header.annual = True
    elif kind == "monthday":
        header.monthday = _month_day(text)
    elif kind == "quarter_word":
        header.quarters.append(_QUARTER_WORDS[text.split()[0].lower()])
        if re.search(YEAR, text):
            header.columns.append(f"Q{header.quarters.pop()} {re.findall(YEAR, text)[-1]}")
    else:
        if kind == "date":
            header.monthday = _month_day(re.sub(YEAR, "", text))  # '2021' after 'December 31, 2022' is a date too
        header.columns.append(_column(header, kind or "", text))
        header.kinds.append(kind or "")


def _column(header: _Header, kind: str, text: str) -> str:
    if kind == "date":
        year, month, day = _date(text)
        return f"FY{year}" if header.annual else f"{year}-{month:02d}-{day:02d}"
    if kind == "quarter":
        digits = re.findall(_DIGITS, text)  # 'Q2 2023', 'Q2 FY23', '2Q23'
        quarter, year = (digits[0], digits[1]) if len(digits) == 2 else (digits[0][0], digits[0][1:])
        return f"Q{quarter} {_full_year(year)}"
    if kind == "fiscal":
        return f"FY{_full_year(re.findall(_DIGITS, text)[-1])}"
    if kind in ("pct_change", "change"):
        return "% change" if kind == "pct_change" else "change"
    year = int(text)
    if header.quarters:
        return f"Q? {year}"  # the quarter is named by its group: see _label_columns
    if header.monthday and not header.annual:
        return f"{year}-{header.monthday[0]:02d}-{header.monthday[1]:02d}"
    return f"FY{year}"


def _label_columns(header: _Header) -> list[str]:
    """The header's columns, each prefixed with its months duration ('3M 2023-06-30') or named by its quarter
    ('Q2 2020' under 'Second Quarter'). Several durations ('Three Months Ended', 'Six Months Ended') or quarters
    ('First Quarter  Second Quarter') split the columns evenly, in order; when they cannot, a quarter stays 'Q?'."""
    groups: list[str] = header.durations or [f"Q{q}" for q in header.quarters]
    periods = [c for c in header.columns if not c.endswith("change")]
    if not groups or not periods or len(periods) % len(groups):
        return header.columns
    size = len(periods) // len(groups)
    named = iter(_in_group(groups[i // size], p) for i, p in enumerate(periods))
    return [c if c.endswith("change") else next(named) for c in header.columns]


def _in_group(group: str, period: str) -> str:
    if period.startswith("Q?"):
        return group + period[2:]
    return f"{group} {period}".strip() if not group.startswith("Q") else period


def _month_day(text: str) -> tuple[int, int]:
    words = re.findall(r"[A-Za-z]+|\d+", text)
    month = next(MONTHS[w.lower()] for w in words if w.lower() in MONTHS)
    return month, int(next(w for w in words if w.isdigit()))


def _date(text: str) -> tuple[int, int, int]:
    month, day = _month_day(re.sub(YEAR, "", text))
    return int(re.findall(YEAR, text)[-1]), month, day


def _full_year(digits: str) -> int:
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


# --- rows ---------------------------------------------------------------------------------------------------


# Some extractors end a line after a label and start the next with its values: 'Deferred revenue' /
# '618,622  443,472 Total current liabilities' / '5,466,312  4,586,657 Non-current content liabilities'. A run
# of values that is unmistakably a row's cells (a grouped number such as '618,622', a currency sign, or two
# cells or more) followed by a capitalised word therefore ends a row. '$3,901 million' does not (lower case),
# nor a lone '1' in 'Level 1 assets', '4.75%' in '4.75% Notes due 2025' or the hyphen in 'Segment revenue - Quarries'.
_GLUED = re.compile(r"(?<=[A-Za-z])(?=\(?\d{1,3}(?:,\d{3})+(?!\d))|(?<=[a-z])(?=[—–$])")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")


_LEADERS = re.compile(r"\s*(?:\.\s?){3,}\s*|\s*…+\s*")


def _unglued(text: str) -> str:
    """Cells written onto a label's last word apart ('net161,985' → 'net 161,985', 'enefits—' → 'enefits —'),
    and dot leaders between a label and its cells dropped ('Total current assets....... 4,821,892')."""
    return _GLUED.sub(" ", _LEADERS.sub(" ", text))


def _leading_years(text: str) -> tuple[str, str]:
    """A line's leading year columns and the rest: '2019 2018 Cash flows from…' → ('2019 2018', 'Cash flows…')."""
    tokens = text.split()
    i = 0
    while i < len(tokens) and _YEAR_TOKEN.match(tokens[i]):
        i += 1
    return " ".join(tokens[:i]), " ".join(tokens[i:])


def _pieces(text: str) -> list[str]:
    """A line cut after each unmistakable run of cells that a label follows (see _GLUED above); a line of one
    row comes back whole."""
    tokens = text.split()
    pieces: list[str] = []
    start = run = 0
    for i, token in enumerate(tokens):
        if _is_value_token(token) and not _YEAR_TOKEN.match(token):
            run += 1
            continue
        if run and i - run >= start and _cells_run(tokens[i - run:i]) and token[:1].isupper():
            pieces.append(" ".join(tokens[start:i]))
            start = i
        run = 0
    pieces.append(" ".join(tokens[start:]))
    return [p for p in pieces if p]


def statement_lines(text: str) -> str:
    """Text with every row of a statement on lines of its own: a line is cut after a run of cells that a label
    follows, and after two header years or more that a label follows ('2019 2018 Cash flows from operating
    activities:'). Only spaces and line breaks change, so what a chunk quotes is still the page's text."""
    out: list[str] = []
    for line in text.split("\n"):
        years, rest = _leading_years(_unglued(line.strip()))
        if len(years.split()) >= 2 and rest[:1].isupper():
            out.extend([years, *_pieces(rest)])
        elif line.strip():
            out.extend(_pieces(_unglued(line.strip())))
        else:
            out.append("")
    return "\n".join(out)


def _cells_run(tokens: list[str]) -> bool:
    cells = [t for t in tokens if (_VALUE.match(t) or _DASH.match(t)) and not _NOTE_MARK.match(t)
             and not _NOTE_CANDIDATE.match(t)]
    return any(_GROUPED.search(t) or _CURRENCY_TOKEN.match(t) for t in tokens) or len(cells) >= 2


def _split_row(text: str) -> tuple[str, list[str]]:
    """A line split into its label and its trailing value tokens: 'Total current assets 13,709 14,277' →
    ('Total current assets', ['13,709', '14,277']). A year ('Notes due 2025') ends the values: it is label."""
    tokens = text.split()
    i = len(tokens)
    while i > 0 and _is_value_token(tokens[i - 1]) and not _YEAR_TOKEN.match(tokens[i - 1]):
        i -= 1
    return " ".join(tokens[:i]), tokens[i:]


def _is_value_token(token: str) -> bool:
    return bool(_VALUE.match(token) or _CURRENCY_TOKEN.match(token) or _DASH.match(token) or token in "()%"
                or _NOT_AVAILABLE.match(token) or _NOTE_MARK.match(token))


@dataclass(frozen=True)
class _Cell:
    value: float | None
    percent: bool = False
    note: bool = False  # '(1)' straight after the label: a footnote mark or minus one


def _values(tokens: list[str]) -> list[_Cell]:
    """The cells of a row's value tokens: '$' skipped, '(370)' and '(', '370', ')' negative, '—' zero, '%'
    marks the number before it, 'n/a' is None, '(a)' footnotes dropped."""
    cells: list[_Cell] = []
    negative = False
    for position, token in enumerate(tokens):
        if token == "(":
            negative = True
        elif token == "%" and cells:
            cells[-1] = _Cell(cells[-1].value, True, cells[-1].note)
        elif _DASH.match(token):
            cells.append(_Cell(0.0, token.endswith("%")))
        elif _NOT_AVAILABLE.match(token):
            cells.append(_Cell(None))
        elif (match := _VALUE.match(token)) and not _NOTE_MARK.match(token):
            cells.append(_number(match, negative, note=position == 0 and bool(_NOTE_CANDIDATE.match(token))))
            negative = False
    return cells


def _count(tokens: list[str]) -> int:
    """How many values the tokens hold, a leading footnote candidate not counted."""
    cells = _values(tokens)
    return len(cells) - (1 if cells and cells[0].note else 0)


def _number(match: re.Match[str], negative: bool, *, note: bool) -> _Cell:
    value = float(match.group("num").replace(",", ""))
    if negative or match.group("open") or match.group("open2") or match.group("sign"):
        value = -value
    return _Cell(value, bool(match.group("pct")), note)


def _align(cells: list[_Cell], periods: list[str]) -> tuple[list[_Cell], list[str] | None]:
    """Cells and the periods they belong to, or None when the counts disagree. A leading '(1)' is a footnote
    when without it the counts agree; missing trailing change columns and extra trailing percentages (an
    unlabelled '% change') are allowed."""
    if cells and cells[0].note and len(cells) == len(periods) + 1:
        cells = cells[1:]
    if periods and len(cells) == len(periods):
        return cells, periods
    dated = [p for p in periods if not p.endswith("change")]
    if dated and len(cells) == len(dated) and dated == periods[:len(dated)]:
        return cells, dated
    plain = [c for c in cells if not c.percent]
    if dated == periods and plain and len(plain) == len(dated) and cells[:len(plain)] == plain:
        return plain, dated
    return cells, None


def _finish_row(row: _OpenRow, currency: str | None, scale: str | None, shares_scaled: bool) -> StatementRow:
    cells, periods = _align(_values(row.tokens), row.periods)
    label = _clean_label(row.label)
    unit, row_scale = _row_unit(label, cells, currency, scale, shares_scaled)
    return StatementRow(line_item=label, values=[c.value for c in cells], periods=periods, unit=unit,
                        scale=row_scale, raw=" ".join(row.raw))


def _row_unit(label: str, cells: list[_Cell], currency: str | None, scale: str | None,
              shares_scaled: bool) -> tuple[str, str | None]:
    """A row's unit and scale: percentages and per-share amounts are never scaled; share counts are scaled
    unless the unit line excepts them ('except share data')."""
    numbers = [c for c in cells if c.value is not None]
    if _PERCENT_LABEL.search(label) or (numbers and all(c.percent for c in numbers)):
        return "%", None
    if _PER_SHARE.search(label):
        return f"{currency or ''} per share".strip(), None
    if _SHARE_COUNT.search(label):
        return "shares", scale if shares_scaled else None
    return currency or "", scale


def _clean_label(label: str) -> str:
    """Footnote marks, trailing '$' and ':' and runs of spaces off: 'Revenue (1) $' → 'Revenue'."""
    text = re.sub(r"\s+", " ", label).strip()
    previous = None
    while previous != text:
        previous = text
        text = _LABEL_NOTES.sub("", text).rstrip(" :$£€").strip()
    return text


def _currency_in_tokens(tokens: list[str]) -> str | None:
    for token in tokens:
        match = _VALUE.match(token)
        symbol = match.group("cur") if match else (token if _CURRENCY_TOKEN.match(token) else None)
        if symbol:
            return currency_named(symbol)
    return None


# --- totals stated in sentences -----------------------------------------------------------------------------

_MEASURE = (r"(?:revenues?|net sales|sales|turnover|income|profit|earnings|EBITDA|EBIT|cash flows?|assets|"
            r"liabilities|equity|debt|expenses|costs|capital expenditures?|capex)")
_PERIOD_PHRASE = (rf"(?:(?:the\s+)?(?:fiscal\s+|financial\s+)?(?:full\s+)?year\s+ended\s+(?:\d{{1,2}}\s+)?{MONTH}"
                  rf"(?:\s+\d{{1,2}})?,?\s+{YEAR}|(?:fiscal|financial)\s+(?:year\s+)?(?:{YEAR}|\d{{2}})|"
                  rf"FY\s?'?(?:{YEAR}|\d{{2}})|{YEAR})")
_STATED_TOTAL = re.compile(
    rf"(?i)(?P<label>\b(?:[A-Za-z&'-]+\s+){{0,4}}?{_MEASURE})"
    rf"(?:,?\s+(?:for|in|during)\s+(?P<before>{_PERIOD_PHRASE}),?)?"
    r"\s+(?:was|were|of|totall?ed|reached|amounted to|came to|"
    r"(?:rose|grew|increased|fell|declined|decreased)(?:\s+by\s+[\d.]+%)?\s+to)\s+"
    rf"(?P<cur>{SYMBOL})?\s?(?P<num>\d[\d,]*(?:\.\d+)?)\s?"
    rf"(?P<scale>{SCALE_WORD}|{SHORT_SCALE})\b"
    rf"(?:,?\s+(?:in|for|during)\s+(?P<after>{_PERIOD_PHRASE}))?")
_FORWARD_LOOKING = re.compile(r"(?i)\b(?:expects?|expected|targets?|outlook|guidance|forecasts?|anticipates?|"
                              r"will|aims?|plans?|projected)\b")
_LABEL_LEAD = {"we", "our", "the", "its", "their", "group", "company", "company's", "group's", "reported",
               "delivered", "generated", "recorded", "posted", "achieved", "had", "a", "an", "with", "and",
               "full", "year", "in", "for", "while"}


def read_stated_totals(text: str) -> list[StatedTotal]:
    """Totals stated in sentences, with a currency or a scale word ('A$4,210 million', '$4.21bn'), dated by
    the year the sentence names ('year ended 30 June 2024' is 2024; 'fiscal 2023'). Outlooks and targets
    ('we expect revenue of $1.3bn') are not totals."""
    totals: list[StatedTotal] = []
    for match in _STATED_TOTAL.finditer(text):
        sentence = sentence_around(text, match.start(), match.end())
        label = _total_label(match.group("label"))
        if label is None or _FORWARD_LOOKING.search(sentence):
            continue
        totals.append(StatedTotal(
            label=label, value=float(match.group("num").replace(",", "")),
            currency=currency_named(match.group("cur") or "") or "",
            scale=SCALE_NAME[SCALE[match.group("scale").lower()]],
            year=_total_year(match, sentence), quote=match.group(0)[:300]))
    return totals


def _total_label(raw: str) -> str | None:
    words = raw.split()
    while words and words[0].lower() in _LABEL_LEAD:
        words = words[1:]
    if not words:
        return None
    label = " ".join(words)
    return label[0].upper() + label[1:]


def _total_year(match: re.Match[str], sentence: str) -> int | None:
    """The year of the matched phrase ('for fiscal 2023', 'in FY24'), else the one year the sentence names."""
    phrase = match.group("before") or match.group("after")
    if phrase:
        return _full_year(re.findall(r"\d{2,4}", phrase)[-1])
    years = {int(y) for y in re.findall(rf"(?<![\d.,]){YEAR}(?![\d%])", sentence)}
    return years.pop() if len(years) == 1 else None


# --- statements as lines a reader (and the extractive draft) can quote ----------------------------------------

_RAW_VALUE = re.compile(r"\(?-?\d[\d,]*(?:\.\d+)?\)?%?|[—–]")
MIN_ROWS_TO_REWRITE = 3


def readable_statement(text: str) -> str:
    """A statement page written a row per line that names its columns: 'Purchases of property, plant and
    equipment (PP&E): 2018 (1,577); 2017 (1,373); 2016 (1,420)'. Values are written as the page writes them (so
    they can be checked against it), periods as the header gives them. Text that is no statement (fewer than
    MIN_ROWS_TO_REWRITE rows line up with columns) comes back unchanged."""
    rows = [row for row in read_statement(text).rows if row.periods]
    if len(rows) < MIN_ROWS_TO_REWRITE:
        return text
    return "\n".join(line for row in rows if (line := _row_line(row)))


def _row_line(row: StatementRow) -> str:
    written = _RAW_VALUE.findall(row.raw[len(row.line_item):]) if row.raw.startswith(row.line_item) else []
    values = written[-len(row.values):] if len(written) >= len(row.values) else [_plain(v) for v in row.values]
    cells = [f"{_period_words(p)} {v}" for p, v in zip(row.periods or [], values) if v not in ("", None)]
    return f"{row.line_item}: {'; '.join(cells)}" if cells else ""


_SPAN_WORDS = {"3M": "three months", "6M": "six months", "9M": "nine months", "12M": "twelve months"}


def _period_words(period: str) -> str:
    """A column period as the page itself writes it, near enough to be checked against it: 'FY2018' → '2018',
    '2021-08-29' → '2021', '3M 2023-06-30' → 'three months 2023'."""
    if re.fullmatch(r"FY\d{4}", period):
        return period[2:]
    dated = re.fullmatch(rf"(?:(\d+M) )?({YEAR})-\d{{2}}-\d{{2}}", period)
    if dated:
        return " ".join(x for x in (_SPAN_WORDS.get(dated.group(1) or "", dated.group(1)), dated.group(2)) if x)
    return period


def _plain(value: float | None) -> str:
    if value is None:
        return ""
    text = f"{abs(value):,.2f}".rstrip("0").rstrip(".")
    return f"({text})" if value < 0 else text
