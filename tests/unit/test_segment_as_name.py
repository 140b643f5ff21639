"""A capitalised name before a measure is read as a segment ('the Flexibles net sales'), unless nothing is found for
it as one and a row names both: "Ternline's Loyalty Partner rewards expense" is the 'Loyalty Partner rewards' line
of its expenses table. Every company and figure here is made up."""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import read_query, segment_read_as_name
from app.models.providers.offline.composer.analyst import Analyst
from app.turns import Block

CO = "Ternline"
EXPENSES = ("Table 5: Expenses\nYears Ended December 31,\n(Millions) 2024 2023 2022\n"
            "Marketing $ 1,458 $ 1,291 $ 1,096\nLoyalty Partner rewards 4,002 3,107 2,041\n"
            "Salaries and employee benefits 2,252 2,040 1,918\nTotal expenses $ 7,712 $ 6,438 $ 5,055")


def _ev(text: str) -> Evidence:
    return Evidence(source_id="TERNLINE_2024_10K:p48", chunk_id="TERNLINE_2024_10K:p48::0", text=text, company=CO,
                    fiscal_year=2024, title="TERNLINE_2024_10K", page=48)


def test_a_name_nothing_is_found_for_as_a_segment_is_read_as_part_of_the_line_item() -> None:
    question = f"By how much did {CO}'s Loyalty Partner rewards expense rise in 2024 versus 2023?"
    query = read_query(question, [CO], [2024, 2023])
    assert query.measure.segment == "Loyalty Partner"  # as the question alone reads
    named = segment_read_as_name(query, question, [_ev(EXPENSES)], [CO])
    assert named.measure.segment is None and named.measure.phrase == "Loyalty Partner rewards expense"


def test_a_segment_the_question_calls_one_stays_a_segment() -> None:
    question = f"What was {CO}'s Loyalty Partner segment revenue in 2024?"
    query = read_query(question, [CO], [2024])
    assert segment_read_as_name(query, question, [_ev(EXPENSES)], [CO]) == query


def test_the_change_of_the_line_item_is_answered_in_amount_and_per_cent() -> None:
    question = f"By how much did {CO}'s Loyalty Partner rewards expense rise in 2024 versus 2023?"
    block = Block(n=1, kind="report", header=f"[1] {CO} FY2024, p.48 [table]", text=EXPENSES,
                  source_id="TERNLINE_2024_10K:p48", chunk_id="TERNLINE_2024_10K:p48::0", company=CO,
                  fiscal_year=2024, page=48)
    said = Analyst({"blocks": [block], "companies": [CO], "fiscal_years": [2024, 2023]}, question).change_answer()
    assert said and said[0].startswith(f"{CO}'s Loyalty Partner rewards expense rose from $3,107m in FY2023 to "
                                       "$4,002m in FY2024"), said


def test_a_measure_asked_in_no_plain_words_is_named_as_its_sentence_names_it() -> None:
    from app.calc_tools import Figure
    from app.facts.query import Fact

    question = (f"How did {CO}'s global streaming average monthly revenue per paying subscriber in 2024 compare "
                "with 2023?")
    figure = Figure(label="global streaming average monthly revenue per paying subscriber", value=8.15, unit="$",
                    company=CO, fiscal_year=2024, source_id="TERNLINE_2024_10K:p19", quote="…")
    analyst = Analyst({"blocks": [], "companies": [CO], "fiscal_years": [2024, 2023]}, question)
    said = analyst.subject(Fact(figure=figure, origin="text", match=1.0))
    assert said == f"{CO}'s global streaming average monthly revenue per paying subscriber", said
