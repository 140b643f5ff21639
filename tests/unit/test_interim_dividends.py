"""A half-year report's dividend: asked by its verb ('What interim dividend did it declare', 'Did it cut its interim
dividend'), read beside its prior corresponding period ('14 cents per share (pcp: 22 cents)'), and said for the
half it is ('in H1 FY2025'), which the citation check finds in the half-year report that states it.

Every company, page and figure here is made up (Corrimal Sands, a mineral sands miner with a June year end).
"""

from __future__ import annotations

from app.facts.prose import dated_figures
from app.facts.query import read_query
from app.models.providers.offline.composer import compose_offline
from app.turns import Block
from nodes.generate import check_citations

COMPANY = "Corrimal Sands"
TITLE = "CORRIMAL_2025H1_HY"
TEXT = ("Directors' report\nCapital management\nThe Board has declared a fully franked interim dividend of 9 cents per "
        "share (pcp: 12 cents), equal to 40% of underlying net profit after tax.")


def _block() -> Block:
    return Block(n=1, kind="report", header=f"[1] {COMPANY} FY2025, p.4 [text]", source_id=f"{TITLE}:p4",
                 chunk_id=f"{TITLE}:p4::1", company=COMPANY, fiscal_year=2025, page=4, title=TITLE, text=TEXT)


def test_a_brackets_pcp_dates_the_figure_in_it_not_the_one_before() -> None:
    dated = [(f.text, year) for f, year, _ in dated_figures(TEXT, 2025)]
    assert dated[:2] == [("9 cents", 2025), ("12 cents", 2024)]
    # a figure said to be the pcp's is still the year before's
    assert [y for _, y, _ in dated_figures("EBITDA was A$50m in the pcp.", 2025)] == [2024]


def test_the_verb_that_asks_for_a_payout_or_its_cut_is_no_word_of_the_measure() -> None:
    for question in (f"What interim dividend did {COMPANY} declare for H1 FY2025?",
                     f"Did {COMPANY} cut its interim dividend in H1 FY2025?",
                     f"What final dividend did {COMPANY} propose for FY2025?"):
        phrase = read_query(question, [COMPANY], [2025]).measure.phrase
        assert phrase in ("interim dividend", "final dividend"), (question, phrase)
    assert read_query(f"How many job cuts did {COMPANY} announce?", [COMPANY]).measure.count_noun == "job cuts"


def test_a_half_year_reports_dividend_is_said_for_its_half_and_passes_the_citation_check() -> None:
    question = f"What interim dividend did {COMPANY} declare for H1 FY2025?"
    state = {"question": question, "companies": [COMPANY], "fiscal_years": [2025], "blocks": [_block()]}
    answer = compose_offline(state)
    assert answer.startswith(f"{COMPANY}' interim dividend was 9c in H1 FY2025 [1]"), answer
    kept, check = check_citations(answer, [_block()], question, [2025])
    assert kept and kept[0].startswith(f"{COMPANY}' interim dividend was 9c in H1 FY2025"), check.flagged
    changed = compose_offline({**state, "question": f"Did {COMPANY} cut its interim dividend in H1 FY2025?"})
    assert changed.startswith(f"Yes. {COMPANY}' interim dividend fell from 12c in H1 FY2024 to 9c in H1 FY2025"), \
        changed


def test_whether_a_payout_goes_on_is_answered_by_the_sentence_that_stops_or_keeps_it() -> None:
    stopped = ("On February 8, 2025, the Company announced that its Board of Directors had determined to suspend our "
               "ongoing regular dividends in order to focus on share repurchases.")
    block = Block(n=1, kind="report", header=f"[1] {COMPANY} FY2024, p.5 [text]", source_id="CORRIMAL_2024Q4:p5",
                  chunk_id="CORRIMAL_2024Q4:p5::1", company=COMPANY, fiscal_year=2024, page=5, text=stopped)
    question = (f"Alongside its fourth-quarter 2024 results, did {COMPANY} say it would keep paying its regular "
                "dividend?")
    answer = compose_offline({"question": question, "companies": [COMPANY], "fiscal_years": [2024], "blocks": [block]})
    assert answer.startswith("No. On February 8, 2025, the Company announced"), answer
    kept = block.model_copy(update={"text": "The Board maintained its regular quarterly dividend of 9 cents."})
    answer = compose_offline({"question": question, "companies": [COMPANY], "fiscal_years": [2024], "blocks": [kept]})
    assert answer.startswith("Yes. The Board maintained its regular quarterly dividend"), answer
    # a sentence tied to the one before ('Furthermore, …') is stated on its own after the 'No.'
    tied = block.model_copy(update={"text": "The Board authorized a buyback. Furthermore, the Board had determined "
                                            "to suspend our ongoing regular dividends."})
    answer = compose_offline({"question": question, "companies": [COMPANY], "fiscal_years": [2024], "blocks": [tied]})
    assert answer.startswith("No. The Board had determined to suspend our ongoing regular dividends [1]."), answer
