"""Questions about a business a company bought, which reports and news name in passing or by a short name:
'How much goodwill did Ternline provisionally recognise on the Fenmoor Cold Storage acquisition?', 'Where are
Fenmoor's sites?', 'When did it announce the order, and what is it worth?', 'How much did it pay for Fenmoor?'.

Every company and figure here is made up (Ternline, Fenmoor, Redmesa).
"""

from __future__ import annotations

from app.evidence import Evidence
from app.facts.query import answering_facts, facts_for, is_loose, read_query
from app.models.providers.offline.composer import compose_offline
from app.models.providers.offline.composer.news import news_sentences, other_names
from app.text.question_kinds import read_ask
from app.turns import Block

COMPANY = "Ternline"

ACCOUNTING = """Ternline Group — Annual Report FY2024 — Acquisition accounting
Fenmoor was acquired for a cash consideration of £42.5m on a cash-free, debt-free basis. Provisional goodwill of £17.3m and acquired customer relationships of £8.4m have been recognised. Fenmoor's annualised revenue is approximately £29m."""

WAREHOUSING = """Ternline Group — Annual Report FY2024 — Contract Warehousing
Fenmoor Cold Storage, a chilled warehousing business, joined the Group on 1 July 2024 for an enterprise value of £42.5m, giving us capacity in the east of England. Fenmoor contributed £14.6m of revenue in the six months after completion. Its three sites at Spalding, Peterborough and Wisbech add 110,000 square metres of storage."""

CASH_FLOW = """Ternline Group — Annual Report FY2024 — Cash flow statement
| £m | FY2024 |
|---|---|
| Cash generated from operations | 147.0 |
| Acquisition of Fenmoor Cold Storage | (42.5) |"""


def _ev(text: str, n: int) -> Evidence:
    return Evidence(source_id="ternline-fy2024.md", chunk_id=f"ternline-fy2024.md::x::{n}", text=text,
                    company=COMPANY, fiscal_year=2024, title="Ternline Group — Annual Report FY2024",
                    section=text.splitlines()[0].rsplit(" — ", 1)[-1], doc_type="report")


def _block(n: int, text: str, kind: str = "report", **extra: str) -> Block:
    return Block(n=n, kind=kind, header=f"[{n}] Ternline", text=text, source_id=f"s{n}",
                 chunk_id=f"ternline-fy2024.md::x::{n}", company=COMPANY, fiscal_year=2024, **extra)


GOODWILL = "How much goodwill did Ternline provisionally recognise on the Fenmoor Cold Storage acquisition?"


def test_a_figure_is_found_by_the_measure_without_the_names_the_question_adds() -> None:
    query = read_query(GOODWILL, [COMPANY])
    chosen = answering_facts(read_ask(GOODWILL), query, facts_for(query, [_ev(ACCOUNTING, 1)], [COMPANY]), [COMPANY])
    assert chosen[0].figure.value == 17.3  # not the £8.4m of customer relationships beside it
    # its unit's letter is no word after it: '£17.3m and acquired …' is no rounded figure
    assert not is_loose(chosen[0])


def test_the_answer_states_the_sentence_that_goes_on_from_the_one_naming_the_business() -> None:
    state = {"question": GOODWILL, "companies": [COMPANY], "blocks": [_block(1, ACCOUNTING)]}
    answer = compose_offline(state)
    assert answer.startswith("£17.3m in FY2024") and "Provisional goodwill of £17.3m" in answer
    # a sentence naming another business is no answer about Fenmoor
    other = ACCOUNTING.replace("Fenmoor was", "Harbourside was").replace("Fenmoor's", "Harbourside's")
    assert "17.3" not in compose_offline({**state, "blocks": [_block(1, other)]})


def test_a_price_paid_is_the_cash_flow_rows_outflow_as_a_positive_amount() -> None:
    question = "How much did Ternline pay for Fenmoor Cold Storage?"
    query = read_query(question, [COMPANY])
    chosen = answering_facts(read_ask(question), query, facts_for(query, [_ev(CASH_FLOW, 1)], [COMPANY]), [COMPANY])
    assert chosen[0].figure.value == 42.5


def test_a_list_sentence_that_points_back_with_its_is_about_the_business_named_before() -> None:
    state = {"question": "Where are Fenmoor Cold Storage's sites?", "companies": [COMPANY],
             "blocks": [_block(1, WAREHOUSING)]}
    answer = compose_offline(state)
    # the sentence that names the sites leads, not the one that names Fenmoor in full and no site
    assert answer.startswith("Its three sites at Spalding, Peterborough and Wisbech")


REDMESA = ("Ternline has been selected by Redmesa Electric to build a 400 MWh storage system. The contract is valued "
           "at approximately $165m. Construction starts in the autumn.")
OLDER = "Ternline first-half revenue rose 13.3%, and storage orders accelerated across the region."


def test_news_answers_each_part_in_its_first_sentence_from_the_item_that_names_what_was_asked() -> None:
    question = "When did Ternline announce the Redmesa Electric storage order, and what is it worth?"
    assert other_names(question, [COMPANY]) == ["Redmesa Electric"]
    news = [_block(1, REDMESA, "news", title="Ternline wins Redmesa storage contract", published_at="2025-06-17"),
            _block(2, OLDER, "news", title="Ternline first-half revenue up 13.3%; storage orders accelerate",
                   published_at="2023-08-03")]
    said = news_sentences(question, news)
    # the first sentence answers both parts: the day, and the value the item states after its lead
    assert said[0].startswith("2025-06-17: Ternline has been selected by Redmesa Electric")
    assert "storage system; the contract is valued at approximately $165m [1]" in said[0]
    # of one item, the one that names what was asked
    assert news_sentences(question, news, limit=1)[0].startswith("2025-06-17: ")


SEGMENTS = """Ternline Group — Annual Report FY2024 — Fundamentals of the Group
Segments
The Group is managed in three segments. Industrial Drives supplies gearboxes for heavy industry. Mobility Solutions develops traction gearboxes for rail vehicles. Service comprises spare parts, repairs and retrofits.
Sites
At 31 December 2024 the Group operated 19 production sites."""


def test_a_counted_list_is_answered_by_the_count_and_the_sentences_that_name_each_item() -> None:
    state = {"question": "What are Ternline's reportable segments?", "companies": [COMPANY],
             "blocks": [_block(1, SEGMENTS)]}
    answer = compose_offline(state)
    assert answer.startswith("The Group is managed in three segments: Industrial Drives, Mobility Solutions and "
                             "Service [1].")
    assert "Service comprises spare parts" in answer
    # a count the sentences after it do not match is no such list
    short = SEGMENTS.replace(" Service comprises spare parts, repairs and retrofits.", "")
    assert "managed in three segments:" not in compose_offline({**state, "blocks": [_block(1, short)]})


def test_the_item_that_answers_every_part_of_a_news_question_leads() -> None:
    question = "What did Ternline agree in March 2025 to pay for Tindale Resources, and when is it expected to complete?"
    news = [_block(1, "Ternline agreed to buy Tindale Resources for A$685 million. Completion is expected in August "
                      "2025.", "news", title="Ternline to buy Tindale Resources", published_at="2025-03-12"),
            _block(2, "The Tindale Resources shareholder vote is scheduled for 24 July 2025.", "news",
                   title="Tindale vote date set", published_at="2025-06-05")]
    said = news_sentences(question, news)
    assert said[0] == ("2025-03-12: Ternline agreed to buy Tindale Resources for A$685 million; completion is expected "
                       "in August 2025 [1].")


def test_what_an_item_announced_is_its_body_and_the_amount_it_gives_and_a_named_day_picks_the_item() -> None:
    question = "What did Ternline announce about Redmesa Electric in June 2025?"
    news = [_block(1, REDMESA, "news", title="Ternline wins Redmesa storage contract", published_at="2025-06-17"),
            _block(2, "Ternline will hold its capital markets day on 30 June 2025.", "news",
                   title="Ternline capital markets day", published_at="2025-01-02")]
    said = news_sentences(question, news)
    # not the headline alone, and not the item that merely names a day in June 2025
    assert said == ["2025-06-17: Ternline has been selected by Redmesa Electric to build a 400 MWh storage system; "
                    "the contract is valued at approximately $165m [1]."]
    state = {"question": "What did Ternline announce on 17 June 2025?", "companies": [COMPANY],
             "blocks": [_block(3, "Ternline announced a new chief executive in its annual report."), *news]}
    assert compose_offline(state).startswith("2025-06-17: ")  # the news of that day, not a report's sentence


def test_a_why_part_gets_the_items_reason_first_and_a_name_keeps_its_capital() -> None:
    question = "Why did Ternline lower its 2025 forecast in July 2025, and what revenue does it now expect?"
    text = ("Ternline Antriebe AG cut its forecast for 2025 on Thursday, citing weaker orders and new US tariffs. "
            "The company now expects revenue of €2.30 billion to €2.40 billion. The shares fell 11%.")
    news = [_block(1, text, "news", title="Ternline lowers 2025 forecast", published_at="2025-07-24")]
    said = news_sentences(question, news)
    assert said[0] == ("2025-07-24: Ternline Antriebe AG cut its forecast for 2025 on Thursday, citing weaker orders "
                       "and new US tariffs; the company now expects revenue of €2.30 billion to €2.40 billion [1].")
