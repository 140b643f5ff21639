"""Regulatory capital ratios as banks' reports table them: each ratio the bank holds beside the minimum its
regulators require (buffers included), read apart so that a requirement is never taken for the ratio held.

Two layouts are read:

- **Columns**: a header names dated columns and a minimum column ('March 31, 2021 | December 31, 2020 | Minimum
  capital ratios', once per approach), and each ratio's row gives a value per column ('CET1 capital ratio 13.1 %
  13.1 % 11.3 % 13.7 % 13.8 % 10.5 %'): the ratio held is the first dated column's, the minimum its group's.
- **Stacked**: under a header that names an 'Effective Minimum' and the day of the ratios, each measure's line
  gives its minimum ('Common Equity Tier 1 7.0 %') and the lines below it, one per entity, the ratios held
  ('American Express Company 10.3 %', 'American Express National Bank 11.3').

- `capital_ratios(text)`: the CapitalRatio records a text's tables state; none for a text that names no minimum.
- `held_ratios(text)`: the ratios a note's table states per day and entity with no minimum beside them.
- `measure_named(question)`: the ratio a question asks for by name ('CET1 capital ratio' → 'CET1'), or None.

Pure functions, no I/O: the offline composer words the judgement (composer/analyst.capital_answer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.text.dates import month_number

MEASURES = ("CET1", "Tier 1", "Total capital", "Tier 1 leverage", "Supplementary leverage")
"""The ratios read, in the order an answer states them."""

_MEASURE = re.compile(
    r"(?i)^(?:(?P<cet1>common\s+equity\s+tier\s*(?:1|one)|CET\s?(?:1|one))|(?P<lev>tier\s*(?:1|one)\s+leverage)|"
    r"(?P<slr>SLR|supplementary\s+leverage)|(?P<t1>tier\s*(?:1|one))|(?P<total>total))"
    r"(?:\s+(?:risk[- ]based\s+)?capital)?(?P<ratio>\s+(?:risk[- ]based\s+)?(?:capital\s+)?ratio)?(?:\s*\([a-z]\))?$")
_GROUP_NAMES = {"cet1": "CET1", "lev": "Tier 1 leverage", "slr": "Supplementary leverage", "t1": "Tier 1",
                "total": "Total capital"}
_VALUE = r"(?:\$\s*)?-?\d[\d,]*(?:\.\d+)?\s*%?|NA|N/A|—|-"
_ROW = re.compile(rf"^(?P<label>[A-Za-z][^\d%$]*?)\s+(?P<values>(?:{_VALUE})(?:\s+(?:{_VALUE}))*)\s*$")
_MINIMUM = re.compile(r"(?i)\b(?:effective\s+)?minimum\b|\brequire(?:d|ments?)\b")
_COLUMN = re.compile(r"(?i)(?P<month>January|February|March|April|May|June|July|August|September|October|"
                     r"November|December)\s+(?P<day>\d{1,2}),?\s+(?P<year>(?:19|20)\d{2})|(?P<min>minimum)|"
                     r"(?P<well>well[- ]capitali[sz]ed)")


@dataclass(frozen=True)
class CapitalRatio:
    """One regulatory ratio held and its minimum: the measure (one of MEASURES) and its name as the table writes
    it ('Common Equity Tier 1'), the entity the row names (None: the table's bank itself), the ratio held and the
    minimum required (per cent), the day ('2022-12-31', '' when the table states none) and the rows read, as the
    report writes them."""

    measure: str
    name: str
    entity: str | None
    held: float
    minimum: float
    day: str
    quote: str


def capital_ratios(text: str) -> list[CapitalRatio]:
    """The ratios held and their minimums a text's capital tables state (module docstring); none unless the text
    names a minimum or requirement."""
    if not _MINIMUM.search(text):
        return []
    # ('Tier 1' and 'CET1' spelled out, so that a row's label holds no digit its figures could be read from)
    lines = [_TIER_ONE.sub(r"\1 one", " ".join(line.split())) for line in text.splitlines()]
    return _columns(lines) or _stacked(lines)


_TIER_ONE = re.compile(r"(?i)\b(tier|CET)\s?1\b")


def _as_written(line: str) -> str:
    """A line as the report writes 'Tier 1' and 'CET1'."""
    return re.sub(r"(?i)\b(tier) one\b", r"\1 1", re.sub(r"(?i)\b(CET) one\b", r"\g<1>1", line))


def _measure(label: str) -> tuple[str, bool] | None:
    """(measure, whether the label says 'ratio') of a row label that names a capital measure."""
    found = _MEASURE.match(label.strip(" :"))
    return (_measure_of(found), bool(found.group("ratio"))) if found else None


def _measure_of(found: re.Match[str]) -> str:
    """The measure (one of MEASURES) a `_MEASURE` or `_ASKED` match names."""
    return next(_GROUP_NAMES[g] for g in _GROUP_NAMES if found.group(g))


def _values(text: str) -> list[float | None]:
    out: list[float | None] = []
    for token in re.findall(_VALUE, text):
        digits = re.sub(r"[^\d.-]", "", token)
        out.append(float(digits) if re.search(r"\d", digits) else None)
    return out


def _day(found: re.Match[str]) -> str:
    return f"{found.group('year')}-{month_number(found.group('month')):02d}-{int(found.group('day')):02d}"


def _columns(lines: list[str]) -> list[CapitalRatio]:
    """The columns layout: a header of dated and minimum columns, then ratio rows with a value per column."""
    out: dict[str, CapitalRatio] = {}
    header: list[str] = []
    head_text = ""
    for line in lines:
        row = _ROW.match(line)
        measure = _measure(row.group("label")) if row else None
        if not row or measure is None:
            head_text += " " + line
            continue
        if not header:
            header = ["min" if c.group("min") else "well" if c.group("well") else _day(c)
                      for c in _COLUMN.finditer(head_text)]
        values = _values(row.group("values"))
        name, says_ratio = measure
        # (a chunk may repeat the header cut short: the first group of columns is what is read)
        if "min" not in header or len(values) < len(header) or not (says_ratio or "%" in row.group("values")):
            continue
        end = header.index("min")
        held_at = next((i for i in range(end) if header[i] not in ("min", "well")), None)
        if held_at is None or values[held_at] is None or values[end] is None or name in out:
            continue
        out[name] = CapitalRatio(name, _as_written(row.group("label").strip()), None, values[held_at], values[end],
                                 header[held_at], _as_written(line))
    return list(out.values())


def _stacked(lines: list[str]) -> list[CapitalRatio]:
    """The stacked layout: a measure's line gives its minimum, the entity lines below it the ratios held."""
    text = " ".join(lines)
    days = [_day(c) for c in _COLUMN.finditer(text) if c.group("year")]
    day = days[0] if days else ""
    out: list[CapitalRatio] = []
    current: tuple[str, float, str] | None = None
    label = ""
    for line in lines:
        row = _ROW.match(line)
        if not row:  # (a heading between a measure and its entities ends it)
            current = None
            continue
        values = _values(row.group("values"))
        measure = _measure(row.group("label"))
        if measure is not None and len(values) == 1 and values[0] is not None:
            current = (measure[0], values[0], line)
            label = _as_written(row.group("label").strip())
            continue
        if current is None or len(values) != 1 or values[0] is None or measure is not None:
            current = None
            continue
        name, minimum, head = current
        out.append(CapitalRatio(name, label, _as_written(row.group("label").strip()), values[0], minimum, day,
                                _as_written(f"{head} … {line}")))
    return out


@dataclass(frozen=True)
class HeldRatio:
    """One regulatory ratio held at a day, with no minimum beside it (`held_ratios`)."""

    measure: str
    entity: str
    held: float
    day: str


_RATIO_NAME = re.compile(r"(?i)\b(?:CET\s?1|common\s+equity\s+tier\s*1|tier\s*1(?:\s+leverage)?|total|supplementary\s+"
                         r"leverage)(?:\s+(?:risk[- ]based\s+)?capital)?\s+ratio\b")
_DATED_ENTITY = re.compile(r"(?P<date>(?:January|February|March|April|May|June|July|August|September|October|November|"
                           r"December)\s+\d{1,2},?\s+(?:19|20)\d{2})\s*:\s*")
_ENTITY_ROW = re.compile(r"(?P<entity>[A-Z][A-Za-z&.,'’ -]{2,60}?)\s+(?P<values>(?:(?:\$\s*)?\d[\d,]*(?:\.\d+)?\s*%?\s*)+)")


def held_ratios(text: str) -> list[HeldRatio]:
    """The ratios a note's table of capital held states per day and entity, with no minimum beside them: a header
    naming the amounts and then the ratios in order ('CET 1 capital … CET 1 capital ratio Tier 1 capital ratio
    Total capital ratio Tier 1 leverage ratio'), and rows under each day ('December 31, 2021: American Express
    Company $ 17,554 $ 19,186 $ 21,506 10.5 % 11.5 % 12.9 % 10.5 %'), the per cents read in the header's order of
    ratios. None unless the header names a ratio."""
    flat = " ".join(text.split())
    names = [_measure_of(m) for r in _RATIO_NAME.finditer(flat) if (m := _MEASURE.match(r.group(0)))]
    if not names:
        return []
    out: list[HeldRatio] = []
    parts = _DATED_ENTITY.split(flat)
    for i in range(1, len(parts) - 1, 2):
        found = _COLUMN.search(parts[i])
        day = _day(found) if found and found.group("year") else ""
        for row in _ENTITY_ROW.finditer(parts[i + 1]):
            # (the per cents, each written with its sign, one per ratio the header names)
            rates = [float(v.rstrip("% ").replace(",", "")) for v in re.findall(r"\d[\d,]*(?:\.\d+)?\s*%",
                                                                              row.group("values"))]
            if day and len(rates) == len(names):
                out += [HeldRatio(m, _as_written(row.group("entity").strip(" ,")), v, day) for m, v in zip(names, rates)]
    return out


_ASKED = re.compile(
    r"(?i)\b(?:(?P<cet1>common\s+equity\s+tier\s*(?:1|one)|CET\s?1)|(?P<lev>tier\s*(?:1|one)\s+leverage\s+ratio)|"
    r"(?P<slr>supplementary\s+leverage\s+ratio|SLR)|(?P<t1>tier\s*(?:1|one))\s+(?:risk[- ]based\s+)?capital\s+ratio|"
    r"(?P<total>total)\s+(?:risk[- ]based\s+)?capital\s+ratio)\b")


def measure_named(question: str) -> str | None:
    """The regulatory capital ratio a question names ('What was its CET1 capital ratio …?' → 'CET1'; 'its Tier 1
    leverage ratio' → 'Tier 1 leverage'), or None."""
    found = _ASKED.search(question)
    return _measure_of(found) if found else None
