"""Financial statements as pypdf extracts them, and totals stated in sentences.

A statement page arrives as text lines: a title, a header naming the columns ("Years ended December 31" then
"2018", "2017", one per line; "Three Months Ended June 30, 2023  2022"; "Q2 2023  Q1 2023"; a UK "Note 29 March" /
"2025" / "£m 30 March" / "2024" / "£m"), a unit line ("(in millions, except per share data)") and rows whose label
and values are on one line ("Total current assets 13,709 14,277") or spread over the following lines
("Depreciation", "1,488", "1,544"). `read_statement` turns that into a `Statement`: the column periods, the declared
scale and currency (read by app/text/units.py, as every declared unit is), and rows whose values are aligned with
the periods when, and only when, their counts agree.

Annual reports outside the US are read too: a 'Note' column whose numbers are no values, a date split over lines
with the column's currency between them ('29 March' / '2025' / '£m'), half years ('H1 FY2025', 'Half-year ended
31 December 2024') and Japanese fiscal years ('FY3/2025'), a titled header ('Iron Ore FY2024 FY2023 Change') whose
title, like a heading line above a header, is kept on its rows, a unit line further down the page that applies
from there on ('in € thousand' below 'in € million'), an unlabelled subtotal that adds up to the rows under its
heading ('Current assets' … '364.8 364.4': 'Total current assets'), and segments as columns under a year line
('Pumps Valves Services Group' / '2025') when the names can be counted.

`read_stated_totals` reads the other way a report gives a total: "Revenue for the year ended 30 June 2024 was
A$4,210 million", "Net sales were $1.2 billion in fiscal 2023".

Both are pure and deterministic; nothing here guesses a column it cannot count.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

from app.text.dates import MONTH, MONTHS, month_number
from app.text.periods import YEAR, period_day
from app.text.places import REGION_NAMES
from app.text.sentences import sentence_around
from app.text.units import (SCALE, SCALE_NAME, SCALE_SUFFIX, SCALE_WORD, SHORT_SCALE, SYMBOL, UnitDeclaration,
                            currency_named, declared_unit, unit_declarations)

# --- public types -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StatementRow:
    """One line item of a statement.

    `values` are aligned with `periods` when the row has as many values as the header has columns (a trailing
    change column may be missing; a note reference before the values, under a header with a 'Note' column, is
    no value); otherwise `periods` is None and `values` are as read, left to right.
    `unit` is "%" for percentages, "<currency> per share" (or "per share") for per-share amounts, "shares"
    for share counts, else the currency declared for the row's table (a symbol of app/text/units.py: "$", "A$",
    "£", "€", "¥", "CHF", ...) or "" when none is stated.
    `scale` is the scale declared for the row's table ("millions", "thousands", "billions": the latest unit line
    above the row, or one on the row's own line) for scaled rows, None for percentages, per-share amounts, rows a
    unit line excepts ("except churn and ARPU") and unscaled statements. `raw` is the row's text lines joined on
    one line.
    `title` is the nearest title above the row's table: a titled header's ("Iron Ore" of "Iron Ore FY2024 FY2023
    Change") or the heading line above its header ("Wireless financial results"); None when there is none. It
    tells a segment's rows from the group's; it is context, not content, so rows compare equal without it.
    `columns` names the values when the columns are not periods but segments ("Pumps", "Valves", "Group" under
    a year line): then every period is that year. None otherwise.
    """

    line_item: str
    values: list[float | None]
    periods: list[str] | None
    unit: str
    scale: str | None
    raw: str
    title: str | None = field(default=None, compare=False)
    columns: list[str] | None = None
    highs: list[float | None] | None = field(default=None, compare=False)
    """For a row with a range cell ('Iron ore shipments (Mt) 18.5 – 19.5 18.4' under 'FY2025 guidance FY2024
    actual'), each value's upper end (None for a single figure); `values` hold the lower ends. None without one."""


@dataclass(frozen=True)
class Statement:
    """A page's columns, declared unit and rows. `periods` are the first header's columns; a later header on the
    same page starts new columns, so each row carries its own `periods`. `scale` and `currency` are the page's
    first declaration; a later unit line rescales the rows below it, so each row carries its own too.

    Columns are named:
    - "FY2018": a fiscal year ("2018" under "Years ended", "FY2018", "Fiscal 2018", "FY3/2018" (the year ended
      March 2018), "52 weeks ended 31 March 2018", "Year ended March 31, 2018");
    - "2023-06-30": a date without a span ("June 30, 2023", "As at 29 March 2025", "29 March" / "2025");
    - "3M 2023-06-30", "6M 2024-12-31", "9M ...": the three, six or nine months ended that date ("Half-year ended
      31 December 2024" and "26 weeks ended" are six months, "13 weeks" three);
    - "Q2 2023": a quarter ("Q2 2023", "2Q23", "Second Quarter" / "2023");
    - "H1 2025": a half of the fiscal year as the report names it ("H1 FY2025", "1H25", "First half 2025");
    - "% change", "change": change columns ("% Chg", "Change in %", "Change", "Variance")."""

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
_EXCEPT = re.compile(r"(?i)\bexcept\b(?P<what>.*)")
_EXCEPT_NOISE = {"except", "for", "the", "and", "per", "share", "data", "amount", "number", "otherwise", "stated",
                 "noted", "indicated", "where", "when", "other", "figure", "information"}  # as _label_words

_YEAR_OR_SHORT = rf"(?:{YEAR}|\d{{2}})"
_PERIOD_ITEMS = re.compile(
    rf"(?i)(?P<date>{MONTH}\s+\d{{1,2}},?\s+{YEAR}|\d{{1,2}}\s+{MONTH},?\s+{YEAR}|\b\d{{1,2}}/\d{{1,2}}/{YEAR}\b)"
    rf"|(?P<monthday>{MONTH}\s+\d{{1,2}}\b,?|\d{{1,2}}\s+{MONTH}(?!\w))"
    rf"|(?P<quarter>\bQ[1-4]\s*(?:FY\s?)?'?{_YEAR_OR_SHORT}\b|\b[1-4]Q\s*'?{_YEAR_OR_SHORT}\b)"
    rf"|(?P<half>\bH[12]\s*(?:FY\s?)?'?{_YEAR_OR_SHORT}\b|\b[12]H\s*(?:FY\s?)?'?{_YEAR_OR_SHORT}\b)"
    r"|(?P<quarter_bare>\bQ[1-4]\b)|(?P<full_year>\bfull[\s-]+year\b)"
    rf"|(?P<quarter_word>\b(?:first|second|third|fourth)\s+quarter\b(?:\s+(?:of\s+)?(?:fiscal\s+)?{YEAR})?)"
    rf"|(?P<half_word>\b(?:first|second)\s+half\b(?:\s+(?:of\s+)?(?:fiscal\s+)?{YEAR})?)"
    rf"|(?P<fiscal_month>\bFY\s?(?:1[0-2]|0?[1-9])/{YEAR}\b|\bFY\s?{YEAR}/(?:1[0-2]|0?[1-9])\b(?!\d))"
    rf"|(?P<fiscal>\b(?:FY\s?'?|fiscal\s+(?:year\s+)?){_YEAR_OR_SHORT}\b)"
    r"|(?P<pct_change>%\s*(?:change|chg)\b|[∆Δ]\s?%|\bpercent(?:age)?\s+change\b|\bchange\s+in\s+%|\bchange\s*%)"
    r"|(?P<change>\bchange\b|\bvariance\b|\bincrease\s*/?\s*\(decrease\))"
    r"|(?P<months>\b(?:three|six|nine|twelve|3|6|9|12)[\s-]+months?\b|\bhalf[\s-]?years?\b|\bquarters?(?=\s+end))"
    r"|(?P<weeks>\b(?:12|13|16|17|24|26|36|39|52|53)[\s-]+weeks?\b)"
    r"|(?P<years_ended>\b(?:fiscal\s+)?years?\s+ended\b|\bfiscal\s+years?\b)"
    rf"|(?P<year>(?<![\d,.$]){YEAR}(?![\d,.%]))")
_HEADER_WORDS = re.compile(r"(?i)\b(?:ended|ending|end|as|of|at|for|the|and|or|weeks?|periods?|unaudited|"
                           r"audited|restated|actual|reported|vs\.?|versus|to|except|per|share|amounts|data|notes?|"
                           r"pcp|full|year|results?|forecasts?|guidance|outlook|plan|budget)\b|[\s,.;:$()|/&*-]+")
_WORD = re.compile(r"[A-Za-z]{3,}")
_HEADER_VOCABULARY = {*MONTHS, "ended", "ending", "end", "for", "the", "and", "weeks", "week", "periods", "period",
                      "unaudited", "audited", "restated", "actual", "reported", "versus", "except", "per", "share",
                      "amounts", "data", "three", "six", "nine", "twelve", "months", "month", "quarter", "quarters",
                      "first",
                      "second", "third", "fourth", "fiscal", "year", "years", "change", "chg", "percent",
                      "percentage", "variance", "increase", "decrease", "note", "notes", "pcp", "full", "half",
                      # a year's results beside the next year's forecast ('FY3/2025 Results FY3/2026 Forecast')
                      "result", "results", "forecast", "forecasts", "guidance", "outlook", "plan", "budget"}
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_FOOTNOTE_MARK = re.compile(r"\([1-9a-z]\)|[*†‡]")
_MONTH_DURATIONS = {"three": "3M", "3": "3M", "six": "6M", "6": "6M", "nine": "9M", "9": "9M", "half": "6M",
                    "quarter": "3M", "quarters": "3M"}  # 'For the Quarters Ended': each column a quarter
_WEEK_DURATIONS = {"12": "3M", "13": "3M", "16": "3M", "17": "3M", "24": "6M", "26": "6M", "36": "9M", "39": "9M"}
"""Quarters of 12 or 13 weeks (a 16- or 17-week fourth quarter) and their sums; 52 and 53 weeks are a fiscal year."""

_VALUE = re.compile(
    r"^(?P<open>\()?(?P<cur>(?:US|A|AU|C)?\$|£|€)?(?P<open2>\()?(?P<sign>[-−–])?(?P<plus>\+)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?P<close>\))?(?P<pct>%)?(?P<close2>\))?"
    r"(?P<times>x)?(?P<points>pp|pts?)?$")
_POINTS = re.compile(r"^(?:pp|pts?|bps)$")
"""A change column written in points after its number ('0.4 pts', '(1.3) pp'): the unit of that cell."""
_CURRENCY_TOKEN = re.compile(r"^(?:US|A|AU|C)?\$$|^[£€]$")
_DASH = re.compile(r"^[—–-]+%?$")
_NOT_AVAILABLE = re.compile(r"(?i)^(?:n/?a|nm|n\.m\.?|none|#)$")  # AmEx writes "#" for not meaningful
_NOTE_MARK = re.compile(r"^\([a-z]\)$|^\*+$|^[†‡§¹²³⁴⁵⁶⁷⁸⁹]+$")
_NOTE_CANDIDATE = re.compile(r"^\(\d{1,2}\)$")
_NOTE_REFERENCE = re.compile(r"^\d{1,2}$")  # '18' in a 'Note' column
_NOTES_IN_LABEL = re.compile(r"(?:\s+\d{1,2},)+$")  # 'Net sales 5,' when its '24' was the note column's
_DIGITS = re.compile(r"\d+")
_YEAR_TOKEN = re.compile(rf"^{YEAR}$")
_LABEL_NOTES = re.compile(r"(?:\s*(?:\((?:\d{1,2}|[a-z])\)|\*+|[†‡§¹²³⁴⁵⁶⁷⁸⁹]+))+$")
PER_SHARE_LABEL = re.compile(r"(?i)\bper\s+(?:common\s+|ordinary\s+|diluted\s+|basic\s+)?share\b|\bEPS\b|\bper ADS\b")
_SHARE_COUNT = re.compile(r"(?i)\bshares\s+outstanding\b|\b(?:weighted[- ]average|number of)\b.*\bshares\b|"
                          r"\bshares used\b|\bshares\s+(?:exercisable|repurchased|issuable)\s+under\b|"
                          # 'Less: shares repurchased under treasury stock method (101.4)': a count in a diluted
                          # EPS reconciliation, never money
                          r"\btreasury\s+stock\s+method\b")
_PERCENT_LABEL = re.compile(r"(?i)\(%\)|\bpercent(?:age)?\b|\bas a % of\b|%\s*$")
_BASIC_DILUTED = re.compile(r"(?i)^(?:basic|diluted|basic and diluted)$")
_HEADING_RUN_IN = re.compile(r"(?i)^(?P<heading>[^:]{3,80}):\s*(?:basic|diluted|basic and diluted)$")

# A header's column unit, written under or beside each column: '£m', '$m', '€m', 'A$m', '(£m)', 'CHFm'
_UNIT_TOKEN = re.compile(rf"^\(?(?:[A-Z]{{0,3}}[$£€¥]|[A-Z]{{3}})\s?(?:{SHORT_SCALE}|(?i:thousands?|millions?|billions?))\)?$")
_NOTE_WORD = re.compile(r"(?i)^notes?$")
_NUMBERED_WORD = re.compile(r"(?i)^(?:level|tier|stage|phase|class|series)$")
"""Words a small number names a kind by ('Level 2', 'Tier 1', 'Stage 3'): the number is part of the label."""
_BARE_CURRENCY = re.compile(r"^\(?(?:[A-Z]{0,3}[$£€¥]|[A-Z]{3})$")
_SCALE_WORD = re.compile(r"(?i)^(?:thousands?|millions?|billions?)\)?$")
_UNIT_START = re.compile(r"\(?(?:[A-Z]{0,3}[$£€¥]|[A-Z]{3}|(?i:in|thousands?|millions?|billions?)$)")
_NOTE_IN = re.compile(r"(?i)\bnotes?\b")
_UNIT_HINT = re.compile(r"[$£€¥]|(?i:thousand|million|billion|\byen\b)|\b[A-Z]{3}\s?(?:mn|bn|m|k)\b")
_FOOTNOTE_DIGIT = re.compile(r"^[1-9]$|^[¹²³⁴⁵⁶⁷⁸⁹]$")
_BRACKETS = re.compile(r"\([^()]*\)")
_VERSUS = re.compile(r"(?i)\s*(?:vs\.?|versus|compared\s+(?:to|with))\s+")
_DATING = re.compile(r"(?i)\b(?:ended|ending|as\s+(?:at|of))\b")
# A titled header's title: a short line of words ('Iron Ore', 'Average number of employees') that is no
# sentence, ending in no word that would run on into the years ('Revenue for 2024 2023' is prose)
_TITLE_MAX_WORDS = 8
_RUNS_ON = {"for", "and", "of", "in", "to", "the", "at", "by", "from", "with", "between", "on", "as", "or", "than",
            "versus", "vs", "vs.", "since", "until", "during", "over", "into", "a", "an", "was", "were", "is", "are"}
_CHANGE_MARK = re.compile(r"^[∆Δ]%$")
_TITLED_NOISE = re.compile(r"(?i)\b(?:and|to|or|for|the|as|at|except|per|share|amounts|data)\b")
_MAX_TITLE_SPAN = 5  # the years of a titled header's columns lie within this many years of each other
_YEAR_SEEN = re.compile(rf"(?<!\d){YEAR}(?!\d)|\bFY\s?'?\d{{2}}\b")
_NAME_JOINERS = {"and", "&", "of", "the", "for", "und", "de"}
MIN_SEGMENT_COLUMNS = 3
"""Segment columns are read from a name line of at least this many names ('Pumps Valves Group'); two capitalised
words above a year ('Group Revenue') are a heading."""


# --- reading a statement ------------------------------------------------------------------------------------


_FISCAL_THEN_YEAR = re.compile(r"(?im)^[ \t]*(fiscal(?:\s+year)?|fy)[ \t]*\n[ \t]*((?:19|20)\d{2})[ \t]*$")
_WRAPPED_CHANGE = re.compile(r"(?mi)^([ \t]*increase[ \t]*/)[ \t]*\n[ \t]*(\(decrease\))")
"""A change column's name that PDF extraction wraps after its slash ('Increase/' / '(decrease) % Change')."""
_WRAPPED_UNIT = re.compile(r"(?i)(\((?:amounts\s+|dollars\s+)?in)[ \t]*\n[ \t]*((?:thousands|millions|billions)\)[.:]?)"
                           r"[ \t]*")
"""A unit declaration PDF extraction wraps after its 'in' ('(in' / 'thousands).', '(amounts in' / 'millions):')."""
_LEAD_IN_UNIT = re.compile(r"(?i)\((?:amounts\s+|dollars\s+)?in\s+(?:thousands|millions|billions)\)\s*:\s*$")
"""The unit a sentence that leads into its table closes with ('… as follows (amounts in millions):')."""
_LONE_PERCENT = re.compile(r"(?m)(\d)[ \t]*\n[ \t]*(%\)?)[ \t]*$")
"""A per cent sign PDF extraction puts on a line of its own, under the number it marks ('100.0' / '%', '(0.1' /
'%)')."""


_WRAPPED_VERSUS = re.compile(r"(?m)^[ \t]*((?:19|20)\d{2})[ \t]+(versus|vs\.?)[ \t]*\n((?:[ \t]*\([^)\n]*\)[ \t]*\n)?)"
                             r"((?:[ \t]*(?:19|20)\d{2}[ \t]*\n)+)[ \t]*((?:19|20)\d{2})[ \t]*$")
"""A change column's name that PDF extraction wraps around the unit and the years ('2018 versus' / '(Millions)' /
'2018' / '2017' / '2017'): put back whole after the years ('2018 versus 2017'), so the years date their columns."""


_CELL_TOKEN = r"(?:[$£€¥][ \t]?)?\(?-?\d[\d,]*(?:\.\d+)?(?:[ \t]?\))?(?:[ \t]?%)?"
_RUN_ON_HEADER = re.compile(
    r"(?m)^(?P<head>[ \t]*(?:[A-Za-z][^\d\n]{0,80}?[ \t])?(?P<years>(?:(?:19|20)\d{2}[ \t]+)+(?:19|20)\d{2}))[ \t]+"
    rf"(?P<row>[A-Za-z][^\d\n$£€¥()%]{{1,80}}?(?P<cells>(?:[ \t]+{_CELL_TOKEN})+))(?P<rest>(?=[ \t]+[A-Za-z]|[ \t]*$).*)$")
_CELL = re.compile(_CELL_TOKEN)


def _run_on_header(match: re.Match) -> str:
    """'Membership Fees 2021 2020 2019 Membership fees $ 3,877 $ 3,541 $ 3,352 Membership fees increase …' put
    back on lines: a table's title and years that PDF extraction runs together with its first row, which has one
    cell a year, and with what follows it."""
    if len(_CELL.findall(match.group("cells"))) != len(match.group("years").split()):
        return match.group(0)
    rest = match.group("rest").strip()
    return f"{match.group('head')}\n{match.group('row')}" + (f"\n{rest}" if rest else "")


_RUN_ON_CHANGE_HEADER = re.compile(
    r"(?m)^(?P<title>[ \t]*[A-Za-z](?:[^\d\n]|(?<!\d)\d{1,2}(?!\d)){0,80}?)[ \t]+(?P<years>(?:(?:19|20)\d{2}[ \t]+)+(?:19|20)\d{2})"
    r"(?P<changes>(?:[ \t]+(?:19|20)\d{2}[ \t]+(?:vs\.?|versus|compared[ \t]+(?:to|with))[ \t]+(?:19|20)\d{2})+)"
    r"(?P<unit>[ \t]+\((?:in[ \t]+)?(?:thousands|millions|billions)[^()\n]{0,40}\))?[ \t]+"
    rf"(?P<row>[A-Za-z][^\d\n$£€¥()%]{{1,80}}?(?P<cells>(?:[ \t]+{_CELL_TOKEN})+))(?P<rest>(?=[ \t]+[A-Za-z]|[ \t]*$).*)$")


_DATES_THEN_NAME = re.compile(
    rf"(?m)^(?P<dates>[^\n]*?(?:\b(?i:{MONTH})\s+\d{{1,2}},?\s+(?:19|20)\d{{2}}\s+){{1,5}}(?i:{MONTH})\s+\d{{1,2}},?\s+"
    rf"(?:19|20)\d{{2}})[ \t]+(?P<name>[A-Z][A-Za-z&.,' -]{{2,60}}:?)[ \t]*$")
"""A header of column dates with the first row's heading run on after them ('… March 31, 2021 December 31, 2020
March 31, 2020 JPMorgan Chase & Co.'): the heading goes on a line of its own."""


def _run_on_change_header(match: re.Match) -> str:
    """'Provision for Income Taxes Year Ended December 31, Change 2015 2014 2013 2015 vs. 2014 2014 vs. 2013 (in
    thousands, except percentages) Provision for income taxes $ 19,244 … (77 )% 23,899 41 % Effective tax rate …'
    put back on lines: a title, a header of years and of changes between them ('2015 vs. 2014', each an amount
    and maybe a per cent), and the first row, which PDF extraction ran into one line. The title goes on a line of
    its own, since a word in it ('Change') would otherwise be read as a column."""
    years = len(match.group("years").split())
    changes = len(re.findall(r"(?:vs\.?|versus|compared)", match.group("changes")))
    if not years <= len(_CELL.findall(match.group("cells"))) <= years + 2 * changes:
        return match.group(0)
    rest = match.group("rest").strip()
    header = f"{match.group('years')}{match.group('changes')}{match.group('unit') or ''}".strip()
    return f"{match.group('title').strip()}\n{header}\n{match.group('row').strip()}" + (f"\n{rest}" if rest else "")


_GLUED_NOTE_MARK = re.compile(r"(?m)^\s*\((?:i{1,3}|iv|vi{0,3}|ix|x|[a-h])\)(?=\$?\s?\(?\d)")
"""A note mark at a line's start with the row's first value run into it ('(ii)70,557 34,771' under 'Accrued
transaction losses'): PDF extraction put the label's mark on the values' line."""


def read_statement(text: str, names: Sequence[str] = ()) -> Statement:
    """The periods, declared unit and rows of a statement page. Markdown pipe-table lines are skipped (the
    table reader owns them); prose yields rows without periods, which callers ignore. `names` are segment names
    known from elsewhere (the question's), which tell where a header's names split (`year_block_rows`)."""
    reader = _Reader()
    # 'Fiscal' / '2016' / 'Fiscal' / '2015': a column's name that PDF extraction puts in two lines is one
    text = _FISCAL_THEN_YEAR.sub(r"\1 \2", text)
    text = _LONE_PERCENT.sub(r"\1\2", text)  # so the number is read as a share when it is read
    text = _WRAPPED_CHANGE.sub(r"\1\2", text)  # 'Increase/' / '(decrease) % Change': one column's name
    # '… for fiscal 2016, 2015 and 2014 (in' / 'thousands). With the exception …': one unit, closing its line
    text = _WRAPPED_UNIT.sub(r"\1 \2\n", text)
    text = _DATES_THEN_NAME.sub(r"\g<dates>\n\g<name>", text)  # a member's heading after the header's dates
    text = _RUN_ON_CHANGE_HEADER.sub(_run_on_change_header, text)  # … with change columns: three lines
    text = _RUN_ON_HEADER.sub(_run_on_header, text)  # a header run together with its first row: two lines
    text = _WRAPPED_VERSUS.sub(r"\3\4\1 \2 \5", text)  # '2018 versus' … '2017': the change column's name, whole
    text = _GLUED_NOTE_MARK.sub("", text)  # '(ii)70,557 34,771': a row's note mark run into its first value
    for line in text.splitlines():
        reader.feed(line)
    statement = reader.finish()
    statement = replace(statement, rows=[_quarters_ended(r) for r in with_component_totals(statement.rows, text)])
    spanned = year_spanned_rows(text)
    grid = (grid_rows(text) + named_column_rows(text) + year_block_rows(text, names) + measure_group_rows(text)
            + member_group_rows(text, names)
            + stacked_group_rows(text) + spanned + dated_column_rows(text, names) + stacked_column_rows(text)
            + year_grouped_rows(text, names) + dayed_year_rows(text) + undated_column_rows(text)
            + reconciled_rows(text) + regional_split_rows(text))
    if not grid:
        return statement
    # the grid's rows read as a header-less table (values without periods) give way to its cells, and so do
    # a member's rows read under repeated years ('Industrial' under '2018 2017 2016 2018 2017 2016'), or under
    # years that each head several columns, whose values no single measure names
    labels = {row.line_item for row in grid} | {row.columns[0] for row in grid if row.columns}
    members = {row.columns[0] for row in spanned}
    kept = [r for r in statement.rows if r.line_item not in members and (
        r.line_item not in labels or r.periods and _year_groups(r.periods) < 2 and not r.columns
        and "FY?" not in r.periods)]
    return Statement(periods=statement.periods, scale=statement.scale, currency=statement.currency,
                     rows=[*kept, *grid])


def _quarters_ended(row: StatementRow) -> StatementRow:
    """A row of a table its title says is quarterly ('our average MAUs on a sequential quarterly basis …') whose
    columns are bare days ('December 31, 2019'): each column is the quarter that ends that day, not a balance at it."""
    if not row.title or not _QUARTERLY.search(row.title) or not row.periods \
            or not all(period_day(p) or p.endswith("change") for p in row.periods):
        return row
    return replace(row, periods=[f"3M {p}" if period_day(p) else p for p in row.periods])


_QUARTERLY = re.compile(r"(?i)\bquarterly\s+basis\b|\bby\s+quarter\b|\beach\s+quarter\b")


# --- a caption over its components, with no total of its own ----------------------------------------------------

_COMPONENT_CAPTION = re.compile(r"(?i)^(?P<caption>inventor(?:y|ies)(?:,\s*net)?)\s*:?$")
_INVENTORY_PART = re.compile(r"(?i)^(?:raw\s+materials?|work[\s-]+in[\s-]+(?:process|progress)|finished\s+(?:goods|products)|"
                             r"(?:operating\s+)?supplies|materials\s+and\s+supplies|merchandise|spare\s+parts)\b")
"""What an inventory is made of, as a balance sheet lists it under 'Inventories, net' with no total line."""


def with_component_totals(rows: list[StatementRow], text: str) -> list[StatementRow]:
    """A balance sheet that gives inventories as a caption over its parts ('Inventories, net' / 'Raw materials and
    supplies 992 1,114' / 'Work in process and finished goods 1,221 1,325') and no total line: a row for the
    caption, each column the sum of its parts', placed after them; its raw text names the rows it sums. A part
    missing a value, or columns that differ, give none."""
    lines = [line.strip() for line in text.splitlines()]
    out = list(rows)
    for i, line in enumerate(lines):
        caption = _COMPONENT_CAPTION.match(line)
        if not caption:
            continue
        parts: list[StatementRow] = []
        for following in lines[i + 1:]:
            row = next((r for r in rows if r.raw.startswith(following)), None) if following else None
            if row is None or not _INVENTORY_PART.match(row.line_item):
                break
            parts.append(row)
        if len(parts) < 2 or any(None in p.values or p.periods != parts[0].periods or len(p.values) !=
                                 len(parts[0].values) for p in parts):
            continue
        if any(r.line_item.casefold().startswith("inventor") and r.values for r in rows):
            continue  # the statement states the total itself
        sums = [round(sum(values), 6) for values in zip(*(p.values for p in parts))]  # type: ignore[arg-type]
        total = replace(parts[0], line_item=caption.group("caption"), values=sums,  # type: ignore[arg-type]
                        raw=f"{caption.group('caption')} (the sum of {'; '.join(p.raw for p in parts)})",
                        highs=None)
        out.insert(out.index(parts[-1]) + 1, total)
    return out


# --- grids: members as rows, a measure and a period in each column ---------------------------------------------

_GRID_PERIOD = re.compile(r"^(?:FY)?(?:19|20)\d{2}$|^FY\d{2}$")
_GRID_UNIT = re.compile(r"^\(?(?:[A-Z]{0,3}[$£€¥]|[A-Z]{3})\s?(?:m|mn|bn|k)\)?$")
MIN_GRID_MEASURES = 2
"""A header names at least this many measures, each followed by its periods: 'Revenue FY2025 Revenue FY2024
Adjusted operating profit FY2025 Adjusted operating profit FY2024 Margin FY2025 Margin FY2024'."""


_NO_GRID_MEASURE = re.compile(r"(?i)\(.*\)|vs\.?|versus|change|%|to|-")
"""What stands before a header's period and names no measure: a unit note in brackets, a comparison's joiner."""


def grid_columns(line: str) -> tuple[list[tuple[str, str]], str | None] | None:
    """(measure, period) per column of a grid header, and its unit token ('£m') when it opens the line; None when
    the line is no such header (fewer than MIN_GRID_MEASURES measures, or a word after the last period)."""
    tokens = line.split()
    unit = tokens.pop(0) if tokens and _GRID_UNIT.match(tokens[0]) else None
    columns: list[tuple[str, str]] = []
    words: list[str] = []
    measure = ""
    for token in tokens:
        if _GRID_PERIOD.match(token):
            if words:
                measure, words = " ".join(words), []
            if not measure or _NO_GRID_MEASURE.fullmatch(measure):
                return None  # ('(Millions, except percentages) 2022 2021 2020 2022 vs. 2021': a unit and years)
            year = token[-4:] if len(token) >= 4 and token[-4:].isdigit() else "20" + token[-2:]
            columns.append((measure, f"FY{year}"))
        elif re.search(r"\d", token):
            return None
        else:
            words.append(token)
    if words or len({m for m, _ in columns}) < MIN_GRID_MEASURES or len(columns) < 2 * MIN_GRID_MEASURES:
        return None
    return columns, unit


def grid_rows(text: str) -> list[StatementRow]:
    """A table whose rows are members (segments, regions) and whose header gives a measure and a period per
    column ('£m Revenue FY2025 Revenue FY2024 Adjusted operating profit FY2025 …' over 'Online 398.6 356.2 41.3
    33.6 10.4% 9.4%'), read as the rows a segment note gives: one row per measure and member, its values
    that member's column (`columns`), its periods the header's. A row is read only when it has a value for every
    column; a dash is no value."""
    out: list[StatementRow] = []
    lines = [line.strip() for line in text.splitlines()]
    i = 0
    while i < len(lines):
        found = grid_columns(lines[i]) if len(lines[i].split()) >= 4 else None
        if found is None:
            i += 1
            continue
        columns, unit = found
        currency, scale = (declared_unit(unit) or ("", None)) if unit else ("", None)
        i += 1
        while i < len(lines) and lines[i]:
            member, values = _label_and_cells(lines[i])
            if not member or not values:
                break
            i += 1
            if len(values) != len(columns):
                continue
            by_measure: dict[str, list[tuple[str, str]]] = {}
            for (measure, period), cell in zip(columns, values):
                by_measure.setdefault(measure, []).append((period, cell))
            for measure, cells in by_measure.items():
                read = [None if _DASH.match(c) else _cell_value(c) for _, c in cells]
                percent = any(c.endswith("%") for _, c in cells)
                out.append(StatementRow(
                    line_item=measure, values=read, periods=[p for p, _ in cells],
                    unit="%" if percent else currency, scale=None if percent else SCALE_NAME.get(scale or ""),
                    raw=f"{member} {' '.join(values)}", columns=[member] * len(cells)))
    return out


_YEARS_ONLY = re.compile(r"^(?:(?:19|20)\d{2}\s+)+(?:19|20)\d{2}$")
_GROUP_JOINERS = frozenset({"of", "and", "&", "to", "for", "in", "on", "from", "per", "by", "at", "the", "a",
                            "before", "after", "excluding", "including", "net"})  # ('Income Before Tax')
MEASURE_TITLE_LINES = 4
"""Lines a table's measure names may be wrapped over ('Amortization of' / 'Intangible Assets' / 'Depreciation and'
/ 'Other Amortization')."""


def measure_group_rows(text: str) -> list[StatementRow]:
    """A table whose columns are groups of the same years, one group per measure ('Net Revenue Operating
    Profit/(Loss)' over '2022 2021 2020 2022 2021 2020' over 'FLNA $ 23,291 $ 19,608 $ 18,189 $ 6,135 …'), its
    rows members (divisions, regions): read as grid rows, one per measure and member, each value that member's
    for the year over it. The names are split into as many measures as there are groups, at a capitalised word
    that joins nothing (not after 'of', 'and'), the split that makes them most alike in length; a row is read only
    when it has a value (or a dash) for every column."""
    out: list[StatementRow] = []
    lines = [line.strip() for line in text.splitlines()]
    for i, line in enumerate(lines):
        # (the unit may open the years' line: '(Dollars in Millions) 2022 2021 2022 2021 2022 2021')
        unit_said = _UNIT_OPENING.match(line)
        bare = line[unit_said.end():] if unit_said else line
        years = bare.split() if _YEARS_ONLY.match(bare) else []
        runs = _year_runs(years)  # (groups of unlike widths too: '2022 2021 2020 2022 2021')
        groups = len(runs)
        if groups < 2:
            continue
        currency, scale = (declared_unit(unit_said.group(0)) if unit_said else None) or ("", None)
        title: list[str] = []
        for above in reversed(lines[max(0, i - MEASURE_TITLE_LINES):i]):
            # (the unit may open the names' line: '(in millions) Net Revenue Operating Profit/(Loss)')
            if (opening := _UNIT_BEFORE_NAMES.match(above)) and (declared := declared_unit(opening.group(0))):
                currency, scale = (currency or declared[0], scale or declared[1])
                above = above[opening.end():]
            if not above or re.search(r"\d", above) or above.endswith((":", ".", ";")) or len(above) > 60:
                break
            title.insert(0, above)
        measures = _split_measures(" ".join(title), groups)
        if not measures:
            continue
        for row in lines[i + 1:]:
            # ('$ 23,291', '19.6 %')
            label, cells = _label_and_cells(re.sub(r"(\d)\s+%", r"\1%", re.sub(r"(?<!\S)[$£€¥](?=\s)", " ", row)))
            if not label or not cells or _YEARS_ONLY.match(row):
                break
            if len(cells) != len(years):
                continue
            for measure, (start, end) in zip(measures, runs):
                part = cells[start:end]
                percent = any(c.endswith("%") for c in part) or bool(_PERCENT_LABEL.search(measure))
                out.append(StatementRow(
                    line_item=measure, values=[None if _DASH.match(c) else _cell_value(c) for c in part],
                    periods=[f"FY{y}" for y in years[start:end]], unit="%" if percent else currency,
                    scale=None if percent else SCALE_NAME.get(scale or ""), raw=row, columns=[label] * len(part)))
    return out


_UNIT_OPENING = re.compile(r"^\([^()]{2,60}\)\s*(?=(?:19|20)\d{2}\b)")
_UNIT_BEFORE_NAMES = re.compile(r"^\([^()]{2,60}\)\s*(?=[A-Z])")


_LONE_YEAR = re.compile(r"^(?:19|20)\d{2}$")


_MEASURE_NAME = re.compile(r"(?i)\b(?:sales|revenues?|turnover|income|profits?|loss(?:es)?|earnings|EBITDA|EBIT|"
                           r"assets|liabilities|expenditures?|capex|depreciation|amortization|margins?|expenses?|"
                           r"costs?|cash|orders|backlog|employees|volumes?|units|shipments|spending|equipment)\b")
"""A word that says a column group's name is a measure ('Capital Expenditures'), not a title over the table
('Business Segment Information')."""


def stacked_group_rows(text: str) -> list[StatementRow]:
    """The table of `measure_group_rows` as PDF extraction writes it one cell a line: the measures' names a line
    each ('Net Sales' / 'Operating Income'), a unit line ('(Millions)'), the years a line each ('2018' / '2017' /
    '2016' / '2018' / …), then each member's name and its values a line each ('Industrial' / '$' / '12,267' / …).
    Read only when exactly as many name lines as the years have groups stand over the years, each naming a
    measure (a title or a sentence above them is none) and a member has a value (or a dash) for every year line; each group's
    values are that measure's for the member, as in measure_group_rows."""
    lines = [line.strip() for line in text.splitlines()]
    out: list[StatementRow] = []
    i = 0
    while i < len(lines):
        if not _LONE_YEAR.match(lines[i]):
            i += 1
            continue
        end = i
        while end < len(lines) and (_LONE_YEAR.match(lines[end]) or not lines[end]):
            end += 1
        years = [line for line in lines[i:end] if line]
        runs = _year_runs(years)  # ('2018' / '2017' / '2016' / '2018' / '2017': groups of unlike widths too)
        groups = len(runs)
        if groups < 2:
            i = end
            continue
        names: list[str] = []
        scale, excepted = None, frozenset()
        for above in reversed(lines[:i]):
            if not above:
                continue
            unit, rest, _ = _unit_in(above)
            if unit is not None and not _EXCEPT.sub("", rest).strip("(), ") and not names:
                # '(Millions)', '(Millions, except Employees)': the unit line between the names and the years
                scale, excepted = unit.scale, unit.excepted
                continue
            if names and _DAY_ENDING.match(names[0]) and _AS_OF_END.search(above):
                names[0] = f"{above} {names[0]}"  # 'Property, Plant and Equipment - net as of' / 'December 31,'
                continue
            if len(names) == groups or re.search(r"\d", _DAY_SAID.sub(" ", above)) or len(above) > 60 \
                    or above.endswith((":", ".", ";")):
                break
            names.insert(0, above)
        if len(names) != groups or any(not n[:1].isupper() or not _MEASURE_NAME.search(n) for n in names):
            i = end
            continue
        currency = ""
        marked: set[int] = set()  # the groups a currency mark stands in, on any row ('$' / '1,321' …)
        first, k = len(out), end
        while k < len(lines):
            label = lines[k]
            if not label:
                k += 1
                continue
            if _VALUE.match(label) or _DASH.match(label) or _LONE_YEAR.match(label) or len(label) > 80:
                break
            cells: list[str] = []
            j = k + 1
            while j < len(lines) and len(cells) < len(years):
                token = lines[j]
                if token and (_VALUE.match(token) or _DASH.match(token)):
                    cells.append(token)
                elif token and _CURRENCY_TOKEN.match(token):
                    currency = currency or token
                    marked |= {g for g, (start, stop) in enumerate(runs) if start <= len(cells) < stop}
                elif token:
                    break
                j += 1
            if len(cells) != len(years):
                break
            for measure, (start, stop) in zip(names, runs):
                part = cells[start:stop]
                out.append(StatementRow(
                    line_item=measure, values=[None if _DASH.match(c) else _cell_value(c) for c in part],
                    periods=[f"FY{y}" for y in years[start:stop]], unit=currency, scale=scale,
                    raw=f"{label} {' '.join(part)}", columns=[label] * len(part)))
            k = j
        if marked:
            # a group no row marks with the currency is not money ('Employees as of December 31,' beside
            # '$ 1,321' of capital spending), nor scaled when the unit line excepts it ('except Employees')
            unmarked = {measure for g, measure in enumerate(names) if g not in marked}
            out[first:] = [replace(row, unit="", scale=None if any(
                words <= _label_words(row.line_item) for words in excepted) else row.scale)
                if row.line_item in unmarked else row for row in out[first:]]
        i = max(k, end)
    return out


_DAY_ENDING = re.compile(rf"(?i)^{MONTH}\s+\d{{1,2}},?(?:\s+(?:19|20)\d{{2}})?,?$")
"""A group name's date wrapped onto a line of its own ('December 31,' under '… net as of')."""
_DAY_SAID = re.compile(rf"(?i)\b{MONTH}\s+\d{{1,2}}\b(?:,?\s+(?:19|20)\d{{2}}\b)?")
"""A day a group's name dates it by ('Employees as of December 31,'), no figure of the table."""
_AS_OF_END = re.compile(r"(?i)\b(?:as\s+(?:of|at)|at|ended|ending)$")


_CHANGE_HEAD = re.compile(r"(?i)^(?:%\s*)?(?:change|chg\.?)(?:\s*%)?$")
_CONTINUED_NAME = re.compile(r"^[(a-z]")


def year_spanned_rows(text: str) -> list[StatementRow]:
    """A table whose years each head a group of columns with the same names under each, as PDF extraction writes
    it one cell a line: '2022' / '2021' / '% change', then 'Net Sales' / '% of Total' / 'Operating' / 'Income
    (Loss)' under each year and 'Net Sales' / 'Operating Income' / '(Loss)' under the change, then each member
    and its values ('Safety and Industrial' / '$' / '11,604' / '33.9%' / …). The names may be wrapped over two
    lines each, or written in two tiers ('Net' / '% of' / 'Oper.' … over 'Sales' / 'Total' / 'Income' …). Read
    only when the names, joined where a line goes on with the next, repeat once per year and account for every
    value of the fullest row, a change column's names being names of the years' columns; a member's row is read
    with all its values, or with its years' values alone. Each of the member's measures is a row (line_item the
    measure, columns the member), its values the years' and then, under '% change', its change."""
    lines = [line.strip() for line in _LONE_PERCENT.sub(r"\1\2", text).splitlines() if line.strip()]
    out: list[StatementRow] = []
    i = 0
    while i < len(lines):
        if not (_year_head(lines[i]) and i + 1 < len(lines) and _year_head(lines[i + 1])):
            i += 1
            continue
        years: list[str] = []
        j = i
        while j < len(lines) and _year_head(lines[j]):
            years.append(lines[j])
            j += 1
        # the years' columns, or the days' a span of months ends ('Three months ended' / … / 'December 31, 2018')
        spans = [_MONTHS_ENDED.match(x) for x in lines[max(0, i - 6):i]]
        months = next((m.group(1).lower() for m in reversed(spans) if m), "")
        heads = [_column_head(y, months) for y in years]
        years = [y if _LONE_YEAR.match(y) else _YEAR_IN.search(y).group(0) for y in years]
        change = ""
        if j < len(lines) and _CHANGE_HEAD.match(lines[j]):
            change = "% change" if "%" in lines[j] else "change"
            j += 1
        names, scale, k = _spanned_names(lines, j)
        members, currency, end = _spanned_members(lines, k)
        i = max(end, i + 1)
        if len(set(years)) != len(years) or not names or not members:
            continue
        full = max(len(cells) for _, cells in members)
        columns = _spanned_columns(names, len(years), bool(change), full)
        if columns is None:
            continue
        width = len(columns[0])
        members = [(label, cells) for label, cells in members if len(cells) in (full, width * len(years))]
        # a column of shares: its name says so, or a member's cells carry the sign (often the first row's alone)
        shares = {m for m, measure in enumerate(columns[0]) if measure.startswith("%") or _PERCENT_LABEL.search(
            measure) or any(cells[g * width + m].endswith("%") for _, cells in members for g in range(len(years)))}
        for label, cells in members:
            for m, measure in enumerate(columns[0]):
                values = [cells[g * width + m] for g in range(len(years))]
                periods = list(heads)
                if len(cells) == full and measure in columns[1]:
                    values.append(cells[width * len(years) + columns[1].index(measure)])
                    periods.append(change)
                unit, row_scale = ("%", None) if m in shares else (
                    (f"{currency} per share".strip(), None) if PER_SHARE_LABEL.search(measure) else (currency, scale))
                out.append(StatementRow(
                    line_item=measure, values=[None if _DASH.match(c) else _cell_value(c) for c in values],
                    periods=periods, unit=unit, scale=row_scale, raw=f"{label} {' '.join(cells)}",
                    columns=[label] * len(values)))
    return out


_LONE_DAY = re.compile(rf"(?i)^(?P<month>{MONTH})\s+(?P<day>\d{{1,2}}),?\s+(?P<year>(?:19|20)\d{{2}})$")
_MONTHS_ENDED = re.compile(r"(?i)^(three|six|nine|twelve|3|6|9|12)\s+months\s+ended,?$")
_YEAR_IN = re.compile(r"(?:19|20)\d{2}")
_SPAN = {"three": "3M", "3": "3M", "six": "6M", "6": "6M", "nine": "9M", "9": "9M"}


def _year_head(line: str) -> bool:
    """A column group's head: a year alone ('2018'), or the day a period ends ('December 31, 2018')."""
    return bool(_LONE_YEAR.match(line) or _LONE_DAY.match(line))


def _column_head(head: str, months: str) -> str:
    """The period a group's head names: 'FY2018' for a year; for a day, the span of months a line over the heads
    says ('3M 2018-12-31' under 'Three months ended'), else the day's year."""
    day = _LONE_DAY.match(head)
    if day is None:
        return f"FY{head}"
    date = f"{day.group('year')}-{month_number(day.group('month')):02d}-{int(day.group('day')):02d}"
    span = _SPAN.get(months)
    return f"{span} {date}" if span else f"FY{day.group('year')}"


def _spanned_names(lines: Sequence[str], start: int) -> tuple[list[str], str | None, int]:
    """The column-name lines of a `year_spanned_rows` table from `start` up to its first member (a line a value
    or a currency sign follows), the scale a unit line among them declares, and where the members start."""
    names: list[str] = []
    scale = None
    k = start
    while k < len(lines):
        line = lines[k]
        unit, rest, _ = _unit_in(line)
        if unit is not None and not rest.strip("() "):
            scale = unit.scale
        elif (_VALUE.match(line) or _DASH.match(line) or _LONE_YEAR.match(line) or len(line) > 60
              or k + 1 < len(lines) and (_VALUE.match(lines[k + 1]) or _CURRENCY_TOKEN.match(lines[k + 1]))):
            break
        else:
            names.append(line)
        k += 1
    return names, scale, k


def _spanned_members(lines: Sequence[str], start: int) -> tuple[list[tuple[str, list[str]]], str, int]:
    """The members of a `year_spanned_rows` table from `start`, each with its value cells (a dash is one), the
    currency sign its cells carry, and where the table ends: at a year or unit line, a long line, or a second
    line in a row without values (a heading over members, 'Business Segments', is one)."""
    members: list[tuple[str, list[str]]] = []
    currency = ""
    bare = 0
    k = start
    while k < len(lines):
        label = lines[k]
        if _VALUE.match(label) or _DASH.match(label) or _LONE_YEAR.match(label) or len(label) > 80 \
                or _unit_in(label)[0] is not None:
            break
        cells: list[str] = []
        j = k + 1
        while j < len(lines):
            token = lines[j]
            if _VALUE.match(token) or _DASH.match(token):
                cells.append(token)
            elif _CURRENCY_TOKEN.match(token):
                currency = currency or token
            elif token in ("%", "%)") and cells:  # a per cent sign a blank line parts from its number
                cells[-1] = cells[-1].rstrip("%") + "%"
            else:
                break
            j += 1
        if cells:
            members.append((label, cells))
            bare = 0
        else:
            bare += 1
            if bare > 1:
                break
        k = j
    return members, currency, k


def _spanned_columns(names: Sequence[str], years: int, change: bool, full: int
                     ) -> tuple[list[str], list[str]] | None:
    """The names of one year's columns and of the change columns of a `year_spanned_rows` table, or None: the
    name lines joined where a line goes on with the next, or two tiers of names joined column by column, that
    repeat once per year and, with the change columns' names (each one of a year's), make up `full` columns."""
    joined: list[str] = []
    for line in names:
        if joined and (_CONTINUED_NAME.match(line) or _continues_name(joined[-1])):
            joined[-1] = f"{joined[-1]} {line}"
        else:
            joined.append(line)
    tiers = [f"{a} {b}" for a, b in zip(names[:full], names[full:2 * full])] + list(names[2 * full:]) \
        if len(names) >= 2 * full else []
    for columns in ([" ".join(c.split()) for c in names] for names in (joined, tiers)):
        for width in range(1, full // years + 1):
            rest = full - width * years
            if (rest and not change) or rest > width or len(columns) < full:
                continue
            year = columns[:width]
            if any(columns[g * width:(g + 1) * width] != year for g in range(1, years)):
                continue
            changed = columns[width * years:full]
            if all(c in year for c in changed):
                return year, changed
    return None


def _continues_name(line: str) -> bool:
    """Whether a column-name line goes on on the next line: it ends in a joining word ('% of') or is one word
    that names no measure ('Operating')."""
    words = line.split()
    return bool(words) and (words[-1].casefold() in _GROUP_JOINERS
                            or len(words) == 1 and not _MEASURE_NAME.search(line) and not line.startswith("%"))


def _year_runs(years: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) of each run of consecutive years a line's years fall into, a new run where the years start
    over ('2022 2021 2020 2022 2021': (0, 3), (3, 5)). A run that skips a year is one only as a repeat of the same
    years (`_year_groups`: '2022 2020 2022 2020'); else the line is one run ('2024 2022 2020'). [] for no years."""
    if not years:
        return []
    values = [int(y) for y in years]
    step = -1 if len(values) > 1 and values[1] < values[0] else 1
    starts = [0] + [k for k in range(1, len(values)) if (values[k] - values[k - 1]) * step <= 0]
    runs = list(zip(starts, [*starts[1:], len(values)]))
    if any(values[k] != values[k - 1] + step for a, b in runs for k in range(a + 1, b)):
        width = len(values) // _year_groups(years)
        return [(start, start + width) for start in range(0, len(values), width)]
    return runs


def _year_groups(years: Sequence[str]) -> int:
    """How many times a line's years repeat one run of years ('2022 2021 2020 2022 2021 2020': 2); 1 when they
    do not."""
    for width in range(1, len(years) // 2 + 1):
        if len(years) % width == 0 and len(set(years[:width])) == width and \
                all(years[k] == years[k % width] for k in range(len(years))):
            return len(years) // width
    return 1


def _split_measures(text: str, groups: int) -> list[str]:
    """`text` cut into `groups` measure names (see measure_group_rows); [] when it cannot be."""
    words = text.split()
    cuts = [k for k in range(1, len(words)) if words[k][:1].isupper()
            and words[k - 1].casefold() not in _GROUP_JOINERS and not words[k - 1].endswith(("/", "-", "&"))]
    best: tuple[int, list[str]] | None = None

    def pieces(chosen: Sequence[int]) -> list[str]:
        bounds = [0, *chosen, len(words)]
        return [" ".join(words[a:b]) for a, b in zip(bounds, bounds[1:])]

    for chosen in combinations(cuts, groups - 1):
        sizes = [b - a for a, b in zip([0, *chosen], [*chosen, len(words)])]
        spread = max(sizes) - min(sizes)
        if best is None or spread < best[0]:
            best = (spread, pieces(chosen))
    return best[1] if best else []


_NAMED_HEADER = re.compile(r"^(?P<period>.{0,60}?\b(?:19|20)\d{2}(?:\s*\([^)]*\))?)\s+(?P<unit>\(?(?:[A-Z]{0,3}[$£€¥]|[A-Z]{3})\s?"
                           r"(?:m|mn|bn|k)\)?)\s+(?P<names>[A-Z].*)$")


def heads_named_columns(text: str) -> bool:
    """Whether a line of the text heads columns with names ('in € million Industrial Drives Mobility Solutions …',
    '2024 A$m Revenue Underlying EBITDA …'): a segment table, whose names may need the page's headings to split."""
    return any((_UNIT_HEAD.match(line) or _NAMED_HEADER.match(line)) for line in map(str.strip, text.splitlines()))


def named_column_rows(text: str) -> list[StatementRow]:
    """A segment note whose header line gives the period, the unit and the segments' names ('52 weeks ended 29
    March 2025 £m Stores Online International franchise Central Group') over rows with a value per segment
    ('Revenue 1,021.4 398.6 66.2 — 1,486.2'): each row with its `columns`, every period that year's. A row is
    read only when it has a value (or a dash) for every name."""
    out: list[StatementRow] = []
    lines = [line.strip() for line in text.splitlines()]
    i = 0
    while i < len(lines):
        head = _NAMED_HEADER.match(lines[i])
        names = _column_names(head.group("names")) if head else []
        if not head or not names or re.search(r"\d", head.group("names")):
            i += 1
            continue
        period = _named_period(head.group("period"))
        currency, scale = declared_unit(head.group("unit")) or ("", None)
        i += 1
        rows: list[tuple[str, list[str], str]] = []
        while i < len(lines) and lines[i]:
            label, values = _label_and_cells(lines[i])
            if not label or not values or all(_YEAR_TOKEN.match(v) for v in values):
                break  # (a line of years heads the next table: '(c) Reconciliation to profit before tax 2024 2023')
            i += 1
            rows.append((label, values, lines[i - 1]))
        width = Counter(len(values) for _, values, _ in rows).most_common(1)[0][0] if rows else 0
        if width != len(names) and width >= 2:
            # measures as columns, named in words that run together ('Revenue Underlying EBITDA Depreciation and
            # amortisation Segment EBIT' over four values): cut into as many names as the rows have values
            names = _split_measures(head.group("names"), width) or names
        rows = [(label, values, raw) for label, values, raw in rows if len(values) == len(names)]
        if rows and _measures_across(names, [label for label, _, _ in rows]):
            # segments as rows under measures as columns ('Iron Ore 1,302.7 648.7 …' under 'Revenue Underlying
            # EBITDA …'): read the other way round, one row per measure over the segments, as a segment note is
            members = [label for label, _, _ in rows]
            rows = [(name, [values[k] for _, values, _ in rows], " | ".join(raw for _, _, raw in rows))
                    for k, name in enumerate(names)]
            names = members
        for label, values, raw in rows:
            percent = any(v.endswith("%") for v in values)
            out.append(StatementRow(
                line_item=label, values=[None if _DASH.match(v) else _cell_value(v) for v in values],
                periods=[period] * len(values), unit="%" if percent else currency,
                scale=None if percent else SCALE_NAME.get(scale or ""), raw=raw, columns=list(names)))
    return out


def _named_period(text: str) -> str:
    """A segment note's period as a column label, read as a statement header's is: 'FY2025' for '52 weeks ended 29
    March 2025', '6M 2024-12-31' for 'Half-year ended 31 December 2024' (the months ended that date); else the
    fiscal year of its last year."""
    header = _Header()
    for match in _PERIOD_ITEMS.finditer(text):
        _add_period_item(header, match)
    columns = _label_columns(header) if header.durations else []
    return columns[-1] if len(columns) == 1 else f"FY{re.findall(YEAR, text)[-1]}"


def _measures_across(names: Sequence[str], labels: Sequence[str]) -> bool:
    """Whether a table's columns are measures and its rows what they are measured for (segments): most column
    names are measures ('Revenue', 'Segment EBIT') and most row labels are not ('Iron Ore', 'Lithium')."""
    measured = sum(bool(_COLUMN_MEASURE.search(name)) for name in names)
    labelled = sum(bool(_COLUMN_MEASURE.search(label)) for label in labels)
    return 2 * measured > len(names) and 2 * labelled < max(len(labels), 1)


_COLUMN_MEASURE = re.compile(r"(?i)\b(?:revenues?|sales|turnover|income|profit|earnings|EBITDA|EBIT|margin|"
                             r"depreciation|amortisation|amortization|capex|capital\s+expenditure|assets|"
                             r"liabilities|cash\s+flows?|costs?|expenses?)\b")


_UNIT_HEAD = re.compile(r"^(?P<unit>(?:in\s+)?(?:[A-Z]{0,3}[$£€¥]|[A-Z]{3}|CHF)\s?(?:m|mn|bn|k|millions?|billions?|"
                        r"thousands?)|\(?(?:[A-Z]{0,3}[$£€¥]|[A-Z]{3})\s?(?:m|mn|bn|k)\)?|"
                        # '(Millions) United States EMEA APAC LACC Other Unallocated Consolidated'
                        r"\((?:[$£€]\s+)?(?:in\s+)?(?:millions|thousands|billions)\))\s+(?P<names>[A-Z].*)$",
                        re.IGNORECASE)
_PLACE = re.compile(rf"(?i){REGION_NAMES}")
_YEAR_LINE = re.compile(r"^(?:FY\s?|[Ff]iscal\s+(?:[Yy]ear\s+)?)?((?:19|20)\d{2})(?:\s*\([^)]*\))?$")
_TOTAL_NAMES = re.compile(r"(?i)^\s*(?:total|group|consolidated|company|worldwide|"
                          r"corporate(?:\s*(?:$|(?:and|&|/)\s*(?:other|eliminations?|consolidation|unallocated|"
                          r"adjustments?|central|reconcil\w*)|costs?|cent(?:er|re)|items?|expenses?|functions?|other|"
                          r"unallocated|eliminations?))|central|eliminations?|"
                          r"adjustments?|unallocated|intersegment|reconcil\w*|other(?!\s+international\b)|all\s+other)\b|"
                          r"\b(?:total|"
                          r"consolidat\w*|eliminat\w*|adjustments?)\s*$")
_WHOLE_NAMES = re.compile(r"(?i)^\s*(?:total|group|consolidated|company|worldwide)\b"
                          r"(?!\s*(?:costs?|expenses?|functions?))|"
                          r"^(?!\s*(?:corporate|central|other|eliminations?|reconcil\w*|adjustments?)\b)"
                          r".*\b(?:total|consolidat\w*)\s*$")
"""'Corporate/consolidation' reconciles the segments to the group: it is not the whole; 'Worldwide' (3M's sales by
geography and segment) is."""


def is_total(name: str) -> bool:
    """A row or column that is no member of a breakdown: the total, the group, corporate costs, eliminations, 'other'
    rows ('Other International' is a member: a segment of the countries outside the named ones)."""
    return bool(_TOTAL_NAMES.search(name))


def is_whole(name: str) -> bool:
    """A column that is the whole company ('Group', 'Consolidated', 'Total'), not corporate costs or
    eliminations, which are neither a member nor the whole."""
    return bool(_WHOLE_NAMES.search(name))


def year_block_rows(text: str, known: Sequence[str] = ()) -> list[StatementRow]:
    """A segment table whose header line gives the unit and the segments' names, its periods on lines of their
    own between blocks of rows ('in € million Industrial Drives Mobility Solutions Service Corporate/
    consolidation Group', '2024', 'Order intake 1,262.0 752.3 498.1 2,512.4', …, '2023', …), when its names
    run together (more capitalised words than the widest row has values; one name a word is the line reader's):
    each row with its `columns`, its periods the year above it. The names are split as the widest row has
    values, only where one split alone fits (`_split_names`). A row with a value for every name is read as it
    is; one a value short is read only when the short column is the reconciling one ('Corporate/consolidation')
    and the segments' values add up to the group's; anything else is not guessed at."""
    out: list[StatementRow] = []
    lines = [line.strip() for line in text.splitlines()]
    i = 0
    while i < len(lines):
        head = _UNIT_HEAD.match(lines[i])
        wrapped = None if head else _wrapped_head(lines, i)
        if wrapped is None and (not head or re.search(r"\d", head.group("names"))
                                or not (i + 1 < len(lines) and _YEAR_LINE.match(lines[i + 1]))):
            i += 1
            continue
        first = i  # (a wrapped header's lines, all of them no mention of a name elsewhere on the page)
        if wrapped is not None:
            (currency, scale), head_text, i = ("", None), *wrapped  # its unit is the cells' ('$ 141,398')
            # the scale its lead-in declares ('… were as follows (dollars in thousands):')
            scale = SCALE_SUFFIX.get(_declared_scale("\n".join(lines[max(0, first - 3):first])) or "")
        else:
            assert head is not None
            currency, scale = declared_unit(head.group("unit")) or ("", None)
            head_text = head.group("names")
        block: list[tuple[str, str | None, str, list[str]]] = []  # (line, its year or None, label, cells)
        j = i + 1
        while j < len(lines) and lines[j]:
            year_line = _YEAR_LINE.match(lines[j])
            label, cells = ("", []) if year_line else _label_and_cells(lines[j])
            if not year_line and not cells:
                break
            block.append((lines[j], year_line.group(1) if year_line else None, label, cells))
            j += 1
        width = max((len(cells) for _, _, _, cells in block), default=0)
        # (a wrapped header's other lines may read as names written elsewhere: 'Digital Media' / 'Digital' /
        # 'Marketing Print and Publishing Total' splits once they are out of the page too)
        names = _split_names(head_text, width, text.replace(lines[i], " "), known) or (
            _split_at_repeated_word(head_text, width) if wrapped is not None else []) or (
            _split_names(head_text, width, "\n".join(x for k, x in enumerate(lines) if not first <= k <= i), known)
            if i > first else [])
        if not currency:  # ('(Millions)' over '$ 41,396 $ 4,871 …': the cells' currency)
            currency = next((c for line, _, _, _ in block if (c := _currency_in_tokens(line.split()))), None) or ""
        year = None
        cut = _cut_blocks(block)
        for line, year_of_line, label, cells in block if names else []:
            if year_of_line:
                year = None if year_of_line in cut else year_of_line
                continue
            values = [None if _DASH.match(c) else _cell_value(c) for c in cells]
            if len(values) == len(names) - 1:
                values = _with_reconciling_gap(values, names)
            if year is None or not label or len(values) != len(names):
                continue
            percent = "%" in label or any(c.endswith("%") for c in cells)
            out.append(StatementRow(
                line_item=label, values=values, periods=[f"FY{year}"] * len(values), unit="%" if percent else currency,
                scale=None if percent else SCALE_NAME.get(scale or ""), raw=line, columns=list(names)))
        i = j
    return out


def _cut_blocks(block: Sequence[tuple[str, str | None, str, list[str]]]) -> set[str]:
    """The year lines of `year_block_rows` whose rows are the tail of another year's block: a chunk carries the
    table's header, first year line included ('Fiscal 2017'), over rows that chunking cut from the middle of a
    later block ('Cost of revenue 231,074 …' of 2016, its 'Revenue' row in the chunk before). A year's block
    that lacks the rows every other block opens with, and whose rows end another block's, is no block of that
    year; read, it would give 2016's figures as 2017's."""
    labels: dict[str, list[str]] = {}
    year = None
    for _, year_of_line, label, _ in block:
        if year_of_line:
            year = year_of_line
            labels.setdefault(year, [])
        elif year is not None and label:
            labels[year].append(label)
    whole = [rows for rows in labels.values() if rows]
    return {y for y, rows in labels.items() if rows and any(
        len(other) > len(rows) and other[-len(rows):] == rows for other in whole)}


_GROUPED_HEAD = re.compile(r"(?i)^(?P<period>(?:(?:three|six|nine|twelve)\s+months|(?:fiscal\s+)?years?|quarters?|"
                          r"\d{1,2}\s+weeks)\s+ended\s+[a-z]+\.?\s+\d{1,2},?)\s+(?P<names>[A-Z].*)$")
_GROUPED_COLUMNS = re.compile(r"(?i)^(?P<unit>\([^)]*\))?\s*(?P<columns>(?:(?:19|20)\d{2}|(?:%\s*)?change)"
                              r"(?:\s+(?:(?:19|20)\d{2}|(?:%\s*)?change))+)$")


def member_group_rows(text: str, known: Sequence[str] = ()) -> list[StatementRow]:
    """A segment table whose first header line gives the period and the segments' names, each heading a group of
    columns the second line names ('Three months ended March 31, Consumer & Community Banking Corporate &
    Investment Bank Commercial Banking' / '(in millions, except ratios) 2021 2020 Change 2021 2020 Change 2021
    2020 Change'), over rows with a value for every column ('Total net revenue $ 12,517 $ 13,287 (6) % $ 14,605
    …'): one row per segment, its `columns` that segment, its periods the header's. The names are split as the
    groups are many, only where one split alone fits (`_split_names`, with `known` names)."""
    out: list[StatementRow] = []
    lines = [line.strip() for line in text.splitlines()]
    for i, line in enumerate(lines[:-1]):
        head, columns = _GROUPED_HEAD.match(line), _GROUPED_COLUMNS.match(lines[i + 1])
        if not head or not columns:
            continue
        tokens = re.findall(r"(?i)(?:19|20)\d{2}|(?:%\s*)?change", columns.group("columns"))
        width = next((k for k in range(1, len(tokens)) if tokens[k] == tokens[0]), len(tokens))
        groups = len(tokens) // width
        if groups < 2 or tokens != tokens[:width] * groups:
            continue
        names = _split_names(head.group("names"), groups, text.replace(line, " "), known)
        if len(names) != groups:
            continue
        period = head.group("period")
        periods = [_named_period(f"{period} {t}") if t[:1].isdigit() else "change" for t in tokens[:width]]
        currency, scale = declared_unit(columns.group("unit") or "") or ("", None)
        for row in lines[i + 2:]:
            # ('(6) %' is one cell; 'NM', not meaningful, is none)
            row = re.sub(r"(?<=\s)NM(?=\s|$)", "—", re.sub(r"(\d\)?)\s+%", r"\1%", row))
            label, cells = _label_and_cells(row)
            if not cells or len(cells) != len(tokens) or not label.rstrip(" $"):
                if not cells:
                    break  # the table ends at a line of no values
                continue
            currency = currency or (_currency_in_tokens(row.split()) or "")
            for g, name in enumerate(names):
                own = cells[g * width:(g + 1) * width]
                percent = all(c.endswith("%") for c, p in zip(own, periods) if p != "change")
                out.append(StatementRow(
                    line_item=label.rstrip(" $"), values=[None if _DASH.match(c) else _cell_value(c) for c in own],
                    periods=[p if p != "change" or not own[k].endswith("%") else "% change"
                             for k, p in enumerate(periods)],
                    unit="%" if percent else currency, scale=None if percent else SCALE_NAME.get(scale or ""),
                    raw=row, columns=[name] * width))
    return out


def year_grouped_rows(text: str, known: Sequence[str] = ()) -> list[StatementRow]:
    """A table whose periods each head the same group of named columns, as PDF extraction writes a 10-Q's note or
    a release's reconciliation: 'Three Months Ended December 31,' / '2022 2021' (or 'Twelve Months Ended June 30,
    2022 Twelve Months Ended June 30, 2023' on one line) / '($ in millions) Flexibles Rigid Packaging Total
    Flexibles Rigid Packaging Total' (its names maybe wrapped over lines) / 'North America $ 1,092 $ 623 $ 1,715 $
    1,030 $ 609 $ 1,639'. Each row is read with every value's column (`columns`), the periods as a statement header
    dates them; where its names cannot be told apart ('Rigid Packaging' one name or two) but the group ends in its
    total, the total column alone, as the row's own figures. A row is read only with a value or dash for every
    column; a row with fewer (a line the table's rows lead to) or a label wrapped onto a line of its own is passed."""
    lines = [line.strip() for line in text.splitlines()]
    out: list[StatementRow] = []
    for i in range(len(lines) - 2):
        years = re.findall(r"\b(?:19|20)\d{2}\b", lines[i])
        titled = len(years) >= 2 and len(_PERIOD_TITLES.findall(lines[i])) == len(years)
        if not (_YEARS_ONLY.match(lines[i]) and i or titled) or len(set(years)) != len(years):
            continue
        groups = len(years)
        names_lines: list[str] = []
        k = i + 1
        while k < len(lines) and len(names_lines) < MEASURE_TITLE_LINES + 2 and lines[k] \
                and not _label_and_cells(lines[k])[1] and not re.search(r"\d", lines[k]):
            names_lines.append(lines[k])
            k += 1
        unit, names_text, _ = _unit_in(" ".join(names_lines))
        words = names_text.split()
        if not words or len(words) % groups or any(
                words[g * (len(words) // groups):(g + 1) * (len(words) // groups)] != words[:len(words) // groups]
                for g in range(1, groups)):
            continue
        group = " ".join(words[:len(words) // groups])
        rows: list[tuple[str, list[str], str]] = []
        bare = 0
        for line in lines[k:]:
            label, cells = _label_and_cells(line)
            if label and not cells and bare < 1 and not _YEARS_ONLY.match(line):
                bare += 1  # ('Net income attributable to non-' / 'controlling interests 10 10')
                continue
            if not label or not cells or _PERIOD_TITLES.search(line) or len(cells) > 3 * groups * 6:
                break
            bare = 0
            rows.append((label, cells, line))
        fullest = [len(cells) for _, cells, _ in rows if len(cells) % groups == 0]
        if not fullest:
            continue
        width = max(fullest) // groups
        names = _split_names(group, width, text, known) if width >= 2 else []
        if not names and width >= 2:
            # (the names not told apart are left unread: the first where a known name opens the group, 'Flexibles'
            # of 'Flexibles Rigid Packaging Other Total', and the total where it closes it)
            names = [""] * width
            names[0] = next((n for n in known if re.match(rf"(?i){re.escape(n)}\b", group)), "")
            names[-1] = "Total" if is_total(group.split()[-1]) else ""
        if len(names) != width or not any(names):
            continue
        periods = _periods_of([lines[i]] if titled else [lines[i - 1], lines[i]], groups)
        if len(periods) != groups:
            continue
        currency, scale = (unit.currency or "", unit.scale) if unit is not None else ("", None)
        title = _lead_in_above(lines, i - 1)
        for label, cells, raw in rows:
            if len(cells) != width * groups:
                continue
            for m, name in enumerate(names):
                if not name:
                    continue
                values = [None if _DASH.match(c) else _cell_value(c) for c in cells[m::width]]
                whole = is_total(name)
                out.append(StatementRow(line_item=label, values=values, periods=list(periods), unit=currency,
                                        scale=scale, raw=raw, title=title,
                                        columns=None if whole else [name] * groups))
    return out


def dayed_year_rows(text: str) -> list[StatementRow]:
    """A table whose column header gives days without years ('December 31 September 30 June 30 March 31') and
    whose years head blocks of rows, on the unit line or after a block's last value ('(in thousands …) 2015' /
    'Total revenues' / '$ 1,823,333 $ 1,738,355 …' / … / '0.10 0.07 0.06 0.05 2014'), as a 10-K's selected
    quarterly data is extracted: each row's columns are those days of its block's year, each the quarter that
    ends it where the title says the data is quarterly, else the day. A label on its own line is its values'."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    out: list[StatementRow] = []
    header = _day_header(lines)
    if header is None:
        return out
    head, days, quarterly = header
    title = next((line for line in reversed(lines[max(0, head - 3):head]) if re.search(r"[A-Za-z]{4}", line)), None)
    unit: _Unit | None = None
    year: int | None = None
    label = ""
    for line in lines[head + 1:]:
        trailing = re.search(rf"\s({YEAR})$", line) or re.fullmatch(rf"({YEAR})", line)
        body = line[:trailing.start()].strip() if trailing and trailing.start() else ("" if trailing else line)
        found, rest, _ = _unit_in(body) if body.startswith("(") else (None, body, False)
        unit = found or unit
        cells = [c for c in body.split() if not _CURRENCY_TOKEN.match(c)]
        if body and all(_VALUE.match(c) or _DASH.match(c) for c in cells) and len(cells) == len(days) and label \
                and year is not None:
            values = [None if _DASH.match(c) else _cell_value(c) for c in cells]
            periods = _quarters_of(days, year) if quarterly else [f"{year}-{m:02d}-{d:02d}" for m, d in days]
            out.append(StatementRow(line_item=label, values=values, periods=periods, title=title, raw=line,
                                    unit=(unit.currency or "") if unit else "", scale=unit.scale if unit else None))
            label = ""
        elif found is None and body and not re.search(r"\d", body):
            label = body.rstrip(":")
        if trailing:
            year = int(trailing.group(1))  # (the year that heads the rows after it)
    return out


def _day_header(lines: Sequence[str]) -> tuple[int, list[tuple[int, int]], bool] | None:
    """The first line of a column header of days without years ('December 31 September 30 June 30 March 31'):
    its index, its (month, day)s, and whether the title above it says the data is quarterly; None for none."""
    head = next((i for i, line in enumerate(lines) if _DAYS_ONLY.fullmatch(line)), None)
    if head is None:
        return None
    days = [(MONTHS[m.group(1).lower().rstrip(".")], int(m.group(2))) for m in _DAY.finditer(lines[head])]
    return head, days, any(re.search(r"(?i)\bquarter", line) for line in lines[max(0, head - 3):head])


def quarters_headed(text: str) -> str:
    """The quarters a quarterly table's day header names for each year the text states ('Selected Quarterly
    Financial Data' / 'December 31 September 30 June 30 March 31' / '… 2015' / … '2014': 'Q4 2015 Q3 2015 …
    Q1 2014'), as `dayed_year_rows` dates its rows; '' for a text with no such header."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    header = _day_header(lines)
    if header is None or not header[2]:
        return ""
    head, days, _ = header
    years = dict.fromkeys(int(y) for y in re.findall(rf"\b({YEAR})\b", "\n".join(lines[head:])))
    return " ".join(q for year in years for q in _quarters_of(days, year) if not q.startswith("3M"))


def _quarters_of(days: Sequence[tuple[int, int]], year: int) -> list[str]:
    """The quarters of a fiscal year its four quarter-end days name ('December 31 September 30 June 30 March 31'
    of 2015: Q4 … Q1 2015), the latest the fourth; days that are no four quarters three months apart are each the
    quarter that ends it ('3M 2015-12-31')."""
    last = max(m for m, _ in days) if days else 0
    back = [(last - m) % 12 for m, _ in days]
    if len(days) == 4 and sorted(back) == [0, 3, 6, 9]:
        return [f"Q{4 - b // 3} {year}" for b in back]
    return [f"3M {year}-{m:02d}-{d:02d}" for m, d in days]


_DAY = re.compile(rf"(?i)\b({MONTH})\s+(\d{{1,2}})\b")
_DAYS_ONLY = re.compile(rf"(?i)(?:{MONTH}\s+\d{{1,2}}\s*){{2,}}")


_PERIOD_TITLES = re.compile(r"(?i)\b(?:three|six|nine|twelve|3|6|9|12)\s+months\s+ended\s+[A-Z][a-z]+\s+\d{1,2},?\s+"
                            r"(?:19|20)\d{2}\b")
"""A period's whole title with its year ('Twelve Months Ended June 30, 2022'): two on one line head two groups."""


def _lead_in_above(lines: Sequence[str], at: int) -> str | None:
    """The sentence that leads into a table from just above its header (`at`, its first line): the nearest line
    ending in ':' within three lines, with the lines it goes on from ('The following tables disaggregate net sales
    … based on' / 'manufacturing or selling operations:')."""
    end = next((k for k in range(at, max(-1, at - 4), -1) if lines[k].endswith(":")), None)
    if end is None:
        return None
    start = end
    while start > max(0, end - 3) and lines[start - 1] and not lines[start - 1].endswith((".", ":")):
        start -= 1
    return " ".join(lines[start:end + 1])


def _periods_of(head: Sequence[str], count: int) -> list[str]:
    """The periods a statement header's lines give its `count` columns, as `read_statement` dates them: a title
    line ('Three Months Ended December 31,') over a line of years, or titles with their years on one line; the
    last line's own periods where the lines before it give none."""
    for lines in (list(head), list(head[-1:])):
        reader = _Reader()
        for line in [*lines, "Row " + " ".join("1" for _ in range(count))]:
            reader.feed(line)
        rows = [r for r in reader.finish().rows if r.periods]
        if rows and len(rows[0].periods) == count:
            return list(rows[0].periods)
    return []


def dated_column_rows(text: str, known: Sequence[str] = ()) -> list[StatementRow]:
    """A table of one year whose columns are segments, its period line first, then its unit and the columns'
    names, wrapped over lines ('Year Ended June 30, 2023' / '($ in millions) Flexibles' / 'Rigid' / 'Packaging
    Total'), then its rows ('North America $ 4,411 $ 2,745 $ 7,156', 'Europe (1) 3,952 — 3,952', 'Net sales
    $ 11,154 $ 3,540 $ 14,694'): each row with its `columns`, every period that year. The period may close the
    sentence that leads into the table ('… as follows (in thousands): Year Ended December 31, 2020'), a row's
    values may stand on the line under its label, and a heading may run on after the whole column's name ('Seller
    Total Revenue'). The names are split as the rows have values; a column is read only where every split that
    fits names it alike (`_agreed_names`: the 'Total' of 'Flexibles Rigid Packaging Total'). A note mark after a
    label ('(1)') is no value; rows with another number of values are not read."""
    lines = _values_under_labels([line.strip() for line in text.splitlines() if line.strip()])
    out: list[StatementRow] = []
    for i, line in enumerate(lines):
        period = _ONE_PERIOD.search(line)
        if not period:
            continue
        head: list[str] = []
        said = _unit_in(line[:period.start()])[0]  # ('… are as follows (in thousands): Year Ended …')
        if said is None and i and lines[i - 1].endswith(":"):
            said = _unit_in(lines[i - 1])[0]  # ('… were as follows (amounts in millions):' / 'Year Ended …')
        scale = said.scale if said is not None else None
        j = i + 1
        while j < len(lines) and len(head) < NAME_LINES and not _label_and_cells(lines[j])[1]:
            unit, rest, _ = _unit_in(lines[j])
            if unit is not None:
                scale = unit.scale
            rest = _NOTE_MARKS.sub(" ", rest).strip()  # ('Elimination of' / 'intersegment' / 'revenues (2)')
            if re.search(r"\d", rest) or len(rest) > 80 or rest.endswith(":"):
                break  # (a heading over the rows, 'Net revenues by geographic region:', names no column)
            head.append(rest)
            j += 1
        first = j
        rows: list[tuple[str, list[str]]] = []
        while j < len(lines) and not _ONE_PERIOD.search(lines[j]):
            label, cells = _label_and_cells(lines[j])
            if not cells and j + 1 < len(lines) and _label_and_cells(lines[j + 1])[1]:
                j += 1  # a heading over rows ('Revenue'), or a label pypdf broke off ('Subscription and services-bas')
                continue
            if not label or not cells:
                break
            rows.append((label, cells))
            j += 1
        if not head or len(rows) < 2:
            continue
        width = Counter(len(cells) for _, cells in rows).most_common(1)[0][0]
        page = text.replace(line, " ")
        for name_line in head:
            page = page.replace(name_line, " ")
        joined = " ".join(head)
        # 'Cash App Seller Total Revenue': the whole column closes the names, 'Revenue' heads the rows
        whole = _WHOLE_THEN_HEADING.match(joined)
        names = _agreed_names(whole.group("names") if whole else joined, width, page, known)
        if not names and len(pieces := _column_names(joined)) == width:
            names = dict(enumerate(pieces))  # as many names as values, each a column's
        if not names:
            continue
        currency = next((c for k in range(i + 1, first + 1) if k < len(lines)
                         and (c := _currency_in_tokens(lines[k].split()))), None) or ""
        kept = sorted(names)  # the columns whose names no reading of the header leaves in doubt
        for label, cells in rows:
            if len(cells) == width + 1 and _NOTE_CANDIDATE.match(cells[0]):
                cells = cells[1:]  # 'Europe (1) 3,952 — 3,952': the note mark is no value
            if len(cells) != width:
                continue
            percent = "%" in label or any(c.endswith("%") for c in cells)
            out.append(StatementRow(
                line_item=label, values=[None if _DASH.match(cells[k]) else _cell_value(cells[k]) for k in kept],
                periods=[f"FY{period.group('year')}"] * len(kept), unit="%" if percent else currency,
                scale=None if percent else scale, raw=f"{label} {' '.join(cells)}", columns=[names[k] for k in kept]))
    return out


NAME_LINES = 8
"""Lines a segment table's column names may be wrapped over under its period line ('Activision Blizzard King' /
'Non-reportable' / 'segments' / 'Elimination of' / 'intersegment' / 'revenues (2) Total')."""
_NOTE_MARKS = re.compile(r"\(\d{1,2}\)")


def stacked_column_rows(text: str) -> list[StatementRow]:
    """A table of one year whose columns are members, as PDF extraction writes it one cell a line: its period
    line ('Year ended December 31, 2022'), the members' names a line each ('Americas' / 'Asia Pacific' /
    'Europe, Middle East' / '& Africa' / 'Other Unallocated' / 'Worldwide'; a line that opens with '&' or a
    small letter, or follows one that ends with a comma, goes on with the name before it), then each row's label
    and its cells a line each ('Net sales (millions)' / '$' / '18,400' / '$' / '9,901' / …). A heading among
    the rows ('Components of net sales change:') heads no figure, and a row under a heading or with a label that
    names a change is of percentages, as a row whose cells carry '%' is. A row with a value for every name is
    read as it is; one a value short, only when exactly one name reconciles ('Other Unallocated', left blank in
    a change row) and is not the last: the gap is that column's. Each row with its `columns`, every period the
    year."""
    lines = [line.strip() for line in _LONE_PERCENT.sub(r"\1\2", text).splitlines() if line.strip()]
    out: list[StatementRow] = []
    for i, line in enumerate(lines):
        period = _ONE_PERIOD.search(line)
        if not period:
            continue
        names: list[str] = []
        j = i + 1
        while j < len(lines) and _STACKED_NAME.fullmatch(lines[j]) and not _is_cell_line(lines[j]):
            if names and (lines[j][:1] in "&(" or lines[j][:1].islower() or names[-1].endswith(",")):
                names[-1] = f"{names[-1]} {lines[j]}"
            else:
                names.append(lines[j])
            j += 1
        if len(names) < 3 or j >= len(lines) or not _is_cell_line(lines[j]):
            continue
        label: str | None = names.pop()  # the line right above the first cells is the first row's label
        out.extend(_stacked_rows(names, label, lines, j, f"FY{period.group('year')}"))
    return out


_STACKED_NAME = re.compile(r"[A-Za-z&(][^\d:]{0,38}")
"""A member's name, or a piece of one, on a line of its own: no digit, no colon, at most 39 characters."""
_STACKED_CHANGE = re.compile(r"(?i)\b(?:change|growth)\b")


def _is_cell_line(line: str) -> bool:
    """A line of cells alone: values, dashes, currency signs, per cent signs."""
    tokens = line.split()
    return bool(tokens) and all(_VALUE.match(t) or _DASH.match(t) or _CURRENCY_TOKEN.match(t) or t == "%"
                                for t in tokens)


def _stacked_rows(names: list[str], label: str | None, lines: Sequence[str], start: int, period: str
                  ) -> list[StatementRow]:
    """The rows of a `stacked_column_rows` table from its first cells at `start` on, up to the next period line,
    a sentence or the end."""
    out: list[StatementRow] = []
    heading, currency, scale = "", "", None
    tokens: list[str] = []

    def flush() -> None:
        nonlocal currency, scale
        if not label or not tokens:
            return
        cells = [t for t in tokens if not _CURRENCY_TOKEN.match(t) and t != "%"]
        marked = [t for k, t in enumerate(tokens)
                  if _VALUE.match(t) and (t.endswith("%") or tokens[k + 1:k + 2] == ["%"])]
        if len(marked) == len(cells) - 1 > 1 and tokens[-1] == cells[-1] and not cells[-1].endswith("%"):
            cells.pop()  # '9.9' / '%' / '25': after a row of shares, a bare number is the page's
        values: list[float | None] = [None if _DASH.match(c) else _cell_value(c) for c in cells]
        if len(values) == len(names) - 1 and (gap := _reconciling_column(names)) is not None:
            values = [*values[:gap], None, *values[gap:]]
        if len(values) != len(names):
            return
        unit, rest, _ = _unit_in(label)
        item = _BRACKETS.sub("", rest).strip() if unit is not None else label
        percent = ("%" in tokens or any(t.endswith("%") for t in tokens) or _PERCENT_LABEL.search(label)
                   or bool(_STACKED_CHANGE.search(f"{heading} {label}")))
        said = _currency_in_tokens(tokens) or (unit.currency if unit is not None else None)
        if not percent:
            currency = said or currency
            scale = unit.scale if unit is not None else scale
        out.append(StatementRow(
            line_item=item, values=values, periods=[period] * len(values), unit="%" if percent else currency,
            scale=None if percent else scale, raw=f"{label} {' '.join(tokens)}", columns=list(names)))

    for line in lines[start:]:
        if _is_cell_line(line):
            tokens.extend(line.split())
            continue
        flush()
        if _ONE_PERIOD.search(line) or len(line) > 80 or line.endswith("."):
            break
        if line.endswith(":"):
            heading, label = line, None
        elif label and not tokens and (line[:1].islower() or line[:1] == "("):
            label = f"{label} {line}"  # a label that wraps ('Net costs for significant' / 'litigation')
        else:
            label = line
        tokens = []
    flush()
    return out


_ONE_PERIOD = re.compile(r"(?i)(?:^|:\s*)(?:(?:fiscal\s+)?years?|(?:52|53)\s+weeks)\s+ended\s+[A-Z][a-z]+\.?\s+"
                         r"\d{1,2},?\s+"
                         r"(?P<year>(?:19|20)\d{2})$")
"""A line that is one year's period, alone or closing the sentence that leads into its table."""
_WHOLE_THEN_HEADING = re.compile(r"(?i)^(?P<names>.+?\b(?:total|consolidated|group))\s+[A-Z]\S*(?:\s+\S+){0,2}$")


def _values_under_labels(lines: list[str]) -> list[str]:
    """Lines with a label whose values stand alone on the next line ('Segment gross profit' / '$ 1,225,578
    $ 1,507,831 $ 2,733,409') joined into one."""
    out: list[str] = []
    for line in lines:
        label, cells = _label_and_cells(line)
        if out and cells and not label and not _label_and_cells(out[-1])[1] and not _ONE_PERIOD.search(out[-1]) \
                and not re.search(r"\d", out[-1]):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return out


_NAME_LINE = re.compile(r"[A-Z][A-Za-z&'’./-]*(?:\s+[A-Za-z&'’./-]+){0,4}")
"""A line of a header whose column names wrap ('United States' / 'Operations' / 'Canadian' / 'Operations')."""


def _wrapped_head(lines: Sequence[str], i: int) -> tuple[str, int] | None:
    """A segment table's names wrapped over lines of their own, right above its first year line ('United States',
    'Operations', 'Canadian', 'Operations', 'Other', 'International', 'Operations Total', '2021'): the names
    as one line and the index of the line before the year; None unless line `i` starts such a run of two lines or
    more."""
    if i and _NAME_LINE.fullmatch(lines[i - 1]):
        return None  # the run starts earlier
    k = i
    while k < len(lines) and _NAME_LINE.fullmatch(lines[k]):
        k += 1
    if k - i < 2 or k >= len(lines) or not _YEAR_LINE.match(lines[k]):
        return None
    return " ".join(lines[i:k]), k - 1


def _split_at_repeated_word(text: str, width: int) -> list[str]:
    """Names that each end with one word ('United States Operations Canadian Operations Other International
    Operations Total'): as many as the rows have values, the last a total when the word ends one name fewer;
    [] when no word ends them so."""
    words = text.split()
    for word in dict.fromkeys(w for w in words[1:] if w[:1].isupper()):
        ends = [k for k, w in enumerate(words) if w == word]
        if len(ends) < 2 or ends[0] == 0 or len(ends) not in (width, width - 1):
            continue
        names = [" ".join(words[a + 1:b + 1]) for a, b in zip([-1, *ends], ends)]
        rest = " ".join(words[ends[-1] + 1:])
        if len(ends) == width and not rest:
            return names
        if len(ends) == width - 1 and rest and is_whole(rest):
            return [*names, rest]
    return []


def _split_names(text: str, width: int, page: str, known: Sequence[str] = ()) -> list[str]:
    """`text`'s capitalised words as `width` names, when exactly one split fits: a name the page writes
    elsewhere ('Mobility Solutions' heading a paragraph) or `known` names is never cut, and a reconciling or
    group column ('Corporate/consolidation', 'Group') is a name of its own. 'Industrial Drives Mobility
    Solutions Service Corporate/ consolidation Group' over rows of five values is five names once 'Mobility
    Solutions' is known; with nothing known it is no split at all ([])."""
    splits = _name_splits(text, width, page, known, 2)
    return splits[0] if len(splits) == 1 else []


def _agreed_names(text: str, width: int, page: str, known: Sequence[str] = ()) -> dict[int, str]:
    """The columns every split of `_split_names` names alike, by position: 'Flexibles Rigid Packaging Total'
    over three values is 'Flexibles' / 'Rigid Packaging' / 'Total' or 'Flexibles Rigid' / 'Packaging' /
    'Total', so only the third column, 'Total', is named."""
    splits = _name_splits(text, width, page, known, SPLITS_COMPARED)
    if not splits or len(splits) >= SPLITS_COMPARED:
        return {}
    return {k: name for k, name in enumerate(splits[0]) if all(split[k] == name for split in splits)}


SPLITS_COMPARED = 12
"""At most this many splits of a header's names are compared (`_agreed_names`); more say nothing."""


def _name_splits(text: str, width: int, page: str, known: Sequence[str], limit: int) -> list[list[str]]:
    """Up to `limit` ways to read `text`'s capitalised words as `width` names (see `_split_names`)."""
    pieces = _column_names(text) if width >= MIN_SEGMENT_COLUMNS else []
    if not pieces or len(pieces) <= width:
        return []  # as many names as values: the line reader gives each its column (_finish_row)
    folded, named = " ".join(page.split()).casefold(), {k.casefold() for k in known}
    runs = {(a, b) for a in range(len(pieces)) for b in range(a + 2, min(a + 4, len(pieces)) + 1)
            if " ".join(pieces[a:b]).casefold() in named
            or re.search(rf"(?<!\w){re.escape(' '.join(pieces[a:b]).casefold())}(?!\w)", folded)}
    alone = {k for k, piece in enumerate(pieces) if is_total(piece)}
    # a place's name ('EMEA', 'APAC') is a column of its own, or part of a longer place's ('Latin America')
    placed = {k for k, piece in enumerate(pieces) if _PLACE.fullmatch(piece)}
    splits: list[list[str]] = []

    def cuts(start: int, end: int) -> bool:  # the name cuts a known run, or holds one and more besides
        return any(a < end < b or a < start < b or (start <= a and b <= end and (a, b) != (start, end))
                   for a, b in runs)

    def walk(start: int, names: list[str]) -> None:
        if len(splits) >= limit or len(names) > width:
            return
        if start == len(pieces):
            if len(names) == width:
                splits.append(names)
            return
        for end in range(start + 1, len(pieces) + 1):
            if end - start > 1 and alone & set(range(start, end)) and not (
                    end - start == 2 and pieces[start].casefold() == "other"):  # ('Other Unallocated')
                break
            if end - start > 1 and placed & set(range(start, end)) and not _PLACE.fullmatch(
                    " ".join(pieces[start:end])):
                continue
            if not cuts(start, end):
                walk(end, [*names, " ".join(pieces[start:end])])

    walk(0, [])
    return splits


def _with_reconciling_gap(values: list[float | None], names: list[str]) -> list[float | None]:
    """A row a value short of the names, its gap in the one reconciling column ('Corporate/consolidation', left
    blank for order intake), when the other segments add up to the group's value in the last column."""
    gap = _reconciling_column(names)
    if gap is None or not is_whole(names[-1]) or any(v is None for v in values):
        return values
    *parts, whole = values
    if abs(sum(parts) - whole) > 0.0015 * abs(whole) + 0.15:  # type: ignore[arg-type]
        return values
    return [*values[:gap], None, *values[gap:]]


def _reconciling_column(names: Sequence[str]) -> int | None:
    """The one column before the last that reconciles the members to the whole ('Corporate/consolidation',
    'Other Unallocated'), or None when there is none or more than one."""
    gaps = [k for k, name in enumerate(names[:-1]) if is_total(name) and not is_whole(name)]
    return gaps[0] if len(gaps) == 1 else None


AS_FILED = "as filed"
"""The period of a table that names none (a 10-K's properties by area): the filing's own, as of its year end."""
_MEMBERS_HEAD = re.compile(r"^(?P<kind>(?:Geographic(?:al)?\s+)?(?:Areas?|Regions?|Segments?|Countries|Country|"
                           r"Locations?|Divisions?|Markets?|Business(?:es)?))\s+(?P<first>[A-Z][^\d]{2,60})$")
NUMBER_OF = re.compile(r"(?i)^number\s+of\s+(?P<noun>[a-z][\w-]*)$")
"""A column or row that counts a thing ('Number of Facilities'), its noun the thing counted."""
_COUNTED_COLUMN = re.compile(r"(?i)^(?:number\s+of\b|square\s+(?:feet|foot|metres|meters)\b|floor\s+(?:space|area)\b|"
                             r"headcount\b|stores\b|sites\b|facilities\b)")
"""A column's name that is a measure though no money word says so ('Number of Facilities', 'Square Feet')."""


_SPAN_GROUPS = re.compile(r"(?i)^(?P<quarter>first|second|third|fourth)\s+quarter"
                          r"(?:\s+(?P<months>six|nine|twelve)\s+months|\s+(?P<year>full\s+year))?\s*$")
_SPLIT_YEARS = re.compile(rf"\b({YEAR})\s+({YEAR})\s+Reported\b", re.IGNORECASE)
_REGION_ROW = re.compile(r"(?i)^(?P<region>WW|Worldwide|US|U\.S\.|Intl|International|US\s+Exports(?:\s*\(\d+\))?)"
                         r"\s+(?:(?:-?[\d,]+(?:\.\d+)?%?|-|—|\*)(?:\s+|$))+$")
_SPLIT_HEADING = re.compile(r"^(?=[^a-z]*[A-Z]{3})[A-Z][A-Z0-9&/,.'’\- ]{1,60}?(?:\s*\(\d+(?:,\d+)*\))?$")
_BARE_YEARS = re.compile(rf"^({YEAR})\s+({YEAR})$")
"""A split schedule's years line that chunking cut short of its change columns ('2023 2022')."""
_ORDINAL_QUARTER = {"first": 1, "second": 2, "third": 3, "fourth": 4}


def _split_years(lines: Sequence[str]) -> list[tuple[str, str]]:
    """The (current, before) years of a split schedule's header line, each span's pair; a bare line of two years
    (the rest of the header cut off with the chunk before) gives the one pair every span repeats."""
    found = next((_SPLIT_YEARS.findall(line) for line in lines if _SPLIT_YEARS.search(line)), [])
    return found or next(([m.groups()] for line in lines if (m := _BARE_YEARS.match(line))), [])
_MONTHS_PART = {"six": "H1 {y}", "nine": "9M {y}", "twelve": "FY{y}"}


def heads_regional_split(text: str) -> bool:
    """Whether the text holds the header of a `regional_split_rows` schedule: its spans and its years with their
    change columns ('SECOND QUARTER SIX MONTHS' / '… 2023 2022 Reported Operational (1) Currency …')."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return any(_SPAN_GROUPS.match(line) for line in lines) and bool(_split_years(lines))


def continues_regional_split(head: str, rows: str) -> bool:
    """Whether `rows` goes on with the `regional_split_rows` schedule `head` heads: chunking cut it after the
    header, and the rows' chunk has region rows ('WW 462 647 …') and no years of its own."""
    return heads_regional_split(head) and not heads_regional_split(rows) and any(
        _REGION_ROW.match(" ".join(line.split()).replace("$", " ")) for line in rows.splitlines())


def regional_split_rows(text: str) -> list[StatementRow]:
    """A sales schedule that splits each product or franchise by where it sells, one heading a line and its
    regions below it ('REMICADE' / 'US 277 391 -29.3% …' / 'Intl 152 212 …' / 'WW 462 647 -28.6% -27.6% -1.0% 949
    1,310 …'), under a header of spans ('SECOND QUARTER SIX MONTHS') and years with their change columns ('2023
    2022 Reported Operational (1) Currency 2023 2022 …'): each heading's worldwide row is a row of its own, named by
    the heading ('REMICADE' 462 and 647 in Q2 2023 and Q2 2022, 949 and 1,310 in H1 2023 and H1 2022), its change
    columns left out (the change is computed from the levels). Read only with the header's spans and years."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    spans = next((m for line in lines if (m := _SPAN_GROUPS.match(line))), None)
    years = _split_years(lines)
    if spans is None or not years:
        return []
    quarter = _ORDINAL_QUARTER[spans.group("quarter").lower()]
    groups = [f"Q{quarter} {{y}}"] + ([_MONTHS_PART[spans.group("months").lower()]] if spans.group("months") else
                                      ["FY{y}"] if spans.group("year") else [])
    if len(years) < len(groups) and not any(_BARE_YEARS.match(line) for line in lines):
        return []
    current, before = years[0]
    periods = [form.format(y=y) for form in groups for y in (current, before)]
    scale = _declared_scale(text) or ("millions" if re.search(r"\(\$\s*MM\)", text) else None)
    title = next((line for line in lines if re.search(r"(?i)\bsales\b", line) and not _REGION_ROW.match(line)), None)
    out: list[StatementRow] = []
    heading = None
    for line in lines:
        cleaned = line.replace("$ ", "$").replace("$", " ").strip()  # ('2,865$ 2,853': the marks PDF moved)
        row = _REGION_ROW.match(cleaned)
        if row is None:
            bare = re.sub(r"\s*\(\d+(?:,\d+)*\)$", "", line)
            heading = bare if _SPLIT_HEADING.match(line) and not _SPAN_GROUPS.match(line) \
                and not _SPLIT_YEARS.search(line) and not re.search(r"(?i)\bsales\b", line) else None
            continue
        if heading is None or row.group("region").upper() not in ("WW", "WORLDWIDE"):
            continue
        cells = [None if c in ("-", "—", "*") else float(c.rstrip("%").replace(",", ""))
                 for c in cleaned[row.end("region"):].split()]
        per_group = len(cells) // len(groups) if len(cells) % len(groups) == 0 else 0
        if per_group < 2:
            continue
        values = [cells[g * per_group + k] for g in range(len(groups)) for k in (0, 1)]
        out.append(StatementRow(line_item=heading, values=values, periods=periods, unit="$", scale=scale,
                                raw=line, title=title))
    return out


def undated_column_rows(text: str) -> list[StatementRow]:
    """A table whose header names what its rows are and its columns' measures, with no period ('Geographic Area
    Number of Facilities' / 'Square Feet' / '(in thousands)' over 'United States 28 4,169'): each column a measure
    of each row (line_item the measure, columns the row's name), of the period the filing covers (AS_FILED). A
    'Number of …' column takes the words the sentence that leads into the table gives its noun ('the manufacturing
    facilities by major geographic areas … are as follows:': 'Number of manufacturing facilities'). Read only
    when at least two rows have a value for every column."""
    lines = [line.strip() for line in text.splitlines()]
    out: list[StatementRow] = []
    for i, line in enumerate(lines):
        head = _MEMBERS_HEAD.match(line)
        if head is None or any(re.search(YEAR, x) for x in lines[max(0, i - 3):i]):
            continue  # (a year above the header dates the table: another reader's)
        names: list[str] = [head.group("first").strip()]
        scales: list[str | None] = [None]
        k = i + 1
        while k < len(lines) and k <= i + 4:
            unit, rest, _ = _unit_in(lines[k]) if lines[k] else (None, "", False)
            if unit is not None and not rest.strip("() "):
                scales[-1] = unit.scale  # 'Square Feet' / '(in thousands)'
            elif lines[k] and len(lines[k]) <= 40 and not re.search(r"\d", lines[k]) and lines[k][:1].isupper():
                names.append(lines[k])
                scales.append(None)
            else:
                break
            k += 1
        if not all(_MEASURE_NAME.search(n) or _COUNTED_COLUMN.match(n) for n in names):
            continue  # ('Segment Results of Operations' / 'Flexibles Segment': a heading, no measures' names)
        rows = []
        while k < len(lines):
            label, cells = _label_and_cells(lines[k])
            if not label or len(cells) != len(names) or re.search(r"\d", label) \
                    or any(_LONE_YEAR.match(c) for c in cells):
                break
            rows.append((label, cells, lines[k]))
            k += 1
        if len(rows) < 2:
            continue
        lead = next((x for x in reversed(lines[max(0, i - 3):i]) if x), "")
        measures = [_counted_in(name, lead if lead.endswith(":") else "") for name in names]
        for label, cells, raw in rows:
            for measure, scale, cell in zip(measures, scales, cells):
                out.append(StatementRow(line_item=measure, values=[None if _DASH.match(cell) else _cell_value(cell)],
                                        periods=[AS_FILED], unit="", scale=scale, raw=raw, columns=[label]))
    return out


_BY_MEMBER_TITLE = re.compile(r"(?i)^(?P<measure>[A-Z][A-Za-z /&()-]{2,50}?)\s+by\s+(?:divisions?|segments?|regions?|"
                              r"business(?:es)?|operating\s+units?)\s*$")
_MEASURE_LINE = re.compile(r"^[A-Z][A-Za-z /&()-]{2,40}$")
_COMPARABILITY = re.compile(r"(?i)\bitems\b|\bcomparability\b|\bimpact\b|\bcharges?\b")
_REPORTED_COLUMN = re.compile(r"(?i)^(?:reported|as\s+reported)\b")
_REPORTED_LINE = re.compile(r"(?im)^[ \t]*(?:reported|as\s+reported)\b")
"""`_REPORTED_COLUMN` on a line of a whole text (the lines are read stripped)."""
_ADJUSTED_COLUMN = re.compile(r"(?i)^(?P<basis>core|adjusted|underlying|comparable)\b")


def reconciled_rows(text: str) -> list[StatementRow]:
    """A reconciliation of a measure by member from its reported (GAAP) figure to the company's adjusted one
    ('Operating Profit by Division' / '12 Weeks Ended 3/25/2023' / 'Reported, GAAP Measure' / 'Mark-to-market …' /
    … / 'Core, Non-GAAP Measure(a)' over 'PepsiCo Beverages North America 483 — 5 2 — 490'): each member's first
    value is the reported measure and its last the adjusted one, of the period the block's own line names. Rows:
    the measure (reported, or named by its basis: 'Core operating profit'), one value each, the member as their
    column. Read only where the header's first column is the reported one and its last the adjusted one."""
    if not _REPORTED_LINE.search(text):
        return []  # (no line opens a reported column: read_statement reads every text, most have none)
    lines = [line.strip() for line in text.splitlines()]
    title = None
    out: list[StatementRow] = []
    unit = ""
    scale = _declared_scale(text)
    for i, line in enumerate(lines):
        if named := _BY_MEMBER_TITLE.match(line):
            title = named.group("measure").strip()
        if not re.search(r"\d", line) or _label_and_cells(line)[1]:
            continue
        periods = read_statement_periods(line)
        if len(periods) != 1:
            continue
        # the header: the lines up to the first row; the columns' names start 'Reported …' and end 'Core …'
        k, header = i + 1, []
        while k < len(lines) and k <= i + 30 and not _label_and_cells(lines[k])[1]:
            header.append(lines[k])
            k += 1
        starts = [n for n, h in enumerate(header) if _REPORTED_COLUMN.match(h)]
        ends = [n for n, h in enumerate(header) if _ADJUSTED_COLUMN.match(h)]
        if not starts or not ends or ends[-1] <= starts[0]:
            continue
        # the measure: the table's title ('Operating Profit by Division'), else the header's line over its
        # reported column ('Items Affecting Comparability' / 'Operating Profit' / 'Reported, …')
        above = header[starts[0] - 1] if starts[0] else ""
        named = title or (above if _MEASURE_LINE.match(above) and not _COMPARABILITY.search(above) else None)
        if named is None:
            continue
        basis = _ADJUSTED_COLUMN.match(header[ends[-1]]).group("basis").capitalize()
        measure = named[:1].upper() + named[1:].lower()
        while k < len(lines):
            label, cells = _label_and_cells(lines[k])
            if not label or len(cells) < 3 or re.search(r"\d", label):
                break
            unit = "$" if "$" in lines[k] else unit
            for name, cell in ((f"Reported {measure.lower()}", cells[0]), (f"{basis} {measure.lower()}", cells[-1])):
                value = None if _DASH.match(cell) else _cell_value(cell)
                if value is not None:
                    out.append(StatementRow(line_item=name, values=[value], periods=list(periods), unit=unit,
                                            scale=scale, raw=lines[k], title=named,
                                            columns=[label]))
            k += 1
    return out


def read_statement_periods(line: str) -> list[str]:
    """The periods a lone header line names ('12 Weeks Ended 3/25/2023' -> ['3M 2023-03-25'])."""
    reader = _Reader()
    reader.feed(line)
    return list(reader.finish().periods)


def _declared_scale(text: str) -> str | None:
    """The scale the text's first unit line declares ('(in millions, unaudited)' -> 'millions')."""
    for line in text.splitlines():
        unit, _, _ = _unit_in(line.strip()) if line.strip() else (None, "", False)
        if unit is not None:
            return unit.scale
    return None


def _counted_in(name: str, lead: str) -> str:
    """'Number of Facilities' as the lead-in sentence names its noun: 'Number of manufacturing facilities'."""
    number = NUMBER_OF.match(name)
    if number is None or not lead:
        return name
    noun = number.group("noun").lower()
    said = re.search(rf"(?i)\b((?:(?!(?:the|of|our|its|their|by|and|a|an)\b)[a-z][\w-]*\s+){{0,2}}){noun}\b", lead)
    return f"Number of {said.group(1)}{noun}" if said and said.group(1) else name


def _label_and_cells(line: str) -> tuple[str, list[str]]:
    """A row line's label and the value or dash tokens that end it ('Central costs — — (21.7) (20.4)')."""
    tokens = line.split()
    cells: list[str] = []
    while tokens and (_VALUE.match(tokens[-1]) or _DASH.match(tokens[-1])
                      or (cells and _CURRENCY_TOKEN.match(tokens[-1]))):
        token = tokens.pop()
        if not _CURRENCY_TOKEN.match(token):
            cells.insert(0, token)  # a '$' standing before a value ('Total revenue $ 141,398 $ 27,298') is none
    return " ".join(tokens), cells


def _cell_value(cell: str) -> float | None:
    match = _VALUE.match(cell)
    return _number(match, False, note=False).value if match else None


@dataclass(frozen=True)
class _Unit:
    """A declared unit: its scale name, its currency (None when it names none), and whether share counts are
    scaled and which row words it excepts ('except churn and ARPU')."""

    scale: str
    currency: str | None
    shares_scaled: bool = True
    excepted: frozenset[frozenset[str]] = frozenset()


@dataclass
class _OpenRow:
    label: str
    tokens: list[str] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    periods: list[str] = field(default_factory=list)
    section: int = 0  # the unit declaration in force (see _Reader.units); -1 before the page's first
    table: int = 0  # the header the row stands under (0: none)
    title: str | None = None
    note_column: bool = False  # its header has a 'Note' column: a note reference may stand before the values
    names: list[str] | None = None  # its header's column names, when the columns are segments under a year
    declared: _Unit | None = None  # a unit declared on the row's own line


@dataclass
class _Header:
    columns: list[str] = field(default_factory=list)
    durations: list[str] = field(default_factory=list)
    duration_lines: list[int] = field(default_factory=list)  # the header line each duration was read from
    monthday: tuple[int, int] | None = None
    monthdays: list[tuple[int, int]] = field(default_factory=list)  # 'January 28,' / 'January 29,' then the years
    dated_by_monthdays: int = 0  # years given a day from `monthdays` so far
    last_kind: str = ""  # the kind of the item read last
    parts: list[str] = field(default_factory=list)  # 'Q4' under 'Fourth Quarter', 'H1' under 'First half'
    groups: list[str] = field(default_factory=list)  # parts and durations in the order read ('Q1 Q2 SIX MONTHS')
    annual: bool = False
    kinds: list[str] = field(default_factory=list)  # how each column was written: 'date', 'year', 'fiscal', ...
    lines: list[int] = field(default_factory=list)  # the header line each column was read from
    line: int = 0
    dating_lines: set[int] = field(default_factory=set)  # lines that date the statement: 'As at 31 March 2025'
    versus: bool = False  # the line before ended 'Fiscal 2020 vs.': the next column is what it is compared with
    note: bool = False
    title: str | None = None
    names: str | None = None  # the label line just above a header, which may name segment columns
    context_durations: list[str] = field(default_factory=list)  # from the lines before a 'Note' column


@dataclass(frozen=True)
class _HeaderLine:
    """A line read as (part of) a header: its period text, the column units it declared ('£m'), whether it
    names a 'Note' column, and its title when it is a titled header ('Iron Ore FY2024 FY2023'). `text` is None
    when only leading column units were taken off a row's label ('£m Revenue'): `rest` is then the row."""

    text: str | None
    units: tuple[UnitDeclaration, ...] = ()
    note: bool = False
    title: str | None = None
    rest: str = ""
    changes: int = 0  # change columns named after the line's periods ('2023 2022 Reported Operational Currency')


MISREAD_OVERFLOWS = 2
"""Labelled rows of a one-column table that run on with more values, from which on its header is taken as
misread (see _Reader.finish)."""


@dataclass
class _Reader:
    """The line-by-line state of `read_statement`: the header being read, the row being read, and the rows
    read so far (finished once the whole page, and so its currency, is known)."""

    units: list[_Unit] = field(default_factory=list)  # the page's unit declarations, in order, each kept once
    first_declared: _Unit | None = None  # the page's first, a row's own included: the Statement's unit
    first_table: int = 0  # the first table the page's first declaration reaches
    table: int = 0
    seen_currency: str | None = None
    header: _Header | None = None
    periods: list[str] = field(default_factory=list)
    first_periods: list[str] | None = None
    note_column: bool = False
    names: list[str] | None = None
    title: str | None = None
    titles: list[str] = field(default_factory=list)  # heading lines since the last row with values
    heading: str = ""
    block_heading: str | None = None  # the heading the rows of `block` stand under, for an unlabelled subtotal
    block: list[_OpenRow] = field(default_factory=list)
    note_pending: bool = False
    row: _OpenRow | None = None
    rows: list[_OpenRow] = field(default_factory=list)
    overflows: dict[int, int] = field(default_factory=dict)  # per table: labelled rows with values beyond a full row
    shares_pending: bool = False  # '(Percent of net sales)' read: the next table's figures are shares of sales
    lead_in: str | None = None  # prose read since the last row with values: its last sentence, when it leads in ':'
    prose: bool = False  # prose (no heading) read since the last row with values
    share_tables: set[int] = field(default_factory=set)  # tables whose every figure is a percent of sales
    except_open: bool = False  # a unit line ended inside its 'except …' ('(in millions, except'): the next closes it

    def feed(self, line: str) -> None:
        text = _unglued(line.strip())
        if not text or text.startswith("|"):
            return
        if self.except_open and self.units and (closed := re.match(r"^([^()\d]{1,80}?)\)\s*", text)):
            # '(in millions, except' / 'headcount) 2021 2020 Change': the note's exception ends on this line
            unit = self.units[-1]
            self.units[-1] = replace(unit, excepted=unit.excepted | _excepted(closed.group(1)))
            if self.first_declared == unit:
                self.first_declared = self.units[-1]
            text = text[closed.end():]
        self.except_open = False
        if not text:
            return
        if (lead := _LEAD_IN_UNIT.search(text)) and lead.start() > 20 and (said := _unit_in(lead.group(0))[0]):
            self._declare(said)  # '… on a sequential quarterly basis (amounts in millions):': the table's unit
        declared, rest, opens = _unit_in(text)
        if declared and rest == "(":
            rest = ""  # '(in millions, except': the unit line whose note the next line closes
        if not rest or _NOTE_WORD.match(rest):
            if declared:
                self._declare(declared)
                self.except_open = bool(re.search(r"(?i)\bexcept\b[^()]*$", text))
            if rest and self.header is not None:
                self._read_header(_HeaderLine("", note=True))
            elif rest:
                self.note_pending = True  # 'Note' on a line of its own heads a header's first column
            return
        if declares_shares(rest):
            self.shares_pending = True  # '(Percent of net sales)' above or within a header: no row, no column
            return
        head = _header_line(rest, continuing=self.header is not None)
        if head is not None:
            if head.text is not None:
                self._read_header(head)  # first: a unit on a header's line is its table's, not the one above's
            for unit in ([declared] if declared else []) + [_unit_of(u) for u in head.units]:
                self._declare(unit, header_line=head.text is not None)
            if head.text is not None:
                return
            rest, declared = head.rest, None  # '£m Revenue': the column unit under a header, then a row
        if declared and opens:  # '(in thousands) Revenues $ 6,779,511': the line opens with the table's unit
            self._declare(declared)
            declared = None
        if self.header is not None:  # '2019 2018 Cash flows from operating activities:' ends a header
            years, rest = _leading_years(rest)
            if years:
                self._read_header(_HeaderLine(years))
        headed = self.header is not None
        self._close_header()
        self.note_pending = False
        if headed and len(self.periods) == 1 and not _DIGITS.search(rest) and not _TITLE_WORDS.search(rest) \
                and (names := _column_names(rest)):
            # 'Year Ended December 31, 2019' / 'Activision Blizzard King Total': one period, then the segments
            # that are its columns, as a names line above a lone year is
            self.names = names
            return
        for position, piece in enumerate(_pieces(rest)):
            label, tokens = _split_row(piece)
            if label:
                self._start_row(label, tokens, piece, declared if position == 0 else None)
            else:
                if declared and position == 0:
                    self._declare(declared)
                self._add_values(tokens, piece)

    def finish(self) -> Statement:
        self._close_header()
        self._close_row()
        first = self.first_declared
        for row in self.rows:
            if row.periods and len(row.periods) == 1 and self.overflows.get(row.table, 0) >= MISREAD_OVERFLOWS:
                # one column read, and row after row more values than it: the header held more columns than were
                # read ('First / Second / Third / Fourth / Year' over '2018', one word a line), so no row is dated
                row.periods = []
        # a table whose rows give each period's amount with its share beside it ('$ 10,750.5 61% $ 9,925.2 59%'):
        # its rows that write the share without the sign ('1,838.9 10 1,886.7 11') are read the same way
        shared = {r.table for r in self.rows if r.table and _shares_beside(_values(r.tokens), r.periods)}
        rows = [_finish_row(r, self._unit(r), r.table in shared) for r in self.rows]
        rows = [replace(row, unit="%", scale=None) if r.table in self.share_tables else row
                for r, row in zip(self.rows, rows)]
        return Statement(periods=self.first_periods or [], scale=first.scale if first else None,
                         currency=(first.currency if first else None) or self.seen_currency, rows=rows)

    # --- units

    def _declare(self, unit: _Unit, *, header_line: bool = False) -> None:
        """A unit declared from here on. The page's first is also that of the rows above it (a unit line may come
        anywhere on the page), unless a header's line declares it ('Segment EBITDA (A$m) FY2025 FY2024'): then
        it is only its table's."""
        self.first_declared = self.first_declared or unit
        if not self.units:
            self.first_table = self.table + 1 if header_line else 0
        if not self.units or self.units[-1] != unit:
            self.units.append(unit)

    def _section(self) -> int:
        return len(self.units) - 1

    def _unit(self, row: _OpenRow) -> tuple[str | None, _Unit | None]:
        """The currency and declared unit a row is read in: the unit declared on its own line, else the one in
        force where it stands (rows above the page's first declaration are read in it, as far as it reaches: see
        _declare). The page's first declaration that names no currency takes the first one seen on the page ('$
        2,418'), as a single table does; a later one takes the row's own ('$ 55.55'), if any."""
        own = _currency_in_tokens(row.tokens)
        unit = None
        if self.units and (row.section >= 0 or row.table >= self.first_table):
            unit = self.units[max(row.section, 0)]  # above the first unit line: in it if in its table
        fallback = (unit.currency if unit else None) or (self.seen_currency if row.section <= 0 else own)
        if row.declared is not None:
            return row.declared.currency or fallback, row.declared
        return fallback, unit

    # --- headers

    def _read_header(self, head: _HeaderLine) -> None:
        groups: list[str] = []
        if head.title is not None:
            if self.header is not None and not self.header.columns:
                groups = self.header.parts  # 'Q4  Full Year' above 'Non-GAAP* 2022 2021 % Change 2022 …'
            self._close_header()  # a titled header starts a table of its own
        if self.header is None:
            self._footnoted_heading()
            names = self.row.label if self.row is not None and not _values(self.row.tokens) else None
            self._close_row()
            self.header = _Header(title=head.title, names=names, note=self.note_pending)
            self.header.parts = list(groups)
        else:
            self._close_row()
        header = self.header
        header.line += 1
        if _DATING.search(head.text or ""):
            header.dating_lines.add(header.line)
        if head.note:
            header.note = True
            if header.columns:  # 'For the 52 weeks ended 29 March 2025' above 'Note 52 weeks ...': only dating
                header.context_durations += header.durations
                header.columns, header.kinds, header.lines, header.durations, header.parts = [], [], [], [], []
                header.duration_lines = []
        text = head.text or ""
        brackets = [m.span() for m in _BRACKETS.finditer(text)]
        restated, last_end = False, None
        for match in _PERIOD_ITEMS.finditer(text):
            inside = any(start <= match.start() and match.end() <= end for start, end in brackets)
            before = len(header.columns)
            _add_period_item(header, match)
            if len(header.columns) == before + 1 and (header.versus or last_end is not None
                                                      and _VERSUS.fullmatch(text[last_end:match.start()])):
                # 'Fiscal 2020 vs. Fiscal 2019': one column, the change between them
                del header.columns[-2:], header.kinds[-2:], header.lines[-2:]
                _add_column(header, "change", "change")
                header.versus = False
            elif inside and match.lastgroup == "date" and len(header.columns) == before + 1 and before and not restated:
                # 'FY3/2024 (Year ended March 31, 2024)': the bracket restates the column before it
                del header.columns[before - 1], header.kinds[before - 1], header.lines[before - 1]
                restated = True
            elif not inside:
                restated = False
            if len(header.columns) > before:
                last_end = match.end()
        if last_end is not None and _VERSUS.fullmatch(text[last_end:] + " ") and header.columns:
            header.versus = True  # 'Fiscal 2020 vs.' / 'Fiscal 2019'
        if head.changes:
            # 'Q2 % Change' above '2023 2022 Reported Operational Currency': the group's one '% Change' stands for
            # the columns named after the periods
            _keep_columns(header, [k for k, c in enumerate(header.columns) if not c.endswith("change")])
            for _ in range(head.changes):
                _add_column(header, "% change", "pct_change")

    def _footnoted_heading(self) -> None:
        """'Wireless subscriber results 1' just above a header: the digit is a footnote mark, not a value."""
        row = self.row
        if row is not None and len(row.tokens) == 1 and _FOOTNOTE_DIGIT.match(row.tokens[0]):
            row.tokens = []

    def _close_header(self) -> None:
        if self.header is None:
            return
        header, self.header = self.header, None
        _drop_dating_column(header)
        _changes_last(header)
        columns = _label_columns(header)
        half = len(columns) // 2
        kinds = header.kinds
        years_of = [re.findall(r"(?:19|20)\d{2}", c)[:1] for c in columns]
        if (half and len(columns) % 2 == 0 and len(kinds) == len(columns) and "date" in kinds[:half]
                and set(kinds[half:]) == {"year"} and all(years_of) and years_of[:half] == years_of[half:]):
            # 'Fiscal years ended December 31, 2022, … 2020' then '2022 2021 2020'; 'December 31, 2022 and
            # December 25, 2021' then '2022 2021': the dates, once
            columns = columns[:half]
        elif not (header.durations or header.parts or header.context_durations):
            # a year twice with nothing naming the groups ('2023 2022 2021 2023 2022 2021' under a quarter's and a
            # year's headings the page's chunk cut off): neither column is known to be the year's, so neither is
            # dated
            years = [c for c in columns if re.fullmatch(rf"FY{YEAR}", c)]
            columns = [_UNDATED if years.count(c) > 1 else c for c in columns]
        if not columns:
            return
        self.table += 1
        if self.shares_pending:
            self.share_tables.add(self.table)
            self.shares_pending = False
        self.periods = columns
        if self.first_periods is None:
            self.first_periods = columns
        self.note_column = header.note
        self.block_heading, self.block = None, []
        titles = self.titles
        if len(columns) == 1 and header.names and not _TITLE_WORDS.search(header.names) and (
                names := _column_names(header.names)):
            self.names = names  # 'Pumps Valves Services Group' above '2025': the columns are segments
            titles = titles[:-1] if titles and titles[-1] == header.names else titles
        elif len(columns) > 1:
            self.names = None
        # a table after prose is titled by the sentence that leads into it ('Subscription revenue by reportable
        # segment … is as follows:'), not by a table above the prose
        self.title = header.title or (titles[-1] if titles else self.lead_in if self.prose else self.title)
        self.titles, self.prose, self.lead_in = [], False, None

    # --- rows

    def _start_row(self, label: str, tokens: list[str], text: str, declared: _Unit | None = None) -> None:
        row = self.row
        if row is not None and row.label and not _values(row.tokens) and _continues(row.label, label):
            row.label, row.tokens, row.raw = f"{row.label} {label}", tokens, [*row.raw, text]
            row.declared = row.declared or declared
            return  # a label wrapped onto a second line
        self._close_row()
        if declared is not None:
            self.first_declared = self.first_declared or declared
        self.row = _OpenRow(label=self._qualified(label), tokens=tokens, raw=[text], periods=self.periods,
                            section=self._section(), table=self.table, title=self.title,
                            note_column=self.note_column, names=self.names, declared=declared)

    def _qualified(self, label: str) -> str:
        """'Basic' under the heading 'Earnings per share:' is 'Basic earnings per share'."""
        clean = _clean_label(label)
        if self.heading and _BASIC_DILUTED.match(clean):
            heading = self.heading if self.heading[1:2].isupper() else self.heading[:1].lower() + self.heading[1:]
            return f"{clean} {heading}"
        return label

    def _add_values(self, tokens: list[str], text: str) -> None:
        row = self.row
        if row is not None:
            count = _filled(row.tokens)
            capacity = len(row.periods) + (1 if row.note_column and _leads_with_note(row.tokens) else 0)
            # 'Dividends 21' then a line of the row's values: '21' was a note number, not the row's one value
            noted = len(row.raw) == 1 and count == 1 and _leads_with_note(row.tokens) and _count(tokens) >= capacity
            if noted or not (row.periods and count >= capacity and _filled([*row.tokens, *tokens]) > count):
                row.tokens.extend(tokens)
                row.raw.append(text)
                return
        # values without a label, or beyond a full row: a page number, a stray cell, or an unlabelled subtotal
        if row is not None and row.label and row.periods:
            self.overflows[row.table] = self.overflows.get(row.table, 0) + 1
        self._close_row()
        self.row = _OpenRow(label="", tokens=list(tokens), raw=[text], periods=self.periods, section=self._section(),
                            table=self.table, title=self.title)

    def _close_row(self) -> None:
        row, self.row = self.row, None
        if row is None:
            return
        if not row.label:
            total = self._subtotal(row)
            if total is not None:
                self.rows.append(total)
                self.block_heading, self.block = None, []
            return
        self.seen_currency = self.seen_currency or _currency_in_tokens(row.tokens)
        if row.declared is not None and (not _values(row.tokens) or _align(
                _values(row.tokens), row.periods, row.note_column)[1] is None):
            self._declare(row.declared)  # 'Results (in thousands)' above its table, '(Dollars in millions) (Note 1)':
            row.declared = None  # from here on; only a row that lines up with the columns has a unit of its own
        if _values(row.tokens):
            self.rows.append(row)
            self.titles, self.prose, self.lead_in = [], False, None
            if run_in := _HEADING_RUN_IN.match(_clean_label(row.label)):
                # 'Weighted-average common shares outstanding: Basic 425,889 …': a new heading with its first
                # row, so the 'Diluted' below is the diluted shares, no longer the 'Earnings per share:' above
                self.heading = run_in.group("heading")
            if self.block_heading is not None:
                self.block.append(row)
            return
        self.heading = _clean_label(row.label)
        self.block_heading, self.block = self.heading, []
        title = row.label if _is_heading(row.label) else row.raw[0] if _is_heading(row.raw[0]) else None
        if title:  # 'Consolidated income statement' / 'for the period from 1 January to 31 December 2024'
            self.titles = [*self.titles[-2:], title]
        elif len(row.label) > 90 or _SENTENCE_STOP.search(row.label):
            last = _SENTENCE_STOP.split(row.label.strip())[-1].strip()
            self.prose, self.lead_in = True, (last if last.endswith(":") else None)

    def _subtotal(self, line: _OpenRow) -> _OpenRow | None:
        """A values-only line under a heading's rows that is, in each column, their sum to the rounding shown:
        the heading's total ('Current assets' … '364.8 364.4' is 'Total current assets'). None otherwise."""
        if not self.block_heading or not self.block:
            return None
        cells, periods = _dated(*_align(_values(line.tokens), line.periods))
        if not cells or len(cells) < 2 and len(self.block) < 2:
            return None  # one figure equal to one row's: too likely a coincidence (a page number)
        sums = [0.0] * len(cells)
        for row in self.block:
            row_cells, row_periods = _dated(*_align(_values(row.tokens), row.periods, row.note_column))
            if row_periods != periods or row.names:
                return None
            for i, cell in enumerate(row_cells):
                if cell.value is None or cell.percent:
                    return None
                sums[i] += cell.value
        for total, cell in zip(sums, cells):
            if cell.value is None or cell.percent or abs(total - cell.value) > 0.5 * 10 ** -cell.decimals + 1e-9:
                return None
        heading = self.block_heading
        name = heading.lower() if heading.isupper() else (heading if heading[1:2].isupper()
                                                          else heading[:1].lower() + heading[1:])
        return _OpenRow(label=f"Total {name}", tokens=line.tokens, raw=line.raw, periods=line.periods,
                        section=line.section, table=line.table, title=line.title)


def _unit_in(text: str) -> tuple[_Unit | None, str, bool]:
    """The first unit a line declares, the line without it (empty when the line was only that), and whether the
    line opens with it."""
    declared = unit_declarations(text)[:1] if len(text) <= 160 else []
    if not declared:
        return None, text, False
    start, end = declared[0].start, declared[0].end
    return _unit_of(declared[0]), (text[:start] + " " + text[end:]).strip(), not text[:start].strip()


def _unit_of(declaration: UnitDeclaration) -> _Unit:
    """A declaration as the unit of the rows below it; what it excepts ('except churn and ARPU') is kept as
    phrases of words ({'churn'}, {'arpu'}), each of which a row's label must hold all of to be left unscaled."""
    excepted = _EXCEPT.search(declaration.text)
    return _Unit(SCALE_NAME[declaration.scale], declaration.currency or None,
                 not _SHARES_UNSCALED.search(declaration.text), _excepted(excepted.group("what") if excepted else ""))


def _excepted(what: str) -> frozenset[frozenset[str]]:
    """What an 'except' clause leaves unscaled, as phrases of row words ('churn and ARPU': {'churn'}, {'arpu'})."""
    phrases = re.split(r"(?i),|\band\b|\bor\b", what)
    return frozenset(words for phrase in phrases if (words := _label_words(phrase) - _EXCEPT_NOISE))


def _label_words(text: str) -> frozenset[str]:
    return frozenset(w.lower().removesuffix("s") for w in _WORD.findall(text))


def _header_line(text: str, *, continuing: bool) -> _HeaderLine | None:
    """The line as a header line, or None when it is none. Column units ('£m', '$m', 'A$ million') and a 'Note'
    column are taken off it; a trailing footnote digit ('2024 2023 (restated) 2') too. Under an open header a
    line of header words alone ('ended') continues it, and one that starts with column units and goes on with a
    label ('£m Non-current assets') gives the label back as a row. What a unit does not cover ('£m (unless
    stated)') is no part of the header's columns."""
    tokens = _UNIT_PROVISO.sub(" ", text).split()
    hinted = bool(_UNIT_HINT.search(text))  # most lines name no unit: the unit readers are skipped
    units, lead = _leading_units(tokens) if hinted else ([], 0)
    body = _units_joined(tokens[lead:]) if hinted else tokens[lead:]
    inner = [t for t in body if _UNIT_TOKEN.match(t) and unit_declarations(t)] if hinted else []
    words = [t for t in body if t not in inner] if inner else body
    note = bool(_NOTE_IN.search(text)) and any(_NOTE_WORD.match(t) for t in words)
    if note:
        words = [t for t in words if not _NOTE_WORD.match(t)]
    if len(words) > 1 and _FOOTNOTE_DIGIT.match(words[-1]) and _PERIOD_ITEMS.search(" ".join(words[:-1])):
        words = words[:-1]
    # a footnote mark after a column's date ('December 31, 2018 (1) September 30, 2018 …') is no column
    words = [w for k, w in enumerate(words) if not (k and _FOOTNOTE_MARK.fullmatch(w) and re.search(YEAR, words[k - 1]))]
    found = tuple(units + [unit_declarations(t)[0] for t in inner])
    candidate = " ".join(words)
    if continuing and (compared := _COMPARED_YEARS.fullmatch(candidate)) and (
            compared.group("vs") or int(compared.group(1)) > int(compared.group(3))):
        return _HeaderLine("", found, note)  # '% Change' / '2015-2014': the change column's name goes on
    if candidate and _is_period_line(candidate, continuing=continuing):
        return _HeaderLine(candidate, found, note)
    if (rest := periods_after_note(candidate)) and _is_period_line(rest, continuing=continuing):
        return _HeaderLine(rest, found, note)
    if continuing and (named := _change_names(words)):
        return _HeaderLine(" ".join(words[:-named[1]]), found, note, changes=named[0])
    if continuing and (found or note) and not candidate:
        return _HeaderLine("", found, note)
    if continuing and candidate and not any(w.lower() not in _HEADER_VOCABULARY for w in _WORD.findall(candidate)) \
            and not _HEADER_WORDS.sub("", candidate):
        return _HeaderLine(candidate, found, note)  # 'ended' between '52 weeks' and '29 March'
    titled = _titled(words)
    if titled is not None:
        return _HeaderLine(titled[1], found, note, title=titled[0])
    if continuing and lead and body:
        return _HeaderLine(None, tuple(units), rest=" ".join(body))
    return None


_NOTE_BEFORE_PERIODS = re.compile(
    r"(?i)^(?:[^()]*\)|(?P<lead>[^()]*)\((?=[^()]*\b(?:millions?|thousands?|billions?|except|unaudited)\b)[^()]*\))"
    r"\s+(?P<rest>\S.*)$")


def periods_after_note(line: str) -> str:
    """The columns after a unit note that a header line opens with, or '': the end of a note the line above
    opened ('and where otherwise noted) 1Q21 4Q20 3Q20'), or a whole note after header words ('As of or for the
    period ended, (in millions, except per share data) 1Q21 4Q20'). The caller checks they are periods."""
    wrapped = _NOTE_BEFORE_PERIODS.match(line)
    if wrapped is None or any(w.lower() not in _HEADER_VOCABULARY for w in _WORD.findall(wrapped.group("lead") or "")):
        return ""
    return wrapped.group("rest")


_CHANGE_COLUMN_WORDS = {"reported", "operational", "currency", "adjusted", "organic", "constant", "underlying",
                        "fx", "translation", "local", "comparable", "cc"}
"""Names of the change columns a results table prints after its periods, under a '% Change' group above them
('2023 2022 Reported Operational Currency Adjusted Operational': four kinds of change)."""
_CHANGE_NAME_MODIFIERS = {"adjusted", "constant", "local", "comparable"}
"""A change column's name that goes on with the next word: 'Adjusted Operational', 'Constant currency'."""


def _change_names(words: list[str]) -> tuple[int, int] | None:
    """(columns, words) of the change columns named after a header line's periods, or None: '2023 2022 Reported
    Operational1,2 Currency Adjusted Operational1,3' names four change columns in five words (a footnote's digits
    on a name are no part of it). The periods before them must be a header line of their own."""
    names = [re.sub(r"[\d,*]+$", "", w).lower() for w in words]
    size = 0
    while size < len(names) and names[len(names) - 1 - size] in _CHANGE_COLUMN_WORDS:
        size += 1
    if not size or size == len(words) or not re.search(YEAR, " ".join(words[:-size])):
        return None
    if not _is_period_line(" ".join(words[:-size]), continuing=True):
        return None
    run = names[len(names) - size:]
    columns = sum(1 for k, name in enumerate(run) if not (k and run[k - 1] in _CHANGE_NAME_MODIFIERS))
    return columns, size


_SENTENCE_STOP = re.compile(r"(?<=[a-z)][.!?])\s+(?=[A-Z])")
"""Where one sentence of a paragraph read as a label ends and the next starts."""
_SHARE_OF_SALES = re.compile(r"(?i)\(?\s*(?:in\s+|as\s+a\s+)?(?:percent(?:age)?|%)\s+(?:of|to)\s+(?:(?:net|total)\s+)?"
                             r"(?:sales|revenues?|turnover)\s*\)?")
"""A table's unit line that says its figures are shares of sales ('(Percent of net sales)'): each row a percent."""


def declares_shares(line: str) -> bool:
    """Whether a line is a table's unit line of shares of sales ('(Percent of net sales)')."""
    return bool(_SHARE_OF_SALES.fullmatch(line.strip()))


_COMPARED_YEARS = re.compile(r"\(?((?:19|20)\d{2})\s*(?:[-–—/]|(?P<vs>vs\.?|v\.?|versus|over|compared\s+to))\s*"
                             r"((?:19|20)\d{2})\)?")
"""The two years a change column compares, on a line of its own under '% Change' ('2015-2014', '2024 vs. 2023'):
no columns of their own. (A rising range, '2023-2024', may be a fiscal year's name and is left to the period
reader.)"""


def _units_joined(tokens: list[str]) -> list[str]:
    """A currency sign and the scale word after it as one column unit: '2023 $ million 2022 $ million' reads as
    '2023 $million 2022 $million', each year's column unit beside it."""
    out: list[str] = []
    for token in tokens:
        if out and _BARE_CURRENCY.match(out[-1]) and _SCALE_WORD.match(token):
            out[-1] += " " + token
        else:
            out.append(token)
    return out


def _leading_units(tokens: list[str]) -> tuple[list[UnitDeclaration], int]:
    """A column unit the line starts with ('£m', 'A$ million', 'Millions of yen'), and how many tokens it takes."""
    if not tokens or not _UNIT_START.match(tokens[0]):
        return [], 0
    for size in (3, 2, 1):
        if len(tokens) < size:
            continue
        prefix = " ".join(tokens[:size])
        found = unit_declarations(prefix)
        if len(found) == 1 and found[0].start == 0 and found[0].end == len(prefix):
            return [found[0]], size
    return [], 0


def _titled(words: list[str]) -> tuple[str, str] | None:
    """'Iron Ore FY2024 FY2023 Change' → ('Iron Ore', 'FY2024 FY2023 Change'): a short title, then two period
    columns or more that end the line. None for anything else: prose ('Costs were flat between 2024 and 2025'),
    a title that runs on into the years ('Revenue for 2025 2024'), a row ('Notes due 2027 150,000')."""
    if len(words) < 3 or len(_YEAR_SEEN.findall(" ".join(words))) < 2:
        return None
    for size in range(1, min(len(words) - 1, _TITLE_MAX_WORDS) + 1):
        suffix = " ".join(words[size:])
        first = _PERIOD_ITEMS.match(suffix)
        if first is None or first.lastgroup in ("change", "pct_change"):
            continue
        if _TITLED_NOISE.search(suffix) or not _is_period_line(suffix, continuing=False):
            continue
        header = _Header()
        for match in _PERIOD_ITEMS.finditer(suffix):
            _add_period_item(header, match)
        years = [int(y) for c in header.columns for y in re.findall(YEAR, c)]
        if len(years) < 2 or max(years) - min(years) > _MAX_TITLE_SPAN:
            return None
        head = words[:size]
        marks = [i for i, w in enumerate(head) if _CHANGE_MARK.match(w)]
        if marks and marks[-1] < size - 1:
            # '… currency ∆% Adjusted results 2022 2023': the change columns' names came first off the page, their
            # cells come after the years'
            head = head[marks[-1] + 1:]
            suffix = " ".join([suffix, *(words[i] for i in marks)])
        title = " ".join(head)
        last = words[size - 1]
        if (not (title[:1].isupper() or title[:1].isdigit()) or last.lower() in _RUNS_ON or _is_value_token(last)
                or title.endswith((".", ",", ";", ":")) or not _WORD.search(title)):
            return None
        return title, suffix
    return None



def _drop_dating_column(header: _Header) -> None:
    """'For the year ended 30 June 2024' (or 'As at 31 December 2024') above a header that names that column
    again among two or more: the first line only dates the statement and is no column of its own."""
    if len(header.columns) < 3 or header.kinds[0] not in ("date", "fiscal", "fiscal_month"):
        return
    first = header.lines[0]
    if (first not in header.dating_lines or header.lines.count(first) != 1
            or header.columns[0] not in header.columns[1:]):
        return  # 'December 31, 2018' / '2018' / '2017': a three-months column, then two years
    del header.columns[0], header.kinds[0], header.lines[0]
    if header.duration_lines[:1] == [first] and header.duration_lines.count(first) == 1 and len(header.durations) > 1:
        # 'for the half-year ended 31 December 2024' above 'Half-year / 31 Dec 2024 / Half-year / 31 Dec 2023':
        # its duration went with the dating column; each column keeps its own
        del header.durations[0], header.duration_lines[0]


def _changes_last(header: _Header) -> None:
    """'Q2 % Change' above '2023 2022': the change column is named on a line above the periods' and its cells
    come after theirs."""
    changes = [k for k, c in enumerate(header.columns) if c.endswith("change")]
    dated = [k for k, c in enumerate(header.columns) if not c.endswith("change")]
    if not changes or not dated:
        return
    first_dated = min(header.lines[k] for k in dated)
    above = [k for k in changes if header.lines[k] < first_dated]
    below = [k for k in changes if k not in above and k > max(dated)]
    if above and len(below) >= len(above):
        # 'Change Change' above '2022 2021 2020 2022 vs. 2021 2021 vs. 2020': the same two columns, named twice;
        # one 'Change' above the two spans them ('As of/Year Ended December 31, Change')
        _keep_columns(header, [k for k in range(len(header.columns)) if k not in above])
        return
    if max(header.lines[k] for k in changes) >= first_dated:
        return
    _keep_columns(header, dated + changes)


def _keep_columns(header: _Header, order: Sequence[int]) -> None:
    """The header's columns (with their kinds and lines) at these places, in this order."""
    header.columns = [header.columns[k] for k in order]
    header.kinds = [header.kinds[k] for k in order]
    header.lines = [header.lines[k] for k in order]


def _is_heading(label: str) -> bool:
    """A line that may title the table below it: a few words, no sentence ('Wireless financial results',
    'Current assets', '6 Segment reporting'); not '(Consolidated statement of financial position)'."""
    words = label.split()
    return (1 <= len(words) <= 12 and len(label) <= 90 and (label[:1].isupper() or label[:1].isdigit())
            and not label.rstrip().endswith((".", ",", ";")) and not _PAGE_FURNITURE.match(label))


_PAGE_FURNITURE = re.compile(r"(?i)^\s*(?:table\s+of\s+contents|index|contents|back\s+to\s+contents)\s*$")
"""A page's running link back to the contents, printed at the top of every page of a filing: no title."""


_TITLE_WORDS = re.compile(r"(?i)\b(?:selected|quarterly|data|unaudited|summary|highlights|results)\b")
"""Words of a table's title ('Selected Quarterly Financial Data (Unaudited)'), which names no segments."""


def _column_names(text: str) -> list[str]:
    """Segment names on one line, each starting with a capital: 'Water systems Heat pumps Service and parts
    Corporate/ consolidation Group' → ['Water systems', 'Heat pumps', 'Service and parts',
    'Corporate/consolidation', 'Group']. A word that is not capitalised, or follows '/', '&', '-' or a joining
    word, goes on the name before it. Only names as many as the row's values are taken (see _finish_row)."""
    names: list[list[str]] = []
    for word in text.split():
        joins = names and (not word[:1].isupper() or names[-1][-1].endswith(("/", "-", "&"))
                           or names[-1][-1].lower() in _NAME_JOINERS)
        if joins:
            names[-1].append(word)
        else:
            names.append([word])
    if len(names) < MIN_SEGMENT_COLUMNS or not all(n[0][:1].isupper() or n[0][:1].isdigit() for n in names):
        return []
    return [re.sub(r"([/-])\s+", r"\1", " ".join(name)) for name in names]


def _continues(label: str, following: str) -> bool:
    """Whether a label line wraps onto the next: 'Purchases of property, plant and' / 'equipment'."""
    return following[:1].islower() or bool(re.search(r"(?i)(?:\b(?:to|of|and|for|in|from|by|on)|[,(&-])$", label))


def is_period_line(text: str) -> bool:
    """Whether a line heads a statement's columns ('Years ended December 31', 'May 31, 2020 May 26, 2019',
    'Three Months Ended June 30, 2023  2022')."""
    return _is_period_line(_UNIT_TOKENS.sub(" ", _UNIT_PROVISO.sub(" ", text)).strip(), continuing=False)


_UNIT_PROVISO = re.compile(r"(?i)\(unless\b[^()]{0,60}\)")
"""What a header says its unit does not cover ('£m (unless stated)'): no label; each row that is in another unit
says so (`_LABEL_UNIT`)."""
_UNIT_TOKENS = re.compile(r"(?<!\S)(?:[A-Z]{0,3}[$£€¥]\s?(?:m|bn|k|'000|000)?|[$£€¥]?(?:m|bn|mn)|in\s+[$£€¥]\s?(?:m|"
                          r"million|thousand)?)(?!\S)")
"""A column's currency and scale on a header line ('$m 2023', '£m 30 March'): no word of a label."""


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
    """One header item: a column ('2018', 'June 30, 2023', 'Q2 2023', 'H1 FY2025', '% Change') or context for
    the columns that follow ('Three Months Ended', 'Years ended', '52 weeks ended', 'December 31', 'Fourth
    Quarter')."""
    _read_period_item(header, match)
    header.last_kind = match.lastgroup or ""


def _read_period_item(header: _Header, match: re.Match[str]) -> None:
    kind, text = match.lastgroup or "", match.group(0)
    if kind == "months" and text.split()[0].lower().split("-")[0] in ("twelve", "12") and header.parts:
        header.parts.append("FY")  # 'FOURTH QUARTER  TWELVE MONTHS': the year's group beside the quarter's
        header.groups.append("FY")
    elif kind == "months":
        header.durations.append(_MONTH_DURATIONS.get(text.split()[0].lower().split("-")[0], ""))
        header.duration_lines.append(header.line)
        header.groups.append(header.durations[-1])
    elif kind == "weeks":
        weeks = _DIGITS.findall(text)[0]
        if weeks in _WEEK_DURATIONS:
            header.durations.append(_WEEK_DURATIONS[weeks])
            header.duration_lines.append(header.line)
        else:
            header.annual = True
    elif kind == "years_ended":
        header.annual = True
    elif kind == "monthday":
        header.monthday = _month_day(text)
        if header.last_kind == "monthday":
            header.monthdays.append(header.monthday)  # 'January 28,' / 'January 29,' / '2023' / '2022'
        else:
            header.monthdays, header.dated_by_monthdays = [header.monthday], 0
    elif kind == "quarter_bare":  # 'Q4  Full Year' over '2022 2021 % Change 2022 2021 % Change'
        header.parts.append(text.upper())
        header.groups.append(header.parts[-1])
    elif kind == "full_year":
        header.parts.append("FY")  # only a group beside a quarter's: alone, the columns are years anyway
        header.groups.append("FY")
    elif kind in ("quarter_word", "half_word"):
        number = _QUARTER_WORDS[text.split()[0].lower()]
        header.parts.append(f"Q{number}" if kind == "quarter_word" else f"H{number}")
        if re.search(YEAR, text):
            _add_column(header, f"{header.parts.pop()} {re.findall(YEAR, text)[-1]}", kind)
        else:
            header.groups.append(header.parts[-1])
    else:
        if kind == "date":
            header.monthday = _date_month_day(text)  # '2021' after 'December 31, 2022' is a date too
        _add_column(header, _column(header, kind, text), kind)


def _add_column(header: _Header, column: str, kind: str) -> None:
    header.columns.append(column)
    header.kinds.append(kind)
    header.lines.append(header.line)


def _column(header: _Header, kind: str, text: str) -> str:
    if kind == "date":
        year, month, day = _date(text)
        return f"FY{year}" if header.annual else f"{year}-{month:02d}-{day:02d}"
    if kind in ("quarter", "half"):
        digits = re.findall(_DIGITS, text)  # 'Q2 2023', 'Q2 FY23', '2Q23', 'H1 FY2025', '1H25'
        number, year = (digits[0], digits[1]) if len(digits) == 2 else (digits[0][0], digits[0][1:])
        return f"{'Q' if kind == 'quarter' else 'H'}{number} {_full_year(year)}"
    if kind == "fiscal_month":
        return f"FY{re.findall(YEAR, text)[0]}"  # 'FY3/2025', 'FY2025/3': the year ended in March 2025
    if kind == "fiscal":
        return f"FY{_full_year(re.findall(_DIGITS, text)[-1])}"
    if kind in ("pct_change", "change"):
        return "% change" if kind == "pct_change" else "change"
    year = int(text)
    if header.parts:
        return f"{header.parts[-1][0]}? {year}"  # the quarter or half is named by its group: see _label_columns
    if header.monthday and not header.annual:
        month, day = header.monthday
        if len(header.monthdays) > 1 and header.dated_by_monthdays < len(header.monthdays):
            month, day = header.monthdays[header.dated_by_monthdays]  # the days listed before the years, in order
            header.dated_by_monthdays += 1
        return f"{year}-{month:02d}-{day:02d}"
    return f"FY{year}"


def _label_columns(header: _Header) -> list[str]:
    """The header's columns, each prefixed with its months duration ('3M 2023-06-30') or named by its quarter
    ('Q2 2020' under 'Second Quarter'). Several durations ('Three Months Ended', 'Six Months Ended') or quarters
    ('First Quarter  Second Quarter') split the columns evenly, in order; when they cannot, a quarter stays 'Q?'.
    A duration read only above a 'Note' column ('for the half-year ended ...' then 'Note 2024 2023') applies to
    every column."""
    context = sorted(set(header.context_durations))
    groups: list[str] = header.durations or header.parts or (context if len(context) == 1 else [])
    if header.durations and header.parts and len(header.groups) == len(header.durations) + len(header.parts):
        groups = header.groups  # 'Q1 Q2 SIX MONTHS': two quarters' columns, then the half year's
    periods = [c for c in header.columns if not c.endswith("change")]
    if len(groups) > 1 and len(header.columns) == 1 == len(periods):
        # one year over its groups ('2023' above 'Q1 Q2 SIX MONTHS'): each group is a column of that year
        return [_in_group(group, periods[0]) for group in groups]
    if groups in (["6M"], ["9M"], ["12M"]) and len(periods) >= 4 and len(periods) % 2 == 0 \
            and periods[:len(periods) // 2] == periods[len(periods) // 2:] and not header.parts:
        # 'Six Months Ended' over '2023 2022 2023 2022': the same dates twice under one duration, so the title of
        # the first pair was cut off (a chunk ending in 'Three Months Ended'); a filing puts the quarter first
        groups = ["3M", groups[0]]
    if not groups or not periods or len(periods) % len(groups):
        return header.columns
    size = len(periods) // len(groups)
    named = iter(_in_group(groups[i // size], p) for i, p in enumerate(periods))
    return [c if c.endswith("change") else next(named) for c in header.columns]


_UNDATED = "FY?"
"""A column whose period the header leaves open: it dates no figure."""


def _in_group(group: str, period: str) -> str:
    if re.fullmatch(r"[QH]\d", group) and re.fullmatch(r"FY(?:19|20)\d{2}", period):
        return f"{group} {period[2:]}"  # 'Q2' over a year read as the year's own column ('2023'): Q2 of 2023
    if group.endswith("M") and re.match(r"[QH]\d ", period):
        return period  # 'Q1 2023  Q2 2023  SIX MONTHS 2023': a quarter's column names its own months
    if group == "FY":
        return f"FY{period[2:].strip()}" if period[1:2] == "?" else period
    if period[1:2] == "?":
        return group + period[2:]
    return f"{group} {period}".strip() if group.endswith("M") or not group else period


def _month_day(text: str) -> tuple[int, int]:
    words = re.findall(r"[A-Za-z]+|\d+", text)
    month = next(MONTHS[w.lower()] for w in words if w.lower() in MONTHS)
    return month, int(next(w for w in words if w.isdigit()))


def _date(text: str) -> tuple[int, int, int]:
    month, day = _date_month_day(text)
    return int(re.findall(YEAR, text)[-1]), month, day


def _date_month_day(text: str) -> tuple[int, int]:
    """A date's month and day: 'June 30, 2023', '30 June 2023', or '3/25/2023' (month first, as US filings write
    it, unless the first number cannot be a month)."""
    if numeric := re.fullmatch(rf"\s*(\d{{1,2}})/(\d{{1,2}})/{YEAR}\s*", text):
        first, second = int(numeric.group(1)), int(numeric.group(2))
        return (second, first) if first > 12 else (first, second)
    return _month_day(re.sub(YEAR, "", text))


def _full_year(digits: str) -> int:
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


# --- rows ---------------------------------------------------------------------------------------------------


# Some extractors end a line after a label and start the next with its values: 'Deferred revenue' /
# '618,622  443,472 Total current liabilities' / '5,466,312  4,586,657 Non-current content liabilities'. A run
# of values that is unmistakably a row's cells (a grouped number such as '618,622', a currency sign, or two
# cells or more) followed by a capitalised word therefore ends a row. '$3,901 million' does not (lower case),
# nor a lone '1' in 'Level 1 assets', '4.75%' in '4.75% Notes due 2025' or the hyphen in 'Segment revenue - Quarries'.
_GLUED = re.compile(r"(?<=[A-Za-z])(?=\(?\d{1,3}(?:,\d{3})+(?!\d))|(?<=[a-z])(?=[—–$])"
                    r"|(?<=\d)(?=[¹²³⁴⁵⁶⁷⁸⁹]+(?!\S))")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+")


_LEADERS = re.compile(r"\s*(?:\.\s?){3,}\s*|\s*…+\s*")


def _unglued(text: str) -> str:
    """Cells written onto a label's last word apart ('net161,985' → 'net 161,985', 'enefits—' → 'enefits —'), a
    footnote mark off a figure ('1.25²' → '1.25 ²'), and dot leaders between a label and its cells dropped ('Total
    current assets....... 4,821,892')."""
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
        # (not a header's change column: '2021 2020 Change' is one line of column names)
        if len(years.split()) >= 2 and rest[:1].isupper() and not is_period_line(line.strip()):
            out.extend([years, *_pieces(rest)])
        elif line.strip():
            out.extend(_pieces(_unglued(line.strip())))
        else:
            out.append("")
    return "\n".join(_rejoined_labels(out))


_LABEL_ONLY = re.compile(r"^[A-Za-z][^\d]{0,58}[a-z]$")
_FRAGMENT_ROW = re.compile(r"^(?P<piece>[a-z]+(?:\s[a-z]+){0,3})(?:\s+(?=[$(\-–—]?\s?\d)|$)")
_VALUES_LINE = re.compile(r"^[$(\-–—]?\s?\d[\d,.]*(?:\s+\S+)*$")
_WHOLE_SHORT = frozenset({"a", "an", "and", "as", "at", "by", "for", "in", "net", "of", "on", "or", "per", "the",
                          "to"})


def _rejoined_labels(lines: list[str]) -> list[str]:
    """A label PDF extraction broke inside a word, its rest opening the row's line ('Paid memberships at end of pe'
    / 'riod 52,810 47,905'), or alone above the values ('Average monthly revenue per p' / 'ayingmembership' /
    '$ 10.18 $ 9.21'): one line again. The pieces meet without a space when the first ends in a piece of a word
    (two letters or fewer and no word of its own), with one otherwise."""
    out: list[str] = []
    for k, line in enumerate(lines):
        piece = _FRAGMENT_ROW.match(line)
        alone = piece is not None and line == piece.group("piece")  # (then the values must follow it)
        if out and piece and _LABEL_ONLY.match(out[-1]) and (
                not alone or k + 1 < len(lines) and _VALUES_LINE.match(lines[k + 1])):
            last = out[-1].split()[-1]
            glue = "" if len(last) <= 2 and last.islower() and last not in _WHOLE_SHORT else " "
            out[-1] = f"{out[-1]}{glue}{line}"
            continue
        out.append(line)
    return out


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
    if 0 < i < len(tokens) and _NUMBERED_WORD.match(tokens[i - 1]) and re.fullmatch(r"[1-9]", tokens[i]):
        i += 1  # 'Corporate bonds Level 2 416,420 213,875': the fair value level is the label's, no figure
    # a parenthesis the label opens closes in the label: 'Long-term debt (includes …: 2022, $12,662; 2021,
    # $13,803) 42,573 38,675' has two values, and '$13,803)' is the label's
    depth = sum(t.count("(") - t.count(")") for t in tokens[:i])
    while depth > 0 and i < len(tokens):
        depth += tokens[i].count("(") - tokens[i].count(")")
        i += 1
    return " ".join(tokens[:i]), tokens[i:]


def _is_value_token(token: str) -> bool:
    return bool(_VALUE.match(token) or _CURRENCY_TOKEN.match(token) or _DASH.match(token) or token in "()%"
                or _NOT_AVAILABLE.match(token) or _NOTE_MARK.match(token) or _POINTS.match(token))


@dataclass(frozen=True)
class _Cell:
    value: float | None
    percent: bool = False
    note: bool = False  # '(1)' straight after the label: a footnote mark or minus one
    reference: bool = False  # '18' written as a note number is: in a header's 'Note' column, no value
    decimals: int = 0  # the places shown: '364.8' → 1
    times: bool = False  # '4.11x': a ratio
    dash: bool = False  # written as a dash: nil, or the joint of a range
    high: float | None = None  # a range's upper end ('18.5 – 19.5'): value is its lower end


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
        elif _POINTS.match(token):
            continue  # '0.4 pts': the number before it is the change, in points
        elif _DASH.match(token):
            cells.append(_Cell(0.0, token.endswith("%"), dash=True))
        elif _NOT_AVAILABLE.match(token):
            cells.append(_Cell(None))
        elif (match := _VALUE.match(token)) and not _NOTE_MARK.match(token):
            cells.append(_number(match, negative, note=position == 0 and bool(_NOTE_CANDIDATE.match(token)),
                                 reference=not negative and bool(_NOTE_REFERENCE.match(token))))
            negative = False
    return cells


def _leads_with_note(tokens: list[str]) -> bool:
    """Whether the row's first value could be a note number ('18 206.5 219.0')."""
    cells = _values(tokens)
    return bool(cells) and cells[0].reference


def _count(tokens: list[str]) -> int:
    """How many values the tokens hold, a leading footnote candidate not counted."""
    cells = _values(tokens)
    return len(cells) - (1 if cells and cells[0].note else 0)


def _filled(tokens: list[str]) -> int:
    """How many of a row's columns its tokens fill: its values, but in a row of amounts each with its share of
    sales beside it ('Net sales $ 3,226,773 100.0 % $ 2,729,388 100.0 %') only the amounts."""
    cells = _values(tokens)
    if any(c.percent for c in cells) and any(not c.percent and c.value is not None for c in cells[1:]) \
            and not cells[0].percent:
        return len([c for c in cells if not c.percent]) - (1 if cells and cells[0].note else 0)
    return _count(tokens)


def _number(match: re.Match[str], negative: bool, *, note: bool, reference: bool = False) -> _Cell:
    number = match.group("num")
    value = float(number.replace(",", ""))
    if negative or match.group("open") or match.group("open2") or match.group("sign"):
        value = -value
    return _Cell(value, bool(match.group("pct")), note, reference, len(number.partition(".")[2]),
                 times=bool(match.group("times")))


def _align(cells: list[_Cell], periods: list[str], note_column: bool = False) -> tuple[list[_Cell], list[str] | None]:
    """Cells and the periods they belong to, or None when the counts disagree. A leading '(1)' is a footnote
    when without it the counts agree, and so is a leading '18' under a header with a 'Note' column; missing
    trailing change columns, extra trailing percentages (an unlabelled '% change'), a share beside each period's
    amount ('$ 3,226,773 100.0 % $ 2,729,388 100.0 %') and up to two extra cells after a change column (more
    change columns) are allowed."""
    if cells and cells[0].note and len(cells) == len(periods) + 1:
        cells = cells[1:]
    elif (len(cells) == len(periods) + 1 and _footnote_digit(cells[0])
          and all(c.percent or c.decimals > 0 for c in cells[1:] if c.value is not None)):
        cells = cells[1:]  # 'Capital intensity 1 18.8% 19.9% -1.1 pts': a footnote's digit before figures in tenths
    dated_count = len([p for p in periods if not p.endswith("change")])
    if periods and len(cells) > len(periods) and (ranged := _ranges(cells)) is not None \
            and len(ranged) in (len(periods), dated_count):
        cells = ranged  # 'Iron ore shipments (Mt) 18.5 – 19.5 18.4' under 'FY2025 guidance FY2024 actual'
    if (note_column and cells and cells[0].reference and len(cells) != len(periods)
            and len(cells) - 1 in (len(periods), dated_count)):
        cells = cells[1:]
    if periods and len(cells) == len(periods):
        return cells, periods
    dated = [p for p in periods if not p.endswith("change")]
    if dated and len(cells) == len(dated) and dated == periods[:len(dated)]:
        return cells, dated
    if periods and periods[-1].endswith("change") and 0 < len(cells) - len(periods) <= 2:
        # 'Reported ∆%' above the header line and 'currency ∆%' on it: the first change column's name was lost off
        # the page, its cells follow the named change column's
        return cells, periods + [periods[-1]] * (len(cells) - len(periods))
    plain = [c for c in cells if not c.percent]
    if dated == periods and plain and len(plain) == len(dated) and cells[:len(plain)] == plain:
        return plain, dated
    if (dated == periods and plain and len(plain) == len(dated) and len(cells) == 2 * len(plain)
            and all(not a.percent and b.percent for a, b in zip(cells[::2], cells[1::2]))):
        return plain, dated  # each period's amount with its share of sales beside it
    return cells, None


def _shares_beside(cells: list[_Cell], periods: list[str]) -> bool:
    """Whether a row gives each period's amount with its share beside it ('$ 10,750.5 61% $ 9,925.2 59%')."""
    plain = [c for c in cells if not c.percent]
    return (bool(periods) and not any(p.endswith("change") for p in periods) and len(plain) == len(periods)
            and len(cells) == 2 * len(plain) and all(not a.percent and b.percent for a, b in zip(cells[::2], cells[1::2])))


def _ranges(cells: list[_Cell]) -> list[_Cell] | None:
    """The cells with each 'low – high' (a number, a dash, a greater number) made one range cell; None when the
    row has none."""
    out: list[_Cell] = []
    i, found = 0, False
    while i < len(cells):
        low = cells[i]
        if (i + 2 < len(cells) and cells[i + 1].dash and not low.dash and not cells[i + 2].dash
                and low.value is not None and cells[i + 2].value is not None and low.value < cells[i + 2].value
                and low.percent == cells[i + 2].percent):
            out.append(replace(low, high=cells[i + 2].value))
            i, found = i + 3, True
        else:
            out.append(low)
            i += 1
    return out if found else None


def _footnote_digit(cell: _Cell) -> bool:
    return (cell.value is not None and not cell.percent and cell.decimals == 0 and cell.value == int(cell.value)
            and 1 <= cell.value <= 9)


def _dated(cells: list[_Cell], periods: list[str] | None) -> tuple[list[_Cell], list[str] | None]:
    """The aligned cells of dated columns only (change columns left out); ([], None) when not aligned."""
    if periods is None:
        return [], None
    kept = [(c, p) for c, p in zip(cells, periods) if not p.endswith("change")]
    return [c for c, _ in kept], [p for _, p in kept]


def _finish_row(row: _OpenRow, unit_in_force: tuple[str | None, _Unit | None], shares_beside: bool = False
                ) -> StatementRow:
    currency, declared = unit_in_force
    cells = _values(row.tokens)
    aligned, periods = _align(cells, row.periods, row.note_column)
    dated = [p for p in row.periods if not p.endswith("change")]
    if (periods is None and shares_beside and dated == row.periods and len(cells) == 2 * len(dated)
            and not any(c.percent for c in cells)
            and all(c.value is not None and abs(c.value) <= 200 for c in cells[1::2])):
        aligned, periods = cells[::2], dated  # each amount's share beside it, written without its sign
    # as the line has it: '(p)' reads as a footnote mark, and is off the label by now
    stated = _LABEL_UNIT.search(row.raw[0]) if row.raw else None
    label = _clean_label(row.label)
    if row.note_column and len(aligned) < len(cells) and cells[0].reference:
        label = _NOTES_IN_LABEL.sub("", label)  # 'Net sales 5, 24 204,730 218,460': notes 5 and 24
    columns = None
    if periods is None and row.names and len(row.names) == len(cells) and len(set(row.periods)) == 1:
        columns, periods = row.names, row.periods * len(cells)  # segments under one year
    unit, row_scale = _row_unit(label, aligned, currency, declared, stated)
    highs = [c.high for c in aligned] if any(c.high is not None for c in aligned) else None
    return StatementRow(line_item=label, values=[c.value for c in aligned], periods=periods, unit=unit,
                        scale=row_scale, raw=" ".join(row.raw), title=row.title, columns=columns, highs=highs)


_LABEL_UNIT = re.compile(r"(?i)\((?P<pence>p|pence)\)(?=\s*(?:[-–—(\d]|$))|\((?P<count>weeks?|days|number|no\.|"
                         r"units?|people|headcount)\)(?=\s*(?:[-–—(\d]|$))|\b(?P<end>(?:at|as\s+at)\s+(?:the\s+)?"
                         r"(?:period|year)[- ]end)(?=\s*(?:[-–—(\d]|$))")
"""A row label that says its unit, which is not the page's money: pence ('Dividend per share (p)'), a count
('Period length (weeks)', 'Employees (number)'), or a count at a date ('UK stores at period end', under '£m
(unless stated)')."""
_COUNT_LABEL = re.compile(r"(?i)^(?:total\s+)?(?:number|no\.)\s+of\b|\b(?:employees|headcount|branches|stores|"
                          r"restaurants|locations|outlets|customers|subscribers|members|users|accounts|countries)\b"
                          r"(?:\s*\((?:in\s+)?(?:thousands|millions|000['’]?s)\))?(?:\s*\([a-z]\))?\s*$")
"""A row label that counts things ('Number of branches', 'Active mobile customers (in thousands)(b)')."""
_MONEY_LABEL = re.compile(r"(?i)\b(?:cash|debt|assets?|liabilit|revenue|sales|profit|income|costs?|expenses?|"
                          r"capital|equity|borrowings|value|amount|spend|dividends?)\b")


def _row_unit(label: str, cells: list[_Cell], currency: str | None, declared: _Unit | None,
              stated: re.Match[str] | None = None) -> tuple[str, str | None]:
    """A row's unit and scale: percentages and per-share amounts are never scaled; share counts are scaled
    unless the unit line excepts them ('except share data'), and so are rows it excepts by name ('except churn
    and ARPU'); a row whose label states its unit (`stated`, `_LABEL_UNIT`) is in that unit."""
    scale = declared.scale if declared else None
    if own := _LABEL_SCALE.search(label):
        scale = "millions" if own.group("millions") else "thousands"  # 'Shares used in calculation (000's)'
    numbers = [c for c in cells if c.value is not None]
    if stated is not None and stated.group("pence"):
        return "p", None
    if stated is not None and (stated.group("count") or not _MONEY_LABEL.search(label)):
        return "", None
    if _PERCENT_LABEL.search(label) or (numbers and all(c.percent for c in numbers)):
        return "%", None
    dated = [c for c in numbers if not c.percent]
    if dated and all(c.times for c in dated):
        return "x", None  # 'Net debt / Adjusted EBITDA 4.11x 4.03x'
    if numbers and sum(c.percent for c in numbers) >= len(numbers) - 1 and numbers[0].percent:
        return "%", None  # 'Adjusted EBITDA margin 44.5% 44.1% 0.4 pts': a change in points beside percentages
    if PER_SHARE_LABEL.search(label):
        return f"{currency or ''} per share".strip(), None
    if scale == "billions" and _COUNT_LABEL.search(label) and not _MONEY_LABEL.search(label) \
            and not _SHARE_COUNT.search(label):
        # 'Number of branches 4,872' under '(in billions, except ratios …)': no business counts its branches,
        # staff or customers in billions, so the unit line is the money's; a count in thousands or millions
        # ('(in thousands, except churn and ARPU)' over 'Prepaid subscribers 632') keeps it
        return "", scale if own else None
    if declared and any(phrase <= _label_words(label) for phrase in declared.excepted):
        scale = None
        if {"ratio"} in declared.excepted and "ratio" in _label_words(label):
            return "", None  # '(in millions, except per share, ratio … data)' / 'Overhead ratio 58': no money
    if _SHARE_COUNT.search(label):
        return "shares", scale if declared is None or declared.shares_scaled or own else None
    return currency or "", scale


_LABEL_SCALE = re.compile(r"(?i)\((?:in\s+)?(?:000['’]?s|thousands|(?P<millions>millions))\)")
"""A label that states its own scale, whatever the page's ('Shares used in calculation (000's)' under '(amounts
in millions, except per share data)')."""


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
    names = row.columns or [""] * len(row.values)
    cells = [f"{name} {_period_words(p)} {v}".strip() for name, p, v in zip(names, row.periods or [], values)
             if v not in ("", None)]
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
