"""A level asked ('What was X's Films revenue in fiscal 2025?') is never answered with a sentence that states
only how much it changed ('Revenue from Films increased $1.07 billion during fiscal 2025'): with no level
stated, the answer is the declared insufficient one (composer/analyst.Analyst.on_topic). A change asked is
answered with it as before.

Every company and figure here is made up (Kestrel Packaging).
"""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Kestrel Packaging"
CHANGE = "Revenue from Films increased $1.07 billion during fiscal 2025 as compared to fiscal 2024."
LEVEL = "Revenue from Films was $8.21 billion in fiscal 2025."


def _on_topic(question: str, *claims: str) -> list[str]:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2025, p.40 [text]", text=" ".join(claims),
                  source_id="KESTREL_2025_10K", chunk_id="KESTREL_2025_10K:p40::0", company=CO, fiscal_year=2025,
                  page=40)
    analyst = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2025]}, question)
    return analyst.on_topic([f"{c.rstrip('.')} [1]." for c in claims])


def test_a_change_alone_states_no_level():
    asked = f"What was {CO}'s Films segment revenue in fiscal 2025?"
    assert _on_topic(asked, CHANGE) == []
    assert _on_topic(asked, LEVEL) and "$8.21 billion" in _on_topic(asked, LEVEL)[0]
    # with a level beside it, the change may follow it
    assert len(_on_topic(asked, LEVEL, CHANGE)) == 2


def test_a_change_asked_as_a_measure_keeps_its_sentence():
    said = _on_topic(f"What was {CO}'s Films segment revenue increase in fiscal 2025?", CHANGE)
    assert said and "$1.07 billion" in said[0]
