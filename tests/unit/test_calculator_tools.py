"""The calculator's arithmetic: values, rounding, typed errors, and hostile expressions refused quickly."""

from __future__ import annotations

import time

import pytest
from langchain_core.messages import ToolMessage

from app.calc_tools import (
    MAX_EXPRESSION_CHARS,
    CalcError,
    CalcResult,
    cagr,
    calculator_tools,
    difference,
    evaluate,
    growth_rate,
    percentage_change,
    ratio,
)


def test_growth_rate_rounds_to_two_places_and_shows_its_arithmetic():
    result = growth_rate(1204.6, 1311.2)
    assert result.result == 8.85
    assert result.unit == "%"
    assert result.inputs == {"old": 1204.6, "new": 1311.2}
    assert result.expression == "(1311.2 - 1204.6) / 1204.6 * 100"


def test_growth_rate_can_be_negative():
    assert growth_rate(100, 80).result == -20.0


def test_growth_rate_refuses_a_zero_or_negative_base():
    with pytest.raises(CalcError) as zero:
        growth_rate(0, 5)
    assert zero.value.code == "division_by_zero"
    with pytest.raises(CalcError) as negative:
        growth_rate(-10, 5)
    assert negative.value.code == "domain"


def test_percentage_change_uses_the_size_of_a_negative_base():
    assert percentage_change(-50, -25).result == 50.0
    assert percentage_change(200, 150).result == -25.0


def test_difference_removes_float_noise():
    result = difference(1311.2, 1204.6)
    assert result.result == 106.6
    assert result.expression == "1311.2 - 1204.6"
    assert result.unit == ""


def test_ratio_is_a_multiple():
    result = ratio(87.8, 1311.2)
    assert result.result == 0.067
    assert result.unit == "x"
    assert ratio(10, 4).result == 2.5


def test_ratio_division_by_zero_is_a_typed_error():
    with pytest.raises(CalcError, match="division by zero") as error:
        ratio(1, 0)
    assert error.value.code == "division_by_zero"
    assert isinstance(error.value, ValueError)


def test_cagr():
    result = cagr(100, 121, 2)
    assert result.result == 10.0
    assert result.unit == "%"
    assert result.inputs == {"start": 100.0, "end": 121.0, "years": 2.0}
    assert cagr(1000, 1331, 3).result == 10.0


@pytest.mark.parametrize("args", [(0, 10, 2), (-5, 10, 2), (10, -1, 2), (10, 20, 0), (10, 20, -1), (10, 20, 1e6)])
def test_cagr_refuses_impossible_inputs(args):
    with pytest.raises(CalcError):
        cagr(*args)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), True, "12", None, 1e16])
def test_inputs_must_be_finite_numbers_in_range(bad):
    with pytest.raises(CalcError):
        difference(bad, 1)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("(1311.2 - 1204.6) / 1204.6 * 100", 8.849411),
        ("2 ** 10", 1024.0),
        ("-3 + +5", 2.0),
        ("abs(-2.5) * 2", 5.0),
        ("round(8.849411, 2)", 8.85),
        ("max(1, 7, 3) - min(4, 2)", 5.0),
        ("1_000 / 8", 125.0),
        ("1.5e3 / 3", 500.0),
        ("0.1 + 0.2", 0.3),
    ],
)
def test_evaluate_computes_plain_arithmetic(expression, expected):
    result = evaluate(expression)
    assert result.result == expected
    assert result.tool == "evaluate"
    assert result.expression == expression


def test_evaluate_records_the_numbers_it_read_as_inputs():
    assert evaluate("(1311.2 - 1204.6) / 1204.6 * 100").inputs == {
        "x1": 1311.2, "x2": 1204.6, "x3": 1204.6, "x4": 100.0,
    }


HOSTILE = [
    ("__import__('os').system('x')", "forbidden"),
    ("__import__", "forbidden"),
    ("().__class__", "forbidden"),
    ("().__class__.__bases__[0].__subclasses__()", "forbidden"),
    ("(1).real", "forbidden"),
    ("9**9**9", "overflow"),
    ("2**1000", "overflow"),
    ("10.0**99", "overflow"),
    ("1e308*10", "overflow"),
    ("99999999999999999 + 1", "overflow"),
    ("x + 1", "forbidden"),
    ("revenue * 2", "forbidden"),
    ("lambda: 1", "forbidden"),
    ("[x for x in (1, 2)]", "forbidden"),
    ("(1, 2)", "forbidden"),
    ("'1' + '2'", "forbidden"),
    ("print(1)", "forbidden"),
    ("abs(x=1)", "forbidden"),
    ("abs(1, 2)", "syntax"),
    ("round(1.5, 0.5)", "domain"),
    ("pow(2, 3)", "forbidden"),
    ("1 if 1 else 2", "forbidden"),
    ("1 < 2", "forbidden"),
    ("7 // 2", "forbidden"),
    ("7 % 2", "forbidden"),
    ("1j", "forbidden"),
    ("...", "forbidden"),
    ("1 / 0", "division_by_zero"),
    ("1 / (2 - 2)", "division_by_zero"),
    ("0 ** -1", "division_by_zero"),
    ("(-8) ** 0.5", "domain"),
    ("1" * (MAX_EXPRESSION_CHARS + 1), "too_long"),
    ("1 + " * 100 + "1", "too_long"),
    ("١٢ + 1", "forbidden"),
    ("１２ + 1", "forbidden"),
    ("1\x00", "forbidden"),
    ("", "syntax"),
    ("1 +", "syntax"),
    ("((1)", "syntax"),
]


@pytest.mark.parametrize(("expression", "code"), HOSTILE)
def test_evaluate_rejects_hostile_or_invalid_input_quickly(expression, code):
    started = time.perf_counter()
    with pytest.raises(CalcError) as error:
        evaluate(expression)
    assert time.perf_counter() - started < 0.1
    assert error.value.code == code
    assert str(error.value)


def test_evaluate_survives_deep_nesting_within_the_length_cap():
    assert evaluate("(" * 99 + "1" + ")" * 99).result == 1.0
    assert evaluate("-" * 199 + "1").result == -1.0


def test_evaluate_only_parses_never_executes(monkeypatch):
    import ast
    import builtins

    real_compile = builtins.compile
    compiled: list[int] = []

    def parse_only(source, filename, mode, flags=0, *args, **kwargs):
        compiled.append(flags)
        assert flags & ast.PyCF_ONLY_AST, "evaluate may build an AST, never code"
        return real_compile(source, filename, mode, flags, *args, **kwargs)

    def forbidden(*args, **kwargs):
        raise AssertionError("evaluate must not execute code")

    monkeypatch.setattr(builtins, "compile", parse_only)
    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    assert evaluate("2 * (3 + 4)").result == 14.0
    assert compiled, "ast.parse is expected to be the only compile call"


def test_the_langchain_tools_match_the_functions():
    tools = {tool.name: tool for tool in calculator_tools()}
    assert set(tools) == {"growth_rate", "percentage_change", "difference", "ratio", "cagr", "evaluate", "metric"}
    assert set(tools["metric"].args) == {"name", "inputs", "year", "definition", "decimals", "judgement", "years"}
    assert set(tools["cagr"].args) == {"start", "end", "years"}
    assert all(tool.description for tool in tools.values())


def test_a_tool_call_returns_json_for_the_model_and_the_result_as_artifact():
    tool = {t.name: t for t in calculator_tools()}["growth_rate"]
    tool_call = {"name": "growth_rate", "args": {"old": 1204.6, "new": 1311.2}, "id": "c1", "type": "tool_call"}
    message = tool.invoke(tool_call)
    assert isinstance(message, ToolMessage)
    assert '"result":8.85' in message.content
    assert CalcResult.model_validate(message.artifact).result == 8.85


def test_a_tool_raises_calc_error_for_the_tool_node_to_report():
    tool = {t.name: t for t in calculator_tools()}["ratio"]
    with pytest.raises(CalcError):
        tool.invoke({"numerator": 1, "denominator": 0})


def test_the_metric_tool_returns_its_formula_and_refuses_missing_inputs():
    tool = {t.name: t for t in calculator_tools()}["metric"]
    message = tool.invoke({"name": "current ratio", "args": {"name": "current ratio", "year": 2024, "inputs": {
        "current_assets_2024": 900.0, "current_liabilities_2024": 600.0}}, "id": "m1", "type": "tool_call"})
    artifact = CalcResult.model_validate(message.artifact)
    assert (artifact.result, artifact.unit, artifact.expression) == (1.5, "x", "900 / 600")
    assert '"formula":"current ratio = current assets / current liabilities' in message.content
    with pytest.raises(CalcError, match="current liabilities FY2024"):
        tool.invoke({"name": "current ratio", "year": 2024, "inputs": {"current_assets_2024": 900.0}})


def test_the_metric_tool_evaluates_with_the_whitelist_walk(monkeypatch):
    import builtins

    from app.calc_tools import metric

    monkeypatch.setattr(builtins, "eval", lambda *a, **k: (_ for _ in ()).throw(AssertionError("no eval")))
    assert metric("net margin", {"net_income_2024": 20.0, "revenue_2024": 400.0}, year=2024).result == 5.0
    with pytest.raises(CalcError) as error:
        metric("net margin", {"net_income_2024": 20.0, "revenue_2024": 0.0}, year=2024)
    assert error.value.code == "division_by_zero"


def test_a_metric_averaged_over_years_is_the_mean_of_each_years_value():
    from app.calc_tools import metric

    inputs = {"capex_2022": -30.0, "revenue_2022": 1000.0, "capex_2023": -44.0, "revenue_2023": 1100.0,
              "capex_2024": -60.0, "revenue_2024": 1200.0}
    result = metric("capex as a share of revenue", inputs, years=[2022, 2023, 2024], decimals=1)
    assert result.result == 4.0  # (3.0 + 4.0 + 5.0) / 3, not 134 / 3300 = 4.06
    assert result.expression.endswith("/ 3") and "averaged over FY2022–FY2024" in result.formula
    assert set(result.inputs) == set(inputs)
    with pytest.raises(CalcError, match="revenue FY2023"):
        metric("capex as a share of revenue", {k: v for k, v in inputs.items() if k != "revenue_2023"},
               years=[2022, 2023, 2024])
    with pytest.raises(CalcError, match="two fiscal years"):
        metric("capex as a share of revenue", inputs, years=[2024])
