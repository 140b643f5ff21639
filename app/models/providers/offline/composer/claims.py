"""The verified claims of the retrieval subgraph as cited sentences (`claim_sentences`), boilerplate left out,
figures first when the question asks for one; a table row is stated as the figure it holds for the year asked
(`state_row`: 'Capex ($m): FY2018 1,577; FY2017 1,563' is "Northwind Logistics' capital expenditure was $1,577m
in FY2018"), read by the figure readers of app/facts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from app.calc_tools import Figure
from app.evidence import Claim, Evidence
from app.facts.query import BALANCE_SIDES
from app.facts.readers import statement_figures, table_figures
from app.knowledge.analyzer import analyze
from app.models.providers.offline.composer.wording import cite, in_asked_scale, subject_phrase
from app.text.dates import read_dates
from app.text.figures import table_scale
from app.text.periods import years_named
from app.text.questions import core_question, measure_terms, states_measure
from app.text.sentences import is_boilerplate
from app.turns import Block

_ASKS_FOR_FIGURE = re.compile(
    r"(?i)\b(how (?:much|many|big|large|high|low)|what (?:was|were|is|are|will be)|figure|amount|total|level|"
    r"value|rate|margin|revenue|sales|turnover|profit|income|earnings|expenditure|capex|costs?|expenses?|cash|"
    r"debt|dividends?|eps|ebitda|growth|change|difference|ratio|percentage|share|price|number of)\b")


def claim_sentences(question: str, claims: Sequence[Claim], by_chunk: dict[str, Block]) -> list[str]:
    """Each verified claim as a cited sentence, boilerplate left out; a table row is stated as the figure it
    holds for the year asked. When the question asks for a figure, sentences that state one lead, those that
    name the measure as the question words it first."""
    companies = sorted({b.company for b in by_chunk.values() if b.company})
    asked = [terms for terms in measure_terms(core_question(question), companies)[:1] if terms]  # as worded
    stated: list[tuple[bool, bool, str, list[int]]] = []
    for claim in claims:
        cited = [by_chunk[c] for c in claim.evidence_chunk_ids if c in by_chunk]
        if not cited or is_boilerplate(claim.text):
            continue
        if is_table_row(claim.text) and other_side(_row_label(claim.text), question):
            continue  # 'Total liabilities and equity' is no answer to total liabilities
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


# --- table rows ------------------------------------------------------------------------------------------------


def other_side(label: str, question: str) -> bool:
    """Whether a balance-sheet line names a side of it the question does not ask ('Total liabilities and equity'
    asked as total liabilities), when the question names one: that line sums another."""
    asked = set(analyze(question)) & BALANCE_SIDES
    return bool(asked) and bool(set(analyze(label)) & BALANCE_SIDES - asked)


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
    parts = [in_asked_scale(question, abs(by_year[y].value) if outflow else by_year[y].value,
                             _unit(by_year[y], block), y, quote=by_year[y].quote) for y in years]
    spent = " (a cash outflow, shown in brackets in the statement)" if outflow else ""
    return f"{subject_phrase(by_year[years[0]].company, by_year[years[0]].label)} was {' and '.join(parts)}{spent}"


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
