"""The write policy of the memory layer: which user utterances become records, and which are refused, and why.

Only what the user states explicitly qualifies:
- a standing instruction on answers ("answer in A$ millions", "from now on, use fiscal years") is a `constraint`;
- a statement about themselves ("my fiscal year ends in June", "I work for Helio Renewables") is `profile`;
- a correction ("actually, the EU refund window is now 30 days", "no, Northwind's FY2024 revenue was £1,320m")
  is a `fact` that supersedes what the same key held before.
Questions, pleasantries and requests for an answer state nothing to keep; what a document said is not the user's
statement and never passes through here. Every utterance gets a `Decision`: a record to write, or the rule that
refused it, for the turn's trace.

Deterministic and offline. Not wired into the graph yet (issue 8): the write node after the answer will call
`decide` on the user's turn and `MemoryStore.write` with what it keeps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.memory.records import RecordType, normalise_key


@dataclass(frozen=True)
class Decision:
    """`type`, `key` and `value` when the utterance is to be kept (`correction` when it replaces a fact);
    otherwise `rule` says why it was refused."""

    text: str
    type: RecordType | None = None
    key: str = ""
    value: str = ""
    correction: bool = False
    rule: str = ""

    @property
    def kept(self) -> bool:
        return self.type is not None


_QUESTION = re.compile(r"(?i)\?\s*$|^\s*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|"
                       r"did|can|could|would|will|should|has|have|had)\b")
_PLEASANTRY = re.compile(r"(?i)^\s*(?:hi|hello|hey|thanks?|thank you|cheers|great|ok(?:ay)?|cool|good (?:morning|"
                         r"afternoon|evening)|bye|goodbye|nice)\b[\s!.,]*(?:\w+[\s!.,]*){0,3}$")
_CORRECTION = re.compile(r"(?i)^\s*(?:actually|correction|no|not quite|to correct (?:that|you)|in fact|"
                         r"update)\b[\s,:;-]+(?P<rest>.+)$")
_CONSTRAINT = re.compile(
    r"(?i)^\s*(?:(?:please\s+)?(?:always|from now on|going forward|in future|by default)[\s,]+)?(?:please\s+)?"
    r"(?P<verb>answer|reply|respond|report|give|show|state|express|use|quote|round)\b(?P<rest>.+)$")
_STANDING = re.compile(r"(?i)\b(?:always|from now on|going forward|in future|by default|every time|each time)\b|"
                       r"^\s*(?:please\s+)?(?:answer|reply|respond) in\b|\bin (?:[A-Z]{1,3}\$|£|€|\$)?\s*"
                       r"(?:thousands|millions|billions)\b|\bdecimal places?\b")
_PROFILE = re.compile(r"(?i)^\s*(?:my|our)\s+(?P<key>[\w' -]{2,60}?)\s+(?P<verb>is|are|ends?|starts?|runs?|was)\s+"
                      r"(?P<value>.+?)[.!]?\s*$")
_I_AM = re.compile(r"(?i)^\s*I(?P<verb>'m| am| work (?:for|at)| manage| cover| follow)\s+(?P<value>.+?)[.!]?\s*$")
_FACT = re.compile(r"(?i)^(?P<key>.{3,80}?)\s+(?:is|are|was|were)\s+(?:now\s+)?(?P<value>.+?)[.!]?\s*$")


def decide(utterance: str) -> Decision:
    """What to keep of one user utterance (see the module's rules)."""
    text = " ".join(utterance.split())
    if not text:
        return Decision(text, rule="empty")
    if _QUESTION.search(text):
        return Decision(text, rule="a question states nothing to remember")
    if _PLEASANTRY.match(text):
        return Decision(text, rule="a pleasantry states nothing to remember")
    if correction := _CORRECTION.match(text):
        fact = _FACT.match(correction.group("rest").strip())
        if fact:
            return Decision(text, "fact", normalise_key(fact.group("key")), fact.group("value").strip(), True)
        return Decision(text, rule="a correction without 'X is Y' names nothing to replace")
    constraint = _CONSTRAINT.match(text)
    if constraint and _STANDING.search(text):
        rest = constraint.group("rest").strip(" .!")
        verb = constraint.group("verb").lower()
        return Decision(text, "constraint", _constraint_key(verb, rest), f"{verb} {rest}")
    if profile := _PROFILE.match(text):
        return Decision(text, "profile", normalise_key(profile.group("key")),
                        f"{profile.group('verb')} {profile.group('value')}".strip())
    if about := _I_AM.match(text):
        verb = about.group("verb").strip().replace("'m", "am")
        return Decision(text, "profile", "who I am", f"{verb} {about.group('value').strip()}")
    return Decision(text, rule="not an explicit statement, instruction or correction by the user")


def _constraint_key(verb: str, rest: str) -> str:
    """Constraints on one aspect of answers share a key, so a new one supersedes the old: units and scale,
    rounding, currency, or else the instruction's own words."""
    words = rest.lower()
    if re.search(r"\b(?:thousands|millions|billions)\b|[A-Z]{0,3}\$|£|€|\bcurrency\b|\busd\b|\beur\b|\bgbp\b", rest,
                 re.IGNORECASE):
        return "answer units"
    if "decimal" in words or verb.lower() == "round":
        return "answer rounding"
    return normalise_key(f"{verb} {rest}")[:80]
