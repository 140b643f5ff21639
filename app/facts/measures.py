"""The vocabulary of measures: the names one measure goes by ('Net sales', 'Turnover' and 'Revenues' are revenue:
SAME_MEASURE), the words that say a figure is the whole company's ('Total', 'Consolidated': TOTAL_WORDS), and the
readers built on them (`measure_words`, `is_company_total`, and `label_words`, the calculator's reading of a
label or question). Pure, no I/O.
"""

import re

# Words that say a figure is the whole company's ('Total revenues' is the revenue asked for), and the names one
# measure goes by ('Net sales' is revenue); the offline calculator matches labels with the same vocabulary.
TOTAL_WORDS = frozenset({"total", "consolidated", "group", "net", "reported"})
_MEASURE_WORDS = {"revenue", "income", "profit", "earnings", "operating", "gross", "ebitda", "ebit", "loss"}
SAME_MEASURE = {"revenues": "revenue", "sales": "revenue", "turnover": "revenue"}


def measure_words(text: str) -> set[str]:
    """Lower-case words, 'sales', 'turnover' and 'revenues' read as 'revenue'; 'total' and the like dropped."""
    words = {SAME_MEASURE.get(w, w) for w in re.findall(r"[a-z]+", text.lower())}
    return words - TOTAL_WORDS


def is_company_total(label: str) -> bool:
    """Whether a label names the whole company's measure ('Total revenue', 'Net sales', 'Consolidated net
    income', 'Revenue') rather than a segment's ('Road revenue') or a derived one ('Revenue growth')."""
    words = [SAME_MEASURE.get(w, w) for w in re.findall(r"[a-z]+", label.lower()) if w not in TOTAL_WORDS]
    return bool(words) and all(w in _MEASURE_WORDS for w in words)


_STOPWORDS = {"the", "and", "of", "in", "for", "per", "at", "to", "by", "a", "an", "on", "year", "end"}


def label_words(text: str) -> set[str]:
    """Content words, a measure by its one name (SAME_MEASURE: 'Net sales' is the revenue a question asks about)
    and a plural read as its singular ('Total revenues' shares 'revenue' with it): how the calculator matches a
    figure's label with a question."""
    return {singular(SAME_MEASURE.get(w, w)) for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOPWORDS}


def singular(word: str) -> str:
    """'revenues' → 'revenue', 'liabilities' → 'liability'; 'gross', 'bonus' and 'basis' stay."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
