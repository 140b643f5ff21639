"""The write policy of the memory layer: which user utterances become records, and which are refused, and why.

Only what the user states explicitly qualifies:
- a standing instruction on answers ("answer in A$ millions", "from now on, use fiscal years") is a `constraint`;
- a statement about themselves ("my fiscal year ends in June", "I work for Helio Renewables") is `profile`;
- a correction ("actually, the EU refund window is now 30 days", "no, Northwind's FY2024 revenue was £1,320m")
  is a `fact` that supersedes what the same key held before; a fact the user asks to keep ("for my notes:
  Northwind's FY2024 revenue was £1,320m", "remember that …") is a `fact` too.
Questions, pleasantries and requests for an answer state nothing to keep; what a document said is not the user's
statement and never passes through here. Every utterance gets a `Decision`: a record to write, or the rule that
refused it, for the turn's trace.

Personal statements come in families of wordings, read by rule, never by one sentence:
- a profile attribute with its key first or last ("My favourite colour is Purple", "White is my favourite
  colour", "The name of my favourite colour is Blue", "My favourite colour could be described as Purple"):
  key 'favourite colour' (American spellings folded: `canonical_key`), value 'Purple' (a copula drops out of the
  value; other verbs stay: "my fiscal year ends in June" keeps 'ends in June');
- a name ("My name is Melvin", "Refer to me as Gary", "Mitchel is what I am called", "My name has changed to
  Michael", "Start calling me by my name which is Conal", "Call me Ann", "I go by Ann"): key 'name', the
  name as written; every name given stays in the key's history (each supersedes the one before);
- a list update ("Please add 3 Toothpaste to my shopping list", "I want to buy 3 Soap", "I require another 2
  Toothpaste, please put it on the list", "Please remove 1 Toothpaste from my shopping list", "Remove 1
  Steak", "I no longer need milk", "Change the soap to 2", "Clear my shopping list"): `task_state` under
  the list's key ('shopping list' unless another list is named), with `op` (add, remove, set, clear) and
  `items` ((item, quantity) pairs; None: unspecified, i.e. 1 to add and all to remove). The record's value is
  the list itself, a JSON object item -> quantity: the caller computes it with `apply_list_update(current,
  decision)` (or `remember` does the whole write). A bare "Add/Remove N X" with no list named counts only
  with an explicit quantity and an item that is no answer-format noun ("remove 2 decimal places" is not one).
A correction lead-in ("actually", "no", ...) before any of these keeps it and marks it a correction. Polite
requests ("Could you add 2 eggs to my list?") are read as the request they wrap.

Deterministic and offline. `remember(store, user, thread, decision, source)` writes a kept decision the way the
write node does: a list update under the thread, anything else user-wide.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from app.memory.records import RecordType, normalise_key
from app.text.units import CURRENCY

if TYPE_CHECKING:
    from app.memory.records import MemoryRecord, MemoryStore

ListOp = Literal["add", "remove", "set", "clear"]


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
    op: ListOp | None = None
    """A list update's operation (then `type` is 'task_state' and `key` the list's key), else None."""
    items: tuple[tuple[str, int | None], ...] = ()
    """A list update's (item, quantity) pairs as the user wrote the items; quantity None when none was given."""

    @property
    def kept(self) -> bool:
        return self.type is not None

    @property
    def item(self) -> str:
        """The first item of a list update ('' for other decisions)."""
        return self.items[0][0] if self.items else ""

    @property
    def quantity(self) -> int | None:
        """The first item's quantity (None when unspecified or not a list update)."""
        return self.items[0][1] if self.items else None


_QUESTION = re.compile(r"(?i)\?\s*$|^\s*(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|"
                       r"did|can|could|would|will|should|has|have|had)\b")
_PLEASANTRY = re.compile(r"(?i)^\s*(?:hi|hello|hey|thanks?|thank you|cheers|great|ok(?:ay)?|cool|good (?:morning|"
                         r"afternoon|evening)|bye|goodbye|nice)\b[\s!.,]*(?:\w+[\s!.,]*){0,3}$")
_CORRECTION = re.compile(r"(?i)^\s*(?:actually|correction|no|not quite|to correct (?:that|you)|in fact|"
                         r"update)\b[\s,:;-]+(?P<rest>.+)$")
# "I want you to", "I'd like you to", "please": lead-ins before an instruction's verb.
_LEAD_IN_WANT = r"(?:I(?:'d| would)? (?:like|want|need|prefer)(?: you)?(?: to)?\s+|please\s+)?"
_STANDING_WORDS = (r"always|from now on|from here on(?: in)?|going forward|in future|henceforth|by default|every time|"
                   r"each time|throughout|for the rest of (?:this|our|the) (?:conversation|chat|session)|"
                   r"(?:in|for) (?:all|every|each|future|your) (?:answers?|replies|reply|responses?)|"
                   r"for (?:all|every|each) (?:figures?|numbers?|amounts?|values?)")
_CONSTRAINT = re.compile(
    rf"(?i)^\s*(?:(?:please\s+)?(?:{_STANDING_WORDS})[\s,]+)?{_LEAD_IN_WANT}"
    r"(?P<verb>answer|reply|respond|report|give|show|state|express|use|quote|round|cite|keep|include|present|"
    r"write|format|display|convert|limit)\b(?P<rest>.+)$")
# "All figures in USD millions, please.", "I'd like numbers rounded to one decimal.": the figures named first.
_FIGURES_FIRST = re.compile(
    rf"(?i)^\s*{_LEAD_IN_WANT}(?P<rest>(?:all\s+|every\s+|each\s+|your\s+|the\s+)?(?:figures?|numbers?|amounts?|"
    r"values?|answers?)\s+(?:should\s+be\s+|must\s+be\s+|to\s+be\s+|are\s+to\s+be\s+)?"
    r"(?:in|rounded|given|shown|stated|expressed|reported|quoted|to)\b.+?)[\s,]*(?:please)?[\s.!]*$")
_STANDING = re.compile(rf"(?i)\b(?:{_STANDING_WORDS})\b|"
                       r"^\s*(?:please\s+)?(?:answer|reply|respond) in\b|"
                       rf"\bin (?:{CURRENCY}\s*)?(?:thousands|millions|billions)\b|"
                       rf"\bin {CURRENCY}|\bdecimals?\b|\bsignificant (?:figures|digits)\b|"
                       r"\bnearest (?:whole|thousand|million|billion|dollar|cent|percent)|"
                       r"^\s*(?:please\s+)?(?:keep|make|limit)\s+(?:your\s+|all\s+|the\s+)?(?:answers|replies|"
                       r"responses)\b")
_PROFILE = re.compile(r"(?i)^\s*(?:my|our)\s+(?P<key>[\w' -]{2,60}?)\s+(?P<verb>is|are|ends?|starts?|runs?|was)\s+"
                      r"(?P<value>.+?)[.!]?\s*$")
_I_AM = re.compile(r"(?i)^\s*I(?P<verb>'m| am| work (?:for|at)| manage| cover| follow)\s+(?P<value>.+?)[.!]?\s*$")
_FACT = re.compile(r"(?i)^(?P<key>.{3,80}?)\s+(?:is|are|was|were)\s+(?:now\s+)?(?P<value>.+?)[.!]?\s*$")
_NOTE = re.compile(r"(?i)^\s*(?:please\s+)?(?:remember|note|take note|make a note|keep in mind|for (?:my|the|your) "
                   r"(?:notes|records?)|note for (?:later|the record))(?:\s+that)?[\s,:;-]+(?P<rest>.+)$")
"""An explicit request to keep a fact: 'For my notes: Northwind's FY2024 revenue was £1,320m.', 'Remember that …'."""


def _fact_value(value: str) -> str:
    """The value without an aside after it: '£437.2m; I transposed the digits' → '£437.2m'."""
    return re.split(r"\s*(?:;|\s[—–-]\s|,\s+(?:not|which|as|because|since)\b)", value, maxsplit=1)[0].strip()


def decide(utterance: str) -> Decision:
    """What to keep of one user utterance (see the module's rules)."""
    text = " ".join(utterance.split())
    if not text:
        return Decision(text, rule="empty")
    if _QUESTION.search(text):
        request = _REQUEST.match(text)
        if request and (personal := _personal(text, request.group("rest"))) is not None:
            return personal
        return Decision(text, rule="a question states nothing to remember")
    if correction := _CORRECTION.match(text):
        rest = correction.group("rest").strip()
        if (personal := _personal(text, rest, correction=True)) is not None:
            return personal
        fact = _FACT.match(rest)
        if fact:
            return Decision(text, "fact", normalise_key(fact.group("key")), _fact_value(fact.group("value")), True)
        return Decision(text, rule="a correction without 'X is Y' names nothing to replace")
    if (personal := _personal(text, text)) is not None:
        return personal
    if (noted := _NOTE.match(text)) and (fact := _FACT.match(noted.group("rest").strip())):
        return Decision(text, "fact", normalise_key(fact.group("key")), _fact_value(fact.group("value")))
    if _PLEASANTRY.match(text):
        return Decision(text, rule="a pleasantry states nothing to remember")
    constraint = _CONSTRAINT.match(text)
    if constraint and _STANDING.search(text) and not _one_off_request(constraint):
        rest = constraint.group("rest").strip(" .!")
        verb = constraint.group("verb").lower()
        return Decision(text, "constraint", _constraint_key(verb, rest), f"{verb} {rest}")
    if (shaped := _FIGURES_FIRST.match(text)) and _STANDING.search(text):
        rest = shaped.group("rest").strip(" .!,")
        return Decision(text, "constraint", _constraint_key("give", rest), rest)
    if profile := _PROFILE.match(text):
        return Decision(text, "profile", canonical_key(profile.group("key")),
                        f"{profile.group('verb')} {profile.group('value')}".strip())
    if about := _I_AM.match(text):
        verb = about.group("verb").strip().replace("'m", "am")
        return Decision(text, "profile", "who I am", f"{verb} {about.group('value').strip()}")
    return Decision(text, rule="not an explicit statement, instruction or correction by the user")


_EXPLICITLY_STANDING = re.compile(rf"(?i)\b(?:{_STANDING_WORDS})\b")
_HOW_ONLY = re.compile(r"(?i)^\s*(?:me\s+)?(?:(?:all\s+)?(?:figures|numbers|amounts|values|answers|results|everything)"
                       r"\s+)?(?:in|to|with|as|using)\b")


def decide_turn(sentences: list[str]) -> list[Decision]:
    """`decide` on each sentence of one turn, in the turn's context: in a turn that asks something, an
    instruction on how to answer ("Answer in USD millions.", "Round to two decimal places.") is about that
    question, so it is kept only when it says it stands ("from now on", "always"). A turn of instructions alone
    ("Answer in millions.") sets them for the answers to come."""
    decisions = [decide(s) for s in sentences]
    if all(d.kept for d in decisions):
        return decisions
    return [Decision(d.text, rule="an instruction inside a question applies to that question only")
            if d.type == "constraint" and not _EXPLICITLY_STANDING.search(d.text) else d for d in decisions]


def _one_off_request(constraint: re.Match) -> bool:
    """'Show Ternline's revenue in millions' asks for one answer; 'answer in millions', 'show figures in millions'
    and 'always show revenue in millions' set how answers are given. A request verb followed by what to show,
    without 'always' or 'from now on', is a question, not an instruction to keep."""
    if _EXPLICITLY_STANDING.search(constraint.string):
        return False
    if constraint.group("verb").lower() in ("answer", "reply", "respond", "round"):
        return False
    return not _HOW_ONLY.match(constraint.group("rest"))


def _constraint_key(verb: str, rest: str) -> str:
    """Constraints on one aspect of answers share a key, so a new one supersedes the old: units and scale,
    rounding, currency, or else the instruction's own words."""
    words = rest.lower()
    if re.search(rf"\b(?:thousands|millions|billions)\b|{CURRENCY}|\$|\bcurrency\b", rest, re.IGNORECASE):
        return "answer units"
    if re.search(r"\bdecimals?\b|\bround|\bsignificant (?:figures|digits)\b|\bnearest\b", words) or verb == "round":
        return "answer rounding"
    return normalise_key(f"{verb} {rest}")[:80]


# --- personal statements: profile attributes, names, list updates ---------------------------------------------

_SPELLING = {"favorite": "favourite", "favorites": "favourites", "fave": "favourite", "fav": "favourite",
             "color": "colour", "colors": "colours", "colored": "coloured"}
_KEY_QUALIFIERS = {"current", "new", "latest", "present", "actual", "real", "very", "own"}


_SPELLING_WORD = re.compile(rf"(?i)\b(?:{'|'.join(_SPELLING)})\b")


def fold_spelling(text: str) -> str:
    """American and short spellings of key words folded to one: 'favorite color' -> 'favourite colour'."""
    return _SPELLING_WORD.sub(lambda m: _SPELLING[m.group(0).lower()], text)


def canonical_key(key: str) -> str:
    """`normalise_key`, with American spellings folded ('favorite color' is 'favourite colour') and a leading
    'current'/'new'/'latest' dropped ('my new favourite colour' is 'favourite colour')."""
    words = [_SPELLING.get(w, w) for w in normalise_key(key).split()]
    while len(words) > 1 and words[0] in _KEY_QUALIFIERS:
        words = words[1:]
    return normalise_key(" ".join(words))


_REQUEST = re.compile(r"(?i)^\s*(?:can|could|would|will)\s+you\s+(?:please\s+|kindly\s+)?(?P<rest>.+?)[\s?.!]*$")
_LEAD_IN = re.compile(
    r"(?i)^(?:(?:please\s+|kindly\s+)?(?:remember|note|take note|keep in mind|bear in mind|be aware|know|make a note)"
    r"(?:\s+that)?[\s,:]+|(?:oh|ok(?:ay)?|alright|right|well|hey|hi|hello|so)[,:;!.-]+\s*|"
    r"(?:just\s+)?(?:so you know|for your information|fyi|for the record|by the way|btw|also|and|please note|note|"
    r"i(?:'d| would) say|i think|i guess|i believe|i reckon|honestly|to be honest|these days|nowadays|"
    r"if you ask me|if you must know|as of now|as of today|from today|starting today|for now)[\s,:;!.-]+)")
_FILLER_TAIL = re.compile(
    r"(?i)(?:[\s,]+(?:please|thanks?|thank you|from now on|going forward|from today|now|for now|instead|"
    r"these days|at the moment|again|too|as well|anymore|any more|though))+[\s.!]*$")
_STOP_VALUES = {"this", "that", "it", "which", "what", "here", "there", "who", "whatever", "something",
                "anything", "nothing", "everything", "back", "later", "when", "if", "tomorrow", "tonight", "at",
                "on", "in", "a", "an", "the", "about", "after", "before", "now", "soon", "again", "up", "out",
                "please", "by", "to", "me", "you", "him", "her", "them", "us", "they", "he", "she", "we", "i",
                "whenever", "anytime", "sometime", "crazy", "so", "not", "no", "yes"}

_NAME_TOKEN = r"[^\W\d_][\w'’.-]*"
_NAME = rf"(?P<name>{_NAME_TOKEN}(?:\s+{_NAME_TOKEN}){{0,3}}?)"
_END = r"(?:[\s,]+(?:please|thanks?|thank you|from now on|going forward|from today|now|for now|instead|again))*[\s.!]*"
_NAME_QUALIFIER = r"(?:(?:first|full|given|preferred|new|real|actual|current|proper) )*"
_NAME_PATTERNS = [re.compile(rf"(?i){pattern}{_END}") for pattern in (
    rf"(?:my|our) {_NAME_QUALIFIER}name(?: is now| now is| is| 's|'s| has (?:now )?(?:been )?changed to| changed to|"
    rf" is changing to| will be| shall be| should be| has become| became| has been updated to)(?: now)?:? {_NAME}",
    rf"(?:(?:from now on|now|just|going forward|henceforth|instead|please)[\s,]+)*(?:(?:you )?(?:can|could|may|should|"
    rf"must|will|shall) |i(?:'d| would) (?:like|prefer|love) (?:it if )?you to |i want you to |"
    rf"(?:start|begin|go ahead and start|please start) |)(?:call(?:ing)?|refer(?:ring)? to|address(?:ing)?) me "
    rf"(?:as |by )?(?:(?:my|the) (?:new )?name,? (?:which is |that is |of )?)?{_NAME}",
    rf"i(?:'m| am) (?:now )?(?:called|named|known as|going by|referred to as|addressed as) {_NAME}",
    rf"i (?:now )?go by (?:the name (?:of )?)?{_NAME}",
    rf"i(?:'d| would) (?:like|prefer|love|want) to be (?:called|known as|referred to as|addressed as|named) {_NAME}",
    rf"i(?:'ve| have)? (?:just |recently )?changed my name to {_NAME}",
    rf"(?:people|everyone|everybody|they|friends|my friends|most people) (?:call|calls) me {_NAME}",
    rf"{_NAME},? (?:is|'s) (?:what (?:i am|i'm|people|everyone|everybody|you should|you can|they|my friends) "
    rf"(?:called|call me|calls me|call)|(?:my|our) {_NAME_QUALIFIER}name(?: now)?|the name i go by|"
    rf"how i(?:'d| would) like to be (?:called|addressed))",
)]

_KEY = r"(?P<key>[^\W\d_][\w'’ -]{1,48}?)"
_COPULA = ("is now", "is currently", "is still", "has now changed to", "has changed to", "has switched to",
           "has become", "changed to", "is changing to", "could be described as", "can be described as",
           "would be described as", "might be described as", "is best described as", "would be", "will be",
           "is", "are")
_KEPT_VERBS = ("ends", "end", "starts", "start", "runs", "run", "was", "were")
_KEY_FIRST = re.compile(
    rf"(?i)^(?P<named>(?:the )?name of )?(?:my|our) {_KEY}\s+(?P<verb>{'|'.join(re.escape(v) for v in _COPULA)}|"
    rf"{'|'.join(_KEPT_VERBS)})\b\s*(?P<value>.+?)[\s.!]*$")
_KEY_LAST = re.compile(
    r"(?i)^(?P<value>[^,;:]{1,40}?),?\s+(?:is|are|'s|would be|will be|has (?:now )?become|became|has been)\s+"
    r"(?:now |still |definitely |currently |also |actually |officially )?(?:my|our)\s+(?:new\s+|current\s+)?"
    r"(?P<key>[^\W\d_][\w'’ -]{1,40}?)[\s.!]*$")
_KEY_COLON = re.compile(
    r"(?i)^(?:(?:i|we)\s+(?:now\s+)?(?:have|'ve got|have got)\s+an?\s+(?:new\s+)?|(?:my|our)\s+(?:new\s+|current\s+)?)"
    r"(?P<key>[^\W\d_][\w'’ -]{1,40}?)\s*(?:[:=–—-]|,\s+(?:it\s+is|it's|which\s+is))\s*(?P<value>[^:;]{1,60}?)"
    r"[\s.!]*$")
"""'I have a new favourite colour: Green', 'My favourite colour: Green'."""
_LIKE_BEST = r"(?:that\s+|which\s+)?(?:i|we)\s+(?:like|love|prefer|enjoy)\s+(?:the\s+)?(?:best|most)(?:\s+of\s+all)?"
_BEST_FIRST = re.compile(rf"(?i)^(?:the\s+)?(?P<key>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?)\s+{_LIKE_BEST}\s+"
                         rf"(?:is|are|would be|has to be)\s+(?P<value>.+?)[\s.!]*$")
_BEST_LAST = re.compile(rf"(?i)^(?P<value>[^,;:]{{1,40}}?),?\s+(?:is|are)\s+the\s+(?P<key>[^\W\d_][\w'’-]*"
                        rf"(?:\s+[^\W\d_][\w'’-]*)?)\s+{_LIKE_BEST}[\s.!]*$")
"""'The colour I like best is Orange', 'Orange is the colour I love the most': the favourite colour."""

# List updates -------------------------------------------------------------------------------------------------

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a pair of": 2,
            "a dozen": 12, "half a dozen": 6, "a single": 1, "single": 1, "zero": 0, "no": 0}
_QTY = r"(?:\d{1,3}|a couple of|a pair of|half a dozen|a dozen|a single|one|two|three|four|five|six|seven|eight|" \
       r"nine|ten|eleven|twelve|zero|an?)"
_ITEM_PHRASE = re.compile(
    rf"(?i)^(?:(?P<more>another|an additional|an extra|additional|extra|more|further)\s+)?"
    rf"(?:(?P<all>all(?: of)?(?: the| my)?|the|my|some|any|a few|several)\s+)?(?:(?P<qty>{_QTY})\s+)?"
    rf"(?:of\s+(?:the|my|those|these)\s+)?"
    rf"(?:(?:more|extra|additional|further)\s+)?(?:(?:packs?|packets?|bottles?|cans?|tins?|boxes|box|bags?|"
    rf"loaves|loaf|cartons?|jars?|tubes?|rolls?|bars?|bunch(?:es)?|pieces?|units?|lots|items?) of\s+)?"
    rf"(?P<item>[^\W\d_].*?)$")
_LIST = (r"(?:my|the|our|this|that|your)\s+(?P<list>(?:[\w-]+\s+){0,2}?)(?P<noun>list|basket|cart|trolley)")
_ITEMS = r"(?P<items>[^;:!?]+?)"
_PLEASE = r"(?:[\s,]+(?:please|thanks?|thank you))?"
_THEM = r"(?:it|them|that|those|this|these|the item|the items)"
_I = r"(?:i|we)(?:\s+(?:also|still|now|really|just|then|additionally))?"
_WANT = r"(?:\s+(?:want|need|require|would (?:also |really )?(?:like|love)|wish|will need)|'d (?:also )?like|'ll need)"
_INTEND = (r"(?:\s+(?:want|need|would like|wish|have|plan|am going|are going|must|should|will need|intend)|"
           r"'d like|'m going|'re going|'ll need)")
_COUNT = rf"(?P<qty>\d{{1,3}}|{_QTY})"
_LIST_PATTERNS: list[tuple[str, str, re.Pattern[str]]] = [(op, need, re.compile(rf"(?i)^{pattern}{_PLEASE}[\s.!]*$"))
                                                          for op, need, pattern in (
    # need: 'list' (a list must be named), 'bare' (a list named, or every item has a written quantity),
    # 'none' (the verb itself is shopping: buy, purchase, no longer need)
    ("clear", "list", rf"(?:please\s+)?(?:clear|empty|reset|wipe|clear out)\s+{_LIST}"),
    ("set", "bare", rf"(?:please\s+)?(?:change|set|update|make|adjust|correct)\s+(?:the\s+)?(?:quantity|number|"
                    rf"amount|count)\s+of\s+{_ITEMS}\s+(?:(?:on|in)\s+{_LIST}\s+)?to\s+{_COUNT}"),
    ("set", "list", rf"(?:please\s+)?(?:change|set|update|adjust)\s+{_ITEMS}\s+(?:(?:on|in)\s+{_LIST}\s+)?to\s+"
                    rf"{_COUNT}"),
    ("set", "bare", rf"{_I}\s+(?:only|now only|actually only|now|actually)\s+(?:need|want|require)\s+{_ITEMS}"
                    rf"(?:\s+(?:on|in)\s+{_LIST})?"),
    ("add", "bare", rf"(?:please\s+)?(?:increase|raise|up)\s+(?:the\s+)?(?:(?:quantity|number|amount|count)\s+of\s+)?"
                    rf"{_ITEMS}\s+(?:(?:on|in)\s+{_LIST}\s+)?by\s+{_COUNT}"),
    ("remove", "bare", rf"(?:please\s+)?(?:reduce|decrease|lower|cut|drop)\s+(?:the\s+)?(?:(?:quantity|number|amount|"
                       rf"count)\s+of\s+)?{_ITEMS}\s+(?:(?:on|in)\s+{_LIST}\s+)?by\s+{_COUNT}"),
    ("remove", "bare", rf"{_I}{_WANT}\s+{_COUNT}\s+(?:fewer|less)\s+{_ITEMS}(?:\s+(?:on|in)\s+{_LIST})?"),
    ("add", "bare", rf"(?:please\s+)?(?:add|put|include|stick|pop|throw|place|jot down|write down|note down|put down)\s+"
                    rf"{_ITEMS}(?:\s+(?:to|on|onto|in|into)\s+{_LIST})?"),
    ("add", "none", rf"{_I}{_INTEND}\s+to\s+(?:buy|purchase|get|pick up|grab|order|shop for)\s+{_ITEMS}"
                    rf"(?:\s+(?:from the (?:shop|store|supermarket)|on\s+{_LIST}))?"),
    ("add", "none", rf"(?:please\s+)?(?:buy|purchase|pick up|shop for)\s+(?:me\s+)?{_ITEMS}"),
    ("add", "list", rf"(?:please\s+)?(?:get|grab|order)\s+(?:me\s+)?{_ITEMS}\s+(?:on|for|from)\s+{_LIST}"),
    ("add", "list", rf"{_I}{_WANT}\s+{_ITEMS}(?:,?\s+(?:so\s+|and\s+)?(?:please\s+|can you\s+|could you\s+)?"
                    rf"(?:put|add|place|include|note|write)\s+{_THEM}\s+(?:on|to|onto|in|into)|\s+(?:on|for|in|"
                    rf"added to))\s+{_LIST}"),
    ("add", "list", rf"{_LIST}\s+(?:needs|should (?:have|include)|must (?:have|include))\s+{_ITEMS}"),
    ("remove", "bare", rf"(?:please\s+)?(?:remove|delete|drop|subtract|cross off|strike off|take off|knock off|"
                       rf"get rid of|take away)\s+{_ITEMS}(?:\s+(?:from|off|out of)(?:\s+of)?\s+{_LIST})?"),
    ("remove", "list", rf"(?:please\s+)?(?:take|cross|strike|scratch|knock)\s+{_ITEMS}\s+(?:off|from|out of)"
                       rf"(?:\s+of)?\s+{_LIST}"),
    ("remove", "none", rf"{_I}\s+(?:no longer|don't|do not|won't|will not|no more)\s+(?:need|want|require)"
                       rf"(?:\s+to\s+(?:buy|get|purchase))?\s+{_ITEMS}(?:\s+(?:anymore|any more|after all))?"
                       rf"(?:,?\s+(?:so\s+)?(?:please\s+)?(?:remove|take|delete|cross)\s+{_THEM}\s*(?:(?:off|from)"
                       rf"(?:\s+of)?\s+{_LIST}|off))?"),
    ("remove", "list", rf"{_I}\s+(?:already\s+)?(?:have|bought|got|picked up)\s+{_ITEMS}(?:\s+already)?,?\s+"
                       rf"(?:so\s+)?(?:please\s+)?(?:remove|take|delete|cross)\s+{_THEM}(?:\s+(?:off|from)"
                       rf"(?:\s+of)?(?:\s+{_LIST})?|\s+off)?"),
)]
_NOT_ITEMS = re.compile(
    r"(?i)\b(?:decimal places?|digits?|sentences?|words?|paragraphs?|bullet(?: points?)?|bullets?|lines?|pages?|"
    r"rows?|columns?|charts?|tables?|graphs?|sources?|citations?|references?|examples?|years?|quarters?|months?|"
    r"weeks?|days?|points?|percent|per cent|basis points?|outliers?|duplicates?|companies|company|filings?|"
    r"reports?|documents?|questions?|answers?|results?|steps?)\b")
_PREPOSITION = re.compile(r"(?i)\b(?:to|from|into|onto|of the|in the|on the|for the|with|than|per)\b")
_PRONOUN_ITEMS = {"it", "them", "that", "those", "this", "these", "something", "everything", "anything", "all",
                  "one", "some", "more", "both"}
_SHOPPING_QUALIFIERS = {"", "shopping", "grocery", "groceries", "shop", "food", "supermarket", "buying",
                        "purchase", "purchasing"}


def _list_key(match: re.Match[str]) -> str:
    """'my shopping list', 'the list', 'my basket': the shopping list; 'my packing list': the packing list."""
    named = match.groupdict().get("list")
    noun = (match.groupdict().get("noun") or "list").lower()
    if named is None or noun != "list":
        return "shopping list"
    words = [w for w in named.lower().split() if w not in _KEY_QUALIFIERS]
    qualifier = " ".join(words)
    return "shopping list" if qualifier in _SHOPPING_QUALIFIERS else canonical_key(f"{qualifier} list")


def _quantity(word: str | None) -> int | None:
    if not word:
        return None
    word = " ".join(word.lower().split())
    return int(word) if word.isdigit() else _NUMBERS.get(word)


def _parse_items(span: str) -> list[tuple[str, int | None, bool]] | None:
    """'another 2 Toothpaste' -> [('Toothpaste', 2, True)]; '2 eggs and 3 milk' -> two items; None when any part
    is no item (a pronoun, a number, an answer-format noun, a phrase with a preposition). The flag: a quantity
    was written."""
    span = span.strip(" ,.")
    parts = [p for p in re.split(r"(?i)\s*,\s*(?:and\s+)?|\s+and\s+", span) if p]
    if len(parts) > 1 and not all(re.match(rf"(?i)(?:another\s+|an extra\s+)?{_QTY}\s", p) for p in parts):
        parts = [span]  # 'salt and pepper': one item
    found = []
    for part in parts:
        phrase = _ITEM_PHRASE.match(part.strip())
        if phrase is None:
            return None
        item = _FILLER_TAIL.sub("", phrase.group("item")).strip(" ,.!'\"")
        qty = _quantity(phrase.group("qty"))
        if phrase.group("all") and phrase.group("all").lower().startswith("all"):
            qty = None
        words = item.split()
        if (not words or len(words) > 5 or item.lower() in _PRONOUN_ITEMS or re.search(r"[\d$£€%]", item)
                or _PREPOSITION.search(item) or _NOT_ITEMS.search(item)):
            return None
        written = (phrase.group("qty") is not None and phrase.group("qty").lower() not in ("a", "an")
                   or phrase.group("more") is not None)  # 'Add another Steak': the item is on a list already
        found.append((item, qty, written))
    return found


def _list_update(text: str) -> Decision | None:
    for op, need, pattern in _LIST_PATTERNS:
        match = pattern.match(text)
        if match is None:
            continue
        named = match.groupdict().get("noun") is not None
        if op == "clear":
            return Decision(text, "task_state", _list_key(match), f"clear the {_list_key(match)}", op="clear")
        items = _parse_items(match.group("items"))
        if not items:
            continue
        if need == "list" and not named:
            continue
        qty = _quantity(match.groupdict().get("qty"))
        if qty is not None:  # the pattern's own count: 'change soap to 2', 'reduce soap by 1', 'I need 2 fewer'
            items = [(item, qty, True) for item, _, _ in items]
        if need == "bare" and not named and not all(written for _, _, written in items):
            continue  # 'Add Ternline to the comparison': no list and no quantity, not a list update
        pairs = tuple((item, q) for item, q, _ in items)
        key = _list_key(match) if named else "shopping list"
        said = ", ".join(f"{q} {i}" if q is not None else i for i, q in pairs)
        return Decision(text, "task_state", key, f"{op} {said}", op=op, items=pairs)  # type: ignore[arg-type]
    return None


def _clean_value(value: str) -> str:
    return _FILLER_TAIL.sub("", value).strip(" ,.!\"'")


def _is_value(value: str, max_words: int) -> bool:
    words = value.split()
    return 0 < len(words) <= max_words and words[0].lower() not in _STOP_VALUES


def _personal(text: str, body: str, correction: bool = False) -> Decision | None:
    """A name, a list update or a profile attribute stated in `body` (the utterance, or what a correction or a
    polite request wraps), as a Decision on `text`; None when `body` is none of these."""
    body = body.strip()
    while (lead := _LEAD_IN.match(body)) and lead.end() < len(body):
        body = body[lead.end():].strip()
    body = body.rstrip(" ?")
    for pattern in _NAME_PATTERNS:
        if (match := pattern.fullmatch(body)) and _is_value(name := _clean_value(match.group("name")), 4):
            return Decision(text, "profile", "name", name, correction)
    if (update := _list_update(body)) is not None:
        return Decision(text, update.type, update.key, update.value, correction, op=update.op, items=update.items)
    if first := _KEY_FIRST.match(body):
        key = canonical_key(first.group("key"))
        verb = first.group("verb").lower()
        value = _clean_value(first.group("value"))
        if first.group("named") and not re.match(r"(?:favourite|preferred|best|least favourite)\b", key):
            key = canonical_key(f"{key}'s name")  # 'the name of my dog is Rex': the dog's name
        if key == "name's":
            return None
        if key and value and not _is_pronoun(value):
            if verb in _KEPT_VERBS:
                value = f"{first.group('verb')} {value}"
            return Decision(text, "profile", "name" if key in ("name", "first name") else key, value, correction)
    if colon := _KEY_COLON.match(body):
        value = _clean_value(colon.group("value"))
        key = canonical_key(colon.group("key"))
        if key and _is_value(value, 6) and not _is_pronoun(value):
            return Decision(text, "profile", key, value, correction)
    if best := _BEST_FIRST.match(body) or _BEST_LAST.match(body):
        value = _clean_value(best.group("value"))
        if _is_value(value, 5) and not _is_pronoun(value):
            return Decision(text, "profile", canonical_key(f"favourite {best.group('key')}"), value, correction)
    if last := _KEY_LAST.match(body):
        value = _clean_value(last.group("value"))
        key = canonical_key(last.group("key"))
        if key and _is_value(value, 5) and not _is_pronoun(value):
            return Decision(text, "profile", key, value, correction)
    return None


def _is_pronoun(value: str) -> bool:
    return value.lower() in _STOP_VALUES or value.lower() in _PRONOUN_ITEMS


# --- list values ----------------------------------------------------------------------------------------------


def _item_forms(word: str) -> set[str]:
    forms = {word, word + "s", word + "es"}
    if word.endswith("y") and len(word) > 2:
        forms.add(word[:-1] + "ies")
    return forms


def same_item(a: str, b: str) -> bool:
    """Whether two item names are one item: case-insensitive, and a plural in 's', 'es' or 'ies' of the last
    word is its singular ('Potatoes' is 'potato', 'Toilet Papers' is 'toilet paper')."""
    wa, wb = a.casefold().split(), b.casefold().split()
    if len(wa) != len(wb) or not wa or wa[:-1] != wb[:-1]:
        return False
    return wb[-1] in _item_forms(wa[-1]) or wa[-1] in _item_forms(wb[-1])


def list_items(value: str | None) -> dict[str, int]:
    """A list record's value as item -> quantity (insertion order: the order items were first added). Accepts
    the JSON object this module writes, or a JSON list of {item, quantity}; anything else is an empty list."""
    if not value:
        return {}
    try:
        data = json.loads(value)
    except ValueError:
        return {}
    if isinstance(data, Mapping):
        pairs = list(data.items())
    elif isinstance(data, list):
        pairs = [(d.get("item"), d.get("quantity", 1)) for d in data if isinstance(d, Mapping)]
    else:
        return {}
    out: dict[str, int] = {}
    for item, qty in pairs:
        if isinstance(item, str) and item.strip() and isinstance(qty, (int, float)) and qty > 0:
            out[item.strip()] = out.get(item.strip(), 0) + int(qty)
    return out


def apply_list_update(current_value_json: str | None, decision: Decision) -> str:
    """The list's next value (a JSON object item -> quantity) after the decision's change to `current_value_json`
    (the active record's value, or None for a new list). Items are matched with `same_item`, keeping the name
    first written. add: + quantity (1 when none was given); remove: - quantity (all when none was given); set:
    the quantity; clear: empty. A quantity never goes below 0, and an item at 0 is dropped."""
    items = list_items(current_value_json)
    if decision.op == "clear":
        items = {}
    for item, qty in decision.items:
        name = next((k for k in items if same_item(k, item)), None)
        if decision.op == "add":
            name = name or item
            items[name] = items.get(name, 0) + (1 if qty is None else qty)
        elif decision.op == "remove" and name is not None:
            items[name] = 0 if qty is None else max(0, items[name] - qty)
        elif decision.op == "set":
            name = name or item
            items[name] = max(0, 1 if qty is None else qty)
        if name is not None and items.get(name, 1) <= 0:
            items.pop(name, None)
    return json.dumps(items, ensure_ascii=False)


def remember(store: MemoryStore, user: str, thread: str | None, decision: Decision, source: str, *,
             now: datetime | None = None) -> MemoryRecord | None:
    """Write a kept decision as the write node does: a list update under the thread (its value the list after
    the change), anything else user-wide; the user's words kept as `said`. None when the decision was refused."""
    if not decision.kept or decision.type is None:
        return None
    scope = thread if decision.type == "task_state" else None
    value = decision.value
    if decision.op is not None:
        current = next((r.value for r in store.active(user, scope, ["task_state"], now=now)
                        if r.key == normalise_key(decision.key) and r.thread == scope), None)
        value = apply_list_update(current, decision)
    return store.write(user, scope, decision.type, decision.key, value, source, said=decision.text, now=now)
