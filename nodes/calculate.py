"""Nodes of the calculator subgraph (graphs/calculator.py), its state, and its model.

Steps: `start_calculation` writes the prompt, `call_model` asks the tool-calling model for its next move,
`route_after_model` sends tool calls to the `tools` node (LangGraph's ToolNode) or ends the loop,
`finish_calculation` turns the tool messages into a `CalculationOutcome` whose results name the figures
their inputs came from.

The model is the model factory's calculator role (app/models): offline, `RuleBasedCalculatorModel`
(app/models/providers/offline/calculator.py), which reads the question and the figures and emits the same tool
calls a real model would; any chat model with `bind_tools` will do.

A question that names a metric (app/metrics.py), gives its own definition of one, or asks a judgement a metric
decides ('is it capital-intensive?') has a metric plan (app/metric_plans.py): the figures for each input chosen
by line-item label, company and year. `start_calculation` shows it to the model in the request, with the figure
id behind each input.
"""

import math
from collections.abc import Iterable, Sequence
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

from app.calc_tools import CalcError, CalcResult, CalculationOutcome, Figure, plain_number, unit_text
from app.facts.measures import label_words
from app.metric_plans import metric_hints
from app.metrics import key_parts, label_match
from app.text.units import money_scale
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
    """What the model sees of each figure: an id (F1, F2, ...) and the fields arithmetic needs, with the period
    its column or sentence gives when it is not the fiscal year alone ('3M 2023-06-30': a quarter's, no input for
    a full year's metric), and its origin when it is a table's total or a row that reconciles its members to it
    ('total', 'reconciling'): no member of a ranking, the base of a share."""
    keep = {"label", "value", "unit", "company", "fiscal_year"}
    return [{"id": f"F{i}", **f.model_dump(include=keep), **({"period": f.period} if f.period else {}),
             **({"origin": f.origin} if f.origin in ROLE_ORIGINS else {})}
            for i, f in enumerate(figures, start=1)]


ROLE_ORIGINS = frozenset({"total", "reconciling", "thread", "question"})
"""Origins a calculation must know: a table's stated total, the rows that reconcile its members to it, and, for
arithmetic asked of given numbers, the previous answer's figure ('thread') and the question's own ('question')."""


def attach_sources(result: CalcResult, figures: Sequence[Figure], question: str = "") -> CalcResult:
    """For each input equal to a given figure's value, record that figure. Several figures can share a value
    (8.7% is a segment margin and another company's group margin): prefer one not used yet, then the one
    whose label best matches the question, then one of a company not used yet, then the first given."""
    sources: dict[str, Figure] = {}
    q_words = label_words(question)
    for name, value in result.inputs.items():
        matches = [f for f in figures if math.isclose(f.value, value, rel_tol=1e-9, abs_tol=1e-12)]
        if not matches:
            continue
        used = list(sources.values())
        used_companies = {(f.company or "").lower() for f in used}

        def preference(indexed: tuple[int, Figure]) -> tuple[int, int, int, int, int]:
            i, f = indexed
            label = label_words(f.label)
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


def describe_result(result: CalcResult) -> str:
    """'growth_rate: (1311.2 - 1204.6) / 1204.6 * 100 = 8.85% [old: Revenue, Northwind FY2023 (src-1)]'; a
    metric adds its formula, a judgement the metric it rests on."""
    cited = "; ".join(
        f"{name}: {f.label}, {f.company or '?'} FY{f.fiscal_year or '?'} ({f.source_id})"
        for name, f in result.sources.items()
    )
    line = f"{result.tool}: {result.expression} = {plain_number(result.result)}{unit_text(result.unit)}"
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
