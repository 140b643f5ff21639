"""Years and periods named in text: one reader per question Prov asks of a text about time.

- `years_named(text)`: every year a question or sentence names ('FY2024', 'fiscal 2023', 'in 2022.'), in order;
  a number that merely starts like a year is not one ('2024.5', '2024%').
- `fiscal_years_named(text)`: only the years a sentence names as fiscal years ('FY2025', 'fiscal 2025',
  'financial year 2025'): in a sentence these date the fact, a calendar date ('paid on 23 May 2025') does not.
- `years_in(query, known)`: the fiscal years a search query names that the knowledge base holds, two-digit
  'FY24' included (the search and routing reader: lenient, filtered by what is held).
- `deadline_years(text)`: the years a question names as a deadline ('its commitment to exit PFAS manufacturing
  by the end of 2025'), which date a plan, not the figure asked.
- `is_year_token(word)`: a single word that is a year ('2024', 'FY2024', 'fy2024').
- `period_year(label)`: the year a column or period label names ('FY2018', 'Q2 2023', '3M 2023-06-30').
- `HALF_OR_QUARTER` and `half_or_quarter(match)`: 'H1', 'Q3', 'first half', 'third quarter' read as 'H1'/'Q3';
  `is_period_word(word)`: a word such as 'FY24', 'H1' or 'Q3FY24' is a period, never a name.

Pure functions, no I/O. (app/text/statements.py and app/text/identity.py keep their own anchored readers of
column headers and cover pages.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

YEAR = r"(?:19|20)\d{2}"
"""A four-digit year of the filings' era, as a regex fragment."""

# A year, not part of a larger number: "2024.5" and "2024%" are figures; "in FY2024." ends a sentence.
_YEAR_MENTION = re.compile(rf"(?i)(?<![\d.])(?:fy\s?)?({YEAR})(?!\d|\.\d|%)")
# In a sentence only a fiscal year dates the fact ("FY2025", "fiscal 2025"); "paid on 23 May 2025" is a date.
_FISCAL_YEAR_MENTION = re.compile(
    rf"(?i)(?<![\d.])(?:fy\s?|fiscal(?: year)?\s|financial year\s)({YEAR})(?!\d|\.\d|%)")
# A query's years: "FY2024", "fiscal 2023", "2022", "FY24" (word-bounded; a two-digit year only after FY).
_QUERY_YEAR = re.compile(rf"(?i)\b(?:fy|fiscal(?: year)?|financial year)?\s?'?({YEAR})\b|\bfy\s?'?(\d{{2}})\b")
_YEAR_TOKEN = re.compile(rf"(?i)(?:fy\s?)?{YEAR}")
_ANY_YEAR = re.compile(YEAR)

HALF_OR_QUARTER = (re.compile(r"\b(?P<p>H[12]|Q[1-4])\b"),
                   re.compile(r"(?i)\b(?P<n>first|second|third|fourth)[\s-](?P<what>half|quarter)\b"))
"""The two forms of a half or quarter: 'H1'/'Q3', and 'first half'/'third quarter'."""
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_PERIOD_WORD = re.compile(r"(?i)(?:FY\s?'?\d{2,4}|H[12]|Q[1-4]|[HQ][1-4]\s?FY\d{2,4})")


def years_named(text: str) -> list[int]:
    """The years a question or sentence names ('FY2024', 'fiscal 2023', 'in 2022.'), in order; 'going into 2023'
    names the end of 2022, the year it goes into being unreported; a year something falls due in ('bonds due in
    2025', 'the patent expires in 2031') is no period of account (`without_maturities`)."""
    return [int(y) for y in _YEAR_MENTION.findall(_INTO_YEAR.sub(_year_before_end, without_maturities(text)))]


_MATURITY = re.compile(rf"(?i)(\b(?:(?:fall(?:s|ing)?\s+)?due|matur(?:e|es|ed|ing|ity|ities)|expir(?:e|es|ed|ing|y)|"
                       rf"run(?:s|ning)?\s+out)\s+(?:in\s+|on\s+|by\s+)?(?:(?:fiscal|calendar)\s+(?:year\s+)?|fy\s?)?)"
                       rf"{YEAR}\b")


def without_maturities(text: str) -> str:
    """The text without the years things fall due, mature or expire in ('Which of its bonds fall due in 2025?',
    'notes due 2027'): a period of account is not asked by them, the filing's latest is."""
    return _MATURITY.sub(r"\1", text)


_INTO_YEAR = re.compile(r"(?i)\b(?:going|heading|moving|head|go)\s+into\s+(?:fiscal\s+|FY\s?)?((?:19|20)\d{2})\b|"
                        r"\b(?:entering|as\s+(?:it|they)\s+entered)\s+((?:19|20)\d{2})\b")


def into_year_as_end(text: str) -> str:
    """'going into 2023' / 'heading into fiscal 2016' said as 'at the end of 2022' / 'at the end of 2015': the
    level on the last day of the year before, as reports state it."""
    return _INTO_YEAR.sub(_year_before_end, text)


def _year_before_end(match: re.Match) -> str:
    return f"at the end of {int(match.group(1) or match.group(2)) - 1}"


def fiscal_years_named(text: str) -> list[int]:
    """The years a sentence names as fiscal years ('FY2025', 'fiscal year 2025'), in order; bare years and
    calendar dates are not among them."""
    return [int(y) for y in _FISCAL_YEAR_MENTION.findall(text)]


_DEADLINE = re.compile(rf"(?i)\bby\s+(?:the\s+end\s+of\s+)?(?:(?:fiscal|calendar)\s+(?:year\s+)?|fy\s?)?({YEAR})\b")


_CLOSE_OF = re.compile(r"(?i)\b(?:close|closing)\s+of\s+(?=(?:the\s+|its\s+|their\s+)?(?:(?:fiscal|financial|calendar)\s+)?"
                       rf"(?:year|quarter|period|half|FY|{YEAR}))")


def end_worded(text: str) -> str:
    """A period's close said as its end ('at the close of fiscal 2017' → 'at the end of fiscal 2017'): the level
    on its last day, and no 'close' for a search to read as a closure."""
    return _CLOSE_OF.sub("end of ", text)


def deadline_years(text: str) -> list[int]:
    """The years a text names only as a deadline ('by the end of 2025', 'by 2030'), in order."""
    said = [int(y) for y in _DEADLINE.findall(text)]
    return [y for y in dict.fromkeys(said) if years_named(text).count(y) == said.count(y)]


def years_in(query: str, known_years: Iterable[int]) -> list[int]:
    """Fiscal years the query names ("FY2024", "fiscal 2023", "2022", "FY24") that the knowledge base holds."""
    known = set(known_years)
    found: list[int] = []
    # ('going into 2023': 2022's end; 'bonds due in 2025': no year of account)
    for m in _QUERY_YEAR.finditer(_INTO_YEAR.sub(_year_before_end, without_maturities(query))):
        year = int(m.group(1)) if m.group(1) else 2000 + int(m.group(2))
        if year in known and year not in found:
            found.append(year)
    return found


def is_year_token(word: str) -> bool:
    """A single word that is a year: '2024', 'FY2024', 'fy 2024' (an analyzed term 'fy2024' too)."""
    return _YEAR_TOKEN.fullmatch(word) is not None


def period_year(label: str) -> int | None:
    """The fiscal year a column label names: 'FY2018', 'Q2 2023', '2023-06-30', '3M 2023-06-30' (the year the
    period ends in); None when it names none."""
    found = _ANY_YEAR.findall(label)
    return int(found[0]) if found else None


def half_or_quarter(match: re.Match[str]) -> str:
    """A HALF_OR_QUARTER match as 'H1' or 'Q3': 'first half' → 'H1', 'third quarter' → 'Q3'."""
    found = match.groupdict()
    if found.get("p"):
        return found["p"]
    return ("H" if found["what"].lower() == "half" else "Q") + str(_ORDINALS[found["n"].lower()])


PART = re.compile(r"(?i)\b(?:(?P<h>H[12])|(?P<q>Q[1-4])|(?P<half>first|second)[\s-]+half|half[- ]year|"
                  r"six\s+months|(?P<qw>first|second|third|fourth)[\s-]+quarter|"
                  r"(?P<lastq>(?:last|final)[\s-]+quarter(?=\s+of\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?"
                  r"(?:19|20)\d{2}\b))|(?P<three>three\s+months|"
                  r"quarter\s+(?:end(?:ed|ing)|to|through)\s+(?:the\s+end\s+of\s+)?"
                  r"(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))|quarter\s+end(?:ed|ing)|"
                  r"(?:january|february|march|april|may|june|july|august|september|october|"
                  r"november|december)\s+(?:19|20)\d{2}\s+quarter))\b")
"""A part of a year a question or sentence names: 'H1', 'Q2', 'first half', 'half-year', 'six months', 'second
quarter', 'three months', and a quarter named by its end ('the quarter ended June 30, 2023', 'the June 2023
quarter'), and 'the last quarter of 2022' (its fourth)."""


def part_named(text: str) -> str | None:
    """The part of a year the text first names: 'H1'/'Q2' when it says which ('Q2 of FY2023', 'the first half'),
    'H' or 'Q' when it does not ('six months', 'three months'); None for none."""
    found = list(PART.finditer(text))
    # a part that says which ('the quarter ended December 31, 2022 (fiscal 2023 second quarter)': Q2) before one
    # that does not
    m = next((f for f in found if f.group("h") or f.group("q") or f.group("half") or f.group("qw")
              or f.group("lastq")), found[0] if found else None)
    if not m:
        return None
    if m.group("lastq"):
        return "Q4"
    if m.group("h") or m.group("q"):
        return (m.group("h") or m.group("q")).upper()
    if m.group("half"):
        return "H1" if m.group("half").lower() == "first" else "H2"
    if m.group("qw"):
        return f"Q{_ORDINALS[m.group('qw').lower()]}"
    return "Q" if m.group("three") else "H"


def is_period_word(word: str) -> bool:
    """'FY24', 'FY2024', 'H1', 'Q3', 'Q3FY24': a period, never a name."""
    return _PERIOD_WORD.fullmatch(word) is not None


_DATED = re.compile(r"(?:^|\s)((?:19|20)\d{2})-(\d{2})-(\d{2})$")


def column_years(periods: Sequence[str], filed_year: int | None) -> list[tuple[int | None, str | None]]:
    """(fiscal year, part) of each column of a row: `_period_of` each, and a column dated by a day that falls in
    the calendar year before the filing's fiscal year, on the day the filing's latest dated column ends, is of
    the filing's fiscal year rather than of that calendar year: a half-year report of a company whose year ends in
    June dates its columns '6M 2024-12-31' and '6M 2023-12-31', the halves of FY2025 and FY2024 (its balance sheet's
    '2024-06-30' column, the last year-end, stays FY2024). A fiscal year named 'FY2024' is never moved."""
    read = [_period_of(p) if not p.endswith("change") else (None, None) for p in periods]
    dated = [(i, m) for i, p in enumerate(periods) if (m := _DATED.search(p))]
    if not dated or filed_year is None:
        return read
    latest_i, latest = max(dated, key=lambda x: x[1].group(1, 2, 3))
    if filed_year - int(latest.group(1)) != 1 or int(latest.group(2)) <= 3:
        # (a day in January to March of the calendar year before ends no part of the filing's fiscal year, which
        # ends in that later calendar year: PepsiCo's first quarter of 2022, '3M 2022-03-19', in its 2023 release)
        return read
    day = latest.group(2, 3)
    return [(year + 1, part) if year is not None and (m := _DATED.search(periods[i])) and m.group(2, 3) == day
            else (year, part) for i, (year, part) in enumerate(read)]


def _period_of(period: str) -> tuple[int | None, str | None]:
    """'FY2024' → (2024, None); 'Q2 2023' → (2023, 'Q2'); '6M 2024-12-31' → (2024, 'H'); '2024-06-30' → (2024, None)."""
    years = re.findall(r"(?:19|20)\d{2}", period)
    if not years:
        return None, None
    year = int(years[-1])
    if m := re.match(r"(Q[1-4]|H[12])\b", period):
        return year, m.group(1)
    if period.startswith(("3M", "9M")):
        return year, "Q"
    if period.startswith("6M"):
        return year, "H"
    return year, None


def part_of_period(period: str | None) -> str | None:
    """The part of the year a figure's period is ('Q4 2022' → 'Q4', '6M 2024-12-31' → 'H'); None for a whole year."""
    return _period_of(period)[1] if period else None


def parts_agree(asked: str | None, given: str | None) -> bool:
    """Whether a figure of part `given` answers a question about part `asked` (None: the whole year): the same
    part, or a half unnamed ('six months') and a named one either way; a quarter asked unnamed ('its quarterly
    dividend') is any named quarter's."""
    if asked is None or given is None:
        return asked is None and given is None
    return (given == asked or (asked == "H" and given.startswith("H")) or (asked.startswith("H") and given == "H")
            or (asked == "Q" and given.startswith("Q")))


def unnumbered_of(asked: str | None, given: str | None) -> bool:
    """Whether a part of the year a figure leaves unnumbered ('Q' of 'three months ended …', 'H' of an interim
    dividend) is of the kind of the numbered part asked ('Q2', 'H1'), so stands for it."""
    return bool(asked and given and len(given) == 1 and asked.startswith(given))


def part_fits(asked: str | None, given: str | None) -> bool:
    """Whether a figure of part `given` is of the part asked: the same part (None: the whole year), or one the
    figure leaves unnumbered (`unnumbered_of`: a table's 'Q' for the 'Q2' asked)."""
    return given == asked or unnumbered_of(asked, given)


def period_day(period: str | None) -> int:
    """A period that is a date ('2023-06-30') as a number that sorts by date; 0 for any other period."""
    day = re.fullmatch(r"((?:19|20)\d{2})-(\d{2})-(\d{2})", period or "")
    return int("".join(day.groups())) if day else 0
