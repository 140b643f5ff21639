"""'In Q2 2025, which grew faster at the Strip resorts: rooms revenue or food and beverage revenue?', each line's
change stated in prose for the quarter and the half ('increased 2% for the three months ended June 30, 2025 … and
increased 23% for the six months ended June 30, 2025'): the quarter's changes compared, never the half's. A
fictional filer, Harbourline Resorts, states them so."""

from __future__ import annotations

from app.facts.members import change_in_year
from app.models.providers.offline.composer import compose_offline
from app.turns import Block

_PROSE = """Strip Resorts
Strip Resorts rooms revenue increased 2% for the three months ended June 30, 2025 compared to the prior year quarter
and increased 23% for the six months ended June 30, 2025 compared to the prior year period due to an increase in
RevPAR. Strip Resorts food and beverage revenue increased 7% for the three months ended June 30, 2025 compared to
the prior year quarter due primarily to an increase in catering and banquet revenue.
"""


def test_a_change_stated_for_months_ended_is_the_quarter_s_or_the_half_s_never_the_year_s() -> None:
    rooms = " ".join(_PROSE.split()[2:52])
    assert change_in_year(rooms, 2025, "Q2") == 2.0
    assert change_in_year(rooms, 2025, "H1") == 23.0
    assert change_in_year(rooms, 2025) is None  # neither is the year's
    assert change_in_year("Sales increased by $873.2 million, or 38%, during fiscal 2016.", 2016) == 38.0


def test_which_line_grew_faster_in_the_quarter_is_answered_from_the_sentences() -> None:
    block = Block(n=1, kind="report", header="[1] Harbourline Resorts FY2025, p.28 [text]",
                  source_id="harbourline-q2.pdf:p28", chunk_id="harbourline-q2.pdf:p28::0",
                  company="Harbourline Resorts", fiscal_year=2025, page=28, text=_PROSE)
    answer = compose_offline({"question": "In Q2 2025 (three months ended June 30, 2025), which grew faster year "
                                          "over year at Harbourline Resorts' Strip Resorts: rooms revenue or food and "
                                          "beverage revenue?",
                              "companies": ["Harbourline Resorts"], "fiscal_years": [2025], "blocks": [block]})
    first = answer.split(" [")[0]
    assert first.startswith("food and beverage revenue grew faster than rooms revenue"), answer
    assert "7.0%" in first and "2.0%" in first and "23" not in first, answer
