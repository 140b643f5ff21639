"""The calculator subgraph: a ReAct loop (model -> tools -> model ...) over safe arithmetic tools, `metric`
included (a catalogue metric or the question's own definition, app/metrics.py).

    START ─▶ start_calculation ─▶ call_model ─┬─ tool calls, under the cap ─▶ tools ─▶ call_model
                                              └─ final answer, or the cap ──▶ finish_calculation ─▶ END

Input `CalculatorInput` {question, figures}; output `CalculatorOutput` {calculation}. The messages and the
step counter are private: a parent graph (or `invoke`) sees only `calculation`. The model is the factory's
calculator role (app/models; offline: app/models/providers/offline/calculator.py), shown the metric plan of
app/metric_plans.py in its request.
"""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode

from app.calc_tools import CalcError, CalcResult, CalculationOutcome, Figure, calculator_tools
from app.models.roles import CalculatorModel
from nodes.calculate import (
    DEFAULT_MAX_STEPS,
    CalculatorInput,
    CalculatorOutput,
    CalculatorState,
    call_model,
    explain_tool_error,
    finish_calculation,
    route_after_model,
    start_calculation,
)

__all__ = [
    "CalcError", "CalcResult", "CalculationOutcome", "CalculatorInput", "CalculatorOutput", "CalculatorState",
    "Figure", "build_calculator_graph",
]


def build_calculator_graph(model: CalculatorModel, *, max_steps: int = DEFAULT_MAX_STEPS) -> StateGraph:
    """Wire the loop, uncompiled. `model`: the model factory's calculator role, any chat model with `bind_tools`
    (offline: RuleBasedCalculatorModel)."""
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive integer, got {max_steps!r}")
    if not callable(getattr(model, "bind_tools", None)):
        raise TypeError(f"the calculator needs a chat model with bind_tools; got {type(model).__name__}")
    tools = calculator_tools()

    builder = StateGraph(CalculatorState, input_schema=CalculatorInput, output_schema=CalculatorOutput)
    builder.add_node("start_calculation", partial(start_calculation, max_steps=max_steps))
    builder.add_node("call_model", partial(call_model, model=model.bind_tools(tools)))
    builder.add_node("tools", ToolNode(tools, handle_tool_errors=explain_tool_error))
    builder.add_node("finish_calculation", finish_calculation)

    # The request is written once, then the model takes the first turn.
    builder.add_edge(START, "start_calculation")
    builder.add_edge("start_calculation", "call_model")
    # Tool calls run while under the step cap; a plain answer (or the cap) finishes.
    builder.add_conditional_edges("call_model", route_after_model, ["tools", "finish_calculation"])
    # Tool results always go back to the model.
    builder.add_edge("tools", "call_model")
    builder.add_edge("finish_calculation", END)
    return builder
