"""Nodes of the calculator subgraph (graphs/calculator.py), its state, and its model.

Steps: `start_calculation` writes the prompt, `call_model` asks the tool-calling model for its next move,
`route_after_model` sends tool calls to the `tools` node (LangGraph's ToolNode) or ends the loop,
`finish_calculation` turns the tool messages into a `CalculationOutcome` whose results name the figures
their inputs came from.

The model is the model factory's calculator role (app/models): offline, `RuleBasedCalculatorModel`
(app/models/providers/offline/calculator.py) asks `next_rule_based_message` below, which reads the question and
the figures and emits the same tool calls a real model would; any chat model with `bind_tools` will do.

A question that names a metric (app/metrics.py), gives its own definition of one, or asks a judgement a metric
decides ('is it capital-intensive?') is planned as `metric` calls by `plan_metric_calls`: the figures for each
input are chosen by line-item label, company and year, and the same plan is shown to a tool-calling model in
the request, with the figure id behind each input.
"""

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import Runnable
from langgraph.graph import END
from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages
from langgraph.prebuilt import tools_condition
from langgraph.prebuilt.tool_node import ToolInvocationError

from app.calc_tools import CalcError, CalcResult, CalculationOutcome, Figure
from app.facts.measures import SAME_MEASURE, TOTAL_WORDS
from app.metrics import (
    MEASURE,
    Metric,
    MetricInputs,
    averaged_years,
    day_basis,
    find_metrics,
    key_parts,
    label_match,
    metric_inputs,
    metrics_asked,
    money_scale,
    parse_formula,
    rounding_decimals,
)
from app.text.periods import years_named
from prompts.calculator import CALCULATOR_SYSTEM, render_calculator_request

DEFAULT_MAX_STEPS = 6


# --- state --------------------------------------------------------------------------------------------------


class CalculatorInput(TypedDict):
    question: str
    figures: list[Figure]


class CalculatorOutput(TypedDict):
    calculation: CalculationOutcome


class CalculatorState(CalculatorInput, CalculatorOutput):
    """Private to the subgraph: the conversation with the model and the step counter never leave it."""

    messages: Annotated[list[AnyMessage], add_messages]
    steps: int
    max_steps: int


# --- nodes --------------------------------------------------------------------------------------------------


def start_calculation(state: CalculatorState, *, max_steps: int = DEFAULT_MAX_STEPS) -> dict[str, Any]:
    """Validate the figures and write a fresh conversation: system rules, then the request as JSON."""
    figures = [Figure.model_validate(f) for f in state["figures"]]
    request = render_calculator_request(state["question"], figure_payloads(figures),
                                        metric_hints(state["question"], figures))
    messages = [
        RemoveMessage(id=REMOVE_ALL_MESSAGES),
        SystemMessage(CALCULATOR_SYSTEM.format(max_steps=max_steps)),
        HumanMessage(request),
    ]
    return {"figures": figures, "messages": messages, "steps": 0, "max_steps": max_steps}


def call_model(state: CalculatorState, *, model: Runnable) -> dict[str, Any]:
    """One model turn: a tool-call request or a final answer. `model` is already bound to the tools."""
    reply = model.invoke(state["messages"])
    return {"messages": [reply], "steps": state["steps"] + 1}


def route_after_model(state: CalculatorState) -> Literal["tools", "finish_calculation"]:
    """Tool calls go to the tools, unless the step cap is reached; a plain answer finishes."""
    route = tools_condition(state)
    if route == "tools":
        return "finish_calculation" if state["steps"] >= state["max_steps"] else "tools"
    if route == END:
        return "finish_calculation"
    raise ValueError(f"unexpected route from tools_condition: {route!r}")


def finish_calculation(state: CalculatorState) -> dict[str, Any]:
    """Collect the tool results, attach their figures, and decide the status."""
    figures = [Figure.model_validate(f) for f in state["figures"]]
    return {"calculation": build_outcome(state["messages"], figures, state.get("question", ""))}


def explain_tool_error(error: CalcError | ToolInvocationError) -> str:
    """What the model reads when a tool call fails (ToolNode's handle_tool_errors); other errors propagate."""
    code = getattr(error, "code", "invalid_arguments")
    return f"Error ({code}): {error}. Correct the call, or stop and say what failed."


# --- outcome ------------------------------------------------------------------------------------------------


def figure_payloads(figures: Sequence[Figure]) -> list[dict[str, Any]]:
    """What the model sees of each figure: an id (F1, F2, ...) and the fields arithmetic needs."""
    keep = {"label", "value", "unit", "company", "fiscal_year"}
    return [{"id": f"F{i}", **f.model_dump(include=keep)} for i, f in enumerate(figures, start=1)]


def attach_sources(result: CalcResult, figures: Sequence[Figure], question: str = "") -> CalcResult:
    """For each input equal to a given figure's value, record that figure. Several figures can share a value
    (8.7% is a segment margin and another company's group margin): prefer one not used yet, then the one
    whose label best matches the question, then one of a company not used yet, then the first given."""
    sources: dict[str, Figure] = {}
    q_words = _words(question)
    for name, value in result.inputs.items():
        matches = [f for f in figures if math.isclose(f.value, value, rel_tol=1e-9, abs_tol=1e-12)]
        if not matches:
            continue
        used = list(sources.values())
        used_companies = {(f.company or "").lower() for f in used}

        def preference(indexed: tuple[int, Figure]) -> tuple[int, int, int, int, int]:
            i, f = indexed
            label = _words(f.label)
            return (int(any(f is u for u in used)), -len(label & q_words), len(label - q_words),
                    int((f.company or "").lower() in used_companies), i)

        sources[name] = min(enumerate(matches), key=preference)[1]
    return result.model_copy(update={"sources": sources})


def attach_metric_sources(result: CalcResult, figures: Sequence[Figure]) -> CalcResult:
    """A metric's inputs are keyed by item and year ('ppe_2018'): for each, the figure with that value, preferring
    that year and a label the item answers to. A money result takes the unit its inputs share."""
    sources: dict[str, Figure] = {}
    for key, value in result.inputs.items():
        item, year = key_parts(key)
        matches = [(i, f) for i, f in enumerate(figures)
                   if math.isclose(f.value, value, rel_tol=1e-9, abs_tol=1e-12)]
        if matches:
            def preference(indexed: tuple[int, Figure]) -> tuple[int, int, int]:
                i, f = indexed
                score = label_match(f.label, item)
                return int(year is not None and f.fiscal_year != year), 2 if score is None else score, i

            sources[key] = min(matches, key=preference)[1]
    units = {f.unit for f in sources.values()}
    if len(units) == 2:
        short, full = sorted(units, key=len)
        if money_scale(short) and full.endswith(short) and money_scale(full) == money_scale(short):
            units = {full}  # '$k' and 'k' (a statement chunk that shows no '$'): one unit
    unit = units.pop() if result.unit == "" and len(units) == 1 and len(sources) == len(result.inputs) else result.unit
    return result.model_copy(update={"sources": sources, "unit": unit})


def _unit_text(unit: str) -> str:
    return f" {unit}" if len(unit) > 1 and unit.isalpha() else unit


def describe_result(result: CalcResult) -> str:
    """'growth_rate: (1311.2 - 1204.6) / 1204.6 * 100 = 8.85% [old: Revenue, Northwind FY2023 (src-1)]'; a
    metric adds its formula, a judgement the metric it rests on."""
    cited = "; ".join(
        f"{name}: {f.label}, {f.company or '?'} FY{f.fiscal_year or '?'} ({f.source_id})"
        for name, f in result.sources.items()
    )
    line = f"{result.tool}: {result.expression} = {result.result:g}{_unit_text(result.unit)}"
    if result.formula:
        line += f" using {result.formula}"
    line = f"{line} [{cited}]" if cited else line
    return f"{line}. {result.note}" if result.note else line


def build_outcome(messages: Sequence[BaseMessage], figures: Sequence[Figure], question: str = "") -> CalculationOutcome:
    results, errors = collect_tool_results(messages)
    results = [attach_metric_sources(r, figures) if r.tool == "metric" else attach_sources(r, figures, question)
               for r in results]
    last = messages[-1] if messages else None
    capped = isinstance(last, AIMessage) and bool(last.tool_calls)
    called = any(isinstance(m, ToolMessage) for m in messages)
    status = "step_cap" if capped else "ok" if results else "error" if called else "no_calculation"
    lines = [describe_result(r) for r in results] or [f"Failed: {e}" for e in errors]
    if status == "step_cap":
        lines.insert(0, "Stopped at the step cap before the model finished.")
    answer = "" if capped or not isinstance(last, AIMessage) else last.text
    summary = "\n".join(lines) or answer or "No calculation was made."
    return CalculationOutcome(status=status, results=results, summary=summary, model_answer=answer, errors=errors)


def collect_tool_results(messages: Iterable[BaseMessage]) -> tuple[list[CalcResult], list[str]]:
    """Successful tool messages carry the CalcResult as their artifact; failed ones carry the error text."""
    results: list[CalcResult] = []
    errors: list[str] = []
    for message in messages:
        if not isinstance(message, ToolMessage):
            continue
        if message.status == "error":
            errors.append(f"{message.name}: {message.text}")
        elif isinstance(message.artifact, (dict, CalcResult)):
            results.append(CalcResult.model_validate(message.artifact))
        else:
            raise TypeError(f"tool message from {message.name!r} has no CalcResult artifact")
    return results, errors


# --- the offline policy (app/models/providers/offline/calculator.py wraps it as a chat model) -----------------


def next_rule_based_message(messages: Sequence[BaseMessage], tool_names: Sequence[str]) -> AIMessage:
    """Answer once tool results are back; otherwise plan tool calls; with no plan, say so."""
    tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
    if tool_messages:
        return AIMessage(content=summarise_tool_messages(tool_messages))
    question, figures = read_request(messages)
    turn = sum(isinstance(m, AIMessage) for m in messages)
    calls = [
        {"name": name, "args": args, "id": f"call_{turn}_{i}", "type": "tool_call"}
        for i, (name, args) in enumerate(plan_tool_calls(question, figures))
        if name in tool_names
    ]
    if not calls:
        return AIMessage(content="No calculation applies to this question with the figures given.")
    return AIMessage(content="", tool_calls=calls)


def read_request(messages: Sequence[BaseMessage]) -> tuple[str, list[Figure]]:
    """The question and figures from the first human message (JSON); plain text means no figures."""
    first = next((m for m in messages if isinstance(m, HumanMessage)), None)
    if first is None:
        return "", []
    try:
        payload = json.loads(first.text)
    except json.JSONDecodeError:
        return first.text, []
    figures = [Figure(source_id=f.get("id", ""), **_figure_fields(f)) for f in payload.get("figures", [])]
    return str(payload.get("question", "")), figures


def _figure_fields(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: payload[k] for k in ("label", "value", "unit", "company", "fiscal_year") if k in payload}


def summarise_tool_messages(tool_messages: Sequence[ToolMessage]) -> str:
    lines = []
    for message in tool_messages:
        if message.status == "error":
            lines.append(f"{message.name} failed: {message.text}")
            continue
        result = json.loads(message.text)
        line = f"{result['tool']}: {result['expression']} = {result['result']:g}{_unit_text(result['unit'])}"
        extra = [result.get("formula", ""), result.get("note", "")]
        lines.append(" ".join([line, *(f"({x})" for x in extra if x)]))
    return "\n".join(lines)


# --- the rule-based policy ----------------------------------------------------------------------------------

Plan = list[tuple[str, dict[str, Any]]]
_STOPWORDS = {"the", "and", "of", "in", "for", "per", "at", "to", "by", "a", "an", "on", "year", "end"}


def plan_tool_calls(question: str, figures: Sequence[Figure]) -> Plan:
    """A metric, a definition or a judgement is planned by `plan_metric_calls`; otherwise keywords pick the tool
    and label overlap with the question picks the figures."""
    metric_plan = plan_metric_calls(question, figures)
    if metric_plan is not None:
        return metric_plan
    q = question.lower()
    years = years_named(question)
    companies = sorted({f.company for f in figures if f.company})
    relevant = [f for f in relevant_figures(q, figures) if names_the_measure(question, f.label, companies)]
    if "cagr" in q or "compound annual" in q:
        return [("cagr", _cagr_args(old, new)) for old, new in year_pairs(relevant, years)]
    if re.search(r"\b(ratio|times|multiple|divided by|in relation to|relative to|as a (?:percentage|share|"
                 r"proportion|portion|fraction) of|represent(?:s|ed)?)\b", q):
        pair = two_figures(q, relevant)
        return [("ratio", {"numerator": pair[0].value, "denominator": pair[1].value})] if pair else []
    if re.search(r"\b(difference|gap|more than|less than|higher than|lower than|exceed(?:s|ed)?|outpac(?:e|es|ed)|"
                 r"fall short of|fell short of)\b", q):
        pair = two_figures(q, relevant)
        if pair and _same_measure_two_years(*pair):  # one measure in two years: later minus earlier
            pair = tuple(sorted(pair, key=lambda f: f.fiscal_year or 0, reverse=True))  # type: ignore[assignment]
        return [("difference", {"a": pair[0].value, "b": pair[1].value})] if pair else []
    if re.search(r"\b(percentage|percent|%) change\b", q):
        return [("percentage_change", {"old": o.value, "new": n.value}) for o, n in year_pairs(relevant, years)]
    if re.search(r"\b(change|changed|net change)\b", q):  # "the change from 2016 to 2017": later minus earlier
        return [("difference", {"a": n.value, "b": o.value}) for o, n in year_pairs(relevant, years)]
    if re.search(r"\b(grow|grew|growth|grown|increase[ds]?|rise|rose|risen|decline[ds]?|fell|decrease[ds]?)\b", q):
        return [("growth_rate", {"old": o.value, "new": n.value}) for o, n in year_pairs(relevant, years)]
    return []


def _same_measure_two_years(a: Figure, b: Figure) -> bool:
    return ((a.company or "").lower() == (b.company or "").lower() and a.label.lower() == b.label.lower()
            and a.fiscal_year is not None and b.fiscal_year is not None and a.fiscal_year != b.fiscal_year)


def _cagr_args(old: Figure, new: Figure) -> dict[str, float]:
    years = float((new.fiscal_year or 0) - (old.fiscal_year or 0))
    return {"start": old.value, "end": new.value, "years": years}


def _words(text: str) -> set[str]:
    """Content words, a measure by its one name (app/facts/measures.py's SAME_MEASURE: 'Net sales' is the revenue a
    question asks about) and a plural read as its singular ('Total revenues' shares 'revenue' with it)."""
    return {_singular(SAME_MEASURE.get(w, w)) for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOPWORDS}


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def names_the_measure(question: str, label: str, companies: Sequence[str] = ()) -> bool:
    """A figure's label names the measure the question asks about, the words of the calculation aside ('Cost of
    sales' is not 'same-store sales growth'); any label does when the question names no measure of its own
    ('what was, then, the change?')."""
    from app.text.questions import measure_terms, states_measure

    measures = [a - _CALC_WORDS for a in measure_terms(question, companies) if a - _CALC_WORDS]
    return not measures or states_measure(measures, label)


_CALC_WORDS = frozenset({"growth", "grow", "chang", "differ", "ratio", "increas", "decreas", "rate", "exceed",
                         "percentag", "percent", "compar", "higher", "lower", "cagr", "time", "multipl", "far",
                         "outpac", "relat", "relationship", "proport", "share", "fraction", "portion", "repres",
                         "divid", "much", "mani"})


def relevant_figures(question: str, figures: Sequence[Figure]) -> list[Figure]:
    """Figures whose labels best match the question (most shared words, fewest extra); none when no label shares
    a word with it: a ratio of whatever figures were found is no answer ('combined ratio' is not assets/assets)."""
    q_words = _words(question)

    def score(f: Figure) -> tuple[int, int]:
        label = _words(f.label)
        return len(label & q_words), -len(label - q_words - TOTAL_WORDS)

    best = max((score(f) for f in figures), default=(0, 0))
    if best[0] == 0:
        return []
    return [f for f in figures if score(f) == best]


def year_pairs(figures: Sequence[Figure], years: Sequence[int] = ()) -> list[tuple[Figure, Figure]]:
    """Per (company, label, unit): the first and last of the fiscal years the question names ('from FY2019 to
    FY2020'; one year named: that year and the one before), else the earliest and latest, when they differ.
    A statement states three years; 'FY2019 - FY2020 growth' is not growth since FY2018."""
    groups: dict[tuple[str, str, str], list[Figure]] = {}
    for f in figures:
        if f.fiscal_year is not None:
            groups.setdefault(((f.company or "").lower(), f.label.lower(), f.unit), []).append(f)
    span = (min(years), max(years)) if len(set(years)) >= 2 else (years[0] - 1, years[0]) if years else None
    pairs = []
    for group in groups.values():
        ordered = sorted(group, key=lambda f: f.fiscal_year or 0)
        if span is not None:
            by_year = {f.fiscal_year: f for f in ordered}
            if span[0] in by_year and span[1] in by_year:
                pairs.append((by_year[span[0]], by_year[span[1]]))
            continue
        if ordered[0].fiscal_year != ordered[-1].fiscal_year:
            pairs.append((ordered[0], ordered[-1]))
    return pairs


def two_figures(question: str, figures: Sequence[Figure]) -> tuple[Figure, Figure] | None:
    """The two figures in the order the question mentions them (company or year); they must share a unit."""

    def position(term: str) -> int:
        spot = question.find(term) if term else -1
        return spot if spot >= 0 else len(question)

    def mention(indexed: tuple[int, Figure]) -> tuple[int, int, int]:
        i, f = indexed
        company = (f.company or "").lower().split()[:1]
        return position(company[0] if company else ""), position(str(f.fiscal_year or "")), i

    ordered = [f for _, f in sorted(enumerate(figures), key=mention)]
    if len(ordered) < 2 or ordered[0].unit != ordered[1].unit:
        return None
    return ordered[0], ordered[1]


# --- metrics, definitions and judgements ------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricPlan:
    """One planned `metric` call: its arguments, the figure behind each input, and the inputs not found."""

    args: dict[str, Any]
    sources: dict[str, Figure]
    missing: list[str]


def plan_metric_calls(question: str, figures: Sequence[Figure]) -> Plan | None:
    """One `metric` call per metric and company, even when an input is missing (the tool then names it);
    None when the question names no metric, gives no definition and asks no judgement a metric decides."""
    plans = metric_plans(question, figures)
    return None if plans is None else [("metric", p.args) for p in plans]


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
            if over := averaged_years(question, years_named(question)):
                chosen = average_inputs(target, figures, company, over, chosen.measure)
                args = {"name": target.name, "inputs": chosen.values, "years": over}
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
    if any(reported(m, figures) for m in find_metrics(question)):
        return [], ""
    days = day_basis(question)
    return [with_day_basis(m, days) for m in targets], topic


def reported(metric: Metric, figures: Sequence[Figure]) -> bool:
    return any(metric in find_metrics(f.label) for f in figures)


def with_day_basis(metric: Metric, days: int | None) -> Metric:
    """The metric on the day count the question states ('using a 360-day year'), as the question's definition."""
    if not days or not metric.day_basis or days == metric.day_basis:
        return metric
    formulas = tuple(parse_formula(f.text.replace(str(metric.day_basis), str(days), 1)) for f in metric.formulas)
    return replace(metric, formulas=formulas[:1], day_basis=days, origin="question")


def companies_asked(question: str, figures: Sequence[Figure]) -> list[str | None]:
    """The companies the question names (by the first word of their name), else every company in the figures."""
    names = list(dict.fromkeys(f.company for f in figures if f.company))
    q = question.lower()
    named = [c for c in names if re.search(rf"\b{re.escape(c.lower().split()[0])}\b", q)]
    return named or names or [None]


def average_inputs(target: Metric, figures: Sequence[Figure], company: str | None, years: Sequence[int],
                   measure: str | None) -> MetricInputs:
    """The inputs of a metric averaged over `years`: each year's inputs, together; missing ones named."""
    merged = MetricInputs(target, target.formulas[0], years[-1], measure=measure)
    for year in years:
        chosen = metric_inputs(target, figures, company=company, year=year, measure=measure)
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
    return metric_inputs(target, figures, company=company, year=year, measure=measure)
