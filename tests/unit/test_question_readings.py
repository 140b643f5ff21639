"""How a question's wording is read: a metric named before its subject, a rate's change asked in points, two
companies' growth compared, 'any' and words a report may join ('buy back' / 'buyback') in grading, and a
comparison of two companies that nothing answers.

Every company and figure here is made up (Ternline and Osprey).
"""

from __future__ import annotations

import pytest

from app.evidence import Evidence
from app.facts.prose import measure_kind
from app.models.providers.offline.composer import compose_offline
from app.models.providers.offline.grader import OfflineGrader, joined_pairs, term_overlap
from app.text.measures import how_many_points, measure_asked
from app.text.question_kinds import read_ask
from app.text.terms import topic_terms
from app.turns import Block

COMPANIES = ["Ternline", "Osprey Engineering"]


@pytest.mark.parametrize("question, phrase, segment", [
    # a metric of the catalogue before 'did <subject> <verb>': whose it is and the verb are no part of it
    ("What payout ratio did Ternline's FY2024 dividend represent?", "payout ratio", None),
    ("What operating margin did Ternline's Crisps segment achieve in FY2024?", "operating margin", "Crisps"),
    # no metric before the verb: the subject is the measure
    ("What percentage did revenue grow in 2024?", "percentage revenue", None),
])
def test_a_metric_named_before_its_subject_is_the_measure(question: str, phrase: str, segment: str | None) -> None:
    asked = measure_asked(question, COMPANIES)
    assert (asked.phrase, asked.segment) == (phrase, segment)


def test_how_many_points_asks_a_rates_change_not_a_count() -> None:
    question = "By how many percentage points did the operating margin of Ternline's Crisps segment improve in FY2024?"
    assert how_many_points(question)
    assert not how_many_points("How many points of sale did Ternline open?")  # a count of things
    asked = measure_asked(question, COMPANIES)
    assert (asked.phrase, asked.segment, asked.count_noun) == ("operating margin", "Crisps", "")
    assert measure_kind(asked.stems, question) == "percent"
    assert read_ask(question).kind == "change"


@pytest.mark.parametrize("question, phrase", [
    ("Whose operating profit grew faster in FY2024, Ternline's or Osprey's?", "operating profit growth"),
    ("Which company grew revenue faster in FY2024, Ternline or Osprey?", "revenue growth"),
    ("Whose revenue was higher in 2024?", "revenue"),
])
def test_two_companies_compared_by_whose_or_a_faster_growth(question: str, phrase: str) -> None:
    assert read_ask(question).kind == "change"
    asked = measure_asked(question, COMPANIES)
    assert (asked.phrase, asked.segment) == (phrase, None)
    # 'who' asked of a person is no segment either
    assert measure_asked("Who replaced Dana Whitcombe as CEO?", COMPANIES).segment is None


def test_grading_counts_words_a_report_joins_and_leaves_any_out() -> None:
    question = "Did Ternline buy back any of its own shares in FY2024?"
    topic = topic_terms(question, COMPANIES)
    assert "ani" not in topic and {"buy", "back", "share"} <= topic
    text = "In addition, we returned £10.0m to shareholders through a share buyback completed in the second half."
    assert term_overlap(topic, text, joined_pairs(question)) > term_overlap(topic, text)
    doc = Evidence(chunk_id="t::1", source_id="t", text=text, company="Ternline", fiscal_year=2024, score=0.02)
    assert OfflineGrader().grade(question, doc, ["Ternline"])
    assert not OfflineGrader().grade(question, doc.model_copy(update={"text": "Revenue rose 4.9% to £1.3bn."}),
                                     ["Ternline"])


def test_a_comparison_of_two_companies_is_not_answered_by_a_claim_about_one() -> None:
    from app.evidence import Claim, RetrievalResult

    text = "Crisps revenue rose 12.4% to £437.2m and operating profit increased 16.1% to £48.3m."
    block = Block(n=1, kind="report", header="[1] Ternline FY2024", text=text, source_id="t", chunk_id="t::1",
                  company="Ternline", fiscal_year=2024)
    claim = Claim(text=text, evidence_chunk_ids=["t::1"], company="Ternline", verified=True)
    state = {"question": "Whose operating profit grew faster in FY2024, Ternline's or Osprey's?",
             "companies": COMPANIES, "fiscal_years": [2024], "blocks": [block],
             "retrieval_result": RetrievalResult(status="found", claims=[claim])}
    assert compose_offline(state).startswith("Insufficient evidence")
    state["question"], state["companies"] = "What was Ternline's operating profit growth in FY2024?", ["Ternline"]
    assert not compose_offline(state).startswith("Insufficient evidence")


@pytest.mark.parametrize("question, kind", [
    ("How much higher was Ternline's FY2024 dividend payout ratio than Osprey's?", "percent"),
    ("What payout ratio did Ternline's dividend represent?", "percent"),
    ("How much did Ternline pay in dividends in FY2024?", "money"),
    ("How much higher was Ternline's revenue than Osprey's?", "any"),
])
def test_how_much_higher_asks_the_size_of_a_difference_in_the_measures_own_kind(question: str, kind: str) -> None:
    assert measure_kind(measure_asked(question, COMPANIES).stems, question) == kind
