"""What kind of answer a question asks for, as an analyst reads it: a figure, a change, a yes/no on a change, a
judgement, the largest or smallest row, a list, a yes/no on a property, or an explanation.

`read_ask(question)` looks at the question proper (instructions around it dropped) and returns an `Ask`: its kind
and the few things the answer's shape depends on (the direction a yes/no on a change asks about, or the two
words of an either/or; the extreme asked for and whether it is of a change; the judgement's topic). The
offline composer writes its answer in that shape; nothing here reads evidence. Pure and deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Literal

from app.text.questions import asks_for_figure
from app.text.sentences import split_at_stops

Kind = Literal["figure", "change", "yes_no_change", "judgement", "extreme", "list", "yes_no", "explain"]


@dataclass(frozen=True)
class Ask:
    kind: Kind
    direction: int = 0
    """A yes/no on a change: +1 asks whether it rose (increased, improved, accelerated), -1 whether it fell."""
    either: tuple[str, str] | None = None
    """'improved or declined', 'increase or decrease': the two outcomes the answer picks from."""
    extreme: int = 0
    """+1 the highest (largest, most, best, fastest), -1 the lowest (smallest, least, worst, weakest)."""
    of_change: bool = False
    """The extreme of a change between periods ('the biggest fall', 'the fastest growth', 'worst performance')."""
    topic: str = ""
    """A judgement's topic as asked ('capital-intensive', 'conservatively financed', 'improving margins')."""


_AUXILIARY = re.compile(r"(?i)^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b")
_LEAD_IN = re.compile(r"(?i)^(?:(?:according to|based on|as of|as at|in|from|for|if|excluding|assuming|when|"
                      r"looking at|judging by|using|by (?:drawing|primarily|relying|looking|using)|relying on)\b"
                      r"[^,?]{0,120},\s*)+")
_EXPLAIN = re.compile(r"(?i)^(?:why\b|what\s+(?:drove|drives|driven|caused|causes|explains?|led to|were\s+the\s+"
                      r"(?:main\s+|key\s+|primary\s+)?(?:reasons?|drivers?|causes?))\b|how\s+(?:do|does|did)\s+"
                      r"(?:you|they|management)\s+explain\b)|\bwhat\s+drove\b|\bdrivers?\s+of\b|\breasons?\s+for\b")
_JUDGEMENT = re.compile(
    r"(?i)\b(capital[- ]intensive|capital[- ]light|conservatively\s+financed|(?:highly|over|heavily)[- ]?"
    r"(?:leveraged|indebted)|leveraged|high[- ]growth|fast[- ]growing|healthy|sound|strong\s+(?:balance\s+sheet|"
    r"liquidity)|(?:improving|deteriorating|declining|consistent|stable|sustainable)\s+(?:\w+\s+){0,2}"
    r"(?:margins?|profile|profitability)|margins?\s+(?:improving|consistent|stable|deteriorating)|"
    r"(?:financially\s+)?(?:solvent|stable)|profitable|liquid)\b")
_UP = r"increas\w*|improv\w*|ris(?:e|en|ing)|rose|grow\w*|grew|go(?:ne)?\s+up|went\s+up|higher|accelerat\w*|widen\w*|expand\w*"
_DOWN = r"decreas\w*|declin\w*|worsen\w*|weaken\w*|fall(?:en)?|fell|drop\w*|go(?:ne)?\s+down|went\s+down|lower|decelerat\w*|narrow\w*|shr[iu]nk\w*|contract\w*|deteriorat\w*|reduc\w*"
_CHANGE_WORD = re.compile(rf"(?i)\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\b")
_EITHER = re.compile(rf"(?i)\b(?P<a>{_UP}|{_DOWN})\s+or\s+(?P<b>{_UP}|{_DOWN})\b")
_SUPERLATIVE = re.compile(
    r"(?i)\b(?P<high>highest|largest|biggest|most|best|strongest|fastest|greatest|top|leading)\b|"
    r"\b(?P<low>lowest|smallest|least|worst|weakest|slowest|bottom)\b|\b(?P<drag>dragged\s+down|held\s+back)\b")
_OF_CHANGE = re.compile(
    rf"(?i)\b(?:fastest|slowest|biggest|largest|sharpest|steepest|greatest)\s+(?:{_UP}|{_DOWN}|change|drop|fall|"
    r"decline|growth|increase|rise|swing)\b|\b(?:best|worst|weakest|strongest)\s+(?:\w+\s+)?(?:performance|"
    r"development|growth|performer)\b|\bdragged\s+down\b|\bheld\s+back\b|\b(?:most|least)\s+(?:growth|decline)")
_CHANGE = re.compile(
    r"(?i)\bhow\s+(?:did|has|have|does|do|had|is|was)\b.{0,120}?\b(?:change[ds]?|compare[ds]?|differ(?:ed|s)?|"
    r"evolve[ds]?|develop(?:ed|s)?|mov(?:e|ed)|trend(?:ed)?|shift(?:ed)?)\b|\bchange[ds]?\b.{0,60}\b(?:between|from)\b|"
    r"\bby\s+how\s+(?:much|many(?:\s+\w+){0,3})\b|\bhow\s+much\s+(?:has|did|have|had)\b.{0,80}\b(?:change|increase|"
    r"decrease|rise|fall|grow|declin)\w*|\bcompared?\s+(?:with|to)\b|\bdifference\b.{0,60}\bbetween\b|\bversus\b|"
    r"\bvs\.?\s|\bexceed\w*\b|\b(?:higher|lower|more|less)\s+than\b")
_NAMES_ASKED = re.compile(
    r"(?i)^(?:which|what|who)\s+(?:(?!(?:was|were|is|are|did|does|do|has|have|had)\b)[\w-]+\s+)?(?:company|companies|business(?:es)?|firm|entity|brand|subsidiar(?:y|ies)|"
    r"person|people|executive|officer|director|auditor|bank|lender|customer|supplier|country|countries|city|"
    r"acquisition|acquisitions|target|partner|segment)\b(?!\s+(?:had|has|have|was|were|is|are)\s+the\s+"
    r"(?:highest|lowest|largest|smallest|biggest|most|least))|^who\b")
_LIST = re.compile(
    r"(?i)^(?:what|which)\s+(?:are|were|is|was)?\s*(?:the\s+)?(?:main|major|principal|key|primary|reportable|"
    r"significant|material|three|two|four|five|different)\b|^(?:what|which)\s+(?:[\w&'’.-]+\s+){0,4}(?:segments|"
    r"geographies|regions|markets|industr(?:y|ies)|formats|risks|events|proceedings|acquisitions|customers|"
    r"products|brands|subsidiaries|securities|agenda|outcome|nature|purpose|businesses|contingencies)\b|"
    r"^(?:list|name|describe)\b")


_WHAT_FIGURE = re.compile(
    r"(?i)^what\s+(?:percent(?:age)?|share|proportion|portion|fraction|amount|number|level|value|price|rate)\s+of\b|"
    r"^what\s+(?:[\w&'’./-]+\s+){1,6}?(?:did|does|do|has|have|had|will|would|is|was)\s+(?:[\w&'’./-]+\s+){0,5}?"
    r"(?:report|record|post|make|generate|earn|declare|pay|forecast|expect|guide|give|impose|spend|invest|raise|"
    r"borrow|receive|achieve|deliver|book|incur|announce|target|bring)\w*\b|"
    r"^what\s+did\b.{0,80}\b(?:pay|cost|spend|raise|earn|receive|borrow)\b")


def asked_sentence(question: str) -> str:
    """The sentence that asks (the first ending in '?', else the first), lead-ins such as 'According to the
    annual report,' or 'As of FY2023Q1,' dropped."""
    sentences = [s.strip() for s in split_at_stops(question.strip()) if s.strip()]
    asked = next((s for s in sentences if s.endswith("?")), sentences[0] if sentences else "")
    tail = asked.rsplit(":", 1)[-1].strip()
    if tail != asked and re.match(r"(?i)(?:what|which|how|who|when|where|why|is|are|was|were|did|does|do|has|have)\b",
                                  tail):
        asked = tail  # 'Answer using the balance sheet: what is …?'
    return _LEAD_IN.sub("", asked)


def read_ask(question: str) -> Ask:
    """The kind of answer the question asks for (module docstring)."""
    core = asked_sentence(question)
    if _EXPLAIN.search(core):
        return Ask("explain")
    if _AUXILIARY.match(core):
        if judged := _JUDGEMENT.search(core):
            return Ask("judgement", topic=judged.group(1).lower())
        if either := _EITHER.search(core):
            return Ask("yes_no_change", either=(either.group("a").lower(), either.group("b").lower()))
        if change := _CHANGE_WORD.search(core):
            return Ask("yes_no_change", direction=1 if change.group("up") else -1)
        return Ask("yes_no")
    superlative = _SUPERLATIVE.search(core)
    if superlative and re.search(r"(?i)\b(?:which|what|who|where)\b", core[:80]):
        high = bool(superlative.group("high"))
        return Ask("extreme", extreme=1 if high else -1, of_change=bool(_OF_CHANGE.search(core)))
    if _NAMES_ASKED.search(core):
        return Ask("list")  # 'Which company did it acquire, and for how much?': a name first
    if _CHANGE.search(core):
        return Ask("change")
    if _WHAT_FIGURE.search(core):
        return Ask("figure")
    if asks_for_figure(question) and not _LIST.search(core):
        return Ask("figure")
    if _LIST.search(core):
        return Ask("list")
    if re.match(r"(?i)(?:how\s+(?:much|many)|what\s+(?:was|is|were|are|will)\b)", core):
        return Ask("figure")
    return Ask("list")


# --- the measure a question asks about -------------------------------------------------------------------------

_PERIOD_PHRASES = re.compile(
    r"(?i)\b(?:within|at|as\s+(?:of|at)|for|during|in|over|by|of)?\s*(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?"
    r"(?:last|latest|most\s+recent|current|previous|prior|following|next|reporting|financial|fiscal|full|half|"
    r"first|second|third|fourth)?\s*(?:financial\s+|fiscal\s+)?(?:year|period|half[- ]year|half|quarter|"
    r"(?:\d{1,2}|fifty[- ]two|fifty[- ]three)\s+weeks|(?:six|three|nine|twelve)\s+months)\b(?:\s+(?:ended|ending|"
    r"to|end))?|\b(?:FY\s?\d{1,2}/)?(?:FY|fiscal|financial\s+year)\s?'?(?:19|20)?\d{2}\b|\b[HQ][1-4]\b|"
    r"\bfiscal\s+years?\b|\byear[- ]end\b|\bperiod[- ]end\b|\bor\b(?=\s+at\s+the\s+end)|"
    r"\bFY\s?\d{1,2}/(?:(?:19|20)?\d{2})?(?!\w)")  # 'FY3/2025': the year ending in March 2025
_PLAIN_VERBS = frozenset({"have", "has", "had", "hold", "own", "count", "report", "record", "disclose", "list", "say"})
"""Verbs of a 'how many' question that say nothing of what was counted."""
_JOINING = frozenset({"of", "from", "for", "per", "to", "on", "and", "/"})
"""Words that join two words of a measure ('cost of sales', 'cash flow from operations', 'debt to equity')."""
_SCAFFOLD = frozenset("""what which how much many was were is are did does do has have had will would
    could can should the a an of in at for to by on from with its their his her our your according annual report
    reports report's reported statement statements filing filings based using give answer please
    round rounded decimal decimals places place two one three nearest usd us dollars dollar yen euros pounds
    million millions billion billions thousand thousands units unit amount figure value level generate
    generated make made bring brought earn earned record recorded post posted book booked achieve achieved
    deliver record end ending ended close closing last latest within period year years fiscal financial data
    shown mentioned disclosed say says said state stated show or and during hold roughly fy as it that this
    if quantity directly outlined explicitly""".split())
_STATEMENT_NAMES = re.compile(
    r"(?i)\b(?:(?:consolidated\s+)?(?:income|cash\s+flows?|balance\s+sheets?|profit\s+(?:and|or)\s+loss|"
    r"comprehensive\s+income)\s+statements?|(?:consolidated\s+)?statements?\s+of\s+(?:consolidated\s+)?"
    r"(?:operations|income|earnings|cash\s+flows?|financial\s+position|comprehensive\s+income|profit\s+or\s+loss)|"
    r"balance\s+sheets?)\b")
_SEGMENT_WORD = re.compile(r"(?i)^(?:segment|business|division|operations|unit|arm|region)s?\b")
_NOT_SEGMENT = frozenset("""the a an in of at for did does do was is were are its their our what which how much many
    and or by to from with each any all""".split())
_ASK_WORDS = re.compile(rf"(?i)\b(?:{_UP}|{_DOWN}|change[ds]?|compare[ds]?|comparison|differ\w*|between|versus|vs|"
                        r"expected\s+to|improved\s+or\s+declined|go\s+up|go\s+down)\b|\bFY\b")


def _segment_named(text: str) -> tuple[str | None, str]:
    """The segment a question names ('Pellbury's Online segment', 'the Machine Tools business', 'its
    International franchise segment') and the text without it: up to three words before 'segment',
    'business' or 'division', the first capitalised, none a function word."""
    words = list(re.finditer(r"[\w&.'’-]+", text))
    for i, word in enumerate(words):
        if not _SEGMENT_WORD.match(word.group(0)) or i == 0:
            continue
        name: list[re.Match[str]] = []
        for previous in reversed(words[max(0, i - 3):i]):
            bare = re.sub(r"['’]s?$", "", previous.group(0))
            if bare.lower() in _NOT_SEGMENT or not bare:
                break
            name.insert(0, previous)
        while name and not name[0].group(0)[0].isupper():
            name.pop(0)
        if name:
            segment = " ".join(re.sub(r"['’]s?$", "", m.group(0)) for m in name)
            return segment, text[:name[0].start()] + " " + text[word.end():]
    return None, text


@dataclass(frozen=True)
class MeasureAsked:
    """The measure as the question words it ('underlying EBITDA', 'order intake'), its analyzed stems, the
    segment it names (or None for the whole company) and the count noun of a 'how many' question."""

    phrase: str
    stems: frozenset[str]
    segment: str | None = None
    count_noun: str = ""


def measure_asked(question: str, companies: Sequence[str] = ()) -> MeasureAsked:
    """The measure the question asks about (see MeasureAsked): the asked sentence without its lead-in, company
    names, dates and periods, segment and question words."""
    from app.knowledge.analyzer import analyze
    from app.text.dates import read_dates

    text = asked_sentence(question)
    text = re.sub(r"\([^)]*\)", " ", text)  # asides: '(in units of percents)', '(TSE 6597)'
    names = {n for company in companies for n in (company, *company.split()[:1]) if len(n) >= 2}
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?i)\b{re.escape(name)}(?:['’]s?)?(?=\W|$)", " ", text)
    text = re.sub(r"\b[A-Z][A-Za-z]{1,5}['’]s\b", " ", text)  # a ticker or short name as owner: "WGM's", "JnJ's"
    segment, text = _segment_named(text)
    text = _STATEMENT_NAMES.sub(" ", text)
    text = read_dates(text)[2]
    text = _PERIOD_PHRASES.sub(" ", text)
    text = _ASK_WORDS.sub(" ", text)
    count = re.search(r"(?i)\bhow\s+many\s+(?P<noun>(?:[\w-]+\s+){0,3}?[\w-]+?)(?=\s+(?:did|does|do|has|have|had|"
                      r"is|are|was|were|will|would)\b)", text)
    # what was done to them counts too: 'how many machine tools did it deliver' is not how many it ordered
    verb = re.match(r"\s+(?:did|does|do|will|would)\s+(?:(?:the|its|their|it|they)\s+)?(?P<verb>[a-z]{3,})\b",
                    text[count.end():]) if count else None
    tokens = re.findall(r"[A-Za-z][\w&'-]*|/", text)
    content = [t != "/" and t.lower().strip("'") not in _SCAFFOLD for t in tokens]
    # a joining word between two words of the measure stays: 'cash flow from operations', 'cost of sales'
    words = [t for i, t in enumerate(tokens) if content[i] or (
        t.lower() in _JOINING and 0 < i < len(tokens) - 1 and content[i - 1] and content[i + 1])]
    phrase = " ".join(words)
    done = verb.group("verb") if verb and verb.group("verb") not in _PLAIN_VERBS else ""
    return MeasureAsked(phrase=phrase, stems=frozenset(analyze(f"{phrase} {done}")), segment=segment,
                        count_noun=count.group("noun") if count else "")
