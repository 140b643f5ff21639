"""The supervisor's answer steps: `generate` (synthesis) and `validate_citations` (fail closed).

generate: the synthesizer role of the model factory (app/models) writes the draft: the openai provider sends the
assembled prompt to the large client; the offline provider's composer (app/models/providers/offline/composer/)
writes the answer from what the prompt holds: the calculation results, the verified claims of the retrieval
subgraph and the most relevant sentence of each news item, newest first, each sentence ending with the number of
its block.

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

from app.models.roles import Synthesizer
from app.text.dates import MONTHS, read_dates, unsupported_dates
from app.text.measures import name_initials
from app.text.periods import is_period_word, years_named
from app.text.sentences import looks_like_instruction, split_answer
from app.text.questions import asking_sentences
from app.turns import Block, CitationCheck
from nodes.rewrite import keyword_query
from nodes.state import SupervisorState
from nodes.verify import spelled_quarters, unsupported_terms
from prompts.answer import INSUFFICIENT_EVIDENCE, NOT_MENTIONED
from prompts.fences import one_line, strip_fence_markers

_MARKER = re.compile(r"\s*\[(\d+)\]")


def generate(state: SupervisorState, *, synthesizer: Synthesizer) -> dict[str, Any]:
    """The draft answer, from the synthesizer the model factory chose (offline: the extractive composer)."""
    return {"draft": synthesizer.draft(state)}


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


def check_citations(draft: str, blocks: Sequence[Block], question: str = "",
                    years: Sequence[int] = ()) -> tuple[list[str], CitationCheck]:
    """The sentences that stand (markers of unknown blocks removed) and what was removed or flagged.

    A sentence that states a figure, a date or a name beyond the question's own words must cite an admitted
    block; a cited sentence must find each of its figures, names and dates in the blocks it cites (headers
    included), each figure for the period the sentence claims for it (`other_periods`: the year it names, or
    `years`, the question's, when it names none), and share a content word with them. Any other sentence is
    dropped and flagged with the reason."""
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
        if looks_like_instruction(plain):
            check.flagged.append(f"{sentence} (an order to its reader, quoted from a document: no fact)")
            continue
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
        support = "\n".join(f"{admitted[n].header}\n{_filing_half(admitted[n])}\n{admitted[n].text}" for n in good)
        support = f"{support}\n{spelled_quarters(support)}"  # 'Q1 2021' of a table headed '1Q21'
        names = [n for n in names if n not in abbreviated_names(plain, support)]
        missing = [*_figures_only(unsupported_terms(undated, support)), *absent_names(names, support),
                   *unsupported_dates(plain, support)]
        if missing:
            check.flagged.append(f"{sentence} (not in the cited blocks: {', '.join(dict.fromkeys(missing))})")
            continue
        if not shares_content(plain, support):
            check.flagged.append(f"{sentence} (shares no words with the blocks it cites)")
            continue
        if wrong := other_periods(plain, [admitted[n] for n in good], years, full_year=asks_full_year(question)):
            check.flagged.append(f"{sentence} (another period's figure: {', '.join(wrong)})")
            continue
        if wrong := other_segments(plain, [admitted[n] for n in good]):
            check.flagged.append(f"{sentence} (another segment's figure: {', '.join(wrong)})")
            continue
        kept.append(clean)
        check.valid.extend(n for n in good if n not in check.valid)
    check.valid.sort()
    return kept, check


def _filing_half(block: Block) -> str:
    """The half a half-year report covers, as an answer names it ('H1 FY2025' of WATTLEGROVE_2025H1_HY, whose
    pages say only 'half-year ended 31 December 2024'); '' for any other filing."""
    from app.text.identity import read_name

    name = read_name(block.title or block.source_id)
    if name.form not in INTERIM_FORMS or not name.fiscal_year or not name.fiscal_quarter:
        return ""
    return f"H{1 if name.fiscal_quarter <= 2 else 2} FY{name.fiscal_year}"


def asks_full_year(question: str) -> bool:
    """Whether a question asks about whole fiscal years: it names a year (or the full year) and no quarter, half or
    interim filing. One that names no period asks for the latest the filings give ('What is its headcount?': the
    10-Q's quarter-end count), which may be a quarter's."""
    from app.knowledge.pages import forms_wanted

    return (bool(question) and bool(years_named(question) or _WHOLE_YEAR.search(question))
            and not forms_wanted(question) & {"10-Q", "half-year", "earnings"})


_WHOLE_YEAR = re.compile(r"(?i)\b(?:full[- ]year|annual(?:ly)?|(?:fiscal|financial|calendar)\s+year|for\s+the\s+year|"
                         r"FY\s?\d{2,4})\b")


INTERIM_FORMS = frozenset({"half-year"})
"""Filings whose every figure is of part of a year. Not a 10-Q, whose prose tells of events dated by their own
day as often as of the quarter, nor an earnings release, whose fourth quarter gives the full year too: their
columns say which figure is which."""


def other_periods(sentence: str, cited: Sequence[Block], years: Sequence[int], *, full_year: bool = False
                  ) -> list[str]:
    """The figures of a sentence that its cited report blocks give only for another period than the sentence
    claims: the year it binds to the figure ('€717.5m in FY2023', '(FY2023: …)', 'a year earlier'), else the
    one year it names, else the question's latest year. A sentence that names no year is checked against the
    question's, so 'Revenue was £1,204.6m' citing the FY2023 report cannot answer for FY2024. A figure the
    blocks give for no period they say is left to the other checks. With `full_year` (the question asks about
    whole years), a figure the blocks give only for part of a year (a half-year column, or any sentence of a
    half-year report or a 10-Q) is removed too; otherwise a part-year figure is left to the other checks."""
    from app.facts.prose import dated_figures, figures_located
    from app.facts.query import dated_values
    from app.text.identity import read_name

    default = max(years) if years else None
    reports = [b for b in cited if b.kind == "report"]
    if not reports:
        return []
    occurrences = []
    for b in reports:
        interim = read_name(b.title or b.source_id).form in INTERIM_FORMS
        occurrences += [(v, y, part or interim) for v, y, part in dated_values(b.text, b.fiscal_year)]
    # a full-year question: where each figure stands at all, dated or not, and whether only interim filings say it
    anywhere = [(read_name(b.title or b.source_id).form in INTERIM_FORMS, {abs(f.value) for f in figures_located(b.text)})
                for b in reports] if full_year else []
    wrong = []
    for figure, year, _ in dated_figures(sentence, default):
        if year is None or figure.kind == "points":
            continue
        same = [(y, part) for v, y, part in occurrences if abs(abs(v) - abs(figure.value)) <= 1e-9 * max(1.0, abs(v))]
        holders = [interim for interim, values in anywhere if abs(figure.value) in values]
        if full_year and ((same and all(part for _, part in same)) or (not same and holders and all(holders))):
            wrong.append(f"{figure.text} is part of a year's, not the full year's")
        elif same and all(part for _, part in same) and re.search(
                rf"(?<![HQ][1-4]\s)(?<!half\sof\s)(?<!quarter\sof\s)\bFY\s?{year}\b", sentence):
            # a quarter's figure said to be a fiscal year's ('capital ratio was 13.1 in FY2021' from '1Q21')
            wrong.append(f"{figure.text} is part of a year's, not FY{year}'s")
        elif same and not any(part or y == year for y, part in same):
            wrong.append(f"{figure.text} is FY{sorted({y for y, _ in same})[-1]}'s, not FY{year}'s")
    return wrong


_SEGMENT_CLAIMED = re.compile(r"\b(?P<name>[A-Z][\w&/-]*(?:\s+[A-Z][\w&/-]*){0,3})\s+segment\b")


def other_segments(sentence: str, cited: Sequence[Block]) -> list[str]:
    """The figures of a sentence that claims a segment's ('Pellbury's Online segment revenue was …') which its
    cited blocks give only in another segment's column or row of a segment table, or in the whole company's
    (every place the figure stands in those blocks is such a cell, so nothing there supports the claim)."""
    from app.facts.prose import figures_located
    from app.facts.query import _names, is_whole
    from app.text.statements import read_statement

    claimed = list(dict.fromkeys(m.group("name") for m in _SEGMENT_CLAIMED.finditer(sentence)))
    reports = [b for b in cited if b.kind == "report"]
    if not claimed or not reports:
        return []
    cells: list[tuple[float, str]] = []
    anywhere: list[float] = []
    for block in reports:
        anywhere += [abs(f.value) for f in figures_located(block.text)]
        for row in read_statement(block.text).rows:
            if row.columns:
                cells += [(abs(v), c) for v, c in zip(row.values, row.columns) if v is not None]
    wrong = []
    stated = figures_located(sentence)
    # two segments compared ('King segment operating income was higher than Blizzard segment operating income:
    # $740m against $464m'): each figure is the segment named in its place
    paired = len(claimed) >= 2 and len(stated) == len(claimed)
    for k, figure in enumerate(stated):
        value = abs(figure.value)
        owners = [c for v, c in cells if v == value]
        segments = [claimed[k]] if paired else claimed
        if owners and len(owners) >= anywhere.count(value) and not any(
                _names(segment, c) for c in owners for segment in segments):
            whose = "the whole company's" if all(is_whole(c) for c in owners) else f"{owners[0]}'s"
            wrong.append(f"{figure.text} is {whose}, not {' or '.join(segments)}'s")
    return wrong


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


_EXPANDED = re.compile(r"(?P<name>(?:[A-Z][\w.&'’-]*[\s,]+(?:(?:and|of|&)\s+)?){1,5}[A-Z][\w.&'’-]*)\s+\((?P<short>[A-Z]{2,8})\)")


def abbreviated_names(sentence: str, support: str) -> set[str]:
    """The words of the names a sentence writes with their initials ('Frito-Lay North America (FLNA)') where the
    cited text gives the initials ('FLNA $ 23,291'): the row is the name's, as the report abbreviates it."""
    out: set[str] = set()
    for found in _EXPANDED.finditer(sentence):
        name, short = found.group("name"), found.group("short")
        # the longest tail of the capitalised run whose initials are the ones given
        words = name.split()
        for start in range(len(words)):
            tail = " ".join(words[start:])
            # (a two-word name too: the sentence pairs it with its initials itself, 'Commercial Services (CS)')
            paired = len(words) - start == 2 and "".join(w[:1].upper() for w in words[start:]) == short
            if (paired or name_initials(tail) == short) and re.search(rf"\b{short}\b", support):
                out |= {re.sub(r"['’]s$", "", w).strip(",.") for w in words[start:]}
                break
    return out


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


def not_mentioned_answer(state: SupervisorState) -> str:
    """The declared 'No' of a 'did X mention …' question when a text search of all of every named company's
    reports found no passage that mentions it (RetrievalResult.unmentioned); '' otherwise."""
    from app.text.question_kinds import mentioned_phrase

    result = state.get("retrieval_result")
    companies = list(state.get("companies") or [])
    topic = mentioned_phrase(state.get("question") or "")
    if result is None or not topic or not companies or any(c not in result.unmentioned for c in companies):
        return ""
    searched = " together with ".join(" or ".join(f"'{p}'" for p in group.split("/"))
                                      for group in result.unmentioned[companies[0]])
    names = " and ".join(companies)
    return NOT_MENTIONED.format(owner=f"{names}'" if names.endswith("s") else f"{names}'s", topic=topic,
                                searched=searched)


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
    return " ".join([INSUFFICIENT_EVIDENCE, *reasons, *([note] if (note := state.get("period_note")) else [])])


def _checked(draft: str, state: SupervisorState, question: str, years: Sequence[int]) -> tuple[list[str], Any]:
    """`check_citations` of the draft against the turn's blocks; a start-naming company's blocks, and the draft's
    quotes of them, read a year on, as its facts were (app/text/fiscal_naming.prov_dated): 'During fiscal 2022,
    the Company opened 47 new stores' is FY2023's."""
    from app.text.fiscal_naming import prov_dated, shift_fiscal_words

    blocks = list(state.get("blocks") or [])
    starting = list(state.get("start_named") or [])
    if not starting:
        return check_citations(draft, blocks, question, years)
    kept, check = check_citations(shift_fiscal_words(draft, 1), prov_dated(blocks, starting), question, years)
    return [shift_fiscal_words(s, -1) for s in kept], check


def _naming_said(sentences: Sequence[str], state: SupervisorState) -> str:
    """The note an answer that quotes a start-naming company's own 'fiscal 2022' beside Prov's FY2023 carries
    (app/text/fiscal_naming.naming_note), so that the reader sees they are one year; '' for any other answer."""
    from app.text.fiscal_naming import company_named_years, naming_note

    starting = list(state.get("start_named") or [])
    years = company_named_years(" ".join(sentences)) if starting else []
    return " ".join(naming_note(company, years) for company in starting) if years else ""


_MISSING_INPUT = re.compile(r"missing_input\): (?P<what>.+? needs .+?): not among the figures given")


def _missing_inputs(state: SupervisorState) -> list[str]:
    """What a metric would need that no admitted statement gives ('free cash flow needs cash from operations
    FY2023 (e.g. Net cash provided by operating activities), capex FY2023 …'), from the calculator's errors."""
    calc = state.get("calculation")
    found = [m.group("what") for e in (calc.errors if calc else []) if (m := _MISSING_INPUT.search(e))]
    return [f"To compute it: {what[:1].upper()}{what[1:]}; no statement held gives them." for what in dict.fromkeys(found)]


def _searched_terms(state: SupervisorState) -> str:
    question = asking_sentences(state.get("question") or "")  # what was searched: no 'return N/A' in it
    return one_line(keyword_query(question, list(state.get("companies") or []))) or one_line(question)


def validate_citations(state: SupervisorState) -> dict[str, Any]:
    draft = (state.get("draft") or "").strip()
    decision = state.get("decision")
    # An unflagged decision still gets a report search (nodes/routing.after_route): evidence is needed then too.
    needed = decision is None or not any(decision.flags().values()) or any(
        (decision.needs_retrieval, decision.needs_news, decision.needs_calculation))
    if not draft or draft == INSUFFICIENT_EVIDENCE:
        if declared := not_mentioned_answer(state):
            return {"draft": declared, "status": "answered", "citation_check": CitationCheck()}
        return {"draft": insufficient_answer(state), "status": "insufficient",
                "citation_check": CitationCheck(fail_closed=bool(draft))}
    question = state.get("question") or ""
    years = list(state.get("fiscal_years") or []) or years_named(question)
    kept, check = _checked(draft, state, question, years)
    if not kept or (needed and not check.valid):
        check.fail_closed = True
        if declared := not_mentioned_answer(state):
            return {"draft": declared, "status": "answered", "citation_check": check}
        return {"draft": insufficient_answer(state), "status": "insufficient", "citation_check": check}
    note = state.get("period_note") or _naming_said(kept, state)  # how its years are read: no citation
    return {"draft": " ".join([*kept, *([note] if note and note not in kept else [])]), "status": "answered",
            "citation_check": check}
