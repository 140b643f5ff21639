"""'What monthly churn rate did Lanternfly disclose for 2025?' asks a figure (the thing disclosed is a measure), so a
page that never states churn gets the declared insufficient answer, never its sentences about prices per month.
'What risks did it disclose?' still asks for the sentences. Lanternfly Media is a fictional filer."""

from __future__ import annotations

from app.models.providers.offline.composer import compose_offline
from app.text.question_kinds import read_ask
from app.turns import Block

_PAGE = """In May 2024, in the U.S., we increased the price of our standard plan from $8.99 per month to $9.99 per month
with existing memberships grandfathered for a two year period. In October 2025, in the U.S., we increased the price of
this same plan from $9.99 per month to $10.99 per month. Paid memberships at the end of 2025 were 61,200 thousand."""


def test_a_measure_disclosed_is_a_figure_asked() -> None:
    assert read_ask("What monthly churn rate did Lanternfly disclose for 2025?").kind == "figure"
    assert read_ask("What operating margin does Lanternfly state for 2025?").kind == "figure"
    assert read_ask("What risks did Lanternfly disclose in 2025?").kind == "list"


def test_an_unstated_rate_is_insufficient_not_a_sentence_about_prices() -> None:
    block = Block(n=1, kind="report", header="[1] Lanternfly Media FY2025, p.17 [text]",
                  source_id="LANTERNFLY_2025_10K:p17", chunk_id="LANTERNFLY_2025_10K:p17::0",
                  company="Lanternfly Media", fiscal_year=2025, page=17, text=_PAGE)
    answer = compose_offline({"question": "What monthly churn rate did Lanternfly Media disclose for 2025?",
                              "companies": ["Lanternfly Media"], "fiscal_years": [2025], "blocks": [block]})
    assert "per month" not in answer and "9.99" not in answer, answer


def test_a_long_measure_reported_is_a_figure_and_strengthen_asks_a_rise() -> None:
    assert read_ask("What average revenue per Cash App monthly active customer did Lanternfly report for 2025?"
                    ).kind == "figure"
    ask = read_ask("For full-year 2025, did Lanternfly's gross margin strengthen relative to 2024?")
    assert ask.kind == "yes_no_change" and ask.direction == 1


def test_more_in_a_later_year_than_an_earlier_asks_a_rise_of_the_thing_taken_in() -> None:
    from app.text.measures import measure_asked

    question = "Did Lanternfly collect more in membership fees in fiscal 2025 than in fiscal 2024?"
    ask = read_ask(question)
    assert ask.kind == "yes_no_change" and ask.direction == 1
    assert measure_asked(question, ["Lanternfly"]).phrase == "membership fees"
    assert read_ask("Did Lanternfly have more than 800 stores in 2025?").kind == "yes_no"
