"""Which filing a document is, and which company a name means. Pure functions, no I/O.

Readers:
- `read_name(name)`: a file name, record title or source id such as `BESTBUY_2019_10K`, `Pfizer_2023Q2_10Q`,
  `AMCOR_2022_8K_dated-2022-07-01`, `JOHNSON_JOHNSON_2022Q4_EARNINGS` or `BESTBUY_2019_10K:p12` (page 12 of
  it); freer names give only their `fy2023` mark (`acme-fy2023.md`). A bare year in a free name is not read.
- `read_cover(text)`: the first page(s) of a filing or release: the registrant ("… (Exact name of registrant as
  specified in its charter)", or a short line such as "3M COMPANY" or "Best Buy Co., Inc."), the form ("FORM
  10-K", "QUARTERLY REPORT PURSUANT TO SECTION 13", earnings-release wording), the period ("For the fiscal year
  ended February 2, 2019", "For the quarterly period ended June 30, 2023", "year ended 30 June 2024") and the
  ticker ("Trading Symbol(s) … BBY", "NYSE: BBY").
- `read_identity(*names, text=...)`: both together; what a name says wins over what the text says.

Fiscal-year rule (kept simple on purpose): the fiscal year is the calendar year in which the period ends, so a
year ended 30 June 2024 is FY2024 and a retailer's year ended 2 February 2019 is FY2019. The one exception: a
year stated in the file name or title wins over the one read from the text.

Company names: `normalize_company` is the key under which spellings of one company meet ("PFIZER", "Pfizer",
"Pfizer Inc." → "pfizer"; "JOHNSON_JOHNSON", "Johnson & Johnson" → "johnsonjohnson"); `display_company` is the
spelling to show for a registrant name ("ACTIVISION BLIZZARD, INC." → "Activision Blizzard").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, fields, replace
from datetime import date
from functools import lru_cache

from app.text.dates import month_number
from app.text.periods import YEAR

CORPORATE_SUFFIXES = frozenset({
    "inc", "incorporated", "corp", "corporation", "co", "company", "companies", "ltd", "limited", "plc",
    "holdings", "holding", "group", "llc", "lp", "sa", "ag", "nv", "se",
})
FORMS = ("10-K", "10-Q", "8-K", "earnings", "annual", "half-year")
"""SEC forms, an earnings release, and the annual and half-year reports of other markets ('WATTLEGROVE_2024_AR',
'WATTLEGROVE_2025H1_HY')."""
_EXTENSIONS = {".pdf", ".txt", ".md", ".markdown", ".html", ".htm", ".json", ".jsonl"}


@dataclass(frozen=True)
class FilingIdentity:
    """What a document says about itself; None where it says nothing. `aliases`: other spellings of the
    company seen on the way (the file-name token, the registrant as written)."""

    company: str | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None
    form: str | None = None
    period_end: date | None = None
    filing_date: date | None = None
    ticker: str | None = None
    aliases: tuple[str, ...] = ()

    def fill(self, other: FilingIdentity) -> FilingIdentity:
        """This identity with its missing fields taken from `other` (what this one says wins)."""
        updates = {f.name: getattr(other, f.name) for f in fields(self)
                   if getattr(self, f.name) in (None, ()) and getattr(other, f.name) not in (None, ())}
        return replace(self, **updates)


# --- company names ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def normalize_company(name: str) -> str:
    """The matching key of a company name: case, accents, punctuation, '&'/'and', a leading 'The', trailing
    corporate suffixes (Inc, Corp, Co, Company, Ltd, plc, Holdings, Group, …) and spaces all dropped.
    A name made only of a suffix ("Group") keeps it."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = re.sub(r"[.'’`]", "", text)  # "Co." "Moody's" "S.A." stay one word
    words = [w for w in re.findall(r"[a-z0-9]+", text) if w != "and"]
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    while len(words) > 1 and words[-1] in CORPORATE_SUFFIXES:
        words.pop()
    return "".join(words)


def display_company(name: str, text: str | None = None) -> str:
    """A registrant name as a person writes it: suffixes and a leading 'The' dropped. Where `text` (the filing)
    writes the same words in mixed case ('CVS HEALTH CORP' on the cover, 'CVS Health' in the text), that spelling;
    otherwise each word set all in capitals in title case, except short ones, which are acronyms ('CVS', 'MGM',
    'AT&T', '3M'), and a web suffix in lower case ('AMAZON.COM' → 'Amazon.com')."""
    words = name.strip().replace("_", " ").split()
    while len(words) > 1 and normalize_company(words[-1]) in CORPORATE_SUFFIXES | {""}:
        words.pop()
    if len(words) > 1 and words[0].lower() == "the":
        words = words[1:]
    text_name = " ".join(words).rstrip(" ,;")
    if not text_name:
        return name.strip()
    if text and text_name.isupper():
        pattern = r"\s+".join(re.escape(w) for w in text_name.split())
        for found in re.finditer(rf"(?<![\w&])({pattern})(?![\w&])", text, re.IGNORECASE):
            if any(c.islower() for c in found.group(1)):
                return " ".join(found.group(1).split())
    if any(c.islower() for c in text_name):
        return " ".join(_title_word(w) if w.isupper() and len(w) > 4 else w for w in text_name.split())
    return " ".join(_title_word(w) for w in text_name.split())


def _title_word(word: str) -> str:
    """One all-capitals word as a name writes it: 'ACTIVISION' → 'Activision', 'AMAZON.COM' → 'Amazon.com';
    'CVS', 'AT&T', '3M' and any word of three letters or fewer stay as they are."""
    if len(word.strip(".,")) <= 3 or any(ch.isdigit() or ch == "&" for ch in word):
        return word
    head, dot, tail = word.partition(".")
    return head.capitalize() + (dot + tail.lower() if dot else "")


def same_company(a: str | None, b: str | None) -> bool:
    """Whether two names have the same key (see `normalize_company`)."""
    return bool(a and b) and normalize_company(a) == normalize_company(b)  # type: ignore[arg-type]


def spelling_rank(name: str | None) -> tuple[bool, bool, bool, bool]:
    """How human a spelling looks; higher is better: has lower-case letters, has no underscores, has no
    corporate suffix, has spaces. "Activision Blizzard" > "Pfizer" > "Pfizer Inc." > "ACTIVISIONBLIZZARD" >
    "JOHNSON_JOHNSON"."""
    if not name:
        return (False, False, False, False)
    words = name.replace("_", " ").split()
    suffixed = len(words) > 1 and normalize_company(words[-1]) in CORPORATE_SUFFIXES
    return (any(c.islower() for c in name), "_" not in name, not suffixed, len(words) > 1)


# --- fiscal years and forms -------------------------------------------------------------------------------------

_YEAR_ARG = re.compile(r"(?i)^\s*(?:(?:fy|fiscal(?:\s+year)?)[\s'_-]*(\d{4}|\d{2})|(\d{4}))\s*$")


def parse_fiscal_year(value: str) -> int:
    """'2024', 'FY2024', 'fy2024', 'FY 2024', 'FY24' → 2024. Raises ValueError for anything else, and for a
    year outside 1900–2200. A bare two-digit number is refused (it is too easily a typo)."""
    match = _YEAR_ARG.match(value or "")
    if not match:
        raise ValueError(f"not a fiscal year: {value!r} (expected e.g. 2024, FY2024 or FY24)")
    digits = match.group(1) or match.group(2)
    year = 2000 + int(digits) if len(digits) == 2 else int(digits)
    if not 1900 <= year <= 2200:
        raise ValueError(f"{value!r} is not a plausible fiscal year")
    return year


def normalize_form(value: str) -> str | None:
    """'10K', '10-k', 'Form 10-Q', 'EARNINGS', 'earnings release' → '10-K', '10-Q', 'earnings'; 'AR', 'annual
    report' → 'annual'; 'HY', 'half-year report', 'interim report' → 'half-year'; None if unknown."""
    text = re.sub(r"[\s_-]+", "", value).lower().removeprefix("form")
    if text.startswith("earnings"):
        return "earnings"
    if text in ("ar", "annual", "annualreport", "integratedreport"):
        return "annual"
    if text in ("hy", "halfyear", "halfyearreport", "halfyearly", "halfyearlyreport", "interim", "interimreport",
                "ir"):
        return "half-year"
    match = re.fullmatch(r"(10|8)-?([kq])(?:/a)?", value.strip().lower().removeprefix("form").strip().replace(" ", ""))
    if not match or (match.group(1) == "8" and match.group(2) == "q"):
        return None
    return f"{match.group(1)}-{match.group(2).upper()}"


# --- names --------------------------------------------------------------------------------------------------------

_SEP = r"[_\s-]+"
_NAME = re.compile(
    rf"""(?ix)^
    (?P<company>[a-z0-9][a-z0-9&.'-]*?(?:[_\s]+[a-z0-9&.'-]+?)*?)
    {_SEP}(?:fy[_\s-]?)?(?P<year>(?:19|20)\d{{2}})(?:[_\s-]?q(?P<quarter>[1-4])|[_\s-]?h(?P<half>[12]))?
    {_SEP}(?P<form>10-?k|10-?q|8-?k|earnings(?:[_\s-]?release)?|ar|annual(?:[_\s-]?report)?|hy|ir|half[_\s-]?year
    (?:[_\s-]?report)?|interim(?:[_\s-]?report)?)
    (?:{_SEP}dated{_SEP}(?P<filed>\d{{4}})[_\s-](?P<fm>\d{{2}})[_\s-](?P<fd>\d{{2}}))?
    (?:[_\s-].*)?$""")
_FY_IN_NAME = re.compile(rf"(?i)fy[\s_-]?({YEAR})(?!\d)")


def _bare_name(name: str) -> str:
    """The last path part of a name, without a '#record' or ':p12' suffix or a known file extension."""
    text = name.strip().replace("\\", "/").rsplit("/", 1)[-1]
    text = text.split("#", 1)[0]
    text = re.sub(r"(?i):p(?:age)?\s*\d+$", "", text)
    for ext in _EXTENSIONS:
        if text.lower().endswith(ext):
            return text[: -len(ext)]
    return text


def read_name(name: str) -> FilingIdentity:
    """What a file name, title or source id says: see the module docstring for the shapes read."""
    bare = _bare_name(name)
    match = _NAME.match(bare)
    if not match:
        found = _FY_IN_NAME.search(bare)
        return FilingIdentity(fiscal_year=int(found.group(1)) if found else None)
    filed = None
    if match.group("filed"):
        try:
            filed = date(int(match.group("filed")), int(match.group("fm")), int(match.group("fd")))
        except ValueError:
            filed = None
    token = re.sub(r"[_\s]+", " ", match.group("company")).strip()
    # a half year is read as the quarter it ends with: H1 ends the second quarter
    quarter = int(match.group("quarter")) if match.group("quarter") else (
        2 * int(match.group("half")) if match.group("half") else None)
    return FilingIdentity(
        company=token, fiscal_year=int(match.group("year")),
        fiscal_quarter=quarter,
        form=normalize_form(match.group("form")), filing_date=filed,
        aliases=(match.group("company"),) if match.group("company") != token else (),
    )


# --- cover pages --------------------------------------------------------------------------------------------------

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE = rf"(?:(?P<m1>{_MONTH})\s+(?P<d1>\d{{1,2}}),?\s+(?P<y1>\d{{4}})|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH}),?\s+(?P<y2>\d{{4}}))"
_PERIOD = re.compile(
    rf"(?i)\b(?P<kind>fiscal\s+year|year|quarterly\s+period|quarter|period"
    rf"|(?:three|six|nine|twelve|3|6|9|12)[\s-]+months?|(?:thirteen|fifty[\s-]two|fifty[\s-]three|13|52|53)[\s-]+weeks)"
    rf"\s+ended\s*:?\s*{_DATE}")
_QUARTERLY_KINDS = ("quarter", "three", "3", "thirteen", "13")
_FORM_HEADER = re.compile(r"\bFORM\s+(10-?K|10-?Q|8-?K)(?:/A)?\b")
_FORM_WORDS = [
    (re.compile(r"(?i)\bannual\s+report\s+pursuant\s+to\s+section\s+13"), "10-K"),
    (re.compile(r"(?i)\bquarterly\s+report\s+pursuant\s+to\s+section\s+13"), "10-Q"),
    (re.compile(r"(?i)\bcurrent\s+report\s+pursuant\s+to\s+section\s+13"), "8-K"),
]
_EARNINGS = re.compile(
    r"(?i)\bearnings\s+(?:press\s+)?release\b"
    r"|\b(?:reports?|announces?|posts?|delivers?)\b[^.\n]{0,80}?\b(?:results|earnings)\b")
_FORM_LOOSE = re.compile(r"(?i)(?<!\bon )(?<!\bin )(?<!\bour )\bform\s+(10-?K|10-?Q|8-?K)\b")
_QUARTER_WORD = re.compile(r"(?i)\b(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\b|\bQ([1-4])\b")
_QUARTER_NUMBERS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_YEAR_WORDS = re.compile(r"(?i)\b(?:full[\s-]year|fiscal(?:\s+year)?|FY|annual\s+report|integrated\s+report)\s*'?"
                         r"((?:19|20)\d{2})\b|\bQ[1-4]\s*(?:FY)?\s*((?:19|20)\d{2})\b|\b((?:19|20)\d{2})\s+annual\s+report\b"
                         r"|\b(?:financial|fiscal)\s+year\s+(?:\d{1,2}\s+)?[A-Za-z]+\s+(?:(?:19|20)\d{2}\s+)?(?:to|–|-)\s+"
                         r"(?:\d{1,2}\s+)?[A-Za-z]+\s+((?:19|20)\d{2})\b")
_REGISTRANT = re.compile(r"(?i)\(?\s*exact\s+name\s+of\s+(?:the\s+)?registrant\s+as\s+specified\s+in\s+its\s+charter\s*\)?")
_SUFFIX_WORDS = (r"(?:INC\.?|Inc\.?|INCORPORATED|Incorporated|CORPORATION|Corporation|CORP\.?|Corp\.?|COMPANY|Company"
                 r"|CO\.|Co\.|PLC|plc|LTD\.?|Ltd\.?|LIMITED|Limited|N\.V\.|S\.A\.|AG|LLC|HOLDINGS|Holdings)")
_NAME_LINE = re.compile(rf"^(?:THE\s+|The\s+)?[A-Z0-9][A-Za-z0-9&.'’ -]{{0,60}}?,?\s+{_SUFFIX_WORDS}(?:,?\s+{_SUFFIX_WORDS})*$")
_NAME_START = re.compile(r"[A-Z][A-Za-z&.'’-]*(?:\s+[A-Z][A-Za-z&.'’-]*){0,2}")
_COVER_WORDS = re.compile(r"(?i)\b(?:annual|report|review|statements?|form|contents|year|half|quarterly|interim|"
                          r"results|accounts|limited|ltd|inc|plc|ag|corporation|company)\b")
_TICKER_STOP = {"NYSE", "LLC", "INC", "USD", "PAR", "THE", "NONE", "NA", "ADS", "ADR", "CLASS", "LSE", "TSX",
                "SEC", "CIK", "IRS", "I", "II", "III", "A", "B", "C"}
_TICKER_BEFORE_EXCHANGE = re.compile(
    r"\b([A-Z]{1,5}(?:\.[A-Z])?)\s+(?=(?:The\s+)?(?:New\s+York\s+Stock\s+Exchange|NYSE|Nasdaq|NASDAQ|Chicago\s+Stock"
    r"|London\s+Stock|Euronext))")
_TICKER_AFTER_EXCHANGE = re.compile(r"\b(?:NYSE(?:\s+American|\s+Arca)?|NASDAQ|Nasdaq|TSX(?:-V)?|LSE|ASX|NZX|SGX|HKEX|"
                                    r"SIX|XETRA|TSE|JPX)\s*:\s*([A-Z]{1,5}(?:\.[A-Z])?|\d{4})\b")
_TICKER_WORD = re.compile(r"\b(?i:ticker(?:\s+symbol)?|stock\s+code|securities\s+code|under\s+the\s+(?:ticker\s+)?"
                          r"symbol)\s*:?\s+([A-Z]{2,5}|\d{4})\b")
_DATE_OF_REPORT = re.compile(rf"(?i)date\s+of\s+report[^:\n]{{0,60}}:\s*{_DATE}")
COVER_CHARS = 10_000  # how much of a document counts as its cover


def _date_from(match: re.Match[str]) -> date | None:
    month = match.group("m1") or match.group("m2")
    day = match.group("d1") or match.group("d2")
    year = match.group("y1") or match.group("y2")
    number = month_number(month)
    try:
        return date(int(year), number, int(day)) if number else None
    except ValueError:
        return None


def read_form(text: str) -> str | None:
    """The form of a filing from its cover: the 'FORM 10-K' header, the cover's 'ANNUAL/QUARTERLY/CURRENT
    REPORT PURSUANT TO SECTION 13' line, earnings-release wording, then a 'Form 10-Q' not preceded by 'on'."""
    cover = text[:COVER_CHARS]
    found = _FORM_HEADER.search(cover)
    if found:
        return normalize_form(found.group(1))
    for pattern, form in _FORM_WORDS:
        if pattern.search(cover):
            return form
    if _EARNINGS.search(cover[:3000]):
        return "earnings"
    loose = _FORM_LOOSE.search(cover[:3000])
    return normalize_form(loose.group(1)) if loose else None


def read_period(text: str) -> tuple[date | None, bool]:
    """The first 'period ended DATE' of a cover: (the end date, whether the period is a quarter)."""
    found = _PERIOD.search(text[:COVER_CHARS])
    if not found:
        return None, False
    kind = found.group("kind").lower()
    return _date_from(found), kind.startswith(_QUARTERLY_KINDS)


_RELEASE_NAME = re.compile(
    r"(?:^|--|[-—–]\s|\)\s)\s*((?:[A-Z][\w&.'’-]*,?\s+){0,5}?[A-Z][\w&.'’-]*)\s*\((?:NYSE|NASDAQ|Nasdaq|NYSE\s+"
    r"American|LSE|ASX|TSX|Euronext|SIX)\s*:\s*[A-Z][A-Z.]{0,6}\)\s+(?:today\s+)?(?:announced|reported|released)\b")
"""The company an earnings release names in its dateline, before its ticker: 'Ulta Beauty, Inc. (NASDAQ: ULTA)
today announced …', 'PepsiCo, Inc. (NASDAQ: PEP) today reported …'."""


def read_registrant(text: str) -> tuple[str | None, bool]:
    """The registrant's name as written, and whether it came from the reliable 'Exact name of registrant'
    line (rather than from a release's dateline or a short line ending in Inc./Company/plc…)."""
    cover = text[:COVER_CHARS]
    found = _REGISTRANT.search(cover)
    if found:
        before = cover[:found.start()].rstrip()
        line = before.rsplit("\n", 1)[-1].strip()
        line = re.sub(r"(?i)^.*?file\s+number:?\s*[\w-]+\s*", "", line).strip(" :")
        if line and re.search(r"[A-Za-z]", line) and len(line) <= 80:
            return line, True
    # a release's dateline: '… --(BUSINESS WIRE)-- Ulta Beauty, Inc. (NASDAQ: ULTA) today announced …'
    if dated := _RELEASE_NAME.search(" ".join(cover.split())):
        return dated.group(1).strip(" ,"), False
    lines = [" ".join(line.split()) for line in cover.splitlines()[:60]]
    for i, line in enumerate(lines):
        if _NAME_LINE.match(line):
            before = lines[i - 1] if i else ""
            # a name set over two lines, as a logo does: 'RHEINFELD' / 'Antriebstechnik AG'
            if _NAME_START.fullmatch(before) and not _COVER_WORDS.search(before):
                return f"{before} {line}", False
            return line, False
    return None, False


def read_ticker(text: str) -> str | None:
    """A ticker from the cover's 'Trading Symbol(s)' table, an 'NYSE: BBY' mention, or 'ticker BBY'."""
    cover = text[:COVER_CHARS]
    header = re.search(r"(?i)trading\s+symbols?(?:\(s\))?", cover)
    if header:
        window = cover[header.end():header.end() + 500]
        window = re.sub(r"(?i)name\s+of\s+each\s+exchange\s+on\s+which\s+registered", " ", window)
        for candidate in _TICKER_BEFORE_EXCHANGE.findall(window):
            if candidate not in _TICKER_STOP:
                return candidate
    for pattern in (_TICKER_AFTER_EXCHANGE, _TICKER_WORD):
        for candidate in pattern.findall(cover):
            if candidate not in _TICKER_STOP:
                return candidate
    return None


def read_cover(text: str) -> FilingIdentity:
    """What the first page(s) of a filing or release say about it (see the module docstring)."""
    registrant, _reliable = read_registrant(text)
    form = read_form(text)
    period_end, quarterly = read_period(text)
    fiscal_year = period_end.year if period_end else None
    if fiscal_year is None:
        found = _YEAR_WORDS.search(text[:3000])
        fiscal_year = int(next(g for g in found.groups() if g)) if found else None
    quarter = None
    if form in ("10-Q", "earnings") or quarterly:
        found = _QUARTER_WORD.search(text[:3000])
        if found:
            quarter = _QUARTER_NUMBERS[found.group(1).lower()] if found.group(1) else int(found.group(2))
    filed = _DATE_OF_REPORT.search(text[:COVER_CHARS])
    return FilingIdentity(
        company=registrant, fiscal_year=fiscal_year, fiscal_quarter=quarter, form=form, period_end=period_end,
        filing_date=_date_from(filed) if filed else None, ticker=read_ticker(text),
    )


# --- both together ------------------------------------------------------------------------------------------------


def related_names(token: str, registrant: str) -> bool:
    """A file-name token and a registrant name are one company: same key, or the token starts the
    registrant's key ('MGMRESORTS' for 'MGM Resorts International')."""
    a, b = normalize_company(token), normalize_company(registrant)
    return a == b or (len(a) >= 4 and b.startswith(a))


def read_identity(*names: str | None, text: str | None = None) -> FilingIdentity:
    """Names (title, source id, file name: earlier ones win) first, then the cover text fills the gaps.

    The company: a registrant from the cover that is the file-name token's company gives the display spelling
    (the token stays an alias); an unrelated registrant is kept as an alias only when it came from the
    'Exact name of registrant' line; with no token, the registrant is the company."""
    found = FilingIdentity()
    for name in names:
        if name:
            found = found.fill(read_name(name))
    if not text:
        return found
    cover = read_cover(text)
    registrant, reliable = read_registrant(text)
    company, aliases = found.company, list(found.aliases)
    if registrant:
        shown = display_company(registrant, text)
        if company is None:
            company = shown
            aliases.append(registrant)
        elif related_names(company, registrant):
            aliases = [company, *aliases, registrant]
            company = shown
        elif reliable:
            aliases.append(registrant)
    if company and company.isupper() and registrant and not related_names(company, registrant):
        # a file-name token in capitals whose filing the company filed under an earlier name ('BLOCK' for Square,
        # Inc.'s report): the token as the text spells it, else in title case ('Block'), the token an alias
        aliases.append(company)
        company = display_company(company, text)
    aliases = list(dict.fromkeys(a for a in aliases if a and a != company))
    return replace(found.fill(cover), company=company, aliases=tuple(aliases))
