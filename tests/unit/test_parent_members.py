"""A ranking within one part of a company ('Which of Ternline's North America Retail operating units grew net
sales fastest in fiscal 2024?'): the part is read whole from the question, the kind of member ranked is the
units, 'grew … fastest' ranks changes, the members are the rows of the table whose title names the part (not
the segments beside it, nor the part itself), and a member's 'U.S.' does not end the answer's sentence.

Every company, page and figure here is made up (Ternline, a freight and foods group).
"""

from __future__ import annotations

from app.facts.query import member_facts, read_query
from app.facts.members import within_parent
from app.evidence import Evidence
from app.models.providers.offline.composer.analyst import Analyst
from app.text.question_kinds import member_noun, read_ask
from app.text.sentences import split_answer
from app.turns import Block

COMPANY = "Ternline"
QUESTION = "Which of Ternline's North America Retail operating units grew net sales fastest in fiscal 2024?"
SEGMENTS = ("Our operating segment results were as follows:\nFiscal Year\nIn Millions 2024 2023 2022\nNet sales:\n"
            "North America Retail $ 10,750.5 $ 9,925.2 $ 10,115.4\nEurope & Australia 1,838.9 1,886.7 1,984.6\n"
            "Pet 1,694.6 1,230.9 1,100.0\nTotal $ 14,284.0 $ 13,042.8 $ 13,200.0")
UNITS = ("Net sales for our North America Retail operating units were as follows:\nFiscal Year\n"
         "In Millions 2024 2023 2022\nU.S. Meals & Baking $ 4,408.5 $ 3,839.8 $ 3,865.7\n"
         "U.S. Cereal 2,434.1 2,255.4 2,251.8\nU.S. Snacks 2,091.9 2,060.9 2,140.5\n"
         "U.S. Yogurt and other 919.0 906.7 927.4\nCanada 897.0 862.4 930.0\nTotal $ 10,750.5 $ 9,925.2 $ 10,115.4")


def test_the_part_the_kind_and_the_change_are_read_from_the_question() -> None:
    query = read_query(QUESTION, [COMPANY])
    assert query.measure.segment == "North America Retail" and query.measure.phrase == "net sales"
    assert member_noun(QUESTION) == "units"
    ask = read_ask(QUESTION)
    assert ask.kind == "extreme" and ask.of_change and ask.extreme == 1
    assert read_ask("Which segment had the most revenue in 2024?").of_change is False
    # the growth of a measure of two words, ranked by 'strongest' or 'highest'
    assert read_ask("Which of Ternline's reportable segments had the strongest pretax income growth in 2024?").of_change
    assert read_ask("Which region had the highest net sales growth in 2024?").of_change
    assert read_ask("Which region had the highest net sales in 2024?").of_change is False


def _ev(text: str, n: int) -> Evidence:
    return Evidence(source_id="TERNLINE_2024_10K:p90", chunk_id=f"TERNLINE_2024_10K:p90::abc::{n}", text=text,
                    company=COMPANY, fiscal_year=2024, title="TERNLINE_2024_10K", page=90, doc_type="report")


def test_the_members_are_those_of_the_table_titled_by_the_part() -> None:
    query = read_query(QUESTION, [COMPANY])
    members = member_facts(query, [_ev(SEGMENTS, 0), _ev(UNITS, 1)], [COMPANY])
    kept = {f.segment for f in within_parent(members, query.measure.segment, lambda f: f.segment or "",
                                             lambda f: f.context)}
    assert kept == {"U.S. Meals & Baking", "U.S. Cereal", "U.S. Snacks", "U.S. Yogurt and other", "Canada"}
    # no part named, or none that titles a table: every member
    assert within_parent(members, None, lambda f: f.segment or "", lambda f: f.context) == members
    assert within_parent(members, "Pet", lambda f: f.segment or "", lambda f: f.context) == members


def test_the_ranking_names_the_fastest_unit_with_its_us() -> None:
    blocks = [Block(n=n, kind="report", header=f"[{n}] {COMPANY} FY2024 p.90", text=text,
                    source_id="TERNLINE_2024_10K:p90", chunk_id=f"TERNLINE_2024_10K:p90::abc::{n}", company=COMPANY,
                    fiscal_year=2024, page=90) for n, text in ((1, SEGMENTS), (2, UNITS))]
    answer = " ".join(Analyst({"blocks": blocks, "companies": [COMPANY], "fiscal_years": [2024]},
                              QUESTION).sentences())
    assert answer.startswith("U.S. Meals & Baking rose most"), answer
    assert "Pet" not in answer, answer
    assert split_answer("U.S. Meals & Baking rose most [2]. The others: U.S. Cereal 7.9%; Canada 4% [2].") == [
        "U.S. Meals & Baking rose most [2].", "The others: U.S. Cereal 7.9%; Canada 4% [2]."]
