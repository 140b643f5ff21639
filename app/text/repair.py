"""Text as PDF extractors leave it, made to read again: what a reader would fix without thinking.

- Spaces that are not spaces: non-breaking, narrow and figure spaces become plain spaces, except between digit
  groups, where they separate thousands ('61 200' → '61,200'), as a plain space does between words ('approximately
  11 400 employees'); soft hyphens and zero-width characters go.
- A word hyphenated across a line break ('manufac-\\nturing') is joined ('manufacturing'); a compound that stays
  hyphenated elsewhere in the document ('full-\\ntime' where 'full-time' is written) keeps its hyphen on one line.
- A decimal point set apart ('$ 8 . 0 billion') is closed up ('$ 8.0 billion'); a page number run onto the last
  sentence ('… foreseeable future.13') is put on a line of its own.
- A date set in spaced type ('M a r c h 3 1 , 2 0 2 1', its groups often wider apart) is read back as 'March 31,
  2021'.
- A word broken by a stray space ('reven ues', 'opera ting profit'), or cut at a line's end with no hyphen ('or p'
  / 'aid any cash dividends', the two lines then one), is joined when the joined word stands whole at least
  MIN_OCCURRENCES times in the same document, neither piece is a function word ('in come' stays: a sentence may
  say that) and the pieces are not both far more common than the joined word ('net work').

The document's own vocabulary decides (`vocabulary(texts)`: every page of a filing counts), so no dictionary is
needed and nothing is joined that the document never writes whole. Pure functions; line structure is kept except
where a word cut at a line's end is joined (statement readers rely on lines).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from app.text.dates import LONG_MONTHS

_SPACES = "\u00a0\u202f\u2009\u2007\u2008\u200a\u205f"
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
_GROUP_SPACE = re.compile(rf"(?<=\d)[{_SPACES}](?=\d{{3}}(?!\d))")
_ODD_SPACE = re.compile(f"[{_SPACES}]")
_PLAIN_GROUP_SPACE = re.compile(r"(?<=[A-Za-z(~] )(?<![\d.,])(?P<head>\d{1,3})(?P<rest>(?: \d{3})+)(?= [A-Za-z%])")
"""A plain space between thousands in running text, as Canadian, French and SI style write them ('approximately
11 400 employees'): a word before the number and a word after it, so a table row's figures ('412 398 17') stay
apart."""
_GLUED_PAGE_NUMBER = re.compile(r"(?<=[a-z][.!?])(\d{1,3})\s*$")
"""A page's number run onto its last sentence ('… in the foreseeable future.13'): a line of its own."""
_SPACED_POINT = re.compile(r"(?<=\d) \. (?=\d+\s*(?:billion|million|thousand|bn\b|%|percent))")
"""A decimal point set apart from its digits ('$ 8 . 0 billion'): the sentence splitter would end a sentence there."""
_LINE_HYPHEN = re.compile(r"(?<![A-Za-z])(?P<left>[A-Za-z]{2,})-[ \t]*\n[ \t]*(?P<right>[a-z]{2,})(?P<rest>[A-Za-z]*)")
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
_TOKEN = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
_FUNCTION_WORDS = frozenset("""a an and any are as at be by can do for from had has have he her his if in into is it
    its may me my no not of off on one or our out over so some than that the their them then there they this to too
    up us was we were what when which who will with you all also any each more most much such very""".split())
MIN_OCCURRENCES = 2
"""A joined word must stand whole this many times elsewhere in the document."""


def vocabulary(texts: Iterable[str]) -> Counter[str]:
    """Case-folded words (hyphenated compounds whole and in parts) of a document's texts, counted."""
    counts: Counter[str] = Counter()
    for text in texts:
        for word in _WORD.findall(_ODD_SPACE.sub(" ", text)):
            folded = word.casefold()
            counts[folded] += 1
            if "-" in folded:
                counts.update(folded.split("-"))
    return counts


def repair_extraction(text: str, words: Counter[str] | None = None) -> str:
    """The text with the extraction damage above repaired; `words` is the document's vocabulary (default: this
    text's own)."""
    text = _INVISIBLE.sub("", text)
    text = _GROUP_SPACE.sub(",", text)
    text = _ODD_SPACE.sub(" ", text)
    text = _PLAIN_GROUP_SPACE.sub(lambda m: m.group("head") + m.group("rest").replace(" ", ","), text)
    words = words if words is not None else vocabulary([text])
    text = _LINE_HYPHEN.sub(lambda m: _dehyphenate(m, words), text)
    text = _SPACED_OUT.sub(lambda m: _spaced_out(m.group(0), words), text)
    text = _SPACED_DATE.sub(_spaced_date, text)
    text = _SPACED_POINT.sub(".", text)  # (after spaced type is read back: '8 . 0 b i l l i o n')
    text = _GLUED_PAGE_NUMBER.sub(r"\n\1", text)
    return _rejoin_broken_words(text, words)


_SPACED_DATE = re.compile(r"\b(?P<month>[A-Z][a-z]{2,8})\s+(?P<day>[0-3] \d|\d)\s*,\s*(?P<year>[12] \d \d \d)\b")
"""The day and year of a date whose groups spaced type set apart with wider spaces ('March   3 1 ,  2 0 2 1', its
month already read back by `_spaced_out`)."""


def _spaced_date(m: re.Match[str]) -> str:
    if m.group("month").casefold() not in _MONTHS:
        return m.group(0)
    return f"{m.group('month')} {m.group('day').replace(' ', '')}, {m.group('year').replace(' ', '')}"


_SPACED_OUT = re.compile(r"(?<!\S)(?:[A-Za-z0-9,] ){3,}[A-Za-z0-9,](?=[\s.;:)]|$)")
"""A run of single characters a space apart, as some extractors give a date set in spaced type ('M a r c h 3 1 ,
2 0 2 1')."""
_MONTHS = frozenset(LONG_MONTHS)


def _spaced_out(run: str, words: Counter[str]) -> str:
    """A spaced-out run read back: its letters joined into the words the document writes whole (or months), its
    digits into a day and a year ('March 31, 2021'); left as it is when any piece is no such word or number."""
    joined = run.replace(" ", "")
    pieces = re.findall(r"[A-Za-z]+|\d+|,", joined)
    out: list[str] = []
    for piece in pieces:
        if piece == ",":
            out[-1:] = [out[-1] + ","] if out else []
            continue
        if piece.isalpha() and piece.casefold() not in _MONTHS and words[piece.casefold()] < MIN_OCCURRENCES:
            return run
        if piece.isdigit() and not (len(piece) <= 2 and 1 <= int(piece) <= 31 or re.fullmatch(r"(?:19|20)\d{2}", piece)):
            return run
        out.append(piece)
    # a run of single digits alone may be a row's values ('2 0 2 1'): only a run with a word is read back
    return " ".join(out) if any(p.isalpha() for p in pieces) else run


def _dehyphenate(m: re.Match[str], words: Counter[str]) -> str:
    left, right, rest = m.group("left"), m.group("right"), m.group("rest")
    joined = (left + right + rest).casefold()
    compound = f"{left}-{right}{rest}".casefold()
    if words[compound] > words[joined] and words[compound] > 0:
        return f"{left}-{right}{rest}"
    return f"{left}{right}{rest}"


def _rejoin_broken_words(text: str, words: Counter[str]) -> str:
    """Adjacent words parted by spaces alone, joined where `_broken` says they are one word."""
    out: list[str] = []
    position = 0
    tokens = list(_TOKEN.finditer(text))
    i = 0
    while i < len(tokens):
        left = tokens[i]
        right = tokens[i + 1] if i + 1 < len(tokens) else None
        gap = text[left.end():right.start()] if right is not None else ""
        if (right is not None and (_SPACE_GAP.fullmatch(gap) or _LINE_GAP.fullmatch(gap))
                and _broken(left.group(0), right.group(0), words, at_line_end="\n" in gap)):
            out.append(text[position:left.start()] + left.group(0) + right.group(0))
            position = right.end()
            i += 2
            continue
        i += 1
    out.append(text[position:])
    return "".join(out)


_SPACE_GAP = re.compile(r"[ \t]+")
_LINE_GAP = re.compile(r"[ \t]*\n[ \t]*")


def _broken(left: str, right: str, words: Counter[str], at_line_end: bool = False) -> bool:
    """Whether two pieces are one word. A word the extractor cut at a line's end, with no hyphen ('We have not
    declared or p' / 'aid any cash dividends'), may leave a piece of one letter: a line's end parts no piece of a
    word the document writes whole but a break."""
    shortest = 1 if at_line_end else 2
    if "-" in left or "-" in right or min(len(left), len(right)) < shortest or not right.islower():
        return False
    if left.casefold() in _FUNCTION_WORDS or right.casefold() in _FUNCTION_WORDS:
        return False  # 'in come', 'a mount': a sentence may say that
    joined = (left + right).casefold()
    return words[joined] >= MIN_OCCURRENCES and not _both_common(left, right, words, joined)


def _both_common(left: str, right: str, words: Counter[str], joined: str) -> bool:
    """Both pieces are words the document uses far more often than the joined word ('net work' in a report
    that says 'net' and 'work' everywhere and 'network' twice): a phrase, not a broken word."""
    return words[left.casefold()] > 3 * words[joined] and words[right.casefold()] > 3 * words[joined]


# --- soft-wrapped prose ---------------------------------------------------------------------------------------

_ENDS_SENTENCE = re.compile(r"[.!?:;][\"')\]”’]*\s*$")
_NUMBERISH = re.compile(r"^[(\-–—]?[$£€¥]?\d[\d,.]*%?\)?[a-zA-Z]{0,2}$|^[—–-]$")
_PROSE_MIN_WORDS = 5


def _is_prose(line: str) -> bool:
    """A line of running text: five words or more, most of them words rather than figures."""
    tokens = line.split()
    if len(tokens) < _PROSE_MIN_WORDS:
        return False
    figures = sum(1 for t in tokens if _NUMBERISH.match(t.strip(",;")))
    return figures * 3 < len(tokens)


def reflow(text: str) -> str:
    """Soft-wrapped prose put back on one line per paragraph: a line of running text that does not end a
    sentence is joined with the next when that one continues it (opens in lower case, or is running text itself
    and the first does not end like a heading). Table rows, statement lines, headings and figures stay on lines
    of their own, so readers of rows are not affected; only the sentence splitter should read the result."""
    lines = text.splitlines()
    out: list[str] = []
    last = ""
    for line in lines:
        stripped = line.strip()
        # (a title quoted across lines stays in its sentence: 'as discussed in the “' / 'Operating income …' /
        # '- (non-GAAP measures)' / '” section and further in Note 16).')
        open_quote = bool(out) and out[-1].count("“") > out[-1].count("”")
        if out and stripped and out[-1].strip() and (open_quote or _continues(out[-1].strip(), stripped)
                                                     or _wrapped_at_width(last, stripped)):
            out[-1] = out[-1].rstrip() + " " + stripped
        else:
            out.append(line)
        last = stripped
    return "\n".join(out)


WRAP_WIDTH = 110
"""A line of running text this long that ends in no stop was wrapped at the page's width."""


def _wrapped_at_width(previous: str, line: str) -> bool:
    """A full-width line of running text cut where the page's width ended, mid-sentence ('… the Company’s Lead' /
    'Independent Director, Dona D. Young, will become …'), or at a possessive, which ends no sentence nor heading
    ('… The Company’s' / 'Board has determined …'): the next running line goes on with it."""
    if not previous or _ENDS_SENTENCE.search(previous) or not _is_prose(previous) or not previous[-1].isalpha() \
            or not line[:1].isalnum():  # (a bullet, '• Company maintains …', opens an item of its own)
        return False
    return _is_prose(line) and (len(previous) >= WRAP_WIDTH or bool(re.search(r"['’]s$", previous)))


def _continues(previous: str, line: str) -> bool:
    if _ENDS_SENTENCE.search(previous) or previous.startswith("|") or line.startswith("|"):
        return False
    if line[0].islower():  # 'Online sales' / 'reached 28.1% of retail sales, …': a run-in heading too
        return bool(re.search(r"[A-Za-z,]$", previous))
    if re.search(r"(?:\s&|\b(?:and|or|of|the|to|for|with))$", previous) and _is_prose(previous):
        return True  # '… Convenience Stores & Foodservice; Europe &' / 'Australia; Asia & Latin America; and Pet.'
    if re.search(r"(?i)\b(?:at|in|on|from|as|an?|our|its|their)$", previous) and _is_prose(previous) \
            and line[:1].isalpha():
        return True  # '… was extended to May 31, 2021. At' / 'March 31, 2021 and …' (not a page's footnote marks)
    if re.fullmatch(r"(?i)(?:as\s+(?:of|at)|at|on|in|during|since)", previous) and line[:1].isalnum():
        return True  # 'Holders' / 'As of' / 'January 25, 2018, there were approximately 327 stockholders …'
    if line.startswith("& ") and previous[-1].isalpha() and _is_prose(previous):
        return True  # '… Additionally, Johnson' / '& Johnson maintains a 9.5% stake …': a name wrapped at its '&'

    if not _is_prose(previous):
        return False
    # '… and engaged a further' / '2,860 contractors on site (FY2023: 2,740).': a figure opening running text
    return bool(re.match(r"[(\[$£€¥]?\d", line)) and _is_prose(line) and previous[-1].isalpha()
