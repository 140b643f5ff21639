"""The offline composer's answer: `compose_offline` puts the sentences in order (the user's stated figures, a
calculation's result or else the verified claims, then the news); `OfflineComposer` is the Synthesizer role
object the offline provider hands to the `generate` node."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from app.metrics import rounding_decimals
from app.models.providers.offline.composer.analyst import Analyst
from app.models.providers.offline.composer.claims import claim_sentences
from app.models.providers.offline.composer.news import news_sentences, published_then
from app.models.providers.offline.composer.results import describe_result
from app.models.providers.offline.composer.wording import ASKED_SCALE
from app.text.figures import states_figure
from app.text.fiscal_naming import prov_dated, shift_fiscal_words
from app.text.questions import asks_for_figure
from app.turns import Block, MemoryItem, as_said, blocks_by_chunk
from prompts.answer import INSUFFICIENT_EVIDENCE

SupervisorState = Mapping[str, Any]
"""What the composer reads of the supervisor's state (nodes/state.py): blocks, question, calculation,
retrieval_result, memory."""


class OfflineComposer:
    label = "offline extractive composer"

    def draft(self, state: Mapping[str, Any]) -> str:
        return compose_offline(state)


def compose_offline(state: SupervisorState) -> str:
    """An analyst's answer from what the prompt holds: a calculation's result first (the figure asked for, its
    period and unit, which side is higher, then how it was computed); without one, the verified claims, a table
    row stated as the figure it holds, figures first when the question asks for one; then the news.

    The blocks of a company that names its fiscal years by the year they begin are read a year on
    (app/text/fiscal_naming.prov_dated), and what the answer quotes of them is given back in the company's words."""
    starting = list(state.get("start_named") or [])
    if not starting:
        return _compose(state)
    answer = _compose({**state, "blocks": prov_dated(list(state.get("blocks") or []), starting)})
    return shift_fiscal_words(answer, -1)


def _compose(state: SupervisorState) -> str:
    blocks = list(state.get("blocks") or [])
    by_chunk = blocks_by_chunk(blocks)
    question = with_standing_instructions(state.get("question") or "", state)
    sentences: list[str] = []
    stated = user_statement_sentences([b for b in blocks if b.kind == "memory"], state)
    calc_block = next((b for b in blocks if b.kind == "calculation"), None)
    calc = state.get("calculation")
    uses_yours = False
    analyst = Analyst(state, question)
    # 'What did Copperleaf announce on 16 October 2024?': the news of that day answers, not a report's sentence
    dated = published_then(question, [b for b in blocks if b.kind == "news"]) and analyst.ask.kind in (
        "list", "explain", "yes_no")
    if analyst.leads(calc.results if calc is not None else []) and not dated:
        # the answer in the shape the question asks for (analyst.py); a metric's or growth rate's result says it
        sentences.extend(analyst.sentences())
    if calc_block is not None and calc is not None and not sentences:
        # (`analyst.results`: those of the period asked, none from whole years for a quarter's question)
        # (which part of one company ranks first is never told by the company's own metric: 'Which of its
        # segments earns the best operating margin?' is not answered by the company's operating margin)
        # nor by a growth of its whole ('Which of its regions grew fastest?': not the company's sales growth)
        ranked_parts = analyst.ask.kind == "extreme" and len(analyst.companies) < 2
        told: set[tuple] = set()
        for result in (r for r in analyst.results if analyst.result_asked(r)
                       and not (ranked_parts and (r.tool == "metric" or not _of_parts(r)))):
            # one computation per figure asked: a second of the same names and periods over other values (a
            # 'Digital Media' row of another table, in thousands) would state a second, different answer
            key = (result.tool, tuple(sorted((f.company or "", f.label, f.fiscal_year or 0, f.period or "")
                                             for f in result.sources.values())))
            if key in told:
                continue
            told.add(key)
            sentences.extend(describe_result(result, calc_block.n, by_chunk, question))
            uses_yours = uses_yours or any(f.source_id.startswith("memory:") for f in result.sources.values())
        if sentences and (verdict := analyst.calculated_verdict(analyst.results)):
            sentences[0] = f"{verdict} {sentences[0]}"  # a yes/no on a change leads with its answer
    result = state.get("retrieval_result")
    # A calculation answers the question and cites the blocks its inputs came from; the draft's claims would
    # only repeat neighbouring table rows. Without a result, the claims are the answer.
    # two companies compared: a claim about one of them is no answer ('Whose operating profit grew faster …?'
    # answered with one segment's growth)
    compared = len(analyst.companies) >= 2 and analyst.ask.kind in ("change", "yes_no_change")
    if result is not None and not sentences and not compared and not dated:
        sentences.extend(analyst.on_topic(claim_sentences(question, result.claims, by_chunk)))
        # a two-part question's second figure, when the claims answered the first ('By how many shares …, and how
        # much EPS benefit does its guidance assume?')
        sentences.extend(analyst.other_part_answer(sentences) if sentences else [])
    decision = state.get("decision")
    # the news, when nothing else answers or the question asks for news rather than what the reports state
    # a yes/no that a news item answers is not followed by the news list
    news_verdict = bool(sentences) and re.match(r"(?:Yes|No)\.\s", sentences[0]) is not None and bool(
        {b.n for b in blocks if b.kind == "news"} & {int(n) for n in re.findall(r"\[(\d+)\]", sentences[0])})
    if (not sentences or not result or (decision is not None and decision.needs_news and not decision.needs_retrieval)) \
            and not news_verdict:
        said = {_plain(s) for s in sentences}  # a news sentence already stated is not stated again with its date
        sentences.extend(s for s in news_sentences(question, [b for b in blocks if b.kind == "news"])
                         if _plain(s) not in said)
    if (sentences and not stated and calc is None and asks_for_figure(question)
            and not any(map(_gives_figure, sentences))):
        return INSUFFICIENT_EVIDENCE  # a figure asked, and no sentence found gives one: no answer, not a paste
    if stated:  # the user's figure leads; what the documents say follows, so the reader sees both
        # A calculation that took the user's figure is the answer itself, not what the documents state.
        sentences = [*stated, *(["The documents state:"] if sentences and not uses_yours else []), *sentences]
    return " ".join(_whole_bold(s) for s in sentences) if sentences else INSUFFICIENT_EVIDENCE


_NO_FIGURE = re.compile(r"\[\d+\]|\b(?:FY\s?)?(?:19|20)\d{2}\b|\b\d{1,2}-[A-Z]\b"
                        r"|\b(?:Note|Item|Part|page)\s+\d+[A-Z]?\b", re.IGNORECASE)
"""Numbers that are no figure: citation marks, years, form names ('10-Q'), note and item numbers."""


def _of_parts(result: CalcResult) -> bool:
    """Whether every figure a result is computed from is a part's (a segment's or a region's), none the whole
    company's."""
    return bool(result.sources) and all(f.segment for f in result.sources.values())


def _plain(sentence: str) -> str:
    """A sentence without its date prefix ('2024-09-04: ') and citation marks, spacing and case aside."""
    text = re.sub(r"^(?:Yes|No)\.\s+|^\d{4}-\d{2}-\d{2}:\s*|\s*\[\d+\]", "", sentence)
    return " ".join(text.split()).casefold().rstrip(".")


def _gives_figure(sentence: str) -> bool:
    """Whether a sentence states a figure, years, citations, form names and note numbers aside."""
    return states_figure(_NO_FIGURE.sub(" ", sentence))


def _whole_bold(sentence: str) -> str:
    """A sentence whose markdown bold was cut in half by a sentence split ('Solar Development** revenue rose …'):
    its markers off, no pasted-fragment look."""
    return sentence.replace("**", "") if sentence.count("**") % 2 else sentence


def with_standing_instructions(question: str, state: SupervisorState) -> str:
    """The question with the user's standing instructions on units and rounding appended ('… Answer in millions.'),
    unless it asks for its own: the question's words win over a standing instruction."""
    extra = []
    for item in admitted(state, "constraint"):
        value = item.value.strip().rstrip(".")
        if ASKED_SCALE.search(value) and not ASKED_SCALE.search(question):
            extra.append(value)
        elif rounding_decimals(value) is not None and rounding_decimals(question) is None:
            extra.append(value)
    return " ".join([question, *(f"{e[:1].upper()}{e[1:]}." for e in extra)])


def user_statement_sentences(stated: Sequence[Block], state: SupervisorState) -> list[str]:
    """One sentence per fact the user stated that bears on the question, citing the user's block and saying
    that the answer uses it: 'Per your statement, Ternline's FY2023 revenue was $512m [3]; this answer uses it.'"""
    items = {f"memory:{m.id}": m for m in admitted(state, "fact", "decision")}
    out = []
    for block in stated:
        item = items.get(block.source_id)
        if item is None:
            continue
        subject = as_said(item.key, item.said)
        out.append(f"Per your statement, {subject} was {item.value} [{block.n}]; this answer uses your figure.")
    return out



def admitted(state: SupervisorState, *types: str) -> list[MemoryItem]:
    """The memory records admitted to the turn's prompt, of the given types (all types when none is given)."""
    return [m for m in state.get("memory") or [] if m.admitted and (not types or m.type in types)]
