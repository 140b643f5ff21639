"""A growth asked by name ('comparable sales growth') that the report states as a rise ('Comparable sales
increased 15.6%'), and a count asked with its verb ('How many stores did it open'). Companies and figures are
invented."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.turns import Block


def _state(question: str, text: str) -> dict:
    block = Block(n=1, kind="report", header="[1] Larchmont Beauty FY2024, p.1 [text]", source_id="lb-1",
                  chunk_id="lb-1", company="Larchmont Beauty", fiscal_year=2024, page=1, text=text)
    return {"question": question, "companies": ["Larchmont Beauty"], "fiscal_years": [2024], "blocks": [block]}


def test_a_growth_asked_by_name_is_the_per_cent_the_report_says_it_rose_by() -> None:
    text = "For the full year, comparable sales increased 6.4% and net sales rose to $4.1 billion."
    answer = compose_offline(_state("What was Larchmont Beauty's comparable sales growth in FY2024?", text))
    assert answer.startswith("Larchmont Beauty's comparable sales growth was 6.4% in FY2024 [1]"), answer


def test_a_per_cent_that_states_no_change_is_no_growth() -> None:
    text = "Comparable sales were 6.4% of net sales, which were $4.1 billion."
    answer = compose_offline(_state("What was Larchmont Beauty's comparable sales growth in FY2024?", text))
    assert "growth was 6.4%" not in answer, answer


def test_a_count_asked_with_its_verb_names_what_was_done() -> None:
    text = "During the year the Company opened 52 new stores and closed 9, ending the year with 1,410 stores."
    answer = compose_offline(_state("How many stores did Larchmont Beauty open in FY2024?", text))
    assert answer.startswith("Larchmont Beauty's number of stores opened was 52 in FY2024 [1]"), answer


def test_the_verb_of_a_count_is_the_one_after_its_subject() -> None:
    text = "The Company's subsidiaries operate 41 manufacturing facilities occupying approximately 3.2 million square feet."
    answer = compose_offline(_state("How many manufacturing facilities did Larchmont Beauty's subsidiaries operate "
                                    "according to its 2024 annual report?", text))
    assert answer.startswith("Larchmont Beauty's number of manufacturing facilities operated was 41 in FY2024 [1]"), \
        answer
    text = "At March 31, 2024 the Group employed 7,842 people on a consolidated basis."
    answer = compose_offline(_state("How many people did Larchmont Beauty employ on a consolidated basis at the end "
                                    "of March 2024?", text))  # not 'basised'
    assert answer.startswith("Larchmont Beauty's number of people employed was 7,842 in FY2024 [1]"), answer
    text = "The Company opened 52 new stores and closed 9 stores during the year."
    answer = compose_offline(_state("How many stores did Larchmont Beauty open and close in FY2024?", text))
    assert "opened was" not in answer and "52" in answer, answer


def test_cash_and_cash_equivalents_are_money_not_a_count_of_equivalents() -> None:
    from app.facts.query import read_query

    assert read_query("Did Larchmont Beauty's cash and cash equivalents increase in FY2024?").kind != "count"
    assert read_query("How many full-time equivalents did Larchmont Beauty employ in FY2024?").kind == "count"


def test_a_balance_read_in_a_quarterly_report_is_said_at_its_date() -> None:
    """A 10-Q's balance sheet stands at its quarter's end: 'at 30 June 2025', never 'at the end of FY2025'."""
    text = ("Condensed Consolidated Balance Sheets\n(In thousands)\nJune 30, 2025 December 31, 2024\n"
            "Cash and cash equivalents $ 3,843,366 $ 5,911,893\nTotal current assets 6,120,400 8,010,300\n")
    block = Block(n=1, kind="report", header="[1] Larchmont Beauty FY2025 Q2, p.2", source_id="LARCHMONT_2025Q2_10Q:p2",
                  chunk_id="LARCHMONT_2025Q2_10Q:p2::0", company="Larchmont Beauty", fiscal_year=2025, page=2,
                  text=text)
    state = {"question": "According to Larchmont Beauty's 10-Q, how much cash and cash equivalents does the company "
                         "hold?", "companies": ["Larchmont Beauty"], "fiscal_years": [], "blocks": [block]}
    answer = compose_offline(state)
    assert answer.startswith("Larchmont Beauty's cash and cash equivalents were $3,843,366k at 30 June 2025 [1]"), \
        answer
