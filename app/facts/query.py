"""The facts a question asks for, read from the evidence it was given: a `FactQuery` from the question, the
candidate `Fact`s every statement row, table row and sentence offers, and the one that answers it.

A fact is a figure with where and when it holds: the company, the segment (or the whole company), the period
(a fiscal year, and a half or quarter when the column or sentence says so), the row or sentence it was read from
and how well that names the measure asked. Candidates come from

- statement and table rows (app/text/statements.read_statement; markdown tables via app/facts/readers): the row's
  label names the measure, each column gives a period; a table titled by a segment ('Iron Ore FY2024 FY2023')
  gives its rows that segment;
- sentences (app/facts/prose.py): the figure next to the measure's words, dated by what the sentence says.

`choose(facts, query)` keeps the facts of the company, segment and period asked (the latest period a filing
covers when the question names none; a forecast for a year only when a forecast is asked) and ranks them: how
fully the label or sentence names the measure, then a primary statement's row before a summary table's, then
a sentence. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, TypeVar

from app.calc_tools import Figure
from app.facts.currency import evidence_currency, filing_name
from app.facts.prose import (COUNT_WORDS, RATING_ASKED, Measure, counted_only, figure_located, listed_part,
                             measure_kind, measured_against_plan, prose_facts, whole_sentences)
from app.knowledge.analyzer import analyze
from app.facts.members import REGION_IN, heading_above, named_segments, segment_heading, segment_under
from app.text.dates import LONG_MONTHS, month_number
from app.text.figures import RETURN_ON_LABEL, parse_cell
from app.text.periods import (PART, column_years, deadline_years, end_worded, fiscal_years_named, part_named,
                              parts_agree, period_day, years_named)
from app.text.sentences import is_contract_text
from app.text.terms import ADJUSTED_NAMES, false_friends, kindred_in, stem_in_words
from app.text.units import SCALE_FACTORS, unit_currency
from app.text.question_kinds import MeasureAsked, asked_sentence, measure_asked
from app.text.measures import (ABROAD, LEAVING_OUT, LEFT_ASIDE, OUTSIDE_HOME, TURNED_INTO, counted_as, deal_names,
                                first_part,
                                name_initials, names_adjusted, part_asked, plain_measures, ranking_lead, without_form,
                                without_source)
from app.text.statements import (AS_FILED, NUMBER_OF, PER_SHARE_LABEL, StatementRow, continues_regional_split, is_total,
                                  is_whole, read_statement)

_FORWARD = re.compile(r"(?i)\b(?:forecast\w*|guidance|guide[ds]?|outlook|expect(?!ations?\b)\w*|anticipat\w*|"
                      r"(?<!\bat\s)target(?:s|ed|ing)?\b(?!\s+(?:annual\s+)?(?:bonus|award|payout|incentive|"
                      r"opportunity))|"  # (a bonus 'at target' is its standard rate, no forecast)
                      r"(?<!repurchase\s)(?<!buyback\s)(?<!incentive\s)(?<!pension\s)(?<!benefit\s)(?<!stock\s)"
                      r"(?<!purchase\s)(?<!savings\s)(?<!retirement\s)(?<!compensation\s)(?<!equity\s)(?<!option\s)"
                      r"(?<!award\s)(?<!ownership\s)(?<!bonus\s)plan(?:s|ned)?|"  # (a program, named so, is no forecast)
                      r"project(?:ed|ion)s?|budget\w*|following\s+(?:financial\s+|fiscal\s+)?year|next\s+year|"
                      r"intend\w*|aim(?:s|ed)?\s+to|goal|ambition|will\s+(?:reduce|increase|reach|grow))\b")
_TOTAL = frozenset(analyze("total group consolidated net reported overall company"))
_QUALIFIERS = frozenset(analyze("non gaap ifrs reported"))
_TONNES = frozenset(analyze("tonnes tons tonne"))
_QUALIFYING = re.compile(r"(?i)\b(?:average|underlying|adjusted|core|comparable|organic|normali[sz]ed|"
                         r"pro\s+forma|same[- ]stores?|like[- ]for[- ]like|constant[- ]currency|"
                         r"(?:interim|final|special)\s+dividends?)\b")
"""Words that make a measure another one ('average number of employees', 'underlying EBITDA', a year's 'final
dividend', which is part of its dividend; not 'statutory', which is the measure as the accounts state it): a figure
they qualify answers a question that says them, and ranks below the plain figure for one that does not."""
NET_UNSAID = 0.05
"""What a label that leaves out the 'net' the question says costs its match."""
QUALIFIED = 0.3
"""What a qualifier the question does not say costs a fact's match."""
_DATING = frozenset(analyze("january february march april may june july august september october november december "
                           "year end ended ending as at"))
"""A row label's words that date it ('Employees at 30 June'), not words of another measure."""
_UNIT_WORDS = frozenset(analyze("million millions thousand thousands billion usd eur gbp aud cad jpy per cent percent "
                                "mt kt dmt a$ c$ in of the and"))


@dataclass(frozen=True)
class FactQuery:
    """What a question asks to be stated: the measure (its words, kind and a count's noun), the segment (None:
    the whole company), the fiscal years named (none: the latest), a half or quarter, and whether a forecast is
    asked."""

    measure: MeasureAsked
    kind: str
    years: tuple[int, ...] = ()
    part: str | None = None
    ahead: bool = False
    count_stems: frozenset[str] = frozenset()
    items: tuple[str, ...] = ()
    """The line items of app/metrics.py the question names ('cash flow from operating activities')."""
    at_end: bool = False
    """The question asks a level at a period's end ('at the end of 2019', 'as of year-end'): a balance."""
    left_out: frozenset[str] = frozenset()
    """The words of what the question leaves out ('Leaving out related expenses such as technical support, …'):
    a figure named with them is the measure with it in."""
    of_terms: bool = False
    """The question asks what an agreement sets ('Under the employment agreement …, what is her target bonus'):
    the contract's own words state it."""
    share_of: bool = False
    """The question asks how much of a whole one part is ('How much of its seller GPV comes from larger sellers'):
    a share the report states ('represented 60% of Seller GPV') answers before any amount."""

    @property
    def stems(self) -> frozenset[str]:
        return self.measure.stems

    def prose_measure(self) -> Measure:
        """The measure as sentences are searched for it: without the name of the transaction it is of ('goodwill
        provisionally recognise Fenmoor Cold Storage acquisition' is found as 'Provisional goodwill of £17.3m …
        recognised'); a sentence that also names it still matches more (`_sentence_match`)."""
        from app.text.measures import deal_names

        names = set(analyze(" ".join(deal_names(self.measure.phrase))))
        stems = self.stems - names if self.stems - names else self.stems
        return Measure(stems=frozenset(stems), kind=self.kind, count_stems=self.count_stems)


_RATIO = frozenset(analyze("times multiple coverage leverage turnover"))
"""Words of a measure in times. A plain 'ratio' may be a per cent ('payout ratio') or times ('current ratio'): any."""
_TURNOVER_AS_SALES = re.compile(r"(?i)^(?!.*\b(?:asset|assets|inventory|inventories|receivables?|payables?|staff|"
                                r"employee|working\s+capital|capital)\s+turnover\b).*\bturnover\b")
"""'international turnover', 'group turnover': sales as non-US reports name them, not an asset or inventory
turnover ratio."""
_MONEY = frozenset(analyze("revenue revenues sales turnover profit income earnings ebitda ebit ebitdar cash debt "
                           "backlog intake capex expenditure cost costs expense expenses assets liabilities equity "
                           "dividend dividends price proceeds penalty fine consideration borrowings loss losses "
                           "spend spending investment investments payment paid pay gain value amount"))


_SIZED_IN_MONEY = frozenset(analyze("credit facility facilities loan loans borrowing notes bonds debentures "
                                    "offering program programme buyback repurchase authorization authorisation "
                                    "commitment commitments revolver revolving"))
"""Financings and programmes whose size is an amount of money."""
_SIZE_ASKED = re.compile(r"(?i)\bhow\s+(?:large|big)\b|\bsize\b")


_BREAKDOWN_WORDS = re.compile(
    r"(?i)\b(?:region|regions|segment|segments|business|businesses|division|divisions|kind|type|types|country|"
    r"countries|market|markets|fastest|slowest|biggest|largest|smallest|highest|lowest|most|least|fewest|best|worst|"
    r"weakest|strongest|growth|fall|drop|decline|increase|rise|development|performance|earned|had|made|between|"
    r"contribution|dragged|down|overall|topline|top-line|geograph(?:y|ies)|geographic(?:al)?\s+areas?|"
    r"two|three|four|five|six|seven|eight|nine|ten|operates?|operated|runs?|owns?|have|has)\b")


_DIVIDEND = frozenset(analyze("dividend"))
_DIVIDEND_AMOUNT = re.compile(r"(?i)\b(?:paid|pay|pays|paying|payments?|cash|amount|totall?ed|spent|returned|"
                              r"distributed|outflows?|\$\s?m|millions?|billions?|thousands?|declared\s+in\s+total)\b")


_BREAKDOWN_KIND = re.compile(r"(?i)\b(?:(?:reportable|reporting|operating|business|geographic(?:al)?|principal|main|"
                             r"major)\s+)+(?=(?:segments?|divisions?|regions?|units?)\b)")
"""The words that say which breakdown is asked ('reportable operating segments'), no part of its measure."""


_PART_OF_WHOLE = re.compile(r"(?i)\bhow\s+much\s+of\s+(?:[\w&'’.-]+\s+){1,8}?(?:(?:comes?|came|is|was|are|were)\s+"
                            r"(?:derived\s+|generated\s+|earned\s+)?from\b|(?:does|do|did)\s+(?:[\w&'’.-]+\s+){1,6}?"
                            r"(?:account\s+for|represent|make\s+up|contribute)\b|"
                            # 'How much of its cash sits overseas': what part of it is held where
                            r"(?:sits?|is\s+held|are\s+held|was\s+held|were\s+held|is\s+kept|lies)\b)")
"""A part of a whole asked ('How much of its seller GPV comes from larger sellers', 'how much of its worldwide
network volumes does the Delta cobrand portfolio account for'): a report states it as a share as often as an
amount."""


def breakdown_measure(phrase: str) -> str:
    """The measure of a breakdown question without its breakdown and superlative words ('region weakest revenue
    development' → 'revenue', 'reportable operating segments lowest pretax income' → 'pretax income')."""
    kept = " ".join(_BREAKDOWN_WORDS.sub(" ", _BREAKDOWN_KIND.sub(" ", phrase)).split())
    return re.sub(r"^['’]s?\s+", "", kept)  # ("region's net sales": the owner's ending goes with its owner)


def read_query(question: str, companies: Sequence[str] = (), years: Sequence[int] = ()) -> FactQuery:
    """The FactQuery of a question; `years` are the turn's fiscal years when routing knows them."""
    asked = asked_sentence(question)
    measure = measure_asked(question, companies)
    if measure.segment is None and _PARENT.search(question):
        measure = replace(measure, segment=PARENT_ENTITY)  # the parent entity's own books are asked for
    from app.text.question_kinds import read_ask

    ask = read_ask(question)
    if ask.kind == "extreme":  # 'which region had the weakest revenue': the measure is revenue
        phrase = breakdown_measure(measure.phrase)
        if (after := _AFTER_SUPERLATIVE.search(asked)) and (ranked := measure_asked(
                f"What was the {after.group('measure')}?", companies).phrase) and not ranking_lead(question):
            # 'Which of the oncology brands broken out in its sales schedule had the lowest worldwide sales for
            # 2022?': what follows the superlative is the measure ranked; the words before name the members
            phrase = breakdown_measure(ranked)
        if ask.topic == "loss":  # 'which division ended with an operating loss': the lowest operating profit
            phrase = re.sub(r"(?i)\blosse?s?\b", "profit", re.sub(r"(?i)\bnet\s+loss\b", "net income", phrase))
        measure = replace(measure, phrase=phrase, stems=frozenset(analyze(phrase)))
    if measure.stems == _DIVIDEND and not _DIVIDEND_AMOUNT.search(question):
        # 'How much did the dividend go up?': the dividend per share, as a company declares it; the cash paid
        # out is asked as such ('dividends paid', 'pay in dividends', 'cash dividends', 'total amount')
        phrase = f"{measure.phrase} per share"
        measure = replace(measure, phrase=phrase, stems=frozenset(analyze(phrase)))
    # (not the guidance a filing the question names gives, nor a second part's: '…, and how much of it was not
    # expected to be billed in fiscal 2017?')
    ahead = bool(_FORWARD.search(without_source(first_part(asked))))
    if ahead and (forward := _FORWARD_NOUN.search(measure.phrase)) and forward.start() > 0:
        # 'revenue forecast': a forecast asked (ahead) of the measure before it
        phrase = measure.phrase[:forward.start()].strip()
        measure = replace(measure, phrase=phrase, stems=frozenset(analyze(phrase)))
    if ahead and (phrase := _EXPECTING.sub(" ", measure.phrase).strip()) and phrase != measure.phrase:
        # 'What tax charge did it expect to book': the charge expected, the expecting no word of its name
        measure = replace(measure, phrase=" ".join(phrase.split()), stems=frozenset(analyze(phrase)))
    # ('in dollars and percent' asks no per cent measure; 'How reliant was X on Y' asks Y's share, `plain_measures`)
    kind = measure_kind(measure.stems, without_form(plain_measures(question)))
    if kind in ("any", "money") and (measure.stems & _RATIO or "/" in measure.phrase) and not re.search(
            r"(?i)\bhow\s+much\b", question) and not _TURNOVER_AS_SALES.search(measure.phrase):
        kind = "ratio"  # 'net debt / EBITDA', 'interest coverage', 'asset turnover': times, not money
    if kind == "any" and measure.stems & _MONEY and "ratio" not in measure.stems and not RATING_ASKED.search(question):
        kind = "money"
    if kind == "any" and measure.stems & _SIZED_IN_MONEY and _SIZE_ASKED.search(question):
        kind = "money"  # 'How large is the 364-day credit agreement': its size in money, not its 364 days
    from app.metrics import share_asked

    if kind in ("any", "money") and re.search(r"(?i)\brelative\s+to\b", question) and share_asked(question):
        kind = "percent"  # 'the target annual bonus …, relative to her base salary': a per cent of the salary
    share_of = bool(_PART_OF_WHOLE.search(question))
    if kind == "money" and share_of:
        kind = "any"  # 'How much of its seller GPV comes from larger sellers': an amount or the share stated
    part = part_asked(question)  # (not the quarter of the release it names as its source)
    if part is None and _QUARTERLY_RATE.search(question):
        part = "Q"  # 'What quarterly dividend did it declare in fiscal 2024?': a quarter's rate, not the year's sum
    from app.metrics import items_named

    # the turn's years when routing read them (a day a report ends names its fiscal year: 'the year ended March
    # 31, 2025' is FY2025 though it says 'fiscal 2024'), else the years the question names
    named = tuple(dict.fromkeys(years)) if years else tuple(years_named(question))
    if (first := first_part(asked)) != asked and (own := set(years_named(first))) and set(named) & own:
        # 'How large was its backlog at the end of fiscal 2016, and how much of it was not expected to be billed
        # in fiscal 2017?': the measure's part dates it; the second part's year is the other part's
        named = tuple(y for y in named if y in own)
    own = set(years_named(without_source(question)))
    if own and (source_only := {y for y in named if y not in own and y in years_named(question)}):
        # 'What revenue did Rheinfeld forecast for 2025 in its 2024 annual report?': the report's year names where
        # the answer stands, not a year asked
        named = tuple(y for y in named if y not in source_only) or named
    if (deadlines := set(deadline_years(question))) and set(named) - deadlines:
        # 'recorded in the fourth quarter of 2022 as a result of its commitment to exit … by the end of 2025':
        # the deadline dates the plan; the figure is 2022's
        named = tuple(y for y in named if y not in deadlines)
    # (what was turned into the measure is none: 'turn its revenue growth into higher pretax profit')
    items = tuple(dict.fromkeys([*items_named(measure.phrase), *items_named(TURNED_INTO.sub(" ", asked))]))
    if "margin" in measure.stems:
        # 'the best operating margin on its turnover': the sales a margin is of are no line item asked
        items = tuple(i for i in items if i != "revenue")
    if _PER_SHARE.search(measure.phrase):
        # 'cash dividends paid per share': the amount a share gets, never the cash flow statement's total paid
        items = tuple(i for i in items if "eps" in i or "per_share" in i)
    counted = frozenset(analyze(measure.count_noun)) | counted_as(measure.count_noun)  # (people: employees)
    if kind == "count" and not counted:
        counted = frozenset(measure.stems & COUNT_WORDS)  # 'Who has more employees': the employees are counted
        counted |= counted_as(measure.phrase) if counted else frozenset()  # 'the change in its headcount'
    return FactQuery(measure=measure, kind=kind, years=named, part=part, ahead=ahead,
                     count_stems=counted, items=items, at_end=bool(_AT_END.search(end_worded(question))),
                     of_terms=bool(_TERMS_ASKED.search(question)), left_out=_left_out(question),
                     share_of=share_of)


_AFTER_SUPERLATIVE = re.compile(r"(?i)\b(?:had|has|have|posted|reported|generated|recorded|brought\s+in|earned|"
                                r"made|delivered|saw|showed|with|absorbed|incurred|bore|booked|took|spent)\s+"
                                # ('delivered Netflix's lowest net profit': whose it is, before the superlative)
                                r"(?:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}['’]s\s+)?(?:the\s+)?(?:highest|lowest|"
                                r"largest|smallest|biggest|greatest|strongest|weakest|most|least|fewest)\s+(?P<measure>[^?,;]{3,80})")
"""The measure a ranking names after its superlative ('… had the lowest worldwide sales for full-year 2022')."""


_LEFT_OUT_LEAD = re.compile(rf"(?i)^\s*(?:{LEAVING_OUT}\s+(?P<what>[^,?]{{3,100}}?)\s*"
                            rf"(?:(?:such\s+as|like|including|e\.g\.)\b[^,?]*)?|{LEFT_ASIDE}|"
                            r"before\s+(?:(?:the\s+)?(?:[\w&.-]+\s+){0,2}[\w&.-]+['’]s?\s+)?(?:non-GAAP\s+)?"
                            r"(?P<adjusted>adjust)ments),")
"""What a question's lead leaves out: 'Leaving out related expenses …,', 'Leaving bitcoin aside,', and 'Before
Amcor's adjustments,' (the adjusted figure is not the one asked)."""


def _left_out(question: str) -> frozenset[str]:
    """The words of what a question's lead leaves out ('related expenses' of 'Leaving out related expenses such as
    technical support, how much …')."""
    from app.text.measures import asked_sentence

    lead = _LEFT_OUT_LEAD.match(asked_sentence(question))
    if lead and lead.group("adjusted"):
        return frozenset(analyze("adjusted"))
    return frozenset(analyze(lead.group("what") or lead.group("aside"))) - _TOTAL if lead else frozenset()


_TERMS_ASKED = re.compile(r"(?i)\b(?:under|in|per|pursuant\s+to|according\s+to)\s+(?:the|its|her|his|their|"
                          r"(?-i:[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*){0,2})['’]s?)\s+"
                          r"(?:[\w-]+\s+){0,3}(?:agreement|contract|offer\s+letter|indenture|plan)\b")
"""A question about what an agreement sets ('Under the employment agreement Foot Locker signed …', 'in Mary
Dillon's employment agreement')."""


_EXPECTING = re.compile(r"(?i)\b(?:expect(?:s|ed|ing)?|anticipat(?:e|es|ed|ing)|foresee(?:s|n)?)\b")
"""A verb of expecting in a forward question's measure ('tax charge expect'): how it is asked, no word of it."""
_FORWARD_NOUN = re.compile(r"(?i)\s+(?:forecasts?|expectations?|projections?)$")
"""A forecast's noun after the measure it is of ('revenue forecast'), which the answer says once ('revenue is
forecast at …'); 'guidance', 'outlook' and 'target' stay the measure's name ('revenue guidance is …')."""


_QUARTERLY_RATE = re.compile(r"(?i)\bquarterly\s+(?:(?:cash|common(?:\s+stock)?|ordinary)\s+)?(?:dividends?|"
                             r"distributions?)\b")
"""A payout asked by the quarter ('quarterly cash dividend'), which a company states beside the year's total."""


_AT_END = re.compile(r"(?i)\b(?:at|as\s+of|as\s+at|by)\s+(?:the\s+)?(?:fiscal\s+)?(?:year[- ]end|period[- ]end|"
                     r"end\s+of)\b|\bfrom\s+the\s+end\s+of\b")
"""A level asked at a period's end ('at the end of 2019', 'as of year-end', 'from the end of 2018 to …')."""


@dataclass(frozen=True)
class Fact:
    """A candidate: the figure, its segment (None: the whole company, as far as its text says), where it was read
    ('statement', 'table' or 'text'), how fully its label or sentence names the measure (0..1), and the text
    around it that names a segment or a forecast."""

    figure: Figure
    origin: str
    match: float
    segment: str | None = None
    part: str | None = None
    forward: bool = False
    context: str = field(default="", compare=False)
    filed_year: int | None = None
    """The fiscal year of the filing it was read from."""
    of_total: Figure | None = None
    """A table member's: the total row its table states for the member's period, when the members add up to it."""


class Doc:
    """What the readers need of a piece of evidence (Evidence and Block both have these fields)."""

    text: str
    company: str | None
    fiscal_year: int | None
    source_id: str
    chunk_id: str | None
    page: int | None


_RECENT: OrderedDict[tuple, tuple[tuple[Doc, ...], tuple[Fact, ...]]] = OrderedDict()
_RECENT_SIZE = 8
"""The last few `facts_for` readings, by query and the very documents read (a turn's composer and facts step
read the same query of the same blocks more than once: `segment_by_word`, then the answer)."""


def facts_for(query: FactQuery, docs: Iterable[Doc], companies: Sequence[str] = ()) -> list[Fact]:
    """Every candidate fact the documents offer for the query's measure (of `companies` only, when given)."""
    docs = list(docs)
    key = (query, tuple(map(id, docs)), tuple(companies))
    recent = _RECENT.get(key)
    if recent is not None and len(recent[0]) == len(docs) and all(a is b for a, b in zip(recent[0], docs)):
        return list(recent[1])
    out = _facts_for(query, docs, companies)
    _RECENT[key] = (tuple(docs), tuple(out))  # (the documents held, so that no id is reused while it is kept)
    while len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return out


def _facts_for(query: FactQuery, docs: list[Doc], companies: Sequence[str]) -> list[Fact]:
    out: list[Fact] = []
    wanted = {c.casefold() for c in companies}
    members = table_members(docs)
    for doc in docs:
        if wanted and (doc.company or "").casefold() not in wanted:
            continue
        rows = row_facts(query, doc)
        got = {(f.figure.value, f.figure.label) for f in rows}
        for variant in _initialisms_spelled(query, doc.text) or _initialisms_used(query, doc.text):
            # 'return on invested capital' asked, a row 'ROIC, non-GAAP measure' written: the row by its initials
            rows.extend(f for f in row_facts(variant, doc) if (f.figure.value, f.figure.label) not in got)
        out.extend(rows)
        out.extend(markdown_facts(query, doc))
        held = members.get((doc.company or "").casefold(), ())
        stated = text_facts(query, doc, held)
        seen = {(f.figure.value, f.context) for f in stated}
        for variant in named_otherwise(query, doc.text):
            # 'operating profit growth' asked, 'operating income increased 13.6%' written: the line item's other
            # name, scored against that name, for sentences the asked words do not find
            stated.extend(f for f in text_facts(variant, doc, held) if (f.figure.value, f.context) not in seen)
            seen |= {(f.figure.value, f.context) for f in stated}
        out.extend(stated)
    for joined in split_tables(docs):  # a table whose header chunking cut from its rows: its rows dated by it
        if not wanted or (joined.company or "").casefold() in wanted:
            out.extend(row_facts(query, joined))
    segment = query.measure.segment
    if segment and segment != PARENT_ENTITY:
        # a segment's row in a breakdown of the measure ('Segment operating profit' / 'Packaged Snacks 79.0 85.3'):
        # the row names the segment alone and the table's title the measure, so it ranks just after a row or
        # sentence that names both; a figure another reader took for the segment already is not read twice
        held = {(f.figure.value, f.figure.fiscal_year, f.part) for f in out if f.segment
                and same_member(segment, f.segment, f.figure.company)}
        # (and by the measure's other names the documents use: 'average MAUs' over 'King 249 247')
        for named in dict.fromkeys([query, *(v for doc in docs for v in named_otherwise(query, doc.text))]):
            found = [f for f in member_facts(named, docs, companies)
                     if same_member(segment, f.segment or "", f.figure.company)
                     and (f.figure.value, f.figure.fiscal_year, f.part) not in held]
            out.extend(replace(f, match=min(f.match, 1.0) - 0.01) for f in found)
            held |= {(f.figure.value, f.figure.fiscal_year, f.part) for f in found}
    out = parts_by_figures(out, query, docs)
    if query.kind == "count":
        # a count asked is never a statement's line item of money ('How many plants': no 'Property, plant, and
        # equipment, net' row)
        from app.metrics import items_named

        out = [f for f in out if f.origin == "text" or not items_named(f.figure.label)]
    out = without_carried_cells(out)
    return _with_filing_scale([f for f in out if not names_the_other(f.figure, query)], query)


def without_carried_cells(facts: list[Fact]) -> list[Fact]:
    """The facts less a later chunk's table cell that an earlier chunk of the same page states otherwise: one
    table gives one value for a line, period and member, and chunking carries a table's header, its first year
    line included, over the next chunk's rows ('(in thousands …) 2015' over 2014's 'Net income 83,371 … 53,115'),
    which would read a year's figures as the next one's. The first chunk's value stands; a sentence is no cell."""
    cells = {i: (_cell_key(f), _chunk_order(f.figure)[1]) for i, f in enumerate(facts)
             if f.origin != "text" and f.figure.chunk_id and f.figure.period is not None}
    first: dict[tuple, tuple[int, float]] = {}
    for i, (key, order) in cells.items():
        if key not in first or order < first[key][0]:
            first[key] = (order, facts[i].figure.value)
    return [f for i, f in enumerate(facts) if i not in cells or f.figure.value == first[cells[i][0]][1]
            or cells[i][1] == first[cells[i][0]][0]]


def _cell_key(fact: Fact) -> tuple:
    """A table cell: its page, line, period, member and unit."""
    figure = fact.figure
    return (figure.source_id, figure.page, figure.label.casefold(), figure.period, (fact.segment or "").casefold(),
            figure.unit)


def segment_read_as_name(query: FactQuery, question: str, docs: Iterable[Doc], companies: Sequence[str] = ()
                         ) -> FactQuery:
    """The query with the segment it read put back into the measure's name, when the question does not call it a
    segment and nothing is found for it as one, but a row names both ('Card Member' of "American Express's Card
    Member rewards expense" is the 'Card Member rewards' line, no segment); else the query as read."""
    segment = query.measure.segment
    if not segment or segment == PARENT_ENTITY or re.search(
            rf"(?i)\b{re.escape(segment)}(?:['’]s?)?\s+(?:segments?|divisions?|business|units?|arms?|regions?|"
            rf"operations)\b", question):
        return query
    docs = list(docs)
    if facts_for(query, docs, companies):
        return query
    whole = f"{segment} {query.measure.phrase}"
    named = replace(query, measure=replace(query.measure, phrase=whole, stems=frozenset(analyze(whole)), segment=None))
    found = facts_for(named, docs, companies)
    return named if any(segment.casefold() in f.figure.label.casefold() for f in found) else query


def segment_by_word(query: FactQuery, docs: Iterable[Doc], companies: Sequence[str] = ()) -> FactQuery:
    """The query with the segment it names in words of its own ('its DVD-by-mail business') read as the one member
    the filing's tables give the measure for that shares a distinctive word with it ('Domestic DVD'), when no
    figure is found for the segment as named and no other member shares one; else the query as read."""
    segment = query.measure.segment
    if not segment or segment == PARENT_ENTITY:
        return query
    docs = list(docs)
    found = facts_for(query, docs, companies)
    if any(_fits_segment(f, segment, query.measure.phrase) for f in found):
        return query
    asked = _distinct_words(segment)
    members = {f.segment for f in found if f.segment}
    text = "\n".join(d.text for d in docs)
    # a member the tables name by its initials ('USCS') is read by the words the filing defines them with
    # ('U.S. Consumer Services (USCS)')
    named = {m: member_spelled_out(m, text) or m for m in members}
    # and the segments a filing lists in words, read so when none of their figures is found under that name
    spelled = set(named.values())
    named |= {m: m for m in named_segments(d.text for d in docs) if m not in spelled}
    shared = {m: _shared(asked, _distinct_words(name)) for m, name in named.items()}
    sharing = [m for m in named if shared[m]]
    if len(sharing) > 1:
        # 'its U.S. consumer card business': 'consumer' is U.S. Consumer Services', 'card' International Card
        # Services'; the one sharing the most words with it, the common ones ('U.S.') counted too, when one does
        score = {m: (len(shared[m]), len(_words(segment) & _words(named[m]))) for m in sharing}
        best = max(score.values())
        sharing = [m for m in sharing if score[m] == best]
    if len(sharing) != 1:
        return query
    return replace(query, measure=replace(query.measure, segment=sharing[0]))


def member_spelled_out(member: str, text: str) -> str | None:
    """The words a filing defines a member's initials with: 'USCS' in '… segments: U.S. Consumer Services (USCS),
    Commercial Services (CS) …' is 'U.S. Consumer Services'; 'GMNS' is 'Global Merchant and Network Services'.
    None when the member is no initialism or the text defines none whose words' initials it is."""
    if not re.fullmatch(r"[A-Z]{2,6}", member):
        return None
    for m in re.finditer(rf"((?:[A-Z][\w.&'’-]*\s+(?:(?:and|&|of|the)\s+)?){{1,8}})\(\s*[\"“]?{member}[\"”]?\s*\)",
                         text):
        words = m.group(1).split()
        for start in range(len(words)):
            run = words[start:]
            if run[0].lower() in ("and", "&", "of", "the"):
                continue
            initials = "".join(re.sub(r"[^A-Za-z]", "", w)[:1] if "." not in w.strip(".") else
                               re.sub(r"[^A-Z]", "", w) for w in run if w.lower() not in ("and", "&", "of", "the"))
            if initials.upper() == member:
                return " ".join(run)
    return None


def _shared(asked: set[str], member: set[str]) -> set[str]:
    """The asked words a member's name has, or has the start of five letters or more of ('pharma' of
    'Pharmaceutical')."""
    return {w for w in asked if any(w == m or len(w) >= 5 and m.startswith(w) for m in member)}


def _words(name: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", name.casefold()))


_COMMON_MEMBER_WORDS = frozenset("""the and of by for in on at to segment segments business businesses division
    divisions group unit units operations other total all domestic international global worldwide services service
    products product solutions north south east west central americas america us u s""".split())
"""Words many members' names share ('Domestic Streaming', 'Domestic DVD'): none tells one member from another."""


def _distinct_words(name: str) -> set[str]:
    return {w for w in _words(name) if len(w) >= 3 and w not in _COMMON_MEMBER_WORDS}


_RESULTS_TITLE = re.compile(r"^(?P<name>[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*){0,3})\s+"
                            r"(?i:(?:segment\s+)?(?:financial\s+|operating\s+)?(?:results|performance|review|"
                            r"highlights)|segment)\s*$")
"""A segment's own results heading ('Wireless financial results', 'Online performance', 'International Streaming
Segment')."""


def name_read_as_segment(query: FactQuery, docs: Iterable[Doc]) -> FactQuery:
    """The query with the segment the question writes in lower case before the measure ('wireless service revenue'
    of a report whose segments are Wireless, Wireline and Media; 'online sales' of one with an Online segment) as
    its segment, when the documents list that segment or head its results with its name; else the query as read."""
    words = query.measure.phrase.split()
    if query.measure.segment is not None or len(words) < 2:
        return query
    docs = list(docs)
    names = set(named_segments(d.text for d in docs))
    for doc in docs:
        names |= {m.group("name") for line in doc.text.splitlines()
                  if (m := _RESULTS_TITLE.match(line.strip())) and not is_total(m.group("name"))}
    if _PART_NOUN_AFTER.search(" ".join(words[1:]) + " "):
        # 'pet food business operating profit': a part the question calls a business, named as a row of a table
        # of the segments' results ('Our operating segment results …' / 'Pet 390.7 268.4')
        names |= {row.line_item for doc in docs if re.search(r"(?i)\bsegments?\b", doc.text)
                  for row in read_statement(doc.text).rows
                  if row.values and 1 <= len(row.line_item.split()) <= 3 and not is_total(row.line_item)}
    for name in sorted(names, key=lambda n: -len(n.split())):
        k = len(name.split())
        if k < len(words) and " ".join(words[:k]).casefold() == name.casefold():
            # (what the question calls the part is none of the measure: 'pet food business operating profit')
            rest = _PART_NOUN_AFTER.sub("", " ".join(words[k:])) or " ".join(words[k:])
            return replace(query, measure=replace(query.measure, phrase=rest, stems=frozenset(analyze(rest)),
                                                  segment=name))
    for name in sorted(names, key=lambda n: -len(n.split())):
        # a part of two words or more inside the measure's words ('paid international streaming memberships' of a
        # report with an International Streaming segment): the words around it are the measure
        k = len(name.split())
        at = next((i for i in range(1, len(words) - k) if " ".join(words[i:i + k]).casefold() == name.casefold()),
                  None)
        if k >= 2 and at is not None:
            rest = " ".join([*words[:at], *words[at + k:]])
            counted = query.measure.count_noun == query.measure.phrase  # ('how many paid … memberships')
            measure = replace(query.measure, phrase=rest, stems=frozenset(analyze(rest)), segment=name,
                              count_noun=rest if counted else query.measure.count_noun)
            return replace(query, measure=measure,
                           count_stems=frozenset(analyze(rest)) if counted else query.count_stems)
    return query


_PART_NOUN_AFTER = re.compile(r"(?i)^(?:[\w&-]+\s+){0,2}?(?:business|segment|division|unit|arm|operations)\s+")


def named_otherwise(query: FactQuery, text: str) -> list[FactQuery]:
    """The query with the line item it names called by each other name of that item (app/metrics.py) that the
    text uses: 'operating profit growth' as 'operating income growth' for a report that writes 'operating income
    increased 13.6%'. Only names of two words or more, and only where the asked name is in the measure's phrase.
    An initialism asked that the text spells out ('MAUs' of 'monthly active users ("MAUs")') is read so too."""
    spelled = _initialisms_spelled(query, text) or _initialisms_used(query, text) or _counted_otherwise(query, text)
    if spelled or not query.items:
        return spelled
    from app.metrics import item_names

    phrase = " ".join(query.measure.phrase.lower().split())
    names = [n for n in item_names(query.items[0]) if len(n.split()) >= 2]
    asked = next((n for n in sorted(names, key=len, reverse=True) if re.search(rf"\b{re.escape(n)}\b", phrase)), None)
    if asked is None:
        return []
    lowered = " ".join(text.lower().split())
    out = []
    for name in names:
        if name == asked or asked in name or name in asked or not re.search(rf"\b{re.escape(name)}\b", lowered):
            continue
        other = phrase.replace(asked, name)
        stems = frozenset(analyze(other))
        if stems != query.stems:
            out.append(replace(query, measure=replace(query.measure, phrase=other, stems=stems)))
    return out


def _counted_otherwise(query: FactQuery, text: str) -> list[FactQuery]:
    """A count asked by one word ('headcount', 'workforce') read as each other word for the same things the text
    uses ('12,400 employees')."""
    phrase = query.measure.phrase.strip().lower()
    if query.kind != "count" or len(phrase.split()) != 1:
        return []
    words = set(analyze(text))
    out = []
    for other in sorted(query.count_stems - set(analyze(phrase))):
        if other in words:
            measure = replace(query.measure, phrase=other, stems=frozenset({other}), count_noun=other)
            out.append(replace(query, measure=measure, count_stems=query.count_stems))
    return out


_INITIALISM = re.compile(r"\b[A-Z]{2,6}s?\b")


def _initialisms_spelled(query: FactQuery, text: str) -> list[FactQuery]:
    """The query with each initialism of its measure ('MAUs') in the words the text defines it by ('average
    monthly active users ("MAUs")'): the words whose initials it is, just before it in brackets."""
    out = []
    for short in dict.fromkeys(_INITIALISM.findall(query.measure.phrase)):
        letters = short.removesuffix("s").lower() if len(short) > 2 else short.lower()
        quoted = rf"[\"“‘']?{re.escape(short)}[\"”’']?"  # ('("MAUs")', '(MAUs)')
        defined = re.search(rf"((?:[A-Za-z][\w-]*\s+){{{len(letters)}}})\(\s*{quoted}\s*\)", text)
        words = defined.group(1).split() if defined else []
        if not words or "".join(w[0] for w in words).lower() != letters:
            continue
        spelled = " ".join(words).lower()
        phrase = re.sub(rf"\b{re.escape(short)}\b", spelled, query.measure.phrase)
        measure = replace(query.measure, phrase=phrase, stems=frozenset(analyze(phrase)),
                          count_noun=spelled if query.measure.count_noun == short else query.measure.count_noun)
        counted = frozenset(analyze(spelled)) if query.measure.count_noun == short else query.count_stems
        out.append(replace(query, measure=measure, count_stems=counted))
    return out


def _initialisms_used(query: FactQuery, text: str) -> list[FactQuery]:
    """The query with words of its measure that the text writes as their initialism ('monthly active users' asked,
    'our average MAUs … King 249' written) read as that initialism (`initialisms_of`)."""
    found = initialisms_of(query.measure.phrase, text)
    if not found:
        return []
    part, short = found[0]  # (the longest run the text abbreviates)
    words = query.measure.phrase.split()
    at = next(i for i in range(len(words)) if words[i:i + len(part)] == part)
    phrase = " ".join([*words[:at], short, *words[at + len(part):]])
    counted = (query.measure.count_noun or "").lower() == " ".join(part).lower()
    measure = replace(query.measure, phrase=phrase, stems=frozenset(analyze(phrase)),
                      count_noun=short if counted else query.measure.count_noun)
    counted_stems = frozenset(analyze(short)) if counted else query.count_stems
    return [replace(query, measure=measure, count_stems=counted_stems)]


def initialisms_of(phrase: str, text: str) -> list[tuple[list[str], str]]:
    """Each run of three or more of the phrase's words that the text writes as its initialism, in capitals ('MAU'
    or 'MAUs' for 'monthly active users'), longest first: (the words, the initialism as written)."""
    words = phrase.split()
    out = []
    for size in range(len(words), 2, -1):
        for start in range(len(words) - size + 1):
            part = words[start:start + size]
            if not all(w[:1].isalpha() for w in part):
                continue
            # ('SG&A' of 'selling, general and administrative', 'R&D' of 'research and development')
            forms = {"".join(w[0] for w in part).upper(),
                     "".join("&" if w.lower() == "and" else w[0] for w in part).upper()}
            for letters in sorted(f for f in forms if 3 <= len(f) <= 6 and not f.startswith("&")):
                used = re.search(rf"(?<![\w&]){re.escape(letters)}s?(?![\w&])", text)
                if used is not None:
                    out.append((part, used.group(0)))
                    break
    return out


def spelled_out(text: str, phrase: str) -> str:
    """The text with each initialism of the phrase's words (`initialisms_of`) followed by those words, so that a
    row under 'average MAUs' names 'monthly active users'."""
    for part, short in initialisms_of(phrase, text):
        text = re.sub(rf"\b{re.escape(short)}\b", f"{short} ({' '.join(part)})", text)
    return text


def _with_filing_scale(facts: list[Fact], query: FactQuery, reference: Sequence[Fact] = ()) -> list[Fact]:
    """A table's amounts that declare no scale ('FLNA $ 23,291' in a segment note under the filing's '(tabular
    dollars in millions)') in the one scale the same filing's other tables (among `facts` and `reference`) give
    the measure ('Net Revenue' $m on its income statement); as they are when they give it in none or in several."""
    if query.kind != "money" or PER_SHARE_LABEL.search(query.measure.phrase):
        return facts  # (an amount per share is never scaled: 'earnings per share' of '$ 3.56')

    def filing(fact: Fact) -> str:
        return fact.figure.source_id.rsplit(":p", 1)[0]

    scaled: dict[str, set[str]] = {}
    for f in [*facts, *reference]:
        if f.origin != "text" and re.fullmatch(r"(?:[A-Z]{0,3}[$£€¥])?(?:m|bn|k)", f.figure.unit):
            scaled.setdefault(filing(f), set()).add(f.figure.unit)
    out = []
    for f in facts:
        units = scaled.get(filing(f), set())
        unit = next(iter(units)) if len(units) == 1 else ""
        # no unit at all, or the currency alone ('$ 10,811' where the cash flow statement is in $m)
        if f.origin != "text" and unit and not PER_SHARE_LABEL.search(f.figure.label) and (
                f.figure.unit == "" or _BARE_CURRENCY.fullmatch(f.figure.unit) and unit.startswith(f.figure.unit)):
            f = replace(f, figure=f.figure.model_copy(update={"unit": unit}))
        out.append(f)
    return out


_BARE_CURRENCY = re.compile(r"[A-Z]{0,3}[$£€¥]")
_NON_GAAP_NOTE = re.compile(r"(?i),?\s*\(?\bnon-?\s?GAAP\s+(?:financial\s+)?measures?\)?")
_BOOKED_WITHIN = re.compile(r"(?i),?\s*(?:(?:primarily|mainly|largely)\s+)?(?:classified|included|recorded|presented|"
                            r"reported)\s+(?:within|in)\s+[“\"][^”\"]{1,80}[”\"]")


def markdown_facts(query: FactQuery, doc: Doc) -> list[Fact]:
    """Rows of the markdown tables the loaders write (app/facts/readers.table_figures)."""
    if "|" not in doc.text:
        return []
    from app.facts.readers import table_figures

    from app.text.figures import table_scale

    scale = table_scale(doc.text)  # '($ in millions)' above the table: its bare cells are $m
    out = []
    for figure in table_figures(doc, parts=True):  # type: ignore[arg-type]
        match = label_match(figure.label, query)
        if match > 0 and figure.fiscal_year:
            unit = figure.unit or (scale if query.kind in ("money", "any") else "")
            value = -figure.value if figure.value < 0 and _is_outflow(query) else figure.value  # as row_facts
            figure = figure.model_copy(update={"page": doc.page, "unit": unit, "value": value})
            out.append(Fact(figure=figure, origin="table", match=match, context=_heading_before(doc.text, figure.quote),
                            part=figure.period, filed_year=doc.fiscal_year))
    return out


PARENT_ENTITY = "parent entity"
_PARENT = re.compile(r"(?i)(?<!of the )(?<!to the )\bparent\s+(?:entity|company)(?:['’]s)?\b(?!\s+of\b)|\bnon-consolidated\b|\bseparate\s+"
                     r"financial\s+statements\b|\b(?:HGB|single[- ]entity)\b|\bthe\s+Company['’]s\s+own\b|"
                     r"\bdeed\s+of\s+cross[- ]guarantee\b|\bclosed\s+group\b")
"""Where a filing gives the holding company's own books ('22. Parent entity information', 'non-consolidated',
'HGB'), or a subgroup's (the closed group of an Australian deed of cross guarantee, whose 'Consolidated
Statements of Income' show $377m of net sales beside the group's $14,694m): figures a question about the group
must not take, and one that names the parent asks for."""
def names_parent_entity(text: str) -> bool:
    """Whether a text gives the parent entity's own books (see _PARENT)."""
    return bool(_PARENT.search(text))


DocT = TypeVar("DocT", bound=Any)


def group_docs(docs: Iterable[DocT], question: str) -> list[DocT]:
    """The documents that give the group's own figures: a parent's own books or a closed group's ('Deed of Cross
    Guarantee' statements: $1,145m of current liabilities beside the group's $4,476m) only when the question
    names a parent entity."""
    docs = list(docs)
    if names_parent_entity(question):
        return docs
    return [d for d in docs if not names_parent_entity(d.text[:400])]


_PERCENT_LABEL = re.compile(rf"\([^)]*%\s*\)|\bin\s+%|\(%|^\s*%\s|(?i:^\s*{RETURN_ON_LABEL})")
"""A row label that says its figures are per cents ('Equity ratio (31 Dec., %)', 'EBIT margin in %', '% growth -
Adjusted EBIT'), or that
names a return on equity, assets or capital, a per cent however its cells are printed ('Return on tangible common
equity 29 24 19' under a row of '23 % 19 %' in a table 'in millions')."""
_COUNTED = re.compile(r"(?i)\((?:units?|number|no\.|people|persons|headcount|employees|stores|sites)\)")
"""A row label that says it counts things ('Machine tools delivered (units)'): no currency of the page's."""


_MONEY_HEAD = re.compile(
    r"(?i)\b(?:assets?|liabilit(?:y|ies)|costs?|expenses?|obligations?|benefits?|compensation|payables?|"
    r"receivables?|revenues?|sales|income|loss(?:es)?|accruals?|accrued|provisions?|reserves?|deposits?|loans?|"
    r"advances?|contributions?|wages|salaries|payments?|charges?|fees?|plans?)\b")
"""Words that make a row an amount of money: 'Employee benefit assets' or 'Store closure costs' count no one."""


def _counts_money(label: str, query: FactQuery) -> bool:
    """A count question's row that is an amount about the counted things, not their number: a money word the
    question does not itself count ('how many loans' does count loans)."""
    return any(not (set(analyze(m.group(0))) & query.count_stems) for m in _MONEY_HEAD.finditer(label)) \
        and not _COUNTED.search(label)


def _priced_cells(row: Any, query: FactQuery) -> bool:
    """A count question's row whose cells are money ('Consumer & Business Banking $ 5,635' of revenue by line of
    business) and whose label names none of the things counted: an amount, not a number of them."""
    return bool(_PRICED_CELL.search(row.raw[len(row.line_item):])) and not (
        set(analyze(row.line_item)) & query.count_stems)


_PRICED_CELL = re.compile(r"(?:^|\s)(?:[A-Z]{1,3})?[$£€¥]\s?\(?\d")


def _counts_things(label: str) -> bool:
    """A row label that names things counted and no amount of money ('Memberships at end of period', 'Number of
    stores'; not 'Average monthly revenue per paying membership')."""
    return bool(set(analyze(label)) & COUNT_WORDS) and not _MONEY_HEAD.search(label) and not re.search(
        r"(?i)\b(?:per|price|margin|cash|profit|earnings|value)\b", label)


_PENCE_LABEL = re.compile(r"(?i)\((?:p|pence)\)|\bin\s+pence\b|\bpence\s+per\s+share\b")
"""A row label that says its figures are pence ('Dividend per share (p)'): not the page's pounds."""
_SCALED_LABEL = re.compile(r"(?i)\b(?:thousands?|millions?|'000|000s)\b|\((?:k|m)\)")
"""A row label that scales its own figures ('Subscribers (thousands)')."""
_SCALE_LINE = re.compile(r"(?i)\b(?:thousands?|millions?|billions?|'000|000s)\b")
_MONEY_WORDS = re.compile(r"(?i)[$£€¥]|\b(?:yen|dollars?|euros?|pounds?|sterling|francs?|USD|AUD|CAD|EUR|GBP|JPY|"
                          r"CHF)\b")


def _money_scale_over(text: str, raw: str) -> bool:
    """Whether the scale line nearest above a row scales money ('Millions of yen', '($ in millions)'), not
    counts ('(in thousands, except churn and ARPU)')."""
    at = row_at(text, raw)
    lines = [line for line in text[:at if at >= 0 else len(text)].splitlines() if _SCALE_LINE.search(line)]
    return bool(lines) and _MONEY_WORDS.search(lines[-1]) is not None


_MEASURED = re.compile(r"\((?P<unit>[Mk]?t|Mtpa|[kM]?oz|[GMk]Wh?|[kM]?boe|bbl|km|m²)\)")
"""A row label that names its physical unit ('Iron ore shipped (Mt)'): the row's unit."""


def row_facts(query: FactQuery, doc: Doc) -> list[Fact]:
    # the segment asked is a name a segment table's header may run together with others
    statement = read_statement(doc.text, [query.measure.segment] if query.measure.segment else [])
    primary = _is_primary(doc.text)
    parent_head = _PARENT.search(_statement_head(doc.text)) is not None  # (read once: every row is under it)
    quarter = _filing_quarter(doc)
    out = []
    for row in statement.rows:
        if not row.periods:
            continue
        match = label_match(row.line_item, query)
        label = row.line_item
        if match <= 0 and row.title:
            match = label_match(f"{_qualifiers_said(row.title, query)} {row.line_item}", query)
        if match <= 0 and (group := _group_heading(doc.text, row.raw, query)):
            # 'Subscription' under 'Revenue:' is the subscription revenue, and is named so
            label = f"{row.line_item} {group[:1].lower()}{group[1:]}"
            match = label_match(f"{row.line_item} {group}", query)
        if match <= 0:
            continue
        if query.kind == "count" and (row.unit == "%" or "%" in row.line_item or _counts_money(row.line_item, query)
                                      or _priced_cells(row, query)):
            continue  # 'Women (% of employees)' counts nobody; 'Employee benefit assets' are dollars, not people
        if query.kind == "count" and (flow := _FLOW_LABEL.search(row.line_item)) \
                and not set(analyze(flow.group(0))) & set(analyze(query_text(query))):
            continue  # 'New store openings, net 6': the year's openings, not the stores it has
        # a segment note's columns name their own segment: the heading above them (their names) dates nothing
        context = row.title or "" if row.columns else " ".join(
            x for x in (row.title or "", _heading_before(doc.text, row.raw)) if x)
        titled = None if row.columns else _segment_title(row.title or "", query, doc.company)
        if titled is None and not row.columns and (opening := _segment_opening(doc.text, query)):
            titled = opening  # 'ASSET & WEALTH MANAGEMENT' opening the page of the segment asked: its rows are its
        if titled is None and not row.columns and (headed := segment_heading(section_of(doc))):
            titled = headed  # a table chunked apart from the segment's heading above it ('International Streaming
            # Segment'), which its section keeps (nodes/inputs.segment_sections)
        if titled is None and (parent_head or _PARENT.search(
                f"{row.title or ''} {_heading_before(doc.text, row.raw)}")):
            titled = PARENT_ENTITY  # 'Parent entity information': the holding company's own books, not the group
        dated = _columns_dated(row.periods, doc)
        currency = evidence_currency(doc)
        own_day = _day_in_label(row.line_item)
        # the latest day a balance column is dated by, in a quarterly filing: its quarter's end
        quarter_end = max((p for p in row.periods if _ISO_DAY.fullmatch(p)), default=None) if quarter else None
        for i, (value, period) in enumerate(zip(row.values, row.periods)):
            if value is None or period.endswith("change"):
                continue
            year, part = dated[i]
            if year is None:
                continue
            if own_day and len(row.values) == 1 and (back := _calendar_year(period, year) - int(own_day[:4])) > 0:
                # a roll-forward's 'CET1 capital at December 31, 2023' under the year 2024's column is the balance
                # at that day, an earlier year's
                year, part, period = year - back, None, own_day
            measured = _MEASURED.search(row.line_item)
            unit = (measured.group("unit") if measured else "%" if _PERCENT_LABEL.search(row.line_item)
                    else "p" if _PENCE_LABEL.search(row.raw)
                    else "" if _COUNTED.search(row.line_item)
                    # 'Average monthly revenue per paying membership $ 8.50' under '(in thousands, except …)': an
                    # amount per one thing is never in thousands
                    else _row_unit(row.unit, None if _PER_ONE.search(row.line_item) else row.scale))
            if unit in ("m", "bn", "k") and currency:
                unit = currency + unit  # '(1,749)' under '(Millions)' on a page whose other rows say '$'
            elif not unit and row.unit == "per share" and currency:
                unit = currency  # 'Book value per share 82.31' in a 10-Q: dollars, as its other amounts are
            if query.kind == "count":
                unit = re.sub(r"(?:[A-Z]{1,3})?[$£€¥]", "", unit)  # subscribers in thousands are no dollars
                if (set(analyze(row.line_item)) & query.count_stems and not _SCALED_LABEL.search(row.line_item)
                        and _money_scale_over(doc.text, row.raw)):
                    unit = ""  # 'Number of employees 7,842' under 'Millions of yen': people, not millions of them
            if value < 0 and _is_outflow(query):
                value = -value  # capital expenditure 'spent': the bracketed cash outflow, as an amount
            column = row.columns[i] if row.columns and i < len(row.columns) else None
            if column is not None and is_total(column) and not is_whole(column):
                continue  # corporate costs, eliminations: neither a segment nor the company
            segment = titled if column is None else None if is_whole(column) else column
            figure = Figure(label=label, value=value, unit=unit, company=doc.company, fiscal_year=year,
                            period=period, page=doc.page, source_id=doc.source_id, chunk_id=doc.chunk_id,
                            quote=row.raw[:300], segment=segment)
            # a column for a year after the report's own is its forecast ('FY3/2026 Forecast' in the FY3/2025 report)
            ahead = bool(doc.fiscal_year and year > doc.fiscal_year)
            high = row.highs[i] if row.highs and i < len(row.highs) else None
            ends = [figure] if high is None else [  # a range's two ends, as a sentence's '18.5Mt to 19.5Mt' are
                figure.model_copy(update={"period": "low"}),
                figure.model_copy(update={"period": "high", "value": -high if value < 0 < high else high})]
            made = [Fact(figure=end, origin="statement" if primary else "table", match=match, part=part,
                         segment=figure.segment, context=context, filed_year=doc.fiscal_year, forward=ahead)
                    for end in ends]
            out.extend(made)
            if part is None and quarter and period == quarter_end and year == doc.fiscal_year and not any(
                    _DURATION.match(p) for p in row.periods):
                # a quarterly filing's balance on its quarter's last day is the quarter's too ('total deposits at
                # the end of the first quarter'); a question of no quarter keeps the balance of the day alone. A
                # date beside 'three months ended' columns heads no balance: it is the twelve months' flow
                out.extend(replace(fact, part=f"Q{quarter}") for fact in made)
    return out


_PER_ONE = re.compile(r"(?i)\b(?:revenue|sales|income|profit|earnings|cost|spend|value|price|fee)s?\s+(?:\w+\s+){0,2}?"
                      r"per\s+(?!cent\b|annum\b|year\b|month\b|quarter\b|share\b)[a-z]")
"""An amount per one thing ('revenue per paying membership', 'revenue per available room'): unscaled by the table's
thousands (a per-share figure has its own reading)."""
_DURATION = re.compile(r"\d{1,2}M\s")
"""A column's period that is a span of months ('3M 2022-12-31'), not a day."""


def _segment_opening(text: str, query: FactQuery) -> str | None:
    """The segment asked, when a chunk opens with its name as a heading of its own ('ASSET & WEALTH MANAGEMENT' /
    'Refer to pages 80–82 …' / 'Selected income statement data'): the chunk is that segment's review."""
    segment = query.measure.segment
    if not segment or segment == PARENT_ENTITY:
        return None
    return opening_member(text, [segment])


def opening_member(text: str, names: Sequence[str]) -> str | None:
    """Which of the names a chunk opens with as a heading of its own (one of its first two lines)."""
    for line in [ln.strip() for ln in text.splitlines() if ln.strip()][:2]:
        if found := next((name for name in names if same_member(name, line)), None):
            return found
    return None


def _statement_head(text: str) -> str:
    """The lines over a statement's first row ('Deed of Cross Guarantee' / 'Consolidated Balance Sheets' / '($ in
    millions)' / 'As of June 30, 2023 2022'): what the statement says it is."""
    head = []
    for line in text.splitlines()[:12]:
        if re.search(r"[A-Za-z].*\d[\d,.]*\s*$", line) and not re.search(r"(?:19|20)\d{2}\s*$", line.strip()):
            break
        head.append(line)
    return "\n".join(head)[:400]


def members_query(query: FactQuery, measure: str, companies: Sequence[str]) -> FactQuery:
    """The query for the measure two compared members share ('sales growth' of 'US' and 'international'): the
    question's own query, its measure read from that phrase alone."""
    from app.text.measures import measure_asked

    from app.metrics import items_named

    asked = measure_asked(f"What was {measure}?", companies)
    # (its kind too: 'which segment grew segment operating profit faster' compares amounts' growth, not per cents)
    # (and its own line items: 'sales and marketing expenses' is no revenue the question names elsewhere)
    return replace(query, measure=asked, kind=measure_kind(asked.stems, f"What was {measure}?"),
                   items=tuple(items_named(asked.phrase)))


_MEMBER_FILLER = frozenset({"segment", "segments", "division", "region", "business", "operations", "the"})
_MEMBER_SPELLED = {"us": "unitedstates", "usa": "unitedstates", "uk": "unitedkingdom", "eu": "europeanunion",
                   "nonus": "international", "nonunitedstates": "international", "nonusa": "international",
                   "foreign": "international", "outsidetheunitedstates": "international",
                   "outsideunitedstates": "international", "outsideoftheunitedstates": "international"}
"""Spellings of one member: 'Non-U.S.', 'Non-United States' and 'Outside the United States' rows are the
'International' asked."""


def member_initials(name: str) -> str:
    """The initials a table may name a member by (`name_initials`), and a two-word name's ('CS' heading the table
    of Commercial Services: 'TABLE 11: CS SELECTED INCOME STATEMENT DATA'), which only a row's or table's own name
    is compared with, never searched for in text."""
    words = re.findall(r"[A-Za-z]+", name)
    if len(words) == 2 and all(w[:1].isupper() for w in words):
        return words[0][0] + words[1][0]
    return name_initials(name)


def same_member(named: str, row: str, owner: str | None = None) -> bool:
    """Whether a member as a question names it is a table's row: 'US' and 'U.S.' or 'United States',
    'international' and 'International', 'Iron Ore' and 'Iron Ore segment'; not 'US' and 'US Pharmaceutical'.
    With its `owner` company, a row that puts the company's short name before the member is it too ('MGM China'
    for MGM Resorts' 'China', as 'MGM China's net revenues' is read)."""
    def squeezed(text: str) -> str:
        flat = re.sub(r"[^a-z0-9]", "", text.casefold())
        return _MEMBER_SPELLED.get(flat, flat)

    if squeezed(named) == squeezed(row):
        return True
    if (short := member_initials(named)) and row.strip() == short:  # 'FLNA' for Frito-Lay North America
        return True
    if _contracted(row.strip(), named):  # 'LatAm' for Latin America
        return True
    asked, held = (set(re.findall(r"[a-z0-9]+", x.casefold())) - _MEMBER_FILLER for x in (named, row))
    if owner and asked and asked < held and re.match(rf"(?i){re.escape(owner.split()[0])}\s", row.strip()):
        return held - asked == {owner.split()[0].casefold()}
    return bool(asked) and asked == held


def _contracted(row: str, named: str) -> bool:
    """Whether a row's one-word name runs together the start of each word of the name asked ('LatAm': 'Latin
    America', 'EuroPac': 'Europe Pacific'), two letters or more of each."""
    parts = re.findall(r"[A-Z][a-z]+", row) if re.fullmatch(r"(?:[A-Z][a-z]+){2,}", row) else []
    words = re.findall(r"[A-Za-z]+", named)
    return len(parts) == len(words) and all(w.casefold().startswith(p.casefold()) for p, w in zip(parts, words))


def members_in_filing_scale(members: list[Fact], query: FactQuery, docs: Iterable[Doc],
                            companies: Sequence[str] = ()) -> list[Fact]:
    """A breakdown's member facts, those whose table declares no scale in the one the filing's other tables give
    the measure in (`_with_filing_scale`): 'FLNA 6,135' is $6,135m where the income statement is in $m."""
    if not any(f.figure.unit == "" or _BARE_CURRENCY.fullmatch(f.figure.unit) for f in members):
        return members
    return _with_filing_scale(members, query, facts_for(replace(query, measure=replace(query.measure, segment=None)),
                                                        docs, companies))


def stated_change(item: str, year: int, docs: Iterable[Doc], companies: Sequence[str] = ()) -> Fact | None:
    """The per cent change a report states for a catalogue line item in a year against the year before, the
    company's whole-year figure: a sentence that opens with it ('In 2022, worldwide sales increased 1.3% to $94.9
    billion') or a table's change column ('Reported Sales $23,706 $24,804 (4.4)% $94,943 $93,775 1.3%' under
    'Q4 2022 2021 % Change  Full Year 2022 2021 % Change': 1.3 for revenue in FY2022); None when neither does."""
    from app.metrics import item_names, label_match as names_item

    wanted = {c.casefold() for c in companies}
    names = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in sorted(item_names(item), key=len, reverse=True))
    # 'In 2022, worldwide sales increased 1.3% to $94.9 billion': the company's whole measure, the year named
    # '2022 Full-Year reported sales growth of 1.3% to $94.9 Billion' too
    said = re.compile(rf"(?i)^(?:[•●▪\-–]\s*)?(?:(?:in\s+)?(?:fiscal\s+)?{year}(?:\s+full[- ]year)?,?\s+)?"
                      rf"(?:(?:our|its|the|worldwide|total|consolidated|reported|group)\s+)*(?:{names})\s+"
                      rf"(?:(?:in|for)\s+(?:fiscal\s+)?{year}\s+)?(?:(?P<verb>increased|grew|rose|decreased|declined|"
                      rf"fell)\s+(?:by\s+)?|growth\s+(?:was\s+|of\s+))"
                      rf"(?P<value>\d{{1,3}}(?:\.\d+)?)\s?(?:%|percent\b|per\s+cent\b)")
    for doc in docs:
        if wanted and (doc.company or "").casefold() not in wanted:
            continue
        for sentence in (s for s in whole_sentences(doc.text) if str(year) in s):
            match = said.search(sentence.strip())
            if match:
                sign = -1.0 if (match.group("verb") or "").lower() in ("decreased", "declined", "fell") else 1.0
                return _change_fact(doc, item_names(item)[0], sign * float(match.group("value")), year,
                                    sentence.strip(), "text")
        for row in read_statement(doc.text).rows:
            periods = row.periods or []
            if row.columns or names_item(row.line_item, item) is None:
                continue
            for i in range(len(periods) - 2):
                value = row.values[i + 2]
                if (periods[i], periods[i + 1]) == (f"FY{year}", f"FY{year - 1}") and \
                        periods[i + 2].startswith("%") and value is not None:
                    return _change_fact(doc, row.line_item, value, year, row.raw, "table")
    return None


def _change_fact(doc: Doc, label: str, value: float, year: int, quote: str, origin: str) -> Fact:
    """A per cent change a report states for the year against the one before, as a fact (`stated_change`)."""
    figure = Figure(label=label, value=value, unit="%", company=doc.company, fiscal_year=year, period="% change",
                    page=doc.page, source_id=doc.source_id, chunk_id=doc.chunk_id, quote=quote[:300])
    return Fact(figure=figure, origin=origin, match=1.0, filed_year=doc.fiscal_year)


_PLAIN_CAPITALS = frozenset(analyze("total net group consolidated worldwide reported our the in for during fiscal "
                                    "record adjusted underlying organic gross operating annual full year"))


def names_a_part(fact: Fact, query: FactQuery) -> bool:
    """Whether a figure read from a sentence is a part's, not the whole company's: capitalised words of a name
    of their own, other than the company's, stand right before the measure's words ('We achieved record Adobe
    Experience Cloud revenue of $2.03 billion …, which represents 24% year-over-year growth')."""
    if fact.origin != "text" or not query.measure.stems:
        return False
    return part_before_measure(fact.figure.quote or "", fact.figure.company, query) is not None


def part_before_measure(text: str, company: str | None, query: FactQuery, *, label: bool = False) -> str | None:
    """The name of a part that stands right before the measure's words in a text ('Las Vegas Strip Resorts net
    revenues', '… record Adobe Experience Cloud revenue …'): capitalised words of a name of their own, the
    company's own and plain words ('Total', 'Consolidated', 'Net') aside; None when there is none. A row's
    `label` opens with a capital whatever it says ('Cash dividend payments'): there the name is two capitalised
    words or more ('U.S. statutory federal income tax rate' names a jurisdiction's rate, no part)."""
    owned = set(analyze(company or ""))
    for run in re.finditer(r"((?:[A-Z][\w&’'.-]*\s+){1,4})(?=([a-z][\w-]*))", text):
        if not set(analyze(run.group(2))) & set(query.measure.stems):
            continue
        own = set(analyze(run.group(1))) - owned - _PLAIN_CAPITALS - set(query.measure.stems)
        if own and (not label or len(run.group(1).split()) >= 2):
            return run.group(1).strip()
    return None


def parts_by_figures(facts: Sequence[Fact], query: FactQuery, docs: Sequence[Doc] = ()) -> list[Fact]:
    """The facts, a sentence's figures given the part a table row names when the row gives the same figures: '•
    Net revenues of $8.4 billion in the current year compared to $4.7 billion in the prior year' under the
    heading 'Las Vegas Strip Resorts' are that part's, as the row 'Las Vegas Strip Resorts net revenues $
    8,398,372 $ 4,737,185' shows. The figures must agree to the sentence's precision (scale aside) for every
    year the sentence gives, at least two of them, or to three significant digits for a sentence of one; a
    sentence that names a segment already keeps it."""
    rows: dict[tuple[int, str | None], list[tuple[float, str]]] = {}
    named: dict[int, str] = {}
    for fact in facts:
        if fact.origin == "text" or fact.segment is not None or fact.figure.fiscal_year is None:
            continue
        part = part_before_measure(fact.figure.label, fact.figure.company, query, label=True)
        if part is not None and not is_total(part) and not query.measure.segment:
            # the row names its part ('Las Vegas Strip Resorts net revenues'): that part's, not the company's
            named[id(fact)] = part
            rows.setdefault((fact.figure.fiscal_year, fact.part), []).append((fact.figure.value, part))
    if not rows:
        return list(facts)
    by_quote: dict[str, list[Fact]] = {}
    for fact in facts:
        if fact.origin == "text" and fact.segment is None and fact.figure.quote:
            by_quote.setdefault(fact.figure.quote, []).append(fact)
    forms: set[tuple[str, str]] = set()
    for said in by_quote.values():
        found = [{part for value, part in rows.get((f.figure.fiscal_year or 0, f.part), [])
                  if _same_digits(f.figure.value, value, _stated_places(f))} for f in said]
        common = set.intersection(*found) if found else set()
        if len(common) == 1 and (len(said) >= 2 or _significant(said[0].figure.value) >= 3):
            part = common.pop()
            named.update({id(f): part for f in said})
            forms.add((_document(said[0].figure.source_id), _sentence_form(said[0].figure.quote or "")))
    # the other parts' sentences of the same form ('• Net revenues of $3.8 billion in the current year …' under
    # 'Regional Operations'): each part's own, under the heading above it, else a part not named
    texts = {d.chunk_id: d.text for d in docs}
    for quote, said in by_quote.items():
        if id(said[0]) in named or (_document(said[0].figure.source_id), _sentence_form(quote)) not in forms:
            continue
        text = texts.get(said[0].figure.chunk_id or "", "")
        at = text.find(quote[:40])
        heading = heading_above(text[:at]) if at > 0 else None
        named.update({id(f): heading or UNNAMED_PART for f in said})
    return [replace(f, segment=named[id(f)]) if id(f) in named else f for f in facts]


UNNAMED_PART = "another part of the company"
"""The segment of a sentence known to be one part's, whose part no heading names."""


def _document(source_id: str) -> str:
    """The filing a source is of, where each page was ingested as a source of its own ('MGM_2022Q4_EARNINGS:p4')."""
    return re.sub(r":p\d+$", "", source_id)


def _sentence_form(quote: str) -> str:
    """A sentence's opening words, bullets and figures aside ('net revenues of'), by which a report's parallel
    sentences about its parts are told."""
    words = re.findall(r"[A-Za-z][\w-]*", quote)[:3]
    return " ".join(words).casefold()


def _stated_places(fact: Fact) -> int:
    """The decimal places a sentence wrote its figure to ('$8.4 billion': 1)."""
    shown = f"{abs(fact.figure.value):f}".rstrip("0").rstrip(".")
    return len(shown.split(".")[1]) if "." in shown else 0


def _significant(value: float) -> int:
    """Significant digits of a figure ('8.4': 2; '2,297,282': 7; '1,500': 2)."""
    return len(f"{abs(value):f}".rstrip("0").rstrip(".").replace(".", "").strip("0"))


def _same_digits(stated: float, exact: float, places: int) -> bool:
    """Whether `stated`, written to `places` decimals, is `exact` at some scale (thousands, millions, billions
    apart): 8.4 and 8,398,372; 4.7 and 4,737,185."""
    if stated == 0 or exact == 0 or (stated < 0) != (exact < 0):
        return False
    for power in range(-12, 13, 3):
        if round(abs(exact) * 10.0 ** power, places) == round(abs(stated), places) and abs(stated) >= 10 ** -places:
            return True
    return False


def member_table(fact: Fact) -> tuple[str, str]:
    """The table a member's row stands in: its chunk, and the heading above its rows."""
    return fact.figure.chunk_id or fact.figure.source_id, fact.context


def member_facts(query: FactQuery, docs: Iterable[Doc], companies: Sequence[str] = (), *,
                 reconciling: bool = False, known: Sequence[str] = ()) -> list[Fact]:
    """The rows of a breakdown of the measure by segment, region or kind, each a fact whose `segment` is the
    member: a table whose title or heading names the measure and whose rows name members ('Revenue by region':
    'Germany 682.6 717.5 –4.9'), tables of one member each whose rows name the measure ('Iron Ore FY2024
    FY2023' / 'Segment revenue (A$m) 2,614.6'), and a segment note with the segments as columns. Totals are
    left out; with `reconciling`, the rows that reconcile the members to the whole ('Corporate', 'Eliminations')
    are read too, their figures' origin 'reconciling': a member's share of the whole is of every row's sum.
    `known` are members' names the question gives ('Seller or Cash App'): a header that runs names together is
    split where they stand."""
    wanted = {c.casefold() for c in companies}
    out: list[Fact] = []
    docs = list(docs)
    docs += split_tables(docs)
    for doc in docs:
        if wanted and (doc.company or "").casefold() not in wanted:
            continue
        # the names a segment table's header runs together are split where the page writes them elsewhere: its
        # other chunks' headings ('Industrial Drives', 'Mobility Solutions' over their paragraphs) count too
        statement = read_statement(doc.text, [*known, *page_headings(doc, docs)])
        primary = _is_primary(doc.text)
        totalled = {} if primary else _totalled_tables(statement.rows, query)
        # a table whose total row names another kind of the measure ('Total subscription revenue' for revenue):
        # its rows are members of that kind, whatever its title says (a chunk may cut the title's first word)
        kinds = {(row.title, tuple(row.periods)) for row in statement.rows
                 if row.periods and is_total(row.line_item) and not row.columns
                 and set(query.measure.stems) <= set(analyze(row.line_item))
                 and _qualified_title(re.sub(r"(?i)^\s*total\s+", "", row.line_item), query)}
        crossed = _crossed_members(statement.rows, query)
        opened = opening_member(doc.text, known) if known else None  # (a chunk of one named member's review)
        headings: dict[tuple, str] = {}
        for row in statement.rows:
            if not row.periods or (row.title, tuple(row.periods)) in kinds:
                continue
            if (group := _TOTAL_OF.match(row.line_item)) and query.measure.segment \
                    and same_member(query.measure.segment, group.group("member")):
                # 'Total APAC 671,019' under 'Japan' and 'Other': the region asked, its parts summed
                row = replace(row, line_item=group.group("member"))
            heading = " ".join(x for x in (row.title or "", _heading_before(doc.text, row.raw)) if x)
            said = label_match(row.line_item, query)
            label_says = said >= NAMES_MEASURE
            if label_says and row.columns:
                # a measure's row per member ('Employees as of December 31,' / 'Americas', 'Asia Pacific' …): one
                # table, under the heading its first member's row stands under
                heading = headings.setdefault((row.line_item, row.title, tuple(row.periods)), heading)
            if not label_says and row.line_item in crossed.get((tuple(row.periods), tuple(row.columns or ())), ()):
                out.extend(_crossed_facts(row, doc, query, heading))
                continue
            member = None
            counted = not is_total(row.line_item) or reconciling and not is_whole(row.line_item)
            # a group's own total row, the group named in the question ('Americas:' / 'United States …' / 'Other …' /
            # 'Total Americas 3,400,135 …' for 'revenue from the Americas')
            grouped = re.match(r"(?i)^\s*total\s+(?P<name>.+?)\s*$", row.line_item) if known else None
            total_of = next((k for k in known if grouped and same_member(k, grouped.group("name"))), None)
            counted = counted or total_of is not None
            if not label_says and _under_other_measure(doc.text, row.raw, query):
                pass  # 'Our operating segment results were as follows:' / 'Net sales:' / 'North America Retail …'
            elif not label_says and row.title and titles_measure(row.title, query) and counted:
                member = row.line_item  # 'Revenue by region' / 'Germany …'
            elif (not label_says and not row.columns and counted and not primary
                  and (not row.title or _LEAD_IN_TITLE.search(row.title) or _GENERIC_TITLE.search(row.title))
                  and titles_measure(_block_heading(doc.text, row.raw), query)):
                # (under a sentence that leads into the table, 'Our operating segment results were as follows:', or
                # a title that names a kind of data, 'Supplemental Financial Information')
                member = row.line_item  # 'Net Sales' / 'North America Retail $ 10,750.5 …' / 'Pet 1,694.6 …'
            elif (not label_says and counted and not row.columns
                  and totalled.get((row.title, tuple(row.periods))) == (row.unit, row.scale)):
                member = row.line_item  # 'Segment Information' / 'Digital Media $ 3,095.2 …' / 'Total revenue …'
            elif label_says and not row.columns and counted and (kind := _kind_of_measure(row.line_item, query)) \
                    and _BY_KIND.search(f"{heading} {doc.text[:max(0, doc.text.find(row.line_item))][-400:]}"):
                member = kind  # 'revenue disaggregated by revenue source' / 'Bitcoin revenue 4,571,543 …'
            elif label_says and row.title:
                # 'Iron Ore FY2024 FY2023' / 'Segment revenue …'; never the registrant's own name ('GENERAL MILLS,
                # INC. AND SUBSIDIARIES' over its income statement), a summary's or a kind of data's title
                member = _segment_title(row.title, query, doc.company)
            if member is None and label_says and not row.columns and opened:
                member = opened  # a member's review: 'CORPORATE & INVESTMENT BANK' / … / 'Total net revenue …'
            if total_of is not None and member == row.line_item:
                member = total_of
            if member is not None and _BALANCE_ROW.search(member) and not _BALANCE_ROW.search(query.measure.phrase):
                member = None  # 'Deferred revenue, end of the period': a balance beside the breakdown, no kind of it
            dated = _columns_dated(row.periods, doc)
            for i, (value, period) in enumerate(zip(row.values, row.periods)):
                name = row.columns[i] if label_says and row.columns and i < len(row.columns) else member
                if value is None or name is None or is_total(name) and not (reconciling and not is_whole(name)):
                    continue
                year, part = dated[i]
                period = f"FY{year}" if period == AS_FILED and year else period
                change = period.endswith("change")
                if year is None and not change:
                    continue
                unit = "%" if change and period.startswith("%") else _row_unit(row.unit, row.scale)
                if _counts_things(row.line_item if label_says else query.measure.phrase):
                    # 'Memberships at end of period': no dollars (a member's row, 'Convenience Stores & Foodservice',
                    # is of the measure asked)
                    unit = re.sub(r"(?:[A-Z]{1,3})?[$£€¥]", "", unit)
                if query.kind == "percent" and unit != "%":
                    continue  # a margin asked: the amounts of a table titled by the margin's other words are none
                # a row that is the member ('Germany' under 'Revenue by region') is labelled with the measure; an
                # adjusted one asked of a table whose title does not say so is the reported figure, named so and
                # matched below a measure named in full
                label = row.line_item if label_says else _upper_first(query.measure.phrase or row.title or "")
                unsaid = not label_says and _adjusted_unsaid(query.measure.phrase, f"{row.title or ''} {heading}")
                if unsaid:
                    label = _upper_first(_ADJUSTED_WORD.sub("", query.measure.phrase).strip() or label)
                figure = Figure(label=label, value=value, unit=unit, company=doc.company,
                                fiscal_year=year, period=period, page=doc.page, source_id=doc.source_id,
                                chunk_id=doc.chunk_id, quote=row.raw[:300], segment=name,
                                origin="reconciling" if is_total(name) else "table")
                match = said if label_says else UNSAID_ADJUSTED if unsaid else 1.0
                out.append(Fact(figure=figure, origin=figure.origin, match=match, segment=name,
                                part=part, context=heading, filed_year=doc.fiscal_year))
        out.extend(_markdown_members(query, doc))
    return sorted(out, key=lambda f: -f.match)  # a member's row that names the measure in full first


_BY_KIND = re.compile(r"(?i)\b(?:disaggregat\w*|by\s+(?:revenue\s+)?(?:source|type|category|product|"
                      r"nature|stream)s?|sources?\s+of\s+revenues?)\b")
"""A table that breaks the measure down by kind ('the Company's revenue disaggregated by revenue source')."""
_BALANCE_ROW = re.compile(r"(?i)\b(?:deferred|unearned|beginning\s+of|end\s+of|balance|recogni[sz]ed\s+in)\b")


def _kind_of_measure(label: str, query: FactQuery) -> str | None:
    """A row that names a kind of the measure before its name ('Bitcoin revenue', 'Transaction-based revenue'):
    the row itself, a member of the breakdown; None for the measure alone, a total, or a balance of it
    ('Deferred revenue, end of the period')."""
    phrase = query.measure.phrase.strip()
    head = re.sub(rf"(?i)\s*\b{re.escape(phrase)}\s*$", "", label.strip()) if phrase else label
    if not phrase or head == label.strip() or not head or is_total(label) or _BALANCE_ROW.search(label):
        return None
    return label.strip()


_ADJUSTED_WORD = re.compile(rf"(?i)\b(?:{'|'.join(sorted(ADJUSTED_NAMES))}|non-gaap)\s+")
UNSAID_ADJUSTED = 0.5
"""How well a member's row of a table that names no adjusted measure matches an adjusted one asked: below
NAMES_MEASURE, so that the reported figure never answers as the adjusted one."""


def _adjusted_unsaid(phrase: str, title: str) -> bool:
    """Whether the measure asked is an adjusted one ('adjusted operating profit') that the table's title and
    heading do not name ('Net Revenue Operating Profit/(Loss)')."""
    return names_adjusted(phrase) and not names_adjusted(title)


def _crossed_members(rows: Sequence[StatementRow], query: FactQuery) -> dict[tuple, set[str]]:
    """A table whose columns are one breakdown and whose rows another, with a whole column: the rows ('North
    America', 'Latin America', …, under 'Flexibles Rigid Packaging Total') are members of the measure its last
    row names ('Net sales $ 11,154 $ 3,540 $ 14,694') when their whole column adds up to that row's. Keyed by
    the table's periods and columns."""
    out: dict[tuple, set[str]] = {}
    for total in rows:
        if not (total.periods and total.columns and label_match(total.line_item, query) >= NAMES_MEASURE):
            continue
        key = (tuple(total.periods), tuple(total.columns))
        whole = next((k for k, c in enumerate(total.columns) if is_whole(c)), None)
        if whole is None or total.values[whole] is None:
            continue
        members = [r for r in rows if (tuple(r.periods or ()), tuple(r.columns or ())) == key and r is not total
                   and not is_total(r.line_item) and r.values[whole] is not None
                   and label_match(r.line_item, query) < NAMES_MEASURE]
        added = sum(r.values[whole] or 0.0 for r in members)
        if len(members) >= 2 and abs(added - total.values[whole]) <= max(1.0, 0.002 * abs(total.values[whole])):
            out[key] = {r.line_item for r in members}
    return out


def _crossed_facts(row: StatementRow, doc: Doc, query: FactQuery, heading: str) -> list[Fact]:
    """A crossed table's row (`_crossed_members`) as its member's fact: its whole column's value."""
    out = []
    dated = _columns_dated(row.periods or [], doc)
    for i, (value, period, column) in enumerate(zip(row.values, row.periods or [], row.columns or [])):
        year, part = dated[i]
        if value is None or year is None or not is_whole(column):
            continue
        figure = Figure(label=_upper_first(query.measure.phrase or row.line_item), value=value,
                        unit=_row_unit(row.unit, row.scale), company=doc.company, fiscal_year=year, period=period,
                        page=doc.page, source_id=doc.source_id, chunk_id=doc.chunk_id, quote=row.raw[:300],
                        segment=row.line_item, origin="table")
        out.append(Fact(figure=figure, origin="table", match=1.0, segment=row.line_item, part=part,
                        context=heading, filed_year=doc.fiscal_year))
    return out


def _totalled_tables(rows: Sequence[StatementRow], query: FactQuery) -> dict[tuple, tuple[str, str | None]]:
    """The tables (title and columns) titled as a breakdown by segment or region ('Segment Information') whose
    total row names the measure, plainly ('Total revenue', not 'Total subscription revenue'), with that row's unit
    and scale: their other rows in that unit are its members. (A breakdown by product or category, 'Disaggregated
    Revenue', is no segment's.)"""
    out: dict[tuple, tuple[str, str | None]] = {}
    for row in rows:
        if (row.periods and is_total(row.line_item) and not row.columns and _PARTS_TITLE.search(row.title or "")
                and label_match(row.line_item, query) >= NAMES_MEASURE
                and not _qualified_title(re.sub(r"(?i)^\s*total\s+", "", row.line_item), query)):
            out[(row.title, tuple(row.periods))] = (row.unit, row.scale)
    return out


_PARTS_TITLE = re.compile(r"(?i)\bsegments?\b|\bdivisions?\b|\bbusiness(?:es)?\b|\breportable\b|\bgeograph\w*|"
                          r"\bregions?\b")
"""A table title that says its rows are the company's segments or regions."""


def page_headings(doc: Doc, docs: Sequence[Doc]) -> list[str]:
    """The headings (a short line of capitalised words alone) of the other chunks of the doc's page. A line the
    doc writes too is none: a table repeated down the page repeats its header's broken lines ('Rigid' /
    'Packaging Total' of 'Flexibles Rigid Packaging Total'), and those tell nothing of where its names split."""
    own = {line.strip() for line in doc.text.splitlines()}
    out: list[str] = []
    for other in docs:
        if other is doc or other.source_id != doc.source_id or other.page != doc.page:
            continue
        for line in other.text.splitlines():
            words = line.split()
            if (1 <= len(words) <= 4 and all(w[:1].isupper() for w in words)
                    and not re.search(r"\d|[.:;,]$", line) and line.strip() not in own):
                out.append(line.strip())
    return list(dict.fromkeys(out))


def row_members(noun: str, query: FactQuery, docs: Iterable[Doc], companies: Sequence[str] = (), question: str = ""
                ) -> list[Fact]:
    """The rows of one table that are the kind of thing an extreme question ranks ('Which activity brought in the
    most cash': the cash flow summary's '… operating activities', '… investing activities' rows; 'the largest
    liability': the rows under a balance sheet's 'Liabilities'): rows whose label names the noun, or whose
    nearest heading is a short one that does (totals and 'other' left out; a parent company's own books too).
    Each a fact whose `segment` is the row; a row that stands in two sections ('Borrowings' current and
    non-current) is two members, each named with its section. Only one table, so that rows of two tables are never ranked together: a primary
    statement first, else the one with the most such rows; and only a whole one: where the table gives the
    kind's total ('Total liabilities'), its rows ('other' ones included) must add up to it, else a row left in a
    chunk not read could be the largest; rows read by their heading are ranked only then. A statement the
    question names ('on the balance sheet') must be the table's."""
    stems = set(analyze(noun))
    group = set(analyze(group_named(question)))
    kind = stems  # what the table must be about besides the group: the kind ranked ('debt')
    if group:  # 'the largest … among the short-term investments': the rows under that heading, its row their total
        stems = group
    if not stems:
        return []
    docs = sorted(docs, key=_chunk_order)  # a page's chunks top down: a row's section is read where it starts
    wanted = {c.casefold() for c in companies}
    named = statement_kinds(question)
    statement = named[0] if named else None
    tables: dict[str, _Table] = {}  # one page's chunks are one table: a statement cut in two chunks
    for doc in docs:
        if wanted and (doc.company or "").casefold() not in wanted or names_parent_entity(doc.text[:400]):
            continue
        table = tables.setdefault(doc.source_id, _Table())
        table.primary = table.primary or _is_primary(doc.text)
        table.text += " " + doc.text
        rows = read_statement(doc.text).rows
        for row, section in zip(rows, row_sections(doc.text, [r.line_item for r in rows])):
            if not row.periods:
                continue
            words = set(analyze(row.line_item))
            # a heading names the kind as a class when it is short ('Liabilities', 'Current liabilities'); a longer
            # one names one member ('Cash flows from financing activities' over its own detail rows)
            nearest = analyze(section)
            grand = bool(stems & words) and words - stems <= {"total"} and ("total" in words or
                                                                         bool(group) and words == group)
            if group and not grand and not (set(nearest) == group):
                continue  # only the group's own rows
            if not grand and not stems & words and not (stems & set(nearest) and len(nearest) <= 3):
                continue
            heading = " ".join(x for x in (row.title or "", _heading_before(doc.text, row.raw)) if x)
            dated = column_years(row.periods, doc.fiscal_year)
            for i, (value, period) in enumerate(zip(row.values, row.periods)):
                year, part = dated[i]
                if value is None or year is None or period.endswith("change"):
                    continue
                if grand:
                    table.totals[(year, part)] = value
                    table.total_rows[(year, part)] = Figure(
                        label=row.line_item, value=value, unit=_row_unit(row.unit, row.scale), company=doc.company,
                        fiscal_year=year, period=period, page=doc.page, source_id=doc.source_id,
                        chunk_id=doc.chunk_id, quote=row.raw[:300], origin="table")
                    continue
                if re.match(r"(?i)\s*total\b", row.line_item):
                    continue  # a subtotal: 'Total current liabilities'
                key = (row.raw, year, part)
                if key in table.seen:
                    continue  # the same row read again from the chunk that overlaps
                table.seen.add(key)
                table.by_heading = table.by_heading or not stems & words
                if is_total(row.line_item):
                    table.others[(year, part)] = table.others.get((year, part), 0.0) + value
                    continue
                figure = Figure(label=row.line_item, value=value, unit=_row_unit(row.unit, row.scale),
                                company=doc.company, fiscal_year=year, period=period, page=doc.page,
                                source_id=doc.source_id, chunk_id=doc.chunk_id, quote=row.raw[:300],
                                segment=row.line_item, origin="table")
                fact = Fact(figure=figure, origin="table", match=1.0, segment=row.line_item, part=part,
                            context=section or heading, filed_year=doc.fiscal_year)
                table.rows.setdefault((row.line_item.casefold(), section.casefold(), year, part), fact)
    best: list[Fact] = []
    best_rank = (False, 0)
    rest = (kind if group else set(query.stems)) - stems - _QUALIFIERS
    for table in tables.values():
        found = table.members()
        said = set(analyze(table.text))
        if rest and 4 * len({w for w in rest if _stem_in(w, said)}) < 3 * len(rest):
            continue  # the table must be about the measure ranked by: 'the most cash', 'among short-term investments'
        if statement is not None and statement not in statement_kinds(table.text[:800]):
            continue  # 'on the balance sheet': not the cash flow statement's 'Impairment of store assets'
        if not table.whole(found) or (table.by_heading and not table.totals):
            continue  # rows read by their heading are ranked only when the table's total shows them all
        rank = (table.primary, len({f.segment for f in found}))
        if len({f.segment for f in found}) >= 2 and rank > best_rank:
            best = [replace(f, of_total=table.total_rows.get((f.figure.fiscal_year or 0, f.part))) for f in found]
            best_rank = rank
    return best


_GROUP = re.compile(r"(?i)\bamong\s+(?:the\s+|its\s+|their\s+|all\s+)?(?P<group>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)"
                    r"(?=\s+(?:for|of|in|at|during|by|on|as|held)\b|\s*[?,.;]|\s*$)")


def group_named(question: str) -> str:
    """The heading whose rows a question ranks ('which type of debt … the largest investment among the short
    term investments' → 'short term investments'), or ''."""
    found = _GROUP.search(question)
    return found.group("group") if found else ""


@dataclass(frozen=True)
class JoinedChunks:
    """Two consecutive chunks of one page read as one text: a table whose header one holds and whose rows the
    next. Its figures are cited to the chunk with the rows (`chunk_id`), where their values stand."""

    text: str
    company: str | None
    fiscal_year: int | None
    source_id: str
    chunk_id: str | None
    page: int | None
    title: str = ""
    head_chunk_id: str | None = None
    """The chunk that holds the table's header (its periods), cited beside the rows' chunk."""


def split_tables(docs: Sequence[Doc]) -> list[JoinedChunks]:
    """The tables chunking cut between a header and its rows, when both chunks are at hand: a chunk whose table
    heads no row it holds (its column periods and names, 'Three months ended' / 'December 31, 2018' / 'Net' / …)
    and the next chunk of the page, whose rows no period heads ('Consumer' / '1,211' / '15.2' / '257' …), joined.
    Nothing else is joined: a chunk that reads on its own is read so."""
    by_page: dict[str, dict[int, Doc]] = {}
    for doc in docs:
        by_page.setdefault(doc.source_id, {})[_chunk_order(doc)[1]] = doc
    out = []
    for chunks in by_page.values():
        for i, head in chunks.items():
            rows = chunks.get(i + 1)
            if rows is None or not _cut_between(head.text, rows.text):
                continue
            out.append(JoinedChunks(text=f"{head.text}\n{rows.text}", company=rows.company,
                                    fiscal_year=rows.fiscal_year, source_id=rows.source_id, chunk_id=rows.chunk_id,
                                    page=rows.page, title=getattr(rows, "title", "") or "",
                                    head_chunk_id=head.chunk_id))
    return out


@lru_cache(maxsize=512)
def _cut_between(head: str, rows: str) -> bool:
    """Whether chunking cut a table between these two texts (`split_tables`): the first heads no row it holds
    with its periods, the second's rows have none. Read once per pair: every members' read of a turn asks."""
    if continues_regional_split(head, rows):
        return True  # a product's regions under a sales schedule's header the chunk before holds
    headed = read_statement(head)
    if not (_YEAR_LINE.search(head) or headed.periods) or any(r.periods for r in headed.rows):
        return False  # (a header's dates with a heading run on after them: 'March 31, 2020 JPMorgan Chase & Co.')
    read = read_statement(rows).rows
    return bool(read) and not any(r.periods for r in read)


_YEAR_LINE = re.compile(r"(?m)^\s*(?:.{0,24}[\s/])?(?:19|20)\d{2}\s*$")  # ('12 Weeks Ended 3/19/2022' too)


def _chunk_order(doc: Doc) -> tuple[str, int]:
    ordinal = (doc.chunk_id or "").rsplit("::", 1)[-1]
    return doc.source_id, int(ordinal) if ordinal.isdigit() else 0


_COLUMN_WORDS = re.compile(r"(?i)^(?:notes?|[a-z]?[$£€¥]?\s*(?:m|bn|k|000)|(?:millions?|thousands?|billions?)(?:\s+of\s+\w+)?|"
                           r"restated|unaudited|audited|change|fy|h1|h2)(?:\s+(?:notes?|m|restated|change))*$")
"""Column headings between a statement's title and its first row ('Note', '$m', 'Millions of yen'): no section."""


def row_sections(text: str, labels: Sequence[str]) -> list[str]:
    """The section heading each row stands under, in the order the rows are read: the last line of words
    between a row and the one before it ('… 228,354 188,548 / Liabilities and Shareholders' Equity /
    Liabilities / Customer deposits …': 'Liabilities'), kept until the next such line or a total ('Total current
    liabilities' leaves the rows after it among the 'Liabilities', 'Total liabilities' none). Figures, note
    numbers and currency signs between rows are no heading; a label not found as written keeps the section
    before."""
    out: list[str] = []
    section, at = "", 0
    for label in labels:
        found = text.find(label[:30], at) if label else -1
        if found >= 0:
            gap = text[at:found]
            lines = [re.sub(r"(?:[\s$£€¥()+.,%*\d]|(?<![A-Za-z])[-—–]|[-—–](?![A-Za-z]))+", " ", line).strip()
                     for line in gap.splitlines()]  # figures out, 'Non-current' whole
            worded = [line for line in lines if re.search(r"[A-Za-z]{3}", line) and not _COLUMN_WORDS.match(line)]
            if worded:
                section = worded[-1]
            at = found + (len(label) if text.startswith(label, found) else len(label[:30]))
        out.append(section)
        part_total = re.match(r"(?i)\s*total\s+(?:current|non-?\s*current)\s+(.+)", label)
        if part_total:  # 'Total current liabilities': the liabilities go on (the non-current ones, headed or not)
            section = part_total.group(1).strip().capitalize()
        elif re.match(r"(?i)\s*total\b", label):
            section = ""  # a total closes its section: 'Net assets' after 'Total liabilities' is no liability
    return out


@dataclass
class _Table:
    """What `row_members` reads of one page: its member rows, the kind's total and its 'other' rows per period."""

    primary: bool = False
    by_heading: bool = False
    text: str = ""
    rows: dict[tuple[str, str, int, str | None], Fact] = field(default_factory=dict)
    totals: dict[tuple[int, str | None], float] = field(default_factory=dict)
    total_rows: dict[tuple[int, str | None], Figure] = field(default_factory=dict)
    others: dict[tuple[int, str | None], float] = field(default_factory=dict)
    seen: set[tuple[str, int, str | None]] = field(default_factory=set)

    def members(self) -> list[Fact]:
        """The rows as members, a label that stands in two sections named with its section ('Borrowings
        (non-current liabilities)'): each figure as the table states it, never a sum the table does not show."""
        sections: dict[str, set[str]] = {}
        for label, section, _, _ in self.rows:
            sections.setdefault(label, set()).add(section)
        out = []
        for (label, section, _, _), fact in self.rows.items():
            if len(sections[label]) > 1 and fact.context:
                name = f"{fact.segment} ({fact.context[:1].lower()}{fact.context[1:]})"
                fact = replace(fact, segment=name, figure=fact.figure.model_copy(update={"segment": name}))
            out.append(fact)
        return out

    def whole(self, found: Sequence[Fact]) -> bool:
        for (year, part), total in self.totals.items():
            summed = sum(f.figure.value for f in found if (f.figure.fiscal_year, f.part) == (year, part))
            summed += self.others.get((year, part), 0.0)
            if abs(summed - total) > 0.02 * abs(total) + 0.5:
                return False
        return True


def section_of(doc: Doc) -> str:
    """The section a chunk was cut from (a table chunked apart from its heading keeps it there): the evidence's
    own field, or the prompt block's header ('section "Segment revenue"')."""
    section = getattr(doc, "section", None)
    if section:
        return str(section)
    named = re.search(r'section "([^"]+)"', getattr(doc, "header", "") or "")
    return named.group(1) if named else ""


def _markdown_members(query: FactQuery, doc: Doc) -> list[Fact]:
    """A markdown table under a heading that names the measure ('### Segment revenue' over '| Segment | FY2024
    (€m) | …' and a row per segment): each row a member, its change column the member's change."""
    if "|" not in doc.text:
        return []
    from app.facts.readers import table_figures
    from app.text.figures import table_scale, without_unit
    from app.text.sentences import table_cells

    out: list[Fact] = []
    for figure in table_figures(doc):  # type: ignore[arg-type]
        change = figure.label.endswith(" growth") and figure.unit == "%"
        label = figure.label[:-len(" growth")] if change else figure.label
        # the row names the member; a word its column adds is another measure of it ('FY2024 margin' beside
        # 'FY2024 (€m)' under 'Segment operating profit': Packaged Snacks' margin, not its profit)
        row = without_unit(table_cells(figure.quote)[0]).strip(" :")
        name, qualifier = (row, label[len(row):].strip()) if row and label.startswith(row) else (label, "")
        if is_total(name) or label_match(name, query) > 0 or not figure.fiscal_year:
            continue
        if qualifier and not set(analyze(qualifier)) <= set(query.stems):
            continue  # another measure of the member than the one asked
        heading = " ".join(x for x in (section_of(doc), _heading_before(doc.text, figure.quote)) if x)
        if not names_measure(f"{heading} {qualifier}", query):
            continue
        measure = _upper_first(query.measure.phrase or f"{heading} {qualifier}".strip())
        unit = figure.unit or ("" if qualifier else table_scale(doc.text))
        member = figure.model_copy(update={"label": measure, "unit": unit, "segment": name, "page": doc.page,
                                           "origin": "table", "period": "% change" if change else None})
        out.append(Fact(figure=member, origin="table", match=1.0, segment=name, context=heading,
                        filed_year=doc.fiscal_year))
    return out


def _segment_title(title: str, query: FactQuery, company: str | None) -> str | None:
    """The member a table's title names ('Iron Ore FY2024 FY2023', 'Wireless financial results'), or None: a title
    that names the measure, a summary, the whole company, the company itself or a kind of data ('Key operating
    metrics', 'Employee numbers') names no member. An aside in brackets is no part of it ('Health Care Business
    (18.4% of consolidated sales):')."""
    title = re.sub(r"\s*\([^)]*\)", "", title or "").strip(" :")
    # 'TABLE 9: USCS SELECTED INCOME STATEMENT DATA': a numbered table of one member's data names that member
    title = _MEMBER_DATA.sub("", _TABLE_NUMBER.sub("", title)).strip(" :")
    if not title or is_total(title) or _SUMMARY_TITLE.search(title) or label_match(title, query) > 0 \
            or _LEAD_IN_TITLE.search(title):
        return None
    member = _member_of(title)
    words = member.split()
    if (not 1 <= len(words) <= 4 or not member[:1].isupper() or _GENERIC_TITLE.search(member)
            or _COMPANY_FORM.search(member)):
        return None
    if set(analyze(member)) & _MEASURE_WORDS:
        return None  # 'Net debt and leverage', 'Capital expenditure': what is measured, not who
    if _BREAKDOWN_WORD.match(member):
        return None  # a column's heading ('($ in millions) Segment 2023 2022'): the kind of member, none of them
    named = {w.casefold() for w in re.findall(r"[A-Za-z]{4,}", company or "")}
    if any(w.casefold() in named for w in re.findall(r"[A-Za-z]{4,}", member)):
        return None  # the company's own name heading its pages
    if (of := _OF_THE_COMPANY.search(title[len(member):])) \
            and any(w.casefold() in named for w in re.findall(r"[A-Za-z]{4,}", of.group("whole"))):
        return None  # 'Financial performance of JPMorgan Chase': the whole firm's, no member 'Financial'
    return member


_OF_THE_COMPANY = re.compile(r"(?i)\b(?:of|for)\s+(?:the\s+)?(?P<whole>.+)$")


_TABLE_NUMBER = re.compile(r"(?i)^(?:table|exhibit|figure)\s+\d+[a-z]?\s*[:.–—-]\s*")
_MEMBER_DATA = re.compile(r"(?i)\s+(?:selected\s+)?(?:(?:income\s+statement|financial|operating|balance\s+sheet)\s+)?"
                          r"(?:and\s+other\s+)?data$")
"""A title's number ('TABLE 9:') and its closing words that say it holds one member's data ('… SELECTED INCOME
STATEMENT AND OTHER DATA')."""
_LEAD_IN_TITLE = re.compile(r"(?i)^(?:our|its|their|these|this|the\s+following)\b|\b(?:were|was|are|is)\b|"
                            r"\bas\s+follows\b")
"""A sentence that leads into a table ('Our operating segment results were as follows:'): it names no member."""
_MEASURE_WORDS = frozenset(analyze(
    "debt leverage liquidity cash flow flows capital revenue revenues sales income profit profits loss losses cost costs "
    "expense expenses assets liabilities equity margin margins ebitda ebit earnings dividend dividends employees "
    "workforce headcount subscribers customers performance position balance investment investments borrowings "
    "funding tax taxes guidance outlook shareholder shareholders returns return remuneration pay risk risks "
    "production shipments volumes orders backlog intake capex expenditure spending safety emissions"))
"""Words of a title that say what is measured ('Net debt and leverage'), so the title names no member."""
_TOTAL_OF = re.compile(r"(?i)^\s*total\s+(?P<member>.+?)\s*:?\s*$")
_GENERIC_TITLE = re.compile(r"(?i)\b(?:data|metrics?|information|figures|numbers|indicators|kpis?|statistics|"
                            r"highlights|summary|overview|analysis|notes?|reconciliation|schedule|movements?|"
                            r"continued|cont\.?|unaudited|restated|millions?|thousands?|billions?|adjusted|underlying|"
                            r"statutory|reported|non-gaap|gaap|ifrs|pro\s+forma|amounts?|averages?|"
                            r"totals?)\b|\d")
_COMPANY_FORM = re.compile(r"(?i)\b(?:inc|ltd|limited|plc|ag|se|sa|nv|corp|corporation|co|llc|lp|group)\b\.?")


_SUMMARY_TITLE = re.compile(r"(?i)\b(?:statements?|income|balance|cash\s+flows?|summary|highlights|overview|overall|key\s+"
                            r"figures|at\s+a\s+glance|results\s+of\s+operations|financial\s+review|group|"
                            r"consolidated|(?:two|three|four|five|ten|\d+)[- ]years?|review\s+of\s+results|quarterly|"
                            r"selected|guidance|outlook|forecast)\b")
"""A table title that names a summary of the whole company, never one member of a breakdown."""
_BREAKDOWN_WORD = re.compile(r"(?i)^(?:business\s+|operating\s+|reportable\s+)?(?:segments?|regions?|divisions?|"
                             r"geograph(?:y|ies)|countr(?:y|ies)|markets?|products?|units?)$")
"""A column's heading that names the kind of member ('Segment'), none of them."""


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _member_of(title: str) -> str:
    """A table title as the member it names: 'Iron Ore – Yarrabine Hub' → 'Iron Ore', 'Wireless financial
    results' → 'Wireless'."""
    name = re.split(r"\s[–—-]\s|:", title)[0].strip()
    return re.sub(r"(?i)\s+(?:segment|financial\s+results|results|performance|review|operations)\b.*$", "", name).strip()


def dated_values(text: str, fiscal_year: int | None) -> list[tuple[float, int, bool]]:
    """Every figure a text gives for a period it says: (value, fiscal year, whether the period is part of a
    year): statement and table rows by their columns, sentences by what they say around each figure
    (prose.dated_figures); a figure whose period the text leaves open is not listed."""
    from app.facts.prose import dated_figures
    from app.facts.readers import table_figures
    from app.evidence import Evidence

    out: list[tuple[float, int, bool]] = []
    for row in read_statement(text).rows:
        for value, (year, part) in zip(row.values, column_years(row.periods or [], fiscal_year)):
            if value is not None and year is not None:
                out.append((value, year, part is not None))
    if "|" in text:
        doc = Evidence(chunk_id="-", source_id="-", text=text, fiscal_year=fiscal_year)
        out += [(f.value, f.fiscal_year, f.period is not None and not str(f.period).startswith("FY"))
                for f in table_figures(doc, parts=True) if f.fiscal_year]
    lead_year = None  # 'For FY2025 we expect:' dates the items listed after it ('- revenue of $1.02bn to …')
    before = ""
    for sentence in whole_sentences(text):
        item = sentence[:1].islower() or sentence[:1] in "-–•" or before.rstrip().endswith((":", ";"))
        before = sentence
        if not item:
            lead_year = None
        year_of = lead_year if item and lead_year and not fiscal_years_named(sentence) else fiscal_year
        out += [(f.value, year, False) for f, year, _ in dated_figures(sentence, year_of) if year is not None]
        if sentence.rstrip().endswith(":") and len(set(named := fiscal_years_named(sentence))) == 1:
            lead_year = named[0]
    return out


_MEMBER_HEADER = re.compile(r"(?i)^(?:(?:reportable|operating|business)\s+)?(?:segments?|divisions?|business(?:es)?|"
                            r"regions?|geograph(?:y|ies|ic\s+areas?)|markets?|brands?)$")


def table_members(docs: Iterable[Doc]) -> dict[str, tuple[str, ...]]:
    """Per company (casefolded), the members its breakdown tables name: the rows of a markdown table whose first
    header cell is 'Segment', 'Division', 'Region' … ('| Segment | FY2024 (€m) | …' / '| Packaged Snacks | …'),
    totals left out."""
    from app.text.sentences import is_rule_row, table_cells

    found: dict[str, dict[str, None]] = {}
    for doc in docs:
        if "|" not in doc.text:
            continue
        inside = False
        for line in doc.text.splitlines():
            if not line.strip().startswith("|"):
                inside = False
                continue
            cells = table_cells(line)
            if is_rule_row(cells):
                continue
            if not inside:
                inside = True
                header = cells[0].strip()
                members = bool(_MEMBER_HEADER.match(header))
                continue
            name = cells[0].strip(" *")
            if members and name and not is_total(name) and len(name.split()) <= 5:
                found.setdefault((doc.company or "").casefold(), {})[name] = None
    return {company: tuple(names) for company, names in found.items()}


_BARE_CELL = r"\$?\s?\(?-?\d[\d,]*(?:\.\d+)?\s?\)?%?"
_BARE_ROW = re.compile(rf"^\s*(?P<label>[A-Za-z][A-Za-z ,&'’/()-]{{2,80}}?)(?P<cells>(?:\s+{_BARE_CELL}){{2,6}})"
                       r"(?=\s+[A-Z(]|\s*$)")
"""A table row read as a sentence, its label and two to six bare cells ('Net debt-to-adjusted EBITDA ratio 3.2 3.9
Note: …'): the period header of its columns is not in the text."""


_PROSE_WORD = re.compile(r"(?i)\b(?:of|is|was|are|were|be|been|represent\w*|total\w*|reach\w*|expect\w*)\b")
_OVER_OWN_YEAR = re.compile(r"(?i)\b(?:growth|increase|improvement|decline)\s+(?:over|on|versus|from)\s+(?:fiscal\s+|FY\s?)?"
                            r"(?P<year>(?:19|20)\d{2})\b")
_RANGE_AROUND = re.compile(r"(?<!from\s)[$€£¥]\s?\d[\d,.]*\s*(?:million|billion|thousand|m|bn)?\s*(?:[-–]|to)\s*"
                           r"[$€£¥]?\s*$")
_RANGE_AFTER = re.compile(r"\s*(?:million|billion|thousand|m|bn)?\s*(?:[-–]|to)\s*[$€£¥]?\s*\d")
_FROM_BEFORE = re.compile(r"(?i)\bfrom\s*[$€£¥]?\s*$")


def _in_range(sentence: str, value: float) -> bool:
    """Whether an amount is an end of a range ('$850 million to $950 million', '$850-950 million'): an outlook's;
    never a change's ends ('from $1.2 billion to $1.5 billion') nor a per cent's ('grew 5% to $3.2 billion')."""
    if value.is_integer() and re.search(rf"[$€£¥]\s?\d[\d,.]*\s*[-–]\s*{re.escape(f'{value:,.0f}')}(?![\d,.])", sentence):
        return True  # the far end of '$850-950 million', written bare
    found = figure_located(sentence, value)
    if found is None or found.kind != "money":
        return False  # (an amount of money only)
    if _FROM_BEFORE.search(sentence[:found.start]):
        return False
    return bool(_RANGE_AROUND.search(sentence[:found.start]) or _RANGE_AFTER.match(sentence, found.end))


_OF_CHANGE = re.compile(r"(?i)\s*%?\s*of\s*the\s*(?:total\s+)?(?:increase|growth|rise|decrease|decline|change)\b")


def _share_of_change(sentence: str, value: float) -> bool:
    """Whether a per cent is a share of a change ('85% of the increase in consolidated net revenues')."""
    found = figure_located(sentence, value)
    return found is not None and _OF_CHANGE.match(sentence, found.end) is not None


def _later_bare_column(sentence: str, value: float) -> bool:
    """Whether `value` stands only in a later column of a header-less table row (`_BARE_ROW`) of a sentence that
    names no year: the first column is the report's year, as statements run; the next ones cannot be dated."""
    if years_named(sentence) or not (row := _BARE_ROW.match(sentence)):
        return False
    cells = [parse_cell(c.replace(" ", "")) for c in re.findall(_BARE_CELL, row.group("cells"))]
    values = [c[0] for c in cells if c is not None]
    return bool(values) and value in values[1:] and value != values[0]


def text_facts(query: FactQuery, doc: Doc, members: Sequence[str] = ()) -> list[Fact]:
    """The figures of the doc's sentences for the query's measure. A sentence's figure is a segment's when the
    clause before it names one, when the sentence stands under the segment's own heading, or when the sentence
    names one of the `members` the company's breakdown tables list ('Packaged Snacks revenue rose 6.8% … an
    operating margin of 12.5%')."""
    out = []
    asked_words = set(analyze(query_text(query))) | query.stems  # (a flow the question asks: 'close' of closed)
    measure = query.prose_measure()
    counted = counted_only(measure)  # (read once: every figure's sentence is matched with it)
    for figure in prose_facts(doc.text, measure, company=doc.company, fiscal_year=doc.fiscal_year,
                              source_id=doc.source_id, chunk_id=doc.chunk_id, page=doc.page, terms=query.of_terms):
        sentence = figure.quote
        if query.kind == "count" and figure.value < 0:
            continue  # no count is negative: a bracketed figure counts nothing
        if is_contract_text(sentence) and not query.of_terms:
            continue  # a plan's or agreement's terms: '… for purposes of this paragraph (5), each employer …'
        if _AFTER_PERIOD.match(sentence):
            continue  # 'Subsequent to the quarter ended June 30, 2023, the Company repurchased …': no figure of
            # the period the report covers, nor yet of a later one's report
        # ('13.8% and 22.1% for the three and six months ended June 30, 2023, respectively': each figure's own part)
        part = listed_part(sentence, figure.value) or _part_in(sentence) or _part_of_filing(doc, sentence,
                                                                                           figure.fiscal_year)
        if part == "Q" and _EACH_QUARTER.search(sentence) and _after_year_total(sentence, figure.value):
            part = None  # 'four quarterly dividends of $0.05 per share, a total of $0.20 (FY2023: $0.18)
        elif part == "Q" and (quarter := _filing_quarter(doc)):
            part = f"Q{quarter}"  # 'compared to the prior year quarter' in a fourth-quarter release: Q4's
        clause = _clause_before(sentence, figure.value)
        compared = _compared_with(sentence, clause)  # the first figure, when this one is compared with it
        qualified = _qualified(sentence, figure.value, query) or _compared_qualified(sentence, figure.value,
                                                                                       compared, query)
        match = _sentence_match(sentence, query, figure.value, counted) - (QUALIFIED if qualified else 0.0)
        if _other_head(sentence, query):
            continue  # 'a reduction in the allowance for credit losses of $5.2 billion': no provision for them
        if _other_scope(sentence, clause, compared, query):
            continue  # 'Same-store net revenues … of $5.6 billion': another measure than net revenues
        if _PER_SHARE.search(query.measure.phrase) and not _per_share_figure(sentence, figure.value):
            continue  # 'an aggregate payment of approximately $4,430' is no dividend per share
        if query.kind == "count" and (flow := _FLOW_VERB.search(clause[-60:])) \
                and not any(stem_in_words(verb, asked_words) for verb in analyze(flow.group("verb"))):
            continue  # 'relocated 12 stores' counts a year's moves, not the stores it has
        if query.kind == "percent" and not asks_growth(query) and _share_of_change(sentence, figure.value):
            match -= QUALIFIED  # '85% of the increase in revenues' is a share of the growth, not of the revenue
        if _later_bare_column(sentence, figure.value):
            continue  # 'Net debt-to-adjusted EBITDA ratio 3.2 3.9': a row whose header chunking cut off; its
            # first figure is the report's year (a statement's columns run latest first), the next ones undated
        if _SUPERSEDED.search(sentence):
            continue  # 'As previously reported, prepaid subscribers at December 31, 2023 were 687,000, …': figures
            # the report has since restated, which its own table states anew
        if _DISOWNED.search(clause):
            continue  # 'sales by our partners, which are not recorded as Pellbury revenue, were about £148m
        # (the segment named in this figure's own clause: in '740,000 square feet … for our Blizzard segment's
        # headquarters, which includes …, and approximately 68,000 square feet … for our King segment's', the
        # 68,000 is not Blizzard's)
        own = re.split(r"(?i),\s*(?:and|while|whereas|but)\b|;", clause)[-1]
        named = _SEGMENT_NAMED.search(own) or _HELD_BY.search(own)
        segment = named.group("name").strip() if named else PARENT_ENTITY if _PARENT.search(sentence) else None
        before = sentence[:sentence.find(clause) + len(clause)] if clause in sentence else clause
        if segment is None and (asked := query.measure.segment) and asked != PARENT_ENTITY and re.search(
                rf"(?i)(?<![\w-]){re.escape(asked)}(?![\w-])", re.split(r"(?i),\s*(?:while|whereas|but)\b|;", before)[-1]) \
                and not any(not same_member(asked, m.group("name").strip()) for m in _SEGMENT_NAMED.finditer(sentence)):
            segment = asked  # 'the Delta cobrand portfolio represented approximately 10 percent of … and
            # approximately 21 percent of …': the part asked, the subject of the figure's clause, when the sentence
            # names no other ('… for our Payments segment's headquarters, and … for our Lending segment's')
        if segment is None and (placed := REGION_IN.search(before)):
            # 'sales by companies in Europe experienced a decline of 0.6% …, which included operational growth of
            # 11.0%': Europe's, both
            segment = placed.group("region") or placed.group("owner")
        if segment is None and (ABROAD.search(sentence) or _ABROAD_AFTER.match(sentence, len(before))):
            # '64% of our revenue was generated outside the United States', 'we operated 251 warehouses outside
            # of the U.S.'
            segment = "International"
        if (part_of := _INCLUDED_PART.search(before)) and query.measure.segment \
                and not same_member(query.measure.segment, part_of.group("part")):
            continue  # 'Asia Pacific included China/Hong Kong net sales to customers of $3.574 billion': a part's
        heading = _heading_over(doc.text, sentence)
        if segment is None and query.measure.segment and heading and _names(query.measure.segment, heading) \
                and not _SEGMENT_ELSEWHERE.search(sentence):
            segment = heading  # a segment's review under its own heading ('Precision Components' / '… lifted
            # segment profit by 35.9% to ¥8,210 million'), its sentences naming no other segment
        if segment is None and not _SEGMENT_ELSEWHERE.search(sentence) and (
                under := segment_under(doc.text, sentence, section_of(doc))):
            segment = under  # 'Flexibles Segment' over its table and paragraphs ('Adjusted EBIT decreased by $88
            # million, or 6% …'): the segment's figure, never the company's
        if segment is None and members and not _SEGMENT_ELSEWHERE.search(before):
            # 'Packaged Snacks revenue rose 6.8% …, an operating margin of 12.5%', or a sentence of the section
            # 'Foodservice' ('Revenue grew 12.7% … giving an operating margin of 8.9%'): the member's figure for a
            # question about it; for one about the company, after the company's own (a measure only a segment
            # reports, 'TEU of ocean freight handled', is still the company's answer)
            section = section_of(doc)
            member = next((m for m in members if re.search(rf"(?<![\w-]){re.escape(m)}(?![\w-])", before)),
                          next((m for m in members if same_member(m, section)), None) if section else None)
            if member is not None and query.measure.segment:
                segment = member
            elif member is not None:
                match -= 0.1
        # a bound is no measurement: 'a covenant limiting net financial debt to no more than 3.0 times EBITDA'
        bound = bool(_BOUND.search(clause)) or _bound_after(sentence, figure.value)
        forward = bool(_FORWARD.search(measured_against_plan(_own_clauses(sentence, figure.value)))) or bound
        over = _OVER_OWN_YEAR.search(sentence)
        if not forward and doc.fiscal_year and figure.fiscal_year == doc.fiscal_year \
                and _PROSE_WORD.search(sentence) and (
                _in_range(sentence, figure.value)
                or over is not None and int(over.group("year")) == doc.fiscal_year):
            # '$850 million to $950 million, representing solid growth over fiscal 2023' in the 2023 release: a
            # range, or a growth over the report's own year, is the next year's outlook (in a sentence: a table's
            # row, 'Revenue €2,437.8 million €2.45 billion to €2.60 billion', is dated by its own header)
            forward = True
            figure = figure.model_copy(update={"fiscal_year": doc.fiscal_year + 1})
        if not forward and not years_named(sentence) and _under_forecast_heading(doc.text, sentence):
            # 'Other forecasts' / 'Orders received (Machine Tools) 155,000': a target of the year after the
            # report's, not its result
            forward = True
            if figure.fiscal_year == doc.fiscal_year and doc.fiscal_year:
                figure = figure.model_copy(update={"fiscal_year": doc.fiscal_year + 1})
        lead = bullet_lead_in(doc.text, sentence)
        if lead and _FORWARD.search(measured_against_plan(lead)):
            # 'For FY2024 the Board expects:' / '- an operating margin of 9.5% to 10.0%;': a target of the year the
            # lead-in names, not a result of the report's own year
            forward = True
            named = sorted(set(fiscal_years_named(lead)))
            if len(named) == 1 and not years_named(sentence):
                figure = figure.model_copy(update={"fiscal_year": named[0]})
        fact = Fact(figure=figure, origin="text", match=match, part=part, segment=segment, forward=forward,
                    context=sentence, filed_year=doc.fiscal_year)
        out.append(fact)
        if part and _AS_OF_OPENING.match(sentence) and figure.fiscal_year == doc.fiscal_year:
            # 'As of June 30, 2023, we had cash … of $3.8 billion' in a 10-Q: the balance on that day, asked by the
            # day as well as by its quarter (as a balance sheet's column is: `row_facts`)
            out.append(replace(fact, part=None))
    return out


_ABROAD_AFTER = re.compile(rf"(?i)[^,;]{{0,40}}?\b{OUTSIDE_HOME}")
"""Outside the home country, said of the figure just before ('251 warehouses outside of the U.S.')."""
_AFTER_PERIOD = re.compile(r"(?i)^\W*(?:subsequent\s+to|after|since)\s+(?:the\s+)?(?:end\s+of\s+the\s+)?"
                           r"(?:(?:fiscal\s+|financial\s+)?(?:quarter|year|period|half)(?:[- ]end)?|balance\s+sheet\s+date)"
                           r"\b")
"""A sentence that opens on what happened after the period's end ('Subsequent to the quarter ended June 30, 2023,')."""
_INCLUDED_PART = re.compile(r"\b(?:includes?|included|including)\s+(?P<part>[A-Z][\w/&.-]*(?:\s+[A-Z][\w/&.-]*)*)"
                            r"\s+(?:net\s+)?(?:sales|revenues?)\b")
"""A part a sentence says a whole includes, with the part's own figure ('Asia Pacific included China/Hong Kong net
sales to customers of $3.574 billion'): the figure is that part's, never the whole's."""
_HEADED = re.compile(r"(?i)^(?P<head>[a-z][\w-]*)\s+(?P<prep>for|of|on|from)\s+(?P<tail>[a-z][\w-]*(?:\s+[a-z][\w-]*)*)$")


def _other_head(sentence: str, query: FactQuery) -> bool:
    """Whether a sentence names another thing of what the measure is of, and never the measure's own head:
    'the allowance for credit losses' where the provision for credit losses is asked."""
    found = _HEADED.match(query.measure.phrase.strip())
    if found is None or set(analyze(found.group("head"))) & set(analyze(sentence)):
        return False
    tail = r"\s+".join(re.escape(w) for w in found.group("tail").split())
    return re.search(rf"(?i)\b[a-z][\w-]*\s+{found.group('prep')}\s+(?:the\s+)?{tail}\b", sentence) is not None


_DISOWNED = re.compile(r"(?i)\bnot\s+(?:recorded|recognised|recognized|included|reported|counted|treated|"
                       r"accounted\s+for)\s+(?:as|in|within)\b")
"""A sentence that says its figure is not the measure it names."""
_SEGMENT_ELSEWHERE = re.compile(r"(?i)\b(?:group|consolidated|company-wide|other segments?)\b")


_BULLET = re.compile(r"^\s*(?:[-•*–·▪]|\(?[a-z0-9]{1,2}[.)])\s+")


def bullet_lead_in(text: str, sentence: str) -> str:
    """The lead-in a bulleted item stands under ('For FY2024 the Board expects:' over '- an operating margin of
    9.5% to 10.0%;'): the last sentence of the line above its run of bullets, when that line ends with ':'; ''
    for a sentence that is no bullet or has no such lead-in."""
    at = text.find(sentence[:60])
    if at < 0:
        return ""
    lines = text[:at].split("\n")
    if not _BULLET.match(lines[-1]) or lines[-1][_BULLET.match(lines[-1]).end():].strip():
        return ""  # the sentence does not open its line's bullet
    for line in reversed(lines[:-1]):
        if not line.strip() or _BULLET.match(line):
            continue
        line = line.strip()
        return re.split(r"(?<=[.!?])\s+", line)[-1] if line.endswith(":") else ""
    return ""


def _under_forecast_heading(text: str, sentence: str) -> bool:
    """Whether a line of figures stands in a list a forecast's heading opens ('Segment forecasts' / 'Machine
    Tools: net sales 155,000; …', 'Other forecasts' / 'Orders received (Machine Tools) 155,000' / 'Capital
    expenditures 19,500'): the nearest heading above it, over other lines of figures only, names a forecast."""
    at = text.find(sentence[:60])
    if at < 0:
        return False
    for line in list(reversed(text[:at].splitlines()))[:12]:
        line = line.strip()
        if not line or re.search(r"\d[\d,.]*\s*[%)]?\s*;?$", line) and len(line) <= 120:
            continue  # another line of the list ('Capital expenditures 19,500')
        return (len(line.split()) <= 6 and not line.endswith((".", ",", ";")) and line[:1].isupper()
                and bool(_FORWARD.search(line)))
    return False


def _heading_over(text: str, sentence: str) -> str | None:
    """The heading line nearest above a sentence in its text: a short line of its own (at most six words, no
    figures, no closing stop), as a segment's review heads its paragraphs; None when none stands above it."""
    at = text.find(sentence[:60])
    if at < 0:
        return None
    for line in reversed(text[:at].splitlines()):
        line = line.strip()
        if not line:
            continue
        if len(line.split()) <= 6 and not re.search(r"\d", line) and not line.endswith((".", ",", ";", ":")) \
                and line[:1].isupper():
            return line
        if line.endswith("."):
            continue  # an earlier sentence of the same paragraph
        return None
    return None


_NOT_A_BREAKDOWN = re.compile(r"(?i)\breconcil\w*|\bto\b|\bper\s+share\b|"
                               r"\b(?:income|earnings|operations)\s+statements?\b|\bstatements?\s+of\b|\bselected\b")
"""A title of a table that is no breakdown of its measure: a reconciliation, a ratio, or a statement's data
('Selected income statement data': its rows are the statement's lines, none a member)."""


NAMES_MEASURE = 0.6
"""The `label_match` score at which a row label or title names the measure asked: the measure's row, not a
member's."""


def names_measure(label: str, query: FactQuery) -> bool:
    """Whether a row label (or a table's title) names the measure asked (`NAMES_MEASURE`)."""
    return label_match(label, query) >= NAMES_MEASURE


def titles_measure(title: str, query: FactQuery) -> bool:
    """Whether a table's title names the measure its rows break down ('Revenue by region'; 'Supplemental data –
    Adjusted Property EBITDAR' for EBITDAR): a row label's score (`label_match`) of 0.6, or the title holds the
    measure's words whatever else it says, unless it reconciles one measure to another ('Reconciliation of net
    income to Adjusted EBITDAR': its rows are adjustments, no members)."""
    if title.rstrip().endswith(":") and _qualified_title(title, query):
        # the sentence that leads into the table ('Subscription revenue by reportable segment … is as follows:'):
        # a kind of revenue the question does not ask
        return False
    if names_measure(title, query):
        return True
    want = set(query.stems) - _TOTAL - _QUALIFIERS
    stems = set(analyze(re.sub(r"\([^)]*\)", " ", title)))
    return (bool(want) and 5 * len({w for w in want if _stem_in(w, stems)}) >= 3 * len(want)
            and not _NOT_A_BREAKDOWN.search(title))


def _qualified_title(title: str, query: FactQuery) -> bool:
    """Whether a table's title opens on a word that makes the measure a kind of it the question does not say
    ('Subscription revenue by reportable segment …' for revenue); words that name the whole ('Total', 'Net',
    'Segment', 'Operating revenues') do not."""
    words = re.findall(r"[A-Za-z][\w&'’-]*", re.sub(r"\([^)]*\)", " ", title))
    want = set(query.measure.stems)
    at = next((i for i, w in enumerate(words) if set(analyze(w)) & want), None)
    if not at:
        return False
    before = words[at - 1]
    stems = analyze(before)
    return (bool(stems) and before.lower() not in _WHOLE_WORDS and not _PRESENTS.fullmatch(before)
            and not set(stems) & set(analyze(query_text(query)))
            and not _stem_in(stems[0], want))


_PRESENTS = re.compile(r"(?i)(?:disaggregat|present|show|summari[sz]|detail|list|provid|break|set)(?:e|es|s|ed)?")
"""A verb that leads a title into its measure ('The following tables disaggregate net sales … by geography'): no
qualifier of the measure."""
_WHOLE_WORDS = frozenset("""total net consolidated segment segments reportable group company reported gaap operating
    gross annual quarterly average our the its their of by and in for""".split())
"""Words before a measure in a title that name it whole ('Total revenue', 'Segment revenue', 'Operating revenues');
an average ('our average MAUs') is how a count over a period is stated, no kind of it."""


_AS_SHARE_OF_SALES = re.compile(r"(?i)\s*,?\s+as\s+an?\s+(?:percent(?:age)?|%|share)\s+of\s+(?:net\s+|total\s+)?"
                                r"(?:sales|revenues?|turnover)\s*$")
"""A row that states a result as a share of sales ('Adjusted EBIT as a percentage of net sales'): its margin."""


def as_margin(label: str) -> str:
    """A row's label that states a result as a share of sales, as that result's margin ('Adjusted EBIT as a
    percentage of net sales' → 'Adjusted EBIT margin'); any other label as it is."""
    share_of = _AS_SHARE_OF_SALES.search(label)
    return f"{label[:share_of.start()]} margin" if share_of else label


def label_match(label: str, query: FactQuery) -> float:
    """How fully a row label names the measure: 1 when it is one of the names statements use for the line item
    the question names ('Purchases of property, plant and equipment' for capital expenditure, app/metrics.py),
    else the share of the measure's words it holds, less a little for each word of its own beyond them (units,
    totals and the measure's words aside)."""
    from app.metrics import label_match as item_match, with_minority_interests

    if query.kind == "count" and (number := NUMBER_OF.match(label.strip())) \
            and set(analyze(number.group("noun"))) & query.count_stems:
        # 'Number of Facilities' in a table of the manufacturing facilities asked: the thing counted, named short
        return max(label_match(label, replace(query, kind="any")), NAMES_MEASURE)
    if query.measure.segment and query.measure.segment != PARENT_ENTITY:
        # a segment's own line in its note ('Segment net revenues', not 'Net revenues from external customers')
        # and 'Pretax segment income' is the segment's pretax income
        label = re.sub(r"(?i)(?:^|(?<=\s))segment\s+(?=[a-z])", "", label)
    if (part := PART_OF.match(label)) and not set(analyze(part.group("part"))) & set(analyze(query.measure.phrase)):
        return 0.0
    if (effect := _EFFECT_ON.search(label)) and not set(analyze(effect.group(1))) & set(query.stems):
        return 0.0  # 'Total revenue impact' (of currencies) is no revenue
    # where the row's amount is booked is no word of its measure ('Operating lease cost, primarily classified
    # within “General and administrative”')
    label = _NON_GAAP_NOTE.sub("", _BOOKED_WITHIN.sub("", label))  # (and 'ROIC, non-GAAP measure' is ROIC)
    if "margin" in query.stems:
        label = as_margin(label)  # 'Adjusted EBIT as a percentage of net sales': its margin
    stems = set(analyze(re.sub(r"\([^)]*\)", " ", label)))
    # what a row leaves out is no word of its own ('Long-term debt, less current portion')
    left_out = set(analyze(_LEFT_OUT.search(label).group(0))) if _LEFT_OUT.search(label) else set()
    stems -= left_out
    if asked_out := _ASKED_LEFT_OUT.search(query.measure.phrase):
        # the question leaves the same out ('long-term debt, less current portion'): only a row that says so, and
        # never the part left out ('Current portion of long-term debt') nor the whole ('Long-term debt')
        out_words = set(analyze(asked_out.group(0)))
        if not out_words <= left_out | _LEAVING_WORDS:
            return 0.0
        query = replace(query, measure=replace(query.measure, stems=frozenset(query.stems - out_words)))
    # the owners' share the headline figure is ('Diluted net income per common share attributable to Costco'):
    # no words of another measure
    if (owners := _OWNERS_SHARE.search(label)) and not _ATTRIBUTABLE & set(query.stems):
        stems -= set(analyze(owners.group(0)))
    if "share" in query.stems:
        stems -= _SHARE_CLASS  # 'per common share' is per share
    want = set(query.stems) - _TOTAL - _QUALIFIERS
    if query.count_stems & _TONNES and re.search(r"\((?:[Mk]?t|Mtpa|tonnes)\)", label):
        want -= query.count_stems  # 'Iron ore shipped (Mt)' counts the tonnes asked for
    items = query.items
    if items and stems:
        # the line item's own names first; among them, the label that also says what the question adds ('net'),
        # and the parent's share before the line that includes non-controlling interests
        asked = set(query.stems) - _QUALIFIERS
        said = len({w for w in asked if _stem_in(w, stems)}) / max(len(asked), 1)
        if with_minority_interests(label) and not with_minority_interests(query.measure.phrase):
            said -= 0.25
        if item_match(label, items[0]) == 0:
            return 1.0 + 0.2 * said
        if item_match(label, items[0]) is not None:
            return 0.95 + 0.2 * said
    if not want or not stems:
        return 0.0
    hit = {w for w in want if _stem_in(w, stems)}
    share = len(hit) / len(want)
    if share < 0.6:
        return 0.0
    extra = {s for s in stems if not _stem_in(s, want) and s not in _TOTAL and s not in _UNIT_WORDS
             and s not in _DATING and not s.isdigit()}
    if extra & _BALANCE_CLASS:
        return 0.0  # 'Total current assets' is no answer to total assets: a balance sheet's class is another line
    if extra & BALANCE_SIDES:
        return 0.0  # 'Total liabilities and equity' is no answer to total liabilities (nor to equity)
    if any(a in want and b in extra for a, b in _OTHER_LINE):
        return 0.0  # 'Basic earnings per share' is no answer to diluted earnings per share
    if _INCOME & want and extra & _OTHER_INCOME:
        return 0.0  # 'Net interest income', 'Other comprehensive income' are no answer to net income
    if extra and "total" in query.stems:
        # the total asked ('total assets'): a row that names a kind of it ('Intangible assets, net') is a part
        return min(share - 0.15 * len(extra), NAMES_MEASURE - 0.05)
    # 'net' asked and not said ('Interest income' for net interest income): another line when a 'Net …' row
    # stands beside it, so it ranks below one that says it
    unsaid_net = NET_UNSAID if "net" in query.stems and "net" not in stems else 0.0
    score = share - 0.15 * len(extra) - unsaid_net - (QUALIFIED if _unasked_qualifier(label, query) else 0.0)
    if want == _MARGIN and not extra & BALANCE_SIDES:
        # a bare 'margin' asked ('Did its Flexibles business lose margin'): any margin row names it, the kind of
        # margin its own words ('Adjusted EBIT as a percentage of net sales'), ranked below one that says less
        score = max(score, NAMES_MEASURE)
    # a label that says all the question says and no more ('Subscription cost of revenue') ranks with the line
    # item's own name that says it all, above one that leaves the question's qualifier out ('Total cost of revenue')
    return 1.2 if items and score >= 1.0 else score


_MARGIN = frozenset(analyze("margin"))
_OWNERS_SHARE = re.compile(r"(?i)\battributable\s+to\s+(?!.*\b(?:non-?\s?controlling|minority)\b).*$")
"""A label's 'attributable to Costco', '… to owners of the parent': the group's owners' share, which is the
figure a question asks for unless it says otherwise (never '… to noncontrolling interests')."""
_ATTRIBUTABLE = frozenset(analyze("attributable"))
_SHARE_CLASS = frozenset(analyze("common ordinary"))
_OTHER_LINE = ((analyze("diluted")[0], analyze("basic")[0]), (analyze("basic")[0], analyze("diluted")[0]))
"""Words that make a per-share line another one: basic is never diluted."""
_INCOME = frozenset(analyze("income"))
_OTHER_INCOME = frozenset(analyze("interest comprehensive dividend investment"))
"""Words that make an income line another line ('Net interest income', 'Other comprehensive income')."""
BALANCE_SIDES = frozenset(analyze("assets liabilities equity"))
"""The sides of a balance sheet: a line that names one the question does not ask sums another."""
_BALANCE_CLASS = frozenset(analyze("current noncurrent deferred accrued prepaid unearned"))
"""A balance sheet's classes: 'current assets' and 'non-current assets' are lines of their own, never the total;
'Deferred income/membership fees' and 'Accrued interest' are balances held, never the year's fees or interest."""


PART_OF = re.compile(r"(?i)^\s*(?:total\s+|net\s+)?(?P<part>(?:[\w-]+\s+){0,2}?(?:portion|maturities|"
                      r"repayments?|issuances?|amortization|accretion|changes?|increases?|decreases?|"
                      r"gains?|losses?|impairments?|extinguishment|retirements?|interest|effects?|impacts?))\s+"
                      r"(?:\([^)]*\)\s+)?(?:of|in|on|from|for)\s+")
"""A row that is a part of a measure, or a flow of it ('Current portion of long-term debt', 'Repayments of
long-term debt', 'Increase (decrease) in accounts payable'), unless the measure asked names that part."""
_EFFECT_ON = re.compile(r"(?i)\b(impacts?|effects?|variances?)\b")
"""A row that is an effect on the measure its label names ('Total revenue impact', 'Net sales variance')."""
_LEFT_OUT = re.compile(r"(?i),\s*(?:less|net\s+of|excluding)\s+[^,]*$")
"""What a row's label says it leaves out ('Long-term debt, less current portion')."""
_ASKED_LEFT_OUT = re.compile(r"(?i)\s(?:less|net\s+of|excluding)\s+(?:the\s+)?(?:current|non-?current)\s+portion$")
"""What a question's measure leaves out of a balance, as a balance sheet's row does ('long-term debt less current
portion')."""
_LEAVING_WORDS = frozenset(analyze("less net of excluding"))


def _is_outflow(query: FactQuery) -> bool:
    from app.metrics import LINE_ITEMS

    if query.stems & _PAID:
        return True  # 'How much did Northwind pay for Fenmoor?': the cash-flow row's '(42.5)' is £42.5m paid
    if _CONTRA.search(query.measure.phrase):
        return True  # 'Allowance for loan losses (23,001)': a balance sheet deducts it; the allowance is 23,001
    return bool(query.items) and query.items[0] in LINE_ITEMS and LINE_ITEMS[query.items[0]].outflow


_PAID = frozenset(analyze("pay paid spend spent invest invested"))
_CONTRA = re.compile(r"(?i)\ballowances?\b|\baccumulated\s+(?:depreciation|amorti[sz]ation)\b|"
                     r"\btreasury\s+(?:stock|shares)\b")
"""What a balance sheet shows as a deduction from another line, though its own amount is positive."""


_BOUND = re.compile(r"(?i)\b(?:covenants?|no\s+more\s+than|not\s+(?:to\s+)?exceed\w*|maximum|minimum|at\s+least|"
                    r"at\s+most|limit(?:s|ing|ed)?\s+\w+(?:\s+\w+){0,3}\s+to|caps?|capped|thresholds?|headroom|"
                    # 'approved a share repurchase program, authorizing the Company to purchase up to $5.0 billion'
                    r"(?:authori[sz]\w*|approv\w*)\b[^.;]{0,80}\bup\s+to)\b")
"""Words that make the figure after them a limit, not what was measured (an authorised amount is no amount spent)."""
_BOUND_AFTER = re.compile(r"(?i)\s*(?:(?:stand-alone|regulatory|statutory|required|applicable)\s+)?(?:minimum|maximum|"
                          r"floor|ceiling|cap)\b")
"""A limit named after its figure ('its stand-alone 100% minimum LCR requirement')."""


def _bound_after(sentence: str, value: float) -> bool:
    """Whether the figure is a limit the word after it names (`_BOUND_AFTER`), not what was measured."""
    found = figure_located(sentence, value)
    return found is not None and _BOUND_AFTER.match(sentence, found.end) is not None


_SUPERSEDED = re.compile(r"(?i)\b(?:as\s+(?:previously|originally)\s+reported|before\s+(?:the\s+)?restatement|"
                         r"prior\s+to\s+(?:the\s+)?restatement)\b")
"""A sentence that states figures the report has replaced ('As previously reported, … were 687,000')."""
_HELD_BY = re.compile(r"\bof\s+which\s+(?P<name>(?:[A-Z][\w&'’-]*\s+){1,4})(?:held|had|accounted\s+for|represented)\s+"
                      r"(?:approximately\s+|about\s+)?$")
"""'cash and cash equivalents of $3.8 billion, of which MGM China held $448 million': the part that holds it."""
_SEGMENT_NAMED = re.compile(r"\b(?!(?:The|This|That|Each|Every|Our|Its|Their|A|An|One|No|Any)\s)"
                            r"(?P<name>(?:[A-Z][\w&'’-]*\s+){1,3})(?:reporting\s+|operating\s+)?"
                            r"(?:segment|division)(?:['’]s)?\b")
"""'In the Iron Ore segment, EBITDA was …', 'the Wireless division's revenue': the figure is that segment's."""


def _own_clauses(sentence: str, value: float) -> str:
    """The sentence up to the end of the clause that states the figure: a later clause that a verb of its own
    leads ('… resulting in a pre-tax gain of $2.7 billion and committed to a plan to exit …') says nothing of it."""
    found = figure_located(sentence, value)
    if found is None:
        return sentence
    later = _LATER_CLAUSE.search(sentence, found.end)
    return sentence[:later.start()] if later else sentence


_LATER_CLAUSE = re.compile(r";|,?\s+of\s+which\b|,?\s+(?:and|but)\s+(?:also\s+)?(?:(?:(?:we|it|the\s+company)\s+)?"
                           r"[a-z]+ed\b|"
                           r"(?:we|it|they|the\s+company)\s+(?:plans?|expects?|intends?|anticipates?|will|may|"
                           r"continues?|believes?|aims?)\b)")
"""Where a clause of its own starts: a verb in the past, a subject with a plan ('…, and we plan to continue
expanding our international operations'), or a part of the figure ('$3.4 billion of which approximately 40% to 50%
is not expected to be billed during fiscal 2017': what is expected of the part is no forecast of the whole)."""


def _clause_before(sentence: str, value: float) -> str:
    """The sentence from the figure before this one (or its start) up to this figure: what it says of it."""
    from app.facts.prose import figures_located

    start = 0
    for located in figures_located(sentence):
        if abs(located.value) == abs(value):
            return sentence[start:located.start]
        start = located.end
    return ""


def _qualified(sentence: str, value: float, query: FactQuery) -> bool:
    """Whether the words just before the figure qualify it in a way the question does not ask: 'The average
    number of employees during the year was 3,046' for 'how many employees did it have?'."""
    # the words since the figure before (the 'interim dividend of 2.0p' before 'the total dividend … is 6.0p'
    # qualifies the 2.0p, not the total), at most 60 characters of them
    return _unasked_qualifier(_clause_before(sentence, value)[-60:], query)


_COMPARATIVE = re.compile(r"(?i)\b(?:compared\s+(?:to|with)|versus|vs\.?|against|from)\s*$")


def _compared_with(sentence: str, clause: str) -> Any:
    """The sentence's first figure (app/facts/prose.Located) when the figure whose clause this is stands after a
    comparative ('… of $5.6 billion in the current year compared to $4.0 billion': the $5.6 billion for the $4.0
    billion); None otherwise."""
    from app.facts.prose import figures_located

    if not _COMPARATIVE.search(clause[-40:].rstrip(" $£€¥")):
        return None
    return next(iter(figures_located(sentence)), None)


def _compared_qualified(sentence: str, value: float, compared: Any, query: FactQuery) -> bool:
    """Whether a figure the sentence compares with its first ('Same-store net revenues … of $5.6 billion in the
    current year compared to $4.0 billion in the prior year': the $4.0 billion) is qualified as the first is."""
    return compared is not None and abs(compared.value) != abs(value) and _unasked_qualifier(
        sentence[:compared.start][-60:], query)


_FLOW_VERB = re.compile(r"(?i)\b(?P<verb>opened|closed|relocated|remodell?ed|added|acquired|sold|divested|hired|"
                        r"launched|built|converted|refurbished|shut|exited|retired|recruited)\s+(?:(?:approximately|"
                        r"about|a\s+(?:net\s+)?total\s+of|over|nearly|some|another|an\s+additional)\s+)?$")
"""A count that a verb of the year's doings stands right before ('opened 47 new stores', 'relocated 12 stores'):
a flow, no answer to how many the company has unless the question asks that doing."""


_FLOW_LABEL = re.compile(r"(?i)\b(?:openings?|closings?|closures?|opened|closed|relocat\w*|remodel\w*|new|additions?|"
                         r"acquired|divested|sold|conversions?|hires?|hired|leavers|departures)\b")
"""A row that counts a year's doings ('New store openings, net', 'Stores closed'), not what the company has."""


def query_text(query: FactQuery) -> str:
    """The words a question's measure was read from, with its count's noun."""
    return f"{query.measure.phrase} {query.measure.count_noun}"


_PER_SHARE = re.compile(r"(?i)\bper\s+(?:common\s+|ordinary\s+)?share\b|\ba\s+share\b|/share\b")


def _per_share_figure(sentence: str, value: float) -> bool:
    """Whether the sentence gives this figure per share ('a special dividend of $10.00 per share'): the words right
    after it say so, it is one of figures listed before a 'per share' that covers them ('$1.49, $1.48 and $1.47
    per share'), or it is in pence or cents."""
    from app.facts.prose import figures_located

    located = [f for f in figures_located(sentence) if abs(f.value) == abs(value)]
    for fig in located:
        if fig.unit in ("p", "c"):
            return True  # pence and cents are a share's ('bringing the total dividend for the year to 18.0p')
        after = sentence[fig.end:fig.end + 60]
        upto = re.split(r"[;.]\s|,\s+(?:resulting|which|and\s+(?!\$))", after, maxsplit=1)[0]
        if _PER_SHARE.search(upto[:40]):
            return True
        # a comparative in brackets after a figure per share ('a total of $0.20 per share (FY2023: $0.18)')
        opened = sentence.rfind("(", 0, fig.start)
        if opened >= 0 and ")" not in sentence[opened:fig.start] and _PER_SHARE.search(sentence[max(0, opened - 20):opened]):
            return True
    # figures listed after a subject that is per share ('Cash dividends declared per common share were $4.5250,
    # $4.2475 and $4.0225 for 2022, 2021 and 2020, respectively')
    every = figures_located(sentence)
    if every and located and _PER_SHARE.search(sentence[:every[0].start][-80:]):
        return any(_LISTED.fullmatch(sentence[every[0].start:fig.start]) for fig in located)
    return False


_LISTED = re.compile(r"[\s$£€\d.,()]*(?:\band\b[\s$£€\d.,()]*)?")
"""The figures of a list up to one of them ('$4.5250, $4.2475 and ')."""


_SCOPE = re.compile(r"(?i)\b(?:same[- ]stores?|like[- ]for[- ]like|comparable|organic|constant[- ]currency)\b")
"""Qualifiers that measure another scope than the whole ('same-store net revenues', 'organic sales'): a figure
they qualify is no figure of the plain measure at all."""


def _other_scope(sentence: str, clause: str, compared: Any, query: FactQuery) -> bool:
    """Whether a scope qualifier the question does not say qualifies the figure: in the words of its clause just
    before it, or before the first figure of a sentence that compares this one with it (`_compared_with`)."""
    if _SCOPE.search(query.measure.phrase):
        return False
    if _SCOPE.search(clause[-90:]):
        return True
    return compared is not None and bool(_SCOPE.search(sentence[:compared.start][-90:]))


def qualified_otherwise(figure: Figure, question: str) -> bool:
    """Whether a figure is another measure than the question's plain one: a segment's, or said with a qualifier
    the question does not use ('the core operating margin slipped to 10.7%' for 'what was the operating
    margin?'); its sentence, or its label, tells."""
    if figure.segment:
        return True
    phrase = measure_asked(question).phrase
    asked = {m.group(0).lower() for m in _QUALIFYING.finditer(phrase)}
    return any(m.group(0).lower() not in asked for m in _QUALIFYING.finditer(_said_before(figure)))


def _said_before(figure: Figure) -> str:
    """The figure's label and the words its sentence or row says just before it."""
    if figure.quote:
        from app.facts.prose import figures_located

        for located in figures_located(figure.quote):
            if abs(located.value) == abs(figure.value):
                return f"{figure.label} {figure.quote[max(0, located.start - 60):located.start]}"
    return figure.label


_OPPOSITES = (
    (re.compile(r"(?i)\beffective\b"), re.compile(r"(?i)\bstatutory\b")),
    (re.compile(r"(?i)\bstatutory\b"), re.compile(r"(?i)\beffective\b")),
    (re.compile(r"(?i)\bdiluted\b"), re.compile(r"(?i)\bbasic\b")),
    (re.compile(r"(?i)\bbasic\b"), re.compile(r"(?i)\bdiluted\b")),
    (re.compile(r"(?i)\b(?:adjusted|underlying|core|non-?gaap|non-?ifrs)\b"),
     re.compile(r"(?i)\b(?:statutory|as\s+reported)\b")),
)
"""A word the question asks with, and the word that names the other measure ('the effective tax rate' is not
the 'U.S. statutory federal income tax rate'; diluted earnings per share are not basic)."""


def names_the_other(figure: Figure, query: FactQuery) -> bool:
    """Whether the figure is said of the measure opposite to one the question qualifies its own by (_OPPOSITES)."""
    near = _said_before(figure)
    return any(asked.search(query.measure.phrase) and other.search(near) and not asked.search(near)
               for asked, other in _OPPOSITES)


def _qualifiers_asked(query: FactQuery) -> set[str]:
    """The qualifiers the question's measure says ('adjusted' of 'adjusted EBITDA'), in lower case; one that
    names the company's adjusted measure stands for all its names ('core', 'underlying')."""
    asked = {m.group(0).lower() for m in _QUALIFYING.finditer(query.measure.phrase)}
    return asked | ADJUSTED_NAMES if asked & ADJUSTED_NAMES else asked


def _qualifiers_said(title: str, query: FactQuery) -> str:
    """The qualifiers the question asks ('adjusted EBITDA') that a table's title says of all its rows ('Adjusted
    non-GAAP results' over 'EBITDA 2,117 2,018'), as words to read with a row's label; '' for none."""
    asked = _qualifiers_asked(query)
    return " ".join(dict.fromkeys(m.group(0).lower() for m in _QUALIFYING.finditer(title)
                                  if m.group(0).lower() in asked))


def _unasked_qualifier(text: str, query: FactQuery) -> bool:
    asked = _qualifiers_asked(query)
    return any(m.group(0).lower() not in asked for m in _QUALIFYING.finditer(text))


def _sentence_match(sentence: str, query: FactQuery, value: float | None = None, counted: bool = False) -> float:
    """The share of the measure's words the sentence holds; a growth asked is said by the figure itself when the
    sentence words it as a change ('Revenue increased 8.3%' for revenue growth), and only so: 'volume growth of
    5.9%' in the sentence gives no other figure of it the growth. `counted`: the measure is a count any of its
    wordings states (`prose.counted_only`, read once by the caller)."""
    stems = set(analyze(sentence))
    want = set(query.stems)
    if counted:
        # (`prose.counted_only`) 'total headcount' of 'we employed 17,973 people': the count in any of its
        # wordings says it all
        return 1.0 if any(_stem_in(w, stems) for w in query.count_stems) else 0.0
    if asks_growth(query) and value is not None:
        from app.facts.prose import states_change

        changed = states_change(sentence, value)
        return (len({w for w in want - CHANGE_STEMS if _stem_in(w, stems)})
                + (len(want & CHANGE_STEMS) if changed else 0)) / max(len(want), 1)
    return len({w for w in want if _stem_in(w, stems)}) / max(len(want), 1)


def _stem_in(stem: str, stems: set[str] | frozenset[str]) -> bool:
    return (stem in stems or (len(stem) >= 5 and any(len(s) >= 5 and s[:5] == stem[:5] and not false_friends(s, stem)
                                                     for s in stems))
            or kindred_in(stem, stems))  # 'restructuring costs': the 'restructuring and impairment charges' row


def _row_unit(unit: str, scale: str | None) -> str:
    suffix = {"millions": "m", "billions": "bn", "thousands": "k"}.get(scale or "", "")
    if unit == "%" or unit.endswith("per share"):
        return unit.removesuffix("per share").strip()
    if unit == "shares":
        return f"{suffix} shares".strip()
    return unit + suffix


_DAY_IN_LABEL = re.compile(rf"(?i)\b(?:at|as\s+(?:of|at)|on)\s+(?:(?P<d1>\d{{1,2}})\s+)?(?P<month>{'|'.join(LONG_MONTHS)})"
                           rf"\s+(?:(?P<d2>\d{{1,2}}),?\s+)?(?P<year>(?:19|20)\d{{2}})\b")


def _day_in_label(label: str) -> str | None:
    """The day a row's own label dates its balance ('Balance at December 31, 2023', 'CET1 capital as of 30 June
    2024') as 'YYYY-MM-DD'; None when it names no whole date."""
    said = _DAY_IN_LABEL.search(label)
    if said is None or not (day := said.group("d1") or said.group("d2")):
        return None
    return f"{said.group('year')}-{month_number(said.group('month')):02d}-{int(day):02d}"


_ISO_DAY = re.compile(r"(?:19|20)\d{2}-\d{2}-\d{2}")


def _calendar_year(period: str, fiscal_year: int) -> int:
    """The calendar year a column's day falls in ('3M 2021-03-31' → 2021), else its fiscal year."""
    day = _ISO_DAY.search(period)
    return int(day.group(0)[:4]) if day else fiscal_year


def _columns_dated(periods: Sequence[str], doc: Doc) -> list[tuple[int | None, str | None]]:
    """(fiscal year, part) of each column (app/text/periods.column_years); a quarterly filing's 'three months
    ended' columns are its own quarter's (a Q1 10-Q's are first quarters, a fourth-quarter release's Q4), and an
    annual report's latest are its fourth quarter's. Columns of quarters in sequence ('December 31, 2019',
    'September 30, 2019', … over average MAUs) count back from the latest: three months earlier is the quarter
    before."""
    name = filing_name(doc)
    filed = _quarter_of(name)
    out = [(year, f"Q{filed}" if part == "Q" and filed and period.startswith("3M") else part)
           for (year, part), period in zip(column_years(periods, doc.fiscal_year), periods)]
    # a table that names no period is of the one the filing covers (a 10-K's properties by area)
    out = [(doc.fiscal_year, None) if period == AS_FILED else dated for dated, period in zip(out, periods)]
    annual = name.form in ("10-K", "annual")
    ends = {i: int(m.group(1)) * 12 + int(m.group(2)) for i, p in enumerate(periods)
            if p.startswith("3M") and (m := _QUARTER_END.search(p))}
    if not (quarter := filed or (4 if annual else None)) or not ends:
        return out
    latest = max(ends, key=ends.__getitem__)
    if (year := out[latest][0]) is None or annual and year != doc.fiscal_year:
        return out  # (an annual report's quarter columns that end before its year: which quarter is unsaid)
    for i, end in ends.items():
        back, off = divmod(ends[latest] - end, 3)
        if off == 0 and out[i][1] is not None and out[i][1].startswith("Q"):
            step = quarter - 1 - back
            out[i] = (year + step // 4, f"Q{step % 4 + 1}")
    return out


_QUARTER_END = re.compile(r"((?:19|20)\d{2})-(\d{2})-\d{2}$")


def _filing_quarter(doc: Doc) -> int | None:
    """The quarter a quarterly filing reports (1 for 'JPMORGAN_2021Q1_10Q'), from its name; None for any other."""
    return _quarter_of(filing_name(doc))


def _quarter_of(name: Any) -> int | None:
    """The quarter a filing's name (app.text.identity.read_name) says it reports, for a quarterly filing."""
    return name.fiscal_quarter if name.form in ("10-Q", "earnings", "quarterly") else None


def _part_of_filing(doc: Doc, sentence: str, year: int | None = None) -> str | None:
    """A half-year report's sentence speaks of its half unless it says the full year ('Statutory net profit
    after tax was A$272.1 million' in the half-year report is the half's). A later quarter's 10-Q's sentences are
    not read so: they tell of events ('$13.2 billion in cash proceeds from the Kenvue offering') as often as of the
    quarter or the year to date, whose own figures its columns and words date; a first quarter's are its quarter's,
    that quarter being its year to date. With the figure's own `year`, that year is the one checked ('At March 31,
    2021 and December 31, 2020, … $32 billion and $27 billion …, respectively': the first is the quarter's)."""
    name = filing_name(doc)
    form = name.form
    part = {"half-year": "H"}.get(form or "")  # a 10-Q's prose is often of events, dated by their own day
    if form == "earnings" and name.fiscal_quarter in (1, 2, 3):
        part = f"Q{name.fiscal_quarter}"  # a first-quarter earnings release's highlights are the quarter's
    if form == "10-Q" and name.fiscal_quarter == 1 and (year == doc.fiscal_year if year and len(
            set(years_named(sentence))) > 1 else {*years_named(sentence), *fiscal_years_named(sentence)} <= {
            doc.fiscal_year}):
        part = "Q1"  # a first quarter's 10-Q: its year to date is its quarter ('Firmwide average deposits of $2.2
        # trillion were up 36%'), unless the sentence dates another year
    if form == "10-Q" and name.fiscal_quarter and _AS_OF_OPENING.match(sentence) \
            and set(years_named(sentence)) <= {doc.fiscal_year}:
        part = f"Q{name.fiscal_quarter}"  # 'As of June 30, 2023, we had cash and cash equivalents of $3.8 billion':
        # the balance at the quarter's end
    if part and not re.search(r"(?i)\b(?:full[- ]year|for\s+the\s+year|annual|twelve\s+months|12\s+months|"
                              r"fiscal\s+year|year[- ]to[- ]date|six\s+months|nine\s+months)\b", sentence):
        return part
    return None


_AS_OF_OPENING = re.compile(r"(?i)^\s*(?:as\s+of|as\s+at|at)\s+[A-Z][a-z]+\.?\s+\d{1,2},\s+(?:19|20)\d{2}\s*,")
"""A sentence that opens with the day it states balances at ('As of June 30, 2023, we had …')."""
_EVENT_DATED = re.compile(r"(?i)\b(?:implemented|introduced|launched|completed|announced|opened|started|began|begun|"
                          r"signed|agreed|closed|acquired|sold|made|taken)\s+(?:in|during)\s+(?:the\s+)?$")


_EACH_QUARTER = re.compile(r"(?i)\b(?:for\s+each|per|every|each)\s+quarter\b|\bquarterly\b")
_WHOLE_YEAR = re.compile(r"(?i)\btotal\s+year|\bfull[- ]year|\bannual(?:ly|ised|ized)?\b|\bfor\s+the\s+year\b")
_COMPARED_QUARTER = re.compile(r"(?i)\b(?:year[- ]ago|prior[- ]year|prior|comparable|same|last\s+year['’]s)\s+quarter\b")


_YEAR_TOTAL = re.compile(r"(?i)\b(?:a\s+total\s+of|in\s+total|totall?ing|totall?ed|for\s+the\s+(?:full\s+)?year)\b")


def _after_year_total(sentence: str, value: float) -> bool:
    """Whether a figure stands after the words that sum a year's quarters ('four quarterly dividends of $0.05,
    a total of $0.20 per share (FY2023: $0.18)'): the year's, not a quarter's."""
    found = figure_located(sentence, value)
    if found is None or _A_QUARTERS.match(sentence, found.end):
        return False  # 'totalled $1.45 per share ($0.3625 per quarter)': the rate after the total is a quarter's
    return bool(_YEAR_TOTAL.search(sentence[:found.start]))


_A_QUARTERS = re.compile(r"(?i)\s*(?:per\s+(?:common\s+)?share\s+)?(?:per|a|each|every)\s+quarter\b")


def _part_in(sentence: str) -> str | None:
    """The part of a year a sentence's figures are for ('in the first half', 'Q2'), unless the phrase dates an
    event the sentence tells of ('price revisions implemented in the first half lifted segment profit …')."""
    m = next((m for m in PART.finditer(sentence)
              if not _EVENT_DATED.search(sentence[max(0, m.start() - 40):m.start()])), None)
    if not m:
        # 'Net Sales of $3.2 Billion Compared to $2.7 Billion in the Year-Ago Quarter': a quarter's figures, and
        # '$1.49 and $1.48 per share for each quarter in 2022 and 2021' (unless it goes on to the year's total)
        each = _EACH_QUARTER.search(sentence) and not _WHOLE_YEAR.search(sentence)
        return "Q" if _COMPARED_QUARTER.search(sentence) or each else None
    return part_named(m.group(0))  # 'the fourth quarter' is Q4, 'three months' a quarter unnamed ('Q')


_PRIMARY = re.compile(r"(?i)statements?\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings|profit\s+or\s+loss|"
                      r"comprehensive\s+income|financial\s+position|cash\s+flows?)|balance\s+sheets?|income\s+"
                      r"statements?|cash\s+flow\s+statements?|statement\s+of\s+profit")


_STATEMENT_KINDS = (("balance sheet", re.compile(r"(?i)balance\s+sheets?|financial\s+position")),
                    ("cash flow", re.compile(r"(?i)cash\s+flows?\s+statements?|statements?\s+of\s+(?:consolidated\s+)?"
                                             r"cash\s+flows?")),
                    ("income", re.compile(r"(?i)income\s+statements?|statements?\s+of\s+(?:consolidated\s+)?"
                                          r"(?:operations|income|earnings)|profit\s+(?:and|or)\s+loss")))


def statement_kinds(text: str) -> list[str]:
    """The primary statements a text names ('on the balance sheet', 'Consolidated statement of cash flows')."""
    return [kind for kind, pattern in _STATEMENT_KINDS if pattern.search(text)]


def _is_primary(text: str) -> bool:
    return bool(_PRIMARY.search(text[:600]))


def row_at(text: str, raw: str) -> int:
    """Where a statement row's line starts in its text, -1 when not found: the row as read ('Asia Pacific 210 487
    218 — (6) 909') is found where the page spaces its cells wider or writes a currency sign between them."""
    at = text.find(raw[:40])
    tokens = raw[:40].split()[:-1] or raw.split()[:1]
    if at >= 0 or not tokens:
        return at
    found = re.search(r"[ \t]+(?:[$£€¥][ \t]*)?".join(map(re.escape, tokens)), text)  # (on its one line)
    return found.start() if found else -1


def _heading_before(text: str, raw: str) -> str:
    """The lines just above a row's table: where a segment's or a region's name stands."""
    at = row_at(text, raw)
    words = re.match(r"\D*", raw).group(0).split()[:3]  # type: ignore[union-attr]
    if at < 0 and words:  # a row read back without the unit its label wrote ('Net income (millions of yen) …')
        found = re.search(r"\s+".join(map(re.escape, words)) + r"\b", text)
        at = found.start() if found else -1
    before = text[:at if at >= 0 else 0].splitlines()[-12:]
    # a row's label whose values stand on the next line ('Orders received (Machine Tools)' / '158,730 149,260')
    # is another row, not a heading: it names no segment for the rows below it
    labels = {i for i in range(len(before) - 1) if _VALUES_ONLY.match(before[i + 1].strip() or "x")}
    rows = [i for i, line in enumerate(before) if i in labels or re.search(r"\d{2,}", line)]
    headings = [i for i, line in enumerate(before) if line.strip() and i not in rows]
    # the table's title above its first row, and the one sub-heading nearest above this row: 'Precision
    # Components' over its own rows, not 'Machine Tools' two rows further up
    above_first = [i for i in headings if not rows or i < rows[0]]
    nearest = [i for i in headings if rows and i > rows[0]][-1:]
    # a sub-heading whose group a 'Total …' row has closed ('APAC:' / 'Japan …' / 'Total APAC …') heads no row
    # below that total ('Revenue $ 4,795,511' is the company's)
    nearest = [i for i in nearest
               if not any(re.match(rf"(?i)\s*total\s+{re.escape(before[i].strip().rstrip(':'))}\b", line)
                          for line in before[i + 1:])]
    return " ".join(before[i] for i in sorted({*above_first, *nearest}))[-300:]


def _block_heading(text: str, raw: str) -> str:
    """The label line nearest above a row and the rows between them, when it gives no values of its own: the
    sub-heading a table's rows stand under ('Segment Operating Profit' over 'North America Retail $ 2,627.0 …');
    '' when there is none."""
    at = row_at(text, raw)
    if at < 0:
        return ""
    for line in reversed(text[:at].splitlines()[-12:]):
        line = line.strip()
        if not line:
            continue
        if re.search(r"\d", line):
            continue  # a row above, under the same heading
        return line if len(line) <= 60 and not line.endswith((".", ";")) else ""
    return ""


def _under_other_measure(text: str, raw: str, query: FactQuery) -> bool:
    """Whether a row stands under a sub-heading that names a measure other than the one asked ('Net sales:' over
    'North America Retail $ 10,750.5 …' in a table of segment results, for segment operating profit): its
    members' figures are that measure's, whatever the table's title says."""
    heading = _block_heading(text, raw)
    if not heading.endswith(":") or titles_measure(heading, query) or label_match(heading.rstrip(":"), query) > 0:
        return False  # ('Identifiable assets:' for total assets)
    return bool(set(analyze(heading)) & _MEASURE_HEADS)


_MEASURE_HEADS = frozenset(analyze("sales revenue profit income earnings loss margin assets liabilities expenditure "
                                   "capex EBITDA EBIT depreciation amortization employees orders backlog"))
"""The head words of a measure a table's sub-heading may name ('Net sales:', 'Operating profit:', 'Identifiable
assets:'); not a kind of its members ('Products:', 'Services:')."""


def _group_heading(text: str, raw: str, query: FactQuery) -> str:
    """The group heading a statement's row stands under, which its label leaves unsaid ('Revenue:' over
    'Subscription $ 4,584,833', 'Operating expenses:' over 'Research and development'), without its colon; ''
    when there is none, and for a group of costs the question does not ask ('Subscription' under 'Cost of
    revenue:' is no subscription revenue)."""
    heading = _block_heading(text, raw)
    # (an income statement's 'Revenues' over 'Casino $ 1,951,382 …' heads its group without a colon)
    if not (heading.endswith(":") or _GROUP_WORDS.fullmatch(heading)) \
            or set(analyze(heading)) & _COST_WORDS - set(query.stems):
        return ""
    return heading.rstrip(":")


_GROUP_WORDS = re.compile(r"(?i)(?:net\s+|operating\s+)?(?:revenues?|sales|turnover|expenses|costs\s+and\s+expenses)")
"""A statement's group heading written without its colon ('Revenues' over the kinds of revenue)."""


_COST_WORDS = frozenset(analyze("cost costs expense expenses expenditure charges"))


def _names_left_out(fact: Fact, left_out: frozenset[str]) -> bool:
    """Whether the fact's label, or its sentence up to it, names every word of what the question leaves out."""
    said = fact.figure.label
    if fact.origin == "text":
        said = f"{said} {_sentence_before(fact.context, fact.figure.value)}"
    words = set(analyze(said))
    return all(stem_in_words(w, words) for w in left_out)


def _sentence_before(sentence: str, value: float) -> str:
    found = figure_located(sentence, value)
    return sentence[:found.start] if found is not None else sentence


_VALUES_ONLY = re.compile(r"^[\s$£€¥()\-—–+.,%*\d]*\d[\s$£€¥()\-—–+.,%*\d]*$")


_RATE_NOUNS = frozenset(analyze("margin margins rate yield"))
"""A measure that is itself a rate: its per cent row, not the amount named the same ('Gross margin $ 21,368')."""
_RATIO_NOUN = frozenset(analyze("ratio"))
CHANGE_STEMS = frozenset(analyze("growth grow rise fall increase decrease change decline"))


def choose(facts: Sequence[Fact], query: FactQuery, *, year: int | None = None, segment: str | None = None
           ) -> list[Fact]:
    """The facts that answer the query for one period (`year`, else the query's latest year, else the latest
    any fact gives), best first (module docstring)."""
    segment = segment if segment is not None else query.measure.segment
    phrase = query.measure.phrase
    if query.share_of and query.kind == "any":
        facts = [f for f in facts if f.figure.unit == "%"] or facts  # the share stated, when one is
    kept = [f for f in facts if _fits_segment(f, segment, phrase) and _fits_part(f, query.part)
            and f.forward == query.ahead or (query.ahead and _fits_segment(f, segment, phrase) and f.forward)]
    if not kept and query.part is None and not query.years and year is None:
        # no period asked, and only a part of a year is stated (a quarterly report's 'Headcount' by quarter):
        # the latest quarter's, the latest period the filing covers
        kept = [f for f in facts if _fits_segment(f, segment, phrase) and f.part and f.forward == query.ahead]
        latest = max((f.figure.fiscal_year or 0 for f in kept), default=0)
        kept = [f for f in kept if (f.figure.fiscal_year or 0) == latest]
        if query.kind == "count" and segment is None and kept:
            # one line counted in several tables of the quarter (the firm's 'Headcount' and each business's): the
            # company's is the largest, of which each business's is a part
            most = max(f.figure.value for f in kept)
            return [f for f in kept if f.figure.value == most]
    if query.left_out:
        # 'Research, development and related expenses totaled $1.821 billion': related ones in; with only such
        # figures, none answers
        kept = [f for f in kept if not _names_left_out(f, query.left_out)]
    if not kept:
        return []
    wanted = year or (max(query.years) if query.years else None)
    if wanted is None and deal_names(query.measure.phrase):
        # a transaction named dates itself ('What did it pay for Innovel?'): the year of the sentence that states
        # it best, not the latest year a later report's other sentences give
        wanted = max(kept, key=lambda f: (round(f.match, 2), f.figure.fiscal_year or 0)).figure.fiscal_year
    if wanted is None:
        # no period named: the latest period the filings cover (a target for a later year is no figure of it)
        # (a year after its own report's, as a dividend declared after the year end, is no period it covers)
        covered = [f.figure.fiscal_year for f in kept if (f.origin != "text" or not f.forward)
                   and not (f.filed_year and f.figure.fiscal_year and f.figure.fiscal_year > f.filed_year)]
        filed = max((f.filed_year for f in kept if f.filed_year), default=None)
        latest = [y for y in covered if y and (filed is None or y <= filed)]
        if not latest and not query.ahead and any(f.filed_year for f in kept):
            return []  # only what came after the reports' years (a dividend declared since): no period they cover
        wanted = max(latest or [f.figure.fiscal_year or 0 for f in kept])
    if query.ahead and year is None and not any(f.figure.fiscal_year == wanted for f in kept):
        # guidance asked of a year's report ('In its FY2024 annual report, what guidance … for the following
        # financial year?'): the forecast for the next year that report gives
        later = sorted({f.figure.fiscal_year for f in kept if f.forward and f.figure.fiscal_year
                        and wanted is not None and f.figure.fiscal_year > wanted and f.filed_year == wanted})
        wanted = later[0] if later else wanted
    kept = [f for f in kept if f.figure.fiscal_year == wanted]
    if (query.measure.stems & _RATE_NOUNS and not query.measure.stems & CHANGE_STEMS
            and any(f.figure.unit == "%" for f in kept)):
        kept = [f for f in kept if f.figure.unit == "%"]  # 'gross margin': the 'Gross margin percentage' row, not
        # the dollars of the 'Gross margin' row above it
    elif (_RATIO_NOUN <= query.measure.stems and not query.measure.stems & CHANGE_STEMS
          and any(f.figure.unit in ("%", "x") for f in kept)):
        kept = [f for f in kept if f.figure.unit in ("%", "x")]  # 'CET1 capital ratio': a per cent or times,
        # never the dollars of a 'CET1 capital' row
    origin = {"statement": 0, "table": 1, "text": 2}
    # among equals, an exact figure before a rounded one ('all of our 6,000 or so employees and contractors'
    # after 'employed 3,140 people'), then the later filing's (a restated comparative replaces what the earlier
    # report said)
    # and the consolidated statements' row before another statement-like table's ('Selected income statement
    # data' under a segment's heading gave JPMorgan's Consumer & Community Banking net income as the firm's)
    # and, of one fiscal year's balances, the one at its end: a 10-Q's 31 December column falls in a June year
    # (Amcor's FY2023) beside the 10-K's 30 June one, which is the year's
    # a level asked at a period's end ('from the end of 2018 to the end of 2019'): a balance's column, dated by
    # its day, before a flow's row of the same name (the cash flow statement's change in 'Accounts receivable, net')
    at_end = bool(query.at_end) and any(_ISO_DAY.fullmatch(f.figure.period or "") for f in kept)
    # a count asked at a period's end: a sentence that states it at the end ('387 stores at year end', 'ended the
    # year with 387 stores') before one that brings a part's count to a figure ('taking the franchise estate to 64')
    level = query.kind == "count" and bool(query.at_end)
    # a segment asked: a figure read as that segment's before one only named near it ('cash and cash equivalents
    # of $3.8 billion, of which MGM China held $448 million': the $448 million)
    return sorted(kept, key=lambda f: (at_end and not _ISO_DAY.fullmatch(f.figure.period or ""),
                                       -round(f.match, 2), bool(segment) and f.segment is None, origin[f.origin],
                                       level and f.origin == "text" and not states_level_at_end(f),
                                       not _CONSOLIDATED.search(f.context),
                                       -period_day(f.figure.period), is_loose(f), _name_rank(f, query),
                                       -(f.filed_year or 0)))


_CONSOLIDATED = re.compile(r"(?i)\b(?:consolidated|condensed\s+consolidated|group)\s+(?:statements?|balance\s+sheets?|"
                           r"income\s+statements?)\b")


_LOOSE_BEFORE = re.compile(r"(?i)\b(?:about|around|approximately|approx\.?|roughly|some|nearly|almost|over|more than|"
                           r"less than|up to|at least|c\.|circa)\s*$")
_LOOSE_WHOLE_BEFORE = re.compile(r"(?i)\b(?:about|around|approximately|roughly|some|nearly|almost)\s+"
                                 r"[$£€¥]?\d[\d.,]*"
                                 r"[^:;.]{0,80}(?::|\b(?:including|of\s+which|comprising)\b)")
_LOOSE_AFTER = re.compile(r"(?i)^\s*(?:or so|odd|plus)\b|^\s*[a-z]+\s+and\s+[a-z]+\b")


_AT_END_AFTER = re.compile(r"(?i)\s+(?:[a-z][\w-]*\s+){0,3}?(?:at|as\s+of|as\s+at|on)\s+(?:the\s+)?(?:(?:fiscal\s+|"
                           r"financial\s+)?year[- ]end|period[- ]end|end\s+of|close\s+of|(?-i:\d{1,2}\s+[A-Z][a-z]+|"
                           r"[A-Z][a-z]+\s+\d{1,2}\b))")
_AT_END_BEFORE = re.compile(r"(?i)\b(?:end(?:ed|ing)|clos(?:ed|ing)|finish(?:ed|ing))\s+the\s+"
                            r"(?:fiscal\s+|financial\s+)?(?:year|period|quarter)\s+with\s+"
                            r"(?:approximately\s+|about\s+|some\s+)?$|"
                            r"\b(?:at|as\s+of|as\s+at)\s+(?:the\s+)?(?:(?:fiscal\s+)?year[- ]end|"
                            r"end\s+of\s+[^,;]{3,30}|(?-i:\d{1,2}\s+[A-Z][a-z]+\s+(?:19|20)\d{2}|"
                            r"[A-Z][a-z]+\s+\d{1,2},?\s+(?:19|20)\d{2})),?\s+(?:[\w&.'’-]+\s+){1,4}?"
                            r"(?:had|operated|employed|owned|ran)\s+"
                            r"(?:approximately\s+|about\s+|some\s+)?$")


def states_level_at_end(fact: Fact) -> bool:
    """Whether a sentence states its count at a period's end: a date or 'at year end' right after the counted
    noun ('387 stores at year end', '14,820 colleagues at 29 March 2025'), or 'ended the year with' before it."""
    quote = fact.figure.quote
    place = _written_at(quote, fact.figure.value)
    return place is not None and bool(_AT_END_AFTER.match(quote, place[1])
                                      or _AT_END_BEFORE.search(quote[max(0, place[0] - 80):place[0]]))


def is_loose(fact: Fact) -> bool:
    """Whether a sentence's figure is rounded or counts more than the measure: 'about 6,000', '6,000 or so',
    'over 6,000', '6,000 employees and contractors'. A statement's or a table's figure is exact."""
    if fact.origin != "text" or not fact.figure.quote:
        return False
    quote = fact.figure.quote
    place = _written_at(quote, fact.figure.value)
    if place is None:
        return False
    at, end = place
    # the figure's own scale or unit is no word after it: '£17.3m and acquired …' is exact
    after = re.sub(r"^\s?(?:m|bn|k|p|%|million|billion|thousand)(?![a-z])", "", quote[end:end + 40])
    # a part of a rounded whole is rounded too ('approximately 118.9 million square feet …: 83.2 million in the U.S.')
    return bool(_LOOSE_BEFORE.search(quote[max(0, at - 20):at]) or _LOOSE_AFTER.search(after)
                or _LOOSE_WHOLE_BEFORE.search(quote[:at]))


def _written_at(quote: str, value: float) -> tuple[int, int] | None:
    """Where a quote first writes the value (start, end), in any of its written forms; None when it does not."""
    for written in _written_forms(value):
        if (at := quote.find(written)) >= 0:
            return at, at + len(written)
    return None


def _written_forms(value: float) -> list[str]:
    whole = abs(value) == int(abs(value))
    return [f"{abs(value):,.0f}", f"{abs(value):.0f}"] if whole else [f"{abs(value):,}", f"{abs(value)}"]


def _name_rank(fact: Fact, query: FactQuery) -> int:
    """Where the fact's label stands among the names of the line item the question asks for, the plainest name
    first ('Net cash from operating activities' before 'Cash generated from operations', the subtotal above
    it); a label that is none of them comes after every one that is."""
    from app.metrics import item_names, normalize_label

    label = normalize_label(fact.figure.label)
    ranks = [names.index(label) for item in query.items if label in (names := item_names(item))]
    return min(ranks, default=_UNNAMED)


_UNNAMED = 1_000
"""The rank of a label that is none of the line item's names."""


def _fits_segment(fact: Fact, segment: str | None, measure: str = "") -> bool:
    """A segment asked: a row's label, segment column or table title names it, or a sentence names it next to the
    measure ('Wireless Adjusted EBITDA', 'Adjusted EBITDA in Wireless'), not merely somewhere. The whole company
    asked: never a segment's column, unless the measure itself names that segment ('tonnes of iron ore shipped'
    in the 'Iron Ore' table)."""
    if not segment:
        return fact.segment is None or bool(measure) and _names(fact.segment, measure)
    if fact.segment is not None:
        return _names(segment, fact.segment) or same_member(segment, fact.segment)  # ('Non-United States')
    if fact.origin != "text":
        # (the registrant's own name over its statement, 'ACTIVISION BLIZZARD, INC.', names no segment 'Blizzard')
        return _names(segment, _without_company(f"{fact.figure.label} {fact.context}", fact.figure.company))
    quote = fact.figure.quote
    label = fact.figure.label
    at = quote.find(label) if label else -1
    if at < 0:
        return _names(segment, quote)
    near = quote[max(0, at - 60):at + len(label) + 40]
    return _names(segment, near)


def _without_company(text: str, company: str | None) -> str:
    """The text less the company's own name ('Activision Blizzard' of 'ACTIVISION BLIZZARD, INC. AND SUBSIDIARIES')."""
    return re.sub(rf"(?i)\b{re.escape(company)}\b", " ", text) if company and len(company) > 2 else text


def _names(name: str, text: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z0-9]+", name.lower()) if len(w) > 1]
    folded = text.lower()
    if words and all(re.search(rf"\b{re.escape(w)}", folded) for w in words):
        return True
    short = name_initials(name)  # 'FLNA' in the division table for Frito-Lay North America
    if short and re.search(rf"\b{short}\b", text) is not None:
        return True
    return any(_contracted(word, name) for word in re.findall(r"\b(?:[A-Z][a-z]+){2,}\b", text))  # 'LatAm'


def _fits_part(fact: Fact, part: str | None) -> bool:
    return parts_agree(part, fact.part)


def with_segment(fact: Fact, segment: str | None) -> Fact:
    return replace(fact, segment=segment)


MAX_FACTS = 6


def answering_facts(ask: Any, query: FactQuery, facts: Sequence[Fact], companies: Sequence[str] = ()
                    ) -> list[Fact]:
    """The facts that answer a question of this kind, best first: comparing companies, each one's for the period
    asked; for a change, the earlier and the later period's (the years named, else the latest and the one
    before); otherwise the period asked (or the latest)."""
    if len(companies) >= 2:
        year = max(query.years) if query.years else None
        each = [best[0] for c in companies
                if (best := choose([f for f in facts if (f.figure.company or "").casefold() == c.casefold()],
                                   query, year=year))]
        return with_fuller_units(each[:MAX_FACTS], facts)
    if ask.kind in ("change", "yes_no_change"):
        pair = two_periods(facts, query)
        if pair is None:
            return []
        rest = [f for f in choose(facts, query, year=pair[1].figure.fiscal_year) if f is not pair[1]]
        return with_fuller_units([*pair, *rest][:MAX_FACTS], facts)
    return with_fuller_units(list(choose(facts, query))[:MAX_FACTS], facts)


def asks_growth(query: FactQuery) -> bool:
    """Whether the measure asked is a growth rate ('operating profit growth', as 'whose operating profit grew
    faster' reads)."""
    return query.kind == "percent" and bool(query.stems & CHANGE_STEMS)


def level_query(query: FactQuery) -> FactQuery:
    """The query for the amount whose growth is asked ('EBITDA' of 'EBITDA growth')."""
    from app.metrics import items_named

    phrase = " ".join(w for w in query.measure.phrase.split() if not set(analyze(w)) & CHANGE_STEMS)
    stems = frozenset(analyze(phrase))
    return replace(query, measure=replace(query.measure, phrase=phrase, stems=stems), kind=measure_kind(stems),
                   items=tuple(items_named(phrase)) or query.items)


def each_growth(query: FactQuery, docs: Iterable[Doc], companies: Sequence[str]) -> list[Fact]:
    """Each company's growth in the measure for the year asked ('Whose operating profit grew faster, X's or
    Y's?'): the rate its report states, else its two years' amounts, from which the calculator works the rate
    out; a company with neither is left out."""
    docs = list(docs)
    year = max(query.years) if query.years else None
    rates = facts_for(query, docs, companies)
    level = level_query(query)
    amounts = facts_for(level, docs, companies) if level.stems else []
    out: list[Fact] = []
    for company in companies:
        def own(facts: list[Fact]) -> list[Fact]:
            return [f for f in facts if (f.figure.company or "").casefold() == company.casefold()]

        if rate := choose([f for f in own(rates) if f.figure.unit == "%" and is_stated_change(f)], query, year=year):
            out.append(rate[0])
        elif pair := two_periods([f for f in own(amounts) if f.figure.unit != "%"], level):
            out.extend(pair)
    return with_fuller_units(out, [*rates, *amounts])


def is_stated_change(fact: Fact) -> bool:
    """Whether a fact is a change its source states: a table's change column or growth row ('Operating profit
    growth'), or a sentence's figure worded as a change ('operating income increased 13.6%')."""
    if fact.origin == "text":
        from app.facts.prose import states_change

        return states_change(fact.figure.quote or "", fact.figure.value)
    return (fact.figure.period or "").endswith("change") or bool(set(analyze(fact.figure.label)) & CHANGE_STEMS)


def with_fuller_units(chosen: Sequence[Fact], facts: Sequence[Fact]) -> list[Fact]:
    """The chosen facts, each in the fullest unit another reading of the same figure gives it (same company, year
    and value): an Australian statement's '$m' is the 'A$m' its prose writes, and a sentence's '$3,877' under
    'amounts in millions' is the statement's '$3,877m'."""
    out = []
    for fact in chosen:
        unit = fact.figure.unit
        for other in facts:
            o = other.figure
            if (o.value == fact.figure.value and o.fiscal_year == fact.figure.fiscal_year
                    and (o.company or "").casefold() == (fact.figure.company or "").casefold()
                    and _fuller(o.unit, unit)):
                unit = o.unit
        out.append(replace(fact, figure=fact.figure.model_copy(update={"unit": unit}))
                   if unit != fact.figure.unit else fact)
    return out


def _fuller(unit: str, than: str) -> bool:
    """'A$m' says more than '$m' (the dollar's country), '$m' more than '$' (the scale); nothing else is compared."""
    if unit == than or not than or than == "%":
        return False
    prefixed = re.fullmatch(r"[A-Z]{1,3}" + re.escape(than), unit) and than[:1] == "$"
    scaled = than in ("$", "£", "€", "¥", "A$", "C$", "US$") and unit in (than + "m", than + "bn", than + "k")
    return bool(prefixed or scaled)


def two_periods(facts: Sequence[Fact], query: FactQuery) -> tuple[Fact, Fact] | None:
    """(the earlier, the later) period's fact of one measure: the first and last years the question names, else
    the latest year the facts give and the one before; the earlier one with the later one's label when it can."""
    years = sorted(set(query.years))
    if len(years) >= 2:
        first, last = years[0], years[-1]
    else:
        # the year asked, else the latest period the filings cover (as `choose` reads it: no target year)
        best = choose(facts, query) if not years else []
        latest = years[-1] if years else (best[0].figure.fiscal_year or 0) if best else 0
        first, last = latest - 1, latest
    old = choose(facts, query, year=first)
    new = choose(facts, query, year=last)
    if not old or not new:
        return None
    # the later year's figure as the earlier year's own row states it, when the one chosen is that same amount
    # in rounder words ('fell to ¥149.2 billion' and the row's '158,730 149,260'): one series, exact
    for later in new[1:4]:
        if later.origin != "text" and _same_amount(later.figure, new[0].figure) and (row := [
                f for f in old if f.figure.quote == later.figure.quote and f.figure.unit == later.figure.unit]):
            return row[0], later
    # one series: not an earlier year's figure whose own row or sentence gives the later year another value
    # ('Adjustments to previous sales reserve estimates were approximately $0.1 billion and $0.7 billion in
    # fiscal years 2022 and 2021' is no earlier year of 'Pharmaceutical segment sales in 2022 were $52.6 billion');
    # the later year's figure written to another scale is the same ('$209 million' and the table's '209,389')
    others = {(f.figure.quote, f.figure.unit) for f in facts if f.figure.fiscal_year == last and f.part == new[0].part
              and f.figure.value != new[0].figure.value and f.figure.quote != new[0].figure.quote
              and not _same_digits(new[0].figure.value, f.figure.value, _stated_places(new[0]))
              and not _same_digits(f.figure.value, new[0].figure.value, _stated_places(f))}
    old = [f for f in old if (f.figure.quote, f.figure.unit) not in others]
    if not old:
        return None
    label = new[0].figure.label.casefold()
    same = [f for f in old if f.figure.label.casefold() == label and f.figure.unit == new[0].figure.unit]
    # never a share against an amount ('10.2%' of net sales in FY2021 against $1,297,492k in FY2022)
    alike = [f for f in old if _unit_kind(f.figure.unit) == _unit_kind(new[0].figure.unit)]
    return ((same or alike)[0], new[0]) if same or alike else None


def two_periods_of(query: FactQuery, docs: Iterable[Doc], companies: Sequence[str] = ()) -> tuple[Fact, Fact] | None:
    """(the earlier, the later) period's amount of the query's measure, the whole company's, each from a row or
    sentence that names the measure (`two_periods`), for a growth of each of two measures compared; None unless
    both are stated and the earlier is above zero (no per cent growth from nothing or from a loss)."""
    facts = [f for f in facts_for(query, docs, companies)
             if f.match >= NAMES_MEASURE and f.part == query.part and f.segment is None
             and not (f.figure.period or "").endswith("change") and not f.figure.unit.endswith("%")]
    pair = two_periods(facts, query)
    return pair if pair is not None and pair[0].figure.value > 0 and pair[1].figure.value >= 0 else None


_IN_UNITS = {**SCALE_FACTORS, "": 1.0}
"""A money unit's scale as a factor; a bare currency ('$') is in units."""


def _same_amount(a: Figure, b: Figure, tolerance: float = 0.005) -> bool:
    """Whether two money figures are one amount written to other scales ('¥149.2bn' and '¥149,260m'): the same
    currency, within half a per cent."""
    (currency, scale), (other, other_scale) = unit_currency(a.unit or ""), unit_currency(b.unit or "")
    if not currency or currency != other or scale not in _IN_UNITS or other_scale not in _IN_UNITS \
            or a.value == 0 or b.value == 0:
        return False
    x, y = a.value * _IN_UNITS[scale], b.value * _IN_UNITS[other_scale]
    return (x > 0) == (y > 0) and abs(x - y) <= tolerance * max(abs(x), abs(y))


def _unit_kind(unit: str) -> str:
    """What a figure's unit measures, scale and currency aside: a share or rate ('%', 'pp', 'bps'), a multiple
    ('x'), an amount of money, or a count."""
    if unit in ("%", "pp", "bps"):
        return "share"
    if unit in ("x", "times"):
        return "multiple"
    return "money" if re.search(r"[$£€¥]|[A-Z]{3}|^(?:m|bn|k)$|p$", unit or "") else "count"
