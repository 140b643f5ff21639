"""Yes/no, change and role questions answered from a company's own sentences, offline: the verb that only says a
thing was done ('make any acquisitions'), job cuts worded as a smaller workforce, a result's sign as the sentence
states it, a headcount asked in one word, and the grader admitting a passage that spells out or rewords what is
asked ('CEO': 'Chief Executive Officer'; 'auditor': 'audited'). Companies and figures are invented."""

from __future__ import annotations

import pytest

from app.evidence import Evidence
from app.models.providers.offline.composer import compose_offline
from app.models.providers.offline.grader import OfflineGrader
from app.turns import Block

ACQUIRED = ("On March 3, 2024, Kestrel completed the acquisition of Fenmoor Ltd, a maker of industrial valves, for "
            "$425 million in cash.")
CUTS = ("In 2024 we reduced our workforce by approximately 600 positions as part of a restructuring plan announced "
        "in February 2024.")
RESULT = "Kestrel reported a net loss of $45 million in 2024, compared with net income of $312 million in 2023."
STAFF = ("We had approximately 12,400 employees at December 31, 2024, compared with approximately 11,900 at "
         "December 31, 2023.")


def answer(question: str, text: str, years: list[int]) -> str:
    block = Block(n=1, kind="report", header="[1] Kestrel FY2024, p.4 [text]", source_id="KESTREL_2024_10K:p4",
                  chunk_id="k-4", company="Kestrel", fiscal_year=2024, page=4, text=text)
    return compose_offline({"question": question, "companies": ["Kestrel"], "fiscal_years": years,
                            "blocks": [block]})


@pytest.mark.parametrize("question, text, years, opening", [
    ("Did Kestrel make any acquisitions in 2024?", ACQUIRED, [2024], "Yes. On March 3, 2024, Kestrel completed"),
    ("Did Kestrel announce any layoffs in 2024?", CUTS, [2024], "Yes. In 2024 we reduced our workforce"),
    # a payout's recipients are no word its sentence must say
    # a bar set 'or more' is met by 'at least'; 'any single customer' asks of customers; 'account for' is 'represent'
    ("Did any single customer account for 10% or more of Kestrel's net revenue in 2024?",
     "For fiscal 2024, 2023 and 2022 there were no customers that represented at least 10% of net revenue.", [2024],
     "No. For fiscal 2024, 2023 and 2022 there were no customers"),
    # 'by the end of fiscal 2024' says when; a bullet's mark is no part of the sentence stated
    ("Had Kestrel closed the sale of Fenmoor's operations by the end of fiscal 2024?",
     "• Closed on the sale of the operations of Fenmoor for $1.1 billion in cash", [2024],
     "Yes. Closed on the sale of the operations of Fenmoor"),
    ("Did Kestrel pay any cash dividends to its shareholders in 2024?",
     "We have not declared or paid any cash dividends, and we have no present intention of paying any.", [2024],
     "No. We have not declared or paid any cash dividends"),
    ("Was Kestrel profitable in 2024?", RESULT, [2024], "No. Kestrel posted a net loss of $45m in FY2024"),
    ("Was Kestrel profitable in 2023?", RESULT, [2023], "Yes. Kestrel posted a net profit of $312m in FY2023"),
    ("What was the change in Kestrel's headcount from 2023 to 2024?", STAFF, [2023, 2024],
     "Kestrel's headcount rose from 11,900 in FY2023 to 12,400 in FY2024"),
])
def test_a_question_answered_from_the_companys_own_sentence(question: str, text: str, years: list[int],
                                                            opening: str) -> None:
    said = answer(question, text, years)
    assert said.startswith(opening), said


@pytest.mark.parametrize("question, text", [
    ("Who is Kestrel's CEO?", "Jane Doe has served as our President and Chief Executive Officer since 2021."),
    ("Who is Kestrel's auditor?", "Ernst & Young LLP has audited the consolidated financial statements of Kestrel."),
    ("Did Kestrel announce any layoffs in 2024?", CUTS),
])
def test_the_grader_admits_a_passage_that_spells_out_or_rewords_what_is_asked(question: str, text: str) -> None:
    evidence = Evidence(chunk_id="k-9", source_id="KESTREL_2024_10K:p9", company="Kestrel", fiscal_year=2024,
                        page=9, text=text, score=0.02)
    assert OfflineGrader().grade(question, evidence, ["Kestrel"])


def test_the_grader_still_refuses_a_passage_on_something_else() -> None:
    evidence = Evidence(chunk_id="k-8", source_id="KESTREL_2024_10K:p8", company="Kestrel", fiscal_year=2024,
                        page=8, text="Our distribution centres in Ohio and Texas were expanded during the year.",
                        score=0.02)
    assert not OfflineGrader().grade("Who is Kestrel's CEO?", evidence, ["Kestrel"])


@pytest.mark.parametrize("question", ["How much did Kestrel pay for Fenmoor?", "What did Kestrel pay for Fenmoor?"])
def test_what_was_paid_for_a_business_is_what_it_cost_to_acquire(question: str) -> None:
    """'pay for Fenmoor': 'completed the acquisition of Fenmoor Ltd … for $425 million in cash' states it."""
    said = answer(question, ACQUIRED, [])
    assert said.startswith("$425m") and "Fenmoor" in said, said


def test_when_a_question_that_is_no_yes_no_names_the_year_end_its_sentence_is_the_one_that_says_so() -> None:
    text = ("Storage represents a rising share of new orders, at 34% of contract value signed in FY2024. We signed "
            "$1.2bn of new contracts during the year, and our contracted backlog at year end was $1.58bn (FY2023: "
            "$1.32bn).")
    said = answer("How large was Kestrel's contracted backlog at the end of FY2024?", text, [2024])
    # 'how large' asks a figure: the year end's, with the sentence that says so quoted
    assert said.startswith("Kestrel's backlog was $1.58bn in FY2024 [1]. The report says: \"We signed $1.2bn of new "
                           "contracts during the year, and our contracted backlog at year end was $1.58bn"), said
