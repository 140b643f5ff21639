"""Units of money: the one vocabulary of scales and currencies, and the one reader of a declared unit.

- Scales: `SCALE` (every way a scale is written: 'thousand', 'thousands', 'k'; 'million', 'millions', 'm', 'mn';
  'billion', 'billions', 'bn' → 'k', 'm', 'bn'), `SCALE_NAME` ('m' → 'millions'), `SCALE_SUFFIX` ('millions' →
  'm'), `SCALE_FACTORS`.
- Currencies: `CURRENCIES` (symbol → the ways reports and people write it: '£', 'GBP', 'pounds', 'sterling'),
  `CURRENCY` (a regex fragment matching any of them), `currency_named(text)` (the symbol of the first one a text
  names), `unit_currency(unit)` ('A$m' → ('A$', 'm')).
- Declared units: `unit_declarations(text)` and `declared_unit(text)` → (currency, scale): what a statement, a
  table or a column declares for its bare figures: '(in millions, except per share data)', '($ in thousands)',
  '(€ millions)', '(A$ millions)', '(£m)', '(in millions of Canadian dollars)', and on a line of its own '€
  thousand', '¥ million', 'CHF m', '$m', 'Millions of yen'.
- Asked scales: `ASKED_SCALE` and `asked_scale(text)`: the scale (and currency) a question or a standing
  instruction asks answers in ('in millions', 'in USD millions', 'in pounds millions', 'in yen billions',
  'use billions', 'convert to thousands').

Used by the statement and figure readers (app/text/statements.py, app/text/figures.py, app/facts/), chunking's
statement headers, the memory write policy and the offline composer. Pure, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --- scales ---------------------------------------------------------------------------------------------------

SCALE = {"thousand": "k", "thousands": "k", "k": "k", "million": "m", "millions": "m", "m": "m", "mn": "m",
         "billion": "bn", "billions": "bn", "bn": "bn"}
"""Every way a scale is written → the calculator's suffix."""
SCALE_NAME = {"k": "thousands", "m": "millions", "bn": "billions"}
SCALE_SUFFIX = {name: suffix for suffix, name in SCALE_NAME.items()}
"""A declared scale word ('in millions') as the calculator's unit suffix."""
SCALE_FACTORS = {"k": 1e3, "m": 1e6, "bn": 1e9}
SCALE_WORD = r"(?:thousands?|millions?|billions?)"
"""A scale written as a word, as a regex fragment."""
SHORT_SCALE = r"(?:mn|bn|m|k)"
"""A scale written as a suffix ('£m', '$bn'), as a regex fragment."""

# --- currencies -----------------------------------------------------------------------------------------------

CURRENCIES: dict[str, tuple[str, ...]] = {
    "A$": ("A$", "AU$", "AUD", "Australian dollars", "Australian dollar"),
    "C$": ("C$", "CA$", "CAD", "Canadian dollars", "Canadian dollar"),
    "HK$": ("HK$", "HKD", "Hong Kong dollars", "Hong Kong dollar"),
    "NZ$": ("NZ$", "NZD", "New Zealand dollars", "New Zealand dollar"),
    "S$": ("S$", "SGD", "Singapore dollars", "Singapore dollar"),
    "$": ("US$", "U.S.$", "$", "USD", "US dollars", "U.S. dollars", "US dollar", "U.S. dollar", "dollars", "dollar"),
    "£": ("£", "GBP", "pounds sterling", "pounds", "pound", "sterling"),
    "€": ("€", "EUR", "euros", "euro"),
    "¥": ("¥", "JP¥", "JPY", "yen"),
    "CN¥": ("CN¥", "CNY", "RMB", "yuan", "renminbi"),
    "CHF": ("CHF", "Swiss francs", "Swiss franc", "francs"),
    "₹": ("₹", "INR", "rupees", "rupee"),
}
"""A currency's symbol → every way it is written (letters in any case)."""
_SYMBOL_OF = {" ".join(form.casefold().split()): symbol for symbol, forms in CURRENCIES.items() for form in forms}
_SYMBOLS = sorted({s for s in CURRENCIES} | {f for forms in CURRENCIES.values() for f in forms if not f[-1].isalpha()},
                  key=len, reverse=True)


_WORD_END = rf"(?:(?![A-Za-z])|(?={SHORT_SCALE}(?![A-Za-z])))"
"""After a form that ends in a letter: no letter, but for a scale suffix ('CHFm')."""


def _alternation(forms: list[str]) -> str:
    """The forms as one regex, factored by their common beginnings (a trie), so that a text is read once rather
    than once per form: 'A$', 'AU$', 'AUD' → 'A(?:\\$|U(?:\\$|D...))'. A space stands for any white space; a form
    that ends in a letter takes _WORD_END; longer forms are tried first. The word end is written once, after the
    trie, for whichever form matched ('(?<=[A-Za-z])'): a failed word end backtracks into the trie exactly as one
    per form would, and the regex compiles in half the time (it is compiled into several patterns on import)."""
    trie: dict = {}
    for form in forms:
        node = trie
        for part in [*re.split(r"(\s+)", form.casefold())]:
            for ch in ([r"\s+"] if part.isspace() else part):
                node = node.setdefault(ch, {})
        node[""] = ""

    def walk(node: dict) -> str:
        branches = [(ch if ch == r"\s+" else re.escape(ch)) + walk(child) for ch, child in node.items() if ch]
        if "" in node:
            branches.append("")
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return f"(?:{walk(trie)})(?:(?<=[A-Za-z]){_WORD_END}|(?<![A-Za-z]))"


_FORMS = sorted({f for forms in CURRENCIES.values() for f in forms}, key=len, reverse=True)
CURRENCY = rf"(?<![A-Za-z])(?:{_alternation(_FORMS)}|[A-Z]{{1,3}}\$)"
"""Any currency as written ('US$', '$', 'USD', 'US dollars', 'pounds', '¥', 'yen', 'CHF', 'NZ$'), as a regex
fragment to use case-insensitively; another one to three capitals before '$' ('R$') count too."""
SYMBOL = "(?:" + "|".join(re.escape(s) for s in _SYMBOLS) + ")"
"""A currency symbol written before a figure ('A$', '£', '¥', 'HK$'), as a regex fragment."""
_CURRENCY = re.compile(CURRENCY, re.IGNORECASE)


def currency_named(text: str) -> str | None:
    """The symbol of the first currency a text names: 'in millions of Canadian dollars' → 'C$', 'pounds' → '£',
    'EUR' → '€', 'R$' → 'R$'; None when it names none."""
    match = _CURRENCY.search(text)
    if match is None:
        return None
    written = " ".join(match.group(0).casefold().split())
    return _SYMBOL_OF.get(written, match.group(0).upper())


def unit_currency(unit: str) -> tuple[str, str]:
    """A unit as (currency symbol, the rest): '£m' → ('£', 'm'), 'A$bn' → ('A$', 'bn'), 'CHFm' → ('CHF', 'm'),
    '$' → ('$', ''), '%' → ('', '%'), 'm shares' → ('', 'm shares')."""
    for symbol in _SYMBOLS:
        if unit.startswith(symbol):
            return symbol, unit[len(symbol):]
    return "", unit


def money_scale(unit: str) -> str | None:
    """The scale of a money unit ('$k' → 'k', 'm' → 'm', '£bn' → 'bn', 'A$m' → 'm'); None for anything else ('%',
    'x', '', '$')."""
    rest = unit_currency(unit.strip())[1]
    return rest if rest in SCALE_FACTORS else None


# --- declared units -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitDeclaration:
    """A unit declared for bare figures: its currency ('' when it names none), its scale ('k', 'm', 'bn'), and
    where it stands in the text read (`text` is what declared it, an 'except ...' clause included)."""

    currency: str
    scale: str
    start: int
    end: int
    text: str


_BRACKETED = re.compile(r"\((?P<inner>[^()\n]{1,100})\)")
_PLURAL_SCALE = re.compile(r"(?i)(?<![\w-])(?P<scale>thousands|millions|billions)(?![\w-])")
_BESIDE_CURRENCY = (re.compile(rf"(?i){CURRENCY}\s*(?P<scale>{SCALE_WORD})(?![\w-])"),
                    re.compile(rf"(?i)(?<![\w-])(?P<scale>{SCALE_WORD})\s+of\s+{CURRENCY}"))
_SHORT_IN_BRACKETS = re.compile(rf"(?i)^\s*{CURRENCY}\s*(?P<scale>{SHORT_SCALE})\s*$")
_FIGURE_BEFORE = re.compile(rf"(?i)\d[\d,.]*\s*{SCALE_WORD}")
_IN_SCALE = re.compile(
    rf"(?i)\bin\s+(?:{CURRENCY}\s*)?(?P<scale>{SCALE_WORD})(?![\w-])(?:\s+of\s+{CURRENCY})?"
    r"(?:,?\s*except\b[^\d()\n]*)?")
_BEFORE_IN = re.compile(rf"(?i)(?:{CURRENCY}|\b(?:dollars|amounts))\s*$")
"""What may stand before 'in millions' and belongs to the declaration: '$ in thousands', 'Dollars in millions'."""
_CODES = sorted(f for forms in CURRENCIES.values() for f in forms if f.isalpha() and f.isupper())
_MAY_DECLARE = re.compile(rf"(?i)thousand|million|billion|\b(?:mn|bn|m|k)\b|(?:{'|'.join(_CODES)})(?:mn|bn|m|k)\b")
"""A cheap test first: a text with no scale written in any form ('millions', '$m', 'CHFm') declares nothing, as
most lines of a statement do not."""
_LINE = re.compile(
    rf"(?i)^[ \t]*(?:{CURRENCY}[ \t]*(?P<scale>{SCALE_WORD}|{SHORT_SCALE})|(?P<scale2>{SCALE_WORD})(?:[ \t]+of[ \t]+"
    rf"{CURRENCY})?)[ \t]*[.:]?[ \t]*$", re.MULTILINE)


def unit_declarations(text: str) -> list[UnitDeclaration]:
    """Every unit the text declares for its bare figures, in order: in brackets anywhere ('(in millions, except
    per share data)', '(€ millions)', '(£m)'), 'in millions' anywhere ('$ in thousands', 'in € thousand', 'in
    millions of Canadian dollars'), and on a line of its own ('€ thousand', 'CHF m', '$m', 'Millions of yen').
    A scale word after a number is a figure, not a declaration ('(2023: 1.2 million)')."""
    if not _MAY_DECLARE.search(text):
        return []
    found: list[UnitDeclaration] = []
    for match in _BRACKETED.finditer(text):
        inner = match.group("inner")
        scale = _bracketed_scale(inner)
        if scale:
            found.append(UnitDeclaration(currency_named(inner) or "", scale, match.start(), match.end(), inner))
    for match in _IN_SCALE.finditer(text):
        before = _BEFORE_IN.search(text, max(0, match.start() - 30), match.start())
        start = before.start() if before else match.start()
        found.append(UnitDeclaration(currency_named(text[start:match.end()]) or "", SCALE[match.group("scale").lower()],
                                     start, match.end(), text[start:match.end()]))
    for match in _LINE.finditer(text):
        scale = (match.group("scale") or match.group("scale2")).lower()
        found.append(UnitDeclaration(currency_named(match.group(0)) or "", SCALE[scale], match.start(),
                                     match.end(), match.group(0).strip()))
    kept: list[UnitDeclaration] = []
    for declaration in sorted(found, key=lambda d: (d.start, -d.end)):
        if not kept or declaration.start >= kept[-1].end:
            kept.append(declaration)
    return kept


def _bracketed_scale(inner: str) -> str | None:
    """The scale a bracket declares: a scale word in the plural anywhere ('in millions, except per share data',
    '(Dollars in millions)'), a scale word beside a currency ('¥ million', 'millions of yen'), or a currency and
    a short scale alone ('£m', 'A$ m'); None when it declares none, or when a number stands before the scale."""
    if _FIGURE_BEFORE.search(inner):
        return None
    for pattern in (*_BESIDE_CURRENCY, _PLURAL_SCALE, _SHORT_IN_BRACKETS):
        match = pattern.search(inner)
        if match:
            return SCALE[match.group("scale").lower()]
    return None


def declared_unit(text: str) -> tuple[str, str] | None:
    """(currency, scale) of the first unit the text declares ('(A$ millions)' → ('A$', 'm'); '(in millions)' →
    ('', 'm')); None when it declares none."""
    found = unit_declarations(text)
    return (found[0].currency, found[0].scale) if found else None


# --- asked scales ---------------------------------------------------------------------------------------------

ASKED_SCALE = re.compile(rf"(?i)\b(?:in|use|using|into|to)\s+(?:(?P<cur>{CURRENCY})\s*)?"
                         r"(?P<scale>thousands|millions|billions)\b")
"""'in millions', 'in USD millions', 'in A$ millions', 'in pounds millions', 'in yen billions', 'use billions',
'convert to thousands'."""


def asked_scale(text: str) -> tuple[str, str] | None:
    """(currency symbol, or '' when none is named; scale suffix) a text asks figures in; None when it asks none."""
    match = ASKED_SCALE.search(text)
    if match is None:
        return None
    return currency_named(match.group("cur") or "") or "", SCALE_SUFFIX[match.group("scale").lower()]
