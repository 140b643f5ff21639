"""The sparse index's tokenizer: words are stemmed, figures are kept findable in the forms people type.

"$55.7m" yields `$55.7m`, `55.7m` and `55.7`; "12.5%" yields `12.5%` and `12.5`; "FY2024" yields `fy2024` and
`2024`; "1,204.6" yields `1204.6`; "£1.2bn" yields `£1.2bn`, `1.2bn` and `1.2`. Words are lower-cased, English
stop words dropped and the rest stemmed with the Snowball stemmer (PyStemmer).
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(
    r"""
    (?P<fy>\bfy\s?'?(?P<fyyear>\d{2}(?:\d{2})?)\b)                                  # FY2024, FY 2024, FY24
  | (?P<fig>(?P<cur>[$£€¥])?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)
        (?P<suffix>%|\s?(?:bn|m|k|mn|billion|million|thousand|pp|bps|x)\b)?)            # $55.7m, 12.5%, 1,204.6
  | (?P<word>[^\W\d_]+(?:['’][^\W\d_]+)?)                                           # words (any script)
    """,
    re.IGNORECASE | re.VERBOSE,
)

STOP_WORDS = frozenset(
    """a an and are as at be been but by did do does for from had has have how i if in into is it its of on or
    our so such than that the their them then there these they this those to was we were what when where which
    who whom why will with would you your""".split()
)


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import Stemmer

    return Stemmer.Stemmer("english")


def analyze(text: str) -> list[str]:
    """Tokens for indexing and querying (the same function on both sides)."""
    out: list[str] = []
    words: list[str] = []
    for m in _TOKEN.finditer(text.lower()):
        if m.group("fy"):
            year = m.group("fyyear")
            full = year if len(year) == 4 else "20" + year
            out += ["fy" + full, full]
        elif m.group("fig"):
            num = m.group("num").replace(",", "")
            cur = m.group("cur") or ""
            suffix = (m.group("suffix") or "").strip()
            suffix = {"mn": "m", "million": "m", "billion": "bn", "thousand": "k"}.get(suffix, suffix)
            out.append(num)
            if suffix:
                out.append(num + suffix)
            if cur:
                out.append(cur + num + suffix)
        else:
            word = m.group("word").replace("’", "'")
            if word not in STOP_WORDS:
                words.append(word)
                out.append("")  # placeholder keeps word order stable with the figures
    stems = iter(_stemmer().stemWords(words)) if words else iter(())
    return [tok if tok else next(stems) for tok in out]
