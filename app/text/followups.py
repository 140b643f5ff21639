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
from collections.abc import Callable, Sequence

REFERENT = re.compile(
    r"(?i)\b(it|its|it's|they|their|theirs|them|that|those|these|there|the two|the other one|the other|"
    r"the others|the smaller one|the bigger one|the company|that company|last year|the year before|"
    r"same(?! (?:thing )?as\b)|the segment|the figure|the number|the period|the deal|the report)\b")
FOLLOW_UP = re.compile(r"(?i)^\s*(and|ok|okay|so|same|what about|how about|now|also|then)\b")
PREVIOUS_SUBJECT = re.compile(r"(?i)\b(both|each|the group|that year|the same)\b")
"""Words that stand for the previous turn's companies or year ('both', 'each', 'that year'). The conversation
reads them as referents too; the router's features do not (it was fitted on REFERENT alone)."""


def without_thread_tags(question: str) -> str:
    """The question in the user's words: the '[Company, FY2024; following: ...]' tag enrichment added from the
    thread removed (a follow-up about the weather does not name Northwind because the thread did)."""
    return re.sub(r"\s*\[[^\]]*\]\s*$", "", question)


def is_follow_up(question: str) -> bool:
    """A referent ('their', 'it', 'same', 'both') or a follow-up opening ('and', 'what about')."""
    return bool(REFERENT.search(question) or PREVIOUS_SUBJECT.search(question) or FOLLOW_UP.search(question))


# --- the standalone question of a follow-up -----------------------------------------------------------------

_YEAR = re.compile(r"(?<![\d.,$£€¥])((?:19|20)\d{2})(?![\d]|,\d|\.\d)")
_SHORT_FY = re.compile(r"(?i)\bFY\s?'?(\d{2})\b")
_QUARTER = re.compile(r"(?i)\b(?:Q([1-4])|(first|second|third|fourth)\s+quarter)\b")
_ORDINAL = {"first": "1", "second": "2", "third": "3", "fourth": "4"}
_SHIFTED = (
    (-1, re.compile(r"(?i)\b(?:the\s+)?(?:year\s+before|previous\s+year|prior\s+year|preceding\s+year|"
                    r"year\s+earlier)\b|\ba\s+year\s+(?:before|earlier)\b")),
    (+1, re.compile(r"(?i)\b(?:the\s+)?(?:year\s+after|following\s+year|next\s+year|year\s+later)\b|"
                    r"\ba\s+year\s+later\b")),
)
_OVER_TURNS = re.compile(
    r"(?i)\b(?:chang\w*|differ\w*|compar\w*|higher|lower|bigger|smaller|larger|greater|more|less|grow\w*|"
    r"increas\w*|decreas\w*|rise|rose|risen|fall|fell|fallen|drop\w*|ratio|share|percent\w*|both|each|total|"
    r"sum|average|vs\.?|versus|between|combined|together|trend)\b")
"""A follow-up that asks something of the figures already given ('how did it change?', 'which was higher?'),
not the same question for another period or company."""
_FILLER = re.compile(
    r"(?i)\b(?:and|so|ok|okay|now|also|then|what|how|about|for|in|at|of|on|the|same|please|was|were|is|are|it|"
    r"its|they|them|those|these|that|this|one|fiscal(?:\s+year)?|financial\s+year|year|fy|quarter|q[1-4]|first|second|third|fourth)\b|"
    r"\bfy\s?'?\d+|[^\w\s]|\d+")


def standalone_follow_up(follow_up: str, previous: str,
                         companies: Callable[[str], list[tuple[int, int, str]]]) -> str | None:
    """The question a follow-up asks, written out, when it asks the previous question again for another period or
    company and nothing else: 'And in FY2023?' after "What was Northwind Logistics' revenue in FY2024?" is "What
    was Northwind Logistics' revenue in FY2023?"; 'What about Helio Renewables?' puts that company in its place;
    'And the year before?' the year before. `companies(text)` gives where a text names each company (start, end,
    company; app.text.companies.company_spans). None when the follow-up asks anything more, or of the figures
    already given ('how did it change?'), or when what to replace is not clear (the previous question names two
    years or two companies, or a quarter the follow-up cannot take the place of)."""
    if not previous or _OVER_TURNS.search(follow_up):
        return None
    named = companies(follow_up)
    rest = follow_up
    for start, end, _ in sorted(named, reverse=True):
        rest = rest[:start] + " " + rest[end:]
    shift = next((step for step, pattern in _SHIFTED if pattern.search(rest)), 0)
    for _, pattern in _SHIFTED:
        rest = pattern.sub(" ", rest)
    years = list(dict.fromkeys([*_YEAR.findall(rest), *(f"20{y}" for y in _SHORT_FY.findall(rest))]))
    quarters = list(dict.fromkeys(q or _ORDINAL[w.lower()] for q, w in _QUARTER.findall(rest)))
    if _FILLER.sub(" ", rest).strip() or not (named or years or shift or quarters):
        return None  # it asks something more ('and its operating margin?'), or names nothing new
    out = previous
    if named:
        were = companies(previous)
        if len({c for *_, c in named}) != 1 or len({c for *_, c in were}) != 1:
            return None
        start, end, _ = named[0]
        out = _replace_company(out, were, follow_up[start:end])
    if years or shift:
        out = _replace_year(out, years, shift)
        if out is None:
            return None
    if quarters:
        said = list(dict.fromkeys(q or _ORDINAL[w.lower()] for q, w in _QUARTER.findall(out)))
        if len(quarters) != 1 or len(said) != 1:
            return None
        out = _QUARTER.sub(lambda m: f"Q{quarters[0]}" if m.group(1) else
                           f"{[k for k, v in _ORDINAL.items() if v == quarters[0]][0]} quarter", out)
    return out if out != previous else None


def _replace_company(question: str, spans: list[tuple[int, int, str]], name: str) -> str:
    """The question with each place it names its company holding `name`, possessives written for the new name."""
    out = question
    for start, end, _ in sorted(spans, reverse=True):
        after = out[end:]
        possessive = re.match(r"['\u2019]s?\b|['\u2019](?=\s|$)", after)
        if possessive:
            after = ("'" if name.endswith("s") else "'s") + after[possessive.end():]
        out = out[:start] + name + after
    return out


_RELATIVE_PERIOD = re.compile(r"(?i)\b(?:last|this|that|previous|prior|next|current|same)\s+(?:fiscal\s+)?(?:year|"
                              r"period|quarter)\b|\bthe\s+period\b")


def _replace_year(question: str, years: list[str], shift: int) -> str | None:
    """The question for another year: its one year replaced (or moved by `shift`), or, when it names none, the
    year added at its end. None when it names two years (which of them is meant is not clear)."""
    said = list(dict.fromkeys(_YEAR.findall(question)))
    if len(said) > 1 or (shift and len(said) != 1) or len(years) > 1:
        return None
    if not said and _RELATIVE_PERIOD.search(question):
        return None  # 'in that last year of the period': which year it meant is the thread's, not written here
    new = years[0] if years else str(int(said[0]) + shift)
    if said:
        return _YEAR.sub(new, question)
    return re.sub(r"\s*\?*\s*$", f" in {new}?", question, count=1)


_POINTING = frozenset("""which who one ones did do does go went gone by much many had has have they them those these
    two years figures figure numbers number companies company periods over during time span across amount
    amounts value values""".split())
"""Words a follow-up about the figures already given may hold besides filler and the words of change."""
_SUBJECT_AND_YEAR = re.compile(
    r"(?i)^\s*(?:what|how\s+much)\s+(?:was|were|is|are)\s+(?P<subject>.+?)\s+(?:in|for|during|at\s+the\s+end\s+of|"
    r"as\s+of)\s+(?P<prefix>(?:the\s+)?(?:fiscal\s+(?:year\s+)?|financial\s+year\s+|FY\s?)?)(?P<year>(?:19|20)\d{2})"
    r"\s*\?*\s*$")


def over_turns_follow_up(follow_up: str, turns: Sequence[tuple[str, Sequence[int]]],
                         companies: Callable[[str], list[tuple[int, int, str]]]) -> str | None:
    """The question a follow-up asks of the figures the last turns gave ('How did it change?', 'Which year was
    higher?', 'What was the difference?'), written out, when those turns asked one question ('What was Helio
    Renewables' revenue in FY2024?') for two years or for two companies: "How did Helio Renewables' revenue
    change from FY2023 to FY2024?", or "What was the difference in FY2024 revenue between Northwind Logistics and
    Helio Renewables?". `turns`: (standalone question, fiscal years) of the thread's answered turns, oldest
    first. None when the follow-up names a company, a year or a measure of its own, or the turns are not so."""
    if not _OVER_TURNS.search(follow_up) or companies(follow_up) or _YEAR.search(follow_up):
        return None
    residue = re.findall(r"[A-Za-z]+", _FILLER.sub(" ", _OVER_TURNS.sub(" ", follow_up)))
    if any(word.lower() not in _POINTING for word in residue):
        return None  # 'how did its margin change?' names a measure of its own
    same: list[tuple[str, int, str]] = []  # (subject, year, company) of the latest turns asking one question
    shape = None
    for question, _years in reversed(turns):
        found = _SUBJECT_AND_YEAR.match(question)
        spans = companies(question)
        if found is None or len({c for *_, c in spans}) > 1:
            break
        # a question that names no company asks of the thread's ('what was the weighted average exercise price
        # per share in 2007?' on a filing the conversation is about): its measure is the subject
        start, end, company = spans[0] if spans else (0, 0, "")
        this = (question[:start] + "<company>" + question[end:]).replace(found.group("year"), "<year>").lower()
        if shape is not None and this != shape:
            break
        shape = this
        same.append((found.group("subject"), int(found.group("year")), company))
        if len(same) == 2:  # the figures the last two turns gave
            break
    years = sorted({y for _, y, _ in same})
    names = list(dict.fromkeys(c for *_, c in reversed(same) if c))
    if len(same) < 2 or (names and len({c for *_, c in same}) != len(names) and len(years) == 1):
        return None
    latest = _SUBJECT_AND_YEAR.match(next(q for q, _ in reversed(turns)))
    assert latest is not None
    prefix = latest.group("prefix")
    if len(years) == 2 and len(names) <= 1 and len({c for *_, c in same}) == 1:
        span = f"from {prefix}{years[0]} to {prefix}{years[1]}"
        asked = re.match(r"(?i)\s*(?:did|has|have)\s+(?:it|they)\s+(?P<verb>[a-z]+)\b|\s*(?:was|were|is|are)\s+"
                         r"(?:it|they)\s+(?P<more>higher|bigger|larger|greater|up|lower|smaller|down)\b", follow_up)
        if asked and asked.group("verb"):  # 'Did it grow?': a yes/no asked of the change, and answered so
            return f"Did {same[0][0]} {asked.group('verb').lower()} {span}?"
        if asked:
            up = asked.group("more").lower() in ("higher", "bigger", "larger", "greater", "up")
            return f"Did {same[0][0]} {'increase' if up else 'decrease'} {span}?"
        return f"How did {same[0][0]} change {span}?"
    if len(years) == 1 and len(names) == 2:
        subject, _, company = same[0]
        spans = [s for s in companies(subject) if s[2] == company]
        if not spans:
            return None
        measure = re.sub(r"^(?:['\u2019]s?)\s*", "", subject[spans[0][1]:]).strip()
        if not measure:
            return None
        return f"What was the difference in {prefix}{years[0]} {measure} between {names[0]} and {names[1]}?"
    return None


_OF_A_CHANGE = re.compile(
    r"(?i)\b(?:that|this|the)\s+(?:change|increase|decrease|rise|decline|drop|difference|growth)\b.*?"
    r"\b(?:represents?|in\s+relation\s+to|relative\s+to|as\s+a\s+(?:percent(?:age)?|share|portion|proportion)\s+of|"
    r"(?:in\s+)?percent(?:age)?\s+of)\b")
_CHANGE_ASKED = re.compile(r"(?i)^How did (?P<subject>.+) change from (?P<old>.+?) to (?P<new>.+?)\?$")


def change_share_follow_up(follow_up: str, questions: Sequence[str]) -> str | None:
    """A follow-up that asks what a change given before represents against its base ('how much does that change
    represent in relation to this 2005 weighted average exercise price?', 'what is this increase as a percent of
    the 2014 losses?') asks that change again, whose answer gives it in per cent: the latest of `questions` (the
    thread's standalone questions, oldest first) written as "How did X change from A to B?". Only when the
    follow-up names no year but the base one (A). None otherwise."""
    if not _OF_A_CHANGE.search(follow_up):
        return None
    for question in reversed(questions):
        asked = _CHANGE_ASKED.match(question.strip())
        if asked is None:
            continue
        base = _YEAR.findall(asked.group("old"))
        named = set(_YEAR.findall(follow_up))
        return question.strip() if not named or named == set(base) else None
    return None


_NEW_MEASURE = re.compile(
    r"(?i)^\s*(?:and|so|ok|okay|now|also|then)?\s*,?\s*(?:what\s+about|how\s+about|and)\s+(?:for\s+)?"
    r"(?:its|their|the\s+company['’]s|the)?\s*(?P<measure>[A-Za-z][A-Za-z&'’ -]{1,60}?)\s*\??\s*$")
_POINTER = re.compile(r"(?i)^\s*(?P<aux>did|does|do|has|have|had|was|were|is|are|how\s+did|how\s+much\s+did|"
                      r"by\s+how\s+much\s+did|why\s+did)\s+(?:it|they)\s+(?P<rest>[a-z].*?)\s*\??\s*$")


def measure_follow_up(follow_up: str, previous: str,
                      companies: Callable[[str], list[tuple[int, int, str]]]) -> str | None:
    """The previous question asked of another measure, or of its own measure by a pronoun, written out:
    'What about its membership fee revenue?' after "What was Costco's net income in fiscal 2021?" is "What was
    Costco's membership fee revenue in fiscal 2021?"; 'Did it increase compared to 2021?' after "What was
    Johnson & Johnson's total debt at the end of 2022?" is "Did Johnson & Johnson's total debt increase in 2022
    compared to 2021?". Only when the previous question asks for one company's measure in one year ('What was
    X's Y in 2022?'); None otherwise, and when the follow-up names a company or asks of the figures given."""
    found = _SUBJECT_AND_YEAR.match(previous)
    if found is None or companies(follow_up):
        return None
    subject, year, prefix = found.group("subject"), found.group("year"), found.group("prefix")
    spans = companies(subject)
    if len({c for *_, c in spans}) != 1 or spans[0][0] > 0:
        return None
    owner = subject[:spans[0][1]]
    possessive = re.match(r"['’]s?", subject[spans[0][1]:])
    if possessive is None:
        return None
    pointer = _POINTER.match(follow_up)
    if pointer is not None:
        rest = pointer.group("rest")
        verb, _, tail = rest.partition(" ")
        when = "" if _YEAR.search(rest) and year in rest else f" in {prefix}{year}"
        return f"{pointer.group('aux')[:1].upper()}{pointer.group('aux')[1:]} {subject} {verb}{when}" + (
            f" {tail}" if tail else "") + "?"
    asked = _NEW_MEASURE.match(follow_up)
    if asked is None or _OVER_TURNS.search(follow_up) or _YEAR.search(follow_up):
        return None
    measure = re.sub(r"['’]s\b", "", asked.group("measure").strip())  # 'Cash App's gross profit': a segment's
    if len(measure.split()) > 6 or re.search(r"(?i)\b(?:segment|division|region|business|unit)\b", measure):
        return None  # a segment of the same measure ('the Asia segment') is not a measure of its own
    when = previous[found.end("subject"):].strip()
    return f"What was {owner}{possessive.group(0)} {measure} {when}"
