"""A count a report hedges ('We employed approximately 41,200 people') answers 'How many people did X employ?':
the word between verb and noun is the hedge, not another measure, and the answer keeps it ('approximately
41,200'), as the sentence says it. Every company and figure here is made up (Kestrel Packaging)."""

from __future__ import annotations

from app.models.providers.offline.composer.analyst import Analyst
from app.text.question_kinds import read_ask
from app.turns import Block

CO = "Kestrel Packaging"
SAID = ("We employed approximately 41,200 people worldwide as of December 31, 2024, including approximately "
        "12,900 people within the United States.")


def _answer(question: str, text: str) -> list[str]:
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024, p.12 [text]", text=text,
                  source_id="KESTREL_2024_10K", chunk_id="KESTREL_2024_10K:p12::0", company=CO, fiscal_year=2024,
                  page=12)
    return Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024]}, question).figure_answer()


def test_a_hedged_count_answers_and_keeps_its_hedge():
    said = _answer(f"How many people did {CO} employ at the end of 2024?", SAID)
    assert said and "approximately 41,200" in said[0]


def test_a_plain_count_is_stated_plainly():
    said = _answer(f"How many people did {CO} employ at the end of 2024?",
                   "We employed 41,200 people worldwide as of December 31, 2024.")
    assert said and "41,200" in said[0] and "approximately" not in said[0]


def test_which_of_a_companys_parts_had_the_higher_figure_ranks_its_breakdown():
    assert read_ask(f"Which {CO} segment had the higher net sales in fiscal 2024?").kind == "extreme"
    assert read_ask(f"Which of its regions had lower sales in fiscal 2024?").extreme == -1
    # two companies, or two parts named, are compared, not ranked
    assert read_ask(f"Which company had higher revenue in 2024, {CO} or Harlow Pharma?").kind == "change"
    assert read_ask("Which segment had higher sales, Films or Rigid Containers?").kind == "change"


QUALIFIED = ("EMPLOYEES As of December 31, 2024, we had approximately 35,000 full- and part-time employees. "
             "We review pay every year.")


def test_people_employed_are_answered_by_the_employees_a_report_counts():
    # 'people' asked, 'employees' stated, three words of qualification between the number and the noun
    said = _answer(f"Roughly how many people did {CO} employ at the end of fiscal 2024?", QUALIFIED)
    assert said and said[0].startswith(f"{CO}'s number of people employed was approximately 35,000"), said
    # a qualified headcount asked is not answered by all employees
    assert not _answer(f"How many union employees did {CO} have at the end of 2024?", QUALIFIED)


def test_a_count_qualified_by_three_words_is_found_and_stated():
    from app.knowledge.search import count_chunks, counted_stems
    from app.text.measures import states_count

    rows = {"a": {"text": QUALIFIED}, "b": {"text": "Employee stock options 2024 were granted to employees."}}
    assert count_chunks([("b", 2.0), ("a", 1.0)], rows, counted_stems("total employees end 2024")) == [("a", 1.0)]
    assert states_count(f"How many employees did {CO} have at the end of 2024?", QUALIFIED, [CO])


def test_a_share_of_the_people_counted_is_no_count_of_them():
    from app.knowledge.search import count_chunks, counted_stems

    rows = {"survey": {"text": "In 2025, 92 percent of colleagues who participated in the survey said they would "
                               "recommend us as a great place to work."},
            "count": {"text": "As of December 31, 2025, we employed approximately 77,300 people, whom we refer to as "
                              "colleagues."}}
    assert count_chunks([("survey", 2.0), ("count", 1.0)], rows, counted_stems("people employ year-end 2025")) == [
        ("count", 1.0)]


def test_the_chunk_that_states_the_count_stands_for_its_page():
    from app.knowledge.pages import PageScore, chunk_order, stating_first

    pages = [PageScore(key=("AMEX_2025_10K:p9", 9), score=1.0, chunk_ids=["p9::2", "p9::0"]),
             PageScore(key=("AMEX_2025_10K:p5", 5), score=0.9, chunk_ids=["p5::1"])]
    assert chunk_order(stating_first(pages, {"p9::0"})) == ["p9::0", "p5::1", "p9::2"]
    assert chunk_order(stating_first(pages, set())) == ["p9::2", "p5::1", "p9::0"]


def test_a_segment_asked_has_its_breakdown_row_searched_when_the_chunk_names_its_measure():
    from app.knowledge.search import segment_asked, segment_row_chunks
    from app.text.measures import measure_asked

    asked = segment_asked(measure_asked("operating income Industrial business segment earn full-year 2025",
                                        ["Ternline"]))
    assert asked is not None and asked[0] == "Industrial"
    assert segment_asked(measure_asked("net sales Europe 2025", ["Ternline"]), ["Europe"]) is None  # (the regions')
    rows = {"note": {"text": "Business Segment Information\nNet Sales\nOperating Income\n(Millions)\n2025\n2024\n"
                             "Industrial\n$\n12,267\n$\n2,737"},
            "staff": {"text": "Employees by segment\nIndustrial 23,000\nConsumer 9,000"},
            "prose": {"text": "Demand was strong for the Industrial business, which grew its operating income."}}
    found = segment_row_chunks([("prose", 3.0), ("staff", 2.0), ("note", 1.0)], rows, *asked)
    assert found == [("note", 1.0)]
