"""The one fence helper: how untrusted text is put into a prompt so that it cannot leave its fence.

Every prompt that carries other people's text (documents, news, questions, conversation) puts it between an
opening and a closing marker: `<<<DATA ... DATA>>>` (the synthesis prompt), `<<<DOCUMENT ... DOCUMENT>>>`
(grading), `<<<QUESTION ... QUESTION>>>` (routing). The text itself may contain markers, written to close the
fence early and open a new one; so every marker (any label, any case, spaces allowed, and bare `<<<` / `>>>`)
is removed from it first, repeatedly until none is left: one pass can join the remains of two markers into a
new one ("<<>>><DOCUMENT" loses ">>>" and becomes "<<<DOCUMENT").

Used by prompts/routing.py, prompts/retrieval.py (grading and rewriting) and nodes/assemble.py (synthesis,
whose instructions in prompts/answer.py name the DATA markers).
"""

from __future__ import annotations

import re

LABELS = ("DATA", "DOCUMENT", "QUESTION")
"""The fence labels the prompts use; a marker with any of them is removed from untrusted text."""

DATA_OPEN, DATA_CLOSE = "<<<DATA", "DATA>>>"
DOCUMENT_OPEN, DOCUMENT_CLOSE = "<<<DOCUMENT", "DOCUMENT>>>"
QUESTION_OPEN, QUESTION_CLOSE = "<<<QUESTION", "QUESTION>>>"

_OPEN = r"<\s*<\s*<"  # '<<<', also written '< < <'
_CLOSE = r">\s*>\s*>"
_LABEL = "|".join(LABELS)
FENCE_MARKER = re.compile(rf"{_OPEN}\s*(?:{_LABEL})|(?:{_LABEL})\s*{_CLOSE}|{_OPEN}|{_CLOSE}", re.IGNORECASE)
"""Any opening or closing marker of any label, case aside, with spaces; or a bare '<<<' / '>>>'."""


def strip_fence_markers(text: str) -> str:
    """`text` with every fence marker removed, repeated until a pass removes nothing (a fixed point)."""
    while True:
        stripped = FENCE_MARKER.sub("", text)
        if stripped == text:
            return stripped
        text = stripped


def one_line(text: str) -> str:
    """Untrusted text that sits outside a fence (a title, a section name, a list item): no markers, one line."""
    return " ".join(strip_fence_markers(text).split())


def fence(text: str, label: str = "", *, kind: str = "DATA") -> str:
    """`text` between `<<<KIND label` and `KIND>>>`, each on its own line, markers stripped from the text and
    the label, so the result holds exactly one opening and one closing marker."""
    if kind not in LABELS:
        raise ValueError(f"unknown fence kind {kind!r}; use one of {', '.join(LABELS)}")
    body = strip_fence_markers(text).strip()
    tag = one_line(label)
    return f"<<<{kind}{(' ' + tag) if tag else ''}\n{body}\n{kind}>>>"
