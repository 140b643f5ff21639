"""The supervisor's answer steps: `generate` (synthesis) and `validate_citations` (fail closed).

generate: with a synthesizer (openai provider: the large client) the assembled prompt goes to it; offline,
an extractive composer writes the answer from what the prompt holds: the calculation results, the verified
claims of the retrieval subgraph and the most relevant sentence of each news item, newest first, each
sentence ending with the number of its block.

validate_citations: every [n] must name a block that was in the prompt; a citation of anything else is
removed and its sentence flagged. A sentence with a figure must cite, and each of its figures must appear in
the blocks it cites (dates aside). Flagged sentences are dropped from the answer and listed. When evidence was
needed and no sentence with a valid citation remains, the answer is the declared insufficient-evidence one.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Callable, Sequence
from typing import Any

from app.calc_tools import CalcResult
from nodes.retrieve import split_sentences, topic_terms, unsupported_terms, years_named
from nodes.state import Block, CitationCheck, SupervisorState
from prompts.answer import INSUFFICIENT_EVIDENCE

MAX_NEWS_SENTENCES = 3
HEADLINE_BONUS = 0.5
_MARKER = re.compile(r"\s*\[(\d+)\]")
_DATE = re.compile(r"\b(?:19|20)\d{2}-\d{2}-\d{2}\b")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z£$€\d(\"'\[])|(?<=\])\s+(?=[A-Z])|\n+")
_RECENCY = re.compile(r"(?i)\b(latest|recent|recently|newest|most recent|last|current|currently|now|today|"
                      r"this (?:week|month|quarter|year))\b")
_TOOL_PHRASES = {
    "growth_rate": "Growth", "percentage_change": "Change", "difference": "Difference", "ratio": "Ratio",
    "cagr": "CAGR", "evaluate": "Evaluate",
}

Synthesizer = Callable[[list[dict[str, str]]], str]


def generate(state: SupervisorState, *, synthesizer: Synthesizer | None = None) -> dict[str, Any]:
    if synthesizer is not None:
        return {"draft": str(synthesizer(list(state["prompt"]))).strip()}
    return {"draft": compose_offline(state)}


# --- the offline composer -----------------------------------------------------------------------------------


def compose_offline(state: SupervisorState) -> str:
    blocks = list(state.get("blocks") or [])
    by_chunk = {b.chunk_id: b for b in blocks if b.chunk_id}
    sentences: list[str] = []
    calc_block = next((b for b in blocks if b.kind == "calculation"), None)
    calc = state.get("calculation")
    if calc_block is not None and calc is not None:
        for result in calc.results:
            sentences.append(describe_calculation(result, calc_block.n, by_chunk))
    result = state.get("retrieval_result")
    # A calculation answers the question and cites the blocks its inputs came from; the draft's claims would
    # only repeat neighbouring table rows. Without a result, the claims are the answer.
    computed = bool(sentences)
    for claim in result.claims if result and not computed else []:
        cited = [by_chunk[c].n for c in claim.evidence_chunk_ids if c in by_chunk]
        if cited:
            sentences.append(cite(claim.text, cited))
    sentences.extend(news_sentences(state["question"], [b for b in blocks if b.kind == "news"]))
    return " ".join(sentences) if sentences else INSUFFICIENT_EVIDENCE


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
    from nodes.retrieve import looks_like_instruction

    candidates = [block.title.strip(), *split_sentences(block.text)[:1]]
    return next((c for c in candidates if c and not looks_like_instruction(c)), "")


def cite(text: str, numbers: Sequence[int]) -> str:
    body = text.strip().rstrip(".")
    return f"{body} {''.join(f'[{n}]' for n in dict.fromkeys(numbers))}."


def describe_calculation(result: CalcResult, calc_n: int, by_chunk: dict[str, Block]) -> str:
    """'Difference: 6.7 - 9.1 = -2.4 percentage points (a: Northwind Logistics FY2024 Operating margin 6.7%; ...)'."""
    units = {f.unit for f in result.sources.values()}
    unit = result.unit
    if result.tool == "difference" and units == {"%"}:
        unit = " percentage points"
    elif result.tool == "difference" and len(units) == 1:
        unit = f" {units.pop()}"
    inputs = []
    refs = [calc_n]
    for name, figure in result.sources.items():
        who = " ".join(x for x in (figure.company, f"FY{figure.fiscal_year}" if figure.fiscal_year else "") if x)
        inputs.append(f"{name}: {who} {figure.label} {format_figure(figure.value, figure.unit)}")
        if figure.chunk_id in by_chunk:
            refs.append(by_chunk[figure.chunk_id].n)
    detail = f" ({'; '.join(inputs)})" if inputs else ""
    phrase = _TOOL_PHRASES.get(result.tool, result.tool)
    return cite(f"{phrase}: {result.expression} = {result.result:g}{unit}{detail}", refs)


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
    addressed to a model ('ignore all previous instructions') never count."""
    from nodes.retrieve import looks_like_instruction, sentence_support

    title = block.title.strip()
    texts = [t for t in (title, *split_sentences(block.text)) if t]
    # The headline is the item's own summary: on equal support it wins over a sentence of the body.
    candidates = [(sentence_support(topic, t, years) + (HEADLINE_BONUS if t == title else 0.0), -i, t)
                  for i, t in enumerate(texts) if not looks_like_instruction(t)]
    candidates = [c for c in candidates if c[0] > (HEADLINE_BONUS if c[2] == title else 0.0)] or [
        (0.0, -i, t) for i, t in enumerate(texts[:1])]
    if not candidates:
        return 0.0, ""
    score, _, text = max(candidates)
    return score, text


# --- citation validation ------------------------------------------------------------------------------------


def split_answer(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if s and s.strip()]


def _figures_only(terms: Sequence[str]) -> list[str]:
    return [t for t in terms if any(ch.isdigit() for ch in t)]


def check_citations(draft: str, blocks: Sequence[Block]) -> tuple[list[str], CitationCheck]:
    """The sentences that stand (markers of unknown blocks removed) and what was removed or flagged."""
    admitted = {b.n: b for b in blocks}
    kept: list[str] = []
    check = CitationCheck()
    for sentence in split_answer(draft):
        cited = [int(n) for n in _MARKER.findall(sentence)]
        bad = [n for n in cited if n not in admitted]
        good = list(dict.fromkeys(n for n in cited if n in admitted))
        check.removed.extend(bad)
        clean = _MARKER.sub(lambda m: m.group(0) if int(m.group(1)) in admitted else "", sentence).strip()
        plain = _DATE.sub("", _MARKER.sub("", clean))
        has_figure = bool(re.search(r"\d", plain))
        if cited and not good:
            check.flagged.append(f"{sentence} (cites no block that was in the prompt)")
            continue
        if not good:
            if has_figure:
                check.flagged.append(f"{sentence} (a figure with no citation)")
                continue
            kept.append(clean)
            continue
        support = "\n".join(f"{admitted[n].header}\n{admitted[n].text}" for n in good)
        missing = [*_figures_only(unsupported_terms(plain, support)), *unsupported_names(plain, support)]
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


_FUNCTION_WORDS = frozenset(
    """that this with from were have which their there these those been also into than then they them what when
    where will would about over under after before while such some more most other only each both same very
    said says according""".split())


def unsupported_names(sentence: str, support: str) -> list[str]:
    """Capitalised words of the sentence (its first word aside: any sentence starts with a capital) that the
    cited text does not contain, case aside. A model's paraphrase keeps names; an invented one is caught."""
    from nodes.retrieve import claim_entities

    first = re.match(r"\W*([^\W\d_][\w&'’.-]*)", sentence)
    names = claim_entities(sentence)
    if first and names and names[0] == re.sub(r"'s$", "", first.group(1).replace("’", "'")).rstrip(".-'"):
        names = names[1:]
    plain = support.replace("’", "'")
    return [n for n in names if not re.search(rf"(?<!\w){re.escape(n)}(?!\w)", plain, re.IGNORECASE)]


def shares_content(sentence: str, support: str) -> bool:
    """At least one content word (4+ letters, not a function word) of the sentence is in the cited text:
    a sentence of bare markers or boilerplate cites nothing it says."""
    from app.knowledge.analyzer import analyze

    words = {t for t in analyze(sentence) if t.isalpha() and len(t) >= 4 and t not in _FUNCTION_WORDS}
    return bool(words & set(analyze(support)))


def validate_citations(state: SupervisorState) -> dict[str, Any]:
    draft = (state.get("draft") or "").strip()
    decision = state.get("decision")
    # An unflagged decision still gets a report search (nodes/routing.after_route): evidence is needed then too.
    needed = decision is None or not any(decision.flags().values()) or any(
        (decision.needs_retrieval, decision.needs_news, decision.needs_calculation))
    if not draft or draft == INSUFFICIENT_EVIDENCE:
        return {"draft": INSUFFICIENT_EVIDENCE, "status": "insufficient",
                "citation_check": CitationCheck(fail_closed=bool(draft))}
    kept, check = check_citations(draft, list(state.get("blocks") or []))
    if needed and not check.valid:
        check.fail_closed = True
        return {"draft": INSUFFICIENT_EVIDENCE, "status": "insufficient", "citation_check": check}
    return {"draft": " ".join(kept), "status": "answered", "citation_check": check}
