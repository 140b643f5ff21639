"""Dates a text states, in any of the forms reports and answers write them.

- `read_dates(text)`: the dates (as written, and as (year, month, day)), the halves and quarters ('H1', 'Q3'),
  and the text with all of them blanked out, so that the digits that remain are figures.
- `when_it_happened(text)`: the days and months a question dates its event by ('announce on 16 October 2024').
- `unsupported_dates(sentence, support)`: the sentence's dates and periods that the support does not state in
  any form.
- `periods_of_sentence(sentence)`: the fiscal years a report's sentence can be about (the periods it names, not
  its comparatives; else those its days' dates fall in).
- `MONTHS`: month names and abbreviations → month number; `LONG_MONTHS` the full names; `MONTH`: any of them as a regex fragment (use it
  case-insensitively); `month_number(word)`: 'Sept.' → 9, 'Sepember' → 9 (read by its first three letters).

Pure functions, no I/O.
"""

from __future__ import annotations

import re

from app.text.periods import HALF_OR_QUARTER, YEAR, half_or_quarter

_NAMES = [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
          ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
          ("december", "dec")]
MONTHS = {m: i for i, names in enumerate(_NAMES, start=1) for m in names}
"""Month names and their abbreviations (lower case) → month number."""
LONG_MONTHS = tuple(names[0] for names in _NAMES)
"""The months' full names, January to December (lower case)."""
MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
"""A month name or abbreviation, optionally with a full stop, as a regex fragment (use it case-insensitively)."""
_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
          r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
# Most specific first; each match is blanked before the next pattern runs. Groups: year, month, day (by name).
_DATE_FORMS = [re.compile(p) for p in (
    rf"\b(?P<year>{YEAR})-(?P<month>\d{{2}})-(?P<day>\d{{2}})\b",
    # '3/25/2023' as US filings write it (month first), '25/3/2023' when the first number cannot be a month
    rf"\b(?P<month>1[0-2]|0?[1-9])/(?P<day>3[01]|[12]\d|0?[1-9])/(?P<year>{YEAR})\b",
    rf"\b(?P<day>1[3-9]|2\d|3[01])/(?P<month>1[0-2]|0?[1-9])/(?P<year>{YEAR})\b",
    rf"\b(?:FY\s?)?(?P<year>{YEAR})\s?[-/–]\s?(?P<year2>{YEAR}|\d{{2}})\b(?![.,]\d|%)",  # 2017-18, 2017/2018
    rf"\b(?P<day>{_DAY})\s+(?P<month>{_MONTH}),?\s+(?P<year>{YEAR})\b",
    rf"\b(?P<month>{_MONTH})\s+(?P<day>{_DAY}),?\s+(?P<year>{YEAR})\b",
    rf"\b(?P<month>{_MONTH}),?\s+(?P<year>{YEAR})\b",
    rf"\b(?P<day>{_DAY})\s+(?P<month>{_MONTH})(?![\w])",
    rf"\b(?P<month>{_MONTH})\s+(?P<day>{_DAY})\b(?![.,]?\d)",
    rf"(?i)\b(?:FY\s?'?|fiscal(?:\s+year)?\s+|financial\s+year\s+)(?P<year>{YEAR}|\d{{2}})\b(?![.,]\d|%)",
    rf"(?<![\w.,£$€])(?P<year>{YEAR})(?![\w%]|[.,]\d|\s?(?:million|billion|thousand|mn|bn|m|k)\b)",
    r"\b(?P<month>January|February|March|April|June|July|August|September|October|November|December)\b",
)]

DateKey = tuple[int | None, int | None, int | None]  # year, month, day (None where the text does not say)


def read_dates(text: str) -> tuple[list[tuple[str, DateKey]], set[str], str]:
    """The dates a text states (as written, and as (year, month, day)), its halves and quarters ('H1', 'Q3'),
    and the text with all of them blanked out, so that what digits remain are figures."""
    dates: list[tuple[str, DateKey]] = []
    periods: set[str] = set()

    def blank(match: re.Match[str]) -> str:
        return " " * len(match.group(0))

    for form in _DATE_FORMS:
        for match in form.finditer(text):
            dates.extend((match.group(0).strip(), key) for key in _date_keys(match))
        text = form.sub(blank, text)
    for form in HALF_OR_QUARTER:
        periods.update(half_or_quarter(match) for match in form.finditer(text))
        text = form.sub(blank, text)
    return dates, periods, text


def when_it_happened(text: str) -> list[DateKey]:
    """The days and months a question dates its event by ('What did Copperleaf announce on 16 October 2024?',
    'What did Helio announce in June 2025?'): a date after 'in', 'on' or 'during', with its year and month; not one
    that names a thing ('its July 2024 network outage' is dated by the outage, not by when it is reported)."""
    out = []
    for written, key in read_dates(text)[0]:
        at = text.find(written)
        if key[0] and key[1] and at >= 0 and re.search(r"(?i)\b(?:in|on|during)\s+(?:early\s+|late\s+|mid-?)?$",
                                                       text[:at]):
            out.append(key)
    return out


def unsupported_dates(sentence: str, support: str) -> list[str]:
    """The sentence's dates and periods that the support does not state in any form: each year must be a year
    of the support, each month with that year (or any month, undated) one of its months, each day one of its
    days; 'H1' is found as 'H1' or 'first half'."""
    wanted, periods, _ = read_dates(sentence)
    have, have_periods, _ = read_dates(support)
    keys = [k for _, k in have] + _header_day_years(support)
    years = {hy for hy, _, _ in keys if hy is not None}
    missing = []
    for text, (y, mo, d) in wanted:
        # a table's header may split its day from its year ('Three months ended March 31,' above '2021 2020'): a
        # day the support states without a year holds for a year it states elsewhere
        ok = any((y is None or y == hy or (hy is None and y in years)) and (mo is None or mo == hm)
                 and (d is None or d == hd) for hy, hm, hd in keys)
        if not ok:
            missing.append(text)
    missing.extend(sorted(periods - have_periods))
    return missing


_HEADER_DAY = re.compile(rf"\b(?P<month>{_MONTH})\s+(?P<day>{_DAY}),?\s+(?P<years>{YEAR}(?:\s+{YEAR})+)\b(?![.,]\d|%)")


def _header_day_years(support: str) -> list[DateKey]:
    """The days a table's header states for each of its columns' years: 'Three Months Ended December 31,' above
    '2022 2021' ends both years on December 31 (`read_dates` reads the day with the first year only)."""
    keys: list[DateKey] = []
    for match in _HEADER_DAY.finditer(support):
        day = int(re.sub(r"\D", "", match.group("day")))
        keys.extend((int(y), month_number(match.group("month")), day) for y in match.group("years").split()[1:])
    return keys


_PERIOD_TO_MONTH = re.compile(rf"(?i)\b(?:quarter|half(?:[- ]year)?|year|months|period|weeks)\s+(?:to|ended|ending|"
                              rf"through)\s+(?:the\s+end\s+of\s+)?(?P<month>{_MONTH}),?\s+(?P<year>{YEAR})\b|"
                              rf"\b(?P<month2>{_MONTH})\s+(?P<year2>{YEAR})\s+(?:quarter|half(?:[- ]year)?)\b|"
                              # 'the October-December 2022 quarter': the months it runs from and to
                              rf"\b{_MONTH}\s*(?:-|–|—|to|through)\s*(?P<month3>{_MONTH}),?\s+(?P<year3>{YEAR})\s+"
                              rf"(?:quarter|half(?:[- ]year)?|period)\b")


def period_end_months(text: str) -> list[tuple[int, int]]:
    """(year, month) of each period a text names by the month it ends in, without its day: 'the quarter to
    December 2022', 'the half-year ended June 2024', 'the December 2022 quarter', 'the October-December 2022
    quarter'."""
    out = []
    for match in _PERIOD_TO_MONTH.finditer(text):
        month = match.group("month") or match.group("month2") or match.group("month3")
        year = match.group("year") or match.group("year2") or match.group("year3")
        out.append((int(year), month_number(month)))
    return out


def month_number(word: str) -> int | None:
    """The month a word names, by its first three letters: 'Sept.' → 9, 'December' → 12; None for no month."""
    return MONTHS.get(word.lower().rstrip(".")[:3])


def _year(text: str) -> int:
    return int(text) + (2000 if len(text) == 2 else 0)


def _date_keys(match: re.Match[str]) -> list[DateKey]:
    """(year, month, day) of a date match; a span of years ('2017-18') states both years."""
    found = match.groupdict()
    year, month, day = found.get("year"), found.get("month"), found.get("day")
    month_number = (int(month) if month.isdigit() else MONTHS.get(month.rstrip(".").lower())) if month else None
    keys: list[DateKey] = [(_year(year) if year else None, month_number, int(re.sub(r"\D", "", day)) if day else None)]
    if found.get("year2"):
        keys.append((_year(found["year2"]), None, None))
    return keys


_PERIOD_NAMED = re.compile(r"(?i)\b(?:fiscal(?:\s+year)?|FY)\s*'?((?:19|20)?\d{2})\b|\b(?:during|in|for)\s+(?:the\s+)?"
                           r"(?:(?:calendar|financial)\s+)?(?:year\s+)?((?:19|20)\d{2})\b(?![,/]?\s*\d)")


_COMPARED_PERIOD = re.compile(r"(?i)\b(?:compared\s+(?:to|with)|versus|vs\.?|from|against|over)\s+(?:the\s+)?"
                              r"(?:(?:fiscal|financial|calendar)\s+)?(?:year\s+)?(?:FY\s*)?(?:19|20)\d{2}\b")


def periods_of_sentence(sentence: str) -> set[int]:
    """The fiscal years a sentence can be about: those it names as periods ('During fiscal 2015', 'in 2023',
    'FY24'); else those its days' dates can fall in, the year's own and, as fiscal years are named, the next for
    a date from April on ('On August 1, 2023' is in the year a June year-end calls 2024) or the one before for a
    date in January to March (a retailer's fiscal 2014 ends in January 2015); empty when it names neither."""
    # a comparative is no period of the sentence's own ('… was $1.58bn (FY2023: $1.32bn)', 'compared to fiscal 2015')
    own = _COMPARED_PERIOD.sub(" ", re.sub(r"\([^)]*\)", " ", sentence))
    years = set()
    for match in _PERIOD_NAMED.finditer(own):
        digits = match.group(1) or match.group(2)
        years.add(int(digits) if len(digits) == 4 else 2000 + int(digits))
    if years:
        return years
    for _, (year, month, day) in read_dates(own)[0]:
        if year and month and day:
            years |= {year, year + 1} if month >= 4 else {year - 1, year}
    return years
