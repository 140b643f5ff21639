"""The analyst's answer, shaped by what the question asks (app/text/question_kinds.read_ask): the answer first,
then the figures it rests on, each sentence citing the blocks that hold what it states.

| kind          | the answer                                                                                      |
|---------------|-------------------------------------------------------------------------------------------------|
| figure        | the fact of the measure, segment and period asked (the latest the filings give when none is     |
|               | named): "Wattlegrove Minerals' underlying EBITDA was A$594.6m in the six months ended 31 December |
|               | 2024 [2]."; a sentence's fact is followed by the sentence itself                                 |
| change        | both periods' facts, which is higher, and the change the calculator computed                    |
| yes_no_change | "Yes."/"No." (or the outcome of an either/or: "Improved."), then the change                     |
| extreme       | the row of one table that is highest or lowest in the period (or in its change), and the others |
| list, yes_no, | the whole sentences that state it, best first; a yes/no opens with "Yes" only when one states   |
| explain       | it ("No" when it states the opposite), and an explanation keeps the sentences that give reasons  |

Facts come from app/facts/query.py (statement and table rows, sentences); a change's arithmetic from the
calculation block (the calculator subgraph), never from here. When no fact answers, the composer falls back to
the verified claims, and the citation check decides what stands.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

from app.calc_tools import CalcResult, Figure
from app.facts.currency import filing_name
from app.facts.query import (CHANGE_STEMS, NAMES_MEASURE, Fact, FactQuery, as_margin, asks_growth,
                             breakdown_measure as _breakdown_measure, choose, each_growth, facts_for, member_facts,
                             member_table, members_in_filing_scale, members_query, name_read_as_segment,
                             member_initials, names_a_part, read_query, row_members, same_member, section_of,
                             segment_by_word, segment_read_as_name, split_tables, spelled_out, stated_change, statement_kinds,
                             two_periods, two_periods_of, with_fuller_units)
from app.facts.leverage import SHARE_OF_SALES, expense_stems, leverage_sentences
from app.facts.members import (REGION_ASKED, SEGMENT_ASKED, asked_kind_of_member, is_line_item_name, member_statement,
                               named_segments, segment_under, within_parent)
from app.facts.prose import (COUNT_QUALIFIER_STEMS, RATING_ASKED, figure_located, figures_located, is_row_line,
                             prose_facts, states_change, whole_sentences)
from app.facts.revisions import REVISION_ASKED, asks_replacement, best_revision
from app.knowledge.analyzer import analyze
from app.models.providers.offline.composer.explanations import (CHANGE_WORDS, COST_SHARE, close_together,
                                                                direction_asked, explains_older_change,
                                                                explanations, is_consequence, older_change_named)
from app.models.providers.offline.composer.results import with_segment_named
from app.models.providers.offline.composer.wording import (CAUSAL, MONEY, cite, format_figure, measure_phrase,
                                                            possessive, stated_decimals)
from app.text.companies import companies_named
from app.text.dates import periods_of_sentence, read_dates
from app.text.figures import figures_in
from app.text.measures import (LEFT_OUT, MARGIN_NAME, OUTSIDE_HOME, THRESHOLD, GrowthsCompared, LinesCompared,
                               MembersCompared, bar_figures, count_verb, counted_as, deal_names, first_part,
                               growths_compared, lines_compared, lines_more_than, members_compared,
                               name_initials, second_part, without_short_names, without_source)
from app.text.question_kinds import (OCCASION_BEFORE, Ask, asked_sentence, asks_business, asks_growth_rate, asks_share,
                                     degree_asked, member_noun, read_ask, said_otherwise)
from app.text.sentences import asks_about_litigation, is_allegation, is_boilerplate
from app.text.questions import is_measure_word, is_qualifier_word, measure_terms, states_measure
from app.text.terms import (abbreviated, abbreviation_heads, nominal_forms, nominal_stem, question_noise, stem_in_words,
                            without_other_acquisitions)
from app.text.periods import part_fits, part_named, parts_agree, unnumbered_of, years_named
from app.text.units import SCALE, SCALE_FACTORS, unit_currency
from app.metrics import PROFITABILITY_MOVE, find_metrics, items_named, label_match as item_label_match, share_asked
from prompts.answer import INSUFFICIENT_EVIDENCE
from app.turns import Block

_SEGMENT_WORDS = frozenset(analyze("segment segments division divisions business businesses unit units"))


def amount(value: float, unit: str) -> str:
    """A figure as a report writes it (wording.format_figure): 'A$1,314.9m', '¥23,140m', '8.5%', '18.4Mt'."""
    return format_figure(value, unit)


def as_stated(figure: Figure) -> str:
    """A figure read from a text, to the places the text writes it: '€79.0m' where the table says '79.0', not
    '€79m' (wording.stated_decimals)."""
    return format_figure(figure.value, figure.unit, stated_decimals(figure.value, figure.quote))


_AREA = re.compile(r"(?i)(?<![\d.,])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*"
                   r"(?P<scale>million|billion|thousand)?\s+"
                   r"(?P<unit>square[\s-](?:feet|foot|metres?|meters?)\b|sq\.?\s?ft\b\.?)")


def _area_written(figure: Figure) -> str:
    """The figure as its quote writes it when that is an area ('approximately 118.9 million square feet'), else ''."""
    factor = SCALE_FACTORS.get(figure.unit, 1.0)
    for match in _AREA.finditer(figure.quote or ""):
        scale = SCALE_FACTORS.get(SCALE.get((match.group("scale") or "").lower(), ""), 1.0)
        if abs(float(match.group("num").replace(",", "")) * scale - figure.value * factor) < 1e-6 * max(scale, 1):
            # ('a 42,000 square-metre centre': 42,000 square metres)
            unit = match.group("unit").lower()
            unit = ("square metres" if "metre" in unit else "square meters" if "meter" in unit
                    else "square feet")
            return " ".join([match.group("num"), *([match.group("scale")] if match.group("scale") else []), unit])
    return ""


_FELL_BEFORE = re.compile(r"(?i)\b(?:down|fell|declined|decreased|dropped|lower|shrank|contracted|reduced)\b[^.;%]*$")
"""The verb of a fall right before a stated rate ('store like-for-likes down 0.6%')."""


def period_text(figure: Figure, part: str | None = None) -> str:
    """'in FY2024'; a half or quarter: 'in the six months ended 31 December 2024', 'in Q2 2023'."""
    period = figure.period or ""
    if m := re.match(r"(?P<months>\d+)M (?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})", period):
        months = {"3": "three", "6": "six", "9": "nine", "12": "twelve"}.get(m.group("months"), m.group("months"))
        return f"in the {months} months ended {int(m.group('d'))} {_MONTH_NAMES[int(m.group('mo'))]} {m.group('y')}"
    if re.match(r"[HQ][1-4] ", period):
        return f"in {period}"
    if (d := re.fullmatch(r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})", period)) and figure.fiscal_year \
            and not _is_flow(figure.label):
        if (part and part[:1] in "HQ") or _interim_filing(figure):
            # a balance asked of a half or quarter, or read in a quarterly report: the date it stands at
            return f"at {int(d.group('d'))} {_MONTH_NAMES[int(d.group('mo'))]} {d.group('y')}"
        return f"at the end of FY{figure.fiscal_year}"  # a balance at a date: the year's closing figure
    if part and part.startswith(("H", "Q")) and len(part) == 2 and figure.fiscal_year:
        return f"in {part} FY{figure.fiscal_year}"
    return f"in FY{figure.fiscal_year}" if figure.fiscal_year else ""


def _interim_filing(figure: Figure) -> bool:
    """Whether a figure was read in a quarterly or half-year report ('MGMRESORTS_2023Q2_10Q'), whose balances stand
    at its quarter's end, no fiscal year's."""
    from app.facts.currency import filing_name

    name = filing_name(figure)
    return name.form in ("10-Q", "half-year") or name.fiscal_quarter in (1, 2, 3)


def _result_period(result: CalcResult, year: int) -> str:
    """A metric result's period: its inputs' quarter or half when they all share one ('Q2 2022'), else FY{year}."""
    named = {f.period_name for f in result.sources.values()}
    return named.pop() if len(named) == 1 and not next(iter(named)).startswith("FY") else f"FY{year}"


_FLOW = re.compile(r"(?i)\b(?:revenues?|sales|turnover|income|profit|earnings|ebitda\w*|ebit|expenses?|costs?|"
                   r"cash\s+(?:provided|used|generated|flows?))\b")
_BALANCE = re.compile(r"(?i)\b(?:payables?|accrued|deferred|receivables?|liabilit\w*|assets?|reserves?|provisions?|"
                      r"debt|balances?|equity|inventor\w*)\b")


def _is_flow(label: str) -> bool:
    """Whether a row's measure is made over a period (revenue, net income, operating costs), not held at a date:
    a dated column of it is the year's figure ('in FY2022'), never 'at the end of' it. 'Accrued expenses' and
    'Income taxes payable' are balances."""
    if _CASH_FLOW_LINE.search(label):
        return True  # 'Purchase of property, plant, and equipment and other intangible assets': a year's spending
    return bool(_FLOW.search(label)) and not _BALANCE.search(label)


_RATE_LIKE = re.compile(r"(?i)\b(?:comparable|same[- ]store|like[- ]for[- ]like|organic|growth|change|margin|rate|"
                        r"yield|ratio|share|percent\w*)\b")
"""Measures stated as per cents though their words name an amount ('comparable sales', 'organic growth')."""
_CASH_FLOW_LINE = re.compile(r"(?i)^\s*(?:purchases?\s+of|payments?\s+(?:for|of|to)|proceeds\s+from|repayments?\s+of|"
                             r"additions?\s+to|capital\s+expenditures?|acquisitions?\s+of|dividends\s+paid)\b")


_MONTH_NAMES = ["", "January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December"]


class Analyst:
    """One turn's answer from the state the composer reads (blocks, question, calculation, fiscal years)."""

    def __init__(self, state: Mapping[str, Any], question: str) -> None:
        self.state = state
        self.question = question
        self.blocks: list[Block] = list(state.get("blocks") or [])
        self.reports = [b for b in self.blocks if b.kind in ("report", "news")]
        self.by_chunk = {b.chunk_id: b for b in self.blocks if b.chunk_id}
        self._table_heads: dict[str | None, str | None] | None = None  # (ns_of: read once, when first asked)
        self.ask: Ask = read_ask(question)
        held = sorted({b.company for b in self.reports if b.company})
        companies = list(state.get("companies") or []) or companies_named(question, held) or held
        self.companies = companies
        self.query: FactQuery = name_read_as_segment(segment_by_word(segment_read_as_name(
            read_query(question, companies, list(state.get("fiscal_years") or [])), question, self.reports, companies),
            self.reports, companies), self.reports)
        self.share = share_asked(question)  # 'A as a percent of B': its two sides, read once for every fact
        if self.share and re.fullmatch(rf"(?i){MARGIN_NAME}\s+percentage", self.query.measure.phrase):
            self.share = None  # ('gross margin as a percentage of net sales': the margin's rate, a row of its own)
        calc = state.get("calculation")
        # (a quarter or half asked: a result computed from whole years only answers another period)
        self.results: list[CalcResult] = [r for r in (calc.results if calc is not None else [])
                                          if not self.of_whole_years(r)]
        self.calc_n = next((b.n for b in self.blocks if b.kind == "calculation"), None)

    # --- facts --------------------------------------------------------------------------------------------
    @cached_property
    def read_facts(self) -> tuple[Fact, ...]:
        """Every fact the prompt's reports give for the question's measure (app/facts/query.facts_for), read once."""
        return tuple(facts_for(self.query, self.reports, self.companies))

    def facts(self) -> list[Fact]:
        # (a transaction named dates itself: 'What did it pay for Innovel?' asks of the deal, whenever it was done)
        facts = latest_report_facts(self.read_facts, self.reports,
                                    bool(self.query.years) or bool(deal_names(self.query.measure.phrase)),
                                    # ('Is it earning better returns on its capital?': the latest report's year
                                    # against the year before, as that report states both)
                                    compared=self.ask.kind in ("change", "yes_no_change"))
        return with_fuller_units(facts, facts)  # '$m' of an Australian statement is the 'A$m' its prose writes

    def subject(self, fact: Fact) -> str:
        company = fact.figure.company or (self.companies[0] if self.companies else "")
        segment = self.query.measure.segment
        label = re.sub(r"\s*\([^)]*\)", "", fact.figure.label).strip()  # 'Machine tools delivered (units)'
        # (a measure asked in no plain words is named as the row or sentence names it, never left out)
        measure = self.measure_words(fact) or measure_phrase(label)
        if fact.origin != "text" and label and not _says(f"{label} {_qualifiers_of(fact.context)}", measure) \
                and not _says(measure, label):  # 'tonnes of iron ore shipped' says the row 'Iron ore shipped'
            counted = self.query.measure.count_noun
            if counted and _says(label, counted) and len(label.split()) <= 6:
                # 'number of machine tools delivered', as the row 'Machine tools delivered (units)' says
                measure = label if label.lower().startswith("number") else f"number of {measure_phrase(label)}"
            else:
                # the line item as the statement names it: 'capital expenditure (purchases of property, plant
                # and equipment)', so a reader sees which row was read
                measure = f"{measure} ({measure_phrase(label)})"
        who = _whose(company)
        abroad = _OUTSIDE_ASKED.search(self.question) if segment == "International" else None
        if abroad and (fact.segment or segment) == segment:
            # a member asked as a place outside the home country: said as the question says it ('number of
            # warehouses operated outside the United States', not 'International number of warehouses')
            where = " ".join(abroad.group(0).split())
            return f"{who} {measure}{'' if where.lower() in measure.lower() else ' ' + where}".strip()
        if segment:
            # ('segment' as the question says it: 'Ternline's Freight revenue', 'the Health Care segment operating income')
            short = member_initials(segment)
            if short and fact.segment == short:
                segment = f"{segment} ({short})"  # the row says 'FLNA': the name asked, with the initials read
            elif fact.segment and fact.segment != segment and same_member(segment, fact.segment, company):
                segment = fact.segment  # 'MGM China' as its row names it, not 'China'
            # (never twice: 'the Flexibles Segment' as the filing names it takes no second 'segment')
            said = "" if measure.lower().startswith("segment") or segment.lower().endswith("segment") or not re.search(
                r"(?i)\bsegments?\b", self.question) else " segment"
            return f"{who} {segment}{said} {measure}".strip()
        return f"{who} {measure}".strip()

    def measure_words(self, fact: Fact) -> str:
        """The measure as the answer names it: the question's words when they are a plain noun phrase, else the
        row's label ('cash provided by operating activities'); a count: 'number of employees'."""
        if self.query.measure.count_noun and self.query.kind == "count":
            # the place asked, as the sentence read states it: 'number of people in the United States'
            place = _PLACE_ASKED.search(first_part(asked_sentence(self.question)))
            where = f" {place.group(0)}" if place and not _NOT_A_PLACE.match(place.group("place")) \
                and place.group("place").removeprefix("the ") in fact.figure.quote else ""
            return f"number of {self.query.measure.count_noun}{_counted_verb(self.question)}{where}"
        phrase = self.query.measure.phrase.strip()
        phrase = re.sub(r"(?i)\bnon[\s-]gaap\b", "non-GAAP", phrase)
        phrase = _REGION_LAST.sub(r"\g<measure> in the \g<region>", phrase)  # ('net revenues Asia Pacific region')
        # ('What did its Rigid Packaging segment sell in Latin America': its sales in Latin America)
        phrase = re.sub(r"^(?:sell|sold)\s+(?=[A-Z])", "sales in ", phrase)
        unnamed = [w for w in phrase.split() if sum(c.isupper() for c in w) >= 2 and w not in fact.figure.label
                   and w not in fact.figure.quote and w not in fact.context]
        if (not _plain_phrase(phrase) or unnamed) and fact.origin != "text":
            return measure_phrase(fact.figure.label)
        if not _plain_phrase(phrase):
            return ""
        phrase = re.sub(r"(?<=\w)['’]s\b", "", phrase)  # "Foodservice's revenue" → 'Foodservice revenue'
        if re.search(r"(?i)\bspen[dt]\b", first_part(asked_sentence(self.question))) and phrase and not re.search(
                r"(?i)\b(?:spen[dt]|spending|expen\w*|costs?|capex|outlays?|purchases?|investments?)\b", phrase):
            phrase = f"spending on {phrase}"  # 'How much did it spend buying bitcoin': not 'its bitcoin was $50m'
        first = phrase.split()[0] if phrase.split() else ""
        if first[:1].isupper() and not asked_sentence(self.question).startswith(first) and not is_measure_word(first):
            return phrase  # a name the question capitalised mid-sentence ('Battery Storage revenue') keeps its case
        return _in_sentence(phrase)

    # --- kinds --------------------------------------------------------------------------------------------
    def leads(self, results: Sequence[CalcResult]) -> bool:
        """Whether this answer leads rather than the calculation's own description: always for the kinds a
        calculation does not answer alone (a yes/no, a list, an explanation, the largest row), for a change the
        calculator computed from the facts' two periods, and when there is no result at all."""
        if not results or self.ask.kind in ("yes_no_change", "list", "yes_no", "explain", "extreme", "judgement"):
            return True
        if self.replacement_asked:
            return True  # the thing ended and the new one, with the calculator's difference (revision_answer)
        if self.ask.kind == "change" and metric_pair(results) is not None:
            return True
        if self.ask.kind == "change" and len(self.companies) >= 2 and asks_growth(self.query):
            return True  # two companies' growth: which grew faster leads, each one's rate cited
        if self.ask.kind == "change" and len(self.companies) < 2 and (
                members_compared(self.question, self.companies) or lines_compared(self.question, self.companies)):
            return True  # two members' changes or two lines: the company's own change is not asked
        return (self.ask.kind == "change" and len(self.companies) < 2 and all(_one_series(r) for r in results)
                and not any(r.tool in ("growth_rate", "cagr") for r in results))

    def sentences(self) -> list[str]:
        first = self.first_sentences()
        if not first:
            return []
        first = self.count_beside(first)
        return [*first, *self.when_answer(first), *self.other_part_answer(first), *self.convention_said(first)]

    def count_beside(self, said: list[str]) -> list[str]:
        """A second count asked of the same thing (', and in how many countries?') that the sentence the answer
        quotes states beside the first ('approximately 2,800 retail stores in 28 countries'): added to the first
        sentence ('…, in 28 countries'), which cites that sentence's block."""
        rest = second_part(asked_sentence(self.question))
        asked = re.match(r"(?i)(?:and\s+)?(?P<prep>in|across|at|from)?\s*how\s+many\s+(?P<noun>[a-z][\w-]*)", rest)
        quoted = next((x for x in said[1:] if x.startswith("The report says:")), "")
        if asked is None or not quoted:
            return said
        noun = asked.group("noun")
        stated = re.search(rf"(?i)\b(?P<n>\d[\d,.]*)\s+(?:[a-z][\w-]*\s+){{0,2}}?{re.escape(noun)}\b", quoted)
        lead = re.match(r"^(?P<body>.*?)(?P<marks>(?:\s*\[\d+\])+)\.?$", said[0])
        if stated is None or lead is None or stated.group("n") in said[0]:
            return said
        prep = (asked.group("prep") or "in").lower()
        return [f"{lead.group('body')}, {prep} {stated.group(0)}{lead.group('marks')}.", *said[1:]]

    def other_part_answer(self, said: Sequence[str]) -> list[str]:
        """A two-part question's second figure (', and what stake in Kenvue does it still hold?'): that part asked
        on its own, of the company the question names ('it' is the company), from the same evidence; what the first
        part's answer already says is not said again."""
        rest = second_part(asked_sentence(self.question))
        if not re.match(r"(?i)(?:(?:at|for|of|in|with)\s+)?(?:what|how\s+(?:much|many))\b", rest) \
                or len(self.companies) != 1:
            return []
        company = self.companies[0]
        counted = self.query.measure.count_noun
        if counted and (of_them := _OF_THEM.match(rest)):
            # '…, and roughly how many of them were represented by unions?' after 'How many employees …': of the
            # company's employees
            rest = f"{of_them.group('ask')} of {possessive(company)} {counted}{rest[of_them.end():]}"
        if (of_that := _OF_THAT.match(rest)) and self.query.measure.phrase:
            # '…, and how much of that was held by MGM China?': the part of the first part's whole that sits there
            alone = f"Of the {self.query.measure.phrase}, how much {of_that.group('rest').strip()}"
        elif counts := _COUNTS_AS.match(rest):
            # 'and what counts as a larger seller?': how the report defines it ('which we define as sellers that
            # generate more than $125,000 in annualized GPV')
            alone = f"How does {company} define {counts.group('thing').rstrip(' ?')}?"
        else:
            alone = re.sub(r"(?i)\b(?:it|they)\b", company, rest, count=1)
            alone = re.sub(r"(?i)\b(?:its|their)\b", possessive(company), alone, count=1)
            alone = alone[:1].upper() + alone[1:]
            if company.casefold() not in alone.casefold():
                alone = f"{alone.rstrip(' ?')} for {company}?"
        other = Analyst(self.state, alone).first_sentences()

        def figures(sentence: str) -> set[tuple[float, str]]:
            return {key[1:3] for key in figures_in(re.sub(r"\[\d+\]", " ", sentence))}  # citation marks aside

        stated = {key for sentence in said for key in figures(sentence)}
        # a figure of its own, which the first part's answer does not state already ('What did it recall, and what
        # did it cost?'; '… and at what average price per share?' when the sentence quoted gives the price)
        return [_unbulleted(s) for s in other if s not in said and s != INSUFFICIENT_EVIDENCE
                and figures(s) - stated][:1]

    def convention_said(self, said: Sequence[str]) -> list[str]:
        """What a measure asked by what it means rests on ('each shareholder … if liquidated': tangible book
        value per share), said after the figure the answer read for it."""
        from app.text.measures import measure_convention

        convention = measure_convention(self.question)
        if convention is None or not any(convention[0] in s.lower() for s in said):
            return []
        return [convention[1]]

    def when_answer(self, said: Sequence[str]) -> list[str]:
        """A two-part question's 'and when …?' ('What is Northwind's FY2024 dividend, and when is the final
        paid?'): the sentence that holds the part's key words and states a date, unless the answer has it."""
        rest = second_part(asked_sentence(self.question))
        if not re.match(r"(?i)when\b|(?:(?:as\s+(?:of|at)|on)\s+)?what\s+(?:date|day)\b", rest):
            return []
        names = set(analyze(" ".join(self.companies)))
        # 'When did Mary Dillon become its CEO': a role's sentence says she was appointed, effective a day, and may
        # call her 'Ms. Dillon' (one key word of four or more may be missing); ', and on what date does it
        # expire?' asks when it expires ('as of what date is it dated?': only the day the thing itself is of)
        key = set(analyze(rest)) - names - _GENERIC - question_noise() - _TAKING_UP - _DATE_WORDS
        if not key:
            return []
        for block in self.reports:
            for sentence in whole_sentences(block.text):
                words = set(analyze(f"{sentence} {abbreviated(sentence)}"))
                dates = [d for d, (_, _, day) in read_dates(sentence)[0] if day]
                if dates and sum(not stem_in_words(k, words) for k in key) <= (1 if len(key) >= 4 else 0):
                    if any(sentence.rstrip(".") in s for s in said):
                        return []
                    return [cite(sentence.rstrip("."), [block.n])]
        return []

    @cached_property
    def replacement_asked(self) -> bool:
        """'By how much did X increase its credit agreement': the one ended and the new one, not a forecast's
        revision (app/facts/revisions.REPLACEMENT_ASKED)."""
        return asks_replacement(asked_sentence(self.question))

    def first_sentences(self) -> list[str]:
        kind = self.ask.kind
        if self.replacement_asked and (said := self.revision_answer(self.results)):
            return said
        asked = asked_sentence(self.question)
        if _SEGMENTS_ASKED.search(asked) and not _OF_SEGMENTS.search(asked) and (said := self.segments_answer()):
            return said
        if _NAMES_BY_FIGURE.search(asked) and (said := self.named_by_figure(asked)):
            return said
        if kind == "figure":
            return self.figure_answer()
        if kind == "yes_no_change" and REVISION_ASKED.search(asked) and (said := self.revision_answer(self.results)):
            return said  # 'Did X cut its outlook?': 'No. X raised its guidance for 2023 to 8 percent (previously …)'
        if kind in ("change", "yes_no_change"):
            return self.change_answer() or self.leverage_answer() or self.kept_answer()
        if kind == "extreme":
            return self.extreme_answer()
        if kind == "judgement" and PROFITABILITY_MOVE.search(self.question):
            return self.profitability_change() or self.result_answer() or self.judgement_answer()
        if kind == "judgement":
            return self.result_answer() or self.judgement_answer()
        if asks_business(self.question) and (said := self.business_answer()):
            return said
        if REVISION_ASKED.search(asked) and (said := self.revision_answer(self.results)):
            return said
        if kind == "list" and self.ask.one_name:
            return self.sentence_answer() or self.enumerating_sentence() or self.list_answer()
        if kind == "list":
            return (self.enumerating_sentence() or self.table_answer() or self.list_answer()
                    or self.sentence_answer())
        if kind == "explain":
            return self.explain_answer() or self.sentence_answer()
        if kind == "yes_no" and (more := lines_more_than(self.question, self.companies)) is not None \
                and (said := self.compare_lines(more[0], first_larger_asked=more[1])):
            return said
        if kind == "yes_no":
            return (self.threshold_answer() or self.result_answer() or self.continued_answer()
                    or self.sentence_answer())
        return []

    def continued_answer(self) -> list[str]:
        """A yes/no on whether the company would keep doing a thing ('did it say it would keep paying its regular
        dividend?'): 'No.' with the sentence that holds the thing asked and a verb of stopping it ('determined to
        suspend our ongoing regular dividends'), or 'Yes.' with one that keeps it ('maintains its quarterly
        dividend'), cited; nothing when no sentence says either."""
        asked = first_part(asked_sentence(self.question))  # (not '…, and at what amount?': the other part's)
        keep = _KEEP_ASKED.search(asked)
        if keep is None:
            return []
        key = self.thing_asked(_OCCASION_AFTER.sub("", asked[keep.end():]))  # (not '… following its Q4 results')
        for block, sentence in self.sentences_holding(key) if key else []:
            verdict = "No." if _STOPPED.search(sentence) else "Yes." if _KEPT.search(sentence) else ""
            if verdict:
                return [f"{verdict} {cite(_stated_alone(sentence).rstrip('.'), [block.n])}"]
        return []

    def thing_asked(self, text: str, also: frozenset[str] = frozenset()) -> set[str]:
        """The words of what a yes/no asks about ('its regular dividend'): the company's names, generic words,
        the question's own noise, verbs of revision and `also` left out."""
        names = set(analyze(" ".join(self.companies)))
        key = (set(analyze(without_short_names(text, self.companies))) - names - _GENERIC - question_noise()
               - _REVISION_VERBS - also)
        return {k for k in key if not k.isdigit()}

    def sentences_holding(self, key: set[str]) -> Iterator[tuple[Block, str]]:
        """Each report block's sentences that hold every word of `key`, in block order."""
        for block in self.reports:
            for sentence in whole_sentences(block.text):
                if all(stem_in_words(k, set(analyze(sentence))) for k in key):
                    yield block, sentence

    def result_answer(self) -> list[str]:
        """'Did MGM Resorts post an operating profit in the fourth quarter of 2022?': the sign of the result asked
        (operating, pre-tax or net income; net when none is named), as the period's statement or table row gives
        it ('Operating income (loss) (1,896)': No, a loss), else as a sentence states it. Nothing when neither states
        that result."""
        asked = _RESULT_ASKED.search(asked_sentence(self.question)) or _PROFITABLE.search(asked_sentence(self.question))
        if not asked:
            return []
        member = self.query.measure.segment
        # (a member's result is its operating profit: segments report no net income)
        found = asked.groupdict()
        kind = " ".join((found.get("kind") or found.get("basis") or ("operating" if member else "net")).lower()
                        .replace("-", "").split())
        fact = None
        for measure in (f"{kind} income", f"{kind} profit", f"{kind} loss") if member else (f"{kind} income",):
            query = replace(self.query, measure=replace(self.query.measure, phrase=measure,
                                                        stems=frozenset(analyze(measure)), segment=member),
                            kind="money", items=tuple(items_named(measure)))
            chosen = [f for f in choose(facts_for(query, self.reports, self.companies), query)
                      if f.match >= NAMES_MEASURE and not f.figure.unit.endswith("%")
                      and (not member or f.part is None)]
            # a statement's or table's row first; else a sentence that states the result ('Net income was $312
            # million in 2024 compared with a net loss of $45 million in 2023')
            best = [f for f in chosen if f.origin != "text"] or [f for f in chosen if not member]
            if best:
                fact = best[0]
                break
        if fact is None or (n := self.n_of(fact.figure)) is None or not fact.figure.value:
            return []
        # (a row that names only a loss, 'Contribution loss (333,386)', is a loss whichever way it is signed)
        label = fact.figure.label
        only_loss = bool(re.search(r"(?i)\bloss", label)) and not re.search(r"(?i)\b(?:profit|income|earnings)\b",
                                                                            label)
        if fact.origin == "text":  # a sentence's own word for it: 'a net loss of $45 million'
            only_loss = _loss_stated(fact.figure.quote or "", fact.figure.value)
        gained = fact.figure.value > 0 and not only_loss
        verdict = gained != ((found.get("what") or "").lower() in ("loss", "in the red"))
        result = f"{kind} {'profit' if gained else 'loss'}"
        size = as_stated(fact.figure.model_copy(update={"value": abs(fact.figure.value)}))
        name = fact.figure.company or (self.companies[0] if self.companies else "The company")
        company = possessive(name)
        a_result = f"{'an' if result[0] in 'aeiou' else 'a'} {result} of {size}"
        if member:  # ('Profit/(Loss)' as the row says it: the sign is the verdict's)
            noun = re.search(r"(?i)\b(segment|division|region|business|unit|arm)\b", self.question)
            body = f"{company} {fact.segment or member}{' ' + noun.group(1).lower() if noun else ''} posted " \
                   f"{a_result} {period_text(fact.figure, fact.part)}"
        elif fact.origin == "text":  # as the sentence states it: 'Kestrel posted a net loss of $45m in FY2023'
            body = f"{name} posted {a_result} {period_text(fact.figure, fact.part)}"
        else:
            body = f"{company} {measure_phrase(fact.figure.label)} was {self.at(fact)}: {a_result}"
        return [f"{'Yes' if verdict else 'No'}. {cite(body, [n])}"]

    def threshold_answer(self) -> list[str]:
        """A figure asked against a bar ('Did Ulta Beauty's annual revenue top $10 billion in fiscal 2022?'): the
        verdict, and the figure that decides it; nothing when the figure is not stated in a unit the bar is in."""
        bar = THRESHOLD.search(asked_sentence(self.question))
        said = bar_figures(bar.group("amount")) if bar else []
        if not bar or not said:
            return []
        currency, value, scale, percent = said[0]
        best = [f for f in choose(self.facts(), self.query) if self.states_asked(f)]
        if not best or (n := self.n_of(best[0].figure)) is None:
            return self.share_against_bar(bar, value) if percent else []
        fact = best[0]
        stated_currency, rest = unit_currency(fact.figure.unit)
        if percent:
            if fact.figure.unit != "%":
                return []
            level, line = fact.figure.value, value
        else:
            if rest not in ("", *SCALE_FACTORS) or (currency and stated_currency and currency != stated_currency):
                return []
            level, line = fact.figure.value * SCALE_FACTORS.get(rest, 1.0), value * SCALE_FACTORS.get(scale, 1.0)
        if bar.group("below"):
            verdict = level < line
        else:
            verdict = level >= line if bar.group("least") else level > line
        side = "above" if level > line else "below" if level < line else "at"
        body = f"{self.subject(fact)} {self.verb(fact)} {self.at(fact)}, {side} {' '.join(bar.group('amount').split())}"
        return [f"{'Yes' if verdict else 'No'}. {cite(body, [n])}"]

    def share_against_bar(self, bar: re.Match[str], line: float) -> list[str]:
        """A share asked against a bar in a sentence of the reports ('Did Walmart account for more than a quarter
        of General Mills' consolidated net sales in fiscal 2020?' — 'During fiscal 2020, Walmart … accounted for 21
        percent of our consolidated net sales …'): the verdict on the share the first sentence that holds every key
        word but the bar's states; nothing when none does. A sentence that states a bar of its own ('No single
        customer accounted for 10% or more') says nothing of another bar."""
        bar_words = set(analyze(bar.group(0)))
        key = [g for g in self.key_groups() if not g <= bar_words]
        if not key:
            return []
        for block in self.reports:
            for sentence in whole_sentences(block.text):
                words = set(analyze(sentence))
                # (a bar of the sentence's own, '10% or more', is no share it states: `figures_located`)
                share = next((f for f in figures_located(sentence) if f.kind == "percent"), None)
                if share is None or _NEGATION.search(sentence) \
                        or not all(any(stem_in_words(k, words) for k in g) for g in key):
                    continue
                level = share.value
                verdict = level < line if bar.group("below") else level >= line if bar.group("least") else level > line
                return [f"{'Yes' if verdict else 'No'}. {cite(sentence.rstrip('.'), [block.n])}"]
        return []

    def side_by_side(self, key: Sequence[frozenset[str]]) -> list[tuple[frozenset[str], frozenset[str]]]:
        """The key groups the question writes next to each other ('operating income'), which a sentence that
        answers it writes close together too (`close_together`)."""
        words = re.findall(r"[A-Za-z][\w&'’-]*", asked_sentence(self.question))
        return [(a, b) for x, y in zip(words, words[1:])
                if (a := next((g for g in key if g & set(analyze(x))), None)) is not None
                and (b := next((g for g in key if g & set(analyze(y))), None)) is not None and a != b]

    def explain_answer(self) -> list[str]:
        """What drove a change: up to three sentences that give its cause and name the measure asked (themselves
        or through the sentence they go on from), of the year asked, best first; then the sentence the first goes
        on from, which states the figures it explains. 'Gross margin' is explained where a report explains its
        complement, cost of sales as a percent of sales (`COST_SHARE`)."""
        # 'Why did profit … fall although its sales rose?': what the concession grants is not what is explained
        asked = asked_sentence(self.question)
        granted = re.search(r"(?i)\b(?:although|even\s+though|though|despite|while|whereas)\b(.*)$", asked)
        conceded = set(analyze(granted.group(1))) - set(analyze(asked[:granted.start()])) if granted else set()
        # guidance raised is guidance a report says it now expects ('we now expect … (previously …)')
        key = [g | _GUIDANCE_SAID if g & _GUIDANCE_SAID else g
               for g in self.key_groups() if not g & CHANGE_WORDS and not g & conceded]
        # 'Helio's Solar Development segment': its name and the word 'segment' may stand above the sentences of
        # its review rather than in them
        segment = self.query.measure.segment
        named = [g for g in key if segment and (g & set(analyze(segment)) or min(g, key=len) in _SEGMENT_WORDS)]
        if not key:
            return []
        sources = [b for b in self.reports if b.kind == "report"]
        texts = [(rank, b.text) for rank, b in enumerate(sources)]
        years = list(self.query.years)
        quarter = bool(re.search(r"(?i)\b(?:quarter|Q[1-4])\b", asked))
        headings = {rank: section_of(b) for rank, b in enumerate(sources)}
        found = explanations(texts, key, years, direction_asked(asked), quarter, pairs=self.side_by_side(key),
                             share_asked=self.share is not None, headings=headings, named=named)
        if not found and any(g & _GROSS for g in key) and any(g & _MARGIN for g in key):
            # a gross margin explained as its complement, cost of sales as a percent of sales
            rest = [g for g in key if not g & (_GROSS | _MARGIN)]
            found = explanations(texts, rest, years, 0, quarter, subject=COST_SHARE)
        if not found:
            return []
        top = found[0][0].score
        out: list[str] = []
        said: set[str] = set()
        for explained, rank in found:
            if len(said) == 3 or explained.score < top - 0.3:
                break
            if explained.sentence in said or any(explained.sentence[:80] == s[:80] for s in said):
                continue  # one sentence once, though two chunks overlap on it
            said.add(explained.sentence)
            # a bullet's marker and its list's closing semicolon are no part of the sentence
            out.append(cite(explained.sentence.lstrip("•·▪ ").rstrip(";, "), [sources[rank].n]))
        first, rank = found[0]
        if first.antecedent and first.antecedent not in said and not older_change_named(first.antecedent, years):
            # the cause before what it caused ('… comprised store impairment costs of £24.6 million. As a result,
            # statutory profit before tax fell …'); else the figures after the sentence that explains them
            out.insert(0 if is_consequence(first.sentence) else 1, cite(first.antecedent, [sources[rank].n]))
        return out

    def revision_answer(self, results: Sequence[CalcResult] = ()) -> list[str]:
        """How a forecast was raised or cut, when the report gives the new figure with the one it replaces ('core
        constant currency EPS to increase 9 percent (previously 8 percent)'): the clause that names the measure
        asked, with its new and previous figures (app/facts/revisions.py), and by how much, when the calculator
        computed it from those two figures (its block cited)."""
        best = best_revision(self.question, ((b, b.text) for b in self.reports), self.companies)
        if best is None:
            return []
        block, new, old = best.where, best.new, best.old
        years = sorted(set(years_named(best.sentence)))
        moved = "raised" if new > old else "lowered" if new < old else "kept"
        # a yes/no on the revision's direction ('Did X cut its outlook?'): the verdict first
        verdict = (("Yes. " if (new > old) == (self.ask.direction > 0) else "No. ")
                   if self.ask.kind == "yes_no_change" and self.ask.direction and new != old else "")
        owner = self.companies[0] if self.companies else "The company"
        said_new, said_old = (" ".join(said.split()) for said in (best.new_said, best.old_said))
        # the year the sentence names, and the measure its clause names ('organic revenue growth')
        measure = " ".join(best.what.split()).strip(" ,;:")
        measure = measure if re.search(r"[A-Za-z]{3}", measure) and len(measure.split()) <= 6 else ""
        what = (f"its {measure} guidance for {years[-1]}" if measure and len(years) == 1
                else f"its guidance for {years[-1]}" if len(years) == 1 else f"its {measure} guidance" if measure
                else "it")
        computed = next((r for r in results if r.tool == "difference"
                         and (r.inputs.get("a"), r.inputs.get("b")) == (new, old)), None)
        by, refs = "", [block.n]
        if computed is not None and self.calc_n is not None and new != old:
            size = abs(computed.result)
            currency, _, scale, percent = figures_in(best.new_said)[0]
            by = (f" by {size:g} percentage point{'' if size == 1 else 's'}" if percent
                  else f" by {amount(size, currency + scale)}")
            refs = [self.calc_n, block.n]
        if best.replaced:  # a thing ended and a new one in its place: both sentences, the old one first
            moved = "increased" if new > old else "reduced" if new < old else "kept"
            thing = f"its {best.what}" if best.what else "it"
            lead = (f"{owner} {moved} {thing}{by}, from {said_old} to {said_new}" if new != old
                    else f"{owner} kept {thing} at {said_new}")
            ended = best.replaced_where if best.replaced_where is not None else block
            if ended.n not in refs:
                refs = [*refs, ended.n]
            return [cite(lead, refs), _report_says(best.replaced, ended.n),
                    cite(f'And: "{best.clause.rstrip(".")}."', [block.n])]
        lead = verdict + (f"{owner} {moved} {what}{by}{',' if by else ''} to {said_new} (previously {said_old})"
                          if new != old else f"{owner} kept {what} at {said_new}")
        clause = re.sub(r"(?i)^(?:and|but|while)\s+", "", best.clause)
        return [cite(lead, refs), _report_says(clause, block.n)]

    def business_answer(self) -> list[str]:
        """What the company does, as its report says it ('Amcor is a global leader in developing and producing
        responsible packaging for food, beverage, …'): the first sentence whose subject is the company (or 'we',
        'the Company') and that says what kind of company it is."""
        names = [re.escape(n) for c in self.companies for n in dict.fromkeys((c, c.split()[0])) if len(n) >= 3]
        subject = "|".join([*names, r"we", r"the\s+company", r"our\s+company"])
        describes = re.compile(rf"(?i)^(?:[^,.;]{{0,40}},\s*)?(?:{subject})\b[^.;]{{0,60}}?\b(?:is|are)\s+"
                               rf"(?:a|an|one\s+of\s+the|the)\s+(?:[\w,-]+\s+){{0,5}}?(?:leader|leading|provider|manufacturer|maker|producer|"
                               rf"supplier|company|developer|retailer|operator|bank|designer|distributor|firm|group|"
                               rf"insurer|owner|corporation|conglomerate|marketer|platform|business)\b")
        for block in (b for b in self.reports if b.kind == "report"):
            for sentence in whole_sentences(block.text):
                if describes.search(sentence.strip()) and not _LEGAL_FORM.search(sentence):
                    return [cite(sentence.strip().rstrip("."), [block.n])]
        return []

    def named_by_figure(self, asked: str) -> list[str]:
        """'Which franchises together made up 67% of its net revenues in 2019?': the question gives the figure and
        asks what it is of; the sentence that states that figure with the question's key words answers, quoted
        whole and cited. Nothing when no sentence states it."""
        given = _NAMES_BY_FIGURE.search(asked)
        number = given.group("figure").replace(",", "") if given else ""
        key = self.key_stems() - set(analyze("together jointly collectively combined made make up accounted account "
                                             "represented represent contributed generated comprised"))
        key = {k for k in key if not re.search(r"\d", k)}
        for block in self.reports:
            for sentence in whole_sentences(block.text):
                text = " ".join(sentence.split())
                if re.search(rf"(?<![\d.,]){re.escape(number)}\s?(?:%|percent\b)", text.replace(",", "")) \
                        and _holds_all(text, key):
                    return [cite(_BULLET.sub("", text).rstrip("."), [block.n])]
        return []

    def segments_answer(self) -> list[str]:
        """The segments a report says the company has ('What were 3M's five business segments in 2018?', 'What
        operating segments did it report?'), as its sentence lists them (members.named_segments), from the report
        of the year asked first: "3M reported five business segments in FY2018: Industrial; …; and Consumer", the
        sentence quoted. Nothing when no report in the prompt lists them."""
        years = set(self.query.years)
        ranked = sorted((b for b in self.reports if b.kind == "report"),
                        key=lambda b: bool(years) and b.fiscal_year not in years)
        for block in ranked:
            names = named_segments([block.text])
            if len(names) < 2:
                continue
            said = next((" ".join(x.split()) for x in whole_sentences(block.text)
                         if names[0] in x and names[-1] in x), "")
            kind = re.search(r"(?i)\b(reportable|operating|business)\s+segments\b", said or self.question)
            company = block.company or (self.companies[0] if self.companies else "The company")
            when = f" in FY{block.fiscal_year}" if block.fiscal_year else ""
            joined = "; ".join(names[:-1]) + f"; and {names[-1]}" if len(names) > 2 else " and ".join(names)
            lead = cite(f"{company} reported {_count_word(len(names))} {kind.group(1).lower() + ' ' if kind else ''}"
                        f"segments{when}: {joined}", [block.n])
            return [lead, *([_report_says(said, block.n)] if said else [])]
        return []

    def enumerating_sentence(self) -> list[str]:
        """A sentence that holds the question's key words and lists after a colon ('The Group has three
        reportable segments: Industrial Drives (…), Mobility Solutions (…) and Service (…).')."""
        key = self.key_stems()
        if not key:
            return []
        for block in (b for b in self.reports if b.kind == "report"):
            for sentence in whole_sentences(block.text):
                # the colon that opens a list, not one inside brackets ('met seven times (FY2023: four)')
                colon = re.search(r":(?![^(]*\))", sentence)
                head, tail = (sentence[:colon.start()], sentence[colon.end():]) if colon else (sentence, "")
                if not colon or len(re.findall(r",|;|\band\b", tail)) < 2 or not _holds_all(head, key):
                    continue
                return [cite(sentence, [block.n])]
        return []

    def table_answer(self) -> list[str]:
        """A report's table whose column headings name what was asked ('| Measure | Original FY2024 guidance |
        Revised guidance | FY2024 actual |' for 'How did it change its FY2024 guidance, and what did it
        deliver?'): each row in its own sentence, every value with its column's name. A table whose headings
        name another year than the question's is not it."""
        from app.text.periods import years_named
        from app.text.sentences import is_rule_row, readable_tables, table_cells

        key = self.key_groups()
        if not key:
            return []
        for block in (b for b in self.reports if b.kind == "report"):
            lines = [line for line in block.text.splitlines() if line.strip().startswith("|")]
            header = next((table_cells(line) for line in lines if not is_rule_row(table_cells(line))), None)
            if header is None or len(header) < 3:
                continue
            heads = " ".join(header[1:])
            words = set(analyze(heads))
            named = set(years_named(heads))
            if not all(any(stem_in_words(k, words) for k in g) for g in key):
                continue
            if named and self.query.years and not named & set(self.query.years):
                continue
            rows = [r.strip() for r in readable_tables("\n".join(lines)).splitlines() if ":" in r]
            if rows:
                return [*self.revision_sentence(key), *(cite(row.rstrip("."), [block.n]) for row in rows[:8])]
        return []

    def revision_sentence(self, key: Sequence[frozenset[str]]) -> list[str]:
        """The sentence that says a plan was revised ('… led us to lower our FY2024 guidance on 4 September
        2024'), to lead the table that gives the figures: only when the question asks about a revision."""
        from app.text.periods import years_named

        if not _REVISION.search(self.question):
            return []
        found = []  # a sentence that names the year asked first, then the report's before the news's
        for rank, block in enumerate(self.reports):
            for sentence in whole_sentences(block.text):
                words = set(analyze(sentence))
                if _revises(sentence, key) and all(any(stem_in_words(k, words) for k in g) for g in key):
                    dated = bool(set(years_named(sentence)) & set(self.query.years))
                    # a sentence whose main verb is the revision ('Copperleaf Foods lowered its FY2024 guidance,
                    # citing …') before one that gives it as a reason in passing
                    main = bool(_REVISION.search(" ".join(sentence.split()[:5])))
                    found.append((not dated, not main, block.kind != "report", rank, sentence, block))
        if not found:
            return []
        *_, sentence, block = min(found, key=lambda x: x[:4])
        return [cite(sentence.rstrip("."), [block.n])]

    def list_answer(self) -> list[str]:
        """The items a report lists under a heading that names what was asked ('Principal Business Risks',
        'Events after the reporting period', 'Store numbers by format'; app/text/lists.py), in the report's
        words: titles in one sentence, items that are sentences each in its own."""
        from app.text.lists import Listed, enumerated_items, heads_list, listed_items

        key = self.key_groups()
        for block in (b for b in self.reports if b.kind == "report"):
            listed = listed_items(block.text, key)
            section = section_of(block)
            if listed is None and section and heads_list(section, key):
                # the section's own heading, kept apart from its text ('Outlook and guidance' over 'For FY2025
                # we expect:' and its items), holds the key words
                items = enumerated_items(block.text)
                if len(items) >= 2:
                    listed = Listed(heading=section, items=tuple(items))
            if listed is None:
                continue
            refs = [block.n]
            following = self.next_chunk(block)
            def unnumbered(text: str) -> str:  # less the page's number at its end
                return re.sub(r"\s+\d{1,4}$", "", text.rstrip())

            last = unnumbered(listed.items[-1])
            if following is not None and unnumbered(block.text).endswith(last[-20:]):
                listed = replace(listed, items=(*listed.items[:-1], last))
                # the list runs on into the page's next chunk: its items, less those the overlap repeats
                more = [i for i in enumerated_items(following.text)
                        if not any(i[:30] == seen[:30] for seen in listed.items)]
                if more:
                    listed = replace(listed, items=(*listed.items, *more))
                    refs.append(following.n)
            company = block.company or (self.companies[0] if self.companies else "")
            heading = re.sub(r"^\d{1,2}(?:\.\d{1,2})?[.)]?\s+", "", listed.heading).split("   ")[-1].strip()
            what = heading[:1].lower() + heading[1:] if heading[1:2].islower() else heading
            items = [_item_title(i) for i in listed.items]
            if all(not i.endswith(".") for i in items):
                joined = "; ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]
                return [cite(f"{possessive(company)} report lists under '{heading}': {joined}", refs)]
            lead = cite(f"{possessive(company)} report lists {_count_word(len(items))} items under '{heading}'",
                        refs)
            return [lead, *(cite(_sentence_case(i).rstrip("."), refs) for i in items)] if what else []
        return []

    def next_chunk(self, block: Block) -> Block | None:
        """The block of the chunk after this one on the same page, when the prompt holds it."""
        head, _, ordinal = (block.chunk_id or "").rpartition("::")
        if head and ordinal.isdigit():
            wanted = f"{head}::{int(ordinal) + 1}"
            same_page = next((b for b in self.reports if b.chunk_id == wanted), None)
            if same_page is not None:
                return same_page
        if block.page is None:
            return None
        # the first chunk of the next page of the same filing (a source of its own when pages were ingested so)
        sources = {block.source_id, re.sub(rf":p{block.page}$", f":p{block.page + 1}", block.source_id)}
        return next((b for b in self.reports if b.page == block.page + 1 and b.source_id in sources
                     and ((b.chunk_id or "").endswith("::0") or "::" not in (b.chunk_id or ""))), None)

    def figure_answer(self) -> list[str]:
        two = self.two_counts() or self.home_and_abroad()
        if two:
            return two
        if RATING_ASKED.search(asked_sentence(self.question)):
            return self.rating_answer()
        if capital := self.capital_figure():
            return capital
        facts = self.facts()
        years = sorted(set(self.query.years))
        if len(years) >= 2:  # 'capital expenditure in FY2017 and FY2018'
            each = [best[0] for y in years if (best := [f for f in choose(facts, self.query, year=y)
                                                         if self.states_asked(f)])]
            if len(each) >= 2:
                ns = self.refs(each)
                parts = " and ".join(self.at(f) for f in each)
                return [cite(f"{self.subject(each[-1])} {self.verb(each[-1])} {parts}", ns)] if ns else []
        if asks_growth_rate(self.question) and not self.query.measure.stems & CHANGE_STEMS \
                and self.query.kind in ("money", "any", "count"):
            # a growth asked that the calculator had no two levels to compute: the rate the report states, never a
            # level in its place ('online sales were 28.1%' is their share of sales)
            return self.growth_stated()
        # a per cent asked ('net income as a percent of net sales') is never answered by an amount, nor by a
        # per cent of something else ('total sales increased 1.9 percent'): a stated share names its two sides;
        # an amount paid is no rate per share ('How much did Costco pay in dividends': not '$0.79 per share')
        share = self.share
        per_share = not _AMOUNT_PAID.search(self.question) or bool(
            re.search(r"(?i)\bper\s+(?:common\s+)?share\b|\bEPS\b|\bDPS\b", self.question))
        best = [f for f in choose(facts, self.query) if self.states_asked(f)
                and (per_share or not _PER_SHARE_AFTER.match(_after_figure(f.figure.quote, f.figure.value)))
                and (self.query.kind != "percent" or _fits_unit(f.figure.unit, "%"))
                # and an amount asked is never answered by a per cent ('online sales' by their 28.1% share of sales)
                and (self.query.kind != "money" or (f.figure.unit.strip() != "%"
                                                    and not f.figure.unit.endswith("shares")))
                and (share is None or all(_says(f"{f.figure.quote} {f.figure.label}", side) for side in share))]
        if not best:
            return []
        if self.query.kind == "count" and (verb := count_verb(self.question)):
            # 'How many parlors does it operate': in 'we operate 500 (all leased) and franchise 358 …' the figure
            # the asked verb leads, not the one another verb does (a table's row is read as it was ranked)
            led = [_verb_before(f.figure.quote, f.figure.value, verb) if f.origin == "text" else 1 for f in best]
            if 0 in led:
                best = [f for _, f in sorted(zip(led, best), key=lambda pair: pair[0])]
        fact = best[0]
        n = self.n_of(fact.figure)
        if n is None:
            return []
        if self.measure_words(fact) and fact.forward:
            # a forecast column's figure ('FY3/2026 Forecast' in the FY3/2025 report), or a sentence's ('For 2025 we
            # expect revenue between …'), is said to be one
            tense = "are" if self.verb(fact) == "were" else "is"
            lead = cite(f"{self.subject(fact)} {tense} forecast at {self.at(fact)}", self.ns_of(fact.figure))
        elif self.measure_words(fact):
            # (cited to the chunk that heads its table too, when chunking cut the two: its segment or period is
            # said there)
            lead = cite(f"{self.subject(fact)} {self.verb(fact)} {self.at(fact)}", self.ns_of(fact.figure))
        else:  # no plain name for what was asked: the figure, then the sentence that states it, whole
            return [cite(f'{self.at(fact)[:1].upper()}{self.at(fact)[1:]}: "{fact.figure.quote.rstrip(".")}"', [n])]
        out = [lead]
        if fact.origin == "text" and fact.figure.quote and len(fact.figure.quote) < 400:
            out.append(cite(f'The report says: "{fact.figure.quote.replace("**", "").rstrip(".;,: ")}."', [n]))
        out += self.first_reported(fact, facts)
        # a range's other end ('18.5Mt to 19.5Mt')
        if fact.figure.period in ("low", "high"):
            other = next((f for f in best[1:] if f.figure.quote == fact.figure.quote and f.figure.period
                          not in (None, fact.figure.period)), None)
            if other is not None:
                low, high = sorted([fact, other], key=lambda f: f.figure.value)
                subject = self.subject(fact)
                verb = self.verb(fact)
                if fact.forward:  # a forecast is said to be one, once ('… shipments guidance is 18.5Mt to …')
                    verb = ("are" if verb == "were" else "is") + (
                        "" if re.search(r"(?i)guidance|forecast|outlook|target|expect", subject) else " forecast at")
                out[0] = cite(f"{subject} {verb} {as_stated(low.figure)} to "
                              f"{as_stated(high.figure)} {period_text(fact.figure)}", [n])
        return out

    def growth_stated(self) -> list[str]:
        """'What was Pellbury's online sales growth in FY2025?' with no two levels to compute it from: the per cent the
        report states the measure rose or fell by in the year, led by what rose and cited; [] when none is stated.
        A table's change column in the row of the level asked ('Service revenue 2,148.6 2,071.3 3.7' under
        '2024 2023 % Chg') comes first, with the two levels; else a sentence's rate ('… and online sales up 11.9%')
        with the measure's own words right before it: 'Consolidated revenue increased by $82.9m, or 1.7%, …, as
        growth in Wireless service revenue …' states no rate of the wireless service revenue."""
        measure = self.query.measure
        query = replace(self.query, kind="percent", measure=replace(
            measure, phrase=f"{measure.phrase} growth", stems=measure.stems | frozenset(analyze("growth"))))
        rates = facts_for(query, self.reports, self.companies)
        facts = self.facts()
        level = next((f for f in choose(facts, self.query) if f.origin != "text" and self.states_asked(f)), None)
        row = [f for f in rates if level is not None and f.origin != "text" and f.figure.quote == level.figure.quote
               and (f.figure.period or "").endswith("change") and f.figure.unit.strip() == "%"]
        stated = [f for f in choose(rates, query)
                  if f.origin == "text" and f.figure.unit == "%" and self.states_asked(f)
                  and states_change(f.figure.quote, f.figure.value)
                  and all(stem_in_words(k, set(analyze(_up_to_figure(f.figure.quote, f.figure.value)[-80:])))
                          for k in measure.stems)]
        fact = row[0] if row else stated[0] if stated else None
        n = self.n_of(fact.figure) if fact is not None else None
        if fact is None or n is None:
            return []
        before = _up_to_figure(fact.figure.quote, fact.figure.value)[-60:] if fact.origin == "text" else ""
        fell = fact.figure.value < 0 or bool(_FELL_BEFORE.search(before))
        size = as_stated(fact.figure.model_copy(update={"value": abs(fact.figure.value)}))
        rate = f"{'fell' if fell else 'rose'} {size}"
        if row and level is not None:
            prior = next((f for f in facts if f.figure.quote == level.figure.quote and f.origin != "text"
                          and f.figure.fiscal_year == (level.figure.fiscal_year or 0) - 1), None)
            since = f", from {as_stated(prior.figure)}" if prior is not None else ""
            return [cite(f"{self.subject(level)} {rate} {self.when(level)}, to {as_stated(level.figure)}{since}",
                         [n])]
        company = fact.figure.company or (self.companies[0] if self.companies else "")
        lead = f"{possessive(company) if company else 'The'} {measure.phrase} {rate} {self.when(fact)}"
        return [cite(lead, [n]), cite(f'The report says: "{fact.figure.quote.rstrip(".;,: ")}."', [n])]

    def first_reported(self, fact: Fact, facts: Sequence[Fact]) -> list[str]:
        """A later filing's figure for a period an earlier filing reported otherwise is a restatement: the
        figure first reported follows, said to be one ('646k' in the 2024 report's '2023 (restated)' column,
        '687k' in the 2023 report's own). The same company, period, segment, unit and line; another value."""
        if fact.filed_year is None or fact.forward or fact.origin == "text":
            return []  # a sentence's figure may be rounded ('about 3.2 billion'): a table's states it whole
        line = " ".join(analyze(fact.figure.label))
        earlier = [f for f in facts if f.filed_year is not None and f.filed_year < fact.filed_year
                   and (f.figure.company or "").casefold() == (fact.figure.company or "").casefold()
                   and f.figure.fiscal_year == fact.figure.fiscal_year and f.part == fact.part
                   and f.segment == fact.segment and f.figure.unit == fact.figure.unit and not f.forward
                   and f.figure.period == fact.figure.period and " ".join(analyze(f.figure.label)) == line
                   and f.origin != "text" and f.figure.value != fact.figure.value]
        first = min(earlier, key=lambda f: f.filed_year or 0, default=None)
        n = self.n_of(first.figure) if first is not None else None
        if first is None or n is None:
            return []
        return [cite(f"The FY{first.filed_year} report had first reported {as_stated(first.figure)}; the "
                     f"FY{fact.filed_year} report restates it", [n, self.n_of(fact.figure) or n])]

    def two_counts(self) -> list[str]:
        """'How many stores did Pellbury open and close during FY2025?': a count for each deed, read from one
        sentence that states them all ('We opened 9 stores …, and closed 17 stores …'), each figure right after
        its verb and before the thing counted, and said so ('opened 9 stores and closed 17 stores')."""
        asked = _TWO_DEEDS.search(asked_sentence(self.question))
        if not asked or self.query.kind != "count" or asked.group("a").lower() in _NOT_DEEDS:
            return []
        noun = analyze(asked.group("noun"))[-1:] or [""]
        verbs = [v.lower() for v in (asked.group("a"), asked.group("b")) if v]
        for fact in [f for f in self.facts() if f.origin == "text"]:
            sentence = fact.figure.quote or ""
            found = []
            for verb in verbs:
                said = re.search(rf"(?i)\b(?P<verb>{re.escape(verb[:4])}\w*)\s+(?:[\w-]+\s+){{0,2}}?(?P<n>\d[\d,]*)\s+"
                                 rf"(?:[\w-]+\s+){{0,2}}?(?P<noun>[\w-]+)", sentence)
                if said is None or not set(analyze(said.group("noun"))) & set(noun):
                    break
                found.append(f"{said.group('verb')} {said.group('n')} {said.group('noun')}")
            n = self.n_of(fact.figure)
            if len(found) == len(verbs) and n is not None:
                owner = self.companies[0] if self.companies else "The company"
                return [cite(f"{owner} {' and '.join(found)} {period_text(fact.figure)}", [n]),
                        _report_says(sentence, n)]
        return []

    def home_and_abroad(self) -> list[str]:
        """'How many manufacturing facilities did 3M run in the United States and internationally?': a count for
        each place, from two sentences of one passage, the one abroad saying so ('Internationally, the Company
        operates 83 …'), the other not ('The Company operates 61 manufacturing facilities in 29 states.')."""
        asked = _HOME_AND_ABROAD.search(asked_sentence(self.question))
        if not asked or self.query.kind != "count":
            return []
        facts = [f for f in self.facts() if f.origin == "text" and self.n_of(f.figure) is not None]
        abroad = [f for f in facts if _SAID_ABROAD.search(f.figure.quote or "")]
        domestic = [f for f in facts if not _SAID_ABROAD.search(f.figure.quote or "")
                    and any(a.figure.chunk_id == f.figure.chunk_id for a in abroad)]
        if not domestic:
            return []
        here = domestic[0]
        there = next(a for a in abroad if a.figure.chunk_id == here.figure.chunk_id)
        n = self.n_of(here.figure)
        if n is None:
            return []
        noun = self.query.measure.count_noun or self.query.measure.phrase
        away = " ".join(asked.group("abroad").split())

        def where(fact: Fact, otherwise: str) -> str:  # the place as its sentence says it ('in 29 states')
            said = re.search(r"\b(?:in|across)\s+\d[\d,]*\s+[a-z]+", (fact.figure.quote or "")[1:])
            return said.group(0) if said else otherwise

        home = where(here, "at home")
        abroad_words = where(there, "")
        lead = (f"{_whose(self.companies[0] if self.companies else '')} {noun}: {as_stated(here.figure)} {home} and "
                f"{as_stated(there.figure)} {' '.join(x for x in (abroad_words, away) if x)} "
                f"{period_text(here.figure)}")
        # (each sentence quoted on its own: a quote is one sentence, so that each is checked against its block)
        return [cite(lead, [n]), _report_says(here.figure.quote or "", n), _report_says(there.figure.quote or "", n)]

    def calculated_verdict(self, results: Sequence[CalcResult]) -> str:
        """'Yes.' / 'No.' (or the either/or's word) for a yes/no on a change that the calculator's change of the
        measure answers ('Did Netflix's revenues increase in 2017?': a growth of 32.41%); '' when no such result
        is asked for or it is nil."""
        if self.ask.kind != "yes_no_change":
            return ""
        change = next((r for r in results if r.tool in ("growth_rate", "percentage_change", "difference")
                       and self.result_asked(r)), None)
        if change is None or change.result == 0:
            return ""
        return self.verdict(0.0, 1.0 if change.result > 0 else -1.0)

    def of_whole_years(self, result: CalcResult) -> bool:
        """Whether a question about a quarter or half ('in the fourth quarter of 2022') has a result computed from
        whole years' figures only ('FY2021', 'FY2022'): an answer about another period than the one asked."""
        periods = [f.period or "" for f in result.sources.values()]
        return bool(self.query.part) and bool(periods) and all(re.fullmatch(r"FY\s?\d{4}", p) for p in periods)

    def result_asked(self, result: CalcResult) -> bool:
        """Whether a calculation's result may stand for the answer: for 'A as a percent of B', one computed from A
        (its inputs' labels say it); the change in B alone ('net sales grew 18.3%') tells nothing of A's share."""
        if self.query.left_out and any(not _names_excluding(f.label, self.query.left_out)
                                       for f in result.sources.values()):
            return False  # 'Leaving bitcoin aside, …': the totals' change counts bitcoin in
        share = self.share
        if not share:
            return True
        labels = " ".join(f.label for f in result.sources.values())
        return _says(labels, share[0]) or result.tool not in ("difference", "percentage_change", "growth_rate")

    def states_asked(self, fact: Fact) -> bool:
        """Whether the fact's row or sentence names everything the question's measure says, as a claim must
        (app/text/questions.states_measure): the group's 'Revenue' is no answer to 'satellite TV revenue', nor
        'Blended ARPU' to 'postpaid ARPU'."""
        # a name in the measure asked ('Foodservice's revenue', 'Copperleaf's Foodservice revenue') must stand in
        # the fact's own row or sentence, or be its segment: the group's 'Revenue' row is not the Foodservice's
        # a sentence's figure: the sentence up to it ('Consolidated revenue increased by $82.9m …, as … offset
        # lower … Media revenue' holds no Media figure: the name comes after it)
        if fact.origin == "text":
            from app.facts.query import _heading_over

            # and the heading over its paragraph ('Project Bedrock restructuring plan' over '… recognized $41
            # million of restructuring charges in fiscal 2024')
            block = self.by_chunk.get(fact.figure.chunk_id or "")
            heading = _heading_over(block.text, fact.figure.quote) if block is not None else None
            own = " ".join([heading or "", section_of(block) if block is not None else "",
                            _up_to_figure(fact.figure.quote, fact.figure.value),
                            # a count's noun follows its number ('repurchased approximately 11 million shares')
                            fact.figure.label if self.query.kind == "count" else ""])
            if self.query.measure.segment is None and block is not None and deal_names(self.query.measure.phrase):
                # the transaction the measure is of ('the Fenmoor Cold Storage acquisition') may be named in the
                # sentence before, which the figure's sentence goes on from ('Fenmoor was acquired for …
                # Provisional goodwill of £17.3m … have been recognised.')
                own = f"{_sentence_before(block.text, fact.figure.quote)} {own}"
        else:  # and its table's title ('Adjusted non-GAAP results' over 'EBITDA 2,117 2,018')
            own = f"{fact.figure.label} {fact.figure.quote} {fact.context}"
        if not self.names_asked_in(f"{own} {fact.segment or ''}"):
            return False
        if fact.origin == "text" and (segment := self.query.measure.segment) and jointly_stated(fact.figure.quote,
                                                                                                 segment):
            return False  # 'the Call of Duty, Candy Crush, and World of Warcraft franchises, collectively, accounted
            # for 67%': three parts' figure, none of them alone
        share = self.share
        if share and fact.origin == "text" and not _says(_up_to_figure(fact.figure.quote, fact.figure.value), share[0]):
            return False  # 'wages … as a percent of net sales': not 'As a percentage of net sales, SG&A expenses
            # decreased to 21.4%', whose later clause names wages
        if share and fact.origin != "text" and not _says(f"{fact.figure.label} {fact.context}", share[0]):
            return False  # nor the 'Net sales' row, the share's denominator
        if fact.origin != "text" and self.query.items and item_label_match(fact.figure.label, self.query.items[0]) \
                is not None:
            return True  # 'Purchases of land, buildings, and equipment' is the capital expenditure row
        # the segment asked was matched when the fact was chosen (next to the measure, for a sentence): it is
        # given, as a heading gives what its rows need not repeat
        segment = fact.segment or self.query.measure.segment or ""
        asked = self.query.measure.segment
        if asked and fact.segment and fact.segment != asked and same_member(asked, fact.segment):
            segment = f"{asked} {fact.segment}"  # ('CS' over the table of Commercial Services: the segment asked)
        if fact.origin == "text":
            said, context = fact.figure.quote or fact.figure.label, segment
            if self.query.kind == "count":  # 'employed (approximately) 4,215 people': the count, hedged or not,
                said = _COUNT_SAID.sub(" ", said)  # stands between verb and noun
            else:  # as a quantity does: 'repurchased approximately 11 million shares … for $352 million', and an
                # amount restated in shares ('repurchased approximately $431 million, …, or 41 million shares')
                said = _QUANTITY_SAID.sub(" ", _AMOUNT_OR.sub(" ", said))
        else:  # ('Adjusted EBIT as a percentage of net sales' is the adjusted EBIT margin)
            said, context = as_margin(fact.figure.label), " ".join(x for x in (segment, fact.context) if x)
        # a fact read for the measure ('restructuring costs') may be stated in its kindred word ('charges'), and
        # a row need not say 'total' ('Deposits $ 2,278.1' on the balance sheet are the total deposits)
        terms = measure_terms(self.question, self.companies)
        basis = _BASIS_STEMS if set(self.query.measure.stems) & _ADJUSTED_STEMS else frozenset()
        # ('Adjusted Non GAAP EBITDA': the 'Adjusted EBITDA' row, 'adjusted' marking the non-GAAP basis)
        terms = [set(t) - basis or set(t) for t in terms]
        if fact.origin != "text":
            terms = [set(t) - _TOTAL_WORDS or set(t) for t in terms]
        elif self.query.kind == "count" and (said_so := counted_as(self.query.measure.count_noun
                                                                   or self.query.measure.phrase)) and set(
                self.query.measure.stems) - COUNT_QUALIFIER_STEMS <= {*said_so, "employ"}:
            # a headcount asked in other words ('how many people did it employ'): any of the words reports state
            # one with ('35,000 full- and part-time employees') names it, as it does a total or worldwide one;
            # not one qualified otherwise ('union employees')
            terms = [*terms, *({s} for s in sorted(said_so))]
        # (an initialism of the asked words is those words: 'average MAUs' for 'monthly active users')
        said, context = spelled_out(said, self.query.measure.phrase), spelled_out(context, self.query.measure.phrase)
        if states_measure(terms, said, context, kindred=True):
            # but a row or sentence never leaves out the head noun that makes a long measure a ratio: 'Changes
            # related to other CET1 capital adjustments' names three of the four words of 'CET1 capital ratio',
            # and is no ratio
            # (a per cent or a multiple is a ratio by its unit: 'CET1 capital was 13.1%')
            head = analyze(_HEAD_ENDS.sub("", self.query.measure.phrase))[-1:]
            return (len(self.query.measure.stems) < 3 or not head or head[0] not in _RATIO_HEADS
                    or fact.figure.unit in ("%", "x") or stem_in_words(head[0], set(analyze(f"{said} {context}"))))
        # a measure of three words or more may be named by all but one ('Prepaid subscribers' in the wireless
        # table for 'prepaid wireless subscribers'), never without the segment asked (it is in `context`), and
        # a long one, worded as a question rather than a measure ('cash proceeds JnJ realised from the separation
        # of Kenvue'), by half of them
        words = set(self.query.measure.stems) - basis or set(self.query.measure.stems)
        have = set(analyze(f"{said} {context}"))
        hits = len({w for w in words if stem_in_words(w, have)})
        # the word that leads a named metric qualifies it, and is never the one left out: 'Cash flows' is no
        # 'free cash flow'
        lead = analyze(self.query.measure.phrase)[:1]
        if lead and not stem_in_words(lead[0], have) and find_metrics(self.query.measure.phrase):
            return False  # a metric's qualifier left out names another measure ('cash flow' for free cash flow)
        missed = {w for w in words if not stem_in_words(w, have)}
        if missed and missed <= _GROWTH_HEADS and fact.figure.unit.endswith("%") and _CHANGE_SAID.search(said):
            return True  # 'comparable sales growth' stated as 'Comparable sales increased 15.6%': the rise is it
        return (len(words) >= 3 and len(missed) <= 1 and all(_modifies_head(w, self.query.measure.phrase) for w in missed)) \
            or (len(words) >= 5 and 2 * hits >= len(words))

    def names_asked_in(self, text: str) -> bool:
        """Whether every name the measure asked holds ('Foodservice' of "Foodservice's revenue", 'China' of
        'revenue in China'; the companies' own names aside) stands in the text."""
        names = set(analyze(" ".join(self.companies)))
        folded = text.casefold()
        deals = deal_names(self.query.measure.phrase) if self.query.measure.segment is None else []
        for name in re.findall(r"\b[A-Z][a-z][\w'’-]*(?:\s+[A-Z][a-z][\w'’-]*)*", self.query.measure.phrase):
            # 'Total' of 'the Total revenue' is capitalised as a form writes measures, and names nothing
            proper = [w.removesuffix("'s").removesuffix("’s") for w in name.split()
                      if not set(analyze(w)) <= names and not any(c.isupper() for c in w[1:])  # 'JnJ': a short name
                      and not is_measure_word(w) and w.casefold() not in _BASIS_WORDS]
            if all(w.casefold() in folded for w in proper):
                continue
            # a transaction's business named in full ('the Fenmoor Cold Storage acquisition') is named by its first
            # word as reports shorten it ('Fenmoor')
            if not (name in deals and proper and proper[0] == name.split()[0]
                    and re.search(rf"\b{re.escape(proper[0].casefold())}\b", folded)):
                return False
        return True

    def verb(self, fact: Fact) -> str:
        return _agreeing(self.measure_words(fact))

    def when(self, fact: Fact) -> str:
        """The fact's period as `period_text` says it; a half the sentence leaves unnumbered ('interim dividend',
        'pcp') is the half asked ('in H1 FY2025'), which it fits."""
        asked = self.query.part
        part = asked if unnumbered_of(asked, fact.part) else fact.part
        return period_text(fact.figure, part)

    def at(self, fact: Fact) -> str:
        """'$1,577m in FY2018', or in the scale the question asks: '$8.7bn at the end of FY2018 (stated as
        $8,738m)'."""
        from app.models.providers.offline.composer.wording import in_asked_scale

        figure = fact.figure
        when = self.when(fact)
        shown = in_asked_scale(self.question, figure.value, figure.unit, None, quote=figure.quote)
        head, aside, tail = shown.partition(" (stated as ")
        if fact.origin == "text" and not aside and figure.unit in ("", "k", "m", "bn") \
                and (area := _area_written(figure)):
            head = area  # an area with its unit, as the text writes it: '118.9 million square feet', not '118.9m'
        if fact.origin == "text" and (hedge := _hedge_of(figure.quote, figure.value)):
            head = f"{hedge} {head}"  # 'approximately 315,000', as the sentence says it
        return f"{head} {when}".strip() + (f" (stated as {tail}" if aside else "")

    def change_answer(self) -> list[str]:
        if len(self.companies) < 2 and (pair := members_compared(self.question, self.companies)) is not None:
            return self.compare_members(pair)  # never the whole company's figure in the members' place
        if len(self.companies) < 2 and (lines := lines_compared(self.question, self.companies)) is not None:
            return self.compare_lines(lines)  # two measures side by side, not one measure's change
        if len(self.companies) < 2 and (growths := growths_compared(self.question, self.companies)) is not None:
            return self.compare_growths(growths)  # two measures' growth, never one measure's change
        facts = self.facts()
        if len(self.companies) >= 2:
            return self.compare_companies(facts)
        if self.query.left_out and self.ask.kind == "change":
            # 'Leaving bitcoin aside, by how much did total net revenue grow?': the change the report states without
            # it; the totals' own change counts it in
            return self.stated_move()
        if metric_pair(self.results) is not None and (said := self.metric_change()):
            return said  # the metric asked, computed for both periods: its inputs' rows are not what was asked
        if self.ask.kind == "yes_no_change" and (said := self.stated_change(facts, plain=True)):
            return said  # the period asked's own sentence says how it moved: no two figures of other bases side by side
        pair = self.two_periods(facts)
        if pair is not None and not all(self.states_asked(f) for f in pair):
            pair = None  # 'wages as a percent of net sales' is not told by the operating income row's change
        if pair is None:
            return self.metric_change() or self.stated_change(facts) or (
                self.stated_move() if self.ask.kind == "change" else [])
        old, new = pair
        ns = self.refs((old, new))
        if not ns:
            return []
        rose = new.figure.value > old.figure.value
        same = new.figure.value == old.figure.value
        verb = "was unchanged at" if same else "rose" if rose else "fell"
        subject = self.subject(new)
        if same:
            body = f"{subject} {verb} {as_stated(new.figure)} {self.when(new)}"
        else:
            body = (f"{subject} {verb} from {as_stated(old.figure)} {self.when(old)} to {as_stated(new.figure)} "
                    f"{self.when(new)}")
        refs = list(ns)
        change = self.computed_change(old.figure, new.figure)
        if change:
            body += f", {change}"
            refs = [self.calc_n, *ns] if self.calc_n else refs
        lead = cite(body, refs)
        if self.ask.kind == "yes_no_change":
            return [f"{self.verdict(old.figure.value, new.figure.value)} {lead}"]
        return [lead]

    def stated_move(self) -> list[str]:
        """A change a sentence states by its amount, with no level beside it ('Total net revenue for the year ended
        December 31, 2020, increased by $4.8 billion, or 101%, compared to the year ended December 31, 2019'): the
        words before the verb name the measure asked, the sentence the year asked (or none, in that year's
        report), no member but the one asked, and what it leaves out ('Excluding bitcoin revenue, total net revenue
        increased by $729.0 million, or 17%') only when the question leaves the same out. The first such sentence,
        restated and quoted; nothing when none."""
        measure = set(analyze(self.query.measure.phrase))
        year = max(self.query.years) if self.query.years else None
        segment = self.query.measure.segment
        if not measure:
            return []
        for block in self.reports:
            if block.kind != "report" or (year and not years_named(block.text) and block.fiscal_year != year):
                continue
            for sentence in whole_sentences(block.text):
                text = " ".join(_GLUED_SCALE.sub(r"\1 \2", sentence).split())
                moved = _MOVED_BY.search(text)
                if not moved:
                    continue
                before = text[:moved.start()]
                said = set(analyze(before))
                if not all(stem_in_words(w, said) for w in measure):
                    continue
                if segment and segment.casefold() not in before.casefold():
                    continue
                named = set(years_named(text))
                if year and (max(named) != year if named else block.fiscal_year != year):
                    continue  # (a change is of the later year it compares: 2020's, against 2019)
                if bool(part_named(text)) != bool(self.query.part):
                    continue  # a quarter's change is not the year's, nor the other way round
                kept_out = _KEPT_OUT.search(before)
                if bool(kept_out) != bool(self.query.left_out) or (kept_out and not all(
                        stem_in_words(w, set(analyze(kept_out.group("what")))) for w in self.query.left_out)):
                    continue
                who = _whose(block.company or (self.companies[0] if self.companies else ""))
                phrase = self.measure_words_plain()
                if kept_out:
                    left = " ".join(kept_out.group(0).split()).rstrip(", ")
                    phrase = f"{phrase}, {left[:1].lower()}{left[1:]},"
                verb = "increased" if moved.group("verb").lower() in ("increased", "rose", "grew") else "decreased"
                rate = f", or {moved.group('pct')}%," if moved.group("pct") else ""
                when = f" in FY{year}" if year else ""
                lead = cite(f"{who} {phrase} {verb} by {moved.group('amount').strip()}{rate}{when}", [block.n])
                return [lead, _report_says(_BULLET.sub("", text), block.n)]
        return []

    def rating_answer(self) -> list[str]:
        """A credit rating asked ('What is the average credit rating of the investment securities in its Treasury
        and CIO portfolio?'): the grade the sentence that holds the question's key words states ('… was AA+'),
        with the sentence quoted; nothing when no sentence gives one."""
        key = self.key_groups()
        if not key:
            return []
        spared = 1 if len(key) >= 4 else 0
        for block in self.reports:
            for sentence in whole_sentences(block.text):
                text = " ".join(sentence.split())
                words = set(analyze(text))
                if sum(any(stem_in_words(k, words) for k in g) for g in key) < len(key) - spared:
                    continue
                grade = _GRADE_STATED.search(text)
                if grade is None:
                    continue
                who = _whose(block.company or (self.companies[0] if self.companies else ""))
                when = read_dates(text)[0]
                day = f" as of {when[0][0]}" if when else ""
                asked = _WHAT_IS.match(asked_sentence(self.question))
                subject = (asked.group("subject")[:1].upper() + asked.group("subject")[1:] if asked
                           else f"{who} {self.measure_words_plain()}")  # ('The average credit rating of …')
                lead = cite(f"{subject} was {grade.group('grade')}{day}", [block.n])
                return [lead, _report_says(_BULLET.sub("", text), block.n)]
        return []

    def measure_words_plain(self) -> str:
        """The measure asked in the question's own words, lower-cased unless a name."""
        return _in_sentence(self.query.measure.phrase.strip())

    def stated_change(self, facts: Sequence[Fact], plain: bool = False) -> list[str]:
        """The period asked's figure whose own sentence states its change against the period before, when no
        two periods' figures are given ('Consolidated net revenues of $3.6 billion, an increase of 18% compared
        to the prior year quarter'): "MGM Resorts International's consolidated net revenues rose 18% to $3.6bn
        in Q4 FY2022", the sentence quoted. Only a change against the period before: not one against another
        year ('an increase of 25% over 2019 levels') nor another measure's ('excluding …'). `plain`: only a move
        worded by size (increased, fell), not by quality (improved), whose direction depends on the measure."""
        measure = set(analyze(self.query.measure.phrase))
        chosen = choose(facts, self.query)[:3]
        if self.ask.kind == "yes_no_change" and self.query.years and not self.query.part:
            # (a yes/no on a year's move is answered by a sentence of any part of that year: 'In February 2023, …
            # declared a first-quarter 2023 dividend of $1.50 per share, an increase of 1 percent')
            chosen += [f for f in facts if f.origin == "text" and f.part and f not in chosen
                       and f.figure.fiscal_year == max(self.query.years)]
        for fact in chosen:
            quote = fact.figure.quote or ""
            moved = _stated_direction(quote, measure) if fact.origin == "text" else 0
            move = _STATED_MOVE.search(quote)
            if plain and move and re.search(r"(?i)improv|deteriorat", move.group(0)):
                continue  # ('Net leverage improved to 2.6x': better, which for leverage is lower; `plain` reads only
                # words of size)
            # (against the period before, said so or left unsaid: 'declared a first-quarter 2023 dividend of $1.50
            # per share, an increase of 1 percent')
            against_prior = _AGAINST_PRIOR.search(quote) or (move and not _OTHER_BASE.search(quote[move.start():]))
            if not moved or not against_prior or not self.states_asked(fact) or (n := self.n_of(fact.figure)) is None:
                continue
            rate = _RATE_AFTER.match(quote[move.end():]) if move else None
            by = f" {rate.group(1)}%" if rate else ""
            body = (f"{self.subject(fact)} {'rose' if moved > 0 else 'fell'}{by} to {as_stated(fact.figure)} "
                    f"{period_text(fact.figure, fact.part)}")
            lead = cite(body, [n])
            said = _report_says(_BULLET.sub("", quote.strip()), n)
            if self.ask.kind == "yes_no_change":
                return [f"{self.verdict(0.0, float(moved))} {lead}", said]
            return [lead, said]
        return []

    def kept_answer(self) -> list[str]:
        """A yes/no on a change that the report says did not happen ('Did X cut its quarterly dividend after the
        separation?' / 'Company maintains its quarterly dividend of $1.19 per share'): 'No.' and the sentence that
        holds the thing asked with a verb of keeping it, cited. The occasion asked ('after completing …') and the
        change words are no words it must hold."""
        if self.ask.kind != "yes_no_change" or not self.ask.direction:
            return []
        key = self.thing_asked(_OCCASION_AFTER.sub("", asked_sentence(self.question)), CHANGE_WORDS)
        for block, sentence in self.sentences_holding(key) if key else []:
            if _KEPT.search(sentence):
                said = _unbulleted(sentence.strip()).rstrip(".")
                return [f"No. {cite(said, [block.n])}"]
        return []

    def leverage_answer(self) -> list[str]:
        """Whether an expense rose or fell as a percent of sales, when the report gives no figures for it but says
        it leveraged or deleveraged ('partially offset by deleverage of store payroll and benefits due to wage
        investments': wages rose as a share of sales; app/facts/leverage.py): the answer, then the sentence quoted
        whole, cited. A quarter's sentence answers only a question about a quarter; the year asked's filing first."""
        asked = asked_sentence(self.question)
        found = SHARE_OF_SALES.search(asked)
        if found is None:
            return []
        stems = expense_stems(asked)
        year = max(self.query.years) if self.query.years else None
        for block in sorted(self.reports, key=lambda b: b.fiscal_year != year):
            # 'in the fourth quarter of fiscal 2021' is not the year's (leverage_sentences)
            for sentence, direction in leverage_sentences(block.text, stems, self.query.part is not None):
                owner = re.split(r"['’]s\s+", asked[:found.start()])[-1]
                what = re.sub(r"(?i)^(?:did|does|do|has|have|had|is|was|were|how\s+\w+)\s+", "", owner).strip()
                moved = "rose" if direction > 0 else "fell"
                lever = "deleveraged" if direction > 0 else "leveraged"
                body = (f"{what[:1].upper()}{what[1:]} {moved} as a percent of net sales (the report says it "
                        f"{lever}): \"{sentence.rstrip('.')}.\"")
                return [f"{self.verdict(0.0, float(direction))} {cite(body, [block.n])}"]
        return []

    def metric_change(self) -> list[str]:
        """A change in a metric the calculator computed for two years, when no filing states it: "American
        Express' effective tax rate fell from 24.6% in FY2021 to 21.61% in FY2022, a change of -2.99 percentage
        points", citing the calculation and the statement rows behind both years."""
        pair = metric_pair(self.results)
        if pair is None or self.calc_n is None:
            return []
        (old, y0), (new, y1) = pair
        name = with_segment_named(_metric_name(new), [f for r in (old, new) for f in r.sources.values()])
        unit = "%" if new.unit == "%" else "x" if new.unit == "x" else new.unit
        a, b = old.rounded(2), new.rounded(2)
        company = next((f.company for f in new.sources.values() if f.company), self.companies[0] if self.companies
                       else "")
        moved = "was unchanged at" if a == b else "rose from" if b > a else "fell from"
        body = (f"{possessive(company or '')} {name} {moved} {amount(a, unit)} in {_result_period(old, y0)}"
                + ("" if a == b else f" to {amount(b, unit)} in {_result_period(new, y1)}"))
        diff = next((r for r in self.results if r.tool == "difference" and r.inputs.get("a") == new.result
                     and r.inputs.get("b") == old.result), None)
        if diff is not None and a != b:
            points = "percentage points" if unit == "%" else unit
            body += f", a change of {diff.result:+.2f} {points}".rstrip()
        refs = [self.calc_n, *(n for r in (old, new) for f in r.sources.values() if (n := self.n_of(f)) is not None)]
        lead = cite(body, list(dict.fromkeys(refs)))
        if self.ask.kind == "yes_no_change":
            return [f"{self.verdict(a, b)} {lead}"]
        return [lead]

    def compare_companies(self, facts: Sequence[Fact]) -> list[str]:
        """Two companies' facts for one period: which is higher, and by how much when the calculator said."""
        if asks_growth(self.query):
            return self.compare_growth()
        year = max(self.query.years) if self.query.years else None
        each = []
        for company in self.companies[:2]:
            own = [f for f in facts if (f.figure.company or "").casefold() == company.casefold()]
            best = choose(own, self.query, year=year)
            if not best:
                return []
            each.append(best[0])
        a, b = each
        measure = self.measure_words(a) or self.measure_words(b)
        if a.figure.unit != b.figure.unit:
            currencies = [unit_currency(f.figure.unit)[0] for f in (a, b)]
            ns = self.refs((a, b))
            if not all(currencies) or currencies[0] == currencies[1] or len(ns) < 2:
                return []
            # 'A$3,027.3m' against '£1,431.7m': both stated, neither called higher without an exchange rate
            said = " and ".join(f"{possessive(f.figure.company or '')} {measure} {self.verb(f)} "
                                f"{as_stated(f.figure)} {period_text(f.figure)}" for f in (a, b))
            return [cite(f"{said[:1].upper()}{said[1:]}", ns),
                    "They are stated in different currencies, and no exchange rate is held to compare them."]
        high, low = (a, b) if a.figure.value >= b.figure.value else (b, a)
        ns = self.refs((high, low))
        when = period_text(high.figure)
        if period_text(low.figure) != when and high.figure.value != low.figure.value:
            # each company's latest: say each one's period
            lead = (f"{high.figure.company} had more {measure} than {low.figure.company}"
                    if self.query.kind == "count" else
                    f"{possessive(high.figure.company or '')} {measure} {self.verb(high)} higher than "
                    f"{possessive(low.figure.company or '')}")
            return [cite(f"{lead}: {as_stated(high.figure)} {when} against "
                         f"{as_stated(low.figure)} {period_text(low.figure)}", ns)] if ns else []
        if high.figure.value == low.figure.value:
            body = (f"{possessive(high.figure.company or '')} and {possessive(low.figure.company or '')} {measure} "
                    f"were the same {when}, {as_stated(high.figure)}")
        else:
            body = (f"{possessive(high.figure.company or '')} {measure} was higher than "
                    f"{possessive(low.figure.company or '')} {when}: {as_stated(high.figure)} "
                    f"against {as_stated(low.figure)}")
            gap = next((r for r in self.results if r.tool == "difference" and {r.inputs.get("a"), r.inputs.get("b")}
                        == {high.figure.value, low.figure.value}), None)
            if gap is not None and self.calc_n is not None:
                # 'How much higher was …': by how much, as the calculator worked it out
                size = abs(round(gap.result, 4))
                shown = f"{size:g} percentage points" if high.figure.unit == "%" else amount(size, high.figure.unit)
                body = f"{body}, {shown} higher"
                ns = [self.calc_n, *ns]
        return [cite(body, ns)] if ns else []

    def compare_growth(self) -> list[str]:
        """Two companies' growth in one measure ('Whose operating profit grew faster, X's or Y's?'): each one's
        stated rate, else the calculator's from its two years' amounts; the faster first, each rate cited."""
        chosen = each_growth(self.query, self.reports, self.companies[:2])
        rates = []
        for company in self.companies[:2]:
            own = [f for f in chosen if (f.figure.company or "").casefold() == company.casefold()]
            if len(own) == 1 and own[0].figure.unit == "%" and (n := self.n_of(own[0].figure)) is not None:
                rates.append((company, own[0].figure.value, [n], own[0], ""))
            elif len(own) == 2 and self.calc_n is not None and (rate := self.computed_rate(*own)) is not None:
                refs = [self.calc_n, *(n for f in own if (n := self.n_of(f.figure)) is not None)]
                old, new = own
                levels = (f"{possessive(company)} {measure_phrase(new.figure.label)} went from {as_stated(old.figure)} "
                          f"{period_text(old.figure)} to {as_stated(new.figure)} {period_text(new.figure)}")
                rates.append((company, rate, refs, new, levels))
            else:
                return []
        (a, ca, ra, fa, la), (b, cb, rb, _, lb) = sorted(rates, key=lambda r: -r[1])
        noun = " ".join(w for w in self.query.measure.phrase.split()
                        if not set(analyze(w)) & CHANGE_STEMS) or "figure"
        lead = two_changes(possessive(a), ca, possessive(b), cb, measure_phrase(noun), period_text(fa.figure))
        # the amounts a computed rate was worked out from, each cited to its row
        levels = [cite(text, refs) for text, refs in ((la, ra), (lb, rb)) if text]
        return [cite(lead, list(dict.fromkeys([*ra, *rb]))), *levels]

    def computed_rate(self, old: Fact, new: Fact) -> float | None:
        """The calculator's growth rate from one figure to the other, unrounded; None when it computed none."""
        for r in self.results:
            if r.tool in ("percentage_change", "growth_rate") and {old.figure.value, new.figure.value} <= set(
                    r.inputs.values()):
                return r.exact if r.exact is not None else r.result
        return None

    def compare_members(self, pair: MembersCompared) -> list[str]:
        """Two members of one breakdown compared ('How did US sales growth compare to international sales
        growth'): each member's figure for the period asked, from the rows of the table that breaks the measure
        down; for a change, each one's change (the table's stated per cent change, else the calculator's or the
        two figures'), which is higher first. [] unless both members' rows are read: never the company's figure."""
        query = members_query(self.query, pair.measure, self.companies)
        by_member: dict[str, list[Fact]] = {}
        for fact in member_facts(query, self.reports, self.companies, known=(pair.first, pair.second)):
            by_member.setdefault(fact.segment or "", []).append(fact)
        names = [next((m for m in by_member if same_member(named, m)), None) for named in (pair.first, pair.second)]
        if None in names or names[0] == names[1]:
            return self.compare_members_in_prose(pair, query)
        chosen = {n: by_member[n] for n in names if n is not None}
        years = [f.figure.fiscal_year for facts in chosen.values() for f in facts if f.figure.fiscal_year]
        year = max(self.query.years) if self.query.years else max(years, default=None)
        noun = measure_phrase(query.measure.phrase) or "figure"
        if pair.of_change:
            ranked = self.ranked_changes(chosen, year)
            if len(ranked) != 2:
                return []
            ranked.sort(key=lambda r: -r[1])
            (a, ca, a_old, a_new, a_said), (b, cb, b_old, b_new, b_said) = ranked
            ns = self.refs((a_new, a_old, a_said, b_new, b_old, b_said))
            lead = two_changes(a, ca, b, cb, noun, period_text(a_new.figure))
            detail = "; ".join(f"{name} {noun} went from {as_stated(old.figure)} "
                               f"{period_text(old.figure)} to {as_stated(new.figure)} "
                               f"{period_text(new.figure)}" for name, _, old, new, _ in ranked)
            return [cite(lead, list(dict.fromkeys(ns))), cite(detail, list(dict.fromkeys(ns)))] if ns else []
        values = []
        for name in chosen:
            # the part of the year asked ('in the fourth quarter of 2022': the three months' column), else the year's
            at_year = [f for f in chosen[name] if f.figure.fiscal_year == year and parts_agree(self.query.part, f.part)
                       and not (f.figure.period or "").endswith("change")]
            if not at_year:
                return []
            values.append((name, at_year[0]))
        ranked = self.larger_first(values)
        if ranked is None:
            return []
        (a, fa), (b, fb), ns = ranked
        word = "the same as" if fa.figure.value == fb.figure.value else "higher than"
        lead = (f"{a} {noun} {_agreeing(noun)} {word} {b} {noun} {period_text(fa.figure)}: "
                f"{as_stated(fa.figure)} against {as_stated(fb.figure)}")
        gap = next((r for r in self.results if r.tool == "difference" and {r.inputs.get("a"), r.inputs.get("b")}
                    == {fa.figure.value, fb.figure.value}), None)
        if gap is not None and self.calc_n is not None and fa.figure.value != fb.figure.value:
            # '…, and by how much?': the difference of the two, as the calculator worked it out
            lead += f", a difference of {amount(abs(round(gap.result, 4)), fa.figure.unit)}"
            ns = [self.calc_n, *ns]
        return [cite(lead, ns)]

    def larger_first(self, named: Sequence[tuple[str, Fact]]
                     ) -> tuple[tuple[str, Fact], tuple[str, Fact], list[int]] | None:
        """Two named facts, the larger first, with the blocks that cite them; None when their units differ or
        neither is in a block."""
        (a, fa), (b, fb) = sorted(named, key=lambda v: -v[1].figure.value)
        ns = list(dict.fromkeys(n for f in (fa, fb) if (n := self.n_of(f.figure)) is not None))
        return ((a, fa), (b, fb), ns) if fa.figure.unit == fb.figure.unit and ns else None

    def compare_lines(self, lines: LinesCompared, first_larger_asked: bool | None = None) -> list[str]:
        """Two measures of one company in one period ('Which was larger for American Express in 2022, net interest
        income or net card fees?'): each measure's own line for the year asked (the latest both give when none
        is), the larger first, both cited. [] unless both are read in one unit. `first_larger_asked`: a yes/no on
        whether the first is the larger (True) or the smaller (False), answered 'Yes.'/'No.' first."""
        each = []
        for side in (lines.first, lines.second):
            query = members_query(self.query, side, self.companies)
            facts = [f for f in facts_for(query, self.reports, self.companies)
                     if f.match >= NAMES_MEASURE and f.part is None and f.segment is None
                     and not (f.figure.period or "").endswith("change")]
            each.append((side, query, facts))
        common = set.intersection(*({f.figure.fiscal_year for f in facts} for _, _, facts in each)) - {None}
        year = max(self.query.years) if self.query.years else max(common, default=None)
        chosen = []
        for side, query, facts in each:
            best = choose(facts, query, year=year) if year is not None else []
            if not best:
                return []
            chosen.append((side, best[0]))
        ranked = self.larger_first(chosen)
        if ranked is None:
            return []
        (a, fa), (b, fb), ns = ranked
        if first_larger_asked is not None:  # 'Did bitcoin bring in more revenue than the transaction-based business?'
            first_larger = a == lines.first and fa.figure.value != fb.figure.value
            verdict = "Yes." if first_larger == first_larger_asked and fa.figure.value != fb.figure.value else "No."
            lead = (f"{verdict} {_in_sentence(a)[:1].upper()}{_in_sentence(a)[1:]} {period_text(fa.figure)} was "
                    f"{'the same as' if fa.figure.value == fb.figure.value else 'larger than'} {_in_sentence(b)}: "
                    f"{as_stated(fa.figure)} against {as_stated(fb.figure)}")
            return [cite(lead, ns)]
        owner = possessive(self.companies[0]) if self.companies else "The"
        word = "the same as" if fa.figure.value == fb.figure.value else "larger than"
        lead = (f"{owner} {a} {period_text(fa.figure)} was {word} its {b}: {as_stated(fa.figure)} against "
                f"{as_stated(fb.figure)}")
        return [cite(lead, ns)]

    def compare_growths(self, growths: GrowthsCompared) -> list[str]:
        """Two measures of one company, each one's change over the same two periods ('Did Adobe's sales and
        marketing spending grow faster than its revenue in fiscal 2016?'): 'Yes.' or 'No.' on the order asked,
        then each one's growth from its two figures, each cited. [] unless both measures' own lines give both
        periods."""
        each = []
        for side in (growths.first, growths.second):
            pair = two_periods_of(members_query(self.query, side, self.companies), self.reports, self.companies)
            if pair is None:
                return []
            each.append((side, *pair))
        if len({(old.figure.fiscal_year, new.figure.fiscal_year) for _, old, new in each}) != 1:
            return []  # (each measure over its own years would compare nothing)
        # (each growth the calculator's, from the two figures: app/models/providers/offline/calculator.py)
        changes = [self.computed_percent(old.figure.value, new.figure.value) for _, old, new in each]
        refs = [[self.calc_n, *self.refs((old, new))] for _, old, new in each]
        if any(c is None for c in changes) or not self.calc_n or not all(len(r) > 1 for r in refs):
            return []
        rates = [c.figure.value for c in changes if c is not None]
        first_faster = rates[0] > rates[1]
        verdict = "Yes." if first_faster == growths.faster and rates[0] != rates[1] else "No."
        owner = possessive(self.companies[0]) if self.companies else "The"

        def grew(rate: float, old: Fact, new: Fact) -> str:
            moved = f"grew {rate:.1f}%" if rate > 0 else f"fell {abs(rate):.1f}%" if rate < 0 else "was unchanged"
            return f"{moved} {self.when(new)}, from {as_stated(old.figure)} to {as_stated(new.figure)}"

        (a, a_old, a_new), (b, b_old, b_new) = each
        than = "the same as" if rates[0] == rates[1] else "faster than" if first_faster else "slower than"
        return [cite(f"{verdict} {owner} {a} {grew(rates[0], a_old, a_new)}", refs[0]),
                cite(f"That is {than} its {b}, which {grew(rates[1], b_old, b_new)}", refs[1])]

    def compare_members_in_prose(self, pair: MembersCompared, query: FactQuery) -> list[str]:
        """Two members' changes as the prose states them, when no table breaks the measure down by them ('Sales
        by U.S. companies were $48.6 billion … This represents increases of 3.0% in 2022'): the faster first, then
        each member's sentence quoted whole, cited (app/facts/members.py). Two members' levels as their own
        sentences state them (`members_in_sentences`)."""
        if not pair.of_change:
            return self.members_in_sentences(pair, query)
        year = max(self.query.years) if self.query.years else None
        texts = [(b, b.text) for b in self.reports]
        # ('revenue growth': the sentence says its revenue 'increased by …, or 38%', the growth in the verb)
        stems = query.measure.stems - CHANGE_STEMS
        said = [member_statement(a, b, stems, texts, year, self.query.part)
                for a, b in ((pair.first, pair.second), (pair.second, pair.first))]
        if any(s is None or s.change is None for s in said):
            return []
        first, second = sorted((s for s in said if s is not None), key=lambda s: -(s.change or 0.0))
        noun = measure_phrase(query.measure.phrase) or "figure"
        when = f"in {self.query.part} {year}" if year and self.query.part else f"in {year}" if year else ""
        lead = two_changes(first.member, first.change or 0.0, second.member, second.change or 0.0, noun, when)
        refs = list(dict.fromkeys(s.where.n for s in (first, second)))
        # each member's own sentence, quoted whole: the levels behind the change the lead states
        return [cite(lead, refs), *(cite(f'The report says: "{_BULLET.sub("", s.sentence.strip())}"', [s.where.n])
                                    for s in (first, second))]

    def members_in_sentences(self, pair: MembersCompared, query: FactQuery) -> list[str]:
        """Two members' figures for the period asked, each from a sentence (or the heading over it) that names the
        member ('With approximately 35,000 employees … the Flexibles Segment is …'; '… approximately 5,000
        employees … the Rigid Packaging Segment …'): the larger first, each sentence quoted, cited. [] unless
        both are read in one unit."""
        year = max(self.query.years) if self.query.years else None
        chosen = []
        for member in (pair.first, pair.second):
            asked = replace(query, measure=replace(query.measure, segment=member))
            found = [f for f in facts_for(asked, self.reports, self.companies) if f.origin == "text"
                     and (year is None or f.figure.fiscal_year in (year, None)) and self.of_member_sentence(f, member)]
            best = choose(found, asked) or found
            if not best:
                return []
            chosen.append((member, best[0]))
        ranked = self.larger_first(chosen)
        if ranked is None or chosen[0][1].figure.quote == chosen[1][1].figure.quote:
            return []
        (a, fa), (b, fb), ns = ranked
        noun = measure_phrase(query.measure.phrase) or "figure"
        word = "the same as" if fa.figure.value == fb.figure.value else "larger than"
        lead = (f"{possessive(a)} {noun} was {word} {possessive(b)}: {as_stated(fa.figure)} against "
                f"{as_stated(fb.figure)}")
        return [cite(lead, ns), *(_report_says(_BULLET.sub("", f.figure.quote.strip()), n)
                                  for f in (fa, fb) if (n := self.n_of(f.figure)) is not None)]

    def of_member_sentence(self, fact: Fact, member: str) -> bool:
        """Whether a sentence's figure is the member's: the sentence names the member."""
        quote = " ".join((fact.figure.quote or "").split())
        return member.casefold() in quote.casefold()

    def verdict(self, old: float, new: float) -> str:
        up = new > old
        if self.ask.either:
            a, b = self.ask.either
            from app.text.question_kinds import _CHANGE_WORD

            a_up = bool(_CHANGE_WORD.fullmatch(a) and _CHANGE_WORD.fullmatch(a).group("up"))
            word = a if a_up == up else b
            return word[:1].upper() + word[1:] + "."
        if new == old:
            return "No."
        direction = self.ask.direction
        if _JUDGED_CHANGE.search(asked_sentence(self.question)) and _LOWER_IS_BETTER.search(self.query.measure.phrase):
            direction = -direction  # leverage that 'deteriorated' rose; costs that 'improved' fell
        return "Yes." if (up and direction > 0) or (not up and direction < 0) else "No."

    def computed_change(self, old: Figure, new: Figure) -> str:
        """', a fall of €175.7m, or 6.5%' from the calculation results over these two figures ('' without one)."""
        diff = pct = None
        for r in self.results:
            values = set(r.inputs.values())
            if {old.value, new.value} <= values or {abs(old.value), abs(new.value)} <= values:
                if r.tool in ("percentage_change", "growth_rate"):
                    pct = r.exact if r.exact is not None else r.result
                elif r.tool == "difference":
                    diff = r.result
        parts = []
        rate = new.unit.endswith("%")
        if diff is not None:
            size = abs(round(diff, 4))
            shown = f"{size:g} percentage points" if rate else amount(size, new.unit)
            parts.append(f"{'an increase' if diff > 0 else 'a decrease'} of {shown}")
        if pct is not None and not rate and old.value > 0 and new.value >= 0:
            # (no per cent of a loss: '-$52m' to '$209m' is a swing, not a rise of 501.9%)
            shown_pct = f"{abs(round(pct, 1)):g}%"  # rounded once, from the unrounded result
            parts.append(shown_pct if parts else f"{'an increase' if pct > 0 else 'a decrease'} of {shown_pct}")
        return ", or ".join(parts)

    def two_periods(self, facts: Sequence[Fact]) -> tuple[Fact, Fact] | None:
        return two_periods(facts, self.query)

    def extreme_answer(self) -> list[str]:
        """The member of a breakdown (segment, region, kind) with the highest or lowest figure in the period, or
        the biggest rise or fall; the others follow for comparison. Else the row of one table that ranks so."""
        asked = asked_sentence(self.question)
        if statement_kinds(asked) and not (SEGMENT_ASKED.search(asked) or REGION_ASKED.search(asked)):
            # 'the largest liability in its balance sheet': the statement's rows, not a breakdown's members
            return self.extreme_row() or self.extreme_member()
        return self.extreme_period() or self.extreme_member() or self.extreme_row()

    def extreme_period(self) -> list[str]:
        """'Which quarter of 2015 delivered its lowest net income?': the quarters of the year asked (else the
        latest), each as a table of quarterly data states it, ranked; the others follow. Nothing unless every
        quarter of the year is stated, nor for any other unit of time."""
        found = _WHICH_PERIOD.match(asked_sentence(self.question))
        if not found or self.query.measure.segment:
            return []
        facts = [f for f in self.facts() if f.match >= NAMES_MEASURE and f.origin != "text" and f.part
                 and re.fullmatch(r"Q[1-4]", f.part) and f.figure.fiscal_year and not f.figure.unit.endswith("%")]
        year = max(self.query.years) if self.query.years else max((f.figure.fiscal_year for f in facts), default=0)
        by_part: dict[str, Fact] = {}
        for fact in sorted(facts, key=lambda f: -f.match):
            if fact.figure.fiscal_year == year:
                by_part.setdefault(fact.part or "", fact)
        if sorted(by_part) != ["Q1", "Q2", "Q3", "Q4"]:
            return []
        low = self.ask.extreme < 0
        pick = (min if low else max)(by_part.values(), key=lambda f: f.figure.value)
        others = [by_part[p] for p in sorted(by_part) if by_part[p] is not pick]
        owner = possessive(pick.figure.company or self.companies[0])
        word = "lowest" if low else "highest"
        lead = cite(f"{pick.part} {year} had {owner} {word} {measure_phrase(pick.figure.label)} of the year: "
                    f"{as_stated(pick.figure)}", self.refs([pick]))
        rest = cite(f"Its {measure_phrase(pick.figure.label)} in the other quarters: "
                    + "; ".join(f"{f.part} {year} {as_stated(f.figure)}" for f in others),
                    self.refs(others))
        return [lead, rest]

    def extreme_member(self) -> list[str]:
        members = asked_kind_of_member(member_facts(self.query, self.reports, self.companies), self.question,
                                       lambda f: f.segment or "", member_table)
        members = within_parent(members, self.query.measure.segment, lambda f: f.segment or "", lambda f: f.context)
        # (a product schedule's worldwide rows mix franchises and their brands, one heading a line, in chunks
        # that hold a few of them: no complete set of members to rank, statements.regional_split_rows)
        members = [f for f in members if not _WORLDWIDE_ROW.match(f.figure.quote or "")]
        if outside := LEFT_OUT.search(asked_sentence(self.question)):  # 'Outside the United States, which region …'
            members = [f for f in members if not same_member(outside.group("member"), f.segment or "")]
        members = members_in_filing_scale(members, self.query, self.reports, self.companies)
        if SEGMENT_ASKED.search(asked_sentence(self.question)):
            # a segment asked: a table's line items ('Net sales to external customers', 'Core operating income') are
            # no segments, nor the kinds of a breakdown by type
            # ('Revenue by type': Services, Equipment); the segments the report lists, when it lists them, are
            # the members, each one no table read gives read on its own
            members = [f for f in members if not is_line_item_name(f.segment or "")]
            listed = named_segments(b.text for b in self.reports)
            if listed:
                members = [f for f in members if any(same_member(n, f.segment or "") for n in listed)]
                members += self.listed_segment_facts([n for n in listed if not any(
                    same_member(n, f.segment or "") for f in members)])
        if not members:
            return []
        by_member: dict[str, list[Fact]] = {}
        for fact in members:  # 'Consumer Business' on its own page is the segment table's 'Consumer'
            name = next((k for k in by_member if same_member(k, fact.segment or "")), fact.segment or "")
            by_member.setdefault(name, []).append(fact)
        years = [f.figure.fiscal_year for f in members if f.figure.fiscal_year]
        year = max(self.query.years) if self.query.years else max(years, default=None)
        falling = bool(re.search(r"(?i)\b(?:fall|fell|drop|declin|decreas|worst|weakest|slowest|dragged|held back|"
                                 r"lowest|least|smallest)", asked_sentence(self.question)))
        if self.ask.of_change and (rates := self.stated_rates(by_member, year)):
            # a table of each member's change ('Increases in net sales: U.S. 16 % … Other International 23 %'):
            # the changes it states are ranked, never read as levels
            name, rate = (min if falling else max)(rates, key=lambda r: r[1].figure.value)
            ns = self.refs(f for _, f in rates)
            measure = _breakdown_measure(self.query.measure.phrase) or measure_phrase(rate.figure.label)
            verb = "fell" if rate.figure.value < 0 else "rose"
            lead = (f"{name} {verb} most" if (verb == "fell") == falling else f"{name} did best") + (
                f": its {measure} {verb} {as_stated(rate.figure.model_copy(update={'value': abs(rate.figure.value)}))}"
                f" {period_text(rate.figure)}")
            others = [f"{n} {as_stated(f.figure)}" for n, f in rates if n != name]
            return [cite(lead, ns[:1] if ns else []), *([cite(f"The others: {'; '.join(others)}", ns[:1])]
                                                        if others and ns else [])]
        if self.ask.of_change:
            ranked = self.ranked_changes(by_member, year)
            pick = (min if falling else max)(ranked, key=lambda r: r[1]) if ranked else None
            if pick is None:
                return []
            name, _, old, new, stated = pick
            ns = self.refs((new, old, stated))
            change = f", {as_stated(stated.figure)}" if stated is not None else ""
            verb = "fell" if new.figure.value < old.figure.value else "rose"
            measure = _breakdown_measure(self.query.measure.phrase) or measure_phrase(new.figure.label)
            lead = (f"{name} {verb} most" if (verb == "fell") == falling else f"{name} did best") + (
                f": its {measure} {verb} from "
                f"{as_stated(old.figure)} {period_text(old.figure)} to "
                f"{as_stated(new.figure)} {period_text(new.figure)}{change}")
            others = [f"{n} {as_stated(s.figure)}" for n, _, _, _, s in ranked
                      if n != name and s is not None]
            out = [cite(lead, ns)]
            if others:
                out.append(cite(f"The others: {'; '.join(others)}", ns[-1:]))
            return out
        def of_period(fact: Fact) -> bool:
            return fact.figure.fiscal_year == year and not (fact.figure.period or "").endswith("change") and not (
                self.query.kind == "money" and fact.figure.unit.endswith("%"))  # an amount's rate is no amount

        # the period asked: the whole year unless the question names a half or quarter, where a table has both
        wanted_part = self.query.part
        values = []
        for name, facts in by_member.items():
            dated = [f for f in facts if of_period(f)]
            same_part = [f for f in dated if part_fits(wanted_part, f.part)]
            if wanted_part and not same_part:
                continue  # a quarter asked: the year's figure is no answer (fail closed)
            if dated:
                values.append((name, (same_part or dated)[0]))
        # the rows of one table are ranked: those of the page holding most members, unless each member has a page
        # of its own (a deferred-tax table's 'Net carryforwards' is no division, whatever its title shares with
        # the question; a table cut across chunks is still one page's)
        tables = Counter(f.figure.source_id for _, f in values).most_common()
        if len(tables) > 1 and tables[0][1] >= 2:
            values = [(m, f) for m, f in values if f.figure.source_id == tables[0][0]]
        if len(values) < 2:
            return []
        name, fact = (max if self.ask.extreme > 0 else min)(values, key=lambda v: v[1].figure.value)
        n = self.n_of(fact.figure)
        if n is None:
            return []
        word = "highest" if self.ask.extreme > 0 else "lowest"
        if self.query.kind == "count":
            word = "most" if self.ask.extreme > 0 else "fewest"  # 'the fewest employees', a count's own words
        measure = _breakdown_measure(self.query.measure.phrase) or measure_phrase(fact.figure.label)
        if self.ask.topic == "loss":
            return self.loss_answer(name, fact, values, measure)
        # its share of the whole, when asked and the calculator summed the table's rows (plan_member_share)
        share = next((r for r in self.results if r.tool == "evaluate" and r.inputs.get("x1") == fact.figure.value),
                     None) if asks_share(self.question) and self.calc_n is not None else None
        # rounded once, from the unrounded share
        of_whole = f", {share.rounded(1):.1f}% of the total of the table's rows" if share is not None else ""
        lead = cite(f"{name} had the {word} {measure} {period_text(fact.figure)}: "
                    f"{as_stated(fact.figure)}{of_whole}",
                    self.ns_of(fact.figure) if share is None else [n, self.calc_n])
        # the others in the same unit; from the same table, unless each member has a table of its own ('TABLE 9:
        # USCS …', 'TABLE 11: CS …'), each cited to its own
        others = [(m, f) for m, f in values if m != name and f.figure.unit == fact.figure.unit]
        if any(member_table(f) == member_table(fact) for _, f in others):
            others = [(m, f) for m, f in others if member_table(f) == member_table(fact)]
        if not others:
            return [lead]
        refs = list(dict.fromkeys(k for _, f in others if (k := self.n_of(f.figure)) is not None)) or [n]
        return [lead, cite(f"The others: {'; '.join(f'{m} {as_stated(f.figure)}' for m, f in others)}", refs)]

    def loss_answer(self, name: str, fact: Fact, values: Sequence[tuple[str, Fact]], measure: str) -> list[str]:
        """'Which division ended 2022 with an operating loss?': the members whose result is below zero, the
        largest loss first, or that none was (the lowest result said); then the others."""
        n = self.n_of(fact.figure)
        said = re.search(r"(?i)\b(?:(?:operating|net|pre-?tax|segment)\s+)?loss(?:es)?\b", self.question)
        loss = said.group(0).lower() if said else "loss"
        losers = [(m, f) for m, f in values if f.figure.value < 0]
        when = period_text(fact.figure)
        if not losers:
            lead = f"None had {_with_article(loss)} {when}: {name} had the lowest {measure}, {as_stated(fact.figure)}"
        else:
            amount = as_stated(fact.figure.model_copy(update={"value": abs(fact.figure.value)}))
            only = ", the only one" if len(losers) == 1 else ""
            lead = f"{name} had {_with_article(loss)} {when}{only}: {amount}"
            if len(losers) > 1:
                lead += "; also " + "; ".join(
                    f"{m} {as_stated(f.figure.model_copy(update={'value': abs(f.figure.value)}))}"
                    for m, f in losers if m != name)
        others = [(m, f) for m, f in values if f.figure.value >= 0 and m != name and f.figure.unit == fact.figure.unit]
        out = [cite(lead, [n] if n is not None else [])]
        refs = list(dict.fromkeys(k for _, f in others if (k := self.n_of(f.figure)) is not None))
        if others and refs:
            out.append(cite(f"The others' {measure}: {'; '.join(f'{m} {as_stated(f.figure)}' for m, f in others)}",
                            refs))
        return out

    def listed_segment_facts(self, names: Sequence[str]) -> list[Fact]:
        """Each segment the report lists in words ('two reportable segments: Machine Tools (…) and Precision
        Components (…)'), with its figure for the measure in the year asked (the latest read, else) and the year
        before, read as a question about that segment alone would read it."""
        out: list[Fact] = []
        for name in names:
            query = replace(self.query, measure=replace(self.query.measure, segment=name))
            facts = facts_for(query, self.reports, self.companies)
            years = set(self.query.years) or {max((f.figure.fiscal_year or 0 for f in choose(facts, query)),
                                                  default=0)}
            for year in sorted({y for top in years if top for y in (top, top - 1)}):
                best = choose(facts, query, year=year)
                if best:
                    out.append(replace(best[0], segment=name))
        return out

    def extreme_row(self) -> list[str]:
        """The row of one table that is highest or lowest in the period, when the question ranks rows by their
        kind ('Which activity brought in the most cash': the cash flow summary's activities; 'the largest
        liability': the balance sheet's liabilities), then the others."""
        if self.ask.of_change:
            return []
        rows = row_members(member_noun(self.question), self.query, self.reports, self.companies,
                           asked_sentence(self.question))
        rows = members_in_filing_scale(rows, self.query, self.reports, self.companies)
        if SEGMENT_ASKED.search(asked_sentence(self.question)):
            # a segment asked: a statement's line items ('Net income attributable to Amcor plc') are no segments
            rows = [f for f in rows if not _LINE_ITEM_ROW.search(f.segment or "")]
        years = [f.figure.fiscal_year for f in rows if f.figure.fiscal_year and f.part is None]
        year = max(self.query.years) if self.query.years else max(years, default=None)
        values: dict[str, Fact] = {}
        for fact in rows:
            if fact.figure.fiscal_year == year and fact.part is None:
                values.setdefault(fact.segment or "", fact)
        if len(values) < 2:
            return []
        # 'used the most cash': the largest outflow, the most negative row
        used = re.search(r"(?i)\b(?:used|spent|consumed|absorbed|outflows?)\b", asked_sentence(self.question))
        highest = (self.ask.extreme > 0) != bool(used)
        name, fact = (max if highest else min)(values.items(), key=lambda v: v[1].figure.value)
        n = self.n_of(fact.figure)
        if n is None:
            return []
        said = re.search(r"(?i)\b(largest|biggest|greatest|smallest|highest|lowest)\b", asked_sentence(self.question))
        word = said.group(1).lower() if said else "highest" if self.ask.extreme > 0 else "lowest"
        word = "largest outflow" if used and self.ask.extreme > 0 else word
        shown = abs(fact.figure.value) if used and fact.figure.value < 0 else fact.figure.value  # an outflow's size
        # beside the total the table states ('Short-term investments 507,726'), which its members add up to
        total = fact.of_total
        at_total = self.n_of(total) if total is not None else None
        share = (f", of a total of {as_stated(total)}" if total is not None and at_total is not None
                 and not used and (fact.figure.value > 0) == (total.value > 0) else "")
        # its share of that total, as the calculator worked it out (plan_row_share), rounded once
        of_it = next((r for r in self.results if r.tool == "evaluate" and total is not None
                      and r.inputs.get("x1") == fact.figure.value and r.inputs.get("x2") == total.value), None) \
            if share and self.calc_n is not None else None
        if of_it is not None:
            share = f", {of_it.rounded(1):.1f}% of the total of {as_stated(total)}"
        refs = sorted({n, at_total}) if share and at_total is not None else [n]
        lead = cite(f"{_short_member(name)} was the {word}, at {amount(shown, fact.figure.unit)} "
                    f"{period_text(fact.figure, self.query.part)}{share}",
                    [*refs, self.calc_n] if of_it is not None and self.calc_n is not None else refs)
        others = [f"{_short_member(m)} {as_stated(f.figure)}" for m, f in values.items()
                  if m != name]
        ns = sorted({k for m, f in values.items() if m != name and (k := self.n_of(f.figure)) is not None})
        return [lead, cite(f"The others: {'; '.join(others)}", ns or [n])]

    def stated_rates(self, by_member: dict[str, list[Fact]], year: int | None) -> list[tuple[str, Fact]]:
        """Each member's change in the year as a table of changes states it, a per cent under a heading that says
        so ('Increases in net sales:'), when the measure asked is an amount; [] when not every member has one."""
        if self.query.kind != "money" or year is None:
            return []
        rates = []
        for name, facts in by_member.items():
            rate = next((f for f in facts if f.figure.unit == "%" and f.figure.fiscal_year == year and f.part is None
                         and _CHANGES_HEADING.search(f.context or "")), None)
            if rate is None:
                return []
            rates.append((name, rate))
        return rates if len(rates) >= 2 else []

    def ranked_changes(self, by_member: dict[str, list[Fact]], year: int | None
                       ) -> list[tuple[str, float, Fact, Fact, Fact | None]]:
        """(member, change ranked by, earlier fact, later fact, the stated change) for each member with two
        periods: the stated per cent change where the table gives one, else the relative change of the two."""
        out = []
        # the quarter or half asked where the members are given for it ('in the second quarter … which region's
        # net sales fell'), else the whole years
        asked = self.query.part

        def of_part(fact: Fact) -> bool:  # ('Q' of a quarter the table leaves unnumbered is the one asked)
            return part_fits(asked, fact.part)

        part_given = any(of_part(f) for fs in by_member.values() for f in fs)
        for name, facts in by_member.items():
            dated = {f.figure.fiscal_year: f for f in reversed(facts) if f.figure.fiscal_year
                     and not (f.figure.period or "").endswith("change")
                     and (of_part(f) if part_given else f.part is None)}
            latest = year if year in dated else max(dated, default=None)
            if latest is None or latest - 1 not in dated:
                continue
            new, old = dated[latest], dated[latest - 1]
            stated = next((f for f in facts if (f.figure.period or "").startswith("%")), None)
            computed = self.computed_percent(old.figure.value, new.figure.value)
            if stated is not None:
                out.append((name, stated.figure.value, old, new, stated))
            elif computed is not None:
                out.append((name, computed.figure.value, old, new, computed))
            elif old.figure.value:
                out.append((name, (new.figure.value - old.figure.value) / abs(old.figure.value) * 100, old, new, None))
        return out

    def computed_percent(self, old: float, new: float) -> Fact | None:
        """The calculator's per cent change between these two values, as a fact citing the calculation block."""
        for r in self.results:
            if r.tool in ("percentage_change", "growth_rate") and r.inputs.get("old") == old and r.inputs.get("new") == new:
                figure = Figure(label="change", value=r.rounded(1), unit="%", source_id="calculation",
                                chunk_id="calculation", period="% change")
                return Fact(figure=figure, origin="calculation", match=1.0)
        return None

    def n_of(self, figure: Figure) -> int | None:
        if figure.chunk_id == "calculation":
            return self.calc_n
        block = self.by_chunk.get(figure.chunk_id or "")
        return block.n if block is not None else None

    def refs(self, facts: Iterable[Fact | None]) -> list[int]:
        """The blocks the facts are cited to, each with the block that heads its table (`ns_of`), once each."""
        return list(dict.fromkeys(n for f in facts if f is not None for n in self.ns_of(f.figure)))

    def ns_of(self, figure: Figure) -> list[int]:
        """The blocks a figure is cited to: its own, and the block that heads its table when chunking cut the
        table's header from its rows (app/facts/query.split_tables): the period the answer states stands there."""
        n = self.n_of(figure)
        if n is None:
            return []
        if self._table_heads is None:
            self._table_heads = {j.chunk_id: j.head_chunk_id for j in split_tables(self.reports)}
        head = self.by_chunk.get(self._table_heads.get(figure.chunk_id or "") or "")
        return [n] if head is None or head.n == n else [head.n, n]

    def judgement_answer(self) -> list[str]:
        """'Yes.'/'No.', the metric the judgement rests on (the filing's own figure, else the calculator's) with
        its period, then the convention applied (app/judgements.py)."""
        from app.judgements import convention_for, own_measure

        convention = convention_for(self.question)
        if convention is None:
            return []
        if convention.topic == "regulatory capital":  # each ratio against the minimum its own table sets
            return self.capital_answer(convention)
        if convention.measures[0].lower() in (m.lower() for m in convention.metrics) and own_measure(self.question):
            # the question names a metric the calculator computes ('capital expenditure relative to revenue'); a
            # convention's own metric is read as the filing states it first ('Free cash flow conversion rate 143%')
            computed = self.judged_by_calculation(convention)
            if computed:
                return computed
        main: list[str] = []
        used: set[str] = set()
        for measure in convention.measures:
            unit = _measure_unit(measure, convention.unit)
            query = read_query(f"What was the {measure}?", self.companies, list(self.query.years))
            query = replace(query, kind="percent" if unit == "%" else "ratio")
            # the measure named well enough, in its unit; among them the best named for the latest period
            # ('Net debt / Adjusted EBITDA 4.11x' answers 'net debt to EBITDA' though 'adjusted' is extra)
            facts = [f for f in facts_for(query, self.reports, self.companies)
                     if f.match >= JUDGED_MATCH and _fits_unit(f.figure.unit, unit) and not names_a_part(f, query)]
            if convention.rule in ("rising", "falling"):
                pair = two_periods(facts, query)
                if pair is None:
                    continue
                old, new = pair
                verdict = convention.holds(new.figure.value, old.figure.value)
                ns = self.refs((new, old))
                if verdict is None or not ns:
                    continue
                moved = "rose" if new.figure.value > old.figure.value else "fell"
                body = (f"{possessive(new.figure.company or self.companies[0])} {_named(new, measure)} {moved} from "
                        f"{as_stated(old.figure)} {period_text(old.figure)} to "
                        f"{as_stated(new.figure)} {period_text(new.figure)}")
                return [f"{self.judged(verdict)} {cite(body, ns)}", convention.says]
            best = choose(facts, query)  # the measure named in full
            if not best:
                continue
            fact = best[0]
            n = self.n_of(fact.figure)
            name = _named(fact, measure)
            key = f"{fact.figure.value}|{fact.figure.unit}|{fact.figure.fiscal_year}"
            if n is None or name.lower() in used or key in used:
                continue
            body, ns = self.with_year_before(fact, facts, query, name), self.ns_of(fact.figure)
            if not main:  # the measure the judgement is decided by
                verdict = convention.holds(fact.figure.value) if unit == convention.unit else None
                if verdict is None or convention.threshold is None:
                    continue
                main = [f"{self.judged(verdict)} {cite(body, ns)}"]
            else:  # another measure the same convention reads, stated beside it
                main.append(cite(body[:1].upper() + body[1:], ns))
            used |= {name.lower(), key}
            if len(main) == 2:
                break
        if main:
            return [*main, convention.says]
        return self.judged_by_calculation(convention)

    def capital_answer(self, convention: Any) -> list[str]:
        """A bank's regulatory capital judged: each ratio it holds against the minimum its capital table sets
        beside it (`capital_held`); the lead is 'Yes' only when every ratio is at or above its minimum. Nothing
        when no admitted table states both."""
        ordered = self.capital_held()
        if not ordered:
            return []
        ns = list(dict.fromkeys(b.n for _, b in ordered))
        first = ordered[0][0]
        if (moved := _CAPITAL_MOVED.search(self.question)) is not None:
            # 'Is its regulatory capital cushion getting thinner?': the first ratio against its own a period before
            return self.capital_trend(first, ns, bool(moved.group("down") or moved.group("down2")), convention)
        lead = self.judged(all(r.held >= r.minimum for r, _ in ordered))
        place = "above" if first.held > first.minimum else "at" if first.held == first.minimum else "below"
        out = [f"{lead} " + cite(f"At {_day_said(first.day)} {possessive(first.entity or self.companies[0])} "
                                 f"{_capital_name(first)} was {first.held:.1f}%, {place} the minimum of "
                                 f"{first.minimum:.1f}% its capital table sets beside it", ns)]
        rest = [f"{_capital_name(r)}{' was' if i == 0 else ''} {r.held:.1f}% (minimum {r.minimum:.1f}%)"
                for i, (r, _) in enumerate(ordered[1:])]
        if rest:
            out.append(cite("Its " + ", ".join(rest[:-1]) + (" and " if len(rest) > 1 else "") + rest[-1], ns))
        return [*out, convention.says]

    def capital_trend(self, latest: Any, ns: list[int], down: bool, convention: Any) -> list[str]:
        """A bank's capital asked as a trend ('getting thinner', 'building up'): its first ratio at the latest day
        against the same ratio of the same entity at the day before it that its capital tables state, 'Yes.' when
        it moved the way asked; nothing when no earlier day is stated."""
        from app.facts.capital import capital_ratios, held_ratios

        # (a year before's ratio as the capital table states it, else as a note's table of ratios held does)
        earlier = sorted(((r, b) for b in self.reports for r in [*capital_ratios(b.text), *held_ratios(b.text)]
                          if r.day and r.day < latest.day and r.measure == latest.measure
                          and r.entity == latest.entity), key=lambda pair: pair[0].day, reverse=True)
        if not earlier or earlier[0][0].held == latest.held:
            return []
        before, block = earlier[0]
        fell = latest.held < before.held
        refs = list(dict.fromkeys([*ns, block.n]))
        lead = (f"{'Yes.' if fell == down else 'No.'} At {_day_said(latest.day)} "
                f"{possessive(latest.entity or self.companies[0])} {_capital_name(latest)} was {latest.held:.1f}%, "
                f"{'down' if fell else 'up'} from {before.held:.1f}% at {_day_said(before.day)}, against a minimum "
                f"of {latest.minimum:.1f}% its capital table sets beside it")
        return [cite(lead, refs), convention.says]

    def capital_figure(self) -> list[str]:
        """A regulatory capital ratio asked as a figure ('What was its CET1 capital ratio at March 31, 2021?'):
        the ratio held, with the minimum its table sets beside it; the minimum first when that is what is asked.
        Never a requirement in the ratio's place, nor a target range ('within our target range of 10 to 11
        percent')."""
        from app.facts.capital import measure_named

        measure = measure_named(self.question)
        found = [(r, b) for r, b in self.capital_held() if r.measure == measure] if measure else []
        if not found:
            return []
        ratio, block = found[0]
        owner = possessive(ratio.entity or self.companies[0])
        if re.search(r"(?i)\bminimum\b|\brequire(?:d|ments?)\b", self.question):
            return [cite(f"The minimum {_capital_name(ratio)} {owner} capital table sets at {_day_said(ratio.day)} "
                         f"was {ratio.minimum:.1f}%, against the {ratio.held:.1f}% it held", [block.n])]
        return [cite(f"{owner} {_capital_name(ratio)} was {ratio.held:.1f}% at {_day_said(ratio.day)}, against a "
                     f"minimum of {ratio.minimum:.1f}% its capital table sets beside it", [block.n])]

    def capital_held(self) -> list[tuple[Any, Block]]:
        """The regulatory capital ratios the admitted blocks' capital tables state (app/facts/capital.py), in the
        order of `MEASURES`: of the day of the year asked (else the latest day), of the company's own row before a
        subsidiary's."""
        from app.facts.capital import MEASURES, capital_ratios
        from app.text.identity import same_company

        # (a table that states no day dates no ratio: it answers nothing)
        found = [(ratio, block) for block in self.reports for ratio in capital_ratios(block.text) if ratio.day]
        years = set(self.query.years)
        found = [(r, b) for r, b in found if int(r.day[:4]) in years] if years else found
        if not found:
            return []
        day = max(r.day for r, _ in found)
        company = self.companies[0] if self.companies else ""
        entities = [r.entity for r, _ in found if r.day == day]
        own = next((e for e in entities if same_company(e, company)), entities[0])
        chosen: dict[str, tuple[Any, Block]] = {}
        for ratio, block in found:
            if ratio.day == day and ratio.entity == own and ratio.measure not in chosen:
                chosen[ratio.measure] = (ratio, block)
        return [chosen[m] for m in MEASURES if m in chosen]

    def with_year_before(self, fact: Fact, facts: Sequence[Fact], query: FactQuery, name: str) -> str:
        """"Tamarack's net debt / Adjusted EBITDA was 4.11x at the end of FY2024, up from 4.03x a year earlier":
        the figure, and the year before's when the same row or measure gives it."""
        figure = fact.figure
        said = (f"{possessive(figure.company or self.companies[0])} {name} was {as_stated(figure)} "
                f"{period_text(figure)}")
        if not figure.fiscal_year:
            return said
        # (of a day's figure, the same day a year earlier: 31 December 2020 is no year before 31 March 2021)
        day = _ISO_DAY_TAIL.search(figure.period or "")
        before = [f for f in choose(facts, query, year=figure.fiscal_year - 1)
                  if f.figure.unit == figure.unit and f.figure.label.casefold() == figure.label.casefold()
                  and (day is None or (_ISO_DAY_TAIL.search(f.figure.period or "") or day).group(2) == day.group(2))]
        if not before or self.n_of(before[0].figure) is None:
            return said
        prior = before[0].figure.value
        if prior == figure.value:
            return f"{said}, as a year earlier"
        return f"{said}, {'up' if figure.value > prior else 'down'} from {amount(prior, figure.unit)} a year earlier"

    def profitability_change(self) -> list[str]:
        """'Was its Consumer business getting more profitable in 2018?': the part's (else the company's) operating
        margin the calculator worked out for the year asked and the year before (app/judgements: an improving
        margin), else its profit's own change; 'Yes.' when it moved the way asked ('less profitable': down).
        Nothing when neither is read."""
        up = not _LESS_PROFITABLE.search(self.question)
        pair = metric_pair(self.results)
        if pair is not None and "margin" in _metric_name(pair[1][0]).lower() and (said := self.metric_change()):
            a, b = pair[0][0].rounded(2), pair[1][0].rounded(2)
            return [f"{self.judged((b > a) == up and a != b)} {said[0]}"]
        segment = self.query.measure.segment
        company = self.companies[0] if self.companies else ""
        whose = f"{possessive(company)} {segment}" if segment else possessive(company)
        when = f" in {max(self.query.years)}" if self.query.years else ""
        for name in _PROFIT_NAMES:
            query = read_query(f"What was {whose} {name}{when}?", self.companies, list(self.query.years))
            named = set(analyze(name))
            facts = [f for f in facts_for(query, self.reports, self.companies)
                     if f.figure.unit not in ("%", "x") and (self.of_segment(f, segment) if segment else not f.segment)
                     and all(stem_in_words(w, set(analyze(f.figure.label))) for w in named)]
            found = two_periods(facts, query)
            if found is None or found[0].figure.unit != found[1].figure.unit or not (ns := self.refs(found)):
                continue
            old, new = found
            change = new.figure.value - old.figure.value
            moved = "rose" if change > 0 else "fell" if change < 0 else "was unchanged"
            # (the year before as its sentence says it: 'compared with $929 million a year ago')
            before = period_text(old.figure) if str(old.figure.fiscal_year) in (old.figure.quote or "") \
                or old.origin != "text" else "a year earlier"
            body = (f"{whose} {name} {moved} to {as_stated(new.figure)} {period_text(new.figure)} from "
                    f"{as_stated(old.figure)} {before}{self.computed_change(old.figure, new.figure)}")
            return [f"{self.judged((change > 0) == up and change != 0)} {cite(body, ns)}"]
        return []

    def of_segment(self, fact: Fact, segment: str) -> bool:
        """Whether a fact is the segment's: its own segment is, or, read with none, its block names the segment or
        its sentence the segment's initials ('For 2022, ICS reported pretax income of $578 million' on the
        International Card Services pages)."""
        if fact.segment:
            return same_member(segment, fact.segment, fact.figure.company)
        block = next((b for b in self.reports if b.chunk_id and b.chunk_id == fact.figure.chunk_id), None)
        text = " ".join(f"{block.header} {block.text}".split()).casefold() if block else ""
        initials = "".join(w[0] for w in segment.split() if w[:1].isupper())
        return segment.casefold() in text or (len(initials) >= 2 and re.search(rf"\b{initials}\b", fact.figure.quote
                                                                                or "") is not None)

    def judged(self, verdict: bool) -> str:
        """A judgement's lead: 'Yes.'/'No.' when it is asked as yes/no; the degree asked when it is asked as one
        ('How good was it at turning earnings into cash?': 'Good.' or 'Not good.'; 'how weak …': 'Weak.' or
        'Not weak.')."""
        degree = degree_asked(self.question)
        if not degree:
            return "Yes." if verdict else "No."
        return f"{degree.capitalize()}." if verdict == (degree not in _WEAK_DEGREES) else f"Not {degree}."

    def judged_by_calculation(self, convention: Any) -> list[str]:
        """The judgement from the calculator's metric result (the judgement's metric computed from statement
        figures), when the filings state none; a trend from the metric computed for two years."""
        if convention.rule in ("rising", "falling") and (pair := metric_pair(self.results)) is not None and self.calc_n:
            (old, _), (new, _) = pair
            verdict = convention.holds(new.rounded(2), old.rounded(2))
            if verdict is not None and any(_metric_name(new).lower() == m.lower()
                                           for m in (*convention.metrics, *convention.measures)):
                body = self.metric_change()
                if body:
                    return [f"{self.judged(verdict)} {body[0]}", convention.says]
        said: list[str] = []
        # a metric computed for each year the question names ('in FY2024 and FY2023') is judged on every one of
        # them, the latest first
        by_name: dict[str, list[CalcResult]] = {}
        for result in self.results:
            name = _metric_name(result).lower()
            if result.tool == "metric" and any(name == m.lower() for m in convention.metrics):
                by_name.setdefault(name, []).append(result)
        for name, results in by_name.items():
            verdicts = [convention.holds(r.result) for r in results]
            if None in verdicts or self.calc_n is None:
                continue
            verdict = all(verdicts)
            refs = list(dict.fromkeys([self.calc_n, *(n for r in results for f in r.sources.values()
                                                     if (n := self.n_of(f)) is not None)]))
            company = next((f.company for r in results for f in r.sources.values() if f.company), self.companies[0])
            values = []
            for result in sorted(results, key=lambda r: -max((f.fiscal_year or 0 for f in r.sources.values()),
                                                              default=0)):
                years = [f.fiscal_year for f in result.sources.values() if f.fiscal_year]
                unit = "%" if result.unit == "%" else "x" if result.unit == "x" else result.unit
                # to two places, always: a current ratio of 1.0022 is '1.00x', which says it barely covers, not '1x'
                value = format_figure(result.rounded(2), unit, 2 if unit in ("x", "%") else None)
                # (a part of a year its flows all cover: 'in the six months ended 30 June 2023', not the year's)
                parts = {(f.period or "") for f in result.sources.values()}
                part = next(iter(parts)) if len(parts) == 1 and re.match(r"\d+M |[HQ][1-4] ", next(iter(parts))) \
                    else None
                dated = (" " + period_text(next(iter(result.sources.values())))) if part else \
                    f" in FY{max(years)}" if years else ""
                stated = self.stated_growth(result, company) if len(results) == 1 else None
                if stated is not None and (n := self.n_of(stated.figure)) is not None:
                    # the report's own figure first, as it rounds it; the computation beside it
                    refs = list(dict.fromkeys([n, *refs]))
                    values.append(f"{format_figure(stated.figure.value, '%', 1)}{dated} as its report states "
                                  f"({stated.figure.label}); {value} computed from its statements")
                    continue
                values.append(f"{value}{dated}")
            stated = " and ".join(dict.fromkeys(values))
            if not said:  # the metric the judgement is decided by
                said = [f"{self.judged(verdict)} " + cite(f"{possessive(company or '')} {name} was {stated}", refs)]
                if len(by_name) == 1 and len(results) == 1 and (inputs := _inputs_said(results[0])):
                    # one metric decides: what it weighs, from the statements ('free cash flow … and net income')
                    said.append(cite(f"It is computed from {inputs}", refs))
            elif name not in " ".join(said).lower():  # another the convention reads, stated beside it
                said.append(cite(f"Its {name} was {stated}", refs))
        return [*said, convention.says] if said else []

    def stated_growth(self, result: CalcResult, company: str | None) -> Fact | None:
        """The growth a report's table states for the line item a computed year-over-year growth is of, when
        it agrees with the computation to the report's rounding (within 0.1 points): 'Reported Sales … 1.3%'
        beside sales of $94,943m and $93,775m (1.25%)."""
        if result.unit != "%" or "growth" not in _metric_name(result).lower() or len(result.sources) != 2:
            return None
        items = {key.rsplit("_", 1)[0] for key in result.sources}
        years = [f.fiscal_year for f in result.sources.values() if f.fiscal_year]
        if len(items) != 1 or len(years) != 2:
            return None
        stated = stated_change(items.pop(), max(years), self.reports, [company] if company else self.companies)
        if stated is None or abs(stated.figure.value - result.result) > 0.1:
            return None
        return stated

    def sentence_answer(self) -> list[str]:
        """The whole sentences of the reports that state what a list, yes/no or explanation question asks: each
        must hold every key word of the question (its content words, company and generic words aside); a list
        prefers sentences that enumerate, an explanation those that give a reason. A yes/no opens 'Yes' on a
        sentence that states it and 'No' on one that denies it; when none does, the answer is the declared
        insufficient one."""
        key = self.key_groups()
        if not key:
            return []
        # an explanation's sentence writes the measure's words together ('income tax expense … Statement of
        # Operations' does not explain operating income)
        adjacent = self.side_by_side(key) if self.ask.kind in ("explain", "yes_no") else []
        pairs = adjacent if self.ask.kind == "explain" else []
        together = adjacent if self.ask.kind == "yes_no" else []
        scored: list[tuple[float, int, str, Block]] = []
        deeds: set[str] = set()
        # a name asked for may stand in a news item only ('… became chief executive officer on January 1, 2025,
        # succeeding Dana Whitcombe'); the reports' sentences come first among equals
        # so may what a yes/no asks ('Is Rheinfeld closing any of its plants?': a news item reports the closure)
        sources = [b for b in self.reports if b.kind == "report"] + [
            b for b in self.reports if b.kind == "news" and (self.ask.one_name or self.ask.kind == "yes_no")]
        who = self.ask.one_name and _WHO_ASKED.match(asked_sentence(self.question)) is not None
        day_asked = bool(_DATE_ASKED.match(asked_sentence(self.question))
                         or re.match(r"(?i)\s*when\b", asked_sentence(self.question)))
        # the years the question asks of, not those of the filing it names as where to look ('Which acquisitions
        # does Adobe discuss … in its fiscal 2015 10-K': every deal that filing discusses, fiscal 2013's too)
        asked_years = set(self.query.years) if years_named(without_source(self.question)) \
            or not years_named(self.question) else set()
        asked_person = _person_said(asked_sentence(self.question))
        legal = asks_about_litigation(self.question)
        permission = bool(_PERMISSION.search(asked_sentence(self.question)))
        # what a list is of: the question's last key word ('sites' of 'Where are Fenmoor Cold Storage's sites?')
        stems = self.key_stems()
        head = next((w for w in reversed(analyze(asked_sentence(self.question))) if w in stems), None)
        for rank, block in enumerate(sources):
            # ('Under the employment agreement …, will the company cover …': the agreement's own wording answers)
            sentences = whole_sentences(block.text, terms=self.query.of_terms)
            other_years: set[int] = set()  # the sentences that are another period's
            for at, sentence in enumerate(sentences):
                if (not _is_statement_sentence(sentence) or is_boilerplate(sentence, self.query.of_terms)
                        or sentence.rstrip().endswith(":")
                        and (self.ask.kind != "yes_no" or _LEADS_INTO.search(sentence))):
                    # (a yes/no's deed may lead into its figures: 'The shareholders approved, on an advisory basis,
                    # PepsiCo's executive compensation:' over the votes; 'the following' leads into a table only)
                    continue
                sentence = re.sub(r"\s*:\s*$", ".", sentence)
                if not legal and is_allegation(sentence):
                    continue  # 'a former seasonal employee filed a class action …' says nothing of a seasonal business
                if self.ask.kind in ("list", "yes_no") and _CONDITIONAL.search(sentence):
                    continue  # 'If we do not complete an announced acquisition …': a risk, not a deed
                if self.ask.kind == "list" and asked_years and (_SUBSEQUENT.match(sentence) or (
                        (named := periods_of_sentence(sentence)) and not named & asked_years)
                        or (at and at - 1 in other_years and _POINTS_BACK.search(sentence))):
                    # 'During fiscal 2015, we completed our acquisition of Fotolia' lists no fiscal 2016 deal, nor
                    # does 'The initial purchase accounting for this transaction …' after a later year's deal
                    other_years.add(at)
                    continue
                # 'net profit after tax' says 'NPAT'; 'content acquisitions' are no business acquired
                tokens = analyze(without_other_acquisitions(f"{sentence} {abbreviated(sentence)}"))
                words = {*tokens, *(a + b for a, b in zip(tokens, tokens[1:]))}  # 'buy-back' holds 'buyback'
                if _SOLD.search(sentence):
                    words.add("sell")  # 'completed the sale of its Russian business' says it sold it
                if at and _REFERS_BACK.match(sentence):
                    # 'Fenmoor contributed £14.6m … Its three sites at Spalding, Peterborough and Wisbech …': the
                    # sentence is about what the one before it names
                    words |= set(analyze(" ".join(_PROPER_NAME.findall(sentences[at - 1]))))
                about = sentence  # what the sentence speaks of
                if at and (pointed := _THIS_THING.search(sentence)) and stem_in_words(
                        (analyze(pointed.group(1)) or [""])[0], set(analyze(sentences[at - 1]))):
                    # 'On January 31, 2019, our Board authorized a stock repurchase program … up to $1.5 billion …
                    # To date, we have not repurchased any shares under this program': the program the one before
                    # describes, its amount and its year
                    words |= set(analyze(sentences[at - 1]))
                    about = f"{sentences[at - 1]} {sentence}"
                hits = [g for g in key if any(stem_in_words(k, words) for k in g)]
                spared = 1 if len(key) >= 4 and (self.ask.kind != "yes_no" or _only_modifiers(key, hits)) else 0
                if len(hits) < len(key) - spared:
                    continue
                if not all(close_together(sentence, a, b) for a, b in pairs):
                    continue
                score = len(hits) / len(key)
                if _TABLE_LINE.search(sentence) or is_row_line(sentence):
                    score -= 0.4  # a table's row read as a sentence ('Acquisitions completed during the year
                    # ended December 31, 202049,571 Other adjustments'): a sentence that says it comes first
                if self.ask.kind == "explain" and older_change_named(sentence, self.query.years):
                    continue  # 'during fiscal 2016 compared to fiscal 2015' for fiscal 2017: an older change
                if self.ask.kind == "explain" and CAUSAL.search(sentence):
                    if explains_older_change(sentence, self.query.years):
                        continue  # the cause of an older year's change
                    score += 0.5
                if day_asked and any(day for _, (_, _, day) in read_dates(sentence)[0]):
                    score += 0.3  # 'On what date did it complete …': the sentence that gives the day
                if self.ask.one_name and _ASKS_AMOUNT.search(self.question) and MONEY.search(sentence):
                    score += 0.2  # "…, and for how much?": the sentence that names it with its price
                if self.ask.kind == "yes_no" and permission and not _BINDS.search(sentence):
                    continue  # 'is he free to recruit …': only a clause that allows or forbids it says, no recital
                if self.ask.kind == "yes_no" and MONEY.search(about):
                    score += 0.15  # 'Did it book an impairment?': yes, with its amount, before a passing mention
                if self.ask.kind == "yes_no" and _PERMITTED.search(sentence) and not _PERMITTED.search(self.question):
                    score -= 0.5  # 'authorized to repurchase up to $1.5 billion' permits the deed; it is no deed
                if self.ask.kind == "yes_no" and asked_years:
                    # 'Did it recall any products in FY2023?': 'We had no product recalls in FY2023' answers it;
                    # a recall of June 2024 (or a news item of 2024) is about another year
                    named = set(years_named(about))
                    dated = block.fiscal_year or (int(block.published_at[:4]) if block.published_at
                                                  and block.published_at[:4].isdigit() else None)
                    own = named or ({dated} if dated else set())
                    score += 0.3 if named & asked_years else -0.3 if own and not own & asked_years else 0.0
                if asked_person and (said_person := _person_said(sentence)) is not None:
                    # 'the legal fees she incurred': a clause of her agreement ('incurred by her'), not one of a
                    # letter to a man in the same filing ('reimburse you …' beside 'in which he participates')
                    score += 0.1 if said_person == asked_person else -0.1
                if who and _names_other(sentence, " ".join([self.question, *self.companies])):
                    score += 0.2  # 'Who replaced Dana Whitcombe?', 'To which company did it sell …': a sentence
                    # that names someone else
                opening = set(analyze(" ".join(sentence.split()[:6]))) if self.ask.one_name else set()
                if opening and any(stem_in_words(k, opening) for g in key for k in g):
                    score += 0.1  # a sentence about the deed asked ('Fenmoor was acquired for …'), not one that
                    # mentions it in passing ('… including amortisation of acquired customer relationships')
                told = [set(analyze(m.group(0))) for m in _DEED.finditer(sentence)]  # 'the Company completed …'
                deed = any(stem_in_words(k, words) for words in told for g in key for k in g)
                if self.ask.kind == "list" and not self.ask.one_name and deed:
                    deeds.add(sentence)  # one of the deeds listed
                if self.ask.kind == "yes_no" and deed:
                    score += 0.2  # 'Did it mention any acquisitions?': the deed itself, before its costs
                if self.ask.kind == "yes_no" and together:
                    # each pair of words written as the question writes them: 'executive compensation', not
                    # 'compensation of … named executive officers' (another vote)
                    score += 0.1 * sum(any(x in a and y in b for x, y in zip(tokens, tokens[1:])) for a, b in together)
                if self.ask.kind == "list" and not self.ask.one_name and head and not stem_in_words(head, words):
                    score -= 0.2  # a sentence about the company whose sites are asked, naming none of them
                if self.ask.kind == "list" and not self.ask.one_name and re.search(
                        r",.*,|;|•|\b(?:include|including|comprise|are|namely)\b", sentence) \
                        and not _one_of_its_items(sentence, key):
                    score += 0.3
                    if _names_its_list(sentence, key):
                        score += 0.2  # 'Our two reportable segments are Seller and Cash App': the list itself
                scored.append((score, -rank, sentence, block))
        if deeds:  # a list of deeds lists them, not 'the fair values of the net assets acquired …' about one
            scored = [x for x in scored if x[2] in deeds]
        scored.sort(key=lambda x: (-x[0], -x[1]))
        if self.ask.kind == "list" and not self.ask.one_name and head and (counted := _counted_list(scored, head)):
            return counted
        if not scored:
            if self.ask.kind == "yes_no" and (stopped := self.stopped_deed(key, sources)):
                return stopped
            if self.ask.kind == "yes_no" and (row := self.row_holding(key)):
                return row
            return [INSUFFICIENT_EVIDENCE] if self.ask.kind == "yes_no" else []
        picked: list[tuple[str, Block]] = []
        amounts: set[str] = set()
        # ('On what date …': the day; 'When …' may be answered by a month too, and by more than one sentence)
        ranked_day = bool(_DATE_ASKED.match(asked_sentence(self.question))) and any(
            day for _, (_, _, day) in read_dates(scored[0][2])[0])
        for score, _, sentence, block in scored:
            # (a day asked is said by one sentence: the one that gives it, ranked first)
            most = 1 if self.ask.kind == "yes_no" or ranked_day else \
                5 if self.ask.kind == "list" and not self.ask.one_name else 3
            if (len(picked) == most or score < scored[0][0] - 0.3
                    or (who and score < scored[0][0] - 0.1)):
                break
            said = set(_MONEY_AMOUNT.findall(sentence))
            # one sentence per fact: a sentence stating an amount already stated ('the €6.8m direct cost of the
            # recall' twice) gives way to one that says something new
            if sentence in (p for p, _ in picked) or said & amounts or any(_restates(sentence, p) for p, _ in picked):
                continue
            picked.append((sentence, block))
            amounts |= said
        out = [cite(_unbulleted(s.strip()), [b.n]) for s, b in picked]
        if self.ask.kind == "yes_no":
            negated = _denies(picked[0][0], set().union(*key), question_verb(asked_sentence(self.question))) or bool(
                _DEFEATED.search(picked[0][0]) and set(analyze(asked_sentence(self.question))) & _APPROVED)
            out[0] = f"{'No' if negated else 'Yes'}. {out[0]}"
            if not negated and len(picked) == 1:
                out += [cite(s, [picked[0][1].n]) for s in _its_figures(picked[0][1].text, picked[0][0], key)]
        return out

    def stopped_deed(self, key: Sequence[frozenset[str]], sources: Sequence[Block]) -> list[str]:
        """'Did MGM pay a common stock dividend in the first half of 2023?' where no sentence says it paid or did not
        pay one, but one says the thing asked was stopped before or in the period ('On February 8, 2023, … the Board
        … determined to suspend the ongoing dividends'): No, with that sentence. The sentence must name the thing the
        question asks about (its last key word: the dividend), a word that stops it, and no year but the year asked
        (or none)."""
        words = [w for w in analyze(asked_sentence(self.question)) if any(w in g for g in key)]
        if not words or not self.query.years:
            return []
        thing, asked_years = words[-1], set(self.query.years)
        for block in sources:
            for sentence in whole_sentences(block.text):
                said = set(analyze(sentence))
                named = set(years_named(sentence))
                if (stem_in_words(thing, said) and _DEED_STOPPED.search(sentence) and _is_statement_sentence(sentence)
                        and named and named <= asked_years | {y - 1 for y in asked_years}):
                    return [f"No. {cite(sentence, [block.n])}"]
        return []

    def row_holding(self, key: Sequence[frozenset[str]]) -> list[str]:
        """'Does it have a defined benefit pension scheme?' where no sentence says so but a statement has a line
        for it ('Remeasurement of defined benefit pension scheme (3.8) 5.2'): Yes, with the line as the report has
        it. Only a 'does it have' question is answered so, and only by a line whose label holds every key group
        and that states a figure other than nil for it (a dash in the year's column is no scheme)."""
        if not key or not _HAS_ASKED.match(asked_sentence(self.question)):
            return []
        for block in (b for b in self.reports if b.kind == "report"):
            lines = [line.strip() for line in block.text.splitlines() if line.strip()]
            for i, line in enumerate(lines):
                label = re.split(r"\s[(\-–—]?\d", line, maxsplit=1)[0]
                if len(label.split()) > 12 or not all(g & set(analyze(label)) for g in key):
                    continue
                row = line if is_row_line(line) else (
                    f"{line} {lines[i + 1]}" if i + 1 < len(lines) and _VALUES_ONLY.match(lines[i + 1]) else "")
                values = _VALUES_ONLY.match(row[len(label):].strip()) if row else None
                if values is None or not re.search(r"[1-9]", row[len(label):].split()[0]):
                    continue
                owner = possessive(block.company or (self.companies[0] if self.companies else "The company"))
                return [f"Yes. {cite(f'{owner} report has a line for it: “{row}”', [block.n])}"]
        return []

    def of_whole_year(self, text: str) -> bool:
        """A claim about a year's figures for a question about a part of it ('The MedTech segment sales in 2022 were
        $27.4 billion' for the fourth quarter of 2022): it names a year and no part of one."""
        return self.query.part is not None and bool(years_named(text)) and part_named(text) is None

    def on_topic(self, sentences: Sequence[str]) -> list[str]:
        """What may stand in for an answer to a question that asks for more than a figure when no sentence holds
        its key words (the grader's claims, as `claim_sentences` states them): those that hold at least half of
        the key words and are no boilerplate and no lead-in to a table ('… is as follows:'); for a list, a
        yes/no, an explanation or the largest row, whole statement sentences only, never a table row's cells or a
        heading. A figure question's claims stand as they are, and so do those of a question of no recognised form
        ('What about their revenue?'), boilerplate aside."""
        if self.ask.kind == "figure" or self.ask.loose:
            # no boilerplate, no fragment of a sentence, and for a figure one that states a figure (not the
            # report's introduction, which names only the years it covers)
            terms = measure_terms(self.question, self.companies)
            if named := find_metrics(asked_sentence(self.question)):
                # a ratio asked ('What payout ratio did its dividend represent?'): a claim must state the ratio,
                # not one of its inputs ('dividends of $0.20 per share')
                terms = [set(analyze(alias)) for metric in named for alias in metric.aliases]
            bare = {s: re.sub(r"\[\d+\]", "", s) for s in sentences}  # each claim without its citation marks
            ended = {s: re.sub(r"\s*(?:\[\d+\])+\s*\.?$", "", s).strip() for s in sentences}  # nor its closing ones
            kept = [s for s in sentences if s and not is_boilerplate(s)
                    # a row's cells with no header ('Capital expenditures 460.8 537.6 622.7 684.4 729.3') say
                    # no year: the row readers read rows with their columns, or the row says nothing
                    and not is_row_line(ended[s])
                    # a lead-in to a table ('long-term debt consisted of the following:') states nothing itself
                    and not ended[s].endswith(":")
                    and (s[:1].isupper() or s[:1].isdigit() or s[:1] in "$£€¥\"'" or re.match(r"\(\w{1,3}\)\s", s))
                    and (self.ask.loose or re.search(r"\d", read_dates(bare[s])[2]))
                    # a figure of the measure asked, not another row of the same page ('employees at year end'
                    # for 'market capitalisation', 'net capital expenditure' for 'return on capital employed')
                    and (self.ask.loose or not terms or states_measure(terms, bare[s]))
                    # the company's figure asked: not a paragraph under 'Flexibles Segment' (the segment's)
                    and (self.ask.loose or self.query.measure.segment is not None or not self.segment_under(s))
                    and not self.of_whole_year(bare[s])]
            # the names the measure asked holds ('revenue in China') stand in the claim or in one before it: one
            # that names Project Bedrock carries the next that states its charge, but the group's revenue before
            # a sentence on the Media segment is no Media revenue
            if self.query.kind == "count" and self.query.count_stems and not self.ask.loose:
                # a count's claim counts the things asked: not '214 new patent applications' for patents
                kept = [s for s in kept if prose_facts(bare[s], self.query.prose_measure(),
                                                       company=None, fiscal_year=None, source_id="claim")]
            if self.ask.loose:
                return kept
            carried = [s for i, s in enumerate(kept) if self.names_asked_in(" ".join(kept[:i + 1]))]
            if not self.names_asked_in(" ".join(carried)):
                return []
            if share := self.share:
                # 'A as a percent of B': a claim that states that share, both sides named and a per cent given,
                # never one side's amount ('net sales were $32,765m')
                carried = [s for s in carried if all(_says(bare[s], side) for side in share)
                           and any(f.kind == "percent" for f in figures_located(bare[s]))]
            if self.query.kind == "money" and not _RATE_LIKE.search(self.query.measure.phrase):
                # an amount asked: a claim whose figures are all shares or rates ('Total debt represented 34.1% of
                # total capital') states none, unless a claim with an amount goes with it; nor does one whose
                # amounts are all changes ('Revenue from Digital Media increased $1.07 billion during fiscal 2017'
                # is no level of Digital Media's revenue), unless the question asks how much it changed
                change_asked = bool(set(analyze(asked_sentence(self.question))) & CHANGE_STEMS)
                if not any(f.kind == "money" and (change_asked or not states_change(bare[s], f.value))
                           for s in carried for f in figures_located(bare[s])):
                    return []
            return carried
        key = self.key_stems()
        measure = set(analyze(self.query.measure.phrase))  # a measure's name, not a clause of the question's
        kept = []
        for sentence in sentences:
            text = re.sub(r"\s*(?:\[\d+\])+", "", sentence).strip().rstrip(".").strip()
            if not text or text.endswith(":") or is_boilerplate(text):
                continue
            if self.ask.kind in ("list", "yes_no", "explain", "extreme") and not _is_statement_sentence(text + "."):
                continue
            if self.ask.kind == "extreme" and not _RANKS.search(text):
                continue  # the largest or smallest asked: a sentence that ranks nothing names no answer
            words = set(analyze(text))
            if 0 < len(measure) <= 3 and (
                    (self.ask.kind == "extreme" and not states_measure([measure], text))
                    or (self.ask.kind in ("change", "yes_no_change")
                        and not all(stem_in_words(m, words) for m in measure))):
                continue  # 'which segment had the highest net sales': not a sentence on segment operating profit,
                # nor 'operating profit growth was driven by net revenue growth' for whose revenue was higher
            if key and 2 * len({k for k in key if stem_in_words(k, words)}) < len(key):
                continue
            if self.share and self.ask.kind in ("change", "yes_no_change") and not _says(text, self.share[0]):
                continue  # 'wages as a percent of net sales': not operating income's share of them
            if self.of_whole_year(text):
                continue
            if self.ask.kind in ("change", "yes_no_change") and self.query.measure.segment is None \
                    and (self.segment_under(sentence) or self.of_a_part(text)):
                continue  # a paragraph under 'Flexibles Segment' tells the segment's change, not the company's
            kept.append(sentence)
        if kept and self.ask.kind == "yes_no_change":
            # the claim that states the measure's change leads, with its answer ('Did its adjusted EBIT
            # increase?': 'No. Adjusted EBIT decreased by $88 million …'); with none, no answer, not a level pasted
            stating = next((k for k in kept if _stated_direction(k, measure)), None)
            if stating is None:
                return []
            moved = _stated_direction(stating, measure)
            kept = [f"{self.verdict(0.0, float(moved))} {stating}", *(k for k in kept if k != stating)]
        return kept

    def of_a_part(self, text: str) -> bool:
        """Whether the facts read a claim's sentence as one part's figures (app/facts/query.parts_by_figures: a
        row that names the part gives the same figures)."""
        plain = " ".join(text.split())
        return any(" ".join(f.figure.quote[:60].split())[:40] in plain for f in self.read_facts
                   if f.segment and f.origin == "text" and f.figure.quote)

    def segment_under(self, sentence: str) -> str | None:
        """The segment whose heading a claim's sentence stands under in the blocks it cites (app/facts/members.
        segment_under); None when any of them puts it under no segment's heading."""
        cited = {int(n) for n in re.findall(r"\[(\d+)\]", sentence)}
        text = re.sub(r"\s*\[\d+\]", "", sentence).strip()
        blocks = [b for b in self.reports if b.n in cited]
        named = [segment_under(b.text, text, section_of(b)) for b in blocks]
        return named[0] if named and all(named) else None

    def key_groups(self) -> list[frozenset[str]]:
        """The key words, those the question offers as alternatives one group ('mergers or acquisitions': a
        sentence that names either holds it)."""
        key = self.key_stems()
        groups = [{k} for k in sorted(key)]
        for a, b in re.findall(r"(?i)\b([a-z][\w-]*)\s+or\s+([a-z][\w-]*)", asked_sentence(self.question)):
            sa, sb = set(analyze(a)) & key, set(analyze(b)) & key
            if not sa or not sb:
                continue
            joined = [g for g in groups if g & (sa | sb)]
            groups = [g for g in groups if not g & (sa | sb)] + [set().union(*joined)]
        if self.ask.kind == "list":  # where a company operates: its regions, or the segments it reports them as
            groups = [g | set().union(*(_PLACES.get(k, frozenset()) for k in g)) for g in groups]
        groups = [g | set().union(*(_SAME_ROLE.get(k, frozenset()) for k in g))
                  | {s.replace("+", "") for s in said_otherwise(g)} | abbreviation_heads(g) for g in groups]  # 'job+cut': 'job cuts'
        if self.ask.kind == "yes_no":
            # a participle asked ('Had it drawn any money on the facility?') is denied by its 'un-' form ('all of
            # which was undrawn'), which `_denies` reads as a no
            for word in re.findall(r"(?i)\b[a-z]{3,}(?:ed|en|wn)\b", asked_sentence(self.question)):
                stems = set(analyze(word)) & key
                groups = [g | set(analyze(f"un{word}")) if g & stems else g for g in groups]
        # two words a report may write as one ('buy back' / 'buyback', 'cash flow' / 'cashflow'): the joined word
        # holds both
        words = re.findall(r"[A-Za-z]+", asked_sentence(self.question))
        for a, b in zip(words, words[1:]):
            sa, sb, joined = set(analyze(a)) & key, set(analyze(b)) & key, set(analyze(a + b))
            if sa and sb and joined:
                groups = [g | joined if g & (sa | sb) else g for g in groups]
        return [frozenset(g) for g in groups]

    def key_stems(self) -> set[str]:
        """The question's content words that a sentence answering it must hold: its own words, company names,
        question words and words that say nothing of the topic ('business', 'plan', 'any') aside."""
        names = set(analyze(" ".join(self.companies)))
        whole = asked_sentence(self.question)
        # the verb that closes 'what store formats does Pellbury operate?' is the question's scaffold
        closing = re.search(r"(?i)\b(?:does|do|did|has|have)\s+(?:[\w&'’.-]+\s+){1,4}?([a-z]+)\s*\??\s*$", whole)
        # 'To which company did 3M sell its division, and what gain did it record?': the name's sentence holds the
        # first part's words; the second part is answered on its own (`other_part_answer`)
        asked = first_part(whole) if self.ask.one_name and second_part(whole) else whole
        scaffold = set(analyze(closing.group(1))) if closing else set()
        # a verb that only says a thing was done ('Did it make any acquisitions', 'announce any layoffs'): the
        # thing is what a sentence must say, done in its own words ('completed the acquisition of …')
        scaffold |= {w for m in _DOING_ANY.finditer(asked) for w in analyze(m.group(1))}
        # 'the geographies it primarily operates in': how and where it trades, not what a sentence must say
        scaffold |= set(analyze(" ".join(re.findall(r"(?i)\b(?:primarily|mainly|chiefly|mostly|operates?|operated)\b",
                                                    asked))))
        # dates ('from August 30, 2023 onward') and a company's short name ('JnJ') are no words a sentence must say
        plain = without_short_names(read_dates(without_source(asked))[2], self.companies)
        if _DATE_ASKED.match(plain):
            scaffold |= {"date", "day"}  # 'On what date did it complete …': a sentence gives the date, not the word
        # the meeting a vote was held at ('at the May 3, 2023 annual meeting') is when, not what a sentence says;
        # 'say-on-pay' is the advisory vote on executive compensation, as filings write it
        plain = _SAY_ON_PAY.sub(" executive compensation ", _AT_MEETING.sub(" ", plain))
        # ('the shareholder proposal calling for an independent Board Chair': 'the proposal regarding …')
        plain = re.sub(r"(?i)\b(proposals?|resolutions?)\s+(?:calling|asking)\s+for\b", r"\1", plain)
        # a payout's recipients ('pay any cash dividends to its shareholders'): every dividend is theirs, and a
        # report says 'we have not paid any cash dividends'
        plain = _TO_HOLDERS.sub(" ", plain) if _PAYOUT.search(plain) else plain
        # how a bar is set ('10% or more', 'at least 10%') and 'any single customer': the bar and the customer
        # are what a sentence must say ('no customers that represented at least 10% of net revenue')
        plain = _BAR_WORDS.sub(" ", plain)
        plain = _ANY_AMOUNT.sub(" any ", plain)  # 'Had it drawn any money on its facility': 'no amounts were drawn'
        # when the deed was done ('shortly after its fiscal 2023 second quarter ended'): the date a sentence gives,
        # not words it says; 'another business': any business
        plain = _SOON_AFTER.sub(" ", plain)
        plain = re.sub(r"(?i)\banother\b", " ", plain)
        # where in the report the thing stands and the verb that reports it ('Which acquisitions does Adobe discuss
        # at the start of the MD&A'): no words its sentence says
        plain = _WHERE_IN_REPORT.sub(" ", plain)
        scaffold |= {w for m in _REPORTING_VERB.finditer(plain) for w in analyze(m.group(0))}
        plain = _BOUGHT_BACK.sub("repurchase", plain)  # 'Did it buy back any stock': 'we have not repurchased …'
        if self.ask.kind == "yes_no":  # 'Had it closed the sale … by the end of fiscal 2022': when, not what
            plain = _BY_THE_END.sub(" ", plain)
            # the occasion said first ('Under the employment agreement Mary Dillon signed …, will the company
            # cover …'): where the answer stands, which its sentence need not name ('the Company shall reimburse …')
            plain = OCCASION_BEFORE.sub("", plain)
            # 'is he free to recruit its employees once he has left?': the deed is what a clause allows or forbids
            # ('agree not to … solicit, hire, recruit … any employee'), not the freedom nor when it applies
            plain = _WHEN_CLAUSE.sub(" ", _PERMISSION.sub(" ", plain))
        # ('the legal fees she incurred': a person's pronoun, which the filing writes as 'her' or 'Executive')
        words = set(analyze(plain)) - names - _GENERIC - question_noise() - scaffold - _PERSONAL
        if _APPROVED & words:  # 'Did shareholders approve the advisory vote on …': 'The shareholders approved …'
            words -= _VOTED
        # a name the filing runs together ('ULTABEAUTY') and the question writes as words ('Ulta Beauty's')
        joined = [n for n in names if len(n) >= 8]
        if "restat" in words:  # 'Did it restate any prior-year figures?': what every restatement is of
            words -= _RESTATED_OF
        if _NEW_ROLE.search(plain):  # 'its new CEO': a report says who was appointed, not that the CEO is new
            words -= set(analyze("new"))
        if _OWNING.search(plain):  # 'Does it own any of its real estate': owning is what a sentence must say
            words |= set(analyze("own"))
        return {w for w in words if not w.isdigit() and not re.fullmatch(r"fy\d*", w)
                and not (len(w) >= 3 and any(w in n and w != n for n in joined))}

_CAPITAL_MOVED = re.compile(
    r"(?i)\b(?:getting|growing|becoming|grown|become|got)\s+(?:(?P<down>thinner|weaker|smaller|slimmer|tighter|"
    r"narrower)|(?P<up>thicker|stronger|bigger|larger|wider))\b|\b(?:cushion|buffer|headroom|capital)\s+"
    r"(?:\w+\s+){0,2}?(?:(?P<down2>shr[iu]nk\w*|erod\w*|declin\w*|fall\w*|fell|narrow\w*)|(?P<up2>grow\w*|grew|"
    r"build\w*|built|rising|rose|widen\w*))\b")
"""A bank's capital asked as a trend ('Is its regulatory capital cushion getting thinner?'), down or up."""
_OWNING = re.compile(r"(?i)\b(?:does|do|did)\s+(?:[\w&'’.-]+\s+){1,4}?own\s+(?:any|all|its|their|the|some)\b|"
                     r"\bowns?\s+(?:any|all|some)\b")
"""Owning asked as a verb ('Does Activision Blizzard own any of its real estate'), not 'its own'."""


def _loss_stated(sentence: str, value: float) -> bool:
    """Whether a sentence states this result as a loss ('reported a net loss of $45 million'): the nearest result
    word before the figure is a loss."""
    at = next((f.start for f in figures_located(sentence) if abs(f.value) == abs(value)), None)
    words = re.findall(r"(?i)\b(loss(?:es)?|income|profit|earnings)\b", sentence[max(0, at - 40):at]) if at else []
    return bool(words) and words[-1].lower().startswith("loss")


_BASIS_WORDS = frozenset({"non", "gaap", "non-gaap", "ifrs"})
"""Words of the basis a measure is stated on ('Adjusted Non GAAP EBITDA'), no name a row must hold."""
_BASIS_STEMS = frozenset(analyze("non gaap"))
_ADJUSTED_STEMS = frozenset(analyze("adjusted underlying core"))
"""Words that mark a measure as on an adjusted (non-GAAP) basis, so its basis words need not be said again."""
_WHERE_IN_REPORT = re.compile(r"(?i)\b(?:at|in|near|towards?)\s+the\s+(?:start|beginning|opening|top|end|close)\s+of\s+"
                              r"(?:the|its|their)\s+(?:[\w&.'’-]+\s*){1,4}?(?=\s+(?:in|of|for)\b|[,?]|$)")
"""Where in a report a thing stands ('at the start of the MD&A'): not what a sentence about it says."""
_REPORTING_VERB = re.compile(r"(?i)\b(?:discuss|describe|mention|highlight|cite|note|list|detail)(?:e?s|ed|ing)?\b")
"""The verb a question reports a report's words with ('Which acquisitions does it discuss'): the report's sentence
says the thing, not that it discusses it."""
_SOON_AFTER = re.compile(r"(?i)\s+(?:shortly|soon|just|right|immediately)\s+(?:after|before)\s+(?:the|its|their)\s+[^,;?]*?"
                         r"\b(?:ended|closed|began|started|end|close)\b")
"""When a deed was done relative to a period ('shortly after its fiscal 2023 second quarter ended')."""
_ANY_AMOUNT = re.compile(r"(?i)\bany\s+(?:money|amounts?|funds|sums?)\b")
"""'drawn any money', 'borrowed any funds': the question's word for an amount, which a report says otherwise."""
_BY_THE_END = re.compile(r"(?i)\b(?:by|at|before|as\s+of)\s+(?:the\s+)?(?:end|close)\s+of\b")
_BAR_WORDS = re.compile(r"(?i)\bor\s+(?:more|less|fewer|greater|higher|lower|above|below)\b|\bat\s+(?:least|most)\b|"
                        r"(?<=\bany\s)(?:single|individual|sole)\b")
_PAYOUT = re.compile(r"(?i)\b(?:dividends?|distributions?|buy-?backs?|repurchases?|returns?|returned)\b")
_TO_HOLDERS = re.compile(r"(?i)\bto\s+(?:its|their|the(?:\s+company'?s)?|our)?\s*(?:common\s+)?(?:share|stock|unit)"
                         r"-?holders?\b")
"""'to its shareholders' after a payout: who every dividend is paid to, no word a sentence about it must say."""
_DOING_ANY = re.compile(r"(?i)\b(make|made|announce[ds]?|report(?:ed)?|disclose[ds]?|record(?:ed)?|undertake|"
                        r"undertook|complete[ds]?|conduct(?:ed)?|carr(?:y|ied)\s+out|launch(?:ed)?|initiate[ds]?|"
                        r"start(?:ed)?|beg[ia]n|implement(?:ed)?)\s+(?:any|an?|new)\b")
_LEADS_INTO = re.compile(r"(?i)\b(?:following|as\s+follows|below|include[sd]?|including|consist(?:s|ed)?\s+of|"
                         r"comprise[sd]?|are|were|was|is)\s*:?\s*$|\bfollowing\b")
"""A sentence that only leads into what follows it ('The following table shows …:', '… were as follows:')."""
_AT_MEETING = re.compile(r"(?i)\bat\s+(?:the|its|their)\s+(?:[\w,]+\s+){0,4}?(?:annual|special|general|extraordinary)"
                         r"(?:\s+general)?(?:\s+(?:share|stock)holders?['’]?)?\s+meeting(?:\s+of\s+(?:share|stock)holders)?")
_SAY_ON_PAY = re.compile(r"(?i)\bsay[- ]on[- ]pay\b")
_DEFEATED = re.compile(r"(?i)\b(?:was|were)\s+(?:defeated|rejected)\b|\bfailed\s+to\s+(?:pass|receive)\b")
"""A vote's proposal that did not pass ('The shareholder proposal regarding independent Board Chair was defeated')."""
_APPROVED = frozenset(analyze("approve approved approves reject rejected rejects"))
_VOTED = frozenset(analyze("vote votes voting proposal proposals resolution resolutions"))
_OCCASION_AFTER = re.compile(r"(?i)\s+(?:after|following|since|upon|once|when)\s+(?:completing|the|its|it|they|[A-Z])"
                             r".*$")
"""The occasion a question asks a change at ('… after completing the Kenvue separation in August 2023')."""
_REVISION_VERBS = frozenset(analyze("cut cuts cutting raise raised raises lift lifted boost boosted hike hiked "
                                    "slash slashed trim trimmed suspend suspended"))
_KEPT = re.compile(r"(?i)\b(?:maintain(?:s|ed)?|kept|keeps?|unchanged|reaffirm(?:s|ed)?|held\s+steady|"
                   r"continues?\s+to\s+(?:pay|expect))\b")
"""A verb that says a thing stayed as it was ('Company maintains its quarterly dividend of $1.19 per share')."""
_RESTATED_OF = frozenset(analyze("prior previous earlier year years figure figures amount amounts number numbers "
                                  "comparative comparatives period periods"))
"""What a question about a restatement says it restated, which a report's sentence need not repeat ('We have
restated our prepaid and total wireless subscribers at December 31, 2023')."""
_PLACE_ASKED = re.compile(r"\b(?:in|within|outside(?:\s+of)?)\s+"
                          r"(?P<place>(?:the\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,3})"
                          r"(?=\s*[?,.]|\s*$|\s+(?:in|at|on|during|for|as|from|by|and|or|with|since)\b)")
"""Where a count is asked of ('How many people did it employ in the United States?')."""
_NOT_A_PLACE = re.compile(r"(?i)^(?:the\s+)?(?:january|february|march|april|may|june|july|august|september|october|"
                          r"november|december|fiscal|fy|q[1-4]|first|second|third|fourth|year|quarter)\b")
_NEW_ROLE = re.compile(r"(?i)\bnew\s+(?:chief|ceo|cfo|coo|cto|chair\w*|president|directors?|auditors?|"
                       r"(?:managing\s+)?director|head|leader|secretary|treasurer)\b")
"""A role asked of as new ('Who is its new CEO?'), which the sentence that names the person says otherwise
('… has been appointed President and Chief Executive Officer')."""
_KEEP_ASKED = re.compile(r"(?i)\b(?:(?:keep|continue|maintain|sustain)(?:s|ed)?\s+(?:(?:to\s+)?(?:pay|paying|offer|"
                         r"offering|run|running|operate|operating|fund|funding)\s+)?|still\s+(?:pays?|paying|offers?|"
                         r"offering|runs?|running|operates?|operating|funds?|funding|has|have|holds?|holding)\s+)")
"""A question whether a thing goes on ('would keep paying its regular dividend', 'continue its buyback', 'Is it
still paying its regular dividend'): the words after it are what goes on."""
_STOPPED = re.compile(r"(?i)\b(?:suspend(?:s|ed|ing)?|discontinu(?:e|es|ed|ing)|eliminat(?:e|es|ed|ing)|"
                      r"stopp?(?:s|ed|ing)?|ceas(?:e|es|ed|ing)|terminat(?:e|es|ed|ing)|halt(?:s|ed|ing)?|"
                      r"cancel(?:s|led|ed|ling|ing)?)\b")
"""A verb that says a thing no longer goes on ('determined to suspend our ongoing regular dividends')."""
_HAS_ASKED = re.compile(r"(?i)^\s*(?:does|do|did)\s+.{1,80}?\b(?:have|has|had|operate|run|maintain|sponsor)\s+"
                        r"(?:an?|any)\b")
"""A question whether a company has a thing ('Does Pellbury have a defined benefit pension scheme?')."""
_VALUES_ONLY = re.compile(r"^(?:[(\-–—]?[$£€]?\d[\d,.]*\)?[a-z%]{0,2}|—|–|-|nil)(?:\s+(?:[(\-–—]?[$£€]?\d[\d,.]*\)?"
                          r"[a-z%]{0,2}|—|–|-|nil))*\s*$")
"""A line of a table's values alone ('(3.8) 5.2'), as a statement page puts them under their label."""


_CONDITIONAL = re.compile(r"(?i)^\s*(?:if|should|unless|in\s+the\s+event)\b|\bwhen,?\s+as\s+and\s+if\b|"
                          r"\bif,?\s+(?:as\s+)?and\s+when\b")
"""A sentence that opens on a condition ('If we do not complete an announced acquisition …'): a risk factor; or
that grants a right on one ('Holders … are entitled to dividends when, as and if, declared by the board'): no
deed."""
_POINTS_BACK = re.compile(r"(?i)^\s*(?:its|their|it|they|these|this|those)\b|\bth(?:is|ese)\s+(?:transactions?|"
                          r"acquisitions?|deals?|purchases?|businesse?s?)\b")
"""A sentence about what the one before it names ('The initial purchase accounting for this transaction …')."""
_SUBSEQUENT = re.compile(r"(?i)^\s*subsequent\s+to\b")
"""'Subsequent to December 2, 2016, we completed our acquisition of TubeMogul': an event after the period."""
_STATED_MOVE = re.compile(
    r"(?i)\b(?:(?P<up>increased|rose|grew|improved|climbed|jumped|(?:was|were)\s+up|an?\s+(?:increase|rise|"
    r"improvement)\s+(?:of|by)|(?<=,\s)up(?=\s+\d))|(?P<down>decreased|fell|declined|dropped|deteriorated|shrank|"
    r"(?:was|were)\s+down|an?\s+(?:decrease|decline|fall|drop|reduction)\s+(?:of|by)|(?<=,\s)down(?=\s+\d)))\b")
_AGAINST_PRIOR = re.compile(r"(?i)\b(?:(?:prior|previous|preceding)[- ](?:fiscal\s+)?(?:year|quarter|period)|year[- ]ago|"
                            r"a\s+year\s+(?:earlier|ago|before)|same\s+(?:quarter|period)\s+(?:of\s+|in\s+)?(?:last|the\s+"
                            r"prior|the\s+previous)\s+year|last\s+year|pcp)\b")
"""A sentence's change stated against the period before ('… compared to the prior year quarter')."""
_BULLET = re.compile(r"^[•●▪–-]\s*")
_MOVED_BY = re.compile(r"(?i)\b(?P<verb>increased|decreased|rose|fell|grew|declined|dropped)\s+by\s+"
                       r"(?P<amount>(?:[A-Z]{0,3}[$€£¥])\s?\d[\d,]*(?:\.\d+)?(?:\s(?:million|billion|thousand))?)"
                       r"(?:,?\s+or\s+(?P<pct>\d+(?:\.\d+)?)\s?%)?")
"""A change stated by its amount ('increased by $484.8 million, or 78%'), its rate after it when given."""
_GRADE_STATED = re.compile(r"\b(?:was|is|were|are|of|at)\s+(?:an?\s+)?"
                           r"(?P<grade>(?:AAA|AA|A|BBB|BB|B|CCC|Aaa|Aa|Baa|Ba|Caa)(?:[+-]|[1-3])?)(?=[\s,.;)]|$)")
"""A credit grade a sentence states ('… comprising the portfolio was AA+ (based upon external ratings …)')."""
_WHAT_IS = re.compile(r"(?i)^\s*what\s+(?:is|was)\s+(?P<subject>the\s+[^?]{5,160}?)\s*\??\s*$")
"""'What is the average credit rating of …?': the thing asked, in the question's words."""
_GLUED_SCALE = re.compile(r"(\d)(million|billion|thousand)\b")
"""A scale word pypdf runs into its number ('$729.0million')."""
_KEPT_OUT = re.compile(r"(?i)\b(?:excluding|exclusive\s+of|other\s+than|apart\s+from|leaving\s+aside)\s+"
                       r"(?P<what>[^,]{2,60}),")
"""What a sentence leaves out of the measure it states ('Excluding bitcoin revenue, total net revenue …')."""
_LESS_PROFITABLE = re.compile(r"(?i)\bless\s+profitable\b|\bprofitability\s+(?:declin|deteriorat|fall|weaken)\w*")
_PROFIT_NAMES = ("operating income", "operating profit", "pretax income", "income before income taxes",
                 "segment income")
"""The profit a part's or company's profitability is read from, in order."""
_NAMES_BY_FIGURE = re.compile(r"(?i)^\s*(?:which|what|who)\s+(?:[\w&'’-]+\s+){0,3}?(?:together\s+|jointly\s+|"
                              r"collectively\s+|combined\s+)?(?:made\s+up|accounted\s+for|represented|contributed|"
                              r"generated|comprised|make\s+up|account\s+for|represent)\s+(?:about\s+|approximately\s+"
                              r"|roughly\s+)?(?P<figure>\d[\d,]*(?:\.\d+)?)\s?(?:%|percent\b)")
"""A question that gives a share and asks what it is of ('Which franchises together made up 67% of …')."""
_SEGMENTS_ASKED = re.compile(r"(?i)^\s*(?:what|which)\b[^?]*?\b(?:segments|divisions)\b")
_OF_SEGMENTS = re.compile(r"(?i)\b(?:revenues?|sales|income|profits?|margins?|many|much|largest|biggest|smallest|most|"
                          r"least|highest|lowest|best|worst|grew|grow|fastest|slowest|contributed?|earned?|share)\b")
"""A question that asks which segments a company has ('What were 3M's five business segments in 2018?', 'What
operating segments did it report?'), not which one did best or what one earned."""
_RATE_AFTER = re.compile(r"\s*(?:by\s+)?(?:approximately\s+|about\s+)?(\d+(?:\.\d+)?)\s?(?:%|percent\b)")
_OTHER_BASE = re.compile(r"(?i)\b(?:compared|versus|vs\.?|over|from|than|relative|against)\b")
"""Words that name what a stated change is measured against ('an increase of 25% over 2019 levels')."""
_EXCLUDING = re.compile(r"(?i)\b(?:excluding|exclusive\s+of|before|adjusted\s+for|net\s+of|on\s+a\s+\w+\s+basis)\b")


_COUNTED_DEED = re.compile(
    r"^(?:(?:[Rr]oughly|[Aa]pproximately|[Aa]bout|[Ss]o),?\s+)?[Hh]ow\s+many\s+.+?\s+(?:did|does|do|will|has|have)\s+"
    r"(?:(?:it|they|we|the\s+(?:company|group|firm))\s+|(?:[A-Z0-9][\w&.-]*\s+|&\s+)+?)"  # the subject: 'Ulta Beauty'
    r"(?:[\w&.-]*['’]s\s+[a-z][\w-]*\s+)?"  # or its part: "Johnson & Johnson's subsidiaries"
    r"(?P<verb>[a-z]{3,})\b(?P<and>\s+and\s+[a-z]{3,}\b)?")
"""'How many stores did Ulta Beauty open …': the verb after the subject, unless two are asked ('open and close')."""
_COUNTED_PASSIVE = re.compile(
    r"^(?:(?:[Rr]oughly|[Aa]pproximately|[Aa]bout|[Ss]o),?\s+)?[Hh]ow\s+many\s+.+?\s+"
    r"(?:were|was|have\s+been|had\s+been)\s+"
    r"(?P<done>[a-z]{3,}ed)\b(?P<where>\s+(?:in|under|through|by)\s+(?:the\s+|its\s+)?(?:[\w&'’-]+\s+){0,4}?"
    r"[\w&'’-]+(?=\s*[,?]|\s+(?:at|in|during|for|as\s+of)\s+(?:the\s+)?(?:end|close|fiscal|FY|(?:19|20)\d\d)))?")
"""'How many shares were accepted in the Kenvue exchange offer?', 'how many of its employees were represented by
unions at the end of fiscal 2021?': what was done to the things counted, and in or by what, as the answer names
them."""
_IRREGULAR = {"sell": "sold", "build": "built", "buy": "bought", "hold": "held", "make": "made", "run": "run",
              "win": "won", "lose": "lost", "pay": "paid", "grow": "grown", "sign": "signed"}
_NOT_DONE = frozenset({"have", "has", "had", "be", "is", "are", "was", "were", "do", "does", "did", "get", "got"})


_RESULT_KIND = r"operating|net|pre-?tax|contribution|segment"
_RESULT_ASKED = re.compile(
    r"(?i)^(?:did|does|has|have|had|was|were|is)\b[^?]*?\b(?:post|report|record|book|make|generat|turn|achiev|earn|"
    rf"deliver|show|produc|incur)\w*\s+(?:an?\s+)?(?P<kind>(?:{_RESULT_KIND})\s+)?(?P<what>profit|income|"
    r"loss|earnings)\b(?!\s+(?:tax(?:es)?|statements?|from|per|before|attributable|of|on|growth|margin)\b)")
"""A yes/no about the sign of a result ('Did it post an operating profit', 'Did it report a net loss', 'Did its
International segment turn a contribution profit')."""
_PROFITABLE = re.compile(rf"(?i)^(?:was|were|is|are|has|had|did|does)\b[^?]*?\b(?:(?P<kind>{_RESULT_KIND})\s+)?"
                         r"(?:profitable|(?:make|made|turn|turned)\s+(?:any\s+)?(?:money|a\s+profit)|"
                         r"in\s+the\s+black|(?P<what>in\s+the\s+red))\b"
                         rf"(?:[^?]*?\bon\s+an?\s+(?P<basis>{_RESULT_KIND})\s+basis\b)?"
                         r"(?![^?]*\bthan\b|\s+enough\b|\s+as\s+(?!of\b))")
"""A yes/no on whether a company or one of its parts made money at all ('Was PepsiCo's Europe division profitable in
2022?', 'Was its international streaming business in the black in 2017 on a contribution basis?'; 'in the red'
asks a loss): the sign of its result, not how profitable it is ('more profitable than', 'profitable enough')."""


def _counted_verb(question: str) -> str:
    """What was done to the things a count asks about, as the question's one verb says it: ' opened' of 'How many
    stores did it open in FY2024?', so the answer names the stores opened, not all of its stores; '' without one
    such verb ('How many facilities did its subsidiaries operate according to …': no verb before the period)."""
    deed = _COUNTED_DEED.search(asked_sentence(question))
    if deed is None and (passive := _COUNTED_PASSIVE.search(asked_sentence(question))):
        return f" {passive.group('done')}{passive.group('where') or ''}"  # ' accepted in the Kenvue exchange offer'
    verb = deed.group("verb") if deed and not deed.group("and") else ""
    if not re.fullmatch(r"[a-z]{3,}", verb) or verb in _NOT_DONE or verb.endswith(("ed", "ing")):
        return ""
    if verb in _IRREGULAR:
        return f" {_IRREGULAR[verb]}"
    if verb.endswith("e"):
        return f" {verb}d"
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return f" {verb[:-1]}ied"
    if len(verb) <= 4 and sum(c in "aeiou" for c in verb) == 1 and re.search(r"[^aeiou][aeiou][^aeiouwxy]$", verb):
        return f" {verb}{verb[-1]}ed"  # 'ship' → 'shipped', 'plan' → 'planned'; 'open' → 'opened'
    return f" {verb}ed"


_HEDGE_WORDS = r"approximately|about|around|nearly|roughly|almost|some|over|more\s+than"
"""The words a report hedges a figure with ('approximately 315,000')."""
_COUNT_SAID = re.compile(rf"(?i)(?:\b(?:{_HEDGE_WORDS}|fewer\s+than|less\s+than|under)\s+)?\d[\d,.]*"
                         r"(?:\s*(?:million|billion|thousand|mn|bn)\b)?(?:\s+(?:net\s+)?(?:new|additional)\b)?")
"""A count as a sentence states it, with the word that hedges it ('approximately 315,000'), its scale
('approximately 11 million shares') and the word that says the things counted are new ('opened 47 new stores'
states the stores opened)."""
_QUANTITY_SAID = re.compile(rf"(?i)(?:\b(?:{_HEDGE_WORDS})\s+)?(?<![\w$£€¥])\d[\d,.]*"
                            rf"(?:\s*(?:million|billion|thousand|mn|bn|m|k)\b)?(?!\s*%)")
"""A quantity of things as a sentence states it ('approximately 11 million'), its scale with it; never an amount of
money nor a per cent."""


def _stated_direction(sentence: str, measure: set[str]) -> int:
    """+1 / -1 when a sentence states the measure's own change ('Adjusted EBIT decreased by $88 million, or 6%'):
    its first word of rising or falling, with every word of the measure before it and no 'excluding …' clause
    (the change of another measure); 0 otherwise."""
    move = _STATED_MOVE.search(sentence)
    if move is None or not measure or _EXCLUDING.search(sentence[:move.start()]):
        return 0
    before = set(analyze(sentence[:move.start()]))
    if not all(stem_in_words(m, before) for m in measure):
        return 0
    return 1 if move.group("up") else -1


def _index_of(sentences: Sequence[str], sentence: str) -> int | None:
    """Where a sentence stands among a text's sentences, by its opening (a quote may end differently)."""
    return next((i for i, s in enumerate(sentences) if s[:60] == sentence[:60]), None)


def _its_figures(text: str, sentence: str, key: Sequence[frozenset[str]]) -> list[str]:
    """The sentences right after a 'Yes' sentence that give its figures: while each goes on about it (opens by
    pointing back, 'As previously reported, …', or holds the question's key words again) and states a figure, at
    most two ('We have restated our prepaid subscribers …' / 'As previously reported, prepaid subscribers … were
    687,000 …' / 'The change removed 41,000 inactive prepaid subscribers …')."""
    sentences = whole_sentences(text)
    at = _index_of(sentences, sentence)
    out: list[str] = []
    for following in sentences[at + 1:at + 3] if at is not None else []:
        words = set(analyze(following))
        goes_on = _CONTINUES.match(following) or all(any(stem_in_words(k, words) for k in g) for g in key)
        if not goes_on or not _states_amount(following) or is_boilerplate(following) or _NEXT_ITEM.match(following):
            break
        out.append(following)
    return out


def _states_amount(sentence: str) -> bool:
    """A figure that is no year ('41,000', '$54.88', '3.5%'), as a sentence states it."""
    return any(cur or scale or pct or not (1900 <= value <= 2100 and value == int(value))
               for cur, value, scale, pct in figures_in(sentence))


_NEXT_ITEM = re.compile(r"\s*(?:\(\d{1,2}\)|\d{1,2}[.)]\s)")
"""A numbered list's next item ('(4) The shareholders approved …'): another matter, not the one before it."""
_CONTINUES = re.compile(r"(?:Its|Their|It|They|These|This|Those|"
                        r"The\s+(?:change|restatement|adjustment|effect|impact)s?|"
                        r"As\s+previously\s+reported|Before\s+the\s+restatement)\b")
"""A sentence that goes on about what the one before it said."""


def _sentence_before(text: str, sentence: str) -> str:
    """The sentence of the text just before this one ('' when it is the first or is not found)."""
    sentences = whole_sentences(text)
    at = _index_of(sentences, sentence) or 0
    return sentences[at - 1] if at else ""


_REFERS_BACK = re.compile(r"(?:Its|Their|It|They|These|This|Those)\b")
"""A sentence that opens by pointing back at what the sentence before it names."""
_PERMITTED = re.compile(r"(?i)\b(?:authori[sz]ed|permitted|allowed|entitled|enables?\s+\w+)\s+to\s+[a-z]{3,}")
"""A deed permitted, not done ('we are authorized to repurchase up to $1.5 billion')."""
_BOUGHT_BACK = re.compile(r"(?i)\b(?:buy|buys|buying|bought)\s+back\b")
_THIS_THING = re.compile(r"(?i)\b(?:this|that|such|the\s+same)\s+(program(?:me)?|plan|agreement|facility|"
                         r"authori[sz]ation|offer|offering|transaction|acquisition|arrangement|policy)\b")
"""A thing a sentence points back at ('under this program'): the sentence before it says which."""
_PROPER_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")
"""A capitalised word: a name ('Fenmoor'), or a sentence's first word."""


_VERBS = frozenset("""pay paid won win make made generate generated ship shipped deliver delivered employ employed open
    opened close closed declare declared impose imposed agree agreed forecast expect expected give gave report reported
    bring brought earn earned hold held have had plan planning announce announced realise realised realize realized
    may borrow get under it recognise recognised recognize recognized contribute contributed""".split())


_REVISION = re.compile(r"(?i)\b(?:chang|revis|cut|lower|rais|lift|reduc|increas|updat|upgrad|downgrad|narrow|widen|"
                       r"withdr[ae]w)\w*\b")


_JUDGED_CHANGE = re.compile(r"(?i)\b(?:improv|worsen|deteriorat|weaken|strengthen)\w*")
"""Change words that judge rather than measure: whether a rise is good depends on the measure."""
_LOWER_IS_BETTER = re.compile(r"(?i)\b(?:leverage|gearing|debt|costs?|expenses?|loss(?:es)?|days|churn|"
                              r"impairments?|headcount\s+turnover|defects?|injur\w*|emissions?)\b")
"""Measures that improve as they fall."""


_AMOUNT_PAID = re.compile(r"(?i)\bhow\s+much\b.{0,80}\b(?:pay|paid|return|returned|spend|spent|distribute|"
                          r"distributed)\b")
"""An amount paid out asked ('How much did X pay in dividends'), which no rate per share answers."""
_PER_SHARE_AFTER = re.compile(r"(?i)^\s*(?:\S+\s+)?per\s+(?:common\s+|ordinary\s+)?share\b")


def _hedge_of(sentence: str, value: float) -> str:
    """The word a sentence hedges the figure of this value with ('approximately' of 'approximately 315,000
    people'); '' when it states it plainly or does not state it."""
    found = figure_located(sentence, value)
    hedge = _HEDGE.search(sentence[:found.start]) if found is not None else None
    return hedge.group(1).lower() if hedge else ""


_HEDGE = re.compile(rf"(?i)\b({_HEDGE_WORDS})\s*$")


def _after_figure(sentence: str, value: float) -> str:
    """What a sentence says right after the figure ('per share.' after '$0.79'); '' when it is not found."""
    found = figure_located(sentence, value)
    return sentence[found.end:found.end + 40] if found is not None else ""


def _verb_before(sentence: str, value: float, verb: str) -> int:
    """0 when the asked verb leads the figure of this value ('we operate 500'), 2 when another word that is no
    hedge does ('franchise 358'), 1 otherwise (the figure not found, or nothing before it)."""
    found = figure_located(sentence, value)
    if found is None:
        return 1
    before = re.findall(r"[A-Za-z]+", re.sub(r"(?i)\b(?:approximately|about|around|nearly|over|some|roughly)\s*$",
                                             "", sentence[:found.start]))
    if not before:
        return 1
    if stem_in_words(next(iter(analyze(verb)), verb), set(analyze(before[-1]))):
        return 0
    return 2 if before[-1].lower() not in _FUNCTION_BEFORE else 1


_FUNCTION_BEFORE = frozenset("had has have with of and at to from in by employed employ employs total".split())


def _up_to_figure(sentence: str, value: float) -> str:
    """The sentence up to the figure of this value and on to the end of its clause (the next comma or
    semicolon): 'generated $13.2 billion in cash proceeds as result of the Kenvue debt offering' names Kenvue;
    'revenue increased by $82.9 million, …, as … offset lower … Media revenue' does not name Media for it. All of
    the sentence when the figure is not found as written."""
    found = figure_located(sentence, value)
    if found is None:
        return sentence
    return sentence[:found.end] + re.split(r"[,;]", sentence[found.end:], maxsplit=1)[0]


_AMOUNT_OR = re.compile(r"[$£€¥]\s?\d[\d,.]*(?:\s*(?:million|billion|thousand)\b)?[^.;$£€¥]{0,60}?,?\s+or\s+"
                        r"(?=(?:approximately\s+|about\s+)?\d[\d.,]*\s+(?:million\s+|billion\s+|thousand\s+)?"
                        r"(?:[a-z]+\s+)?shares\b)")
"""An amount and its aside before the shares it bought ('$431 million, excluding transaction costs, or ')."""


def _revises(sentence: str, key: Sequence[frozenset[str]]) -> bool:
    """Whether the sentence tells of the revision of something asked: a verb of revision a few words before a
    key word ('led us to lower our FY2024 guidance'), not the participle of a thing ('within its revised
    guidance range')."""
    for m in _REVISION.finditer(sentence):
        if re.search(r"(?i)\b(?:its|our|their|the|a|an|this|that)\s+$", sentence[max(0, m.start() - 8):m.start()]):
            continue
        after = set(analyze(" ".join(sentence[m.end():].split()[:4])))
        if any(stem_in_words(k, after) for g in key for k in g):
            return True
    return False


_LINE_ITEM_ROW = re.compile(r"(?i)\b(?:income|earnings|per\s+share|attributable|expenses?|costs?|taxes|"
                            r"provision|depreciation|amortization|amortisation|interest)\b")
"""Words of a statement's line item, which no segment is named by."""


def _names_its_list(sentence: str, key: Sequence[frozenset[str]]) -> bool:
    """Whether a key word stands just before a verb that opens a list ('… segments are Seller and Cash App',
    '… brands include …'), so the sentence is the list, not one that mentions its subject in passing."""
    for found in re.finditer(r"(?i)\b([a-z][\w-]*)\s+(?:are|were|include|includes|included|comprise|comprises|"
                             r"consist\s+of|consists\s+of)\b", sentence):
        words = set(analyze(found.group(1)))
        if any(stem_in_words(k, words) for g in key for k in g):
            return True
    return False


def _one_of_its_items(sentence: str, key: Sequence[frozenset[str]]) -> bool:
    """Whether a key word is one item of the sentence's own enumeration ('includes restructuring, acquisition,
    litigation, and integration expenses'): a list of other things, the one asked among them, not its list."""
    for run in re.finditer(r"(?i)\b[a-z][\w-]*(?:\s*,\s*(?:and\s+|or\s+)?[a-z][\w-]*){2,}", sentence):
        for item in re.split(r"\s*,\s*(?:and\s+|or\s+)?", run.group(0)):
            words = set(analyze(item))
            if words and any(stem_in_words(k, words) for g in key for k in g):
                return True
    return False


def _holds_all(text: str, key: set[str]) -> bool:
    words = set(analyze(text))
    return all(stem_in_words(k, words) for k in key)


_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")
_NUMBER_WORDS = {w: n for n, w in enumerate(_COUNT_WORDS) if n >= 2}
_ITEM_OPENERS = frozenset({"The", "It", "Its", "This", "These", "Those", "We", "Our", "In", "At", "For", "As", "All",
                           "Each", "Both", "There", "They", "Their"})


def _counted_list(scored: Sequence[tuple[float, int, str, Block]], head: str) -> list[str]:
    """A sentence that counts what a list question asks ('The Group is managed in three segments.') followed by
    that many sentences, each opening with an item's name ('Industrial Drives supplies … Mobility Solutions
    develops … Service comprises …'): the count, then the items' sentences, each cited. [] when none does."""
    for _, _, sentence, block in scored:
        words = re.findall(r"[A-Za-z][\w-]*|\d+", sentence)
        for i, word in enumerate(words):
            n = _NUMBER_WORDS.get(word.lower()) or (int(word) if word.isdigit() and 2 <= int(word) <= 12 else 0)
            if not n or not any(analyze(w)[:1] == [head] for w in words[i + 1:i + 3]):
                continue
            sentences = whole_sentences(block.text)
            at = next((j for j, s in enumerate(sentences) if s == sentence), None)
            items = sentences[at + 1:at + 1 + n] if at is not None else []
            if len(items) == n and all(re.match(r"[A-Z]", s) and s.split()[0] not in _ITEM_OPENERS for s in items):
                # each item by the capitalised name its sentence opens with ('Mobility Solutions develops …')
                names = [re.match(r"[A-Z][\w&'’-]*(?:\s+(?:&\s+)?[A-Z][\w&'’-]*)*", s).group(0) for s in items]
                lead = f"{sentence.rstrip('.')}: {', '.join(names[:-1])} and {names[-1]}"
                return [cite(lead, [block.n]), *(cite(s.rstrip("."), [block.n]) for s in items)]
    return []


_JOINTLY = re.compile(r"(?i)\b(?:collectively|combined|together|in\s+(?:the\s+)?aggregate|taken\s+together|jointly)\b")


def jointly_stated(sentence: str, name: str) -> bool:
    """Whether a sentence gives its figure for several parts together, the name one of a list of them ('in 2019,
    the Call of Duty, Candy Crush, and World of Warcraft franchises, collectively, accounted for 67%')."""
    text = " ".join(sentence.split())
    at = text.casefold().find(name.casefold())
    if at < 0 or not _JOINTLY.search(text):
        return False
    around = text[max(0, at - 60):at + len(name) + 60]
    named = re.escape(name)
    # (a list: another name right before or after it, 'Call of Duty, Candy Crush, and World of Warcraft'; not the
    # comma of 'In 2019, the Call of Duty franchise')
    return bool(re.search(rf"[A-Z][\w'’-]*\s*(?:,|\band\b|&)\s*(?:and\s+)?(?:the\s+)?{named}\b|"
                          rf"\b{named}\s*(?:,|\band\b|&)\s*(?:and\s+)?(?:the\s+)?[A-Z]", around))


def _count_word(n: int) -> str:
    return _COUNT_WORDS[n] if 0 <= n < len(_COUNT_WORDS) else str(n)


def two_changes(a: str, ca: float, b: str, cb: float, noun: str, when: str) -> str:
    """Two members' changes, the higher first, worded by their signs: 'U.S. sales rose 3.0% in 2022, while
    international sales fell 0.6%'; 'A grew faster than B in 2022: up 5.0% against up 2.0%'. Each change keeps
    one decimal, as reports state them."""
    when = f" {when}" if when else ""
    if ca > 0 > cb:
        return f"{a} {noun} rose {ca:.1f}%{when}, while {b} {noun} fell {abs(cb):.1f}%"
    if ca == cb:
        moved = "were unchanged" if ca == 0 else f"{'rose' if ca > 0 else 'fell'} {abs(ca):.1f}% each"
        return f"{a} and {b} {noun} {moved}{when}"

    def moved(change: float) -> str:
        return f"{'up' if change > 0 else 'down' if change < 0 else 'unchanged at'} {abs(change):.1f}%"

    verb = "grew faster than" if cb >= 0 else "fell less than"
    return f"{a} {noun} {verb} {b} {noun}{when}: {moved(ca)} against {moved(cb)}"


def _unbulleted(sentence: str) -> str:
    """A sentence without the bullet a list item opens with ('• Company maintains its quarterly dividend …'), or
    the letter of an agreement's clause ('(d) Subject to Section 14(b) hereof, …')."""
    return re.sub(r"^(?:[•▪◦‣*-]|\([a-z]{1,3}\))\s+", "", sentence)


_CONNECTIVE = re.compile(r"(?i)^(?:furthermore|moreover|additionally|in\s+addition|also|further),\s+(?=\w)")


def _stated_alone(sentence: str) -> str:
    """A sentence stated on its own after a 'Yes.'/'No.': its bullet and the word tying it to the sentence before
    ('Furthermore, the Company announced …') dropped, its first letter capital."""
    alone = _CONNECTIVE.sub("", _unbulleted(sentence.strip()))
    return alone[:1].upper() + alone[1:]


_REGION_LAST = re.compile(r"^(?P<measure>[a-z][\w\s-]*?)\s+(?P<region>(?:[A-Z][\w.&'’-]*\s+){1,3}regions?)$")
"""A measure whose words end in the region it is of, the region named as a place ('net revenues Asia Pacific
region'): said as 'net revenues in the Asia Pacific region'."""


def _agreeing(words: str) -> str:
    """'was' or 'were', as the measure's head noun takes it: the last word before a joining word ('net cash from
    operating activities' is 'cash'); 'number of …' is one number."""
    if words.startswith("number of"):
        return "was"
    head = re.split(r"(?i)\s+(?:of|from|for|per|to|on|by|in|provided|generated|used|attributable)\s+",
                    re.sub(r"\s*\([^)]*\)", "", words), maxsplit=1)[0]
    last = head.split()[-1:] or [""]
    plural = last[0].lower().endswith("s") and not last[0].lower().endswith(("ss", "us", "is", "ics"))
    return "were" if plural else "was"


_TABLE_LINE = re.compile(r"\b(?:19|20)\d{2}\d{1,3}(?:,\d{3})+\b")
"""A year run into the figure after it ('December 31, 202049,571'): a table's header and cell, not prose."""


def latest_report_facts(facts: Sequence[Fact], blocks: Sequence[Block], period_named: bool,
                        compared: bool = False) -> list[Fact]:
    """A question that names no period asks of the latest annual report: the facts of its year or later, never an
    older report's (the FY2018 report's dividend per share when the FY2022 report is held but its passage was
    not found), for each company whose annual reports are among the blocks. A change asked (`compared`) also
    keeps the year before as that latest report states it."""
    if period_named:
        return list(facts)
    latest: dict[str, int] = {}
    for block in blocks:
        if block.kind == "report" and block.fiscal_year and filing_name(block).form in ("10-K", "annual", "20-F"):
            key = (block.company or "").casefold()
            latest[key] = max(latest.get(key, 0), block.fiscal_year)

    def kept(f: Fact) -> bool:
        year = latest.get((f.figure.company or "").casefold(), 0)
        return (f.figure.fiscal_year or 0) >= year or compared and (f.figure.fiscal_year or 0) == year - 1 \
            and (f.filed_year or 0) >= year

    return [f for f in facts if kept(f)]


def _qualifiers_of(title: str) -> str:
    """The qualifying words a table's title says of its rows ('Adjusted non-GAAP results' → 'Adjusted non-GAAP')."""
    return " ".join(w for w in title.split() if is_qualifier_word(w.strip("(),:")))


_HEAD_ENDS = re.compile(r"(?i)\s+(?:of|attributable|to|from|for|in|per|by|on|at|including|excluding|net\s+of|"
                        r"before|after|under|as)\b.*$")


def _modifies_head(stem: str, phrase: str) -> bool:
    """Whether a word of a measure is one that modifies its head noun from before it ('wireless' of 'prepaid
    wireless subscribers'): never the head itself ('repurchases' of 'repurchases of common stock') nor what
    follows it ('attributable' of 'net income attributable to 3M'), which a fact must say."""
    words = analyze(_HEAD_ENDS.sub("", phrase))
    return stem in words[:-1] or stem in _GENERIC_HEADS  # 'business' of 'renewal rate warehousing business'


_TOTAL_WORDS = frozenset(analyze("total overall"))

_RATIO_HEADS = frozenset(analyze("ratio ratios rate rates margin margins yield"))
_GROWTH_HEADS = frozenset(analyze("growth change"))
"""The head of a measure asked as a change ('comparable sales growth'), which a per cent stated with a verb of
change ('Comparable sales increased 15.6%') is."""
_CHANGE_SAID = re.compile(r"(?i)\b(?:increas|decreas|grew|grow|rose|risen|fell|fallen|declin|drop|climb|jump)\w*")
"""Head nouns that make a measure a ratio of others ('CET1 capital ratio', 'operating profit margin'): a figure
of the measure without them is an amount."""

_GENERIC_HEADS = frozenset(analyze("business businesses segment segments division divisions operations unit units "
                                   "arm group share proportion percentage portion pay paid spend spent receive "
                                   "received"))
"""Words that name whose figure it is, not what is measured, that a per cent says by itself ('represents 33.3%
of Group revenue' is a share), or the verb of what was paid ('pay for Redgum Copper'): a fact need not repeat
them."""


def _says(label: str, measure: str) -> bool:
    """Whether a label already says the measure (every word of it, by stem)."""
    have = set(analyze(label))
    return all(w in have or any(len(w) >= 5 and h[:5] == w[:5] for h in have) for w in analyze(measure))


_TWO_DEEDS = re.compile(r"(?i)^how\s+many\s+(?P<noun>[\w-]+(?:\s+[\w-]+)?)\s+(?:did|does|do|will|has|have)\s+.{1,60}?\s"
                        r"(?P<a>[a-z]{3,})(?:\s+and\s+(?P<b>[a-z]{3,}))?(?=\s+(?:in|during|over|for|at|by|across|"
                        r"worldwide|globally)\b|\s*[?,.]|\s*$)")
"""'How many stores did Pellbury open and close …?': one or two deeds, one count each."""
_HOME_AND_ABROAD = re.compile(r"(?i)\bin\s+(?P<home>(?:the\s+)?(?:United\s+States|U\.S\.(?:A\.)?|USA?)|its\s+home\s+"
                              r"country)\s+and\s+(?P<abroad>internationally|abroad|overseas|outside\s+(?:of\s+)?(?:it|"
                              r"the\s+(?:United\s+States|U\.S\.)))")
"""A count asked for two places, home and abroad ('in the United States and internationally')."""
_SAID_ABROAD = re.compile(r"(?i)\b(?:international(?:ly)?|outside\s+(?:of\s+)?the\s+(?:United\s+States|U\.S\.)|abroad|"
                          r"overseas|other\s+countries|foreign)\b")
_OF_THAT = re.compile(r"(?i)^how\s+much\s+of\s+(?:that|it|this|those|them|these)\b(?P<rest>[^?]*\??)$")
"""A second part asked of the first's whole ('how much of that was held by MGM China?')."""
_COUNTS_AS = re.compile(r"(?i)^what\s+(?:counts|qualifies|is\s+considered|is\s+classed)\s+as\s+(?P<thing>.+)$")
"""A second part that asks what a term the first used means ('and what counts as a larger seller?')."""
_OF_THEM = re.compile(r"(?i)(?P<ask>how\s+many)\s+of\s+(?:them|those|these)\b")
"""A second part that counts a part of what the first counted ('and how many of them were …')."""
_NOT_DEEDS = frozenset("have has had own hold holds employ employs operate operates report reports record make be "
                       "are is was were".split())
"""Verbs that say what a company has, not what it did in the year: 'how many stores does it have' is a
headcount-like count, answered as one."""


def _plain_phrase(phrase: str) -> bool:
    """A measure the answer can name as the question did: a short noun phrase ('underlying EBITDA', 'order
    backlog'), not the leftovers of a question ('pay MHz spectrum licences won auction')."""
    # ('cash dividends paid per share', 'income taxes paid': the participle names the line, no verb of the question)
    words = re.sub(r"(?i)\b(dividends?|interest|tax(?:es)?)\s+paid\b", r"\1", phrase).lower().split()
    # an adverb is a question's ('provisionally recognise'); a period's adjective is a measure's ('quarterly')
    adverb = any(len(w) > 5 and w.endswith("ly") and w not in _PERIOD_ADJECTIVES for w in words)
    return 0 < len(words) <= 7 and not set(words) & _VERBS and not adverb


_PERIOD_ADJECTIVES = frozenset({"quarterly", "yearly", "monthly", "weekly", "daily", "half-yearly", "early"})


def _named(fact: Fact, measure: str) -> str:
    """What a judged figure is called: a row's own label ('operating margin', 'net debt / Adjusted EBITDA', its
    unit aside), else the measure the judgement rests on."""
    label = re.sub(r"\s*\([^)]*\)", "", fact.figure.label).strip()
    return measure_phrase(label) if fact.origin != "text" and len(label.split()) >= 2 else measure


_ISO_DAY_TAIL = re.compile(r"((?:19|20)\d{2})-(\d{2}-\d{2})$")
_WEAK_DEGREES = frozenset({"weak", "stretched"})
_WHICH_PERIOD = re.compile(r"(?i)^\s*(?:in\s+)?(?:which|what)\s+(?:fiscal\s+)?quarter\b")
"""A ranking of a year's quarters ('Which quarter of 2015 delivered its lowest net income?')."""
_WORLDWIDE_ROW = re.compile(r"(?i)^(?:WW|Worldwide)\s+-?[\d,]")


def _day_said(day: str) -> str:
    """'2022-12-31' → '31 December 2022'."""
    return f"{int(day[8:])} {_MONTH_NAMES[int(day[5:7])]} {day[:4]}"


def _capital_name(ratio: Any) -> str:
    """A capital ratio named as its table names it: 'Common Equity Tier 1 ratio', 'Total capital ratio', 'Tier 1
    leverage ratio' ('CET1 capital ratio' as it stands)."""
    named = re.search(r"(?i)\bcapital\b|\bleverage\b|^CET1\b", ratio.name)
    name = ratio.name if named or ratio.measure != "Total capital" else f"{ratio.name} capital"
    return name if re.search(r"(?i)\bratio$", name) else f"{name} ratio"
"""Degrees a judgement is asked in that say it fails ('How stretched was its balance sheet?')."""
"""A period's day ('2021-03-31', '3M 2021-03-31'): its year and its month and day."""


def _inputs_said(result: CalcResult) -> str:
    """'net cash (used in) provided by operating activities of -$1,785,948k, purchases of property and
    equipment of -$173,302k and net income of $558,929k, all in FY2017': a judged metric's inputs as its
    statements give them, so a reader sees what the ratio weighs; '' for a metric of more than four inputs."""
    figures = list(result.sources.values())
    if not 2 <= len(figures) <= 4:
        return ""
    periods = {period_text(f) for f in figures}
    one = len(periods) == 1  # one period for all: said once, at the end
    said = [f"{f.label[:1].lower() + f.label[1:]} of {as_stated(f)}" + ("" if one else f" {period_text(f)}")
            for f in figures]
    return ", ".join(said[:-1]) + f" and {said[-1]}" + (f", all {periods.pop()}" if one else "")


def _measure_unit(measure: str, unit: str) -> str:
    """A judgement's measure in times ('net debt / EBITDA', 'interest cover') or in the convention's unit."""
    return "x" if re.search(r"(?i)/|\bto\s+(?:adjusted\s+)?EBITDA\b|\btimes\b|(?<!liquidity\s)\bcover", measure) else unit


JUDGED_MATCH = 0.75
"""How fully a fact must name a judgement's measure to be judged by (see facts.query.label_match): a sentence that
says 'ratios' alone names no current ratio."""


def _fits_unit(unit: str, wanted: str) -> bool:
    """A figure's unit fits a convention's ('%' a percentage, 'x' a ratio, which a statement may print bare)."""
    if wanted == "%":
        return unit.endswith("%")
    return unit in ("x", "") or unit.endswith("x")


def metric_pair(results: Sequence[CalcResult]) -> tuple[tuple[CalcResult, int], tuple[CalcResult, int]] | None:
    """One metric computed for two fiscal years of one company (a change question's plan,
    app/metric_plans.py), earlier first, each with its year; None for anything else."""
    metrics = [r for r in results if r.tool == "metric" and "years" not in str(r.expression)]
    if len(metrics) != 2 or len({(_metric_name(r), r.unit) for r in metrics}) != 1:
        return None
    dated = []
    for r in metrics:
        years = [f.fiscal_year for f in r.sources.values() if f.fiscal_year]
        companies = {(f.company or "").casefold() for f in r.sources.values()}
        if not years or len(companies) > 1:
            return None
        dated.append((r, max(years)))
    dated.sort(key=lambda x: x[1])
    if dated[0][1] == dated[1][1]:
        return None
    return dated[0], dated[1]


def _metric_name(result: CalcResult) -> str:
    return str(result.formula or "").split(" = ")[0].strip()


def _one_series(result: CalcResult) -> bool:
    """A difference or percentage change between two periods of one company's one measure."""
    figures = list(result.sources.values())
    return (result.tool in ("difference", "percentage_change") and len(figures) == 2
            and len({(f.company or "").casefold() for f in figures}) == 1
            and len({f.fiscal_year for f in figures}) == 2)


_RANKS = re.compile(r"(?i)\b(?:largest|biggest|greatest|highest|most|lowest|smallest|least|fewest|worst|best|"
                    r"strongest|"
                    r"weakest|fastest|slowest|majority|leading|top|bottom|primarily|mainly|mostly|dragged|held\s+back)\b")
"""Words with which a sentence ranks what it names: a claim standing in for an extreme question's answer must."""
_GENERIC = frozenset(analyze(
    "business businesses company group plan plans planning any its their there does did is are was were have has "
    "had report reports annual disclosed disclose disclosure lists list mention mentioned main principal major key "
    "primary what which why how look looking book booked record recorded recognise recognised recognize "
    "recognized year years financial fiscal during drove drive driven cause caused reason reasons explain fall "
    "fell rise rose increase increased decrease decreased decline declined change changed even though although "
    "compared own onward onwards henceforth still currently"))


def _is_statement_sentence(sentence: str) -> bool:
    """A sentence that states something: eight words or more, opening as a sentence does, not a heading (mostly
    capitalised words, unless a verb joins them), a running footer or a contents line (ending in a page
    number)."""
    words = re.findall(r"[A-Za-z][\w'’-]*", sentence)
    if sentence[:1].islower() or re.search(r"\s\d{1,3}\s*$", sentence):
        return False
    if len(words) < 8:
        # a short one ends as a sentence and writes most of its words in lower case ('We had no product
        # recalls in FY2023.'); a heading does neither
        return len(words) >= 5 and sentence.rstrip().endswith(".") and sum(
            w[0].isupper() for w in words) < 0.5 * len(words)
    if sum(w[0].isupper() for w in words) < 0.6 * len(words):
        return True
    # names and titles capitalise most words of a sentence that states who holds what ('Our executive officers
    # are Anneliese Varga, President and Chief Executive Officer since January 2021; …'): a long one that ends as
    # a sentence and joins its names with lower-case verbs is no heading
    lowered = {w for w in words if w.islower()}
    return (len(words) >= 12 and sentence.rstrip().endswith(".")
            and bool(lowered & {"is", "are", "was", "were", "has", "have", "had", "serves", "served", "joined"}))


def _sentence_case(item: str) -> str:
    """An item stated as a sentence of its own: a capital first, the separator it ended with dropped ('revenue
    of $1.02bn to $1.08bn;' → 'Revenue of $1.02bn to $1.08bn')."""
    item = re.sub(r"\s*[;,]\s*(?:and|or)?\s*$", "", item.strip())
    return item[:1].upper() + item[1:]


def _item_title(item: str) -> str:
    """An enumerated item as a list names it: without the clause that describes it ('Latin America (LatAm),
    which includes all of our beverage and convenient food businesses in Latin America;' → 'Latin America
    (LatAm)') or the separator it ends with ('; and')."""
    item = re.sub(r"(?:[;,]\s*(?:and|or)?|\s+and)\s*$", "", item.strip()).strip()
    head = re.split(r",\s+(?:which|that|who|where)\b", item, maxsplit=1)[0].strip()
    return head if head and head != item and not head.endswith(".") else item


_PLACES = {k: frozenset({"geographi", "geograph", "region", "segment", "divis", "market"}) - {k}
           for k in ("geographi", "geograph", "region")}
"""A list of a company's geographies or regions is given by the segments (or divisions) it reports them as."""


_DEED = re.compile(r"(?i)\b(?:completed|closed|announced|agreed\s+to|entered\s+into)\b(?:\s+[\w-]+){0,3}?\s+"
                   r"(?:acquisitions?|purchases?|sales?|disposals?|mergers?|divestitures?|spin-offs?|separations?)"
                   r"\s+of\b|\b(?:we|the\s+company|the\s+group)\s+(?:acquired|purchased|sold|divested)\b")
"""A sentence that tells a deed ('On March 17, 2023, the Company completed the acquisition of …'), which a list of
such deeds lists."""

_PERSONAL = frozenset(analyze("she he her him his hers"))
_SHE = re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)
_HE = re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE)


_EXCLUDING_LABEL = re.compile(r"(?i)\b(?:excluding|ex|less|other\s+than|before|non)\b[\s-]*(?P<what>.+)$")
"""What a figure's label says it leaves out ('Revenue excluding bitcoin', 'Net sales ex-fuel')."""


def _names_excluding(label: str, left_out: frozenset[str]) -> bool:
    """Whether a figure's label says it leaves out what the question leaves out ('Revenue excluding bitcoin')."""
    kept_out = _EXCLUDING_LABEL.search(label)
    return kept_out is not None and all(stem_in_words(w, set(analyze(kept_out.group("what")))) for w in left_out)


def _person_said(text: str) -> str | None:
    """'she' or 'he' when the text speaks of one person as a woman or as a man (and not of both); else None."""
    she, he = bool(_SHE.search(text)), bool(_HE.search(text))
    return "she" if she and not he else "he" if he and not she else None


def _report_says(sentence: str, n: int) -> str:
    """The sentence an answer rests on, quoted whole and cited: 'The report says: "…." [n]'."""
    return cite(f'The report says: "{sentence.rstrip(".")}."', [n])


def _whose(company: str) -> str:
    """The owner an answer's subject opens with: "Northwind Logistics'", or 'The' when no company is known."""
    return possessive(company) if company else "The"


def _in_sentence(phrase: str) -> str:
    """A measure as a sentence says it: its first letter lowered unless its first word is written in capitals
    ('the Total revenue', 'the Dividend per share': a form's capitals, no name; 'EBITDA margin' kept)."""
    return phrase[:1].lower() + phrase[1:] if phrase[1:2].islower() else phrase


_SAME_ROLE = {"ceo": frozenset({"chief"}), "chief": frozenset({"ceo"}), "cfo": frozenset({"chief"}),
              **{k: frozenset({"replac", "succeed", "successor", "success", "appoint"}) - {k}
                 for k in ("replac", "succeed", "successor")},
              # a vote's outcome either way: 'Did shareholders approve the proposal?' / '… was defeated'
              **{k: frozenset(analyze("approved defeated rejected adopted")) - {k} for k in analyze("approve")},
              # a share of a whole: 'accounted for 10% of net revenue' / 'represented at least 10% of net revenue'
              **{k: frozenset(analyze("represented comprised constituted")) for k in analyze("account")},
              # a deal as a filing words it: 'sign an agreement to buy' / 'entered into an agreement to acquire'
              **{k: frozenset(analyze("entered executed")) for k in analyze("sign")},
              **{k: frozenset(analyze("acquire acquisition purchase")) for k in analyze("buy")},
              # a cost borne for someone: 'will the company cover her legal fees' / 'shall reimburse … legal fees'
              **{k: frozenset(analyze("reimburse pay")) for k in analyze("cover")}}
"""Words a report writes for what a question asks about people: 'CEO' as 'Chief Executive Officer', 'replaced'
as 'succeeding' or 'appointed … as'; and for a share: 'accounted for' as 'represented'."""


_CHANGES_HEADING = re.compile(r"(?i)\b(?:increases?|decreases?|changes?|growth)\s+in\b")
"""A heading over a table of changes ('Increases in net sales:'): its per cents are each row's change."""
_SOLD = re.compile(r"(?i)\b(?:sale|disposal|divestiture)\s+of\b|\bdivest(?:ed|s|ing)?\b|"
                   r"\bdisposed\s+of\b|\buntil\s+(?:its|their)\s+sale\b")
"""A sentence that says something was sold, in the noun of the deed ('the sale of its Russian business', 'until
their sale on December 23, 2022'): a business sold, which 'sales' (revenue) never says, so 'sell' is no
nominal of `app.text.terms` ('sold' needs no pattern here: `stem_in_words` knows it as sell's irregular form)."""
_TAKING_UP = frozenset(analyze("become became join joined take took start started begin began"))
"""Verbs of taking up a role or place, which the sentence that dates it rarely uses ('her appointment as President
and Chief Executive Officer …, effective September 1, 2022')."""
_OUTSIDE_ASKED = re.compile(rf"(?i)\b{OUTSIDE_HOME}")
"""A place outside the home country, as a question words it."""
_DATE_WORDS = frozenset(analyze("date dated day"))
"""What 'on what date' asks besides the thing it dates."""


def _restates(sentence: str, said: str) -> bool:
    """Whether a sentence says again what one already said: all but a fifth of the shorter one's words are the
    other's ('In July 2022, 3M announced its intention to spin off the Health Care business …' in three notes)."""
    a, b = set(analyze(sentence)), set(analyze(said))
    return bool(a and b) and len(a & b) >= 0.8 * min(len(a), len(b))


def _only_modifiers(key: Sequence[frozenset[str]], hits: Sequence[frozenset[str]]) -> bool:
    """Whether every key group a sentence misses is the first of two words the question writes together ('common'
    of 'common stock': the group {'common', 'commonstock'}) whose second the sentence holds ('… any cash dividends on
    our capital stock'): what a yes/no asks of, named otherwise."""
    def modifier(group: frozenset[str]) -> bool:
        return any(joined != word and joined.startswith(word) and any(joined in hit for hit in hits)
                   for joined in group for word in group)

    missing = [g for g in key if g not in hits]
    return bool(missing) and all(modifier(g) for g in missing)


_DATE_ASKED = re.compile(r"(?i)\s*(?:on\s+|as\s+of\s+)?(?:what|which)\s+(?:date|day)\b")
_WHO_ASKED = re.compile(r"(?i)\s*(?:(?:to|from|with|by|for)\s+)?(?:who|whom|which\s+(?:company|firm|bank|buyer|"
                        r"acquirer|purchaser|partner|customer|supplier|auditor|person|executive|individual))\b")
"""A question that asks for someone by name: a person, or a company a deed was done with ('To which company did 3M
sell its division')."""


def _names_other(sentence: str, question: str) -> bool:
    """Whether a sentence names a person the question does not: two capitalised words in a row ('Tomás
    Reyes-Hartley'), neither of them in the question, not opening the sentence."""
    asked = {re.sub(r"['’]s?$", "", w.lower()) for w in re.findall(r"[\w'’-]+", question)}
    for m in re.finditer(r"\b([A-Z][\w'’-]+)\s+([A-Z][\w'’-]+)\b", sentence):
        if m.start() > 0 or re.match(r"\S+\s+\S+\s+(?:became|was|has\s+been|succeed|replac|join)", sentence):
            if not {re.sub(r"['’]s?$", "", m.group(i).lower()) for i in (1, 2)} & asked:
                return True
    return False


def question_verb(asked: str) -> set[str]:
    """The stems of a yes/no question's verb, and of the noun reports write for it: 'Did Osprey book an
    impairment?' → book; 'Does 3M pay a dividend?' → pay, payment (the company's name, in capitals, skipped)."""
    found = re.match(r"(?i)\s*(?:did|does|do|has|have|had|is|are|was|were|will|can)\s+((?:\S+\s+){0,5})", asked)
    if found is None:
        return set()
    for word in found.group(1).split():
        if word[:1].islower() and word.isalpha() and word not in ("the", "a", "an", "any", "its", "their"):
            return {*analyze(word), *analyze(" ".join(nominal_forms(word)))}
    return set()


def _denies(sentence: str, key: set[str], verb: set[str] = frozenset()) -> bool:
    """Whether a sentence denies what was asked: a negation with one of the question's key words within the six
    words after it ('No single customer accounted for …', 'did not close any plant'), not a negation of
    something else ('Other than the impairment of the Kerrup Lithium Operation …, there were no significant
    changes' states an impairment)."""
    found = list(re.finditer(r"[A-Za-z][\w'’-]*", sentence))
    words = [m.group() for m in found]
    if any(len(w) >= 6 and w.lower().startswith("un") and re.search(r"(?:ed|en|wn)$", w)
           and any(stem_in_words(k, set(analyze(w[2:]))) for k in key) for w in words):
        return True  # 'all of which was undrawn' denies that it was drawn
    for i, word in enumerate(words):
        if not _NEGATION.fullmatch(word) and not (word.lower() in ("did", "does", "has", "have", "was", "were", "is",
                                                                   "are") and i + 1 < len(words)
                                                 and words[i + 1].lower() == "not"):
            continue
        if re.search(r"(?i)\b(?:other than|except|apart from|aside from|besides)\b", " ".join(words[:i])):
            continue
        following = words[i + 1:i + 7]
        denied: list[str] = []  # the verbs a verb's negation denies
        if word.lower() in ("did", "does", "has", "have", "was", "were", "is", "are", "not", "never"):
            # a verb's negation denies what that verb says: 'did not close any plant' denies a closure, 'do not
            # restrict the payment of dividends' denies a restriction, not the dividends
            # the verb denied, and those a clause lists with it ('not to … solicit, hire, recruit …'): (the fillers
            # may push them past six words)
            at = next((k for k in range(i + 1, min(i + 13, len(words)))
                       if words[k].lower() not in _NEGATED_FILLER and not (k == i + 1 and words[k].lower() == "not")),
                      None)
            run = _LISTED_VERBS.match(sentence, found[at].start()) if at is not None else None
            rest = re.findall(r"[A-Za-z][\w'’-]*", run.group(0)) if run else []
            said = {a for w in rest for a in (*analyze(w), *analyze(" ".join(nominal_forms(w))))}
            # (a verb that only says a thing was done denies the thing: 'did not undertake any new restructuring
            # actions' denies a restructuring launched)
            if rest and not any(stem_in_words(k, said) or stem_in_words(nominal_stem(k) or k, said)
                                for k in {*key, *verb}) and not _DOING_ANY.match(" ".join(following[1:3])):
                continue
            denied = rest
        after = set(analyze(" ".join([*following, *denied])))
        if any(stem_in_words(k, after) for k in key):
            return True
    return False


_NEGATED_FILLER = frozenset("""any a an the be been yet currently presently have had has ever always all
    significantly materially expect expects plan plans intend intends anticipate anticipates to directly indirectly
    or""".split())
"""Words between a negation and the verb it denies ('do not currently expect to close …', 'agree not to directly
or indirectly solicit, hire, recruit …')."""
_LISTED_VERBS = re.compile(r"[A-Za-z][\w'’-]*(?:(?:\s*,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+)"
                           r"[A-Za-z][\w'’-]*){0,3}")
"""The verb a negation denies and those listed with it ('solicit, hire, recruit, attempt'), a word each."""
_PERMISSION = re.compile(r"(?i)\b(?:free|allowed|permitted|entitled)\s+to\b")
_BINDS = re.compile(r"(?i)\b(?:agrees?|agreed|shall|must|may|will)\s+(?:not\s+)?(?:to\s+)?(?:directly\s+|"
                    r"indirectly\s+|or\s+)*[a-z]+|\b(?:is|are)\s+(?:not\s+)?(?:prohibited|permitted|entitled|"
                    r"restricted)\b")
"""A clause's own binding words: what a party agrees or shall (not) do, or is prohibited or permitted to."""
_WHEN_CLAUSE = re.compile(r"(?i),?\s+(?:once|after|when|while|until)\s+(?:he|she|they|it|the\s+\w+)\s+[^?,]*")


_MONEY_AMOUNT = re.compile(r"[$£€¥]\s?\d[\d,.]*\s?(?:bn|m|k|million|billion)?")
_ASKS_AMOUNT = re.compile(r"(?i)\bhow\s+much\b|\bcost\b|\bprice\b|\bpa(?:y|id)\b|\bconsideration\b")
_DEED_STOPPED = re.compile(r"(?i)\b(?:suspend(?:ed|s)?|discontinu(?:e|ed|es)|eliminat(?:e|ed|es)|ceas(?:e|ed|es)|"
                           r"halt(?:ed|s)?|terminat(?:e|ed|es))\b")
"""A verb that says a deed was stopped ('determined to suspend the ongoing dividends'); a second `_STOPPED` of
this name had silently replaced the one `continued_answer` reads."""
_NEGATION = re.compile(r"(?i)\b(?:no|not|none|nil|never|neither|nor|did not|does not|has not|have not|without)\b")


_LEGAL_FORM = re.compile(r"(?i)\b(?:incorporated|organi[sz]ed|registered|domiciled)\s+(?:in|under)\b|\blimited\s+"
                         r"(?:liability\s+)?company\b|\blaws\s+of\b|\bparty\s+to\b")
"""What a company is in law ('a public limited company incorporated under the Laws of Jersey'), not its business."""


_GROSS, _MARGIN = frozenset(analyze("gross")), frozenset(analyze("margin"))
_GUIDANCE_SAID = frozenset(analyze("guidance outlook forecast expect"))


def _short_member(name: str) -> str:
    """A row's name without the figures its label explains in brackets: 'Long-term debt (includes debt of
    consolidated entities: 2022, $12,662 …)' is 'Long-term debt'; 'Borrowings (non-current liabilities)' stays."""
    name = re.sub(r"\s+Level\s+[1-3]$", "", name)  # 'Corporate bonds Level 2': its fair value level
    return re.sub(r"\s*\([^()]*\d[^()]*\)", "", name).strip() or name


def _with_article(noun: str) -> str:
    """'an operating loss', 'a net loss'; a plural ('losses') takes none."""
    if noun.endswith("es"):
        return noun
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"
