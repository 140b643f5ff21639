"""Metric plans: how a question that names a metric (app/metrics.py), gives its own definition of one, or asks a
judgement a metric decides ('is it capital-intensive?') is computed from the figures at hand.

`metric_plans(question, figures)` gives one `MetricPlan` per metric and company: the `metric` tool's arguments,
the figure behind each input (chosen by line-item label, company and year: `choose_inputs`, or averaged over the
years asked: `average_inputs`) and the inputs not found; None when the question names no metric, gives no
definition and asks no judgement a metric decides. The calculator node shows the plan to any tool-calling model
(`metric_hints`, with the figure id behind each input); the offline calculator calls it as planned.

Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.calc_tools import Figure
from app.facts.selection import relevant_figures
from app.metrics import (
    MEASURE,
    Metric,
    MetricInputs,
    SegmentRow,
    averaged_years,
    change_from_year,
    day_basis,
    find_metrics,
    label_match,
    metric_inputs,
    metrics_asked,
    parse_formula,
    rounding_decimals,
)
from app.text.measures import measure_asked, part_asked
from app.text.periods import years_named
from app.text.question_kinds import asks_trend


@dataclass(frozen=True)
class MetricPlan:
    """One planned `metric` call: its arguments, the figure behind each input, and the inputs not found."""

    args: dict[str, Any]
    sources: dict[str, Figure]
    missing: list[str]


def metric_hints(question: str, figures: Sequence[Figure]) -> list[dict[str, Any]]:
    """The metric plan as a tool-calling model sees it: the call, the figure id per input, what is missing."""
    ids = {id(f): f"F{i}" for i, f in enumerate(figures, start=1)}
    return [{"call": "metric", "args": p.args, "figure_ids": {k: ids.get(id(f), "") for k, f in p.sources.items()},
             "missing": p.missing} for p in metric_plans(question, figures) or []]


def metric_plans(question: str, figures: Sequence[Figure]) -> list[MetricPlan] | None:
    targets, topic = metric_targets(question, figures)
    if not targets:
        return None
    decimals = rounding_decimals(question)
    plans = []
    for company in companies_asked(question, figures):
        for target in targets:
            chosen = choose_inputs(target, question, figures, company)
            args: dict[str, Any] = {"name": target.name, "inputs": chosen.values, "year": chosen.year}
            each = [(args, chosen)]
            if over := averaged_years(question, years_named(question)):
                chosen = average_inputs(target, figures, company, over, chosen.measure, asks_part_year(question),
                                        question)
                each = [({"name": target.name, "inputs": chosen.values, "years": over}, chosen)]
            elif (earlier := change_from_year(target, question, chosen.year, asks_trend(question))) is not None:
                before = metric_inputs(target, figures, company=company, year=earlier, measure=chosen.measure,
                                       part=asks_part_year(question), said=question,
                                       segment_row=segment_reader(question, company))
                each = [({"name": target.name, "inputs": before.values, "year": earlier}, before), (args, chosen)]
            elif topic and len(named := sorted(set(years_named(question)))) >= 2 and chosen.year == named[-1]:
                # a judgement on the years it names ('judging by its capital expenditure relative to revenue in
                # FY2024 and FY2023'): the metric for each of them, the earliest first
                each = [({"name": target.name, "inputs": one.values, "year": year}, one) for year in named
                        for one in [metric_inputs(target, figures, company=company, year=year, measure=chosen.measure,
                                                             part=asks_part_year(question), years=named, said=question,
                                                  segment_row=segment_reader(question, company))]]
            for args, chosen in each:
                if target.origin == "question":
                    args["definition"] = target.formula
                args.update({k: v for k, v in (("decimals", decimals), ("judgement", topic)) if v not in (None, "")})
                plans.append(MetricPlan(args, dict(chosen.sources), list(chosen.missing)))
    return plans



def metric_targets(question: str, figures: Sequence[Figure]) -> tuple[list[Metric], str]:
    """The metrics to apply and the judgement they decide ('' if none): the question's own definition first,
    then the metrics it names, then a judgement's. A named metric the figures already report (a figure
    labelled 'Operating margin') is left to the plain tools."""
    targets, topic = metrics_asked(question)
    if targets and targets[0].origin == "question":
        return targets, topic
    if any(reported(m, figures, question) for m in find_metrics(question)):
        return [], ""
    days = day_basis(question)
    return [with_day_basis(m, days) for m in targets], topic


def reported(metric: Metric, figures: Sequence[Figure], question: str = "") -> bool:
    """Whether a figure states the metric itself, for the year asked (a core or a segment's margin is another
    measure: the calculator computes the one asked)."""
    from app.facts.query import qualified_otherwise

    years = set(years_named(question))
    return any(metric in find_metrics(f.label) and not qualified_otherwise(f, question) and _in_its_unit(metric, f)
               and (not years or f.fiscal_year in years) for f in figures)


def _in_its_unit(metric: Metric, figure: Figure) -> bool:
    """Whether a figure is in a unit the metric is stated in: a rate is a per cent ('Gross margin 6,129.9' in
    millions is what some companies call gross profit, not the gross margin rate), a multiple a bare number."""
    if metric.unit == "%":
        return figure.unit.endswith("%")
    if metric.unit == "x":
        return figure.unit in ("", "x")
    return True


def with_day_basis(metric: Metric, days: int | None) -> Metric:
    """The metric on the day count the question states ('using a 360-day year'), as the question's definition."""
    if not days or not metric.day_basis or days == metric.day_basis:
        return metric
    formulas = tuple(parse_formula(f.text.replace(str(metric.day_basis), str(days), 1)) for f in metric.formulas)
    return replace(metric, formulas=formulas[:1], day_basis=days, origin="question")


def asks_part_year(question: str) -> str | bool:
    """Whether the question asks about a quarter or a half rather than whole years (its inputs are then that
    part's figures): the part when it names which ('Q2', 'H1'), else whether it asks about one at all."""
    from app.knowledge.pages import forms_wanted

    named = part_asked(question)
    if named and len(named) == 2:
        return named
    return bool(named or forms_wanted(question) & {"10-Q", "half-year"})


def companies_asked(question: str, figures: Sequence[Figure]) -> list[str | None]:
    """The companies the question names (by the first word of their name), else every company in the figures."""
    names = list(dict.fromkeys(f.company for f in figures if f.company))
    q = question.lower()
    named = [c for c in names if re.search(rf"\b{re.escape(c.lower().split()[0])}\b", q)]
    return named or names or [None]


def average_inputs(target: Metric, figures: Sequence[Figure], company: str | None, years: Sequence[int],
                   measure: str | None, part: bool | str = False, said: str = "") -> MetricInputs:
    """The inputs of a metric averaged over `years`: each year's inputs, together; missing ones named."""
    merged = MetricInputs(target, target.formulas[0], years[-1], measure=measure)
    for year in years:
        chosen = metric_inputs(target, figures, company=company, year=year, measure=measure, part=part, said=said,
                               segment_row=segment_reader(said, company))
        merged.values.update(chosen.values)
        merged.sources.update(chosen.sources)
        merged.missing.extend(k for k in chosen.missing if k not in merged.missing)
    return merged


def choose_inputs(target: Metric, question: str, figures: Sequence[Figure], company: str | None) -> MetricInputs:
    """The year is the latest the question names, else the latest year of the company's figures for the metric;
    a year-over-year change applies to the measure the question's words pick."""
    own = [f for f in figures if company is None or (f.company or "").lower() == company.lower()]
    items = {t.item for formula in target.formulas for t in formula.terms}
    measure = None
    if MEASURE in items:
        measure = next((f.label for f in relevant_figures(question, own) if f.unit.strip() != "%"), None)
    years = years_named(question)
    dated = [f.fiscal_year for f in own
             if f.fiscal_year and any(label_match(f.label, i, measure) is not None for i in items)]
    year = max(years) if years else max(dated, default=None)
    return metric_inputs(target, figures, company=company, year=year, measure=measure, part=asks_part_year(question),
                         said=question, segment_row=segment_reader(question, company))


def segment_reader(question: str, company: str | None) -> SegmentRow | None:
    """For a metric asked of one segment ('3M's Consumer operating margin'), what reads a figure as that segment's
    row (`segment_row`); None when the question asks no segment."""
    from app.facts.query import PARENT_ENTITY, same_member

    segment = measure_asked(question, [company] if company else []).segment if question else None
    if not segment or segment == PARENT_ENTITY:
        return None

    def segment_row(figure: Any) -> str | None:
        label = figure.label
        named = re.match(r"^(?P<member>[^:]{2,60}):\s+", label)
        if named and same_member(segment, named.group("member"), company):
            return label[named.end():]
        if label.casefold().startswith(segment.casefold() + " "):
            return label[len(segment) + 1:]
        own = getattr(figure, "segment", None)
        return label if own and same_member(segment, own, company) else None

    return segment_row
