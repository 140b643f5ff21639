"""The names of regions and countries a report breaks its figures down by, as one pattern: a question's 'sales
to customers in Europe' and a table's 'EMEA' row are read with it (app/text/measures, app/facts/members)."""

from __future__ import annotations

import re

REGION_NAMES = (
    r"(?:americas?|north\s+america|south\s+america|latin\s+america(?:\s+and\s+canada)?|"
    r"emea|europe(?:,?\s+middle\s+east(?:\s+and|\s*&)\s+africa)?|rest\s+of\s+(?:the\s+)?(?:world|europe)|"
    r"asia(?:[\s-]+pacific)?|apac|apj|greater\s+china|china|japan|india|africa|middle\s+east|oceania|australasia|"
    r"united\s+states|u\.?s\.?(?:a\.?)?|canada|mexico|brazil|united\s+kingdom|u\.?k\.?|germany|france|"
    r"international|domestic|overseas|other\s+(?:countries|regions|international)|lacc|international\s+markets)")

PART_OF_WORLD = (
    r"(?:north\s+america|south\s+america|latin\s+america|emea|europe|asia[\s-]+pacific|apac|apj|greater\s+china|"
    r"africa|middle\s+east|oceania|australasia|rest\s+of\s+(?:the\s+)?world)")
"""The region names that only ever name a part of a company's business, with no preposition needed to tell:
a search's key words 'net sales Latin America' ask a breakdown's row as 'net sales in Latin America' does
('U.S.' or 'international' alone may qualify a whole-company measure: 'U.S. federal income taxes')."""


_REGION_ASKED = re.compile(rf"(?i)\b({PART_OF_WORLD})\b|\b(?:in|from)\s+(?:the\s+)?({REGION_NAMES})\b")


def regions_asked(query: str) -> list[str]:
    """The regions a question or a search's key words ask about, as written: 'Latin America' of 'net sales in
    Latin America' and of 'net sales Latin America'; a bare 'U.S.' or 'international' only after 'in' or 'from'."""
    return list(dict.fromkeys(" ".join((m.group(1) or m.group(2)).split()) for m in _REGION_ASKED.finditer(query)))
