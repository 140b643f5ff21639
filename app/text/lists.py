"""The items a report lists under a heading: what a 'what are its reportable segments / principal risks / events
after the reporting period / store formats?' question asks for.

`listed_items(text, key)` finds a heading among a page's lines that holds the question's key words ('Principal
Business Risks', 'Events after the reporting period', 'Store numbers by format') and returns what follows it as
items: enumerated lines ('1. Foreign exchange rates', '(b) Share buy-back: on 22 August 2024 the Company
announced …', '• …'), each with the rest of its sentence when the line wraps; else the rows of a table under it
(its row labels, totals left out). Pure: it reads text and returns text, never a figure of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.knowledge.analyzer import analyze

MAX_ITEMS = 12
"""Items read under one heading: a list longer than this is a table of contents, not an answer."""
HEADING_MAX_WORDS = 10
_ENUMERATED = re.compile(r"^\s*(?:\d{1,2}[.)]|\((?:[a-z]|[ivx]{1,4}|\d{1,2})\)|[a-z][.)]|[•▪●◦\-–])\s+(?P<item>\S.*)$")
_ROW_VALUES = re.compile(r"(?:\s+(?:[(\-–—]?[$£€¥]?\d[\d,.]*\)?%?[a-zA-Z]{0,3}|[–—-]))+\s*$")
_TOTAL = re.compile(r"(?i)^\s*(?:total|group|consolidated|of which|thereof)\b")
_STOP = re.compile(r"(?<![A-Z])\.\s+(?=[A-Z(])")


@dataclass(frozen=True)
class Listed:
    """A heading that names what was asked and the items under it."""

    heading: str
    items: tuple[str, ...]


def listed_items(text: str, key: Iterable[str | frozenset[str]]) -> Listed | None:
    """The items under the first heading of `text` that holds every key word (or all but one of four or more;
    a key may be a set of alternatives, any of which holds it), as enumerated lines or table rows; None when no
    heading holds them or nothing is listed under it. A sentence that ends in a colon and holds the key words
    heads the enumerated lines after it ('We are organized into seven reportable segments …, as follows:')."""
    wanted = {k if isinstance(k, frozenset) else frozenset([k]) for k in key}
    if not wanted:
        return None
    lines = [line.rstrip() for line in text.splitlines()]
    for i, line in enumerate(lines):
        lead_in = line.rstrip().endswith(":") and len(line) <= 300
        if not (_is_heading(line) or lead_in) or not _holds(line, wanted):
            continue
        if lead_in and not _is_heading(line):
            items = _enumerated(lines[i + 1:])
            if len(items) >= 2:
                return Listed(heading=line.strip().rstrip(":"), items=tuple(items[:MAX_ITEMS]))
            continue
        items = _enumerated(lines[i + 1:]) or _rows(lines[i + 1:])
        if len(items) >= 2:
            return Listed(heading=line.strip().rstrip(":").strip(), items=tuple(items[:MAX_ITEMS]))
    return None


def heads_list(line: str, key: Iterable[str | frozenset[str]]) -> bool:
    """Whether a line could head a list of what the key words ask for: a heading that holds them (as
    `listed_items` requires of the heading it reads under)."""
    return _is_heading(line) and _holds(line, {k if isinstance(k, frozenset) else frozenset([k]) for k in key})


def is_enumerated(line: str) -> bool:
    """Whether a line is an enumerated item ('1. …', '(b) …', '• …', '- …')."""
    return _ENUMERATED.match(line) is not None


def _is_heading(line: str) -> bool:
    """A short line that starts with a capital (after a note number: '25. Events after the reporting period'), ends
    with no sentence mark and is no table row."""
    bare = _NOTE_NUMBER.sub("", line.strip())
    words = bare.split()
    return (0 < len(words) <= HEADING_MAX_WORDS and bare[:1].isupper()
            and not bare.endswith((".", ",", ";")) and not _ROW_VALUES.search(bare))


_NOTE_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2})?[.)]?\s+")


def _holds(line: str, wanted: set[frozenset[str]]) -> bool:
    have = set(analyze(line))
    hits = {g for g in wanted
            if any(w in have or any(len(w) >= 5 and h[:5] == w[:5] for h in have) for w in g)}
    return len(hits) >= (len(wanted) - 1 if len(wanted) >= 4 else len(wanted))


def _enumerated(lines: list[str]) -> list[str]:
    """Enumerated items in order. An item that is a title ('1. Fluctuations in demand for capital goods', a short
    line with no full stop) is the title alone, whatever paragraph follows it; any other item is its first
    sentence, read on over the lines it wraps onto. Paragraphs between items are skipped; a heading that is not
    itself enumerated, after the first item, ends the list."""
    items: list[str] = []
    current: list[str] | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            items.append(_first_sentence(" ".join(current)))
        current = None

    for line in lines:
        match = _ENUMERATED.match(line)
        if match:
            close()
            item = match.group("item").strip()
            if _is_heading(item):  # a title: its paragraph below is not the item
                items.append(item)
            else:
                current = [item]
            continue
        if current is not None and line.strip() and not " ".join(current).rstrip().endswith((".", "!", "?")):
            current.append(line.strip())  # the item's sentence goes on
            continue
        close()
        if items and _is_heading(line) and len(line.split()) <= 6:
            break
    close()
    return [i for i in items if i]


def enumerated_items(text: str) -> list[str]:
    """The enumerated items of a text, in order (as under a heading): the rest of a list that began in the
    chunk before it."""
    return _enumerated([line.rstrip() for line in text.splitlines()])


def _first_sentence(text: str) -> str:
    text = re.sub(r"(\w)-\s+(\w)", r"\1\2", text.strip())  # 'rede- veloped'
    stop = _STOP.search(text)
    return text[:stop.start() + 1].strip() if stop else text.strip()


def _rows(lines: list[str]) -> list[str]:
    """The labels of the table rows right under a heading (a header line of periods or column names first);
    totals and rows whose count of values differs from most rows' are left out."""
    rows: list[tuple[str, int]] = []
    started = False
    for line in lines:
        values = _ROW_VALUES.search(line)
        if not values:
            if started:
                break
            continue
        label = line[:values.start()].strip()
        count = len(values.group(0).split())
        if not label or not label[:1].isalpha():
            continue
        started = True
        rows.append((label, count))
    if not rows:
        return []
    counts = [c for _, c in rows]
    usual = max(set(counts), key=counts.count)
    labels = [label for label, c in rows if c == usual and not _TOTAL.match(label)]
    # rows that are measures ('External revenue', 'EBIT', 'EBITDA', 'Capital expenditure' of a segment note whose
    # columns are the segments) list no members of anything
    if 2 * sum(_is_measure(label) for label in labels) >= len(labels):
        return []
    return labels


def _is_measure(label: str) -> bool:
    from app.metrics import LINE_ITEMS, find_metrics, label_match

    return bool(find_metrics(label)) or any(label_match(label, item) is not None for item in LINE_ITEMS)
