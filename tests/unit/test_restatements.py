"""Restatements: 'did it restate …' is asked as a mention of a restatement, answered Yes with the sentences that
give its figures; a figure a later filing restates is stated beside the one first reported. Companies and figures
are invented for the tests."""

from __future__ import annotations

from app.evidence import Evidence
from app.models.providers.offline.composer import compose_offline
from app.text.question_kinds import mention_topic, mentioned_phrase
from app.text.terms import stem_in_words
from app.turns import Block
from nodes.inputs import holds_groups, mention_check

CO = "Osprey Telecom"


def block(n: int, text: str, year: int = 2024, page: int | None = None) -> Block:
    source = f"OSPREY_{year}_AR:p{page or n}"
    return Block(n=n, kind="report", header=f"[{n}] {CO} FY{year}, p.{page or n} [text]", source_id=source,
                 chunk_id=f"{source}::{n}", company=CO, fiscal_year=year, page=page or n, text=text)


def test_a_question_whether_figures_were_restated_asks_for_a_mention_of_the_restatement() -> None:
    assert mentioned_phrase("Did Osprey restate any prior-year figures in its 2024 annual report?") == "restatement"
    assert [set(g) for g in mention_topic("Has Osprey restated its segment results?")] == [{"restat"}]
    assert mention_topic("What was restated in Osprey's 2024 report?") == []


def test_restated_is_not_restarted() -> None:
    assert stem_in_words("restat", {"restat"}) and not stem_in_words("restat", {"restart"})
    assert not stem_in_words("restat", {"restaur"}) and stem_in_words("acquisit", {"acquir"})
    assert holds_groups("Comparatives have been restated.", [frozenset({"restat"})])
    assert not holds_groups("Line 2 can be restarted in about four months.", [frozenset({"restat"})])


def test_the_text_search_admits_what_restates_and_not_what_restarts() -> None:
    restated = Evidence(chunk_id="o-p13-1", source_id="OSPREY_2024_AR:p13", company=CO, fiscal_year=2024, page=13,
                        score=0.0, text="We have restated our prepaid subscribers at December 31, 2023.")
    restarted = Evidence(chunk_id="o-p4-0", source_id="OSPREY_2025H1_HY:p4", company=CO, fiscal_year=2025, page=4,
                         score=0.0, text="Line 2 can be restarted in about four months.")
    state = {"question": "Did Osprey restate any prior-year figures?", "companies": [CO], "graded": [], "unheld": {}}
    admitted, unmentioned = mention_check(state, lambda company, groups: [restarted, restated])  # type: ignore[arg-type]
    assert [d.chunk_id for d in admitted] == ["o-p13-1"] and unmentioned == {}
    _, unmentioned = mention_check(state, lambda company, groups: [restarted])  # type: ignore[arg-type]
    assert unmentioned == {CO: ["resta"]}  # nothing restates: the declared No, not the restart


NOTE = ("1 Subscriber counts are at the end of the period. Effective January 1, 2024 we remove prepaid subscribers "
        "after 90 days without a revenue-generating event (previously 180 days). We have restated our prepaid "
        "subscribers at December 31, 2023 on the new basis. As previously reported, prepaid subscribers at "
        "December 31, 2023 were 687,000. The change removed 41,000 inactive prepaid subscribers; 2023 net "
        "additions were not restated. Service revenue grew 3.7% as our postpaid base expanded.")


def test_yes_it_restated_with_the_sentences_that_give_the_restatements_figures() -> None:
    state = {"question": "Did Osprey restate any prior-year figures in its 2024 annual report?", "companies": [CO],
             "blocks": [block(1, "Revenue rose 3.4% to $2,761.0 million."), block(2, NOTE, page=13)]}
    answer = compose_offline(state)
    assert answer.startswith("Yes. We have restated our prepaid subscribers at December 31, 2023 on the new basis "
                             "[2].")
    assert "were 687,000 [2]" in answer and "removed 41,000 inactive prepaid subscribers" in answer
    assert "Service revenue" not in answer  # the paragraph goes on about something else


OLD_TABLE = ("Subscriber results (in thousands) 2023 2022\nPostpaid subscribers 2,528 2,412\n"
             "Prepaid subscribers 687 663\nTotal wireless subscribers 3,215 3,075")
NEW_TABLE = ("Subscriber results (in thousands) 2024 2023 (restated)\nPostpaid subscribers 2,641 2,528\n"
             "Prepaid subscribers 632 646\nTotal wireless subscribers 3,273 3,174")


def test_a_figure_a_later_report_restates_is_stated_beside_the_one_first_reported() -> None:
    state = {"question": "How many prepaid subscribers did Osprey have at the end of 2023?", "companies": [CO],
             "fiscal_years": [2023],
             "blocks": [block(1, OLD_TABLE, year=2023, page=12), block(2, NEW_TABLE, year=2024, page=13)]}
    answer = compose_offline(state)
    assert "646k in FY2023 [2]" in answer
    assert "The FY2023 report had first reported 687k; the FY2024 report restates it [1][2]" in answer
    # the same figure in both reports is no restatement
    postpaid = compose_offline({**state, "question": "How many postpaid subscribers did Osprey have at the end of "
                                                     "2023?"})
    assert "2,528k in FY2023" in postpaid and "first reported" not in postpaid
