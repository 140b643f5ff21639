"""The currency of a piece of evidence's bare amounts: the one its page marks ('$ 34,229' on a statement's first
and total rows), else a US filing's dollars (a 10-K's '(In millions)' rows, an earnings release's). Every
statement reader (app/facts/query.row_facts, app/facts/readers.statement_figures) prefixes it to a scale-only
unit, so they agree: 'm' → '$m'."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any


def evidence_currency(doc: Any) -> str:
    """The currency a chunk's bare amounts are in: the one its page marks, else a US filing's dollars; '' if
    neither (every statement reader prefixes it to a scale-only unit: 'm' → '$m')."""
    return page_currency(doc.text) or _sec_filing_dollars(doc)


def page_currency(text: str) -> str:
    """The one currency a statement page writes its amounts in, when its rows mark it ('$ 34,229' on the first and
    total rows of a US statement, the rows between bare): a symbol written twice or more, and no other; '' else."""
    marks = Counter(re.findall(r"(?:[A-Z]{1,3})?[$£€¥](?=\s?\(?\d)", text))
    return next(iter(marks)) if len(marks) == 1 and sum(marks.values()) >= 2 else ""


def filing_name(doc: Any) -> Any:
    """What the doc's filing name says of it (app.text.identity.read_name: its form, fiscal year and quarter)."""
    from app.text.identity import read_name

    return read_name(getattr(doc, "title", "") or doc.source_id)


def _sec_filing_dollars(doc: Any) -> str:
    """'$' for a chunk of a 10-K, 10-Q or 8-K (filings to the SEC, in dollars), or of the earnings release such a
    filer furnishes with its 8-K, that marks no other currency: its statement's bare rows under '(Millions)' or
    '(In thousands)' are dollars; '' for any other filing."""
    form = filing_name(doc).form
    return "$" if form in ("10-K", "10-Q", "8-K", "earnings") and not re.search(
        r"[£€¥₹]|\b(?:EUR|GBP|JPY|CAD|AUD|CHF|RMB|yen|euros?|pounds|rupees?|francs?)\b", doc.text) else ""
