"""The names of regions and countries a report breaks its figures down by, as one pattern: a question's 'sales
to customers in Europe' and a table's 'EMEA' row are read with it (app/text/measures, app/facts/members)."""

from __future__ import annotations

REGION_NAMES = (
    r"(?:americas?|north\s+america|south\s+america|latin\s+america(?:\s+and\s+canada)?|"
    r"emea|europe(?:,?\s+middle\s+east(?:\s+and|\s*&)\s+africa)?|rest\s+of\s+(?:the\s+)?(?:world|europe)|"
    r"asia(?:[\s-]+pacific)?|apac|apj|greater\s+china|china|japan|india|africa|middle\s+east|oceania|australasia|"
    r"united\s+states|u\.?s\.?(?:a\.?)?|canada|mexico|brazil|united\s+kingdom|u\.?k\.?|germany|france|"
    r"international|domestic|overseas|other\s+(?:countries|regions|international)|lacc|international\s+markets)")
