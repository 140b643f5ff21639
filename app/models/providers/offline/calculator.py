"""The offline provider's calculator model: a chat model that plans the calculator's tool calls from keywords and
the figures, so the ReAct loop runs the same with or without a model server.

`next_rule_based_message` reads the request the calculator node wrote (the question and the figures, as JSON),
answers once tool results are back, and otherwise plans: a metric, a definition or a judgement as `metric` calls
(`plan_metric_calls`, from app/metric_plans.py); else keywords pick the tool (ratio, difference, percentage
change, growth, CAGR) and label overlap with the question picks the figures (`relevant_figures`, `year_pairs`,
`two_figures`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool

from app.calc_tools import Figure, plain_number, unit_text
from app.facts.selection import relevant_figures
from app.metric_plans import metric_plans
from app.knowledge.analyzer import analyze
from app.text.arithmetic import arithmetic_asked
from app.text.measures import asks_adjusted, measure_asked, names_adjusted, part_asked, plain_measures
from app.text.periods import part_fits, part_of_period, parts_agree, years_named
from app.text.questions import measure_terms, states_measure


class RuleBasedCalculatorModel(BaseChatModel):
    """An offline chat model that plans the calculator's tool calls from keywords and the figures."""

    label: ClassVar[str] = "offline rule-based policy"
    tool_names: tuple[str, ...] = ()

    @property
    def _llm_type(self) -> str:
        return "prov-rule-based-calculator"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RuleBasedCalculatorModel:
        names = tuple(convert_to_openai_tool(t)["function"]["name"] for t in tools)
        return self.model_copy(update={"tool_names": names})

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=next_rule_based_message(messages, self.tool_names))])


# --- the policy ---------------------------------------------------------------------------------------------


def next_rule_based_message(messages: Sequence[BaseMessage], tool_names: Sequence[str]) -> AIMessage:
    """Answer once tool results are back; otherwise plan tool calls; with no plan, say so."""
    tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
    question, figures = read_request(messages)
    turn = sum(isinstance(m, AIMessage) for m in messages)
    if tool_messages:
        then = plan_change_of_metric(question, tool_messages) if "difference" in tool_names else None
        if then is None:
            return AIMessage(content=summarise_tool_messages(tool_messages))
        return AIMessage(content="", tool_calls=[{"name": "difference", "args": then, "id": f"call_{turn}_0",
                                                  "type": "tool_call"}])
    # one call per computation: two labels of one series ('Revenue' in two tables) plan the same growth twice
    planned = list({json.dumps([name, args], sort_keys=True): (name, args)
                    for name, args in plan_tool_calls(question, figures)}.values())
    calls = [
        {"name": name, "args": args, "id": f"call_{turn}_{i}", "type": "tool_call"}
        for i, (name, args) in enumerate(planned)
        if name in tool_names
    ]
    if not calls:
        return AIMessage(content="No calculation applies to this question with the figures given.")
    return AIMessage(content="", tool_calls=calls)


def plan_change_of_metric(question: str, tool_messages: Sequence[ToolMessage]) -> dict[str, float] | None:
    """After a change question's metric was computed for two years (app/metric_plans.py plans both), the
    change between them as a second step: later minus earlier, each as the metric call stated it (the effective
    tax rate's 21.61% against 24.6%: -2.99 points). None once a difference is back, or unless exactly two
    results of one metric, in one unit, for two years are."""
    from app.text.question_kinds import read_ask

    if read_ask(question).kind not in ("change", "yes_no_change"):
        return None
    results = []
    for message in tool_messages:
        if message.status == "error":
            continue
        result = json.loads(message.text)
        if result.get("tool") == "difference":
            return None
        if result.get("tool") == "metric" and not result.get("note"):
            years = [int(m.group(1)) for key in result.get("inputs", {}) if (m := re.search(r"_(\d{4})$", key))]
            results.append((str(result.get("formula", "")).split(" = ")[0], result.get("unit", ""),
                            max(years, default=0), result["result"]))
    if len(results) != 2 or len({(name, unit) for name, unit, _, _ in results}) != 1:
        return None
    old, new = sorted(results, key=lambda r: r[2])
    if not old[2] or old[2] == new[2]:
        return None
    return {"a": new[3], "b": old[3]}


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
    return {k: payload[k] for k in ("label", "value", "unit", "company", "fiscal_year", "period", "origin")
            if k in payload}


def summarise_tool_messages(tool_messages: Sequence[ToolMessage]) -> str:
    lines = []
    for message in tool_messages:
        if message.status == "error":
            lines.append(f"{message.name} failed: {message.text}")
            continue
        result = json.loads(message.text)
        line = f"{result['tool']}: {result['expression']} = {plain_number(result['result'])}{unit_text(result['unit'])}"
        extra = [result.get("formula", ""), result.get("note", "")]
        lines.append(" ".join([line, *(f"({x})" for x in extra if x)]))
    return "\n".join(lines)


Plan = list[tuple[str, dict[str, Any]]]


def plan_tool_calls(question: str, figures: Sequence[Figure]) -> Plan:
    """A metric, a definition or a judgement is planned by `plan_metric_calls`; otherwise keywords pick the tool
    and label overlap with the question picks the figures."""
    question = plain_measures(question)  # ('How reliant was its revenue growth on bitcoin?': a share, no growth)
    if (asked := arithmetic_asked(question)) is not None:
        # arithmetic and nothing else: the numbers given, and the previous answer's figure for 'that'
        previous = next((f.value for f in figures if f.origin == "thread"), None)
        expression = asked.expression(previous)
        return [("evaluate", {"expression": expression, "unit": asked.unit})] if expression else []
    metric_plan = plan_metric_calls(question, figures)
    if metric_plan is not None:
        return metric_plan
    if asks_adjusted(question) and not any(names_adjusted(f.label) for f in figures):
        return []  # 'sales excluding the impact of FX': no change of the unadjusted statement line answers it
    change = (plan_revision(figures) or plan_growths_compared(question, figures)
              or plan_members_gap(question, figures) or plan_change(question, figures)
              or plan_members_change(question, figures)
              or plan_member_share(question, figures) or plan_row_share(question, figures))
    if change:
        return change
    q = question.lower()
    years = years_named(question)
    part = part_asked(question)
    companies = sorted({f.company for f in figures if f.company})
    relevant = [f for f in relevant_figures(q, figures) if names_the_measure(question, f.label, companies)]
    if "cagr" in q or "compound annual" in q:
        return [("cagr", _cagr_args(old, new)) for old, new in year_pairs(relevant, years, part)]
    # the words that ask an operation, the measure's own name aside ('how much higher was its payout ratio' asks
    # a difference of two ratios, not a ratio)
    phrase = measure_asked(question, companies).phrase.lower()
    ops = q.replace(phrase, " ") if len(phrase.split()) >= 2 else q
    if re.search(r"\b(ratio|times|multiple|divided by|in relation to|relative to|as a (?:percentage|share|"
                 r"proportion|portion|fraction) of|represent(?:s|ed)?)\b", ops):
        pair = two_figures(q, relevant)
        if pair and pair[0].unit.strip() == "%" and pair[1].unit.strip() == "%":
            return []  # ('gross margin as a percentage of net sales': the rate is read as stated, no rate of rates)
        return [("ratio", {"numerator": pair[0].value, "denominator": pair[1].value})] if pair else []
    if re.search(r"\b(difference|gap|more than|less than|higher than|lower than|exceed(?:s|ed)?|outpac(?:e|es|ed)|"
                 r"fall short of|fell short of|how much (?:higher|lower|more|less|bigger|smaller|greater))\b", q):
        pair = two_figures(q, relevant)
        if pair and _same_measure_two_years(*pair):  # one measure in two years: later minus earlier
            pair = tuple(sorted(pair, key=lambda f: f.fiscal_year or 0, reverse=True))  # type: ignore[assignment]
        return [("difference", {"a": pair[0].value, "b": pair[1].value})] if pair else []
    if re.search(r"\b(percentage|percent|%) change\b", q) or _PERCENT_ASKED.search(q):
        return [("percentage_change", {"old": o.value, "new": n.value}) for o, n in year_pairs(relevant, years, part)]
    if re.search(r"\b(change|changed|net change)\b", q):  # "the change from 2016 to 2017": later minus earlier
        return [("difference", {"a": n.value, "b": o.value}) for o, n in year_pairs(relevant, years, part)]
    if re.search(r"\b(grow|grew|growth|grown|increase[ds]?|rise|rose|risen|decline[ds]?|fell|decrease[ds]?)\b", q):
        pairs = year_pairs(relevant, years, part)
        if not pairs and len(figures) >= 2 and _same_measure_two_years(figures[0], figures[1]) \
                and names_the_measure(question, figures[0].label, companies):
            # the facts step's two periods lead ('What was Copperleaf's FY2024 revenue growth?'): their growth,
            # when no label names the growth asked, and only for the years the question asks (a growth from
            # FY2021 to FY2022 is no answer about FY2023)
            old, new = sorted(figures[:2], key=lambda f: f.fiscal_year or 0)
            span = (min(years), max(years)) if len(set(years)) >= 2 else (years[0] - 1, years[0]) if years else None
            if span is None or (old.fiscal_year, new.fiscal_year) == span:
                pairs = [(old, new)]
        # a rate's growth is no growth of anything ('comparable sales growth' 15.6% against 21.4% is no -27.1%):
        # the rate is the growth asked, as the report states it
        return [("growth_rate", {"old": o.value, "new": n.value}) for o, n in pairs if not n.unit.endswith("%")]
    return []


_PERCENT_ASKED = re.compile(r"(?i)\bby\s+what\s+(?:percentage|percent|per\s+cent)\b")
"""'By what percentage did X change': the change in per cent, whichever plan reads the pair."""


def plan_revision(figures: Sequence[Figure]) -> Plan:
    """A forecast raised or cut (app/facts/revisions.py: the figure replaced, then the new one, of one label,
    company and unit): how much, the new less the old."""
    from app.facts.revisions import PREVIOUS, REVISED_PERIOD

    if len(figures) < 2:
        return []
    old, new = figures[0], figures[1]
    if (old.period, new.period) != (PREVIOUS, REVISED_PERIOD) or old.label != new.label or old.unit != new.unit \
            or (old.company or "").lower() != (new.company or "").lower():
        return []
    return [("difference", {"a": new.value, "b": old.value})]


def plan_change(question: str, figures: Sequence[Figure]) -> Plan:
    """A question about a change between two periods ('how did X change', 'did X increase') whose first two
    figures are one measure of one company in two years (the facts step puts them first): the change in the
    measure's own unit (percentage points for a rate), and, for an amount or a count, the change in per cent."""
    from app.text.question_kinds import read_ask

    if read_ask(question).kind not in ("change", "yes_no_change") or len(figures) < 2:
        return []
    if re.search(r"(?i)\bgr[eo]w|\bgrowth\b|\bcagr\b|\bcompound\b|\b(?:percentage|percent|%) change\b", question):
        return []  # a growth rate: planned below, as growth_rate
    old, new = figures[0], figures[1]
    if not _same_measure_two_years(old, new) or (old.fiscal_year or 0) > (new.fiscal_year or 0) or old.unit != new.unit:
        return []
    if not names_the_measure(question, new.label, sorted({f.company for f in figures if f.company})):
        return []  # the facts step's best pair may be another share of the same base
    if _PERCENT_ASKED.search(question):
        # ('By what percentage did its net sales change in the June 2023 quarter …': the change in per cent)
        return [("percentage_change", {"old": old.value, "new": new.value})] if old.value else []
    plan: Plan = [("difference", {"a": new.value, "b": old.value})]
    asks_difference = re.search(r"(?i)\bdifference\b|\b(?:higher|lower|more|less)\s+than\b", question)
    if not new.unit.endswith("%") and old.value and not asks_difference:
        plan.append(("percentage_change", {"old": old.value, "new": new.value}))
    return plan


def plan_members_gap(question: str, figures: Sequence[Figure]) -> Plan:
    """'Were its U.S. sales or its international sales larger, and by how much?': the two members' figures of the
    latest period both give (the facts step labels each 'U.S.: Sales'), the larger less the smaller."""
    from app.facts.query import same_member
    from app.text.measures import members_compared

    pair = members_compared(question)
    if pair is None or pair.of_change or not _BY_HOW_MUCH.search(question):
        return []
    sides = [[f for f in figures if ": " in f.label and same_member(named, f.label.split(": ", 1)[0])]
             for named in (pair.first, pair.second)]
    if not all(sides):
        return []
    key = lambda f: (f.fiscal_year, f.period, f.unit)  # noqa: E731
    shared = {key(f) for f in sides[0]} & {key(f) for f in sides[1]}
    if not shared:
        return []
    when = max(shared, key=lambda k: (k[0] or 0))
    a, b = (next(f for f in side if key(f) == when) for side in sides)
    high, low = (a, b) if a.value >= b.value else (b, a)
    return [("difference", {"a": high.value, "b": low.value})]


_BY_HOW_MUCH = re.compile(r"(?i)\bby\s+how\s+(?:much|many)\b|\bhow\s+much\s+(?:larger|higher|bigger|greater|more|"
                          r"smaller|lower|less)\b")


def plan_growths_compared(question: str, figures: Sequence[Figure]) -> Plan:
    """'Did its sales and marketing spending grow faster than its revenue?': each measure's per cent change
    between the two years its figures give (the facts step hands each measure's two periods, app/text/measures
    `growths_compared`)."""
    from app.text.measures import growths_compared

    if growths_compared(question) is None:
        return []
    # each label's series in the unit it first comes in (the facts step's figures lead: its two measures first)
    series: dict[str, tuple[str, dict[int, float]]] = {}
    for f in figures:
        if f.fiscal_year is not None:
            unit, by_year = series.setdefault(f.label.lower(), (f.unit, {}))
            if f.unit == unit:
                by_year.setdefault(f.fiscal_year, f.value)
    named = years_named(question)
    plan: Plan = []
    for _, by_year in series.values():
        latest = max(named) if named else max(by_year)
        if latest in by_year and by_year.get(latest - 1):
            plan.append(("percentage_change", {"old": by_year[latest - 1], "new": by_year[latest]}))
        if len(plan) == 2:
            return plan
    return []


def plan_members_change(question: str, figures: Sequence[Figure]) -> Plan:
    """'Which region grew fastest?', and 'which segment grew operating profit faster: A or B?': each member's per
    cent change between the two latest years its figures give (the facts step labels each member's figures
    'Americas: Net sales')."""
    from app.text.measures import members_compared
    from app.text.question_kinds import read_ask

    ask = read_ask(question)
    if not (ask.kind == "extreme" and ask.of_change) and not (
            (pair := members_compared(question)) is not None and pair.of_change):
        return []
    # the part of the year asked ('In Q2 2023 …': the three months' columns, not the half's beside them), else the
    # whole years where the figures give them
    asked = part_asked(question)

    figures = [f for f in figures if part_fits(asked, part_of_period(f.period))] or ([] if asked else list(figures))
    series: dict[tuple[str, str, str], dict[int, float]] = {}
    for f in figures:
        if f.fiscal_year is not None and ": " in f.label:
            series.setdefault(((f.company or "").lower(), f.label, f.unit), {})[f.fiscal_year] = f.value
    plan: Plan = []
    for by_year in series.values():
        latest = max(by_year)
        if latest - 1 in by_year and by_year[latest - 1]:
            plan.append(("percentage_change", {"old": by_year[latest - 1], "new": by_year[latest]}))
    return plan


_PART_PERIOD = re.compile(r"^\d+M\s")


def plan_member_share(question: str, figures: Sequence[Figure]) -> Plan:
    """'Which region had the highest EBITDAR contribution?': the share of the highest (or lowest) member in the sum
    of the breakdown's rows for the latest year they give, whole-year columns before part-year ones (the facts
    step labels each row's figures 'Las Vegas Strip Resorts: EBITDAR'; the rows that reconcile the members to the
    whole, 'Corporate', count in the sum and are never the one ranked): one expression, its inputs the rows."""
    from app.text.question_kinds import asks_share, read_ask

    ask = read_ask(question)
    if ask.kind != "extreme" or ask.of_change or not asks_share(question):
        return []
    members = [f for f in figures if f.fiscal_year is not None and ": " in f.label]
    whole = [f for f in members if not _PART_PERIOD.match(f.period or "")]
    members = whole or members
    if not members:
        return []
    latest = max(f.fiscal_year or 0 for f in members)
    values: dict[str, tuple[float, bool]] = {}
    for f in members:
        if f.fiscal_year == latest:
            values.setdefault(f.label, (f.value, f.origin == "reconciling"))
    ranked = [v for v, reconciling in values.values() if not reconciling]
    if len(ranked) < 2 or not sum(v for v, _ in values.values()):
        return []
    pick = (max if ask.extreme >= 0 else min)(ranked)
    total = " + ".join(f"({v:.15g})" for v, _ in values.values())
    return [("evaluate", {"expression": f"{pick:.15g} / ({total}) * 100", "unit": "%"})]


def plan_row_share(question: str, figures: Sequence[Figure]) -> Plan:
    """'Which type of debt received the largest investment among the short-term investments?': the largest (or
    smallest) row's share of the total its table states (the facts step hands the rows, each named in its label,
    then the total, its origin 'total'), when every row and the total are amounts of one sign: one expression."""
    from app.text.question_kinds import read_ask

    ask = read_ask(question)
    totals = [f for f in figures if f.origin == "total"]
    rows = [f for f in figures if f.origin != "total" and ": " in f.label]
    if ask.kind != "extreme" or ask.of_change or len(totals) != 1 or len(rows) < 2:
        return []
    total = totals[0]
    if total.value <= 0 or any(f.value <= 0 or f.unit != total.unit for f in rows):
        return []
    pick = (max if ask.extreme >= 0 else min)(rows, key=lambda f: f.value)
    return [("evaluate", {"expression": f"{pick.value:.15g} / {total.value:.15g} * 100", "unit": "%"})]


def _same_measure_two_years(a: Figure, b: Figure) -> bool:
    return ((a.company or "").lower() == (b.company or "").lower() and a.label.lower() == b.label.lower()
            and a.fiscal_year is not None and b.fiscal_year is not None and a.fiscal_year != b.fiscal_year)


def _cagr_args(old: Figure, new: Figure) -> dict[str, float]:
    years = float((new.fiscal_year or 0) - (old.fiscal_year or 0))
    return {"start": old.value, "end": new.value, "years": years}


def names_the_measure(question: str, label: str, companies: Sequence[str] = ()) -> bool:
    """A figure's label names the measure the question asks about, the words of the calculation aside ('Cost of
    sales' is not 'same-store sales growth'); any label does when the question names no measure of its own
    ('what was, then, the change?')."""
    measures = [a - _CALC_WORDS for a in measure_terms(question, companies) if a - _CALC_WORDS]
    if not measures:
        return True
    if _names_a_part(question, label, companies):
        return False  # 'Las Vegas Strip Resorts net revenues' is one part's, not the company's net revenues
    share = _SHARE_OF.search(question)
    if share and _SHARE_OF.search(label):
        # a row that is itself a share ('Operating income (as a percentage of net sales)') answers 'wages expense
        # as a percent of net sales' only when it names the wages: the base the two share is no measure of either
        part = re.split(r"['’]s?\s+", share.group("part"))[-1]  # "Ulta Beauty's wages expense": the wages expense
        named = [a - _CALC_WORDS for a in measure_terms(part, companies) if a - _CALC_WORDS]
        return bool(named) and states_measure(named[:1], label)
    if states_measure(measures, label):
        return True
    # a label that leaves out the measure's first word and adds none of its own ('Payout ratio' for the dividend
    # payout ratio): the same measure, as a report names it where the subject is plain
    words = set(analyze(label)) - _CALC_WORDS
    lead = analyze(measure_asked(question, list(companies)).phrase)[:1]
    # (one bare word is no name of it: 'cost', read from 'amortization of the cost of investments', is no
    # operating cost)
    return bool(lead) and len(set(analyze(label))) >= 2 and any(
        len(m) >= 2 and words and words < m and m - words == {lead[0]} for m in measures)


def _names_a_part(question: str, label: str, companies: Sequence[str]) -> bool:
    """Whether a label names a part of the company before the measure's words, and the question asks about the
    whole company (app/facts/query.part_before_measure)."""
    from app.facts.query import part_before_measure

    query = _whole_company_query(question, tuple(companies))
    return query is not None and any(part_before_measure(label, company, query, label=True) is not None
                                     for company in (companies or [None]))


@lru_cache(maxsize=64)
def _whole_company_query(question: str, companies: tuple[str, ...]) -> Any:
    """The question's FactQuery when it asks about the whole company, None when it asks about a segment; read once
    per question, not once per figure the plan weighs."""
    from app.facts.query import read_query

    query = read_query(question, list(companies))
    return None if query.measure.segment else query


_SHARE_OF = re.compile(r"(?i)(?P<part>(?:\b[\w&'’-]+\s+){1,4}?)\(?\s*(?:as\s+)?(?:a\s+)?(?:percent(?:age)?|%|share|"
                       r"proportion)\s+of\b")


_CALC_WORDS = frozenset({"growth", "grow", "chang", "differ", "ratio", "increas", "decreas", "rate", "exceed",
                         "percentag", "percent", "compar", "higher", "lower", "cagr", "time", "multipl", "far",
                         "outpac", "relat", "relationship", "proport", "share", "fraction", "portion", "repres",
                         "divid", "much", "mani"})


def year_pairs(figures: Sequence[Figure], years: Sequence[int] = (), part: str | None = None
               ) -> list[tuple[Figure, Figure]]:
    """Per (company, label, unit): the first and last of the fiscal years the question names ('from FY2019 to
    FY2020'; one year named: that year and the one before), else the earliest and latest, when they differ.
    A statement states three years; 'FY2019 - FY2020 growth' is not growth since FY2018. Both are of the part of
    the year the question names ('the second quarter of 2023 compared with the second quarter of 2022' is no
    change from the fourth quarter of 2022); with none named, a year's own figure before any part of it."""
    groups: dict[tuple[str, str, str], list[Figure]] = {}
    if part is not None:
        figures = [f for f in figures if parts_agree(part, part_of_period(f.period))]
    else:  # stable: the facts step's order within the year's own figures and within the parts'
        figures = sorted(figures, key=lambda f: part_of_period(f.period) is not None)
    for f in figures:
        if f.fiscal_year is not None:
            groups.setdefault(((f.company or "").lower(), f.label.lower(), f.unit), []).append(f)
    span = (min(years), max(years)) if len(set(years)) >= 2 else (years[0] - 1, years[0]) if years else None
    pairs = []
    for group in groups.values():
        ordered = sorted(group, key=lambda f: f.fiscal_year or 0)
        if span is not None:
            by_year: dict[int | None, Figure] = {}
            for f in group:  # the first given for a year: the facts step puts the figures that answer first
                by_year.setdefault(f.fiscal_year, f)
            if span[0] in by_year and span[1] in by_year:
                pairs.append((by_year[span[0]], by_year[span[1]]))
            continue
        if ordered[0].fiscal_year != ordered[-1].fiscal_year:
            pairs.append((ordered[0], ordered[-1]))
    # one series read from two tables at two scales ('$5,854,430' in thousands, '$5,854.4' in millions) is one pair
    kept: list[tuple[Figure, Figure]] = []
    for pair in pairs:
        if not any(_scaled_twins(pair[0], seen[0]) and _scaled_twins(pair[1], seen[1]) for seen in kept):
            kept.append(pair)
    return kept


def _scaled_twins(a: Figure, b: Figure) -> bool:
    """One company's one line for one year, read at two scales ('$k' and '$m', or '$' where a table's scale was
    not read): one currency, and the values one when the larger is put in a thousand or a million times the
    smaller's units, to the smaller's precision ('5,854,430' and '5,854.4')."""
    if ((a.company or "").lower(), a.label.lower(), a.fiscal_year, a.period) != (
            (b.company or "").lower(), b.label.lower(), b.fiscal_year, b.period) or a.unit == b.unit:
        return False
    if a.unit.rstrip("kmbn") != b.unit.rstrip("kmbn") or not a.value or not b.value:
        return False
    big, small = sorted((abs(a.value), abs(b.value)), reverse=True)
    return any(abs(big / factor - small) <= 0.05 + 1e-9 * small for factor in (1e3, 1e6))


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
    if len(ordered) < 2:
        return None
    # two companies named: one figure of each ('By how much did Northwind's revenue growth exceed
    # Copperleaf's?' compares the two companies, not two rows of Northwind's), in the unit they share
    named = [f for f in ordered if mention((0, f))[0] < len(question)]
    first = named[0] if named else None
    other = next((f for f in named if first is not None and (f.company or "").lower() != (first.company or "").lower()
                  and f.unit == first.unit), None)
    if first is not None and other is not None:
        return first, other
    if len({(f.company or "").lower() for f in named}) >= 2:
        return None  # two companies' figures in different units ('£m' and '$m') give no difference
    if ordered[0].unit != ordered[1].unit:
        return None
    return ordered[0], ordered[1]


def plan_metric_calls(question: str, figures: Sequence[Figure]) -> Plan | None:
    """One `metric` call per metric and company, even when an input is missing (the tool then names it);
    None when the question names no metric, gives no definition and asks no judgement a metric decides."""
    plans = metric_plans(question, figures)
    return None if plans is None else [("metric", p.args) for p in plans]
