"""The calculator subgraph end to end: the rule-based model, a scripted tool-calling model, the step cap,
tool errors, output isolation and checkpointing."""

from __future__ import annotations

import json
import logging
import operator
import warnings
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages

from app.calc_tools import CHECKPOINT_TYPES, CalculationOutcome, Figure
from app.models.providers.offline import RuleBasedCalculatorModel
from app.models.providers.offline.calculator import plan_tool_calls, read_request
from graphs.calculator import build_calculator_graph
from nodes.calculate import route_after_model

NW_2023 = Figure(
    label="Revenue", value=1204.6, unit="£m", company="Northwind Logistics", fiscal_year=2023,
    source_id="northwind-fy2023", chunk_id="nw23-3", quote="Revenue (£m) | 1,204.6",
)
NW_2024 = Figure(
    label="Revenue", value=1311.2, unit="£m", company="Northwind Logistics", fiscal_year=2024,
    source_id="northwind-fy2024", chunk_id="nw24-3", quote="Revenue (£m) | 1,311.2 | 1,204.6",
)
NW_PROFIT = Figure(
    label="Operating profit", value=87.8, unit="£m", company="Northwind Logistics", fiscal_year=2024,
    source_id="northwind-fy2024", chunk_id="nw24-3", quote="Operating profit (£m) | 87.8",
)
CL_2024 = Figure(
    label="Revenue", value=642.0, unit="£m", company="Copperleaf Foods", fiscal_year=2024,
    source_id="copperleaf-fy2024", chunk_id="cl24-1", quote="Revenue of £642.0m",
)
NW_2021 = NW_2023.model_copy(update={"value": 1000.0, "fiscal_year": 2021, "source_id": "northwind-fy2021"})


class ScriptedToolModel(BaseChatModel):
    """A tool-calling test double: answers from a function of the conversation (safe under parallel runs)."""

    respond: Callable[[list[BaseMessage]], AIMessage]
    tool_names: tuple[str, ...] = ()

    @property
    def _llm_type(self) -> str:
        return "scripted-tool-model"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedToolModel:
        names = tuple(convert_to_openai_tool(t)["function"]["name"] for t in tools)
        return self.model_copy(update={"tool_names": names})

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        assert self.tool_names, "the graph must bind the tools before calling the model"
        return ChatResult(generations=[ChatGeneration(message=self.respond(messages))])


def call(name: str, args: dict[str, Any], call_id: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}])


def run(model: Any = None, question: str = "How much did Northwind revenue grow?", figures=(NW_2023, NW_2024), **kw):
    graph = build_calculator_graph(model or RuleBasedCalculatorModel(), **kw).compile()
    return graph.invoke({"question": question, "figures": list(figures)})


# --- the rule-based model ---------------------------------------------------------------------------------------


def test_growth_question_returns_ok_with_results_citing_the_figures():
    out = run(figures=[NW_2024, NW_PROFIT, NW_2023])
    outcome = out["calculation"]
    assert isinstance(outcome, CalculationOutcome)
    assert outcome.status == "ok"
    [result] = outcome.results
    assert (result.tool, result.result, result.unit) == ("growth_rate", 8.85, "%")
    assert result.inputs == {"old": 1204.6, "new": 1311.2}
    assert result.sources["old"].source_id == "northwind-fy2023"
    assert result.sources["new"].source_id == "northwind-fy2024"
    assert result.sources["new"].chunk_id == "nw24-3" and result.sources["new"].quote
    assert "8.85%" in outcome.summary and "northwind-fy2023" in outcome.summary
    assert "8.85" in outcome.model_answer


def test_figures_may_arrive_as_plain_dicts():
    out = run(figures=[NW_2023.model_dump(), NW_2024.model_dump()])
    assert out["calculation"].results[0].sources["new"].source_id == "northwind-fy2024"


def test_question_without_arithmetic_is_no_calculation():
    outcome = run(question="Who chairs the Northwind board?")["calculation"]
    assert outcome.status == "no_calculation"
    assert outcome.results == []
    assert outcome.summary


def test_growth_without_two_years_is_no_calculation():
    assert run(figures=[NW_2024])["calculation"].status == "no_calculation"


def test_difference_between_two_companies_follows_the_question_order():
    outcome = run(question="What is the difference between Northwind and Copperleaf revenue in FY2024?",
                  figures=[CL_2024, NW_2024])["calculation"]
    [result] = outcome.results
    assert (result.tool, result.inputs, result.result) == ("difference", {"a": 1311.2, "b": 642.0}, 669.2)
    assert result.sources["a"].company == "Northwind Logistics"
    assert result.sources["b"].source_id == "copperleaf-fy2024"


def test_ratio_and_cagr_questions_pick_their_tools():
    ratio = run(question="How many times Copperleaf's revenue is Northwind's?", figures=[CL_2024, NW_2024])
    assert ratio["calculation"].results[0].tool == "ratio"
    assert ratio["calculation"].results[0].result == 0.4896
    cagr = run(question="What was the CAGR of Northwind revenue?", figures=[NW_2021, NW_2024])
    [result] = cagr["calculation"].results
    assert (result.tool, result.inputs["years"], result.result) == ("cagr", 3.0, 9.45)


def test_plan_prefers_the_label_the_question_names():
    plan = plan_tool_calls("How much did operating profit grow?", [
        NW_2023, NW_2024, NW_PROFIT, NW_PROFIT.model_copy(update={"value": 76.5, "fiscal_year": 2023}),
    ])
    assert plan == [("growth_rate", {"old": 76.5, "new": 87.8})]


def test_rule_based_model_calls_only_bound_tools():
    human = HumanMessage(json.dumps({"question": "How much did revenue grow?",
                                     "figures": [NW_2023.model_dump(), NW_2024.model_dump()]}))
    unbound = RuleBasedCalculatorModel().invoke([human])
    assert unbound.tool_calls == []
    bound = RuleBasedCalculatorModel().bind_tools([convert_to_openai_tool(_growth_schema())]).invoke([human])
    assert [c["name"] for c in bound.tool_calls] == ["growth_rate"]
    assert bound.tool_calls[0]["args"] == {"old": 1204.6, "new": 1311.2}


def _growth_schema() -> dict[str, Any]:
    return {"name": "growth_rate", "description": "growth", "parameters": {"type": "object", "properties": {}}}


def test_read_request_accepts_plain_text():
    assert read_request([HumanMessage("just words")]) == ("just words", [])


# --- a scripted tool-calling model -----------------------------------------------------------------------------


def test_the_loop_executes_the_models_tool_calls_and_feeds_back_results():
    seen: list[list[BaseMessage]] = []

    def respond(messages: list[BaseMessage]) -> AIMessage:
        seen.append(messages)
        done = [m for m in messages if isinstance(m, ToolMessage)]
        if not done:
            return call("evaluate", {"expression": "(1311.2 - 1204.6) / 1204.6 * 100"}, "c1")
        if len(done) == 1:
            return call("ratio", {"numerator": 1311.2, "denominator": 642.0}, "c2")
        return AIMessage(content="Revenue grew 8.85% [F2, F1]; Northwind is 2.04x Copperleaf.")

    outcome = run(ScriptedToolModel(respond=respond), figures=[NW_2023, NW_2024, CL_2024])["calculation"]
    assert outcome.status == "ok"
    assert [r.tool for r in outcome.results] == ["evaluate", "ratio"]
    assert [r.result for r in outcome.results] == [8.849411, 2.0424]
    assert outcome.results[0].sources["x1"].source_id == "northwind-fy2024"
    assert outcome.results[1].sources["denominator"].source_id == "copperleaf-fy2024"
    assert outcome.model_answer.startswith("Revenue grew 8.85%")
    assert len(seen) == 3
    assert isinstance(seen[0][-1], HumanMessage) and json.loads(seen[0][-1].content)["figures"][0]["id"] == "F1"
    assert '"result":8.849411' in seen[1][-1].content


def test_tool_errors_go_back_to_the_model_and_end_as_error():
    def respond(messages: list[BaseMessage]) -> AIMessage:
        tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
        if not tool_messages:
            return call("ratio", {"numerator": 1.0, "denominator": 0.0}, "c1")
        assert tool_messages[-1].status == "error"
        return AIMessage(content="The ratio is undefined: the denominator is zero.")

    outcome = run(ScriptedToolModel(respond=respond))["calculation"]
    assert outcome.status == "error"
    assert outcome.results == []
    assert "division_by_zero" in outcome.errors[0]


def test_invalid_tool_arguments_are_reported_not_raised():
    def respond(messages: list[BaseMessage]) -> AIMessage:
        if any(isinstance(m, ToolMessage) for m in messages):
            return AIMessage(content="giving up")
        return call("growth_rate", {"old": "lots", "new": 3}, "c1")

    outcome = run(ScriptedToolModel(respond=respond))["calculation"]
    assert outcome.status == "error"
    assert outcome.errors and outcome.errors[0].startswith("growth_rate")


def test_a_model_that_never_stops_ends_at_the_step_cap():
    calls = 0

    def respond(messages: list[BaseMessage]) -> AIMessage:
        nonlocal calls
        calls += 1
        return call("difference", {"a": 1311.2, "b": 1204.6}, f"c{calls}")

    outcome = run(ScriptedToolModel(respond=respond), max_steps=4)["calculation"]
    assert outcome.status == "step_cap"
    assert calls == 4
    assert len(outcome.results) == 3
    assert outcome.model_answer == ""
    assert "step cap" in outcome.summary


def test_build_arguments_are_validated():
    with pytest.raises(ValueError, match="max_steps"):
        build_calculator_graph(RuleBasedCalculatorModel(), max_steps=0)
    with pytest.raises(TypeError, match="bind_tools"):
        build_calculator_graph(model=object())


# --- routing --------------------------------------------------------------------------------------------------


def test_route_after_model():
    asks = call("difference", {"a": 1, "b": 2}, "c1")
    assert route_after_model({"messages": [asks], "steps": 1, "max_steps": 6}) == "tools"
    assert route_after_model({"messages": [asks], "steps": 6, "max_steps": 6}) == "finish_calculation"
    assert route_after_model({"messages": [AIMessage("done")], "steps": 1, "max_steps": 6}) == "finish_calculation"


# --- isolation and checkpointing -----------------------------------------------------------------------------


def test_invoke_returns_only_the_calculation():
    assert set(run()) == {"calculation"}


class ParentState(TypedDict):
    question: str
    figures: list[Figure]
    calculation: CalculationOutcome
    messages: Annotated[list[AnyMessage], add_messages]
    log: Annotated[list[str], operator.add]


def test_as_a_subgraph_only_the_calculation_reaches_the_parent():
    parent = StateGraph(ParentState)
    parent.add_node("calculate", build_calculator_graph(RuleBasedCalculatorModel()).compile())
    parent.add_edge(START, "calculate")
    parent.add_edge("calculate", END)
    out = parent.compile(checkpointer=InMemorySaver()).invoke(
        {"question": "How much did Northwind revenue grow?", "figures": [NW_2023, NW_2024],
         "messages": [HumanMessage("user turn")], "log": []},
        {"configurable": {"thread_id": "parent"}},
    )
    assert out["calculation"].status == "ok"
    assert [m.content for m in out["messages"]] == ["user turn"]
    assert "steps" not in out


def test_checkpointed_runs_restart_cleanly_and_round_trip_the_outcome(caplog):
    serde = JsonPlusSerializer(allowed_msgpack_modules=list(CHECKPOINT_TYPES))
    graph = build_calculator_graph(RuleBasedCalculatorModel()).compile(checkpointer=InMemorySaver(serde=serde))
    config = {"configurable": {"thread_id": "t1"}}
    request = {"question": "How much did Northwind revenue grow?", "figures": [NW_2023, NW_2024]}
    with caplog.at_level(logging.WARNING), warnings.catch_warnings():
        warnings.simplefilter("error")
        graph.invoke(request, config)
        second = graph.invoke(request, config)
    assert second["calculation"].status == "ok"
    state = graph.get_state(config).values
    assert isinstance(state["calculation"], CalculationOutcome)
    assert isinstance(state["figures"][0], Figure)
    assert len(state["messages"]) == 5  # system, request, tool call, tool result, answer: not doubled
    assert not [r for r in caplog.records if "unregistered" in r.getMessage()]


def test_attach_sources_prefers_the_figure_the_question_names_when_values_collide():
    from app.calc_tools import difference
    from nodes.calculate import attach_sources

    segment = Figure(label="Battery Storage margin", value=8.7, unit="%", company="Helio Renewables",
                     fiscal_year=2024, source_id="hl")
    group_cl = Figure(label="Operating margin", value=8.7, unit="%", company="Copperleaf Foods",
                      fiscal_year=2024, source_id="cl")
    group_hl = Figure(label="Operating margin", value=9.1, unit="%", company="Helio Renewables",
                      fiscal_year=2024, source_id="hl")
    result = attach_sources(difference(8.7, 9.1), [segment, group_cl, group_hl],
                            "difference in FY2024 operating margin between Copperleaf and Helio")
    assert result.sources["a"] is group_cl and result.sources["b"] is group_hl
    # Without a question the shorter (more general) label wins; the choice never depends on luck.
    assert attach_sources(difference(8.7, 9.1), [segment, group_cl, group_hl]).sources["a"] is group_cl


@pytest.mark.parametrize("question", [
    "By how much did Northwind's FY2024 revenue exceed Copperleaf's?",
    "How far did Northwind outpace Copperleaf on revenue in FY2024?",
])
def test_exceed_and_outpace_are_differences_not_growth(question):
    [result] = run(question=question, figures=[CL_2024, NW_2024])["calculation"].results
    assert result.tool == "difference" and result.inputs == {"a": 1311.2, "b": 642.0}


def test_change_between_years_is_later_minus_earlier_and_relation_words_mean_a_ratio():
    from app.models.providers.offline.calculator import plan_tool_calls

    old = Figure(label="Cash from operations", value=6161.0, company="UNP", fiscal_year=2012, source_id="s")
    new = Figure(label="Cash from operations", value=6823.0, company="UNP", fiscal_year=2013, source_id="s")
    assert plan_tool_calls("what was the change in cash from operations?", [new, old]) == [
        ("difference", {"a": 6823.0, "b": 6161.0})]
    # the facts step puts a change's two periods first: the change, and for an amount the change in per cent too
    assert plan_tool_calls("how did cash from operations change from 2012 to 2013?", [old, new]) == [
        ("difference", {"a": 6823.0, "b": 6161.0}), ("percentage_change", {"old": 6161.0, "new": 6823.0})]
    assert plan_tool_calls("what was the difference in cash from operations between 2012 and 2013?",
                           [old, new]) == [("difference", {"a": 6823.0, "b": 6161.0})]
    [(tool, _)] = plan_tool_calls("how much does 2012 cash from operations represent in relation to 2013?",
                                  [old, new])
    assert tool == "ratio"


def test_a_singular_measure_finds_the_statements_plural_total_beside_a_one_year_mention():
    from app.models.providers.offline.calculator import plan_tool_calls

    def fig(label: str, value: float, year: int, unit: str = "$k") -> Figure:
        return Figure(label=label, value=value, unit=unit, company="Ternline", fiscal_year=year, source_id="s")

    figures = [fig("Total revenues", 4459440, 2024), fig("Total revenues", 4047550, 2023),
               fig("Cost of revenues", 3528210, 2024), fig("Cost of revenues", 3214880, 2023),
               fig("Revenues", 538.2, 2024, "$m")]  # a subsidiary's, stated in one sentence for one year
    assert plan_tool_calls("What was Ternline's revenue growth from FY2023 to FY2024?", figures) == [
        ("growth_rate", {"old": 4047550, "new": 4459440})]
    assert plan_tool_calls("What was the growth in Ternline's cost of revenues from FY2023 to FY2024?",
                           figures) == [("growth_rate", {"old": 3214880, "new": 3528210})]
    # 'Net sales' is the revenue a question asks about; 'Cost of sales' is not.
    sales = [fig("Net sales", 35355, 2021, "$m"), fig("Net sales", 34229, 2022, "$m"),
             fig("Cost of sales", 18795, 2021, "$m"), fig("Cost of sales", 19232, 2022, "$m")]
    assert plan_tool_calls("What was 3M's revenue growth from FY2021 to FY2022?", sales) == [
        ("growth_rate", {"old": 35355, "new": 34229})]
    # 'sale' alone names no measure: a gain on the sale of property is not revenue.
    gains = [fig("Gain on sale of property", 12, 2021, "$m"), fig("Gain on sale of property", 15, 2022, "$m")]
    assert plan_tool_calls("What was 3M's revenue growth from FY2021 to FY2022?", gains) == []


# --- metrics, definitions and judgements ------------------------------------------------------------------------

def _f(label: str, value: float, year: int, company: str = "Ferncliff Tools", unit: str = "$m") -> Figure:
    return Figure(label=label, value=value, unit=unit, company=company, fiscal_year=year,
                  source_id=f"{company.split()[0].lower()}-fy{year}", chunk_id=f"{label[:6]}-{year}",
                  quote=f"{label} | {value}")


FERN = [
    _f("Net sales", 5000.0, 2022), _f("Net sales", 4600.0, 2021),
    _f("Purchases of property, plant and equipment", -350.0, 2022),
    _f("Property, plant and equipment, net", 1300.0, 2022), _f("Property, plant and equipment, net", 1200.0, 2021),
    _f("Total current assets", 2100.0, 2022), _f("Total current liabilities", 1400.0, 2022),
    _f("Cash and cash equivalents", 500.0, 2022), _f("Accounts receivable", 610.0, 2022),
]


def test_a_named_metric_is_computed_with_its_formula_and_every_input_cited():
    outcome = run(question="What was Ferncliff's fixed asset turnover in FY2022?", figures=FERN)["calculation"]
    assert outcome.status == "ok"
    [result] = outcome.results
    assert (result.tool, result.result, result.unit) == ("metric", 4.0, "x")  # 5000 / ((1200 + 1300) / 2)
    assert result.formula.startswith("fixed asset turnover = revenue / average PP&E")
    assert {k: (f.label, f.fiscal_year) for k, f in result.sources.items()} == {
        "revenue_2022": ("Net sales", 2022),
        "ppe_2021": ("Property, plant and equipment, net", 2021),
        "ppe_2022": ("Property, plant and equipment, net", 2022)}
    assert all(f.chunk_id and f.quote for f in result.sources.values())
    assert "revenue / average PP&E" in outcome.summary and "ferncliff-fy2021" in outcome.summary


def test_the_questions_definition_and_rounding_win():
    question = ("What is Ferncliff's FY2022 fixed asset turnover? Fixed asset turnover is defined as: "
                "FY2022 revenue / FY2022 PP&E. Round your answer to one decimal place.")
    [result] = run(question=question, figures=FERN)["calculation"].results
    assert result.result == 3.8  # 5000 / 1300 = 3.846..., not the catalogue's 4.0
    assert result.expression == "5000 / 1300"
    assert "FY2022 revenue / FY2022 PP&E" in result.formula


def test_a_missing_input_gives_no_result_and_an_error_naming_it():
    without = [f for f in FERN if f.label != "Total current liabilities"]
    outcome = run(question="What is Ferncliff's quick ratio for FY2022?", figures=without)["calculation"]
    assert outcome.status == "error" and outcome.results == []
    [error] = outcome.errors
    assert "missing_input" in error and "current liabilities FY2022" in error
    assert "cash and cash equivalents" not in error.split("needs", 1)[1]


def test_a_judgement_question_rests_on_the_metrics_that_decide_it():
    outcome = run(question="Is Ferncliff a capital-intensive business based on FY2022 data?",
                  figures=FERN)["calculation"]
    assert [(r.formula.split(" =")[0], r.result) for r in outcome.results] == [
        ("capex as a share of revenue", 7.0), ("fixed asset turnover", 4.0)]
    assert "The capital intensity judgement rests on capex as a share of revenue = 7%." in outcome.summary
    assert "rests on fixed asset turnover = 4x" in outcome.summary


def test_a_judgement_on_a_named_metric_uses_only_that_metric():
    figures = [*FERN, _f("Short-term investments", 90.0, 2022)]
    question = "Does Ferncliff have a healthy liquidity profile based on its quick ratio in FY2022?"
    [result] = run(question=question, figures=figures)["calculation"].results
    assert result.result == 0.8571  # (500 + 90 + 610) / 1400
    assert result.note == "The liquidity judgement rests on quick ratio = 0.8571x."


def test_a_metric_per_company_named():
    other = [_f("Total current assets", 300.0, 2022, "Brindle Co"), _f("Total current liabilities", 200.0, 2022,
                                                                         "Brindle Co")]
    results = run(question="Compare the FY2022 current ratio of Ferncliff and Brindle", figures=[*FERN, *other]
                  )["calculation"].results
    assert [(r.sources["current_assets_2022"].company, r.result) for r in results] == [
        ("Ferncliff Tools", 1.5), ("Brindle Co", 1.5)]


def test_a_metric_the_figures_report_is_left_to_the_plain_tools():
    margins = [_f("Operating margin", 8.7, 2024, "Copperleaf Foods", "%"),
               _f("Operating margin", 9.1, 2024, "Helio Renewables", "%")]
    plan = plan_tool_calls("What is the difference in FY2024 operating margin between Copperleaf and Helio?",
                           margins)
    assert plan == [("difference", {"a": 8.7, "b": 9.1})]


def test_a_stated_day_basis_replaces_365():
    figures = [_f("Accounts receivable", 400.0, 2022), _f("Accounts receivable", 200.0, 2021)]
    [(tool, args)] = plan_tool_calls("Ferncliff's FY2022 DSO using a 360-day year?", [*FERN[:2], *figures])
    assert tool == "metric" and args["definition"] == "360 * average accounts receivable / revenue"
    [result] = run(question="Ferncliff's FY2022 DSO using a 360-day year?", figures=[*FERN[:2], *figures]
                   )["calculation"].results
    assert (result.result, result.unit) == (21.6, "days")  # 360 * 300 / 5000


def test_a_money_metric_takes_its_inputs_unit():
    [result] = run(question="What was Ferncliff's FY2022 working capital?", figures=FERN)["calculation"].results
    assert (result.result, result.unit) == (700.0, "$m")


def test_a_tool_calling_model_is_shown_the_metric_plan_and_its_call_is_cited():
    def respond(messages: list[BaseMessage]) -> AIMessage:
        if any(isinstance(m, ToolMessage) for m in messages):
            return AIMessage(content="Current ratio 1.5x [F6, F7].")
        [hint] = json.loads(messages[1].content)["metrics"]
        assert hint["figure_ids"] == {"current_assets_2022": "F6", "current_liabilities_2022": "F7"}
        assert hint["missing"] == []
        return call(hint["call"], hint["args"], "m1")

    outcome = run(ScriptedToolModel(respond=respond), question="Ferncliff's current ratio in FY2022?",
                  figures=FERN)["calculation"]
    [result] = outcome.results
    assert result.result == 1.5 and result.sources["current_liabilities_2022"].label == "Total current liabilities"


def test_a_request_without_a_metric_has_no_metric_hints():
    def respond(messages: list[BaseMessage]) -> AIMessage:
        assert "metrics" not in json.loads(messages[1].content)
        return AIMessage(content="nothing to do")

    assert run(ScriptedToolModel(respond=respond))["calculation"].status == "no_calculation"


def test_no_figure_label_sharing_a_word_with_the_question_means_no_calculation() -> None:
    from app.calc_tools import Figure
    from app.models.providers.offline.calculator import plan_tool_calls

    figures = [Figure(label="Assets", value=157.0, unit="$m", company="Acme", fiscal_year=2022, source_id="a"),
               Figure(label="Assets", value=216.0, unit="$m", company="Acme", fiscal_year=2021, source_id="a")]
    assert plan_tool_calls("What was Acme's combined ratio for its underwriting in 2022?", figures) == []
    assert plan_tool_calls("What was the ratio of Acme's assets in 2022 to 2021?", figures)  # named: computed


def test_the_figures_computed_on_must_name_the_measure_asked() -> None:
    from app.calc_tools import Figure
    from app.models.providers.offline.calculator import names_the_measure, plan_tool_calls

    cost = [Figure(label="Cost of sales", value=v, unit="$m", company="Kestrel Mining", fiscal_year=y, source_id="k")
            for v, y in ((2451.0, 2022), (2905.0, 2024))]
    assert plan_tool_calls("What was Kestrel Mining's same-store sales growth in fiscal 2024?", cost) == []
    assert plan_tool_calls("How much did Kestrel Mining's cost of sales grow?", cost)
    assert names_the_measure("what was, then, the change?", "Net cash from operations")  # names no measure


def test_growth_is_between_the_years_the_question_names_not_the_statements_first_and_last() -> None:
    from app.calc_tools import Figure
    from app.models.providers.offline.calculator import plan_tool_calls

    revenue = [Figure(label="Total net revenue", value=v, unit="$k", company="Kestrel Mining", fiscal_year=y,
                      source_id="k") for v, y in ((3298.0, 2018), (4713.5, 2019), (9497.6, 2020))]
    assert plan_tool_calls("What is the FY2019 - FY2020 total revenue growth rate for Kestrel Mining?", revenue) == [
        ("growth_rate", {"old": 4713.5, "new": 9497.6})]
    assert plan_tool_calls("How much did Kestrel Mining's total net revenue grow in FY2019?", revenue) == [
        ("growth_rate", {"old": 3298.0, "new": 4713.5})]  # one year named: from the year before
    assert plan_tool_calls("How much did Kestrel Mining's total net revenue grow?", revenue) == [
        ("growth_rate", {"old": 3298.0, "new": 9497.6})]


MARGINS = [_f("Net sales", 5000.0, 2022), _f("Net sales", 4600.0, 2021),
           _f("Gross profit", 2000.0, 2022), _f("Gross profit", 1748.0, 2021)]


def test_a_change_in_a_metric_is_computed_for_both_years_then_their_difference():
    outcome = run(question="How did Ferncliff's gross margin change between FY2021 and FY2022?",
                  figures=MARGINS)["calculation"]
    assert [(r.tool, r.result) for r in outcome.results] == [("metric", 38.0), ("metric", 40.0), ("difference", 2.0)]
    assert {f.fiscal_year for f in outcome.results[0].sources.values()} == {2021}
    # a judgement on a trend reads the two latest years too, and takes no difference
    trend = run(question="Does Ferncliff have an improving gross margin profile as of FY2022?", figures=MARGINS)
    assert [(r.tool, r.result) for r in trend["calculation"].results] == [("metric", 38.0), ("metric", 40.0)]


def test_a_full_year_metric_takes_no_quarters_figure_and_a_quarter_question_takes_it():
    quarter = Figure(label="Net sales", value=1300.0, unit="$m", company="Ferncliff Tools", fiscal_year=2022,
                     period="3M 2022-12-31", source_id="fern-q4", chunk_id="q4-sales", quote="Net sales | 1,300")
    figures = [quarter, *MARGINS]
    [result] = run(question="What was Ferncliff's gross margin in FY2022?", figures=figures)["calculation"].results
    assert result.result == 40.0 and result.sources["revenue_2022"].period is None
    averaged = run(question="What is the FY2021 - FY2022 2 year average gross margin of Ferncliff?",
                   figures=figures)["calculation"].results
    assert [(r.tool, r.result) for r in averaged] == [("metric", 39.0)]
    quarter_profit = quarter.model_copy(update={"label": "Gross profit", "value": 390.0, "chunk_id": "q4-gp"})
    [q4] = run(question="What was Ferncliff's gross margin in Q4 of FY2022?",
               figures=[quarter, quarter_profit, *MARGINS])["calculation"].results
    assert q4.result == 30.0 and q4.sources["revenue_2022"].period == "3M 2022-12-31"


def test_one_series_under_two_labels_is_computed_once_from_the_figures_given_first():
    from app.models.providers.offline.calculator import next_rule_based_message
    from prompts.calculator import render_calculator_request
    from nodes.calculate import figure_payloads

    table = [_f("Revenue", 1204.6, 2023), _f("Revenue", 1311.2, 2024)]
    prose = [_f("Revenue", 437.2, 2024)]  # a segment's revenue, read from a sentence after the facts
    request = render_calculator_request("How much did Ferncliff's revenue grow in FY2024?",
                                        figure_payloads([*table, *prose]), [])
    message = next_rule_based_message([HumanMessage(request)], ("growth_rate",))
    assert [(c["name"], c["args"]) for c in message.tool_calls] == [("growth_rate", {"old": 1204.6, "new": 1311.2})]
    twice = render_calculator_request("How much did Ferncliff's revenue grow in FY2024?",
                                      figure_payloads([*table, _f("Group revenue", 1204.6, 2023),
                                                       _f("Group revenue", 1311.2, 2024)]), [])
    assert len(next_rule_based_message([HumanMessage(twice)], ("growth_rate",)).tool_calls) == 1


def test_a_share_row_of_another_measure_is_no_growth_of_the_share_asked():
    margin = [NW_PROFIT.model_copy(update={"label": "Operating profit (as a percentage of revenue)", "unit": "%",
                                           "value": v, "fiscal_year": y}) for v, y in ((13.8, 2023), (13.9, 2024))]
    asked = "Did Northwind's wages expense as a percent of revenue increase or decrease in FY2024?"
    assert plan_tool_calls(asked, margin) == []
    own = "Did Northwind's operating profit as a percent of revenue increase in FY2024?"
    assert plan_tool_calls(own, margin) != []
