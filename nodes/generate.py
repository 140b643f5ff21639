"""The supervisor's answer steps: `generate` (synthesis) and `validate_citations` (fail closed).

generate: the synthesizer role of the model factory (app/models) writes the draft: the openai provider sends the
assembled prompt to the large client; the offline provider's composer (`compose_offline` here) writes the answer
from what the prompt holds: the calculation results, the verified claims of the retrieval subgraph and the most
relevant sentence of each news item, newest first, each sentence ending with the number of its block.

The offline composer writes as an analyst would: the figure asked for first, with its period and unit (a
table row is stated as the figure it holds for the year asked, never pasted), a comparison as which side is
higher and by how much, then how a result was computed; certifications, safe harbours and contents lines are
never quoted.

validate_citations runs on the final text whichever provider wrote it. Every [n] must name a block that was in
the prompt; a citation of anything else is removed and its sentence flagged. Every sentence that states a figure,
a name (beyond the question's own words and our own vocabulary) or a date must cite an admitted block, and the
blocks it cites must hold each of its figures (same value; scale and currency where both state them), names and
dates (in any format) and share a content word with it. Flagged sentences are dropped from the answer and listed
with the reason. When nothing is left, or evidence was needed and no sentence with a valid citation remains, the
answer is the declared insufficient-evidence one.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Sequence
from typing import Any

from app.calc_tools import CalcResult, Figure
from app.evidence import Claim, Evidence
from app.metrics import rounding_decimals
from app.models.roles import Synthesizer
from app.text.dates import MONTHS, read_dates, unsupported_dates
from app.text.figures import SCALE_FACTORS, SCALE_SUFFIX, table_scale
from app.text.periods import is_period_word, years_named
from app.text.sentences import is_boilerplate, looks_like_instruction, split_answer, split_sentences
from app.text.terms import sentence_support, topic_terms
from app.turns import Block, CitationCheck, blocks_by_chunk
from nodes.rewrite import keyword_query
from nodes.state import SupervisorState
from nodes.verify import unsupported_terms
from prompts.answer import INSUFFICIENT_EVIDENCE
from prompts.fences import one_line, strip_fence_markers

MAX_NEWS_SENTENCES = 3
HEADLINE_BONUS = 0.5
_MARKER = re.compile(r"\s*\[(\d+)\]")
_RECENCY = re.compile(r"(?i)\b(latest|recent|recently|newest|most recent|last|current|currently|now|today|"
                      r"this (?:week|month|quarter|year))\b")
_TOOL_PHRASES = {
    "growth_rate": "Growth", "percentage_change": "Change", "difference": "Difference", "ratio": "Ratio",
    "cagr": "CAGR", "evaluate": "Evaluate", "metric": "Metric",
}

def generate(state: SupervisorState, *, synthesizer: Synthesizer) -> dict[str, Any]:
    """The draft answer, from the synthesizer the model factory chose (offline: `compose_offline` below)."""
    return {"draft": synthesizer.draft(state)}


# --- the offline composer -----------------------------------------------------------------------------------


def compose_offline(state: SupervisorState) -> str:
    """An analyst's answer from what the prompt holds: a calculation's result first (the figure asked for, its
    period and unit, which side is higher, then how it was computed); without one, the verified claims, a table
    row stated as the figure it holds, figures first when the question asks for one; then the news."""
    blocks = list(state.get("blocks") or [])
    by_chunk = blocks_by_chunk(blocks)
    question = with_standing_instructions(state.get("question") or "", state)
    sentences: list[str] = []
    stated = user_statement_sentences([b for b in blocks if b.kind == "memory"], state)
    calc_block = next((b for b in blocks if b.kind == "calculation"), None)
    calc = state.get("calculation")
    uses_yours = False
    if calc_block is not None and calc is not None:
        for result in calc.results:
            sentences.extend(describe_result(result, calc_block.n, by_chunk, question))
            uses_yours = uses_yours or any(f.source_id.startswith("memory:") for f in result.sources.values())
    result = state.get("retrieval_result")
    # A calculation answers the question and cites the blocks its inputs came from; the draft's claims would
    # only repeat neighbouring table rows. Without a result, the claims are the answer.
    if result is not None and not sentences:
        sentences.extend(claim_sentences(question, result.claims, by_chunk))
    sentences.extend(news_sentences(question, [b for b in blocks if b.kind == "news"]))
    if stated:  # the user's figure leads; what the documents say follows, so the reader sees both
        # A calculation that took the user's figure is the answer itself, not what the documents state.
        sentences = [*stated, *(["The documents state:"] if sentences and not uses_yours else []), *sentences]
    return " ".join(sentences) if sentences else INSUFFICIENT_EVIDENCE


def with_standing_instructions(question: str, state: SupervisorState) -> str:
    """The question with the user's standing instructions on units and rounding appended ('… Answer in millions.'),
    unless it asks for its own: the question's words win over a standing instruction."""
    from nodes.memory import admitted

    extra = []
    for item in admitted(state, "constraint"):
        value = item.value.strip().rstrip(".")
        if _ASKED_SCALE.search(value) and not _ASKED_SCALE.search(question):
            extra.append(value)
        elif rounding_decimals(value) is not None and rounding_decimals(question) is None:
            extra.append(value)
    return " ".join([question, *(f"{e[:1].upper()}{e[1:]}." for e in extra)])


def user_statement_sentences(stated: Sequence[Block], state: SupervisorState) -> list[str]:
    """One sentence per fact the user stated that bears on the question, citing the user's block and saying
    that the answer uses it: 'Per your statement, Ternline's FY2023 revenue was $512m [3]; this answer uses it.'"""
    from nodes.memory import admitted, as_said

    items = {f"memory:{m.id}": m for m in admitted(state, "fact", "decision")}
    out = []
    for block in stated:
        item = items.get(block.source_id)
        if item is None:
            continue
        subject = as_said(item.key, item.said)
        out.append(f"Per your statement, {subject} was {item.value} [{block.n}]; this answer uses your figure.")
    return out


_ASKS_FOR_FIGURE = re.compile(
    r"(?i)\b(how (?:much|many|big|large|high|low)|what (?:was|were|is|are|will be)|figure|amount|total|level|"
    r"value|rate|margin|revenue|sales|turnover|profit|income|earnings|expenditure|capex|costs?|expenses?|cash|"
    r"debt|dividends?|eps|ebitda|growth|change|difference|ratio|percentage|share|price|number of)\b")


def claim_sentences(question: str, claims: Sequence[Claim], by_chunk: dict[str, Block]) -> list[str]:
    """Each verified claim as a cited sentence, boilerplate left out; a table row is stated as the figure it
    holds for the year asked. When the question asks for a figure, sentences that state one lead, those that
    name the measure as the question words it first."""
    from app.text.questions import core_question, measure_terms, states_measure

    companies = sorted({b.company for b in by_chunk.values() if b.company})
    asked = [terms for terms in measure_terms(core_question(question), companies)[:1] if terms]  # as worded
    stated: list[tuple[bool, bool, str, list[int]]] = []
    for claim in claims:
        cited = [by_chunk[c] for c in claim.evidence_chunk_ids if c in by_chunk]
        if not cited or is_boilerplate(claim.text):
            continue
        text = (state_row(question, claim.text, cited) if is_table_row(claim.text) else "") or claim.text
        stated.append((bool(re.search(r"\d", read_dates(text)[2])), bool(asked) and states_measure(asked, text),
                       text, [b.n for b in cited]))
    if _ASKS_FOR_FIGURE.search(question):
        # stable: figures first, those naming the measure in the question's own words ('operating margin', not
        # the 'operating income' of the same table) before the rest, each group in claim order
        stated.sort(key=lambda entry: (not entry[0], not entry[1]))
    # the same statement read from two places (a table row and its summary table) is said once, citing both
    merged: dict[str, list[int]] = {}
    for *_, text, numbers in stated:
        merged.setdefault(text, []).extend(n for n in numbers if n not in merged.get(text, []))
    return [cite(text, numbers) for text, numbers in merged.items()]


# --- table rows ---------------------------------------------------------------------------------------------


_ROW = re.compile(r"^(?P<label>[^:|]{2,100}):\s+\S.*\d")


def is_table_row(text: str) -> bool:
    """A table row as the draft quotes it: '| Capex | 1,577 | 1,563 |' or 'Capex ($m): FY2018 1,577; FY2017 1,563'."""
    return text.strip().startswith("|") or _ROW.match(text.strip()) is not None


def _row_label(text: str) -> str:
    stripped = text.strip()
    if stripped.startswith("|"):
        return stripped.strip("|").split("|")[0].strip()
    match = _ROW.match(stripped)
    return match.group("label").strip() if match else ""


_NO_SCALE = re.compile(r"(?i)per share|ratio|margin|%|percent|number|employees|headcount|days|times|pence|cents")


def state_row(question: str, row: str, blocks: Sequence[Block]) -> str:
    """'Capital expenditure ($m): FY2018 1,577; FY2017 1,563' asked about FY2018 → "Northwind Logistics'
    capital expenditure was $1,577m in FY2018" ('' when the row's figures cannot be read). The years the
    question names, in its order; else the block's own year; else the latest the row gives."""
    from app.facts.readers import statement_figures, table_figures

    label = _row_label(row)
    figures = [f for b in blocks for f in table_figures(_as_evidence(b))
               if f.quote and _row_label(f.quote) == label and f.fiscal_year]
    # a statement page's row (app/text/statements.readable_statement) is found by its line item
    figures = figures or [f for b in blocks for f in statement_figures(_as_evidence(b))
                          if f.label == label and f.fiscal_year and not f.label.endswith(" growth")]
    if not label or not figures:
        return ""
    base = [f for f in figures if f.label == figures[0].label]  # the row's own measure, not a qualified column
    by_year = {f.fiscal_year: f for f in reversed(base)}
    years = [y for y in dict.fromkeys(years_named(question)) if y in by_year]
    own = blocks[0].fiscal_year
    years = years or ([own] if own in by_year else [max(by_year)])  # type: ignore[list-item, type-var]
    block = next(b for b in blocks if b.chunk_id == by_year[years[0]].chunk_id)
    outflow = is_outflow(label) and all(by_year[y].value < 0 for y in years)
    parts = [_in_asked_scale(question, abs(by_year[y].value) if outflow else by_year[y].value,
                             _unit(by_year[y], block), y) for y in years]
    spent = " (a cash outflow, shown in brackets in the statement)" if outflow else ""
    return f"{_subject(by_year[years[0]].company, by_year[years[0]].label)} was {' and '.join(parts)}{spent}"


# "in millions", "in USD millions", "in A$ millions", "use billions", "convert to thousands". A currency the
# statement does not give is named only when it is one of the three symbols (no exchange rate is applied).
_ASKED_SCALE = re.compile(r"(?i)\b(?:in|use|using|into|to)\s+(?:(?:(?P<cur>USD|US\$|\$|EUR|€|GBP|£)|A\$|AU\$|AUD|C\$|"
                          r"CAD|HK\$)\s*)?(?P<scale>thousands|millions|billions)\b")
_CURRENCY_OF = {"usd": "$", "us$": "$", "$": "$", "eur": "€", "€": "€", "gbp": "£", "£": "£"}


def _in_asked_scale(question: str, value: float, unit: str, year: int | None, verb: str = "stated") -> str:
    """'$382m in FY2020 (stated as 381,603k)' when the question asks for millions of a figure stated in
    thousands, or for whole millions of one stated to a decimal; the figure as stated otherwise. Whole millions
    (or thousands), billions to one decimal, unless the question asks for its own rounding; the question's
    currency stands in when the statement's page gave none."""
    when = f" in FY{year}" if year else ""
    stated = f"{format_figure(value, unit)}{when}"
    asked = _ASKED_SCALE.search(question)
    currency = unit[:1] if unit[:1] in "£$€" else ""
    scale = unit[len(currency):]
    if not asked or scale not in SCALE_FACTORS:
        return stated
    target = SCALE_SUFFIX[asked.group("scale").lower()]
    decimals = rounding_decimals(question)
    decimals = decimals if decimals is not None else 1 if target == "bn" else 0
    converted = round(value * SCALE_FACTORS[scale] / SCALE_FACTORS[target], decimals)
    if target == scale and converted == value:
        return stated
    currency = currency or _CURRENCY_OF.get((asked.group("cur") or "").lower(), "")
    return f"{format_figure(converted, currency + target)}{when} ({verb} as {format_figure(value, unit)})"


_OUTFLOW = re.compile(r"(?i)^(purchases?|payments?|repayments?|dividends? paid|acquisitions?|repurchases?|"
                      r"capital expenditures?|additions to)\b")


def is_outflow(label: str) -> bool:
    """A cash-flow line that is a use of cash ('Purchases of property, plant and equipment'): its bracketed
    value is an amount spent, stated as a positive amount."""
    return _OUTFLOW.match(label.strip()) is not None


def _as_evidence(block: Block) -> Any:
    return Evidence(chunk_id=block.chunk_id or f"block-{block.n}", source_id=block.source_id, company=block.company,
                    fiscal_year=block.fiscal_year, text=block.text)


def _unit(figure: Figure, block: Block) -> str:
    """The figure's unit; a bare number in a table headed '($ in millions)' takes that scale."""
    scale = table_scale(block.text)
    if figure.unit or not scale or _NO_SCALE.search(figure.label):
        return figure.unit
    return scale


def _measure(label: str) -> str:
    """A label inside a sentence: 'Capital expenditure' → 'capital expenditure'; 'EBITDA' stays; a label set
    all in capitals ('TOTAL ASSETS', as statements print totals) → 'total assets'."""
    label = label.strip()
    if len(label.split()) > 1 and label.isupper():
        label = label.lower()
    first, _, rest = label.partition(" ")
    if first[:1].isupper() and first[1:].islower():
        first = first.lower()
    return f"{first} {rest}".strip()


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _subject(company: str | None, label: str) -> str:
    """"Northwind Logistics' capital expenditure"; without a company, 'Capital expenditure'."""
    if company:
        return f"{_possessive(company)} {_measure(label)}"
    return label[:1].upper() + label[1:]


# --- calculations -------------------------------------------------------------------------------------------

def news_sentences(question: str, news: Sequence[Block], limit: int = MAX_NEWS_SENTENCES) -> list[str]:
    """The `limit` news items whose best sentence (or headline) supports the question most, each as that
    sentence with its date, newest first, so a correction comes before what it corrects. When no item
    shares a term with the question ("any news on Helio?"), the newest items' headlines or first sentences."""
    if not news:
        return []
    topic = topic_terms(question, [b.company for b in news if b.company])
    years = years_named(question)
    best: dict[str, tuple[float, Block, str]] = {}  # one sentence per news item, from its best chunk
    for block in news:
        score, sentence = best_news_sentence(topic, block, years)
        if sentence and (block.source_id not in best or score > best[block.source_id][0]):
            best[block.source_id] = (score, block, sentence)
    relevant = [p for p in best.values() if p[0] > 0]
    if _RECENCY.search(question) or not relevant:
        # "The latest news", or nothing shares a term with the question: the newest items, each by its
        # best sentence (or headline).
        newest = sorted(best.values(), key=lambda p: p[1].published_at or "", reverse=True)
        top = [(s, b, t if s > 0 else _headline(b) or t) for s, b, t in newest[:limit]]
    else:
        top = sorted(relevant, key=lambda p: -p[0])[:limit]
    out = []
    for _, block, sentence in sorted(top, key=lambda p: p[1].published_at or "", reverse=True):
        corrects = block.title.lower().startswith("correction") and not sentence.lower().startswith("correction")
        out.append(cite(f"{'Correction, ' if corrects else ''}{block.published_at or 'Undated'}: {sentence}",
                        [block.n]))
    return out


def _headline(block: Block) -> str:
    candidates = [block.title.strip(), *split_sentences(block.text)[:1]]
    return next((c for c in candidates if c and not looks_like_instruction(c) and not is_boilerplate(c)), "")


def cite(text: str, numbers: Sequence[int]) -> str:
    body = text.strip().rstrip(".")
    return f"{body} {''.join(f'[{n}]' for n in dict.fromkeys(numbers))}."


def describe_result(result: CalcResult, calc_n: int, by_chunk: dict[str, Block], question: str = "") -> list[str]:
    """The result stated as an analyst would (the figure, its period and unit, in the scale the question asks;
    which side is higher), then how it was computed. Each sentence cites the calculation and the blocks its
    inputs came from."""
    refs = [calc_n, *(by_chunk[f.chunk_id].n for f in result.sources.values() if f.chunk_id in by_chunk)]
    note = str(getattr(result, "note", "") or "").strip()  # a judgement: the metric it rests on
    return [cite(text, refs) for text in (lead_sentence(result, question), computation(result), note) if text]


def lead_sentence(result: CalcResult, question: str = "") -> str:
    """'Helio Renewables' operating margin was 2.4 percentage points higher than Northwind Logistics' in FY2024
    (9.1% against 6.7%)'; a rate to the decimals the question asks for; '' when the inputs are not all figures
    from the evidence."""
    src = result.sources
    value = result.result
    if result.tool == "difference" and {"a", "b"} <= src.keys():
        return _compare(src["a"], src["b"], value)
    decimals = rounding_decimals(question)
    rate = f"{abs(value):g}" if decimals is None else f"{abs(round(value, decimals)):.{decimals}f}"
    def at(figure: Figure) -> str:  # '$35.4bn in FY2021 (stated as $35,355m)' when the question asks for billions
        return _in_asked_scale(question, figure.value, figure.unit, figure.fiscal_year)

    if result.tool in ("growth_rate", "percentage_change") and {"old", "new"} <= src.keys():
        old, new = src["old"], src["new"]
        if value == 0:
            return f"{_subject(new.company, new.label)} was unchanged at {at(new)}"
        verb = "grew" if value > 0 else "fell"
        return f"{_subject(new.company, new.label)} {verb} {rate}% from {at(old)} to {at(new)}"
    if result.tool == "cagr" and {"start", "end"} <= src.keys():
        start, end = src["start"], src["end"]
        verb = "grew" if value >= 0 else "fell"
        return (f"{_subject(end.company, end.label)} {verb} at a compound annual rate of {rate}% from "
                f"{at(start)} to {at(end)}")
    formula = str(getattr(result, "formula", "") or "")
    if result.tool == "metric" and " = " in formula:
        companies = {f.company for f in src.values() if f.company}
        years = [f.fiscal_year for f in src.values() if f.fiscal_year]
        company = companies.pop() if len(companies) == 1 else None
        subject = _subject(company, formula.split(" = ", 1)[0].strip())
        if re.fullmatch(r"[£$€]?(?:m|bn|k)", result.unit):  # an amount: in the scale the question asks
            return f"{subject} was {_in_asked_scale(question, value, result.unit, max(years, default=None), 'computed')}"
        when = f" in FY{max(years)}" if years else ""
        if ", averaged over " in formula and years:
            when = f" on average over FY{min(years)}–FY{max(years)}"
        return f"{subject} was {_result_text(value, result.unit)}{when}"
    if result.tool == "ratio" and {"numerator", "denominator"} <= src.keys():
        num, den = src["numerator"], src["denominator"]
        return (f"{_subject(num.company, num.label)}{_in(num)} ({_stated(num)}) was {value:g} times "
                f"{_object(den)}{_in(den)} ({_stated(den)})")
    return ""


def _object(figure: Figure) -> str:
    """A figure's measure after a verb: "Helio Renewables' revenue", "revenue"."""
    return _subject(figure.company, figure.label) if figure.company else _measure(figure.label)


def _compare(a: Figure, b: Figure, value: float) -> str:
    """A difference a - b as which is higher, by how much, in the inputs' unit."""
    high, low = (a, b) if value >= 0 else (b, a)
    amount = _amount(abs(value), a, b)
    same_company = (a.company or "").casefold() == (b.company or "").casefold()
    same_measure = a.label.casefold() == b.label.casefold()
    if value == 0:
        return f"{_subject(a.company, a.label)}{_in(a)} and {_object(b)}{_in(b)} were the same, {_stated(a)}"
    if same_measure and same_company and high.fiscal_year != low.fiscal_year:
        return (f"{_subject(high.company, high.label)} was {amount} higher{_in(high)} than{_in(low)} "
                f"({_stated(high)} against {_stated(low)})")
    if same_measure and high.company and low.company and high.fiscal_year == low.fiscal_year:
        return (f"{_subject(high.company, high.label)} was {amount} higher than {_possessive(low.company)}"
                f"{_in(high)} ({_stated(high)} against {_stated(low)})")
    return (f"{_subject(high.company, high.label)}{_in(high)} ({_stated(high)}) was {amount} higher than "
            f"{_object(low)}{_in(low)} ({_stated(low)})")


def _amount(value: float, a: Figure, b: Figure) -> str:
    if a.unit == b.unit == "%":
        return f"{value:g} percentage points"
    return format_figure(value, a.unit) if a.unit == b.unit else f"{value:g}"


def _stated(figure: Figure) -> str:
    return format_figure(figure.value, figure.unit)


def _in(figure: Figure) -> str:
    return f" in FY{figure.fiscal_year}" if figure.fiscal_year else ""


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
        who = " ".join(x for x in (figure.company, f"FY{figure.fiscal_year}" if figure.fiscal_year else "") if x)
        inputs.append(f"{name}: {who} {figure.label} {format_figure(figure.value, figure.unit)}")
    detail = f" ({'; '.join(inputs)})" if inputs else ""
    formula = str(getattr(result, "formula", "") or "").strip()
    phrase = _TOOL_PHRASES.get(result.tool, result.tool.replace("_", " ").capitalize())
    return f"{phrase}: {result.expression} = {value}{detail}{f'; formula: {formula}' if formula else ''}"


def _result_text(value: float, unit: str) -> str:
    """'0.9%', '1.52x', '-$63.9m', '45 days': a result as a report writes it, a word unit after a space."""
    if re.fullmatch(r"[£$€]?(?:m|bn|k)?|%|x|p", unit):
        return format_figure(value, unit)
    return f"{format_figure(value, '')} {unit}"


def format_figure(value: float, unit: str) -> str:
    """A figure as a report writes it: '£1,311.2m', '8.8%', '13.1p', '15,960', '-63.9 $m' → '-$63.9m'."""
    text = repr(float(value))
    decimals = 0 if text.endswith(".0") else len(text.split(".")[1]) if "." in text and "e" not in text else 2
    number = f"{abs(value):,.{decimals}f}"
    sign = "-" if value < 0 else ""
    currency = unit[:1] if unit[:1] in "£$€" else ""
    if currency:
        return f"{sign}{currency}{number}{unit[1:]}"
    return f"{sign}{number}{unit}"


def best_news_sentence(topic: set[str], block: Block, years: Sequence[int] = ()) -> tuple[float, str]:
    """The item's headline or sentence that supports the question most, and its support (0: none does).
    The headline competes too: a publisher's correction states the corrected figure there. Sentences
    addressed to a model ('ignore all previous instructions') and boilerplate (a safe harbour) never count."""
    title = block.title.strip()
    texts = [t for t in (title, *split_sentences(block.text)) if t]
    # The headline is the item's own summary: on equal support it wins over a sentence of the body.
    candidates = [(sentence_support(topic, t, years) + (HEADLINE_BONUS if t == title else 0.0), -i, t)
                  for i, t in enumerate(texts) if not looks_like_instruction(t) and not is_boilerplate(t)]
    candidates = [c for c in candidates if c[0] > (HEADLINE_BONUS if c[2] == title else 0.0)] or [
        (0.0, -i, t) for i, t in enumerate(texts[:1]) if not looks_like_instruction(t) and not is_boilerplate(t)]
    if not candidates:
        return 0.0, ""
    score, _, text = max(candidates)
    return score, text


# --- citation validation ------------------------------------------------------------------------------------
#
# A sentence "states" something when it holds a figure (a number that is not part of a date), a name (a proper
# noun: a capitalised word that is neither a sentence's ordinary opening, nor our own vocabulary, nor a finance
# term) or a date (a calendar date, a month, a fiscal or calendar year, a half or a quarter). Such a sentence must
# cite an admitted block, and the blocks it cites must hold its figures, names and dates.

_NOT_NAMES = frozenset(
    """a an and as at after before but by during for from he her his however in it its of on or our over she that
    the their there these they this those to under we when where while with which there also into than then them
    what will would about such some more most other only each both same very said says according based note
    overall therefore thus meanwhile additionally yes no not none all any total group company report reports
    news item items table section page source evidence answer question figure figures result results
    difference growth change ratio cagr evaluate correction undated computed calculation insufficient out
    ebitda ebit eps roe roa roce gaap ifrs usd gbp eur yoy ceo cfo coo kpi kpis esg capex opex ipo""".split())
_WORD = re.compile(r"[^\W\d_][\w&'’.-]*")
_OPENING_PUNCTUATION = ":;.!?—–"


def _figures_only(terms: Sequence[str]) -> list[str]:
    return [t for t in terms if any(ch.isdigit() for ch in t)]


def stated_names(sentence: str, known: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The names a sentence states: capitalised words (possessives and trailing punctuation off) other than
    ordinary words, our own vocabulary, finance terms, periods and months. A word that opens the sentence (or a
    clause after ':' or ';') is capitalised anyway, so it counts only when it reads as a name: a possessive
    ("Helio's"), an acronym, the first of two capitalised words ("Goldman Sachs"), or a name known from the
    blocks' companies or from elsewhere in the answer (`known`, case-folded)."""
    tokens = list(_WORD.finditer(sentence))
    names: list[str] = []
    for i, match in enumerate(tokens):
        raw = match.group(0).replace("’", "'")
        word = re.sub(r"'s$", "", raw).rstrip(".-'")
        if not _is_name_shaped(word):
            continue
        if _opens_clause(sentence, match.start()):
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            follows = after is not None and not sentence[match.end():after.start()].strip() and _is_name_shaped(
                re.sub(r"'s$", "", after.group(0).replace("’", "'")).rstrip(".-'"))
            if not (raw.endswith(("'s", "s'")) or (word.isupper() and len(word) > 1) or follows
                    or word.casefold() in known):
                continue
        names.append(word)
    return list(dict.fromkeys(names))


def _is_name_shaped(word: str) -> bool:
    return (len(word) > 1 and word[0].isupper() and word.casefold() not in _NOT_NAMES
            and word.lower().rstrip(".") not in MONTHS and not is_period_word(word))


def _opens_clause(sentence: str, start: int) -> bool:
    before = _MARKER.sub("", sentence[:start]).rstrip(" \t\"'“‘([")
    return not before or before[-1] in _OPENING_PUNCTUATION


def _names_in(text: str) -> set[str]:
    """Case-folded words of a text, possessives off: what a question or a company name says."""
    return {re.sub(r"'s$", "", w.replace("’", "'")).rstrip(".-'").casefold() for w in _WORD.findall(text)}


def question_words(question: str, blocks: Sequence[Block]) -> set[str]:
    """The question's own words, widened to the full names of the companies it names in part ('Northwind' →
    'Northwind Logistics'): a name the question already gave is not news that needs a source."""
    words = _names_in(question)
    for company in {b.company for b in blocks if b.company}:
        parts = _names_in(company) - _NOT_NAMES
        if parts & words:
            words |= parts
    return words


def known_names(draft: str, blocks: Sequence[Block]) -> set[str]:
    """Names known without a sentence's opening: the blocks' companies and capitalised words that stand
    inside a clause anywhere in the answer."""
    known = set().union(*(_names_in(b.company) for b in blocks if b.company)) - _NOT_NAMES
    for sentence in split_answer(draft):
        for match in _WORD.finditer(sentence):
            if match.group(0)[0].isupper() and not _opens_clause(sentence, match.start()):
                known |= _names_in(match.group(0)) - _NOT_NAMES
    return known


def check_citations(draft: str, blocks: Sequence[Block], question: str = "") -> tuple[list[str], CitationCheck]:
    """The sentences that stand (markers of unknown blocks removed) and what was removed or flagged.

    A sentence that states a figure, a date or a name beyond the question's own words must cite an admitted
    block; a cited sentence must find each of its figures, names and dates in the blocks it cites (headers
    included) and share a content word with them. Any other sentence is dropped and flagged with the reason."""
    admitted = {b.n: b for b in blocks}
    asked = question_words(question, blocks)
    known = known_names(strip_fence_markers(draft), blocks)
    kept: list[str] = []
    check = CitationCheck()
    for sentence in split_answer(draft):
        cited = [int(n) for n in _MARKER.findall(sentence)]
        bad = [n for n in cited if n not in admitted]
        good = list(dict.fromkeys(n for n in cited if n in admitted))
        check.removed.extend(bad)
        clean = _MARKER.sub(lambda m: m.group(0) if int(m.group(1)) in admitted else "", sentence).strip()
        plain = strip_fence_markers(_MARKER.sub("", clean))
        dates, periods, undated = read_dates(plain)
        has_figure = bool(re.search(r"\d", undated))
        names = stated_names(plain, known)
        if cited and not good:
            check.flagged.append(f"{sentence} (cites no block that was in the prompt)")
            continue
        if not good:
            reason = uncited_reason(has_figure, [n for n in names if n.casefold() not in asked],
                                    [*(d for d, _ in dates), *sorted(periods)])
            if reason:
                check.flagged.append(f"{sentence} ({reason})")
                continue
            kept.append(clean)
            continue
        support = "\n".join(f"{admitted[n].header}\n{admitted[n].text}" for n in good)
        missing = [*_figures_only(unsupported_terms(undated, support)), *absent_names(names, support),
                   *unsupported_dates(plain, support)]
        if missing:
            check.flagged.append(f"{sentence} (not in the cited blocks: {', '.join(dict.fromkeys(missing))})")
            continue
        if not shares_content(plain, support):
            check.flagged.append(f"{sentence} (shares no words with the blocks it cites)")
            continue
        kept.append(clean)
        check.valid.extend(n for n in good if n not in check.valid)
    check.valid.sort()
    return kept, check


def uncited_reason(has_figure: bool, names: Sequence[str], dates: Sequence[str]) -> str:
    """Why an uncited sentence cannot stand ('' when it states nothing that needs a source)."""
    if has_figure:
        return "a figure with no citation"
    if names:
        return f"a name with no citation: {', '.join(names)}"
    if dates:
        return f"a date with no citation: {', '.join(dict.fromkeys(dates))}"
    return ""


_FUNCTION_WORDS = frozenset(
    """that this with from were have which their there these those been also into than then they them what when
    where will would about over under after before while such some more most other only each both same very
    said says according""".split())


def absent_names(names: Sequence[str], support: str) -> list[str]:
    """The names the cited text does not contain, case aside. A model's paraphrase keeps names; an invented
    one is caught."""
    plain = support.replace("’", "'")
    return [n for n in names if not re.search(rf"(?<!\w){re.escape(n)}(?!\w)", plain, re.IGNORECASE)]


def shares_content(sentence: str, support: str) -> bool:
    """At least one content word (4+ letters, not a function word) of the sentence is in the cited text:
    a sentence of bare markers or boilerplate cites nothing it says."""
    from app.knowledge.analyzer import analyze

    words = {t for t in analyze(sentence) if t.isalpha() and len(t) >= 4 and t not in _FUNCTION_WORDS}
    return bool(words & set(analyze(support)))


def insufficient_answer(state: SupervisorState) -> str:
    """The declared insufficient answer, and why: the periods the knowledge base holds for a company whose
    asked period it lacks, or whose filings were searched for what, in vain."""
    result = state.get("retrieval_result")
    if result is None:
        return INSUFFICIENT_EVIDENCE
    asked = ", ".join(f"FY{y}" for y in state.get("fiscal_years") or []) or "the period asked"
    reasons = [f"It holds no filings of {', '.join(result.absent)} (`prov kb status` lists the companies it "
               "holds)."] if result.absent else []
    reasons += [f"It holds no filing of {company} that covers {asked}; it holds "
                f"{', '.join(f'FY{y}' for y in held)}." for company, held in result.unheld.items()]
    searched = [c for c in result.found if c not in result.unheld]
    if result.attempts and (searched or not result.found):
        where = f"the filings of {', '.join(searched)}" if searched else "every filing"
        reasons.append(f"Searched {where} for: {_searched_terms(state)}; no passage found states it.")
    reasons += _missing_inputs(state)
    return " ".join([INSUFFICIENT_EVIDENCE, *reasons])


_MISSING_INPUT = re.compile(r"missing_input\): (?P<what>.+? needs .+?): not among the figures given")


def _missing_inputs(state: SupervisorState) -> list[str]:
    """What a metric would need that no admitted statement gives ('free cash flow needs cash from operations
    FY2023 (e.g. Net cash provided by operating activities), capex FY2023 …'), from the calculator's errors."""
    calc = state.get("calculation")
    found = [m.group("what") for e in (calc.errors if calc else []) if (m := _MISSING_INPUT.search(e))]
    return [f"To compute it: {what[:1].upper()}{what[1:]}; no statement held gives them." for what in dict.fromkeys(found)]


def _searched_terms(state: SupervisorState) -> str:
    question = state.get("question") or ""
    return one_line(keyword_query(question, list(state.get("companies") or []))) or one_line(question)


def validate_citations(state: SupervisorState) -> dict[str, Any]:
    draft = (state.get("draft") or "").strip()
    decision = state.get("decision")
    # An unflagged decision still gets a report search (nodes/routing.after_route): evidence is needed then too.
    needed = decision is None or not any(decision.flags().values()) or any(
        (decision.needs_retrieval, decision.needs_news, decision.needs_calculation))
    if not draft or draft == INSUFFICIENT_EVIDENCE:
        return {"draft": insufficient_answer(state), "status": "insufficient",
                "citation_check": CitationCheck(fail_closed=bool(draft))}
    kept, check = check_citations(draft, list(state.get("blocks") or []), state.get("question") or "")
    if not kept or (needed and not check.valid):
        check.fail_closed = True
        return {"draft": insufficient_answer(state), "status": "insufficient", "citation_check": check}
    return {"draft": " ".join(kept), "status": "answered", "citation_check": check}
