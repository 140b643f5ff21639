"""Offline router: one logistic regression per flag over [MiniLM embedding of the question ; deterministic features].

The deterministic features are the ones the design names: known companies mentioned, fiscal years mentioned,
arithmetic words, recency words and referents that nothing resolves (plus a few close relatives: metric words,
figures given in the question, definition phrasing, news-event words) and generic cues for each flag: interim vs
fiscal-year periods, the annual report named as the source, dates, comparatives and change questions, requests
that are not about companies, insider requests, and conjunctions such as "a metric but no company". Companies
are matched against the caller's `known_companies` (misspelt by one letter, or described by a word of their
name: "the logistics firm") and tickers only through the caller's `known_tickers`; the sample corpus's names are
defaults, not part of the features. They are computed the same way at fit and predict time, so the fitted weights
travel in a small .npz keyed by a hash of the labelled examples.

Fitting uses scikit-learn when it is installed, otherwise a numpy gradient-descent logistic regression with L2;
prediction is always plain numpy, so loading a fitted router needs neither.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from app.knowledge.fusion import companies_in, company_aliases, years_in
from app.routing.decision import FLAGS, RouteDecision, RoutePlan

EXAMPLES_PATH = Path(__file__).with_name("examples.jsonl")
# The sample corpus (examples/CORPUS.md): the companies and tickers the labelled examples talk about. They are the
# defaults for fitting on those examples and for the tests; nothing in the feature code depends on them.
DEFAULT_COMPANIES: tuple[str, ...] = ("Northwind Logistics", "Helio Renewables", "Copperleaf Foods")
DEFAULT_TICKERS: dict[str, str] = {"NWL": "Northwind Logistics", "HLR": "Helio Renewables", "CLF": "Copperleaf Foods"}
KNOWN_YEARS: list[int] = list(range(2000, 2036))
SAMPLE_LATEST_REPORT_YEAR = 2024
"""The latest fiscal year the sample corpus has reports for: the labelled examples were written against it.
At prediction time the caller passes its own knowledge base's latest report year."""

Embed = Callable[[Sequence[str]], Sequence[Sequence[float]]]

_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_LONG_MONTHS = "january|february|march|april|june|july|august|september|october|november|december"

_ARITHMETIC = re.compile(
    r"(?i)\b(growth|grow|grew|growing|difference|ratio|cagr|how much more|how much less|by how many points|"
    r"by how much|how far|combined|compare|compared|comparison|versus|vs\.?|percentage|per ?cent|increase|"
    r"decrease|average|sum|sum up|total of|add up|share of|as a share|as a %|proportion|rank|ranking|"
    r"higher|lower|more than|less than|exceed|exceeded|convert|conversion|converting|in euros|in dollars|"
    r"in pounds|in euro terms|in dollar terms|at \d[\d.]*|per employee|basis points|bps|midpoint|compute|calculate|"
    r"work out|maths|math|stack up|divide|divided by|multiply|multiplied|relative to|cover|how many times|"
    r"how long|how many (?:days|weeks|months|years)|beat|short of|percentages|times|multiple|doubling|"
    r"implies|imply|implied|run-rate|run rate)\b|%|"
    # "change" is arithmetic as a quantity ("the change", "% change", "change in"), not as a verb or an event.
    r"\b(?:the|what's the|percentage|percent|per cent)\s+change\b|\bchange (?:in|between|from)\b")
_RECENCY = re.compile(
    r"(?i)\b(latest|recent|recently|this week|last week|this month|news|headline|headlines|newest|anything new|"
    r"announce|announced|announcement|announcements|yesterday|today|just|update|trading update|press release|"
    r"press releases|now|current|currently|still|right now|so far|lately|yet|since)\b|"
    r"\b(?:" + _MONTHS + r")\.?\s+(?:\d{1,2},?\s+)?(?:19|20)\d{2}\b")
# Things that happen to a company between reports: deals, people, products, guidance moves, market reactions.
_NEWS_EVENTS = re.compile(
    r"(?i)\b(deal|deals|acquisition|acquire|acquired|merger|takeover|taken over|bid|recall|recalled|"
    # people: a change at the top is news, the CEO's review or pay is in the report
    r"(?:new|incoming|outgoing|former|next) (?:ceo|chief executive|cfo|chair)|"
    r"(?:ceo|chief executive|cfo|chair) (?:change|transition|departure|succession)|taking over|takes over|"
    r"appoint|appointed|appointment|replaced|resign|resigned|retire|retired|retirement|"
    # guidance moves
    r"cut (?:[\w-]+ ){0,6}guidance|guidance (?:was |were )?cut|cut (?:its|their) (?:outlook|forecast)|"
    r"stepped down|start as|correction|corrected|interim|h1|h2|half[- ]year|first half|quarter|q[1-4]|stock|"
    r"share price|shares|react|reacted|contract|contracts|signed|sign|agreement|partnership|fine|lawsuit|strike|"
    r"outage|profit warnings?|warning|warnings|warned|downgrade|upgrade|"
    r"raised|lowered|reiterate|reiterated|delay|delays|happened|happen|going on|trading statement|statement|"
    r"delisting|delisted|listing|energised|launch|launched|launches|new|opened|closure|closed|completed|completion|"
    r"hired|win|won|wins|award|awarded|agm|approve|approved|estimate|back on sale)\b")
_METRIC = re.compile(
    r"(?i)\b(revenue|revenues|sales|turnover|top line|margin|margins|op margin|profit|profits|ebit|ebitda|"
    r"earnings|eps|net income|dividend|dividends|dps|cash flow|free cash flow|fcf|capex|debt|net debt|employees|"
    r"headcount|segment|segments|guidance|organic|like-for-like|volume|volumes|cost|costs|chiffre d'affaires|umsatz|"
    r"ingresos|payout|buyback|buybacks|assets|capacity|mw|gw|orders|backlog|operating profit|leverage|gearing|"
    r"cash|spend|spent|capital expenditure)\b")
_REFERENT = re.compile(
    r"(?i)\b(it|its|it's|they|their|theirs|them|that|those|these|there|the two|the other one|the other|"
    r"the others|the smaller one|the bigger one|the company|that company|last year|the year before|"
    r"same(?! (?:thing )?as\b)|the segment|the figure|the number|the period|the deal|the report)\b")
_FOLLOW_UP = re.compile(r"(?i)^\s*(and|ok|okay|so|same|what about|how about|now|also|then)\b")
# A company described rather than named. Whether it resolves depends on the known companies (see _described_companies).
_ENTITY_NOUN = (r"company|firm|group|business|retailer|airline|bank|lender|insurer|discounter|supermarket|carrier|"
                r"manufacturer|maker|producer|supplier|operator|developer|employer|brand|startup|one")
_DESCRIPTOR = re.compile(
    r"(?i)\b(the|that|this|my|our|your)\s+((?:[\w'-]+\s+){0,2}?)(" + _ENTITY_NOUN + r")\b(?!s)|"
    r"\b([a-z]+)\s+(maker|producer|operator|developer|firm)'s\b")
_GENERIC_ENTITY_NOUNS = {"company", "firm", "group", "business", "one", "employer", "brand", "startup", "maker",
                         "producer", "supplier", "operator", "developer"}
_REFERENTIAL_ADJECTIVES = {"other", "same", "first", "second", "third", "last", "former", "latter", "smaller",
                           "bigger", "larger", "big", "small", "new", "old", "right", "wrong"}
_PEERS = re.compile(r"(?i)\b(peers?|competitors?|rivals?|peer group)\b")
# Questions about the set of companies the knowledge base covers, without naming them.
_COMPANY_SET = re.compile(
    r"(?i)\b((?:which|each|all|any|both|none)\s+(?:one\s+)?(?:of\s+)?(?:the\s+)?(?:three|two|\d)?\s*"
    r"(?:companies|company|firms|firm|stocks)|(?:which|each|all|any|none) of the (?:three|two)|"
    r"the (?:three|two|other)\s*(?:companies|firms|stocks)?|how many (?:companies|firms)|in your sources|"
    r"you cover|can you answer)\b")
_DEFINITION = re.compile(
    r"(?i)\b(what is an?|what's an?|whats an?|what does .* (mean|stand for)|define|definition|explain|"
    r"in general|meaning of|how is .* calculated|is .* the same (thing )?as|why do companies|what is the difference|"
    r"what's the difference between (?!.*\d)|why do (?:companies|firms|investors|lenders|analysts|businesses))\b|"
    r"^\s*whats? \w+\??$|"
    # "what is free cash flow conversion?": a bare term, lower case or acronyms, no name, figure or determiner
    r"^\s*what(?:'s| is) (?!(?:the|their|its|it|that|this|these|those|my|our|your|there)\b)"
    r"(?-i:(?:(?:[a-z][a-z-]*|[A-Z]{2,6})\s*)+)(?:\?|$)")
_ADVICE = re.compile(
    r"(?i)\b(should i|buy|sell|price target|outperform|underperform|hold|invest|investing|portfolio|my position|"
    r"my holding|recommend|recommendation|tip|tips|to short|shorting|go short|my savings|savings|isa|retirement|"
    r"pension|time the|timing|will i (?:make|get|earn)|worth buying)\b")
_INSIDER = re.compile(
    r"(?i)\b(non-?public|confidential|insider|inside (?:info|information|sources?|knowledge|tip)|leak|leaked|"
    r"before it goes public|before (?:it is|it's|they are|they're) (?:public|announced)|not yet public|secret)\b")
# Requests for work that is not answering questions about companies: code, writing, chores, trivia.
_OFF_TASK = re.compile(
    r"(?i)\b(write|draft|compose|poem|rap|song|story|joke|jokes|recipe|boil|cook|python|sql|css|html|javascript|"
    r"excel formula|code|coding|function|debug|install|error|translate|translation|cover letter|essay|homework|"
    r"solve|weather|plot|novel|trip|holiday|workout|calories|game|tax return|medical|doctor|"
    r"headache|symptoms?|advice on my)\b")
_FORECAST = re.compile(
    r"(?i)\b(next year|next quarter|next month|next results|will .{0,40}\b(?:double|halve|outperform|underperform|"
    r"go up|go down|rise|fall|crash|beat the market|trade|trades|be worth|be at|share price|stock)|"
    r"share price be|stock be|where .{0,30}\btrades?\b|forecast|predict|prediction|target price|price target)\b")
_REPORT = re.compile(
    r"(?i)\b(report|annual report|disclose|discloses|disclosed|principal risks?|risks?|board|chair|chairs|chairman|"
    r"strategy|strategic|segment|segments|division|divisions|auditor|audit|governance|committee|director|directors|"
    r"remuneration|paid|pay|succession|employees|workforce|say about|says about|reported|sustainability|"
    r"net-zero|net zero|emissions|climate|targets?|commitments?|policy|capital allocation|outlook|related-party|"
    r"currency|mention|mentions|describe|described|according to)\b")
# The annual report itself, named as the source (not "did X report ..." as a verb).
_REPORT_EXPLICIT = re.compile(
    r"(?i)\b(annual report|(?:the|its|their|fy\s?'?\d{2,4}|\d{4}) report|in the report|report says|"
    r"chair'?s statement|ceo'?s? review|ceo review|strategic report|according to)\b")
_FISCAL = re.compile(r"(?i)\b(fy\s?'?\d{2,4}|fiscal(?: year)?\s?\d{2,4}|financial year|full[- ]year|annual|"
                     r"end-fy\d{2,4}|year-end)\b")
_INTERIM = re.compile(r"(?i)\b(h1|h2|first half|second half|half[- ]year(?:ly)?|interim|q[1-4]|quarter|quarterly|"
                      r"nine months|trading update|trading statement)\b")
_DATE = re.compile(
    r"(?i)\b(?:\d{1,2}\s+(?:" + _MONTHS + r")\b|(?:in|on|since|from|during|by)\s+(?:early |late |mid-?)?(?:"
    + _LONG_MONTHS + r"|may\s+(?:19|20)\d{2})\b|(?:" + _LONG_MONTHS + r")\s+\d{1,2}\b|(?:early|late|mid-?)\s*"
    r"(?:19|20)\d{2})")
_COMPARATIVE = re.compile(
    r"(?i)\b(highest|lowest|biggest|smallest|largest|fastest|slowest|most|least|best|worst|bigger|smaller|larger|"
    r"faster|slower|higher|lower|greater|better|worse|more|less|strongest|weakest)\b")
_CHANGE_QUESTION = re.compile(
    r"(?i)\b(?:how (?:much|many \w+|far)|by how (?:much|many)|by what)\b.{0,80}?"
    r"\b(?:rise|rose|risen|fall|fell|fallen|drop|"
    r"dropped|change|changed|grow|grew|grown|increase|increased|decrease|decreased|go up|went up|go down|went down|"
    r"up by|down by|improve|improved|decline|declined|cut|beat|miss|exceed|bigger|smaller|larger|higher|lower|"
    r"more|less|add|added|contribute|overstate|overstated|understate|differ)\b|"
    r"\b(?:rise|rose|fall|fell|drop|dropped|improve|improved|decline|declined|change|changed)\b.{0,60}\bby how\b")
_BETWEEN = re.compile(r"(?i)\bbetween\b.{1,60}\band\b|\bfrom\b.{1,40}\bto\b|(?:19|20)?\d{2}\s*(?:->|-|–|to)\s*"
                      r"(?:fy)?(?:19|20)?\d{2}\b")
_COUNTERFACTUAL = re.compile(r"(?i)\b(if|strip out|stripping out|excluding|exclude|had been|would)\b")
_VAGUE_MEASURE = re.compile(
    r"(?i)\b(the|its|their|that|this|'s)\s+(number|numbers|figure|figures|period|quarter|ratio|percentage|"
    r"organic number)\b|\bthose numbers\b|\bthe same\b")
_PRIOR_TURN = re.compile(
    r"(?i)\b(i mentioned|i asked|asked about|i said|as i said|you said|earlier|previous|previously|last time|"
    r"same question|do it|do the maths|them up|the other one|the one i)\b")
# A question cut off mid-way ("compare NWL with").
_TRUNCATED = re.compile(r"(?i)\b(with|and|to|vs\.?|versus|than|of|for|between|the|or|from)\s*[?.!]*\s*$")
# A name at the very start counts when it is two capitalised words or more ("Zephyr Airlines revenue").
_LEADING_NAME = re.compile(r"^\s*([A-Z][a-z\u00e0-\u00ff]+(?:[- ][A-Z][a-z\u00e0-\u00ff]+)+)\b")
_NOT_LEADING = {"what", "how", "which", "who", "when", "why", "where", "did", "does", "do", "is", "are", "was",
                "were", "can", "could", "will", "would", "should", "the", "tell", "give", "show", "list", "any", "has",
                "have", "compare", "explain", "describe", "summarise", "summarize", "define", "please", "and", "so"}
# Multi-word proper names (segments, products: "Contract Warehousing") are masked before looking for event words.
_PROPER_PHRASE = re.compile(r"(?<=\w )[A-Z][a-z]+(?:[- ][A-Z][a-z]+)+")
_NAME = re.compile(r"(?<![.?!]\s)(?<!^)\b([A-Z][a-z\u00e0-\u00ff]+(?:[- ][A-Z][a-z\u00e0-\u00ff]+)*)\b")
_NOT_NAMES = {"fy", "i", "ceo", "cfo", "ebit", "ebitda", "eps", "dps", "h1", "h2", "agm"}
_NUMBER = re.compile(r"(?<![A-Za-z0-9.,])[£$€]?\d+(?:[.,]\d+)*\s?(?:%|p|m|bn|k)?(?![A-Za-z0-9])")
_YEARISH = re.compile(r"^(?:19|20)\d{2}$")
# Upper-case words that look like a ticker but are finance or everyday acronyms.
_ACRONYMS = {"FY", "CEO", "CFO", "COO", "EBIT", "EBITDA", "EPS", "DPS", "CAGR", "AGM", "ISA", "SQL", "CSS", "HTML",
             "USA", "UK", "US", "EU", "GDP", "ESG", "IPO", "OK", "FCF", "ROI", "ROE", "ROCE", "KPI", "CAPEX", "PE",
             "TV", "PDF", "API", "VAT", "AI", "IT", "LFL", "MW", "GW", "NAV", "GBP", "USD", "EUR", "FX", "DIY", "PLC",
             "LLC", "INC", "LTD", "CO", "FTSE", "DAX", "CAC", "NYSE", "LSE", "OPEX", "SG", "KPIS", "CSR", "AM", "PM"}

FEATURE_NAMES: tuple[str, ...] = (
    "n_companies", "has_company", "multi_company", "has_year", "multi_year", "arithmetic", "n_arithmetic",
    "recency", "news_event", "metric", "referent", "unresolved_referent", "follow_up", "vague_company",
    "definition", "advice", "given_numbers", "short", "ticker", "forecast", "report_words", "unknown_name",
    "year_after_reports",
    # Added with the cross-validated evaluation: generic signals, no company or example specific.
    "fuzzy_company", "described_company", "company_set", "peers", "unknown_company", "fiscal_year", "interim",
    "dated", "report_explicit", "insider", "off_task", "comparative", "change_question", "between",
    "counterfactual", "two_numbers", "vague_measure", "prior_turn", "metric_without_subject",
    "calc_without_operands", "generic_definition", "company_and_metric", "news_without_report", "truncated",
)
# The embedding is unit length; the hand features are 0/1 and the L2 penalty treats both alike.
FEATURE_SCALE = 1.0


@dataclass
class Features:
    companies: list[str]
    years: list[int]
    arithmetic_terms: list[str]
    recency_terms: list[str]
    news_terms: list[str]
    metric_terms: list[str]
    referents: list[str]
    unresolved_referents: list[str]
    vector: dict[str, float]


def _terms(pattern: re.Pattern[str], text: str) -> list[str]:
    out: list[str] = []
    for m in pattern.finditer(text):
        term = m.group(0).strip().lower()
        if term and term not in out:
            out.append(term)
    return out


def _one_edit_apart(a: str, b: str) -> bool:
    """True when a and b differ by one substitution, insertion, deletion or swap of adjacent letters."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    if len(a) > len(b):
        a, b = b, a
    return any(b[:i] + b[i + 1:] == a for i in range(len(b)))


def _fuzzy_companies(question: str, known_companies: Sequence[str]) -> list[str]:
    """Known companies whose one-word alias (the distinctive first word, see company_aliases) appears misspelt by
    one edit ("Hleio"). Aliases of five letters match only with letters swapped, so that ordinary words one letter
    away ("hello") do not."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", question) if len(w) >= 5}
    found: list[str] = []
    for alias, company in company_aliases(list(known_companies)).items():
        if " " in alias or len(alias) < 5 or company in found:
            continue
        for w in words:
            if w != alias and _one_edit_apart(w, alias) and (len(alias) >= 6 or sorted(w) == sorted(alias)):
                found.append(company)
                break
    return found


def _tickers(question: str, known_tickers: Mapping[str, str] | None, known_companies: Sequence[str]
             ) -> tuple[list[str], bool]:
    """(known companies named by one of their tickers, whether anything ticker-like appears). Known tickers match
    in any case when the question is all lower case, else only in upper case; an unknown upper-case word of 2-5
    letters that is not a common acronym looks like a ticker too."""
    companies: list[str] = []
    for ticker, company in (known_tickers or {}).items():
        flags = re.IGNORECASE if question == question.lower() else 0
        if company in known_companies and re.search(r"\b" + re.escape(ticker) + r"\b", question, flags):
            if company not in companies:
                companies.append(company)
    upper = {t.upper() for t in (known_tickers or {})}
    looks_like = any(w not in _ACRONYMS and w not in upper and not re.fullmatch(r"[HQ]\d", w)
                     for w in re.findall(r"\b[A-Z]{2,5}\b", question))
    return companies, bool(companies) or looks_like


def _described_companies(question: str, known_companies: Sequence[str]) -> tuple[bool, list[str]]:
    """(a company is described rather than named: "the food company", "that airline", "my employer";
    the known companies a description singles out by what their own name says: "the logistics firm" is
    X Logistics when exactly one known company has that word in its name)."""
    described = False
    resolved: list[str] = []
    for m in _DESCRIPTOR.finditer(question):
        noun = (m.group(3) or m.group(5) or "").lower()
        modifiers = re.findall(r"[a-z]+", ((m.group(2) or "") + " " + (m.group(4) or "")).lower())
        if noun == "one" and not [w for w in modifiers if w not in _REFERENTIAL_ADJECTIVES]:
            continue  # "the other one", "that one": a referent, not a description
        described = True
        # A sector noun describes too ("the retailer"); "company", "firm", "one" and the like do not.
        sector = [noun] if noun not in _GENERIC_ENTITY_NOUNS else []
        for word in (w for w in modifiers + sector if len(w) >= 4):
            owners = [c for c in known_companies
                      if any(n[:4] == word[:4] for n in re.findall(r"[a-z]+", c.lower())[1:] if len(n) >= 4)]
            if len(owners) == 1 and owners[0] not in resolved:
                resolved.append(owners[0])
    return described, resolved


def extract_features(question: str, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                     context_entities: Iterable[str] = (), known_tickers: Mapping[str, str] | None = None,
                     latest_report_year: int | None = SAMPLE_LATEST_REPORT_YEAR) -> Features:
    """The deterministic features of a question (no model involved). `known_tickers` maps tickers to the
    names of known companies; without it no ticker resolves to a company. `latest_report_year` is the latest
    fiscal year the knowledge base has reports for: a year after it can only be news, guidance or a forecast."""
    known = list(known_companies)
    companies = companies_in(question, known)
    by_ticker, ticker_like = _tickers(question, known_tickers, known)
    fuzzy = [c for c in _fuzzy_companies(question, known) if c not in companies and c not in by_ticker]
    described, by_description = _described_companies(question, known)
    for company in by_ticker + fuzzy + by_description:
        if company not in companies:
            companies.append(company)
    years = years_in(question, KNOWN_YEARS)
    arithmetic = _terms(_ARITHMETIC, question)
    recency = _terms(_RECENCY, question)
    news = _terms(_NEWS_EVENTS, _PROPER_PHRASE.sub("X", question))
    metric = _terms(_METRIC, question)
    referents = _terms(_REFERENT, question)
    context = [c for c in context_entities if c]
    # A referent is unresolved when nothing can resolve it: no company named here, no context passed in.
    unresolved = referents if not companies and not context else []
    numbers = [n for n in _NUMBER.findall(question) if not _YEARISH.match(n.strip())]
    given = [n for n in numbers if not re.fullmatch(r"\d{1,2}", n.strip())]
    words = re.findall(r"\w+", question)
    aliases = {w.lower() for c in known for w in re.findall(r"\w+", c)}
    months = set(_MONTHS.split("|"))
    names = [m.group(1) for m in _NAME.finditer(question)
             if not any(w.lower() in aliases or w.lower() in months or w.lower() in _NOT_NAMES
                        for w in re.split(r"[- ]", m.group(1)))]
    lead = _LEADING_NAME.match(question)
    if lead and lead.group(1).split()[0].lower() not in _NOT_LEADING and not any(
            w.lower() in aliases or w.lower() in months for w in re.split(r"[- ]", lead.group(1))):
        names.insert(0, lead.group(1))
    company_set = bool(_COMPANY_SET.search(question))
    subject = bool(companies) or bool(context) or company_set
    definition = bool(_DEFINITION.search(question))
    report_explicit = bool(_REPORT_EXPLICIT.search(question))
    newsy = bool(recency) or bool(news) or bool(_INTERIM.search(question))
    vec = {
        "n_companies": min(len(companies), 3) / 3.0,
        "has_company": float(bool(companies)),
        "multi_company": float(len(companies) >= 2),
        "has_year": float(bool(years)),
        "multi_year": float(len(years) >= 2),
        "arithmetic": float(bool(arithmetic)),
        "n_arithmetic": min(len(arithmetic), 3) / 3.0,
        "recency": float(bool(recency)),
        "news_event": float(bool(news)),
        "metric": float(bool(metric)),
        "referent": float(bool(referents)),
        "unresolved_referent": float(bool(unresolved)),
        "follow_up": float(bool(_FOLLOW_UP.search(question))),
        "vague_company": float(described and not by_description and not companies),
        "definition": float(definition),
        "advice": float(bool(_ADVICE.search(question))),
        "given_numbers": float(len(given) >= 1 and not companies),
        "short": float(len(words) <= 5),
        "ticker": float(ticker_like),
        "forecast": float(bool(_FORECAST.search(question))),
        "report_words": float(bool(_REPORT.search(question))),
        "unknown_name": float(bool(names)),
        "year_after_reports": float(latest_report_year is not None and any(y > latest_report_year for y in years)),
        "fuzzy_company": float(bool(fuzzy)),
        "described_company": float(bool(by_description)),
        "company_set": float(company_set),
        "peers": float(bool(_PEERS.search(question))),
        "unknown_company": float(bool(names) and not companies),
        "fiscal_year": float(bool(_FISCAL.search(question))),
        "interim": float(bool(_INTERIM.search(question))),
        "dated": float(bool(_DATE.search(question))),
        "report_explicit": float(report_explicit),
        "insider": float(bool(_INSIDER.search(question))),
        "off_task": float(bool(_OFF_TASK.search(question))),
        "comparative": float(bool(_COMPARATIVE.search(question))),
        "change_question": float(bool(_CHANGE_QUESTION.search(question))),
        "between": float(bool(_BETWEEN.search(question))),
        "counterfactual": float(bool(_COUNTERFACTUAL.search(question))),
        "two_numbers": float(len(given) >= 2),
        "vague_measure": float(bool(_VAGUE_MEASURE.search(question))),
        "prior_turn": float(bool(_PRIOR_TURN.search(question))),
        "metric_without_subject": float((bool(metric) or bool(_REPORT.search(question))) and not subject
                                        and not definition),
        "calc_without_operands": float(bool(arithmetic) and not metric and not given and not subject
                                       and not definition),
        "generic_definition": float(definition and not companies and not years and not referents),
        "company_and_metric": float(bool(companies) and bool(metric)),
        "news_without_report": float(newsy and not report_explicit and not _FISCAL.search(question)),
        "truncated": float(bool(_TRUNCATED.search(question))),
    }
    return Features(companies, years, arithmetic, recency, news, metric, referents, unresolved, vec)


def feature_vector(f: Features) -> np.ndarray:
    return np.array([f.vector[n] for n in FEATURE_NAMES], dtype=np.float64) * FEATURE_SCALE


def load_examples(path: str | Path | None = None) -> list[dict[str, Any]]:
    """The labelled routing examples (one JSON object a line)."""
    p = Path(path) if path else EXAMPLES_PATH
    out = []
    with p.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out.append(json.loads(line))
    return out


def examples_hash(examples: Sequence[Mapping[str, Any]] | None = None, path: str | Path | None = None) -> str:
    """sha256 (16 hex) of the examples file, or of the canonical JSON of the given examples."""
    if examples is None:
        return hashlib.sha256(Path(path or EXAMPLES_PATH).read_bytes()).hexdigest()[:16]
    blob = "\n".join(json.dumps(dict(e), sort_keys=True) for e in examples)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _fit_logistic(X: np.ndarray, y: np.ndarray, c: float) -> tuple[np.ndarray, float]:
    """Class-balanced L2 logistic regression. scikit-learn's lbfgs when installed, else numpy gradient descent."""
    if y.min() == y.max():  # one class only: a constant model
        return np.zeros(X.shape[1]), (8.0 if y[0] else -8.0)
    try:
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        return _fit_logistic_numpy(X, y, c)
    model = LogisticRegression(C=c, class_weight="balanced", max_iter=5000, solver="lbfgs")
    model.fit(X, y)
    return model.coef_[0].astype(np.float64), float(model.intercept_[0])


def _fit_logistic_numpy(X: np.ndarray, y: np.ndarray, c: float, iters: int = 4000, lr: float = 0.5
                        ) -> tuple[np.ndarray, float]:
    n, d = X.shape
    pos = y.mean()
    sw = np.where(y == 1, 0.5 / pos, 0.5 / (1 - pos))  # balanced sample weights
    w = np.zeros(d)
    b = 0.0
    lam = 1.0 / (c * n)
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
        g = sw * (p - y)
        w -= lr * (X.T @ g / n + lam * w)
        b -= lr * g.mean()
    return w, float(b)


def _sigmoid(z: np.ndarray | float) -> np.ndarray | float:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))


class OfflineRouter:
    """Five independent logistic regressions over [embedding ; features]."""

    C = 10.0
    OUT_OF_SCOPE_THRESHOLD = 0.5

    def __init__(self, weights: np.ndarray, bias: np.ndarray, embed: Embed | None = None,
                 key: str = "", flags: Sequence[str] = FLAGS) -> None:
        self.weights = np.asarray(weights, dtype=np.float64)   # (n_flags, dim)
        self.bias = np.asarray(bias, dtype=np.float64)         # (n_flags,)
        self.embed = embed
        self.key = key
        self.flags = tuple(flags)

    # ----------------------------------------------------------------------------------------- fitting
    @staticmethod
    def design_matrix(questions: Sequence[str], embeddings: np.ndarray,
                      known_companies: Sequence[str] = DEFAULT_COMPANIES,
                      known_tickers: Mapping[str, str] | None = None) -> np.ndarray:
        feats = np.stack([feature_vector(extract_features(q, known_companies, known_tickers=known_tickers))
                          for q in questions])
        return np.hstack([np.asarray(embeddings, dtype=np.float64), feats])

    @classmethod
    def fit(cls, examples: Sequence[Mapping[str, Any]], embed: Embed, *,
            embeddings: np.ndarray | None = None, known_companies: Sequence[str] = DEFAULT_COMPANIES,
            c: float | None = None, known_tickers: Mapping[str, str] | None = None) -> "OfflineRouter":
        """Fit on labelled examples. `embeddings` (one row per example) skips embedding them again.
        `known_companies` / `known_tickers` are those the examples talk about."""
        questions = [e["question"] for e in examples]
        if embeddings is None:
            embeddings = np.asarray(embed(questions), dtype=np.float64)
        X = cls.design_matrix(questions, embeddings, known_companies, known_tickers)
        W, B = [], []
        for flag in FLAGS:
            y = np.array([1.0 if e[flag] else 0.0 for e in examples])
            w, b = _fit_logistic(X, y, c or cls.C)
            W.append(w)
            B.append(b)
        return cls(np.stack(W), np.array(B), embed=embed, key=examples_hash(examples))

    # ------------------------------------------------------------------------------------ persistence
    @staticmethod
    def path_for(folder: str | Path, key: str) -> Path:
        return Path(folder) / f"router-{key}.npz"

    def save(self, folder: str | Path) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        target = self.path_for(folder, self.key or "unkeyed")
        tmp = target.with_name(target.stem + ".tmp.npz")
        np.savez(tmp, weights=self.weights, bias=self.bias, flags=np.array(self.flags),
                 feature_names=np.array(FEATURE_NAMES), feature_scale=np.array(FEATURE_SCALE),
                 key=np.array(self.key))
        tmp.replace(target)
        return target

    @classmethod
    def load(cls, folder: str | Path, key: str, embed: Embed | None = None) -> "OfflineRouter | None":
        """The router saved under `folder` for examples hash `key`, or None (missing or stale features)."""
        path = cls.path_for(folder, key)
        if not path.exists():
            return None
        with np.load(path, allow_pickle=False) as data:
            if tuple(data["feature_names"].tolist()) != FEATURE_NAMES or float(data["feature_scale"]) != FEATURE_SCALE:
                return None
            return cls(data["weights"], data["bias"], embed=embed, key=str(data["key"]),
                       flags=tuple(data["flags"].tolist()))

    @classmethod
    def load_or_fit(cls, folder: str | Path, embed: Embed, examples_path: str | Path | None = None, *,
                    known_companies: Sequence[str] = DEFAULT_COMPANIES,
                    known_tickers: Mapping[str, str] | None = DEFAULT_TICKERS) -> "OfflineRouter":
        """Load the weights fitted on this examples file, fitting (and saving) them first if need be. The
        companies and tickers are those the examples talk about (the sample corpus for the bundled file)."""
        examples = load_examples(examples_path)
        key = examples_hash(examples)
        router = cls.load(folder, key, embed=embed)
        if router is None:
            router = cls.fit(examples, embed, known_companies=known_companies, known_tickers=known_tickers)
            router.save(folder)
        return router

    # ------------------------------------------------------------------------------------- prediction
    def probabilities(self, question: str, *, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                      context_entities: Iterable[str] = (), embedding: Sequence[float] | None = None,
                      known_tickers: Mapping[str, str] | None = None,
                      latest_report_year: int | None = SAMPLE_LATEST_REPORT_YEAR) -> tuple[dict[str, float], Features]:
        if embedding is None:
            if self.embed is None:
                raise ValueError("this router has no embedder; pass embed= when loading it")
            embedding = self.embed([question])[0]
        feats = extract_features(question, known_companies, context_entities, known_tickers=known_tickers,
                                 latest_report_year=latest_report_year)
        x = np.concatenate([np.asarray(embedding, dtype=np.float64), feature_vector(feats)])
        probs = _sigmoid(self.weights @ x + self.bias)
        return {f: float(p) for f, p in zip(self.flags, probs)}, feats

    def predict(self, question: str, *, known_companies: Sequence[str] = DEFAULT_COMPANIES,
                context_entities: Iterable[str] = (), embedding: Sequence[float] | None = None,
                known_tickers: Mapping[str, str] | None = None,
                latest_report_year: int | None = SAMPLE_LATEST_REPORT_YEAR) -> RouteDecision:
        context = [c for c in context_entities if c]
        probs, feats = self.probabilities(question, known_companies=known_companies, context_entities=context,
                                          embedding=embedding, known_tickers=known_tickers,
                                          latest_report_year=latest_report_year)
        flags = {f: probs[f] >= 0.5 for f in FLAGS}
        overridden = False
        if probs["is_out_of_scope"] >= self.OUT_OF_SCOPE_THRESHOLD:
            overridden = any(flags[f] for f in FLAGS[1:])
            flags = {f: f == "is_out_of_scope" for f in FLAGS}
        else:
            flags["is_out_of_scope"] = False
        plan = build_plan(flags, probs, feats, context)
        clarification = (clarification_question(question, feats, context, known_companies=known_companies)
                         if flags["needs_clarification"] else None)
        signals: dict[str, Any] = {
            "companies": feats.companies, "years": feats.years,
            "arithmetic_terms": feats.arithmetic_terms, "recency_terms": feats.recency_terms,
            "news_terms": feats.news_terms, "metric_terms": feats.metric_terms,
            "referents": feats.referents, "unresolved_referents": feats.unresolved_referents,
            "context_entities": context, "features": dict(feats.vector),
            "probabilities": {f: round(p, 4) for f, p in probs.items()},
            "out_of_scope_override": overridden, "router": "offline", "examples_key": self.key,
        }
        return RouteDecision(**flags, plan=plan, signals=signals, clarification_question=clarification)


# ------------------------------------------------------------------------------------ plan and clarification
_OVERVIEW = re.compile(r"(?i)\b(overview|summar(y|ise|ize)|tell me about|describe|strategy|outlook|"
                       r"how did .* do|highlights|key points|main)\b")
_PROFILE = re.compile(r"(?i)\b(my|i prefer|for me|as usual|my usual)\b")
_FACTS = re.compile(r"(?i)\b(remember|as i said|i told you|earlier|before|again|previous|last time)\b")


def build_plan(flags: Mapping[str, bool], probs: Mapping[str, float], feats: Features,
               context: Sequence[str]) -> RoutePlan:
    """The plan follows from the flags and features alone (no further model)."""
    confidence = float(min(max(p, 1.0 - p) for p in probs.values()))
    if flags["is_out_of_scope"]:
        return RoutePlan(source="none", granularity="fact", effort="low", memory_read="none",
                         confidence=round(confidence, 4))
    if flags["needs_retrieval"] and flags["needs_news"]:
        source = "both"
    elif flags["needs_news"]:
        source = "news"
    elif flags["needs_retrieval"]:
        source = "reports"
    else:
        source = "none"
    text_vec = feats.vector
    if flags["needs_calculation"] or text_vec["multi_company"]:
        granularity = "comparison"
    elif feats.metric_terms or feats.years:
        granularity = "fact"
    elif text_vec["referent"] == 0 and source != "none" and not feats.metric_terms:
        granularity = "overview" if feats.companies else "section"
    else:
        granularity = "section"
    hard = sum([source == "both", bool(flags["needs_calculation"]), len(feats.companies) >= 2,
                len(feats.years) >= 2])
    effort = "high" if hard >= 2 else "medium" if hard == 1 else "low"
    if feats.referents and context:
        memory = "thread"
    elif flags["needs_clarification"]:
        memory = "thread"
    elif text_vec["follow_up"] or _FACTS.search(" ".join(feats.referents)):
        memory = "facts"
    else:
        memory = "none"
    if flags["needs_clarification"]:
        # How sure we are that clarification is needed and of the rest.
        confidence = min(confidence, float(probs["needs_clarification"]))
    return RoutePlan(source=source, granularity=granularity, effort=effort, memory_read=memory,
                     confidence=round(max(0.0, min(1.0, confidence)), 4))


def clarification_question(question: str, feats: Features, context: Sequence[str] = (),
                           known_companies: Sequence[str] | None = None) -> str:
    """A deterministic question naming what is missing: the company, the metric, the period. When a referent is
    unresolved and `known_companies` is given, a few of them are offered as examples."""
    missing: list[str] = []
    if not feats.companies and not context:
        missing.append("company")
    if not feats.metric_terms:
        missing.append("metric")
    if not feats.years and not feats.recency_terms:
        missing.append("period")
    if not missing:
        missing = ["company"] if not feats.companies else ["metric"]
    parts = {
        "company": "which company do you mean" + (" (for example " + ", ".join(list(known_companies)[:3]) + ")"
                                                  if feats.unresolved_referents and known_companies else ""),
        "metric": "which metric or figure",
        "period": "which period or fiscal year",
    }
    asked = [parts[m] for m in missing]
    if len(asked) == 1:
        body = asked[0]
    else:
        body = ", ".join(asked[:-1]) + " and " + asked[-1]
    return body[0].upper() + body[1:] + "?"
