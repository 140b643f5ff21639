"""How the offline composer writes: a figure as a report writes it (`format_figure`: '£1,311.2m', '8.8%'), in the
scale a question or a standing instruction asks (`in_asked_scale`: '$382m in FY2020 (stated as 381,603k)'); a
measure's subject ("Northwind Logistics' capital expenditure"); a sentence's citation markers (`cite`)."""

from __future__ import annotations

import re

from collections.abc import Sequence

from app.metrics import rounding_decimals
from app.text.measures import is_measure_word
from app.text.units import ASKED_SCALE, SCALE_FACTORS, asked_scale, unit_currency  # noqa: F401  (ASKED_SCALE: answer.py)


def in_asked_scale(question: str, value: float, unit: str, year: int | None, verb: str = "stated",
                   period: str = "", quote: str = "") -> str:
    """'$382m in FY2020 (stated as 381,603k)' when the question asks for millions of a figure stated in
    thousands, or for whole millions of one stated to a decimal; the figure as stated otherwise. Whole millions
    (or thousands), billions to one decimal, unless the question asks for its own rounding; the question's
    currency stands in when the statement's page gave none (no exchange rate is applied). The scales and
    currencies asked ('in pounds millions', 'in A$ millions', 'in yen billions') are app/text/units.py's. A
    quarter's or half's `period` ('Q2 2023', Figure.period_name) is named instead of the fiscal year. With the
    `quote` it was read from, a figure is stated to the places the quote writes it ('25.0%', not '25%')."""
    # a quarter's or half's figure is said to be one ('in Q2 2023'), never the year's
    when = f" in {period}" if period and not period.startswith("FY") else f" in FY{year}" if year else ""
    as_written = format_figure(value, unit, stated_decimals(value, quote))
    stated = f"{as_written}{when}"
    asked = asked_scale(question) or _nearest_scale(question)
    currency, scale = unit_currency(unit)
    decimals = rounding_decimals(question)
    if decimals is not None and re.search(r"(?i)\bpercent(?:s|age)?\b|%", question) and unit != "%":
        decimals = None  # 'to the nearest whole percent', 'in units of percents and round to one decimal place':
        # the rounding of a rate, not of the amounts it was computed from
    if _NEAREST_SCALE.search(question):
        decimals = 0  # 'to the nearest million pounds': whole millions
    if not asked or scale not in SCALE_FACTORS:
        if decimals is None or value == round(value, decimals) and format_figure(value, unit, decimals) == \
                format_figure(value, unit):
            return stated
        # the rounding asked, done once from the figure as stated: '6.70%' to two places, '5%' to a whole percent
        return f"{format_figure(round(value, decimals), unit, decimals)}{when} ({verb} as {as_written})"
    asked_currency, target = asked
    factor = SCALE_FACTORS[scale] / SCALE_FACTORS[target]
    if decimals is None:  # billions to one decimal, below one billion to two ($8.7bn, $0.95bn not $0.9bn)
        decimals = (2 if abs(value * factor) < 1 else 1) if target == "bn" else 0
    converted = round(value * factor, decimals)
    if target == scale and converted == value:
        return stated
    currency = currency or asked_currency
    return f"{format_figure(converted, currency + target, decimals)}{when} ({verb} as {as_written})"


MONEY = re.compile(r"[$£€¥]\s?\d|\d\s?(?:million|billion|bn|m)\b")
"""An amount of money in a sentence ('$165m', '€2.30 billion', '42.5 million')."""
CAUSAL = re.compile(r"(?i)\b(?:due to|driven by|because|as a result of|reflect(?:s|ed|ing)?|attributable to|"
                    r"owing to|primarily|mainly|led to|caused by|on the back of|following|citing|amid)\b")
"""Words that give a reason ('… reflecting carrying costs', '… cut its forecast, citing weaker orders')."""
_NEAREST_SCALE = re.compile(r"(?i)\bnearest\s+(?P<scale>thousand|million|billion)\b")


def _nearest_scale(question: str) -> tuple[str, str] | None:
    """'to the nearest million pounds' asks for whole millions: ('', 'm')."""
    m = _NEAREST_SCALE.search(question)
    return ("", {"thousand": "k", "million": "m", "billion": "bn"}[m.group("scale").lower()]) if m else None


def format_figure(value: float, unit: str, decimals: int | None = None) -> str:
    """A figure as a report writes it: '£1,311.2m', '8.8%', '13.1p', '15,960', '-63.9 $m' → '-$63.9m',
    'A$4,210m', 'CHF 1,204m' (a currency written in letters stands apart), '18.4Mt', '412 m shares'; with
    `decimals`, to exactly that many places ('6.70%')."""
    text = repr(float(value))
    if decimals is None:
        decimals = 0 if text.endswith(".0") else len(text.split(".")[1]) if "." in text and "e" not in text else 2
        if re.fullmatch(r"(?:[A-Z]{1,3})?[$£€¥]", unit) and abs(value) < 100 and not float(value).is_integer():
            decimals = max(decimals, 2)  # a per-share amount in cents: '$2.80', not '$2.8'
    number = f"{abs(value):,.{decimals}f}"
    sign = "-" if value < 0 else ""
    currency, rest = unit_currency(unit)
    if currency:
        return f"{sign}{currency}{' ' if currency[-1].isalpha() else ''}{number}{rest}"
    if unit and unit[0].isalpha() and unit not in _SUFFIXES:  # a counted thing: '18.4Mt', '412 m shares'
        return f"{sign}{number}{'' if unit in _GLUED_WORDS else ' '}{unit}"
    return f"{sign}{number}{unit}"


def stated_decimals(value: float, quote: str) -> int | None:
    """The places a quote writes a value to when they are more than the value's own ('79.0' for 79.0, '8.50%'
    for 8.5): a reported figure keeps its trailing zeros; None when the quote writes it no longer, or not at all."""
    own = repr(abs(float(value)))
    places = 0 if own.endswith(".0") else len(own.split(".")[1]) if "." in own and "e" not in own else None
    if places is None:
        return None
    for match in re.finditer(r"(?<![\d.])\d[\d,]*(?:\.(\d+))?(?![\d])", quote or ""):
        written = match.group(1) or ""
        if len(written) > places and float(match.group(0).replace(",", "")) == abs(float(value)):
            return len(written)
    return None


_SUFFIXES = frozenset({"m", "bn", "k", "p", "c", "x"})
_GLUED_WORDS = frozenset({"Mt", "kt", "t", "Mtpa", "GW", "MW", "GWh", "MWh"})


def measure_phrase(label: str) -> str:
    """A label inside a sentence: 'Capital expenditure' → 'capital expenditure', a form's title case 'Net Earnings'
    → 'net earnings'; 'EBITDA' stays, and so does a label a name leads ('Las Vegas Strip Resorts net revenues'); a
    label set all in capitals ('TOTAL ASSETS', as statements print totals) → 'total assets'."""
    label = label.strip()
    words = label.split()
    if len(words) > 1 and label.isupper():
        return label.lower()
    if not words or not (words[0][:1].isupper() and words[0][1:2].islower()):
        return label
    if not is_measure_word(words[0].strip(",;:()")):
        return label  # a name leads the label
    if all(w[:1].isupper() for w in words if w[:1].isalpha()):  # a title-case label: each measure word lowered
        return " ".join(w.lower() if is_measure_word(w.strip(",;:()")) and w[1:2].islower() else w for w in words)
    return label[:1].lower() + label[1:]


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def subject_phrase(company: str | None, label: str) -> str:
    """"Northwind Logistics' capital expenditure"; without a company, 'Capital expenditure'."""
    if company:
        return f"{possessive(company)} {measure_phrase(label)}"
    return label[:1].upper() + label[1:]


def cite(text: str, numbers: Sequence[int]) -> str:
    body = text.strip().rstrip(".")
    return f"{body} {''.join(f'[{n}]' for n in dict.fromkeys(numbers))}."
