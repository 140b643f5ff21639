"""How a question set frames a question ('According to the annual report, … (within the last period or at the
end of the last period)? If data is not available, return 'N/A'') is no words a report writes: the search looks
for the question less its framing (it had searched 'According annual report … within last period end last period'
and missed the page that states the employees). And a part's name joined by '&' or 'and' ('Consumer & Community
Banking', 'Safety and Industrial') is one name, not its last words."""

from __future__ import annotations

from app.text.measures import measure_asked, without_framing
from nodes.rewrite import keyword_query

FRAMED = ("According to the annual report, what is the number of employees for Kestrel Packaging (within the last "
          "period or at the end of the last period)? If data is not available, return 'N/A'")


def test_the_framing_is_left_out_of_what_is_searched():
    assert without_framing(FRAMED) == "what is the number of employees for Kestrel Packaging?"
    query = keyword_query(FRAMED, ["Kestrel Packaging"]).lower()
    assert "employees" in query
    assert not {"according", "annual", "report", "last", "period", "available", "n/a"} & set(query.split())


def test_a_question_without_framing_is_kept_whole():
    asked = "As of FY2023Q1, why did Kestrel Packaging raise full year guidance for FY2023?"
    assert without_framing(asked) == asked  # the lead-in names the period: it stays
    judged = ("What drove operating margin change as of FY2022 for Kestrel? If operating margin is not a useful "
              "metric for a company like this, then please state that and explain why.")
    assert without_framing(judged) == judged  # an instruction that returns nothing is no framing


def test_a_parts_name_joined_by_an_ampersand_or_and_is_whole():
    asked = "What was the total net revenue of Harlow's Consumer & Community Banking segment in Q1 2021?"
    assert measure_asked(asked, ["Harlow"]).segment == "Consumer & Community Banking"
    assert measure_asked("What was Kestrel's Safety and Industrial segment revenue in 2022?",
                         ["Kestrel"]).segment == "Safety and Industrial"
    assert measure_asked("What was Kestrel's Online segment revenue in 2022?", ["Kestrel"]).segment == "Online"


def test_a_name_the_company_went_by_is_no_search_term():
    query = keyword_query("Which tax-filing business did Harbourline (Kestrel) acquire in the fourth quarter of 2020?",
                          ["Kestrel"]).lower()
    assert "harbourline" not in query and "kestrel" not in query and "tax-filing" in query


def test_where_the_answer_stands_is_no_search_term():
    query = keyword_query("On what date did Kestrel complete its acquisition of Fotoline, according to its fiscal "
                          "2015 10-K?", ["Kestrel"]).lower()
    assert "fotoline" in query and not {"according", "10-k"} & set(query.split())
