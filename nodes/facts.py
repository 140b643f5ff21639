"""The supervisor's facts step: the figures the question asks for, read from what the gather branches brought.

`read_facts` runs once the branches have met (`join`): it reads the question (app/text/question_kinds: its kind
and the measure, segment and period it asks about) and the admitted report evidence and news, and writes `facts`:
the candidate facts of app/facts/query.py that answer it (for a change, the two periods' facts first; for the
largest or smallest of a breakdown, each member's, named in its label: 'Americas: Net sales'). The
calculator is handed them first (nodes/figures.prepare_calculation), the assembler shows them to a model as a
labelled block, and `prov trace` lists them.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from app.calc_tools import Figure
from app.facts.members import asked_kind_of_member, within_parent
from app.facts.query import (Fact, answering_facts, asks_growth, each_growth, facts_for, member_facts, member_table,
                             members_query, read_query, row_members, same_member, segment_by_word,
                             segment_read_as_name, two_periods_of)
from app.facts.revisions import revision_figures
from app.text.fiscal_naming import in_own_words, prov_dated
from app.text.measures import growths_compared, members_compared
from app.text.question_kinds import Ask, asks_growth_rate, asks_share, member_noun, read_ask
from nodes.figures import with_segment_label
from nodes.state import SupervisorState


MAX_MEMBER_FACTS = 24
"""A breakdown's facts handed on: enough for a dozen members in two periods."""


def labelled_members(members: Iterable[Fact]) -> list[Figure]:
    """A breakdown's member facts as the calculator takes them, each named in its label ('Americas: Net sales'),
    the table's change columns left out, at most MAX_MEMBER_FACTS. A member one table names in full and another
    by its short name ('Consumer Business' on a segment's page, 'Consumer' in the segment table) is listed once,
    as the best-ranked fact gives it."""
    kept: list[Fact] = []
    for fact in members:
        if (fact.figure.period or "").endswith("change") or any(
                same_member(fact.segment or "", k.segment or "") and (k.figure.fiscal_year, k.figure.period,
                                                                      k.figure.unit, k.part)
                == (fact.figure.fiscal_year, fact.figure.period, fact.figure.unit, fact.part) for k in kept):
            continue
        kept.append(fact)
    return [f.figure.model_copy(update={"label": f"{f.segment}: {f.figure.label}"}) for f in kept][:MAX_MEMBER_FACTS]


def row_figures(question: str, query: Any, evidence: list[Any], companies: list[str]) -> list[Figure]:
    """The rows of one table an extreme question ranks (app/facts/query.row_members: 'the largest … among the
    short-term investments'), each named in its label, and the total the table states for their period, its
    origin 'total': the calculator puts the largest row beside it."""
    rows = [f for f in row_members(member_noun(question), query, evidence, companies, question) if f.part is None]
    if not rows:
        return []
    latest = max(f.figure.fiscal_year or 0 for f in rows)
    rows = [f for f in rows if f.figure.fiscal_year == latest]
    totals = {(t.value, t.unit): t for f in rows if (t := f.of_total) is not None}
    out = labelled_members(rows)
    if len(totals) == 1:
        out.append(next(iter(totals.values())).model_copy(update={"origin": "total"}))
    return out


def read_facts(state: SupervisorState) -> dict[str, Any]:
    """The facts that answer the question, best first (module docstring), each quoted in its document's words."""
    starting = list(state.get("start_named") or [])
    found = _read_facts(state, starting)
    return {"facts": in_own_words(found["facts"], starting)} if starting else found


def _read_facts(state: SupervisorState, starting: Sequence[str]) -> dict[str, Any]:
    question = state.get("question") or ""
    result = state.get("retrieval_result")
    evidence = prov_dated([*(result.evidence if result else []), *(state.get("news") or [])], starting)
    # evidence is defanged where it enters state (app/evidence.Evidence): what forged markers frame is no fact
    if not evidence:
        return {"facts": []}
    companies = list(state.get("companies") or []) or sorted({e.company for e in evidence if e.company})
    named = list(state.get("companies") or [])
    query = segment_by_word(segment_read_as_name(read_query(question, companies, list(state.get("fiscal_years") or [])),
                                                 question, evidence, named), evidence, named)
    ask = read_ask(question)
    if ask.kind == "extreme":  # the members of a breakdown, each named in its label for the calculator
        # a share asked ('the highest EBITDAR contribution'): the rows that reconcile to the whole count in its sum
        members = member_facts(query, evidence, named, reconciling=asks_share(question))
        members = [f for f in members if f.part == query.part] or members  # the whole year, unless a part is asked
        members = asked_kind_of_member(members, question, lambda f: f.segment or "", member_table)  # no places
        members = within_parent(members, query.measure.segment, lambda f: f.segment or "", lambda f: f.context)
        if len({f.segment for f in members}) < 2 and not ask.of_change:
            return {"facts": row_figures(question, query, evidence, named)}
        return {"facts": labelled_members(members)}
    pair = members_compared(question, companies) if len(named) < 2 else None
    if pair is not None:  # two members compared: their rows, never the whole company's figure in their place
        members = member_facts(members_query(query, pair.measure, companies), evidence, named,
                               known=(pair.first, pair.second))
        return {"facts": labelled_members(f for f in members
                                          if any(same_member(m, f.segment or "") for m in (pair.first, pair.second)))}
    growths = growths_compared(question, companies) if len(named) < 2 else None
    if growths is not None:  # 'did its S&M spending grow faster than its revenue': each measure's two periods
        return {"facts": [f.figure.model_copy(update={"origin": f.origin})
                          for side in (growths.first, growths.second)
                          for f in two_periods_of(members_query(query, side, companies), evidence, named) or ()]}
    if len(named) >= 2 and asks_growth(query):  # 'whose operating profit grew faster': each one's growth
        return {"facts": [f.figure.model_copy(update={"origin": f.origin}) for f in each_growth(query, evidence, named)]}
    revised = revision_figures(question, evidence, named or companies)
    if revised:  # 'by how much did X raise its guidance': the figure replaced, then the new one
        return {"facts": revised}
    if ask.kind == "figure" and asks_growth_rate(question):
        ask = Ask("change")  # a growth rate is computed from the year asked and the one before: both are read
    chosen = answering_facts(ask, query, facts_for(query, evidence, named), named)
    return {"facts": [*(f.figure.model_copy(update={"segment": f.segment or query.measure.segment,
                                                     "origin": f.origin}) for f in chosen),
                      *segment_inputs(question, query, evidence, named)]}


def segment_inputs(question: str, query: Any, evidence: list[Any], companies: list[str]) -> list[Figure]:
    """A metric asked of one segment, by name or by the judgement it decides ('3M's Consumer operating margin', 'is
    its Consumer business getting more profitable'): the segment's own rows of each input the
    metric's formula takes (its operating income and its net sales), for every year they give, each named with
    the segment in its label and carrying it, so the calculator computes the segment's metric, never the
    company's in its place (app/metrics.pick_figure). None when no segment or no metric is asked."""
    from app.facts.query import PARENT_ENTITY
    from app.metrics import items_named, metrics_asked

    segment = query.measure.segment
    metrics = metrics_asked(question)[0] if segment and segment != PARENT_ENTITY else []
    if not metrics:
        return []
    out: list[Figure] = []
    texts = {e.chunk_id: e.text for e in evidence}
    for needed in metrics[0].inputs:
        asked = read_query(f"What was the {segment} {needed.label.lower()}?", companies, list(query.years))
        asked = replace(asked, years=(), measure=replace(asked.measure, segment=segment))
        for fact in facts_for(asked, evidence, companies):
            heading = heading_over_row(texts.get(fact.figure.chunk_id or "", ""), fact.figure.quote) \
                if fact.origin != "text" else None
            if heading is not None and (needed.item is None or needed.item.key not in items_named(heading)):
                continue  # a stacked table's row under another line's heading ('Operating income' / 'Home Care …')
            if fact.segment and same_member(segment, fact.segment, fact.figure.company) \
                    and not (fact.figure.period or "").endswith("change") and fact.figure.unit not in ("%", "x"):
                out.append(with_segment_label(fact.figure.model_copy(update={"segment": segment,
                                                                              "origin": fact.origin})))
    return out[:MAX_MEMBER_FACTS]


def heading_over_row(text: str, row: str) -> str | None:
    """The line item a stacked segment table heads a row's block with ('Net sales' over 'Home Care $ 4,000 …'):
    the nearest line above the row with no figure that names a line item; None when there is none (a table of one
    segment's lines, each row named by its line)."""
    from app.metrics import items_named

    lines = [" ".join(line.split()) for line in text.splitlines()]
    wanted = " ".join((row.strip().splitlines() or [""])[0].split())
    at = next((i for i, line in enumerate(lines) if wanted and line == wanted), None)
    if at is None:  # (a row the reader joined from several lines: its first words, and its first figure)
        first = " ".join(row.split()[:4])
        at = next((i for i, line in enumerate(lines) if first and line.startswith(first)), None)
    for line in reversed(lines[:at] if at is not None else []):
        if re.search(r"\d", line):
            continue
        return line if items_named(line) else None
    return None
