"""Follow-ups: a question that points back at an earlier turn instead of naming what it asks about.

- `REFERENT`: words that stand for something named before ('their', 'it', 'the company', 'last year',
  'the two', 'same' but not 'same as').
- `FOLLOW_UP`: a follow-up's opening ('and ...', 'what about ...', 'so ...').
- `PREVIOUS_SUBJECT`: 'both', 'each', 'the group', 'that year': the previous turn's companies or year.
- `is_follow_up(question)`: any of them.

One detector for the conversation (nodes/conversation.enrich carries the previous turn's companies and years
into a follow-up) and the offline router (app/routing/features: its `referent`, `unresolved_referent` and
`follow_up` features read these two patterns, so changing a word here changes what the fitted router sees).
"""

from __future__ import annotations

import re

REFERENT = re.compile(
    r"(?i)\b(it|its|it's|they|their|theirs|them|that|those|these|there|the two|the other one|the other|"
    r"the others|the smaller one|the bigger one|the company|that company|last year|the year before|"
    r"same(?! (?:thing )?as\b)|the segment|the figure|the number|the period|the deal|the report)\b")
FOLLOW_UP = re.compile(r"(?i)^\s*(and|ok|okay|so|same|what about|how about|now|also|then)\b")
PREVIOUS_SUBJECT = re.compile(r"(?i)\b(both|each|the group|that year|the same)\b")
"""Words that stand for the previous turn's companies or year ('both', 'each', 'that year'). The conversation
reads them as referents too; the router's features do not (it was fitted on REFERENT alone)."""


def is_follow_up(question: str) -> bool:
    """A referent ('their', 'it', 'same', 'both') or a follow-up opening ('and', 'what about')."""
    return bool(REFERENT.search(question) or PREVIOUS_SUBJECT.search(question) or FOLLOW_UP.search(question))
