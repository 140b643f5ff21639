"""Judgements an analyst is asked to make, each with the metric it conventionally rests on and the convention.

"Is it capital-intensive?", "Is its balance sheet conservatively financed?", "Is it highly leveraged?", "Is its
liquidity healthy?", "Is it a high-growth company?", "Are its margins improving?", "Does it have positive working
capital?": each is decided by a metric
read from the filings (the company's own figure, when it states one: 'capital intensity', 'equity ratio', 'net
debt / Adjusted EBITDA') or computed by the calculator from statement figures (app/metrics.py's catalogue:
capex as a share of revenue, current ratio, debt-to-equity), and by a rule of thumb that analysts apply to it.
The rules are conventions, not laws: the answer says which metric and which convention it used, so a reader can
disagree with the convention and still use the figure.

`convention_for(question)` picks the convention a question asks for; when the question names its own metric
('judging by its capital expenditure relative to revenue', 'by the quick ratio'), that metric comes first.
Pure, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from app.metrics import CASH_BACKING, CASH_RETURNS, RISING_LEVERAGE

Rule = Literal["above", "below", "rising", "falling"]


@dataclass(frozen=True)
class Convention:
    """One judgement: the words that ask it, the measures it rests on (as reports state them, in order of
    preference), the catalogue metrics the calculator can compute for it, and the rule of thumb."""

    topic: str
    asks: re.Pattern[str]
    measures: tuple[str, ...]
    metrics: tuple[str, ...]
    rule: Rule
    threshold: float | None
    unit: str
    says: str
    """The convention in words (no figures: it is ours, not the filing's, and an answer cites only filings)."""
    says_for: tuple[tuple[str, str], ...] = ()
    """The convention in words for another of its measures, when the question names that one ('by the quick
    ratio'): the answer's rule of thumb is the metric's it rests on."""

    def holds(self, value: float, previous: float | None = None) -> bool | None:
        """Whether the judgement the question asks holds for this value (and the previous period's, for a
        trend); None when it cannot be told."""
        if self.rule in ("rising", "falling"):
            if previous is None or value == previous:
                return None
            return value > previous if self.rule == "rising" else value < previous
        if self.threshold is None:
            return None
        return value >= self.threshold if self.rule == "above" else value <= self.threshold


REGULATORY_CAPITAL = re.compile(
    r"(?i)\bregulatory\s+capital\b|\bcapital\s+(?:requirements?|minimums?|adequacy|buffers?|headroom)\b|"
    r"\bwell[- ]capitali[sz]ed\b|\bCET\s?1\b|\bcommon\s+equity\s+tier\s+1\b|\btier\s+1\s+(?:capital|leverage)\b")
"""A bank's regulatory capital judged ('Is it comfortably above its regulatory capital minimums?'): each ratio it
holds against the minimum its capital table sets beside it (app/facts/capital.py)."""
CONVENTIONS: tuple[Convention, ...] = (
    Convention("cash returns covered", CASH_RETURNS,
               ("free cash flow cover of dividends and buybacks", "free cash flow cover of buybacks",
                "free cash flow cover of dividends"),
               ("free cash flow cover of dividends and buybacks", "free cash flow cover of buybacks",
                "free cash flow cover of dividends"), "above", 100.0, "%",
               "What a company returns to shareholders is usually read as paid for by the business when its free "
               "cash flow (operating cash flow less capital expenditure) at least covers it; what it does not cover "
               "comes from cash held or borrowing."),
    Convention("capital-intensive", re.compile(r"(?i)\bcapital[- ]intensive|\bcapital[- ]intensity\b"),
               ("capital intensity", "capex as a share of revenue", "capital expenditure as a percentage of revenue"),
               ("capex as a share of revenue",), "above", 10.0, "%",
               "A business that spends more than about a tenth of its revenue on capital expenditure year after "
               "year is usually called capital-intensive."),
    Convention("conservatively financed", re.compile(
        r"(?i)\bconservative(?:ly)?\s+financed|\bconservative\s+balance\s+sheet|\bfinancially\s+(?:sound|strong)|"
        r"\b(?:strong|solid|sound|robust)\s+balance\s+sheet|\bbalance\s+sheet\s+(?:is\s+|was\s+)?(?:\w+\s+)?"
        r"(?:strong|solid|sound|robust)\b"),
               ("equity ratio", "ratio of equity attributable to owners of the parent to total assets",
                "net debt / EBITDA", "net financial debt to EBITDA"),
               ("equity ratio",), "above", 40.0, "%",
               "An equity ratio of around two fifths of total assets or more, or net debt of no more than about "
               "twice EBITDA, is usually read as conservative financing."),
    Convention("cash-backed earnings", CASH_BACKING, ("free cash flow conversion",), ("free cash flow conversion",),
               "above", 100.0, "%",
               "Earnings are usually read as well backed by cash when free cash flow (operating cash flow less "
               "capital expenditure) at least matches net income."),
    Convention("deleveraging", re.compile(r"(?i)\bde-?leverag(?:e|es|ed|ing)\b|\bleverage\s+(?:\w+\s+){0,2}(?:falling|"
                                          r"coming\s+down|improving|improved|declining|down)\b|"
                                          # 'Is it paying down the debt it took on to buy Blue Buffalo?'
                                          r"\b(?:pay(?:s|ing)?|paid|bring(?:s|ing)?|brought|work(?:s|ing)?)\s+down\s+"
                                          r"(?:its\s+|the\s+|their\s+)?(?:[\w-]+\s+){0,2}?(?:debt|borrowings|leverage)\b"),
               ("net debt / Adjusted EBITDA", "net debt to Adjusted EBITDA", "net debt / EBITDA", "leverage ratio"),
               ("net debt to EBITDA",), "falling", None, "x",
               "A company is deleveraging when its net debt falls as a multiple of its EBITDA from one year to "
               "the next."),
    Convention("regulatory capital", REGULATORY_CAPITAL,
               ("CET1 capital ratio", "Tier 1 capital ratio", "total capital ratio", "Tier 1 leverage ratio"), (),
               "above", None, "%",
               "A bank meets its capital requirements when each of its risk-based capital ratios and its leverage "
               "ratio stands at or above the minimum its regulators set, buffers included; the points above it are "
               "its headroom."),
    Convention("rising leverage", RISING_LEVERAGE,
               ("net debt / Adjusted EBITDA", "net debt to Adjusted EBITDA", "net debt / EBITDA", "leverage ratio",
                "debt-to-equity ratio"),
               ("debt-to-equity ratio",), "rising", None, "x",
               "A company is more leveraged when its debt stands higher against its earnings or its equity than a "
               "year before."),
    Convention("highly leveraged", re.compile(r"(?i)\b(?:highly|heavily|over)[- ]?(?:leveraged|indebted)\b|\bleverage\b"),
               ("net debt / Adjusted EBITDA", "net debt to Adjusted EBITDA", "net debt / EBITDA", "leverage ratio"),
               ("net debt to EBITDA", "debt-to-equity ratio"), "above", 3.0, "x",
               "Net debt of more than about three times EBITDA is usually read as high leverage."),
    Convention("regulatory liquidity", re.compile(r"(?i)\bliquidity\s+coverage\s+ratio\b|\bLCR\b"),
               ("liquidity coverage ratio", "LCR"), (), "above", 100.0, "%",
               "A bank meets its liquidity requirement when its high-quality liquid assets at least cover the net "
               "cash outflows it would face over thirty days of stress (a liquidity coverage ratio of one hundred "
               "per cent or more, the regulatory minimum)."),
    Convention("healthy liquidity", re.compile(r"(?i)\bliquidity\b|\bliquid\b"),
               ("current ratio", "quick ratio"), ("current ratio", "quick ratio"), "above", 1.0, "x",
               "Current assets at least covering current liabilities (a current ratio of one or more) is "
               "usually read as adequate liquidity.",
               (("quick ratio", "Liquid assets, inventories left out, at least covering current liabilities (a quick "
                                "ratio of one or more) is usually read as adequate liquidity."),)),
    Convention("high growth", re.compile(r"(?i)\bhigh[- ]growth\b|\bfast[- ]growing\b|\bgrowing\s+(?:fast|quickly)"),
               ("revenue growth", "sales growth", "net sales growth"),
               ("year-over-year revenue growth", "year-over-year change"), "above", 10.0,
               "%", "Revenue growth of about a tenth a year or more is usually called high growth."),
    Convention("improving margins", re.compile(
        r"(?i)\b(?:improving|rising|expanding|better)\s+(?:\w+\s+){0,2}margins?\b|\bmargins?\s+(?:\w+\s+){0,1}"
        r"(?:improving|improve|improved|rising|expanding)\b|\bimproving\s+(?:\w+\s+){0,2}(?:margin\s+)?profile\b|"
        # 'getting more profitable': the margin's trend, not whether it makes a profit at all
        r"\bmore\s+profitable\b|\bprofitability\s+(?:improv|ris|grow|strengthen)\w*"),
               ("adjusted operating margin", "operating margin", "EBIT margin", "EBITDA margin", "gross margin"),
               ("operating margin",), "rising", None, "%",
               "Margins are improving when the latest year's margin is above the year before's."),
    Convention("positive working capital", re.compile(
        r"(?i)\bpositive\s+(?:net\s+)?working\s+capital\b|\bworking\s+capital\s+(?:is\s+|was\s+)?positive\b"),
               ("working capital", "net working capital"), ("working capital",), "above", 0.0, "money",
               "Working capital is positive when current assets exceed current liabilities."),
)


def convention_for(question: str) -> Convention | None:
    """The judgement the question asks, with the question's own metric first when it names one."""
    found = next((c for c in CONVENTIONS if c.asks.search(question)), None)
    if found is None:
        return None
    own = own_measure(question)
    if own:
        measures = (own, *(m for m in found.measures if m.lower() != own.lower()))
        says = next((text for measure, text in found.says_for if measure.lower() == own.lower()), found.says)
        return Convention(found.topic, found.asks, measures, found.metrics, found.rule, found.threshold, found.unit,
                          says, found.says_for)
    return found


_JUDGE_BY = re.compile(r"(?i)\b(?:judg(?:e|ing)\s+by|based\s+on|by|using|measured\s+by|in\s+terms\s+of)\s+(?:the\s+|its\s+)?"
                       r"(?P<what>(?:[\w&/-]+\s+){0,10}(?:ratio|margin|intensity|growth|coverage|leverage|"
                       r"relative\s+to\s+revenue|to\s+total\s+assets|as\s+a\s+(?:share|percentage)\s+of\s+revenue))\b")
_NAMED_MARGIN = re.compile(r"(?i)\b(?P<what>(?:gross|operating|EBIT|EBITDA|net|adjusted\s+operating)\s+margin)")


def own_measure(question: str) -> str | None:
    """The metric a question names for its judgement ('by the quick ratio', 'its gross margin profile')."""
    if m := _JUDGE_BY.search(question):
        # the longest metric named, up to a second one joined to it ('net debt to EBITDA and its equity ratio')
        what = re.split(r"(?i)\s+and\s+(?:its|the|their|by)\s+|,\s*", m.group("what").strip())[0]
        # the period is no part of the metric's name ('its fiscal 2020 quick ratio')
        what = " ".join(re.sub(r"(?i)\b(?:fiscal|financial|FY)\b\s*|\b(?:19|20)\d{2}\b|\bFY\d{2,4}\b", " ", what).split())
        if re.search(r"(?i)capital\s+expenditure.*relative\s+to\s+revenue", what):
            return "capex as a share of revenue"
        return what
    if m := _NAMED_MARGIN.search(question):
        return m.group("what")
    return None
