"""'How much did its cash dividends paid per share rise in 2025?' asks the amount a share got, which the prose states
('Cash dividends paid were $4.45 per share in 2025 and $4.19 per share in 2024'), never the cash flow statement's
total paid to shareholders, though both are 'dividends paid'. The answer names the measure as asked. Brackenfold
Health is a fictional filer."""

from __future__ import annotations

from app.facts.query import read_query
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

CO = "Brackenfold Health"
QUESTION = "How much did Brackenfold Health's cash dividends paid per share rise in 2025 compared with 2024?"

_CASH_FLOWS = """CONSOLIDATED STATEMENTS OF CASH FLOWS
(Dollars in Millions) 2025 2024 2023
Net cash used by financing activities
Dividends to shareholders (11,682) (11,032) (10,481)
Repurchase of common stock (6,035) (3,456) (3,221)
"""
_PROSE = """Dividends
The Company increased its dividend in 2025 for the 30th consecutive year.
Cash dividends paid were $4.45 per share in 2025 and $4.19 per share in 2024.
"""


def _block(n: int, text: str, page: int) -> Block:
    return Block(n=n, kind="report", header=f"[{n}] {CO} FY2025, p.{page} [text]",
                 source_id=f"BRACKENFOLD_2025_10K:p{page}", chunk_id=f"BRACKENFOLD_2025_10K:p{page}::0", company=CO,
                 fiscal_year=2025, page=page, text=text)


def test_a_per_share_measure_is_no_total_line_item() -> None:
    assert read_query(QUESTION, [CO], [2025, 2024]).items == ()
    assert read_query("How much did Brackenfold Health pay in dividends in 2025?", [CO]).items == ("dividends",)


def test_the_per_share_amounts_answer_and_are_named_as_asked() -> None:
    answer = compose_offline({"question": QUESTION, "companies": [CO], "fiscal_years": [2025, 2024],
                              "blocks": [_block(1, _CASH_FLOWS, 60), _block(2, _PROSE, 39)]})
    first = answer.split(". ")[0]
    assert "$4.19" in first and "$4.45" in first and "11,682" not in answer, answer
    assert "cash dividends paid per share" in first and " were " not in first, answer
