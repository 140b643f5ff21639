"""Two members of one company's breakdown as its prose states them: 'Sales by U.S. companies were $48.6 billion
in 2022 and $47.2 billion in 2021. This represents increases of 3.0% in 2022 and 9.3% in 2021.'

- `names_member(member, sentence)`: the sentence names the member ('US': 'U.S.' or 'United States', matched
  with its capitals so that 'us' is no member).
- `change_in_year(text, year)`: the per cent change the text gives for that year, its sign from the last word of
  rising or falling before it ('a decrease of 0.6% in 2022' is -0.6).
- `heading_above(text)`, `segment_heading(line)`: the heading line nearest the end of a text, and the segment or
  division such a heading names ('Flexibles Segment': 'Flexibles'); `segment_under(text, sentence, section)`:
  the segment whose heading a sentence stands under, so that the paragraphs under it are read as that
  segment's.
- `member_statement(member, other, measure_stems, texts, year)`: the sentence that states one member's measure
  (and not the other member's), with the sentence after it when that one goes on about it ('This represents …'),
  and the change it gives for the year.

Pure functions, no I/O: the offline composer words the comparison (composer/analyst.compare_members).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from app.facts.prose import MONTHS_PART, whole_sentences
from app.knowledge.analyzer import analyze
from app.text.figures import figures_in
from app.text.places import REGION_NAMES
from app.text.terms import stem_in_words

T = TypeVar("T")

_SPELLED = {"us": r"U\.?S\.?(?:A\.?)?(?!\w)|United\s+States", "uk": r"U\.?K\.?(?!\w)|United\s+Kingdom",
            "usa": r"U\.?S\.?A\.?(?!\w)|United\s+States"}
_UP = re.compile(r"(?i)\b(?:increas\w*|grow\w*|grew|ris(?:e|en|ing)|rose|up|higher|gain\w*|improv\w*)\b")
_DOWN = re.compile(r"(?i)\b(?:decreas\w*|declin\w*|fell|fall\w*|drop\w*|down|lower|reduc\w*|contract\w*|"
                   r"shr[iu]nk\w*)\b")
_GOES_ON = re.compile(r"(?i)^(?:this|these|that|which|it)\s+(?:represents?|represented|was|were|is|are|reflects?|"
                      r"reflected|amounts?|amounted)\b")


def _member_pattern(member: str) -> re.Pattern[str]:
    spelled = _SPELLED.get(re.sub(r"[^a-z]", "", member.casefold()))
    if spelled:
        return re.compile(rf"(?<![\w.])(?:{spelled})")
    words = r"\s+".join(re.escape(w) for w in member.split())
    return re.compile(rf"(?i)(?<![\w-]){words}(?![\w-])")


def names_member(member: str, sentence: str) -> bool:
    """Whether the sentence names the member (module docstring)."""
    return bool(member.strip()) and bool(_member_pattern(member).search(sentence))


_CHANGE_FOR = re.compile(r"(?P<pct>\d+(?:\.\d+)?)\s?%,?\s+(?:in|for|during)\s+(?:the\s+(?P<months>three|six|nine|"
                         r"twelve)\s+months\s+ended\s+[A-Z][a-z]+\s+\d{1,2},?\s+|fiscal\s+(?:year\s+)?)?"
                         r"(?P<year>(?:19|20)\d{2})\b")
"""'38%, during fiscal 2016', '2% for the three months ended June 30, 2023': a per cent change and its period."""


def change_in_year(text: str, year: int | None, part: str | None = None) -> float | None:
    """The per cent change the text gives for `year` ('increases of 3.0% in 2022 and 9.3% in 2021': 3.0 for 2022;
    'increased by $873.2 million, or 38%, during fiscal 2016': 38.0), and for the `part` of it asked when the text
    gives months ('increased 2% for the three months ended June 30, 2023 … and increased 23% for the six months':
    2.0 for a quarter, 23.0 for a half, neither for the year), signed by the last word of rising or falling before
    it; None when it gives none for that period, or no such word says which way it went."""
    wanted = part[:1] if part and part[:1] in ("Q", "H") else None  # a quarter, a half, else the year
    for found in _CHANGE_FOR.finditer(text):
        if year is not None and int(found.group("year")) != year:
            continue
        if found.group("months") and MONTHS_PART[found.group("months")] != wanted:
            continue
        before = text[:found.start()]
        up = [m.end() for m in _UP.finditer(before)]
        down = [m.end() for m in _DOWN.finditer(before)]
        if not up and not down:
            return None
        value = float(found.group("pct"))
        return value if max(up, default=-1) > max(down, default=-1) else -value
    return None


@dataclass(frozen=True)
class MemberStatement(Generic[T]):
    """A member's measure as a sentence states it, where it stands, and the change it gives for the year."""

    member: str
    """The member as the sentence writes it ('U.S.' for 'US' asked)."""
    sentence: str
    """The sentence that names the member and states its measure."""
    text: str
    """That sentence, with the one after it when that one goes on about it."""
    where: T
    change: float | None


def member_statement(member: str, other: str, measure_stems: Iterable[str], texts: Iterable[tuple[T, str]],
                     year: int | None, part: str | None = None) -> MemberStatement[T] | None:
    """The sentence of the texts that states the member's measure and not the other member's (with the sentence
    after it when that one goes on about it), one giving the year's change first; None when none does."""
    stems = set(measure_stems)
    best: MemberStatement[T] | None = None
    for where, text in texts:
        sentences = whole_sentences(text)
        for i, sentence in enumerate(sentences):
            if not names_member(member, sentence) or names_member(other, sentence) or not figures_in(sentence):
                continue
            words = set(analyze(sentence))
            if stems and not all(stem_in_words(s, words) for s in stems):
                continue
            said = sentence
            if i + 1 < len(sentences) and _GOES_ON.match(sentences[i + 1]) and "%" in sentences[i + 1]:
                said = f"{sentence} {sentences[i + 1]}"
            written = _member_pattern(member).search(sentence)
            found = MemberStatement(written.group(0) if written else member, sentence, said, where,
                                    change_in_year(said, year, part))
            if found.change is not None:
                return found
            best = best or found
    return best


_REGION = re.compile(rf"(?i)^\s*(?:the\s+)?{REGION_NAMES}\s*$")
REGION_IN = re.compile(rf"(?i)\b(?:companies|customers|operations|businesses|sales|revenues?)\s+(?:in|from)\s+"
                       rf"(?:the\s+)?(?P<region>{REGION_NAMES})(?![\w.])"
                       rf"|(?<![\w.])(?P<owner>{REGION_NAMES})\s+(?:net\s+)?(?:sales|revenues?)\b")
"""A figure's subject placed in a region: 'sales by companies in Europe experienced a decline of 0.6%',
'International sales were $14.1 billion, a decrease of 2.3%'."""
SEGMENT_ASKED = re.compile(r"(?i)\b(?:segments?|business(?:es)?|divisions?|units?|product\s+lines?)\b")
REGION_ASKED = re.compile(r"(?i)\b(?:regions?|regional|geograph\w*|countr(?:y|ies)|markets?|areas?|continents?|"
                          r"where)\b")


_PRODUCT_ASKED = re.compile(r"(?i)\b(?:which|what)\s+(?:of\s+(?:its|the|their)\s+)?(?:[\w&'’-]+\s+){0,2}?"
                            r"(?:franchises?|brands?|products?|drugs?|medicines?|therapies|titles?)\b")
"""A ranking of products or brands asked ('Within its orthopaedics business, which franchise is the smallest')."""


def asked_kind_of_member(members: list[T], question: str, name: Callable[[T], str],
                         table: Callable[[T], Hashable] | None = None) -> list[T]:
    """The members of a breakdown of the kind the question asks for: a question about business segments
    ('Which of 3M's business segments had the largest net sales?') takes no places from a table by geography;
    one that asks about regions takes the tables of places when there are such, and one that asks about neither
    every member, as does one whose every member is a place (the company's segments are places). With `table`
    (which table a member's row stands in), a table whose members are not all places is a table of segments,
    some named after where they sell ('FLNA', 'PBNA', 'LatAm', 'Europe', 'AMESA', 'APAC' are PepsiCo's
    divisions): all of it is kept."""
    if _PRODUCT_ASKED.search(question) and not REGION_ASKED.search(question):
        # 'which franchise is the smallest': products or brands, never a table of places
        return [m for m in members if not is_region(name(m))]
    if REGION_ASKED.search(question) and not SEGMENT_ASKED.search(question):
        # 'Which region …': the tables whose members are places, when there are such (a segment's table named
        # after a place, PepsiCo's 'LatAm', keeps all its rows)
        places = [m for m in members if is_region(name(m))]
        if len({name(m) for m in places}) < 2:
            return members
        if table is None:
            return places
        of_places = {table(m) for m in places}
        return [m for m in members if table(m) in of_places]
    if not SEGMENT_ASKED.search(question):
        return members
    if all(is_region(name(m)) for m in members):
        return members  # a company whose segments are places (Costco's 'United States', 'Canada', 'Other
        # International'): they are its segments
    if table is None:
        return [m for m in members if not is_region(name(m))]
    of_segments = {table(m) for m in members if not is_region(name(m))}
    return [m for m in members if table(m) in of_segments]


def within_parent(members: list[T], parent: str | None, name: Callable[[T], str], context: Callable[[T], str]
                  ) -> list[T]:
    """The members of the part a question ranks within ("Which of General Mills' North America Retail operating
    units grew fastest": the rows of the table whose title names North America Retail, not the segments beside
    it in another table, nor the part itself), when at least two stand under a title that names the part;
    else all of them."""
    if not parent:
        return members
    named = re.compile(rf"(?i)\b{re.escape(parent)}\b")
    kept = [m for m in members if named.search(context(m)) and not named.fullmatch(name(m).strip())]
    return kept if len({name(m) for m in kept}) >= 2 else members


def is_region(name: str) -> bool:
    """Whether a breakdown's member is a place ('Americas', 'Asia Pacific', 'EMEA', 'United States'), which a
    question about business segments does not ask about."""
    if _REGION.match(name) is not None:
        return True
    # 'Western Hemisphere excluding U.S.', 'Asia-Pacific, Africa': places joined, or one with another left out
    base = _LEAVING.sub("", name).strip()
    parts = [p for p in re.split(r"\s*,\s*|\s+(?:and|&)\s+", base) if p]
    return bool(parts) and all(_REGION.match(p) or _HEMISPHERE.match(p) for p in parts)


_LEAVING = re.compile(r"(?i)\s+(?:excluding|ex\.?|other\s+than|outside(?:\s+of)?|except)\s+.*$")
_HEMISPHERE = re.compile(r"(?i)^\s*(?:the\s+)?(?:western|eastern|northern|southern)\s+hemisphere\s*$")


_SEGMENT_HEADING = re.compile(r"^(?P<name>[A-Z][\w&'’./-]*(?:\s+(?:[A-Z&][\w&'’./-]*|and|of|the)){0,4}?)\s+"
                              r"(?:(?:Reportable|Operating|Business)\s+)?(?:Segment|Division)$")
_NO_SEGMENT_NAME = re.compile(r"(?i)^(?:reportable|operating|business|our|the|other|all|total|results|by|each)$")
HEADING_LINES = 60
"""Lines above a point that are searched for the heading it stands under."""


def heading_above(text: str) -> str | None:
    """The heading line nearest the end of `text`: a short line (at most six words) with no figure that opens with
    a capital and closes with no stop, read upwards past table rows, unit lines and prose, which all stand under
    it; None when none stands in the last HEADING_LINES lines."""
    for line in reversed(text.splitlines()[-HEADING_LINES:]):
        line = line.strip()
        if line and _heading_shaped(line):
            return line
    return None


def _heading_shaped(line: str) -> bool:
    """A heading's shape: at most six words, no figure, a capital first, no stop at its end."""
    return (len(line.split()) <= 6 and not re.search(r"\d", line) and line[:1].isupper()
            and not line.endswith((".", ",", ";", ":", "-", "–")))


def closing_heading(text: str) -> str | None:
    """The heading that closes a chunk, under which the page's next chunks stand: its last line when that is a
    heading (`_heading_shaped`), or the words after the last sentence of a paragraph that extraction ran
    the heading into ('… continued to outpace content and marketing spending. International Streaming
    Segment'); None otherwise."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    last = lines[-1]
    tail = re.split(r"(?<=[.!?])\s+(?=[A-Z])", last)[-1]
    return next((candidate for candidate in (last, tail) if _heading_shaped(candidate)), None)


def segment_heading(line: str | None) -> str | None:
    """The segment a heading line names ('Flexibles Segment', 'Rigid Packaging Segment', 'Medical Devices
    Division': the words before 'Segment' or 'Division'); None for any other heading, and for one that names no
    segment in particular ('Segment Results of Operations', 'Reportable Segment', 'Other Segment')."""
    found = _SEGMENT_HEADING.match((line or "").strip())
    if found is None or _NO_SEGMENT_NAME.match(found.group("name")):
        return None
    return found.group("name")


def segment_under(text: str, sentence: str, section: str | None = None) -> str | None:
    """The segment a sentence of `text` stands under: the one the nearest heading above it in the text names;
    where no heading stands above it there, the one its chunk's `section` names (a heading on the page before the
    chunk, nodes/inputs.segment_sections). None under any other heading, or none."""
    words = re.findall(r"\S+", sentence)[:6]
    found = re.search(r"\s+".join(map(re.escape, words)), text) if words else None
    heading = heading_above(text[:found.start()]) if found is not None and found.start() > 0 else None
    return segment_heading(heading) if heading is not None else segment_heading(section)


_SEGMENTS_LISTED = re.compile(
    r"(?i)\b(?:(?P<count>two|three|four|five|six|\d)\s+)?(?:reportable|reporting|operating|business)\s+segments?"
    r"(?:\s*:|,?\s+(?:are|were|comprise|consist\s+of|as\s+follows)\s*:?|,(?=\s+[A-Z]))\s*(?P<list>[^.]{3,400})")
_SEGMENT_NAME = re.compile(r"[A-Z][\w&'’/\u2024-]*(?:\s+(?:&\s+|and\s+|of\s+)?[A-Z][\w&'’/-]*){0,4}")
_LINE_ITEM_HEAD = re.compile(r"(?i)\b(?:sales|revenues?|income|profit|loss|margin|ebitda|ebit|ebitdar|expenses?|"
                             r"costs?|assets|liabilities|earnings|adjustments?|eliminations?|total|consolidated)\b")
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def is_line_item_name(name: str) -> bool:
    """Whether a member read from a table is a line item, not a part of the company ('Net sales to external
    customers', 'Core operating income', 'Adjustments'): a segment is named by what it sells or where."""
    return bool(_LINE_ITEM_HEAD.search(name))


def named_segments(texts: Iterable[str]) -> list[str]:
    """The segments a report lists in words ('The Group has two reportable segments: Machine Tools (machining
    centers, …) and Precision Components (ball screws, …)'; 'three reportable segments: Flexibles, Rigid Packaging
    and Other'), in its order: the first such list whose every item is a name, as many as it says there are."""
    for text in texts:
        # (a dotted initialism in a name, 'U.S. Consumer Services', ends no sentence)
        text = re.sub(r"\b(?:[A-Z]\.){2,}", lambda d: d.group(0).replace(".", _DOT), " ".join(text.split()))
        for m in _SEGMENTS_LISTED.finditer(text):
            listed = " ".join(re.sub(r"\([^()]*\)", " ", m.group("list")).split())
            count = (m.group("count") or "").lower()
            want = int(count) if count.isdigit() else _COUNT_WORDS.get(count)
            # (items set apart by semicolons where a name holds a comma or the list is long: 'North America Retail;
            # Convenience Stores & Foodservice; …; and Pet'; else by commas, up to the first semicolon)
            listed = listed if re.search(r";\s*(?:and\s+)?[A-Z]", listed) else listed.split(";")[0]
            items = [re.sub(r"^(?:and|&)\s+", "", item.strip())
                     for item in re.split(r";\s*" if ";" in listed else r",\s*", listed)]
            names: list[str] = []
            for item in items:
                if not _SEGMENT_NAME.fullmatch(item):
                    # the last two joined by 'and', one of them a name with an 'and' of its own ('International
                    # Card Services and Global Merchant and Network Services')
                    halves = [(item[:at.start()], item[at.end():]) for at in re.finditer(r"\s+and\s+", item)]
                    two = next(([a, b] for a, b in halves if _SEGMENT_NAME.fullmatch(a) and _SEGMENT_NAME.fullmatch(b)),
                               None)
                    if two is None or item is not items[-1]:
                        break
                    names += two
                    continue
                names.append(item)
            if want and len(names) == want - 1 and " and " in names[-1]:
                names[-1:] = names[-1].split(" and ", 1)  # 'Rigid Packaging and Other' is two of three
            if want and len(names) > want:
                names = names[:want]
            if len(names) >= 2 and (want is None or len(names) == want) \
                    and not any(is_line_item_name(n) for n in names):
                return [name.replace(_DOT, ".") for name in names]
    return []


_DOT = "\u2024"
"""A dot of an initialism while a list of names is read (one dot leader, which no report writes)."""
