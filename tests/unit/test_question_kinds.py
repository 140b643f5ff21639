"""What kind of answer a question asks for (app/text/question_kinds.py), and the measure it asks about. The
questions here are written for these tests; none is a benchmark question."""

from __future__ import annotations

import pytest

from app.text.question_kinds import asked_sentence, measure_asked, member_noun, read_ask


@pytest.mark.parametrize(("question", "kind"), [
    ("What was Ternline's total revenue in FY2024?", "figure"),
    ("How many distribution centres did Ternline operate at the end of 2024?", "figure"),
    ("What operating profit did Ternline's freight arm report in FY2024?", "figure"),
    ("What share of Ternline's revenue came from Canada in 2024?", "figure"),
    ("How did Ternline's operating margin change between 2022 and 2024?", "change"),
    ("How does Ternline's 2024 net income compare with 2023?", "change"),
    ("By how much did Ternline's backlog rise in 2024?", "change"),
    ("How much did Ternline's dividend go up in FY2024?", "change"),
    ("How much did the share price drop in 2024?", "change"),
    ("How much did Ternline pay out in FY2024?", "figure"),
    ("Did Ternline's net debt increase in FY2024?", "yes_no_change"),
    ("Has Ternline's current ratio improved or worsened since 2023?", "yes_no_change"),
    ("Is Ternline a capital-intensive business?", "judgement"),
    ("Are Ternline's margins improving?", "judgement"),
    ("Is Ternline highly leveraged?", "judgement"),
    ("Which of Ternline's service lines had the highest operating margin in 2024?", "extreme"),
    ("If we leave out acquisitions, which region grew fastest for Ternline in 2024?", "extreme"),
    ("What are the main risks Ternline lists?", "list"),
    ("What are Ternline's reportable segments?", "list"),
    ("Is Ternline's business seasonal?", "yes_no"),
    ("Does Ternline have any material legal proceedings?", "yes_no"),
    ("Why did Ternline's operating income rise in 2024?", "explain"),
    ("What drove Ternline's higher fuel costs?", "explain"),
    # what a company reported as a measure is its figure; as anything else, the sentences that say it
    ("What did Ternline report as technology and development expense on its income statement for 2024?", "figure"),
    ("What did Ternline record as revenue in 2024?", "figure"),
    ("What did Ternline report as its main risks in 2024?", "list"),
    # a noun that seems to ask for a name but modifies a measure
    ("What segment operating profit did Ternline's Freight segment report for 2024?", "figure"),
    ("What acquisition costs did Ternline incur in 2024?", "figure"),
    # 'report' as the noun the question names its source by is no verb of a figure
    ("What events after the reporting period did Ternline disclose in its 2024 annual report?", "list"),
])
def test_kinds(question: str, kind: str) -> None:
    assert read_ask(question).kind == kind


def test_the_shape_details() -> None:
    assert read_ask("Did Ternline's net debt increase in FY2024?").direction == 1
    assert read_ask("Did Ternline's churn fall in 2024?").direction == -1
    assert read_ask("Has the margin improved or declined?").either == ("improved", "declined")
    extreme = read_ask("Which region had the biggest drop in revenue in 2024?")
    assert (extreme.extreme, extreme.of_change) == (1, True)
    assert read_ask("Which segment had the lowest EBIT in 2024?").extreme == -1


def test_the_asked_sentence_drops_instructions_and_lead_ins() -> None:
    assert asked_sentence("Answer from the balance sheet: what is Ternline's cash? Round to one decimal.") == (
        "what is Ternline's cash?")
    assert asked_sentence("According to the annual report, what is Ternline's revenue?") == "what is Ternline's revenue?"


def test_the_measure_asked() -> None:
    companies = ["Ternline Logistics"]
    backlog = measure_asked("What was Ternline Logistics' order backlog at the end of 2024?", companies)
    assert backlog.phrase == "order backlog" and backlog.segment is None
    segment = measure_asked("How much EBIT did Ternline's Freight Services segment generate in FY2024?", companies)
    assert (segment.phrase, segment.segment) == ("EBIT", "Freight Services")
    count = measure_asked("How many trucks did Ternline operate in 2024?", companies)
    assert count.count_noun == "trucks"
    statement = measure_asked("What net income did Ternline report in its consolidated income statement for 2024?",
                              companies)
    assert statement.phrase == "net income"
    joined = measure_asked("According to the annual report, what is Ternline's cash flow from operations (within the "
                           "last period)?", companies)
    assert joined.phrase == "cash flow from operations"  # a joining word inside the measure stays
    assert measure_asked("What was Ternline's cost of sales from FY2022 to FY2024?", companies).phrase == "cost of sales"


def test_a_name_asked_first_is_a_list_even_with_a_figure_after_it() -> None:
    assert read_ask("Which company did Ternline buy in 2023, and for how much?").kind == "list"
    assert read_ask("Who is Ternline's auditor?").kind == "list"
    assert read_ask("Who is Ternline's auditor?").one_name
    assert not read_ask("Which companies did Ternline buy in 2023?").one_name
    assert read_ask("Which segment had the highest margin?").kind == "extreme"


def test_a_deed_asks_for_a_name_a_plan_for_its_targets_and_a_measure_named_loosely_for_its_figure() -> None:
    deed = read_ask("What did Ternline acquire in 2024, and for how much?")
    assert (deed.kind, deed.one_name) == ("list", True)
    assert read_ask("What did Ternline recall, and what did it cost?").one_name
    assert read_ask("What is Ternline's FY2025 guidance?").kind == "list"
    assert read_ask("What was Ternline's revenue guidance for FY2025?").kind == "figure"
    assert read_ask("And what about their revenue? [Ternline, FY2024]").kind == "figure"
    assert read_ask("Tell me about Ternline").loose


def test_changes_asked_as_amounts_and_extremes_of_a_named_measures_change() -> None:
    assert read_ask("How much more did Ternline spend on capex in FY2024 than in FY2023?").kind == "change"
    assert read_ask("What was the euro decline in Ternline's net profit in FY2024?").kind == "change"
    assert read_ask("What was the decline rate limit?").kind != "change"
    fastest = read_ask("Which Ternline segment had the fastest revenue growth in FY2024?")
    assert (fastest.kind, fastest.of_change) == ("extreme", True)
    assert not read_ask("Which Ternline segment had the largest revenue in FY2024?").of_change
    assert measure_asked("How much more did Ternline spend on net capital expenditure in FY2024 than in FY2023?",
                         ["Ternline"]).phrase == "net capital expenditure"


@pytest.mark.parametrize("question, noun", [
    ("Which activity brought in the most cash for Acme in FY2022?", "activity"),
    ("What was the largest liability in Acme's balance sheet in 2022?", "liability"),
    ("Which of Acme's business segments had the lowest net revenue in 2021 Q1?", "segments"),
    ("Which type of debt received the largest investment among Acme's short term investments?", "debt"),
    ("Which region had the highest EBITDAR contribution for Acme during FY2022?", "region"),
])
def test_an_extreme_question_names_the_kind_of_row_it_ranks(question: str, noun: str) -> None:
    assert member_noun(question) == noun


@pytest.mark.parametrize("question, topic, groups", [
    ("Did Acme mention any mergers or acquisitions in the annual report? If there is no mention, return False.",
     "mergers or acquisitions", [{"merger", "acquisit", "acquir"}]),
    ("Did Acme mention any layoffs in the annual report?", "layoffs",
     [{"layoff", "redund", "retrench", "job+cut", "job+loss", "job+affect", "job+reduct", "social+plan",
       "workforc+reduct", "headcount+reduct", "reduc+workforc", "reduct+workforc", "reduc+headcount"}]),
    ("Does Acme's annual report mention a share buyback?", "share buyback",
     [{"share"}, {"buyback", "repurchas", "buy+back"}]),
    ("Is there any mention of cyber incidents in the report?", "cyber incidents", [{"cyber"}, {"incid"}]),
    ("Did Acme book an impairment in FY2024?", "", []),
])
def test_a_did_it_mention_question_names_what_a_text_must_hold(question: str, topic: str, groups: list) -> None:
    from app.text.question_kinds import mention_topic, mentioned_phrase

    assert mentioned_phrase(question) == topic
    assert [set(g) for g in mention_topic(question)] == groups


@pytest.mark.parametrize("question, companies, phrase, segment", [
    # a short name written with a capital inside, or capitals that stand for the company, are no measure words
    ("What is the amount of the gain accruing to JnJ as a result of the separation of its Consumer Health "
     "business segment, as of August 30, 2023?", ["Johnson & Johnson"], "gain", None),
    ("What was JPM's net revenue in 2021 Q1?", ["JPMorgan Chase"], "net revenue", None),
    ("What was MGM EBITDAR in 2022?", ["MGM Resorts International"], "EBITDAR", None),
    ("What is AmEx revenue?", ["American Express"], "revenue", None),
    # capitals of a measure stay, whoever is named
    ("What was EBITDA in 2022?", ["Ebix"], "EBITDA", None),
    ("What was net income attributable to shareholders in 2022?", ["Acme"], "net income attributable to shareholders",
     None),
])
def test_company_short_names_and_causes_are_no_part_of_the_measure(question, companies, phrase, segment):
    measure = measure_asked(question, companies)
    assert (measure.phrase, measure.segment) == (phrase, segment)


@pytest.mark.parametrize("question", ["Which company had higher revenue in 2022, Northwind or Helio?",
                                      "Which had the higher revenue in 2022: Northwind or Helio?",
                                      "Who has more employees, Northwind or Helio?"])
def test_which_of_two_had_more_is_a_comparison_of_the_measure_alone(question: str) -> None:
    assert read_ask(question).kind == "change"
    assert measure_asked(question, ["Northwind", "Helio"]).phrase in ("revenue", "employees")


def test_a_count_compared_without_how_many_still_counts_its_noun() -> None:
    from app.facts.query import read_query

    query = read_query("Who has more employees, Northwind or Helio?", ["Northwind", "Helio"])
    # (with the other words reports count people by: '3,140 people', 'headcount')
    assert query.kind == "count" and "employe" in query.count_stems and {"peopl", "headcount"} <= query.count_stems
