"""Facts stated in prose: the figure a sentence gives for a measure, with the period it is for.

"At 30 June 2024 Wattlegrove employed 3,140 people, up from 2,910 a year earlier" states two facts about the
number of employees: 3,140 for the filing's year and 2,910 for the year before. `prose_facts(text, measure, …)`
reads every sentence of a text (soft-wrapped lines joined, app/text/repair.reflow) that names the measure, and
for each figure in it of the measure's kind (money, a percentage, a ratio, a count) that stands near the
measure's words, returns a `Figure` dated by what the sentence says around it:

- "(FY2023: 2,740)", "(2023: 15,310)", "(prior year: €63.4 million)", "(pcp: …)": the year named, or the one before;
- "… a year earlier", "… in the prior year", "… in the pcp", "compared with …", "up from …", "from X to Y": the
  figure after 'from' or before 'a year earlier' is the previous period's;
- otherwise the one fiscal year the sentence names ('in FY2024', 'in fiscal 2024', 'for 2024'), else the year
  the filing is for.

A range ("18.5Mt to 19.5Mt", "between €2.45 billion and €2.60 billion") is two figures labelled 'low' and
'high'. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.calc_tools import Figure
from app.knowledge.analyzer import analyze
from app.text.dates import LONG_MONTHS, MONTH
from app.text.measures import COUNT_QUALIFIER_WORDS, counted_as, how_many_money, how_many_points
from app.text.periods import fiscal_years_named
from app.text.repair import reflow
from app.text.sentences import is_boilerplate, looks_like_instruction, split_sentences
from app.text.units import CURRENCIES, SCALE, SYMBOL, currency_named

_CODES = "|".join(sorted({f for forms in CURRENCIES.values() for f in forms if f.isalpha() and f.isupper()},
                         key=len, reverse=True))

PROSE_FIGURE = re.compile(
    rf"(?<![\w.,/])(?P<cur>{SYMBOL}|\b(?:{_CODES})\b)?\s?(?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d,]*\.\d)"
    r"(?:\s?(?P<scale>trillion|billion|million|thousand|bn|mn|m|k)\b)?"
    r"(?:\s?(?P<unit>%|per\s?cent\b|percent\b|percentage\s+points?\b|pp\b|bps\b|basis\s+points\b|x\b|times\b|"
    r"pence\b|p\b|cents?\b|Mt\b|kt\b|Mtpa\b|t\b|tonnes\b|GW\b|MW\b|GWh\b|MWh\b))?",
    re.IGNORECASE)
_EARLIER_AFTER = re.compile(
    r"(?i)^\s*the\s+(?:prior|previous|preceding)[\s-]+year\s+(?:quarter|period|half)\b|"  # '… the prior year quarter'
    r"^[^.;]{0,12}?\b(?:a\s+year\s+(?:earlier|before|ago)|(?:in|for|of)\s+the\s+(?:prior|previous|preceding|"
    r"comparative)\s+(?:year|period|financial\s+year|corresponding\s+period)|(?:in|for)\s+the\s+pcp|(?:in\s+)?"
    r"(?:the\s+)?(?<!\()pcp\b(?!\s*:)|last\s+year|the\s+year\s+before)")
"""A figure said to be the year before's ('… a year earlier', '… in the pcp', '… loss of $52 million the prior year
quarter'); not one a bracket's comparative follows ('14 cents per share (pcp: 22 cents)': the bracket's figure
is)."""
_EARLIER_BEFORE = re.compile(
    r"(?i)(?:\bup\s+from|\bdown\s+from|\bcompared\s+(?:with|to)|\bfrom|\bprior\s+year:?|"
    r"\bprevious\s+year:?|\bpcp:?|\bprior\s+corresponding\s+period:?|\blast\s+year:?|"
    r"\b(?:previous|prior|last|preceding)\s+(?:financial\s+)?year['’]s)"
    r"(?:\s+(?:approximately|about|around|some|nearly|roughly))?\s*$")
_NAMED_PRIOR = re.compile(r"(?i)\((?:FY\s?(?P<short>\d{2})|(?:FY\s?)?(?P<year>(?:19|20)\d{2}))\s*:\s*$")
"""A bracket's year before a comparative ('(2023: 2,740)', '(FY23: 13.8%)')."""
_COMPARATIVE = re.compile(r"(?i)\((?:FY\s?\d{2}|(?:FY\s?)?(?:19|20)\d{2})\s*:[^)]*\)"
                          r"|\((?:prior|previous)\s+year\s*:[^)]*\)")
_MEASURED_AGAINST = re.compile(
    r"(?i)\b(?:within|in\s+line\s+with|against|above|below|ahead\s+of|short\s+of|at\s+the\s+(?:top|bottom|upper|lower|"
    r"low|high)\s+end\s+of|met|meeting|achieved|beat|exceeded|missed|compared\s+with|consistent\s+with)\s+"
    r"(?:our|its|the|their)?\s*(?:[\w-]+\s+){0,2}?(?:guidance|targets?|outlook|forecasts?|expectations?|"
    r"plans?(?:\s+to)?)(?:\s+range)?\b")
"""A year's result measured against what was guided ('A$38.6 per tonne, … within our guidance range', 'declined
to 3.2 in fiscal 2020 …, consistent with our plans to reduce our leverage'): the sentence reports the year, it
does not look ahead."""


def measured_against_plan(sentence: str) -> str:
    """The sentence without its phrases that measure a result against guidance (`_MEASURED_AGAINST`)."""
    return _MEASURED_AGAINST.sub(" ", sentence)
_FORWARD = re.compile(r"(?i)\b(?:forecast\w*|guidance|outlook|expect(?!ations?\b)\w*|anticipat\w*|"
                      # (a bonus 'at target', a 'target bonus': its standard rate, no forecast)
                      r"(?<!\bat\s)target\w*(?!\s+(?:annual\s+)?(?:bonus|award|payout|incentive|opportunity))|"
                      r"project(?:ed|ion)|aim(?:s|ing)?\s+to|plan(?:s|ned)?\s+to|ambition\w*|medium-term\s+plan|"
                      r"goals?\s+(?:is|are|of)\b)\b|"
                      # a plan's bullet: 'Automation and solutions: raise sales of automation cells … to ¥40 billion'
                      r"^[^:.]{0,80}:\s*(?:raise|grow|increase|reach|expand|achieve|deliver|double|lift|cut|reduce)\b")
# ('ahead of market expectations' says nothing of a later year)
_RANGE = re.compile(r"(?i)^\s*(–|—|-|to|and)\s*$")
_NAMED_BY_NUMBER = re.compile(r"(?i)\b(?:scope|tier|level|phase|stage|line|unit|gen(?:eration)?|class|category|"
                              r"type|grade|series|pillar|basel|no\.|table|note|item|figure|exhibit|section|part|"
                              r"chapter|schedule|S&P|FTSE|Russell|Fortune|Nikkei|ASX|STOXX|Nasdaq|MSCI|DAX|CAC|"
                              r"Hang\s+Seng)(?:\s*|-)$")
"""A word a number is part of a name after ('Scope 3 emissions', 'Tier 1 capital', 'the S&P 500 Index')."""
_FROM = re.compile(r"(?i)\bfrom\s*$")
"""'from €1,204.6m to €1,311.2m' is a change between two periods, not a range."""
_RANGE_START = re.compile(r"(?i)\b(?:between|of|range\s+of)\s*$")
_RATE_WORDS = frozenset(analyze("margin rate percentage percent proportion growth yield intensity churn "
                                "return penetration utilisation utilization occupancy payout"))
"""A ratio may be a per cent ('payout ratio') or times ('current ratio'), and cover is times: neither is here."""
COUNT_WORDS = frozenset(analyze(
    "employees employee people staff colleagues headcount workforce fte full-time equivalents stores shops outlets "
    "branches sites plants mines units machines vehicles subscribers customers members memberships connections "
    "accounts licences licenses tonnes tons ounces barrels homes completions deliveries delivered shipments shipped "
    "restaurants hotels rooms patents countries locations facilities warehouses aircraft vessels ships trucks "
    "tractors trailers number"))


_AMOUNT_HEADS = frozenset(analyze("sales revenue revenues income costs expenses profit earnings spending receivable "
                                   "receivables payable payables debt borrowings liabilities cash deposits loans "
                                   "assets fees balances payments obligations equity capital inventories"))
"""Words that head an amount of money though a counted word stands before them ('comparable-store sales', 'net
accounts receivable', 'total customer deposits', 'cash and cash equivalents', whose 'equivalents' a count of
full-time equivalents also says)."""


_QUANTITY_HEADS = frozenset(analyze("space footage acreage acres capacity tonnes tons barrels gallons litres liters "
                                     "megawatts emissions"))
"""What a 'how much' question may measure in a unit of its own, not money ('How much office space did it lease')."""


@dataclass(frozen=True)
class Measure:
    """What a question asks to be measured: its words (stems), the kind of figure it takes, and the count noun
    of a 'how many …' question."""

    stems: frozenset[str]
    kind: str  # 'money', 'percent', 'ratio', 'count', 'any'
    count_stems: frozenset[str] = frozenset()


_HOW_MUCH_MORE = re.compile(r"(?i)\bhow\s+much\s+(?:higher|lower|more|less|bigger|smaller|greater|larger|better|"
                            r"worse|faster|slower)\b")


_PERCENT_CHANGE_ASKED = re.compile(r"(?i)\bby\s+what\s+(?:percentage|percent|per\s+cent)\b|"
                                   r"\bpercent(?:age)?\s+(?:change|increase|decrease|growth|decline|rise|fall)\b")


RATING_ASKED = re.compile(r"(?i)\b(?:credit|debt|issuer|bond|investment|average)\s+(?:[\w-]+\s+)?ratings?\b|"
                          r"\bratings?\s+(?:agenc|of\s+(?:its|the)\s+(?:debt|notes|bonds))")
"""A question about a credit rating ('the average credit rating of its securities'): a grade, not a rate."""


def measure_kind(stems: Iterable[str], question: str = "") -> str:
    """The kind of figure a measure takes: 'count' for 'how many …' and counted things, 'money' for 'how much',
    amounts and per-share figures, 'percent' for rates, margins and shares of something, else 'any'."""
    stems = set(stems)
    if how_many_money(question):
        return "money"  # 'By how many euros did operating profit fall'
    if re.search(r"(?i)\bhow\s+many\b", question) and not how_many_points(question):
        return "ratio" if re.search(r"(?i)\bhow\s+many\s+times\b", question) else "count"
    # 'how much higher was its payout ratio' asks the size of a difference, not an amount of money; 'by what
    # percentage did its EBITDAR change' asks a change in per cent of a measure that is no per cent itself
    question = _PERCENT_CHANGE_ASKED.sub(" ", _HOW_MUCH_MORE.sub(" ", question))
    if RATING_ASKED.search(question) and not re.search(r"(?i)\brates?\b|\bhow\s+much\b", question):
        return "any"  # 'What is the average credit rating of …': a grade ('AA+'), no rate, though its stem is 'rate'
    if stems & _RATE_WORDS and not re.search(r"(?i)\bper\s+share\b|\bhow\s+much\b|\bamounts?\b|\bcosts?\b|"
                                             r"\bprices?\b", question):
        return "percent"  # 'What effective tax rate did Northwind pay': a rate, though paid
    if stems & _QUANTITY_HEADS and not stems & _AMOUNT_HEADS and not re.search(
            r"(?i)\bper\s+share\b|\bcosts?\b|\bprices?\b|\bpaid\b|\bpay\b|\bvalue\b|\$|\bdollars?\b", question):
        return "any"  # 'How much office space did it lease': square feet, not money
    if re.search(r"(?i)\bper\s+share\b|\bhow\s+much\b|\bamounts?\b|\bvalues?\b|\bcosts?\b|\bprices?\b|\bpaid\b|"
                 r"\bpay\b|\bpenalty\b|\bfine\b", question):  # 'C1 costs per tonne' is money, not tonnes
        return "money"
    if stems & _RATE_WORDS or re.search(r"(?i)\bper\s?cent|\bpercent|%|\bshare\s+of\b", question):
        return "percent"
    if stems & COUNT_WORDS and not stems & _AMOUNT_HEADS:
        return "count"  # ('comparable-store sales' are no count of stores)
    return "any"


@dataclass(frozen=True)
class Located:
    value: float
    unit: str
    kind: str  # 'money', 'percent', 'ratio', 'count', 'points'
    start: int
    end: int
    text: str


def figures_located(sentence: str) -> list[Located]:
    """Every figure in a sentence with its place and kind; years, day numbers of dates and note marks are not
    figures."""
    return list(_located(sentence))


@lru_cache(maxsize=4096)
def _located(sentence: str) -> tuple[Located, ...]:
    """`figures_located`, read once per sentence: the fact readers ask where each of a sentence's figures stands
    (its limit, its range, its share of a change), figure by figure."""
    out: list[Located] = []
    for m in PROSE_FIGURE.finditer(sentence):
        raw = m.group("num")
        cur, scale, unit = m.group("cur") or "", (m.group("scale") or "").lower(), (m.group("unit") or "")
        if not cur and (m.group("scale") or "") in ("M", "K") and re.match(r"\s?[A-Z](?:\s|['’]s\b)",
                                                                            sentence[m.end("num"):]):
            continue  # a name with a digit ('3M expended …', "growing 3M's business"), not three million
        if re.fullmatch(r"(?:19|20)\d{2}", raw) and not (cur or scale or unit):
            continue
        if not (cur or scale or unit) and re.search(r"[A-Za-z]-$", sentence[max(0, m.start() - 2):m.start()]):
            continue  # a name with a number: 'COVID-19', 'Form 10-K', 'F-35'
        if not (cur or scale or unit) and _NAMED_BY_NUMBER.search(sentence[max(0, m.start() - 12):m.start()]):
            continue  # part of a name: 'Scope 3 emissions', 'Tier 1 capital', 'Line 2', 'Phase 2'
        if (not (cur or scale or unit) and not sentence[:m.start()].strip() and len(raw) <= 2
                and re.match(r" [A-Z][a-z]", sentence[m.end():m.end() + 3])):
            continue  # a footnote's mark: '1 Per million hours worked, employees and contractors.'
        after = sentence[m.end():m.end() + 12]
        before = sentence[max(0, m.start() - 12):m.start()]
        if not (cur or scale or unit) and (re.match(r"\s*(?:January|February|March|April|May|June|July|August|"
                                                    r"September|October|November|December)\b", after)
                                           or re.search(r"(?:January|February|March|April|May|June|July|August|"
                                                        r"September|October|November|December)\s+$", before)
                                           or re.search(r"(?i)\b(?:note|page|p\.|section|item|FY|H|Q)\s?$", before)):
            continue
        value = float(raw.replace(",", ""))
        if (not (cur or scale or unit) and len(raw) <= 2 and before.endswith("(") and after.startswith(")")
                and (re.search(r"(?i)(?:paragraphs?|sub-?sections?|clauses?|items?|articles?|sections?|and|or|,)"
                               r"\s*\($", before) or not before[:-1].strip())):
            continue  # an enumerator: 'this paragraph (5)', '(4) Identification of …', 'paragraphs (1), (2) and (3)'
        if before.rstrip().endswith(("(", "-", "−")) and sentence[m.end():m.end() + 1] == ")":
            value = -value
        if _BAR_AFTER.match(sentence, m.end()):
            continue  # a bar, not a level: 'no single customer accounted for 10% or more of net sales'
        kind, shown = _kind_and_unit(cur, scale, unit)
        if kind == "points" and unit.lower().startswith(("bps", "basis")):
            value /= 100
        out.append(Located(value, shown, kind, m.start(), m.end(), m.group(0).strip()))
    return tuple(out)


def figure_located(sentence: str, value: float) -> Located | None:
    """Where a sentence writes the figure of this value, whatever its sign (`figures_located`), or None."""
    return next((f for f in _located(sentence or "") if abs(f.value) == abs(value)), None)


_BAR_AFTER = re.compile(r"(?i)\s+or\s+(?:more|greater|higher|less|fewer|lower)\b")
_SCALES = {**SCALE, "trillion": "tn"}


def _kind_and_unit(cur: str, scale: str, unit: str) -> tuple[str, str]:
    u = re.sub(r"\s", "", unit.lower())
    if u in ("%", "percent", "percent", "percent") or u.startswith("per") and u.endswith("cent"):
        return "percent", "%"
    if u.startswith(("percentagepoint", "pp", "bps", "basispoint")):
        return "points", "pp"
    if u in ("x", "times"):
        return "ratio", "x"
    if u in ("pence", "p"):
        return "money", "p"
    if u in ("cents", "cent"):
        return "money", "c"
    if u in ("mt", "kt", "t", "tonnes", "mtpa"):
        return "count", {"mt": "Mt", "kt": "kt", "mtpa": "Mtpa"}.get(u, "t")
    if u in ("gw", "mw", "gwh", "mwh"):
        return "count", unit
    currency = (currency_named(cur) or "") if cur else ""
    if currency or scale in ("billion", "bn", "million", "mn", "m", "trillion"):
        return "money" if currency else "count", currency + _SCALES.get(scale, "")
    return "count", _SCALES.get(scale, "")


def _fits(kind: str, located: Located) -> bool:
    if kind == "any":
        return located.kind != "points"
    if kind == "percent":
        return located.kind == "percent"
    if kind == "ratio":
        return located.kind in ("ratio", "count")
    if kind == "money":
        return located.kind == "money" or (located.kind == "count" and bool(located.unit))
    return located.kind == "count"


def measure_spans(sentence: str, stems: frozenset[str]) -> list[tuple[int, int, float]]:
    """Where the measure's words stand together in the sentence: (start, end, share of its words) for each
    window of up to len(words) + 2 words that holds at least half of them."""
    words = [(m.start(), m.end(), _stem(m.group(0))) for m in re.finditer(r"[A-Za-z][A-Za-z&'-]*", sentence)]
    need = max(1, (len(stems) + 1) // 2)
    width = len(stems) + 2
    out = []
    for i in range(len(words)):
        window = words[i:i + width]
        hit = {s for _, _, s in window if _matches(s, stems)}
        if len(hit) >= need and _matches(words[i][2], stems):
            last = max(j for j, (_, _, s) in enumerate(window) if _matches(s, stems))
            if not _COST_OF.search(sentence[window[0][0]:window[last][1]]) or _COST_STEMS & stems:
                out.append((window[0][0], window[last][1], len(hit) / max(len(stems), 1)))
    return out


_COST_OF = re.compile(r"(?i)\b(?:costs?|expenses?)\s+of\b")
"""'streaming cost of revenues' is a cost, not the streaming revenues its words hold."""
_COST_STEMS = frozenset(analyze("cost costs expense expenses"))


def _stem(word: str) -> str:
    stems = analyze(word)
    return stems[0] if stems else word.lower()


def _matches(stem: str, stems: frozenset[str]) -> bool:
    return stem in stems or (len(stem) >= 5 and any(len(s) >= 5 and s[:5] == stem[:5] for s in stems))


def prose_facts(text: str, measure: Measure, *, company: str | None, fiscal_year: int | None, source_id: str,
                chunk_id: str | None = None, page: int | None = None, label: str = "",
                terms: bool = False) -> list[Figure]:
    """The figures the text's sentences state for the measure (module docstring), best placed first; with
    `terms`, an agreement's own sentences too (`whole_sentences`)."""
    found: list[tuple[float, int, Figure]] = []
    sentences = whole_sentences(text, terms)
    counted = counted_only(measure)
    for index, sentence in enumerate(sentences):
        spans = measure_spans(sentence, measure.stems)
        if not spans and counted:
            # 'total headcount' asked, 'we employed 17,973 people' stated: a count is said in any of its wordings
            spans = [span for stem in sorted(measure.count_stems) for span in measure_spans(sentence, frozenset({stem}))]
        if not spans:
            continue
        year = fiscal_year
        if index and _ANAPHORIC.match(sentence) and not _bare_years(sentence) \
                and len(before := set(_bare_years(sentences[index - 1]))) == 1:
            # 'In February 2023, the Board declared a dividend of $1.50 per share. This is equivalent to an annual
            # dividend of $6.00 per share': the sentence goes on about the one year the one before it names
            year = before.pop()
        for figure, closeness in _figures_for(sentence, spans, measure, year, company):
            found.append((closeness, index, Figure(
                label=label or _label_words(sentence, spans), value=figure[0], unit=figure[1], company=company,
                fiscal_year=figure[2], period=figure[3], source_id=source_id, chunk_id=chunk_id, page=page,
                quote=sentence)))
    return [f for _, _, f in sorted(found, key=lambda x: (-x[0], x[1]))]


def counted_only(measure: Measure) -> bool:
    """Whether a count's measure is no more than the thing counted, however qualified ('total headcount', 'global
    workforce'), so that any of the words reports count it with names it."""
    own = {w for w in measure.stems if not _matches(w, COUNT_QUALIFIER_STEMS)}
    if measure.kind != "count" or not own:
        return False
    said = counted_as(" ".join(own))  # the group of words reports count these with, not the noun's own words
    return all(_matches(w, said) for w in own)  # ('prepaid wireless subscribers' are counted as such)


COUNT_QUALIFIER_STEMS = frozenset(analyze(re.sub(r"[^a-z]+", " ", COUNT_QUALIFIER_WORDS)))
"""The stems of the words that only qualify a count's noun (measures.COUNT_QUALIFIER_WORDS, its pattern's letters)."""


_ANAPHORIC = re.compile(r"(?i)^\s*(?:this|that|these|those|such|it)\b")


def whole_sentences(text: str, terms: bool = False) -> list[str]:
    """The text's sentences, soft-wrapped lines joined; a first line that starts mid-sentence (a chunk cut in a
    sentence), a last one cut short (`_CUT_SHORT`) and anything addressed to a model or boilerplate left out (an
    agreement's own wording kept with `terms`: `is_boilerplate`)."""
    lines = reflow(text)
    # a press release's dateline opens its own sentence ('… $1.19 per share New Brunswick, N.J. (August 30, 2023) –
    # Johnson & Johnson today announced …': a bullet run into the first paragraph)
    sentences = [part for sentence in split_sentences(lines) for part in _DATELINE.split(sentence, maxsplit=1)
                 if part.strip()]
    # a table's last row that the page ran into the sentence after it ('Total Long-Term Debt $ 42,573 We
    # maintained a committed … facility'): the row is no part of the sentence
    sentences = [_ROW_BEFORE.sub("", sentence) for sentence in sentences]
    # a page's running header run into its first sentence ('Table of Contents Selling, General and Administrative
    # Expenses: SG&A in dollars increased 14.7 percent …'): page furniture, no part of the sentence
    sentences = [_PAGE_HEADER.sub("", sentence) for sentence in sentences]
    if sentences and lines.lstrip()[:1].islower() and sentences[0][:1].islower():
        sentences = sentences[1:]  # not a whole sentence after a cut too short to count ('million.')
    while sentences and not re.search(r"[A-Za-z]", sentences[-1]):
        sentences = sentences[:-1]  # a page's trailing figures ('6', '1,2,5'): no sentence
    if sentences and _CUT_SHORT.search(sentences[-1]) and _CUT_SHORT.search(lines[:_last_letter(lines)]):
        sentences = sentences[:-1]  # the text's last words, where a chunk ends: a sentence cut short
    return [s for s in sentences if not looks_like_instruction(s) and not is_boilerplate(s, terms)
            and not s.startswith("|") and not is_row_line(s)]


_PAGE_HEADER = re.compile(r"^\s*Table\s+of\s+Contents\s+(?:\d{1,3}\s+)?(?=[A-Z])")
"""A running header and the page number after it ('Table of Contents 39 Creative ARR exiting fiscal 2017 was …')."""
_ROW_BEFORE = re.compile(r"^(?:[A-Z][\w&,'’-]*\s+){1,6}(?:[$£€¥]\s?)?\(?\d[\d,.]*\)?"
                         r"(?:\s+(?:[$£€¥]\s?)?\(?\d[\d,.]*\)?)*"
                         r"\s+(?=(?:We|Our|The|In|As|During|At|On|This|These|It|Its)\s+[a-z])")
_DATELINE = re.compile(r"(?<=[\w.%)])\s+(?=(?:[A-Z][A-Za-z'-]+\s+){0,3}[A-Z][A-Za-z'-]+,\s+(?:[A-Z][A-Za-z]*\.){1,3}"
                       rf"\s*(?:\((?:{'|'.join(m.capitalize() for m in LONG_MONTHS)})\s+\d{{1,2}},\s+\d{{4}}\)|"
                       r"-{1,2}\(|—\())")
"""Where a press release's dateline ('New Brunswick, N.J. (August 30, 2023) –', 'Bolingbrook, Ill.--(BUSINESS
WIRE)--') starts, when the text runs it on from what stood above it."""


def _last_letter(text: str) -> int:
    """Where a text's last word ends: what follows is figures only (a page's footnote marks and numbers)."""
    found = list(re.finditer(r"[A-Za-z]", text))
    return found[-1].end() if found else 0


_CUT_SHORT = re.compile(r"(?i)\s(?:and|or|of|for|the|a|an|to|in|with|from|by|as|at|on|than|which|that)(?:\s+\d{1,3})?\s*$")
"""A text's last sentence that ends in a word that never ends one ('… from each segment for fiscal 2020 and'), the
page's number after it or not ('… are not rated and 170'): a chunk cut it. (Within a text, a list's item may end so: '• Commodity inflation … segments' / 'partially offset by'
/ '• Supply chain benefits …'.)"""


_ROW_END = re.compile(r"(?:\s+(?:up|down)?\s?[(\-–—+]?[$£€¥]?\s?\d[\d,.]*\)?(?:\s?%)?\)?[a-z]{0,3}|\s+[–—-]|\s+n/?m)"
                      r"{2,}"
                      r"(?:\s+(?:pts?|pp|bps|x|times|%))?\s*\.?$")


def is_row_line(line: str) -> bool:
    """A table row written as a line ('Iron ore shipped (Mt) 18.4 17.1', 'Women (% of employees) 24.6 23.1'): two
    figures or more at its end and no verb to make it a sentence; the row readers read it with its columns. A
    participle in a short label ('Iron ore shipped', 'Stores opened') names the row; in a longer text it may be
    the verb of a sentence ('We opened 9 stores and closed 17 in 2024 and 2025')."""
    end = _ROW_END.search(line)
    if not end or _DATE_AT_END.search(line):
        return False
    head = re.sub(r"\([^)]*\)", " ", line[:end.start()])  # '(kg CO2-e per tonne shipped)' is a unit
    if _FINITE.search(head):
        return False
    return not (_PARTICIPLE.search(head) and len(head.split()) > 6)


_DATE_AT_END = re.compile(rf"(?i)\b{MONTH}\s+\d{{1,2}},?\s+(?:19|20)\d{{2}}\s*\.?$")
"""A sentence that ends in a date ('… to shareholders of record at the close of business on March 28, 2019.'): its
last two figures are the day and the year, no row's columns."""
_FINITE = re.compile(r"(?i)\b(?:was|were|is|are|rose|fell|grew|increased|decreased|declined|reached|totall?ed|came to|"
                     r"amounted|stood|compared|had|has|have|expect\w*)\b")
_PARTICIPLE = re.compile(r"(?i)\b(?:employed|delivered|shipped|opened|closed|reported|recorded)\b")


def _label_words(sentence: str, spans: Sequence[tuple[int, int, float]]) -> str:
    """The measure's words as the sentence writes them, with a qualifier just before them ('core operating
    margin', 'underlying EBITDA'): a label that drops it would name another measure."""
    start, end, _ = max(spans, key=lambda s: s[2])
    before = _QUALIFIER_BEFORE.search(sentence[max(0, start - 30):start])
    return (before.group(1) + " " if before else "") + sentence[start:end]


_QUALIFIER_BEFORE = re.compile(r"(?i)\b(core|underlying|adjusted|statutory|comparable|organic|normali[sz]ed|average|"
                               r"reported|pro\s+forma)\s+$")


def _figures_for(sentence: str, spans: Sequence[tuple[int, int, float]], measure: Measure, fiscal_year: int | None,
                 company: str | None = None) -> list[tuple[tuple[float, str, int | None, str | None], float]]:
    located = [f for f in figures_located(sentence) if _fits(measure.kind, f)]
    if measure.kind == "money":
        # 'repurchased 4.2 million shares for $512 million': a scaled count of things is no amount of money
        located = [f for f in located if f.kind == "money" or not _THINGS_AFTER.match(sentence, f.end)]
        if not measure.stems & _PER_SHARE_WORDS:
            # cents and pence are a share's ('14 cents per share (pcp: 22 cents)'): no company's profit or sales
            located = [f for f in located if f.unit not in ("c", "p")]
        # 'after A$18.3 million of care and maintenance costs': the amount of what its 'of' names
        located = [f for f in located if not ((named := _AMOUNT_OF.match(sentence, f.end))
                                              and not any(_matches(w, measure.stems)
                                                          for w in analyze(named.group("noun"))))]
    if measure.count_stems and measure.kind == "count":
        nouns = [f for f in located if _count_noun_near(sentence, f, measure.count_stems)
                 and not _moved(sentence, f, measure)]
        # the comparative of a counted figure counts the same thing: '3,140 people, up from 2,910 a year earlier'
        nouns += [f for i, f in enumerate(located) if f not in nouns and i and located[i - 1] in nouns
                  and f.kind == located[i - 1].kind and _earlier(sentence, f, located[i - 1]) is not None]
        # and the total a count of them brings: 'opened 47 new restaurants, bringing the total to 2,118'
        nouns += [f for f in located if f not in nouns and any(g.start < f.start for g in nouns)
                  and _TOTAL_TO.search(sentence[max(0, f.start - 40):f.start])]
        nouns = sorted(nouns, key=lambda f: f.start)
        # a breakdown after the whole: '92,000 people, with approximately 37,000 employed in the United States and
        # 55,000 employed internationally' counts 92,000; the parts are no answer to how many in all, but the part
        # the question names is ('How many people did it employ in the United States?')
        nouns = [f for f in nouns if not any(g.start < f.start and _BREAKDOWN.search(sentence[g.end:f.start])
                                             for g in nouns)]
        parts = _parts_asked(sentence, located, nouns, measure)
        located = parts or nouns  # a sentence whose figures count other things states no count of these
    if _MANY_YEARS.search(sentence) and not _MANY_YEARS.search(" ".join(sorted(measure.stems))):
        return []  # 'The five-year compound annual growth rates … were 4.4%': no one year's figure
    by_place = {(f.start, f.end): dated_year for f, *dated_year in dated_figures(sentence, fiscal_year)}
    out = []
    for fig in located:
        if _IMPACT_OF.search(sentence[max(0, fig.start - 60):fig.start]) and not measure.stems & _IMPACT_WORDS:
            continue  # 'the impact of divestitures on sales growth was a negative impact of 0.1%': not the growth
        if _worded_as_change(sentence, fig) and not measure.stems & _CHANGE_WORDS:
            continue  # 'a $208.1 million increase in content expenses', 'revenue … increased $845.8 million': a
            # change of something, not its level
        if _ATTRIBUTE_OF.match(sentence, fig.end) and any(
                later.start > fig.end and later.kind == fig.kind and _STATED_AS.search(sentence[fig.end:later.start])
                for later in located):
            continue  # 'the remaining availability under the $2.0 billion stock repurchase plan was $1.4 billion':
            # the plan's size names the plan; what the sentence states is the later figure
        # the measure's words in a cause after the figure say why it moved, not what it is ('EBITDAR loss of $52
        # million … due primarily to the increase in revenues')
        named = [span for span in spans
                 if not (span[0] >= fig.end and _CAUSE_BETWEEN.search(sentence[fig.end:span[0]]))]
        if not named:
            continue
        distance = min(_distance(fig, span) for span in named)
        if distance > 140 or _other_subject(sentence, named, fig, measure, company):
            continue
        # how closely it is named: the fullest naming of the measure near it, what follows a figure's 'of' being
        # what it is of ('21 percent of our consolidated net sales and 30 percent of net sales of our … segment':
        # the 21 for consolidated net sales)
        # (the first of two figures that share it, '$32 billion and $27 billion of loans under the PPP', too); a
        # figure that a later 'including' makes a part of the whole named before it is less closely its
        closeness = max(span[2] - (0 if _OF_GAP.fullmatch(_PAIRED.sub("", sentence[fig.end:span[0]]))
                                   else _distance(fig, span)) / 400
                        - (0.05 if span[1] <= fig.start and (_INCLUDING.search(sentence[span[1]:fig.start]) or (
                            # a whole, then its parts after a colon ('118.9 million square feet of operating
                            # floor space: 83.2 million in the U.S.; …')
                            ":" in sentence[span[1]:fig.start]
                            and any(g.kind == fig.kind and g.end <= span[0] for g in located))) else 0)
                        for span in named)
        year, period = by_place.get((fig.start, fig.end), (fiscal_year, None))
        value = fig.value
        if value > 0 and _LOSS_OF.search(sentence[max(0, fig.start - 40):fig.start]) \
                and not measure.stems & _LOSS_WORDS:
            value = -value  # 'Adjusted Property EBITDAR loss of $52 million': a profit measure below zero
        out.append(((value, fig.unit, year, period), closeness))
    return out


_LOSS_OF = re.compile(r"(?i)\b(?:loss|deficit)\s+of\s+(?:approximately\s+|about\s+|nearly\s+)?(?:[A-Z]{0,3}[$£€¥]\s?)?$")
"""A figure a profit measure's words call a loss ('compared to Adjusted Property EBITDAR loss of $52 million')."""
_LOSS_WORDS = frozenset(analyze("loss losses deficit"))


_CAUSE_BETWEEN = re.compile(r"(?i)\b(?:due\s+(?:primarily\s+|mainly\s+|largely\s+|in\s+part\s+)?to|"
                            r"(?:primarily\s+|mainly\s+|largely\s+)?driven\s+by|because\s+of|owing\s+to|reflecting)\b")
"""Words that lead into why a figure moved ('… due primarily to the increase in revenues'); not 'as a result of',
which may name where the figure came from ('$4.1 billion in cash proceeds as a result of the debt offering')."""
_OF_GAP = re.compile(r"(?i)(?:\s+(?:million|billion|thousand))?(?:\s+(?:square|cubic|metric)?\s*[a-z]+)?"
                     r"\s+of\s+(?:(?:our|the|its|their|total)\s+)?")
"""What joins a figure to the words of what it is of: 'of our', or a unit before them ('118.9 million square feet
of operating floor space', '12 tonnes of copper')."""
_PAIRED = re.compile(r"(?i)^\s*(?:,|,?\s*and)\s+(?:approximately\s+|about\s+)?[$£€¥]?\s?\d[\d.,]*\s?"
                     r"(?:billion|million|thousand|bn|m|k|%)?(?=\s+of\b)")
"""A second figure the first is paired with before the noun both are of ('$32 billion and $27 billion of loans')."""
_INCLUDING = re.compile(r"(?i)\b(?:including|of\s+which|comprising)\b")
_PER_SHARE_WORDS = frozenset(analyze("share dividend dividends eps distribution payout"))
_AMOUNT_OF = re.compile(r"\s+of\s+(?!(?:the|our|its|their|this|that|which|whom|approximately|about|around|up|"
                        r"between)\b)(?P<noun>[a-z][a-z&-]*(?:\s+(?:and\s+)?[a-z][a-z&-]*){0,4}?)"
                        r"(?=\s*[,.;:)]|\s+(?:for|in|at|on|during|from|to|was|were|is|are|as|by|with|related)\b)")
"""An amount followed by what it is an amount of ('A$18.3 million of care and maintenance costs')."""
_THINGS_AFTER = re.compile(r"\s+(?:(?!(?:in|of|from|to|for|at|on|by|and|or)\b)[a-z][\w-]*\s+)?"
                           r"(?!(?:dollars|euros|pounds|yen|francs|rupees|kronor|kroner|pesos|reais|yuan|won|rand|"
                           r"was|is|has|its|this|plus|less|units?\s+of\s+currency)\b)"
                           r"[a-z][\w-]*[^s\W]s\b")
"""Things counted after a scaled figure ('4.2 million shares', '1.5 million common shares'), not a currency."""
_ATTRIBUTE_OF = re.compile(r"(?i)\s+(?:[a-z][\w-]*\s+){0,3}(?:plan|program|programme|agreement|facility|"
                           r"authori[sz]ation|notes|bonds?|loan|offering|commitment|share\s+repurchase)\b")
"""A figure that names the size of what follows it ('$2.0 billion stock repurchase plan', '$4.2 billion five year
credit agreement')."""
_STATED_AS = re.compile(r"(?i)\b(?:was|were|is|are|totall?ed|remained|stood\s+at|of)\s+(?:approximately\s+|about\s+)?$")
_MANY_YEARS = re.compile(r"(?i)\bcompound\s+annual\b|\bCAGR\b|\bcagr\b|\bcompound\b")
"""A rate over several years ('the five-year compound annual growth rate'), which states no one year's figure."""
_IMPACT_OF = re.compile(r"(?i)\b(?:impact|effect)s?\s+of\s+(?:(?:[\w/&-]+\s+){1,6}?of\s+)?"
                        r"(?:approximately\s+|about\s+|roughly\s+)?$")
"""'a negative impact of 0.1%', 'the negative impact of disposed and ceased operations of $63 million'."""
_IMPACT_WORDS = frozenset(analyze("impact effect"))
_CHANGE_IN = re.compile(r"(?i)\s*(?:million|billion|thousand|m|bn|k)?\s*(?:year-over-year\s+|year-on-year\s+)?"
                        r"(?:increase|decrease|rise|decline|reduction|growth|drop|improvement|deterioration)\s*in\b")
_CHANGED_BY = re.compile(r"(?i)\b(?:increased|decreased|rose|fell|grew|declined|improved|dropped|jumped|"
                         r"climbed|was\s+up|were\s+up|was\s+down|were\s+down)(?:\s+(?!to\b|from\b|at\b)[a-z]+){0,2}"
                         r"\s+(?:by\s+)?(?:approximately\s+|about\s+|nearly\s+|almost\s+|some\s+)?$")
"""'increased $845.8 million', 'fell by about $12 million', 'grew revenue 12.4%': the figure after the verb is the
change (a level follows 'to')."""
_CHANGE_OF = re.compile(r"(?i)\b(?:increase|decrease|rise|decline|reduction|drop|fall|variation|change|improvement|"
                        r"deterioration)s?\s+(?:of|by)\s+(?:approximately\s+|about\s+|nearly\s+|some\s+)?$")
"""'the remaining variation in adjusted EBIT … was an increase of $16 million': a change, not the level."""
_CHANGE_WORDS = frozenset(analyze("increase decrease change growth rise decline reduction"))


_UP_DOWN = re.compile(r"(?i)\b(?:up|down|growth\s+of|grew\s+by|an?\s+(?:rise|increase|fall|decline|decrease)"
                      r"\s+of)\s*$|\b(?:increased|decreased|rose|fell|grew|declined|up|down)\b[^;]{0,30},?\s+or\s*$")
"""'up 4.2%', 'an increase of 3%', 'increased by €60.1m, or 4.9%'."""


def states_change(sentence: str, value: float) -> bool:
    """Whether the sentence states this figure as a change ('operating income increased 13.6%', 'up 4.2%', 'an
    increase of 3%'), not as a level or a share ('a conversion rate of 96.9% of EBITDA')."""
    for fig in figures_located(sentence):
        if abs(fig.value) == abs(value) and (_worded_as_change(sentence, fig) or _UP_DOWN.search(
                sentence[max(0, fig.start - 60):fig.start])):
            return True
    return False


def _worded_as_change(sentence: str, fig: Located) -> bool:
    """'a $208.1 million increase in …', 'increased $845.8 million', 'an increase of $16 million': the figure is
    a change of something, not its level."""
    before = sentence[max(0, fig.start - 60):fig.start]
    return bool(_CHANGE_IN.match(sentence[fig.end:]) or _CHANGED_BY.search(before) or _CHANGE_OF.search(before))


_NEW_CLAUSE = re.compile(r"(?i)(?:[,;]|\band\b|\bwhile\b|\bwhereas\b)\s+(?P<subject>(?:[\w&'’/-]+\s+){1,5}?)"
                         r"(?:rose|fell|increased|decreased|grew|declined|was|were|reached|improved|totall?ed|"
                         r"amounted|came\s+in|climbed|dropped)\b")


def _other_subject(sentence: str, spans: Sequence[tuple[int, int, float]], fig: Located, measure: Measure,
                   company: str | None = None) -> bool:
    """Whether a figure after the measure belongs to a clause with a subject of its own: 'Revenue rose 12.4% to
    £437.2m, …, and operating profit increased 16.1% to £48.3m' (the £48.3m is operating profit's). The company
    that reports is no other subject ('Kestrel Games reached 312 million monthly active users')."""
    before = [span for span in spans if span[1] <= fig.start]
    if not before:
        # the measure is named only after the figure, in a clause of its own ('Revenue rose to £437.2m, and
        # operating profit increased to £48.3m': the £437.2m is not operating profit's)
        after = min(span[0] for span in spans)
        if re.search(r"(?i)(?:[;]|,\s*(?:and|while|whereas|but)\b|\b(?:while|whereas)\b)", sentence[fig.end:after]):
            return True
        # or the figure's own clause names another measure as its subject ('Adjusted profit before tax rose 2.6%
        # to £70.5m on revenue up 3.8% to £1,486.2m': the £70.5m is the profit's)
        own = _SUBJECT_VERB.search(sentence[:fig.start])
        return bool(own and set(analyze(own.group("subject"))) - _FILLER_STEMS
                    and not set(analyze(own.group("subject"))) & set(measure.stems)
                    and not _names_reporter(own.group("subject"), company))
    between = sentence[max(span[1] for span in before):fig.start]
    for clause in _NEW_CLAUSE.finditer(between):
        if not set(analyze(clause.group("subject"))) & set(measure.stems):
            return True
    return False


def _names_reporter(subject: str, company: str | None) -> bool:
    """Whether a clause's subject is the reporting company by its name ('Kestrel Games' of Kestrel): proper nouns
    only, one of them a word of the company's name."""
    words = subject.split()
    return bool(company and words and all(w[:1].isupper() for w in words)
                and set(analyze(subject)) & set(analyze(company)))


_SUBJECT_VERB = re.compile(r"(?i)(?:^|[.;:]\s*|,\s*(?:and|while|whereas|but)\s+)(?P<subject>(?:[\w&'’/-]+\s+){1,8}?)"
                           r"(?:rose|fell|increased|decreased|grew|declined|was|were|reached|improved|totall?ed|"
                           r"amounted|came\s+in|climbed|dropped)\b[^,;]*$")
"""The subject and verb of the clause a figure closes ('Adjusted profit before tax rose 2.6% to …')."""
_FILLER_STEMS = frozenset(analyze("the our its their group company total this that year"))
_COMPARED = re.compile(r"(?i)\b(?:compared\s+(?:with|to)|versus|vs\.?|against)\s*(?:approximately\s+|about\s+)?$")
"""What puts a figure beside the sentence's own as its comparative ('… compared to $8.6 billion in fiscal 2021',
'… compared to $2.7 billion in the fourth quarter of fiscal 2021')."""
_YEAR_AFTER = re.compile(r"(?i)^\s*(?:in|for|during|at\s+the\s+end\s+of|at|by)\s+(?:the\s+)?"
                         r"(?:(?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?(?:quarter|half)\s+of\s+)?"
                         rf"(?:fiscal\s+(?:year\s+)?|financial\s+year\s+|FY\s?|(?:{'|'.join(LONG_MONTHS)})\s+)?"
                         r"((?:19|20)\d{2})(?!\d)")  # ('of 2019and 52%': words PDF extraction glues on)
"""The year written right after a figure: 'in fiscal 2023', 'in the fourth quarter of 2022', 'in October 2020'
(a month's calendar year)."""


_YEAR_BEFORE = re.compile(r"(?i)\b(?:at\s+the\s+end\s+of|as\s+(?:of|at)|in|for|during)\s+(?:the\s+)?(?:fiscal\s+"
                          r"(?:year\s+)?|financial\s+year\s+|FY\s?)?((?:19|20)\d{2})\s+(?:was|were|stood\s+at|"
                          r"totall?ed|amounted\s+to|reached|came\s+to)\s+(?:approximately\s+|about\s+)?$")
"""A year bound to the figure by the verb between them ('at the end of 2022 was $39.7 billion')."""
_OPENING_DAY = re.compile(rf"(?i)^\s*(?:as\s+of|as\s+at|at)\s+(?:(?P<month>{MONTH})\s+\d{{1,2}},?|\d{{1,2}}\s+"
                          rf"(?P<month2>{MONTH}))\s+(?P<year>(?:19|20)\d{{2}})\s*,")
"""A sentence that opens with the day it speaks of ('As of December 2, 2016, …')."""
_OPENING_YEAR = re.compile(r"(?i)^\s*(?:in|for|during)\s+(?:the\s+)?(?:fiscal\s+(?:year\s+)?|financial\s+year\s+|"
                           r"FY\s?)?((?:19|20)\d{2})\s*,")
"""A sentence that opens with its year ('In 2022, …'): the year of each figure nothing else binds to one."""


def dated_figures(sentence: str, fiscal_year: int | None) -> list[tuple[Located, int | None, str | None]]:
    """Every figure of a sentence with the fiscal year it is for, and 'low'/'high' for the ends of a range: a
    year written right after it ('€717.5m in FY2023'), a bracket's year ('(FY2023: 2,740)'), the year before the
    sentence's for 'a year earlier', 'up from' or 'compared with', else the one year the sentence names (its
    bracketed comparatives aside), else `fiscal_year` (the year after it when the sentence looks ahead and names
    none). None when the sentence names several years and nothing binds the figure to one."""
    located = figures_located(sentence)
    own_years = _COMPARATIVE.sub(" ", sentence)  # '(2023: 45.4%)' names the comparative's year, not the sentence's
    own_years = _PAYMENT_DAY.sub(" ", own_years)  # 'payable on 23 May 2025': when it is paid, not what year it is for
    if fiscal_year:
        # a retailer's year ends early in the next ('as of January 31, 2025' in its fiscal 2024 report): its year end
        # (a sentence cut after its 'As of' opens with the day: 'January 25, 2018, there were approximately 327 …')
        own_years = re.sub(rf"(?i)(?:\b(?:as\s+of|as\s+at|at)\s+|^\s*){_EARLY_MONTHS}\s+\d{{1,2}}\s*,?\s+"
                           rf"{fiscal_year + 1}\b", " at the year end", own_years)
    years = sorted(set(fiscal_years_named(own_years))) or _bare_years(own_years)
    own = years[-1] if len(years) == 1 else (fiscal_year if not years else None)
    if (day := _OPENING_DAY.match(sentence)) is not None:
        # 'As of December 2, 2016, we had … backlog of approximately $3.4 billion of which … is not expected to be
        # billed during fiscal 2017': the day it opens with dates its figures, not the year it looks ahead to (a
        # retailer's year end, early in the next calendar year, is of the year before)
        own = int(day.group("year"))
        month = day.group("month") or day.group("month2")
        if fiscal_year and own == fiscal_year + 1 and re.match(rf"(?i){_EARLY_MONTHS}", month):
            own = fiscal_year
    if own is None and (opening := _OPENING_YEAR.match(sentence)):
        own = int(opening.group(1))  # 'In 2022, worldwide sales increased 1.3% … compared to 13.6% in 2021
    if own is None and len(years) > 1:
        # each year but one dates a figure of its own ('ended 2024 with 512 aircraft, up from 498 at the end of
        # 2023'): the one left is the sentence's
        bound = {int(m.group(1)) for f in located for m in (_year_after(sentence, f),
                                                            _YEAR_BEFORE.search(sentence[max(0, f.start - 80):f.start]))
                 if m}
        left = set(years) - bound
        own = left.pop() if len(left) == 1 and bound else None
    if not years and fiscal_year and _FORWARD.search(measured_against_plan(sentence)):
        own = fiscal_year + 1  # 'Operating income is forecast to fall to …': next year's, in this year's report
    if len(years) == 1 and own == years[0] and any(
            _year_after(sentence, f) and _COMPARED.search(sentence[max(0, f.start - 30):f.start])
            for f in located):
        # the one year named is the comparative's ('increased 18.3% to $10.2 billion compared to $8.6 billion in
        # fiscal 2021'): the other figures are the year after's
        own = years[0] + 1
    out = []
    for i, fig in enumerate(located):
        year, period = own, None
        if m := _year_after(sentence, fig):
            year = int(m.group(1))
            if fiscal_year and year == fiscal_year + 1 and re.search(rf"\b{_EARLY_MONTHS}\s+\d{{1,2}}\b", m.group(0)):
                year = fiscal_year  # a retailer's year end, early in the next ('as of January 31, 2025')
        elif m := _YEAR_BEFORE.search(sentence[max(0, fig.start - 80):fig.start]):
            year = int(m.group(1))  # 'the total debt balance at the end of 2022 was $39.7 billion'
        else:
            earlier = _earlier(sentence, fig, located[i - 1] if i else None)
            if earlier is not None:
                year = earlier if earlier > 0 else (own - 1 if own else None)
        if i and _is_range(sentence, located[i - 1], fig):
            period = None if _FROM.search(sentence[:located[i - 1].start]) else "high"
        elif i + 1 < len(located) and _is_range(sentence, fig, located[i + 1]):
            period = None if _FROM.search(sentence[:fig.start]) else "low"
        out.append((fig, year, period))
    return _parts_listed(sentence, _respectively(sentence, out))


_PARTS_LISTED = re.compile(rf"(?i)\s*for\s+the\s+(three|six|nine)\s+and\s+(six|nine|twelve)\s+months\s+ended\s+"
                           rf"{MONTH}\s+\d{{1,2}},?\s+((?:19|20)\d{{2}}),?\s+respectively\b")
"""Two figures listed as the parts of a year are ('13.8% and 22.1% for the three and six months ended June 30,
2023, respectively'): the first for the shorter part, the second for the longer, both of the year after them."""
MONTHS_PART = {"three": "Q", "six": "H", "nine": "9M", "twelve": None}
"""The part of a year a span of months is ('the three months ended …': a quarter)."""


def _listed_pairs(sentence: str, located: Sequence[Located]) -> Iterator[tuple[int, re.Match[str]]]:
    """Where two figures of a kind, one after the other, are listed by `_PARTS_LISTED`: the first's index among
    `located` and the phrase after the second."""
    for i, (a, b) in enumerate(zip(located, located[1:])):
        if a.kind == b.kind and _LIST_GAP.match(sentence[a.end:b.start]) \
                and (listed := _PARTS_LISTED.match(sentence, b.end)):
            yield i, listed


def _parts_listed(sentence: str, dated: list[tuple[Located, int | None, str | None]]
                  ) -> list[tuple[Located, int | None, str | None]]:
    """Each pair of figures `_PARTS_LISTED` dates takes the year the phrase after it names."""
    out = list(dated)
    for i, listed in _listed_pairs(sentence, [fig for fig, _, _ in dated]):
        year = int(listed.group(3))
        out[i], out[i + 1] = (out[i][0], year, out[i][2]), (out[i + 1][0], year, out[i + 1][2])
    return out


def listed_part(sentence: str, value: float) -> str | None:
    """The part of the year a figure listed by `_PARTS_LISTED` is for ('Q' for the three months, 'H' for the six,
    '9M' for the nine); None for any other figure."""
    located = figures_located(sentence)
    for i, listed in _listed_pairs(sentence, located):
        if abs(located[i].value) == abs(value):
            return MONTHS_PART[listed.group(1).lower()]
        if abs(located[i + 1].value) == abs(value):
            return MONTHS_PART[listed.group(2).lower()]
    return None


_EARLY_MONTHS = "(?:January|February)"
"""The months a retailer's fiscal year ends in, early in the calendar year after the one it is named by."""


def _year_after(sentence: str, fig: Located) -> re.Match[str] | None:
    """The year written right after a figure ('€717.5m in FY2023'), or after the noun it counts ('4.6 million
    units in 2024')."""
    after = sentence[fig.end:fig.end + 60]
    if m := _YEAR_AFTER.match(after):
        return m
    if (share := _SHARE_ASIDE.match(after)) and (m := _YEAR_AFTER.match(after[share.end():])):
        return m  # '$1,180 million, or 15.0%, in 2023'
    if (rate := _PER_SHARE_RATE.match(after)) and (m := _YEAR_AFTER.match(after[rate.end():])):
        return m  # '$4.45 per share in 2022'
    if m := _DAY_AFTER.match(after):
        return m  # '12,400 employees at December 31, 2024' ('at' the count's noun)
    if fig.kind == "money" and (spent := _SPENT_ON.match(after)) and (m := _YEAR_AFTER.match(after[spent.end():])):
        return m  # '$50 million in bitcoin in October 2020'
    noun = _COUNTED_NOUN.match(after)
    return _YEAR_AFTER.match(after[noun.end():]) if noun and fig.kind == "count" else None


_DAY_AFTER = re.compile(r"^\s+(?:[a-z][\w-]*\s+){0,2}?(?:at|as\s+of|as\s+at|on)\s+(?:[A-Z][a-z]+\s+\d{1,2},?|\d{1,2}\s+"
                        r"[A-Z][a-z]+)\s+((?:19|20)\d{2})\b")
_PER_SHARE_RATE = re.compile(r"(?i)\s+(?:per|a)\s+(?:common\s+|ordinary\s+|diluted\s+|basic\s+)?(?:share|ADS)\b")
_SHARE_ASIDE = re.compile(r",\s*or\s+[\d.]+\s?%(?:\s+of\s+(?:[a-z]+\s+){0,2}?[a-z]+)?,")
_SPENT_ON = re.compile(r"(?i)\s+(?:in|of|on)\s+(?:(?!(?:in|for|during|at|by|of|to|and|or|from|the)\b)[a-z][\w-]*\s*)"
                       r"{1,3}?(?=\s(?:in|for|during|at|by)\b)")
"""What an amount was spent on or held in, between it and its year ('$50 million in bitcoin in October 2020')."""
_COUNTED_NOUN = re.compile(r"\s+(?:(?!(?:in|for|during|at|by|of|to|and|or|from)\b)[a-z][\w-]*\s*){1,3}?"
                           r"(?=\s(?:in|for|during|at|by)\b)")


def _is_range(sentence: str, low: Located, high: Located) -> bool:
    """Whether two figures of a kind are a range's ends: 'to' or a dash between them ('18.5Mt to 19.5Mt'), or
    'and' after 'between' ('between 18.5Mt and 19.5Mt'); 'were 13.1% and 13.7%, respectively' lists two things'
    figures."""
    gap = _RANGE.match(sentence[low.end:high.start])
    if not gap or low.kind != high.kind:
        return False
    return gap.group(1).casefold() != "and" or bool(_BETWEEN.search(sentence[max(0, low.start - 30):low.start]))


_BETWEEN = re.compile(r"(?i)\bbetween\s+(?:\S+\s+){0,2}$")


_DAY = r"(?:(?:[A-Z][a-z]{2,8}\.?\s+\d{1,2},?|\d{1,2}\s+[A-Z][a-z]{2,8})\s+)?"
_YEAR_LIST = re.compile(rf"(?<![\d.,$£€¥]){_DAY}((?:19|20)\d{{2}})((?:\s*,\s*{_DAY}(?:19|20)\d{{2}})*),?\s+(?:and|&)\s+"
                        rf"{_DAY}((?:19|20)\d{{2}})\b")
"""Years listed ('2022, 2021 and 2020'), or days ('At March 31, 2021 and December 31, 2020, … respectively')."""
_LIST_GAP = re.compile(r"^\s*(?:,|,?\s*(?:and|&))\s*$")


def _respectively(sentence: str, dated: list[tuple[Located, int | None, str | None]]
                  ) -> list[tuple[Located, int | None, str | None]]:
    """Figures listed as the years are, 'respectively' ('totaled $1.49, $1.48 and $1.47 per share for each quarter
    in 2022, 2021 and 2020, respectively, which resulted in total year dividends of $5.96, $5.92 and $5.88 per
    share, respectively'): each run of as many figures as years, one after another, dated in the years' order."""
    if "respectively" not in sentence.casefold() or not (found := _YEAR_LIST.search(sentence)):
        return dated
    years = [int(found.group(1)), *(int(y) for y in re.findall(r"(?:19|20)\d{2}\b", found.group(2))),
             int(found.group(3))]
    out = list(dated)
    i = 0
    while i + len(years) <= len(out):
        run = out[i:i + len(years)]
        if all(b[0].kind == a[0].kind and _LIST_GAP.match(sentence[a[0].end:b[0].start]) for a, b in zip(run, run[1:])):
            out[i:i + len(years)] = [(fig, year, None) for (fig, _, _), year in zip(run, years)]
            i += len(years)
        else:
            i += 1
    return out


def _bare_years(sentence: str) -> list[int]:
    """Calendar years a sentence names on their own ('in 2024', 'at 31 December 2024')."""
    return sorted({int(y) for y in re.findall(r"(?<![\d.,$£€¥])((?:19|20)\d{2})(?![\d%]|\.\d|,\d)", sentence)})


def _distance(fig: Located, span: tuple[int, int, float]) -> int:
    start, end, _ = span
    if fig.start >= end:
        return fig.start - end
    if fig.end <= start:
        return (start - fig.end) * 2  # a figure before the measure's words belongs to them less often
    return 0


def _parts_asked(sentence: str, located: Sequence[Located], wholes: Sequence[Located], measure: Measure
                 ) -> list[Located]:
    """The parts of a counted whole whose own words are the words the question adds to the count ('employ in the
    United States' of '93,516 people, with 37,412 employed in the United States and 56,104 employed
    internationally': 37,412); none when the question adds no words, or no part states them all."""
    extra = {w for w in measure.stems - measure.count_stems if w not in _COUNTING_VERBS}
    if not extra or not wholes:
        return []
    out = []
    for k, fig in enumerate(located):
        if fig in wholes or fig.kind != "count" or not any(
                g.start < fig.start and _BREAKDOWN.search(sentence[g.end:fig.start]) for g in wholes):
            continue
        end = located[k + 1].start if k + 1 < len(located) else len(sentence)
        own = re.split(r"(?i),|;|\band\b", sentence[fig.end:end])[0]
        if all(any(_matches(w, frozenset({x})) for w in analyze(own)) for x in extra):
            out.append(fig)
    return out


_COUNTING_VERBS = frozenset(analyze("employ employs employed have has had operate operates operated total totaled "
                                    "number count people"))
"""Words of a count question that say it counts, not what part of the whole it counts."""
_BREAKDOWN = re.compile(r"(?i)\b(?:including|(?<!the\syear\s)(?<!the\speriod\s)(?<!compared\s)with|of\s+which|"
                        r"of\s+whom|comprising|split\s+between)\b|:")
"""What leads from a whole to its parts: '92,000 people, with 37,000 employed in …', '815 warehouses worldwide: 564
in the United States, …, 105 in Canada'."""
_PAYMENT_DAY = re.compile(r"(?i)\b(?:payable|(?:to\s+be\s+)?paid|(?:ex-dividend|record|payment)\s+date)\s+"
                          r"(?:is\s+|will\s+be\s+)?(?:on\s+)?(?:or\s+about\s+)?"
                          r"(?:\d{1,2}\s+[A-Z][a-z]+|[A-Z][a-z]+\s+\d{1,2},?)\s+"
                          r"(?:19|20)\d{2}\b")
"""The day a payout is paid or fixed ('payable on 23 May 2025', 'paid on March 21, 2023'): no year the payout is for."""
_CHANGED_TO = re.compile(r"(?i)\b(?:increased|decreased|rose|fell|grew|declined|dropped|climbed|reduced|expanded)\s+"
                         r"(?:by\s+)?(?:approximately\s+|about\s+)?(?:[\d.,]+\s?%?\s+)?to\s+"
                         r"(?:approximately\s+|about\s+)?$")
_TOTAL_TO = re.compile(r"(?i)\b(?:bringing|taking|increasing|raising|reducing|lifting)\s+(?:the|our|its|their)\s+"
                       r"(?:total|count|number|network|estate|portfolio)(?:\s+(?:count|number))?\s+to\s+"
                       r"(?:approximately\s+|about\s+)?$|\bfor\s+a\s+total\s+of\s+$")
"""A total that the count before it brings ('opened 47 restaurants, bringing the total to 2,118')."""
_COUNT_LEAD = re.compile(r"(?i)(?:[:=]|\bof|\bwas|\bwere|\btotall?ed|\bstood\s+at|\breached|\bemployed|\bemploys|"
                         r"\bemploying|\bhad|\bhas|\boperated|\boperates)\s*(?:approximately|about|around|some|"
                         r"nearly|over|more\s+than|almost|roughly)?\s*$")


_SHARED_NOUN = re.compile(r"\s*(?:\([^()]{0,40}\))?\s*,?\s*(?:and|or)\s+(?:[a-z]+\s+){0,2}?"
                          r"(?:approximately\s+|about\s+)?\d[\d,.]*(?=\s+[A-Za-z])")
"""A count and the next one that share the noun after it ('operate 500 (all leased) and franchise 358 … parlors')."""
_QUALIFIED_COUNT = re.compile(rf"(?i)^\s+(?:(?:{COUNT_QUALIFIER_WORDS}|,)\s*){{2,6}}(?P<noun>[a-z][\w-]*)")
"""A count's noun after a run of words that only qualify it ('total full-time and part-time employees', '35,000
full- and part-time employees')."""


def _count_noun_near(sentence: str, fig: Located, stems: frozenset[str]) -> bool:
    """The count noun right after the figure ('5,000 employees') and heading what it counts (not '214 new patent
    applications' for patents), or right before it with a word that leads to the count ('headcount of 4,215',
    'employed approximately 92,000'), not a noun of another figure before it ('5,000 employees at 52 significant
    manufacturing facilities': the 52 counts facilities)."""
    if re.match(r"\s*(?:(?:per|a|an)\s+|/\s*)[a-z]", sentence[fig.end:fig.end + 8]):
        return False  # 'A$37–40 per tonne' is a rate, no count of tonnes ('312 million average users' counts)
    if re.match(r"\s*of\s+(?:our|the|its|their|these|those|whom|which)\b", sentence[fig.end:fig.end + 16]):
        return False  # '120 of our full-time employees were subject to …': a part of them, not their number
    if _RANGE_ON.match(sentence, fig.end):
        return False  # '10 to 15 net store closures': a range's low end, no count stated
    if _modifies_head(sentence[fig.end:fig.end + 60], stems):
        return False  # '112 store leases', '12 store openings': the noun describes what is counted
    if (shared := _SHARED_NOUN.match(sentence, fig.end)) and any(
            _matches(w, stems) for w in analyze(sentence[shared.end():shared.end() + 40])[:4]) \
            and not _modifies_head(sentence[shared.end():shared.end() + 60], stems):
        return True  # 'we operate 500 (all leased) and franchise 358 branded ice cream parlors': both count them
    after = analyze(sentence[fig.end:fig.end + 40])[:3]
    noun_after = any(_matches(w, stems) for w in after)
    if not noun_after and (qualified := _QUALIFIED_COUNT.match(sentence[fig.end:fig.end + 80])) and any(
            _matches(w, stems) for w in analyze(qualified.group("noun"))):
        return True  # '9,200 total full-time and part-time employees': the noun after the words that qualify it
    if noun_after:
        # the noun must head what is counted: '214 new patent applications' counts applications, not patents
        phrase = re.match(r"\s*((?:[\w-]+\s+){0,3}?[\w-]+)(?=\s*(?:[,.;:()]|\b(?:of|in|at|for|on|to|from|by|with|"
                          r"and|or|as|was|were|is|are|during|across|outside|inside|within|beyond|throughout|worldwide|"
                          r"globally|who|that|which|have|has|had|"
                          r"made|make|makes|work|works|serve|serves|help|helps|will|can|[a-z]+ed)\b|$))",
                          sentence[fig.end:fig.end + 60])
        words = analyze(phrase.group(1)) if phrase else []
        if len(words) > 1 and words[-1] in _ITSELF_STEMS:
            words = words[:-1]  # '1,200 restaurant locations' counts restaurants
        # (a noun past the phrase's end counts another figure's things: '17 closed; 387 stores')
        return not words or _matches(words[-1], stems)
    before = sentence[max(0, fig.start - 40):fig.start]
    wider = sentence[max(0, fig.start - 80):fig.start]
    if changed := _CHANGED_TO.search(wider):
        # 'Our headcount decreased by 6% to 8,450': the noun before the change's verb
        return any(_matches(w, stems) for w in analyze(wider[:changed.start()])[-2:])
    lead = _COUNT_LEAD.search(before)
    if lead is None:
        return False
    # ('Total paid memberships at the end of the year were 61.7 million': the date between noun and verb aside)
    head = _DATED_BEFORE_VERB.sub(" ", sentence[max(0, fig.start - 100):fig.start - len(before) + lead.start()])
    return any(_matches(w, stems) for w in analyze(before[:lead.end()])[-2:]) or any(
        _matches(w, stems) for w in analyze(head)[-2:])


_MOVED = re.compile(r"(?i)\s+(?P<noun>(?:(?!(?:and|or|but|then|were|was)\b)[\w-]+\s+){0,2}?"
                    r"(?!(?:and|or|but|then|were|was)\b)[\w-]+)\s+(?P<verb>opened|closed|acquired|added|sold|divested|"
                    r"launched|refurbished|refitted|remodell?ed|relocated|hired|recruited|converted|disposed)\b"
                    r"(?!\s+(?:by|with|at)\b)")
"""A count whose noun a verb of the year's movements follows ('9 stores opened', '1,200 people hired'): a flow."""


def _moved(sentence: str, fig: Located, measure: Measure) -> bool:
    """Whether a count is of the year's movements ('9 stores opened, 17 closed') and the question asks for none:
    those opened in the year are not how many there are."""
    moved = _MOVED.match(sentence, fig.end)
    return bool(moved) and not measure.stems & frozenset(analyze(moved.group("verb"))) and any(
        _matches(w, measure.count_stems) for w in analyze(moved.group("noun")))


_RANGE_ON = re.compile(r"\s*(?:to|-|–|—)\s*\d")
"""A figure that opens a range ('10 to 15', '10–15')."""
_PLURAL_HEAD = re.compile(r"[a-z][a-z-]*[^su\W]s")
_ITSELF = frozenset({"locations", "sites", "units", "outlets", "doors"})
"""Plural heads that count the thing a singular noun before them names ('1,200 restaurant locations')."""
_ITSELF_STEMS = frozenset(analyze(" ".join(_ITSELF)))


def _modifies_head(after: str, stems: frozenset[str]) -> bool:
    """Whether the count noun after a figure is written in the singular before a plural noun that heads what is
    counted ('store leases', 'store closures', 'employee claims'): it describes the count, it is not counted."""
    words = re.findall(r"[A-Za-z][\w'-]*", after)[:4]
    for word, following in zip(words, words[1:]):
        if _matches(next(iter(analyze(word)), ""), stems):
            return (not word.lower().endswith("s") and following not in _ITSELF
                    and bool(_PLURAL_HEAD.fullmatch(following))
                    and not any(_matches(w, stems) for w in analyze(following)))
    return False


_DATED_BEFORE_VERB = re.compile(r"(?i),?\s+(?:at|as\s+of|as\s+at|by|in|for|during)\s+(?:the\s+)?(?:end\s+of\s+"
                                r"(?:the\s+)?)?(?:fiscal\s+|financial\s+)?(?:year|quarter|period|year[- ]end|"
                                r"(?:19|20)\d{2}|[A-Z][a-z]+\s+\d{1,2},?\s+(?:19|20)\d{2}|\d{1,2}\s+[A-Z][a-z]+\s+"
                                r"(?:19|20)\d{2})(?:\s+(?:19|20)\d{2})?,?\s*$")
"""A date between a count's noun and its verb ('memberships at the end of the year were', 'employees as of
December 31, 2024 were')."""


def _earlier(sentence: str, fig: Located, previous: Located | None) -> int | None:
    """-1 when the figure is the previous period's ('up from 2,910 a year earlier'), a year when a bracket names
    it ('(FY2023: 2,740)'), None when it is the sentence's own period."""
    before = sentence[max(0, fig.start - 40):fig.start]
    if m := _NAMED_PRIOR.search(before):
        return int(m.group("year") or f"20{m.group('short')}")
    if _EARLIER_AFTER.match(sentence[fig.end:fig.end + 60]):
        return -1
    if _EARLIER_BEFORE.search(before):
        # 'from X to Y': X is the earlier figure; 'rose 4% from X' too
        return -1
    return None
