"""How a company names a fiscal year that ends early in the next calendar year, read from its own words.

A 52- or 53-week year that ends in late January or February is named by some companies for the calendar year it
began in ("fiscal 2022 ended January 28, 2023") and by others for the year it ends in ("fiscal 2023 ended
January 28, 2023"). Prov dates every report and figure by the calendar year its period ends in (app/text/
identity.py), as statements date their columns ('January 28, 2023') and as analysts and file names do
('ULTABEAUTY_2023Q4_EARNINGS', "FY2023"). A question that speaks the company's own words ("from fiscal 2021 to
fiscal 2022") of a company that names its years by their start means the years Prov dates a year on.

- `names_by_start(passages)`: whether a company's passages, each with the fiscal year its report is filed as,
  say it names its years by the year they began: in so many words ('fiscal 2022 ended January 28, 2023', 'the
  52 weeks ended January 28, 2023 ("fiscal 2022")'), or by a report of a year that ended in January or
  February heading its own year as the one before ('Fourth Quarter Fiscal 2022 Results' in the report filed as
  FY2023). Words that name a year by its end ('fiscal 2023 ended February 3, 2023') say no.
- `company_named_years(text)`: the years a text names in a company's own words, 'fiscal 2022', 'fiscal year
  2022', 'fiscal years 2021 and 2022'; 'FY2022' and a bare year are Prov's (the calendar year of the end).
- `in_prov_years(text)`: the text with those years written as Prov dates them ('from fiscal 2021 to fiscal 2022'
  → 'from FY2022 to FY2023'), for a company that names its years by their start.
- `shift_fiscal_words(text, by)`: the years a text names in fiscal words moved by `by` ('During fiscal 2022' →
  'During fiscal 2023'): what lets the readers date a start-naming company's sentences as Prov dates its years,
  and `by=-1` gives the company's own words back for what is quoted from them.
- `prov_dated(docs, starting)` and `in_own_words(figures, starting)`: documents (any model with `text` and
  `company`) so shifted for the companies in `starting`, and the figures read from them quoted in the company's
  words again.
- `naming_rule(company)`: how such a company's years are read, for a model's prompt.
- `naming_note(company, years)`: the sentence an answer carries when it dates such years a year on.

Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from app.text.periods import YEAR

_EARLY = r"(?:January|February|Jan\.?|Feb\.?)"
_NAMED_END = re.compile(
    rf"(?i)\bfiscal\s+(?:year\s+)?(?P<named>{YEAR})\b[”\"’')\s]*(?:\([^)]{{0,40}}\)\s*)?,?\s*"
    rf"(?:(?:which|that)\s+)?(?:(?:was|is)\s+(?:a\s+)?(?:\w+[\s-]+){{0,3}}weeks?(?:\s+(?:year|period))?\s+)?"
    rf"(?:ended|ending|ends|will\s+end)\s+(?:on\s+)?{_EARLY}\s+\d{{1,2}},?\s+(?P<year>{YEAR})")
"""'fiscal 2022 ended January 28, 2023', '(“fiscal 2022”) ended January 28, 2023', 'Fiscal 2022 was a 52-week
year ended January 28, 2023', 'fiscal year 2023 ending February 3, 2024'."""
_END_NAMED = re.compile(
    rf"(?i)\b(?:ended|ending)\s+(?:on\s+)?{_EARLY}\s+\d{{1,2}},?\s+(?P<year>{YEAR})\s*"
    rf"\(\s*[“\"']?\s*fiscal\s+(?:year\s+)?(?P<named>{YEAR})")
"""'the 52 weeks ended January 28, 2023 (“fiscal 2022”)'."""
_EARLY_END = re.compile(rf"(?i)\b(?:ended|ending)\s+(?:on\s+)?{_EARLY}\s+\d{{1,2}},?\s+(?P<year>{YEAR})\b")
"""A period that ended in January or February: 'fifty-two-week period (“fiscal year”) ended January 28, 2023'."""
_OWN_YEAR = re.compile(
    rf"(?i)\b(?:(?:fourth|4th)\s+quarter|full[\s-]+year|year)\s+(?:of\s+)?fiscal\s+(?:year\s+)?(?P<named>{YEAR})\b"
    rf"|\bfiscal\s+(?:year\s+)?(?P<results>{YEAR})\s+(?:(?:full[\s-]+year|annual|financial)\s+)?results\b")
"""How a report heads the year it reports on: 'For the Fourth Quarter of Fiscal 2022', 'For the Full Year of
Fiscal 2022', 'Fourth Quarter Fiscal 2022 Results'."""
_COMPANY_NAMED = re.compile(
    rf"(?i)\bfiscal\s+(?:years?\s+)?(?P<first>{YEAR})\b(?P<rest>(?:\s*(?:,|and|or|to|through|vs\.?|versus|-|–)\s*"
    rf"(?:fiscal\s+(?:year\s+)?)?{YEAR}\b)*)")
_YEAR = re.compile(YEAR)


def names_by_start(passages: Iterable[tuple[str, int | None]]) -> bool:
    """Whether a company's passages (text, the fiscal year its report is filed as) say it names its fiscal years
    by the calendar year they began. What the words say outright decides (and words both ways say no); without
    them, a report filed as year Y that says a period ended in January or February of Y and heads its own year
    as fiscal Y-1, and none as fiscal Y."""
    said: set[int] = set()
    early: set[int] = set()
    heads: dict[int, set[int]] = {}
    for text, filed in passages:
        said |= {int(m.group("year")) - int(m.group("named"))
                 for pattern in (_NAMED_END, _END_NAMED) for m in pattern.finditer(text)}
        if filed is None:
            continue
        early |= {int(m.group("year")) for m in _EARLY_END.finditer(text)} & {filed}
        heads.setdefault(filed, set()).update(int(m.group("named") or m.group("results"))
                                              for m in _OWN_YEAR.finditer(text))
    said &= {0, 1}
    if said:
        return said == {1}
    return any(heads.get(year) and max(heads[year]) == year - 1 for year in early)


def company_named_years(text: str) -> list[int]:
    """The years a text names in a company's own words, in order: 'fiscal 2022', 'fiscal year 2022', 'fiscal
    years 2021 and 2022', 'from fiscal 2021 to fiscal 2022'. 'FY2022' and bare years are not among them."""
    found: list[int] = []
    for m in _COMPANY_NAMED.finditer(text):
        for year in (int(m.group("first")), *(int(y) for y in _YEAR.findall(m.group("rest")))):
            if year not in found:
                found.append(year)
    return found


def in_prov_years(text: str) -> str:
    """The text with each year named in a company's own words written as Prov dates it, a year on: 'from fiscal
    2021 to fiscal 2022' → 'from FY2022 to FY2023', 'in fiscal years 2021 and 2022' → 'in FY2022 and FY2023'."""
    def dated(m: re.Match[str]) -> str:
        words = re.sub(r"(?i)\bfiscal\s+(?:years?\s+)?", "", m.group(0))
        return _YEAR.sub(lambda y: f"FY{int(y.group(0)) + 1}", words)

    return _COMPANY_NAMED.sub(dated, text)


def shift_fiscal_words(text: str, by: int) -> str:
    """The text with every year it names in fiscal words ('fiscal 2022', 'fiscal years 2021 and 2022') moved by
    `by`; the words around them, and years written otherwise ('FY2022', 'January 28, 2023'), as they are. The
    digits change in place, so `shift_fiscal_words(shift_fiscal_words(t, 1), -1) == t`."""
    if not by:
        return text
    return _COMPANY_NAMED.sub(lambda m: _YEAR.sub(lambda y: str(int(y.group(0)) + by), m.group(0)), text)


D = TypeVar("D")
F = TypeVar("F")


def prov_dated(docs: Iterable[D], starting: Sequence[str]) -> list[D]:
    """The documents as the readers read them: those of a company that names its fiscal years by the year they
    begin (`starting`, nodes/routing) with each year named in fiscal words a year on ('During fiscal 2022' read
    as 'During fiscal 2023'), so that a sentence dates its figure as Prov dates that year; the others as they
    are."""
    moved = {c.casefold() for c in starting}
    return [d.model_copy(update={"text": shift_fiscal_words(d.text, 1)})  # type: ignore[attr-defined]
            if moved and (getattr(d, "company", None) or "").casefold() in moved else d for d in docs]


def in_own_words(figures: Iterable[F], starting: Sequence[str]) -> list[F]:
    """Figures read from `prov_dated` documents with their quote and label in the company's own words again."""
    moved = {c.casefold() for c in starting}
    return [f.model_copy(update={"quote": shift_fiscal_words(f.quote, -1),  # type: ignore[attr-defined]
                                 "label": shift_fiscal_words(f.label, -1)})
            if moved and (getattr(f, "company", None) or "").casefold() in moved else f for f in figures]


def naming_rule(company: str) -> str:
    """How a company that names its years by their start is read here, for a model reading its documents."""
    return (f"{company} names its fiscal years by the calendar year they begin: its 'fiscal N' ended early in N+1 "
            f"and is FY(N+1) here, as its statements' dated columns are.")


def naming_note(company: str, years: Sequence[int]) -> str:
    """What an answer says when a question's 'fiscal 2022' of a company that names its years by their start is
    answered with the figures dated FY2023: 'Ulta Beauty names its fiscal years by the calendar year they
    begin: its fiscal 2022 ended early in 2023 and is dated FY2023 here.'"""
    ordered = sorted(set(years))
    if not ordered:
        return ""
    named = " and ".join(f"fiscal {y}" for y in ordered)
    ended = " and ".join(str(y + 1) for y in ordered)
    dated = " and ".join(f"FY{y + 1}" for y in ordered)
    if len(ordered) == 1:
        return (f"{company} names its fiscal years by the calendar year they begin: its {named} ended early in "
                f"{ended} and is dated {dated} here.")
    return (f"{company} names its fiscal years by the calendar year they begin: its {named} ended early in "
            f"{ended}, respectively, and are dated {dated} here.")
