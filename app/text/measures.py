"""The measure a question asks about, as the question words it: `asked_sentence` (the sentence that asks,
its lead-in dropped) and `measure_asked` (the measure's words and stems, the segment it names, the count noun of
a 'how many'). app/text/question_kinds reads the kind of answer; app/text/questions what a sentence must name;
both read the measure here, which reads neither. Pure and deterministic.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.text.places import REGION_NAMES
from app.text.sentences import PART_PROFITABLE, SET_IN, split_at_stops

# ('When comparing …, what is …': a lead-in; 'When did X …, and how much …': a question, `_WHEN_FIRST`)
_LEAD_IN = re.compile(r"(?i)^(?:(?:according to|based on|as of|as at|(?:in|from|for)(?!\s+(?:which|what|whose|whom)\b)|"
                      r"if|excluding|assuming|"
                      r"when(?!\s+(?:did|does|do|was|were|is|are|will|would|has|have|had)\b)|"
                      r"looking at|judging by|using|by (?:drawing|primarily|relying|looking|using)|relying on)\b"
                      r"(?:[^,?(]|\([^()?]{0,80}\)){0,120},\s*)+")
"""A lead-in before the question ('According to the annual report,', 'When it reported its results (year ended
June 30, 2023),': a bracket's own commas inside); never the question's own start ('In which area does …, per its
10-K?')."""
UP_WORDS = (r"increas\w*|improv\w*|strengthen\w*|ris(?:e|en|ing)|rose|rais(?:e|ed|es|ing)|grow\w*|grew|go(?:ne)?\s+up|"
            r"went\s+up|higher|heavier|better|stronger|accelerat\w*|widen\w*|expand\w*|sw[iu]ng(?:s|ing)?(?:\s+back)?(?:\s+to)?|"
            r"jump(?:s|ed|ing)?|climb(?:s|ed|ing)?|surg(?:e|es|ed|ing)|soar(?:s|ed|ing)?|"
            r"return(?:s|ed|ing)?\s+to(?=\s+(?:an?\s+)?(?:[\w-]+\s+)?(?:profit|growth|income|earnings))")
DOWN_WORDS = (r"decreas\w*|declin\w*|worsen\w*|weaken\w*|fall(?:en)?|fell|drop\w*|go(?:ne)?\s+down|went\s+down|"
              r"c[ao]me?\s+down|lower|lighter|worse|weaker|"
              r"decelerat\w*|narrow\w*|shr[iu]nk\w*|contract(?:ed|ing|ion)\b|"
              r"contract(?=\s*(?:[?.,]|$|\s+(?:in|during|by|from|over|between|and|or|year)\b))|deteriorat\w*|"
              r"reduc\w*|slip(?:s|ped|ping)?|slid|slide|dip(?:s|ped)?|eas(?:ed|ing)|soften\w*|"
              r"cut(?:s|ting)?(?=\s+(?:its|their|the|our|back|down)\b)|"
              r"(?:scal(?:e|es|ed|ing)|pull(?:s|ed|ing)?|cut(?:s|ting)?)\s+back(?:\s+on)?|rein(?:s|ed|ing)?\s+in|"
              r"los(?:e|es|t|ing)(?=\s+(?:some\s+|any\s+)?(?:margin|market\s+share|share|ground|momentum)\b)")
"""Words that ask about a fall ('contract' as a verb, 'Did its margin contract', not 'contract value')."""

_JARGON = ((re.compile(r"(?i)\btop[- ]?line\b"), "revenue"), (re.compile(r"(?i)\bbottom[- ]?line\b"), "net income"),
           (re.compile(r"(?i)\binterest\s+(?:burden|bill)\b"), "interest expense"),
           (re.compile(r"(?i)\b(?:income\s+)?tax\s+(?:burden|bill)\b"), "income tax expense"),
           (re.compile(r"(?i)\bcash\s+(?:pile|hoard|mountain)\b|\bwar\s+chest\b"), "cash"),
           # 'How much of its cash sits overseas': what its foreign subsidiaries hold, as reports say it
           (re.compile(r"(?i)\b(?:sits?|sitting|is\s+held|are\s+held|was\s+held|were\s+held|held|kept|parked|"
                       r"lies)\s+(?:overseas|abroad|offshore)\b"), "held by foreign subsidiaries"))
"""Analysts' words for a measure that reports never print ('topline performance' is revenue's, 'the bottom line'
is net income, 'its interest burden' interest expense): read as the measure's name, so that search, grading and the answer look for what reports say."""


def plain_measures(question: str) -> str:
    """The question with analysts' jargon for a measure in the measure's own name (`_JARGON`), and a question
    word's contraction written out ("What's the target annual bonus" asks what it is)."""
    for pattern, name in _JARGON:
        question = pattern.sub(name, question)
    question = _RELIANCE.sub(_reliance_asked, question)
    question = _BROUGHT_DOWN.sub(r"\g<obj>go \g<dir>", question)
    return _CONTRACTED.sub(r"\1 is", question)


_BROUGHT_DOWN = re.compile(r"(?i)\b(?:(?:manage[sd]?|managing|succeed(?:ed|s)?\s+in|(?:been\s+)?able)\s+to\s+)?"
                           r"(?:bring|brings|brought|bringing|get|gets|got|getting|push|pushe[sd]|drive|drove|driven)\s+"
                           r"(?P<obj>(?:its|their|the)\s+(?:[\w&'’-]+\s+){0,4}?)(?P<dir>down|up)\b")
"""'Did Adobe manage to bring its tax rate down': the measure went down, as the change words read it."""


_RELIANCE = re.compile(r"(?i)^(?P<lead>.*?)\bhow\s+(?:reliant|dependent)\s+(?:was|is|were|are|has\s+been)\s+"
                       r"(?P<whole>[^?]{2,80}?)\s+(?:on|upon)\s+(?P<part>[^?]{2,60}?)(?P<tail>\s+(?:in|for|during)\s+"
                       r"[^?]{2,40})?\?")
"""'How reliant was Square's revenue growth in 2020 on bitcoin?': the part's share of the whole."""


def _reliance_asked(match: re.Match) -> str:
    """'How reliant was X's revenue growth in 2020 on bitcoin?' -> 'What share of X's revenue in 2020 came from
    bitcoin?': the share of the whole a report states (the share of a growth is no figure the readers tell from
    the share of the level)."""
    whole = re.sub(r"(?i)\s+growth\b", "", match.group("whole"))
    if not any(is_measure_word(w) for w in re.findall(r"[A-Za-z&]+", whole)):
        # 'How dependent is PepsiCo on Walmart as a customer?': the company's own dependence is on its revenue
        whole = f"{whole}'s net revenue"
    part = re.sub(r"(?i)\s+as\s+an?\s+(?:customer|client|supplier|source)\b", "", match.group("part"))
    return f"{match.group('lead')}What share of {whole}{match.group('tail') or ''} came from {part}?"


_CONTRACTED = re.compile(r"(?i)\b(what|who|where|how|which|when|that|there|it)['’]s\b")
"""A question word's 's, which is 'is' ('What's', 'How's'); no possessive follows such a word."""


_ADJUSTED = re.compile(
    r"(?i)\b(?:adjusted|non[- ]?gaap|non[- ]?ifrs|underlying|normali[sz]ed|pro[- ]forma|organic|like[- ]for[- ]like|"
    r"core(?=\s+(?:\w+\s+)?(?:operating|net|gross|earnings|income|profit|ebit|eps|margin|results?|effective|tax))|"
    r"comparable|same[- ]stores?|"
    r"constant[- ]currency|currency[- ]neutral|ex[- ]fx)\b"
    r"|\bexclud(?:e|es|ing)\s+(?:the\s+)?(?:impacts?|effects?)\s+of\b"
    r"|\bexcluding\s+(?:fx|currency|foreign\s+exchange|acquisitions?|divestitures?|m\s?&\s?a|pass[- ]?through)\b"
    r"|\breal\s+(?:change|growth|terms)\b")
"""Words that make a measure the company's own adjusted one: 'Adjusted EBITDA', 'organic growth', 'the real change
in sales if we exclude the impact of FX movement, passthrough costs and one-off items'."""


SPECIAL_ITEMS_OUT = re.compile(
    r"(?i)\b(?:exclud(?:e|es|ing)|strip(?:s|ped|ping)?\s+out|look(?:s|ed|ing)?\s+through|set(?:ting)?\s+aside|"
    r"leav(?:e|es|ing)\s+out|net\s+of|before|ignor(?:e|es|ing)|without)\s+(?:the\s+|its\s+|their\s+|any\s+)?"
    r"(?:special|one[- ]?offs?|one[- ]time|non[- ]?recurring|exceptional|unusual|significant)(?:\s+(?:items?|"
    r"charges?|gains?|costs?|effects?))?\b")
"""A question that takes special items out of a measure ('Stripping out special items', 'Looking through
one-offs', 'excluding one-time charges'): it asks for the company's adjusted (non-GAAP) figure."""


_ON_BASIS = re.compile(r"(?i)\b(?:on|in)\s+(?:an?\s+)?(?P<basis>organic|constant[- ]currency|currency[- ]neutral|adjusted|"
                       r"core|underlying|comparable|like[- ]for[- ]like|non-GAAP|reported|GAAP|as[- ]reported|"
                       r"reported\s+\(GAAP\))\s+(?:basis|terms)\b")
"""The basis a measure is asked on ('on an organic basis', 'in constant-currency terms'): an adjusted one
qualifies the measure; a reported one is the measure itself."""
TURNED_INTO = re.compile(r"(?i)\b(?:turn|convert|translat)(?:s|ed|ing|e|es)?\s+(?:its\s+|their\s+|the\s+|that\s+)?"
                          r"(?:[\w'’-]+\s+){0,5}?into\s+")
"""'Did it turn its revenue growth into higher pretax profit?': what was turned into the measure is no part of it."""


def asks_adjusted(question: str) -> bool:
    """Whether a question asks for an adjusted measure, by name ('adjusted EBIT') or by the items it takes out
    ('Stripping out special items, …')."""
    return names_adjusted(question) or bool(SPECIAL_ITEMS_OUT.search(question))


def names_adjusted(text: str) -> bool:
    """Whether a question or a row label names an adjusted measure (`_ADJUSTED`): a figure the company defines and
    states, which the unadjusted statement lines do not give (no change or growth of them answers it)."""
    return bool(_ADJUSTED.search(text))


def _asking_sentence(question: str) -> str:
    """The sentence that asks, as written: the first ending in '?', else the first."""
    sentences = [s.strip() for s in split_at_stops(plain_measures(question).strip()) if s.strip()]
    return next((s for s in sentences if s.endswith("?")), sentences[0] if sentences else "")


def asked_sentence(question: str) -> str:
    """The sentence that asks (`_asking_sentence`), lead-ins such as 'According to the annual report,' or 'As of
    FY2023Q1,' dropped."""
    asked = _asking_sentence(question)
    tail = asked.rsplit(":", 1)[-1].strip()
    if tail != asked and re.match(r"(?i)(?:what|which|how|who|when|where|why|is|are|was|were|did|does|do|has|have)\b",
                                  tail):
        asked = tail  # 'Answer using the balance sheet: what is …?'
    return _LEAD_IN.sub("", asked)


_FRAMING = re.compile(
    r"(?i)^\s*according\s+to\s+(?:the|its|their)\s+(?:(?:latest|most\s+recent|last)\s+)?(?:annual\s+)?"
    r"(?:report|filing|10-k)s?\s*,\s*|"
    r"\s*\((?:with)?in\s+the\s+(?:last|latest|most\s+recent)\s+(?:period|year)[^()]*\)|"
    r"(?<=[?.])\s*if\s+[^?]{0,120}?\breturn\b[^?]*$")
"""How a question set frames a question, which no report writes: 'According to the annual report,', '(within
the last period or at the end of the last period)', 'If data is not available, return 'N/A''."""


def without_framing(question: str) -> str:
    """The question less its framing (`_FRAMING`), for the words a search looks for: 'According to the annual
    report, what is the number of employees for X (within the last period …)? If data is not available, return
    'N/A'' → 'what is the number of employees for X?'."""
    return _FRAMING.sub("", question).strip() or question


_HEDGE = r"(?:(?:roughly|approximately|about|around|also|then|so)\s+)?"
"""A hedge or link before a second ask's question word ('…, and roughly how many of them …')."""
_SECOND_PART = re.compile(r"(?i),?\s+and\s+" + _HEDGE + r"(?=(?:when|where|who|whom|why|which)\b|how\s+(?:many|much)"
                          r"\s+of\s+(?:them|those|these|whom|which|it)\b)"
                          r"|,\s+and\s+" + _HEDGE + r"(?=(?:(?:at|for|of|in|with|on|as\s+(?:of|at))\s+)?"
                          r"(?:what|how\s+(?:much|many))\b)"
                          r"|,?\s+and\s+(?=how\s+(?:were|was|are|is)\s+(?:they|it|these|those|the\s+\w+)\s+(?:split|"
                          r"divided|distributed|broken\s+down|allocated|spread)\b)"
                          r"|,?\s+and\s+(?=how\s+(?:did|does|do|has|have)\s+(?:it|they|these|those|the\s+\w+)\s+(?:do|done|"
                          r"fare|fared|perform|performed)\b)")
"""Where a question's second ask starts: 'and when …', 'and how many of them …' (a part of what the first
asks, which the first's answer states beside it), ', and what stake … does it still hold?' (a second figure),
'and how were they split between …' (the figure's parts, which its sentence states), ', and how did it do
organically?' (how the figure came about)."""


_CONSTRAINTS = re.compile(
    r"(?i)\b(?:rounded\s+)?to\s+the\s+nearest\s+(?:whole\s+)?\w+(?:\s+(?:point|pounds|euros|dollars|yen|sterling))?\b|"
    r"\b(?:rounded\s+)?to\s+(?:one|two|three|four|\d)\s+decimal\s+places?\b|\bin\s+(?:the\s+)?(?:company['’]s\s+)?"
    r"(?:own\s+|reporting\s+|functional\s+|presentation\s+)currency\b|\bin\s+(?:pounds\s+sterling|sterling|euro\s+"
    r"cents|cents|pence)\b|"
    # ', in dollars and percent', 'in absolute and percentage terms': the change's forms asked, no measure's words
    r",?\s*\b(?:both\s+)?in\s+(?:dollars?|absolute(?:\s+terms)?|amount|value)\s+(?:and|&)\s+(?:in\s+)?"
    r"(?:percent(?:age)?|per\s+cent|%|relative)(?:\s+terms)?\b|"
    # 'in dollars and in number of shares': a buyback's two forms, which its sentence states together
    r",?\s*\b(?:both\s+)?in\s+(?:dollars?|amount|value)\s+(?:and|&)\s+(?:in\s+)?(?:(?:the\s+)?number\s+of\s+)?"
    r"shares\b")
"""What a question asks of its answer's form, not of its measure: a rounding, a currency, a change in dollars and
per cent, a buyback in dollars and shares."""


_TOOK_MORE_IN = re.compile(r"(?i)\b(?:collect(?:s|ed)?|earn(?:s|ed)?|bring(?:s)?|brought|take(?:s)?|took|"
                           r"receive[sd]?|pa(?:y|id)\s+out|spen[dt])\s+(?:in\s+)?(?:more|less)\s+in\s+")
"""A verb of taking in or paying out with 'more in' ('collect more in membership fees'): the measure is what
follows, the comparison the question's."""


def without_form(question: str) -> str:
    """The question less what it asks of its answer's form (`_CONSTRAINTS`: 'in dollars and percent', 'to the
    nearest whole percent'), which says nothing of the measure's kind."""
    return _CONSTRAINTS.sub(" ", question)


LEFT_OUT = re.compile(r"(?i)\b(?:outside(?:\s+of)?|excluding|other\s+than|apart\s+from)\s+(?:the\s+)?"
                      r"(?P<member>(?-i:[A-Z][\w.&'’-]*(?:\s+[A-Z][\w.&'’-]*){0,3})),?")
"""A member a question leaves out ('Outside the United States, which region …'): no member asked, and none a
ranking ranks."""
OUTSIDE_HOME = (r"(?:(?:outside(?:\s+of)?|beyond)\s+(?:the\s+)?(?:United\s+States\b|U\.S\.(?:A\.)?(?!\w)|USA?\b)|"
                r"(?:abroad|overseas)\b)")
"""Outside the company's home country, as a question or a report words it ('outside of the U.S.', 'overseas')."""
ABROAD = re.compile(r"(?i)(?:\b(?P<by>from|in|generated|earned|made|operate[sd]?|operating|located|based|employed|"
                    rf"held)|(?<=sales)|(?<=revenue)|(?<=revenues))\s+{OUTSIDE_HOME}")
"""A measure placed outside the company's home country ('How much of its revenue came from outside the United
States?'): the member reports name 'International' (or 'Non-U.S.', `same_member`), not a member left out."""
THRESHOLD = re.compile(
    r"(?i)\b(?:(?P<above>top(?:ped|s)?|exceed(?:ed|s)?|surpass(?:ed|es)?|pass(?:ed|es)?|cross(?:ed|es)?|beat|"
    r"(?:go|goes|went|gone)\s+(?:over|above)|(?:more|greater|higher)\s+than|over|above|(?P<least>at\s+least))|"
    r"(?P<below>(?:fall|falls|fell)\s+(?:short\s+of|below|under)|(?:less|lower)\s+than|below|under))\s+"
    r"(?P<amount>(?:[A-Z]{0,2}[$£€¥])\s?\d[\d,.]*(?:\s*(?:trillion|billion|million|thousand|tn|bn|m|k)\b)?|"
    r"\d[\d,.]*\s*(?:%|percent\b|per\s+cent\b)|(?:a|one)\s+(?:quarter|third|fifth|tenth)\b|half\b|"
    r"(?:two|three)[- ](?:thirds|quarters|fifths)\b)")
"""A bar a figure is asked against ('Did its annual revenue top $10 billion', 'margin above 15%', 'more than a
quarter of its net sales'): the side and the amount; only money, a per cent or a share in words, never a count
('more than 3 segments')."""
_SHARE_WORDS = {"quarter": 25.0, "third": 100 / 3, "fifth": 20.0, "tenth": 10.0, "half": 50.0, "two thirds": 200 / 3,
                "three quarters": 75.0, "two fifths": 40.0, "three fifths": 60.0}


def bar_figures(amount: str) -> list[tuple[str, float, str, str]]:
    """The figure a bar states, as `figures_in` gives one: 'a quarter' is 25 per cent, 'half' 50, '$10 billion'
    itself."""
    from app.text.figures import figures_in

    words = " ".join(re.sub(r"(?i)^(?:a|one)\s+", "", amount.lower()).replace("-", " ").split())
    return [("", _SHARE_WORDS[words], "", "%")] if words in _SHARE_WORDS else figures_in(amount)
_BY_WHAT = re.compile(r"(?i)\bby\s+what\s+(?:percentage|percent|per\s+cent|amount|factor|margin)\b")
"""'By what percentage did X change': how a change is asked for, no word of the measure that changed."""
_HOW_LARGE = re.compile(r"(?i)\bhow\s+(?:large|big)\s+(?=(?:is|was|are|were|will)\b)")
"""'How large is her sign-on bonus': how much it is; 'large' is no word of the measure."""
_KIND_OF_MEASURE = re.compile(r"(?i),\s*(?:an?\s+)?(?:non-?GAAP|adjusted|supplemental|key|alternative)\s+"
                              r"(?:financial\s+|performance\s+)?(?:measure|metric|indicator)s?\s*(?=,|\s+(?:change|"
                              r"move|rise|fall|grow)\b)")
"""An aside that says what kind of measure it is ('free cash flow, a non-GAAP measure,'): no words of it."""
_OVER_PERIOD = re.compile(r"(?i)\b(?:year|period|quarter)[- ]over[- ](?:year|period|quarter)\b")
_SIZE_OF = re.compile(r"(?i)\b(?:the\s+)?size\s+of\b")
_SPENT_DOING = re.compile(r"(?i)\b(spen[dt](?:ing)?)\s+(?:on\s+)?(?:buying|purchasing|acquiring)\b")
"""'How much did it spend buying bitcoin': what it spent on; the buying is the spending, no word of the measure."""
_BUYING_BACK = re.compile(r"(?i)\b(?:buying|buy|bought)\s+back\s+(?:its\s+|their\s+)?(?:own\s+)?(?:common\s+|ordinary\s+)?"
                          r"(?:stock|shares)\b")
"""'spend buying back its own shares': the share repurchases a report states."""
_OWN = re.compile(r"(?i)\b(its|their|our|his|her)\s+own\b")
"""'for its own balance sheet': whose it is, said twice; 'own' is no word of the measure."""
_HELD_WITH = re.compile(r"^\s*[Oo]f\s+(?:the\s+|its\s+)?(?P<measure>[a-z][a-z&\s-]*?)(?:\s+(?:[A-Z][\w&.'’-]*\s+){0,4}"
                        r"(?:held|had|reported|carried)\b[^?]*?)?\s*,\s*"
                        r"(?i:how\s+much\s+(?:sat|was\s+held|lay|was|were|is|are)\s+(?:with|by|at|in))\s+"
                        r"(?P<part>[A-Z][^?]*?)\s*\??$")
"""A part of a whole asked by where it sits ('Of the cash and cash equivalents MGM Resorts held at June 30, 2023,
how much sat with MGM China?'): the whole's measure, held by that part."""
_CITY_AND_STATE = re.compile(r"\b((?:in|at|near)\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?),\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\b"
                             r"(?=\s+(?:for|to|and|as|in|at|on|during|per|by)\b|\s*[,?.])")
"""A place as a city and its state or country ('in Irvine, California'): the city names it."""
_GOT_CLAUSE = re.compile(r"(?i)\b(?:that|which)\s+(?:(?:it|they|the\s+(?:company|group))\s+)?(?:has\s+|have\s+|had\s+)?"
                         r"(?:realis|realiz|generat|receiv|collect|obtain|earn|record|report|recogni[sz]|book)\w*\b")
"""A relative clause of the company getting the measure, its name already out ('the cash proceeds that [JnJ]
realised'): who got it and how, no words of the measure."""
_HOLDER_CLAUSE = re.compile(r"(?i)\b(?:do|does|did)\s+(?:(?:the|its|their)\s+)?(?:[a-z][\w-]*\s+){1,2}?"
                            r"(?:contain|house|occupy|cover|span)\s*\??\s*$")
"""The clause that closes 'how much floor space do its warehouses contain': what holds the measure, no word of it."""
_SOURCE_SAID = re.compile(
    r"(?i)\b(?:according\s+to|as\s+(?:stated|reported|disclosed)\s+in|in|per)\s+(?:its|the|their|this|[\w&.-]+['’]s?)\s+"
    r"(?:(?:latest|most\s+recent|last)\s+)?(?:(?:fiscal\s+)?(?:19|20)\d{2}\s+)?(?:quarterly|annual|interim|"
    r"half[- ]year(?:ly)?)\s+"
    r"(?:report|filing|results|statements?)\b|\b(?:according\s+to|in|per)\s+(?:its|the|their|"
    r"(?:[\w&.-]+\s+){0,3}[\w&.-]+['’]s?)\s+"
    r"(?:(?:latest|most\s+recent|last)\s+)?(?:(?:first|second|third|fourth)[\s-]+quarter\s+(?:and\s+"
    r"(?:full[\s-]+year|year[\s-]+end)\s+)?)?(?:(?:fiscal\s+)?(?:[A-Z][a-z]+\.?\s+\d{1,2},?\s+)?(?:19|20)\d{2}\s+|"
    r"FY\s?\d{2,4}\s+|Q[1-4]\s+(?:FY\s?)?(?:19|20)?\d{2}\s+)?(?:(?:form\s+)?(?:10-[KQ]|8-K)|(?:earnings|results)\s+(?:press\s+)?release|"
    r"(?:earnings|results)\s+announcement|press\s+release)\b"
    r"(?:,?\s+(?:announcing|describing|reporting|covering|discussing|on|about|(?:that|which)\s+announced)\b[^?]*)?|"
    # ', going by the recast continuing-operations data it published after the Kenvue split': the data it names
    r",\s*(?:going\s+by|judging\s+by|based\s+on|using|per|according\s+to|in)\s+(?:the|its|their)\s+[^?,]{0,60}?"
    r"\b(?:data|figures|numbers|schedules?|tables?|disclosures?)\b[^?,]*")
"""Where a question says its answer stands ('according to its quarterly report', 'in the 10-Q', 'according to its
fiscal 2015 10-K'): no measure, and no word a sentence must say ('according to Amcor's July 1, 2022 8-K', and
what it says of the filing: '… Form 8-K announcing updated 2023 guidance after the Kenvue separation'), or of the
data it reads (', going by the recast continuing-operations data it published after the Kenvue split')."""


def without_source(text: str) -> str:
    """The text without where it says its answer stands (`_SOURCE_SAID`)."""
    return _SOURCE_SAID.sub(" ", text)


def part_asked(question: str) -> str | None:
    """The part of a year a question asks (`periods.part_named`): the one its own period names, not the quarter
    of the release it names as its source ('for fiscal 2023 (twelve months ended June 30, 2023) …, per its Q4
    FY2023 earnings release' asks the year); a question that names no period of its own asks its source's."""
    from app.text.periods import part_named, years_named

    own = without_source(question)
    if not years_named(own) and re.search(r"(?i)\bquarter\s+and\s+(?:full[\s-]+year|year[\s-]+end)\b", question):
        return None  # ('its fourth-quarter and full-year 2022 earnings release': the year's as well as the quarter's)
    return part_named(own) if years_named(own) else part_named(question)


_WHEN_FIRST = re.compile(r"(?i)^\s*(?P<when>when\b.+?),?\s+and\s+(?P<figure>(?:how\s+(?:much|many)|what)\b.+)$")
"""A question that asks when first and the figure after it ('When did Ternline complete the Brook acquisition, and
how much did it pay?'): the figure's part names the measure, the date is asked beside it."""


_MEASURE_LEAD = re.compile(r"(?i)^\s*(?:looking\s+at|judging\s+by|judged\s+by|based\s+on|using|considering|"
                           r"in\s+terms\s+of|measured\s+by|by|(?P<among>of|among|out\s+of))\s+(?P<what>[^,?]{3,120}?),\s*"
                           r"(?=(?:which|where|who|whose|what)\b[^?]*\b(?:most|least|highest|lowest|largest|smallest|"
                           r"biggest|greatest|fewest|top)\b)")
"""A ranking question whose lead-in names what it ranks by ('Looking at 2022 capital spending by business segment,
where did 3M invest the most in property, plant and equipment?'): the measure is the lead-in's."""


def ranking_lead(question: str) -> str | None:
    """The measure a ranking question's lead-in names (`_MEASURE_LEAD`), or None."""
    lead = _MEASURE_LEAD.match(_asking_sentence(question))
    if lead is None:
        return None
    if lead.group("among"):
        # 'Of the countries PepsiCo breaks out in its 2022 net revenue table, which contributed the least?': the
        # members are the lead-in's; the measure is the table's or breakdown's it names, when it names one
        table = _TABLE_OF.search(lead.group("what"))
        return table.group("measure") if table else None
    return lead.group("what")


def without_ranking_lead(text: str) -> str:
    """A ranking question without its lead-in (`_MEASURE_LEAD`): 'which contributed the least?'."""
    return _MEASURE_LEAD.sub("", text)


_TABLE_OF = re.compile(r"(?i)\b(?:in|from|within)\s+(?:its|the|their|[\w&.'’-]+['’]s?)\s+(?P<measure>[^,?]{3,80}?)\s+"
                       r"(?:table|breakdown|disclosure|schedule|note)s?\b")


def first_part(asked: str) -> str:
    """A two-part question's part that names the measure: 'What is Northwind's FY2024 dividend, and when is the
    final paid?' → 'What is Northwind's FY2024 dividend'; 'When did X close the deal, and how much did it pay?' →
    'how much did it pay?'."""
    if when_first := _WHEN_FIRST.match(asked):
        return when_first.group("figure")
    return _SECOND_PART.split(asked, maxsplit=1)[0]


def second_part(asked: str) -> str:
    """A two-part question's part asked beside the measure ('when is the final paid?', 'When did X close the
    deal'), or ''."""
    if when_first := _WHEN_FIRST.match(asked):
        return when_first.group("when")
    parts = _SECOND_PART.split(asked, maxsplit=1)
    return parts[1] if len(parts) == 2 else ""


# --- the measure a question asks about -------------------------------------------------------------------------

_PERIOD_PHRASES = re.compile(
    r"(?i)\b(?<!-)(?:within|at|as\s+(?:of|at)|for|during|in|over|by|of)?\s*(?:the\s+)?(?:end\s+of\s+(?:the\s+)?)?"
    r"(?:(?:prior|previous)[- ]year|year[- ]ago|same|comparable|corresponding|last|latest|most\s+recent|current|"
    r"previous|prior|following|next|reporting|financial|fiscal|full|half|first|second|third|fourth)?\s*"
    r"(?:financial\s+|fiscal\s+)?(?:year|period|half[- ]year|full[- ]year|half|quarter|"
    r"(?:\d{1,2}|fifty[- ]two|fifty[- ]three)\s+weeks|(?:six|three|nine|twelve)\s+months)\b(?:\s+(?:ended|ending|"
    r"to|end))?|\b(?:FY\s?\d{1,2}/)?(?:FY|fiscal|financial\s+year)\s?'?(?:19|20)?\d{2}\b|\b[HQ][1-4]\b|"
    r"\bfiscal\s+years?\b|\byear[- ]end\b|\bperiod[- ]end\b|\bor\b(?=\s+at\s+the\s+end)|"
    r"\bFY\s?\d{1,2}/(?:(?:19|20)?\d{2})?(?!\w)|"  # 'FY3/2025': the year ending in March 2025
    # 'in early 2023', 'mid-2022': a time of that year (its year already read out of the text)
    r"\b(?:early|late|mid)(?:[-\s]+(?=(?:19|20)\d\d\b)|-?(?=\s*(?:[?.,;]|$)))|"
    # 'Creative ARR exiting fiscal 2017': a recurring measure at the end of the period
    r"\b(?:exiting|entering)\b(?=\s*(?:[?.,]|$)|\s+(?:the\s+)?(?:fiscal|financial|FY|year|quarter|half|"
    r"(?:19|20)\d{2}))|"
    # 'dividends in respect of FY2024': of a period, not of another thing ('payments in respect of leases')
    r"\bin\s+respect\s+of\b(?=\s*(?:the\s+)?(?:(?:last|latest|current|prior|previous)\s+)?(?:FY|fiscal|"
    r"financial|year|period|half|quarter|(?:19|20)\d\d)|\s*[?.,]|\s*$)")
_PLAIN_VERBS = frozenset({"have", "has", "had", "hold", "own", "count", "report", "record", "disclose", "list", "say",
                          "operate", "run", "maintain"})
"""Verbs of a 'how many' question that say nothing of what was counted."""
_PLAIN_VERB_AT_END = re.compile(rf"(?i)\s+(?:{'|'.join(sorted(_PLAIN_VERBS))})$")
_JOINING = frozenset({"of", "from", "for", "per", "to", "on", "and", "/", "less"})
"""Words that join two words of a measure ('cost of sales', 'cash flow from operations', 'debt to equity',
'long-term debt, less current portion')."""
_SCAFFOLD = frozenset("""what which how why when where whom whose much many was were is are did does do has have had
    will would could can should the a an of in at for to by on from with its their his her our your according annual
    report reports report's reported statement statements filing filings based using give answer please
    round rounded decimal decimals places place two one three nearest usd us dollars dollar yen euros pounds
    million millions billion billions thousand thousands units unit amount figure value level generate
    generated make made bring brought earn earned record recorded post posted book booked achieve achieved
    deliver record end ending ended close closing last latest within period year years fiscal financial data
    shown mentioned disclosed say says said state stated show or and during hold roughly fy as it that this
    if quantity directly outlined explicitly about regarding express expressed incur incurred euro sterling cents
    pence currency over spend spent more less than carry carries carried announce announced assume assumes
    assumed assuming imply implies implied declare declares declared propose proposes proposed recommend
    recommends recommended approximate approximately worldwide happen happened move moved develop developed
    evolve evolved fare fared trend trended sign signed come came comes again still""".split())
_STATEMENT_NAMES = re.compile(
    # 'per its cash flow statement', 'according to the continuing-operations statement of earnings': where it stands
    r"(?i)\b(?:(?:(?:as\s+)?per|according\s+to)\s+(?:its|the|their|[\w&.-]+['’]s?)\s+(?:[\w-]+\s+){0,2}?)?"
    r"(?:(?:consolidated\s+)?(?:income|cash\s+flows?|balance\s+sheets?|profit\s+(?:and|or)\s+loss|"
    r"comprehensive\s+income)\s+statements?|(?:consolidated\s+)?statements?\s+of\s+(?:consolidated\s+)?"
    r"(?:operations|income|earnings|cash\s+flows?|financial\s+position|comprehensive\s+income|profit\s+or\s+loss)|"
    r"balance\s+sheets?)\b")
_SEGMENT_WORD = re.compile(r"(?i)^(?:segment|business|division|operations|unit|arm|region)s?\b")


def _subject_of_question(name: str, question: str) -> bool:
    """Whether a name is who the question asks about, the subject of its verb ('Did Square have to set aside more
    for transaction losses': the company by another of its names), not a part named before its measure ('Did Cash
    App revenue grow')."""
    after = re.match(rf"(?i)^\s*(?:did|does|do|has|have|had|is|was|were|are|will|would|can|could)\s+"
                     rf"{re.escape(name)}\s+(?P<next>[A-Za-z]+)", question)
    return after is not None and not is_measure_word(after.group("next"))


_RETURNS_ON_CAPITAL = re.compile(r"(?i)\b(?:earn(?:s|ed|ing)?\s+|generat(?:e|es|ed|ing)\s+|mak(?:e|es|ing)\s+)?"
                                 r"(?:(?:better|higher|lower|worse|weaker|stronger)\s+)?returns\s+on\s+"
                                 r"(?:its\s+|their\s+|the\s+)?(?:invested\s+)?capital\b")
"""'returns on its capital' in an analyst's words: the return on invested capital reports state."""
PART_PERFORMED = re.compile(r"(?i)^\s*how\s+(?:did|has|have|does|do)\s+[^?]{1,80}?\b(?:business|segment|division|"
                            r"franchise|unit|arm)s?\s+(?:do|done|doing|perform|performed|fare|fared)\b")
"""'How did J&J's consumer health business do in the last quarter of 2022?': how a part's sales moved."""
_AMPERSAND_INITIALS = {"r&d": "research and development", "sg&a": "selling, general and administrative",
                       "d&a": "depreciation and amortization", "pp&e": "property, plant and equipment"}
"""Initials joined by '&', which reports write out in their sentences ('Research, development and related
expenses totaled $1.821 billion'); as initials they are letters no search or row can match."""


def _spelled_initials(phrase: str) -> str:
    """The measure with its '&' initials written out, and their spend as the expenses it is ('R&D spend' →
    'research and development expenses')."""
    def spelled(found: re.Match[str]) -> str:
        return _AMPERSAND_INITIALS[found.group(1).lower()] + (" expenses" if found.group(2) else "")

    return re.sub(r"(?i)(?<![\w&])(R&D|SG&A|D&A|PP&E)(?![\w&])(\s+(?:spend|spending|outlays?))?(?!\w)", spelled, phrase)


_OWNERS = frozenset("its their our the did does do was were is are has have had".split())
"""Words that own the part named after them ('its pharma segment'); a verb right before it stood before the owner's
name, which is taken out before the part is read ("What did Johnson & Johnson's pharma segment earn")."""
_NO_PART_NAME = frozenset("""core main overall whole entire own operating reportable reporting biggest largest
    smallest fastest slowest best worst top leading other same new old existing remaining continuing discontinued
    underlying total combined each every""".split())
"""Lower-case words before 'segment' or 'business' that say which of them, not what it is called ('its core
business', 'its largest segment')."""
_NOT_SEGMENT = frozenset("""the a an in of at for did does do was is were are its their our what which how much many
    and or by to from with each any all""".split())
_ASK_WORDS = re.compile(rf"(?i)\b(?:{UP_WORDS}|{DOWN_WORDS}|change[ds]?|compare[ds]?|comparison|differ\w*|between|versus|vs|"
                        r"expected\s+to|improved\s+or\s+declined|go\s+up|go\s+down|faster|slower|quicker|more\s+"
                        r"quickly|more\s+slowly|relative\s+to|(?<=how\s)(?:fast|quickly|rapidly|steeply|sharply)|erod\w*)\b|"
                        r"\bFY\b")


def _segment_named(text: str) -> tuple[str | None, str]:
    """The segment a question names ('Pellbury's Online segment', 'the Machine Tools business', 'its
    International franchise segment') and the text without it: up to three words before 'segment',
    'business' or 'division', the first capitalised, none a function word. A region named besides a business
    ('net revenues from the Asia Pacific region attributable to its Blizzard segment') is the business's row: the
    business is the member asked, the region stays a word of the measure."""
    words = list(re.finditer(r"[\w&.'’-]+", text))
    regions = [w for w in words if w.group(0).lower().startswith("region")]
    if regions and len(regions) < sum(1 for w in words if _SEGMENT_WORD.match(w.group(0))):
        words = [w for w in words if w not in regions]
    for i, word in enumerate(words):
        if not _SEGMENT_WORD.match(word.group(0)) or i == 0:
            continue
        if word.group(0)[:1].isupper() and i + 1 < len(words) and _SEGMENT_WORD.match(words[i + 1].group(0)):
            continue  # 'Costco's Canadian Operations segment': 'Operations' is the name's, 'segment' the word
        name: list[re.Match[str]] = []
        before = words[max(0, i - 8):i]
        owned = False
        for k in range(len(before) - 1, -1, -1):
            previous = before[k]
            bare = re.sub(r"['’]s?$", "", previous.group(0))
            if name and (re.search(r"['’]s$", previous.group(0)) or bare.lower() in _OWNERS):
                owned = True  # "Johnson & Johnson's pharma segment": the owner's name ends the part's
                break
            joins = bare.lower() in ("&", "and") and name and name[0].group(0)[:1].isupper() and k > 0 \
                and before[k - 1].group(0)[:1].isupper()  # 'Consumer & Community Banking': one name
            # 'Africa, Middle East and South Asia division': a name that lists places, commas and all
            listed = bool(name) and bare[:1].isupper() and text[previous.end():name[0].start()].strip() == "," \
                and any(m.group(0).lower() in ("and", "&") for m in name)
            if not joins and not listed and (bare.lower() in _NOT_SEGMENT or not bare or bare == "&"
                                             or _name_full(name, previous)):
                break
            name.insert(0, previous)
        lower = list(name)
        while name and not name[0].group(0)[0].isupper():
            name.pop(0)
        if not name and owned and 1 <= len(lower) <= 2 and word.group(0).lower().startswith(("segment", "division")) \
                and not any(m.group(0).lower() in _NO_PART_NAME for m in lower):
            # 'its pharma segment': a part named in lower case, called a segment (a 'pet food business' is read
            # with the measure, where the filing's own name for the part is found, `name_read_as_segment`)
            name = lower
        if name:
            # a capitalised 'Operations' or 'Business' is the name's own ('MGM's Regional Operations')
            kept = [*name, word] if word.group(0)[:1].isupper() and word.group(0).lower().startswith(
                ("operations", "business")) else name
            segment = " ".join(re.sub(r"['’]s?$", "", m.group(0)) for m in kept)
            # 'its Consumer business segment': both words say what the name is
            end = words[i + 1].end() if i + 1 < len(words) and _SEGMENT_WORD.match(words[i + 1].group(0)) \
                else word.end()
            start = name[0].start()
            if owned := _ATTRIBUTED_TO.search(text[:start]):
                start = owned.start()  # ('attributable to its Blizzard segment': whose share, no measure word)
            return segment, text[:start] + " " + text[end:]
    return None, text


_EXPECTED_TO_BOOK = re.compile(r"(?i)\b(?:expect|anticipate|plan|intend)(?:s|ed)?\s+to\s+(?:book|record|recogni[sz]e|"
                               r"incur|take|report)\b")
"""A forward question's verbs of booking a charge ('expect to book', 'plan to record'): how, not what, it asks."""
_UNIT_KINDS = ("operating", "reporting", "reportable")
_ATTRIBUTED_TO = re.compile(r"(?i)\b(?:attributable|attributed|due)\s+to\s+(?:the\s+|its\s+|their\s+)?$")


def _name_full(name: Sequence[re.Match[str]], previous: re.Match[str]) -> bool:
    """Whether a segment's name read backwards from 'segment' has all its words: three, or four when every one is
    capitalised ('Las Vegas Strip Resorts segment')."""
    # ('North America Retail operating units': the kind of unit is no word of the name)
    words = [m.group(0) for m in name if m.group(0).lower() not in ("&", "and", *_UNIT_KINDS)]
    if len(words) >= 4:
        return True
    return len(words) == 3 and not all(w[:1].isupper() for w in [*words, previous.group(0)])


_PART_CONTRIBUTES = re.compile(
    r"\b(?:did|does|do|will|would)\s+(?:the\s+)?(?!FY\s?\d|[QH][1-4]\b)(?P<name>[A-Z][\w&-]*(?:\s+(?:&\s+)?[A-Z][\w&-]*){0,3}"
    r"(?:\s+(?!account\b|contribute\b|make\b|represent\b|generate\b|bring\b)[a-z][\w&-]*){0,2})\s+"
    r"(?:account\s+for|contribute|make\s+up|represent|generate|bring\s+in)\b|"
    r"\b(?:came|come|comes|coming)\s+from\s+(?:the\s+|its\s+|their\s+)?"
    # ('the Call of Duty franchise', 'Safety and Graphics')
    r"(?P<source>[A-Z][\w&-]*(?:\s+(?:&\s+|and\s+|of\s+(?:the\s+)?)?[A-Z][\w&-]*){0,3}|"
    rf"(?<=\bfrom\s)(?i:(?!the\b|its\b|their\b|sales\b|{REGION_NAMES}\b)[a-z][\w&-]*"
    r"(?:\s+(?:and\s+)?(?!in\b|during\b|for\b|of\b)[a-z][\w&-]*){0,2})(?=\s+(?:in|during|for|over|of)\b|\s*\??$))")
"""A part of the company named as the subject of a share ('what share of net sales did Rigid Packaging account
for', 'how much of its loans does the Delta cobrand portfolio account for', 'how much of revenue came from Cash
App', 'what share of its net sales came from skincare'): capitalised words, as a part's name is written, maybe
with a common noun or two after them, or a category's words before the period asked (not a place's:
'international streaming' is where revenue came from, `_PLACED_IN_REGION`)."""


_NOT_A_PART = re.compile(r"(?i)^(?:january|february|march|april|may|june|july|august|september|october|november|"
                         r"december|inc|corp|corporation|co|company|group|holdings?|ltd|limited|plc|ag|se|sa|nv|llc|"
                         r"fiscal|annual|quarterly|what|which|how|did|does|has|have|was|were|is|are|in|during|for|"
                         r"the)$")
"""Words after a company's name that name no part of it: months, company forms, question words."""


def _segment_after_name(text: str, companies: Sequence[str]) -> str | None:
    """A part of the company a question names right after the company's short name, capitalised and no word of
    the company's own name ('How much revenue did Tamarack Media bring in' of Tamarack Ridge Communications:
    'Media'); None when there is none ('Tamarack Ridge', 'Pellbury Retail Group', 'Tamarack in March')."""
    for company in companies:
        own = {w.casefold() for w in company.split()}
        first = company.split()[0] if company.split() else ""
        if len(first) < 3:
            continue
        for found in re.finditer(rf"\b{re.escape(first)}\s+(?P<part>[A-Z][a-z]{{2,}}(?:\s+[A-Z][a-z]{{2,}}){{0,2}})"
                                 r"(?:['’]s?)?(?![\w-])", text):
            words = found.group("part").split()
            while words and (words[-1].casefold() in own or _NOT_A_PART.match(words[-1])):
                words.pop()  # 'Tamarack Media Group' is the group; stop at its form word
            if words and not any(w.casefold() in own or _NOT_A_PART.match(w) for w in words):
                return " ".join(words)
    return None


@dataclass(frozen=True)
class MeasureAsked:
    """The measure as the question words it ('underlying EBITDA', 'order intake'), its analyzed stems, the
    segment it names (or None for the whole company) and the count noun of a 'how many' question."""

    phrase: str
    stems: frozenset[str]
    segment: str | None = None
    count_noun: str = ""


_DEAL_NAME = re.compile(r"\b(?P<name>[A-Z][a-z][\w'’-]*(?:\s+[A-Z][a-z][\w'’-]*)*?)(?:['’]s)?\s+(?:acquisition|purchase|"
                        r"deal|contract|order|disposal|divestiture|sale|merger|transaction|agreement|partnership|"
                        r"joint\s+venture|project|plant|site|facility|recall|programme|program)s?\b|"
                        # 'pay to acquire Innovel' (`_PAID_FOR_NAME`): the business bought
                        r"\bto\s+acquire\s+(?P<bought>[A-Z][a-z][\w'’-]*(?:\s+[A-Z][a-z][\w'’-]*)*)")


def deal_names(phrase: str) -> list[str]:
    """The names a measure adds to say which transaction or asset it is of ('Fenmoor Cold Storage' of 'goodwill
    recognised on the Fenmoor Cold Storage acquisition', 'Meridian Catering Partners' of 'the Meridian Catering
    Partners contract'): no segment's name, and reports shorten them ('Fenmoor')."""
    return [m.group("name") or m.group("bought") for m in _DEAL_NAME.finditer(phrase)]


_PAID_FOR_NAME = re.compile(r"\b(pay|paid)\s+for\s+(?=(?:the\s+)?[A-Z])")
"""What was paid for a business named ('pay for Fenmoor'): what it cost to acquire it."""
_SHORT_NAME = re.compile(r"\b(?![A-Z]{2,}s\b)[A-Z][a-z]{0,2}[A-Z][A-Za-z]{0,2}\b(?<![A-Z]{2})")
"""A short name written with a capital inside ('JnJ', 'AmEx'): a company's, never a measure's ('EBITDA', 'EPS'
are capitals throughout, 'MAUs' the plural of capitals)."""
_CAUSE = re.compile(r"(?i)\b(?:as\s+a\s+result\s+of|resulting\s+from|arising\s+from|because\s+of|owing\s+to)\b.*$"
                    r"|\b(?:accruing|accrued)\s+to\b(?:\s+(?:the\s+company|it|them)\b)?"
                    r"|\b(?:on|from)\s+(?:the\s+)?(?:sale|split-?off|spin-?off|divestiture|disposal|separation|"
                    r"exit)\s+of\s+(?:(?:its|the|their)\s+)?(?-i:[A-Z]).*$")
"""What a measure is owed to or caused by ('accruing to JnJ', 'as a result of the separation of …', 'on the
split-off of its Food Safety Division business'): the measure is what comes before."""


def _name_forms(companies: Sequence[str]) -> set[str]:
    """How a question may write each company: its name, or its leading words ('Rheinfeld' for Rheinfeld
    Antriebstechnik, 'MGM Resorts' for MGM Resorts International), two letters at least, or the initials of a
    name of two words joined by '&' ('J&J')."""
    joined = {f"{a[0]}&{b[0]}".upper() for company in companies
              if (m := re.fullmatch(r"\s*(\w+)\s+(?:&|and)\s+(\w+)\s*", company)) for a, b in [m.groups()]}
    return {n for company in companies for k in range(1, len(company.split()) + 1)
            if len(n := " ".join(company.split()[:k])) >= 2} | joined  # ('J&J' for Johnson & Johnson)


def without_short_names(text: str, companies: Sequence[str]) -> str:
    """The text without the short names a question writes for a company ('JnJ', 'AmEx', 'JPM', 'MGM') and the
    other name it writes beside the company's in brackets ('Square (Block)', 'Block (formerly Square)'): what the
    measure reader and the sentence reader's key words leave out."""
    return _short_names_of(without_other_names(_SHORT_NAME.sub(" ", text), companies), companies)


_BESIDE = re.compile(r"(?P<a>(?!(?:Did|Does|Do|Is|Are|Was|Were|What|Which|How|Has|Have|Had|When|Where|Who|Why|"
                     r"Will|Can|In|For)\b)[A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*){0,3})\s*\(\s*(?:(?:formerly|now|previously|"
                     r"f/k/a|aka)\s+)?(?P<b>[A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*){0,3})\s*\)")


def without_other_names(text: str, companies: Sequence[str]) -> str:
    """The text without a pair of names of which one is a company's ('Square (Block)': Block's former name): no
    word of a measure, nor a search term, since each branch searches one company's reports."""
    from app.text.companies import normalize_name

    names = {n for c in companies if (full := normalize_name(c)) for n in (full, full.split()[0])}

    def company_pair(match: re.Match[str]) -> str:
        # the whole of one side is the company's name: not "Larchmont's Latin America (LatAm)", its division
        return " " if any(normalize_name(match.group(g)) in names for g in ("a", "b")) else match.group(0)

    return _BESIDE.sub(company_pair, text)


def _short_names_of(text: str, companies: Sequence[str]) -> str:
    """The text without the capitals that stand for a named company: its first word's start ('JPM' for JPMorgan
    Chase, 'MGM' for MGM Resorts International) or its words' initials ('AXP' aside)."""
    from app.text.companies import normalize_name

    heads = [normalize_name(c).split() for c in companies]
    heads = [words for words in heads if words]

    def stands_for(token: str) -> bool:
        low = token.lower()
        return any(len(low) >= 3 and (words[0].startswith(low) or "".join(w[0] for w in words) == low)
                   for words in heads)

    return re.sub(r"\b[A-Z]{3,6}\b", lambda m: " " if stands_for(m.group(0)) else m.group(0), text)


MARGIN_NAME = r"(?:gross|operating|net|ebitda|ebit|profit)\s+margin"
"""A margin by name ('gross margin'), whose rate reports give as its percentage ('Gross margin percentage')."""
_SPENT_ON = re.compile(r"(?i)\b(?:spend|spends|spent|spending|pay|pays|paid|paying)\s+(?:on|in|for)\s+(?:its\s+)?"
                       r"(?P<what>interest|income\s+taxes|taxes)\b(?!\s+(?:expense|cost|payment)s?\b)")
"""What a company spends on interest or taxes, asked by the verb ('spend on interest'): that line's expense, not
the interest it earned (the other lines it spends on are named by their own words)."""
_PAID_AS = re.compile(r"(?i)\b(?:pay|paid|paying|return|returned|distribute|distributed|give|gave)\s+(?:(?:back\s+)?to\s+"
                      r"(?:its\s+|the\s+)?(?:shareholders|stockholders|investors)\s+)?(?:out\s+)?(?:in|as|through|via|"
                      r"by\s+way\s+of)\b"
                      r"(?!\s+(?:(?:the\s+)?(?:fiscal|financial)\s+(?:year\s+)?|FY\s?)?(?:19|20)\d{2}\b)")
"""The verb of 'how much did X pay in dividends' or 'return to shareholders through dividends': what was paid
follows it."""


_BOUGHT_BACK = re.compile(r"(?i)\b(?:of\s+)?(?:its\s+|their\s+)?(?:own\s+)?(?:common\s+|ordinary\s+)?(?:stock|shares)\s+"
                          r"(did|does|do|has|have|had|will|would)\s+(.{1,60}?)\s+(?:buy\s*-?\s*back|bought\s+back|"
                          r"repurchased?)\b")
"""'How much stock did Amcor buy back': the share repurchases a report states ('we repurchased approximately $431
million … or 41 million shares'), not a measure of 'stock'."""
_DEED_BROUGHT = re.compile(r"(?i)\b(how\s+much\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:did|does|do|will|would|could)\s+"
                           r"(?:the|its|this|that|their)\s+(?-i:(?![A-Z]))"
                           r"(?![\w-]+(?:\s+[\w-]+)?\s+(?:segment|business|division|unit|arm)s?\b)"
                           r"[\w-]+(?:\s+[\w-]+)?\s+(?:bring\s+in|generate|raise|fetch|"
                           r"yield|produce|provide|realise|realize|earn)\b")
"""'How much net cash did the sale bring in': what a deed brought in is the measure; the deed is its subject. A
part of the company as the subject ('did its Flexibles segment earn') is the member asked, not a deed."""
_POINTED_AT = re.compile(r"(?i)\b(?:that|this|these|those)\s+(?:orders?|deals?|contracts?|agreements?|acquisitions?|"
                         r"transactions?|projects?|announcements?|purchases?|sales?\s+agreement|awards?|"
                         r"investments?|plants?|facilit(?:y|ies)|programmes?|programs?)\s+(?=(?:compares?|stacks?\s+up|"
                         r"measures?\s+up)\b|(?:(?:is|was|are|were)\s+)?(?:bigger|larger|smaller|higher|lower|greater)\b)")
"""A thing an earlier turn named, pointed at as one side of a comparison ('that order', 'this deal'): no part of
the measure asked of the report ('How does that order compare with Helio's FY2024 Battery Storage revenue?' asks
of revenue; 'What was the value of that order?' still asks of the order)."""


_YEAR_BEFORE = re.compile(r"(?i)\b(?:(?:versus|vs\.?|compared\s+(?:with|to)|against|from)\s+)?(?:(?:the\s+same\s+"
                          r"(?:quarter|period|month|half)\s+)?(?:a|one|the)\s+(?:year|quarter)\s+(?:earlier|before|"
                          r"ago|prior)\b|the\s+(?:prior|previous)[- ]year\s+(?:quarter|period|half)\b|"
                          r"the\s+(?:year|quarter)[- ](?:earlier|ago)\s+(?:quarter|period|half|year)\b)")
LEAVING_OUT = r"(?:leaving\s+out|excluding|setting\s+aside|not\s+counting|apart\s+from|aside\s+from)"
"""The words that open what a question leaves out ('Leaving out related expenses …, how much …')."""
LEFT_ASIDE = r"(?:leaving|setting|putting)\s+(?P<aside>[^,?]{3,80}?)\s+aside"
"""What a question's lead sets aside, named before 'aside' ('Leaving bitcoin aside, by how much …')."""
_OCCASION_FIRST = re.compile(r"(?i)^\s*(?:(?:after|following|since|before|upon|once|under|pursuant\s+to|per|"
                             rf"according\s+to|{LEAVING_OUT})\s+[^,?]{{3,100}}|{LEFT_ASIDE}|"
                             # 'On the recast continuing-operations figures it published after the split,': a basis
                             r"on\s+(?:the|its|their)\s+[^,?]{0,60}\b(?:figures|numbers|basis|results)\b[^,?]{0,80}),\s*"
                             r"(?=(?:how|what|which|who|when|did|does|do|has|have|had|was|were|is|are|by\s+how)\b)")
"""An occasion said before the question ('After completing the Kenvue separation, how much cash …', 'Under the
employment agreement it signed with its incoming CEO, what is her target bonus …'): no measure."""
_HEDGE_OPENING = re.compile(r"(?i)^\s*(?:approximately|roughly|about|around|nearly|exactly|precisely)\s+"
                            r"(?=(?:how|what|which)\b)")


_PLACED_IN_REGION = re.compile(rf"(?i)\b(?:sales|revenues?|customers|operations)(?P<where>"
                               rf"(?:\s+(?:did|does|do|was|were|is|are|has|have|had)\s+(?:[\w&.'’-]+\s+){{0,3}}?"
                               rf"(?:generated?|earn(?:ed)?|make|made|record(?:ed)?|report(?:ed)?|book(?:ed)?|bring|"
                               rf"brought)(?:\s+in)?)?"
                               rf"\s+(?:in|from)\s+(?:the\s+)?)(?P<region>{REGION_NAMES})(?:\s+(?:region|market|area))?"
                               rf"(?![\w.])")
"""Where a question places its measure in a region ('sales to customers in Europe', 'revenues from the
Americas', 'How much revenue did it generate in EMEA'): the region and the words that place it."""


_NAMED_BY_INITIALS = re.compile(r"(?P<name>[A-Z][\w&.-]*(?:,?\s+(?:[A-Z][\w&.-]*|and|&|of|the))*)\s*"
                                r"\((?P<initials>[A-Z][A-Z&]{1,9})\)")


def _by_initials(found: re.Match[str]) -> str:
    """A name with its initials in brackets, written as the initials (tables name the part so: 'AMESA'); the
    name left as it is when the bracket holds no initials of it."""
    initials = "".join(w[0] for w in re.findall(r"[A-Z][\w&.-]*", found.group("name")))
    return found.group("initials") if initials and initials[0] == found.group("initials")[0] and \
        set(found.group("initials").replace("&", "")) <= set(initials) else found.group(0)


_REGION_LEADS = re.compile(rf"(?i)(?<![\w.&])(?P<region>{REGION_NAMES})(?![\w&])\s+(?=(?:net\s+|total\s+|segment\s+)?"
                           rf"(?:sales|revenues?|turnover|operating\s+(?:income|profit)|customers|employees|"
                           rf"headcount|stores)\b)")
"""A region written before the measure as a name ('U.S. sales', 'Europe revenue')."""


_WITHIN_PARENT = re.compile(r"\b(?:in|within|inside)\s+(?:the|its)\s+"
                            r"(?P<name>[A-Z][\w&.'’-]*(?:\s+(?:&\s+|and\s+|of\s+)?[A-Z][\w&.'’-]*){0,4})"
                            r"(?:\s+(?:segment|division|business|unit)s?)?")
"""The part of the company a member asked belongs to, named after the measure ('in the Corporate & Investment
Bank')."""


_SOLD_IN_REGION = re.compile(rf"(?i)\b(?:sell|sold)\s+(?:in|to\s+customers\s+in)\s+(?:its\s+|the\s+)?"
                             rf"(?P<region>{REGION_NAMES})(?:\s+(?:geographic\s+)?(?:area|region|market|segment))?"
                             rf"(?![\w.])")
"""What a company sold in a region ('sell in its Asia Pacific geographic area'): the region is the member asked."""


def implied_words(question: str, companies: Sequence[str], keywords: str) -> list[str]:
    """The words of the measure and member a question asks (`measure_asked`) that its own words do not say: 'net
    income' of 'What did X's Commercial Banking segment earn', 'net sales' of 'How much did X sell in Asia
    Pacific', 'International' of 'revenue from outside the United States'; none when the question says them
    all."""
    by_verb_or_place = bool(_EARNED.search(question) or ABROAD.search(question))
    if not by_verb_or_place and not re.search(r"(?i)\b(?:sell|sold)\b", question):
        return []
    asked = measure_asked(question, companies)
    if not by_verb_or_place and asked.phrase != "net sales":
        return []  # 'Is it looking to sell its franchise business?': a deal, no amount sold
    said = {w.casefold() for w in re.findall(r"[\w&'’-]+", keywords)}
    return [w for w in f"{asked.phrase} {asked.segment or ''}".split() if w.casefold() not in said]


def measure_asked(question: str, companies: Sequence[str] = ()) -> MeasureAsked:
    """The measure the question asks about (see MeasureAsked): the asked sentence without its lead-in, company
    names, dates and periods, segment and question words."""
    from app.knowledge.analyzer import analyze
    from app.text.dates import read_dates
    from app.text.periods import end_worded, into_year_as_end

    # 'at the close of fiscal 2017': its end; 'going into fiscal 2016': the end of fiscal 2015
    text = into_year_as_end(end_worded(first_part(asked_sentence(question))))
    if lead := ranking_lead(question):
        text = f"What was the {lead}?"  # 'Looking at 2022 capital spending by business segment, where …
    text = without_other_names(text, companies)  # 'Square (Block)': the company's other name, no word of the measure
    text = _HEDGE_OPENING.sub("", text)  # 'Approximately how many people …': no segment named 'Approximately'
    text = re.sub(r"^\s*,\s*", "", SPECIAL_ITEMS_OUT.sub(" ", text))  # 'Stripping out special items,': adjusted (below)
    # 'How profitable was its pet food business': the part's operating profit
    text = PART_PROFITABLE.sub(lambda m: f"What was {m.group('subject')} operating profit", text)
    basis = _ON_BASIS.search(text)  # 'grew revenue fastest on an organic basis': organic revenue (below)
    text = _ON_BASIS.sub(" ", text)
    text = TURNED_INTO.sub(" ", text)  # 'turn its 2022 revenue growth into higher pretax profit': the profit
    text = _OCCASION_FIRST.sub("", text)  # 'After completing the Kenvue separation, how much cash …': when, not what
    text = _OVER_PERIOD.sub(" ", text)  # 'the year-over-year change in its SG&A': the change asked, no measure
    text = _KIND_OF_MEASURE.sub(" ", text)  # "PepsiCo's free cash flow, a non-GAAP measure, …": what it is, no name
    text = _YEAR_BEFORE.sub(" ", text)  # '… compared with the same quarter a year earlier': a period, no measure
    text = _CONSTRAINTS.sub(" ", text)  # 'to the nearest whole percent', 'in the company's reporting currency'
    text = without_source(text)  # 'according to its quarterly report'
    text = ABROAD.sub(r"\g<by> International", text)  # 'revenue came from outside the United States'
    text = LEFT_OUT.sub(" ", text)  # 'Outside the United States, which region …': a member left out, none asked
    text = SET_IN.sub(" ", text)  # 'the minimum base salary set in its employment agreement with its incoming CEO'
    text = _TOOK_MORE_IN.sub(" ", text)  # 'Did Costco collect more in membership fees': the fees, compared
    text = _HOW_LARGE.sub("how much ", text)  # 'how large is her cash sign-on bonus'
    text = _SIZE_OF.sub(" ", text)  # 'What was the size of its revolving credit agreement': the agreement's amount
    text = _CITY_AND_STATE.sub(r"\1", text)  # 'in Irvine, California': the city; a report may write 'Irvine, CA'
    text = _BUYING_BACK.sub("share repurchases", text)  # 'spend buying back its own shares': the repurchases
    text = _OWN.sub(r"\1", _SPENT_DOING.sub(r"\1 on", text))  # 'spend buying bitcoin for its own balance sheet'
    text = _PAID_FOR_NAME.sub(r"\1 to acquire ", text)  # 'What did it pay for Fenmoor?': the price of acquiring it
    text = _NAMED_BY_INITIALS.sub(_by_initials, text)  # 'Africa, Middle East and South Asia (AMESA)': 'AMESA'
    text = re.sub(r"\([^)]*\)", " ", text)  # asides: '(in units of percents)', '(TSE 6597)'
    text = _POINTED_AT.sub(" ", text)  # 'How does that order compare with …': what an earlier turn named
    text = _BOUGHT_BACK.sub(r"share repurchases \1 \2", text)  # 'How much stock did Amcor buy back'
    text = _DEED_BROUGHT.sub(r"\1", text)  # 'how much net cash did the sale bring in': the cash, not the sale
    text = _BY_WHAT.sub(" ", text)  # 'By what percentage did its net revenues change': the revenues' change
    text = THRESHOLD.sub(" ", text)  # 'Did its annual revenue top $10 billion': the revenue, not 'top'"
    held_by = None
    if held := _HELD_WITH.match(text):  # 'Of the cash it held at June 30, how much sat with MGM China?'
        held_by, text = held.group("part"), f"How much {held.group('measure')}?"
    named_after = _segment_after_name(text, companies)
    names = _name_forms(companies)
    for name in sorted(names, key=len, reverse=True):
        text = re.sub(rf"(?i)\b{re.escape(name)}(?:['’]s?)?(?=\W|$)", " ", text)
    # a ticker or short name as owner ("WGM's", "JnJ's"); not a venture named after the company ("BetMGM's" of MGM)
    text = re.sub(r"\b[A-Z][A-Za-z]{1,5}['’]s\b", lambda m: m.group(0) if _named_after(m.group(0), names) else " ",
                  text)
    text = without_short_names(text, companies)  # 'the gain accruing to JnJ': a short name is no measure word
    text = _GOT_CLAUSE.sub(" ", text)  # 'the cash proceeds that JnJ realised from …': the proceeds
    # 'How much office space did Activision Blizzard lease': what it leases, not the leasing
    text = re.sub(r"(?i)\b(did|does|do)\s+(?:(?:it|they|the\s+company)\s+)?(?:lease|rent|occupy)\b", r"\1", text)
    text = _HOLDER_CLAUSE.sub(" ", text)  # 'How much floor space do Costco's warehouses contain?': the space
    text = _CAUSE.sub(" ", text)  # 'the gain … as a result of the separation of its Consumer Health segment'
    text = _EXPECTED_TO_BOOK.sub(" ", text)  # 'What tax charge did it expect to book': the charge, not the booking
    segment, text = _segment_named(text)
    if segment is None and (lead := _REGION_LEADS.search(text)) and lead.group("region")[:1].isupper() \
            and not re.search(r"[A-Z][\w&'’-]*\s+$", text[:lead.start()]):  # (not 'Trans-Freight North America')
        # 'U.S. sales', 'Europe revenue': the region named before the measure is the member asked
        segment, text = lead.group("region"), text[:lead.start()] + " " + text[lead.end():]
    part = _PART_CONTRIBUTES.search(text) if segment is None else None
    group = ("name" if part.group("name") else "source") if part else ""
    if part and not _names_company(part.group(group), companies):
        # 'What share of net sales did Rigid Packaging account for': the part whose share is asked
        start = part.start(group) if group == "name" else part.start()  # ('came from' goes with its part)
        # (and the verb that makes it the subject: 'account for' names no measure)
        end = part.end() if group == "name" else part.end(group)
        if group == "source" and (kind := re.match(r"(?i)\s+(?:franchises?|brands?|segments?|business(?:es)?|"
                                                    r"divisions?|units?)\b", text[end:])):
            end += kind.end()  # ('came from the Call of Duty franchise': the kind of part is no word of the measure)
        segment, text = part.group(group), text[:start] + " " + text[end:]
    if segment is None and held_by:
        segment = held_by
    if segment is None and named_after:
        segment, text = named_after, re.sub(rf"\b{re.escape(named_after)}(?:['’]s?)?(?=\W|$)", " ", text, count=1)
    if segment is None and (sold_in := _SOLD_IN_REGION.search(text)) is not None:
        # 'How much did 3M sell in its Asia Pacific geographic area': the region's net sales
        segment, text = sold_in.group("region"), text[:sold_in.start()] + " sell " + text[sold_in.end():]
    if segment is None and (placed := _PLACED_IN_REGION.search(text)) is not None:
        # 'sales to customers in Europe': the region is the member asked, the sales to customers the measure
        segment, text = placed.group("region"), text[:placed.start("where")] + " " + text[placed.end():]
    text = _STATEMENT_NAMES.sub(" ", text)
    # 'How much more did it spend on interest': its interest expense ('paying in interest', 'spent on taxes')
    text = _SPENT_ON.sub(lambda m: " income tax expense " if "tax" in m.group("what").lower()
                         else f" {m.group('what')} expense ", text)
    # 'Is it earning better returns on its capital?': its return on invested capital
    text = _RETURNS_ON_CAPITAL.sub(" return on invested capital ", text)
    paid = _PAID_AS.search(text)
    if paid and re.search(r"(?i)\b(?:did|does|do|has|have|had|will|would|is|are|was|were)\b", text[:paid.start()]):
        text = text[:paid.start()] + " " + text[paid.end():]  # 'did X pay in dividends': the dividends (not 'CEO pay')
    parent = _WITHIN_PARENT.search(text)
    text = read_dates(text)[2]
    text = re.sub(r"(?i),?\s*\b(?:going|judging)\s+by\b(?=\s+(?:the|its|their)\b)", " ", text)  # '…, going by the
    text = _PERIOD_PHRASES.sub(" ", text)  # June 2023 quarter': the period it reads the answer from
    # an adjusted measure's growth is a figure the company states ('organic revenue growth 14.3%'), not a change
    # to be computed from two periods of a level no statement gives
    stated_growth = bool(names_adjusted(text) and re.search(r"(?i)\bgrowth\b", text))
    # 'Whose operating profit grew faster': the growth of each is compared
    stated_growth = stated_growth or bool(re.search(
        r"(?i)\b(?:gr[eo]wn?|grows|growing|rose|risen|increased?)\s+(?:[\w'’-]+\s+){0,4}?(?:faster|slower|quicker|more\s+"
        r"quickly|more\s+slowly)\b", text))
    text = _metric_before_subject(text)
    # the company as a verb's subject is no measure word ('how much cash … does the company hold')
    text = re.sub(r"(?i)\b(did|does|do|has|have|had|will|would|is|was)\s+the\s+(?:company|group|firm)\b(?!['’])", r"\1", text)
    text = _POINTS.sub(" how much ", text)  # 'by how many percentage points did the margin improve': a unit
    text = _ASK_WORDS.sub(" ", text)
    # 'Which company had higher revenue': the companies compared are no part of the measure
    text = re.sub(r"(?i)^\s*(?:(?:which|who|whose)\s+(?:(?:of\s+the\s+)?(?:two\s+)?(?:compan(?:y|ies)|firms?|groups?|"
                  r"businesses|one|of\s+them|of\s+the\s+two))\b(?:['’]s\b)?|who(?:se)?\b)", " ", text)
    count = re.search(r"(?i)\bhow\s+many\s+(?P<noun>(?:[\w-]+\s+){0,5}?[\w-]+?)(?=\s+(?:did|does|do|has|have|had|"
                      r"is|are|was|were|will|would)\b)", text)
    if count is None and (made := re.search(r"(?i)\bhow\s+many\s+(?P<noun>(?:[\w-]+\s+){0,5}?[\w-]+?)\s+(?:make\s+up|"
                                            r"made\s+up|comprise|constitute|form)\b", text)):
        # 'how many hotel and gaming destinations make up the company's portfolio': the things counted, the whole
        # they make up no word of the measure
        text = text[:made.end("noun")] + " do it have?"
        count = re.search(r"(?i)\bhow\s+many\s+(?P<noun>(?:[\w-]+\s+){0,5}?[\w-]+?)(?=\s+do\b)", text)
    if count is None:  # 'the Total number of employees', 'the Number of patents': a count as a form names it
        count = re.search(r"(?i)\bnumber\s+of\s+(?P<noun>(?:[\w-]+\s+){0,2}?[\w-]+?)(?=\s+(?:for|of|in|at|as|"
                          r"by|on|during|within|over|from|to|between|change[ds]?|did|does|do|has|have|had|is|are|was|"
                          r"were)\b|\s*[?.]|\s*$)", text)
    if count is not None and (how_many_money(count.group(0)) or how_many_points(count.group(0))):
        count = None  # 'By how many euros did … fall': an amount of money, not a count of things
    # what was done to them counts too: 'how many machine tools did it deliver' is not how many it ordered
    holder = _COUNT_HOLDER.match(text[count.end():]) if count and segment is None else None
    if holder and not _names_company(holder.group("name"), companies) and not is_measure_word(holder.group("name")):
        # 'How many monthly active users does King have?': a part of the company that has the things counted
        segment = holder.group("name")
        text = text[:count.end() + holder.start("name")] + text[count.end() + holder.end("name"):]
    verb = re.match(r"\s+(?:did|does|do|will|would)\s+(?:(?:the|its|their|it|they)\s+)?(?P<verb>[a-z]{3,})\b",
                    text[count.end():]) if count else None
    # ('the 364-day credit agreement': a number joined to its word names the thing, as a word of its own)
    text = LOST_SALES.sub(r"\g<head>", _RESULT_VERB.sub(r"\g<head>", text))  # 'How much contribution profit did it squeeze out of its DVD …'
    tokens = re.findall(r"(?:\d+-)?[A-Za-z][\w&'-]*|/", text)
    content = [t != "/" and t.lower().strip("'") not in _SCAFFOLD for t in tokens]
    for i in range(1, len(tokens)):  # 'book value', 'order book': scaffold words that are a measure's own here
        pair = f"{tokens[i - 1]} {tokens[i]}".lower()
        if _COMPOUND_MEASURE.fullmatch(pair):
            content[i - 1] = content[i] = True
    # a joining word between two words of the measure stays: 'cash flow from operations', 'cost of sales'
    words = [t for i, t in enumerate(tokens) if content[i] or (
        t.lower() in _JOINING and 0 < i < len(tokens) - 1 and content[i - 1] and content[i + 1])]
    phrase = " ".join(words)
    if conventional := conventional_measure(question):
        phrase = conventional
    if phrase and count is None and not names_adjusted(phrase) and SPECIAL_ITEMS_OUT.search(question):
        phrase = f"adjusted {phrase}"  # 'Stripping out special items, what pre-tax profit …': the adjusted one
    if phrase and basis and names_adjusted(basis.group("basis")) and not names_adjusted(phrase):
        phrase = f"{basis.group('basis').lower()} {phrase}"  # 'on an organic basis': organic revenue
    if count is not None:  # 'Total number of employees' counts employees: the scaffold of the count is no measure
        phrase = re.sub(r"(?i)^(?:(?:the|total|overall)\s+)*number\s+of\s+", "", phrase).strip() or phrase
        # nor is the verb that says only that the company has them ('How many stores does X operate?')
        phrase = _PLAIN_VERB_AT_END.sub("", phrase) or phrase
        if not set(analyze(count.group("noun"))) & set(analyze(phrase)):
            phrase = f"{count.group('noun')} {phrase}".strip()  # 'How many units did it sell': units, sold
    phrase = _GOVERNING.sub("", phrase)  # 'did its Board raise the dividend': who decided, no part of the company
    if segment is None and (named := _NAME_LEADS.match(phrase)) and _subject_of_question(named.group("name"), question):
        phrase = phrase[named.end("name"):].strip() or phrase  # ('Did Square have to …': the company, no measure word)
    if segment is None and (named := _NAME_LEADS.match(phrase)) and not all(
            is_measure_word(w) for w in re.split(r"[\s-]+", named.group("name"))) \
            and not _names_company(named.group("name"), companies) \
            and not _subject_of_question(named.group("name"), question):
        # a part of the company named before the measure ("Block's Cash App revenue", 'Frito-Lay North America
        # net revenues'): a name of its own leads the measure's words
        segment = re.sub(r"^.*['’]s\s+", "", re.sub(r"['’]s?$", "", named.group("name")))  # (an owner's 's off)
        phrase = phrase[named.end("name"):].strip()
    elif segment is None and (named := _INITIALS_LEAD.match(phrase)) and not is_measure_word(named.group("name")) \
            and not _names_company(named.group("name"), companies) and _is_line_item(phrase[named.end("name"):]):
        # a division named by its initials before a line item ("PepsiCo's PBNA net revenue"); an initialism
        # before what is no line item is a measure's own ('CEO pay', 'NPAT margin')
        segment, phrase = named.group("name"), phrase[named.end("name"):].strip()
    if segment is not None and parent is not None and not re.fullmatch(rf"(?i){REGION_NAMES}", parent.group("name")):
        # 'Investment Banking revenue in the Corporate & Investment Bank': the part the member belongs to is no word
        # of the measure
        words = [w for w in re.findall(r"[\w.'’-]+", parent.group("name")) if w[:1].isupper()]
        kept = re.sub(rf"(?:\s+(?:{'|'.join(map(re.escape, words))}))+\s*$", "", phrase) if words else phrase
        phrase = kept if kept.strip() else phrase
    phrase = _spelled_initials(phrase)
    # 'gross margins, as a share of net sales': the margin's rate, which reports name its percentage (of sales)
    phrase = re.sub(rf"(?i)^(?P<margin>{MARGIN_NAME})s?\s+(?:share|percentage|percent)\s+of\s+(?:total\s+|net\s+)?"
                    r"(?:sales|revenues?)$", r"\g<margin> percentage", phrase)
    # 'its single biggest source of revenue': a kind of the revenue, ranked by the revenue
    phrase = re.sub(r"(?i)^(?:single\s+)?(?:(?:biggest|largest|greatest|main|top|smallest)\s+)?(?:sources?|drivers?|"
                    r"contributors?)\s+(?:of|to)\s+(?=\w)", "", phrase)
    # what a company sets aside for losses is its provision for them ('Did it have to set aside more for
    # transaction losses')
    phrase = re.sub(r"(?i)^set\s+aside\s+(?:for\s+)?(?=\w)", "provision for ", phrase)
    if stated_growth and not re.search(r"(?i)\bgrowth\b", phrase):
        phrase = f"{phrase} growth"
    if segment:  # "J&J's Vision franchise sell": the kind of part named is no word of the measure
        phrase = re.sub(r"(?i)^(?:franchise|business|segment|division|unit|brand|arm)s?\s+(?=\w)", "", phrase)
    if count is None and PART_PERFORMED.search(asked_sentence(question)):
        # 'How did its consumer health business do', 'How did its Pharmaceutical segment perform': what the part
        # sold, first of all
        performed = re.fullmatch(r"(?i)(?P<part>[\w&'’-]+(?:\s+[\w&'’-]+){0,2}?)\s+(?:business|segment|division|"
                                 r"franchise|unit|arm)s?", phrase) if segment is None else None
        if performed is not None:
            segment, phrase = performed.group("part"), "net sales"
        elif segment and re.fullmatch(r"(?i)(?:do|done|doing|perform\w*|far(?:e|ed|ing))?", phrase):
            phrase = "net sales"
    if re.fullmatch(r"(?i)sell|sold", phrase) and count is None:
        phrase = "net sales"  # 'How much did its U.S. Cereal operating unit sell': what it sold is its net sales
    elif phrase in ("", "money") and count is None and _EARNED.search(first_part(asked_sentence(question))):
        phrase = "net income"  # 'What did its Commercial Banking segment earn in 1Q21?': what it earned, its profit
    elif re.fullmatch(r"(?i)before\s+(?:income\s+)?tax(?:es|ation)?", phrase) and count is None \
            and _EARNED.search(first_part(asked_sentence(question))):
        phrase = "income before tax"  # 'What did its pharma segment earn before tax': its pretax income
    if segment is None and ABROAD.search(first_part(asked_sentence(question))) \
            and re.search(r"\bInternational$", phrase) and phrase != "International":
        # 'net sales outside the United States': the member reports name 'International' or 'Non-United States'
        segment, phrase = "International", phrase.removesuffix("International").strip()
    # ('… sales in the region, and how did they compare …': a pronoun of the second part is no word of the measure)
    phrase = " ".join(re.sub(r"(?i)\b(?:they|them|those|these)\b", " ", phrase).split()) or phrase
    if segment:  # 'U.S. Cereal operating unit': the kind of unit is no part of its name
        segment = re.sub(r"\s+(?:operating|reporting|reportable|business)$", "", segment) or segment
    done = verb.group("verb") if verb and verb.group("verb") not in _PLAIN_VERBS else ""
    # ('how many of Costco's employees': the employees, the company's name out)
    noun = " ".join(re.sub(r"(?i)^of\s+", "", count.group("noun").strip()).split()) if count else ""
    return MeasureAsked(phrase=phrase, stems=frozenset(analyze(f"{phrase} {done}")), segment=segment,
                        count_noun=noun)


LOST_SALES = re.compile(
    r"(?i)^(?P<head>\s*how\s+much\s+(?:[\w&'’-]+\s+){0,4}?(?:revenues?|sales|turnover|volumes?|bookings|"
    r"market\s+share)\s+(?:did|has|have|had|does|do)\s+(?:[\w&'’.-]+\s+){0,4}?)"
    r"(?P<verb>lose|lost|shed|give\s+up|gave\s+up|forgo|forgone)\b")
"""'How much console revenue did Activision Blizzard lose in 2019?': the fall of the sales named, a change."""
_RESULT_VERB = re.compile(
    r"(?i)^(?P<head>\s*how\s+much\s+(?:[\w&'’-]+\s+){0,4}?(?:profits?|income|earnings|revenues?|sales|turnover|"
    r"ebitda|ebit|margins?)\s+(?:did|does|do|will|would|has|have|had)\s+)"
    r"(?P<verb>(?:(?:still|actually|really|also|even|just|ultimately|then|manage\s+to)\s+)*"
    r"(?!(?:expect|anticipate|forecast|project|guide|target|plan|budget|lose|lost|forgo|defer|exclude|include|owe|"
    r"need|require|give|cede|sacrifice|miss|write|wrote)\w*\b)[a-z]+(?:\s+(?:out|in|up|off|away|home))?)"
    r"(?=\s+(?:of|from|in|at|on|for|during|by|through|across|over|within)\b|\s*[?.,]|\s*$)")
"""The verb of 'How much contribution profit did it still squeeze out of …', 'How much operating income did it
rake in during 2022': a result's amount asked with a verb that says only that it was made, no word of the measure
(not one that asks of another amount: 'expect', 'lose', 'give up')."""


def count_verb(question: str) -> str:
    """The verb a count question asks its things by ('How many parlors does it operate': 'operate'), plain verbs
    included; '' when it names none."""
    asked = first_part(asked_sentence(question))
    found = re.search(r"(?i)\bhow\s+many\b.*?\b(?:did|does|do|will|would)\s+(?:[\w&'’.-]+\s+){1,4}?([a-z]{3,})\s*"
                      r"(?:[?,.]|\b(?:at|in|on|by|as|during|for|within|over|across|worldwide|globally|today)\b|$)",
                      asked)
    return found.group(1).lower() if found else ""


_EARNED = re.compile(r"(?i)^\s*(?:what|how\s+much(?:\s+money)?)\s+(?:did|does|do|has|have|had|will)\b[^?]*?\b"
                     r"(?:earn|make)\b")
"""'What did X earn', 'How much money did X make': a result, its net income, with no measure named."""
_COMPOUND_MEASURE = re.compile(r"(?:book|fair|carrying|market|enterprise|asset|face|residual|present|intrinsic|"
                               r"notional|contract|transaction)\s+value|order\s+book")
"""Two words that name one measure though each alone is a question's scaffold ('what value did it book')."""

_CONVENTIONS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    # what shareholders would get per share if the company were wound up: the equity per share that assets
    # would fetch, goodwill and intangibles (worth nothing in a liquidation) left out
    (re.compile(r"(?is)\b(?:liquidat|wound\s+up|wind\s+up|winding\s+up|bankrupt)\w*\b.*\b(?:each|every|per|a)\s+"
                r"(?:common\s+)?(?:share(?:holder)?|stockholder)s?\b|\b(?:each|every|per|a)\s+(?:common\s+)?"
                r"(?:share(?:holder)?|stockholder)s?\b.*\b(?:liquidat|wound\s+up|wind\s+up|bankrupt)\w*"),
     "tangible book value per share",
     "What shareholders would get per share if the company were wound up is conventionally estimated by its "
     "tangible book value per share: common equity less goodwill and other intangible assets, which a sale of the "
     "assets would not fetch, per common share, before any costs of the liquidation."),
    # what a borrower pays its lenders to keep a credit line open while it draws nothing on it
    (re.compile(r"(?is)\b(?:pay|paying|pays|paid|cost|costs)\b.{0,80}\b(?:keep|keeping|have|having|hold|holding)\b"
                r".{0,80}\b(?:available|open|committed|undrawn|unused)\b|\b(?:undrawn|unused)\s+(?:revolv\w*|credit|"
                r"facility|commitments?|lines?)\b.{0,60}\b(?:cost|fee|pay)\w*"),
     "commitment fee",
     "What a borrower pays to keep a credit line available while it draws nothing on it is the commitment fee its "
     "credit agreement sets on the unused commitments."),
)
"""Questions that ask for a measure by what it means rather than by its name, with the measure analysts
conventionally read for it and that convention in words (ours, not a filing's: it states no figure)."""


def measure_convention(question: str) -> tuple[str, str] | None:
    """The measure a question asks for by what it means and the convention that reads it so, or None."""
    if _NAMED_LIQUIDATION.search(question):
        return None  # 'the liquidation preference per share of its preferred stock' is named, and no equity's
    return next(((measure, says) for pattern, measure, says in _CONVENTIONS if pattern.search(question)), None)


_NAMED_LIQUIDATION = re.compile(r"(?i)\bliquidation\s+(?:preference|value|price|amount)|\bpreferred\b")


def conventional_measure(question: str) -> str | None:
    """The measure a question asks for by what it means ('if it liquidated all its assets, how much could each
    shareholder get': tangible book value per share), or None."""
    convention = measure_convention(question)
    return convention[0] if convention else None


_WHAT_THEN_SUBJECT = re.compile(r"(?i)^\s*what\s+(?P<measure>(?:[\w&'’/-]+\s+){0,4}?[\w&'’/-]+)\s+(?:did|does|do|has|"
                                r"have|had|will|would)\s+\S")


def _metric_before_subject(text: str) -> str:
    """'What payout ratio did Helio's FY2024 dividend represent?': a metric named before its subject and verb is
    the measure; what follows says whose it is ('dividend represent' is no part of it). Only a metric or line
    item of the catalogue (app/metrics.py) counts: 'What percentage did revenue grow?' asks about revenue."""
    from app.metrics import find_metrics, items_named

    asked = _WHAT_THEN_SUBJECT.match(text)
    if asked is None:
        return text
    measure = asked.group("measure")
    if not find_metrics(measure) and not items_named(measure):
        return text
    return f"What {measure}?"


def how_many_money(question: str) -> bool:
    """Whether 'how many' asks for an amount of money ('By how many euros did …', 'how many million dollars'):
    its next one to four words are a currency, with or without a scale."""
    after = re.search(r"(?i)\bhow\s+many\s+(.*)", question)
    words = after.group(1).split()[:4] if after else []
    return any(_money_noun(" ".join(words[:k])) for k in range(1, len(words) + 1))


_POINTS = re.compile(r"(?i)\bhow\s+many\s+(?:percentage\s+points?|basis\s+points?|points?|bps|pp)\b(?!\s+of\b)")


def how_many_points(question: str) -> bool:
    """Whether 'how many' asks for a change in a rate ('By how many percentage points did the margin improve'):
    a unit, not a count of things."""
    return bool(_POINTS.search(question))


def _money_noun(noun: str) -> bool:
    """Whether a 'how many' noun is a currency, with or without a scale ('euros', 'million US dollars',
    'pounds sterling'): a question about an amount, not about how many things."""
    from app.text.units import CURRENCY

    words = " ".join(re.sub(r"(?i)\b(?:thousands?|millions?|billions?|of|sterling)\b", " ", noun).split())
    return bool(words) and re.fullmatch(CURRENCY, words, re.IGNORECASE) is not None


COUNT_QUALIFIER_WORDS = (r"total|full-(?:time)?|part-(?:time)?|permanent|temporary|regular|active|global|worldwide|"
                         r"direct|equivalent|and|or")
"""The words that only qualify a count's noun ('total', 'full-time', 'part-time', …)."""
COUNT_QUALIFIERS = rf"(?:(?:{COUNT_QUALIFIER_WORDS}),?\s+){{2,6}}"
"""A run of them ('35,000 full- and part-time employees')."""
_SAID_OTHERWISE = (
    (frozenset({"employe", "staff", "headcount", "workforc", "colleagu", "peopl", "personnel"}),
     "we employed approximately people employees worldwide workforce headcount"),
    (frozenset({"store", "shop", "outlet", "branch"}), "stores shops outlets branches locations"),
    (frozenset({"patent"}), "patents patent portfolio intellectual property"),
    (frozenset({"customer", "client", "subscrib"}), "customers clients subscribers accounts"),
)
"""How reports word a count the question names otherwise ('we employed approximately 315,000 people' for the
number of employees): the words a search adds for it."""


def counted_as(noun: str) -> frozenset[str]:
    """The analyzed words reports state a count of the noun with, when it is one `_SAID_OTHERWISE` knows: those
    of its group ('how many people did it employ' is answered by '35,000 … employees'); else none."""
    from app.knowledge.analyzer import analyze

    stems = analyze(noun)
    return frozenset().union(*(group for group, _ in _SAID_OTHERWISE if any(s.startswith(tuple(group)) for s in stems)))


def _named_after(word: str, names: Iterable[str]) -> bool:
    """Whether a word is another entity's name made from one of the company's ('BetMGM' from 'MGM'): it holds the
    name, as a part of itself, after other letters."""
    bare = re.sub(r"['’]s?$", "", word)
    return any(len(n) >= 2 and n.isupper() and n in bare[1:] and bare != n for n in names)


_COUNT_HOLDER = re.compile(r"\s+(?:did|does|do)\s+(?:its\s+|the\s+)?"
                           r"(?P<name>[A-Z][a-z][\w&'’.-]*(?:\s+(?:&\s+)?[A-Z][\w&'’.-]*){0,3})"
                           r"\s+(?:have|has|had|operate|run|own|employ|count|serve)\b")
"""The part of the company a count question says has the things counted ('does King have', 'does its Consumer
Banking unit operate' is read as a segment before this): a capitalised name that is no company's own."""


def _names_company(name: str, companies: Sequence[str]) -> bool:
    """Whether a name is a company's own, however it is run together ('Ulta Beauty' of 'ULTABEAUTY')."""
    flat = re.sub(r"[^a-z0-9]", "", re.sub(r"['’]s?$", "", name).casefold())
    return bool(flat) and any(flat in re.sub(r"[^a-z0-9]", "", c.casefold()) for c in companies)


_GOVERNING = re.compile(r"^(?:Board(?:\s+of\s+Directors)?|Directors|Management|Shareholders)\s+(?=[a-z])")
_NAME_LEADS = re.compile(r"^(?P<name>[A-Z][a-z][\w&'’-]*(?:\s+(?:[A-Z][a-z][\w&'’-]*|[A-Z]{2,5})){0,3})\s+(?=[a-z])"
                         r"(?!(?:and|or|of|to|for|on|in|at|by|per|from|as|vs)\b)")
"""Capitalised words that open a measure phrase, lower-case ones after them (not a joining word: 'Research and
Development costs' is one measure); an initialism may follow the first ('Domestic DVD revenues')."""


_INITIALS_LEAD = re.compile(r"^(?P<name>[A-Z]{2,5})\s+(?=[a-z])")


def _is_line_item(phrase: str) -> bool:
    """Whether a phrase is wholly one line item of the catalogue ('net revenue', 'operating profit')."""
    from app.metrics import resolve_item

    return resolve_item(phrase.strip().lower()) is not None


_INITIAL_SKIPS = frozenset({"and", "of", "the", "&", "for", "in"})


def name_initials(name: str) -> str:
    """The initials a report abbreviates a name of three words or more to ('Frito-Lay North America' → 'FLNA',
    'Global Commercial Services' → 'GCS', 'Africa, Middle East and South Asia' → 'AMESA'); '' for shorter names,
    whose initials are too short to tell apart."""
    words = [w for w in re.split(r"[\s,/-]+", name) if w and w.casefold() not in _INITIAL_SKIPS]
    if len(words) < 3 or not all(w[:1].isalpha() for w in words):
        return ""
    return "".join(w.replace(".", "") if re.fullmatch(r"(?:[A-Z]\.)+", w) else w[0].upper() for w in words)


def segment_wordings(question: str, companies: Sequence[str] = ()) -> str:
    """The measure with the initials a report writes the segment asked as ('FLNA net revenues' for
    'Frito-Lay North America net revenues'): tables name segments so; '' when there are none."""
    asked = measure_asked(question, companies)
    short = name_initials(asked.segment or "")
    return f"{short} {asked.phrase}".strip() if short else ""


def count_wordings(question: str, companies: Sequence[str] = ()) -> str:
    """The other words reports use for the things a count question counts ('' when it counts none of these); a
    count asked without 'how many', by one word that counts people ('its worldwide headcount'), too."""
    return _wordings_of(_counted_noun(measure_asked(question, companies)))


def _counted_noun(asked: MeasureAsked) -> str:
    """What a count question counts: its 'how many' noun, or a measure of one word that counts people ('the change
    in its headcount', 'its worldwide headcount'); '' for neither."""
    phrase = re.sub(rf"(?i)\b(?:{COUNT_QUALIFIER_WORDS})\s+", "", asked.phrase)  # 'total headcount': a headcount
    return asked.count_noun or (phrase if counted_as(phrase) and len(phrase.split()) == 1 else "")


def _wordings_of(noun: str) -> str:
    from app.knowledge.analyzer import analyze

    stems = set(analyze(noun))
    return " ".join(words for group, words in _SAID_OTHERWISE if any(s.startswith(tuple(group)) for s in stems))


def states_count(question: str, text: str, companies: Sequence[str] = ()) -> bool:
    """Whether a text states a count of what a count question counts, as reports word it: a number right before
    the count noun or one of its other wordings, two words allowed between ('315,000 people', '41,000
    full-time employees', '1,350 stores')."""
    pattern = count_stated(_counted_noun(measure_asked(question, companies)))
    return pattern is not None and pattern.search(text) is not None


@functools.lru_cache(maxsize=64)
def count_stated(noun: str) -> re.Pattern[str] | None:
    """How a text states a count of the noun (see `states_count`), compiled once per noun; None for no noun."""
    if not noun:
        return None
    nouns = {noun.split()[-1].lower(), *(w for w in _wordings_of(noun).split() if len(w) > 4)}
    names = "|".join(re.escape(n.rstrip("s")) for n in sorted(nouns))
    # a number, not a heading's ('10. Employee Benefit Plan') nor a code's ('ASU 2016-09, Improvements to
    # Employee …')
    return re.compile(rf"(?i)(?<![\d-])\d[\d,]*(?:\.\d+)?(?![\d,.-])\s+(?:(?:[\w-]+\s+){{0,2}}?|{COUNT_QUALIFIERS})"
                      rf"(?:{names})s?\b")



@dataclass(frozen=True)
class MembersCompared:
    """Two members of one company's breakdown compared on one measure ('How did JnJ's US sales growth compare to
    international sales growth in FY2022?': 'US' and 'international' on 'sales growth'). `of_change`: the measure
    is a change between periods (growth, change, increase), so each member's change is compared."""

    first: str
    second: str
    measure: str
    of_change: bool


_COMPARED = re.compile(
    r"(?i)^how\s+(?:did|does|do|has|have|had|was|were|is|are)\s+(?:the\s+)?(?P<a>.+?)\s+"
    r"(?:compare[ds]?|stack(?:ed|s)?\s+up|measure[ds]?\s+up|fare[ds]?)\s+(?:to|with|against)\s+"
    r"(?:that\s+of\s+|those\s+of\s+|the\s+)?(?P<b>.+?)\s*\??$"
    r"|^(?:what\s+(?:was|were|is|are)\s+)?(?:the\s+)?(?P<a2>.+?)\s+(?:versus|vs\.?|against)\s+(?:the\s+)?(?P<b2>.+?)"
    r"\s*\??$"
    # 'Which was larger in 2019, its King segment operating income or its Blizzard segment operating income?'
    r"|^which\s+(?:was|were|is|are|had|has)\s+(?:the\s+)?(?:larger|largest|higher|highest|bigger|biggest|greater|"
    r"greatest|smaller|smallest|lower|lowest)\b[^,:]{0,40}[,:]\s*(?:the\s+)?(?P<a3>.+?)\s+or\s+(?:the\s+|its\s+|their\s+)?"
    r"(?P<b3>.+?)\s*\??$"
    # 'Which 3M business segment reported higher operating income in 2022, Safety and Industrial or Health Care?'
    # ('Which of Block's two reportable segments generated more gross profit in 2020, Seller or Cash App?')
    r"|^which\s+(?:[\w&.'’-]+\s+){0,4}?(?:segments?|divisions?|regions?|businesse?s?|units?|markets?)\s+"
    r"(?:reported|had|has|have|generated|posted|recorded|earned|delivered|made|achieved)\s+(?:the\s+|a\s+)?"
    r"(?:larger|higher|bigger|greater|smaller|lower|more|less)\s+(?P<m4>.+?)[,:]\s*(?:the\s+|its\s+)?(?P<a4>.+?)\s+or\s+"
    r"(?:the\s+|its\s+)?(?P<b4>.+?)\s*\??$"
    # 'were Johnson & Johnson's U.S. sales or its international sales larger'
    r"|^(?:was|were|is|are)\s+(?:the\s+)?(?P<a5>.+?)\s+or\s+(?:the\s+|its\s+|their\s+)?(?P<b5>.+?)\s+"
    r"(?:larger|higher|bigger|greater|smaller|lower)(?:\s*,?\s*and\s+by\s+how\s+(?:much|many)\b[^?]*)?\s*\??$"
    # 'In fiscal 2016, which grew faster at Adobe: Creative revenue or Adobe Marketing Cloud revenue?'
    r"|^which\s+(?:grew|rose|increased|expanded|declined|fell)\s+(?:faster|more(?:\s+quickly)?|quicker|the\s+most|"
    r"slower|less)\b[^,:]{0,80}[,:]\s*(?:the\s+|its\s+|their\s+)?(?P<a6>.+?)\s+or\s+(?:the\s+|its\s+|their\s+)?"
    r"(?P<b6>.+?)\s*\??$"
    # 'Which General Mills segment grew segment operating profit faster: North America Retail or Pet?'
    r"|^which\s+(?:[\w&.'’-]+\s+){0,4}?(?:segments?|divisions?|regions?|businesse?s?|units?|markets?)\s+"
    r"(?:grew|increased|expanded|raised|improved)\s+(?:its\s+|their\s+)?(?P<m7>.+?)\s+(?:faster|more(?:\s+quickly)?|"
    r"quicker|the\s+most)\b[^,:]{0,40}[,:]\s*(?:the\s+|its\s+)?(?P<a7>.+?)\s+or\s+(?:the\s+|its\s+)?(?P<b7>.+?)\s*\??$")
_MEMBER_OWNER = re.compile(r"(?i)^(?P<member>.+?)\s+(?:segment|division|region|business|unit|arm)['’]s?"
                           r"(?:\s+(?P<rest>.*))?$")
_MEMBER_THEN_MEASURE = re.compile(r"^(?P<member>[A-Z][\w&.'’-]*(?:\s+(?:[A-Z][\w&.'’-]*|and|&|of)){0,4})\s+"
                                  r"(?i:segment|division|region|business|unit|arm)\s+(?P<rest>[a-z].*)$")
"""A member named before its kind with no possessive, the measure after ('Health Care segment operating income'),
read so when the other side names its member by the possessive ("its Safety and Industrial segment's")."""
_NAME_WORDS = r"[A-Z][\w&.'’-]*(?:\s+(?:[A-Z][\w&.'’-]*|&|and|of)){0,4}"
_NAME_THEN_MEASURE = re.compile(rf"^(?P<member>{_NAME_WORDS})\s+(?P<rest>[a-z][a-z\s-]*)$")
_NAME_ONLY = re.compile(rf"^(?:(?:that|those)\s+of\s+)?{_NAME_WORDS}$")
"""A side that is a capitalised name and a measure in lower case ('Corporate & Investment Bank net revenue'), and
one that is a name alone ('Consumer & Community Banking')."""
_MEASURE_OF_MEMBER = re.compile(r"(?i)^(?P<measure>.+?)\s+(?:of|from|in|at)\s+(?:the\s+|its\s+|their\s+)?"
                                r"(?P<member>.+?)\s+"
                                r"(?P<kind>segment|division|region|business|unit|arm)$")
_IN_MEMBER = re.compile(r"(?i)^(?P<measure>.+?)\s+(?:in|at|for|from)\s+(?:the\s+)?"
                        r"(?P<member>[A-Z][\w&.-]*(?:\s+[\w&.-]+){0,3})$")
_GROWTH = re.compile(rf"(?i)\b(?:{UP_WORDS}|{DOWN_WORDS}|change[ds]?|performance)\b")


def members_compared(question: str, companies: Sequence[str] = ()) -> MembersCompared | None:
    """The two members and the measure of a question that compares two parts of one company (`MembersCompared`),
    or None: when a side is a period ('FY2022 compare to FY2021'), a company, or the two sides share no measure
    words ('How did revenue compare with the year before?')."""
    found = _comparison(question)
    if not found:
        return None
    names = _name_forms(companies)
    a, b, said = (_compared_side(raw, names) for raw in (
        found.group("a") or found.group("a2") or found.group("a3") or found.group("a4") or found.group("a5")
        or found.group("a6") or found.group("a7"),
        found.group("b") or found.group("b2") or found.group("b3") or found.group("b4") or found.group("b5")
        or found.group("b6") or found.group("b7"),
        found.group("m4") or found.group("m7") or ""))
    names = {n.casefold() for n in names}
    if found.group("m4") or found.group("m7"):
        # the measure said before the two members ('segment reported higher operating income', 'segment grew
        # segment operating profit faster'): a growth compared when the verb says so
        a, b = (re.sub(r"(?i)\s+(?:segments?|divisions?|regions?)$", "", x) for x in (a, b))
        said = re.sub(r"(?i)^(?:business\s+)?(?:segment|division|region)\s+", "", said)
        if not said or any(len(x.split()) > 4 or x.casefold() in names or re.search(r"\d", x) for x in (a, b)):
            return None
        return MembersCompared(first=a, second=b, measure=said,
                               of_change=bool(found.group("m7")) or bool(_GROWTH.search(said)))
    owned = re.fullmatch(r"(?P<member>[A-Z][^']*?)['’]s\s+(?P<measure>[a-z].+)", a)
    if owned and re.fullmatch(r"[A-Z].*?['’]s?", b) and not _MEMBER_OWNER.match(a):
        # "Frito-Lay North America's operating profit stack up against PepsiCo Beverages North America's": each
        # side's owner is a member, the first side's words after it the measure
        first, second = owned.group("member").strip(), re.sub(r"['’]s?$", "", b).strip()
        if first.casefold() != second.casefold() and not any(
                x.casefold() in names or len(x.split()) > 5 or re.search(r"\d", x) for x in (first, second)):
            measure = owned.group("measure")
            return MembersCompared(first=first, second=second, measure=measure, of_change=bool(_GROWTH.search(measure)))
    if of_member := _MEASURE_OF_MEMBER.match(a):  # 'adjusted EBIT of the Flexibles segment'
        a = f"{of_member.group('member')} {of_member.group('kind')}'s {of_member.group('measure')}"
    a = re.sub(r"^.*['’]s\s+(?=\S)", "", a) if not _MEMBER_OWNER.match(a) else a  # "JnJ's US sales growth"
    parts = []
    for side in (a, b):
        owner = _MEMBER_OWNER.match(side) or _MEMBER_OWNER.match(re.sub(r"(?i)^(?:the|its|their)\s+", "", side)
                                                                    + "'s")
        parts.append((owner.group("member"), owner.group("rest") or "") if owner else None)
    if (parts[0] is None) != (parts[1] is None):  # "Health Care segment operating income … its Safety segment's"
        k = 0 if parts[0] is None else 1
        if named_first := _MEMBER_THEN_MEASURE.match((a, b)[k]):
            parts[k] = (named_first.group("member"), named_first.group("rest"))
    if parts[0] or parts[1]:  # 'the Iron Ore segment's revenue compare with the Copper segment's'
        first, measure = parts[0] or (a, "")
        second, other = parts[1] or (b, "")
        measure = measure or other
    elif placed := _IN_MEMBER.match(a):  # 'revenue growth in the Americas compare with (that in) Germany'
        first, measure = placed.group("member"), placed.group("measure")
        second = re.sub(r"(?i)^(?:that|those|the\s+one)\s+(?:in|of|for|from)\s+|^(?:in|for|from)\s+", "", b)
        # ('its revenue from the Americas': the same measure, from the other member)
        other = _IN_MEMBER.match(re.sub(r"(?i)^(?:the|its|their)\s+", "", second))
        if other and other.group("measure").casefold() == measure.casefold():
            second = other.group("member")
    elif (named_first := _NAME_THEN_MEASURE.match(a)) and _NAME_ONLY.match(b):
        # "Corporate & Investment Bank net revenue compare with that of Consumer & Community Banking": a name and
        # the measure, against a name alone
        first, measure, second = named_first.group("member"), named_first.group("rest"), b
    else:  # 'US sales growth' / 'international sales growth': the words both end with are the measure
        wa, wb = a.split(), b.split()
        n = 0
        while n < min(len(wa), len(wb)) - 1 and wa[-1 - n].casefold() == wb[-1 - n].casefold():
            n += 1
        if n == 0:
            return None
        first, second, measure = " ".join(wa[:-n]), " ".join(wb[:-n]), " ".join(wa[-n:])
    first, second = (re.sub(r"['’]s?$", "", re.sub(r"(?i)^(?:the|its|their)\s+", "", x).strip())
                     for x in (first, second))  # ("MGM China's": the member, its owner's 's off)
    # ("Square's Cash App segment": the company by a name of its own, the member after it)
    first, second = (re.sub(r"^[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)?['’]s\s+(?=[A-Z])", "", x) for x in (first, second))
    if (not first or not second or not measure.strip() or first.casefold() == second.casefold()
            or any(len(x.split()) > 4 or x.casefold() in names or re.search(r"\d", x) for x in (first, second))):
        return None
    if found.group("a6") and not _GROWTH.search(measure):
        measure = f"{measure.strip()} growth"  # 'which grew faster': each member's growth is compared
    return MembersCompared(first=first, second=second, measure=measure.strip(),
                           of_change=bool(_GROWTH.search(measure)))


_NAME_AND_ALIAS = re.compile(r"\b[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,2}['’]s\s*\([A-Z][^()]{0,40}['’]s\)")
"""A company's name with another it goes by in brackets, each possessive ("Square's (Block's)")."""


def _comparison(question: str) -> re.Match[str] | None:
    """The question's asked sentence, asides out, read as a comparison of two sides (`_COMPARED`), or None."""
    # "Square's (Block's) Cash App segment": a name and the one it goes by now, both the company's
    asked = _NAME_AND_ALIAS.sub(" ", first_part(asked_sentence(question)))
    asked = re.sub(r"\([^)]*\)", " ", asked)
    # '… more operating profit — Frito-Lay North America or PepsiCo Beverages North America — and by how much?':
    # the dashes set the two apart as commas do; by how much is the difference of what is compared
    asked = re.sub(r"\s+[—–]\s+", ", ", asked)
    asked = re.sub(r"(?i),?\s*and\s+by\s+how\s+(?:much|many)\b[^?]*", "", asked)
    # ('In fiscal 2020, which segment had higher net sales, …', 'At Netflix in 2015, which grew faster': the period
    # first)
    asked = re.sub(r"(?i)^\s*(?:in|for|during|over|at)\s+[^,]{1,40}?(?:19|20)\d{2}[^,]{0,20},\s*", "", asked)
    return _COMPARED.match(" ".join(asked.split()))


def _compared_side(raw: str, names: Iterable[str]) -> str:
    """One side of a comparison as a question writes it, without the company's name, its dates and periods, and a
    preposition left dangling at its end ('that in Asia-Pacific for Rheinfeld in FY2024' → 'that in
    Asia-Pacific')."""
    from app.text.dates import read_dates

    for name in sorted(names, key=len, reverse=True):
        # ('adjusted EBIT of Amcor's Flexibles segment', 'revenue from Adobe's Digital Media segment': the measure of
        # the member)
        raw = re.sub(rf"(?i)\s+(of|from|in)\s+{re.escape(name)}['’]s?(?=\s)", r" \1 ", raw)
        raw = re.sub(rf"(?i)\s+(?:for|of|at)\s+{re.escape(name)}\b|^{re.escape(name)}['’]s?(?=\s)", " ", raw)
    text = _PERIOD_PHRASES.sub(" ", read_dates(raw)[2])
    text = " ".join(text.split())
    # ('net revenues in the fourth quarter of 2022': the period out, 'in the … of' dangles)
    # ('as of June 30, 2023': the date out, 'as of' dangles)
    while (dangling := re.sub(r"(?i)\s+(?:in|for|during|over|between|from|of|at|as(?:\s+(?:of|at))?|on)(?:\s+the)?\s*$",
                              "", text)) != text:
        text = dangling
    # ('technology and development spending': a cost line, which reports name the line's expenses)
    text = re.sub(r"(?i)\b(?!capital\b)(\w+)\s+spending$", r"\1 expenses", text)  # (capital spending is capex)
    return text.strip(" ,.?")


@dataclass(frozen=True)
class LinesCompared:
    """Two measures of one company compared in one period ('Which was larger for American Express in 2022, net
    interest income or net card fees?'): each is its own line, and neither is a member of a breakdown."""

    first: str
    second: str


_GREW_FASTER = re.compile(
    r"(?i)^(?:did|does|do|has|have|had|was|were|is|are)\s+(?P<a>.+?)\s+(?:grow|grew|grown|growing|rise|rose|risen|"
    r"rising|increase[ds]?|increasing|climb(?:ed|s)?|expand(?:ed|s)?)\s+(?P<how>faster|more\s+quickly|more\s+slowly|"
    r"more|slower|less\s+quickly|less)\s+than\s+(?P<b>.+?)\s*\??$")
"""'Did Adobe's sales and marketing spending grow faster than its revenue in fiscal 2016?': two measures' growth
compared."""


@dataclass(frozen=True)
class GrowthsCompared:
    """Two measures of one company whose growth over one period is compared (`faster`: the question asks whether
    the first grew faster; False: slower)."""

    first: str
    second: str
    faster: bool


def growths_compared(question: str, companies: Sequence[str] = ()) -> GrowthsCompared | None:
    """The two measures of a 'did A grow faster than B' question, each a measure of the company's own (its
    company name, dates and periods out), or None."""
    from app.text.dates import read_dates

    found = _GREW_FASTER.match(" ".join(first_part(asked_sentence(question)).split()))
    if found is None:
        return None
    names = _name_forms(companies)
    sides = []
    for raw in (found.group("a"), found.group("b")):
        side = _compared_side(read_dates(raw)[2], names)
        side = _PERIOD_PHRASES.sub(" ", side)
        side = re.sub(r"(?i)\b(?:in|during|for|over|of)\s*$", "", " ".join(side.split())).strip(" ,")
        side = re.sub(r"(?i)^(?:the|its|their)\s+", "", side)
        if not side or len(side.split()) > 6 or not (any(is_measure_word(w) for w in re.split(r"[\s-]+", side))
                                                     or _is_line_item(side)):
            return None
        sides.append(side)
    return GrowthsCompared(first=sides[0], second=sides[1], faster=not found.group("how").lower().startswith(
        ("slower", "less", "more slowly")))


_MORE_THAN = re.compile(
    r"(?i)^(?:did|does|do|was|were|is|are|has|have|had)\s+(?:the\s+|its\s+|their\s+)?(?P<a>[\w&.'’ -]+?)\s+"
    r"(?:bring\s+in|brought\s+in|generate|earn|make|produce|contribute|deliver|account\s+for)\s+"
    r"(?P<more>more|less|higher|lower)\s+(?P<m>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+than\s+"
    r"(?:the\s+|its\s+|their\s+)?(?P<b>[^?]+?)\s*\??$")
_PART_WORD_AT_END = re.compile(r"(?i)\s+(?:business(?:es)?|segments?|divisions?|operations|units?|arm|line)$")


def lines_more_than(question: str, companies: Sequence[str] = ()) -> tuple[LinesCompared, bool] | None:
    """The two lines of a yes/no on which brought in more ('Did bitcoin bring in more revenue than the
    transaction-based business at Block in 2020?': bitcoin revenue against transaction-based revenue), with
    whether the question asks the first to be the larger; None for any other question."""
    from app.text.dates import read_dates

    found = _MORE_THAN.match(" ".join(re.sub(r"\([^)]*\)", " ", first_part(asked_sentence(question))).split()))
    if found is None:
        return None
    measure = found.group("m").lower()
    names = _name_forms(companies)
    sides = []
    for raw in (found.group("a"), found.group("b")):
        side = read_dates(raw)[2]
        side = re.sub(r"(?i)\s+(?:at|of|for|in|during|by)\s*$", "", " ".join(_compared_side(side, names).split()))
        side = re.sub(r"(?i)^(?:the|its|their)\s+", "", side)
        side = _PART_WORD_AT_END.sub("", side)  # ('the transaction-based business': its revenue)
        if not side or len(side.split()) > 5 or side.casefold() in {n.casefold() for n in names}:
            return None
        sides.append(side if measure in side.lower() else f"{side} {measure}")
    return LinesCompared(first=sides[0], second=sides[1]), found.group("more").lower() in ("more", "higher")


def lines_compared(question: str, companies: Sequence[str] = ()) -> LinesCompared | None:
    """The two measures of a 'which was larger, A or B?' question whose sides are measures that share no head
    noun (two members of one measure are `members_compared`'s), or None."""
    found = _comparison(question)
    if not found or not found.group("a3") or members_compared(question, companies) is not None:
        return None
    names = _name_forms(companies)
    sides = [re.sub(r"(?i)^(?:the|its|their)\s+", "", _compared_side(raw, names))
             for raw in (found.group("a3"), found.group("b3"))]
    if any(not side or len(side.split()) > 6 or re.search(r"\d", side) or side.casefold() in {
            n.casefold() for n in names} or not any(is_measure_word(w) for w in side.split()) for side in sides):
        return None
    return LinesCompared(first=sides[0], second=sides[1])


_QUANTITY = re.compile(
    r"(?i)\b(amount|total|revenues?|sales|income|margins?|ratios?|rates?|expenditures?|capex|cash|assets?|"
    r"liabilit(?:y|ies)|debt|equity|eps|earnings|dividends?|costs?|expenses?|profits?|loss(?:es)?|growth|"
    r"turnover|days|number|count|price|value|percent(?:age)?|shares?|yield|production|occupancy|revpar|churn|"
    r"arpu|balance|pp&?n?e|inventor(?:y|ies)|receivables?|payables?|capital|employees|headcount|ebitda|ebit|"
    r"spend(?:ing)?|proceeds|backlog|reserves?|provisions?|outstanding|volumes?|units?|deliveries|subscribers?|"
    r"members|stores|customers|bookings|orders)\b")


@lru_cache(maxsize=1)
def _measure_vocabulary() -> frozenset[str]:
    from app.metrics import CATALOGUE, LINE_ITEMS

    names = [*(s for item in LINE_ITEMS.values() for s in item.synonyms), *(a for m in CATALOGUE for a in m.aliases)]
    return frozenset(w for name in names for w in re.findall(r"[a-z]+", name.lower()))


def is_measure_word(word: str) -> bool:
    """Whether a word is one that names measures ('Total', 'Cash', 'Dividend', 'Number' of 'What is the Total
    revenue …', 'the Number of patents'), not a name of its own ('Foodservice', 'China'), however it is
    capitalised: the statements' line item names and the metric catalogue's, and the quantities questions ask."""
    lowered = word.lower().strip("'’")
    return lowered in _measure_vocabulary() or is_qualifier_word(lowered) or bool(_QUANTITY.fullmatch(lowered))


def is_qualifier_word(word: str) -> bool:
    """Whether a word qualifies a measure ('Adjusted', 'non-GAAP', 'underlying'), however capitalised."""
    return word.lower() in _QUALIFIER_WORDS


_QUALIFIER_WORDS = frozenset({"adjusted", "underlying", "reported", "organic", "comparable", "statutory", "normalised",
                              "normalized", "non", "gaap", "non-gaap", "ifrs"})
"""Words that qualify a measure ('Adjusted Non GAAP EBITDA'), however capitalised: no names."""
