"""Safe arithmetic for the calculator subgraph: plain functions, their LangChain tools, and the result models.

Every function validates its inputs, raises `CalcError` (a `ValueError` with a `code`) on anything it cannot
compute honestly, rounds its answer and returns a `CalcResult` that records the inputs and the arithmetic as
text. `evaluate` parses with `ast` and walks a whitelist: it never calls `eval`, `exec` or compiles code.
`metric` applies a catalogue metric (app/metrics.py), or a question's own definition, to named inputs: it writes
the formula out with the numbers in and evaluates that with the same whitelist walk.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from typing import Any, Literal

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from app.metrics import Formula, Metric, definition_metric, describe_key, metric_named
from app.text.dates import LONG_MONTHS

MAX_EXPRESSION_CHARS = 200
MAX_MAGNITUDE = 1e15  # larger than any reported figure; bigger numbers are refused, never approximated
MAX_EXPONENT = 100.0
PERCENT_DP = 2
RATIO_DP = 4
PLAIN_DP = 6
DAYS_DP = 2

ErrorCode = Literal[
    "invalid_input", "division_by_zero", "overflow", "too_long", "syntax", "forbidden", "domain",
    "missing_input", "unknown_metric",
]


class CalcError(ValueError):
    """A calculation that cannot be done; `code` says why, the message says how to fix it."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class Figure(BaseModel):
    """A number found in the evidence, with the place it came from."""

    label: str = Field(description="What the number measures, e.g. 'Revenue'.")
    value: float = Field(description="The number as reported, in `unit`.")
    unit: str = Field(default="", description="Unit as reported, e.g. '£m', '%', 'p'.")
    company: str | None = Field(default=None, description="Company the figure belongs to.")
    fiscal_year: int | None = Field(default=None, description="Fiscal year the figure covers.")
    source_id: str = Field(description="Id of the source document.")
    chunk_id: str | None = Field(default=None, description="Id of the chunk that holds the figure.")
    quote: str = Field(default="", description="The sentence or table row the figure was read from.")
    period: str | None = Field(default=None, description="The column it was read from when a statement names "
                                                        "one: 'FY2018', 'Q2 2023', '3M 2023-06-30'.")
    page: int | None = Field(default=None, description="Page of the source document, when known.")
    segment: str | None = Field(default=None, description="The segment or region the figure is for; None: the "
                                                         "whole company, as far as its row or sentence says.")
    origin: str = Field(default="", description="Where it was read: 'statement', 'table', 'text' or 'user'.")

    @property
    def period_name(self) -> str:
        """'Q2 2023' or 'H1 2024' for a named quarter's or half's column, 'the three months ended 28 January 2023'
        for a column of months to a day ('3M 2023-01-28'), else 'FY2023' ('' with no year)."""
        if self.period and re.fullmatch(r"[HQ][1-4] (?:19|20)\d{2}", self.period.strip()):
            return self.period.strip()
        if self.period and (span := _MONTHS_TO_DAY.fullmatch(self.period.strip())):
            months = {"3": "three", "6": "six", "9": "nine"}[span.group("n")]
            month = LONG_MONTHS[int(span.group("m")) - 1].capitalize()
            return f"the {months} months ended {int(span.group('d'))} {month} {span.group('y')}"
        return f"FY{self.fiscal_year}" if self.fiscal_year else ""


_MONTHS_TO_DAY = re.compile(r"(?P<n>[369])M (?P<y>(?:19|20)\d{2})-(?P<m>\d{2})-(?P<d>\d{2})")


class CalcResult(BaseModel):
    """One calculation: which tool, with which inputs, giving what, computed how."""

    tool: str
    inputs: dict[str, float]
    result: float
    unit: str = Field(default="", description="'%', 'x', 'days', '' (the inputs' own unit) or a money unit.")
    expression: str = Field(description="The arithmetic as text, e.g. '(1311.2 - 1204.6) / 1204.6 * 100'.")
    sources: dict[str, Figure] = Field(
        default_factory=dict, description="For each input that matches a given figure, that figure."
    )
    formula: str = Field(default="", description="For a metric: 'fixed asset turnover = revenue / average PP&E "
                                                 "(inputs: revenue_2019, ppe_2018, ppe_2019)'.")
    note: str = Field(default="", description="For a judgement: which metric it rests on, with its value.")
    exact: float | None = Field(default=None, description="The result before rounding, when rounding changed it: "
                                                          "an answer rounding to fewer places rounds this once "
                                                          "(0.447 is 0.4, though `result` 0.45 would give 0.5).")

    def rounded(self, decimals: int) -> float:
        """The result to `decimals` places, rounded once from the unrounded value."""
        return round(self.exact if self.exact is not None else self.result, decimals) + 0.0


class CalculationOutcome(BaseModel):
    """What the calculator subgraph hands back to its parent."""

    status: Literal["ok", "no_calculation", "step_cap", "error"]
    results: list[CalcResult] = Field(default_factory=list)
    summary: str = Field(default="", description="One line per result, built from the results themselves.")
    model_answer: str = Field(default="", description="The model's own closing text, unverified.")
    errors: list[str] = Field(default_factory=list, description="Tool errors met on the way, in order.")


# Pydantic types this module puts into graph state: pass to JsonPlusSerializer(allowed_msgpack_modules=...).
CHECKPOINT_TYPES: tuple[tuple[str, str], ...] = tuple(
    (__name__, cls) for cls in ("Figure", "CalcResult", "CalculationOutcome")
)


def unit_text(unit: str) -> str:
    """A unit as it follows a number: two letters or more after a space (' days', ' bn'), anything else directly
    ('%', '$m', 'x')."""
    return f" {unit}" if len(unit) > 1 and unit.isalpha() else unit


# --- number handling ----------------------------------------------------------------------------------------


def plain_number(value: float) -> str:
    """A number as a result or input line writes it, every digit a figure holds kept (1447075, not 1.44708e+06;
    24.72; -3.5), to twelve significant digits."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.12g}"


def _fmt(value: float) -> str:
    """Shortest faithful text for a number: 1311.2, 100, -3.5."""
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _check(name: str, value: float) -> float:
    """Refuse NaN, infinities, booleans and magnitudes beyond MAX_MAGNITUDE."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CalcError("invalid_input", f"{name} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise CalcError("invalid_input", f"{name} must be finite, got {value!r}")
    if abs(number) > MAX_MAGNITUDE:
        raise CalcError("overflow", f"{name} is beyond ±{MAX_MAGNITUDE:g}: {value!r}")
    return number


def _finish(value: float, dp: int) -> float:
    """Check a result is finite and in range, then round it (and turn -0.0 into 0.0)."""
    _check("result", value)
    return round(value, dp) + 0.0


def _exact(value: float, dp: int) -> float | None:
    """The unrounded result to keep beside the rounded one (12 significant digits), or None when rounding to
    `dp` places left it as it was."""
    return None if round(value, dp) == value else float(f"{value:.12g}")


def _divide(numerator: float, denominator: float, what: str) -> float:
    if denominator == 0:
        raise CalcError("division_by_zero", f"division by zero: {what} is 0")
    return numerator / denominator


# --- the tools as plain functions ---------------------------------------------------------------------------


def growth_rate(old: float, new: float) -> CalcResult:
    """Growth from `old` to `new` in percent: (new - old) / old * 100. `old` must be positive."""
    old, new = _check("old", old), _check("new", new)
    if old < 0:
        raise CalcError("domain", "growth_rate needs a positive old value; use percentage_change for a negative base")
    value = _divide(new - old, old, "old") * 100
    return CalcResult(
        tool="growth_rate", inputs={"old": old, "new": new}, result=_finish(value, PERCENT_DP), unit="%",
        exact=_exact(value, PERCENT_DP), expression=f"({_fmt(new)} - {_fmt(old)}) / {_fmt(old)} * 100",
    )


def percentage_change(old: float, new: float) -> CalcResult:
    """Change from `old` to `new` in percent of |old|, so a loss that narrows shows as a positive change."""
    old, new = _check("old", old), _check("new", new)
    value = _divide(new - old, abs(old), "old") * 100
    return CalcResult(
        tool="percentage_change", inputs={"old": old, "new": new}, result=_finish(value, PERCENT_DP), unit="%",
        exact=_exact(value, PERCENT_DP), expression=f"({_fmt(new)} - {_fmt(old)}) / |{_fmt(old)}| * 100",
    )


def difference(a: float, b: float) -> CalcResult:
    """a - b, in the inputs' own unit."""
    a, b = _check("a", a), _check("b", b)
    return CalcResult(
        tool="difference", inputs={"a": a, "b": b}, result=_finish(a - b, PLAIN_DP), unit="",
        expression=f"{_fmt(a)} - {_fmt(b)}",
    )


def ratio(numerator: float, denominator: float) -> CalcResult:
    """numerator / denominator, as a multiple ('x')."""
    numerator, denominator = _check("numerator", numerator), _check("denominator", denominator)
    value = _divide(numerator, denominator, "denominator")
    return CalcResult(
        tool="ratio", inputs={"numerator": numerator, "denominator": denominator},
        result=_finish(value, RATIO_DP), unit="x", expression=f"{_fmt(numerator)} / {_fmt(denominator)}",
        exact=_exact(value, RATIO_DP),
    )


def cagr(start: float, end: float, years: float) -> CalcResult:
    """Compound annual growth rate in percent: ((end / start) ** (1 / years) - 1) * 100."""
    start, end, years = _check("start", start), _check("end", end), _check("years", years)
    if start <= 0 or end < 0:
        raise CalcError("domain", "cagr needs a positive start value and a non-negative end value")
    if not 0 < years <= MAX_EXPONENT:
        raise CalcError("domain", f"cagr needs 0 < years <= {MAX_EXPONENT:g}, got {_fmt(years)}")
    value = ((end / start) ** (1 / years) - 1) * 100
    return CalcResult(
        tool="cagr", inputs={"start": start, "end": end, "years": years}, result=_finish(value, PERCENT_DP),
        exact=_exact(value, PERCENT_DP), unit="%",
        expression=f"(({_fmt(end)} / {_fmt(start)}) ** (1 / {_fmt(years)}) - 1) * 100",
    )


# --- evaluate: a whitelist walk over the parsed expression ----------------------------------------------------

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_FUNCTIONS: dict[str, tuple[int, int]] = {"abs": (1, 1), "round": (1, 2), "min": (2, 8), "max": (2, 8)}
_ALLOWED_CHARS = set("0123456789.eE+-*/(), _abcdefghijklmnopqrstuvwxyz")


def _parse(expression: str) -> ast.expr:
    """Length and character checks, then `ast.parse` (parsing only; nothing is compiled to code)."""
    text = expression.strip()
    if not text:
        raise CalcError("syntax", "the expression is empty")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise CalcError("too_long", f"the expression is longer than {MAX_EXPRESSION_CHARS} characters")
    bad = sorted({c for c in text if c not in _ALLOWED_CHARS})
    if bad:
        allowed = "ASCII numbers, + - * / ** ( ) and abs/round/min/max"
        raise CalcError("forbidden", f"characters not allowed: {''.join(bad)!r}; use {allowed}")
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
        raise CalcError("syntax", f"not a valid arithmetic expression: {err}") from err


def _power(base: float, exponent: float) -> float:
    if abs(exponent) > MAX_EXPONENT:
        raise CalcError("overflow", f"exponent {_fmt(exponent)} is beyond ±{MAX_EXPONENT:g}")
    if base == 0 and exponent < 0:
        raise CalcError("division_by_zero", "division by zero: 0 raised to a negative power")
    if base < 0 and not exponent.is_integer():
        raise CalcError("domain", "a negative number raised to a fractional power is not a real number")
    try:
        return base**exponent
    except OverflowError as err:
        raise CalcError("overflow", "the result is too large") from err


def _apply_binary(node: ast.BinOp, left: float, right: float) -> float:
    op = type(node.op)
    if op not in _BINARY:
        raise CalcError("forbidden", f"operator {op.__name__} is not allowed (use + - * / **)")
    if op is ast.Div and right == 0:
        raise CalcError("division_by_zero", "division by zero")
    if op is ast.Pow:
        return _power(left, right)
    return _BINARY[op](left, right)


def _apply_call(node: ast.Call, numbers: list[float]) -> float:
    if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS:
        raise CalcError("forbidden", f"only these functions are allowed: {', '.join(sorted(_FUNCTIONS))}")
    name, (low, high) = node.func.id, _FUNCTIONS[node.func.id]
    if node.keywords or not low <= len(node.args) <= high:
        raise CalcError("syntax", f"{name} takes {low}..{high} positional arguments")
    args = [_walk(arg, numbers) for arg in node.args]
    if name == "round":
        digits = args[1] if len(args) == 2 else 0.0
        if not digits.is_integer() or not 0 <= digits <= 10:
            raise CalcError("domain", "round takes 0..10 decimal places")
        return float(round(args[0], int(digits)))
    return float({"abs": abs, "min": min, "max": max}[name](*args))


def _walk(node: ast.AST, numbers: list[float]) -> float:
    """Evaluate one whitelisted node; every intermediate value is range-checked."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        numbers.append(_check("number", float(node.value)))
        return numbers[-1]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _check("value", _UNARY[type(node.op)](_walk(node.operand, numbers)))
    if isinstance(node, ast.BinOp):
        left, right = _walk(node.left, numbers), _walk(node.right, numbers)
        return _check("value", _apply_binary(node, left, right))
    if isinstance(node, ast.Call):
        return _check("value", _apply_call(node, numbers))
    if isinstance(node, ast.Name):
        raise CalcError("forbidden", f"names are not allowed: {node.id!r}")
    if isinstance(node, ast.Constant):
        raise CalcError("forbidden", f"only real numbers are allowed, not {type(node.value).__name__}")
    raise CalcError("forbidden", f"{type(node).__name__} is not allowed in an arithmetic expression")


def evaluate(expression: str, unit: str = "") -> CalcResult:
    """Evaluate plain arithmetic: numbers, + - * / **, unary -, parentheses, abs/round/min/max. `unit` '%' states
    the result as a percentage (an expression that ends '* 100'), rounded as percentages are."""
    if not isinstance(expression, str):
        raise CalcError("invalid_input", "expression must be a string")
    if unit not in ("", "%"):
        raise CalcError("invalid_input", f"unit must be '' or '%', not {unit!r}")
    numbers: list[float] = []
    value = _walk(_parse(expression), numbers)
    inputs = {f"x{i}": number for i, number in enumerate(numbers, start=1)}
    return CalcResult(
        tool="evaluate", inputs=inputs, result=_finish(value, PERCENT_DP if unit else PLAIN_DP), unit=unit,
        exact=_exact(value, PERCENT_DP if unit else PLAIN_DP), expression=expression.strip()
    )


# --- metric: a catalogue formula, or the question's own, over named inputs ---------------------------------------

_METRIC_UNITS = {"%": ("%", PERCENT_DP), "x": ("x", RATIO_DP), "days": ("days", DAYS_DP), "money": ("", PLAIN_DP)}


def _target_metric(name: str, definition: str) -> Metric:
    if definition.strip():
        try:
            return definition_metric(name, definition)
        except ValueError as err:
            raise CalcError("syntax", f"the definition is not arithmetic over line items: {err}") from err
    found = metric_named(name)
    if found is None:
        raise CalcError("unknown_metric", f"no metric called {name!r} in the catalogue; pass its definition")
    return found


def metric(name: str, inputs: dict[str, float], year: int | None = None, definition: str = "",
           decimals: int | None = None, judgement: str = "", years: list[int] | None = None) -> CalcResult:
    """Apply a financial metric to named inputs. `name`: a catalogue metric or alias ('fixed asset turnover',
    'DPO'); `definition`: the question's own formula text, which replaces the catalogue's; `inputs`: values by
    key '<item>_<fiscal year>' (e.g. 'revenue_2019', 'ppe_2018'); `year`: the fiscal year the metric is for;
    `years`: instead of `year`, the fiscal years to average the metric over (a '3 year average': the metric for
    each year, then their mean); `decimals`: the rounding the question asks for; `judgement`: the judgement the
    metric decides, if any. A missing input is an error that names it: no value is guessed."""
    target = _target_metric(name, definition)
    values = {key: _check(key, value) for key, value in inputs.items()}
    if year is not None and not isinstance(year, int):
        raise CalcError("invalid_input", f"year must be an integer, got {year!r}")
    if years is not None and (len(years) < 2 or not all(isinstance(y, int) for y in years)):
        raise CalcError("invalid_input", f"years must be two fiscal years or more, got {years!r}")
    parts, keys, text = [], [], ""
    for when in years or [year]:
        formula, missing = _first_complete(target, values, when)
        if missing:
            needed = ", ".join(describe_key(k) for k in missing)
            raise CalcError("missing_input", f"{target.name} needs {needed}: not among the figures given, so no value")
        scale = target.unit == "%" and not (target.origin == "question" and formula.has_hundred)
        parts.append(formula.arithmetic(values, when) if not scale else f"({formula.arithmetic(values, when)}) * 100")
        keys.extend(k for k in formula.input_keys(when) if k not in keys)
        text = text or formula.text
    arithmetic = parts[0] if len(parts) == 1 else f"({' + '.join(f'({p})' for p in parts)}) / {len(parts)}"
    value = _walk(_parse(arithmetic), [])
    unit, default_dp = _METRIC_UNITS[target.unit]
    if decimals is not None and not 0 <= decimals <= 10:
        raise CalcError("domain", "decimals must be 0..10")
    places = default_dp if decimals is None else decimals
    result = _finish(value, places)
    shown = f"{_fmt(result)}{'' if unit in ('%', 'x', '') else ' '}{unit}"
    over = f", averaged over FY{years[0]}–FY{years[-1]}" if years else ""
    return CalcResult(
        tool="metric", inputs={k: values[k] for k in keys}, result=result, unit=unit, expression=arithmetic,
        exact=_exact(value, places),
        formula=f"{target.name} = {text}{over} (inputs: {', '.join(keys)})",
        note=f"The {judgement} judgement rests on {target.name} = {shown}." if judgement else "",
    )


def _first_complete(target: Metric, values: dict[str, float], year: int | None) -> tuple[Formula, list[str]]:
    """The first formula all of whose inputs were given, or the first with the keys it lacks."""
    first_missing: list[str] | None = None
    for formula in target.formulas:
        if formula.needs_year(year):
            missing = ["fiscal year"]
        else:
            missing = [k for k in formula.input_keys(year) if k not in values]
        if not missing:
            return formula, []
        first_missing = first_missing if first_missing is not None else missing
    return target.formulas[0], first_missing or []


# --- LangChain tools ----------------------------------------------------------------------------------------

class GrowthArgs(BaseModel):
    old: float = Field(allow_inf_nan=False, description="Earlier value (the base), e.g. FY2023 revenue.")
    new: float = Field(allow_inf_nan=False, description="Later value, e.g. FY2024 revenue.")


class DifferenceArgs(BaseModel):
    a: float = Field(allow_inf_nan=False, description="Value to subtract from.")
    b: float = Field(allow_inf_nan=False, description="Value subtracted.")


class RatioArgs(BaseModel):
    numerator: float = Field(allow_inf_nan=False, description="Value on top.")
    denominator: float = Field(allow_inf_nan=False, description="Value underneath; must not be 0.")


class CagrArgs(BaseModel):
    start: float = Field(allow_inf_nan=False, description="Value in the first year; must be positive.")
    end: float = Field(allow_inf_nan=False, description="Value in the last year.")
    years: float = Field(allow_inf_nan=False, description="Years between them, e.g. 3 for FY2021 to FY2024.")


class EvaluateArgs(BaseModel):
    expression: str = Field(
        max_length=MAX_EXPRESSION_CHARS,
        description="Arithmetic only: numbers, + - * / **, parentheses, abs/round/min/max.",
    )
    unit: Literal["", "%"] = Field(default="", description="'%' when the expression computes a percentage.")


class MetricArgs(BaseModel):
    name: str = Field(max_length=120, description="Metric name or alias, e.g. 'quick ratio', 'DPO'.")
    inputs: dict[str, float] = Field(description="Input values by key '<item>_<fiscal year>', e.g. "
                                                 "{'revenue_2019': 6489.0, 'ppe_2018': 282.0}.")
    year: int | None = Field(default=None, description="Fiscal year the metric is for.")
    definition: str = Field(default="", max_length=400,
                            description="The question's own formula text, when it gives one; it wins.")
    decimals: int | None = Field(default=None, ge=0, le=10, description="Decimal places the question asks for.")
    judgement: str = Field(default="", max_length=80,
                           description="The judgement the metric decides, e.g. 'liquidity'.")
    years: list[int] | None = Field(default=None, description="Fiscal years to average the metric over, instead "
                                                              "of one year ('3 year average': [2017, 2018, 2019]).")


def _as_tool(fn: Callable[..., CalcResult], args_schema: type[BaseModel]) -> BaseTool:
    """Wrap a calculator function: the model reads the result as JSON, the graph keeps it as the artifact."""

    def run(**kwargs: Any) -> tuple[str, dict[str, Any]]:
        result = fn(**kwargs)
        return result.model_dump_json(exclude={"sources"}), result.model_dump()

    return StructuredTool.from_function(
        func=run, name=fn.__name__, description=(fn.__doc__ or fn.__name__).strip(),
        args_schema=args_schema, response_format="content_and_artifact",
    )


CALCULATOR_FUNCTIONS: dict[str, Callable[..., CalcResult]] = {
    fn.__name__: fn for fn in (growth_rate, percentage_change, difference, ratio, cagr, evaluate, metric)
}


def calculator_tools() -> list[BaseTool]:
    """The calculator's LangChain tools, one per function, in a stable order."""
    schemas: dict[str, type[BaseModel]] = {
        "growth_rate": GrowthArgs, "percentage_change": GrowthArgs, "difference": DifferenceArgs,
        "ratio": RatioArgs, "cagr": CagrArgs, "evaluate": EvaluateArgs, "metric": MetricArgs,
    }
    return [_as_tool(CALCULATOR_FUNCTIONS[name], schema) for name, schema in schemas.items()]
