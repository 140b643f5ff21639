"""What drove a change, as a report explains it: the sentences that give a cause for the measure asked, read with
the sentence they go on from and the period they are about.

A report rarely names the measure in the sentence that explains it: 'Merchandise inventories, net … totaled $1.6
billion compared to $1.5 billion … The $104.2 million increase was primarily due to the opening of 47 new stores'
explains the increase the sentence before states, and 'Cost of products sold increased as a percent to sales
driven by:' lists its causes as the bullets that follow. Nor does every explanation name its year: a segment
review writes 'Year 2022 results:' once and explains both years below it, so a sentence under 'Year 2021
results:' explains the change of 2021, not the one asked about 2022.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.facts.prose import whole_sentences
from app.knowledge.analyzer import analyze
from app.text.periods import years_named
from app.text.terms import abbreviated, stem_in_words

CAUSE = re.compile(r"(?i)\b(?:due\s+to|driven\s+by|because|as\s+a\s+result\s+of|reflect(?:s|ed|ing)?|attributable\s+to|"
                   r"owing\s+to|(?:primarily|mainly|largely|partly)\s+(?:from|as|by|on|because)|led\s+to|caused\s+by|"
                   r"on\s+the\s+back\s+of|thanks\s+to|weigh(?:s|ed)?\s+on|"
                   r"in\s+light\s+of|resulting\s+from|result\s+of|benefit(?:ed|ted)\s+from|impacted\s+by|"
                   r"given\s+(?:our|the|its|their|a|an|strong|continued|higher|lower)\b)")
"""Words with which a sentence gives a cause ('primarily due to', 'driven by', 'Given our strong start to the
year, we now expect …'); 'primarily' or 'mainly' only with what follows ('mainly because', 'primarily
from'), not in 'corporate assets, mainly cash'."""

CHANGE_WORDS = frozenset(analyze(
    "reduction reduce reduced raise raised raising lower lowered higher drop dropped balance end improve improved "
    "improvement deterioration deteriorate weaker stronger movement variation swing jump slip slipped slide slid "
    "dip dipped ease eased soften softened climb climbed"))
"""The words of an explanation question that name the change, not the measure ('the reduction in SG&A expense',
'the increase in … inventories balance at end of FY2023'); the measure is what the explaining text must name."""

_SHARE_FRAME = re.compile(r"(?i)^\s*as\s+a\s+(?:percent(?:age)?|share|proportion)\s+of\s+[^,]{1,40},\s*")
"""The frame of a sentence about a share ('As a percentage of net sales, gross profit …'): what it is a share of is
not what the sentence is about."""

_EFFECT_AFTER = re.compile(r"(?i)^(?:weigh(?:s|ed)?\s+on|led\s+to|given\b)")
"""Cause words after which the sentence names what they changed ('… all weighed on profit', 'Given our strong start
to the year, we now expect …'); after the others it names the cause ('Net income declined, mainly because …')."""


def effect_part(sentence: str) -> str:
    """The part of a sentence that names what changed, as opposed to what changed it: before 'due to', 'driven
    by', 'because' ('Operating profit growth was primarily driven by net revenue growth' is about operating profit,
    not net revenue); after 'weighed on' or 'led to'; after the clause of a cause put first ('Given our strong
    start to the year, we now expect …', 'Due to lower volumes, revenue fell …')."""
    match = CAUSE.search(sentence)
    if match is None:
        return sentence
    if _EFFECT_AFTER.match(match.group(0)) and match.start() > 0:
        return sentence[match.end():]
    if match.start() < 20:  # the cause first: what it changed follows its clause
        comma = sentence.find(",", match.end())
        return sentence[comma + 1:] if comma >= 0 else sentence[match.end():]
    return sentence[:match.start()]


_RISE = re.compile(r"(?i)\b(?:increas\w*|rose|rise[sn]?|grew|grow\w*|higher|up|rais\w*|improv\w*|gain\w*|expan\w*)\b")
_FALL = re.compile(r"(?i)\b(?:decreas\w*|declin\w*|fell|fall\w*|lower\w*|down|reduc\w*|drop\w*|contract\w*|"
                   r"narrow\w*|cut)\b")

_STANDING = re.compile(r"(?i)\b(?:are|is|can\s+be|may\s+be|could\s+be)\s+(?:also\s+|often\s+|generally\s+|"
                       r"significantly\s+)?(?:impacted|affected|influenced|driven|determined)\s+by\b")
"""A standing condition, in the present tense ('Net sales growth and gross margins are also impacted by our
competition'), not the cause of a period's change."""

_ANAPHOR = re.compile(r"(?i)^\s*(?:the|this|these|that|those|such|its|both)\b(?:\s+[\w$.,%-]+){0,4}?\s+"
                      r"(?:increase|decrease|decline|rise|growth|reduction|change|improvement|drop|fall|"
                      r"deterioration|shortfall|movement)s?\b"
                      r"|^\s*(?:this|these|that|those|such|it)\s+(?:was|were|is|are|reflects?|reflected|resulted|"
                      r"results|came)\b"
                      r"|^\s*(?:\w+\s+){1,3}(?:were|was|are|is)\s+also\b")
"""A sentence that goes on about what the one before it states ('The $104.2 million increase was primarily due to
…', 'This reflects …', 'Margins were also impacted by …')."""

_CONSEQUENCE = re.compile(r"(?i)^\s*(?:as\s+a\s+(?:result|consequence)|consequently|in\s+consequence|accordingly|"
                          r"therefore|hence)\s*,")
"""A sentence that states what the one before it caused ('Adjusting items of £30.9 million comprised … . As a
result, statutory profit before tax fell to £39.6 million'): the cause is the sentence before."""


def is_consequence(sentence: str) -> bool:
    """Whether a sentence opens by saying it follows from the one before it (`_CONSEQUENCE`)."""
    return bool(_CONSEQUENCE.match(sentence))


_PERIOD_HEAD = re.compile(r"(?i)^(?:(?:fiscal\s+)?year\s+|fiscal\s+|FY\s?)?((?:19|20)\d{2})\s+(?:results|compared|"
                          r"versus|vs\.?|highlights|performance)\b|^(?:fiscal\s+)?year\s+((?:19|20)\d{2})\b")
"""A heading that dates what follows it until the next ('Year 2022 results:', '2022 compared with 2021')."""

_LEAD_JUNK = re.compile(r"^[^()]{0,200}?\)\s+(?=[A-Z])")
"""A sentence that opens with the end of a bracket before it ('… total sales) Cost of products sold …')."""


_COST = r"cost\s+of\s+(?:products\s+sold|goods\s+sold|sales|revenues?)"
COST_SHARE = re.compile(rf"(?i)\b{_COST}\b(?:[^.]|\.\d){{0,60}}?\b(?:percent(?:age)?\b|%)"
                        rf"|\bpercent(?:age)?\s+(?:of|to)\s+(?:net\s+)?(?:sales|revenues?)\b(?:[^.]|\.\d){{0,30}}?\b{_COST}")
"""Cost of sales as a share of sales, which a report may explain in a gross margin's place ('Cost of products sold
increased as a percent to sales driven by: …'): the phrase itself, not 'higher cost of funds' near a per cent."""


@dataclass(frozen=True)
class Explanation:
    """A sentence that explains the change asked, the sentence it goes on from (when it names the measure only
    through it), the years it is about and how well it matches."""

    sentence: str
    antecedent: str
    years: tuple[int, ...]
    score: float
    order: int


def direction_asked(text: str) -> int:
    """+1 when a question (or a sentence) speaks of a rise, -1 of a fall, 0 of a change of either sign."""
    rise, fall = bool(_RISE.search(text)), bool(_FALL.search(text))
    return 1 if rise and not fall else -1 if fall and not rise else 0


def _words(text: str) -> set[str]:
    """A text's stems, with each two in a row joined ('buy back' holds 'buyback') and the abbreviations of what
    it spells out ('net profit after tax' holds 'NPAT'); read once per text, then asked of every key group."""
    tokens = analyze(f"{text} {abbreviated(text)}")
    return {*tokens, *(a + b for a, b in zip(tokens, tokens[1:]))}


def _holds(words: set[str], group: frozenset[str]) -> bool:
    return any(stem_in_words(k, words) for k in group)


def close_together(text: str, first: frozenset[str], second: frozenset[str], span: int = 3) -> bool:
    """Whether two words a question writes side by side ('operating income') stand within `span` words of each
    other in a text that holds both ('income tax expense … Statement of Operations' does not state operating
    income); true when the text lacks either."""
    tokens = analyze(text)
    at_first = [i for i, t in enumerate(tokens) if stem_in_words(t, first) or any(stem_in_words(k, {t}) for k in first)]
    at_second = [i for i, t in enumerate(tokens) if stem_in_words(t, second) or any(stem_in_words(k, {t}) for k in second)]
    if not at_first or not at_second:
        return True
    return any(abs(i - j) <= span for i in at_first for j in at_second)


def with_bullets(sentences: Sequence[str], index: int) -> tuple[str, int]:
    """A sentence that introduces its causes as a list ('… driven by:') with the bullets that follow it, joined
    into one sentence; a bullet that ends 'partially offset by' runs on into the next. Returns the sentence and the
    index of the last sentence it took."""
    head = sentences[index].rstrip()
    if not head.endswith(":"):
        return head, index
    items: list[str] = []
    last = index
    for j in range(index + 1, len(sentences)):
        text = sentences[j].strip()
        if not text.startswith(("•", "·", "▪", "-", "–")):
            break
        item = text.lstrip("•·▪-– ").strip()
        # a bullet the extractor ran into the next paragraph ('… Consumer Health segment The intangible asset …')
        item = re.split(r"(?<=[a-z])\s+(?=(?:The|This|These|In|Our|We|As|For)\s)", item, maxsplit=1)[0]
        # … or into the next heading ('Commodity inflation in 2022 Pharmaceutical Segment: In 2022, …')
        item = re.split(r"\s+(?=[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*){0,4}:\s)", item, maxsplit=1)[0]
        items.append(item.rstrip(".;,:"))
        last = j
    if not items:
        return head, index
    joined = items[0][:1].lower() + items[0][1:] if not re.match(r"[A-Z]{2}|[A-Z]\w*-\d", items[0]) else items[0]
    for item in items[1:]:
        item = item[:1].lower() + item[1:] if not re.match(r"[A-Z]{2}|[A-Z]\w*-\d", item) else item
        joined += (" " if re.search(r"\b(?:by|of|and|or)$", joined) else "; ") + item
    return f"{head[:-1].rstrip()} {joined}.", last


_BASE_YEAR = re.compile(r"(?i)\b(?:compared\s+(?:to|with)|versus|vs\.?)\b(?:[^.;]|\.(?=\d)){0,80}?\b((?:19|20)\d{2})\b")
"""The year a change is measured from ('SG&A expenses decreased to 23.5% compared to 23.9% in fiscal 2021'): the
change itself is of the year after it."""

_QUARTER = re.compile(r"(?i)\b(?:in|for|during|of|to|with|versus)\s+the\s+(?:(?:first|second|third|fourth)\s+quarter|three\s+months|"
                      r"thirteen\s+weeks|13\s+weeks)\b|\bQ[1-4]\b")
"""A sentence about a quarter ('… compared to 23.8% in the fourth quarter of fiscal 2021'), not one that names a
quarter's charge within a year ('resulting in a 2022 fourth quarter pre-tax charge')."""


def sentence_years(sentence: str) -> tuple[int, ...]:
    """The years a sentence is about: those it names, and the year after one it compares from."""
    years = set(years_named(sentence)) | {int(m.group(1)) + 1 for m in _BASE_YEAR.finditer(sentence)}
    return tuple(sorted(years))


_FISCAL_PAIR = re.compile(r"(?i)\bfiscal\s+(?:year\s+)?((?:19|20)\d{2})\s+(?:compared\s+(?:to|with)|versus|vs\.?|"
                         r"over|from)\s+(?:fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\b")
"""A change between two fiscal years named as such ('during fiscal 2016 compared to fiscal 2015'): no calendar
year that may name the fiscal year after it."""


def older_change_named(sentence: str, years: Sequence[int]) -> bool:
    """Whether a sentence names a change between two fiscal years both before the latest year asked (`_FISCAL_PAIR`)."""
    pair = _FISCAL_PAIR.search(sentence)
    return bool(years) and pair is not None and max(int(pair.group(1)), int(pair.group(2))) < max(years)


def explains_older_change(sentence: str, years: Sequence[int]) -> bool:
    """Whether a sentence is dated only before the year before the latest year asked: it explains an older change
    ('… increased year-on-year due to … COVID impacts recognized on certain assets in 2020' for 2022)."""
    named = sentence_years(sentence)
    return bool(years and named) and max(named) < max(years) - 1


def explanations(texts: Iterable[tuple[int, str]], key: Sequence[frozenset[str]], years: Sequence[int],
                 direction: int = 0, quarter_asked: bool = False,
                 subject: re.Pattern[str] | None = None,
                 pairs: Sequence[tuple[frozenset[str], frozenset[str]]] = (),
                 share_asked: bool = False, headings: dict[int, str] | None = None,
                 named: Sequence[frozenset[str]] = ()) -> list[tuple[Explanation, int]]:
    """The sentences of the texts (each with its rank among them) that give a cause and name, themselves or
    through the sentence they go on from, every key group of the measure asked; best first. A sentence is dated
    by the years it (or its antecedent) names, else by the period heading above it in the same text. Of the
    years asked, the latest is the year of the change: a sentence dated only before the year before it explains
    an older change and is left out; one dated the year before ranks below one dated the year asked (a fiscal
    year may be named by the calendar year it starts in, so it is not left out). A year's question prefers a
    sentence about the year to one about its fourth quarter. `subject`: a phrase the sentence or its antecedent
    must hold besides the key (a measure's complement, `COST_SHARE`). `pairs`: key groups the question writes side by
    side ('operating income'), which a sentence holding both must write close together too (`close_together`).
    `share_asked`: the question asks about a share ('SG&A as a percent of net sales'), so a sentence's 'As a
    percentage of net sales, …' frame names what it asks. `headings`: per text's rank, the section it was cut
    from ('Solar Development'): what it names counts, at a cost, for each of its sentences, as a paragraph's
    opening does. `named`: the key groups of a segment's name ('Solar Development'), which its review names above
    its sentences rather than in them: found there, they count in full, and half of the rest must be the
    sentence's own."""
    asked = max(years) if years else None
    found: list[tuple[Explanation, int]] = []
    order = 0
    for rank, text in texts:
        sentences = whole_sentences(text)
        heading: tuple[int, ...] = ()
        skip_to = -1
        for i, raw in enumerate(sentences):
            if head := _PERIOD_HEAD.match(raw.strip()):
                heading = (int(head.group(1) or head.group(2)),)
            if i <= skip_to:
                continue
            # causes listed as bullets after a lead-in that gives them ('… driven by:'), not a heading's list
            sentence, last = with_bullets(sentences, i) if CAUSE.search(raw) else (raw, i)
            sentence = _LEAD_JUNK.sub("", sentence)
            # 'As a result, …' gives its cause in the sentence before it, which must be there to give
            follows = is_consequence(sentence) and i > 0 and not sentences[i - 1].strip().endswith(":")
            if not (CAUSE.search(sentence) or follows) or sentence.endswith(":") or len(sentence.split()) < 8:
                continue
            if not re.search(r"[.!?][\"”’')\]]*$", sentence.strip()) and not (
                    sentence.lstrip().startswith(("•", "·", "▪")) and sentence.rstrip().endswith(";")):
                continue  # cut off where its chunk ends ('… and sales at'); a bullet ends in ';' whole
            before = sentences[i - 1].strip() if i else ""
            if before.endswith(":") or before.startswith(("•", "·")):
                before = ""
            # the sentence it goes on from: one it refers back to ('The $104.2 million increase was …'), or one
            # that states the change it gives causes for ('Segment profit fell 8.6% to ¥17,940 million. Price
            # competition … weighed on profit')
            effect = effect_part(sentence)
            if not share_asked:  # 'As a percentage of net sales, gross profit …' is about gross profit
                effect = _SHARE_FRAME.sub("", effect)
            effect_words = _words(effect)
            own = [g for g in key if _holds(effect_words, g)]
            antecedent = before if before and len(before.split()) >= 6 and (follows or _ANAPHOR.match(sentence) or (
                len(own) < len(key) and direction_asked(before) and re.search(r"\d", before)
                and not re.search(r"\d", sentence))) else ""
            if follows and not antecedent:
                continue
            about = f"{antecedent} {effect}"
            about_words = _words(about) if antecedent else effect_words
            hits = [g for g in key if _holds(about_words, g)]
            # what the paragraph is about ('Net sales in the Machine Tools segment rose 3.7% …' two sentences up)
            # names the rest, at a cost
            window = " ".join([(headings or {}).get(rank, ""), *sentences[max(0, i - 3):max(0, i - 1)]]).strip()
            window_words = _words(window) if window and len(hits) < len(key) else set()
            borrowed = [g for g in key if g not in hits and _holds(window_words, g)]
            if subject is not None and not subject.search(about):
                continue
            if not all(close_together(about, a, b) for a, b in pairs):
                continue
            measure = [g for g in key if g not in named]
            if key and (not (own or antecedent) or 2 * len([g for g in hits if g not in named]) < len(measure)
                        or len(hits) + len(borrowed) < len(key) - (1 if len(key) >= 4 else 0)):
                continue
            dated = sentence_years(sentence) or sentence_years(antecedent) or heading
            if asked is not None and dated and max(dated) < asked - 1:
                continue
            if older_change_named(sentence, [asked] if asked is not None else []):
                continue  # 'during fiscal 2016 compared to fiscal 2015' for fiscal 2017: the change a year before
            score = (len(hits) + sum(1.0 if g in named else 0.5 for g in borrowed)) / len(key) if key else 1.0
            if asked is not None and dated and asked not in dated:
                score -= 0.35
            if not quarter_asked and _QUARTER.search(sentence):
                score -= 0.2
            said = direction_asked(sentence) or direction_asked(antecedent)
            if direction and said:
                score += 0.2 if said == direction else -0.2
            if _STANDING.search(sentence):
                score -= 0.3  # what always bears on the measure ('gross margins are also impacted by our
                # competition') says less of what drove this change than a sentence that states it
            found.append((Explanation(sentence.rstrip(), antecedent, dated, score, order), rank))
            order += 1
            skip_to = last
    found.sort(key=lambda x: (-x[0].score, x[1], x[0].order))
    return found
