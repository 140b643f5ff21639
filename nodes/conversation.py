"""The supervisor's conversation steps: intake, compress_history, enrich, cache_lookup, clarify, refuse,
remember and respond (graphs/supervisor.py wires them; their collaborators are injected with partial).

- `intake` normalises the question and resets every per-turn key, so a thread's previous turn never leaks;
  `after_intake` sends a thread's first turn past `compress_history`, which has nothing to do then.
- `compress_history` keeps the last N turns verbatim and compresses older ones extractively (sentences that
  carry a figure or a name), so the entity scan and the prompt read a bounded history.
- `enrich` resolves a follow-up ("what about their dividends?") against the companies and years of the most
  recent turn that named some, and writes the standalone question the cache and the router see.
- `cache_lookup` finds an answer to the same standalone question under the same corpus version.
- `clarify` asks the user (a durable `interrupt`) and merges the reply into the question.
- `remember` caches an answered turn; `respond` writes the response and appends the turn to the history.

No `from __future__ import annotations` here: LangGraph reads these type hints at runtime.
"""

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from langgraph.types import interrupt

from app.routing.lexicon import COMPANY_SET, DEFINITION, PEERS
from app.text.companies import companies_named, company_spans
from app.text.followups import (change_share_follow_up, is_follow_up, measure_follow_up, over_turns_follow_up,
                                 standalone_follow_up, without_thread_tags)
from app.text.periods import years_in
from app.text.sentences import split_at_stops
from app.text.statements import readable_statement
from app.turns import Citation, Response, Turn
from nodes.state import PER_TURN_RESET, SupervisorState
from prompts.answer import OUT_OF_SCOPE

KNOWN_YEARS = list(range(1990, 2100))
SUMMARY_SENTENCES_PER_TURN = 2
SUMMARY_MAX_CHARS = 1_500
MAX_CLARIFICATION_ROUNDS = 2
"""After this many clarification rounds in one turn the router's wish for more is overruled."""

_CITATION = re.compile(r"\s*\[\d+\]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_FIGURE = re.compile(r"\d")


# --- intake -------------------------------------------------------------------------------------------------


def intake(state: SupervisorState, *, max_chars: int = 2000) -> dict[str, Any]:
    """Collapse whitespace, refuse an empty or oversized question, and reset the per-turn keys."""
    question = " ".join(str(state.get("question") or "").split())
    if not question:
        raise ValueError("the question is empty")
    if len(question) > max_chars:
        raise ValueError(f"the question has {len(question)} characters; the limit is {max_chars}")
    # A thread's first turn skips compress_history (after_intake): it starts with no recent turns and no summary.
    # The turn is named by its number in the thread: a step that runs again after a crash (resumed from any
    # checkpoint of the turn, even one from before the turn's own start was saved) names the same turn, so what
    # it writes is not written twice. (A fork of turn N is turn N again: the same sentence is the same record.)
    thread = state.get("thread")
    source = f"{thread}:turn-{len(state.get('history') or []) + 1}" if thread else "-:-"
    return {**PER_TURN_RESET, "recent_turns": [], "history_summary": "", "question": question, "asked": question,
            "turn_source": source}


def after_intake(state: SupervisorState) -> list[str]:
    """The history is compressed first when there is one; a thread's first turn (no history, and not referring
    back to anything, so nothing to archive or recall) goes straight to enrich and find_memory_answer."""
    from app.memory.archive import refers_back

    if state.get("history") or refers_back(state.get("question") or ""):
        return ["compress_history"]
    return ["enrich", "find_memory_answer"]


# --- history ------------------------------------------------------------------------------------------------


def compress_history(state: SupervisorState, *, verbatim: int = 3, archive: Any = None,
                     memory: Any = None) -> dict[str, Any]:
    """The last `verbatim` turns word for word; older turns reduced to their question and the answer's
    sentences that carry a figure or a capitalised name (citation markers removed), bounded in length.
    Turns that left the verbatim window are archived (app/memory/archive.py), and only when the question
    refers back to something said earlier ('what did you say about their dividend earlier?') are a few of them
    recalled, with their neighbours, into this turn's history."""
    history = [Turn.model_validate(t) for t in state.get("history") or []]
    history = without_corrected(history, memory)
    recent = history[-verbatim:] if verbatim else []
    older = history[: len(history) - len(recent)]
    update: dict[str, Any] = {"recent_turns": recent, "history_summary": summarise_turns(older), "recalled": []}
    thread = state.get("thread")
    if archive is None or not thread:
        return update
    if older:
        archive.archive(state.get("user") or "local", thread, list(enumerate(older)))
    from app.memory.archive import refers_back

    if refers_back(state.get("question") or ""):
        update["recalled"] = [{"turn": r.turn_index + 1, "asked": r.asked, "answer": r.answer,
                               "why": r.why} for r in archive.recall(thread, state.get("question") or "")]
    return update


CORRECTED = "(left out: it rests on a statement the user has since corrected)"


def without_corrected(turns: Sequence[Turn], memory: Any) -> list[Turn]:
    """The turns with what rests on a superseded record left out: the user's earlier statement and the answers
    that used it. The record itself is never admitted again, so its value must not come back through history."""
    ids = [i for t in turns for i in t.memory_ids]
    if memory is None or not ids:
        return list(turns)
    statuses = memory.statuses(ids)
    stale = {i for i in ids if statuses.get(i, "gone") != "active"}
    out = []
    for turn in turns:
        if not stale & set(turn.memory_ids):
            out.append(turn)
        elif turn.status == "noted":
            out.append(turn.model_copy(update={"asked": CORRECTED, "answer": CORRECTED}))
        else:
            out.append(turn.model_copy(update={"answer": CORRECTED}))
    return out


def summarise_turns(turns: Sequence[Turn], *, per_turn: int = SUMMARY_SENTENCES_PER_TURN,
                    max_chars: int = SUMMARY_MAX_CHARS) -> str:
    """One line per turn. What the user stated (a standing instruction, a corrected figure) is kept whole and
    kept first when the summary is cut: it still holds at turn twenty."""
    stated, lines = [], []
    for turn in turns:
        if turn.status == "noted":
            if turn.asked != CORRECTED:
                stated.append(f"User stated: {turn.asked}")
            continue
        sentences = [s for s in split_at_stops(_CITATION.sub("", turn.answer)) if s.strip()]
        keep = [s for s in sentences if _FIGURE.search(s) or re.search(r"\b[A-Z][a-z]+", s[1:])][:per_turn]
        lines.append(f"Q: {turn.question} A: {' '.join(keep) or turn.status}")
    head = "\n".join(stated)
    body = "\n".join(lines)
    room = max_chars - len(head) - (1 if head and body else 0)
    if len(body) > room:  # keep the newest part: later turns matter more to a follow-up
        body = ("…" + body[-(room - 1):]) if room > 1 else ""
    return "\n".join(part for part in (head, body) if part)


# --- enrichment ---------------------------------------------------------------------------------------------


def enrich(state: SupervisorState, *, known_companies: Callable[[], Sequence[str]],
           aliases: Callable[[], Mapping[str, str]] = dict) -> dict[str, Any]:
    """Companies and years the question names; for a follow-up that names none, those of the latest turn
    that did, written into a standalone question: 'What about their dividends? [Northwind Logistics, FY2024]'.
    A follow-up that asks the previous question again for another period or company ('And in FY2023?', 'What
    about Helio Renewables?', 'And the year before?') is that question written out for it, and one that asks of
    the figures the last two turns gave for two years or two companies ('How did it change?', 'Which was
    higher?') the change or difference written out; one that asks the previous question of another measure ('What
    about its operating margin?') or of its measure by a pronoun ('Did it increase compared to 2021?') is that
    question written out too (app/text/followups).
    A follow-up that names no measure either ('and in 2007?') also carries the previous question:
    'And what was it in 2007? [following: What was net cash from operations in 2009?]'."""
    question = state["question"]
    companies = companies_named(question, list(known_companies()), aliases())
    years = years_in(question, KNOWN_YEARS)
    context_companies, context_years = context_of(state.get("recent_turns") or [])
    update: dict[str, Any] = {"companies": companies, "fiscal_years": years,
                              "context_entities": context_companies, "context_years": context_years}
    turns = [Turn.model_validate(t) for t in state.get("recent_turns") or []]
    previous = _previous_question(turns)
    if turns:
        # the previous question again for another period or company, or a question of the figures it gave: both
        # are written out whole, whether or not they open as follow-ups do ('Which was higher?')
        names = lambda text: company_spans(text, list(known_companies()), aliases())  # noqa: E731
        answered = [(without_thread_tags(t.question), t.fiscal_years) for t in turns if t.status == "answered"]
        standalone = (standalone_follow_up(question, previous, names)
                      or over_turns_follow_up(question, answered, names)
                      or change_share_follow_up(question, [q for q, _ in answered])
                      or measure_follow_up(question, previous, names))
        if standalone:
            named = companies_named(standalone, list(known_companies()), aliases())
            if not named and context_companies:
                # the conversation never named its company (it was asked for, or came from an earlier turn):
                # the thread's company goes with the written-out question, as a tag
                named = list(context_companies)
                standalone = f"{standalone} [{', '.join(named)}]"
            return {**update, "question": standalone, "fiscal_years": years_in(standalone, KNOWN_YEARS),
                    "companies": named}
    says_nothing_new = not content_terms(question)  # "what was, then, the change over the years?"
    if not says_nothing_new and turns and (written := with_previous_measure(question, previous, context_companies)):
        question = written
        update["question"] = written
    # a question that names no company, on a thread about one, is about it ('Which segment had the highest order
    # intake?' after Rheinfeld's order intake), unless it asks about the set of companies or their peers
    about_the_thread = bool(turns and context_companies and not companies
                            and not COMPANY_SET.search(question) and not PEERS.search(question)
                            and not DEFINITION.search(question) and not _IN_GENERAL.search(question))
    if not (is_follow_up(question) or (says_nothing_new and turns) or about_the_thread):
        return update
    parts: list[str] = []
    if not companies and context_companies:
        companies = list(context_companies)
        years = years or list(context_years)
        parts.append(", ".join([*companies, *(f"FY{y}" for y in years)]))
    # "And what was it in 2007?" names no measure at all: it is about the previous question's measure.
    if previous and says_nothing_new:
        parts.append(f"following: {previous}")
    update.update(companies=companies, fiscal_years=years)
    if parts:
        update["question"] = f"{question} [{'; '.join(parts)}]"
    return update


_VERBS_OF_A_MEASURE = frozenset({"expect", "spend", "spent", "invest", "plan", "forecast", "guid", "anticip",
                                 "project", "budget", "target"})
"""Stems of verbs that ask for a figure of the future without naming its measure ('what does it expect to spend
in FY2025'): in a follow-up, the previous question's measure is meant."""
_ASKS_WHAT = re.compile(r"(?i)^\s*(?:(?:and|so|ok|okay|now|also|then)\b\s*,?\s*)?(?P<ask>what|how\s+much)\b"
                        r"(?P<rest>.*)$")
"""A follow-up's asking words ('And what', 'how much') and the rest of it."""


def with_previous_measure(question: str, previous: str, companies: Sequence[str]) -> str | None:
    """A follow-up that asks for a figure only by a verb of the future ('And what does it expect to spend in
    FY2025?' after 'How much capital expenditure did Copperleaf incur in FY2024?') asks for the previous
    question's measure: 'What capital expenditure does it expect to spend in FY2025?'. None for any other."""
    from app.facts.query import read_query

    terms = content_terms(question)
    asked = _ASKS_WHAT.match(question)
    if not previous or not terms or not terms <= _VERBS_OF_A_MEASURE or asked is None:
        return None
    measure = read_query(previous, list(companies), []).measure.phrase
    if not measure or len(measure.split()) > 5:
        return None
    ask = "What" if asked.group("ask").lower() == "what" else "How much"
    return f"{ask} {measure}{asked.group('rest')}"

_IN_GENERAL = re.compile(r"(?i)\b(?:firms|companies|businesses|industry|industries|sector|sectors|typically|usually|"
                         r"in general|generally)\b")
"""Words of a question about companies in general ('a good operating margin for logistics firms'), not the thread's."""

_ARITHMETIC_STEMS = {"chang", "differ", "increas", "decreas", "growth", "grow", "ratio", "percentag", "percent",
                     "total", "sum", "averag", "rate", "portion", "share", "proport", "much",
                     # words that point back rather than say what: "during this time", "over that period"
                     "time", "period", "durat", "dure", "point", "valu", "amount", "figur", "number", "then", "so",
                     "this", "that", "same", "again", "also", "instead",
                     # function words the analyzer keeps (it indexes them for phrase-like matching)
                     "over", "under", "between", "dure", "from", "into", "through", "about", "with", "without",
                     "after", "befor", "there", "these", "those", "which", "when", "where", "whose", "been",
                     "were", "have", "has", "had", "does", "did", "done", "year", "years", "previous", "prior",
                     "last", "next", "both", "each", "other", "onli", "just", "still", "there", "here"}


def content_terms(question: str) -> set[str]:
    """The question's topic terms, less the words of arithmetic ('the change', 'the ratio'): empty when the
    question only points back at what was asked before."""
    from app.text.terms import topic_terms

    return {t for t in topic_terms(question, []) if t not in _ARITHMETIC_STEMS and not t.isdigit()}


def _previous_question(turns: Sequence[Any]) -> str:
    """The latest turn's standalone question, its own bracketed tags removed."""
    for turn in reversed([Turn.model_validate(t) for t in turns]):
        if turn.status in ("answered", "insufficient"):
            # A follow-up's own measure came from further back: carry that root question, not "and in 2012?".
            root = re.search(r"following: (.*)\]\s*$", turn.question)
            return root.group(1).strip() if root else without_thread_tags(turn.question).strip()
    return ""


def context_of(turns: Sequence[Any]) -> tuple[list[str], list[int]]:
    """Companies and years of the most recent turn that named a company."""
    for turn in reversed([Turn.model_validate(t) for t in turns]):
        if turn.companies:
            return list(turn.companies), list(turn.fiscal_years)
    return [], []


# --- cache --------------------------------------------------------------------------------------------------


def cache_lookup(state: SupervisorState, *, cache: Any, known_companies: Callable[[], Sequence[str]] = list,
                 source_hash: Callable[[str], str | None] = lambda _: None) -> dict[str, Any]:
    """A cached answer to this standalone question, or to one the cache holds as the same question (app/memory/
    semantic_cache.py: similar enough, and no difference of company, year, period, metric or negation), given
    while its cited sources are unchanged and its TTL has not passed; scoped to the user. None when the run
    asked for no cache (`--no-cache`). The candidates it weighed, and why each was refused, go to the trace."""
    if cache is None or state.get("use_cache") is False:
        return {"cached": None, "cache_considered": []}
    found = cache.lookup(state["question"], user=state.get("user") or "local",
                         known_companies=list(known_companies()), current_hash=source_hash)
    # What was weighed, without the other questions' words: a thread's checkpoints must not keep copies of
    # another thread's questions (`prov memory forget --thread` erases that thread's words).
    considered = [{"similarity": round(float(sim), 4), "reason": reason} for _, sim, reason in found.considered]
    hit = found.hit
    if hit is None:
        return {"cached": None, "cache_considered": considered}
    response = Response.model_validate({**hit.response, "cached": True, "cached_question": hit.question,
                                        "cached_at": hit.created_at.isoformat(timespec="seconds")})
    return {"cached": response, "cache_considered": considered}


def after_cache(state: SupervisorState) -> Literal["respond", "route"]:
    """A cache hit answers at once; a miss goes to the router."""
    if "cached" not in state:
        raise ValueError("after_cache runs after cache_lookup, which always writes 'cached'")
    return "respond" if state["cached"] is not None else "route"


# --- clarification and refusal ------------------------------------------------------------------------------


def clarify(state: SupervisorState) -> dict[str, Any]:
    """Ask the router's clarification question (a durable interrupt: the process may exit here), then merge
    the reply into the working question. Everything before `interrupt` is recomputed on resume, so it only reads."""
    decision = state["decision"]
    ask = (decision.clarification_question if decision else None) or "Which company, measure and period do you mean?"
    reply = interrupt({"question": ask, "asked": state.get("asked", ""), "working_question": state["question"]})
    reply = " ".join(str(reply or "").split())
    rounds = [*(state.get("clarifications") or []), {"question": ask, "reply": reply}]
    return {"question": merge_reply(state["question"], reply), "clarifications": rounds}


def merge_reply(question: str, reply: str) -> str:
    """'What was their revenue?' + 'Northwind, FY2024' -> 'What was their revenue (Northwind, FY2024)?'."""
    if not reply:
        return question
    body, mark = (question[:-1].rstrip(), "?") if question.endswith("?") else (question.rstrip(), "")
    return f"{body} ({reply}){mark}"


def refuse(state: SupervisorState) -> dict[str, Any]:
    """An out-of-scope question gets the declared refusal; no retrieval, no model."""
    return {"status": "refused", "draft": OUT_OF_SCOPE}


# --- remember and respond -----------------------------------------------------------------------------------


def remember(state: SupervisorState, *, cache: Any,
             source_hash: Callable[[str], str | None] = lambda _: None) -> dict[str, Any]:
    """Cache an answered turn under its standalone question, for its user, with the companies, fiscal years and
    metric it is about and the hash of every source it cites (a later change of one of them invalidates it).
    Refusals and insufficient answers are not cached: the corpus may grow. Writes no state."""
    check = state.get("citation_check")
    if cache is None or state.get("use_cache") is False or state.get("status") != "answered" or check is None:
        return {}
    response = build_response(state)
    cited = {c.source_id for c in response.citations}
    if any(sid.startswith("memory:") for sid in cited):
        return {}  # it rests on what the user said, which a later statement may change
    # The documents it rests on: a calculation's inputs are cited blocks of their own.
    sources = {sid: source_hash(sid) or "" for sid in sorted(cited - {"calculation"})}
    if not sources:
        return {}  # nothing to check it against later
    cache.put(state["question"], user=state.get("user") or "local", thread=state.get("thread") or None,
              response=response.model_dump(mode="json"), companies=list(state.get("companies") or []),
              fiscal_years=list(state.get("fiscal_years") or []), metric=asked_metric(state["question"]),
              sources=sources)
    return {}


def asked_metric(question: str) -> str:
    """The metric or line item a question asks for, for the cache's metadata ('' when none is named)."""
    from app.metrics import find_metrics, items_named

    names = [m.name for m in find_metrics(question)] or list(items_named(question))
    return ", ".join(names)


def respond(state: SupervisorState) -> dict[str, Any]:
    """The turn's response, and the turn appended to the thread's history."""
    response = build_response(state)
    used = [w.record_id for w in state.get("memory_writes") or [] if w.record_id]
    used += [m.id for m in state.get("memory") or [] if m.admitted and m.type in ("fact", "decision")]
    used += list((state.get("memory_answer") or {}).get("record_ids") or [])
    turn = Turn(asked=state.get("asked") or state["question"], question=state["question"], answer=response.answer,
                status=response.status, companies=list(state.get("companies") or []) or answered_about(state),
                fiscal_years=list(state.get("fiscal_years") or []), memory_ids=list(dict.fromkeys(used)))
    return {"response": response, "history": [turn]}


def answered_about(state: SupervisorState) -> list[str]:
    """The company an answer was about when its question named none: the one company of every report block it
    cites ('what was the weighted average exercise price per share in 2007?' answered from MRO's filing), so the
    thread's follow-ups ask of it. [] when the answer cites none, or blocks of several companies."""
    check = state.get("citation_check")
    if state.get("status") != "answered" or check is None:
        return []
    cited = [b for b in state.get("blocks") or [] if b.n in set(check.valid) and b.kind == "report"]
    names = {b.company for b in cited}
    return [names.pop()] if len(names) == 1 and None not in names else []


def build_response(state: SupervisorState) -> Response:
    cached = state.get("cached")
    if cached is not None:
        return Response.model_validate(cached).model_copy(update={"cached": True, "question": state["question"]})
    if state.get("status") == "noted" or state.get("memory_answer"):
        return Response(status=state.get("status") or "answered", answer=state.get("draft", ""),
                        question=state["question"], citations=memory_citations(state))
    status = state.get("status")
    if status is None:
        raise ValueError("respond needs a status: refuse, or validate_citations, must run first")
    check = state.get("citation_check")
    blocks = {b.n: b for b in state.get("blocks") or []}
    citations = [citation_for(blocks[n], state.get("draft", "")) for n in (check.valid if check else []) if n in blocks]
    return Response(status=status, answer=state.get("draft", ""), citations=citations, question=state["question"],
                    flagged=list(check.flagged) if check else [])


def memory_citations(state: SupervisorState) -> list[Citation]:
    """A statement-only turn cites the records it wrote; an answer from memory, the records it read."""
    cited = [(w.record_id, w.text) for w in state.get("memory_writes") or [] if w.record_id]
    cited += [(rid, "") for rid in (state.get("memory_answer") or {}).get("record_ids") or []]
    return [Citation(n=i, source_id=f"memory:{rid}", title="your statement", quote=said)
            for i, (rid, said) in enumerate(cited, start=1)]


def citation_for(block: Any, answer: str) -> Citation:
    """A citation of one block, quoting the block's sentence (or table row) that holds most of the answer's
    figures, then shares most words with it. A statement page is quoted by its row, label and values together
    ('Total revenues: 2024 4,459,440; 2023 4,047,550'), however the page broke the row across lines."""
    answer_words = set(re.findall(r"\w+", answer.lower()))
    answer_figures = set(_NUMBER.findall(answer))
    sentences = [s.strip() for s in split_at_stops(readable_statement(block.text), lines=True) if len(s.strip()) > 15]

    def score(sentence: str) -> tuple[int, int]:
        return (len(answer_figures & set(_NUMBER.findall(sentence))),
                len(answer_words & set(re.findall(r"\w+", sentence.lower()))))

    quote = max(sentences, key=score, default="")
    return Citation(n=block.n, source_id=block.source_id, title=block.title, page=block.page,
                    quote=quote[:300], chunk_id=block.chunk_id, published_at=block.published_at)
