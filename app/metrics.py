"""A catalogue of the financial metrics analysts ask for, and the readers that apply one to a set of figures.

Each `Metric` is a small record: its name, the aliases questions use for it, its result unit and its formula
written as text ("revenue / average PP&E"). The text is the single source of truth: `parse_formula` turns it
into arithmetic with placeholders and a list of `Term`s, each a `LineItem` (with the labels statements use
for it) read at one period, averaged over two period ends, or changed between them. A question that gives
its own definition ("X is defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019)") is parsed
by the same reader, so its definition replaces the catalogue's.

Nothing here computes: `app.calc_tools.metric` substitutes the values into the arithmetic and evaluates it with
the calculator's safe parser. This module only knows figures by their fields (label, value, unit, company,
fiscal_year), so it imports nothing from the calculator.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, Protocol

from app.text.periods import YEAR, period_day, years_named
from app.text.sentences import PART_PROFITABLE, without_setting
from app.text.units import money_scale

Unit = Literal["%", "x", "days", "money"]
TermKind = Literal["value", "average", "change", "prior"]
DAY_BASIS = 365
MEASURE = "measure"
"""The item of a metric that applies to whatever the question measures (year-over-year change)."""


class FigureLike(Protocol):
    label: str
    value: float
    unit: str
    company: str | None
    fiscal_year: int | None


SegmentRow = Callable[[FigureLike], "str | None"]
"""A figure's label as one segment's row ('Consumer: Net sales' as 'Net sales'), None for any other figure."""


# --- line items -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LineItem:
    """A statement line: `key` names it in input keys ('ppe_2019'); `synonyms` are the labels statements and
    formulas use for it; `outflow` items are used by size: cash outflows a cash-flow statement shows negative, and
    costs and liabilities a UK or Australian statement shows in brackets ('Total current liabilities (373.5)')."""

    key: str
    name: str
    synonyms: tuple[str, ...]
    outflow: bool = False
    pattern: str = ""
    """A regular expression over the label's letters alone (lower case, no spaces or punctuation, so that a word
    pypdf broke in two still matches: 'Depreciation and amort ization') for the wordings no list covers
    ('Purchases of land, buildings, and equipment' is capex); a label it matches is a near match."""
    charge: bool = False
    """A charge that may turn into a benefit: used by size where a statement shows it as a deduction under a label
    that names a provision, expense or charge ('Provision for income taxes (39,141)'); a label that names a
    benefit keeps its sign (`_as_charge`)."""


def normalize_label(text: str) -> str:
    """A label as the catalogue's names are written (see `item_names`)."""
    return _norm(text)


@lru_cache(maxsize=8192)
def _norm(text: str) -> str:
    """Lower case, no parentheticals or commas, one space: 'Property, plant and equipment, net' ->
    'property plant and equipment net'. Kept per label: a turn matches each row label against every item."""
    text = text.lower().replace("’", "'").replace("&amp;", "&")
    text = re.sub(r"\([^)]*\)", " ", text)
    text = re.sub(r"[,:;]|/(?=\s|$)", " ", text)  # 'Net Earnings/(Loss)' is net earnings
    return re.sub(r"\s+", " ", text).strip(" .")


LINE_ITEMS: dict[str, LineItem] = {item.key: item for item in (
    LineItem("revenue", "revenue", ("revenue", "revenues", "total revenue", "total revenues", "net revenue",
                                    "net revenues", "net sales", "total net sales", "total net revenue",
                                    "total net revenues", "sales", "turnover")),
    LineItem("cogs", "COGS", ("cost of sales", "cost of revenue", "cost of revenues", "total cost of revenue",
                              "total cost of revenues", "cost of goods sold", "cost of products sold", "cogs",
                              "merchandise costs", "cost of merchandise sold", "cost of goods and services sold"),
             outflow=True),
    LineItem("gross_profit", "gross profit", ("gross profit",)),
    LineItem("operating_income", "operating income", (
        "operating income", "operating profit", "income from operations", "operating income (loss)", "ebit")),
    LineItem("net_income", "net income", ("net income", "net earnings", "net profit", "profit for the year",
                                          "profit after tax", "net income attributable",
                                          # IFRS: the parent's shareholders' share of the year's profit
                                          "profit attributable to owners of the parent",
                                          "profit attributable to owners of the company",
                                          "profit attributable to shareholders",
                                          "profit for the year attributable to owners of the parent")),
    LineItem("d_and_a", "D&A", ("depreciation and amortization", "depreciation & amortization",
                                "depreciation and amortisation", "depreciation, depletion and amortization",
                                "d&a"), pattern=r"^depreciation(?:and|&)?amorti[sz]ation"),
    LineItem("income_tax", "income tax expense", ("provision for income taxes", "income tax expense",
                                                  "income taxes", "income tax provision", "taxation",
                                                  "income tax"), charge=True),
    LineItem("pretax_income", "income before taxes", (
        "income before income taxes", "earnings before income taxes", "income before taxes",
        "profit before tax", "profit before taxation", "pre-tax income", "pretax income", "income before tax",
        "earnings before taxes", "pre-tax profit", "pretax profit", "pre-tax earnings", "pretax earnings")),
    LineItem("current_assets", "current assets", ("total current assets", "current assets")),
    LineItem("current_liabilities", "current liabilities", ("total current liabilities", "current liabilities"),
             outflow=True),
    LineItem("cash", "cash and cash equivalents", ("cash and cash equivalents", "cash and equivalents", "cash")),
    LineItem("short_term_investments", "short-term investments", (
        "short-term investments", "short term investments", "marketable securities",
        "short-term marketable securities")),
    LineItem("receivables", "accounts receivable", ("accounts receivable", "accounts receivable net",
                                                    "trade receivables", "receivables",
                                                    "trade and other receivables")),
    LineItem("inventory", "inventory", ("inventories", "inventory", "total inventories",
                                        "merchandise inventories", "merchandise inventory")),
    LineItem("accounts_payable", "accounts payable", ("accounts payable", "trade payables",
                                                      "trade and other payables"), outflow=True),
    LineItem("ppe", "PP&E", ("property, plant and equipment, net", "net property, plant and equipment",
                             "property and equipment, net", "property, plant and equipment", "pp&e", "ppe",
                             "net pp&e", "fixed assets", "ppne", "net ppne")),
    LineItem("total_assets", "total assets", ("total assets", "assets")),
    LineItem("total_equity", "shareholders' equity", (
        "total shareholders' equity", "total stockholders' equity", "total equity", "shareholders' equity",
        "stockholders' equity", "equity")),
    LineItem("total_debt", "total debt", ("total debt", "total borrowings", "debt", "borrowings"), outflow=True),
    LineItem("cfo", "cash from operations", (
        "net cash provided by operating activities", "net cash from operating activities",
        "cash provided by operating activities", "cash from operations", "cash flow from operations",
        "cash from operating activities", "cash flow from operating activities", "cash flows from operating activities",
        "operating cash flow", "cash generated from operations", "cfo"),
             pattern=r"^(?:net)?cash(?:flows?)?(?:providedby|from|generated(?:by|from))operati(?:ngactivities|ons)$"),
    LineItem("capex", "capex", (
        "purchases of property, plant and equipment", "capital expenditures", "capital expenditure",
        "payments for property and equipment", "purchases of property and equipment",
        "additions to property, plant and equipment", "capex", "capital spending"), outflow=True,
             pattern=r"^(?:purchases?of|payments?for|additions?to|acquisitions?of|investments?in|expenditures?"
                     r"(?:on|for))(?:property|land|buildings|plant|equipment|fixedassets|capitalassets|pp&e)"),
    LineItem("dividends", "dividends paid", ("dividends paid", "cash dividends paid", "payments of dividends",
                                             "dividends", "cash dividend payments", "dividend payments",
                                             "dividends paid to shareholders", "dividends paid to stockholders",
                                             "payment of dividends", "cash dividends"), outflow=True),
    LineItem("rnd", "R&D", ("research and development", "research and development expenses",
                            "research and development expense", "research, development and related expenses",
                            "research and development costs", "r&d", "r&d expenses", "r&d expense"), outflow=True,
             pattern=r"^research(?:and|&)?development(?:andrelated)?(?:expenses?|costs?)?$"),
    LineItem("sga", "SG&A", ("selling, general and administrative expenses", "selling, general and administrative",
                             "selling, general and administrative expense", "sg&a", "sg&a expenses"), outflow=True,
             pattern=r"^selling(?:general)?(?:and|&)?(?:general)?(?:and|&)?administrative(?:expenses?)?$"),
    LineItem("operating_expenses", "operating expenses", (
        "operating expenses", "total operating expenses", "operating expense", "operating costs",
        "total operating costs", "operating costs and expenses", "total operating costs and expenses",
        # a bank's operating costs are its noninterest expense (its interest expense is its cost of funds)
        "noninterest expense", "total noninterest expense", "non-interest expense", "total non-interest expense",
        "noninterest expenses", "total noninterest expenses"), outflow=True),
    LineItem("interest_expense", "interest expense", ("interest expense", "interest expense, net",
                                                      "finance costs"), outflow=True),
    LineItem("share_repurchases", "share repurchases", (
        "share repurchases", "stock repurchases", "share buybacks", "share buy-backs", "buybacks",
        "repurchases of common stock", "repurchase of common stock", "purchases of common stock",
        "purchases of common stock for treasury", "purchase of treasury stock", "purchases of treasury stock",
        "repurchases of ordinary shares", "purchase of own shares", "payments for share buy-back",
        "common stock repurchases", "aggregate purchase price of common stock repurchases"), outflow=True,
        pattern=r"^(?:re)?purchase[sd]?of(?:our)?(?:common|ordinary|treasury|own)(?:stock|shares)"),
    LineItem("diluted_eps", "diluted EPS", (
        "diluted earnings per share", "diluted eps", "diluted net income per share", "diluted net earnings per share",
        "diluted net income per common share", "diluted earnings per common share", "earnings per share diluted",
        "net income per share diluted", "net earnings per share diluted", "diluted earnings per ordinary share"),
        pattern=r"^(?:diluted(?:net)?(?:income|earnings)(?:loss)?per(?:common|ordinary)?share|"
                r"(?:net)?(?:income|earnings)(?:loss)?per(?:common|ordinary)?sharediluted)"),
)}
_ITEM_BY_NAME: dict[str, str] = {form: item.key for item in LINE_ITEMS.values() for s in (item.key, *item.synonyms)
                                 for form in (_norm(s), _norm(s).replace("-", " "))}
"""Each name of a line item, also with its hyphens as spaces: a question's words are read apart ('pre-tax profit'
is asked as 'pre tax profit')."""


def resolve_item(phrase: str) -> str | None:
    """The line item a phrase names ('FY2022 COGS' -> no: pass 'COGS'), trying it without the qualifiers that do
    not change the line ('the', 'total', 'unadjusted': see _QUALIFIERS)."""
    text = _norm(phrase)
    for candidate in (text, _QUALIFIERS.sub("", text), _ATTRIBUTED.sub("", text)):
        if candidate in _ITEM_BY_NAME:
            return _ITEM_BY_NAME[candidate]
    return None


_ATTRIBUTED = re.compile(r"\s+(?:attributable\s+)?to\s+(?:the\s+)?(?:common\s+|ordinary\s+)?(?:shareholders|stockholders|"
                         r"owners|equity\s+holders|parent|company)(?:\s+of\s+the\s+(?:company|parent))?$")
"""'net income attributable to shareholders', '… to owners of the parent': the statement's line for the parent's
share, which its name without the words names."""


_QUALIFIERS = re.compile(r"^(?:(?:the|its|their|total|unadjusted|reported|gaap|consolidated|year[- ]end)(?:\s+|$))+")
"""Words before a line item that do not change which line it is: 'unadjusted operating income' is the statement's
operating income (an adjusted figure is a non-GAAP measure no statement states)."""
_BEFORE_AN_ITEM = frozenset("""the its their total in of for and or on what was were is are how much did does its
    year annual quarterly reported unadjusted gaap consolidated whole company's group's firm's""".split())
"""Lower-case words after which one word still names the line item ('the revenue', 'total revenue'); after any
other lower-case word ('same-store sales', 'product revenue') it names a measure of its own."""
ONE_WORD_ITEMS = frozenset({"revenue", "capex", "cogs", "ppe", "inventory", "dividends", "rnd", "sga"})
"""Line items one word of a question may name ('revenue growth', 'capex'); other single words ('cash', 'assets',
'equity', 'sales' in 'sales and marketing') name one only in a longer phrase."""


def items_named(question: str) -> list[str]:
    """The line items a question names, longest phrase first, in order of mention: 'cash flow from operating
    activities' is cash from operations (and not also cash); 'total current liabilities' is current liabilities."""
    written = re.findall(r"[\w&'’]+", question.replace("’", "'"))
    words = [w.lower() for w in written]
    taken = [False] * len(words)
    found: list[tuple[int, str]] = []
    for n in range(6, 0, -1):
        for i in range(len(words) - n + 1):
            if any(taken[i:i + n]):
                continue
            phrase = " ".join(words[i:i + n])
            key = resolve_item(phrase)
            core = _QUALIFIERS.sub("", _norm(phrase)).split()
            if key is None or (len(core) <= 1 and key not in ONE_WORD_ITEMS):
                continue
            if n == 1 and key == "revenue" and i + 1 < len(words) and words[i + 1] in ("and", "&"):
                continue  # 'sales and marketing'
            if (n == 1 and i > 0 and written[i - 1].islower() and words[i - 1] not in _BEFORE_AN_ITEM
                    and not words[i - 1].endswith(("'", "'s"))):  # 'logistics' revenue' is the company's
                continue  # 'same-store sales', 'product revenue': a measure of its own, not the line item
            if i + n < len(words) and words[i + n] == "per":
                continue  # 'revenue per available room', 'sales per square foot': a ratio of its own
            taken[i:i + n] = [True] * n
            found.append((i, key))
    return list(dict.fromkeys(key for _, key in sorted(found)))


@lru_cache(maxsize=2048)
def item_names(item: str, measure: str | None = None) -> tuple[str, ...]:
    """The normalised labels a figure of `item` may carry; an item not in the catalogue is its own phrase (the
    catalogue is fixed, so the names are kept per item)."""
    if item == MEASURE:
        return (_norm(measure),) if measure else ()
    if item in LINE_ITEMS:
        return tuple(_norm(s) for s in LINE_ITEMS[item].synonyms)
    return (_norm(item.replace("_", " ")),)


def label_match(label: str, item: str, measure: str | None = None) -> int | None:
    """0: the label is one of the item's names; 1: it starts with one ('Net income attributable to X');
    None: no match. 'Other current assets' never matches 'current assets'."""
    text, names = _norm(label), item_names(item, measure)
    if _OTHERS_SHARE.search(text) and not _OTHERS_SHARE.search(_norm(measure or "")):
        return None  # 'Net income attributable to noncontrolling interests': others' share, no line of the group's
    if text in names:
        return 0
    if _QUALIFIERS.sub("", text) in names:
        return 1  # 'Reported Sales' in an earnings release is its sales
    line = LINE_ITEMS.get(item)
    if line is not None and line.pattern and re.search(line.pattern, re.sub(r"[^a-z&]", "", text)):
        return 1
    # a longer label that continues the name ('Net income attributable to X'), not one that joins it to another
    # item ('Sales and marketing' is no revenue line)
    if any(text.startswith(name + " ") and not re.match(r"(?:and|&|or|of|per)\b", text[len(name) + 1:])
           and not _another_flow(text[len(name) + 1:], names) for name in names):
        return 1
    return None


def _another_flow(rest: str, names: set[str] | frozenset[str]) -> bool:
    """Whether what a label adds to an item's name makes it the cash or the balance of it ('Income taxes paid' is
    no income tax expense, 'Interest payable' no interest expense), unless the item is named so ('dividends paid')."""
    said = re.match(r"(paid|received|payable|receivable|refund\w*|recoverable)\b", rest)
    return said is not None and not any(said.group(1) in name for name in names)


# --- formulas -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """One operand: `item` at `year` (value), or over `start_year`..`year` (average of the two period ends,
    or the change between them), or the year before (prior). A year of None means the metric's year."""

    item: str
    kind: TermKind = "value"
    year: int | None = None
    start_year: int | None = None

    def periods(self, base: int | None) -> tuple[int | None, ...]:
        end = self.year if self.year is not None else base
        before = None if end is None else end - 1
        if self.kind == "value":
            return (end,)
        if self.kind == "prior":
            return (before,)
        return (self.start_year if self.start_year is not None else before, end)

    @property
    def relative(self) -> bool:
        """True when the periods depend on the metric's year."""
        return self.year is None or (self.kind in ("average", "change") and self.start_year is None)


def input_key(item: str, year: int | None) -> str:
    """'ppe_2019'; an undated figure is just 'ppe'."""
    return item if year is None else f"{item}_{year}"


def key_parts(key: str) -> tuple[str, int | None]:
    """'ppe_2019' -> ('ppe', 2019)."""
    head, _, tail = key.rpartition("_")
    return (head, int(tail)) if head and re.fullmatch(YEAR, tail) else (key, None)


def _number_text(value: float) -> str:
    text = str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else repr(float(value))
    return f"({text})" if value < 0 else text


@dataclass(frozen=True)
class Formula:
    """Parsed formula text: `template` is arithmetic with {0}, {1}... standing for `terms`."""

    text: str
    template: str
    terms: tuple[Term, ...]

    @property
    def has_hundred(self) -> bool:
        """True when the formula already multiplies by 100 (a question's 'x / y * 100')."""
        return bool(re.search(r"(?<![\d.{])100(?![\d.}])", self.template))

    def input_keys(self, year: int | None) -> list[str]:
        keys = (input_key(t.item, y) for t in self.terms for y in t.periods(year))
        return list(dict.fromkeys(keys))

    def needs_year(self, year: int | None) -> bool:
        """True when, with no year given, some term's periods are relative (an average, a change, a prior)."""
        return year is None and any(t.kind != "value" and t.relative for t in self.terms)

    def arithmetic(self, values: Mapping[str, float], year: int | None) -> str:
        """The formula with numbers in: averages as ((a + b) / 2), changes as (later - earlier)."""
        parts = []
        for term in self.terms:
            outflow = term.item in LINE_ITEMS and LINE_ITEMS[term.item].outflow
            nums = [_number_text(abs(v) if outflow else v)
                    for v in (values[input_key(term.item, y)] for y in term.periods(year))]
            parts.append(nums[0] if len(nums) == 1 else f"(({nums[0]} + {nums[1]}) / 2)"
                         if term.kind == "average" else f"({nums[1]} - {nums[0]})")
        return self.template.format(*parts)


_WORD_OPERATORS = ((r"\bdivided by\b", " / "), (r"\bmultiplied by\b", " * "), (r"\btimes\b", " * "),
                   (r"\bplus\b", " + "), (r"\bminus\b", " - "), (r"\bless\b", " - "), ("×", " * "),
                   ("÷", " / "), ("−", " - "), ("–", " - "))
_SPLIT = re.compile(r"(\(|\)|\*|/|\+|\s-\s)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_YEAR = rf"(?:fy\s?|fiscal\s)?({YEAR})\b"
_RANGE = re.compile(rf"\b(?:between|from|over|for|of|in)?\s*{_YEAR}\s*(?:and|to|-)\s*{_YEAR}")
_ONE_YEAR = re.compile(rf"(?:\b(?:in|for|of|at|during)\s+)?\b{_YEAR}")
_KINDS: tuple[tuple[TermKind, re.Pattern[str]], ...] = (
    ("average", re.compile(r"^(?:the\s+)?average\s+(?:of\s+)?")),
    ("change", re.compile(r"^(?:the\s+)?(?:change|increase)\s+in\s+")),
    ("prior", re.compile(r"^(?:the\s+)?(?:prior[- ]year|prior|previous[- ]year|previous|opening|beginning)\s+")),
)


def parse_term(phrase: str) -> Term:
    """'average PP&E between FY2018 and FY2019' -> Term('ppe', 'average', 2019, 2018)."""
    text = phrase.lower().strip(" .,:;")
    start = end = None
    if span := _RANGE.search(text):
        start, end = int(span.group(1)), int(span.group(2))
        text = text[:span.start()] + " " + text[span.end():]
    elif years := _ONE_YEAR.findall(text):
        end = int(years[-1])
        text = _ONE_YEAR.sub(" ", text)
    text = re.sub(r"\s+", " ", text).strip()
    kind: TermKind = "value"
    for name, pattern in _KINDS:
        if pattern.match(text):
            kind, text = name, pattern.sub("", text)
            break
    if kind == "value" and start is not None:
        kind = "average"  # 'PP&E between FY2018 and FY2019' in a formula can only mean both ends
    text = text.strip()
    if not text:
        raise ValueError(f"no line item in {phrase!r}")
    item = resolve_item(text) or (MEASURE if text == MEASURE else re.sub(r"\W+", "_", _norm(text)).strip("_"))
    return Term(item=item, kind=kind, year=end, start_year=start)


def parse_formula(text: str) -> Formula:
    """Read formula text ('365 * (average accounts payable) / (COGS + change in inventory)'); raises
    ValueError when it is not arithmetic over line items."""
    work = text
    for pattern, replacement in _WORD_OPERATORS:
        work = re.sub(pattern, replacement, work, flags=re.IGNORECASE)
    pieces, terms = [], []
    for piece in _SPLIT.split(work):
        piece = piece.strip()
        if not piece:
            continue
        if _SPLIT.fullmatch(f" {piece} ") or piece in "()*/+":
            pieces.append(piece)
        elif _NUMBER.fullmatch(piece):
            pieces.append(piece)
        else:
            pieces.append("{" + str(len(terms)) + "}")
            terms.append(parse_term(piece))
    if not terms:
        raise ValueError(f"no line items in {text!r}")
    template = " ".join(pieces).replace("( ", "(").replace(" )", ")")
    _check_arithmetic(template.format(*(["1"] * len(terms))))
    return Formula(text=text.strip(), template=template, terms=tuple(terms))


def _check_arithmetic(text: str) -> None:
    import ast

    try:
        ast.parse(text, mode="eval")
    except SyntaxError as err:
        raise ValueError(f"not arithmetic: {text!r}") from err


# --- metrics --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricInput:
    """One input of a metric: a line item and how it is read (averaged over two period ends, ...)."""

    item: LineItem | None
    label: str
    kind: TermKind = "value"

    @property
    def averaged(self) -> bool:
        return self.kind == "average"


@dataclass(frozen=True)
class Metric:
    """A metric: `formulas[0]` defines it; any others are stated fallbacks (ending balances for averages)
    used only when the first's inputs are not all among the figures. `origin` is 'question' for a
    definition the question gave."""

    name: str
    aliases: tuple[str, ...]
    unit: Unit
    formulas: tuple[Formula, ...]
    day_basis: int | None = None
    origin: Literal["catalogue", "question"] = "catalogue"

    @property
    def formula(self) -> str:
        return self.formulas[0].text

    @property
    def inputs(self) -> tuple[MetricInput, ...]:
        seen = dict.fromkeys((t.item, t.kind) for t in self.formulas[0].terms)
        return tuple(MetricInput(LINE_ITEMS.get(item), LINE_ITEMS[item].name if item in LINE_ITEMS else item, kind)
                     for item, kind in seen)

    @property
    def scales_to_percent(self) -> bool:
        return self.unit == "%"


def _metric(name: str, aliases: tuple[str, ...], unit: Unit, *formulas: str, days: int | None = None) -> Metric:
    texts = [f.format(days=days or DAY_BASIS) for f in formulas]
    return Metric(name, (name, *aliases), unit, tuple(parse_formula(t) for t in texts), day_basis=days)


CATALOGUE: tuple[Metric, ...] = (
    _metric("gross margin", ("gross profit margin", "gross margin percentage"), "%",
            "gross profit / revenue", "(revenue - COGS) / revenue"),
    _metric("operating margin", ("operating profit margin", "operating income margin", "ebit margin"), "%",
            "operating income / revenue"),
    _metric("net margin", ("net profit margin", "net income margin", "profit margin"), "%",
            "net income / revenue"),
    _metric("EBITDA margin", ("ebitda margin",), "%", "(operating income + D&A) / revenue"),
    _metric("EBITDA less capex", ("ebitda minus capex", "ebitda - capex", "ebitda less capital expenditures"),
            "money", "operating income + D&A - capex"),
    _metric("EBITDA", (), "money", "operating income + D&A"),
    _metric("effective tax rate", ("tax rate", "etr"), "%", "income tax expense / income before taxes"),
    _metric("current ratio", (), "x", "current assets / current liabilities"),
    # without a short-term investments line, the acid test's other forms: current assets less inventory, else
    # cash and receivables (a balance sheet with neither line holds neither)
    _metric("quick ratio", ("acid-test ratio", "acid test ratio"), "x",
            "(cash + short-term investments + accounts receivable) / current liabilities",
            "(current assets - inventory) / current liabilities",
            "(cash + accounts receivable) / current liabilities"),
    _metric("cash ratio", (), "x", "(cash + short-term investments) / current liabilities"),
    _metric("working capital", ("net working capital",), "money", "current assets - current liabilities"),
    _metric("debt-to-equity ratio", ("debt to equity", "debt-to-equity", "debt/equity", "d/e ratio",
                                     "debt to equity ratio"), "x", "total debt / shareholders' equity"),
    _metric("days payable outstanding", ("dpo", "days payables outstanding"), "days",
            "{days} * average accounts payable / COGS", "{days} * accounts payable / COGS", days=DAY_BASIS),
    _metric("days sales outstanding", ("dso", "days receivable outstanding", "days receivables outstanding",
                                       "days sales in receivables"), "days",
            "{days} * average accounts receivable / revenue", "{days} * accounts receivable / revenue",
            days=DAY_BASIS),
    _metric("days inventory outstanding", ("dio", "days inventory", "days sales of inventory", "dsi",
                                           "days in inventory"), "days",
            "{days} * average inventory / COGS", "{days} * inventory / COGS", days=DAY_BASIS),
    _metric("inventory turnover", ("inventory turnover ratio", "inventory turns", "sold its inventory",
                                   "sold their inventory", "turned over its inventory", "times inventory was sold"), "x",
            "COGS / average inventory", "COGS / inventory"),
    _metric("fixed asset turnover", ("fixed asset turnover ratio", "fixed-asset turnover", "fixed assets turnover",
                                     "ppe turnover", "pp&e turnover"), "x",
            "revenue / average PP&E", "revenue / PP&E"),
    _metric("asset turnover", ("asset turnover ratio", "total asset turnover"), "x",
            "revenue / average total assets", "revenue / total assets"),
    _metric("capex as a share of revenue", (
        "capex as a % of revenue", "capex as a percentage of revenue", "capex to revenue", "capex/revenue",
        "capital expenditure as a percentage of revenue", "capital expenditures as a percentage of revenue",
        "capex intensity", "capex as a percent of revenue", "capex as % of revenue", "capital intensity"), "%",
            "capex / revenue"),
    _metric("free cash flow", ("fcf",), "money", "cash from operations - capex"),
    _metric("operating cash flow ratio", ("cash flow ratio", "ocf ratio"), "x",
            "cash from operations / current liabilities"),
    _metric("dividend payout ratio", ("payout ratio", "dividend payout"), "%", "dividends paid / net income"),
    _metric("return on assets", ("roa",), "%", "net income / average total assets", "net income / total assets"),
    _metric("return on equity", ("roe",), "%", "net income / average shareholders' equity",
            "net income / shareholders' equity"),
    _metric("interest coverage ratio", ("interest coverage", "times interest earned"), "x",
            "operating income / interest expense"),
    _metric("year-over-year change", ("year over year change", "yoy change", "y/y change", "year-on-year change",
                                      "year over year growth", "year-over-year growth", "yoy growth",
                                      "year-on-year growth"), "%", "change in measure / prior measure"),
)
METRICS: dict[str, Metric] = {m.name.lower(): m for m in CATALOGUE}
REVENUE_GROWTH = _metric("year-over-year revenue growth", (), "%", "change in revenue / prior revenue")
"""What a growth judgement rests on ('Is it a high-growth company?'); no alias of the catalogue, so a question that
asks for revenue growth is still answered by the growth-rate tools, with both years' figures."""
FCF_CONVERSION = _metric("free cash flow conversion", ("fcf conversion",), "%",
                         "(cash from operations - capex) / net income")
"""How far a year's net income is backed by cash ('Judging by free cash flow, how well was its net income backed
by cash?'): free cash flow as a per cent of net income."""
FCF_COVER_RETURNS = _metric("free cash flow cover of dividends and buybacks", (), "%",
                            "(cash from operations - capex) / (dividends paid + share repurchases)")
FCF_COVER_BUYBACKS = _metric("free cash flow cover of buybacks", (), "%",
                             "(cash from operations - capex) / share repurchases")
FCF_COVER_DIVIDENDS = _metric("free cash flow cover of dividends", (), "%",
                              "(cash from operations - capex) / dividends paid")
"""Whether the cash a year's business generated paid for what it returned to shareholders ('Did its free cash flow
cover its dividends and buybacks?'): free cash flow as a per cent of the returns the question names."""
JUDGED_ONLY: tuple[Metric, ...] = (REVENUE_GROWTH, FCF_CONVERSION, FCF_COVER_RETURNS, FCF_COVER_BUYBACKS,
                                   FCF_COVER_DIVIDENDS)
"""Metrics a judgement rests on that no question names: the calculator knows them by name, `find_metrics` not."""
_KNOWN: dict[str, Metric] = {m.name.lower(): m for m in (*CATALOGUE, *JUDGED_ONLY)}


def _alias_pattern(alias: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w&])" + re.escape(alias.lower()) + r"(?![\w&])")


_ALIASES: tuple[tuple[re.Pattern[str], int, Metric], ...] = tuple(sorted(
    ((_alias_pattern(a), len(a), m) for m in CATALOGUE for a in m.aliases), key=lambda x: -x[1]))


def find_metrics(question: str) -> list[Metric]:
    """Every metric the question names, in order of mention; a longer alias claims its words first, so
    'operating cash flow ratio' is not also 'cash flow ratio'."""
    text, taken, found = _PERCENT_MARGIN.sub(" margin", question.lower()), [False] * len(question), []
    for pattern, _, metric in _ALIASES:
        for match in pattern.finditer(text):
            if not any(taken[match.start():match.end()]):
                taken[match.start():match.end()] = [True] * (match.end() - match.start())
                if not _COMPANY_DEFINED.search(text[max(0, match.start() - 40):match.start()]):
                    found.append((match.start(), metric))
    return list(dict.fromkeys(m for _, m in sorted(found, key=lambda x: x[0])))


_COMPANY_DEFINED = re.compile(r"\b(?:adjusted|non[- ]?gaap|non[- ]?ifrs|underlying|normali[sz]ed|pro[- ]forma|core)"
                              r"(?:\s+[\w-]+){0,2}\s*$")
"""'Adjusted Non GAAP EBITDA', 'underlying EBITDA margin': a measure the company defines and states, which the
catalogue's formula from the statements does not compute (it gives the unadjusted one)."""


_PERCENT_MARGIN = re.compile(r"\s+(?:%|percent(?:age)?)\s+margin\b")
"""'EBITDA % margin' is the EBITDA margin."""


def find_metric(question: str) -> Metric | None:
    """The metric named by the longest alias in the question (case-insensitive, whole words), or None."""
    text = _PERCENT_MARGIN.sub(" margin", question.lower())
    return next((m for pattern, _, m in _ALIASES if pattern.search(text)), None)


def metric_named(name: str) -> Metric | None:
    """A catalogue metric (or a judgement's: revenue growth) by its name or one of its aliases, exactly
    (case-insensitive)."""
    wanted = name.strip().lower()
    return next((m for m in _KNOWN.values() if wanted in (a.lower() for a in m.aliases)), None)


# --- question definitions -------------------------------------------------------------------------------------

_DEFINED = re.compile(
    r"(?P<name>[A-Za-z][\w&'/ ()-]{1,80}?)\s+(?:here\s+)?(?:is|are|shall be|should be)\s+(?:defined|calculated|"
    r"computed)\s+as\s*:?\s*(?P<formula>.+?)(?=\.\s|\.$|\?|;|\n|$)"
    r"|\bdefine\s+(?P<name2>[A-Za-z][\w&'/ ()-]{1,80}?)\s+as\s*:?\s*(?P<formula2>.+?)(?=\.\s|\.$|\?|;|\n|$)",
    re.IGNORECASE)
_DEFINED_IN_BRACKETS = re.compile(
    r"(?P<name>(?:[A-Z][\w&'-]*|[a-z][\w&'-]*)(?:\s+[\w&'-]+){0,5}?\s+(?:ratio|margin|rate|multiple|coverage|yield|"
    r"turnover|return|conversion))\s*\((?P<formula>[^()]*?[\w)]\s*[/*+]\s*[\w(][^()]*)\)")
"""'What is JnJ's FY2022 cash conversion ratio (cash from operations / net income)?': the name, then its formula in
brackets."""
_SOURCE_NOTE = re.compile(r"(?i)\[[^\]]*\]|\((?:from|per|as per|as shown in|in|on)\b[^)]*\)|"
                          r"\s+(?:as\s+)?(?:from|per|as\s+shown\s+in|in|on)\s+the\s+(?:consolidated\s+)?(?:statements?\s+of\s+"
                          r"(?:cash\s+flows?|income|operations|financial\s+position|earnings)|cash\s+flow\s+statement|income\s+"
                          r"statement|balance\s+sheet|p&l)\b")
"""'[from cash flow statement]', '(from the income statement)', '… amortization from the cash flow statement':
where to read an input, not arithmetic."""


_COVERED = re.compile(
    r"(?i)\bhow\s+many\s+times\s+(?:did|does|do|has|have|would|could)\s+(?:(?:[\w&.-]+['’]s?\s+){1,3}?)?"
    r"(?P<a>[\w&/ -]{2,60}?)\s+(?:cover|covered|service|serviced|pay|paid)\s+(?:(?:its|their|the)\s+)?"
    r"(?P<b>[\w&/ -]{2,60}?)(?=\s+(?:in|for|during|over|at|as)\b|\s*[?.,]|$)")
"""'How many times did Tamarack's Adjusted EBITDA cover its finance costs in 2024?': the question's own ratio,
A / B in times."""


_SHARE_OF = re.compile(
    r"(?i)(?P<a>(?:[\w&-]+[ ,]+){1,6}?)as\s+an?\s+(?:percent(?:age)?|%|share|proportion)\s+of\s+(?:its\s+|their\s+|the\s+)?"
    r"(?P<b>[\w&-]+(?:\s+[\w&-]+){0,4})")
"""'net earnings as a percent of sales': the question's own ratio of two line items, in percent."""
_RELATIVE_TO = re.compile(
    r"(?i)(?P<a>(?:[\w&-]+[ ,]+){1,6}?)relative\s+to\s+"
    r"(?!(?:(?:its|their|the|her|his|a|an)\s+)?(?:prior|previous|last|same|year|quarter|period|expectations?|guidance|"
    r"plan|targets?|budget|forecast|peers?|competitors?|industry|market|consensus|(?:19|20)\d\d)\b)"
    r"(?:its\s+|their\s+|the\s+|her\s+|his\s+)?(?P<b>[\w&-]+(?:\s+[\w&-]+){0,4}?)\s*(?:[?.]|$)")
"""'What's the target annual bonus …, relative to her base salary?': a per cent of the other, asked at the question's
end (not a change 'relative to the prior year', nor against a plan, nor a judgement's 'capital expenditure relative to
revenue in FY2024 and FY2023', whose metric the catalogue reads)."""


def share_asked(question: str) -> tuple[str, str] | None:
    """The two sides of the question's own 'A as a percent of B' ('net income attributable to 3M', 'total net
    sales'), or None."""
    share = _share_of(question)
    if share is not None:
        a, _, b = share.name.partition(" as a percentage of ")
        return a, b
    plain = without_setting(question)  # (not the agreement a figure is set in)
    match = _SHARE_OF.search(plain)
    if match is None and (relative := _RELATIVE_TO.search(plain)) and not re.search(r"\d", relative.group("b")):
        match = relative  # ('relative to revenue in FY2024 and FY2023' dates a judgement's metric: no share asked)
    if match is None:
        return None
    # sides no line item names whole: their words, less years and names with figures in them ('FY2018', '3M')
    a, b = (" ".join(w for w in re.findall(r"[\w&-]+", match.group(g)) if not re.search(r"\d", w)) for g in "ab")
    a = re.sub(r"^s\s+", "", a)  # 'Ulta Beauty's wages expense': its side starts after the apostrophe
    # 'what is her target annual bonus expressed as a share of …': the bonus, not the verbs around it
    a = re.sub(r"(?i)\s*\b(?:expressed|stated|shown|measured|calculated)$", "", a)
    a = re.sub(r"(?i)^(?:(?:what|is|was|are|were|her|his|its|their|the)\s+)+", "", a)
    return (a, b) if a and b else None


def _share_of(question: str) -> Metric | None:
    """'Did JnJ's net earnings as a percent of sales increase …': net income / revenue, when both sides name a line
    item (the longest run of words that does, nearest the 'as a percent of'); None otherwise."""
    for match in _SHARE_OF.finditer(question):
        before = re.findall(r"[\w&-]+", match.group("a"))
        after = re.findall(r"[\w&-]+", match.group("b"))
        # the longest run that names a line item, nearest the 'as a percent of': 'net income' of 'net income
        # attributable to 3M' (the parent's share, as a statement's net income line is)
        a = next((" ".join(before[i:j]) for j in range(len(before), 0, -1) for i in range(j)
                  if resolve_item(" ".join(before[i:j]))), None)
        b = next((" ".join(after[:i]) for i in range(len(after), 0, -1) if resolve_item(" ".join(after[:i]))), None)
        if a and b and resolve_item(a) != resolve_item(b):
            name = f"{a} as a percentage of {b}"
            return Metric(name=name, aliases=(name,), unit="%", formulas=(parse_formula(f"{a} / {b}"),),
                          origin="question")
    return None


def question_definition(question: str) -> Metric | None:
    """The metric the question defines for itself, parsed ('Operating cash flow ratio is defined as: cash
    from operations / total current liabilities', 'how many times did its Adjusted EBITDA cover its finance
    costs': Adjusted EBITDA / finance costs; 'net earnings as a percent of sales': net income / revenue); None
    when it gives none or the formula is not arithmetic."""
    if (share := _share_of(question)) is not None and not find_metrics(question):
        return share  # a catalogue metric named in those words ('capex as a percentage of revenue') is its own
    covered = _COVERED.search(question)
    if covered:
        try:
            formula = parse_formula(f"{covered.group('a').strip()} / {covered.group('b').strip()}")
        except ValueError:
            formula = None
        if formula is not None and len(formula.terms) == 2:
            name = f"{covered.group('a').strip()} cover of {covered.group('b').strip()}"
            return Metric(name=name, aliases=(name,), unit="x", formulas=(formula,), origin="question")
    match = _DEFINED.search(question) or _DEFINED_IN_BRACKETS.search(question)
    if not match:
        return None
    groups = match.groupdict()
    try:
        formula = parse_formula(_SOURCE_NOTE.sub(" ", groups.get("formula") or groups.get("formula2") or ""))
    except ValueError:
        return None
    if not re.search(r"[-+*/]", formula.template):
        return None  # 'X is defined as: the money we make' is prose, not a formula
    name = re.sub(r"^(?:the|a|an)\s+", "", (groups.get("name") or groups.get("name2") or "").strip(),
                  flags=re.IGNORECASE)
    if match.re is _DEFINED_IN_BRACKETS:  # 'What is JnJ's FY2022 cash conversion ratio': after the owner and year
        name = re.sub(r"(?i)^.*(?:['’]s|\bthe|\bits|\btheir|\bis|\bwas|\bwere)\s+", "", name)
    name = re.sub(r"(?i)^(?:FY\s?)?(?:19|20)\d{2}\s+", "", name)  # 'FY2022 cash conversion ratio'
    if not name:
        return None
    return Metric(name=name, aliases=(name,), unit=_defined_unit(name, question), formulas=(formula,),
                  origin="question")


def _defined_unit(name: str, question: str) -> Unit:
    """A defined metric's unit: a 'ratio' is times, a 'margin' or 'rate' a percentage, else the catalogue's unit
    for the name ('FCF' is money), else a percentage when the question asks for percents."""
    if re.search(r"(?i)\bratio\b|\bcover(?:age)?\b|\btimes\b|\bmultiple\b", name):
        return "x"
    if re.search(r"(?i)\b(?:margin|rate|percent(?:age)?|share|proportion)\b", name):
        return "%"
    known = find_metric(name)
    return known.unit if known else "%" if re.search(r"percent|%", question, re.IGNORECASE) else "x"


def defines_a_part(definition: Metric, named: Metric) -> bool:
    """Whether a question's definition is of a part of a metric it names: 'Define unadjusted EBITDA as …' in a
    question about 'EBITDA less capex' defines an input, not the metric asked."""
    core = _QUALIFIERS.sub("", definition.name.lower()).strip()
    if not core or any(alias.lower() == core for alias in named.aliases):
        return False  # the definition is of the metric named
    return any(alias.lower() != core and re.search(rf"(?<![\w&]){re.escape(core)}(?![\w&])",
                                                                    alias.lower()) for alias in named.aliases)


def definition_metric(name: str, definition: str) -> Metric:
    """A metric from a definition's formula text (what the `metric` tool receives); raises ValueError."""
    formula = parse_formula(_SOURCE_NOTE.sub(" ", definition))
    return Metric(name=name, aliases=(name,), unit=_defined_unit(name, ""), formulas=(formula,), origin="question")


def rounding_decimals(question: str) -> int | None:
    """The decimal places a question asks for: 'round to two decimal places' -> 2, 'nearest whole number' -> 0."""
    words = {"zero": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "a single": 1, "1": 1, "2": 2,
             "3": 3, "4": 4, "0": 0}
    q = question.lower()
    if m := re.search(r"\b(zero|no|one|two|three|four|a single|\d)\s+decimal(?:\s+places?|\s+points?|s)?\b", q):
        return words.get(m.group(1))
    if re.search(r"nearest (?:whole number|integer|whole percent|percent|day)", q):
        return 0
    if re.search(r"nearest tenth", q):
        return 1
    if re.search(r"nearest hundredth", q):
        return 2
    return None


_AVERAGE_OVER = re.compile(
    r"(?i)\b(?P<n>\d|two|three|four|five)[- ]years?\s+average\b"
    rf"|\baverage\b[^.?]{{0,60}}\b(?:over|across)\b[^.?]{{0,20}}{YEAR}\s*(?:-|–|to|and|through)\s*(?:FY\s?)?{YEAR}")
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}


def averaged_years(question: str, years: Sequence[int]) -> list[int]:
    """The fiscal years a question averages a metric over, oldest first: 'the FY2017 - FY2019 3 year average of
    capex as a % of revenue' → [2017, 2018, 2019]; 'the three-year average … in FY2024' → [2022, 2023, 2024].
    Empty when it asks for no average over years."""
    match = _AVERAGE_OVER.search(question)
    if not match or not years:
        return []
    n = match.group("n")
    count = (int(n) if n.isdigit() else _COUNTS[n.lower()]) if n else 0
    first, last = min(years), max(years)
    if count and first == last:
        first = last - count + 1
    return list(range(first, last + 1)) if 2 <= last - first + 1 <= 10 else []


def day_basis(question: str) -> int | None:
    """A day count the question states ('using a 360-day year', 'assume 360 days')."""
    m = re.search(r"\b(360|364|365|366)[- ]days?\b", question.lower())
    return int(m.group(1)) if m else None


# --- judgement questions --------------------------------------------------------------------------------------

CASH_BACKING = re.compile(
    r"(?i)\bbacked\s+(?:up\s+)?by\s+(?:free\s+)?cash\b|\bcash[- ]backed\b|\bquality\s+of\s+(?:its\s+|their\s+)?"
    r"(?:earnings|profits?)\b|\bearnings\s+quality\b|\b(?:free\s+)?cash\s+conversion\b|\b(?:convert|turn)\w*\s+(?:its\s+|their\s+)?"
    r"(?:net\s+income|earnings|profits?)\s+(?:in)?to\s+(?:free\s+)?cash\b|"
    # 'Did its cash generation keep pace with its earnings?'
    r"\b(?:free\s+)?cash\s+(?:generation|flows?)\s+(?:\w+\s+){0,2}(?:keep|kept|keeping|keeps)\s+(?:up|pace)\s+with\s+"
    r"(?:its\s+|their\s+)?(?:net\s+income|earnings|profits?)\b")
"""A judgement of how far earnings are backed by cash: decided by free cash flow against net income, whatever
part of it the question names ('Judging by free cash flow, …')."""
_CASH_MADE = (r"(?:free\s+cash\s+flows?|fcf|cash\s+(?:flows?|generation)|(?:the\s+)?cash\s+(?:that\s+)?(?:the\s+)?"
              r"(?:business|company|group|it)\s+(?:generat|produc|threw\s+off|made)\w*|cash\s+generated)")
_RETURNS = r"(?:dividends?|buy-?backs?|(?:share|stock)\s+repurchases?|repurchases?|shareholder\s+(?:returns|payouts?))"
CASH_RETURNS = re.compile(
    rf"(?i)\b{_CASH_MADE}\b.{{0,80}}?\b(?:cover|covered|covers|covering|fund|funded|funds|pay\s+for|paid\s+for|"
    rf"afford)\b.{{0,60}}?\b{_RETURNS}\b|"
    rf"\b(?:pay|paid|fund|funded|afford|cover|covered)\b(?:\s+for)?\s+.{{0,80}}?\b{_RETURNS}\b.{{0,40}}?\b"
    rf"(?:out\s+of|from|with)\s+(?:its\s+|the\s+)?{_CASH_MADE}")
"""Whether free cash flow paid for what was returned to shareholders ('Did J&J's free cash flow cover its dividends
and buybacks?', 'Could MGM pay for its share buybacks out of the cash the business generated?')."""


def returns_cover(question: str) -> Metric:
    """The free cash flow cover of the returns the question names: dividends and buybacks, buybacks alone, or
    dividends alone."""
    dividends = re.search(r"(?i)\bdividends?\b", question) is not None
    buybacks = re.search(r"(?i)\bbuy-?backs?\b|\brepurchas\w*|\bbuying\s+back\b", question) is not None
    if dividends and not buybacks:
        return FCF_COVER_DIVIDENDS
    return FCF_COVER_BUYBACKS if buybacks and not dividends else FCF_COVER_RETURNS


RISING_LEVERAGE = re.compile(r"(?i)\bmore\s+(?:leveraged|indebted)\b|\bleverage\s+(?:ris|grow|increas|climb|worsen|"
                             r"deteriorat)\w*")
"""'More leveraged than a year earlier': leverage's move, not its level."""
PROFITABILITY_MOVE = re.compile(r"(?i)\b(?:more|less)\s+profitable\b|\bprofitability\s+(?:improv|ris|grow|strengthen|"
                                r"declin|deteriorat|fall|weaken)\w*")
"""'Getting more (or less) profitable': the move of how profitable the company or a part is, not whether it is."""

JUDGEMENTS: tuple[tuple[str, re.Pattern[str], tuple[str, ...]], ...] = (
    ("cash returns", CASH_RETURNS, ("free cash flow cover of dividends and buybacks",)),
    ("cash backing", CASH_BACKING, ("free cash flow conversion",)),
    ("capital intensity", re.compile(r"\bcapital[- ]intens(?:ive|ity)\b", re.IGNORECASE),
     ("capex as a share of revenue", "fixed asset turnover")),
    ("liquidity", re.compile(r"\bliquid(?:ity)?\b", re.IGNORECASE), ("current ratio", "quick ratio")),
    # 'more leveraged than a year earlier': the ratio's move (app/judgements: rising leverage)
    ("rising leverage", RISING_LEVERAGE, ("debt-to-equity ratio",)),
    # 'its leverage', 'highly leveraged'; a 'leverage ratio' the question names (a bank's tier 1 leverage ratio)
    # is a measure of its own, not a judgement the debt-to-equity ratio decides
    ("leverage", re.compile(r"\b(?:leveraged|solvency|solvent|indebted)\b|\bleverage\b(?!\s+ratio)|\btoo\s+much\s+debt\b|"
                            r"\b(?:debt|debt\s+load|borrowings)\s+(?:is\s+|are\s+)?too\s+(?:high|heavy|large|big)\b",
                            re.IGNORECASE),
     ("debt-to-equity ratio", "interest coverage ratio")),
    # 'getting more (or less) profitable': the operating margin's move (app/judgements: improving margins)
    ("improving margins", PROFITABILITY_MOVE, ("operating margin",)),
    ("profitability", re.compile(r"\bprofitab(?:le|ility)\b", re.IGNORECASE),
     ("operating margin", "net margin")),
    ("growth", re.compile(r"\bhigh[- ]growth\b|\bfast[- ]growing\b|\bgrowing\s+(?:fast|quickly)", re.IGNORECASE),
     ("year-over-year revenue growth",)),
)


def judgement(question: str) -> tuple[str, list[Metric]] | None:
    """The judgement a question asks for and the metrics that decide it: the ones it names, else the
    catalogue's ('capital-intensive' -> capex as a share of revenue, fixed asset turnover)."""
    for topic, pattern, names in JUDGEMENTS:
        if pattern.search(question):
            if topic == "profitability" and PART_PROFITABLE.search(question):
                continue  # a part's profit is read from its segment note, never computed from the company's
            own = [_KNOWN[n.lower()] for n in names]
            if pattern is CASH_RETURNS:  # the returns the question names: both, or buybacks or dividends alone
                return topic, [returns_cover(question)]
            if pattern is CASH_BACKING:  # free cash flow or net income named is a part of the metric, not another
                return topic, own
            return topic, find_metrics(question) or own
    return None


def metrics_asked(question: str) -> tuple[list[Metric], str]:
    """The metrics a question asks for and the judgement they decide ('' if none): its own definition (unless it
    defines a part of a metric it names), else the metrics it names, else the ones its judgement rests on."""
    verdict = judgement(question)
    topic = verdict[0] if verdict else ""
    definition = question_definition(question)
    named = find_metrics(question)
    if definition is not None and not any(defines_a_part(definition, m) for m in named):
        return [definition], topic
    return (verdict[1] if verdict else named), topic  # a judgement's metrics are the ones it names, else its own


def change_from_year(target: Metric, question: str, year: int | None, trend: bool) -> int | None:
    """The earlier year of a change or trend the question asks about in a metric (`trend`, read by the caller
    from the question's kind: 'how has its effective tax rate changed between FY2021 and FY2022', 'did its gross
    margin improve in FY2023', 'does it have an improving gross margin profile'): the earliest year it names,
    else the year before `year`; None without a trend, or when the metric is itself a change (growth is
    computed between the years already)."""
    items = {t.item for formula in target.formulas for t in formula.terms}
    if year is None or MEASURE in items or not trend:
        return None
    named = sorted(set(years_named(question)))
    earlier = named[0] if len(named) >= 2 else year - 1
    return earlier if earlier < year else None


def needed_inputs(question: str, years: Sequence[int], trend: bool = False, measure: str = ""
                  ) -> list[tuple[str, int]]:
    """The (line item, fiscal year) pairs a question's answer is read or computed from: every input of each
    formula of the metrics it asks for, for the latest year it names (or each year it averages over; a
    year-over-year change reads the line item it names), and each line item it names, for each year it names
    (or, naming none, the one `measure`, the measure as read, is: app/facts/query.read_query). Empty when it names
    no year: which filing's figures would be a guess."""
    if not years:
        return []
    metrics, _ = metrics_asked(question)
    # a line item named, or the one the measure asked is read as ('buying back its own shares': share repurchases)
    named = items_named(question) or (items_named(measure) if measure else [])
    averaged = averaged_years(question, years)
    pairs: list[tuple[str, int]] = []
    for metric in metrics:
        bases = averaged or [max(years)]
        if not averaged and (earlier := change_from_year(metric, question, max(years), trend)) is not None:
            bases = [earlier, max(years)]  # a change in the metric: computed for both years
        for formula in metric.formulas:
            for base in bases:
                for key in formula.input_keys(base):
                    item, year = key_parts(key)
                    for each in (named[:1] if item == MEASURE else [item]):
                        if year is not None and each in LINE_ITEMS:
                            pairs.append((each, year))
    pairs.extend((item, year) for item in named for year in sorted(set(years)))
    return list(dict.fromkeys(pairs))


# --- choosing figures -----------------------------------------------------------------------------------------


@dataclass
class MetricInputs:
    """The figures chosen for one formula of a metric: `values`/`sources` by input key ('ppe_2018'),
    `missing` the keys no figure answered (empty when the formula can be computed)."""

    metric: Metric
    formula: Formula
    year: int | None
    values: dict[str, float] = field(default_factory=dict)
    sources: dict[str, Any] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    measure: str | None = None


def describe_key(key: str, measure: str | None = None) -> str:
    """'ppe_2018' -> 'PP&E FY2018 (e.g. Property, plant and equipment, net)'."""
    item, year = key_parts(key)
    line = LINE_ITEMS.get(item)
    name = line.name if line else (measure or item) if item == MEASURE else item.replace("_", " ")
    when = f" FY{year}" if year else ""
    return f"{name}{when} (e.g. {line.synonyms[0].capitalize()})" if line else f"{name}{when}"


def pick_figure(figures: Sequence[FigureLike], item: str, year: int | None, company: str | None = None,
                measure: str | None = None, part: bool | str = False, years: Sequence[int] = (), said: str = "",
                segment_row: SegmentRow | None = None) -> FigureLike | None:
    """The figure for one input: same company and year; a full year's figure before a quarter's or a half's,
    unless `part` says the question asks about part of a year (the part it names, 'Q2', first: a ratio of one
    quarter's earnings to the year's sales is no ratio at all); a statement's row before a figure read from a
    sentence; a label the item answers to (exact before prefix), then by the order of the item's names, then the
    latest balance date of the year, then the shortest; never a percentage for an amount. `years`: every year the
    question reads the item for, where a row that gives it for each of them comes before one that gives one year
    (a guidance table's 'FY2024 actual' may define it otherwise than the five-year record the other year is read
    from). `said`: the question, whose own name for the item wins among the labels the item answers to ('as a
    percentage of net sales' takes the 'Net sales' row, not 'Total revenue', which adds membership fees).
    `segment_row`: for a segment's metric, a figure's label as that segment's row, None for another's."""
    best: tuple[tuple[int, ...], FigureLike] | None = None
    others = [y for y in years if y != year]
    given = {(getattr(f, "chunk_id", None), f.label, f.fiscal_year) for f in figures} if others else set()
    for i, f in enumerate(figures):
        if company and (f.company or "").lower() != company.lower():
            continue
        if year is not None and f.fiscal_year != year:
            continue
        if f.unit.strip() == "%" and item != MEASURE:
            continue
        label = f.label
        if segment_row is not None:  # a segment's metric takes the segment's own rows, never the company's
            label = segment_row(f)
            if label is None:
                continue
        score = label_match(label, item, measure)
        from_prose = 0 if getattr(f, "period", None) else 1  # a statement's row before a sentence's figure
        # a quarter's net sales beside a year's gross profit gave Amcor a 74% gross margin
        other_span = _other_span(getattr(f, "period", None) or "", part)
        # a statement's row before a sentence's figure, whose subject the reader may have misread ('U.S. sales were
        # $13.4 billion' is no company's revenue), however exactly its word names the item
        # of one fiscal year's balances, the one at its end: a 10-Q's 31 December column falls in a June year
        # (Amcor's FY2023) beside the 10-K's 30 June one, which is the year's
        unmatched = sum((getattr(f, "chunk_id", None), f.label, y) not in given for y in others)
        named = int(not _label_said(f.label, said))
        rank = ((other_span, from_prose, unmatched, named, score, with_minority_interests(f.label) and not with_minority_interests(
            measure or ""), _name_rank(f.label, item, measure), -period_day(getattr(f, "period", None)),
            len(f.label), i) if score is not None else None)
        if rank is not None and (best is None or rank < best[0]):
            best = (rank, f)
    return best[1] if best else None


def _label_said(label: str, question: str) -> bool:
    """Whether the question says a row's label word for word ('net sales' of 'SG&A as a percentage of net sales'),
    a label of two words or more, so that 'Revenue' is not said by every question that names revenue."""
    text = _norm(label)
    return bool(question) and len(text.split()) >= 2 and re.search(
        rf"(?<![\w&]){re.escape(text)}(?![\w&])", _norm(question)) is not None


_OTHERS_SHARE = re.compile(r"(?i)\battributable\s+to\s+(?:the\s+)?(?:redeemable\s+(?:and\s+)?)?(?:non-?\s?controlling|minority)\b")
_MINORITY = re.compile(r"(?i)\bincluding\s+(?:the\s+)?(?:non-?controlling|minority)\s+interests?\b|"
                       r"\bincluding\s+earnings\s+attributable\s+to\s+(?:redeemable\s+and\s+)?non-?controlling\b")


def with_minority_interests(label: str) -> bool:
    """Whether a line says it includes what belongs to others ('Net income including noncontrolling interests'):
    the group's figure before the parent's share, which 'net income' conventionally means (the line EPS divides),
    so it comes after the parent's line unless asked for by name."""
    return bool(_MINORITY.search(label))


_PART_YEAR = re.compile(r"^(?:(?:3|6|9)M\b|[HQ][1-4]\b)")


def _other_span(period: str, part: bool | str) -> int:
    """How far a figure's period is from the span asked: 0 the same; 1 a part of a year when another part is
    named ('3M 2023-06-30' for 'Q2'); 2 a part that names another ('Q4 2022' for 'Q2'), or the whole year."""
    within = is_part_year(period)
    if not isinstance(part, str) or not part:
        return int(within != bool(part))
    if period.strip().startswith(part):
        return 0
    return 1 if within and not re.match(r"[HQ][1-4]\b", period.strip()) else 2


def is_part_year(period: str) -> bool:
    """A column or sentence period that spans part of a year: '3M 2023-06-30', '6M 2024-12-31', 'H1 2024',
    'Q2 2023' (a balance at a date, '2023-06-30', or a fiscal year is not)."""
    return bool(_PART_YEAR.match(period.strip()))


def _name_rank(label: str, item: str, measure: str | None) -> int:
    """Where the label's name stands in the item's list of names (the statement's own line first: 'Total current
    assets' before a note's 'Current assets'); past the end for a label only the item's pattern matches."""
    text, names = _norm(label), item_names(item, measure)
    return next((i for i, name in enumerate(names) if text == name or text.startswith(name + " ")), len(names))


def metric_inputs(metric: Metric, figures: Sequence[FigureLike], *, company: str | None = None,
                  year: int | None = None, measure: str | None = None, part: bool | str = False,
                  years: Sequence[int] = (), said: str = "", segment_row: SegmentRow | None = None) -> MetricInputs:
    """Figures for each input of the first formula all of whose inputs are found; if none is complete, the
    first formula with its missing inputs named. `years`: every year the metric is computed for, `said` the
    question (`pick_figure`)."""
    first: MetricInputs | None = None
    for formula in metric.formulas:
        chosen = _choose(metric, formula, figures, company, year, measure, part, years, said, segment_row)
        scales = {money_scale(f.unit) for f in chosen.sources.values()} - {None}
        if len(scales) > 1:  # thousands and millions in one formula: keep to the scale most inputs are in
            counts = [money_scale(f.unit) for f in chosen.sources.values()]
            scale = max(scales, key=counts.count)
            chosen = _choose(metric, formula, [f for f in figures if money_scale(f.unit) in (scale, None)],
                             company, year, measure, part, years, said, segment_row)
        if not chosen.missing:
            return chosen
        first = first or chosen
    assert first is not None
    return first


def _choose(metric: Metric, formula: Formula, figures: Sequence[FigureLike], company: str | None, year: int | None,
            measure: str | None, part: bool | str = False, years: Sequence[int] = (), said: str = "",
            segment_row: SegmentRow | None = None) -> MetricInputs:
    chosen = MetricInputs(metric, formula, year, measure=measure)
    if formula.needs_year(year):
        chosen.missing.append("fiscal year")
    for key in formula.input_keys(year) if not chosen.missing else []:
        item, when = key_parts(key)
        figure = pick_figure(figures, item, when, company, measure, part, years, said, segment_row)
        if figure is None:
            chosen.missing.append(key)
        else:
            chosen.values[key], chosen.sources[key] = _as_charge(item, figure), figure
    return chosen


def _as_charge(item: str, figure: FigureLike) -> float:
    """A charge's size (`LineItem.charge`) where its statement shows it as a deduction: 'Provision for income
    taxes (39,141)' under 'Income before income taxes 282,685' is a charge of 39,141 (a benefit is labelled so,
    and keeps its sign)."""
    line = LINE_ITEMS.get(item)
    if line is not None and line.charge and figure.value < 0 and not re.search(r"(?i)\bbenefit", figure.label) \
            and re.search(r"(?i)\b(?:provision|expense|charge)", figure.label):
        return -figure.value
    return figure.value
