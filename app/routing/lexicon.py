"""The offline router's word lists and patterns: what counts as arithmetic, recency, a news event, a metric, a
referent, a definition, advice, an off-task request, a fiscal or interim period, a date, a comparison, a name.

Only patterns live here; `app/routing/features.py` turns them into the feature vector.
"""

from __future__ import annotations

import re

from app.text.dates import LONG_MONTHS as _FULL_NAMES
from app.text.dates import MONTHS as _MONTH_TABLE
from app.text.followups import FOLLOW_UP, REFERENT  # noqa: F401  (one follow-up detector: app/text/followups.py)
from app.text.periods import YEAR

MONTHS = "|".join(sorted(_MONTH_TABLE, key=len, reverse=True))
"""Month names and abbreviations (app/text/dates.MONTHS) as a regex alternation."""
LONG_MONTHS = "|".join(m for m in _FULL_NAMES if m != "may")
"""Full month names but 'may' (a verb as often as a month), as a regex alternation."""

ARITHMETIC = re.compile(
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
RECENCY = re.compile(
    r"(?i)\b(latest|recent|recently|this week|last week|this month|news|headline|headlines|newest|anything new|"
    r"announce|announced|announcement|announcements|yesterday|today|just|update|trading update|press release|"
    r"press releases|now|currently|still|right now|so far|lately|yet|since)\b|"
    # "current" as a time word, not the balance-sheet class ("current ratio", "current liabilities")
    r"\bcurrent\b(?!\s+(?:ratio|assets?|liabilit(?:y|ies)|portion|maturities|debt|receivables?|payables?)\b)|"
    # a month ("in November 2024"); a day-dated period end ("at June 30, 2024", "ended June 30, 2024") is not news
    r"(?<!\bat )(?<!\bended )(?<!\bending )(?<!\bas of )(?<!\bthrough )(?<!\bend of )"
    # the same with the day first: 'at 30 June 2024', 'ended 31 March 2025', 'as at 31 December 2024'
    r"(?<!\bat \d )(?<!\bat \d\d )(?<!\bended \d )(?<!\bended \d\d )(?<!\bending \d\d )"
    r"\b(?:" + MONTHS + r")\.?\s+(?:\d{1,2},?\s+)?" + YEAR + r"\b")
# Things that happen to a company between reports: deals, people, products, guidance moves, market reactions.
NEWS_EVENTS = re.compile(
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
METRIC = re.compile(
    r"(?i)\b(revenue|revenues|sales|turnover|top line|margin|margins|op margin|profit|profits|ebit|ebitda|"
    r"earnings|eps|net income|dividend|dividends|dps|cash flow|free cash flow|fcf|capex|debt|net debt|employees|"
    r"headcount|segment|segments|guidance|organic|like-for-like|volume|volumes|cost|costs|chiffre d'affaires|umsatz|"
    r"ingresos|payout|buyback|buybacks|assets|capacity|mw|gw|orders|backlog|operating profit|leverage|gearing|"
    r"cash|spend|spent|capital expenditure|"
    # the line items and ratios of filings
    r"net sales|gross profit|gross margin|operating income|net income|income|inventory|inventories|receivables|"
    r"payables|liabilities|equity|pp&e|capital expenditures|expenses|goodwill|impairment|bookings|shipments|"
    r"deliveries|subscribers|occupancy|turnover ratio|current ratio|quick ratio|return on (?:assets|equity)|"
    r"roa|roe|roic|interest coverage|"
    # what a report counts ('the number of patents')
    r"patents|stores|warehouses|plants|restaurants|customers|members|locations|staff|workforce)\b")
# A company described rather than named. Whether it resolves depends on the known companies (see features._described_companies).
ENTITY_NOUN = (r"company|firm|group|business|retailer|airline|bank|lender|insurer|discounter|supermarket|carrier|"
               r"manufacturer|maker|producer|supplier|operator|developer|employer|brand|startup|one")
DESCRIPTOR = re.compile(
    r"(?i)\b(the|that|this|my|our|your)\s+((?:[\w'-]+\s+){0,2}?)(" + ENTITY_NOUN + r")\b(?!s)|"
    r"\b([a-z]+)\s+(maker|producer|operator|developer|firm)'s\b")
GENERIC_ENTITY_NOUNS = {"company", "firm", "group", "business", "one", "employer", "brand", "startup", "maker",
                        "producer", "supplier", "operator", "developer"}
REFERENTIAL_ADJECTIVES = {"other", "same", "first", "second", "third", "last", "former", "latter", "smaller",
                          "bigger", "larger", "big", "small", "new", "old", "right", "wrong"}
PEERS = re.compile(r"(?i)\b(peers?|competitors?|rivals?|peer group)\b")
# Questions about the set of companies the knowledge base covers, without naming them ("which company did
# Orbital acquire?" asks about one named company, not the set).
COMPANY_SET = re.compile(
    r"(?i)\b((?:which|each|all|any|both|none)\s+(?:one\s+)?(?:of\s+)?(?:the\s+)?(?:three|two|\d)?\s*"
    r"(?:companies|company|firms|firm|stocks)(?!\s+(?:did|does|has|had|is|was|will)\s+(?-i:[A-Z]))|"
    r"(?:which|each|all|any|none) of the (?:three|two)|"
    r"the (?:three|two|other)\s*(?:companies|firms|stocks)?|how many (?:companies|firms)|in your sources|"
    r"you cover|can you answer)\b")
DEFINITION = re.compile(
    r"(?i)\b(what is an?|what's an?|whats an?|what does .* (mean|stand for)|define|definition|explain|"
    r"in general|meaning of|how is .* calculated|is .* the same (thing )?as|why do companies|what is the difference|"
    r"what's the difference between (?!.*\d)|why do (?:companies|firms|investors|lenders|analysts|businesses))\b|"
    r"^\s*whats? \w+\??$|"
    # "what is free cash flow conversion?": a bare term, lower case or acronyms, no name, figure or determiner
    r"^\s*what(?:'s| is) (?!(?:the|their|its|it|that|this|these|those|my|our|your|there)\b)"
    r"(?-i:(?:(?:[a-z][a-z-]*|[A-Z]{2,6})\s*)+)(?:\?|$)")
ADVICE = re.compile(
    r"(?i)\b(should i|buy|sell|price target|outperform|underperform|hold|invest|investing|portfolio|my position|"
    r"my holding|recommend|recommendation|tip|tips|to short|shorting|go short|my savings|savings|isa|retirement|"
    r"pension|time the|timing|will i (?:make|get|earn)|worth buying)\b")
INSIDER = re.compile(
    r"(?i)\b(non-?public|confidential|insider|inside (?:info|information|sources?|knowledge|tip)|leak|leaked|"
    r"before it goes public|before (?:it is|it's|they are|they're) (?:public|announced)|not yet public|secret)\b")
# Requests for work that is not answering questions about companies: code, writing, chores, trivia.
OFF_TASK = re.compile(
    r"(?i)\b(write|draft|compose|poem|rap|song|story|joke|jokes|recipe|boil|cook|python|sql|css|html|javascript|"
    r"excel formula|code|coding|function|debug|install|error|translate|translation|cover letter|essay|homework|"
    r"solve|weather|plot|novel|trip|holiday|workout|calories|game|tax return|medical|doctor|"
    r"headache|symptoms?|advice on my)\b")
FORECAST = re.compile(
    r"(?i)\b(next year|next quarter|next month|next results|will .{0,40}\b(?:double|halve|outperform|underperform|"
    r"go up|go down|rise|fall|crash|beat the market|trade|trades|be worth|be at|share price|stock)|"
    r"share price be|stock be|where .{0,30}\btrades?\b|forecast|predict|prediction|target price|price target)\b")
REPORT = re.compile(
    r"(?i)\b(report|annual report|disclose|discloses|disclosed|principal risks?|risks?|board|chair|chairs|chairman|"
    r"strategy|strategic|segment|segments|division|divisions|auditor|audit|governance|committee|director|directors|"
    r"remuneration|paid|pay|succession|employees|employ|colleagues|staff|headcount|workforce|say about|says about|"
    r"reported|sustainability|"
    r"net-zero|net zero|emissions|climate|targets?|commitments?|policy|capital allocation|outlook|related-party|"
    r"currency|mention|mentions|describe|described|according to)\b")
# The annual report itself, named as the source (not "did X report ..." as a verb).
REPORT_EXPLICIT = re.compile(
    r"(?i)\b(annual report|(?:the|its|their|fy\s?'?\d{2,4}|\d{4}) report|in the report|report says|"
    r"chair'?s statement|ceo'?s? review|ceo review|strategic report|according to|"
    # filings and statements named as the source: "per its 10-Q", "the 8-K dated ...", "the cash flow statement"
    r"(?:form )?(?:10-?k|10-?q|8-?k|20-?f|40-?f|6-?k)s?|annual filing|earnings release|proxy statement|"
    r"balance sheet|income statement|cash flow statement|statement of cash flows|financial statements)\b")
FISCAL = re.compile(r"(?i)\b(fy\s?'?\d{2,4}|fiscal(?: year)?\s?\d{2,4}|financial year|full[- ]year|annual|"
                     r"end-fy\d{2,4}|year-end|(?:year|5[23] weeks)\s+(?:ended|ending|to)\s+(?:\d{1,2}\s+(?:"
                     + MONTHS + r")|(?:" + MONTHS + r")\s+\d{1,2}))\b")
"""A reporting period: a fiscal year by name, or by its end ('the year to 29 March 2025', '52 weeks ended 1 April
2023', 'year ended June 30'), which dates a report's figures rather than news."""
INTERIM = re.compile(r"(?i)\b(h1|h2|first half|second half|half[- ]year(?:ly)?|interim|q[1-4]|quarter|quarterly|"
                      r"nine months|trading update|trading statement)\b")
DATE = re.compile(
    r"(?i)\b(?:\d{1,2}\s+(?:" + MONTHS + r")\b|(?:in|on|since|from|during|by)\s+(?:early |late |mid-?)?(?:"
    + LONG_MONTHS + r"|may\s+" + YEAR + r")\b|(?:" + LONG_MONTHS + r")\s+\d{1,2}\b|(?:early|late|mid-?)\s*"
    + YEAR + ")")
COMPARATIVE = re.compile(
    r"(?i)\b(highest|lowest|biggest|smallest|largest|fastest|slowest|most|least|best|worst|bigger|smaller|larger|"
    r"faster|slower|higher|lower|greater|better|worse|more|less|strongest|weakest)\b")
CHANGE_QUESTION = re.compile(
    r"(?i)\b(?:how (?:much|many \w+|far)|by how (?:much|many)|by what)\b.{0,80}?"
    r"\b(?:rise|rose|risen|fall|fell|fallen|drop|"
    r"dropped|change|changed|grow|grew|grown|increase|increased|decrease|decreased|go up|went up|go down|went down|"
    r"up by|down by|improve|improved|decline|declined|cut|beat|miss|exceed|bigger|smaller|larger|higher|lower|"
    r"more|less|add|added|contribute|overstate|overstated|understate|differ)\b|"
    r"\b(?:rise|rose|fall|fell|drop|dropped|improve|improved|decline|declined|change|changed)\b.{0,60}\bby how\b")
BETWEEN = re.compile(r"(?i)\bbetween\b.{1,60}\band\b|\bfrom\b.{1,40}\bto\b|(?:" + YEAR + r"|\d{2})\s*(?:->|-|–|to)\s*"
                      r"(?:fy)?(?:" + YEAR + r"|\d{2})\b")
COUNTERFACTUAL = re.compile(r"(?i)\b(if|strip out|stripping out|excluding|exclude|had been|would)\b")
VAGUE_MEASURE = re.compile(
    r"(?i)\b(the|its|their|that|this|'s)\s+(number|numbers|figure|figures|period|quarter|ratio|percentage|"
    r"organic number)\b(?!\s+of\s+[a-z])|\bthose numbers\b|\bthe same\b")
# ('the number of patents' names what it counts: no vague measure)
# A question made only of these (and words that carry no topic) compares or moves something it does not name:
# "Which one is bigger?", "Did it go up or down?". Stems, as app.text.terms.topic_terms gives them.
VAGUE_FIGURE_ASK = frozenset({
    "bigger", "smaller", "larger", "higher", "lower", "greater", "more", "less", "fewer", "better", "worse",
    "faster", "slower", "biggest", "smallest", "largest", "highest", "lowest", "up", "down", "go", "went", "gone",
    "grow", "grew", "grown", "rise", "rose", "fall", "fell", "drop", "dropped", "increase", "increased",
    "decrease", "decreased", "change", "changed", "one", "other", "same"})
VAGUE_FIGURE_MOVES = VAGUE_FIGURE_ASK - {"one", "other", "same", "go", "went", "gone"}
PRIOR_TURN = re.compile(
    r"(?i)\b(i mentioned|i asked|asked about|i said|as i said|you said|earlier|previous|previously|last time|"
    r"same question|do it|do the maths|them up|the other one|the one i)\b")
# A question cut off mid-way ("compare NWL with").
TRUNCATED = re.compile(r"(?i)\b(with|and|to|vs\.?|versus|than|of|for|between|the|or|from)\s*[?.!]*\s*$")
# A name at the very start counts when it is two capitalised words or more ("Zephyr Airlines revenue").
LEADING_NAME = re.compile(r"^\s*([A-Z][a-z\u00e0-\u00ff]+(?:[- ][A-Z][a-z\u00e0-\u00ff]+)+)\b")
NOT_LEADING = {"what", "how", "which", "who", "when", "why", "where", "did", "does", "do", "is", "are", "was",
               "were", "can", "could", "will", "would", "should", "the", "tell", "give", "show", "list", "any", "has",
               "have", "compare", "explain", "describe", "summarise", "summarize", "define", "please", "and", "so"}
# Multi-word proper names (segments, products: "Contract Warehousing") are masked before looking for event words.
PROPER_PHRASE = re.compile(r"(?<=\w )[A-Z][a-z]+(?:[- ][A-Z][a-z]+)+")
NAME = re.compile(r"(?<![.?!]\s)(?<!^)\b([A-Z][a-z\u00e0-\u00ff]+(?:[- ][A-Z][a-z\u00e0-\u00ff]+)*)\b")
NOT_NAMES = {"fy", "i", "ceo", "cfo", "ebit", "ebitda", "eps", "dps", "h1", "h2", "agm"}
NUMBER = re.compile(r"(?<![A-Za-z0-9.,])[£$€]?\d+(?:[.,]\d+)*\s?(?:%|p|m|bn|k)?(?![A-Za-z0-9])")
YEARISH = re.compile(rf"^{YEAR}$")
# Upper-case words that look like a ticker but are finance or everyday acronyms.
ACRONYMS = {"FY", "CEO", "CFO", "COO", "EBIT", "EBITDA", "EPS", "DPS", "CAGR", "AGM", "ISA", "SQL", "CSS", "HTML",
            "USA", "UK", "US", "EU", "GDP", "ESG", "IPO", "OK", "FCF", "ROI", "ROE", "ROCE", "KPI", "CAPEX", "PE",
            "TV", "PDF", "API", "VAT", "AI", "IT", "LFL", "MW", "GW", "NAV", "GBP", "USD", "EUR", "FX", "DIY", "PLC",
            "LLC", "INC", "LTD", "CO", "FTSE", "DAX", "CAC", "NYSE", "LSE", "OPEX", "SG", "KPIS", "CSR", "AM", "PM"}

# What a company's own filings state, for the route node's guarantee (nodes/routing.py): a figure or line item
# (METRIC above), a deal (a business bought or sold, a tender offer, a spin-off, a stake), a plan, a named officer
# or adviser, a vote of the shareholders, a lawsuit, customers and suppliers, a period of account. Bare "ratio" or
# "number" are not here: "which ratio?" is a fair clarification.
REPORT_KIND = re.compile(
    r"(?i)\b(acquir(?:e|ed|es|ing)|acquisitions?|buy|buys|bought|purchase[ds]?|pay|paid|merger|"
    r"divest(?:ed|iture|ment)?|disposals?|sold|sell|sells|selling|tender offers?|spin[- ]?offs?|split[- ]?offs?|"
    r"joint ventures?|stakes?|subsidiar(?:y|ies)|bankruptcy|chapter 11|lawsuits?|litigation|settlements?|"
    r"shareholders|annual meeting|votes?|voted|ratif(?:y|ied|ies|ication)|customers?|suppliers?|"
    r"plans?|project|programme|program|restructuring|initiative|strategy|"
    r"ceo|cfo|coo|chief (?:\w+ )?officer|chief executive|chair|chairman|chairwoman|chairperson|president|"
    r"directors?|board|auditors?|audits?|audited|audit firm|headquarter(?:s|ed)|head office|employees|headcount|"
    r"segments?|risks?|guidance|outlook|dividends?|"
    r"quarter|quarterly|q[1-4]|three months|six months|nine months|"
    r"fiscal|fy\s?'?\d{2,4}|financial year|full[- ]year|annual|year[- ]end|ended|ending)\b")
# Forward-looking asks: a target or guidance for a metric is read, not calculated.
FORWARD = re.compile(r"(?i)\b(targets?|guidance|outlook|ambitions?|aims?|expects?|expected|medium[- ]term|"
                     r"long[- ]term|forecasts?)\b")
# Words that ask for news rather than the filings: the recency and publication words of RECENCY, narrowed to
# those that say "news" on their own (not "current", "since" or "now"), and a month of a year ("in September
# 2024"), when events happen; a day-dated period end ("at June 30, 2024") is a balance-sheet date, not news.
NEWS_ASKED = re.compile(
    r"(?i)\b(latest|recent|recently|lately|newest|this (?:week|month|morning)|last week|today|yesterday|"
    r"right now|anything new|news|headlines?|announce|announced|announcing|announcements?|press|"
    r"press releases?|trading update|trading statement|just)\b|"
    r"\b(?:in|on|during|since|from|by)\s+(?:early |late |mid-?)?(?:" + LONG_MONTHS + r"|may)\s+" + YEAR + r"\b")
# The words of NEWS_ASKED that ask for the news itself, which no filing can give: how recent it is, or the word
# news. An event dated by its month ('appointed in August 2022') or an announcement may be told by a filing too
# (an 8-K, a release filed with the report).
NEWS_ITSELF = re.compile(
    r"(?i)\b(latest|recent|recently|lately|newest|this (?:week|month|morning)|last week|today|yesterday|"
    r"right now|anything new|news|headlines?|just)\b")
