"""A calculation's result in the offline composer's answer: the lead sentence (`lead_sentence`: the figure asked
for, its period and unit, in the scale the question asks; which side is higher and by how much), then how it
was computed (`computation`), each citing the calculation and the blocks its inputs came from."""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.calc_tools import CalcResult, Figure
from app.metrics import rounding_decimals
from app.models.providers.offline.composer.wording import (
    cite,
    format_figure,
    in_asked_scale,
    measure_phrase,
    possessive,
    subject_phrase,
)
from app.text.units import money_scale, unit_currency
from app.turns import Block

_TOOL_PHRASES = {
    "growth_rate": "Growth", "percentage_change": "Change", "difference": "Difference", "ratio": "Ratio",
    "cagr": "CAGR", "evaluate": "Evaluate", "metric": "Metric",
}


def describe_result(result: CalcResult, calc_n: int, by_chunk: dict[str, Block], question: str = "") -> list[str]:
    """The result stated as an analyst would (the figure, its period and unit, in the scale the question asks;
    which side is higher), then how it was computed. Each sentence cites the calculation and the blocks its
    inputs came from."""
    refs = [calc_n, *(by_chunk[f.chunk_id].n for f in result.sources.values() if f.chunk_id in by_chunk)]
    if given := given_arithmetic(result, question):
        return [cite(given, refs)]
    note = str(getattr(result, "note", "") or "").strip()  # a judgement: the metric it rests on
    return [cite(text, refs) for text in (lead_sentence(result, question), computation(result), note) if text]


_GIVEN = frozenset({"question", "thread"})
"""Origins of the numbers of arithmetic asked of given numbers (nodes/figures.given_figures)."""


def given_arithmetic(result: CalcResult, question: str = "") -> str:
    """Arithmetic asked of the numbers a question gives and of the previous answer's figure, said as it was done:
    'The result is 131,120 (1,311.2 * 100, where 1,311.2 is the previous answer's figure)': the result first, in
    words, so no reader takes it for an input; '' for any other result."""
    figures = list(result.sources.values())
    if result.tool != "evaluate" or not figures or any(f.origin not in _GIVEN for f in figures):
        return ""
    shown = re.sub(r"abs\((-?[\d.]+)\)", lambda m: m.group(1) if not m.group(1).startswith("-")
                   else f"|{m.group(1)}|", result.expression or "")
    shown = re.sub(r"(?<![\d.])\d{4,}(?:\.\d+)?(?![\d.])", lambda m: format_figure(float(m.group(0)), ""), shown)
    value = _result_text(result.result, result.unit, rounding_decimals(question))
    previous = next((f for f in figures if f.origin == "thread"), None)
    if previous is None:
        return f"The result is {value} ({shown}, from the numbers the question gives)"
    return f"The result is {value} ({shown}, where {format_figure(previous.value, '')} is the previous answer's figure)"


def with_segment_named(name: str, inputs: Iterable[Figure]) -> str:
    """A metric's name with the segment every input is of, when they are one segment's rows ('operating margin' of
    Consumer's operating income and net sales: 'Consumer operating margin'); the name as it is otherwise."""
    segments = {f.segment for f in inputs}
    if len(segments) == 1 and (segment := segments.pop()) and segment.casefold() not in name.casefold():
        return f"{segment} {name}"
    return name


def lead_sentence(result: CalcResult, question: str = "") -> str:
    """'Helio Renewables' operating margin was 2.4 percentage points higher than Northwind Logistics' in FY2024
    (9.1% against 6.7%)'; a rate to the decimals the question asks for; '' when the inputs are not all figures
    from the evidence."""
    src = result.sources
    value = result.result
    if result.tool == "difference" and {"a", "b"} <= src.keys():
        return _compare(src["a"], src["b"], value)
    decimals = rounding_decimals(question)
    rate = f"{abs(value):g}" if decimals is None else f"{abs(result.rounded(decimals)):.{decimals}f}"
    def at(figure: Figure) -> str:  # '$35.4bn in FY2021 (stated as $35,355m)' when the question asks for billions
        return in_asked_scale(question, figure.value, figure.unit, figure.fiscal_year, period=figure.period_name,
                              quote=figure.quote)

    if result.tool in ("growth_rate", "percentage_change") and {"old", "new"} <= src.keys():
        old, new = src["old"], src["new"]
        if value == 0:
            return f"{subject_phrase(new.company, new.label)} was unchanged at {at(new)}"
        verb = "grew" if value > 0 else "fell"
        return f"{subject_phrase(new.company, new.label)} {verb} {rate}% from {at(old)} to {at(new)}"
    if result.tool == "cagr" and {"start", "end"} <= src.keys():
        start, end = src["start"], src["end"]
        verb = "grew" if value >= 0 else "fell"
        return (f"{subject_phrase(end.company, end.label)} {verb} at a compound annual rate of {rate}% from "
                f"{at(start)} to {at(end)}")
    formula = str(getattr(result, "formula", "") or "")
    if result.tool == "metric" and re.search(r"\bprior measure\b", formula) and len(src) == 2:
        # a year-over-year change of what the question names: the measure's own words and both years' levels
        old, new = sorted(src.values(), key=lambda f: f.fiscal_year or 0)
        if old.fiscal_year != new.fiscal_year:
            verb = "was unchanged at" if value == 0 else "grew" if value > 0 else "fell"
            moved = f" {rate}% from {at(old)} to" if value else ""
            return f"{subject_phrase(new.company, new.label)} {verb}{moved} {at(new)}"
    if result.tool == "metric" and " = " in formula:
        companies = {f.company for f in src.values() if f.company}
        years = [f.fiscal_year for f in src.values() if f.fiscal_year]
        company = companies.pop() if len(companies) == 1 else None
        subject = subject_phrase(company, with_segment_named(formula.split(" = ", 1)[0].strip(), src.values()))
        if money_scale(result.unit):  # an amount: in the scale the question asks
            return f"{subject} was {in_asked_scale(question, value, result.unit, max(years, default=None), 'computed')}"
        when = f" in FY{max(years)}" if years else ""
        named = {f.period_name for f in src.values()}
        if len(named) == 1 and (period := next(iter(named))) and not period.startswith("FY"):
            when = f" in {period}"  # a quarter's inputs give a quarter's metric ('31.48% in Q4 2015')
        if ", averaged over " in formula and years:
            when = f" on average over FY{min(years)}–FY{max(years)}"
        return f"{subject} was {_result_text(value, result.unit, decimals)}{when}"
    if result.tool == "ratio" and {"numerator", "denominator"} <= src.keys():
        num, den = src["numerator"], src["denominator"]
        return (f"{subject_phrase(num.company, num.label)}{_in(num)} ({_stated(num)}) was {value:g} times "
                f"{_object(den)}{_in(den)} ({_stated(den)})")
    return ""


def _object(figure: Figure) -> str:
    """A figure's measure after a verb: "Helio Renewables' revenue", "revenue"."""
    return subject_phrase(figure.company, figure.label) if figure.company else measure_phrase(figure.label)


def _compare(a: Figure, b: Figure, value: float) -> str:
    """A difference a - b as which is higher, by how much, in the inputs' unit."""
    high, low = (a, b) if value >= 0 else (b, a)
    amount = _amount(abs(value), a, b)
    same_company = (a.company or "").casefold() == (b.company or "").casefold()
    same_measure = a.label.casefold() == b.label.casefold()
    if value == 0:
        return f"{subject_phrase(a.company, a.label)}{_in(a)} and {_object(b)}{_in(b)} were the same, {_stated(a)}"
    if same_measure and same_company and high.fiscal_year != low.fiscal_year:
        return (f"{subject_phrase(high.company, high.label)} was {amount} higher{_in(high)} than{_in(low)} "
                f"({_stated(high)} against {_stated(low)})")
    if same_measure and high.company and low.company and high.fiscal_year == low.fiscal_year:
        return (f"{subject_phrase(high.company, high.label)} was {amount} higher than {possessive(low.company)}"
                f"{_in(high)} ({_stated(high)} against {_stated(low)})")
    return (f"{subject_phrase(high.company, high.label)}{_in(high)} ({_stated(high)}) was {amount} higher than "
            f"{_object(low)}{_in(low)} ({_stated(low)})")


def _amount(value: float, a: Figure, b: Figure) -> str:
    if a.unit == b.unit == "%":
        return f"{value:g} percentage points"
    return format_figure(value, a.unit) if a.unit == b.unit else f"{value:g}"


def _stated(figure: Figure) -> str:
    return format_figure(figure.value, figure.unit)


def _in(figure: Figure) -> str:
    return f" in {figure.period_name}" if figure.period_name else ""


def computation(result: CalcResult) -> str:
    """How a result was computed: 'Difference: 6.7 - 9.1 = -2.4 percentage points (a: Northwind Logistics FY2024
    Operating margin 6.7%; ...)', with the calculator's formula when it gives one."""
    units = {f.unit for f in result.sources.values()}
    unit = result.unit
    if result.tool == "difference" and len(units) == 1:
        unit = units.pop()
    value = f"{result.result:g} percentage points" if result.tool == "difference" and unit == "%" else (
        _result_text(result.result, unit))
    inputs = []
    for name, figure in result.sources.items():
        when = figure.period_name
        if when.startswith("the "):  # 'the three months ended 28 January 2023' follows its measure
            inputs.append(f"{name}: {' '.join(x for x in (figure.company, figure.label) if x)} "
                          f"{format_figure(figure.value, figure.unit)} in {when}")
            continue
        who = " ".join(x for x in (figure.company, when) if x)
        inputs.append(f"{name}: {who} {figure.label} {format_figure(figure.value, figure.unit)}")
    detail = f" ({'; '.join(inputs)})" if inputs else ""
    formula = str(getattr(result, "formula", "") or "").strip()
    phrase = _TOOL_PHRASES.get(result.tool, result.tool.replace("_", " ").capitalize())
    return f"{phrase}: {result.expression} = {value}{detail}{f'; formula: {formula}' if formula else ''}"


def _result_text(value: float, unit: str, decimals: int | None = None) -> str:
    """'0.9%', '1.52x', '-$63.9m', '45 days': a result as a report writes it, a word unit after a space; with
    `decimals` (the places the question asks for), to exactly that many ('12.90x')."""
    if decimals is not None:
        value = round(value, decimals)
    if money_scale(unit) or not unit_currency(unit)[1] or unit in ("%", "x", "p"):
        return format_figure(value, unit, decimals)
    return f"{format_figure(value, '', decimals)} {unit}"
