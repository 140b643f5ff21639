"""The context assembler: a deterministic function from state to (prompt, manifest, numbered blocks).

Precedence (highest first): what remains after the instructions and the question is filled in this order,
each part taking what it needs of what the parts before it left, so when the budget is short, history goes
first, then memory records from the lowest-ranked, then the lowest-ranked evidence:

| block                      | producer                          | fill  | degrades                              |
|----------------------------|-----------------------------------|-------|---------------------------------------|
| instructions               | prompts/answer.py                 | fixed | never dropped                         |
| question                   | intake → enrich (standalone)      | fixed | never dropped                         |
| verified structured state  | calculator subgraph               | 1st   | never dropped (small)                 |
| facts read for the question| read_facts (nodes/facts.py)       | 1st   | at most MAX_FACT_LINES; uncited go    |
| evidence: reports, news    | retrieval subgraph, news node     | 2nd   | lowest-ranked blocks go last          |
| memory                     | read_memory (nodes/memory.py)     | 3rd   | lowest-ranked records, before evidence |
| history                    | compress_history (+ recalled)     | 4th   | dropped first                         |

Evidence is bounded upstream (the retrieval subgraph admits at most k chunks, news a few items) and memory by
its own count and token budgets (read_memory), so in a normal turn every part fits and history keeps what is
left. Numbered blocks ([1], [2], ...) are what
an answer may cite: report evidence, then news (newest first), then the facts the user stated (each in its own
block, labelled as the user's, never mixed with a document's), then one calculation block. The facts the
readers took from that evidence for this question (its measure, period and segment) are one more labelled,
unnumbered section: each line names the numbered block it was read from, which is what an answer cites; a
fact whose block did not fit is left out, since nothing could cite it. Standing instructions and what the user
said about themselves are a separate, unnumbered section. Everything other people wrote (documents, news,
earlier answers, the facts read from them) sits inside <<<DATA ... DATA>>> fences at the user role, with fence
markers stripped from the content. Report evidence, news and calculation results are separately labelled sections.
Tokens are counted with the embedding model's word-piece tokenizer (tiktoken would download its tables):
an estimate of an LLM's count, consistent from turn to turn.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

from collections.abc import Callable, Sequence
from typing import Any

from app.calc_tools import CalculationOutcome, Figure, plain_number
from app.evidence import Evidence, RetrievalResult
from app.facts.currency import filing_name
from app.text.fiscal_naming import naming_rule
from app.turns import Block, ManifestEntry, MemoryItem, Turn, blocks_by_chunk
from nodes.memory import memory_text
from nodes.state import SupervisorState
from prompts.answer import answer_instructions
from prompts.fences import DATA_CLOSE, DATA_OPEN, defang, fence, one_line, strip_fence_markers

FENCE_OPEN, FENCE_CLOSE = DATA_OPEN, DATA_CLOSE

TokenCounter = Callable[[str], int]

MAX_FACT_LINES = 12
"""Facts shown to the model: the best-ranked ones (read_facts orders them), enough for two periods of a few
companies or a breakdown's members."""


_FORM_SAID = {"earnings": "earnings release", "quarterly": "quarterly report"}


def evidence_header(n: int, doc: Evidence) -> str:
    """'[3] Northwind Logistics FY2024, p.39 [table]' ('[3] JPMorgan Chase Q1 FY2021 10-Q, p.5 [text]' for a
    quarterly filing's chunk, named by its quarter and form), its section after the page when it has one ('p.32, section
    "Flexibles Segment"': the segment it stands under, nodes/inputs.segment_sections);
    news: '[5] Helio Renewables news, 2024-08-09: "Correction: ..."'. Every document-supplied part is one line
    without fence markers: the header sits outside the fence."""
    company = one_line(doc.company or "") or "Unknown company"
    if doc.doc_type == "news":
        when = doc.published_at.isoformat() if doc.published_at else "undated"
        return f'[{n}] {company} news, {when}: "{one_line(doc.title)}"'
    year = f" FY{doc.fiscal_year}" if doc.fiscal_year else ""
    name = filing_name(doc)
    if year and name.form in ("10-Q", "earnings", "quarterly") and name.fiscal_quarter:
        year = f" Q{name.fiscal_quarter}{year} {_FORM_SAID.get(name.form, name.form)}"  # 'JPMORGAN_2021Q1_10Q': the quarter its text is of
    section = f", section \"{one_line(doc.section)}\"" if doc.section else ""
    where = f", p.{doc.page}{section}" if doc.page is not None else section
    kind = "table" if doc.is_table else "text"
    return f"[{n}] {company}{year}{where} [{kind}]"


def order_report_evidence(result: RetrievalResult | None) -> list[Evidence]:
    """Chunks cited by verified claims first (in claim order), then those fetched for the line items the
    question's figures need, then the other admitted chunks by score."""
    if result is None:
        return []
    cited = [cid for claim in result.claims for cid in claim.evidence_chunk_ids]
    by_id = {d.chunk_id: d for d in result.evidence}
    first = [by_id[c] for c in dict.fromkeys([*cited, *result.fetched]) if c in by_id]
    taken = {d.chunk_id for d in first}
    rest = [d for d in result.evidence if d.chunk_id not in taken]
    return [*first, *rest]


def calculation_text(calc: CalculationOutcome, blocks_by_chunk: dict[str, int]) -> str:
    """One line per result, each input with the block that holds it."""
    lines = []
    for r in calc.results:
        inputs = []
        for name, value in r.inputs.items():
            src = r.sources.get(name)
            if src is None:
                inputs.append(f"{name}={plain_number(value)}")
                continue
            ref = f" [{blocks_by_chunk[src.chunk_id]}]" if src.chunk_id in blocks_by_chunk else ""
            who = " ".join(x for x in (src.company, src.period_name) if x)
            # Labels and companies were read from documents, and this block is not fenced: one line, no markers.
            said_of = " ".join(x for x in (one_line(who), one_line(src.label)) if x)
            inputs.append(f"{name}={plain_number(value)}{one_line(src.unit)} ({said_of}){ref}")
        # A metric's formula and a judgement's note, when the result has them (getattr: older results do not).
        extra = [f"{name}: {one_line(str(getattr(r, name, '') or ''))}" for name in ("formula", "note")
                 if str(getattr(r, name, "") or "").strip()]
        exact = getattr(r, "exact", None)  # older results have none
        unrounded = f" (unrounded {exact:.8g}{r.unit})" if exact is not None else ""
        said = f"{r.tool.replace('_', ' ')}: {r.expression} = {plain_number(r.result)}{r.unit}{unrounded}"
        lines.append("; ".join([said,
                                f"inputs: {', '.join(inputs)}", *extra]))
    if not lines:
        lines = [one_line(calc.summary) or "No calculation was made."]
    return "\n".join(lines)


def fact_line(fact: Figure, block: int) -> str:
    """'- Northwind Logistics, FY2024, Revenue (segment Europe): 1,311.2 £m, from a statement row [3]'. Labels,
    companies and units were read from documents: one line each, no fence markers (the section is fenced)."""
    who = ", ".join(x for x in (one_line(fact.company or ""), one_line(fact.period or "") or
                                (f"FY{fact.fiscal_year}" if fact.fiscal_year else "")) if x)
    segment = f" (segment {one_line(fact.segment)})" if fact.segment else ""
    origin = {"statement": "a statement row", "table": "a table", "text": "a sentence",
              "user": "the user's statement"}.get(fact.origin, "")
    value = f"{fact.value:,.{_places(fact.value)}f}"
    unit = one_line(fact.unit)
    amount = f"{value}{unit}" if unit in ("%", "x") else f"{value} {unit}".strip()
    return f"- {who + ', ' if who else ''}{one_line(fact.label)}{segment}: {amount}" \
           f"{', from ' + origin if origin else ''} [{block}]"


def _places(value: float) -> int:
    """Decimal places as read (at most 4): 1311.2 → 1, 45.0 → 0."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return len(text.split(".")[1]) if "." in text else 0


def facts_text(facts: Sequence[Figure], by_chunk: dict[str, int]) -> tuple[str, list[str]]:
    """The facts section's lines (best first, at most MAX_FACT_LINES, one per distinct fact, only those whose
    block is in the prompt) and the chunk ids they cite."""
    lines: list[str] = []
    cited: list[str] = []
    for fact in facts:
        block = by_chunk.get(fact.chunk_id or "")
        if block is None:
            continue
        line = fact_line(fact, block)
        if line in lines:
            continue
        lines.append(line)
        cited.append(fact.chunk_id or "")
        if len(lines) == MAX_FACT_LINES:
            break
    return "\n".join(lines), cited


def assemble(state: SupervisorState, *, budget: int = 6000, count: TokenCounter) -> dict[str, Any]:
    instructions = answer_instructions()
    question = state["question"]
    # how routing read the question's years ('fiscal 2022' of a company that names its years by their start)
    said = [state.get("period_note") or "", *(naming_rule(c) for c in state.get("start_named") or [])]
    if note := one_line(" ".join(s for s in said if s)):
        question = f"{question}\n(Periods: {note})"
    manifest: list[ManifestEntry] = []
    t_instr, t_question = count(instructions), count(question)
    manifest.append(ManifestEntry(block="instructions", role="system", producer="prompts/answer.py",
                                  rule="always first; never dropped", tokens=t_instr))
    remaining = max(0, budget - t_instr - t_question)

    # Candidate numbered blocks: report evidence, then news, then the calculation.
    reports = order_report_evidence(state.get("retrieval_result"))
    news = list(state.get("news") or [])
    candidates: list[tuple[Evidence, str, str]] = []
    verified = {cid for c in (state.get("retrieval_result").claims if state.get("retrieval_result") else [])
                for cid in c.evidence_chunk_ids}
    fetched = set(state.get("retrieval_result").fetched if state.get("retrieval_result") else [])
    for doc in reports:
        rule = ("admitted by grading; cited by a verified claim" if doc.chunk_id in verified
                else f"fetched: {doc.why}" if doc.chunk_id in fetched
                else f"admitted by grading; fused score {doc.score:.4f}")
        candidates.append((doc, "retrieval subgraph (hybrid search → grade → verify)", rule))
    for doc in news:
        candidates.append((doc, "news node (news search per company)", "top news hits, newest first"))

    # Structured state first: it has precedence over evidence.
    calc = state.get("calculation")
    structured_tokens = 0
    calc_block: Block | None = None
    if calc is not None:
        provisional = {doc.chunk_id: i for i, (doc, _, _) in enumerate(candidates, start=1)}
        text = calculation_text(calc, provisional)
        structured_tokens = count(text)
    if state.get("facts"):  # the facts section is structured state too: reserve it before evidence
        provisional = {doc.chunk_id: i for i, (doc, _, _) in enumerate(candidates, start=1)}
        text, _ = facts_text(list(state.get("facts") or []), provisional)
        structured_tokens += count(fence(text, "facts")) if text else 0

    memory_items = [m for m in state.get("memory") or [] if m.admitted]
    evidence_allowance = max(0, remaining - structured_tokens)
    blocks: list[Block] = []
    used = 0
    over_budget = False
    for doc, producer, rule in candidates:
        n = len(blocks) + 1
        header = evidence_header(n, doc)
        text_tokens = count(header) + count(doc.text)
        included = not over_budget and used + text_tokens <= evidence_allowance
        over_budget = not included
        manifest.append(ManifestEntry(
            block=header if included else f"(dropped) {header[header.index(']') + 2:]}", role="user",
            producer=producer, rule=rule, tokens=text_tokens, included=included, items=[doc.chunk_id],
            note="" if included else "over the evidence budget: lowest-ranked evidence goes first"))
        if not included:
            continue
        used += text_tokens
        # doc.text was defanged where evidence enters state (app/evidence.Evidence); the fence sanitises it again
        blocks.append(Block(n=n, kind="news" if doc.doc_type == "news" else "report", header=header,
                            text=doc.text,
                            source_id=doc.source_id, chunk_id=doc.chunk_id, title=doc.title, page=doc.page,
                            company=doc.company, fiscal_year=doc.fiscal_year,
                            published_at=doc.published_at.isoformat() if doc.published_at else None,
                            tokens=text_tokens))
    # Memory: whatever evidence left; records in rank order. History gets the rest.
    memory_allowance = max(0, remaining - structured_tokens - used)
    notes, memory_used = memory_blocks(memory_items, blocks, manifest, memory_allowance, count)
    if calc is not None:
        n = len(blocks) + 1
        text = calculation_text(calc, {key: b.n for key, b in blocks_by_chunk(blocks).items()})
        header = f"[{n}] calculation ({calc.status})"
        calc_block = Block(n=n, kind="calculation", header=header, text=text, source_id="calculation",
                           title="Calculator results", tokens=count(text))
        blocks.append(calc_block)
        manifest.append(ManifestEntry(block=header, role="user", producer="calculator subgraph (ReAct, safe tools)",
                                      rule="verified structured state: tool results with their input figures",
                                      tokens=calc_block.tokens, items=[r.tool for r in calc.results]))
    facts = list(state.get("facts") or [])
    facts_section = ""
    if facts:
        text, cited = facts_text(facts, {key: b.n for key, b in blocks_by_chunk(blocks).items()})
        header = "facts read for the question"
        tokens = count(text) if text else 0
        manifest.append(ManifestEntry(
            block=header, role="user", producer="read_facts (nodes/facts.py: statement rows, tables, sentences)",
            rule="the figures for the question's measure, period and segment, best first, each citing its block",
            tokens=tokens, included=bool(text), items=list(dict.fromkeys(cited)),
            note="" if text else "no fact's block is in the prompt"))
        facts_section = fence(text, "facts") if text else ""
    if not memory_items:
        decision = state.get("decision")
        plan = decision.plan.memory_read if decision is not None else "none"
        manifest.append(ManifestEntry(
            block="memory", role="user", producer="read_memory (memory records)", tokens=0, included=False,
            rule=(f"read ({plan}): no active record of the user bears on this question" if plan != "none"
                  else "not read: the route plan's memory_read is none")))

    # History gets its share plus whatever evidence left unused; newest turns first, then the summary.
    history_allowance = max(0, remaining - used - memory_used - structured_tokens)
    history_text, history_entry = history_section(state, history_allowance, count)
    manifest.append(history_entry)
    manifest.append(ManifestEntry(block="question", role="user", producer="intake → enrich (standalone question)",
                                  rule="always last; never dropped" + ("; routing's note on how its years are read"
                                                                       if note else ""), tokens=t_question))

    user = render_user(question, history_text, blocks, notes, facts_section)
    prompt = [{"role": "system", "content": instructions}, {"role": "user", "content": user}]
    return {"blocks": blocks, "prompt": prompt, "manifest": manifest}


def memory_blocks(items: Sequence[MemoryItem], blocks: list[Block], manifest: list[ManifestEntry], allowance: int,
                  count: TokenCounter) -> tuple[str, int]:
    """Admit the read records in rank order within `allowance`: facts become numbered blocks (an answer may cite
    the user's statement), constraints and profile records one unnumbered section of standing instructions.
    One manifest entry per record, saying why it was picked; (the text of that section, tokens used)."""
    used = 0
    dropping = False
    notes: list[str] = []
    for item in items:
        text = memory_text(item)
        tokens = count(text)
        why = (f"{item.rule}; {item.status} {item.type}, {item.scope}, source {item.source}, "
               f"score {item.score:g}")
        fits = not dropping and used + tokens <= allowance
        dropping = not fits  # rank order holds: once one record is over budget, every lower-ranked one is too
        label = f"memory: {item.type} '{one_line(item.key)}'"
        if fits and item.type in ("fact", "decision"):
            n = len(blocks) + 1
            header = f"[{n}] the user's statement ({item.type}, {item.created_at[:10]}): {one_line(item.key)}"
            blocks.append(Block(n=n, kind="memory", header=header, text=defang(text), source_id=f"memory:{item.id}",
                                title="your statement", tokens=tokens))
            label = header
        elif fits:
            notes.append(f"- {item.type}: {text}")
        manifest.append(ManifestEntry(block=label if fits else f"(dropped) {label}", role="user",
                                      producer=f"read_memory (memory records, {item.scope})", rule=why,
                                      tokens=tokens, included=fits, items=[item.id],
                                      note="" if fits else "over the memory budget: lowest-ranked records go first"))
        used += tokens if fits else 0
    text = fence("\n".join(notes), "memory") if notes else ""
    return text, used


def history_section(state: SupervisorState, allowance: int, count: TokenCounter) -> tuple[str, ManifestEntry]:
    """The newest turns verbatim first; then turns recalled from the archive because the question refers back
    to them (each labelled with its turn number); then the compressed summary of older turns, while they fit."""
    turns = [Turn.model_validate(t) for t in state.get("recent_turns") or []]
    summary = state.get("history_summary") or ""
    recalled = list(state.get("recalled") or [])
    parts: list[str] = []
    ids: list[str] = []
    used = 0
    for i, turn in reversed(list(enumerate(turns))):
        text = f"User: {turn.asked}\nProv: {turn.answer}"
        cost = count(text)
        if used + cost > allowance:
            break
        parts.insert(0, text)
        ids.insert(0, f"turn-{i - len(turns)}")
        used += cost
    all_recent = len(parts) == len(turns)
    recalled_parts = []
    for r in recalled if all_recent else []:
        text = f"(recalled turn {r['turn']}: {r['why']})\nUser: {r['asked']}\nProv: {r['answer']}"
        cost = count(text)
        if used + cost > allowance:
            break
        recalled_parts.append(text)
        ids.insert(len(recalled_parts) - 1, f"recalled-turn-{r['turn']}")
        used += cost
    parts = recalled_parts + parts
    if summary and all_recent and used + count(summary) <= allowance:
        parts.insert(0, "Earlier (compressed): " + summary)
        ids.insert(0, "summary")
        used += count(summary)
    kept_recent = len([i for i in ids if i.startswith("turn-")])
    dropped = len(turns) - kept_recent
    notes = [f"{dropped} turn(s) dropped over budget"] if dropped else []
    if recalled and len(recalled_parts) < len(recalled):
        notes.append(f"{len(recalled) - len(recalled_parts)} recalled turn(s) dropped over budget")
    text = fence("\n\n".join(parts), "conversation") if parts else ""
    rule = "last turns verbatim, older ones compressed; dropped first when over budget"
    if recalled:
        rule += "; archived turns recalled because the question refers back"
    entry = ManifestEntry(block="history", role="user", producer="compress_history" + (" + turn archive" if recalled
                                                                                        else ""),
                          rule=rule, tokens=count(text) if text else 0, included=bool(parts), items=ids,
                          note="; ".join(notes))
    return text, entry


def render_user(question: str, history: str, blocks: Sequence[Block], notes: str = "", facts: str = "") -> str:
    sections: list[str] = []
    if history:
        sections.append("## Conversation so far (untrusted data)\n" + history)
    if notes:
        sections.append("## Standing instructions and what the user said about themselves (the user's statements, "
                        "not documents; follow the instructions in every answer)\n" + notes)
    reports = [b for b in blocks if b.kind == "report"]
    news = [b for b in blocks if b.kind == "news"]
    calcs = [b for b in blocks if b.kind == "calculation"]
    stated = [b for b in blocks if b.kind == "memory"]
    if reports:
        sections.append("## Report evidence (untrusted data)\n" + "\n\n".join(
            fence(f"{b.header}\n{b.text}", f"[{b.n}]") for b in reports))
    if news:
        sections.append("## News, newest first (untrusted data; a later item may correct an earlier one)\n"
                        + "\n\n".join(fence(f"{b.header}\n{b.text}", f"[{b.n}]") for b in news))
    if stated:
        sections.append("## What the user stated (the user's statements, not documents; where a document disagrees, "
                        "give both and say which you used)\n"
                        + "\n\n".join(fence(f"{b.header}\n{b.text}", f"[{b.n}]") for b in stated))
    if facts:
        sections.append("## Facts read for this question (figures Prov's readers took from the evidence above; "
                        "cite the block each names, not this list; check it against that block)\n" + facts)
    if calcs:
        sections.append("## Calculation results (computed by the calculator's tools; verified state)\n"
                        + "\n\n".join(f"{b.header}\n{b.text}" for b in calcs))
    if not blocks:
        sections.append("## Evidence\n(none was found)")
    # The question is the user's, but enrichment may have completed it from earlier turns: no markers either.
    sections.append(f"## Question\n{strip_fence_markers(question).strip()}")
    return "\n\n".join(sections)
