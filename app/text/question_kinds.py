"""What kind of answer a question asks for, as an analyst reads it: a figure, a change, a yes/no on a change, a
judgement, the largest or smallest row, a list, a yes/no on a property, or an explanation.

`read_ask(question)` looks at the question proper (instructions around it dropped) and returns an `Ask`: its kind
and the few things the answer's shape depends on (the direction a yes/no on a change asks about, or the two
words of an either/or; the extreme asked for and whether it is of a change; the judgement's topic). The
offline composer writes its answer in that shape; nothing here reads evidence. Pure and deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from app.text.measures import (DOWN_WORDS, LOST_SALES, PART_PERFORMED, PART_PROFITABLE, THRESHOLD, UP_WORDS,
                               MeasureAsked, asked_sentence, first_part, is_measure_word, measure_asked, second_part,
                               without_ranking_lead, without_source)
from app.text.questions import asks_for_figure

__all__ = ["Ask", "Kind", "MeasureAsked", "asked_sentence", "measure_asked", "read_ask"]
"""The measure is read with the kind (app/text/measures.py): callers import both from here."""

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
    loose: bool = False
    """No form of question was recognised ('What about their revenue?', 'Tell me about Northwind'): read as a
    list, the widest kind, but nothing is held to a list's form."""
    one_name: bool = False
    """A list question that asks for one name ('Who is its CEO?', 'Which company did it acquire?'): a sentence
    that names it answers, before any list under a heading that merely shares its words."""


_AUXILIARY = re.compile(r"(?i)^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b")
_EXPLAIN = re.compile(r"(?i)^(?:why\b|what\s+(?:drove|drives|driven|caused|causes|explains?|led to|were\s+the\s+"
                      r"(?:main\s+|key\s+|primary\s+)?(?:reasons?|drivers?|causes?))\b|how\s+(?:do|does|did)\s+"
                      r"(?:you|they|management)\s+explain\b)|\bwhat\s+drove\b|\bdrivers?\s+of\b|\breasons?\s+for\b|"
                      # 'What does Amcor say drove the decrease in its income tax expense?'
                      r"^what\s+(?:does|did|do)\s+(?:[\w&'’.-]+\s+){1,4}?(?:say|cite)\s+(?:drove|drives|caused|"
                      r"causes|led\s+to|explains?)\b")
_JUDGEMENT = re.compile(
    r"(?i)\b(capital[- ]intensive|capital[- ]light|conservatively\s+financed|too\s+much\s+debt|"
    r"(?:debt|debt\s+load|borrowings)\s+(?:is\s+|are\s+)?too\s+(?:high|heavy|large|big)|(?:highly|over|heavily)[- ]?"
    r"(?:leveraged|indebted)|leveraged|high[- ]growth|fast[- ]growing|healthy|sound|strong\s+(?:balance\s+sheet|"
    r"liquidity)|balance\s+sheet\s+(?:is\s+|was\s+)?(?:\w+\s+)?(?:strong|solid|robust)|"
    r"(?:improving|deteriorating|declining|consistent|stable|sustainable)\s+(?:\w+\s+){0,2}"
    r"(?:margins?|profile|profitability)|margins?\s+(?:improving|consistent|stable|deteriorating)|"
    r"(?:financially\s+)?(?:solvent|stable)|profitable|liquid|positive\s+(?:net\s+)?working\s+capital|"
    r"de-?leverag(?:e|es|ed|ing)|backed\s+(?:up\s+)?by\s+(?:free\s+)?cash|regulatory\s+capital|"
    r"(?:pay(?:s|ing)?|paid)\s+down\s+(?:its\s+|the\s+|their\s+)?(?:[\w-]+\s+){0,2}?(?:debt|borrowings)|"
    r"capital\s+(?:requirements?|minimums?)|well[- ]capitali[sz]ed|"
    # 'is its short-term liquidity comfortable?', 'adequate liquidity'
    r"liquidity\s+(?:position\s+)?(?:is\s+|was\s+)?(?:comfortable|adequate|ample|sufficient|solid|robust|tight|"
    r"strained|weak)|(?:comfortable|adequate|ample|sufficient|solid|robust|tight|strained|weak)\s+liquidity)\b")
_CHANGE_WORD = re.compile(rf"(?i)\b(?:(?P<up>{UP_WORDS})|(?P<down>{DOWN_WORDS}))\b")
_HOW_JUDGED = re.compile(r"(?i)^(?:judg(?:e|ing)\s+by\s+[^?,]{3,80},\s*)?how\s+(?P<adj>solid|strong|sound|healthy|robust|"
                         r"comfortable|adequate|good|well|safe|secure|weak|stretched)\s+(?:is|was|were|are|does|did|"
                         r"has|have|had)\b")
"""'Judging by the liquidity coverage ratio, how solid was its liquidity …?', 'How well was its net income backed by
cash?': a judgement asked as a question of degree; a judgement only when a convention decides it (see read_ask)."""
_REVISED = re.compile(r"(?i)\b(?:(?P<up>rais(?:e|ed|es|ing)|lift(?:ed|s)?|boost(?:ed|s)?|hik(?:e|ed|es)|upgrad\w*)|"
                      r"(?P<down>cut(?:s|ting)?|slash\w*|trim(?:s|med)?|downgrad\w*))\b"
                      r"(?=[^?]{0,80}\b(?:guidance|outlook|forecasts?|targets?|dividends?)\b)")
"""A forecast or a payout revised ('Did PepsiCo cut its full-year organic revenue growth outlook'): the verb says
the direction asked, not 'growth' in the measure's name."""
_EITHER = re.compile(rf"(?i)\b(?P<a>{UP_WORDS}|{DOWN_WORDS})\s+or\s+(?P<b>{UP_WORDS}|{DOWN_WORDS})\b")
_SUPERLATIVE = re.compile(
    r"(?i)\b(?P<high>highest|largest|biggest|most|best|strongest|fastest|greatest|top|leading)\b|"
    r"\b(?P<low>lowest|smallest|least|fewest|worst|weakest|slowest|bottom)\b|\b(?P<drag>dragged\s+down|held\s+back)\b")
_OF_CHANGE = re.compile(
    rf"(?i)\b(?:fastest|slowest|biggest|largest|sharpest|steepest|greatest|highest|lowest|strongest|weakest|best|"
    rf"worst)\s+(?:[\w-]+\s+){{0,2}}?(?:{UP_WORDS}|{DOWN_WORDS}|change|drop|fall|"
    r"decline|growth|increase|rise|swing)\b|\b(?:best|worst|weakest|strongest)\s+(?:\w+\s+)?(?:performance|"
    r"development|growth|performer)\b|\bdragged\s+down\b|\bheld\s+back\b|\b(?:most|least)\s+(?:growth|decline)|"
    r"\b(?:grew|grow|grown|growing|rose|risen|increased|declined|decreased|fell|fallen|dropped|shrank)\b"
    r"[^?]{0,60}?\b(?:fastest|slowest|most|least)\b")
_CHANGE = re.compile(
    r"(?i)\bhow\s+(?:did|has|have|does|do|had|is|was)\b.{0,120}?\b(?:change[ds]?|compare[ds]?|differ(?:ed|s)?|"
    r"stack(?:ed|s)?\s+up|measure[ds]?\s+up|fare[ds]?\s+(?:against|with)|"
    r"evolve[ds]?|develop(?:ed|s)?|mov(?:e|ed)|trend(?:ed)?|shift(?:ed)?)\b|\bchange[ds]?\b.{0,60}\b(?:between|from)\b|"
    r"\bby\s+how\s+(?:much|many(?:\s+\w+){0,3})\b|\bhow\s+much\s+(?:more|less|higher|lower|heavier|lighter|bigger|smaller|larger)\b|"
    r"^what\s+(?:was|were|is)\s+the\s+(?:[\w-]+\s+)?(?:decline|increase|decrease|change|fall|rise|drop|"
    r"improvement|deterioration)\s+(?:in|of)\b|\bhow\s+much\s+(?:has|did|have|had)\b.{0,80}\b(?:change|increase|"
    r"decrease|rise|fall|grow|declin|drop|jump|climb|mov|shift|shr[iu]nk|contract|slip|slid|(?:go|gone|went|come|came)"
    r"\s+(?:up|down))\w*|"
    r"\bcompared?\s+(?:with|to)\b|\bdifference\b.{0,60}\bbetween\b|\bversus\b|"
    r"\bvs\.?\s|\bexceed\w*\b|\b(?:higher|lower|heavier|lighter|more|less)\s+than\b|\btrend\b.{0,60}\b(?:between|from|over)\b|"
    # 'What happened to its total customer deposits between year-end 2021 and year-end 2022?'
    r"^what\s+(?:happened|has\s+happened)\s+(?:to|with)\b.{0,120}\b(?:between|from|since|over)\b|"
    # 'How fast did its sales fall in Q2 2023?', 'How quickly is Remicade eroding?': the change and its rate
    r"\bhow\s+(?:fast|quickly|rapidly|steeply|sharply)\s+(?:is|are|was|were|did|does|do|has|have|had)\b.{0,120}?"
    rf"\b(?:{UP_WORDS}|{DOWN_WORDS}|erod\w*|grow\w*|gr[eo]w)\b")
_NAMES_ASKED = re.compile(
    r"(?i)^(?:(?:to|from|with|by|for|into)\s+)?(?:which|what|who)\s+"
    r"(?:(?!(?:was|were|is|are|did|does|do|has|have|had)\b)[\w-]+\s+)?(?:company|companies|business(?:es)?|firm|entity|"
    r"brand|subsidiar(?:y|ies)|"
    r"person|people|executive|officer|director|auditor|bank|lender|customer|supplier|country|countries|city|"
    r"acquisition|acquisitions|target|partner|segment)\b(?!\s+(?:had|has|have|was|were|is|are)\s+the\s+"
    r"(?:highest|lowest|largest|smallest|biggest|most|least))|^(?:(?:to|from|with|by|for)\s+)?(?:who|whom)\b")
_LIST = re.compile(
    r"(?i)^(?:what|which)\s+(?:are|were|is|was)?\s*(?:the\s+)?(?:main|major|principal|key|primary|reportable|"
    r"significant|material|three|two|four|five|different)\b|"
    r"^(?:what|which)\s+(?:[\w&'’.-]+\s+){0,4}(?<!\bto\s)(?:segments|"
    r"geographies|regions|markets|industr(?:y|ies)|formats|risks|events|proceedings|acquisitions|customers|"
    r"products|brands|subsidiaries|securities|agenda|outcome|nature|purpose|businesses|contingencies)\b|"
    r"^(?:list|name|describe)\b")


_DEED_ASKED = re.compile(
    r"(?i)^what\s+(?:did|does|has|have|will|is|was)\s+(?:[\w&'’.-]+\s+){1,4}?"
    r"(?<!\bthe\s)(?<!\ba\s)(?<!\ban\s)(?<!\bits\s)(?<!\btheir\s)(?<!\bof\s)(?:acquire|buy|purchase|sell|divest|"
    r"recall|launch|announce|sign|open|close|win|lose|dispose\s+of|spin\s+off)\b")
"""What a company did (bought, sold, recalled): a thing named first, its figures after. Not the noun after an
article ('What was Adobe's headcount at the close of its fiscal 2015?': a figure)."""
_PLAN_ASKED = re.compile(r"(?i)^what\s+(?:is|are|was|were)\s+(?:[\w&'’.-]+\s+){0,4}?(?:guidance|outlook|targets?|"
                         r"forecasts?|priorities|plans?)\s*\??$")
"""A plan asked for as a whole ('What is Helio's FY2025 guidance?'): no one measure, every target it sets."""
_PLAN_CHANGED = re.compile(r"(?i)\b(?:chang|revis|cut|lower|rais|lift|updat|upgrad|downgrad|withdr[ae]w|reaffirm|"
                           r"reiterat)\w*\s+(?:[\w&'’.-]+\s+){0,3}?(?:guidance|outlook|targets?|forecasts?)\b")
"""A plan's revision asked about ('How did Copperleaf change its FY2024 guidance?'): the sentences that state the
old and new targets, not one measure's change between two years."""
_WHAT_FIGURE = re.compile(
    r"(?i)^what\s+(?:percent(?:age)?|share|proportion|portion|fraction|amount|number|level|value|price|rate)\s+of\b|"
    r"^what\s+(?:[\w&'’./-]+,?\s+){1,9}?(?:did|does|do|has|have|had|will|would|is|was)\s+(?:[\w&'’./()-]+\s+){0,9}?"
    r"(?<!annual\s)(?<!its\s)(?<!the\s)(?<!quarterly\s)"  # (not the noun: 'disclose in its 2024 annual report')
    r"(?:report|record|post|make|generate|earn|declare|pay|forecast|expect|guide|give|impose|spend|invest|raise|"
    r"borrow|receive|achieve|deliver|book|incur|announce|target|bring|carr(?:y|ied|ies))\w*\b|"
    r"^what\s+did\b.{0,80}\b(?:pay|cost|spend|raise|earn|receive|borrow)\b|"
    # 'what annual base salary does her employment agreement provide': a sum of money named, not its plan
    r"^what\s+(?:[\w-]+\s+){0,3}?(?:salary|salaries|bonus(?:es)?|fees?|price|consideration|compensation|wages?)\b"
    r"(?!\s+(?:plans?|committee|arrangements?|polic(?:y|ies)|structure|programs?|philosophy|practices?)\b)")


_MEMBER_NOUN = re.compile(
    r"(?i)^(?:which|what)\s+of\s+(?:[\w&.'’-]+['’]s?\s+|the\s+|its\s+|their\s+)?(?:[a-z]+\s+(?=[a-z]+s\b))?"
    r"(?P<of>[a-z][\w-]*)|"
    r"^(?:which|what)\s+(?:(?:type|kind|sort|category|class|source|line)s?\s+of\s+)?(?P<which>[a-z][\w-]*)|"
    r"\b(?:the\s+)?(?:highest|largest|biggest|greatest|lowest|smallest|most|least)\s+(?P<super>[a-z][\w-]*)")
_KIND_OF_MEMBER = re.compile(r"(?i)^(?:which|what)\s+of\s+[^?]{0,80}?\b(?P<kind>segments|units|divisions|regions|"
                             r"businesses|brands|markets|countries|geographies|areas|subsidiaries|categories|"
                             r"franchises)\b")
"""The kind of member ranked, named after the company and the part it belongs to ('Which of General Mills' North
America Retail operating units …'): the owner's words are no member."""
_NOT_MEMBER = frozenset("""was were is are did does do has had have of the a an one single its their company
    companies""".split())


_SHARE_ASKED = re.compile(r"(?i)\b(?:contribut\w*|share|proportion|percent(?:age)?\s+of\s+(?:the\s+)?total)\b")


def asks_share(question: str) -> bool:
    """Whether an extreme question asks for the member's part of the whole ('the highest EBITDAR contribution',
    'the largest share of revenue'): its share of the sum of the members is computed and stated."""
    return bool(_SHARE_ASKED.search(asked_sentence(question)))


def member_noun(question: str) -> str:
    """The kind of thing an extreme question ranks, as the question words it: 'Which activity brought in the most
    cash' → 'activity', 'What was the largest liability on the balance sheet' → 'liability'; '' when it names
    none ('Which of its segments …' ranks the breakdown readers find by their own names)."""
    core = asked_sentence(question)
    if kind := _KIND_OF_MEMBER.match(core):  # "Which of General Mills' North America Retail operating units …"
        return kind.group("kind").lower()
    for match in _MEMBER_NOUN.finditer(core):
        word = (match.group("of") or match.group("which") or match.group("super") or "").lower()
        if word and word not in _NOT_MEMBER:
            return word
    return ""


_MENTION = re.compile(
    r"(?i)^(?:did|does|do|has|have|is|was)\s+(?:.{1,80}?\s)?(?:mention|mentions|mentioned|disclose|discloses|disclosed|"
    r"discuss|discusses|discussed|refer\s+to|refers\s+to|referred\s+to|talk\s+about)(?!\s+of\b)\s+(?:any\s+|an?\s+|the\s+)?"
    r"(?P<topic>.+?)(?:\s+(?:in|within|during|throughout|as\s+part\s+of)\s+(?:the|its|their|this)\b.*|\s+in\s+"
    r"(?:FY)?\d{4}.*)?\s*\??$|^is\s+there\s+(?:any\s+)?mention\s+of\s+(?:any\s+|an?\s+|the\s+)?(?P<of>.+?)"
    r"(?:\s+in\s+.*)?\s*\??$")
_NOT_TOPIC = frozenset("any the a an of its their company companies business businesses".split())
_RESTATED = re.compile(r"(?i)^(?:did|does|do|has|have|had)\s+(?:.{1,80}?\s)?(?P<act>restated?|restates|restating)\b")
"""'Did X restate any prior-year figures …?': a report says so by the verb itself ('We have restated our prepaid
subscribers …', 'Comparatives have been restated'), so the question is asked as 'did X mention a restatement'."""


_BUSINESS = re.compile(r"(?i)\bwhat\s+(?:industry|industries|sector|sectors|line\s+of\s+business|kind\s+of\s+(?:business|"
                       r"company)|type\s+of\s+(?:business|company))\b|\bwhat\s+(?:is|was|are)\s+(?:[\w&'’.-]+\s+){0,4}?"
                       r"(?:main|primary|principal|core)\s+business(?:es)?\b|\bwhat\s+does\s+(?:[\w&'’.-]+\s+){1,4}?do\b")
"""'What industry does X primarily operate in?', 'What is X's main business?', 'What does X do?'."""


def asks_business(question: str) -> bool:
    """Whether a question asks what the company does: its industry, its main business."""
    return bool(_BUSINESS.search(question))


BUSINESS_WORDINGS = "is a global leader company that develops produces manufactures provides products services"
"""How a report describes its company's business ('Amcor is a global leader in developing and producing
responsible packaging'): the words a search adds for a question about the company's industry."""


CAUSE_WORDINGS = "increased decreased primarily due to driven by as a result of"
"""How a report gives the cause of a change ('… decreased year-on-year due to …', '… primarily driven by …'): the
words a search adds for a question asking what drove one."""

MARGIN_COMPLEMENTS = {"gross margin": ("cost of products sold", "cost of sales", "cost of goods sold",
                                       "cost of revenue")}
"""A margin as a report that explains it may write its complement ('Cost of products sold increased as a percent to
sales driven by: …' explains a gross margin's fall)."""


def margin_complements(question: str) -> tuple[str, ...]:
    """The names of the complement of the margin a question names (`MARGIN_COMPLEMENTS`), else ()."""
    return tuple(name for margin, names in MARGIN_COMPLEMENTS.items()
                 if re.search(rf"(?i)\b{margin}s?\b", question) for name in names)


_MARGIN = re.compile(r"(?i)\b(?:gross|operating|ebitda|ebit|net|pre-?tax|segment|profit)(?:\s+profit)?\s+margins?\b")


def margin_names(question: str) -> tuple[str, ...]:
    """The margin a question names ('gross margin') and its complement's names, as a report may write the cause
    of its change; () when it names no margin."""
    named = [m.group(0).lower().rstrip("s") for m in _MARGIN.finditer(asked_sentence(question))]
    return tuple(dict.fromkeys([*named, *margin_complements(question)])) if named else ()


_CAUSE_GIVEN = re.compile(r"(?i)\b(?:due\s+to|driven\s+by|drove|as\s+a\s+result\s+of|because|reflect(?:s|ed|ing)|"
                          r"attributable\s+to|primarily\s+(?:from|by))\b")


CAUSE_STEMS = ("driven", "due", "result", "attribut", "because", "reflect", "drove")
"""The stems a text search for a cause looks for (what `_CAUSE_GIVEN` reads)."""


def explains_margin(question: str, text: str, names: Sequence[str] | None = None) -> bool:
    """Whether a text gives the cause of a change in the margin an explanation question asks about, or in its
    complement ('Cost of products sold increased as a percent to sales driven by: …' for 'What drove gross margin
    change'): a sentence that names it and how it was driven (`names`: `margin_names`, when read already)."""
    names = margin_names(question) if names is None else names
    if not names or read_ask(question).kind != "explain":
        return False
    for sentence in re.split(r"(?<=[.:;])\s+", text):
        if _CAUSE_GIVEN.search(sentence) and any(re.search(rf"(?i)\b{re.escape(n)}\b", sentence) for n in names):
            return True
    return False


def explanation_wordings(question: str, keywords: str) -> str:
    """The search words for a question asking what drove a change: its content words, the words a report
    writes the cause with, and a margin's complement ('' for a question of another kind)."""
    if read_ask(question).kind != "explain":
        return ""
    complements = margin_complements(question)[:2]  # the commonest names: more would outweigh the question's words
    return " ".join([keywords, *complements, *(["as a percent of sales"] if complements else []), CAUSE_WORDINGS])


def mentioned_phrase(question: str) -> str:
    """What a 'did X mention …' question asks about, as it words it ('mergers or acquisitions'); '' for any
    other question."""
    match = _MENTION.match(asked_sentence(question))
    if match:
        return (match.group("topic") or match.group("of") or "").strip()
    act = _RESTATED.match(asked_sentence(question))
    return "restatement" if act else ""


def mention_topic(question: str) -> list[frozenset[str]]:
    """What a 'did X mention …' question asks to be mentioned, as stems a text must hold: one group per word,
    the words of an either/or one group ('Did X mention any mergers or acquisitions in the annual report?' →
    [{merger, acquisit}]); [] for any other question."""
    from app.knowledge.analyzer import analyze

    topic = mentioned_phrase(question)
    if not topic:
        return []
    alternatives = [[w for w in re.findall(r"[A-Za-z][\w-]*", part) if w.lower() not in _NOT_TOPIC]
                    for part in re.split(r"(?i)\s*(?:,|\bor\b|/)\s*", topic)]
    alternatives = [words for words in alternatives if words]
    if len(alternatives) > 1 and all(len(words) == 1 for words in alternatives):
        either = frozenset(stem for words in alternatives for stem in analyze(words[0]))
        groups = [either] if either else []
    else:
        groups = [frozenset(analyze(w)) for words in alternatives[:1] for w in words if analyze(w)]
    return [group | said_otherwise(group) for group in groups]


def said_otherwise(stems: frozenset[str] | set[str]) -> frozenset[str]:
    """The stems reports use for these otherwise (`_SAID_OTHERWISE`; two words side by side joined with '+')."""
    return frozenset(s for stem in stems for s in _SAID_OTHERWISE.get(stem, ()))


_JOB_CUTS = ("redund", "retrench", "job+cut", "job+loss", "job+affect", "job+reduct", "social+plan",
             "workforc+reduct", "headcount+reduct", "reduc+workforc", "reduct+workforc", "reduc+headcount")
_SAID_OTHERWISE = {"layoff": _JOB_CUTS, "redund": ("layoff", *_JOB_CUTS[1:]), "buyback": ("repurchas", "buy+back"),
                   "repurchas": ("buyback", "buy+back"), "acquisit": ("acquir",), "merger": ("acquir",),
                   "time": ("schedul",), "worth": ("valu",), "auditor": ("account+firm", "audit")}
"""Words reports use for what a 'did X mention …' question names otherwise: a UK report's redundancies are
layoffs, and so are a German plant closure's '410 jobs are affected', its social plan and 'we reduced our
workforce by approximately 600 positions'; a repurchase of shares
is a buyback; what starts 'on time' starts 'on schedule', and what an order is worth is its value; an auditor is
its 'independent registered public accounting firm'. Two words joined
by '+' stand side by side (matched as one joined word)."""


_WHICH_IS_MORE = re.compile(r"(?i)^\s*(?:which|who|whose)\b[^?]{0,80}?\b(?:higher|lower|more|less|fewer|bigger|larger|"
                            r"smaller|greater|faster|slower|quicker|stronger|weaker|better|worse)\b")
"""A comparison of two that names the comparative, not the superlative: which of them had the higher figure."""
_EITHER_MORE = re.compile(r"(?i)\bor\b[^?,]{1,80}?\b(?:larger|higher|bigger|greater|smaller|lower)\s*(?:[?,]|$)")
"""Two things asked about, then the comparative that compares them ('were its U.S. sales or its international sales
larger?'): which is the larger, not a yes or a no."""
_WHICH_PART = re.compile(r"(?i)^\s*(?:which|what)\s+(?:of\s+)?(?:[\w&.'’-]+['’]s?\s+|the\s+|its\s+|their\s+)?"
                         r"(?:[A-Z][\w&.'’-]*\s+){0,3}(?:segments?|regions?|divisions?|business(?:es)?|units?|"
                         r"geograph(?:y|ies)|markets?|countr(?:y|ies)|products?|brands?|categor(?:y|ies)|channels?)\b")
"""Which of a company's parts ('Which Amcor segment', 'which of its regions'): its breakdown's rows are compared."""
_LOWER = re.compile(r"(?i)\b(?:lower|less|fewer|smaller|slower|weaker|worse)\b")
_MEMBER_MOVED = re.compile(r"(?i)\b(?:(?P<up>rose|grew|increased|improved)|(?P<down>fell|declined|decreased|dropped|"
                           r"shrank|contracted))\b")
"""A part's figure asked by how it moved ('which region's net sales fell'): the verb of the change asked."""
_MEMBER_LOSS = re.compile(r"(?i)\b(?:made|posted|reported|recorded|had|ended[^?]{0,40}?\bwith|swung\s+to|ran)\s+"
                          r"(?:an?\s+)?(?:[\w-]+\s+){0,2}?loss(?:es)?\b")
"""A part asked by its loss ('ended fiscal 2022 with an operating loss'): the one whose result is lowest."""


OCCASION_BEFORE = re.compile(r"(?i)^\s*(?:when|after|following|since|before|upon|once|by|alongside|along\s+with|"
                            r"on(?=\s+(?:the|its|their)\s+[^,?]{0,60}\b(?:figures|numbers|basis|results)\b)|"
                            r"together\s+with|with|in|at|as\s+part\s+of|in\s+connection\s+with|under|per|"
                            r"pursuant\s+to|according\s+to|judged\s+by|judging\s+by|based\s+on|measured\s+by|going\s+by|"
                            r"on\s+the\s+basis\s+of|looking\s+at|using)\s+[^?]{3,160}?,\s*"
                            r"(?=(?:did|does|do|has|have|had|was|were|is|are|will|would|can)\b)")
"""An occasion said before a yes/no question ('When Amcor reported its fiscal 2023 results (year ended June 30, 2023),
did its Board raise …', 'Under the employment agreement she signed in August 2022, will the company cover …'): the
question is what follows it."""


_NAMED_AS = re.compile(r"(?i)^\s*(?:which|what)\s+(?:[\w&-]+\s+){0,3}?(?:does|do|did)\s+(?:[\w&'’.-]+\s+){1,5}?"
                       r"(?:name|list|identify|cite|single\s+out|point\s+to|describe|mention)\s+as\b")
"""A question for what the report itself names as something ('Which countries does PepsiCo name as its largest
operations?'): the names it gives, not a ranking of figures (the superlative is the report's own word)."""


_SETTING_BEFORE = re.compile(r"(?i)^\s*(?:at|in|for|during|within|across|among)\s+[^?,:]{2,80},\s*"
                             r"(?=(?:which|who|whose|what|how)\b)")
"""Where or when a question is set, said before it ('At Netflix in 2015, which grew faster: …')."""


_REPORTED_AS = re.compile(
    r"(?i)^what\s+(?:did|does|do|has|have|had)\s+(?:[\w&'’./-]+\s+){1,5}?(?:report|record|post|book|disclose|"
    r"recogni[sz]e|show|present)\w*\s+(?:as|for)\s+(?:its\s+|their\s+|the\s+)?(?P<thing>(?:[\w&'’-]+\s+){0,5}?"
    r"[\w&'’-]+)(?=\s+(?:on|in|for|at|during|within|over|from)\b|\s*[?,.(]|\s*$)")
"""'What did Netflix report as technology and development expense on its income statement for 2017?': the line
item's figure, when the thing reported as is a measure (not 'What did it report as its main risks?')."""


def _measure_follows(rest: str) -> bool:
    """Whether the noun a name question seemed to ask for modifies a measure ('What segment operating profit did
    its North America Retail segment report?'): a figure is asked, not a name."""
    from app.knowledge.analyzer import analyze

    word = rest.split()[0].strip(",.?;:") if rest.split() else ""
    return bool(analyze(word)) and word.lower() not in _AUXILIARIES and is_measure_word(word)


_AUXILIARIES = frozenset("was were is are did does do has have had will would can could should".split())


def _reported_as_measure(core: str) -> bool:
    reported = _REPORTED_AS.search(core) or _DISCLOSED.search(core)
    return reported is not None and is_measure_word(reported.group("thing").split()[-1])


_MORE_THAN = re.compile(r"(?i)\b(more|less|fewer)\b[^?]{0,80}?\bthan\s+(?:in\s+)?(?:the\s+)?(?:fiscal\s+|FY\s?|"
                        r"(?:first|second|third|fourth)\s+quarter\s+(?:of\s+)?)?(?:19|20)\d{2}\b")
"""'more … than in fiscal 2020': a period compared with another, as 'higher than' asks."""
_MORE_IN_PERIOD = re.compile(r"(?i)^\s*(?:did|does|has|have|had|was|were)\s+[^?]{1,80}?(?<!\bor\s)(?<!\band\s)"
                             r"(?<!%\s)\b(more|less|fewer)\b"
                             r"(?!\s+(?:than|or\s+less|and\s+more))[^?]{1,80}?\b(?:in|during|for|over)\s+(?:the\s+)?"
                             r"(?:fiscal\s+|FY\s?|(?:first|second|third|fourth)\s+quarter\s+(?:of\s+)?)?"
                             r"(?:19|20)\d{2}\b")
"""'Did it … more … in 2020?' with no 'than': a rise on the period before asked ('Did Square have to set aside more
for transaction losses in 2020?')."""
_DISCLOSED = re.compile(
    r"(?i)^what\s+(?P<thing>(?:[\w&'’./-]+\s+){0,4}?[\w&'’./-]+)\s+(?:did|does|do|has|have|had)\s+"
    r"(?:[\w&'’./()-]+\s+){0,5}?(?:disclos|state|show|present|publish|reveal)\w*\b")
"""'What monthly churn rate did Netflix disclose for 2015?': a figure, when the thing disclosed is a measure (not
'What risks did it disclose?')."""


def read_ask(question: str) -> Ask:
    """The kind of answer the question asks for (module docstring)."""
    core = asked_sentence(question)
    if re.match(r"(?i)\s*when\b", core) and second_part(core):
        core = first_part(core)  # 'When did X close the deal, and what did it pay?': the figure's part says what
    # where the answer stands is no part of what is asked ('… according to its Form 8-K announcing updated guidance')
    core = without_source(core)
    if _EXPLAIN.search(core):
        return Ask("explain")
    core = OCCASION_BEFORE.sub("", core)  # 'When Amcor reported its results, did its Board raise …': a yes/no
    core = _SETTING_BEFORE.sub("", core)  # 'At Netflix in 2015, which grew faster: …': the question after it
    core = without_ranking_lead(core)  # 'Of the countries it breaks out …, which contributed the least?'
    if _AUXILIARY.match(core) and _EITHER_MORE.search(core):
        return Ask("change")  # 'were its U.S. sales or its international sales larger?': the two compared
    if PART_PERFORMED.search(core):
        return Ask("change")  # 'How did its consumer health business do in Q4?': its sales, against a year before
    if _AUXILIARY.match(core):
        if judged := _JUDGEMENT.search(core):
            return Ask("judgement", topic=judged.group(1).lower())
        from app.metrics import CASH_BACKING, CASH_RETURNS

        if CASH_BACKING.search(core):  # 'Did its cash generation keep pace with its earnings?'
            return Ask("judgement", topic="cash-backed earnings")
        if CASH_RETURNS.search(core):  # 'Did its free cash flow cover its dividends and buybacks?'
            return Ask("judgement", topic="cash returns covered")
        if either := _EITHER.search(core):
            return Ask("yes_no_change", either=(either.group("a").lower(), either.group("b").lower()))
        if THRESHOLD.search(core):
            return Ask("yes_no")  # 'Did its net sales fall short of $12 billion?': a figure against a bar
        if change := _REVISED.search(core) or _CHANGE_WORD.search(core):
            return Ask("yes_no_change", direction=1 if change.group("up") else -1)
        if more := _MORE_THAN.search(core):
            # 'Did Costco collect more in membership fees in fiscal 2021 than in fiscal 2020?': a rise asked
            return Ask("yes_no_change", direction=1 if more.group(1).lower() == "more" else -1)
        if (more := _MORE_IN_PERIOD.search(core)) and not re.search(r"(?i)\bthan\b", core):
            # 'Did Costco take on more finance lease obligations in fiscal 2021?': more than the period before
            return Ask("yes_no_change", direction=1 if more.group(1).lower() == "more" else -1)
        return Ask("yes_no")
    if PART_PROFITABLE.search(core):
        return Ask("figure")  # 'How profitable was its pet food business?': the part's operating profit
    if _NAMED_AS.match(core):
        return Ask("list")  # 'Which countries does PepsiCo name as its largest operations?': the ones it names
    if _HOW_JUDGED.search(core):
        from app.judgements import convention_for

        if (convention := convention_for(question)) is not None:
            return Ask("judgement", topic=convention.topic)  # 'how solid was its liquidity …', by a convention
    superlative = _SUPERLATIVE.search(core)
    if superlative and re.search(r"(?i)\b(?:which|what|who|where)\b", core[:80]):
        high = bool(superlative.group("high"))
        return Ask("extreme", extreme=1 if high else -1, of_change=bool(_OF_CHANGE.search(core)))
    if (more := _WHICH_IS_MORE.search(core)) and _WHICH_PART.match(core) and not re.search(r"(?i)\bor\b", core):
        # 'Which Amcor segment had the higher net sales …?': the breakdown's rows ranked, as 'the highest' asks
        return Ask("extreme", extreme=-1 if _LOWER.search(more.group(0)) else 1)
    if more:
        return Ask("change")  # 'Which company had higher revenue in 2022, PepsiCo or 3M?': the two compared
    if _WHICH_PART.match(core) and (moved := _MEMBER_MOVED.search(core)):
        # 'which region's net sales fell from a year earlier?': the breakdown's changes ranked, the fall first
        return Ask("extreme", extreme=-1 if moved.group("down") else 1, of_change=True)
    if _WHICH_PART.match(core) and _MEMBER_LOSS.search(core):
        # 'Which of its divisions ended 2022 with an operating loss?': the lowest result, said as a loss
        return Ask("extreme", extreme=-1, topic="loss")
    if _PART_SOLD.search(core):
        return Ask("figure")  # "What did J&J's Vision franchise sell in H1 2023?": the part's sales, no deal
    if _DEED_ASKED.search(core):
        return Ask("list", one_name=True)  # 'What did Northwind acquire in 2024, and for how much?': a name first
    if _PLAN_ASKED.search(core) or _PLAN_CHANGED.search(core):
        return Ask("list")  # 'What is Helio's FY2025 guidance?': the sentences that give it, every target in them
    if (named := _NAMES_ASKED.search(core)) and not _measure_follows(core[named.end():]):
        plural = re.search(r"(?i)(?:ies|es|people|s)$", named.group(0).strip()) and not named.group(0).lower(
        ).startswith("who")
        return Ask("list", one_name=not plural)  # 'Which company did it acquire, and for how much?': a name first
    if _CHANGE.search(core) or LOST_SALES.search(core):  # ('How much console revenue did it lose': its fall)
        return Ask("change")
    if _WHAT_FIGURE.search(core) or _reported_as_measure(core):
        return Ask("figure")
    if asks_for_figure(question) and not _LIST.search(core):
        return Ask("figure")
    if _LIST.search(core):
        return Ask("list")
    if re.match(r"(?i)(?:how\s+(?:much|many)|what\s+(?:was|is|were|are|will)\b)", core):
        return Ask("figure")
    from app.metrics import find_metrics, items_named

    if items_named(core) or find_metrics(core):  # 'And what about their revenue?': a figure, the measure named
        return Ask("figure")
    return Ask("list", loose=True)


_PART_SOLD = re.compile(r"(?i)^\s*(?:what|how\s+much)\s+(?:did|does|do)\s+.{0,60}?\b(?:franchise|segment|division|"
                        r"business|unit|arm|region|brand|operations)s?\s+(?:sell|sold)\b")
"""What a part of the company sold ("What did J&J's Vision franchise sell"): its sales, never a business sold."""
_GROWTH_RATE = re.compile(r"(?i)\bgrowth\b|\bgr[eo]w(?:n|s)?\b|\b(?:percent(?:age)?|%)\s+(?:change|increase|decrease|rise|"
                          r"fall|decline)\b|\bcagr\b|\bcompound\s+annual\b")


def degree_asked(question: str) -> str:
    """The degree a judgement is asked in ('How good was General Mills at turning earnings into cash?': 'good';
    'how solid was its liquidity': 'solid'), lower case; '' for a judgement asked as yes/no ('Is it …?')."""
    found = _HOW_JUDGED.search(asked_sentence(question))
    return found.group("adj").lower() if found else ""


def asks_growth_rate(question: str) -> bool:
    """Whether the question asks for a growth rate ('What was Copperleaf's FY2024 revenue growth?'): its measure
    is read for the year asked and the year before, whatever shape the question has."""
    return _GROWTH_RATE.search(asked_sentence(question)) is not None


def asks_trend(question: str) -> bool:
    """Whether the question asks how a metric moved between two years: a change ('how has it changed', 'did it
    improve') or a judgement on a trend ('an improving gross margin profile'); its metric is then computed for
    both years (app/metrics.change_from_year)."""
    from app.judgements import convention_for

    ask = read_ask(question)
    if ask.kind == "judgement":
        convention = convention_for(question)
        return convention is not None and convention.rule in ("rising", "falling")
    return ask.kind in ("change", "yes_no_change")
